//! The exercises of the chapter "Aspiration windows".

use super::*;

/// The chapter's exercises, in the order it asks them.
pub(super) fn exercises() -> Vec<Exercise> {
    vec![aspiration_fails_low(), aspiration_fails_high(), full_window_research()]
}

/// The first guess the aspiration exercises start from, above the value by more than the window's
/// half-width.
const ASPIRATION_GUESS: Value = 60;

fn aspiration_passes(first_guess: Value) -> (Tree, Steps) {
    let tree = THREE_PLY.tree();
    let search = engine(&tree, Algorithm::Aspiration, Some(first_guess));
    assert_eq!(search.value, value_of(&tree, tree.root_id()));
    (tree, search)
}

fn aspiration_fails_low() -> Exercise {
    let (_, search) = aspiration_passes(ASPIRATION_GUESS);
    let delta = SearchParams::default().aspiration_delta;
    let given = format!(
        "{}\nThe engine's aspiration search, first guess {ASPIRATION_GUESS}, δ = {delta} (the default).\n",
        THREE_PLY.given()
    );
    let first = search.passes[0];
    let mut answer = format!(
        "The first window is {}. The search fails low with {}: an upper bound. The engine re-opens \
         only the low side, and only up to that bound: the next window is {} (the `+ 1` keeps the \
         bound itself inside, so that a value equal to it is found exactly).\n\n",
        window(first.alpha, first.beta),
        show(first.result),
        window(search.passes[1].alpha, search.passes[1].beta)
    );
    answer.push_str(&pass_table(&search.passes));
    answer.push_str(&commands(&[engine_trace(
        &THREE_PLY,
        Algorithm::Aspiration,
        &format!(" --first-guess {ASPIRATION_GUESS}"),
    )]));
    Exercise { given: Some(given), answer }
}

fn aspiration_fails_high() -> Exercise {
    let (_, search) = aspiration_passes(-ASPIRATION_GUESS);
    let given = format!("The same search from the first guess −{ASPIRATION_GUESS}.\n");
    let first = search.passes[0];
    let mut answer = format!(
        "The first window is {}, and the search fails high with {}, a lower bound. The re-search \
         window is {}: it starts just below the bound and is open above.\n\n",
        window(first.alpha, first.beta),
        show(first.result),
        window(search.passes[1].alpha, search.passes[1].beta)
    );
    answer.push_str(&pass_table(&search.passes));
    answer.push_str(&commands(&[engine_trace(
        &THREE_PLY,
        Algorithm::Aspiration,
        &format!(" --first-guess -{ASPIRATION_GUESS}"),
    )]));
    Exercise { given: Some(given), answer }
}

fn full_window_research() -> Exercise {
    let tree = THREE_PLY.tree();
    let verhelst = literal(&tree, Driver::VerhelstAspiration, Some(ASPIRATION_GUESS));
    let (_, ours) = aspiration_passes(ASPIRATION_GUESS);
    let given = format!(
        "The same tree and first guess {ASPIRATION_GUESS}, searched by `verhelst-aspiration`, whose \
         window is ±{ASPIRATION_WINDOW} and whose re-search uses the full window.\n"
    );
    let mut answer = format!(
        "`verhelst-aspiration` evaluates {} leaves; the engine's `aspiration`, {}. The passes of \
         `verhelst-aspiration`:\n\n{}\n\
         and the engine's:\n\n{}\nAfter a fail low the full window throws away the bound the first \
         search proved; the engine keeps it as the top of its re-search window, so the re-search can \
         cut off wherever a node is shown to reach it. (The engine's table also carries the first \
         search's bounds and best moves into the re-search.)\n",
        verhelst.leaves(&tree).count(),
        ours.leaves(&tree).count(),
        pass_table(&verhelst.passes),
        pass_table(&ours.passes)
    );
    answer.push_str(&commands(&[
        literal_trace(&THREE_PLY, Driver::VerhelstAspiration, &format!(" --first-guess {ASPIRATION_GUESS}")),
        engine_trace(&THREE_PLY, Algorithm::Aspiration, &format!(" --first-guess {ASPIRATION_GUESS}")),
    ]));
    Exercise { given: Some(given), answer }
}

// Iterative deepening.
