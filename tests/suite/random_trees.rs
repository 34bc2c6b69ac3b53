//! The seeded generator: shape rules, ranges, and the same trees for the same seeds forever.

use nullwindow::game::Game;
use nullwindow::tree::Tree;
use nullwindow::tree::random::RandomTreeConfig;
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
            values: lo..=lo + spread, leaf_probability, uniform,
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
