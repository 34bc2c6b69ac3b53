//! `nullwindow bench connect4 FILE…`: solve every position of Connect Four test sets (lines of
//! `MOVES SCORE`) with the generic engine and report, per set, the positions solved right, the mean
//! time and nodes per position, and nodes per second, in the units of Pascal Pons' tables and beside
//! his published figures where the set is one of his. `testdata/connect4/` holds the first lines of
//! his four sets and `hard-8-14.txt`, 294 openings of 8 to 14 stones rated medium or hard by his
//! protocol (`examples/connect4_hard_set.rs`), which has no published figures.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand, ValueEnum};
use nullwindow::driver::SearchParams;
use nullwindow::game::Game;
use nullwindow::games::connect4::{Connect4, MoveGeneration};
use nullwindow::search::{Algorithm, Engine, Threads};
use serde::Serialize;

use crate::CliError;
use crate::output::{errln, outln};

#[derive(Subcommand)]
pub enum BenchCommand {
    /// Solve Connect Four positions (lines of `MOVES SCORE`, as in Pons' test sets) and check every
    /// score.
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
    /// Test set files, e.g. Pons' Test_L3_R1 or testdata/connect4/hard-8-14.txt.
    #[arg(required = true)]
    files: Vec<String>,
    /// The optimized driver (see `nullwindow algos`); by default the driver of Pons' own solver.
    #[arg(long, default_value = "mtd-pons")]
    algo: String,
    /// Transposition-table entries (one table reused across a set, as Pons' solver is). The default,
    /// 2^17 (2 MiB), is small enough to stay mostly in cache: on every set measured it or a table a
    /// little smaller beat every larger one, which saves some nodes and pays a cache miss for most
    /// probes (the book's "Measuring" has the sweeps).
    #[arg(long, default_value_t = 1 << 17, value_parser = crate::sizes::tt_entries)]
    tt_entries: usize,
    /// The shallowest nodes that use the table, in plies left to search (to the end of the game,
    /// unless deepening iteratively): nodes with fewer neither probe nor store. 1 (the default)
    /// lets every node but the leaves use it; on the first 60 hard lines 6 and 8 took 0.90 and
    /// 0.93 of the time, within the noise (the book's "Measuring").
    #[arg(long, value_name = "PLIES", default_value_t = 1)]
    table_min_depth: u32,
    /// Only the first N positions of each file.
    #[arg(long)]
    limit: Option<usize>,
    /// The Connect Four move generator.
    #[arg(long, value_enum, default_value_t = GenerationArg::Threats)]
    generation: GenerationArg,
    /// Deepen iteratively (each depth's value the next one's first guess) instead of searching to
    /// the end at once: slower on end and middle-game sets, much faster on opening positions.
    #[arg(long)]
    iterative_deepening: bool,
    /// Search each position on this many threads sharing the table (the helpers join each root
    /// search and split its nodes' children); the scores stay exact, the node counts add up every
    /// thread's. A list (`--threads 1,2`) solves each position with each count in turn, one table
    /// per count, and prints a row per count: the counts are compared over the same moments of a
    /// noisy machine.
    #[arg(long, value_delimiter = ',', default_value = "1", value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Vec<u16>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// Pons' published figures for his final solver (part 12 of "Solving Connect 4", lower-bound
/// transposition table, strong solver), the step with the engine's ingredients: bitboard, table of
/// both bounds, null-window search, no losing moves, threat-count ordering. Mean time per position
/// in µs and mean positions explored, on his machine.
const PONS_PART_12: [(&str, f64, f64); 6] = [
    ("Test_L3_R1", 4.568, 51.28),
    ("Test_L2_R1", 37.45, 449.6),
    ("Test_L2_R2", 3212.0, 39_900.0),
    ("Test_L1_R1", 254.6, 3_298.0),
    ("Test_L1_R2", 96_630.0, 1_201_000.0),
    ("Test_L1_R3", 5_490_000.0, 65_920_000.0),
];

/// The positions in each of Pons' test sets.
const PONS_SET_POSITIONS: usize = 1000;

/// Pons' figures for the set a file holds, recognised by its name (`Test_L2_R1`, or a file such as
/// `Test_L2_R1.first20` holding its first lines).
fn pons_figures(file: &str) -> Option<(f64, f64)> {
    let name = std::path::Path::new(file).file_name()?.to_str()?;
    PONS_PART_12
        .iter()
        .find(|(set, _, _)| name.split('.').next() == Some(*set))
        .map(|&(_, microseconds, positions)| (microseconds, positions))
}

#[derive(Serialize)]
struct SetResult {
    file: String,
    threads: u16,
    positions: usize,
    right: usize,
    mean_microseconds: f64,
    mean_nodes: f64,
    kilo_nodes_per_second: f64,
    /// Pons' final solver on the whole set, when the file is one of his sets.
    pons_mean_microseconds: Option<f64>,
    pons_mean_positions: Option<f64>,
}

pub fn run(command: &BenchCommand) -> Result<ExitCode, CliError> {
    let BenchCommand::Connect4(args) = command;
    let algorithm =
        Algorithm::ALL.into_iter().find(|algorithm| algorithm.name() == args.algo).ok_or_else(|| {
            CliError(format!("'{}' is not an optimized driver (`nullwindow algos`)", args.algo))
        })?;
    let results = args
        .files
        .iter()
        .map(|file| solve_set(file, &read_positions(file, args.limit)?, algorithm, args))
        .collect::<Result<Vec<Vec<SetResult>>, _>>()?
        .into_iter()
        .flatten()
        .collect::<Vec<_>>();
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&results)?);
    } else {
        print_table(args, &results);
    }
    let all_right = results.iter().all(|r| r.right == r.positions);
    Ok(if all_right { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// The running totals of one thread count over a set.
#[derive(Default)]
struct Tally {
    right: usize,
    nodes: u64,
    time: Duration,
}

/// Solves every position of one set with one engine per thread count (its table reused across the
/// set, as Pons' solver is), each position with every count in turn, naming each wrong score on
/// standard error. One result per thread count.
fn solve_set(
    file: &str,
    positions: &[(String, i32)],
    algorithm: Algorithm,
    args: &Connect4Args,
) -> Result<Vec<SetResult>, CliError> {
    let generation = match args.generation {
        GenerationArg::Threats => MoveGeneration::Threats,
        GenerationArg::Centre => MoveGeneration::CentreFirst,
    };
    let params = SearchParams {
        tt_entries: args.tt_entries,
        table_min_depth: args.table_min_depth,
        iterative_deepening: args.iterative_deepening,
        ..SearchParams::default()
    };
    let mut engines: Vec<Engine<Connect4>> = args.threads.iter().map(|_| Engine::new(&params)).collect();
    let mut tallies: Vec<Tally> = args.threads.iter().map(|_| Tally::default()).collect();
    let bar = crate::progress::bar(positions.len() as u64, "positions", file);
    let mut wrong = Vec::new();
    for (moves, score) in positions {
        let game = Connect4::from_moves(moves)
            .map_err(|e| CliError(format!("{file}: position '{moves}': {e}")))?
            .with_generation(generation);
        for ((engine, tally), &threads) in engines.iter_mut().zip(&mut tallies).zip(&args.threads) {
            let start = Instant::now();
            let result = engine.search_on_threads(
                &game,
                &game.root(),
                algorithm,
                &params,
                Threads::new(usize::from(threads)),
                |_| {},
            );
            tally.time += start.elapsed();
            tally.nodes += result.counts.nodes;
            let value = game.to_move(&game.root()).perspective(result.value);
            if value == *score {
                tally.right += 1;
            } else {
                wrong.push(format!("{moves}: {value}, expected {score} ({threads} threads)"));
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    for line in &wrong {
        errln!("wrong: {file}: {line}");
    }
    let count = positions.len().max(1) as f64;
    Ok(tallies
        .into_iter()
        .zip(&args.threads)
        .map(|(tally, &threads)| SetResult {
            file: file.to_owned(),
            threads,
            positions: positions.len(),
            right: tally.right,
            mean_microseconds: tally.time.as_secs_f64() * 1e6 / count,
            mean_nodes: tally.nodes as f64 / count,
            kilo_nodes_per_second: if tally.time.is_zero() {
                0.0
            } else {
                tally.nodes as f64 / tally.time.as_secs_f64() / 1e3
            },
            pons_mean_microseconds: pons_figures(file).map(|(microseconds, _)| microseconds),
            pons_mean_positions: pons_figures(file).map(|(_, positions)| positions),
        })
        .collect())
}

/// One row per set, beside Pons' published figures where the set is one of his.
fn print_table(args: &Connect4Args, results: &[SetResult]) {
    let deepening = if args.iterative_deepening { ", iterative deepening" } else { "" };
    let threads = match args.threads.as_slice() {
        [1] => String::new(),
        [count] => format!(", {count} threads"),
        counts => {
            let counts: Vec<String> = counts.iter().map(u16::to_string).collect();
            format!(", each position on {} threads in turn", counts.join(", "))
        }
    };
    // A column of thread counts only when the rows differ in it.
    let show_threads = args.threads.len() > 1;
    let kept_out = match args.table_min_depth {
        0 | 1 => String::new(),
        depth => format!(" (not used with fewer than {depth} plies left)"),
    };
    outln!(
        "{} with {} table entries{kept_out}, one table per set{deepening}{threads}",
        args.algo,
        args.tt_entries
    );
    outln!();
    // As wide as the longest file name, so that a long path does not push its row out of line.
    let set_width = results.iter().map(|r| r.file.chars().count()).max().unwrap_or(0).max(24);
    let threads_header = if show_threads { format!("  {:>7}", "threads") } else { String::new() };
    outln!(
        "{:<set_width$}{threads_header}  {:>9}  {:>7}  {:>14}  {:>12}  {:>10}  {:>14}  {:>12}",
        "set",
        "positions",
        "right",
        "mean time",
        "mean nodes",
        "K nodes/s",
        "Pons mean time",
        "Pons nodes"
    );
    // Pons' figures are means over his whole set; a row of its first lines is marked.
    let subset = |r: &SetResult| r.pons_mean_microseconds.is_some() && r.positions < PONS_SET_POSITIONS;
    for r in results {
        let mark = if subset(r) { "*" } else { "" };
        let pons_time =
            r.pons_mean_microseconds.map_or_else(|| "-".to_owned(), |t| format!("{}{mark}", time(t)));
        let pons_nodes = r.pons_mean_positions.map_or_else(|| "-".to_owned(), |n| format!("{n:.1}{mark}"));
        let threads = if show_threads { format!("  {:>7}", r.threads) } else { String::new() };
        outln!(
            "{:<set_width$}{threads}  {:>9}  {:>7}  {:>14}  {:>12.1}  {:>10.0}  {:>14}  {:>12}",
            r.file,
            r.positions,
            r.right,
            time(r.mean_microseconds),
            r.mean_nodes,
            r.kilo_nodes_per_second,
            pons_time,
            pons_nodes
        );
    }
    let with_figures = results.iter().any(|r| r.pons_mean_microseconds.is_some());
    let without = results.iter().any(|r| r.pons_mean_microseconds.is_none());
    if with_figures || without {
        outln!();
    }
    if with_figures {
        outln!("Pons: part 12 of \"Solving Connect 4\" (strong solver, whole set, his machine).");
    }
    if results.iter().any(subset) {
        outln!(
            "*: the file holds only the first lines of the set, and Pons' means are over all {PONS_SET_POSITIONS}: \
             compare with care."
        );
    }
    if without {
        outln!("-: not one of Pons' sets (recognised by name, e.g. Test_L2_R1.first20), no figures.");
    }
}

/// A time given in µs, in the unit that keeps the number below 1,000 (µs, ms, s): an end-game set
/// takes microseconds a position, a hard opening half a second.
fn time(microseconds: f64) -> String {
    if microseconds < 1e3 {
        format!("{microseconds:.1} µs")
    } else if microseconds < 1e6 {
        format!("{:.2} ms", microseconds / 1e3)
    } else {
        format!("{:.3} s", microseconds / 1e6)
    }
}

/// The `MOVES SCORE` lines of a test set, the first `limit` of them.
fn read_positions(file: &str, limit: Option<usize>) -> Result<Vec<(String, i32)>, CliError> {
    let (_, bytes) = crate::input::read_input(file, "")?;
    let text =
        String::from_utf8(bytes).map_err(|_| CliError(format!("{file}: the file is not valid UTF-8")))?;
    if text.trim().is_empty() {
        return Err(CliError(format!("{file} holds no positions (lines of 'MOVES SCORE')")));
    }
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
            // A bad position is named by its line before any position is searched.
            Connect4::from_moves(moves)
                .map_err(|e| CliError(format!("{file}:{}: position '{moves}': {e}", index + 1)))?;
            Ok((moves.to_owned(), score))
        })
        .collect()
}
