//! Aspiration search: a window of `±delta` around a guess (the previous iteration's value), opened on
//! the failing side when the value falls outside it, over one of the engine's recursive searches:
//! alpha-beta (the `aspiration` driver) or NegaScout (`aspiration-negascout`, the baseline of Plaat
//! et al.'s experiments).

use super::searcher::{Searcher, WindowSearch};
use crate::driver::Pass;
use crate::driver::observe::Observer;
use crate::game::Game;
use crate::value::{INFINITY, Value};

// ANCHOR: aspiration
/// Searches `root` at `depth` by `search` with an aspiration window around `guess`; returns the exact
/// value (from the side to move) and appends each root search to `passes`. `delta` must be at least 1.
///
/// Each re-search opens the window on the side the result fell, up to the fail-soft bound, so no
/// depth takes more than two passes (`engine::aspiration_takes_at_most_two_passes_per_iteration`).
pub fn aspiration<G: Game, O: Observer<G>>(
    searcher: &mut Searcher<'_, G, O>,
    root: &G::Position,
    depth: u32,
    guess: Value,
    delta: Value,
    passes: &mut Vec<Pass>,
    search: &impl WindowSearch<G, O>,
) -> Value {
    let guess = guess.clamp(-INFINITY, INFINITY);
    let (mut alpha, mut beta) = ((guess - delta).max(-INFINITY), (guess + delta).min(INFINITY));
    loop {
        let g = search.search(searcher, root, depth, alpha, beta, 0);
        passes.push(Pass { alpha, beta, result: g });
        if searcher.stop.stopped
            || (alpha < g && g < beta)
            || (g <= alpha && alpha == -INFINITY)
            || (g >= beta && beta == INFINITY)
        {
            return g;
        }
        // Fail-soft: the result is a bound, so the re-search window can start right at it.
        if g <= alpha {
            (alpha, beta) = (-INFINITY, g + 1);
        } else {
            (alpha, beta) = (g - 1, INFINITY);
        }
    }
}
// ANCHOR_END: aspiration
