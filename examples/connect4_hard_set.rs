//! Generate a set of hard Connect Four openings, scored by an independent solver.
//!
//! `testdata/connect4/hard-8-14.txt` is this program's output, made with
//!
//! ```text
//! cargo run --release --example connect4_hard_set -- --seed 1 --per-stones 42 > testdata/connect4/hard-8-14.txt
//! ```
//!
//! Lines of `MOVES SCORE` in Pascal Pons' notation and score (the columns played, 1 to 7, and the
//! exact score from the side to move), for `nullwindow bench connect4` and `cargo bench --bench
//! connect4`. Every score comes from the `connect-four-solver` crate, not from this crate's engine,
//! so that the benches that check the engine against the file check it against another program.
//!
//! How a position is drawn, from a ChaCha8 stream seeded with `--seed` (the stream is fixed by its
//! specification and turned into columns by the arithmetic below, so a seed gives the same file on
//! every platform; the scores are exact, so any correct solver gives the same ones):
//!
//! * for each stone count from 8 to 14 in turn, a random game of that many stones: each stone in a
//!   column drawn uniformly from the playable ones;
//! * rejected: a game that ends before its last stone or with it (a position whose game is over);
//!   a position where the side to move can complete four at once, or where every move it has lets
//!   the opponent complete four at once (decided in one move either way); a position already
//!   kept, or whose mirror image (columns 1..7 read as 7..1, which has the same score) was;
//! * scored, and rejected unless hard: rated medium or hard, not easy, in Pons' test protocol. The
//!   rating counts the stones still to come after the next one when both sides play perfectly (the
//!   winner as fast as it can, the loser as slowly): fewer than 14 is easy, 14 to 27 medium, 28 or
//!   more hard (a draw has `41 - stones` to come, so no opening of 14 stones is hard; "hard" in the
//!   set's name means not easy). This reproduces the ratings of the first lines of
//!   his sets committed in `testdata/connect4/` (every line of the easy sets below 14, every line of
//!   the medium one from 14 to 27). His easy opening set, `Test_L1_R1`, is the kind rejected here; his
//!   medium and hard ones, `Test_L1_R2` and `Test_L1_R3`, the kind kept. The rating depends only on
//!   the exact score, not on how any program searches, so the set stays the same whatever the engine
//!   becomes;
//! * kept until the stone count has `--per-stones` positions, in the order they were drawn.
//!
//! The positions are written round-robin over the stone counts (8, 9, …, 14, 8, 9, …), so that the
//! first lines of the file (`nullwindow bench connect4 --limit N`) hold every stone count. A summary
//! goes to standard error: the positions drawn and why they were rejected, the stone counts, ratings
//! and scores kept, and the solver's time.

use std::collections::{BTreeMap, HashSet};
use std::time::{Duration, Instant};

use nullwindow::game::Game;
use nullwindow::games::connect4::{Board, Connect4, stones_at_the_end};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

/// The stone counts of the set.
const STONES: std::ops::RangeInclusive<usize> = 8..=14;

/// A uniform integer in `0..span` (span ≥ 1), by rejection so that no value is favoured.
fn draw_below(rng: &mut ChaCha8Rng, span: u64) -> u64 {
    let zone = u64::MAX - (u64::MAX % span);
    loop {
        let word = rng.next_u64();
        if word < zone {
            return word % span;
        }
    }
}

/// Pons' rating of a position by the stones still to be played with perfect play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Rating {
    /// Fewer than 14 stones to go.
    Easy,
    /// 14 to 27.
    Medium,
    /// 28 or more.
    Hard,
}

fn rating(stones: usize, score: i32) -> Rating {
    let stones = u32::try_from(stones).expect("at most 42 stones");
    let end = stones_at_the_end(stones, score).expect("a score connect-four-solver gives");
    // The stones after the next one: the board holds `stones + 1` once the side to move has played.
    match end - (stones + 1) {
        ..14 => Rating::Easy,
        14..28 => Rating::Medium,
        _ => Rating::Hard,
    }
}

/// Why a drawn position was not kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Rejection {
    GameOver,
    WinsAtOnce,
    LosesAtOnce,
    Duplicate,
    Easy,
}

/// A random game of `stones` stones, each in a uniformly drawn playable column; `None` if the game
/// ends before its last stone.
fn random_moves(rng: &mut ChaCha8Rng, stones: usize) -> Option<String> {
    let mut moves = String::with_capacity(stones);
    let game = Connect4::from_moves("").expect("the empty board");
    let mut position = game.root();
    for _ in 0..stones {
        let playable = game.legal_moves(&position);
        if playable.is_empty() {
            return None;
        }
        let span = u64::try_from(playable.len()).expect("at most 7 columns");
        let column = playable[usize::try_from(draw_below(rng, span)).expect("below 7")];
        moves.push_str(&column.to_string());
        position = game.play(&position, column);
    }
    Some(moves)
}

/// The rejection a position meets before it is scored, if any.
fn trivial(game: &Connect4) -> Option<Rejection> {
    let root = game.root();
    if game.is_terminal(&root) {
        return Some(Rejection::GameOver);
    }
    let won = |position: &Board| game.is_terminal(position) && game.evaluate(position) != 0;
    let children: Vec<_> = game.legal_moves(&root).into_iter().map(|mv| game.play(&root, mv)).collect();
    if children.iter().any(won) {
        return Some(Rejection::WinsAtOnce);
    }
    let opponent_wins = |child| game.legal_moves(child).into_iter().any(|mv| won(&game.play(child, mv)));
    if children.iter().all(opponent_wins) {
        return Some(Rejection::LosesAtOnce);
    }
    None
}

/// The position's key, the same for a position and its mirror image.
fn symmetric_key(moves: &str) -> u64 {
    // Column c becomes 8 - c.
    let mirrored: String = moves
        .chars()
        .map(|c| char::from_digit(8 - c.to_digit(10).expect("a column"), 10).expect("a column"))
        .collect();
    let key = |moves: &str| {
        let game = Connect4::from_moves(moves).expect("a legal position");
        game.key(&game.root())
    };
    key(moves).min(key(&mirrored))
}

struct Options {
    seed: u64,
    per_stones: usize,
}

fn options() -> Options {
    let usage = "usage: connect4_hard_set [--seed N] [--per-stones N]";
    let mut options = Options { seed: 1, per_stones: 42 };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().and_then(|value| value.parse().ok()).unwrap_or_else(|| panic!("{usage}"));
        match flag.as_str() {
            "--seed" => options.seed = value,
            "--per-stones" => options.per_stones = usize::try_from(value).expect("a count"),
            _ => panic!("{usage}"),
        }
    }
    assert!(options.per_stones > 0, "{usage}");
    options
}

fn main() {
    let Options { seed, per_stones } = options();
    let begun = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut solver = connect_four_solver::Solver::new();
    let mut seen = HashSet::new();
    let mut rejections: BTreeMap<Rejection, usize> = BTreeMap::new();
    let mut scores: BTreeMap<i32, usize> = BTreeMap::new();
    let mut scoring = Duration::ZERO;
    let mut drawn = 0;
    // The kept positions of each stone count, in the order they were drawn.
    let mut kept: Vec<Vec<(String, i32, Rating)>> = Vec::new();
    for stones in STONES {
        let mut found: Vec<(String, i32, Rating)> = Vec::new();
        while found.len() < per_stones {
            drawn += 1;
            let moves = random_moves(&mut rng, stones);
            let game = moves.as_deref().map(|moves| Connect4::from_moves(moves).expect("a legal game"));
            let (Some(moves), Some(game)) = (moves, game) else {
                *rejections.entry(Rejection::GameOver).or_default() += 1;
                continue;
            };
            if let Some(rejection) = trivial(&game) {
                *rejections.entry(rejection).or_default() += 1;
                continue;
            }
            let key = symmetric_key(&moves);
            if seen.contains(&key) {
                *rejections.entry(Rejection::Duplicate).or_default() += 1;
                continue;
            }
            let start = Instant::now();
            let score = i32::from(solver.score(&connect_four_solver::ConnectFour::from_move_list(&moves)));
            scoring += start.elapsed();
            let rating = rating(stones, score);
            if rating == Rating::Easy {
                *rejections.entry(Rejection::Easy).or_default() += 1;
                continue;
            }
            seen.insert(key);
            *scores.entry(score).or_default() += 1;
            found.push((moves, score, rating));
        }
        let hard = found.iter().filter(|&&(_, _, rating)| rating == Rating::Hard).count();
        eprintln!(
            "{stones} stones: {} medium, {hard} hard; {drawn} positions drawn so far, {:.1} s scoring",
            found.len() - hard,
            scoring.as_secs_f64()
        );
        kept.push(found);
    }
    for index in 0..per_stones {
        for found in &kept {
            let (moves, score, _) = &found[index];
            println!("{moves} {score}");
        }
    }
    eprintln!("seed {seed}: {} positions kept of {drawn} drawn", per_stones * kept.len());
    for (rejection, count) in &rejections {
        eprintln!("  rejected, {rejection:?}: {count}");
    }
    let scores: Vec<String> = scores.iter().map(|(score, count)| format!("{score}: {count}")).collect();
    eprintln!("scores kept: {}", scores.join(", "));
    eprintln!(
        "solver: {:.1} s scoring every position that reached it; {:.1} s in all",
        scoring.as_secs_f64(),
        begun.elapsed().as_secs_f64()
    );
}
