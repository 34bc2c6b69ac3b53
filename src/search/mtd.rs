//! The MTD family: find the value with null-window passes of alpha-beta with memory at the root.
//!
//! Every MTD driver keeps a lower and an upper bound on the root's value and repeats a null-window
//! test at some pivot `gamma` in `(lower, upper]`: a result below `gamma` is a new upper bound, one at
//! or above it a new lower bound. They differ only in the pivot (Plaat, Schaeffer, Pijls and de
//! Bruin, 1996):
//!
//! | driver | pivot |
//! |---|---|
//! | MTD(f) | the last result `g`, moved up by one when it equals the lower bound |
//! | SSS* = MTD(+∞) | the upper bound: every pass but the last fails low |
//! | DUAL* = MTD(−∞) | the lower bound plus one: every pass but the last fails high |
//! | MTD-bi (C*) | the middle of the bounds |
//! | MTD-Pons | half-way from 0 to the bound on the middle's side, while that lies beyond the middle; then the middle |
//!
//! MTD-Pons is the driver of Pascal Pons' Connect Four solver ("Solving Connect 4", part 8,
//! "iterative deepening & null window"). Where a score says how soon the game is won, as in
//! Connect Four, a test at an extreme value is a shallow search: the game's
//! [value bounds](crate::game::Game::value_bounds) cut every line too long to reach it. Testing
//! half-way to the far bound first is then iterative deepening by the window, and fills the table
//! for the harder tests near 0.

use super::searcher::{Searcher, WindowSearch};
use crate::driver::Pass;
use crate::driver::observe::Observer;
use crate::game::Game;
use crate::value::{INFINITY, Value};

/// How an MTD driver picks the next test value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pivot {
    /// MTD(f): start at the first guess, then follow the last result.
    LastResult,
    /// SSS*: test at the upper bound.
    UpperBound,
    /// DUAL*: test just above the lower bound.
    LowerBound,
    /// MTD-bi: bisect the interval between the bounds.
    Bisection,
    /// MTD-Pons: half-way from 0 to the bound on the middle's side while that is further out than
    /// the middle, else the middle.
    TowardFarBound,
}

// ANCHOR: mtd
/// Runs MTD with `pivot` from `first_guess` at `depth`, each pass a null-window `alpha_beta` (on
/// one thread [`alpha_beta`](super::alphabeta::alpha_beta) itself); returns the exact value (from
/// the side to move at the root) and appends each pass to `passes`. Stops early, with a meaningless
/// value, only when the searcher is stopped.
///
/// Contract: every pivot lies strictly inside the bounds' interval `(lower, upper]`, so each pass
/// moves a bound and the loop ends after at most `upper - lower` passes (asserted at every pass).
pub fn mtd<G: Game, O: Observer<G>>(
    searcher: &mut Searcher<'_, G, O>,
    root: &G::Position,
    depth: u32,
    pivot: Pivot,
    first_guess: Value,
    passes: &mut Vec<Pass>,
    alpha_beta: &impl WindowSearch<G, O>,
) -> Value {
    let (mut lower, mut upper) = (-INFINITY, INFINITY);
    let mut g = first_guess.clamp(-INFINITY, INFINITY);
    while lower < upper {
        // Each pivot lies in (lower, upper], so every pass moves one bound and the loop ends. (The
        // last result is one of the bounds, or the first guess, which lies between them.)
        let gamma = match pivot {
            Pivot::LastResult => {
                if g == lower {
                    g + 1
                } else {
                    g
                }
            }
            Pivot::UpperBound => upper,
            Pivot::LowerBound => lower + 1,
            Pivot::Bisection => lower + (upper - lower + 1) / 2,
            Pivot::TowardFarBound => toward_far_bound(lower, upper),
        };
        debug_assert!(lower < gamma && gamma <= upper, "pivot {gamma} outside ({lower}, {upper}]");
        g = alpha_beta.search(searcher, root, depth, gamma - 1, gamma, 0);
        if searcher.stop.stopped {
            return g;
        }
        if g < gamma {
            upper = g;
        } else {
            lower = g;
        }
        passes.push(Pass { alpha: gamma - 1, beta: gamma, result: g });
    }
    if searcher.config.deeper_entries {
        return confirm(searcher, root, depth, g, passes, alpha_beta);
    }
    g
}
// ANCHOR_END: mtd

// ANCHOR: toward_far_bound
/// Pons' pivot in `(lower, upper]`: his `med` is the middle of the bounds, moved out to `min / 2`
/// when it is not above 0 and `min / 2` is below it, or to `max / 2` when it is not below 0 and
/// `max / 2` is above it (`solver.cpp`, `solve`). His test `(med, med + 1)` is the pass at
/// `med + 1`.
fn toward_far_bound(lower: Value, upper: Value) -> Value {
    let middle = lower + (upper - lower) / 2;
    let med = if middle <= 0 && lower / 2 < middle {
        lower / 2
    } else if middle >= 0 && upper / 2 > middle {
        upper / 2
    } else {
        middle
    };
    // `med` lies in `[lower, upper)`, so the test value is in `(lower, upper]` (asserted in `mtd`).
    med + 1
}
// ANCHOR_END: toward_far_bound

/// With [deeper entries](crate::driver::SearchParams::deeper_entries), each pass may be answered from a
/// different deeper table entry, so the lower bound of one pass and the upper bound of another can
/// come from different extensions of the tree, and meet (or cross) at a value no extension has.
/// One search with the window `(g - 1, g + 1)` confirms `g` (a result strictly inside is exact for
/// that search's extension); if it does not, one full-window search decides.
fn confirm<G: Game, O: Observer<G>>(
    searcher: &mut Searcher<'_, G, O>,
    root: &G::Position,
    depth: u32,
    g: Value,
    passes: &mut Vec<Pass>,
    alpha_beta: &impl WindowSearch<G, O>,
) -> Value {
    let (alpha, beta) = (g - 1, g + 1);
    let result = alpha_beta.search(searcher, root, depth, alpha, beta, 0);
    passes.push(Pass { alpha, beta, result });
    if searcher.stop.stopped || (alpha < result && result < beta) {
        return result;
    }
    let result = alpha_beta.search(searcher, root, depth, -INFINITY, INFINITY, 0);
    passes.push(Pass { alpha: -INFINITY, beta: INFINITY, result });
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pons' pivots, worked by hand from his `solve` for the bounds a Connect Four search passes
    /// through: half-way out while that is beyond the middle, then the middle.
    #[test]
    fn pons_pivot_tests_half_way_to_the_far_bound_first() {
        let cases = [
            ((-18, 19), -8), // middle 0: half the lower bound, -9, tested as value >= -8
            ((-9, 19), 10),  // middle 5: half the upper bound, 9
            ((-9, 10), -3),  // middle 0: -4
            ((-4, 10), 6),   // middle 3: 5
            ((-2, 5), 3),    // middle 1: 2
            ((-2, 2), 0),    // middle 0: -1
            ((-1, 2), 2),    // middle 0, -1 / 2 is 0, not below it: half the upper bound, 1
            ((-1, 1), 1),    // middle 0, both halves 0: the middle
            ((3, 10), 7),    // middle 6 is beyond 10 / 2: the middle
            ((-10, -3), -6), // middle -7 is beyond -10 / 2: the middle
            ((-INFINITY, INFINITY), -INFINITY / 2 + 1),
        ];
        for ((lower, upper), pivot) in cases {
            assert_eq!(toward_far_bound(lower, upper), pivot, "bounds ({lower}, {upper}]");
        }
    }
}
