//! The exercises of the chapter "The C bound-array form".

use super::*;

/// The chapter's exercises, in the order it asks them.
pub(super) fn exercises() -> Vec<Exercise> {
    vec![bound_array_by_hand(), bound_array_from_plus_infinity(), bound_array_from_minus_infinity()]
}

fn bound_array_by_hand() -> Exercise {
    let tree = THREE_PLY.tree();
    let search = literal(&tree, Driver::ChessprogrammingMtdf, None);
    assert_eq!(search.value, value_of(&tree, tree.root_id()));
    let guess = tree.evaluation(tree.root_id());
    let given = format!(
        "{}\nThe first guess: `f` = {} (the translation's default, the root's evaluation).\n",
        THREE_PLY.given(),
        show(guess)
    );
    let mut answer = String::from(
        "| pass | `f == bound[0]` | `beta` | `f` returned | `f < beta` | `bound[0]` after | `bound[1]` after |\n|---:|---|---:|---:|---|---:|---:|\n",
    );
    let (mut bound, mut f) = ([-INFINITY, INFINITY], guess);
    for (index, pass) in search.passes.iter().enumerate() {
        let adds = f == bound[0];
        let beta = f + Value::from(adds);
        assert_eq!(beta, pass.beta, "the translation's beta");
        f = pass.result;
        let fails_low = f < beta;
        bound[usize::from(fails_low)] = f;
        let _ = writeln!(
            answer,
            "| {} | {adds} | {} | {} | {fails_low} | {} | {} |",
            index + 1,
            show(beta),
            show(f),
            show(bound[0]),
            show(bound[1])
        );
    }
    answer.push_str(
        "\nThe comparison adds one exactly when the last result was the lower bound, and `f < beta` \
         picks the upper bound (1) when a pass failed low. The loop stops when `bound[0]` reaches \
         `bound[1]`.\n",
    );
    answer.push_str(&commands(&[literal_trace(&THREE_PLY, Driver::ChessprogrammingMtdf, "")]));
    Exercise { given: Some(given), answer }
}

fn bound_array_from_plus_infinity() -> Exercise {
    let tree = THREE_PLY.tree();
    let c = literal(&tree, Driver::ChessprogrammingMtdf, Some(INFINITY));
    let sss = literal(&tree, Driver::MtSss, None);
    assert_eq!(c.passes, sss.passes, "from +∞ the C loop is SSS*");
    let (last, before) = c.passes.split_last().expect("a pass");
    assert!(before.iter().all(|pass| pass.result < pass.beta) && last.result >= last.beta);
    let given = format!("The same tree, from the first guess `f` = {}.\n", show(INFINITY));
    let mut answer = format!(
        "`f` is not `bound[0]` (−∞), so `beta` = {}: the first test is \"at least ∞?\", which fails \
         low, and from then on every result but the last is the upper bound, tested at again: \
         `beta = f`. That is SSS*, MTD(+∞) with `bound := g`, pass for pass:\n\n",
        show(INFINITY)
    );
    answer.push_str(&pass_table(&c.passes));
    answer.push_str(&commands(&[
        literal_trace(&THREE_PLY, Driver::ChessprogrammingMtdf, &format!(" --first-guess {INFINITY}")),
        literal_trace(&THREE_PLY, Driver::MtSss, ""),
    ]));
    Exercise { given: Some(given), answer }
}

fn bound_array_from_minus_infinity() -> Exercise {
    let tree = THREE_PLY.tree();
    let c = literal(&tree, Driver::ChessprogrammingMtdf, Some(-INFINITY));
    let dual = literal(&tree, Driver::MtDual, None);
    assert_eq!(c.passes[..], dual.passes[1..], "the C loop skips DUAL*'s first pass");
    let (last, before) = c.passes.split_last().expect("a pass");
    assert!(before.iter().all(|pass| pass.result >= pass.beta) && last.result < last.beta);
    assert_eq!(dual.passes[0].result, -INFINITY, "DUAL*'s first pass proves nothing");
    let given = format!("The same tree, from the first guess `f` = {}.\n", show(-INFINITY));
    let mut answer = format!(
        "`f` equals `bound[0]`, so `beta` = {}: the first test is \"at least −∞ + 1?\", and from then \
         on every pass but the last fails high and the test moves one above the result, as in DUAL*. But DUAL* as \
         Figure 11 writes it first tests at {} itself, a pass that can only fail high at {} and \
         proves nothing; the C loop skips it. The C loop's passes:\n\n",
        show(-INFINITY + 1),
        show(-INFINITY),
        show(-INFINITY)
    );
    answer.push_str(&pass_table(&c.passes));
    answer.push_str("\nand `dual-literal`'s:\n\n");
    answer.push_str(&pass_table(&dual.passes));
    answer.push_str(&commands(&[
        literal_trace(&THREE_PLY, Driver::ChessprogrammingMtdf, &format!(" --first-guess -{INFINITY}")),
        literal_trace(&THREE_PLY, Driver::MtDual, ""),
    ]));
    Exercise { given: Some(given), answer }
}

// Bisection.
