//! Where each node of a tree figure stands: leaves spaced evenly from left to right, a parent centred
//! over its children, one row per level.

use nullwindow::tree::{NodeId, Tree};

use super::svg::{Anchor, SMALL, Svg};

pub(super) const TREE_WIDTH: f64 = 740.0;
const TREE_LEFT: f64 = 44.0;
pub(super) const LEVEL_GAP: f64 = 72.0;
pub(super) const RADIUS: f64 = 10.0;
/// The room a panel's title takes above the root.
pub(super) const PANEL_TITLE: f64 = 22.0;

/// Where each node of a tree is drawn.
pub(super) struct Layout {
    x: Vec<f64>,
    level: Vec<usize>,
    pub(super) levels: usize,
}

impl Layout {
    pub(super) fn new(tree: &Tree) -> Self {
        let leaves = tree.post_order().into_iter().filter(|&node| tree.is_leaf(node)).count();
        // The right margin leaves room for the window beside the last interior node.
        let step = (TREE_WIDTH - TREE_LEFT - 44.0) / leaves as f64;
        let mut layout =
            Self { x: vec![0.0; tree.node_count()], level: vec![0; tree.node_count()], levels: 0 };
        let mut next_leaf = TREE_LEFT + step / 2.0;
        layout.place(tree, tree.root_id(), 0, &mut next_leaf, step);
        layout
    }

    /// Places `node`'s subtree, its leaves from `next_leaf` on, and returns the node's `x`.
    fn place(&mut self, tree: &Tree, node: NodeId, level: usize, next_leaf: &mut f64, step: f64) -> f64 {
        self.level[node.index()] = level;
        self.levels = self.levels.max(level + 1);
        let x = if tree.is_leaf(node) {
            let x = *next_leaf;
            *next_leaf += step;
            x
        } else {
            let xs: Vec<f64> = tree
                .children(node)
                .iter()
                .map(|&child| self.place(tree, child, level + 1, next_leaf, step))
                .collect();
            (xs[0] + xs[xs.len() - 1]) / 2.0
        };
        self.x[node.index()] = x;
        x
    }

    pub(super) fn x(&self, node: NodeId) -> f64 {
        self.x[node.index()]
    }

    /// The centre of `node` in a panel whose top is at `top`.
    pub(super) fn y(&self, top: f64, node: NodeId) -> f64 {
        Self::level_y(top, self.level[node.index()])
    }

    fn level_y(top: f64, level: usize) -> f64 {
        top + PANEL_TITLE + 22.0 + level as f64 * LEVEL_GAP
    }

    /// From a panel's top to the centre of its deepest level.
    pub(super) fn to_deepest(&self) -> f64 {
        PANEL_TITLE + 22.0 + (self.levels - 1) as f64 * LEVEL_GAP
    }

    /// MAX and MIN down the left edge, beside the levels they move at.
    pub(super) fn draw_level_names(&self, svg: &mut Svg, top: f64) {
        for level in 0..self.levels {
            let name = if level % 2 == 0 { "MAX" } else { "MIN" };
            svg.text((8.0, Self::level_y(top, level) + 4.0), SMALL, Anchor::Start, "#666666", name);
        }
    }
}
