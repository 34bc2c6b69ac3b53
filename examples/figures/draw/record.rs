//! What the engine did at each node of the teaching tree, recorded by the library's `Recorder`, so that
//! the tree figures draw a real search rather than a hand-made picture of one.

use nullwindow::driver::SearchParams;
use nullwindow::driver::observe::Probe;
use nullwindow::oracle::record::{Recorder, When};
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

/// The engine as the tree figures run it: one search of the whole depth (no iterative deepening),
/// and no killers or history, so that children are tried left to right unless the table names a
/// best move from an earlier pass.
pub(super) fn figure_params() -> SearchParams {
    SearchParams { killers: false, history: false, ..SearchParams::default() }
}

/// The value `algorithm` finds on `tree`, and the nodes it finished in each root pass, in the order
/// it finished them (so a pass's last visit is the root's).
pub(super) fn trace_passes(tree: &Tree, algorithm: Algorithm) -> (Value, Vec<Vec<Visit>>) {
    let mut recorder = Recorder::new(tree);
    let params = figure_params();
    let result =
        Engine::new(&params).search_observed(tree, &tree.root_id(), algorithm, &params, &mut recorder);
    let mut passes: Vec<Vec<Visit>> = Vec::new();
    for record in recorder.records(When::Completion) {
        let pass = record.pass.unwrap_or(1) as usize;
        passes.resize_with(passes.len().max(pass), Vec::new);
        let probe = record.probe.unwrap_or(Probe::None);
        let visit = Visit {
            node: record.position,
            alpha: record.alpha,
            beta: record.beta,
            result: record.result,
            probe,
        };
        passes[pass - 1].push(visit);
    }
    (result.value, passes)
}
