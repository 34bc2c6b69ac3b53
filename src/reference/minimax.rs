//! Plain minimax in minimax form: MAX nodes take the largest child value, MIN nodes the smallest, and
//! leaves are scored from MAX's side. This is the crate's oracle: every other driver must return
//! exactly its value.

use crate::game::{Game, Player};
use crate::outcome::{Counts, Outcome};
use crate::registry::{DriverInfo, Kind};
use crate::value::{INFINITY, Value};

/// The registry entry.
pub const INFO: DriverInfo = DriverInfo {
    name: "minimax",
    kind: Kind::Reference,
    source: "textbook minimax (von Neumann); the crate's oracle",
    exact: true,
};

/// Searches `position` to `depth` plies (`u32::MAX` for no limit) and counts what it visits.
#[must_use]
pub fn search<G: Game>(game: &G, position: &G::Position, depth: u32) -> Outcome {
    let mut counts = Counts::default();
    let value = minimax(game, position, depth, &mut counts);
    Outcome { value, counts, passes: None }
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
