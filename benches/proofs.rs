//! What judging an engine's answer on its own game costs: the oracle's proofs of the claim
//! (`oracle::harness::judge_game`, MTD(f) from the claim over MT) against unfolding the case to its
//! depth and valuing every node (`tree::unfold` and `oracle::harness::judge` on the tree, how the
//! own-game fuzz judged before it proved), on the same seeded positions in one run. The positions
//! are the crate's games in process, so that the figures are the oracle's own work, without a pipe;
//! `nullwindow fuzz --engine CMD --cpu` measures a run through the pipe, engine beside oracle.
//!
//! Each iteration judges every position of its set once, with a fresh table. Before timing, each
//! judgement is checked to agree. Quote medians, and the ratio between the two lines of a group.
//!
//! ```text
//! cargo bench --bench proofs
//! ```

use criterion::{Criterion, criterion_group, criterion_main};
use nullwindow::driver::Perspective;
use nullwindow::game::Game;
use nullwindow::games::connect4::Connect4;
use nullwindow::games::random_position;
use nullwindow::games::tictactoe::TicTacToe;
use nullwindow::oracle::harness::{Answer, Case, Config, GameCase, judge, judge_game};
use nullwindow::oracle::proof::Prover;
use nullwindow::reference::minimax;
use nullwindow::tree::unfold::unfold;

/// Seeded positions of `game` `plies` moves in (fewer where the game ends first), each with the
/// depth to judge it at and its exact value from the side to move.
fn cases<G: Game>(game: &G, count: u64, plies: u32, depth: u32) -> Vec<(G::Position, i32)> {
    (0..count)
        .map(|seed| {
            let position = random_position(game, seed, plies).0;
            let value =
                minimax::value(game, &position, depth, &mut Default::default(), u64::MAX).expect("no limit");
            let value = game.to_move(&position).perspective(value);
            (position, value)
        })
        .collect()
}

fn by_proof<G: Game>(game: &G, cases: &[(G::Position, i32)], depth: u32, config: &Config) {
    let mut prover = Prover::new(1 << 16);
    for (position, value) in cases {
        let case = GameCase::new(position.clone(), Vec::new(), depth, String::new());
        let judged = judge_game(game, &mut prover, &case, &Answer::value(*value), config);
        assert_eq!(judged, Ok(None));
    }
}

fn by_unfolding<G: Game>(game: &G, cases: &[(G::Position, i32)], depth: u32, config: &Config) {
    for (position, value) in cases {
        let tree = unfold(game, position, depth, usize::MAX).expect("no limit");
        let case = Case { tree, depth, origin: String::new() };
        assert_eq!(judge(&case, &Answer::value(*value), config), Ok(None));
    }
}

fn judging(c: &mut Criterion) {
    let config = Config { perspective: Perspective::Mover, ..Config::default() };
    let tictactoe = TicTacToe::from_moves("").expect("the start");
    let connect4 = Connect4::from_moves("").expect("the start");
    let sets = [
        ("tic-tac-toe, 3 moves in, depth 6", 6u32),
        ("Connect Four, 20 moves in, depth 6", 6),
        ("Connect Four, 20 moves in, depth 8", 8),
    ];
    for (index, (name, depth)) in sets.into_iter().enumerate() {
        let mut group = c.benchmark_group(name);
        group.sample_size(10);
        if index == 0 {
            let cases = cases(&tictactoe, 50, 3, depth);
            group.bench_function("proof", |b| b.iter(|| by_proof(&tictactoe, &cases, depth, &config)));
            group
                .bench_function("unfolding", |b| b.iter(|| by_unfolding(&tictactoe, &cases, depth, &config)));
        } else {
            let cases = cases(&connect4, 20, 20, depth);
            group.bench_function("proof", |b| b.iter(|| by_proof(&connect4, &cases, depth, &config)));
            group.bench_function("unfolding", |b| b.iter(|| by_unfolding(&connect4, &cases, depth, &config)));
        }
        group.finish();
    }
}

criterion_group!(benches, judging);
criterion_main!(benches);
