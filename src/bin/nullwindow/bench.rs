//! `nullwindow bench connect4 FILE…`: solve every position of Pascal Pons' Connect Four test sets with
//! the generic engine and report, per set, the positions solved right, the mean time and nodes per
//! position, and nodes per second, in the units of his tables.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use nullwindow::game::Game;
use nullwindow::games::connect4::{Connect4, MoveGeneration};
use nullwindow::search::{Algorithm, Engine, EngineConfig};
use serde::Serialize;

use crate::CliError;

#[derive(Subcommand)]
pub enum BenchCommand {
    /// Solve Pons' Connect Four positions (lines of `MOVES SCORE`) and check every score.
    Connect4(Connect4Args),
}

#[derive(Clone, Copy, ValueEnum)]
enum GenerationArg {
    /// Win at once, block threats, avoid losing moves, most threats first.
    Threats,
    /// Every playable column, centre first.
    Centre,
}

#[derive(Args)]
pub struct Connect4Args {
    /// Test set files, e.g. Test_L3_R1.
    #[arg(required = true)]
    files: Vec<String>,
    /// The optimized driver (see `nullwindow algos`).
    #[arg(long, default_value = "mtdf")]
    algo: String,
    /// Transposition-table entries (one table reused across a set, as Pons' solver is).
    #[arg(long, default_value_t = 1 << 22)]
    tt_entries: usize,
    /// Only the first N positions of each file.
    #[arg(long)]
    limit: Option<usize>,
    /// The Connect Four move generator.
    #[arg(long, value_enum, default_value_t = GenerationArg::Threats)]
    generation: GenerationArg,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct SetResult {
    file: String,
    positions: usize,
    right: usize,
    mean_microseconds: f64,
    mean_nodes: f64,
    kilo_nodes_per_second: f64,
}

pub fn run(command: &BenchCommand) -> Result<ExitCode, CliError> {
    let BenchCommand::Connect4(args) = command;
    let algorithm =
        Algorithm::ALL.into_iter().find(|algorithm| algorithm.name() == args.algo).ok_or_else(|| {
            CliError(format!("'{}' is not an optimized driver (`nullwindow algos`)", args.algo))
        })?;
    let generation = match args.generation {
        GenerationArg::Threats => MoveGeneration::Threats,
        GenerationArg::Centre => MoveGeneration::CentreFirst,
    };
    let mut results = Vec::new();
    for file in &args.files {
        let positions = read_positions(file, args.limit)?;
        let mut engine = Engine::new(EngineConfig {
            tt_entries: args.tt_entries,
            iterative_deepening: false,
            ..EngineConfig::default()
        });
        let bar = progress_bar(positions.len() as u64, file);
        let (mut right, mut nodes, mut time) = (0, 0u64, Duration::ZERO);
        let mut wrong = Vec::new();
        for (moves, score) in &positions {
            let game = Connect4::from_moves(moves)
                .map_err(|e| CliError(format!("{file}: position '{moves}': {e}")))?
                .with_generation(generation);
            let start = Instant::now();
            let result = engine.search(&game, algorithm, &nullwindow::search::Limits::default(), |_| {});
            time += start.elapsed();
            nodes += result.statistics.nodes;
            let value = game.to_move(&game.root()).perspective(result.value);
            if value == *score {
                right += 1;
            } else {
                wrong.push(format!("{moves}: {value}, expected {score}"));
            }
            bar.inc(1);
        }
        bar.finish_and_clear();
        for line in &wrong {
            eprintln!("wrong: {file}: {line}");
        }
        let count = positions.len().max(1) as f64;
        results.push(SetResult {
            file: file.clone(),
            positions: positions.len(),
            right,
            mean_microseconds: time.as_secs_f64() * 1e6 / count,
            mean_nodes: nodes as f64 / count,
            kilo_nodes_per_second: if time.is_zero() { 0.0 } else { nodes as f64 / time.as_secs_f64() / 1e3 },
        });
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&results)?);
    } else {
        println!("{} with {} table entries, one table per set", args.algo, args.tt_entries);
        println!();
        println!(
            "{:<24}  {:>9}  {:>7}  {:>14}  {:>14}  {:>12}",
            "set", "positions", "right", "mean time", "mean nodes", "K nodes/s"
        );
        for r in &results {
            println!(
                "{:<24}  {:>9}  {:>7}  {:>11.1} µs  {:>14.1}  {:>12.0}",
                r.file, r.positions, r.right, r.mean_microseconds, r.mean_nodes, r.kilo_nodes_per_second
            );
        }
    }
    let all_right = results.iter().all(|r| r.right == r.positions);
    Ok(if all_right { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// The `MOVES SCORE` lines of a test set, the first `limit` of them.
fn read_positions(file: &str, limit: Option<usize>) -> Result<Vec<(String, i32)>, CliError> {
    let text = std::fs::read_to_string(file).map_err(|e| CliError(format!("cannot read '{file}': {e}")))?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .take(limit.unwrap_or(usize::MAX))
        .map(|(index, line)| {
            let mut fields = line.split_whitespace();
            let (Some(moves), Some(score), None) = (fields.next(), fields.next(), fields.next()) else {
                return Err(CliError(format!("{file}:{}: expected 'MOVES SCORE'", index + 1)));
            };
            let score = score
                .parse()
                .map_err(|_| CliError(format!("{file}:{}: '{score}' is not an integer score", index + 1)))?;
            Ok((moves.to_owned(), score))
        })
        .collect()
}

fn progress_bar(total: u64, file: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    if let Ok(style) =
        ProgressStyle::with_template("{msg} {bar:40} {pos}/{len} positions, {elapsed} (eta {eta})")
    {
        bar.set_style(style);
    }
    bar.set_message(file.to_owned());
    bar
}
