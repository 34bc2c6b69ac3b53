//! Another engine's search, audited node by node: every window it searched a node with and every
//! result it returned (and stored), checked against the exact depth-limited value of that node.
//!
//! The root value says only *that* an engine is wrong. An engine that writes one [`Record`] per
//! node it searches ([`super::record`] reads them as JSON lines, as `nullwindow audit` does) learns
//! *where*:
//! the first node whose result breaks the fail-soft contract, and the record that caused it.
//!
//! # The rules
//!
//! A node searched `depth` plies deep with the window `(alpha, beta)` returned `result`; `v` is the
//! exact depth-`depth` value of the node. The result must satisfy the fail-soft postcondition every
//! search in this crate states:
//!
//! * `result <= alpha` (failed low): `v <= result`, the result is an upper bound ([`Rule::FailLow`]);
//! * `result >= beta` (failed high): `v >= result`, a lower bound ([`Rule::FailHigh`]);
//! * otherwise `v == result` ([`Rule::Inside`]).
//!
//! A record that says the engine *stored* the result in its table as a bound makes a second claim: a
//! stored lower bound must be at most `v`, an upper bound at least `v`, an exact value equal to it
//! ([`Rule::Stored`]). An engine that stores a failed-low result as exact breaks this rule at the node
//! where it stores, before the wrong entry spreads.
//!
//! The rules are read in the record's own terms: its values are from the side
//! [`Options::perspective`] names (MAX's, or the side to move at the node, as a negamax engine
//! writes them), and so are `v`, the rule a violation names and every value it quotes. A MIN
//! node's record read from the side to move that returned less than its alpha failed *low*, though
//! its numbers turned to MAX's side fail high: the audit names the rule the engine's author can
//! check against their own log line. Whether a claim holds does not depend on the side: turning
//! negates the value with the window and the result.
//!
//! An engine that lets table entries of *deeper* searches answer shallower ones need not return `v`:
//! with [`Options::deeper_entries`] the witness criterion of Wesselink et al. decides instead
//! ([`crate::theory::witness`]): the result must satisfy the rules for *some* value of an
//! all-or-none extension of the node's tree, and the violation lists those values.
//!
//! # An empty window
//!
//! The fail-soft contract presumes `alpha < beta`: a node searched with `alpha >= beta` was given
//! no window to answer within, and the mistake, if there is one, is its caller's. The audit reads
//! such a result as the windows with only one of its edges would: a result at or below `alpha` as
//! `(alpha, +inf)` does (an upper bound, or the value), one at or above `beta` as `(-inf, beta)`
//! does (a lower bound, or the value). An empty window alone is no violation: a fail-soft
//! alpha-beta search answers so whatever its window, and Plaat's `AlphaBetaWithMemory`, in its
//! corrected form among the crate's drivers, narrows its window to an exact table entry and
//! searches on with `alpha == beta` on purpose. A result that holds by neither reading is one:
//! [`Rule::EmptyWindow`], whether or not the engine means ever to build such a window, and
//! attributed to the caller, the record of the parent node in the same search
//! ([`Violation::caller`]), where the trace has it; the node's own search, given no window, is
//! not blamed.
//!
//! # Table entries and the driver's answer
//!
//! A record whose result a table entry gave without a search (its [`Record::probe`] is
//! [`Probe::Cutoff`]) is only as right as the entry: a violation there names the earlier record of
//! the same node that stored it ([`Violation::stored_by`]).
//!
//! Every node of a search may be honest and the driver's answer still wrong: an MTD(f) loop that
//! moves the wrong bound stops at a value no node returned as exact. [`Options::root_value`] makes
//! the driver's claim part of the audit: it must be the exact value of the root at
//! [`Options::root_depth`] or, without one, at the greatest depth any record of the root was
//! searched to ([`root_depth`]); with [`Options::deeper_entries`], a value some all-or-none
//! extension gives the root. A wrong claim is [`Rule::RootValue`], in [`Report::root_value`].
//!
//! # The earliest cause
//!
//! A wrong value climbs: a child that returns a wrong bound makes its parent wrong too. Records come
//! either in **completion** order (a node is written when it returns, after its children, as the
//! crate's `trace` writes them) or in **entry** order (a node is written when it is entered, before
//! its children); [`audit`] tells which from the records (or takes [`Options::order`]). The
//! [`Report::first`] violation is the first in the file. In completion order it is already the node
//! to look at first: its descendants were written before it, and none broke a rule. In entry order
//! the root of a wrong search comes first, so [`Report::cause`] is the first violation among the
//! records of that node's own search (the run of its descendants written just after it) that has no
//! violating descendant of its own.
//!
//! # Example
//!
//! ```
//! use nullwindow::oracle::audit::{Bound, Options, Record, Rule, audit};
//! use nullwindow::tree::Tree;
//! use nullwindow::value::INFINITY;
//!
//! let tree: Tree = "((3 17) (2 1))".parse()?;
//! let [left, right] = tree.children(tree.root_id()) else { unreachable!() };
//! let record = |position, path: &[u32], alpha, beta, result, stored| Record {
//!     path: Some(path.to_vec()),
//!     stored,
//!     ..Record::new(position, 1, (alpha, beta), result)
//! };
//! // An alpha-beta search of the second MIN node with the window (3, +inf) may stop at the 2:
//! // its value, 1, is at most 2, so the result holds as an upper bound...
//! let good = [record(*right, &[1], 3, INFINITY, 2, Some(Bound::Upper))];
//! assert!(audit(&tree, &good, &Options::default()).first.is_none());
//! // ...but not stored as the node's exact value.
//! let bad = [record(*left, &[0], -INFINITY, INFINITY, 3, None),
//!            record(*right, &[1], 3, INFINITY, 2, Some(Bound::Exact))];
//! let report = audit(&tree, &bad, &Options::default());
//! let violation = report.first.unwrap();
//! assert_eq!((violation.record, violation.rule, violation.exact), (1, Rule::Stored, 1));
//! // The driver said the root is worth 2; it is worth 3.
//! let claimed = Options { root_value: Some(2), root_depth: Some(2), ..Options::default() };
//! let root = audit(&tree, &good, &claimed).root_value.unwrap();
//! assert_eq!((root.exact, root.rule), (3, Some(Rule::RootValue)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::{HashMap, HashSet};
use std::fmt;

use super::Exact;
pub use super::proof::Claim;
pub use super::record::Record;
use crate::driver::observe::{Perspective, Probe};
use crate::game::{Game, Player};
use crate::registry::Driver;
use crate::theory::witness::Witness;
pub use crate::value::Bound;
use crate::value::{Decimals, Value};

/// The rule a record breaks, named for the record as written: its window and result read from
/// the side its values are from ([`Options::perspective`]). A record of a MIN node whose values are
/// from the side to move breaks [`Rule::FailLow`] when its result is at or below its own alpha,
/// whatever the same numbers turned to MAX's side would be called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "kebab-case"))]
pub enum Rule {
    /// The result failed low (`result <= alpha`), but the value is above it.
    FailLow,
    /// The result failed high (`result >= beta`), but the value is below it.
    FailHigh,
    /// The result lies inside the window, but is not the value.
    Inside,
    /// The result holds for the window, but not as the bound the engine stored it as.
    Stored,
    /// The window is empty (`alpha >= beta`) and the result holds by neither reading of it (see
    /// the [module documentation](self#an-empty-window)): the caller's mistake.
    EmptyWindow,
    /// The driver's root value ([`Options::root_value`]) is not the root's exact value. Only in
    /// [`Report::root_value`], never a record's.
    RootValue,
}

impl Rule {
    /// What the rule says, in words, for a message.
    #[must_use]
    pub const fn describe(self) -> &'static str {
        match self {
            Self::FailLow => "a result at or below alpha must be an upper bound on the value",
            Self::FailHigh => "a result at or above beta must be a lower bound on the value",
            Self::Inside => "a result inside the window must be the value",
            Self::Stored => "the stored bound must hold for the value",
            Self::EmptyWindow => "the caller searched this node with an empty window (alpha >= beta)",
            Self::RootValue => "the driver's root value must be the root's exact value",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::FailLow => "fail-low",
            Self::FailHigh => "fail-high",
            Self::Inside => "inside",
            Self::Stored => "stored",
            Self::EmptyWindow => "empty-window",
            Self::RootValue => "root-value",
        })
    }
}

/// A record that breaks a rule. Its values are from the side the records' are
/// ([`Options::perspective`]), as the record's own.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Violation {
    /// The record's index in the list audited (0-based).
    pub record: usize,
    /// The rule it breaks, named for the record as written.
    pub rule: Rule,
    /// The exact depth-limited value of the node, from the record's side.
    pub exact: Value,
    /// With [`Options::deeper_entries`]: the least and the greatest value (from the record's side)
    /// an all-or-none extension gives the node; no value any extension gives satisfies the rules.
    pub extensions: Option<Extensions>,
    /// For [`Rule::EmptyWindow`]: the record of the caller that built the empty window, which the
    /// violation is attributed to (the parent node's record in the same search: the nearest later
    /// record of the parent's path in completion order, the nearest earlier in entry order, with
    /// only the parent's other descendants between). `None` when the trace does not have it, or
    /// for another rule.
    pub caller: Option<usize>,
    /// For a record whose result a table entry gave ([`Probe::Cutoff`]): the earlier record of
    /// the same node that stored the entry, if the trace has one (the latest that stored the
    /// result returned, or failing that the latest that stored any bound).
    pub stored_by: Option<usize>,
}

/// How a message cites a record: by the line of the file it was read from, as `nullwindow audit`
/// reads a trace, or by its place in the list, as the library's harness is handed records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Citation<'a> {
    /// `FILE:LINE: `, the file named and the line the record was read from ([`Record::line`]).
    Line(&'a str),
    /// `record N: `, its place in the list audited, from 1.
    Number,
}

/// How a message names a node when its record gives neither a path nor a name: by its position,
/// where the position has a name of its own.
pub trait PositionName {
    /// The name, if there is one.
    fn position_name(&self) -> Option<String>;
}

/// A record read from a file, not yet located: it has no position to name.
impl PositionName for () {
    fn position_name(&self) -> Option<String> {
        None
    }
}

/// A node of a tree, by its number.
impl PositionName for crate::tree::NodeId {
    fn position_name(&self) -> Option<String> {
        Some(self.to_string())
    }
}

/// A broken rule in words: the one wording that `nullwindow audit`, `nullwindow fuzz` and the
/// library's harness print. It quotes the record (where it is, its node, depth, window and result,
/// and what the table did), the node's exact value, the rule and what it says, and who is to blame
/// where the record names another: the caller that built an empty window, the record that stored
/// the table entry a result came from. Values are the records' own, from their side.
///
/// ```
/// use nullwindow::oracle::audit::{self, Citation, Explained};
/// use nullwindow::oracle::record::Record;
/// use nullwindow::tree::Tree;
///
/// let tree: Tree = "(3 5)".parse()?;
/// let mut record = Record::new(tree.root_id(), 1, (4, 10), 3);
/// record.path = Some(Vec::new());
/// let records = [record];
/// let report = audit::audit(&tree, &records, &audit::Options::default());
/// let violation = report.first.expect("the root is worth 5, not at most 3");
/// assert_eq!(
///     Explained::new(&violation, &records, Citation::Number).to_string(),
///     "record 1: node [], searched 1 ply deep with the window (4, 10), returned 3, but its value is 5: \
///      fail-low: a result at or below alpha must be an upper bound on the value"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Explained<'a, P> {
    /// The violation.
    pub violation: &'a Violation,
    /// The record that breaks the rule.
    pub record: &'a Record<P>,
    /// The record of the caller, for [`Rule::EmptyWindow`], if the trace has it.
    pub caller: Option<&'a Record<P>>,
    /// The record that stored the table entry the result came from, if the trace has it.
    pub storer: Option<&'a Record<P>>,
    /// How records are cited.
    pub citation: Citation<'a>,
    /// How values are written: as an engine with these digits after the point writes them.
    pub decimals: Decimals,
}

impl<'a, P> Explained<'a, P> {
    /// The violation with the records it names, taken from `records`, the list audited.
    #[must_use]
    pub fn new(violation: &'a Violation, records: &'a [Record<P>], citation: Citation<'a>) -> Self {
        Self {
            violation,
            record: &records[violation.record],
            caller: violation.caller.and_then(|index| records.get(index)),
            storer: violation.stored_by.and_then(|index| records.get(index)),
            citation,
            decimals: Decimals::NONE,
        }
    }

    /// The same, with values written as an engine with `decimals` writes them.
    #[must_use]
    pub const fn in_decimals(self, decimals: Decimals) -> Self {
        Self { decimals, ..self }
    }

    /// A record as a message quotes it: where, the node, the depth, the window, the result, and
    /// what the table did with it. `index` is its place in the list audited.
    fn quote(&self, f: &mut fmt::Formatter<'_>, record: &Record<P>, index: usize) -> fmt::Result
    where
        P: PositionName,
    {
        match self.citation {
            Citation::Line(file) => write!(f, "{file}:{}: ", record.line.unwrap_or(0))?,
            Citation::Number => write!(f, "record {}: ", index + 1)?,
        }
        f.write_str(&node_text(record))?;
        write!(
            f,
            ", searched {} deep with the window ({}, {}), returned {}",
            plies(record.depth),
            self.decimals.show(record.alpha),
            self.decimals.show(record.beta),
            self.decimals.show(record.result)
        )?;
        if record.probe == Some(Probe::Cutoff) {
            f.write_str(" from a table entry")?;
        }
        match record.stored {
            Some(Bound::Lower) => f.write_str(" and stored it as a lower bound")?,
            Some(Bound::Upper) => f.write_str(" and stored it as an upper bound")?,
            Some(Bound::Exact) => f.write_str(" and stored it as exact")?,
            None => {}
        }
        Ok(())
    }
}

impl<P: PositionName> fmt::Display for Explained<'_, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let violation = self.violation;
        self.quote(f, self.record, violation.record)?;
        match violation.extensions {
            Some(range) => write!(
                f,
                ", but its value is {} (the values its all-or-none extensions give lie from {} to {}, and none \
                 allows it)",
                self.decimals.show(violation.exact),
                self.decimals.show(range.lowest),
                self.decimals.show(range.highest)
            )?,
            None => write!(f, ", but its value is {}", self.decimals.show(violation.exact))?,
        }
        let rule = violation.rule;
        write!(f, ": {rule}: {}", rule.describe())?;
        if rule == Rule::EmptyWindow {
            match (violation.caller, self.caller) {
                (Some(index), Some(caller)) => {
                    f.write_str("; the caller is ")?;
                    self.quote(f, caller, index)?;
                }
                _ if self.record.path.as_deref() == Some(&[]) => {
                    f.write_str("; the caller is not in the trace: the root's window is the driver's")?;
                }
                _ => f.write_str("; the caller is not in the trace")?,
            }
        }
        if self.record.probe == Some(Probe::Cutoff) {
            match (violation.stored_by, self.storer) {
                (Some(index), Some(storer)) => {
                    f.write_str("; the table entry it returned was stored by ")?;
                    self.quote(f, storer, index)?;
                }
                _ => f.write_str("; no earlier record of the node stored the table entry it returned")?,
            }
        }
        Ok(())
    }
}

/// How a message names a record's node: `node NAME at PATH`, by its path or its name alone, or
/// failing both by its position's name (`node` when it has none).
#[must_use]
pub fn node_text<P: PositionName>(record: &Record<P>) -> String {
    let path = record.path.as_deref().map(super::record::path_text);
    match (path, &record.node) {
        (Some(path), Some(node)) => format!("node {node} at {path}"),
        (Some(path), None) => format!("node {path}"),
        (None, Some(node)) => format!("node {node}"),
        (None, None) => {
            record.position.position_name().map_or_else(|| "node".to_owned(), |name| format!("node {name}"))
        }
    }
}

/// "1 ply", "2 plies".
pub(super) fn plies(depth: u32) -> String {
    if depth == 1 { "1 ply".to_owned() } else { format!("{depth} plies") }
}

/// A wrong root value in words: the claim, the depth, the exact value (and with deeper entries the
/// extensions' range), the rule and what it says.
impl fmt::Display for RootVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the root value {}: the root, searched {} deep, is worth {}",
            self.claimed,
            plies(self.depth),
            self.exact
        )?;
        if let Some(range) = self.extensions {
            write!(
                f,
                " (the values its all-or-none extensions give lie from {} to {}, and none is {})",
                range.lowest, range.highest, self.claimed
            )?;
        }
        match self.rule {
            Some(rule) => write!(f, ": {rule}: {}", rule.describe()),
            None => f.write_str(": it holds"),
        }
    }
}

/// The values the all-or-none extensions of a node's tree give it lie from `lowest` to `highest`
/// (from the side the records' values are from; not every value between need be one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Extensions {
    /// The least.
    pub lowest: Value,
    /// The greatest.
    pub highest: Value,
}

/// The verdict on the driver's root value ([`Options::root_value`]), from the side the records'
/// values are from at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RootVerdict {
    /// The value claimed.
    pub claimed: Value,
    /// The depth it was judged at.
    pub depth: u32,
    /// The exact value of the root at that depth.
    pub exact: Value,
    /// With [`Options::deeper_entries`]: the least and the greatest value an all-or-none extension
    /// gives the root.
    pub extensions: Option<Extensions>,
    /// [`Rule::RootValue`] when the claim is wrong; `None` when it holds.
    pub rule: Option<Rule>,
}

/// A record the audit could not judge within [`Options::limit`], where it stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Unfinished {
    /// The record's index in the list audited (0-based); the number of records when every record
    /// was judged and the root value ([`Options::root_value`]) was not.
    pub record: usize,
    /// The limit, in nodes, its judgement would have needed more than.
    pub limit: u64,
}

/// The order records were written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "lowercase"))]
pub enum Order {
    /// Each node when it returns: children before their parent.
    Completion,
    /// Each node when it is entered: parents before their children.
    Entry,
}

/// How to audit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Judge by the witness criterion, for engines that use table entries of deeper searches.
    pub deeper_entries: bool,
    /// The order the records were written in; `None` works it out from the records.
    pub order: Option<Order>,
    /// The exact driver that values the nodes ([`Driver::Minimax`], or an exact engine driver for
    /// games too large for it).
    pub reference: Driver,
    /// The most nodes one record's judgement may visit (its exact value, its extensions); the
    /// audit stops at a record that needs more ([`Report::unfinished`]). `None`: no limit.
    pub limit: Option<u64>,
    /// Whose side the records' values are from: MAX's ([`Perspective::Max`]), or the side to move
    /// at each record's node ([`Perspective::Mover`], a negamax engine's). Violations quote their
    /// values from the same side.
    pub perspective: Perspective,
    /// The value the driver returned for the root, from the records' side at the root: checked
    /// with the records ([`Report::root_value`]).
    pub root_value: Option<Value>,
    /// The depth [`Options::root_value`] is judged at; `None`: the greatest depth a record of the
    /// root was searched to ([`root_depth`]).
    pub root_depth: Option<u32>,
}

impl Default for Options {
    /// Exact values by minimax, the order read from the records, values from MAX's side, no claim
    /// about the root.
    fn default() -> Self {
        Self {
            deeper_entries: false,
            order: None,
            reference: Driver::Minimax,
            limit: None,
            perspective: Perspective::Max,
            root_value: None,
            root_depth: None,
        }
    }
}

/// The verdict on a list of records.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Report {
    /// How many records were audited.
    pub records: usize,
    /// How many break a rule.
    pub violations: usize,
    /// The first record (in list order) that breaks a rule.
    pub first: Option<Violation>,
    /// The earliest cause of [`Report::first`]: the first violating record within that node's own
    /// search that has no violating descendant (the first violation itself when none lies below,
    /// which in completion order is always the case: children are written first).
    pub cause: Option<Violation>,
    /// The order the records were read in.
    pub order: Order,
    /// The record where the audit stopped, its judgement beyond [`Options::limit`]; the counts and
    /// violations are those of the records before it.
    pub unfinished: Option<Unfinished>,
    /// The verdict on [`Options::root_value`]; `None` without a claim, when the audit stopped
    /// first, or when there is no depth to judge it at (no [`Options::root_depth`] and no record
    /// of the root).
    pub root_value: Option<RootVerdict>,
    /// The first record whose node its caller could not reach by any move
    /// ([`first_not_a_child`]).
    pub not_a_child: Option<NotAChild>,
}

impl Report {
    /// Whether everything judged holds: no record breaks a rule and the root value, if claimed and
    /// judged, is right.
    #[must_use]
    pub const fn holds(&self) -> bool {
        let root_holds = match &self.root_value {
            Some(verdict) => verdict.rule.is_none(),
            None => true,
        };
        self.first.is_none() && root_holds && self.not_a_child.is_none()
    }
}

/// The most positions [`audit`] visits to decide whether one record's node lies below another's when
/// the records carry no paths; beyond it the node counts as unrelated.
const REACH_BUDGET: usize = 100_000;

/// Audits `records` of a search of `game` (their positions are `game`'s positions, values from the
/// side [`Options::perspective`] names) against the exact values. See the
/// [module documentation](self).
#[must_use]
pub fn audit<G: Game>(game: &G, records: &[Record<G::Position>], options: &Options) -> Report {
    audit_with_progress(game, records, options, &mut |_| {})
}

/// As [`audit`], telling `progress` how many records it has judged after each one. Each node's
/// exact value is found once per depth across all the records (the reference's memo or table
/// persists), and the witness criterion's answers likewise.
pub fn audit_with_progress<G: Game>(
    game: &G,
    records: &[Record<G::Position>],
    options: &Options,
    progress: &mut dyn FnMut(usize),
) -> Report {
    let mut exact = Exact::new(game, options.reference);
    let mut truth = Reference { exact: &mut exact, limit: options.limit, last: None };
    audit_by(game, records, options, &mut truth, progress)
}

/// As [`audit_with_progress`], learning what it needs of the exact values from `truth`.
pub(crate) fn audit_by<G: Game>(
    game: &G,
    records: &[Record<G::Position>],
    options: &Options,
    truth: &mut dyn Truth<G>,
    progress: &mut dyn FnMut(usize),
) -> Report {
    let budget = options.limit.unwrap_or(u64::MAX);
    let mut violations: Vec<Option<Violation>> = Vec::with_capacity(records.len());
    let mut unfinished = None;
    for (index, record) in records.iter().enumerate() {
        // A fresh witness per record: its budget is the record's own.
        let mut witness = options.deeper_entries.then(|| Witness::new(game, budget));
        match judge(game, truth, witness.as_mut(), index, record, options) {
            Some(verdict) => violations.push(verdict),
            None => {
                unfinished = Some(Unfinished { record: index, limit: budget });
                break;
            }
        }
        progress(index + 1);
    }
    let judged = &records[..violations.len()];
    let mut root_value = None;
    if unfinished.is_none() {
        match judge_root(game, truth, judged, options) {
            Some(verdict) => root_value = verdict,
            None => unfinished = Some(Unfinished { record: judged.len(), limit: budget }),
        }
    }
    let order = options.order.unwrap_or_else(|| guess_order(game, judged));
    let not_a_child = first_not_a_child(game, judged);
    let count = violations.iter().flatten().count();
    let first = violations.iter().flatten().next().cloned();
    let cause = first.as_ref().map(|first| earliest_cause(game, judged, &violations, first.record, order));
    // Only the violations reported are traced back to their callers and table entries.
    let traced = |violation: Violation| Violation {
        caller: (violation.rule == Rule::EmptyWindow)
            .then(|| caller(game, judged, violation.record, order))
            .flatten(),
        stored_by: stored_by(game, judged, violation.record),
        ..violation
    };
    Report {
        records: judged.len(),
        violations: count,
        first: first.map(traced),
        cause: cause.map(traced),
        order,
        unfinished,
        root_value,
        not_a_child,
    }
}

/// The greatest depth a record of the root of `game` was searched to: the depth a driver's root
/// value is judged at when [`Options::root_depth`] gives none. A record is of the root when its
/// path is empty or, without a path, when its position is the root.
#[must_use]
pub fn root_depth<G: Game>(game: &G, records: &[Record<G::Position>]) -> Option<u32> {
    let root = game.key(&game.root());
    records
        .iter()
        .filter(|record| match &record.path {
            Some(path) => path.is_empty(),
            None => game.key(&record.position) == root,
        })
        .map(|record| record.depth)
        .max()
}

/// `value`, at a node where `player` moves, turned between MAX's side and `perspective`'s (either
/// way: the turn is its own inverse).
const fn turned(perspective: Perspective, player: Player, value: Value) -> Value {
    perspective.turn(player, (value, value, value)).2
}

/// The values from `low` to `high`, from the side to move at a node where `player` moves, from
/// `perspective`'s side instead.
const fn extensions(perspective: Perspective, player: Player, (low, high): (Value, Value)) -> Extensions {
    // Through MAX's side; a range turns as a window does, its ends swapped when negated.
    let (low, high, _) = Perspective::Mover.turn(player, (low, high, 0));
    let (lowest, highest, _) = perspective.turn(player, (low, high, 0));
    Extensions { lowest, highest }
}

/// The claim the window `(alpha, beta)` gives `result`, `alpha < beta`.
const fn of_window(result: Value, alpha: Value, beta: Value) -> Claim {
    if result <= alpha {
        Claim::AtMost(result)
    } else if result >= beta {
        Claim::AtLeast(result)
    } else {
        Claim::Exactly(result)
    }
}

/// The claims `record`'s window gives its result about the node's value (from the record's side),
/// any one of which may hold: one for a non-empty window; for an empty one, those of the windows
/// with only one of its edges, `(alpha, +inf)` and `(-inf, beta)`.
const fn readings<P>(record: &Record<P>) -> [Option<Claim>; 2] {
    let (result, alpha, beta) = (record.result, record.alpha, record.beta);
    if alpha < beta {
        return [Some(of_window(result, alpha, beta)), None];
    }
    let above = if result <= alpha { Claim::AtMost(result) } else { Claim::Exactly(result) };
    let below = if result >= beta { Claim::AtLeast(result) } else { Claim::Exactly(result) };
    [Some(above), Some(below)]
}

/// The claim a window's reading and the bound the result was stored as make together (one value
/// must satisfy both).
const fn with_stored(claim: Claim, stored: Option<Bound>) -> Claim {
    match (claim, stored) {
        (window, None)
        | (window @ Claim::AtMost(_), Some(Bound::Upper))
        | (window @ Claim::AtLeast(_), Some(Bound::Lower)) => window,
        (Claim::AtMost(result) | Claim::AtLeast(result) | Claim::Exactly(result), _) => {
            Claim::Exactly(result)
        }
    }
}

/// The claim a stored bound makes about the node's value, from the record's side.
const fn stored_claim(bound: Bound, result: Value) -> Claim {
    match bound {
        Bound::Lower => Claim::AtLeast(result),
        Bound::Upper => Claim::AtMost(result),
        Bound::Exact => Claim::Exactly(result),
    }
}

/// What the audit learns of a node's exact value to judge a record: whether a claim about it holds,
/// and the value itself, once the record breaks a rule, for the message. The audit's own truth is
/// the reference's exact values ([`audit`]); the harness proves claims on an engine's own game
/// instead, each with a null-window test or two ([`crate::oracle::proof`]). Values and claims are
/// from MAX's side.
pub(crate) trait Truth<G: Game> {
    /// Whether `claim` holds for the depth-`depth` value of `position`; `None` when deciding it
    /// needs more nodes than the limit.
    fn holds(&mut self, position: &G::Position, depth: u32, claim: Claim) -> Option<bool>;

    /// The depth-`depth` value of `position`, likely near `near`; `None` beyond the limit.
    fn value(&mut self, position: &G::Position, depth: u32, near: Value) -> Option<Value>;
}

/// The reference's exact values within the audit's limit, each found once.
struct Reference<'a, 'g, G: Game> {
    exact: &'a mut Exact<'g, G>,
    limit: Option<u64>,
    /// The last value found: a record's claims all ask about one node.
    last: Option<(u64, u32, Value)>,
}

impl<G: Game> Truth<G> for Reference<'_, '_, G> {
    fn holds(&mut self, position: &G::Position, depth: u32, claim: Claim) -> Option<bool> {
        self.value(position, depth, 0).map(|value| claim.holds(value))
    }

    fn value(&mut self, position: &G::Position, depth: u32, _near: Value) -> Option<Value> {
        let key = self.exact.game.key(position);
        if let Some((known, at, value)) = self.last
            && (known, at) == (key, depth)
        {
            return Some(value);
        }
        let value = self.exact.value_within(position, depth, self.limit)?;
        self.last = Some((key, depth, value));
        Some(value)
    }
}

/// The verdict on `record`: the rule it breaks, if any; `None` when its judgement needs more than
/// the limit of nodes.
fn judge<G: Game>(
    game: &G,
    truth: &mut dyn Truth<G>,
    witness: Option<&mut Witness<'_, G>>,
    index: usize,
    record: &Record<G::Position>,
    options: &Options,
) -> Option<Option<Violation>> {
    let player = game.to_move(&record.position);
    // A claim of the record's, from its side, turned to MAX's.
    let for_max = |claim: Claim| match (options.perspective, player) {
        (Perspective::Mover, Player::Min) => claim.negated(),
        _ => claim,
    };
    let violation = |truth: &mut dyn Truth<G>, rule, extensions| {
        let near = turned(options.perspective, player, record.result);
        let value = turned(options.perspective, player, truth.value(&record.position, record.depth, near)?);
        Some(Some(Violation { record: index, rule, exact: value, extensions, caller: None, stored_by: None }))
    };
    let Some(witness) = witness else {
        return match broken_rule(record, |claim| truth.holds(&record.position, record.depth, for_max(claim)))?
        {
            Some(rule) => violation(truth, rule, None),
            None => Some(None),
        };
    };
    let range = extensions(options.perspective, player, witness.range(&record.position, record.depth).ok()?);
    for claim in readings(record).into_iter().flatten() {
        let witnessed = match with_stored(claim, record.stored) {
            Claim::AtMost(result) => range.lowest <= result,
            Claim::AtLeast(result) => range.highest >= result,
            Claim::Exactly(result) => {
                // The witness takes values from the side to move, through MAX's.
                let mover = turned(Perspective::Mover, player, turned(options.perspective, player, result));
                witness.holds(&record.position, record.depth, mover).ok()?
            }
        };
        if witnessed {
            return Some(None);
        }
    }
    // Name the rule the depth-limited value breaks (it is one an extension gives).
    let value = turned(options.perspective, player, truth.value(&record.position, record.depth, 0)?);
    let rule = broken_rule(record, |claim| Some(claim.holds(value)))?.unwrap_or(Rule::Stored);
    violation(truth, rule, Some(range))
}

/// The rule `record` breaks, as `holds` decides its claims (from the record's side), if it breaks
/// one; `None` when `holds` cannot decide. Holding does not depend on the side; the name does, and
/// is the record's.
fn broken_rule<P>(record: &Record<P>, mut holds: impl FnMut(Claim) -> Option<bool>) -> Option<Option<Rule>> {
    let [first, second] = readings(record);
    let mut either = |claim: Option<Claim>| claim.map_or(Some(false), &mut holds);
    if !either(first)? && !either(second)? {
        return Some(Some(match (first, second.is_some()) {
            (_, true) => Rule::EmptyWindow,
            (Some(Claim::AtMost(_)), false) => Rule::FailLow,
            (Some(Claim::AtLeast(_)), false) => Rule::FailHigh,
            _ => Rule::Inside,
        }));
    }
    match record.stored {
        Some(bound) if !holds(stored_claim(bound, record.result))? => Some(Some(Rule::Stored)),
        _ => Some(None),
    }
}

/// The verdict on the driver's root value, `Some(None)` without a claim or a depth to judge it at;
/// `None` when judging it needs more than the limit of nodes.
fn judge_root<G: Game>(
    game: &G,
    truth: &mut dyn Truth<G>,
    records: &[Record<G::Position>],
    options: &Options,
) -> Option<Option<RootVerdict>> {
    let Some(claimed) = options.root_value else { return Some(None) };
    let Some(depth) = options.root_depth.or_else(|| root_depth(game, records)) else { return Some(None) };
    let root = game.root();
    let player = game.to_move(&root);
    let near = turned(options.perspective, player, claimed);
    let value = turned(options.perspective, player, truth.value(&root, depth, near)?);
    let (holds, extensions) = if options.deeper_entries {
        let mut witness = Witness::new(game, options.limit.unwrap_or(u64::MAX));
        let range = extensions(options.perspective, player, witness.range(&root, depth).ok()?);
        let mover = turned(Perspective::Mover, player, turned(options.perspective, player, claimed));
        (witness.holds(&root, depth, mover).ok()?, Some(range))
    } else {
        (claimed == value, None)
    };
    let rule = (!holds).then_some(Rule::RootValue);
    Some(Some(RootVerdict { claimed, depth, exact: value, extensions, rule }))
}

/// The record of the node that searched `records[index]`'s node, in the same search: see
/// [`Violation::caller`]. Without paths, the nearest record searched deeper in the direction its
/// parent would be, if that one is a node one ply above.
fn caller<G: Game>(game: &G, records: &[Record<G::Position>], index: usize, order: Order) -> Option<usize> {
    let parent = parent_record(records, index, order)?;
    let (record, above) = (&records[index], &records[parent]);
    if record.path.is_some() {
        return Some(parent);
    }
    (above.depth - 1 == record.depth && lies_below(game, record, above)).then_some(parent)
}

/// A record one ply below the record of its caller whose node is no position after any of the
/// caller's moves: evidence of a bug in making or unmaking moves (a board left corrupt), or of an
/// illegal move searched ([`first_not_a_child`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct NotAChild {
    /// The record's index in the list (0-based).
    pub record: usize,
    /// Its caller's record: the nearest in the direction the records' order puts a parent, a ply
    /// deeper (see [`Violation::caller`]).
    pub caller: usize,
    /// The names of the caller's moves, in the game's order ([`Game::move_name`]).
    pub moves: Vec<String>,
}

impl NotAChild {
    /// The finding in words, the records (`records[self.record]` and `records[self.caller]`) cited
    /// as `citation` says: `record 2 reaches node v, searched 0 plies deep, which is not a position
    /// after any move of node u (record 3, moves e, f)`.
    #[must_use]
    pub fn describe<P: PositionName>(
        &self,
        record: &Record<P>,
        caller: &Record<P>,
        citation: Citation<'_>,
    ) -> String {
        let moves = if self.moves.is_empty() {
            "it has no moves".to_owned()
        } else {
            format!("moves {}", self.moves.join(", "))
        };
        let (cited, caller_cited) = match citation {
            Citation::Number => {
                (format!("record {}", self.record + 1), format!("record {}", self.caller + 1))
            }
            Citation::Line(file) => (
                format!("{file}:{}: the record", record.line.unwrap_or(0)),
                format!("line {}", caller.line.unwrap_or(0)),
            ),
        };
        format!(
            "{cited} reaches {}, searched {} deep, which is not a position after any move of {} \
             ({caller_cited}, {moves})",
            node_text(record),
            plies(record.depth),
            node_text(caller),
        )
    }
}

/// The first record whose node its caller could not have reached: a record one ply below its
/// caller's record (the nearest record a ply deeper in the direction the order puts a parent: a
/// later one in completion order, an earlier one in entry order; by path where the records give
/// paths) whose position is not the position after any legal move of the caller's, and is not the
/// caller's own (as the root of a next iteration is). A record at another depth than its caller's
/// less one (an extension, a reduction, a null move, a quiescence search) is not judged; nor is a
/// record without a path that some record a little further on, up to three plies deeper, has among
/// its moves: a selective search's reduced child, whose nearest deeper record is a sibling's.
#[must_use]
pub fn first_not_a_child<G: Game>(game: &G, records: &[Record<G::Position>]) -> Option<NotAChild> {
    let order = guess_order(game, records);
    let mut children_of: HashMap<u64, Vec<u64>> = HashMap::new();
    (0..records.len()).find_map(|index| {
        let record = &records[index];
        let caller = parent_record(records, index, order)?;
        let above = &records[caller];
        let key = game.key(&record.position);
        if above.depth != record.depth + 1 || game.key(&above.position) == key {
            return None;
        }
        if child_keys(game, &above.position, &mut children_of).contains(&key) {
            return None;
        }
        if record.path.is_none() && called_further_on(game, records, index, order, &mut children_of).is_some()
        {
            return None;
        }
        let moves = game.legal_moves(&above.position);
        let moves = moves.into_iter().map(|mv| game.move_name(&above.position, mv)).collect();
        Some(NotAChild { record: index, caller, moves })
    })
}

/// The keys of the positions after each legal move of `position`, found once a position.
pub(super) fn child_keys<'c, G: Game>(
    game: &G,
    position: &G::Position,
    children_of: &'c mut HashMap<u64, Vec<u64>>,
) -> &'c [u64] {
    children_of.entry(game.key(position)).or_insert_with(|| {
        game.legal_moves(position).into_iter().map(|mv| game.key(&game.play(position, mv))).collect()
    })
}

/// The nearest record in the direction `order` puts a parent, searched deeper than
/// `records[index]` but at most three plies deeper than it, that has its position among its moves:
/// its caller where depths alone do not tell (a reduced child's nearest deeper record may be a
/// sibling's).
pub(super) fn called_further_on<G: Game>(
    game: &G,
    records: &[Record<G::Position>],
    index: usize,
    order: Order,
    children_of: &mut HashMap<u64, Vec<u64>>,
) -> Option<usize> {
    let record = &records[index];
    let key = game.key(&record.position);
    let onward: Box<dyn Iterator<Item = usize>> = match order {
        Order::Completion => Box::new(index + 1..records.len()),
        Order::Entry => Box::new((0..index).rev()),
    };
    for other in onward {
        let above = &records[other];
        if above.depth > record.depth.saturating_add(3) {
            return None;
        }
        if above.depth > record.depth && child_keys(game, &above.position, children_of).contains(&key) {
            return Some(other);
        }
    }
    None
}

/// The record of the node that searched `records[index]`'s, without asking the game whether one
/// lies below the other: by path, the nearest record of the parent's path in the direction of
/// `order`, with only the parent's other descendants between; without paths, the nearest record
/// searched deeper in that direction. [`caller`] then asks the game; [`first_not_a_child`] asks
/// whether a move leads there.
pub(super) fn parent_record<P>(records: &[Record<P>], index: usize, order: Order) -> Option<usize> {
    let record = &records[index];
    let mut onward: Box<dyn Iterator<Item = usize>> = match order {
        Order::Completion => Box::new(index + 1..records.len()),
        Order::Entry => Box::new((0..index).rev()),
    };
    let Some(path) = &record.path else {
        return onward.find(|&other| records[other].depth > record.depth);
    };
    let (_, parent) = path.split_last()?;
    for other in onward {
        match records[other].path.as_deref() {
            Some(at) if at == parent => return Some(other),
            Some(at) if at.len() > parent.len() && at.starts_with(parent) => {}
            _ => return None,
        }
    }
    None
}

/// The earlier record of `records[index]`'s node that stored the table entry its result came
/// from: see [`Violation::stored_by`].
fn stored_by<G: Game>(game: &G, records: &[Record<G::Position>], index: usize) -> Option<usize> {
    let record = &records[index];
    if record.probe != Some(Probe::Cutoff) {
        return None;
    }
    let key = game.key(&record.position);
    let mut storing = (0..index)
        .rev()
        .filter(|&other| records[other].stored.is_some() && game.key(&records[other].position) == key);
    let latest = storing.clone().next();
    storing.find(|&other| records[other].result == record.result).or(latest)
}

/// Whether `lower`'s node lies strictly below `upper`'s in the search: its path extends the other's,
/// or (without paths) it is reachable from it in exactly the plies between their depths.
fn lies_below<G: Game>(game: &G, lower: &Record<G::Position>, upper: &Record<G::Position>) -> bool {
    if lower.depth >= upper.depth {
        return false;
    }
    if let (Some(below), Some(above)) = (&lower.path, &upper.path) {
        return below.len() > above.len() && below.starts_with(above);
    }
    let target = game.key(&lower.position);
    let mut level = vec![upper.position.clone()];
    let mut visited = 0;
    for _ in 0..upper.depth - lower.depth {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for position in &level {
            for mv in game.moves(position) {
                let child = game.play(position, mv);
                visited += 1;
                if visited > REACH_BUDGET {
                    return false;
                }
                if seen.insert(game.key(&child)) {
                    next.push(child);
                }
            }
        }
        level = next;
    }
    level.iter().any(|position| game.key(position) == target)
}

/// Completion order when more neighbouring records run child-then-parent than parent-then-child.
pub(super) fn guess_order<G: Game>(game: &G, records: &[Record<G::Position>]) -> Order {
    let (mut completion, mut entry) = (0usize, 0usize);
    for pair in records.windows(2) {
        if lies_below(game, &pair[0], &pair[1]) {
            completion += 1;
        } else if lies_below(game, &pair[1], &pair[0]) {
            entry += 1;
        }
    }
    if entry > completion { Order::Entry } else { Order::Completion }
}

/// The violation to look at first for the violating record `first`: see [`Report::cause`].
fn earliest_cause<G: Game>(
    game: &G,
    records: &[Record<G::Position>],
    violations: &[Option<Violation>],
    first: usize,
    order: Order,
) -> Violation {
    let violation = |index: usize| violations[index].clone().expect("only violating records are candidates");
    // In completion order a node's own search is written before it, and `first` is the first
    // violation in the file: nothing below it breaks a rule.
    if order == Order::Completion {
        return violation(first);
    }
    // In entry order it is written after it: the run of records below `first`. The cause is the
    // first violating record there whose own run holds no violation.
    let run_below = |top: usize| {
        (top + 1..records.len()).take_while(move |&index| lies_below(game, &records[index], &records[top]))
    };
    let root_cause = run_below(first)
        .filter(|&index| violations[index].is_some())
        .find(|&candidate| run_below(candidate).all(|index| violations[index].is_none()));
    violation(root_cause.unwrap_or(first))
}
