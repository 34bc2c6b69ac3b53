//! `nullwindow divide`: every legal move at the root with its exact value, like perft's divide.

use std::process::ExitCode;

use clap::Args;
use nullwindow::oracle;
use serde::Serialize;

use crate::CliError;
use crate::input::{TargetArgs, with_game};
use crate::output::outln;
use crate::solve::on_search_thread;

#[derive(Args)]
pub struct DivideArgs {
    #[command(flatten)]
    target: TargetArgs,
    /// Plies to search from the root (the moves listed are the first); default: to the end.
    #[arg(long, allow_hyphen_values = true, value_parser = crate::sizes::depth)]
    depth: Option<u32>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct JsonMove {
    #[serde(rename = "move")]
    mv: String,
    value: i32,
}

#[derive(Serialize)]
struct JsonDivide {
    /// The side to move at the root, from whose side every value is.
    side: String,
    value: Option<i32>,
    moves: Vec<JsonMove>,
}

pub fn run(args: &DivideArgs) -> Result<ExitCode, CliError> {
    let target = args.target.read(args.depth)?;
    let depth = args.depth.unwrap_or(u32::MAX);
    let reference = target.reference();
    let root_player = target.root_player();
    let moves: Vec<(String, i32)> = on_search_thread(target.tree(), depth, || {
        with_game!(&target, game => {
            oracle::divide(game, depth, reference)
                .into_iter()
                .map(|(mv, value)| (mv.to_string(), root_player.perspective(value)))
                .collect()
        })
    })?;
    let best = moves.iter().map(|&(_, value)| value).max();
    if args.json {
        let moves = moves.into_iter().map(|(mv, value)| JsonMove { mv, value }).collect();
        outln!(
            "{}",
            serde_json::to_string_pretty(&JsonDivide { side: root_player.to_string(), value: best, moves })?
        );
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "{}; values from the side to move ({}), by {}",
        args.target.describe(&target),
        target.root_player_named(),
        reference.info().name
    );
    if moves.is_empty() {
        outln!("no moves: {}", if depth == 0 { "depth 0" } else { "the position is terminal" });
        return Ok(ExitCode::SUCCESS);
    }
    outln!();
    outln!("{:>6}  {:>11}", "move", "value");
    for (mv, value) in &moves {
        let mark = if Some(*value) == best { "  best" } else { "" };
        outln!("{mv:>6}  {value:>11}{mark}");
    }
    outln!();
    outln!(
        "{}; value {}",
        crate::output::counted(moves.len() as u128, "move", "moves"),
        best.unwrap_or_default()
    );
    Ok(ExitCode::SUCCESS)
}
