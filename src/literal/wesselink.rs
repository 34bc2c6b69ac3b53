//! The negamax searches with a transposition table that Wesselink, Huizing and van de Wetering study
//! in "Formal Verification of Minimax Algorithms" (arXiv:2509.20138), from their public repository
//! `wiegerw/minimax`. From the Python of `python/negamax.py`:
//!
//! | function | lines | what it is |
//! |---|---|---|
//! | [`negamax_ttw`] | 205–249 | Wikipedia's negamax with a table (2025): a stored bound only ever *answers* a node |
//! | [`negamax_ttm`] | 150–202 | Marsland (1986): a stored bound also *narrows* the window; flags set against the narrowed window |
//! | [`negamax_ttw_marsland_lookup`] | 252–301 | `negamax_ttw` with Marsland's lookup |
//! | [`negamax_ttw_fishburn_propagation`] | 304–349 | `negamax_ttw` with Fishburn's (1983) value propagation |
//! | [`negamax_ttw_current_alpha`] | 352–397 | `negamax_ttw` storing flags against the current `alpha` |
//!
//! from the Python of `python/negamax-depth-plaat.py`:
//!
//! | function | lines | what it is |
//! |---|---|---|
//! | [`negamax_depth_tt_plaat_1996`] | 27–62 | Plaat et al.'s (1996) depth-limited memory-enhanced test in negamax form: both bounds in one entry, over its own [`PlaatTranspositionTable`] |
//!
//! and from the Dafny the study verifies, `dafny-4.11/negamax-ttw-variants.dfy`, method `Negamax` of
//! three classes:
//!
//! | function | class, lines | what it is |
//! |---|---|---|
//! | [`negamax_ttw_current_alpha_verified`] | `NegamaxTTWCurrentAlpha`, 253–312 | `negamax_ttw` storing flags against the current `alpha`, the lower bound tested first |
//! | [`negamax_ttw_extra_depth_condition`] | `NegamaxTTWExtraDepthCondition`, 734–791 | `negamax_ttw` that never overwrites a deeper entry |
//! | [`negamax_ttw_fishburn_propagation_verified`] | `NegamaxTTWFishburnPropagation`, 1199–1259 | `negamax_ttw` with Fishburn's value propagation |
//!
//! All of them use a table entry of a search at least as deep as the one asked for (`t.depth >=
//! depth`), so none returns the depth-`d` minimax value on a game with transpositions at different
//! depths, and none is meant to. The study's question is whether the result is still the alpha-beta
//! result of some all-or-none extension of the depth-`d` tree: its **witness criterion**
//! ([`crate::theory::witness`]). It proves `negamax_ttw` correct in that sense (in Dafny) and gives a
//! concrete game graph on which `negamax_ttm` is not (`python/negamax-ttm-counter-example.py`,
//! `make_tree`; here `testdata/trees/wesselink-ttm-counterexample.gtree`). The tests check both, and
//! run the other variants against the criterion too.
//!
//! These searches are not registry drivers: a registry driver promises the depth-`d` minimax value,
//! and these promise the weaker criterion. They take the table as an argument, as the Python does, so
//! that a test can run several searches against one table, which is how deeper entries arise.
//!
//! # Deviations
//!
//! 1. `INFINITY` is the crate's [`INFINITY`] (the Python's `MinimaxSettings.INFINITY` is a setting).
//! 2. `u.children` is the game's moves, each played from `u`; `not u.children` (Dafny: `|u.children|
//!    == 0`) is [`Game::is_terminal`]; `u.color.value * u.eval` (Dafny: `color(u) * u.eval`) is
//!    [`Game::evaluate_for_mover`]; `u.id` (Dafny: the node itself as the key) is [`Game::key`]. The
//!    `log(…)` lines are the observer's report of the finished call.
//! 3. The table `T` is the argument `t` (Rust's names are snake_case; the Dafny's is a field of the
//!    class), and the entry the source calls `t` is `entry`.
//! 4. Dafny's chained comparison `alpha < value < beta` is written `alpha < value && value < beta`.
//!
//! `negamax_ttw_marsland_lookup`, as printed, computes a flag and never stores it: its table is never
//! written, and the search is fail-soft alpha-beta with Fishburn's propagation. It is kept so.
//!
//! The Dafny of `negamax_depth_tt_plaat_1996` (`dafny-4.10/negamax-depth-plaat.dfy`, class
//! `NegamaxDepthPlaat1996Algorithm`) differs from the Python translated here: it stores the result of
//! a leaf too. The Python returns from a leaf before its store.
//!
//! # What the tests found
//!
//! The Python `negamax_ttw_fishburn_propagation` and `negamax_ttw_current_alpha` narrow the window by
//! stored bounds, as Marsland does, and fail the criterion on the study's own counterexample graph
//! exactly where `negamax_ttm` does (the snapshot in `tests/suite/witness.rs` shows every call). The
//! Dafny versions the study verifies only *answer* from the table, and the Dafny
//! `NegamaxTTWCurrentAlpha` also tests for a lower bound before an upper one, noting that the order
//! matters after a cut-off; its translation, [`negamax_ttw_current_alpha_verified`], meets the
//! criterion like `negamax_ttw`, and so do the translations of the other two verified classes and
//! `negamax_depth_tt_plaat_1996`. The Python translations are kept as printed.
//!
//! With no entry deeper than the search that meets it (a plain tree searched from its root at one
//! depth, several times with one table, as MTD(f) does), every search here returns an alpha-beta
//! result of the depth-limited minimax value at every call, even those that narrow the window, and
//! MTD(f) over it finds the minimax value: every one but `negamax_ttw_current_alpha`.
//!
//! That one fails there for a second reason, which has nothing to do with narrowing the window: it
//! judges the flag against the *current* `alpha`, which its loop has already raised to at least
//! `value`, so `value <= alpha` always holds and every entry is an upper bound, that of a node cut off
//! with `value >= beta` too, although its value is then only a lower bound. A later search with an
//! `alpha` at least that value is answered by the entry with a fail low, and Wikipedia's lookup,
//! which only answers, would answer it the same way. The smallest tree is `(0 1)`
//! (`testdata/trees/wesselink-current-alpha-counterexample.tree`), searched one ply deep twice, as
//! MTD(f) does from the first guess 0: the window `(-1, 0)` is cut off after the leaf 0, which is
//! stored as an upper bound; the window `(0, 1)` is answered 0 by that entry, and MTD(f) returns 0
//! for a root worth 1. Nothing smaller fails: a lone leaf is never stored; a root over one child, or
//! over one child over one leaf, returns its exact value at every call, so every upper bound it stores
//! is true; one search of a plain tree meets no entry of its own, since it visits every node once;
//! and a value that is lower than the node's needs a cut-off before a better child, so a node with two
//! children. The tests confirm it on every tree of at most three nodes and every sequence of up to
//! three windows, and proptest shrinks its failures to three nodes and two searches. The verified
//! Dafny class tests for a lower bound first, which is the repair.

use std::collections::HashMap;

use super::{Perspective, Search};
use crate::game::Game;
use crate::value::{INFINITY, Value};

/// What a table entry's value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableFlag {
    /// The value of the search that stored it.
    Exact,
    /// The value is at least this.
    Lowerbound,
    /// The value is at most this.
    Upperbound,
}

/// One entry: `value` found by a search `depth` plies deep, read as `flag` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableEntry {
    /// The stored value, from the side to move.
    pub value: Value,
    /// The remaining depth of the search that stored it.
    pub depth: u32,
    /// How to read `value`.
    pub flag: TableFlag,
}

/// A dictionary from positions (by [`Game::key`]) to one entry each, with unlimited room: the
/// table of every search here, each with its own kind of entry.
#[derive(Clone, Debug)]
pub struct Table<E> {
    entries: HashMap<u64, E>,
}

/// The table of `python/negamax.py` and the Dafny classes: one value and flag a position.
pub type TranspositionTable = Table<TableEntry>;

impl<E> Default for Table<E> {
    fn default() -> Self {
        Self { entries: HashMap::new() }
    }
}

impl<E: Copy> Table<E> {
    /// An empty table.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The entry of the position with key `key` (`T[u.id]` when `u.id in T`).
    #[must_use]
    pub fn get(&self, key: u64) -> Option<E> {
        self.entries.get(&key).copied()
    }

    /// Writes the entry of the position with key `key` (`T[u.id] = …`).
    pub fn insert(&mut self, key: u64, entry: E) {
        self.entries.insert(key, entry);
    }

    /// Every entry, by position key, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (u64, E)> + '_ {
        self.entries.iter().map(|(&key, &entry)| (key, entry))
    }

    /// How many positions have an entry.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no position has an entry.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// An entry of `python/negamax-depth-plaat.py` (its `TableEntry`; the Dafny of the same search calls
/// it `PlaatTableEntry`): both bounds at once, `-INFINITY` and `INFINITY` where the search that
/// stored it proved none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlaatTableEntry {
    /// The value is at least this.
    pub lowerbound: Value,
    /// The value is at most this.
    pub upperbound: Value,
    /// The remaining depth of the search that stored it.
    pub depth: u32,
}

/// The table of [`negamax_depth_tt_plaat_1996`].
pub type PlaatTranspositionTable = Table<PlaatTableEntry>;

/// The searches over a [`TranspositionTable`], to run one by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// [`negamax_ttw`].
    Ttw,
    /// [`negamax_ttm`].
    Ttm,
    /// [`negamax_ttw_marsland_lookup`].
    TtwMarslandLookup,
    /// [`negamax_ttw_fishburn_propagation`].
    TtwFishburnPropagation,
    /// [`negamax_ttw_current_alpha`].
    TtwCurrentAlpha,
    /// [`negamax_ttw_current_alpha_verified`].
    TtwCurrentAlphaVerified,
    /// [`negamax_ttw_extra_depth_condition`].
    TtwExtraDepthCondition,
    /// [`negamax_ttw_fishburn_propagation_verified`].
    TtwFishburnPropagationVerified,
}

impl Variant {
    /// Every variant.
    pub const ALL: [Self; 8] = [
        Self::Ttw,
        Self::Ttm,
        Self::TtwMarslandLookup,
        Self::TtwFishburnPropagation,
        Self::TtwCurrentAlpha,
        Self::TtwCurrentAlphaVerified,
        Self::TtwExtraDepthCondition,
        Self::TtwFishburnPropagationVerified,
    ];

    /// The Python function's name, or the Dafny class and method.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Ttw => "negamax_ttw",
            Self::Ttm => "negamax_ttm",
            Self::TtwMarslandLookup => "negamax_ttw_marsland_lookup",
            Self::TtwFishburnPropagation => "negamax_ttw_fishburn_propagation",
            Self::TtwCurrentAlpha => "negamax_ttw_current_alpha",
            Self::TtwCurrentAlphaVerified => "NegamaxTTWCurrentAlpha.Negamax",
            Self::TtwExtraDepthCondition => "NegamaxTTWExtraDepthCondition.Negamax",
            Self::TtwFishburnPropagationVerified => "NegamaxTTWFishburnPropagation.Negamax",
        }
    }

    /// Searches `u` to `depth` with the window `(alpha, beta)` (from the side to move at `u`),
    /// reading and writing `t`.
    pub fn search<G: Game>(
        self,
        search: &mut Search<'_, G>,
        u: &G::Position,
        alpha: Value,
        beta: Value,
        depth: u32,
        t: &mut TranspositionTable,
    ) -> Value {
        match self {
            Self::Ttw => negamax_ttw(search, u, alpha, beta, depth, t),
            Self::Ttm => negamax_ttm(search, u, alpha, beta, depth, t),
            Self::TtwMarslandLookup => negamax_ttw_marsland_lookup(search, u, alpha, beta, depth, t),
            Self::TtwFishburnPropagation => {
                negamax_ttw_fishburn_propagation(search, u, alpha, beta, depth, t)
            }
            Self::TtwCurrentAlpha => negamax_ttw_current_alpha(search, u, alpha, beta, depth, t),
            Self::TtwCurrentAlphaVerified => {
                negamax_ttw_current_alpha_verified(search, u, alpha, beta, depth, t)
            }
            Self::TtwExtraDepthCondition => {
                negamax_ttw_extra_depth_condition(search, u, alpha, beta, depth, t)
            }
            Self::TtwFishburnPropagationVerified => {
                negamax_ttw_fishburn_propagation_verified(search, u, alpha, beta, depth, t)
            }
        }
    }
}

/// Counts the node, runs `listing` and reports the finished call (the Python's `log` line).
fn observed<G: Game>(
    search: &mut Search<'_, G>,
    u: &G::Position,
    (alpha, beta, depth): (Value, Value, u32),
    listing: impl FnOnce(&mut Search<'_, G>) -> Value,
) -> Value {
    search.call(u, (depth, alpha, beta), Perspective::Mover, listing)
}

/// `negamax_ttw` as callers see it: see [`negamax_ttw_listing`].
pub fn negamax_ttw<G: Game>(
    search: &mut Search<'_, G>,
    u: &G::Position,
    alpha: Value,
    beta: Value,
    depth: u32,
    t: &mut TranspositionTable,
) -> Value {
    observed(search, u, (alpha, beta, depth), |search| negamax_ttw_listing(search, u, alpha, beta, depth, t))
}

// ANCHOR: negamax_ttw
/// `negamax_ttw` (lines 205–249): an entry at least as deep answers the node if it is exact or its
/// bound decides the window; otherwise the node is searched with the window as given, and the result
/// is stored against the window the node was called with (`alpha0`).
pub fn negamax_ttw_listing<G: Game>(
    search: &mut Search<'_, G>,
    u: &G::Position,
    mut alpha: Value,
    beta: Value,
    depth: u32,
    t: &mut TranspositionTable,
) -> Value {
    let alpha0 = alpha;
    let game = search.game;

    if let Some(entry) = t.get(game.key(u))
        && entry.depth >= depth
        && (entry.flag == TableFlag::Exact
            || (entry.flag == TableFlag::Lowerbound && entry.value >= beta)
            || (entry.flag == TableFlag::Upperbound && entry.value <= alpha))
    {
        return entry.value;
    }

    if depth == 0 || game.is_terminal(u) {
        return search.evaluate_for_mover(u);
    }
    let mut value = -INFINITY;
    for mv in game.moves(u) {
        let v = game.play(u, mv);
        value = value.max(-negamax_ttw(search, &v, -beta, -alpha, depth - 1, t));
        alpha = alpha.max(value);
        if alpha >= beta {
            break;
        }
    }

    let flag = if value <= alpha0 {
        TableFlag::Upperbound
    } else if value >= beta {
        TableFlag::Lowerbound
    } else {
        TableFlag::Exact
    };
    t.insert(game.key(u), TableEntry { value, depth, flag });

    value
}
// ANCHOR_END: negamax_ttw

/// `negamax_ttm` as callers see it: see [`negamax_ttm_listing`].
pub fn negamax_ttm<G: Game>(
    search: &mut Search<'_, G>,
    u: &G::Position,
    alpha: Value,
    beta: Value,
    depth: u32,
    t: &mut TranspositionTable,
) -> Value {
    observed(search, u, (alpha, beta, depth), |search| negamax_ttm_listing(search, u, alpha, beta, depth, t))
}

// ANCHOR: negamax_ttm
/// `negamax_ttm` (lines 150–202), Marsland's scheme: a stored bound at least as deep narrows the
/// window; the children are searched with Fishburn's propagation (`-max(value, alpha)`); the flag is
/// set against the *narrowed* window; an entry is replaced only by one at least as deep.
pub fn negamax_ttm_listing<G: Game>(
    search: &mut Search<'_, G>,
    u: &G::Position,
    mut alpha: Value,
    mut beta: Value,
    depth: u32,
    t: &mut TranspositionTable,
) -> Value {
    let _alpha0 = alpha; // kept for the log line in the Python
    let game = search.game;

    // Retrieve from transposition table
    if let Some(entry) = t.get(game.key(u))
        && entry.depth >= depth
    {
        match entry.flag {
            TableFlag::Exact => return entry.value,
            TableFlag::Lowerbound => alpha = alpha.max(entry.value),
            TableFlag::Upperbound => beta = beta.min(entry.value),
        }
        if alpha >= beta {
            return entry.value;
        }
    }

    // Terminal node or depth limit reached
    if depth == 0 || game.is_terminal(u) {
        return search.evaluate_for_mover(u);
    }

    // The Fishburn 1983 variant of alpha-beta
    let mut value = -INFINITY;
    for mv in game.moves(u) {
        let v = game.play(u, mv);
        value = value.max(-negamax_ttm(search, &v, -beta, -value.max(alpha), depth - 1, t));
        if value >= beta {
            break;
        }
    }

    // Determine flag for storing in table (compare with alpha instead of alpha0!)
    let mut flag = TableFlag::Exact;
    if value <= alpha {
        flag = TableFlag::Upperbound;
    }
    if value >= beta {
        flag = TableFlag::Lowerbound;
    }

    // A constraint on the depth
    if t.get(game.key(u)).is_none_or(|entry| entry.depth <= depth) {
        t.insert(game.key(u), TableEntry { value, depth, flag });
    }

    value
}
// ANCHOR_END: negamax_ttm

/// `negamax_ttw_marsland_lookup` as callers see it: see [`negamax_ttw_marsland_lookup_listing`].
pub fn negamax_ttw_marsland_lookup<G: Game>(
    search: &mut Search<'_, G>,
    u: &G::Position,
    alpha: Value,
    beta: Value,
    depth: u32,
    t: &mut TranspositionTable,
) -> Value {
    observed(search, u, (alpha, beta, depth), |search| {
        negamax_ttw_marsland_lookup_listing(search, u, alpha, beta, depth, t)
    })
}

/// `negamax_ttw_marsland_lookup` (lines 252–301): Marsland's lookup and Fishburn's propagation; the
/// flag is set against `alpha0` but, as printed, never stored.
pub fn negamax_ttw_marsland_lookup_listing<G: Game>(
    search: &mut Search<'_, G>,
    u: &G::Position,
    mut alpha: Value,
    mut beta: Value,
    depth: u32,
    t: &mut TranspositionTable,
) -> Value {
    let alpha0 = alpha;
    let game = search.game;

    // Retrieve from transposition table
    if let Some(entry) = t.get(game.key(u))
        && entry.depth >= depth
    {
        match entry.flag {
            TableFlag::Exact => return entry.value,
            TableFlag::Lowerbound => alpha = alpha.max(entry.value),
            TableFlag::Upperbound => beta = beta.min(entry.value),
        }
        if alpha >= beta {
            return entry.value;
        }
    }

    // Terminal node or depth limit reached
    if depth == 0 || game.is_terminal(u) {
        return search.evaluate_for_mover(u);
    }

    let mut value = -INFINITY;
    for mv in game.moves(u) {
        let v = game.play(u, mv);
        value = value.max(-negamax_ttw_marsland_lookup(search, &v, -beta, -value.max(alpha), depth - 1, t));
        if value >= beta {
            break;
        }
    }

    // Determine flag for storing in table
    let _flag = if value <= alpha0 {
        TableFlag::Upperbound
    } else if value >= beta {
        TableFlag::Lowerbound
    } else {
        TableFlag::Exact
    };
    // As printed: the flag is computed and no entry is stored.

    value
}

/// `negamax_ttw_fishburn_propagation` as callers see it: see
/// [`negamax_ttw_fishburn_propagation_listing`].
pub fn negamax_ttw_fishburn_propagation<G: Game>(
    search: &mut Search<'_, G>,
    u: &G::Position,
    alpha: Value,
    beta: Value,
    depth: u32,
    t: &mut TranspositionTable,
) -> Value {
    observed(search, u, (alpha, beta, depth), |search| {
        negamax_ttw_fishburn_propagation_listing(search, u, alpha, beta, depth, t)
    })
}

/// `negamax_ttw_fishburn_propagation` (lines 304–349): the lookup narrows the window (the `alpha >=
/// beta` test sits outside the depth test, so an entry of any depth is looked at there); Fishburn's
/// propagation; the flag against `alpha0`; every result stored.
pub fn negamax_ttw_fishburn_propagation_listing<G: Game>(
    search: &mut Search<'_, G>,
    u: &G::Position,
    mut alpha: Value,
    mut beta: Value,
    depth: u32,
    t: &mut TranspositionTable,
) -> Value {
    let alpha0 = alpha;
    let game = search.game;

    if let Some(entry) = t.get(game.key(u)) {
        if entry.depth >= depth {
            match entry.flag {
                TableFlag::Exact => return entry.value,
                TableFlag::Lowerbound => alpha = alpha.max(entry.value),
                TableFlag::Upperbound => beta = beta.min(entry.value),
            }
        }
        if alpha >= beta {
            return entry.value;
        }
    }

    if depth == 0 || game.is_terminal(u) {
        return search.evaluate_for_mover(u);
    }
    let mut value = -INFINITY;
    for mv in game.moves(u) {
        let v = game.play(u, mv);
        value =
            value.max(-negamax_ttw_fishburn_propagation(search, &v, -beta, -value.max(alpha), depth - 1, t));
        if value >= beta {
            break;
        }
    }

    let flag = if value <= alpha0 {
        TableFlag::Upperbound
    } else if value >= beta {
        TableFlag::Lowerbound
    } else {
        TableFlag::Exact
    };
    t.insert(game.key(u), TableEntry { value, depth, flag });

    value
}

/// `negamax_ttw_current_alpha` as callers see it: see [`negamax_ttw_current_alpha_listing`].
pub fn negamax_ttw_current_alpha<G: Game>(
    search: &mut Search<'_, G>,
    u: &G::Position,
    alpha: Value,
    beta: Value,
    depth: u32,
    t: &mut TranspositionTable,
) -> Value {
    observed(search, u, (alpha, beta, depth), |search| {
        negamax_ttw_current_alpha_listing(search, u, alpha, beta, depth, t)
    })
}

// ANCHOR: negamax_ttw_current_alpha
/// `negamax_ttw_current_alpha` (lines 352–397): the lookup of
/// [`negamax_ttw_fishburn_propagation_listing`], Wikipedia's loop, and the flag set against the
/// *current* `alpha`, the upper-bound case tested first. The loop leaves `alpha >= value`, so every
/// entry is an upper bound, that of a node cut off with `value >= beta` too (see [What the tests
/// found](self#what-the-tests-found)).
pub fn negamax_ttw_current_alpha_listing<G: Game>(
    search: &mut Search<'_, G>,
    u: &G::Position,
    mut alpha: Value,
    mut beta: Value,
    depth: u32,
    t: &mut TranspositionTable,
) -> Value {
    let game = search.game;
    if let Some(entry) = t.get(game.key(u)) {
        if entry.depth >= depth {
            match entry.flag {
                TableFlag::Exact => return entry.value,
                TableFlag::Lowerbound => alpha = alpha.max(entry.value),
                TableFlag::Upperbound => beta = beta.min(entry.value),
            }
        }
        if alpha >= beta {
            return entry.value;
        }
    }

    if depth == 0 || game.is_terminal(u) {
        return search.evaluate_for_mover(u);
    }
    let mut value = -INFINITY;
    for mv in game.moves(u) {
        let v = game.play(u, mv);
        value = value.max(-negamax_ttw_current_alpha(search, &v, -beta, -alpha, depth - 1, t));
        alpha = alpha.max(value);
        if alpha >= beta {
            break;
        }
    }

    let flag = if value <= alpha {
        TableFlag::Upperbound
    } else if value >= beta {
        TableFlag::Lowerbound
    } else {
        TableFlag::Exact
    };
    t.insert(game.key(u), TableEntry { value, depth, flag });

    value
}
// ANCHOR_END: negamax_ttw_current_alpha

/// The verified `NegamaxTTWCurrentAlpha.Negamax` as callers see it: see
/// [`negamax_ttw_current_alpha_verified_listing`].
pub fn negamax_ttw_current_alpha_verified<G: Game>(
    search: &mut Search<'_, G>,
    u: &G::Position,
    alpha0: Value,
    beta0: Value,
    depth: u32,
    t: &mut TranspositionTable,
) -> Value {
    observed(search, u, (alpha0, beta0, depth), |search| {
        negamax_ttw_current_alpha_verified_listing(search, u, alpha0, beta0, depth, t)
    })
}

// ANCHOR: negamax_ttw_current_alpha_verified
/// `NegamaxTTWCurrentAlpha.Negamax` (`dafny-4.11/negamax-ttw-variants.dfy`, class
/// `NegamaxTTWCurrentAlpha`, lines 253–312): the table only answers
/// (an entry at least as deep that is exact or decides the window); Wikipedia's loop; the flag set
/// against the current `alpha`, with the lower-bound case first, so that a node cut off (where
/// `alpha == value >= beta0`) is stored as a lower bound. The ghost statements and lemma calls of
/// the proof are left out.
pub fn negamax_ttw_current_alpha_verified_listing<G: Game>(
    search: &mut Search<'_, G>,
    u: &G::Position,
    alpha0: Value,
    beta0: Value,
    depth: u32,
    t: &mut TranspositionTable,
) -> Value {
    let (mut alpha, beta) = (alpha0, beta0);
    let game = search.game;
    if let Some(entry) = t.get(game.key(u))
        && entry.depth >= depth
        && ((entry.flag == TableFlag::Lowerbound && entry.value >= beta)
            || entry.flag == TableFlag::Exact
            || (entry.flag == TableFlag::Upperbound && entry.value <= alpha))
    {
        return entry.value;
    }
    if depth == 0 || game.is_terminal(u) {
        return search.evaluate_for_mover(u);
    }
    let mut value = -INFINITY;

    for mv in game.moves(u) {
        let v = game.play(u, mv);
        let negamax_v = negamax_ttw_current_alpha_verified(search, &v, -beta, -alpha, depth - 1, t);
        value = value.max(-negamax_v);
        alpha = alpha.max(value);
        if alpha >= beta {
            break;
        }
    }

    // deviation: Dafny's three `if`s cover every case; the last one is written as `else`.
    if value >= beta0 {
        t.insert(game.key(u), TableEntry { value, depth, flag: TableFlag::Lowerbound });
    } else if alpha < value && value < beta0 {
        t.insert(game.key(u), TableEntry { value, depth, flag: TableFlag::Exact });
    } else {
        t.insert(game.key(u), TableEntry { value, depth, flag: TableFlag::Upperbound });
    }
    value
}
// ANCHOR_END: negamax_ttw_current_alpha_verified

/// The verified `NegamaxTTWExtraDepthCondition.Negamax` as callers see it: see
/// [`negamax_ttw_extra_depth_condition_listing`].
pub fn negamax_ttw_extra_depth_condition<G: Game>(
    search: &mut Search<'_, G>,
    u: &G::Position,
    alpha0: Value,
    beta0: Value,
    depth: u32,
    t: &mut TranspositionTable,
) -> Value {
    observed(search, u, (alpha0, beta0, depth), |search| {
        negamax_ttw_extra_depth_condition_listing(search, u, alpha0, beta0, depth, t)
    })
}

// ANCHOR: negamax_ttw_extra_depth_condition
/// `NegamaxTTWExtraDepthCondition.Negamax` (`dafny-4.11/negamax-ttw-variants.dfy`, class
/// `NegamaxTTWExtraDepthCondition`, lines 734–791): [`negamax_ttw_listing`] with Marsland's
/// replacement rule, so that a result never overwrites the entry of a deeper search; the flag is set
/// against `alpha0`. The ghost statements and lemma calls of the proof are left out.
pub fn negamax_ttw_extra_depth_condition_listing<G: Game>(
    search: &mut Search<'_, G>,
    u: &G::Position,
    alpha0: Value,
    beta0: Value,
    depth: u32,
    t: &mut TranspositionTable,
) -> Value {
    let (mut alpha, beta) = (alpha0, beta0);
    let game = search.game;
    if let Some(entry) = t.get(game.key(u))
        && entry.depth >= depth
        && ((entry.flag == TableFlag::Lowerbound && entry.value >= beta)
            || entry.flag == TableFlag::Exact
            || (entry.flag == TableFlag::Upperbound && entry.value <= alpha))
    {
        return entry.value;
    }
    if depth == 0 || game.is_terminal(u) {
        return search.evaluate_for_mover(u);
    }
    let mut value = -INFINITY;
    for mv in game.moves(u) {
        let v = game.play(u, mv);
        let negamax_v = negamax_ttw_extra_depth_condition(search, &v, -beta, -alpha, depth - 1, t);
        value = value.max(-negamax_v);
        alpha = alpha.max(value);
        if alpha >= beta {
            break;
        }
    }
    if t.get(game.key(u)).is_none_or(|entry| entry.depth <= depth) {
        if value <= alpha0 {
            t.insert(game.key(u), TableEntry { value, depth, flag: TableFlag::Upperbound });
        } else if alpha0 < value && value < beta0 {
            t.insert(game.key(u), TableEntry { value, depth, flag: TableFlag::Exact });
        } else if value >= beta0 {
            t.insert(game.key(u), TableEntry { value, depth, flag: TableFlag::Lowerbound });
        }
    }
    value
}
// ANCHOR_END: negamax_ttw_extra_depth_condition

/// The verified `NegamaxTTWFishburnPropagation.Negamax` as callers see it: see
/// [`negamax_ttw_fishburn_propagation_verified_listing`].
pub fn negamax_ttw_fishburn_propagation_verified<G: Game>(
    search: &mut Search<'_, G>,
    u: &G::Position,
    alpha: Value,
    beta: Value,
    depth: u32,
    t: &mut TranspositionTable,
) -> Value {
    observed(search, u, (alpha, beta, depth), |search| {
        negamax_ttw_fishburn_propagation_verified_listing(search, u, alpha, beta, depth, t)
    })
}

// ANCHOR: negamax_ttw_fishburn_propagation_verified
/// `NegamaxTTWFishburnPropagation.Negamax` (`dafny-4.11/negamax-ttw-variants.dfy`, class
/// `NegamaxTTWFishburnPropagation`, lines 1199–1259): the table only answers, as in
/// [`negamax_ttw_listing`]; the children are searched with Fishburn's propagation (`-max(value,
/// alpha)`), so `alpha` never changes and the flag is set against the window the node was called
/// with. Unlike the Python [`negamax_ttw_fishburn_propagation_listing`], no stored bound narrows the
/// window. The ghost statements and lemma calls of the proof are left out.
pub fn negamax_ttw_fishburn_propagation_verified_listing<G: Game>(
    search: &mut Search<'_, G>,
    u: &G::Position,
    alpha: Value,
    beta: Value,
    depth: u32,
    t: &mut TranspositionTable,
) -> Value {
    let game = search.game;
    if let Some(entry) = t.get(game.key(u))
        && entry.depth >= depth
        && ((entry.flag == TableFlag::Lowerbound && entry.value >= beta)
            || entry.flag == TableFlag::Exact
            || (entry.flag == TableFlag::Upperbound && entry.value <= alpha))
    {
        return entry.value;
    }
    if depth == 0 || game.is_terminal(u) {
        return search.evaluate_for_mover(u);
    }
    let mut value = -INFINITY;
    for mv in game.moves(u) {
        let v = game.play(u, mv);
        let negamax_v =
            negamax_ttw_fishburn_propagation_verified(search, &v, -beta, -value.max(alpha), depth - 1, t);
        value = value.max(-negamax_v);
        if value >= beta {
            break;
        }
    }
    if value <= alpha {
        t.insert(game.key(u), TableEntry { value, depth, flag: TableFlag::Upperbound });
    } else if alpha < value && value < beta {
        t.insert(game.key(u), TableEntry { value, depth, flag: TableFlag::Exact });
    } else if value >= beta {
        t.insert(game.key(u), TableEntry { value, depth, flag: TableFlag::Lowerbound });
    }
    value
}
// ANCHOR_END: negamax_ttw_fishburn_propagation_verified

/// `negamax_depth_tt_plaat_1996` as callers see it: see [`negamax_depth_tt_plaat_1996_listing`].
pub fn negamax_depth_tt_plaat_1996<G: Game>(
    search: &mut Search<'_, G>,
    u: &G::Position,
    alpha: Value,
    beta: Value,
    depth: u32,
    t: &mut PlaatTranspositionTable,
) -> Value {
    observed(search, u, (alpha, beta, depth), |search| {
        negamax_depth_tt_plaat_1996_listing(search, u, alpha, beta, depth, t)
    })
}

// ANCHOR: negamax_depth_tt_plaat_1996
/// `negamax_depth_tt_plaat_1996` (`python/negamax-depth-plaat.py`, lines 27–62): Plaat et al.'s
/// (1996) negamax with both bounds in one entry. An entry at least as deep answers the node if one
/// of its bounds decides the window; the Wikipedia loop; each bound the result proves against the
/// window the node was called with is stored, and the entry replaces whatever the position had, of
/// any depth. A leaf, or a node the depth has run out at, returns before the store and is never
/// stored.
pub fn negamax_depth_tt_plaat_1996_listing<G: Game>(
    search: &mut Search<'_, G>,
    u: &G::Position,
    mut alpha: Value,
    beta: Value,
    depth: u32,
    t: &mut PlaatTranspositionTable,
) -> Value {
    let alpha0 = alpha;
    let beta0 = beta;
    let game = search.game;

    // Check if position is in the transposition table
    if let Some(entry) = t.get(game.key(u))
        && entry.depth >= depth
    {
        if entry.lowerbound >= beta {
            return entry.lowerbound;
        }
        if entry.upperbound <= alpha {
            return entry.upperbound;
        }
    }

    if depth == 0 || game.is_terminal(u) {
        return search.evaluate_for_mover(u);
    }

    let mut value = -INFINITY;
    for mv in game.moves(u) {
        let v = game.play(u, mv);
        value = value.max(-negamax_depth_tt_plaat_1996(search, &v, -beta, -alpha, depth - 1, t));
        alpha = alpha.max(value);
        if alpha >= beta {
            break;
        }
    }

    let mut lower = -INFINITY;
    let mut upper = INFINITY;
    if value < beta0 {
        upper = value;
    }
    if value > alpha0 {
        lower = value;
    }
    t.insert(game.key(u), PlaatTableEntry { lowerbound: lower, upperbound: upper, depth });

    value
}
// ANCHOR_END: negamax_depth_tt_plaat_1996
