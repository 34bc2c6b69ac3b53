//! The exercises of the chapter "PVS and NegaScout".

use super::*;

/// The chapter's exercises, in the order it asks them.
pub(super) fn exercises() -> Vec<Exercise> {
    vec![pvs_research(), negascout_near_the_leaves(), pvs_leaves_twice()]
}

fn pvs_research() -> Exercise {
    let tree = RESEARCH.tree();
    let search = literal(&tree, Driver::VerhelstPrincipalVariation, None);
    let mut answer = String::from("| call | window | returns | what it is |\n|---|---|---:|---|\n");
    let mut researched = Vec::new();
    for path in children_paths(&tree, &[]) {
        let calls: Vec<&Step> = search.steps.iter().filter(|step| step.path == path).collect();
        for (index, step) in calls.iter().enumerate() {
            let what = if step.beta - step.alpha == 1 {
                format!("a null-window test: {}", step.reading(&tree))
            } else if index > 0 {
                researched.push(at(&path));
                format!("the re-search: {}", step.reading(&tree))
            } else {
                format!("the first move, full window: {}", step.reading(&tree))
            };
            let _ = writeln!(
                answer,
                "| {} | {} | {} | {what} |",
                at(&path),
                window(step.alpha, step.beta),
                show(step.result)
            );
        }
    }
    let _ = writeln!(
        answer,
        "\nThe re-searched child: {}. Its test asks whether it beats the first move's value, and fails \
         high with a fail-soft lower bound; the re-search then starts at that bound, `(value, β)`, not \
         at `α`: the test has already proven that the child is worth at least that much.",
        and_list(&researched)
    );
    answer.push_str(&commands(&[literal_trace(&RESEARCH, Driver::VerhelstPrincipalVariation, "")]));
    Exercise { given: Some(RESEARCH.given()), answer }
}

/// The nodes a search visits twice in one pass, in the order of their second visit.
fn researched(steps: &Steps) -> Vec<Vec<u32>> {
    let mut seen: Vec<(usize, Vec<u32>)> = Vec::new();
    let mut twice = Vec::new();
    for step in &steps.steps {
        let key = (step.pass, step.path.clone());
        if seen.contains(&key) {
            if !twice.contains(&step.path) {
                twice.push(step.path.clone());
            }
        } else {
            seen.push(key);
        }
    }
    twice
}

fn negascout_near_the_leaves() -> Exercise {
    let tree = SHALLOW_RESEARCH.tree();
    let pvs = engine(&tree, Algorithm::Pvs, None);
    let negascout = engine(&tree, Algorithm::NegaScout, None);
    let (pvs_again, negascout_again) = (researched(&pvs), researched(&negascout));
    assert!(!pvs_again.is_empty() && negascout_again.is_empty());
    assert!(tree.height() < 3, "NegaScout's rule for the last two plies");
    let child = &pvs_again[0];
    let visits: Vec<&Step> = pvs.steps.iter().filter(|step| &step.path == child).collect();
    let (test, research) = (visits[0], visits[1]);
    assert_eq!(test.result, value_of(&tree, test.node), "the test already found the value");
    let answer = format!(
        "PVS tests {child} with {}, and it returns {}, above the window; so PVS searches it again with \
         {} and gets {} once more. NegaScout re-searches nothing: at a node fewer than three plies \
         from the leaves (here the root, {} plies), a fail-soft null-window result that fails high is \
         already exact, so Reinefeld skips the re-search. PVS evaluates {} leaves, NegaScout {}.\n{}",
        window(test.alpha, test.beta),
        show(test.result),
        window(research.alpha, research.beta),
        show(research.result),
        tree.height(),
        pvs.leaves(&tree).count(),
        negascout.leaves(&tree).count(),
        commands(&[
            engine_trace(&SHALLOW_RESEARCH, Algorithm::Pvs, ""),
            engine_trace(&SHALLOW_RESEARCH, Algorithm::NegaScout, ""),
        ]),
        child = at(child)
    );
    Exercise { given: Some(SHALLOW_RESEARCH.given()), answer }
}

fn pvs_leaves_twice() -> Exercise {
    let tree = RESEARCH.tree();
    let (_, pvs) = Driver::VerhelstPrincipalVariation.run_recording_leaves(&tree, &SearchParams::default());
    let (_, alpha_beta) = Driver::KornilovAlphaBeta.run_recording_leaves(&tree, &SearchParams::default());
    let all_paths = paths(&tree);
    let mut twice: Vec<NodeId> =
        pvs.iter().copied().filter(|leaf| pvs.iter().filter(|l| *l == leaf).count() > 1).collect();
    twice.dedup();
    twice.sort();
    twice.dedup();
    let mut distinct = pvs.clone();
    distinct.sort();
    distinct.dedup();
    assert!(distinct.iter().all(|leaf| alpha_beta.contains(leaf)), "PVS evaluates no leaf alpha-beta prunes");
    let named: Vec<String> = twice.iter().map(|node| leaf(&tree, &all_paths[node.index()])).collect();
    let answer = format!(
        "PVS makes {} evaluations of {} distinct leaves; alpha-beta evaluates {}. The leaves PVS \
         evaluates twice, once in the test and once in the re-search, are {}. Every leaf PVS \
         evaluates, alpha-beta evaluates too (Reinefeld's dominance is about distinct leaves); on a \
         tree whose best move comes last, the repeated ones are what PVS pays for its tests.\n{}",
        pvs.len(),
        distinct.len(),
        alpha_beta.len(),
        and_list(&named),
        commands(&[format!("nullwindow solve {} --algo kornilov-alphabeta,verhelst-pvs", RESEARCH.file)])
    );
    Exercise { given: None, answer }
}

// Aspiration windows.
