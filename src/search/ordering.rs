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
//!
//! A [`MovePicker`] hands one node's moves out in that order, one at a time as the search asks for
//! them, rather than sorting them all before the first is searched.

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

    /// This ply's killers, the more recent first.
    #[must_use]
    pub fn killers(&self, ply: usize) -> [Option<M>; 2] {
        self.killers.get(ply).copied().unwrap_or([None; 2])
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

    /// Fills `picker` with `moves` (in the game's order) for a node at `ply`, to be handed out
    /// best guesses first: the move at index `table_move` of that order, then this ply's killers
    /// (with `use_killers`), then the rest, by decreasing history score (when `history_slot` is
    /// given), ties and everything without a score in the game's order. Killers and scores are
    /// read now, as the node is entered.
    #[inline]
    pub fn fill(
        &self,
        picker: &mut MovePicker<M>,
        moves: impl IntoIterator<Item = M>,
        ply: usize,
        table_move: Option<usize>,
        use_killers: bool,
        history_slot: Option<impl Fn(M) -> usize>,
    ) {
        picker.moves.clear();
        picker.moves.extend(moves);
        picker.scores.clear();
        if let Some(slot_of) = history_slot {
            let score = |&mv: &M| self.history.get(slot_of(mv)).copied().unwrap_or(0);
            picker.scores.extend(picker.moves.iter().map(score));
        }
        picker.killers =
            if use_killers { self.killers.get(ply).copied().unwrap_or([None; 2]) } else { [None; 2] };
        picker.table_move = table_move;
        picker.handed_count = 0;
        // Stages with nothing to hand out are skipped here, once.
        picker.stage = if table_move.is_some() { Stage::TableMove } else { picker.after_table_move() };
    }
}

/// The most moves handed out before the rest: the table's move and two killers.
const HANDED_BEFORE_REST: usize = 3;

/// Where a [`MovePicker`] is in handing out its moves.
#[derive(Clone, Copy, Debug)]
enum Stage {
    /// The table's move is next.
    TableMove,
    /// The first (0) or second (1) killer is next.
    Killer(usize),
    /// The rest are to be ordered.
    Sort,
    /// The rest are handed out in order; this one is next.
    Rest(usize),
    /// Without history scores, the rest are the moves not handed out yet, in the game's order:
    /// the move at this index of `moves` is the next one looked at.
    InGameOrder(usize),
}

/// One node's moves, handed out best first as the search asks for them ([`Iterator`]), in the
/// order [`MoveOrdering::fill`] describes.
///
/// The moves come in stages, as in most engines: the table's move, then the killers, then the rest
/// sorted by history. Most nodes that alpha-beta expands are cut off by their first move or two,
/// and then the rest are never sorted. The moves stay in the game's order, in one list per ply that
/// is never moved, so that the table can store the best one's index in that order without a second
/// copy. Against sorting every list when the node is entered, in a list of its own, this took PVS
/// on an incremental tree (width 8, depth 11) from about 700 instructions a node to about 620
/// (`examples/per_node.rs` under callgrind; the book's "Measuring"), visiting the same nodes.
#[derive(Clone, Debug)]
pub struct MovePicker<M> {
    /// The moves in the game's order.
    moves: Vec<M>,
    /// The index of the table's move in `moves`, if any.
    table_move: Option<usize>,
    /// This ply's killers when the node was entered.
    killers: [Option<M>; 2],
    /// Each move's history score when the node was entered, or none without the history heuristic.
    scores: Vec<u64>,
    /// The indices handed out before the rest (the table's move and killers).
    handed: [usize; HANDED_BEFORE_REST],
    handed_count: usize,
    /// The rest, as (history score, move), in the order they are handed out.
    rest: Vec<(u64, M)>,
    stage: Stage,
}

// Not derived: that would ask for `M: Default`.
impl<M> Default for MovePicker<M> {
    fn default() -> Self {
        Self {
            moves: Vec::new(),
            table_move: None,
            killers: [None, None],
            scores: Vec::new(),
            handed: [0; HANDED_BEFORE_REST],
            handed_count: 0,
            rest: Vec::new(),
            stage: Stage::TableMove,
        }
    }
}

impl<M: Copy + Eq> MovePicker<M> {
    /// The index of `mv` in the game's order, if the node has that move.
    #[must_use]
    pub fn index_in_game_order(&self, mv: M) -> Option<usize> {
        self.moves.iter().position(|&entry| entry == mv)
    }

    /// The number of moves the node has, handed out or not.
    #[must_use]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the node has no moves.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The stage after the table's move: the killers if there are any, else the rest.
    fn after_table_move(&self) -> Stage {
        if self.killers.iter().any(Option::is_some) { Stage::Killer(0) } else { self.rest_stage() }
    }

    /// The first stage of the rest: without scores they keep the game's order, with no list to
    /// build.
    fn rest_stage(&self) -> Stage {
        if self.scores.is_empty() { Stage::InGameOrder(0) } else { Stage::Sort }
    }

    fn handed_out(&self, index: usize) -> bool {
        self.handed[..self.handed_count].contains(&index)
    }

    fn hand_out(&mut self, index: usize) -> M {
        self.handed[self.handed_count] = index;
        self.handed_count += 1;
        self.moves[index]
    }

    /// Lists the moves not yet handed out by decreasing score, ties in the game's order.
    fn sort_rest(&mut self) {
        self.rest.clear();
        for (index, (&mv, &score)) in self.moves.iter().zip(&self.scores).enumerate() {
            if !self.handed_out(index) {
                self.rest.push((score, mv));
            }
        }
        // The library's sort is stable, which keeps ties in the game's order. On the short lists
        // of a node it took fewer instructions than a hand-written insertion sort.
        self.rest.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
    }
}

// ANCHOR: next
impl<M: Copy + Eq> Iterator for MovePicker<M> {
    type Item = M;

    #[inline]
    fn next(&mut self) -> Option<M> {
        // Most moves a node searches come from the rest: that case is inline, the stages before it
        // are not.
        match self.stage {
            Stage::Rest(at) => self.next_of_rest(at),
            Stage::InGameOrder(at) => self.next_in_game_order(at),
            _ => self.next_in_stages(),
        }
    }
}

impl<M: Copy + Eq> MovePicker<M> {
    /// The next move from the table move, the killers, or the first of the rest once sorted.
    fn next_in_stages(&mut self) -> Option<M> {
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = self.after_table_move();
                    // A key shared by two positions may name a move this position does not have:
                    // an index past the list names none.
                    if let Some(index) = self.table_move.filter(|&index| index < self.moves.len()) {
                        return Some(self.hand_out(index));
                    }
                }
                Stage::Killer(which) => {
                    self.stage = if which == 0 { Stage::Killer(1) } else { self.rest_stage() };
                    if let Some(killer) = self.killers[which]
                        && let Some(index) = self.moves.iter().position(|&mv| mv == killer)
                        && !self.handed_out(index)
                    {
                        return Some(self.hand_out(index));
                    }
                }
                Stage::Sort => {
                    self.sort_rest();
                    self.stage = Stage::Rest(0);
                }
                Stage::Rest(at) => return self.next_of_rest(at),
                Stage::InGameOrder(at) => return self.next_in_game_order(at),
            }
        }
    }

    /// The move at `at` in the sorted rest, if there is one; the one after it comes next.
    #[inline]
    fn next_of_rest(&mut self, at: usize) -> Option<M> {
        let &(_, mv) = self.rest.get(at)?;
        self.stage = Stage::Rest(at + 1);
        Some(mv)
    }

    /// The first move from index `at` of the game's order that was not handed out before the rest.
    #[inline]
    fn next_in_game_order(&mut self, at: usize) -> Option<M> {
        let index = (at..self.moves.len()).find(|&index| !self.handed_out(index))?;
        self.stage = Stage::InGameOrder(index + 1);
        Some(self.moves[index])
    }
}
// ANCHOR_END: next

#[cfg(test)]
mod tests {
    use super::*;

    fn picked(
        ordering: &MoveOrdering<u32>,
        moves: &[u32],
        table_move: Option<usize>,
        history: bool,
    ) -> Vec<u32> {
        let mut picker = MovePicker::default();
        ordering.fill(
            &mut picker,
            moves.iter().copied(),
            1,
            table_move,
            true,
            history.then_some(|mv| mv as usize),
        );
        picker.collect()
    }

    #[test]
    fn table_move_then_killers_then_history() {
        let mut ordering = MoveOrdering::<u32>::new(4, 6);
        ordering.record_cutoff(1, 4, Some(4), 3, true);
        ordering.record_cutoff(1, 2, Some(2), 1, true);
        ordering.record_cutoff(0, 5, Some(5), 2, true);
        // table move 3, killers 2 and 4, then 5 (history 4) before 0 and 1 (history 0, game order).
        assert_eq!(picked(&ordering, &[0, 1, 2, 3, 4, 5], Some(3), true), [3, 2, 4, 5, 0, 1]);
        // A killer that is also the table move comes once, first.
        assert_eq!(picked(&ordering, &[0, 1, 2, 3, 4, 5], Some(2), true), [2, 4, 5, 0, 1, 3]);
        // A table move index past the list (a key two positions share) names no move.
        assert_eq!(picked(&ordering, &[0, 1, 2, 3, 4, 5], Some(9), true), [2, 4, 5, 0, 1, 3]);
        // Without history, the rest come in the game's order.
        assert_eq!(picked(&ordering, &[0, 1, 2, 3, 4, 5], Some(3), false), [3, 2, 4, 0, 1, 5]);
        // Without killers either, the rest are the game's order without the table move.
        let bare = MoveOrdering::<u32>::new(4, 6);
        assert_eq!(picked(&bare, &[0, 1, 2, 3, 4, 5], Some(3), false), [3, 0, 1, 2, 4, 5]);
        assert_eq!(picked(&bare, &[0, 1, 2, 3, 4, 5], Some(0), false), [0, 1, 2, 3, 4, 5]);
        assert_eq!(picked(&bare, &[0, 1, 2], None, false), [0, 1, 2]);
    }

    #[test]
    fn the_rest_come_by_decreasing_score_stably_on_short_and_long_lists() {
        for len in [0, 1, 2, 7, 32, 33, 100] {
            let moves: Vec<u32> = (0..len).collect();
            let mut ordering = MoveOrdering::<u32>::new(0, len as usize);
            for mv in 0..len {
                // A few equal scores, in no order.
                let times = mv.wrapping_mul(2_654_435_761) % 5;
                for _ in 0..times {
                    ordering.record_cutoff(0, mv, Some(mv as usize), 1, false);
                }
            }
            let mut expected = moves.clone();
            expected.sort_by_key(|&mv| std::cmp::Reverse(ordering.history[mv as usize]));
            assert_eq!(picked(&ordering, &moves, None, true), expected, "{len} moves");
        }
    }

    #[test]
    fn scores_and_killers_are_those_of_when_the_node_was_entered() {
        let mut ordering = MoveOrdering::<u32>::new(1, 4);
        ordering.record_cutoff(0, 1, Some(1), 1, false);
        let mut picker = MovePicker::default();
        ordering.fill(&mut picker, [0, 1, 2, 3], 0, Some(3), true, Some(|mv| mv as usize));
        assert_eq!(picker.next(), Some(3));
        // A cut-off below the table move, before the rest are asked for, changes nothing here.
        ordering.record_cutoff(0, 2, Some(2), 3, true);
        assert_eq!(picker.by_ref().collect::<Vec<_>>(), [1, 0, 2]);
        assert_eq!(picker.next(), None);
        // Handing out moves does not move them: indices stay those of the game's order.
        assert_eq!(
            (picker.len(), picker.index_in_game_order(3), picker.index_in_game_order(7)),
            (4, Some(3), None)
        );
    }
}
