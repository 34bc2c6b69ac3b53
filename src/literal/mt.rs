//! The MTD framework of Plaat, Schaeffer, Pijls and de Bruin, "Best-First Fixed-Depth Minimax
//! Algorithms", *Artificial Intelligence* 87 (1996), Figure 11 (p. 19), and the instances Plaat's page
//! "MTD(f), a new chess algorithm" names (lines 122–142): SSS* as MTD(+INFINITY), DUAL* as
//! MTD(−INFINITY), and Coplan's C* as MTD(bi), bisection of the interval between the bounds.
//!
//! The figure writes one driver, `MTD(n, first, next)`: `f+` and `f−` start at `±INFINITY`, `bound`
//! and `g` at `first`; each pass is `g := MT(n, bound)`, a null-window `AlphaBetaWithMemory(n,
//! bound − 1, bound)`, which moves `f+` down to `g` if `g < bound` and `f−` up to `g` otherwise;
//! then the statement `next` chooses the new `bound`; `until f− = f+`. The instances differ only in
//! `first` and `next`:
//!
//! | driver | `first` | `next` |
//! |---|---|---|
//! | SSS* | `+INFINITY` | `bound := g` |
//! | DUAL* | `−INFINITY` | `bound := g + 1` |
//! | MTD(bi) | `average(+INFINITY, −INFINITY)` | `bound := average(f+, f−)` |
//!
//! # Deviations
//!
//! 1. `MT` is Plaat's [`AlphaBetaWithMemory`](super::plaat::alpha_beta_with_memory) over the table
//!    keyed by node and depth, the correction that listing needs.
//! 2. `next` is a function of `g`, `f−` and `f+` that returns the new `bound`.
//! 3. A pass that leaves `f+`, `f−` and `bound` as they were would be repeated forever; the loop then
//!    stops and returns `g`, which is how the tests can show such a driver wrong instead of hanging.
//! 4. `INFINITY` is the crate's [`INFINITY`], so `bound − 1` and `f+ + f−` cannot overflow.
//!
//! # What the tests found
//!
//! The figure does not say how `average` rounds. Read as integer division (`(f+ + f−) div 2`, which
//! rounds towards zero), bisection can test at `bound = f−` when `f−` and `f+` are adjacent
//! non-negative values: that test can only fail high again at `f−`, nothing changes, and the printed
//! loop never ends (driver `mtd-bi-literal`). The corrected driver (`mtd-bi-literal-corrected`)
//! rounds up, so that `f− < bound <= f+` and every pass moves a bound.

use super::plaat::alpha_beta_with_memory;
use super::{Search, Table, run_listing};
use crate::driver::{Hooks, Outcome, SearchParams};
use crate::game::Game;
use crate::value::{INFINITY, Value};

// ANCHOR: mtd
/// `MTD(n, first, next)` (Figure 11) at depth `d`; values from MAX's side.
pub fn mtd<G: Game>(
    search: &mut Search<'_, G>,
    n: &G::Position,
    first: Value,
    next: fn(Value, Value, Value) -> Value,
    d: u32,
) -> Value {
    let mut f_plus = INFINITY;
    let mut f_minus = -INFINITY;
    let mut bound = first;
    // `g := first` in the figure; the first pass overwrites it before it is read.
    let mut g;
    loop {
        // MT(n, bound): a null-window call of AlphaBetaWithMemory.
        g = alpha_beta_with_memory(search, n, bound - 1, bound, d);
        search.pass(bound - 1, bound, g);
        let before = (f_plus, f_minus, bound);
        if g < bound {
            f_plus = g;
        } else {
            f_minus = g;
        }
        bound = next(g, f_minus, f_plus);
        // deviation: a pass that changes nothing would be repeated forever.
        if (f_plus, f_minus, bound) == before {
            break;
        }
        if f_minus == f_plus {
            break;
        }
    }
    g
}
// ANCHOR_END: mtd

// ANCHOR: instances
/// SSS* = MTD(n, +INFINITY, bound := g): every pass but the last fails low.
pub fn sss<G: Game>(search: &mut Search<'_, G>, n: &G::Position, d: u32) -> Value {
    mtd(search, n, INFINITY, |g, _f_minus, _f_plus| g, d)
}

/// DUAL* = MTD(n, −INFINITY, bound := g + 1): every pass but the last fails high.
pub fn dual<G: Game>(search: &mut Search<'_, G>, n: &G::Position, d: u32) -> Value {
    mtd(search, n, -INFINITY, |g, _f_minus, _f_plus| g + 1, d)
}

/// The figure's `average`, read as integer division.
const fn average(a: Value, b: Value) -> Value {
    (a + b) / 2
}

/// MTD(bi) = MTD(n, average(+INFINITY, −INFINITY), bound := average(f+, f−)).
pub fn mtd_bi<G: Game>(search: &mut Search<'_, G>, n: &G::Position, d: u32) -> Value {
    mtd(search, n, average(INFINITY, -INFINITY), |_g, f_minus, f_plus| average(f_plus, f_minus), d)
}
// ANCHOR_END: instances

// ANCHOR: mtd_bi_corrected
/// The average rounded up: for `f− < f+` it lies in `f− + 1 ..= f+`.
const fn average_rounded_up(a: Value, b: Value) -> Value {
    (a + b + 1).div_euclid(2)
}

/// Corrected MTD(bi): the test value rounds up, so every pass moves a bound.
pub fn mtd_bi_corrected<G: Game>(search: &mut Search<'_, G>, n: &G::Position, d: u32) -> Value {
    // correction: `average_rounded_up` in place of `average`.
    let first = average_rounded_up(INFINITY, -INFINITY);
    mtd(search, n, first, |_g, f_minus, f_plus| average_rounded_up(f_plus, f_minus), d)
}
// ANCHOR_END: mtd_bi_corrected

// The drivers: each entry is one row of the catalogue (`crate::registry`).

/// `sss-literal`: SSS* as MTD(+INFINITY), [`sss`].
pub fn run_sss<'a, G: Game>(
    game: &'a G,
    root: &G::Position,
    params: &SearchParams,
    hooks: Hooks<'a, G>,
) -> Outcome<G::Move> {
    run_listing(game, root, params, hooks, Table::KeyedByDepth, |search| sss(search, root, params.depth))
}

/// `dual-literal`: DUAL* as MTD(−INFINITY), [`dual`].
pub fn run_dual<'a, G: Game>(
    game: &'a G,
    root: &G::Position,
    params: &SearchParams,
    hooks: Hooks<'a, G>,
) -> Outcome<G::Move> {
    run_listing(game, root, params, hooks, Table::KeyedByDepth, |search| dual(search, root, params.depth))
}

/// `mtd-bi-literal`: [`mtd_bi`] with `average` as integer division.
pub fn run_mtd_bi<'a, G: Game>(
    game: &'a G,
    root: &G::Position,
    params: &SearchParams,
    hooks: Hooks<'a, G>,
) -> Outcome<G::Move> {
    run_listing(game, root, params, hooks, Table::KeyedByDepth, |search| mtd_bi(search, root, params.depth))
}

/// `mtd-bi-literal-corrected`: [`mtd_bi_corrected`], with an average that rounds up.
pub fn run_mtd_bi_corrected<'a, G: Game>(
    game: &'a G,
    root: &G::Position,
    params: &SearchParams,
    hooks: Hooks<'a, G>,
) -> Outcome<G::Move> {
    run_listing(game, root, params, hooks, Table::Corrected, |search| {
        mtd_bi_corrected(search, root, params.depth)
    })
}
