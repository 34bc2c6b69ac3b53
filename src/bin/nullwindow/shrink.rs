//! `nullwindow shrink`: the smallest tree on which a command still fails, by delta debugging
//! ([`nullwindow::tree::shrink`]).

use std::cell::Cell;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::ProgressBar;
use nullwindow::tree::shrink::try_shrink;
use nullwindow::tree::{Tree, gtree, text};

use crate::CliError;
use crate::command::{Ended, TempDir, quote_path};
use crate::input::{Format, ROOT_HELP, is_gtree, read_tree};
use crate::output::{counted, errln, out};

/// The long help: the command's contract.
pub const SHRINK_HELP: &str = "\
The command is run by `sh -c`, once on the input and then on each smaller candidate, with every
`{}` replaced by the shell-quoted path of a temporary file that holds the candidate, in the
input's format (a gtree file ends in .gtree, so `nullwindow` commands read it as one), and every
`{depth}` by the depth (with --depth). Its exit status is the verdict:

  0            the test passes: the candidate is dropped
  1            the test fails: the candidate is kept (it still shows the bug)
  any other    the command broke (bad input, a crash): no verdict. On the input that is an error
               and nothing is shrunk; on a candidate it is not kept, and the note counts it
  a signal     likewise: an engine that crashes makes the shell exit 128 + the signal

--failing-status chooses the statuses that mean \"fails\" instead of 1 (a list, or `any` for every
status but 0, 126 and 127; 126 and 127, the shell's own, always stop shrinking). Its output is
discarded (the last lines of its standard error are kept for messages). A run that outlasts
--timeout (by default ten times the first run, and at least a second) is stopped with every
process it started, and counts as a pass: a hang is not the failure being shrunk. The first run,
on the input, is bounded by --timeout too, or without it by a minute: a command that does not
finish on the input in that time is an error (exit 2). The shrinker
first checks that the command fails on the input every one of --repeat runs (a command that fails
only sometimes cannot be shrunk reproducibly), then tries, until none is kept: shortening every
chain of single children by two plies at once, hoisting a node's child or grandchild into its
place, turning a node into a leaf, removing children (halves first), and moving values toward 0;
with {depth}, then a depth one less, and the tree again, to a fixpoint. The result is 1-minimal:
no single one of those steps still fails on it (unless --max-runs stopped it), and a graph never
grows (no node is copied). The result is deterministic: the same input and command give
the same tree. The depth found is printed on standard error (`depth: N`).

Examples:

  # The smallest tree that still holds a leaf 17 (grep exits 0 when it finds one, and `!`
  # turns that into exit 1).
  nullwindow shrink big.tree --command '! grep -qw 17 {}'

  # The smallest tree on which your engine breaks a rule: `nullwindow audit` reads its trace
  # and exits 1 when one is broken (2 on bad input: then the command broke).
  nullwindow shrink bad.tree --command 'my_engine {} | nullwindow audit {} --trace -'

  # The same, with the depth shrunk too.
  nullwindow shrink bad.tree --depth 6 --command 'my_engine {} {depth} | nullwindow audit {} --trace -'";

#[derive(Args)]
pub struct ShrinkArgs {
    /// The tree file on which the command fails, or `-` for standard input.
    #[arg(default_value = "-")]
    file: String,
    /// The test, run by `sh -c` with `{}` standing for a candidate's file (and `{depth}` for the
    /// depth): exit 0 when the bug is absent, 1 when it shows.
    #[arg(long, value_name = "CMD")]
    command: String,
    /// The depth the command searches to, put where it says `{depth}`; shrunk too.
    #[arg(long, value_name = "N")]
    depth: Option<u32>,
    /// The exit statuses that mean the bug shows: a comma-separated list, or `any` (every status
    /// but 0, 126 and 127).
    #[arg(long, value_name = "CODES", default_value = "1", value_parser = parse_statuses)]
    failing_status: Statuses,
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
    /// run on the input, and at least one second (the first run itself: a minute at most).
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
    match (args.command.contains("{depth}"), args.depth) {
        (true, None) => {
            return Err(CliError("--command has {depth}, but no --depth gives it a value".to_owned()));
        }
        (false, Some(_)) => {
            return Err(CliError(
                "--depth is given, but --command has no {depth} to put it in (write {depth} where the depth goes)"
                    .to_owned(),
            ));
        }
        _ => {}
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
    let directory = TempDir::new("nullwindow-shrink")?;
    let file = directory.0.join(if gtree_format { "candidate.gtree" } else { "candidate.tree" });
    let quoted = quote_path(&file)?;
    let runner =
        Runner { command: args.command.replace("{}", &quoted), failing: args.failing_status.clone() };
    let write = |candidate: &Tree| {
        std::fs::write(&file, print(candidate))
            .map_err(|e| CliError(format!("cannot write the candidate '{}': {e}", file.display())))
    };
    // The input, `--repeat` times: the first run sets the default timeout of the others.
    write(&tree)?;
    let start = Instant::now();
    let mut depth = args.depth;
    match runner.run(depth, Some(timeout.unwrap_or(FIRST_RUN_LIMIT)))? {
        Verdict::Fails => {}
        Verdict::Passes => {
            return Err(CliError("the command passes on the input (exit 0); nothing to shrink".to_owned()));
        }
        Verdict::Broke(how) => {
            return Err(CliError(format!(
                "the command {how} on the input: it broke, which is no verdict (only {} means the bug \
                 shows; --failing-status chooses); nothing to shrink",
                args.failing_status
            )));
        }
        Verdict::TimedOut => {
            let limit = match timeout {
                Some(_) => "--timeout".to_owned(),
                None => {
                    format!("{} s, the bound of the first run without --timeout", FIRST_RUN_LIMIT.as_secs())
                }
            };
            return Err(CliError(format!(
                "the command did not finish on the input within {limit}; nothing to shrink"
            )));
        }
    }
    let timeout = timeout.unwrap_or_else(|| (start.elapsed() * 10).max(Duration::from_secs(1)));
    let mut failed = 1;
    for _ in 1..args.repeat {
        failed += u64::from(runner.run(depth, Some(timeout))? == Verdict::Fails);
    }
    if failed < args.repeat {
        return Err(CliError(format!(
            "the command failed on the input in {failed} of {} runs: a command that does not fail every \
             time cannot be shrunk reproducibly",
            args.repeat
        )));
    }
    let (runs, timed_out, broke) = (Cell::new(args.repeat), Cell::new(0u64), Cell::new(0u64));
    let verdict = |candidate: &Tree, depth: Option<u32>| -> Result<bool, CliError> {
        write(candidate)?;
        runs.set(runs.get() + 1);
        let verdict = runner.run(depth, Some(timeout))?;
        timed_out.set(timed_out.get() + u64::from(verdict == Verdict::TimedOut));
        broke.set(broke.get() + u64::from(matches!(verdict, Verdict::Broke(_))));
        Ok(verdict == Verdict::Fails)
    };
    let bar =
        if std::io::stderr().is_terminal() { ProgressBar::new_spinner() } else { ProgressBar::hidden() };
    let mut current = tree.clone();
    let mut kept = 0;
    let complete = loop {
        let budget = args.max_runs.saturating_sub(runs.get());
        let shrunk = try_shrink(
            &current,
            budget,
            |candidate| verdict(candidate, depth),
            |progress| {
                bar.set_message(format!(
                    "{} run, {} kept, {}",
                    progress.tests + 1,
                    progress.kept,
                    counted(progress.nodes as u128, "node", "nodes")
                ));
                bar.tick();
            },
        )?;
        kept += shrunk.kept;
        current = shrunk.tree;
        let Some(shallower) = depth.and_then(|depth| depth.checked_sub(1)) else { break shrunk.complete };
        if !shrunk.complete || runs.get() >= args.max_runs || !verdict(&current, Some(shallower))? {
            break shrunk.complete;
        }
        kept += 1;
        depth = Some(shallower);
    };
    let (runs, timed_out, broke) = (runs.get(), timed_out.get(), broke.get());
    bar.finish_and_clear();
    drop(directory);
    out!("{}", print(&current));
    let stopped = if complete && runs < args.max_runs {
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
    let broke = if broke == 0 {
        String::new()
    } else {
        format!(
            "; {} broke (another exit status, or a signal), counted as passes",
            counted(broke, "run", "runs")
        )
    };
    if let Some(depth) = depth {
        errln!("depth: {depth}");
    }
    errln!(
        "note: {} of the command, {} kept: {} down to {}{stopped}{timed_out}{broke}",
        counted(runs, "run", "runs"),
        counted(kept, "candidate", "candidates"),
        counted(tree.stats().nodes, "node", "nodes"),
        counted(current.stats().nodes, "node", "nodes"),
    );
    Ok(ExitCode::SUCCESS)
}

/// The exit statuses that mean "the bug shows".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Statuses {
    /// Every status but 0 and the shell's own 126 and 127.
    Any,
    /// These.
    Listed(Vec<i32>),
}

impl Statuses {
    fn fail(&self, code: i32) -> bool {
        match self {
            Self::Any => !matches!(code, 0 | 126 | 127),
            Self::Listed(codes) => codes.contains(&code),
        }
    }
}

impl std::fmt::Display for Statuses {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Any => f.write_str("any status but 0"),
            Self::Listed(codes) => {
                let codes: Vec<String> = codes.iter().map(|code| format!("exit {code}")).collect();
                f.write_str(&codes.join(" or "))
            }
        }
    }
}

fn parse_statuses(source: &str) -> Result<Statuses, String> {
    if source == "any" {
        return Ok(Statuses::Any);
    }
    let codes = source
        .split(',')
        .map(|code| match code.trim().parse::<i32>() {
            Ok(code @ 1..=255) if code != 126 && code != 127 => Ok(code),
            _ => Err(format!(
                "'{}' is not an exit status from 1 to 255 (126 and 127 are the shell's own); write a list like 1,3 or any",
                text::excerpt(code)
            )),
        })
        .collect::<Result<Vec<i32>, String>>()?;
    Ok(Statuses::Listed(codes))
}

/// How one run of the test command ended.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Verdict {
    /// Exit 0: the bug is absent.
    Passes,
    /// A failing status: the bug shows.
    Fails,
    /// Another status, or a signal, in words: no verdict.
    Broke(String),
    /// Stopped at the timeout.
    TimedOut,
}

/// The longest the first run, on the input, may take without --timeout.
const FIRST_RUN_LIMIT: Duration = Duration::from_secs(60);

/// The test command, with the candidate's file in it.
struct Runner {
    command: String,
    failing: Statuses,
}

impl Runner {
    /// Runs the command once at `depth`, stopping it (and every process it started) after `timeout`.
    fn run(&self, depth: Option<u32>, timeout: Option<Duration>) -> Result<Verdict, CliError> {
        let command = match depth {
            Some(depth) => self.command.replace("{depth}", &depth.to_string()),
            None => self.command.clone(),
        };
        let run = crate::command::run(&command, timeout, false)?;
        match run.ended {
            Ended::TimedOut => Ok(Verdict::TimedOut),
            Ended::Exited(0) => Ok(Verdict::Passes),
            Ended::Exited(code @ (126 | 127)) => Err(CliError(format!(
                "the command exited {code}: the shell could not run it{}; shrinking stopped",
                run.said()
            ))),
            Ended::Exited(code) if self.failing.fail(code) => Ok(Verdict::Fails),
            Ended::Exited(_) | Ended::Killed(_) => Ok(Verdict::Broke(format!("{}{}", run.how(), run.said()))),
        }
    }
}
