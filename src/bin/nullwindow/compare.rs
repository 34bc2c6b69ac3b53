//! `nullwindow compare`: drivers side by side on a set of implicit synthetic trees, measured against
//! the Knuth–Moore minimal tree.

use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, ValueEnum};
use nullwindow::compare::{Row, compare, minimal_tree_leaves, minimal_tree_nodes};
use nullwindow::driver::SearchParams;
use nullwindow::registry::Driver;
use nullwindow::tree::synthetic::{Model, SyntheticConfig, SyntheticTree};
use serde::Serialize;

use crate::CliError;
use crate::ordering::OrderingArgs;
use crate::output::{errln, outln};

#[derive(Clone, Copy, ValueEnum)]
enum ModelArg {
    /// Independent uniform leaf values; interior evaluations 0; random order.
    Independent,
    /// Each edge adds a delta to its parent's value; interior evaluations predict the leaves.
    Incremental,
}

#[derive(Args)]
pub struct CompareArgs {
    /// Drivers to compare, comma-separated (see `nullwindow algos`), or a group.
    #[arg(long, default_value = "optimized")]
    algo: String,
    /// Children of every interior node (1 to 48).
    #[arg(long, default_value_t = 8)]
    width: u32,
    /// Depth of every leaf (0 to 32).
    #[arg(long, default_value_t = 8, allow_hyphen_values = true, value_parser = crate::sizes::depth)]
    depth: u32,
    /// How values are made.
    #[arg(long, value_enum, default_value_t = ModelArg::Incremental)]
    model: ModelArg,
    /// Incremental model: the probability that the best child comes first.
    #[arg(long, default_value_t = 0.9)]
    ordering: f64,
    /// Let positions be reached by several move orders.
    #[arg(long)]
    transpositions: bool,
    /// Leaf values (independent) or per-edge deltas (incremental) lie in -SPREAD..=SPREAD.
    #[arg(long, default_value_t = 100)]
    spread: i32,
    /// How many trees: seeds FIRST to FIRST + N - 1.
    #[arg(long, default_value_t = 20, value_parser = crate::sizes::seeds)]
    seeds: u64,
    /// The seed of the first tree (with `--seeds 1`, the one tree of that seed, as the book's figure
    /// of the MTD drivers' bounds uses).
    #[arg(long, default_value_t = 0)]
    first_seed: u64,
    /// Transposition-table entries for the optimized drivers (each run allocates and clears its own
    /// table, which the time includes).
    #[arg(long, default_value_t = 1 << 16, value_parser = crate::sizes::tt_entries)]
    tt_entries: usize,
    /// Let the optimized drivers deepen iteratively from depth 1.
    #[arg(long)]
    iterative: bool,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    heuristics: OrderingArgs,
}

/// The most leaves a minimal tree may have for `compare` to search it: every exact driver visits at
/// least the minimal tree's leaves, and at some ten million nodes a second 10^11 takes hours.
const MINIMAL_LEAVES: u128 = 100_000_000_000;

pub fn run(args: &CompareArgs) -> Result<ExitCode, CliError> {
    let mut drivers = Driver::select(&args.algo)?;
    crate::ordering::leave_out_infinite_walks(&mut drivers, &args.algo, args.heuristics.fail_hard())?;
    let smallest = minimal_tree_leaves(args.width, args.depth);
    if smallest > MINIMAL_LEAVES {
        let leaves = if smallest == u128::MAX { "over 2^128".to_owned() } else { smallest.to_string() };
        return Err(CliError(format!(
            "width {} and depth {} would never finish: even a perfectly ordered search visits the {leaves} \
             leaves of the minimal tree (at most {MINIMAL_LEAVES})",
            args.width, args.depth
        )));
    }
    let model = match args.model {
        ModelArg::Independent => Model::Independent,
        ModelArg::Incremental => Model::Incremental,
    };
    let last = args.first_seed.checked_add(args.seeds).ok_or_else(|| {
        CliError(format!(
            "--first-seed {} with --seeds {} runs past the last seed",
            args.first_seed, args.seeds
        ))
    })?;
    let trees = (args.first_seed..last)
        .map(|seed| {
            SyntheticTree::new(SyntheticConfig {
                seed,
                width: args.width,
                depth: args.depth,
                model,
                ordering: args.ordering,
                transpositions: args.transpositions,
                spread: args.spread,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let known: Vec<_> = trees.iter().map(SyntheticTree::known_value).collect();
    let mut params = SearchParams {
        depth: args.depth,
        first_guess: None,
        tt_entries: args.tt_entries,
        iterative_deepening: args.iterative,
        ..SearchParams::default()
    };
    args.heuristics.apply(&mut params);
    let bar = crate::progress::bar((trees.len() * drivers.len()) as u64, "searches", "");
    let rows = compare(&trees, &known, &drivers, &params, |done, _total| bar.set_position(done as u64));
    bar.finish_and_clear();
    let minimal = Minimal {
        leaves: minimal_tree_leaves(args.width, args.depth) as f64,
        nodes: minimal_tree_nodes(args.width, args.depth) as f64,
    };
    if args.json {
        print_json(args, model, &minimal, &rows, trees.len())?;
    } else {
        print_table(args, model, &minimal, &rows, trees.len());
    }
    let wrong: Vec<&str> =
        rows.iter().filter(|row| row.disagreements > 0).map(|row| row.driver.info().name).collect();
    if wrong.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        errln!("error: wrong values from {}", wrong.join(", "));
        Ok(ExitCode::FAILURE)
    }
}

/// The Knuth–Moore minimal tree's size: what the leaves and the nodes are each measured against.
struct Minimal {
    leaves: f64,
    nodes: f64,
}

fn print_table(args: &CompareArgs, model: Model, minimal: &Minimal, rows: &[Row], trees: usize) {
    // The ordering is a parameter of the incremental model only: independent trees have none.
    let ordering = match model {
        Model::Incremental => format!(", ordering {}", args.ordering),
        Model::Independent => String::new(),
    };
    outln!(
        "{trees} {model} {}, width {}, depth {}{ordering}, spread {}{}; minimal tree: {} leaves, {} nodes",
        if trees == 1 { "tree" } else { "trees" },
        args.width,
        args.depth,
        args.spread,
        if args.transpositions { ", transpositions" } else { "" },
        minimal.leaves,
        minimal.nodes
    );
    outln!("means per tree; leaves and nodes also as a ratio to the minimal tree's leaves and nodes");
    outln!();
    let name_width = rows.iter().map(|row| row.driver.info().name.len()).max().unwrap_or(9).max(9);
    outln!(
        "{:<name_width$}  {:>12}  {:>7}  {:>12}  {:>7}  {:>7}  {:>10}  {:>8}  {:>5}",
        "algorithm",
        "leaves",
        "ratio",
        "nodes",
        "ratio",
        "passes",
        "ms/tree",
        "Mnodes/s",
        "wrong"
    );
    for row in rows {
        let passes = row.passes.map_or_else(|| "-".to_owned(), |passes| format!("{passes:.1}"));
        outln!(
            "{:<name_width$}  {:>12.1}  {:>7.3}  {:>12.1}  {:>7.3}  {:>7}  {:>10.3}  {:>8.2}  {:>5}",
            row.driver.info().name,
            row.leaves,
            row.leaves / minimal.leaves,
            row.nodes,
            row.nodes / minimal.nodes,
            passes,
            per_tree_ms(row.time, trees),
            row.nodes_per_second(trees) / 1e6,
            row.disagreements
        );
    }
}

fn per_tree_ms(time: Duration, trees: usize) -> f64 {
    time.as_secs_f64() * 1e3 / trees.max(1) as f64
}

#[derive(Serialize)]
struct JsonCompare<'a> {
    trees: usize,
    width: u32,
    depth: u32,
    model: String,
    /// The incremental model's ordering probability; none for independent trees.
    ordering: Option<f64>,
    transpositions: bool,
    spread: i32,
    minimal_tree_leaves: f64,
    minimal_tree_nodes: f64,
    results: Vec<JsonRow<'a>>,
}

#[derive(Serialize)]
struct JsonRow<'a> {
    algorithm: &'a str,
    leaves: f64,
    leaves_ratio: f64,
    nodes: f64,
    nodes_ratio: f64,
    passes: Option<f64>,
    ms_per_tree: f64,
    nodes_per_second: f64,
    wrong: usize,
}

fn print_json(
    args: &CompareArgs,
    model: Model,
    minimal: &Minimal,
    rows: &[Row],
    trees: usize,
) -> Result<(), CliError> {
    let results = rows
        .iter()
        .map(|row| JsonRow {
            algorithm: row.driver.info().name,
            leaves: row.leaves,
            leaves_ratio: row.leaves / minimal.leaves,
            nodes: row.nodes,
            nodes_ratio: row.nodes / minimal.nodes,
            passes: row.passes,
            ms_per_tree: per_tree_ms(row.time, trees),
            nodes_per_second: row.nodes_per_second(trees),
            wrong: row.disagreements,
        })
        .collect();
    let report = JsonCompare {
        trees,
        width: args.width,
        depth: args.depth,
        model: model.to_string(),
        ordering: (model == Model::Incremental).then_some(args.ordering),
        transpositions: args.transpositions,
        spread: args.spread,
        minimal_tree_leaves: minimal.leaves,
        minimal_tree_nodes: minimal.nodes,
        results,
    };
    outln!("{}", serde_json::to_string_pretty(&report)?);
    Ok(())
}
