//! The engine at scale, side by side in one run:
//!
//! * the optimized `mtdf` against the literal translation of Plaat's `MTDF` on one explicit uniform
//!   tree of width 6 and depth 8 (1.7 million leaves);
//! * the optimized engine (iterative deepening, PVS and MTD(f), warm table) against the `minimax`
//!   crate's `IterativeSearch` (table, null-window PVS; and its MTD(f) option) on the same implicit
//!   synthetic trees: independent leaves, width 8, depth 10; incremental, width 8, depth 13.
//!
//! `cargo bench --bench scale` (release). Before the timings it prints each searcher's value and
//! node count on every tree, so the work compared is visible. Quote medians and ratios.

use std::cell::RefCell;
use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use minimax::Strategy as _;
use nullwindow::driver::SearchParams;
use nullwindow::game::{Game, Player};
use nullwindow::registry::Driver;
use nullwindow::search::{Algorithm, Engine};
use nullwindow::tree::random::RandomTreeConfig;
use nullwindow::tree::synthetic::{Model, SyntheticConfig, SyntheticPosition, SyntheticTree};

fn literal_against_optimized(c: &mut Criterion) {
    let tree = RandomTreeConfig {
        seed: 1,
        width: 6..=6,
        depth: 8..=8,
        values: -1000..=1000,
        uniform: true,
        ..Default::default()
    }
    .generate()
    .expect("a valid configuration");
    let params = SearchParams { tt_entries: 1 << 20, ..SearchParams::default() };
    let drivers = [Driver::PlaatMtdf, Driver::PlaatMtdfCorrected, Driver::Mtdf];
    for driver in drivers {
        let outcome = driver.run(&tree, &params);
        eprintln!(
            "w6 d8 explicit: {:<22} value {} leaves {} nodes {} passes {}",
            driver.info().name,
            outcome.value,
            outcome.counts.leaves,
            outcome.counts.nodes,
            outcome.passes.map_or(0, |passes| passes.len())
        );
    }
    let mut group = c.benchmark_group("explicit uniform w6 d8");
    group.sample_size(10);
    for driver in drivers {
        group.bench_with_input(BenchmarkId::from_parameter(driver.info().name), &tree, |b, tree| {
            b.iter(|| driver.run(tree, &params));
        });
    }
    // The registry run above allocates and fills a fresh table each time, as a one-off `solve` does;
    // an engine reuses its table, so the search alone is this.
    for entries in [1 << 16, 1 << 20] {
        let params = SearchParams { tt_entries: entries, ..SearchParams::default() };
        let mut engine = Engine::new(&params);
        group.bench_function(format!("mtdf, reused engine, {entries} entries"), |b| {
            b.iter(|| {
                engine.clear();
                engine.search_value(&tree, Algorithm::Mtdf, &params)
            });
        });
    }
    group.finish();
}

thread_local! {
    /// The `minimax` crate's `Game` trait has no `self`: the tree its functions read.
    static TREE: RefCell<Option<SyntheticTree>> = const { RefCell::new(None) };
}

fn with_tree<T>(f: impl FnOnce(&SyntheticTree) -> T) -> T {
    TREE.with(|tree| f(tree.borrow().as_ref().expect("the tree is set before a search")))
}

/// A synthetic tree as the `minimax` crate sees a game.
struct Synthetic;

impl minimax::Game for Synthetic {
    type S = SyntheticPosition;
    type M = u32;

    fn generate_moves(state: &SyntheticPosition, moves: &mut Vec<u32>) -> Option<minimax::Winner> {
        with_tree(|tree| moves.extend(tree.moves(state)));
        None
    }

    fn apply(state: &mut SyntheticPosition, mv: u32) -> Option<SyntheticPosition> {
        Some(with_tree(|tree| tree.play(state, mv)))
    }

    fn get_winner(_state: &SyntheticPosition) -> Option<minimax::Winner> {
        None
    }

    fn zobrist_hash(state: &SyntheticPosition) -> u64 {
        with_tree(|tree| tree.key(state))
    }
}

struct Evaluator;

impl minimax::Evaluator for Evaluator {
    type G = Synthetic;

    fn evaluate(&self, state: &SyntheticPosition) -> minimax::Evaluation {
        let value = with_tree(|tree| tree.evaluate_for_mover(state));
        i16::try_from(value).expect("synthetic values of this bench fit in i16")
    }
}

/// One `minimax`-crate search of `tree`; its root value from MAX's side.
fn minimax_crate(tree: &SyntheticTree, mtdf: bool) -> (i32, String) {
    TREE.with(|slot| *slot.borrow_mut() = Some(tree.clone()));
    let options = minimax::IterativeOptions::new().with_table_byte_size(32 << 20);
    let options = if mtdf { options.with_mtdf() } else { options };
    let mut search = minimax::IterativeSearch::new(Evaluator, options);
    search.set_max_depth(tree.config().depth as u8);
    let mut root = tree.root();
    black_box(search.choose_move(&root));
    let value = i32::from(search.root_value());
    let stats = search.stats(&mut root);
    let nodes = stats.lines().find(|line| line.starts_with("Explored")).unwrap_or("").to_owned();
    (if tree.to_move(&root) == Player::Max { value } else { -value }, nodes)
}

/// The engine as a program runs it: a table of 2^20 entries, deepening iteratively.
fn engine_params() -> SearchParams {
    SearchParams { tt_entries: 1 << 20, iterative_deepening: true, ..SearchParams::default() }
}

fn engine() -> Engine<SyntheticTree> {
    Engine::new(&engine_params())
}

fn engine_against_minimax_crate(c: &mut Criterion) {
    let trees = [
        (
            "independent w8 d10",
            SyntheticConfig { width: 8, depth: 10, model: Model::Independent, ..Default::default() },
        ),
        (
            "incremental w8 d13",
            SyntheticConfig { width: 8, depth: 13, model: Model::Incremental, ..Default::default() },
        ),
    ];
    for (name, config) in trees {
        let tree = SyntheticTree::new(config).expect("a valid configuration");
        for algorithm in [Algorithm::Pvs, Algorithm::Mtdf] {
            let result = engine().search(&tree, algorithm, &engine_params(), |_| {});
            eprintln!(
                "{name}: nullwindow {:<5} value {} nodes {}",
                algorithm.name(),
                result.value,
                result.counts.nodes
            );
        }
        for mtdf in [false, true] {
            let (value, nodes) = minimax_crate(&tree, mtdf);
            eprintln!("{name}: minimax crate {} value {value}; {nodes}", if mtdf { "mtdf" } else { "pvs " });
        }
        let mut group = c.benchmark_group(name);
        group.sample_size(10);
        for algorithm in [Algorithm::Pvs, Algorithm::Mtdf] {
            let (mut engine, params) = (engine(), engine_params());
            group.bench_function(format!("nullwindow {}", algorithm.name()), |b| {
                b.iter(|| {
                    engine.clear();
                    engine.search(&tree, algorithm, &params, |_| {}).value
                });
            });
        }
        for mtdf in [false, true] {
            group.bench_function(format!("minimax crate {}", if mtdf { "mtdf" } else { "pvs" }), |b| {
                b.iter(|| minimax_crate(&tree, mtdf).0);
            });
        }
        group.finish();
    }
}

criterion_group!(benches, literal_against_optimized, engine_against_minimax_crate);
criterion_main!(benches);
