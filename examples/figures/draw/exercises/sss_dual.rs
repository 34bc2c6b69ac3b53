//! The exercises of the chapter "SSS* and DUAL*".

use super::*;

/// The chapter's exercises, in the order it asks them.
pub(super) fn exercises() -> Vec<Exercise> {
    vec![sss_passes(), dual_passes(), stockman_order(), sss_dominates_alpha_beta()]
}

fn sss_passes() -> Exercise {
    let tree = BEST_FIRST.tree();
    let search = literal(&tree, Driver::MtSss, None);
    let (last, before) = search.passes.split_last().expect("a pass");
    assert!(before.iter().all(|pass| pass.result < pass.beta) && last.result >= last.beta);
    assert_eq!(
        search.passes[0].result,
        value_of(&tree, tree.root_id()),
        "the first upper bound is the value"
    );
    let mut answer = pass_table(&search.passes);
    let _ = writeln!(
        answer,
        "\n{}. Each pass but the last fails low and gives a new, lower upper bound, which the next \
         pass tests at; the last fails high at its test, and the bounds meet. The first pass already \
         finds the value as its upper bound: the leaves of each MIN node's first MAX child bound \
         that MIN node from above, and the best of those bounds is the value here.",
        plural(search.passes.len(), "pass", "passes")
    );
    answer.push_str(&commands(&[literal_trace(&BEST_FIRST, Driver::MtSss, "")]));
    Exercise { given: Some(BEST_FIRST.given()), answer }
}

fn dual_passes() -> Exercise {
    let tree = BEST_FIRST.tree();
    let search = literal(&tree, Driver::MtDual, None);
    let (last, before) = search.passes.split_last().expect("a pass");
    assert!(before.iter().all(|pass| pass.result >= pass.beta) && last.result < last.beta);
    assert_eq!(search.passes[0].result, -INFINITY, "DUAL*'s first pass proves nothing");
    let mut answer = pass_table(&search.passes);
    let _ = writeln!(
        answer,
        "\n{} passes, the mirror image of SSS*: each pass but the last fails high, and the next tests \
         one above the new lower bound. The first, at −∞ itself, can only fail high at −∞ and proves \
         nothing; Figure 11 makes it anyway.",
        search.passes.len()
    );
    answer.push_str(&commands(&[literal_trace(&BEST_FIRST, Driver::MtDual, "")]));
    Exercise { given: None, answer }
}

/// `leaves` without repeats, in the order of their first evaluation.
fn first_evaluations(leaves: &[NodeId]) -> Vec<NodeId> {
    let mut seen = Vec::new();
    for &leaf in leaves {
        if !seen.contains(&leaf) {
            seen.push(leaf);
        }
    }
    seen
}

fn stockman_order() -> Exercise {
    let tree = BEST_FIRST.tree();
    let (_, stockman) = Driver::StockmanSss.run_recording_leaves(&tree, &SearchParams::default());
    let (_, mt) = Driver::MtSss.run_recording_leaves(&tree, &SearchParams::default());
    let order = first_evaluations(&stockman);
    assert_eq!(order, first_evaluations(&mt), "MT-SSS* evaluates Stockman's leaves in his order");
    let all_paths = paths(&tree);
    let named: Vec<String> = order.iter().map(|node| leaf(&tree, &all_paths[node.index()])).collect();
    let mut answer = format!(
        "Both evaluate {} leaves, in this order: {}.\n\nStockman's OPEN list first takes the leaves \
         of each MIN node's first MAX child, which give the first upper bound; then it refines best \
         first: the triple of highest merit on OPEN is where the next pass of MT-SSS* goes down, \
         because that pass tests at the same upper bound.\n",
        order.len(),
        and_list(&named)
    );
    answer.push_str(&commands(&[
        format!("nullwindow trace {} --algo stockman-sss --output table", BEST_FIRST.file),
        literal_trace(&BEST_FIRST, Driver::MtSss, ""),
    ]));
    Exercise { given: None, answer }
}

fn sss_dominates_alpha_beta() -> Exercise {
    let tree = BEST_FIRST.tree();
    let (_, alpha_beta) = Driver::KornilovAlphaBeta.run_recording_leaves(&tree, &SearchParams::default());
    let (_, sss) = Driver::MtSss.run_recording_leaves(&tree, &SearchParams::default());
    assert!(sss.iter().all(|leaf| alpha_beta.contains(leaf)), "SSS* evaluates no leaf alpha-beta prunes");
    let all_paths = paths(&tree);
    let only_alpha_beta: Vec<String> = alpha_beta
        .iter()
        .filter(|leaf| !sss.contains(leaf))
        .map(|node| leaf(&tree, &all_paths[node.index()]))
        .collect();
    // The skipped leaves are those of the first MIN node's second child.
    let second_child: Vec<String> =
        children_paths(&tree, &[0, 1]).iter().map(|path| leaf(&tree, path)).collect();
    assert_eq!(only_alpha_beta, second_child);
    let distinct = first_evaluations(&sss).len();
    let mut answer = format!(
        "Alpha-beta evaluates {} leaves, SSS* {distinct} ({} evaluations: a later pass evaluates some \
         again). SSS* never evaluates {}, which alpha-beta does: once the first MIN node's first \
         MAX child has shown that MIN can hold MAX to less than the upper bound SSS* is testing, the \
         rest of that MIN node cannot matter. The other way round there is nothing: SSS* evaluates no \
         leaf that alpha-beta skips, as Stockman proved.\n",
        alpha_beta.len(),
        sss.len(),
        and_list(&only_alpha_beta)
    );
    answer.push_str(&commands(&[
        format!("nullwindow trace {} --algo kornilov-alphabeta --on entry --output table", BEST_FIRST.file),
        literal_trace(&BEST_FIRST, Driver::MtSss, ""),
    ]));
    Exercise { given: None, answer }
}

// PVS and NegaScout.
