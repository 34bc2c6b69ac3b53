//! The line protocol (`oracle::protocol`, `--engine`): games served by engines in Python and
//! JavaScript are searched exactly, and every way an engine can break the protocol is an error
//! that names the request and the answer.

use std::time::Duration;

use nullwindow::driver::Counts;
use nullwindow::game::Game;
use nullwindow::games::tictactoe::TicTacToe;
use nullwindow::oracle::protocol::{Options, unfold_engine};
use nullwindow::reference::minimax::minimax;

const TICTACTOE: &str = "python3 examples/protocol/tictactoe.py";
const COINS: &str = "node examples/protocol/coins.mjs";
#[cfg(feature = "cli")]
const REVERSI: &str = "python3 examples/protocol/reversi.py";
#[cfg(feature = "cli")]
const KALAH: &str = "node examples/protocol/kalah.mjs";
#[cfg(feature = "cli")]
const TAKEAWAY: &str = "python3 examples/protocol/takeaway.py";

fn options(depth: Option<u32>) -> Options {
    Options { depth, ..Options::default() }
}

fn in_repository(command: &str) -> String {
    format!("cd '{}' && {command}", env!("CARGO_MANIFEST_DIR"))
}

/// Tic-tac-toe through the protocol is the built-in game: the same positions, and at every depth
/// the same value at the root and after every first move.
#[test]
fn tictactoe_served_in_python_equals_the_built_in_game_at_every_depth() {
    let engine = unfold_engine(&in_repository(TICTACTOE), &options(None)).unwrap();
    assert_eq!(engine.tree.stats().nodes, 5478, "every position once");
    let builtin = TicTacToe::from_moves("").unwrap();
    let served = engine.game();
    for depth in 0..=9 {
        let value = |game: &dyn Fn(&mut Counts) -> i32| game(&mut Counts::default());
        assert_eq!(
            value(&|counts| minimax(&served, &served.root(), depth, counts)),
            value(&|counts| minimax(&builtin, &builtin.root(), depth, counts)),
            "depth {depth}"
        );
        for (served_move, builtin_move) in
            served.legal_moves(&served.root()).into_iter().zip(builtin.legal_moves(&builtin.root()))
        {
            assert_eq!(served_move.to_string(), builtin_move.to_string());
            let (a, b) =
                (served.play(&served.root(), served_move), builtin.play(&builtin.root(), builtin_move));
            assert_eq!(
                minimax(&served, &a, depth.saturating_sub(1), &mut Counts::default()),
                minimax(&builtin, &b, depth.saturating_sub(1), &mut Counts::default()),
                "depth {depth}, move {served_move}"
            );
        }
    }
}

/// Coins in a line, a game the crate does not have: every exact driver gives the value a direct
/// recursion over the coins gives, and the tokens meet in transpositions.
#[test]
fn coins_served_in_javascript_is_solved_exactly_by_every_exact_driver() {
    let engine = unfold_engine(&in_repository(COINS), &options(None)).unwrap();
    assert!(engine.tree.has_shared_nodes());
    let coins = [3, 9, 1, 2, 7, 5, 8, 4, 6];
    fn best(coins: &[i32]) -> i32 {
        match coins {
            [] => 0,
            [first, rest @ ..] => {
                (first - best(rest)).max(coins[coins.len() - 1] - best(&coins[..coins.len() - 1]))
            }
        }
    }
    assert_eq!(best(&coins), 5);
    let report = nullwindow::oracle::solve(
        &engine.game(),
        &nullwindow::registry::Driver::select("all").unwrap(),
        &nullwindow::driver::SearchParams::default(),
    );
    assert_eq!(report.value, 5);
    assert!(report.disagreements().next().is_none());
}

/// Each way to break the protocol ends the unfolding with a message naming what the engine did.
#[test]
fn an_engine_that_breaks_the_protocol_is_named_for_what_it_did() {
    // A little engine in Python whose answers to `children` and `eval` are given.
    let engine = |children: &str, eval: &str| {
        format!(
            "python3 -c \"
import sys
for line in sys.stdin:
    r = line.split() + ['']
    if r[0] == 'quit': break
    table = {{'protocol': 'protocol 1', 'root': 'a', 'children': {children}, 'eval': {eval}}}
    print(table[r[0]], flush=True)
\""
        )
    };
    let error = |command: &str, depth: Option<u32>| {
        let options =
            Options { depth, timeout: Duration::from_secs(5), max_nodes: 100, ..Options::default() };
        unfold_engine(command, &options).unwrap_err().to_string()
    };
    let tree = "{'a': 'l b r c', 'b': 'x d', 'c': 'x d'}.get(r[1], '')";
    let cases = [
        (engine(tree, "'1'"), None, ""),
        (
            engine("'m b m c'", "'1'"),
            Some(1),
            "the engine answered 'm b m c' to 'children a': the move 'm' is named twice",
        ),
        (engine("'m'", "'1'"), Some(1), "the engine answered 'm' to 'children a': the answer is pairs of"),
        (engine(tree, "'one'"), None, "the engine answered 'one' to 'eval "),
        (engine(tree, "'2000000000'"), None, "an evaluation is a whole number in the admissible range"),
        (engine("'m b' if r[1] == 'a' else 'n a'", "'1'"), None, "the game has a cycle through position"),
        (
            engine("'m b' if r[1] == 'a' else 'n a'", "'1'"),
            Some(200),
            "the game has more than 100 positions within 200 plies",
        ),
        (
            "echo nonsense".to_owned(),
            None,
            "the engine answered 'nonsense' to 'protocol 1': it must answer 'protocol 1'",
        ),
        (
            "read line; echo protocol 1; exit 3".to_owned(),
            None,
            "the engine exited (exit status: 3) before answering 'root'",
        ),
        (
            "read line; echo protocol 1; sleep 10".to_owned(),
            None,
            "the engine did not answer 'root' within 5.0 s",
        ),
    ];
    for (command, depth, message) in cases {
        if message.is_empty() {
            let options =
                Options { depth, timeout: Duration::from_secs(5), max_nodes: 100, ..Options::default() };
            let engine = unfold_engine(&command, &options).unwrap();
            assert_eq!(engine.tree.stats().nodes, 4, "d is reached from b and from c: one node");
            continue;
        }
        let found = error(&command, depth);
        assert!(found.contains(message), "{message}\n  found: {found}");
    }
    // A token reached with either side to move is two nodes, not an error: 'c' after the root's
    // move r (MIN to move), and after l and x (MAX to move). Its sides differ, not its value.
    let either = engine("{'a': 'l b r c', 'b': 'x c'}.get(r[1], '')", "'1' if r[1] == 'c' else '0'");
    let options =
        Options { depth: None, timeout: Duration::from_secs(5), max_nodes: 100, ..Options::default() };
    let unfolded = unfold_engine(&either, &options).unwrap();
    assert_eq!(unfolded.tree.stats().nodes, 4);
    let sides: Vec<_> = (0..4)
        .map(nullwindow::tree::NodeId)
        .filter(|node| unfolded.tokens[node.index()] == "c")
        .map(|node| unfolded.tree.player(node))
        .collect();
    assert_eq!(sides.len(), 2);
    assert_ne!(sides[0], sides[1]);
    // From MAX's side: c is worth 1 to its mover, so -1 where MIN moves, 1 where MAX does; the
    // root takes the better, l.
    assert_eq!(minimax(&unfolded.game(), &unfolded.tree.root_id(), u32::MAX, &mut Counts::default()), 1);
    // With `mover` the sides turn as the engine says: a and b are p's, c and d q's, so after l the
    // same side moves again. A game has two players, not three.
    let movers = |mover: &str| {
        format!(
            "python3 -c \"
import sys
for line in sys.stdin:
    r = line.split() + ['']
    if r[0] == 'quit': break
    table = {{'protocol': 'protocol 1 mover', 'root': 'a', 'children': {{'a': 'l b r c', 'b': 'x d'}}.get(r[1], ''), 'eval': '2' if r[1] == 'd' else '0', 'mover': {mover}}}
    print(table[r[0]], flush=True)
\""
        )
    };
    let unfolded = unfold_engine(&movers("{'a': 'p', 'b': 'p'}.get(r[1], 'q')"), &options).unwrap();
    let players: Vec<String> = (0..4)
        .map(nullwindow::tree::NodeId)
        .map(|node| format!("{}:{}", unfolded.tokens[node.index()], unfolded.tree.player(node)))
        .collect();
    assert_eq!(players, ["a:MAX", "b:MAX", "d:MIN", "c:MIN"]);
    // d is worth 2 to q, MIN: -2; c is worth 0: the root takes r.
    assert_eq!(minimax(&unfolded.game(), &unfolded.tree.root_id(), u32::MAX, &mut Counts::default()), 0);
    let found = error(&movers("r[1]"), None);
    assert!(
        found.contains("to 'mover c': a game has two players, and it named 'a' and 'b' before"),
        "{found}"
    );
}

/// An engine whose output has closed before the next request is sent is said to have stopped at
/// once, not waited for until the timeout: the closed output may be seen while the session looks
/// for an answer nobody asked for, just before it sends the request.
#[test]
fn an_engine_that_closed_its_output_between_requests_is_not_waited_for() {
    use nullwindow::oracle::protocol::Session;
    use std::time::Instant;
    let marker = std::env::temp_dir().join(format!("nullwindow-closed-{}", std::process::id()));
    let _ = std::fs::remove_file(&marker);
    let command = format!("read line; echo protocol 1; exec >&-; touch '{}'; sleep 30", marker.display());
    let mut session = Session::start(&command, Duration::from_secs(20)).unwrap();
    let waiting = Instant::now();
    while !marker.exists() {
        assert!(waiting.elapsed() < Duration::from_secs(20), "the engine never closed its output");
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = std::fs::remove_file(&marker);
    let asked = Instant::now();
    let error = session.ask(&["root".to_owned()]).unwrap_err().to_string();
    assert!(error.contains("closed its output before answering 'root'"), "{error}");
    assert!(
        asked.elapsed() < Duration::from_secs(10),
        "waited {:?} for an engine that had stopped",
        asked.elapsed()
    );
}

/// Through the command line: divide and check speak the engine's move names, trace names nodes by
/// their tokens, and audit reads them back.
#[cfg(feature = "cli")]
#[test]
fn the_commands_take_an_engine_as_their_target() {
    use std::process::{Command, Stdio};
    let run = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_nullwindow"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8(output.stdout).unwrap(),
            String::from_utf8(output.stderr).unwrap(),
        )
    };
    let (code, stdout, _) = run(&["divide", "--engine", COINS, "--json"]);
    assert_eq!(code, Some(0));
    let divided: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(divided["value"], 5);
    assert_eq!(divided["moves"][0]["move"], "L");
    assert_eq!(divided["moves"][1]["move"], "R");
    let (code, stdout, _) = run(&["check", "--engine", COINS, "--value", "5", "--line", "R=5 L=7"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("ply 2: L is not a best move"), "{stdout}");
    let (code, _, stderr) = run(&["check", "--engine", COINS, "--value", "5", "--line", "X"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("'X' is not a legal move here (legal: L R)"), "{stderr}");
    let (code, trace, _) = run(&["trace", "--engine", TICTACTOE, "--depth", "3", "--algo", "mtdf"]);
    assert_eq!(code, Some(0));
    // Nodes are named by their tokens: the first record's is the board after three moves.
    let first: serde_json::Value = serde_json::from_str(trace.lines().next().unwrap()).unwrap();
    assert_eq!(first["node"].as_str().map(|board| (board.len(), board.matches('.').count())), Some((9, 6)));
    let file = std::env::temp_dir().join(format!("nullwindow-{}-protocol-trace.jsonl", std::process::id()));
    std::fs::write(&file, &trace).unwrap();
    let (code, stdout, _) = run(&["audit", "--engine", TICTACTOE, "--trace", file.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.starts_with("ok: all "), "{stdout}");
    let lied = trace.replacen("\"result\":0", "\"result\":1", 1);
    std::fs::write(&file, lied).unwrap();
    let (code, stdout, _) = run(&["audit", "--engine", TICTACTOE, "--trace", file.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{stdout}");
    // A record may name its node by the moves from the root, by name.
    std::fs::write(&file, "{\"node\":\"R L\",\"depth\":1,\"alpha\":-100,\"beta\":100,\"result\":30}\n")
        .unwrap();
    let (code, stdout, _) = run(&["audit", "--engine", COINS, "--trace", file.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "node R L, searched 1 ply deep with the window (-100, 100), returned 30, but its value is 12"
        ),
        "{stdout}"
    );
    std::fs::write(&file, "{\"node\":\"R X\",\"depth\":1,\"alpha\":-100,\"beta\":100,\"result\":3}\n")
        .unwrap();
    let (code, _, stderr) = run(&["audit", "--engine", COINS, "--trace", file.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("'R X' is no position's token, nor moves from the root: after R there is no move 'X' (the moves there: L R)"), "{stderr}");
    let _ = std::fs::remove_file(&file);
    // fuzz draws positions of the engine's game: the example searcher agrees, and its planted sign
    // bug is caught on a position of coins in a line.
    let searcher = "python3 examples/python/mtdf_engine.py {} {depth}";
    let (code, stdout, _) =
        run(&["fuzz", "--engine", COINS, "--values", "side-to-move", "--command", searcher, "--cases", "40"]);
    assert_eq!((code, stdout.as_str()), (Some(0), "agreed: 40 cases of 40 (own), seed 0\n"));
    let buggy = format!("{searcher} --bug sign");
    let save = std::env::temp_dir().join(format!("nullwindow-{}-protocol-fuzz", std::process::id()));
    let save = save.to_str().unwrap();
    let (code, stdout, _) =
        run(&["fuzz", "--engine", COINS, "--values", "side-to-move", "--command", &buggy, "--save", save]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.starts_with("disagreement: case ") && stdout.contains("(own game, path ["), "{stdout}");
    let _ = std::fs::remove_file(format!("{save}.tree"));
    let _ = std::fs::remove_file(format!("{save}.gtree"));
    let (code, _, stderr) = run(&["solve", "--engine", "echo protocol 0"]);
    assert_eq!(code, Some(2));
    assert_eq!(
        stderr,
        "error: --engine: the engine answered 'protocol 0' to 'protocol 1': it must answer 'protocol 1' (the protocol's version), \
         optionally followed by the optional requests it answers\n"
    );
}

/// Runs `nullwindow ARGS` from the repository's root: its exit code, standard output and error.
#[cfg(feature = "cli")]
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_nullwindow"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// `fuzz --engine` without `--command`: the engine's own search on its own game. The correct
/// examples agree; each planted bug is caught and followed down to where it acts, and the
/// reproduce line shows it again.
#[cfg(feature = "cli")]
#[test]
fn the_engines_own_search_is_fuzzed_on_its_own_game() {
    use nullwindow::oracle::protocol::{Served, ServedGame};
    let served = |engine: &str| Served::start(&in_repository(engine), Duration::from_secs(10)).unwrap();
    let line = |stdout: &str, start: &str| {
        stdout.lines().find_map(|line| line.strip_prefix(start)).map(str::to_owned).unwrap_or_default()
    };
    for engine in [TICTACTOE, REVERSI, KALAH, TAKEAWAY] {
        let (code, stdout, stderr) = run(&["fuzz", "--engine", engine, "--cases", "60"]);
        assert_eq!(
            (code, stdout.as_str()),
            (Some(0), "agreed: 60 cases of 60 (the engine's own search on its own game), seed 0\n"),
            "{engine}: {stderr}"
        );
    }
    // Reversi's pass searched with the window not negated: the first broken record is a position
    // whose one move is the pass.
    let buggy = format!("{REVERSI} --bug pass-window");
    let (code, stdout, _) = run(&["fuzz", "--engine", &buggy]);
    assert_eq!(code, Some(1), "{stdout}");
    let record = line(&stdout, "record ");
    let token = record.split(": node ").nth(1).and_then(|rest| rest.split(',').next()).unwrap();
    let moves: Vec<String> =
        served(REVERSI).moves(token).unwrap().iter().map(|(name, _)| (*name).to_owned()).collect();
    assert_eq!(moves, ["pass"], "{stdout}");
    let reproduce = line(&stdout, "reproduce: ");
    let again = std::process::Command::new("sh")
        .args(["-c", &reproduce])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(1), "{reproduce}");
    assert!(String::from_utf8_lossy(&again.stdout).contains(&format!("record {record}")), "{reproduce}");
    // Kalah's extra turn negated as if sides alternated: the descent ends at a position with an
    // extra turn among its moves, one ply deep.
    let buggy = format!("{KALAH} --bug extra-turn");
    let (code, stdout, _) = run(&["fuzz", "--engine", &buggy]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("descended in ") && stdout.contains("to depth 1,"), "{stdout}");
    let token = line(&stdout, "position: ");
    let mut kalah = served(KALAH);
    let side = kalah.side_at(&token).unwrap();
    let game = ServedGame::new(kalah);
    let at = game.position(&token, side);
    assert!(
        game.legal_moves(&at).into_iter().any(|mv| game.to_move(&game.play(&at, mv)) == side),
        "{stdout}"
    );
    // A take-away engine whose table keeps values from the root's side, its tokens carrying no
    // side: caught, its records named by path.
    let buggy = format!("{TAKEAWAY} --bug table-side");
    let (code, stdout, _) = run(&["fuzz", "--engine", &buggy]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(line(&stdout, "record ").contains(": node ["), "{stdout}");
    // An engine that does not answer search is told so.
    let (code, _, stderr) = run(&["fuzz", "--engine", COINS]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("not 'search'"), "{stderr}");
    let (code, _, stderr) = run(&["fuzz", "--engine", TAKEAWAY, "--depth", "3"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("--depth goes with --position"), "{stderr}");
}

/// Side-less tokens and a side that moves twice through the other commands: a take-away trace
/// names the nodes whose token has either side by their moves, and audits clean; Kalah is
/// divided and traced by minimax, and the drivers that need alternating sides are left out of the
/// default group (and refused when named).
#[cfg(feature = "cli")]
#[test]
fn side_less_tokens_and_extra_turns_through_the_commands() {
    let (code, trace, stderr) = run(&["trace", "--engine", TAKEAWAY, "--depth", "6", "--algo", "mtdf"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(trace.contains("\"node\":\"moves:3 1\""), "a token with either side is named by its moves");
    let file = std::env::temp_dir().join(format!("nullwindow-{}-takeaway-trace.jsonl", std::process::id()));
    std::fs::write(&file, &trace).unwrap();
    let (code, stdout, _) = run(&["audit", "--engine", TAKEAWAY, "--trace", file.to_str().unwrap()]);
    let _ = std::fs::remove_file(&file);
    assert_eq!(code, Some(0), "{stdout}");
    // The default group leaves out the drivers that need alternating sides, and says so; named,
    // they are refused.
    let (code, stdout, stderr) = run(&["solve", "--engine", KALAH, "--depth", "4"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("lets a side move twice") && stdout.contains("minimax"), "{stderr}");
    let (code, _, stderr) = run(&["solve", "--engine", KALAH, "--depth", "4", "--algo", "mtdf"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("lets a side move twice") && stderr.contains("--algo minimax"), "{stderr}");
    let (code, stdout, _) = run(&["solve", "--engine", KALAH, "--depth", "4", "--algo", "minimax"]);
    assert_eq!(code, Some(0), "{stdout}");
    let (code, stdout, _) = run(&["divide", "--engine", KALAH, "--depth", "4", "--position", "1"]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.starts_with("the engine's game from position '1', unfolded 4 plies"), "{stdout}");
    // The side to move named in the engine's own words too.
    assert!(stdout.contains("values from the side to move (MIN, the engine's 'b')"), "{stdout}");
}

/// The runs the book's protocol chapter shows: a bug in Kalah's extra turn and one in Reversi's
/// pass, each followed down its game.
#[cfg(feature = "cli")]
#[test]
fn the_books_own_game_sessions() {
    let mut shown = String::new();
    for engine in [
        "node examples/protocol/kalah.mjs --bug extra-turn",
        "python3 examples/protocol/reversi.py --bug pass-window",
    ] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_nullwindow"))
            .args(["fuzz", "--engine", engine])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1));
        let stdout =
            String::from_utf8(output.stdout).unwrap().replace(env!("CARGO_BIN_EXE_nullwindow"), "nullwindow");
        shown.push_str(&format!("$ nullwindow fuzz --engine '{engine}'\n{stdout}\n"));
    }
    insta::assert_snapshot!(shown.trim_end());
}

/// The engine's own search through the protocol, as `fuzz --engine` asks it (no records).
#[cfg(feature = "cli")]
fn searched_by(
    game: &nullwindow::oracle::protocol::ServedGame,
) -> impl FnMut(
    &nullwindow::oracle::harness::GameCase<nullwindow::oracle::protocol::ServedGame>,
) -> Result<
    Option<nullwindow::oracle::harness::Answer<nullwindow::oracle::protocol::ServedPosition>>,
    String,
> + '_ {
    use nullwindow::oracle::harness::Answer;
    use nullwindow::oracle::protocol::Searched;
    move |case| {
        let token = game.token(&case.position);
        match game.served().search(&token, case.depth, None).map_err(|e| e.to_string())? {
            Searched::Skip => Ok(None),
            Searched::Value { value, best_move } => Ok(Some(Answer { best_move, ..Answer::value(value) })),
        }
    }
}

/// The mancala false alarm: once the oracle forgot its answers, it placed a position that a move
/// keeping the mover leads to with the other side to move, and judged a correct engine wrong.
/// Kalah's second pit keeps the mover at the start; forgetting after every case, the correct engine
/// agrees on every case, and a position after the extra turn has the mover's side again.
#[cfg(feature = "cli")]
#[test]
fn a_forgotten_position_is_asked_again_whole() {
    use nullwindow::driver::Perspective;
    use nullwindow::game::Player;
    use nullwindow::oracle::harness::{Config, GameOutcome, Progress, fuzz_game};
    use nullwindow::oracle::protocol::{Served, ServedGame};
    let game = ServedGame::new(Served::start(&in_repository(KALAH), Duration::from_secs(10)).unwrap());
    let extra_turn = |game: &ServedGame| {
        let start = game.root();
        let keeps =
            game.legal_moves(&start).into_iter().find(|&mv| game.move_name(&start, mv) == "2").unwrap();
        game.to_move(&game.play(&start, keeps))
    };
    assert_eq!(extra_turn(&game), Player::Max);
    let config = Config {
        perspective: Perspective::Mover,
        cases: 150,
        walk: 1000,
        height: 1..=4,
        ..Config::default()
    };
    let mut forgot = 0;
    let outcome = fuzz_game(&config, &game, searched_by(&game), |progress| {
        if let Progress::Cases { .. } = progress {
            forgot += u32::from(game.forget_beyond(0));
        }
    });
    assert!(matches!(outcome, GameOutcome::Agreed { agreed: 150, .. }), "forgot {forgot} times");
    assert_eq!(forgot, 150);
    assert_eq!(extra_turn(&game), Player::Max, "after forgetting, the extra turn still keeps the mover");
}

/// `nullwindow serve`: the protocol as the book gives it, and a reference engine that agrees; each
/// planted bug caught, as the kind of disagreement it is; its records audited clean.
#[cfg(feature = "cli")]
#[test]
fn the_served_reference_engine_speaks_the_protocol_and_its_bugs_are_caught() {
    use std::io::Write;
    let serve = |args: &str| format!("'{}' serve {args}", env!("CARGO_BIN_EXE_nullwindow"));
    // One engine process, asked a batch of requests: its answers, in order.
    let ask = |requests: &str| {
        let mut child = std::process::Command::new("sh")
            .args(["-c", &serve("tictactoe --records")])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(requests.as_bytes()).unwrap();
        String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap()
    };
    let trace = std::env::temp_dir().join(format!("nullwindow-{}-serve-records.jsonl", std::process::id()));
    let requests = format!(
        "protocol 1\nroot\neval 0.\nsearch 0. 2\nsearch 0. 3 {}\nchildren 5fa.\nsomething\nchildren 0.\nquit\n",
        trace.display()
    );
    let answers = ask(&requests);
    let lines: Vec<&str> = answers.lines().collect();
    assert_eq!(lines[..4], ["protocol 1 search records", "0.", "0", "0 1"], "{answers}");
    assert!(lines[4].starts_with("0 "), "{answers}");
    assert!(
        lines[5].starts_with("unknown position 5fa.") && lines[6].starts_with("unknown request"),
        "{answers}"
    );
    let records = std::fs::read_to_string(&trace).unwrap();
    let _ = std::fs::remove_file(&trace);
    assert!(records.lines().count() > 9 && records.contains("\"path\":[]"), "{records}");
    // A token means the same position to a fresh process: the centre's, asked of another engine.
    let children: Vec<&str> = lines[7].split_whitespace().collect();
    let centre = children.chunks(2).find(|pair| pair[0] == "5").unwrap()[1];
    assert!(centre.ends_with(".5"), "{centre}");
    let fresh = ask(&format!("protocol 1\neval {centre}\nchildren {centre}\nquit\n"));
    let fresh: Vec<&str> = fresh.lines().collect();
    assert_eq!(fresh[1], "0", "{fresh:?}");
    assert_eq!(fresh[2].split_whitespace().count(), 16, "{fresh:?}");
    assert!(fresh[2].split_whitespace().nth(1).unwrap().ends_with(".51"), "{fresh:?}");
    // The reference agrees; every planted bug is caught as what it is.
    let (code, stdout, stderr) = run(&["fuzz", "--engine", &serve("tictactoe"), "--cases", "60"]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    let (code, stdout, _) = run(&["fuzz", "--engine", &serve("tictactoe --records"), "--cases", "40"]);
    assert_eq!(code, Some(0), "{stdout}");
    for (bug, wrong) in [("off-by-one", "the value is wrong"), ("worst-move", "the move is wrong")] {
        let (code, stdout, _) =
            run(&["fuzz", "--engine", &serve(&format!("connect4 --bug {bug}")), "--cases", "60"]);
        assert_eq!(code, Some(1), "{bug}: {stdout}");
        assert!(stdout.contains(wrong), "{bug}: {stdout}");
    }
}

/// The depth asked is the depth judged: Connect Four at depths 9 and 10, every case judged at the
/// depth drawn (the summary's rows are those depths and no other), none beyond the budget.
#[cfg(feature = "cli")]
#[test]
fn own_game_cases_are_judged_at_exactly_the_depth_drawn() {
    let serve = format!("'{}' serve connect4", env!("CARGO_BIN_EXE_nullwindow"));
    let (code, stdout, stderr) = run(&["fuzz", "--engine", &serve, "--cases", "12", "--height", "9..10"]);
    assert_eq!(
        (code, stdout.as_str()),
        (Some(0), "agreed: 12 cases of 12 (the engine's own search on its own game), seed 0\n"),
        "{stderr}"
    );
    let depths: Vec<&str> = stderr.lines().filter(|line| line.starts_with("depth ")).collect();
    assert_eq!(depths.len(), 2, "{stderr}");
    assert!(depths[0].starts_with("depth 9 ") && depths[1].starts_with("depth 10 "), "{stderr}");
    let drawn = |depth: u32| {
        let config = nullwindow::oracle::harness::Config { height: 9..=10, ..Default::default() };
        let game = nullwindow::games::connect4::Connect4::from_moves("").unwrap();
        (0..12).filter(|&index| config.game_case(&game, index).depth == depth).count()
    };
    for (line, depth) in depths.iter().zip([9, 10]) {
        let counts: Vec<u64> = line.split_whitespace().skip(2).map(|n| n.parse().unwrap()).collect();
        assert_eq!(counts[0] as usize, drawn(depth), "{line}");
        assert_eq!(counts[0], counts[1], "all agreed: {line}");
    }
}

/// The checkers engine in C, built with the system's C compiler: it agrees at the depths where
/// table bugs show, and its planted bug (a hash that does not tell kings from men) is caught.
#[cfg(feature = "cli")]
#[test]
fn the_checkers_engine_in_c_agrees_and_its_planted_bug_is_caught() {
    let binary = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("checkers");
    let compiled = std::process::Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&binary)
        .arg("examples/protocol/checkers.c")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status();
    assert!(compiled.is_ok_and(|status| status.success()), "cc cannot build examples/protocol/checkers.c");
    let engine = binary.to_str().unwrap().to_owned();
    let (code, stdout, stderr) = run(&["fuzz", "--engine", &engine, "--cases", "100", "--height", "5..8"]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    let buggy = format!("{engine} --bug hash-ignores-kings");
    let (code, stdout, _) = run(&["fuzz", "--engine", &buggy, "--cases", "300", "--height", "5..8"]);
    assert_eq!(code, Some(1), "{stdout}");
    // Where the descent ends a king stands, whose value a man's entry gave.
    let position = stdout.lines().find_map(|line| line.strip_prefix("position: ")).unwrap_or_default();
    assert!(position.contains(['B', 'W']), "{stdout}");
}

/// An engine that scores in points with two decimals (`decimals=2`) is judged exactly: the correct
/// one agrees, and one whose search cuts its leaves to cents through a binary float is caught a
/// cent off, its values quoted as it wrote them. Values that cannot be held exactly are refused in
/// one line, saying what would fit.
#[cfg(feature = "cli")]
#[test]
fn an_engine_that_scores_with_decimals_is_judged_exactly() {
    let (code, stdout, stderr) =
        run(&["fuzz", "--engine", "python3 examples/protocol/reversi.py --decimals", "--cases", "150"]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(stdout.starts_with("agreed: 150 cases of 150"), "{stdout}");

    let engine = "python3 examples/protocol/reversi.py --decimals --bug cents";
    let (code, stdout, stderr) = run(&["fuzz", "--engine", engine]);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    let says = stdout.lines().find(|line| line.starts_with("the engine says ")).unwrap();
    let cents = |word: &str| -> i64 {
        let (whole, fraction) = word.trim_end_matches(';').split_once('.').unwrap();
        assert_eq!(fraction.len(), 2, "{says}: every value with its two digits");
        let sign = if whole.starts_with('-') { -1 } else { 1 };
        whole.parse::<i64>().unwrap() * 100 + sign * fraction.parse::<i64>().unwrap()
    };
    let words: Vec<&str> = says.split_whitespace().collect();
    let (said, exact) = (cents(words[3]), cents(words[8]));
    assert_eq!((said - exact).abs(), 1, "the planted error is one cent: {says}");
    let reproduce = stdout.lines().find_map(|line| line.strip_prefix("reproduce: ")).unwrap();
    assert!(reproduce.contains("--bug cents") && reproduce.contains("--position"), "{reproduce}");
    let shown = format!("$ nullwindow fuzz --engine '{engine}'\n{stdout}");
    insta::assert_snapshot!(
        "decimals_cents",
        shown.replace(env!("CARGO_BIN_EXE_nullwindow"), "nullwindow").trim_end()
    );

    // A tree holds whole numbers: the commands that unfold the engine's game refuse it.
    let (code, _, stderr) = run(&["solve", "--engine", "python3 examples/protocol/reversi.py --decimals"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("announces decimals=2") && stderr.lines().count() == 1, "{stderr}");

    // Nine digits leave room for values below one; 4.53 needs eight at most.
    let nine = "python3 -c \"
import sys
for line in sys.stdin:
    words = line.split()
    if words[0] == 'protocol': print('protocol 1 search decimals=9', flush=True)
    elif words[0] == 'root': print('s', flush=True)
    elif words[0] == 'children': print('', flush=True)
    else: print('4.53', flush=True)
\"";
    let (code, _, stderr) = run(&["fuzz", "--engine", nine, "--cases", "1"]);
    assert_eq!(code, Some(3), "{stderr}");
    assert!(stderr.contains("a value this large fits with decimals=8 at most"), "{stderr}");
    let twelve = nine.replace("decimals=9", "decimals=12");
    let (code, _, stderr) = run(&["fuzz", "--engine", &twelve, "--cases", "1"]);
    assert_eq!(code, Some(3), "{stderr}");
    assert!(stderr.contains("'decimals=12' announces how many digits"), "{stderr}");
}

/// Records of an engine with decimals: each value read exactly in its units, an edge beyond every
/// value read as infinity, and a value that cannot be held exactly refused at its line, never
/// rounded.
#[test]
fn records_with_decimals_are_read_exactly_or_refused_at_their_line() {
    use nullwindow::oracle::record::read_jsonl_in;
    use nullwindow::value::{Decimals, INFINITY};
    let cents = Decimals::new(2).unwrap();
    let line = |result: &str| {
        format!(
            "{{\"path\": [], \"depth\": 1, \"alpha\": -1e12, \"beta\": 1000000000, \"result\": {result}}}"
        )
    };
    let read = read_jsonl_in(&format!("\n{}", line("0.29")), cents).unwrap();
    assert_eq!(
        (read[0].alpha, read[0].beta, read[0].result, read[0].line),
        (-INFINITY, INFINITY, 29, Some(2))
    );
    assert_eq!(read_jsonl_in(&line("-3"), cents).unwrap()[0].result, -300);
    let refused = |result: &str| read_jsonl_in(&line(result), cents).unwrap_err().to_string();
    assert_eq!(
        refused("0.30000000000000004"),
        "line:1: 'result' is 0.30000000000000004, with 17 digits after the point: the engine announced \
         decimals=2"
    );
    assert_eq!(
        refused("12345678.9"),
        "line:1: 'result' is 12345678.9, outside ±9999999.99 with decimals=2 (a value this large fits \
         with decimals=1 at most)"
    );
    assert_eq!(refused("\"0.5\""), "line:1: 'result' is \"0.5\", not a number");
    // Whole numbers are read as before, without a point.
    assert!(nullwindow::oracle::record::read_jsonl(&line("0.5")).is_err());
}

/// An engine that scores losses by their distance (`distance`): the oracle's exact values follow
/// the rule (checked against a direct recursion over the game, a loss p plies below worth -100 +
/// p), the correct engine agrees, and the same engine with its table's entries unadjusted for
/// ply, the classic mate-score bug, is caught at the entry.
#[cfg(feature = "cli")]
#[test]
fn mate_scores_by_distance_are_judged_by_their_distance() {
    use nullwindow::game::Player;
    use nullwindow::oracle::protocol::{Served, ServedGame};
    const DISTANCE: &str = "python3 examples/protocol/takeaway.py --distance";
    /// The heap's value to the side to move, `ply` plies below the searched heap, `depth` deep.
    fn direct(heap: u32, depth: u32, ply: i32) -> i32 {
        if heap == 0 {
            return -100 + ply;
        }
        if depth == 0 {
            return 0;
        }
        [1, 3, 4]
            .iter()
            .filter(|&&take| take <= heap)
            .map(|take| -direct(heap - take, depth - 1, ply + 1))
            .max()
            .unwrap()
    }
    let game = ServedGame::new(Served::start(&in_repository(DISTANCE), Duration::from_secs(10)).unwrap());
    for heap in 0..=11 {
        for depth in 0..=7 {
            let root = game.position(&heap.to_string(), Player::Max);
            let value = nullwindow::reference::minimax::search(&game, &root, depth).value;
            assert_eq!(value, direct(heap, depth, 0), "heap {heap}, depth {depth}");
        }
    }
    assert!(game.take_failure().is_none());

    let (code, stdout, stderr) = run(&["fuzz", "--engine", DISTANCE, "--cases", "300"]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(stdout.starts_with("agreed: 300 cases of 300"), "{stdout}");
    let buggy = format!("{DISTANCE} --bug mate-ply");
    let (code, stdout, stderr) = run(&["fuzz", "--engine", &buggy]);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("from a table entry"), "{stdout}");
    let shown = format!("$ nullwindow fuzz --engine '{buggy}'\n{stdout}");
    insta::assert_snapshot!(
        "distance_mate_ply",
        shown.replace(env!("CARGO_BIN_EXE_nullwindow"), "nullwindow").trim_end()
    );

    // Records named by token, each with its ply, as an engine that keeps no paths writes them: the
    // iterations' records lie where their plies say, the correct engine agrees and the bug is
    // caught at its entry as before. Without the ply, a shallower iteration's record would be
    // placed as deep as a search of the case's depth puts it: on the wrong side, at the wrong
    // distance.
    let by_token = format!("{DISTANCE} --token-records");
    let (code, stdout, stderr) = run(&["fuzz", "--engine", &by_token, "--cases", "300", "--height", "1..9"]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    let (code, stdout, stderr) = run(&["fuzz", "--engine", &format!("{by_token} --bug mate-ply")]);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("from a table entry"), "{stdout}");

    // One value a position cannot hold a value by distance: refused in one line.
    for args in [&["solve", "--engine", DISTANCE][..], &["fuzz", "--engine", DISTANCE, "--deeper-entries"]] {
        let (code, _, stderr) = run(args);
        assert_eq!((code, stderr.lines().count()), (Some(2), 1), "{args:?}: {stderr}");
        assert!(stderr.contains("distance"), "{stderr}");
    }
}

/// A solver (`end`: `search POS end`, every search to a depth declined) judged against the game's
/// full value with `--to-end`: the correct one agrees, and its planted extra-turn bug is followed
/// down the game with no depth to lower, its `reproduce:` line and a session that ends with a
/// search to the end both exit 1. A run that asks a solver for depths says what to ask instead.
#[cfg(feature = "cli")]
#[test]
fn a_solver_is_judged_to_the_end_of_its_game() {
    const SOLVER: &str = "node examples/protocol/kalah.mjs --solver";
    let (code, stdout, stderr) = run(&["fuzz", "--engine", SOLVER, "--to-end", "--cases", "200"]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(stdout.starts_with("agreed: 200 cases of 200"), "{stdout}");
    assert!(stderr.contains("depth end"), "the table by depth names the end: {stderr}");
    // Earlier in the game, where the proofs' table holds entries from many depths: a proof to the
    // end that iterated read a shallower iteration's entry as if it reached the end, and called
    // this correct solver wrong at case 41.
    let (code, stdout, stderr) =
        run(&["fuzz", "--engine", SOLVER, "--to-end", "--cases", "300", "--height", "4..12"]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");

    let buggy = format!("{SOLVER} --bug extra-turn");
    let (code, stdout, stderr) = run(&["fuzz", "--engine", &buggy, "--to-end"]);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    let shown = format!("$ nullwindow fuzz --engine '{buggy}' --to-end\n{stdout}");
    insta::assert_snapshot!(
        "to_end_solver",
        shown.replace(env!("CARGO_BIN_EXE_nullwindow"), "nullwindow").trim_end()
    );
    let reproduce = stdout.lines().find_map(|line| line.strip_prefix("reproduce: ")).unwrap();
    let token = reproduce.split("--position ").nth(1).unwrap().split(' ').next().unwrap();
    assert!(reproduce.ends_with("--depth end"), "{reproduce}");
    let (code, stdout, _) = run(&["fuzz", "--engine", &buggy, "--position", token, "--depth", "end"]);
    assert_eq!(code, Some(1), "{stdout}");
    // The same position, asked of the correct solver, and beyond a budget: each message says
    // "depth end", never the number that stands for it inside.
    let (code, stdout, stderr) = run(&["fuzz", "--engine", SOLVER, "--position", token, "--depth", "end"]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert_eq!(stdout, format!("agreed: the engine's search of {token} to depth end is right\n"));
    let tight = ["fuzz", "--engine", SOLVER, "--position", token, "--depth", "end", "--max-positions", "1"];
    let (code, _, stderr) = run(&tight);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr
            .contains(&format!("{token}, depth end: the proof needs more than 1 position (--max-positions)")),
        "{stderr}"
    );
    let session = std::env::temp_dir().join(format!("nullwindow-to-end-{}.session", std::process::id()));
    std::fs::write(&session, format!("# a search to the end\nsearch {token} end\n")).unwrap();
    let (code, stdout, stderr) = run(&["fuzz", "--engine", &buggy, "--session", session.to_str().unwrap()]);
    let _ = std::fs::remove_file(&session);
    assert_eq!(code, Some(1), "{stdout}{stderr}");

    // A game without end: no proof reaches its end, and the cases are undecided, saying why.
    let endless = "python3 -c \"
import sys
for line in sys.stdin:
    words = line.split()
    if words[0] == 'protocol': print('protocol 1 search end', flush=True)
    elif words[0] == 'root': print('a', flush=True)
    elif words[0] == 'children': print('x b' if words[1] == 'a' else 'y a', flush=True)
    else: print('0', flush=True)
\"";
    // A run that judged nothing agrees with nothing: it says so, and does not exit 0.
    for keep_going in [false, true] {
        let mut args = vec!["fuzz", "--engine", endless, "--to-end", "--cases", "2"];
        args.extend(keep_going.then_some("--keep-going"));
        let (code, stdout, stderr) = run(&args);
        assert_eq!(code, Some(2), "{stdout}{stderr}");
        assert!(
            stderr.contains(
                "error: nothing was judged (2 cases); 2 cases undecided (beyond the budget, or a line past the \
                 searches' height); --max-positions raises the budget"
            ),
            "{stderr}"
        );
        assert!(stderr.contains("or a line longer than the 100000 plies the searches go"), "{stderr}");
    }

    let (code, _, stderr) = run(&["fuzz", "--engine", SOLVER, "--cases", "3"]);
    assert_ne!(code, Some(0));
    assert!(stderr.contains("declined every case") && stderr.contains("--to-end"), "{stderr}");
    for args in [
        &["fuzz", "--engine", KALAH, "--to-end"][..],
        &["fuzz", "--engine", KALAH, "--position", "1", "--depth", "end"],
        &["fuzz", "--engine", SOLVER, "--to-end", "--position", "1", "--depth", "3"],
        &["fuzz", "--engine", SOLVER, "--to-end", "--session", "no-such.session"],
        &["fuzz", "--engine", SOLVER, "--to-end", "--no-depth-zero"],
        &["fuzz", "--replay", "testdata/trees/format-example.tree", "--depth", "end", "--command", "true"],
    ] {
        let (code, _, stderr) = run(args);
        assert_eq!((code, stderr.lines().count()), (Some(2), 1), "{args:?}: {stderr}");
    }
}
