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
                moves[front..=front + found].rotate_right(1);
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
///
/// A move list is short and, after the first iterations, nearly sorted already: insertion sort
/// takes one pass then, where the library's stable sort costs the search about 5% of its time
/// (`nullwindow compare --seeds 40 --algo alphabeta,pvs,mtdf`, release: 0.69 against 0.72 ms per
/// tree; `cargo bench --bench drivers -- ordering`: 20.4 against 22.7 ns on 8 moves in random
/// order, 15.5 against 18.8 ns nearly sorted). A long list (a node with thousands of children) goes
/// to the library's sort, which is O(n log n).
pub fn sort_by_decreasing_score<M: Copy>(moves: &mut [M], score: impl Fn(M) -> u64) {
    if moves.len() > 64 {
        moves.sort_by_key(|&mv| std::cmp::Reverse(score(mv)));
        return;
    }
    for i in 1..moves.len() {
        let mut j = i;
        while j > 0 && score(moves[j - 1]) < score(moves[j]) {
            moves.swap(j - 1, j);
            j -= 1;
        }
    }
}

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
    fn without_killers_or_history_only_the_table_move_moves() {
        let mut ordering = MoveOrdering::<u32>::new(2, 0);
        ordering.record_cutoff(0, 2, None, 3, true);
        let mut moves = [0, 1, 2, 3];
        ordering.order(&mut moves, 0, Some(3), false, None);
        assert_eq!(moves, [3, 0, 1, 2]);
    }
}
