//! The figures of the teaching tree: its minimax values, each driver's search of it pass by pass, and
//! the order in which SSS* and MT-SSS* evaluate its leaves.

use nullwindow::driver::observe::Probe;
use nullwindow::driver::{Pass, SearchParams};
use nullwindow::registry::Driver;
use nullwindow::search::Algorithm;
use nullwindow::tree::Tree;
use nullwindow::value::{INFINITY, Value};

use super::labels::{plural, show, window};
use super::layout::{Layout, RADIUS, TREE_WIDTH};
use super::panel::{LEAF_LABELS, LEGEND_HEIGHT, panel_height, tree_legend, tree_panel};
use super::record::{Visit, trace_passes};
use super::svg::{Anchor, EVALUATED, FAINT, FONT, INK, SMALL, Svg};

/// The room under the leaves of the SSS* order figure for their ranks.
const RANK_ROOM: f64 = 52.0;

pub(super) fn minimax_tree_figure(tree: &Tree) -> String {
    let layout = Layout::new(tree);
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

/// One panel per root pass of `algorithm` (one panel for a driver that makes none), each titled
/// with the pass's window and what it proved about the root's value.
pub(super) fn searched_tree_figure(tree: &Tree, algorithm: Algorithm) -> String {
    let layout = Layout::new(tree);
    let (value, passes) = trace_passes(tree, algorithm);
    let panel = panel_height(&layout);
    let height = panel * passes.len() as f64 + LEGEND_HEIGHT + REPRODUCE_HEIGHT + 8.0;
    let mut svg = Svg::new(
        TREE_WIDTH,
        height,
        &format!("The teaching tree as the engine's {} searches it, pass by pass", algorithm.name()),
    );
    let mut bounds = (-INFINITY, INFINITY);
    for (index, visits) in passes.iter().enumerate() {
        let root = visits.last().expect("a pass finishes at its root");
        let title = if algorithm.makes_passes() {
            bounds = Pass { alpha: root.alpha, beta: root.beta, result: root.result }.narrow(bounds);
            pass_title(algorithm, index + 1, visits, bounds)
        } else {
            search_title(algorithm, value, visits)
        };
        tree_panel(&mut svg, tree, &layout, index as f64 * panel, &title, Some(visits));
    }
    tree_legend(&mut svg, panel * passes.len() as f64 + 4.0);
    let all: Vec<Visit> = passes.concat();
    // Two lines: the command alone is as wide as a narrow picture allows in a wide font.
    let below = panel * passes.len() as f64 + LEGEND_HEIGHT;
    svg.text(
        (8.0, below + 18.0),
        SMALL,
        Anchor::Start,
        INK,
        &format!("In all {}; to reproduce:", work(&all)),
    );
    svg.text((8.0, below + 34.0), SMALL, Anchor::Start, INK, &reproduce_command(algorithm));
    svg.finish()
}

/// The room under a searched tree's legend for the two lines that say how to reproduce its counts.
const REPRODUCE_HEIGHT: f64 = 36.0;

/// The command that prints the counts a searched tree figure shows: the figures search with killer
/// moves and the history heuristic off (see `record`), so the command turns them off too.
fn reproduce_command(algorithm: Algorithm) -> String {
    format!(
        "nullwindow solve testdata/trees/teaching.tree --algo {} --no-killers --no-history",
        algorithm.name()
    )
}

/// A pass's title: its window, its result, and the bounds on the root's value once it is done.
fn pass_title(
    algorithm: Algorithm,
    number: usize,
    visits: &[Visit],
    (lower, upper): (Value, Value),
) -> String {
    let root = visits.last().expect("a pass finishes at its root");
    format!(
        "{} pass {number}: window {} returns {}; value in [{}, {}]; {}",
        algorithm.name(),
        window(root.alpha, root.beta),
        show(root.result),
        show(lower),
        show(upper),
        work(visits)
    )
}

/// The title of a driver's only search.
fn search_title(algorithm: Algorithm, value: Value, visits: &[Visit]) -> String {
    let root = visits.last().expect("a search finishes at its root");
    format!(
        "{}: one search, window {}, value {}; {}",
        algorithm.name(),
        window(root.alpha, root.beta),
        show(value),
        work(visits)
    )
}

/// How many nodes a pass finished, and how many of them were leaves it evaluated.
fn work(visits: &[Visit]) -> String {
    let leaves = visits.iter().filter(|v| v.probe == Probe::None).count();
    format!("{} nodes, {}", visits.len(), plural(leaves, "leaf", "leaves"))
}

/// Stockman's SSS* and MT-SSS* on the teaching tree, each evaluated leaf numbered by when it was
/// first evaluated: the theorem that the two evaluate the same leaves in the same order, drawn.
pub(super) fn sss_order_figure(tree: &Tree) -> String {
    let layout = Layout::new(tree);
    let panel = layout.to_deepest() + RANK_ROOM;
    let drivers = [
        (Driver::StockmanSss, "Stockman's SSS* (OPEN list)"),
        (Driver::MtSss, "MT-SSS*: MTD(+∞) over AlphaBetaWithMemory"),
    ];
    let mut svg = Svg::new(
        TREE_WIDTH,
        panel * drivers.len() as f64 + 30.0,
        "The order in which Stockman's SSS* and MT-SSS* first evaluate the leaves of the teaching tree",
    );
    for (index, (driver, name)) in drivers.into_iter().enumerate() {
        let order = FirstEvaluations::of(tree, driver);
        order_panel(&mut svg, tree, &layout, index as f64 * panel, name, &order);
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

/// When each leaf was first evaluated by a driver: its rank, counting from 1.
struct FirstEvaluations {
    rank: Vec<Option<usize>>,
    count: usize,
}

impl FirstEvaluations {
    fn of(tree: &Tree, driver: Driver) -> Self {
        let (_, evaluated) = driver.run_recording_leaves(tree, &SearchParams::default());
        let mut rank: Vec<Option<usize>> = vec![None; tree.node_count()];
        let mut count = 0;
        for node in evaluated {
            if rank[node.index()].is_none() {
                count += 1;
                rank[node.index()] = Some(count);
            }
        }
        Self { rank, count }
    }
}

fn order_panel(svg: &mut Svg, tree: &Tree, layout: &Layout, top: f64, name: &str, order: &FirstEvaluations) {
    svg.text(
        (8.0, top + 15.0),
        FONT,
        Anchor::Start,
        INK,
        &format!("{name}: {} leaves, numbered in the order they are first evaluated", order.count),
    );
    layout.draw_level_names(svg, top);
    let nodes = tree.post_order();
    for &node in &nodes {
        for &child in tree.children(node) {
            let from = (layout.x(node), layout.y(top, node) + RADIUS);
            let to = (layout.x(child), layout.y(top, child) - RADIUS);
            svg.line(from, to, FAINT, 1.0, false);
        }
    }
    for &node in &nodes {
        let (x, y) = (layout.x(node), layout.y(top, node));
        match order.rank[node.index()] {
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
