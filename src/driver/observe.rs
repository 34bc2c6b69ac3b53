//! One way to watch a search: the node events every driver emits, heard by one [`Observer`].
//!
//! A search is a walk of the game tree. Whatever the driver (plain minimax, a literal translation of
//! a published listing, Stockman's SSS* with its OPEN list, the engine on one thread or several), an
//! observer hears the same three things:
//!
//! * [`Observer::entered`]: a node is entered, with the depth and the window it is searched with
//!   ([`NodeEntered`]);
//! * [`Observer::evaluated`]: a position is evaluated (a leaf: terminal, or where the depth ran out);
//! * [`Observer::returned`]: a node returns its result, with what the transposition table did, the
//!   bound stored, and the move that cut it off, where the driver has such things ([`NodeReturned`]).
//!
//! Events nest: a node's children are entered and return between its own `entered` and `returned`,
//! and [`NodeEntered::ply`] counts the calls between the node and the root call of its pass (0 for a
//! root call: an MTD pass, an iteration, a re-search). Stockman's drivers make no calls: they report
//! each node when it is *solved*, with no `entered` event, and give the moves that lead to it from
//! the root ([`NodeReturned::moves`]) instead.
//!
//! Values are read from the side [`NodeEntered::perspective`] names: MAX's side for a driver in
//! minimax form, the side to move at the node for one in negamax form. [`Perspective::turn`] reads
//! them from MAX's side; [`crate::oracle::record`] does so for every record it writes.
//!
//! An observer that is off costs nothing: the engine is generic over its observer, and the silent
//! one, [`Silent`], compiles to no code at all.
//!
//! ```
//! use nullwindow::driver::observe::{NodeReturned, Observer};
//! use nullwindow::registry::Driver;
//! use nullwindow::tree::{NodeId, Tree};
//! use nullwindow::SearchParams;
//!
//! /// Counts the nodes that failed high.
//! #[derive(Default)]
//! struct FailHighs(usize);
//!
//! impl Observer<Tree> for FailHighs {
//!     fn returned(&mut self, node: &NodeReturned<'_, NodeId, u32>) {
//!         if node.result >= node.node.beta {
//!             self.0 += 1;
//!         }
//!     }
//! }
//!
//! let tree: Tree = "((3 17) (2 12) (15 (25 0)))".parse()?;
//! let mut fail_highs = FailHighs::default();
//! let outcome = Driver::Mtdf.run_observed(&tree, &SearchParams::default(), &mut fail_highs);
//! assert_eq!(outcome.value, 15);
//! assert!(fail_highs.0 > 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::game::{Game, Player};
use crate::value::{Bound, Value};

/// Whose side the values of an event are read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Perspective {
    /// Minimax form: from MAX's side.
    Max,
    /// Negamax form: from the side to move at the node.
    Mover,
}

impl Perspective {
    /// A window and a result (in that order) read from this perspective at a node where `player`
    /// moves, read from MAX's side instead: MIN's window `(a, b)` is MAX's `(-b, -a)`. Saturating,
    /// so that no value, however wrong, overflows.
    #[must_use]
    pub const fn turn(
        self,
        player: Player,
        (alpha, beta, result): (Value, Value, Value),
    ) -> (Value, Value, Value) {
        match (self, player) {
            (Self::Max, _) | (Self::Mover, Player::Max) => (alpha, beta, result),
            (Self::Mover, Player::Min) => {
                (beta.saturating_neg(), alpha.saturating_neg(), result.saturating_neg())
            }
        }
    }

    /// A stored bound read from this perspective at a node where `player` moves, from MAX's side.
    #[must_use]
    pub const fn turn_bound(self, player: Player, bound: Bound) -> Bound {
        match (self, player) {
            (Self::Max, _) | (Self::Mover, Player::Max) => bound,
            (Self::Mover, Player::Min) => bound.flipped(),
        }
    }
}

/// What the engine's transposition table (or the game's own value bounds) did at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "lowercase"))]
pub enum Probe {
    /// No probe: a leaf, or a node kept out of the table (shallower than
    /// [`SearchParams::table_min_depth`](crate::driver::SearchParams::table_min_depth), or one the
    /// game keeps out: [`Game::uses_table`]).
    None,
    /// The game's own value bounds ([`Game::value_bounds`]) decided the node before the table was
    /// probed.
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
    /// The name records print: `none`, `miss`, `hit`, `cutoff`, `etc` or `bounds`.
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

/// A node entered: which, how deep and with which window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeEntered<'e, P> {
    /// Calls between this one and the root call of its pass (0: a root call).
    pub ply: usize,
    /// The position searched.
    pub position: &'e P,
    /// The plies it is searched to.
    pub depth: u32,
    /// The window's lower edge as the node was called (before any narrowing by a table).
    pub alpha: Value,
    /// The window's upper edge as called.
    pub beta: Value,
    /// How to read `alpha` and `beta` (and the result when the node returns).
    pub perspective: Perspective,
}

/// A node returned: the node as it was entered, and what it answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeReturned<'e, P, M> {
    /// The node, its depth and its window as it was entered.
    pub node: NodeEntered<'e, P>,
    /// What it returned.
    pub result: Value,
    /// What the engine's table did; `None` for drivers without the engine's table.
    pub probe: Option<Probe>,
    /// The bound the result was offered to the table as, if it was (the engine's drivers).
    pub stored: Option<Bound>,
    /// The move whose value reached `beta`, if one did (the engine's drivers).
    pub cutoff: Option<M>,
    /// The moves from the search's root to the node, given by drivers whose events do not nest
    /// (Stockman's, which solve nodes without calls); `None` where the `entered` events tell the
    /// route.
    pub moves: Option<&'e [M]>,
}

impl<P, M> NodeReturned<'_, P, M> {
    /// The result and window from MAX's side, at a node where `player` moves: `(alpha, beta, result)`.
    #[must_use]
    pub const fn for_max(&self, player: Player) -> (Value, Value, Value) {
        self.node.perspective.turn(player, (self.node.alpha, self.node.beta, self.result))
    }
}

/// Hears a search node by node. Every method does nothing unless implemented, so an observer
/// implements only what it needs. See the [module documentation](self).
pub trait Observer<G: Game + ?Sized> {
    /// A node is entered.
    fn entered(&mut self, node: &NodeEntered<'_, G::Position>) {
        let _ = node;
    }

    /// `position` is evaluated, as a leaf (a position evaluated twice is heard twice).
    fn evaluated(&mut self, position: &G::Position) {
        let _ = position;
    }

    /// A node returns.
    fn returned(&mut self, node: &NodeReturned<'_, G::Position, G::Move>) {
        let _ = node;
    }
}

/// The observer that hears nothing: a search observed by it compiles as if unobserved.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl<G: Game + ?Sized> Observer<G> for Silent {}

impl<G: Game + ?Sized, O: Observer<G> + ?Sized> Observer<G> for &mut O {
    fn entered(&mut self, node: &NodeEntered<'_, G::Position>) {
        (**self).entered(node);
    }

    fn evaluated(&mut self, position: &G::Position) {
        (**self).evaluated(position);
    }

    fn returned(&mut self, node: &NodeReturned<'_, G::Position, G::Move>) {
        (**self).returned(node);
    }
}

/// Two observers hear the same search, the first before the second.
impl<G: Game + ?Sized, A: Observer<G>, B: Observer<G>> Observer<G> for (A, B) {
    fn entered(&mut self, node: &NodeEntered<'_, G::Position>) {
        self.0.entered(node);
        self.1.entered(node);
    }

    fn evaluated(&mut self, position: &G::Position) {
        self.0.evaluated(position);
        self.1.evaluated(position);
    }

    fn returned(&mut self, node: &NodeReturned<'_, G::Position, G::Move>) {
        self.0.returned(node);
        self.1.returned(node);
    }
}

/// An optional observer is one that may be silent.
impl<G: Game + ?Sized, O: Observer<G>> Observer<G> for Option<O> {
    fn entered(&mut self, node: &NodeEntered<'_, G::Position>) {
        if let Some(observer) = self {
            observer.entered(node);
        }
    }

    fn evaluated(&mut self, position: &G::Position) {
        if let Some(observer) = self {
            observer.evaluated(position);
        }
    }

    fn returned(&mut self, node: &NodeReturned<'_, G::Position, G::Move>) {
        if let Some(observer) = self {
            observer.returned(node);
        }
    }
}

/// One returned node, owned: what [`Calls`] hands on, and what the tests of the literal
/// translations check the fail-soft postcondition on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call<P> {
    /// The position searched.
    pub position: P,
    /// The depth it was searched to.
    pub depth: u32,
    /// The window's lower edge as passed in (before any narrowing by the table).
    pub alpha: Value,
    /// The window's upper edge as passed in.
    pub beta: Value,
    /// What the call returned.
    pub result: Value,
    /// How to read `alpha`, `beta` and `result`.
    pub perspective: Perspective,
}

impl<P: Clone, M> From<&NodeReturned<'_, P, M>> for Call<P> {
    fn from(node: &NodeReturned<'_, P, M>) -> Self {
        Self {
            position: node.node.position.clone(),
            depth: node.node.depth,
            alpha: node.node.alpha,
            beta: node.node.beta,
            result: node.result,
            perspective: node.node.perspective,
        }
    }
}

/// An observer that hands every returned node to a closure, as a [`Call`].
pub struct Calls<F>(pub F);

impl<G: Game + ?Sized, F: FnMut(&Call<G::Position>)> Observer<G> for Calls<F> {
    fn returned(&mut self, node: &NodeReturned<'_, G::Position, G::Move>) {
        (self.0)(&Call::from(node));
    }
}

/// An observer that keeps every evaluated position, in order: what the leaf-order theorems compare.
#[derive(Clone, Debug)]
pub struct Leaves<P>(pub Vec<P>);

impl<P> Default for Leaves<P> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<G: Game + ?Sized> Observer<G> for Leaves<G::Position> {
    fn evaluated(&mut self, position: &G::Position) {
        self.0.push(position.clone());
    }
}
