//! An engine with planted bugs, for trying `nullwindow audit` and `nullwindow shrink` (the book's
//! oracle chapter walks through a session):
//!
//! ```sh
//! cargo run --example buggy_engine -- --bug fail-low-stored-exact testdata/trees/teaching.tree \
//!     | nullwindow audit testdata/trees/teaching.tree --trace - --values side-to-move
//! ```
//!
//! Usage: `buggy_engine [--bug NAME] [--depth N] TREE`. It searches the tree file (parenthesis or
//! gtree format) to the depth (default: the tree's height) by iterative deepening, writes one record
//! per node to standard output, values from the side to move, and the root value to standard error.
//! Bugs: `none`, `fail-low-stored-exact`, `shallower-entry`, `horizon-sign` (see `engine.rs`).

mod engine;

use std::process::ExitCode;

use engine::{Bug, Engine};
use nullwindow::tree::{Tree, gtree};

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: Vec<String>) -> Result<(), String> {
    let (mut bug, mut depth, mut file) = (Bug::None, None, None);
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--bug" => {
                let name = args.next().ok_or("--bug needs a name")?;
                bug = Bug::ALL.iter().find(|(known, _)| *known == name).map(|&(_, bug)| bug).ok_or_else(
                    || {
                        let names: Vec<&str> = Bug::ALL.iter().map(|(name, _)| *name).collect();
                        format!("unknown bug '{name}' (one of: {})", names.join(", "))
                    },
                )?;
            }
            "--depth" => {
                let text = args.next().ok_or("--depth needs a number")?;
                depth = Some(text.parse::<u32>().map_err(|_| format!("--depth: '{text}' is not a number"))?);
            }
            _ if file.is_none() => file = Some(arg),
            _ => return Err(format!("unexpected argument '{arg}'")),
        }
    }
    let file = file.ok_or("usage: buggy_engine [--bug NAME] [--depth N] TREE")?;
    let source = std::fs::read_to_string(&file).map_err(|e| format!("cannot read '{file}': {e}"))?;
    let parsed = if file.ends_with(".gtree") { gtree::parse(&source) } else { source.parse::<Tree>() };
    let tree = parsed.map_err(|e| format!("{file}:{}:{}: {}", e.line, e.column, e.message))?;
    let mut engine = Engine::new(&tree, bug);
    let value = engine.search(depth.unwrap_or(tree.height()));
    for line in &engine.lines {
        println!("{}", line.to_json());
    }
    eprintln!("value {value}");
    Ok(())
}
