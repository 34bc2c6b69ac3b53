//! The oracle as a harness: seeded cases for your engine, its answers judged against the exact
//! values, and the smallest case it gets wrong.
//!
//! An engine author writes the adapter alone: a closure that searches a [`Case`] (a [`Tree`], which
//! is a [`Game`], and a depth limit) and returns an [`Answer`]: the root value, optionally the root
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
//! move generation, passes and table run, and minimizes a wrong answer along the game instead of
//! shrinking a tree ([`fuzz_game`], in [`game`]); the judge and the loop are the same.
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

use std::cell::Cell;
use std::collections::HashMap;
use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

pub mod game;

pub use game::{Descent, GameCase, GameOutcome, descend, fuzz_game};

use super::audit::{self, Violation};
use super::record::Record;
use crate::driver::Perspective;
use crate::game::{Game, Player};
use crate::games::connect4::Connect4;
use crate::games::random_position;
use crate::games::tictactoe::TicTacToe;
use crate::reference::minimax;
use crate::theory::witness::{Undecided, Witness};
use crate::tree::random::{RandomTreeConfig, draw_below, draw_u32};
use crate::tree::random_graph::RandomGraphConfig;
use crate::tree::shrink::try_shrink;
use crate::tree::unfold::unfold;
use crate::tree::{NodeId, Tree, text};
use crate::value::Value;

/// A kind of case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Random trees, the parenthesis format's kind: a MAX root, leaf values, interior nodes 0.
    Trees,
    /// Random trees with an evaluation on every interior node, for depth-limited searches.
    Evaluated,
    /// Random game graphs with transpositions, some positions reached at two depths.
    Graphs,
    /// Tic-tac-toe from a random position, unfolded a few plies (a graph of its transpositions).
    TicTacToe,
    /// Connect Four from a random position, unfolded a few plies (a graph of its transpositions).
    Connect4,
    /// A game of your own ([`Config::own`]: an engine's, served over [`super::protocol`], or any
    /// [`Game`] unfolded): a random position, unfolded a few plies.
    Own,
}

impl Family {
    /// Every family, in the order a run cycles through them ([`Family::Own`] only with a game).
    pub const ALL: [Self; 6] =
        [Self::Trees, Self::Evaluated, Self::Graphs, Self::TicTacToe, Self::Connect4, Self::Own];

    /// The families a run draws from by default: every one but [`Family::Own`].
    pub const BUILT_IN: [Self; 5] =
        [Self::Trees, Self::Evaluated, Self::Graphs, Self::TicTacToe, Self::Connect4];

    /// The family's name, as `nullwindow fuzz --family` takes it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Trees => "trees",
            Self::Evaluated => "evaluated",
            Self::Graphs => "graphs",
            Self::TicTacToe => "tictactoe",
            Self::Connect4 => "connect4",
            Self::Own => "own",
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Family {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        Self::ALL.into_iter().find(|family| family.name() == name).ok_or_else(|| {
            let names: Vec<&str> = Self::ALL.iter().map(|family| family.name()).collect();
            format!(
                "no family '{}'{}; the families are {}",
                text::excerpt(name),
                crate::registry::did_you_mean(name, names.iter().copied()),
                names.join(", ")
            )
        })
    }
}

/// One case: a tree and the depth to search it to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The tree (or graph) to search.
    pub tree: Tree,
    /// The depth limit: 0 evaluates the root; the tree's height or more searches to the end.
    pub depth: u32,
    /// Where it came from: the family, and for a game the position's moves from the start.
    pub origin: String,
}

impl Case {
    /// The extension of a file that holds the case's tree: `tree` when the parenthesis format holds
    /// it, `gtree` otherwise. The tree's `Display` writes the matching format.
    #[must_use]
    pub fn extension(&self) -> &'static str {
        if text::losses(&self.tree).is_empty() { "tree" } else { "gtree" }
    }

    /// The move, in the case's move order ([`Answer::best_move`]), that leads from the root to
    /// `child`; `None` when `child` is no child of the root. For an engine that answers with the
    /// position it would play rather than its index.
    ///
    /// ```
    /// use nullwindow::game::Game;
    /// use nullwindow::oracle::harness::Case;
    ///
    /// let case = Case { tree: "((1 2) (3 4))".parse()?, depth: 2, origin: String::new() };
    /// let second = case.tree.play(&case.tree.root(), 1);
    /// assert_eq!(case.move_to(second), Some(1));
    /// assert_eq!(case.move_to_key(case.tree.key(&second)), Some(1));
    /// assert_eq!(case.move_to(case.tree.root()), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn move_to(&self, child: NodeId) -> Option<u32> {
        let at = self.tree.children(self.tree.root_id()).iter().position(|&other| other == child)?;
        u32::try_from(at).ok()
    }

    /// The move that leads from the root to the child whose key ([`Game::key`]) is `key`; `None`
    /// when no child of the root has it. For an engine that answers with the key of the position
    /// it would play.
    #[must_use]
    pub fn move_to_key(&self, key: u64) -> Option<u32> {
        let children = self.tree.children(self.tree.root_id());
        let at = children.iter().position(|child| self.tree.key(child) == key)?;
        u32::try_from(at).ok()
    }
}

/// Every case one step of the shrink's repertoire makes from `case`: each of the tree's
/// [`single_steps`](crate::tree::shrink::single_steps) at the case's depth and, where the step
/// lowers the tree's height, also at the depth as far above its leaves as before; the same tree
/// one ply shallower; and at its height, when the depth is past it. A complete shrink
/// ([`shrink_case`], [`shrink_failure`]) ends on a case for which none of these disagrees (or
/// fails) in the same way: the result is **1-minimal**, unless [`Config::max_shrink_tests`] ran
/// out first (or, with [`Config::depth_zero`] off, but for the steps to depth 0, which it never
/// tries). A test can check that with this list.
#[must_use]
pub fn single_steps(case: &Case) -> Vec<Case> {
    let height = case.tree.height();
    let mut steps = Vec::new();
    let mut add = |tree: &Tree, depth: u32| {
        let step = Case { tree: tree.clone(), depth, origin: case.origin.clone() };
        if step != *case && !steps.contains(&step) {
            steps.push(step);
        }
    };
    for tree in crate::tree::shrink::single_steps(&case.tree) {
        add(&tree, case.depth);
        if tree.height() < height && case.depth > 0 {
            add(&tree, case.depth.saturating_sub(height - tree.height()));
        }
    }
    if let Some(shallower) = case.depth.checked_sub(1) {
        add(&case.tree, shallower);
    }
    if case.depth > height {
        add(&case.tree, height);
    }
    steps
}

/// What the engine answered on a case.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    /// The root value, from the side [`Config::perspective`] names.
    pub value: Value,
    /// The root move it would play, as the index of a child of the root (0-based), if it says.
    pub best_move: Option<u32>,
    /// Its records of the search, values from the side [`Config::perspective`] names; empty when
    /// it keeps none.
    pub records: Vec<Record<NodeId>>,
}

impl Answer {
    /// An answer with a value alone.
    #[must_use]
    pub fn value(value: Value) -> Self {
        Self { value, ..Self::default() }
    }
}

/// What an engine replies to a case: an answer, or that it declines the case (a depth it does not
/// search, values outside its range). A declined case is counted, never a failure. An engine's
/// closure may return an [`Answer`] (always answers), an `Option<Answer>` (`None` declines) or a
/// `Reply`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The engine's answer.
    Answer(Answer),
    /// The engine declines the case.
    Skip,
}

impl From<Answer> for Reply {
    fn from(answer: Answer) -> Self {
        Self::Answer(answer)
    }
}

impl From<Option<Answer>> for Reply {
    fn from(answer: Option<Answer>) -> Self {
        answer.map_or(Self::Skip, Self::Answer)
    }
}

/// Runs the engine on a case, a panic in it caught: `Ok(None)` when it declines, `Err` with its
/// error or its panic's message.
fn ask<C, R: Into<Reply>, E>(
    engine: &mut impl FnMut(&C) -> Result<R, E>,
    case: &C,
) -> Result<Option<Answer>, Failure<E>> {
    let replied = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| engine(case)));
    match replied {
        Ok(Ok(reply)) => match reply.into() {
            Reply::Answer(answer) => Ok(Some(answer)),
            Reply::Skip => Ok(None),
        },
        Ok(Err(error)) => Err(Failure::Error(error)),
        Err(panic) => {
            let message = panic
                .downcast_ref::<&str>()
                .map(|text| (*text).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".to_owned());
            Err(Failure::Panic(message))
        }
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
    /// Heights of the random trees and graphs, and the plies the games are unfolded.
    pub height: RangeInclusive<u32>,
    /// Leaf values and evaluations of the random trees and graphs; narrow, so that ties are common.
    pub values: RangeInclusive<Value>,
    /// The side the engine's values are from: MAX's, or the side to move (negamax engines).
    pub perspective: Perspective,
    /// Judge by the witness criterion, for engines that let table entries of deeper searches answer
    /// shallower ones.
    pub deeper_entries: bool,
    /// The most nodes one judgement (an exact value, a witness question, a record's audit) may
    /// visit; a case beyond it is left undecided, not judged.
    pub budget: u64,
    /// The most candidates shrinking may try (for each kind of disagreement, with
    /// [`Config::keep_going`]).
    pub max_shrink_tests: u64,
    /// Go on after a disagreement or a failure: [`fuzz`] then runs every case and shrinks the
    /// first case of each kind ([`fuzz_keep_going`], [`Outcome::Several`]).
    pub keep_going: bool,
    /// A game of your own, unfolded from its start into a tree, for [`Family::Own`]: a case walks
    /// up to [`Config::walk`] random moves from its root and unfolds what lies below a few plies.
    pub own: Option<Tree>,
    /// The most random moves from the start of [`Config::own`] to a case's position.
    pub walk: u32,
    /// Whether depth 0 (the root's evaluation alone) is drawn, one case in ten. `false` for an
    /// engine that has nothing to answer there (one that plays a move): no case, shrink step or
    /// own-game descent goes below depth 1 ([`Config::least_depth`]).
    pub depth_zero: bool,
}

impl Default for Config {
    /// Seed 0, 1,000 cases, every built-in family, widths 1 to 3, heights 1 to 4, values -9 to 9, values from
    /// MAX's side, exact values, a budget of 10⁷ nodes, at most 10,000 shrink candidates.
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
            max_shrink_tests: 10_000,
            keep_going: false,
            own: None,
            walk: 6,
            depth_zero: true,
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

/// The most nodes a game's unfolded tree may have: the depth drawn shrinks until it fits.
const MAX_UNFOLDED_NODES: usize = 20_000;

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

    fn tree_config(&self, seed: u64, family: Family) -> RandomTreeConfig {
        RandomTreeConfig {
            seed,
            width: self.width.clone(),
            depth: (*self.height.start()).max(1).min(*self.height.end())..=*self.height.end(),
            values: self.values.clone(),
            interior_values: (family == Family::Evaluated).then(|| self.values.clone()),
            ..RandomTreeConfig::default()
        }
    }

    fn graph_config(&self, seed: u64) -> RandomGraphConfig {
        RandomGraphConfig {
            seed,
            plies: *self.height.end(),
            nodes: 1..=self.width.end().saturating_add(1),
            children: self.width.clone(),
            values: self.values.clone(),
            ..RandomGraphConfig::default()
        }
    }

    /// Case `index` of the run: the same configuration and index give the same case everywhere.
    ///
    /// # Errors
    /// As [`Config::validate`].
    pub fn case(&self, index: u64) -> Result<Case, ConfigError> {
        self.validate()?;
        let family = self.families[usize::try_from(index % self.families.len() as u64).unwrap_or(0)];
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let seed = rng.next_u64();
        let height = draw_u32(&mut rng, &self.height);
        let (tree, origin) = match family {
            Family::Trees | Family::Evaluated => {
                let tree =
                    self.tree_config(seed, family).generate().map_err(|e| ConfigError(e.to_string()))?;
                (tree, format!("{family}, seed {seed}"))
            }
            Family::Graphs => {
                let config = RandomGraphConfig { plies: height, ..self.graph_config(seed) };
                (config.generate().map_err(|e| ConfigError(e.to_string()))?, format!("{family}, seed {seed}"))
            }
            Family::TicTacToe => {
                let game = TicTacToe::from_moves("").map_err(|e| ConfigError(e.to_string()))?;
                let plies = draw_u32(&mut rng, &(0..=7));
                let (position, moves) = random_position(&game, seed, plies);
                let squares: String = moves.iter().map(ToString::to_string).collect();
                (unfold_within(&game, &position, height), format!("{family} position '{squares}'"))
            }
            Family::Connect4 => {
                let game = Connect4::from_moves("").map_err(|e| ConfigError(e.to_string()))?;
                let plies = draw_u32(&mut rng, &(0..=24));
                let (position, moves) = random_position(&game, seed, plies);
                let columns: String = moves.iter().map(ToString::to_string).collect();
                (unfold_within(&game, &position, height.min(4)), format!("{family} position '{columns}'"))
            }
            Family::Own => {
                let game = self.own.as_ref().ok_or_else(|| ConfigError("no game of your own".to_owned()))?;
                let plies = draw_u32(&mut rng, &(0..=self.walk));
                let (position, moves) = random_position(game, seed, plies);
                let path: Vec<String> = moves.iter().map(ToString::to_string).collect();
                (unfold_within(game, &position, height), format!("{family} game, path [{}]", path.join(",")))
            }
        };
        // Depth 0 (the root's evaluation alone) one case in ten; the other depths alike (a
        // terminal root is searched 1 ply: to its end, as 0 would).
        let zero = draw_below(&mut rng, 10) == 0;
        let depth = if zero && self.depth_zero { 0 } else { draw_u32(&mut rng, &(1..=tree.height().max(1))) };
        Ok(Case { tree, depth, origin })
    }
}

/// `game` unfolded from `position`, `plies` deep or less: as deep as fits [`MAX_UNFOLDED_NODES`].
fn unfold_within<G: Game>(game: &G, position: &G::Position, plies: u32) -> Tree {
    (0..=plies)
        .rev()
        .find_map(|plies| unfold(game, position, plies, MAX_UNFOLDED_NODES).ok())
        .unwrap_or_else(|| unreachable!("a position unfolded 0 plies is one node"))
}

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
    /// A record breaks a rule of the fail-soft contract ([`super::audit`]).
    Record {
        /// The violation, of the record with the earliest cause.
        violation: Violation,
        /// That record, as the engine wrote it.
        record: Box<Record<NodeId>>,
        /// When a table entry gave its result: the record that stored the entry, if there is one.
        storer: Option<Box<Record<NodeId>>>,
        /// For an empty window: the record of the caller that built it, if there is one.
        caller: Option<Box<Record<NodeId>>>,
        /// Judged exactly, the record still holds for a value that an entry of a deeper search can
        /// give: [`Config::deeper_entries`] may be what the engine needs.
        deeper_explains: bool,
    },
}

impl Disagreement {
    /// Which answer is wrong: 0 the records, 1 the value, 2 the move. Shrinking keeps it, so that a
    /// case does not slip from one bug to another on its way down.
    const fn kind(&self) -> u8 {
        match self {
            Self::Record { .. } => 0,
            Self::Value { .. } => 1,
            Self::NoSuchMove { .. } | Self::WrongMove { .. } => 2,
        }
    }

    /// A one-line description, values from `perspective` at the root (the records' own).
    #[must_use]
    pub fn describe(&self, perspective: Perspective, root: Player) -> String {
        let side = |value: Value| perspective.turn(root, (value, value, value)).2;
        let from = match (perspective, root) {
            (Perspective::Max, _) | (_, Player::Max) => "",
            (Perspective::Mover, Player::Min) => " (from MIN's side, which moves at the root)",
        };
        match self {
            Self::Value { reported, exact, extensions: None, deeper_explains } => {
                format!(
                    "the value is wrong: the engine says {reported}, the exact value is {}{from}{}",
                    side(*exact),
                    deeper_hint(*deeper_explains)
                )
            }
            Self::Value { reported, exact, extensions: Some((lowest, highest)), .. } => {
                let (lowest, highest) = if side(*lowest) <= side(*highest) {
                    (side(*lowest), side(*highest))
                } else {
                    (side(*highest), side(*lowest))
                };
                format!(
                    "the value is no extension's: the engine says {reported}, the exact value is {} and the \
                     extensions give values from {lowest} to {highest}{from}",
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
                "the move is wrong: after move {played} the root is worth {}, but its value is {} (move {best} \
                 keeps it){from}",
                side(*after),
                side(*exact)
            ),
            Self::Record { violation, record, storer, caller, deeper_explains } => {
                let explained = audit::Explained {
                    violation,
                    record,
                    caller: caller.as_deref(),
                    storer: storer.as_deref(),
                    citation: audit::Citation::Number,
                };
                format!("{explained}{}", deeper_hint(*deeper_explains))
            }
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

/// "1 search", "2 searches".
fn counted(count: u64, one: &str, many: &str) -> String {
    if count == 1 { format!("1 {one}") } else { format!("{count} {many}") }
}

/// "1 move", "2 moves".
fn counted_moves(count: usize) -> String {
    counted(count as u64, "move", "moves")
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
/// the records first (a broken rule names the node where a bug acts, its earliest cause), then the
/// value, then the move.
///
/// # Errors
/// [`Undecided`] when a judgement needs more than [`Config::budget`] nodes.
pub fn judge(case: &Case, answer: &Answer, config: &Config) -> Result<Option<Disagreement>, Undecided> {
    let tree = &case.tree;
    let root = tree.root_id();
    let mut judge = Judge { tree, config, memo: HashMap::new() };
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
            let record = Box::new(answer.records[violation.record].clone());
            let storer = violation.stored_by.map(|index| Box::new(answer.records[index].clone()));
            let caller = violation.caller.map(|index| Box::new(answer.records[index].clone()));
            // The record alone, read by the witness criterion: whether a deeper entry explains it.
            let deeper_explains = !config.deeper_entries
                && audit::audit(
                    tree,
                    std::slice::from_ref(&*record),
                    &audit::Options { deeper_entries: true, ..options },
                )
                .holds();
            return Ok(Some(Disagreement::Record { violation, record, storer, caller, deeper_explains }));
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

/// Where a run stands, after each case and each shrink candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Cases tried so far, of the run's, and how the last one went.
    Cases {
        /// Tried.
        done: u64,
        /// In the run.
        total: u64,
        /// The case just judged.
        judged: Judged,
    },
    /// Shrinking the case that disagreed.
    Shrinking {
        /// Candidates tried.
        tests: u64,
        /// Nodes of the smallest case so far.
        nodes: usize,
    },
}

/// One case as a run's summary counts it: its family, its depth, and how it went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judged {
    /// The case's family ([`Family::Own`] for a position of a game fuzzed with [`fuzz_game`]).
    pub family: Option<Family>,
    /// The depth it was searched to.
    pub depth: u32,
    /// How it went.
    pub verdict: Verdict,
}

/// How one case went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The engine's answer agrees.
    Agreed,
    /// It disagrees.
    Disagreed,
    /// The engine declined the case.
    Declined,
    /// Judging it needed more than [`Config::budget`] nodes.
    Undecided,
    /// The engine failed on it.
    Failed,
}

/// A case the engine disagreed on, and the smallest one it still disagrees on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The case's index in the run.
    pub index: u64,
    /// The case as drawn.
    pub original: Case,
    /// The smallest case found that still disagrees.
    pub shrunk: Case,
    /// The disagreement on the shrunk case.
    pub disagreement: Disagreement,
    /// Candidates tried while shrinking.
    pub tests: u64,
    /// The side the engine's values are from, for the report.
    pub perspective: Perspective,
    /// Whether the engine, asked the case again, disagreed the same way. A shrink trusts that an
    /// engine answers a case the same way each time; one that did not (it draws random numbers,
    /// keeps a table between cases, depends on the time) is reported on the case as drawn, not
    /// shrunk, and `shrunk` is that case.
    pub steady: bool,
}

impl Found {
    /// The case drawn (`original`, the run's case `index`) and the case it was shrunk to in `tests`
    /// candidates, where the engine disagrees as `disagreement` says.
    fn shrunk(
        index: u64,
        original: Case,
        shrunk: Case,
        disagreement: Disagreement,
        tests: u64,
        config: &Config,
    ) -> Self {
        Self { index, original, shrunk, disagreement, tests, perspective: config.perspective, steady: true }
    }

    /// The case drawn, not shrunk: asked again, the engine answered it another way.
    fn unsteady(index: u64, original: Case, disagreement: Disagreement, config: &Config) -> Self {
        let shrunk = original.clone();
        Self {
            index,
            original,
            shrunk,
            disagreement,
            tests: 0,
            perspective: config.perspective,
            steady: false,
        }
    }

    /// A report in a few lines: the case, the shrunk case, what is wrong.
    #[must_use]
    pub fn report(&self) -> String {
        let stats = |case: &Case| case.tree.stats().nodes;
        let depth = |case: &Case| {
            if case.depth >= case.tree.height() {
                format!("depth {} (to the end)", case.depth)
            } else {
                format!("depth {}", case.depth)
            }
        };
        let nodes = |case: &Case| match stats(case) {
            1 => "1 node".to_owned(),
            many => format!("{many} nodes"),
        };
        let shrunk = if self.steady {
            format!("shrunk in {} tests to {}, {}", self.tests, depth(&self.shrunk), nodes(&self.shrunk))
        } else {
            "not shrunk: asked again, the engine answered it another way, and a shrink needs an engine \
             that answers a case the same way each time"
                .to_owned()
        };
        format!(
            "case {} ({}): {}, {}; {shrunk}:\n{}\n{}",
            self.index,
            self.original.origin,
            depth(&self.original),
            nodes(&self.original),
            self.shrunk.tree.to_string().trim_end(),
            self.disagreement.describe(self.perspective, self.shrunk.tree.player(self.shrunk.tree.root_id())),
        )
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome<E> {
    /// Every case agreed (or was beyond the budget to judge).
    Agreed {
        /// Cases judged and agreed.
        agreed: u64,
        /// Cases left undecided: their judgement needed more than [`Config::budget`] nodes.
        undecided: u64,
        /// Cases the engine declined ([`Reply::Skip`]).
        skipped: u64,
    },
    /// A case disagreed; shrunk.
    Disagreed(Box<Found>),
    /// The engine could not answer a case.
    EngineFailed {
        /// The case's index in the run.
        index: u64,
        /// The case.
        case: Box<Case>,
        /// The engine's error.
        error: E,
    },
    /// The engine panicked on a case.
    Panicked {
        /// The case's index in the run.
        index: u64,
        /// The case.
        case: Box<Case>,
        /// The panic's message.
        message: String,
    },
    /// With [`Config::keep_going`]: every case was run, and the first case of each kind of
    /// disagreement or failure shrunk.
    Several(Box<Several<E>>),
    /// The configuration cannot draw cases.
    Config(ConfigError),
}

/// What a run that went on after each disagreement found ([`fuzz_keep_going`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Several<E> {
    /// Cases judged and agreed.
    pub agreed: u64,
    /// Cases beyond the budget to judge.
    pub undecided: u64,
    /// Cases the engine declined.
    pub skipped: u64,
    /// Each kind of disagreement or failure met, in the order first met.
    pub kinds: Vec<Kind<E>>,
}

/// One kind of disagreement (a wrong value, a wrong move, a broken rule by rule) or of failure
/// (as the run's classifier names it), its count, and its first case shrunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kind<E> {
    /// The kind's name: `a wrong value`, `a wrong move`, `the fail-low rule`, or a failure's.
    pub name: String,
    /// How many cases were of this kind.
    pub count: u64,
    /// The first case of the kind, shrunk: a disagreement, or a failure.
    pub first: Result<Found, FailureFound<E>>,
}

/// A case the engine failed on, and the smallest one it still fails on the same way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailureFound<E> {
    /// The case's index in the run.
    pub index: u64,
    /// The case as drawn.
    pub original: Case,
    /// The smallest case found on which it fails the same way.
    pub shrunk: Case,
    /// How it failed there.
    pub failure: Failure<E>,
    /// Candidates tried while shrinking.
    pub tests: u64,
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
        }
    }
}

/// Runs `engine` on every one of [`Config::cases`] cases, whatever they find, and shrinks the
/// first case of each kind: a disagreement by [`Disagreement::kind_name`] (shrunk as
/// [`shrink_case`] does, keeping that name), a failure by what `failure_kind` names it (shrunk
/// as [`shrink_failure`] does, keeping that name). Every bug an engine has, in one run.
pub fn fuzz_keep_going<E, R: Into<Reply>>(
    config: &Config,
    mut engine: impl FnMut(&Case) -> Result<R, E>,
    failure_kind: impl Fn(&Failure<E>) -> String,
    mut progress: impl FnMut(Progress),
) -> Result<Several<E>, ConfigError> {
    config.validate()?;
    let mut several = Several { agreed: 0, undecided: 0, skipped: 0, kinds: Vec::new() };
    // The first case of each kind, unshrunk, and the counts.
    let mut firsts: Vec<First<E>> = Vec::new();
    let family_of = |index: u64| {
        config.families.get(usize::try_from(index % config.families.len() as u64).ok()?).copied()
    };
    for index in 0..config.cases {
        let case = config.case(index)?;
        let verdict = match ask(&mut engine, &case) {
            Err(failure) => {
                let name = failure_kind(&failure);
                count_kind(&mut firsts, name, index, &case, Err(failure));
                Verdict::Failed
            }
            Ok(None) => {
                several.skipped += 1;
                Verdict::Declined
            }
            Ok(Some(answer)) => match judge(&case, &answer, config) {
                Ok(None) => {
                    several.agreed += 1;
                    Verdict::Agreed
                }
                Err(Undecided { .. }) => {
                    several.undecided += 1;
                    Verdict::Undecided
                }
                Ok(Some(disagreement)) => {
                    count_kind(&mut firsts, disagreement.kind_name(), index, &case, Ok(disagreement));
                    Verdict::Disagreed
                }
            },
        };
        let judged = Judged { family: family_of(index), depth: case.depth, verdict };
        progress(Progress::Cases { done: index + 1, total: config.cases, judged });
    }
    for First { name, count, index, case, found } in firsts {
        let first = match found {
            Ok(disagreement) => {
                let steady = disagreement_on(&mut engine, &case, config) == Some(disagreement.clone());
                // Shrunk within its kind, to the rule: a case does not slip to another kind, which
                // has its own entry.
                let same_kind = |candidate: &Case| {
                    disagreement_on(&mut engine, candidate, config).filter(|found| found.kind_name() == name)
                };
                if steady {
                    let (shrunk, disagreement, tests) =
                        shrink_while(&case, disagreement, config, same_kind, &mut progress);
                    Ok(Found::shrunk(index, case, shrunk, disagreement, tests, config))
                } else {
                    Ok(Found::unsteady(index, case, disagreement, config))
                }
            }
            Err(failure) => {
                let same = |other: &Failure<E>| failure_kind(other) == name;
                let (shrunk, failure, tests) =
                    shrink_failure(&case, failure, config, &mut engine, same, &mut progress);
                Err(FailureFound { index, original: case, shrunk, failure, tests })
            }
        };
        several.kinds.push(Kind { name, count, first });
    }
    Ok(several)
}

/// The first case of a kind met while a run goes on, not shrunk yet, and the kind's count.
struct First<E> {
    name: String,
    count: u64,
    index: u64,
    case: Case,
    found: Result<Disagreement, Failure<E>>,
}

/// Counts a case of the kind `name`, keeping it if it is the kind's first.
fn count_kind<E>(
    firsts: &mut Vec<First<E>>,
    name: String,
    index: u64,
    case: &Case,
    found: Result<Disagreement, Failure<E>>,
) {
    match firsts.iter_mut().find(|first| first.name == name) {
        Some(first) => first.count += 1,
        None => firsts.push(First { name, count: 1, index, case: case.clone(), found }),
    }
}

/// Runs `engine` on [`Config::cases`] cases, judges each ([`judge`]) and shrinks the first that
/// disagrees ([`shrink_case`]), once the engine, asked that case again, disagrees the same way
/// (otherwise it is reported as drawn: [`Found::steady`]). See the [module documentation](self).
pub fn fuzz<E, R: Into<Reply>>(
    config: &Config,
    mut engine: impl FnMut(&Case) -> Result<R, E>,
    mut progress: impl FnMut(Progress),
) -> Outcome<E> {
    if let Err(error) = config.validate() {
        return Outcome::Config(error);
    }
    if config.keep_going {
        let kind = |failure: &Failure<E>| match failure {
            Failure::Error(_) => "an engine failure".to_owned(),
            Failure::Panic(_) => "a panic".to_owned(),
        };
        return match fuzz_keep_going(config, engine, kind, progress) {
            Ok(several) => Outcome::Several(Box::new(several)),
            Err(error) => Outcome::Config(error),
        };
    }
    let family_of = |index: u64| {
        config.families.get(usize::try_from(index % config.families.len() as u64).ok()?).copied()
    };
    let tried =
        run_cases(config, |index| config.case(index), &mut engine, |case| case, family_of, &mut progress);
    match tried {
        Tried::Agreed { agreed, undecided, skipped } => Outcome::Agreed { agreed, undecided, skipped },
        Tried::Config(error) => Outcome::Config(error),
        Tried::Failed { index, case, error: Failure::Error(error) } => {
            Outcome::EngineFailed { index, case: Box::new(case), error }
        }
        Tried::Failed { index, case, error: Failure::Panic(message) } => {
            Outcome::Panicked { index, case: Box::new(case), message }
        }
        Tried::Disagreed { index, case, disagreement } => {
            if disagreement_on(&mut engine, &case, config) != Some(disagreement.clone()) {
                return Outcome::Disagreed(Box::new(Found::unsteady(index, case, disagreement, config)));
            }
            let (shrunk, disagreement, tests) =
                shrink_case(&case, disagreement, config, &mut engine, &mut progress);
            Outcome::Disagreed(Box::new(Found::shrunk(index, case, shrunk, disagreement, tests, config)))
        }
    }
}

/// The disagreement the engine's answer to `case` shows; `None` when it agrees, declines, fails or
/// cannot be judged within the budget. What a shrink keeps a candidate by, and how a case is asked
/// again.
fn disagreement_on<E, R: Into<Reply>>(
    engine: &mut impl FnMut(&Case) -> Result<R, E>,
    case: &Case,
    config: &Config,
) -> Option<Disagreement> {
    let answer = ask(engine, case).ok()??;
    judge(case, &answer, config).ok().flatten()
}

/// How the cases of a run went, up to the first that disagreed or failed.
enum Tried<C, E> {
    Agreed { agreed: u64, undecided: u64, skipped: u64 },
    Disagreed { index: u64, case: C, disagreement: Disagreement },
    Failed { index: u64, case: C, error: Failure<E> },
    Config(ConfigError),
}

/// The loop every run shares, whatever its cases are: case `i` drawn by `draw`, answered by
/// `answer` (`None`: the engine declined it), and its tree (`tree_of`) judged, until one disagrees
/// or the engine fails.
fn run_cases<C, E, R: Into<Reply>>(
    config: &Config,
    mut draw: impl FnMut(u64) -> Result<C, ConfigError>,
    engine: &mut impl FnMut(&C) -> Result<R, E>,
    tree_of: impl Fn(&C) -> &Case,
    family_of: impl Fn(u64) -> Option<Family>,
    progress: &mut impl FnMut(Progress),
) -> Tried<C, E> {
    let (mut agreed, mut undecided, mut skipped) = (0, 0, 0);
    for index in 0..config.cases {
        let case = match draw(index) {
            Ok(case) => case,
            Err(error) => return Tried::Config(error),
        };
        let mut report = |verdict| {
            let judged = Judged { family: family_of(index), depth: tree_of(&case).depth, verdict };
            progress(Progress::Cases { done: index + 1, total: config.cases, judged });
        };
        match ask(engine, &case) {
            Err(error) => {
                report(Verdict::Failed);
                return Tried::Failed { index, case, error };
            }
            Ok(None) => {
                skipped += 1;
                report(Verdict::Declined);
            }
            Ok(Some(answer)) => match judge(tree_of(&case), &answer, config) {
                Ok(None) => {
                    agreed += 1;
                    report(Verdict::Agreed);
                }
                Err(Undecided { .. }) => {
                    undecided += 1;
                    report(Verdict::Undecided);
                }
                Ok(Some(disagreement)) => {
                    report(Verdict::Disagreed);
                    return Tried::Disagreed { index, case, disagreement };
                }
            },
        }
    }
    Tried::Agreed { agreed, undecided, skipped }
}

/// The smallest case found on which `engine` still disagrees in the same way (its records, its
/// value or its move), starting from `case` (on which it disagreed as `disagreement` says): the tree shrunk at its depth, then the depth lowered by one
/// while it still disagrees, each shallower depth shrinking the tree again, to a fixpoint. Returns
/// the case, its disagreement and the candidates tried (at most [`Config::max_shrink_tests`]).
pub fn shrink_case<E, R: Into<Reply>>(
    case: &Case,
    disagreement: Disagreement,
    config: &Config,
    mut engine: impl FnMut(&Case) -> Result<R, E>,
    progress: impl FnMut(Progress),
) -> (Case, Disagreement, u64) {
    let kind = disagreement.kind();
    // A candidate the engine cannot answer or declines, that cannot be judged within the budget, or
    // that it gets wrong in another way, is not kept.
    let disagrees = |candidate: &Case| {
        disagreement_on(&mut engine, candidate, config).filter(|found| found.kind() == kind)
    };
    shrink_while(case, disagreement, config, disagrees, progress)
}

/// The smallest case found on which `engine` still fails as `same` says it failed on `case`
/// (with `failure`): a crash stays a crash, a timeout a timeout, as `same` tells them apart. The
/// same steps as [`shrink_case`]; a candidate the engine answers, declines or fails on another way
/// is not kept. Returns the case, its failure and the candidates tried.
pub fn shrink_failure<E, R: Into<Reply>>(
    case: &Case,
    failure: Failure<E>,
    config: &Config,
    mut engine: impl FnMut(&Case) -> Result<R, E>,
    same: impl Fn(&Failure<E>) -> bool,
    progress: impl FnMut(Progress),
) -> (Case, Failure<E>, u64) {
    let fails = |candidate: &Case| -> Option<Failure<E>> { ask(&mut engine, candidate).err().filter(&same) };
    shrink_while(case, failure, config, fails, progress)
}

/// The shrinking loop both share: the tree shrunk at its depth, then the depth lowered by one while
/// `holds` still finds what it looks for, each shallower depth shrinking the tree again, to a
/// fixpoint.
fn shrink_while<T>(
    case: &Case,
    found: T,
    config: &Config,
    mut holds: impl FnMut(&Case) -> Option<T>,
    mut progress: impl FnMut(Progress),
) -> (Case, T, u64) {
    let tests = Cell::new(0u64);
    let mut disagrees = |candidate: &Case| -> Option<T> {
        tests.set(tests.get() + 1);
        holds(candidate)
    };
    let mut best = (case.clone(), found);
    // No candidate goes below the least depth a case may have.
    let floor = config.least_depth();
    loop {
        // A depth past the height searches the same tree: the height is the smallest such depth.
        let height = best.0.tree.height().max(floor);
        if best.0.depth > height {
            let candidate = Case { depth: height, ..best.0.clone() };
            if let Some(disagreement) = disagrees(&candidate) {
                best = (candidate, disagreement);
            }
        }
        // Candidates come from the last tree kept; a shorter one is tried at the same depth, and
        // then at the depth as far above its leaves as before, so that hoisting keeps a bug that
        // shows at the horizon.
        let (mut depth, mut height) = (best.0.depth, best.0.tree.height());
        let mut found = None;
        let shrunk = try_shrink(
            &best.0.tree,
            config.max_shrink_tests.saturating_sub(tests.get()),
            |tree| {
                let mut depths = vec![depth];
                if tree.height() < height && depth > floor {
                    depths.push(depth.saturating_sub(height - tree.height()).max(floor));
                }
                for candidate_depth in depths {
                    let candidate =
                        Case { tree: tree.clone(), depth: candidate_depth, origin: case.origin.clone() };
                    if let Some(disagreement) = disagrees(&candidate) {
                        // The shrinker keeps each candidate that fails, so the last one found is its result's.
                        (depth, height) = (candidate_depth, tree.height());
                        found = Some(disagreement);
                        return Ok::<_, std::convert::Infallible>(true);
                    }
                }
                Ok(false)
            },
            |step| progress(Progress::Shrinking { tests: tests.get(), nodes: step.nodes }),
        );
        let Ok(shrunk) = shrunk;
        if let Some(disagreement) = found {
            best = (Case { tree: shrunk.tree, depth, origin: case.origin.clone() }, disagreement);
        }
        if depth <= floor || !shrunk.complete || tests.get() >= config.max_shrink_tests {
            break;
        }
        let candidate = Case { depth: depth - 1, ..best.0.clone() };
        match disagrees(&candidate) {
            Some(disagreement) => best = (candidate, disagreement),
            None => break,
        }
    }
    let (case, disagreement) = best;
    (case, disagreement, tests.get())
}
