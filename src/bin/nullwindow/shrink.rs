//! `nullwindow shrink`: the smallest tree on which a command still fails, by delta debugging
//! ([`nullwindow::tree::shrink`]).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

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

So write the command to exit 0 exactly when the bug is absent. Its output is discarded. The
shrinker first checks that the command fails on the input, then tries, until none is kept:
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
    let gtree_format = is_gtree(&args.file, args.format);
    let tree = read_tree(&args.file, args.format, args.root.as_deref())?;
    let print =
        |tree: &Tree| if gtree_format { gtree::print(tree) } else { format!("{}\n", text::print(tree)) };
    let directory = TempDir::new()?;
    let file = directory.0.join(if gtree_format { "candidate.gtree" } else { "candidate.tree" });
    let quoted = shell_quote(&file)?;
    let command = args.command.replace("{}", &quoted);
    let mut runs = 0u64;
    let mut still_fails = |candidate: &Tree| -> Result<bool, CliError> {
        std::fs::write(&file, print(candidate))
            .map_err(|e| CliError(format!("cannot write the candidate '{}': {e}", file.display())))?;
        runs += 1;
        run_command(&command)
    };
    if !still_fails(&tree)? {
        return Err(CliError("the command passes on the input (exit 0); nothing to shrink".to_owned()));
    }
    let bar =
        if std::io::stderr().is_terminal() { ProgressBar::new_spinner() } else { ProgressBar::hidden() };
    let shrunk = try_shrink(&tree, args.max_runs - 1, &mut still_fails, |progress| {
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
    eprintln!(
        "note: {} of the command, {} kept: {} down to {}{stopped}",
        counted(runs, "run", "runs"),
        counted(shrunk.kept, "candidate", "candidates"),
        counted(tree.stats().nodes, "node", "nodes"),
        counted(shrunk.tree.stats().nodes, "node", "nodes"),
    );
    Ok(ExitCode::SUCCESS)
}

/// Runs the test command; whether it failed (exited neither 0 nor 126 or 127, the shell's own
/// statuses for a command it cannot run).
fn run_command(command: &str) -> Result<bool, CliError> {
    let output = Command::new("sh")
        .args(["-c", command])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| CliError(format!("cannot run sh: {e}")))?;
    let said = || {
        let stderr = String::from_utf8_lossy(&output.stderr);
        stderr.lines().next().map(|line| format!(" (it said: {})", text::excerpt(line))).unwrap_or_default()
    };
    match output.status.code() {
        Some(0) => Ok(false),
        Some(code @ (126 | 127)) => Err(CliError(format!(
            "the command exited {code}: the shell could not run it{}; shrinking stopped",
            said()
        ))),
        Some(_) => Ok(true),
        None => Err(CliError(format!(
            "the command was killed{}{}: that is no verdict on the tree; shrinking stopped",
            signal(&output.status),
            said()
        ))),
    }
}

#[cfg(unix)]
fn signal(status: &std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    status.signal().map(|signal| format!(" by signal {signal}")).unwrap_or_default()
}

#[cfg(not(unix))]
fn signal(_status: &std::process::ExitStatus) -> String {
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
