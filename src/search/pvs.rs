//! Principal variation search: the first child with the full window, every later child with a null
//! window around the best value so far, re-searched only when it proves better.

use super::searcher::{Entered, Searcher};
use crate::driver::observe::Observer;
use crate::game::Game;
use crate::value::{INFINITY, Value};

// ANCHOR: pvs
/// Principal variation search of `position`, `depth` plies, window `(alpha, beta)`, fail-soft, from
/// the side to move. Contract, arguments and panics: as [`super::alphabeta::alpha_beta`].
pub fn pvs<G: Game, O: Observer<G>>(
    searcher: &mut Searcher<'_, G, O>,
    position: &G::Position,
    depth: u32,
    alpha: Value,
    beta: Value,
    ply: usize,
) -> Value {
    debug_assert!(alpha < beta, "pvs needs a non-empty window, got ({alpha}, {beta})");
    let node = match searcher.enter(position, depth, alpha, beta, ply) {
        Entered::Done(value) => return value,
        Entered::Expand(node) => node,
    };
    let mut g = -INFINITY;
    let mut best = None;
    let mut a = node.alpha;
    for index in 0.. {
        let Some(mv) = searcher.next_move(&node) else { break };
        let child = searcher.game.play(position, mv);
        let value = if index == 0 {
            -pvs(searcher, &child, depth - 1, -node.beta, -a, ply + 1)
        } else {
            // Null window: is this child better than `a`?
            let test = -pvs(searcher, &child, depth - 1, -a - 1, -a, ply + 1);
            if test > a && test < node.beta {
                // It is, by at least `test`: find by how much.
                let floor = searcher.research_floor(test, a);
                -pvs(searcher, &child, depth - 1, -node.beta, -floor, ply + 1)
            } else {
                test
            }
        };
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
// ANCHOR_END: pvs
