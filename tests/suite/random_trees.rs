//! The seeded generators: shape rules, ranges, and the same trees and graphs for the same seeds
//! forever.

use nullwindow::game::{Game, Player};
use nullwindow::tree::random::RandomTreeConfig;
use nullwindow::tree::random_graph::RandomGraphConfig;
use nullwindow::tree::{Tree, gtree};
use proptest::prelude::*;

/// Depth of every leaf and width of every interior node.
fn leaf_depths_and_widths(tree: &Tree) -> (Vec<u32>, Vec<usize>) {
    let (mut depths, mut widths) = (Vec::new(), Vec::new());
    let mut stack = vec![(tree.root(), 0u32)];
    while let Some((node, depth)) = stack.pop() {
        if tree.is_leaf(node) {
            depths.push(depth);
        } else {
            widths.push(tree.children(node).len());
            stack.extend(tree.children(node).iter().map(|&child| (child, depth + 1)));
        }
    }
    (depths, widths)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn trees_follow_their_configuration(
        seed in any::<u64>(), width_lo in 1u32..4, width_extra in 0u32..3, depth_lo in 0u32..4,
        depth_extra in 0u32..3, lo in -50i32..50, spread in 0i32..50, leaf_probability in 0.0f64..=1.0,
        uniform in any::<bool>(),
    ) {
        let config = RandomTreeConfig {
            seed, width: width_lo..=width_lo + width_extra, depth: depth_lo..=depth_lo + depth_extra,
            values: lo..=lo + spread, leaf_probability, uniform, interior_values: None,
        };
        let tree = config.generate().unwrap();
        prop_assert_eq!(&tree, &config.generate().unwrap());
        let (depths, widths) = leaf_depths_and_widths(&tree);
        prop_assert!(depths.iter().all(|d| config.depth.contains(d)));
        prop_assert!(widths.iter().all(|&w| config.width.contains(&(w as u32))));
        for node in tree.post_order() {
            if tree.is_leaf(node) {
                prop_assert!(config.values.contains(&tree.evaluation(node)));
            }
        }
        if uniform {
            prop_assert!(depths.windows(2).all(|pair| pair[0] == pair[1]));
            prop_assert!(widths.windows(2).all(|pair| pair[0] == pair[1]));
        }
    }
}

/// The generator's output is part of the crate's contract: published node counts name a seed. If this
/// snapshot changes, every figure made from `nullwindow gen` changes with it.
#[test]
fn seeds_give_the_same_trees_on_every_platform_and_version() {
    let printed: Vec<String> = [0, 7, 42]
        .into_iter()
        .map(|seed| {
            let config = RandomTreeConfig { seed, ..RandomTreeConfig::default() };
            format!("seed {seed}: {}", config.generate().unwrap())
        })
        .collect();
    insta::assert_snapshot!(printed.join("\n"));
}

#[test]
fn leaf_probability_one_and_zero_pin_the_depths() {
    for (p, expected_depth) in [(1.0, 2), (0.0, 5)] {
        let config = RandomTreeConfig { depth: 2..=5, leaf_probability: p, ..RandomTreeConfig::default() };
        let (depths, _) = leaf_depths_and_widths(&config.generate().unwrap());
        assert!(depths.iter().all(|&d| d == expected_depth), "p = {p}: {depths:?}");
    }
}

/// The graph generator's output is a contract too: a seed names a graph in every published figure.
#[test]
fn graph_seeds_give_the_same_graphs_on_every_platform_and_version() {
    let config = RandomGraphConfig { seed: 7, ..RandomGraphConfig::default() };
    insta::assert_snapshot!(gtree::print(&config.generate().unwrap()));
}

/// Whether `graph` has no cycle: Kahn's algorithm removes every node.
fn is_acyclic(graph: &Tree) -> bool {
    let mut parents = vec![0usize; graph.node_count()];
    for node in graph.post_order() {
        for child in graph.children(node) {
            parents[child.index()] += 1;
        }
    }
    let mut ready = vec![graph.root_id()];
    let mut removed = 0;
    while let Some(node) = ready.pop() {
        removed += 1;
        for child in graph.children(node) {
            parents[child.index()] -= 1;
            if parents[child.index()] == 0 {
                ready.push(*child);
            }
        }
    }
    removed == graph.node_count()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn graphs_parse_back_equal_and_are_acyclic_and_reachable(
        seed in any::<u64>(), plies in 0u32..7, nodes_lo in 1u32..4, nodes_extra in 0u32..3,
        children_lo in 1u32..3, children_extra in 0u32..3, skip_probability in 0.0f64..=1.0,
    ) {
        let config = RandomGraphConfig {
            seed, plies, nodes: nodes_lo..=nodes_lo + nodes_extra,
            children: children_lo..=children_lo + children_extra, skip_probability, values: -20..=20,
        };
        let graph = config.generate().unwrap();
        prop_assert_eq!(&graph, &config.generate().unwrap());
        prop_assert_eq!(&gtree::parse(&gtree::print(&graph)).unwrap(), &graph);
        prop_assert_eq!(graph.post_order().len(), graph.node_count(), "every node is reachable");
        prop_assert!(is_acyclic(&graph));
        for node in graph.post_order() {
            prop_assert!(config.values.contains(&graph.evaluation(node)));
            prop_assert!(graph.children(node).len() <= *config.children.end() as usize);
            let mut children = graph.children(node).to_vec();
            children.sort_unstable();
            children.dedup();
            prop_assert_eq!(children.len(), graph.children(node).len(), "distinct children");
            for &child in graph.children(node) {
                prop_assert_ne!(graph.player(child), graph.player(node));
            }
        }
        // Every leaf stands on the last level, reached by plies one or three levels long.
        let last_level = if plies % 2 == 0 { Player::Max } else { Player::Min };
        prop_assert!(graph.stats().height <= plies);
        for node in graph.post_order() {
            prop_assert!(!graph.is_leaf(node) || graph.player(node) == last_level);
        }
    }

    /// Two links from each of two nodes per level into the two nodes below: every level below the
    /// first is shared, whatever the seed.
    #[test]
    fn a_sharing_friendly_configuration_shares(seed in any::<u64>(), plies in 2u32..8) {
        let config = RandomGraphConfig {
            seed, plies, nodes: 2..=2, children: 2..=2, skip_probability: 0.0, ..RandomGraphConfig::default()
        };
        prop_assert!(config.generate().unwrap().has_shared_nodes());
    }
}
