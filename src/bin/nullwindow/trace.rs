//! `nullwindow trace`: one record per node a driver searches, so that two engines' searches of the
//! same tree can be diffed line by line.
//!
//! One JSON object per line (`--output jsonl`, the default) or an aligned table; the fields are
//! [`RECORD_HELP`], which `nullwindow trace --help` prints.
//!
//! Records are written when a node returns, so children come before their parent (`--on completion`),
//! or in the order nodes were entered (`--on entry`), or both events (`--on both`). Every record
//! names its node by its path from the root and by an id, so two traces line up even where two
//! engines order moves differently; `nullwindow audit` reads the same records. Stockman's drivers,
//! which make no calls, report each node when it is solved (see `nullwindow::literal::stockman`).

/// The record's fields, as `nullwindow trace --help` prints them.
pub const RECORD_HELP: &str = "\
Each record (values from MAX's side; by default written when the node returns, so children come
before their parent):
  event       only with --on both: enter (the node is entered; no result yet) or return
  visit       the order nodes were entered, from 1
  pass        the root call the node belongs to: an MTD pass, an iteration, a re-search (from 1)
  path        child indices from the root (0 = first child), [] for the root
  node        the node's id: its gtree id (a string), or its number in a parenthesis tree,
              counting from 0 at the root in the file's order
  depth       the depth the node was searched to
  alpha, beta the window the node was called with
  result      what it returned
  probe       none (a leaf), miss, hit (the entry ordered or narrowed), cutoff (the entry answered),
              etc (enhanced transposition cutoff), bounds (the game's value bounds answered);
              null for literal drivers and minimax
  stored      the bound the result went into the table as: lower, upper or exact; null if it was
              not stored (a leaf, or a node the table answered) and for literal drivers
  cutoff      the child index whose value reached beta, if one did (null for literal drivers)
minimax lists every node it searches with its exact value, in the window (-1000000000, 1000000000).
Stockman's drivers (stockman-sss, stockman-dual) make no calls: they list each node when it is
solved, all in pass 1. The window is (h - 1, h), h the merit the node came off OPEN with, LIVE, and
the result the merit it is solved with: h if the node's value is at least h, else the value itself.
(stockman-dual's merits are MIN's: its windows and results, like every value, are turned to MAX's
side.)";

use std::io::{BufWriter, Write};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use nullwindow::driver::{Call, Kind, Perspective, SearchParams};
use nullwindow::game::Player;
use nullwindow::registry::Driver;
use nullwindow::search::Engine;
use nullwindow::search::trace::{NodeTrace, Probe, Tracer};
use nullwindow::tree::{NodeId, Tree};
use nullwindow::value::{Bound, INFINITY, Value};
use serde::Serialize;

use crate::CliError;
use crate::input::{Format, ROOT_HELP, read_tree_with_ids};
use crate::ordering::OrderingArgs;
use crate::solve::on_search_thread;

#[derive(Clone, Copy, ValueEnum)]
enum TraceFormat {
    /// One JSON object per line.
    Jsonl,
    /// An aligned table.
    Table,
}

/// When a node's record is written.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum On {
    /// When the node returns: children before their parent.
    Completion,
    /// In the order nodes were entered: parents before their children.
    Entry,
    /// Both: an `enter` record without a result, then the `return` record.
    Both,
}

#[derive(Args)]
pub struct TraceArgs {
    /// The tree file, or `-` for standard input.
    #[arg(default_value = "-")]
    file: String,
    /// The driver to trace (a literal or optimized one, or minimax; see `nullwindow algos`).
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
    /// When a node's record is written.
    #[arg(long, value_enum, default_value_t = On::Completion)]
    on: On,
    /// Make an optimized driver search children in the file's order, as a plain engine does: no
    /// table move first, no killer moves, no history heuristic, no iterative deepening (the table
    /// still answers and narrows), so that its records line up with a plain engine's.
    #[arg(long)]
    file_order: bool,
    #[command(flatten)]
    ordering: OrderingArgs,
    /// The output format.
    #[arg(long = "output", value_enum, default_value_t = TraceFormat::Jsonl)]
    output: TraceFormat,
    /// The input format.
    #[arg(long, value_enum, default_value_t = Format::Auto)]
    format: Format,
    #[arg(long, value_name = "ID", help = ROOT_HELP)]
    root: Option<String>,
}

/// A node's id: its gtree id, or its number in a parenthesis tree.
#[derive(Clone, Serialize)]
#[serde(untagged)]
enum NodeName {
    Id(String),
    Number(u32),
}

/// One traced node, as printed.
#[derive(Clone, Serialize)]
struct Record {
    #[serde(skip_serializing_if = "Option::is_none")]
    event: Option<&'static str>,
    visit: u64,
    pass: u64,
    path: Vec<u32>,
    node: NodeName,
    depth: u32,
    alpha: i32,
    beta: i32,
    result: Option<i32>,
    probe: Option<Probe>,
    stored: Option<Bound>,
    cutoff: Option<u32>,
}

impl Record {
    /// The record of a node entered `visit`-th, in root pass `pass`; its result and what the table
    /// did are filled in when the node returns.
    fn entered(
        visit: usize,
        pass: u64,
        path: Vec<u32>,
        node: NodeName,
        depth: u32,
        window: (Value, Value),
    ) -> Self {
        Self {
            event: None,
            visit: visit as u64,
            pass,
            path,
            node,
            depth,
            alpha: window.0,
            beta: window.1,
            result: None,
            probe: None,
            stored: None,
            cutoff: None,
        }
    }
}

/// A search as a list of records (each complete, with its entry number `visit`) and the order of
/// events: `(true, i)` when record `i`'s node is entered, `(false, i)` when it returns.
struct Search {
    records: Vec<Record>,
    events: Vec<(bool, usize)>,
}

impl Search {
    /// The records as `on` writes them.
    fn written(self, on: On) -> Vec<Record> {
        let Self { records, events } = self;
        events
            .into_iter()
            .filter_map(|(enter, index)| {
                let record = &records[index];
                match (on, enter) {
                    (On::Completion, false) | (On::Entry, true) => Some(record.clone()),
                    (On::Both, true) => Some(Record {
                        event: Some("enter"),
                        result: None,
                        probe: None,
                        stored: None,
                        cutoff: None,
                        ..record.clone()
                    }),
                    (On::Both, false) => Some(Record { event: Some("return"), ..record.clone() }),
                    _ => None,
                }
            })
            .collect()
    }
}

pub fn run(args: &TraceArgs) -> Result<ExitCode, CliError> {
    let driver = Driver::from_name(&args.algo).ok_or_else(|| {
        CliError(format!(
            "unknown driver '{}' (`nullwindow algos` lists them)",
            nullwindow::tree::text::excerpt(&args.algo)
        ))
    })?;
    if driver.info().kind == Kind::Reference && driver != Driver::Minimax {
        return Err(CliError(format!(
            "{} has no trace; trace minimax, a literal or an optimized driver",
            driver.info().name
        )));
    }
    if args.on != On::Completion && matches!(driver, Driver::StockmanSss | Driver::StockmanDual) {
        return Err(CliError(format!(
            "{} makes no calls, so its nodes are never entered: it lists them when solved (--on completion)",
            driver.info().name
        )));
    }
    let (tree, ids) = read_tree_with_ids(&args.file, args.format, args.root.as_deref())?;
    let names = Names { ids };
    // A tree ends at its height: naming that depth keeps the records' depths readable.
    let depth = args.depth.unwrap_or(u32::MAX).min(tree.height());
    let search = on_search_thread(Some(&tree), depth, || trace(&tree, &names, driver, args, depth))??;
    let records = search.written(args.on);
    let mut out = BufWriter::new(std::io::stdout().lock());
    let write_error = |e: std::io::Error| -> CliError { crate::output::fail(&e) };
    match args.output {
        TraceFormat::Jsonl => {
            for record in &records {
                writeln!(out, "{}", serde_json::to_string(record)?).map_err(write_error)?;
            }
        }
        TraceFormat::Table => {
            let event_column = args.on == On::Both;
            writeln!(
                out,
                "{}{:>6}  {:>4}  {:<16}  {:>6}  {:>5}  {:>11}  {:>11}  {:>11}  {:<6}  {:<6}  cutoff",
                if event_column { "event   " } else { "" },
                "visit",
                "pass",
                "path",
                "node",
                "depth",
                "alpha",
                "beta",
                "result",
                "probe",
                "stored"
            )
            .map_err(write_error)?;
            for r in &records {
                let path: Vec<String> = r.path.iter().map(ToString::to_string).collect();
                let node = match &r.node {
                    NodeName::Id(id) => nullwindow::tree::text::excerpt(id),
                    NodeName::Number(number) => number.to_string(),
                };
                let dash = || "-".to_owned();
                writeln!(
                    out,
                    "{}{:>6}  {:>4}  {:<16}  {:>6}  {:>5}  {:>11}  {:>11}  {:>11}  {:<6}  {:<6}  {}",
                    if event_column { format!("{:<8}", r.event.unwrap_or("")) } else { String::new() },
                    r.visit,
                    r.pass,
                    format!("[{}]", path.join(",")),
                    node,
                    r.depth,
                    r.alpha,
                    r.beta,
                    r.result.map_or_else(dash, |result| result.to_string()),
                    r.probe.map_or("-", Probe::name),
                    r.stored.map_or("-", Bound::name),
                    r.cutoff.map_or_else(dash, |c| c.to_string())
                )
                .map_err(write_error)?;
            }
        }
    }
    out.flush().map_err(write_error)?;
    Ok(ExitCode::SUCCESS)
}

/// How records name nodes.
struct Names {
    ids: Option<Vec<String>>,
}

impl Names {
    fn of(&self, node: NodeId) -> NodeName {
        match &self.ids {
            Some(ids) => NodeName::Id(ids[node.index()].clone()),
            None => NodeName::Number(node.0),
        }
    }
}

/// A window and result from the side to move at a node of `player`, turned to MAX's side.
const fn for_max(player: Player, alpha: i32, beta: i32, result: i32) -> (i32, i32, i32) {
    match player {
        Player::Max => (alpha, beta, result),
        Player::Min => (-beta, -alpha, -result),
    }
}

/// A stored bound from the side to move at a node of `player`, turned to MAX's side.
const fn bound_for_max(player: Player, bound: Bound) -> Bound {
    match player {
        Player::Max => bound,
        Player::Min => bound.flipped(),
    }
}

fn trace(
    tree: &Tree,
    names: &Names,
    driver: Driver,
    args: &TraceArgs,
    depth: u32,
) -> Result<Search, CliError> {
    let mut params = SearchParams {
        depth,
        first_guess: args.first_guess,
        tt_entries: args.tt_entries,
        ..SearchParams::default()
    };
    args.ordering.apply(&mut params);
    if args.file_order {
        params.table_move_first = false;
        params.killers = false;
        params.history = false;
        params.iterative_deepening = false;
    }
    match driver.info().kind {
        Kind::Optimized => {
            let algorithm = driver.algorithm().expect("every optimized driver is an engine algorithm");
            let mut tracer = EngineTracer {
                tree,
                names,
                stack: Vec::new(),
                pass: 0,
                search: Search { records: Vec::new(), events: Vec::new() },
            };
            Engine::new(&params).search_traced(tree, algorithm, &params, &mut tracer);
            Ok(tracer.search)
        }
        Kind::Literal if matches!(driver, Driver::StockmanSss | Driver::StockmanDual) => {
            Ok(solved_nodes(tree, names, driver, &params))
        }
        Kind::Literal => {
            let mut calls = Vec::new();
            let _ = driver.run_observed(tree, &params, &mut |call: &Call<NodeId>| {
                let (alpha, beta, result) = match call.perspective {
                    Perspective::Max => (call.alpha, call.beta, call.result),
                    Perspective::Mover => {
                        for_max(tree.player(call.position), call.alpha, call.beta, call.result)
                    }
                };
                calls.push(Finished { node: call.position, depth: call.depth, alpha, beta, result });
            });
            Ok(call_tree(tree, names, &calls))
        }
        Kind::Reference => Ok(minimax(tree, names, depth)),
    }
}

/// A call of a literal driver, as it returned (values from MAX's side).
struct Finished {
    node: NodeId,
    depth: u32,
    alpha: Value,
    beta: Value,
    result: Value,
}

/// Rebuilds the calls of a literal driver from the order they returned in: a call's children are
/// the calls that returned just before it, deeper than it, and not yet claimed by another parent;
/// a call of the root ends a pass. From the tree of calls follow each node's real path (a node that
/// several parents share is named by the route the search took) and the order calls were entered.
fn call_tree(tree: &Tree, names: &Names, calls: &[Finished]) -> Search {
    let root = tree.root_id();
    let mut children: Vec<Vec<usize>> = (0..calls.len()).map(|_| Vec::new()).collect();
    let mut roots = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    for (index, call) in calls.iter().enumerate() {
        let first_child =
            open.iter().rposition(|&done| calls[done].depth >= call.depth).map_or(0, |at| at + 1);
        children[index] = open.split_off(first_child);
        if call.node == root {
            roots.append(&mut open);
            roots.push(index);
        } else {
            open.push(index);
        }
    }
    // Calls that never reached a root call (a driver stopped early) are listed as they are.
    roots.extend(open);
    let mut search = Search { records: Vec::with_capacity(calls.len()), events: Vec::new() };
    let mut slot = vec![usize::MAX; calls.len()];
    for (pass, &top) in roots.iter().enumerate() {
        // Depth-first: enter on the way down, return on the way up.
        let mut stack: Vec<(usize, Vec<u32>, usize)> = vec![(top, Vec::new(), 0)];
        while let Some((call, path, next)) = stack.last_mut() {
            let call = *call;
            if *next == 0 {
                let Finished { node, depth, alpha, beta, result } = calls[call];
                slot[call] = search.records.len();
                let mut record = Record::entered(
                    search.records.len() + 1,
                    pass as u64 + 1,
                    path.clone(),
                    names.of(node),
                    depth,
                    (alpha, beta),
                );
                record.result = Some(result);
                search.records.push(record);
                search.events.push((true, slot[call]));
            }
            if let Some(&child) = children[call].get(*next) {
                *next += 1;
                let index = tree.children(calls[call].node).iter().position(|&c| c == calls[child].node);
                let mut child_path = path.clone();
                child_path.push(index.unwrap_or(0) as u32);
                stack.push((child, child_path, 0));
            } else {
                search.events.push((false, slot[call]));
                stack.pop();
            }
        }
    }
    search
}

/// Stockman's drivers: each node when it is solved, all in pass 1, named by the first route a
/// depth-first walk finds (they search the tree as a whole, not by calls along a route).
fn solved_nodes(tree: &Tree, names: &Names, driver: Driver, params: &SearchParams) -> Search {
    let paths = first_paths(tree);
    let mut search = Search { records: Vec::new(), events: Vec::new() };
    let _ = driver.run_observed(tree, params, &mut |call: &Call<NodeId>| {
        let (alpha, beta, result) = match call.perspective {
            Perspective::Max => (call.alpha, call.beta, call.result),
            Perspective::Mover => for_max(tree.player(call.position), call.alpha, call.beta, call.result),
        };
        search.events.push((false, search.records.len()));
        let path = paths[call.position.index()].clone();
        let mut record = Record::entered(
            search.records.len() + 1,
            1,
            path,
            names.of(call.position),
            call.depth,
            (alpha, beta),
        );
        record.result = Some(result);
        search.records.push(record);
    });
    search
}

/// A node of the minimax walk that has not returned yet.
struct Frame {
    node: NodeId,
    path: Vec<u32>,
    remaining: u32,
    /// Where its record is.
    slot: usize,
    /// The best child value so far, from MAX's side.
    best: Option<Value>,
    next_child: usize,
}

/// Plain minimax to `depth`: every node of the unfolded tree with its exact value, in the order a
/// depth-first search enters and leaves them.
fn minimax(tree: &Tree, names: &Names, depth: u32) -> Search {
    let mut search = Search { records: Vec::new(), events: Vec::new() };
    let enter = |search: &mut Search, node: NodeId, path: Vec<u32>, remaining: u32| {
        let slot = search.records.len();
        let window = (-INFINITY, INFINITY);
        search.records.push(Record::entered(slot + 1, 1, path.clone(), names.of(node), remaining, window));
        search.events.push((true, slot));
        Frame { node, path, remaining, slot, best: None, next_child: 0 }
    };
    let mut stack = vec![enter(&mut search, tree.root_id(), Vec::new(), depth)];
    while let Some(frame) = stack.last_mut() {
        if frame.remaining > 0
            && let Some(&child) = tree.children(frame.node).get(frame.next_child)
        {
            let mut child_path = frame.path.clone();
            child_path.push(frame.next_child as u32);
            frame.next_child += 1;
            let remaining = frame.remaining - 1;
            stack.push(enter(&mut search, child, child_path, remaining));
            continue;
        }
        let value = frame.best.unwrap_or_else(|| tree.evaluation(frame.node));
        search.records[frame.slot].result = Some(value);
        search.events.push((false, frame.slot));
        stack.pop();
        if let Some(parent) = stack.last_mut() {
            let better = match tree.player(parent.node) {
                Player::Max => parent.best.is_none_or(|best| value > best),
                Player::Min => parent.best.is_none_or(|best| value < best),
            };
            if better {
                parent.best = Some(value);
            }
        }
    }
    search
}

/// The child-index path of every node, by the first route a depth-first walk finds (a node shared
/// by several parents in a `gtree` graph is named by its first).
fn first_paths(tree: &Tree) -> Vec<Vec<u32>> {
    let mut paths: Vec<Option<Vec<u32>>> = vec![None; tree.node_count()];
    let mut stack = vec![(tree.root_id(), Vec::new())];
    while let Some((node, path)) = stack.pop() {
        if paths[node.index()].is_some() {
            continue;
        }
        for (index, &child) in tree.children(node).iter().enumerate().rev() {
            let mut child_path = path.clone();
            child_path.push(index as u32);
            stack.push((child, child_path));
        }
        paths[node.index()] = Some(path);
    }
    paths.into_iter().map(Option::unwrap_or_default).collect()
}

/// Follows the engine's descent to name each node by its path.
struct EngineTracer<'a> {
    tree: &'a Tree,
    names: &'a Names,
    /// The nodes entered and not finished: position, record slot, child index.
    stack: Vec<(NodeId, usize, u32)>,
    pass: u64,
    search: Search,
}

impl Tracer<Tree> for EngineTracer<'_> {
    fn enter(&mut self, ply: usize, position: &NodeId, depth: u32, alpha: Value, beta: Value) {
        if ply == 0 {
            self.pass += 1;
        }
        self.stack.truncate(ply);
        let index = self
            .stack
            .last()
            .and_then(|&(parent, _, _)| self.tree.children(parent).iter().position(|child| child == position))
            .unwrap_or(0) as u32;
        let slot = self.search.records.len();
        self.stack.push((*position, slot, index));
        let path = self.stack[1..].iter().map(|&(_, _, index)| index).collect();
        let (alpha, beta, _) = for_max(self.tree.player(*position), alpha, beta, 0);
        let node = self.names.of(*position);
        self.search.records.push(Record::entered(slot + 1, self.pass, path, node, depth, (alpha, beta)));
        self.search.events.push((true, slot));
    }

    fn finish(&mut self, node: &NodeTrace<u32>) {
        let Some(&(position, slot, _)) = self.stack.get(node.ply) else { return };
        let player = self.tree.player(position);
        let (alpha, beta, result) = for_max(player, node.alpha, node.beta, node.result);
        let record = &mut self.search.records[slot];
        record.alpha = alpha;
        record.beta = beta;
        record.result = Some(result);
        record.probe = Some(node.probe);
        record.stored = node.stored.map(|bound| bound_for_max(player, bound));
        record.cutoff = node.cutoff;
        self.search.events.push((false, slot));
        self.stack.truncate(node.ply);
    }
}
