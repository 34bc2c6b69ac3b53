//! Proofs of what a position is worth: how the oracle checks an engine's claim about its own game
//! without valuing every position below it.
//!
//! An engine says that a position searched `d` plies deep is worth `v`. The oracle need not know
//! the value to check that: two null-window tests prove it, one that the value is at least `v`
//! and one that it is at most `v` (Pearl's Test). Each test explores a proof tree, a strategy for
//! one side, and the cheapest proof of both is Knuth and Moore's minimal tree: about
//! `W^⌈d/2⌉ + W^⌊d/2⌋` leaves for `W` moves a position, where plain minimax needs `W^d`. MTD(f)
//! started from `v` makes exactly these two tests when `v` is right (Plaat, Schaeffer, Pijls and de
//! Bruin 1996), and goes on from them to the exact value when it is wrong. The engine's own answer
//! is the best first guess there is.
//!
//! A [`Prover`] is that: the crate's [`mtd`] driver, each of its passes [`mt`], a fail-soft
//! alpha-beta with memory (Plaat's MT) that reads the side to move at every position, so that a
//! game where a side moves twice (an extra turn, a pass that keeps the move) is proved as it is.
//! Its table is the engine's ([`crate::search::table`]): bounds proven for a position (its
//! [`Game::key`], which for a served game is the token with the side to move) at one depth left,
//! used only at that same depth, so that every bound is a proven bound on the depth-limited value.
//! The table stays between calls: what one claim's proof establishes, the next one's reuses.
//!
//! Every call takes a [`Budget`] of nodes, shared by the calls that judge one case: a proof that
//! would search more stops there, [`Undecided`], and leaves the table as sound as before.
//!
//! A claim is what a record's window says about its result ([`Claim`]): a fail-high at `beta`
//! needs only a proof that the value is at least the result, a fail-low only one that it is at most
//! the result, and a result inside the window both.
//!
//! ```
//! use nullwindow::game::Game;
//! use nullwindow::games::nim::Nim;
//! use nullwindow::oracle::proof::{Budget, Claim, Prover};
//!
//! let game = Nim::from_moves("")?;
//! let start = game.root();
//! let exact = nullwindow::reference::minimax::search(&game, &start, 9).value;
//! let mut prover = Prover::new(1 << 12);
//! let mut budget = Budget::new(1_000_000);
//! // From the side to move, which is MAX at the start.
//! assert!(prover.holds(&game, &start, 9, Claim::Exactly(exact), &mut budget)?);
//! assert!(!prover.holds(&game, &start, 9, Claim::AtLeast(exact + 1), &mut budget)?);
//! // MTD(f) from a wrong first guess still ends on the exact value.
//! assert_eq!(prover.value(&game, &start, 9, exact - 5, &mut budget)?, exact);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::fmt;

use crate::driver::SearchParams;
use crate::driver::observe::Observer;
use crate::game::{Game, Prefetch};
use crate::search::mtd::{Pivot, mtd};
use crate::search::{Engine, Entered, Searcher, WindowSearch};
use crate::theory::node_types::NodeType;
pub use crate::theory::witness::Undecided;
use crate::value::{INFINITY, MAX_LEAF, MIN_LEAF, Value};

/// What a claim says of a node's value `v`, from the side to move there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Claim {
    /// `v >= value`: what a result that failed high (at or above beta) says.
    AtLeast(Value),
    /// `v <= value`: what a result that failed low (at or below alpha) says.
    AtMost(Value),
    /// `v == value`: what a result inside the window says.
    Exactly(Value),
}

impl Claim {
    /// Whether the claim holds for the value `value`.
    #[must_use]
    pub const fn holds(self, value: Value) -> bool {
        match self {
            Self::AtLeast(bound) => value >= bound,
            Self::AtMost(bound) => value <= bound,
            Self::Exactly(bound) => value == bound,
        }
    }

    /// The same claim read from the other side: `v >= 3` for one side is `v <= -3` for the other.
    #[must_use]
    pub const fn negated(self) -> Self {
        match self {
            Self::AtLeast(bound) => Self::AtMost(bound.saturating_neg()),
            Self::AtMost(bound) => Self::AtLeast(bound.saturating_neg()),
            Self::Exactly(bound) => Self::Exactly(bound.saturating_neg()),
        }
    }
}

impl fmt::Display for Claim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::AtLeast(bound) => write!(f, "at least {bound}"),
            Self::AtMost(bound) => write!(f, "at most {bound}"),
            Self::Exactly(bound) => write!(f, "exactly {bound}"),
        }
    }
}

/// The nodes the proofs of one judgement may still search: every call of a [`Prover`] spends from
/// it, and one that would overspend stops, [`Undecided`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The most nodes, over every call it is passed to.
    pub limit: u64,
    /// The nodes searched so far.
    pub spent: u64,
}

impl Budget {
    /// A budget of `limit` nodes, none spent.
    #[must_use]
    pub const fn new(limit: u64) -> Self {
        Self { limit, spent: 0 }
    }

    /// The nodes left.
    #[must_use]
    pub const fn left(&self) -> u64 {
        self.limit.saturating_sub(self.spent)
    }

    /// The error of a proof that ran out of it.
    #[must_use]
    pub const fn exceeded(&self) -> Undecided {
        Undecided { budget: self.limit }
    }
}

/// The depth that asks for a position's value at the end of its game, whatever the plies: one
/// more than the searches go ([`crate::tree::MAX_SEARCH_HEIGHT`]). A proof to it holds only where
/// every line it searched ended before its depth ran out; one that meets such a position (a game
/// more than 100,000 plies long, or a cycle) is undecided, and what it stored is forgotten. It
/// makes no shallower iterations: their entries could hide, from a deeper one, lines that were cut.
pub const TO_THE_END: u32 = crate::tree::MAX_SEARCH_HEIGHT + 1;

/// Proves claims about positions of one game, and finds their exact values, keeping what it proved
/// between calls. See the [module documentation](self).
pub struct Prover<G: Game> {
    engine: Engine<G>,
    params: SearchParams,
    nodes: u64,
    /// The game's [`Game::key_epoch`] when the table was last written: what it holds was proved
    /// under those keys.
    epoch: u64,
}

impl<G: Game> Prover<G> {
    /// A prover with a table of `table_entries` entries (rounded down to a power of two; 16 bytes
    /// each, allocated here: [`crate::search::table`]).
    #[must_use]
    pub fn new(table_entries: usize) -> Self {
        let params = SearchParams { tt_entries: table_entries, ..SearchParams::default() };
        Self { engine: Engine::new(&params), params, nodes: 0, epoch: 0 }
    }

    /// The nodes every call so far has searched.
    #[must_use]
    pub const fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets everything proved (the positions a game's keys name may have changed meaning).
    pub fn clear(&mut self) {
        self.engine.clear();
    }

    /// Whether the depth-`depth` value of `position`, from the side to move there, is at least
    /// `value`: one null-window test `(value - 1, value)`. A value no position can have is decided
    /// without a search.
    ///
    /// # Errors
    /// [`Undecided`] when the test needs more nodes than `budget` has left.
    pub fn at_least(
        &mut self,
        game: &G,
        position: &G::Position,
        depth: u32,
        value: Value,
        budget: &mut Budget,
    ) -> Result<bool, Undecided> {
        self.test(game, position, depth, value, true, budget)
    }

    /// [`Prover::at_least`], expecting the answer `expected`: it decides only which positions are
    /// asked about together, never the answer.
    fn test(
        &mut self,
        game: &G,
        position: &G::Position,
        depth: u32,
        value: Value,
        expected: bool,
        budget: &mut Budget,
    ) -> Result<bool, Undecided> {
        if value <= MIN_LEAF {
            return Ok(true);
        }
        if value > MAX_LEAF {
            return Ok(false);
        }
        let root = if expected { NodeType::Cut } else { NodeType::All };
        let g = self.search(game, budget, depth, |searcher| {
            mt(searcher, position, depth, value - 1, value, 0, root)
        })?;
        Ok(g >= value)
    }

    /// Whether `claim` holds for the depth-`depth` value of `position`, from the side to move
    /// there: one null-window test for a bound, two for an exact value (the second only if the
    /// first passed).
    ///
    /// # Errors
    /// As [`Prover::at_least`].
    pub fn holds(
        &mut self,
        game: &G,
        position: &G::Position,
        depth: u32,
        claim: Claim,
        budget: &mut Budget,
    ) -> Result<bool, Undecided> {
        // Each test expects the claim to hold: the engine is more often right than wrong.
        let mut at_least = |value: Value, expected| self.test(game, position, depth, value, expected, budget);
        match claim {
            Claim::AtLeast(value) => at_least(value, true),
            Claim::AtMost(value) => Ok(!at_least(value.saturating_add(1), false)?),
            Claim::Exactly(value) => Ok(at_least(value, true)? && !at_least(value.saturating_add(1), false)?),
        }
    }

    /// The exact depth-`depth` value of `position`, from the side to move there, by MTD(f) from
    /// `guess`: two null-window tests when the guess is right.
    ///
    /// # Errors
    /// As [`Prover::at_least`].
    pub fn value(
        &mut self,
        game: &G,
        position: &G::Position,
        depth: u32,
        guess: Value,
        budget: &mut Budget,
    ) -> Result<Value, Undecided> {
        let guess = guess.clamp(MIN_LEAF, MAX_LEAF);
        self.search(game, budget, depth, |searcher| {
            // Shallower iterations first: they leave in the table the moves that order the deep
            // one, and cost few new positions where the tree grows exponentially with depth. Where
            // an iteration costs less than 3/2 times the one before (a line of forced moves,
            // a cycle), one ply at a time would cost the depth squared: the next is twice as deep.
            let mut passes = Vec::new();
            let mut previous = guess;
            let (mut shallower, mut last) = (1, 0_u64);
            // To the end, no iterations: a shallower one's entries could hide where its depth ran
            // out from the next, which would then seem to reach the end of every line.
            while shallower < depth && depth < TO_THE_END {
                let pass = Expecting::first_guess_right();
                let before = searcher.counts().nodes;
                previous =
                    mtd(searcher, position, shallower, Pivot::LastResult, previous, &mut passes, &pass);
                if searcher.stopped() {
                    return previous;
                }
                let nodes = searcher.counts().nodes - before;
                shallower = if nodes.saturating_mul(2) < last.saturating_mul(3) {
                    shallower.saturating_mul(2)
                } else {
                    shallower + 1
                };
                last = nodes;
            }
            mtd(
                searcher,
                position,
                depth,
                Pivot::LastResult,
                guess,
                &mut passes,
                &Expecting::first_guess_right(),
            )
        })
    }

    /// Runs `search` within what `budget` has left, and spends what it searched. A search to
    /// `depth` [`TO_THE_END`] that met a position where its depth ran out proved nothing about the
    /// end of the game: it is undecided, as one beyond the budget is (the searches go no deeper).
    fn search(
        &mut self,
        game: &G,
        budget: &mut Budget,
        depth: u32,
        search: impl FnOnce(&mut Searcher<'_, G>) -> Value,
    ) -> Result<Value, Undecided> {
        let left = budget.left();
        if left == 0 {
            return Err(budget.exceeded());
        }
        // Keys given out afresh since the last search may name other positions: nothing proved
        // under the old ones may be read as a proof about the positions they name now.
        let epoch = game.key_epoch();
        if epoch != self.epoch {
            self.engine.clear();
            self.epoch = epoch;
        }
        let params = SearchParams { node_limit: Some(left), ..self.params.clone() };
        let (value, nodes, stopped, cut_short) =
            self.engine.with_limited_searcher(game, &params, |searcher| {
                let _ = searcher.take_met_horizon();
                let value = search(searcher);
                let cut_short = depth >= TO_THE_END && searcher.take_met_horizon();
                (value, searcher.counts().nodes, searcher.stopped(), cut_short)
            });
        self.nodes += nodes;
        budget.spent = budget.spent.saturating_add(nodes);
        if cut_short {
            // Its entries are values to a depth that ran out, not to the end: no later proof to
            // the end may read them as if it had searched them.
            self.engine.clear();
        }
        if stopped || cut_short { Err(budget.exceeded()) } else { Ok(value) }
    }
}

/// MT as the passes of MTD(f) call it ([`WindowSearch`]), with the outcome each pass expects at
/// the root: the first pass, at the first guess, that the value is at least the guess; each later
/// pass, the opposite of the one before (after a fail-high at `g` MTD(f) tests `g + 1`, after a
/// fail-low at `g` it tests `g`, and with the value found the next test fails the other way).
struct Expecting {
    high: Cell<bool>,
}

impl Expecting {
    const fn first_guess_right() -> Self {
        Self { high: Cell::new(true) }
    }
}

impl<G: Game, O: Observer<G>> WindowSearch<G, O> for Expecting {
    fn search(
        &self,
        searcher: &mut Searcher<'_, G, O>,
        position: &G::Position,
        depth: u32,
        alpha: Value,
        beta: Value,
        ply: usize,
    ) -> Value {
        let root = if self.high.get() { NodeType::Cut } else { NodeType::All };
        let g = mt(searcher, position, depth, alpha, beta, ply, root);
        self.high.set(g < beta);
        g
    }
}

// ANCHOR: mt
/// Plaat's MT, a memory-enhanced test: fail-soft alpha-beta with the engine's table, in negamax
/// form, reading the side to move at every child. Searches `position` `depth` plies deep with the
/// window `(alpha, beta)`, values from the side to move there.
///
/// Contract (fail-soft), for `v` the exact depth-`depth` value and `g` the result: `g <= alpha`
/// ⇒ `v <= g`; `g >= beta` ⇒ `v >= g`; otherwise `g == v`. With `beta = alpha + 1` it is
/// Pearl's Test, the pass of an MTD driver. Where the same side moves again after a move, the
/// child's value is already the mover's, so its window passes down unturned; everywhere else it is
/// the engine's [`alpha_beta`](crate::search::alphabeta::alpha_beta).
///
/// `expected` is the node's type if the test comes out as its caller expects (Knuth and Moore's:
/// a CUT node's children are ALL nodes, an ALL node's children CUT nodes, a child where the same
/// side moves again is of its parent's type). It decides only when a game that answers over a pipe
/// is asked about the children ([`Game::prefetch_children`]): an ALL node needs them all, so all
/// at once before the first; a CUT node needs one, so the rest only once the first has not cut
/// off. It never changes a result.
///
/// # Panics
/// In debug builds, when the window is empty (`alpha >= beta`).
pub fn mt<G: Game, O: Observer<G>>(
    searcher: &mut Searcher<'_, G, O>,
    position: &G::Position,
    depth: u32,
    alpha: Value,
    beta: Value,
    ply: usize,
    expected: NodeType,
) -> Value {
    debug_assert!(alpha < beta, "mt needs a non-empty window, got ({alpha}, {beta})");
    let node = match searcher.enter(position, depth, alpha, beta, ply) {
        Entered::Done(value) => return value,
        Entered::Expand(node) => node,
    };
    let mover = searcher.game.to_move(position);
    if expected != NodeType::Cut {
        prefetch(searcher, position, depth, ply);
    }
    let mut g = -INFINITY;
    let mut best = None;
    let mut a = node.alpha;
    let mut searched = 0;
    while let Some(mv) = searcher.next_move(&node) {
        if searched == 1 {
            // The first child did not cut off: the node needs the rest too.
            prefetch(searcher, position, depth, ply);
        }
        searched += 1;
        let child = searcher.game.play(position, mv);
        let value = if searcher.game.to_move(&child) == mover {
            mt(searcher, &child, depth - 1, a, node.beta, ply + 1, expected)
        } else {
            -mt(searcher, &child, depth - 1, -node.beta, -a, ply + 1, expected.flipped())
        };
        if value > g {
            g = value;
            best = Some(mv);
        }
        a = a.max(g);
        if g >= node.beta {
            break;
        }
    }
    searcher.leave(node, position, ply, g, best)
}
// ANCHOR_END: mt

/// Tells the game what the search of all of `position`'s children will ask: their values at the
/// horizon, their moves above it; and the first time, one ply further, what each child's own
/// first move will ask (each child a CUT node that tries one move first), so that a game that
/// answers over a pipe asks a level of the minimal tree in two round trips rather than one per
/// node. Only the time depends on it.
fn prefetch<G: Game, O: Observer<G>>(
    searcher: &Searcher<'_, G, O>,
    position: &G::Position,
    depth: u32,
    ply: usize,
) {
    let game = searcher.game;
    let wanted = if depth == 1 { Prefetch::Evaluations } else { Prefetch::Moves };
    if !game.prefetch_children(position, wanted) || depth < 2 {
        return;
    }
    let firsts: Vec<G::Position> = game
        .moves(position)
        .filter_map(|mv| {
            let child = game.play(position, mv);
            let first = searcher.first_move(&child, ply + 1)?;
            Some(game.play(&child, first))
        })
        .collect();
    game.prefetch(&firsts, if depth == 2 { Prefetch::Evaluations } else { Prefetch::Moves });
}

/// A game that counts the positions a search asks about, as a game served over the line protocol
/// asks its engine ([`crate::oracle::protocol::ServedGame`], without `mover`): a position's moves,
/// its evaluation, and what [`Game::prefetch_children`] asks of its children, each position once.
/// What the cost of a proof is measured in.
pub struct Asking<'g, G: Game> {
    game: &'g G,
    asked: RefCell<HashSet<u64>>,
    prefetched: RefCell<HashSet<(u64, u8)>>,
}

impl<'g, G: Game> Asking<'g, G> {
    /// `game`, nothing asked yet. Its keys must identify positions.
    #[must_use]
    pub fn new(game: &'g G) -> Self {
        Self { game, asked: RefCell::default(), prefetched: RefCell::default() }
    }

    /// The positions asked about so far.
    #[must_use]
    pub fn asked(&self) -> usize {
        self.asked.borrow().len()
    }

    fn ask(&self, position: &G::Position) {
        self.asked.borrow_mut().insert(self.game.key(position));
    }
}

impl<G: Game> Game for Asking<'_, G> {
    type Position = G::Position;
    type Move = G::Move;
    type Moves = G::Moves;

    fn root(&self) -> G::Position {
        self.game.root()
    }

    fn to_move(&self, position: &G::Position) -> crate::game::Player {
        self.game.to_move(position)
    }

    fn moves(&self, position: &G::Position) -> G::Moves {
        self.ask(position);
        self.game.moves(position)
    }

    fn legal_moves(&self, position: &G::Position) -> Vec<G::Move> {
        self.ask(position);
        self.game.legal_moves(position)
    }

    fn play(&self, position: &G::Position, mv: G::Move) -> G::Position {
        self.game.play(position, mv)
    }

    fn evaluate(&self, position: &G::Position) -> Value {
        self.ask(position);
        self.game.evaluate(position)
    }

    fn horizon(&self, position: &G::Position) -> Value {
        self.ask(position);
        self.game.horizon(position)
    }

    fn move_name(&self, position: &G::Position, mv: G::Move) -> String {
        self.game.move_name(position, mv)
    }

    fn key(&self, position: &G::Position) -> u64 {
        self.game.key(position)
    }

    fn keys_identify_positions(&self) -> bool {
        self.game.keys_identify_positions()
    }

    fn key_epoch(&self) -> u64 {
        self.game.key_epoch()
    }

    fn is_terminal(&self, position: &G::Position) -> bool {
        self.ask(position);
        self.game.is_terminal(position)
    }

    fn prefetch(&self, positions: &[G::Position], _: Prefetch) {
        for position in positions {
            self.ask(position);
        }
    }

    fn prefetch_children(&self, position: &G::Position, wanted: Prefetch) -> bool {
        let bits = match wanted {
            Prefetch::Evaluations => 1,
            Prefetch::Moves => 2,
            Prefetch::MovesAndEvaluations => 3,
        };
        if !self.prefetched.borrow_mut().insert((self.game.key(position), bits)) {
            return false;
        }
        for mv in self.game.moves(position) {
            self.ask(&self.game.play(position, mv));
        }
        true
    }
}
