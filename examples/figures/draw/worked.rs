//! The worked traces of the text: the engine's search of the teaching tree node by node, as a table a
//! reader can follow with a pencil, for alpha-beta and for one pass of MTD(f).

use std::fmt::Write as _;

use nullwindow::driver::observe::Probe;
use nullwindow::search::Algorithm;
use nullwindow::tree::Tree;

use super::labels::{mover, path as at, plural, show, window};
use super::record::figure_params;
use super::steps::{Step, engine_steps};

/// One row per step: the visit number, the node, who moves, the window on entry, the result and
/// what it is, the children skipped, and (with `table`) what the transposition table did.
fn step_table(tree: &Tree, steps: &[(usize, &Step)], table: bool) -> String {
    let mut out = String::from("| visit | node | to move | window on entry | returns | the result is |");
    out.push_str(if table {
        " table | children skipped |\n|---:|---|---|---|---:|---|---|---|\n"
    } else {
        " children skipped |\n|---:|---|---|---|---:|---|---|\n"
    });
    for &(visit, step) in steps {
        let mover = mover(tree, step.node);
        let answered = step.probe == Some(Probe::Cutoff);
        let reading = step.reading(tree);
        let skipped: Vec<String> = step.skipped_paths(tree).iter().map(|path| at(path)).collect();
        let _ = write!(
            out,
            "| {visit} | {} | {mover} | {} | {} | {reading} |",
            at(&step.path),
            window(step.alpha, step.beta),
            show(step.result)
        );
        if table {
            let probe = match step.probe {
                Some(Probe::Cutoff) => "answered by its entry".to_owned(),
                Some(Probe::None) | None => String::new(),
                Some(probe) => match step.stored {
                    Some(bound) => format!("{}; stores {} bound", probe.name(), bound.name()),
                    None => probe.name().to_owned(),
                },
            };
            let _ = write!(out, " {probe} |");
        }
        let skipped = if answered { "all: not searched".to_owned() } else { skipped.join(", ") };
        let _ = writeln!(out, " {skipped} |");
    }
    out
}

/// The engine's alpha-beta on `tree`, node by node.
pub(super) fn alphabeta_table(tree: &Tree) -> String {
    let search = engine_steps(tree, Algorithm::AlphaBeta, &figure_params());
    let steps: Vec<(usize, &Step)> =
        search.steps.iter().enumerate().map(|(index, step)| (index + 1, step)).collect();
    let leaves = search.leaves(tree).count();
    let cut = search.steps.iter().filter(|step| !step.skipped(tree).is_empty()).count();
    format!(
        "{} in all, {}; {} cut off. The root returns {}.\n\n{}",
        plural(steps.len(), "node", "nodes"),
        plural(leaves, "leaf evaluated", "leaves evaluated"),
        plural(cut, "node is", "nodes are"),
        show(search.value),
        step_table(tree, &steps, false)
    )
}

/// The pass of the engine's MTD(f) on `tree` that visits the most nodes, node by node.
pub(super) fn mtdf_pass_table(tree: &Tree) -> String {
    let search = engine_steps(tree, Algorithm::Mtdf, &figure_params());
    let busiest = (1..=search.passes.len())
        .max_by_key(|&pass| (search.pass(pass).count(), std::cmp::Reverse(pass)))
        .expect("MTD(f) makes a pass");
    let pass = search.passes[busiest - 1];
    let steps: Vec<(usize, &Step)> = search
        .steps
        .iter()
        .enumerate()
        .filter(|(_, step)| step.pass == busiest)
        .map(|(index, step)| (index + 1, step))
        .collect();
    let answered = steps.iter().filter(|(_, step)| step.probe == Some(Probe::Cutoff)).count();
    let hits = steps.iter().filter(|(_, step)| step.probe == Some(Probe::Hit)).count();
    let leaves = steps.iter().filter(|(_, step)| tree.is_leaf(step.node)).count();
    let answered =
        if answered == 0 { "none of them".to_owned() } else { plural(answered, "of them", "of them") };
    format!(
        "Pass {busiest} of {} tests the window {}, \"at least {}?\", and returns {}: the value is {} {}. \
         It visits {} and evaluates {}; the table answers {answered} outright, and its \
         entries from the earlier passes order the children of {} (`hit`).\n\n{}",
        search.passes.len(),
        window(pass.alpha, pass.beta),
        show(pass.beta),
        show(pass.result),
        if pass.result >= pass.beta { "at least" } else { "at most" },
        show(pass.result),
        plural(steps.len(), "node", "nodes"),
        plural(leaves, "leaf", "leaves"),
        plural(hits, "node", "nodes"),
        step_table(tree, &steps, true)
    )
}
