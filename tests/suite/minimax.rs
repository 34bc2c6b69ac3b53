//! The oracle itself, checked against computations that share none of its code.

use nullwindow::game::{Game, Player};
use nullwindow::reference::{minimax, negamax};
use nullwindow::tree::{NodeId, Tree, TreeBuilder};
use nullwindow::value::Value;
use proptest::prelude::*;
use quickcheck::quickcheck;

use crate::strategies::{QuickTree, graphs_with_transpositions, trees};

/// Minimax by dynamic programming over the arena, children before parents: no recursion, no `Game`.
fn bottom_up_value(tree: &Tree) -> Value {
    let mut value = vec![0; tree.node_count()];
    for node in tree.post_order() {
        let children = tree.children(node).iter().map(|child| value[child.index()]);
        value[node.index()] = match (tree.is_leaf(node), tree.player(node)) {
            (true, _) => tree.evaluation(node),
            (false, Player::Max) => children.max().unwrap(),
            (false, Player::Min) => children.min().unwrap(),
        };
    }
    value[tree.root_id().index()]
}

/// The tree cut off at `depth`: nodes at that depth become leaves valued by their evaluation.
fn truncated(tree: &Tree, depth: u32) -> Tree {
    let mut builder = TreeBuilder::new();
    // Entries: a node and its depth, or a marker to close the node opened for an interior node.
    let mut stack: Vec<Option<(NodeId, u32)>> = vec![Some((tree.root_id(), 0))];
    while let Some(entry) = stack.pop() {
        match entry {
            None => builder.close().unwrap(),
            Some((node, d)) if d == depth || tree.is_leaf(node) => {
                builder.leaf(tree.evaluation(node)).unwrap()
            }
            Some((node, d)) => {
                builder.open().unwrap();
                stack.push(None);
                stack.extend(tree.children(node).iter().rev().map(|&child| Some((child, d + 1))));
            }
        }
    }
    builder.finish().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn minimax_equals_bottom_up_evaluation(tree in trees()) {
        let outcome = minimax::search(&tree, &tree.root_id(), u32::MAX);
        prop_assert_eq!(outcome.value, bottom_up_value(&tree));
        let stats = tree.stats();
        prop_assert_eq!((outcome.counts.leaves, outcome.counts.nodes), (stats.leaves, stats.nodes));
    }

    #[test]
    fn depth_limited_minimax_is_minimax_of_the_truncated_tree(tree in trees(), depth in 0u32..9) {
        let outcome = minimax::search(&tree, &tree.root_id(), depth);
        let cut = truncated(&tree, depth);
        prop_assert_eq!(outcome.value, bottom_up_value(&cut));
        prop_assert_eq!(outcome.counts.leaves, cut.stats().leaves);
    }

    /// The memoized minimax the oracle values graphs with finds plain minimax's value at every node
    /// and depth, on graphs whose positions are reached by several paths and at several depths;
    /// and it values no position twice at one depth.
    #[test]
    fn memoized_minimax_is_minimax_on_graphs(graph in graphs_with_transpositions(), depth in 0u32..9) {
        let mut memo = std::collections::HashMap::new();
        for node in (0..graph.node_count() as u32).map(NodeId) {
            let plain = minimax::search(&graph, &node, depth).value;
            let mut counts = nullwindow::driver::Counts::default();
            let memoized = minimax::memoized(&graph, &node, depth, &mut memo, &mut counts, u64::MAX);
            prop_assert_eq!(memoized, Some(plain), "node {}", node.0);
            // Once per position and depth, over all the calls.
            prop_assert!(counts.nodes <= graph.node_count() as u64 * u64::from(depth + 1));
        }
        let unfolded = graph.unfolded_nodes(depth);
        prop_assert_eq!(unfolded, u128::from(minimax::search(&graph, &graph.root_id(), depth).counts.nodes));
    }

    #[test]
    fn negamax_visits_the_same_nodes_and_finds_the_same_value(tree in trees(), depth in 0u32..9) {
        let (plain, negamax) = (minimax::search(&tree, &tree.root_id(), depth), negamax::search(&tree, &tree.root_id(), depth));
        prop_assert_eq!((negamax.value, negamax.counts, negamax.depth), (plain.value, plain.counts, plain.depth));
    }
}

quickcheck! {
    fn quickcheck_minimax_is_one_of_the_leaf_values(tree: QuickTree) -> bool {
        let tree = tree.0.to_tree();
        let value = minimax::search(&tree, &tree.root_id(), u32::MAX).value;
        tree.post_order().into_iter().any(|node| tree.is_leaf(node) && tree.evaluation(node) == value)
            && value == bottom_up_value(&tree)
    }
}

/// On a uniform tree whose leaves are numbered left to right, MAX always takes its last child and
/// MIN its first, so the value is the number whose base-`width` digits are `width - 1` at MAX levels
/// and 0 at MIN levels.
#[test]
fn uniform_numbered_trees_have_the_closed_form_value() {
    for width in 1u32..=4 {
        for depth in 0u32..=6 {
            let mut builder = TreeBuilder::new();
            let mut next_leaf = 0;
            build_numbered(&mut builder, width, depth, &mut next_leaf);
            let tree = builder.finish().unwrap();
            let expected: u32 = (0..depth)
                .map(|level| if level % 2 == 0 { (width - 1) * width.pow(depth - 1 - level) } else { 0 })
                .sum();
            let outcome = minimax::search(&tree, &tree.root(), u32::MAX);
            assert_eq!(outcome.value, expected as Value, "width {width}, depth {depth}");
            let leaves = u64::from(width.pow(depth));
            let nodes: u64 = (0..=depth).map(|level| u64::from(width.pow(level))).sum();
            assert_eq!((outcome.counts.leaves, outcome.counts.nodes), (leaves, nodes));
        }
    }
}

fn build_numbered(builder: &mut TreeBuilder, width: u32, depth: u32, next_leaf: &mut Value) {
    if depth == 0 {
        builder.leaf(*next_leaf).unwrap();
        *next_leaf += 1;
        return;
    }
    builder.open().unwrap();
    for _ in 0..width {
        build_numbered(builder, width, depth - 1, next_leaf);
    }
    builder.close().unwrap();
}
