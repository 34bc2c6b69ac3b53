//! Real games, searched by the same generic drivers as every tree: no game-specific search code.
//!
//! * [`tictactoe`]: noughts and crosses on a 3×3 board, small enough to search completely.
//! * [`connect4`]: Connect Four on a 7×6 bitboard, with Pascal Pons' position notation and score.
//! * [`nim`]: one heap of 21 stones, take 1 to 3: tiny, deep, and all transpositions.

pub mod connect4;
pub mod nim;
pub mod tictactoe;

use std::fmt;

/// A position string that is not a legal game: which move is wrong and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    /// The 1-based index of the offending move in the string.
    pub index: usize,
    /// The offending character.
    pub found: char,
    /// Why it is not legal.
    pub reason: String,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {} ('{}'): {}", self.index, self.found, self.reason)
    }
}

impl std::error::Error for PositionError {}
