//! Move ordering: the table's move first, then killer moves, then the history heuristic.
//!
//! Alpha-beta prunes most when the best move comes first. None of these rules changes a value, only
//! how much is searched, so each can be switched off to measure what it buys.
//!
//! * **Table move**: the best move stored for the position by an earlier pass or iteration.
//! * **Killer moves** (two per ply): moves that recently caused a cut-off at the same ply elsewhere in
//!   the tree; often they refute a sibling position too.
//! * **History heuristic** (Schaeffer): every cut-off adds `depth²` to its move's slot
//!   ([`Game::history_slot`](crate::game::Game::history_slot)); the remaining moves are tried in
//!   decreasing score, ties in the game's own order.

/// Killer and history tables for one engine.
#[derive(Clone, Debug)]
pub struct MoveOrdering<M> {
    killers: Vec<[Option<M>; 2]>,
    history: Vec<u64>,
}

impl<M: Copy + Eq> MoveOrdering<M> {
    /// Empty tables with room for `plies` plies of killers and `history_slots` history slots.
    #[must_use]
    pub fn new(plies: usize, history_slots: usize) -> Self {
        Self { killers: vec![[None; 2]; plies], history: vec![0; history_slots] }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.killers.fill([None; 2]);
        self.history.fill(0);
    }

    /// Makes room for `plies` plies and `history_slots` slots (allocates only when growing).
    pub fn reserve(&mut self, plies: usize, history_slots: usize) {
        if self.killers.len() < plies {
            self.killers.resize(plies, [None; 2]);
        }
        if self.history.len() < history_slots {
            self.history.resize(history_slots, 0);
        }
    }

    /// Records that `mv` (in history slot `slot`) caused a cut-off at `ply` with `depth` plies left.
    pub fn record_cutoff(&mut self, ply: usize, mv: M, slot: Option<usize>, depth: u32, killers: bool) {
        if killers
            && let Some(pair) = self.killers.get_mut(ply)
            && pair[0] != Some(mv)
        {
            pair[1] = pair[0];
            pair[0] = Some(mv);
        }
        if let Some(score) = slot.and_then(|slot| self.history.get_mut(slot)) {
            let depth = u64::from(depth.min(1 << 16));
            *score = score.saturating_add(depth * depth);
        }
    }

    /// Reorders `moves` in place: `table_move` first, then this ply's killers, then (when
    /// `history_slot` is given) the rest by decreasing history score, stably.
    pub fn order(
        &self,
        moves: &mut [M],
        ply: usize,
        table_move: Option<M>,
        use_killers: bool,
        history_slot: Option<&dyn Fn(M) -> usize>,
    ) {
        let mut front = 0;
        let killers =
            if use_killers { self.killers.get(ply).copied().unwrap_or([None; 2]) } else { [None; 2] };
        for wanted in [table_move, killers[0], killers[1]].into_iter().flatten() {
            if let Some(found) = moves[front..].iter().position(|&mv| mv == wanted) {
                // Bring it to the front, the moves before it one place back. (A loop over a few
                // moves: the library's `rotate_right` is a call that costs more than the moves.)
                for at in (front..front + found).rev() {
                    moves[at + 1] = moves[at];
                }
                moves[front] = wanted;
                front += 1;
            }
        }
        if let Some(slot_of) = history_slot {
            let score = |mv: M| self.history.get(slot_of(mv)).copied().unwrap_or(0);
            sort_by_decreasing_score(&mut moves[front..], score);
        }
    }
}

/// Sorts `moves` by decreasing `score`, stably, so that moves of equal score keep the game's order.
/// Each move's score is asked for once.
///
/// A move list is short and, after the first iterations, nearly sorted already: insertion sort
/// takes one pass then, where the library's stable sort costs the search about 5% of its time
/// (`nullwindow compare --seeds 40 --algo alphabeta,pvs,mtdf`, release: 0.69 against 0.72 ms per
/// tree; `cargo bench --bench drivers -- ordering`: 20.4 against 22.7 ns on 8 moves in random
/// order, 15.5 against 18.8 ns nearly sorted). Asking for each score once, and sorting the scores
/// beside the moves on the stack, rather than asking at every comparison, took the ordering (with
/// the table move and killers brought forward by a loop) from about 220 instructions a node to
/// about 155 on an incremental tree (`examples/per_node.rs` under callgrind; the book's
/// "Measuring"). A long list (more than [`SHORT`] moves) goes to the library's sort by cached key,
/// which is O(n log n).
pub fn sort_by_decreasing_score<M: Copy>(moves: &mut [M], score: impl Fn(M) -> u64) {
    if moves.len() > SHORT {
        moves.sort_by_cached_key(|&mv| std::cmp::Reverse(score(mv)));
        return;
    }
    let mut scores = [0u64; SHORT];
    let scores = &mut scores[..moves.len()];
    for (slot, &mv) in scores.iter_mut().zip(moves.iter()) {
        *slot = score(mv);
    }
    for i in 1..moves.len() {
        let (mv, key) = (moves[i], scores[i]);
        let mut j = i;
        while j > 0 && scores[j - 1] < key {
            moves[j] = moves[j - 1];
            scores[j] = scores[j - 1];
            j -= 1;
        }
        moves[j] = mv;
        scores[j] = key;
    }
}

/// The longest move list sorted by insertion beside its scores on the stack.
pub const SHORT: usize = 32;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_move_then_killers_then_history() {
        let mut ordering = MoveOrdering::<u32>::new(4, 6);
        ordering.record_cutoff(1, 4, Some(4), 3, true);
        ordering.record_cutoff(1, 2, Some(2), 1, true);
        ordering.record_cutoff(0, 5, Some(5), 2, true);
        let mut moves = [0, 1, 2, 3, 4, 5];
        let slot = |mv: u32| mv as usize;
        ordering.order(&mut moves, 1, Some(3), true, Some(&slot));
        // table move 3, killers 2 and 4, then 5 (history 4) before 0 and 1 (history 0, game order).
        assert_eq!(moves, [3, 2, 4, 5, 0, 1]);
    }

    #[test]
    fn sorting_is_stable_and_by_decreasing_score_on_short_and_long_lists() {
        for len in [0, 1, 2, 7, SHORT as u32, SHORT as u32 + 1, 100] {
            let mut moves: Vec<u32> = (0..len).collect();
            let score = |mv: u32| u64::from(mv.wrapping_mul(2_654_435_761) % 5);
            sort_by_decreasing_score(&mut moves, score);
            let mut expected: Vec<u32> = (0..len).collect();
            expected.sort_by_key(|&mv| std::cmp::Reverse(score(mv)));
            assert_eq!(moves, expected, "{len} moves");
        }
    }

    #[test]
    fn without_killers_or_history_only_the_table_move_moves() {
        let mut ordering = MoveOrdering::<u32>::new(2, 0);
        ordering.record_cutoff(0, 2, None, 3, true);
        let mut moves = [0, 1, 2, 3];
        ordering.order(&mut moves, 0, Some(3), false, None);
        assert_eq!(moves, [3, 0, 1, 2]);
    }
}
