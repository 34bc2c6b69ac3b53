//! Hostile engines and inputs: every way an engine, a command or a file can misbehave ends within
//! seconds and bounded memory, with the verdict a user expects; no process of a run and no
//! temporary file outlives it; records that cannot be read are never agreed with.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A fresh directory for one test, removed at the end (and its own `TMPDIR` for the command).
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let path = std::env::temp_dir().join(format!("nullwindow-hostile-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(path.join("tmp")).unwrap();
        Self(path)
    }

    fn file(&self, name: &str) -> String {
        self.0.join(name).to_str().unwrap().to_owned()
    }

    /// What the command left in its temporary directory.
    fn leftovers(&self) -> Vec<String> {
        std::fs::read_dir(self.0.join("tmp"))
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn nullwindow(scratch: &Scratch) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_nullwindow"));
    command.current_dir(env!("CARGO_MANIFEST_DIR")).env("TMPDIR", scratch.0.join("tmp")).stdin(Stdio::null());
    command
}

/// Runs `nullwindow ARGS`, which must end within `limit` (`fuzz` saves its failing case in the
/// scratch directory, not in the repository).
fn run(scratch: &Scratch, args: &[&str], limit: Duration) -> (Option<i32>, String, String) {
    let start = Instant::now();
    let save = scratch.file("failing");
    let mut args = args.to_vec();
    if args.first() == Some(&"fuzz") {
        args.extend(["--save", &save]);
    }
    let Output { status, stdout, stderr } = nullwindow(scratch).args(&args).output().unwrap();
    assert!(start.elapsed() < limit, "{args:?} took {:?}", start.elapsed());
    (
        status.code(),
        String::from_utf8_lossy(&stdout).into_owned(),
        String::from_utf8_lossy(&stderr).into_owned(),
    )
}

/// Whether process `pid` still runs (a zombie does not).
fn alive(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{}/stat", pid.trim()))
        .is_ok_and(|stat| stat.rsplit(')').next().is_some_and(|rest| !rest.trim_start().starts_with('Z')))
}

/// Whether the process `pid` is gone, waiting a moment for it: a process sent SIGKILL dies when
/// the kernel next runs it, which on a loaded machine may be after its killer has exited.
fn gone(pid: &str) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    while alive(pid) {
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

/// The pid a command wrote to `file`, waiting a moment for it.
fn pid_in(file: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        if let Ok(pid) = std::fs::read_to_string(file)
            && !pid.trim().is_empty()
        {
            return pid.trim().to_owned();
        }
        assert!(Instant::now() < deadline, "no pid in {file}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

const SECONDS: Duration = Duration::from_secs(20);

/// One case whose value is 0 whatever the engine is asked: a random tree with every leaf 0.
const ZERO_CASE: [&str; 6] = ["--family", "trees", "--cases", "1", "--range", "0..0"];

/// Records that cannot be read are an engine failure (exit 3), never agreed with: a wrong record
/// followed by a byte that is not UTF-8, a link to an endless device, a FIFO.
#[test]
fn records_that_cannot_be_read_are_never_agreed_with() {
    let scratch = Scratch::new("records");
    let wrong = r#"{"path":[],"depth":0,"alpha":-9,"beta":9,"result":5}"#;
    let engines = [
        (format!("printf '%s\\n\\377' '{wrong}' > {{trace}}; echo 0; true {{}}"), "not UTF-8"),
        ("ln -sf /dev/zero {trace}; echo 0; true {}".to_owned(), "not a regular file"),
        ("mkfifo {trace}; echo 0; true {}".to_owned(), "not a regular file"),
    ];
    for (engine, why) in engines {
        let mut args = vec!["fuzz", "--command", &engine];
        args.extend(ZERO_CASE);
        let (code, stdout, stderr) = run(&scratch, &args, SECONDS);
        assert_eq!(code, Some(3), "{engine}: {stdout}{stderr}");
        assert!(stderr.contains(why), "{engine}: {stderr}");
    }
}

/// A grandchild that leaves the group for a session of its own, holding the output open, does not
/// hold the run past its answer.
#[test]
fn a_grandchild_in_its_own_session_does_not_hold_the_run() {
    let scratch = Scratch::new("session");
    let mut args = vec!["fuzz", "--timeout", "2", "--command", "setsid sleep 20 & echo 0; true {}"];
    args.extend(ZERO_CASE);
    let (code, stdout, stderr) = run(&scratch, &args, Duration::from_secs(6));
    assert_eq!(code, Some(0), "{stdout}{stderr}");
}

/// Records named as `trace` names the nodes of a gtree case (their ids, as strings) are read as
/// `audit` reads them.
#[test]
fn records_of_a_gtree_case_are_named_by_its_ids() {
    let scratch = Scratch::new("gtree");
    let engine = format!(
        "{} trace {{}} --depth {{depth}} --algo alphabeta > {{trace}} && python3 -c \"import json, sys; \
         print(json.loads(open(sys.argv[1]).read().splitlines()[-1])['result'])\" {{trace}}",
        env!("CARGO_BIN_EXE_nullwindow")
    );
    let (code, stdout, stderr) =
        run(&scratch, &["fuzz", "--family", "graphs", "--cases", "12", "--command", &engine], SECONDS);
    assert_eq!((code, stdout.as_str()), (Some(0), "agreed: 12 cases of 12 (graphs), seed 0\n"), "{stderr}");
}

/// A line that never ends, a game whose tokens fill memory, a position with 100,000 moves.
#[test]
fn an_engine_s_answers_are_bounded_in_length_memory_and_time() {
    let scratch = Scratch::new("answers");
    let endless = "read l; echo protocol 1; read l; yes | tr -d '\\n'";
    let (code, _, stderr) = run(&scratch, &["divide", "--engine", endless], SECONDS);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("to 'root'") && stderr.contains("longer than 64 MiB"), "{stderr}");
    // Every position has two moves to positions of 400-byte tokens, and the game never ends.
    let growing = "python3 -c \"
import sys
for line in sys.stdin:
    r = line.split()
    if r[0] == 'quit': break
    if r[0] == 'protocol': print('protocol 1')
    elif r[0] == 'root': print('x' * 400)
    elif r[0] == 'children': print('a', r[1][:300] + r[1][300:] + 'a', 'b', r[1] + 'b')
    else: print(0)
    sys.stdout.flush()
\"";
    let args = ["divide", "--engine", growing, "--depth", "40", "--max-positions", "18446744073709551615"];
    let (code, _, stderr) = run(&scratch, &[&args[..], &["--max-memory", "8"]].concat(), SECONDS);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("more than 8 MiB") && stderr.contains("--max-memory"), "{stderr}");
    // A root with 100,000 moves is read in linear time.
    let wide = "python3 -c \"
import sys
for line in sys.stdin:
    r = line.split()
    if r[0] == 'quit': break
    if r[0] == 'protocol': print('protocol 1')
    elif r[0] == 'root': print('r')
    elif r[0] == 'children': print(' '.join('m%d p%d' % (i, i) for i in range(100000)) if r[1] == 'r' else '')
    else: print(len(r[1]))
    sys.stdout.flush()
\"";
    let (code, stdout, stderr) = run(&scratch, &["solve", "--engine", wide, "--algo", "minimax"], SECONDS);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("minimax value: -2"), "{stdout}");
}

/// After an engine's timeout, after an engine that ignores `quit`, and after a run of `fuzz
/// --command` that left a process behind in its group, nothing the run started is running.
#[test]
fn no_engine_outlives_the_command() {
    let scratch = Scratch::new("engines");
    let pid = scratch.file("pid");
    let late = format!("echo $$ > {pid}; read l; echo protocol 1; sleep 1000");
    let (code, _, stderr) = run(&scratch, &["divide", "--engine", &late, "--engine-timeout", "0.5"], SECONDS);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(gone(&pid_in(&pid)), "the late engine still runs");
    std::fs::remove_file(&pid).unwrap();
    let deaf = format!(
        "echo $$ > {pid}; trap '' TERM INT; while read l; do case $l in protocol*) echo protocol 1;; root) echo r;; \
         children*) echo;; eval*) echo 0;; quit) sleep 1000;; esac; done"
    );
    let (code, stdout, stderr) = run(&scratch, &["divide", "--engine", &deaf], SECONDS);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(gone(&pid_in(&pid)), "the engine that ignores quit still runs");
    std::fs::remove_file(&pid).unwrap();
    let behind = format!("sleep 1000 & echo $! > {pid}; echo 0; true {{}}");
    let mut args = vec!["fuzz", "--command", &behind];
    args.extend(ZERO_CASE);
    let (code, stdout, stderr) = run(&scratch, &args, SECONDS);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(gone(&pid_in(&pid)), "the process left behind still runs");
    assert!(scratch.leftovers().is_empty(), "{:?}", scratch.leftovers());
}

/// Ctrl-C (SIGINT) or SIGTERM, to `divide` waiting on an engine and to `fuzz` while it shrinks: an
/// interruption (exit 130), nothing blamed on the engine, nothing saved, nothing left running or
/// on disk.
#[test]
fn an_interruption_stops_everything_and_blames_no_one() {
    let scratch = Scratch::new("interrupt");
    let pid = scratch.file("pid");
    let interrupt = |args: &[&str], signal: &str, after: Duration| {
        let child =
            nullwindow(&scratch).args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        std::thread::sleep(after);
        // The engine has started (on a loaded machine that may take longer than `after`).
        if args.contains(&"divide") {
            let _ = pid_in(&pid);
        }
        let killed = Command::new("kill").args([signal, &child.id().to_string()]).status().unwrap();
        assert!(killed.success());
        let output = child.wait_with_output().unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr),
        )
    };
    let slow = format!("echo $$ > {pid}; read l; echo protocol 1; sleep 1000");
    let (code, said) = interrupt(&["divide", "--engine", &slow], "-INT", Duration::from_millis(700));
    assert_eq!(code, Some(130), "{said}");
    assert!(gone(&pid_in(&pid)), "the engine still runs");
    std::fs::remove_file(&pid).unwrap();
    // A slow engine with the sign bug: shrinking takes a while, and is interrupted.
    let save = scratch.file("failing");
    let slow_buggy = "sleep 0.1; python3 examples/python/mtdf_engine.py {} {depth} --bug sign";
    let args = ["fuzz", "--values", "side-to-move", "--save", &save, "--command", slow_buggy];
    for signal in ["-INT", "-TERM"] {
        let (code, said) = interrupt(&args, signal, Duration::from_millis(2500));
        assert_eq!(code, Some(130), "{signal}: {said}");
        assert!(!said.contains("killed by signal") && !said.contains("saved:"), "{signal}: {said}");
        assert!(
            !Path::new(&format!("{save}.tree")).exists() && !Path::new(&format!("{save}.gtree")).exists()
        );
        assert!(scratch.leftovers().is_empty(), "{signal}: {:?}", scratch.leftovers());
    }
}

/// Files read whole are bounded; a fail-hard MTD(f) that would walk 10⁹ passes, a table that cannot
/// be allocated, and an option the run would ignore are refused up front; a crash is quoted by
/// its last lines.
#[test]
fn what_cannot_finish_is_refused_up_front() {
    let scratch = Scratch::new("refused");
    let (code, _, stderr) =
        run(&scratch, &["fuzz", "--replay", "/dev/zero", "--depth", "1", "--command", "true {}"], SECONDS);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("/dev/zero: larger than 512 MiB"), "{stderr}");
    for iterative in [&[][..], &["--iterative"]] {
        for guess in ["1000000000", "-1000000000"] {
            let args = [
                &[
                    "solve",
                    "testdata/trees/teaching.tree",
                    "--algo",
                    "mtdf",
                    "--fail-hard",
                    "--first-guess",
                    guess,
                ][..],
                iterative,
            ]
            .concat();
            let (code, _, stderr) = run(&scratch, &args, SECONDS);
            assert_eq!(code, Some(2), "{args:?}: {stderr}");
            assert!(stderr.contains("moves one unit a pass"), "{stderr}");
        }
    }
    let (code, _, stderr) = run(&scratch, &["certify", "--windows", "3", "--algo", "mtdf"], SECONDS);
    assert_eq!(code, Some(2), "{stderr}");
    let limited = format!(
        "ulimit -v 1000000; exec {} solve testdata/trees/teaching.tree --tt-entries 268435456",
        env!("CARGO_BIN_EXE_nullwindow")
    );
    let output =
        Command::new("sh").args(["-c", &limited]).current_dir(env!("CARGO_MANIFEST_DIR")).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("which cannot be allocated now"), "{stderr}");
    // Quoted as written: quotes kept, a long line whole (an error names its object in quotes).
    let crash = "python3 -c \"raise ValueError(\\\"'TreeGame' object has no attribute 'possible_moves': the real reason\\\")\"; true {}";
    let mut args = vec!["fuzz", "--command", crash];
    args.extend(ZERO_CASE);
    let (code, _, stderr) = run(&scratch, &args, SECONDS);
    assert_eq!(code, Some(3));
    assert!(
        stderr.contains("Traceback")
            && stderr
                .contains("ValueError: 'TreeGame' object has no attribute 'possible_moves': the real reason"),
        "{stderr}"
    );
}

/// `shrink`'s first run, on the input, is bounded too.
#[test]
fn shrink_bounds_its_first_run() {
    let scratch = Scratch::new("shrink");
    let args =
        ["shrink", "testdata/trees/teaching.tree", "--timeout", "1", "--command", "sleep 1000; true {}"];
    let (code, _, stderr) = run(&scratch, &args, SECONDS);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("did not finish on the input within --timeout"), "{stderr}");
}

/// Without --timeout the first run's bound is a minute (the extended run: it takes that minute).
#[test]
#[ignore = "takes a minute: the extended run (cargo test -- --include-ignored)"]
fn shrink_bounds_its_first_run_by_a_minute_without_a_timeout() {
    let scratch = Scratch::new("shrink-minute");
    let args = ["shrink", "testdata/trees/teaching.tree", "--command", "sleep 1000; true {}"];
    let (code, _, stderr) = run(&scratch, &args, Duration::from_secs(75));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("within 60 s"), "{stderr}");
}

/// A run that outlasts --timeout (a loaded machine) is tried again with four times as long and
/// counted: the shrunk case is the one a quiet machine finds.
#[test]
fn a_slow_run_is_tried_again_so_the_result_does_not_depend_on_the_load() {
    let scratch = Scratch::new("slow");
    let counter = scratch.file("runs");
    // Answers 0 whatever the tree: wrong wherever the value is not 0.
    let quick = "echo 0; true {}".to_owned();
    let sometimes_slow = format!(
        "n=$(cat {counter} 2>/dev/null || echo 0); echo $((n + 1)) > {counter}; \
         if [ $((n % 4)) = 2 ]; then sleep 0.7; fi; echo 0; true {{}}"
    );
    let args = |engine: &str| {
        ["fuzz", "--family", "trees", "--range", "0..3", "--timeout", "0.5", "--command", engine]
            .map(str::to_owned)
            .to_vec()
    };
    let run_with = |engine: &str| {
        let args = args(engine);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        run(&scratch, &args, Duration::from_secs(60))
    };
    let (code, quiet, _) = run_with(&quick);
    assert_eq!(code, Some(1), "{quiet}");
    let (code, loaded, stderr) = run_with(&sometimes_slow);
    assert_eq!(code, Some(1), "{loaded}{stderr}");
    assert_eq!(loaded.replace(&sometimes_slow, "ENGINE"), quiet.replace(&quick, "ENGINE"));
    assert!(stderr.contains("outlasted --timeout and ran again with 4 times as long"), "{stderr}");
}

/// A crash is a case too: shrunk to the smallest case on which the engine still fails the same way
/// (here: it exits 4 on every tree with two interior nodes or more), saved and reproduced.
#[test]
fn an_engine_failure_is_shrunk_like_a_disagreement() {
    let scratch = Scratch::new("crash");
    let crashing = "case $(cat {}) in *'('*'('*) exit 4;; esac; echo 0";
    let args = ["fuzz", "--family", "trees", "--range", "0..0", "--command", crashing];
    let (code, _, stderr) = run(&scratch, &args, SECONDS);
    assert_eq!(code, Some(3), "{stderr}");
    assert!(stderr.contains("the engine exited 4") && stderr.contains("\nshrunk in "), "{stderr}");
    let saved: nullwindow::tree::Tree =
        std::fs::read_to_string(scratch.file("failing.tree")).unwrap().parse().unwrap();
    assert_eq!((saved.stats().nodes, saved.to_string().trim()), (3, "((0))"), "{stderr}");
}
