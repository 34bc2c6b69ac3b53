//! The optimized engine: one negamax search with a transposition table, move ordering and iterative
//! deepening, driven nine ways.
//!
//! This is the code an engine author copies; the literal translations in the crate are measured
//! against it. Every driver returns exactly the minimax value at the requested depth (the table
//! never lends a bound across depths, see [`table`]), plus the best move, a principal variation
//! checked to be a legal line that reaches the value, and statistics.
//!
//! | [`Algorithm`] | root driver | recursive search |
//! |---|---|---|
//! | `alphabeta` | full window | [`alphabeta`] (fail-soft, with memory) |
//! | `aspiration` | window around the previous value, re-opened on failure | [`alphabeta`] |
//! | `pvs` | full window | [`pvs`] |
//! | `negascout` | full window | [`negascout`] |
//! | `mtdf` | MTD(f) from the previous value | [`alphabeta`] with null windows |
//! | `mtd-bi` | MTD by bisection (C*) | same |
//! | `mtd-pons` | MTD by bisection, half-way to the far bound first (Pons) | same |
//! | `sss` | MTD(+INFINITY), SSS* | same |
//! | `dual` | MTD(−INFINITY), DUAL* | same |
//!
//! ```
//! use nullwindow::search::{Algorithm, Engine, EngineConfig, Limits};
//! use nullwindow::tree::Tree;
//!
//! let tree: Tree = "((3 17) (2 12) (15 (25 0)))".parse()?;
//! let mut engine = Engine::new(EngineConfig::default());
//! let result = engine.search(&tree, Algorithm::Mtdf, &Limits::default(), |_| {});
//! assert_eq!(result.value, 15);
//! assert_eq!(result.best_move, Some(2));
//! assert_eq!(result.principal_variation, [2, 0]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod alphabeta;
pub mod aspiration;
pub mod mtd;
pub mod negascout;
pub mod ordering;
pub mod pvs;
mod searcher;
pub mod table;
pub mod trace;

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use self::mtd::Pivot;
use self::ordering::MoveOrdering;
use self::searcher::{Searcher, StopCheck};
use self::table::TranspositionTable;
use self::trace::Tracer;
use crate::game::Game;
use crate::outcome::{Counts, Outcome, Pass};
use crate::registry::{DriverInfo, Kind, Progress, SearchParams};
use crate::value::Value;

/// The nine drivers of the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Fail-soft alpha-beta with the full window.
    AlphaBeta,
    /// Alpha-beta with an aspiration window around the previous iteration's value.
    Aspiration,
    /// Principal variation search.
    Pvs,
    /// Reinefeld's NegaScout.
    NegaScout,
    /// MTD(f).
    Mtdf,
    /// MTD by bisection (C*).
    MtdBi,
    /// MTD by bisection that first tests half-way to the far bound: Pons' null-window search.
    MtdPons,
    /// SSS* as MTD(+INFINITY).
    Sss,
    /// DUAL* as MTD(−INFINITY).
    Dual,
}

impl Algorithm {
    /// Every algorithm, in registry order.
    pub const ALL: [Self; 9] = [
        Self::AlphaBeta,
        Self::Aspiration,
        Self::Pvs,
        Self::NegaScout,
        Self::Mtdf,
        Self::MtdBi,
        Self::MtdPons,
        Self::Sss,
        Self::Dual,
    ];

    /// The registry name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        self.info().name
    }

    /// The registry entry of the driver.
    #[must_use]
    pub const fn info(self) -> &'static DriverInfo {
        const fn optimized(name: &'static str, source: &'static str) -> DriverInfo {
            DriverInfo { name, kind: Kind::Optimized, source, exact: true }
        }
        const INFO: [DriverInfo; 9] = [
            optimized(
                "alphabeta",
                "fail-soft alpha-beta with memory (Knuth and Moore 1975; Plaat's AlphaBetaWithMemory)",
            ),
            optimized("aspiration", "aspiration windows around the previous iteration (Verhelst, seed 004)"),
            optimized("pvs", "principal variation search (Marsland 1983; Verhelst, seed 004)"),
            optimized("negascout", "NegaScout (Reinefeld 1983)"),
            optimized("mtdf", "MTD(f) (Plaat, Schaeffer, Pijls and de Bruin 1996; seed 000)"),
            optimized("mtd-bi", "MTD by bisection, C* (Coplan 1982; Plaat et al. 1996)"),
            optimized(
                "mtd-pons",
                "MTD by bisection, half-way to the far bound first (Pons, Solving Connect 4, part 8)",
            ),
            optimized("sss", "SSS* as MTD(+INFINITY) (Stockman 1979; Plaat et al. 1996)"),
            optimized("dual", "DUAL* as MTD(-INFINITY) (Marsland et al. 1987; Plaat et al. 1996)"),
        ];
        &INFO[self as usize]
    }

    /// Whether the driver makes null-window passes at the root (and so reports them).
    #[must_use]
    pub const fn makes_passes(self) -> bool {
        matches!(self, Self::Aspiration | Self::Mtdf | Self::MtdBi | Self::MtdPons | Self::Sss | Self::Dual)
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
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

// ANCHOR: config
/// How the engine searches. Every enhancement can be switched off to measure what it buys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Transposition-table entries (rounded up to a power of two, at least 1).
    pub tt_entries: usize,
    /// Search the table's best move first.
    pub table_move_first: bool,
    /// Killer moves.
    pub killers: bool,
    /// The history heuristic (for games that define history slots).
    pub history: bool,
    /// Enhanced transposition cutoff: look for a child whose stored bound refutes the window before
    /// searching any.
    pub enhanced_transposition_cutoff: bool,
    /// Search depth 1, 2, … up to the limit, each iteration seeding the next; otherwise only the
    /// final depth.
    pub iterative_deepening: bool,
    /// Where an iteration's first guess comes from.
    pub guess_from: GuessFrom,
    /// The first guess of the first iteration; `None` uses the root's static evaluation.
    pub first_guess: Option<Value>,
    /// Half-width of the aspiration window.
    pub aspiration_delta: Value,
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
}
// ANCHOR_END: config

impl Default for EngineConfig {
    /// 2^16 table entries, every ordering enhancement on but enhanced transposition cutoff,
    /// iterative deepening from the previous iteration's value, aspiration windows of ±50.
    fn default() -> Self {
        Self {
            tt_entries: 1 << 16,
            table_move_first: true,
            killers: true,
            history: true,
            enhanced_transposition_cutoff: false,
            iterative_deepening: true,
            guess_from: GuessFrom::PreviousIteration,
            first_guess: None,
            aspiration_delta: 50,
            deeper_entries: false,
        }
    }
}

/// When to stop. A stopped search reports the last iteration it completed.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Plies; `u32::MAX` searches to the end of the game (iterating up to the game's
    /// [`depth_bound`](Game::depth_bound); a game without one is searched to the end at once).
    pub depth: u32,
    /// Stop after visiting this many nodes.
    pub nodes: Option<u64>,
    /// Stop after this much wall time.
    pub time: Option<Duration>,
    /// Stop when this flag becomes true (checked every 1024 nodes).
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Default for Limits {
    /// No limit: search to the end of the game.
    fn default() -> Self {
        Self { depth: u32::MAX, nodes: None, time: None, cancel: None }
    }
}

/// What the engine counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Statistics {
    /// Nodes visited by the search proper (re-visits in later passes and iterations count again).
    pub nodes: u64,
    /// Leaves evaluated.
    pub leaves: u64,
    /// Table probes (at every interior node).
    pub probes: u64,
    /// Probes that found the position at the requested depth.
    pub hits: u64,
    /// Beta cut-offs.
    pub cutoffs: u64,
    /// Nodes visited by the null-window tests that verify the principal variation, counted apart
    /// so that `nodes` and `leaves` measure the search alone.
    pub verification_nodes: u64,
}

/// The report of one completed iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration<M> {
    /// The depth searched.
    pub depth: u32,
    /// The value, from MAX's side.
    pub value: Value,
    /// The principal variation found.
    pub principal_variation: Vec<M>,
    /// The root passes made (MTD and aspiration drivers).
    pub passes: Vec<Pass>,
    /// Statistics of the whole search so far.
    pub statistics: Statistics,
    /// Time since the search started.
    pub elapsed: Duration,
}

/// The result of [`Engine::search`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The value of the last completed iteration, from MAX's side (the root's static evaluation if
    /// none completed).
    pub value: Value,
    /// The first move of the principal variation.
    pub best_move: Option<M>,
    /// A legal line from the root whose end position evaluates (from MAX's side) to `value`.
    pub principal_variation: Vec<M>,
    /// The depth of the last completed iteration (0 if none completed).
    pub depth: u32,
    /// Whether a limit stopped the search before the requested depth.
    pub stopped: bool,
    /// Every completed iteration, in order.
    pub iterations: Vec<Iteration<M>>,
    /// What the whole search counted.
    pub statistics: Statistics,
    /// Wall time of the whole search.
    pub elapsed: Duration,
}

/// An engine for one game type: its table and ordering tables persist between searches.
pub struct Engine<G: Game> {
    config: EngineConfig,
    table: TranspositionTable<G::Move>,
    ordering: MoveOrdering<G::Move>,
    move_lists: Vec<Vec<G::Move>>,
    /// The root passes of the iteration under way, reused so that searching allocates nothing.
    passes: Vec<Pass>,
}

impl<G: Game> Engine<G> {
    /// An engine with `config`; allocates the table once, here.
    #[must_use]
    pub fn new(config: EngineConfig) -> Self {
        Self {
            table: TranspositionTable::new(config.tt_entries).with_merging(!config.deeper_entries),
            ordering: MoveOrdering::new(64, 0),
            move_lists: Vec::new(),
            passes: Vec::with_capacity(64),
            config,
        }
    }

    /// The engine's configuration.
    #[must_use]
    pub const fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// Forgets everything learned: table, killers and history.
    pub fn clear(&mut self) {
        self.table.clear();
        self.ordering.clear();
    }

    /// The search proper, once: the exact value of `game`'s root at `depth` (from MAX's side) by
    /// `algorithm` from `first_guess` (from MAX's side; the root's static evaluation if `None`), with
    /// no iterative deepening, no principal variation and no limits. Once the engine has searched a
    /// game of this size, this allocates nothing.
    pub fn search_value(
        &mut self,
        game: &G,
        algorithm: Algorithm,
        depth: u32,
        first_guess: Option<Value>,
    ) -> Value {
        let root = game.root();
        let root_player = game.to_move(&root);
        let (mut searcher, passes) = self.start_search(game, StopCheck::default(), None);
        passes.clear();
        let guess = first_guess
            .map_or_else(|| game.evaluate_for_mover(&root), |guess| root_player.perspective(guess));
        root_player.perspective(run_driver(&mut searcher, &root, depth, algorithm, guess, passes))
    }

    /// Starts a root search: ages the table, sizes the ordering tables for `game`, and lends the
    /// engine's parts to a [`Searcher`] with the given stop check, beside the reusable pass list.
    fn start_search<'a>(
        &'a mut self,
        game: &'a G,
        stop: StopCheck,
        tracer: Option<&'a mut dyn Tracer<G>>,
    ) -> (Searcher<'a, G>, &'a mut Vec<Pass>) {
        self.table.new_search();
        self.ordering.reserve(64, game.history_slots());
        let searcher = Searcher {
            game,
            table: &mut self.table,
            ordering: &mut self.ordering,
            move_lists: &mut self.move_lists,
            config: &self.config,
            stats: Statistics::default(),
            stop,
            tracer,
        };
        (searcher, &mut self.passes)
    }

    /// Searches `game` from its root with `algorithm` within `limits`, calling `observer` after each
    /// completed iteration.
    pub fn search(
        &mut self,
        game: &G,
        algorithm: Algorithm,
        limits: &Limits,
        observer: impl FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move> {
        self.search_with(game, algorithm, limits, observer, None)
    }

    /// As [`Engine::search`], telling `tracer` of every node the search enters and finishes (not the
    /// principal-variation walk after each iteration). See [`trace`].
    pub fn search_traced(
        &mut self,
        game: &G,
        algorithm: Algorithm,
        limits: &Limits,
        tracer: &mut dyn Tracer<G>,
    ) -> SearchResult<G::Move> {
        self.search_with(game, algorithm, limits, |_| {}, Some(tracer))
    }

    fn search_with(
        &mut self,
        game: &G,
        algorithm: Algorithm,
        limits: &Limits,
        mut observer: impl FnMut(&Iteration<G::Move>),
        tracer: Option<&mut dyn Tracer<G>>,
    ) -> SearchResult<G::Move> {
        let start = Instant::now();
        let root = game.root();
        let root_player = game.to_move(&root);
        let target = match game.depth_bound(&root) {
            Some(bound) => limits.depth.min(bound),
            None => limits.depth,
        };
        // A game with no known end cannot be deepened "to the end": search it to the end at once.
        let first_depth =
            if self.config.iterative_deepening && target != u32::MAX { 1.min(target) } else { target };
        let stop = StopCheck {
            node_limit: limits.nodes,
            deadline: limits.time.map(|time| start + time),
            cancel: limits.cancel.clone(),
            stopped: false,
            armed: true,
        };
        let tracer = tracer.map(|tracer| -> &mut dyn Tracer<G> { tracer });
        let (mut searcher, passes) = self.start_search(game, stop, tracer);
        let static_value = game.evaluate_for_mover(&root);
        let mut iterations: Vec<Iteration<G::Move>> = Vec::new();
        // Values from the side to move at the root, newest last.
        let mut values: Vec<Value> = Vec::new();
        let mut depth = first_depth;
        loop {
            // ANCHOR: first_guess
            let guess = match (searcher.config.guess_from, values.as_slice()) {
                (GuessFrom::TwoIterationsBack, [.., two_back, _]) => *two_back,
                (_, [.., previous]) => *previous,
                (_, []) => {
                    searcher.config.first_guess.map_or(static_value, |guess| root_player.perspective(guess))
                }
            };
            // ANCHOR_END: first_guess
            passes.clear();
            let value = run_driver(&mut searcher, &root, depth, algorithm, guess, passes);
            if searcher.stop.stopped {
                break;
            }
            // The walk is verification, not search: it runs without limits and is counted apart.
            let search_stats = searcher.stats;
            searcher.stop.armed = false;
            let principal_variation = principal_variation(&mut searcher, &root, depth, value);
            searcher.stop.armed = true;
            searcher.stats = Statistics {
                verification_nodes: search_stats.verification_nodes
                    + (searcher.stats.nodes - search_stats.nodes),
                ..search_stats
            };
            values.push(value);
            iterations.push(Iteration {
                depth,
                value: root_player.perspective(value),
                principal_variation,
                passes: if algorithm.makes_passes() { passes.clone() } else { Vec::new() },
                statistics: searcher.stats,
                elapsed: start.elapsed(),
            });
            observer(iterations.last().expect("just pushed"));
            if depth >= target {
                break;
            }
            depth += 1;
        }
        let stopped = searcher.stop.stopped;
        let statistics = searcher.stats;
        let last = iterations.last();
        SearchResult {
            value: last.map_or(root_player.perspective(static_value), |iteration| iteration.value),
            best_move: last.and_then(|iteration| iteration.principal_variation.first().copied()),
            principal_variation: last
                .map(|iteration| iteration.principal_variation.clone())
                .unwrap_or_default(),
            depth: last.map_or(0, |iteration| iteration.depth),
            stopped,
            statistics,
            elapsed: start.elapsed(),
            iterations,
        }
    }
}

/// Runs `algorithm` as a registry driver: a fresh engine with the default configuration but for the
/// table size, first guess and iterative deepening of `params`, reporting every root pass of every
/// iteration.
#[must_use]
pub fn run_driver_from_registry<G: Game>(
    game: &G,
    algorithm: Algorithm,
    params: &SearchParams,
    progress: &mut dyn FnMut(&Progress),
) -> Outcome {
    let config = EngineConfig {
        tt_entries: params.tt_entries,
        first_guess: params.first_guess,
        iterative_deepening: params.iterative_deepening,
        ..EngineConfig::default()
    };
    let result = Engine::new(config).search(
        game,
        algorithm,
        &Limits { depth: params.depth, ..Limits::default() },
        |iteration| {
            progress(&Progress {
                depth: iteration.depth,
                value: iteration.value,
                nodes: iteration.statistics.nodes,
                elapsed: iteration.elapsed,
            });
        },
    );
    let passes = algorithm
        .makes_passes()
        .then(|| result.iterations.iter().flat_map(|iteration| iteration.passes.iter().copied()).collect());
    Outcome {
        value: result.value,
        counts: Counts { leaves: result.statistics.leaves, nodes: result.statistics.nodes },
        passes,
    }
}

/// One iteration of `algorithm` at `depth`; the value is from the side to move at the root.
fn run_driver<G: Game>(
    searcher: &mut Searcher<'_, G>,
    root: &G::Position,
    depth: u32,
    algorithm: Algorithm,
    guess: Value,
    passes: &mut Vec<Pass>,
) -> Value {
    use crate::value::INFINITY;
    match algorithm {
        Algorithm::AlphaBeta => alphabeta::alpha_beta(searcher, root, depth, -INFINITY, INFINITY, 0),
        Algorithm::Pvs => pvs::pvs(searcher, root, depth, -INFINITY, INFINITY, 0),
        Algorithm::NegaScout => negascout::negascout(searcher, root, depth, -INFINITY, INFINITY, 0),
        Algorithm::Aspiration => {
            let delta = searcher.config.aspiration_delta.max(1);
            aspiration::aspiration(searcher, root, depth, guess, delta, passes)
        }
        Algorithm::Mtdf => mtd::mtd(searcher, root, depth, Pivot::LastResult, guess, passes),
        Algorithm::MtdBi => mtd::mtd(searcher, root, depth, Pivot::Bisection, guess, passes),
        Algorithm::MtdPons => mtd::mtd(searcher, root, depth, Pivot::TowardFarBound, guess, passes),
        Algorithm::Sss => mtd::mtd(searcher, root, depth, Pivot::UpperBound, guess, passes),
        Algorithm::Dual => mtd::mtd(searcher, root, depth, Pivot::LowerBound, guess, passes),
    }
}

// ANCHOR: principal_variation
/// Walks down from `root`, whose exact value (from the side to move) is `value`, choosing at each
/// position a move whose child has exactly the negated value, until the depth runs out or the game
/// ends.
///
/// MTD drivers leave no reliable best move in the table: a pass that fails low stores only upper
/// bounds. So each step is verified instead: the child value is at least `-value` (the parent takes
/// the maximum), and one null-window test `(-value, -value + 1)` that fails low proves it is at most
/// `-value` too. The table's move is tried first, and the tests mostly hit the table.
fn principal_variation<G: Game>(
    searcher: &mut Searcher<'_, G>,
    root: &G::Position,
    depth: u32,
    value: Value,
) -> Vec<G::Move> {
    let mut line = Vec::new();
    let (mut position, mut depth, mut value) = (root.clone(), depth, value);
    while depth > 0 && !searcher.game.is_terminal(&position) {
        let table_move = searcher.table.probe(searcher.game.key(&position)).and_then(|entry| entry.best_move);
        let candidates =
            table_move.into_iter().chain(searcher.game.moves(&position).filter(|&mv| Some(mv) != table_move));
        let mut chosen = None;
        for mv in candidates {
            let child = searcher.game.play(&position, mv);
            let ply = line.len() + 1;
            if alphabeta::alpha_beta(searcher, &child, depth - 1, -value, -value + 1, ply) <= -value {
                chosen = Some((mv, child));
                break;
            }
        }
        // The value is exact, so some child reaches it; a game that breaks its contract ends the line.
        let Some((mv, child)) = chosen else { break };
        line.push(mv);
        position = child;
        depth -= 1;
        value = -value;
    }
    line
}
// ANCHOR_END: principal_variation
