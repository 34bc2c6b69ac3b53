//! Regenerates every figure and measured table of the book.
//!
//! `cargo run --example figures` (from the repository root) writes them into `book/src/figures/`.
//! They are drawn by the crate itself from real searches (see `draw/`); the book's test fails when
//! a committed one is stale, and this command is how to bring it up to date.

mod draw;

use std::path::Path;

fn main() -> std::io::Result<()> {
    let directory = Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src/figures");
    for (name, contents) in draw::all() {
        let path = directory.join(&name);
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder)?;
        }
        std::fs::write(path, contents)?;
        println!("book/src/figures/{name}");
    }
    Ok(())
}
