//! `nullwindow fuzz --engine CMD` without `--command`: the engine's own `search`, on positions of
//! its own game, judged by proof ([`harness::fuzz_game`]) at exactly the depth drawn, and a wrong
//! answer followed down the game to the node where the bug acts.

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use nullwindow::driver::Perspective;
use nullwindow::game::Game;
use nullwindow::oracle::harness::{
    self, Answer, Config, Descent, Disagreement, GameCase, GameFinding, GameOutcome, Profile, Progress,
    Verdict, depth_text, minimize_history,
};
use nullwindow::oracle::proof::{Prover, TO_THE_END};
use nullwindow::oracle::protocol::{
    Features, ProtocolError, Searched, Served, ServedGame, ServedPosition, listed_moves,
};
use nullwindow::oracle::record::{NodeName, ReadError, Record, path_text, read_jsonl_in};
use nullwindow::tree::text::printable;
use nullwindow::value::Decimals;

use super::session::{self, Log, Request};
use super::{
    BEYOND_THE_BUDGET, FuzzArgs, Summary, Values, declined_and_undecided, nothing_judged, quote_if_needed,
};
use crate::CliError;
use crate::command::{TempDir, quote, read_records};
use crate::output::{counted, errln, outln};

pub fn run(args: &FuzzArgs, command: &str) -> Result<ExitCode, CliError> {
    // The depth asked is the depth judged: one the proofs cannot reach is refused up front (a
    // --depth already as it is read, by sizes::depth_or_end). They recurse once per ply, so they
    // run on a thread whose stack holds that many.
    crate::sizes::within_search_height("--height", *args.height.end())?;
    crate::solve::on_search_thread(None, 0, || run_on_search_thread(args, command))?
}

fn run_on_search_thread(args: &FuzzArgs, command: &str) -> Result<ExitCode, CliError> {
    if args.family.is_some() {
        return Err(CliError(
            "--family chooses the cases of --command; without --command the cases are positions of the \
             engine's own game"
                .to_owned(),
        ));
    }
    // What does not apply to the engine's own game is refused, never ignored.
    let not_here = [
        (
            args.width.is_some(),
            "--width shapes the random trees of --command; the cases here are positions of the game",
        ),
        (args.range.is_some(), "--range gives the random trees' values; here the values are the game's"),
    ];
    if let Some((_, why)) = not_here.iter().find(|(given, _)| *given) {
        return Err(CliError((*why).to_owned()));
    }
    if args.values == Some(Values::Max) {
        return Err(CliError(
            "--values max: without --command the engine's own search answers from the side to move at \
             the position (its records too)"
                .to_owned(),
        ));
    }
    if args.to_end && args.depth.is_some_and(|depth| depth != TO_THE_END) {
        return Err(CliError(
            "--to-end asks for the value at the end of the game, --depth for a depth: give one of them \
             (--depth end is the same as --to-end)"
                .to_owned(),
        ));
    }
    if args.to_end && args.session.is_some() {
        return Err(CliError(
            "--to-end draws cases to the end of the game; --session replays the searches its file names \
             (a line 'search POS end' asks for the end)"
                .to_owned(),
        ));
    }
    if args.depth.is_some() && args.position.is_none() {
        return Err(CliError("--depth goes with --position (one case of the engine's game)".to_owned()));
    }
    if args.session.is_some() && args.keep_going {
        return Err(CliError(
            "--keep-going runs drawn cases; --session judges the one search it ends with".to_owned(),
        ));
    }
    if args.session.is_some() && args.save.is_some() {
        return Err(CliError(
            "--save saves a finding's session; --session replays one that is saved already".to_owned(),
        ));
    }
    if (args.position.is_some() || args.session.is_some()) && args.walk.is_some() {
        return Err(CliError(
            "--walk draws the positions of cases; --position and --session name the one searched".to_owned(),
        ));
    }
    if (args.position.is_some() || args.session.is_some())
        && (args.max_worse_moves.is_some() || args.profile_svg.is_some())
    {
        return Err(CliError(
            "--max-worse-moves and --profile-svg judge and plot the profile of a run of drawn cases; \
             --position and --session judge one search"
                .to_owned(),
        ));
    }
    if args.position.is_some() && args.keep_going {
        return Err(CliError(
            "--keep-going runs drawn cases; --position judges one case, the search of that position"
                .to_owned(),
        ));
    }
    let search_timeout = match args.timeout {
        Some(seconds) if !(seconds.is_finite() && seconds > 0.0) => {
            return Err(CliError(format!("--timeout {seconds}: a search needs some time, in seconds")));
        }
        Some(seconds) => Some(Duration::from_secs_f64(seconds.min(1e9))),
        None => None,
    };
    if !(args.engine_timeout.is_finite() && args.engine_timeout > 0.0) {
        return Err(CliError(format!(
            "--engine-timeout {}: an answer needs some time, in seconds",
            args.engine_timeout
        )));
    }
    let memory = usize::try_from(args.max_memory).unwrap_or(usize::MAX).saturating_mul(1 << 20);
    // A session that cannot be read is refused before the engine starts.
    let session = args.session.as_deref().map(session::read).transpose()?;
    let mut served = match Served::start(command, Duration::from_secs_f64(args.engine_timeout.min(1e9))) {
        Ok(served) => served,
        Err(error) => {
            // The engine failed before any case: a failure of the engine's (exit 3), as later.
            crate::command::wait_if_interrupted();
            errln!("error: --engine: {error}");
            return Ok(ExitCode::from(3));
        }
    };
    served.set_max_bytes(memory);
    if let Some(timeout) = search_timeout {
        served.set_search_timeout(timeout);
    }
    let features = served.features();
    let off = match (&args.off, features.options) {
        (None, _) => Vec::new(),
        (Some(_), false) => {
            return Err(CliError(format!(
                "--off: the engine announces {} in its version line, not 'options': it names no selective \
                 features to switch off",
                features.names()
            )));
        }
        (Some(names), true) => match served.options() {
            Ok(options) => chosen_off(names, &options)?,
            Err(error) => {
                errln!("error: --engine: {error}");
                return Ok(ExitCode::from(3));
            }
        },
    };
    if let Err(error) = switch_off(&mut served, &off) {
        errln!("error: --engine: {error}");
        return Ok(ExitCode::from(3));
    }
    if !features.search {
        return Err(CliError(format!(
            "--engine: the engine announces {} in its version line, not 'search': without --command, fuzz \
             runs the engine's own search ('search POS DEPTH'), so its version line must say 'protocol 1 \
             search'; or give --command to run an engine that reads tree files",
            if features == Default::default() { "no optional requests".to_owned() } else { features.names() }
        )));
    }
    if features.horizon && args.deeper_entries {
        return Err(CliError(
            "--deeper-entries judges a case on its game unfolded into a tree, which holds one value a \
             position; the engine announces 'horizon', which gives a position another value where the \
             depth runs out: judge it without --deeper-entries"
                .to_owned(),
        ));
    }
    if features.distance && args.deeper_entries {
        return Err(CliError(
            "--deeper-entries lets an entry of a deeper search answer at the same position; the engine \
             announces 'distance', which makes a finished position's value depend on how far below the \
             searched position it lies, so the same position at another ply is another: judge it \
             without --deeper-entries"
                .to_owned(),
        ));
    }
    if (args.to_end || args.depth == Some(TO_THE_END)) && !features.end {
        return Err(CliError(format!(
            "{}: the engine's search goes to the end of the game when it announces 'end' ('search POS \
             end'); its version line announces {}",
            if args.to_end { "--to-end" } else { "--depth end" },
            features.names()
        )));
    }
    if args.selective && !features.records {
        return Err(CliError(format!(
            "--selective holds the engine's search to the rules of its own records: its version line \
             announces {}, not 'records'",
            features.names()
        )));
    }
    if args.selective && !features.mover {
        return Err(CliError(format!(
            "--selective: a pruning search's records are at depths that do not tell who moves at their \
             positions (a reduced search is a ply shallower than its parent's less one): the engine must \
             announce 'mover', so that its tokens tell; its version line announces {}",
            features.names()
        )));
    }
    if args.selective && args.deeper_entries {
        return Err(CliError(
            "--deeper-entries judges values by the witness criterion; --selective judges no value, only \
             the records' own rules: give one of them"
                .to_owned(),
        ));
    }
    let game = ServedGame::new(served);
    let directory = TempDir::new("nullwindow-fuzz")?;
    let records = features.records.then(|| directory.0.join("records.jsonl"));
    if let Some(path) = records
        .as_deref()
        .filter(|path| path.to_str().is_none_or(|text| text.chars().any(char::is_whitespace)))
    {
        return Err(CliError(format!(
            "the records' file '{}' (from TMPDIR) is not one word of UTF-8, so the request 'search POS DEPTH FILE' \
             cannot name it: set TMPDIR to a folder whose path has no whitespace",
            path.display()
        )));
    }
    let config = Config {
        seed: args.seed,
        cases: args.cases,
        height: args.height.clone(),
        perspective: Perspective::Mover,
        deeper_entries: args.deeper_entries,
        budget: args.max_positions as u64,
        table_entries: proof_table_entries(memory),
        max_shrink_tests: args.max_shrink_runs,
        walk: args.walk.unwrap_or(1000),
        depth_zero: !args.no_depth_zero,
        static_horizon: features.horizon,
        selective: args.selective,
        decimals: features.decimals,
        to_end: args.to_end,
        ..Config::default()
    };
    // What the engine was asked, in order: a wrong answer may depend on it. A quarter of the
    // memory bound holds it.
    let log = Log::new(memory / 4);
    let mut engine = |case: &GameCase<ServedGame>| asked(&game, &log, case, records.as_deref(), args.repeat);
    let fresh = Fresh {
        off: off.clone(),
        repeat: args.repeat,
        started: Cell::new(0),
        requests: Cell::new(0),
        command,
        timeout: Duration::from_secs_f64(args.engine_timeout.min(1e9)),
        search_timeout,
        memory,
    };
    if let (Some(file), Some(requests)) = (&args.session, &session) {
        if requests.contains(&Request::New) && !features.new {
            return Err(CliError(format!(
                "--session '{}' asks 'new', which the engine does not announce in its version line ({})",
                file.display(),
                features.names()
            )));
        }
        let ended = replay_session(args, command, &config, &game, requests, file, records.as_deref());
        crate::command::wait_if_interrupted();
        let cost = Cost::of(&game);
        drop(game);
        cost.print(args.cpu, &fresh);
        return ended;
    }
    if let Some(position) = &args.position {
        let depth = args.depth.unwrap_or(if args.to_end { TO_THE_END } else { 0 });
        let ended = one_case(args, command, &config, &game, (position, depth), &mut engine, None);
        crate::command::wait_if_interrupted();
        let cost = Cost::of(&game);
        drop(game);
        cost.print(args.cpu, &fresh);
        return ended;
    }
    let bar = crate::progress::bar(config.cases, "cases", "fuzz");
    // A proof to the end that meets a line longer than the searches go is undecided too.
    let or_endless = if config.to_end {
        format!(", or a line longer than the {} plies the searches go", nullwindow::tree::MAX_SEARCH_HEIGHT)
    } else {
        String::new()
    };
    let mut summary = Summary::new(format!(
        "{} to prove (--max-positions, a case){or_endless}",
        counted(config.budget, "position", "positions")
    ))
    .holding_as(verdict_word(&config));
    let mut profile = Profile::default();
    let on_progress = |progress| match progress {
        Progress::Cases { done, judged, .. } => {
            summary.add(judged);
            if config.selective && matches!(judged.verdict, Verdict::Agreed | Verdict::Disagreed) {
                match &judged.measure {
                    Some(measure) => profile.add(measure),
                    None => profile.unmeasured += 1,
                }
            }
            // Between cases, when no position of the game is held, so memory stays bounded; not
            // before a case that disagreed is followed down the game from its position.
            if judged.verdict != Verdict::Disagreed {
                game.forget_beyond(memory / 2);
            }
            bar.set_position(done);
        }
        Progress::Descending { tests, depth, plies } => {
            bar.set_message(format!(
                "descending: {}, at depth {}, {} from the start",
                counted(tests, "search", "searches"),
                depth_text(depth),
                counted(plies as u64, "move", "moves")
            ));
            bar.tick();
        }
        Progress::Shrinking { .. } => {}
    };
    if args.keep_going {
        let run =
            Run { args, config: &config, game: &game, log: &log, fresh: &fresh, records: records.as_deref() };
        let ended = keep_going(&run, &mut engine, on_progress);
        bar.finish_and_clear();
        crate::command::wait_if_interrupted();
        let ended = judge_profile(args, (&off, features.decimals), &profile, ended);
        let cost = Cost::of(&game);
        summary.print();
        drop(game);
        cost.print(args.cpu, &fresh);
        return ended;
    }
    let outcome = harness::fuzz_game(&config, &game, &mut engine, on_progress);
    bar.finish_and_clear();
    // An interruption stopped the engine, and what the run saw since is no finding: the handler
    // is about to exit 130.
    crate::command::wait_if_interrupted();
    let cost = Cost::of(&game);
    let ended = match outcome {
        GameOutcome::Agreed { agreed, undecided, skipped } => {
            let counts = (agreed, skipped, undecided);
            let hint = what_to_try(&game, &config, undecided);
            if let Some(error) = nothing_judged(config.cases, counts, why_undecided(&config), ("", &hint)) {
                Err(error)
            } else {
                let also = declined_and_undecided(skipped, (undecided, why_undecided(&config)));
                outln!(
                    "{}: {} of {} ({}), seed {}{also}",
                    verdict_word(&config),
                    counted(agreed, "case", "cases"),
                    config.cases,
                    judged_how(&config),
                    config.seed
                );
                Ok(ExitCode::SUCCESS)
            }
        }
        GameOutcome::Disagreed(found) => {
            outln!("disagreement: {}", report(&game, &found));
            mover_hint(&game, &found);
            let run = Run {
                args,
                config: &config,
                game: &game,
                log: &log,
                fresh: &fresh,
                records: records.as_deref(),
            };
            outln!("{}", run.follow_up(&found, &args.save()));
            Ok(ExitCode::from(1))
        }
        GameOutcome::EngineFailed { index, case, error } => {
            errln!(
                "error: case {index} ({}), depth {}, position {}: {error}\nreproduce: {}",
                case.origin,
                depth_text(case.depth),
                quote_if_needed(&game.token(&case.position)),
                reproduce(args, command, &game, &case)
            );
            Ok(ExitCode::from(3))
        }
        GameOutcome::Config(error) => Err(CliError(error.to_string())),
    };
    let ended = judge_profile(args, (&off, features.decimals), &profile, ended);
    // After the verdict, so that its first line stays the output's first.
    summary.print();
    // Whatever the verdict: what the engine was asked is part of what the run found.
    drop(game);
    cost.print(args.cpu, &fresh);
    ended
}

/// Why a case of this run is left undecided: beyond the budget, or, to the end of the game, a
/// line past the searches' height too.
const fn why_undecided(config: &Config) -> &'static str {
    if config.to_end {
        "undecided (beyond the budget, or a line past the searches' height)"
    } else {
        BEYOND_THE_BUDGET
    }
}

/// For a run that judged no case: that the engine searches to the end of the game, if it
/// announces so and the run asked for depths; and, if cases were left undecided, which flag
/// raises the budget.
fn what_to_try(game: &ServedGame, config: &Config, undecided: u64) -> String {
    let mut hint = String::new();
    if game.served().features().end && !config.to_end {
        hint.push_str("; the engine announces 'end': judge its search to the end of the game with --to-end");
    }
    if undecided > 0 {
        hint.push_str("; --max-positions raises the budget");
    }
    hint
}

/// The word a run's last line gives the cases that hold: `agreed` with the exact value, or, with
/// --selective, `consistent` with the rules of the engine's own search.
const fn verdict_word(config: &Config) -> &'static str {
    if config.selective { "consistent" } else { "agreed" }
}

/// What the cases were held to, for the run's last line.
const fn judged_how(config: &Config) -> &'static str {
    if config.selective {
        "the engine's own search held to the rules of any alpha-beta search, on its records; its values \
         measured, not judged"
    } else {
        "the engine's own search on its own game"
    }
}

/// With --selective: the profile printed after the run's verdict, written as an SVG with
/// --profile-svg, and judged with --max-worse-moves (exit 1 when more moves are worse than it
/// allows, if nothing else made the run fail).
fn judge_profile(
    args: &FuzzArgs,
    (off, decimals): (&[String], Decimals),
    profile: &Profile,
    ended: Result<ExitCode, CliError>,
) -> Result<ExitCode, CliError> {
    if !args.selective {
        return ended;
    }
    let features =
        if off.is_empty() { "every feature on".to_owned() } else { format!("off: {}", off.join(", ")) };
    outln!("selectivity profile ({features}; against the exact value at each case's depth):");
    for line in profile.lines_in(decimals) {
        outln!("  {line}");
    }
    if let Some(path) = &args.profile_svg {
        let title = format!("Selectivity by depth ({features})");
        match std::fs::write(path, profile.svg(&title)) {
            Ok(()) => outln!("  plot: {}", path.display()),
            Err(error) => return Err(CliError(format!("--profile-svg '{}': {error}", path.display()))),
        }
    }
    let Some(allowed) = args.max_worse_moves else { return ended };
    let total = profile.total();
    let share = total.worse_share();
    if share > allowed {
        outln!(
            "too selective: {share:.1}% of {} measured are worse than a best move, more than --max-worse-moves {allowed}%",
            counted(total.moves, "move", "moves")
        );
        return match ended {
            Ok(code) if code == ExitCode::SUCCESS => Ok(ExitCode::from(1)),
            other => other,
        };
    }
    outln!(
        "within --max-worse-moves {allowed}%: {share:.1}% of {} measured are worse than a best move",
        counted(total.moves, "move", "moves")
    );
    ended
}

/// --keep-going: every case run, whatever it finds; the first case of each kind of disagreement
/// followed down the game within its kind, reported, saved (with --save, `-1`, `-2`, … added) and
/// given its own `reproduce:` line; a failure of the engine ends the run (what a failed engine
/// answers next is no answer of its own). A last line counts each kind. Exit 1 when any kind is
/// a disagreement, 3 when the engine failed and nothing disagreed, 0 when every case agreed.
fn keep_going(
    run: &Run<'_>,
    engine: &mut impl FnMut(&GameCase<ServedGame>) -> Result<Option<Answer<ServedPosition>>, String>,
    on_progress: impl FnMut(Progress),
) -> Result<ExitCode, CliError> {
    let (args, config, game) = (run.args, run.config, run.game);
    // Written as they come, while their positions are the game's.
    let mut findings: Vec<(String, String)> = Vec::new();
    let mut failed = false;
    let several = harness::fuzz_game_keep_going(config, game, engine, on_progress, |finding| match finding {
        GameFinding::Disagreed(found) => {
            let kind = found.disagreement.kind_name();
            let number = findings.len() + 1;
            mover_hint(game, &found);
            let save_as = PathBuf::from(format!("{}-{number}", args.save().display()));
            let text = format!("{}\n{}", report(game, &found), run.follow_up(&found, &save_as));
            findings.push((kind, text));
            std::ops::ControlFlow::Continue(())
        }
        GameFinding::Failed { index, case, error } => {
            failed = true;
            let error = match error {
                harness::Failure::Error(error) => error,
                harness::Failure::Panic(message) => message,
            };
            let text = format!(
                "case {index} ({}), depth {}, position {}: {error}; the run stopped here, as what the engine \
                 answers after a failure is not its own\nreproduce: {}",
                case.origin,
                depth_text(case.depth),
                quote_if_needed(&game.token(&case.position)),
                reproduce(args, run.fresh.command, game, &case)
            );
            findings.push(("an engine failure".to_owned(), text));
            std::ops::ControlFlow::Break(())
        }
    })
    .map_err(|e| CliError(e.to_string()))?;
    crate::command::wait_if_interrupted();
    if findings.is_empty() {
        let counts = (several.agreed, several.skipped, several.undecided);
        let hint = what_to_try(game, config, several.undecided);
        if let Some(error) = nothing_judged(config.cases, counts, why_undecided(config), ("", &hint)) {
            return Err(error);
        }
        outln!(
            "{}: {} of {} ({}), seed {}{}",
            verdict_word(config),
            counted(several.agreed, "case", "cases"),
            config.cases,
            judged_how(config),
            config.seed,
            declined_and_undecided(several.skipped, (several.undecided, why_undecided(config)))
        );
        return Ok(ExitCode::SUCCESS);
    }
    let count_of =
        |name: &str| several.kinds.iter().find(|(kind, _)| kind == name).map_or(0, |&(_, count)| count);
    for (kind, text) in &findings {
        let label = if kind == "an engine failure" { "failure" } else { "disagreement" };
        outln!("{label}, {kind} ({}): {text}", counted(count_of(kind), "case", "cases"));
    }
    let stopped = several
        .stopped_after
        .map_or_else(String::new, |index| format!(" (stopped after case {index} of {})", config.cases));
    let kinds = several.kinds.iter().map(|(kind, count)| (kind.as_str(), *count));
    outln!("{}{stopped}", super::kinds_line(kinds, (verdict_word(config), several.agreed), config.cases));
    let disagreed = findings.iter().any(|(kind, _)| kind != "an engine failure");
    Ok(ExitCode::from(if disagreed || !failed { 1 } else { 3 }))
}

/// A hint where the engine's value is a move's value not turned round, as where the same side
/// moves again: an extra turn the engine has not announced.
fn mover_hint(game: &ServedGame, found: &Descent<ServedGame>) {
    let mover = game.to_move(&found.found.position);
    let unturned = found.after.iter().flatten().any(|&after| mover.perspective(after) == -found.answer.value);
    let wrong_value = matches!(found.disagreement, Disagreement::Value { .. });
    if !game.served().features().mover && wrong_value && found.answer.value != 0 && unturned {
        errln!(
            "hint: the engine's value is the value of a move here not turned round, as if the same \
             side moved again after it: if a side of your game can move twice in a row (an extra \
             turn), announce 'mover' in the version line and answer 'mover POS', so that values \
             turn only where the side to move changes"
        );
    }
}

/// What a finding is followed up with: the run's settings, its game and what it asked.
struct Run<'a> {
    args: &'a FuzzArgs,
    config: &'a Config,
    game: &'a ServedGame,
    log: &'a Log,
    fresh: &'a Fresh<'a>,
    records: Option<&'a Path>,
}

impl Run<'_> {
    /// The lines that follow a finding's report. An answer that depends on the engine's history
    /// (asked again, it answered otherwise) is asked again of fresh engines after the searches
    /// that came before it ([`Run::history`]), and those are shrunk to the fewest that still show
    /// it and saved as a session (at `save_as`), which nothing else reproduces; any other finding
    /// is saved with --save. Then the line that judges it again.
    fn follow_up(&self, found: &Descent<ServedGame>, save_as: &Path) -> String {
        let mut lines = Vec::new();
        let kept = self.history(found, &mut lines);
        let case = &found.found;
        let search = Request::Search { token: self.game.token(&case.position), depth: case.depth };
        match kept {
            None => {
                if self.args.save.is_some() {
                    match self.save(save_as, std::slice::from_ref(&search)) {
                        Ok(line) => lines.push(line),
                        Err(warning) => errln!("{warning}"),
                    }
                }
                lines.push(format!(
                    "reproduce: {}",
                    reproduce(self.args, self.fresh.command, self.game, case)
                ));
            }
            Some(mut requests) => {
                requests.push(search);
                self.reproduce_history(save_as, &requests, &mut lines);
            }
        }
        lines.join("\n")
    }

    /// The history a finding depends on, its lines added to `lines`: `Some` with the fewest
    /// earlier searches after which a fresh engine is still wrong the same way, or `None` when
    /// the finding does not depend on what came before (or cannot be told to).
    fn history(&self, found: &Descent<ServedGame>, lines: &mut Vec<String>) -> Option<Vec<Request>> {
        let case = &found.found;
        let search = Request::Search { token: self.game.token(&case.position), depth: case.depth };
        let mut trials = Trials::new(self, found);
        let earlier = if found.answered_again.is_none() {
            // Followed down the game in one process: the `reproduce:` line asks a fresh engine.
            if trials.wrong(&[]).is_some() {
                return None;
            }
            lines.push(
                "history: a fresh engine asked this position alone answers it rightly: the finding depends on \
                 what the engine was asked before"
                    .to_owned(),
            );
            self.log.before_last_ask(&search)
        } else {
            // The case was asked twice, one after the other: what came before is its history.
            self.log.before_previous_case()
        };
        if !self.log.complete() {
            lines.push(
                "history: the searches before this case outgrew a quarter of --max-memory and were not all \
                 kept, so they are not replayed"
                    .to_owned(),
            );
            return None;
        }
        let searches = counted(earlier.len() as u64, "earlier search", "earlier searches");
        if trials.wrong(&earlier).is_none() {
            lines.push(format!(
                "history: a fresh engine asked the same {searches} first is not wrong this way: its answers \
                 vary with more than what it is asked (randomness, time, threads)"
            ));
            return None;
        }
        let minimized =
            minimize_history(&earlier, |earlier| trials.wrong(earlier).is_some(), self.args.max_shrink_runs);
        let again = trials.wrong(&minimized.kept);
        let said = again.map_or_else(String::new, |answer| {
            format!(", where it says {}", self.config.decimals.show(answer.value))
        });
        let engines = counted(minimized.tests + 2, "fresh engine", "fresh engines");
        if minimized.kept.is_empty() {
            lines.push(format!(
                "history: a fresh engine asked this case alone is wrong this way too{said} (tried after the \
                 {searches} before it and alone, {engines})"
            ));
            return None;
        }
        let minimal = if minimized.minimal {
            "each of them needed"
        } else {
            "not the fewest: --max-shrink-runs ran out"
        };
        lines.push(format!(
            "history: the finding depends on the engine's history: a fresh engine is wrong this way after {} \
             of the {searches} ({minimal}; delta debugging, {engines}){said}",
            counted(minimized.kept.len() as u64, "search", "searches"),
        ));
        for request in &minimized.kept {
            lines.push(format!("  {}", printable(&request.to_string())));
        }
        Some(minimized.kept)
    }

    /// The session of a finding that depends on the engine's history, saved at `save_as`, and
    /// the line that replays it (from standard input, where the file cannot be written).
    fn reproduce_history(&self, save_as: &Path, requests: &[Request], lines: &mut Vec<String>) {
        let command = self.fresh.command;
        match self.save(save_as, requests) {
            Ok(line) => {
                let path = line.trim_start_matches("saved: ").to_owned();
                lines.push(line);
                lines.push(format!("reproduce: {}", reproduce_session(self.args, command, &path)));
            }
            Err(warning) => {
                errln!("{warning}");
                let text = session::text(command, requests);
                lines.push(format!(
                    "reproduce: printf '%s' {} | {}",
                    quote(&text),
                    reproduce_session(self.args, command, "/dev/stdin")
                ));
            }
        }
    }

    /// `requests` saved as a session at `save_as`: the line that says where, or a warning.
    fn save(&self, save_as: &Path, requests: &[Request]) -> Result<String, String> {
        match session::write(save_as, self.fresh.command, requests) {
            Ok(path) => Ok(format!("saved: {}", path.display())),
            Err(why) => Err(format!("warning: {why}")),
        }
    }
}

/// A finding's case asked of fresh engines, each after some earlier searches, judged by one
/// prover: whether it is still wrong the same way. A progress line counts the engines started.
struct Trials<'r> {
    run: &'r Run<'r>,
    case: &'r GameCase<ServedGame>,
    kind: String,
    prover: Prover<ServedGame>,
    bar: indicatif::ProgressBar,
    started: u64,
}

impl<'r> Trials<'r> {
    fn new(run: &'r Run<'r>, found: &'r Descent<ServedGame>) -> Self {
        Self {
            run,
            case: &found.found,
            kind: found.disagreement.kind_name(),
            prover: Prover::new(run.config.table_entries),
            bar: crate::progress::bar(0, "fresh engines", "history"),
            started: 0,
        }
    }

    /// A fresh engine's answer to the case after `earlier`, if it is wrong the same way.
    fn wrong(&mut self, earlier: &[Request]) -> Option<Answer<ServedPosition>> {
        self.started += 1;
        self.bar.set_message(format!(
            "{} started, {} replayed",
            counted(self.started, "fresh engine", "fresh engines"),
            counted(earlier.len() as u64, "search", "searches")
        ));
        self.bar.tick();
        let run = self.run;
        let answer = run.fresh.search(run.game, earlier, self.case, run.records).ok()??;
        let judged =
            harness::judge_game(run.game, &mut self.prover, self.case, &answer, run.config).ok()??;
        (judged.kind_name() == self.kind).then_some(answer)
    }
}

impl Drop for Trials<'_> {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

/// The command that replays the session saved at `path` in a fresh engine and judges its last search.
fn reproduce_session(args: &FuzzArgs, command: &str, path: &str) -> String {
    let program = std::env::args().next().unwrap_or_else(|| "nullwindow".to_owned());
    let line = format!(
        "{} fuzz --engine {} --session {}",
        quote_if_needed(&program),
        quote(command),
        quote_if_needed(path)
    );
    line + &carried(args)
}

/// `--session FILE`: its earlier requests asked of the engine, in order, and its last search judged
/// as `--position` judges one (exit 1 when wrong).
fn replay_session(
    args: &FuzzArgs,
    command: &str,
    config: &Config,
    game: &ServedGame,
    requests: &[Request],
    file: &Path,
    records: Option<&Path>,
) -> Result<ExitCode, CliError> {
    let Some((Request::Search { token, depth }, earlier)) = requests.split_last() else {
        return Err(CliError("a session ends with a search".to_owned()));
    };
    for request in earlier {
        let asked = match request {
            Request::New => game.served().new_game(),
            Request::Search { token, depth } => game.served().search(token, *depth, None).map(drop),
        };
        if let Err(error) = asked {
            crate::command::wait_if_interrupted();
            errln!("error: --session '{}', {}: {error}", file.display(), printable(&request.to_string()));
            return Ok(ExitCode::from(3));
        }
    }
    let log = Log::new(0);
    let mut engine = |case: &GameCase<ServedGame>| asked(game, &log, case, records, args.repeat);
    let session = Some((file, earlier.len()));
    one_case(args, command, config, game, (&format!("token:{token}"), *depth), &mut engine, session)
}

/// Entries of the proofs' table for `memory` bytes of --max-memory: a thirty-second of it, in 16-byte
/// entries (the engine's answers may take half, and are forgotten past it).
const fn proof_table_entries(memory: usize) -> usize {
    memory / 32 / 16
}

/// What the run asked of the engine, read when it ends.
struct Cost {
    requests: u64,
    round_trips: u64,
    positions: u64,
    /// The CPU time the engine has taken, read while it still runs.
    engine_cpu: Option<Duration>,
}

impl Cost {
    fn of(game: &ServedGame) -> Self {
        let served = game.served();
        Self {
            requests: served.requests(),
            round_trips: served.round_trips(),
            positions: served.asked(),
            engine_cpu: served.engine_cpu(),
        }
    }

    /// One note on standard error: the requests, the round trips they took, the positions they
    /// asked about, the fresh engines a finding was asked of, and with `cpu` the CPU time of the oracle and of the engine and the oracle's
    /// peak memory, where the system tells them (they vary from run to run, the rest does not).
    fn print(&self, cpu: bool, fresh: &Fresh<'_>) {
        if crate::progress::quiet() {
            return;
        }
        let afresh = match fresh.started.get() {
            0 => String::new(),
            started => format!(
                "; {} answered {} more (a finding asked afresh)",
                counted(started, "fresh engine", "fresh engines"),
                counted(fresh.requests.get(), "request", "requests")
            ),
        };
        let mut cpu = match (cpu, crate::command::cpu_times(), self.engine_cpu) {
            (true, Some((own, _)), Some(engine)) => {
                format!("; CPU: nullwindow {own:.2} s, the engine {:.2} s", engine.as_secs_f64())
            }
            (true, Some((own, _)), None) => format!("; CPU: nullwindow {own:.2} s, the engine's unknown"),
            _ => String::new(),
        };
        if let Some(peak) = crate::command::peak_memory().filter(|_| !cpu.is_empty()) {
            cpu.push_str(&format!("; nullwindow's peak memory {} MiB", peak >> 20));
        }
        errln!(
            "note: the engine answered {} ({}) about {}{afresh}{cpu}",
            counted(self.requests, "request", "requests"),
            counted(self.round_trips, "round trip", "round trips"),
            counted(self.positions, "position", "positions")
        );
    }
}

/// `--position POS --depth D`: the one case judged, exit 1 when the engine is wrong.
fn one_case(
    args: &FuzzArgs,
    command: &str,
    config: &Config,
    game: &ServedGame,
    (position, depth): (&str, u32),
    engine: &mut impl FnMut(&GameCase<ServedGame>) -> Result<Option<Answer<ServedPosition>>, String>,
    session: Option<(&Path, usize)>,
) -> Result<ExitCode, CliError> {
    let given = match session {
        Some((file, _)) => format!("--session '{}'", file.display()),
        None => "--position".to_owned(),
    };
    let located = match game.served().locate(position, &[]) {
        Ok(located) => located,
        Err(error) if error.is_the_engines() => {
            errln!("error: {given} {}: {error}", quote_if_needed(position));
            return Ok(ExitCode::from(3));
        }
        Err(error) => return Err(CliError(format!("{given}: {error}"))),
    };
    let after = match session {
        Some((_, 0)) | None => String::new(),
        Some((_, earlier)) => {
            format!(" after the {} before it in the session", counted(earlier as u64, "request", "requests"))
        }
    };
    let mut moves = Vec::new();
    if let Some(names) = &located.moves {
        let mut at = game.root();
        for name in names {
            let index = game.legal_moves(&at).into_iter().find(|&mv| game.move_name(&at, mv) == *name);
            let Some(index) = index else { break };
            moves.push(index);
            at = game.play(&at, index);
        }
    }
    let at = game.position(&located.token, located.side);
    let origin = match session {
        Some(_) => format!("{given}, its last search"),
        None => format!("--position {}", quote_if_needed(position)),
    };
    let case = GameCase::new(at, moves, depth, origin);
    if let Some(failure) = game.take_failure() {
        errln!("error: --engine: {failure}");
        return Ok(ExitCode::from(3));
    }
    let asked = engine(&case);
    crate::command::wait_if_interrupted();
    let answer = match asked {
        Ok(Some(answer)) => answer,
        Ok(None) => {
            return Err(CliError(format!(
                "the engine declines {} at depth {} (skip): nothing was judged",
                quote_if_needed(&located.token),
                depth_text(depth)
            )));
        }
        Err(error) => {
            errln!("error: {} at depth {}: {error}", quote_if_needed(&located.token), depth_text(depth));
            return Ok(ExitCode::from(3));
        }
    };
    let mut prover = Prover::new(config.table_entries);
    let judged = harness::judge_game(game, &mut prover, &case, &answer, config);
    crate::command::wait_if_interrupted();
    if let Some(failure) = game.take_failure() {
        errln!("error: --engine: {failure}");
        return Ok(ExitCode::from(3));
    }
    match judged {
        Ok(None) if config.selective => {
            outln!(
                "consistent: the engine's search of {} to depth {} keeps the rules of any alpha-beta \
                 search{after}",
                quote_if_needed(&located.token),
                depth_text(case.depth)
            );
            Ok(ExitCode::SUCCESS)
        }
        Ok(None) => {
            outln!(
                "agreed: the engine's search of {} to depth {} is right{after}",
                quote_if_needed(&located.token),
                depth_text(case.depth)
            );
            Ok(ExitCode::SUCCESS)
        }
        Ok(Some(disagreement)) => {
            let cases = (case.clone(), case.clone());
            let found = Descent::new(game, &mut prover, config, 0, cases, answer, disagreement, 0);
            outln!("disagreement: {}{}", report(game, &found), after.replacen(" after", "\nasked after", 1));
            match session {
                Some((file, _)) => {
                    outln!("reproduce: {}", reproduce_session(args, command, &file.display().to_string()))
                }
                None => {
                    if args.save.is_some() {
                        let search = Request::Search { token: located.token.clone(), depth };
                        match session::write(&args.save(), command, &[search]) {
                            Ok(path) => outln!("saved: {}", path.display()),
                            Err(why) => errln!("warning: {why}"),
                        }
                    }
                    outln!("reproduce: {}", reproduce(args, command, game, &case));
                }
            }
            Ok(ExitCode::from(1))
        }
        Err(undecided) => Err(CliError(format!(
            "{}, depth {}: the proof needs more than {} (--max-positions)",
            quote_if_needed(&located.token),
            depth_text(depth),
            counted(undecided.budget, "position", "positions")
        ))),
    }
}

/// The report of a descent, positions by their tokens and moves by the engine's names, their
/// control characters escaped.
fn report(game: &ServedGame, found: &Descent<ServedGame>) -> String {
    found.report(
        |position| printable(&game.token(position)).into_owned(),
        |position, mv| printable(&game.move_name(position, mv)).into_owned(),
        |player| game.served().player_word(player).map(|word| printable(word).into_owned()),
        game,
    )
}

/// The engine's answer to `search` on `case`, logged; with `repeat` above 1, asked that many times
/// in a row (each after `new`, where the engine announces it), the further answers kept in
/// [`Answer::again`], and the records the first's.
fn asked(
    game: &ServedGame,
    log: &Log,
    case: &GameCase<ServedGame>,
    records: Option<&Path>,
    repeat: u32,
) -> Result<Option<Answer<ServedPosition>>, String> {
    let token = game.token(&case.position);
    log.start_case();
    if fresh_each(game.served().features(), repeat) {
        log.push(Request::New);
        game.served().new_game().map_err(|e| e.to_string())?;
    }
    log.push(Request::Search { token: token.clone(), depth: case.depth });
    let Some(mut answer) = search(game, case, records)? else { return Ok(None) };
    ask_further(&mut game.served(), (&token, case.depth), repeat, &mut answer, |request| log.push(request))?;
    Ok(Some(answer))
}

/// Whether each asking of a case asked `repeat` times starts with `new`: where the engine
/// announces it, so that the answers compared are those of a fresh search each.
const fn fresh_each(features: Features, repeat: u32) -> bool {
    repeat > 1 && features.new
}

/// What is asked of a case after its first answer, on `served` (the run's engine or a fresh
/// one, so that a finding of these answers can be asked again afresh): with `symmetric`, the
/// values of the positions the engine names as equal to it; with `repeat` above 1, the case
/// asked again that many times in all (each after `new`, where announced). Each request is handed
/// to `logged` before it is asked.
fn ask_further(
    served: &mut Served,
    (token, depth): (&str, u32),
    repeat: u32,
    answer: &mut Answer<ServedPosition>,
    mut logged: impl FnMut(Request),
) -> Result<(), String> {
    if served.features().symmetric {
        let tokens = served.symmetric(token).map_err(|e| e.to_string())?;
        for other in tokens.into_iter().filter(|other| other != token) {
            logged(Request::Search { token: other.clone(), depth });
            // A position the engine declines is not compared.
            let searched = served.search(&other, depth, None).map_err(|e| e.to_string())?;
            if let Searched::Value { value, .. } = searched {
                answer.symmetric.push((printable(&other).into_owned(), value));
            }
        }
    }
    let fresh_each = fresh_each(served.features(), repeat);
    for _ in 1..repeat {
        if fresh_each {
            logged(Request::New);
            served.new_game().map_err(|e| e.to_string())?;
        }
        logged(Request::Search { token: token.to_owned(), depth });
        match served.search(token, depth, None).map_err(|e| e.to_string())? {
            Searched::Value { value, best_move } => answer.again.push((value, best_move)),
            Searched::Skip => {
                return Err(format!(
                    "the engine declined '{}' at depth {} when asked again, after answering it",
                    printable(token),
                    depth_text(depth)
                ));
            }
        }
    }
    Ok(())
}

/// The engine's answer to `search` on `case`, its records read and placed in its game.
fn search(
    game: &ServedGame,
    case: &GameCase<ServedGame>,
    records: Option<&Path>,
) -> Result<Option<Answer<ServedPosition>>, String> {
    if let Some(failure) = game.take_failure() {
        return Err(failure.to_string());
    }
    let token = game.token(&case.position);
    // A search to the end writes no records: its nodes have no depth left to judge them at.
    let records = records.filter(|_| case.depth < TO_THE_END);
    if let Some(file) = records {
        let _ = std::fs::remove_file(file);
    }
    let searched = game.served().search(&token, case.depth, records);
    answer_of(searched, game, case, records)
}

/// The answer a search gave (`searched`, by the game's engine or a fresh one), its records read
/// from `records` and placed in `game`.
fn answer_of(
    searched: Result<Searched, ProtocolError>,
    game: &ServedGame,
    case: &GameCase<ServedGame>,
    records: Option<&Path>,
) -> Result<Option<Answer<ServedPosition>>, String> {
    let Searched::Value { value, best_move } = searched.map_err(|e| e.to_string())? else { return Ok(None) };
    let mut answer = Answer { best_move, ..Answer::value(value) };
    if let Some(file) = records
        && let Some(written) = read_records(file)?
    {
        let decimals = game.served().features().decimals;
        let read = read_jsonl_in(&written, decimals)
            .map_err(|e| format!("the engine's records: {}", e.at("records")))?;
        answer.records =
            place(game, case, read).map_err(|e| format!("the engine's records: {}", e.at("records")))?;
        if let Some(failure) = game.take_failure() {
            return Err(failure.to_string());
        }
    }
    Ok(Some(answer))
}

/// The features `--off NAMES` names among the engine's `options` (`all`: every one of them).
fn chosen_off(names: &[String], options: &[String]) -> Result<Vec<String>, CliError> {
    if names.iter().any(|name| name == "all") {
        return Ok(options.to_vec());
    }
    let listed = if options.is_empty() { "none".to_owned() } else { options.join(", ") };
    match names.iter().find(|name| !options.contains(name)) {
        Some(unknown) => Err(CliError(format!(
            "--off {}: the engine's options are {listed} (or give 'all')",
            printable(unknown)
        ))),
        None => Ok(names.to_vec()),
    }
}

/// Switches each feature of `off` off in `served` (`set NAME off`), before any search.
fn switch_off(served: &mut Served, off: &[String]) -> Result<(), ProtocolError> {
    off.iter().try_for_each(|name| served.set(name, false))
}

/// How to start the engine afresh: a process of its own, asked only what a session holds.
struct Fresh<'a> {
    command: &'a str,
    timeout: Duration,
    search_timeout: Option<Duration>,
    memory: usize,
    /// The selective features switched off (`--off`), in every fresh engine too.
    off: Vec<String>,
    /// How many times in a row a case is asked (`--repeat`), in a fresh engine too.
    repeat: u32,
    /// Fresh engines started, and the requests they answered, for the note that ends the run.
    started: Cell<u64>,
    requests: Cell<u64>,
}

impl Fresh<'_> {
    /// A fresh engine's answer to `case` after the requests `earlier`, its records placed in `game`.
    fn search(
        &self,
        game: &ServedGame,
        earlier: &[Request],
        case: &GameCase<ServedGame>,
        records: Option<&Path>,
    ) -> Result<Option<Answer<ServedPosition>>, String> {
        self.started.set(self.started.get() + 1);
        let mut served = Served::start(self.command, self.timeout).map_err(|e| e.to_string())?;
        let answer = self.search_in(&mut served, game, earlier, case, records);
        self.requests.set(self.requests.get() + served.requests());
        answer
    }

    /// [`Fresh::search`] in the fresh engine `served`.
    fn search_in(
        &self,
        served: &mut Served,
        game: &ServedGame,
        earlier: &[Request],
        case: &GameCase<ServedGame>,
        records: Option<&Path>,
    ) -> Result<Option<Answer<ServedPosition>>, String> {
        served.set_max_bytes(self.memory / 4);
        switch_off(served, &self.off).map_err(|e| e.to_string())?;
        if let Some(timeout) = self.search_timeout {
            served.set_search_timeout(timeout);
        }
        for request in earlier {
            match request {
                Request::New => served.new_game().map_err(|e| e.to_string())?,
                Request::Search { token, depth } => {
                    served.search(token, *depth, None).map_err(|e| e.to_string())?;
                }
            }
        }
        if fresh_each(served.features(), self.repeat) {
            served.new_game().map_err(|e| e.to_string())?;
        }
        if let Some(file) = records {
            let _ = std::fs::remove_file(file);
        }
        let token = game.token(&case.position);
        let searched = served.search(&token, case.depth, records);
        let Some(mut answer) = answer_of(searched, game, case, records)? else { return Ok(None) };
        ask_further(served, (&token, case.depth), self.repeat, &mut answer, drop)?;
        Ok(Some(answer))
    }
}

/// Places each record on a position of the engine's game: by its path (child indices in the order
/// of `children`), walked from the case's position; or by its node, a token or the names of the
/// moves from the case's position separated by spaces. A token lies `ply` plies below the case's
/// position where the record says so, else as many as a search of one depth puts it: the case's
/// depth less the record's. Its side to move is the one the engine names with `mover`; without
/// `mover`, sides alternate, so it is the case's side an even number of plies below, the other
/// side otherwise. A node named by both must agree, and so must a `ply` with the moves named.
fn place(
    game: &ServedGame,
    case: &GameCase<ServedGame>,
    records: Vec<Record<()>>,
) -> Result<Vec<Record<ServedPosition>>, ReadError> {
    let mover = game.served().features().mover;
    let distance = game.served().features().distance;
    let side_to_move = case.position.side;
    records
        .into_iter()
        .map(|record| {
            let at = |message: String| ReadError { line: record.line, column: None, message };
            let by_path = match &record.path {
                Some(path) => Some(walk(game, case.position, path).map_err(at)?),
                None => None,
            };
            let by_name = match &record.node {
                None => None,
                Some(name) => {
                    let name = match name {
                        NodeName::Id(name) => name.clone(),
                        NodeName::Number(number) => number.to_string(),
                    };
                    let moves = name.split_whitespace().count();
                    if moves == 1 {
                        // A record named by its token alone lies where its `ply` says, or as many
                        // plies below the case as a search of one depth puts it: its side, and
                        // with distance its value, depend on it. An engine that deepens
                        // iteratively writes the ply.
                        let ply = match record.ply {
                            Some(ply) => ply,
                            None if name == game.token(&case.position) => 0,
                            None => case.depth.saturating_sub(record.depth),
                        };
                        let side = if mover {
                            game.served().side_at(&name).map_err(|e| at(e.to_string()))?
                        } else if ply.is_multiple_of(2) {
                            side_to_move
                        } else {
                            side_to_move.opponent()
                        };
                        let ply = if distance { ply } else { 0 };
                        Some(ServedPosition { ply, ..game.position(&name, side) })
                    } else {
                        if let Some(ply) = record.ply.filter(|&ply| ply as usize != moves) {
                            return Err(at(format!("'ply' is {ply}, but the node names {moves} moves")));
                        }
                        Some(walk_names(game, case.position, &name).map_err(at)?)
                    }
                }
            };
            match (by_path, by_name) {
                (Some(position), Some(named)) => {
                    if game.token(&position) != game.token(&named) {
                        return Err(at(format!(
                            "'path' and 'node' name different positions: the path leads to '{}'",
                            nullwindow::tree::text::excerpt(&game.token(&position))
                        )));
                    }
                    Ok(record.at(position))
                }
                (Some(position), None) | (None, Some(position)) => Ok(record.at(position)),
                (None, None) => {
                    Err(at("the record names no node: give 'path' (child indices) or 'node'".to_owned()))
                }
            }
        })
        .collect()
}

/// The position `path` (child indices in the order of `children`) leads to from `from`.
fn walk(game: &ServedGame, from: ServedPosition, path: &[u32]) -> Result<ServedPosition, String> {
    let mut at = from;
    for (step, &index) in path.iter().enumerate() {
        let moves = game.legal_moves(&at).len();
        if index as usize >= moves {
            return Err(format!(
                "step {} of the path {}: the position has {}",
                step + 1,
                path_text(path),
                counted(moves as u64, "move", "moves")
            ));
        }
        at = game.play(&at, index);
    }
    Ok(at)
}

/// The position the moves named in `names`, separated by spaces, lead to from `from`.
fn walk_names(game: &ServedGame, from: ServedPosition, names: &str) -> Result<ServedPosition, String> {
    let mut at = from;
    let mut played: Vec<&str> = Vec::new();
    for name in names.split_whitespace() {
        let moves = game.legal_moves(&at);
        let Some(&mv) = moves.iter().find(|&&mv| game.move_name(&at, mv) == name) else {
            let legal: Vec<String> = moves.iter().map(|&mv| game.move_name(&at, mv)).collect();
            let after = if played.is_empty() {
                "at the case's position".to_owned()
            } else {
                format!("after {}", played.join(" "))
            };
            return Err(format!(
                "'{}' is no position's token, nor moves from the case's position: {after} there is no move '{}' \
                 (the moves there: {})",
                nullwindow::tree::text::excerpt(names),
                nullwindow::tree::text::excerpt(name),
                listed_moves(legal.iter().map(String::as_str))
            ));
        };
        played.push(name);
        at = game.play(&at, mv);
    }
    Ok(at)
}

/// The command that judges `case` again: `--position` its token (marked `token:` where the token
/// is also the name of a move of the start, and written `--position=…` where it starts with `-`,
/// so that neither is read as something else).
fn reproduce(args: &FuzzArgs, command: &str, game: &ServedGame, case: &GameCase<ServedGame>) -> String {
    let program = std::env::args().next().unwrap_or_else(|| "nullwindow".to_owned());
    let token = game.token(&case.position);
    let root = game.root();
    let collides = game.legal_moves(&root).into_iter().any(|mv| game.move_name(&root, mv) == token);
    let position = quote_if_needed(&if collides { format!("token:{token}") } else { token });
    let separator = if position.starts_with('-') { "=" } else { " " };
    let line = format!(
        "{} fuzz --engine {} --position{separator}{position} --depth {}",
        quote_if_needed(&program),
        quote(command),
        depth_text(case.depth)
    );
    line + &carried(args)
}

/// The flags a `reproduce:` line carries over, as they change what a judgement finds.
fn carried(args: &FuzzArgs) -> String {
    let mut flags = String::new();
    if args.deeper_entries {
        flags.push_str(" --deeper-entries");
    }
    if args.selective {
        flags.push_str(" --selective");
    }
    if (args.engine_timeout - 10.0).abs() > f64::EPSILON {
        flags.push_str(&format!(" --engine-timeout {}", args.engine_timeout));
    }
    if let Some(timeout) = args.timeout {
        flags.push_str(&format!(" --timeout {timeout}"));
    }
    if args.repeat > 1 {
        flags.push_str(&format!(" --repeat {}", args.repeat));
    }
    if let Some(off) = &args.off {
        flags.push_str(&format!(" --off {}", quote_if_needed(&off.join(","))));
    }
    flags
}
