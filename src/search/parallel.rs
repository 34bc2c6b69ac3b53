//! Searching on several threads: lazy SMP over one shared transposition table.
//!
//! [`Engine::search_on_threads`] runs a search on every thread. The main thread's search is the one
//! whose iterations, value and principal variation are reported; the helper threads search the same
//! root at the same depths, and their only effect is the bounds they leave in the shared table,
//! which let the main thread skip subtrees a helper has already proved. To make the threads spread
//! out rather than search in lockstep, helper `k` runs another driver than the main thread (MTD(f),
//! PVS, DUAL* or SSS*, in turn) and tries the root's moves rotated by `k`. When the main thread
//! finishes, the helpers are told to stop; a stopped search stores nothing.
//!
//! # Why the value stays exact
//!
//! The main thread's search is an ordinary fixed-depth search over a table, and such a search returns
//! exactly the depth-`d` value whatever the table holds, provided that every entry it reads at depth
//! `d'` bounds its position's depth-`d'` value (the engine uses an entry only at exactly the node's
//! depth, [`super::table`]). The threads keep that true:
//!
//! * every store records the result of a *complete* fail-soft search of its position and depth,
//!   against the window it was searched with, on whichever thread; a search cut short by a stop
//!   stores nothing;
//! * two results for one position and depth are merged into the tighter of each bound; both are
//!   bounds on the same number, so the merged entry is one too;
//! * a probe returns an entry exactly as one store wrote it, never a mix of two racing stores (the
//!   table's sequence locks, [`super::table`]); a store that finds its slot being written by another
//!   thread is dropped, which only costs a re-search.
//!
//! What races change is *which* bounds the main thread finds and when, and so how many nodes it
//! visits: counts of a parallel search vary from run to run, values do not. The property test
//! `engine::every_driver_on_threads_returns_the_minimax_value` checks every driver against minimax.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::ordering::MoveOrdering;
use super::searcher::{PlyMoves, Searcher, StopCheck, TableAccess};
use super::{Algorithm, Engine, Lines, deepen, outcome};
use crate::driver::{Counts, Iteration, Outcome, SearchParams};
use crate::game::Game;

/// The driver helper `k` (from 1) runs beside a main thread running `main`: another driver than the
/// main thread's, so that the helper tests other windows, finds other cut-offs and leaves bounds the
/// main thread has not found yet, instead of searching what the main thread searches at the same
/// moment. (With the main thread's own driver, `mtd-pons` on two threads took 234 ms a position
/// on the first 40 lines of the hard set against 165 ms on one; with `mtdf` beside it, 154 ms.)
fn companion(main: Algorithm, k: usize) -> Algorithm {
    const COMPANIONS: [Algorithm; 4] = [Algorithm::Mtdf, Algorithm::Pvs, Algorithm::Dual, Algorithm::Sss];
    let others: Vec<Algorithm> = COMPANIONS.into_iter().filter(|&companion| companion != main).collect();
    others[(k - 1) % others.len()]
}

/// The stack of each helper thread. The searches recurse once per ply, so a helper needs as much
/// stack as the thread that calls [`Engine::search_on_threads`]; 1 GiB holds the deepest search the
/// command line allows, and only the pages the recursion reaches are ever touched.
pub const HELPER_STACK_BYTES: usize = 1 << 30;

impl<G> Engine<G>
where
    G: Game + Sync,
    G::Position: Sync,
    G::Move: Send,
{
    /// As [`Engine::search_from`], on `threads` threads sharing this engine's table (lazy SMP; see
    /// the [module documentation](self)). The value, iterations and principal variation are the
    /// main thread's, exactly what one thread finds; the counts add up every thread's nodes. One
    /// thread (or zero) is [`Engine::search_from`] itself. The helpers run on threads of
    /// [`HELPER_STACK_BYTES`] of stack.
    ///
    /// ```
    /// use nullwindow::driver::SearchParams;
    /// use nullwindow::game::Game;
    /// use nullwindow::games::connect4::Connect4;
    /// use nullwindow::search::{Algorithm, Engine};
    ///
    /// let game = Connect4::from_moves("4455").unwrap();
    /// let params = SearchParams { depth: 8, ..SearchParams::default() };
    /// let one = Engine::new(&params).search_from(&game, &game.root(), Algorithm::Mtdf, &params, |_| {});
    /// let two = Engine::new(&params).search_on_threads(&game, &game.root(), Algorithm::Mtdf, &params, 2, |_| {});
    /// assert_eq!(one.value, two.value);
    /// ```
    pub fn search_on_threads(
        &mut self,
        game: &G,
        root: &G::Position,
        algorithm: Algorithm,
        params: &SearchParams,
        threads: usize,
        mut observer: impl FnMut(&Iteration<G::Move>),
    ) -> Outcome<G::Move> {
        if threads <= 1 {
            return self.search_from(game, root, algorithm, params, observer);
        }
        let start = Instant::now();
        self.prepare(game, params);
        // The helpers stop when the main thread is done (or stopped by a limit of `params`).
        let main_done = Arc::new(AtomicBool::new(false));
        let helper_params = SearchParams {
            node_limit: None,
            time_limit: None,
            cancel: Some(Arc::clone(&main_done)),
            ..params.clone()
        };
        let Self { table, ordering, move_lists, passes, .. } = self;
        let table: &_ = table;
        let history_slots = game.history_slots();
        // ANCHOR: lazy_smp
        let (main, helper_counts) = std::thread::scope(|scope| {
            // A helper that cannot be started (the system refuses a thread) is left out: fewer
            // helpers only make the search slower.
            let helpers: Vec<_> = (1..threads)
                .filter_map(|rotation| {
                    let helper_params = &helper_params;
                    let helper = move || {
                        let mut ordering = MoveOrdering::new(64, history_slots);
                        let mut move_lists: Vec<PlyMoves<G::Move>> = Vec::new();
                        let mut searcher = Searcher {
                            game,
                            table: TableAccess::Shared(table),
                            ordering: &mut ordering,
                            move_lists: &mut move_lists,
                            config: helper_params,
                            stats: Counts::default(),
                            stop: StopCheck::from_limits(helper_params, start),
                            tracer: None,
                            root_rotation: rotation,
                        };
                        let companion = companion(algorithm, rotation);
                        deepen(&mut searcher, &mut Vec::new(), root, companion, start, Lines::Skipped).2
                    };
                    std::thread::Builder::new()
                        .name(format!("search helper {rotation}"))
                        .stack_size(HELPER_STACK_BYTES)
                        .spawn_scoped(scope, helper)
                        .ok()
                })
                .collect();
            let mut searcher = Searcher {
                game,
                table: TableAccess::Shared(table),
                ordering,
                move_lists,
                config: params,
                stats: Counts::default(),
                stop: StopCheck::from_limits(params, start),
                tracer: None,
                root_rotation: 0,
            };
            let main = deepen(&mut searcher, passes, root, algorithm, start, Lines::Verified(&mut observer));
            main_done.store(true, Ordering::Relaxed);
            // A helper that panicked (a game's bug) takes the search down with it, as on one thread.
            let counts: Vec<Counts> = helpers
                .into_iter()
                .map(|helper| helper.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
                .collect();
            (main, counts)
        });
        // ANCHOR_END: lazy_smp
        let (iterations, stopped, mut counts) = main;
        for helper in helper_counts {
            counts = counts.plus(&helper);
        }
        let static_value = game.to_move(root).perspective(game.evaluate_for_mover(root));
        outcome(algorithm, iterations, static_value, stopped, counts, start)
    }
}
