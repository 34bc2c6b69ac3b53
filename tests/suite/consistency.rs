//! A search held to its own rules (`nullwindow::oracle::consistency`): every exact driver of the
//! crate keeps them at every node, with a game and from the records alone; a record changed to
//! break one is caught at exactly that record; and a table that stores a fail-low result as exact
//! breaks the stored-kind rule where it stores, with no exact value asked.

use nullwindow::driver::{Perspective, SearchParams};
use nullwindow::oracle::audit::{Bound, Record};
use nullwindow::oracle::consistency::{SelfRule, check, check_records};
use nullwindow::oracle::record::{Recorder, When};
use nullwindow::registry::Driver;
use nullwindow::tree::{NodeId, Tree};
use proptest::prelude::*;

use crate::audit::{buggy_engine, engine_records};
use crate::strategies::{game_graphs, graphs_with_transpositions, trees};

fn records_of(tree: &Tree, driver: Driver, params: &SearchParams) -> Vec<Record<NodeId>> {
    let mut recorder = Recorder::new(tree);
    let _ = driver.run_observed(tree, params, &mut recorder);
    recorder.records(When::Completion)
}

/// The exact alpha-beta searches: every exact driver but the plain reference searches and
/// Stockman's best-first SSS* and DUAL*, whose records are of a list of states, not of windows
/// passed down.
fn alpha_beta_drivers() -> impl Iterator<Item = Driver> {
    Driver::ALL.iter().copied().filter(|driver| {
        let info = driver.info();
        info.exact && info.kind != nullwindow::driver::Kind::Reference && !info.name.starts_with("stockman-")
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Every exact alpha-beta driver of the crate keeps the rules of its own search. Judged with
    /// the tree's moves and from the records' paths alone.
    #[test]
    fn every_driver_keeps_its_own_rules(tree in prop_oneof![trees(), graphs_with_transpositions()], depth in 1u32..=5) {
        let params = SearchParams { depth, ..SearchParams::default() };
        for driver in alpha_beta_drivers() {
            let records = records_of(&tree, driver, &params);
            let with_game = check(&tree, &records, Perspective::Max);
            prop_assert!(with_game.is_none(), "{}: {:?}\n{}", driver.info().name, with_game, tree);
            let alone = check_records(&records, Perspective::Max);
            prop_assert!(alone.is_none(), "{} (records alone): {:?}\n{}", driver.info().name, alone, tree);
        }
    }

    /// Table entries of deeper searches answer shallower ones: the values are no longer the
    /// depth-limited ones, but the rules of the search still hold.
    #[test]
    fn deeper_entries_keep_the_rules_too(graph in game_graphs(), depth in 1u32..=5) {
        let params = SearchParams { depth, deeper_entries: true, iterative_deepening: true, ..SearchParams::default() };
        for driver in [Driver::AlphaBeta, Driver::Pvs, Driver::Mtdf] {
            let records = records_of(&graph, driver, &params);
            let broken = check(&graph, &records, Perspective::Max);
            prop_assert!(broken.is_none(), "{}: {:?}\n{}", driver.info().name, broken, graph);
        }
    }

    /// A node's result raised above every value its children gave it, and above alpha, is caught
    /// at that record by the unbacked rule; lowered below one, by the below-child rule.
    #[test]
    fn a_result_its_children_do_not_give_is_caught_at_its_record(
        tree in trees(),
        pick in any::<prop::sample::Index>(),
        raise in any::<bool>(),
    ) {
        let params = SearchParams { depth: tree.height(), ..SearchParams::default() };
        let mut records = records_of(&tree, Driver::AlphaBeta, &params);
        // Interior records with a window, from MAX's side; the children's best from the node's.
        let interior: Vec<usize> = (0..records.len())
            .filter(|&index| records[index].depth > 0 && records[index].alpha < records[index].beta)
            .filter(|&index| !tree.children(records[index].position).is_empty())
            .collect();
        prop_assume!(!interior.is_empty());
        let index = interior[pick.index(interior.len())];
        let record = &mut records[index];
        let max_node = tree.player(record.position) == nullwindow::game::Player::Max;
        // Far outside every value: above alpha and every child (for the node's side), or below
        // every child.
        let far = if raise == max_node { 1_000_000 } else { -1_000_000 };
        record.result = far;
        record.stored = None;
        let broken = check(&tree, &records, Perspective::Max).unwrap();
        let expected = if raise { SelfRule::Unbacked } else { SelfRule::BelowChild };
        prop_assert_eq!((broken.record, broken.rule), (index, expected));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The example engine that stores a fail-low result as exact breaks the stored-kind rule at
    /// the first record that does so, and the engine without the bug breaks none: found without
    /// any exact value.
    #[test]
    fn a_fail_low_stored_as_exact_breaks_the_stored_kind_rule(graph in game_graphs(), depth in 1u32..=5) {
        let clean = engine_records(&graph, buggy_engine::Bug::None, depth);
        prop_assert_eq!(check(&graph, &clean, Perspective::Max), None);
        let records = engine_records(&graph, buggy_engine::Bug::FailLowStoredExact, depth);
        let stored_wrong = records.iter().position(|record| {
            record.stored == Some(Bound::Exact) && (record.result <= record.alpha || record.result >= record.beta)
        });
        let broken = check(&graph, &records, Perspective::Max);
        match stored_wrong {
            None => prop_assert_eq!(broken, None),
            Some(index) => {
                let broken = broken.unwrap();
                prop_assert!(broken.record <= index, "{:?} after {}", broken, index);
                if broken.record == index {
                    prop_assert_eq!(broken.rule, SelfRule::StoredKind);
                }
            }
        }
    }
}

/// The rules read records of a negamax engine as written, and name what they compare.
#[test]
fn a_broken_rule_is_described_in_the_records_own_terms() {
    let record = |path: &[u32], depth, window, result, stored| Record {
        path: Some(path.to_vec()),
        stored,
        ..Record::new((), depth, window, result)
    };
    // Both children searched, the second failing low from the root's side; the root claims 6,
    // more than either child gave it.
    let records = [
        record(&[0], 1, (-100, 100), -4, Some(Bound::Exact)),
        record(&[1], 1, (-100, -4), 2, Some(Bound::Lower)),
        record(&[], 2, (-100, 100), 6, Some(Bound::Exact)),
    ];
    let broken = check_records(&records, Perspective::Mover).unwrap();
    assert_eq!((broken.record, broken.rule, broken.against.clone()), (2, SelfRule::Unbacked, vec![0, 1]));
    insta::assert_snapshot!(
        broken.describe(&records, nullwindow::oracle::audit::Citation::Number),
        @"record 3 (node [], searched 2 plies deep with the window (-100, 100)) returned 6, more than the best its children gave it, 4 (record 1, record 2): a result above alpha must be backed by a child that reached it (the unbacked rule)"
    );
}

/// Plaat's published MTD(f), translated literally, searches one node twice to the same depth,
/// full-width both times as its records tell, and the two results contradict each other: its
/// table has no depth, and a bound of another depth answered one of them. The re-search rule
/// finds the pseudo-code's bug with no exact value; the corrected translation keeps every rule.
#[test]
fn plaat_mtdf_as_published_breaks_the_re_search_rule() {
    let graph: Tree = "0 0 W 1 12\n1 -1 B 2 3 11\n2 0 W\n3 0 W 4 8\n4 2 B 5\n5 3 W 6 7\n6 3 B\n7 5 B\n\
                       8 3 B 9 10\n9 2 W\n10 -3 W\n11 3 W\n12 5 B 13\n13 5 W 14\n14 -2 B 3\n"
        .parse()
        .unwrap();
    let params = SearchParams { depth: 4, ..SearchParams::default() };
    let corrected = records_of(&graph, Driver::from_name("plaat-mtdf-corrected").unwrap(), &params);
    assert_eq!(check(&graph, &corrected, Perspective::Max), None);
    let records = records_of(&graph, Driver::from_name("plaat-mtdf").unwrap(), &params);
    let broken = check(&graph, &records, Perspective::Max);
    assert_eq!(broken.map(|broken| broken.rule), Some(SelfRule::Research));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// A table cut-off changed to a value far from every bound the search stored for its position
    /// is caught at that record by the cut-off rule, naming the records that stored them.
    #[test]
    fn a_cut_off_its_entries_do_not_give_is_caught_at_its_record(
        graph in graphs_with_transpositions(),
        depth in 2u32..=5,
        pick in any::<prop::sample::Index>(),
    ) {
        let params = SearchParams { depth, ..SearchParams::default() };
        let mut records = records_of(&graph, Driver::Mtdf, &params);
        let cutoffs: Vec<usize> = (0..records.len())
            .filter(|&index| records[index].probe == Some(nullwindow::driver::observe::Probe::Cutoff))
            .collect();
        prop_assume!(!cutoffs.is_empty());
        let index = cutoffs[pick.index(cutoffs.len())];
        records[index].result = 999_999;
        let broken = check(&graph, &records, Perspective::Max).unwrap();
        prop_assert_eq!((broken.record, broken.rule), (index, SelfRule::Cutoff), "{:?}", broken);
        prop_assert!(!broken.against.is_empty());
        prop_assert!(broken.against.iter().all(|&storer| storer < index && records[storer].stored.is_some()));
    }
}
