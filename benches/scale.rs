//! The engine at scale, side by side in one run:
//!
//! * the optimized `mtdf` against the literal translation of Plaat's `MTDF` on one explicit uniform
//!   tree of width 6 and depth 8 (1.7 million leaves);
//! * the optimized engine (iterative deepening, PVS and MTD(f), warm table) against the `minimax`
//!   crate's `IterativeSearch` (table, null-window PVS; and its MTD(f) option) on the same implicit
//!   synthetic trees: independent leaves, width 8, depth 10; incremental, width 8, depth 13. The
//!   engine runs as a program would, its table kept out of the nodes just above the leaves, and
//!   beside that with its table at every interior node, as the crate uses its own.
//!
//! `cargo bench --bench scale` (release). Before the timings it prints each searcher's value and
//! node count on every tree, so the work compared is visible. Quote medians and ratios.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use nullwindow::driver::SearchParams;
use nullwindow::registry::Driver;
use nullwindow::search::{Algorithm, Engine};
use nullwindow::tree::random::RandomTreeConfig;
use nullwindow::tree::synthetic::{Model, SyntheticConfig, SyntheticTree};

#[path = "common/minimax_crate.rs"]
mod minimax_crate;
use minimax_crate::minimax_crate;

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

/// The engine as a program runs it: a table of 2^20 entries that the nodes just above the leaves
/// leave alone (`table_min_depth` 2: their few leaves cost less to search again than a probe that
/// misses the caches; the book's "Measuring"), deepening iteratively.
fn engine_params() -> SearchParams {
    SearchParams {
        tt_entries: 1 << 20,
        table_min_depth: 2,
        iterative_deepening: true,
        ..SearchParams::default()
    }
}

/// The same engine with its table at every interior node, as the `minimax` crate uses its own.
fn engine_params_table_everywhere() -> SearchParams {
    SearchParams { table_min_depth: 1, ..engine_params() }
}

/// The engine's two set-ups, with the suffix their benchmarks' names get.
fn engine_setups() -> [(SearchParams, &'static str); 2] {
    [(engine_params(), ""), (engine_params_table_everywhere(), ", table at every node")]
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
        for (params, setup) in engine_setups() {
            for algorithm in [Algorithm::Pvs, Algorithm::Mtdf] {
                let result = Engine::new(&params).search(&tree, algorithm, &params, |_| {});
                eprintln!(
                    "{name}: nullwindow {:<5} value {} nodes {} probes {}{setup}",
                    algorithm.name(),
                    result.value,
                    result.counts.nodes,
                    result.counts.probes
                );
            }
        }
        for mtdf in [false, true] {
            let (value, nodes) = minimax_crate(&tree, mtdf, minimax_crate::TABLE_BYTES);
            eprintln!("{name}: minimax crate {} value {value}; {nodes}", if mtdf { "mtdf" } else { "pvs " });
        }
        let mut group = c.benchmark_group(name);
        group.sample_size(10);
        for (params, setup) in engine_setups() {
            for algorithm in [Algorithm::Pvs, Algorithm::Mtdf] {
                let mut engine = Engine::new(&params);
                group.bench_function(format!("nullwindow {}{setup}", algorithm.name()), |b| {
                    b.iter(|| {
                        engine.clear();
                        engine.search(&tree, algorithm, &params, |_| {}).value
                    });
                });
            }
        }
        for mtdf in [false, true] {
            group.bench_function(format!("minimax crate {}", if mtdf { "mtdf" } else { "pvs" }), |b| {
                b.iter(|| minimax_crate(&tree, mtdf, minimax_crate::TABLE_BYTES).0);
            });
        }
        group.finish();
    }
}

criterion_group!(benches, literal_against_optimized, engine_against_minimax_crate);
criterion_main!(benches);
