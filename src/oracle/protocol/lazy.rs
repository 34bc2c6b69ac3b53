//! An engine's game as a [`Game`] asked lazily: only the positions a walk or a case reaches are
//! asked about, one request at a time, each token once ([`Served`] keeps the answers). This is how
//! the own-game fuzz ([`crate::oracle::harness::fuzz_game`]) walks an engine's game to positions
//! many plies deep (a Connect Four engine's game eight plies in, say) without unfolding everything
//! up to there.
//!
//! The [`Game`] trait cannot fail, so a request that fails (the engine exits, breaks the protocol)
//! is kept ([`ServedGame::take_failure`]): from then on the game answers no moves and evaluations
//! of 0, and whoever asked checks for the failure before trusting what it got.

use std::cell::{RefCell, RefMut};
use std::collections::HashMap;

use super::{ProtocolError, Served};
use crate::game::{Game, Player};
use crate::value::Value;

/// A position of a [`ServedGame`]: a token (numbered in the order first seen) and the side to
/// move there, so that a token reached with either side to move is two positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ServedPosition {
    /// The token's number ([`ServedGame::token`] gives it back).
    pub token: u32,
    /// The side to move.
    pub side: Player,
}

/// An engine's game served over the protocol, asked lazily. See the [module documentation](self).
///
/// Its moves are child indices in the engine's order ([`ServedGame::move_name`] gives their names);
/// its keys identify positions; sides turn as the engine's `mover` answers say, or with every move.
pub struct ServedGame {
    served: RefCell<Served>,
    tokens: RefCell<Tokens>,
    failure: RefCell<Option<ProtocolError>>,
}

/// Tokens by number and numbers by token.
#[derive(Default)]
struct Tokens {
    by_number: Vec<String>,
    numbers: HashMap<String, u32>,
}

impl Tokens {
    fn number(&mut self, token: &str) -> u32 {
        if let Some(&number) = self.numbers.get(token) {
            return number;
        }
        let number = u32::try_from(self.by_number.len()).unwrap_or(u32::MAX);
        self.by_number.push(token.to_owned());
        self.numbers.insert(token.to_owned(), number);
        number
    }
}

impl ServedGame {
    /// The game `served` serves, from its start.
    #[must_use]
    pub fn new(served: Served) -> Self {
        Self { served: RefCell::new(served), tokens: RefCell::default(), failure: RefCell::new(None) }
    }

    /// The engine, to ask it what the [`Game`] does not (`search`, the requests counted).
    ///
    /// # Panics
    /// If the game is being asked at the same time (never from one thread, which is the only one
    /// a `RefCell` allows).
    pub fn served(&self) -> RefMut<'_, Served> {
        self.served.borrow_mut()
    }

    /// The position `token` names, with `side` to move.
    #[must_use]
    pub fn position(&self, token: &str, side: Player) -> ServedPosition {
        ServedPosition { token: self.tokens.borrow_mut().number(token), side }
    }

    /// The token of `position`.
    #[must_use]
    pub fn token(&self, position: &ServedPosition) -> String {
        self.tokens.borrow().by_number.get(position.token as usize).cloned().unwrap_or_default()
    }

    /// The engine's name for move `index` of `position`.
    #[must_use]
    pub fn move_name(&self, position: &ServedPosition, index: u32) -> String {
        let token = self.token(position);
        let mut served = self.served.borrow_mut();
        match served.moves(&token) {
            Ok(moves) => moves.get(index as usize).map(|(name, _)| name.clone()).unwrap_or_default(),
            Err(error) => {
                self.fail(error);
                String::new()
            }
        }
    }

    /// Forgets what the engine answered, once it has answered about more than `limit` tokens, so
    /// that a long run's memory stays bounded. Positions made before are no longer valid: call it
    /// between cases, never while one is searched.
    pub fn forget_beyond(&self, limit: usize) {
        if self.served.borrow().known() > limit {
            self.served.borrow_mut().forget();
            *self.tokens.borrow_mut() = Tokens::default();
        }
    }

    /// The first request that failed since the last call, if any.
    pub fn take_failure(&self) -> Option<ProtocolError> {
        self.failure.borrow_mut().take()
    }

    fn fail(&self, error: ProtocolError) {
        self.failure.borrow_mut().get_or_insert(error);
    }

    /// The moves of `position`: each name and the token it leads to (none once a request failed).
    fn moves_of(&self, position: &ServedPosition) -> Vec<(String, String)> {
        if self.failure.borrow().is_some() {
            return Vec::new();
        }
        let token = self.token(position);
        let mut served = self.served.borrow_mut();
        match served.moves(&token) {
            Ok(moves) => moves.to_vec(),
            Err(error) => {
                drop(served);
                self.fail(error);
                Vec::new()
            }
        }
    }
}

impl Game for ServedGame {
    type Position = ServedPosition;
    type Move = u32;
    type Moves = std::ops::Range<u32>;

    fn root(&self) -> ServedPosition {
        let root = self.served.borrow().root().to_owned();
        self.position(&root, Player::Max)
    }

    fn to_move(&self, position: &ServedPosition) -> Player {
        position.side
    }

    fn moves(&self, position: &ServedPosition) -> Self::Moves {
        0..u32::try_from(self.moves_of(position).len()).unwrap_or(u32::MAX)
    }

    fn play(&self, position: &ServedPosition, mv: u32) -> ServedPosition {
        let moves = self.moves_of(position);
        let Some((_, child)) = moves.get(mv as usize) else { return *position };
        let side = self.served.borrow().side_after(&self.token(position), position.side, child);
        self.position(child, side)
    }

    fn evaluate(&self, position: &ServedPosition) -> Value {
        if self.failure.borrow().is_some() {
            return 0;
        }
        let token = self.token(position);
        let evaluated = self.served.borrow_mut().evaluate(&token);
        match evaluated {
            Ok(value) => position.side.perspective(value),
            Err(error) => {
                self.fail(error);
                0
            }
        }
    }

    /// Asks the engine, all at once, for the moves (when `moves`) and evaluations of every
    /// position not asked before: a whole level of an unfolding in one round trip.
    fn prefetch(&self, positions: &[ServedPosition], moves: bool) {
        if self.failure.borrow().is_some() {
            return;
        }
        let tokens: Vec<String> = positions.iter().map(|position| self.token(position)).collect();
        let tokens: Vec<&str> = tokens.iter().map(String::as_str).collect();
        let mut served = self.served.borrow_mut();
        let asked =
            if moves { served.expand(&tokens) } else { Ok(()) }.and_then(|()| served.evaluate_all(&tokens));
        drop(served);
        if let Err(error) = asked {
            self.fail(error);
        }
    }

    fn key(&self, position: &ServedPosition) -> u64 {
        (u64::from(position.token) << 1) | u64::from(position.side == Player::Min)
    }

    fn keys_identify_positions(&self) -> bool {
        true
    }
}
