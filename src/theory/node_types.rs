//! Knuth and Moore's node types ("An analysis of alpha-beta pruning", *Artificial Intelligence* 6,
//! 1975), in the names Marsland and Popowich gave them: **PV**, **CUT** and **ALL**.
//!
//! On a perfectly ordered tree (every node's first child is its best) alpha-beta visits exactly the
//! *critical* nodes, and each is of one of three types:
//!
//! * the root is a **PV** node; a PV node's first child is PV and its other children are CUT;
//! * a **CUT** node's first child (its refutation) is an ALL node, and its other children are pruned;
//! * every child of an **ALL** node is a CUT node.
//!
//! Counting them level by level gives the minimal tree: with width `w` and depth `d` its leaves number
//! `w^⌈d/2⌉ + w^⌊d/2⌋ − 1` ([`minimal_leaves`]), a bound no algorithm can beat on a tree of that
//! shape, because a proof of the value must look at every one of them.
//!
//! ```
//! use nullwindow::theory::node_types::{self, NodeType};
//!
//! assert_eq!(node_types::classify(&[0, 0]), Some(NodeType::Pv));
//! assert_eq!(node_types::classify(&[1, 0]), Some(NodeType::All)); // the CUT node's refutation
//! assert_eq!(node_types::classify(&[1, 1]), None); // pruned
//! let levels = node_types::minimal_tree(3, 2);
//! assert_eq!(levels[2].total(), node_types::minimal_leaves(3, 2)); // 3 + 3 - 1 = 5
//! ```

/// A critical node's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeType {
    /// Knuth and Moore's type 1: on the principal variation; searched with an open window.
    Pv,
    /// Type 2: one good move refutes it (it fails high); only its first child is searched.
    Cut,
    /// Type 3: every move must be searched to show that none is good enough (it fails low).
    All,
}

impl NodeType {
    /// The type of a child searched with the window turned, in a minimal tree: a CUT node's
    /// children are ALL nodes, an ALL node's are CUT nodes (a PV node's first child, which is PV,
    /// is not this).
    #[must_use]
    pub const fn flipped(self) -> Self {
        match self {
            Self::Cut => Self::All,
            Self::All | Self::Pv => Self::Cut,
        }
    }
}

// ANCHOR: classify
/// The type of the node reached from the root by `path` (child indices, 0 = first) in a perfectly
/// ordered tree, or `None` when alpha-beta prunes it.
#[must_use]
pub fn classify(path: &[u32]) -> Option<NodeType> {
    let mut node_type = NodeType::Pv;
    for &child in path {
        node_type = match (node_type, child) {
            (NodeType::Pv, 0) => NodeType::Pv,
            (NodeType::Pv | NodeType::All, _) => NodeType::Cut,
            (NodeType::Cut, 0) => NodeType::All,
            (NodeType::Cut, _) => return None,
        };
    }
    Some(node_type)
}
// ANCHOR_END: classify

/// How many nodes of each type one level of the minimal tree holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LevelCounts {
    /// PV nodes (one per level).
    pub pv: u128,
    /// CUT nodes.
    pub cut: u128,
    /// ALL nodes.
    pub all: u128,
}

impl LevelCounts {
    /// Every critical node of the level.
    #[must_use]
    pub const fn total(&self) -> u128 {
        self.pv + self.cut + self.all
    }
}

// ANCHOR: minimal_tree
/// The node-type counts of the minimal tree of a uniform tree of `width` and `depth`, level 0 (the
/// root) to level `depth` (the leaves). Counts saturate at `u128::MAX`.
#[must_use]
pub fn minimal_tree(width: u32, depth: u32) -> Vec<LevelCounts> {
    let width = u128::from(width);
    let mut levels = vec![LevelCounts { pv: 1, cut: 0, all: 0 }];
    for _ in 0..depth {
        let above = levels[levels.len() - 1];
        levels.push(LevelCounts {
            pv: above.pv,
            // Every child of a PV node but the first, and every child of an ALL node.
            cut: above
                .pv
                .saturating_mul(width.saturating_sub(1))
                .saturating_add(above.all.saturating_mul(width)),
            // The first child of each CUT node.
            all: above.cut,
        });
    }
    levels
}
// ANCHOR_END: minimal_tree

/// The nodes of the minimal tree, every level's together (saturating): what a perfectly ordered
/// alpha-beta visits, the measure of a driver's node count as [`minimal_leaves`] is of its leaves.
///
/// ```
/// use nullwindow::theory::node_types::minimal_nodes;
/// // Width 2, depth 3: the root, 2 + 3 + 5 below it.
/// assert_eq!(minimal_nodes(2, 3), 11);
/// ```
#[must_use]
pub fn minimal_nodes(width: u32, depth: u32) -> u128 {
    minimal_tree(width, depth).iter().fold(0, |nodes, level| nodes.saturating_add(level.total()))
}

// ANCHOR: minimal_leaves
/// Knuth and Moore's count of the minimal tree's leaves, `w^⌈d/2⌉ + w^⌊d/2⌋ − 1` (saturating).
#[must_use]
pub fn minimal_leaves(width: u32, depth: u32) -> u128 {
    let power = |exponent: u32| u128::from(width).saturating_pow(exponent);
    power(depth.div_ceil(2)).saturating_add(power(depth / 2)).saturating_sub(1)
}
// ANCHOR_END: minimal_leaves

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_level_counts_add_up_to_the_knuth_moore_formula() {
        for width in 1..=9 {
            for depth in 0..=12 {
                let levels = minimal_tree(width, depth);
                assert_eq!(
                    levels[depth as usize].total(),
                    minimal_leaves(width, depth),
                    "w {width} d {depth}"
                );
            }
        }
    }

    #[test]
    fn classification_counts_match_the_level_counts() {
        // Enumerate every path of a 3-wide, 5-deep tree and count the types per level.
        let (width, depth) = (3u32, 5u32);
        let mut counted = vec![LevelCounts::default(); depth as usize + 1];
        let mut stack = vec![Vec::new()];
        while let Some(path) = stack.pop() {
            let Some(node_type) = classify(&path) else { continue };
            let level = &mut counted[path.len()];
            match node_type {
                NodeType::Pv => level.pv += 1,
                NodeType::Cut => level.cut += 1,
                NodeType::All => level.all += 1,
            }
            if path.len() < depth as usize {
                for child in 0..width {
                    let mut next = path.clone();
                    next.push(child);
                    stack.push(next);
                }
            }
        }
        assert_eq!(counted, minimal_tree(width, depth));
    }
}
