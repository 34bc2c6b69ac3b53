//! Fail-soft alpha-beta with memory, in negamax form: the search under `alphabeta`, `aspiration`
//! and every MTD driver.
//!
//! It is Plaat's `AlphaBetaWithMemory` turned into negamax: the table's bounds may answer a node at
//! once or narrow its window, children are searched best-first until one reaches `beta`, and the
//! result is stored as a bound relative to the window searched.

use super::searcher::{Entered, Searcher};
use crate::driver::observe::Observer;
use crate::game::Game;
use crate::value::{INFINITY, Value};

// ANCHOR: alpha_beta
/// Searches `position` `depth` plies deep with the window `(alpha, beta)`, from the side to move.
///
/// Contract (fail-soft), for `v` the exact depth-`depth` value and `g` the result:
/// * `g <= alpha` ⇒ `v <= g` (fail low: an upper bound);
/// * `g >= beta` ⇒ `v >= g` (fail high: a lower bound);
/// * otherwise `g == v`.
///
/// With `beta = alpha + 1` this is Pearl's Test, the null-window call of the MTD drivers. `ply` is
/// the distance from the root (0 at the root): killer moves are kept per ply. Values are from the
/// side to move at `position`; the window must lie within `±INFINITY`.
///
/// ```
/// use nullwindow::search::{Engine, alphabeta::alpha_beta};
/// use nullwindow::{SearchParams, Tree};
///
/// let tree: Tree = "((3 17) (2 12) (15 (25 0)))".parse()?; // worth 15
/// let params = SearchParams::default();
/// let mut engine = Engine::new(&params);
/// let root = tree.root_id();
/// // "Is it worth at least 10?" Yes: fails high with a lower bound.
/// let g = engine.with_searcher(&tree, &params, |searcher| alpha_beta(searcher, &root, 3, 9, 10, 0));
/// assert!(g >= 10);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Panics
/// In debug builds, when the window is empty (`alpha >= beta`), as Stockfish asserts its window.
pub fn alpha_beta<G: Game, O: Observer<G>>(
    searcher: &mut Searcher<'_, G, O>,
    position: &G::Position,
    depth: u32,
    alpha: Value,
    beta: Value,
    ply: usize,
) -> Value {
    debug_assert!(alpha < beta, "alpha_beta needs a non-empty window, got ({alpha}, {beta})");
    let node = match searcher.enter(position, depth, alpha, beta, ply) {
        Entered::Done(value) => return value,
        Entered::Expand(node) => node,
    };
    let mut g = -INFINITY;
    let mut best = None;
    let mut a = node.alpha;
    while let Some(mv) = searcher.next_move(&node) {
        let child = searcher.game.play(position, mv);
        let value = -alpha_beta(searcher, &child, depth - 1, -node.beta, -a, ply + 1);
        if value > g {
            g = value;
            best = Some(mv);
        }
        a = a.max(g);
        if g >= node.beta {
            break;
        }
    }
    searcher.leave(node, position, ply, g, best)
}
// ANCHOR_END: alpha_beta
