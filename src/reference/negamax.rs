//! Plain minimax in negamax form: every node maximises the negated values of its children, and leaves
//! are scored from the side to move. It visits exactly the nodes [`super::minimax`] visits and must
//! return the same value; the two side by side show that the forms are one algorithm.

use std::time::Instant;

use crate::game::Game;

use crate::driver::{Counts, Hooks, Outcome, SearchParams, capped_depth};
use crate::value::{INFINITY, Value};

/// Searches `position` to `depth` plies (`u32::MAX` for no limit); the value is from MAX's side, like
/// every driver's.
#[must_use]
pub fn search<G: Game>(game: &G, position: &G::Position, depth: u32) -> Outcome<G::Move> {
    let start = Instant::now();
    let mut counts = Counts::default();
    let value_for_mover = negamax(game, position, depth, &mut counts);
    let value = game.to_move(position).perspective(value_for_mover);
    Outcome::single(value, counts, capped_depth(game, position, depth), start.elapsed())
}

/// The catalogue's entry (`negamax`): [`search`] from `root` to `params.depth`; it hears no hooks.
pub fn run<'a, G: Game>(
    game: &'a G,
    root: &G::Position,
    params: &SearchParams,
    _: Hooks<'a, G>,
) -> Outcome<G::Move> {
    search(game, root, params.depth)
}

// ANCHOR: negamax
/// The minimax value of `node` searched `depth` plies deep, from the side to move at `node`.
pub fn negamax<G: Game>(game: &G, node: &G::Position, depth: u32, counts: &mut Counts) -> Value {
    counts.nodes += 1;
    if depth == 0 || game.is_terminal(node) {
        counts.leaves += 1;
        return game.evaluate_for_mover(node);
    }
    let mut best = -INFINITY;
    for mv in game.moves(node) {
        best = best.max(-negamax(game, &game.play(node, mv), depth - 1, counts));
    }
    best
}
// ANCHOR_END: negamax
