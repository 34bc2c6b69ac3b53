//! The oracle's proofs (`oracle::proof`): MTD(f) over MT finds the exact value from any first
//! guess, every claim is decided as the exact value decides it, MT keeps the fail-soft contract,
//! a proof beyond its budget is undecided and leaves the table sound; and the minimal tree of any
//! position (`theory::minimal_tree`), which no exact search evaluates fewer leaves than, and which
//! the proofs of game positions stay within three times of.

use std::cell::Cell;

use nullwindow::Driver;
use nullwindow::driver::SearchParams;
use nullwindow::game::{Game, Player};
use nullwindow::games::connect4::Connect4;
use nullwindow::games::random_position;
use nullwindow::games::tictactoe::TicTacToe;
use nullwindow::oracle::harness::{Answer, Config, GameCase, judge_game};
use nullwindow::oracle::proof::{Asking, Budget, Claim, Prover, TO_THE_END, mt};
use nullwindow::reference::minimax;
use nullwindow::search::Engine;
use nullwindow::theory::is_fail_soft_result;
use nullwindow::theory::minimal_tree::minimal_tree;
use nullwindow::theory::node_types::{NodeType, minimal_leaves};
use nullwindow::tree::random::RandomTreeConfig;
use nullwindow::tree::{NodeId, Tree};
use nullwindow::value::Value;
use proptest::prelude::*;

use super::own_game::ExtraTurns;
use super::strategies::{graphs_with_transpositions, trees};

/// The depth-`depth` value of `position`, from the side to move there, by plain minimax.
fn exact<G: Game>(game: &G, position: &G::Position, depth: u32) -> Value {
    let value = minimax::value(game, position, depth, &mut Default::default(), u64::MAX).unwrap();
    game.to_move(position).perspective(value)
}

/// Every claim about values near `exact` is decided as `exact` decides it, and MTD(f) from `guess`
/// ends on it.
fn decides_as_the_value<G: Game>(
    game: &G,
    position: &G::Position,
    depth: u32,
    guess: Value,
) -> Result<(), TestCaseError> {
    let value = exact(game, position, depth);
    let mut prover = Prover::new(1 << 10);
    let mut budget = Budget::new(u64::MAX);
    prop_assert_eq!(prover.value(game, position, depth, guess, &mut budget).unwrap(), value);
    for near in value - 2..=value + 2 {
        for claim in [Claim::AtLeast(near), Claim::AtMost(near), Claim::Exactly(near)] {
            let held = prover.holds(game, position, depth, claim, &mut budget).unwrap();
            prop_assert_eq!(held, claim.holds(value), "{} with the value {}", claim, value);
        }
    }
    Ok(())
}

/// Two trees served as one game whose keys are given out afresh between them, as a served game's
/// are when it forgets the engine's answers: the same node numbers name other positions.
struct Renumbered {
    trees: [Tree; 2],
    epoch: Cell<usize>,
}

impl Renumbered {
    fn tree(&self) -> &Tree {
        &self.trees[self.epoch.get()]
    }
}

impl Game for Renumbered {
    type Position = NodeId;
    type Move = u32;
    type Moves = std::ops::Range<u32>;

    fn root(&self) -> NodeId {
        self.tree().root()
    }

    fn to_move(&self, position: &NodeId) -> Player {
        self.tree().to_move(position)
    }

    fn moves(&self, position: &NodeId) -> Self::Moves {
        self.tree().moves(position)
    }

    fn play(&self, position: &NodeId, mv: u32) -> NodeId {
        self.tree().play(position, mv)
    }

    fn evaluate(&self, position: &NodeId) -> Value {
        self.tree().evaluate(position)
    }

    fn key(&self, position: &NodeId) -> u64 {
        self.tree().key(position)
    }

    fn keys_identify_positions(&self) -> bool {
        true
    }

    fn key_epoch(&self) -> u64 {
        self.epoch.get() as u64
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// A prover kept while the game gives its keys out afresh ([`Game::key_epoch`]) reads nothing
    /// it proved under the old ones: each value after the change is the new position's, and so
    /// back again.
    #[test]
    fn a_prover_forgets_its_proofs_when_the_keys_change_meaning(
        first in trees(),
        second in trees(),
        depth in 1u32..6,
    ) {
        let game = Renumbered { trees: [first, second], epoch: Cell::new(0) };
        let mut prover = Prover::new(1 << 10);
        for epoch in [0, 1, 0] {
            game.epoch.set(epoch);
            let root = game.root();
            let value = exact(&game, &root, depth);
            let proved = prover.value(&game, &root, depth, 0, &mut Budget::new(u64::MAX)).unwrap();
            prop_assert_eq!(proved, value, "after the keys' epoch became {}", epoch);
        }
    }

    /// On trees and on graphs of transpositions (MIN roots, evaluations on every node, positions
    /// reached at two depths), at every depth.
    #[test]
    fn the_prover_decides_every_claim_as_the_exact_value_does(
        tree in prop_oneof![trees(), graphs_with_transpositions()],
        depth in 0u32..7,
        guess in -15..15,
    ) {
        decides_as_the_value(&tree, &tree.root_id(), depth, guess)?;
    }

    /// On a game where a side moves twice: MT keeps the window of a move that keeps the mover.
    #[test]
    fn the_prover_reads_the_side_to_move_at_every_position(stones in 1u32..14, depth in 0u32..9, guess in -8..8) {
        let game = ExtraTurns { stones };
        decides_as_the_value(&game, &game.root(), depth, guess)?;
    }

    /// To the end of the game ([`TO_THE_END`]): every claim decided as the value at the tree's
    /// full height decides it, on trees, graphs of transpositions, and a game where a side moves
    /// twice; the proofs stop at the first iteration that met no depth cut-off.
    #[test]
    fn a_proof_to_the_end_decides_as_the_full_value(
        tree in prop_oneof![trees(), graphs_with_transpositions()],
        stones in 1u32..14,
        guess in -15..15,
    ) {
        prop_assert_eq!(exact(&tree, &tree.root_id(), TO_THE_END), exact(&tree, &tree.root_id(), tree.height()));
        decides_as_the_value(&tree, &tree.root_id(), TO_THE_END, guess)?;
        let game = ExtraTurns { stones };
        decides_as_the_value(&game, &game.root(), TO_THE_END, guess.clamp(-8, 8))?;
    }

    /// MT's contract at the root, whatever the window and the node type it expects (which only
    /// decides what is asked together).
    #[test]
    fn mt_keeps_the_fail_soft_contract(
        tree in graphs_with_transpositions(),
        depth in 0u32..7,
        alpha in -12..12,
        width in 1i32..6,
        all in any::<bool>(),
    ) {
        let value = exact(&tree, &tree.root_id(), depth);
        let params = SearchParams::default();
        let mut engine = Engine::new(&params);
        let expected = if all { NodeType::All } else { NodeType::Cut };
        let beta = alpha + width;
        let g = engine.with_searcher(&tree, &params, |searcher| mt(searcher, &tree.root_id(), depth, alpha, beta, 0, expected));
        prop_assert!(is_fail_soft_result(g, value, alpha, beta), "{} in ({}, {}), value {}", g, alpha, beta, value);
    }

    /// A proof that needs more nodes than its budget is undecided, never wrong, and what it left in
    /// the table is sound: the same claims, with room, come out right.
    #[test]
    fn a_proof_beyond_its_budget_is_undecided_and_leaves_the_table_sound(
        tree in graphs_with_transpositions(),
        depth in 1u32..7,
        limit in 1u64..40,
    ) {
        let root = tree.root_id();
        let value = exact(&tree, &root, depth);
        let mut prover = Prover::new(1 << 10);
        for near in value - 1..=value + 1 {
            let mut budget = Budget::new(limit);
            match prover.holds(&tree, &root, depth, Claim::AtLeast(near), &mut budget) {
                Ok(held) => {
                    prop_assert_eq!(held, value >= near);
                    prop_assert!(budget.spent <= limit);
                }
                Err(undecided) => {
                    prop_assert_eq!(undecided.budget, limit);
                    prop_assert!(budget.spent > limit);
                }
            }
        }
        prop_assert_eq!(prover.value(&tree, &root, depth, 0, &mut Budget::new(u64::MAX)).unwrap(), value);
    }

    /// Knuth and Moore's count: on a uniform tree every proof of a bound has as many leaves as any
    /// other, and the minimal tree has `w^⌈d/2⌉ + w^⌊d/2⌋ − 1` of them, whatever the values.
    #[test]
    fn the_minimal_tree_of_a_uniform_tree_is_knuth_and_moores(width in 1u32..5, depth in 0u32..6, seed in any::<u64>()) {
        let tree = RandomTreeConfig {
            seed,
            width: width..=width,
            depth: depth.max(1)..=depth.max(1),
            values: -3..=3,
            uniform: true,
            ..RandomTreeConfig::default()
        }
        .generate()
        .unwrap();
        let searched = tree.height().min(depth);
        let minimal = minimal_tree(&tree, &tree.root_id(), searched, u64::MAX).unwrap();
        prop_assert_eq!(u128::from(minimal.leaves), minimal_leaves(width, searched));
    }

    /// No exact driver evaluates fewer leaves than the minimal tree holds: each must see a proof of
    /// each bound.
    #[test]
    fn no_exact_driver_evaluates_fewer_leaves_than_the_minimal_tree(tree in trees()) {
        let minimal = minimal_tree(&tree, &tree.root_id(), u32::MAX, u64::MAX).unwrap();
        for driver in Driver::ALL.iter().filter(|driver| driver.info().exact) {
            let leaves = driver.run(&tree, &SearchParams::default()).counts.leaves;
            prop_assert!(leaves >= minimal.leaves, "{} evaluates {} leaves, fewer than {}", driver, leaves, minimal.leaves);
        }
    }
}

/// The positions the proofs of a case ask about (as a game served over the protocol asks its
/// engine), against the minimal tree of the case, on seeded positions of tic-tac-toe and Connect
/// Four: within three times, taken together; and far fewer than an unfolding of the case asks.
#[test]
fn the_proofs_of_game_positions_ask_within_three_times_the_minimal_tree() {
    fn ratio<G: Game>(game: &G, positions: &[G::Position], depth: u32) -> f64 {
        let (mut asked, mut minimal) = (0, 0);
        for position in positions {
            let tree = minimal_tree(game, position, depth, 1 << 26).unwrap();
            let asking = Asking::new(game);
            let case = GameCase::new(position.clone(), Vec::new(), depth, String::new());
            let config = Config { perspective: nullwindow::driver::Perspective::Mover, ..Config::default() };
            let judged =
                judge_game(&asking, &mut Prover::new(1 << 14), &case, &Answer::value(tree.value), &config);
            assert_eq!(judged, Ok(None));
            asked += asking.asked() as u64;
            minimal += tree.nodes;
        }
        asked as f64 / minimal as f64
    }
    let tictactoe = TicTacToe::from_moves("").unwrap();
    let positions: Vec<_> = (0..100u64).map(|seed| random_position(&tictactoe, seed, 3).0).collect();
    for depth in [2, 4, 6] {
        let ratio = ratio(&tictactoe, &positions, depth);
        assert!(ratio <= 3.0, "tic-tac-toe, depth {depth}: {ratio:.2} times the minimal tree");
    }
    let connect4 = Connect4::from_moves("").unwrap();
    let positions: Vec<_> = (0..30u64).map(|seed| random_position(&connect4, seed, 20).0).collect();
    for depth in [4, 6] {
        let ratio = ratio(&connect4, &positions, depth);
        assert!(ratio <= 3.0, "Connect Four, depth {depth}: {ratio:.2} times the minimal tree");
    }
}

/// The root of a tree whose MIN side moves first is proved from MIN's side: claims are the side to
/// move's.
#[test]
fn claims_are_read_from_the_side_to_move() {
    let tree: Tree = nullwindow::tree::gtree::parse("0 0 B 1 2\n1 5\n2 3\n").unwrap();
    assert_eq!(tree.player(tree.root_id()), Player::Min);
    let mut prover = Prover::new(1 << 8);
    let mut budget = Budget::new(1000);
    // MIN takes 3, which is -3 from its side.
    assert_eq!(prover.value(&tree, &tree.root_id(), 1, 0, &mut budget), Ok(-3));
    assert_eq!(prover.holds(&tree, &tree.root_id(), 1, Claim::Exactly(-3), &mut budget), Ok(true));
}

/// Two positions that lead to each other forever: no proof reaches the end of that game, so one
/// to the end is undecided, never a value read where the searches' depth ran out.
#[test]
fn a_game_without_end_is_undecided_to_the_end() {
    struct Forever;
    impl Game for Forever {
        type Position = bool;
        type Move = u8;
        type Moves = std::ops::Range<u8>;
        fn root(&self) -> bool {
            false
        }
        fn to_move(&self, position: &bool) -> Player {
            if *position { Player::Min } else { Player::Max }
        }
        fn moves(&self, _: &bool) -> Self::Moves {
            0..1
        }
        fn play(&self, position: &bool, _: u8) -> bool {
            !position
        }
        fn evaluate(&self, _: &bool) -> Value {
            0
        }
        fn key(&self, position: &bool) -> u64 {
            u64::from(*position)
        }
    }
    // A line of 100,001 plies takes a deep stack, as the command line gives its searches.
    let undecided = std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(|| {
            let mut prover = Prover::new(1 << 10);
            let mut budget = Budget::new(10_000_000);
            let value = prover.value(&Forever, &false, TO_THE_END, 0, &mut budget);
            let claim =
                prover.holds(&Forever, &false, TO_THE_END, Claim::AtLeast(0), &mut Budget::new(10_000_000));
            (value.is_err(), claim.is_err(), prover.value(&Forever, &false, 40, 0, &mut Budget::new(1000)))
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(undecided, (true, true, Ok(0)), "to the end: undecided; to a depth: a value");
}
