//! The exercises of the chapter "MTD(f)".

use super::*;

/// The chapter's exercises, in the order it asks them.
pub(super) fn exercises() -> Vec<Exercise> {
    vec![passes_from_below(), passes_from_above(), passes_from_the_value(), fail_hard_passes()]
}

/// The first guess the MTD(f) exercises start above the value from.
const GUESS_ABOVE: Value = 20;

fn mtdf_passes(first_guess: Option<Value>) -> (Tree, Steps) {
    let tree = THREE_PLY.tree();
    let search = engine(&tree, Algorithm::Mtdf, first_guess);
    assert_eq!(search.value, value_of(&tree, tree.root_id()));
    (tree, search)
}

fn passes_from_below() -> Exercise {
    let (tree, search) = mtdf_passes(None);
    let guess = tree.evaluation(tree.root_id());
    let given = format!(
        "{}\nThe first guess: {}, the root's static evaluation (what the engine uses by default).\n",
        THREE_PLY.given(),
        show(guess)
    );
    let mut answer = pass_table(&search.passes);
    let _ = writeln!(
        answer,
        "\n{} passes. The first guess lies below the value, so every pass but the last fails high and \
         raises the lower bound; the next test is one above it (`β = g + 1`), until a test fails low \
         at the value itself. The root's records in the trace (path `[]`) are the passes:",
        search.passes.len()
    );
    answer.push_str(&commands(&[engine_trace(&THREE_PLY, Algorithm::Mtdf, "")]));
    Exercise { given: Some(given), answer }
}

fn passes_from_above() -> Exercise {
    let (_, search) = mtdf_passes(Some(GUESS_ABOVE));
    let given = format!("The same tree, from the first guess {GUESS_ABOVE}.\n");
    let mut answer = pass_table(&search.passes);
    let _ = writeln!(
        answer,
        "\n{} passes. From above the value, the passes fail low and bring the upper bound down \
         (`β = g`), as SSS* does, until one fails high at the value.",
        search.passes.len()
    );
    answer.push_str(&commands(&[engine_trace(
        &THREE_PLY,
        Algorithm::Mtdf,
        &format!(" --first-guess {GUESS_ABOVE}"),
    )]));
    Exercise { given: Some(given), answer }
}

fn passes_from_the_value() -> Exercise {
    let (tree, _) = mtdf_passes(None);
    let value = value_of(&tree, tree.root_id());
    let (_, search) = mtdf_passes(Some(value));
    assert_eq!(search.passes.len(), 2);
    let mut answer = format!("The value is {}. From it:\n\n", show(value));
    answer.push_str(&pass_table(&search.passes));
    answer.push_str(
        "\nTwo passes, always: \"at least v?\" fails high (a lower bound v) and \"at least v + 1?\" \
         fails low (an upper bound v). No fewer can do: one test proves one bound, and the value needs \
         both.\n",
    );
    answer.push_str(&commands(&[engine_trace(
        &THREE_PLY,
        Algorithm::Mtdf,
        &format!(" --first-guess {value}"),
    )]));
    Exercise { given: None, answer }
}

fn fail_hard_passes() -> Exercise {
    let (tree, search) = mtdf_passes(None);
    let guess = tree.evaluation(tree.root_id());
    let value = value_of(&tree, tree.root_id());
    // MTD(f)'s loop over a fail-hard test: `β` when the value is at least `β`, `β − 1` otherwise.
    let (mut lower, mut upper, mut g, mut passes) = (-INFINITY, INFINITY, guess, Vec::new());
    while lower < upper {
        let beta = if g == lower { g + 1 } else { g };
        g = if value >= beta { beta } else { beta - 1 };
        passes.push(Pass { alpha: beta - 1, beta, result: g });
        if g < beta {
            upper = g;
        } else {
            lower = g;
        }
    }
    let given = format!(
        "The same tree and MTD(f) from the first guess {}, but over a fail-hard null-window search, \
         which returns `γ` when the value is at least `γ` and `γ − 1` otherwise.\n",
        show(guess)
    );
    let mut answer = format!(
        "{} passes, against {} fail-soft: each fail-hard pass moves a bound by one, so MTD(f) walks \
         from the guess to the value one unit at a time.\n\n",
        passes.len(),
        search.passes.len()
    );
    // The engine failing hard makes exactly these passes.
    let hard = engine_steps(&tree, Algorithm::Mtdf, &SearchParams { fail_hard: true, ..figure_params() });
    assert_eq!(hard.passes, passes, "the engine's fail-hard MTD(f) makes the passes worked out above");
    answer.push_str(&pass_table(&passes));
    answer.push_str(
        "\nWith an evaluation in centipawns and a guess a pawn off, that is a hundred passes where a \
         fail-soft search needs a handful. `--fail-hard` makes the engine's drivers fail hard; the \
         root's records (path `[]`) are the passes:\n",
    );
    answer.push_str(&commands(&[engine_trace(&THREE_PLY, Algorithm::Mtdf, " --fail-hard")]));
    Exercise { given: Some(given), answer }
}

// The C bound-array form.
