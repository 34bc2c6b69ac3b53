//! `nullwindow trace`: one record per node a driver searches, so that two engines' searches of the
//! same tree can be diffed line by line.
//!
//! One JSON object per line (`--output jsonl`, the default) or an aligned table; the fields are
//! [`RECORD_HELP`], which `nullwindow trace --help` prints.
//!
//! Every driver `nullwindow algos` lists reports the same node events
//! (`nullwindow::driver::observe`), and the library's `nullwindow::oracle::record` turns them into
//! records and writes them: this file only reads the arguments and formats the table.

/// The record's fields, as `nullwindow trace --help` prints them.
pub const RECORD_HELP: &str = "\
Each record (values from MAX's side; by default written when the node returns, so children come
before their parent):
  event       only with --on both: enter (the node is entered; no result yet) or return
  visit       the order nodes were entered, from 1
  pass        the root call the node belongs to: an MTD pass, an iteration, a re-search (from 1)
  path        child indices from the root (0 = first child), [] for the root; in a game, indices
              into the position's legal moves in the game's order
  node        the node's id: its gtree id (a string), its number in a parenthesis tree (counting
              from 0 at the root in the file's order), or in a game the position as the moves
              played from the start (what `nullwindow audit --game G --position P` reads back)
  depth       the depth the node was searched to
  alpha, beta the window the node was called with
  result      what it returned
  probe       none (a leaf), miss, hit (the entry ordered or narrowed), cutoff (the entry answered),
              etc (enhanced transposition cutoff), bounds (the game's value bounds answered);
              null for the other drivers
  stored      the bound the result went into the table as: lower, upper or exact; null if it was
              not stored (a leaf, or a node the table answered) and for literal drivers
  cutoff      the child index whose value reached beta, if one did (null for the other drivers)
minimax and negamax list every node they search with its exact value, in the window
(-1000000000, 1000000000).
Stockman's drivers (stockman-sss, stockman-dual) make no calls: they list each node when it is
solved, all in pass 1. The window is (h - 1, h), h the merit the node came off OPEN with, LIVE, and
the result the merit it is solved with: h if the node's value is at least h, else the value itself.
(stockman-dual's merits are MIN's: its windows and results, like every value, are turned to MAX's
side.)";

use std::collections::HashMap;
use std::io::{BufWriter, Write};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use nullwindow::driver::SearchParams;
use nullwindow::driver::capped_depth;
use nullwindow::game::Game;
use nullwindow::oracle::record::{Event, NodeNames, Record, Recorder, When, path_text, write_jsonl};
use nullwindow::registry::Driver;
use nullwindow::value::shown;

use crate::CliError;
use crate::input::{TargetArgs, with_names};
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
    #[command(flatten)]
    target: TargetArgs,
    /// The driver to trace: any name `nullwindow algos` lists.
    #[arg(long)]
    algo: String,
    /// Search this many plies; default: the whole tree (a game: to its end).
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
    #[arg(long, conflicts_with = "iterative")]
    file_order: bool,
    /// Let an optimized driver deepen iteratively from depth 1, as `solve --iterative` does: each
    /// iteration's root searches are passes of their own (`pass`), the iteration's depth their depth.
    #[arg(long)]
    iterative: bool,
    /// Search the root once, fail-soft, with this window `ALPHA,BETA` (from MAX's side; a null
    /// window is `γ-1,γ`), instead of the full window: alphabeta, pvs and negascout only.
    #[arg(long, value_name = "ALPHA,BETA", value_parser = parse_window, allow_hyphen_values = true, conflicts_with = "iterative")]
    window: Option<(i32, i32)>,
    #[command(flatten)]
    ordering: OrderingArgs,
    /// The output format.
    #[arg(long = "output", value_enum, default_value_t = TraceFormat::Jsonl)]
    output: TraceFormat,
}

/// `--window ALPHA,BETA`: two whole numbers within ±10⁹, the first below the second.
fn parse_window(text: &str) -> Result<(i32, i32), String> {
    let bound = |word: &str| {
        word.trim()
            .parse::<i32>()
            .ok()
            .filter(|value| value.unsigned_abs() <= nullwindow::value::INFINITY.unsigned_abs())
            .ok_or_else(|| {
                format!("'{}' is not a whole number within ±10⁹", nullwindow::tree::text::excerpt(word))
            })
    };
    let (alpha, beta) = text
        .split_once(',')
        .filter(|(_, beta)| !beta.contains(','))
        .ok_or_else(|| "a window is ALPHA,BETA: two numbers and one comma".to_owned())?;
    let (alpha, beta) = (bound(alpha)?, bound(beta)?);
    if alpha >= beta {
        return Err(format!("the window ({alpha}, {beta}) is empty: ALPHA must be below BETA"));
    }
    Ok((alpha, beta))
}

pub fn run(args: &TraceArgs) -> Result<ExitCode, CliError> {
    let driver = Driver::from_name(&args.algo).ok_or_else(|| {
        CliError(format!(
            "unknown driver '{}'{}; `nullwindow algos` lists them",
            nullwindow::tree::text::excerpt(&args.algo),
            nullwindow::registry::did_you_mean(
                &args.algo,
                Driver::ALL.iter().map(|driver| driver.info().name)
            )
        ))
    })?;
    crate::ordering::leave_out_infinite_walks(&mut vec![driver], &args.algo, args.ordering.fail_hard())?;
    let when = match args.on {
        On::Completion => When::Completion,
        On::Entry => When::Entry,
        On::Both => When::Both,
    };
    let (target, ids) = args.target.read_with_ids(args.depth)?;
    target.check_drivers(&mut vec![driver], driver.info().name)?;
    crate::ordering::leave_out_long_walks(
        &mut vec![driver],
        &args.algo,
        args.ordering.fail_hard(),
        (args.first_guess, target.root_evaluation()),
        target.value_range(),
    )?;
    let mut params = SearchParams {
        depth: args.depth.unwrap_or(u32::MAX),
        first_guess: args.first_guess,
        tt_entries: args.tt_entries,
        ..SearchParams::default()
    };
    args.ordering.apply(&mut params);
    params.iterative_deepening = args.iterative;
    if let Some(window) = args.window {
        use nullwindow::search::Algorithm;
        if !matches!(driver.algorithm(), Some(Algorithm::AlphaBeta | Algorithm::Pvs | Algorithm::NegaScout)) {
            return Err(CliError(format!(
                "--window: {driver} chooses its own windows; alphabeta, pvs and negascout search one window of yours"
            )));
        }
        params.root_window = Some(window);
    }
    if args.file_order {
        params.table_move_first = false;
        params.killers = false;
        params.history = false;
        params.iterative_deepening = false;
    }
    let (output, events) = (args.output, args.on == On::Both);
    on_search_thread(
        target.tree(),
        params.depth,
        || with_names!(&target, ids, &args.target.position, game, names => trace(game, &names, driver, &params, when, output, events)),
    )??;
    Ok(ExitCode::SUCCESS)
}

/// Writes the records of `driver`'s search of `game` with `params`, named by `names`, as `when`
/// writes them, in `output`'s format, one at a time (a deep search's records are never all held
/// with their paths).
fn trace<G: Game>(
    game: &G,
    names: &impl NodeNames<G>,
    driver: Driver,
    params: &SearchParams,
    when: When,
    output: TraceFormat,
    events: bool,
) -> Result<(), CliError> {
    // Naming the depth searched keeps the records' depths readable (a tree ends at its height).
    let params = &SearchParams { depth: capped_depth(game, &game.root(), params.depth), ..params.clone() };
    let mut recorder = Recorder::new(game);
    let _ = driver.run_observed(game, params, &mut recorder);
    if when != When::Completion && recorder.reports_unentered_nodes() {
        return Err(CliError(format!(
            "{} makes no calls, so its nodes are never entered: it lists them when solved (--on completion)",
            driver.info().name
        )));
    }
    let mut out = BufWriter::new(std::io::stdout().lock());
    let columns = Columns { events, iterations: params.iterative_deepening };
    let mut written = match output {
        TraceFormat::Table => {
            // What changes the searches is said above the table, as solve says it.
            let mut modes = Vec::new();
            if params.iterative_deepening {
                modes.push("deepening iteratively from depth 1 (passes counted within each iteration)");
            }
            if params.fail_hard {
                modes.push("failing hard (every result clamped to its window)");
            }
            let heading = if modes.is_empty() {
                Ok(())
            } else {
                writeln!(out, "{}, {}", driver.info().name, modes.join(", "))
            };
            heading.and_then(|()| table_header(&mut out, columns))
        }
        TraceFormat::Jsonl => Ok(()),
    };
    // Passes are counted within each iteration: the first record of an iteration is of its first
    // pass, in either order, since a pass's records all come before the next pass's.
    let mut first_pass_of: HashMap<u64, u64> = HashMap::new();
    recorder.each_record(when, Some(names), |record| {
        if written.is_ok() {
            let mut record = record.at(());
            if let (Some(iteration), Some(pass)) = (record.iteration, record.pass) {
                let first = *first_pass_of.entry(iteration).or_insert(pass);
                record.pass = Some(pass - first + 1);
            }
            written = match output {
                TraceFormat::Jsonl => writeln!(out, "{}", write_jsonl(&record)),
                TraceFormat::Table => table_row(&mut out, &record, columns),
            };
        }
    });
    written.and_then(|()| out.flush()).map_err(|e| crate::output::fail(&e))
}

/// Which optional columns the table has: the event, when both events are written; the
/// iteration, when the search deepens iteratively.
#[derive(Clone, Copy)]
struct Columns {
    events: bool,
    iterations: bool,
}

impl Columns {
    fn event(self, text: &str) -> String {
        if self.events { format!("{text:<8}") } else { String::new() }
    }

    fn iteration(self, text: &str) -> String {
        if self.iterations { format!("{text:>4}  ") } else { String::new() }
    }
}

/// The header of the records as an aligned table.
fn table_header(out: &mut impl Write, columns: Columns) -> std::io::Result<()> {
    writeln!(
        out,
        "{}{:>6}  {}{:>4}  {:<16}  {:>6}  {:>5}  {:>11}  {:>11}  {:>11}  {:<6}  {:<6}  cutoff",
        columns.event("event"),
        "visit",
        columns.iteration("iter"),
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
}

/// One record as a row of the table [`table_header`] heads; the infinite bounds as `-inf` and
/// `+inf`, as the book writes them.
fn table_row(out: &mut impl Write, r: &Record<()>, columns: Columns) -> std::io::Result<()> {
    let dash = || "-".to_owned();
    let number = |number: Option<u64>| number.map_or_else(dash, |number| number.to_string());
    let entered = r.event == Some(Event::Enter);
    writeln!(
        out,
        "{}{:>6}  {}{:>4}  {:<16}  {:>6}  {:>5}  {:>11}  {:>11}  {:>11}  {:<6}  {:<6}  {}",
        columns.event(match r.event {
            Some(Event::Enter) => "enter",
            Some(Event::Return) => "return",
            None => "",
        }),
        number(r.visit),
        columns.iteration(&number(r.iteration)),
        number(r.pass),
        r.path.as_deref().map_or_else(dash, path_text),
        r.node.as_ref().map_or_else(dash, ToString::to_string),
        r.depth,
        shown(r.alpha),
        shown(r.beta),
        if entered { dash() } else { shown(r.result) },
        r.probe.map_or("-", |probe| probe.name()),
        r.stored.map_or("-", |bound| bound.name()),
        r.cutoff.map_or_else(dash, |c| c.to_string())
    )
}
