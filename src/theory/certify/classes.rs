//! The classes of values a run tells apart, found as the run reads them.
//!
//! A driver reads a node's evaluation through [`Game::evaluate`], and nothing else of the values.
//! So a run is decided by the values it has read, one at a time, and a value it never reads cannot
//! change it. [`Reading`] is a tree that decides each evaluation only when it is first read. For
//! the drivers decided by the order, the new value is placed against those read before: below all,
//! equal to one, between two, or above all (`2q + 1` places among `q` classes). A value the caller
//! gives the run, a first guess or a window's edge, is one more value read before the run
//! ([`Reading::read_extra`]). For the others it
//! is one of the small values −2 to 2. Each run is one sequence of such choices; running again with
//! the last choice that can still move moved on (and every later one at its first) walks every
//! sequence once, depth first. Each sequence is one class of the values the run can tell apart,
//! however many weak orders of the unread values it stands for.
//!
//! The run is right for every value of the unread nodes when minimax agrees with it both with every
//! unread node below everything read and with every unread node above: minimax only grows as a
//! node's value grows, so these two are the least and the greatest minimax value of all the ways to
//! fill in the unread nodes.

use std::cell::RefCell;

use crate::game::{Game, Player};
use crate::tree::{NodeId, Tree};
use crate::value::Value;

/// How a newly read value is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Values {
    /// Its place in the weak order of those read before, spread two apart.
    Order,
    /// One of −2 to 2.
    Small,
}

/// The least and greatest small value.
const SMALL: (Value, Value) = (-2, 2);

/// A node not read yet in this run.
const UNREAD: u32 = u32::MAX;

/// What one run has read, and the choices that decided it.
#[derive(Debug)]
struct State {
    values: Values,
    /// The choices fixed before the run: the first reads take them.
    planned: Vec<Value>,
    /// The choice made at each read, in the order of reading: the planned ones, then the first
    /// choice (a new least value) for every later read.
    choices: Vec<u8>,
    /// How many choices each read had.
    options: Vec<u8>,
    /// The value of each read, in the order of reading.
    read: Vec<Value>,
    /// For each slot, the index of its read in `read`, or [`UNREAD`].
    read_of: Vec<u32>,
    /// Classes of the order so far (order values only).
    classes: usize,
    /// The least and greatest value read so far.
    range: Option<(Value, Value)>,
}

/// A tree whose evaluations are decided as they are read, one class of values per run.
pub(super) struct Reading<'t> {
    tree: &'t Tree,
    /// Each node's evaluation slot: nodes that share a slot share their evaluation.
    slots: Vec<u32>,
    state: RefCell<State>,
}

impl<'t> Reading<'t> {
    /// The first class of `tree`'s values (its own evaluations are never read), with `extra`
    /// values beside them (read by [`Reading::read_extra`]): values the caller gives the run, a
    /// first guess or a window's edges. With `shared_interior`, every interior node has the same
    /// evaluation, as the parenthesis format gives them; otherwise each node has its own.
    pub(super) fn new(tree: &'t Tree, values: Values, shared_interior: bool, extra: usize) -> Self {
        let slots: Vec<u32> = (0..tree.node_count() as u32)
            .map(|node| if shared_interior && !tree.is_leaf(NodeId(node)) { tree.root_id().0 } else { node })
            .collect();
        let state = State {
            values,
            planned: Vec::new(),
            choices: Vec::new(),
            options: Vec::new(),
            read: Vec::new(),
            read_of: vec![UNREAD; tree.node_count() + extra],
            classes: 0,
            range: None,
        };
        let reading = Self { tree, slots, state: RefCell::new(state) };
        reading.plan(&[]);
        reading
    }

    /// Moves to the next class: the last choice of the run just made that can move moves on, and
    /// every later one is dropped. `false` when every class has been run.
    pub(super) fn advance(&self) -> bool {
        let mut choices = std::mem::take(&mut self.state.borrow_mut().choices);
        let options = std::mem::take(&mut self.state.borrow_mut().options);
        while let Some(last) = choices.pop() {
            if last + 1 < options[choices.len()] {
                choices.push(last + 1);
                self.plan(&choices);
                return true;
            }
        }
        false
    }

    /// Readies a run whose first reads make `choices`.
    fn plan(&self, choices: &[u8]) {
        let mut state = self.state.borrow_mut();
        let state = &mut *state;
        state.read.clear();
        state.read_of.fill(UNREAD);
        state.choices.clear();
        state.choices.extend_from_slice(choices);
        state.options.clear();
        state.planned.clear();
        match state.values {
            Values::Small => {
                state.options.resize(choices.len(), 5);
                state.planned.extend(choices.iter().map(|&choice| SMALL.0 + Value::from(choice)));
                state.range = None;
            }
            Values::Order => {
                // The classes in increasing order, each a list of reads.
                let mut classes: Vec<Vec<usize>> = Vec::new();
                for (index, &choice) in choices.iter().enumerate() {
                    state.options.push(u8::try_from(2 * classes.len() + 1).unwrap_or(u8::MAX));
                    let place = usize::from(choice / 2);
                    if choice % 2 == 0 {
                        classes.insert(place, vec![index]);
                    } else {
                        classes[place].push(index);
                    }
                }
                state.planned.resize(choices.len(), 0);
                for (rank, class) in classes.iter().enumerate() {
                    for &read in class {
                        state.planned[read] = 2 * rank as Value;
                    }
                }
                state.classes = classes.len();
                state.range = None;
            }
        }
    }

    /// The value of `slot` in this class: read before, planned, or a new least value.
    fn read_slot(&self, slot: usize) -> Value {
        let mut state = self.state.borrow_mut();
        let state = &mut *state;
        let read = state.read_of[slot];
        if read != UNREAD {
            return state.read[read as usize];
        }
        let index = state.read.len();
        let value = if let Some(&planned) = state.planned.get(index) {
            planned
        } else {
            // A read beyond the plan takes the first choice: a new least value (order), or -2.
            state.choices.push(0);
            match state.values {
                Values::Small => {
                    state.options.push(5);
                    SMALL.0
                }
                Values::Order => {
                    state.options.push(u8::try_from(2 * state.classes + 1).unwrap_or(u8::MAX));
                    state.classes += 1;
                    state.range.map_or(0, |(low, _)| low - 2)
                }
            }
        };
        state.read.push(value);
        state.read_of[slot] = index as u32;
        state.range =
            Some(state.range.map_or((value, value), |(low, high)| (low.min(value), high.max(value))));
        value
    }

    /// The `index`-th extra value (see [`Reading::new`]), read now if it was not.
    pub(super) fn read_extra(&self, index: usize) -> Value {
        self.read_slot(self.tree.node_count() + index)
    }

    /// Reads every node, in the order of their numbers: the class is then a weak order (or an
    /// assignment) of all the evaluations, whatever the run reads.
    pub(super) fn read_all(&self) {
        for node in 0..self.tree.node_count() {
            let _ = self.evaluate(&NodeId(node as u32));
        }
    }

    /// The values read in this run, by node (`None`: not read).
    pub(super) fn value_of(&self, node: NodeId) -> Option<Value> {
        let state = self.state.borrow();
        let read = state.read_of[*self.slots.get(node.index())? as usize];
        (read != UNREAD).then(|| state.read[read as usize])
    }

    /// What the unread nodes are given for the least and for the greatest completion: below and
    /// above everything read.
    pub(super) fn extremes(&self) -> (Value, Value) {
        let state = self.state.borrow();
        match state.values {
            Values::Small => SMALL,
            // Nothing read: the unread values may still fall on either side of anything the run
            // returns.
            Values::Order => state.range.map_or((-2, 2), |(low, high)| (low - 2, high + 2)),
        }
    }

    /// How many values this run read.
    #[cfg(test)]
    pub(super) fn reads(&self) -> usize {
        self.state.borrow().read.len()
    }
}

impl Game for Reading<'_> {
    type Position = NodeId;
    type Move = u32;
    type Moves = std::ops::Range<u32>;

    fn root(&self) -> NodeId {
        self.tree.root()
    }

    fn to_move(&self, position: &NodeId) -> Player {
        self.tree.to_move(position)
    }

    fn moves(&self, position: &NodeId) -> Self::Moves {
        self.tree.moves(position)
    }

    fn play(&self, position: &NodeId, mv: u32) -> NodeId {
        self.tree.play(position, mv)
    }

    /// The node's value in this class: read before, planned, or a new least value.
    fn evaluate(&self, position: &NodeId) -> Value {
        self.read_slot(self.slots[position.index()] as usize)
    }

    fn key(&self, position: &NodeId) -> u64 {
        self.tree.key(position)
    }

    fn keys_identify_positions(&self) -> bool {
        self.tree.keys_identify_positions()
    }

    fn is_terminal(&self, position: &NodeId) -> bool {
        self.tree.is_terminal(position)
    }

    fn depth_bound(&self, position: &NodeId) -> Option<u32> {
        self.tree.depth_bound(position)
    }

    fn history_slots(&self) -> usize {
        self.tree.history_slots()
    }

    fn history_slot(&self, position: &NodeId, mv: u32) -> usize {
        self.tree.history_slot(position, mv)
    }
}

/// The depth-`depth` minimax value of `node` with evaluations `value`, marking in `used` every node
/// whose evaluation it takes.
pub(super) fn minimax(
    tree: &Tree,
    node: NodeId,
    depth: u32,
    value: &dyn Fn(NodeId) -> Value,
    used: &mut [bool],
) -> Value {
    if depth == 0 || tree.is_leaf(node) {
        used[node.index()] = true;
        return value(node);
    }
    let values =
        tree.children(node).iter().map(|&child| minimax(tree, child, depth.saturating_sub(1), value, used));
    let best = match tree.player(node) {
        Player::Max => values.fold(None, |best: Option<Value>, v| Some(best.map_or(v, |b| b.max(v)))),
        Player::Min => values.fold(None, |best: Option<Value>, v| Some(best.map_or(v, |b| b.min(v)))),
    };
    best.unwrap_or_else(|| unreachable!("an interior node has children"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::SearchParams;
    use crate::registry::Driver;
    use crate::tree::text::parse;

    /// Counts the classes `driver` runs on `tree`, with `extra` values read before each run.
    fn classes(tree: &Tree, driver: Driver, values: Values, extra: usize) -> (u64, usize) {
        let reading = Reading::new(tree, values, false, extra);
        let (mut runs, mut most) = (0, 0);
        loop {
            (0..extra).for_each(|index| {
                reading.read_extra(index);
            });
            let _ = driver.run(&reading, &SearchParams::default());
            runs += 1;
            most = most.max(reading.reads());
            if !reading.advance() {
                return (runs, most);
            }
        }
    }

    #[test]
    fn a_driver_that_reads_every_leaf_sees_every_weak_order_once() {
        // Fubini numbers (OEIS A000670): the weak orders of 1 to 5 things.
        for (leaves, fubini) in [(1, 1), (2, 3), (3, 13), (4, 75), (5, 541)] {
            let text = format!("({})", vec!["0"; leaves].join(" "));
            let tree = parse(&text).unwrap_or_else(|error| panic!("{error}"));
            assert_eq!(classes(&tree, Driver::Minimax, Values::Order, 0), (fubini, leaves));
            assert_eq!(classes(&tree, Driver::Minimax, Values::Small, 0), (5u64.pow(leaves as u32), leaves));
        }
        // With a value read first (a first guess), the leaves can also tie it or fall on either
        // side: the weak orders of three things.
        let tree = parse("(0 0)").unwrap_or_else(|error| panic!("{error}"));
        assert_eq!(classes(&tree, Driver::Minimax, Values::Order, 1), (13, 3));
    }

    #[test]
    fn alpha_beta_tells_apart_fewer_classes_than_minimax() {
        let tree = parse("((0 0) (0 0) (0 0))").unwrap_or_else(|error| panic!("{error}"));
        let (minimax, _) = classes(&tree, Driver::Minimax, Values::Order, 0);
        let (alphabeta, _) = classes(&tree, Driver::KornilovAlphaBeta, Values::Order, 0);
        assert_eq!(minimax, 4683);
        assert!(alphabeta < minimax, "{alphabeta} classes: cutoffs leave values unread");
    }
}
