//! Connect Four on the standard 7×6 board, as a bitboard, with Pascal Pons' position notation and
//! score.
//!
//! A position is written as the columns played (1 to 7, left to right) from the empty board:
//! `"4453"`. The score follows Pons' solver: a win scores `22 − s` for the winner, where `s` is the
//! number of stones the winner has played when the game ends (so a quicker win scores more), a loss
//! the negation, a draw 0. [`Game::evaluate`] reads it from the first player's (MAX's) side; the
//! command line reports it from the side to move, as Pons' test sets do. A position cut off by a
//! depth limit evaluates to 0.
//!
//! The board is Pons' layout: one 7-bit group per column (six cells and a sentinel), a mask of every
//! stone and the stones of the player to move; a move is two operations, a win test four shifts.
//! Moves are generated with Pons' knowledge by default ([`MoveGeneration::Threats`]: win at once if
//! possible, block a threat, never play under the opponent's winning cell, most threats first) or
//! only centre first (4, 3, 5, 2, 6, 1, 7) with [`Connect4::with_generation`]; either way the search
//! is the crate's generic code and every value is exact.
//!
//! ```
//! use nullwindow::games::connect4::Connect4;
//! use nullwindow::game::Game;
//!
//! // The first player stacks four stones in column 1 and wins with 4 stones: 22 - 4.
//! let game = Connect4::from_moves("1213141")?;
//! assert!(game.is_terminal(&game.root()));
//! assert_eq!(game.evaluate(&game.root()), 22 - 4);
//! assert!(Connect4::from_moves("1111111").is_err()); // a seventh stone in column 1
//! # Ok::<(), nullwindow::games::PositionError>(())
//! ```

use std::fmt;

use super::PositionError;
use crate::game::{Game, Player};
use crate::value::Value;

const WIDTH: u32 = 7;
const HEIGHT: u32 = 6;
const CELLS: u8 = (WIDTH * HEIGHT) as u8;

/// The bottom cell of `column`.
const fn bottom(column: u32) -> u64 {
    1 << (column * (HEIGHT + 1))
}

/// The top cell of `column`.
const fn top(column: u32) -> u64 {
    1 << (HEIGHT - 1 + column * (HEIGHT + 1))
}

/// Whether `stones` hold four in a row in any direction.
const fn has_four(stones: u64) -> bool {
    // Horizontal, the two diagonals, vertical: neighbours are HEIGHT+1, HEIGHT+2, HEIGHT, 1 bits away.
    let shifts = [HEIGHT + 1, HEIGHT + 2, HEIGHT, 1];
    let mut i = 0;
    while i < shifts.len() {
        let pairs = stones & (stones >> shifts[i]);
        if pairs & (pairs >> (2 * shifts[i])) != 0 {
            return true;
        }
        i += 1;
    }
    false
}

/// A position: the stones of the player to move and of both players, and how many were played.
///
/// It also keeps both players' winning cells, which every expanded node needs (for its value
/// bounds and its moves) and which a move changes little: the opponent's stay as they were but for
/// the cell played, and only the mover's are computed anew, once per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    current: u64,
    mask: u64,
    /// Empty cells where the player to move would complete four.
    own_wins: u64,
    /// Empty cells where the other player would complete four.
    opponent_wins: u64,
    moves: u8,
    /// Whether the last move won (the game is over).
    won: bool,
}

impl Board {
    const EMPTY: Self = Self { current: 0, mask: 0, own_wins: 0, opponent_wins: 0, moves: 0, won: false };

    const fn can_play(self, column: u32) -> bool {
        self.mask & top(column) == 0
    }

    fn play(self, column: u32) -> Self {
        let cell = (self.mask + bottom(column)) & column_mask(column);
        let mover = self.current | cell;
        let mask = self.mask | cell;
        let board = Self {
            // The player to move next holds the stones the mover did not.
            current: self.current ^ self.mask,
            mask,
            own_wins: self.opponent_wins & !cell,
            opponent_wins: winning_cells(mover, mask),
            moves: self.moves + 1,
            // The move wins exactly when it fills one of the mover's winning cells.
            won: self.own_wins & cell != 0,
        };
        debug_assert_eq!(board.won, has_four(mover));
        debug_assert_eq!(board.own_wins, winning_cells(board.current, mask));
        board
    }

    const fn to_move(self) -> Player {
        if self.moves.is_multiple_of(2) { Player::Max } else { Player::Min }
    }

    const fn is_over(self) -> bool {
        self.won || self.moves == CELLS
    }
}

/// A column, 1 to 7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Column(u8);

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0 + 1)
    }
}

/// Columns in search order, centre first.
const ORDER: [u8; 7] = [3, 2, 4, 1, 5, 0, 6];

/// The bottom cell of every column.
const BOTTOM_MASK: u64 = {
    let mut mask = 0;
    let mut column = 0;
    while column < WIDTH {
        mask |= bottom(column);
        column += 1;
    }
    mask
};

/// Every cell of the board (no sentinels).
const BOARD_MASK: u64 = BOTTOM_MASK * ((1 << HEIGHT) - 1);

/// Every cell of `column`.
const fn column_mask(column: u32) -> u64 {
    ((1 << HEIGHT) - 1) << (column * (HEIGHT + 1))
}

/// The empty cells where `stones` would complete four in a row (Pons' `compute_winning_position`).
const fn winning_cells(stones: u64, mask: u64) -> u64 {
    // Vertical: three stacked stones win the cell above.
    let mut cells = (stones << 1) & (stones << 2) & (stones << 3);
    let shifts = [HEIGHT + 1, HEIGHT, HEIGHT + 2];
    let mut i = 0;
    while i < shifts.len() {
        let d = shifts[i];
        let pair = (stones << d) & (stones << (2 * d));
        cells |= pair & (stones << (3 * d));
        cells |= pair & (stones >> d);
        let pair = (stones >> d) & (stones >> (2 * d));
        cells |= pair & (stones << d);
        cells |= pair & (stones >> (3 * d));
        i += 1;
    }
    cells & (BOARD_MASK ^ mask)
}

/// How much Connect Four knowledge the move generator uses. The search is the same generic code
/// either way; only [`Game::moves`] differs, and both give every position its exact value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MoveGeneration {
    /// Every playable column, centre first.
    CentreFirst,
    /// Pons' knowledge: a winning move alone if there is one; else the moves that do not let the
    /// opponent win at once (the block of a single immediate threat, never a cell right below an
    /// opponent's winning cell), or every move if each of them loses; ordered by how many winning
    /// cells the move creates for the mover, centre first among equals.
    #[default]
    Threats,
}

/// The moves of a position, in search order.
#[derive(Clone, Debug)]
pub struct Columns {
    columns: [u8; 7],
    len: u8,
    next: u8,
}

impl Iterator for Columns {
    type Item = Column;

    fn next(&mut self) -> Option<Column> {
        (self.next < self.len).then(|| {
            self.next += 1;
            Column(self.columns[usize::from(self.next - 1)])
        })
    }
}

/// The cells that decide the next two stones of a position.
#[derive(Clone, Copy)]
struct Threats {
    /// The playable cells (one per column that is not full).
    possible: u64,
    /// Empty cells where the side to move would complete four.
    own: u64,
    /// Empty cells where the opponent would complete four.
    opponent: u64,
}

impl Threats {
    const fn can_win_now(self) -> bool {
        self.possible & self.own != 0
    }

    /// The playable cells after which the opponent cannot win at once (Pons'
    /// `possibleNonLosingMoves`): the one forced block if there is a single immediate threat, none
    /// if there are two, and never a cell right below an opponent's winning cell. Assumes the side
    /// to move cannot win now.
    const fn non_losing_moves(self) -> u64 {
        let forced = self.possible & self.opponent;
        let candidates = if forced == 0 {
            self.possible
        } else if forced & (forced - 1) != 0 {
            return 0;
        } else {
            forced
        };
        candidates & !(self.opponent >> 1)
    }
}

impl Board {
    /// The playable cells (one per column that is not full).
    const fn possible(self) -> u64 {
        (self.mask + BOTTOM_MASK) & BOARD_MASK
    }

    const fn threats(self) -> Threats {
        Threats { possible: self.possible(), own: self.own_wins, opponent: self.opponent_wins }
    }

    // ANCHOR: columns
    fn columns(self, generation: MoveGeneration) -> Columns {
        let mut moves = Columns { columns: [0; 7], len: 0, next: 0 };
        if self.is_over() {
            return moves;
        }
        let candidates = match generation {
            MoveGeneration::CentreFirst => self.possible(),
            MoveGeneration::Threats => {
                let threats = self.threats();
                let wins = threats.possible & threats.own;
                match threats.non_losing_moves() {
                    // Winning now is the best any move can do.
                    _ if wins != 0 => wins & wins.wrapping_neg(),
                    // Every move loses at once: search them all (the search proves the loss).
                    0 => threats.possible,
                    safe => safe,
                }
            }
        };
        // Centre first; with Pons' knowledge, most winning cells created first. An insertion sort
        // on that number, stable, keeps equals centre first; a lone move needs no score.
        let score_moves = generation == MoveGeneration::Threats && candidates.count_ones() > 1;
        let mut scores = [0u32; 7];
        for &column in &ORDER {
            let cell = candidates & column_mask(u32::from(column));
            if cell == 0 {
                continue;
            }
            let score = if score_moves {
                winning_cells(self.current | cell, self.mask | cell).count_ones()
            } else {
                0
            };
            let mut slot = usize::from(moves.len);
            while slot > 0 && scores[slot - 1] < score {
                scores[slot] = scores[slot - 1];
                moves.columns[slot] = moves.columns[slot - 1];
                slot -= 1;
            }
            scores[slot] = score;
            moves.columns[slot] = column;
            moves.len += 1;
        }
        moves
    }
    // ANCHOR_END: columns
}

/// Connect Four from a starting position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Connect4 {
    start: Board,
    generation: MoveGeneration,
}

impl Connect4 {
    /// The game after the columns in `moves` (digits 1-7) were played from the empty board.
    ///
    /// # Errors
    /// A character that is not a column 1-7, a move into a full column, or a move after a win.
    pub fn from_moves(moves: &str) -> Result<Self, PositionError> {
        let mut board = Board::EMPTY;
        for (index, found) in moves.chars().enumerate() {
            let error = |reason: &str| PositionError { index: index + 1, found, reason: reason.to_owned() };
            let column = found
                .to_digit(10)
                .filter(|d| (1..=WIDTH).contains(d))
                .ok_or_else(|| error("not a column 1-7"))?;
            if board.won {
                return Err(error("the game is already won"));
            }
            if !board.can_play(column - 1) {
                return Err(error("that column is full"));
            }
            board = board.play(column - 1);
        }
        Ok(Self { start: board, generation: MoveGeneration::default() })
    }

    /// The same game with another move generator.
    #[must_use]
    pub const fn with_generation(self, generation: MoveGeneration) -> Self {
        Self { generation, ..self }
    }

    /// The number of stones on the starting position's board.
    #[must_use]
    pub const fn stones(&self) -> u32 {
        self.start.moves as u32
    }
}

/// How many stones the board holds when a game ends with perfect play, for a position of `stones`
/// stones with Pons' `score` from the side to move: 42 for a draw, otherwise the winner's last stone,
/// its `22 - |score|`th, which is the board's `2s - 1`th for the first player and `2s`th for the
/// second. `None` when no such game exists: `score` outside `-21..=21`, or an end that does not come
/// after the next stone.
///
/// Pons rates his test sets by what remains after the next stone: fewer than 14 stones easy, 14 to
/// 27 medium, 28 or more hard.
///
/// ```
/// use nullwindow::games::connect4::stones_at_the_end;
///
/// assert_eq!(stones_at_the_end(0, 1), Some(41)); // the first player wins with its 21st stone
/// assert_eq!(stones_at_the_end(10, 0), Some(42));
/// assert_eq!(stones_at_the_end(10, -2), Some(40)); // the second player's 20th stone
/// assert_eq!(stones_at_the_end(10, 22), None);
/// ```
#[must_use]
pub fn stones_at_the_end(stones: u32, score: Value) -> Option<u32> {
    if score == 0 {
        return (stones < u32::from(CELLS)).then_some(u32::from(CELLS));
    }
    let winner_stones = 22u32.checked_sub(score.unsigned_abs()).filter(|&s| s >= 1)?;
    let side_to_move_is_first = stones.is_multiple_of(2);
    let winner_is_first = side_to_move_is_first == (score > 0);
    let end = if winner_is_first { 2 * winner_stones - 1 } else { 2 * winner_stones };
    (end > stones).then_some(end)
}

impl Game for Connect4 {
    type Position = Board;
    type Move = Column;
    type Moves = Columns;

    fn root(&self) -> Board {
        self.start
    }

    fn to_move(&self, position: &Board) -> Player {
        position.to_move()
    }

    fn moves(&self, position: &Board) -> Columns {
        position.columns(self.generation)
    }

    /// Every playable column, 1 to 7, whatever [`Game::moves`] prunes; none once the game is over.
    fn legal_moves(&self, position: &Board) -> Vec<Column> {
        if position.is_over() {
            return Vec::new();
        }
        (0..WIDTH as u8).filter(|&column| position.can_play(u32::from(column))).map(Column).collect()
    }

    fn play(&self, position: &Board, mv: Column) -> Board {
        position.play(u32::from(mv.0))
    }

    fn evaluate(&self, position: &Board) -> Value {
        if !position.won {
            return 0;
        }
        // The last mover won; each player has played half the stones, the first player the odd one.
        let score = 22 - Value::from(position.moves.div_ceil(2));
        match position.to_move() {
            Player::Min => score, // MAX moved last
            Player::Max => -score,
        }
    }

    fn key(&self, position: &Board) -> u64 {
        // Unique per position (Pons): the mask adds a 1 above each column's stones.
        position.current + position.mask
    }

    /// The key is the whole position.
    fn keys_identify_positions(&self) -> bool {
        true
    }

    fn is_terminal(&self, position: &Board) -> bool {
        position.is_over()
    }

    // ANCHOR: value_bounds
    /// What the next two stones decide, from the side to move, who has played `m` stones against the
    /// opponent's `o`: completing four now scores `22 − (m + 1)`, the best there is; with every move
    /// handing the opponent an immediate win, the score is `−(22 − (o + 1))` (needs depth 2 to see);
    /// otherwise the mover wins with stone `m + 2` at the earliest and, having a move that stops
    /// every immediate threat, loses with the opponent's stone `o + 2` at the latest. A draw or a
    /// depth cut-off (0) lies within every bound.
    fn value_bounds(&self, position: &Board, depth: u32) -> Option<(Value, Value)> {
        if position.is_over() {
            return None;
        }
        let mover_stones = Value::from(position.moves / 2);
        let opponent_stones = Value::from(position.moves.div_ceil(2));
        let threats = position.threats();
        if threats.can_win_now() {
            let win = 22 - (mover_stones + 1);
            return Some((win, win));
        }
        let safe = threats.non_losing_moves();
        let lose_next = -(22 - (opponent_stones + 1));
        if safe == 0 && depth >= 2 {
            return Some((lose_next, lose_next));
        }
        // The mover has at most 20 stones here (41 at most are played), so this is 0 or more.
        let upper = 22 - (mover_stones + 2);
        let lower = if safe == 0 { lose_next } else { (-(22 - (opponent_stones + 2))).min(0) };
        Some((lower, upper))
    }
    // ANCHOR_END: value_bounds

    fn depth_bound(&self, position: &Board) -> Option<u32> {
        Some(u32::from(CELLS - position.moves))
    }

    /// The threat-based order is kept: killer moves and the history heuristic, which know only the
    /// column, multiply the nodes searched on Pons' positions (measured with `nullwindow bench
    /// connect4`). Centre-first order is left to them.
    fn keeps_move_order(&self) -> bool {
        self.generation == MoveGeneration::Threats
    }

    fn history_slots(&self) -> usize {
        WIDTH as usize
    }

    fn history_slot(&self, _position: &Board, mv: Column) -> usize {
        usize::from(mv.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_positions_name_the_offending_move() {
        let cases = [
            ("448", 3, "not a column"),
            ("0", 1, "not a column"),
            ("4444444", 7, "full"),
            ("12121213", 8, "already won"),
        ];
        for (moves, index, reason) in cases {
            let error = Connect4::from_moves(moves).unwrap_err();
            assert_eq!(error.index, index, "{moves}: {error}");
            assert!(error.reason.contains(reason), "{moves}: {error}");
        }
    }

    #[test]
    fn value_bounds_near_a_full_board_hold_the_draw() {
        // A drawn game of 42 stones: the last stones cannot win, and no bound may exclude the draw
        // (a loss "with the opponent's stone after next" would be +1 when there is no such stone).
        let drawn = "132632257322275575135366177566763111444444";
        for stones in 36..42 {
            let game = Connect4::from_moves(&drawn[..stones]).unwrap();
            for depth in 1..=4 {
                let (lower, upper) = game.value_bounds(&game.root(), depth).unwrap();
                assert!(lower <= 0 && 0 <= upper, "{stones} stones, depth {depth}: {:?}", (lower, upper));
            }
        }
        let full = Connect4::from_moves(drawn).unwrap();
        assert_eq!(full.value_bounds(&full.root(), 1), None, "the game is over");
    }

    #[test]
    fn wins_in_every_direction_are_seen_and_scored() {
        let cases = [
            ("1213141", 18),     // vertical, first player, 4 stones
            ("1122334", 18),     // horizontal
            ("12234334644", 16), // diagonal up to the right, 6 stones
            ("76654554244", 16), // diagonal up to the left
            ("12123232", -18),   // vertical, second player
        ];
        for (moves, value) in cases {
            let game = Connect4::from_moves(moves).unwrap();
            assert!(game.is_terminal(&game.root()), "{moves}");
            assert_eq!(game.evaluate(&game.root()), value, "{moves}");
            let one_short = Connect4::from_moves(&moves[..moves.len() - 1]).unwrap();
            assert!(!one_short.is_terminal(&one_short.root()), "{moves}");
        }
    }
}
