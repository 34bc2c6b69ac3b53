//! The optimized engine: one negamax search with a transposition table, move ordering and iterative
//! deepening, driven ten ways.
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
//! | `aspiration-negascout` | same | [`negascout`] |
//! | `pvs` | full window | [`pvs`] |
//! | `negascout` | full window | [`negascout`] |
//! | `mtdf` | MTD(f) from the previous value | [`alphabeta`] with null windows |
//! | `mtd-bi` | MTD by bisection (C*) | same |
//! | `mtd-pons` | MTD by bisection, half-way to the far bound first (Pons) | same |
//! | `sss` | MTD(+INFINITY), SSS* | same |
//! | `dual` | MTD(−INFINITY), DUAL* | same |
//!
//! The engine is configured by the crate's one [`SearchParams`]; its drivers report an [`Outcome`].
//! On several threads ([`Engine::search_on_threads`], [`parallel`]) the helpers join each of the
//! main thread's root searches, and alpha-beta shares out the children ([`abdada`]).
//!
//! ```
//! use nullwindow::driver::SearchParams;
//! use nullwindow::search::{Algorithm, Engine};
//! use nullwindow::tree::Tree;
//!
//! let tree: Tree = "((3 17) (2 12) (15 (25 0)))".parse()?;
//! let params = SearchParams { iterative_deepening: true, ..SearchParams::default() };
//! let mut engine = Engine::new(&params);
//! let result = engine.search(&tree, Algorithm::Mtdf, &params, |_| {});
//! assert_eq!(result.value, 15);
//! assert_eq!(result.best_move, Some(2));
//! assert_eq!(result.principal_variation, [2, 0]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod abdada;
pub mod alphabeta;
pub mod aspiration;
pub mod mtd;
pub mod negascout;
pub mod ordering;
pub mod parallel;
pub mod pvs;
mod searcher;
pub mod table;

pub use self::parallel::Threads;
pub(crate) use self::searcher::Entered;
pub use self::searcher::{Searcher, WindowSearch};

use std::fmt;
use std::time::Instant;

use self::alphabeta::alpha_beta;
use self::mtd::Pivot;
use self::ordering::{MoveOrdering, MovePicker};
use self::searcher::{Parts, StopCheck, TableAccess};
use self::table::TranspositionTable;
use crate::driver::observe::{Observer, Silent};
use crate::driver::{Counts, GuessFrom, Hooks, Iteration, Outcome, Pass, SearchParams};
use crate::game::{Game, Player};
use crate::value::Value;

/// The ten drivers of the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Fail-soft alpha-beta with the full window.
    AlphaBeta,
    /// Alpha-beta with an aspiration window around the previous iteration's value.
    Aspiration,
    /// NegaScout with an aspiration window around the previous iteration's value: aspiration
    /// NegaScout, the baseline against which Plaat et al. (1996, §5) measure MTD(f).
    AspirationNegaScout,
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
    pub const ALL: [Self; 10] = [
        Self::AlphaBeta,
        Self::Aspiration,
        Self::AspirationNegaScout,
        Self::Pvs,
        Self::NegaScout,
        Self::Mtdf,
        Self::MtdBi,
        Self::MtdPons,
        Self::Sss,
        Self::Dual,
    ];

    /// The algorithm's name, as the catalogue lists its driver.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::AlphaBeta => "alphabeta",
            Self::Aspiration => "aspiration",
            Self::AspirationNegaScout => "aspiration-negascout",
            Self::Pvs => "pvs",
            Self::NegaScout => "negascout",
            Self::Mtdf => "mtdf",
            Self::MtdBi => "mtd-bi",
            Self::MtdPons => "mtd-pons",
            Self::Sss => "sss",
            Self::Dual => "dual",
        }
    }

    /// Whether the driver searches every depth from 1 up by its nature, its cost growing with the
    /// square of the depth: no engine driver does (each deepens only when
    /// [`SearchParams::iterative_deepening`] asks it to).
    #[must_use]
    pub const fn deepens(self) -> bool {
        false
    }

    /// Whether the driver's first test lies at `±INFINITY` (SSS* and DUAL*): failing hard
    /// ([`SearchParams::fail_hard`]), each pass moves a bound by one unit, so it would take some
    /// 10^9 passes to come down to any value.
    #[must_use]
    pub const fn starts_at_infinity(self) -> bool {
        matches!(self, Self::Sss | Self::Dual)
    }

    /// Whether the driver makes null-window passes at the root (and so reports them).
    #[must_use]
    pub const fn makes_passes(self) -> bool {
        matches!(
            self,
            Self::Aspiration
                | Self::AspirationNegaScout
                | Self::Mtdf
                | Self::MtdBi
                | Self::MtdPons
                | Self::Sss
                | Self::Dual
        )
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An engine for one game type: its table and ordering tables persist between searches.
pub struct Engine<G: Game> {
    table: TranspositionTable,
    /// The `tt_entries` and `deeper_entries` the table was made for.
    table_made_for: (usize, bool),
    ordering: MoveOrdering<G::Move>,
    move_lists: Vec<MovePicker<G::Move>>,
    /// The root passes of the iteration under way, reused so that searching allocates nothing.
    passes: Vec<Pass>,
}

impl<G: Game> Engine<G> {
    /// An engine with the table `params` asks for (`tt_entries`, `deeper_entries`); allocates the
    /// table once, here.
    #[must_use]
    pub fn new(params: &SearchParams) -> Self {
        Self {
            table: Self::make_table(params),
            table_made_for: (params.tt_entries, params.deeper_entries),
            ordering: MoveOrdering::new(64, 0),
            move_lists: Vec::new(),
            passes: Vec::with_capacity(64),
        }
    }

    fn make_table(params: &SearchParams) -> TranspositionTable {
        TranspositionTable::new(params.tt_entries).with_merging(!params.deeper_entries)
    }

    /// Forgets everything learned: table, killers and history.
    pub fn clear(&mut self) {
        self.table.clear();
        self.ordering.clear();
    }

    /// The search proper, once: the exact value of `game`'s root at `params.depth` (from MAX's side)
    /// by `algorithm` from `params.first_guess` (from MAX's side; the root's static evaluation if
    /// `None`), with no iterative deepening, no principal variation and no limits. Once the engine
    /// has searched a game of this size, this allocates nothing.
    pub fn search_value(&mut self, game: &G, algorithm: Algorithm, params: &SearchParams) -> Value {
        let root = game.root();
        let root_player = game.to_move(&root);
        let (mut searcher, passes) = self.start_search(game, params, StopCheck::default(), Silent);
        passes.clear();
        let guess = params
            .first_guess
            .map_or_else(|| game.evaluate_for_mover(&root), |guess| root_player.perspective(guess));
        let value = run_driver(&mut searcher, &root, params.depth, algorithm, guess, passes, &alpha_beta);
        root_player.perspective(value)
    }

    /// Lends `f` a [`Searcher`] over this engine's table for `game` with `params` (no limits), to call
    /// the engine's recursive searches with a window of one's own: an engine author's own driver, or
    /// one node of another engine's trace searched again. See [`alphabeta::alpha_beta`].
    pub fn with_searcher<T>(
        &mut self,
        game: &G,
        params: &SearchParams,
        f: impl FnOnce(&mut Searcher<'_, G>) -> T,
    ) -> T {
        let (mut searcher, _) = self.start_search(game, params, StopCheck::default(), Silent);
        f(&mut searcher)
    }

    /// As [`Engine::with_searcher`], the searcher stopping at the limits `params` sets (its node
    /// limit, time limit and cancel flag): once one is hit every search unwinds at once, with a
    /// meaningless result, and [`Searcher::stopped`] says so. The oracle's proofs run this way, so
    /// that one that would cost more than its budget ends there.
    pub fn with_limited_searcher<T>(
        &mut self,
        game: &G,
        params: &SearchParams,
        f: impl FnOnce(&mut Searcher<'_, G>) -> T,
    ) -> T {
        let stop = StopCheck::from_limits(params, Instant::now());
        let (mut searcher, _) = self.start_search(game, params, stop, Silent);
        f(&mut searcher)
    }

    /// Starts a root search: makes the table again if `params` asks for another one, ages it, sizes
    /// the ordering tables for `game`, and lends the engine's parts to a [`Searcher`] with the given
    /// stop check and observer, beside the reusable pass list.
    fn start_search<'a, O: Observer<G>>(
        &'a mut self,
        game: &'a G,
        params: &'a SearchParams,
        stop: StopCheck,
        observer: O,
    ) -> (Searcher<'a, G, O>, &'a mut Vec<Pass>) {
        self.prepare(game, params);
        let parts = Parts {
            table: TableAccess::Own(&mut self.table),
            ordering: &mut self.ordering,
            move_lists: &mut self.move_lists,
        };
        (Searcher::new(game, parts, params, stop, observer), &mut self.passes)
    }

    /// Readies the engine for a search on several threads and lends out its parts: the table to
    /// share, the main thread's ordering tables and move lists, and the reusable pass list.
    pub(crate) fn shared_parts(&mut self, game: &G, params: &SearchParams) -> SharedParts<'_, G::Move> {
        self.prepare(game, params);
        SharedParts {
            table: &self.table,
            ordering: &mut self.ordering,
            move_lists: &mut self.move_lists,
            passes: &mut self.passes,
        }
    }

    /// Readies the engine for a root search: makes the table again if `params` asks for another
    /// one, ages it, and sizes the ordering tables for `game`.
    fn prepare(&mut self, game: &G, params: &SearchParams) {
        // A table of another size, or one filled in the other mode, would not be what was asked for
        // (entries of the deeper-entries mode are no bounds on a fixed-depth value).
        if self.table_made_for != (params.tt_entries, params.deeper_entries) {
            self.table = Self::make_table(params);
            self.table_made_for = (params.tt_entries, params.deeper_entries);
        }
        self.table.new_search();
        self.ordering.reserve(64, game.history_slots());
    }

    /// Searches `game` from its root with `algorithm` and `params` (depth, iterative deepening,
    /// first guess, enhancements, limits), calling `observer` after each completed iteration.
    pub fn search(
        &mut self,
        game: &G,
        algorithm: Algorithm,
        params: &SearchParams,
        observer: impl FnMut(&Iteration<G::Move>),
    ) -> Outcome<G::Move> {
        self.search_with(game, &game.root(), algorithm, params, observer, Silent)
    }

    /// As [`Engine::search`], from `root` instead of the game's own root.
    pub fn search_from(
        &mut self,
        game: &G,
        root: &G::Position,
        algorithm: Algorithm,
        params: &SearchParams,
        observer: impl FnMut(&Iteration<G::Move>),
    ) -> Outcome<G::Move> {
        self.search_with(game, root, algorithm, params, observer, Silent)
    }

    /// As [`Engine::search_from`], telling `observer` of every node the search enters, evaluates and
    /// returns from (not the principal-variation walk after each iteration): see
    /// [`crate::driver::observe`]. Values in the events are from the side to move.
    pub fn search_observed(
        &mut self,
        game: &G,
        root: &G::Position,
        algorithm: Algorithm,
        params: &SearchParams,
        observer: impl Observer<G>,
    ) -> Outcome<G::Move> {
        self.search_with(game, root, algorithm, params, |_| {}, observer)
    }

    /// Iterative deepening (or one search of the target depth) around [`run_driver`], each completed
    /// iteration verified by a principal-variation walk and handed to `progress`, every node to
    /// `observer`.
    fn search_with(
        &mut self,
        game: &G,
        root: &G::Position,
        algorithm: Algorithm,
        params: &SearchParams,
        mut progress: impl FnMut(&Iteration<G::Move>),
        observer: impl Observer<G>,
    ) -> Outcome<G::Move> {
        let start = Instant::now();
        let stop = StopCheck::from_limits(params, start);
        let (mut searcher, passes) = self.start_search(game, params, stop, observer);
        let (iterations, stopped, counts) =
            deepen(&mut searcher, passes, root, algorithm, start, &mut progress, &alpha_beta);
        let static_value = game.to_move(root).perspective(game.evaluate_for_mover(root));
        outcome(algorithm, iterations, static_value, stopped, counts, start)
    }
}

/// An engine's parts as a search on several threads holds them: the table shared by every thread,
/// and the main thread's own ordering tables, move lists and pass list.
pub(crate) struct SharedParts<'a, M> {
    pub(crate) table: &'a TranspositionTable,
    pub(crate) ordering: &'a mut MoveOrdering<M>,
    pub(crate) move_lists: &'a mut Vec<MovePicker<M>>,
    pub(crate) passes: &'a mut Vec<Pass>,
}

/// Iterative deepening (or one search of the target depth) around [`run_driver`] from `root`, the
/// root searched with `alpha_beta` by the drivers built on it: the completed iterations, whether a
/// limit stopped the search, and the counts.
pub(crate) fn deepen<G: Game, O: Observer<G>>(
    searcher: &mut Searcher<'_, G, O>,
    passes: &mut Vec<Pass>,
    root: &G::Position,
    algorithm: Algorithm,
    start: Instant,
    progress: &mut dyn FnMut(&Iteration<G::Move>),
    alpha_beta: &impl WindowSearch<G, O>,
) -> (Vec<Iteration<G::Move>>, bool, Counts) {
    let (game, params) = (searcher.game, searcher.config);
    let root_player = game.to_move(root);
    let target = crate::driver::capped_depth(game, root, params.depth);
    // A game with no known end cannot be deepened "to the end": search it to the end at once.
    let first_depth = if params.iterative_deepening && target != u32::MAX { 1.min(target) } else { target };
    let static_value = game.evaluate_for_mover(root);
    let mut iterations: Vec<Iteration<G::Move>> = Vec::new();
    // Values from the side to move at the root, newest last.
    let mut values: Vec<Value> = Vec::new();
    let mut depth = first_depth;
    loop {
        let guess = first_guess(params, &values, static_value, root_player);
        passes.clear();
        let value = run_driver(searcher, root, depth, algorithm, guess, passes, alpha_beta);
        if searcher.stop.stopped {
            break;
        }
        values.push(value);
        // A search with a window of the caller's returns a bound: there is no line to verify.
        let principal_variation = if params.root_window.is_some() {
            Vec::new()
        } else {
            verified_line(searcher, root, depth, value)
        };
        // Only the last line is kept: a line per iteration would grow with the square of the
        // depth (a 10,000-level chain: 200 MB of moves). The observer has seen each one.
        if let Some(previous) = iterations.last_mut() {
            previous.principal_variation = Vec::new();
        }
        iterations.push(Iteration {
            depth,
            first_guess: root_player.perspective(guess),
            value: root_player.perspective(value),
            principal_variation,
            passes: if algorithm.makes_passes() { passes.clone() } else { Vec::new() },
            counts: searcher.stats,
            elapsed: start.elapsed(),
        });
        progress(iterations.last().expect("just pushed"));
        if depth >= target {
            break;
        }
        depth += 1;
    }
    (iterations, searcher.stop.stopped, searcher.stats)
}

// ANCHOR: first_guess
/// The first guess of the next iteration, given the values of the iterations before it (newest
/// last): the previous one's, or the one two back, or for the first iteration `params.first_guess`
/// (from MAX's side), else the root's `static_value`. Values are from `root_player`'s side but the
/// one in `params`.
fn first_guess(params: &SearchParams, values: &[Value], static_value: Value, root_player: Player) -> Value {
    match (params.guess_from, values) {
        (GuessFrom::TwoIterationsBack, [.., two_back, _]) => *two_back,
        (_, [.., previous]) => *previous,
        (_, []) => params.first_guess.map_or(static_value, |guess| root_player.perspective(guess)),
    }
}
// ANCHOR_END: first_guess

/// The principal variation of a completed iteration, found by [`principal_variation`]: verification,
/// not search, so it runs without limits and its nodes are counted apart.
fn verified_line<G: Game, O: Observer<G>>(
    searcher: &mut Searcher<'_, G, O>,
    root: &G::Position,
    depth: u32,
    value: Value,
) -> Vec<G::Move> {
    let search_counts = searcher.stats;
    searcher.stop.armed = false;
    let line = principal_variation(searcher, root, depth, value);
    searcher.stop.armed = true;
    searcher.stats = Counts {
        verification_nodes: search_counts.verification_nodes + (searcher.stats.nodes - search_counts.nodes),
        ..search_counts
    };
    line
}

/// The outcome of a search whose completed iterations are `iterations`: the last one's value and
/// line (the root's static evaluation `static_value`, from MAX's side, if none completed), and every
/// root pass of every iteration for a driver that makes passes.
fn outcome<M: Copy>(
    algorithm: Algorithm,
    iterations: Vec<Iteration<M>>,
    static_value: Value,
    stopped: bool,
    counts: Counts,
    start: Instant,
) -> Outcome<M> {
    let last = iterations.last();
    let passes = algorithm
        .makes_passes()
        .then(|| iterations.iter().flat_map(|iteration| iteration.passes.iter().copied()).collect());
    Outcome {
        value: last.map_or(static_value, |iteration| iteration.value),
        counts,
        passes,
        best_move: last.and_then(|iteration| iteration.principal_variation.first().copied()),
        principal_variation: last.map(|iteration| iteration.principal_variation.clone()).unwrap_or_default(),
        depth: last.map_or(0, |iteration| iteration.depth),
        stopped,
        elapsed: start.elapsed(),
        iterations,
    }
}

/// The catalogue's entry for the engine's drivers: a fresh engine searching `game` from `root` with
/// `algorithm` and `params`, telling [`Hooks::progress`] of each completed iteration and
/// [`Hooks::observer`] of every node. Without an observer the search is the silent one, which
/// costs nothing for it.
pub fn run<G: Game>(
    game: &G,
    root: &G::Position,
    algorithm: Algorithm,
    params: &SearchParams,
    hooks: Hooks<'_, G>,
) -> Outcome<G::Move> {
    let Hooks { mut progress, observer } = hooks;
    let progress = |iteration: &Iteration<G::Move>| {
        if let Some(progress) = progress.as_mut() {
            progress(iteration);
        }
    };
    let mut engine = Engine::new(params);
    match observer {
        None => engine.search_with(game, root, algorithm, params, progress, Silent),
        Some(observer) => engine.search_with(game, root, algorithm, params, progress, observer),
    }
}

/// One iteration of `algorithm` at `depth`, the drivers built on alpha-beta searching the root with
/// `alpha_beta`; the value is from the side to move at the root.
fn run_driver<G: Game, O: Observer<G>>(
    searcher: &mut Searcher<'_, G, O>,
    root: &G::Position,
    depth: u32,
    algorithm: Algorithm,
    guess: Value,
    passes: &mut Vec<Pass>,
    alpha_beta: &impl WindowSearch<G, O>,
) -> Value {
    use crate::value::INFINITY;
    match algorithm {
        Algorithm::AlphaBeta | Algorithm::Pvs | Algorithm::NegaScout => {
            // The window the caller chose, from the side to move at the root, or the full one.
            let (alpha, beta) = searcher.config.root_window.map_or((-INFINITY, INFINITY), |(alpha, beta)| {
                let (alpha, beta) = (
                    searcher.game.to_move(root).perspective(alpha),
                    searcher.game.to_move(root).perspective(beta),
                );
                (alpha.min(beta), alpha.max(beta))
            });
            match algorithm {
                Algorithm::AlphaBeta => alpha_beta.search(searcher, root, depth, alpha, beta, 0),
                Algorithm::Pvs => pvs::pvs(searcher, root, depth, alpha, beta, 0),
                _ => negascout::negascout(searcher, root, depth, alpha, beta, 0),
            }
        }
        Algorithm::Aspiration => {
            let delta = searcher.config.aspiration_delta.max(1);
            aspiration::aspiration(searcher, root, depth, guess, delta, passes, alpha_beta)
        }
        Algorithm::AspirationNegaScout => {
            let delta = searcher.config.aspiration_delta.max(1);
            aspiration::aspiration(searcher, root, depth, guess, delta, passes, &negascout::negascout)
        }
        Algorithm::Mtdf => mtd::mtd(searcher, root, depth, Pivot::LastResult, guess, passes, alpha_beta),
        Algorithm::MtdBi => mtd::mtd(searcher, root, depth, Pivot::Bisection, guess, passes, alpha_beta),
        Algorithm::MtdPons => {
            mtd::mtd(searcher, root, depth, Pivot::TowardFarBound, guess, passes, alpha_beta)
        }
        Algorithm::Sss => mtd::mtd(searcher, root, depth, Pivot::UpperBound, guess, passes, alpha_beta),
        Algorithm::Dual => mtd::mtd(searcher, root, depth, Pivot::LowerBound, guess, passes, alpha_beta),
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
fn principal_variation<G: Game, O: Observer<G>>(
    searcher: &mut Searcher<'_, G, O>,
    root: &G::Position,
    depth: u32,
    value: Value,
) -> Vec<G::Move> {
    let mut line = Vec::new();
    let (mut position, mut depth, mut value) = (root.clone(), depth, value);
    while depth > 0 && !searcher.game.is_terminal(&position) {
        let table_move = searcher.table_move(&position);
        let candidates =
            table_move.into_iter().chain(searcher.game.moves(&position).filter(|&mv| Some(mv) != table_move));
        let mut chosen = None;
        for mv in candidates {
            let child = searcher.game.play(&position, mv);
            let ply = line.len() + 1;
            if alpha_beta(searcher, &child, depth - 1, -value, -value + 1, ply) <= -value {
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
