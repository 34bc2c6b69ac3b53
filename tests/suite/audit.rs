//! The audit of another engine's per-node records (`nullwindow::oracle::audit`): every exact driver
//! of the crate audits clean, a record changed to break a rule is caught at exactly that record, and
//! the earliest cause is found below a violation that climbed.

use nullwindow::driver::{Kind, Perspective, SearchParams};
use nullwindow::game::Player;
use nullwindow::oracle::audit::{self, Bound, Options, Order, Record, Rule};
use nullwindow::oracle::record::{Recorder, When};
use nullwindow::registry::Driver;
use nullwindow::tree::{NodeId, Tree};
use nullwindow::value::INFINITY;
use proptest::prelude::*;

use crate::strategies::{game_graphs, graphs_with_transpositions, trees};

/// The example engine with planted bugs (`cargo run --example buggy_engine`), the same file.
#[allow(dead_code)]
#[path = "../../examples/buggy_engine/engine.rs"]
pub mod buggy_engine;

use buggy_engine::{Bug, Flag};

/// The buggy engine's records of a search of `tree` to `depth`, turned to MAX's side.
pub fn engine_records(tree: &Tree, bug: Bug, depth: u32) -> Vec<Record<NodeId>> {
    let mut engine = buggy_engine::Engine::new(tree, bug);
    engine.search(depth);
    engine
        .lines
        .iter()
        .map(|line| {
            let record = Record {
                path: Some(line.path.clone()),
                stored: line.stored.map(|flag| match flag {
                    Flag::Exact => Bound::Exact,
                    Flag::Lower => Bound::Lower,
                    Flag::Upper => Bound::Upper,
                }),
                ..Record::new(line.node, line.depth, (line.alpha, line.beta), line.result)
            };
            for_max(tree.player(line.node), record)
        })
        .collect()
}

/// The first record whose claim is false, found without the audit: each node's value by minimax on
/// its own subtree, the claim read by `is_fail_soft_result` and the stored bound by hand.
fn first_false_claim(tree: &Tree, records: &[Record<NodeId>]) -> Option<usize> {
    records.iter().position(|record| {
        let (subtree, _) = tree.subtree(record.position);
        let params = SearchParams { depth: record.depth, ..SearchParams::default() };
        let value = Driver::Minimax.run(&subtree, &params).value;
        let window_holds =
            nullwindow::theory::is_fail_soft_result(record.result, value, record.alpha, record.beta);
        let stored_holds = match record.stored {
            None => true,
            Some(Bound::Lower) => record.result <= value,
            Some(Bound::Upper) => record.result >= value,
            Some(Bound::Exact) => record.result == value,
        };
        !window_holds || !stored_holds
    })
}

/// Turns a window, result and bound from the side to move at a node of `player` to MAX's side.
fn for_max(player: Player, record: Record<NodeId>) -> Record<NodeId> {
    record.turned(player, Perspective::Mover)
}

/// Every node `driver` searches on `tree`, as the library records them in completion order (values
/// from MAX's side, with their paths): what `nullwindow trace` writes.
fn records_of(tree: &Tree, driver: Driver, params: &SearchParams) -> Vec<Record<NodeId>> {
    let mut recorder = Recorder::new(tree);
    let _ = driver.run_observed(tree, params, &mut recorder);
    recorder.records(When::Completion)
}

/// The drivers whose every call keeps the fail-soft contract: the exact literal and optimized ones.
fn exact_searching_drivers() -> impl Iterator<Item = Driver> {
    Driver::ALL.iter().copied().filter(|driver| driver.info().exact && driver.info().kind != Kind::Reference)
}

/// The depth every record of a whole-tree search is judged at: the tree's height.
fn whole(tree: &Tree) -> SearchParams {
    SearchParams { depth: tree.height(), ..SearchParams::default() }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// The crate's own exact drivers keep the contract at every node they search, on trees and
    /// on graphs with transpositions.
    #[test]
    fn every_exact_driver_audits_clean(tree in prop_oneof![trees(), graphs_with_transpositions()]) {
        let params = whole(&tree);
        for driver in exact_searching_drivers() {
            let records = records_of(&tree, driver, &params);
            let report = audit::audit(&tree, &records, &Options::default());
            prop_assert!(report.first.is_none(), "{}: {:?}\n{}", driver.info().name, report, tree);
            prop_assert_eq!(report.records, records.len());
        }
    }

    /// With deeper table entries the engine need not return the depth-limited value; it still
    /// passes the witness criterion at every node.
    #[test]
    fn the_deeper_entries_engine_audits_clean_under_the_witness_criterion(graph in game_graphs(), depth in 1u32..=5) {
        let params = SearchParams { depth, deeper_entries: true, iterative_deepening: true, ..SearchParams::default() };
        let witness = Options { deeper_entries: true, ..Options::default() };
        for driver in [Driver::AlphaBeta, Driver::Pvs, Driver::Mtdf] {
            let records = records_of(&graph, driver, &params);
            let report = audit::audit(&graph, &records, &witness);
            prop_assert!(report.first.is_none(), "{}: {:?}\n{}", driver.info().name, report, graph);
        }
    }

    /// A clean trace with one result changed so that it breaks its rule is caught at exactly that
    /// record, whichever it is, and that record is its own earliest cause.
    #[test]
    fn one_broken_result_is_caught_at_its_record(tree in trees(), pick in any::<prop::sample::Index>()) {
        let params = whole(&tree);
        let mut records = records_of(&tree, Driver::Mtdf, &params);
        let index = pick.index(records.len());
        let record = &mut records[index];
        let (subtree, _) = tree.subtree(record.position);
        let exact = Driver::Minimax.run(&subtree, &SearchParams { depth: record.depth, ..SearchParams::default() }).value;
        // A fail-low claim below the value, or a fail-high claim above it.
        (record.result, record.stored) = if exact > record.alpha { (record.alpha, Some(Bound::Upper)) } else { (record.beta, Some(Bound::Lower)) };
        let expected_rule = if exact > record.alpha { Rule::FailLow } else { Rule::FailHigh };
        let report = audit::audit(&tree, &records, &Options::default());
        let first = report.first.clone().unwrap();
        prop_assert_eq!((first.record, first.rule, first.exact), (index, expected_rule, exact));
        prop_assert_eq!(report.cause.unwrap().record, index);
        prop_assert_eq!(report.violations, 1);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// The example engine without a bug audits clean, on random game graphs and at every depth.
    #[test]
    fn the_clean_example_engine_audits_clean(graph in game_graphs(), depth in 1u32..=6) {
        let records = engine_records(&graph, Bug::None, depth);
        let report = audit::audit(&graph, &records, &Options::default());
        prop_assert!(report.first.is_none(), "{:?}\n{}", report, nullwindow::tree::gtree::print(&graph));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Each planted bug is caught at its first false claim, found without the audit.
    #[test]
    fn each_planted_bug_is_caught_at_its_first_bad_record(
        tree in prop_oneof![trees(), game_graphs()],
        bug in prop::sample::select(vec![Bug::FailLowStoredExact, Bug::ShallowerEntry, Bug::HorizonSign]),
    ) {
        let records = engine_records(&tree, bug, tree.height());
        let report = audit::audit(&tree, &records, &Options::default());
        prop_assert_eq!(report.first.map(|v| v.record), first_false_claim(&tree, &records), "{:?}", bug);
    }
}

/// Every planted bug shows on some small tree: the property above is not satisfied vacuously.
#[test]
fn every_planted_bug_shows_on_a_small_tree() {
    for (name, bug) in Bug::ALL.into_iter().skip(1) {
        let caught = (0..200).any(|seed| {
            let config =
                nullwindow::tree::random::RandomTreeConfig { seed, values: -9..=9, ..Default::default() };
            let tree = config.generate().unwrap();
            audit::audit(&tree, &engine_records(&tree, bug, tree.height()), &Options::default())
                .first
                .is_some()
        });
        assert!(caught, "{name} never shows");
    }
}

/// A wrong leaf value climbs to the root: in completion order the root's record is the first
/// violation only if the leaf came later, so break a leaf and see the cause named below the first
/// violation, in both orders.
#[test]
fn the_earliest_cause_lies_below_the_first_violation() {
    let tree: Tree = "((3 17) (2 12) (15 (25 0)))".parse().unwrap();
    let node = |path: &[u32]| tree.node_at(path).unwrap();
    let record = |path: &[u32], depth, result| Record {
        path: Some(path.to_vec()),
        ..Record::new(node(path), depth, (-INFINITY, INFINITY), result)
    };
    // A minimax engine that read the leaf 25 as 5: node [2,1] then returns 5, node [2] 5, the root 5.
    let completion = vec![
        record(&[0, 0], 1, 3),
        record(&[0, 1], 1, 17),
        record(&[0], 2, 3),
        record(&[1, 0], 1, 2),
        record(&[1, 1], 1, 12),
        record(&[1], 2, 2),
        record(&[2, 0], 1, 15),
        record(&[2, 1, 0], 0, 5),
        record(&[2, 1, 1], 0, 0),
        record(&[2, 1], 1, 5),
        record(&[2], 2, 5),
        record(&[], 3, 5),
    ];
    let report = audit::audit(&tree, &completion, &Options::default());
    assert_eq!(report.order, Order::Completion);
    assert_eq!((report.first.clone().unwrap().record, report.cause.clone().unwrap().record), (7, 7));
    assert_eq!(report.violations, 4);
    // The same records written when entered: the root comes first, the leaf is the cause.
    let order = [11, 2, 0, 1, 5, 3, 4, 10, 6, 9, 7, 8];
    let entry: Vec<Record<NodeId>> = order.iter().map(|&i| completion[i].clone()).collect();
    let report = audit::audit(&tree, &entry, &Options::default());
    assert_eq!(report.order, Order::Entry);
    let (first, cause) = (report.first.unwrap(), report.cause.unwrap());
    assert_eq!((first.record, first.exact), (0, 15), "the root, first in the file");
    assert_eq!((cause.record, cause.rule, cause.exact), (10, Rule::Inside, 25), "the leaf [2,1,0]");
    // Without paths the audit asks the tree what lies below what, and finds the same cause.
    let unnamed: Vec<Record<NodeId>> = entry.into_iter().map(|r| Record { path: None, ..r }).collect();
    assert_eq!(audit::audit(&tree, &unnamed, &Options::default()).cause.unwrap().record, 10);
}

/// A stored bound is a claim of its own: an exact entry of a result that failed low is caught where
/// it is stored, though the window's rule holds there.
#[test]
fn a_fail_low_result_stored_as_exact_is_caught_where_it_is_stored() {
    // The MIN node (2 1) searched with the window (3, +inf) stops at the 2: its value, 1, is at most 2.
    let tree: Tree = "((3 17) (2 1))".parse().unwrap();
    let right = tree.node_at(&[1]).unwrap();
    let stored = |bound| {
        [Record { path: Some(vec![1]), stored: Some(bound), ..Record::new(right, 1, (3, INFINITY), 2) }]
    };
    assert!(audit::audit(&tree, &stored(Bound::Upper), &Options::default()).first.is_none());
    for wrong in [Bound::Exact, Bound::Lower] {
        let violation = audit::audit(&tree, &stored(wrong), &Options::default()).first.unwrap();
        assert_eq!((violation.rule, violation.exact), (Rule::Stored, 1), "{wrong:?}");
    }
}

/// The trace the README and the book audit is what the example engine writes today.
#[test]
fn the_committed_trace_of_the_buggy_engine_is_current() {
    let source = std::fs::read_to_string("testdata/trees/fail-low-stored-exact.tree").unwrap();
    let tree: Tree = source.parse().unwrap();
    let mut engine = buggy_engine::Engine::new(&tree, Bug::FailLowStoredExact);
    engine.search(tree.height());
    let written: String = engine.lines.iter().map(|line| line.to_json() + "\n").collect();
    let committed = std::fs::read_to_string("testdata/audit/fail-low-stored-exact.jsonl").unwrap();
    assert!(
        written == committed,
        "regenerate it: cargo run --example buggy_engine -- --bug fail-low-stored-exact \
        testdata/trees/fail-low-stored-exact.tree > testdata/audit/fail-low-stored-exact.jsonl"
    );
}

/// `shrink` with the audit as its test takes each planted bug's failing tree down to a handful of
/// nodes, the smallest tree that can show the bug:
/// * a sign error at the horizon shows at one MIN leaf under a MAX root: 2 nodes;
/// * a shallower entry shows on a chain of 3: iteration 1 stores the root's horizon value 0, and
///   iteration 2 takes it for the depth-2 value;
/// * a fail-low result stored as exact needs 7: the storing node fails low only below a window
///   narrowed two plies up (root, a first child that sets alpha, the MIN node between), and its
///   result overstates its value only through a child cut off by a first grandchild better than
///   the second: root, first child, MIN node, storing node, cut child, two leaves.
#[test]
fn shrink_takes_each_planted_bug_to_its_smallest_tree() {
    let fails = |bug: Bug| {
        move |tree: &Tree| {
            audit::audit(tree, &engine_records(tree, bug, tree.height()), &Options::default()).first.is_some()
        }
    };
    for (name, bug, most) in [
        ("horizon-sign", Bug::HorizonSign, 2),
        ("shallower-entry", Bug::ShallowerEntry, 3),
        ("fail-low-stored-exact", Bug::FailLowStoredExact, 7),
    ] {
        let start = (0..500)
            .map(|seed| {
                let config = nullwindow::tree::random::RandomTreeConfig {
                    seed,
                    width: 2..=3,
                    depth: 3..=4,
                    values: -9..=9,
                    ..Default::default()
                };
                config.generate().unwrap()
            })
            .find(|tree| fails(bug)(tree))
            .unwrap_or_else(|| panic!("{name}: no failing tree among the seeds"));
        let small = nullwindow::tree::shrink::shrink(&start, fails(bug));
        assert!(fails(bug)(&small), "{name}: the shrunk tree {small} no longer fails");
        let nodes = small.stats().nodes;
        assert!(nodes <= most, "{name}: {small} has {nodes} nodes, more than {most}");
    }
}

/// Plaat's `AlphaBetaWithMemory` narrows its window to an exact table entry and searches on with
/// `alpha == beta`; such a call still makes a claim (at most alpha, or at least beta), and the
/// corrected listing's claims hold: none of its empty windows is flagged. Found by
/// `every_exact_driver_audits_clean`.
#[test]
fn a_call_with_alpha_equal_to_beta_is_judged_by_the_same_rules() {
    // nullwindow gen --graph --seed 29 --levels 4 --level-nodes 2..4 --width 1..3 --values -9..9
    let graph = "0 -4 W 1 11\n1 9 B 2 10\n2 0 W 3 6 9\n3 -6 B 4 5\n4 -1 W\n5 1 W\n6 7 B 7 8\n7 -2 W\n\
                 8 9 W\n9 -1 B 5\n10 4 W 3\n11 6 B 10 7\n";
    let tree = nullwindow::tree::gtree::parse(graph).unwrap();
    let records = records_of(&tree, Driver::PlaatAlphaBetaWithMemoryCorrected, &whole(&tree));
    assert!(records.iter().any(|record| record.alpha == record.beta), "no call with alpha == beta");
    let report = audit::audit(&tree, &records, &Options::default());
    assert!(report.first.is_none(), "{report:?}");
}

/// Runs `nullwindow audit` on the tree `tree` (its text, written to a file of its own) with
/// `records` on standard input and `options` after them: the exit code, standard output and
/// standard error.
#[cfg(feature = "cli")]
fn audit_command(tree: &str, records: &str, options: &[&str]) -> (Option<i32>, String, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    use std::sync::atomic::{AtomicUsize, Ordering};

    static FILES: AtomicUsize = AtomicUsize::new(0);
    let file = std::env::temp_dir().join(format!(
        "nullwindow-audit-{}-{}.tree",
        std::process::id(),
        FILES.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&file, tree).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_nullwindow"))
        .args(["audit", file.to_str().unwrap(), "--trace", "-"])
        .args(options)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(records.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    std::fs::remove_file(&file).unwrap();
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap();
    (output.status.code(), text(output.stdout), text(output.stderr))
}

/// Records read from JSON lines and found in `tree`, values as the lines give them.
#[cfg(feature = "serde")]
fn read(tree: &Tree, lines: &str) -> Vec<Record<NodeId>> {
    use nullwindow::oracle::record::{TreeNames, locate, read_jsonl};
    locate(tree, &TreeNames::new(None), read_jsonl(lines).unwrap()).unwrap()
}

/// A negamax engine's record of a MIN node, values from the side to move there, that returned
/// less than its own alpha failed low in its own terms: the violation says fail-low and quotes the
/// node's value from MIN's side, though the same numbers turned to MAX's side fail high.
#[test]
#[cfg(feature = "serde")]
fn a_violation_is_named_in_the_records_own_terms() {
    let tree: Tree = "((1 2) (3 4))".parse().unwrap();
    let line = r#"{"path":[0],"depth":1,"alpha":-10,"beta":-9,"result":-20}"#;
    let records = read(&tree, line);
    let negamax = Options { perspective: Perspective::Mover, ..Options::default() };
    let first = audit::audit(&tree, &records, &negamax).first.unwrap();
    assert_eq!((first.rule, first.exact), (Rule::FailLow, -1));
    // The same record turned to MAX's side, (9, 10) and 20, fails high there, by the value 1.
    let for_max: Vec<Record<NodeId>> =
        records.into_iter().map(|record| record.turned(Player::Min, Perspective::Mover)).collect();
    assert_eq!((for_max[0].alpha, for_max[0].beta, for_max[0].result), (9, 10, 20));
    let first = audit::audit(&tree, &for_max, &Options::default()).first.unwrap();
    assert_eq!((first.rule, first.exact), (Rule::FailHigh, 1));

    #[cfg(feature = "cli")]
    {
        let (code, text, _) = audit_command("((1 2) (3 4))", line, &["--values", "side-to-move"]);
        assert_eq!(code, Some(1), "{text}");
        assert_eq!(
            text.lines().next().unwrap(),
            "<stdin>:1: node [0], searched 1 ply deep with the window (-10, -9), returned -20, but its \
             value is -1: fail-low: a result at or below alpha must be an upper bound on the value"
        );
        let (_, json, _) = audit_command("((1 2) (3 4))", line, &["--values", "side-to-move", "--json"]);
        let json: serde_json::Value = serde_json::from_str(&json).unwrap();
        let first = &json["first"];
        assert_eq!(
            (&first["rule"], &first["alpha"], &first["beta"], &first["result"], &first["exact"]),
            (&"fail-low".into(), &(-10).into(), &(-9).into(), &(-20).into(), &(-1).into())
        );
    }
}

/// A window whose edges crossed is the caller's mistake: a record searched with one, whose result
/// holds as neither `(alpha, +inf)` nor `(-inf, beta)` reads it, breaks the empty-window rule and
/// names its caller, the parent's record in the same search, in either order; a record whose
/// result holds by one reading (a fail-low-first reading would have flagged the second) is left
/// alone.
#[test]
#[cfg(feature = "serde")]
fn an_empty_window_is_blamed_on_the_caller_in_the_trace() {
    let tree: Tree = "((1 2) (3 4))".parse().unwrap();
    // The root passes its MIN node [1] the window (4, 2); [1] returns 1, but its value is 3.
    let lines = [
        r#"{"path":[0,0],"depth":0,"alpha":-100,"beta":100,"result":1}"#,
        r#"{"path":[0,1],"depth":0,"alpha":-100,"beta":1,"result":2}"#,
        r#"{"path":[0],"depth":1,"alpha":-100,"beta":100,"result":1}"#,
        r#"{"path":[1,0],"depth":0,"alpha":4,"beta":2,"result":3}"#,
        r#"{"path":[1,1],"depth":0,"alpha":4,"beta":2,"result":4}"#,
        r#"{"path":[1],"depth":1,"alpha":4,"beta":2,"result":1}"#,
        r#"{"path":[],"depth":2,"alpha":-100,"beta":100,"result":1}"#,
    ];
    let completion = read(&tree, &lines.join("\n"));
    let report = audit::audit(&tree, &completion, &Options::default());
    assert_eq!(report.order, Order::Completion);
    let first = report.first.unwrap();
    assert_eq!((first.record, first.rule, first.exact, first.caller), (5, Rule::EmptyWindow, 3, Some(6)));
    assert_eq!(report.violations, 2, "the MIN node and the root it misled");
    // Written on entry, the caller comes before the node, its other children between.
    let entry: Vec<Record<NodeId>> = [6, 2, 0, 1, 5, 3, 4].iter().map(|&i| completion[i].clone()).collect();
    let report = audit::audit(&tree, &entry, &Options::default());
    assert_eq!(report.order, Order::Entry);
    let cause = report.cause.unwrap();
    assert_eq!((cause.record, cause.rule, cause.caller), (4, Rule::EmptyWindow, Some(0)));

    // The leaf [1,1], worth 4, searched with the empty window (4, 2): 3 holds as (-inf, 2) reads
    // it (at least 3), though not as (4, +inf) does (at most 3).
    let truthful = read(&tree, r#"{"path":[1,1],"depth":0,"alpha":4,"beta":2,"result":3}"#);
    assert!(audit::audit(&tree, &truthful, &Options::default()).first.is_none());

    #[cfg(feature = "cli")]
    {
        let (code, text, _) = audit_command("((1 2) (3 4))", &lines.join("\n"), &[]);
        assert_eq!(code, Some(1), "{text}");
        assert_eq!(
            text.lines().next().unwrap(),
            "<stdin>:6: node [1], searched 1 ply deep with the window (4, 2), returned 1, but its value \
             is 3: empty-window: the caller searched this node with an empty window (alpha >= beta); the \
             caller is <stdin>:7: node [], searched 2 plies deep with the window (-100, 100), returned 1"
        );
    }
}

/// Without its caller's record, an empty window is charged to the record itself, saying so.
#[test]
#[cfg(feature = "serde")]
fn an_empty_window_without_its_caller_says_the_caller_is_missing() {
    let tree: Tree = "((1 2) (3 4))".parse().unwrap();
    let line = r#"{"path":[1],"depth":1,"alpha":4,"beta":2,"result":1}"#;
    let first = audit::audit(&tree, &read(&tree, line), &Options::default()).first.unwrap();
    assert_eq!((first.record, first.rule, first.caller), (0, Rule::EmptyWindow, None));

    #[cfg(feature = "cli")]
    {
        let (code, text, _) = audit_command("((1 2) (3 4))", line, &["--json"]);
        assert_eq!(code, Some(1), "{text}");
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!((&json["first"]["rule"], &json["first"]["caller"]), (&"empty-window".into(), &().into()));
        let (_, text, _) = audit_command("((1 2) (3 4))", line, &[]);
        assert!(
            text.lines().next().unwrap().ends_with(
                "empty-window: the caller searched this node with an empty window (alpha >= beta); the caller \
                 is not in the trace"
            ),
            "{text}"
        );
    }
}

/// A result a table entry gave is traced to the earlier record of the same node that stored the
/// entry (the one that stored that result, not merely the latest, and named by its number as well
/// as by its path).
#[test]
#[cfg(feature = "serde")]
fn a_result_from_a_table_entry_names_the_record_that_stored_it() {
    // The MIN node (2 1) is node 4, at [1]; its value is 1.
    let tree = "((3 17) (2 1))";
    let lines = [
        // Searched with (3, +inf), it stops at the 2: at most 2, rightly stored as an upper bound.
        r#"{"node":4,"depth":1,"alpha":3,"beta":1000000000,"result":2,"stored":"upper"}"#,
        r#"{"path":[1],"depth":1,"alpha":0,"beta":1,"result":1,"stored":"lower"}"#,
        // The engine takes the upper bound for the value.
        r#"{"path":[1],"depth":1,"alpha":-1000000000,"beta":1000000000,"result":2,"probe":"cutoff"}"#,
    ]
    .join("\n");
    let parsed: Tree = tree.parse().unwrap();
    let first = audit::audit(&parsed, &read(&parsed, &lines), &Options::default()).first.unwrap();
    assert_eq!((first.record, first.rule, first.exact, first.stored_by), (2, Rule::Inside, 1, Some(0)));

    #[cfg(feature = "cli")]
    {
        let (code, text, _) = audit_command(tree, &lines, &[]);
        assert_eq!(code, Some(1), "{text}");
        assert_eq!(
            text.lines().next().unwrap(),
            "<stdin>:3: node [1], searched 1 ply deep with the window (-1000000000, 1000000000), returned 2 \
             from a table entry, but its value is 1: inside: a result inside the window must be the value; \
             the table entry it returned was stored by <stdin>:1: node 4, searched 1 ply deep with the \
             window (3, 1000000000), returned 2 and stored it as an upper bound"
        );
        let (_, json, _) = audit_command(tree, &lines, &["--json"]);
        let json: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(
            (&json["first"]["probe"], &json["first"]["stored_by"]["line"]),
            (&"cutoff".into(), &1.into())
        );
        // A probe the reader does not know is refused, as a bad stored bound is.
        let bad = r#"{"path":[1],"depth":1,"alpha":0,"beta":1,"result":1,"probe":"exact"}"#;
        let (code, _, error) = audit_command(tree, bad, &[]);
        assert_eq!(
            (code, error.as_str()),
            (Some(2), "error: <stdin>:1: 'probe' is 'exact', not none, bounds, miss, hit, cutoff or etc\n")
        );
    }
}

/// Every node of a search may be honest and the driver's answer wrong: `root_value` judges the
/// answer in the same audit, at the depth of the deepest root record or the one given.
#[test]
fn a_wrong_root_value_is_caught_though_every_node_is_honest() {
    let tree: Tree = "((3 17) (2 12) (15 (25 0)))".parse().unwrap();
    let records = records_of(&tree, Driver::Mtdf, &whole(&tree));
    let claim = |value, depth, deeper_entries| {
        let options =
            Options { root_value: Some(value), root_depth: depth, deeper_entries, ..Options::default() };
        audit::audit(&tree, &records, &options)
    };
    let right = claim(15, None, false);
    assert!(right.holds() && right.first.is_none(), "{right:?}");
    assert_eq!(right.root_value.map(|root| (root.depth, root.exact, root.rule)), Some((3, 15, None)));
    // An MTD(f) loop that moved the wrong bound could stop at 12.
    let wrong = claim(12, None, false);
    assert!(wrong.first.is_none() && !wrong.holds());
    assert_eq!(wrong.root_value.map(|root| (root.exact, root.rule)), Some((15, Some(Rule::RootValue))));
    // Two plies deep the node (25 0) is a leaf scored 0, and the root is worth 3.
    assert_eq!(claim(15, Some(2), false).root_value.map(|root| root.exact), Some(3));
    assert!(claim(3, Some(2), false).holds());
    // By the witness criterion, 15 is the value of the extension that searches the whole tree.
    assert!(claim(15, Some(2), true).holds());
    assert!(!claim(12, Some(2), true).holds());

    #[cfg(feature = "cli")]
    {
        let trace: String =
            records.iter().map(|record| nullwindow::oracle::record::write_jsonl(record) + "\n").collect();
        let tree = "((3 17) (2 12) (15 (25 0)))";
        let (code, text, _) = audit_command(tree, &trace, &["--root-value", "15"]);
        assert_eq!(code, Some(0), "{text}");
        let all = format!("all {} records hold", records.len());
        assert!(text.starts_with(&format!("ok: {all}, and so does the root value 15 (")), "{text}");
        let (code, text, _) = audit_command(tree, &trace, &["--root-value", "12"]);
        assert_eq!(code, Some(1), "{text}");
        assert_eq!(
            text,
            format!(
                "the root value 12: the root, searched 3 plies deep, is worth 15: root-value: the driver's root \
                 value must be the root's exact value\n{all}, but the root value does not (values from MAX's \
                 side; records in completion order, children first)\n"
            )
        );
        let (code, json, _) = audit_command(tree, &trace, &["--root-value", "15", "--depth", "2", "--json"]);
        assert_eq!(code, Some(1), "{json}");
        let json: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(json["ok"], false);
        assert_eq!(
            json["root_value"],
            serde_json::json!({"claimed": 15, "depth": 2, "exact": 3, "extensions": null, "rule": "root-value"})
        );
        // Without a record of the root, the depth must be given.
        let (code, _, error) = audit_command(tree, trace.lines().next().unwrap(), &["--root-value", "15"]);
        assert_eq!(code, Some(2));
        assert_eq!(
            error,
            "error: <stdin>: no record is of the root (path []) to take the depth of --root-value from: give \
             --depth\n"
        );
    }
}
