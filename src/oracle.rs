//! The oracle: run drivers on a game and check each against plain minimax.
//!
//! This is what `nullwindow solve` does, as a library call an engine author can make from their own
//! tests.
//!
//! ```
//! use nullwindow::driver::SearchParams;
//! use nullwindow::oracle::solve;
//! use nullwindow::registry::Driver;
//! use nullwindow::tree::Tree;
//!
//! let tree: Tree = "((3 17) (2 12) (15 (25 0)))".parse()?;
//! let report = solve(&tree, &Driver::select("all")?, &SearchParams::default());
//! assert_eq!(report.value, 15);
//! assert!(report.disagreements().next().is_none());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Beyond the root value, [`audit`] checks another engine's search node by node, [`consistency`]
//! holds a selective engine's records to the rules of its own search, [`harness`] fuzzes
//! an engine on seeded cases and shrinks the first it gets wrong, [`proof`] proves a claim about a
//! position's value without valuing every position below it, and [`protocol`] lets the oracle
//! search a game that an engine in any language serves.

pub mod audit;
pub mod consistency;
pub mod harness;
pub mod proof;
pub mod protocol;
pub mod record;
#[cfg(feature = "process")]
pub mod runner;

use std::collections::HashMap;

use crate::driver::{Hooks, Iteration, Outcome, SearchParams};
use crate::game::Game;
use crate::registry::Driver;
use crate::search::Engine;
use crate::value::Value;

/// One driver's run.
#[derive(Clone, Debug)]
pub struct DriverResult<M> {
    /// The driver.
    pub driver: Driver,
    /// What it returned.
    pub outcome: Outcome<M>,
}

/// The oracle's verdict: the exact value beside every driver's [`Outcome`].
#[derive(Clone, Debug)]
pub struct Report<M> {
    /// The minimax value at the requested depth.
    pub value: Value,
    /// Each driver's result, in the order asked for.
    pub results: Vec<DriverResult<M>>,
}

impl<M> Report<M> {
    /// The results whose value differs from the minimax value.
    pub fn disagreements(&self) -> impl Iterator<Item = &DriverResult<M>> {
        self.results.iter().filter(|result| result.outcome.value != self.value)
    }
}

/// Computes the minimax value of `game` at `params.depth`, then runs each driver and records what it
/// returns.
#[must_use]
pub fn solve<G: Game>(game: &G, drivers: &[Driver], params: &SearchParams) -> Report<G::Move> {
    solve_with_progress(game, drivers, params, &mut |_, _| {})
}

/// As [`solve`], but the exact value comes from `reference` instead of plain minimax: for games too
/// large for minimax (Connect Four), an exact driver the tests hold to minimax on every tree.
#[must_use]
pub fn solve_against<G: Game>(
    game: &G,
    reference: Driver,
    drivers: &[Driver],
    params: &SearchParams,
    progress: &mut dyn FnMut(Driver, &Iteration<G::Move>),
) -> Report<G::Move> {
    let root = game.root();
    let results: Vec<DriverResult<G::Move>> = drivers
        .iter()
        .map(|&driver| {
            let mut progress = |iteration: &Iteration<G::Move>| progress(driver, iteration);
            let hooks = Hooks { progress: Some(&mut progress), ..Hooks::default() };
            let outcome = driver.run_from(game, &root, params, hooks);
            DriverResult { driver, outcome }
        })
        .collect();
    // The reference is searched once: when it is among the drivers, its own run gives the value.
    let value = match results.iter().find(|result| result.driver == reference) {
        Some(result) => result.outcome.value,
        None => Exact::new(game, reference).value_with(&root, params),
    };
    Report { value, results }
}

/// As [`solve`], reporting each completed iteration of the drivers that deepen iteratively, for
/// progress on long searches.
pub fn solve_with_progress<G: Game>(
    game: &G,
    drivers: &[Driver],
    params: &SearchParams,
    progress: &mut dyn FnMut(Driver, &Iteration<G::Move>),
) -> Report<G::Move> {
    solve_against(game, Driver::Minimax, drivers, params, progress)
}

/// Table entries of the engine behind an optimized reference driver, kept across the positions
/// `divide` and `check` value (32 MiB with a small move).
const REFERENCE_TABLE_ENTRIES: usize = 1 << 20;

/// Exact values of many positions of one game by one reference driver. An engine driver keeps one
/// engine, and so one table, across them: the positions `divide` and `check` value share most of
/// their subtrees (Connect Four's divide from four stones took minutes with a fresh table per move
/// and a fraction of a second with one). The table never lends a bound across depths, so the values
/// stay exact (`engine::a_table_reused_across_searches_stays_exact`).
///
/// Plain minimax keeps a memo instead, where the game's keys identify its positions: each position
/// is valued once per depth however many paths and records reach it
/// ([`crate::reference::minimax::memoized`]), so that a graph of transpositions costs its size, not
/// its number of paths.
struct Exact<'g, G: Game> {
    game: &'g G,
    reference: Driver,
    engine: Option<Engine<G>>,
    memo: HashMap<(u64, u32), Value>,
}

impl<'g, G: Game> Exact<'g, G> {
    fn new(game: &'g G, reference: Driver) -> Self {
        let params = Self::params(u32::MAX);
        Self {
            game,
            reference,
            engine: reference.algorithm().map(|_| Engine::new(&params)),
            memo: HashMap::new(),
        }
    }

    fn params(depth: u32) -> SearchParams {
        SearchParams { depth, tt_entries: REFERENCE_TABLE_ENTRIES, ..SearchParams::default() }
    }

    /// The exact value, from MAX's side, of `position` searched `depth` plies deep.
    fn value(&mut self, position: &G::Position, depth: u32) -> Value {
        self.value_with(position, &Self::params(depth))
    }

    /// The exact value, from MAX's side, of `position` searched as `params` say.
    /// As before the audit's limits: a stopped engine reference gives its last completed
    /// iteration's value, as the driver itself reports it, and minimax knows no node limit.
    fn value_with(&mut self, position: &G::Position, params: &SearchParams) -> Value {
        if let (Some(engine), Some(algorithm)) = (self.engine.as_mut(), self.reference.algorithm()) {
            return engine.search_from(self.game, position, algorithm, params, |_| {}).value;
        }
        let unlimited = SearchParams { node_limit: None, ..params.clone() };
        self.value_limited(position, &unlimited).unwrap_or_else(|| unreachable!("only a node limit stops it"))
    }

    /// The exact value, from MAX's side, of `position` searched `depth` plies deep, or `None` if
    /// finding it takes more than `limit` nodes.
    fn value_within(&mut self, position: &G::Position, depth: u32, limit: Option<u64>) -> Option<Value> {
        let params = SearchParams { node_limit: limit, ..Self::params(depth) };
        self.value_limited(position, &params)
    }

    /// The exact value, from MAX's side, of `position` searched as `params` say (within
    /// `params.node_limit` nodes, for the references that count them).
    fn value_limited(&mut self, position: &G::Position, params: &SearchParams) -> Option<Value> {
        match (self.engine.as_mut(), self.reference.algorithm()) {
            (Some(engine), Some(algorithm)) => {
                let outcome = engine.search_from(self.game, position, algorithm, params, |_| {});
                (!outcome.stopped).then_some(outcome.value)
            }
            _ if self.reference == Driver::Minimax => {
                let limit = params.node_limit.unwrap_or(u64::MAX);
                crate::reference::minimax::value(self.game, position, params.depth, &mut self.memo, limit)
            }
            _ => Some(self.reference.run_from(self.game, position, params, Hooks::default()).value),
        }
    }
}

/// Every legal move at the root ([`Game::legal_moves`], in the game's natural order, moves the
/// search's own list prunes included) with the exact value of the position it leads to, searched
/// `depth - 1` plies deeper (perft's *divide* for values): an engine author whose engine disagrees
/// with the oracle at the root compares these, finds the move whose value differs, and repeats from
/// there. Values are from MAX's side, like every driver's; `reference` is the exact driver used
/// ([`Driver::Minimax`] unless the game is too large for it).
///
/// ```
/// use nullwindow::oracle::divide;
/// use nullwindow::registry::Driver;
/// use nullwindow::tree::Tree;
///
/// let tree: Tree = "((3 17) (2 12) (15 (25 0)))".parse()?;
/// let values: Vec<i32> = divide(&tree, u32::MAX, Driver::Minimax).into_iter().map(|(_, v)| v).collect();
/// assert_eq!(values, [3, 2, 15]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn divide<G: Game>(game: &G, depth: u32, reference: Driver) -> Vec<(G::Move, Value)> {
    let root = game.root();
    if depth == 0 {
        return Vec::new();
    }
    let mut exact = Exact::new(game, reference);
    game.legal_moves(&root)
        .into_iter()
        .map(|mv| (mv, exact.value(&game.play(&root, mv), depth - 1)))
        .collect()
}

/// Where a claimed line first departs from the exact values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Departure<M> {
    /// The claimed root value is wrong.
    RootValue {
        /// The exact value (from MAX's side).
        exact: Value,
    },
    /// The move at this ply (1-based) is not legal in the position reached, or lies beyond the
    /// searched depth.
    IllegalMove {
        /// The ply of the move.
        ply: usize,
    },
    /// The claimed value after the move at this ply is wrong.
    Value {
        /// The ply of the move after which the value is claimed.
        ply: usize,
        /// The exact value (from MAX's side) of the position after that move.
        exact: Value,
    },
    /// The move at this ply is legal but not best: the line leaves the principal variation.
    NotBest {
        /// The ply of the move.
        ply: usize,
        /// The exact value after the move (from MAX's side).
        exact: Value,
        /// A best move there and its value.
        best: (M, Value),
    },
}

/// The verdict on a claimed value and line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckReport<M> {
    /// The exact root value (from MAX's side).
    pub exact: Value,
    /// The first departure, or `None` if every claim is exact.
    pub departure: Option<Departure<M>>,
    /// The moves from the root to the position where the departing move is played (all the moves of
    /// the line when nothing departs).
    pub path: Vec<M>,
}

/// Checks another engine's claim: a root value and, optionally, a principal variation given as
/// moves with the value claimed for the position after each (all values from MAX's side, searched
/// `depth` plies from the root). Reports the first ply where the claim departs from the exact
/// values: a wrong root value, an illegal move, a wrong value, or a move that is not best. A move is
/// legal when [`Game::legal_moves`] lists it, though the search's own move list may prune it.
///
/// ```
/// use nullwindow::oracle::{Departure, check};
/// use nullwindow::registry::Driver;
/// use nullwindow::tree::Tree;
///
/// let tree: Tree = "((3 17) (2 12) (15 (25 0)))".parse()?;
/// // The right line: the third move (index 2), then its first reply (index 0).
/// assert_eq!(check(&tree, u32::MAX, Driver::Minimax, 15, &[(2, 15), (0, 15)]).departure, None);
/// // A line that plays the first move claims 15 there, but that move is worth 3.
/// let report = check(&tree, u32::MAX, Driver::Minimax, 15, &[(0, 15)]);
/// assert_eq!(report.departure, Some(Departure::Value { ply: 1, exact: 3 }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn check<G: Game>(
    game: &G,
    depth: u32,
    reference: Driver,
    claimed_value: Value,
    claimed_line: &[(G::Move, Value)],
) -> CheckReport<G::Move> {
    let mut values = Exact::new(game, reference);
    let mut position = game.root();
    let exact = values.value(&position, depth);
    let mut report = CheckReport { exact, departure: None, path: Vec::new() };
    if claimed_value != exact {
        report.departure = Some(Departure::RootValue { exact });
        return report;
    }
    let mut parent_value = exact;
    for (index, &(mv, claimed)) in claimed_line.iter().enumerate() {
        let ply = index + 1;
        let remaining = depth.saturating_sub(index as u32);
        let legal = game.legal_moves(&position);
        if remaining == 0 || !legal.contains(&mv) {
            report.departure = Some(Departure::IllegalMove { ply });
            return report;
        }
        let child = game.play(&position, mv);
        let value = values.value(&child, remaining - 1);
        if claimed != value {
            report.departure = Some(Departure::Value { ply, exact: value });
            return report;
        }
        if value != parent_value {
            let best = legal
                .iter()
                .map(|&other| (other, values.value(&game.play(&position, other), remaining - 1)))
                .find(|&(_, other_value)| other_value == parent_value)
                .unwrap_or((mv, value));
            report.departure = Some(Departure::NotBest { ply, exact: value, best });
            return report;
        }
        report.path.push(mv);
        position = child;
        parent_value = value;
    }
    report
}
