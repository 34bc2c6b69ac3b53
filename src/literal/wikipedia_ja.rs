//! The Japanese Wikipedia article "MTD-f": its `MTDF` in while form (lines 15–32) over its own
//! `AlphaBetaWithMemory` (lines 47–97), in minimax form. Line numbers count the lines of the
//! article as saved.
//!
//! The article's `AlphaBetaWithMemory` differs from Plaat's: it stores a bound at the cut-off itself
//! (`StoreLowerBound` when a MAX node fails high, `StoreUpperBound` when a MIN node fails low) and
//! returns there, and after the loop it stores `g` as *both* bounds, with the comment that this is the
//! case `α < g < β`, which a null-window search never reaches.
//!
//! # Deviations
//!
//! 1. `INFINITY` is the crate's [`INFINITY`].
//! 2. `node.IsMyNode` ("the node is mine") is read as "MAX is to move": the article scores nodes from
//!    the root player's side, who maximises.
//! 3. The table keeps a node's two bounds; `GetLowerBound` of a node that only has an upper bound
//!    answers `-INFINITY`, and `GetUpperBound` of one with only a lower bound `+INFINITY`.
//!
//! # What the tests found
//!
//! 1. **A fail-soft bound stored as exact.** The comment is wrong: the loop can also end with
//!    `g <= α` at a MAX node (every child failed low) or `g >= β` at a MIN node, and then `g` is only
//!    a bound, but it is stored as both. A later pass reads it as the exact value and MTD(f) returns a
//!    wrong value on plain trees (driver `wikipedia-ja-mtdf`).
//! 2. Like Plaat's, the table has no depth, so a position reached at two depths is answered from the
//!    other depth.
//!
//! The corrected driver (`wikipedia-ja-mtdf-corrected`) stores after the loop by Plaat's rule (an
//! upper bound when `g < β`, a lower bound when `g > α`) and keys the table by node and depth.

use super::{Perspective, Search, Table, first_guess, run_listing};
use crate::driver::{Hooks, Outcome, SearchParams};
use crate::game::{Game, Player};
use crate::value::{INFINITY, Value};

// ANCHOR: mtdf
/// `MTDF` (Wikipedia (ja), "MTD-f", lines 15–32), the while form: the loop tests before each pass.
pub fn mtdf<G: Game>(search: &mut Search<'_, G>, node: &G::Position, f: Value, depth: u32) -> Value {
    let mut g = f;
    let mut upper_bound = INFINITY;
    let mut lower_bound = -INFINITY;
    while lower_bound < upper_bound {
        let beta = if g == lower_bound { g + 1 } else { g };
        // A null-window search by alpha-beta with a transposition table.
        g = alpha_beta_with_memory(search, node, beta - 1, beta, depth);
        search.pass(beta - 1, beta, g);
        if g < beta {
            upper_bound = g;
        } else {
            lower_bound = g;
        }
    }
    g
}
// ANCHOR_END: mtdf

/// `AlphaBetaWithMemory(node, α, β, depth)` as callers see it: counts the node, runs the listing
/// ([`alpha_beta_with_memory_listing`]) and reports the call.
///
/// Contract (fail-soft), with `f` the depth-`depth` minimax value of `node` from MAX's side:
/// `g <= alpha` implies `f <= g`; `g >= beta` implies `f >= g`; otherwise `g == f`. The printed
/// listing breaks it (see the module documentation); the corrected one keeps it.
pub fn alpha_beta_with_memory<G: Game>(
    search: &mut Search<'_, G>,
    node: &G::Position,
    alpha: Value,
    beta: Value,
    depth: u32,
) -> Value {
    search.call(node, (depth, alpha, beta), Perspective::Max, |search| {
        alpha_beta_with_memory_listing(search, node, alpha, beta, depth)
    })
}

// ANCHOR: alpha_beta_with_memory
/// `AlphaBetaWithMemory` (Wikipedia (ja), "MTD-f", lines 47–97).
pub fn alpha_beta_with_memory_listing<G: Game>(
    search: &mut Search<'_, G>,
    node: &G::Position,
    mut alpha: Value,
    mut beta: Value,
    depth: u32,
) -> Value {
    let game = search.game;
    let key = game.key(node);
    // Use the previous result if the table has one.
    if let Some(entry) = search.memory.retrieve(key, depth) {
        let lower_bound = entry.lowerbound;
        if beta <= lower_bound {
            return lower_bound; // fail high: cut
        }
        let upper_bound = entry.upperbound;
        if upper_bound <= alpha {
            return upper_bound; // fail low: cut
        }
        // The window may be narrowed.
        alpha = alpha.max(lower_bound);
        beta = beta.min(upper_bound);
    }
    let mut g;
    if depth == 0 || game.is_terminal(node) {
        g = search.evaluate(node);
    } else {
        let children = game.moves(node).map(|mv| game.play(node, mv));
        if game.to_move(node) == Player::Max {
            // The node is ours: the largest child value.
            g = -INFINITY;
            let mut a = alpha;
            for child in children {
                g = g.max(alpha_beta_with_memory(search, &child, a, beta, depth - 1));
                if beta <= g {
                    // The value is at least g: store g as a lower bound.
                    search.memory.store_lower_bound(key, depth, g);
                    return g; // cut
                }
                a = a.max(g);
            }
        } else {
            // The opponent's node: the smallest child value.
            g = INFINITY;
            let mut b = beta;
            for child in children {
                g = g.min(alpha_beta_with_memory(search, &child, alpha, b, depth - 1));
                if g <= alpha {
                    // The value is at most g: store g as an upper bound.
                    search.memory.store_upper_bound(key, depth, g);
                    return g; // cut
                }
                b = b.min(g);
            }
        }
    }
    // The case α < g < β, says the article; never reached by a null-window search.
    if search.corrected {
        // correction: `g` is exact only inside the window; outside it is the bound it fails to.
        if g < beta {
            search.memory.store_upper_bound(key, depth, g);
        }
        if g > alpha {
            search.memory.store_lower_bound(key, depth, g);
        }
    } else {
        search.memory.store_upper_bound(key, depth, g);
        search.memory.store_lower_bound(key, depth, g);
    }
    g
}
// ANCHOR_END: alpha_beta_with_memory

// The drivers: each entry is one row of the catalogue (`crate::registry`).

/// `wikipedia-ja-mtdf`: the article's [`mtdf`] over its `AlphaBetaWithMemory`, as printed.
pub fn run_mtdf<'a, G: Game>(
    game: &'a G,
    root: &G::Position,
    params: &SearchParams,
    hooks: Hooks<'a, G>,
) -> Outcome<G::Move> {
    run_listing(game, root, params, hooks, Table::AsPrinted, |search| {
        mtdf(search, root, first_guess(params, 0), params.depth)
    })
}

/// `wikipedia-ja-mtdf-corrected`: Plaat's store rule after the loop and a table keyed by depth.
pub fn run_mtdf_corrected<'a, G: Game>(
    game: &'a G,
    root: &G::Position,
    params: &SearchParams,
    hooks: Hooks<'a, G>,
) -> Outcome<G::Move> {
    run_listing(game, root, params, hooks, Table::Corrected, |search| {
        mtdf(search, root, first_guess(params, 0), params.depth)
    })
}
