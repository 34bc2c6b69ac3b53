//! An engine's game as a [`Game`] asked lazily: only the positions a walk, a case or a proof
//! reaches are asked about, each token once ([`Served`] keeps the answers). This is how the
//! own-game fuzz ([`crate::oracle::harness::fuzz_game`]) walks an engine's game to positions many
//! plies deep (a Connect Four engine's game eight plies in, say) without unfolding everything up to
//! there, and proves its claims without valuing every position below them.
//!
//! A search asks the game one position at a time, but the engine is best asked many at once: each
//! batch is one round trip through the pipes, which costs more than answering it. So the game
//! takes [`Game::prefetch_children`] as the cue to ask about all of a node's children in one
//! round trip: their evaluations when they are leaves, their moves when they will be expanded.
//!
//! The [`Game`] trait cannot fail, so a request that fails (the engine exits, breaks the protocol)
//! is kept ([`ServedGame::take_failure`]): from then on the game answers no moves and evaluations
//! of 0, and whoever asked checks for the failure before trusting what it got.

use std::cell::{Cell, RefCell, RefMut};

use super::{ProtocolError, Served};
use crate::game::{Game, Player, Prefetch};
use crate::value::Value;

/// A position of a [`ServedGame`]: a token (numbered in the order first named) and the side to
/// move there, so that a token reached with either side to move is two positions; and, for an
/// engine that announces `distance`, how far below the searched position it lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ServedPosition {
    /// The token's number ([`ServedGame::token`] gives it back).
    pub token: u32,
    /// The side to move.
    pub side: Player,
    /// For an engine that announces `distance`: the plies from the searched position (0 there,
    /// [`Game::search_root`]), which a finished position's value depends on; two plies are two
    /// positions. Always 0 otherwise.
    pub ply: u32,
}

/// The plies a key tells apart (2^17, more than [`crate::tree::MAX_SEARCH_HEIGHT`]): a search
/// never reaches further below its root.
const PLY_BITS: u32 = 17;

/// An engine's game served over the protocol, asked lazily. See the [module documentation](self).
///
/// Its moves are child indices in the engine's order ([`Game::move_name`] gives their names);
/// its keys identify positions; sides turn as the engine's `mover` answers say, or with every move.
pub struct ServedGame {
    served: RefCell<Served>,
    failure: RefCell<Option<ProtocolError>>,
    /// How often the answers were forgotten ([`ServedGame::forget_beyond`]): the keys' epoch, and
    /// part of each key.
    generation: Cell<u32>,
}

impl ServedGame {
    /// The game `served` serves, from its start.
    #[must_use]
    pub fn new(served: Served) -> Self {
        Self { served: RefCell::new(served), failure: RefCell::new(None), generation: Cell::new(0) }
    }

    /// The engine, to ask it what the [`Game`] does not (`search`, the requests counted).
    ///
    /// # Panics
    /// If the game is being asked at the same time (never from one thread, which is the only one
    /// a `RefCell` allows).
    pub fn served(&self) -> RefMut<'_, Served> {
        self.served.borrow_mut()
    }

    /// The position `token` names, with `side` to move, as the root of a search (ply 0).
    #[must_use]
    pub fn position(&self, token: &str, side: Player) -> ServedPosition {
        ServedPosition { token: self.served.borrow_mut().number(token), side, ply: 0 }
    }

    /// Whether the engine announces `distance`, so that positions count their plies.
    fn distance(&self) -> bool {
        self.served.borrow().features().distance
    }

    /// The engine's evaluation `raw` of `position`, from the side to move, as the position is
    /// worth where it lies: with `distance`, a finished position `ply` plies below the searched one
    /// is worth `raw - ply` (a win) or `raw + ply` (a loss). Admissible values and plies below
    /// 2^17 cannot overflow.
    fn at_its_distance(&self, position: &ServedPosition, raw: Value) -> Value {
        if position.ply == 0 || !self.distance() || !self.expand(position) {
            return raw;
        }
        let finished = self.served.borrow().children(position.token).is_some_and(<[_]>::is_empty);
        let ply = Value::try_from(position.ply).unwrap_or(Value::MAX);
        match raw {
            _ if !finished => raw,
            win if win > 0 => win.saturating_sub(ply),
            loss if loss < 0 => loss.saturating_add(ply),
            _ => raw,
        }
    }

    /// The token of `position`.
    #[must_use]
    pub fn token(&self, position: &ServedPosition) -> String {
        self.served.borrow().token(position.token).to_owned()
    }

    /// Forgets what the engine answered, once the answers kept take more than `max_bytes` (as
    /// [`Served::bytes`] counts them), so that a long run's memory stays bounded: every position,
    /// its moves, evaluation and side together, is asked about again when next needed. Positions
    /// made before are no longer valid: call it between cases, never while one is searched. The
    /// keys are given out afresh ([`Game::key_epoch`] changes), so that a table kept across it
    /// forgets what it holds. Whether it forgot.
    pub fn forget_beyond(&self, max_bytes: usize) -> bool {
        if self.served.borrow().bytes() <= max_bytes {
            return false;
        }
        self.served.borrow_mut().forget();
        self.generation.set(self.generation.get().wrapping_add(1));
        true
    }

    /// The first request that failed since the last call, if any.
    pub fn take_failure(&self) -> Option<ProtocolError> {
        self.failure.borrow_mut().take()
    }

    fn fail(&self, error: ProtocolError) {
        self.failure.borrow_mut().get_or_insert(error);
    }

    /// Asks for the moves of `position` if they were not asked before: whether they are known (not
    /// once a request failed).
    fn expand(&self, position: &ServedPosition) -> bool {
        if self.served.borrow().children(position.token).is_some() {
            return true;
        }
        if self.failure.borrow().is_some() {
            return false;
        }
        let asked = self.served.borrow_mut().expand(&[position.token]);
        match asked {
            Ok(()) => true,
            Err(error) => {
                self.fail(error);
                false
            }
        }
    }
}

impl Game for ServedGame {
    type Position = ServedPosition;
    type Move = u32;
    type Moves = std::ops::Range<u32>;

    fn root(&self) -> ServedPosition {
        ServedPosition { token: 0, side: Player::Max, ply: 0 }
    }

    /// The position at ply 0: a search of it counts its distances from there.
    fn search_root(&self, position: &ServedPosition) -> ServedPosition {
        ServedPosition { ply: 0, ..*position }
    }

    fn to_move(&self, position: &ServedPosition) -> Player {
        position.side
    }

    /// The engine's name for move `index` of `position`.
    fn move_name(&self, position: &ServedPosition, index: u32) -> String {
        if !self.expand(position) {
            return String::new();
        }
        let served = self.served.borrow();
        let moves = served.children(position.token).unwrap_or_default();
        moves.get(index as usize).map(|mv| served.name(mv.name).to_owned()).unwrap_or_default()
    }

    fn moves(&self, position: &ServedPosition) -> Self::Moves {
        if !self.expand(position) {
            return 0..0;
        }
        let count = self.served.borrow().children(position.token).map_or(0, <[_]>::len);
        0..u32::try_from(count).unwrap_or(u32::MAX)
    }

    fn play(&self, position: &ServedPosition, mv: u32) -> ServedPosition {
        if !self.expand(position) {
            return *position;
        }
        let served = self.served.borrow();
        let Some(child) = served.children(position.token).and_then(|moves| moves.get(mv as usize)) else {
            return *position;
        };
        let keeps = served.keeps_side(position.token, child.child);
        let distance = served.features().distance;
        ServedPosition {
            token: child.child,
            side: if keeps { position.side } else { position.side.opponent() },
            ply: if distance { position.ply.saturating_add(1) } else { 0 },
        }
    }

    fn evaluate(&self, position: &ServedPosition) -> Value {
        let known = self.served.borrow().evaluation(position.token);
        if let Some(value) = known {
            return position.side.perspective(self.at_its_distance(position, value));
        }
        if self.failure.borrow().is_some() {
            return 0;
        }
        let asked = self.served.borrow_mut().evaluate_all(&[position.token]);
        if let Err(error) = asked {
            self.fail(error);
            return 0;
        }
        let value = self.served.borrow().evaluation(position.token).unwrap_or(0);
        position.side.perspective(self.at_its_distance(position, value))
    }

    fn horizon(&self, position: &ServedPosition) -> Value {
        if !self.served.borrow().features().horizon {
            return self.evaluate(position);
        }
        if self.failure.borrow().is_some() {
            return 0;
        }
        let asked = self.served.borrow_mut().horizon(position.token);
        match asked {
            Ok(value) => position.side.perspective(value),
            Err(error) => {
                self.fail(error);
                0
            }
        }
    }

    /// Asks the engine, all at once, for what `wanted` names of every position not asked before: a
    /// whole level of an unfolding, or a node's children, in one round trip.
    fn prefetch(&self, positions: &[ServedPosition], wanted: Prefetch) {
        if self.failure.borrow().is_some() {
            return;
        }
        let tokens: Vec<u32> = positions.iter().map(|position| position.token).collect();
        let mut served = self.served.borrow_mut();
        let features = served.features();
        // A leaf worth its distance is worth it only where its game is over: its moves tell.
        let wanted = match wanted {
            Prefetch::Evaluations if features.distance && !features.horizon => Prefetch::MovesAndEvaluations,
            wanted => wanted,
        };
        let asked = match wanted {
            // What the proofs ask of a position at depth 0 is its value at the horizon.
            Prefetch::Evaluations if features.horizon => served.horizon_all(&tokens),
            Prefetch::Evaluations => served.evaluate_all(&tokens),
            Prefetch::Moves => served.expand(&tokens),
            Prefetch::MovesAndEvaluations => {
                served.expand(&tokens).and_then(|()| served.evaluate_all(&tokens))
            }
        };
        drop(served);
        if let Err(error) = asked {
            self.fail(error);
        }
    }

    /// The children's evaluations or moves in one round trip, the first time they are wanted.
    fn prefetch_children(&self, position: &ServedPosition, wanted: Prefetch) -> bool {
        let bits = match wanted {
            Prefetch::Evaluations => 1,
            Prefetch::Moves => 2,
            Prefetch::MovesAndEvaluations => 3,
        };
        if !self.expand(position) || self.served.borrow_mut().prefetched(position.token, bits) {
            return false;
        }
        let children: Vec<ServedPosition> = self.moves(position).map(|mv| self.play(position, mv)).collect();
        self.prefetch(&children, wanted);
        true
    }

    /// The token's number and the side to move, and the times the answers were forgotten (a
    /// position made before a forgetting is never taken for one made after it); with `distance`,
    /// the ply too, in 17 bits (a walk to a case may go further, but is searched only from its
    /// end, at ply 0), and the times forgotten in the 14 bits left. Those repeat after 16,384
    /// forgettings, which is why [`Game::key_epoch`] tells a kept table to forget.
    fn key(&self, position: &ServedPosition) -> u64 {
        let generation = u64::from(self.generation.get());
        let token_and_side = (u64::from(position.token) << 1) | u64::from(position.side == Player::Min);
        if !self.distance() {
            return (generation << 33) | token_and_side;
        }
        let ply = u64::from(position.ply) & ((1 << PLY_BITS) - 1);
        (generation << (33 + PLY_BITS)) | (ply << 33) | token_and_side
    }

    fn keys_identify_positions(&self) -> bool {
        true
    }

    /// The times the answers were forgotten ([`ServedGame::forget_beyond`]).
    fn key_epoch(&self) -> u64 {
        u64::from(self.generation.get())
    }
}
