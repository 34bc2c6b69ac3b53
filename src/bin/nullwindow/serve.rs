//! `nullwindow serve GAME`: a game of the catalogue served over the line protocol, the crate's own
//! MTD(f) answering `search` (with its records): a reference engine to point `fuzz --engine`,
//! `solve --engine` and the rest at, and a second end to test a protocol client of one's own
//! against. `--bug` plants some of a few bugs real engines have.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use nullwindow::driver::{Perspective, SearchParams};
use nullwindow::game::Game;
use nullwindow::oracle::record::{Recorder, When, write_jsonl};
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
                        lines, values from the side to move, nodes named by their paths)
  quit                  the engine exits (so does the end of its input)

A position's token is the game's key for it in hexadecimal, a dot, and the moves from --position
that first led to it (`3041c.4859`): a fresh engine finds a position by its moves, so tokens mean the
same to every process, and a position reached again by other moves keeps its first token, so that
transpositions are one token. Moves are named as the game prints them (tic-tac-toe's squares 1-9,
Connect Four's columns 1-7, Nim's stones taken). One engine and its table serve every search of a
session, as in a real engine.

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
    /// Plant bugs in the search, comma-separated (`off-by-one,worst-move`: two at once).
    #[arg(long, value_enum, value_delimiter = ',')]
    bug: Vec<Bug>,
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

/// The game's positions by key, each with its token: the key in hexadecimal, a dot, and the moves
/// from the root that first reached it.
struct Positions<G: Game> {
    root: G::Position,
    by_key: FxHashMap<u64, (G::Position, String)>,
}

impl<G: Game> Positions<G> {
    fn new(game: &G) -> Self {
        let root = game.root();
        let mut by_key = FxHashMap::default();
        by_key.insert(game.key(&root), (root.clone(), format!("{:x}.", game.key(&root))));
        Self { root, by_key }
    }

    /// The position `token` names: one named before, or found by the moves it holds (a token
    /// another process of this engine gave), when they lead to a position of its key.
    fn get(&mut self, game: &G, token: &str) -> Option<G::Position> {
        let (key, moves) = token.split_once('.')?;
        let key = u64::from_str_radix(key, 16).ok()?;
        if let Some((position, _)) = self.by_key.get(&key) {
            return Some(position.clone());
        }
        let mut position = self.root.clone();
        for name in moves.chars() {
            let mv = game.legal_moves(&position).into_iter().find(|mv| mv.to_string() == name.to_string())?;
            position = game.play(&position, mv);
        }
        (game.key(&position) == key).then(|| {
            self.by_key.insert(key, (position.clone(), token.to_owned()));
            position
        })
    }

    /// The token of `child`, reached by `mv` from the position `parent` names: its first token if
    /// it has one, otherwise the parent's moves and `mv`.
    fn token_after(&mut self, game: &G, parent: &str, mv: G::Move, child: G::Position) -> String {
        let key = game.key(&child);
        let moves = parent.split_once('.').map_or("", |(_, moves)| moves);
        self.by_key.entry(key).or_insert_with(|| (child, format!("{key:x}.{moves}{mv}"))).1.clone()
    }
}

/// Answers requests until `quit` or the end of the input, each position looked up by its key.
fn serve<G: Game>(game: &G, args: &ServeArgs) {
    let root = game.root();
    let mut positions = Positions::new(game);
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
                let _ = write!(answer, "{:x}.", game.key(&root));
            }
            (Some("children"), Some(token)) => match positions.get(game, token) {
                Some(position) => {
                    for mv in game.legal_moves(&position) {
                        let child = positions.token_after(game, token, mv, game.play(&position, mv));
                        let separator = if answer.is_empty() { "" } else { " " };
                        let _ = write!(answer, "{separator}{mv} {child}");
                    }
                }
                None => {
                    let _ = write!(answer, "unknown position {token}");
                }
            },
            (Some("eval"), Some(token)) => match positions.get(game, token) {
                Some(position) => {
                    let _ = write!(answer, "{}", game.evaluate_for_mover(&position));
                }
                None => {
                    let _ = write!(answer, "unknown position {token}");
                }
            },
            (Some("search"), Some(token)) => {
                let depth = words.next().and_then(|depth| depth.parse::<u32>().ok());
                let file = words.next().filter(|_| args.records);
                match (positions.get(game, token), depth) {
                    (Some(position), Some(depth)) => {
                        search(game, &mut engine, &params, &args.bug, &position, depth, file, &mut answer);
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
    bugs: &[Bug],
    position: &G::Position,
    depth: u32,
    file: Option<&str>,
    answer: &mut String,
) {
    let searched = if bugs.contains(&Bug::OffByOne) { depth.saturating_sub(1) } else { depth };

    let params = SearchParams { depth: searched, ..params.clone() };
    let mover = game.to_move(position);
    let outcome = match file {
        Some(file) => {
            let mut recorder = Recorder::from(game, position.clone());
            let outcome = engine.search_observed(game, position, Algorithm::Mtdf, &params, &mut recorder);
            let mut written = String::new();
            // Nodes named by their paths from the searched position, which mean the same to the
            // oracle whatever token it first knew a transposition by.
            recorder.each_record(When::Completion, None, |record| {
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
    if bugs.contains(&Bug::WorstMove) && depth > 0 {
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
