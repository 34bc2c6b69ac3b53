//! The exercises of the chapter "Null-window search".

use super::*;

/// The chapter's exercises, in the order it asks them.
pub(super) fn exercises() -> Vec<Exercise> {
    vec![two_tests(), leaves_of_a_test(), what_two_tests_prove()]
}

/// The tests the null-window exercises make.
const TESTS: [Value; 2] = [3, 8];

fn two_tests() -> Exercise {
    let tree = THREE_PLY.tree();
    let given = format!(
        "{}\nThe questions: is it worth at least {}? Is it worth at least {}?\n",
        THREE_PLY.given(),
        TESTS[0],
        TESTS[1]
    );
    let mut answer = String::from("| question | window | returns | answer |\n|---|---|---:|---|\n");
    let mut lines = Vec::new();
    for gamma in TESTS {
        let search = engine(&tree, Algorithm::Mtdf, Some(gamma));
        let pass = search.passes[0];
        assert_eq!((pass.alpha, pass.beta), (gamma - 1, gamma));
        let yes = pass.result >= gamma;
        let _ = writeln!(
            answer,
            "| at least {gamma}? | {} | {} | {}: the value is {} |",
            window(pass.alpha, pass.beta),
            show(pass.result),
            if yes { "yes" } else { "no" },
            proves(&pass)
        );
        lines.push(engine_trace(&THREE_PLY, Algorithm::Mtdf, &format!(" --first-guess {gamma}")));
    }
    answer.push_str(
        "\nEach test is one search with the window `(γ − 1, γ)`. MTD(f)'s first pass from the first \
         guess γ is exactly that test, so the first pass (`pass` 1) of each trace below is the \
         search. The traces list nodes as they are entered (`--on entry`), so the root's record, \
         path `[]`, is the first of the pass, and its `result` is the answer.\n",
    );
    answer.push_str(&commands(&lines));
    Exercise { given: Some(given), answer }
}

fn leaves_of_a_test() -> Exercise {
    let tree = THREE_PLY.tree();
    let gamma = TESTS[0];
    let search = engine(&tree, Algorithm::Mtdf, Some(gamma));
    let test: Vec<&Step> = search.pass(1).collect();
    let leaves: Vec<String> =
        test.iter().filter(|step| tree.is_leaf(step.node)).map(|step| leaf(&tree, &step.path)).collect();
    let full = engine(&tree, Algorithm::AlphaBeta, None).leaves(&tree).count();
    let root = test[0];
    assert!(root.result >= gamma, "the test fails high");
    let mut answer = format!(
        "The test \"at least {gamma}?\" evaluates {} leaves, {}; full-window alpha-beta needs {full}.\n\n",
        leaves.len(),
        and_list(&leaves)
    );
    for step in test.iter().filter(|step| !tree.is_leaf(step.node)) {
        let _ = writeln!(
            answer,
            "* {} ({}) enters {} of its {} children and returns {}.",
            at(&step.path),
            mover(&tree, step.node),
            step.entered.len(),
            tree.children(step.node).len(),
            show(step.result)
        );
    }
    answer.push_str(
        "\nTo prove \"at least γ\", MAX needs one move that reaches γ at each of its nodes on the way, \
         and must answer every MIN reply there: a MAX node stops at its first child that reaches γ, and \
         a MIN node that reaches γ has had all its children searched. That is one of the minimal \
         tree's two strategies, MAX's, and not the other.\n",
    );
    answer.push_str(&commands(&[engine_trace(
        &THREE_PLY,
        Algorithm::Mtdf,
        &format!(" --first-guess {gamma}"),
    )]));
    Exercise { given: None, answer }
}

fn what_two_tests_prove() -> Exercise {
    let tree = THREE_PLY.tree();
    let bounds = TESTS.iter().fold((-INFINITY, INFINITY), |bounds, &gamma| {
        engine(&tree, Algorithm::Mtdf, Some(gamma)).passes[0].narrow(bounds)
    });
    let value = value_of(&tree, tree.root_id());
    assert!(bounds.0 <= value && value <= bounds.1);
    let mut answer = format!(
        "The value lies in [{}, {}]: the yes gave the lower bound, the no the upper bound. ",
        show(bounds.0),
        show(bounds.1)
    );
    if bounds.0 == bounds.1 {
        answer.push_str("They meet: the value is proven, and no further test is needed.\n");
    } else {
        let _ = writeln!(
            answer,
            "{} values remain, so the value is not proven yet. A further test at any γ in ({}, {}] \
             moves one of the bounds, whichever way it fails; the tests go on until the bounds meet.",
            bounds.1 - bounds.0 + 1,
            show(bounds.0),
            show(bounds.1)
        );
    }
    Exercise { given: None, answer }
}

// MTD(f).
