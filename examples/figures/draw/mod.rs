//! The book's figures and measured tables, drawn by the crate itself.
//!
//! `cargo run --example figures` writes what [`all`] returns into `book/src/figures/`, and the book's
//! test (`tests/suite/book.rs`) compiles this same file and fails when a committed figure differs
//! from what it draws now, so a change to a search that moves a figure cannot go unnoticed.
//!
//! The SVG is written by hand (a few elements, fixed number formatting), so the output is the same
//! byte for byte on every platform and needs no tool to render.

use std::fmt::Write as _;

use nullwindow::compare::{compare, minimal_tree_leaves};
use nullwindow::driver::{Pass, SearchParams};
use nullwindow::game::Player;
use nullwindow::reference::minimax;
use nullwindow::registry::Driver;
use nullwindow::search::trace::{NodeTrace, Probe, Tracer};
use nullwindow::search::{Algorithm, Engine};
use nullwindow::tree::examples::TEACHING_TREE;
use nullwindow::tree::synthetic::{Model, SyntheticConfig, SyntheticTree};
use nullwindow::tree::{NodeId, Tree};
use nullwindow::value::{INFINITY, Value};

/// Every figure and generated table: its file name under `book/src/figures/` and its contents.
pub fn all() -> Vec<(String, String)> {
    let tree: Tree = TEACHING_TREE.parse().expect("the teaching tree parses");
    let mut files = vec![("teaching-tree.svg".to_owned(), minimax_tree_figure(&tree))];
    for algorithm in Algorithm::ALL {
        files.push((format!("tree-{}.svg", algorithm.name()), searched_tree_figure(&tree, algorithm)));
    }
    files.push(("sss-order.svg".to_owned(), sss_order_figure(&tree)));
    files.push(("mtd-bounds.svg".to_owned(), bounds_figure()));
    for model in [Model::Incremental, Model::Independent] {
        let measured = leaves_by_depth(model);
        files.push((format!("leaves-{model}.svg"), leaves_figure(&measured)));
        files.push((format!("leaves-{model}.md"), leaves_table(&measured)));
    }
    files.push(("minimal-tree.md".to_owned(), minimal_tree_table()));
    files.push(("enhancements.md".to_owned(), enhancements_table()));
    files.push(("passes.md".to_owned(), passes_table()));
    files.push(("literal-vs-engine.md".to_owned(), literal_table()));
    files
}

// ---------------------------------------------------------------------------------------------
// A small SVG writer.

/// Fixed formatting: one decimal at most, so the same drawing gives the same bytes everywhere.
fn num(x: f64) -> String {
    let text = format!("{x:.1}");
    let text = text.strip_suffix(".0").unwrap_or(&text).to_owned();
    if text == "-0" { "0".to_owned() } else { text }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[derive(Clone, Copy)]
enum Anchor {
    Start,
    Middle,
    End,
}

impl Anchor {
    const fn name(self) -> &'static str {
        match self {
            Self::Start => "start",
            Self::Middle => "middle",
            Self::End => "end",
        }
    }
}

struct Svg {
    out: String,
}

const FONT: f64 = 13.0;
const SMALL: f64 = 12.0;
const INK: &str = "#222222";
const FAINT: &str = "#b8b8b8";
const EVALUATED: &str = "#2b6cb0";
const ANSWERED: &str = "#f6ad55";

impl Svg {
    fn new(width: f64, height: f64, title: &str) -> Self {
        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="{f}">"#,
            w = num(width),
            h = num(height),
            f = num(FONT)
        );
        let _ = writeln!(out, "<title>{}</title>", escape(title));
        let _ = writeln!(
            out,
            r#"<rect x="0" y="0" width="{}" height="{}" fill="white"/>"#,
            num(width),
            num(height)
        );
        Self { out }
    }

    fn line(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), stroke: &str, width: f64, dash: bool) {
        let dash = if dash { r#" stroke-dasharray="4 3""# } else { "" };
        let _ = writeln!(
            self.out,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{stroke}" stroke-width="{}"{dash}/>"#,
            num(x1),
            num(y1),
            num(x2),
            num(y2),
            num(width)
        );
    }

    fn circle(&mut self, (x, y): (f64, f64), r: f64, fill: &str, stroke: &str, dash: bool) {
        let dash = if dash { r#" stroke-dasharray="3 2""# } else { "" };
        let _ = writeln!(
            self.out,
            r#"<circle cx="{}" cy="{}" r="{}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"{dash}/>"#,
            num(x),
            num(y),
            num(r)
        );
    }

    fn rect(&mut self, (x, y): (f64, f64), (w, h): (f64, f64), fill: &str, stroke: &str) {
        let _ = writeln!(
            self.out,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{fill}" stroke="{stroke}"/>"#,
            num(x),
            num(y),
            num(w),
            num(h)
        );
    }

    fn text(&mut self, (x, y): (f64, f64), size: f64, anchor: Anchor, fill: &str, content: &str) {
        let _ = writeln!(
            self.out,
            r#"<text x="{}" y="{}" font-size="{}" text-anchor="{}" fill="{fill}">{}</text>"#,
            num(x),
            num(y),
            num(size),
            anchor.name(),
            escape(content)
        );
    }

    /// Text read from bottom to top, ending at `(x, y)`.
    fn text_upward(&mut self, (x, y): (f64, f64), size: f64, fill: &str, content: &str) {
        let _ = writeln!(
            self.out,
            r#"<text x="{x}" y="{y}" font-size="{}" text-anchor="end" fill="{fill}" transform="rotate(-90 {x} {y})">{}</text>"#,
            num(size),
            escape(content),
            x = num(x),
            y = num(y),
        );
    }

    fn polyline(&mut self, points: &[(f64, f64)], stroke: &str, width: f64, dash: Option<&str>) {
        let points: Vec<String> = points.iter().map(|&(x, y)| format!("{},{}", num(x), num(y))).collect();
        let dash = dash.map(|d| format!(r#" stroke-dasharray="{d}""#)).unwrap_or_default();
        let _ = writeln!(
            self.out,
            r#"<polyline points="{}" fill="none" stroke="{stroke}" stroke-width="{}"{dash}/>"#,
            points.join(" "),
            num(width)
        );
    }

    fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        self.out
    }
}

/// Roughly how wide `text` is at `size` (sans-serif digits and punctuation).
fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.58
}

/// A value as the book prints it: the crate's `INFINITY` as ∞.
fn show(value: Value) -> String {
    match value {
        v if v >= INFINITY => "∞".to_owned(),
        v if v <= -INFINITY => "−∞".to_owned(),
        v if v == INFINITY - 1 => "∞−1".to_owned(),
        v if v == -INFINITY + 1 => "−∞+1".to_owned(),
        // Bisection's first midpoints: half of infinity, give or take a little.
        v if (v - INFINITY / 2).abs() <= 1000 => format!("∞/2{}", signed_offset(v - INFINITY / 2)),
        v if (v + INFINITY / 2).abs() <= 1000 => format!("−∞/2{}", signed_offset(v + INFINITY / 2)),
        v if v < 0 => format!("−{}", -v),
        v => v.to_string(),
    }
}

fn signed_offset(offset: Value) -> String {
    match offset {
        0 => String::new(),
        o if o < 0 => format!("−{}", -o),
        o => format!("+{o}"),
    }
}

/// The widest window label an interior node has room for: less than the gap between two siblings of
/// the third level.
const LABEL_ROOM: f64 = 68.0;

/// A window's label lines: one, or two (split after the comma) when one would not fit.
fn label_lines(window: &str) -> Vec<String> {
    match window.split_once(", ") {
        Some((left, right)) if text_width(window, SMALL) > LABEL_ROOM => {
            vec![format!("{left},"), right.to_owned()]
        }
        _ => vec![window.to_owned()],
    }
}

fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

fn window(alpha: Value, beta: Value) -> String {
    format!("({}, {})", show(alpha), show(beta))
}

// ---------------------------------------------------------------------------------------------
// The teaching tree, searched.

/// What a traced search did at one node, from MAX's side.
#[derive(Clone, Copy)]
struct Visit {
    node: NodeId,
    alpha: Value,
    beta: Value,
    result: Value,
    probe: Probe,
}

/// Records every node the engine finishes, one list per root pass.
struct Recorder<'a> {
    tree: &'a Tree,
    stack: Vec<NodeId>,
    passes: Vec<Vec<Visit>>,
}

impl Tracer<Tree> for Recorder<'_> {
    fn enter(&mut self, ply: usize, position: &NodeId) {
        if ply == 0 {
            self.passes.push(Vec::new());
        }
        self.stack.truncate(ply);
        self.stack.push(*position);
    }

    fn finish(&mut self, node: &NodeTrace<u32>) {
        let Some(&position) = self.stack.get(node.ply) else { return };
        // The engine works in negamax form; the figures read every value from MAX's side.
        let (alpha, beta, result) = match self.tree.player(position) {
            Player::Max => (node.alpha, node.beta, node.result),
            Player::Min => (-node.beta, -node.alpha, -node.result),
        };
        if let Some(pass) = self.passes.last_mut() {
            pass.push(Visit { node: position, alpha, beta, result, probe: node.probe });
        }
        self.stack.truncate(node.ply);
    }
}

/// The engine as the tree figures run it: one search of the whole depth (no iterative deepening),
/// and no killers or history, so that children are tried left to right unless the table names a
/// best move from an earlier pass.
fn figure_params() -> SearchParams {
    SearchParams { killers: false, history: false, ..SearchParams::default() }
}

fn trace_passes(tree: &Tree, algorithm: Algorithm) -> (Value, Vec<Vec<Visit>>) {
    let mut recorder = Recorder { tree, stack: Vec::new(), passes: Vec::new() };
    let params = figure_params();
    let result = Engine::new(&params).search_traced(tree, algorithm, &params, &mut recorder);
    (result.value, recorder.passes)
}

/// Where each node of a tree is drawn.
struct Layout {
    x: Vec<f64>,
    level: Vec<usize>,
    levels: usize,
}

const TREE_WIDTH: f64 = 740.0;
const TREE_LEFT: f64 = 44.0;
const LEVEL_GAP: f64 = 72.0;
const RADIUS: f64 = 10.0;

fn layout(tree: &Tree) -> Layout {
    fn place(
        tree: &Tree,
        node: NodeId,
        level: usize,
        next_leaf: &mut f64,
        step: f64,
        layout: &mut Layout,
    ) -> f64 {
        layout.level[node.index()] = level;
        layout.levels = layout.levels.max(level + 1);
        let x = if tree.is_leaf(node) {
            let x = *next_leaf;
            *next_leaf += step;
            x
        } else {
            let xs: Vec<f64> = tree
                .children(node)
                .iter()
                .map(|&child| place(tree, child, level + 1, next_leaf, step, layout))
                .collect();
            (xs[0] + xs[xs.len() - 1]) / 2.0
        };
        layout.x[node.index()] = x;
        x
    }
    let leaves = tree.post_order().into_iter().filter(|&node| tree.is_leaf(node)).count();
    // The right margin leaves room for the window beside the last interior node.
    let step = (TREE_WIDTH - TREE_LEFT - 44.0) / leaves as f64;
    let mut layout = Layout { x: vec![0.0; tree.node_count()], level: vec![0; tree.node_count()], levels: 0 };
    let mut next_leaf = TREE_LEFT + step / 2.0;
    place(tree, tree.root_id(), 0, &mut next_leaf, step, &mut layout);
    layout
}

/// How a node is drawn in one panel.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    NotVisited,
    Expanded,
    Evaluated,
    Answered,
}

/// The height of one tree panel: a title, the levels, and room under the leaves for their windows.
const PANEL_TITLE: f64 = 22.0;
const LEAF_LABELS: f64 = 112.0;

fn panel_height(layout: &Layout) -> f64 {
    PANEL_TITLE + 22.0 + (layout.levels - 1) as f64 * LEVEL_GAP + LEAF_LABELS
}

/// Draws `tree` at `top`, marking each node by `visits` (none: the plain tree with `values` in the
/// circles).
fn tree_panel(svg: &mut Svg, tree: &Tree, layout: &Layout, top: f64, title: &str, visits: Option<&[Visit]>) {
    svg.text((8.0, top + 15.0), FONT, Anchor::Start, INK, title);
    let y_of = |node: NodeId| top + PANEL_TITLE + 22.0 + layout.level[node.index()] as f64 * LEVEL_GAP;
    let mut per_node: Vec<Vec<Visit>> = vec![Vec::new(); tree.node_count()];
    if let Some(visits) = visits {
        for visit in visits {
            per_node[visit.node.index()].push(*visit);
        }
    }
    let mark = |node: NodeId| -> Mark {
        let seen = &per_node[node.index()];
        if visits.is_none() {
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
    };
    for level in 0..layout.levels {
        let name = if level % 2 == 0 { "MAX" } else { "MIN" };
        let y = top + PANEL_TITLE + 22.0 + level as f64 * LEVEL_GAP;
        svg.text((8.0, y + 4.0), SMALL, Anchor::Start, "#666666", name);
    }
    let nodes = tree.post_order();
    let windows = |node: NodeId| -> Vec<String> {
        per_node[node.index()].iter().map(|v| window(v.alpha, v.beta)).collect()
    };
    // An interior node's windows stand in a box right under it, and its edges start below the box,
    // so that no edge crosses a label.
    let label_height = |node: NodeId| -> f64 {
        let lines: usize = windows(node).iter().map(|w| label_lines(w).len()).sum();
        if tree.is_leaf(node) || lines == 0 { 0.0 } else { lines as f64 * 14.0 + 4.0 }
    };
    for &node in &nodes {
        for &child in tree.children(node) {
            let below =
                y_of(node) + RADIUS + label_height(node) + if label_height(node) > 0.0 { 2.0 } else { 0.0 };
            let (from, to) =
                ((layout.x[node.index()], below), (layout.x[child.index()], y_of(child) - RADIUS));
            let visited = mark(child) != Mark::NotVisited;
            svg.line(from, to, if visited { INK } else { FAINT }, if visited { 1.5 } else { 1.0 }, !visited);
        }
    }
    for &node in &nodes {
        let (x, y) = (layout.x[node.index()], y_of(node));
        let seen = &per_node[node.index()];
        let shown = match (visits, seen.last()) {
            (None, _) => Some(minimax::search(tree, &node, u32::MAX).value),
            (Some(_), Some(visit)) => Some(visit.result),
            (Some(_), None) => tree.is_leaf(node).then(|| tree.evaluation(node)),
        };
        let (fill, stroke, ink, dash) = match mark(node) {
            Mark::NotVisited => ("white", FAINT, "#999999", true),
            Mark::Expanded => ("white", INK, INK, false),
            Mark::Evaluated => (EVALUATED, EVALUATED, "white", false),
            Mark::Answered => (ANSWERED, "#c05621", INK, false),
        };
        svg.circle((x, y), RADIUS, fill, stroke, dash);
        if let Some(value) = shown {
            svg.text((x, y + 4.5), SMALL, Anchor::Middle, ink, &show(value));
        }
        let windows = windows(node);
        if windows.is_empty() {
            continue;
        }
        if tree.is_leaf(node) {
            svg.text_upward((x + 4.0, y + RADIUS + 4.0), SMALL, INK, &windows.join(" "));
        } else {
            let lines: Vec<String> = windows.iter().flat_map(|w| label_lines(w)).collect();
            let width = lines.iter().map(|w| text_width(w, SMALL)).fold(0.0, f64::max) + 6.0;
            let (left, upper) = (x - width / 2.0, y + RADIUS + 2.0);
            svg.rect((left, upper), (width, label_height(node)), "white", "#dddddd");
            for (row, text) in lines.iter().enumerate() {
                svg.text((x, upper + 13.0 + row as f64 * 14.0), SMALL, Anchor::Middle, INK, text);
            }
        }
    }
}

fn tree_legend(svg: &mut Svg, top: f64) {
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

const LEGEND_HEIGHT: f64 = 48.0;

fn minimax_tree_figure(tree: &Tree) -> String {
    let layout = layout(tree);
    let height = panel_height(&layout) - LEAF_LABELS + 16.0;
    let mut svg = Svg::new(TREE_WIDTH, height, "The teaching tree with the minimax value of every node");
    tree_panel(
        &mut svg,
        tree,
        &layout,
        0.0,
        "The teaching tree: every node's minimax value (the root's is 7)",
        None,
    );
    svg.finish()
}

fn searched_tree_figure(tree: &Tree, algorithm: Algorithm) -> String {
    let layout = layout(tree);
    let (value, passes) = trace_passes(tree, algorithm);
    let panel = panel_height(&layout);
    let height = panel * passes.len() as f64 + LEGEND_HEIGHT + 8.0;
    let mut svg = Svg::new(
        TREE_WIDTH,
        height,
        &format!("The teaching tree as the engine's {} searches it, pass by pass", algorithm.name()),
    );
    let (mut lower, mut upper) = (-INFINITY, INFINITY);
    for (index, visits) in passes.iter().enumerate() {
        let root = visits.last().expect("a pass finishes at its root");
        let leaves = visits.iter().filter(|v| v.probe == Probe::None).count();
        let title = if algorithm.makes_passes() {
            let pass = Pass { alpha: root.alpha, beta: root.beta, result: root.result };
            (lower, upper) = pass.narrow((lower, upper));
            format!(
                "{} pass {}: window {} returns {}; value in [{}, {}]; {} nodes, {}",
                algorithm.name(),
                index + 1,
                window(root.alpha, root.beta),
                show(root.result),
                show(lower),
                show(upper),
                visits.len(),
                plural(leaves, "leaf", "leaves")
            )
        } else {
            format!(
                "{}: one search, window {}, value {}; {} nodes, {}",
                algorithm.name(),
                window(root.alpha, root.beta),
                show(value),
                visits.len(),
                plural(leaves, "leaf", "leaves")
            )
        };
        tree_panel(&mut svg, tree, &layout, index as f64 * panel, &title, Some(visits));
    }
    tree_legend(&mut svg, panel * passes.len() as f64 + 4.0);
    svg.finish()
}

/// Stockman's SSS* and MT-SSS* on the teaching tree, each evaluated leaf numbered by when it was
/// first evaluated: the theorem that the two evaluate the same leaves in the same order, drawn.
fn sss_order_figure(tree: &Tree) -> String {
    let layout = layout(tree);
    let panel = PANEL_TITLE + 22.0 + (layout.levels - 1) as f64 * LEVEL_GAP + 52.0;
    let drivers = [
        (Driver::StockmanSss, "Stockman's SSS* (OPEN list)"),
        (Driver::MtSss, "MT-SSS*: MTD(+∞) over AlphaBetaWithMemory"),
    ];
    let mut svg = Svg::new(
        TREE_WIDTH,
        panel * drivers.len() as f64 + 30.0,
        "The order in which Stockman's SSS* and MT-SSS* first evaluate the leaves of the teaching tree",
    );
    for (index, (literal, name)) in drivers.into_iter().enumerate() {
        let top = index as f64 * panel;
        let (_, evaluated) = literal.run_recording_leaves(tree, &SearchParams::default());
        let mut order: Vec<Option<usize>> = vec![None; tree.node_count()];
        let mut count = 0;
        for node in evaluated {
            if order[node.index()].is_none() {
                count += 1;
                order[node.index()] = Some(count);
            }
        }
        svg.text(
            (8.0, top + 15.0),
            FONT,
            Anchor::Start,
            INK,
            &format!("{name}: {count} leaves, numbered in the order they are first evaluated"),
        );
        let y_of = |node: NodeId| top + PANEL_TITLE + 22.0 + layout.level[node.index()] as f64 * LEVEL_GAP;
        for level in 0..layout.levels {
            let y = top + PANEL_TITLE + 22.0 + level as f64 * LEVEL_GAP;
            svg.text(
                (8.0, y + 4.0),
                SMALL,
                Anchor::Start,
                "#666666",
                if level % 2 == 0 { "MAX" } else { "MIN" },
            );
        }
        let nodes = tree.post_order();
        for &node in &nodes {
            for &child in tree.children(node) {
                let from = (layout.x[node.index()], y_of(node) + RADIUS);
                let to = (layout.x[child.index()], y_of(child) - RADIUS);
                svg.line(from, to, FAINT, 1.0, false);
            }
        }
        for &node in &nodes {
            let (x, y) = (layout.x[node.index()], y_of(node));
            match order[node.index()] {
                Some(rank) => {
                    svg.circle((x, y), RADIUS, EVALUATED, EVALUATED, false);
                    svg.text((x, y + 4.5), SMALL, Anchor::Middle, "white", &show(tree.evaluation(node)));
                    svg.text((x, y + RADIUS + 16.0), SMALL, Anchor::Middle, INK, &format!("{rank}"));
                }
                None if tree.is_leaf(node) => {
                    svg.circle((x, y), RADIUS, "white", FAINT, true);
                    svg.text((x, y + 4.5), SMALL, Anchor::Middle, "#999999", &show(tree.evaluation(node)));
                }
                None => svg.circle((x, y), RADIUS, "white", INK, false),
            }
        }
    }
    svg.text(
        (8.0, panel * 2.0 + 16.0),
        SMALL,
        Anchor::Start,
        INK,
        "Blue: a leaf evaluated, its value inside and, below it, when it was first evaluated. Dashed: never evaluated.",
    );
    svg.finish()
}

// ---------------------------------------------------------------------------------------------
// MTD's bounds, pass by pass.

/// The tree of the bounds figure: a few dozen values apart from the first guess, so that the drivers
/// need several passes but few enough to read.
const BOUNDS_TREE: SyntheticConfig = SyntheticConfig {
    seed: 3,
    width: 4,
    depth: 5,
    model: Model::Independent,
    ordering: 0.9,
    transpositions: false,
    spread: 20,
};

/// Values further from 0 than this (the infinities, MTD-bi's first midpoint) are drawn on the bands
/// at the plot's top and bottom edges.
const OFF_SCALE: Value = 1000;

struct Plot {
    left: f64,
    top: f64,
    width: f64,
    height: f64,
}

fn bounds_figure() -> String {
    let tree = SyntheticTree::new(BOUNDS_TREE).expect("a valid configuration");
    let algorithms = [Algorithm::Mtdf, Algorithm::MtdBi, Algorithm::Sss, Algorithm::Dual];
    let runs: Vec<(Algorithm, Value, Vec<Pass>)> = algorithms
        .iter()
        .map(|&algorithm| {
            let params = SearchParams { first_guess: Some(0), ..SearchParams::default() };
            let result = Engine::new(&params).search(&tree, algorithm, &params, |_| {});
            let passes = result.iterations.last().expect("one iteration").passes.clone();
            (algorithm, result.value, passes)
        })
        .collect();
    let finite = runs
        .iter()
        .flat_map(|(_, value, passes)| {
            std::iter::once(*value).chain(passes.iter().flat_map(|p| [p.beta, p.result]))
        })
        .filter(|v| v.abs() <= OFF_SCALE);
    let (lo, hi) = finite.fold((0, 0), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let (lo, hi) = (lo - lo.rem_euclid(5) - 5, hi - hi.rem_euclid(5) + 5);

    let (width, panel_w, panel_h) = (740.0, 360.0, 250.0);
    let height = 2.0 * panel_h + 70.0;
    let mut svg = Svg::new(width, height, "MTD drivers' bounds on the root value, pass by pass");
    for (index, (algorithm, value, passes)) in runs.iter().enumerate() {
        let (col, row) = ((index % 2) as f64, (index / 2) as f64);
        let plot = Plot {
            left: col * 370.0 + 52.0,
            top: row * panel_h + 34.0,
            width: panel_w - 64.0,
            height: panel_h - 80.0,
        };
        bounds_panel(&mut svg, &plot, *algorithm, *value, passes, (lo, hi));
    }
    let legend_y = 2.0 * panel_h + 28.0;
    let mut x = 16.0;
    for (color, dash, label) in [
        ("#2b6cb0", None, "lower bound"),
        ("#c53030", None, "upper bound"),
        ("#666666", Some("5 4"), "the value"),
    ] {
        svg.polyline(&[(x, legend_y - 4.0), (x + 24.0, legend_y - 4.0)], color, 2.0, dash);
        svg.text((x + 30.0, legend_y), SMALL, Anchor::Start, INK, label);
        x += 44.0 + text_width(label, SMALL);
    }
    svg.circle((x + 6.0, legend_y - 4.0), 4.0, "white", INK, false);
    svg.text((x + 16.0, legend_y), SMALL, Anchor::Start, INK, "test value γ of the pass: window (γ−1, γ)");
    svg.text(
        (16.0, legend_y + 24.0),
        SMALL,
        Anchor::Start,
        INK,
        &format!(
            "Synthetic tree: seed {}, width {}, depth {}, independent leaves in −{s}..{s}; first guess 0. Values off the scale sit on the ±∞ edges.",
            BOUNDS_TREE.seed,
            BOUNDS_TREE.width,
            BOUNDS_TREE.depth,
            s = BOUNDS_TREE.spread
        ),
    );
    svg.finish()
}

fn bounds_panel(
    svg: &mut Svg,
    plot: &Plot,
    algorithm: Algorithm,
    value: Value,
    passes: &[Pass],
    (lo, hi): (Value, Value),
) {
    const BAND: f64 = 18.0;
    let inner_top = plot.top + BAND;
    let inner_height = plot.height - 2.0 * BAND;
    let y_of = |v: Value| -> f64 {
        if v > hi {
            plot.top
        } else if v < lo {
            plot.top + plot.height
        } else {
            inner_top + inner_height * f64::from(hi - v) / f64::from(hi - lo)
        }
    };
    let count = passes.len().max(1);
    let x_of = |pass: usize| plot.left + plot.width * pass as f64 / count as f64;
    svg.text(
        (plot.left, plot.top - 12.0),
        FONT,
        Anchor::Start,
        INK,
        &format!("{}: {} passes to the value {}", algorithm.name(), passes.len(), show(value)),
    );
    svg.rect((plot.left, plot.top), (plot.width, plot.height), "none", "#999999");
    // Value ticks every 5, the infinities on the bands.
    let mut tick = lo;
    while tick <= hi {
        let y = y_of(tick);
        if tick % 10 == 0 {
            svg.line((plot.left, y), (plot.left + plot.width, y), "#eeeeee", 1.0, false);
            svg.text((plot.left - 5.0, y + 4.0), SMALL, Anchor::End, INK, &show(tick));
        }
        tick += 5;
    }
    svg.text((plot.left - 5.0, plot.top + 4.0), SMALL, Anchor::End, INK, "+∞");
    svg.text((plot.left - 5.0, plot.top + plot.height + 4.0), SMALL, Anchor::End, INK, "−∞");
    for pass in 0..=count {
        let x = x_of(pass);
        svg.line((x, plot.top + plot.height), (x, plot.top + plot.height + 4.0), INK, 1.0, false);
        if count <= 12 || pass % 2 == 0 {
            svg.text((x, plot.top + plot.height + 17.0), SMALL, Anchor::Middle, INK, &pass.to_string());
        }
    }
    svg.text(
        (plot.left + plot.width / 2.0, plot.top + plot.height + 32.0),
        SMALL,
        Anchor::Middle,
        INK,
        "pass",
    );
    svg.line((plot.left, y_of(value)), (plot.left + plot.width, y_of(value)), "#666666", 1.5, true);
    let (mut lower, mut upper) = (-INFINITY, INFINITY);
    let mut lows = vec![(x_of(0), y_of(lower))];
    let mut ups = vec![(x_of(0), y_of(upper))];
    for (index, pass) in passes.iter().enumerate() {
        (lower, upper) = pass.narrow((lower, upper));
        let x = x_of(index + 1);
        // Steps: a bound holds until the pass that moves it.
        lows.extend([(x, lows[lows.len() - 1].1), (x, y_of(lower))]);
        ups.extend([(x, ups[ups.len() - 1].1), (x, y_of(upper))]);
    }
    svg.polyline(&ups, "#c53030", 2.0, None);
    svg.polyline(&lows, "#2b6cb0", 2.0, None);
    for (index, pass) in passes.iter().enumerate() {
        svg.circle((x_of(index + 1), y_of(pass.beta)), 4.0, "white", INK, false);
    }
}

// ---------------------------------------------------------------------------------------------
// Leaves against the minimal tree, across depths.

/// Incremental trees as wide as `nullwindow compare`'s default; independent ones narrower, because
/// random ordering makes every driver search many times the minimal tree.
const fn leaves_width(model: Model) -> u32 {
    match model {
        Model::Incremental => 8,
        Model::Independent => 4,
    }
}
const LEAVES_DEPTHS: std::ops::RangeInclusive<u32> = 1..=8;
const LEAVES_SEEDS: u64 = 10;

/// Mean leaves per driver and depth on synthetic trees of `model`.
struct Measured {
    model: Model,
    drivers: Vec<Algorithm>,
    /// `leaves[driver][depth index]`: mean leaves per tree.
    leaves: Vec<Vec<f64>>,
}

fn leaves_config(model: Model, depth: u32, seed: u64) -> SyntheticConfig {
    SyntheticConfig { seed, width: leaves_width(model), depth, model, ..SyntheticConfig::default() }
}

fn leaves_by_depth(model: Model) -> Measured {
    let drivers: Vec<Algorithm> = Algorithm::ALL.to_vec();
    let mut leaves = vec![Vec::new(); drivers.len()];
    for depth in LEAVES_DEPTHS {
        let trees: Vec<SyntheticTree> = (0..LEAVES_SEEDS)
            .map(|seed| SyntheticTree::new(leaves_config(model, depth, seed)).expect("a valid configuration"))
            .collect();
        let known: Vec<Option<Value>> = trees.iter().map(SyntheticTree::known_value).collect();
        let selected: Vec<Driver> = drivers.iter().map(|&a| Driver::for_algorithm(a)).collect();
        let rows = compare(&trees, &known, &selected, &SearchParams::default(), |_, _| {});
        for (index, row) in rows.iter().enumerate() {
            assert_eq!(row.disagreements, 0, "{} is wrong on a synthetic tree", drivers[index]);
            leaves[index].push(row.leaves);
        }
    }
    Measured { model, drivers, leaves }
}

const COLORS: [&str; 9] =
    ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#17becf", "#8c564b", "#e377c2", "#555555"];
const DASHES: [Option<&str>; 9] =
    [None, None, Some("6 3"), Some("2 3"), None, Some("6 3"), Some("2 3"), None, Some("2 3")];

fn leaves_figure(measured: &Measured) -> String {
    let depths: Vec<u32> = LEAVES_DEPTHS.collect();
    let width = leaves_width(measured.model);
    let ratio =
        |index: usize, d: usize| measured.leaves[index][d] / minimal_tree_leaves(width, depths[d]) as f64;
    let top_ratio = (0..measured.drivers.len())
        .flat_map(|i| (0..depths.len()).map(move |d| (i, d)))
        .map(|(i, d)| ratio(i, d))
        .fold(1.0, f64::max);
    let top_ratio = (top_ratio * 2.0).ceil() / 2.0;
    let plot = Plot { left: 56.0, top: 40.0, width: 470.0, height: 320.0 };
    let mut svg = Svg::new(
        740.0,
        420.0,
        &format!("Leaves evaluated against the minimal tree, {} synthetic trees", measured.model),
    );
    svg.text(
        (plot.left, 22.0),
        FONT,
        Anchor::Start,
        INK,
        &format!(
            "Leaves ÷ minimal tree, {} trees, width {}, mean of {} seeds",
            measured.model, width, LEAVES_SEEDS
        ),
    );
    svg.rect((plot.left, plot.top), (plot.width, plot.height), "none", "#999999");
    let x_of = |d: usize| plot.left + plot.width * d as f64 / (depths.len() - 1) as f64;
    let y_of = |r: f64| plot.top + plot.height * (top_ratio - r) / (top_ratio - 1.0);
    let step =
        [0.25, 0.5, 1.0, 2.0, 5.0].into_iter().find(|step| (top_ratio - 1.0) / step <= 8.0).unwrap_or(10.0);
    let mut tick = 1.0;
    while tick <= top_ratio + 1e-9 {
        let y = y_of(tick);
        svg.line((plot.left, y), (plot.left + plot.width, y), "#eeeeee", 1.0, false);
        svg.text((plot.left - 6.0, y + 4.0), SMALL, Anchor::End, INK, &format!("{tick:.2}"));
        tick += step;
    }
    for (d, depth) in depths.iter().enumerate() {
        let x = x_of(d);
        svg.line((x, plot.top + plot.height), (x, plot.top + plot.height + 4.0), INK, 1.0, false);
        svg.text((x, plot.top + plot.height + 18.0), SMALL, Anchor::Middle, INK, &depth.to_string());
    }
    svg.text(
        (plot.left + plot.width / 2.0, plot.top + plot.height + 36.0),
        SMALL,
        Anchor::Middle,
        INK,
        "depth",
    );
    svg.line((plot.left, y_of(1.0)), (plot.left + plot.width, y_of(1.0)), INK, 1.5, false);
    for index in 0..measured.drivers.len() {
        let points: Vec<(f64, f64)> = (0..depths.len()).map(|d| (x_of(d), y_of(ratio(index, d)))).collect();
        svg.polyline(&points, COLORS[index], 2.0, DASHES[index]);
        for &point in &points {
            svg.circle(point, 2.5, COLORS[index], COLORS[index], false);
        }
    }
    // Legend, ordered as the lines end at the deepest depth, so each name sits near its line.
    let mut order: Vec<usize> = (0..measured.drivers.len()).collect();
    order.sort_by(|&a, &b| ratio(b, depths.len() - 1).total_cmp(&ratio(a, depths.len() - 1)));
    for (row, &index) in order.iter().enumerate() {
        let y = plot.top + 10.0 + row as f64 * 22.0;
        let x = plot.left + plot.width + 20.0;
        svg.polyline(&[(x, y - 4.0), (x + 28.0, y - 4.0)], COLORS[index], 2.0, DASHES[index]);
        let label = format!("{} {:.2}", measured.drivers[index].name(), ratio(index, depths.len() - 1));
        svg.text((x + 34.0, y), SMALL, Anchor::Start, INK, &label);
    }
    svg.text(
        (plot.left + plot.width + 20.0, plot.top + 10.0 + 8.0 * 22.0 + 6.0),
        SMALL,
        Anchor::Start,
        "#555555",
        "(ratio at the deepest depth)",
    );
    svg.finish()
}

fn leaves_table(measured: &Measured) -> String {
    let depths: Vec<u32> = LEAVES_DEPTHS.collect();
    let width = leaves_width(measured.model);
    let mut out = String::from("| driver |");
    for depth in &depths {
        let _ = write!(out, " d={depth} |");
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|".repeat(depths.len()));
    out.push_str("\n| minimal tree |");
    for &depth in &depths {
        let _ = write!(out, " {} |", minimal_tree_leaves(width, depth));
    }
    for (index, driver) in measured.drivers.iter().enumerate() {
        let _ = write!(out, "\n| `{}` |", driver.name());
        for (d, &depth) in depths.iter().enumerate() {
            let ratio = measured.leaves[index][d] / minimal_tree_leaves(width, depth) as f64;
            let _ = write!(out, " {ratio:.3} |");
        }
    }
    out.push('\n');
    out
}

// ---------------------------------------------------------------------------------------------
// Tables for the text.

/// Alpha-beta's leaves on perfectly ordered trees beside Knuth and Moore's formula.
fn minimal_tree_table() -> String {
    let mut out = String::from(
        "| width | depth | w^⌈d/2⌉ + w^⌊d/2⌋ − 1 | `alphabeta` leaves, best move first | `alphabeta` leaves, best move first 90% of the time |\n|---:|---:|---:|---:|---:|\n",
    );
    for (width, depth) in [(2, 4), (2, 8), (3, 5), (4, 6), (8, 4), (8, 6), (10, 5)] {
        let leaves = |ordering: f64| {
            let config = SyntheticConfig { seed: 1, width, depth, ordering, ..SyntheticConfig::default() };
            let tree = SyntheticTree::new(config).expect("a valid configuration");
            let outcome = Driver::AlphaBeta.run(&tree, &SearchParams::default());
            assert_eq!(Some(outcome.value), tree.known_value());
            outcome.counts.leaves
        };
        let _ = writeln!(
            out,
            "| {width} | {depth} | {} | {} | {} |",
            minimal_tree_leaves(width, depth),
            leaves(1.0),
            leaves(0.9)
        );
    }
    out
}

/// What each enhancement of the engine buys: mean leaves and nodes with one switch changed.
fn enhancements_table() -> String {
    let base = SearchParams { iterative_deepening: true, ..SearchParams::default() };
    let variants: [(&str, SearchParams); 7] = [
        ("everything on (the default)", base.clone()),
        ("no iterative deepening", SearchParams { iterative_deepening: false, ..base.clone() }),
        ("no table move first", SearchParams { table_move_first: false, ..base.clone() }),
        ("no killer moves", SearchParams { killers: false, ..base.clone() }),
        ("no history heuristic", SearchParams { history: false, ..base.clone() }),
        (
            "enhanced transposition cutoff",
            SearchParams { enhanced_transposition_cutoff: true, ..base.clone() },
        ),
        ("a table of 256 entries", SearchParams { tt_entries: 256, ..base.clone() }),
    ];
    let algorithms = [Algorithm::AlphaBeta, Algorithm::Pvs, Algorithm::Mtdf];
    let seeds = 0..10u64;
    let mut out = String::from("| engine |");
    for algorithm in algorithms {
        let _ = write!(out, " `{algorithm}` leaves | nodes |");
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|---:|".repeat(algorithms.len()));
    for (name, config) in variants {
        let _ = write!(out, "\n| {name} |");
        for algorithm in algorithms {
            let (mut leaves, mut nodes) = (0u64, 0u64);
            for seed in seeds.clone() {
                let tree = SyntheticTree::new(SyntheticConfig {
                    seed,
                    width: 8,
                    depth: 7,
                    transpositions: true,
                    ..SyntheticConfig::default()
                })
                .expect("a valid configuration");
                let result = Engine::new(&config).search(&tree, algorithm, &config, |_| {});
                leaves += result.counts.leaves;
                nodes += result.counts.nodes;
            }
            let count = seeds.clone().count() as u64;
            let _ = write!(out, " {} | {} |", leaves / count, nodes / count);
        }
    }
    out.push('\n');
    out
}

/// Root passes per iteration of the drivers that make them, with iterative deepening, against the
/// spread of the values (a finer evaluation needs more passes).
fn passes_table() -> String {
    let algorithms =
        [Algorithm::Aspiration, Algorithm::Mtdf, Algorithm::MtdBi, Algorithm::Sss, Algorithm::Dual];
    let mut out = String::from("| values per edge |");
    for algorithm in algorithms {
        let _ = write!(out, " `{algorithm}` |");
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|".repeat(algorithms.len()));
    for spread in [10, 100, 1000] {
        let _ = write!(out, "\n| −{spread}..{spread} |");
        for algorithm in algorithms {
            let (mut passes, mut iterations) = (0usize, 0usize);
            for seed in 0..10 {
                let config =
                    SyntheticConfig { seed, width: 8, depth: 7, spread, ..SyntheticConfig::default() };
                let tree = SyntheticTree::new(config).expect("a valid configuration");
                let params = SearchParams { iterative_deepening: true, ..SearchParams::default() };
                let result = Engine::new(&params).search(&tree, algorithm, &params, |_| {});
                assert_eq!(Some(result.value), tree.known_value());
                passes += result.iterations.iter().map(|iteration| iteration.passes.len()).sum::<usize>();
                iterations += result.iterations.len();
            }
            let _ = write!(out, " {:.1} |", passes as f64 / iterations as f64);
        }
    }
    out.push('\n');
    out
}

/// Literal translations beside the engine's drivers on the same synthetic trees: leaves and nodes.
fn literal_table() -> String {
    let pairs = [
        ("kornilov-alphabeta", "alphabeta"),
        ("plaat-alphabeta-memory-corrected", "alphabeta"),
        ("verhelst-pvs", "pvs"),
        ("cpw-mtdf", "mtdf"),
        ("mtd-bi-literal-corrected", "mtd-bi"),
        ("sss-literal", "sss"),
        ("dual-literal", "dual"),
    ];
    let trees: Vec<SyntheticTree> = (0..10)
        .map(|seed| {
            SyntheticTree::new(SyntheticConfig { seed, width: 8, depth: 6, ..SyntheticConfig::default() })
        })
        .collect::<Result<_, _>>()
        .expect("a valid configuration");
    let known: Vec<Option<Value>> = trees.iter().map(SyntheticTree::known_value).collect();
    let mut out = String::from(
        "| literal translation | leaves | nodes | engine driver | leaves | nodes |\n|---|---:|---:|---|---:|---:|\n",
    );
    for (literal, engine) in pairs {
        let drivers = Driver::select(&format!("{literal},{engine}")).expect("registered drivers");
        let rows = compare(&trees, &known, &drivers, &SearchParams::default(), |_, _| {});
        assert!(rows.iter().all(|row| row.disagreements == 0), "{literal} or {engine} is wrong");
        let _ = writeln!(
            out,
            "| `{literal}` | {:.0} | {:.0} | `{engine}` | {:.0} | {:.0} |",
            rows[0].leaves, rows[0].nodes, rows[1].leaves, rows[1].nodes
        );
    }
    out
}
