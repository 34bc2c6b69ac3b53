//! The `nullwindow` command line, run as a user runs it.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn nullwindow(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nullwindow"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command that fails before reading its input closes the pipe; that is not the test's concern.
    let written = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    assert!(written.is_ok() || written.is_err_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe));
    child.wait_with_output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// Runs a command that must fail, and returns its one error line.
fn error_line(args: &[&str], stdin: &str) -> String {
    let output = nullwindow(args, stdin);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
    let error = stderr(&output);
    assert_eq!(error.lines().count(), 1, "{args:?}: {error}");
    assert!(error.starts_with("error: "), "{args:?}: {error}");
    error.trim_end().to_owned()
}

#[test]
fn the_demo_runs_every_driver_and_they_agree() {
    let output = nullwindow(&[], "");
    assert!(output.status.success(), "{output:?}");
    insta::assert_snapshot!(stdout(&output));
}

#[test]
fn algos_lists_every_driver() {
    let output = nullwindow(&["algos"], "");
    assert!(output.status.success());
    insta::assert_snapshot!(stdout(&output));
    let json: serde_json::Value =
        serde_json::from_slice(&nullwindow(&["algos", "--json"], "").stdout).unwrap();
    let names: Vec<&str> = json.as_array().unwrap().iter().map(|d| d["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"minimax"));
    assert!(json[0]["kind"] == "reference" && json[0]["exact"] == true);
}

#[test]
fn gen_is_reproducible_and_its_output_solves() {
    let first = nullwindow(&["gen", "--seed", "7"], "");
    assert!(first.status.success());
    assert_eq!(stdout(&first), stdout(&nullwindow(&["gen", "--seed", "7"], "")));
    insta::assert_snapshot!(stdout(&first));
    let solved = nullwindow(&["solve", "-", "--json"], &stdout(&first));
    assert!(solved.status.success(), "{solved:?}");
}

#[test]
fn gen_options_shape_the_tree() {
    let output = nullwindow(
        &["gen", "--seed", "1", "--width", "3", "--depth", "2", "--uniform", "--values=-5..5"],
        "",
    );
    let tree: nullwindow::tree::Tree = stdout(&output).trim().parse().unwrap();
    let stats = tree.stats();
    assert_eq!((stats.leaves, stats.height), (9, 2));
    let gtree = nullwindow(&["gen", "--seed", "1", "--format", "gtree", "--values", "-5..5"], "");
    assert!(gtree.status.success(), "{gtree:?}");
    assert!(nullwindow::tree::gtree::parse(&stdout(&gtree)).is_ok());
}

#[test]
fn solve_json_has_the_documented_shape() {
    let output = nullwindow(&["solve", "--json", "-"], "((3 17) (2 12) (15 (25 0)))");
    assert!(output.status.success());
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!((json["side"].as_str(), json["value"].as_i64()), (Some("MAX"), Some(15)));
    for result in json["results"].as_array().unwrap() {
        assert_eq!(result["value"], 15);
        for key in ["algorithm", "leaves", "nodes", "passes"] {
            assert!(result.get(key).is_some(), "{key} missing from {result}");
        }
    }
    // A gtree root may be MIN (B): the values are then MIN's, and the object says so. MIN takes the
    // leaf worth 1 to MAX, which is -1 from MIN's side.
    let min_root = nullwindow(&["solve", "--json", "--format", "gtree", "-"], "r 0 B x y\nx 1\ny 2\n");
    let json: serde_json::Value = serde_json::from_slice(&min_root.stdout).unwrap();
    assert_eq!((json["side"].as_str(), json["value"].as_i64()), (Some("MIN"), Some(-1)));
    assert!(json["results"].as_array().unwrap().iter().all(|result| result["value"] == -1), "{json}");
    let help = stdout(&nullwindow(&["solve", "--help"], ""));
    assert!(help.contains("`side`, `MAX` or `MIN`, the side to move at the root"), "{help}");
}

#[test]
fn solve_reads_files_by_format_and_honours_depth() {
    let output =
        nullwindow(&["solve", "testdata/trees/transposition.gtree", "--algo", "minimax,negamax"], "");
    assert!(output.status.success(), "{output:?}");
    assert!(stdout(&output).contains("minimax value: 3"));
    let shallow = nullwindow(&["solve", "--depth", "1", "--json", "testdata/trees/transposition.gtree"], "");
    let json: serde_json::Value = serde_json::from_slice(&shallow.stdout).unwrap();
    assert_eq!(json["value"], 5, "depth 1 takes the best interior evaluation of the children");
    let as_paren = nullwindow(&["solve", "--format", "paren", "testdata/trees/transposition.gtree"], "");
    assert!(stderr(&as_paren).starts_with("error: testdata/trees/transposition.gtree:4:3:"), "{as_paren:?}");
}

#[test]
fn every_command_that_reads_a_tree_finds_or_takes_a_gtree_root() {
    // The study's writer put the root u on the ninth line of this file.
    let file = "testdata/trees/study-order-wesselink-ttm-counterexample.gtree";
    let solved = nullwindow(&["solve", "--json", "--algo", "minimax", file], "");
    assert!(solved.status.success(), "{solved:?}");
    let json: serde_json::Value = serde_json::from_slice(&solved.stdout).unwrap();
    assert_eq!(json["value"], 4);

    // Two parentless nodes: r and x. Each command reads from the one --root names.
    let two_roots = "r 0 W a\na 2 B\nx 5 W b y\nb 1 B\ny -3 B\n";
    let from_x = nullwindow(&["solve", "--json", "--format", "gtree", "--root", "x", "-"], two_roots);
    assert!(from_x.status.success(), "{from_x:?}");
    let json: serde_json::Value = serde_json::from_slice(&from_x.stdout).unwrap();
    assert_eq!(json["value"], 1);
    let divide = nullwindow(&["divide", "--json", "--format", "gtree", "--root", "x", "-"], two_roots);
    let json: serde_json::Value = serde_json::from_slice(&divide.stdout).unwrap();
    assert_eq!((json["value"].clone(), json["moves"].as_array().unwrap().len()), (1.into(), 2));
    let check = nullwindow(&["check", "--format", "gtree", "--root", "r", "--value", "2", "-"], two_roots);
    assert!(check.status.success(), "{check:?}");
    let trace =
        nullwindow(&["trace", "--algo", "alphabeta", "--format", "gtree", "--root", "x", "-"], two_roots);
    assert!(trace.status.success(), "{trace:?}");
    assert_eq!(stdout(&trace).lines().count(), 3, "x and its two children");
    for command in
        [vec!["solve"], vec!["divide"], vec!["check", "--value", "2"], vec!["trace", "--algo", "alphabeta"]]
    {
        let error = error_line(&[&command[..], &["--format", "gtree", "-"]].concat(), two_roots);
        assert_eq!(
            error,
            "error: <stdin>:1:1: several roots: 'r', 'x' are no node's child; choose the root (--root)"
        );
    }
    let help = stdout(&nullwindow(&["solve", "--help"], ""));
    assert!(help.contains("nodes not reachable from ID are allowed"), "{help}");
}

#[test]
fn every_error_is_one_line_with_a_position_where_there_is_one() {
    // A bad token is quoted in part: 100 KB of NUL bytes must not come back as a 100 KB line.
    let long_token = format!("(1 {})", "\0".repeat(100_000));
    let long_name = "x".repeat(100_000);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["solve", "-"], "((1 2) (3 x))"),
        (vec!["solve", "-"], "((1 2)\n (3 4)"),
        (vec!["solve", "-"], "(1 2))"),
        (vec!["solve", "-"], "(1 ())"),
        (vec!["solve", "-"], "(1 1000000000)"),
        (vec!["solve", "-"], "(1) (2)"),
        (vec!["solve", "-"], "  \n"),
        (vec!["solve", "--format", "gtree", "-"], "0 1 W 1\n1 2 W\n"),
        (vec!["solve", "--format", "gtree", "-"], "r 0 W a\na 2 B\nx 5 W b\nb 1 B\n"),
        (vec!["solve", "--format", "gtree", "-"], "0 1 1\n1 2 0\n"),
        (vec!["solve", "--format", "gtree", "-"], "r 0 a\na 1\nx 2 y\ny 3 x z\nz 4\n"),
        (vec!["solve", "--format", "gtree", "--root", "q", "-"], "r 0 a\na 1\n"),
        (vec!["solve", "--root", "r", "-"], "r 0 a\na 1\n"),
        (vec!["solve", "--root", "r", "testdata/trees/teaching.tree"], ""),
        (vec!["solve", "--format", "paren", "--root", "r", "testdata/trees/transposition.gtree"], ""),
        (vec!["solve", "--game", "tictactoe", "--root", "r"], ""),
        (vec!["solve", "--algo", "minimax,nosuch", "-"], "1"),
        (vec!["solve", "--first-guess", "1000000001", "-"], "1"),
        (vec!["solve", "--depth", "-1", "-"], "1"),
        (vec!["solve", "no/such/file.tree"], ""),
        (vec!["solve", "testdata"], ""),
        (vec!["gen", "--width", "0"], ""),
        (vec!["gen", "--width", "5..2"], ""),
        (vec!["gen", "--width", "1000", "--depth", "9"], ""),
        (vec!["gen", "--values", "0..1000000000"], ""),
        (vec!["gen", "--values", "a..b"], ""),
        (vec!["gen", "--values", "0..99999999999"], ""),
        (vec!["solve", "--tt-entries", "4294967296", "-"], "1"),
        (vec!["solve", "--tt-entries", "18446744073709551615", "-"], "1"),
        (vec!["compare", "--seeds", "99999999999"], ""),
        (vec!["solve", "-"], &long_token),
        (vec!["solve", "--algo", &long_name, "-"], "1"),
        (vec!["nosuch"], ""),
    ];
    let lines: Vec<String> = cases.iter().map(|(args, stdin)| error_line(args, stdin)).collect();
    insta::assert_snapshot!(lines.join("\n"));
}

#[test]
fn a_tree_too_tall_to_search_is_refused_cleanly() {
    let depth = 1_000_000;
    let source = format!("{}7{}", "(".repeat(depth), ")".repeat(depth));
    let error = error_line(&["solve", "-"], &source);
    assert!(error.contains("1000000 levels deep"), "{error}");
    let limited = nullwindow(&["solve", "--depth", "5", "-"], &source);
    assert!(limited.status.success(), "{limited:?}");
}

#[test]
fn the_deepest_searchable_tree_is_searched() {
    let depth = nullwindow::tree::MAX_SEARCH_HEIGHT as usize;
    let source = format!("{}-7{}", "(".repeat(depth), ")".repeat(depth));
    // The default drivers, but for the iterative-deepening translations, which would search the chain
    // 100,000 times over: solve leaves them out and says so.
    let output = nullwindow(&["solve", "--json", "-"], &source);
    assert!(output.status.success(), "{output:?}");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["value"], -7);
    let ran: Vec<&str> =
        json["results"].as_array().unwrap().iter().map(|r| r["algorithm"].as_str().unwrap()).collect();
    assert!(ran.contains(&"stockman-sss") && !ran.contains(&"kornilov-id"), "{ran:?}");
    assert_eq!(
        stderr(&output),
        "note: left out plaat-id-corrected, kornilov-id: they search every depth from 1 to 100000 again, \
         a cost that grows with the square of the depth (over 2000 levels); name them in --algo to run them\n"
    );
}

#[test]
fn help_is_not_an_error() {
    let output = nullwindow(&["--help"], "");
    assert!(output.status.success());
    assert!(stdout(&output).contains("solve"));
}

#[test]
fn compare_reports_counts_against_the_minimal_tree() {
    let output = nullwindow(
        &[
            "compare",
            "--json",
            "--width",
            "3",
            "--depth",
            "4",
            "--seeds",
            "3",
            "--algo",
            "minimax,alphabeta,mtdf",
        ],
        "",
    );
    assert!(output.status.success(), "{output:?}");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["minimal_tree_leaves"], 17.0);
    assert_eq!(json["trees"], 3);
    let results = json["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    // Minimax evaluates all 81 leaves of every tree; nothing disagrees with the known values.
    assert_eq!(results[0]["leaves"], 81.0);
    assert!((results[0]["leaves_ratio"].as_f64().unwrap() - 81.0 / 17.0).abs() < 1e-9);
    assert!(results.iter().all(|row| row["wrong"] == 0));
    assert!(results[2]["passes"].as_f64().unwrap() >= 2.0);
    // The table names the same drivers, one row each.
    let table =
        nullwindow(&["compare", "--width", "3", "--depth", "4", "--seeds", "2", "--transpositions"], "");
    assert!(table.status.success(), "{table:?}");
    let text = stdout(&table);
    assert!(text.contains("minimal tree: 17 leaves, 37 nodes"), "{text}");
    assert!(text.contains("transpositions"));
    assert!(text.lines().any(|line| line.starts_with("mtdf ")));
    // A perfectly ordered alpha-beta visits exactly the minimal tree: both its ratios are 1, its
    // nodes measured against the minimal tree's nodes, not its leaves.
    let perfect = nullwindow(
        &[
            "compare",
            "--json",
            "--width",
            "2",
            "--depth",
            "3",
            "--ordering",
            "1",
            "--seeds",
            "1",
            "--algo",
            "alphabeta",
        ],
        "",
    );
    let json: serde_json::Value = serde_json::from_slice(&perfect.stdout).unwrap();
    assert_eq!(
        (json["minimal_tree_leaves"].as_f64(), json["minimal_tree_nodes"].as_f64()),
        (Some(5.0), Some(11.0))
    );
    let row = &json["results"][0];
    assert_eq!((row["leaves_ratio"].as_f64(), row["nodes_ratio"].as_f64()), (Some(1.0), Some(1.0)));
}

/// `solve --iterative` shows each iteration: its depth, first guess, value, its own leaves and
/// nodes, and its root searches, in text and in `--json`; `trace --iterative` records them.
#[test]
fn solve_and_trace_show_every_iteration() {
    let file = "testdata/trees/exercise-three-ply.tree";
    let output = nullwindow(&["solve", file, "--algo", "mtdf,pvs", "--iterative", "--json"], "");
    assert!(output.status.success(), "{output:?}");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let mtdf = &json["results"][0];
    let iterations = mtdf["iterations"].as_array().unwrap();
    assert_eq!(iterations.iter().map(|i| i["depth"].as_u64().unwrap()).collect::<Vec<_>>(), [1, 2, 3]);
    // Each iteration starts from the value of the one before; the last is the tree's value.
    assert_eq!(iterations[1]["first_guess"], iterations[0]["value"]);
    assert_eq!(iterations[2]["value"], json["value"]);
    let nodes: u64 = iterations.iter().map(|i| i["nodes"].as_u64().unwrap()).sum();
    assert_eq!(nodes, mtdf["nodes"].as_u64().unwrap(), "an iteration's own nodes, adding up to the total");
    let passes: usize = iterations.iter().map(|i| i["passes"].as_array().unwrap().len()).sum();
    assert_eq!(Some(passes as u64), mtdf["passes"].as_u64());
    assert!(json["results"][1]["iterations"][0]["first_guess"].is_null(), "PVS takes no first guess");
    let text = stdout(&nullwindow(&["solve", file, "--algo", "mtdf", "--iterative"], ""));
    assert!(text.contains("mtdf, iteration by iteration"), "{text}");
    assert!(text.contains("(-1, 0) -> 2, (2, 3) -> 4, (4, 5) -> 7, (7, 8) -> 7"), "{text}");
    // The trace of the same search: one root record per root search.
    let trace = stdout(&nullwindow(&["trace", file, "--algo", "mtdf", "--iterative"], ""));
    let roots = trace.lines().filter(|line| line.contains("\"path\":[],")).count();
    assert_eq!(roots, passes);
}

/// `solve --help` says that a leaf evaluated twice counts twice.
#[test]
fn table_min_depth_keeps_the_shallow_nodes_out_of_the_table() {
    let tree = "((3 17) (2 12) (15 (25 0)))";
    for plies in ["1", "2", "4"] {
        let output = nullwindow(&["trace", "--algo", "pvs", "--table-min-depth", plies, "-"], tree);
        assert!(output.status.success(), "{output:?}");
        let records: Vec<serde_json::Value> =
            stdout(&output).lines().map(|line| serde_json::from_str(line).unwrap()).collect();
        let root = records.last().unwrap();
        assert_eq!((root["path"].as_array().map(Vec::len), root["result"].as_i64()), (Some(0), Some(15)));
        let min_depth: u64 = plies.parse().unwrap();
        let path = |record: &serde_json::Value| record["path"].as_array().unwrap().clone();
        // A leaf never uses the table, whatever its depth: a node is interior if a record lies below it.
        let interior = |record: &serde_json::Value| {
            let (above, length) = (path(record), path(record).len());
            records.iter().any(|other| path(other).len() > length && path(other)[..length] == above[..])
        };
        for record in &records {
            let (depth, probe) = (record["depth"].as_u64().unwrap(), record["probe"].as_str().unwrap());
            let uses_table = depth >= min_depth && interior(record);
            assert_eq!(probe != "none", uses_table, "--table-min-depth {plies}: {record}");
            assert_eq!(record["stored"].is_null(), !uses_table, "--table-min-depth {plies}: {record}");
        }
    }
}

#[test]
fn solve_help_says_what_the_counts_count() {
    let help = stdout(&nullwindow(&["solve", "--help"], ""));
    assert!(help.contains("a leaf evaluated again in a later pass or iteration counts again"), "{help}");
}

/// A parenthesis tree read as gtree says what it looks like.
#[test]
fn a_parenthesis_tree_read_as_gtree_gets_a_hint() {
    let error = error_line(&["solve", "--format", "gtree", "testdata/trees/teaching.tree"], "");
    assert!(
        error.ends_with("(the file looks like the parenthesis format: leave out --format gtree)"),
        "{error}"
    );
}

/// A missing argument keeps its list and the usage line on the one error line.
#[test]
fn a_missing_argument_names_the_usage() {
    assert_eq!(
        error_line(&["trace"], ""),
        "error: the following required arguments were not provided: --algo <ALGO> \
         (usage: nullwindow trace --algo <ALGO> [FILE]; more with --help)"
    );
}

#[test]
fn compare_refuses_bad_trees_in_one_line() {
    assert_eq!(error_line(&["compare", "--width", "0"], ""), "error: width 0 is outside 1..=48");
    assert_eq!(
        error_line(&["compare", "--seeds", "0"], ""),
        "error: invalid value '0' for '--seeds <SEEDS>': '0': compare needs at least one tree"
    );
    assert_eq!(
        error_line(&["compare", "--ordering", "2"], ""),
        "error: the ordering probability 2 is not between 0 and 1"
    );
    assert_eq!(
        error_line(&["compare", "--first-seed", "18446744073709551615", "--seeds", "2"], ""),
        "error: --first-seed 18446744073709551615 with --seeds 2 runs past the last seed"
    );
    // Sizes no search can finish are refused before anything is built, as `gen` refuses them.
    let never = error_line(&["compare", "--width", "48", "--depth", "32", "--seeds", "1"], "");
    assert!(never.starts_with("error: width 48 and depth 32 would never finish"), "{never}");
}

#[test]
fn games_are_solved_divided_and_checked_from_the_side_to_move() {
    // Connect Four: Pons scores this position 1 for the side to move.
    let position = "7422341735647741166133573473242566";
    let output = nullwindow(&["solve", "--game", "connect4", "--position", position, "--json"], "");
    assert!(output.status.success(), "{output:?}");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["value"], 1);
    // After one more stone the other side is to move, and values turn with it.
    let output =
        nullwindow(&["solve", "--game", "connect4", "--position", &format!("{position}2"), "--json"], "");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["value"], -1);

    let output = nullwindow(&["divide", "--game", "tictactoe", "--position", "15", "--json"], "");
    assert!(output.status.success(), "{output:?}");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["value"], 0);
    assert_eq!(json["moves"].as_array().unwrap().len(), 7);
    // After two moves MAX is to move again; after one, MIN, and the values are from MIN's side.
    assert_eq!(json["side"], "MAX");
    let after_one = nullwindow(&["divide", "--game", "tictactoe", "--position", "5", "--json"], "");
    let json: serde_json::Value = serde_json::from_slice(&after_one.stdout).unwrap();
    assert_eq!(json["side"], "MIN");

    let exact = nullwindow(&["check", "--game", "tictactoe", "--value", "0", "--line", "5 1 9"], "");
    assert!(exact.status.success(), "{exact:?}");
    let wrong = nullwindow(&["check", "--game", "tictactoe", "--value", "0", "--line", "5=0 2=0"], "");
    assert_eq!(wrong.status.code(), Some(1));
    assert_eq!(stdout(&wrong).lines().nth(1).unwrap(), "ply 2: wrong value after 5 2: claimed 0, exact 1");
    let tree = nullwindow(&["divide", "testdata/trees/format-example.tree"], "");
    assert!(stdout(&tree).contains("value 15"), "{}", stdout(&tree));
}

#[test]
fn game_errors_name_the_offending_move() {
    assert_eq!(
        error_line(&["solve", "--game", "connect4", "--position", "4449444"], ""),
        "error: --position '4449444': move 4 ('9'): not a column 1-7"
    );
    assert_eq!(
        error_line(&["solve", "--game", "tictactoe", "--position", "1212"], ""),
        "error: --position '1212': move 3 ('1'): that square is taken"
    );
    assert_eq!(
        error_line(&["check", "--game", "tictactoe", "--value", "0", "--line", "5 5"], ""),
        "error: --line: ply 2: '5' is not a legal move here (legal: 1 2 3 4 6 7 8 9)"
    );
    assert_eq!(
        error_line(&["solve", "x.tree", "--game", "tictactoe"], ""),
        "error: give a tree file or --game, not both (the file was 'x.tree')"
    );
}

/// The trace format is a contract: engine authors diff against it. A change here is a change of it.
#[test]
fn trace_records_every_node_in_a_stable_format() {
    // `--help` documents every field, and every value `probe` takes.
    use nullwindow::driver::observe::Probe;
    let help = stdout(&nullwindow(&["trace", "--help"], ""));
    for field in [
        "event",
        "visit",
        "pass",
        "path",
        "node",
        "depth",
        "alpha, beta",
        "result",
        "probe",
        "stored",
        "cutoff",
    ] {
        assert!(help.contains(&format!("\n  {field} ")), "trace --help does not explain {field}");
    }
    for probe in [Probe::None, Probe::Miss, Probe::Hit, Probe::Cutoff, Probe::Etc, Probe::Bounds] {
        assert!(help.contains(probe.name()), "trace --help does not explain the probe '{}'", probe.name());
    }
    let mut text = String::new();
    for algo in ["mtdf", "pvs", "plaat-mtdf-corrected", "verhelst-pvs"] {
        let output = nullwindow(&["trace", "testdata/trees/format-example.tree", "--algo", algo], "");
        assert!(output.status.success(), "{output:?}");
        let records = stdout(&output);
        for line in records.lines() {
            let record: serde_json::Value = serde_json::from_str(line).unwrap();
            assert!(record["path"].is_array() && record["result"].is_i64(), "{line}");
        }
        text.push_str(&format!("--- {algo}\n{records}"));
    }
    let table = nullwindow(
        &["trace", "testdata/trees/format-example.tree", "--algo", "alphabeta", "--output", "table"],
        "",
    );
    text.push_str(&format!("--- alphabeta, table\n{}", stdout(&table)));
    insta::assert_snapshot!(text);
    // Negamax reads values from the side to move; its records, turned to MAX's side, are minimax's.
    let trace =
        |algo| stdout(&nullwindow(&["trace", "testdata/trees/format-example.tree", "--algo", algo], ""));
    assert_eq!(trace("negamax"), trace("minimax"));
}

/// Every driver `nullwindow algos` lists traces a tree file, a gtree graph and every game of the
/// catalogue, and the trace of every exact one audits clean against the same target: the records
/// `trace` writes are the records `audit` reads, `node` names included.
#[test]
fn every_driver_traces_every_kind_of_target_and_every_exact_trace_audits_clean() {
    let mut targets: Vec<Vec<&str>> =
        vec![vec!["testdata/trees/teaching.tree"], vec!["testdata/trees/transposition.gtree"]];
    // Every game of the catalogue, four plies from its start, and a position deeper in two of them.
    for game in nullwindow::registry::games::KnownGame::ALL {
        targets.push(vec!["--game", game.info().name, "--depth", "4"]);
    }
    targets.push(vec!["--game", "connect4", "--position", "4453", "--depth", "4"]);
    targets.push(vec!["--game", "tictactoe", "--position", "159"]);
    let trace_file = std::env::temp_dir().join(format!("nullwindow-trace-{}.jsonl", std::process::id()));
    let trace_path = trace_file.to_str().unwrap();
    for driver in nullwindow::registry::Driver::ALL {
        let name = driver.info().name;
        for target in &targets {
            let mut arguments = vec!["trace", "--algo", name];
            arguments.extend_from_slice(target);
            let traced = nullwindow(&arguments, "");
            assert!(traced.status.success(), "{arguments:?}: {traced:?}");
            let records = stdout(&traced);
            assert!(records.lines().count() > 0, "{arguments:?} wrote no records");
            if !driver.info().exact {
                continue;
            }
            std::fs::write(&trace_file, &records).unwrap();
            // The depth is each record's own; `audit` takes no --depth.
            let target: Vec<&str> =
                target.iter().copied().take_while(|&argument| argument != "--depth").collect();
            let mut arguments = vec!["audit", "--trace", trace_path];
            arguments.extend_from_slice(&target);
            let audited = nullwindow(&arguments, "");
            assert!(audited.status.success(), "{name} on {target:?}: {}", stdout(&audited));
            assert!(stdout(&audited).starts_with("ok: all "), "{name} on {target:?}: {}", stdout(&audited));
        }
    }
    let _ = std::fs::remove_file(&trace_file);
}

/// A chain of `levels` diamonds in the gtree format: 3 nodes a level and a last leaf worth 7, 2^levels
/// paths from the root to it. Interior evaluations vary, so that a depth limit matters.
fn diamonds(levels: u32) -> String {
    let mut text = String::new();
    for level in 0..levels {
        let a = 3 * level;
        text.push_str(&format!("{a} {} W {} {}\n", level % 5, a + 1, a + 2));
        text.push_str(&format!("{} {} B {}\n", a + 1, level % 7, a + 3));
        text.push_str(&format!("{} -{} B {}\n", a + 2, level % 3, a + 3));
    }
    text.push_str(&format!("{} 7\n", 3 * levels));
    text
}

/// A graph whose unfolded tree is far too large (60 diamonds: 181 nodes, 2⁶² unfolded) is valued
/// once per node: `solve` leaves out the drivers that keep no table, saying so, and `divide`, `check`
/// and `audit` answer at once.
#[test]
fn a_graph_of_many_paths_is_valued_once_per_node() {
    let file = std::env::temp_dir().join(format!("nullwindow-diamonds-{}.gtree", std::process::id()));
    std::fs::write(&file, diamonds(60)).unwrap();
    let path = file.to_str().unwrap();
    let solved = nullwindow(&["solve", path], "");
    assert!(solved.status.success(), "{solved:?}");
    assert!(stdout(&solved).contains("minimax value: 7"), "{}", stdout(&solved));
    let note = stderr(&solved);
    assert!(note.starts_with("note: left out minimax, negamax, kornilov-alphabeta"), "{note}");
    assert!(note.contains("over 10000000"), "{note}");
    // Depth-limited: the evaluation of the level the depth reaches.
    let limited = nullwindow(&["solve", path, "--depth", "30", "--algo", "alphabeta,mtdf"], "");
    assert!(limited.status.success(), "{limited:?}");
    let divided = nullwindow(&["divide", path], "");
    assert!(divided.status.success() && stdout(&divided).contains("value 7"), "{}", stdout(&divided));
    let checked = nullwindow(&["check", path, "--value", "7"], "");
    assert!(checked.status.success(), "{checked:?}");
    let trace = stdout(&nullwindow(&["trace", path, "--algo", "mtdf"], ""));
    let audited = nullwindow(&["audit", path, "--trace", "-"], &trace);
    assert!(stdout(&audited).starts_with("ok: all "), "{}", stdout(&audited));
    let _ = std::fs::remove_file(&file);
}

/// `--on entry` writes the records of `--on completion` in the order nodes were entered, and
/// `--on both` each node twice: entered (no result) and returned. For every kind of driver.
#[test]
fn trace_writes_records_on_entry_on_completion_or_both() {
    let file = "testdata/trees/format-example.tree";
    for algo in ["mtdf", "plaat-mtdf-corrected", "minimax"] {
        let records = |on: &str| -> Vec<serde_json::Value> {
            let output = nullwindow(&["trace", file, "--algo", algo, "--on", on], "");
            assert!(output.status.success(), "{algo} --on {on}: {output:?}");
            stdout(&output).lines().map(|line| serde_json::from_str(line).unwrap()).collect()
        };
        let (completion, entry, both) = (records("completion"), records("entry"), records("both"));
        let visits = |records: &[serde_json::Value]| -> Vec<u64> {
            records.iter().map(|record| record["visit"].as_u64().unwrap()).collect()
        };
        assert_eq!(visits(&entry), (1..=entry.len() as u64).collect::<Vec<_>>(), "{algo}: entered in order");
        let mut sorted = completion.clone();
        sorted.sort_by_key(|record| record["visit"].as_u64());
        assert_eq!(sorted, entry, "{algo}: the same records");
        let enters: Vec<&serde_json::Value> = both.iter().filter(|r| r["event"] == "enter").collect();
        let returns: Vec<serde_json::Value> = both
            .iter()
            .filter(|r| r["event"] == "return")
            .map(|r| {
                let mut r = r.clone();
                r.as_object_mut().unwrap().remove("event");
                r
            })
            .collect();
        assert_eq!(returns, completion, "{algo}: --on both returns as --on completion");
        assert!(enters.iter().all(|r| r["result"].is_null()) && enters.len() == completion.len(), "{algo}");
        // Every node is entered before it returns, and a parent before its children.
        let position = |event: &str, visit: u64| {
            both.iter().position(|r| r["event"] == event && r["visit"] == visit).unwrap()
        };
        for record in &completion {
            let visit = record["visit"].as_u64().unwrap();
            assert!(position("enter", visit) < position("return", visit), "{algo}: {record}");
        }
    }
    // Literal traces follow the route each call took, not the first route to a shared node.
    assert_eq!(
        error_line(&["trace", "testdata/trees/teaching.tree", "--algo", "stockman-sss", "--on", "entry"], ""),
        "error: stockman-sss makes no calls, so its nodes are never entered: it lists them when solved \
         (--on completion)"
    );
}

/// `trace --algo minimax` gives every node of the searched tree its exact value, and `--file-order`
/// makes an optimized alpha-beta search children in the file's order, as a plain engine does: its
/// records then come in the same order as a plain alpha-beta's (the literal Kornilov `AlphaBeta`).
#[test]
fn minimax_traces_every_node_and_file_order_lines_up_with_a_plain_engine() {
    let file = "testdata/trees/teaching.tree";
    let output = nullwindow(&["trace", file, "--algo", "minimax"], "");
    let records: Vec<serde_json::Value> =
        stdout(&output).lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    let tree: nullwindow::Tree = std::fs::read_to_string(file).unwrap().parse().unwrap();
    assert_eq!(records.len() as u64, tree.stats().nodes);
    for record in &records {
        let path: Vec<u32> =
            record["path"].as_array().unwrap().iter().map(|i| i.as_u64().unwrap() as u32).collect();
        let node = tree.node_at(&path).unwrap();
        let (subtree, _) = tree.subtree(node);
        let exact = nullwindow::Driver::Minimax.run(&subtree, &nullwindow::SearchParams::default()).value;
        assert_eq!(record["result"], exact, "{record}");
    }
    // On a wider tree, killer moves and the history heuristic reorder children; --file-order not.
    let config = nullwindow::tree::random::RandomTreeConfig {
        seed: 1,
        width: 3..=4,
        depth: 4..=5,
        ..Default::default()
    };
    let wide = config.generate().unwrap().to_string();
    let paths = |algo: &str, extra: &[&str]| -> Vec<serde_json::Value> {
        let mut args = vec!["trace", "-", "--algo", algo];
        args.extend_from_slice(extra);
        stdout(&nullwindow(&args, &wide))
            .lines()
            .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap()["path"].clone())
            .collect()
    };
    let plain = paths("kornilov-alphabeta", &[]);
    assert_eq!(paths("alphabeta", &["--file-order"]), plain);
    assert_ne!(paths("alphabeta", &[]), plain, "the default order should differ on this tree");
}

/// Stockman's drivers make no calls: `trace` lists each node they solve, leaves first and the root
/// last, each with the null window below the merit it came off OPEN with.
#[test]
fn trace_lists_the_nodes_stockmans_drivers_solve() {
    let mut text = String::new();
    for algo in ["stockman-sss", "stockman-dual"] {
        let output = nullwindow(&["trace", "testdata/trees/teaching.tree", "--algo", algo], "");
        assert!(output.status.success(), "{output:?}");
        let records: Vec<serde_json::Value> =
            stdout(&output).lines().map(|line| serde_json::from_str(line).unwrap()).collect();
        assert!(records.len() > 1, "{algo}: {records:?}");
        for record in &records {
            let (alpha, beta) = (record["alpha"].as_i64().unwrap(), record["beta"].as_i64().unwrap());
            assert!(beta == alpha + 1 && record["pass"] == 1, "{algo}: {record}");
        }
        let root = records.last().unwrap();
        assert!(root["path"].as_array().unwrap().is_empty() && root["result"] == 7, "{algo}: {root}");
        let table =
            nullwindow(&["trace", "testdata/trees/teaching.tree", "--algo", algo, "--output", "table"], "");
        text.push_str(&format!("--- {algo}\n{}", stdout(&table)));
    }
    insta::assert_snapshot!(text);
}

#[test]
fn bench_connect4_solves_pons_positions_and_reports_per_set() {
    let set = "testdata/connect4/Test_L3_R1.first100";
    // The first 30 positions with a table of 2^16 entries, and `extra`: the set's JSON row.
    let solved = |extra: &[&str]| -> serde_json::Value {
        let args =
            [&["bench", "connect4", set, "--limit", "30", "--tt-entries", "65536", "--json"], extra].concat();
        let output = nullwindow(&args, "");
        assert!(output.status.success(), "{output:?}");
        serde_json::from_slice(&output.stdout).unwrap()
    };
    let json = solved(&[]);
    assert_eq!(json[0]["positions"], 30);
    assert_eq!(json[0]["right"], 30);
    assert!(json[0]["mean_nodes"].as_f64().unwrap() > 1.0);
    // Keeping the last plies out of the table changes the work, never a score.
    let kept_out = solved(&["--table-min-depth", "8"]);
    assert_eq!(kept_out[0]["right"], 30);
    assert_ne!(kept_out[0]["mean_nodes"], json[0]["mean_nodes"]);
    let header =
        stdout(&nullwindow(&["bench", "connect4", set, "--limit", "1", "--table-min-depth", "8"], ""));
    assert!(
        header.starts_with("mtd-pons with 131072 table entries (not used with fewer than 8 plies left),")
    );
    // The first lines of a set are not the whole set that Pons' figures are means of: the row says so.
    let table = stdout(&nullwindow(
        &["bench", "connect4", "testdata/connect4/Test_L3_R1.first100", "--limit", "3"],
        "",
    ));
    let row = table.lines().find(|line| line.starts_with("testdata/connect4/Test_L3_R1.first100")).unwrap();
    assert!(row.ends_with('*'), "{table}");
    assert!(table.contains("*: the file holds only the first lines of the set"), "{table}");
    assert_eq!(
        error_line(&["bench", "connect4", "testdata/trees/teaching.tree"], ""),
        "error: testdata/trees/teaching.tree:1: expected 'MOVES SCORE'"
    );
    assert_eq!(
        error_line(&["bench", "connect4", "x", "--algo", "minimax"], ""),
        "error: 'minimax' is not an optimized driver (`nullwindow algos`)"
    );
}

/// Hostile input is answered with one clear error line or with the right value, never a panic, a
/// signal or a wrong answer.
#[test]
fn hostile_input_gets_a_clear_error_or_the_right_value() {
    // Values at and past the edges of `i32` and of the admissible range, and numbers no integer
    // type holds.
    let errors: Vec<String> = [
        (vec!["solve", "-"], "(1 2147483647)"),
        (vec!["solve", "-"], "(-2147483648 1)"),
        (vec!["solve", "-"], "(1 99999999999999999999999)"),
        (vec!["solve", "-"], "(1 -)"),
        (vec!["solve", "--first-guess", "-2147483648", "-"], "1"),
        (vec!["solve", "--depth", "4294967296", "-"], "1"),
        (vec!["solve", "--tt-entries", "-1", "-"], "1"),
        (vec!["solve", "--game", "chess"], ""),
        (vec!["solve", "--game", "connect4", "--position", "48"], ""),
        (vec!["solve", "--game", "tictactoe", "--position", "11"], ""),
        (vec!["divide", "--game", "connect4", "--position", "4444444"], ""),
        (vec!["trace", "--algo", "nosuch", "-"], "1"),
        (vec!["compare", "--width", "0"], ""),
    ]
    .iter()
    .map(|(args, stdin)| error_line(args, stdin))
    .collect();
    assert!(errors.iter().all(|error| !error.contains("panicked")), "{errors:#?}");

    // Bytes that are not UTF-8, where a tree file is expected.
    let binary = std::env::temp_dir().join(format!("nullwindow-binary-{}.tree", std::process::id()));
    std::fs::write(&binary, [0x28, 0xff, 0xfe, 0x29]).unwrap();
    let error = error_line(&["solve", binary.to_str().unwrap()], "");
    std::fs::remove_file(&binary).unwrap();
    assert!(error.contains(".tree:1:2: "), "{error}");

    // The extreme admissible values are searched exactly, and a table of zero entries (one slot)
    // still gives the right value.
    let edges =
        nullwindow(&["solve", "--json", "--tt-entries", "0", "-"], "((999999999 -999999999) (-999999999))");
    assert!(edges.status.success(), "{edges:?}");
    let json: serde_json::Value = serde_json::from_slice(&edges.stdout).unwrap();
    assert_eq!(json["value"], -999_999_999);

    // A million children under one node.
    let wide: String =
        format!("({})", (0..1_000_000).map(|i| (i % 3).to_string()).collect::<Vec<_>>().join(" "));
    let output = nullwindow(&["solve", "--json", "--algo", "mtdf,pvs,alphabeta", "-"], &wide);
    assert!(output.status.success(), "{:?}", stderr(&output));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["value"], 2);
}

/// Every command, its output read by nobody (`nullwindow … | head -0`): it ends quietly, with
/// status 0 (it finished writing first) or 141 (the conventional status of a closed pipe), and says
/// nothing on standard error, instead of panicking with "failed printing to stdout".
#[test]
fn a_closed_standard_output_ends_every_command_quietly() {
    let commands: &[&[&str]] = &[
        &[],
        &["--help"],
        &["bench", "connect4", "--help"],
        &["algos"],
        &["algos", "--json"],
        &["gen", "--seed", "1", "--width", "6", "--depth", "6"],
        &["gen", "--seed", "1", "--width", "6", "--depth", "6", "--format", "gtree"],
        &["convert", "testdata/trees/teaching.tree", "--to", "gtree"],
        &["solve", "testdata/trees/teaching.tree"],
        &["solve", "testdata/trees/teaching.tree", "--json"],
        &["divide", "--game", "tictactoe"],
        &["check", "--game", "tictactoe", "--value", "0"],
        &["trace", "testdata/trees/teaching.tree", "--algo", "mtdf"],
        &["trace", "testdata/trees/teaching.tree", "--algo", "mtdf", "--output", "table"],
        &["compare", "--seeds", "2", "--width", "3", "--depth", "3"],
    ];
    for args in commands {
        let mut child = Command::new(env!("CARGO_BIN_EXE_nullwindow"))
            .args(*args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader goes away before the command has written anything.
        drop(child.stdout.take());
        let output = child.wait_with_output().unwrap();
        assert!(
            matches!(output.status.code(), Some(0 | 141)),
            "{args:?}: {:?}, {}",
            output.status,
            stderr(&output)
        );
        assert_eq!(stderr(&output), "", "{args:?}");
    }
}

/// The small things a careless run meets: one of something is not plural, independent trees have no
/// ordering to report, and an empty test set is an error rather than a row of zeros.
#[test]
fn counts_models_and_empty_sets_are_reported_as_they_are() {
    let one = nullwindow(&["solve", "--algo", "minimax", "-"], "5");
    assert!(stdout(&one).starts_with("tree: 1 node, 1 leaf, height 0;"), "{}", stdout(&one));
    let divided = nullwindow(&["divide", "-"], "(3)");
    assert!(stdout(&divided).contains("1 move; value 3"), "{}", stdout(&divided));
    let independent = nullwindow(
        &["compare", "--seeds", "1", "--width", "2", "--depth", "2", "--model", "independent", "--json"],
        "",
    );
    let json: serde_json::Value = serde_json::from_slice(&independent.stdout).unwrap();
    assert_eq!(json["ordering"], serde_json::Value::Null);
    let table = nullwindow(
        &["compare", "--seeds", "1", "--width", "2", "--depth", "2", "--model", "independent"],
        "",
    );
    assert!(
        stdout(&table).starts_with("1 independent tree, width 2, depth 2, spread 100;"),
        "{}",
        stdout(&table)
    );
    let empty = std::env::temp_dir().join(format!("nullwindow-empty-{}.txt", std::process::id()));
    std::fs::write(&empty, "\n").unwrap();
    let error = error_line(&["bench", "connect4", empty.to_str().unwrap()], "");
    std::fs::remove_file(&empty).unwrap();
    assert!(error.ends_with("holds no positions (lines of 'MOVES SCORE')"), "{error}");
}

/// `audit` reads another engine's records and names the first that breaks a rule, with the node, the
/// window, the claim, the exact value and the rule; exit 1 there, 0 when every record holds.
#[test]
fn audit_names_the_first_broken_record_and_its_cause() {
    let teaching = "testdata/trees/teaching.tree";
    let trace = |algo: &str, extra: &[&str]| {
        let mut args = vec!["trace", teaching, "--algo", algo];
        args.extend_from_slice(extra);
        stdout(&nullwindow(&args, ""))
    };
    let mut text = String::new();
    let mut audit = |title: &str, args: &[&str], records: &str, code: i32| {
        let output = nullwindow(args, records);
        assert_eq!(output.status.code(), Some(code), "{title}: {output:?}");
        text.push_str(&format!("--- {title}\n{}", stdout(&output)));
    };
    for algo in ["alphabeta", "mtdf", "plaat-mtdf-corrected", "minimax"] {
        for on in ["completion", "entry", "both"] {
            let output = nullwindow(&["audit", teaching, "--trace", "-"], &trace(algo, &["--on", on]));
            assert!(output.status.success(), "{algo} --on {on}: {output:?}");
        }
    }
    audit("mtdf", &["audit", teaching, "--trace", "-"], &trace("mtdf", &[]), 0);
    let wrong = trace("wikipedia-ja-mtdf", &[]);
    audit("wikipedia-ja-mtdf", &["audit", teaching, "--trace", "-"], &wrong, 1);
    audit("wikipedia-ja-mtdf, json", &["audit", teaching, "--trace", "-", "--json"], &wrong, 1);

    // A minimax engine that misread the leaf 25 as 5, its records written on entry: the root is
    // the first violation, the leaf its earliest cause.
    let format_example = "testdata/trees/format-example.tree";
    let minimax = stdout(&nullwindow(&["trace", format_example, "--algo", "minimax", "--on", "entry"], ""));
    let misread = minimax
        .replace(
            r#""path":[2,1,0],"node":10,"depth":0,"alpha":-1000000000,"beta":1000000000,"result":25"#,
            r#""path":[2,1,0],"node":10,"depth":0,"alpha":-1000000000,"beta":1000000000,"result":5"#,
        )
        .replace(
            r#""path":[2,1],"node":9,"depth":1,"alpha":-1000000000,"beta":1000000000,"result":25"#,
            r#""path":[2,1],"node":9,"depth":1,"alpha":-1000000000,"beta":1000000000,"result":5"#,
        )
        .replace(
            r#""path":[2],"node":7,"depth":2,"alpha":-1000000000,"beta":1000000000,"result":15"#,
            r#""path":[2],"node":7,"depth":2,"alpha":-1000000000,"beta":1000000000,"result":5"#,
        )
        .replace(
            r#""path":[],"node":0,"depth":3,"alpha":-1000000000,"beta":1000000000,"result":15"#,
            r#""path":[],"node":0,"depth":3,"alpha":-1000000000,"beta":1000000000,"result":5"#,
        );
    assert_eq!(misread.matches(r#""result":5,"#).count(), 4, "{misread}");
    audit("a misread leaf, entry order", &["audit", format_example, "--trace", "-"], &misread, 1);

    // A negamax engine's records, values from the side to move at each node.
    let negamax: String = stdout(&nullwindow(&["trace", format_example, "--algo", "alphabeta"], ""))
        .lines()
        .map(|line| {
            let mut record: serde_json::Value = serde_json::from_str(line).unwrap();
            if record["path"].as_array().unwrap().len() % 2 == 1 {
                let (alpha, beta, result) = (
                    record["alpha"].as_i64().unwrap(),
                    record["beta"].as_i64().unwrap(),
                    record["result"].as_i64().unwrap(),
                );
                record["alpha"] = (-beta).into();
                record["beta"] = (-alpha).into();
                record["result"] = (-result).into();
                record["stored"] = match record["stored"].as_str() {
                    Some("lower") => "upper".into(),
                    Some("upper") => "lower".into(),
                    _ => record["stored"].clone(),
                };
            }
            format!("{record}\n")
        })
        .collect();
    audit(
        "negamax records, --values side-to-move",
        &["audit", format_example, "--trace", "-", "--values", "side-to-move"],
        &negamax,
        0,
    );
    audit("negamax records read from MAX's side", &["audit", format_example, "--trace", "-"], &negamax, 1);

    // Games: records name positions by their moves from the start.
    let ttt = r#"{"node":"","depth":9,"alpha":-1000000000,"beta":1000000000,"result":0}
{"node":"5","depth":8,"alpha":0,"beta":1,"result":1}
"#;
    audit("tic-tac-toe", &["audit", "--game", "tictactoe", "--trace", "-"], ttt, 1);
    let c4 = r#"{"node":"7422341735647741166133573473242566","depth":8,"alpha":0,"beta":1,"result":1,"stored":"lower"}
{"node":"74223417356477411661335734732425661","depth":7,"alpha":-1,"beta":0,"result":-1}
{"path":[2],"depth":7,"alpha":-1,"beta":0,"result":-1}
"#;
    audit(
        "connect four",
        &["audit", "--game", "connect4", "--position", "7422341735647741166133573473242566", "--trace", "-"],
        c4,
        0,
    );
    insta::assert_snapshot!(text);
}

/// Bad records are errors that name the line (and the column, for bad JSON), exit 2.
#[test]
fn audit_refuses_bad_records_with_their_line() {
    let file = "testdata/trees/format-example.tree";
    let errors: Vec<String> = [
        ("{\"path\":[0],\"depth\":1,\"alpha\":0,\"beta\":1}\n", "missing result"),
        ("\n{\"path\":[0], \"depth\":1 \"alpha\":0}\n", "bad JSON"),
        ("[1, 2]\n", "not an object"),
        ("{\"path\":[7],\"depth\":1,\"alpha\":0,\"beta\":1,\"result\":0}\n", "path outside"),
        ("{\"path\":[-1],\"depth\":1,\"alpha\":0,\"beta\":1,\"result\":0}\n", "negative index"),
        ("{\"node\":\"a\",\"depth\":1,\"alpha\":0,\"beta\":1,\"result\":0}\n", "id in a parenthesis tree"),
        ("{\"depth\":1,\"alpha\":0,\"beta\":1,\"result\":0}\n", "no node"),
        ("{\"path\":[],\"depth\":3,\"alpha\":0,\"beta\":1,\"result\":5000000000}\n", "out of range"),
        ("{\"path\":[],\"depth\":3,\"alpha\":0,\"beta\":1,\"result\":0,\"stored\":\"maybe\"}\n", "bad bound"),
        (
            "{\"path\":[0],\"node\":4,\"depth\":2,\"alpha\":0,\"beta\":1,\"result\":0}\n",
            "path and node disagree",
        ),
        (
            "{\"path\":[0],\"ply\":2,\"depth\":2,\"alpha\":0,\"beta\":1,\"result\":0}\n",
            "path and ply disagree",
        ),
        ("{\"node\":1,\"ply\":-1,\"depth\":2,\"alpha\":0,\"beta\":1,\"result\":0}\n", "negative ply"),
        ("\n\n", "empty"),
    ]
    .iter()
    .map(|(records, what)| format!("{what}: {}", error_line(&["audit", file, "--trace", "-"], records)))
    .collect();
    let mut text = errors.join("\n");
    text.push('\n');
    text.push_str(&error_line(&["audit", "--trace", "-"], ""));
    text.push('\n');
    text.push_str(&error_line(
        &["audit", "--game", "connect4", "--position", "44", "--trace", "-"],
        "{\"node\":\"45\",\"depth\":1,\"alpha\":0,\"beta\":1,\"result\":0}\n",
    ));
    insta::assert_snapshot!(text);
}

/// Records that repeat a field, and records whose judgement would take longer than `--limit`,
/// are refused with their line; a bad position in a test set is named by its line.
#[test]
fn audit_and_bench_name_the_line_of_what_they_refuse() {
    let file = "testdata/trees/format-example.tree";
    assert_eq!(
        error_line(
            &["audit", file, "--trace", "-"],
            "{\"path\":[0],\"depth\":2,\"alpha\":0,\"beta\":1,\"result\":3}\n{\"path\":[0],\"depth\":2,\"alpha\":0,\"result\":3,\"alpha\":5,\"beta\":9}\n"
        ),
        "error: <stdin>:2: the record gives 'alpha' twice"
    );
    // The empty Connect Four board is a solve of the whole game: refused within the limit.
    let start = std::time::Instant::now();
    let limited = error_line(
        &["audit", "--game", "connect4", "--trace", "-", "--limit", "10000"],
        "{\"path\":[3],\"depth\":4,\"alpha\":0,\"beta\":1,\"result\":0}\n{\"node\":\"\",\"depth\":42,\"alpha\":0,\"beta\":1,\"result\":1}\n",
    );
    assert_eq!(
        limited,
        "error: <stdin>:2: node '': judging it takes more than the --limit of 10000 nodes (the record before it holds)"
    );
    assert!(start.elapsed().as_secs() < 60);
    let set = std::env::temp_dir().join(format!("nullwindow-bad-set-{}.txt", std::process::id()));
    std::fs::write(&set, "4455 0\n448 1\n").unwrap();
    let set_path = set.to_str().unwrap();
    assert_eq!(
        error_line(&["bench", "connect4", set_path], ""),
        format!("error: {set_path}:2: position '448': move 3 ('8'): not a column 1-7")
    );
    let _ = std::fs::remove_file(&set);
}

/// Any language can use the oracle through the records: the Python example's audit clean, and one
/// changed result is caught. (Skipped, saying so, where `python3` is not installed.)
#[test]
fn the_python_example_writes_records_the_audit_reads() {
    let file = "testdata/trees/teaching.tree";
    let Ok(python) = Command::new("python3")
        .args(["examples/python/negamax.py", file])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
    else {
        eprintln!("python3 is not installed: the Python example was not run");
        return;
    };
    assert!(python.status.success(), "{python:?}");
    let records = stdout(&python);
    let audit = nullwindow(&["audit", file, "--trace", "-", "--values", "side-to-move"], &records);
    assert!(audit.status.success(), "{audit:?}");
    assert!(stdout(&audit).starts_with("ok: all 30 records hold"), "{}", stdout(&audit));
    let broken = records.replacen("\"result\": 8}", "\"result\": 9}", 1);
    assert_ne!(broken, records);
    let audit = nullwindow(&["audit", file, "--trace", "-", "--values", "side-to-move"], &broken);
    assert_eq!(audit.status.code(), Some(1), "{audit:?}");
}

/// The record format's JSON Schema (book/src/audit-record.schema.json) says what the reader takes:
/// the same required fields, and every field the audit's help explains.
#[test]
fn the_audit_record_schema_matches_the_reader() {
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("book/src/audit-record.schema.json").unwrap()).unwrap();
    let required: Vec<&str> =
        schema["required"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(required, ["depth", "alpha", "beta", "result"]);
    let help = stdout(&nullwindow(&["audit", "--help"], ""));
    for field in schema["properties"].as_object().unwrap().keys() {
        assert!(help.contains(&format!("\n  {field}")), "audit --help does not explain {field}");
    }
    // A record without each required field is refused; one with only those and a path is read.
    let full = r#"{"path":[],"depth":3,"alpha":0,"beta":1,"result":15}"#;
    let audit =
        |record: &str| nullwindow(&["audit", "testdata/trees/format-example.tree", "--trace", "-"], record);
    assert_eq!(audit(full).status.code(), Some(0), "{:?}", audit(full));
    for field in required {
        let mut record: serde_json::Value = serde_json::from_str(full).unwrap();
        record.as_object_mut().unwrap().remove(field);
        assert_eq!(audit(&record.to_string()).status.code(), Some(2), "{field}");
    }
}

/// Legality is the game's rules, not the search's move list: Connect Four's generator prunes column
/// 5 here (it hands the opponent a win), yet divide lists it and check judges it.
#[test]
fn divide_and_check_know_every_legal_connect4_move() {
    let position = "7422341735647741166133573473242566";
    let output = nullwindow(&["divide", "--game", "connect4", "--position", position, "--json"], "");
    assert!(output.status.success(), "{output:?}");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let moves: Vec<&str> =
        json["moves"].as_array().unwrap().iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert_eq!((moves, json["value"].as_i64()), (vec!["1", "2", "5", "6"], Some(1)));
    let five = json["moves"][2]["value"].as_i64().unwrap().to_string();
    let line = format!("5={five}");
    let checked = nullwindow(
        &["check", "--game", "connect4", "--position", position, "--value", "1", "--line", &line],
        "",
    );
    assert_eq!(checked.status.code(), Some(1), "{checked:?}");
    assert!(
        stdout(&checked).contains(&format!("ply 1: 5 is not a best move: it is worth {five}, but")),
        "{}",
        stdout(&checked)
    );
}

/// Parenthesis to gtree and back gives the same text for random trees; gtree to parenthesis refuses
/// what it would lose, names the node, and converts anyway with --lossy, saying what was lost.
#[test]
fn convert_round_trips_and_refuses_to_lose_what_it_cannot_print() {
    for seed in 0..12 {
        let seed = seed.to_string();
        let paren = stdout(&nullwindow(&["gen", "--seed", &seed, "--width", "1..4", "--depth", "0..5"], ""));
        let gtree = nullwindow(&["convert", "--to", "gtree", "-"], &paren);
        assert!(gtree.status.success(), "{gtree:?}");
        let parsed = nullwindow::tree::gtree::parse(&stdout(&gtree)).unwrap();
        assert_eq!(parsed, paren.trim().parse::<nullwindow::tree::Tree>().unwrap(), "seed {seed}");
        let back = nullwindow(&["convert", "--to", "paren", "--format", "gtree", "-"], &stdout(&gtree));
        assert!(back.status.success() && stderr(&back).is_empty(), "{back:?}");
        assert_eq!(stdout(&back), paren, "seed {seed}");
    }

    let file = "testdata/trees/transposition.gtree";
    assert_eq!(
        error_line(&["convert", file, "--to", "paren"], ""),
        "error: cannot convert without loss: node '1' is interior with the evaluation 5, and the \
         parenthesis format gives interior nodes none (a depth-limited search reads 0); add --lossy to \
         convert anyway"
    );
    let shared = "r 0 W a b\na 0 B c\nb 0 B c\nc 1 W\n";
    assert_eq!(
        error_line(&["convert", "--format", "gtree", "--to", "paren", "-"], shared),
        "error: cannot convert without loss: node 'c' has 2 parents, and the parenthesis format prints \
         it once per parent: the transposition is lost; add --lossy to convert anyway"
    );
    let lossy = nullwindow(&["convert", file, "--to", "paren", "--lossy"], "");
    assert!(lossy.status.success(), "{lossy:?}");
    assert_eq!(stdout(&lossy), "((7 (1 3)) ((1 3) 9))\n");
    assert_eq!(
        stderr(&lossy),
        "note: the parenthesis format lost 3 interior evaluations that are not 0 (the first at node '1'); \
         the sharing of 1 node, printed once per parent (the first is node '4')\n"
    );
    // Sixty diamonds in a row: 181 nodes, 2^61 paths. Counted, not printed.
    let mut diamonds: String = (0..60)
        .map(|i| format!("a{i} 0 b{i} c{i}\nb{i} 0 a{next}\nc{i} 0 a{next}\n", next = i + 1))
        .collect();
    diamonds.push_str("a60 1\n");
    let error = error_line(&["convert", "--format", "gtree", "--to", "paren", "--lossy", "-"], &diamonds);
    assert!(
        error.contains("this graph of 181 nodes would be a tree of 4611686018427387901 nodes"),
        "{error}"
    );
}

#[test]
fn gen_graph_prints_a_gtree_graph_with_transpositions() {
    let args = ["gen", "--graph", "--seed", "3", "--levels", "5", "--level-nodes", "2..3", "--width", "2"];
    let output = nullwindow(&args, "");
    assert!(output.status.success(), "{output:?}");
    assert_eq!(stdout(&output), stdout(&nullwindow(&args, "")));
    let graph = nullwindow::tree::gtree::parse(&stdout(&output)).unwrap();
    assert!(graph.has_shared_nodes());
    let solved = nullwindow(&["solve", "--format", "gtree", "-"], &stdout(&output));
    assert!(solved.status.success(), "{solved:?}");
    assert_eq!(
        error_line(&["gen", "--graph", "--format", "paren"], ""),
        "error: --format paren cannot hold a graph's shared nodes and interior evaluations: print it as \
         gtree (the default with --graph)"
    );
    assert_eq!(
        error_line(&["gen", "--graph", "--depth", "3"], ""),
        "error: the argument '--graph' cannot be used with '--depth <DEPTH>'"
    );
    assert_eq!(
        error_line(&["gen", "--graph", "--level-nodes", "0"], ""),
        "error: a level of 0 nodes is not allowed: every level needs a node"
    );
}

/// `trace --window ALPHA,BETA` is one fail-soft search with that root window: the same records
/// as MTD(f)'s first pass from the first guess BETA, and they audit clean; a driver that chooses
/// its own windows, an empty window and a window past ±10⁹ are refused.
#[test]
fn trace_searches_one_window_of_the_readers() {
    let tree = "testdata/trees/exercise-three-ply.tree";
    let common = ["--no-killers", "--no-history", "--on", "entry"];
    let windowed =
        nullwindow(&[&["trace", tree, "--algo", "alphabeta", "--window", "2,3"][..], &common].concat(), "");
    assert!(windowed.status.success(), "{}", stderr(&windowed));
    let mtdf =
        nullwindow(&[&["trace", tree, "--algo", "mtdf", "--first-guess", "3"][..], &common].concat(), "");
    let mtdf = stdout(&mtdf);
    let first_pass: Vec<&str> = mtdf.lines().filter(|line| line.contains("\"pass\":1,")).collect();
    let records: Vec<String> = stdout(&windowed).lines().map(str::to_owned).collect();
    assert_eq!(records.iter().map(String::as_str).collect::<Vec<_>>(), first_pass);
    assert!(records[0].contains("\"alpha\":2,\"beta\":3,\"result\":4"), "{}", records[0]);
    let audited = nullwindow(&["audit", tree, "--trace", "-"], &stdout(&windowed));
    assert!(audited.status.success() && stdout(&audited).starts_with("ok: all "), "{}", stdout(&audited));
    for (window, algo, message) in [
        ("2,3", "mtdf", "mtdf chooses its own windows"),
        ("3,3", "alphabeta", "the window (3, 3) is empty"),
        ("-2000000000,3", "pvs", "is not a whole number within ±10⁹"),
    ] {
        let refused = nullwindow(&["trace", tree, "--algo", algo, "--window", window], "");
        assert_eq!(refused.status.code(), Some(2));
        assert!(stderr(&refused).contains(message), "{}", stderr(&refused));
    }
}

/// What a student reads shows infinities, iterations and modes as the book writes them: `-inf` and
/// `+inf` in tables (numbers in JSON), each record of an iterative trace with its iteration and its
/// pass within it, `--fail-hard` said on standard output.
#[test]
fn output_shows_infinities_iterations_and_modes_as_the_book_writes_them() {
    let tree = "testdata/trees/teaching.tree";
    let table = stdout(&nullwindow(&["trace", tree, "--algo", "alphabeta", "--output", "table"], ""));
    let root = table.lines().find(|line| line.contains(" []  ")).unwrap();
    assert!(root.contains("-inf") && root.contains("+inf"), "{root}");
    let json = stdout(&nullwindow(&["trace", tree, "--algo", "alphabeta"], ""));
    assert!(json.contains("\"alpha\":-1000000000") && !json.contains("inf"), "JSON keeps the numbers");
    assert!(!json.contains("iteration"), "a search of one depth has no iterations");
    let iterative = stdout(&nullwindow(&["trace", tree, "--algo", "mtdf", "--iterative"], ""));
    let mut last = (0, 0);
    for line in iterative.lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        let (iteration, pass) = (record["iteration"].as_u64().unwrap(), record["pass"].as_u64().unwrap());
        assert!(iteration >= last.0 && (iteration > last.0 || pass >= last.1), "{line}");
        if iteration > last.0 {
            assert_eq!(pass, 1, "passes start again with each iteration: {line}");
        }
        last = (iteration, pass);
    }
    assert_eq!(last.0, 3, "one iteration a depth");
    let solved = stdout(&nullwindow(&["solve", tree, "--algo", "mtdf", "--fail-hard"], ""));
    assert!(
        solved.contains("(optimized drivers fail hard: every search's result is clamped to its window)"),
        "{solved}"
    );
    let traced = stdout(&nullwindow(
        &["trace", tree, "--algo", "mtdf", "--fail-hard", "--iterative", "--output", "table"],
        "",
    ));
    assert!(
        traced.lines().next().unwrap().starts_with("mtdf, deepening iteratively from depth 1"),
        "{traced}"
    );
    assert!(traced.lines().next().unwrap().contains("failing hard"), "{traced}");
    assert!(traced.lines().nth(1).unwrap().contains(" iter "), "{traced}");
}

/// Long commands off a terminal print a progress line every period (here a second, through
/// `NULLWINDOW_PROGRESS_SECONDS`; ten by default) on standard error, and nothing with `--quiet`;
/// `certify`'s closing line speaks only of the kinds of driver it ran.
#[test]
fn long_commands_report_progress_off_a_terminal_unless_quiet() {
    // Every leaf 0: a slow engine that always answers 0 is always right.
    let slow = "sleep 0.1; echo 0; true {}";
    let run = |quiet: bool| {
        let mut args =
            vec!["fuzz", "--cases", "25", "--family", "trees", "--range", "0..0", "--command", slow];
        if quiet {
            args.push("--quiet");
        }
        Command::new(env!("CARGO_BIN_EXE_nullwindow"))
            .args(&args)
            .env("NULLWINDOW_PROGRESS_SECONDS", "1")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap()
    };
    let loud = run(false);
    assert!(loud.status.success(), "{}", stderr(&loud));
    assert!(
        stderr(&loud).lines().any(|line| line.starts_with("fuzz: ") && line.contains(" cases, ")),
        "{}",
        stderr(&loud)
    );
    let quiet = run(true);
    assert!(quiet.status.success());
    assert_eq!(stderr(&quiet), "");
    let small = ["certify", "--nodes", "3", "--leaves", "2", "--graph-nodes", "0", "--algo"];
    let exact = stdout(&nullwindow(&[&small[..], &["mtdf"]].concat(), ""));
    assert!(exact.contains("\nholds: no driver is wrong on any case in "), "{exact}");
    let inexact = stdout(&nullwindow(&[&small[..], &["plaat-mtdf"]].concat(), ""));
    assert!(!inexact.contains("no exact driver"), "{inexact}");
}

/// A mistyped driver or family gets the nearest name; the demo's hint says to install the command
/// only where it runs from a build directory.
#[test]
fn a_mistyped_name_gets_the_nearest_and_the_hint_fits_how_it_runs() {
    let error = stderr(&nullwindow(&["solve", "testdata/trees/teaching.tree", "--algo", "mtfd"], ""));
    assert!(error.contains("unknown driver 'mtfd' (did you mean 'mtdf'?)"), "{error}");
    let error = stderr(&nullwindow(&["trace", "testdata/trees/teaching.tree", "--algo", "pvz"], ""));
    assert!(error.contains("(did you mean 'pvs'?)"), "{error}");
    let error = stderr(&nullwindow(&["fuzz", "--family", "tree", "--command", "true {}"], ""));
    assert!(error.contains("no family 'tree' (did you mean 'trees'?)"), "{error}");
    let in_place = stdout(&nullwindow(&[], ""));
    assert!(
        in_place.contains("Next: `cargo install --path . --locked` puts `nullwindow` on your PATH"),
        "{in_place}"
    );
    let installed = std::env::temp_dir().join(format!("nullwindow-{}-bin", std::process::id()));
    std::fs::create_dir_all(&installed).unwrap();
    let copy = installed.join("nullwindow");
    std::fs::copy(env!("CARGO_BIN_EXE_nullwindow"), &copy).unwrap();
    // A test that starts a process while the copy is open for writing hands the open file to it
    // until it execs: the copy is "busy" for that moment, so try again.
    let mut output = Command::new(&copy).output();
    for _ in 0..50 {
        match &output {
            Err(error) if error.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                std::thread::sleep(std::time::Duration::from_millis(20));
                output = Command::new(&copy).output();
            }
            _ => break,
        }
    }
    let output = output.unwrap();
    let _ = std::fs::remove_dir_all(&installed);
    let hint = String::from_utf8_lossy(&output.stdout);
    assert!(hint.contains("Next: `nullwindow gen --seed 7") && !hint.contains("cargo install"), "{hint}");
}
