//! `nullwindow serve GAME`: a game of the catalogue served over the line protocol, the crate's own
//! MTD(f) answering `search` (with its records): a reference engine to point `fuzz --engine`,
//! `solve --engine` and the rest at, and a second end to test a protocol client of one's own
//! against. `--bug` plants one of a few bugs real engines have.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use nullwindow::driver::{Perspective, SearchParams};
use nullwindow::game::Game;
use nullwindow::oracle::record::{NodeName, NodeNames, Recorder, When, write_jsonl};
use nullwindow::registry::games::KnownGame;
use nullwindow::search::{Algorithm, Engine};
use nullwindow::with_any_game;
use rustc_hash::FxHashMap;

use crate::CliError;
use crate::input::game_parser;
use crate::output::errln;

/// The long help: what the engine answers.
pub const SERVE_HELP: &str = "\
Reads requests on standard input and answers each with one line on standard output, as the book's
'Your game, your engine' gives the protocol; its version line is 'protocol 1 search', and with
--records 'protocol 1 search records'.

  root                  the start's token (--position: that position's)
  children POS          each legal move's name and the token it leads to
  eval POS              the position's evaluation, from the side to move
  search POS DEPTH      the crate's MTD(f) to DEPTH plies: VALUE MOVE (VALUE alone at depth 0 or
                        at the end of the game), from the side to move
  search POS DEPTH FILE with --records: the same, its node records written to FILE first (JSON
                        lines, values from the side to move, nodes named by their tokens)
  quit                  the engine exits (so does the end of its input)

A position's token is the game's key for it, in hexadecimal; moves are named as the game prints
them (tic-tac-toe's squares 1-9, Connect Four's columns 1-7, Nim's stones taken). One engine and its
table serve every search of a session, as in a real engine.

Examples:

  # Fuzz the reference engine (it agrees), and the same with a planted bug (it does not).
  nullwindow fuzz --engine 'nullwindow serve connect4'
  nullwindow fuzz --engine 'nullwindow serve connect4 --bug off-by-one'

  # Its game, divided from a position.
  nullwindow divide --engine 'nullwindow serve tictactoe' --position 15";

/// A bug `serve` can plant in its search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Bug {
    /// Searches one ply less than asked: the horizon one ply short.
    OffByOne,
    /// Gives the right value but names the move whose position is worth the least.
    WorstMove,
}

#[derive(Args)]
pub struct ServeArgs {
    /// The game to serve.
    #[arg(value_parser = game_parser())]
    game: KnownGame,
    /// Serve from this position (the moves played from the start) instead of the start.
    #[arg(long, value_name = "MOVES", default_value = "")]
    position: String,
    /// Plant a bug in the search.
    #[arg(long, value_enum)]
    bug: Option<Bug>,
    /// Announce `records` and write them: every search's node records, for `fuzz` and `audit` to
    /// judge node by node (which costs the oracle a proof at every node the search records).
    #[arg(long)]
    records: bool,
    /// Entries of the search's table (rounded down to a power of two).
    #[arg(long, value_name = "N", default_value_t = 1 << 16, value_parser = crate::sizes::tt_entries)]
    tt_entries: usize,
}

pub fn run(args: &ServeArgs) -> Result<ExitCode, CliError> {
    let any = args.game.at(&args.position).map_err(|e| CliError(format!("--position: {e}")))?;
    with_any_game!(any, game => serve(&game, args));
    Ok(ExitCode::SUCCESS)
}

/// The game's positions by key, as their tokens name them.
struct Positions<G: Game> {
    by_key: FxHashMap<u64, G::Position>,
}

impl<G: Game> Positions<G> {
    fn get(&self, token: &str) -> Option<&G::Position> {
        u64::from_str_radix(token, 16).ok().and_then(|key| self.by_key.get(&key))
    }
}

/// Nodes named by their tokens, the keys in hexadecimal.
struct Tokens;

impl<G: Game> NodeNames<G> for Tokens {
    fn name(&self, game: &G, position: &G::Position, _: &[u32]) -> NodeName {
        NodeName::Id(format!("{:x}", game.key(position)))
    }

    fn find(&self, _: &G, name: &NodeName) -> Result<(G::Position, Option<Vec<u32>>), String> {
        Err(format!("serve does not read records ({name})"))
    }
}

/// Answers requests until `quit` or the end of the input, each position looked up by its key.
fn serve<G: Game>(game: &G, args: &ServeArgs) {
    let root = game.root();
    let mut positions: Positions<G> = Positions { by_key: FxHashMap::default() };
    positions.by_key.insert(game.key(&root), root.clone());
    let mut input = BufReader::with_capacity(1 << 16, std::io::stdin().lock());
    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let params = SearchParams { tt_entries: args.tt_entries, ..SearchParams::default() };
    let mut engine = Engine::new(&params);
    let mut line = String::new();
    let mut answer = String::new();
    while input.read_line(&mut line).is_ok_and(|read| read > 0) {
        answer.clear();
        let mut words = line.split_whitespace();
        match (words.next(), words.next()) {
            (Some("quit"), _) | (None, _) => break,
            (Some("protocol"), _) => {
                answer.push_str(if args.records { "protocol 1 search records" } else { "protocol 1 search" });
            }
            (Some("root"), _) => {
                let _ = write!(answer, "{:x}", game.key(&root));
            }
            (Some("children"), Some(token)) => match positions.get(token).cloned() {
                Some(position) => {
                    for mv in game.legal_moves(&position) {
                        let child = game.play(&position, mv);
                        let key = game.key(&child);
                        let separator = if answer.is_empty() { "" } else { " " };
                        let _ = write!(answer, "{separator}{mv} {key:x}");
                        positions.by_key.entry(key).or_insert(child);
                    }
                }
                None => {
                    let _ = write!(answer, "unknown position {token}");
                }
            },
            (Some("eval"), Some(token)) => match positions.get(token) {
                Some(position) => {
                    let _ = write!(answer, "{}", game.evaluate_for_mover(position));
                }
                None => {
                    let _ = write!(answer, "unknown position {token}");
                }
            },
            (Some("search"), Some(token)) => {
                let depth = words.next().and_then(|depth| depth.parse::<u32>().ok());
                let file = words.next().filter(|_| args.records);
                match (positions.get(token).cloned(), depth) {
                    (Some(position), Some(depth)) => {
                        search(game, &mut engine, &params, args.bug, &position, depth, file, &mut answer);
                    }
                    _ => {
                        let _ = write!(answer, "unknown request {}", line.trim_end());
                    }
                }
            }
            _ => {
                let _ = write!(answer, "unknown request {}", line.trim_end());
            }
        }
        let _ = writeln!(out, "{answer}");
        // One flush per batch the oracle sends, not per line: when no more requests are buffered.
        if input.buffer().is_empty() {
            let _ = out.flush();
        }
        line.clear();
    }
    let _ = out.flush();
}

/// The answer to `search`: the engine's value of `position` to `depth` plies from the side to
/// move there, and its move; its records written to `file` first, if asked.
#[allow(clippy::too_many_arguments)] // each is one part of the request or the engine, named at the call
fn search<G: Game>(
    game: &G,
    engine: &mut Engine<G>,
    params: &SearchParams,
    bug: Option<Bug>,
    position: &G::Position,
    depth: u32,
    file: Option<&str>,
    answer: &mut String,
) {
    let searched = if bug == Some(Bug::OffByOne) { depth.saturating_sub(1) } else { depth };

    let params = SearchParams { depth: searched, ..params.clone() };
    let mover = game.to_move(position);
    let outcome = match file {
        Some(file) => {
            let mut recorder = Recorder::from(game, position.clone());
            let outcome = engine.search_observed(game, position, Algorithm::Mtdf, &params, &mut recorder);
            let mut written = String::new();
            recorder.each_record(When::Completion, Some(&Tokens), |record| {
                let player = game.to_move(&record.position);
                written.push_str(&write_jsonl(&record.turned(player, Perspective::Mover)));
                written.push('\n');
            });
            if let Err(error) = std::fs::write(file, written) {
                errln!("serve: cannot write the records to '{file}': {error}");
            }
            outcome
        }
        None => engine.search_from(game, position, Algorithm::Mtdf, &params, |_| {}),
    };
    let value = mover.perspective(outcome.value);
    let mut best = outcome.best_move.filter(|_| depth > 0);
    if bug == Some(Bug::WorstMove) && depth > 0 {
        // The child worth the least to the mover, by the same engine one ply shallower.
        let child_params = SearchParams { depth: depth - 1, ..params.clone() };
        let mut worth = |mv| {
            let child = game.play(position, mv);
            let value = engine.search_from(game, &child, Algorithm::Mtdf, &child_params, |_| {}).value;
            mover.perspective(value)
        };
        best = game.legal_moves(position).into_iter().min_by_key(|&mv| worth(mv)).or(best);
    }
    match best {
        Some(mv) => {
            let _ = write!(answer, "{value} {mv}");
        }
        None => {
            let _ = write!(answer, "{value}");
        }
    }
}
