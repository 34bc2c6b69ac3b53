//! The generic engine on Connect Four against the `connect-four-solver` crate (a Rust solver in Pascal
//! Pons' style, with game-specific search), on the same positions in one run, set by set: each side
//! reuses one solver (one table) across a set, made before the clock starts, and every score is
//! checked before timing. Quote medians and the ratios between the lines of one group.
//!
//! By default the sets are the first lines of Pons' four test sets committed in `testdata/connect4/`
//! (100 end-game, 20 easy and 20 medium middle-game, 100 opening positions). To time his whole sets,
//! point `NULLWINDOW_CONNECT4_SETS` at a directory holding `Test_L3_R1`, `Test_L2_R1`, `Test_L2_R2` and
//! `Test_L1_R1`:
//!
//! ```text
//! NULLWINDOW_CONNECT4_SETS=path/to/sets cargo bench --bench connect4
//! ```
//!
//! The engine runs `mtd-pons` (the driver of Pons' own solver) and `mtdf`, both with the game's
//! threat-based move generation, and `mtdf` with iterative deepening; on the two easy sets also
//! `mtd-pons` with centre-first moves only, to show what the game's move generation buys.

use std::path::PathBuf;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use nullwindow::driver::SearchParams;
use nullwindow::game::Game;
use nullwindow::games::connect4::{Connect4, MoveGeneration};
use nullwindow::search::{Algorithm, Engine};

/// Pons' sets, with the committed first lines used when no directory of whole sets is given.
const SETS: [(&str, &str); 4] = [
    ("Test_L3_R1", "Test_L3_R1.first100"),
    ("Test_L2_R1", "Test_L2_R1.first20"),
    ("Test_L2_R2", "Test_L2_R2.first20"),
    ("Test_L1_R1", "Test_L1_R1.first100"),
];

fn positions(path: &PathBuf) -> Vec<(String, i32)> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let (moves, score) = line.split_once(' ').expect("MOVES SCORE");
            (moves.to_owned(), score.trim().parse().expect("an integer score"))
        })
        .collect()
}

/// How the engine is run on a set.
#[derive(Clone, Copy)]
struct Setup {
    label: &'static str,
    algorithm: Algorithm,
    generation: MoveGeneration,
    iterative_deepening: bool,
}

const SETUPS: [Setup; 4] = [
    Setup {
        label: "nullwindow mtd-pons",
        algorithm: Algorithm::MtdPons,
        generation: MoveGeneration::Threats,
        iterative_deepening: false,
    },
    Setup {
        label: "nullwindow mtdf",
        algorithm: Algorithm::Mtdf,
        generation: MoveGeneration::Threats,
        iterative_deepening: false,
    },
    Setup {
        label: "nullwindow mtdf, iterative deepening",
        algorithm: Algorithm::Mtdf,
        generation: MoveGeneration::Threats,
        iterative_deepening: true,
    },
    Setup {
        label: "nullwindow mtd-pons, centre first",
        algorithm: Algorithm::MtdPons,
        generation: MoveGeneration::CentreFirst,
        iterative_deepening: false,
    },
];

fn params(setup: Setup) -> SearchParams {
    SearchParams {
        tt_entries: 1 << 22,
        iterative_deepening: setup.iterative_deepening,
        ..SearchParams::default()
    }
}

fn engine(setup: Setup) -> Engine<Connect4> {
    Engine::new(&params(setup))
}

/// Solves a set with the engine; the scores from the side to move.
fn solve_all(engine: &mut Engine<Connect4>, set: &[(String, i32)], setup: Setup) -> Vec<i32> {
    set.iter()
        .map(|(moves, _)| {
            let game =
                Connect4::from_moves(moves).expect("a legal position").with_generation(setup.generation);
            let value = engine.search(&game, setup.algorithm, &params(setup), |_| {}).value;
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
    let whole_sets = std::env::var_os("NULLWINDOW_CONNECT4_SETS").map(PathBuf::from);
    for (set_name, first_lines) in SETS {
        let path = whole_sets.as_ref().map_or_else(
            || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/connect4").join(first_lines),
            |dir| dir.join(set_name),
        );
        let set = positions(&path);
        let scores: Vec<i32> = set.iter().map(|&(_, score)| score).collect();
        assert_eq!(solver_all(&mut connect_four_solver::Solver::new(), &set), scores, "{set_name}");
        let mut group = c.benchmark_group(format!("{set_name}, {} positions", set.len()));
        group.sample_size(10);
        let easy = set_name.ends_with("_R1") && !set_name.starts_with("Test_L1");
        for setup in SETUPS {
            if setup.generation == MoveGeneration::CentreFirst && !easy {
                continue;
            }
            assert_eq!(solve_all(&mut engine(setup), &set, setup), scores, "{set_name}: {}", setup.label);
            group.bench_function(setup.label, |b| {
                b.iter_batched_ref(
                    || engine(setup),
                    |engine| solve_all(engine, &set, setup),
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
