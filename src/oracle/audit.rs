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
//! exact depth-`depth` value of the node (all from MAX's side). The result must satisfy the fail-soft
//! postcondition every search in this crate states:
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
//! An engine that lets table entries of *deeper* searches answer shallower ones need not return `v`:
//! with [`Options::deeper_entries`] the witness criterion of Wesselink et al. decides instead
//! ([`crate::theory::witness`]): the result must satisfy the rules for *some* value of an
//! all-or-none extension of the node's tree, and the violation lists those values.
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
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashSet;
use std::fmt;

use super::Exact;
pub use super::record::Record;
use crate::game::{Game, Player};
use crate::registry::Driver;
use crate::theory::witness::Witness;
pub use crate::value::Bound;
use crate::value::Value;

/// The rule a record breaks.
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
        })
    }
}

/// A record that breaks a rule.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Violation {
    /// The record's index in the list audited (0-based).
    pub record: usize,
    /// The rule it breaks.
    pub rule: Rule,
    /// The exact depth-limited value of the node, from MAX's side.
    pub exact: Value,
    /// With [`Options::deeper_entries`]: the least and the greatest value (from MAX's side) an
    /// all-or-none extension gives the node; no value any extension gives satisfies the rules.
    pub extensions: Option<Extensions>,
}

/// The values the all-or-none extensions of a node's tree give it lie from `lowest` to `highest`
/// (from MAX's side; not every value between need be one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Extensions {
    /// The least.
    pub lowest: Value,
    /// The greatest.
    pub highest: Value,
}

/// A record the audit could not judge within [`Options::limit`], where it stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Unfinished {
    /// The record's index in the list audited (0-based).
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
}

impl Default for Options {
    /// Exact values by minimax, the order read from the records.
    fn default() -> Self {
        Self { deeper_entries: false, order: None, reference: Driver::Minimax, limit: None }
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
}

/// The most positions [`audit`] visits to decide whether one record's node lies below another's when
/// the records carry no paths; beyond it the node counts as unrelated.
const REACH_BUDGET: usize = 100_000;

/// Audits `records` of a search of `game` (their positions are `game`'s positions, values from MAX's
/// side) against the exact values. See the [module documentation](self).
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
    let budget = options.limit.unwrap_or(u64::MAX);
    let mut violations: Vec<Option<Violation>> = Vec::with_capacity(records.len());
    let mut unfinished = None;
    for (index, record) in records.iter().enumerate() {
        // A fresh witness per record: its budget is the record's own.
        let mut witness = options.deeper_entries.then(|| Witness::new(game, budget));
        match judge(game, &mut exact, witness.as_mut(), index, record, options.limit) {
            Some(verdict) => violations.push(verdict),
            None => {
                unfinished = Some(Unfinished { record: index, limit: budget });
                break;
            }
        }
        progress(index + 1);
    }
    let judged = &records[..violations.len()];
    let order = options.order.unwrap_or_else(|| guess_order(game, judged));
    let count = violations.iter().flatten().count();
    let first = violations.iter().flatten().next().cloned();
    let cause = first.as_ref().map(|first| earliest_cause(game, judged, &violations, first.record, order));
    Report { records: judged.len(), violations: count, first, cause, order, unfinished }
}

/// What a record's result (with its stored bound) claims about its node's value `x`, from MAX's
/// side: that `x` is at most it, at least it, or it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Claim {
    AtMost(Value),
    AtLeast(Value),
    Exactly(Value),
}

impl Claim {
    /// The claim `record` makes: its window's rule (in [`broken_rule`]'s order) and its stored
    /// bound's, together.
    const fn of<P>(record: &Record<P>) -> Self {
        let result = record.result;
        let window = if result <= record.alpha {
            Self::AtMost(result)
        } else if result >= record.beta {
            Self::AtLeast(result)
        } else {
            Self::Exactly(result)
        };
        match (window, record.stored) {
            (window, None) => window,
            (Self::AtMost(_), Some(Bound::Upper)) => window,
            (Self::AtLeast(_), Some(Bound::Lower)) => window,
            _ => Self::Exactly(result),
        }
    }
}

/// The verdict on `record`: the rule it breaks, if any; `None` when its judgement needs more than
/// `limit` nodes.
fn judge<G: Game>(
    game: &G,
    exact: &mut Exact<'_, G>,
    witness: Option<&mut Witness<'_, G>>,
    index: usize,
    record: &Record<G::Position>,
    limit: Option<u64>,
) -> Option<Option<Violation>> {
    let value = exact.value_within(&record.position, record.depth, limit)?;
    let violation = |rule, extensions| Some(Violation { record: index, rule, exact: value, extensions });
    let Some(witness) = witness else {
        return Some(broken_rule(record, value).and_then(|rule| violation(rule, None)));
    };
    // The values an extension gives the node, from the side to move there, read from MAX's.
    let mover = game.to_move(&record.position);
    let (low, high) = witness.range(&record.position, record.depth).ok()?;
    let (lowest, highest) = match mover {
        Player::Max => (low, high),
        Player::Min => (-high, -low),
    };
    let witnessed = match Claim::of(record) {
        Claim::AtMost(result) => lowest <= result,
        Claim::AtLeast(result) => highest >= result,
        Claim::Exactly(result) => {
            witness.holds(&record.position, record.depth, mover.perspective(result)).ok()?
        }
    };
    if witnessed {
        return Some(None);
    }
    // Name the rule the depth-limited value breaks (it is one an extension gives).
    let rule = broken_rule(record, value).unwrap_or(Rule::Stored);
    Some(violation(rule, Some(Extensions { lowest, highest })))
}

/// The rule `record` breaks if the node's value is `value`. A window with `alpha >= beta` is read
/// by the same rules in the same order: Plaat's `AlphaBetaWithMemory` narrows the window to an
/// exact table entry and searches on with `alpha == beta`, and every result then still says
/// something true or false (at most `alpha`, or at least `beta`).
const fn broken_rule<P>(record: &Record<P>, value: Value) -> Option<Rule> {
    let result = record.result;
    let window_holds = if result <= record.alpha {
        value <= result
    } else if result >= record.beta {
        value >= result
    } else {
        value == result
    };
    if !window_holds {
        return Some(if result <= record.alpha {
            Rule::FailLow
        } else if result >= record.beta {
            Rule::FailHigh
        } else {
            Rule::Inside
        });
    }
    match record.stored {
        Some(bound) if !bound.holds(result, value) => Some(Rule::Stored),
        _ => None,
    }
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
fn guess_order<G: Game>(game: &G, records: &[Record<G::Position>]) -> Order {
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
