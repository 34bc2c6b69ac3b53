//! Plain minimax in minimax form: MAX nodes take the largest child value, MIN nodes the smallest, and
//! leaves are scored from MAX's side. This is the crate's oracle: every other driver must return
//! exactly its value.

use std::time::Instant;

use crate::game::{Game, Player};

use crate::driver::{Counts, Hooks, Outcome, SearchParams, capped_depth};
use crate::value::{INFINITY, Value};

/// Searches `position` to `depth` plies (`u32::MAX` for no limit) and counts what it visits.
#[must_use]
pub fn search<G: Game>(game: &G, position: &G::Position, depth: u32) -> Outcome<G::Move> {
    let start = Instant::now();
    let mut counts = Counts::default();
    let value = minimax(game, position, depth, &mut counts);
    Outcome::single(value, counts, capped_depth(game, position, depth), start.elapsed())
}

/// The catalogue's entry (`minimax`): [`search`] from `root` to `params.depth`; it hears no hooks.
pub fn run<'a, G: Game>(
    game: &'a G,
    root: &G::Position,
    params: &SearchParams,
    _: Hooks<'a, G>,
) -> Outcome<G::Move> {
    search(game, root, params.depth)
}

// ANCHOR: minimax
/// The minimax value of `node` searched `depth` plies deep, from MAX's side.
///
/// Contract: returns exactly the depth-`depth` minimax value; counts every call as a node and every
/// evaluation as a leaf.
pub fn minimax<G: Game>(game: &G, node: &G::Position, depth: u32, counts: &mut Counts) -> Value {
    counts.nodes += 1;
    if depth == 0 || game.is_terminal(node) {
        counts.leaves += 1;
        return game.evaluate(node);
    }
    match game.to_move(node) {
        Player::Max => {
            let mut best = -INFINITY;
            for mv in game.moves(node) {
                best = best.max(minimax(game, &game.play(node, mv), depth - 1, counts));
            }
            best
        }
        Player::Min => {
            let mut best = INFINITY;
            for mv in game.moves(node) {
                best = best.min(minimax(game, &game.play(node, mv), depth - 1, counts));
            }
            best
        }
    }
}
// ANCHOR_END: minimax
