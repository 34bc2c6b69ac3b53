//! A game of the crate's catalogue served over the oracle's line protocol
//! (`nullwindow::oracle::protocol`), answering from memory: the engine that measures how fast the
//! oracle's side of the pipe is, and that checks the protocol against the games themselves.
//!
//! ```sh
//! cargo build --release --example serve
//! nullwindow solve --engine 'target/release/examples/serve connect4 4453' --depth 8 --algo mtdf
//! ```
//!
//! Usage: `serve GAME [MOVES]`. A position's token is its key in hexadecimal (the catalogue's games'
//! keys identify their positions); moves are named as the game prints them. Values are from the
//! side to move. It also answers `search POS DEPTH` with the crate's own MTD(f), one engine and
//! table across the searches: the fast engine the own-game fuzz is measured with
//! (`nullwindow fuzz --engine 'target/release/examples/serve connect4'`).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::ExitCode;

use nullwindow::driver::SearchParams;
use nullwindow::game::Game;
use nullwindow::registry::games::KnownGame;
use nullwindow::search::{Algorithm, Engine};
use nullwindow::with_any_game;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(game) = args.first().and_then(|name| KnownGame::from_name(name)) else {
        eprintln!("usage: serve GAME [MOVES] (GAME: tictactoe, connect4 or nim)");
        return ExitCode::from(2);
    };
    let any = match game.at(args.get(1).map_or("", String::as_str)) {
        Ok(any) => any,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
    };
    with_any_game!(any, game => serve(&game));
    ExitCode::SUCCESS
}

/// Answers requests until `quit` or the end of the input, each position looked up once.
fn serve<G: Game>(game: &G) {
    let token = |position: &G::Position| format!("{:x}", game.key(position));
    let mut positions: HashMap<String, G::Position> = HashMap::from([(token(&game.root()), game.root())]);
    let mut input = BufReader::with_capacity(1 << 16, std::io::stdin());
    let mut out = BufWriter::new(std::io::stdout());
    let mut line = String::new();
    let table = SearchParams { tt_entries: 1 << 16, ..SearchParams::default() };
    let mut engine = Engine::new(&table);
    while input.read_line(&mut line).is_ok_and(|read| read > 0) {
        let mut words = line.split_whitespace();
        let answer = match (words.next(), words.next()) {
            (Some("quit"), _) | (None, _) => break,
            (Some("protocol"), _) => "protocol 1 search".to_owned(),
            (Some("root"), _) => token(&game.root()),
            (Some("children"), Some(at)) => match positions.get(at).cloned() {
                Some(position) => {
                    let mut answer = Vec::new();
                    for mv in game.legal_moves(&position) {
                        let child = game.play(&position, mv);
                        let child_token = token(&child);
                        answer.push(format!("{mv} {child_token}"));
                        positions.entry(child_token).or_insert(child);
                    }
                    answer.join(" ")
                }
                None => format!("unknown position {at}"),
            },
            (Some("eval"), Some(at)) => positions
                .get(at)
                .map_or_else(|| format!("unknown position {at}"), |p| game.evaluate_for_mover(p).to_string()),
            (Some("search"), Some(at)) => {
                match (positions.get(at), words.next().and_then(|depth| depth.parse::<u32>().ok())) {
                    (Some(position), Some(depth)) => {
                        let params = SearchParams { depth, ..table.clone() };
                        let outcome = engine.search_from(game, position, Algorithm::Mtdf, &params, |_| {});
                        let value = game.to_move(position).perspective(outcome.value);
                        match outcome.best_move.filter(|_| depth > 0) {
                            Some(mv) => format!("{value} {mv}"),
                            None => value.to_string(),
                        }
                    }
                    _ => format!("unknown request {}", line.trim_end()),
                }
            }
            _ => format!("unknown request {}", line.trim_end()),
        };
        // One flush per batch the oracle sends, not per line: when no more requests are buffered.
        let _ = writeln!(out, "{answer}");
        if input.buffer().is_empty() {
            let _ = out.flush();
        }
        line.clear();
    }
    let _ = out.flush();
}
