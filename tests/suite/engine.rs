//! The optimized engine: exact on every tree, at every depth, with every table size; the minimal
//! tree under perfect ordering; a principal variation that reaches the value; limits that never
//! leak a partial iteration; no allocation while searching.

use nullwindow::driver::observe::{NodeReturned, Observer, Probe};
use nullwindow::driver::{GuessFrom, Outcome, SearchParams};
use nullwindow::game::{Game, Player};
use nullwindow::reference::minimax;
use nullwindow::search::{Algorithm, Engine, Threads};
use nullwindow::tree::synthetic::{SyntheticConfig, SyntheticTree};
use nullwindow::tree::{Tree, TreeBuilder};
use nullwindow::value::{INFINITY, MAX_LEAF, MIN_LEAF, Value};
use proptest::prelude::*;

use crate::strategies::{
    deepening, game_graphs, game_graphs_across_sixteen_bits, graphs_with_transpositions, shapes, trees,
};

fn algorithms() -> impl Strategy<Value = Algorithm> {
    prop::sample::select(Algorithm::ALL.to_vec())
}

fn configs() -> impl Strategy<Value = SearchParams> {
    (
        prop::sample::select(vec![1usize, 7, 1 << 16]),
        any::<[bool; 5]>(),
        prop_oneof![Just(None), (-INFINITY..=INFINITY).prop_map(Some), (-12..=12).prop_map(Some)],
        1..=100,
    )
        .prop_map(|(tt_entries, switches, first_guess, aspiration_delta)| SearchParams {
            tt_entries,
            table_move_first: switches[0],
            killers: switches[1],
            history: switches[2],
            enhanced_transposition_cutoff: switches[3],
            iterative_deepening: switches[4],
            guess_from: if aspiration_delta % 2 == 0 {
                GuessFrom::TwoIterationsBack
            } else {
                GuessFrom::PreviousIteration
            },
            first_guess,
            aspiration_delta,
            ..SearchParams::default()
        })
}

/// Walks the principal variation and checks that it is legal, ends where the search stopped (depth
/// or game end), and that its end position is worth exactly the root value.
fn assert_principal_variation<G: Game>(game: &G, result: &Outcome<G::Move>) -> Result<(), TestCaseError> {
    let mut position = game.root();
    for (ply, &mv) in result.principal_variation.iter().enumerate() {
        prop_assert!(game.moves(&position).any(|legal| legal == mv), "illegal move {} at ply {}", mv, ply);
        position = game.play(&position, mv);
    }
    let reached_depth = result.principal_variation.len() as u32 == result.depth;
    prop_assert!(
        reached_depth || game.is_terminal(&position),
        "the line stops early: {:?}",
        result.principal_variation
    );
    prop_assert_eq!(game.evaluate(&position), result.value, "line {:?}", result.principal_variation);
    prop_assert_eq!(result.best_move, result.principal_variation.first().copied());
    Ok(())
}

/// Counts the nodes that break [`SearchParams::table_min_depth`]: shallower ones that probed or
/// stored, and expanded ones deep enough that did not probe.
#[derive(Default)]
struct TableUses<'t> {
    tree: Option<&'t Tree>,
    table_min_depth: u32,
    shallow: usize,
    deep_without: usize,
}

impl Observer<Tree> for TableUses<'_> {
    fn returned(&mut self, node: &NodeReturned<'_, <Tree as Game>::Position, <Tree as Game>::Move>) {
        let probed = !matches!(node.probe, None | Some(Probe::None));
        let shallow = node.node.depth < self.table_min_depth;
        if shallow && (probed || node.stored.is_some()) {
            self.shallow += 1;
        }
        let leaf = node.node.depth == 0 || self.tree.is_some_and(|tree| tree.is_terminal(node.node.position));
        if !shallow && !leaf && !probed {
            self.deep_without += 1;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn every_driver_is_exact_on_random_trees(tree in trees(), algorithm in algorithms(), config in configs(), depth in prop_oneof![Just(u32::MAX), 0u32..9]) {
        let exact = minimax::search(&tree, &tree.root_id(), depth).value;
        let params = SearchParams { depth, ..config };
        let result = Engine::new(&params).search(&tree, algorithm, &params, |_| {});
        prop_assert_eq!(result.value, exact, "{} at depth {}", algorithm, depth);
        prop_assert!(!result.stopped);
        assert_principal_variation(&tree, &result)?;
        // Every iteration is exact at its own depth.
        for iteration in &result.iterations {
            prop_assert_eq!(iteration.value, minimax::search(&tree, &tree.root_id(), iteration.depth).value);
        }
    }

    /// Failing hard, every driver is still exact: a clamped result is still a bound. (First guesses
    /// near the values, and not SSS* or DUAL*, which start from ±INFINITY: a fail-hard MTD pass
    /// moves a bound by one unit, so a start 10^9 off would take 10^9 passes.)
    #[test]
    fn every_driver_failing_hard_is_exact(tree in prop_oneof![trees(), game_graphs()], algorithm in algorithms().prop_filter("starts from infinity", |algorithm| !matches!(algorithm, Algorithm::Sss | Algorithm::Dual)), config in configs(), depth in 0u32..7, guess in -12..=12) {
        let exact = minimax::search(&tree, &tree.root_id(), depth).value;
        let params = SearchParams { depth, fail_hard: true, first_guess: Some(guess), ..config };
        let result = Engine::new(&params).search(&tree, algorithm, &params, |_| {});
        prop_assert_eq!(result.value, exact, "{} at depth {}", algorithm, depth);
        assert_principal_variation(&tree, &result)?;
    }

    /// MTD(f) failing hard walks from its first guess to the value one unit a pass: up from below
    /// (tests at the guess, one above, …, one above the value: `value - guess + 2` passes) or down
    /// from above (`guess - value + 1`). Fail-soft, it never takes more.
    #[test]
    fn mtdf_failing_hard_walks_one_unit_a_pass(tree in trees(), guess in -12..=12) {
        let value = minimax::search(&tree, &tree.root_id(), u32::MAX).value;
        let params = SearchParams { fail_hard: true, first_guess: Some(guess), ..SearchParams::default() };
        let hard = Engine::new(&params).search(&tree, Algorithm::Mtdf, &params, |_| {}).passes.unwrap().len();
        let expected = if value >= guess { value - guess + 2 } else { guess - value + 1 };
        prop_assert_eq!(hard, expected as usize);
        let soft = SearchParams { fail_hard: false, ..params };
        let soft_passes = Engine::new(&soft).search(&tree, Algorithm::Mtdf, &soft, |_| {}).passes.unwrap().len();
        prop_assert!(soft_passes <= hard);
    }

    #[test]
    fn every_driver_is_exact_at_the_edges_of_the_value_range(shape in shapes(4, 5, prop_oneof![Just(MIN_LEAF), Just(MAX_LEAF), Just(0)].boxed()), algorithm in algorithms(), config in configs()) {
        let tree = shape.to_tree();
        let exact = minimax::search(&tree, &tree.root_id(), u32::MAX).value;
        let result = Engine::new(&config).search(&tree, algorithm, &config, |_| {});
        prop_assert_eq!(result.value, exact);
    }

    #[test]
    fn every_driver_is_exact_on_game_graphs_with_transpositions_at_different_depths(tree in prop_oneof![game_graphs(), game_graphs_across_sixteen_bits()], algorithm in algorithms(), config in configs(), depth in 0u32..7) {
        let exact = minimax::search(&tree, &tree.root_id(), depth).value;
        let params = SearchParams { depth, ..config };
        let result = Engine::new(&params).search(&tree, algorithm, &params, |_| {});
        prop_assert_eq!(result.value, exact, "{} at depth {}", algorithm, depth);
        assert_principal_variation(&tree, &result)?;
    }

    /// Nodes searched fewer plies deep than `table_min_depth` neither probe nor store; every other
    /// expanded node probes as before; and every driver stays exact.
    #[test]
    fn nodes_shallower_than_the_table_min_depth_leave_the_table_alone(tree in prop_oneof![trees(), game_graphs()], algorithm in algorithms(), config in configs(), depth in prop_oneof![Just(u32::MAX), 0u32..7], table_min_depth in 0u32..=4) {
        let exact = minimax::search(&tree, &tree.root_id(), depth).value;
        let params = SearchParams { depth, table_min_depth, ..config };
        let mut table_uses = TableUses { tree: Some(&tree), table_min_depth, ..TableUses::default() };
        let mut engine = Engine::new(&params);
        let result = engine.search_observed(&tree, &tree.root_id(), algorithm, &params, &mut table_uses);
        prop_assert_eq!(result.value, exact, "{} at depth {}", algorithm, depth);
        assert_principal_variation(&tree, &result)?;
        prop_assert_eq!(table_uses.shallow, 0, "nodes shallower than {} used the table", table_min_depth);
        prop_assert_eq!(table_uses.deep_without, 0, "deep enough nodes left the table alone");
    }

    #[test]
    fn every_driver_on_threads_returns_the_minimax_value(tree in prop_oneof![game_graphs(), game_graphs_across_sixteen_bits()], algorithm in algorithms(), config in configs(), depth in 0u32..7, count in 2usize..=4, alone_nodes in prop_oneof![Just(0u64), 0u64..100], table_min_depth in prop_oneof![Just(1u32), 0u32..=3]) {
        // Helpers at once, or after a first try alone that a small tree may or may not outlast.
        let exact = minimax::search(&tree, &tree.root_id(), depth).value;
        let params = SearchParams { depth, table_min_depth, ..config };
        let threads = Threads { count, alone_nodes };
        let mut heard = Vec::new();
        let result = Engine::new(&params).search_on_threads(&tree, &tree.root_id(), algorithm, &params, threads, |iteration| heard.push(iteration.depth));
        prop_assert_eq!(result.value, exact, "{} at depth {} on {:?}", algorithm, depth, threads);
        prop_assert!(!result.stopped);
        // The observer hears every iteration once, even when a first try alone was cut short.
        prop_assert_eq!(heard, result.iterations.iter().map(|i| i.depth).collect::<Vec<_>>());
        assert_principal_variation(&tree, &result)?;
        for iteration in &result.iterations {
            prop_assert_eq!(iteration.value, minimax::search(&tree, &tree.root_id(), iteration.depth).value);
        }
    }

    #[test]
    fn a_table_reused_across_searches_stays_exact(tree in graphs_with_transpositions(), algorithm in algorithms(), depths in prop::collection::vec(0u32..=7, 1..5)) {
        // One engine, several depths in a row: entries of other depths must never leak into a result.
        let params = SearchParams { tt_entries: 64, ..deepening() };
        let mut engine = Engine::new(&params);
        for depth in depths {
            let result = engine.search(&tree, algorithm, &SearchParams { depth, ..params.clone() }, |_| {});
            prop_assert_eq!(result.value, minimax::search(&tree, &tree.root_id(), depth).value, "depth {}", depth);
        }
    }

    #[test]
    fn a_stopped_search_returns_its_last_completed_iteration(tree in trees(), algorithm in algorithms(), node_limit in 0u64..300) {
        let params = SearchParams { node_limit: Some(node_limit), ..deepening() };
        let mut reported = Vec::new();
        let result = Engine::new(&params).search(&tree, algorithm, &params, |iteration| reported.push(iteration.depth));
        prop_assert_eq!(result.value, minimax::search(&tree, &tree.root_id(), result.depth).value, "depth {}", result.depth);
        prop_assert_eq!(reported, result.iterations.iter().map(|i| i.depth).collect::<Vec<_>>());
        prop_assert!(result.stopped || result.depth == tree.height());
        if result.depth > 0 {
            assert_principal_variation(&tree, &result)?;
        }
    }
}

/// The small trees of the property test are often solved before a helper thread has started. Here
/// the threads race for a long time over a table small enough that they fight over every slot, on
/// synthetic trees with transpositions, and every driver must still return the one-thread value
/// (itself checked against minimax above), at every iteration.
#[test]
fn threads_racing_over_a_crowded_table_change_no_value() {
    for seed in 0..3 {
        let config =
            SyntheticConfig { seed, width: 5, depth: 6, transpositions: true, ..SyntheticConfig::default() };
        let tree = SyntheticTree::new(config).unwrap();
        for algorithm in Algorithm::ALL {
            for tt_entries in [64, 1 << 12] {
                let params = SearchParams { tt_entries, depth: 6, ..deepening() };
                let one = Engine::new(&params).search(&tree, algorithm, &params, |_| {});
                let root = tree.root();
                let three = Engine::new(&params).search_on_threads(
                    &tree,
                    &root,
                    algorithm,
                    &params,
                    Threads { count: 3, alone_nodes: 0 },
                    |_| {},
                );
                let values =
                    |outcome: &Outcome<u32>| outcome.iterations.iter().map(|i| i.value).collect::<Vec<_>>();
                assert_eq!(values(&three), values(&one), "{algorithm}, seed {seed}, {tt_entries} entries");
            }
        }
    }
}

/// MTD(f) started at the exact value needs exactly two passes (Plaat): one fails high at the value,
/// one fails low just above it.
#[test]
fn mtdf_from_the_exact_value_makes_two_passes() {
    let tree: Tree = nullwindow::tree::examples::TEACHING_TREE.parse().unwrap();
    let params = SearchParams { first_guess: Some(7), ..SearchParams::default() };
    let result = Engine::new(&params).search(&tree, Algorithm::Mtdf, &params, |_| {});
    assert_eq!(result.value, 7);
    assert_eq!(result.iterations[0].passes.len(), 2);
}

/// A uniform tree of `width` and `depth` with distinct leaf values, every node's children sorted
/// best first for the player to move: the perfectly ordered tree of Knuth and Moore.
fn perfectly_ordered(width: u32, depth: u32, seed: u64) -> Tree {
    fn build(
        builder: &mut TreeBuilder,
        width: u32,
        depth: u32,
        player: Player,
        next: &mut impl FnMut() -> Value,
    ) -> Value {
        // Build each child as a separate tree first to learn its value, then emit in sorted order.
        fn emit(builder: &mut TreeBuilder, shape: &Node) {
            match shape {
                Node::Leaf(v) => builder.leaf(*v).unwrap(),
                Node::Inner(children) => {
                    builder.open().unwrap();
                    for child in children {
                        emit(builder, child);
                    }
                    builder.close().unwrap();
                }
            }
        }
        let shape = sorted(width, depth, player, next);
        emit(builder, &shape.1);
        shape.0
    }
    enum Node {
        Leaf(Value),
        Inner(Vec<Node>),
    }
    fn sorted(width: u32, depth: u32, player: Player, next: &mut impl FnMut() -> Value) -> (Value, Node) {
        if depth == 0 {
            let v = next();
            return (v, Node::Leaf(v));
        }
        let mut children: Vec<(Value, Node)> =
            (0..width).map(|_| sorted(width, depth - 1, player.opponent(), next)).collect();
        match player {
            Player::Max => children.sort_by_key(|child| std::cmp::Reverse(child.0)),
            Player::Min => children.sort_by_key(|child| child.0),
        }
        (children[0].0, Node::Inner(children.into_iter().map(|child| child.1).collect()))
    }
    // Distinct leaf values in a scrambled order: a multiplicative permutation of 0..n.
    let mut counter = 0u64;
    let mut next = || {
        counter += 1;
        (((counter * 2_654_435_761 + seed) % 1_000_003) as Value) - 500_000
    };
    let mut builder = TreeBuilder::new();
    build(&mut builder, width, depth, Player::Max, &mut next);
    builder.finish().unwrap()
}

#[test]
fn alphabeta_evaluates_exactly_the_minimal_tree_when_ordering_is_perfect() {
    let config = crate::strategies::game_order_only();
    for width in 2u32..=6 {
        for depth in 1u32..=6 {
            let tree = perfectly_ordered(width, depth, u64::from(width * 10 + depth));
            let minimal = u64::from(width.pow(depth.div_ceil(2)) + width.pow(depth / 2) - 1);
            let result = Engine::new(&config).search(&tree, Algorithm::AlphaBeta, &config, |_| {});
            assert_eq!(result.value, minimax::search(&tree, &tree.root_id(), u32::MAX).value);
            // The counts are the search's alone, not the walk's that verifies the principal variation.
            assert_eq!(result.counts.leaves, minimal, "width {width}, depth {depth}");
        }
    }
}

#[test]
fn searching_allocates_nothing_once_the_engine_is_warm() {
    let tree: Tree = nullwindow::tree::random::RandomTreeConfig {
        seed: 5,
        width: 3..=5,
        depth: 5..=7,
        ..Default::default()
    }
    .generate()
    .unwrap();
    for algorithm in Algorithm::ALL {
        let params = deepening();
        let mut engine = Engine::new(&params);
        engine.search(&tree, algorithm, &params, |_| {});
        let once = SearchParams { depth: tree.height(), ..params };
        let mut value = 0;
        let info = allocation_counter::measure(|| {
            value = engine.search_value(&tree, algorithm, &once);
        });
        assert_eq!(info.count_total, 0, "{algorithm} allocated {} times", info.count_total);
        assert_eq!(value, minimax::search(&tree, &tree.root_id(), u32::MAX).value);
    }
}

/// A cancel flag raised before the search and a zero time limit both stop it at the first check
/// (every 1024 nodes); what comes back is a completed iteration, exact at its own depth.
/// A random tree with every interior node `width` wide and every leaf `depth` deep.
fn uniform_random_tree(seed: u64, width: u32, depth: u32) -> Tree {
    nullwindow::tree::random::RandomTreeConfig {
        seed,
        width: width..=width,
        depth: depth..=depth,
        uniform: true,
        ..Default::default()
    }
    .generate()
    .unwrap()
}

#[test]
fn cancel_and_time_limits_return_a_completed_iteration() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;
    let tree = uniform_random_tree(11, 6, 7);
    let cancelled = SearchParams { cancel: Some(Arc::new(AtomicBool::new(true))), ..deepening() };
    let timed = SearchParams { time_limit: Some(Duration::ZERO), ..deepening() };
    for params in [cancelled, timed] {
        for algorithm in Algorithm::ALL {
            let result = Engine::new(&params).search(&tree, algorithm, &params, |_| {});
            assert!(result.stopped && result.depth < 7, "{algorithm}: depth {}", result.depth);
            assert_eq!(result.value, minimax::search(&tree, &tree.root_id(), result.depth).value);
        }
    }
}

/// Generous time and node limits stop nothing; iterative deepening reports every depth from 1 up; and a
/// cleared engine searches exactly as a new one does (its table and ordering forgotten).
#[test]
fn limits_iterations_and_clear_do_what_they_say() {
    use std::time::Duration;
    let tree = uniform_random_tree(12, 5, 6);
    for algorithm in Algorithm::ALL {
        let generous = SearchParams {
            time_limit: Some(Duration::from_secs(3600)),
            node_limit: Some(1 << 40),
            ..deepening()
        };
        let mut engine = Engine::new(&generous);
        let first = engine.search(&tree, algorithm, &generous, |_| {});
        assert!(
            !first.stopped,
            "{algorithm}: a limit of an hour and 2^40 nodes stopped a search of a 5^6 tree"
        );
        // Walking the principal variation after each iteration visits nodes, counted apart.
        assert!(first.counts.verification_nodes > 0, "{algorithm}: the walk was not counted");
        // Exactly: where the table answers each step's test at once, the walk costs one node a ply.
        for (text, line) in [("(3 5 1)", vec![1]), ("((3 5) (1 9) (2 4))", vec![0, 0])] {
            let small: nullwindow::tree::Tree = text.parse().unwrap();
            let params = SearchParams { depth: line.len() as u32, ..SearchParams::default() };
            let walked = Engine::new(&params).search(&small, algorithm, &params, |_| {});
            assert_eq!(walked.principal_variation, line, "{algorithm} on {text}");
            assert_eq!(
                walked.counts.verification_nodes,
                u64::from(params.depth),
                "{algorithm} on {text}: the walk's nodes miscounted"
            );
        }
        // Every driver cuts off on a random 5^6 tree, and the ones that pass over the root again
        // find the earlier passes' bounds in the table.
        assert!(first.counts.cutoffs > 0, "{algorithm}: no cut-off counted");
        assert!(!algorithm.makes_passes() || first.counts.hits > 0, "{algorithm}: no table hit counted");
        let depths: Vec<u32> = first.iterations.iter().map(|iteration| iteration.depth).collect();
        assert_eq!(depths, (1..=6).collect::<Vec<_>>(), "{algorithm}");
        engine.clear();
        let again = engine.search(&tree, algorithm, &generous, |_| {});
        assert_eq!(again.counts, first.counts, "{algorithm}: a cleared engine remembered something");
    }
}

/// Each engine driver is found by the name it prints, and reports root passes exactly when it makes
/// them (a driver without passes reports none, not an empty list).
#[test]
fn drivers_are_named_and_report_passes_as_the_registry_says() {
    use nullwindow::registry::Driver;
    let tree: Tree = nullwindow::tree::examples::TEACHING_TREE.parse().unwrap();
    for algorithm in Algorithm::ALL {
        let name = algorithm.to_string();
        let [driver] = Driver::select(&name).unwrap()[..] else { panic!("{name} names one driver") };
        assert_eq!((driver.info().name, driver.algorithm()), (algorithm.name(), Some(algorithm)));
        assert_eq!(driver.info().passes, algorithm.makes_passes(), "{algorithm}");
        let outcome = driver.run(&tree, &SearchParams::default());
        assert_eq!(outcome.passes.is_some(), algorithm.makes_passes(), "{algorithm}");
        assert_eq!(
            outcome.passes.is_some_and(|passes| !passes.is_empty()),
            algorithm.makes_passes(),
            "{algorithm}"
        );
    }
    // The registry hands the first guess on: MTD(f) from the exact value makes two passes.
    let params = SearchParams { first_guess: Some(7), ..SearchParams::default() };
    let passes = Driver::Mtdf.run(&tree, &params).passes.unwrap();
    assert_eq!(passes.len(), 2, "{passes:?}");
    // And the table size: with one slot, MTD(f)'s passes remember next to nothing.
    let tiny = SearchParams { tt_entries: 1, ..SearchParams::default() };
    let (small, large) = (
        Driver::Mtdf.run(&tree, &tiny).counts.nodes,
        Driver::Mtdf.run(&tree, &SearchParams::default()).counts.nodes,
    );
    assert!(small > large, "{small} nodes with one slot, {large} with the default table");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// An aspiration search that fails re-searches once, with the window open on the side it failed
    /// on and closed just past the fail-soft bound: the value lies inside, so no iteration takes more
    /// than two passes, however far off the guess.
    #[test]
    fn aspiration_takes_at_most_two_passes_per_iteration(
        tree in trees(),
        guess in prop_oneof![-1000..=1000 as Value, Just(-INFINITY), Just(INFINITY)],
        delta in 1..=20 as Value,
        iterative_deepening in any::<bool>(),
    ) {
        // A guess at an edge of the value range clamps one side of the window to it.
        let params = SearchParams { first_guess: Some(guess), aspiration_delta: delta, iterative_deepening, ..SearchParams::default() };
        let result = Engine::new(&params).search(&tree, Algorithm::Aspiration, &params, |_| {});
        prop_assert_eq!(result.value, minimax::search(&tree, &tree.root_id(), u32::MAX).value);
        for iteration in &result.iterations {
            prop_assert!(iteration.passes.len() <= 2, "depth {}: {:?}", iteration.depth, iteration.passes);
        }
    }

    /// A guess closer to the value than the window's half-width is confirmed by a single pass.
    #[test]
    fn aspiration_around_the_value_takes_one_pass(tree in trees(), off in -19..=19 as Value) {
        let exact = minimax::search(&tree, &tree.root_id(), u32::MAX).value;
        let params = SearchParams { first_guess: Some(exact + off), aspiration_delta: 20, ..SearchParams::default() };
        let result = Engine::new(&params).search(&tree, Algorithm::Aspiration, &params, |_| {});
        prop_assert_eq!(result.value, exact);
        prop_assert_eq!(result.iterations.len(), 1);
        prop_assert_eq!(result.iterations[0].passes.len(), 1, "{:?}", result.iterations[0].passes);
    }
}

/// A game that breaks the admissibility contract: one move, to a leaf worth the given value
/// (`±INFINITY`), for MAX.
struct ReachesInfinity(Value);

impl Game for ReachesInfinity {
    type Position = bool;
    type Move = u8;
    type Moves = std::option::IntoIter<u8>;

    fn root(&self) -> bool {
        false
    }
    fn to_move(&self, position: &bool) -> Player {
        if *position { Player::Min } else { Player::Max }
    }
    fn moves(&self, position: &bool) -> Self::Moves {
        (!*position).then_some(0).into_iter()
    }
    fn play(&self, _: &bool, _: u8) -> bool {
        true
    }
    fn evaluate(&self, _: &bool) -> Value {
        self.0
    }
    fn key(&self, position: &bool) -> u64 {
        u64::from(*position)
    }
}

/// Aspiration stops when a result reaches a window edge that is already `±INFINITY`: there is nothing
/// to re-open, and a game that breaks its contract with an infinite value must not hang the search.
#[test]
fn aspiration_does_not_loop_on_a_result_at_infinity() {
    for infinity in [INFINITY, -INFINITY] {
        let params = SearchParams { depth: 1, ..SearchParams::default() };
        let result =
            Engine::new(&params).search(&ReachesInfinity(infinity), Algorithm::Aspiration, &params, |_| {});
        assert_eq!(result.value, infinity);
    }
}

/// Among moves of equal value the first one searched is the best move, as in the textbook's strict
/// `value > g`: the line the engine reports does not jump to a later move that is only as good.
#[test]
fn the_first_of_equally_good_moves_is_the_best_move() {
    let tree: nullwindow::tree::Tree = "(5 5 5)".parse().unwrap();
    for algorithm in Algorithm::ALL {
        let params = SearchParams::default();
        let result = Engine::new(&params).search(&tree, algorithm, &params, |_| {});
        assert_eq!((result.value, result.best_move), (5, Some(0)), "{algorithm}");
    }
}

/// The node limit is exact: a search allowed exactly the nodes it needs completes, one fewer stops it.
#[test]
fn a_node_limit_allows_exactly_that_many_nodes() {
    let tree = uniform_random_tree(3, 4, 5);
    for algorithm in Algorithm::ALL {
        let params = SearchParams::default();
        let needed = Engine::new(&params).search(&tree, algorithm, &params, |_| {}).counts.nodes;
        let enough = SearchParams { node_limit: Some(needed), ..SearchParams::default() };
        assert!(!Engine::new(&enough).search(&tree, algorithm, &enough, |_| {}).stopped, "{algorithm}");
        let short = SearchParams { node_limit: Some(needed - 1), ..SearchParams::default() };
        assert!(Engine::new(&short).search(&tree, algorithm, &short, |_| {}).stopped, "{algorithm}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The recursive searches an engine author may call directly keep the fail-soft contract their
    /// documentation states, for any window, at any depth, on one engine whose table carries bounds
    /// from one call to the next (as a driver's passes do).
    #[test]
    fn the_public_searches_keep_the_fail_soft_contract_for_any_window(
        tree in graphs_with_transpositions(),
        calls in prop::collection::vec((0usize..4, -30..=30 as Value, 1..=30 as Value, 0u32..=6), 1..8),
        config in configs(),
        marks in any::<u64>(),
    ) {
        use nullwindow::search::abdada::{BusyPositions, alpha_beta_deferring};
        use nullwindow::search::{alphabeta::alpha_beta, negascout::negascout, pvs::pvs};
        use nullwindow::theory::is_fail_soft_result;
        let root = tree.root_id();
        let mover = tree.to_move(&root);
        let mut engine = Engine::new(&config);
        // As if another thread were searching some positions all along: ABDADA defers them, and
        // must still search them before it returns.
        let busy = BusyPositions::new();
        mark_some_positions(&tree, &busy, marks);
        for (search, alpha, width, depth) in calls {
            let beta = alpha + width;
            let g = engine.with_searcher(&tree, &config, |searcher| match search {
                0 => alpha_beta(searcher, &root, depth, alpha, beta, 0),
                1 => pvs(searcher, &root, depth, alpha, beta, 0),
                2 => negascout(searcher, &root, depth, alpha, beta, 0),
                _ => alpha_beta_deferring(searcher, &busy, &root, depth, alpha, beta, 0),
            });
            let exact = mover.perspective(minimax::search(&tree, &root, depth).value);
            prop_assert!(
                is_fail_soft_result(g, exact, alpha, beta),
                "search {} at depth {} with ({}, {}) returned {}, exact {}", search, depth, alpha, beta, g, exact
            );
        }
    }
}

/// Marks about half of the positions of `tree` (a choice `seed` makes) as being searched by another
/// thread.
fn mark_some_positions(tree: &Tree, busy: &nullwindow::search::abdada::BusyPositions, seed: u64) {
    let mut seen = std::collections::HashSet::new();
    let mut to_visit = vec![tree.root_id()];
    while let Some(position) = to_visit.pop() {
        let key = tree.key(&position);
        if !seen.insert(key) {
            continue;
        }
        if (key ^ seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 63 == 1 {
            busy.claim(key);
        }
        to_visit.extend(tree.moves(&position).map(|mv| tree.play(&position, mv)));
    }
}

/// The order the move picker promises, computed plainly: the table's move, then the killers (the
/// last two distinct moves that cut off at the ply, most recent first) that the node has, then the
/// rest by decreasing history score (the sum of `depth²` over the cut-offs of its slot), ties and
/// everything without history in the game's order.
fn promised_order(
    moves: &[u32],
    cutoffs: &[(usize, u32, u32)],
    ply: usize,
    table_move: Option<usize>,
    use_killers: bool,
    use_history: bool,
) -> Vec<u32> {
    let slot = |mv: u32| (mv % 16) as usize;
    let mut killers: Vec<u32> = Vec::new();
    let mut score = [0u64; 16];
    for &(at, mv, depth) in cutoffs {
        if at == ply && killers.first() != Some(&mv) {
            killers.insert(0, mv);
            killers.truncate(2);
        }
        score[slot(mv)] = score[slot(mv)].saturating_add(u64::from(depth) * u64::from(depth));
    }
    let mut order: Vec<u32> = table_move.and_then(|index| moves.get(index)).copied().into_iter().collect();
    for killer in killers.into_iter().filter(|_| use_killers) {
        if moves.contains(&killer) && !order.contains(&killer) {
            order.push(killer);
        }
    }
    let mut rest: Vec<u32> = moves.iter().copied().filter(|mv| !order.contains(mv)).collect();
    if use_history {
        rest.sort_by_key(|&mv| std::cmp::Reverse(score[slot(mv)]));
    }
    order.extend(rest);
    order
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The move picker hands out every move once, in exactly the promised order, whatever the list's
    /// length, the killers and history recorded before, and the table move (an index past the list
    /// names none).
    #[test]
    fn the_move_picker_hands_out_every_move_once_in_the_promised_order(
        moves in prop::collection::hash_set(0u32..100, 0..48).prop_map(|set| set.into_iter().collect::<Vec<_>>()),
        cutoffs in prop::collection::vec((0usize..3, 0u32..100, 0u32..12), 0..40),
        ply in 0usize..3,
        table_move in prop::option::of(0usize..60),
        use_killers in any::<bool>(),
        use_history in any::<bool>(),
    ) {
        use nullwindow::search::ordering::{MoveOrdering, MovePicker};
        let mut ordering = MoveOrdering::new(3, 16);
        for &(at, mv, depth) in &cutoffs {
            ordering.record_cutoff(at, mv, Some((mv % 16) as usize), depth, true);
        }
        let mut picker = MovePicker::default();
        let slot = |mv: u32| (mv % 16) as usize;
        ordering.fill(&mut picker, moves.iter().copied(), ply, table_move, use_killers, use_history.then_some(slot));
        let picked: Vec<u32> = picker.by_ref().collect();
        prop_assert_eq!(&picked, &promised_order(&moves, &cutoffs, ply, table_move, use_killers, use_history));
        prop_assert_eq!(picker.next(), None);
        for (index, &mv) in moves.iter().enumerate() {
            prop_assert_eq!(picker.index_in_game_order(mv), Some(index));
        }
    }
}

/// Recording a deep search keeps memory linear in its nodes: a record's path is built when it is
/// handed out, not kept with every record (a chain of 20,000 plies took 1.6 GB to trace).
#[test]
fn recording_a_deep_search_keeps_memory_linear_in_its_nodes() {
    use nullwindow::oracle::record::{Recorder, When};
    let plies = 2000;
    let tree: Tree = format!("{}1{}", "(".repeat(plies), ")".repeat(plies)).parse().unwrap();
    let driver = nullwindow::registry::Driver::Minimax;
    // On a thread with a large stack: the search recurses once a ply.
    let peak = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            allocation_counter::measure(|| {
                let mut recorder = Recorder::new(&tree);
                let _ = driver.run_observed(&tree, &SearchParams::default(), &mut recorder);
                let mut longest = 0;
                recorder.each_record(When::Completion, None, |record| {
                    longest = longest.max(record.path.map_or(0, |path| path.len()));
                });
                assert_eq!(longest, plies);
            })
            .bytes_max
        })
        .unwrap()
        .join()
        .unwrap();
    // Every path kept: 2,000 × 2,001 / 2 steps of 4 bytes, 8 MB; built as handed out: a few
    // hundred bytes a record.
    assert!(peak < 2 << 20, "{peak} bytes at the peak");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// The engine's window searches, called one after another on one table with windows of their
    /// own, each keep the fail-soft contract at the root: what one search stored (a bound made
    /// weaker where it does not fit in 16 bits) never makes another return a bound as the value.
    /// NegaScout once took a child's result as exact one ply above the leaves (Reinefeld's rule)
    /// when a table entry's bound had answered the child; this found it, as did the search on
    /// threads, whose helpers fill the table.
    #[test]
    fn window_searches_on_one_table_keep_the_fail_soft_contract(
        tree in prop_oneof![
            game_graphs(),
            game_graphs_across_sixteen_bits(),
            // Small trees whose values straddle the edges of 16 bits.
            shapes(3, 3, prop::sample::select(vec![0, 1, 32_766, 32_767, 32_768, 32_769, 40_000, -32_767, -32_768, -32_769, -40_000])).prop_map(|shape| shape.to_tree()),
        ],
        config in configs(),
        table_min_depth in 0u32..=2,
        depth in 1u32..5,
    ) {
        use nullwindow::search::{alphabeta::alpha_beta, negascout::negascout, pvs::pvs};
        use nullwindow::theory::is_fail_soft_result;
        let root = tree.root_id();
        let exact = tree.player(root).perspective(minimax::search(&tree, &root, depth).value);
        let params = SearchParams { table_min_depth, ..config };
        // Windows where bounds are decided: a null window at each of the tree's values, from either
        // side (a dozen at most), and wide ones around them.
        let mut values: Vec<Value> = (0..tree.node_count())
            .flat_map(|node| {
                let value = tree.evaluation(nullwindow::tree::NodeId(node as u32));
                [value, -value]
            })
            .collect();
        values.sort_unstable();
        values.dedup();
        let step = values.len().div_ceil(12).max(1);
        let mut windows: Vec<(Value, Value)> = values.iter().step_by(step).map(|&v| (v - 1, v)).collect();
        windows.extend(values.iter().step_by(step * 3).flat_map(|&v| [(v - 1, INFINITY), (-INFINITY, v + 1)]));
        windows.push((-INFINITY, INFINITY));
        // Every window after every other, on one table: what the first stores, the second reads.
        for &first in &windows {
            for &second in &windows {
                for search in 0..3 {
                    let mut engine = Engine::new(&params);
                    for (alpha, beta) in [first, second] {
                        let g = engine.with_searcher(&tree, &params, |searcher| match search {
                            0 => alpha_beta(searcher, &root, depth, alpha, beta, 0),
                            1 => pvs(searcher, &root, depth, alpha, beta, 0),
                            _ => negascout(searcher, &root, depth, alpha, beta, 0),
                        });
                        prop_assert!(
                            is_fail_soft_result(g, exact, alpha, beta),
                            "search {} after {:?}: {} in ({}, {}), value {}", search, first, g, alpha, beta, exact
                        );
                    }
                }
            }
        }
    }
}

/// The case the property above is after, made by hand: a child one ply above the leaves whose value,
/// -32,769 from its side, is stored by a null-window search as an upper bound weakened to fit in 16
/// bits (-32,768); a later search with a wider window scouts it, the entry answers the scout with
/// that bound, and Reinefeld's rule must not take 32,768 for the value.
#[test]
fn negascout_takes_no_table_bound_for_the_value_one_ply_above_the_leaves() {
    use nullwindow::search::negascout::negascout;
    let tree: Tree = "((0) (32769 40000))".parse().unwrap();
    let root = tree.root_id();
    let params =
        SearchParams { table_move_first: false, killers: false, history: false, ..SearchParams::default() };
    let mut engine = Engine::new(&params);
    let first =
        engine.with_searcher(&tree, &params, |searcher| negascout(searcher, &root, 2, 32_768, 32_769, 0));
    assert_eq!(first, 32_769);
    let second = engine.with_searcher(&tree, &params, |searcher| negascout(searcher, &root, 2, 0, 50_000, 0));
    assert_eq!(second, 32_769);
}
