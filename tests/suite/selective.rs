//! Selective engines (`fuzz --engine --selective`, `--off`, `audit --self`): the example engine
//! with late move reductions and null-move pruning is exact with its features off, keeps the rules
//! of its own search with them on, is caught at the node where a planted table bug acts, and its
//! selectivity profile is what its own answers make it.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::time::Duration;

use nullwindow::game::Game;
use nullwindow::oracle::harness::Config;
use nullwindow::oracle::protocol::{Searched, Served, ServedGame};
use nullwindow::reference::minimax;

use super::hostile::{SECONDS, Scratch, run};

/// The example engine with `lmr` and `nullmove` switches.
const PRUNING: &str = include_str!("../../examples/protocol/pruning.py");

fn engine(scratch: &Scratch, bug: &str) -> String {
    let script = scratch.file("pruning.py");
    std::fs::write(&script, PRUNING).unwrap();
    format!("python3 {script} --bug {bug}")
}

/// With every feature off the engine is a plain principal variation search, and exact.
#[test]
fn with_its_features_off_the_engine_is_exact() {
    let scratch = Scratch::new("pruning-off");
    let engine = engine(&scratch, "none");
    let fuzz = ["fuzz", "--engine", &engine, "--off", "all", "--cases", "60", "--height", "1..5"];
    let (code, stdout, stderr) = run(&scratch, &fuzz, SECONDS);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(stdout.starts_with("agreed: 60 cases of 60"), "{stdout}");
    // With them on it prunes, and the exact oracle says so: a disagreement it cannot tell from a bug.
    let on = ["fuzz", "--engine", &engine, "--cases", "60", "--height", "1..5"];
    let (code, stdout, stderr) = run(&scratch, &on, SECONDS);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
}

/// The profile's lines for each depth, read back: (cases, values that differ, moves measured,
/// moves worse).
fn profile_of(stdout: &str) -> BTreeMap<u32, [u64; 4]> {
    let number =
        |text: &str| text.trim().split(|c: char| !c.is_ascii_digit()).next().unwrap().parse::<u64>().unwrap();
    stdout
        .lines()
        .filter_map(|line| line.trim().strip_prefix("depth "))
        .map(|line| {
            let (depth, rest) = line.split_once(": ").unwrap();
            let cases = number(rest);
            let differ = number(rest.split_once("value differs in ").unwrap().1);
            let (worse, measured) = rest.split_once("move worse in ").unwrap().1.split_once(" of ").unwrap();
            (depth.parse().unwrap(), [cases, differ, number(measured), number(worse)])
        })
        .collect()
}

/// With its features on the engine keeps every rule of its own search, and the profile it prints
/// is the one its answers make: recomputed here from the engine's own answers, asked again over
/// the protocol, and the exact values by plain minimax.
#[test]
fn with_its_features_on_the_rules_hold_and_the_profile_is_the_engines() {
    let scratch = Scratch::new("pruning-on");
    let engine = engine(&scratch, "none");
    let svg = scratch.file("profile.svg");
    let fuzz = [
        "fuzz",
        "--engine",
        &engine,
        "--selective",
        "--cases",
        "40",
        "--height",
        "1..5",
        "--seed",
        "3",
        "--profile-svg",
        &svg,
    ];
    let (code, stdout, stderr) = run(&scratch, &fuzz, SECONDS);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(stdout.starts_with("consistent: 40 cases of 40"), "{stdout}");
    // The table by depth calls the cases that hold what the last line calls them.
    let header = stderr.lines().find(|line| line.starts_with("cases ")).unwrap_or_default();
    assert!(header.contains(" consistent ") && !header.contains(" agreed"), "{stderr}");
    let printed = profile_of(&stdout);
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"), "{stdout}");

    let served = Served::start(&engine, Duration::from_secs(10)).unwrap();
    let game = ServedGame::new(served);
    let config = Config { seed: 3, cases: 40, height: 1..=5, walk: 1000, ..Config::default() };
    let mut expected: BTreeMap<u32, [u64; 4]> = BTreeMap::new();
    let mut memo = HashMap::new();
    for index in 0..config.cases {
        let case = config.game_case(&game, index);
        let token = game.token(&case.position);
        let Searched::Value { value, best_move } = game.served().search(&token, case.depth, None).unwrap()
        else {
            panic!("the engine declined {token}")
        };
        let exact = minimax::value(&game, &case.position, case.depth, &mut memo, u64::MAX).unwrap();
        let exact = game.to_move(&case.position).perspective(exact);
        let tally = expected.entry(case.depth).or_default();
        tally[0] += 1;
        tally[1] += u64::from(value != exact);
        if let Some(index) = best_move {
            let mv = game.legal_moves(&case.position)[index as usize];
            let child = game.play(&case.position, mv);
            let after = minimax::value(&game, &child, case.depth - 1, &mut memo, u64::MAX).unwrap();
            // Sides alternate: the child's value from the side to move at the case.
            let after = -game.to_move(&child).perspective(after);
            tally[2] += 1;
            tally[3] += u64::from(after < exact);
        }
    }
    assert_eq!(printed, expected, "{stdout}");
    assert!(expected.values().any(|tally| tally[1] > 0), "the features prune nothing here: {stdout}");
}

/// The py-draughts bug: the table's bound kinds swapped. With the features on, the exact oracle
/// cannot tell it from pruning; the rules find it where the engine stores, followed down the game,
/// and the `reproduce:` line shows it again.
#[test]
fn swapped_bound_kinds_are_found_at_their_node_with_the_features_on() {
    let scratch = Scratch::new("pruning-swapped");
    let engine = engine(&scratch, "swapped-bounds");
    let fuzz = ["fuzz", "--engine", &engine, "--selective", "--cases", "40", "--height", "1..5"];
    let (code, stdout, stderr) = run(&scratch, &fuzz, SECONDS);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("(the stored-kind rule)"), "{stdout}");
    assert!(
        stdout.contains("a fail-low result, an upper bound, but stored it as a lower bound")
            || stdout.contains("a fail-high result, a lower bound, but stored it as an upper bound"),
        "{stdout}"
    );
    assert!(stdout.contains("--selective"), "the reproduce line carries --selective: {stdout}");
    let (code, replayed) = super::hostile::reproduce(&scratch, &stdout);
    assert_eq!(code, Some(1), "{replayed}");
}

/// A null-move cut-off stored as exact acts only with null-move pruning on: the exact oracle
/// with the features off has nothing to find, and the rules find it with them on.
#[test]
fn a_bug_in_the_null_move_is_found_only_with_the_feature_on() {
    let scratch = Scratch::new("pruning-null");
    let engine = engine(&scratch, "null-exact");
    let off = ["fuzz", "--engine", &engine, "--off", "all", "--cases", "40", "--height", "1..5"];
    let (code, stdout, stderr) = run(&scratch, &off, SECONDS);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    let on = ["fuzz", "--engine", &engine, "--selective", "--cases", "40", "--height", "1..5"];
    let (code, stdout, stderr) = run(&scratch, &on, SECONDS);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("a fail-high result, a lower bound, but stored it as an exact value"),
        "{stdout}"
    );
}

/// --max-worse-moves makes the profile a verdict; what does not apply is refused in one line.
#[test]
fn max_worse_moves_is_a_verdict_and_misuse_is_refused() {
    let scratch = Scratch::new("pruning-verdict");
    let engine = engine(&scratch, "none");
    let base = ["fuzz", "--engine", &engine, "--selective", "--cases", "40", "--height", "3..5"];
    let strict = [&base[..], &["--max-worse-moves", "0%"]].concat();
    let (code, stdout, stderr) = run(&scratch, &strict, SECONDS);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("too selective: "), "{stdout}");
    let lenient = [&base[..], &["--max-worse-moves", "100"]].concat();
    let (code, stdout, stderr) = run(&scratch, &lenient, SECONDS);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("within --max-worse-moves 100%"), "{stdout}");

    let tictactoe = format!("python3 {}", Path::new("examples/protocol/tictactoe.py").display());
    let (code, _, stderr) = run(&scratch, &["fuzz", "--engine", &tictactoe, "--selective"], SECONDS);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("the engine must announce 'mover'"), "{stderr}");
    let deeper = ["fuzz", "--engine", &engine, "--selective", "--deeper-entries"];
    let (code, _, stderr) = run(&scratch, &deeper, SECONDS);
    assert_eq!((code, stderr.lines().count()), (Some(2), 1), "{stderr}");
    let (code, _, stderr) = run(&scratch, &["fuzz", "--engine", &engine, "--max-worse-moves", "5%"], SECONDS);
    assert_eq!(code, Some(2), "{stderr}");
    let one = [
        "fuzz",
        "--engine",
        &engine,
        "--selective",
        "--position",
        "1",
        "--depth",
        "3",
        "--max-worse-moves",
        "5",
    ];
    let (code, _, stderr) = run(&scratch, &one, SECONDS);
    assert_eq!((code, stderr.lines().count()), (Some(2), 1), "{stderr}");
    assert!(stderr.contains("--position and --session judge one search"), "{stderr}");
}

/// Where the book's plot of the example engine's selectivity is committed.
const PROFILE_FIGURE: &str = "book/src/figures/selective-profile.svg";

/// The runs the book's "Selective search" chapter shows, as a reader would type them: each output
/// a snapshot the chapter includes, and the profile's plot the figure it shows (written again with
/// `NULLWINDOW_UPDATE_FIGURES=1`).
#[test]
fn the_books_selective_runs() {
    let scratch = Scratch::new("book-selective");
    let binary = env!("CARGO_BIN_EXE_nullwindow");
    let manifest = env!("CARGO_MANIFEST_DIR");
    let svg = scratch.file("selective-profile.svg");
    let runs = [
        (
            "profile",
            "python3 examples/protocol/pruning.py",
            &["--selective", "--cases", "200", "--height", "1..6", "--profile-svg", "selective-profile.svg"]
                [..],
            0,
        ),
        (
            "null_off",
            "python3 examples/protocol/pruning.py --bug null-exact",
            &["--off", "all", "--height", "1..6", "--cases", "300"][..],
            0,
        ),
        ("null_exact", "python3 examples/protocol/pruning.py --bug null-exact", &["--height", "1..6"][..], 1),
        (
            "null_selective",
            "python3 examples/protocol/pruning.py --bug null-exact",
            &["--selective", "--height", "1..6"][..],
            1,
        ),
        (
            "relation",
            "python3 examples/protocol/pruning.py --bug lopsided",
            &["--off", "all", "--height", "1..5"][..],
            1,
        ),
        (
            "swapped",
            "python3 examples/protocol/pruning.py --bug swapped-bounds",
            &["--selective", "--height", "1..6"][..],
            1,
        ),
    ];
    for (name, engine, extra, expected) in runs {
        let runnable = engine.replace("examples/", &format!("{manifest}/examples/"));
        let output = std::process::Command::new(binary)
            .args([&["fuzz", "--engine", &runnable, "--quiet"][..], extra].concat())
            .current_dir(&scratch.0)
            .output()
            .unwrap();
        let stdout = String::from_utf8(output.stdout)
            .unwrap()
            .replace(&runnable, engine)
            .replace(binary, "nullwindow");
        assert_eq!(output.status.code(), Some(expected), "{stdout}");
        let shown = format!("$ nullwindow fuzz --engine '{engine}' {}\n{stdout}", extra.join(" "));
        insta::assert_snapshot!(name, shown.trim_end());
    }
    let drawn = std::fs::read_to_string(&svg).unwrap();
    let figure = std::path::Path::new(manifest).join(PROFILE_FIGURE);
    if std::env::var_os("NULLWINDOW_UPDATE_FIGURES").is_some() {
        std::fs::write(&figure, &drawn).unwrap();
    }
    assert!(
        std::fs::read_to_string(&figure).unwrap_or_default() == drawn,
        "{PROFILE_FIGURE} is stale or missing: run this test with NULLWINDOW_UPDATE_FIGURES=1 and commit it"
    );
}

/// `list` as the `&str` arguments `run` takes.
fn args(list: &[String]) -> Vec<&str> {
    list.iter().map(String::as_str).collect()
}

/// The records of one search of the example engine, written by the engine itself to a file.
/// Returns the file and what the engine answered.
fn records_of_one_search(scratch: &Scratch, bug: &str, token: &str, depth: u32) -> (String, String) {
    use std::io::Write;
    let script = scratch.file("pruning.py");
    std::fs::write(&script, PRUNING).unwrap();
    let file = scratch.file(&format!("{bug}.jsonl"));
    let mut child = std::process::Command::new("python3")
        .args([&script, "--bug", bug])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    write!(child.stdin.take().unwrap(), "protocol 1\nsearch {token} {depth} {file}\n").unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    (file, String::from_utf8(output.stdout).unwrap())
}

/// `audit --self` holds a records file to the same rules, with the game's moves or without a
/// game, names the line, and answers in JSON; records from MAX's side with no path and no game
/// are refused, since nothing tells who moves.
#[test]
fn audit_self_judges_a_records_file_by_the_same_rules() {
    let scratch = Scratch::new("audit-self");
    let token = "xoxxx.ooxo..........";
    let (clean, _) = records_of_one_search(&scratch, "none", token, 5);
    let (swapped, answered) = records_of_one_search(&scratch, "swapped-bounds", token, 5);
    let alone = |file: &str| {
        ["audit", "--self", "--trace", file, "--values", "side-to-move"].map(str::to_owned).to_vec()
    };
    let (code, stdout, stderr) = run(&scratch, &args(&alone(&clean)), SECONDS);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(stdout.starts_with("ok: all ") && stdout.contains("the records alone"), "{stdout}");
    let (code, stdout, stderr) = run(&scratch, &args(&alone(&swapped)), SECONDS);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(stdout.starts_with(&format!("{swapped}:")), "{stdout}");
    assert!(stdout.contains("(the stored-kind rule)"), "{stdout}");
    // The book shows it, the file as a reader names it.
    let shown = format!(
        "$ printf 'protocol 1\\nsearch {token} 5 records.jsonl\\n' | python3 examples/protocol/pruning.py --bug \
         swapped-bounds\n{answered}$ nullwindow audit --self --trace records.jsonl --values side-to-move\n{}",
        stdout.replace(&swapped, "records.jsonl")
    );
    insta::assert_snapshot!("audit_self", shown.trim_end());
    let engine = format!("python3 {}", scratch.file("pruning.py"));
    let position = format!("token:{token}");
    let with_game =
        [&alone(&swapped)[..], &["--engine", &engine, "--position", &position].map(str::to_owned)].concat();
    let (code, with_moves, stderr) = run(&scratch, &args(&with_game), SECONDS);
    assert_eq!(code, Some(1), "{with_moves}{stderr}");
    assert_eq!(with_moves.lines().next(), stdout.lines().next(), "{with_moves}");
    let json = [&alone(&swapped)[..], &["--json".to_owned()]].concat();
    let (code, stdout, _) = run(&scratch, &args(&json), SECONDS);
    assert_eq!(code, Some(1));
    let value: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        (value["ok"].as_bool(), value["broken"]["rule"].as_str()),
        (Some(false), Some("stored-kind")),
        "{stdout}"
    );
    assert!(value["broken"]["line"].as_u64().is_some_and(|line| line > 0), "{stdout}");
    // The exact audit's --limit and --order do not apply to the rules: refused, not ignored.
    for flag in [["--limit", "5"], ["--order", "entry"]] {
        let (code, _, stderr) = run(&scratch, &[&args(&alone(&clean))[..], &flag[..]].concat(), SECONDS);
        assert_eq!(code, Some(2), "{flag:?}: {stderr}");
    }
    let (code, _, stderr) = run(&scratch, &["audit", "--self", "--trace", &clean], SECONDS);
    assert_eq!((code, stderr.lines().count()), (Some(2), 1), "{stderr}");
    assert!(stderr.contains("only a path tells who moves"), "{stderr}");
}

/// The profile is per feature when run once for each `--off NAME`: its header says which are off,
/// and with every one off the engine strays nowhere.
#[test]
fn the_profile_says_which_features_are_off() {
    let scratch = Scratch::new("pruning-profile-off");
    let engine = engine(&scratch, "none");
    let base = ["fuzz", "--engine", &engine, "--selective", "--cases", "40", "--height", "1..5"];
    let (code, stdout, stderr) = run(&scratch, &[&base[..], &["--off", "all"]].concat(), SECONDS);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("selectivity profile (off: lmr, nullmove;"), "{stdout}");
    assert!(
        stdout.contains("all depths: 40 cases, value differs in 0 (0.0%), move worse in 0 of"),
        "{stdout}"
    );
    let (code, stdout, stderr) = run(&scratch, &[&base[..], &["--off", "lmr"]].concat(), SECONDS);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("selectivity profile (off: lmr;"), "{stdout}");
}
