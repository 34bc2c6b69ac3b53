//! The theory as executable properties: what the literature proves each algorithm searches.
//!
//! * SSS* = MT-SSS*: on fixed-depth trees, with a table that keeps every node, MTD(+INFINITY) evaluates
//!   the same leaves in the same order as Stockman's SSS* with its OPEN list (ties broken leftmost);
//!   the same for DUAL* and MTD(-INFINITY) (Plaat, Schaeffer, Pijls and de Bruin 1996; de Bruin, Pijls
//!   and Plaat 1994).
//! * The minimal tree: on perfectly ordered uniform trees, alpha-beta evaluates exactly Knuth and
//!   Moore's critical leaves, `w^⌈d/2⌉ + w^⌊d/2⌋ − 1` of them, and visits exactly their PV, CUT and ALL
//!   nodes, level by level as many as the recurrences give; on any uniform tree, no exact driver
//!   evaluates fewer leaves than that.
//! * Dominance, on the same move order: SSS* (Stockman 1979), MTD-bi = C* with enough memory (Coplan),
//!   and NegaScout/PVS (Reinefeld) never evaluate a leaf that fail-soft alpha-beta prunes.

use std::collections::{HashMap, HashSet};

use nullwindow::compare::minimal_tree_leaves;
use nullwindow::driver::SearchParams;
use nullwindow::game::Game;
use nullwindow::registry::Driver;
use nullwindow::theory::node_types::{self, LevelCounts, NodeType};
use nullwindow::tree::synthetic::{SyntheticConfig, SyntheticTree};
use nullwindow::tree::{NodeId, Tree, TreeBuilder};
use nullwindow::value::Value;
use proptest::prelude::*;

use crate::strategies::Shape;

/// Uniform trees (every leaf at the same depth, the condition of the SSS* theorems): width 2 to 4,
/// depth 1 to 5, values from `values`.
fn uniform_trees(values: impl Strategy<Value = Value> + Clone + 'static) -> impl Strategy<Value = Tree> {
    (2usize..=4, 1u32..=5).prop_flat_map(move |(width, depth)| {
        let leaves = width.pow(depth);
        prop::collection::vec(values.clone(), leaves).prop_map(move |values| {
            fn build(width: usize, depth: u32, values: &mut impl Iterator<Item = Value>) -> Shape {
                if depth == 0 {
                    Shape::Leaf(values.next().unwrap())
                } else {
                    Shape::Node((0..width).map(|_| build(width, depth - 1, values)).collect())
                }
            }
            build(width, depth, &mut values.into_iter()).to_tree()
        })
    })
}

fn values() -> impl Strategy<Value = Value> + Clone {
    prop_oneof![0..=20, -1000..=1000]
}

/// The leaves a driver evaluates, each at its first evaluation, in order.
fn first_evaluations(literal: Driver, tree: &Tree) -> Vec<NodeId> {
    let (_, evaluated) = literal.run_recording_leaves(tree, &SearchParams::default());
    let mut seen = HashSet::new();
    evaluated.into_iter().filter(|node| seen.insert(*node)).collect()
}

fn leaf_set(literal: Driver, tree: &Tree) -> HashSet<NodeId> {
    first_evaluations(literal, tree).into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn mt_sss_evaluates_the_leaves_of_stockmans_sss_in_the_same_order(tree in uniform_trees(values())) {
        prop_assert_eq!(first_evaluations(Driver::MtSss, &tree), first_evaluations(Driver::StockmanSss, &tree), "{}", tree);
    }

    #[test]
    fn mt_dual_evaluates_the_leaves_of_dual_in_the_same_order(tree in uniform_trees(values())) {
        prop_assert_eq!(first_evaluations(Driver::MtDual, &tree), first_evaluations(Driver::StockmanDual, &tree), "{}", tree);
    }

    #[test]
    fn sss_mtd_bi_and_pvs_never_evaluate_a_leaf_alpha_beta_prunes(tree in uniform_trees(values())) {
        // Fail-soft alpha-beta without memory, left to right: Kornilov's listing.
        let alpha_beta = leaf_set(Driver::KornilovAlphaBeta, &tree);
        for literal in [Driver::StockmanSss, Driver::MtSss, Driver::MtBiCorrected, Driver::VerhelstPrincipalVariation] {
            let extra: Vec<NodeId> = leaf_set(literal, &tree).difference(&alpha_beta).copied().collect();
            prop_assert!(extra.is_empty(), "{} evaluates {:?}, which alpha-beta prunes, on {}", literal.info().name, extra, tree);
        }
    }
}

/// An explicit copy of a uniform synthetic tree (paths to its nodes: [`node_paths`]).
fn materialize(config: SyntheticConfig) -> Tree {
    let tree = SyntheticTree::new(config).unwrap();
    let mut builder = TreeBuilder::new();
    fn walk(tree: &SyntheticTree, position: &<SyntheticTree as Game>::Position, builder: &mut TreeBuilder) {
        if tree.is_terminal(position) {
            builder.leaf(tree.evaluate(position)).unwrap();
            return;
        }
        builder.open().unwrap();
        for mv in tree.moves(position) {
            walk(tree, &tree.play(position, mv), builder);
        }
        builder.close().unwrap();
    }
    walk(&tree, &tree.root(), &mut builder);
    builder.finish().unwrap()
}

/// Knuth and Moore's critical positions: a leaf `a_1 … a_d` (child indices, 0 = first) is critical iff
/// `a_i` is the first child at every even `i` (1-based) or at every odd `i`.
fn is_critical(path: &[u32]) -> bool {
    let first_at =
        |parity: usize| path.iter().enumerate().filter(|(i, _)| (i + 1) % 2 == parity).all(|(_, &a)| a == 0);
    first_at(0) || first_at(1)
}

#[test]
fn on_perfectly_ordered_trees_alpha_beta_evaluates_exactly_the_critical_leaves() {
    for width in 2u32..=4 {
        for depth in 1u32..=5 {
            let config =
                SyntheticConfig { seed: 11, width, depth, ordering: 1.0, ..SyntheticConfig::default() };
            let tree = materialize(config);
            let evaluated = leaf_set(Driver::KornilovAlphaBeta, &tree);
            let mut critical = HashSet::new();
            for (&node, path) in node_paths(&tree).iter().filter(|(node, _)| tree.is_leaf(**node)) {
                // Knuth and Moore's parity rule and the PV/CUT/ALL recursion name the same leaves.
                assert_eq!(is_critical(path), node_types::classify(path).is_some(), "{path:?}");
                if is_critical(path) {
                    critical.insert(node);
                }
            }
            assert_eq!(evaluated, critical, "width {width}, depth {depth}");
            assert_eq!(critical.len() as u128, minimal_tree_leaves(width, depth));
        }
    }
}

/// Every node's path of child indices from the root (a node reached twice keeps its first path;
/// these trees have no shared nodes).
fn node_paths(tree: &Tree) -> HashMap<NodeId, Vec<u32>> {
    let mut paths = HashMap::new();
    let mut stack = vec![(tree.root_id(), Vec::new())];
    while let Some((node, path)) = stack.pop() {
        for (index, &child) in tree.children(node).iter().enumerate() {
            let mut child_path = path.clone();
            child_path.push(index as u32);
            stack.push((child, child_path));
        }
        paths.entry(node).or_insert(path);
    }
    paths
}

#[test]
fn on_perfectly_ordered_trees_alpha_beta_visits_exactly_the_pv_cut_and_all_nodes() {
    for width in 2u32..=4 {
        for depth in 1u32..=5 {
            let config =
                SyntheticConfig { seed: 5, width, depth, ordering: 1.0, ..SyntheticConfig::default() };
            let tree = materialize(config);
            let paths = node_paths(&tree);
            let mut visited = HashSet::new();
            let _ = Driver::KornilovAlphaBeta.run_observed(
                &tree,
                &SearchParams::default(),
                &mut nullwindow::driver::observe::Calls(|call: &nullwindow::driver::Call<_>| {
                    visited.insert(call.position);
                }),
            );
            let mut counted = vec![LevelCounts::default(); depth as usize + 1];
            for node in &visited {
                let path = &paths[node];
                let level = &mut counted[path.len()];
                match node_types::classify(path) {
                    Some(NodeType::Pv) => level.pv += 1,
                    Some(NodeType::Cut) => level.cut += 1,
                    Some(NodeType::All) => level.all += 1,
                    None => panic!("w{width} d{depth}: alpha-beta visits {path:?}, which is not critical"),
                }
            }
            assert_eq!(counted, node_types::minimal_tree(width, depth), "w{width} d{depth}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Knuth and Moore's lower bound: a proof of the value needs a MAX strategy (`w^⌊d/2⌋` leaves) and
    /// a MIN strategy (`w^⌈d/2⌉` leaves), which share one leaf; no exact driver evaluates fewer
    /// distinct leaves, whatever the order of the moves.
    #[test]
    fn no_exact_driver_evaluates_fewer_leaves_than_the_minimal_tree(tree in uniform_trees(values())) {
        let (width, depth) = (tree.max_width(), tree.height());
        for driver in Driver::select("all").unwrap() {
            let leaves = driver.run(&tree, &SearchParams::default()).counts.leaves;
            prop_assert!(
                u128::from(leaves) >= minimal_tree_leaves(width, depth),
                "{} evaluates {} leaves on {}", driver.info().name, leaves, tree
            );
        }
    }
}
