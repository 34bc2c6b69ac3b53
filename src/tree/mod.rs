//! Explicit game trees: an arena of nodes, built from text, from random seeds, or by hand.
//!
//! A [`Tree`] stores every node in one vector and every edge in another (no `Box` per node), so a tree
//! of millions of leaves is a few flat allocations. Leaves may stand at any depth (irregular trees), and
//! a node may have several parents: a `gtree` file can describe a game *graph* with transpositions,
//! which share the node and so its [`Game::key`].
//!
//! * [`text`]: the parenthesis format, `((3 17) (2 12) (15 (25 0)))`.
//! * [`gtree`]: the one-node-per-line `gtree` format, with an evaluation on every node and shared
//!   children.
//! * [`random`]: seeded random trees, identical on every platform.
//! * [`random_graph`]: seeded random game graphs with transpositions, identical on every platform.
//! * [`unfold`]: a [`Game`] from a position to a depth, as a tree or a graph of its transpositions.
//! * [`shrink`]: delta debugging, the smallest tree on which a test still fails.
//! * [`synthetic`]: implicit uniform trees computed on demand, for searches at scale.
//! * [`examples`]: the small trees the documentation and the demo use.
//!
//! # As a game
//!
//! A tree implements [`Game`]: a position is a [`NodeId`], a move is the 0-based index of a child, a
//! node's key is its id. [`Game::evaluate`] returns the node's stored evaluation: a leaf's value, or at
//! an interior node the static evaluation a depth-limited search uses when it stops there. Trees
//! read from the parenthesis format give every interior node the evaluation **0**; a `gtree` file,
//! [`TreeBuilder::open_evaluated`], [`random::RandomTreeConfig::interior_values`] and [`unfold`]
//! give each node its own.
//!
//! # As text
//!
//! A tree's [`Display`](fmt::Display) form is lossless: the parenthesis format when it can hold the
//! tree, the `gtree` format otherwise; [`str::parse`] ([`parse_any`]) reads either.
//!
//! # Limits
//!
//! A tree holds at most `u32::MAX` nodes. Building, parsing, printing and measuring a tree never
//! recurse, so a chain a million levels deep is fine; the searches do recurse, one stack frame per
//! level, so the command line refuses to search trees taller than [`MAX_SEARCH_HEIGHT`].

pub mod examples;
pub mod gtree;
pub mod random;
pub mod random_graph;
pub mod shrink;
pub mod synthetic;
pub mod text;
pub mod unfold;

use std::collections::HashMap;
use std::fmt;
use std::ops::Range;

use crate::game::{Game, Player};
use crate::value::{Value, is_admissible};

/// The tallest tree the command line searches. Searches recurse once per level; on the stack the
/// command line gives them, this many levels fit with room to spare.
pub const MAX_SEARCH_HEIGHT: u32 = 100_000;

/// The index of a node in its [`Tree`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The node's position in the arena.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// One node of the arena: its evaluation, the player to move, and where its children are listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Node {
    evaluation: Value,
    player: Player,
    first_edge: u32,
    child_count: u32,
}

/// A game tree (or game graph) stored as an arena. See the [module documentation](self).
///
/// Two trees are equal when their arenas hold the same nodes under the same numbers: the same root,
/// and for every node the same evaluation, player and children in the same order.
#[derive(Clone, Debug)]
pub struct Tree {
    nodes: Vec<Node>,
    edges: Vec<NodeId>,
    root: NodeId,
    /// Derived at construction: the longest root-to-leaf path, and the most children of any node.
    height: u32,
    max_width: u32,
}

/// The part of a graph given as child lists (`children[n]`: the children of node `n`, in order)
/// that `root` reaches, as a [`Tree`] numbered depth-first in preorder, first children first (the
/// order the `gtree` reader numbers nodes in), and each new node's number in the lists. `label`
/// gives a node its evaluation and player, told the player of the parent it is first reached from
/// (`None` at the root); it is asked once per node, parents first.
pub(crate) fn from_child_lists(
    root: u32,
    children: &[Vec<u32>],
    mut label: impl FnMut(u32, Option<Player>) -> (Value, Player),
) -> (Tree, Vec<u32>) {
    let unnumbered = u32::MAX;
    let mut new_id = vec![unnumbered; children.len()];
    let mut order = vec![root];
    let mut labels = vec![label(root, None)];
    new_id[root as usize] = 0;
    let mut stack = vec![(root, 0usize)];
    while let Some((node, next)) = stack.last_mut() {
        let node = *node;
        let Some(&child) = children[node as usize].get(*next) else {
            stack.pop();
            continue;
        };
        *next += 1;
        if new_id[child as usize] == unnumbered {
            new_id[child as usize] = u32::try_from(order.len()).unwrap_or(unnumbered);
            let parent_player = labels[new_id[node as usize] as usize].1;
            labels.push(label(child, Some(parent_player)));
            order.push(child);
            stack.push((child, 0));
        }
    }
    let mut nodes = Vec::with_capacity(order.len());
    let mut edges = Vec::new();
    for (&node, (evaluation, player)) in order.iter().zip(labels) {
        let kept = &children[node as usize];
        nodes.push(Node {
            evaluation,
            player,
            first_edge: u32::try_from(edges.len()).unwrap_or(u32::MAX),
            child_count: u32::try_from(kept.len()).unwrap_or(u32::MAX),
        });
        edges.extend(kept.iter().map(|&child| NodeId(new_id[child as usize])));
    }
    (Tree::from_parts(nodes, edges, NodeId(0)), order)
}

/// Sizes of a tree, counted over distinct nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeStats {
    /// Distinct nodes reachable from the root.
    pub nodes: u64,
    /// Distinct leaves (nodes without children).
    pub leaves: u64,
    /// Edges on the longest path from the root to a leaf (a lone leaf has height 0).
    pub height: u32,
}

impl Tree {
    /// The root node.
    #[must_use]
    pub const fn root_id(&self) -> NodeId {
        self.root
    }

    /// The number of nodes in the arena.
    #[must_use]
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The children of `node`, in order.
    #[must_use]
    pub fn children(&self, node: NodeId) -> &[NodeId] {
        &self.edges[self.edge_range(node)]
    }

    /// The evaluation stored at `node` (from MAX's side).
    #[must_use]
    pub fn evaluation(&self, node: NodeId) -> Value {
        self.nodes[node.index()].evaluation
    }

    /// The player to move at `node`.
    #[must_use]
    pub fn player(&self, node: NodeId) -> Player {
        self.nodes[node.index()].player
    }

    /// Whether `node` has no children.
    #[must_use]
    pub fn is_leaf(&self, node: NodeId) -> bool {
        self.nodes[node.index()].child_count == 0
    }

    /// Whether some node has more than one parent (the tree is a game graph with transpositions).
    #[must_use]
    pub fn has_shared_nodes(&self) -> bool {
        self.edges.len() + 1 != self.nodes.len()
    }

    /// The node reached from the root by following child indices, or `None` if a step is out of range.
    #[must_use]
    pub fn node_at(&self, path: &[u32]) -> Option<NodeId> {
        path.iter().try_fold(self.root, |node, &child| self.children(node).get(child as usize).copied())
    }

    /// The part of the tree below `node`, as a tree of its own rooted there, and for each of its
    /// nodes the id it has in this tree. Nodes keep their evaluations and players (so the new root
    /// may be MIN's), shared nodes stay shared, and nodes are numbered depth-first from the new root.
    ///
    /// ```
    /// use nullwindow::tree::Tree;
    /// let tree: Tree = "((3 17) (2 12) (15 (25 0)))".parse()?;
    /// let node = tree.node_at(&[2]).unwrap();
    /// let (subtree, original) = tree.subtree(node);
    /// // Its root is MIN's, which the parenthesis format cannot say, so it displays as gtree.
    /// assert_eq!(subtree.to_string(), "0 0 B 1 2\n1 15 W\n2 0 W 3 4\n3 25 B\n4 0 B\n");
    /// assert_eq!(original[subtree.root_id().index()], node);
    /// # Ok::<(), nullwindow::tree::text::ParseError>(())
    /// ```
    #[must_use]
    pub fn subtree(&self, node: NodeId) -> (Self, Vec<NodeId>) {
        let children: Vec<Vec<u32>> = (0..self.nodes.len())
            .map(|i| self.edges[self.edge_range(NodeId(i as u32))].iter().map(|c| c.0).collect())
            .collect();
        let (tree, original) = from_child_lists(node.0, &children, |old, _| {
            let kept = self.nodes[old as usize];
            (kept.evaluation, kept.player)
        });
        (tree, original.into_iter().map(NodeId).collect())
    }

    /// Every node reachable from the root, each once, children before parents.
    #[must_use]
    pub fn post_order(&self) -> Vec<NodeId> {
        let mut order = Vec::with_capacity(self.nodes.len());
        let mut visited = vec![false; self.nodes.len()];
        // Each stack entry is a node and how many of its children have been pushed.
        let mut stack = vec![(self.root, 0usize)];
        visited[self.root.index()] = true;
        while let Some((node, next_child)) = stack.last_mut() {
            let node = *node;
            if let Some(&child) = self.children(node).get(*next_child) {
                *next_child += 1;
                if !visited[child.index()] {
                    visited[child.index()] = true;
                    stack.push((child, 0));
                }
            } else {
                order.push(node);
                stack.pop();
            }
        }
        order
    }

    /// Counts distinct nodes and leaves and measures the height, without recursion.
    #[must_use]
    pub fn stats(&self) -> TreeStats {
        let mut height = vec![0u32; self.nodes.len()];
        let mut stats = TreeStats { nodes: 0, leaves: 0, height: 0 };
        for node in self.post_order() {
            stats.nodes += 1;
            if self.is_leaf(node) {
                stats.leaves += 1;
            }
            height[node.index()] =
                self.children(node).iter().map(|child| height[child.index()] + 1).max().unwrap_or(0);
        }
        stats.height = height[self.root.index()];
        stats
    }

    fn edge_range(&self, node: NodeId) -> Range<usize> {
        let node = &self.nodes[node.index()];
        let first = node.first_edge as usize;
        first..first + node.child_count as usize
    }

    /// Builds a tree from raw parts; the caller (the builder or the `gtree` reader) has checked them.
    fn from_parts(nodes: Vec<Node>, edges: Vec<NodeId>, root: NodeId) -> Self {
        let max_width = nodes.iter().map(|node| node.child_count).max().unwrap_or(0);
        let mut tree = Self { nodes, edges, root, height: 0, max_width };
        tree.height = tree.stats().height;
        tree
    }

    /// The same shape with every node's evaluation given by `evaluation` (which must be
    /// admissible): the certificate's way to turn the values a run read into a tree.
    pub(crate) fn with_evaluations(&self, evaluation: impl Fn(NodeId) -> Value) -> Self {
        let mut tree = self.clone();
        for (index, node) in tree.nodes.iter_mut().enumerate() {
            node.evaluation = evaluation(NodeId(index as u32));
        }
        tree
    }

    /// Edges on the longest path from the root to a leaf.
    #[must_use]
    pub const fn height(&self) -> u32 {
        self.height
    }

    /// The nodes of the tree a search to `depth` plies unfolds from this graph: each node counted
    /// once per path that reaches it within the depth (a tree's own count; a graph of
    /// transpositions, far more: 60 diamonds in a chain unfold into 2⁶² nodes), saturating at
    /// `u128::MAX`. Found without unfolding, once per node and depth, without recursion.
    ///
    /// ```
    /// use nullwindow::tree::gtree;
    ///
    /// // Two diamonds: 7 nodes, 4 paths from the root to the bottom.
    /// let graph = gtree::parse("0 0 W 1 2\n1 0 B 3\n2 0 B 3\n3 0 W 4 5\n4 0 B 6\n5 0 B 6\n6 1")?;
    /// assert_eq!(graph.unfolded_nodes(u32::MAX), 1 + 2 + 2 + 4 + 4);
    /// assert_eq!(graph.unfolded_nodes(2), 1 + 2 + 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn unfolded_nodes(&self, depth: u32) -> u128 {
        let start = (self.root, depth.min(self.height));
        let mut counts: HashMap<(NodeId, u32), u128> = HashMap::new();
        // Depth first: a node is pushed again, `expanded`, below its children, and counted when it
        // comes back up, once every child's count is known.
        let mut stack = vec![(start, false)];
        while let Some(((node, left), expanded)) = stack.pop() {
            if counts.contains_key(&(node, left)) {
                continue;
            }
            let children = self.children(node);
            if left == 0 || children.is_empty() {
                counts.insert((node, left), 1);
            } else if expanded {
                let below = children.iter().map(|&child| counts[&(child, left - 1)]);
                counts.insert((node, left), below.fold(1, u128::saturating_add));
            } else {
                stack.push(((node, left), true));
                stack.extend(children.iter().map(|&child| ((child, left - 1), false)));
            }
        }
        counts[&start]
    }

    /// The most children any node has.
    #[must_use]
    pub const fn max_width(&self) -> u32 {
        self.max_width
    }
}

impl PartialEq for Tree {
    fn eq(&self, other: &Self) -> bool {
        self.root == other.root
            && self.nodes.len() == other.nodes.len()
            && (0..self.nodes.len()).map(|i| NodeId(i as u32)).all(|node| {
                self.evaluation(node) == other.evaluation(node)
                    && self.player(node) == other.player(node)
                    && self.children(node) == other.children(node)
            })
    }
}

impl Eq for Tree {}

impl Game for Tree {
    type Position = NodeId;
    type Move = u32;
    type Moves = Range<u32>;

    fn root(&self) -> NodeId {
        self.root
    }

    fn to_move(&self, position: &NodeId) -> Player {
        self.player(*position)
    }

    fn moves(&self, position: &NodeId) -> Range<u32> {
        0..self.nodes[position.index()].child_count
    }

    fn play(&self, position: &NodeId, mv: u32) -> NodeId {
        self.children(*position)[mv as usize]
    }

    fn evaluate(&self, position: &NodeId) -> Value {
        self.evaluation(*position)
    }

    /// The node's number, mixed (splitmix64's finalizer, a bijection): keys stay distinct, and a
    /// table that indexes by any of their bits, high or low, spreads the nodes of a tree over it.
    fn key(&self, position: &NodeId) -> u64 {
        let mut x = u64::from(position.0).wrapping_add(0x9e37_79b9_7f4a_7c15);
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^ (x >> 31)
    }

    /// The key is the whole position.
    fn keys_identify_positions(&self) -> bool {
        true
    }

    fn is_terminal(&self, position: &NodeId) -> bool {
        self.is_leaf(*position)
    }

    /// The tree's height: no node has a longer path below it.
    fn depth_bound(&self, _position: &NodeId) -> Option<u32> {
        Some(self.height)
    }

    /// One slot per child index: "the k-th child" is the move the history heuristic scores.
    fn history_slots(&self) -> usize {
        self.max_width as usize
    }

    fn history_slot(&self, _position: &NodeId, mv: u32) -> usize {
        mv as usize
    }
}

/// Why a [`TreeBuilder`] refused a step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// A node or leaf was started after the root was complete.
    SecondTree,
    /// `close` with no node open.
    NothingToClose,
    /// An interior node was closed without children.
    EmptyNode,
    /// A leaf value outside the admissible range.
    ValueOutOfRange(i64),
    /// `finish` before any node was started.
    Empty,
    /// `finish` with this many nodes still open.
    Unclosed(usize),
    /// More nodes than a `u32` can number.
    TooManyNodes,
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::SecondTree => f.write_str("more than one tree: the root is already complete"),
            Self::NothingToClose => f.write_str("unbalanced ')': no node is open"),
            Self::EmptyNode => f.write_str("empty node '()': an interior node needs at least one child"),
            Self::ValueOutOfRange(value) => write!(
                f,
                "value {value} is outside the admissible leaf range {}..={}",
                crate::value::MIN_LEAF,
                crate::value::MAX_LEAF
            ),
            Self::Empty => f.write_str("empty input: no tree"),
            Self::Unclosed(open) => write!(f, "unbalanced '(': {open} node(s) not closed"),
            Self::TooManyNodes => write!(f, "more than {} nodes", u32::MAX),
        }
    }
}

impl std::error::Error for BuildError {}

/// Builds a [`Tree`] in preorder, one event at a time, without recursion.
///
/// `open` starts an interior node, `leaf` adds a leaf, `close` ends the innermost open node. Nodes are
/// numbered in the order they are started, the root is MAX, levels alternate, and interior nodes
/// evaluate to 0. The parenthesis parser and the random generator both drive a builder.
///
/// ```
/// use nullwindow::tree::TreeBuilder;
/// let mut builder = TreeBuilder::new();
/// builder.open()?;
/// builder.leaf(3)?;
/// builder.leaf(17)?;
/// builder.close()?;
/// let tree = builder.finish()?;
/// assert_eq!(tree.to_string(), "(3 17)");
/// # Ok::<(), nullwindow::tree::BuildError>(())
/// ```
#[derive(Debug, Default)]
pub struct TreeBuilder {
    nodes: Vec<Node>,
    edges: Vec<NodeId>,
    /// Children collected so far for every open node, the innermost last.
    pending_children: Vec<NodeId>,
    /// For each open node: its id and where its children start in `pending_children`.
    open_nodes: Vec<(NodeId, usize)>,
}

impl TreeBuilder {
    /// An empty builder.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// How many nodes are open (the depth of the next node started).
    #[must_use]
    pub fn open_depth(&self) -> usize {
        self.open_nodes.len()
    }

    /// Starts an interior node as the next child of the innermost open node (or as the root).
    ///
    /// # Errors
    /// [`BuildError::SecondTree`] after the root is complete, [`BuildError::TooManyNodes`].
    pub fn open(&mut self) -> Result<(), BuildError> {
        self.open_evaluated(0)
    }

    /// Starts an interior node, as [`TreeBuilder::open`], with its own static evaluation (from MAX's
    /// side): what a depth-limited search reads when it stops there.
    ///
    /// # Errors
    /// [`BuildError::ValueOutOfRange`], [`BuildError::SecondTree`], [`BuildError::TooManyNodes`].
    pub fn open_evaluated(&mut self, evaluation: Value) -> Result<(), BuildError> {
        if !is_admissible(evaluation) {
            return Err(BuildError::ValueOutOfRange(evaluation.into()));
        }
        let id = self.start_node(evaluation)?;
        self.open_nodes.push((id, self.pending_children.len()));
        Ok(())
    }

    /// Adds a leaf as the next child of the innermost open node (or as the whole tree).
    ///
    /// # Errors
    /// [`BuildError::ValueOutOfRange`], [`BuildError::SecondTree`], [`BuildError::TooManyNodes`].
    pub fn leaf(&mut self, value: Value) -> Result<(), BuildError> {
        if !is_admissible(value) {
            return Err(BuildError::ValueOutOfRange(value.into()));
        }
        self.start_node(value).map(|_| ())
    }

    /// Ends the innermost open node.
    ///
    /// # Errors
    /// [`BuildError::NothingToClose`], [`BuildError::EmptyNode`].
    pub fn close(&mut self) -> Result<(), BuildError> {
        let &(id, first_child) = self.open_nodes.last().ok_or(BuildError::NothingToClose)?;
        let child_count = self.pending_children.len() - first_child;
        if child_count == 0 {
            return Err(BuildError::EmptyNode);
        }
        let first_edge = u32::try_from(self.edges.len()).map_err(|_| BuildError::TooManyNodes)?;
        self.edges.extend(self.pending_children.drain(first_child..));
        let node = &mut self.nodes[id.index()];
        node.first_edge = first_edge;
        node.child_count = u32::try_from(child_count).map_err(|_| BuildError::TooManyNodes)?;
        self.open_nodes.pop();
        Ok(())
    }

    /// The finished tree.
    ///
    /// # Errors
    /// [`BuildError::Empty`], [`BuildError::Unclosed`].
    pub fn finish(self) -> Result<Tree, BuildError> {
        if self.nodes.is_empty() {
            return Err(BuildError::Empty);
        }
        if !self.open_nodes.is_empty() {
            return Err(BuildError::Unclosed(self.open_nodes.len()));
        }
        Ok(Tree::from_parts(self.nodes, self.edges, NodeId(0)))
    }

    fn start_node(&mut self, evaluation: Value) -> Result<NodeId, BuildError> {
        if self.open_nodes.is_empty() && !self.nodes.is_empty() {
            return Err(BuildError::SecondTree);
        }
        let id = NodeId(u32::try_from(self.nodes.len()).map_err(|_| BuildError::TooManyNodes)?);
        let player = if self.open_nodes.len().is_multiple_of(2) { Player::Max } else { Player::Min };
        self.nodes.push(Node { evaluation, player, first_edge: 0, child_count: 0 });
        if !self.open_nodes.is_empty() {
            self.pending_children.push(id);
        }
        Ok(id)
    }
}

impl fmt::Display for Tree {
    /// Prints the tree losslessly: in the parenthesis format ([`text::print`](fn@text::print)) when
    /// it holds the whole tree ([`text::losses`] is empty), and otherwise in the `gtree` format
    /// ([`gtree::print`](fn@gtree::print)), which keeps a MIN root, interior evaluations and shared
    /// nodes. [`str::parse`] reads either back to an equal tree.
    ///
    /// ```
    /// use nullwindow::tree::{Tree, gtree};
    /// let tree: Tree = "((3 17) (2 12))".parse()?;
    /// assert_eq!(tree.to_string(), "((3 17) (2 12))");
    /// let graph = gtree::parse("r 4 W a b\na 0 B c\nb 0 B c\nc 1 W\n")?;
    /// assert_eq!(graph.to_string(), "0 4 W 1 3\n1 0 B 2\n2 1 W\n3 0 B 2\n");
    /// assert_eq!(graph.to_string().parse::<Tree>()?, graph);
    /// # Ok::<(), nullwindow::tree::text::ParseError>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if text::losses(self).is_empty() {
            f.write_str(&text::print(self))
        } else {
            f.write_str(&gtree::print(self))
        }
    }
}

impl std::str::FromStr for Tree {
    type Err = text::ParseError;

    /// Reads either format ([`parse_any`]), so that every tree's [`Display`](fmt::Display) form
    /// parses back to it.
    fn from_str(source: &str) -> Result<Self, Self::Err> {
        parse_any(source)
    }
}

/// Reads a tree in the parenthesis format ([`text::parse`]) when the text, past blank lines and `#`
/// comments, opens with `(` or is a single word (a lone leaf), and otherwise in the `gtree` format
/// ([`gtree::parse`]). Errors are those of the format chosen.
///
/// ```
/// use nullwindow::tree::parse_any;
/// assert_eq!(parse_any("# a comment\n(1 (2 3))")?.stats().leaves, 3);
/// assert_eq!(parse_any("7")?.stats().nodes, 1);
/// assert_eq!(parse_any("a 0 W b c\nb 1 B\nc 2 B\n")?.stats().leaves, 2);
/// # Ok::<(), nullwindow::tree::text::ParseError>(())
/// ```
///
/// # Errors
/// As [`text::parse`] or [`gtree::parse`].
pub fn parse_any(source: &str) -> Result<Tree, text::ParseError> {
    let mut words = source.lines().flat_map(|line| line.split('#').next().unwrap_or("").split_whitespace());
    let parenthesis = match (words.next(), words.next()) {
        (Some(first), _) if first.starts_with('(') => true,
        (_, None) => true,
        _ => false,
    };
    if parenthesis { text::parse(source) } else { gtree::parse(source) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_of_the_example_tree() {
        let tree: Tree = "((3 17) (2 12) (15 (25 0)))".parse().unwrap();
        assert_eq!(tree.stats(), TreeStats { nodes: 12, leaves: 7, height: 3 });
        assert_eq!(tree.max_width(), 3);
        // Equality compares every node: one different leaf, or a different shape, is another tree.
        let same: Tree = "((3 17) (2 12) (15 (25 0)))".parse().unwrap();
        let other_leaf: Tree = "((3 17) (2 12) (15 (25 1)))".parse().unwrap();
        let other_shape: Tree = "((3 17) (2 12) (15 25 0))".parse().unwrap();
        assert!(tree == same && tree != other_leaf && tree != other_shape);
        assert_eq!(tree.node_at(&[2, 1, 0]).map(|n| tree.evaluation(n)), Some(25));
        assert_eq!(tree.node_at(&[3]), None);
        assert!(!tree.has_shared_nodes());
    }

    #[test]
    fn builder_numbers_nodes_in_preorder_and_alternates_players() {
        let tree: Tree = "((1 2) 3)".parse().unwrap();
        let players: Vec<_> = (0..5).map(|i| tree.player(NodeId(i))).collect();
        assert_eq!(players, [Player::Max, Player::Min, Player::Max, Player::Max, Player::Min]);
        assert_eq!(tree.children(NodeId(0)), [NodeId(1), NodeId(4)]);
    }

    #[test]
    fn the_builder_knows_how_deep_it_is() {
        let mut builder = TreeBuilder::new();
        assert_eq!(builder.open_depth(), 0);
        builder.open().unwrap();
        builder.open().unwrap();
        assert_eq!(builder.open_depth(), 2);
        builder.leaf(1).unwrap();
        builder.close().unwrap();
        assert_eq!(builder.open_depth(), 1);
    }
}
