//! The witness criterion of Wesselink, Huizing and van de Wetering ("Formal Verification of Minimax
//! Algorithms", arXiv:2509.20138): what a depth-limited search that uses table entries of *deeper*
//! searches may return.
//!
//! Such a search need not return the depth-`d` minimax value: a deeper entry answers a node with the
//! value of a deeper search. It must still return the alpha-beta result of *some* **all-or-none
//! extension** of the tree truncated at depth `d`: the tree in which every node closer to the root
//! than `d` keeps all its children, and every node at depth `d` or beyond either stays a leaf (scored
//! by its static evaluation) or keeps *all* its children, each again extended all-or-none. The study
//! proves a Wikipedia-style negamax with a transposition table correct under this criterion and
//! refutes a Marsland-style one ([`crate::literal::wesselink`]).
//!
//! # How it is decided
//!
//! The study enumerates the extensions, which is exponential. Here each node gets the **set of values
//! its extensions can take** (from the side to move), computed bottom-up once per node and depth, and
//! the criterion asks whether that set holds a value `x` the result is an alpha-beta result for
//! ([`is_fail_soft_result`](super::is_fail_soft_result), the study's `is_ab_result`). For a node that maximises `-v` over its children, a value `m` is
//! reachable exactly when some child reaches `-m` and every child can be made to give at most `m`:
//!
//! ```text
//! S(n) = { m in union of -S(c) : m >= max over children c of (-max S(c)) }
//! ```
//!
//! Each occurrence of a position in the unfolded tree is extended independently, as in the study's
//! definition on trees; a position reached by two paths may be extended differently on each.
//!
//! Where the same side moves again (a game with extra turns, which the oracle's judges accept
//! though the drivers do not), a child's values count for its parent unnegated.
//!
//! # Example
//!
//! ```
//! use nullwindow::theory::witness;
//! use nullwindow::tree::Tree;
//! use nullwindow::value::INFINITY;
//!
//! // MAX to move; its second child, a MIN node at depth 1, would be worth 5 if expanded.
//! let tree: Tree = "(3 (5 7))".parse()?;
//! let root = tree.root_id();
//! // Searched 1 ply deep the value is 3, but a search that used a deeper entry for the MIN node
//! // may return 5: the extension that expands that node proves it.
//! assert_eq!(witness::extension_values(&tree, &root, 1), [3, 5].into());
//! assert!(witness::is_witness_result(&tree, &root, 1, -INFINITY, INFINITY, 5));
//! assert!(!witness::is_witness_result(&tree, &root, 1, -INFINITY, INFINITY, 4));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A node left a leaf is scored by [`Game::evaluate`]: for an explicit tree's interior node that is
//! 0, unless its format gives it an evaluation (the `gtree` format does).

use std::collections::{BTreeSet, HashMap};

use crate::game::{Game, Player};
use crate::value::Value;

/// Whether `value`, returned by a search of `position` to `depth` plies with the window
/// `(alpha, beta)` (values from the side to move at `position`), is the alpha-beta result of some
/// all-or-none extension of the depth-`depth` tree. See the [module documentation](self). Decided
/// without a budget: see [`Witness`] for one.
#[must_use]
pub fn is_witness_result<G: Game>(
    game: &G,
    position: &G::Position,
    depth: u32,
    alpha: Value,
    beta: Value,
    value: Value,
) -> bool {
    let mut witness = Witness::new(game, u64::MAX);
    witness.allows(position, depth, alpha, beta, value).unwrap_or(false)
}

/// The budget of a [`Witness`] ran out before it could decide: it visited this many nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undecided {
    /// The budget, in nodes, that was spent.
    pub budget: u64,
}

impl std::fmt::Display for Undecided {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "undecided within the budget of {} nodes", self.budget)
    }
}

impl std::error::Error for Undecided {}

/// The witness criterion decided within a budget, in memory linear in the positions it meets, and
/// without recursion (a chain of millions of positions is no deeper for it than one).
///
/// A result needs no whole set of extension values: the fail-soft rules ask whether some value is
/// at most the result (the set's smallest value), at least it (the largest), or equal to it. The
/// smallest and largest follow from the children's alone, `lowest(n) = max(-highest(c))` and
/// `highest(n) = max(-lowest(c))` over the children `c` (and, past the depth, the node's own
/// evaluation beside them); and whether the set holds one value `m` asks only whether some child's
/// holds `-m`, and whether `m` is at least `lowest(n)`. Each position is visited once per depth
/// (and per value asked about), and the answers are kept for the next question.
pub struct Witness<'g, G: Game> {
    game: &'g G,
    /// The nodes it may still visit.
    left: u64,
    budget: u64,
    /// `(lowest, highest)` by (position, plies left) within the depth, and by position beyond it
    /// (`u32::MAX` plies left).
    range: HashMap<(u64, u32), (Value, Value)>,
    /// Whether the set holds a value, by (position, plies left, value).
    holds: HashMap<(u64, u32, Value), bool>,
}

/// Plies left, for a position at or past the depth: it may be left a leaf or extended to the end.
const BEYOND: u32 = u32::MAX;

/// A question of [`Witness::holds`] under way: does the node (by key, plies left and value asked)
/// hold the value; its position until its children are listed, then its children and the next to ask.
struct Asked<P> {
    key: (u64, u32, Value),
    position: Option<P>,
    /// The side to move at the node.
    mover: Player,
    children: Option<Vec<(P, u32)>>,
    next: usize,
}

impl<'g, G: Game> Witness<'g, G> {
    /// A witness that visits at most `budget` nodes over all its questions.
    #[must_use]
    pub fn new(game: &'g G, budget: u64) -> Self {
        Self { game, left: budget, budget, range: HashMap::new(), holds: HashMap::new() }
    }

    /// Whether `value`, a search's result with the window `(alpha, beta)` at `position` searched
    /// `depth` plies deep (values from the side to move), is an alpha-beta result of some
    /// all-or-none extension: [`is_witness_result`], within the budget.
    ///
    /// # Errors
    /// [`Undecided`] when the budget runs out first.
    pub fn allows(
        &mut self,
        position: &G::Position,
        depth: u32,
        alpha: Value,
        beta: Value,
        value: Value,
    ) -> Result<bool, Undecided> {
        let (lowest, highest) = self.range(position, depth)?;
        if value <= alpha {
            Ok(lowest <= value)
        } else if value >= beta {
            Ok(highest >= value)
        } else {
            self.holds(position, depth, value)
        }
    }

    /// The smallest and the largest value (from the side to move) that some all-or-none extension
    /// of the tree truncated at `depth` plies gives `position`.
    ///
    /// # Errors
    /// [`Undecided`] when the budget runs out first.
    pub fn range(&mut self, position: &G::Position, depth: u32) -> Result<(Value, Value), Undecided> {
        let start = self.node(position, depth);
        // Depth first without recursion: a node is pushed again, `expanded`, below its children.
        let mut stack = vec![(position.clone(), start.1, false)];
        while let Some((at, left, expanded)) = stack.pop() {
            let key = (self.game.key(&at), left);
            if self.range.contains_key(&key) {
                continue;
            }
            let children = self.children(&at, left);
            if expanded || children.is_empty() {
                let own = (left == BEYOND || children.is_empty()).then(|| self.game.evaluate_for_mover(&at));
                let mut lowest: Option<Value> = None;
                let mut highest: Option<Value> = None;
                for (child, child_left) in &children {
                    let range = self.range[&(self.game.key(child), *child_left)];
                    let (child_lowest, child_highest) = self.for_parent(&at, child, range);
                    lowest = Some(lowest.map_or(child_lowest, |l| l.max(child_lowest)));
                    highest = Some(highest.map_or(child_highest, |h| h.max(child_highest)));
                }
                let range = match (own, lowest, highest) {
                    (Some(own), Some(lowest), Some(highest)) => (own.min(lowest), own.max(highest)),
                    (Some(own), _, _) => (own, own),
                    (None, Some(lowest), Some(highest)) => (lowest, highest),
                    (None, _, _) => unreachable!("a node with no children evaluates itself"),
                };
                self.range.insert(key, range);
            } else {
                self.spend()?;
                stack.push((at, left, true));
                stack.extend(children.into_iter().map(|(child, child_left)| (child, child_left, false)));
            }
        }
        Ok(self.range[&(self.game.key(position), start.1)])
    }

    /// Whether some all-or-none extension gives `position`, searched `depth` plies deep, exactly
    /// `value` (from the side to move).
    ///
    /// # Errors
    /// [`Undecided`] when the budget runs out first.
    pub fn holds(&mut self, position: &G::Position, depth: u32, value: Value) -> Result<bool, Undecided> {
        self.range(position, depth)?;
        let left = self.node(position, depth).1;
        // A path down from the node along which the value passes, negated at each ply: depth first,
        // each node's children tried in turn; a node's answer is known once one child holds the
        // value or every child has said no.
        let key = (self.game.key(position), left, value);
        let mover = self.game.to_move(position);
        let mut stack = vec![Asked { key, position: Some(position.clone()), mover, children: None, next: 0 }];
        let mut answer = false;
        while let Some(mut asked) = stack.pop() {
            let (_, at_left, m) = asked.key;
            let children = match asked.children.take() {
                Some(children) => {
                    if answer {
                        // The child just asked holds `-m`: so does this node.
                        self.holds.insert(asked.key, true);
                        continue;
                    }
                    children
                }
                None => {
                    if let Some(&known) = self.holds.get(&asked.key) {
                        answer = known;
                        continue;
                    }
                    self.spend()?;
                    let at = asked.position.take().expect("a new question has its position");
                    let children = self.children(&at, at_left);
                    let own =
                        (at_left == BEYOND || children.is_empty()) && self.game.evaluate_for_mover(&at) == m;
                    let floor = children
                        .iter()
                        .map(|(child, child_left)| {
                            self.for_parent(&at, child, self.range[&(self.game.key(child), *child_left)]).0
                        })
                        .max();
                    if own || floor.is_none_or(|floor| m < floor) {
                        // Its own evaluation gives it; or no child's value can reach it.
                        self.holds.insert(asked.key, own);
                        answer = own;
                        continue;
                    }
                    children
                }
            };
            if let Some((child, child_left)) = children.get(asked.next).cloned() {
                let child_mover = self.game.to_move(&child);
                let turned = if child_mover == asked.mover { m } else { -m };
                let child_key = (self.game.key(&child), child_left, turned);
                let next = asked.next + 1;
                stack.push(Asked {
                    key: asked.key,
                    position: None,
                    mover: asked.mover,
                    children: Some(children),
                    next,
                });
                stack.push(Asked {
                    key: child_key,
                    position: Some(child),
                    mover: child_mover,
                    children: None,
                    next: 0,
                });
            } else {
                self.holds.insert(asked.key, false);
                answer = false;
            }
        }
        Ok(answer)
    }

    /// A child's range of values (from the side to move at the child) from the side to move at
    /// `parent`: negated where the side changes, as it does with every move in an alternating
    /// game; kept where the same side moves again.
    fn for_parent(
        &self,
        parent: &G::Position,
        child: &G::Position,
        (low, high): (Value, Value),
    ) -> (Value, Value) {
        if self.game.to_move(parent) == self.game.to_move(child) { (low, high) } else { (-high, -low) }
    }

    /// The plies left at `position` searched `depth` deep: `BEYOND` once the depth is spent.
    const fn node<'p>(&self, position: &'p G::Position, depth: u32) -> (&'p G::Position, u32) {
        (position, if depth == 0 { BEYOND } else { depth })
    }

    /// The children of a node with `left` plies left, with theirs; none at a terminal position.
    fn children(&self, position: &G::Position, left: u32) -> Vec<(G::Position, u32)> {
        if self.game.is_terminal(position) {
            return Vec::new();
        }
        let child_left = match left {
            BEYOND | 1 => BEYOND,
            left => left - 1,
        };
        self.game.moves(position).map(|mv| (self.game.play(position, mv), child_left)).collect()
    }

    fn spend(&mut self) -> Result<(), Undecided> {
        if self.left == 0 {
            return Err(Undecided { budget: self.budget });
        }
        self.left -= 1;
        Ok(())
    }
}

/// Every value (from the side to move at `position`) that some all-or-none extension of the tree
/// truncated at `depth` plies gives `position`. The depth-`depth` negamax value is always one of
/// them: the extension that expands nothing. Beyond the depth, the extension may reach down to the
/// end of the game, so keep this to small trees and games.
#[must_use]
pub fn extension_values<G: Game>(game: &G, position: &G::Position, depth: u32) -> BTreeSet<Value> {
    let mut sets = Sets { game, within: HashMap::new(), beyond: HashMap::new() };
    sets.within(position, depth)
}

/// The memoized value sets: `within` by (position, remaining depth) for nodes the truncated tree
/// keeps whole, `beyond` by position for nodes at or past the depth, which may be extended or not.
struct Sets<'a, G: Game> {
    game: &'a G,
    within: HashMap<(u64, u32), BTreeSet<Value>>,
    beyond: HashMap<u64, BTreeSet<Value>>,
}

impl<G: Game> Sets<'_, G> {
    fn within(&mut self, position: &G::Position, depth: u32) -> BTreeSet<Value> {
        if depth == 0 {
            return self.beyond(position);
        }
        if self.game.is_terminal(position) {
            return BTreeSet::from([self.game.evaluate_for_mover(position)]);
        }
        let key = (self.game.key(position), depth);
        if let Some(set) = self.within.get(&key) {
            return set.clone();
        }
        let game = self.game;
        let children: Vec<BTreeSet<Value>> = game
            .moves(position)
            .map(|mv| {
                let child = game.play(position, mv);
                let set = self.within(&child, depth - 1);
                self.for_negamax(position, &child, set)
            })
            .collect();
        let set = negamax_of_sets(&children);
        self.within.insert(key, set.clone());
        set
    }

    /// A node at or past the depth: left a leaf (its evaluation) or expanded, each child again
    /// either.
    fn beyond(&mut self, position: &G::Position) -> BTreeSet<Value> {
        let key = self.game.key(position);
        if let Some(set) = self.beyond.get(&key) {
            return set.clone();
        }
        let mut set = BTreeSet::from([self.game.evaluate_for_mover(position)]);
        if !self.game.is_terminal(position) {
            let game = self.game;
            let children: Vec<BTreeSet<Value>> = game
                .moves(position)
                .map(|mv| {
                    let child = game.play(position, mv);
                    let set = self.beyond(&child);
                    self.for_negamax(position, &child, set)
                })
                .collect();
            set.extend(negamax_of_sets(&children));
        }
        self.beyond.insert(key, set.clone());
        set
    }
}

impl<G: Game> Sets<'_, G> {
    /// A child's set as [`negamax_of_sets`] takes it, which negates every child's values: where the
    /// same side moves again the child's values count unnegated, so they come in negated.
    fn for_negamax(
        &self,
        parent: &G::Position,
        child: &G::Position,
        set: BTreeSet<Value>,
    ) -> BTreeSet<Value> {
        if self.game.to_move(parent) == self.game.to_move(child) {
            set.iter().map(|&v| -v).collect()
        } else {
            set
        }
    }
}

// ANCHOR: negamax_of_sets
/// The values `max(-v_1, …, -v_k)` can take when each `v_i` ranges over `children[i]`: a candidate
/// `m` (some `-v_i`) is reachable when every child can give at most `m`, that is when `m` is at
/// least the largest of the children's smallest negated values.
fn negamax_of_sets(children: &[BTreeSet<Value>]) -> BTreeSet<Value> {
    // Every set is non-empty: a node's set always holds at least one value.
    let floor = children.iter().filter_map(|set| set.last().map(|&largest| -largest)).max();
    let Some(floor) = floor else { return BTreeSet::new() };
    children.iter().flat_map(|set| set.iter().map(|&v| -v)).filter(|&m| m >= floor).collect()
}
// ANCHOR_END: negamax_of_sets

#[cfg(test)]
mod tests {
    use super::*;
    use crate::theory::is_fail_soft_result;
    use crate::tree::Tree;
    use crate::value::INFINITY;

    #[test]
    fn the_unextended_tree_gives_the_depth_limited_value() {
        let tree: Tree = "((3 17) (2 12) (15 (25 0)))".parse().unwrap();
        let root = tree.root();
        // Two plies: the (25 0) node is a leaf of evaluation 0, so the depth-2 value is 2 or 15's
        // branch min(15, 0) = 0, max(3, 2, 0) = 3; expanded, it is min(15, 25) = 15.
        assert_eq!(extension_values(&tree, &root, 2), [3, 15].into());
        assert_eq!(extension_values(&tree, &root, u32::MAX), [15].into());
    }

    #[test]
    fn alpha_beta_results_follow_the_window() {
        assert!(is_fail_soft_result(2, 1, 2, 5)); // fail low: 1 <= 2
        assert!(!is_fail_soft_result(2, 3, 2, 5));
        assert!(is_fail_soft_result(5, 9, 2, 5)); // fail high: 9 >= 5
        assert!(is_fail_soft_result(3, 3, 2, 5) && !is_fail_soft_result(3, 4, 2, 5));
        assert!(is_fail_soft_result(0, 0, -INFINITY, INFINITY));
    }
}
