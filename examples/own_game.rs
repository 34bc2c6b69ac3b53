//! Plug your own game into the crate and check a search of it against the oracle.
//!
//! `cargo run --example own_game`: a subtraction game (take 1, 2 or 3 stones from a heap; whoever
//! takes the last stone wins) implements [`Game`]; then every exact driver solves it, `divide` shows
//! each first move's value, and `check` finds where a claimed line goes wrong.

use nullwindow::driver::SearchParams;
use nullwindow::game::{Game, Player};
use nullwindow::oracle::{Departure, check, divide, solve};
use nullwindow::registry::Driver;
use nullwindow::value::Value;

// ANCHOR: game
/// The rules: a heap of stones at the start.
struct Subtraction {
    stones: u32,
}

/// A position: the stones left and the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Heap {
    stones: u32,
    to_move: Player,
}

impl Game for Subtraction {
    type Position = Heap;
    /// Stones taken.
    type Move = u32;
    type Moves = std::ops::RangeInclusive<u32>;

    fn root(&self) -> Heap {
        Heap { stones: self.stones, to_move: Player::Max }
    }

    fn to_move(&self, position: &Heap) -> Player {
        position.to_move
    }

    fn moves(&self, position: &Heap) -> Self::Moves {
        // Taking three first: good moves early make alpha-beta cut more.
        1..=position.stones.min(3)
    }

    fn play(&self, position: &Heap, taken: u32) -> Heap {
        Heap { stones: position.stones - taken, to_move: position.to_move.opponent() }
    }

    /// From MAX's side: with no stones left the player to move has lost; before that, the
    /// evaluation a depth-limited search stops at knows nothing.
    fn evaluate(&self, position: &Heap) -> Value {
        match (position.stones, position.to_move) {
            (0, Player::Max) => -100,
            (0, Player::Min) => 100,
            _ => 0,
        }
    }

    /// Equal positions must have equal keys: the tables rely on it.
    fn key(&self, position: &Heap) -> u64 {
        u64::from(position.stones) << 1 | u64::from(position.to_move == Player::Min)
    }

    /// The game lasts at most one ply per stone.
    fn depth_bound(&self, position: &Heap) -> Option<u32> {
        Some(position.stones)
    }
}
// ANCHOR_END: game

// ANCHOR: main
fn main() {
    let game = Subtraction { stones: 10 };
    let params = SearchParams::default();

    // Every exact driver against plain minimax.
    let report = solve(&game, &Driver::select("all").expect("a known group"), &params);
    println!("10 stones: value {} for the first player; {} drivers ran", report.value, report.results.len());
    for wrong in report.disagreements() {
        println!("  {} returned {}", wrong.driver.info().name, wrong.outcome.value);
    }
    assert!(report.disagreements().next().is_none());

    // Each first move's value: taking 2 leaves a multiple of 4, the only winning move.
    for (taken, value) in divide(&game, u32::MAX, Driver::Minimax) {
        println!("  take {taken}: {value}");
    }

    // Another engine claims the first player wins by taking 1, then 3: where is it wrong?
    let claim =
        check(&game, u32::MAX, Driver::Minimax, report.value, &[(1, report.value), (3, report.value)]);
    match claim.departure {
        Some(Departure::Value { ply, exact }) => {
            println!("the claim goes wrong at ply {ply}: the value there is {exact}")
        }
        other => println!("verdict: {other:?}"),
    }
}
// ANCHOR_END: main
