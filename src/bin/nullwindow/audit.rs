//! `nullwindow audit`: another engine's per-node records (JSON lines), each checked against the
//! exact value of its node; the first record that breaks a rule, and the record that caused it.
//!
//! The checking is the library's `nullwindow::oracle::audit`; this file reads the records, finds
//! their nodes in the tree or game, and reports.

/// The record format, as `nullwindow audit --help` prints it.
pub const RECORD_HELP: &str = "\
Each line of the trace is one JSON object (blank lines are skipped, unknown fields ignored, so the
records of `nullwindow trace` are valid input):
  path        child indices from the root (0 = first child), [] for the root; in a game, indices
              into the position's legal moves in the game's order (Connect Four: columns 1 to 7)
  node        instead of or besides path: a gtree id, a node number of a parenthesis tree (from
              0 at the root, in the file's order), or a game position (the moves from the start)
  depth       the plies the node was searched to (its remaining depth)
  alpha       the lower edge of the window the node was searched with
  beta        the window's upper edge
  result      what the search of the node returned
  stored      optional: lower, upper or exact, the bound the engine stored result as
  event       optional: records whose event is \"enter\" are skipped (they have no result)
Values are from MAX's side (the first player's), or with --values side-to-move from the side to
move at the node, as a negamax engine sees them.
The rules, for a node whose exact value searched depth plies deep is v:
  result <= alpha      v <= result (a fail-low result is an upper bound)
  result >= beta       v >= result (a fail-high result is a lower bound)
  otherwise            v == result
  stored lower/upper/exact   result <= v / result >= v / result == v
With --deeper-entries the rules must hold for some value an all-or-none extension of the node's
tree gives it (the witness criterion), instead of v.
The fields' JSON Schema is book/src/audit-record.schema.json in the crate's repository.
Exit status: 0 when every record holds, 1 at a record that breaks a rule, 2 on bad input.";

use std::io::Read;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use nullwindow::driver::Perspective;
use nullwindow::game::{Game, Player};
use nullwindow::oracle::audit::{self, Options, Order, Record, Report, Rule, Violation};
use nullwindow::oracle::record::{NodeNames, locate, path_text, read_jsonl};
use nullwindow::value::Value;
use serde::Serialize;

use crate::CliError;
use crate::input::{TargetArgs, with_names};
use crate::output::outln;
use crate::solve::on_search_thread;

/// Whose side the records' values are from.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Values {
    /// MAX's (the first player's) side, as a minimax engine and `nullwindow trace` write them.
    Max,
    /// The side to move at each node, as a negamax engine sees them.
    SideToMove,
}

/// The order the records were written in.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum OrderArg {
    /// Work it out from the records.
    Auto,
    /// Each node when it returned: children before their parent.
    Completion,
    /// Each node when it was entered: parents before their children.
    Entry,
}

#[derive(Args)]
pub struct AuditArgs {
    #[command(flatten)]
    target: TargetArgs,
    /// The other engine's records, one JSON object per line (`-` for standard input).
    #[arg(long, value_name = "FILE")]
    trace: String,
    /// Whose side the records' values are from.
    #[arg(long, value_enum, default_value_t = Values::Max)]
    values: Values,
    /// The engine uses table entries of deeper searches: judge by the witness criterion.
    #[arg(long)]
    deeper_entries: bool,
    /// The most nodes the judgement of one record may visit (its exact value; with
    /// --deeper-entries its extensions too): the audit stops, naming the record, at one that needs
    /// more. The default, 10^8, is some twenty seconds of Connect Four; 0 sets no limit.
    #[arg(long, value_name = "NODES", default_value_t = 100_000_000)]
    limit: u64,
    /// The order the records were written in.
    #[arg(long, value_enum, default_value_t = OrderArg::Auto)]
    order: OrderArg,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &AuditArgs) -> Result<ExitCode, CliError> {
    if args.trace == "-" && args.target.reads_stdin() {
        return Err(CliError(
            "the tree and the trace cannot both come from standard input: name a file for one".to_owned(),
        ));
    }
    let (name, text) = read_trace(&args.trace)?;
    let read = read_jsonl(&text).map_err(|e| CliError(e.at(&name)))?;
    let (target, ids) = args.target.read_with_ids()?;
    let options = Options {
        deeper_entries: args.deeper_entries,
        order: match args.order {
            OrderArg::Auto => None,
            OrderArg::Completion => Some(Order::Completion),
            OrderArg::Entry => Some(Order::Entry),
        },
        reference: target.reference(),
        limit: (args.limit > 0).then_some(args.limit),
    };
    let perspective = match args.values {
        Values::Max => Perspective::Max,
        Values::SideToMove => Perspective::Mover,
    };
    let max_depth = read.iter().map(|record| record.depth).max().unwrap_or(0);
    let verdict = on_search_thread(target.tree(), max_depth, || {
        with_names!(&target, ids, &args.target.position, game, names => {
            judge(game, &names, read, perspective, &options).map_err(|e| CliError(e.at(&name)))
        })
    })??;
    if let Some(unfinished) = verdict.report.unfinished.filter(|_| verdict.report.first.is_none()) {
        let record = &verdict.records[unfinished.record];
        let before = match unfinished.record {
            0 => "the first record".to_owned(),
            1 => "the record before it holds".to_owned(),
            held => format!("the {held} records before it hold"),
        };
        return Err(CliError(format!(
            "{name}:{}: {}: judging it takes more than the --limit of {} nodes ({before})",
            record.line.unwrap_or(0),
            node_name(record),
            unfinished.limit,
        )));
    }
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&verdict.json())?);
    } else {
        verdict.print(&name, args.values == Values::SideToMove, args.deeper_entries);
    }
    Ok(if verdict.report.first.is_none() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// Finds the records' nodes, turns their values to MAX's side, and audits them.
fn judge<G: Game>(
    game: &G,
    names: &impl NodeNames<G>,
    read: Vec<Record<()>>,
    perspective: Perspective,
    options: &Options,
) -> Result<Verdict, nullwindow::oracle::record::ReadError> {
    // Messages name a node as the record did: its path only if it gave one.
    let paths_as_read: Vec<Option<Vec<u32>>> = read.iter().map(|record| record.path.clone()).collect();
    let located = locate(game, names, read)?;
    let players: Vec<Player> = located.iter().map(|record| game.to_move(&record.position)).collect();
    let for_max: Vec<Record<G::Position>> = located
        .iter()
        .zip(&players)
        .map(|(record, &player)| record.clone().turned(player, perspective))
        .collect();
    let bar = crate::progress::bar(for_max.len() as u64, "records", "");
    let report =
        audit::audit_with_progress(game, &for_max, options, &mut |done| bar.set_position(done as u64));
    bar.finish_and_clear();
    let records = located
        .into_iter()
        .zip(paths_as_read)
        .map(|(record, path)| Record { path, ..record.at(()) })
        .collect();
    Ok(Verdict { report, records, players, perspective })
}

fn read_trace(path: &str) -> Result<(String, String), CliError> {
    let bytes = if path == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| CliError(format!("cannot read the trace from standard input: {e}")))?;
        bytes
    } else {
        std::fs::read(path).map_err(|e| CliError(format!("cannot read the trace '{path}': {e}")))?
    };
    let name = if path == "-" { "<stdin>".to_owned() } else { path.to_owned() };
    let text = String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..offset].iter().filter(|&&b| b == b'\n').count() + 1;
        CliError(format!("{name}:{line}: the trace is not valid UTF-8"))
    })?;
    Ok((name, text))
}

/// The report, with the records as read (values as the trace gives them) and who moves at each.
struct Verdict {
    report: Report,
    records: Vec<Record<()>>,
    players: Vec<Player>,
    /// Whose side the records' values are from.
    perspective: Perspective,
}

impl Verdict {
    fn print(&self, name: &str, side_to_move: bool, deeper_entries: bool) {
        let report = &self.report;
        let order = match report.order {
            Order::Completion => "completion order, children first",
            Order::Entry => "entry order, parents first",
        };
        let side = if side_to_move { "the side to move" } else { "MAX's side" };
        let Some(first) = &report.first else {
            outln!(
                "ok: all {} hold (values from {side}, {}; records in {order})",
                crate::output::counted(report.records as u128, "record", "records"),
                if deeper_entries { "judged by the witness criterion" } else { "exact depth-limited values" }
            );
            return;
        };
        outln!("{}", self.describe(name, first));
        if let Some(cause) = report.cause.as_ref().filter(|cause| cause.record != first.record) {
            outln!("earliest cause, in that node's own search:");
            outln!("{}", self.describe(name, cause));
        }
        outln!(
            "{} of {} {} a rule (values from {side}; records in {order})",
            report.violations,
            crate::output::counted(report.records as u128, "record", "records"),
            if report.violations == 1 { "breaks" } else { "break" }
        );
    }

    /// A violation's exact value and the least and greatest values its extensions give, from the
    /// side the records' values are from.
    fn seen(&self, violation: &Violation) -> (Value, Option<(Value, Value)>) {
        let player = self.players[violation.record];
        let shown = |value: Value| self.perspective.turn(player, (value, value, value)).2;
        let range = violation.extensions.map(|range| {
            let (a, b) = (shown(range.lowest), shown(range.highest));
            (a.min(b), a.max(b))
        });
        (shown(violation.exact), range)
    }

    /// One violation as a message: where, what was claimed, what the value is, which rule failed.
    fn describe(&self, name: &str, violation: &Violation) -> String {
        let record = &self.records[violation.record];
        let stored =
            record.stored.map_or_else(String::new, |bound| format!(" and stored it as {}", bound.name()));
        let value = match self.seen(violation) {
            (exact, Some((lowest, highest))) => format!(
                "its value is {exact} (the values its all-or-none extensions give lie from {lowest} to \
                 {highest}, and none allows it)"
            ),
            (exact, None) => format!("its value is {exact}"),
        };
        let rule = violation.rule;
        format!(
            "{name}:{}: {}, searched {} deep with the window ({}, {}), returned {}{stored}, but {value}: {rule}: {}",
            record.line.unwrap_or(0),
            node_name(record),
            crate::output::counted(u128::from(record.depth), "ply", "plies"),
            record.alpha,
            record.beta,
            record.result,
            rule.describe()
        )
    }

    fn json(&self) -> JsonVerdict<'_> {
        let entry = |violation: &Violation| {
            let (exact, extensions) = self.seen(violation);
            let record = &self.records[violation.record];
            let record = JsonRecord {
                line: record.line.unwrap_or(0),
                path: record.path.as_deref(),
                node: record.node.as_ref(),
                depth: record.depth,
                alpha: record.alpha,
                beta: record.beta,
                result: record.result,
                stored: record.stored,
            };
            let extensions = extensions.map(|(lowest, highest)| JsonExtensions { lowest, highest });
            JsonViolation { record, rule: violation.rule, exact, extensions }
        };
        let report = &self.report;
        JsonVerdict {
            ok: report.first.is_none(),
            record: report.first.as_ref().map(|first| self.records[first.record].line.unwrap_or(0)),
            records: report.records,
            violations: report.violations,
            order: report.order,
            first: report.first.as_ref().map(entry),
            cause: report.cause.as_ref().map(entry),
        }
    }
}

/// How a message names a record's node: its path, its name, or both.
fn node_name(record: &Record<()>) -> String {
    let path = record.path.as_deref().map(path_text);
    match (path, &record.node) {
        (Some(path), Some(node)) => format!("node {node} at {path}"),
        (Some(path), None) => format!("node {path}"),
        (None, Some(node)) => format!("node {node}"),
        (None, None) => "node".to_owned(),
    }
}

/// A record as read, with its line, in the `--json` verdict.
#[derive(Serialize)]
struct JsonRecord<'a> {
    line: usize,
    path: Option<&'a [u32]>,
    node: Option<&'a nullwindow::oracle::record::NodeName>,
    depth: u32,
    alpha: Value,
    beta: Value,
    result: Value,
    stored: Option<nullwindow::value::Bound>,
}

#[derive(Serialize)]
struct JsonViolation<'a> {
    #[serde(flatten)]
    record: JsonRecord<'a>,
    rule: Rule,
    /// The exact value, from the side the records' values are from.
    exact: Value,
    /// With --deeper-entries: the least and greatest value the node's all-or-none extensions give.
    extensions: Option<JsonExtensions>,
}

/// The range of the values a node's extensions give, from the side the records' values are from.
#[derive(Serialize)]
struct JsonExtensions {
    lowest: Value,
    highest: Value,
}

#[derive(Serialize)]
struct JsonVerdict<'a> {
    ok: bool,
    /// The line of the first record that breaks a rule.
    record: Option<usize>,
    records: usize,
    violations: usize,
    order: Order,
    first: Option<JsonViolation<'a>>,
    cause: Option<JsonViolation<'a>>,
}
