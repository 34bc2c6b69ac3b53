//! `nullwindow fuzz`: runs another engine, any language, on seeded cases, judges its answers against
//! the exact values, and hands back the smallest case it gets wrong
//! ([`nullwindow::oracle::harness`]).

use std::cell::Cell;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, ValueEnum};
use nullwindow::driver::Perspective;
use nullwindow::oracle::harness::{
    self, Answer, Case, Config, Failure, Family, Judged, Outcome, Progress, Reply, Verdict, depth_text,
};
use nullwindow::oracle::protocol;
use nullwindow::oracle::record::{TreeNames, locate, read_jsonl};
use nullwindow::tree::{NodeId, Tree, text};

use crate::CliError;
use crate::command::{Ended, LineEngine, TempDir, quote, quote_path, read_records};
use crate::generate::parse_range;
use crate::input::{Format, read_tree};
use crate::output::{counted, errln, outln};

mod own;
mod session;

/// The long help: the engine's side of the contract.
pub const FUZZ_HELP: &str = "\
The command is run by `sh -c` once per case, with `{}` replaced by the shell-quoted path of a file
that holds the case's tree (`.tree`: the parenthesis format, when it holds the tree; `.gtree`
otherwise: a graph of transpositions, interior evaluations, or a MIN root), `{depth}` by the depth
to search it to (0 evaluates the root; the tree's height searches to the end), and `{trace}`, if
the command has it, by a path where the engine may write its records of the search as JSON lines
(see `nullwindow audit --help`; nodes named by `path`, or by `node`: the number the file gives
them). The engine prints on the first line of standard output the root's value, from MAX's side
(or with --values side-to-move from the side to move at the root), optionally followed by the
index (0-based) of the root child it would play:

  3        the value alone
  3 1      the value, and the second child as its move
  skip     the engine declines the case (counted, never a failure; declining every case is an
           error, exit 2)

The placeholders are replaced wherever they stand, quotes and all: write them bare (`{}`, not
`'{}'`), as the replacement is quoted already, and a path with spaces or quotes in it (from TMPDIR)
reaches the engine as one word. Braces that are not one of the three are left as written.

With --persistent the command is started once for the whole run (no placeholder in it: one is
refused): for each case fuzz writes one line 'case FILE DEPTH TRACE' to its standard input (so
TMPDIR, where the files are, must have no whitespace), and reads one answer line as above;
the engine may write its records to TRACE first; at the end fuzz writes 'quit'. After a failure or
a timeout the engine is started again, and the run says how often.

fuzz judges the value against the exact depth-limited value (with --deeper-entries: the value of
some all-or-none extension, for engines whose table lets deeper entries answer), the move by the
exact value of the child it leads to, and the records by the rules of `nullwindow audit`. The first
case that disagrees is asked again (an engine that answers it another way is reported on it, not
shrunk), shrunk, tree and depth, until no single step still disagrees, saved (--save), printed, and followed
by one line `reproduce: COMMAND` that shows the disagreement again (exit 1).

A run that exits non-zero, is killed, prints no value, writes records that cannot be read, or
outlasts --timeout is an engine failure, not a disagreement: it is reported with the engine's
standard error (its last lines) and the case is saved. While shrinking, such a candidate is not
kept. Records must be a regular file of at most 256 MiB, in UTF-8. Each run is a process group of
its own, stopped whole when it ends or times out; Ctrl-C or SIGTERM stops it and exits 130.

Cases cycle through the families: trees (random trees, values on the leaves), evaluated (an
evaluation on every interior node too), graphs (transpositions, positions reached at two depths),
tictactoe and connect4 (random positions, unfolded a few plies into graphs), and with --engine own:
positions of a game your engine serves over the line protocol, drawn by random moves from its start.
Case i depends on --seed and i alone.

Without --command, --engine's own search is fuzzed on its own game: the engine announces 'search'
in its version line ('protocol 1 search', with 'records' to write its node records, 'mover' where
a side may move twice, 'new' to forget its table, 'horizon' to score a finished position at the
horizon as its search does, 'distance' to score a finished game by how far below the searched
position it lies, as mate scores are, 'decimals=N' to write values with up to N digits after the
point, judged exactly and quoted so, 'end' to answer 'search POS end' as a solver does, which
--to-end asks) and answers 'search POS DEPTH' with 'VALUE', 'VALUE MOVE' or 'skip' (values
from the side to move at POS; the book's 'Your game, your engine' has the protocol). Each case is a
position a random walk from the start reaches (a playout of at most --walk moves, cut at a length
drawn over it) and a depth from --height, and it is judged at exactly that depth, by proof: the
engine's value is the first guess of MTD(f), so that a right value costs two null-window tests,
each the size of a proof tree, and each record's rule and the move a test or two more; nothing is
valued that the claims do not need (--max-positions bounds the positions one case's proofs may
search; a case that needs more is counted undecided, and the summary says so). A wrong answer is
followed down the game: the smallest depth still wrong at the position, then a child still wrong
one ply shallower, until the engine is wrong at a position but right at each of its children. The
report gives the moves from the start, the position's token, what the engine said, the exact value
and every move's, and one line 'reproduce: nullwindow fuzz --engine CMD --position TOKEN --depth D'.
An engine that answers the case another way when asked again keeps something between searches (a
table, killers) or plays at random: the case is asked again of fresh engine processes, after the
searches the run asked before it, and those are shrunk by delta debugging to the fewest after which
the engine is still wrong, saved as a session file (one request a line, `search POS DEPTH` or
`new`), and the `reproduce:` line is 'nullwindow fuzz --engine CMD --session FILE', which replays
it in a fresh engine and judges its last search (exit 1 when still wrong).
A last note counts the requests, round trips and positions the run asked of the engine (--cpu adds
the CPU time of both sides); `nullwindow serve GAME` is a reference engine to try it on.

With --keep-going every case runs whatever it finds, and the first case of each kind (a wrong
value, a wrong move, each rule a record breaks, each way the engine fails) is shrunk, saved
(--save with -1, -2, … added) and given its own reproduce line; a last line counts each kind.
Without --command, each kind's first case is followed down the game within its kind (a record
outside the game and answers that vary, with --repeat, are kinds too), and a failure of the engine
ends the run.

Exit status: 0 every case judged agrees, 1 a disagreement, 2 bad options or input, or no case
judged (each declined or undecided), 3 the engine failed.

Examples:

  # A Python engine that reads the tree file and a depth.
  nullwindow fuzz --command 'python3 my_engine.py {} {depth}' --values side-to-move

  # Its records audited too, node by node.
  nullwindow fuzz --command 'python3 my_engine.py {} {depth} --trace {trace}' --values side-to-move

  # Your engine's own search on its own game (it answers 'search POS DEPTH').
  nullwindow fuzz --engine 'python3 my_engine.py'

  # Cases of your own game, served by another program over the line protocol.
  nullwindow fuzz --engine 'node coins.mjs' --command 'python3 my_engine.py {} {depth}' --values side-to-move

  # The same engine started once for the run, a line a case.
  nullwindow fuzz --persistent --values side-to-move --command 'python3 examples/python/mtdf_engine.py --persistent'

  # One saved case again.
  nullwindow fuzz --replay nullwindow-fuzz-failure.tree --depth 2 --command 'python3 my_engine.py {} {depth}' --values side-to-move";

/// Whose side the engine's values are from.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Values {
    /// MAX's (the first player's) side, as a minimax engine gives them.
    Max,
    /// The side to move at the node, as a negamax engine gives them.
    SideToMove,
}

#[derive(Args)]
pub struct FuzzArgs {
    /// The engine, run by `sh -c`: `{}` stands for the case's file, `{depth}` for the depth,
    /// `{trace}` for where it may write its records. Without it, --engine's own `search` is fuzzed
    /// on positions of its own game.
    #[arg(long, value_name = "CMD", required_unless_present = "engine")]
    command: Option<String>,
    /// How many cases to try.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    cases: u64,
    /// The run's seed: case i depends on it and on i alone.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The families of cases, comma-separated: trees, evaluated, graphs, tictactoe, connect4, and
    /// with --engine own. Default: all but own, or own alone with --engine.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    family: Option<Vec<String>>,
    /// A game of your own, served over the line protocol (run by `sh -c`; see the book's "Your
    /// game, your engine"). Without --command: the engine's own `search` on positions of its game,
    /// a random walk from the start and a depth from --height each, and a wrong answer followed
    /// down the game to the node where the bug acts. With --command: the family `own` walks random
    /// moves from its start (at most --walk) and unfolds a few plies below (--height) into a case.
    #[arg(long, value_name = "CMD")]
    engine: Option<String>,
    /// With --engine: the most random moves from the start to a case's position (default: 1000
    /// without --command, to the end of most games; 6 with --command, which unfolds them all).
    #[arg(long, value_name = "N", requires = "engine")]
    walk: Option<u32>,
    /// With --engine and no --command: judge one case, the engine's search of this position (moves
    /// from the start separated by spaces, or a token; `moves:…` or `token:…` says which, and a word
    /// that is both must say) to --depth, instead of drawing cases.
    #[arg(long, value_name = "POS", requires_all = ["engine", "depth"], conflicts_with = "command")]
    position: Option<String>,
    /// With --engine: the longest the engine may take to answer one request, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0, requires = "engine")]
    engine_timeout: f64,
    /// With --engine: without --command, the most positions the proofs of one case may search (a
    /// case that needs more is counted undecided); with --command, the most positions of the game
    /// to unfold (--walk plus the greatest --height plies).
    #[arg(long, value_name = "N", default_value_t = 1_000_000, requires = "engine")]
    max_positions: usize,
    /// With --engine: the most memory, in MiB, the engine's answers, the proofs' table and the
    /// unfolded game may take (without --command, the answers are forgotten past half of it).
    #[arg(long, value_name = "MIB", default_value_t = 512, requires = "engine", value_parser = clap::value_parser!(u64).range(1..))]
    max_memory: u64,
    /// With --engine and no --command: also give the CPU time nullwindow and the engine took, and
    /// nullwindow's peak memory, in the note that ends the run (they vary from run to run, so they
    /// are left out by default).
    #[arg(long, requires = "engine", conflicts_with = "command")]
    cpu: bool,
    /// Children per interior node of the random trees (links per node of the graphs), `A..B`
    /// [default: 1..3].
    #[arg(long, value_name = "A..B", value_parser = parse_range::<u32>)]
    width: Option<RangeInclusive<u32>>,
    /// Heights of the random trees and graphs, and plies the games are unfolded, `A..B` (at most 12).
    #[arg(long, value_name = "A..B", default_value = "1..4", value_parser = parse_range::<u32>)]
    height: RangeInclusive<u32>,
    /// Leaf values and evaluations, `LO..HI`: narrow, so that ties are common [default: -9..9].
    #[arg(long, value_name = "LO..HI", value_parser = parse_range::<i32>, allow_hyphen_values = true)]
    range: Option<RangeInclusive<i32>>,
    /// Whose side the engine's values (and records) are from [default: max; side-to-move, which
    /// is the only choice, without --command].
    #[arg(long, value_enum)]
    values: Option<Values>,
    /// Judge by the witness criterion, for engines whose table lets entries of deeper searches
    /// answer shallower ones (with --engine, each position is unfolded two plies past its depth,
    /// as many as fit, to see what deeper searches give).
    #[arg(long)]
    deeper_entries: bool,
    /// Go on after a disagreement or a failure: run every case, and shrink, save and report the
    /// first case of each kind (a wrong value, a wrong move, each rule a record breaks, each way
    /// the engine fails), with a count of each.
    #[arg(long)]
    keep_going: bool,
    /// Draw no case at depth 0, and shrink none to it: for an engine that plays a move and has
    /// nothing to answer where only the root is evaluated (by default one case in ten is at
    /// depth 0).
    #[arg(long)]
    no_depth_zero: bool,
    /// Start the engine once, and write it one line a case, `case FILE DEPTH TRACE`, instead of
    /// running it once a case; it answers each with one line (`VALUE`, `VALUE MOVE` or `skip`),
    /// and after a failure or a timeout it is started again.
    #[arg(long, requires = "command")]
    persistent: bool,
    /// Stop a run of the engine after this many seconds: an engine failure [default: 10]. Without
    /// --command: the longest one answer to `search` may take (--engine-timeout bounds every
    /// answer).
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Where to save the case that disagrees (or that the engine failed on); `.tree` or `.gtree` is
    /// added [default: nullwindow-fuzz-failure]. Without --command, a session (`.session` added:
    /// the searches to replay with --session) is saved with --save, and always for a finding that
    /// depends on the engine's history.
    #[arg(long, value_name = "PATH")]
    save: Option<PathBuf>,
    /// The most runs of the engine while shrinking (without --command: the searches of a descent
    /// down the game, and the fresh engines that shrink a finding's history).
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    max_shrink_runs: u64,
    /// With --engine and no --command: replay a session file (one request a line, `search POS
    /// DEPTH` or `new`, as a finding that depends on the engine's history saves it) in a fresh
    /// engine, and judge its last search: exit 1 when it is wrong.
    #[arg(long, value_name = "FILE", requires = "engine", conflicts_with_all = ["command", "position", "replay"])]
    session: Option<PathBuf>,
    /// With --engine and no --command: ask each search K times in a row (each after `new`, where
    /// the engine announces it); values that differ are a finding of their own, "the engine
    /// answered N ways", and moves that differ are each judged.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
    repeat: u32,
    /// With --engine and no --command: switch these selective features of the engine off before
    /// any search (`set NAME off`; the engine announces `options` and names them), comma-separated,
    /// or `all`: its search is then judged exactly, as a plain alpha-beta's.
    #[arg(
        long,
        value_name = "NAMES",
        value_delimiter = ',',
        requires = "engine",
        conflicts_with = "command"
    )]
    off: Option<Vec<String>>,
    /// With --engine and no --command: hold the engine's search to the rules every alpha-beta
    /// search keeps, whatever it prunes, on its own records (the engine announces `records`, and
    /// `mover`, since a reduced search's depth does not tell who moves), instead of to the exact
    /// value: a result its children do not give, a child's window outside its parent's, a bound
    /// stored against its own window, a table cut-off its entry does not give, two full-width
    /// searches of a node that contradict each other. Each case is also measured against the exact
    /// value: the selectivity profile printed at the end.
    #[arg(long, requires = "engine", conflicts_with = "command")]
    selective: bool,
    /// Ask the engine's own search for the value at the end of the game, `search POS end` (a
    /// solver's; the engine announces `end`), and judge it against the game's full value: each
    /// case a position as many plies before the end of a random playout as --height draws. A case
    /// the oracle cannot solve within --max-positions is undecided, and counted so.
    #[arg(long, requires = "engine", conflicts_with_all = ["command", "selective", "deeper_entries", "no_depth_zero"])]
    to_end: bool,
    /// With --selective: a verdict on the profile: exit 1 when more than P percent of the moves
    /// measured are worse than a best move (`5%` or `5`).
    #[arg(long, value_name = "P%", requires = "selective", value_parser = parse_percent)]
    max_worse_moves: Option<f64>,
    /// With --selective: also write the profile's shares by depth as an SVG bar chart to FILE.
    #[arg(long, value_name = "FILE", requires = "selective")]
    profile_svg: Option<PathBuf>,
    /// Run one case, from this tree file, instead of drawing cases (with --depth).
    #[arg(long, value_name = "FILE", requires = "depth", conflicts_with = "engine")]
    replay: Option<String>,
    /// With --replay or --position: the depth to search to; with --position, `end` for a search
    /// to the end of the game (the engine announces `end`).
    #[arg(long, value_name = "N", value_parser = crate::sizes::depth_or_end)]
    depth: Option<u32>,
}

/// A share in percent, `5%` or `5`, from 0 to 100.
fn parse_percent(text: &str) -> Result<f64, String> {
    let number = text.strip_suffix('%').unwrap_or(text);
    match number.trim().parse::<f64>() {
        Ok(share) if (0.0..=100.0).contains(&share) => Ok(share),
        _ => Err(format!("'{text}' is no share in percent from 0 to 100 (such as 5%)")),
    }
}

/// The random trees' widths when --width is not given.
const DEFAULT_WIDTH: RangeInclusive<u32> = 1..=3;
/// The values when --range is not given.
const DEFAULT_RANGE: RangeInclusive<i32> = -9..=9;
/// A run's time limit when --timeout is not given, in seconds.
const DEFAULT_TIMEOUT: f64 = 10.0;

impl FuzzArgs {
    /// --timeout, or its default.
    fn timeout(&self) -> f64 {
        self.timeout.unwrap_or(DEFAULT_TIMEOUT)
    }

    /// --save, or its default.
    fn save(&self) -> PathBuf {
        self.save.clone().unwrap_or_else(|| PathBuf::from("nullwindow-fuzz-failure"))
    }
}

/// Runs the engine on one case: a process per case, or one persistent process a line per case.
struct EngineRunner {
    command: String,
    directory: TempDir,
    timeout: Duration,
    /// With --persistent: the one process.
    persistent: Option<LineEngine>,
    /// Runs that outlasted --timeout and were tried again.
    retried: u64,
}

/// How much longer the second try of a run that outlasted --timeout may take.
const RETRY_FACTOR: u32 = 4;

impl EngineRunner {
    /// The engine's answer on `case` (or that it declines it), or why it failed. With `retry`, a
    /// run that outlasts --timeout is tried once more with [`RETRY_FACTOR`] times as long, and
    /// counted: a loaded machine does not change what a run finds. Not a persistent engine's: the
    /// second try would be a fresh engine's, which has not been asked what the first had, and its
    /// answer would stand for another question.
    fn answer(&mut self, case: &Case, retry: bool) -> Result<Reply, String> {
        let timeout = self.timeout;
        match self.answer_within(case, timeout) {
            Err(failure) if failure.contains(TIMED_OUT) && retry && self.persistent.is_none() => {
                self.retried += 1;
                let longer = timeout * RETRY_FACTOR;
                self.answer_within(case, longer).map_err(|again| {
                    if again.contains(TIMED_OUT) {
                        format!("{failure}, and again with {:.1} s", longer.as_secs_f64())
                    } else {
                        again
                    }
                })
            }
            answered => answered,
        }
    }

    /// With --persistent, what a fresh engine, asked `case` alone, does with it, when that is not
    /// what the run found (`failed`: it failed there; otherwise it disagreed): a note saying that
    /// the finding depends on what the engine was asked before it, so that the shrunk case is no
    /// minimal case of the bug. `None` for an engine run once a case, or when the fresh engine does
    /// the same.
    fn fresh_note(&mut self, config: &Config, case: &Case, failed: bool) -> Option<String> {
        let running = self.persistent.replace(LineEngine::new(self.command.clone()))?;
        drop(running);
        let same = match self.answer(case, false) {
            Err(_) => failed,
            Ok(Reply::Skip) => false,
            Ok(Reply::Answer(answer)) => {
                !failed && matches!(harness::judge(case, &answer, config), Ok(Some(_)))
            }
        };
        (!same).then(|| {
            let what = if failed { "failure" } else { "disagreement" };
            format!(
                "note: a fresh engine asked this case alone shows no {what}: what the persistent engine \
                 answers depends on what it was asked before, so the case is not a minimal one of the bug (run \
                 without --persistent, one engine a case, to shrink it alone)"
            )
        })
    }

    /// The engine's answer on `case` within `timeout`.
    fn answer_within(&mut self, case: &Case, timeout: Duration) -> Result<Reply, String> {
        let file = self.directory.0.join(format!("case.{}", case.extension()));
        let trace = self.directory.0.join("trace.jsonl");
        std::fs::write(&file, format!("{}\n", case.tree.to_string().trim_end()))
            .map_err(|e| format!("cannot write the case '{}': {e}", file.display()))?;
        let _ = std::fs::remove_file(&trace);
        // The answer line, whether records may have been written, and what the engine said on
        // standard error (for a message about its answer).
        let (first, records, said) = if let Some(engine) = self.persistent.as_mut() {
            let word = |path: &Path| {
                path.to_str()
                    .filter(|text| !text.chars().any(char::is_whitespace))
                    .map(str::to_owned)
                    .ok_or_else(|| {
                        format!("the path '{}' is not one word of UTF-8 (set TMPDIR)", path.display())
                    })
            };
            let request = format!("case {} {} {}", word(&file)?, case.depth, word(&trace)?);
            (engine.ask(&request, timeout)?, true, String::new())
        } else {
            let quoted = |path: &Path| quote_path(path).map_err(|e| e.0);
            let command = self
                .command
                .replace("{depth}", &case.depth.to_string())
                .replace("{trace}", &quoted(&trace)?)
                .replace("{}", &quoted(&file)?);
            let run = crate::command::run(&command, Some(timeout), true).map_err(|e| e.0)?;
            match run.ended {
                Ended::Exited(0) => {}
                Ended::TimedOut => {
                    return Err(format!(
                        "the engine {TIMED_OUT} {:.1} s{}",
                        timeout.as_secs_f64(),
                        run.said()
                    ));
                }
                _ => return Err(format!("the engine {}{}", run.how(), run.said())),
            }
            let stdout = String::from_utf8_lossy(&run.stdout);
            let first = stdout.lines().find(|line| !line.trim().is_empty()).unwrap_or("").to_owned();
            (first, self.command.contains("{trace}"), run.said())
        };
        if first.trim() == "skip" {
            return Ok(Reply::Skip);
        }
        let mut answer = parse_answer(&first).map_err(|why| format!("the engine's answer {why}{said}"))?;
        if records && let Some(written) = read_records(&trace)? {
            let records =
                read_jsonl(&written).map_err(|e| format!("the engine's records: {}", e.at("trace")))?;
            // A gtree case's nodes are named as its file names them, by their numbers as strings.
            let ids = (case.extension() == "gtree")
                .then(|| (0..case.tree.stats().nodes).map(|node| node.to_string()).collect());
            answer.records = locate(&case.tree, &TreeNames::new(ids), records)
                .map_err(|e| format!("the engine's records: {}", e.at("trace")))?;
        }
        Ok(Reply::Answer(answer))
    }
}

/// The first line of the engine's output: `VALUE` or `VALUE MOVE`.
fn parse_answer(line: &str) -> Result<Answer, String> {
    let shown = || format!("'{}'", text::excerpt(line.trim()));
    let mut words = line.split_whitespace();
    let first = words.next().ok_or_else(|| "is missing: the first line of its output is empty".to_owned())?;
    let value = first.parse::<i32>().map_err(|_| {
        // An engine with fractional scores (a bonus for quick wins, a tie-breaker) is told what
        // to do about it, not only that its answer is not a number.
        let fractional = first.parse::<f64>().is_ok_and(|value| value.is_finite() && value.fract() != 0.0);
        let hint = if fractional {
            ": the cases' values are whole numbers, and so is each node's exact value; an engine \
             that adds fractions to them (a tie-breaker, a bonus for quick wins) must answer \
             without them, or scale them away"
        } else {
            ""
        };
        format!("{} does not start with a whole number, the root's value{hint}", shown())
    })?;
    let best_move = match words.next() {
        None => None,
        Some(word) => Some(
            word.parse::<u32>()
                .map_err(|_| format!("{}: after the value comes a child's index (0, 1, …)", shown()))?,
        ),
    };
    if words.next().is_some() {
        return Err(format!("{} has more than a value and a move", shown()));
    }
    Ok(Answer { value, best_move, ..Answer::value(value) })
}

pub fn run(args: &FuzzArgs) -> Result<ExitCode, CliError> {
    let Some(command) = &args.command else {
        let engine = args.engine.as_deref().unwrap_or_default();
        return own::run(args, engine);
    };
    if args.depth == Some(nullwindow::oracle::proof::TO_THE_END) && args.replay.is_some() {
        return Err(CliError(
            "--depth end asks an engine's own search for the end of its game (with --position); --replay \
             runs a tree to a depth"
                .to_owned(),
        ));
    }
    if args.depth.is_some() && args.replay.is_none() {
        return Err(CliError(
            "--depth goes with --replay (or, without --command, with --position)".to_owned(),
        ));
    }
    if args.repeat > 1 {
        return Err(CliError(
            "--repeat asks the engine's own search again (--engine without --command); a run of --command \
             is asked each case once"
                .to_owned(),
        ));
    }
    if args.persistent
        && let Some(placeholder) =
            ["{}", "{depth}", "{trace}"].into_iter().find(|word| command.contains(word))
    {
        return Err(CliError(format!(
            "--persistent: the command has {placeholder}, but it is started once for the whole run and \
             reads each case as a line 'case FILE DEPTH TRACE' on its standard input: leave {placeholder} out"
        )));
    }
    if !args.persistent && !command.contains("{}") {
        return Err(CliError(
            "--command has no {}: the engine would never see the cases (write {} where the tree file goes)"
                .to_owned(),
        ));
    }
    let timeout = if args.timeout().is_finite() && args.timeout() > 0.0 {
        Duration::from_secs_f64(args.timeout().min(1e9))
    } else {
        return Err(CliError(format!("--timeout {}: a run needs some time, in seconds", args.timeout())));
    };
    let families = match &args.family {
        Some(names) => names
            .iter()
            .map(|name| name.parse::<Family>().map_err(|e| CliError(format!("--family: {e}"))))
            .collect::<Result<Vec<_>, _>>()?,
        None if args.engine.is_some() => vec![Family::Own],
        None => Family::BUILT_IN.to_vec(),
    };
    let own = match &args.engine {
        None => None,
        Some(command) => {
            if !(args.engine_timeout.is_finite() && args.engine_timeout > 0.0) {
                return Err(CliError(format!(
                    "--engine-timeout {}: an answer needs some time, in seconds",
                    args.engine_timeout
                )));
            }
            let options = protocol::Options {
                depth: Some(walk_with_command(args).saturating_add(*args.height.end())),
                max_nodes: args.max_positions,
                max_bytes: usize::try_from(args.max_memory).unwrap_or(usize::MAX).saturating_mul(1 << 20),
                timeout: Duration::from_secs_f64(args.engine_timeout.min(1e9)),
            };
            let engine =
                protocol::unfold_engine(command, &options).map_err(|e| CliError(format!("--engine: {e}")))?;
            Some(engine.tree)
        }
    };
    let config = Config {
        seed: args.seed,
        cases: args.cases,
        families,
        width: args.width.clone().unwrap_or(DEFAULT_WIDTH),
        height: args.height.clone(),
        values: args.range.clone().unwrap_or(DEFAULT_RANGE),
        perspective: match args.values.unwrap_or(Values::Max) {
            Values::Max => Perspective::Max,
            Values::SideToMove => Perspective::Mover,
        },
        deeper_entries: args.deeper_entries,
        max_shrink_tests: args.max_shrink_runs,
        own,
        walk: walk_with_command(args),
        depth_zero: !args.no_depth_zero,
        ..Config::default()
    };
    config.validate().map_err(|e| CliError(e.to_string()))?;
    let directory = TempDir::new("nullwindow-fuzz")?;
    if args.persistent && directory.0.to_str().is_none_or(|path| path.chars().any(char::is_whitespace)) {
        return Err(CliError(format!(
            "--persistent: the folder for the case files, '{}' (from TMPDIR), is not one word of UTF-8, so the \
             line 'case FILE DEPTH TRACE' cannot name them: set TMPDIR to a folder whose path has no whitespace",
            directory.0.display()
        )));
    }
    let persistent = args.persistent.then(|| LineEngine::new(command.clone()));
    let mut engine = EngineRunner { command: command.clone(), directory, timeout, persistent, retried: 0 };
    if let (Some(file), Some(depth)) = (&args.replay, args.depth) {
        return replay(&config, &mut engine, file, depth);
    }
    let bar = crate::progress::bar(config.cases, "cases", "fuzz");
    let mut summary = Summary::new(format!("{} to judge", counted(config.budget, "node", "nodes")));
    // A run that outlasts --timeout is tried again only while the cases are drawn: once a case has
    // failed or disagreed, a shrink candidate that outlasts it is simply not kept.
    let retries = Cell::new(true);
    let mut on_progress = |progress| match progress {
        Progress::Cases { done, total, judged } => {
            summary.add(judged);
            bar.set_position(done);
            if done == total
                || (!config.keep_going && matches!(judged.verdict, Verdict::Disagreed | Verdict::Failed))
            {
                retries.set(false);
            }
        }
        Progress::Shrinking { tests, nodes } => {
            bar.set_message(format!(
                "shrinking: {}, {}",
                counted(tests, "run", "runs"),
                counted(nodes as u128, "node", "nodes")
            ));
            bar.tick();
        }
        Progress::Descending { .. } => {}
    };
    if args.keep_going {
        let classify = |failure: &Failure<String>| match failure {
            Failure::Error(error) => failure_kind(error),
            Failure::Panic(_) => "a panic".to_owned(),
        };
        let several = harness::fuzz_keep_going(
            &config,
            |case| engine.answer(case, retries.get()),
            classify,
            &mut on_progress,
        )
        .map_err(|e| CliError(e.to_string()))?;
        bar.finish_and_clear();
        let ended = print_several(args, &config, &several);
        summary.print();
        return ended;
    }
    let outcome = harness::fuzz(&config, |case| engine.answer(case, retries.get()), &mut on_progress);
    bar.finish_and_clear();
    if engine.retried > 0 && !crate::progress::quiet() {
        errln!(
            "note: {} outlasted --timeout and ran again with {} times as long",
            counted(engine.retried, "run", "runs"),
            RETRY_FACTOR
        );
    }
    if let Some(restarts) = engine
        .persistent
        .as_ref()
        .map(|engine| engine.restarts)
        .filter(|&restarts| restarts > 0 && !crate::progress::quiet())
    {
        errln!("note: the persistent engine was started again {}", counted(restarts, "time", "times"));
    }
    let ended = match outcome {
        Outcome::Agreed { agreed, undecided, skipped } => {
            let also = declined_and_undecided(skipped, (undecided, BEYOND_THE_BUDGET));
            let families: Vec<&str> = config.families.iter().map(|family| family.name()).collect();
            let about = format!(", {}", families.join(", "));
            let counts = (agreed, skipped, undecided);
            if let Some(error) = nothing_judged(config.cases, counts, BEYOND_THE_BUDGET, (&about, "")) {
                return Err(error);
            }
            outln!(
                "agreed: {} of {} ({}), seed {}{also}",
                counted(agreed, "case", "cases"),
                config.cases,
                families.join(", "),
                config.seed
            );
            Ok(ExitCode::SUCCESS)
        }
        Outcome::Panicked { message, .. } => Err(CliError(format!("the engine panicked: {message}"))),
        Outcome::Disagreed(found) => {
            outln!("disagreement: {}", found.report());
            if let Some(note) = engine.fresh_note(&config, &found.shrunk, false) {
                outln!("{note}");
            }
            save_and_reproduce(args, &args.save(), &found.shrunk, false);
            Ok(ExitCode::from(1))
        }
        Outcome::EngineFailed { index, case, error } => {
            // A failure is a case too: shrunk to the smallest on which the engine fails the same way.
            let kind = failure_kind(&error);
            let (shrunk, failure, tests) = harness::shrink_failure(
                &case,
                Failure::Error(error),
                &config,
                |candidate| engine.answer(candidate, false),
                |failure| matches!(failure, Failure::Error(error) if failure_kind(error) == kind),
                |_| {},
            );
            let shrunk_to = if tests == 0 || shrunk == *case {
                String::new()
            } else {
                format!(
                    "\nshrunk in {} to depth {}, {}:\n{}",
                    counted(tests, "run", "runs"),
                    shrunk.depth,
                    counted(shrunk.tree.stats().nodes, "node", "nodes"),
                    shrunk.tree.to_string().trim_end()
                )
            };
            errln!("error: case {index} ({}), depth {}: {failure}{shrunk_to}", case.origin, case.depth);
            if let Some(note) = engine.fresh_note(&config, &shrunk, true) {
                errln!("{note}");
            }
            save_and_reproduce(args, &args.save(), &shrunk, true);
            Ok(ExitCode::from(3))
        }
        Outcome::Several(several) => print_several(args, &config, &several),
        Outcome::Config(error) => Err(CliError(error.to_string())),
    };
    // After the verdict, so that its first line stays the output's first.
    summary.print();
    ended
}

/// Every kind a run with --keep-going met, each shrunk, saved (`SAVE-1`, `SAVE-2`, …) and with
/// its `reproduce:` line, then a count of each: exit 1 if any kind is a disagreement, 3 if all are
/// failures, 0 if every case agreed.
fn print_several(
    args: &FuzzArgs,
    config: &Config,
    several: &harness::Several<String>,
) -> Result<ExitCode, CliError> {
    let families: Vec<&str> = config.families.iter().map(|family| family.name()).collect();
    if several.kinds.is_empty() {
        let about = format!(", {}", families.join(", "));
        let counts = (several.agreed, several.skipped, several.undecided);
        if let Some(error) = nothing_judged(config.cases, counts, BEYOND_THE_BUDGET, (&about, "")) {
            return Err(error);
        }
        outln!(
            "agreed: {} of {} ({}), seed {}{}",
            counted(several.agreed, "case", "cases"),
            config.cases,
            families.join(", "),
            config.seed,
            declined_and_undecided(several.skipped, (several.undecided, BEYOND_THE_BUDGET))
        );
        return Ok(ExitCode::SUCCESS);
    }
    for (number, kind) in several.kinds.iter().enumerate() {
        let path = PathBuf::from(format!("{}-{}", args.save().display(), number + 1));
        let (case, depth) = match &kind.first {
            Ok(found) => (&found.shrunk, found.shrunk.depth),
            Err(failed) => (&failed.shrunk, failed.shrunk.depth),
        };
        match &kind.first {
            Ok(found) => outln!(
                "disagreement, {} ({}): {}",
                kind.name,
                counted(kind.count, "case", "cases"),
                found.report()
            ),
            Err(failed) => outln!(
                "failure, {} ({}): case {} ({}): {}; shrunk in {} to depth {}, {}:\n{}",
                kind.name,
                counted(kind.count, "case", "cases"),
                failed.index,
                failed.original.origin,
                failed.failure,
                counted(failed.tests, "run", "runs"),
                depth,
                counted(case.tree.stats().nodes, "node", "nodes"),
                case.tree.to_string().trim_end()
            ),
        }
        save_and_reproduce(args, &path, case, false);
    }
    let kinds = several.kinds.iter().map(|kind| (kind.name.as_str(), kind.count));
    outln!("{}", kinds_line(kinds, ("agreed", several.agreed), config.cases));
    let disagreed = several.kinds.iter().any(|kind| kind.first.is_ok());
    Ok(ExitCode::from(if disagreed { 1 } else { 3 }))
}

/// The last line of a run with --keep-going: each kind met and its count, and the cases agreed.
fn kinds_line<'k>(
    kinds: impl ExactSizeIterator<Item = (&'k str, u64)>,
    (word, held): (&str, u64),
    cases: u64,
) -> String {
    let count = kinds.len();
    let counts: Vec<String> = kinds.map(|(name, count)| format!("{name} {count}")).collect();
    format!("kinds: {count} ({}); {word}: {} of {cases}", counts.join(", "), counted(held, "case", "cases"))
}

/// One case from a file: exit 1 when the engine disagrees, 3 when it fails.
fn replay(config: &Config, engine: &mut EngineRunner, file: &str, depth: u32) -> Result<ExitCode, CliError> {
    let tree: Tree = read_tree(file, Format::Auto, None)?;
    let case = Case { tree, depth, origin: file.to_owned() };
    let answer = match engine.answer(&case, true) {
        Ok(Reply::Answer(answer)) => answer,
        Ok(Reply::Skip) => {
            return Err(CliError(format!(
                "the engine declines {file} at depth {depth} (skip): nothing was judged"
            )));
        }
        Err(error) => {
            errln!("error: {file}, depth {depth}: {error}");
            return Ok(ExitCode::from(3));
        }
    };
    match harness::judge(&case, &answer, config) {
        Ok(None) => {
            outln!("agreed: the engine answers {file} at depth {depth} rightly");
            Ok(ExitCode::SUCCESS)
        }
        Ok(Some(disagreement)) => {
            let root: NodeId = case.tree.root_id();
            outln!(
                "disagreement: {file}, depth {depth}: {}",
                disagreement.describe(config.perspective, case.tree.player(root))
            );
            Ok(ExitCode::from(1))
        }
        Err(undecided) => Err(CliError(format!("{file}, depth {depth}: {undecided}"))),
    }
}

/// Saves `case`'s tree as `path` with the extension its format takes ([`save_new`]).
fn save(path: &Path, case: &Case) -> Result<PathBuf, String> {
    save_new(path, case.extension(), &format!("{}\n", case.tree.to_string().trim_end()))
}

/// Saves `contents` as `path` with `.extension` added, in a file of its own: one that did not
/// exist (never a file or a link that does: a second run writes `PATH-2`, then `PATH-3`, …), and
/// that is removed again if it cannot be written whole. Where it was saved, or why it could not be.
fn save_new(path: &Path, extension: &str, contents: &str) -> Result<PathBuf, String> {
    use std::io::Write as _;
    let mut last = String::new();
    for attempt in 1..=1000u32 {
        let mut saved = path.as_os_str().to_owned();
        if attempt > 1 {
            saved.push(format!("-{attempt}"));
        }
        saved.push(format!(".{extension}"));
        let saved = PathBuf::from(saved);
        // `create_new` never follows a link, dangling or not, and never opens a file that exists.
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&saved) {
            Ok(mut file) => {
                return match file.write_all(contents.as_bytes()).and_then(|()| file.sync_all()) {
                    Ok(()) => Ok(saved),
                    Err(e) => {
                        let _ = std::fs::remove_file(&saved);
                        Err(format!("cannot save the case to '{}': {e}", saved.display()))
                    }
                };
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = saved.display().to_string(),
            Err(e) => return Err(format!("cannot save the case to '{}': {e}", saved.display())),
        }
    }
    Err(format!("cannot save the case: '{last}' and the 999 names before it are taken"))
}

/// Saves `case` (see [`save`]) and prints where, and the line that runs it again; when it cannot be
/// saved, a warning that says why, and the line reads the case, printed inline, from standard
/// input. The finding has been printed before, so nothing of it is lost.
fn save_and_reproduce(args: &FuzzArgs, path: &Path, case: &Case, to_stderr: bool) {
    let (saved, reproduced) = match save(path, case) {
        Ok(saved) => {
            (Some(saved.display().to_string()), reproduce(args, &saved.display().to_string(), case.depth))
        }
        Err(why) => {
            errln!("warning: {why}");
            let tree = case.tree.to_string();
            let inline =
                format!("printf '%s\\n' {} | {}", quote(tree.trim_end()), reproduce(args, "-", case.depth));
            (None, inline)
        }
    };
    let lines = saved.map(|saved| format!("saved: {saved}\n")).unwrap_or_default()
        + &format!("reproduce: {reproduced}");
    if to_stderr {
        errln!("{lines}");
    } else {
        outln!("{lines}");
    }
}

/// A shell command that runs the case saved as `saved` (`-`: read from standard input) again.
fn reproduce(args: &FuzzArgs, saved: &str, depth: u32) -> String {
    let program = std::env::args().next().unwrap_or_else(|| "nullwindow".to_owned());
    let mut line = format!(
        "{} fuzz --replay {} --depth {depth} --command {}",
        quote_if_needed(&program),
        quote_if_needed(saved),
        quote(args.command.as_deref().unwrap_or_default())
    );
    if args.persistent {
        line.push_str(" --persistent");
    }
    if args.values == Some(Values::SideToMove) {
        line.push_str(" --values side-to-move");
    }
    if args.deeper_entries {
        line.push_str(" --deeper-entries");
    }
    if let Some(timeout) = args.timeout {
        line.push_str(&format!(" --timeout {timeout}"));
    }
    line
}

/// How an engine failed, as shrinking keeps it: a timeout stays a timeout, an exit status the same
/// status, a signal the same signal, a bad answer or bad records a bad answer or records.
fn failure_kind(failure: &str) -> String {
    if failure.contains(TIMED_OUT) {
        return "timeout".to_owned();
    }
    let words: Vec<&str> = failure.split_whitespace().collect();
    // The first whole number in `words` (the status of "exited 3" or of "exited (exit status: 3)").
    fn number<'a>(words: &[&'a str]) -> Option<&'a str> {
        words
            .iter()
            .map(|word| word.trim_matches(|c: char| !c.is_ascii_digit()))
            .find(|word| !word.is_empty())
    }
    match words.as_slice() {
        ["the", "engine", "exited", rest @ ..] => {
            let signalled = rest.iter().position(|word| word.starts_with("(signal") || *word == "signal:");
            match (signalled, number(rest)) {
                (Some(at), _) => format!("signal {}", number(&rest[at..]).unwrap_or("?")),
                (None, Some(code)) => format!("exit {code}"),
                (None, None) => "exit".to_owned(),
            }
        }
        ["the", "engine", "was", "killed", "by", "signal", signal, ..] => format!("signal {signal}"),
        ["the", "engine's", what, ..] => (*what).to_owned(),
        _ => words.iter().take(3).copied().collect::<Vec<_>>().join(" "),
    }
}

/// What the agreed line adds: the cases declined and those beyond the budget to judge, if any.
/// `why_undecided` says why a case was not judged: `beyond the budget to judge`, or for cases to the
/// end of the game also that a line went past the searches' height.
pub fn declined_and_undecided(skipped: u64, (undecided, why_undecided): (u64, &str)) -> String {
    let mut also = String::new();
    if skipped > 0 {
        also.push_str(&format!("; {} declined (skip)", counted(skipped, "case", "cases")));
    }
    if undecided > 0 {
        also.push_str(&format!("; {} {why_undecided}", counted(undecided, "case", "cases")));
    }
    also
}

/// The error of a run that judged no case, each declined or left undecided: it agrees with
/// nothing, so it does not exit 0 as an agreement would. `None` once a case was judged, or when
/// there was none to judge. `about` follows the count of cases (the families, or nothing); `hint`
/// ends the message.
pub fn nothing_judged(
    cases: u64,
    (agreed, skipped, undecided): (u64, u64, u64),
    why_undecided: &str,
    (about, hint): (&str, &str),
) -> Option<CliError> {
    if cases == 0 || agreed > 0 {
        return None;
    }
    if skipped == cases {
        return Some(CliError(format!(
            "the engine declined every case ({} of {cases}{about}): nothing was judged{hint}",
            counted(skipped, "case", "cases")
        )));
    }
    Some(CliError(format!(
        "nothing was judged ({}{about}){}{hint}",
        counted(cases, "case", "cases"),
        declined_and_undecided(skipped, (undecided, why_undecided))
    )))
}

/// Why a case of a run with the crate's own judges is left undecided.
pub const BEYOND_THE_BUDGET: &str = "beyond the budget to judge";

/// How a failure by timeout is worded, so that it can be told from the others.
const TIMED_OUT: &str = "ran past --timeout";

/// With --command, the most random moves from the start of --engine's game.
fn walk_with_command(args: &FuzzArgs) -> u32 {
    args.walk.unwrap_or(6)
}

/// `word` as is when the shell reads it unchanged, quoted otherwise; a word with control
/// characters (which a terminal would act on) as `"$(printf '%b' '…')"`, each of them written as an
/// octal escape, so that the line shows them escaped and the shell still passes them.
pub fn quote_if_needed(word: &str) -> String {
    if !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,+".contains(c)) {
        return word.to_owned();
    }
    if !word.chars().any(char::is_control) {
        return quote(word);
    }
    let mut escaped = String::new();
    for c in word.chars() {
        match c {
            '\\' => escaped.push_str("\\\\"),
            '\'' => escaped.push_str("'\\''"),
            c if c.is_control() => {
                let mut bytes = [0u8; 4];
                for byte in c.encode_utf8(&mut bytes).bytes() {
                    escaped.push_str(&format!("\\0{byte:03o}"));
                }
            }
            c => escaped.push(c),
        }
    }
    format!("\"$(printf '%b' '{escaped}')\"")
}

/// The cases of a run by family and by depth, each by how it went: printed on standard error at
/// the end, so that a run whose cases are mostly of one kind shows it.
pub struct Summary {
    by_family: std::collections::BTreeMap<String, [u64; 5]>,
    by_depth: std::collections::BTreeMap<u32, [u64; 5]>,
    /// Why a case is undecided, in the words of the bound it needed more than.
    undecided: String,
    /// What a case that holds is called: `agreed`, or `consistent` with `--selective`.
    holds: &'static str,
}

impl Summary {
    /// No case yet; a case left undecided needed more than `undecided` says.
    pub fn new(undecided: String) -> Self {
        Self { by_family: Default::default(), by_depth: Default::default(), undecided, holds: "agreed" }
    }

    /// The same, heading the cases that hold with `word`, as the run's last line calls them.
    pub fn holding_as(self, word: &'static str) -> Self {
        Self { holds: word, ..self }
    }

    /// Counts one case.
    pub fn add(&mut self, judged: Judged) {
        let column = match judged.verdict {
            Verdict::Agreed => 0,
            Verdict::Disagreed => 1,
            Verdict::Declined => 2,
            Verdict::Undecided => 3,
            Verdict::Failed => 4,
        };
        let family = judged.family.map_or_else(|| "-".to_owned(), |family| family.name().to_owned());
        self.by_family.entry(family).or_default()[column] += 1;
        self.by_depth.entry(judged.depth).or_default()[column] += 1;
    }

    /// The two tables, on standard error (not with `--quiet`).
    pub fn print(&self) {
        if self.by_family.is_empty() || crate::progress::quiet() {
            return;
        }
        let width = self.holds.len().max(7);
        let row = |name: String, counts: &[u64; 5]| {
            let [agreed, disagreed, declined, undecided, failed] = counts;
            let cases: u64 = counts.iter().sum();
            format!(
                "{name:<12} {cases:>6} {agreed:>width$} {disagreed:>10} {declined:>9} {undecided:>10} {failed:>7}"
            )
        };
        errln!(
            "{:<12} {:>6} {:>width$} {:>10} {:>9} {:>10} {:>7}",
            "cases",
            "all",
            self.holds,
            "disagreed",
            "declined",
            "undecided",
            "failed"
        );
        for (family, counts) in &self.by_family {
            errln!("{}", row(family.clone(), counts));
        }
        for (depth, counts) in &self.by_depth {
            errln!("{}", row(format!("depth {}", depth_text(*depth)), counts));
        }
        let undecided: u64 = self.by_family.values().map(|counts| counts[3]).sum();
        if undecided > 0 {
            errln!("undecided: {} needed more than {}", counted(undecided, "case", "cases"), self.undecided);
        }
    }
}
