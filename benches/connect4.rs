//! The generic engine on Connect Four against the `connect-four-solver` crate (a Rust solver in Pascal
//! Pons' style, with game-specific search), on the same positions in one run: the first 100 positions
//! of Pons' `Test_L3_R1` (end game) and the first 20 of `Test_L2_R1` (middle game), committed in
//! `testdata/connect4/`. Each side reuses one solver (one table) across a set, made before the clock
//! starts; every score is checked before timing. `cargo bench --bench connect4`; quote medians and
//! ratios.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use nullwindow::game::Game;
use nullwindow::games::connect4::{Connect4, MoveGeneration};
use nullwindow::search::{Algorithm, Engine, EngineConfig, Limits};

fn positions(file: &str) -> Vec<(String, i32)> {
    let path = format!("{}/testdata/connect4/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path)
        .expect("the committed test positions")
        .lines()
        .map(|line| {
            let (moves, score) = line.split_once(' ').expect("MOVES SCORE");
            (moves.to_owned(), score.parse().expect("an integer score"))
        })
        .collect()
}

fn engine() -> Engine<Connect4> {
    Engine::new(EngineConfig { tt_entries: 1 << 22, iterative_deepening: false, ..EngineConfig::default() })
}

/// Solves a set with the engine; the scores from the side to move.
fn solve_all(engine: &mut Engine<Connect4>, set: &[(String, i32)], generation: MoveGeneration) -> Vec<i32> {
    set.iter()
        .map(|(moves, _)| {
            let game = Connect4::from_moves(moves).expect("a legal position").with_generation(generation);
            let value = engine.search(&game, Algorithm::Mtdf, &Limits::default(), |_| {}).value;
            game.to_move(&game.root()).perspective(value)
        })
        .collect()
}

fn solver_all(solver: &mut connect_four_solver::Solver, set: &[(String, i32)]) -> Vec<i32> {
    set.iter()
        .map(|(moves, _)| i32::from(solver.score(&connect_four_solver::ConnectFour::from_move_list(moves))))
        .collect()
}

fn sets(c: &mut Criterion) {
    for (name, file) in
        [("Test_L3_R1 first 100", "Test_L3_R1.first100"), ("Test_L2_R1 first 20", "Test_L2_R1.first20")]
    {
        let set = positions(file);
        let scores: Vec<i32> = set.iter().map(|&(_, score)| score).collect();
        assert_eq!(solve_all(&mut engine(), &set, MoveGeneration::Threats), scores);
        assert_eq!(solver_all(&mut connect_four_solver::Solver::new(), &set), scores);
        let mut group = c.benchmark_group(name);
        group.sample_size(10);
        for (label, generation) in [
            ("nullwindow mtdf, threats", MoveGeneration::Threats),
            ("nullwindow mtdf, centre first", MoveGeneration::CentreFirst),
        ] {
            group.bench_function(label, |b| {
                b.iter_batched_ref(
                    engine,
                    |engine| solve_all(engine, &set, generation),
                    BatchSize::PerIteration,
                );
            });
        }
        group.bench_function("connect-four-solver", |b| {
            b.iter_batched_ref(
                connect_four_solver::Solver::new,
                |solver| solver_all(solver, &set),
                BatchSize::PerIteration,
            );
        });
        group.finish();
    }
}

criterion_group!(benches, sets);
criterion_main!(benches);
