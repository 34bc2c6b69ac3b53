//! Real games, searched by the same generic drivers as every tree: no game-specific search code.
//!
//! * [`tictactoe`]: noughts and crosses on a 3×3 board, small enough to search completely.
//! * [`connect4`]: Connect Four on a 7×6 bitboard, with Pascal Pons' position notation and score.
//! * [`nim`]: one heap of 21 stones, take 1 to 3: tiny, deep, and all transpositions.

pub mod connect4;
pub mod nim;
pub mod tictactoe;

use std::fmt;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use crate::game::Game;
use crate::tree::random::draw_below;

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

/// A position `plies` random legal moves from `game`'s start ([`Game::legal_moves`], each move of a
/// position equally likely), or fewer where the game ends first; with the moves played. The same
/// seed gives the same position on every platform.
///
/// ```
/// use nullwindow::game::Game;
/// use nullwindow::games::{random_position, tictactoe::TicTacToe};
/// let game = TicTacToe::from_moves("")?;
/// let (position, moves) = random_position(&game, 7, 4);
/// assert_eq!(moves.len(), 4);
/// assert_eq!(position, moves.iter().fold(game.root(), |p, &m| game.play(&p, m)));
/// # Ok::<(), nullwindow::games::PositionError>(())
/// ```
pub fn random_position<G: Game>(game: &G, seed: u64, plies: u32) -> (G::Position, Vec<G::Move>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut position = game.root();
    let mut played = Vec::new();
    for _ in 0..plies {
        let moves = game.legal_moves(&position);
        let Some(count) = u64::try_from(moves.len()).ok().filter(|&count| count > 0) else { break };
        let chosen = moves[usize::try_from(draw_below(&mut rng, count)).unwrap_or(0)];
        position = game.play(&position, chosen);
        played.push(chosen);
    }
    (position, played)
}
