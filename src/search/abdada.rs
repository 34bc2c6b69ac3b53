//! Alpha-beta on threads that share out the work: the deferral of ABDADA (Jean-Christophe Weill,
//! "The ABDADA Distributed Minimax Search Algorithm", 1996) in its simplified form, which marks the
//! positions being searched in a small table of their own (Tom Kerrigan's "simplified ABDADA")
//! instead of in the transposition table.
//!
//! Every thread that reaches a node searches its eldest child at once (ABDADA's *droit d'aînesse*,
//! the eldest's right). A younger child that another thread is searching at this moment is
//! *deferred*: the thread goes on to the next child, and comes back to the deferred ones once it has
//! tried the rest. By then the other thread has usually finished, and the bound it left in the shared
//! table answers the child at once, or has already let this node cut off. Two threads that meet at a
//! node so split its children instead of searching them side by side. Only the younger children
//! are marked while searched: the eldest is everyone's.
//!
//! Deferring changes only the *order* in which a node's children are searched: every child is still
//! searched (or a cut-off makes the rest needless), with the same window rules, so the result is the
//! same fail-soft bound as [`alpha_beta`](super::alphabeta::alpha_beta)'s, whatever the other threads
//! do. Near the leaves (fewer than [`MIN_DEFER_DEPTH`] plies to go) nothing is marked or deferred: a
//! child there costs less than the marking.

use std::sync::atomic::{AtomicU64, Ordering};

use super::searcher::{Entered, Searcher, WindowSearch};
use crate::driver::observe::Observer;
use crate::game::Game;
use crate::value::{INFINITY, Value};

/// Children with fewer plies to go than this are searched in order, without marking.
pub const MIN_DEFER_DEPTH: u32 = 1;

/// Only a node's first children, in search order, may be deferred: a later one is searched when its
/// turn comes. (The list of deferred children lives on the stack.)
pub const MAX_DEFERRED: usize = 64;

/// The positions the threads of a parallel search are searching at this moment, by key: a small table
/// of atomics, one key a slot, overwritten freely. It only steers the order in which a thread searches
/// a node's children: a lost or a stale mark costs time, never a value.
#[derive(Debug)]
pub struct BusyPositions {
    slots: Box<[AtomicU64]>,
}

impl Default for BusyPositions {
    fn default() -> Self {
        Self::new()
    }
}

impl BusyPositions {
    /// 2^14 slots (128 KiB): as many positions as the threads can be searching above
    /// [`MIN_DEFER_DEPTH`], many times over.
    const SLOTS: usize = 1 << 14;

    /// An empty table: no position is being searched.
    #[must_use]
    pub fn new() -> Self {
        Self { slots: (0..Self::SLOTS).map(|_| AtomicU64::new(0)).collect() }
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        // Fibonacci hashing: the top bits of the key times 2^64 / φ, so that keys which differ only
        // in a few bits (a tree's node numbers) still spread over the slots.
        let mixed = key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - Self::SLOTS.trailing_zeros());
        &self.slots[usize::try_from(mixed).unwrap_or(0)]
    }

    /// Whether some thread has marked the position `key` as being searched. (Key 0 marks an empty
    /// slot: a position with that key is never seen as busy.)
    #[must_use]
    #[inline]
    pub fn is_busy(&self, key: u64) -> bool {
        key != 0 && self.slot(key).load(Ordering::Relaxed) == key
    }

    /// Marks the position `key` as being searched.
    #[inline]
    pub fn claim(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    /// Unmarks the position `key`. The slot is cleared without being read: should another position
    /// have taken it since, that mark goes too, which costs time only. Reading the slot first (a
    /// compare-and-swap) waited for a cache line that the search of the position had usually pushed
    /// out, at every child of every node: 4% of a two-thread Connect Four search's time.
    #[inline]
    pub fn release(&self, key: u64) {
        self.slot(key).store(0, Ordering::Relaxed);
    }
}

/// Alpha-beta that defers the children other threads are searching, as a [`WindowSearch`] a
/// driver searches the root with: how a search on threads shares out each node's children.
#[derive(Clone, Copy, Debug)]
pub struct Deferring<'b>(pub &'b BusyPositions);

impl<G: Game, O: Observer<G>> WindowSearch<G, O> for Deferring<'_> {
    fn search(
        &self,
        searcher: &mut Searcher<'_, G, O>,
        position: &G::Position,
        depth: u32,
        alpha: Value,
        beta: Value,
        ply: usize,
    ) -> Value {
        alpha_beta_deferring(searcher, self.0, position, depth, alpha, beta, ply)
    }
}

/// The two rounds over a node's children: all of them in order, deferring the busy ones; then the
/// deferred ones.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Round {
    First,
    Deferred,
}

// ANCHOR: alpha_beta_deferring
/// [`alpha_beta`](super::alphabeta::alpha_beta), with the children that other threads are searching
/// deferred to the end (see the [module documentation](self)). Same arguments, same fail-soft
/// contract, for `v` the exact depth-`depth` value and `g` the result:
/// * `g <= alpha` ⇒ `v <= g` (fail low: an upper bound);
/// * `g >= beta` ⇒ `v >= g` (fail high: a lower bound);
/// * otherwise `g == v`.
///
/// The first [`MAX_DEFERRED`] children of a node may be deferred; later ones are searched in order.
///
/// # Panics
/// In debug builds, when the window is empty (`alpha >= beta`).
pub fn alpha_beta_deferring<G: Game, O: Observer<G>>(
    searcher: &mut Searcher<'_, G, O>,
    busy: &BusyPositions,
    position: &G::Position,
    depth: u32,
    alpha: Value,
    beta: Value,
    ply: usize,
) -> Value {
    debug_assert!(alpha < beta, "alpha_beta_deferring needs a non-empty window, got ({alpha}, {beta})");
    let node = match searcher.enter(position, depth, alpha, beta, ply) {
        Entered::Done(value) => return value,
        Entered::Expand(node) => node,
    };
    let mut g = -INFINITY;
    let mut best = None;
    let mut a = node.alpha;
    // The children deferred in the first round, in the order they came. The list is made at the
    // first deferral: most nodes defer nothing, and would otherwise fill it at every entry.
    let mut deferred: Option<[Option<G::Move>; MAX_DEFERRED]> = None;
    let mut deferred_count = 0;
    // The children have `depth - 1` plies to go.
    let marks = depth > MIN_DEFER_DEPTH;
    'rounds: for round in [Round::First, Round::Deferred] {
        for index in 0.. {
            let next = match round {
                Round::First => searcher.next_move(&node),
                Round::Deferred => {
                    deferred.as_ref().and_then(|list| list[..deferred_count].get(index).copied().flatten())
                }
            };
            let Some(mv) = next else { break };
            let child = searcher.game.play(position, mv);
            // The eldest child is neither marked nor deferred: every thread that reaches the node
            // searches it, so a mark would tell the others nothing here. (It would help only a
            // thread that reaches the same position along another path: too rare to pay for a
            // mark at every node that cuts off at its first child.)
            let younger = round == Round::Deferred || index > 0;
            let key = (marks && younger).then(|| searcher.game.key(&child));
            if let Some(key) = key {
                if round == Round::First && index < MAX_DEFERRED && busy.is_busy(key) {
                    deferred.get_or_insert([None; MAX_DEFERRED])[deferred_count] = Some(mv);
                    deferred_count += 1;
                    continue;
                }
                busy.claim(key);
            }
            let value = -alpha_beta_deferring(searcher, busy, &child, depth - 1, -node.beta, -a, ply + 1);
            if let Some(key) = key {
                busy.release(key);
            }
            if value > g {
                g = value;
                best = Some(mv);
            }
            a = a.max(g);
            if g >= node.beta {
                break 'rounds;
            }
        }
        if deferred_count == 0 {
            break;
        }
    }
    searcher.leave(node, position, ply, g, best)
}
// ANCHOR_END: alpha_beta_deferring

#[cfg(test)]
mod tests {
    use super::BusyPositions;

    #[test]
    fn a_claimed_position_is_busy_until_released() {
        let busy = BusyPositions::new();
        let keys = [1, 42, u64::MAX, 0x9E37_79B9_7F4A_7C15];
        assert!(keys.iter().all(|&key| !busy.is_busy(key)), "a new table marks nothing");
        for key in keys {
            busy.claim(key);
            assert!(busy.is_busy(key), "{key} was just claimed");
        }
        for key in keys {
            busy.release(key);
            assert!(!busy.is_busy(key), "{key} was just released");
        }
    }

    #[test]
    fn key_zero_is_never_busy() {
        let busy = BusyPositions::new();
        busy.claim(0);
        assert!(!busy.is_busy(0), "0 marks an empty slot");
    }
}
