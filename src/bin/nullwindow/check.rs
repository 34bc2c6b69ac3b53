//! `nullwindow check`: is another engine's claimed value (and line) exact? If not, where does it
//! first depart from the exact values?

use std::process::ExitCode;

use clap::Args;
use nullwindow::game::{Game, Player};
use nullwindow::oracle::{self, Departure};

use crate::CliError;
use crate::input::{TargetArgs, parse_move, with_game};
use crate::output::outln;
use crate::solve::on_search_thread;

#[derive(Args)]
pub struct CheckArgs {
    #[command(flatten)]
    target: TargetArgs,
    /// The claimed value of the root, from the side to move there.
    #[arg(long, allow_hyphen_values = true)]
    value: i32,
    /// The claimed principal variation: moves separated by spaces or commas, each optionally
    /// followed by `=VALUE`, the claimed value after it (from the root's side to move), e.g.
    /// `"4=1 4=1 5=1"`. A move without a value claims the root value.
    #[arg(long, allow_hyphen_values = true, default_value = "")]
    line: String,
    /// Plies to search from the root; default: to the end.
    #[arg(long, allow_hyphen_values = true, value_parser = crate::sizes::depth)]
    depth: Option<u32>,
}

pub fn run(args: &CheckArgs) -> Result<ExitCode, CliError> {
    let target = args.target.read(args.depth)?;
    let depth = args.depth.unwrap_or(u32::MAX);
    let reference = target.reference();
    let root_player = target.root_player();
    outln!(
        "{}; values from the side to move at the root ({})",
        args.target.describe(&target),
        target.root_player_named()
    );
    let exact = on_search_thread(
        target.tree(),
        depth,
        || with_game!(&target, game => check(game, args, depth, reference, root_player)),
    )??;
    Ok(if exact { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// Parses the claimed line against `game`, checks it, and prints the verdict; whether it is exact.
fn check<G: Game>(
    game: &G,
    args: &CheckArgs,
    depth: u32,
    reference: nullwindow::registry::Driver,
    root_player: Player,
) -> Result<bool, CliError> {
    let mut line = Vec::new();
    let mut position = game.root();
    for (index, token) in args.line.split([' ', ',']).filter(|token| !token.is_empty()).enumerate() {
        let (text, value) = match token.split_once('=') {
            Some((text, value)) => (
                text,
                value.parse::<i32>().map_err(|_| {
                    CliError(format!("--line: ply {}: '{value}' is not an integer value", index + 1))
                })?,
            ),
            None => (token, args.value),
        };
        let mv = parse_move(game, &position, text).ok_or_else(|| {
            let legal: Vec<String> = game.legal_moves(&position).iter().map(ToString::to_string).collect();
            CliError(format!(
                "--line: ply {}: '{text}' is not a legal move here (legal: {})",
                index + 1,
                if legal.is_empty() { "none, the game is over".to_owned() } else { legal.join(" ") }
            ))
        })?;
        position = game.play(&position, mv);
        line.push((mv, root_player.perspective(value)));
    }
    let report = oracle::check(game, depth, reference, root_player.perspective(args.value), &line);
    let side = |value| root_player.perspective(value);
    // The line up to the ply a departure is at, in the order it was played.
    let played = |ply: usize| -> String {
        let moves: Vec<String> = line[..ply].iter().map(|(mv, _)| mv.to_string()).collect();
        moves.join(" ")
    };
    let at = if report.path.is_empty() {
        "at the root".to_owned()
    } else {
        let moves: Vec<String> = report.path.iter().map(ToString::to_string).collect();
        format!("after {}", moves.join(" "))
    };
    match report.departure {
        None => {
            let plies = match line.len() {
                0 => String::new(),
                1 => " and the line's one ply".to_owned(),
                n => format!(" and all {n} plies of the line"),
            };
            outln!("exact: the value {}{plies}", args.value);
            Ok(true)
        }
        Some(Departure::RootValue { exact }) => {
            outln!("wrong root value: claimed {}, exact {}", args.value, side(exact));
            Ok(false)
        }
        Some(Departure::IllegalMove { ply }) => {
            outln!("ply {ply}: the move is beyond the searched depth ({at})");
            Ok(false)
        }
        Some(Departure::Value { ply, exact }) => {
            outln!(
                "ply {ply}: wrong value after {}: claimed {}, exact {}",
                played(ply),
                side(line[ply - 1].1),
                side(exact)
            );
            Ok(false)
        }
        Some(Departure::NotBest { ply, exact, best }) => {
            outln!(
                "ply {ply}: {} is not a best move: it is worth {}, but {} is worth {} ({at})",
                line[ply - 1].0,
                side(exact),
                best.0,
                side(best.1)
            );
            Ok(false)
        }
    }
}
