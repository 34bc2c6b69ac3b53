//! Nim on one heap of 21 stones (the subtraction game, "21"): the players take 1, 2 or 3 stones in
//! turn, and whoever takes the last stone wins.
//!
//! A position is written as the numbers of stones taken from the full heap: `"312"` is MAX taking 3,
//! MIN 1, MAX 2, leaving 15. A win scores +1 for MAX, −1 for MIN; a position cut off by a depth limit
//! 0. The game is small (at most 44 positions) but deep (up to 21 plies), and every position is reached by
//! many move orders: the unfolded tree has 223,317 leaves where a transposition table sees 44
//! positions, so it is the crate's game for watching what a table saves. The player to move loses
//! exactly when the heap is a multiple of 4, so MAX wins from 21 by taking 1.
//!
//! ```
//! use nullwindow::game::Game;
//! use nullwindow::games::nim::Nim;
//! use nullwindow::reference::minimax;
//!
//! let game = Nim::from_moves("")?;
//! let outcome = minimax::search(&game, &game.root(), u32::MAX);
//! assert_eq!(outcome.value, 1); // the first player wins
//! assert_eq!(outcome.counts.leaves, 223_317); // every way a game can go
//! // After 1, 2: 18 stones, MAX to move, and 18 is no multiple of 4.
//! assert_eq!(minimax::search(&game, &Nim::from_moves("12")?.root(), u32::MAX).value, 1);
//! # Ok::<(), nullwindow::games::PositionError>(())
//! ```

use super::PositionError;
use crate::game::{Game, Player};
use crate::value::Value;

/// The stones on the heap at the start.
pub const HEAP: u32 = 21;

/// The most stones a move takes.
pub const MOST_TAKEN: u32 = 3;

/// A position: the stones left and the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Heap {
    /// The stones left.
    pub stones: u32,
    /// The player to move.
    pub to_move: Player,
}

/// Nim from a starting position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nim {
    start: Heap,
}

impl Nim {
    /// The game after the takes in `moves` (digits 1-3) from the full heap of [`HEAP`] stones.
    ///
    /// # Errors
    /// A character that is not a digit 1-3, or a take of more stones than are left.
    pub fn from_moves(moves: &str) -> Result<Self, PositionError> {
        let mut heap = Heap { stones: HEAP, to_move: Player::Max };
        for (index, found) in moves.chars().enumerate() {
            let error = |reason: String| PositionError { index: index + 1, found, reason };
            let taken = found
                .to_digit(10)
                .filter(|taken| (1..=MOST_TAKEN).contains(taken))
                .ok_or_else(|| error(format!("not a take of 1 to {MOST_TAKEN} stones")))?;
            if taken > heap.stones {
                return Err(error(format!("only {} stones are left", heap.stones)));
            }
            heap = Heap { stones: heap.stones - taken, to_move: heap.to_move.opponent() };
        }
        Ok(Self { start: heap })
    }

    /// The stones left at the starting position.
    #[must_use]
    pub const fn stones(&self) -> u32 {
        self.start.stones
    }
}

impl Game for Nim {
    type Position = Heap;
    /// The stones taken.
    type Move = u32;
    type Moves = std::ops::RangeInclusive<u32>;

    fn root(&self) -> Heap {
        self.start
    }

    fn to_move(&self, position: &Heap) -> Player {
        position.to_move
    }

    /// Take 1, 2 or 3, but no more than are left: an empty range on an empty heap.
    fn moves(&self, position: &Heap) -> Self::Moves {
        1..=position.stones.min(MOST_TAKEN)
    }

    fn play(&self, position: &Heap, taken: u32) -> Heap {
        Heap { stones: position.stones.saturating_sub(taken), to_move: position.to_move.opponent() }
    }

    /// On an empty heap the player to move has lost (the other took the last stone); elsewhere 0.
    fn evaluate(&self, position: &Heap) -> Value {
        match (position.stones, position.to_move) {
            (0, Player::Max) => -1,
            (0, Player::Min) => 1,
            _ => 0,
        }
    }

    fn key(&self, position: &Heap) -> u64 {
        u64::from(position.stones) * 2 + u64::from(position.to_move == Player::Min)
    }

    /// The key is the whole position.
    fn keys_identify_positions(&self) -> bool {
        true
    }

    /// Every move takes a stone.
    fn depth_bound(&self, position: &Heap) -> Option<u32> {
        Some(position.stones)
    }

    fn history_slots(&self) -> usize {
        MOST_TAKEN as usize
    }

    fn history_slot(&self, _: &Heap, taken: u32) -> usize {
        (taken.clamp(1, MOST_TAKEN) - 1) as usize
    }

    fn is_terminal(&self, position: &Heap) -> bool {
        position.stones == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The player to move loses exactly on a multiple of 4: every search of the whole game says so.
    #[test]
    fn the_player_to_move_loses_on_a_multiple_of_four() {
        for taken in 0..=HEAP {
            let moves: String = std::iter::repeat_n('1', taken as usize).collect();
            let game = Nim::from_moves(&moves).unwrap();
            let root = game.root();
            let value = crate::reference::minimax::search(&game, &root, u32::MAX).value;
            let mover_wins = !root.stones.is_multiple_of(4);
            assert_eq!(root.to_move.perspective(value) == 1, mover_wins, "{} stones", root.stones);
        }
    }

    #[test]
    fn bad_positions_name_the_move() {
        let error = Nim::from_moves("34").unwrap_err();
        assert_eq!((error.index, error.found), (2, '4'));
        let error = Nim::from_moves("33333331").unwrap_err();
        assert_eq!((error.index, error.reason.as_str()), (8, "only 0 stones are left"));
    }
}
