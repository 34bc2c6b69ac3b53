//! Plain minimax in minimax form: MAX nodes take the largest child value, MIN nodes the smallest, and
//! leaves are scored from MAX's side. This is the crate's oracle: every other driver must return
//! exactly its value.

use std::collections::HashMap;
use std::time::Instant;

use crate::game::{Game, Player};

use crate::driver::observe::{NodeEntered, NodeReturned, Observer, Perspective};
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

/// The catalogue's entry (`minimax`): [`search`] from `root` to `params.depth`, or with an observer
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
            let value = observed(game, root, params.depth, 0, &mut counts, observer);
            Outcome::single(value, counts, capped_depth(game, root, params.depth), start.elapsed())
        }
    }
}

/// [`minimax`], telling `observer` of every node, entered with the full window and returned with its
/// exact value: the oracle's values node by node.
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
        perspective: Perspective::Max,
    };
    observer.entered(&entered);
    let value = if depth == 0 || game.is_terminal(node) {
        counts.leaves += 1;
        observer.evaluated(node);
        game.evaluate(node)
    } else {
        let values = game
            .moves(node)
            .map(|mv| observed(game, &game.play(node, mv), depth - 1, ply + 1, counts, observer));
        match game.to_move(node) {
            Player::Max => values.fold(-INFINITY, Value::max),
            Player::Min => values.fold(INFINITY, Value::min),
        }
    };
    let returned =
        NodeReturned { node: entered, result: value, probe: None, stored: None, cutoff: None, moves: None };
    observer.returned(&returned);
    value
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

/// The depth-`depth` minimax value of `node`, from MAX's side, as [`minimax`] finds it, but with
/// each position valued once per depth however many paths reach it: `memo` keeps every value found,
/// by the position's key and the depth, across calls on one game. Polynomial on a graph of
/// transpositions (a chain of 60 diamonds has 2⁶⁰ paths and 181 nodes), where [`minimax`] walks
/// every path. Exact only for a game whose keys identify its positions
/// ([`Game::keys_identify_positions`]); counts every position valued as a node, every evaluation
/// as a leaf. `None` once `counts.nodes` passes `limit`: the memo then keeps only what was
/// finished.
pub fn memoized<G: Game>(
    game: &G,
    node: &G::Position,
    depth: u32,
    memo: &mut HashMap<(u64, u32), Value>,
    counts: &mut Counts,
    limit: u64,
) -> Option<Value> {
    let key = (game.key(node), depth);
    if let Some(&value) = memo.get(&key) {
        return Some(value);
    }
    counts.nodes += 1;
    if counts.nodes > limit {
        return None;
    }
    let value = if depth == 0 || game.is_terminal(node) {
        counts.leaves += 1;
        game.evaluate(node)
    } else {
        let player = game.to_move(node);
        let mut best = match player {
            Player::Max => -INFINITY,
            Player::Min => INFINITY,
        };
        for mv in game.moves(node) {
            let value = memoized(game, &game.play(node, mv), depth - 1, memo, counts, limit)?;
            best = match player {
                Player::Max => best.max(value),
                Player::Min => best.min(value),
            };
        }
        best
    };
    memo.insert(key, value);
    Some(value)
}

/// The exact depth-`depth` value of `position` from MAX's side by plain minimax: [`memoized`] where
/// the game's keys identify its positions, [`minimax`] itself elsewhere (which knows no limit).
/// What the oracle values positions with; `None` past `limit` nodes.
pub fn value<G: Game>(
    game: &G,
    position: &G::Position,
    depth: u32,
    memo: &mut HashMap<(u64, u32), Value>,
    limit: u64,
) -> Option<Value> {
    let mut counts = Counts::default();
    if game.keys_identify_positions() {
        memoized(game, position, depth, memo, &mut counts, limit)
    } else {
        Some(minimax(game, position, depth, &mut counts))
    }
}
