//! Paul Verhelst, "Chess Tree Search" (web page, page 2 of 2): `PrincipalVariation` (PVS, lines
//! 65–82) and aspiration search as the page describes it in prose (lines 21–33). Source:
//! the page as saved; line numbers count the lines of its HTML source.
//!
//! The page's own alpha-beta listing is on its first page, which the crate does not have. Aspiration
//! search is therefore built on the fail-soft negamax `AlphaBeta` of the Russian article
//! ([`super::kornilov::alpha_beta`]), which the page's note on fail-soft alpha-beta (lines 15–19)
//! describes.
//!
//! # Deviations
//!
//! 1. `PrincipalVariation` evaluates a position without successors at any depth: the printed code
//!    would call `RemoveOne` on an empty list.
//! 2. `Successors` and `RemoveOne` are an iterator over the moves in the game's order; `Empty(succ)`
//!    asks whether it has another.
//! 3. Aspiration search: `value` is the caller's first guess (from MAX's side), or the root's static
//!    evaluation; `window` is [`ASPIRATION_WINDOW`]. The page says only that "a re-search has to be
//!    done" when the result falls outside the window; the re-search here is the page's normal
//!    top-level call, `AlphaBeta(pos, depth, -INFINITY, +INFINITY)`. The window's edges are clamped to
//!    `±INFINITY`.
//! 4. `INFINITY` is the crate's [`INFINITY`]; values are reported from MAX's side.
//!
//! # What the tests found
//!
//! Nothing wrong once the terminal test is added: the re-search `(-beta, -value)` after a null
//! window that fails high is sound for fail-soft search, because `value` is then a lower bound.

use super::kornilov::alpha_beta;
use super::{Perspective, Search, Table, run_listing};
use crate::driver::{Hooks, Outcome, SearchParams};
use crate::game::Game;
use crate::value::{INFINITY, Value};

/// The aspiration search's `window`: the deviation from the estimate the search expects.
pub const ASPIRATION_WINDOW: Value = 50;

/// `PrincipalVariation(pos, depth, alpha, beta)` as callers see it: counts the node, runs the
/// listing ([`principal_variation_listing`]) and reports the call.
///
/// Contract (fail-soft), with `f` the depth-`depth` negamax value of `pos` (for the side to move):
/// `best <= alpha` implies `f <= best`; `best >= beta` implies `f >= best`; otherwise `best == f`.
pub fn principal_variation<G: Game>(
    search: &mut Search<'_, G>,
    pos: &G::Position,
    depth: u32,
    alpha: Value,
    beta: Value,
) -> Value {
    search.call(pos, (depth, alpha, beta), Perspective::Mover, |search| {
        principal_variation_listing(search, pos, depth, alpha, beta)
    })
}

// ANCHOR: principal_variation
/// `PrincipalVariation` (Verhelst, "Chess Tree Search", lines 65–82): the first successor with the
/// full window, the rest with a null window above `alpha`, re-searched when one lands inside
/// `(alpha, beta)`.
pub fn principal_variation_listing<G: Game>(
    search: &mut Search<'_, G>,
    pos: &G::Position,
    depth: u32,
    mut alpha: Value,
    beta: Value,
) -> Value {
    if depth == 0 {
        return search.evaluate_for_mover(pos);
    }
    let game = search.game;
    let mut succ = game.moves(pos).map(|mv| game.play(pos, mv)).peekable();
    // deviation: a position without successors is evaluated, not searched. (The listing reuses
    // `pos` for the successor; in the `else` branch it is still the node itself.)
    let Some(pos) = succ.next() else { return search.evaluate_for_mover(pos) };
    let mut best = -principal_variation(search, &pos, depth - 1, -beta, -alpha);
    while succ.peek().is_some() && best < beta {
        let Some(pos) = succ.next() else { break };
        if best > alpha {
            alpha = best;
        }
        let value = -principal_variation(search, &pos, depth - 1, -alpha - 1, -alpha);
        if value > alpha && value < beta {
            best = -principal_variation(search, &pos, depth - 1, -beta, -value);
        } else if value > best {
            best = value;
        }
    }
    best
}
// ANCHOR_END: principal_variation

/// Runs `PrincipalVariation(root, depth, -INFINITY, +INFINITY)`; the value from MAX's side.
pub fn root_principal_variation<G: Game>(
    search: &mut Search<'_, G>,
    root: &G::Position,
    depth: u32,
) -> Value {
    let value = principal_variation(search, root, depth, -INFINITY, INFINITY);
    search.game.to_move(root).perspective(value)
}

// ANCHOR: aspiration
/// Aspiration search (Verhelst, "Chess Tree Search", lines 21–33): `AlphaBeta(pos, depth, value -
/// window, value + window)`, and a full-window re-search when the result falls outside. `value` is
/// for the side to move.
pub fn aspiration<G: Game>(search: &mut Search<'_, G>, pos: &G::Position, depth: u32, value: Value) -> Value {
    let window = ASPIRATION_WINDOW;
    // deviation: the window's edges stay within ±INFINITY.
    let alpha = (value - window).max(-INFINITY);
    let beta = (value + window).min(INFINITY);
    let root_player = search.game.to_move(pos);
    let result = alpha_beta(search, pos, alpha, beta, depth);
    search.pass_for_mover(root_player, alpha, beta, result);
    if result > alpha && result < beta {
        return result;
    }
    // The result fell outside the window: re-search with the normal top-level window.
    let result = alpha_beta(search, pos, -INFINITY, INFINITY, depth);
    search.pass_for_mover(root_player, -INFINITY, INFINITY, result);
    result
}
// ANCHOR_END: aspiration

/// Runs aspiration search at the root around the caller's first guess (from MAX's side) or the
/// root's static evaluation; the value from MAX's side.
pub fn root_aspiration<G: Game>(
    search: &mut Search<'_, G>,
    root: &G::Position,
    depth: u32,
    first_guess: Option<Value>,
) -> Value {
    let root_player = search.game.to_move(root);
    let value = match first_guess {
        Some(guess) => root_player.perspective(guess.clamp(-INFINITY, INFINITY)),
        None => search.evaluate_for_mover(root),
    };
    let result = aspiration(search, root, depth, value);
    root_player.perspective(result)
}

// The drivers: each entry is one row of the catalogue (`crate::registry`).

/// `verhelst-pvs`: [`principal_variation`] with the full window.
pub fn run_principal_variation<'a, G: Game>(
    game: &'a G,
    root: &G::Position,
    params: &SearchParams,
    hooks: Hooks<'a, G>,
) -> Outcome<G::Move> {
    run_listing(game, root, params, hooks, Table::AsPrinted, |search| {
        root_principal_variation(search, root, params.depth)
    })
}

/// `verhelst-aspiration`: [`aspiration`] search over Kornilov's fail-soft `AlphaBeta`.
pub fn run_aspiration<'a, G: Game>(
    game: &'a G,
    root: &G::Position,
    params: &SearchParams,
    hooks: Hooks<'a, G>,
) -> Outcome<G::Move> {
    run_listing(game, root, params, hooks, Table::AsPrinted, |search| {
        root_aspiration(search, root, params.depth, params.first_guess)
    })
}
