//! Wesselink, Huizing and van de Wetering's witness criterion for depth-limited search with a
//! transposition table ("Formal Verification of Minimax Algorithms", arXiv:2509.20138): a search
//! that uses entries of deeper searches must return the alpha-beta result of some all-or-none
//! extension of the depth-`d` tree ([`nullwindow::theory::witness`]).
//!
//! * Their counterexample: on their game graph, Marsland's `negamax_ttm` returns a value no extension
//!   explains, and so do the study's Python `negamax_ttw_fishburn_propagation` and
//!   `negamax_ttw_current_alpha`, which copy Marsland's lookup; Wikipedia's `negamax_ttw`, which the
//!   study proves correct, the three verified Dafny classes and the Python
//!   `negamax_depth_tt_plaat_1996` meet the criterion at every call of the same runs.
//! * On random game graphs with transpositions at different depths, with one table shared by a
//!   sequence of searches from random positions at random depths and windows, every call of the
//!   variants that only answer from the table meets the criterion, and the Dafny
//!   `NegamaxTTWExtraDepthCondition` never makes an entry shallower.
//! * On plain trees searched from the root several times at one depth with one table, as MTD(f)
//!   does, every search but the Python `negamax_ttw_current_alpha` is exact at every call, and MTD(f)
//!   over it finds the minimax value.
//! * That one stores a cut-off as an upper bound: proptest finds it failing on such trees and shrinks
//!   the failure to three nodes and two searches, no tree of fewer nodes fails with any windows
//!   (bounded-exhaustive), and on the committed smallest tree the two passes of MTD(f) go wrong
//!   exactly as the module documentation of `literal::wesselink` explains (a snapshot of every call).
//! * The engine's opt-in `deeper_entries` mode meets it at the root for every driver, across
//!   sequences of searches that leave deeper entries behind (the default mode stays exact on the
//!   same graphs: `engine::a_table_reused_across_searches_stays_exact`).
//! * On a small graph, what the variants do with their table, call by call: a repeated search that
//!   failed is answered by the bound it stored, Marsland's lookup reads the entries another search
//!   left, Marsland's scheme replaces an entry only by one at least as deep, and Plaat's stores the
//!   bounds a result proves, never a leaf's.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Write as _;

use nullwindow::driver::SearchParams;
use nullwindow::driver::observe::Calls;
use nullwindow::driver::{Call, Hooks, Perspective};
use nullwindow::game::Game;
use nullwindow::literal::Search;
use nullwindow::literal::memory::Memory;
use nullwindow::literal::wesselink::{
    PlaatTableEntry, PlaatTranspositionTable, TableEntry, TableFlag, TranspositionTable, Variant,
    negamax_depth_tt_plaat_1996,
};
use nullwindow::reference::negamax::negamax;
use nullwindow::search::{Algorithm, Engine};
use nullwindow::theory::{is_fail_soft_result, witness};
use nullwindow::tree::{NodeId, Tree, gtree};
use nullwindow::value::{INFINITY, Value};
use proptest::prelude::*;
use proptest::test_runner::{RngAlgorithm, TestError, TestRng, TestRunner};

use crate::strategies::{all_shapes, graphs_with_transpositions, shapes};

/// The study's graph (`python/negamax-ttm-counter-example.py`, `make_tree`).
fn study_graph() -> Tree {
    let tree = gtree::parse(include_str!("../../testdata/trees/wesselink-ttm-counterexample.gtree")).unwrap();
    // The reader numbers nodes depth-first from the root; `NAMES` relies on that order.
    assert_eq!(tree.children(NodeId(0)), [NodeId(1), NodeId(12)]);
    assert_eq!(tree.children(NodeId(14)), [NodeId(3)]);
    tree
}

/// The study's node names by the reader's numbering (depth-first from `u`).
const NAMES: [&str; 15] = ["u", "y", "z", "v", "b", "c", "d", "h", "e", "f", "g", "q", "k", "l", "m"];

fn node(name: &str) -> NodeId {
    NodeId(NAMES.iter().position(|&n| n == name).unwrap() as u32)
}

/// One search to run: from `position`, with the window `(alpha, beta)` (side to move), `depth` deep.
#[derive(Clone, Copy, Debug)]
struct Run {
    position: NodeId,
    alpha: Value,
    beta: Value,
    depth: u32,
}

/// One of the study's searches: a [`Variant`], over a [`TranspositionTable`], or Plaat's, over its
/// own table of both bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Searcher {
    Variant(Variant),
    Plaat,
}

impl From<Variant> for Searcher {
    fn from(variant: Variant) -> Self {
        Self::Variant(variant)
    }
}

impl Searcher {
    /// Every search: the variants, then Plaat's.
    fn all() -> impl Iterator<Item = Self> {
        Variant::ALL.into_iter().map(Self::Variant).chain([Self::Plaat])
    }

    fn name(self) -> &'static str {
        match self {
            Self::Variant(variant) => variant.name(),
            Self::Plaat => "negamax_depth_tt_plaat_1996",
        }
    }

    /// Searches `run` with the table of its kind from `tables`.
    fn search(self, search: &mut Search<'_, Tree>, run: &Run, tables: &mut Tables) -> Value {
        match self {
            Self::Variant(variant) => {
                variant.search(search, &run.position, run.alpha, run.beta, run.depth, &mut tables.flagged)
            }
            Self::Plaat => negamax_depth_tt_plaat_1996(
                search,
                &run.position,
                run.alpha,
                run.beta,
                run.depth,
                &mut tables.plaat,
            ),
        }
    }
}

/// The tables a sequence of searches shares: the variants' and Plaat's.
#[derive(Clone, Default)]
struct Tables {
    flagged: TranspositionTable,
    plaat: PlaatTranspositionTable,
}

impl Tables {
    /// Every entry, one a line, by node (the tables hold the nodes' keys).
    fn describe(&self, tree: &Tree) -> Vec<String> {
        let node_of: HashMap<u64, u32> = (0..tree.node_count())
            .map(|index| NodeId(index as u32))
            .map(|node| (tree.key(&node), node.0))
            .collect();
        let node = |key: u64| node_of[&key];
        let mut flagged: Vec<(u32, TableEntry)> =
            self.flagged.iter().map(|(key, entry)| (node(key), entry)).collect();
        flagged.sort_by_key(|&(node, _)| node);
        let mut plaat: Vec<(u32, PlaatTableEntry)> =
            self.plaat.iter().map(|(key, entry)| (node(key), entry)).collect();
        plaat.sort_by_key(|&(node, _)| node);
        let show = |value: Value| match value {
            INFINITY => "+INF".to_owned(),
            v if v == -INFINITY => "-INF".to_owned(),
            v => v.to_string(),
        };
        flagged
            .into_iter()
            .map(|(node, entry)| {
                format!("node {node}: {:?} {} (depth {})", entry.flag, entry.value, entry.depth)
            })
            .chain(plaat.into_iter().map(|(node, entry)| {
                format!(
                    "node {node}: [{}, {}] (depth {})",
                    show(entry.lowerbound),
                    show(entry.upperbound),
                    entry.depth
                )
            }))
            .collect()
    }
}

/// What one search of a sequence did: its result and its calls, in the order they finished.
struct Searched {
    result: Value,
    calls: Vec<Call<NodeId>>,
}

/// Runs each `(searcher, run)` in turn with one set of tables: what each search did, and the tables
/// left behind.
fn run_in_turn(tree: &Tree, runs: &[(Searcher, Run)]) -> (Vec<Searched>, Tables) {
    let calls = RefCell::new(Vec::new());
    let mut observer = Calls(|call: &Call<NodeId>| calls.borrow_mut().push(call.clone()));
    let mut search = Search::new(tree, Memory::keyed_by_node(), Hooks::observed(&mut observer));
    let mut tables = Tables::default();
    let mut searched = Vec::new();
    for (searcher, run) in runs {
        let result = searcher.search(&mut search, run, &mut tables);
        searched.push(Searched { result, calls: calls.take() });
    }
    (searched, tables)
}

/// Every finished call of `runs` made in turn by `searcher` with one table, with whether it meets
/// the criterion.
fn checked_calls(searcher: impl Into<Searcher>, tree: &Tree, runs: &[Run]) -> Vec<(Call<NodeId>, bool)> {
    let searcher = searcher.into();
    let runs: Vec<(Searcher, Run)> = runs.iter().map(|&run| (searcher, run)).collect();
    let (searched, _) = run_in_turn(tree, &runs);
    let mut sets = HashMap::new();
    searched
        .into_iter()
        .flat_map(|searched| searched.calls)
        .map(|call| {
            let values = sets
                .entry((call.position, call.depth))
                .or_insert_with(|| witness::extension_values(tree, &call.position, call.depth));
            let ok = values.iter().any(|&x| is_fail_soft_result(call.result, x, call.alpha, call.beta));
            (call, ok)
        })
        .collect()
}

/// Whether `call` returned an alpha-beta result of the depth-limited negamax value of its position.
fn is_exact(tree: &Tree, call: &Call<NodeId>) -> bool {
    let value = negamax(tree, &call.position, call.depth, &mut Default::default());
    is_fail_soft_result(call.result, value, call.alpha, call.beta)
}

/// The study's three runs of `run_negamax_ttm`: the whole graph 6 deep with the window (0, 5); then,
/// on a fresh table, `v` 4 deep with (0, 2) followed by `v` 2 deep with (0, 5).
fn study_runs() -> [Vec<Run>; 2] {
    let (u, v) = (node("u"), node("v"));
    [
        vec![Run { position: u, alpha: 0, beta: 5, depth: 6 }],
        vec![
            Run { position: v, alpha: 0, beta: 2, depth: 4 },
            Run { position: v, alpha: 0, beta: 5, depth: 2 },
        ],
    ]
}

/// The calls as the study's Python prints them, each marked with whether it meets the criterion and,
/// where not, the values the extensions allow.
fn report(variant: Searcher, tree: &Tree) -> String {
    let mut text = String::new();
    for (index, runs) in study_runs().iter().enumerate() {
        writeln!(text, "--- {} {} ---", variant.name(), ["a", "b + c"][index]).unwrap();
        for (call, ok) in checked_calls(variant, tree, runs) {
            let name = NAMES[call.position.index()];
            write!(
                text,
                "{}({name}, alpha={}, beta={}, depth={}) = {}",
                variant.name(),
                call.alpha,
                call.beta,
                call.depth,
                call.result
            )
            .unwrap();
            if ok {
                text.push_str("  ok\n");
            } else {
                let values = witness::extension_values(tree, &call.position, call.depth);
                writeln!(text, "  FAILS: extensions give {values:?}").unwrap();
            }
        }
    }
    text
}

#[test]
fn on_the_studys_graph_the_variants_that_narrow_the_window_fail_the_criterion() {
    let tree = study_graph();
    let reports: Vec<(Searcher, String)> =
        Searcher::all().map(|variant| (variant, report(variant, &tree))).collect();
    let failing: Vec<&str> = reports
        .iter()
        .filter(|(_, text)| text.contains("FAILS"))
        .map(|(variant, _)| variant.name())
        .collect();
    // Marsland's scheme, which the study refutes, and the two Python variants that copy its lookup;
    // the Wikipedia scheme, the verified Dafny variants and Plaat's meet the criterion at every call.
    assert_eq!(failing, ["negamax_ttm", "negamax_ttw_fishburn_propagation", "negamax_ttw_current_alpha"]);
    let text: Vec<&str> = reports.iter().map(|(_, text)| text.as_str()).collect();
    insta::assert_snapshot!(text.join("\n"));
}

#[test]
fn mtd_drivers_with_deeper_entries_confirm_a_value_their_passes_meet_at() {
    // Without the confirming search MTD(f) returns 4 at depth 2 here: one pass fails high at 5 from
    // the 7-ply entries, the next fails low at 4 on the 2-ply tree (see the file's header).
    let tree = gtree::parse(include_str!("../../testdata/trees/deeper-entries-mtd-crossing.gtree")).unwrap();
    let root = tree.root();
    for algorithm in Algorithm::ALL {
        let config = SearchParams { deeper_entries: true, ..SearchParams::default() };
        let mut engine = Engine::new(&config);
        for depth in [7, 2] {
            let value =
                engine.search(&tree, algorithm, &SearchParams { depth, ..config.clone() }, |_| {}).value;
            assert!(
                witness::is_witness_result(&tree, &root, depth, -INFINITY, INFINITY, value),
                "{algorithm} at depth {depth}: {value}, extensions give {:?}",
                witness::extension_values(&tree, &root, depth)
            );
        }
    }
}

#[test]
fn an_mtd_value_is_confirmed_by_one_search_when_nothing_deeper_is_in_the_table() {
    // A fresh engine has no deeper entries: the confirming search agrees, and no full-window
    // search follows it.
    let tree: Tree = nullwindow::tree::examples::TEACHING_TREE.parse().unwrap();
    let config = SearchParams { deeper_entries: true, ..SearchParams::default() };
    for algorithm in [Algorithm::Mtdf, Algorithm::MtdBi, Algorithm::Sss, Algorithm::Dual] {
        let result = Engine::new(&config).search(&tree, algorithm, &config, |_| {});
        let last = *result.iterations[0].passes.last().unwrap();
        assert_eq!(
            (last.alpha, last.beta, last.result),
            (result.value - 1, result.value + 1, result.value),
            "{algorithm}"
        );
    }
}

#[test]
fn with_deeper_entries_a_deeper_search_answers_the_root_at_once() {
    // The 4-ply search leaves an exact entry for the root; the 2-ply search is answered by it.
    let tree: Tree = nullwindow::tree::examples::TEACHING_TREE.parse().unwrap();
    let config = SearchParams { deeper_entries: true, ..SearchParams::default() };
    let mut engine = Engine::new(&config);
    let deep =
        engine.search(&tree, Algorithm::AlphaBeta, &SearchParams { depth: 4, ..config.clone() }, |_| {});
    let shallow = engine.search(&tree, Algorithm::AlphaBeta, &SearchParams { depth: 2, ..config }, |_| {});
    assert_eq!(shallow.value, deep.value);
    assert_eq!((shallow.counts.nodes, shallow.counts.probes, shallow.counts.hits), (1, 1, 1));
}

/// Random runs on `tree`: a search from the root, then up to three from random nodes, at depths 0 to
/// 7, with random windows.
fn runs(tree: &Tree) -> impl Strategy<Value = Vec<Run>> + use<> {
    let run =
        |nodes: usize| {
            (0..nodes, -8..=8 as Value, 1..=8 as Value, 0u32..=7).prop_map(|(node, alpha, width, depth)| {
                Run { position: NodeId(node as u32), alpha, beta: alpha + width, depth }
            })
        };
    (run(1), prop::collection::vec(run(tree.node_count()), 0..=3)).prop_map(|(first, rest)| {
        let mut runs = vec![first];
        runs.extend(rest);
        runs
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn every_call_of_the_variants_that_only_answer_from_the_table_meets_the_criterion(
        (tree, runs) in graphs_with_transpositions().prop_flat_map(|tree| { let runs = runs(&tree); (Just(tree), runs) })
    ) {
        let searchers = [
            Variant::Ttw,
            Variant::TtwCurrentAlphaVerified,
            Variant::TtwExtraDepthCondition,
            Variant::TtwFishburnPropagationVerified,
            Variant::TtwMarslandLookup,
        ]
        .map(Searcher::from);
        for variant in searchers.into_iter().chain([Searcher::Plaat]) {
            for (call, ok) in checked_calls(variant, &tree, &runs) {
                prop_assert!(ok, "{} {:?} on {} after {:?}", variant.name(), call, tree, runs);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// After its loop `alpha >= value`, so the verified `NegamaxTTWCurrentAlpha` never takes its
    /// `alpha < value < beta0` branch: it stores no exact entry.
    #[test]
    fn the_verified_current_alpha_variant_never_stores_an_exact_entry(
        (tree, runs) in graphs_with_transpositions().prop_flat_map(|tree| { let runs = runs(&tree); (Just(tree), runs) })
    ) {
        let runs: Vec<_> = runs.into_iter().map(|run| (Variant::TtwCurrentAlphaVerified, run)).collect();
        let (_, table) = runs_sharing_a_table(&tree, &runs);
        prop_assert!(table.iter().all(|(_, entry)| entry.flag != TableFlag::Exact));
    }

    /// The Python `negamax_ttw_current_alpha` tests `value <= alpha` first, against the current
    /// `alpha`, which is at least `value` after the loop: every entry it stores is an upper bound,
    /// and its lower-bound and exact cases are never taken.
    #[test]
    fn the_python_current_alpha_variant_stores_only_upper_bounds(
        (tree, runs) in graphs_with_transpositions().prop_flat_map(|tree| { let runs = runs(&tree); (Just(tree), runs) })
    ) {
        let runs: Vec<_> = runs.into_iter().map(|run| (Variant::TtwCurrentAlpha, run)).collect();
        let (_, table) = runs_sharing_a_table(&tree, &runs);
        prop_assert!(table.iter().all(|(_, entry)| entry.flag == TableFlag::Upperbound));
    }
}

proptest! {
    // More cases: the sequences that break a driver (a deep search, then a shallow one that meets
    // its entries) are rare.
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    #[test]
    fn the_engine_with_deeper_entries_meets_the_criterion_at_the_root(
        tree in graphs_with_transpositions(),
        algorithm in prop::sample::select(Algorithm::ALL.to_vec()),
        depths in prop::collection::vec(0u32..=7, 1..=4),
        iterative_deepening in any::<bool>(),
    ) {
        let config = SearchParams { deeper_entries: true, iterative_deepening, tt_entries: 1 << 10, ..SearchParams::default() };
        let mut engine = Engine::new(&config);
        let root = tree.root();
        let mover = tree.to_move(&root);
        for depth in depths {
            let result = engine.search(&tree, algorithm, &SearchParams { depth, ..config.clone() }, |_| {});
            let value_for_mover = mover.perspective(result.value);
            prop_assert!(
                witness::is_witness_result(&tree, &root, depth, -INFINITY, INFINITY, value_for_mover),
                "{algorithm} at depth {depth} returned {}, extensions give {:?}, on {tree}",
                result.value,
                witness::extension_values(&tree, &root, depth)
            );
        }
    }
}

#[test]
fn a_repeated_search_is_answered_by_the_table_and_the_table_says_what_it_holds() {
    // Wikipedia's scheme stores the root's exact value; the same search again is one call.
    let tree = study_graph();
    let run = Run { position: node("u"), alpha: -INFINITY, beta: INFINITY, depth: 6 };
    let once = checked_calls(Variant::Ttw, &tree, &[run]).len();
    let twice = checked_calls(Variant::Ttw, &tree, &[run, run]).len();
    assert_eq!(twice, once + 1);

    let mut observer = Calls(|_: &Call<NodeId>| {});
    let mut search = Search::new(&tree, Memory::keyed_by_node(), Hooks::observed(&mut observer));
    let mut table = TranspositionTable::new();
    assert!(table.is_empty());
    assert_eq!(table.len(), 0);
    Variant::Ttw.search(&mut search, &node("u"), -INFINITY, INFINITY, 6, &mut table);
    assert!(!table.is_empty() && table.len() > 1);
    assert_eq!(table.iter().count(), table.len());
    assert!(table.iter().all(|(key, entry)| table.get(key) == Some(entry)));
}

/// The graph of `testdata/trees/transposition.gtree`: its root is worth 5 at depth 1 and 3 at depths
/// 2 and 3.
fn transposition_graph() -> Tree {
    gtree::parse(include_str!("../../testdata/trees/transposition.gtree")).unwrap()
}

/// Runs each `(variant, run)` in turn with one table: each run's result and number of calls, and
/// the table left behind.
fn runs_sharing_a_table(tree: &Tree, runs: &[(Variant, Run)]) -> (Vec<(Value, usize)>, TranspositionTable) {
    let runs: Vec<(Searcher, Run)> = runs.iter().map(|&(variant, run)| (variant.into(), run)).collect();
    let (searched, tables) = run_in_turn(tree, &runs);
    (searched.iter().map(|searched| (searched.result, searched.calls.len())).collect(), tables.flagged)
}

#[test]
fn a_repeated_failing_search_is_answered_by_the_bound_it_stored() {
    // The root is worth 3 at depth 2: the window (4, 5) fails low and leaves an upper bound at most
    // 4, the window (1, 2) fails high and leaves a lower bound at least 2. The variants that answer
    // from the table answer the same search again from that bound, in one call.
    let tree = transposition_graph();
    let root = tree.root();
    for variant in [Variant::Ttw, Variant::TtwCurrentAlphaVerified] {
        for (alpha, beta, flag) in [(4, 5, TableFlag::Upperbound), (1, 2, TableFlag::Lowerbound)] {
            let run = Run { position: root, alpha, beta, depth: 2 };
            let (results, table) = runs_sharing_a_table(&tree, &[(variant, run), (variant, run)]);
            let (first, _) = results[0];
            let name = variant.name();
            assert_eq!(
                table.get(tree.key(&root)),
                Some(TableEntry { value: first, depth: 2, flag }),
                "{name}"
            );
            assert_eq!(results[1], (first, 1), "{name} with ({alpha}, {beta})");
        }
    }
}

#[test]
fn marslands_lookup_uses_the_entries_another_search_left() {
    // `negamax_ttw_marsland_lookup` never writes its table, but it reads one: here one that
    // `negamax_ttw` filled 2 plies deep, read by a 1-ply search (the root is worth 5 at depth 1).
    let tree = transposition_graph();
    let root = tree.root();
    let run = |alpha, beta, depth| Run { position: root, alpha, beta, depth };
    let key = tree.key(&root);

    // An exact entry at least as deep answers the node, with its own (deeper) value.
    let (results, table) = runs_sharing_a_table(
        &tree,
        &[
            (Variant::Ttw, run(-INFINITY, INFINITY, 2)),
            (Variant::TtwMarslandLookup, run(-INFINITY, INFINITY, 1)),
        ],
    );
    assert_eq!(table.get(key), Some(TableEntry { value: 3, depth: 2, flag: TableFlag::Exact }));
    assert_eq!(results[1], (3, 1));

    // An upper bound of 3 closes the window (4, 5): answered at once.
    let (results, table) = runs_sharing_a_table(
        &tree,
        &[(Variant::Ttw, run(4, 5, 2)), (Variant::TtwMarslandLookup, run(4, 5, 1))],
    );
    assert_eq!(table.get(key), Some(TableEntry { value: 3, depth: 2, flag: TableFlag::Upperbound }));
    assert_eq!(results[1], (3, 1));

    // With the full window it only narrows it to (-INFINITY, 3): the root is searched, and its first
    // child's 5 fails high.
    let (results, _) = runs_sharing_a_table(
        &tree,
        &[(Variant::Ttw, run(4, 5, 2)), (Variant::TtwMarslandLookup, run(-INFINITY, INFINITY, 1))],
    );
    assert_eq!(results[1], (5, 2));
}

#[test]
fn marslands_scheme_replaces_an_entry_only_by_one_at_least_as_deep() {
    // `negamax_ttm` stores a result only over an entry of no more depth. The window (4, 5) leaves an
    // upper bound 3 from 2 plies; a 1-ply full-window search, which the bound only narrows, fails
    // high at 5 and leaves it; a 3-ply search replaces it by the exact 3.
    let tree = transposition_graph();
    let root = tree.root();
    let run = |alpha, beta, depth| (Variant::Ttm, Run { position: root, alpha, beta, depth });
    let key = tree.key(&root);
    let runs = [run(4, 5, 2), run(-INFINITY, INFINITY, 1), run(-INFINITY, INFINITY, 3)];
    let expected = [
        (3, TableEntry { value: 3, depth: 2, flag: TableFlag::Upperbound }),
        (5, TableEntry { value: 3, depth: 2, flag: TableFlag::Upperbound }),
        (3, TableEntry { value: 3, depth: 3, flag: TableFlag::Exact }),
    ];
    for (count, (value, entry)) in expected.into_iter().enumerate() {
        let (results, table) = runs_sharing_a_table(&tree, &runs[..=count]);
        assert_eq!((results[count].0, table.get(key)), (value, Some(entry)), "after {} runs", count + 1);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// `NegamaxTTWExtraDepthCondition` stores a result only over an entry of no more depth: across a
    /// sequence of searches, no position's entry ever gets shallower.
    #[test]
    fn the_extra_depth_condition_never_makes_an_entry_shallower(
        (tree, runs) in graphs_with_transpositions().prop_flat_map(|tree| { let runs = runs(&tree); (Just(tree), runs) })
    ) {
        let mut observer = Calls(|_: &Call<NodeId>| {});
        let mut search =
            Search::new(&tree, Memory::keyed_by_node(), Hooks::observed(&mut observer));
        let mut table = TranspositionTable::new();
        for run in &runs {
            let before = table.clone();
            Variant::TtwExtraDepthCondition.search(&mut search, &run.position, run.alpha, run.beta, run.depth, &mut table);
            for (key, entry) in before.iter() {
                let after = table.get(key).unwrap();
                prop_assert!(after.depth >= entry.depth, "{entry:?} became {after:?} on {tree} after {runs:?}");
            }
        }
    }
}

/// Plain trees (no position reached twice) searched from the root two to four times, each time with
/// its own window, all at one depth, with one table: the way MTD(f) uses a table at a fixed depth.
/// No entry is ever deeper than the search that meets it.
fn plain_trees_with_runs_at_one_depth() -> impl Strategy<Value = (Tree, Vec<Run>)> {
    (shapes(3, 3, -2..=2), 1u32..=4, prop::collection::vec((-3..=3 as Value, 1..=3 as Value), 2..=4))
        .prop_map(|(shape, depth, windows)| {
            let tree = shape.to_tree();
            let root = tree.root();
            let runs = windows.into_iter().map(|(alpha, width)| Run {
                position: root,
                alpha,
                beta: alpha + width,
                depth,
            });
            (tree, runs.collect())
        })
}

/// MTD(f) as Plaat's page prints it, from `first_guess`, over `test`, a search of the root with the
/// window it is given: the value and each pass's window.
fn mtdf(first_guess: Value, mut test: impl FnMut(Value, Value) -> Value) -> (Value, Vec<(Value, Value)>) {
    let mut g = first_guess;
    let (mut upperbound, mut lowerbound) = (INFINITY, -INFINITY);
    let mut windows = Vec::new();
    while lowerbound < upperbound {
        let beta = if g == lowerbound { g + 1 } else { g };
        windows.push((beta - 1, beta));
        g = test(beta - 1, beta);
        if g < beta {
            upperbound = g;
        } else {
            lowerbound = g;
        }
    }
    (g, windows)
}

/// MTD(f) from `first_guess` over `searcher` at `depth` from the root of `tree`, with one table for
/// every pass.
fn mtdf_over(
    searcher: Searcher,
    tree: &Tree,
    depth: u32,
    first_guess: Value,
) -> (Value, Vec<(Value, Value)>) {
    let mut observer = Calls(|_: &Call<NodeId>| {});
    let mut search = Search::new(tree, Memory::keyed_by_node(), Hooks::observed(&mut observer));
    let mut tables = Tables::default();
    let position = tree.root();
    mtdf(first_guess, |alpha, beta| {
        searcher.search(&mut search, &Run { position, alpha, beta, depth }, &mut tables)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// With no entry deeper than the search that meets it, a correct table changes no result: every
    /// call returns an alpha-beta result of its position's depth-limited value, and MTD(f) over the
    /// search finds the root's. Every search but the Python `negamax_ttw_current_alpha` does so, even
    /// those that narrow the window by stored bounds.
    #[test]
    fn on_plain_trees_at_one_depth_every_search_but_one_is_exact(
        (tree, runs) in plain_trees_with_runs_at_one_depth(),
        first_guess in -3..=3 as Value,
    ) {
        let depth = runs[0].depth;
        let value = negamax(&tree, &tree.root(), depth, &mut Default::default());
        for searcher in Searcher::all().filter(|&searcher| searcher != Variant::TtwCurrentAlpha.into()) {
            let runs: Vec<(Searcher, Run)> = runs.iter().map(|&run| (searcher, run)).collect();
            for call in run_in_turn(&tree, &runs).0.into_iter().flat_map(|searched| searched.calls) {
                prop_assert!(is_exact(&tree, &call), "{} {:?} on {} after {:?}", searcher.name(), call, tree, runs);
            }
            prop_assert_eq!(mtdf_over(searcher, &tree, depth, first_guess).0, value, "{} on {}", searcher.name(), tree);
        }
    }
}

#[test]
fn plaats_search_stores_the_bounds_a_result_proves_and_never_a_leaf() {
    // The root is worth 3 at depth 2. A full window proves both bounds; (4, 5) fails low and proves
    // only an upper bound, (1, 2) fails high and proves only a lower one. The same search again is
    // answered by the entry in one call where a bound decides the window; the full window, which
    // neither bound decides, is searched again.
    let tree = transposition_graph();
    let root = tree.root();
    for (alpha, beta, lowerbound, upperbound) in
        [(-INFINITY, INFINITY, 3, 3), (4, 5, -INFINITY, 3), (1, 2, 3, INFINITY)]
    {
        let run = Run { position: root, alpha, beta, depth: 2 };
        let (searched, tables) = run_in_turn(&tree, &[(Searcher::Plaat, run), (Searcher::Plaat, run)]);
        assert_eq!(searched[0].result, 3);
        assert_eq!(
            tables.plaat.get(tree.key(&root)),
            Some(PlaatTableEntry { lowerbound, upperbound, depth: 2 }),
            "({alpha}, {beta})"
        );
        assert_eq!(searched[1].result, 3);
        assert_eq!(searched[1].calls.len() == 1, alpha != -INFINITY, "({alpha}, {beta})");
        // Only the positions searched with depth to spare have an entry: none at depth 0.
        assert!(tables.plaat.iter().all(|(_, entry)| entry.depth > 0));
        assert!(!tables.plaat.is_empty() && tables.flagged.is_empty());
    }
}

/// The Python `negamax_ttw_current_alpha` on plain trees at one depth: the first failure proptest
/// finds, shrunk.
fn smallest_current_alpha_failure_proptest_finds() -> (Tree, Vec<Run>) {
    let config = ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() };
    let mut runner = TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let outcome = runner.run(&plain_trees_with_runs_at_one_depth(), |(tree, runs)| {
        for (call, ok) in checked_calls(Variant::TtwCurrentAlpha, &tree, &runs) {
            prop_assert!(ok, "{call:?}");
        }
        Ok(())
    });
    match outcome {
        Err(TestError::Fail(_, case)) => case,
        other => panic!("no failure found: {other:?}"),
    }
}

#[test]
fn proptest_shrinks_a_failure_of_the_python_current_alpha_variant_to_three_nodes_and_two_searches() {
    let (tree, runs) = smallest_current_alpha_failure_proptest_finds();
    // A root over two leaves, the first worse for the root than the second, searched twice: the
    // shape of `wesselink-current-alpha-counterexample.tree`.
    assert_eq!((tree.node_count(), runs.len()), (3, 2), "{tree} after {runs:?}");
    let leaves: Vec<Value> = tree.children(tree.root()).iter().map(|&leaf| tree.evaluate(&leaf)).collect();
    assert!(leaves.len() == 2 && leaves[0] < leaves[1], "{tree}");
}

/// Whether some call of `runs` by the Python `negamax_ttw_current_alpha` fails the criterion.
fn current_alpha_fails(tree: &Tree, runs: &[Run]) -> bool {
    checked_calls(Variant::TtwCurrentAlpha, tree, runs).iter().any(|&(_, ok)| !ok)
}

#[test]
fn the_smallest_plain_trees_that_break_the_python_current_alpha_variant_have_three_nodes() {
    // Every tree of at most three nodes with values in {-1, 0, 1}, every depth 0 to 3, and every
    // sequence of one to three searches from the root with window edges from -2 to 2.
    let windows: Vec<(Value, Value)> =
        (-2..=2).flat_map(|alpha| (alpha + 1..=2).map(move |beta| (alpha, beta))).collect();
    let mut sequences = Vec::new();
    for &first in &windows {
        sequences.push(vec![first]);
        for &second in &windows {
            sequences.push(vec![first, second]);
            for &third in &windows {
                sequences.push(vec![first, second, third]);
            }
        }
    }
    assert_eq!(sequences.len(), 10 + 100 + 1000);
    let mut failing = Vec::new();
    for nodes in 1..=3 {
        for shape in all_shapes(nodes, &[-1, 0, 1]) {
            let tree = shape.to_tree();
            let root = tree.root();
            for depth in 0..=3 {
                for sequence in &sequences {
                    let runs: Vec<Run> = sequence
                        .iter()
                        .map(|&(alpha, beta)| Run { position: root, alpha, beta, depth })
                        .collect();
                    if current_alpha_fails(&tree, &runs) {
                        failing.push((tree.to_string(), depth, sequence.len()));
                    }
                }
            }
        }
    }
    // Nothing below three nodes and nothing in one search; at three nodes, exactly the roots over two
    // leaves whose first is worse, at every depth that reaches the leaves.
    assert!(failing.iter().all(|&(_, _, searches)| searches >= 2));
    let mut cases: Vec<(&str, u32)> =
        failing.iter().map(|(tree, depth, _)| (tree.as_str(), *depth)).collect();
    cases.sort_unstable();
    cases.dedup();
    let expected: Vec<(&str, u32)> = ["(-1 0)", "(-1 1)", "(0 1)"]
        .into_iter()
        .flat_map(|tree| (1..=3).map(move |depth| (tree, depth)))
        .collect();
    assert_eq!(cases, expected);
}

/// The smallest plain tree on which the Python `negamax_ttw_current_alpha` fails the criterion at
/// one depth (`testdata/trees/wesselink-current-alpha-counterexample.tree`).
fn current_alpha_counterexample() -> Tree {
    include_str!("../../testdata/trees/wesselink-current-alpha-counterexample.tree").parse().unwrap()
}

/// Each search of `runs` by `searcher` with one table: its calls as the study's Python prints them,
/// each marked with whether it meets the criterion, and the table after it.
fn report_in_turn(searcher: Searcher, tree: &Tree, runs: &[Run]) -> String {
    let mut text = format!("--- {} ---\n", searcher.name());
    for (index, run) in runs.iter().enumerate() {
        writeln!(text, "search {}: window ({}, {}), depth {}", index + 1, run.alpha, run.beta, run.depth)
            .unwrap();
        let prefix: Vec<(Searcher, Run)> = runs[..=index].iter().map(|&run| (searcher, run)).collect();
        let (searched, tables) = run_in_turn(tree, &prefix);
        for call in &searched[index].calls {
            let values = witness::extension_values(tree, &call.position, call.depth);
            let ok = values.iter().any(|&x| is_fail_soft_result(call.result, x, call.alpha, call.beta));
            write!(
                text,
                "  {}(node {}, alpha={}, beta={}, depth={}) = {}",
                searcher.name(),
                call.position.0,
                call.alpha,
                call.beta,
                call.depth,
                call.result
            )
            .unwrap();
            if ok {
                text.push_str("  ok\n");
            } else {
                writeln!(text, "  FAILS: extensions give {values:?}").unwrap();
            }
        }
        for entry in tables.describe(tree) {
            writeln!(text, "  table: {entry}").unwrap();
        }
    }
    text
}

#[test]
fn the_python_current_alpha_variant_stores_a_cut_off_as_an_upper_bound() {
    let tree = current_alpha_counterexample();
    let root = tree.root();
    let depth = 1;
    let current_alpha = Searcher::from(Variant::TtwCurrentAlpha);
    let wikipedia = Searcher::from(Variant::Ttw);

    // MTD(f) from the first guess 0 makes two passes; over `negamax_ttw_current_alpha` it returns 0
    // for a root worth 1, over `negamax_ttw` it returns 1.
    assert_eq!(negamax(&tree, &root, depth, &mut Default::default()), 1);
    assert_eq!(mtdf_over(current_alpha, &tree, depth, 0), (0, vec![(-1, 0), (0, 1)]));
    assert_eq!(mtdf_over(wikipedia, &tree, depth, 0).0, 1);
    let runs =
        [Run { position: root, alpha: -1, beta: 0, depth }, Run { position: root, alpha: 0, beta: 1, depth }];

    // The first pass is cut off after the first leaf: 0 >= beta, a lower bound, stored as an upper
    // bound because the flag is judged against the current alpha, already raised to 0.
    let key = tree.key(&root);
    let (searched, tables) = run_in_turn(&tree, &[(current_alpha, runs[0])]);
    assert_eq!((searched[0].result, searched[0].calls.len()), (0, 2));
    assert_eq!(tables.flagged.get(key), Some(TableEntry { value: 0, depth, flag: TableFlag::Upperbound }));
    let (_, tables) = run_in_turn(&tree, &[(wikipedia, runs[0])]);
    assert_eq!(tables.flagged.get(key), Some(TableEntry { value: 0, depth, flag: TableFlag::Lowerbound }));

    // The second pass is answered by that entry at once: 0 <= alpha, a fail low that says the root
    // is worth at most 0. The window plays no part: Wikipedia's lookup, which only answers, reads
    // the same entry the same way.
    for second in [current_alpha, wikipedia] {
        let (searched, _) = run_in_turn(&tree, &[(current_alpha, runs[0]), (second, runs[1])]);
        assert_eq!((searched[1].result, searched[1].calls.len()), (0, 1), "{}", second.name());
    }
    let failing: Vec<Call<NodeId>> = checked_calls(current_alpha, &tree, &runs)
        .into_iter()
        .filter(|&(_, ok)| !ok)
        .map(|(call, _)| call)
        .collect();
    assert_eq!(
        failing,
        [Call { position: root, depth, alpha: 0, beta: 1, result: 0, perspective: Perspective::Mover }]
    );

    let mut text = format!(
        "tree: {tree}, worth {} at depth {depth}\n",
        negamax(&tree, &root, depth, &mut Default::default())
    );
    text.push_str(&report_in_turn(current_alpha, &tree, &runs));
    text.push_str(&report_in_turn(wikipedia, &tree, &runs));
    insta::assert_snapshot!(text);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// The budgeted, iterative witness decides as the whole sets of extension values do: the same
    /// least and greatest value, the same members, the same verdict on every window and result, at
    /// every node and depth of graphs with transpositions.
    #[test]
    fn the_budgeted_witness_decides_as_the_value_sets_do(graph in graphs_with_transpositions(), depth in 0u32..5) {
        let mut witness = witness::Witness::new(&graph, u64::MAX);
        for node in (0..graph.node_count() as u32).map(NodeId) {
            let values = witness::extension_values(&graph, &node, depth);
            let (lowest, highest) = (*values.first().unwrap(), *values.last().unwrap());
            prop_assert_eq!(witness.range(&node, depth).unwrap(), (lowest, highest), "node {}", node.0);
            for value in lowest - 1..=highest + 1 {
                prop_assert_eq!(witness.holds(&node, depth, value).unwrap(), values.contains(&value), "node {} value {}", node.0, value);
                for (alpha, beta) in [(-INFINITY, INFINITY), (value - 1, value), (value, value + 1), (value - 2, value + 2)] {
                    let by_sets = values.iter().any(|&x| is_fail_soft_result(value, x, alpha, beta));
                    prop_assert_eq!(witness.allows(&node, depth, alpha, beta, value).unwrap(), by_sets);
                }
            }
        }
    }
}

/// A budget too small to decide says so, naming itself, instead of deciding wrongly or running on.
#[test]
fn a_witness_out_of_budget_is_undecided() {
    let tree: Tree = "((3 (5 7)) (2 12) (15 (25 0)))".parse().unwrap();
    let mut witness = witness::Witness::new(&tree, 2);
    let undecided = witness.range(&tree.root_id(), 1).unwrap_err();
    assert_eq!(undecided.budget, 2);
    assert_eq!(undecided.to_string(), "undecided within the budget of 2 nodes");
}

/// The witness needs no recursion and memory linear in the graph: a chain of 200,000 positions of
/// distinct evaluations (where the sets of values grow with the chain, their memory with its square)
/// is decided at its root.
#[test]
fn a_long_chain_is_decided_without_recursion() {
    let n = 200_000u32;
    let mut text = String::new();
    for i in 0..n {
        let colour = if i % 2 == 0 { 'W' } else { 'B' };
        text.push_str(&format!("{i} {} {colour} {}\n", i as i64 - i64::from(n / 2), i + 1));
    }
    text.push_str(&format!("{n} 5\n"));
    let chain = gtree::parse(&text).unwrap();
    let mut witness = witness::Witness::new(&chain, u64::MAX);
    let root = chain.root_id();
    // Cut off at position i, the chain gives i's evaluation, i - n/2; extended to its end, 5.
    let half = (n / 2) as i32;
    assert_eq!(witness.range(&root, 0).unwrap(), (-half, half - 1));
    assert!(witness.holds(&root, 0, 5).unwrap() && witness.holds(&root, 0, half - 7).unwrap());
    assert!(!witness.holds(&root, 0, half).unwrap());
    assert!(witness.allows(&root, 0, -5, 5, -999).unwrap());
}
