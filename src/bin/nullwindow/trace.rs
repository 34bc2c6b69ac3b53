//! `nullwindow trace`: one record per node a driver searches, so that two engines' searches of the
//! same tree can be diffed line by line.
//!
//! One JSON object per line (`--output jsonl`, the default) or an aligned table; the fields are
//! [`RECORD_HELP`], which `nullwindow trace --help` prints.
//!
//! Records are written when a node finishes, so children come before their parent. Stockman's
//! drivers, which make no calls, report each node when it is solved (see
//! `nullwindow::literal::stockman`).

/// The record's fields, as `nullwindow trace --help` prints them.
pub const RECORD_HELP: &str = "\
Each record (values from MAX's side; children before their parent):
  visit       the order nodes were entered (optimized drivers) or finished (literal ones)
  pass        the root call the node belongs to: an MTD pass, an iteration, a re-search (from 1)
  path        child indices from the root (0 = first child), [] for the root
  depth       the depth the node was searched to
  alpha, beta the window the node was called with
  result      what it returned
  probe       none (a leaf), miss, hit (the entry ordered or narrowed), cutoff (the entry answered),
              etc (enhanced transposition cutoff), bounds (the game's value bounds answered);
              null for literal drivers
  stored      whether the result went into the table (null for literal drivers)
  cutoff      the child index whose value reached beta, if one did (null for literal drivers)
Stockman's drivers (stockman-sss, stockman-dual) make no calls: they list each node when it is
solved, all in pass 1. The window is (h - 1, h), h the merit the node came off OPEN with, LIVE, and
the result the merit it is solved with: h if the node's value is at least h, else the value itself.
(stockman-dual's merits are MIN's: its windows and results, like every value, are turned to MAX's
side.)";

use std::collections::HashMap;
use std::io::{BufWriter, Write};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use nullwindow::driver::{Call, Kind, Perspective, SearchParams};
use nullwindow::game::{Game, Player};
use nullwindow::registry::Driver;
use nullwindow::search::Engine;
use nullwindow::search::trace::{NodeTrace, Probe, Tracer};
use nullwindow::tree::{NodeId, Tree};
use serde::Serialize;

use crate::CliError;
use crate::input::{Format, ROOT_HELP, read_tree};
use crate::solve::on_search_thread;

#[derive(Clone, Copy, ValueEnum)]
enum TraceFormat {
    /// One JSON object per line.
    Jsonl,
    /// An aligned table.
    Table,
}

#[derive(Args)]
pub struct TraceArgs {
    /// The tree file, or `-` for standard input.
    #[arg(default_value = "-")]
    file: String,
    /// The driver to trace (a literal or optimized one; see `nullwindow algos`).
    #[arg(long)]
    algo: String,
    /// Search this many plies; default: the whole tree.
    #[arg(long, allow_hyphen_values = true, value_parser = crate::sizes::depth)]
    depth: Option<u32>,
    /// The first guess of drivers that take one, from MAX's side.
    #[arg(long, allow_hyphen_values = true,
          value_parser = clap::value_parser!(i32).range(-1_000_000_000..=1_000_000_000))]
    first_guess: Option<i32>,
    /// Transposition-table entries of an optimized driver.
    #[arg(long, default_value_t = 1 << 16, value_parser = crate::sizes::tt_entries)]
    tt_entries: usize,
    /// The output format.
    #[arg(long = "output", value_enum, default_value_t = TraceFormat::Jsonl)]
    output: TraceFormat,
    /// The input format.
    #[arg(long, value_enum, default_value_t = Format::Auto)]
    format: Format,
    #[arg(long, value_name = "ID", help = ROOT_HELP)]
    root: Option<String>,
}

/// One traced node, as printed.
#[derive(Serialize)]
struct Record {
    visit: u64,
    pass: u64,
    path: Vec<u32>,
    depth: u32,
    alpha: i32,
    beta: i32,
    result: i32,
    probe: Option<Probe>,
    stored: Option<bool>,
    cutoff: Option<u32>,
}

pub fn run(args: &TraceArgs) -> Result<ExitCode, CliError> {
    let driver = Driver::from_name(&args.algo).ok_or_else(|| {
        CliError(format!(
            "unknown driver '{}' (`nullwindow algos` lists them)",
            nullwindow::tree::text::excerpt(&args.algo)
        ))
    })?;
    let tree = read_tree(&args.file, args.format, args.root.as_deref())?;
    // A tree ends at its height: naming that depth keeps the records' depths readable.
    let depth = args.depth.unwrap_or(u32::MAX).min(tree.height());
    let records = on_search_thread(Some(&tree), depth, || trace(&tree, driver, args, depth))??;
    let mut out = BufWriter::new(std::io::stdout().lock());
    let write_error = |e: std::io::Error| -> CliError { crate::output::fail(&e) };
    match args.output {
        TraceFormat::Jsonl => {
            for record in &records {
                writeln!(out, "{}", serde_json::to_string(record)?).map_err(write_error)?;
            }
        }
        TraceFormat::Table => {
            writeln!(
                out,
                "{:>6}  {:>4}  {:<16}  {:>5}  {:>11}  {:>11}  {:>11}  {:<6}  {:<6}  cutoff",
                "visit", "pass", "path", "depth", "alpha", "beta", "result", "probe", "stored"
            )
            .map_err(write_error)?;
            for r in &records {
                let path: Vec<String> = r.path.iter().map(ToString::to_string).collect();
                let probe = r.probe.map_or("-", Probe::name);
                writeln!(
                    out,
                    "{:>6}  {:>4}  {:<16}  {:>5}  {:>11}  {:>11}  {:>11}  {:<6}  {:<6}  {}",
                    r.visit,
                    r.pass,
                    format!("[{}]", path.join(",")),
                    r.depth,
                    r.alpha,
                    r.beta,
                    r.result,
                    probe,
                    r.stored.map_or("-".to_owned(), |s| s.to_string()),
                    r.cutoff.map_or("-".to_owned(), |c| c.to_string())
                )
                .map_err(write_error)?;
            }
        }
    }
    out.flush().map_err(write_error)?;
    Ok(ExitCode::SUCCESS)
}

/// A window and result from the side to move at a node of `player`, turned to MAX's side.
const fn for_max(player: Player, alpha: i32, beta: i32, result: i32) -> (i32, i32, i32) {
    match player {
        Player::Max => (alpha, beta, result),
        Player::Min => (-beta, -alpha, -result),
    }
}

fn trace(tree: &Tree, driver: Driver, args: &TraceArgs, depth: u32) -> Result<Vec<Record>, CliError> {
    let params = SearchParams {
        depth,
        first_guess: args.first_guess,
        tt_entries: args.tt_entries,
        ..SearchParams::default()
    };
    match driver.info().kind {
        Kind::Optimized => {
            let algorithm = driver.algorithm().expect("every optimized driver is an engine algorithm");
            let mut tracer =
                EngineTracer { tree, stack: Vec::new(), visits: 0, pass: 0, records: Vec::new() };
            Engine::new(&params).search_traced(tree, algorithm, &params, &mut tracer);
            Ok(tracer.records)
        }
        Kind::Literal => {
            let paths = first_paths(tree);
            let root = tree.root();
            let (mut records, mut visits, mut pass) = (Vec::new(), 0, 1);
            let _ = driver.run_observed(tree, &params, &mut |call: &Call<NodeId>| {
                visits += 1;
                let (alpha, beta, result) = match call.perspective {
                    Perspective::Max => (call.alpha, call.beta, call.result),
                    Perspective::Mover => {
                        for_max(tree.player(call.position), call.alpha, call.beta, call.result)
                    }
                };
                records.push(Record {
                    visit: visits,
                    pass,
                    path: paths.get(&call.position).cloned().unwrap_or_default(),
                    depth: call.depth,
                    alpha,
                    beta,
                    result,
                    probe: None,
                    stored: None,
                    cutoff: None,
                });
                if call.position == root {
                    pass += 1;
                }
            });
            Ok(records)
        }
        Kind::Reference => {
            Err(CliError(format!("{} has no trace; trace a literal or optimized driver", driver.info().name)))
        }
    }
}

/// The child-index path of every node, by the first route a depth-first walk finds (a node shared
/// by several parents in a `gtree` graph is named by its first).
fn first_paths(tree: &Tree) -> HashMap<NodeId, Vec<u32>> {
    let mut paths = HashMap::new();
    let mut stack = vec![(tree.root(), Vec::new())];
    while let Some((node, path)) = stack.pop() {
        if paths.contains_key(&node) {
            continue;
        }
        for (index, &child) in tree.children(node).iter().enumerate().rev() {
            let mut child_path = path.clone();
            child_path.push(index as u32);
            stack.push((child, child_path));
        }
        paths.insert(node, path);
    }
    paths
}

/// Follows the engine's descent to name each node by its path.
struct EngineTracer<'a> {
    tree: &'a Tree,
    /// The nodes entered and not finished: position, visit number, child index.
    stack: Vec<(NodeId, u64, u32)>,
    visits: u64,
    pass: u64,
    records: Vec<Record>,
}

impl Tracer<Tree> for EngineTracer<'_> {
    fn enter(&mut self, ply: usize, position: &NodeId) {
        self.visits += 1;
        if ply == 0 {
            self.pass += 1;
        }
        self.stack.truncate(ply);
        let index = self
            .stack
            .last()
            .and_then(|&(parent, _, _)| self.tree.children(parent).iter().position(|child| child == position))
            .unwrap_or(0) as u32;
        self.stack.push((*position, self.visits, index));
    }

    fn finish(&mut self, node: &NodeTrace<u32>) {
        let Some(&(position, visit, _)) = self.stack.get(node.ply) else { return };
        let path = self.stack[1..=node.ply].iter().map(|&(_, _, index)| index).collect();
        let (alpha, beta, result) = for_max(self.tree.player(position), node.alpha, node.beta, node.result);
        self.records.push(Record {
            visit,
            pass: self.pass,
            path,
            depth: node.depth,
            alpha,
            beta,
            result,
            probe: Some(node.probe),
            stored: Some(node.stored),
            cutoff: node.cutoff,
        });
        self.stack.truncate(node.ply);
    }
}
