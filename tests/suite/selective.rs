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
}
