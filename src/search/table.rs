//! The transposition table: bounds found for positions, kept across passes and iterations.
//!
//! A fixed number of entries (rounded down to a power of two, at least one, at most
//! [`MAX_ENTRIES`]), allocated once when the table is made; nothing is allocated while searching.
//! The table never takes more memory than was asked for: [`TranspositionTable::bytes_for`] says how
//! much that is. Each entry holds the position's full key,
//! which a probe verifies, so two positions that share a slot are never confused.
//!
//! # Layout
//!
//! An entry takes 32 bytes, and a bucket's two entries share one 64-byte cache line, so that a probe
//! touches one line: a table larger than the caches costs a cache miss per probe, and that miss is
//! most of what a node costs (the measuring chapter shows the profile). The best move is stored as
//! its index in the order of [`Game::moves`](crate::game::Game::moves), so that an entry is made of
//! plain numbers whatever the game's move type.
//!
//! # Shared by several threads
//!
//! Searches on several threads share one table through `&TranspositionTable`
//! ([`TranspositionTable::store_shared`], [`TranspositionTable::probe`]). Each slot is a sequence
//! lock made of atomics: a store makes the slot's sequence number odd, writes, and makes it even
//! again; a probe reads the number before and after the entry and discards what it read if the
//! number changed or was odd. A probe therefore returns an entry exactly as one store wrote it, never
//! a mix of two (the "torn" entries that Hyatt's lockless hashing detects by a check word, and
//! misses with a tiny probability); two stores racing for one slot keep one of them, and dropping a
//! result is always sound. Every bound in the table is thus a bound some complete search found for
//! its position and depth, which is what makes a parallel search exact.
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
//! Each key maps to a bucket of two slots. A store of a position that one of them holds overwrites
//! it (and tightens the bounds if the depth is the same). A store of another position goes to the
//! first slot if its occupant is left over from an earlier root search, or if the new depth is at
//! least the occupant's: deep entries cost the most to recompute, so the first slot keeps them.
//! Otherwise it goes to the second slot, which always takes the newest result, so that a shallow
//! result is not simply lost while a deep one holds the first slot. (In a table of one slot, the
//! slot follows the first slot's rule.)
//!
//! Two results for the same position and depth are merged into one entry holding the tighter of
//! each bound, which is sound while every bound is a bound on the same number, the depth-`d` value.
//! A table used with deeper entries ([`SearchParams::deeper_entries`](crate::driver::SearchParams::deeper_entries)) must not
//! merge: there a bound holds for *some* extension of the tree, and two bounds found on different
//! extensions say nothing together ([`TranspositionTable::with_merging`]).

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering, fence};

use crate::value::{INFINITY, Value};

/// One slot's content, as a probe returns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position's full key.
    pub key: u64,
    /// The remaining depth the bounds hold for.
    pub depth: u32,
    /// The value is at least this (from the side to move).
    pub lower: Value,
    /// The value is at most this.
    pub upper: Value,
    /// The index, in the order of [`Game::moves`](crate::game::Game::moves), of the move that
    /// produced the best value, if the position was expanded.
    pub best_move: Option<u32>,
    /// The root search that stored the entry.
    generation: u32,
}

/// What the replacement rule reads of a slot's entry: whose it is, how deep, and from which root
/// search.
#[derive(Clone, Copy, Debug)]
struct Occupant {
    key: u64,
    depth: u32,
    generation: u32,
}

impl Occupant {
    const fn of(entry: &Entry) -> Self {
        Self { key: entry.key, depth: entry.depth, generation: entry.generation }
    }
}

/// The most entries a table holds: 2^28, 8 GiB of 32-byte entries, which is more than a machine that
/// runs the crate's tests has to spare. A larger request is clamped here, and refused by the command
/// line with the memory it would need.
pub const MAX_ENTRIES: usize = 1 << 28;

/// The largest power of two that is at most `n`, and 1 for 0.
const fn power_of_two_at_most(n: usize) -> usize {
    if n <= 1 { 1 } else { 1 << (usize::BITS - 1 - n.leading_zeros()) }
}

/// An entry in a slot's words: `info` holds the depth (low 32 bits), the move index (31 bits, all
/// ones for none) and, in the top bit, whether the slot holds anything.
const OCCUPIED: u64 = 1 << 63;
const NO_MOVE: u32 = (1 << 31) - 1;

/// One slot: a sequence lock over four words (see the [module documentation](self)). With `&mut`
/// access no other thread can be looking, and the words are read and written plainly.
#[derive(Debug, Default)]
#[repr(align(32))]
struct Slot {
    /// Odd while a store is writing the slot.
    sequence: AtomicU32,
    generation: AtomicU32,
    key: AtomicU64,
    /// `lower` in the high 32 bits, `upper` in the low.
    bounds: AtomicU64,
    info: AtomicU64,
}

impl Slot {
    fn encode(entry: &Entry) -> (u64, u64) {
        // Two's-complement bits: `as` keeps them, and decoding gives the same values back.
        let bounds = (u64::from(entry.lower as u32) << 32) | u64::from(entry.upper as u32);
        let index = entry.best_move.filter(|&index| index < NO_MOVE).unwrap_or(NO_MOVE);
        let info = OCCUPIED | (u64::from(index) << 32) | u64::from(entry.depth);
        (bounds, info)
    }

    fn decode(generation: u32, key: u64, bounds: u64, info: u64) -> Option<Entry> {
        if info & OCCUPIED == 0 {
            return None;
        }
        let index = ((info >> 32) as u32) & NO_MOVE;
        Some(Entry {
            key,
            depth: info as u32,
            lower: (bounds >> 32) as u32 as Value,
            upper: bounds as u32 as Value,
            best_move: (index != NO_MOVE).then_some(index),
            generation,
        })
    }

    // ANCHOR: sequence_lock
    /// The entry as one store wrote it, or `None` for an empty slot or one a store is writing.
    fn read(&self) -> Option<Entry> {
        let before = self.sequence.load(Ordering::Acquire);
        if before & 1 == 1 {
            return None;
        }
        let generation = self.generation.load(Ordering::Relaxed);
        let key = self.key.load(Ordering::Relaxed);
        let bounds = self.bounds.load(Ordering::Relaxed);
        let info = self.info.load(Ordering::Relaxed);
        // The words must be read before the sequence number is read again (Boehm's seqlock reader).
        fence(Ordering::Acquire);
        if self.sequence.load(Ordering::Relaxed) != before {
            return None;
        }
        Self::decode(generation, key, bounds, info)
    }

    /// The entry, with no other thread looking: plain reads, which the compiler may leave out
    /// where a field is not used.
    fn read_exclusive(&mut self) -> Option<Entry> {
        Self::decode(
            *self.generation.get_mut(),
            *self.key.get_mut(),
            *self.bounds.get_mut(),
            *self.info.get_mut(),
        )
    }

    /// Who holds the slot: what the replacement rule reads of it. Plain atomic reads, without the
    /// sequence lock: while other threads write, the three words may come from two different
    /// stores. That is enough to choose a slot to replace, and no more is asked of it: a shared
    /// store then reads the slot again under its lock ([`Slot::write_shared`]), and a wrong choice
    /// only loses an entry worth more.
    fn occupant(&self) -> Option<Occupant> {
        let info = self.info.load(Ordering::Relaxed);
        (info & OCCUPIED != 0).then(|| Occupant {
            key: self.key.load(Ordering::Relaxed),
            depth: info as u32,
            generation: self.generation.load(Ordering::Relaxed),
        })
    }

    /// Writes `entry` with no other thread looking.
    fn write(&mut self, entry: &Entry) {
        let (bounds, info) = Self::encode(entry);
        *self.generation.get_mut() = entry.generation;
        *self.key.get_mut() = entry.key;
        *self.bounds.get_mut() = bounds;
        *self.info.get_mut() = info;
    }

    /// Writes `entry` computed by `update` from what the slot holds, while other threads may read
    /// and write it; gives up (stores nothing) if another store holds the slot.
    fn write_shared(&self, update: impl FnOnce(Option<Entry>) -> Option<Entry>) {
        let sequence = self.sequence.load(Ordering::Relaxed);
        if sequence & 1 == 1
            || self
                .sequence
                .compare_exchange(sequence, sequence.wrapping_add(1), Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        // The odd number must be visible before any word changes (Boehm's seqlock writer).
        fence(Ordering::Release);
        let old = Self::decode(
            self.generation.load(Ordering::Relaxed),
            self.key.load(Ordering::Relaxed),
            self.bounds.load(Ordering::Relaxed),
            self.info.load(Ordering::Relaxed),
        );
        if let Some(entry) = update(old) {
            let (bounds, info) = Self::encode(&entry);
            self.generation.store(entry.generation, Ordering::Relaxed);
            self.key.store(entry.key, Ordering::Relaxed);
            self.bounds.store(bounds, Ordering::Relaxed);
            self.info.store(info, Ordering::Relaxed);
        }
        self.sequence.store(sequence.wrapping_add(2), Ordering::Release);
    }
    // ANCHOR_END: sequence_lock
}

/// Which bucket of a table a key's entries live in ([`TranspositionTable::bucket_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BucketIndex(usize);

/// Two slots in one 64-byte cache line: a probe reads both for the price of one miss.
#[derive(Debug, Default)]
#[repr(align(64))]
struct Bucket([Slot; 2]);

/// A fixed-capacity table of [`Entry`] values. See the [module documentation](self).
#[derive(Debug)]
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    /// The slots in use: every slot of every bucket, but in a table of one.
    capacity: usize,
    mask: u64,
    generation: u32,
    merge: bool,
}

impl TranspositionTable {
    /// A table of `entries` slots, rounded down to a power of two (at least one, at most
    /// [`MAX_ENTRIES`]).
    #[must_use]
    pub fn new(entries: usize) -> Self {
        let capacity = Self::capacity_for(entries);
        let buckets = std::iter::repeat_with(Bucket::default).take(capacity.div_ceil(2)).collect();
        Self { buckets, capacity, mask: capacity as u64 - 1, generation: 0, merge: true }
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
        let slot = std::mem::size_of::<Slot>();
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
        self.capacity
    }

    /// Starts a new root search: older entries become replaceable by anything.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// Empties every slot.
    pub fn clear(&mut self) {
        self.buckets.fill_with(Bucket::default);
    }

    /// The entry for `key`, if one of its bucket's slots holds that position (and no other thread
    /// is writing it).
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.probe_in(self.bucket_of(key), key)
    }

    /// As [`probe`](Self::probe), in the bucket [`bucket_of`](Self::bucket_of) found for `key`.
    pub(crate) fn probe_in(&self, bucket: BucketIndex, key: u64) -> Option<Entry> {
        let [first, second] = &self.buckets[bucket.0].0;
        first.read().filter(|entry| entry.key == key).or_else(|| {
            let second = if self.capacity == 1 { first } else { second };
            second.read().filter(|entry| entry.key == key)
        })
    }

    /// As [`probe_in`](Self::probe_in), with no other thread looking: the search that owns the
    /// table reads it plainly.
    pub(crate) fn probe_exclusive(&mut self, bucket: BucketIndex, key: u64) -> Option<Entry> {
        let single = self.capacity == 1;
        let [first, second] = &mut self.buckets[bucket.0].0;
        match first.read_exclusive() {
            Some(entry) if entry.key == key => Some(entry),
            _ if single => None,
            _ => second.read_exclusive().filter(|entry| entry.key == key),
        }
    }

    // ANCHOR: store
    /// Records the result `g` of a fail-soft search of the position `key` with the window
    /// `(alpha, beta)` at `depth`: an upper bound if `g <= alpha`, a lower bound if `g >= beta`, the
    /// exact value otherwise. `best_move` is the index of the best move in the game's move order.
    pub fn store(
        &mut self,
        key: u64,
        depth: u32,
        alpha: Value,
        beta: Value,
        g: Value,
        best_move: Option<u32>,
    ) {
        self.store_in(self.bucket_of(key), key, depth, (alpha, beta), (g, best_move));
    }

    /// As [`store`](Self::store), in the bucket [`bucket_of`](Self::bucket_of) found for `key`.
    pub(crate) fn store_in(
        &mut self,
        bucket: BucketIndex,
        key: u64,
        depth: u32,
        window: (Value, Value),
        result: (Value, Option<u32>),
    ) {
        let (in_second_slot, always) = self.choose_slot(bucket, key, depth);
        let slot = &mut self.buckets[bucket.0].0[usize::from(in_second_slot)];
        let old = slot.read_exclusive();
        if let Some(entry) = self.updated(old, always, key, depth, window, result) {
            self.buckets[bucket.0].0[usize::from(in_second_slot)].write(&entry);
        }
    }

    /// Where a store of `key` at `depth` goes (`true`: the bucket's second slot), and whether it
    /// replaces whatever is there, from what the two slots of its bucket hold (the second is read
    /// only if needed): the slot that holds the position; else the first slot, if the replacement
    /// rule lets it replace the occupant; else the second, which always takes the newest result. A
    /// table of one slot has only the first.
    // The rule looks only at whose each slot is, how deep and from which search: reading just that,
    // and decoding the whole entry of the chosen slot only, saves a fifth of a store.
    fn choose_slot(&self, bucket: BucketIndex, key: u64, depth: u32) -> (bool, bool) {
        let [first, second] = &self.buckets[bucket.0].0;
        let in_first = first.occupant();
        if self.capacity == 1 || in_first.is_some_and(|old| old.key == key) {
            (false, false)
        } else if second.occupant().is_some_and(|old| old.key == key) {
            (true, false)
        } else if in_first.is_none_or(|old| self.replaces(&old, depth)) {
            (false, false)
        } else {
            (true, true)
        }
    }

    /// Whether a result at `depth` may take the slot of `old`, another position: if `old` is left
    /// over from an earlier root search, or no deeper.
    fn replaces(&self, old: &Occupant, depth: u32) -> bool {
        old.generation != self.generation || old.depth <= depth
    }

    /// The entry a slot holding `old` holds after the store of `g`, or `None` to keep `old`.
    fn updated(
        &self,
        old: Option<Entry>,
        always: bool,
        key: u64,
        depth: u32,
        (alpha, beta): (Value, Value),
        (g, best_move): (Value, Option<u32>),
    ) -> Option<Entry> {
        let generation = self.generation;
        let (mut lower, mut upper) = (-INFINITY, INFINITY);
        let mut best_move = best_move;
        match old {
            Some(old) if old.key == key => {
                if old.depth == depth && self.merge {
                    lower = old.lower;
                    upper = old.upper;
                }
                best_move = best_move.or(old.best_move);
            }
            Some(old) if !always && !self.replaces(&Occupant::of(&old), depth) => return None,
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
        Some(Entry { key, depth, lower, upper, best_move, generation })
    }
    // ANCHOR_END: store

    /// As [`TranspositionTable::store`], through a shared reference while other threads probe and
    /// store: the result is dropped if another thread is writing the same slot.
    pub fn store_shared(
        &self,
        key: u64,
        depth: u32,
        alpha: Value,
        beta: Value,
        g: Value,
        best_move: Option<u32>,
    ) {
        self.store_shared_in(self.bucket_of(key), key, depth, (alpha, beta), (g, best_move));
    }

    /// As [`store_shared`](Self::store_shared), in the bucket [`bucket_of`](Self::bucket_of) found
    /// for `key`.
    pub(crate) fn store_shared_in(
        &self,
        bucket: BucketIndex,
        key: u64,
        depth: u32,
        window: (Value, Value),
        result: (Value, Option<u32>),
    ) {
        let (in_second_slot, always) = self.choose_slot(bucket, key, depth);
        self.buckets[bucket.0].0[usize::from(in_second_slot)]
            .write_shared(|old| self.updated(old, always, key, depth, window, result));
    }

    /// The bucket of `key`: its two slots share one 64-byte cache line. A search finds it once per
    /// node, for the node's probe and its store.
    pub(crate) fn bucket_of(&self, key: u64) -> BucketIndex {
        // Keys may be small consecutive numbers (node ids): mix every bit into the index.
        let mut x = key;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        x ^= x >> 33;
        // The mask is below the slot count, so the index fits in usize; a bucket holds two slots
        // (one in a table of one).
        BucketIndex((x & self.mask) as usize / 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacity_is_a_power_of_two_at_least_one_and_never_more_than_asked() {
        assert_eq!(TranspositionTable::new(0).capacity(), 1);
        assert_eq!(TranspositionTable::new(1).capacity(), 1);
        assert_eq!(TranspositionTable::new(7).capacity(), 4);
        assert_eq!(TranspositionTable::new(8).capacity(), 8);
        assert_eq!(TranspositionTable::new(1 << 16).capacity(), 1 << 16);
        assert_eq!(TranspositionTable::capacity_for(usize::MAX), MAX_ENTRIES);
        let slot = std::mem::size_of::<Slot>();
        assert_eq!(TranspositionTable::bytes_for(7), Some(4 * slot));
        assert_eq!(TranspositionTable::bytes_for(usize::MAX), None);
    }

    #[test]
    fn bounds_follow_the_window_and_tighten_at_the_same_depth() {
        let mut table = TranspositionTable::new(4);
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
        let mut table = TranspositionTable::new(4).with_merging(false);
        table.store(9, 3, 4, 5, 2, None); // fail low: value <= 2
        table.store(9, 3, -1, 0, 1, None); // fail high: value >= 1, the upper bound is dropped
        let entry = table.probe(9).unwrap();
        assert_eq!((entry.lower, entry.upper), (1, INFINITY));
    }

    #[test]
    fn an_entry_of_equal_depth_replaces_the_occupant() {
        // The newer of two results of the same depth is the likelier to be probed again.
        let mut table = TranspositionTable::new(1);
        table.store(1, 3, 0, 1, 0, None);
        table.store(2, 3, 0, 1, 0, None);
        assert!(table.probe(2).is_some() && table.probe(1).is_none());
    }

    #[test]
    fn a_bucket_keeps_the_deep_entry_and_the_newest_shallow_one() {
        // Two slots: every key shares the one bucket.
        let mut table = TranspositionTable::new(2);
        table.store(1, 5, 0, 1, 0, None);
        table.store(2, 3, 0, 1, 0, None); // shallower: into the second slot
        assert!(table.probe(1).is_some() && table.probe(2).is_some());
        table.store(3, 2, 0, 1, 0, None); // the second slot takes the newest
        assert!(table.probe(1).is_some() && table.probe(2).is_none() && table.probe(3).is_some());
        table.store(3, 2, -5, -4, -3, Some(1)); // the same position stays in its slot: bounds merge
        let entry = table.probe(3).unwrap();
        assert_eq!((entry.lower, entry.upper, entry.best_move), (-3, 0, Some(1)));
        table.store(4, 6, 0, 1, 0, None); // deeper: takes the first slot
        assert!(table.probe(4).is_some() && table.probe(1).is_none() && table.probe(3).is_some());
    }

    #[test]
    fn a_one_slot_table_keeps_the_deeper_entry_of_this_search() {
        let mut table = TranspositionTable::new(1);
        table.store(1, 5, 0, 1, 0, None);
        table.store(2, 3, 0, 1, 0, None);
        assert!(table.probe(2).is_none() && table.probe(1).is_some());
        table.new_search();
        table.store(2, 3, 0, 1, 0, None);
        assert!(table.probe(2).is_some() && table.probe(1).is_none());
    }

    #[test]
    fn a_probe_never_sees_two_racing_stores_mixed() {
        // One slot, two keys whose entries differ in bounds and move, one thread storing them in
        // turn while this one probes: a probe that mixed the words of two stores would show the other
        // key's numbers. This is a stress test: it finds a missing sequence check only when the two
        // threads run at the same time, which a busy machine may not allow (when they do, it finds
        // one within a few thousand probes).
        let table = TranspositionTable::new(1);
        let numbers = |key: u64| if key == 1 { (-7, Some(2)) } else { (11, Some(5)) };
        let done = std::sync::atomic::AtomicBool::new(false);
        let mut mixed: Option<Entry> = None;
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let mut key = 1;
                while !done.load(Ordering::Relaxed) {
                    let (value, best) = numbers(key);
                    table.store_shared(key, 4, value - 1, value + 1, value, best);
                    key = 3 - key;
                    // Leave the slot alone for a moment, or the probes would mostly find it changing.
                    for _ in 0..20 {
                        std::hint::spin_loop();
                    }
                }
            });
            let mut probes = 0u64;
            while mixed.is_none() && probes < 4_000_000 {
                for key in [1, 2] {
                    probes += 1;
                    if let Some(entry) = table.probe(key) {
                        let (value, best) = numbers(key);
                        if (entry.lower, entry.upper, entry.depth, entry.best_move) != (value, value, 4, best)
                        {
                            mixed = Some(entry);
                        }
                    }
                }
            }
            // Stopped before asserting, so that a failure does not leave the storing thread running.
            done.store(true, Ordering::Relaxed);
        });
        assert_eq!(mixed, None, "a probe returned a mix of two stores");
    }

    #[test]
    fn an_entry_reads_back_extreme_values_and_depths() {
        let mut table = TranspositionTable::new(2);
        table.store(u64::MAX, u32::MAX, -INFINITY - 1, INFINITY + 1, -INFINITY, Some(u32::MAX));
        let entry = table.probe(u64::MAX).unwrap();
        // A move index too large for the entry is dropped: it only orders moves.
        assert_eq!(
            (entry.depth, entry.lower, entry.upper, entry.best_move),
            (u32::MAX, -INFINITY, -INFINITY, None)
        );
        table.store(0, 0, -5, 5, INFINITY, Some(3));
        let entry = table.probe(0).unwrap();
        assert_eq!(
            (entry.depth, entry.lower, entry.upper, entry.best_move),
            (0, INFINITY, INFINITY, Some(3))
        );
    }
}
