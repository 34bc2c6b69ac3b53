//! A search of a small tree node by node, in the order nodes were entered, with what `nullwindow
//! trace` prints of each: the path, the window, the result, what the table did. The worked tables and
//! the exercises read their numbers from here, so that every one of them is a real search.

use nullwindow::driver::{Call, Pass, Perspective, SearchParams};
use nullwindow::game::Player;
use nullwindow::registry::Driver;
use nullwindow::search::trace::{NodeTrace, Probe, Tracer};
use nullwindow::search::{Algorithm, Engine};
use nullwindow::tree::{NodeId, Tree};
use nullwindow::value::{Bound, Value};

/// One node as a search entered and finished it, every value from MAX's side.
#[derive(Clone, Debug)]
pub(super) struct Step {
    /// The root call it belongs to, from 1 (an MTD pass, an aspiration re-search).
    pub(super) pass: usize,
    /// Child indices from the root, 0 for a first child.
    pub(super) path: Vec<u32>,
    pub(super) node: NodeId,
    /// The depth it was searched to.
    pub(super) depth: u32,
    /// The window as the node was called (before the table narrowed it).
    pub(super) alpha: Value,
    pub(super) beta: Value,
    pub(super) result: Value,
    /// What the table did; `None` for a literal translation, which does not say.
    pub(super) probe: Option<Probe>,
    /// The bound the result went into the table as.
    pub(super) stored: Option<Bound>,
    /// The children this visit entered, by index, in the order it entered them.
    pub(super) entered: Vec<u32>,
}

impl Step {
    /// The children this visit never entered: those a cut-off skipped (none at a leaf, or at a node
    /// the table answered without a search).
    pub(super) fn skipped(&self, tree: &Tree) -> Vec<u32> {
        let answered = matches!(self.probe, Some(Probe::Cutoff | Probe::Etc | Probe::Bounds));
        if tree.is_leaf(self.node) || answered {
            return Vec::new();
        }
        (0..tree.children(self.node).len() as u32).filter(|index| !self.entered.contains(index)).collect()
    }

    /// The paths of the children [`Self::skipped`] names.
    pub(super) fn skipped_paths(&self, tree: &Tree) -> Vec<Vec<u32>> {
        let child = |index: u32| self.path.iter().copied().chain([index]).collect();
        self.skipped(tree).into_iter().map(child).collect()
    }

    /// The fail-soft postcondition's reading of the result: a lower bound, an upper bound or exact.
    pub(super) fn bound(&self) -> Bound {
        Bound::of_result(self.result, self.alpha, self.beta)
    }

    /// What the result says about the node's value, in words.
    pub(super) fn reading(&self, tree: &Tree) -> &'static str {
        if tree.is_leaf(self.node) {
            return "the leaf's value";
        }
        match self.bound() {
            Bound::Exact => "exact",
            Bound::Upper => "upper bound (fails low)",
            Bound::Lower => "lower bound (fails high)",
        }
    }
}

/// A search recorded step by step: its value, its root passes and its steps in entry order.
pub(super) struct Steps {
    pub(super) value: Value,
    pub(super) passes: Vec<Pass>,
    pub(super) steps: Vec<Step>,
}

impl Steps {
    /// The steps of root pass `pass` (from 1).
    pub(super) fn pass(&self, pass: usize) -> impl Iterator<Item = &Step> {
        self.steps.iter().filter(move |step| step.pass == pass)
    }

    /// The leaves evaluated, in order (a leaf evaluated twice is listed twice).
    pub(super) fn leaves<'a>(&'a self, tree: &'a Tree) -> impl Iterator<Item = &'a Step> {
        self.steps.iter().filter(|step| tree.is_leaf(step.node))
    }
}

/// A window and result from the side to move at a node of `player`, turned to MAX's side.
const fn for_max(player: Player, alpha: Value, beta: Value, result: Value) -> (Value, Value, Value) {
    match player {
        Player::Max => (alpha, beta, result),
        Player::Min => (-beta, -alpha, -result),
    }
}

/// Follows the engine's descent: the open nodes, each with the index of its step.
struct Recorder<'a> {
    tree: &'a Tree,
    open: Vec<usize>,
    pass: usize,
    steps: Vec<Step>,
}

impl Tracer<Tree> for Recorder<'_> {
    fn enter(&mut self, ply: usize, position: &NodeId, depth: u32, alpha: Value, beta: Value) {
        if ply == 0 {
            self.pass += 1;
        }
        self.open.truncate(ply);
        let mut path = Vec::new();
        if let Some(&parent) = self.open.last() {
            let parent_node = self.steps[parent].node;
            let index = self.tree.children(parent_node).iter().position(|child| child == position);
            let index = index.expect("the engine enters children of the node above") as u32;
            self.steps[parent].entered.push(index);
            path.clone_from(&self.steps[parent].path);
            path.push(index);
        }
        let (alpha, beta, _) = for_max(self.tree.player(*position), alpha, beta, 0);
        self.open.push(self.steps.len());
        self.steps.push(Step {
            pass: self.pass,
            path,
            node: *position,
            depth,
            alpha,
            beta,
            result: 0,
            probe: None,
            stored: None,
            entered: Vec::new(),
        });
    }

    fn finish(&mut self, node: &NodeTrace<u32>) {
        let Some(&index) = self.open.get(node.ply) else { return };
        let step = &mut self.steps[index];
        let player = self.tree.player(step.node);
        (step.alpha, step.beta, step.result) = for_max(player, node.alpha, node.beta, node.result);
        step.probe = Some(node.probe);
        step.stored = node.stored.map(|bound| if player == Player::Max { bound } else { bound.flipped() });
        self.open.truncate(node.ply);
    }
}

/// The engine's `algorithm` on `tree` with `params`, step by step.
pub(super) fn engine_steps(tree: &Tree, algorithm: Algorithm, params: &SearchParams) -> Steps {
    let mut recorder = Recorder { tree, open: Vec::new(), pass: 0, steps: Vec::new() };
    let result = Engine::new(params).search_traced(tree, algorithm, params, &mut recorder);
    let passes = result.iterations.iter().flat_map(|iteration| iteration.passes.iter().copied()).collect();
    Steps { value: result.value, passes, steps: recorder.steps }
}

/// A literal translation's `driver` on `tree`, step by step: its calls, each placed under the call
/// it was made from. A literal driver reports a call when it returns, so the calls that returned
/// just before a call, one ply deeper and not yet placed, are its children; a call of the root
/// ends a pass.
pub(super) fn literal_steps(tree: &Tree, driver: Driver, params: &SearchParams) -> Steps {
    let mut calls: Vec<Call<NodeId>> = Vec::new();
    let outcome = driver.run_observed(tree, params, &mut |call: &Call<NodeId>| calls.push(call.clone()));
    let paths = paths(tree);
    // Each call, in the order it returned, with the calls made from it.
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); calls.len()];
    let mut roots = Vec::new();
    let mut waiting: Vec<usize> = Vec::new();
    for (index, call) in calls.iter().enumerate() {
        let depth = paths[call.position.index()].len();
        let first = waiting.iter().rposition(|&done| paths[calls[done].position.index()].len() <= depth);
        children[index] = waiting.split_off(first.map_or(0, |at| at + 1));
        if call.position == tree.root_id() {
            roots.push(index);
        } else {
            waiting.push(index);
        }
    }
    let mut steps = Vec::new();
    for (pass, &root) in roots.iter().enumerate() {
        let mut stack = vec![root];
        while let Some(index) = stack.pop() {
            let call = &calls[index];
            let (alpha, beta, result) = match call.perspective {
                Perspective::Max => (call.alpha, call.beta, call.result),
                Perspective::Mover => for_max(tree.player(call.position), call.alpha, call.beta, call.result),
            };
            let path = paths[call.position.index()].clone();
            let entered = children[index]
                .iter()
                .map(|&child| *paths[calls[child].position.index()].last().expect("a child has a path"))
                .collect();
            steps.push(Step {
                pass: pass + 1,
                path,
                node: call.position,
                depth: call.depth,
                alpha,
                beta,
                result,
                probe: None,
                stored: None,
                entered,
            });
            stack.extend(children[index].iter().rev());
        }
    }
    Steps { value: outcome.value, passes: outcome.passes.unwrap_or_default(), steps }
}

/// Every node's path from the root (the trees here have no shared nodes).
pub(super) fn paths(tree: &Tree) -> Vec<Vec<u32>> {
    let mut paths = vec![Vec::new(); tree.node_count()];
    let mut stack = vec![tree.root_id()];
    while let Some(node) = stack.pop() {
        for (index, &child) in tree.children(node).iter().enumerate() {
            let mut path = paths[node.index()].clone();
            path.push(index as u32);
            paths[child.index()] = path;
            stack.push(child);
        }
    }
    paths
}
