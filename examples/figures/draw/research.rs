//! The research figure: Plaat et al.'s comparison of MTD(f) with aspiration NegaScout ("Best-first
//! fixed-depth minimax algorithms", 1996, §5), repeated on two real games, Connect Four and
//! tic-tac-toe.
//!
//! For each game and depth, every driver of [`DRIVERS`] searches every start position with iterative
//! deepening from depth 1, a fresh table of [`TT_ENTRIES`] entries and the other switches at their
//! defaults; leaves, nodes and time are summed over the positions and divided by those of the
//! baseline, `aspiration-negascout`, at the same depth.
//!
//! These files are not part of [`super::all`]: a Connect Four search to depth 12 takes a release
//! build, and the debug build of `cargo test` recomputes every figure of `all`. So
//! `cargo run --release --example figures -- research` writes them ([`files`]), [`FILES`] names
//! them for the book's test, which accepts them as drawn, and the test recomputes the leaves and
//! nodes of the cheap depths ([`Experiment::checked_depths`]) with [`counts`] and [`count_row`]
//! and compares them with the committed table. Times are measured, not recomputed: they are the
//! median of [`RUNS`] runs on the machine that wrote the table.

use std::fmt::Write as _;
use std::ops::RangeInclusive;
use std::time::Duration;

use nullwindow::driver::{Hooks, SearchParams};
use nullwindow::game::Game;
use nullwindow::games::connect4::Connect4;
use nullwindow::games::tictactoe::TicTacToe;
use nullwindow::registry::Driver;
use nullwindow::search::Algorithm;

use super::svg::{Anchor, FONT, INK, Plot, SMALL, Svg};

/// The drivers measured, the baseline first: Plaat et al.'s aspiration NegaScout, then alpha-beta
/// with the same aspiration windows, PVS (a full window at the root), MTD(f), SSS* and DUAL*.
pub const DRIVERS: [Algorithm; 6] = [
    Algorithm::AspirationNegaScout,
    Algorithm::Aspiration,
    Algorithm::Pvs,
    Algorithm::Mtdf,
    Algorithm::Sss,
    Algorithm::Dual,
];

/// Transposition-table entries, the same for every driver: the crate's default. A fresh table is
/// made for every search, so a larger one would cost more to allocate than the searches do.
pub const TT_ENTRIES: usize = 1 << 16;

/// The half-width of the aspiration windows: the narrowest, `(v - 1, v + 1)` around the previous
/// iteration's value `v`. Both games score within ±21, so the default ±50 would hold every value
/// they have, and the aspiration drivers would search with the full window.
pub const ASPIRATION_DELTA: i32 = 1;

/// Runs per measurement, every driver once per round so that a busy moment of the machine falls on
/// all of them alike; the table shows each driver's median time.
pub const RUNS: usize = 5;

/// The files the research generator writes, under `book/src/figures/`.
pub const FILES: [&str; 4] =
    ["research-connect4.svg", "research-connect4.md", "research-tictactoe.svg", "research-tictactoe.md"];

const COLORS: [&str; 6] = ["#222222", "#ff7f0e", "#2ca02c", "#9467bd", "#e377c2", "#555555"];
const DASHES: [Option<&str>; 6] = [None, None, Some("6 3"), None, None, Some("2 3")];

/// One game of the experiment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Experiment {
    /// Connect Four from each of the 294 openings of `testdata/connect4/hard-8-14.txt` (8 to 14
    /// stones, 42 of each count), depths 3 to 12.
    Connect4,
    /// Tic-tac-toe from the empty board, depths 1 to 9 (the whole game).
    TicTacToe,
}

impl Experiment {
    /// Both games.
    pub const ALL: [Self; 2] = [Self::Connect4, Self::TicTacToe];

    /// The name in the files' names.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Connect4 => "connect4",
            Self::TicTacToe => "tictactoe",
        }
    }

    const fn title(self) -> &'static str {
        match self {
            Self::Connect4 => "Connect Four, 294 openings of 8 to 14 stones",
            Self::TicTacToe => "Tic-tac-toe, the empty board",
        }
    }

    /// The depths measured.
    pub const fn depths(self) -> RangeInclusive<u32> {
        match self {
            Self::Connect4 => 3..=12,
            Self::TicTacToe => 1..=9,
        }
    }

    /// The depths the book's test recomputes in a debug build, in a few seconds.
    pub const fn checked_depths(self) -> RangeInclusive<u32> {
        match self {
            Self::Connect4 => 3..=6,
            Self::TicTacToe => 1..=9,
        }
    }

    /// The start positions, as columns (Connect Four) or squares (tic-tac-toe) played.
    pub fn positions(self) -> Vec<&'static str> {
        match self {
            Self::Connect4 => include_str!("../../../testdata/connect4/hard-8-14.txt")
                .lines()
                .map(|line| line.split_whitespace().next().expect("a line starts with its moves"))
                .collect(),
            Self::TicTacToe => vec![""],
        }
    }
}

/// What one driver cost at one depth, summed over the start positions.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cost {
    /// Leaves evaluated.
    pub leaves: u64,
    /// Nodes visited (not counting the verification of the principal variation).
    pub nodes: u64,
    /// The median time of [`RUNS`] runs (zero when only counted).
    pub time: Duration,
}

/// The search parameters of every run at `depth`.
fn params(depth: u32) -> SearchParams {
    SearchParams {
        depth,
        iterative_deepening: true,
        tt_entries: TT_ENTRIES,
        aspiration_delta: ASPIRATION_DELTA,
        ..SearchParams::default()
    }
}

/// One run of `algorithm` over every start position of `experiment` at `depth`: leaves, nodes, time.
fn run(experiment: Experiment, algorithm: Algorithm, depth: u32) -> Cost {
    fn search<G: Game>(game: &G, algorithm: Algorithm, depth: u32) -> Cost {
        let driver = Driver::for_algorithm(algorithm);
        let outcome = driver.run_from(game, &game.root(), &params(depth), Hooks::default());
        Cost { leaves: outcome.counts.leaves, nodes: outcome.counts.nodes, time: outcome.elapsed }
    }
    let mut total = Cost::default();
    for moves in experiment.positions() {
        let cost = match experiment {
            Experiment::Connect4 => {
                search(&Connect4::from_moves(moves).expect("a legal opening"), algorithm, depth)
            }
            Experiment::TicTacToe => {
                search(&TicTacToe::from_moves(moves).expect("a legal position"), algorithm, depth)
            }
        };
        total.leaves += cost.leaves;
        total.nodes += cost.nodes;
        total.time += cost.time;
    }
    total
}

/// Leaves and nodes of every driver of [`DRIVERS`] at `depth`, with no time.
pub fn counts(experiment: Experiment, depth: u32) -> Vec<Cost> {
    DRIVERS
        .iter()
        .map(|&algorithm| Cost { time: Duration::ZERO, ..run(experiment, algorithm, depth) })
        .collect()
}

/// Every driver at every depth of `experiment`, the time the median of [`RUNS`] runs (whose counts
/// must agree).
pub fn measure(experiment: Experiment) -> Vec<(u32, Vec<Cost>)> {
    experiment
        .depths()
        .map(|depth| {
            let rounds: Vec<Vec<Cost>> = (0..RUNS)
                .map(|_| DRIVERS.iter().map(|&algorithm| run(experiment, algorithm, depth)).collect())
                .collect();
            let costs = (0..DRIVERS.len())
                .map(|index| {
                    let runs: Vec<Cost> = rounds.iter().map(|round| round[index]).collect();
                    assert!(
                        runs.iter().all(|cost| (cost.leaves, cost.nodes) == (runs[0].leaves, runs[0].nodes))
                    );
                    let mut times: Vec<Duration> = runs.iter().map(|cost| cost.time).collect();
                    times.sort();
                    Cost { time: times[RUNS / 2], ..runs[0] }
                })
                .collect();
            (depth, costs)
        })
        .collect()
}

/// Which count a table or panel shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// Leaves evaluated.
    Leaves,
    /// Nodes visited.
    Nodes,
    /// Median time.
    Time,
}

impl Measure {
    fn of(self, cost: &Cost) -> f64 {
        match self {
            Self::Leaves => cost.leaves as f64,
            Self::Nodes => cost.nodes as f64,
            Self::Time => cost.time.as_secs_f64() * 1000.0,
        }
    }

    /// The sentence above its table.
    pub const fn caption(self) -> &'static str {
        match self {
            Self::Leaves => "Leaves: the baseline's count, and each other driver's divided by it.",
            Self::Nodes => "Nodes: the baseline's count, and each other driver's divided by it.",
            Self::Time => {
                "Time: the baseline's median in milliseconds, and each other driver's divided by it."
            }
        }
    }
}

/// One row of a table: the depth, the baseline's count (or time) and every other driver's ratio to it.
pub fn count_row(measure: Measure, depth: u32, costs: &[Cost]) -> String {
    let base = measure.of(&costs[0]);
    let mut row = match measure {
        Measure::Time => format!("| {depth} | {base:.3} |"),
        _ => format!("| {depth} | {base:.0} |"),
    };
    for cost in &costs[1..] {
        let _ = write!(row, " {:.3} |", measure.of(cost) / base);
    }
    row
}

/// The three tables (leaves, nodes, time) of a measured experiment.
pub fn table(measured: &[(u32, Vec<Cost>)]) -> String {
    let mut out = String::new();
    for measure in [Measure::Leaves, Measure::Nodes, Measure::Time] {
        if !out.is_empty() {
            out.push('\n');
        }
        let _ = writeln!(out, "{}\n", measure.caption());
        out.push_str("| depth |");
        for algorithm in DRIVERS {
            let _ = write!(out, " `{}` |", algorithm.name());
        }
        out.push_str("\n|---:|");
        out.push_str(&"---:|".repeat(DRIVERS.len()));
        out.push('\n');
        for (depth, costs) in measured {
            out.push_str(&count_row(measure, *depth, costs));
            out.push('\n');
        }
    }
    out
}

/// The figure: leaves and nodes of every driver over the baseline's, one panel each, across depths.
pub fn figure(experiment: Experiment, measured: &[(u32, Vec<Cost>)]) -> String {
    let mut svg = Svg::new(
        860.0,
        452.0,
        &format!("{}: leaves and nodes of each driver over aspiration NegaScout's", experiment.title()),
    );
    svg.text((56.0, 22.0), FONT, Anchor::Start, INK, experiment.title());
    svg.text(
        (56.0, 40.0),
        SMALL,
        Anchor::Start,
        "#555555",
        "each driver over aspiration-negascout; iterative deepening, aspiration windows ±1, 2^16 table entries",
    );
    let panels = [
        (Measure::Leaves, Plot { left: 56.0, top: 76.0, width: 260.0, height: 300.0 }),
        (Measure::Nodes, Plot { left: 386.0, top: 76.0, width: 260.0, height: 300.0 }),
    ];
    for (measure, plot) in &panels {
        panel(&mut svg, plot, *measure, measured);
    }
    legend(&mut svg, &panels[1].1, measured);
    svg.finish()
}

fn ratio(measure: Measure, costs: &[Cost], index: usize) -> f64 {
    measure.of(&costs[index]) / measure.of(&costs[0])
}

/// One panel: a line per driver, the ratio to the baseline at each depth.
fn panel(svg: &mut Svg, plot: &Plot, measure: Measure, measured: &[(u32, Vec<Cost>)]) {
    let ratios =
        measured.iter().flat_map(|(_, costs)| (0..costs.len()).map(move |i| ratio(measure, costs, i)));
    let (low, high) = ratios.fold((1.0_f64, 1.0_f64), |(low, high), r| (low.min(r), high.max(r)));
    let step = [0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0]
        .into_iter()
        .find(|step| (high - low) / step <= 7.0)
        .unwrap_or(10.0);
    let (bottom, top) = ((low / step).floor() * step, (high / step).ceil() * step);
    let top = if top - bottom < step { bottom + step } else { top };
    let x = |d: usize| plot.left + plot.width * d as f64 / (measured.len() - 1).max(1) as f64;
    let y = |r: f64| plot.top + plot.height * (top - r) / (top - bottom);
    let name = if measure == Measure::Leaves { "leaves" } else { "nodes" };
    svg.text(
        (plot.left, plot.top - 10.0),
        SMALL,
        Anchor::Start,
        INK,
        &format!("{name} ÷ aspiration-negascout's"),
    );
    svg.rect((plot.left, plot.top), (plot.width, plot.height), "none", "#999999");
    let mut tick = bottom;
    while tick <= top + 1e-9 {
        svg.line((plot.left, y(tick)), (plot.left + plot.width, y(tick)), "#eeeeee", 1.0, false);
        svg.text((plot.left - 6.0, y(tick) + 4.0), SMALL, Anchor::End, INK, &format!("{tick:.2}"));
        tick += step;
    }
    for (d, (depth, _)) in measured.iter().enumerate() {
        let bottom_edge = plot.top + plot.height;
        svg.line((x(d), bottom_edge), (x(d), bottom_edge + 4.0), INK, 1.0, false);
        svg.text((x(d), bottom_edge + 18.0), SMALL, Anchor::Middle, INK, &depth.to_string());
    }
    svg.text(
        (plot.left + plot.width / 2.0, plot.top + plot.height + 36.0),
        SMALL,
        Anchor::Middle,
        INK,
        "depth",
    );
    // The baseline last, so that its line at 1 is on top.
    for index in (0..DRIVERS.len()).rev() {
        let points: Vec<(f64, f64)> = measured
            .iter()
            .enumerate()
            .map(|(d, (_, costs))| (x(d), y(ratio(measure, costs, index))))
            .collect();
        svg.polyline(&points, COLORS[index], if index == 0 { 2.5 } else { 2.0 }, DASHES[index]);
        for &point in &points {
            svg.circle(point, 2.5, COLORS[index], COLORS[index], false);
        }
    }
}

/// The drivers' names right of the nodes panel, ordered by their leaf ratio at the deepest depth,
/// with that ratio and the node ratio.
fn legend(svg: &mut Svg, plot: &Plot, measured: &[(u32, Vec<Cost>)]) {
    let (deepest, costs) = measured.last().expect("at least one depth");
    let mut order: Vec<usize> = (0..DRIVERS.len()).collect();
    order.sort_by(|&a, &b| ratio(Measure::Leaves, costs, b).total_cmp(&ratio(Measure::Leaves, costs, a)));
    let x = plot.left + plot.width + 20.0;
    svg.text(
        (x, plot.top - 10.0),
        SMALL,
        Anchor::Start,
        "#555555",
        &format!("at depth {deepest}: leaves, nodes"),
    );
    for (row, &index) in order.iter().enumerate() {
        let y = plot.top + 14.0 + row as f64 * 40.0;
        svg.polyline(&[(x, y - 4.0), (x + 28.0, y - 4.0)], COLORS[index], 2.0, DASHES[index]);
        svg.text((x + 34.0, y), SMALL, Anchor::Start, INK, DRIVERS[index].name());
        let label = format!(
            "{:.3}, {:.3}",
            ratio(Measure::Leaves, costs, index),
            ratio(Measure::Nodes, costs, index)
        );
        svg.text((x + 34.0, y + 16.0), SMALL, Anchor::Start, "#555555", &label);
    }
}

/// Measures both games and returns every research file: its name under `book/src/figures/` and its
/// contents, in the order of [`FILES`].
pub fn files() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for experiment in Experiment::ALL {
        let measured = measure(experiment);
        files.push((format!("research-{}.svg", experiment.name()), figure(experiment, &measured)));
        files.push((format!("research-{}.md", experiment.name()), table(&measured)));
    }
    files
}
