//! The exercises of the chapter "The published listings".

use super::*;

/// The chapter's exercises, in the order it asks them.
pub(super) fn exercises() -> Vec<Exercise> {
    vec![inexact_listings(), negamax_windows(), table_without_depth_on_a_tree()]
}

fn inexact_listings() -> Exercise {
    let mut answer = String::from("| driver | source | corrected driver |\n|---|---|---|\n");
    for driver in Driver::ALL.iter().filter(|driver| !driver.info().exact) {
        let corrected = Driver::from_name(&format!("{driver}-corrected"))
            .map_or_else(|| "none".to_owned(), |corrected| format!("`{corrected}`"));
        let _ = writeln!(answer, "| `{driver}` | {} | {corrected} |", driver.info().source);
    }
    answer.push_str(
        "\nA faithful translation of a listing that the tests show wrong is kept wrong, so that the \
         tests can show the bug and a reader can run it; it is marked inexact, which is what `all` \
         leaves out. Beside it stands a driver with the smallest change that makes it exact.\n",
    );
    answer.push_str(&commands(&["nullwindow algos".to_owned()]));
    Exercise { given: None, answer }
}

fn negamax_windows() -> Exercise {
    let tree = TWO_PLY.tree();
    let driver = Driver::KornilovAlphaBeta;
    let mut calls = Vec::new();
    let _ = driver.run_observed(
        &tree,
        &SearchParams::default(),
        &mut nullwindow::driver::observe::Calls(|call: &nullwindow::driver::Call<_>| {
            calls.push(call.clone())
        }),
    );
    let steps = literal(&tree, driver, None);
    let mut answer = String::from(
        "| call | window passed, MIN's side | returns, MIN's side | the trace's window, MAX's side | the trace's result |\n|---|---|---:|---|---:|\n",
    );
    for path in children_paths(&tree, &[]) {
        let node = tree.node_at(&path).expect("a child");
        let call = calls.iter().find(|call| call.position == node).expect("every child is searched");
        assert_eq!(call.perspective, nullwindow::driver::Perspective::Mover);
        let step = steps.steps.iter().find(|step| step.node == node).expect("the same call");
        assert_eq!((step.alpha, step.beta, step.result), (-call.beta, -call.alpha, -call.result));
        let _ = writeln!(
            answer,
            "| {} | {} | {} | {} | {} |",
            at(&path),
            window(call.alpha, call.beta),
            show(call.result),
            window(step.alpha, step.beta),
            show(step.result)
        );
    }
    answer.push_str(
        "\nThe listing passes a child the root's window negated and swapped, `(−β, −α)`, after raising \
         `α` to the best score so far, and negates what the child returns. The trace turns every \
         record to MAX's side the same way, so that a negamax listing and a minimax one print alike.\n",
    );
    answer.push_str(&commands(&[literal_trace(&TWO_PLY, driver, "")]));
    Exercise { given: Some(TWO_PLY.given()), answer }
}

fn table_without_depth_on_a_tree() -> Exercise {
    let tree = THREE_PLY.tree();
    let printed = literal(&tree, Driver::PlaatMtdf, None);
    let corrected = literal(&tree, Driver::PlaatMtdfCorrected, None);
    assert_eq!(printed.passes, corrected.passes);
    assert_eq!(printed.steps.len(), corrected.steps.len());
    assert_eq!(printed.value, value_of(&tree, tree.root_id()));
    let leaves = printed.leaves(&tree).count();
    let mut answer = format!(
        "No. Both make the same passes, call `AlphaBetaWithMemory` {} times and evaluate {leaves} \
         leaves, and both return {}:\n\n",
        printed.steps.len(),
        show(printed.value)
    );
    answer.push_str(&pass_table(&printed.passes));
    answer.push_str(
        "\nThe printed table looks a node up without its depth, which goes wrong only when a bound \
         found at one depth answers a search of the same position at another: a position reached at \
         two depths (a transposition), or the next iteration of iterative deepening. In a tree \
         searched once, every node is met at one depth only, so the two tables hold the same entries.\n",
    );
    answer.push_str(&commands(&[format!(
        "nullwindow solve {} --algo plaat-mtdf,plaat-mtdf-corrected",
        THREE_PLY.file
    )]));
    Exercise { given: Some(THREE_PLY.given()), answer }
}

// Alpha-beta.
