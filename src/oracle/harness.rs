//! The oracle as a harness: seeded cases for your engine, its answers judged against the exact
//! values, and the smallest case it gets wrong.
//!
//! An engine author writes the adapter alone: a closure that searches a [`Case`] (a [`Tree`], which
//! is a [`Game`](crate::game::Game), and a depth limit) and returns an [`Answer`]: the root value, optionally the root
//! move it would play, optionally its records of the search (see [`super::record`]). [`fuzz`] does
//! the rest:
//!
//! 1. **cases**, case `i` of a run drawn from the run's seed and `i` alone, so that any case can be
//!    made again: the [`Family`] cycles through those asked for (plain random trees, trees with an
//!    evaluation on every node, game graphs with transpositions, random positions of tic-tac-toe and
//!    Connect Four unfolded a few plies into trees), and the depth limit is drawn from 0 (evaluate
//!    the root) to the tree's height (search to the end);
//! 2. **judging** ([`judge`]): the records must pass [`super::audit`]; the value must be the exact
//!    depth-limited value (with [`Config::deeper_entries`], the value of some all-or-none extension:
//!    the witness criterion of [`crate::theory::witness`]); the move must lead to a child whose
//!    exact value is the root's;
//! 3. **shrinking** ([`shrink_case`]): the first case that disagrees is made smaller
//!    ([`crate::tree::shrink`]) and shallower, one step at a time, for as long as it still
//!    disagrees: a 1-minimal case ([`single_steps`]) of a few nodes, printed without loss by the
//!    tree's `Display`. It is asked again first: an engine that answers it another way is reported
//!    on it unshrunk ([`Found::steady`]).
//!
//! A second source of cases runs an engine's own search on positions of its own game, where its
//! move generation, passes and table run ([`fuzz_game`]). There the case is judged by proof, not by
//! valuing every position below it ([`judge_game`], [`crate::oracle::proof`]): the engine's claimed
//! value is the first guess of MTD(f), and a right claim costs two null-window tests, each the
//! size of a proof tree; a wrong answer is minimized along the game instead of shrinking a tree
//! ([`descend`]).
//!
//! The harness has three rooms:
//!
//! | module | what it holds |
//! |---|---|
//! | `cases` | where cases come from: random trees and graphs ([`Family`], [`Case`]), positions of a game ([`GameCase`]) |
//! | `judge` | how a case is judged: by the exact values on a tree ([`judge`]), by proofs on a game ([`judge_game`]); what is wrong ([`Disagreement`]) |
//! | `history` | the earlier searches a wrong answer depends on, fewest first ([`minimize_history`]) |
//! | `profile` | how far a selective engine strays from the exact value ([`Measure`], [`Profile`]) |
//! | `runs` | how runs go: [`fuzz`], [`fuzz_keep_going`], shrinking ([`shrink_case`]), [`fuzz_game`] and its [`descend`], [`fuzz_game_keep_going`] |
//!
//! An engine that cannot answer (its closure returns `Err`) has failed, which is not a
//! disagreement: [`fuzz`] stops and reports it with the case ([`Outcome::EngineFailed`]); while
//! shrinking, a candidate the engine cannot answer is not kept.
//!
//! ```
//! use nullwindow::driver::{Counts, Perspective};
//! use nullwindow::game::Game;
//! use nullwindow::oracle::harness::{Answer, Config, Outcome, fuzz};
//! use nullwindow::tree::{NodeId, Tree};
//!
//! // A negamax engine with a planted bug: at depth 0 it forgets to turn the evaluation to the
//! // side to move.
//! fn negamax(tree: &Tree, node: NodeId, depth: u32) -> i32 {
//!     if tree.is_terminal(&node) {
//!         return tree.evaluate_for_mover(&node);
//!     }
//!     if depth == 0 {
//!         return tree.evaluate(&node); // the bug: from MAX's side
//!     }
//!     tree.children(node).iter().map(|&child| -negamax(tree, child, depth - 1)).max().unwrap()
//! }
//! let config = Config { perspective: Perspective::Mover, cases: 200, ..Config::default() };
//! let outcome = fuzz(&config, |case| {
//!     Ok::<_, String>(Answer::value(negamax(&case.tree, case.tree.root_id(), case.depth)))
//! }, |_| {});
//! let Outcome::Disagreed(found) = outcome else { panic!("the bug is caught") };
//! // Shrunk to a root with one child, where the search stops at once: a MIN root the bug values
//! // from MAX's side.
//! assert_eq!((found.shrunk.depth, found.shrunk.tree.stats().nodes), (0, 2), "{}", found.report());
//! # let _ = Counts::default();
//! ```

use std::fmt;
use std::ops::RangeInclusive;

mod cases;
mod history;
mod judge;
mod profile;
mod runs;

pub use cases::{Case, Family, GameCase, depth_text, one_ply_less};
pub use history::{Minimized, minimize_history};
pub use judge::{Disagreement, Naming, judge, judge_game, measure};
pub use profile::{Measure, Profile, Tally};
pub use runs::{
    Descent, FailureFound, Found, GameFinding, GameOutcome, GameSeveral, Judged, Kind, Outcome, Progress,
    Several, Verdict, descend, fuzz, fuzz_game, fuzz_game_keep_going, fuzz_keep_going, shrink_case,
    shrink_failure, single_steps,
};

use super::record::Record;
use crate::driver::Perspective;
use crate::tree::{NodeId, Tree};
use crate::value::{Decimals, Value};

/// What the engine answered on a case. `P` is how its records name positions: a tree's nodes
/// ([`NodeId`], for a [`Case`]) or a game's positions (for a [`GameCase`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer<P = NodeId> {
    /// The root value, from the side [`Config::perspective`] names.
    pub value: Value,
    /// The root move it would play, as the index of a child of the root (0-based), if it says.
    pub best_move: Option<u32>,
    /// Its records of the search, values from the side [`Config::perspective`] names; empty when
    /// it keeps none.
    pub records: Vec<Record<P>>,
    /// The same question asked again, in a row (`fuzz --repeat`): each further answer's value and
    /// move. A value that differs from `value` is a finding of its own ([`Disagreement::Varied`]);
    /// a move that differs is judged as `best_move` is, so that two moves of equal exact value are
    /// no finding.
    pub again: Vec<(Value, Option<u32>)>,
    /// Positions the engine declares of equal value to the case's (a mirrored board, colours
    /// swapped), each named as a message shows it, with the engine's own value of it at the same
    /// depth: a value that differs from `value` is a finding of its own
    /// ([`Disagreement::Asymmetric`]), whatever the exact values.
    pub symmetric: Vec<(String, Value)>,
}

impl<P> Answer<P> {
    /// An answer with a value alone.
    #[must_use]
    pub const fn value(value: Value) -> Self {
        Self { value, best_move: None, records: Vec::new(), again: Vec::new(), symmetric: Vec::new() }
    }
}

impl<P> Default for Answer<P> {
    fn default() -> Self {
        Self::value(0)
    }
}

/// What an engine replies to a case: an answer, or that it declines the case (a depth it does not
/// search, values outside its range). A declined case is counted, never a failure. An engine's
/// closure may return an [`Answer`] (always answers), an `Option<Answer>` (`None` declines) or a
/// `Reply`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply<P = NodeId> {
    /// The engine's answer.
    Answer(Answer<P>),
    /// The engine declines the case.
    Skip,
}

impl<P> From<Answer<P>> for Reply<P> {
    fn from(answer: Answer<P>) -> Self {
        Self::Answer(answer)
    }
}

impl<P> From<Option<Answer<P>>> for Reply<P> {
    fn from(answer: Option<Answer<P>>) -> Self {
        answer.map_or(Self::Skip, Self::Answer)
    }
}

/// How an engine failed on a case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure<E> {
    /// It returned this error.
    Error(E),
    /// It panicked, with this message.
    Panic(String),
}

impl<E: fmt::Display> fmt::Display for Failure<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Error(error) => error.fmt(f),
            Self::Panic(message) => write!(f, "the engine panicked: {message}"),
        }
    }
}

/// How to draw and judge cases. [`Config::default`] is what `nullwindow fuzz` runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// The run's seed: case `i` depends on it and on `i` alone.
    pub seed: u64,
    /// How many cases to try.
    pub cases: u64,
    /// The families to cycle through (at least one).
    pub families: Vec<Family>,
    /// Children per interior node of the random trees; links per node of the graphs.
    pub width: RangeInclusive<u32>,
    /// Heights of the random trees and graphs, and the plies the games are unfolded; for
    /// [`fuzz_game`], the depths its cases are searched to.
    pub height: RangeInclusive<u32>,
    /// Leaf values and evaluations of the random trees and graphs; narrow, so that ties are common.
    pub values: RangeInclusive<Value>,
    /// The side the engine's values are from: MAX's, or the side to move (negamax engines).
    pub perspective: Perspective,
    /// Judge by the witness criterion, for engines that let table entries of deeper searches answer
    /// shallower ones.
    pub deeper_entries: bool,
    /// The most nodes one judgement may visit: on a tree case each exact value, witness question or
    /// record's audit; on a game case ([`judge_game`]) every proof the case takes together, its
    /// records', its value's and its move's (with [`Config::deeper_entries`], the positions its
    /// unfolding holds). A case beyond it is left undecided, not judged.
    pub budget: u64,
    /// Entries of the table in which the proofs of game cases keep what they proved, from one case
    /// to the next (16 bytes each, allocated once: [`crate::oracle::proof::Prover`]).
    pub table_entries: usize,
    /// The most candidates shrinking may try (for each kind of disagreement, with
    /// [`Config::keep_going`]).
    pub max_shrink_tests: u64,
    /// Go on after a disagreement or a failure: [`fuzz`] then runs every case and shrinks the
    /// first case of each kind ([`fuzz_keep_going`], [`Outcome::Several`]).
    pub keep_going: bool,
    /// The game scores a position where a search's depth runs out otherwise than by its
    /// evaluation ([`Game::horizon`](crate::game::Game::horizon)): a game case is then judged by
    /// proof alone, never on an unfolded tree, which holds one value a position, so no hint that
    /// an entry of a deeper search explains a wrong answer is given.
    pub static_horizon: bool,
    /// Judge a game case's records by the rules every alpha-beta search keeps, whatever it prunes
    /// ([`crate::oracle::consistency`]), and not its value or move by the exact value: for an
    /// engine that prunes on purpose. [`fuzz_game`] then also measures each case against the
    /// exact value ([`measure`], reported in [`Judged::measure`]): a measurement, not a verdict.
    pub selective: bool,
    /// A game of your own, unfolded from its start into a tree, for [`Family::Own`]: a case walks
    /// up to [`Config::walk`] random moves from its root and unfolds what lies below a few plies.
    pub own: Option<Tree>,
    /// The most random moves from the start of [`Config::own`] to a case's position.
    pub walk: u32,
    /// Whether depth 0 (the root's evaluation alone) is drawn, one case in ten. `false` for an
    /// engine that has nothing to answer there (one that plays a move): no case, shrink step or
    /// own-game descent goes below depth 1 ([`Config::least_depth`]).
    pub depth_zero: bool,
    /// How the engine writes its values: with these digits after the point, each value a whole
    /// number of their units ([`Decimals`]), as every report quotes it. Only the wording depends on it.
    pub decimals: Decimals,
    /// Game cases ask for the value at the end of the game ([`TO_THE_END`](crate::oracle::proof::TO_THE_END)), not at a depth: each
    /// a position drawn from the last plies of a random playout, as many plies before its end as
    /// [`Config::height`] draws, judged against the game's full value. The descent then goes down
    /// the game only, with no depth to lower.
    pub to_end: bool,
}

impl Default for Config {
    /// Seed 0, 1,000 cases, every built-in family, widths 1 to 3, heights 1 to 4, values -9 to 9, values from
    /// MAX's side, exact values, a budget of 10⁷ nodes, a proof table of 2^20 entries (16 MiB), at
    /// most 10,000 shrink candidates.
    fn default() -> Self {
        Self {
            seed: 0,
            cases: 1000,
            families: Family::BUILT_IN.to_vec(),
            width: 1..=3,
            height: 1..=4,
            values: -9..=9,
            perspective: Perspective::Max,
            deeper_entries: false,
            budget: 10_000_000,
            table_entries: 1 << 20,
            max_shrink_tests: 10_000,
            keep_going: false,
            static_horizon: false,
            selective: false,
            own: None,
            walk: 6,
            depth_zero: true,
            decimals: Decimals::NONE,
            to_end: false,
        }
    }
}

/// Why a [`Config`] cannot draw cases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// The least depth a case may have, drawn or shrunk or descended to: 1 without
    /// [`Config::depth_zero`], else 0.
    #[must_use]
    pub const fn least_depth(&self) -> u32 {
        if self.depth_zero { 0 } else { 1 }
    }

    /// Checks that cases can be drawn: a family, non-empty ranges, widths of at least 1, heights of
    /// at most 12 (a random tree of width 3 and height 12 has half a million leaves), admissible
    /// values.
    ///
    /// # Errors
    /// The first problem, in words.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let error = |message: &str| Err(ConfigError(message.to_owned()));
        if self.families.is_empty() {
            return error("no family of cases chosen");
        }
        if self.families.contains(&Family::Own) && self.own.is_none() {
            return error("the family 'own' needs a game of your own (nullwindow fuzz --engine)");
        }
        if self.width.is_empty() || *self.width.start() == 0 {
            return error("the width must be a range of at least 1 child");
        }
        if self.height.is_empty() || *self.height.end() > 12 {
            return error("the height must be a range within 0 to 12");
        }
        self.tree_config(0, Family::Evaluated).validate().map_err(|e| ConfigError(e.to_string()))?;
        self.graph_config(0).validate().map_err(|e| ConfigError(e.to_string()))
    }
}

/// "1 search", "2 searches".
pub(crate) fn counted(count: u64, one: &str, many: &str) -> String {
    if count == 1 { format!("1 {one}") } else { format!("{count} {many}") }
}

/// "1 move", "2 moves".
pub(crate) fn counted_moves(count: usize) -> String {
    counted(count as u64, "move", "moves")
}
