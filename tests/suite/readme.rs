//! Every command example in `README.md` prints what the README shows, and every `nullwindow`
//! command the book shows runs.
//!
//! The README's ```` ```console ```` blocks are read as a reader reads them: a line starting `$ ` is
//! a command, and the lines after it, up to the next command or the end of the block, are what it
//! prints, standard output and standard error together. Each command runs through `sh -c` (some are
//! pipelines) from the repository root, with the `nullwindow` this build made first on `PATH`, and
//! must print the shown text exactly, but for snapbox's wildcards: `[..]` for any text within a line,
//! `...` on a line of its own for any lines. Only `console` blocks run; `sh` blocks (installing,
//! building) do not. A README that loses its examples, to a renamed fence for instance, fails too.
//!
//! Timings are the one output that differs from run to run and machine to machine. The README shows
//! real timings from a release build, because a reader of the `compare` table wants to see what the
//! drivers cost, and `[..]` where the times were would tell them nothing. Instead the test masks
//! the figures of every table column headed by a timing (`ms/tree`, `Mnodes/s`) by their position in
//! the row, in the shown and in the printed output alike, so every other column, the count of wrong
//! values included, is still compared exactly, and the timings of a debug build match.
//!
//! The book shows command output by including the snapshots the tests write (`book::`, `cli::`),
//! so that output cannot drift; the commands it shows in ```` ```sh ```` blocks for a reader to try
//! must run, and succeed, with this build.

use std::io::Read;
use std::ops::Range;
use std::path::Path;
use std::process::{Command, Stdio};

use snapbox::report::Palette;
use snapbox::{Assert, IntoData};

/// The command examples the README has today. Lower it only when an example is removed on purpose:
/// a fence that no longer reads ```` ```console ```` silently stops its examples from running.
const EXAMPLES_AT_LEAST: usize = 8;

/// Column headings whose figures are timings.
const TIMING_COLUMNS: [&str; 2] = ["ms/tree", "Mnodes/s"];

/// One `$ ` command of a console block and the output the README shows after it.
struct Example {
    /// The README line of the command, counted from 1 as editors do.
    line: usize,
    command: String,
    shown: String,
}

fn examples(readme: &str) -> Vec<Example> {
    let mut examples: Vec<Example> = Vec::new();
    // `None` outside a fenced block, otherwise whether the block is a console block.
    let mut block: Option<bool> = None;
    // Whether the current console block has had its first command, so that output lines belong to it.
    let mut after_command = false;
    for (index, line) in readme.lines().enumerate() {
        let line_number = index + 1;
        if let Some(info) = line.strip_prefix("```") {
            block = match block {
                None => Some(info.trim() == "console"),
                Some(_) => None,
            };
            after_command = false;
        } else if block == Some(true) {
            if let Some(command) = line.strip_prefix("$ ") {
                examples.push(Example {
                    line: line_number,
                    command: command.to_owned(),
                    shown: String::new(),
                });
                after_command = true;
            } else {
                assert!(after_command, "README.md:{line_number}: console output before any `$ ` command");
                let example = examples.last_mut().unwrap();
                example.shown.push_str(line);
                example.shown.push('\n');
            }
        }
    }
    assert!(block.is_none(), "README.md: a fenced block is never closed");
    examples
}

/// `PATH` with the directory of the `nullwindow` this build made first, so that the README's
/// commands run it and not one installed earlier.
fn path_with_this_build() -> std::ffi::OsString {
    let build = Path::new(env!("CARGO_BIN_EXE_nullwindow")).parent().unwrap().to_path_buf();
    let inherited = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::iter::once(build).chain(std::env::split_paths(&inherited))).unwrap()
}

/// Runs `command` as a reader would paste it into a shell at the repository root, and returns what
/// it printed.
fn run(command: &str, path: &std::ffi::OsStr) -> String {
    run_with_status(command, path).0
}

/// As [`run`], with whether the command succeeded.
fn run_with_status(command: &str, path: &std::ffi::OsStr) -> (String, bool) {
    // Standard output and standard error share one pipe, so that they interleave as on a terminal.
    let (mut reader, writer) = std::io::pipe().unwrap();
    let mut child = Command::new("sh")
        .args(["-c", command])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(writer.try_clone().unwrap())
        .stderr(writer)
        .spawn()
        .unwrap();
    // The `Command` holding this process's write ends is dropped by now, so reading ends when the
    // shell and everything it started have exited.
    let mut printed = String::new();
    reader.read_to_string(&mut printed).unwrap();
    let succeeded = child.wait().unwrap().success();
    (printed, succeeded)
}

/// The byte ranges of the whitespace-separated fields of `line`.
fn fields(line: &str) -> Vec<Range<usize>> {
    let mut fields = Vec::new();
    let mut start = None;
    for (index, character) in line.char_indices().chain(std::iter::once((line.len(), ' '))) {
        match (start, character.is_whitespace()) {
            (None, false) => start = Some(index),
            (Some(first), true) => {
                fields.push(first..index);
                start = None;
            }
            _ => {}
        }
    }
    fields
}

/// `text` with every figure in a timing column replaced by `[time]`. A table starts at a line with a
/// timing heading and ends at a blank line; the padding before each masked figure goes with it, so
/// a time of another width leaves the rest of its row as it was.
fn mask_timings(text: &str) -> String {
    let mut masked = String::with_capacity(text.len());
    // The positions of the timing fields in the rows of the table being read; empty outside a table.
    let mut timing_fields: Vec<usize> = Vec::new();
    for line in text.split_inclusive('\n') {
        let line_fields = fields(line);
        let timing_headings: Vec<usize> = (0..line_fields.len())
            .filter(|&field| TIMING_COLUMNS.contains(&&line[line_fields[field].clone()]))
            .collect();
        if line_fields.is_empty() {
            timing_fields.clear();
        } else if !timing_headings.is_empty() {
            timing_fields = timing_headings;
        } else if !timing_fields.is_empty() {
            let mut copied = 0;
            for &field in timing_fields.iter().filter(|&&field| field < line_fields.len()) {
                let padding = if field == 0 { 0 } else { line_fields[field - 1].end };
                masked.push_str(&line[copied..padding]);
                masked.push_str(" [time]");
                copied = line_fields[field].end;
            }
            masked.push_str(&line[copied..]);
            continue;
        }
        masked.push_str(line);
    }
    masked
}

#[test]
fn every_console_example_prints_what_the_readme_shows() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let examples = examples(&readme);
    assert!(
        examples.len() >= EXAMPLES_AT_LEAST,
        "README.md has {} console examples, fewer than {EXAMPLES_AT_LEAST}: is a fence no longer ```console?",
        examples.len()
    );
    let path = path_with_this_build();
    // Plain text: the diff goes into this test's own panic message, where colour codes would be noise.
    // And the output as printed: a backslash is the command's, not a path separator to normalize.
    let assert = Assert::new().palette(Palette::plain()).normalize_paths(false);
    let mut failures = Vec::new();
    for example in &examples {
        let printed = run(&example.command, &path);
        if let Err(diff) = assert.try_eq(
            Some(&"printed"),
            mask_timings(&printed).into_data(),
            mask_timings(&example.shown).into_data(),
        ) {
            failures.push(format!(
                "README.md:{}: $ {}\n{}",
                example.line,
                example.command,
                diff.to_string().trim_end()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of the README's {} command examples print something else than it shows:\n\n{}",
        failures.len(),
        examples.len(),
        failures.join("\n\n")
    );
}

#[test]
fn timing_masks_hide_the_times_and_nothing_else() {
    let shown = "\
algorithm         leaves    ratio   passes     ms/tree  Mnodes/s  wrong
alphabeta        11875.2    1.450        -       0.841     23.52      0

after the table 0.841
";
    let slower = shown.replace("      0.841     23.52", "     12.841      2.26");
    assert_eq!(mask_timings(&slower), mask_timings(shown));
    assert!(mask_timings(shown).contains("- [time] [time]      0\n"));
    let wrong = shown.replace("23.52      0", "23.52      1");
    assert_ne!(mask_timings(&wrong), mask_timings(shown));
    let more_leaves = shown.replace("11875.2", "11875.3");
    assert_ne!(mask_timings(&more_leaves), mask_timings(shown));
    assert!(mask_timings(shown).ends_with("after the table 0.841\n"));
}

/// The `nullwindow` commands of the book's ```` ```sh ```` blocks, with the chapter and line of each:
/// in the chapters and in the generated files they include (`figures/`, such as the exercises'
/// answers).
fn book_commands() -> Vec<(String, usize, String)> {
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src");
    let mut chapters: Vec<String> =
        crate::book::files_under(&book).into_iter().filter(|name| name.ends_with(".md")).collect();
    chapters.sort();
    let mut commands = Vec::new();
    for name in chapters {
        let text = std::fs::read_to_string(book.join(&name)).unwrap();
        assert!(
            examples(&text).is_empty(),
            "{name}: show output by including a snapshot, not as a console block"
        );
        let mut in_sh = false;
        for (index, line) in text.lines().enumerate() {
            if let Some(info) = line.strip_prefix("```") {
                in_sh = !in_sh && info.trim() == "sh";
            } else if in_sh && line.starts_with("nullwindow ") {
                // A `#` comment after the command explains it to the reader; the shell ignores it.
                commands.push((name.clone(), index + 1, line.to_owned()));
            }
        }
    }
    commands
}

#[test]
fn every_command_the_book_shows_runs() {
    let commands = book_commands();
    assert!(commands.len() >= 3, "the book shows only {} nullwindow commands", commands.len());
    let path = path_with_this_build();
    for (chapter, line, command) in commands {
        // A command that writes one of the book's own files (a viewer's trace) runs without its
        // redirection: a test must not change the checkout, and another one compares that file with
        // what the command prints.
        let command = command.split_once(" > book/").map_or(command.as_str(), |(command, _)| command);
        let (printed, succeeded) = run_with_status(command, &path);
        assert!(succeeded, "book/src/{chapter}:{line}: `{command}` failed:\n{printed}");
    }
}
