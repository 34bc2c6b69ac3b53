//! Regenerates every figure and measured table of the book.
//!
//! `cargo run --example figures` (from the repository root) writes them into `book/src/figures/`.
//! They are drawn by the crate itself from real searches (see `draw/`); the book's test fails when
//! a committed one is stale, and this command is how to bring it up to date.
//!
//! `cargo run --release --example figures -- research` writes the research figures instead
//! (`draw/research.rs`): Connect Four and tic-tac-toe searched to depths a debug build cannot reach
//! in a test, with times, in a minute or two of a release build. They are a mode of this example
//! rather than an example of their own because they are book figures like the others, drawn with
//! the same helpers, and the book's test compiles the same `draw` module to check them.

mod draw;

use std::path::Path;

fn main() -> std::io::Result<()> {
    let directory = Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src/figures");
    let files = match std::env::args().nth(1).as_deref() {
        None => draw::all(),
        Some("research") => draw::research::files(),
        Some(other) => {
            eprintln!("unknown argument '{other}': give none, or `research`");
            std::process::exit(2);
        }
    };
    for (name, contents) in files {
        let path = directory.join(&name);
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder)?;
        }
        std::fs::write(path, contents)?;
        println!("book/src/figures/{name}");
    }
    Ok(())
}
