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

use std::collections::{BTreeSet, HashSet};
use std::fmt;

use super::Exact;
pub use super::record::Record;
use crate::game::Game;
use crate::registry::Driver;
use crate::theory::witness;
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
    /// With [`Options::deeper_entries`]: every value (from MAX's side) an all-or-none extension
    /// gives the node, of which none satisfies the rules.
    pub allowed: Option<Vec<Value>>,
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
}

impl Default for Options {
    /// Exact values by minimax, the order read from the records.
    fn default() -> Self {
        Self { deeper_entries: false, order: None, reference: Driver::Minimax }
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
}

/// The most positions [`audit`] visits to decide whether one record's node lies below another's when
/// the records carry no paths; beyond it the node counts as unrelated.
const REACH_BUDGET: usize = 100_000;

/// Audits `records` of a search of `game` (their positions are `game`'s positions, values from MAX's
/// side) against the exact values. See the [module documentation](self).
#[must_use]
pub fn audit<G: Game>(game: &G, records: &[Record<G::Position>], options: &Options) -> Report {
    let mut exact = Exact::new(game, options.reference);
    let violations: Vec<Option<Violation>> = records
        .iter()
        .enumerate()
        .map(|(index, record)| judge(game, &mut exact, index, record, options))
        .collect();
    let order = options.order.unwrap_or_else(|| guess_order(game, records));
    let count = violations.iter().flatten().count();
    let first = violations.iter().flatten().next().cloned();
    let cause = first.as_ref().map(|first| earliest_cause(game, records, &violations, first.record, order));
    Report { records: records.len(), violations: count, first, cause, order }
}

/// The rule `record` breaks, if any.
fn judge<G: Game>(
    game: &G,
    exact: &mut Exact<'_, G>,
    index: usize,
    record: &Record<G::Position>,
    options: &Options,
) -> Option<Violation> {
    let value = exact.value(&record.position, record.depth);
    let violation = |rule, allowed| Some(Violation { record: index, rule, exact: value, allowed });
    if !options.deeper_entries {
        return broken_rule(record, value).and_then(|rule| violation(rule, None));
    }
    let mover = game.to_move(&record.position);
    let allowed: BTreeSet<Value> = witness::extension_values(game, &record.position, record.depth)
        .into_iter()
        .map(|for_mover| mover.perspective(for_mover))
        .collect();
    if allowed.iter().any(|&candidate| broken_rule(record, candidate).is_none()) {
        return None;
    }
    // Name the rule the depth-limited value breaks (it is one of the allowed values).
    let rule = broken_rule(record, value).unwrap_or(Rule::Stored);
    violation(rule, Some(allowed.into_iter().collect()))
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
