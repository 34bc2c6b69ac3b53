//! Tic-tac-toe: X (MAX) and O (MIN) take turns on a 3×3 board; three in a row wins, and play stops
//! there.
//!
//! Squares are numbered 1 to 9, row by row from the top left, and a position is written as the
//! squares played from the empty board: `"519"` is X in the centre, O in the top left, X in the bottom
//! right. A win scores +1 for X, −1 for O; a draw, or a position cut off by a depth limit, 0.
//!
//! ```
//! use nullwindow::games::tictactoe::TicTacToe;
//! use nullwindow::reference::minimax;
//! use nullwindow::game::Game;
//!
//! let game = TicTacToe::from_moves("")?;
//! let outcome = minimax::search(&game, &game.root(), u32::MAX);
//! assert_eq!(outcome.value, 0); // a draw with best play
//! assert_eq!(outcome.counts.nodes, 549_946); // every position of the game tree, root included
//! assert_eq!(outcome.counts.leaves, 255_168); // finished games
//! # Ok::<(), nullwindow::games::PositionError>(())
//! ```

use std::fmt;

use super::PositionError;
use crate::game::{Game, Player};
use crate::value::Value;

/// The eight lines of three, as bit masks over squares 0 to 8.
const LINES: [u16; 8] = [0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];
const FULL: u16 = 0o777;

/// A board: the squares of each player as bit masks (bit `i` is square `i + 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    x: u16,
    o: u16,
}

impl Board {
    const fn to_move(self) -> Player {
        if self.x.count_ones() == self.o.count_ones() { Player::Max } else { Player::Min }
    }

    const fn has_line(stones: u16) -> bool {
        let mut i = 0;
        while i < LINES.len() {
            if stones & LINES[i] == LINES[i] {
                return true;
            }
            i += 1;
        }
        false
    }

    const fn winner(self) -> Option<Player> {
        if Self::has_line(self.x) {
            Some(Player::Max)
        } else if Self::has_line(self.o) {
            Some(Player::Min)
        } else {
            None
        }
    }

    const fn empty(self) -> u16 {
        if self.winner().is_some() { 0 } else { FULL & !(self.x | self.o) }
    }
}

/// A square, 1 to 9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Square(u8);

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0 + 1)
    }
}

/// The empty squares of a position, lowest first: its moves.
#[derive(Clone, Debug)]
pub struct Squares(u16);

impl Iterator for Squares {
    type Item = Square;

    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let square = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square(square))
    }
}

/// Tic-tac-toe from a starting position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TicTacToe {
    start: Board,
}

impl TicTacToe {
    /// The game after the squares in `moves` (digits 1-9) were played from the empty board.
    ///
    /// # Errors
    /// A character that is not a digit 1-9, a square already taken, or a move after the game ended.
    pub fn from_moves(moves: &str) -> Result<Self, PositionError> {
        let mut board = Board { x: 0, o: 0 };
        for (index, found) in moves.chars().enumerate() {
            let error = |reason: &str| PositionError { index: index + 1, found, reason: reason.to_owned() };
            let square = found
                .to_digit(10)
                .filter(|d| (1..=9).contains(d))
                .ok_or_else(|| error("not a square 1-9"))?;
            if board.winner().is_some() {
                return Err(error("the game is already won"));
            }
            let bit = 1u16 << (square - 1);
            if (board.x | board.o) & bit != 0 {
                return Err(error("that square is taken"));
            }
            match board.to_move() {
                Player::Max => board.x |= bit,
                Player::Min => board.o |= bit,
            }
        }
        Ok(Self { start: board })
    }
}

impl Game for TicTacToe {
    type Position = Board;
    type Move = Square;
    type Moves = Squares;

    fn root(&self) -> Board {
        self.start
    }

    fn to_move(&self, position: &Board) -> Player {
        position.to_move()
    }

    fn moves(&self, position: &Board) -> Squares {
        Squares(position.empty())
    }

    fn play(&self, position: &Board, mv: Square) -> Board {
        let bit = 1 << mv.0;
        match position.to_move() {
            Player::Max => Board { x: position.x | bit, ..*position },
            Player::Min => Board { o: position.o | bit, ..*position },
        }
    }

    fn evaluate(&self, position: &Board) -> Value {
        match position.winner() {
            Some(Player::Max) => 1,
            Some(Player::Min) => -1,
            None => 0,
        }
    }

    fn key(&self, position: &Board) -> u64 {
        u64::from(position.x) | u64::from(position.o) << 9
    }

    /// The key is the whole position.
    fn keys_identify_positions(&self) -> bool {
        true
    }

    fn is_terminal(&self, position: &Board) -> bool {
        position.empty() == 0
    }

    fn depth_bound(&self, position: &Board) -> Option<u32> {
        Some(position.empty().count_ones())
    }

    fn history_slots(&self) -> usize {
        9
    }

    fn history_slot(&self, _position: &Board, mv: Square) -> usize {
        usize::from(mv.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_positions_name_the_offending_move() {
        let cases = [
            ("50", 2, "not a square"),
            ("55", 2, "taken"),
            ("1425369", 6, "already won"),
            ("a", 1, "not a square"),
        ];
        for (moves, index, reason) in cases {
            let error = TicTacToe::from_moves(moves).unwrap_err();
            assert_eq!(error.index, index, "{moves}: {error}");
            assert!(error.reason.contains(reason), "{moves}: {error}");
        }
    }

    #[test]
    fn a_won_position_is_terminal_and_scored() {
        let game = TicTacToe::from_moves("14253").unwrap(); // X: 1 2 3
        assert!(game.is_terminal(&game.root()));
        assert_eq!(game.evaluate(&game.root()), 1);
    }
}
