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
  ply         optional: the plies from the searched position down to the node (with a path, its
              length); `fuzz --engine` places a node named by its token alone there, else the
              case's depth less the record's below: give it if your search deepens iteratively
  depth       the plies the node was searched to (its remaining depth)
  alpha       the lower edge of the window the node was searched with
  beta        the window's upper edge
  result      what the search of the node returned
  stored      optional: lower, upper or exact, the bound the engine stored result as
  probe       optional: what the engine's table did: none, bounds, miss, hit, cutoff (result is a
              table entry's, returned without a search) or etc
  event       optional: records whose event is \"enter\" are skipped (they have no result)
Values are from MAX's side (the first player's), or with --values side-to-move from the side to
move at the node, as a negamax engine sees them. Messages and --json name each rule and quote each
value from the same side, as the record gives them.
The rules, for a node whose exact value searched depth plies deep is v:
  result <= alpha      v <= result (a fail-low result is an upper bound)
  result >= beta       v >= result (a fail-high result is a lower bound)
  otherwise            v == result
  stored lower/upper/exact   result <= v / result >= v / result == v
  alpha >= beta        (empty-window) the result must hold as the window (alpha, +inf) or
                       (-inf, beta) would read it; if it holds by neither, the caller that built
                       the empty window is named: the parent's record in the same search
A violation at a record whose probe is cutoff names the earlier record of the same node that
stored the entry, when the trace has one.
With --deeper-entries the rules must hold for some value an all-or-none extension of the node's
tree gives it (the witness criterion), instead of v.
With --root-value V the driver's answer is judged too (root-value): V, from the side the records'
values are from at the root, must be the root's exact value at --depth or, without it, at the
greatest depth of a record of the root; with --deeper-entries, a value some all-or-none extension
gives the root.
--json prints one object: ok, record (the line of the first violation), records, violations,
order, first and cause (each a violation: the record's fields as read and its line, rule, exact,
extensions, caller, stored_by) and root_value (claimed, depth, exact, extensions, rule; null
without --root-value). exact is the node's exact value at its depth. extensions is null unless
--deeper-entries: then lowest and highest are the least and the greatest value an all-or-none
extension of the node's tree gives it (not every value between need be one). Every value is from
the side the records' values are from, at that node. caller (empty-window only) and stored_by are
records as read, with their line, or null.
The fields' JSON Schema is book/src/audit-record.schema.json in the crate's repository.
With --self no exact value is asked: the records are held to the rules every alpha-beta search
keeps, whatever it prunes (for a selective engine): below-child (a result below a child's value,
or beta), unbacked (a result above alpha that no child searched gave), window (a child's window
outside its caller's), stored-kind (a bound stored against the node's own window), cut-off (a
table cut-off its entry, stored earlier by the same search, does not give), re-search (two
full-width searches of a node to one depth that contradict each other). Without a tree file,
--game or --engine, the records alone: re-search is not judged, cut-off only at named nodes, and
a record's caller only by its path. --json then prints ok, records and broken (the record's
fields and line, rule, against: the records it is compared with, message).
Exit status: 0 when every record holds (and the root value, if given), 1 at a record that breaks a
rule or a wrong root value, 2 on bad input.";

use std::process::ExitCode;

use clap::{Args, ValueEnum};
use nullwindow::driver::Perspective;
use nullwindow::driver::observe::Probe;
use nullwindow::game::Game;
use nullwindow::oracle::audit::{self, Citation, Explained, Options, Order, Record, Report, Rule, Violation};
use nullwindow::oracle::consistency::{self, SelfRule};
use nullwindow::oracle::record::{NodeName, NodeNames, ReadError, locate, read_jsonl};
use nullwindow::value::Value;
use serde::Serialize;

use crate::CliError;
use crate::input::{TargetArgs, with_names};
use crate::output::{errln, outln};
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
    /// The value the engine's driver returned for the root (from the side the records' values are
    /// from, at the root): judged with the records, it must be the root's exact value.
    #[arg(long, value_name = "VALUE", allow_hyphen_values = true)]
    root_value: Option<Value>,
    /// The depth --root-value is judged at; default: the greatest depth of a record of the root.
    #[arg(long, requires = "root_value", allow_hyphen_values = true, value_parser = crate::sizes::depth)]
    depth: Option<u32>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Judge the records by the rules every alpha-beta search keeps, whatever it prunes (no exact
    /// value: for a selective engine), instead of by exact values: a result its children do not
    /// give, a child's window outside its parent's, a bound stored against its own window, a table
    /// cut-off its entry does not give, two full-width searches of a node that contradict each
    /// other. Without a tree file, --game or --engine, the records alone, each node known by its
    /// name or path (the last rule then needs the game's moves, and is not judged).
    #[arg(long = "self", conflicts_with_all = ["deeper_entries", "root_value", "limit", "order"])]
    self_rules: bool,
}

pub fn run(args: &AuditArgs) -> Result<ExitCode, CliError> {
    if args.trace == "-" && args.target.reads_stdin() {
        return Err(CliError(
            "the tree and the trace cannot both come from standard input: name a file for one".to_owned(),
        ));
    }
    let (name, text) = read_trace(&args.trace)?;
    let read = read_jsonl(&text).map_err(|e| CliError(e.at(&name)))?;
    // An engine's game is unfolded as deep as the deepest record (or claim) reaches: its depth,
    // below the plies its path or its moves from the root name.
    let reach = |record: &nullwindow::oracle::record::Record<()>| {
        let ply = match (&record.path, &record.node) {
            (Some(path), _) => path.len(),
            (None, Some(NodeName::Id(moves))) => moves.split_whitespace().count(),
            _ => 0,
        };
        record.depth.saturating_add(u32::try_from(ply).unwrap_or(u32::MAX))
    };
    if args.self_rules {
        return self_audit(args, &name, read);
    }
    let deepest = read.iter().map(reach).chain(args.depth).max();
    let (target, ids) = args.target.read_with_ids(deepest)?;
    let options = Options {
        deeper_entries: args.deeper_entries,
        order: match args.order {
            OrderArg::Auto => None,
            OrderArg::Completion => Some(Order::Completion),
            OrderArg::Entry => Some(Order::Entry),
        },
        reference: target.reference(),
        limit: (args.limit > 0).then_some(args.limit),
        perspective: match args.values {
            Values::Max => Perspective::Max,
            Values::SideToMove => Perspective::Mover,
        },
        root_value: args.root_value,
        root_depth: args.depth,
    };
    let max_depth = read.iter().map(|record| record.depth).chain(args.depth).max().unwrap_or(0);
    let verdict = on_search_thread(target.tree(), max_depth, || {
        with_names!(&target, ids, &args.target.position, game, names => {
            judge(game, &names, read, &options).map_err(|e| CliError(e.at(&name)))
        })
    })??;
    let report = &verdict.report;
    if let Some(unfinished) = report.unfinished.filter(|_| report.first.is_none()) {
        let before = match unfinished.record {
            0 => "the first record".to_owned(),
            1 => "the record before it holds".to_owned(),
            held => format!("the {held} records before it hold"),
        };
        let Some(record) = verdict.records.get(unfinished.record) else {
            return Err(CliError(format!(
                "{name}: --root-value: judging the root takes more than the --limit of {} nodes (all {} \
                 hold)",
                unfinished.limit,
                crate::output::counted(report.records as u128, "record", "records"),
            )));
        };
        return Err(CliError(format!(
            "{name}:{}: {}: judging it takes more than the --limit of {} nodes ({before})",
            record.line.unwrap_or(0),
            audit::node_text(record),
            unfinished.limit,
        )));
    }
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&verdict.json())?);
    } else {
        verdict.print(&name, args.deeper_entries);
    }
    Ok(if report.holds() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// `audit --self`: the records held to the rules of their own search ([`consistency`]), with the
/// game's moves where a target is named, else alone.
fn self_audit(args: &AuditArgs, name: &str, read: Vec<Record<()>>) -> Result<ExitCode, CliError> {
    let perspective = match args.values {
        Values::Max => Perspective::Max,
        Values::SideToMove => Perspective::Mover,
    };
    let records_as_read = read.clone();
    let count = read.len();
    let broken = if args.target.names_a_target() {
        let deepest = read
            .iter()
            .map(|record| {
                record.depth.saturating_add(
                    record.path.as_ref().map_or(0, |path| u32::try_from(path.len()).unwrap_or(u32::MAX)),
                )
            })
            .max();
        let (target, ids) = args.target.read_with_ids(deepest)?;
        let max_depth = read.iter().map(|record| record.depth).max().unwrap_or(0);
        on_search_thread(target.tree(), max_depth, || {
            with_names!(&target, ids, &args.target.position, game, names => {
                let located = locate(game, &names, read).map_err(|e| CliError(e.at(name)))?;
                Ok::<_, CliError>(consistency::check(game, &located, perspective))
            })
        })??
    } else {
        if !consistency::sides_known(&read, perspective) {
            return Err(CliError(format!(
                "{name}: the records' values are from MAX's side (--values max), and without a game only a \
                 path tells who moves at a record's node: give every record a path, --values side-to-move \
                 for a negamax engine's records, or the tree or game they search"
            )));
        }
        consistency::check_records(&read, perspective)
    };
    let side = match perspective {
        Perspective::Max => "MAX's side",
        Perspective::Mover => "the side to move",
    };
    let with = if args.target.names_a_target() { "with the game's moves" } else { "the records alone" };
    let records = crate::output::counted(count as u128, "record", "records");
    if args.json {
        let json = JsonSelf {
            ok: broken.is_none(),
            records: count,
            broken: broken.as_ref().map(|broken| JsonBroken {
                record: JsonRecord::of(&records_as_read[broken.record]),
                rule: broken.rule,
                against: broken
                    .against
                    .iter()
                    .map(|&index| JsonRecord::of(&records_as_read[index]))
                    .collect(),
                message: broken.describe(&records_as_read, Citation::Line(name)),
            }),
        };
        outln!("{}", serde_json::to_string_pretty(&json)?);
    } else if let Some(broken) = &broken {
        outln!("{}", broken.describe(&records_as_read, Citation::Line(name)));
        outln!(
            "one of {records} breaks a rule of its own search, the first shown (values from {side}, {with}; no exact \
             value judged)"
        );
    } else {
        outln!(
            "ok: all {records} keep the rules of their own search (values from {side}, {with}; no exact value judged)"
        );
    }
    Ok(if broken.is_none() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// `audit --self --json`.
#[derive(Serialize)]
struct JsonSelf<'a> {
    ok: bool,
    records: usize,
    /// The first record that breaks a rule, or null.
    broken: Option<JsonBroken<'a>>,
}

/// A broken rule of a search's own, in `audit --self --json`.
#[derive(Serialize)]
struct JsonBroken<'a> {
    #[serde(flatten)]
    record: JsonRecord<'a>,
    rule: SelfRule,
    /// The records the rule compares it with.
    against: Vec<JsonRecord<'a>>,
    /// The finding in words.
    message: String,
}

/// Finds the records' nodes and audits them, values as the records give them.
fn judge<G: Game>(
    game: &G,
    names: &impl NodeNames<G>,
    read: Vec<Record<()>>,
    options: &Options,
) -> Result<Verdict, ReadError> {
    // Messages name a node as the record did: its path only if it gave one.
    let paths_as_read: Vec<Option<Vec<u32>>> = read.iter().map(|record| record.path.clone()).collect();
    let located = locate(game, names, read)?;
    if options.root_value.is_some()
        && options.root_depth.is_none()
        && audit::root_depth(game, &located).is_none()
    {
        return Err(ReadError {
            line: None,
            column: None,
            message:
                "no record is of the root (path []) to take the depth of --root-value from: give --depth"
                    .to_owned(),
        });
    }
    let bar = crate::progress::bar(located.len() as u64, "records", "");
    let report =
        audit::audit_with_progress(game, &located, options, &mut |done| bar.set_position(done as u64));
    bar.finish_and_clear();
    let records = located
        .into_iter()
        .zip(paths_as_read)
        .map(|(record, path)| Record { path, ..record.at(()) })
        .collect();
    Ok(Verdict { report, records, perspective: options.perspective, root_value: options.root_value })
}

fn read_trace(path: &str) -> Result<(String, String), CliError> {
    let (name, bytes) = crate::input::read_input(path, " the trace")?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..offset].iter().filter(|&&b| b == b'\n').count() + 1;
        CliError(format!("{name}:{line}: the trace is not valid UTF-8"))
    })?;
    Ok((name, text))
}

/// The report, with the records as read (values as the trace gives them, the side the report's
/// values are from too).
struct Verdict {
    report: Report,
    records: Vec<Record<()>>,
    /// Whose side the records' values are from.
    perspective: Perspective,
    /// The driver's root value, if claimed.
    root_value: Option<Value>,
}

impl Verdict {
    fn print(&self, name: &str, deeper_entries: bool) {
        let report = &self.report;
        let order = match report.order {
            Order::Completion => "completion order, children first",
            Order::Entry => "entry order, parents first",
        };
        let side = match self.perspective {
            Perspective::Max => "MAX's side",
            Perspective::Mover => "the side to move",
        };
        let records = crate::output::counted(report.records as u128, "record", "records");
        let root = report.root_value.as_ref();
        if let Some(found) = &report.not_a_child {
            outln!(
                "{}",
                found.describe(
                    &self.records[found.record],
                    &self.records[found.caller],
                    Citation::Line(name)
                )
            );
        }
        if let Some(first) = &report.first {
            outln!("{}", self.describe(name, first));
            if let Some(cause) = report.cause.as_ref().filter(|cause| cause.record != first.record) {
                outln!("earliest cause, in that node's own search:");
                outln!("{}", self.describe(name, cause));
            }
            if self.perspective == Perspective::Max && !crate::progress::quiet() {
                errln!(
                    "hint: the records were read as values from MAX's side (--values max, the default); a \
                     negamax engine records values from the side to move at each node: if yours does, give \
                     --values side-to-move"
                );
            }
        }
        if let Some(root) = root.filter(|root| root.rule.is_some()) {
            outln!("{root}");
        } else if let (Some(claimed), None) = (self.root_value, root) {
            outln!("--root-value {claimed}: not judged: the audit stopped at its --limit first");
        }
        let root_holds = root.is_some_and(|root| root.rule.is_none());
        let root_breaks = root.is_some_and(|root| root.rule.is_some());
        let verdict = match (report.first.is_some(), root_breaks) {
            (false, false) if report.not_a_child.is_some() => {
                format!("all {records} hold their rules, but one reaches a position outside the game (")
            }
            (false, false) if root_holds => {
                let root = root.map_or(0, |root| root.claimed);
                format!("ok: all {records} hold, and so does the root value {root} (")
            }
            (false, false) => format!("ok: all {records} hold ("),
            (false, true) => format!("all {records} hold, but the root value does not ("),
            (true, root_breaks) => format!(
                "{} of {records} {} a rule{} (",
                report.violations,
                if report.violations == 1 { "breaks" } else { "break" },
                match root {
                    _ if root_breaks => ", and so does the root value".to_owned(),
                    Some(root) => format!(", though the root value {} holds", root.claimed),
                    None => String::new(),
                }
            ),
        };
        let judged_by =
            if deeper_entries { "judged by the witness criterion" } else { "exact depth-limited values" };
        if report.first.is_none() && !root_breaks && report.not_a_child.is_none() {
            outln!("{verdict}values from {side}, {judged_by}; records in {order})");
        } else {
            outln!("{verdict}values from {side}; records in {order})");
        }
    }

    /// One violation as a message, in the library's one wording of a broken rule.
    fn describe(&self, name: &str, violation: &Violation) -> String {
        Explained::new(violation, &self.records, Citation::Line(name)).to_string()
    }

    fn json(&self) -> JsonVerdict<'_> {
        let record = |index: usize| JsonRecord::of(&self.records[index]);
        let entry = |violation: &Violation| JsonViolation {
            record: record(violation.record),
            rule: violation.rule,
            exact: violation.exact,
            extensions: violation.extensions.map(JsonExtensions::of),
            caller: violation.caller.map(record),
            stored_by: violation.stored_by.map(record),
        };
        let report = &self.report;
        JsonVerdict {
            ok: report.holds(),
            record: report.first.as_ref().map(|first| self.records[first.record].line.unwrap_or(0)),
            records: report.records,
            violations: report.violations,
            order: report.order,
            first: report.first.as_ref().map(entry),
            cause: report.cause.as_ref().map(entry),
            root_value: report.root_value.map(|root| JsonRoot {
                claimed: root.claimed,
                depth: root.depth,
                exact: root.exact,
                extensions: root.extensions.map(JsonExtensions::of),
                rule: root.rule,
            }),
            not_a_child: report.not_a_child.as_ref().map(|found| JsonNotAChild {
                record: record(found.record),
                caller: record(found.caller),
                moves: &found.moves,
            }),
        }
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
    probe: Option<Probe>,
}

impl<'a> JsonRecord<'a> {
    fn of(record: &'a Record<()>) -> Self {
        Self {
            line: record.line.unwrap_or(0),
            path: record.path.as_deref(),
            node: record.node.as_ref(),
            depth: record.depth,
            alpha: record.alpha,
            beta: record.beta,
            result: record.result,
            stored: record.stored,
            probe: record.probe,
        }
    }
}

#[derive(Serialize)]
struct JsonViolation<'a> {
    #[serde(flatten)]
    record: JsonRecord<'a>,
    /// Named for the record as written.
    rule: Rule,
    /// The exact value, from the side the records' values are from.
    exact: Value,
    /// With --deeper-entries: the least and greatest value the node's all-or-none extensions give.
    extensions: Option<JsonExtensions>,
    /// For an empty window: the record of the caller that built it, if the trace has it.
    caller: Option<JsonRecord<'a>>,
    /// For a result from a table entry: the earlier record of the node that stored the entry.
    stored_by: Option<JsonRecord<'a>>,
}

/// The range of the values a node's extensions give, from the side the records' values are from.
#[derive(Serialize)]
struct JsonExtensions {
    lowest: Value,
    highest: Value,
}

impl JsonExtensions {
    const fn of(range: audit::Extensions) -> Self {
        Self { lowest: range.lowest, highest: range.highest }
    }
}

/// The verdict on --root-value, values from the side the records' are from at the root.
#[derive(Serialize)]
struct JsonRoot {
    claimed: Value,
    depth: u32,
    exact: Value,
    extensions: Option<JsonExtensions>,
    /// `root-value` when the claim is wrong, null when it holds.
    rule: Option<Rule>,
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
    root_value: Option<JsonRoot>,
    /// The first record whose node its caller, a ply above, cannot reach by any move (left out
    /// when there is none).
    #[serde(skip_serializing_if = "Option::is_none")]
    not_a_child: Option<JsonNotAChild<'a>>,
}

/// A record outside the game, in the `--json` verdict: it, its caller, and the caller's moves.
#[derive(Serialize)]
struct JsonNotAChild<'a> {
    record: JsonRecord<'a>,
    caller: JsonRecord<'a>,
    moves: &'a [String],
}
