//! Engines as they are, not as the textbook writes them: a table kept from one search to the next
//! (a wrong answer shown again after the fewest earlier searches, saved as a session), and every
//! `fuzz` flag honoured with `--engine`.

use super::hostile::{SECONDS, Scratch, run};

/// A negamax engine whose table is kept between searches, wrong only with a warm table (see its
/// docstring).
const WARM_TABLE: &str = include_str!("../../examples/protocol/warm_table.py");

/// A bug that shows only with a warm table is reported as depending on the engine's history: the
/// earlier searches are shrunk to the one that leaves the wrong entry, saved as a session, and the
/// session's `reproduce:` line shows the bug again (exit 1), in a fresh engine.
#[test]
fn a_bug_of_a_warm_table_is_shown_by_its_shortest_history() {
    let scratch = Scratch::new("warm-table");
    let script = scratch.file("warm_table.py");
    std::fs::write(&script, WARM_TABLE).unwrap();
    let engine = format!("python3 {script}");
    let save = scratch.file("history");
    let fuzz = ["fuzz", "--engine", &engine, "--height", "1..2", "--cases", "200", "--save", &save];
    let (code, stdout, stderr) = run(&scratch, &fuzz, SECONDS);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("asked the same again, the engine said"), "{stdout}");
    assert!(
        stdout.contains("history: the finding depends on the engine's history: a fresh engine is wrong this way after 1 search of the"),
        "{stdout}"
    );
    assert!(stdout.contains("each of them needed"), "{stdout}");
    let saved = format!("{save}.session");
    let session = std::fs::read_to_string(&saved).unwrap();
    let requests: Vec<&str> = session.lines().filter(|line| !line.starts_with('#')).collect();
    assert_eq!(requests.len(), 2, "{session}");
    // The entry left by the first search is the one the second reads wrongly: the first's root
    // and a child of the second's share a key.
    let words = |line: &str| line.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
    let (first, last) = (words(requests[0]), words(requests[1]));
    assert_eq!((first[0].as_str(), last[0].as_str()), ("search", "search"), "{session}");
    assert!(
        stdout.contains(&format!("reproduce: {} fuzz --engine", env!("CARGO_BIN_EXE_nullwindow"))),
        "{stdout}"
    );
    let (code, replayed) = super::hostile::reproduce(&scratch, &stdout);
    assert_eq!(code, Some(1), "{replayed}");
    assert!(replayed.contains("asked after the 1 request before it in the session"), "{replayed}");
    // The last search alone, in a fresh engine, is right: the session holds the bug, the position
    // does not.
    std::fs::write(scratch.file("alone.session"), format!("{}\n", requests[1])).unwrap();
    let alone = ["fuzz", "--engine", &engine, "--session", &scratch.file("alone.session")];
    let (code, stdout, stderr) = run(&scratch, &alone, SECONDS);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(stdout.starts_with("agreed: the engine's search of"), "{stdout}");

    // Asked twice in a row, the case after the other half's search answers two ways; asked twice
    // by a fresh engine it does not: the history is shrunk for that finding too, and its session,
    // replayed with --repeat, shows it again.
    let save = scratch.file("repeated");
    let repeat =
        ["fuzz", "--engine", &engine, "--height", "1..2", "--cases", "200", "--repeat", "2", "--save", &save];
    let (code, stdout, stderr) = run(&scratch, &repeat, SECONDS);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("the engine answered 2 ways"), "{stdout}");
    assert!(stdout.contains("history: the finding depends on the engine's history"), "{stdout}");
    let line = stdout.lines().find(|line| line.starts_with("reproduce: ")).expect(&stdout);
    assert!(line.contains(" --session ") && line.ends_with(" --repeat 2"), "{line}");
    let (code, replayed) = super::hostile::reproduce(&scratch, &stdout);
    assert_eq!(code, Some(1), "{replayed}");
    assert!(replayed.contains("the engine answered 2 ways"), "{replayed}");
}

/// A session file that is not one names the line and column; a request the engine did not
/// announce is refused in one line.
#[test]
fn a_session_file_is_read_strictly() {
    let scratch = Scratch::new("session-errors");
    let script = scratch.file("warm_table.py");
    std::fs::write(&script, WARM_TABLE).unwrap();
    let engine = format!("python3 {script}");
    let cases = [
        ("search S 2\n  serch Kx 1\n", "line 2, column 3: 'serch Kx 1' is not a request of a session"),
        ("search S two\n", "line 1, column 10: 'two' is not a depth"),
        ("search S 1\nnew\n", "its last request is 'new'"),
        ("# nothing\n\n", "the file holds no request"),
        ("new\nsearch S 1\n", "asks 'new', which the engine does not announce in its version line (search)"),
        // `#` stands for a byte that is not UTF-8.
        ("search S 1\nsearch #\n", "line 2 is not UTF-8"),
    ];
    let file = scratch.file("good.session");
    std::fs::write(&file, "search S 1\n").unwrap();
    let saved = ["fuzz", "--engine", &engine, "--session", &file, "--save", &scratch.file("again")];
    let (code, _, stderr) = run(&scratch, &saved, SECONDS);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.starts_with("error: --save saves a finding's session; --session replays"), "{stderr}");
    for (text, expected) in cases {
        let file = scratch.file("bad.session");
        let bytes: Vec<u8> = text
            .bytes()
            .map(|byte| if byte == b'#' && text.contains("search #") { 0xff } else { byte })
            .collect();
        std::fs::write(&file, bytes).unwrap();
        let (code, stdout, stderr) =
            run(&scratch, &["fuzz", "--engine", &engine, "--session", &file], SECONDS);
        assert_eq!(code, Some(2), "{text}: {stdout}{stderr}");
        assert!(stderr.contains(expected), "{text}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

/// `--timeout` bounds each search answer of `fuzz --engine` (and not its other requests, which
/// --engine-timeout bounds): a slower search is an engine failure whose `reproduce:` line carries
/// the bound, so that it fails the same way again.
#[test]
fn timeout_bounds_each_search() {
    let scratch = Scratch::new("search-timeout");
    let script = scratch.file("slow.py");
    std::fs::write(
        &script,
        "import sys, time\nfor line in sys.stdin:\n    r = line.split()\n    if r[0] == 'quit': break\n    \
         if r[0] == 'protocol': a = 'protocol 1 search'\n    elif r[0] == 'root': a = 's'\n    \
         elif r[0] == 'children': a = 'a t b u' if r[1] == 's' else ''\n    elif r[0] == 'eval': a = '0'\n    \
         else:\n        time.sleep(0.6 if r[2] != '0' else 0)\n        a = '0'\n    print(a, flush=True)\n",
    )
    .unwrap();
    let engine = format!("python3 {script}");
    let (code, stdout, stderr) =
        run(&scratch, &["fuzz", "--engine", &engine, "--cases", "3", "--timeout", "0.2"], SECONDS);
    assert_eq!(code, Some(3), "{stdout}{stderr}");
    assert!(stderr.contains("within 0.2 s"), "{stderr}");
    let line = stderr.lines().find(|line| line.starts_with("reproduce: ")).expect(&stderr);
    assert!(line.ends_with(" --timeout 0.2"), "{line}");
    let (code, _) = super::hostile::reproduce(&scratch, &stderr);
    assert_eq!(code, Some(3));
    // With time enough, the same searches agree.
    let (code, stdout, stderr) =
        run(&scratch, &["fuzz", "--engine", &engine, "--cases", "3", "--timeout", "5"], SECONDS);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    let (code, _, stderr) = run(&scratch, &["fuzz", "--engine", &engine, "--timeout", "0"], SECONDS);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("--timeout 0: a search needs some time"), "{stderr}");
}

/// `--keep-going` with `--engine`: two planted bugs of two kinds are two findings, each followed
/// down the game within its kind, saved (`-1`, `-2`) and reproduced on its own; the last line
/// counts each kind.
#[test]
fn keep_going_finds_each_of_two_bugs() {
    let scratch = Scratch::new("keep-going-engine");
    let engine = format!("{} serve tictactoe --bug off-by-one,worst-move", env!("CARGO_BIN_EXE_nullwindow"));
    let save = scratch.file("found");
    let fuzz = ["fuzz", "--engine", &engine, "--keep-going", "--cases", "100", "--save", &save];
    let (code, stdout, stderr) = run(&scratch, &fuzz, SECONDS);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(stdout.starts_with("disagreement, a wrong move ("), "{stdout}");
    assert!(stdout.contains("\ndisagreement, a wrong value ("), "{stdout}");
    let last = stdout.lines().last().unwrap();
    assert!(last.starts_with("kinds: 2 (a wrong move ") && last.contains(", a wrong value "), "{last}");
    assert!(!stderr.contains("hint:"), "a wrong move is no extra turn: {stderr}");
    // Each finding stands alone: its session saved, its own line shows it again.
    for (number, kind) in [(1, "the move is wrong"), (2, "the value is wrong")] {
        let session = std::fs::read_to_string(format!("{save}-{number}.session")).unwrap();
        assert_eq!(session.lines().filter(|line| line.starts_with("search ")).count(), 1, "{session}");
        let finding = stdout.split("\ndisagreement, ").nth(number - 1).unwrap();
        let (code, replayed) = super::hostile::reproduce(&scratch, finding);
        assert_eq!(code, Some(1), "{replayed}");
        assert!(replayed.contains(kind), "{replayed}");
    }
    // One case has no kinds to go on to: refused in one line.
    let one = ["fuzz", "--engine", &engine, "--keep-going", "--position", "5", "--depth", "2"];
    let (code, _, stderr) = run(&scratch, &one, SECONDS);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.starts_with("error: --keep-going runs drawn cases; --position judges one case"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let walked = ["fuzz", "--engine", &engine, "--walk", "3", "--position", "5", "--depth", "2"];
    let (code, _, stderr) = run(&scratch, &walked, SECONDS);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.starts_with("error: --walk draws the positions of cases"), "{stderr}");
    // The same engine without its bugs agrees on every case.
    let fine = format!("{} serve tictactoe", env!("CARGO_BIN_EXE_nullwindow"));
    let (code, stdout, stderr) =
        run(&scratch, &["fuzz", "--engine", &fine, "--keep-going", "--cases", "100"], SECONDS);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(stdout.starts_with("agreed: 100 cases of 100"), "{stdout}");
}

/// A small negamax engine over a fixed game for the `--repeat` tests: `VALUE_HOOK` and
/// `MOVE_HOOK` change its answer at the start, `FEATURES` is its version line's.
const NEGAMAX: &str = r#"import sys, random
G = {'s': 'a t b u c v', 't': 'd w', 'u': 'e x', 'v': 'f y'}
E = {'s': 0, 't': 0, 'u': 0, 'v': 0, 'w': 2, 'x': 2, 'y': -1}
fresh = True
def negamax(p, depth):
    w = G.get(p, '').split()
    if depth == 0 or not w: return E[p], []
    scored = [(-negamax(c, depth - 1)[0], m) for m, c in zip(w[0::2], w[1::2])]
    best = max(v for v, _ in scored)
    return best, [m for v, m in scored if v == best]
for line in sys.stdin:
    r = line.split()
    if not r: continue
    if r[0] == 'quit': break
    if r[0] == 'protocol': a = 'protocol 1 FEATURES'
    elif r[0] == 'root': a = 's'
    elif r[0] == 'children': a = G.get(r[1], '')
    elif r[0] == 'eval': a = str(E[r[1]])
    elif r[0] == 'new':
        fresh = True
        a = 'ok'
    else:
        v, moves = negamax(r[1], int(r[2]))
        if r[1] == 's' and r[2] != '0':
            VALUE_HOOK
        mv = moves[0] if moves else None
        if moves and r[1] == 's':
            MOVE_HOOK
        fresh = False
        a = str(v) + (' ' + mv if mv else '')
    print(a, flush=True)
"#;

/// The engine `NEGAMAX` with its hooks filled in, written to the scratch directory.
fn negamax(scratch: &Scratch, name: &str, features: &str, value_hook: &str, move_hook: &str) -> String {
    let script = scratch.file(&format!("{name}.py"));
    let text = NEGAMAX
        .replace("FEATURES", features)
        .replace("VALUE_HOOK", value_hook)
        .replace("MOVE_HOOK", move_hook);
    std::fs::write(&script, text).unwrap();
    format!("python3 {script}")
}

/// `--repeat K` asks each search K times: an engine that adds noise at the start is caught as
/// answering several ways; one that picks among equally good moves at random is not wrong; and one
/// that is right only on a fresh table agrees once it announces `new`, which `--repeat` sends
/// before each asking.
#[test]
fn repeat_catches_an_engine_that_answers_several_ways() {
    let scratch = Scratch::new("repeat");
    let noisy = negamax(&scratch, "noisy", "search", "v += random.choice([0, 1])", "pass");
    let fuzz = |engine: &str, extra: &[&str]| {
        let args = [&["fuzz", "--engine", engine, "--height", "1..2", "--cases", "40"][..], extra].concat();
        run(&scratch, &args, SECONDS)
    };
    let (code, stdout, stderr) = fuzz(&noisy, &["--repeat", "6"]);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("the engine answered 2 ways: asked the same 6 times in a row, it said"),
        "{stdout}"
    );
    assert!(stdout.contains(" --repeat 6\n") || stdout.ends_with(" --repeat 6\n"), "{stdout}");
    // Three equally good moves, one drawn at random each time: no finding.
    let fickle = negamax(&scratch, "fickle", "search", "pass", "mv = random.choice(moves)");
    let (code, stdout, stderr) = fuzz(&fickle, &["--repeat", "6"]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    // Right only on a fresh table: asked twice in a row, it answers two ways...
    let stale = "v += 0 if fresh else 1";
    let unannounced = negamax(&scratch, "stale", "search", stale, "pass");
    let (code, stdout, _) = fuzz(&unannounced, &["--repeat", "2"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("the engine answered 2 ways"), "{stdout}");
    // A fresh engine asked the case twice answers two ways too: the position is the reproduction.
    assert!(stdout.contains(" --repeat 2\n") && stdout.contains(" --position "), "{stdout}");
    let (code, replayed) = super::hostile::reproduce(&scratch, &stdout);
    assert_eq!(code, Some(1), "{replayed}");
    // ...and announcing `new`, it is asked each time after it, and agrees.
    let announced = negamax(&scratch, "stale-new", "search new", stale, "pass");
    let (code, stdout, stderr) = fuzz(&announced, &["--repeat", "2"]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    let (code, _, stderr) = run(
        &scratch,
        &["fuzz", "--command", "true {}", "--repeat", "2", "--family", "trees", "--cases", "1"],
        SECONDS,
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.starts_with("error: --repeat asks the engine's own search again"), "{stderr}");
}

/// An engine whose unmake leaves the board corrupt: at `u` it searches `v`, a position of the other
/// branch, where `y` should be. Its value is right (the two are worth the same), so only its
/// records show the bug: the record that reaches `v` from `u` is a disagreement of its own, not
/// an engine failure, named with the moves `u` has, and followed down the game to `u`.
const CORRUPT: &str = r#"import sys, json
G = {'s': 'a t b u', 't': 'c v d w', 'u': 'e x f y'}
E = {'s': 0, 't': 0, 'u': 0, 'v': 3, 'w': -1, 'x': 2, 'y': 3}
def search(p, depth, out):
    w = G.get(p, '').split()
    kids = list(zip(w[0::2], w[1::2]))
    if p == 'u' and depth >= 1: kids = [('e', 'x'), ('f', 'v')]
    if depth == 0 or not kids:
        v, best = E[p], None
    else:
        v, best = None, None
        for m, c in kids:
            x = -search(c, depth - 1, out)[0]
            if v is None or x > v: v, best = x, m
    out.append(json.dumps({'node': p, 'depth': depth, 'alpha': -1000, 'beta': 1000, 'result': v}))
    return v, best
for line in sys.stdin:
    r = line.split()
    if not r: continue
    if r[0] == 'quit': break
    if r[0] == 'protocol': a = 'protocol 1 search records'
    elif r[0] == 'root': a = 's'
    elif r[0] == 'children': a = G.get(r[1], '')
    elif r[0] == 'eval': a = str(E[r[1]])
    else:
        out = []
        v, mv = search(r[1], int(r[2]), out)
        if len(r) > 3: open(r[3], 'w').write('\n'.join(out) + '\n')
        a = str(v) + (' ' + mv if mv else '')
    print(a, flush=True)
"#;

#[test]
fn a_record_outside_the_game_is_a_disagreement_at_its_node() {
    let scratch = Scratch::new("outside");
    let script = scratch.file("corrupt.py");
    std::fs::write(&script, CORRUPT).unwrap();
    let engine = format!("python3 {script}");
    let (code, stdout, stderr) = run(&scratch, &["fuzz", "--engine", &engine, "--cases", "50"], SECONDS);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("position: u\n"), "descended to u: {stdout}");
    assert!(
        stdout.contains(
            "record 2 reaches node v, searched 0 plies deep, which is not a position after any move of node u \
             (record 3, moves e, f)"
        ),
        "{stdout}"
    );
    let (code, replayed) = super::hostile::reproduce(&scratch, &stdout);
    assert_eq!(code, Some(1), "{replayed}");
    // `audit --engine` says the same of the records of one search.
    let records = scratch.file("records.jsonl");
    let mut child = std::process::Command::new("python3")
        .arg(&script)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::io::Write::write_all(
        child.stdin.as_mut().unwrap(),
        format!("protocol 1\nsearch s 2 {records}\nquit\n").as_bytes(),
    )
    .unwrap();
    drop(child.stdin.take());
    child.wait().unwrap();
    let audit = ["audit", "--engine", &engine, "--trace", &records, "--values", "side-to-move"];
    let (code, stdout, stderr) = run(&scratch, &audit, SECONDS);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(
        stdout.starts_with(&format!(
            "{records}:5: the record reaches node v, searched 0 plies deep, which is not a position after any \
             move of node u (line 6, moves e, f)\nall 7 records hold their rules, but one reaches a position \
             outside the game"
        )),
        "{stdout}"
    );
}

/// A record that names its node by moves and gives a `ply` is read only if the two agree: an
/// engine whose ply is off by one has failed (its records cannot be placed), and names the line.
#[test]
fn a_records_ply_must_agree_with_the_moves_it_names() {
    let scratch = Scratch::new("ply");
    let script = scratch.file("ply.py");
    std::fs::write(
        &script,
        "import sys, json\nG = {'s': 'a t', 't': 'x v'}\nfor line in sys.stdin:\n    r = line.split()\n    \
         if r[0] == 'quit': break\n    if r[0] == 'protocol': a = 'protocol 1 search records'\n    \
         elif r[0] == 'root': a = 's'\n    elif r[0] == 'children': a = G.get(r[1], '')\n    \
         elif r[0] == 'eval': a = '0'\n    else:\n        \
         open(r[3], 'w').write(json.dumps({'node': 'a x', 'ply': int(sys.argv[1]), 'depth': 0, \
         'alpha': -1, 'beta': 1, 'result': 0}) + '\\n')\n        a = '0'\n    print(a, flush=True)\n",
    )
    .unwrap();
    let fuzz = |ply: &str| {
        let engine = format!("python3 {script} {ply}");
        run(&scratch, &["fuzz", "--engine", &engine, "--position", "s", "--depth", "2"], SECONDS)
    };
    let (code, stdout, stderr) = fuzz("2");
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    let (code, stdout, stderr) = fuzz("3");
    assert_eq!(code, Some(3), "{stdout}{stderr}");
    assert!(stderr.contains("records:1: 'ply' is 3, but the node names 2 moves"), "{stderr}");
}

/// An engine that, once it has searched `My`, values `Kx` one too high ever after: asked again in
/// the same process it is wrong the same way, so the run follows it down the game; a fresh engine
/// asked the position alone is right, so the report says the finding depends on what came before,
/// and gives the one earlier search that matters as a session whose line exits 1.
#[test]
fn a_steady_finding_that_a_fresh_engine_does_not_show_gets_its_history() {
    let scratch = Scratch::new("poisoned");
    let script = scratch.file("poisoned.py");
    let engine_text = WARM_TABLE
        .replace("table = None", "table = None\npoisoned = False")
        .replace(
            "        v, mv = negamax(r[1], int(r[2]), True)",
            "        v, mv = negamax(r[1], int(r[2]), True)\n        if r[1] == 'My': poisoned = True\n        \
             if r[1] == 'Kx' and poisoned and int(r[2]) > 0: v += 1",
        )
        .replace("if not root and table is not None", "if False and table is not None");
    std::fs::write(&script, engine_text).unwrap();
    let engine = format!("python3 {script}");
    let save = scratch.file("poisoned");
    let fuzz = ["fuzz", "--engine", &engine, "--height", "1..2", "--cases", "200", "--save", &save];
    let (code, stdout, stderr) = run(&scratch, &fuzz, SECONDS);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(!stdout.contains("asked the same again"), "a steady finding: {stdout}");
    assert!(stdout.contains("position: Kx\n"), "{stdout}");
    assert!(
        stdout.contains("history: a fresh engine asked this position alone answers it rightly"),
        "{stdout}"
    );
    assert!(stdout.contains("a fresh engine is wrong this way after 1 search of the"), "{stdout}");
    let session = std::fs::read_to_string(format!("{save}.session")).unwrap();
    assert!(session.contains("\nsearch My "), "{session}");
    let (code, replayed) = super::hostile::reproduce(&scratch, &stdout);
    assert_eq!(code, Some(1), "{replayed}");
}

/// The runs the protocol chapter shows of engines as they are: a table kept between searches,
/// its history shrunk and saved as a session, and two bugs at once with `--keep-going`; one
/// snapshot each, and the session file.
#[test]
fn the_books_real_engine_sessions() {
    let scratch = Scratch::new("book-sessions");
    let binary = env!("CARGO_BIN_EXE_nullwindow");
    for (name, engine, extra) in [
        (
            "warm_table",
            "python3 examples/protocol/warm_table.py",
            &["--height", "1..2", "--cases", "200"][..],
        ),
        (
            "keep_going",
            "nullwindow serve tictactoe --bug off-by-one,worst-move",
            &["--keep-going", "--cases", "100"],
        ),
    ] {
        let runnable = engine.replace("examples/", &format!("{}/examples/", env!("CARGO_MANIFEST_DIR")));
        let runnable = runnable.replace("nullwindow serve", &format!("{binary} serve"));
        // Run where a reader would, but in a scratch directory, where the session is saved.
        let output = std::process::Command::new(binary)
            .args([&["fuzz", "--engine", &runnable][..], extra].concat())
            .current_dir(&scratch.0)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1));
        let stdout = String::from_utf8(output.stdout)
            .unwrap()
            .replace(&runnable, engine)
            .replace(binary, "nullwindow");
        let shown = format!("$ nullwindow fuzz --engine '{engine}' {}\n{stdout}", extra.join(" "));
        insta::assert_snapshot!(name, shown.trim_end());
    }
    let session = std::fs::read_to_string(scratch.0.join("nullwindow-fuzz-failure.session")).unwrap();
    let session = session.replace(&format!("{}/", env!("CARGO_MANIFEST_DIR")), "");
    insta::assert_snapshot!(
        "session",
        format!("$ cat nullwindow-fuzz-failure.session\n{session}").trim_end()
    );
}

/// An engine that scores a finished position statically when its depth runs out there (a material
/// count, 3 or -2, where the game's final value is ±100), as two of three published engines did:
/// judged by `eval`, it is wrong at depth 1; once it announces `horizon` and answers it with what
/// its search gives there, it agrees, and `eval` still decides a finished position above the
/// horizon. `--deeper-entries`, which judges on an unfolded tree of one value a position, is
/// refused for it in one line.
#[test]
fn an_engine_that_scores_its_horizon_statically_agrees_once_it_says_so() {
    let scratch = Scratch::new("horizon");
    let engine = |name: &str, features: &str| {
        let script = scratch.file(&format!("{name}.py"));
        std::fs::write(
            &script,
            format!(
                "import sys\nG = {{'s': 'a t b u', 't': 'c v d x', 'u': 'e w'}}\n\
                 E = {{'s': 0, 't': 1, 'u': -1, 'v': 100, 'w': -100, 'x': 5}}\nSTATIC = {{'v': 3, 'w': -2}}\n\
                 def search(p, depth):\n    w = G.get(p, '').split()\n    \
                 if depth == 0: return STATIC.get(p, E[p]), None\n    if not w: return E[p], None\n    \
                 return max((-search(c, depth - 1)[0], m) for m, c in zip(w[0::2], w[1::2]))\n\
                 for line in sys.stdin:\n    r = line.split()\n    if r[0] == 'quit': break\n    \
                 if r[0] == 'protocol': a = 'protocol 1 {features}'\n    elif r[0] == 'root': a = 's'\n    \
                 elif r[0] == 'children': a = G.get(r[1], '')\n    elif r[0] == 'eval': a = str(E[r[1]])\n    \
                 elif r[0] == 'horizon': a = str(STATIC.get(r[1], E[r[1]]))\n    \
                 else:\n        v, m = search(r[1], int(r[2]))\n        a = str(v) + (' ' + m if m else '')\n    \
                 print(a, flush=True)\n"
            ),
        )
        .unwrap();
        format!("python3 {script}")
    };
    let fuzz = |engine: &str, extra: &[&str]| {
        run(&scratch, &[&["fuzz", "--engine", engine, "--cases", "60"][..], extra].concat(), SECONDS)
    };
    let unannounced = engine("static", "search");
    let (code, stdout, stderr) = fuzz(&unannounced, &[]);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("the value is wrong"), "{stdout}");
    let announced = engine("static-horizon", "search horizon");
    let (code, stdout, stderr) = fuzz(&announced, &[]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(stdout.starts_with("agreed: 60 cases of 60"), "{stdout}");
    // Above the horizon a finished position is worth its `eval`: a search that scored it
    // statically there too is wrong.
    let everywhere = std::fs::read_to_string(scratch.file("static-horizon.py"))
        .unwrap()
        .replace("    if not w: return E[p], None", "    if not w: return STATIC.get(p, E[p]), None");
    std::fs::write(scratch.file("static-everywhere.py"), everywhere).unwrap();
    let everywhere = format!("python3 {}", scratch.file("static-everywhere.py"));
    let (code, stdout, _) = fuzz(&everywhere, &[]);
    assert_eq!(code, Some(1), "{stdout}");
    let (code, _, stderr) = fuzz(&announced, &["--deeper-entries"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.starts_with("error: --deeper-entries judges a case on its game unfolded"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// An engine with two selective features it names with `options`: late move reductions (every
/// move after the first searched a ply shallower, never searched again) and a null-move switch.
const SELECTIVE: &str = r#"import sys
G = {'S': 'k Kx m My', 'Kx': 'a Kza b Kzb', 'My': 'a Mza b Mzb',
     'Kza': 'a Kzaa b Kzab', 'Kzb': 'a Kzba b Kzbb', 'Mza': 'a Mzaa b Mzab', 'Mzb': 'a Mzba b Mzbb'}
E = {'S': 0, 'Kx': 1, 'My': -1, 'Kza': 2, 'Kzb': -3, 'Mza': 5, 'Mzb': 4,
     'Kzaa': 1, 'Kzab': -2, 'Kzba': 3, 'Kzbb': 0, 'Mzaa': 4, 'Mzab': 6, 'Mzba': -1, 'Mzbb': 2}
ON = {'lmr': True, 'nullmove': True}
def search(p, depth):
    w = G.get(p, '').split()
    if depth == 0 or not w: return E[p], None
    best = None
    for i, (m, c) in enumerate(zip(w[0::2], w[1::2])):
        d = depth - 1 - (1 if ON['lmr'] and i > 0 and depth >= 2 else 0)
        v = -search(c, d)[0]
        if best is None or v > best[0]: best = (v, m)
    return best
for line in sys.stdin:
    r = line.split()
    if not r: continue
    if r[0] == 'quit': break
    if r[0] == 'protocol': a = 'protocol 1 search options'
    elif r[0] == 'root': a = 'S'
    elif r[0] == 'children': a = G.get(r[1], '')
    elif r[0] == 'eval': a = str(E[r[1]])
    elif r[0] == 'options': a = ' '.join(ON)
    elif r[0] == 'set':
        ON[r[1]] = r[2] == 'on'
        a = 'ok'
    else:
        v, m = search(r[1], int(r[2]))
        a = str(v) + (' ' + m if m else '')
    print(a, flush=True)
"#;

/// `--off` switches an engine's selective features off before any search, in every fresh engine
/// too, and its `reproduce:` lines carry it: with late move reductions on the engine is inexact,
/// with them off (or all its options off) it agrees. A name it does not have, or an engine that
/// names none, is refused in one line.
#[test]
fn off_switches_selective_features_off_before_any_search() {
    let scratch = Scratch::new("off");
    let script = scratch.file("selective.py");
    std::fs::write(&script, SELECTIVE).unwrap();
    let engine = format!("python3 {script}");
    let fuzz = |extra: &[&str]| {
        let args = [&["fuzz", "--engine", &engine, "--height", "2..3", "--cases", "60"][..], extra].concat();
        run(&scratch, &args, SECONDS)
    };
    let (code, stdout, stderr) = fuzz(&["--off", "nullmove"]);
    assert_eq!(code, Some(1), "late move reductions are inexact: {stdout}{stderr}");
    assert!(stdout.contains(" --off nullmove"), "{stdout}");
    let (code, replayed) = super::hostile::reproduce(&scratch, &stdout);
    assert_eq!(code, Some(1), "{replayed}");
    for off in ["lmr", "all", "lmr,nullmove"] {
        let (code, stdout, stderr) = fuzz(&["--off", off]);
        assert_eq!(code, Some(0), "--off {off}: {stdout}{stderr}");
    }
    let (code, _, stderr) = fuzz(&["--off", "futility"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.starts_with("error: --off futility: the engine's options are lmr, nullmove (or give 'all')"),
        "{stderr}"
    );
    let plain = scratch.file("plain.py");
    std::fs::write(&plain, SELECTIVE.replace("protocol 1 search options", "protocol 1 search")).unwrap();
    let (code, _, stderr) =
        run(&scratch, &["fuzz", "--engine", &format!("python3 {plain}"), "--off", "lmr"], SECONDS);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.starts_with("error: --off: the engine announces search in its version line, not 'options'"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// A game whose two halves mirror each other, and an engine that says so with `symmetric`; its
/// evaluation of one mirrored leaf is off by one. Its search is exact for that evaluation, so the
/// exact oracle agrees with it; the relation it declares catches the asymmetry, followed down the
/// game to the node where it shows, with and without --selective.
#[test]
fn a_planted_asymmetry_is_found_through_symmetric() {
    let scratch = Scratch::new("symmetric");
    let engine = |name: &str, features: &str, rb: i32| {
        let script = scratch.file(&format!("{name}.py"));
        std::fs::write(
            &script,
            format!(
                "import sys\nG = {{'S': 'l L1 r R1', 'L1': 'a La b Lb', 'R1': 'a Ra b Rb'}}\n\
                 E = {{'S': 0, 'L1': 0, 'R1': 0, 'La': 3, 'Lb': -1, 'Ra': 3, 'Rb': {rb}}}\n\
                 def mirror(p): return {{'L': 'R', 'R': 'L'}}.get(p[0], p[0]) + p[1:]\n\
                 def search(p, depth):\n    w = G.get(p, '').split()\n    if depth == 0 or not w: return E[p], None\n    \
                 return max((-search(c, depth - 1)[0], m) for m, c in zip(w[0::2], w[1::2]))\n\
                 for line in sys.stdin:\n    r = line.split()\n    if r[0] == 'quit': break\n    \
                 if r[0] == 'protocol': a = 'protocol 1 {features}'\n    elif r[0] == 'root': a = 'S'\n    \
                 elif r[0] == 'children': a = G.get(r[1], '')\n    elif r[0] == 'eval': a = str(E[r[1]])\n    \
                 elif r[0] == 'symmetric': a = mirror(r[1]) if r[1] != 'S' else ''\n    \
                 elif r[0] == 'mover': a = 'b' if r[1].endswith('1') else 'a'\n    \
                 else:\n        v, m = search(r[1], int(r[2]))\n        a = str(v) + (' ' + m if m else '')\n        \
                 if len(r) > 3: open(r[3], 'w').close()\n    \
                 print(a, flush=True)\n"
            ),
        )
        .unwrap();
        format!("python3 {script}")
    };
    let fuzz = |engine: &str| run(&scratch, &["fuzz", "--engine", engine, "--cases", "40"], SECONDS);
    let (code, stdout, stderr) = fuzz(&engine("asymmetric", "search symmetric", -2));
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    // Followed down to the mirrored leaf whose evaluation is off: depth 0, two moves in.
    assert!(
        stdout.contains("a broken symmetry: the engine says -2 here, but -1 at Lb of a position it declares")
            || stdout.contains(
                "a broken symmetry: the engine says -1 here, but -2 at Rb of a position it declares"
            ),
        "{stdout}"
    );
    assert!(stdout.contains("to depth 0, 2 moves from the start"), "{stdout}");
    let (code, replayed) = super::hostile::reproduce(&scratch, &stdout);
    assert_eq!(code, Some(1), "{replayed}");
    // With --selective, which judges no value, the relation is held all the same.
    let selective = engine("selective", "search records mover symmetric", -2);
    let (code, stdout, stderr) =
        run(&scratch, &["fuzz", "--engine", &selective, "--cases", "40", "--selective"], SECONDS);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("a broken symmetry: the engine says"), "{stdout}");
    // The exact oracle alone agrees: the search is exact for its evaluation.
    let (code, stdout, stderr) = fuzz(&engine("unannounced", "search", -2));
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    // And the symmetric engine agrees.
    let (code, stdout, stderr) = fuzz(&engine("symmetric", "search symmetric", -1));
    assert_eq!(code, Some(0), "{stdout}{stderr}");
}
