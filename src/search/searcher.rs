//! What every recursive search of the engine shares: the game, the table, move ordering, counters
//! and the stop check, with the two steps that open and close a node.
//!
//! Each algorithm file ([`super::alphabeta`], [`super::pvs`], [`super::negascout`]) is a recursive
//! function shaped like its textbook version; the bookkeeping around it lives here, once:
//! [`Searcher::enter`] counts the node, evaluates a leaf, and probes the table (possibly answering at
//! once or narrowing the window); [`Searcher::leave`] stores the result and records a cut-off.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering as AtomicOrdering};
use std::time::Instant;

use super::ordering::{MoveOrdering, MovePicker};
use super::table::{BucketIndex, Entry, TranspositionTable};
use crate::driver::observe::{NodeEntered, NodeReturned, Observer, Perspective, Probe, Silent};
use crate::driver::{Counts, SearchParams};
use crate::game::Game;
use crate::value::{Bound, Value};

/// When a search must stop early.
#[derive(Clone, Debug, Default)]
pub(crate) struct StopCheck {
    pub(crate) node_limit: Option<u64>,
    pub(crate) deadline: Option<Instant>,
    pub(crate) cancel: Option<Arc<AtomicBool>>,
    /// A search that another one supersedes stops when the shared number here has moved on from
    /// its own (a helper thread's, when the root search it joined is over).
    pub(crate) superseded: Option<(Arc<AtomicU64>, u64)>,
    /// A search that another thread may finish first stops when the two shared numbers here are
    /// equal: the serial number of the root search some other thread last completed, and that of
    /// the root search this thread is on (the main thread's, on threads).
    pub(crate) overtakable: Option<(Arc<AtomicU64>, Arc<AtomicU64>)>,
    /// Set once a limit is hit; every search then unwinds without storing anything.
    pub(crate) stopped: bool,
    /// Set when the search stopped only because another thread had completed it: no limit was hit,
    /// and the search may go on once it has taken that thread's result.
    pub(crate) overtaken: bool,
    /// While false, limits are not checked (the principal variation is extracted after an iteration
    /// completed, and must not be cut short).
    pub(crate) armed: bool,
}

impl StopCheck {
    /// The stop check of a search started at `start` with the limits of `params`.
    pub(crate) fn from_limits(params: &SearchParams, start: Instant) -> Self {
        Self {
            node_limit: params.node_limit,
            deadline: params.time_limit.and_then(|time| start.checked_add(time)),
            cancel: params.cancel.clone(),
            superseded: None,
            overtakable: None,
            stopped: false,
            overtaken: false,
            armed: true,
        }
    }

    /// Whether the search must stop at its `nodes`-th node. Asked at every node, so the common
    /// answer is decided inline: no node limit, and not a 1024th node, is "go on".
    #[inline]
    fn should_stop(&mut self, nodes: u64) -> bool {
        if self.stopped {
            return true;
        }
        if !self.armed || (self.node_limit.is_none() && !nodes.is_multiple_of(1024)) {
            return false;
        }
        self.check_limits(nodes)
    }

    /// The limits themselves: the node limit at every node, the clock, the cancel flag, a
    /// superseding search and another thread's completing this one every 1024 nodes.
    #[cold]
    fn check_limits(&mut self, nodes: u64) -> bool {
        let over_nodes = self.node_limit.is_some_and(|limit| nodes > limit);
        // Clocks and atomics cost more than a node: look at them every 1024 nodes.
        let look = nodes.is_multiple_of(1024);
        let over_time = look && self.deadline.is_some_and(|deadline| Instant::now() >= deadline);
        let cancelled = look && self.cancel.as_ref().is_some_and(|flag| flag.load(AtomicOrdering::Relaxed));
        let superseded = look
            && self
                .superseded
                .as_ref()
                .is_some_and(|(serial, joined)| serial.load(AtomicOrdering::Relaxed) != *joined);
        let limit = over_nodes || over_time || cancelled || superseded;
        let overtaken = look
            && self.overtakable.as_ref().is_some_and(|(completed, current)| {
                completed.load(AtomicOrdering::Acquire) == current.load(AtomicOrdering::Relaxed)
            });
        self.overtaken = overtaken && !limit;
        self.stopped = limit || overtaken;
        self.stopped
    }
}

/// The state one root search lends its recursive calls: the game, the engine's table and ordering
/// tables, the parameters, the counts, the stop check, and the [observer](crate::driver::observe)
/// that hears every node. [`Engine::with_searcher`](super::Engine) lends one, to call the engine's
/// searches ([`alpha_beta`](super::alphabeta::alpha_beta), [`pvs`](super::pvs::pvs), …) with a
/// window of one's own.
///
/// The observer is a type parameter, so that the silent one ([`Silent`], the default) costs nothing.
pub struct Searcher<'a, G: Game, O: Observer<G> = Silent> {
    pub(crate) game: &'a G,
    pub(crate) table: TableAccess<'a>,
    pub(crate) ordering: &'a mut MoveOrdering<G::Move>,
    /// A move list per ply, reused so that searching allocates nothing once they have grown.
    pub(crate) move_lists: &'a mut Vec<MovePicker<G::Move>>,
    pub(crate) config: &'a SearchParams,
    pub(crate) stats: Counts,
    pub(crate) stop: StopCheck,
    /// Hears of every node while the stop check is armed (the search proper, not the PV walk).
    pub(crate) observer: O,
    /// Whether the node that returned last was answered by a bound (a table entry, enhanced
    /// transposition cutoff or the game's value bounds) rather than searched.
    answered_by_bound: bool,
    /// Whether a node was evaluated because its depth ran out, since [`Searcher::take_met_horizon`]
    /// last asked: a search that met none reached the end of every line it searched.
    met_horizon: bool,
    /// Which ordering rules apply: per search constants, decided once.
    rules: OrderingRules,
}

/// The move-ordering rules a search applies, from its parameters and its game.
#[derive(Clone, Copy, Debug)]
struct OrderingRules {
    /// Cut-offs are scored in the history table.
    record_history: bool,
    /// The moves beyond the table move and killers are sorted by history score.
    sort_by_history: bool,
    /// Killers are recorded at cut-offs.
    record_killers: bool,
    /// Killers come right after the table move.
    try_killers: bool,
    /// The table's move comes first.
    table_move_first: bool,
}

impl OrderingRules {
    fn new(config: &SearchParams, game: &impl Game) -> Self {
        // A game that keeps its own move order takes only the table move first.
        let dynamic = !game.keeps_move_order();
        let record_history = config.history && game.history_slots() > 0;
        Self {
            record_history,
            sort_by_history: dynamic && record_history,
            record_killers: config.killers,
            try_killers: dynamic && config.killers,
            table_move_first: config.table_move_first,
        }
    }
}

/// What a [`Searcher`] borrows from an engine: its table (alone, or shared between threads), its
/// ordering tables and its move lists.
pub(crate) struct Parts<'a, M> {
    pub(crate) table: TableAccess<'a>,
    pub(crate) ordering: &'a mut MoveOrdering<M>,
    pub(crate) move_lists: &'a mut Vec<MovePicker<M>>,
}

/// One of the engine's recursive searches, called with a window: what a root driver (MTD, an
/// aspiration window) is handed to search the root with. Every function of
/// [`alpha_beta`](super::alphabeta::alpha_beta)'s shape is one; on several threads the search starts
/// with alpha-beta that defers busy children instead ([`super::abdada::Deferring`]): how children
/// are shared out is chosen where the search starts, not in the searcher.
pub trait WindowSearch<G: Game, O: Observer<G>> {
    /// Searches `position` `depth` plies deep with the window `(alpha, beta)`, `ply` plies from the
    /// root, from the side to move, fail-soft.
    fn search(
        &self,
        searcher: &mut Searcher<'_, G, O>,
        position: &G::Position,
        depth: u32,
        alpha: Value,
        beta: Value,
        ply: usize,
    ) -> Value;
}

impl<G: Game, O: Observer<G>, F> WindowSearch<G, O> for F
where
    F: Fn(&mut Searcher<'_, G, O>, &G::Position, u32, Value, Value, usize) -> Value,
{
    fn search(
        &self,
        searcher: &mut Searcher<'_, G, O>,
        position: &G::Position,
        depth: u32,
        alpha: Value,
        beta: Value,
        ply: usize,
    ) -> Value {
        self(searcher, position, depth, alpha, beta, ply)
    }
}

/// The engine's table, as one search holds it: alone, or shared with searches on other threads.
pub(crate) enum TableAccess<'a> {
    /// No other thread uses the table: stores write it plainly.
    Own(&'a mut TranspositionTable),
    /// Other threads probe and store at the same time: a store is a compare-and-exchange of the
    /// slot's one atomic word.
    Shared(&'a TranspositionTable),
}

impl TableAccess<'_> {
    /// Where `key`'s entries live: found once per node, for its probe and its store.
    #[inline]
    fn bucket_of(&self, key: u64) -> BucketIndex {
        match self {
            Self::Own(table) => table.bucket_of(key),
            Self::Shared(table) => table.bucket_of(key),
        }
    }

    /// The entry for `key`, in its `bucket`: read plainly when the table is this search's own.
    #[inline]
    fn probe_mut(&mut self, bucket: BucketIndex, key: u64) -> Option<Entry> {
        match self {
            Self::Own(table) => table.probe_exclusive(bucket, key),
            Self::Shared(table) => table.probe_in(bucket, key),
        }
    }

    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        match self {
            Self::Own(table) => table.probe(key),
            Self::Shared(table) => table.probe(key),
        }
    }

    /// Stores the `(g, best move)` of a search of `key` with `window`, in its `bucket`.
    #[inline]
    fn store(
        &mut self,
        (bucket, key): (BucketIndex, u64),
        depth: u32,
        window: (Value, Value),
        result: (Value, Option<u32>),
    ) {
        match self {
            Self::Own(table) => table.store_in(bucket, key, depth, window, result),
            Self::Shared(table) => table.store_shared_in(bucket, key, depth, window, result),
        }
    }
}

/// An expanded node between [`Searcher::enter`] and [`Searcher::leave`].
pub(crate) struct Node {
    key: u64,
    /// Where the table keeps `key`'s entries (meaningless for a node that does not use the table).
    bucket: BucketIndex,
    depth: u32,
    /// The window after narrowing by the table's bounds: what the node is actually searched with.
    pub(crate) alpha: Value,
    pub(crate) beta: Value,
    /// The node's distance from the root: its moves are in this ply's list, which
    /// [`Searcher::next_move`] hands out.
    ply: usize,
    /// For the observer: the window as called, and what the table did.
    window_in: (Value, Value),
    probe: Probe,
}

/// What a bound known before searching (the game's, or the table's) does to a node.
enum Known {
    /// It answers the node with this value.
    Answer(Value),
    /// It leaves this window, narrowed or not, to search.
    Window(Value, Value),
}

/// What [`Searcher::enter`] decided.
pub(crate) enum Entered {
    /// The node's result is known: a leaf's evaluation, a table cut-off, or an unwinding stop.
    Done(Value),
    /// Search the children in `moves` with the narrowed window.
    Expand(Node),
}

impl<'a, G: Game, O: Observer<G>> Searcher<'a, G, O> {
    /// A searcher over an engine's `parts`, for `game` with `params`, stopping by `stop` and telling
    /// `observer` of every node: the one way a search is set up, on one thread or several.
    pub(crate) fn new(
        game: &'a G,
        parts: Parts<'a, G::Move>,
        config: &'a SearchParams,
        stop: StopCheck,
        observer: O,
    ) -> Self {
        let Parts { table, ordering, move_lists } = parts;
        let rules = OrderingRules::new(config, game);
        Self {
            game,
            table,
            ordering,
            move_lists,
            config,
            stats: Counts::default(),
            stop,
            observer,
            rules,
            answered_by_bound: false,
            met_horizon: false,
        }
    }

    /// Whether a node was evaluated where its depth ran out since the last call (not at the end of
    /// its game): the oracle's proof of a value to the end of the game holds only if none was.
    pub(crate) const fn take_met_horizon(&mut self) -> bool {
        let met = self.met_horizon;
        self.met_horizon = false;
        met
    }

    /// What the searches made with this searcher have counted so far.
    #[must_use]
    pub const fn counts(&self) -> Counts {
        self.stats
    }

    /// Whether a limit stopped the searches made with this searcher: their results are then
    /// meaningless.
    #[must_use]
    pub const fn stopped(&self) -> bool {
        self.stop.stopped
    }

    // ANCHOR: enter
    /// Opens a node: counts it; evaluates it if it is a leaf; lets the game's value bounds and then
    /// the table (if the node [uses it](Self::uses_table)) answer it or narrow its window; tries
    /// enhanced transposition cutoff; lists the moves, for [`Searcher::next_move`] to hand out.
    // Inline in each search, as `leave` is: as calls, the two cost about 5% of the engine's
    // instructions (the book's "Measuring").
    #[inline(always)]
    pub(crate) fn enter(
        &mut self,
        position: &G::Position,
        depth: u32,
        alpha: Value,
        beta: Value,
        ply: usize,
    ) -> Entered {
        self.stats.nodes += 1;
        if self.stop.should_stop(self.stats.nodes) {
            return Entered::Done(0);
        }
        let window_in = (alpha, beta);
        if self.stop.armed {
            let perspective = Perspective::Mover;
            self.observer.entered(&NodeEntered { ply, position, depth, alpha, beta, perspective });
        }
        if depth == 0 || self.game.is_terminal(position) {
            self.stats.leaves += 1;
            if self.stop.armed {
                self.observer.evaluated(position);
            }
            let value = if depth == 0 {
                self.met_horizon = true;
                self.game.horizon_for_mover(position)
            } else {
                self.game.evaluate_for_mover(position)
            };
            return self.done(position, ply, depth, window_in, value, Probe::None, None);
        }
        let (alpha, beta) = match self.game_bounds(position, depth, alpha, beta) {
            Known::Answer(value) => {
                return self.done(position, ply, depth, window_in, value, Probe::Bounds, None);
            }
            Known::Window(alpha, beta) => (alpha, beta),
        };
        let key = self.game.key(position);
        let bucket = self.table.bucket_of(key);
        let uses_table = self.uses_table(position, depth);
        let (known, table_move, probe) = if uses_table {
            self.probe_table(bucket, key, depth, alpha, beta)
        } else {
            (Known::Window(alpha, beta), None, Probe::None)
        };
        let (alpha, beta) = match known {
            Known::Answer(value) => {
                return self.done(position, ply, depth, window_in, value, Probe::Cutoff, None);
            }
            Known::Window(alpha, beta) => (alpha, beta),
        };
        // The children's entries exist only if they are deep enough to use the table.
        if self.config.enhanced_transposition_cutoff
            && uses_table
            && depth > self.config.table_min_depth
            && let Some(bound) = self.transposition_cutoff(position, depth, beta)
        {
            self.table.store((bucket, key), depth, (alpha, beta), (bound, None));
            let stored = Bound::of_result(bound, alpha, beta);
            return self.done(position, ply, depth, window_in, bound, Probe::Etc, Some(stored));
        }
        self.order_moves(position, ply, table_move);
        Entered::Expand(Node { key, bucket, depth, alpha, beta, ply, window_in, probe })
    }

    /// Whether the node at `position`, searched `depth` plies deep, probes and stores: deep enough
    /// for [`SearchParams::table_min_depth`], and the game lets it ([`Game::uses_table`]).
    #[inline]
    fn uses_table(&self, position: &G::Position, depth: u32) -> bool {
        depth >= self.config.table_min_depth && self.game.uses_table(position, depth)
    }

    /// The game's own value bounds ([`Game::value_bounds`]): a window outside them, or bounds that
    /// meet, answer the node; otherwise they narrow the window. (Crossed bounds break the game's
    /// contract; answering keeps the window non-empty.)
    fn game_bounds(&self, position: &G::Position, depth: u32, alpha: Value, beta: Value) -> Known {
        let Some((lower, upper)) = self.game.value_bounds(position, depth) else {
            return Known::Window(alpha, beta);
        };
        if lower >= upper || lower >= beta {
            Known::Answer(lower)
        } else if upper <= alpha {
            Known::Answer(upper)
        } else {
            Known::Window(alpha.max(lower), beta.min(upper))
        }
    }

    /// Probes the table for the position `key`, in its `bucket`, at `depth`: what the stored bounds
    /// say about the window, the stored best move, and whether the position was found.
    fn probe_table(
        &mut self,
        bucket: BucketIndex,
        key: u64,
        depth: u32,
        alpha: Value,
        beta: Value,
    ) -> (Known, Option<u32>, Probe) {
        self.stats.probes += 1;
        let Some(entry) = self.table.probe_mut(bucket, key) else {
            return (Known::Window(alpha, beta), None, Probe::Miss);
        };
        let table_move = entry.best_move;
        // An entry of exactly this depth bounds the depth-`d` value; with deeper entries, one of a
        // deeper search bounds the value of some extension of the tree, and may answer too.
        let usable = if self.config.deeper_entries { entry.depth >= depth } else { entry.depth == depth };
        if !usable {
            return (Known::Window(alpha, beta), table_move, Probe::Hit);
        }
        self.stats.hits += 1;
        // An exact value, or a bound that already decides the window, answers the node. (Narrowing
        // by an exact value would leave the empty window (v, v).)
        if entry.lower == entry.upper || entry.lower >= beta {
            return (Known::Answer(entry.lower), table_move, Probe::Cutoff);
        }
        if entry.upper <= alpha {
            return (Known::Answer(entry.upper), table_move, Probe::Cutoff);
        }
        // Narrow only by bounds on the number this search finds: with deeper entries the bound may
        // hold for another extension, and a result that fails low below the narrowed alpha would
        // pass for an exact value (Marsland's scheme, refuted).
        let window = if self.config.deeper_entries {
            (alpha, beta)
        } else {
            (alpha.max(entry.lower), beta.min(entry.upper))
        };
        (Known::Window(window.0, window.1), table_move, Probe::Hit)
    }
    // ANCHOR_END: enter

    /// The lower edge of the window a PVS or NegaScout re-search uses after a null-window search
    /// returned `scout` above the current best `alpha`. The scout's result is a lower bound on the
    /// child's value, so the re-search can start there; but with [deeper
    /// entries](crate::driver::SearchParams::deeper_entries) the scout and the re-search may see different
    /// extensions of the tree, and a re-search that fails low below `scout` would pass for an exact
    /// value. There the re-search starts from `alpha`, and the scout only decides *whether* to
    /// re-search.
    pub(crate) const fn research_floor(&self, scout: Value, alpha: Value) -> Value {
        if self.config.deeper_entries { alpha } else { scout }
    }

    /// Whether NegaScout may take a null-window result that fails high within two plies of the
    /// horizon as exact (Reinefeld's rule: below it are only leaves, which a null window evaluates
    /// all the same). Not with deeper entries: a table entry can answer the child with a mere bound.
    /// Nor failing hard: the rule reads the leaves' values through a fail-soft result, and a
    /// fail-hard one is clamped to the null window (`engine::every_driver_failing_hard_is_exact`
    /// found a tree of depth 3 where NegaScout then returned -1 for -2).
    pub(crate) const fn shallow_fail_high_is_exact(&self) -> bool {
        !self.config.deeper_entries && !self.config.fail_hard
    }

    /// Whether the node that returned last was answered by a bound (a table entry, enhanced
    /// transposition cutoff or the game's value bounds) rather than searched. Read right after a
    /// child's search, it says whether the child's result is a bound where a search would have
    /// given the value: Reinefeld's rule above holds only for a child searched, its leaves
    /// evaluated. (`engine::every_driver_on_threads_returns_the_minimax_value` found NegaScout
    /// returning 32,768 for 32,769 when a helper's upper bound answered a child one ply above the
    /// leaves; one thread rarely holds such a bound, several often do.)
    pub(crate) const fn last_answered_by_bound(&self) -> bool {
        self.answered_by_bound
    }

    /// A node answered without expanding it: tells the observer, and returns the value.
    #[allow(clippy::too_many_arguments)] // each is one field of the event, named at the call
    fn done(
        &mut self,
        position: &G::Position,
        ply: usize,
        depth: u32,
        (alpha, beta): (Value, Value),
        result: Value,
        probe: Probe,
        stored: Option<Bound>,
    ) -> Entered {
        let result = self.failing(result, (alpha, beta));
        self.answered_by_bound = matches!(probe, Probe::Bounds | Probe::Cutoff | Probe::Etc);
        if self.stop.armed {
            let node = NodeEntered { ply, position, depth, alpha, beta, perspective: Perspective::Mover };
            let probe = Some(probe);
            self.observer.returned(&NodeReturned { node, result, probe, stored, cutoff: None, moves: None });
        }
        Entered::Done(result)
    }

    /// The result a node returns: `g` itself, or with [`SearchParams::fail_hard`] `g` clamped to
    /// the window it was called with. Either is a bound the fail-soft contract allows.
    fn failing(&self, g: Value, (alpha, beta): (Value, Value)) -> Value {
        if self.config.fail_hard { g.max(alpha).min(beta) } else { g }
    }

    // ANCHOR: leave
    /// Closes a node searched with result `g` and best move `best`: stores the bound in the table and
    /// rewards a cut-off move. After a stop, nothing is stored: the result is meaningless.
    #[inline(always)]
    pub(crate) fn leave(
        &mut self,
        node: Node,
        position: &G::Position,
        ply: usize,
        g: Value,
        best: Option<G::Move>,
    ) -> Value {
        let Node { key, bucket, depth, alpha, beta, window_in, probe, .. } = node;
        let best_index = best.and_then(|best| self.move_lists[ply].index_in_game_order(best));
        if self.stop.stopped {
            return 0;
        }
        let g = self.failing(g, window_in);
        self.answered_by_bound = false;
        let cutoff = best.filter(|_| g >= beta);
        if let Some(mv) = cutoff {
            self.stats.cutoffs += 1;
            let slot = self.rules.record_history.then(|| self.game.history_slot(position, mv));
            self.ordering.record_cutoff(ply, mv, slot, depth, self.rules.record_killers);
        }
        let uses_table = self.uses_table(position, depth);
        if uses_table {
            let best_index = best_index.and_then(|index| u32::try_from(index).ok());
            self.table.store((bucket, key), depth, (alpha, beta), (g, best_index));
        }
        if self.stop.armed {
            // The table read the result against the window it searched, which the table's and the
            // game's bounds may have narrowed: that is the bound it stored.
            let stored = uses_table.then(|| Bound::of_result(g, alpha, beta));
            let (alpha, beta) = window_in;
            let node = NodeEntered { ply, position, depth, alpha, beta, perspective: Perspective::Mover };
            let probe = Some(probe);
            self.observer.returned(&NodeReturned { node, result: g, probe, stored, cutoff, moves: None });
        }
        g
    }
    // ANCHOR_END: leave

    /// Lists the moves at `position` in this ply's reusable list, to be handed out best guesses
    /// first. `table_move` is the index of the table's best move in the game's order.
    #[inline]
    fn order_moves(&mut self, position: &G::Position, ply: usize, table_move: Option<u32>) {
        if self.move_lists.len() <= ply {
            self.move_lists.resize_with(ply + 1, MovePicker::default);
        }
        let game = self.game;
        let rules = self.rules;
        let history = rules.sort_by_history.then_some(|mv: G::Move| game.history_slot(position, mv));
        let table_move = table_move.filter(|_| rules.table_move_first).map(|index| index as usize);
        let killers = rules.try_killers;
        let moves = &mut self.move_lists[ply];
        self.ordering.fill(moves, game.moves(position), ply, table_move, killers, history);
    }

    /// The next move to search at the expanded `node`, best guesses first, or `None` once every
    /// move has been searched.
    #[inline]
    pub(crate) fn next_move(&mut self, node: &Node) -> Option<G::Move> {
        self.move_lists.get_mut(node.ply)?.next()
    }

    /// The move a search of `position`, `ply` plies from the root, tries first, as it stands: the
    /// table's move, or else a killer that is a move there, or else the first of the game's moves
    /// (history scores aside). What a game that is asked many positions at once is asked ahead of
    /// time ([`Game::prefetch_children`]).
    pub(crate) fn first_move(&self, position: &G::Position, ply: usize) -> Option<G::Move> {
        if self.rules.table_move_first
            && let Some(mv) = self.table_move(position)
        {
            return Some(mv);
        }
        if self.rules.try_killers {
            let killers = self.ordering.killers(ply);
            if let Some(killer) =
                killers.into_iter().flatten().find(|&killer| self.game.moves(position).any(|mv| mv == killer))
            {
                return Some(killer);
            }
        }
        self.game.moves(position).next()
    }

    /// The table's best move at `position`, if it has one.
    pub(crate) fn table_move(&self, position: &G::Position) -> Option<G::Move> {
        let index = self.table.probe(self.game.key(position))?.best_move?;
        self.game.moves(position).nth(index as usize)
    }

    /// Enhanced transposition cutoff: if the table already proves that some child refutes this
    /// position's window (its upper bound, negated, reaches `beta`), return that bound without
    /// searching. Only entries of exactly the children's depth count, as everywhere.
    fn transposition_cutoff(&mut self, position: &G::Position, depth: u32, beta: Value) -> Option<Value> {
        let mut best: Option<Value> = None;
        for mv in self.game.moves(position) {
            let child = self.game.play(position, mv);
            if let Some(entry) = self.table.probe(self.game.key(&child))
                && entry.depth == depth - 1
                && -entry.upper >= beta
            {
                best = Some(best.map_or(-entry.upper, |b: Value| b.max(-entry.upper)));
            }
        }
        best
    }
}
