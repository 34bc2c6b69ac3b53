//! A selective engine's search held to its own rules: what every alpha-beta search keeps, whatever
//! it prunes, checked on its records without any exact value.
//!
//! Late move reductions, null-move pruning and futility pruning make an engine's value differ from
//! the exact depth-limited value by design, so [`super::audit`], which judges each record by that
//! value, cannot hold such an engine to it. Some rules hold all the same, because they follow from
//! how an alpha-beta search combines what it did search, not from what it left out. Read each
//! record's values from the side to move at its node (the negamax view), its window
//! `(alpha, beta)` and its result `r`:
//!
//! * A node's result follows from the results of the children it searched (the last search of
//!   each), with `best` the greatest of their values turned to the node's side, in two halves that
//!   Knuth and Moore's fail-soft and fail-hard alpha-beta both keep: **[`SelfRule::BelowChild`]**,
//!   `r` is at least `best` (or at least `beta`, where a fail-hard search clamps it there);
//!   **[`SelfRule::Unbacked`]**, a result above `alpha` is at most `best`: a fail-high needs a
//!   child that reached beta, a value inside the window a child that gave it. A node that searched
//!   no child (the horizon, a null-move or futility cut-off) is not judged by them.
//! * **[`SelfRule::Window`]**: a child's window, turned to its parent's side, lies within the
//!   parent's: alpha-beta only ever narrows the window it passes down (a null window
//!   `(alpha, alpha + 1)` of principal variation search lies within `(alpha, beta)`). One exception
//!   is Reinefeld's NegaScout as published, which re-searches a child whose null-window result `t`
//!   beat the best so far with `(t, beta)`, even where `t` lies below alpha.
//! * **[`SelfRule::StoredKind`]**: a stored bound is the one the node's own window shows: a result
//!   at or below alpha is an upper bound, one at or above beta a lower bound, one inside an exact
//!   value (a weaker kind is no fault: an exact value is also a bound).
//! * **[`SelfRule::Cutoff`]**: a result a table entry gave without a search respects the last
//!   entry this search stored for that position at that depth, or at some deeper one (for a table
//!   that lets deeper entries answer): an exact entry of `v` gives `v` (or `v` clamped into the
//!   window), a lower bound `v` cuts off only when `v >= beta` and gives a value from `beta` to
//!   `v`, an upper bound mirrors it. An entry from an earlier search is not in the records, and a
//!   cut-off from one is not judged.
//! * **[`SelfRule::Research`]**: a node searched again at the same depth gives a result consistent
//!   with the first: the bounds the two results are (fail-soft: a fail-low result an upper bound, a
//!   fail-high one a lower bound) must leave some value possible. Pruning breaks this on purpose (a
//!   null-move cut-off in a null window that a wider window does not repeat), so the rule is judged
//!   only where both searches were *full-width* below, as their records show: every child searched
//!   one ply shallower, every move of a node that did not fail high searched, every node without
//!   children a finished game or the horizon, every table entry that cut a node off or narrowed its
//!   window one of the same depth stored by a full-width search. Two such searches are alpha-beta
//!   searches of the same depth-limited value, and must agree.
//!
//! Who searched whom is read from the records' paths. Without paths, with a game, a record's caller
//! is the nearest record searched up to three plies deeper (in the direction the order puts a
//! parent) that has the record's position among its moves: a reduced child's nearest deeper record
//! may be a sibling's. Only a record of a position after one of its caller's moves counts as a
//! child (a record of a null-move search, which no move reaches, is not one). [`check`] judges the
//! records of one search of a game; [`check_records`] records with no game, each node known by its
//! name or path alone. With no game, [`SelfRule::Research`] is not judged (it needs each node's
//! moves to know a search was full-width), nor [`SelfRule::Cutoff`] at a node known by its path
//! alone (an entry may come from the same position reached by another path), nor the rules that
//! compare a record with its caller at a record without a path.
//!
//! # Example
//!
//! ```
//! use nullwindow::driver::Perspective;
//! use nullwindow::oracle::consistency::{SelfRule, check_records};
//! use nullwindow::oracle::record::Record;
//! use nullwindow::value::Bound;
//!
//! // A negamax search of the root to depth 2: its first child returned 3 from its own side, -3
//! // from the root's; the second, searched with (-100, 3), returned 5, a fail-high, which it
//! // stored as exact: a lower bound stored as the value.
//! let record = |path: &[u32], depth, window, result, stored| Record {
//!     path: Some(path.to_vec()),
//!     stored,
//!     ..Record::new((), depth, window, result)
//! };
//! let records = [
//!     record(&[0], 1, (-100, 100), 3, Some(Bound::Exact)),
//!     record(&[1], 1, (-100, 3), 5, Some(Bound::Exact)),
//!     record(&[], 2, (-100, 100), -3, Some(Bound::Exact)),
//! ];
//! let broken = check_records(&records, Perspective::Mover).unwrap();
//! assert_eq!((broken.record, broken.rule), (1, SelfRule::StoredKind));
//! ```

use std::collections::HashMap;
use std::fmt;
use std::hash::{DefaultHasher, Hash, Hasher};

use super::audit::{self, Citation, Order, PositionName, node_text, plies};
use super::record::Record;
use crate::driver::Perspective;
use crate::driver::observe::Probe;
use crate::game::{Game, Player};
use crate::value::{Bound, Decimals, Value};

/// The rule of an alpha-beta search a record breaks (see the [module documentation](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "kebab-case"))]
pub enum SelfRule {
    /// The result is below what a child the node searched gave it.
    BelowChild,
    /// The result is above alpha, but no child the node searched gave that much.
    Unbacked,
    /// A child's window is not within its parent's.
    Window,
    /// The bound stored is not the one the node's window shows.
    StoredKind,
    /// A table cut-off breaks the bound of the entry this search stored.
    Cutoff,
    /// A second full-width search of the node at the same depth contradicts the first.
    Research,
}

impl fmt::Display for SelfRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::BelowChild => "below-child",
            Self::Unbacked => "unbacked",
            Self::Window => "window",
            Self::StoredKind => "stored-kind",
            Self::Cutoff => "cut-off",
            Self::Research => "re-search",
        })
    }
}

/// A record that breaks a rule of its own search, and what it is judged against.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Broken {
    /// The record's index among the records (0-based).
    pub record: usize,
    /// The rule.
    pub rule: SelfRule,
    /// The other records the rule compares it with, by index: the children it searched
    /// ([`SelfRule::BelowChild`], [`SelfRule::Unbacked`]), its caller ([`SelfRule::Window`]), the
    /// records that stored the bounds of the entry ([`SelfRule::Cutoff`]), the first search of the node ([`SelfRule::Research`]).
    pub against: Vec<usize>,
    /// For [`SelfRule::BelowChild`] and [`SelfRule::Unbacked`]: the best of the children's values, turned to the node's side and
    /// then to the side its values are written from.
    pub best: Option<Value>,
}

impl Broken {
    /// The finding in words, `records` as the engine wrote them, cited as `citation` says.
    #[must_use]
    pub fn describe<P: PositionName>(&self, records: &[Record<P>], citation: Citation<'_>) -> String {
        self.describe_in(records, citation, Decimals::NONE)
    }

    /// [`Broken::describe`] with values written as an engine with `decimals` writes them.
    #[must_use]
    pub fn describe_in<P: PositionName>(
        &self,
        records: &[Record<P>],
        citation: Citation<'_>,
        decimals: Decimals,
    ) -> String {
        let show = |value: Value| decimals.show(value);
        let cite = |index: usize| match citation {
            Citation::Number => format!("record {}", index + 1),
            Citation::Line(_) => format!("line {}", records[index].line.unwrap_or(0)),
        };
        let record = &records[self.record];
        let cited = match citation {
            Citation::Number => format!("record {}", self.record + 1),
            Citation::Line(file) => format!("{file}:{}: the record", record.line.unwrap_or(0)),
        };
        let window = |record: &Record<P>| format!("({}, {})", show(record.alpha), show(record.beta));
        let node = format!(
            "{cited} ({}, searched {} deep with the window {})",
            node_text(record),
            plies(record.depth),
            window(record)
        );
        let listed =
            |indices: &[usize]| indices.iter().map(|&index| cite(index)).collect::<Vec<_>>().join(", ");
        let first = self.against.first().copied().unwrap_or(self.record);
        match self.rule {
            SelfRule::BelowChild | SelfRule::Unbacked => {
                let best = show(self.best.unwrap_or(record.result));
                let (relation, why) = if self.rule == SelfRule::BelowChild {
                    ("less than", "a node never returns less than a child it searched gave it")
                } else {
                    ("more than", "a result above alpha must be backed by a child that reached it")
                };
                format!(
                    "{node} returned {}, {relation} the best its children gave it, {best} ({}): {why} (the \
                     {} rule)",
                    show(record.result),
                    listed(&self.against),
                    self.rule
                )
            }
            SelfRule::Window => {
                let caller = &records[first];
                format!(
                    "{node} was called by {} ({}, window {}), and its window, seen from there, is not within \
                     the caller's: alpha-beta only narrows the window it passes down (the {} rule)",
                    cite(first),
                    node_text(caller),
                    window(caller),
                    self.rule
                )
            }
            SelfRule::StoredKind => {
                let kind = record.stored.map_or("nothing", bound_name);
                let shown = if record.result <= record.alpha {
                    "a fail-low result, an upper bound"
                } else if record.result >= record.beta {
                    "a fail-high result, a lower bound"
                } else {
                    "a result inside the window, an exact value"
                };
                format!(
                    "{node} returned {}, {shown}, but stored it as {kind} (the {} rule)",
                    show(record.result),
                    self.rule
                )
            }
            SelfRule::Cutoff => {
                let stored: Vec<String> = self
                    .against
                    .iter()
                    .map(|&index| {
                        let storer = &records[index];
                        let kind = storer.stored.map_or("nothing", bound_name);
                        format!(
                            "{kind} {} ({}, {} deep)",
                            show(storer.result),
                            cite(index),
                            plies(storer.depth)
                        )
                    })
                    .collect();
                format!(
                    "{node} returned {} from the table, but what this search last stored for the position at \
                     that depth or deeper, {}, does not give that result in this window (the {} rule)",
                    show(record.result),
                    stored.join(" and "),
                    self.rule
                )
            }
            SelfRule::Research => {
                let earlier = &records[first];
                format!(
                    "{node} returned {} ({}), but {} searched the same node to the same depth with the window \
                     {} and returned {} ({}); both searches were full-width below, so they cannot both hold \
                     (the {} rule)",
                    show(record.result),
                    claim_text(record, decimals),
                    cite(first),
                    window(earlier),
                    show(earlier.result),
                    claim_text(earlier, decimals),
                    self.rule
                )
            }
        }
    }
}

fn bound_name(bound: Bound) -> &'static str {
    match bound {
        Bound::Lower => "a lower bound",
        Bound::Upper => "an upper bound",
        Bound::Exact => "an exact value",
    }
}

/// What a result claims of the node's value, in words.
fn claim_text<P>(record: &Record<P>, decimals: Decimals) -> String {
    let result = decimals.show(record.result);
    if record.result <= record.alpha {
        format!("at most {result}")
    } else if record.result >= record.beta {
        format!("at least {result}")
    } else {
        format!("exactly {result}")
    }
}

/// What the rules know of a record's node besides the record: its identity, and the identities of
/// the positions after each of its moves, when a game tells them.
#[derive(Clone, Debug)]
struct Node {
    key: u64,
    moves: Option<Vec<u64>>,
    /// Whether `key` names the position itself: a game's, or a record's name. A path alone does
    /// not (two paths may reach one position), and the table rules, which follow a position
    /// through its transpositions, do not judge such a node.
    named: bool,
}

/// The first record of one search of `game` that breaks a rule of its own search, values read from
/// `perspective`; `None` when every record keeps them. In completion order the first in the
/// file; in entry order the first with no broken record below it.
#[must_use]
pub fn check<G: Game>(game: &G, records: &[Record<G::Position>], perspective: Perspective) -> Option<Broken> {
    let order = audit::guess_order(game, records);
    // The keys of each position's children, found once: for the rules and for the callers.
    let mut children_of: HashMap<u64, Vec<u64>> = HashMap::new();
    // Without paths, depths alone do not tell a reduced child's caller: the game's moves do.
    let callers: Vec<Option<usize>> = (0..records.len())
        .map(|index| {
            let mut by_moves = || audit::called_further_on(game, records, index, order, &mut children_of);
            let found = if records[index].path.is_some() { None } else { by_moves() };
            found.or_else(|| audit::parent_record(records, index, order))
        })
        .collect();
    let nodes: Vec<Node> = records
        .iter()
        .map(|record| {
            let key = game.key(&record.position);
            // A record at the horizon needs no moves (and a served game is asked for none there).
            let moves = (record.depth > 0)
                .then(|| audit::child_keys(game, &record.position, &mut children_of).to_vec());
            Node { key, moves, named: true }
        })
        .collect();
    let movers: Vec<Player> = records.iter().map(|record| game.to_move(&record.position)).collect();
    let turned = to_mover(records, &movers, perspective);
    first_broken(&turned, &nodes, &callers, Some(&movers), order)
        .map(|broken| written_side(broken, &movers, perspective))
}

/// [`check`] of records read with no game: each node known by its name, or by its path when it
/// has no name, and who moves told by the path's length (MAX at the root) when the values are from
/// MAX's side. [`SelfRule::Research`] is not judged: with no game's moves, no search is known to
/// be full-width.
///
/// # Panics
/// Never; a record with neither name nor path is its own node.
#[must_use]
pub fn check_records<P: Clone>(records: &[Record<P>], perspective: Perspective) -> Option<Broken> {
    let nodes: Vec<Node> = records
        .iter()
        .enumerate()
        .map(|(index, record)| {
            let mut hasher = DefaultHasher::new();
            match (&record.node, &record.path) {
                (Some(name), _) => name.to_string().hash(&mut hasher),
                (None, Some(path)) => path.hash(&mut hasher),
                (None, None) => index.hash(&mut hasher),
            }
            Node { key: hasher.finish(), moves: None, named: record.node.is_some() }
        })
        .collect();
    let movers: Vec<Player> = records
        .iter()
        .map(|record| match record.path.as_ref().map(Vec::len) {
            Some(plies) if plies % 2 == 1 => Player::Min,
            _ => Player::Max,
        })
        .collect();
    let order = order_by_depth(records);
    let bare: Vec<Record<()>> = records.iter().map(|record| record.clone().at(())).collect();
    let turned = to_mover(&bare, &movers, perspective);
    // A reduced child's nearest deeper record may be a sibling's: only a path tells its caller.
    let callers: Vec<Option<usize>> = (0..records.len())
        .map(|index| records[index].path.as_ref().and(audit::parent_record(records, index, order)))
        .collect();
    first_broken(&turned, &nodes, &callers, None, order)
        .map(|broken| written_side(broken, &movers, perspective))
}

/// Whether [`check_records`] can tell who moves at each record: values from the side to move need
/// no telling; from MAX's side every record needs a path.
#[must_use]
pub fn sides_known<P>(records: &[Record<P>], perspective: Perspective) -> bool {
    perspective == Perspective::Mover || records.iter().all(|record| record.path.is_some())
}

/// Completion order when more neighbouring records go from deeper to shallower, by path where
/// both have one, else by depth.
fn order_by_depth<P>(records: &[Record<P>]) -> Order {
    let (mut completion, mut entry) = (0usize, 0usize);
    for pair in records.windows(2) {
        let below = |lower: &Record<P>, upper: &Record<P>| match (&lower.path, &upper.path) {
            (Some(low), Some(up)) => low.len() > up.len() && low.starts_with(up),
            _ => lower.depth < upper.depth,
        };
        if below(&pair[0], &pair[1]) {
            completion += 1;
        } else if below(&pair[1], &pair[0]) {
            entry += 1;
        }
    }
    if entry > completion { Order::Entry } else { Order::Completion }
}

/// The records with their values turned to the side to move at each node (the negamax view the
/// rules are stated in).
fn to_mover<P: Clone>(records: &[Record<P>], movers: &[Player], perspective: Perspective) -> Vec<Record<()>> {
    records
        .iter()
        .zip(movers)
        .map(|(record, &mover)| {
            // From `perspective` to MAX's side, then to the mover's: each a turn at the same node.
            let max_side = record.clone().at(()).turned(mover, perspective);
            max_side.turned(mover, Perspective::Mover)
        })
        .collect()
}

/// `broken` with the value it quotes turned back to the side the record's values are written from.
fn written_side(mut broken: Broken, movers: &[Player], perspective: Perspective) -> Broken {
    if perspective == Perspective::Max && movers[broken.record] == Player::Min {
        broken.best = broken.best.map(Value::saturating_neg);
    }
    broken
}

/// The rules on records already read from the side to move.
/// `movers`: who moves at each record's node, or `None` where sides alternate with every move.
/// `parents`: each record's caller, where it is known.
fn first_broken(
    records: &[Record<()>],
    nodes: &[Node],
    parents: &[Option<usize>],
    movers: Option<&[Player]>,
    order: Order,
) -> Option<Broken> {
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); records.len()];
    for (index, parent) in parents.iter().enumerate() {
        let Some(parent) = *parent else { continue };
        let (child, above) = (&records[index], &records[parent]);
        let is_child = match &nodes[parent].moves {
            Some(moves) => moves.contains(&nodes[index].key),
            None => child.depth < above.depth && nodes[index].key != nodes[parent].key,
        };
        if is_child {
            children[parent].push(index);
        }
    }
    let mut by_key: HashMap<u64, Vec<usize>> = HashMap::new();
    for (index, node) in nodes.iter().enumerate() {
        by_key.entry(node.key).or_default().push(index);
    }
    let mut rules = Rules {
        records,
        nodes,
        movers,
        children: &children,
        by_key: &by_key,
        full_width: vec![None; records.len()],
    };
    let broken: Vec<Broken> = (0..records.len()).filter_map(|index| rules.broken(index, parents)).collect();
    match order {
        Order::Completion => broken.into_iter().next(),
        Order::Entry => {
            let has_broken_below = |top: usize| {
                broken.iter().any(|other| {
                    let mut at = parents[other.record];
                    while let Some(above) = at {
                        if above == top {
                            return true;
                        }
                        at = parents[above];
                    }
                    false
                })
            };
            broken.iter().find(|found| !has_broken_below(found.record)).or(broken.first()).cloned()
        }
    }
}

struct Rules<'r> {
    records: &'r [Record<()>],
    nodes: &'r [Node],
    movers: Option<&'r [Player]>,
    children: &'r [Vec<usize>],
    /// The records of each node, in order: what the table rules look back through.
    by_key: &'r HashMap<u64, Vec<usize>>,
    /// Memo of [`Rules::is_full_width`]: `Some(false)` also while one is being decided, so that a
    /// chain of table entries cannot loop.
    full_width: Vec<Option<bool>>,
}

impl Rules<'_> {
    fn broken(&mut self, index: usize, parents: &[Option<usize>]) -> Option<Broken> {
        let record = &self.records[index];
        let found = |rule, against: Vec<usize>, best| Some(Broken { record: index, rule, against, best });
        let (alpha, beta, result) = (record.alpha, record.beta, record.result);
        let window_is_empty = alpha >= beta;
        if let Some(stored) = record.stored
            && !window_is_empty
        {
            let shown = match stored {
                Bound::Lower => result > alpha,
                Bound::Upper => result < beta,
                Bound::Exact => alpha < result && result < beta,
            };
            if !shown {
                return found(SelfRule::StoredKind, Vec::new(), None);
            }
        }
        if let Some(parent) = parents[index]
            && self.children[parent].contains(&index)
        {
            let above = &self.records[parent];
            let (low, high) = if self.same_mover(index, parent) {
                (record.alpha, record.beta)
            } else {
                (record.beta.saturating_neg(), record.alpha.saturating_neg())
            };
            // Reinefeld's NegaScout re-searches a child whose scout returned `t` above the best
            // so far with `(t, beta)`, though `t` may lie below alpha: a window its published
            // form passes down, wider than need be but no fault.
            let reinefeld = high <= above.beta
                && self.children[parent].iter().any(|&sibling| {
                    sibling < index
                        && self.nodes[sibling].key == self.nodes[index].key
                        && self.seen_from_parent(sibling, parent) == low
                });
            if above.alpha < above.beta && (low < above.alpha || high > above.beta) && !reinefeld {
                return found(SelfRule::Window, vec![parent], None);
            }
        }
        if record.probe == Some(Probe::Cutoff) {
            let entries = if self.nodes[index].named { self.entries(index) } else { Vec::new() };
            if !entries.is_empty()
                && !window_is_empty
                && !entries.iter().any(|entry| cutoff_holds(entry, record))
            {
                // The entry of the node's own depth, which a table keyed by depth answers from.
                let storers = entries.first().map(Entry::storers).unwrap_or_default();
                return found(SelfRule::Cutoff, storers, None);
            }
        } else if record.depth > 0 && !self.children[index].is_empty() && !window_is_empty {
            let last = self.last_of_each_child(index);
            let best = last.iter().map(|&child| self.seen_from_parent(child, index)).max();
            if let Some(best) = best {
                if result < best.min(beta) {
                    return found(SelfRule::BelowChild, last, Some(best));
                }
                if result > alpha && result > best {
                    return found(SelfRule::Unbacked, last, Some(best));
                }
            }
        }
        if record.depth > 0
            && !window_is_empty
            && self.nodes[index].moves.is_some()
            && self.is_full_width(index)
        {
            let earlier = self.same_node_before(index).find(|&other| {
                let first = &self.records[other];
                first.depth == record.depth && first.alpha < first.beta && !claims_meet(first, record)
            });
            if let Some(other) = earlier
                && self.is_full_width(other)
            {
                return found(SelfRule::Research, vec![other], None);
            }
        }
        None
    }

    /// The records of `records[index]`'s node before it, in order.
    fn same_node_before(&self, index: usize) -> impl DoubleEndedIterator<Item = usize> + '_ {
        let list = self.by_key.get(&self.nodes[index].key).map_or(&[][..], Vec::as_slice);
        let before = list.partition_point(|&other| other < index);
        list[..before].iter().copied()
    }

    /// `records[child]`'s result from the side to move at `records[parent]`'s node.
    fn seen_from_parent(&self, child: usize, parent: usize) -> Value {
        let result = self.records[child].result;
        if self.same_mover(child, parent) { result } else { result.saturating_neg() }
    }

    /// Whether the same side moves at two records' nodes (never, where sides alternate).
    fn same_mover(&self, one: usize, other: usize) -> bool {
        self.movers.is_some_and(|movers| movers[one] == movers[other])
    }

    /// The last record of each distinct child of `records[index]`'s node, in the order first searched.
    fn last_of_each_child(&self, index: usize) -> Vec<usize> {
        let mut last: Vec<usize> = Vec::new();
        for &child in &self.children[index] {
            match last.iter_mut().find(|known| self.nodes[**known].key == self.nodes[child].key) {
                Some(known) => *known = (*known).max(child),
                None => last.push(child),
            }
        }
        last
    }

    /// What this search stored for `records[index]`'s node at `depth` before it: the last lower
    /// bound and the last upper bound (an exact value is both), as a table that keeps both bounds
    /// of a position holds them, and one that keeps one entry holds at most as much.
    fn entry_at(&self, index: usize, depth: u32) -> Entry {
        let mut entry = Entry::default();
        for other in self.same_node_before(index).rev() {
            let record = &self.records[other];
            if record.depth != depth {
                continue;
            }
            let (lower, upper) = match record.stored {
                Some(Bound::Lower) => (true, false),
                Some(Bound::Upper) => (false, true),
                Some(Bound::Exact) => (true, true),
                None => continue,
            };
            if lower && entry.lower.is_none() {
                entry.lower = Some((other, record.result, record.depth));
            }
            if upper && entry.upper.is_none() {
                entry.upper = Some((other, record.result, record.depth));
            }
            if entry.lower.is_some() && entry.upper.is_some() {
                break;
            }
        }
        entry
    }

    /// [`Rules::entry_at`] of each depth, `records[index]`'s own and deeper, at which this search
    /// stored the node before it: a table keyed by depth answers from the first, one that lets
    /// deeper entries answer from any.
    fn entries(&self, index: usize) -> Vec<Entry> {
        let depth = self.records[index].depth;
        let mut depths: Vec<u32> = self
            .same_node_before(index)
            .filter(|&other| {
                let record = &self.records[other];
                record.stored.is_some() && record.depth >= depth
            })
            .map(|other| self.records[other].depth)
            .collect();
        depths.sort_unstable();
        depths.dedup();
        depths.into_iter().map(|stored_depth| self.entry_at(index, stored_depth)).collect()
    }

    /// Whether every bound this search stored for `records[index]`'s node before it, at its depth
    /// or deeper, was stored at its depth by a full-width search.
    fn entry_is_full_width(&mut self, index: usize) -> bool {
        let record = &self.records[index];
        let entry = self.entry_at(index, record.depth);
        let depth = record.depth;
        // A table may keep the deeper of two entries: any deeper one stored before may have
        // answered, unless the record says no entry was used.
        let table_unused = matches!(record.probe, Some(Probe::None | Probe::Miss));
        let deeper_stored = self.same_node_before(index).any(|other| {
            let earlier = &self.records[other];
            earlier.stored.is_some() && earlier.depth > depth
        });
        if deeper_stored && !table_unused {
            return false;
        }
        [entry.lower, entry.upper]
            .into_iter()
            .flatten()
            .all(|(storer, _, stored_depth)| stored_depth == depth && self.is_full_width(storer))
    }

    /// Whether the search behind `records[index]` was full-width below (see [`SelfRule::Research`]).
    fn is_full_width(&mut self, index: usize) -> bool {
        if let Some(known) = self.full_width[index] {
            return known;
        }
        self.full_width[index] = Some(false);
        let record = &self.records[index];
        let full = if record.depth == 0 {
            true
        } else if record.probe == Some(Probe::Etc)
            || (record.probe == Some(Probe::Cutoff) && self.entry_at(index, record.depth).is_empty())
            || !self.entry_is_full_width(index)
        {
            // An enhanced transposition cut-off, a table cut-off from an entry of an earlier
            // search, or one (or a window the table narrowed, a hit) from an entry of a deeper
            // search or of a search that was not full-width.
            false
        } else if record.probe == Some(Probe::Cutoff) {
            true
        } else {
            let last = self.last_of_each_child(index);
            let moves = self.nodes[index].moves.clone();
            match moves {
                None => false,
                Some(moves) if last.is_empty() => moves.is_empty(),
                Some(moves) => {
                    let failed_high = record.result >= record.beta;
                    let every_move =
                        moves.iter().all(|key| last.iter().any(|&child| self.nodes[child].key == *key));
                    (failed_high || every_move)
                        && last.iter().all(|&child| {
                            self.records[child].depth + 1 == record.depth && self.is_full_width(child)
                        })
                }
            }
        };
        self.full_width[index] = Some(full);
        full
    }
}

/// The bounds a search stored for a position ([`Rules::entry`]): each the storing record's index,
/// the value and the depth, read from the side to move there.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    lower: Option<(usize, Value, u32)>,
    upper: Option<(usize, Value, u32)>,
}

impl Entry {
    const fn is_empty(&self) -> bool {
        self.lower.is_none() && self.upper.is_none()
    }

    /// The storing records, earliest first.
    fn storers(&self) -> Vec<usize> {
        let mut storers: Vec<usize> =
            [self.lower, self.upper].into_iter().flatten().map(|(index, ..)| index).collect();
        storers.sort_unstable();
        storers.dedup();
        storers
    }
}

/// Whether a table cut-off `record` gives a result the bounds of `entry` allow, both read from the
/// side to move at the node: a lower bound at or above beta cuts off with a value from beta to it,
/// an upper bound at or below alpha with one from it to alpha, equal bounds (an exact value) with
/// that value, or it clamped into the window.
fn cutoff_holds(entry: &Entry, record: &Record<()>) -> bool {
    let (alpha, beta, result) = (record.alpha, record.beta, record.result);
    let lower = entry.lower.map(|(_, value, _)| value);
    let upper = entry.upper.map(|(_, value, _)| value);
    let by_lower = lower.is_some_and(|value| value >= beta && (beta..=value).contains(&result));
    let by_upper = upper.is_some_and(|value| value <= alpha && (value..=alpha).contains(&result));
    let by_exact = match (lower, upper) {
        (Some(low), Some(high)) if low == high => result == low || result == low.clamp(alpha, beta),
        _ => false,
    };
    by_lower || by_upper || by_exact
}

/// Whether the claims two results make of one node's value leave some value possible.
fn claims_meet(first: &Record<()>, second: &Record<()>) -> bool {
    let interval = |record: &Record<()>| {
        if record.result <= record.alpha {
            (Value::MIN, record.result)
        } else if record.result >= record.beta {
            (record.result, Value::MAX)
        } else {
            (record.result, record.result)
        }
    };
    let ((low1, high1), (low2, high2)) = (interval(first), interval(second));
    low1.max(low2) <= high1.min(high2)
}
