//! One corpus, many engines: every tree in `testdata/trees/` through every exact driver, and every
//! game graph there through every optimized driver with every combination of its switches.
//!
//! Each file states its expected value in a header comment, `# value: V` (the book's exercise
//! trees excepted: their values are in [`EXERCISE_VALUES`]), and optionally `# depth: D` for a
//! depth-limited search, so the corpus checks the oracle too. A game graph may
//! also name a run of searches that one engine makes in turn, `# searches: D1 D2 …`, when a table
//! that one search leaves is what a later one needs to go wrong.

use std::collections::BTreeSet;
use std::path::Path;

use nullwindow::driver::SearchParams;
use nullwindow::game::Game;
use nullwindow::oracle::solve;
use nullwindow::reference::minimax;
use nullwindow::registry::Driver;
use nullwindow::search::{Algorithm, Engine};
use nullwindow::theory::witness;
use nullwindow::tree::{Tree, gtree, text};
use nullwindow::value::Value;

fn header(source: &str, key: &str) -> Option<i64> {
    source.lines().find_map(|line| line.strip_prefix(&format!("# {key}:")).map(|v| v.trim().parse().unwrap()))
}

/// The depths of a `# searches:` header.
fn searches(source: &str) -> Option<Vec<u32>> {
    source.lines().find_map(|line| {
        line.strip_prefix("# searches:")
            .map(|depths| depths.split_whitespace().map(|d| d.parse().unwrap()).collect())
    })
}

/// The values of the book's exercise trees, whose files a student opens: kept here, not in a
/// header, so that the files give no answer away.
const EXERCISE_VALUES: [(&str, i64); 9] = [
    ("exercise-best-first.tree", 9),
    ("exercise-bisection.tree", 2),
    ("exercise-bounds.tree", 7),
    ("exercise-irregular.tree", 5),
    ("exercise-research.tree", 8),
    ("exercise-shallow-research.tree", 6),
    ("exercise-three-ply.tree", 7),
    ("exercise-two-ply-ordered.tree", 3),
    ("exercise-two-ply.tree", 3),
];

/// One file of the corpus, parsed, with what its header says.
struct Entry {
    name: String,
    tree: Tree,
    /// A game graph (`.gtree`), with interior evaluations and perhaps transpositions.
    is_graph: bool,
    value: i64,
    depth: u32,
    searches: Option<Vec<u32>>,
}

/// Every file of `testdata/trees/`, by file name.
fn corpus() -> Vec<Entry> {
    let directory = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/trees");
    let mut entries: Vec<Entry> = std::fs::read_dir(&directory)
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let source = std::fs::read_to_string(&path).unwrap();
            let is_graph = path.extension().is_some_and(|e| e == "gtree");
            let tree = if is_graph { gtree::parse(&source) } else { text::parse(&source) }
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let exercise = EXERCISE_VALUES.iter().find(|(file, _)| *file == name).map(|&(_, value)| value);
            assert!(
                exercise.is_none() || header(&source, "value").is_none(),
                "{name}: an exercise's tree gives no answer away (its value is in EXERCISE_VALUES)"
            );
            let value = exercise
                .or_else(|| header(&source, "value"))
                .unwrap_or_else(|| panic!("{name}: no '# value:' header"));
            let depth = header(&source, "depth").map_or(u32::MAX, |d| d as u32);
            Entry { name, tree, is_graph, value, depth, searches: searches(&source) }
        })
        .collect();
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    entries
}

/// The corpus's game graphs.
fn graphs() -> impl Iterator<Item = Entry> {
    corpus().into_iter().filter(|entry| entry.is_graph)
}

#[test]
fn every_exact_driver_finds_the_stated_value_of_every_corpus_tree() {
    let entries = corpus();
    for Entry { name, tree, value, depth, .. } in &entries {
        let report = solve(
            tree,
            &Driver::select("all").unwrap(),
            &SearchParams { depth: *depth, ..SearchParams::default() },
        );
        assert_eq!(i64::from(report.value), *value, "{name}");
        for result in &report.results {
            assert_eq!(result.outcome.value, report.value, "{} on {name}", result.driver.info().name);
        }
    }
    assert!(entries.len() >= 5, "only {} corpus trees", entries.len());
}

/// Every combination of the switches that touch the table or the move order: table move first,
/// killers, history, enhanced transposition cutoff, iterative deepening.
fn every_switch_combination(deeper_entries: bool) -> impl Iterator<Item = SearchParams> {
    (0..32u32).map(move |switches| SearchParams {
        tt_entries: 1 << 10,
        table_move_first: switches & 1 != 0,
        killers: switches & 2 != 0,
        history: switches & 4 != 0,
        enhanced_transposition_cutoff: switches & 8 != 0,
        iterative_deepening: switches & 16 != 0,
        deeper_entries,
        ..SearchParams::default()
    })
}

/// Every optimized driver with every combination of switches, at every depth, equals minimax on
/// every corpus graph. Random graphs meet the shapes that break enhanced transposition cutoff too
/// rarely for the random properties; the corpus keeps two of them (`etc-child-depth.gtree`,
/// `etc-two-refutations.gtree`) so that every run meets them.
#[test]
fn every_engine_switch_is_exact_on_every_corpus_graph() {
    for Entry { name, tree, .. } in graphs() {
        for depth in 0..=tree.height() {
            let exact = minimax::search(&tree, &tree.root_id(), depth).value;
            for config in every_switch_combination(false) {
                for algorithm in Algorithm::ALL {
                    let params = SearchParams { depth, ..config.clone() };
                    let value = Engine::new(&params).search(&tree, algorithm, &params, |_| {}).value;
                    assert_eq!(value, exact, "{name} at depth {depth}: {algorithm} with {config:?}");
                }
            }
        }
    }
}

/// With deeper table entries, every optimized driver with every combination of switches meets
/// Wesselink et al.'s witness criterion on every corpus graph: its value is the value of some
/// all-or-none extension of the tree. A fresh engine searches each depth, and one engine makes the
/// run of searches a `# searches:` header names; every pass a driver reports has a window. The
/// `deeper-entries-*` graphs are rare shapes on which an MTD driver's confirming search or
/// NegaScout's horizon rule goes wrong in that mode.
#[test]
fn with_deeper_entries_every_engine_switch_meets_the_witness_criterion_on_every_corpus_graph() {
    for Entry { name, tree, searches, .. } in graphs() {
        let root = tree.root();
        let mover = tree.to_move(&root);
        let extensions: Vec<BTreeSet<Value>> =
            (0..=tree.height()).map(|depth| witness::extension_values(&tree, &root, depth)).collect();
        let runs: Vec<Vec<u32>> = (0..=tree.height()).map(|depth| vec![depth]).chain(searches).collect();
        for run in &runs {
            for config in every_switch_combination(true) {
                for algorithm in Algorithm::ALL {
                    let mut engine = Engine::new(&config);
                    for &depth in run {
                        let result = engine.search(
                            &tree,
                            algorithm,
                            &SearchParams { depth, ..config.clone() },
                            |_| {},
                        );
                        let value = result.value;
                        let extensions = &extensions[depth.min(tree.height()) as usize];
                        assert!(
                            extensions.contains(&mover.perspective(value)),
                            "{name}, searches {run:?}, at depth {depth}: {algorithm} with {config:?} gives {value}, extensions {extensions:?}"
                        );
                        // Every pass reported, the fallbacks' full windows included, had a window.
                        let passes = result.iterations.iter().flat_map(|iteration| &iteration.passes);
                        for pass in passes {
                            assert!(
                                pass.alpha < pass.beta,
                                "{name}: {algorithm} with {config:?} reports {pass:?}"
                            );
                        }
                    }
                }
            }
        }
    }
}
