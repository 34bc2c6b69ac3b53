//! The transposition table of the listings: for each node, a lower and an upper bound.
//!
//! The listings write `retrieve(n)`, `n.lowerbound` and `store n.upperbound` (Plaat) or
//! `table.GetLowerBound(node)` and `table.StoreUpperBound(node, g)` (Wikipedia ja): a table with
//! unlimited room that maps a node to the two bounds found for it so far. None of them records the
//! depth a bound was found at, so a bound found by a shallow search answers a deeper one: at a
//! position reached at two depths (a transposition) or in the next iteration of iterative deepening.
//! [`Memory::keyed_by_node`] is that table as printed; [`Memory::keyed_by_node_and_depth`] is the
//! smallest correction, a table whose key is the node *and* the remaining depth, so that a bound only
//! answers a search of the depth it was found at.

use std::collections::HashMap;

use crate::value::{INFINITY, Value};

/// The two bounds a table keeps for a node: the node's value lies in `lowerbound..=upperbound`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// A value the node is known to reach at least (`-INFINITY`: nothing known).
    pub lowerbound: Value,
    /// A value the node is known not to exceed (`+INFINITY`: nothing known).
    pub upperbound: Value,
}

impl Bounds {
    /// Nothing known: `-INFINITY..=+INFINITY`.
    pub const UNKNOWN: Self = Self { lowerbound: -INFINITY, upperbound: INFINITY };
}

/// An unbounded table from nodes (by [`Game::key`](crate::game::Game::key)) to [`Bounds`].
#[derive(Clone, Debug, Default)]
pub struct Memory {
    entries: HashMap<(u64, u32), Bounds>,
    keyed_by_depth: bool,
}

impl Memory {
    /// The table as the listings print it: one entry per node, whatever depth it was searched to.
    #[must_use]
    pub fn keyed_by_node() -> Self {
        Self { entries: HashMap::new(), keyed_by_depth: false }
    }

    /// The corrected table: one entry per node and remaining depth.
    #[must_use]
    pub fn keyed_by_node_and_depth() -> Self {
        Self { entries: HashMap::new(), keyed_by_depth: true }
    }

    const fn slot(&self, key: u64, depth: u32) -> (u64, u32) {
        (key, if self.keyed_by_depth { depth } else { 0 })
    }

    /// The bounds stored for a node searched to `depth`, if any (`retrieve(n) == OK`).
    #[must_use]
    pub fn retrieve(&self, key: u64, depth: u32) -> Option<Bounds> {
        self.entries.get(&self.slot(key, depth)).copied()
    }

    /// Stores both bounds of a node.
    pub fn store(&mut self, key: u64, depth: u32, bounds: Bounds) {
        let slot = self.slot(key, depth);
        self.entries.insert(slot, bounds);
    }

    /// Stores a lower bound and keeps the upper bound already there.
    pub fn store_lower_bound(&mut self, key: u64, depth: u32, lowerbound: Value) {
        let slot = self.slot(key, depth);
        self.entries.entry(slot).or_insert(Bounds::UNKNOWN).lowerbound = lowerbound;
    }

    /// Stores an upper bound and keeps the lower bound already there.
    pub fn store_upper_bound(&mut self, key: u64, depth: u32, upperbound: Value) {
        let slot = self.slot(key, depth);
        self.entries.entry(slot).or_insert(Bounds::UNKNOWN).upperbound = upperbound;
    }
}
