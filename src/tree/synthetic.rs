//! Implicit synthetic trees: uniform trees defined by `(seed, width, depth, model)` whose nodes are
//! computed when a search reaches them and never stored, so a tree of 10⁹ nodes costs no memory.
//!
//! A position is a small `Copy` value (a 64-bit key, the ply, a value and, with transpositions, the
//! moves made); children, evaluations and move order are pure functions of it, drawn from a fixed
//! 64-bit mixing function, so the same configuration gives the same tree on every platform.
//!
//! # Models
//!
//! * [`Model::Independent`]: leaf values are independent and uniform in `-spread..=spread`; interior
//!   evaluations are 0 and predict nothing, and the move order is random. The classic random-tree
//!   model of the simulation literature.
//! * [`Model::Incremental`]: every edge adds a delta to its parent's value, so interior evaluations
//!   predict the leaves as in real games, which makes iterative deepening and first guesses
//!   meaningful. Without transpositions the tree is built *top-down*: each node has a value, one
//!   child (the best) inherits it, and every other child is worse by a delta in `0..=spread`
//!   (lower at a MAX node, higher at a MIN node). So every node's minimax value is its own value,
//!   known without a search ([`SyntheticTree::known_value`]), and [`SyntheticConfig::ordering`] is
//!   exactly the probability that the best child comes first. An interior node's evaluation is its
//!   value plus noise in `-spread/2..=spread/2`.
//!
//! # Transpositions
//!
//! With [`SyntheticConfig::transpositions`], a move is chosen from its player's pool of
//! `width + ⌈depth/2⌉` moves, each usable once, and the position is the *set* of moves each player
//! has made: `a … b` and `b … a` reach the same position by different orders, as in real games. The
//! key is the XOR of one random word per move made, so it does not depend on the order. In the
//! incremental model each move has a fixed delta in `-spread..=spread` and a position's value (and
//! evaluation) is the sum of the deltas of the moves made; in the independent model a leaf's value is
//! drawn from its key. Each node offers the first `width` unused moves of its player's pool; with
//! probability `ordering` they are sorted best delta first for the player to move. Minimax values are
//! then not known in advance.
//!
//! ```
//! use nullwindow::game::Game;
//! use nullwindow::reference::minimax;
//! use nullwindow::tree::synthetic::{Model, SyntheticConfig, SyntheticTree};
//!
//! let config = SyntheticConfig { seed: 1, width: 3, depth: 4, model: Model::Incremental, ..Default::default() };
//! let tree = SyntheticTree::new(config)?;
//! let exact = minimax::search(&tree, &tree.root(), u32::MAX).value;
//! assert_eq!(Some(exact), tree.known_value());
//! # Ok::<(), nullwindow::tree::synthetic::SyntheticError>(())
//! ```

use std::fmt;

use crate::game::{Game, Player};
use crate::value::{MAX_LEAF, Value};

/// How a synthetic tree's values are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Model {
    /// Independent uniform leaf values; interior evaluations 0.
    Independent,
    /// Each edge adds a delta to its parent's value; interior evaluations predict the leaves.
    Incremental,
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Independent => "independent",
            Self::Incremental => "incremental",
        })
    }
}

/// The widest synthetic tree (a node's moves live in a fixed array, and a player's pool in 64 bits).
pub const MAX_WIDTH: u32 = 48;

/// The deepest synthetic tree.
pub const MAX_DEPTH: u32 = 32;

/// What synthetic tree to search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SyntheticConfig {
    /// The seed: the same seed and configuration give the same tree everywhere.
    pub seed: u64,
    /// Children of every interior node, 1 to [`MAX_WIDTH`].
    pub width: u32,
    /// The depth of every leaf, 0 to [`MAX_DEPTH`].
    pub depth: u32,
    /// How values are made.
    pub model: Model,
    /// In the incremental model, the probability that the best child comes first (without
    /// transpositions) or that moves are sorted best delta first (with them). Independent trees are
    /// randomly ordered whatever this says.
    pub ordering: f64,
    /// Whether positions can be reached by several move orders.
    pub transpositions: bool,
    /// The size of the value steps: leaf values (independent) or deltas (incremental) lie in
    /// `-spread..=spread`.
    pub spread: Value,
}

impl Default for SyntheticConfig {
    /// Seed 0, width 8, depth 8, incremental, ordering 0.9, no transpositions, spread 100.
    fn default() -> Self {
        Self {
            seed: 0,
            width: 8,
            depth: 8,
            model: Model::Incremental,
            ordering: 0.9,
            transpositions: false,
            spread: 100,
        }
    }
}

/// Why a [`SyntheticConfig`] cannot make a tree.
#[derive(Clone, Debug, PartialEq)]
pub enum SyntheticError {
    /// A width outside `1..=MAX_WIDTH`.
    Width(u32),
    /// A depth above [`MAX_DEPTH`].
    Depth(u32),
    /// An ordering probability outside `0..=1`.
    Ordering(f64),
    /// A negative spread, or one so large that values could leave the admissible range.
    Spread(Value),
}

impl fmt::Display for SyntheticError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Width(width) => write!(f, "width {width} is outside 1..={MAX_WIDTH}"),
            Self::Depth(depth) => write!(f, "depth {depth} is above the maximum of {MAX_DEPTH}"),
            Self::Ordering(p) => write!(f, "the ordering probability {p} is not between 0 and 1"),
            Self::Spread(spread) => write!(
                f,
                "spread {spread} must be at least 0 and small enough that (depth + 2) x spread stays \
                 within {MAX_LEAF}"
            ),
        }
    }
}

impl std::error::Error for SyntheticError {}

/// A node of a synthetic tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SyntheticPosition {
    key: u64,
    ply: u32,
    value: Value,
    /// With transpositions: the pool moves each player has made (MAX, MIN).
    used: [u64; 2],
}

impl SyntheticPosition {
    /// Plies from the root.
    #[must_use]
    pub const fn ply(&self) -> u32 {
        self.ply
    }
}

/// The moves of a synthetic node, in search order.
#[derive(Clone, Debug)]
pub struct SyntheticMoves {
    moves: [u8; MAX_WIDTH as usize],
    len: u8,
    next: u8,
}

impl Iterator for SyntheticMoves {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        (self.next < self.len).then(|| {
            self.next += 1;
            u32::from(self.moves[usize::from(self.next - 1)])
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = usize::from(self.len - self.next);
        (left, Some(left))
    }
}

/// A synthetic tree: a [`Game`] whose nodes are computed on demand.
#[derive(Clone, Debug)]
pub struct SyntheticTree {
    config: SyntheticConfig,
    root: SyntheticPosition,
}

/// SplitMix64's finaliser: a bijective mix of 64 bits, the source of every random choice.
const fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Salts that separate the random choices made from one key.
const SALT_BEST: u64 = 0x5EED_0001;
const SALT_CHILD: u64 = 0x5EED_0002;
const SALT_NOISE: u64 = 0x5EED_0003;
const SALT_LEAF: u64 = 0x5EED_0004;
const SALT_ORDER: u64 = 0x5EED_0005;
const SALT_MOVE: u64 = 0x5EED_0006;

/// A uniform draw from `0..n` (`n >= 1`), by the multiply-shift method: no modulo bias worth
/// speaking of, and the same on every platform.
const fn below(word: u64, n: u64) -> u64 {
    ((word as u128 * n as u128) >> 64) as u64
}

/// A uniform draw from `-spread..=spread`.
const fn signed(word: u64, spread: Value) -> Value {
    below(word, 2 * spread as u64 + 1) as Value - spread
}

/// A uniform draw from `[0, 1)`.
fn unit(word: u64) -> f64 {
    (word >> 11) as f64 / (1u64 << 53) as f64
}

impl SyntheticTree {
    /// The tree `config` describes.
    ///
    /// # Errors
    /// A width, depth, ordering or spread out of range.
    pub fn new(config: SyntheticConfig) -> Result<Self, SyntheticError> {
        if config.width == 0 || config.width > MAX_WIDTH {
            return Err(SyntheticError::Width(config.width));
        }
        if config.depth > MAX_DEPTH {
            return Err(SyntheticError::Depth(config.depth));
        }
        if !(0.0..=1.0).contains(&config.ordering) {
            return Err(SyntheticError::Ordering(config.ordering));
        }
        // The largest value is at most (depth + 2) spreads from 0 (the root's value, one delta
        // per ply and the noise of an interior evaluation, or a sum of at most `depth` deltas).
        let worst = i64::from(config.spread) * i64::from(config.depth + 2);
        if config.spread < 0 || worst > i64::from(MAX_LEAF) {
            return Err(SyntheticError::Spread(config.spread));
        }
        let key = mix(config.seed ^ 0x6E75_6C6C_7769_6E64);
        let value = match (config.model, config.transpositions) {
            (Model::Incremental, false) => signed(mix(key), config.spread),
            _ => 0,
        };
        Ok(Self { config, root: SyntheticPosition { key, ply: 0, value, used: [0; 2] } })
    }

    /// The configuration.
    #[must_use]
    pub const fn config(&self) -> &SyntheticConfig {
        &self.config
    }

    /// The root's exact minimax value when the model fixes it in advance (incremental, no
    /// transpositions); `None` otherwise.
    #[must_use]
    pub const fn known_value(&self) -> Option<Value> {
        match (self.config.model, self.config.transpositions) {
            (Model::Incremental, false) => Some(self.root.value),
            _ => None,
        }
    }

    /// Nodes in the tree, `1 + w + … + w^d` (saturating).
    #[must_use]
    pub fn node_count(&self) -> u64 {
        let width = u64::from(self.config.width);
        (0..=self.config.depth).fold(0u64, |sum, ply| sum.saturating_add(width.saturating_pow(ply)))
    }

    /// Which child of a top-down node is its best.
    fn best_child(&self, position: &SyntheticPosition) -> u32 {
        let width = self.config.width;
        let word = mix(position.key ^ SALT_BEST);
        if width == 1 || unit(word) < self.config.ordering {
            0
        } else {
            1 + below(mix(word), u64::from(width - 1)) as u32
        }
    }

    /// A pool move's fixed delta (transposition model).
    fn move_delta(&self, player: Player, mv: u32) -> Value {
        let player_salt = if player == Player::Max { 0 } else { 1 << 32 };
        signed(mix(self.config.seed ^ SALT_MOVE ^ player_salt ^ u64::from(mv)), self.config.spread)
    }

    /// A pool move's key word (transposition model).
    fn move_key(&self, player: Player, mv: u32) -> u64 {
        let player_salt = if player == Player::Max { 0 } else { 1 << 32 };
        mix(self.config.seed ^ SALT_CHILD ^ player_salt ^ u64::from(mv))
    }
}

impl Game for SyntheticTree {
    type Position = SyntheticPosition;
    type Move = u32;
    type Moves = SyntheticMoves;

    fn root(&self) -> SyntheticPosition {
        self.root
    }

    fn to_move(&self, position: &SyntheticPosition) -> Player {
        if position.ply.is_multiple_of(2) { Player::Max } else { Player::Min }
    }

    fn moves(&self, position: &SyntheticPosition) -> SyntheticMoves {
        let mut moves = SyntheticMoves { moves: [0; MAX_WIDTH as usize], len: 0, next: 0 };
        if position.ply >= self.config.depth {
            return moves;
        }
        let width = self.config.width as usize;
        if !self.config.transpositions {
            for (index, slot) in moves.moves[..width].iter_mut().enumerate() {
                *slot = index as u8;
            }
            moves.len = width as u8;
            return moves;
        }
        let player = self.to_move(position);
        let used = position.used[usize::from(player == Player::Min)];
        let mut mv = 0u32;
        while usize::from(moves.len) < width {
            if used & (1 << mv) == 0 {
                moves.moves[usize::from(moves.len)] = mv as u8;
                moves.len += 1;
            }
            mv += 1;
        }
        if self.config.model == Model::Incremental
            && unit(mix(position.key ^ SALT_ORDER)) < self.config.ordering
        {
            let sign = if player == Player::Max { -1 } else { 1 };
            moves.moves[..width].sort_by_key(|&mv| sign * self.move_delta(player, u32::from(mv)));
        }
        moves
    }

    fn play(&self, position: &SyntheticPosition, mv: u32) -> SyntheticPosition {
        let player = self.to_move(position);
        if self.config.transpositions {
            let mut used = position.used;
            used[usize::from(player == Player::Min)] |= 1 << mv;
            let value = match self.config.model {
                Model::Incremental => position.value + self.move_delta(player, mv),
                Model::Independent => 0,
            };
            return SyntheticPosition {
                key: position.key ^ self.move_key(player, mv),
                ply: position.ply + 1,
                value,
                used,
            };
        }
        let key = mix(position.key ^ SALT_CHILD ^ u64::from(mv).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let value = match self.config.model {
            Model::Independent => 0,
            Model::Incremental if mv == self.best_child(position) => position.value,
            Model::Incremental => {
                let delta = below(mix(key ^ SALT_BEST), self.config.spread as u64 + 1) as Value;
                match player {
                    Player::Max => position.value - delta,
                    Player::Min => position.value + delta,
                }
            }
        };
        SyntheticPosition { key, ply: position.ply + 1, value, used: position.used }
    }

    fn evaluate(&self, position: &SyntheticPosition) -> Value {
        let leaf = position.ply >= self.config.depth;
        match (self.config.model, self.config.transpositions) {
            (Model::Independent, _) if leaf => signed(mix(position.key ^ SALT_LEAF), self.config.spread),
            (Model::Independent, _) => 0,
            (Model::Incremental, true) => position.value,
            (Model::Incremental, false) if leaf => position.value,
            (Model::Incremental, false) => {
                position.value + signed(mix(position.key ^ SALT_NOISE), self.config.spread / 2)
            }
        }
    }

    fn key(&self, position: &SyntheticPosition) -> u64 {
        position.key
    }

    fn is_terminal(&self, position: &SyntheticPosition) -> bool {
        position.ply >= self.config.depth
    }

    fn depth_bound(&self, position: &SyntheticPosition) -> Option<u32> {
        Some(self.config.depth.saturating_sub(position.ply))
    }

    fn history_slots(&self) -> usize {
        (self.config.width + self.config.depth.div_ceil(2)) as usize
    }

    fn history_slot(&self, _position: &SyntheticPosition, mv: u32) -> usize {
        mv as usize
    }
}
