//! The vocabulary every driver shares: what a driver is ([`DriverInfo`]), how it is asked to search
//! ([`SearchParams`]), who hears about it while it searches ([`Hooks`], the node events of
//! [`observe`]), and what it reports
//! ([`Outcome`], with its [`Counts`], root [`Pass`]es and completed [`Iteration`]s).
//!
//! This module sits at the bottom of the crate: the reference searches, the literal translations and
//! the engine all speak it, and none of them knows the [catalogue](crate::registry) that lists them.
//!
//! ```
//! use nullwindow::driver::SearchParams;
//! use nullwindow::search::{Algorithm, Engine};
//! use nullwindow::tree::Tree;
//!
//! let tree: Tree = "((3 17) (2 12) (15 (25 0)))".parse()?;
//! // The same parameters serve the oracle's one-shot searches and an engine's deepening search.
//! let params = SearchParams { iterative_deepening: true, ..SearchParams::default() };
//! let outcome = Engine::new(&params).search(&tree, Algorithm::Mtdf, &params, |_| {});
//! assert_eq!((outcome.value, outcome.best_move, outcome.iterations.len()), (15, Some(2), 3));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::game::Game;
use crate::value::Value;

pub mod observe;

pub use observe::{Call, Observer, Perspective};

/// Where a driver comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "lowercase"))]
pub enum Kind {
    /// Plain minimax, the oracle.
    Reference,
    /// A line-by-line translation of a source document's pseudo-code.
    Literal,
    /// The crate's engine, as a real program would search.
    Optimized,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Reference => "reference",
            Self::Literal => "literal",
            Self::Optimized => "optimized",
        })
    }
}

/// What the catalogue knows about a driver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DriverInfo {
    /// The name used on the command line.
    pub name: &'static str,
    /// Reference, literal or optimized.
    pub kind: Kind,
    /// The document (or publication) the driver follows, by author and title.
    pub source: &'static str,
    /// Whether it returns the minimax value on every tree. A faithful translation of a listing that
    /// the tests show to be wrong is kept, marked inexact, and left out of `all`.
    pub exact: bool,
    /// Whether it makes null-window (or narrow-window) passes at the root, and so reports them in
    /// [`Outcome::passes`].
    pub passes: bool,
    /// Whether it searches every depth from 1 up by its nature (the iterative-deepening
    /// translations), so that its cost grows with the square of the depth: on a tree thousands of
    /// levels deep it does not finish, and `nullwindow solve` leaves it out unless it is named.
    pub deepens: bool,
    /// Whether it keeps a transposition table, and so searches a position that several paths reach
    /// once per depth (or per window), not once per path: on a graph of transpositions the others
    /// walk the whole unfolded tree, which `nullwindow solve` leaves them out of when it is large
    /// unless they are named.
    pub table: bool,
}

/// Which earlier value iterative deepening hands to the next iteration as its first guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GuessFrom {
    /// The previous iteration (Plaat's default).
    PreviousIteration,
    /// Two iterations back, for programs whose values oscillate between odd and even depths (Plaat's
    /// page suggests it).
    TwoIterationsBack,
}

// ANCHOR: params
/// How to search: the one set of parameters that every driver, the engine, the oracle and the
/// command line share.
///
/// Every driver reads `depth` and `first_guess`. The rest are the engine's (the `optimized`
/// drivers and [`Engine`](crate::search::Engine)): the reference searches and the literal
/// translations search as their sources print them and ignore them. Every enhancement can be
/// switched off to measure what it buys.
#[derive(Clone, Debug)]
pub struct SearchParams {
    /// Plies to search; `u32::MAX` searches to the end of the game (iterating up to the game's
    /// [`depth_bound`](Game::depth_bound); a game without one is searched to the end at once).
    pub depth: u32,
    /// The first guess (from MAX's side) of drivers that take one; `None` lets each use its
    /// source's default (the engine: the root's static evaluation).
    pub first_guess: Option<Value>,
    /// Search depth 1, 2, … up to `depth`, each iteration seeding the next (the counts then include
    /// every iteration); otherwise only `depth`, at once.
    pub iterative_deepening: bool,
    /// Where an iteration's first guess comes from.
    pub guess_from: GuessFrom,
    /// Half-width of the aspiration window.
    pub aspiration_delta: Value,
    /// Transposition-table entries (rounded down to a power of two, at least 1, at most
    /// [`MAX_ENTRIES`](crate::search::table::MAX_ENTRIES)).
    pub tt_entries: usize,
    /// The shallowest nodes that use the table: a node searched fewer plies deep neither probes
    /// nor stores (leaves never do, whatever this says). `1`, the default, lets every interior
    /// node use it. Searching a node's few leaves again can cost less than a probe that misses the
    /// processor's caches, and results that are cheap to find then no longer push costly ones out
    /// of the table: `2` keeps out the nodes just above the leaves (the book's "Measuring",
    /// "The table near the leaves"). Only the work done and the counts depend on it, never a
    /// value. A game can also keep positions of its choice out ([`Game::uses_table`]).
    pub table_min_depth: u32,
    /// Search the table's best move first.
    pub table_move_first: bool,
    /// Killer moves.
    pub killers: bool,
    /// The history heuristic (for games that define history slots).
    pub history: bool,
    /// Enhanced transposition cutoff: look for a child whose stored bound refutes the window before
    /// searching any.
    pub enhanced_transposition_cutoff: bool,
    /// Let table entries of *deeper* searches answer a node, as most engines do. The result is then
    /// no longer the depth-`d` minimax value: it is the alpha-beta result of some all-or-none
    /// extension of the depth-`d` tree ([`crate::theory::witness`], Wesselink et al.'s criterion).
    /// Two searches of one node may now see different extensions, so nothing may combine their
    /// results as if they were bounds on one number. In this mode, therefore:
    ///
    /// * an entry only *answers* a node (an exact value, or a bound that decides the window) and
    ///   never narrows the window, and the table does not merge bounds: the scheme the study verifies
    ///   (narrowing by a deeper bound is Marsland's scheme, which it refutes);
    /// * PVS and NegaScout re-search from the current best, not from the null-window result, and
    ///   NegaScout keeps the better of its two results and re-searches near the horizon too;
    /// * an MTD driver confirms the value its passes meet at with one search of the window
    ///   `(g - 1, g + 1)`, and falls back to a full window if that search disagrees.
    ///
    /// The tests in `tests/suite/witness.rs` fail without each of these. Off by default: every
    /// driver then returns exactly the depth-`d` value.
    pub deeper_entries: bool,
    /// Make every search return its result clamped to the window it was called with, as a
    /// fail-hard search does: `alpha` for a value at most `alpha`, `beta` for one at least `beta`.
    /// Still exact, never faster: it is there to show what failing hard costs (an MTD driver's
    /// pass then moves a root bound by one unit at most, so it takes as many passes as its first
    /// guess is off: SSS* and DUAL*, which start at `±INFINITY`, some 10^9; see
    /// [`Algorithm::starts_at_infinity`](crate::search::Algorithm::starts_at_infinity)).
    pub fail_hard: bool,
    /// Search the root once with this window `(alpha, beta)`, from MAX's side, instead of the full
    /// window: the drivers built on one alpha-beta call (alpha-beta, PVS, NegaScout) then return a
    /// fail-soft bound or the value, and no principal variation is verified. `None` (the default)
    /// searches the full window; the other drivers choose their own windows and ignore it.
    pub root_window: Option<(Value, Value)>,
    /// Stop after visiting this many nodes (the engine reports the last completed iteration).
    pub node_limit: Option<u64>,
    /// Stop after this much wall time.
    pub time_limit: Option<Duration>,
    /// Stop when this flag becomes true (checked every 1024 nodes).
    pub cancel: Option<Arc<AtomicBool>>,
}
// ANCHOR_END: params

impl Default for SearchParams {
    /// The oracle's defaults: the whole game at once (no iterative deepening), each driver's own
    /// first guess, 2^16 table entries used at every interior node, every ordering enhancement on
    /// but enhanced transposition cutoff, aspiration windows of ±50, no deeper entries, no limits.
    fn default() -> Self {
        Self {
            depth: u32::MAX,
            first_guess: None,
            iterative_deepening: false,
            guess_from: GuessFrom::PreviousIteration,
            aspiration_delta: 50,
            tt_entries: 1 << 16,
            table_min_depth: 1,
            table_move_first: true,
            killers: true,
            history: true,
            enhanced_transposition_cutoff: false,
            deeper_entries: false,
            fail_hard: false,
            root_window: None,
            node_limit: None,
            time_limit: None,
            cancel: None,
        }
    }
}

/// How much of the tree a search looked at. The reference searches and the literal translations
/// count `leaves` and `nodes`; the engine counts everything.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Counts {
    /// Calls of [`Game::evaluate`]: terminal positions and depth cut-offs.
    pub leaves: u64,
    /// Nodes visited: every call of the recursive search (re-visits in later passes and iterations
    /// count again).
    pub nodes: u64,
    /// Table probes (the engine probes at every interior node that [uses the
    /// table](SearchParams::table_min_depth)).
    pub probes: u64,
    /// Probes that found the position at a depth that may answer it.
    pub hits: u64,
    /// Beta cut-offs.
    pub cutoffs: u64,
    /// Nodes visited by the null-window tests that verify the engine's principal variation, counted
    /// apart so that `nodes` and `leaves` measure the search alone.
    pub verification_nodes: u64,
}

impl Counts {
    /// The counts of two searches together (of a parallel search's threads), each sum saturating.
    #[must_use]
    pub const fn plus(&self, other: &Self) -> Self {
        Self {
            leaves: self.leaves.saturating_add(other.leaves),
            nodes: self.nodes.saturating_add(other.nodes),
            probes: self.probes.saturating_add(other.probes),
            hits: self.hits.saturating_add(other.hits),
            cutoffs: self.cutoffs.saturating_add(other.cutoffs),
            verification_nodes: self.verification_nodes.saturating_add(other.verification_nodes),
        }
    }
}

/// One null-window (or narrow-window) call at the root, as MTD drivers make them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Pass {
    /// The window's lower edge.
    pub alpha: Value,
    /// The window's upper edge.
    pub beta: Value,
    /// What the call returned: an upper bound if `result <= alpha`, a lower bound if `result >= beta`.
    pub result: Value,
}

impl Pass {
    /// The bounds on the root's value after this pass, given the bounds before it: a result that
    /// fails low is a new upper bound, one that fails high a new lower bound, and one inside the
    /// window is the value itself.
    ///
    /// ```
    /// use nullwindow::driver::Pass;
    ///
    /// let bounds = (-100, 100);
    /// assert_eq!(Pass { alpha: 4, beta: 5, result: 3 }.narrow(bounds), (-100, 3));
    /// assert_eq!(Pass { alpha: 4, beta: 5, result: 7 }.narrow(bounds), (7, 100));
    /// assert_eq!(Pass { alpha: 0, beta: 9, result: 6 }.narrow(bounds), (6, 6));
    /// ```
    #[must_use]
    pub const fn narrow(&self, (lower, upper): (Value, Value)) -> (Value, Value) {
        if self.result <= self.alpha {
            (lower, self.result)
        } else if self.result >= self.beta {
            (self.result, upper)
        } else {
            (self.result, self.result)
        }
    }
}

/// One completed iteration of a search that deepens iteratively: what the engine reports as it
/// goes, for progress on long searches. (Not comparable: its time differs from run to run.)
#[derive(Clone, Debug)]
pub struct Iteration<M> {
    /// The depth searched.
    pub depth: u32,
    /// The first guess it started from, from MAX's side (the driver's own, for those that take one).
    pub first_guess: Value,
    /// The value, from MAX's side.
    pub value: Value,
    /// The principal variation found.
    pub principal_variation: Vec<M>,
    /// The root passes made (MTD and aspiration drivers).
    pub passes: Vec<Pass>,
    /// The counts of the whole search so far.
    pub counts: Counts,
    /// Time since the search started.
    pub elapsed: Duration,
}

/// What a driver reports: the one result type of every search in the crate. (Not comparable as a
/// whole: its time differs from run to run; compare its fields.)
#[derive(Clone, Debug)]
pub struct Outcome<M> {
    /// The value found, from MAX's side (for a search stopped by a limit: the last completed
    /// iteration's, or the root's static evaluation if none completed).
    pub value: Value,
    /// What the search counted.
    pub counts: Counts,
    /// Every root pass, in order, of a driver that makes them ([`DriverInfo::passes`]); `None` for
    /// the others.
    pub passes: Option<Vec<Pass>>,
    /// The first move of the principal variation (the engine's drivers; `None` for the others).
    pub best_move: Option<M>,
    /// A legal line from the root whose end position evaluates (from MAX's side) to `value`: the
    /// engine's drivers find one; the others leave it empty.
    pub principal_variation: Vec<M>,
    /// The depth the value is for: the last completed iteration's, or the requested depth capped by
    /// the game's [`depth_bound`](Game::depth_bound) (`u32::MAX`: to the end of a game that knows
    /// no bound).
    pub depth: u32,
    /// Whether a limit stopped the search before the requested depth.
    pub stopped: bool,
    /// The engine's completed iterations, in order (one when it does not deepen iteratively). Only
    /// the last keeps its principal variation (the progress hook hears each one's), so that memory
    /// grows with the depth, not with its square.
    pub iterations: Vec<Iteration<M>>,
    /// Wall time of the whole search.
    pub elapsed: Duration,
}

impl<M> Outcome<M> {
    /// The outcome of a search that makes one search of `depth` (or a fixed set of passes) and
    /// finds no line: no best move, no iterations.
    #[must_use]
    pub const fn single(value: Value, counts: Counts, depth: u32, elapsed: Duration) -> Self {
        Self {
            value,
            counts,
            passes: None,
            best_move: None,
            principal_variation: Vec::new(),
            depth,
            stopped: false,
            iterations: Vec::new(),
            elapsed,
        }
    }
}

/// Hears of each completed iteration ([`Hooks::progress`]).
pub type ProgressHook<'a, M> = &'a mut dyn FnMut(&Iteration<M>);

/// What a caller hears about while a driver searches: each completed iteration, and every node
/// ([`observe`]). Each is optional; every driver speaks to the observer, and the engine's drivers
/// alone to `progress`, the only ones that iterate.
pub struct Hooks<'a, G: Game> {
    /// Each completed iteration of the engine's drivers.
    pub progress: Option<ProgressHook<'a, G::Move>>,
    /// Every node entered, evaluated and returned, by every driver.
    pub observer: Option<&'a mut dyn Observer<G>>,
}

impl<G: Game> Default for Hooks<'_, G> {
    /// No hooks: the driver searches in silence.
    fn default() -> Self {
        Self { progress: None, observer: None }
    }
}

impl<'a, G: Game> Hooks<'a, G> {
    /// Hooks with `observer` alone.
    #[must_use]
    pub fn observed(observer: &'a mut dyn Observer<G>) -> Self {
        Self { progress: None, observer: Some(observer) }
    }
}

/// A driver's entry point: a complete search of `game` from `root` with `params`, telling `hooks`
/// what it does. Every driver in the [catalogue](crate::registry) is one of these.
pub type Entry<G> = for<'a> fn(
    game: &'a G,
    root: &<G as Game>::Position,
    params: &SearchParams,
    hooks: Hooks<'a, G>,
) -> Outcome<<G as Game>::Move>;

/// The depth a driver asked for `depth` searches from `root`: the request, capped by the game's
/// [`depth_bound`](Game::depth_bound) when it knows one.
pub fn capped_depth<G: Game>(game: &G, root: &G::Position, depth: u32) -> u32 {
    game.depth_bound(root).map_or(depth, |bound| bound.min(depth))
}
