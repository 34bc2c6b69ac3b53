//! The exercises of the chapter "Iterative deepening".

use super::*;

/// The chapter's exercises, in the order it asks them.
pub(super) fn exercises() -> Vec<Exercise> {
    vec![mtdf_iterations(), what_deepening_costs(), printed_iterative_deepening()]
}

fn mtdf_iterations() -> Exercise {
    let tree = IRREGULAR.tree();
    let params = SearchParams { iterative_deepening: true, ..figure_params() };
    let result = Engine::new(&params).search(&tree, Algorithm::Mtdf, &params, |_| {});
    assert_eq!(result.value, value_of(&tree, tree.root_id()));
    let mut answer =
        String::from("| depth | first guess | passes: window → result | value |\n|---:|---:|---|---:|\n");
    let mut guess = tree.evaluation(tree.root_id());
    for iteration in &result.iterations {
        assert_eq!(iteration.value, minimax::search(&tree, &tree.root(), iteration.depth).value);
        let passes: Vec<String> = iteration
            .passes
            .iter()
            .map(|pass| format!("{} → {}", window(pass.alpha, pass.beta), show(pass.result)))
            .collect();
        let _ = writeln!(
            answer,
            "| {} | {} | {} | {} |",
            iteration.depth,
            show(guess),
            passes.join(", "),
            show(iteration.value)
        );
        guess = iteration.value;
    }
    answer.push_str(
        "\nEach iteration's value is the depth-limited minimax value, and the first guess of the next; \
         the first iteration starts from the root's evaluation. With the exact value as its guess an \
         iteration needs two passes; it needs more where the value moves from one depth to the next.\n",
    );
    answer.push_str(&commands(&[format!(
        "nullwindow solve {} --algo mtdf --iterative --no-killers --no-history",
        IRREGULAR.file
    )]));
    Exercise { given: Some(IRREGULAR.given()), answer }
}

fn what_deepening_costs() -> Exercise {
    let tree = IRREGULAR.tree();
    let deepening = SearchParams { iterative_deepening: true, ..figure_params() };
    let result = Engine::new(&deepening).search(&tree, Algorithm::Mtdf, &deepening, |_| {});
    let at_once = Engine::new(&figure_params()).search(&tree, Algorithm::Mtdf, &figure_params(), |_| {});
    let mut answer = String::from("| iteration | leaves evaluated | passes |\n|---:|---:|---:|\n");
    let mut before = 0;
    for iteration in &result.iterations {
        let _ = writeln!(
            answer,
            "| depth {} | {} | {} |",
            iteration.depth,
            iteration.counts.leaves - before,
            iteration.passes.len()
        );
        before = iteration.counts.leaves;
    }
    let last = result.iterations.last().expect("an iteration");
    assert!(result.counts.leaves > at_once.counts.leaves, "on this tree deepening does not pay");
    let _ = writeln!(
        answer,
        "| in all | {} | {} |\n\nOne search of the whole depth from the first guess {} evaluates {} \
         leaves in {}. Here deepening does not pay: the earlier iterations cost leaves of their own, \
         and their first guesses and best moves save the last one less than that. It pays where they \
         save more, in a deep search whose last iteration dominates the cost.",
        result.counts.leaves,
        result.iterations.iter().map(|iteration| iteration.passes.len()).sum::<usize>(),
        show(tree.evaluation(tree.root_id())),
        at_once.counts.leaves,
        plural(at_once.iterations[0].passes.len(), "pass", "passes")
    );
    assert_eq!(last.depth, tree.height());
    answer.push_str(&commands(&[
        format!("nullwindow solve {} --algo mtdf --iterative --no-killers --no-history", IRREGULAR.file),
        format!("nullwindow solve {} --algo mtdf --no-killers --no-history", IRREGULAR.file),
    ]));
    Exercise { given: None, answer }
}

fn printed_iterative_deepening() -> Exercise {
    let tree = THREE_PLY.tree();
    let printed = literal(&tree, Driver::PlaatIterativeDeepening, None);
    let value = value_of(&tree, tree.root_id());
    let shallow = minimax::search(&tree, &tree.root(), 1).value;
    assert!(tree.children(tree.root_id()).iter().all(|&child| !tree.is_leaf(child)));
    assert_ne!(printed.value, value);
    assert_eq!(printed.value, shallow, "the depth-1 value answers every later iteration");
    let roots: Vec<&Step> = printed.steps.iter().filter(|step| step.path.is_empty()).collect();
    let first_iteration: Vec<Pass> = printed
        .passes
        .iter()
        .zip(&roots)
        .filter(|(_, root)| root.depth == 1)
        .map(|(pass, _)| *pass)
        .collect();
    let (lower, upper) = *bounds_after(&first_iteration).last().expect("a depth-1 pass");
    let mut answer = format!(
        "It returns {}, not {}. Its passes, with the nodes each visits below the root (the trace numbers \
         the passes of each iteration from 1, as its `pass` column shows):\n\n| depth | pass | window | \
         returns | nodes below the root |\n|---:|---:|---|---:|---:|\n",
        show(printed.value),
        show(value)
    );
    let mut in_iteration = 0;
    for (index, root) in roots.iter().enumerate() {
        let below = printed.pass(root.pass).count() - 1;
        assert!(root.depth == 1 || below == 0, "the table answers the root from depth 2 on");
        in_iteration = if index > 0 && roots[index - 1].depth == root.depth { in_iteration + 1 } else { 1 };
        let _ = writeln!(
            answer,
            "| {} | {in_iteration} | {} | {} | {below} |",
            root.depth,
            window(root.alpha, root.beta),
            show(root.result)
        );
    }
    let _ = writeln!(
        answer,
        "\nAt depth 1 every child of the root is an interior node, scored by its evaluation (0 in this \
         format), so the depth-1 value is {}, and its passes leave the bounds [{}, {}] on the root in \
         the table. The table has no depth: from depth 2 on, each pass looks the root up, finds those \
         bounds, which decide its window, and returns {} without searching a child. The corrected \
         driver keys the table by node and depth, and finds the value.",
        show(shallow),
        show(lower),
        show(upper),
        show(shallow)
    );
    answer.push_str(&commands(&[
        literal_trace(&THREE_PLY, Driver::PlaatIterativeDeepening, ""),
        format!("nullwindow solve {} --algo plaat-id-corrected", THREE_PLY.file),
    ]));
    Exercise { given: Some(THREE_PLY.given()), answer }
}
