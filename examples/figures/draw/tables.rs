//! The measured tables of the text: alpha-beta against the minimal tree, what each enhancement of
//! the engine buys, the drivers' passes, and the literal translations beside the engine.

use std::fmt::Write as _;

use nullwindow::compare::{compare, minimal_tree_leaves};
use nullwindow::driver::SearchParams;
use nullwindow::registry::Driver;
use nullwindow::search::{Algorithm, Engine};
use nullwindow::tree::synthetic::{SyntheticConfig, SyntheticTree};
use nullwindow::value::Value;

/// Alpha-beta's leaves on perfectly ordered trees beside Knuth and Moore's formula.
pub(super) fn minimal_tree_table() -> String {
    let mut out = String::from(
        "| width | depth | w^⌈d/2⌉ + w^⌊d/2⌋ − 1 | `alphabeta` leaves, best move first | `alphabeta` leaves, best move first 90% of the time |\n|---:|---:|---:|---:|---:|\n",
    );
    for (width, depth) in [(2, 4), (2, 8), (3, 5), (4, 6), (8, 4), (8, 6), (10, 5)] {
        let leaves = |ordering: f64| {
            let config = SyntheticConfig { seed: 1, width, depth, ordering, ..SyntheticConfig::default() };
            let tree = SyntheticTree::new(config).expect("a valid configuration");
            let outcome = Driver::AlphaBeta.run(&tree, &SearchParams::default());
            assert_eq!(Some(outcome.value), tree.known_value());
            outcome.counts.leaves
        };
        let _ = writeln!(
            out,
            "| {width} | {depth} | {} | {} | {} |",
            minimal_tree_leaves(width, depth),
            leaves(1.0),
            leaves(0.9)
        );
    }
    out
}

/// What each enhancement of the engine buys: mean leaves and nodes with one switch changed.
pub(super) fn enhancements_table() -> String {
    let base = SearchParams { iterative_deepening: true, ..SearchParams::default() };
    let variants: [(&str, SearchParams); 7] = [
        ("everything on (the default)", base.clone()),
        ("no iterative deepening", SearchParams { iterative_deepening: false, ..base.clone() }),
        ("no table move first", SearchParams { table_move_first: false, ..base.clone() }),
        ("no killer moves", SearchParams { killers: false, ..base.clone() }),
        ("no history heuristic", SearchParams { history: false, ..base.clone() }),
        (
            "enhanced transposition cutoff",
            SearchParams { enhanced_transposition_cutoff: true, ..base.clone() },
        ),
        ("a table of 256 entries", SearchParams { tt_entries: 256, ..base.clone() }),
    ];
    let algorithms = [Algorithm::AlphaBeta, Algorithm::Pvs, Algorithm::Mtdf];
    let mut out = String::from("| engine |");
    for algorithm in algorithms {
        let _ = write!(out, " `{algorithm}` leaves | nodes |");
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|---:|".repeat(algorithms.len()));
    for (name, config) in variants {
        let _ = write!(out, "\n| {name} |");
        for algorithm in algorithms {
            let (leaves, nodes) = mean_work(&config, algorithm);
            let _ = write!(out, " {leaves} | {nodes} |");
        }
    }
    out.push('\n');
    out
}

/// The mean leaves and nodes (rounded down) of `algorithm` under `config`, over ten synthetic trees
/// with transpositions.
fn mean_work(config: &SearchParams, algorithm: Algorithm) -> (u64, u64) {
    let seeds = 0..10u64;
    let (mut leaves, mut nodes) = (0u64, 0u64);
    for seed in seeds.clone() {
        let tree = SyntheticTree::new(SyntheticConfig {
            seed,
            width: 8,
            depth: 7,
            transpositions: true,
            ..SyntheticConfig::default()
        })
        .expect("a valid configuration");
        let result = Engine::new(config).search(&tree, algorithm, config, |_| {});
        leaves += result.counts.leaves;
        nodes += result.counts.nodes;
    }
    let count = seeds.count() as u64;
    (leaves / count, nodes / count)
}

/// Root passes per iteration of the drivers that make them, with iterative deepening, against the
/// spread of the values (a finer evaluation needs more passes).
pub(super) fn passes_table() -> String {
    let algorithms =
        [Algorithm::Aspiration, Algorithm::Mtdf, Algorithm::MtdBi, Algorithm::Sss, Algorithm::Dual];
    let mut out = String::from("| values per edge |");
    for algorithm in algorithms {
        let _ = write!(out, " `{algorithm}` |");
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|".repeat(algorithms.len()));
    for spread in [10, 100, 1000] {
        let _ = write!(out, "\n| −{spread}..{spread} |");
        for algorithm in algorithms {
            let _ = write!(out, " {:.1} |", passes_per_iteration(algorithm, spread));
        }
    }
    out.push('\n');
    out
}

/// The mean root passes per iteration of `algorithm` over ten synthetic trees whose values per edge
/// lie in `-spread..=spread`.
fn passes_per_iteration(algorithm: Algorithm, spread: Value) -> f64 {
    let (mut passes, mut iterations) = (0usize, 0usize);
    for seed in 0..10 {
        let config = SyntheticConfig { seed, width: 8, depth: 7, spread, ..SyntheticConfig::default() };
        let tree = SyntheticTree::new(config).expect("a valid configuration");
        let params = SearchParams { iterative_deepening: true, ..SearchParams::default() };
        let result = Engine::new(&params).search(&tree, algorithm, &params, |_| {});
        assert_eq!(Some(result.value), tree.known_value());
        passes += result.iterations.iter().map(|iteration| iteration.passes.len()).sum::<usize>();
        iterations += result.iterations.len();
    }
    passes as f64 / iterations as f64
}

/// Literal translations beside the engine's drivers on the same synthetic trees: leaves and nodes.
pub(super) fn literal_table() -> String {
    let pairs = [
        ("kornilov-alphabeta", "alphabeta"),
        ("plaat-alphabeta-memory-corrected", "alphabeta"),
        ("verhelst-pvs", "pvs"),
        ("cpw-mtdf", "mtdf"),
        ("mtd-bi-literal-corrected", "mtd-bi"),
        ("sss-literal", "sss"),
        ("dual-literal", "dual"),
    ];
    let trees: Vec<SyntheticTree> = (0..10)
        .map(|seed| {
            SyntheticTree::new(SyntheticConfig { seed, width: 8, depth: 6, ..SyntheticConfig::default() })
        })
        .collect::<Result<_, _>>()
        .expect("a valid configuration");
    let known: Vec<Option<Value>> = trees.iter().map(SyntheticTree::known_value).collect();
    let mut out = String::from(
        "| literal translation | leaves | nodes | engine driver | leaves | nodes |\n|---|---:|---:|---|---:|---:|\n",
    );
    for (literal, engine) in pairs {
        let drivers = Driver::select(&format!("{literal},{engine}")).expect("registered drivers");
        let rows = compare(&trees, &known, &drivers, &SearchParams::default(), |_, _| {});
        assert!(rows.iter().all(|row| row.disagreements == 0), "{literal} or {engine} is wrong");
        let _ = writeln!(
            out,
            "| `{literal}` | {:.0} | {:.0} | `{engine}` | {:.0} | {:.0} |",
            rows[0].leaves, rows[0].nodes, rows[1].leaves, rows[1].nodes
        );
    }
    out
}
