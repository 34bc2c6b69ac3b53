//! The exercises of the chapter "Bisection".

use super::*;

/// The chapter's exercises, in the order it asks them.
pub(super) fn exercises() -> Vec<Exercise> {
    vec![rounding_the_average(), bisection_stops(), engine_bisection()]
}

/// The figure's `average` as integer division, and rounded up.
const fn average_down(a: Value, b: Value) -> Value {
    (a + b) / 2
}

const fn average_up(a: Value, b: Value) -> Value {
    (a + b + 1).div_euclid(2)
}

fn rounding_the_average() -> Exercise {
    let tree = TEACHING.tree();
    let printed = literal(&tree, Driver::MtBi, None);
    let corrected = literal(&tree, Driver::MtBiCorrected, None);
    let shared = 2;
    assert_eq!(printed.passes[..shared], corrected.passes[..shared]);
    let (lower, upper) = bounds_after(&printed.passes)[shared - 1];
    let (down, up) = (average_down(upper, lower), average_up(upper, lower));
    assert_eq!((printed.passes[shared].beta, corrected.passes[shared].beta), (down, up));
    let given = format!(
        "The teaching tree (`{}`). Both `mtd-bi-literal` and `mtd-bi-literal-corrected` begin with \
         these passes:\n\n{}",
        TEACHING.file,
        pass_table(&printed.passes[..shared])
    );
    let mut answer = format!(
        "`mtd-bi-literal` tests at `average(f+, f−)` = ({} + {}) div 2 = {down}, rounded down: the \
         window {}. The corrected driver rounds up, to {up}: the window {}. Both find the value, but \
         the printed one needs {} passes and the corrected one {}.\n\n`mtd-bi-literal`:\n\n{}\n\
         `mtd-bi-literal-corrected`:\n\n{}",
        show(upper),
        show(lower),
        window(down - 1, down),
        window(up - 1, up),
        printed.passes.len(),
        corrected.passes.len(),
        pass_table(&printed.passes),
        pass_table(&corrected.passes)
    );
    answer.push_str(
        "\nA test at `b` asks \"at least b?\", and only a test in `(f−, f+]` can move a bound. Rounded \
         down, the midpoint of two adjacent bounds is `f−` itself; rounded up, it is always in range.\n",
    );
    answer.push_str(&commands(&[
        literal_trace(&TEACHING, Driver::MtBi, ""),
        literal_trace(&TEACHING, Driver::MtBiCorrected, ""),
    ]));
    Exercise { given: Some(given), answer }
}

fn bisection_stops() -> Exercise {
    let tree = BISECTION.tree();
    let value = value_of(&tree, tree.root_id());
    let printed = literal(&tree, Driver::MtBi, None);
    let corrected = literal(&tree, Driver::MtBiCorrected, None);
    assert_ne!(printed.value, value, "the printed average stops short on this tree");
    assert_eq!(corrected.value, value);
    let bounds = bounds_after(&printed.passes);
    let stuck = printed.passes.len() - 1;
    let (lower, upper) = bounds[stuck - 1];
    assert_eq!(printed.passes[stuck].beta, average_down(upper, lower));
    assert_eq!(bounds[stuck], bounds[stuck - 1], "the last pass changes nothing");
    let mut answer = format!(
        "`mtd-bi-literal`:\n\n{}\nAfter pass {stuck} the bounds are adjacent, [{}, {}]. The next test \
         is at `average({}, {})` = {}, rounded down to `f−`: \"at least {}?\" is already known, the \
         pass fails high at {} again and changes nothing. The printed loop would repeat it forever; \
         the translation stops and returns {}, but the value is {}. Rounded up, the test is at {}, \
         and the corrected driver finds the value:\n\n{}",
        pass_table(&printed.passes),
        show(lower),
        show(upper),
        show(upper),
        show(lower),
        show(printed.passes[stuck].beta),
        show(lower),
        show(printed.passes[stuck].result),
        show(printed.value),
        show(value),
        show(average_up(upper, lower)),
        pass_table(&corrected.passes)
    );
    answer.push_str(&commands(&[
        literal_trace(&BISECTION, Driver::MtBi, ""),
        format!("nullwindow solve {} --algo mtd-bi-literal-corrected", BISECTION.file),
    ]));
    Exercise { given: Some(BISECTION.given()), answer }
}

fn engine_bisection() -> Exercise {
    let tree = THREE_PLY.tree();
    let search = engine(&tree, Algorithm::MtdBi, None);
    assert_eq!(search.value, value_of(&tree, tree.root_id()));
    let mut answer = String::from(
        "| pass | bounds before | test `β` | window | returns | bounds after |\n|---:|---|---:|---|---:|---|\n",
    );
    let mut bounds = (-INFINITY, INFINITY);
    for (index, pass) in search.passes.iter().enumerate() {
        let before = bounds;
        if index > 0 {
            assert_eq!(pass.beta, before.0 + (before.1 - before.0 + 1) / 2, "the midpoint, rounded up");
        }
        bounds = pass.narrow(bounds);
        let _ = writeln!(
            answer,
            "| {} | [{}, {}] | {} | {} | {} | [{}, {}] |",
            index + 1,
            show(before.0),
            show(before.1),
            show(pass.beta),
            window(pass.alpha, pass.beta),
            show(pass.result),
            show(bounds.0),
            show(bounds.1)
        );
    }
    answer.push_str(
        "\nThe first test is at the first guess, the root's evaluation; every later one at \
         `lower + (upper − lower + 1) / 2`. The first midpoint is near ∞/2, a test that only proves \
         the value is not astronomically large; the ones after it halve an interval of real values.\n",
    );
    answer.push_str(&commands(&[engine_trace(&THREE_PLY, Algorithm::MtdBi, "")]));
    Exercise { given: Some(THREE_PLY.given()), answer }
}

// SSS* and DUAL*.
