//! The bounds figure: how the MTD drivers' passes close the root's lower and upper bounds on one
//! synthetic tree, one panel per driver.

use nullwindow::driver::{Pass, SearchParams};
use nullwindow::search::{Algorithm, Engine};
use nullwindow::tree::synthetic::{Model, SyntheticConfig, SyntheticTree};
use nullwindow::value::{INFINITY, Value};

use super::labels::show;
use super::svg::{Anchor, FONT, INK, Plot, SMALL, Svg, text_width};

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

/// The height of the bands at a panel's top and bottom edges where the off-scale values sit.
const BAND: f64 = 18.0;

/// One driver's search of the bounds tree: the value it found and the passes it made to find it.
struct Run {
    algorithm: Algorithm,
    value: Value,
    passes: Vec<Pass>,
}

pub(super) fn bounds_figure() -> String {
    let tree = SyntheticTree::new(BOUNDS_TREE).expect("a valid configuration");
    let runs: Vec<Run> = [Algorithm::Mtdf, Algorithm::MtdBi, Algorithm::Sss, Algorithm::Dual]
        .into_iter()
        .map(|algorithm| run(&tree, algorithm))
        .collect();
    let range = value_range(&runs);

    let (width, panel_w, panel_h) = (740.0, 360.0, 250.0);
    let height = 2.0 * panel_h + 86.0;
    let mut svg = Svg::new(width, height, "MTD drivers' bounds on the root value, pass by pass");
    for (index, run) in runs.iter().enumerate() {
        let (col, row) = ((index % 2) as f64, (index / 2) as f64);
        let plot = Plot {
            left: col * 370.0 + 52.0,
            top: row * panel_h + 34.0,
            width: panel_w - 64.0,
            height: panel_h - 80.0,
        };
        bounds_panel(&mut svg, &plot, run, range);
    }
    bounds_legend(&mut svg, 2.0 * panel_h + 28.0);
    svg.finish()
}

fn run(tree: &SyntheticTree, algorithm: Algorithm) -> Run {
    let params = SearchParams { first_guess: Some(0), ..SearchParams::default() };
    let result = Engine::new(&params).search(tree, algorithm, &params, |_| {});
    let passes = result.iterations.last().expect("one iteration").passes.clone();
    Run { algorithm, value: result.value, passes }
}

/// The values every panel's scale covers, on multiples of 5 with a step to spare at each end: all
/// the values and test values of every run but the off-scale ones, so that the panels compare.
fn value_range(runs: &[Run]) -> (Value, Value) {
    let finite = runs
        .iter()
        .flat_map(|run| std::iter::once(run.value).chain(run.passes.iter().flat_map(|p| [p.beta, p.result])))
        .filter(|v| v.abs() <= OFF_SCALE);
    let (lo, hi) = finite.fold((0, 0), |(lo, hi), v| (lo.min(v), hi.max(v)));
    (lo - lo.rem_euclid(5) - 5, hi - hi.rem_euclid(5) + 5)
}

/// The key to the lines and marks, and the tree the panels searched.
fn bounds_legend(svg: &mut Svg, legend_y: f64) {
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
            "Synthetic tree: seed {}, width {}, depth {}, independent leaves in −{s}..{s}; first guess 0.",
            BOUNDS_TREE.seed,
            BOUNDS_TREE.width,
            BOUNDS_TREE.depth,
            s = BOUNDS_TREE.spread
        ),
    );
    svg.text((16.0, legend_y + 40.0), SMALL, Anchor::Start, INK, "Values off the scale sit on the ±∞ edges.");
}

/// Where a value and a pass number stand in one panel.
struct Scale<'a> {
    plot: &'a Plot,
    lo: Value,
    hi: Value,
    /// The passes the horizontal axis divides into (at least one).
    count: usize,
}

impl Scale<'_> {
    /// A value's height: between the bands when it is in `lo..=hi`, on a band when it is beyond.
    fn y(&self, v: Value) -> f64 {
        let inner_top = self.plot.top + BAND;
        let inner_height = self.plot.height - 2.0 * BAND;
        if v > self.hi {
            self.plot.top
        } else if v < self.lo {
            self.plot.top + self.plot.height
        } else {
            inner_top + inner_height * f64::from(self.hi - v) / f64::from(self.hi - self.lo)
        }
    }

    /// Where the bounds stand after `pass` passes.
    fn x(&self, pass: usize) -> f64 {
        self.plot.left + self.plot.width * pass as f64 / self.count as f64
    }
}

fn bounds_panel(svg: &mut Svg, plot: &Plot, run: &Run, (lo, hi): (Value, Value)) {
    let scale = Scale { plot, lo, hi, count: run.passes.len().max(1) };
    svg.text(
        (plot.left, plot.top - 12.0),
        FONT,
        Anchor::Start,
        INK,
        &format!("{}: {} passes to the value {}", run.algorithm.name(), run.passes.len(), show(run.value)),
    );
    svg.rect((plot.left, plot.top), (plot.width, plot.height), "none", "#999999");
    value_axis(svg, &scale);
    pass_axis(svg, &scale);
    svg.line(
        (plot.left, scale.y(run.value)),
        (plot.left + plot.width, scale.y(run.value)),
        "#666666",
        1.5,
        true,
    );
    bound_steps(svg, &scale, &run.passes);
    for (index, pass) in run.passes.iter().enumerate() {
        svg.circle((scale.x(index + 1), scale.y(pass.beta)), 4.0, "white", INK, false);
    }
}

/// Value ticks every 5, labelled and gridded every 10, and the infinities on the bands.
fn value_axis(svg: &mut Svg, scale: &Scale<'_>) {
    let plot = scale.plot;
    let mut tick = scale.lo;
    while tick <= scale.hi {
        let y = scale.y(tick);
        if tick % 10 == 0 {
            svg.line((plot.left, y), (plot.left + plot.width, y), "#eeeeee", 1.0, false);
            svg.text((plot.left - 5.0, y + 4.0), SMALL, Anchor::End, INK, &show(tick));
        }
        tick += 5;
    }
    svg.text((plot.left - 5.0, plot.top + 4.0), SMALL, Anchor::End, INK, "+∞");
    svg.text((plot.left - 5.0, plot.top + plot.height + 4.0), SMALL, Anchor::End, INK, "−∞");
}

/// A tick per pass, numbered (every other one when there are many).
fn pass_axis(svg: &mut Svg, scale: &Scale<'_>) {
    let plot = scale.plot;
    for pass in 0..=scale.count {
        let x = scale.x(pass);
        svg.line((x, plot.top + plot.height), (x, plot.top + plot.height + 4.0), INK, 1.0, false);
        if scale.count <= 12 || pass % 2 == 0 {
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
}

/// The upper and lower bounds as steps: a bound holds until the pass that moves it.
fn bound_steps(svg: &mut Svg, scale: &Scale<'_>, passes: &[Pass]) {
    let (mut lower, mut upper) = (-INFINITY, INFINITY);
    let mut lows = vec![(scale.x(0), scale.y(lower))];
    let mut ups = vec![(scale.x(0), scale.y(upper))];
    for (index, pass) in passes.iter().enumerate() {
        (lower, upper) = pass.narrow((lower, upper));
        let x = scale.x(index + 1);
        lows.extend([(x, lows[lows.len() - 1].1), (x, scale.y(lower))]);
        ups.extend([(x, ups[ups.len() - 1].1), (x, scale.y(upper))]);
    }
    svg.polyline(&ups, "#c53030", 2.0, None);
    svg.polyline(&lows, "#2b6cb0", 2.0, None);
}
