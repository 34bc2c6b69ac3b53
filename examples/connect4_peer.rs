//! The `connect-four-solver` crate (a Rust solver in Pascal Pons' style) on a Connect Four test set,
//! as one process: the yardstick `nullwindow bench connect4` is timed against, whole set against
//! whole set (the book's "Real games"):
//!
//! ```text
//! cargo build --release --example connect4_peer
//! farm-bench -n 3 --timeout 1200 --vs 'target/release/examples/connect4_peer testdata/connect4/hard-8-14.txt' \
//!     -- target/release/nullwindow bench connect4 testdata/connect4/hard-8-14.txt
//! ```
//!
//! One solver (one table) serves the whole file, as `nullwindow bench connect4` reuses one table.
//! Every score is checked against the file's; the program prints the positions solved and the time,
//! and exits with 1 if a score differs, 2 on a file it cannot read.

use std::process::ExitCode;
use std::time::Instant;

use connect_four_solver::{Column, ConnectFour, Solver};

/// The position after `moves` (columns 1 to 7), or `None` if a move is not a column or does not fit.
fn position(moves: &str) -> Option<ConnectFour> {
    let mut game = ConnectFour::new();
    for column in moves.bytes() {
        let column = Column::from_index(column.checked_sub(b'1').filter(|&index| index < 7)?);
        if !game.play(column) {
            return None;
        }
    }
    Some(game)
}

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: connect4_peer FILE (lines of `MOVES SCORE`, as in Pons' test sets)");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("connect4_peer: cannot read {path}: {error}");
            return ExitCode::from(2);
        }
    };
    let mut positions = Vec::new();
    for (number, line) in text.lines().enumerate().filter(|(_, line)| !line.trim().is_empty()) {
        let parsed = line
            .split_once(' ')
            .and_then(|(moves, score)| Some((moves, position(moves)?, score.trim().parse::<i32>().ok()?)));
        let Some(parsed) = parsed else {
            eprintln!(
                "connect4_peer: {path}:{}: expected `MOVES SCORE` with legal moves 1 to 7, got {line:?}",
                number + 1
            );
            return ExitCode::from(2);
        };
        positions.push(parsed);
    }
    let mut solver = Solver::new();
    let start = Instant::now();
    let mut wrong = 0;
    for (moves, game, expected) in &positions {
        let score = i32::from(solver.score(game));
        if score != *expected {
            eprintln!("connect4_peer: {moves}: scored {score}, the file says {expected}");
            wrong += 1;
        }
    }
    println!("{path}: {} positions, {wrong} wrong, {:.3} s", positions.len(), start.elapsed().as_secs_f64());
    if wrong == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
