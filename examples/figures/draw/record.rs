//! What the engine did at each node of the teaching tree, recorded through its `Tracer` hook, so that
//! the tree figures draw a real search rather than a hand-made picture of one.

use nullwindow::driver::SearchParams;
use nullwindow::game::Player;
use nullwindow::search::trace::{NodeTrace, Probe, Tracer};
use nullwindow::search::{Algorithm, Engine};
use nullwindow::tree::{NodeId, Tree};
use nullwindow::value::Value;

/// What a traced search did at one node, from MAX's side.
#[derive(Clone, Copy)]
pub(super) struct Visit {
    pub(super) node: NodeId,
    pub(super) alpha: Value,
    pub(super) beta: Value,
    pub(super) result: Value,
    pub(super) probe: Probe,
}

/// Records every node the engine finishes, one list per root pass.
struct Recorder<'a> {
    tree: &'a Tree,
    stack: Vec<NodeId>,
    passes: Vec<Vec<Visit>>,
}

impl Tracer<Tree> for Recorder<'_> {
    fn enter(&mut self, ply: usize, position: &NodeId, _depth: u32, _alpha: Value, _beta: Value) {
        if ply == 0 {
            self.passes.push(Vec::new());
        }
        self.stack.truncate(ply);
        self.stack.push(*position);
    }

    fn finish(&mut self, node: &NodeTrace<u32>) {
        let Some(&position) = self.stack.get(node.ply) else { return };
        // The engine works in negamax form; the figures read every value from MAX's side.
        let (alpha, beta, result) = match self.tree.player(position) {
            Player::Max => (node.alpha, node.beta, node.result),
            Player::Min => (-node.beta, -node.alpha, -node.result),
        };
        if let Some(pass) = self.passes.last_mut() {
            pass.push(Visit { node: position, alpha, beta, result, probe: node.probe });
        }
        self.stack.truncate(node.ply);
    }
}

/// The engine as the tree figures run it: one search of the whole depth (no iterative deepening),
/// and no killers or history, so that children are tried left to right unless the table names a
/// best move from an earlier pass.
pub(super) fn figure_params() -> SearchParams {
    SearchParams { killers: false, history: false, ..SearchParams::default() }
}

/// The value `algorithm` finds on `tree`, and the nodes it finished in each root pass, in the order
/// it finished them (so a pass's last visit is the root's).
pub(super) fn trace_passes(tree: &Tree, algorithm: Algorithm) -> (Value, Vec<Vec<Visit>>) {
    let mut recorder = Recorder { tree, stack: Vec::new(), passes: Vec::new() };
    let params = figure_params();
    let result = Engine::new(&params).search_traced(tree, algorithm, &params, &mut recorder);
    (result.value, recorder.passes)
}
