//! How a case is judged: a tree case by the exact values of its nodes ([`judge`]), a position of a
//! game by proofs of what the engine claims ([`judge_game`]); and what is wrong
//! ([`Disagreement`]), in the one wording every report uses.
//!
//! Both look in the same order: the records first (a broken rule names the node where a bug acts,
//! its earliest cause), then the value, then the move.

use std::collections::HashMap;

use super::cases::one_ply_less;
use super::{Answer, Case, Config, GameCase};
use crate::driver::Perspective;
use crate::game::{Game, Player};
use crate::oracle::audit::{self, Truth, Violation};
use crate::oracle::consistency;
use crate::oracle::proof::{Budget, Claim, Prover};
use crate::oracle::record::{NodeName, Record};
use crate::reference::minimax;
use crate::theory::witness::{Undecided, Witness};
use crate::tree::unfold::unfold_with_positions;
use crate::tree::{NodeId, Tree};
use crate::value::{Decimals, Value};

/// What an engine got wrong on a case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Disagreement {
    /// The root value is not the exact value (nor, with deeper entries, any extension's).
    Value {
        /// The engine's value.
        reported: Value,
        /// The exact value.
        exact: Value,
        /// With deeper entries: the least and greatest value an extension gives the root.
        extensions: Option<(Value, Value)>,
        /// Judged exactly, the value is still one that an entry of a deeper search can give (some
        /// extension's): [`Config::deeper_entries`] may be what the engine needs.
        deeper_explains: bool,
    },
    /// The move is no child of the root.
    NoSuchMove {
        /// The move given.
        played: u32,
        /// The root's children.
        children: u32,
    },
    /// The move leads to a child whose value is not the root's.
    WrongMove {
        /// The move given.
        played: u32,
        /// What the root is worth after it.
        after: Value,
        /// The exact value of the root.
        exact: Value,
        /// A move that keeps the value.
        best: u32,
    },
    /// A record breaks a rule of the fail-soft contract ([`crate::oracle::audit`]).
    Record {
        /// The violation, of the record with the earliest cause.
        violation: Violation,
        /// That record, as the engine wrote it.
        record: Box<Record<()>>,
        /// When a table entry gave its result: the record that stored the entry, if there is one.
        storer: Option<Box<Record<()>>>,
        /// For an empty window: the record of the caller that built it, if there is one.
        caller: Option<Box<Record<()>>>,
        /// Judged exactly, the record still holds for a value that an entry of a deeper search can
        /// give: [`Config::deeper_entries`] may be what the engine needs.
        deeper_explains: bool,
    },
    /// With [`Config::deeper_entries`] a game case is judged on its tree, unfolded past its depth:
    /// a record names a position that tree does not hold where the record says it was searched.
    Outside {
        /// The record, as the engine wrote it.
        record: Box<Record<()>>,
        /// Its place in the records, from 0.
        index: usize,
    },
    /// A record names a position that its caller's record, a ply above, cannot reach by any move
    /// ([`audit::first_not_a_child`]): a bug that corrupts the position in making or unmaking a
    /// move, or that searches an illegal one.
    NotAChild {
        /// What was found: the two records' places and the caller's moves.
        found: audit::NotAChild,
        /// The record, as the engine wrote it.
        record: Box<Record<()>>,
        /// Its caller's record.
        caller: Box<Record<()>>,
    },
    /// The engine's values of positions it declares of equal value (`symmetric`) differ: its
    /// search, or its evaluation, breaks a relation it says it keeps.
    Asymmetric {
        /// Its value of the case's position.
        value: Value,
        /// Each position it declares of equal value whose value differs, by name, and that value.
        others: Vec<(String, Value)>,
    },
    /// A record breaks a rule every alpha-beta search keeps, whatever it prunes
    /// ([`crate::oracle::consistency`]): found with [`Config::selective`], with no exact value.
    Inconsistent {
        /// The broken rule, its record and the records it compares it with.
        broken: consistency::Broken,
        /// The search's records, as the engine wrote them.
        records: Vec<Record<()>>,
    },
    /// Asked the same question several times in a row (`fuzz --repeat`), the engine answered with
    /// values that differ: whatever the exact value, they cannot all be it.
    Varied {
        /// Each answer's value, in the order given, from the side [`Config::perspective`] names.
        values: Vec<Value>,
    },
}

/// How [`Disagreement::describe_named`] names what it speaks of.
pub struct Naming<'n> {
    /// The case's root: "the root" of a tree, "this position" of a game.
    pub root: &'n str,
    /// A move of the root, from its index among the root's moves: `move 2`, `move D2D4`.
    pub moves: &'n dyn Fn(u32) -> String,
    /// A player's own word, where the engine names its players: `black`.
    pub player: &'n dyn Fn(Player) -> Option<String>,
    /// How values are written: as an engine with these digits after the point writes them
    /// (`4.53`), whole numbers for a tree.
    pub decimals: Decimals,
}

impl Disagreement {
    /// [`Disagreement::Asymmetric`] if `answer`'s values of positions the engine declares of
    /// equal value differ from its value of the case.
    #[must_use]
    pub fn asymmetric<P>(answer: &Answer<P>) -> Option<Self> {
        let others: Vec<(String, Value)> =
            answer.symmetric.iter().filter(|(_, value)| *value != answer.value).cloned().collect();
        (!others.is_empty()).then_some(Self::Asymmetric { value: answer.value, others })
    }

    /// [`Disagreement::Varied`] if `answer`'s values differ from one asking to the next.
    #[must_use]
    pub fn varied<P>(answer: &Answer<P>) -> Option<Self> {
        answer.again.iter().any(|&(value, _)| value != answer.value).then(|| Self::Varied {
            values: std::iter::once(answer.value)
                .chain(answer.again.iter().map(|&(value, _)| value))
                .collect(),
        })
    }

    /// Which answer is wrong: 0 the records, 1 the value, 2 the move. Shrinking keeps it, so that a
    /// case does not slip from one bug to another on its way down.
    pub(super) const fn kind(&self) -> u8 {
        match self {
            Self::Record { .. }
            | Self::Outside { .. }
            | Self::NotAChild { .. }
            | Self::Inconsistent { .. } => 0,
            Self::Value { .. } | Self::Varied { .. } | Self::Asymmetric { .. } => 1,
            Self::NoSuchMove { .. } | Self::WrongMove { .. } => 2,
        }
    }

    /// A one-line description, values from `perspective` at the root (the records' own), moves by
    /// their indices among the root's children (a tree's moves have no names).
    #[must_use]
    pub fn describe(&self, perspective: Perspective, root: Player) -> String {
        let naming = Naming {
            root: "the root",
            moves: &|index| format!("move {index}"),
            player: &|_| None,
            decimals: Decimals::NONE,
        };
        self.describe_named(perspective, root, &naming)
    }

    /// [`Disagreement::describe`] in the words of `naming`: a game's moves and players as its
    /// engine names them (`move D2D4`, `MIN's side, the engine's 'black'`).
    #[must_use]
    pub fn describe_named(&self, perspective: Perspective, root: Player, naming: &Naming<'_>) -> String {
        let show = |value: Value| naming.decimals.show(value);
        let side = |value: Value| show(perspective.turn(root, (value, value, value)).2);
        let from = match (perspective, root) {
            (Perspective::Max, _) | (_, Player::Max) => String::new(),
            (Perspective::Mover, Player::Min) => {
                let word =
                    (naming.player)(root).map(|word| format!(" the engine's '{word}',")).unwrap_or_default();
                format!(" (from {root}'s side,{word} which moves at {})", naming.root)
            }
        };
        let name = naming.moves;
        match self {
            Self::Value { reported, exact, extensions: None, deeper_explains } => {
                format!(
                    "the value is wrong: the engine says {}, the exact value is {}{from}{}",
                    show(*reported),
                    side(*exact),
                    deeper_hint(*deeper_explains)
                )
            }
            Self::Value { reported, exact, extensions: Some((lowest, highest)), .. } => {
                let turned = |value: Value| perspective.turn(root, (value, value, value)).2;
                let (lowest, highest) = if turned(*lowest) <= turned(*highest) {
                    (side(*lowest), side(*highest))
                } else {
                    (side(*highest), side(*lowest))
                };
                format!(
                    "the value is no extension's: the engine says {}, the exact value is {} and the \
                     extensions give values from {lowest} to {highest}{from}",
                    show(*reported),
                    side(*exact)
                )
            }
            Self::NoSuchMove { played, children: 0 } => {
                format!("the engine plays move {played}, but at this depth the root has no move to play")
            }
            Self::NoSuchMove { played, children } => {
                format!(
                    "the move {played} is no child of the root, which has {children} (moves 0 to {})",
                    children - 1
                )
            }
            Self::WrongMove { played, after, exact, best } => format!(
                "the move is wrong: after {} {} is worth {}, but its value is {} ({} keeps it){from}",
                name(*played),
                naming.root,
                side(*after),
                side(*exact),
                name(*best)
            ),
            Self::Record { violation, record, storer, caller, deeper_explains } => {
                let explained = audit::Explained {
                    violation,
                    record,
                    caller: caller.as_deref(),
                    storer: storer.as_deref(),
                    citation: audit::Citation::Number,
                    decimals: naming.decimals,
                };
                format!("{explained}{}", deeper_hint(*deeper_explains))
            }
            Self::Asymmetric { value, others } => {
                let listed: Vec<String> =
                    others.iter().map(|(name, value)| format!("{} at {name}", show(*value))).collect();
                format!(
                    "a broken symmetry: the engine says {} here, but {} of a position it declares of equal value",
                    show(*value),
                    listed.join(", ")
                )
            }
            Self::NotAChild { found, record, caller } => {
                found.describe(record.as_ref(), caller.as_ref(), audit::Citation::Number)
            }
            Self::Inconsistent { broken, records } => {
                broken.describe_in(records, audit::Citation::Number, naming.decimals)
            }
            Self::Varied { values } => {
                let mut distinct = values.clone();
                distinct.sort_unstable();
                distinct.dedup();
                let listed: Vec<String> = values.iter().map(|&value| show(value).to_string()).collect();
                format!(
                    "the engine answered {} ways: asked the same {} times in a row, it said {}",
                    distinct.len(),
                    values.len(),
                    listed.join(", ")
                )
            }
            Self::Outside { record, index } => format!(
                "record {}: {}, searched {} plies deep, names a position that the case does not hold there \
                 (unfolded to its depth, and past it as far as fits the budget)",
                index + 1,
                audit::node_text(record.as_ref()),
                record.depth
            ),
        }
    }
}

/// The hint for a disagreement that an entry of a deeper search explains.
const fn deeper_hint(deeper_explains: bool) -> &'static str {
    if deeper_explains {
        "; an entry of a deeper search explains it: if the engine's table lets deeper entries answer \
         shallower searches, judge it with --deeper-entries"
    } else {
        ""
    }
}

/// The exact values a judgement needs, found within a budget.
struct Judge<'t> {
    tree: &'t Tree,
    config: &'t Config,
    memo: HashMap<(u64, u32), Value>,
}

impl<'t> Judge<'t> {
    fn exact(&mut self, node: NodeId, depth: u32) -> Result<Value, Undecided> {
        minimax::value(self.tree, &node, depth, &mut self.memo, self.config.budget)
            .ok_or(Undecided { budget: self.config.budget })
    }

    /// Whether `value`, from MAX's side, is the node's value (or, with deeper entries, some
    /// extension's), and the extensions' range when it is not and they were asked.
    fn allows(
        &mut self,
        node: NodeId,
        depth: u32,
        value: Value,
    ) -> Result<(bool, Option<(Value, Value)>), Undecided> {
        if !self.config.deeper_entries {
            return Ok((self.exact(node, depth)? == value, None));
        }
        let mut witness = Witness::new(self.tree, self.config.budget);
        let mover = self.tree.player(node);
        let for_mover = mover.perspective(value);
        if witness.holds(&node, depth, for_mover)? {
            return Ok((true, None));
        }
        let (lowest, highest) = witness.range(&node, depth)?;
        Ok((false, Some((mover.perspective(lowest), mover.perspective(highest)))))
    }
}

/// Judges `answer` on `case`: `Ok(None)` when it agrees, the first disagreement found otherwise:
/// values that vary from one asking to the next ([`Answer::again`]) first, then the records (a
/// broken rule names the node where a bug acts, its earliest cause), then the value, then the move,
/// and then each other move the engine gave when asked again.
///
/// # Errors
/// [`Undecided`] when a judgement needs more than [`Config::budget`] nodes.
pub fn judge(case: &Case, answer: &Answer, config: &Config) -> Result<Option<Disagreement>, Undecided> {
    if let Some(found) = Disagreement::varied(answer).or_else(|| Disagreement::asymmetric(answer)) {
        return Ok(Some(found));
    }
    let mut judged = vec![answer.best_move];
    let others = answer.again.iter().filter(|&&(_, best_move)| {
        let new = !judged.contains(&best_move);
        judged.push(best_move);
        new
    });
    let others: Vec<Answer> =
        others.map(|&(value, best_move)| Answer { best_move, ..Answer::value(value) }).collect();
    for answer in std::iter::once(answer).chain(&others) {
        if let Some(found) = judge_tree_one(case, answer, config)? {
            return Ok(Some(found));
        }
    }
    Ok(None)
}

/// [`judge`] of one answer: its records, value and move.
fn judge_tree_one(case: &Case, answer: &Answer, config: &Config) -> Result<Option<Disagreement>, Undecided> {
    let tree = &case.tree;
    let root = tree.root_id();
    let mut judge = Judge { tree, config, memo: HashMap::new() };
    if let Some(found) = audit::first_not_a_child(tree, &answer.records) {
        return Ok(Some(Disagreement::not_a_child(found, &answer.records, node_name)));
    }
    if !answer.records.is_empty() {
        let options = audit::Options {
            deeper_entries: config.deeper_entries,
            limit: Some(config.budget),
            perspective: config.perspective,
            ..audit::Options::default()
        };
        let report = audit::audit(tree, &answer.records, &options);
        if let Some(unfinished) = report.unfinished {
            return Err(Undecided { budget: unfinished.limit });
        }
        if let Some(violation) = report.cause {
            // The record alone, read by the witness criterion: whether a deeper entry explains it.
            let deeper_explains = !config.deeper_entries
                && audit::audit(
                    tree,
                    std::slice::from_ref(&answer.records[violation.record]),
                    &audit::Options { deeper_entries: true, ..options },
                )
                .holds();
            return Ok(Some(Disagreement::record(violation, &answer.records, deeper_explains, node_name)));
        }
    }
    let for_max = |player: Player, value: Value| config.perspective.turn(player, (value, value, value)).2;
    let reported = for_max(tree.player(root), answer.value);
    let (allowed, extensions) = judge.allows(root, case.depth, reported)?;
    if !allowed {
        let exact = judge.exact(root, case.depth)?;
        let deeper_explains = !config.deeper_entries
            && Witness::new(tree, config.budget).holds(
                &root,
                case.depth,
                tree.player(root).perspective(reported),
            ) == Ok(true);
        return Ok(Some(Disagreement::Value { reported: answer.value, exact, extensions, deeper_explains }));
    }
    if let Some(played) = answer.best_move {
        let children = tree.children(root);
        let searched = case.depth > 0 && !children.is_empty();
        let Some(&child) = children.get(played as usize).filter(|_| searched) else {
            let children = if searched { u32::try_from(children.len()).unwrap_or(u32::MAX) } else { 0 };
            return Ok(Some(Disagreement::NoSuchMove { played, children }));
        };
        let (keeps, _) = judge.allows(child, case.depth - 1, reported)?;
        if !keeps {
            let exact = judge.exact(root, case.depth)?;
            let after = judge.exact(child, case.depth - 1)?;
            let mut best = 0;
            for (index, &other) in children.iter().enumerate() {
                if judge.exact(other, case.depth - 1)? == exact {
                    best = u32::try_from(index).unwrap_or(0);
                    break;
                }
            }
            return Ok(Some(Disagreement::WrongMove { played, after, exact, best }));
        }
    }
    Ok(None)
}

/// A tree node's name in a message, when its record gives neither path nor name: its number.
fn node_name(node: &NodeId) -> Option<NodeName> {
    Some(NodeName::Id(node.to_string()))
}

/// A record as the engine wrote it, its position left out: named by its path or name, or when it
/// gives neither by what `name` calls its position.
fn as_written<P: Clone>(record: &Record<P>, name: impl Fn(&P) -> Option<NodeName>) -> Record<()> {
    let mut written = record.clone().at(());
    if written.path.is_none() && written.node.is_none() {
        written.node = name(&record.position);
    }
    written
}

impl Disagreement {
    /// The disagreement a violation of `records` makes, each record it names as the engine wrote
    /// it.
    fn record<P: Clone>(
        violation: Violation,
        records: &[Record<P>],
        deeper_explains: bool,
        name: impl Fn(&P) -> Option<NodeName>,
    ) -> Self {
        let written = |index: usize| Box::new(as_written(&records[index], &name));
        Self::Record {
            record: written(violation.record),
            storer: violation.stored_by.map(written),
            caller: violation.caller.map(written),
            violation,
            deeper_explains,
        }
    }

    /// [`Disagreement::NotAChild`] for `found` among `records`, its records as the engine wrote them.
    fn not_a_child<P: Clone>(
        found: audit::NotAChild,
        records: &[Record<P>],
        name: impl Fn(&P) -> Option<NodeName>,
    ) -> Self {
        let written = |index: usize| Box::new(as_written(&records[index], &name));
        Self::NotAChild { record: written(found.record), caller: written(found.caller), found }
    }
}

// ---------------------------------------------------------------------------------------------
// A position of a game, judged by proof

/// The claims of a game case's records, proved by `prover` within `budget`: what the audit asks
/// of each node (from MAX's side) turned to the side to move there, which the proofs read.
struct Proofs<'a, G: Game> {
    game: &'a G,
    prover: &'a mut Prover<G>,
    budget: &'a mut Budget,
}

impl<G: Game> Truth<G> for Proofs<'_, G> {
    fn holds(&mut self, position: &G::Position, depth: u32, claim: Claim) -> Option<bool> {
        let claim = match self.game.to_move(position) {
            Player::Max => claim,
            Player::Min => claim.negated(),
        };
        self.prover.holds(self.game, position, depth, claim, self.budget).ok()
    }

    fn value(&mut self, position: &G::Position, depth: u32, near: Value) -> Option<Value> {
        let mover = self.game.to_move(position);
        let value =
            self.prover.value(self.game, position, depth, mover.perspective(near), self.budget).ok()?;
        Some(mover.perspective(value))
    }
}

/// Judges `answer` on a position of `game` (`case`) at exactly the case's depth: `Ok(None)` when
/// it agrees, the first disagreement found otherwise, looked for in the order [`judge`] looks.
/// Nothing is valued that the answer's claims do not need ([`crate::oracle::proof`]):
///
/// * **the records**: each record's rule is decided by null-window tests on its node, only as far
///   as the rule needs (a fail-high at `beta` needs a proof that the value is at least the
///   result, a result inside the window two proofs), the exact value found only for a record
///   that breaks one;
/// * **the value**: MTD(f) from the engine's value, which proves a right value with two
///   null-window tests and finds the exact value from a wrong one;
/// * **the move**: one null-window test on the child it names.
///
/// `prover` keeps what it proved for the next case. Values are from the side
/// [`Config::perspective`] names; the records name positions of `game`, their paths (if they give
/// them) from `case.position`. A wrong value or record says whether an entry of a deeper search
/// explains it (the case unfolded two plies past its depth, as far as a few thousand positions
/// allow). With [`Config::deeper_entries`] the case is judged as a tree case instead ([`judge`]):
/// its position unfolded past its depth, two plies if that fits the budget, else one or none,
/// never less than its depth.
///
/// # Errors
/// [`Undecided`] when the proofs of the case need more than [`Config::budget`] nodes (with
/// deeper entries: its unfolding more positions).
pub fn judge_game<G: Game>(
    game: &G,
    prover: &mut Prover<G>,
    case: &GameCase<G>,
    answer: &Answer<G::Position>,
    config: &Config,
) -> Result<Option<Disagreement>, Undecided> {
    let found = judge_by_proof(game, prover, case, answer, config)?;
    Ok(found.map(|disagreement| with_hint(game, case, answer, disagreement, config)))
}

/// As [`judge_game`], without the hint that an entry of a deeper search explains a wrong answer
/// (which costs an unfolding): what the run loop and the descent ask of every case.
pub(super) fn judge_by_proof<G: Game>(
    game: &G,
    prover: &mut Prover<G>,
    case: &GameCase<G>,
    answer: &Answer<G::Position>,
    config: &Config,
) -> Result<Option<Disagreement>, Undecided> {
    if let Some(found) = Disagreement::varied(answer).or_else(|| Disagreement::asymmetric(answer)) {
        return Ok(Some(found));
    }
    let found = judge_one(game, prover, case, answer, config)?;
    if found.is_some() {
        return Ok(found);
    }
    // Another move, given when asked again, with the same value: judged as the first was.
    let mut judged = vec![answer.best_move];
    for &(value, best_move) in &answer.again {
        if !judged.contains(&best_move) {
            judged.push(best_move);
            let other = Answer { best_move, ..Answer::value(value) };
            if let Some(found) = judge_one(game, prover, case, &other, config)? {
                return Ok(Some(found));
            }
        }
    }
    Ok(None)
}

/// [`judge_by_proof`] of one answer, its records, value and move.
fn judge_one<G: Game>(
    game: &G,
    prover: &mut Prover<G>,
    case: &GameCase<G>,
    answer: &Answer<G::Position>,
    config: &Config,
) -> Result<Option<Disagreement>, Undecided> {
    if config.deeper_entries {
        return judge_unfolded(game, case, answer, config, config.budget);
    }
    let mut budget = Budget::new(config.budget);
    let root = &case.position;
    if let Some(found) = audit::first_not_a_child(game, &answer.records) {
        return Ok(Some(Disagreement::not_a_child(found, &answer.records, |_| None)));
    }
    if config.selective {
        let broken = consistency::check(game, &answer.records, config.perspective);
        return Ok(broken.map(|broken| Disagreement::Inconsistent {
            broken,
            records: answer.records.iter().map(|record| as_written(record, |_| None)).collect(),
        }));
    }
    if !answer.records.is_empty() {
        let options = audit::Options {
            limit: Some(config.budget),
            perspective: config.perspective,
            ..audit::Options::default()
        };
        let mut truth = Proofs { game, prover: &mut *prover, budget: &mut budget };
        let report = audit::audit_by(game, &answer.records, &options, &mut truth, &mut |_| {});
        if report.unfinished.is_some() {
            return Err(budget.exceeded());
        }
        if let Some(violation) = report.cause {
            return Ok(Some(Disagreement::record(violation, &answer.records, false, |_| None)));
        }
    }
    let mover = game.to_move(root);
    // From the side `config.perspective` names to the side to move, and back: the same turn.
    let turn = |value: Value| match (config.perspective, mover) {
        (Perspective::Max, Player::Min) => value.saturating_neg(),
        _ => value,
    };
    let claimed = turn(answer.value);
    let exact = prover.value(game, root, case.depth, claimed, &mut budget)?;
    if exact != claimed {
        let exact = mover.perspective(exact);
        return Ok(Some(Disagreement::Value {
            reported: answer.value,
            exact,
            extensions: None,
            deeper_explains: false,
        }));
    }
    let Some(played) = answer.best_move else { return Ok(None) };
    let moves = if case.depth > 0 { game.legal_moves(root) } else { Vec::new() };
    let Some(&mv) = moves.get(played as usize) else {
        let children = u32::try_from(moves.len()).unwrap_or(u32::MAX);
        return Ok(Some(Disagreement::NoSuchMove { played, children }));
    };
    // Whether the position after `mv` is worth `exact` to the mover: at least it, as no child is
    // worth more.
    let mut keeps = |mv, budget: &mut Budget| {
        let child = game.play(root, mv);
        let claim = if game.to_move(&child) == mover { Claim::AtLeast(exact) } else { Claim::AtMost(-exact) };
        prover.holds(game, &child, one_ply_less(case.depth), claim, budget)
    };
    if keeps(mv, &mut budget)? {
        return Ok(None);
    }
    let mut best = 0;
    for (index, &other) in moves.iter().enumerate() {
        if keeps(other, &mut budget)? {
            best = u32::try_from(index).unwrap_or(u32::MAX);
            break;
        }
    }
    let child = game.play(root, mv);
    let child_mover = game.to_move(&child);
    let guess = if child_mover == mover { exact } else { -exact };
    let after =
        child_mover.perspective(prover.value(game, &child, one_ply_less(case.depth), guess, &mut budget)?);
    Ok(Some(Disagreement::WrongMove { played, after, exact: mover.perspective(exact), best }))
}

/// How far `answer` strays from the exact value of `case` ([`super::Profile`]): its value beside
/// the exact value at the case's depth, proved from the engine's value as a first guess, and how
/// much its move gives up (one null-window test when it keeps the value). Values from the side to
/// move at the case's position.
///
/// # Errors
/// [`Undecided`] when the exact value needs more than [`Config::budget`] nodes.
pub fn measure<G: Game>(
    game: &G,
    prover: &mut Prover<G>,
    case: &GameCase<G>,
    answer: &Answer<G::Position>,
    config: &Config,
) -> Result<super::profile::Measure, Undecided> {
    let mut budget = Budget::new(config.budget);
    let root = &case.position;
    let mover = game.to_move(root);
    let value = match config.perspective {
        Perspective::Mover => answer.value,
        Perspective::Max => mover.perspective(answer.value),
    };
    let exact = prover.value(game, root, case.depth, value, &mut budget)?;
    let moves = if case.depth > 0 { game.legal_moves(root) } else { Vec::new() };
    let chosen = answer.best_move.and_then(|index| moves.get(index as usize).copied());
    let move_loss = chosen.and_then(|mv| {
        let child = game.play(root, mv);
        let same_side = game.to_move(&child) == mover;
        let claim = if same_side { Claim::AtLeast(exact) } else { Claim::AtMost(-exact) };
        if prover.holds(game, &child, one_ply_less(case.depth), claim, &mut budget).ok()? {
            return Some(0);
        }
        let guess = if same_side { exact } else { -exact };
        let after = prover.value(game, &child, one_ply_less(case.depth), guess, &mut budget).ok()?;
        Some(exact.saturating_sub(if same_side { after } else { after.saturating_neg() }))
    });
    Ok(super::profile::Measure { depth: case.depth, value, exact, move_loss })
}

/// The most positions the hint of [`with_hint`] unfolds: it is a hint, not a judgement.
const HINT_POSITIONS: u64 = 20_000;

/// `disagreement`, found without deeper entries, with the hint that an entry of a deeper search
/// explains it, when one does: the case unfolded two plies past its depth (within
/// [`HINT_POSITIONS`]) and judged by the witness criterion.
pub(super) fn with_hint<G: Game>(
    game: &G,
    case: &GameCase<G>,
    answer: &Answer<G::Position>,
    disagreement: Disagreement,
    config: &Config,
) -> Disagreement {
    if config.deeper_entries
        || config.static_horizon
        || !matches!(disagreement, Disagreement::Value { .. } | Disagreement::Record { .. })
    {
        return disagreement;
    }
    let deeper = Config { deeper_entries: true, ..config.clone() };
    let explains = judge_unfolded(game, case, answer, &deeper, HINT_POSITIONS) == Ok(None);
    match disagreement {
        Disagreement::Value { reported, exact, extensions, .. } => {
            Disagreement::Value { reported, exact, extensions, deeper_explains: explains }
        }
        Disagreement::Record { violation, record, storer, caller, .. } => {
            Disagreement::Record { violation, record, storer, caller, deeper_explains: explains }
        }
        other => other,
    }
}

/// A game case judged as a tree case ([`judge`]): its position unfolded two plies past its depth,
/// or one, or none, whichever first fits in `max_positions`, and each record placed on its path's
/// node, or else on the node of its position searched to its depth there, or else on the node of
/// its position unfolded deepest.
fn judge_unfolded<G: Game>(
    game: &G,
    case: &GameCase<G>,
    answer: &Answer<G::Position>,
    config: &Config,
    max_positions: u64,
) -> Result<Option<Disagreement>, Undecided> {
    let max_nodes = usize::try_from(max_positions).unwrap_or(usize::MAX);
    let unfolded = (0..=2u32).rev().find_map(|beyond| {
        let plies = case.depth.checked_add(beyond)?;
        unfold_with_positions(game, &case.position, plies, max_nodes).ok().map(|found| (beyond, found))
    });
    let Some((beyond, (tree, positions))) = unfolded else { return Err(Undecided { budget: max_positions }) };
    let left = plies_left(&tree, case.depth + beyond);
    let mut by_depth: HashMap<(u64, u32), NodeId> = HashMap::new();
    let mut deepest: HashMap<u64, NodeId> = HashMap::new();
    for (index, position) in positions.iter().enumerate() {
        let node = NodeId(u32::try_from(index).unwrap_or(u32::MAX));
        let key = game.key(position);
        by_depth.entry((key, left[index])).or_insert(node);
        if deepest.get(&key).is_none_or(|known| left[known.index()] < left[index]) {
            deepest.insert(key, node);
        }
    }
    let mut records = Vec::with_capacity(answer.records.len());
    for (index, record) in answer.records.iter().enumerate() {
        let key = game.key(&record.position);
        let node = record
            .path
            .as_deref()
            .and_then(|path| tree.node_at(path))
            .or_else(|| by_depth.get(&(key, record.depth.saturating_add(beyond))).copied())
            .or_else(|| deepest.get(&key).copied());
        let Some(node) = node else {
            let record = Box::new(as_written(record, |_| None));
            return Ok(Some(Disagreement::Outside { record, index }));
        };
        records.push(record.clone().at(node));
    }
    let tree_case = Case { tree, depth: case.depth, origin: case.origin.clone() };
    let tree_answer = Answer {
        value: answer.value,
        best_move: answer.best_move,
        records,
        again: answer.again.clone(),
        symmetric: answer.symmetric.clone(),
    };
    judge(&tree_case, &tree_answer, config)
}

/// Each node's plies left in `tree`, unfolded `plies` deep: a node is a position with the plies
/// left below it, so the first path that reaches it tells.
fn plies_left(tree: &Tree, plies: u32) -> Vec<u32> {
    let mut left = vec![0u32; tree.node_count()];
    let mut seen = vec![false; tree.node_count()];
    let mut level = vec![tree.root_id()];
    let mut depth = plies;
    seen[tree.root_id().index()] = true;
    while !level.is_empty() {
        let mut next = Vec::new();
        for node in level {
            left[node.index()] = depth;
            for &child in tree.children(node) {
                if !std::mem::replace(&mut seen[child.index()], true) {
                    next.push(child);
                }
            }
        }
        level = next;
        depth = depth.saturating_sub(1);
    }
    left
}

impl Disagreement {
    /// Whether `other` is wrong the same way: both in the records, both in the value, or both in
    /// the move. Shrinking keeps a case only while its disagreement stays of one kind.
    #[must_use]
    pub const fn same_kind(&self, other: &Self) -> bool {
        self.kind() == other.kind()
    }

    /// The kind a run that goes on counts it as: `a wrong value`, `a wrong move`, or the rule a
    /// record breaks (`the fail-low rule`).
    #[must_use]
    pub fn kind_name(&self) -> String {
        match self {
            Self::Value { .. } => "a wrong value".to_owned(),
            Self::NoSuchMove { .. } | Self::WrongMove { .. } => "a wrong move".to_owned(),
            Self::Record { violation, .. } => format!("the {} rule", violation.rule),
            Self::Outside { .. } => "a record outside the case".to_owned(),
            Self::Varied { .. } => "answers that vary".to_owned(),
            Self::Asymmetric { .. } => "a broken symmetry".to_owned(),
            Self::NotAChild { .. } => "a record outside the game".to_owned(),
            Self::Inconsistent { broken, .. } => format!("the {} rule of its own search", broken.rule),
        }
    }
}
