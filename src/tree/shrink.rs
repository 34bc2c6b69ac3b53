//! Delta debugging for trees: the smallest tree on which a test still fails.
//!
//! An engine that goes wrong on a random tree of a thousand nodes is hard to debug; the same bug on
//! five nodes is easy. [`shrink`] takes a tree on which a test fails and a predicate that says
//! whether a smaller candidate still fails, and tries reductions until none is kept, largest first:
//!
//! 1. **chains**: every chain of single children shortened by two plies at once (each node with
//!    one child that has one child gives its place to that grandchild, once per chain), which keeps
//!    the sides and every leaf's distance from the others: a bug that needs two leaves at the same
//!    depth survives it where shortening one chain alone would lose it;
//! 2. **hoist**: replace a node by one of its children or grandchildren (the smallest first);
//! 3. **prune**: turn an interior node into a leaf, or remove its children, halves first, then
//!    quarters, down to one at a time (ddmin), always keeping one;
//! 4. **values**: move every leaf value (and in a graph every evaluation) toward 0: 0 first, then
//!    halving the distance, binary-search style.
//!
//! A tree the parenthesis format can print (a MAX root, no interior evaluations, no shared nodes;
//! [`text::losses`](super::text::losses) is empty) stays printable: players follow the depth, so a
//! hoisted child takes its parent's colour. Any other tree keeps every node's colour and evaluation,
//! so a node is hoisted only into the place of its grandparent, where colours still alternate (the
//! root may be replaced by a child too: a `gtree` root may be either colour). Which of the two a
//! round follows is read off the tree it starts from.
//!
//! **A graph never grows.** A step replaces a node wherever it stands, in every parent, and removes
//! links; it never copies a node. So the number of nodes, as a `gtree` file counts them (one line
//! each), never rises, and a node shared by two parents stays shared until a step removes one of
//! the links.
//!
//! **The result is 1-minimal.** Every kept candidate is smaller by a measure that cannot fall
//! forever (the nodes, then the links, then the sum of the values' distances from 0), so shrinking
//! ends, and it ends only after a whole round in which no candidate was kept. So no single step of
//! the repertoire, as [`single_steps`] lists them, still fails on the result: shortening the chains,
//! one hoist, making one node a leaf, removing one child, setting one value to 0 or moving it one
//! closer to 0. (1-minimal is not minimal: a smaller failing tree may be two steps away.) The only
//! exception is a shrink stopped by its budget of tests, which [`Shrunk::complete`] reports. It is
//! deterministic: the same tree and the same answers give the same result, and shrinking the
//! result again changes nothing. Candidates are numbered compactly, in preorder from the root, as
//! the `gtree` reader numbers nodes.
//!
//! ```
//! use nullwindow::tree::{Tree, shrink::shrink};
//!
//! // The test fails while some leaf is worth 50 or more.
//! let tree: Tree = "((3 17 (60 -4)) (2 (12 55)) (15 (25 0)))".parse()?;
//! let has_a_big_leaf = |tree: &Tree| tree.post_order().into_iter().any(|n| tree.is_leaf(n) && tree.evaluation(n) >= 50);
//! let smallest = shrink(&tree, has_a_big_leaf);
//! assert_eq!(smallest.to_string(), "50");
//! # Ok::<(), nullwindow::tree::text::ParseError>(())
//! ```

use std::convert::Infallible;

use super::text::printed_sizes;
use super::{NodeId, Tree, from_child_lists};
use crate::game::Player;
use crate::value::Value;

/// Where a shrink stands, reported after every test of a candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Candidates tested so far.
    pub tests: u64,
    /// Candidates kept (they still failed).
    pub kept: u64,
    /// Nodes of the smallest failing tree so far.
    pub nodes: usize,
}

/// The result of [`try_shrink`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shrunk {
    /// The smallest failing tree found.
    pub tree: Tree,
    /// Candidates tested.
    pub tests: u64,
    /// Candidates kept.
    pub kept: u64,
    /// Whether the tree is a fixpoint, 1-minimal: no single step of [`single_steps`] still fails;
    /// `false` when the test budget ran out first.
    pub complete: bool,
}

/// The smallest tree found on which `still_fails` holds, starting from `tree`, on which it is
/// assumed to hold (it is not asked). See the [module documentation](self).
#[must_use]
pub fn shrink(tree: &Tree, mut still_fails: impl FnMut(&Tree) -> bool) -> Tree {
    match try_shrink(tree, u64::MAX, |candidate| Ok::<_, Infallible>(still_fails(candidate)), |_| {}) {
        Ok(shrunk) => shrunk.tree,
        Err(never) => match never {},
    }
}

/// As [`shrink`], with a test that may itself fail (an external command that cannot run): its
/// first error ends the shrink and is returned. At most `max_tests` candidates are tested; then the
/// smallest failing tree so far is returned, marked incomplete. `progress` hears of every test.
///
/// ```
/// use nullwindow::tree::{Tree, shrink::try_shrink};
///
/// let tree: Tree = "((3 17) (2 12) (15 (25 0)))".parse()?;
/// // Fails while the tree has at least four leaves; the test budget stops it early.
/// let shrunk = try_shrink(&tree, 3, |t| Ok::<_, String>(t.stats().leaves >= 4), |_| {})?;
/// assert!(!shrunk.complete && shrunk.tests == 3 && shrunk.tree.stats().leaves >= 4);
/// let shrunk = try_shrink(&tree, u64::MAX, |t| Ok::<_, String>(t.stats().leaves >= 4), |_| {})?;
/// // A fixpoint: no single hoist, prune or value step keeps four leaves. Not always the smallest
/// // tree there is: (0 0 0 0) has a node fewer, but is not one step away.
/// assert!(shrunk.complete);
/// assert_eq!(shrunk.tree.to_string(), "(0 0 (0 0))");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// The first error `still_fails` returns.
pub fn try_shrink<E>(
    tree: &Tree,
    max_tests: u64,
    mut still_fails: impl FnMut(&Tree) -> Result<bool, E>,
    mut progress: impl FnMut(&Progress),
) -> Result<Shrunk, E> {
    let mut shrinker = Shrinker {
        current: tree.clone(),
        printable: super::text::losses(tree).is_empty(),
        tests: 0,
        kept: 0,
        max_tests,
        still_fails: &mut still_fails,
        progress: &mut progress,
    };
    let complete = loop {
        match shrinker.round() {
            Ok(true) => {}
            Ok(false) => break true,
            Err(Halt::OutOfTests) => break false,
            Err(Halt::Error(error)) => return Err(error),
        }
    };
    Ok(Shrunk { tree: shrinker.current, tests: shrinker.tests, kept: shrinker.kept, complete })
}

/// Why a round stopped early.
enum Halt<E> {
    OutOfTests,
    Error(E),
}

/// A tree as editable lists: the arena's nodes under their numbers, and the root.
#[derive(Clone)]
struct Work {
    evaluation: Vec<Value>,
    player: Vec<Player>,
    children: Vec<Vec<u32>>,
    root: u32,
}

impl Work {
    fn new(tree: &Tree) -> Self {
        let ids = (0..tree.node_count()).map(|i| NodeId(u32::try_from(i).unwrap_or(u32::MAX)));
        Self {
            evaluation: ids.clone().map(|node| tree.evaluation(node)).collect(),
            player: ids.clone().map(|node| tree.player(node)).collect(),
            children: ids.map(|node| tree.children(node).iter().map(|child| child.0).collect()).collect(),
            root: tree.root_id().0,
        }
    }

    /// Puts `replacement` wherever `node` stood: at the root, or in every parent's list (once, if
    /// the parent already had it).
    fn replace(&mut self, node: u32, replacement: u32) {
        if self.root == node {
            self.root = replacement;
        }
        for children in &mut self.children {
            if let Some(at) = children.iter().position(|&child| child == node) {
                if children.contains(&replacement) {
                    children.remove(at);
                } else {
                    children[at] = replacement;
                }
            }
        }
    }

    /// The tree reachable from the root, numbered in preorder. A `printable` tree gets players by
    /// depth from a MAX root and interior evaluations 0, as the parenthesis format would read it.
    fn to_tree(&self, printable: bool) -> Tree {
        from_child_lists(self.root, &self.children, |node, parent| {
            let node = node as usize;
            if printable {
                let evaluation = if self.children[node].is_empty() { self.evaluation[node] } else { 0 };
                (evaluation, parent.map_or(Player::Max, Player::opponent))
            } else {
                (self.evaluation[node], self.player[node])
            }
        })
        .0
    }
}

/// The nodes that may take `node`'s place in one hoist, the smallest first: its grandchildren,
/// and its children where a child may change colour (a `printable` tree, or at the root).
fn hoists(tree: &Tree, node: NodeId, printable: bool) -> Vec<u32> {
    let sizes = printed_sizes(tree);
    let children = tree.children(node);
    let mut replacements: Vec<u32> = Vec::new();
    if printable || node == tree.root_id() {
        replacements.extend(children.iter().map(|child| child.0));
    }
    for &child in children {
        replacements.extend(tree.children(child).iter().map(|grandchild| grandchild.0));
    }
    replacements.sort_by_key(|&candidate| (sizes[candidate as usize], candidate));
    replacements.dedup();
    replacements
}

impl Work {
    /// Every chain of single children shortened by two plies, all at once; `None` when the tree has
    /// no such chain. Walking down from the root, a node with one child that has one child gives
    /// its place to that grandchild (of its own colour), and the rest of that chain is left as it
    /// is, so every chain loses exactly two plies.
    fn chains_shortened(&self) -> Option<Self> {
        let mut shortened = self.clone();
        let mut changed = false;
        let mut seen = vec![false; self.children.len()];
        let mut stack = vec![self.root];
        while let Some(node) = stack.pop() {
            if std::mem::replace(&mut seen[node as usize], true) {
                continue;
            }
            let mut below = node;
            if let [child] = self.children[node as usize][..]
                && let [grandchild] = self.children[child as usize][..]
            {
                shortened.replace(node, grandchild);
                changed = true;
                below = grandchild;
                while let [next] = self.children[below as usize][..] {
                    below = next;
                }
            }
            stack.extend(self.children[below as usize].iter().rev());
        }
        changed.then_some(shortened)
    }
}

/// Every candidate one step of the shrinker's repertoire makes from `tree`, in no set order and
/// without repeats (a step that changes nothing is left out): the chains shortened, each hoist,
/// each interior node made a leaf, each child of a node with several removed, and each value (a
/// leaf's, or in a tree the parenthesis format cannot print any evaluation) set to 0 and moved one
/// closer to 0. A complete shrink's result is a tree on which the test passes for every one of
/// them (see the [module documentation](self)); a test can check that with this list.
///
/// ```
/// use nullwindow::tree::{Tree, shrink::single_steps};
///
/// let tree: Tree = "(((((1)))) ((((1))) 0))".parse()?;
/// let steps: Vec<String> = single_steps(&tree).iter().map(Tree::to_string).collect();
/// // Both chains two plies shorter at once: every leaf keeps its distance from the others.
/// assert!(steps.contains(&"(((1)) ((1) 0))".to_owned()));
/// # Ok::<(), nullwindow::tree::text::ParseError>(())
/// ```
#[must_use]
pub fn single_steps(tree: &Tree) -> Vec<Tree> {
    let printable = super::text::losses(tree).is_empty();
    let work = Work::new(tree);
    let mut candidates: Vec<Work> = work.chains_shortened().into_iter().collect();
    for node in 0..u32::try_from(tree.node_count()).unwrap_or(u32::MAX) {
        let index = node as usize;
        for replacement in hoists(tree, NodeId(node), printable) {
            let mut candidate = work.clone();
            candidate.replace(node, replacement);
            candidates.push(candidate);
        }
        if !work.children[index].is_empty() {
            let mut leaf = work.clone();
            leaf.children[index].clear();
            candidates.push(leaf);
        }
        if work.children[index].len() > 1 {
            for slot in 0..work.children[index].len() {
                let mut candidate = work.clone();
                candidate.children[index].remove(slot);
                candidates.push(candidate);
            }
        }
        if !printable || work.children[index].is_empty() {
            let value = work.evaluation[index];
            for moved in [0, value - value.signum()] {
                let mut candidate = work.clone();
                candidate.evaluation[index] = moved;
                candidates.push(candidate);
            }
        }
    }
    let mut steps: Vec<Tree> = Vec::new();
    for candidate in candidates {
        let candidate = candidate.to_tree(printable);
        if candidate != *tree && !steps.contains(&candidate) {
            steps.push(candidate);
        }
    }
    steps
}

struct Shrinker<'a, E> {
    current: Tree,
    /// Whether the parenthesis format can print the trees (see the module documentation).
    printable: bool,
    tests: u64,
    kept: u64,
    max_tests: u64,
    still_fails: &'a mut dyn FnMut(&Tree) -> Result<bool, E>,
    progress: &'a mut dyn FnMut(&Progress),
}

impl<E> Shrinker<'_, E> {
    /// One pass of every reduction; whether any candidate was kept.
    fn round(&mut self) -> Result<bool, Halt<E>> {
        let before = self.kept;
        self.printable = super::text::losses(&self.current).is_empty();
        self.chains()?;
        self.hoist()?;
        self.prune()?;
        self.values()?;
        Ok(self.kept > before)
    }

    /// Tests `work` as a candidate and keeps it if it still fails; whether it was kept.
    fn attempt(&mut self, work: &Work) -> Result<bool, Halt<E>> {
        let candidate = work.to_tree(self.printable);
        if candidate == self.current {
            return Ok(false);
        }
        if self.tests >= self.max_tests {
            return Err(Halt::OutOfTests);
        }
        self.tests += 1;
        let fails = (self.still_fails)(&candidate).map_err(Halt::Error)?;
        if fails {
            self.current = candidate;
            self.kept += 1;
        }
        (self.progress)(&Progress { tests: self.tests, kept: self.kept, nodes: self.current.node_count() });
        Ok(fails)
    }

    /// The node numbers of the current tree, one by one, even as kept candidates renumber it: a
    /// candidate changes only the part of the tree at and after the node it edits, so the nodes
    /// before it keep their numbers.
    fn node_count(&self) -> u32 {
        u32::try_from(self.current.node_count()).unwrap_or(u32::MAX)
    }

    fn chains(&mut self) -> Result<(), Halt<E>> {
        if let Some(shorter) = Work::new(&self.current).chains_shortened() {
            self.attempt(&shorter)?;
        }
        Ok(())
    }

    fn hoist(&mut self) -> Result<(), Halt<E>> {
        let mut node = 0;
        'nodes: while node < self.node_count() {
            let work = Work::new(&self.current);
            for replacement in hoists(&self.current, NodeId(node), self.printable) {
                let mut candidate = work.clone();
                candidate.replace(node, replacement);
                if self.attempt(&candidate)? {
                    continue 'nodes;
                }
            }
            node += 1;
        }
        Ok(())
    }

    fn prune(&mut self) -> Result<(), Halt<E>> {
        let mut node = 0;
        while node < self.node_count() {
            let index = node as usize;
            let mut work = Work::new(&self.current);
            if work.children[index].is_empty() {
                node += 1;
                continue;
            }
            let mut leaf = work.clone();
            leaf.children[index].clear();
            if self.attempt(&leaf)? {
                node += 1;
                continue;
            }
            // ddmin on the children list: remove runs of half, a quarter, … of it, one at a time.
            let mut run = work.children[index].len() / 2;
            while run >= 1 {
                let mut start = 0;
                while start < work.children[index].len() && work.children[index].len() > 1 {
                    let end = (start + run).min(work.children[index].len());
                    if end - start == work.children[index].len() {
                        break;
                    }
                    let mut candidate = work.clone();
                    candidate.children[index].drain(start..end);
                    if self.attempt(&candidate)? {
                        work = Work::new(&self.current);
                    } else {
                        start = end;
                    }
                }
                run /= 2;
            }
            node += 1;
        }
        Ok(())
    }

    fn values(&mut self) -> Result<(), Halt<E>> {
        for node in 0..self.node_count() {
            let id = NodeId(node);
            if self.printable && !self.current.is_leaf(id) {
                continue;
            }
            // `fails` still fails; `passes` is the nearest value to 0 known not to.
            let mut fails = i64::from(self.current.evaluation(id));
            let mut passes = 0i64;
            let mut first = true;
            while fails != passes && (first || (fails - passes).abs() > 1) {
                let value = if first { 0 } else { passes + (fails - passes) / 2 };
                first = false;
                let mut work = Work::new(&self.current);
                work.evaluation[node as usize] = Value::try_from(value).unwrap_or(0);
                if self.attempt(&work)? {
                    fails = value;
                } else {
                    passes = value;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::gtree;

    #[test]
    fn a_tree_that_must_keep_its_shape_keeps_it() {
        // Fails while the root has three children: the values all go to 0.
        let tree: Tree = "((3 17) (2 12) (15 (25 0)))".parse().unwrap();
        let smallest = shrink(&tree, |t| t.children(t.root_id()).len() == 3);
        assert_eq!(smallest.to_string(), "(0 0 0)");
    }

    #[test]
    fn graphs_keep_their_colours_and_their_sharing_when_it_matters() {
        let graph = gtree::parse("r 4 W a b x\na 3 B c\nb -2 B c\nc 7 W d\nd 9 B\nx 5 B\n").unwrap();
        let shared = shrink(&graph, Tree::has_shared_nodes);
        assert!(shared.has_shared_nodes());
        // Four nodes, the least a shared node needs: here a MIN leaf reached at two depths.
        assert_eq!(gtree::print(&shared), "0 0 W 1 2\n1 0 B\n2 0 B 3\n3 0 W 1\n");
        // A test that always fails leaves one node, worth 0: here the MIN leaf x, hoisted to the root.
        assert_eq!(gtree::print(&shrink(&graph, |_| true)), "0 0 B\n");
        // A MIN node with an evaluation of at least 3 must remain, at the root or below it.
        let min_three =
            |t: &Tree| t.post_order().into_iter().any(|n| t.player(n) == Player::Min && t.evaluation(n) >= 3);
        assert_eq!(gtree::print(&shrink(&graph, min_three)), "0 3 B\n");
    }

    #[test]
    fn an_error_of_the_test_ends_the_shrink() {
        let tree: Tree = "((1 2) 3)".parse().unwrap();
        let result = try_shrink(&tree, u64::MAX, |_| Err::<bool, _>("killed"), |_| {});
        assert_eq!(result, Err("killed"));
    }
}
