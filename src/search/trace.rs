//! Tracing a search node by node, so that two engines' searches of one tree can be compared line by
//! line (`nullwindow trace`).
//!
//! A [`Tracer`] hears of every node the search enters (its ply and position) and of every node it
//! finishes, with a [`NodeTrace`]: the depth, the window it was called with, the result, what the
//! transposition table did, and whether a move cut the node off. Tracing is off unless a search is
//! started with [`Engine::search_traced`](super::Engine::search_traced), and the principal-variation
//! walk after an iteration is not traced.

use crate::game::Game;
use crate::value::{Bound, Value};

/// What the transposition table did at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "lowercase"))]
pub enum Probe {
    /// No probe: a leaf, or a node the game keeps out of the table
    /// ([`Game::uses_table`]).
    None,
    /// The game's own value bounds ([`Game::value_bounds`])
    /// decided the node before the table was probed.
    Bounds,
    /// No entry of this position.
    Miss,
    /// An entry was found but did not decide the window (its move or bounds were used).
    Hit,
    /// An entry of this depth decided the node: its value was returned without a search.
    Cutoff,
    /// Enhanced transposition cutoff: a child's entry refuted the window.
    Etc,
}

impl Probe {
    /// The name the trace prints: `none`, `miss`, `hit`, `cutoff`, `etc` or `bounds`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Miss => "miss",
            Self::Hit => "hit",
            Self::Cutoff => "cutoff",
            Self::Etc => "etc",
            Self::Bounds => "bounds",
        }
    }
}

/// One finished node. Values are from the side to move at the node (negamax form).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeTrace<M> {
    /// Plies from the root.
    pub ply: usize,
    /// The depth the node was searched to.
    pub depth: u32,
    /// The window's lower edge as the node was called (before any narrowing by the table).
    pub alpha: Value,
    /// The window's upper edge as called.
    pub beta: Value,
    /// What the node returned.
    pub result: Value,
    /// What the table did.
    pub probe: Probe,
    /// The bound the result was offered to the table as (the table keeps it unless a deeper entry
    /// of the current search holds the slot), or `None` if it was not: a leaf, or a node the table
    /// or the game's bounds answered.
    pub stored: Option<Bound>,
    /// The move whose value reached `beta`, if one did.
    pub cutoff: Option<M>,
}

/// Hears of every node a traced search enters and finishes.
pub trait Tracer<G: Game> {
    /// The search enters `position`, `ply` plies from the root (ply 0 starts each root pass), to
    /// search it `depth` plies deep with the window `(alpha, beta)` (from the side to move there).
    fn enter(&mut self, ply: usize, position: &G::Position, depth: u32, alpha: Value, beta: Value);
    /// The search finishes the node it entered last among those not yet finished.
    fn finish(&mut self, node: &NodeTrace<G::Move>);
}
