//! Searching on several threads: the helpers join the main thread's root searches, share one
//! transposition table, and split each node's children with ABDADA's deferral.
//!
//! [`Engine::search_on_threads`] runs the main thread's search as on one thread: its iterations,
//! value and principal variation are the ones reported. Each time it starts a search of the root
//! (an MTD driver's null-window test, a PVS iteration, an aspiration window) it *announces* the
//! depth and window, and every helper drops what it was doing and searches the root with that
//! depth and window too. The threads then meet at the same nodes, where
//! [`abdada`](super::abdada) sends them to different children: a child one thread is searching, the
//! others defer.
//!
//! The single-thread core knows nothing of this. The main thread announces through an
//! [observer](crate::driver::observe) that hears its root calls (ply 0), and its drivers search
//! the root with `MainRootSearch` ([`Deferring`], alpha-beta that defers busy children, which a
//! helper may overtake) instead of plain alpha-beta: a [`WindowSearch`] chosen here, where the
//! search starts. What a helper proves, it stores in the shared table, where the main thread finds
//! it. A helper's search is thrown away when the main thread announces the next one (a search
//! checks every 1,024 nodes), or when the main thread is done; a stopped search stores nothing. A
//! helper that completes the root search before the main thread does tells it so, and the main
//! thread gives up its own search of that root at its next check and takes the helper's result:
//! otherwise it would go on through subtrees whose bounds the helper has already stored, while the
//! helper waits.
//!
//! (An earlier version was lazy SMP: every helper ran a whole search of its own, with another MTD
//! driver than the main thread's, and only the table connected them. On the hard Connect Four set
//! two threads then gained nothing: they rarely worked on what the main thread needed next.)
//!
//! # Why the value stays exact
//!
//! The main thread's search is an ordinary fixed-depth search over a table, and such a search returns
//! exactly the depth-`d` value whatever the table holds, provided that every entry it reads at depth
//! `d'` bounds its position's depth-`d'` value (the engine uses an entry only at exactly the node's
//! depth, [`super::table`]), and whatever order it searches the children of a node in. The threads
//! keep that true:
//!
//! * every store records the result of a *complete* fail-soft search of its position and depth,
//!   against the window it was searched with, on whichever thread; a search cut short by a stop
//!   stores nothing;
//! * two results for one position and depth are merged into the tighter of each bound; both are
//!   bounds on the same number, so the merged entry is one too;
//! * a probe returns an entry exactly as one store wrote it, never a mix of two racing stores (each
//!   slot is one 128-bit atomic word, [`super::table`]); a store whose slot another thread changed
//!   since it read it is dropped, which only costs a re-search;
//! * deferring a child changes only the order of a node's children (see [`super::abdada`]);
//! * a result the main thread takes from a helper is that of a complete fail-soft search of the
//!   same root, depth and window: one its own search could have returned. (It is taken only when
//!   the depth and window match, whatever the serial numbers say.)
//!
//! What races change is *which* bounds the main thread finds and when, and so how many nodes it
//! visits: counts of a parallel search vary from run to run, values do not. The property test
//! `engine::every_driver_on_threads_returns_the_minimax_value` checks every driver against minimax.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use super::abdada::{BusyPositions, Deferring, alpha_beta_deferring};
use super::ordering::MovePicker;
use super::searcher::{Parts, Searcher, StopCheck, TableAccess, WindowSearch};
use super::{Algorithm, Engine, SharedParts, deepen, outcome};
use crate::driver::observe::{NodeEntered, Observer, Silent};
use crate::driver::{Counts, Iteration, Outcome, SearchParams};
use crate::game::Game;
use crate::value::Value;

/// A root search the main thread announced: its serial number, depth and window.
#[derive(Clone, Copy, Debug, Default)]
struct Announced {
    serial: u64,
    depth: u32,
    alpha: Value,
    beta: Value,
}

/// A root search a helper completed: its depth and window, and the result.
#[derive(Clone, Copy, Debug)]
struct Completed {
    depth: u32,
    alpha: Value,
    beta: Value,
    result: Value,
}

/// Where the main thread of a parallel search announces each search of the root, and the helpers
/// wait for the next one, and tell the main thread when they complete one first.
#[derive(Debug, Default)]
pub(crate) struct RootSearches {
    /// The latest announcement; `None` once the main thread is done.
    latest: Mutex<Option<Announced>>,
    announced: Condvar,
    /// The latest serial number, read by the helpers' stop checks without the lock.
    serial: Arc<AtomicU64>,
    /// The latest root search a helper completed.
    completed: Mutex<Option<Completed>>,
    /// Its serial number, read by the main thread's stop check without the lock.
    completed_serial: Arc<AtomicU64>,
}

impl RootSearches {
    fn new() -> Self {
        Self { latest: Mutex::new(Some(Announced::default())), ..Self::default() }
    }

    fn lock(&self) -> MutexGuard<'_, Option<Announced>> {
        // The lock guards plain numbers: a thread that panicked holding it left them whole.
        self.latest.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The main thread starts a search of the root `depth` plies deep with the window
    /// `(alpha, beta)`: the helpers' current searches are over, and they join this one.
    pub(crate) fn announce(&self, depth: u32, alpha: Value, beta: Value) {
        let mut latest = self.lock();
        if let Some(search) = latest.as_mut() {
            *search = Announced { serial: search.serial + 1, depth, alpha, beta };
            self.serial.store(search.serial, Ordering::Relaxed);
        }
        self.announced.notify_all();
    }

    /// The main thread is done: the helpers stop.
    fn finish(&self) {
        *self.lock() = None;
        self.serial.store(u64::MAX, Ordering::Relaxed);
        self.announced.notify_all();
    }

    /// A helper completed the root search `search` with `result`: the main thread, if it is still
    /// on that search, stops and takes the result.
    fn complete(&self, search: &Announced, result: Value) {
        let Announced { serial, depth, alpha, beta } = *search;
        if self.serial.load(Ordering::Relaxed) != serial {
            // The main thread has moved on: the result would only stand in for a newer one's.
            return;
        }
        *self.completed.lock().unwrap_or_else(PoisonError::into_inner) =
            Some(Completed { depth, alpha, beta, result });
        // After the result: the main thread reads it once it sees the number.
        self.completed_serial.store(serial, Ordering::Release);
    }

    /// The result of a completed root search `depth` plies deep with the window `(alpha, beta)`,
    /// if that is the one a helper completed last.
    fn completed(&self, depth: u32, alpha: Value, beta: Value) -> Option<Value> {
        let completed = *self.completed.lock().unwrap_or_else(PoisonError::into_inner);
        completed
            .filter(|search| (search.depth, search.alpha, search.beta) == (depth, alpha, beta))
            .map(|search| search.result)
    }

    /// Waits for a root search newer than `seen`; `None` once the main thread is done.
    fn next_after(&self, seen: u64) -> Option<Announced> {
        let latest = self.lock();
        let latest = self
            .announced
            .wait_while(latest, |latest| latest.is_some_and(|search| search.serial == seen))
            .unwrap_or_else(PoisonError::into_inner);
        *latest
    }
}

// ANCHOR: announcer
/// The main thread's announcer: it hears the main thread's search like any observer, and announces
/// each root call (ply 0) it enters to the helpers. The events are heard only while the search
/// proper runs, not while the principal variation is verified.
struct Announcer<'a>(&'a RootSearches);

impl<G: Game> Observer<G> for Announcer<'_> {
    fn entered(&mut self, node: &NodeEntered<'_, G::Position>) {
        if node.ply == 0 {
            self.0.announce(node.depth, node.alpha, node.beta);
        }
    }
}
// ANCHOR_END: announcer

/// Tells the helpers that the main thread is done when it goes out of scope, even by a panic: the
/// helpers would otherwise wait for an announcement forever, and the scope for them.
struct FinishOnDrop<'a>(&'a RootSearches);

impl Drop for FinishOnDrop<'_> {
    fn drop(&mut self) {
        self.0.finish();
    }
}

// ANCHOR: helper
/// A helper thread's work: search each root search the main thread announces, with its depth and
/// window, until the main thread announces the next one or is done. Returns what it counted.
fn help<G: Game>(
    searcher: &mut Searcher<'_, G>,
    busy: &BusyPositions,
    root: &G::Position,
    root_searches: &RootSearches,
) -> Counts {
    let mut seen = 0;
    while let Some(search) = root_searches.next_after(seen) {
        seen = search.serial;
        searcher.stop.superseded = Some((Arc::clone(&root_searches.serial), search.serial));
        searcher.stop.stopped = false;
        // The helper leaves its bounds in the table for the main thread to find; should it complete
        // the root search first, the main thread takes its result and moves on.
        let result = alpha_beta_deferring(searcher, busy, root, search.depth, search.alpha, search.beta, 0);
        if !searcher.stop.stopped {
            root_searches.complete(&search, result);
        }
    }
    searcher.stats
}
// ANCHOR_END: helper

// ANCHOR: main_root_search
/// How the main thread searches the root on threads: [`Deferring`], given up as soon as a helper
/// has completed a search of the root with the same depth and window, whose result it then
/// returns. That result is the one this search would be allowed to return: a complete fail-soft
/// search of the same position, depth and window, on another thread.
struct MainRootSearch<'b> {
    deferring: Deferring<'b>,
    root_searches: &'b RootSearches,
}

impl<G: Game, O: Observer<G>> WindowSearch<G, O> for MainRootSearch<'_> {
    fn search(
        &self,
        searcher: &mut Searcher<'_, G, O>,
        position: &G::Position,
        depth: u32,
        alpha: Value,
        beta: Value,
        ply: usize,
    ) -> Value {
        // Only a search of the root is announced, and so only one may be completed elsewhere.
        if ply != 0 {
            return self.deferring.search(searcher, position, depth, alpha, beta, ply);
        }
        loop {
            let root_searches = self.root_searches;
            let numbers = (Arc::clone(&root_searches.completed_serial), Arc::clone(&root_searches.serial));
            searcher.stop.overtakable = Some(numbers);
            let result = self.deferring.search(searcher, position, depth, alpha, beta, ply);
            searcher.stop.overtakable = None;
            if !searcher.stop.overtaken {
                return result;
            }
            searcher.stop.overtaken = false;
            searcher.stop.stopped = false;
            if let Some(result) = root_searches.completed(depth, alpha, beta) {
                return result;
            }
            // The numbers matched before this search was announced (the helper had completed the
            // one before it): search again. The root is announced as the search enters it, and
            // the numbers then differ until a helper completes this one.
        }
    }
}
// ANCHOR_END: main_root_search

/// The stack of each helper thread. The searches recurse once per ply, so a helper needs as much
/// stack as the thread that calls [`Engine::search_on_threads`]; 1 GiB holds the deepest search the
/// command line allows, and only the pages the recursion reaches are ever touched.
pub const HELPER_STACK_BYTES: usize = 1 << 30;

/// How many threads a parallel search runs on, and when it starts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threads {
    /// Threads in all, the calling thread included; 0 and 1 both mean one thread.
    pub count: usize,
    /// The search first runs on the calling thread alone for up to this many nodes, and starts its
    /// helpers only if that did not finish it (0: at once). Starting a thread costs as much as
    /// thousands of nodes, more than a small search takes.
    pub alone_nodes: u64,
}

impl Threads {
    /// `count` threads, the helpers started after [`Threads::ALONE_NODES`] nodes on one thread.
    #[must_use]
    pub const fn new(count: usize) -> Self {
        Self { count, alone_nodes: Self::ALONE_NODES }
    }

    /// The default of [`Threads::alone_nodes`]: 2^14 nodes, about 2 ms of Connect Four.
    pub const ALONE_NODES: u64 = 1 << 14;
}

impl<G> Engine<G>
where
    G: Game + Sync,
    G::Position: Sync,
    G::Move: Send,
{
    /// As [`Engine::search_from`], on [`Threads::count`] threads sharing this engine's table: the
    /// helpers join each of the main thread's searches of the root (see the [module
    /// documentation](self)). A search that ends within [`Threads::alone_nodes`] nodes runs on the
    /// calling thread alone.
    /// The value, iterations and principal variation are the main thread's, exactly what one thread
    /// finds; the counts add up every thread's nodes. One thread (or zero) is
    /// [`Engine::search_from`] itself. The helpers run on threads of [`HELPER_STACK_BYTES`] of stack;
    /// time and node limits apply to the main thread.
    ///
    /// ```
    /// use nullwindow::driver::SearchParams;
    /// use nullwindow::game::Game;
    /// use nullwindow::games::connect4::Connect4;
    /// use nullwindow::search::{Algorithm, Engine, Threads};
    ///
    /// let game = Connect4::from_moves("4455").unwrap();
    /// let params = SearchParams { depth: 8, ..SearchParams::default() };
    /// let one = Engine::new(&params).search_from(&game, &game.root(), Algorithm::Mtdf, &params, |_| {});
    /// let two = Engine::new(&params).search_on_threads(&game, &game.root(), Algorithm::Mtdf, &params, Threads::new(2), |_| {});
    /// assert_eq!(one.value, two.value);
    /// ```
    pub fn search_on_threads(
        &mut self,
        game: &G,
        root: &G::Position,
        algorithm: Algorithm,
        params: &SearchParams,
        threads: Threads,
        progress: impl FnMut(&Iteration<G::Move>),
    ) -> Outcome<G::Move> {
        self.search_on_threads_observed(game, root, algorithm, params, threads, progress, Silent)
    }

    /// As [`Engine::search_on_threads`], telling `observer` of every node the main thread searches
    /// (see [`crate::driver::observe`]), a first try alone included.
    #[allow(clippy::too_many_arguments)] // the arguments of `search_on_threads`, and the observer
    pub fn search_on_threads_observed<O: Observer<G>>(
        &mut self,
        game: &G,
        root: &G::Position,
        algorithm: Algorithm,
        params: &SearchParams,
        threads: Threads,
        mut progress: impl FnMut(&Iteration<G::Move>),
        mut observer: O,
    ) -> Outcome<G::Move> {
        if threads.count <= 1 {
            return self.search_with(game, root, algorithm, params, progress, observer);
        }
        // ANCHOR: alone_first
        // A search that ends within `alone_nodes` runs on this thread alone, exactly as
        // `search_from`; a longer one restarts with helpers, on a table that keeps what the first try
        // proved.
        let start = Instant::now();
        let mut first_counts = Counts::default();
        if threads.alone_nodes > 0 {
            let alone_limit =
                params.node_limit.map_or(threads.alone_nodes, |limit| limit.min(threads.alone_nodes));
            let alone = SearchParams { node_limit: Some(alone_limit), ..params.clone() };
            let mut heard = Vec::new();
            let hear = |iteration: &Iteration<G::Move>| heard.push(iteration.clone());
            let first = self.search_with(game, root, algorithm, &alone, hear, &mut observer);
            let over = params.node_limit.is_some_and(|limit| limit <= threads.alone_nodes)
                || params.time_limit.is_some_and(|time| start.elapsed() >= time)
                || params.cancel.as_ref().is_some_and(|flag| flag.load(Ordering::Relaxed));
            if !first.stopped || over {
                heard.iter().for_each(&mut progress);
                return first;
            }
            first_counts = first.counts;
        }
        // ANCHOR_END: alone_first
        let params = &SearchParams {
            node_limit: params.node_limit.map(|limit| limit.saturating_sub(first_counts.nodes)),
            time_limit: params.time_limit.map(|time| time.saturating_sub(start.elapsed())),
            ..params.clone()
        };
        let resumed = Instant::now();
        let SharedParts { table, ordering, move_lists, passes } = self.shared_parts(game, params);
        let helper_ordering = ordering.clone();
        let helper_params =
            SearchParams { node_limit: None, time_limit: None, cancel: None, ..params.clone() };
        let busy = &BusyPositions::new();
        let root_searches = &RootSearches::new();
        // ANCHOR: threads
        let (main, helper_counts) = std::thread::scope(|scope| {
            // A helper that cannot be started (the system refuses a thread) is left out: fewer
            // helpers only make the search slower.
            let helpers: Vec<_> = (1..threads.count)
                .filter_map(|number| {
                    let helper_params = &helper_params;
                    // What the main thread has learnt of the game's moves so far.
                    let mut ordering = helper_ordering.clone();
                    let helper = move || {
                        let mut move_lists: Vec<MovePicker<G::Move>> = Vec::new();
                        let parts = Parts {
                            table: TableAccess::Shared(table),
                            ordering: &mut ordering,
                            move_lists: &mut move_lists,
                        };
                        let stop = StopCheck::from_limits(helper_params, resumed);
                        let mut searcher = Searcher::new(game, parts, helper_params, stop, Silent);
                        help(&mut searcher, busy, root, root_searches)
                    };
                    std::thread::Builder::new()
                        .name(format!("search helper {number}"))
                        .stack_size(HELPER_STACK_BYTES)
                        .spawn_scoped(scope, helper)
                        .ok()
                })
                .collect();
            let finish = FinishOnDrop(root_searches);
            // ANCHOR: main_thread
            let parts = Parts { table: TableAccess::Shared(table), ordering, move_lists };
            let stop = StopCheck::from_limits(params, resumed);
            let observer = (Announcer(root_searches), &mut observer);
            let mut searcher = Searcher::new(game, parts, params, stop, observer);
            let root_search = MainRootSearch { deferring: Deferring(busy), root_searches };
            let main = deepen(&mut searcher, passes, root, algorithm, start, &mut progress, &root_search);
            // ANCHOR_END: main_thread
            drop(finish);
            // A helper that panicked (a game's bug) takes the search down with it, as on one thread.
            let counts: Vec<Counts> = helpers
                .into_iter()
                .map(|helper| helper.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
                .collect();
            (main, counts)
        });
        // ANCHOR_END: threads
        let (iterations, stopped, mut counts) = main;
        counts = counts.plus(&first_counts);
        for helper in helper_counts {
            counts = counts.plus(&helper);
        }
        let static_value = game.to_move(root).perspective(game.evaluate_for_mover(root));
        outcome(algorithm, iterations, static_value, stopped, counts, start)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering;
    use std::time::Instant;

    use super::{Announcer, Completed, MainRootSearch, RootSearches};
    use crate::driver::SearchParams;
    use crate::game::Game;
    use crate::search::abdada::{BusyPositions, Deferring, alpha_beta_deferring};
    use crate::search::searcher::{Parts, Searcher, StopCheck, TableAccess, WindowSearch};
    use crate::search::{Algorithm, Engine};
    use crate::tree::synthetic::{SyntheticConfig, SyntheticTree};
    use crate::value::Value;

    /// A tree whose null-window searches take many times the 1,024 nodes between two stop checks.
    fn tree() -> SyntheticTree {
        SyntheticTree::new(SyntheticConfig { width: 8, depth: 8, ..SyntheticConfig::default() }).unwrap()
    }

    /// The tree searched to its full depth, 8.
    fn params() -> SearchParams {
        SearchParams { depth: 8, ..SearchParams::default() }
    }

    /// The tree's exact value, and the null window just below it, on which a search fails high.
    fn value_and_window(tree: &SyntheticTree) -> (Value, (Value, Value)) {
        let value = Engine::new(&params()).search(tree, Algorithm::Mtdf, &params(), |_| {}).value;
        (value, (value - 1, value))
    }

    /// The main thread's search of the root with the window `(alpha, beta)`, after a helper is made
    /// to have completed the search it announces next with `completed`; its result and nodes.
    fn main_thread_search(
        tree: &SyntheticTree,
        window: (Value, Value),
        completed: Completed,
    ) -> (Value, u64) {
        let params = params();
        let mut engine = Engine::new(&params);
        let parts = engine.shared_parts(tree, &params);
        let root_searches = RootSearches::new();
        // The root search the main thread is about to announce is number 1.
        *root_searches.completed.lock().unwrap() = Some(completed);
        root_searches.completed_serial.store(1, Ordering::Release);
        let parts = Parts {
            table: TableAccess::Shared(parts.table),
            ordering: parts.ordering,
            move_lists: parts.move_lists,
        };
        let stop = StopCheck::from_limits(&params, Instant::now());
        let mut searcher = Searcher::new(tree, parts, &params, stop, Announcer(&root_searches));
        let busy = BusyPositions::new();
        let root_search = MainRootSearch { deferring: Deferring(&busy), root_searches: &root_searches };
        let result = root_search.search(&mut searcher, &tree.root(), 8, window.0, window.1, 0);
        assert!(!searcher.stop.stopped, "the search goes on after taking a result");
        (result, searcher.counts().nodes)
    }

    /// What a helper finds: the root searched with the window `(alpha, beta)`, to the end.
    fn helper_search(tree: &SyntheticTree, (alpha, beta): (Value, Value)) -> (Value, u64) {
        Engine::new(&params()).with_searcher(tree, &params(), |searcher| {
            let busy = BusyPositions::new();
            let result = alpha_beta_deferring(searcher, &busy, &tree.root(), 8, alpha, beta, 0);
            (result, searcher.counts().nodes)
        })
    }

    #[test]
    fn the_main_thread_takes_the_result_of_the_root_search_a_helper_completed() {
        let tree = tree();
        let (_, window) = value_and_window(&tree);
        let (result, nodes) = helper_search(&tree, window);
        assert!(nodes > 4 * 1024, "the test needs a search longer than a few stop checks: {nodes}");
        let completed = Completed { depth: 8, alpha: window.0, beta: window.1, result };
        let (taken, main_nodes) = main_thread_search(&tree, window, completed);
        assert_eq!(taken, result, "the helper's result is the main thread's");
        // Stopped nodes still count as their parents unwind, a few dozen.
        assert!(main_nodes < 2 * 1024, "the main thread gives up at its first stop check: {main_nodes}");
    }

    #[test]
    fn a_result_for_another_window_is_not_taken() {
        let tree = tree();
        let (value, window) = value_and_window(&tree);
        let (result, _) = helper_search(&tree, window);
        // A record of the window one above, with a result that would be wrong here: taken, it
        // would say that the search below the value failed low.
        let stale = Completed { depth: 8, alpha: value, beta: value + 1, result: value - 1 };
        let (searched, main_nodes) = main_thread_search(&tree, window, stale);
        assert!(searched >= value && result >= value, "both fail high: {searched}, {result}");
        assert!(main_nodes > 4 * 1024, "the main thread searched again to the end: {main_nodes} nodes");
    }
}
