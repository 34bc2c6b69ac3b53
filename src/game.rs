//! The [`Game`] trait: the one abstraction every search in the crate is written against.
//!
//! A game is a graph of positions. The searches ask it five things about a position: who is to move,
//! which moves there are (in the order to search them), which position a move leads to, what the
//! position is worth, and a key that identifies it for a transposition table.
//!
//! # Two ways to read a score
//!
//! The source documents use both conventions, and the trait serves both:
//!
//! * **Minimax form** (Plaat's `AlphaBetaWithMemory`, the Wikipedia and Chessprogramming pages): a node
//!   is a MAX node or a MIN node ([`Game::to_move`]) and [`Game::evaluate`] scores it from MAX's side.
//! * **Negamax form** (the Russian article's `AlphaBeta`, Verhelst's `PrincipalVariation`): every node
//!   maximises, and [`Game::evaluate_for_mover`] scores it from the side to move, so a parent negates
//!   its children's values.
//!
//! The two agree because players alternate: the player to move in a child position is always the
//! opponent of the player to move in its parent. Every implementation must keep that contract.
//!
//! # Terminal nodes and depth cut-offs
//!
//! A position with no moves is **terminal**: the game is over and [`Game::evaluate`] is its exact
//! value. A search that runs out of depth at a position that still has moves makes a **depth cut-off**:
//! it also calls [`Game::evaluate`], which there is a heuristic (a *static evaluation*). Searches tell
//! the two apart with [`Game::is_terminal`]; the depth is the search's own parameter, not part of the
//! position.
//!
//! # Example
//!
//! Nim with one heap, taking one or two stones; whoever takes the last stone wins.
//!
//! ```
//! use nullwindow::game::{Game, Player};
//! use nullwindow::value::Value;
//!
//! struct Nim { stones: u32 }
//!
//! impl Game for Nim {
//!     type Position = (u32, Player); // stones left, player to move
//!     type Move = u32;               // stones taken
//!     type Moves = std::ops::RangeInclusive<u32>;
//!
//!     fn root(&self) -> Self::Position { (self.stones, Player::Max) }
//!     fn to_move(&self, position: &Self::Position) -> Player { position.1 }
//!     fn moves(&self, position: &Self::Position) -> Self::Moves {
//!         // An empty range when no stones are left: the position is terminal.
//!         1..=position.0.min(2)
//!     }
//!     fn play(&self, position: &Self::Position, taken: u32) -> Self::Position {
//!         (position.0 - taken, position.1.opponent())
//!     }
//!     fn evaluate(&self, position: &Self::Position) -> Value {
//!         // With no stones left, the player to move has lost.
//!         if position.0 == 0 { if position.1 == Player::Max { -1 } else { 1 } } else { 0 }
//!     }
//!     fn key(&self, position: &Self::Position) -> u64 {
//!         u64::from(position.0) * 2 + u64::from(position.1 == Player::Min)
//!     }
//! }
//!
//! let nim = Nim { stones: 4 };
//! let value = nullwindow::reference::minimax::search(&nim, &nim.root(), u32::MAX).value;
//! assert_eq!(value, 1); // four stones: the first player takes one and wins
//! ```

use std::fmt;

use crate::value::Value;

/// The player to move at a node: MAX maximises the value, MIN minimises it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The maximising player; the root of a parenthesis-format tree, White in the `gtree` format.
    Max,
    /// The minimising player; Black in the `gtree` format.
    Min,
}

impl Player {
    /// The other player.
    #[must_use]
    pub const fn opponent(self) -> Self {
        match self {
            Self::Max => Self::Min,
            Self::Min => Self::Max,
        }
    }

    /// Converts a value read from MAX's side to the same value read from this player's side.
    ///
    /// Negamax form needs this at a leaf. It cannot overflow on any value a search handles (see
    /// [`crate::value`]).
    #[must_use]
    pub const fn perspective(self, value_for_max: Value) -> Value {
        match self {
            Self::Max => value_for_max,
            Self::Min => -value_for_max,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Max => "MAX",
            Self::Min => "MIN",
        })
    }
}

/// What [`Game::prefetch`] is told will be asked of each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prefetch {
    /// Its evaluation: the positions are leaves.
    Evaluations,
    /// Its moves: the positions will be expanded.
    Moves,
    /// Both: an unfolding's level, whose nodes keep their evaluations and are expanded.
    MovesAndEvaluations,
}

/// A two-player zero-sum game with perfect information, as the searches see it.
///
/// Contract, which every search relies on:
/// * players alternate: `to_move(play(p, m)) == to_move(p).opponent()`;
/// * `moves` yields the same moves in the same order every time for the same position;
/// * `evaluate` returns an admissible value ([`crate::value::is_admissible`]), the exact game value at
///   a terminal position;
/// * equal positions have equal keys (distinct positions may collide; tables verify what they can).
pub trait Game {
    /// A position (a node of the game graph). Searches copy positions (copy-make).
    type Position: Clone;
    /// A move from a position to one of its children.
    type Move: Copy + Eq + fmt::Debug + fmt::Display;
    /// The moves of one position, in the order a search should try them.
    type Moves: Iterator<Item = Self::Move>;

    /// The position the search starts from.
    fn root(&self) -> Self::Position;

    /// The player to move at `position`.
    fn to_move(&self, position: &Self::Position) -> Player;

    /// The moves at `position` a search tries, in search order; none at a terminal position.
    ///
    /// This is the search's move list, not the rules: it may leave out legal moves that cannot
    /// change the value, provided that for every depth `d` the depth-`d` minimax value of `position`
    /// over these moves equals its depth-`d` value over [`Game::legal_moves`] (Connect Four plays a
    /// winning move alone and drops moves that hand the opponent an immediate win). It must not be
    /// empty while [`Game::legal_moves`] is not.
    fn moves(&self, position: &Self::Position) -> Self::Moves;

    /// Every legal move at `position`, in the game's natural order (Connect Four: columns 1 to 7,
    /// left to right); none at a terminal position. The oracle's `divide` and `check` use it, so
    /// that a move another engine plays is judged even where [`Game::moves`] leaves it out.
    ///
    /// The default is [`Game::moves`], for games whose search tries every legal move.
    fn legal_moves(&self, position: &Self::Position) -> Vec<Self::Move> {
        self.moves(position).collect()
    }

    /// The position reached by playing `mv` at `position`.
    fn play(&self, position: &Self::Position, mv: Self::Move) -> Self::Position;

    /// The name messages give `mv`, played at `position`: the game's own (a served engine's move
    /// names). The default prints the move.
    fn move_name(&self, position: &Self::Position, mv: Self::Move) -> String {
        let _ = position;
        mv.to_string()
    }

    /// The value of `position` from MAX's side: exact at a terminal position, a heuristic static
    /// evaluation at a depth cut-off. Must be admissible.
    fn evaluate(&self, position: &Self::Position) -> Value;

    /// A key identifying `position` for a transposition table.
    fn key(&self, position: &Self::Position) -> u64;

    /// An upper bound on the plies from `position` to the end of the game, if the game knows one.
    /// Iterative deepening asked to search "to the end" iterates up to this depth. `None` (the
    /// default) means unknown.
    fn depth_bound(&self, position: &Self::Position) -> Option<u32> {
        let _ = position;
        None
    }

    /// How many slots a history-heuristic table needs for this game's moves; 0 (the default) turns
    /// the history heuristic off for the game.
    fn history_slots(&self) -> usize {
        0
    }

    /// The history-heuristic slot of `mv` played at `position`, below [`Game::history_slots`]. Moves
    /// that share a slot share their history score (in chess: the same from and to squares).
    fn history_slot(&self, position: &Self::Position, mv: Self::Move) -> usize {
        let _ = (position, mv);
        0
    }

    /// Whether the order of [`Game::moves`] already uses knowledge of the position (threats,
    /// captures) and should be kept: the engine then only puts the table's best move first, and
    /// leaves out killer moves and the history heuristic, which would put moves that were good
    /// elsewhere in front of that knowledge. `false` (the default) lets them reorder.
    fn keeps_move_order(&self) -> bool {
        false
    }

    /// Bounds `(lower, upper)` on the depth-`depth` value of `position` from the side to move, when
    /// the game knows them cheaply: in Connect Four no one wins before their next stone, a player who
    /// can complete four now has the best score there is, and one who cannot stop every immediate
    /// threat has lost. The engine asks only at a non-terminal `position` with `depth >= 1` (a
    /// depth-0 node is evaluated instead), answers a node whose window lies outside the bounds (or
    /// whose bounds are equal) without searching it, and otherwise searches it with the window
    /// narrowed to them. The bounds must hold for the depth-limited value, a depth-cut-off
    /// evaluation included. `None` (the default) means nothing is known.
    fn value_bounds(&self, position: &Self::Position, depth: u32) -> Option<(Value, Value)> {
        let _ = (position, depth);
        None
    }

    /// Whether a node at `position`, searched to `depth`, probes and stores in the transposition
    /// table. A small subtree can cost less to search again than a probe of a table much larger than
    /// the processor's caches, where most probes miss: with Connect Four and a table of 2^22
    /// entries, leaving the last 12 stones of a game out saved a third of the time; with the 2^18
    /// entries `nullwindow bench connect4` then used (2^17 now), which mostly stay in cache, it cost
    /// time, so the crate's games keep the default. Leaves (depth 0) never use the table, nor do
    /// nodes shallower than
    /// [`SearchParams::table_min_depth`](crate::driver::SearchParams::table_min_depth), which keeps
    /// out the plies just above the horizon in any game. `true` (the default) lets every other node
    /// use it. Only the work done and the counts depend on it, never a value.
    fn uses_table(&self, position: &Self::Position, depth: u32) -> bool {
        let _ = (position, depth);
        true
    }

    /// Told that a search or an unfolding is about to ask for `wanted` of each of `positions`: a
    /// game whose answers are costly one at a time (an engine's game over a pipe,
    /// [`crate::oracle::protocol::ServedGame`]) asks for them all at once, one round trip for a
    /// whole level of an unfolding ([`crate::tree::unfold`]) or for a node's children
    /// ([`crate::oracle::proof::mt`]). Only the time taken depends on it, never an answer. The
    /// default does nothing.
    fn prefetch(&self, positions: &[Self::Position], wanted: Prefetch) {
        let _ = (positions, wanted);
    }

    /// Told that a search is about to ask for `wanted` of the children of `position` (of
    /// [`Game::moves`]): [`Game::prefetch`] for them, which a game that implements it can make cost
    /// nothing when it has asked before. Whether it asked now (the first time): the search then
    /// tells it what it will ask next, one ply further down. The default does nothing, and says
    /// so.
    fn prefetch_children(&self, position: &Self::Position, wanted: Prefetch) -> bool {
        let _ = (position, wanted);
        false
    }

    /// Whether equal keys always mean equal positions: no two positions share a [`Game::key`]. The
    /// oracle then values each position once per depth, however many paths reach it
    /// ([`crate::reference::minimax::memoized`]): polynomial on a graph of transpositions, where
    /// plain minimax walks every path. `false` (the default) keeps plain minimax, which needs no
    /// such promise.
    fn keys_identify_positions(&self) -> bool {
        false
    }

    /// How many times the game has given its keys out afresh, a key from before then naming
    /// another position or none: a table that keeps entries from one search to the next forgets
    /// them when this changes, as the oracle's [`Prover`](crate::oracle::proof::Prover) does. A
    /// game served over the line protocol changes it when it forgets the engine's answers to bound
    /// its memory ([`ServedGame::forget_beyond`](crate::oracle::protocol::ServedGame::forget_beyond)).
    /// `0` (the default) for a game whose keys always keep their meaning.
    fn key_epoch(&self) -> u64 {
        0
    }

    /// Whether `position` is terminal (has no moves). Override when it can be answered faster.
    fn is_terminal(&self, position: &Self::Position) -> bool {
        self.moves(position).next().is_none()
    }

    /// The value of `position` from the side to move: [`Game::evaluate`] in negamax form.
    fn evaluate_for_mover(&self, position: &Self::Position) -> Value {
        self.to_move(position).perspective(self.evaluate(position))
    }

    /// The value a search gives `position` where its depth runs out, from MAX's side, even if the
    /// game is over there: an engine that scores a finished position statically at its horizon
    /// gives its static score. The default is [`Game::evaluate`]; a finished position reached
    /// above the horizon is always worth [`Game::evaluate`]. The crate's searches read it at depth
    /// 0 (the oracle's proofs among them); its reference minimax, which defines a position's value
    /// by [`Game::evaluate`] alone, does not.
    fn horizon(&self, position: &Self::Position) -> Value {
        self.evaluate(position)
    }

    /// `position` as the root of a search. A game whose finished positions are worth less the
    /// further below the searched position they lie (mate scores by distance: a served engine that
    /// announces `distance`) counts plies in its positions, from 0 here; the oracle makes each case
    /// it searches or proves a search root. The default is the position itself.
    fn search_root(&self, position: &Self::Position) -> Self::Position {
        position.clone()
    }

    /// [`Game::horizon`] from the side to move.
    fn horizon_for_mover(&self, position: &Self::Position) -> Value {
        self.to_move(position).perspective(self.horizon(position))
    }
}
