//! The minimal tree of any game position: the smallest proof of its depth-limited value.
//!
//! Knuth and Moore counted the minimal tree of a uniform tree ([`super::node_types`]): with width
//! `w` and depth `d`, `w^⌈d/2⌉ + w^⌊d/2⌋ − 1` leaves, the least any algorithm must look at to prove
//! the value. Its two halves are two strategies. A proof that the value `v` is a **lower bound**
//! takes, at each node of the side to move, one move that keeps `v`, and at each node of the other
//! side every move; a proof that it is an **upper bound** is the same with the sides' roles
//! exchanged. The two meet along one path from the root (the principal variation), and their union
//! proves that the value is `v`.
//!
//! On a real position the widths differ, the game ends early here and there, and a side may move
//! twice; the smallest proofs are then found by dynamic programming over the game
//! ([`minimal_tree`]): the smallest lower-bound proof of a node takes its cheapest good move, the
//! smallest upper-bound proof all of its moves. This is the limit the oracle's own proofs are
//! measured against (`nullwindow fuzz --engine` proves each claim by null-window tests:
//! [`crate::oracle::proof`]).
//!
//! ```
//! use nullwindow::theory::minimal_tree::minimal_tree;
//! use nullwindow::theory::node_types::minimal_leaves;
//! use nullwindow::tree::Tree;
//!
//! // A uniform tree of width 3 and depth 2, as Knuth and Moore count it.
//! let tree: Tree = "((3 4 5) (1 9 9) (2 9 9))".parse()?;
//! let minimal = minimal_tree(&tree, &tree.root_id(), 2, 1 << 20).unwrap();
//! assert_eq!(minimal.leaves, 5);
//! assert_eq!(u128::from(minimal.leaves), minimal_leaves(3, 2));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashMap;

use crate::game::Game;
use crate::reference::minimax;
use crate::value::Value;

/// The size of a proof: its nodes, and of them its leaves (positions evaluated). Of the smallest
/// proofs, each count is the least of its own: the proof with the fewest nodes may have more leaves
/// than another (a narrow subtree one ply deeper against a wide one), so the two may be counted on
/// different proofs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProofSize {
    /// Every node of the proof, the root and the leaves among them.
    pub nodes: u64,
    /// Its leaves.
    pub leaves: u64,
}

impl ProofSize {
    const LEAF: Self = Self { nodes: 1, leaves: 1 };

    const fn plus(self, other: Self) -> Self {
        Self { nodes: self.nodes + other.nodes, leaves: self.leaves + other.leaves }
    }
}

/// The minimal tree of a position: the smallest proofs that its value is at least and at most
/// what it is, and the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MinimalTree {
    /// The depth-limited value, from the side to move at the position.
    pub value: Value,
    /// The smallest proof that the value is at least `value`.
    pub lower: ProofSize,
    /// The smallest proof that it is at most `value`.
    pub upper: ProofSize,
    /// The least nodes the union of the two proofs can have: they share the path where they meet,
    /// at most `depth + 1` nodes, and that many are counted once (so that this never overstates
    /// the minimal tree).
    pub nodes: u64,
    /// The least leaves the union can have: the two share at most one leaf.
    pub leaves: u64,
}

/// The minimal tree of `position` searched `depth` plies deep, or `None` when finding it would
/// visit more than `budget` nodes. The proofs are counted as trees: a position reached by two paths
/// counts twice (a table would hold it once). See the [module documentation](self).
#[must_use]
pub fn minimal_tree<G: Game>(
    game: &G,
    position: &G::Position,
    depth: u32,
    budget: u64,
) -> Option<MinimalTree> {
    let mut counter = Counter { game, values: HashMap::new(), proofs: HashMap::new(), budget };
    let value = counter.value(position, depth)?;
    let lower = counter.proof(position, depth, value, Bound::AtLeast)?;
    let upper = counter.proof(position, depth, value, Bound::AtMost)?;
    let shared_path = u64::from(depth).saturating_add(1);
    Some(MinimalTree {
        value,
        lower,
        upper,
        nodes: (lower.nodes + upper.nodes).saturating_sub(shared_path).max(lower.nodes.max(upper.nodes)),
        leaves: (lower.leaves + upper.leaves).saturating_sub(1).max(lower.leaves.max(upper.leaves)),
    })
}

/// Which bound a proof shows, from the side to move at its node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Bound {
    AtLeast,
    AtMost,
}

struct Counter<'g, G: Game> {
    game: &'g G,
    /// Values from MAX's side, by key and depth, as [`minimax::value`] keeps them (for games whose
    /// keys identify positions).
    values: HashMap<(u64, u32), Value>,
    proofs: HashMap<(u64, u32, Value, Bound), ProofSize>,
    budget: u64,
}

impl<G: Game> Counter<'_, G> {
    fn spend(&mut self) -> Option<()> {
        self.budget = self.budget.checked_sub(1)?;
        Some(())
    }

    /// The depth-`depth` value of `position` from the side to move there.
    fn value(&mut self, position: &G::Position, depth: u32) -> Option<Value> {
        let value = minimax::value(self.game, position, depth, &mut self.values, self.budget)?;
        Some(self.game.to_move(position).perspective(value))
    }

    /// The smallest proof that the depth-`depth` value of `position` (from the side to move) is
    /// `bound` `value`, which holds.
    fn proof(&mut self, position: &G::Position, depth: u32, value: Value, bound: Bound) -> Option<ProofSize> {
        self.spend()?;
        let game = self.game;
        let memo = game.keys_identify_positions().then(|| (game.key(position), depth, value, bound));
        if let Some(known) = memo.and_then(|key| self.proofs.get(&key)) {
            return Some(*known);
        }
        let size = if depth == 0 || game.is_terminal(position) {
            ProofSize::LEAF
        } else {
            let mover = game.to_move(position);
            let mut children = Vec::new();
            for mv in game.moves(position) {
                let child = game.play(position, mv);
                // The child's bound, from its own side to move.
                let (child_value, child_bound) = if game.to_move(&child) == mover {
                    (value, bound)
                } else {
                    (-value, if bound == Bound::AtLeast { Bound::AtMost } else { Bound::AtLeast })
                };
                children.push((child, child_value, child_bound));
            }
            let node = ProofSize { nodes: 1, leaves: 0 };
            match bound {
                // Every move must keep the value at most `value`.
                Bound::AtMost => {
                    let mut sum = node;
                    for (child, child_value, child_bound) in children {
                        sum = sum.plus(self.proof(&child, depth - 1, child_value, child_bound)?);
                    }
                    sum
                }
                // One move that reaches `value`: the cheapest to prove, by each count.
                Bound::AtLeast => {
                    let mut best: Option<ProofSize> = None;
                    for (child, child_value, child_bound) in children {
                        let reaches = {
                            let own = self.value(&child, depth - 1)?;
                            match child_bound {
                                Bound::AtLeast => own >= child_value,
                                Bound::AtMost => own <= child_value,
                            }
                        };
                        if reaches {
                            let size = self.proof(&child, depth - 1, child_value, child_bound)?;
                            best = Some(best.map_or(size, |best| ProofSize {
                                nodes: best.nodes.min(size.nodes),
                                leaves: best.leaves.min(size.leaves),
                            }));
                        }
                    }
                    node.plus(best?)
                }
            }
        };
        if let Some(key) = memo {
            self.proofs.insert(key, size);
        }
        Some(size)
    }
}
