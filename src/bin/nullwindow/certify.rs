//! `nullwindow certify`: every driver on every small case, a certificate by exhaustion
//! ([`nullwindow::theory::certify`]).

use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use nullwindow::registry::Driver;
use nullwindow::theory::certify::{Scope, TableSearch, certify, certify_sequences, families_in};
use serde::Serialize;

use crate::CliError;
use crate::output::{counted, outln};

/// The long help: what is enumerated and what the exit status says.
pub const CERTIFY_HELP: &str = "\
Every driver runs on every case of the scope, and each is judged against plain minimax:
- trees: every shape of at most --nodes nodes (one-child nodes included), and every shape of at
  most --leaves leaves whose interior nodes have two children or more, searched to the end and
  (unless --no-depth-limits) to every depth below their height; their interior nodes share one
  evaluation, as the parenthesis format gives them, or with --distinct-evaluations each has its own;
- graphs: every game graph of at most --graph-nodes nodes with a transposition, either side at the
  root, an evaluation on every node, searched to every depth by the drivers that keep a table;
  the engine's drivers search them with deeper entries too (unless --no-deeper-entries), judged
  by the witness criterion, every evaluation read first;
- sequences of windows: without --algo, the searches with memory (Plaat's and the Japanese
  Wikipedia's AlphaBetaWithMemory, printed and corrected, and the engine's alpha_beta) are called
  with every sequence of --windows windows on one table, each call judged by the fail-soft
  contract.
Values come in classes, decided as the run reads them: for the drivers that only compare values
(and step by one), each value read is placed in the weak order of those read before (spread two
apart); bisection, aspiration and Pons' driver read every value from -2 to 2. A value never read
cannot change the run, and minimax is checked with the unread values at their least and at their
greatest. With first guesses (unless --no-first-guesses), the drivers that make root passes also
start from a guess placed among the values like one more. The book's chapter \"A certificate by
exhaustion\" gives the argument and its limits.

A row per driver, then one per search with memory: cases (a tree or graph, a depth and a first
guess), runs (one per class of values, and windows, the run tells apart), counterexamples, the smallest counterexample (fewest nodes
first), and the time its runs took. Exit 0 when every exact driver has no counterexample and every
inexact one has one; 1 otherwise.";

#[derive(Args)]
pub struct CertifyArgs {
    /// Every tree of at most this many nodes, one-child nodes included (at most 9).
    #[arg(long, value_name = "N", default_value_t = 7, value_parser = clap::value_parser!(u64).range(1..=9))]
    nodes: u64,
    /// Every tree of at most this many leaves whose interior nodes have two children or more (at
    /// most 9).
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=9))]
    leaves: u64,
    /// Graphs with a transposition of at most this many nodes (at most 6; below 4 there are none).
    #[arg(long, value_name = "M", default_value_t = 5, value_parser = clap::value_parser!(u64).range(0..=6))]
    graph_nodes: u64,
    /// Search trees to the end only.
    #[arg(long)]
    no_depth_limits: bool,
    /// Run every driver from its own first guess only.
    #[arg(long)]
    no_first_guesses: bool,
    /// Give each interior node of a tree its own evaluation, read by depth-limited searches.
    #[arg(long)]
    distinct_evaluations: bool,
    /// Do not also run the engine's drivers on the graphs with deeper entries.
    #[arg(long)]
    no_deeper_entries: bool,
    /// Call the searches with memory with every sequence of this many windows on one table (0:
    /// none; only without --algo) [default: 2].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(0..=3), conflicts_with = "algo")]
    windows: Option<u64>,
    /// The drivers, comma-separated (groups as `solve` takes them); default: every driver of the
    /// catalogue, the inexact ones too.
    #[arg(long, value_name = "LIST")]
    algo: Option<String>,
    /// Threads to run on.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
    threads: u64,
    /// Print a JSON array instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct JsonRow {
    name: &'static str,
    exact: bool,
    cases: u64,
    runs: u64,
    counterexamples: u64,
    smallest: Option<String>,
    seconds: f64,
}

/// One printed row: a driver's, or a table search's over sequences of windows.
struct Line {
    name: &'static str,
    exact: bool,
    cases: u64,
    runs: u64,
    counterexamples: u64,
    smallest: Option<String>,
    seconds: f64,
    holds: bool,
}

pub fn run(args: &CertifyArgs) -> Result<ExitCode, CliError> {
    let drivers = match &args.algo {
        Some(list) => Driver::select(list)?,
        None => Driver::ALL.to_vec(),
    };
    let scope = Scope {
        nodes: usize::try_from(args.nodes).unwrap_or(7),
        leaves: usize::try_from(args.leaves).unwrap_or(5),
        graph_nodes: usize::try_from(args.graph_nodes).unwrap_or(5),
        depth_limits: !args.no_depth_limits,
        first_guesses: !args.no_first_guesses,
        distinct_evaluations: args.distinct_evaluations,
        deeper_entries: !args.no_deeper_entries,
        windows: usize::try_from(args.windows.unwrap_or(2)).unwrap_or(2),
    };
    let threads = usize::try_from(args.threads).unwrap_or(2);
    let start = Instant::now();
    let searches: &[TableSearch] =
        if scope.windows > 0 && args.algo.is_none() { &TableSearch::ALL } else { &[] };
    // One bar over both phases, labelled by phase: the second's families come after the first's,
    // so that the bar never goes back.
    let phases = if searches.is_empty() { 1 } else { 2 };
    let bar = crate::progress::bar(0, "families", &format!("certify, phase 1 of {phases} (drivers)"));
    let first_phase = std::sync::atomic::AtomicU64::new(0);
    let rows = certify(&scope, &drivers, threads, &|done, total| {
        first_phase.store(total, std::sync::atomic::Ordering::Relaxed);
        bar.set_length(total);
        bar.set_position(done);
    });
    let sequences = if searches.is_empty() {
        Vec::new()
    } else {
        bar.set_message("certify, phase 2 of 2 (table sequences)");
        let before = first_phase.load(std::sync::atomic::Ordering::Relaxed);
        certify_sequences(&scope, searches, threads, &|done, total| {
            bar.set_length(before + total);
            bar.set_position(before + done);
        })
    };
    bar.finish_and_clear();
    let driver_lines: Vec<Line> = rows
        .iter()
        .map(|row| Line {
            name: row.driver.info().name,
            exact: row.exact,
            cases: row.cases,
            runs: row.runs,
            counterexamples: row.counterexamples,
            smallest: row.smallest.as_ref().map(ToString::to_string),
            seconds: row.elapsed.as_secs_f64(),
            holds: row.holds(),
        })
        .collect();
    let sequence_lines: Vec<Line> = sequences
        .iter()
        .map(|row| Line {
            name: row.search.name(),
            exact: row.search.exact(),
            cases: row.cases,
            runs: row.runs,
            counterexamples: row.counterexamples,
            smallest: row.smallest.as_ref().map(ToString::to_string),
            seconds: row.elapsed.as_secs_f64(),
            holds: row.holds(),
        })
        .collect();
    let holds = driver_lines.iter().chain(&sequence_lines).all(|line| line.holds);
    if args.json {
        let rows: Vec<JsonRow> = driver_lines
            .iter()
            .chain(&sequence_lines)
            .map(|line| JsonRow {
                name: line.name,
                exact: line.exact,
                cases: line.cases,
                runs: line.runs,
                counterexamples: line.counterexamples,
                smallest: line.smallest.clone(),
                seconds: line.seconds,
            })
            .collect();
        outln!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        let width =
            driver_lines.iter().chain(&sequence_lines).map(|line| line.name.len()).max().unwrap_or(4).max(6);
        let (shapes, graphs) = families_in(&scope);
        outln!(
            "{} (up to {} nodes, or up to {} leaves and two children a node){}{}, {} of up to {} nodes{}",
            counted(shapes as u128, "tree shape", "tree shapes"),
            scope.nodes,
            scope.leaves,
            if scope.depth_limits { " at every depth" } else { " to the end" },
            if scope.distinct_evaluations { " with distinct evaluations" } else { "" },
            counted(graphs as u128, "graph", "graphs"),
            scope.graph_nodes,
            match (scope.first_guesses, scope.deeper_entries) {
                (true, true) => ", every first guess, deeper entries",
                (true, false) => ", every first guess",
                (false, true) => ", deeper entries",
                (false, false) => "",
            }
        );
        let header = |first: &str| {
            outln!();
            outln!(
                "{:<width$}  {:<5}  {:>9}  {:>10}  {:>8}  {:>7}  smallest",
                first,
                "exact",
                "cases",
                "runs",
                "wrong",
                "s"
            );
        };
        let print = |line: &Line| {
            let verdict = if line.holds { "" } else { "  <- does not hold" };
            outln!(
                "{:<width$}  {:<5}  {:>9}  {:>10}  {:>8}  {:>7.1}  {}{verdict}",
                line.name,
                if line.exact { "yes" } else { "no" },
                line.cases,
                line.runs,
                line.counterexamples,
                line.seconds,
                line.smallest.as_deref().unwrap_or("-"),
            );
        };
        header("driver");
        driver_lines.iter().for_each(print);
        if !sequence_lines.is_empty() {
            header(&format!("{} windows on one table", scope.windows));
            sequence_lines.iter().for_each(print);
        }
        outln!();
        // The closing line speaks of the kinds of driver that ran, and of no other.
        let lines = || driver_lines.iter().chain(&sequence_lines);
        let (exact, inexact) = (lines().any(|line| line.exact), lines().any(|line| !line.exact));
        let verdict = match (holds, exact, inexact) {
            (false, _, _) => "does not hold",
            (true, true, true) => {
                "holds: no exact driver is wrong on any case, and every inexact one is caught"
            }
            (true, true, false) => "holds: no driver is wrong on any case",
            (true, false, _) => "holds: every inexact driver is caught",
        };
        outln!("{verdict} in {:.1} s", start.elapsed().as_secs_f64());
    }
    Ok(if holds { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
