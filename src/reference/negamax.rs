//! Plain minimax in negamax form: every node maximises the negated values of its children, and leaves
//! are scored from the side to move. It visits exactly the nodes [`super::minimax`] visits and must
//! return the same value; the two side by side show that the forms are one algorithm.

use std::time::Instant;

use crate::game::Game;

use crate::driver::observe::{NodeEntered, NodeReturned, Observer, Perspective};
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

/// The catalogue's entry (`negamax`): [`search`] from `root` to `params.depth`, or with an observer
/// [`observed`].
pub fn run<'a, G: Game>(
    game: &'a G,
    root: &G::Position,
    params: &SearchParams,
    hooks: Hooks<'a, G>,
) -> Outcome<G::Move> {
    match hooks.observer {
        None => search(game, root, params.depth),
        Some(observer) => {
            let start = Instant::now();
            let mut counts = Counts::default();
            let value_for_mover = observed(game, root, params.depth, 0, &mut counts, observer);
            let value = game.to_move(root).perspective(value_for_mover);
            Outcome::single(value, counts, capped_depth(game, root, params.depth), start.elapsed())
        }
    }
}

/// [`negamax`], telling `observer` of every node, entered with the full window and returned with its
/// exact value from the side to move.
pub fn observed<G: Game>(
    game: &G,
    node: &G::Position,
    depth: u32,
    ply: usize,
    counts: &mut Counts,
    observer: &mut dyn Observer<G>,
) -> Value {
    counts.nodes += 1;
    let entered = NodeEntered {
        ply,
        position: node,
        depth,
        alpha: -INFINITY,
        beta: INFINITY,
        perspective: Perspective::Mover,
    };
    observer.entered(&entered);
    let value = if depth == 0 || game.is_terminal(node) {
        counts.leaves += 1;
        observer.evaluated(node);
        game.evaluate_for_mover(node)
    } else {
        let mut best = -INFINITY;
        for mv in game.moves(node) {
            best = best.max(-observed(game, &game.play(node, mv), depth - 1, ply + 1, counts, observer));
        }
        best
    };
    let returned =
        NodeReturned { node: entered, result: value, probe: None, stored: None, cutoff: None, moves: None };
    observer.returned(&returned);
    value
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
