//! `nullwindow fuzz --engine CMD` without `--command`: the engine's own `search`, on positions of
//! its own game, judged by the harness ([`harness::fuzz_game`]) and a wrong answer followed down the
//! game to the node where the bug acts.

use std::collections::VecDeque;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use nullwindow::driver::Perspective;
use nullwindow::game::Game;
use nullwindow::oracle::harness::{self, Answer, Config, Descent, GameCase, GameOutcome, Progress};
use nullwindow::oracle::protocol::{EngineTree, Searched, Served, ServedGame};
use nullwindow::oracle::record::{locate, read_jsonl};

use super::{FuzzArgs, Summary, Values, declined_and_undecided, quote_if_needed};
use crate::CliError;
use crate::command::{TempDir, quote, read_records};
use crate::output::{counted, outln};

/// The most positions whose answers are kept between cases (some 50 MiB of Connect Four's).
const MAX_KNOWN_TOKENS: usize = 50_000;

pub fn run(args: &FuzzArgs, command: &str) -> Result<ExitCode, CliError> {
    if args.family.is_some() {
        return Err(CliError(
            "--family chooses the cases of --command; without --command the cases are positions of the \
             engine's own game"
                .to_owned(),
        ));
    }
    if args.values == Some(Values::Max) {
        return Err(CliError(
            "--values max: without --command the engine's own search answers from the side to move at \
             the position (its records too)"
                .to_owned(),
        ));
    }
    if args.depth.is_some() && args.position.is_none() {
        return Err(CliError("--depth goes with --position (one case of the engine's game)".to_owned()));
    }
    if !(args.engine_timeout.is_finite() && args.engine_timeout > 0.0) {
        return Err(CliError(format!(
            "--engine-timeout {}: an answer needs some time, in seconds",
            args.engine_timeout
        )));
    }
    let mut served = Served::start(command, Duration::from_secs_f64(args.engine_timeout.min(1e9)))
        .map_err(|e| CliError(format!("--engine: {e}")))?;
    served.set_max_bytes(args.max_memory.saturating_mul(1 << 20));
    let features = served.features();
    if !features.search {
        return Err(CliError(format!(
            "--engine: the engine announces {} in its version line, not 'search': without --command, fuzz \
             runs the engine's own search ('search POS DEPTH'), so its version line must say 'protocol 1 \
             search'; or give --command to run an engine that reads tree files",
            if features == Default::default() { "no optional requests".to_owned() } else { features.names() }
        )));
    }
    let game = ServedGame::new(served);
    let directory = TempDir::new("nullwindow-fuzz")?;
    let records = features.records.then(|| directory.0.join("records.jsonl"));
    let config = Config {
        seed: args.seed,
        cases: args.cases,
        height: args.height.clone(),
        perspective: Perspective::Mover,
        deeper_entries: args.deeper_entries,
        max_shrink_tests: args.max_shrink_runs,
        walk: args.walk.unwrap_or(1000),
        depth_zero: !args.no_depth_zero,
        ..Config::default()
    };
    let mut engine = |case: &GameCase<ServedGame>| search(&game, case, records.as_deref());
    if let Some(position) = &args.position {
        let depth = args.depth.unwrap_or(0);
        return one_case(args, command, &config, &game, position, depth, &mut engine);
    }
    let bar = crate::progress::bar(config.cases, "cases", "fuzz");
    let mut summary = Summary::default();
    let outcome = harness::fuzz_game(&config, &game, &mut engine, |progress| match progress {
        Progress::Cases { done, judged, .. } => {
            summary.add(judged);
            // Between cases, when no position of the game is held: memory stays bounded.
            game.forget_beyond(MAX_KNOWN_TOKENS);
            bar.set_position(done);
        }
        Progress::Shrinking { tests, .. } => {
            bar.set_message(format!("descending: {}", counted(tests, "search", "searches")));
            bar.tick();
        }
    });
    bar.finish_and_clear();
    let requests = game.served().requests();
    let ended = match outcome {
        GameOutcome::Agreed { skipped, .. } if skipped == config.cases && config.cases > 0 => {
            Err(CliError(format!(
                "the engine declined every case ({} of {}): nothing was judged",
                counted(skipped, "case", "cases"),
                config.cases
            )))
        }
        GameOutcome::Agreed { agreed, undecided, skipped } => {
            let also = declined_and_undecided(skipped, undecided);
            outln!(
                "agreed: {} of {} (the engine's own search on its own game), seed {}{also}",
                counted(agreed, "case", "cases"),
                config.cases,
                config.seed
            );
            eprintln!("note: the engine answered {}", counted(requests, "request", "requests"));
            Ok(ExitCode::SUCCESS)
        }
        GameOutcome::Disagreed(found) => {
            outln!("disagreement: {}", report(&game, &found, &config));
            outln!("reproduce: {}", reproduce(args, command, &game, &found.found));
            Ok(ExitCode::from(1))
        }
        GameOutcome::EngineFailed { index, case, error } => {
            eprintln!(
                "error: case {index} ({}), depth {}, position {}: {error}\nreproduce: {}",
                case.case.origin,
                case.case.depth,
                quote_if_needed(&game.token(&case.position)),
                reproduce(args, command, &game, &case)
            );
            Ok(ExitCode::from(3))
        }
        GameOutcome::Config(error) => Err(CliError(error.to_string())),
    };
    // After the verdict, so that its first line stays the output's first.
    summary.print();
    ended
}

/// `--position POS --depth D`: the one case judged, exit 1 when the engine is wrong.
fn one_case(
    args: &FuzzArgs,
    command: &str,
    config: &Config,
    game: &ServedGame,
    position: &str,
    depth: u32,
    engine: &mut impl FnMut(&GameCase<ServedGame>) -> Result<Option<Answer>, String>,
) -> Result<ExitCode, CliError> {
    let located = game.served().locate(position, &[]).map_err(|e| CliError(format!("--position: {e}")))?;
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
    let case = GameCase::new(game, at, moves, depth, format!("--position {}", quote_if_needed(position)))
        .beyond(game, config.unfolded_beyond());
    if let Some(failure) = game.take_failure() {
        return Err(CliError(format!("--engine: {failure}")));
    }
    let answer = match engine(&case) {
        Ok(Some(answer)) => answer,
        Ok(None) => {
            outln!("skipped: the engine declines {} at depth {depth}", quote_if_needed(&located.token));
            return Ok(ExitCode::SUCCESS);
        }
        Err(error) => {
            eprintln!("error: {} at depth {depth}: {error}", quote_if_needed(&located.token));
            return Ok(ExitCode::from(3));
        }
    };
    match harness::judge(&case.case, &answer, config) {
        Ok(None) => {
            outln!(
                "agreed: the engine's search of {} to depth {} is right",
                quote_if_needed(&located.token),
                case.case.depth
            );
            Ok(ExitCode::SUCCESS)
        }
        Ok(Some(disagreement)) => {
            let found = Descent {
                index: 0,
                original: case.clone(),
                found: case.clone(),
                answer,
                disagreement,
                tests: 0,
                perspective: config.perspective,
            };
            outln!("disagreement: {}", report(game, &found, config));
            outln!("reproduce: {}", reproduce(args, command, game, &case));
            Ok(ExitCode::from(1))
        }
        Err(undecided) => Err(CliError(format!("{}, depth {depth}: {undecided}", located.token))),
    }
}

/// The report of a descent, moves by the engine's names.
fn report(game: &ServedGame, found: &Descent<ServedGame>, config: &Config) -> String {
    found.report(
        |position| game.token(position),
        |position, mv| game.move_name(position, mv),
        game,
        config.budget,
    )
}

/// The engine's answer to `search` on `case`, its records read and named in the case's tree.
fn search(
    game: &ServedGame,
    case: &GameCase<ServedGame>,
    records: Option<&Path>,
) -> Result<Option<Answer>, String> {
    if let Some(failure) = game.take_failure() {
        return Err(failure.to_string());
    }
    let token = game.token(&case.position);
    if let Some(file) = records {
        let _ = std::fs::remove_file(file);
    }
    let searched = game.served().search(&token, case.case.depth, records).map_err(|e| e.to_string())?;
    let Searched::Value { value, best_move } = searched else { return Ok(None) };
    let mut answer = Answer { value, best_move, records: Vec::new() };
    if let Some(file) = records
        && let Some(written) = read_records(file)?
    {
        let named = case_names(game, case);
        let read = read_jsonl(&written).map_err(|e| format!("the engine's records: {}", e.at("records")))?;
        answer.records = locate(&named.game(), &named.names(), read)
            .map_err(|e| format!("the engine's records: {}", e.at("records")))?;
    }
    Ok(Some(answer))
}

/// The case's tree with each node's token and moves' names, so that records name its nodes by
/// token, by moves from the position, or by path.
fn case_names(game: &ServedGame, case: &GameCase<ServedGame>) -> EngineTree {
    let tree = &case.case.tree;
    let mut depth_left = vec![0u32; case.positions.len()];
    let mut seen = vec![false; case.positions.len()];
    let mut queue = VecDeque::from([(tree.root_id(), case.case.depth)]);
    while let Some((node, left)) = queue.pop_front() {
        if std::mem::replace(&mut seen[node.index()], true) {
            continue;
        }
        depth_left[node.index()] = left;
        for &child in tree.children(node) {
            queue.push_back((child, left.saturating_sub(1)));
        }
    }
    let tokens = case.positions.iter().map(|position| game.token(position)).collect();
    let moves = case
        .positions
        .iter()
        .enumerate()
        .map(|(index, position)| {
            let node = tree.children(nullwindow::tree::NodeId(u32::try_from(index).unwrap_or(u32::MAX)));
            (0..u32::try_from(node.len()).unwrap_or(0)).map(|mv| game.move_name(position, mv)).collect()
        })
        .collect();
    EngineTree { tree: tree.clone(), tokens, moves, depth_left, requests: 0, elapsed: Duration::ZERO }
}

/// The command that judges `case` again: its token, or its moves where the token would be read as
/// a move of the start.
fn reproduce(args: &FuzzArgs, command: &str, game: &ServedGame, case: &GameCase<ServedGame>) -> String {
    let program = std::env::args().next().unwrap_or_else(|| "nullwindow".to_owned());
    let token = game.token(&case.position);
    let root = game.root();
    let collides = game.legal_moves(&root).into_iter().any(|mv| game.move_name(&root, mv) == token);
    let position = if collides {
        let mut at = root;
        let mut names = Vec::new();
        for &mv in &case.moves {
            names.push(game.move_name(&at, mv));
            at = game.play(&at, mv);
        }
        quote(&names.join(" "))
    } else {
        quote_if_needed(&token)
    };
    let mut line = format!(
        "{} fuzz --engine {} --position {position} --depth {}",
        quote_if_needed(&program),
        quote(command),
        case.case.depth
    );
    if args.deeper_entries {
        line.push_str(" --deeper-entries");
    }
    if (args.engine_timeout - 10.0).abs() > f64::EPSILON {
        line.push_str(&format!(" --engine-timeout {}", args.engine_timeout));
    }
    line
}
