//! Aske Plaat's web page "MTD(f), a new chess algorithm" (also "MTD(f), A Minimax Algorithm Faster
//! Than NegaScout", arXiv:1404.1511): `MTDF`, `iterative_deepening` and `AlphaBetaWithMemory` in
//! minimax form. Line numbers below count the lines of
//! the page as saved (its HTML source).
//!
//! * `MTDF` (lines 34–44): a Pascal `repeat … until`, here a `loop` that tests at the bottom.
//! * `iterative_deepening` (lines 78–84).
//! * `AlphaBetaWithMemory` (lines 172–205), with the table of [`super::memory`].
//!
//! **One name, two meanings.** In `MTDF`, `upperbound` and `lowerbound` are the bounds on the *root's*
//! value that the passes close in on; in `AlphaBetaWithMemory`, `n.upperbound` and `n.lowerbound` are
//! the bounds the *table* holds for node `n`. The translation keeps both names as printed; the table's
//! pair lives in a [`Bounds`] called `n`.
//!
//! # Deviations
//!
//! 1. `AlphaBetaWithMemory` evaluates a node with no children even when `d > 0`: the printed code
//!    would run neither loop and return `±INFINITY` for a game that ended before the depth ran out.
//! 2. The saved page ends inside the last statement (`if g >= beta then`, line 205); its body is
//!    completed as the two before it are, `n.lowerbound := g; store n.lowerbound`, and `return g`.
//! 3. `iterative_deepening` has no clock: `times_up()` is always false, and `MAX_SEARCH_DEPTH` is the
//!    requested depth (or the game's depth bound, when smaller).
//! 4. `INFINITY` is the crate's [`INFINITY`], 10⁹, so that `g + 1` and `beta - 1` cannot overflow.
//!
//! # What the tests found
//!
//! The table has no depth field (line 174 retrieves by node alone). So a bound found by a shallow
//! search answers a deeper one, and the printed code returns wrong values in two places:
//!
//! * `iterative_deepening`: depth `d` reuses the bounds of depth `d - 1`, whose leaves were the
//!   interior nodes' static evaluations. Wrong on plain trees (driver `plaat-id`).
//! * `AlphaBetaWithMemory` and `MTDF` at a fixed depth: wrong on a game graph where one position is
//!   reached at two depths (drivers `plaat-alphabeta-memory`, `plaat-mtdf`).
//!
//! Besides, `iterative_deepening` returns its initial `firstguess := 0` without searching when
//! `MAX_SEARCH_DEPTH` is 0 (a single-leaf tree, or `--depth 0`).
//!
//! The corrected drivers (`…-corrected`) make the smallest changes: the table is keyed by node *and*
//! depth ([`Memory::keyed_by_node_and_depth`](super::memory::Memory::keyed_by_node_and_depth)), and
//! corrected iterative deepening starts from the root's evaluation, the depth-0 value, instead of 0.

use super::memory::Bounds;
use super::{Perspective, Search, Table, first_guess, run_listing};
use crate::driver::{Hooks, Outcome, SearchParams, capped_depth};
use crate::game::{Game, Player};
use crate::value::{INFINITY, Value};

// ANCHOR: mtdf
/// `MTDF` (Plaat, "MTD(f), a new chess algorithm", lines 34–44): null-window calls of
/// `AlphaBetaWithMemory` at the root, each moving `upperbound` down or `lowerbound` up, until they
/// meet. Values from MAX's side.
pub fn mtdf<G: Game>(search: &mut Search<'_, G>, root: &G::Position, f: Value, d: u32) -> Value {
    let mut g = f;
    // The root's bounds, not the table's `n.upperbound` and `n.lowerbound`.
    let mut upperbound = INFINITY;
    let mut lowerbound = -INFINITY;
    loop {
        let beta = if g == lowerbound { g + 1 } else { g };
        g = alpha_beta_with_memory(search, root, beta - 1, beta, d);
        search.pass(beta - 1, beta, g);
        if g < beta {
            upperbound = g;
        } else {
            lowerbound = g;
        }
        if lowerbound >= upperbound {
            break;
        }
    }
    g
}
// ANCHOR_END: mtdf

// ANCHOR: iterative_deepening
/// `iterative_deepening` (Plaat, "MTD(f), a new chess algorithm", lines 78–84): MTD(f) at depths 1
/// to `max_search_depth`, each iteration's value the next one's first guess.
pub fn iterative_deepening<G: Game>(
    search: &mut Search<'_, G>,
    root: &G::Position,
    max_search_depth: u32,
) -> Value {
    let mut firstguess = 0;
    for d in 1..=max_search_depth {
        firstguess = mtdf(search, root, firstguess, d);
        // deviation: no clock; `times_up()` is always false.
    }
    firstguess
}
// ANCHOR_END: iterative_deepening

// ANCHOR: iterative_deepening_corrected
/// Corrected `iterative_deepening`: the first guess is the root's evaluation, which is also the
/// depth-0 value, so a depth-0 search returns it. (Run it over the table keyed by depth.)
pub fn iterative_deepening_corrected<G: Game>(
    search: &mut Search<'_, G>,
    root: &G::Position,
    max_search_depth: u32,
) -> Value {
    // correction: `firstguess := evaluate(root)`, not 0.
    let mut firstguess = search.evaluate(root);
    for d in 1..=max_search_depth {
        firstguess = mtdf(search, root, firstguess, d);
    }
    firstguess
}
// ANCHOR_END: iterative_deepening_corrected

/// `AlphaBetaWithMemory(n, alpha, beta, d)` as callers see it: counts the node, runs the listing
/// ([`alpha_beta_with_memory_listing`]) and reports the call to the observer.
///
/// Contract (fail-soft, Plaat et al. 1996, p. 8), with `f` the depth-`d` minimax value of `n` from
/// MAX's side: `g <= alpha` implies `f <= g`; `g >= beta` implies `f >= g`; otherwise `g == f`. It
/// holds when every bound in the table was found at the depth it is used at (see the module
/// documentation for when the printed table breaks that).
pub fn alpha_beta_with_memory<G: Game>(
    search: &mut Search<'_, G>,
    n: &G::Position,
    alpha: Value,
    beta: Value,
    d: u32,
) -> Value {
    search.call(n, (d, alpha, beta), Perspective::Max, |search| {
        alpha_beta_with_memory_listing(search, n, alpha, beta, d)
    })
}

// ANCHOR: alpha_beta_with_memory
/// `AlphaBetaWithMemory` (Plaat, "MTD(f), a new chess algorithm", lines 172–205), in minimax form.
pub fn alpha_beta_with_memory_listing<G: Game>(
    search: &mut Search<'_, G>,
    n: &G::Position,
    mut alpha: Value,
    mut beta: Value,
    d: u32,
) -> Value {
    let key = search.game.key(n);
    // The table's pair for `n`: `n.lowerbound` and `n.upperbound`.
    let mut n_bounds = Bounds::UNKNOWN;
    if let Some(stored) = search.memory.retrieve(key, d) {
        n_bounds = stored;
        if n_bounds.lowerbound >= beta {
            return n_bounds.lowerbound;
        }
        if n_bounds.upperbound <= alpha {
            return n_bounds.upperbound;
        }
        alpha = alpha.max(n_bounds.lowerbound);
        beta = beta.min(n_bounds.upperbound);
    }
    let mut g;
    // deviation: a node without children is a leaf at any depth.
    if d == 0 || search.game.is_terminal(n) {
        g = search.evaluate(n);
    } else if search.game.to_move(n) == Player::Max {
        g = -INFINITY;
        let mut a = alpha; // save original alpha value
        let game = search.game;
        let mut children = game.moves(n).map(|mv| game.play(n, mv));
        let mut c = children.next();
        while g < beta
            && let Some(child) = &c
        {
            g = g.max(alpha_beta_with_memory(search, child, a, beta, d - 1));
            a = a.max(g);
            c = children.next();
        }
    } else {
        g = INFINITY;
        let mut b = beta; // save original beta value
        let game = search.game;
        let mut children = game.moves(n).map(|mv| game.play(n, mv));
        let mut c = children.next();
        while g > alpha
            && let Some(child) = &c
        {
            g = g.min(alpha_beta_with_memory(search, child, alpha, b, d - 1));
            b = b.min(g);
            c = children.next();
        }
    }
    // Fail low result implies an upper bound.
    if g <= alpha {
        n_bounds.upperbound = g;
        search.memory.store(key, d, n_bounds);
    }
    // Found an accurate minimax value: will not occur if called with a zero window.
    if g > alpha && g < beta {
        n_bounds.lowerbound = g;
        n_bounds.upperbound = g;
        search.memory.store(key, d, n_bounds);
    }
    // Fail high result implies a lower bound.
    if g >= beta {
        // deviation: the saved page ends at `then`; completed like the two stores above.
        n_bounds.lowerbound = g;
        search.memory.store(key, d, n_bounds);
    }
    g
}
// ANCHOR_END: alpha_beta_with_memory

// The drivers: each entry is one row of the catalogue (`crate::registry`).

/// `plaat-alphabeta-memory`: one full-window call of [`alpha_beta_with_memory`], table as printed.
pub fn run_alpha_beta_with_memory<'a, G: Game>(
    game: &'a G,
    root: &G::Position,
    params: &SearchParams,
    hooks: Hooks<'a, G>,
) -> Outcome<G::Move> {
    run_listing(game, root, params, hooks, Table::AsPrinted, |search| {
        alpha_beta_with_memory(search, root, -INFINITY, INFINITY, params.depth)
    })
}

/// `plaat-mtdf`: [`mtdf`] from the first guess (default 0), table as printed.
pub fn run_mtdf<'a, G: Game>(
    game: &'a G,
    root: &G::Position,
    params: &SearchParams,
    hooks: Hooks<'a, G>,
) -> Outcome<G::Move> {
    run_listing(game, root, params, hooks, Table::AsPrinted, |search| {
        mtdf(search, root, first_guess(params, 0), params.depth)
    })
}

/// `plaat-id`: [`iterative_deepening`], one table for every iteration, as printed.
pub fn run_iterative_deepening<'a, G: Game>(
    game: &'a G,
    root: &G::Position,
    params: &SearchParams,
    hooks: Hooks<'a, G>,
) -> Outcome<G::Move> {
    run_listing(game, root, params, hooks, Table::AsPrinted, |search| {
        iterative_deepening(search, root, capped_depth(game, root, params.depth))
    })
}

/// `plaat-alphabeta-memory-corrected`: `AlphaBetaWithMemory` over the table keyed by node and
/// depth.
pub fn run_alpha_beta_with_memory_corrected<'a, G: Game>(
    game: &'a G,
    root: &G::Position,
    params: &SearchParams,
    hooks: Hooks<'a, G>,
) -> Outcome<G::Move> {
    run_listing(game, root, params, hooks, Table::Corrected, |search| {
        alpha_beta_with_memory(search, root, -INFINITY, INFINITY, params.depth)
    })
}

/// `plaat-mtdf-corrected`: `MTDF` over the table keyed by node and depth.
pub fn run_mtdf_corrected<'a, G: Game>(
    game: &'a G,
    root: &G::Position,
    params: &SearchParams,
    hooks: Hooks<'a, G>,
) -> Outcome<G::Move> {
    run_listing(game, root, params, hooks, Table::Corrected, |search| {
        mtdf(search, root, first_guess(params, 0), params.depth)
    })
}

/// `plaat-id-corrected`: [`iterative_deepening_corrected`], the table keyed by node and depth,
/// first guess the root's evaluation.
pub fn run_iterative_deepening_corrected<'a, G: Game>(
    game: &'a G,
    root: &G::Position,
    params: &SearchParams,
    hooks: Hooks<'a, G>,
) -> Outcome<G::Move> {
    run_listing(game, root, params, hooks, Table::Corrected, |search| {
        iterative_deepening_corrected(search, root, capped_depth(game, root, params.depth))
    })
}
