//! `nullwindow audit`: another engine's per-node records (JSON lines), each checked against the
//! exact value of its node; the first record that breaks a rule, and the record that caused it.
//!
//! The checking is the library's `nullwindow::oracle::audit`; this file reads the records, finds
//! their nodes in the tree or game, and reports.

use std::io::Read;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use nullwindow::game::{Game, Player};
use nullwindow::oracle::audit::{self, Bound, Options, Order, Record, Report, Rule, Violation};
use nullwindow::tree::{Tree, text::excerpt};
use nullwindow::value::Value;
use serde::Serialize;
use serde_json::{Map, Value as Json};

use crate::CliError;
use crate::input::{Target, TargetArgs};
use crate::output::outln;
use crate::solve::on_search_thread;

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
    /// The order the records were written in.
    #[arg(long, value_enum, default_value_t = OrderArg::Auto)]
    order: OrderArg,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// A record as read, before its node is found: the line it came from and what it names. The
/// `--json` verdict repeats it as read.
#[derive(Serialize)]
struct RawRecord {
    /// The line of the record in the trace (from 1).
    line: usize,
    path: Option<Vec<u32>>,
    node: Option<Json>,
    depth: u32,
    alpha: Value,
    beta: Value,
    result: Value,
    stored: Option<Bound>,
}

impl RawRecord {
    /// The record for the library, once its node is found (values still as the trace gives them).
    fn at<P>(&self, position: P, path: Option<Vec<u32>>) -> Record<P> {
        Record {
            position,
            path,
            depth: self.depth,
            alpha: self.alpha,
            beta: self.beta,
            result: self.result,
            stored: self.stored,
        }
    }
}

pub fn run(args: &AuditArgs) -> Result<ExitCode, CliError> {
    if args.trace == "-" && args.target.reads_stdin() {
        return Err(CliError(
            "the tree and the trace cannot both come from standard input: name a file for one".to_owned(),
        ));
    }
    let (name, text) = read_trace(&args.trace)?;
    let raw = parse_records(&name, &text)?;
    let (target, ids) = args.target.read_with_ids()?;
    let options = Options {
        deeper_entries: args.deeper_entries,
        order: match args.order {
            OrderArg::Auto => None,
            OrderArg::Completion => Some(Order::Completion),
            OrderArg::Entry => Some(Order::Entry),
        },
        reference: target.reference(),
    };
    let max_depth = raw.iter().map(|record| record.depth).max().unwrap_or(0);
    let verdict = on_search_thread(target.tree(), max_depth, || -> Result<Verdict, CliError> {
        match &target {
            Target::Tree(tree) => {
                let records = tree_records(tree, ids.as_deref(), &name, &raw, args.values)?;
                Ok(Verdict::new(tree, &records, audit::audit(tree, &records, &options)))
            }
            Target::TicTacToe(game) => {
                let records = game_records(game, &args.target.position, &name, &raw, args.values, |moves| {
                    nullwindow::games::tictactoe::TicTacToe::from_moves(moves).map(|game| game.root())
                })?;
                Ok(Verdict::new(game, &records, audit::audit(game, &records, &options)))
            }
            Target::Connect4(game) => {
                let records = game_records(game, &args.target.position, &name, &raw, args.values, |moves| {
                    nullwindow::games::connect4::Connect4::from_moves(moves).map(|game| game.root())
                })?;
                Ok(Verdict::new(game, &records, audit::audit(game, &records, &options)))
            }
        }
    })??;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&verdict.json(&raw, args.values == Values::SideToMove))?);
    } else {
        verdict.print(&name, &raw, args.values == Values::SideToMove, args.deeper_entries);
    }
    Ok(if verdict.report.first.is_none() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
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

/// Reads every record, or the first error with its line (and column, for bad JSON).
fn parse_records(name: &str, text: &str) -> Result<Vec<RawRecord>, CliError> {
    let mut records = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if line.trim().is_empty() {
            continue;
        }
        let at = |message: String| CliError(format!("{name}:{number}: {message}"));
        let json: Json = serde_json::from_str(line).map_err(|e| {
            // serde_json ends its message with the position, which the prefix already gives.
            let message = e.to_string();
            let message = message.split(" at line ").next().unwrap_or(&message).to_owned();
            CliError(format!("{name}:{number}:{}: not valid JSON: {message}", e.column()))
        })?;
        let Json::Object(object) = json else {
            return Err(at("not a JSON object (each line is one record, {...})".to_owned()));
        };
        if object.get("event").and_then(Json::as_str) == Some("enter") {
            continue;
        }
        records.push(parse_record(&object, number).map_err(at)?);
    }
    if records.is_empty() {
        return Err(CliError(format!("{name}: no records (one JSON object per line)")));
    }
    Ok(records)
}

fn parse_record(object: &Map<String, Json>, line: usize) -> Result<RawRecord, String> {
    let integer = |field: &str| -> Result<i64, String> {
        match object.get(field) {
            None | Some(Json::Null) => Err(format!("the record has no '{field}'")),
            Some(value) => value.as_i64().ok_or_else(|| format!("'{field}' is {value}, not an integer")),
        }
    };
    let value = |field: &str| -> Result<Value, String> {
        let number = integer(field)?;
        Value::try_from(number)
            .map_err(|_| format!("'{field}' is {number}, outside the 32-bit range of values"))
    };
    let path = match object.get("path") {
        None | Some(Json::Null) => None,
        Some(Json::Array(steps)) => Some(
            steps
                .iter()
                .map(|step| {
                    step.as_u64()
                        .and_then(|step| u32::try_from(step).ok())
                        .ok_or_else(|| format!("'path' holds {step}, not a child index (0, 1, 2, ...)"))
                })
                .collect::<Result<Vec<u32>, String>>()?,
        ),
        Some(other) => return Err(format!("'path' is {other}, not a list of child indices")),
    };
    let node = object.get("node").filter(|node| !node.is_null()).cloned();
    if path.is_none() && node.is_none() {
        return Err("the record names no node: give 'path' (child indices) or 'node'".to_owned());
    }
    let depth = integer("depth")?;
    let depth = u32::try_from(depth).map_err(|_| format!("'depth' is {depth}, not a number of plies"))?;
    let stored = match object.get("stored") {
        None | Some(Json::Null | Json::Bool(_)) => None,
        Some(Json::String(bound)) => Some(match bound.as_str() {
            "lower" => Bound::Lower,
            "upper" => Bound::Upper,
            "exact" => Bound::Exact,
            _ => return Err(format!("'stored' is '{}', not lower, upper or exact", excerpt(bound))),
        }),
        Some(other) => return Err(format!("'stored' is {other}, not lower, upper or exact")),
    };
    Ok(RawRecord {
        line,
        path,
        node,
        depth,
        alpha: value("alpha")?,
        beta: value("beta")?,
        result: value("result")?,
        stored,
    })
}

/// Turns a record from the side to move at a node of `player` to MAX's side if the values are.
fn oriented<P>(record: Record<P>, player: Player, values: Values) -> Record<P> {
    if values == Values::SideToMove { record.from_side_to_move(player == Player::Min) } else { record }
}

/// Finds each record's node in a tree (by path, by gtree id, or by node number).
fn tree_records(
    tree: &Tree,
    ids: Option<&[String]>,
    name: &str,
    raw: &[RawRecord],
    values: Values,
) -> Result<Vec<Record<nullwindow::tree::NodeId>>, CliError> {
    raw.iter()
        .map(|record| {
            let at = |message: String| CliError(format!("{name}:{}: {message}", record.line));
            let by_path = match &record.path {
                Some(path) => Some(tree.node_at(path).ok_or_else(|| {
                    at(format!("the path {path:?} leaves the tree (`nullwindow divide --path` walks it)"))
                })?),
                None => None,
            };
            let by_node = match &record.node {
                None => None,
                Some(node) => Some(match (ids, node) {
                    (Some(ids), Json::String(_) | Json::Number(_)) => {
                        let id = match node {
                            Json::String(id) => id.clone(),
                            other => other.to_string(),
                        };
                        let index = ids
                            .iter()
                            .position(|known| *known == id)
                            .ok_or_else(|| at(format!("no node has the id '{}'", excerpt(&id))))?;
                        nullwindow::tree::NodeId(index as u32)
                    }
                    (None, Json::Number(number)) => number
                        .as_u64()
                        .filter(|&n| (n as usize) < tree.node_count())
                        .map(|n| nullwindow::tree::NodeId(n as u32))
                        .ok_or_else(|| {
                            at(format!(
                                "the node number {number} is not one of this tree's (0 to {})",
                                tree.node_count() - 1
                            ))
                        })?,
                    (None, other) => {
                        return Err(at(format!(
                            "'node' is {}, but a parenthesis tree names nodes by number (from 0 at the root)",
                            json_kind(other)
                        )));
                    }
                    (Some(_), other) => {
                        return Err(at(format!("'node' is {}, not a gtree id", json_kind(other))));
                    }
                }),
            };
            let position = match (by_path, by_node) {
                (Some(a), Some(b)) if a != b => {
                    return Err(at("'path' and 'node' name different nodes".to_owned()));
                }
                (Some(node), _) | (None, Some(node)) => node,
                (None, None) => unreachable!("parse_record requires a path or a node"),
            };
            Ok(oriented(record.at(position, record.path.clone()), tree.player(position), values))
        })
        .collect()
}

/// Finds each record's position in a game: by its moves from the start (`node`), or by a path of
/// indices into the legal moves from the root (`root_moves`).
fn game_records<G: Game, E: std::fmt::Display>(
    game: &G,
    root_moves: &str,
    name: &str,
    raw: &[RawRecord],
    values: Values,
    from_moves: impl Fn(&str) -> Result<G::Position, E>,
) -> Result<Vec<Record<G::Position>>, CliError> {
    raw.iter()
        .map(|record| {
            let at = |message: String| CliError(format!("{name}:{}: {message}", record.line));
            let (position, path) = match (&record.node, &record.path) {
                (Some(node), _) => {
                    let moves = match node {
                        Json::String(moves) => moves.clone(),
                        Json::Number(number) => number.to_string(),
                        other => {
                            return Err(at(format!(
                                "'node' is {}, not a game position",
                                excerpt(&other.to_string())
                            )));
                        }
                    };
                    let Some(beyond) = moves.strip_prefix(root_moves) else {
                        return Err(at(format!(
                            "the position '{}' does not follow from the searched position '{root_moves}'",
                            excerpt(&moves)
                        )));
                    };
                    let position = from_moves(&moves)
                        .map_err(|e| at(format!("the position '{}': {e}", excerpt(&moves))))?;
                    // The route from the root, for telling which records lie below which.
                    let path = route(game, beyond).ok_or_else(|| {
                        at(format!("the position '{}' cannot be reached by legal moves", excerpt(&moves)))
                    })?;
                    (position, Some(path))
                }
                (None, Some(path)) => {
                    let mut position = game.root();
                    for (step, &index) in path.iter().enumerate() {
                        let legal = game.legal_moves(&position);
                        let mv = legal.get(index as usize).copied().ok_or_else(|| {
                            at(format!(
                                "step {} of the path {path:?}: the position has {} legal moves",
                                step + 1,
                                legal.len()
                            ))
                        })?;
                        position = game.play(&position, mv);
                    }
                    (position, Some(path.clone()))
                }
                (None, None) => unreachable!("parse_record requires a path or a node"),
            };
            let player = game.to_move(&position);
            Ok(oriented(record.at(position, path), player, values))
        })
        .collect()
}

/// The indices into the legal moves that play `moves` (one character per move) from the root.
fn route<G: Game>(game: &G, moves: &str) -> Option<Vec<u32>> {
    let mut position = game.root();
    let mut path = Vec::new();
    for symbol in moves.chars() {
        let legal = game.legal_moves(&position);
        let index = legal.iter().position(|mv| mv.to_string() == symbol.to_string())?;
        position = game.play(&position, legal[index]);
        path.push(index as u32);
    }
    Some(path)
}

/// The report, with what the messages need to know about the records' nodes.
struct Verdict {
    report: Report,
    /// For each record: whether MIN moves at its node.
    min_to_move: Vec<bool>,
}

impl Verdict {
    fn new<G: Game>(game: &G, records: &[Record<G::Position>], report: Report) -> Self {
        let min_to_move =
            records.iter().map(|record| game.to_move(&record.position) == Player::Min).collect();
        Self { report, min_to_move }
    }

    fn print(&self, name: &str, raw: &[RawRecord], side_to_move: bool, deeper_entries: bool) {
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
        outln!("{}", self.describe(name, raw, first, side_to_move));
        if let Some(cause) = report.cause.as_ref().filter(|cause| cause.record != first.record) {
            outln!("earliest cause, in that node's own search:");
            outln!("{}", self.describe(name, raw, cause, side_to_move));
        }
        outln!(
            "{} of {} {} a rule (values from {side}; records in {order})",
            report.violations,
            crate::output::counted(report.records as u128, "record", "records"),
            if report.violations == 1 { "breaks" } else { "break" }
        );
    }

    /// A violation's exact value and allowed values (sorted), from the side the records' values are
    /// from: MAX's, or with `side_to_move` the side to move at the node.
    fn seen(&self, violation: &Violation, side_to_move: bool) -> (Value, Option<Vec<Value>>) {
        let flip = side_to_move && self.min_to_move[violation.record];
        let shown = |value: Value| if flip { value.saturating_neg() } else { value };
        let allowed = violation.allowed.as_ref().map(|allowed| {
            let mut allowed: Vec<Value> = allowed.iter().map(|&v| shown(v)).collect();
            allowed.sort_unstable();
            allowed
        });
        (shown(violation.exact), allowed)
    }

    /// One violation as a message: where, what was claimed, what the value is, which rule failed.
    fn describe(&self, name: &str, raw: &[RawRecord], violation: &Violation, side_to_move: bool) -> String {
        let record = &raw[violation.record];
        let node = node_name(record);
        let stored =
            record.stored.map_or_else(String::new, |bound| format!(" and stored it as {}", bound.name()));
        let value = match self.seen(violation, side_to_move) {
            (exact, Some(allowed)) => {
                let list: Vec<String> = allowed.iter().map(ToString::to_string).collect();
                format!(
                    "its value is {exact} (the values its all-or-none extensions give are {}, and none allows it)",
                    list.join(", ")
                )
            }
            (exact, None) => format!("its value is {exact}"),
        };
        let rule = violation.rule;
        format!(
            "{name}:{}: {node}, searched {} deep with the window ({}, {}), returned {}{stored}, but {value}: {rule}: {}",
            record.line,
            crate::output::counted(u128::from(record.depth), "ply", "plies"),
            record.alpha,
            record.beta,
            record.result,
            rule.describe()
        )
    }

    fn json<'a>(&self, raw: &'a [RawRecord], side_to_move: bool) -> JsonVerdict<'a> {
        let entry = |violation: &Violation| {
            let (exact, allowed) = self.seen(violation, side_to_move);
            JsonViolation { record: &raw[violation.record], rule: violation.rule, exact, allowed }
        };
        JsonVerdict {
            ok: self.report.first.is_none(),
            record: self.report.first.as_ref().map(|first| raw[first.record].line),
            records: self.report.records,
            violations: self.report.violations,
            order: self.report.order,
            first: self.report.first.as_ref().map(entry),
            cause: self.report.cause.as_ref().map(entry),
        }
    }
}

/// What kind of JSON value `value` is, for a message that cannot quote it usefully.
fn json_kind(value: &Json) -> String {
    match value {
        Json::Null => "null".to_owned(),
        Json::Bool(b) => b.to_string(),
        Json::Number(n) => n.to_string(),
        Json::String(s) => format!("the string '{}'", excerpt(s)),
        Json::Array(_) => "a list".to_owned(),
        Json::Object(_) => "an object".to_owned(),
    }
}

/// How a message names a record's node: its path, its id, or both.
fn node_name(record: &RawRecord) -> String {
    let path = record.path.as_ref().map(|path| {
        let steps: Vec<String> = path.iter().map(ToString::to_string).collect();
        format!("[{}]", steps.join(","))
    });
    let node = record.node.as_ref().map(|node| match node {
        Json::String(id) => excerpt(id),
        other => other.to_string(),
    });
    match (path, node) {
        (Some(path), Some(node)) => format!("node {node} at {path}"),
        (Some(path), None) => format!("node {path}"),
        (None, Some(node)) => format!("node {node}"),
        (None, None) => "node".to_owned(),
    }
}

#[derive(Serialize)]
struct JsonViolation<'a> {
    /// The record as read, with its line.
    #[serde(flatten)]
    record: &'a RawRecord,
    rule: Rule,
    /// The exact value, from the side the records' values are from.
    exact: Value,
    allowed: Option<Vec<Value>>,
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
