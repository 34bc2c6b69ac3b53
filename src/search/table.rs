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
//! An entry takes 16 bytes, one 128-bit word: the key in one half, the rest packed in the other (see
//! [What fits in an entry](#what-fits-in-an-entry)). A bucket's two entries take 32 bytes and never
//! straddle two cache lines, so that a probe touches one line: a table larger than the caches costs
//! a cache miss per probe, and that miss is most of what a node costs (the measuring chapter shows
//! the profile). Packed, an entry takes half the 32 bytes of its fields laid out plainly: twice the
//! entries fit in the same cache, and a search forgets fewer positions. The best move is stored as its index in
//! the order of [`Game::moves`](crate::game::Game::moves), so that an entry is made of plain numbers
//! whatever the game's move type.
//!
//! # What fits in an entry
//!
//! Besides the full key, an entry keeps each bound in 16 bits, the depth and the move index in 24
//! and the root search in 7. What does not fit is kept weaker or not at all, never wrong:
//!
//! * a bound outside `-32768..=32767` comes back as the nearest weaker bound that fits (a lower bound
//!   of 40,000 as 32,767; a lower bound below the range as none at all, `-INFINITY`); a weaker bound
//!   is still a true bound, and costs only a search that a tighter one would have saved. Games whose
//!   scores fit in 16 bits (every game and tree model of the crate, by default) lose nothing;
//! * a depth is kept with its move if it is below 2^15 or within 2^14 of `u32::MAX` (the remaining
//!   depth of a search to the end of a game that knows no
//!   [`depth_bound`](crate::game::Game::depth_bound)), and without its move up to 2^15 + 2^22 (the
//!   top of a tree thousands of levels deep); a result at any other depth is not stored, as if the
//!   table had forgotten it;
//! * a move index of 255 or more is kept as no move: the move only orders the children;
//! * root searches are told apart modulo 128: an entry from 128 searches ago counts as this
//!   search's, which changes only which entry a store replaces.
//!
//! # Shared by several threads
//!
//! Searches on several threads share one table through `&TranspositionTable`
//! ([`TranspositionTable::store_shared`], [`TranspositionTable::probe`]). Each slot is one 128-bit
//! atomic word, so a probe returns an entry exactly as one store wrote it, never a mix of two (the
//! "torn" entries that Hyatt's lockless hashing detects by a check word, and misses with a tiny
//! probability). A store reads the word, computes the new entry from it, and writes it with a
//! compare-and-exchange that fails if another store changed the slot in between: then the other
//! store's result stands and this one is dropped, which is always sound. Every bound in the table
//! is thus a bound some complete search found for its position and depth, which is what makes a
//! parallel search exact.
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

use std::sync::atomic::Ordering;

use portable_atomic::AtomicU128;

use crate::value::{INFINITY, Value};

/// One slot's content, as a probe returns it: the bounds as stored, or weaker where they did not
/// fit (see [What fits in an entry](self#what-fits-in-an-entry)).
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

/// The most entries a table holds: 2^28, 4 GiB of 16-byte entries, which is more than a machine that
/// runs the crate's tests has to spare. A larger request is clamped here, and refused by the command
/// line with the memory it would need.
pub const MAX_ENTRIES: usize = 1 << 28;

/// The largest power of two that is at most `n`, and 1 for 0.
const fn power_of_two_at_most(n: usize) -> usize {
    if n <= 1 { 1 } else { 1 << (usize::BITS - 1 - n.leading_zeros()) }
}

/// The low half of a slot's word (the key is the high half): `lower` in bits 0–15 and `upper` in
/// 16–31 as 16-bit numbers, the depth and the move index in 32–55 ([`depth_and_move`]), the root
/// search in 56–62, and in bit 63 whether the slot holds anything.
const OCCUPIED: u64 = 1 << 63;
/// The move index field of an entry without a move; an index this large or larger is not kept.
const NO_MOVE: u32 = u8::MAX as u32;
/// The lower-bound field of "no lower bound" (`-INFINITY`), and the upper-bound field of "no upper
/// bound" (`INFINITY`).
const NO_LOWER: i16 = i16::MIN;
const NO_UPPER: i16 = i16::MAX;
/// Depths below this are kept with their move.
const SMALL_DEPTHS: u32 = 1 << 15;
/// Depths within this of `u32::MAX` are kept with their move, as their distance from it.
const NEAR_THE_END: u32 = 1 << 14;
/// Depths from [`SMALL_DEPTHS`] up to this many above it are kept without a move.
const LARGE_DEPTHS: u32 = 1 << 22;
/// Root searches are told apart modulo this (seven bits of the word).
const GENERATIONS: u32 = 1 << 7;

/// A lower bound in 16 bits: itself if it fits, else the nearest weaker bound that does (no lower
/// bound at all below the range).
fn lower_field(lower: Value) -> i16 {
    i16::try_from(lower).unwrap_or(if lower > 0 { i16::MAX } else { NO_LOWER })
}

/// An upper bound in 16 bits: itself if it fits, else the nearest weaker bound that does (no upper
/// bound at all above the range).
fn upper_field(upper: Value) -> i16 {
    i16::try_from(upper).unwrap_or(if upper < 0 { i16::MIN } else { NO_UPPER })
}

/// A depth and a move index in 24 bits, if the depth can be kept: the depth in the low 16 bits and
/// the move index (255 for none or too large) in the high 8, for a depth below 2^15 (top bit 0) or
/// one within 2^14 of `u32::MAX` (the remaining depth of a search to the end of a game that knows no
/// bound; top bits 10, then its distance from `u32::MAX`). A depth from 2^15 up to 2^15 + 2^22 (the
/// deep chains a tree may hold) takes all 24 bits (top bits 11, then 22 bits of its distance above
/// 2^15), and its move is not kept: it only orders moves.
fn depth_and_move(depth: u32, best_move: Option<u32>) -> Option<u32> {
    let index = best_move.filter(|&index| index < NO_MOVE).unwrap_or(NO_MOVE);
    if depth < SMALL_DEPTHS {
        Some(index << 16 | depth)
    } else if u32::MAX - depth < NEAR_THE_END {
        Some(index << 16 | 0b10 << 14 | (u32::MAX - depth))
    } else if depth - SMALL_DEPTHS < LARGE_DEPTHS {
        let above = depth - SMALL_DEPTHS;
        Some((above >> 14) << 16 | 0b11 << 14 | (above & (NEAR_THE_END - 1)))
    } else {
        None
    }
}

/// The depth and the move index that [`depth_and_move`] packed.
fn depth_and_move_of(bits: u32) -> (u32, Option<u32>) {
    let (field, index) = (bits & 0xffff, (bits >> 16) & 0xff);
    let low = field & (NEAR_THE_END - 1);
    let best_move = (index != NO_MOVE).then_some(index);
    match field >> 14 {
        0b10 => (u32::MAX - low, best_move),
        0b11 => (SMALL_DEPTHS + (index << 14 | low), None),
        _ => (field, best_move),
    }
}

// ANCHOR: slot
/// One slot: one 128-bit atomic word, the key in its high half and the rest of the entry packed in
/// the low half (see the [module documentation](self)). A load returns the word exactly as one
/// store wrote it, so threads sharing the table never see two entries mixed. With `&mut` access no
/// other thread can be looking, and the word is read and written plainly.
#[derive(Debug, Default)]
struct Slot(AtomicU128);

impl Slot {
    /// The word holding `entry`, or `None` if its depth cannot be kept. The bounds may come out
    /// weaker (see [`lower_field`]) and a large move index as none: both are still true of the
    /// position.
    fn encode(entry: &Entry) -> Option<u128> {
        let depth_and_move = depth_and_move(entry.depth, entry.best_move)?;
        // `as u16` keeps the two's-complement bits, and decoding gives the same numbers back.
        let low = OCCUPIED
            | u64::from(lower_field(entry.lower) as u16)
            | (u64::from(upper_field(entry.upper) as u16) << 16)
            | (u64::from(depth_and_move) << 32)
            | (u64::from(entry.generation % GENERATIONS) << 56);
        Some((u128::from(entry.key) << 64) | u128::from(low))
    }

    /// The entry a word holds, or `None` for an empty slot.
    fn decode(word: u128) -> Option<Entry> {
        let low = word as u64;
        if low & OCCUPIED == 0 {
            return None;
        }
        let (lower, upper) = (low as u16 as i16, (low >> 16) as u16 as i16);
        let (depth, best_move) = depth_and_move_of((low >> 32) as u32 & 0xff_ffff);
        Some(Entry {
            key: (word >> 64) as u64,
            depth,
            lower: if lower == NO_LOWER { -INFINITY } else { Value::from(lower) },
            upper: if upper == NO_UPPER { INFINITY } else { Value::from(upper) },
            best_move,
            generation: ((low >> 56) as u32) % GENERATIONS,
        })
    }

    /// The entry as one store wrote it, or `None` for an empty slot.
    fn read(&self) -> Option<Entry> {
        Self::decode(self.word())
    }

    /// The word, with no other thread looking.
    fn word_exclusive(&mut self) -> u128 {
        *self.0.get_mut()
    }

    /// Writes `entry` (if it can be kept) with no other thread looking.
    fn write(&mut self, entry: &Entry) {
        if let Some(word) = Self::encode(entry) {
            *self.0.get_mut() = word;
        }
    }

    /// The word, while other threads may be storing.
    fn word(&self) -> u128 {
        // Relaxed: every entry is whole in its one word, and nothing else is read through it.
        self.0.load(Ordering::Relaxed)
    }

    /// Writes `entry` (if it can be kept) in place of the word `old`, while other threads may read
    /// and write the slot; stores nothing if another store changed the slot since `old` was read
    /// (dropping a result is always sound).
    fn replace_shared(&self, old: u128, entry: &Entry) {
        if let Some(new) = Self::encode(entry) {
            // A failed exchange means another store won the slot: its result stands.
            let _ = self.0.compare_exchange(old, new, Ordering::Relaxed, Ordering::Relaxed);
        }
    }
}
// ANCHOR_END: slot

/// Which bucket of a table a key's entries live in ([`TranspositionTable::bucket_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BucketIndex(usize);

/// Two slots in 32 bytes, never split between two cache lines: a probe reads both for the price of
/// one miss.
#[derive(Debug, Default)]
#[repr(align(32))]
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
        self.generation = (self.generation + 1) % GENERATIONS;
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
        match Slot::decode(first.word_exclusive()) {
            Some(entry) if entry.key == key => Some(entry),
            _ if single => None,
            _ => Slot::decode(second.word_exclusive()).filter(|entry| entry.key == key),
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
        let words = self.buckets[bucket.0].0.each_mut().map(Slot::word_exclusive);
        let (in_second_slot, always) = self.choose_slot(key, depth, |slot| Slot::decode(words[slot]));
        let old = Slot::decode(words[usize::from(in_second_slot)]);
        if let Some(entry) = self.updated(old, always, key, depth, window, result) {
            self.buckets[bucket.0].0[usize::from(in_second_slot)].write(&entry);
        }
    }

    /// Where a store of `key` at `depth` goes (`true`: the bucket's second slot), and whether it
    /// replaces whatever is there, from what `occupant` says the bucket's slots (0 and 1) hold (the
    /// second is asked only if needed): the slot that holds the position; else the first slot, if
    /// the replacement rule lets it replace the occupant; else the second, which always takes the
    /// newest result. A table of one slot has only the first.
    fn choose_slot(&self, key: u64, depth: u32, occupant: impl Fn(usize) -> Option<Entry>) -> (bool, bool) {
        let in_first = occupant(0);
        if self.capacity == 1 || in_first.is_some_and(|old| old.key == key) {
            (false, false)
        } else if occupant(1).is_some_and(|old| old.key == key) {
            (true, false)
        } else if in_first.is_none_or(|old| self.replaces(&old, depth)) {
            (false, false)
        } else {
            (true, true)
        }
    }

    /// Whether a result at `depth` may take the slot of `old`, another position: if `old` is left
    /// over from an earlier root search, or no deeper.
    fn replaces(&self, old: &Entry, depth: u32) -> bool {
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
            Some(old) if !always && !self.replaces(&old, depth) => return None,
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
        let slots = &self.buckets[bucket.0].0;
        let words = [slots[0].word(), slots[1].word()];
        let (in_second_slot, always) = self.choose_slot(key, depth, |slot| Slot::decode(words[slot]));
        let old = words[usize::from(in_second_slot)];
        if let Some(entry) = self.updated(Slot::decode(old), always, key, depth, window, result) {
            slots[usize::from(in_second_slot)].replace_shared(old, &entry);
        }
    }

    /// The bucket of `key`: its two slots share one cache line. A search finds it once per
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
    use crate::value::{MAX_LEAF, MIN_LEAF};

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
        // turn while this one probes: a probe that mixed the halves of two stores would show the
        // other key's numbers. This is a stress test: it finds a slot read in two parts only when the
        // two threads run at the same time, which a busy machine may not allow (when they do, it
        // finds one within a few thousand probes).
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
        // An upper bound below 16 bits comes back as the lowest that fits, still true; a move index
        // too large for the entry is dropped: it only orders moves.
        assert_eq!(
            (entry.depth, entry.lower, entry.upper, entry.best_move),
            (u32::MAX, -INFINITY, i32::from(i16::MIN), None)
        );
        table.store(0, 0, -5, 5, INFINITY, Some(254));
        let entry = table.probe(0).unwrap();
        assert_eq!(
            (entry.depth, entry.lower, entry.upper, entry.best_move),
            (0, i32::from(i16::MAX), INFINITY, Some(254))
        );
    }

    #[test]
    fn a_bound_comes_back_as_stored_if_it_fits_in_sixteen_bits_and_else_weaker() {
        let edge = [i32::from(i16::MIN), i32::from(i16::MAX)];
        let near = [-1, 0, 1];
        let values =
            edge.iter().flat_map(|&v| near.map(|d| v + d)).chain([0, -40_000, 40_000, MIN_LEAF, MAX_LEAF]);
        for value in values {
            let mut table = TranspositionTable::new(2);
            table.store(1, 3, value - 1, value, value, None);
            let lower = table.probe(1).unwrap().lower;
            table.store(2, 3, value, value + 1, value, None);
            let upper = table.probe(2).unwrap().upper;
            // Both as stored where they fit; where not, never tighter than stored.
            assert!(lower <= value && upper >= value, "{value}: lower {lower}, upper {upper}");
            let fits = |bound: Value| i16::try_from(bound).is_ok();
            if fits(value) && value != edge[0] {
                assert_eq!(lower, value);
            }
            if fits(value) && value != edge[1] {
                assert_eq!(upper, value);
            }
        }
    }

    #[test]
    fn every_depth_a_search_reaches_is_kept_and_its_move_where_it_fits() {
        let (small, near, large) = (1 << 15, 1 << 14, 1 << 22);
        // (depth, kept, with its move)
        for (depth, kept, with_move) in [
            (0, true, true),
            (small - 1, true, true),
            (small, true, false),
            (100_000, true, false),
            (small + large - 1, true, false),
            (small + large, false, false),
            (1 << 31, false, false),
            (u32::MAX - near, false, false),
            (u32::MAX - (near - 1), true, true),
            (u32::MAX, true, true),
        ] {
            let mut table = TranspositionTable::new(2);
            table.store(5, depth, 0, 1, 0, Some(200));
            let shared = TranspositionTable::new(2);
            shared.store_shared(5, depth, 0, 1, 0, Some(200));
            for table in [&table, &shared] {
                let entry = table.probe(5).map(|entry| (entry.depth, entry.best_move));
                let expected = kept.then_some((depth, with_move.then_some(200)));
                assert_eq!(entry, expected, "depth {depth}");
            }
        }
    }
}
