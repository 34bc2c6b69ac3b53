//! The transposition table: bounds found for positions, kept across passes and iterations.
//!
//! A fixed number of entries (rounded down to a power of two, at least one, at most
//! [`MAX_ENTRIES`]), allocated once when the table is made; nothing is allocated while searching.
//! The table never takes more memory than was asked for: [`TranspositionTable::bytes_for`] says how
//! much that is. Each entry holds the position's full key,
//! which a probe verifies, so two positions that share a slot are never confused.
//!
//! # What an entry means
//!
//! An entry records, for one position searched `depth` plies deep, a lower and an upper bound on its
//! depth-`depth` value (from the side to move), and the best move found. The search uses the bounds
//! **only at exactly the same depth**. A bound from a deeper search is a bound on a different number
//! (the deeper value) and could change the result of a fixed-depth search; real engines accept that
//! to gain speed, the crate does not, so every driver returns exactly the depth-`d` minimax value.
//! The best move is used for ordering at any depth: ordering never changes a value.
//!
//! # Replacement rule
//!
//! Each key maps to one slot. A store to a slot that holds the same position overwrites it (and
//! tightens the bounds if the depth is the same). A store of a different position replaces the
//! occupant if the occupant is left over from an earlier root search, or if the new depth is at least
//! the occupant's; otherwise the new result is dropped. Deep entries cost the most to recompute, so
//! they are the ones kept.
//!
//! Two results for the same position and depth are merged into one entry holding the tighter of
//! each bound, which is sound while every bound is a bound on the same number, the depth-`d` value.
//! A table used with deeper entries ([`SearchParams::deeper_entries`](crate::driver::SearchParams::deeper_entries)) must not
//! merge: there a bound holds for *some* extension of the tree, and two bounds found on different
//! extensions say nothing together ([`TranspositionTable::with_merging`]).

use crate::value::{INFINITY, Value};

/// One slot's content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry<M> {
    /// The position's full key.
    pub key: u64,
    /// The remaining depth the bounds hold for.
    pub depth: u32,
    /// The value is at least this (from the side to move).
    pub lower: Value,
    /// The value is at most this.
    pub upper: Value,
    /// The move that produced the best value, if the position was expanded.
    pub best_move: Option<M>,
    /// The root search that stored the entry.
    generation: u32,
}

/// The most entries a table holds: 2^28, 8 GiB of entries with a 4-byte move, which is more than a
/// machine that runs the crate's tests has to spare. A larger request is clamped here, and refused
/// by the command line with the memory it would need.
pub const MAX_ENTRIES: usize = 1 << 28;

/// The largest power of two that is at most `n`, and 1 for 0.
const fn power_of_two_at_most(n: usize) -> usize {
    if n <= 1 { 1 } else { 1 << (usize::BITS - 1 - n.leading_zeros()) }
}

/// A fixed-capacity table of [`Entry`] values. See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct TranspositionTable<M> {
    slots: Vec<Option<Entry<M>>>,
    mask: u64,
    generation: u32,
    merge: bool,
}

impl<M: Copy> TranspositionTable<M> {
    /// A table of `entries` slots, rounded down to a power of two (at least one, at most
    /// [`MAX_ENTRIES`]).
    #[must_use]
    pub fn new(entries: usize) -> Self {
        let capacity = Self::capacity_for(entries);
        Self { slots: vec![None; capacity], mask: capacity as u64 - 1, generation: 0, merge: true }
    }

    /// The slots a table asked for `entries` has: the largest power of two that is at most
    /// `entries`, at least one, at most [`MAX_ENTRIES`].
    #[must_use]
    pub const fn capacity_for(entries: usize) -> usize {
        power_of_two_at_most(if entries > MAX_ENTRIES { MAX_ENTRIES } else { entries })
    }

    /// The memory, in bytes, of the slots of a table asked for `entries` (before clamping to
    /// [`MAX_ENTRIES`]), or `None` if that does not fit in this platform's address space.
    #[must_use]
    pub const fn bytes_for(entries: usize) -> Option<usize> {
        let slot = std::mem::size_of::<Option<Entry<M>>>();
        match power_of_two_at_most(entries).checked_mul(slot) {
            Some(bytes) if bytes <= isize::MAX as usize => Some(bytes),
            _ => None,
        }
    }

    /// The same table, merging two results of the same position and depth into the tighter bounds
    /// (`true`, the default) or letting the newer replace the older (`false`: every entry then holds
    /// what one search found).
    #[must_use]
    pub fn with_merging(self, merge: bool) -> Self {
        Self { merge, ..self }
    }

    /// The number of slots.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Starts a new root search: older entries become replaceable by anything.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// Empties every slot.
    pub fn clear(&mut self) {
        self.slots.fill(None);
    }

    /// The entry for `key`, if its slot holds that position.
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<&Entry<M>> {
        self.slots[self.slot(key)].as_ref().filter(|entry| entry.key == key)
    }

    // ANCHOR: store
    /// Records the result `g` of a fail-soft search of the position `key` with the window
    /// `(alpha, beta)` at `depth`: an upper bound if `g <= alpha`, a lower bound if `g >= beta`, the
    /// exact value otherwise.
    pub fn store(&mut self, key: u64, depth: u32, alpha: Value, beta: Value, g: Value, best_move: Option<M>) {
        let generation = self.generation;
        let index = self.slot(key);
        let slot = &mut self.slots[index];
        let (mut lower, mut upper) = (-INFINITY, INFINITY);
        let mut best_move = best_move;
        match slot {
            Some(old) if old.key == key => {
                if old.depth == depth && self.merge {
                    lower = old.lower;
                    upper = old.upper;
                }
                best_move = best_move.or(old.best_move);
            }
            Some(old) if old.generation == generation && old.depth > depth => return,
            _ => {}
        }
        if g <= alpha {
            upper = g;
        } else if g >= beta {
            lower = g;
        } else {
            lower = g;
            upper = g;
        }
        *slot = Some(Entry { key, depth, lower, upper, best_move, generation });
    }
    // ANCHOR_END: store

    fn slot(&self, key: u64) -> usize {
        // Keys may be small consecutive numbers (node ids): mix every bit into the index.
        let mut x = key;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        x ^= x >> 33;
        // The mask is below the slot count, so the index fits in usize.
        (x & self.mask) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacity_is_a_power_of_two_at_least_one_and_never_more_than_asked() {
        assert_eq!(TranspositionTable::<u32>::new(0).capacity(), 1);
        assert_eq!(TranspositionTable::<u32>::new(1).capacity(), 1);
        assert_eq!(TranspositionTable::<u32>::new(7).capacity(), 4);
        assert_eq!(TranspositionTable::<u32>::new(8).capacity(), 8);
        assert_eq!(TranspositionTable::<u32>::new(1 << 16).capacity(), 1 << 16);
        assert_eq!(TranspositionTable::<u32>::capacity_for(usize::MAX), MAX_ENTRIES);
        let slot = std::mem::size_of::<Option<Entry<u32>>>();
        assert_eq!(TranspositionTable::<u32>::bytes_for(7), Some(4 * slot));
        assert_eq!(TranspositionTable::<u32>::bytes_for(usize::MAX), None);
    }

    #[test]
    fn bounds_follow_the_window_and_tighten_at_the_same_depth() {
        let mut table = TranspositionTable::<u32>::new(4);
        table.store(9, 3, 4, 5, 2, Some(1)); // fail low: value <= 2
        table.store(9, 3, -1, 0, 1, None); // fail high: value >= 1
        let entry = table.probe(9).unwrap();
        assert_eq!((entry.lower, entry.upper, entry.best_move), (1, 2, Some(1)));
        table.store(9, 4, 0, 10, 6, Some(2)); // another depth: the old bounds do not carry over
        let entry = table.probe(9).unwrap();
        assert_eq!((entry.depth, entry.lower, entry.upper), (4, 6, 6));
    }

    #[test]
    fn without_merging_an_entry_holds_one_search_result() {
        let mut table = TranspositionTable::<u32>::new(4).with_merging(false);
        table.store(9, 3, 4, 5, 2, None); // fail low: value <= 2
        table.store(9, 3, -1, 0, 1, None); // fail high: value >= 1, the upper bound is dropped
        let entry = table.probe(9).unwrap();
        assert_eq!((entry.lower, entry.upper), (1, INFINITY));
    }

    #[test]
    fn an_entry_of_equal_depth_replaces_the_occupant() {
        // The newer of two results of the same depth is the likelier to be probed again.
        let mut table = TranspositionTable::<u32>::new(1);
        table.store(1, 3, 0, 1, 0, None);
        table.store(2, 3, 0, 1, 0, None);
        assert!(table.probe(2).is_some() && table.probe(1).is_none());
    }

    #[test]
    fn a_one_slot_table_keeps_the_deeper_entry_of_this_search() {
        let mut table = TranspositionTable::<u32>::new(1);
        table.store(1, 5, 0, 1, 0, None);
        table.store(2, 3, 0, 1, 0, None);
        assert!(table.probe(2).is_none() && table.probe(1).is_some());
        table.new_search();
        table.store(2, 3, 0, 1, 0, None);
        assert!(table.probe(2).is_some() && table.probe(1).is_none());
    }
}
