//! The Chessprogramming wiki page "MTD(f)": the C form of MTD(f) with the root's bounds in an array,
//! `int bound[2]` (lower, upper), on line 13 of the page as saved. The page also reprints Plaat's
//! Pascal `MTDF` and `iterative_deepening` (lines 7–9), which [`super::plaat`] translates.
//!
//! Two tricks make the C form short: `beta = f + (f == bound[0])` adds one exactly when the last
//! result was the lower bound (Plaat's `if g == lowerbound then beta := g + 1 else beta := g`), and
//! `bound[f < beta] = f` writes a fail-low result to the upper bound (index 1) and a fail-high one to
//! the lower bound (index 0).
//!
//! # Deviations
//!
//! 1. The page prints no `alphaBetaWithMemory`; the driver calls Plaat's listing
//!    ([`super::plaat::alpha_beta_with_memory`]) over the table keyed by node and depth, the
//!    correction that listing needs.
//! 2. The C function searches a global position; the Rust one takes the root.
//! 3. `oo` is the crate's [`INFINITY`]; `bool` to index and to `int` are written `usize::from` and
//!    `i32::from`.

use super::plaat::alpha_beta_with_memory;
use super::{Search, Table, first_guess, run_listing};
use crate::driver::{Hooks, Outcome, SearchParams};
use crate::game::Game;
use crate::value::{INFINITY, Value};

// ANCHOR: mtdf
/// `mtdf` (Chessprogramming wiki, "MTD(f)", line 13): a `do … while` over null-window calls, the
/// root's bounds in `bound[0]` (lower) and `bound[1]` (upper).
pub fn mtdf<G: Game>(search: &mut Search<'_, G>, root: &G::Position, mut f: Value, depth: u32) -> Value {
    let mut bound = [-INFINITY, INFINITY]; // lower, upper
    loop {
        let beta = f + i32::from(f == bound[0]);
        f = alpha_beta_with_memory(search, root, beta - 1, beta, depth);
        search.pass(beta - 1, beta, f);
        bound[usize::from(f < beta)] = f;
        if bound[0] >= bound[1] {
            break;
        }
    }
    f
}
// ANCHOR_END: mtdf

// The drivers: each entry is one row of the catalogue (`crate::registry`).

// ANCHOR: entry
/// `cpw-mtdf`: the C [`mtdf`] over Plaat's `AlphaBetaWithMemory` with the table keyed by depth.
pub fn run_mtdf<'a, G: Game>(
    game: &'a G,
    root: &G::Position,
    params: &SearchParams,
    hooks: Hooks<'a, G>,
) -> Outcome<G::Move> {
    run_listing(game, root, params, hooks, Table::KeyedByDepth, |search| {
        mtdf(search, root, first_guess(params, 0), params.depth)
    })
}
// ANCHOR_END: entry
