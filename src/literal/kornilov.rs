//! The Russian article on MTD(f) after E. N. Kornilov, *Programming chess and other logic games*
//! (BHV-Petersburg, 2005): a fail-soft negamax `AlphaBeta` without memory (lines 41–55), `MTDF` from
//! the static evaluation (lines 19–37), the bisection `SearchMT` (lines 61–75), and `MTDF` inside
//! `IterativeDeepening` (lines 79–107). Line numbers count the lines of the article as
//! saved.
//!
//! All of it is in negamax form: `Evaluate()` scores the position for the side to move, and the root
//! drivers' windows `(test, test + 1)` ask "is the value above `test`?". The article's functions
//! search a global position with `MakeMove`/`UnMakeMove`; the translation passes the position.
//!
//! # Deviations
//!
//! 1. `AlphaBeta` evaluates a position without moves at any depth: the printed code would return
//!    its initial `score = -INFINITY` for a game that ended before the depth ran out.
//! 2. The first `MTDF` (lines 19–37) ends without a `return`; it returns `min`, as the article's
//!    second `MTDF` (line 95) and `SearchMT` (line 75) do.
//! 3. `IterativeDeepening` is `void` and keeps its result in `test`; here it returns `test`. It has no
//!    clock (`TimeUp()` is always false), and `MAX_DEPTH` is the requested depth (or the game's
//!    depth bound, when smaller).
//! 4. `INFINITY` is the crate's [`INFINITY`], 10⁹: `max - min` in `SearchMT` is then at most 2·10⁹
//!    and `(max + min) / 2` never overflows an `i32`, which `INT_MAX` as infinity would.
//! 5. The drivers report values from MAX's side: a root where MIN is to move has its value negated.
//!
//! The article's remark that `AlphaBeta` should also return the best move is not translated.
//!
//! # What the tests found
//!
//! Nothing wrong: with the terminal test added, every driver is exact. Without memory, each pass
//! of `MTDF` and `SearchMT` searches the tree again from scratch, which the node counts show.

use super::{Perspective, Search, Table, run_listing};
use crate::driver::{Hooks, Outcome, SearchParams, capped_depth};
use crate::game::Game;
use crate::value::{INFINITY, Value};

/// `AlphaBeta(alpha, beta, depth)` at `position` as callers see it: counts the node, runs the
/// listing ([`alpha_beta_listing`]) and reports the call.
///
/// Contract (fail-soft), with `f` the depth-`depth` negamax value of `position` (for the side to
/// move): `score <= alpha` implies `f <= score`; `score >= beta` implies `f >= score`; otherwise
/// `score == f`.
pub fn alpha_beta<G: Game>(
    search: &mut Search<'_, G>,
    position: &G::Position,
    alpha: Value,
    beta: Value,
    depth: u32,
) -> Value {
    search.call(position, (depth, alpha, beta), Perspective::Mover, |search| {
        alpha_beta_listing(search, position, alpha, beta, depth)
    })
}

// ANCHOR: alpha_beta
/// `AlphaBeta` (the Russian article after Kornilov, lines 41–55): fail-soft negamax, no memory.
pub fn alpha_beta_listing<G: Game>(
    search: &mut Search<'_, G>,
    position: &G::Position,
    mut alpha: Value,
    beta: Value,
    depth: u32,
) -> Value {
    let mut score = -INFINITY; // the value returned
    // deviation: a position without moves is evaluated at any depth.
    if depth == 0 || search.game.is_terminal(position) {
        return search.evaluate_for_mover(position);
    }
    let game = search.game;
    for mv in game.moves(position) {
        let child = game.play(position, mv); // MakeMove
        let tmp = -alpha_beta(search, &child, -beta, -alpha, depth - 1);
        if tmp > score {
            score = tmp;
        }
        if score > alpha {
            alpha = score;
        }
        if alpha >= beta {
            break;
        }
    }
    score
}
// ANCHOR_END: alpha_beta

// ANCHOR: mtdf
/// The first `MTDF` (the Russian article after Kornilov, lines 19–37): null windows
/// `(test, test + 1)` from the static evaluation; a result above `test` raises `min` to it, any
/// other lowers `max` to it.
pub fn mtdf<G: Game>(search: &mut Search<'_, G>, root: &G::Position, depth: u32) -> Value {
    let mut min = -INFINITY;
    let mut max = INFINITY;
    let mut test = search.evaluate_for_mover(root); // static evaluation of the position
    while min < max {
        let tmp = alpha_beta(search, root, test, test + 1, depth);
        record_pass(search, root, test, tmp);
        if tmp > test {
            min = tmp;
            test = min;
        } else {
            max = tmp;
            test = max - 1;
        }
    }
    // deviation: the listing ends without a return; the article's other drivers return `min`.
    min
}
// ANCHOR_END: mtdf

// ANCHOR: search_mt
/// `SearchMT` (the Russian article after Kornilov, lines 61–75): like `MTDF`, but whenever the
/// interval `[min, max]` is two or more wide, the next test is its middle. A `do … while`.
pub fn search_mt<G: Game>(search: &mut Search<'_, G>, root: &G::Position, depth: u32) -> Value {
    let mut min = -INFINITY;
    let mut max = INFINITY;
    let mut test = (max + min) / 2;
    loop {
        let tmp = alpha_beta(search, root, test, test + 1, depth);
        record_pass(search, root, test, tmp);
        if tmp > test {
            min = tmp;
            test = min;
        } else {
            max = tmp;
            test = max - 1;
        }
        if max - min >= 2 {
            test = (max + min) / 2;
        }
        if min >= max {
            break;
        }
    }
    min
}
// ANCHOR_END: search_mt

// ANCHOR: iterative_deepening
/// The second `MTDF` (the Russian article after Kornilov, lines 79–95): the first guess `test`
/// comes from the caller.
pub fn mtdf_from<G: Game>(
    search: &mut Search<'_, G>,
    root: &G::Position,
    depth: u32,
    mut test: Value,
) -> Value {
    let mut min = -INFINITY;
    let mut max = INFINITY;
    while min < max {
        let tmp = alpha_beta(search, root, test, test + 1, depth);
        record_pass(search, root, test, tmp);
        if tmp > test {
            min = tmp;
            test = min;
        } else {
            max = tmp;
            test = max - 1;
        }
    }
    min
}

/// `IterativeDeepening` (the Russian article after Kornilov, lines 97–107): `MTDF` at depths 1 to
/// `max_depth`, starting from the static evaluation, each result the next first guess.
pub fn iterative_deepening<G: Game>(search: &mut Search<'_, G>, root: &G::Position, max_depth: u32) -> Value {
    let mut test = search.evaluate_for_mover(root);
    let mut depth = 1;
    // deviation: no clock; `TimeUp()` is always false.
    while depth <= max_depth {
        test = mtdf_from(search, root, depth, test);
        depth += 1;
    }
    // deviation: the listing is `void`; its result is `test`.
    test
}
// ANCHOR_END: iterative_deepening

/// Records the root pass `AlphaBeta(test, test + 1)` that returned `tmp`.
fn record_pass<G: Game>(search: &mut Search<'_, G>, root: &G::Position, test: Value, tmp: Value) {
    let root_player = search.game.to_move(root);
    search.pass_for_mover(root_player, test, test + 1, tmp);
}

/// The value from MAX's side of a negamax value at `root`.
fn for_max<G: Game>(search: &Search<'_, G>, root: &G::Position, value_for_mover: Value) -> Value {
    search.game.to_move(root).perspective(value_for_mover)
}

/// Runs `AlphaBeta(-INFINITY, +INFINITY, depth)` at the root; the value from MAX's side.
pub fn root_alpha_beta<G: Game>(search: &mut Search<'_, G>, root: &G::Position, depth: u32) -> Value {
    let value = alpha_beta(search, root, -INFINITY, INFINITY, depth);
    for_max(search, root, value)
}

/// Runs the first `MTDF` at the root; a caller's first guess (from MAX's side) replaces
/// `Evaluate()`. The value from MAX's side.
pub fn root_mtdf<G: Game>(
    search: &mut Search<'_, G>,
    root: &G::Position,
    depth: u32,
    first_guess: Option<Value>,
) -> Value {
    let value = match first_guess {
        None => mtdf(search, root, depth),
        Some(guess) => {
            let test = search.game.to_move(root).perspective(guess.clamp(-INFINITY, INFINITY));
            mtdf_from(search, root, depth, test)
        }
    };
    for_max(search, root, value)
}

/// Runs `SearchMT` at the root; the value from MAX's side.
pub fn root_search_mt<G: Game>(search: &mut Search<'_, G>, root: &G::Position, depth: u32) -> Value {
    let value = search_mt(search, root, depth);
    for_max(search, root, value)
}

/// Runs `IterativeDeepening` to `max_depth`; the value from MAX's side.
pub fn root_iterative_deepening<G: Game>(
    search: &mut Search<'_, G>,
    root: &G::Position,
    max_depth: u32,
) -> Value {
    let value = iterative_deepening(search, root, max_depth);
    for_max(search, root, value)
}

// The drivers: each entry is one row of the catalogue (`crate::registry`).

/// `kornilov-alphabeta`: the fail-soft negamax [`alpha_beta`] with the full window.
pub fn run_alpha_beta<'a, G: Game>(
    game: &'a G,
    root: &G::Position,
    params: &SearchParams,
    hooks: Hooks<'a, G>,
) -> Outcome<G::Move> {
    run_listing(game, root, params, hooks, Table::AsPrinted, |search| {
        root_alpha_beta(search, root, params.depth)
    })
}

/// `kornilov-mtdf`: [`mtdf`] from the root's static evaluation (or the first guess given).
pub fn run_mtdf<'a, G: Game>(
    game: &'a G,
    root: &G::Position,
    params: &SearchParams,
    hooks: Hooks<'a, G>,
) -> Outcome<G::Move> {
    run_listing(game, root, params, hooks, Table::AsPrinted, |search| {
        root_mtdf(search, root, params.depth, params.first_guess)
    })
}

/// `kornilov-searchmt`: the bisection [`search_mt`].
pub fn run_search_mt<'a, G: Game>(
    game: &'a G,
    root: &G::Position,
    params: &SearchParams,
    hooks: Hooks<'a, G>,
) -> Outcome<G::Move> {
    run_listing(game, root, params, hooks, Table::AsPrinted, |search| {
        root_search_mt(search, root, params.depth)
    })
}

/// `kornilov-id`: [`iterative_deepening`] over the second `MTDF`.
pub fn run_iterative_deepening<'a, G: Game>(
    game: &'a G,
    root: &G::Position,
    params: &SearchParams,
    hooks: Hooks<'a, G>,
) -> Outcome<G::Move> {
    run_listing(game, root, params, hooks, Table::AsPrinted, |search| {
        root_iterative_deepening(search, root, capped_depth(game, root, params.depth))
    })
}
