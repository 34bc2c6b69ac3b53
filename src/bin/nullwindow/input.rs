//! Reading a tree from a file or standard input, in the format its name or `--format` says.

use std::io::{IsTerminal, Read};
use std::path::Path;

use clap::ValueEnum;
use nullwindow::tree::{Tree, gtree, text};

use crate::CliError;

/// A tree file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// `.gtree` files are gtree, everything else (and standard input) the parenthesis format.
    Auto,
    /// The parenthesis format: `((3 17) (2 12) (15 (25 0)))`.
    Paren,
    /// One node per line: `ID EVAL [W|B] CHILD_ID…`.
    Gtree,
}

/// Reads and parses the tree at `path` (`-` for standard input).
pub fn read_tree(path: &str, format: Format) -> Result<Tree, CliError> {
    let (name, bytes) = if path == "-" {
        let mut stdin = std::io::stdin();
        if stdin.is_terminal() {
            return Err(CliError(
                "no tree on standard input: name a tree file, or pipe one in with '-'".to_owned(),
            ));
        }
        let mut bytes = Vec::new();
        stdin.read_to_end(&mut bytes).map_err(|e| CliError(format!("cannot read standard input: {e}")))?;
        ("<stdin>".to_owned(), bytes)
    } else {
        let bytes = std::fs::read(path).map_err(|e| CliError(format!("cannot read '{path}': {e}")))?;
        (path.to_owned(), bytes)
    };
    let format = match format {
        Format::Auto if Path::new(path).extension().is_some_and(|ext| ext == "gtree") => Format::Gtree,
        Format::Auto => Format::Paren,
        chosen => chosen,
    };
    let parsed = match format {
        Format::Gtree => {
            let source = std::str::from_utf8(&bytes).map_err(|e| {
                let (line, column) = line_and_column(&bytes, e.valid_up_to());
                CliError(format!("{name}:{line}:{column}: the file is not valid UTF-8"))
            })?;
            gtree::parse(source)
        }
        _ => text::parse_bytes(&bytes),
    };
    parsed.map_err(|e| CliError(format!("{name}:{}:{}: {}", e.line, e.column, e.message)))
}

fn line_and_column(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = offset - before.iter().rposition(|&b| b == b'\n').map_or(0, |newline| newline + 1) + 1;
    (line, column)
}
