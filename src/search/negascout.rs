//! Reinefeld's NegaScout (1983): like PVS, but the null-window bound `n` moves with the best value
//! `m`, and near the leaves (fewer than three plies left) a fail-high result is already exact, so
//! no re-search is made.

use super::searcher::{Entered, Searcher};
use crate::driver::observe::Observer;
use crate::game::Game;
use crate::value::{INFINITY, Value};

// ANCHOR: negascout
/// NegaScout of `position`, `depth` plies, window `(alpha, beta)`, fail-soft, from the side to move.
/// Contract, arguments and panics: as [`super::alphabeta::alpha_beta`].
pub fn negascout<G: Game, O: Observer<G>>(
    searcher: &mut Searcher<'_, G, O>,
    position: &G::Position,
    depth: u32,
    alpha: Value,
    beta: Value,
    ply: usize,
) -> Value {
    debug_assert!(alpha < beta, "negascout needs a non-empty window, got ({alpha}, {beta})");
    let node = match searcher.enter(position, depth, alpha, beta, ply) {
        Entered::Done(value) => return value,
        Entered::Expand(node) => node,
    };
    let (alpha, beta) = (node.alpha, node.beta);
    let mut m = -INFINITY;
    let mut n = beta;
    let mut best = None;
    while let Some(mv) = searcher.next_move(&node) {
        let child = searcher.game.play(position, mv);
        let t = -negascout(searcher, &child, depth - 1, -n, -alpha.max(m), ply + 1);
        if t > m {
            // With the full window (first child), at depth 1 or 2 (where a fail-soft null-window
            // result that fails high is exact, if the child was searched rather than answered by a
            // bound), or past beta, `t` needs no re-search.
            let searched = !searcher.last_answered_by_bound();
            let value =
                if n == beta || (depth < 3 && searched && searcher.shallow_fail_high_is_exact()) || t >= beta
                {
                    t
                } else {
                    let floor = searcher.research_floor(t, alpha.max(m));
                    -negascout(searcher, &child, depth - 1, -beta, -floor, ply + 1)
                };
            // Reinefeld assigns `m := value`: a re-search returns at least `t > m`. Not when the
            // scout and the re-search answer from different deeper table entries; then keep the max.
            if value > m {
                m = value;
                best = Some(mv);
            }
        }
        if m >= beta {
            break;
        }
        n = alpha.max(m) + 1;
    }
    searcher.leave(node, position, ply, m, best)
}
// ANCHOR_END: negascout
