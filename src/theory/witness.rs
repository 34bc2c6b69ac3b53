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
//! ([`is_fail_soft_result`], the study's `is_ab_result`). For a node that maximises `-v` over its children, a value `m` is
//! reachable exactly when some child reaches `-m` and every child can be made to give at most `m`:
//!
//! ```text
//! S(n) = { m in union of -S(c) : m >= max over children c of (-max S(c)) }
//! ```
//!
//! Each occurrence of a position in the unfolded tree is extended independently, as in the study's
//! definition on trees; a position reached by two paths may be extended differently on each.
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

use super::is_fail_soft_result;
use crate::game::Game;
use crate::value::Value;

/// Whether `value`, returned by a search of `position` to `depth` plies with the window
/// `(alpha, beta)` (values from the side to move at `position`), is the alpha-beta result of some
/// all-or-none extension of the depth-`depth` tree. See the [module documentation](self).
#[must_use]
pub fn is_witness_result<G: Game>(
    game: &G,
    position: &G::Position,
    depth: u32,
    alpha: Value,
    beta: Value,
    value: Value,
) -> bool {
    extension_values(game, position, depth).iter().any(|&x| is_fail_soft_result(value, x, alpha, beta))
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
        let children: Vec<BTreeSet<Value>> =
            game.moves(position).map(|mv| self.within(&game.play(position, mv), depth - 1)).collect();
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
            let children: Vec<BTreeSet<Value>> =
                game.moves(position).map(|mv| self.beyond(&game.play(position, mv))).collect();
            set.extend(negamax_of_sets(&children));
        }
        self.beyond.insert(key, set.clone());
        set
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
