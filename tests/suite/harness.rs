//! The library harness (`oracle::harness`): a correct engine agrees on every family, and each kind of
//! planted bug is caught and shrunk to a few nodes.

use std::collections::HashMap;

use nullwindow::driver::Perspective;
use nullwindow::game::{Game, Player};
use nullwindow::oracle::harness::{
    Answer, Case, Config, Disagreement, Family, Outcome, fuzz, judge, single_steps,
};
use nullwindow::oracle::record::Record;
use nullwindow::tree::{NodeId, Tree};
use nullwindow::value::{Bound, Value};

/// A planted bug of the test engine, one of each kind the harness should catch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bug {
    None,
    /// At the horizon the evaluation is returned from MAX's side, not the mover's.
    Sign,
    /// A result at or below alpha is stored as exact.
    TableFlag,
    /// A table entry of a shallower search answers a deeper one.
    ShallowerEntry,
    /// MTD(f) gives up after two passes and returns its last bound as the value.
    DriverLoop,
    /// The root's move is kept from the first iteration, not updated by deeper ones.
    ReportedMove,
}

const INF: Value = 1_000_000;

/// Negamax alpha-beta (fail-soft) with a table, driven by MTD(f): an engine as authors write one.
struct Engine<'t> {
    tree: &'t Tree,
    bug: Bug,
    table: HashMap<NodeId, (u32, Value, Bound)>,
    records: Vec<Record<NodeId>>,
    best_move: Option<u32>,
}

impl Engine<'_> {
    /// MTD(f) in iterative deepening, each iteration's value the next one's first guess.
    fn search(tree: &Tree, depth: u32, bug: Bug) -> Answer {
        let mut engine = Engine { tree, bug, table: HashMap::new(), records: Vec::new(), best_move: None };
        let mut guess = 0;
        for iteration in depth.min(1)..=depth {
            guess = engine.mtdf(iteration, guess);
        }
        Answer { best_move: engine.best_move, records: engine.records, ..Answer::value(guess) }
    }

    fn mtdf(&mut self, depth: u32, mut guess: Value) -> Value {
        let (mut lower, mut upper) = (-INF, INF);
        let mut passes = 0;
        while lower < upper {
            passes += 1;
            if self.bug == Bug::DriverLoop && passes > 2 {
                break;
            }
            let beta = guess.max(lower + 1);
            guess = self.negamax(self.tree.root_id(), depth, beta - 1, beta, &mut Vec::new());
            if guess < beta { upper = guess } else { lower = guess }
        }
        guess
    }

    fn negamax(
        &mut self,
        node: NodeId,
        depth: u32,
        mut alpha: Value,
        mut beta: Value,
        path: &mut Vec<u32>,
    ) -> Value {
        let window = (alpha, beta);
        if let Some(&(entry_depth, value, bound)) = self.table.get(&node) {
            let usable = entry_depth == depth || (self.bug == Bug::ShallowerEntry && entry_depth < depth);
            if usable {
                match bound {
                    Bound::Exact => return self.record(node, path, depth, window, value, None),
                    Bound::Lower => alpha = alpha.max(value),
                    Bound::Upper => beta = beta.min(value),
                }
                if alpha >= beta {
                    return self.record(node, path, depth, window, value, None);
                }
            }
        }
        let children = self.tree.children(node).to_vec();
        if depth == 0 || children.is_empty() {
            let value = if self.bug == Bug::Sign && depth == 0 {
                self.tree.evaluate(&node)
            } else {
                self.tree.evaluate_for_mover(&node)
            };
            return self.record(node, path, depth, window, value, None);
        }
        let (mut best, mut best_index) = (-INF, 0);
        for (index, child) in children.into_iter().enumerate() {
            path.push(index as u32);
            let value = -self.negamax(child, depth - 1, -beta, -alpha.max(best), path);
            path.pop();
            if value > best {
                best = value;
                best_index = index as u32;
            }
            if best >= beta {
                break;
            }
        }
        let bound = if best <= alpha {
            if self.bug == Bug::TableFlag { Bound::Exact } else { Bound::Upper }
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        // The root's move is the best of the last pass, when that pass's result is the value: MTD(f)'s
        // last pass fails high on the value, or it is exact.
        let kept_from_before = self.bug == Bug::ReportedMove && self.best_move.is_some();
        if path.is_empty() && best > alpha && !kept_from_before {
            self.best_move = Some(best_index);
        }
        self.table.insert(node, (depth, best, bound));
        self.record(node, path, depth, window, best, Some(bound))
    }

    fn record(
        &mut self,
        node: NodeId,
        path: &[u32],
        depth: u32,
        window: (Value, Value),
        result: Value,
        stored: Option<Bound>,
    ) -> Value {
        self.records.push(Record {
            path: Some(path.to_vec()),
            stored,
            ..Record::new(node, depth, window, result)
        });
        result
    }
}

fn config(cases: u64) -> Config {
    Config { cases, perspective: Perspective::Mover, ..Config::default() }
}

#[test]
fn a_correct_engine_agrees_on_a_thousand_cases_of_every_family() {
    // ANCHOR: fuzz_call
    let config = Config { cases: 1000, perspective: Perspective::Mover, ..Config::default() };
    let outcome =
        fuzz(&config, |case| Ok::<_, String>(Engine::search(&case.tree, case.depth, Bug::None)), |_| {});
    let Outcome::Agreed { agreed, undecided, .. } = outcome else { panic!("{outcome:?}") };
    // ANCHOR_END: fuzz_call
    assert_eq!((agreed, undecided), (1000, 0));
}

#[test]
fn every_kind_of_planted_bug_is_caught_and_shrunk_to_a_few_nodes() {
    for (bug, most_nodes) in [
        (Bug::Sign, 3),
        (Bug::TableFlag, 7),
        (Bug::ShallowerEntry, 7),
        (Bug::DriverLoop, 7),
        (Bug::ReportedMove, 5),
    ] {
        let outcome =
            fuzz(&config(1000), |case| Ok::<_, String>(Engine::search(&case.tree, case.depth, bug)), |_| {});
        let Outcome::Disagreed(found) = outcome else { panic!("{bug:?} not caught: {outcome:?}") };
        let nodes = found.shrunk.tree.stats().nodes;
        assert!(nodes <= most_nodes, "{bug:?} shrunk to {nodes} nodes only:\n{}", found.report());
        // The shrunk case still disagrees, as reported.
        let answer = Engine::search(&found.shrunk.tree, found.shrunk.depth, bug);
        assert_eq!(
            judge(&found.shrunk, &answer, &config(1)),
            Ok(Some(found.disagreement.clone())),
            "{bug:?}"
        );
        let kind_is_right = match bug {
            // Every node of a wrong driver loop is honest: the root's answer shows it, no record.
            Bug::DriverLoop => !matches!(found.disagreement, Disagreement::Record { .. }),
            Bug::ReportedMove => matches!(found.disagreement, Disagreement::WrongMove { .. }),
            _ => true,
        };
        assert!(kind_is_right, "{bug:?}: {}", found.report());
        // 1-minimal: no single step of the shrink's repertoire disagrees the same way.
        for step in single_steps(&found.shrunk) {
            let answer = Engine::search(&step.tree, step.depth, bug);
            if let Ok(Some(disagreement)) = judge(&step, &answer, &config(1)) {
                assert!(
                    !disagreement.same_kind(&found.disagreement),
                    "{bug:?}: {} at depth {} is one step from the result and still disagrees: {disagreement:?}\n{}",
                    step.tree,
                    step.depth,
                    found.report()
                );
            }
        }
    }
}

/// Without depth 0 no case is drawn there, and no shrink goes there: an engine that fails at depth
/// 0 (it has no move to play) is never asked, and a bug is still shrunk, to depth 1.
#[test]
fn without_depth_zero_no_case_and_no_shrink_step_goes_there() {
    let without = Config { depth_zero: false, ..config(1000) };
    let engine = |case: &Case| {
        if case.depth == 0 {
            return Err("no move to play at depth 0".to_owned());
        }
        Ok(Engine::search(&case.tree, case.depth, Bug::Sign))
    };
    let outcome = fuzz(&without, engine, |_| {});
    let Outcome::Disagreed(found) = outcome else { panic!("{outcome:?}") };
    assert_eq!(found.shrunk.depth, 1, "{}", found.report());
    let everything_right = fuzz(
        &without,
        |case: &Case| engine(case).map(|_| Engine::search(&case.tree, case.depth, Bug::None)),
        |_| {},
    );
    assert!(matches!(everything_right, Outcome::Agreed { agreed: 1000, .. }), "{everything_right:?}");
    // By default one case in ten or so is at depth 0, and that engine fails on it.
    let Outcome::EngineFailed { .. } = fuzz(
        &config(1000),
        |case: &Case| engine(case).map(|_| Engine::search(&case.tree, case.depth, Bug::None)),
        |_| {},
    ) else {
        panic!("depth 0 was never drawn")
    };
}

/// An engine that answers a case one way and then another (here: wrong on every other call) is
/// reported on the case as drawn, not shrunk: a shrink would follow its coin, not its bug.
#[test]
fn an_engine_that_answers_a_case_two_ways_is_reported_unshrunk() {
    let mut calls = 0u64;
    let coin = |case: &Case| {
        calls += 1;
        let bug = if calls % 2 == 1 && case.depth > 0 { Bug::Sign } else { Bug::None };
        Ok::<_, String>(Engine::search(&case.tree, case.depth, bug))
    };
    let Outcome::Disagreed(found) = fuzz(&config(1000), coin, |_| {}) else {
        panic!("the coin never came up wrong")
    };
    assert!(!found.steady);
    assert_eq!(found.shrunk, found.original);
    assert!(
        found.report().contains("not shrunk: asked again, the engine answered it another way"),
        "{}",
        found.report()
    );
    // A steady engine is shrunk as before.
    let steady = |case: &Case| Ok::<_, String>(Engine::search(&case.tree, case.depth, Bug::Sign));
    let Outcome::Disagreed(found) = fuzz(&config(1000), steady, |_| {}) else { panic!() };
    assert!(found.steady && found.shrunk != found.original, "{}", found.report());
}

#[test]
fn cases_are_drawn_again_equal_from_the_seed_and_cycle_through_the_families() {
    let config = Config { seed: 42, ..Config::default() };
    for index in 0..20 {
        let case = config.case(index).unwrap();
        assert_eq!(case, config.case(index).unwrap());
        assert!(case.depth <= case.tree.height());
        let family = Family::ALL[(index % 5) as usize];
        assert!(case.origin.starts_with(family.name()), "{}", case.origin);
        // The case's own text reads back to it, in the format its extension names.
        let text = case.tree.to_string();
        assert_eq!(text.parse::<Tree>().unwrap(), case.tree);
        assert_eq!(case.extension() == "tree", text.starts_with('(') || !text.contains(' '));
    }
    let other = Config { seed: 43, ..Config::default() };
    assert!((0..20).any(|index| other.case(index).unwrap() != config.case(index).unwrap()));
}

#[test]
fn an_engine_that_cannot_answer_has_failed_and_a_bad_configuration_says_why() {
    let outcome = fuzz(
        &config(10),
        |case: &Case| if case.depth > 1 { Err("crashed") } else { Ok(Answer::value(0)) },
        |_| {},
    );
    assert!(
        matches!(outcome, Outcome::EngineFailed { error: "crashed", .. } | Outcome::Disagreed(_)),
        "{outcome:?}"
    );
    let own = Config { families: vec![Family::Own], ..Config::default() };
    let Outcome::Config(error) = fuzz(&own, |_| Ok::<_, String>(Answer::value(0)), |_| {}) else { panic!() };
    assert_eq!(error.to_string(), "the family 'own' needs a game of your own (nullwindow fuzz --engine)");
    let empty = Config { families: Vec::new(), ..Config::default() };
    let Outcome::Config(error) = fuzz(&empty, |_| Ok::<_, String>(Answer::value(0)), |_| {}) else {
        panic!()
    };
    assert_eq!(error.to_string(), "no family of cases chosen");
    assert_eq!(
        "chess".parse::<Family>().unwrap_err(),
        "no family 'chess'; the families are trees, evaluated, graphs, tictactoe, connect4, own"
    );
}

#[test]
fn with_deeper_entries_a_value_some_extension_gives_is_accepted_and_others_are_not() {
    // A root with two leaves at depth 1, one interior MIN child whose evaluation (5) differs from
    // what lies below it (1): searched to depth 1 the value is max(3, 5) = 5; a deeper entry could
    // give max(3, 1) = 3.
    let tree = nullwindow::tree::gtree::parse("r 0 W a b\na 3 B\nb 5 B c\nc 1 W\n").unwrap();
    let case = Case { tree, depth: 1, origin: "by hand".to_owned() };
    let exact = Config { perspective: Perspective::Max, ..Config::default() };
    let deeper = Config { deeper_entries: true, ..exact.clone() };
    assert_eq!(judge(&case, &Answer::value(5), &exact), Ok(None));
    // Judged exactly, 3 is wrong, but a deeper entry explains it, and the message says so; 4 no
    // extension gives, and its message says nothing of deeper entries.
    let wrong = judge(&case, &Answer::value(3), &exact).unwrap().unwrap();
    assert!(matches!(wrong, Disagreement::Value { exact: 5, deeper_explains: true, .. }));
    assert!(wrong.describe(Perspective::Max, Player::Max).ends_with("judge it with --deeper-entries"));
    let wrong = judge(&case, &Answer::value(4), &exact).unwrap().unwrap();
    assert!(matches!(wrong, Disagreement::Value { deeper_explains: false, .. }));
    assert!(!wrong.describe(Perspective::Max, Player::Max).contains("deeper"));
    // A record the same way: the MIN child, searched 0 plies deep, returns and stores as exact the
    // value 1 that lies below it.
    let [_, b] = case.tree.children(case.tree.root_id()) else { unreachable!() };
    let record = Record { path: Some(vec![1]), stored: Some(Bound::Exact), ..Record::new(*b, 0, (-9, 9), 1) };
    let answered = Answer { records: vec![record], ..Answer::value(5) };
    let wrong = judge(&case, &answered, &exact).unwrap().unwrap();
    assert!(matches!(wrong, Disagreement::Record { deeper_explains: true, .. }), "{wrong:?}");
    assert_eq!(judge(&case, &answered, &deeper), Ok(None));
    assert_eq!(judge(&case, &Answer::value(3), &deeper), Ok(None));
    assert!(matches!(
        judge(&case, &Answer::value(4), &deeper),
        Ok(Some(Disagreement::Value { extensions: Some((3, 5)), .. }))
    ));
    // The move is judged too: move 0 keeps 3, not 5.
    let moved = Answer { best_move: Some(0), ..Answer::value(5) };
    assert!(matches!(judge(&case, &moved, &exact), Ok(Some(Disagreement::WrongMove { best: 1, .. }))));
    let nowhere = Answer { best_move: Some(2), ..Answer::value(5) };
    assert_eq!(judge(&case, &nowhere, &exact), Ok(Some(Disagreement::NoSuchMove { played: 2, children: 2 })));
}

/// A panic in the engine is caught and reported with its message, not let through; a case the
/// engine declines is counted, never judged.
#[test]
fn a_panic_is_a_failure_and_a_declined_case_is_counted() {
    let exact = |case: &Case| {
        nullwindow::reference::minimax::search(&case.tree, &case.tree.root_id(), case.depth).value
    };
    let config = Config { cases: 60, ..Config::default() };
    let outcome = fuzz(
        &config,
        |case| {
            assert!(case.depth != 2, "the engine broke at depth 2");
            Ok::<_, String>(Answer::value(exact(case)))
        },
        |_| {},
    );
    let Outcome::Panicked { case, message, .. } = outcome else { panic!("{outcome:?}") };
    assert_eq!((case.depth, message.as_str()), (2, "the engine broke at depth 2"));
    let declining =
        fuzz(&config, |case| Ok::<_, String>((case.depth > 0).then(|| Answer::value(exact(case)))), |_| {});
    let Outcome::Agreed { agreed, undecided: 0, skipped } = declining else { panic!("{declining:?}") };
    assert!(skipped > 0 && agreed + skipped == 60, "{agreed} {skipped}");
}

/// With `Config::keep_going` the library runs every case and shrinks the first of each kind.
#[test]
fn keep_going_shrinks_the_first_case_of_each_kind() {
    let config = Config { keep_going: true, cases: 300, ..Config::default() };
    let outcome =
        fuzz(&config, |case| Ok::<_, String>(Engine::search(&case.tree, case.depth, Bug::Sign)), |_| {});
    let Outcome::Several(several) = outcome else { panic!("{outcome:?}") };
    assert!(!several.kinds.is_empty());
    let total: u64 = several.kinds.iter().map(|kind| kind.count).sum();
    assert_eq!(several.agreed + several.undecided + several.skipped + total, 300);
    for kind in &several.kinds {
        let Ok(found) = &kind.first else { panic!("{kind:?}") };
        assert_eq!(found.disagreement.kind_name(), kind.name);
        assert!(found.shrunk.tree.stats().nodes <= 7, "{}", found.report());
    }
}

/// `nullwindow fuzz` driving the example engines in Python and JavaScript, and each way it ends.
#[cfg(feature = "cli")]
mod command_line {
    use std::path::PathBuf;
    use std::process::{Command, Output, Stdio};

    fn nullwindow(args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_nullwindow"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }

    /// Where a test saves its case: the system's temporary directory, a name of its own.
    fn saved(name: &str) -> String {
        let path: PathBuf = std::env::temp_dir().join(format!("nullwindow-{}-{name}", std::process::id()));
        path.to_str().unwrap().to_owned()
    }

    /// The example engines and how `fuzz` runs them: persistent, one process a run and a line a
    /// case (a process a case costs a tenth of a second here; the book's session runs that way).
    fn engines() -> [(&'static str, String, &'static [&'static str]); 2] {
        let python = "python3 examples/python/mtdf_engine.py --persistent";
        let javascript = "node examples/javascript/mtdf_engine.mjs --persistent";
        [
            ("python", python.to_owned(), &["--persistent"]),
            ("javascript", javascript.to_owned(), &["--persistent"]),
        ]
    }

    const BUGS: [&str; 5] = ["sign", "table-flag", "shallower-entry", "driver-loop", "reported-move"];

    /// A thousand cases of each, and a few of the JavaScript engine run a process a case, as its
    /// header shows.
    #[test]
    fn the_example_engines_agree_on_every_case_without_their_bugs() {
        let one_a_case = "node examples/javascript/mtdf_engine.mjs {} {depth} --trace {trace}";
        let runs = engines()
            .into_iter()
            .map(|(language, command, mode)| (language, command, mode, "1000"))
            .chain([("javascript, a process a case", one_a_case.to_owned(), &[][..], "20")]);
        for (language, command, mode, cases) in runs {
            let output = nullwindow(
                &[&["fuzz", "--values", "side-to-move", "--command", &command, "--cases", cases][..], mode]
                    .concat(),
            );
            let stdout = String::from_utf8(output.stdout).unwrap();
            assert_eq!(
                output.status.code(),
                Some(0),
                "{language}: {stdout}{}",
                String::from_utf8_lossy(&output.stderr)
            );
            assert_eq!(
                stdout,
                format!(
                    "agreed: {cases} cases of {cases} (trees, evaluated, graphs, tictactoe, connect4), seed 0\n"
                )
            );
        }
    }

    #[test]
    fn every_planted_bug_of_the_python_engine_is_caught_shrunk_and_reproduced() {
        every_planted_bug_is_caught_shrunk_and_reproduced("python");
    }

    #[test]
    fn every_planted_bug_of_the_javascript_engine_is_caught_shrunk_and_reproduced() {
        every_planted_bug_is_caught_shrunk_and_reproduced("javascript");
    }

    /// The run the book shows: the Python engine's shallower entry, caught in its records (run
    /// persistent; a process a case finds the same, in a hundred times the time).
    #[test]
    fn the_books_fuzz_session() {
        let save = saved("book");
        let command = "python3 examples/python/mtdf_engine.py --persistent --bug shallower-entry";
        let output = nullwindow(&[
            "fuzz",
            "--values",
            "side-to-move",
            "--save",
            &save,
            "--persistent",
            "--command",
            command,
        ]);
        assert_eq!(output.status.code(), Some(1));
        let shown = String::from_utf8(output.stdout)
            .unwrap()
            .replace(&save, "failing")
            .replace(env!("CARGO_BIN_EXE_nullwindow"), "nullwindow");
        let _ = std::fs::remove_file(format!("{save}.gtree"));
        insta::assert_snapshot!(format!(
            "$ nullwindow fuzz --values side-to-move --save failing --persistent --command '{command}'\n{shown}"
        ));
    }

    /// Each planted bug is caught, shrunk to a few nodes and saved, and the `reproduce:` line shows
    /// it again with exit 1.
    fn every_planted_bug_is_caught_shrunk_and_reproduced(chosen: &str) {
        for (language, command, mode) in engines().into_iter().filter(|(language, ..)| *language == chosen) {
            for bug in BUGS {
                let command = format!("{command} --bug {bug}");
                let save = saved(&format!("{language}-{bug}"));
                let output = nullwindow(
                    &[
                        &["fuzz", "--values", "side-to-move", "--command", &command, "--save", &save][..],
                        mode,
                    ]
                    .concat(),
                );
                let stdout = String::from_utf8(output.stdout).unwrap();
                assert_eq!(output.status.code(), Some(1), "{language} {bug}: {stdout}");
                let lines: Vec<&str> = stdout.lines().collect();
                let saved_line = lines.iter().find_map(|line| line.strip_prefix("saved: ")).unwrap();
                let tree: nullwindow::tree::Tree =
                    std::fs::read_to_string(saved_line).unwrap().parse().unwrap();
                assert!(tree.stats().nodes <= 7, "{language} {bug}: {stdout}");
                let reproduce = lines.last().unwrap().strip_prefix("reproduce: ").unwrap();
                let again = Command::new("sh")
                    .args(["-c", reproduce])
                    .current_dir(env!("CARGO_MANIFEST_DIR"))
                    .output()
                    .unwrap();
                assert_eq!(again.status.code(), Some(1), "{language} {bug}: {reproduce}");
                assert!(String::from_utf8(again.stdout).unwrap().starts_with("disagreement: "));
                let _ = std::fs::remove_file(saved_line);
            }
        }
    }

    /// An engine that exits non-zero, prints garbage, or hangs has failed (exit 3), with its own words
    /// and the case saved; bad options exit 2.
    #[test]
    fn engine_failures_and_bad_options_have_their_own_exit_status() {
        let save = saved("failure");
        let run = |command: &str, extra: &[&str]| {
            let mut args = vec!["fuzz", "--command", command, "--save", &save];
            args.extend_from_slice(extra);
            let output = nullwindow(&args);
            (output.status.code(), String::from_utf8(output.stderr).unwrap())
        };
        let (code, stderr) = run("echo broken >&2; exit 4; : {}", &[]);
        assert_eq!(code, Some(3));
        assert!(
            stderr.starts_with("error: case 0 (trees, seed ")
                && stderr.contains("the engine exited 4 (it said: broken)"),
            "{stderr}"
        );
        assert!(stderr.contains(&format!("saved: {save}.tree\nreproduce: ")), "{stderr}");
        let (code, stderr) = run("echo 'value: 3' # {}", &[]);
        assert_eq!(code, Some(3));
        assert!(
            stderr.contains("the engine's answer 'value: 3' does not start with a whole number")
                && !stderr.contains("scale them away"),
            "{stderr}"
        );
        // A fractional score is told why it cannot be judged, and what to do.
        let (code, stderr) = run("echo 15.015 2 # {}", &[]);
        assert_eq!(code, Some(3));
        assert!(stderr.contains("'15.015 2' does not start with a whole number, the root's value: the cases' values are whole numbers"), "{stderr}");
        let (code, stderr) = run("sleep 5 # {}", &["--timeout", "0.2"]);
        assert_eq!(code, Some(3));
        assert!(stderr.contains("the engine ran past --timeout 0.2 s"), "{stderr}");
        let (code, stderr) = run("echo '{\"path\": [7]}' > {trace}; echo 0 # {}", &[]);
        assert_eq!(code, Some(3));
        assert!(stderr.contains("the engine's records: trace:1"), "{stderr}");
        let _ = std::fs::remove_file(format!("{save}.tree"));
        for (args, message) in [
            (vec!["--command", "echo 0"], "error: --command has no {}"),
            (vec!["--command", "echo 0 {}", "--family", "chess"], "error: --family: no family 'chess'"),
            (
                vec!["--command", "echo 0 {}", "--height", "0..13"],
                "error: the height must be a range within 0 to 12",
            ),
            (vec!["--command", "echo 0 {}", "--timeout", "0"], "error: --timeout 0: a run needs some time"),
        ] {
            let output = nullwindow(&[&["fuzz"], &args[..]].concat());
            assert_eq!(output.status.code(), Some(2), "{args:?}");
            assert!(String::from_utf8(output.stderr).unwrap().starts_with(message), "{args:?}");
        }
    }

    /// A constant engine that is right on one case: --replay judges that file alone.
    #[test]
    fn replay_judges_one_file() {
        let file = saved("replay.tree");
        std::fs::write(&file, "((3 17) (2 12))\n").unwrap();
        for (answer, code, start) in
            [("3", 0, "agreed: "), ("4", 1, "disagreement: "), ("3 1", 1, "disagreement: ")]
        {
            let command = format!("echo {answer} # {{}}");
            let output = nullwindow(&["fuzz", "--replay", &file, "--depth", "2", "--command", &command]);
            assert_eq!(output.status.code(), Some(code), "{answer}");
            assert!(String::from_utf8(output.stdout).unwrap().starts_with(start), "{answer}");
        }
        let _ = std::fs::remove_file(&file);
    }

    /// A persistent engine is started once for the whole run and again after a failure, which the
    /// run reports; a case it declines (`skip`) is counted and never a failure; declining every case
    /// is an error (exit 2).
    #[test]
    fn a_persistent_engine_runs_once_is_started_again_after_a_failure_and_may_decline() {
        // Declines depth 0, answers 0 otherwise; every leaf is 0.
        let declining = "python3 -c \"
import sys
for line in sys.stdin:
    r = line.split()
    if r[0] == 'quit': break
    print('skip' if r[2] == '0' else 0, flush=True)
\"";
        let zero = ["--family", "trees", "--range", "0..0", "--persistent", "--cases", "60"];
        let output = nullwindow(&[&["fuzz", "--command", declining][..], &zero].concat());
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert_eq!(output.status.code(), Some(0), "{stdout}");
        let skipped: u64 =
            stdout.split("; ").nth(1).and_then(|part| part.split(' ').next()).unwrap().parse().unwrap();
        assert!(
            stdout.starts_with(&format!("agreed: {} cases of 60", 60 - skipped)) && skipped > 0,
            "{stdout}"
        );
        let always = "python3 -c \"
import sys
for line in sys.stdin:
    if line.startswith('quit'): break
    print('skip', flush=True)
\"";
        // Whether or not the run goes on past findings, it judged nothing, and says so.
        for keep_going in [&[][..], &["--keep-going"]] {
            let output = nullwindow(&[&["fuzz", "--command", always][..], &zero, keep_going].concat());
            assert_eq!(output.status.code(), Some(2));
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(
                stderr.contains("the engine declined every case (60 cases of 60, trees): nothing was judged"),
                "{stderr}"
            );
        }
        // The sign bug, and a crash on every one-node tree: shrinking meets the crash, starts the
        // engine again, and says so.
        let crashing = "python3 examples/python/mtdf_engine.py --persistent --bug sign";
        let wrapper = format!(
            "python3 -c \"
import subprocess, sys
engine = subprocess.Popen('{crashing}', shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for line in sys.stdin:
    if line.startswith('quit'): break
    if open(line.split()[1]).read().strip().lstrip('-').isdigit(): sys.exit(3)
    engine.stdin.write(line); engine.stdin.flush()
    print(engine.stdout.readline().strip(), flush=True)
\""
        );
        let save = saved("persistent-crash");
        let output = nullwindow(&[
            "fuzz",
            "--values",
            "side-to-move",
            "--persistent",
            "--save",
            &save,
            "--command",
            &wrapper,
        ]);
        let (stdout, stderr) =
            (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
        assert!(stderr.contains("note: the persistent engine was started again"), "{stderr}");
        assert!(stdout.lines().last().unwrap().ends_with("--persistent --values side-to-move"), "{stdout}");
        let _ = std::fs::remove_file(format!("{save}.tree"));
        let _ = std::fs::remove_file(format!("{save}.gtree"));
    }

    /// With --keep-going one run finds every kind of bug an engine has: the table-flag bug gives
    /// both a wrong move and a broken stored rule, each shrunk, saved and reproduced on its own, and
    /// counted.
    #[test]
    fn keep_going_reports_every_kind_of_disagreement_in_one_run() {
        let save = saved("keep-going");
        let command = "python3 examples/python/mtdf_engine.py --persistent --bug table-flag";
        let args = [
            "fuzz",
            "--keep-going",
            "--values",
            "side-to-move",
            "--persistent",
            "--save",
            &save,
            "--command",
            command,
        ];
        let output = nullwindow(&args);
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert_eq!(output.status.code(), Some(1), "{stdout}");
        let kinds: Vec<&str> = stdout.lines().filter(|line| line.starts_with("disagreement, ")).collect();
        assert!(kinds.len() >= 2, "{stdout}");
        assert!(kinds.iter().any(|line| line.starts_with("disagreement, the stored rule (")), "{stdout}");
        assert!(stdout.lines().last().unwrap().starts_with(&format!("kinds: {} (", kinds.len())), "{stdout}");
        for (number, reproduce) in
            stdout.lines().filter_map(|line| line.strip_prefix("reproduce: ")).enumerate()
        {
            let again = Command::new("sh")
                .args(["-c", reproduce])
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .output()
                .unwrap();
            assert_eq!(again.status.code(), Some(1), "{reproduce}");
            let _ = std::fs::remove_file(format!("{save}-{}.tree", number + 1));
            let _ = std::fs::remove_file(format!("{save}-{}.gtree", number + 1));
        }
    }
}

proptest::proptest! {
    /// Delta debugging over an engine's history: for a bug that needs some earlier searches (any
    /// one of several sets of them, each in order), the history it keeps still shows the bug, and
    /// leaving out any one search of it loses the bug (1-minimal), within a test count that stays
    /// far below trying every subset.
    #[test]
    fn a_minimized_history_is_wrong_and_one_minimal(
        length in 0usize..60,
        needs in proptest::collection::vec(proptest::collection::btree_set(0u32..60, 0..4), 1..4),
    ) {
        let history: Vec<u32> = (0..length as u32).collect();
        let wrong = |earlier: &[u32]| needs.iter().any(|set| set.iter().all(|x| earlier.contains(x)));
        proptest::prop_assume!(wrong(&history));
        let found = nullwindow::oracle::harness::minimize_history(&history, wrong, 100_000);
        proptest::prop_assert!(found.minimal);
        proptest::prop_assert!(wrong(&found.kept));
        proptest::prop_assert!(found.kept.windows(2).all(|pair| pair[0] < pair[1]), "kept in order");
        for left_out in 0..found.kept.len() {
            let mut fewer = found.kept.clone();
            fewer.remove(left_out);
            proptest::prop_assert!(!wrong(&fewer), "{:?} without its search {left_out}", found.kept);
        }
        // ddmin's worst case is quadratic in the history; a bug of a few searches costs far less.
        proptest::prop_assert!(found.tests <= 1 + 4 * 4 * (length as u64 + 1) * 8, "{} tests", found.tests);
    }
}

/// A history cut short by its test budget says it is not minimal, and still shows the bug.
#[test]
fn a_history_out_of_tests_is_not_called_minimal() {
    let history: Vec<u32> = (0..64).collect();
    let wrong = |earlier: &[u32]| earlier.contains(&5) && earlier.contains(&60);
    let found = nullwindow::oracle::harness::minimize_history(&history, wrong, 3);
    assert!(!found.minimal && wrong(&found.kept), "{found:?}");
    assert_eq!(found.tests, 3);
    let found = nullwindow::oracle::harness::minimize_history(&history, wrong, 1000);
    assert_eq!((found.kept, found.minimal), (vec![5, 60], true));
}
