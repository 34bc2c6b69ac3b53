//! One panel of a tree figure: the tree as a search (or one of its passes) left it, each node marked
//! by what the search did there and labelled with the windows it was called with; and the legend
//! that says how to read the marks.

use nullwindow::driver::observe::Probe;
use nullwindow::reference::minimax;
use nullwindow::tree::{NodeId, Tree};
use nullwindow::value::Value;

use super::labels::{show, window};
use super::layout::{Layout, RADIUS};
use super::record::Visit;
use super::svg::{ANSWERED, Anchor, EVALUATED, FAINT, FONT, INK, SMALL, Svg, text_width};

/// The room under the leaves for their windows, written upward.
pub(super) const LEAF_LABELS: f64 = 112.0;
pub(super) const LEGEND_HEIGHT: f64 = 48.0;
/// The widest window label an interior node has room for: less than the gap between two siblings of
/// the third level.
const LABEL_ROOM: f64 = 68.0;

/// The height of one tree panel: a title, the levels, and room under the leaves for their windows.
pub(super) fn panel_height(layout: &Layout) -> f64 {
    layout.to_deepest() + LEAF_LABELS
}

/// Draws `tree` at `top`, marking each node by `visits` (none: the plain tree with every node's
/// minimax value in its circle).
pub(super) fn tree_panel(
    svg: &mut Svg,
    tree: &Tree,
    layout: &Layout,
    top: f64,
    title: &str,
    visits: Option<&[Visit]>,
) {
    svg.text((8.0, top + 15.0), FONT, Anchor::Start, INK, title);
    let panel = Panel { tree, layout, top, visits: visits.map(|visits| by_node(tree, visits)) };
    layout.draw_level_names(svg, top);
    let nodes = tree.post_order();
    for &node in &nodes {
        panel.draw_edges(svg, node);
    }
    for &node in &nodes {
        panel.draw_node(svg, node);
    }
}

/// The key to the marks, and how to read a node's label.
pub(super) fn tree_legend(svg: &mut Svg, top: f64) {
    let items = [
        ("white", INK, false, "visited (expanded)"),
        (EVALUATED, EVALUATED, false, "leaf evaluated"),
        (ANSWERED, "#c05621", false, "answered by the table"),
        ("white", FAINT, true, "never visited (cut off)"),
    ];
    let mut x = 16.0;
    for (fill, stroke, dash, label) in items {
        svg.circle((x, top + 10.0), 8.0, fill, stroke, dash);
        svg.text((x + 13.0, top + 14.0), SMALL, Anchor::Start, INK, label);
        x += 26.0 + text_width(label, SMALL);
    }
    svg.text(
        (8.0, top + 36.0),
        SMALL,
        Anchor::Start,
        INK,
        "(α, β): the window a node was called with, from MAX's side; in the circle: what it returned.",
    );
}

/// How a node is drawn in one panel.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    NotVisited,
    Expanded,
    Evaluated,
    Answered,
}

/// The visits of a search, gathered by the node they were made at.
fn by_node(tree: &Tree, visits: &[Visit]) -> Vec<Vec<Visit>> {
    let mut per_node: Vec<Vec<Visit>> = vec![Vec::new(); tree.node_count()];
    for visit in visits {
        per_node[visit.node.index()].push(*visit);
    }
    per_node
}

/// A window's label lines: one, or two (split after the comma) when one would not fit.
fn label_lines(window: &str) -> Vec<String> {
    match window.split_once(", ") {
        Some((left, right)) if text_width(window, SMALL) > LABEL_ROOM => {
            vec![format!("{left},"), right.to_owned()]
        }
        _ => vec![window.to_owned()],
    }
}

struct Panel<'a> {
    tree: &'a Tree,
    layout: &'a Layout,
    top: f64,
    /// Each node's visits, in the order the search finished them; `None` for the plain tree.
    visits: Option<Vec<Vec<Visit>>>,
}

impl Panel<'_> {
    fn seen(&self, node: NodeId) -> &[Visit] {
        self.visits.as_ref().map_or(&[], |per_node| &per_node[node.index()])
    }

    fn mark(&self, node: NodeId) -> Mark {
        let seen = self.seen(node);
        if self.visits.is_none() {
            Mark::Expanded
        } else if seen.is_empty() {
            Mark::NotVisited
        } else if seen.iter().any(|v| v.probe == Probe::None) {
            Mark::Evaluated
        } else if seen.iter().any(|v| matches!(v.probe, Probe::Miss | Probe::Hit)) {
            Mark::Expanded
        } else {
            Mark::Answered
        }
    }

    /// The value in a node's circle: its minimax value in the plain tree, else what the search's last
    /// visit returned, else (a leaf never reached) its evaluation.
    fn shown(&self, node: NodeId) -> Option<Value> {
        match (&self.visits, self.seen(node).last()) {
            (None, _) => Some(minimax::search(self.tree, &node, u32::MAX).value),
            (Some(_), Some(visit)) => Some(visit.result),
            (Some(_), None) => self.tree.is_leaf(node).then(|| self.tree.evaluation(node)),
        }
    }

    fn windows(&self, node: NodeId) -> Vec<String> {
        self.seen(node).iter().map(|v| window(v.alpha, v.beta)).collect()
    }

    /// The height of the box of windows under an interior node (a leaf's are written upward instead).
    fn label_height(&self, node: NodeId) -> f64 {
        let lines: usize = self.windows(node).iter().map(|w| label_lines(w).len()).sum();
        if self.tree.is_leaf(node) || lines == 0 { 0.0 } else { lines as f64 * 14.0 + 4.0 }
    }

    /// The edges from `node` to its children: solid to a child the search visited, dashed to one it
    /// cut off. They start below the node's box of windows, so that no edge crosses a label.
    fn draw_edges(&self, svg: &mut Svg, node: NodeId) {
        let label_height = self.label_height(node);
        let below = self.layout.y(self.top, node)
            + RADIUS
            + label_height
            + if label_height > 0.0 { 2.0 } else { 0.0 };
        for &child in self.tree.children(node) {
            let from = (self.layout.x(node), below);
            let to = (self.layout.x(child), self.layout.y(self.top, child) - RADIUS);
            let visited = self.mark(child) != Mark::NotVisited;
            svg.line(from, to, if visited { INK } else { FAINT }, if visited { 1.5 } else { 1.0 }, !visited);
        }
    }

    fn draw_node(&self, svg: &mut Svg, node: NodeId) {
        let (x, y) = (self.layout.x(node), self.layout.y(self.top, node));
        let (fill, stroke, ink, dash) = match self.mark(node) {
            Mark::NotVisited => ("white", FAINT, "#999999", true),
            Mark::Expanded => ("white", INK, INK, false),
            Mark::Evaluated => (EVALUATED, EVALUATED, "white", false),
            Mark::Answered => (ANSWERED, "#c05621", INK, false),
        };
        svg.circle((x, y), RADIUS, fill, stroke, dash);
        if let Some(value) = self.shown(node) {
            svg.text((x, y + 4.5), SMALL, Anchor::Middle, ink, &show(value));
        }
        self.draw_windows(svg, node, (x, y));
    }

    /// The windows `node` was called with: upward under a leaf, in a box under an interior node.
    fn draw_windows(&self, svg: &mut Svg, node: NodeId, (x, y): (f64, f64)) {
        let windows = self.windows(node);
        if windows.is_empty() {
            return;
        }
        if self.tree.is_leaf(node) {
            svg.text_upward((x + 4.0, y + RADIUS + 4.0), SMALL, INK, &windows.join(" "));
        } else {
            let lines: Vec<String> = windows.iter().flat_map(|w| label_lines(w)).collect();
            let width = lines.iter().map(|w| text_width(w, SMALL)).fold(0.0, f64::max) + 6.0;
            let (left, upper) = (x - width / 2.0, y + RADIUS + 2.0);
            svg.rect((left, upper), (width, self.label_height(node)), "white", "#dddddd");
            for (row, text) in lines.iter().enumerate() {
                svg.text((x, upper + 13.0 + row as f64 * 14.0), SMALL, Anchor::Middle, INK, text);
            }
        }
    }
}
