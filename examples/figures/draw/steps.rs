//! A search of a small tree node by node, in the order nodes were entered, with what `nullwindow
//! trace` prints of each: the path, the window, the result, what the table did. The worked tables and
//! the exercises read their numbers from here, so that every one of them is a real search.

use nullwindow::driver::observe::Probe;
use nullwindow::driver::{Pass, SearchParams};
use nullwindow::oracle::record::{Record, Recorder, When};
use nullwindow::registry::Driver;
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

/// The library's records of `driver`'s search of `tree`, in the order nodes were entered, as steps:
/// each with the children it entered.
fn steps_of(tree: &Tree, records: Vec<Record<NodeId>>) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::with_capacity(records.len());
    // The steps entered and not yet left, by path length.
    let mut open: Vec<usize> = Vec::new();
    for record in records {
        let path = record.path.unwrap_or_default();
        open.truncate(path.len());
        if path.len() > open.len() {
            // A pass's first node is its root: nothing stays open across passes.
            open.clear();
        }
        if let (Some(&parent), Some(&index)) = (open.last(), path.last()) {
            steps[parent].entered.push(index);
        }
        open.push(steps.len());
        steps.push(Step {
            pass: record.pass.unwrap_or(1) as usize,
            path,
            node: record.position,
            depth: record.depth,
            alpha: record.alpha,
            beta: record.beta,
            result: record.result,
            probe: record.probe,
            stored: record.stored,
            entered: Vec::new(),
        });
    }
    let _ = tree;
    steps
}

/// The engine's `algorithm` on `tree` with `params`, step by step.
pub(super) fn engine_steps(tree: &Tree, algorithm: Algorithm, params: &SearchParams) -> Steps {
    let mut recorder = Recorder::new(tree);
    let result = Engine::new(params).search_observed(tree, &tree.root_id(), algorithm, params, &mut recorder);
    let passes = result.iterations.iter().flat_map(|iteration| iteration.passes.iter().copied()).collect();
    Steps { value: result.value, passes, steps: steps_of(tree, recorder.records(When::Entry)) }
}

/// A literal translation's `driver` on `tree`, step by step: its calls, each under the call it was
/// made from.
pub(super) fn literal_steps(tree: &Tree, driver: Driver, params: &SearchParams) -> Steps {
    let mut recorder = Recorder::new(tree);
    let outcome = driver.run_observed(tree, params, &mut recorder);
    Steps {
        value: outcome.value,
        passes: outcome.passes.unwrap_or_default(),
        steps: steps_of(tree, recorder.records(When::Entry)),
    }
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
