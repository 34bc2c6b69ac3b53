//! The exercises of the chapter "Transposition tables".

use super::*;

/// The chapter's exercises, in the order it asks them.
pub(super) fn exercises() -> Vec<Exercise> {
    vec![stored_bounds(), null_windows_store_no_exact_value(), table_answers(), bound_stored_as_exact()]
}

fn stored_bounds() -> Exercise {
    let tree = TWO_PLY.tree();
    let search = engine(&tree, Algorithm::AlphaBeta, None);
    let mut answer =
        String::from("| node | to move | window | returns | stored as |\n|---|---|---|---:|---|\n");
    for step in search.steps.iter().filter(|step| !tree.is_leaf(step.node)) {
        let stored = step.stored.expect("every interior node of one search is stored");
        assert_eq!(stored, step.bound(), "stored relative to the window searched");
        let _ = writeln!(
            answer,
            "| {} | {} | {} | {} | {} |",
            at(&step.path),
            mover(&tree, step.node),
            window(step.alpha, step.beta),
            show(step.result),
            entry(stored, step.result)
        );
    }
    answer.push_str(
        "\nEach result is stored relative to the window the node was searched with: at or below α an \
         upper bound, at or above β a lower bound, strictly inside the window the exact value. The \
         engine stores no leaves: it evaluates them again, which costs less than a probe.\n",
    );
    answer.push_str(&commands(&[engine_trace(&TWO_PLY, Algorithm::AlphaBeta, "")]));
    Exercise { given: Some(TWO_PLY.given()), answer }
}

fn null_windows_store_no_exact_value() -> Exercise {
    let tree = THREE_PLY.tree();
    let search = engine(&tree, Algorithm::Mtdf, None);
    let mut answer = String::from(
        "| pass | window | lower bounds stored | upper bounds stored | exact values stored |\n|---:|---|---:|---:|---:|\n",
    );
    for (index, pass) in search.passes.iter().enumerate() {
        let count = |bound: Bound| search.pass(index + 1).filter(|step| step.stored == Some(bound)).count();
        assert_eq!(count(Bound::Exact), 0, "a null-window search stores no exact value");
        let _ = writeln!(
            answer,
            "| {} | {} | {} | {} | {} |",
            index + 1,
            window(pass.alpha, pass.beta),
            count(Bound::Lower),
            count(Bound::Upper),
            count(Bound::Exact)
        );
    }
    answer.push_str(
        "\nNone: with `β = α + 1` no integer lies strictly between `α` and `β`, so every result fails \
         low or high and is stored as one bound. The exact value of a node is known only once a lower \
         and an upper bound, from different passes, meet.\n",
    );
    answer.push_str(&commands(&[engine_trace(&THREE_PLY, Algorithm::Mtdf, "")]));
    Exercise { given: Some(THREE_PLY.given()), answer }
}

fn table_answers() -> Exercise {
    let tree = THREE_PLY.tree();
    let search = engine(&tree, Algorithm::Mtdf, None);
    let mut answer = String::from(
        "| pass | node | window | returns | from the entry stored in pass |\n|---:|---|---|---:|---|\n",
    );
    let mut answered = 0;
    for (index, step) in search.steps.iter().enumerate() {
        if step.probe != Some(Probe::Cutoff) {
            continue;
        }
        answered += 1;
        let earlier = search.steps[..index]
            .iter()
            .rev()
            .find(|earlier| earlier.node == step.node && earlier.stored.is_some())
            .expect("an answered node was stored before");
        let stored = earlier.stored.expect("stored");
        let decides = match stored {
            Bound::Lower => step.beta <= earlier.result,
            Bound::Upper => earlier.result <= step.alpha,
            Bound::Exact => true,
        };
        assert!(decides && step.result == earlier.result, "the entry decides the window");
        let _ = writeln!(
            answer,
            "| {} | {} | {} | {} | {}: {} |",
            step.pass,
            at(&step.path),
            window(step.alpha, step.beta),
            show(step.result),
            earlier.pass,
            entry(stored, earlier.result)
        );
    }
    assert!(answered > 0);
    answer.push_str(
        "\nAn entry answers a node when its bound already decides the new window: a lower bound at or \
         above β (the node fails high again), or an upper bound at or below α (it fails low again). \
         Then the node returns the stored bound without searching a child. Other entries still help: \
         they order the children (`hit` in the trace) and may narrow the window.\n",
    );
    answer.push_str(&commands(&[engine_trace(&THREE_PLY, Algorithm::Mtdf, "")]));
    Exercise { given: None, answer }
}

fn bound_stored_as_exact() -> Exercise {
    let tree = THREE_PLY.tree();
    let search = literal(&tree, Driver::WikipediaJaMtdf, None);
    let value = value_of(&tree, tree.root_id());
    assert_ne!(search.value, value, "the listing is wrong on this tree");
    let (index, wrong) = search
        .steps
        .iter()
        .enumerate()
        .find(|(_, step)| {
            !tree.is_leaf(step.node)
                && step.result != value_of(&tree, step.node)
                && match tree.player(step.node) {
                    Player::Min => step.result >= step.beta,
                    Player::Max => step.result <= step.alpha,
                }
        })
        .expect("a bound stored as exact");
    let (side, bound) = match tree.player(wrong.node) {
        Player::Min => ("at or above β", "a lower bound"),
        Player::Max => ("at or below α", "an upper bound"),
    };
    let mut answer = format!(
        "In pass {}, {} ({}) is called with {}. No child cuts it off, so its loop ends with {}, {side}: \
         {bound}, as the postcondition says, but the listing stores it as both bounds, an exact value. \
         Its true value is {}.\n\n",
        wrong.pass,
        at(&wrong.path),
        mover(&tree, wrong.node),
        window(wrong.alpha, wrong.beta),
        show(wrong.result),
        show(value_of(&tree, wrong.node))
    );
    for later in search.steps[index + 1..].iter().filter(|later| later.node == wrong.node) {
        let _ = writeln!(
            answer,
            "* In pass {} it is called with {} and returns {} from the table, without a search.",
            later.pass,
            window(later.alpha, later.beta),
            show(later.result)
        );
    }
    let _ = writeln!(
        answer,
        "\nSo the driver returns {} where the value is {}. Its passes:\n\n{}\nThe corrected driver \
         stores by Plaat's rule, relative to the window, and finds {}.",
        show(search.value),
        show(value),
        pass_table(&search.passes),
        show(value)
    );
    answer.push_str(&commands(&[
        literal_trace(&THREE_PLY, Driver::WikipediaJaMtdf, ""),
        format!("nullwindow solve {} --algo wikipedia-ja-mtdf-corrected", THREE_PLY.file),
    ]));
    Exercise { given: None, answer }
}

// Null-window search.
