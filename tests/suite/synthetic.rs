//! Implicit synthetic trees: the top-down model's known value is the minimax value, every exact driver
//! is exact on them (with transpositions too), perfect ordering gives the minimal tree, and a tree of
//! more than 10⁹ nodes is searched without building it.

use nullwindow::compare::minimal_tree_leaves;
use nullwindow::driver::SearchParams;
use nullwindow::game::Game;
use nullwindow::reference::minimax;
use nullwindow::registry::Driver;
use nullwindow::search::{Algorithm, Engine};
use nullwindow::tree::synthetic::{Model, SyntheticConfig, SyntheticError, SyntheticTree};
use proptest::prelude::*;

fn configs() -> impl Strategy<Value = SyntheticConfig> {
    (
        any::<u64>(),
        1u32..=4,
        0u32..=5,
        prop_oneof![Just(Model::Independent), Just(Model::Incremental)],
        0.0f64..=1.0,
        any::<bool>(),
        prop_oneof![Just(0), 1..=3, 1..=1000],
    )
        .prop_map(|(seed, width, depth, model, ordering, transpositions, spread)| SyntheticConfig {
            seed,
            width,
            depth,
            model,
            ordering,
            transpositions,
            spread,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn the_top_down_model_knows_its_minimax_value(config in configs()) {
        let tree = SyntheticTree::new(config).unwrap();
        let exact = minimax::search(&tree, &tree.root(), u32::MAX).value;
        if let Some(known) = tree.known_value() {
            prop_assert_eq!(known, exact);
        }
    }

    #[test]
    fn every_exact_driver_is_exact_on_synthetic_trees(config in configs(), depth in prop_oneof![Just(u32::MAX), 0u32..6], tt_entries in prop::sample::select(vec![1usize, 7, 1 << 16]), iterative_deepening in any::<bool>()) {
        let tree = SyntheticTree::new(config).unwrap();
        let exact = minimax::search(&tree, &tree.root(), depth).value;
        let params = SearchParams { depth, tt_entries, iterative_deepening, ..SearchParams::default() };
        for driver in Driver::select("all").unwrap() {
            prop_assert_eq!(driver.run(&tree, &params).value, exact, "{} on {:?}", driver.info().name, config);
        }
    }

    #[test]
    fn transpositions_reach_one_position_by_two_orders(seed in any::<u64>(), width in 2u32..=5) {
        let tree = SyntheticTree::new(SyntheticConfig { seed, width, depth: 4, transpositions: true, ..SyntheticConfig::default() }).unwrap();
        let root = tree.root();
        let mut moves = tree.moves(&root);
        let (a, b) = (moves.next().unwrap(), moves.next().unwrap());
        let reply = |position| tree.moves(&position).min().unwrap();
        // MAX plays a, MIN replies, MAX plays b; against MAX plays b, MIN replies alike, MAX plays a.
        let first = tree.play(&root, a);
        let first = tree.play(&first, reply(first));
        let second = tree.play(&root, b);
        let second = tree.play(&second, reply(second));
        let first = tree.play(&first, b);
        let second = tree.play(&second, a);
        prop_assert_eq!(tree.key(&first), tree.key(&second));
        prop_assert_eq!(tree.evaluate(&first), tree.evaluate(&second));
    }
}

#[test]
fn perfectly_ordered_top_down_trees_give_the_knuth_moore_minimal_tree() {
    let config = crate::strategies::game_order_only();
    for width in 2u32..=6 {
        for depth in 1u32..=6 {
            let tree = SyntheticTree::new(SyntheticConfig {
                seed: 3,
                width,
                depth,
                ordering: 1.0,
                ..Default::default()
            })
            .unwrap();
            let result = Engine::new(&config).search(&tree, Algorithm::AlphaBeta, &config, |_| {});
            assert_eq!(Some(result.value), tree.known_value());
            assert_eq!(
                u128::from(result.counts.leaves),
                minimal_tree_leaves(width, depth),
                "w{width} d{depth}"
            );
        }
    }
}

#[test]
fn a_position_knows_its_ply() {
    let tree = SyntheticTree::new(SyntheticConfig { width: 3, depth: 4, ..Default::default() }).unwrap();
    let mut position = tree.root();
    for ply in 0..=4 {
        assert_eq!(position.ply(), ply);
        if let Some(mv) = tree.moves(&position).last() {
            position = tree.play(&position, mv);
        }
    }
}

#[test]
fn imperfect_ordering_costs_leaves_beyond_the_minimal_tree() {
    // With the best child first only half the time, alpha-beta must look past the minimal tree; a
    // generator that ignored `ordering` would order perfectly and give the minimal count.
    let config = crate::strategies::game_order_only();
    let tree = SyntheticTree::new(SyntheticConfig {
        seed: 1,
        width: 4,
        depth: 6,
        ordering: 0.5,
        ..Default::default()
    })
    .unwrap();
    let result = Engine::new(&config).search(&tree, Algorithm::AlphaBeta, &config, |_| {});
    assert_eq!(Some(result.value), tree.known_value());
    assert!(u128::from(result.counts.leaves) > minimal_tree_leaves(4, 6), "{} leaves", result.counts.leaves);
}

#[test]
fn a_tree_of_more_than_a_billion_nodes_is_searched_without_building_it() {
    let tree = SyntheticTree::new(SyntheticConfig { width: 8, depth: 10, ..Default::default() }).unwrap();
    assert!(tree.node_count() > 1_000_000_000);
    let params = crate::strategies::deepening();
    let result = Engine::new(&params).search(&tree, Algorithm::Mtdf, &params, |_| {});
    assert_eq!(Some(result.value), tree.known_value());
    assert!(result.counts.nodes < 10_000_000, "{} nodes", result.counts.nodes);
}

#[test]
fn seeds_give_the_same_trees_on_every_platform() {
    let summary: Vec<String> = [0u64, 7, 42]
        .into_iter()
        .flat_map(|seed| {
            [false, true].into_iter().flat_map(move |transpositions| {
                [Model::Independent, Model::Incremental].into_iter().map(move |model| {
                    let config = SyntheticConfig { seed, width: 3, depth: 3, model, transpositions, ..Default::default() };
                    let tree = SyntheticTree::new(config).unwrap();
                    let root = tree.root();
                    let first = tree.play(&root, tree.moves(&root).next().unwrap());
                    // Every leaf, in order: the whole tree, not only the path a search would take.
                    let mut leaves = Vec::new();
                    let mut stack = vec![root];
                    while let Some(position) = stack.pop() {
                        if tree.is_terminal(&position) {
                            leaves.push(tree.evaluate(&position));
                        } else {
                            let children: Vec<_> = tree.moves(&position).map(|mv| tree.play(&position, mv)).collect();
                            stack.extend(children.into_iter().rev());
                        }
                    }
                    format!(
                        "seed {seed} {model} transpositions {transpositions}: value {}, key {:016x}, first child eval {}, leaves {:?}",
                        minimax::search(&tree, &root, u32::MAX).value,
                        tree.key(&first),
                        tree.evaluate(&first),
                        leaves
                    )
                })
            })
        })
        .collect();
    insta::assert_snapshot!(summary.join("\n"));
}

#[test]
fn bad_configurations_are_refused_with_a_reason() {
    let base = SyntheticConfig::default();
    let cases = [
        (SyntheticConfig { width: 0, ..base }, SyntheticError::Width(0)),
        (SyntheticConfig { width: 49, ..base }, SyntheticError::Width(49)),
        (SyntheticConfig { depth: 33, ..base }, SyntheticError::Depth(33)),
        (SyntheticConfig { ordering: 1.5, ..base }, SyntheticError::Ordering(1.5)),
        (SyntheticConfig { spread: -1, ..base }, SyntheticError::Spread(-1)),
        (SyntheticConfig { spread: 200_000_000, ..base }, SyntheticError::Spread(200_000_000)),
    ];
    for (config, expected) in cases {
        assert_eq!(SyntheticTree::new(config).unwrap_err(), expected);
        assert!(!expected.to_string().is_empty());
    }
}
