//! `nullwindow shrink`: the smallest tree on which a command still fails, by delta debugging
//! ([`nullwindow::tree::shrink`]).

use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::ProgressBar;
use nullwindow::tree::shrink::try_shrink;
use nullwindow::tree::{Tree, gtree, text};

use crate::CliError;
use crate::input::{Format, ROOT_HELP, is_gtree, read_tree};
use crate::output::{counted, out};

/// The long help: the command's contract.
pub const SHRINK_HELP: &str = "\
The command is run by `sh -c`, once on the input and then on each smaller candidate, with every
`{}` replaced by the shell-quoted path of a temporary file that holds the candidate, in the
input's format (a gtree file ends in .gtree, so `nullwindow` commands read it as one). Its exit
status is the verdict:

  0            the test passes: the candidate is dropped
  126, 127     the shell could not run the command: an error, shrinking stops
  any other    the test fails: the candidate is kept (it still shows the bug); an engine that
               crashes inside the command makes the shell exit 128 + the signal, a failure too
  a signal     the shell itself was killed: an error, shrinking stops

So write the command to exit 0 exactly when the bug is absent. Its output is discarded (the first
line of its standard error is kept for messages). A run that outlasts --timeout (by default ten
times the first run, and at least a second) is stopped with every process it started, and counts
as a pass: a hang is not the failure being shrunk. The shrinker first checks that the command fails
on the input every one of --repeat runs (a command that fails only sometimes cannot be shrunk
reproducibly), then tries, until none is kept:
hoisting a node's child or grandchild into its place, turning a node into a leaf, removing
children (halves first), unsharing a shared node, and moving values toward 0. The result is
deterministic: the same input and command give the same tree.

Examples:

  # The smallest tree that still holds a leaf 17 (grep exits 0 when it finds one, and `!`
  # turns that into a failure).
  nullwindow shrink big.tree --command '! grep -qw 17 {}'

  # The smallest tree on which your engine breaks a rule: `nullwindow audit` reads its trace
  # and exits 1 when one is broken.
  nullwindow shrink bad.tree --command 'my_engine {} | nullwindow audit {} --trace -'";

#[derive(Args)]
pub struct ShrinkArgs {
    /// The tree file on which the command fails, or `-` for standard input.
    #[arg(default_value = "-")]
    file: String,
    /// The test, run by `sh -c` with `{}` standing for a candidate's file: exit 0 when the bug is
    /// absent, non-zero (but 126 or 127) when it shows.
    #[arg(long, value_name = "CMD")]
    command: String,
    /// The input format; candidates are written in it too.
    #[arg(long, value_enum, default_value_t = Format::Auto)]
    format: Format,
    #[arg(long, value_name = "ID", help = ROOT_HELP)]
    root: Option<String>,
    /// The most times to run the command, the check of the input included; then the smallest tree
    /// found so far is printed.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    max_runs: u64,
    /// Stop a run after this many seconds, and count it as a pass. Default: ten times the first
    /// run on the input, and at least one second.
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Run the command on the input this many times first: it must fail every time.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=100))]
    repeat: u64,
}

pub fn run(args: &ShrinkArgs) -> Result<ExitCode, CliError> {
    if !args.command.contains("{}") {
        return Err(CliError(
            "--command has no {}: it would never see the candidates (write {} where the tree file goes)"
                .to_owned(),
        ));
    }
    if args.max_runs == 0 {
        return Err(CliError("--max-runs 0: the command must run at least once, on the input".to_owned()));
    }
    let timeout = match args.timeout {
        Some(seconds) if seconds.is_finite() && seconds > 0.0 => {
            Some(Duration::from_secs_f64(seconds.min(1e9)))
        }
        Some(seconds) => {
            return Err(CliError(format!("--timeout {seconds}: a run needs some time, in seconds")));
        }
        None => None,
    };
    let gtree_format = is_gtree(&args.file, args.format);
    let tree = read_tree(&args.file, args.format, args.root.as_deref())?;
    let print =
        |tree: &Tree| if gtree_format { gtree::print(tree) } else { format!("{}\n", text::print(tree)) };
    let directory = TempDir::new()?;
    let running = Running::default();
    interrupt_cleans_up(&running, &directory.0);
    let file = directory.0.join(if gtree_format { "candidate.gtree" } else { "candidate.tree" });
    let quoted = shell_quote(&file)?;
    let runner = Runner { command: args.command.replace("{}", &quoted), running };
    let write = |candidate: &Tree| {
        std::fs::write(&file, print(candidate))
            .map_err(|e| CliError(format!("cannot write the candidate '{}': {e}", file.display())))
    };
    // The input, `--repeat` times: the first run sets the default timeout of the others.
    write(&tree)?;
    let start = Instant::now();
    if runner.run(timeout)? != Verdict::Fails {
        return Err(CliError("the command passes on the input (exit 0); nothing to shrink".to_owned()));
    }
    let timeout = timeout.unwrap_or_else(|| (start.elapsed() * 10).max(Duration::from_secs(1)));
    let mut failed = 1;
    for _ in 1..args.repeat {
        failed += u64::from(runner.run(Some(timeout))? == Verdict::Fails);
    }
    if failed < args.repeat {
        return Err(CliError(format!(
            "the command failed on the input in {failed} of {} runs: a command that does not fail every \
             time cannot be shrunk reproducibly",
            args.repeat
        )));
    }
    let mut runs = args.repeat;
    let mut timed_out = 0u64;
    let mut still_fails = |candidate: &Tree| -> Result<bool, CliError> {
        write(candidate)?;
        runs += 1;
        let verdict = runner.run(Some(timeout))?;
        timed_out += u64::from(verdict == Verdict::TimedOut);
        Ok(verdict == Verdict::Fails)
    };
    let bar =
        if std::io::stderr().is_terminal() { ProgressBar::new_spinner() } else { ProgressBar::hidden() };
    let shrunk = try_shrink(&tree, args.max_runs.saturating_sub(args.repeat), &mut still_fails, |progress| {
        bar.set_message(format!(
            "{} run, {} kept, {}",
            progress.tests + 1,
            progress.kept,
            counted(progress.nodes as u128, "node", "nodes")
        ));
        bar.tick();
    });
    bar.finish_and_clear();
    drop(directory);
    let shrunk = shrunk?;
    out!("{}", print(&shrunk.tree));
    let stopped = if shrunk.complete {
        String::new()
    } else {
        format!("; stopped at --max-runs {}, it may shrink further", args.max_runs)
    };
    let timed_out = if timed_out == 0 {
        String::new()
    } else {
        format!(
            "; {} stopped after {:.1} s, counted as passes",
            counted(timed_out, "run", "runs"),
            timeout.as_secs_f64()
        )
    };
    eprintln!(
        "note: {} of the command, {} kept: {} down to {}{stopped}{timed_out}",
        counted(runs, "run", "runs"),
        counted(shrunk.kept, "candidate", "candidates"),
        counted(tree.stats().nodes, "node", "nodes"),
        counted(shrunk.tree.stats().nodes, "node", "nodes"),
    );
    Ok(ExitCode::SUCCESS)
}

/// How one run of the test command ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// Exit 0: the bug is absent.
    Passes,
    /// Any other exit but 126 and 127: the bug shows.
    Fails,
    /// Stopped at the timeout.
    TimedOut,
}

/// The process group of the run under way, if any: what an interruption stops.
#[derive(Clone, Default)]
struct Running(Arc<Mutex<Option<u32>>>);

impl Running {
    fn set(&self, group: Option<u32>) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = group;
    }

    fn get(&self) -> Option<u32> {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// On Ctrl-C (or SIGTERM), stops the run under way with every process it started, removes the
/// temporary directory, and ends the command with the status of an interruption.
fn interrupt_cleans_up(running: &Running, directory: &Path) {
    let (running, directory) = (running.clone(), directory.to_owned());
    // A second handler cannot be set; then interruption only leaves the directory behind.
    let _ = ctrlc::set_handler(move || {
        if let Some(group) = running.get() {
            stop_group(group);
        }
        let _ = std::fs::remove_dir_all(&directory);
        eprintln!("interrupted: the candidates' directory is removed");
        std::process::exit(130);
    });
}

/// The test command, with the candidate's file in it.
struct Runner {
    command: String,
    running: Running,
}

/// The most of the command's standard error kept for a message; the rest is read and dropped.
const STDERR_KEPT: usize = 4096;

impl Runner {
    /// Runs the command once, stopping it (and every process it started) after `timeout`.
    fn run(&self, timeout: Option<Duration>) -> Result<Verdict, CliError> {
        let mut command = Command::new("sh");
        command.args(["-c", &self.command]).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().map_err(|e| CliError(format!("cannot run sh: {e}")))?;
        self.running.set(Some(child.id()));
        let stderr = child.stderr.take();
        let reader = std::thread::spawn(move || {
            let mut kept = Vec::new();
            if let Some(mut stderr) = stderr {
                let _ = (&mut stderr).take(STDERR_KEPT as u64).read_to_end(&mut kept);
                let _ = std::io::copy(&mut stderr, &mut std::io::sink());
            }
            kept
        });
        let status = wait(&mut child, timeout);
        // Whatever the command left running in the background goes too: it would hold the pipe.
        stop_group(child.id());
        let _ = child.wait();
        self.running.set(None);
        let kept = reader.join().unwrap_or_default();
        let said = || {
            let stderr = String::from_utf8_lossy(&kept);
            stderr
                .lines()
                .next()
                .map(|line| format!(" (it said: {})", text::excerpt(line)))
                .unwrap_or_default()
        };
        let Some(status) = status? else { return Ok(Verdict::TimedOut) };
        match status.code() {
            Some(0) => Ok(Verdict::Passes),
            Some(code @ (126 | 127)) => Err(CliError(format!(
                "the command exited {code}: the shell could not run it{}; shrinking stopped",
                said()
            ))),
            Some(_) => Ok(Verdict::Fails),
            None => Err(CliError(format!(
                "the command was killed{}{}: that is no verdict on the tree; shrinking stopped",
                signal(&status),
                said()
            ))),
        }
    }
}

/// Waits for `child` to exit, for at most `timeout`: its status, or `None` when the time ran out.
fn wait(child: &mut Child, timeout: Option<Duration>) -> Result<Option<ExitStatus>, CliError> {
    let Some(timeout) = timeout else {
        return child.wait().map(Some).map_err(|e| CliError(format!("cannot wait for the command: {e}")));
    };
    let deadline = Instant::now() + timeout;
    let mut pause = Duration::from_millis(1);
    loop {
        if let Some(status) =
            child.try_wait().map_err(|e| CliError(format!("cannot wait for the command: {e}")))?
        {
            return Ok(Some(status));
        }
        let now = Instant::now();
        if now >= deadline {
            return Ok(None);
        }
        std::thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(50));
    }
}

/// Stops the process group `group` (the shell and all it started), if it still runs.
#[cfg(unix)]
fn stop_group(group: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{group}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

#[cfg(not(unix))]
fn stop_group(_group: u32) {}

#[cfg(unix)]
fn signal(status: &ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    status.signal().map(|signal| format!(" by signal {signal}")).unwrap_or_default()
}

#[cfg(not(unix))]
fn signal(_status: &ExitStatus) -> String {
    String::new()
}

/// `path` in single quotes for `sh`, each `'` in it written `'\''`.
fn shell_quote(path: &Path) -> Result<String, CliError> {
    let path = path.to_str().ok_or_else(|| {
        CliError(format!("the temporary file '{}' has a path that is not UTF-8", path.display()))
    })?;
    Ok(format!("'{}'", path.replace('\'', r"'\''")))
}

/// A fresh directory under the system's temporary directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Result<Self, CliError> {
        let base = std::env::temp_dir();
        for attempt in 0u32..1000 {
            let path = base.join(format!("nullwindow-shrink-{}-{attempt}", std::process::id()));
            match std::fs::create_dir(&path) {
                Ok(()) => return Ok(Self(path)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => {
                    return Err(CliError(format!("cannot create a directory in '{}': {e}", base.display())));
                }
            }
        }
        Err(CliError(format!("cannot create a fresh directory in '{}'", base.display())))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        // Nothing to do about a failure here: the shrink's result matters more than the leftovers.
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
