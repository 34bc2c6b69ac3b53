//! Leaves against the minimal tree, across depths: every driver measured on synthetic trees of one
//! model, drawn as a figure and written as a table.

use std::fmt::Write as _;

use nullwindow::compare::{compare, minimal_tree_leaves};
use nullwindow::driver::SearchParams;
use nullwindow::registry::Driver;
use nullwindow::search::Algorithm;
use nullwindow::tree::synthetic::{Model, SyntheticConfig, SyntheticTree};
use nullwindow::value::Value;

use super::svg::{Anchor, FONT, INK, Plot, SMALL, Svg};

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

const COLORS: [&str; 10] = [
    "#1f77b4", "#ff7f0e", "#bcbd22", "#2ca02c", "#d62728", "#9467bd", "#17becf", "#8c564b", "#e377c2",
    "#555555",
];
const DASHES: [Option<&str>; 10] =
    [None, None, Some("6 3"), Some("6 3"), Some("2 3"), None, Some("6 3"), Some("2 3"), None, Some("2 3")];

/// Mean leaves per driver and depth on synthetic trees of `model`.
pub(super) struct Measured {
    model: Model,
    depths: Vec<u32>,
    drivers: Vec<Algorithm>,
    /// `leaves[driver][depth index]`: mean leaves per tree.
    leaves: Vec<Vec<f64>>,
}

impl Measured {
    const fn width(&self) -> u32 {
        leaves_width(self.model)
    }

    /// The mean leaves of the `index`th driver at the `d`th depth, over the minimal tree's.
    fn ratio(&self, index: usize, d: usize) -> f64 {
        self.leaves[index][d] / minimal_tree_leaves(self.width(), self.depths[d]) as f64
    }
}

fn leaves_config(model: Model, depth: u32, seed: u64) -> SyntheticConfig {
    SyntheticConfig { seed, width: leaves_width(model), depth, model, ..SyntheticConfig::default() }
}

pub(super) fn leaves_by_depth(model: Model) -> Measured {
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
    Measured { model, depths: LEAVES_DEPTHS.collect(), drivers, leaves }
}

pub(super) fn leaves_table(measured: &Measured) -> String {
    let mut out = String::from("| driver |");
    for depth in &measured.depths {
        let _ = write!(out, " d={depth} |");
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|".repeat(measured.depths.len()));
    out.push_str("\n| minimal tree |");
    for &depth in &measured.depths {
        let _ = write!(out, " {} |", minimal_tree_leaves(measured.width(), depth));
    }
    for (index, driver) in measured.drivers.iter().enumerate() {
        let _ = write!(out, "\n| `{}` |", driver.name());
        for d in 0..measured.depths.len() {
            let _ = write!(out, " {:.3} |", measured.ratio(index, d));
        }
    }
    out.push('\n');
    out
}

pub(super) fn leaves_figure(measured: &Measured) -> String {
    let plot = Plot { left: 56.0, top: 40.0, width: 470.0, height: 320.0 };
    let scale = Scale { plot: &plot, top_ratio: top_ratio(measured), depths: measured.depths.len() };
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
            measured.model,
            measured.width(),
            LEAVES_SEEDS
        ),
    );
    svg.rect((plot.left, plot.top), (plot.width, plot.height), "none", "#999999");
    ratio_axis(&mut svg, &scale);
    depth_axis(&mut svg, &scale, &measured.depths);
    svg.line((plot.left, scale.y(1.0)), (plot.left + plot.width, scale.y(1.0)), INK, 1.5, false);
    driver_lines(&mut svg, &scale, measured);
    legend(&mut svg, &plot, measured);
    svg.finish()
}

/// The top of the ratio axis: the largest ratio measured, rounded up to a half.
fn top_ratio(measured: &Measured) -> f64 {
    let top_ratio = (0..measured.drivers.len())
        .flat_map(|i| (0..measured.depths.len()).map(move |d| (i, d)))
        .map(|(i, d)| measured.ratio(i, d))
        .fold(1.0, f64::max);
    (top_ratio * 2.0).ceil() / 2.0
}

/// Where a depth and a ratio stand in the plot.
struct Scale<'a> {
    plot: &'a Plot,
    /// The ratio at the plot's top edge; 1 (the minimal tree) is at its bottom edge.
    top_ratio: f64,
    depths: usize,
}

impl Scale<'_> {
    fn x(&self, d: usize) -> f64 {
        self.plot.left + self.plot.width * d as f64 / (self.depths - 1) as f64
    }

    fn y(&self, r: f64) -> f64 {
        self.plot.top + self.plot.height * (self.top_ratio - r) / (self.top_ratio - 1.0)
    }
}

/// Ratio ticks with grid lines, at most about eight of them, at a round step.
fn ratio_axis(svg: &mut Svg, scale: &Scale<'_>) {
    let plot = scale.plot;
    let step = [0.25, 0.5, 1.0, 2.0, 5.0]
        .into_iter()
        .find(|step| (scale.top_ratio - 1.0) / step <= 8.0)
        .unwrap_or(10.0);
    let mut tick = 1.0;
    while tick <= scale.top_ratio + 1e-9 {
        let y = scale.y(tick);
        svg.line((plot.left, y), (plot.left + plot.width, y), "#eeeeee", 1.0, false);
        svg.text((plot.left - 6.0, y + 4.0), SMALL, Anchor::End, INK, &format!("{tick:.2}"));
        tick += step;
    }
}

fn depth_axis(svg: &mut Svg, scale: &Scale<'_>, depths: &[u32]) {
    let plot = scale.plot;
    for (d, depth) in depths.iter().enumerate() {
        let x = scale.x(d);
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
}

/// Each driver's ratios across the depths, as a line with a dot at each depth.
fn driver_lines(svg: &mut Svg, scale: &Scale<'_>, measured: &Measured) {
    for index in 0..measured.drivers.len() {
        let points: Vec<(f64, f64)> =
            (0..measured.depths.len()).map(|d| (scale.x(d), scale.y(measured.ratio(index, d)))).collect();
        svg.polyline(&points, COLORS[index], 2.0, DASHES[index]);
        for &point in &points {
            svg.circle(point, 2.5, COLORS[index], COLORS[index], false);
        }
    }
}

/// The drivers' names beside the plot, ordered as the lines end at the deepest depth, so that each
/// name sits near its line.
fn legend(svg: &mut Svg, plot: &Plot, measured: &Measured) {
    let deepest = measured.depths.len() - 1;
    let mut order: Vec<usize> = (0..measured.drivers.len()).collect();
    order.sort_by(|&a, &b| measured.ratio(b, deepest).total_cmp(&measured.ratio(a, deepest)));
    for (row, &index) in order.iter().enumerate() {
        let y = plot.top + 10.0 + row as f64 * 22.0;
        let x = plot.left + plot.width + 20.0;
        svg.polyline(&[(x, y - 4.0), (x + 28.0, y - 4.0)], COLORS[index], 2.0, DASHES[index]);
        let label = format!("{} {:.2}", measured.drivers[index].name(), measured.ratio(index, deepest));
        svg.text((x + 34.0, y), SMALL, Anchor::Start, INK, &label);
    }
    // Under the last name, however many drivers there are.
    svg.text(
        (plot.left + plot.width + 20.0, plot.top + 10.0 + order.len() as f64 * 22.0 + 6.0),
        SMALL,
        Anchor::Start,
        "#555555",
        "(ratio at the deepest depth)",
    );
}
