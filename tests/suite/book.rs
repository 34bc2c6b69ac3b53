//! The book cannot drift: every chapter in `SUMMARY.md` exists and every chapter file is listed; every
//! `{{#include}}` names a file that exists and an anchor (or line range) that exists in it; every
//! relative link and image resolves, down to the heading an `#anchor` names; and every figure is what
//! the crate draws today. mdBook itself builds a page with a dangling include or link without an
//! error, so these tests are what catch one.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

// The drawing code of `cargo run --example figures`, compiled here too so that a stale figure fails.
#[path = "../../examples/figures/draw/mod.rs"]
mod draw;

fn book() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src")
}

/// The chapter files `SUMMARY.md` links to.
fn chapters() -> Vec<String> {
    let summary = std::fs::read_to_string(book().join("SUMMARY.md")).unwrap();
    summary.split("](").skip(1).map(|rest| rest.split(')').next().unwrap().to_owned()).collect()
}

#[test]
fn every_chapter_is_listed_and_exists() {
    let listed = chapters();
    for chapter in &listed {
        assert!(book().join(chapter).is_file(), "SUMMARY.md lists {chapter}, which does not exist");
    }
    for entry in std::fs::read_dir(book()).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".md") && name != "SUMMARY.md" {
            assert!(listed.contains(&name), "{name} is not in SUMMARY.md");
        }
    }
}

#[test]
fn every_include_resolves_to_an_existing_anchor_or_line() {
    let mut includes = 0;
    for chapter in chapters() {
        let text = std::fs::read_to_string(book().join(&chapter)).unwrap();
        let pieces: Vec<&str> = text.split("{{#include ").collect();
        for (before, directive) in pieces.iter().zip(&pieces[1..]) {
            // `\{{#include …}}` is mdBook's escape: the text shows a directive instead of running it.
            if before.ends_with('\\') {
                continue;
            }
            let target = directive.split("}}").next().unwrap().trim();
            // The path ends at the first `:` of its file name; what follows names lines or an anchor.
            let name_start = target.rfind('/').map_or(0, |slash| slash + 1);
            let (path, spec) = match target[name_start..].find(':') {
                Some(colon) => {
                    (target[..name_start + colon].to_owned(), Some(&target[name_start + colon + 1..]))
                }
                None => (target.to_owned(), None),
            };
            let file = book().join(&path);
            let source = std::fs::read_to_string(&file)
                .unwrap_or_else(|e| panic!("{chapter}: {{{{#include {target}}}}}: {e}"));
            match spec {
                Some(spec) if spec.chars().next().is_some_and(|c| c.is_ascii_digit()) => {
                    let first: usize = spec.split(':').next().unwrap().parse().unwrap();
                    let lines: Vec<&str> = source.lines().collect();
                    assert!(lines.len() >= first, "{chapter}: {path} has no line {first}");
                    if path.ends_with(".snap") {
                        // Snapshot headers are five lines ending in `---`; the book shows what follows.
                        assert_eq!(
                            lines[first - 2],
                            "---",
                            "{chapter}: {path}: line {first} is not the body"
                        );
                    }
                }
                Some(anchor) => {
                    assert!(
                        source.contains(&format!("ANCHOR: {anchor}\n")),
                        "{chapter}: no anchor {anchor} in {path}"
                    );
                    assert!(
                        source.contains(&format!("ANCHOR_END: {anchor}\n")),
                        "{chapter}: {anchor} never ends in {path}"
                    );
                }
                None => {}
            }
            includes += 1;
        }
    }
    assert!(includes >= 20, "only {includes} includes");
}

#[test]
fn every_anchor_of_a_literal_translation_is_in_the_book() {
    let mut book_text = String::new();
    for chapter in chapters() {
        book_text.push_str(&std::fs::read_to_string(book().join(chapter)).unwrap());
    }
    let literal = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/literal");
    for entry in std::fs::read_dir(literal).unwrap() {
        let path = entry.unwrap().path();
        let source = std::fs::read_to_string(&path).unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        for anchor in source.lines().filter_map(|line| line.trim().strip_prefix("// ANCHOR: ")) {
            assert!(
                book_text.contains(&format!("src/literal/{name}:{anchor}}}}}")),
                "src/literal/{name}:{anchor} is not shown in the book"
            );
        }
    }
}

/// mdBook's id for a heading: lowercase, whitespace to `-`, every character but letters, digits, `_`
/// and `-` dropped (markdown's backticks and emphasis go with them).
fn heading_id(heading: &str) -> String {
    heading
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c.to_ascii_lowercase())
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// The heading ids of a chapter, with mdBook's `-1`, `-2` … for repeats; lines in code fences are
/// not headings.
fn heading_ids(text: &str) -> HashSet<String> {
    let mut ids = HashSet::new();
    let mut in_fence = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_fence = !in_fence;
        }
        if in_fence || !line.starts_with('#') {
            continue;
        }
        let base = heading_id(line.trim_start_matches('#').trim());
        let mut id = base.clone();
        let mut repeat = 0;
        while ids.contains(&id) {
            repeat += 1;
            id = format!("{base}-{repeat}");
        }
        ids.insert(id);
    }
    ids
}

/// The targets of a chapter's markdown links and images, outside code fences and inline code.
fn link_targets(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut in_fence = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_fence = !in_fence;
        }
        if in_fence {
            continue;
        }
        // Inline code is every other piece between backticks.
        for (index, piece) in line.split('`').enumerate() {
            if index % 2 == 1 {
                continue;
            }
            for rest in piece.split("](").skip(1) {
                targets.push(rest.split(')').next().unwrap().to_owned());
            }
        }
    }
    targets
}

#[test]
fn every_relative_link_and_image_resolves_down_to_its_heading() {
    let mut checked = 0;
    for chapter in chapters() {
        let text = std::fs::read_to_string(book().join(&chapter)).unwrap();
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) =
                target.split_once('#').map_or((target.as_str(), None), |(f, a)| (f, Some(a)));
            let file = if file.is_empty() { chapter.as_str() } else { file };
            let path = book().join(file);
            assert!(path.is_file(), "{chapter}: the link ]({target}) names {file}, which does not exist");
            if let Some(anchor) = anchor {
                let ids = heading_ids(&std::fs::read_to_string(&path).unwrap());
                assert!(ids.contains(anchor), "{chapter}: ]({target}): {file} has no heading #{anchor}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} links checked");
}

#[test]
fn heading_ids_follow_mdbook() {
    assert_eq!(heading_id("MTD(f): the driver"), "mtdf-the-driver");
    assert_eq!(heading_id("`AlphaBetaWithMemory`, line by line"), "alphabetawithmemory-line-by-line");
    let ids = heading_ids("# A\n```text\n# not a heading\n```\n## A\n");
    assert_eq!(ids, HashSet::from(["a".to_owned(), "a-1".to_owned()]));
}

#[test]
fn every_figure_is_what_the_crate_draws_today() {
    let figures = book().join("figures");
    let drawn = draw::all();
    let names: HashSet<&str> = drawn.iter().map(|(name, _)| name.as_str()).collect();
    for (name, contents) in &drawn {
        let committed = std::fs::read_to_string(figures.join(name)).unwrap_or_default();
        assert!(
            committed == *contents,
            "book/src/figures/{name} is stale or missing: run `cargo run --example figures` and commit it"
        );
    }
    // The research figures are too slow to draw in a debug build; their own test below checks them.
    for name in files_under(&figures) {
        assert!(
            names.contains(name.as_str())
                || draw::research::FILES.contains(&name.as_str())
                // Drawn by `fuzz --profile-svg` from a Python engine's answers, and checked by the
                // test that runs it (`selective::the_books_selective_runs`).
                || name == "selective-profile.svg"
                // Drawn only with the `serde` feature, which writes JSON lines.
                || (cfg!(not(feature = "serde")) && name == draw::OWN_TRACE),
            "book/src/figures/{name} is not drawn by `cargo run --example figures`"
        );
    }
}

/// The research tables (`cargo run --release --example figures -- research`) hold the leaves and
/// nodes the drivers count today: every depth cheap enough for a debug build is searched again and
/// its rows must read as committed, and every measured depth has its row. Times cannot be checked;
/// the figure is drawn from the same measurements as the table.
#[test]
fn the_research_tables_hold_what_the_drivers_count_today() {
    use draw::research::{Experiment, FILES, Measure, count_row, counts};
    for experiment in Experiment::ALL {
        let name = format!("research-{}.md", experiment.name());
        assert!(FILES.contains(&name.as_str()) && FILES.contains(&name.replace(".md", ".svg").as_str()));
        assert!(book().join("figures").join(name.replace(".md", ".svg")).is_file(), "{name}: no figure");
        let committed = std::fs::read_to_string(book().join("figures").join(&name)).unwrap();
        let paragraphs: Vec<&str> = committed.split("\n\n").collect();
        let table = |measure: Measure| -> Vec<&str> {
            let caption = paragraphs.iter().position(|p| p.trim() == measure.caption());
            let caption = caption.unwrap_or_else(|| panic!("{name}: no table of {measure:?}"));
            paragraphs[caption + 1].lines().collect()
        };
        for measure in [Measure::Leaves, Measure::Nodes, Measure::Time] {
            let rows = table(measure);
            for depth in experiment.depths() {
                let start = format!("| {depth} |");
                assert!(
                    rows.iter().any(|row| row.starts_with(&start)),
                    "{name}: {measure:?}, no depth {depth}"
                );
            }
        }
        for depth in experiment.checked_depths() {
            let costs = counts(experiment, depth);
            for measure in [Measure::Leaves, Measure::Nodes] {
                let row = count_row(measure, depth, &costs);
                let start = format!("| {depth} |");
                let committed = table(measure).into_iter().find(|row| row.starts_with(&start)).unwrap();
                assert_eq!(
                    committed, row,
                    "book/src/figures/{name}: {measure:?} at depth {depth} differ from what the drivers count; \
                     run `cargo run --release --example figures -- research` and commit it"
                );
            }
        }
    }
}

/// Every file under `folder`, in its subfolders too, by its path from `folder` (`/`-separated).
pub(crate) fn files_under(folder: &Path) -> Vec<String> {
    let mut files = Vec::new();
    let mut folders = vec![(folder.to_path_buf(), String::new())];
    while let Some((folder, prefix)) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let entry = entry.unwrap();
            let name = format!("{prefix}{}", entry.file_name().into_string().unwrap());
            if entry.file_type().unwrap().is_dir() {
                folders.push((entry.path(), format!("{name}/")));
            } else {
                files.push(name);
            }
        }
    }
    files
}

/// Runs the command line as a reader would, from the repository root, and returns what it printed
/// (standard output, then standard error) with its exit code.
#[cfg(feature = "cli")]
pub(crate) fn run(args: &[&str]) -> String {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_nullwindow"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let mut text = format!("$ nullwindow {}\n", args.join(" "));
    text.push_str(&String::from_utf8(output.stdout).unwrap());
    text.push_str(&String::from_utf8(output.stderr).unwrap());
    if !output.status.success() {
        text.push_str(&format!("(exit code {})\n", output.status.code().unwrap_or(-1)));
    }
    text
}

// The command output the book shows: each snapshot is included by a chapter from its sixth line, so
// the text a reader sees is what the command prints today. They need the command line (feature
// `cli`, on by default).

#[test]
#[cfg(feature = "cli")]
fn book_solve_the_teaching_tree_with_the_optimized_drivers() {
    insta::assert_snapshot!(run(&["solve", "testdata/trees/teaching.tree", "--algo", "minimax,optimized"]));
}

#[test]
#[cfg(feature = "cli")]
fn book_solve_tictactoe_with_every_exact_driver() {
    insta::assert_snapshot!(run(&["solve", "--game", "tictactoe", "--position", "15"]));
}

#[test]
#[cfg(feature = "cli")]
fn book_solve_a_connect4_endgame() {
    insta::assert_snapshot!(run(&[
        "solve",
        "--game",
        "connect4",
        "--position",
        "7422341735647741166133573473242566"
    ]));
}

#[test]
#[cfg(feature = "cli")]
fn book_divide_and_check_walk_down_to_a_wrong_claim() {
    let mut text = run(&["divide", "--game", "tictactoe", "--position", "5"]);
    text.push('\n');
    text.push_str(&run(&["divide", "--game", "tictactoe", "--position", "52"]));
    text.push('\n');
    text.push_str(&run(&["check", "--game", "tictactoe", "--value", "0", "--line", "5=0 2=0 1=0"]));
    insta::assert_snapshot!(text);
}

#[test]
#[cfg(feature = "cli")]
fn book_trace_of_mtdf_on_the_format_example() {
    insta::assert_snapshot!(run(&[
        "trace",
        "testdata/trees/format-example.tree",
        "--algo",
        "mtdf",
        "--output",
        "table"
    ]));
}

#[test]
#[cfg(feature = "cli")]
fn book_trace_of_a_literal_listing() {
    insta::assert_snapshot!(run(&[
        "trace",
        "testdata/trees/format-example.tree",
        "--algo",
        "plaat-mtdf-corrected",
        "--output",
        "table"
    ]));
}

#[test]
#[cfg(feature = "cli")]
fn book_depth_limited_search_scores_interior_nodes_zero() {
    insta::assert_snapshot!(run(&[
        "solve",
        "testdata/trees/format-example.tree",
        "--depth",
        "1",
        "--algo",
        "minimax,alphabeta,mtdf"
    ]));
}

#[test]
fn every_chapter_is_compiled_as_a_doctest() {
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    for chapter in chapters() {
        assert!(
            lib.contains(&format!("=> \"{chapter}\"")),
            "{chapter} is not in src/lib.rs's `chapters!`, so its Rust examples are never run"
        );
    }
}

/// The oracle chapter's worked session on the example engine's fail-low-stored-exact bug: the audit
/// of its committed trace, the divide that explains the node, and the shrink's result. The shrink
/// runs here through the library with the same test as the chapter's command (the example engine's
/// records, audited), so that it needs no built example; the tree it gives is the committed one.
#[test]
#[cfg(feature = "cli")]
fn book_audit_session_on_the_buggy_engine() {
    use crate::audit::{buggy_engine::Bug, engine_records};
    use nullwindow::oracle::audit::{self, Options};
    use nullwindow::tree::Tree;

    let big = "testdata/trees/fail-low-stored-exact.tree";
    let mut text = run(&[
        "audit",
        big,
        "--trace",
        "testdata/audit/fail-low-stored-exact.jsonl",
        "--values",
        "side-to-move",
    ]);
    text.push_str(&run(&["divide", big, "--path", "1.0"]));
    let fails = |tree: &Tree| {
        let records = engine_records(tree, Bug::FailLowStoredExact, tree.height());
        audit::audit(tree, &records, &Options::default()).first.is_some()
    };
    let tree: Tree = std::fs::read_to_string(big).unwrap().parse().unwrap();
    let small = nullwindow::tree::shrink::shrink(&tree, fails);
    let committed: Tree =
        std::fs::read_to_string("testdata/trees/fail-low-stored-exact-small.tree").unwrap().parse().unwrap();
    assert_eq!(small, committed, "the shrink now gives {small}");
    text.push_str(&format!(
        "$ nullwindow shrink {big} --command 'buggy_engine --bug fail-low-stored-exact {{}} | nullwindow audit {{}} --trace - --values side-to-move'\n{small}\n"
    ));
    text.push_str(&run(&[
        "trace",
        "testdata/trees/fail-low-stored-exact-small.tree",
        "--algo",
        "minimax",
        "--output",
        "table",
    ]));
    insta::assert_snapshot!(text);
}

/// Each figure of a search of the teaching tree ends with its total counts and the command that
/// prints them, and the chapter that shows the figure names the same command: a reader who runs it
/// gets the figure's numbers, not those of a search with other settings.
#[test]
#[cfg(feature = "cli")]
fn every_searched_tree_figure_names_a_command_that_prints_its_counts() {
    let mut figures = 0;
    for entry in std::fs::read_dir(book().join("figures")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let Some(algorithm) = name.strip_prefix("tree-").and_then(|rest| rest.strip_suffix(".svg")) else {
            continue;
        };
        figures += 1;
        let svg = std::fs::read_to_string(book().join("figures").join(&name)).unwrap();
        // Two lines: the counts, then the command alone.
        let text_of =
            |line: &str| line.split_once('>').map(|(_, rest)| rest.trim_end_matches("</text>").to_owned());
        let mut lines = svg.lines().skip_while(|line| !line.contains(">In all "));
        let (Some(counts), Some(command)) = (lines.next().and_then(text_of), lines.next().and_then(text_of))
        else {
            panic!("{name}: no lines saying how to reproduce its counts");
        };
        let counts = counts.strip_prefix("In all ").unwrap().strip_suffix("; to reproduce:").unwrap();
        let command = command.as_str();
        let (nodes, leaves) = counts.split_once(" nodes, ").unwrap();
        let leaves = leaves.trim_end_matches(" leaves");
        let args: Vec<&str> = command.strip_prefix("nullwindow ").unwrap().split(' ').collect();
        let printed = run(&args);
        let row: Vec<&str> = printed
            .lines()
            .find(|line| line.split_whitespace().next() == Some(algorithm))
            .unwrap_or_else(|| panic!("{name}: `{command}` printed no row for {algorithm}:\n{printed}"))
            .split_whitespace()
            .collect();
        // The columns: algorithm, kind, value, leaves, nodes, passes.
        assert_eq!((row[3], row[4]), (leaves, nodes), "{name}: the figure's counts differ from `{command}`");
        for chapter in chapters() {
            let text = std::fs::read_to_string(book().join(&chapter)).unwrap();
            if text.contains(&format!("(figures/{name})")) {
                // A command in running text may be broken across lines; it renders with a space.
                let text = text.replace('\n', " ");
                assert!(text.contains(command), "{chapter} shows {name} but does not name `{command}`");
            }
        }
    }
    assert!(figures >= 8, "only {figures} figures of searches of the teaching tree");
}

/// The words a glossary entry defines, as a chapter may write them: the heading's alternatives
/// (split at `, ` and ` and `), each also in the plural, hyphens and spaces alike.
fn glossary_terms() -> Vec<(String, Vec<String>)> {
    let glossary = std::fs::read_to_string(book().join("glossary.md")).unwrap();
    glossary
        .lines()
        .filter_map(|line| line.strip_prefix("### "))
        .map(|heading| {
            let words = heading.split(", ").flat_map(|part| part.split(" and ")).map(str::to_lowercase);
            (heading_id(heading), words.collect())
        })
        .collect()
}

/// Where `term` first occurs in `text` as a whole word (or its plural), ignoring case, code blocks
/// and `{{#include}}` lines, and treating a hyphen as a space.
fn first_use(text: &str, term: &str) -> Option<usize> {
    // A term may be broken across lines.
    let prose = prose_only(text).to_lowercase().replace(['-', '\n'], " ");
    let term = term.replace('-', " ");
    if let Some(stem) = term.strip_suffix('y')
        && let Some(at) = first_use_exactly(&prose, &format!("{stem}ies"))
    {
        return Some(first_use_exactly(&prose, &term).map_or(at, |other| other.min(at)));
    }
    first_use_exactly(&prose, &term)
}

/// [`first_use`] in text already lowered and freed of hyphens.
fn first_use_exactly(prose: &str, term: &str) -> Option<usize> {
    let bytes = prose.as_bytes();
    let is_word = |i: usize| bytes.get(i).is_some_and(|b| b.is_ascii_alphanumeric());
    prose.match_indices(term).map(|(at, _)| at).find(|&at| {
        let end = at + term.len();
        let end = if prose[end..].starts_with("es") && !is_word(end + 2) {
            end + 2
        } else if prose[end..].starts_with('s') && !is_word(end + 1) {
            end + 1
        } else {
            end
        };
        (at == 0 || !is_word(at - 1)) && !is_word(end)
    })
}

/// A chapter's running text: code blocks, include lines, headings, inline code and link targets
/// blanked out (lengths kept), since a glossary link can only go in running text.
fn prose_only(text: &str) -> String {
    let mut in_code = false;
    text.lines()
        .map(|line| {
            if line.trim_start().starts_with("```") {
                in_code = !in_code;
                return " ".repeat(line.len());
            }
            if in_code || line.contains("{{#include") || line.starts_with('#') {
                return " ".repeat(line.len());
            }
            let mut blank = vec![false; line.len()];
            let mut in_span = false;
            for (at, c) in line.char_indices() {
                in_span ^= c == '`';
                blank[at] |= in_span || c == '`';
            }
            // A link, text and target: a word is linked to the glossary only where it is not
            // already a link.
            let mut from = 0;
            while let Some(open) = line[from..].find('[').map(|at| from + at) {
                let Some(close) = line[open..].find("](").map(|at| open + at) else { break };
                let Some(end) = line[close..].find(')').map(|at| close + at) else { break };
                blank[open..=end].fill(true);
                from = end + 1;
            }
            line.char_indices()
                .map(|(at, c)| if blank[at] { " ".repeat(c.len_utf8()) } else { c.to_string() })
                .collect()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every chapter but the glossary, in reading order, with its text: where the glossary's words are
/// used.
fn chapters_but_the_glossary() -> Vec<(String, String)> {
    chapters()
        .into_iter()
        .filter(|chapter| chapter != "glossary.md")
        .map(|chapter| {
            let text = std::fs::read_to_string(book().join(&chapter)).unwrap();
            (chapter, text)
        })
        .collect()
}

/// A word the glossary defines is linked to its entry in the first chapter (in reading order) that
/// uses it, so that a reader who meets it for the first time can look it up.
#[test]
fn every_glossary_word_is_linked_where_the_book_first_uses_it() {
    let chapters = chapters_but_the_glossary();
    let mut missing = Vec::new();
    for (id, words) in glossary_terms() {
        let link = format!("glossary.md#{id})");
        // Once linked, a use is a link and no longer running text: either counts as a use.
        let first = chapters.iter().find(|(_, text)| {
            text.contains(&link) || words.iter().any(|word| first_use(text, word).is_some())
        });
        let Some((chapter, text)) = first else {
            missing.push(format!("glossary.md#{id} is used by no chapter"));
            continue;
        };
        if !text.contains(&link) {
            missing.push(format!(
                "{chapter} first uses the glossary's `{id}` but does not link glossary.md#{id}"
            ));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// The chapter files a text links to as a whole (a link to a heading in one is a cross-reference,
/// not a list entry), in the order of their first link; `prefix` is the path to the book's sources
/// as the text writes it.
fn chapter_links(text: &str, prefix: &str) -> Vec<String> {
    let mut seen = Vec::new();
    for target in text.split("](").skip(1).filter_map(|rest| rest.split(')').next()) {
        let Some(file) = target.strip_prefix(prefix).filter(|file| !file.contains('#')) else { continue };
        let file = file.to_owned();
        if file.ends_with(".md") && file != "SUMMARY.md" && !file.contains('/') && !seen.contains(&file) {
            seen.push(file);
        }
    }
    seen
}

/// The README's list of chapters and the introduction's reading order name every chapter, in the
/// order of `SUMMARY.md`, so that neither drifts when a chapter is added or moved.
#[test]
fn the_readme_and_the_introduction_list_every_chapter_in_summary_order() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let section = readme.split("\n## The book\n").nth(1).unwrap().split("\n## ").next().unwrap();
    assert_eq!(chapter_links(section, "book/src/"), chapters(), "README.md's chapter list");
    let introduction = std::fs::read_to_string(book().join("introduction.md")).unwrap();
    let order = introduction.split("\n## The order of the chapters\n").nth(1).unwrap();
    let expected: Vec<String> =
        chapters().into_iter().filter(|chapter| chapter != "introduction.md").collect();
    assert_eq!(chapter_links(order, ""), expected, "the introduction's order of the chapters");
}

/// The commands that write the traces the viewer chapter embeds, as the chapter shows them: each line
/// `nullwindow trace … > book/src/traces/NAME.jsonl`, with its arguments and NAME.
fn viewer_trace_commands() -> Vec<(Vec<String>, String)> {
    let chapter = std::fs::read_to_string(book().join("viewer.md")).unwrap();
    chapter
        .lines()
        .filter(|line| line.contains(" > book/src/traces/"))
        .filter_map(|line| line.strip_prefix("nullwindow trace "))
        .map(|command| {
            let (args, file) = command.split_once(" > ").expect("a trace command writes a file with `>`");
            let name = file.trim().strip_prefix("book/src/traces/").and_then(|f| f.strip_suffix(".jsonl"));
            let name = name.unwrap_or_else(|| {
                panic!("viewer.md: `{command}` does not write book/src/traces/NAME.jsonl")
            });
            let mut args: Vec<String> = args.split_whitespace().map(str::to_owned).collect();
            args.insert(0, "trace".to_owned());
            (args, name.to_owned())
        })
        .collect()
}

/// The viewer chapter names, for each trace it embeds, the command that writes it, and those are the
/// traces the figures show: the optimized drivers without killer moves and history heuristic, both
/// records of every call. Every committed trace is one of them and is embedded by a viewer.
#[test]
fn the_viewer_chapter_names_the_command_of_every_trace() {
    let chapter = std::fs::read_to_string(book().join("viewer.md")).unwrap();
    let commands = viewer_trace_commands();
    let names: HashSet<&str> = commands.iter().map(|(_, name)| name.as_str()).collect();
    for required in ["alphabeta", "mtdf", "pvs", "sss"] {
        assert!(names.contains(required), "viewer.md has no trace command for {required}");
    }
    for (args, name) in &commands {
        let line = args.join(" ");
        assert!(
            line.starts_with(&format!("trace testdata/trees/teaching.tree --algo {name} "))
                && line.contains(" --no-killers --no-history")
                && line.contains(" --on both"),
            "viewer.md: `nullwindow {line}` is not the teaching tree's {name} as the figures draw it \
             (--no-killers --no-history) with --on both"
        );
        assert!(
            chapter.contains(&format!("<div class=\"nw-viewer\" data-trace=\"{name}\""))
                && chapter.contains(&format!("{{{{#include traces/{name}.jsonl}}}}")),
            "viewer.md names the command of traces/{name}.jsonl but has no viewer that embeds it"
        );
    }
    for entry in std::fs::read_dir(book().join("traces")).unwrap() {
        let file = entry.unwrap().file_name().into_string().unwrap();
        let name = file.strip_suffix(".jsonl").unwrap_or(&file);
        assert!(names.contains(name), "book/src/traces/{file}: viewer.md names no command that writes it");
    }
}

/// Every trace the viewer chapter embeds is what its command writes today, so that the viewer and the
/// figures never show two different searches.
#[test]
#[cfg(feature = "cli")]
fn book_viewer_traces_are_what_their_commands_write() {
    let commands = viewer_trace_commands();
    assert!(!commands.is_empty(), "viewer.md names no trace command");
    for (args, name) in commands {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_nullwindow"))
            .args(&args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        let command = format!("nullwindow {} > book/src/traces/{name}.jsonl", args.join(" "));
        assert!(output.status.success(), "`{command}` failed: {}", String::from_utf8_lossy(&output.stderr));
        let committed =
            std::fs::read_to_string(book().join(format!("traces/{name}.jsonl"))).unwrap_or_default();
        assert!(
            committed.as_bytes() == output.stdout,
            "book/src/traces/{name}.jsonl is stale or missing: regenerate it with `{command}` \
             (or `cargo run -- {} > book/src/traces/{name}.jsonl`) and commit it",
            args.join(" ")
        );
    }
}

/// The figure of the MTD drivers' bounds gives each driver's pass count in its panel's title, and
/// the chapter that first shows it names a `nullwindow compare` command for the same tree: that
/// command prints the same pass counts.
#[test]
#[cfg(feature = "cli")]
fn the_bounds_figure_names_a_command_that_prints_its_pass_counts() {
    let svg = std::fs::read_to_string(book().join("figures/mtd-bounds.svg")).unwrap();
    let titles: Vec<(&str, &str)> = svg
        .lines()
        .filter_map(|line| line.split_once("\">").map(|(_, text)| text.trim_end_matches("</text>")))
        .filter_map(|text| text.split_once(" passes to the value "))
        .map(|(head, _)| head.split_once(": ").expect("DRIVER: N passes"))
        .collect();
    assert_eq!(titles.len(), 4, "the panels' titles: {titles:?}");
    let chapter = std::fs::read_to_string(book().join("mtdf.md")).unwrap().replace('\n', " ");
    let command = chapter
        .split('`')
        .find(|span| span.starts_with("nullwindow compare ") && span.contains("--first-seed"))
        .expect("mtdf.md names the compare command of the bounds figure");
    let args: Vec<&str> = command.strip_prefix("nullwindow ").unwrap().split_whitespace().collect();
    let printed = run(&args);
    for (driver, passes) in titles {
        let row: Vec<&str> = printed
            .lines()
            .find(|line| line.split_whitespace().next() == Some(driver))
            .unwrap_or_else(|| panic!("`{command}` printed no row for {driver}:\n{printed}"))
            .split_whitespace()
            .collect();
        // The columns: algorithm, leaves, ratio, nodes, ratio, passes (a mean over one tree), …
        assert_eq!(row[5], format!("{passes}.0"), "{driver}'s passes in the figure and in `{command}`");
        assert_eq!(row.last(), Some(&"0"), "`{command}` found a wrong value for {driver}");
    }
}

/// The SSS* order figure numbers the leaves MT-SSS* (`sss-literal`) evaluates by when it first
/// evaluates them; the chapter names a `nullwindow trace` command whose leaf records, each at its
/// first call, come in that order.
#[test]
#[cfg(feature = "cli")]
fn the_sss_order_figure_names_a_trace_that_lists_its_leaves_in_order() {
    use nullwindow::driver::SearchParams;
    use nullwindow::registry::Driver;
    use nullwindow::tree::Tree;

    let chapter = std::fs::read_to_string(book().join("sss-dual.md")).unwrap().replace('\n', " ");
    let command = chapter
        .split('`')
        .find(|span| span.starts_with("nullwindow trace ") && span.contains("sss-literal"))
        .expect("sss-dual.md names the trace behind the SSS* order figure");
    let args: Vec<&str> = command.strip_prefix("nullwindow ").unwrap().split_whitespace().collect();
    let jsonl: Vec<&str> = args.iter().copied().filter(|&arg| arg != "--output" && arg != "table").collect();
    let printed = run(&jsonl);
    let mut traced: Vec<u64> = Vec::new();
    for record in printed.lines().skip(1).map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
    {
        let node = record["node"].as_u64().unwrap();
        if record["depth"] == 0 && !traced.contains(&node) {
            traced.push(node);
        }
    }
    let tree: Tree = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(args[1]))
        .unwrap()
        .parse()
        .unwrap();
    let (_, evaluated) = Driver::MtSss.run_recording_leaves(&tree, &SearchParams::default());
    let mut drawn: Vec<u64> = Vec::new();
    for node in evaluated.into_iter().map(|node| node.index() as u64) {
        if !drawn.contains(&node) {
            drawn.push(node);
        }
    }
    assert_eq!(traced, drawn, "the leaves of `{command}` against the figure's order");
}

/// No word the glossary defines is first met in an exercise: a chapter that asks for it explains it
/// before its `## Exercises`, or an earlier chapter does (Alpha-beta's exercise 4 once asked for
/// node types that only a later chapter defined).
#[test]
fn no_glossary_word_is_first_met_in_an_exercise() {
    let chapters = chapters_but_the_glossary();
    let mut first_in_exercises = Vec::new();
    for (id, words) in glossary_terms() {
        let link = format!("glossary.md#{id})");
        let position = |text: &str| {
            let linked = text.find(&link);
            let used = words.iter().filter_map(|word| first_use(text, word)).min();
            linked.into_iter().chain(used).min()
        };
        let Some((chapter, text, at)) =
            chapters.iter().find_map(|(chapter, text)| position(text).map(|at| (chapter, text, at)))
        else {
            continue;
        };
        if text.find("\n## Exercises").is_some_and(|exercises| at > exercises) {
            first_in_exercises.push(format!("{chapter} first meets `{id}` in its exercises"));
        }
    }
    assert!(first_in_exercises.is_empty(), "{first_in_exercises:#?}");
}

/// Every chapter that teaches with exercises gives each one its level (warm-up, core or
/// challenge), and ends with a three-line recap and a self-check question whose answer is folded.
#[test]
fn every_teaching_chapter_has_levels_a_recap_and_a_self_check() {
    let mut missing = Vec::new();
    for chapter in chapters() {
        let text = std::fs::read_to_string(book().join(&chapter)).unwrap();
        let Some(exercises) = text.split("\n## Exercises\n").nth(1) else { continue };
        let headings = exercises.lines().filter(|line| line.starts_with("### ")).count();
        let levels = ["*Level: warm-up.*", "*Level: core.*", "*Level: challenge.*"];
        let levelled = exercises.lines().filter(|line| levels.contains(line)).count();
        if headings == 0 || levelled != headings {
            missing.push(format!("{chapter}: {levelled} of {headings} exercises have a level"));
        }
        let recap = text.split("\n## Recap\n").nth(1).map(|rest| rest.split("\n## ").next().unwrap_or(""));
        if recap.is_none_or(|recap| recap.lines().filter(|line| line.starts_with("* ")).count() != 3) {
            missing.push(format!("{chapter}: no recap of three lines"));
        }
        let check = text.split("\n## Self-check\n").nth(1);
        if check.is_none_or(|check| !check.contains("<details>") || !check.trim_end().ends_with("</details>"))
        {
            missing.push(format!("{chapter}: no self-check ending the chapter, with its answer folded"));
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
}

/// The iterations `nullwindow solve … --iterative` prints, as (depth, first guess, value, leaves,
/// root searches as `(a, b) -> r`).
#[cfg(feature = "cli")]
fn printed_iterations(command: &str) -> Vec<(String, String, String, String, String)> {
    let words: Vec<&str> = command.split_whitespace().skip(1).collect();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_nullwindow"))
        .args(&words)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(output.status.success(), "`{command}`: {output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    text.split("iteration by iteration")
        .nth(1)
        .unwrap_or_else(|| panic!("`{command}` prints no iterations:\n{text}"))
        .lines()
        .filter(|line| line.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(|line| {
            let mut fields = line.split_whitespace();
            let mut next = || fields.next().unwrap_or_default().to_owned();
            let (depth, guess, value, leaves, _nodes) = (next(), next(), next(), next(), next());
            let searches = line.split_once("  (").map(|(_, rest)| format!("({rest}")).unwrap_or_default();
            (depth, guess, value, leaves, searches.trim().to_owned())
        })
        .collect()
}

/// The iterative-deepening exercises give each iteration's first guess, passes, value and leaves;
/// the command each answer names prints the same, iteration by iteration.
#[cfg(feature = "cli")]
#[test]
fn the_iterative_deepening_answers_match_their_commands_iteration_by_iteration() {
    let answer = |name: &str| std::fs::read_to_string(book().join("figures/exercises").join(name)).unwrap();
    let command_in = |text: &str| -> String {
        text.lines()
            .find(|line| line.contains("--iterative"))
            .expect("the answer names its command")
            .to_owned()
    };
    let table_rows = |text: &str| -> Vec<Vec<String>> {
        text.lines()
            .filter(|line| line.starts_with("| ") && !line.starts_with("|---"))
            .skip(1)
            .map(|line| {
                line.trim_matches('|')
                    .split(" | ")
                    .map(|cell| cell.trim().replace('−', "-").replace('→', "->"))
                    .collect()
            })
            .collect()
    };
    // Exercise 1: depth, first guess, every pass, value.
    let first = answer("iterative-deepening-1.md");
    let printed = printed_iterations(&command_in(&first));
    let rows = table_rows(&first);
    assert_eq!(rows.len(), printed.len(), "{first}");
    for (row, (depth, guess, value, _, searches)) in rows.iter().zip(&printed) {
        assert_eq!(row, &vec![depth.clone(), guess.clone(), searches.clone(), value.clone()]);
    }
    // Exercise 2: each iteration's leaves and passes (and the total row after them).
    let second = answer("iterative-deepening-2.md");
    let printed = printed_iterations(&command_in(&second));
    let rows = table_rows(&second);
    assert_eq!(rows.len(), printed.len() + 1, "{second}");
    for (row, (depth, _, _, leaves, searches)) in rows.iter().zip(&printed) {
        let passes = searches.matches(" -> ").count().to_string();
        assert_eq!(row, &vec![format!("depth {depth}"), leaves.clone(), passes]);
    }
}

/// The viewer's own-trace form starts with the trace of the format example that the chapter's
/// command prints.
#[cfg(feature = "cli")]
#[test]
fn the_own_trace_example_is_what_its_command_prints() {
    let chapter = std::fs::read_to_string(book().join("viewer.md")).unwrap();
    let command = "nullwindow trace testdata/trees/format-example.tree --algo mtdf --on both";
    assert!(chapter.contains(command), "viewer.md no longer shows `{command}`");
    assert!(chapter.contains("{{#include figures/format-example-mtdf.jsonl}}"));
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_nullwindow"))
        .args(command.split_whitespace().skip(1))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let committed = std::fs::read_to_string(book().join("figures/format-example-mtdf.jsonl")).unwrap();
    assert_eq!(String::from_utf8(output.stdout).unwrap(), committed);
}
// ---------------------------------------------------------------------------------------------------
// The exercises: how a reader checks an answer, what each builds on, and the course paths that set
// them. To be pasted at the end of tests/suite/book.rs; it uses `book()`, `chapters()` and
// `heading_id()` from there.

/// One exercise of a teaching chapter: a `### N. Title` heading under the chapter's `## Exercises`.
struct Exercise {
    /// The chapter file, as `SUMMARY.md` links it.
    chapter: String,
    number: usize,
    /// The heading after `### `, whose id a link to the exercise names.
    heading: String,
    /// The chapter's lines from below the heading down to the `<summary>Answer</summary>`: the prompt
    /// and its How-to-check block, as the chapter file has them.
    prompt: String,
    /// The same with each `{{#include figures/exercises/…}}` replaced by the file it includes (the
    /// generated `*-given.md`), so that a given that says "the same tree" is read too.
    expanded: String,
}

/// Every exercise of every chapter, in reading order.
fn exercises() -> Vec<Exercise> {
    let mut all = Vec::new();
    for chapter in chapters() {
        let text = std::fs::read_to_string(book().join(&chapter)).unwrap();
        let Some(section) = text.split("\n## Exercises\n").nth(1) else { continue };
        let section = section.split("\n## ").next().unwrap();
        let mut blocks: Vec<(&str, Vec<&str>)> = Vec::new();
        for line in section.lines() {
            if let Some(heading) = line.strip_prefix("### ") {
                blocks.push((heading, Vec::new()));
            } else if let Some((_, lines)) = blocks.last_mut() {
                lines.push(line);
            }
        }
        for (index, (heading, lines)) in blocks.into_iter().enumerate() {
            let number: usize = heading
                .split_once(". ")
                .and_then(|(number, _)| number.parse().ok())
                .unwrap_or_else(|| panic!("{chapter}: `### {heading}` is not `### N. Title`"));
            assert_eq!(number, index + 1, "{chapter}: `### {heading}` is not numbered in order");
            let end = lines
                .iter()
                .position(|line| line.contains("<summary>Answer</summary>"))
                .unwrap_or_else(|| panic!("{chapter}: exercise {number} has no folded answer"));
            let expanded: Vec<String> = lines[..end]
                .iter()
                .map(|line| {
                    match line.trim().strip_prefix("{{#include ").and_then(|rest| rest.strip_suffix("}}")) {
                        Some(path) if path.starts_with("figures/exercises/") => {
                            std::fs::read_to_string(book().join(path)).unwrap()
                        }
                        _ => (*line).to_owned(),
                    }
                })
                .collect();
            all.push(Exercise {
                chapter: chapter.clone(),
                number,
                heading: heading.to_owned(),
                prompt: lines[..end].join("\n"),
                expanded: expanded.join("\n"),
            });
        }
    }
    all
}

/// A reader can check an answer before opening it: every exercise gives, outside its folded answer, a
/// command to check it with, either in its prompt or in a folded `How to check` block of its own
/// (a sentence and a `nullwindow` command). The commands of ```` ```sh ```` blocks are run by
/// `readme::every_command_the_book_shows_runs`; a command with a placeholder for the reader's
/// claim (`--value V`) is written as inline code, which that test leaves alone.
#[test]
fn every_exercise_says_how_to_check_an_answer_without_opening_it() {
    let all = exercises();
    assert!(all.len() >= 40, "only {} exercises found", all.len());
    let mut missing = Vec::new();
    for Exercise { chapter, number, prompt, .. } in &all {
        let block = prompt
            .split("<details>\n<summary>How to check</summary>\n")
            .nth(1)
            .map(|rest| rest.split("</details>").next().unwrap());
        match block {
            Some(block) if !block.contains("nullwindow ") => missing.push(format!(
                "{chapter}, exercise {number}: its How-to-check block names no `nullwindow` command"
            )),
            Some(_) => {}
            None if prompt.lines().any(|line| line.contains("nullwindow ")) => {}
            None => missing.push(format!(
                "{chapter}, exercise {number}: no command to check an answer with before the answer \
                 (a `<summary>How to check</summary>` block, or a line with a `nullwindow` command)"
            )),
        }
    }
    assert!(missing.is_empty(), "{} of {} exercises:\n{}", missing.len(), all.len(), missing.join("\n"));
}

/// Phrases by which a prompt (or the given it includes) builds on an earlier exercise; an exercise
/// that uses one, and names no tree file of its own, must also name that exercise, so that a course
/// path can see what it needs.
const BUILDS_ON_WITHOUT_SAYING: [&str; 4] =
    ["the same tree", "the same search", "the same questions", "the same mtd(f) search"];

/// The exercises `exercise` builds on, as (chapter, number): a link to an exercise's heading, the form
/// for another chapter's (`[Minimax, exercise 3](minimax.md#3-searching-less-deep)`), and
/// `exercise N` (or `exercises N and M`) elsewhere in its text for one of its own chapter.
fn exercise_references(exercise: &Exercise, all: &[Exercise]) -> Vec<(String, usize)> {
    let mut references = Vec::new();
    let mut text = exercise.expanded.replace('\n', " ");
    // Links first, each blanked once read, so that `exercise 3` in a link's text is not taken for one
    // of this chapter's.
    while let Some(middle) = text.find("](") {
        let open = text[..middle].rfind('[').unwrap_or(middle);
        let close = text[middle..].find(')').map_or(text.len(), |at| middle + at);
        let target = text[middle + 2..close].to_owned();
        let (file, anchor) = target.split_once('#').unwrap_or((target.as_str(), ""));
        let file = if file.is_empty() { exercise.chapter.as_str() } else { file };
        if let Some(linked) =
            all.iter().find(|other| other.chapter == file && heading_id(&other.heading) == anchor)
        {
            references.push((linked.chapter.clone(), linked.number));
        }
        text.replace_range(open..(close + 1).min(text.len()), " ");
    }
    let lower = text.to_lowercase();
    let mut rest = lower.as_str();
    while let Some(at) = rest.find("exercise") {
        rest = &rest[at + "exercise".len()..];
        let mut after = rest.strip_prefix('s').unwrap_or(rest);
        while let Some(numbers) = after.strip_prefix(' ') {
            let digits: String = numbers.chars().take_while(char::is_ascii_digit).collect();
            let Ok(number) = digits.parse::<usize>() else { break };
            references.push((exercise.chapter.clone(), number));
            after = numbers[digits.len()..].strip_prefix(" and").unwrap_or("");
        }
    }
    references.sort();
    references.dedup();
    references
}

/// Every exercise names the exercises it builds on ("the tree of exercise 1", not "the same tree"
/// alone), each of them exists, and each comes before it in the book: its own chapter's with a lower
/// number, another chapter's in an earlier chapter. So the full path, every chapter in order, sets
/// every exercise after what it needs.
#[test]
fn every_exercise_names_the_exercises_it_builds_on_and_they_come_first() {
    let all = exercises();
    let order = chapters();
    let position = |chapter: &str| order.iter().position(|listed| listed == chapter).unwrap();
    let mut problems = Vec::new();
    for exercise in &all {
        let Exercise { chapter, number, expanded, .. } = exercise;
        let references = exercise_references(exercise, &all);
        // What the exercise sets, before its How-to-check block; one that names a tree file of its own
        // may speak of "the same tree" as a variant of it.
        let statement = expanded.split("<summary>How to check</summary>").next().unwrap();
        let text = statement.to_lowercase().replace('\n', " ");
        if let Some(phrase) = BUILDS_ON_WITHOUT_SAYING.iter().find(|phrase| text.contains(*phrase))
            && !text.contains("testdata/trees/")
            && references.is_empty()
        {
            problems.push(format!(
                "{chapter}, exercise {number}: says \"{phrase}\" but names no exercise it builds on \
                 (write \"the tree of exercise N\", or link another chapter's as `[Chapter, exercise N](FILE.md#N-title)`)"
            ));
        }
        for (needed_chapter, needed) in references {
            if !all.iter().any(|other| other.chapter == needed_chapter && other.number == needed) {
                problems.push(format!(
                    "{chapter}, exercise {number}: builds on {needed_chapter} exercise {needed}, which does not exist"
                ));
            } else if position(&needed_chapter) > position(chapter)
                || (needed_chapter == *chapter && needed >= *number)
            {
                problems.push(format!(
                    "{chapter}, exercise {number}: builds on {needed_chapter} exercise {needed}, which comes after it"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A session of a course path: the chapters it covers (the files its `chapters` cell links) and the
/// exercises it sets (its `exercises` cell, such as `Minimax 1–3, Alpha-beta 1–4`: a chapter's name
/// and a number or a range with an en dash; other text there, such as a project, sets none).
struct Session {
    number: usize,
    chapters: Vec<String>,
    exercises: Vec<(String, usize)>,
}

/// The chapter with exercises that a course path's name stands for: the one whose file name it is,
/// or else the one whose title starts with it, ignoring case, spaces and punctuation (`Memory` for
/// `memory.md`; `SSS\* and DUAL\*` for `sss-dual.md`, titled "SSS* and DUAL* as MTD instances").
fn chapter_named(name: &str, all: &[Exercise]) -> String {
    let letters = |text: &str| -> String {
        text.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect()
    };
    let wanted = letters(name);
    assert!(!wanted.is_empty(), "course-paths.md: `{name}` is no chapter's name");
    let mut with_exercises: Vec<&str> = all.iter().map(|exercise| exercise.chapter.as_str()).collect();
    with_exercises.dedup();
    if let Some(chapter) =
        with_exercises.iter().find(|chapter| letters(chapter.trim_end_matches(".md")) == wanted)
    {
        return (*chapter).to_owned();
    }
    let titled: Vec<&str> = with_exercises
        .into_iter()
        .filter(|chapter| {
            let text = std::fs::read_to_string(book().join(chapter)).unwrap();
            letters(text.lines().next().unwrap_or_default()).starts_with(&wanted)
        })
        .collect();
    assert!(
        titled.len() == 1,
        "course-paths.md: `{name}` names {} chapters with exercises: {titled:?}",
        titled.len()
    );
    titled[0].to_owned()
}

/// Every table of `course-paths.md`, one course path each, under the heading above it, with its
/// sessions in order. A row whose first cell is not a number (the header, the separator) is none.
fn course_paths(all: &[Exercise]) -> Vec<(String, Vec<Session>)> {
    let text = std::fs::read_to_string(book().join("course-paths.md")).unwrap();
    let mut paths: Vec<(String, Vec<Session>)> = Vec::new();
    let mut heading = String::new();
    let mut in_table = false;
    for line in text.lines() {
        if let Some(title) = line.strip_prefix("## ") {
            heading = title.to_owned();
        }
        if !line.starts_with('|') {
            in_table = false;
            continue;
        }
        if !in_table {
            paths.push((heading.clone(), Vec::new()));
            in_table = true;
        }
        let cells: Vec<&str> = line.trim().trim_matches('|').split('|').map(str::trim).collect();
        let Ok(number) = cells[0].parse::<usize>() else { continue };
        assert_eq!(cells.len(), 3, "course-paths.md: `{line}` is not `| session | chapters | exercises |`");
        let chapters: Vec<String> =
            cells[1].split("](").skip(1).map(|rest| rest.split(')').next().unwrap().to_owned()).collect();
        let mut exercises = Vec::new();
        for item in cells[2].split(", ") {
            let Some((name, numbers)) = item.trim().rsplit_once(' ') else { continue };
            let (first, last) = numbers.split_once(['–', '-']).unwrap_or((numbers, numbers));
            let (Ok(first), Ok(last)) = (first.parse::<usize>(), last.parse::<usize>()) else { continue };
            assert!(1 <= first && first <= last, "course-paths.md: `{item}` is no range of exercises");
            let chapter = chapter_named(name, all);
            exercises.extend((first..=last).map(|number| (chapter.clone(), number)));
        }
        paths.last_mut().unwrap().1.push(Session { number, chapters, exercises });
    }
    paths
}

#[test]
fn course_path_names_and_references_parse() {
    let all = exercises();
    assert_eq!(chapter_named("SSS\\* and DUAL\\*", &all), "sss-dual.md");
    assert_eq!(chapter_named("Memory", &all), "memory.md");
    assert_eq!(chapter_named("Null-window", &all), "null-window.md");
    assert_eq!(chapter_named("MTD(f)", &all), "mtdf.md");
    assert_eq!(chapter_named("Iterative deepening", &all), "iterative-deepening.md");
    let find = |chapter: &str, number: usize| {
        all.iter().find(|exercise| exercise.chapter == chapter && exercise.number == number).unwrap()
    };
    let minimax_3 = ("minimax.md".to_owned(), 3);
    assert!(exercise_references(find("iterative-deepening.md", 1), &all).contains(&minimax_3));
    assert_eq!(
        exercise_references(find("iterative-deepening.md", 2), &all),
        vec![("iterative-deepening.md".to_owned(), 1)]
    );
    assert!(exercise_references(find("minimax.md", 1), &all).is_empty());
}

/// Each course path holds together: a session that covers a chapter with exercises sets some of
/// them; every exercise it sets exists and belongs to a chapter covered by then; and every exercise
/// that one it sets builds on (see `exercise_references`) is set too, in the same session or an
/// earlier one.
#[test]
fn every_course_path_sets_what_its_exercises_build_on() {
    let all = exercises();
    let count = |chapter: &str| all.iter().filter(|exercise| exercise.chapter == chapter).count();
    let paths = course_paths(&all);
    assert!(!paths.is_empty(), "course-paths.md has no table of sessions");
    let mut problems = Vec::new();
    for (path, sessions) in &paths {
        assert!(!sessions.is_empty(), "course-paths.md, {path}: a table without sessions");
        // The index of the first session that sets each exercise.
        let mut set: std::collections::HashMap<(String, usize), usize> = std::collections::HashMap::new();
        for (index, session) in sessions.iter().enumerate() {
            for exercise in &session.exercises {
                set.entry(exercise.clone()).or_insert(index);
            }
        }
        let mut covered: Vec<&str> = Vec::new();
        for (index, session) in sessions.iter().enumerate() {
            let at = format!("course-paths.md, {path}, session {}", session.number);
            covered.extend(session.chapters.iter().map(String::as_str));
            for chapter in &session.chapters {
                if count(chapter) > 0
                    && !session.exercises.iter().any(|(set_chapter, _)| set_chapter == chapter)
                {
                    problems.push(format!(
                        "{at}: covers {chapter} but sets none of its {} exercises",
                        count(chapter)
                    ));
                }
            }
            for (chapter, number) in &session.exercises {
                if *number > count(chapter) {
                    problems.push(format!("{at}: sets {chapter} exercise {number}, which does not exist"));
                    continue;
                }
                if !covered.contains(&chapter.as_str()) {
                    problems.push(format!(
                        "{at}: sets {chapter} exercise {number} before a session covers {chapter}"
                    ));
                }
                let exercise =
                    all.iter().find(|exercise| &exercise.chapter == chapter && exercise.number == *number);
                for (needed_chapter, needed) in exercise_references(exercise.unwrap(), &all) {
                    match set.get(&(needed_chapter.clone(), needed)) {
                        Some(&when) if when <= index => {}
                        Some(&when) => problems.push(format!(
                            "{at}: sets {chapter} exercise {number}, which builds on {needed_chapter} exercise \
                             {needed}, set only in session {}",
                            sessions[when].number
                        )),
                        None => problems.push(format!(
                            "{at}: sets {chapter} exercise {number}, which builds on {needed_chapter} exercise \
                             {needed}, which the path never sets"
                        )),
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A window bound or a value as the exercises write them: a whole number, `∞` for the crate's
/// infinity, `∞/2` for half of it, followed by `+k` or `−k` (`∞/2+1`, `−∞+1`).
fn exercise_number(text: &str) -> Option<i64> {
    let text = text.replace('−', "-").replace('*', "");
    let text = text.trim();
    let infinity = i64::from(nullwindow::value::INFINITY);
    let (sign, rest) = text.strip_prefix('-').map_or((1, text), |rest| (-1, rest));
    let (base, rest) = if let Some(rest) = rest.strip_prefix("∞/2") {
        (infinity / 2, rest)
    } else if let Some(rest) = rest.strip_prefix('∞') {
        (infinity, rest)
    } else {
        return text.parse().ok();
    };
    let offset = if rest.is_empty() { 0 } else { rest.strip_prefix('+').unwrap_or(rest).parse().ok()? };
    Some(sign * base + offset)
}

/// The rows of a trace's table output: path, alpha, beta and result of each record.
fn trace_rows(command: &str) -> Vec<(String, i64, i64, i64)> {
    let args: Vec<&str> = command.split_whitespace().skip(1).collect();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_nullwindow"))
        .args(&args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{command}: {}", String::from_utf8_lossy(&output.stderr));
    let bound = |word: &str| match word {
        "-inf" => Some(-i64::from(nullwindow::value::INFINITY)),
        "+inf" => Some(i64::from(nullwindow::value::INFINITY)),
        word => word.parse().ok(),
    };
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .skip(1)
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            Some((
                fields.get(2)?.to_string(),
                bound(fields.get(5)?)?,
                bound(fields.get(6)?)?,
                bound(fields.get(7)?)?,
            ))
        })
        .collect()
}

/// Every exercise's answer agrees with the commands it gives to check it: each row of a table of
/// windows and results (or of nodes and minimax values) is a record that one of the answer's
/// `nullwindow trace` commands prints, so that an answer's numbers and its checks cannot drift
/// apart.
#[test]
fn every_exercise_answer_is_what_its_check_commands_print() {
    let directory = book().join("figures/exercises");
    let mut checked = 0;
    for entry in std::fs::read_dir(&directory).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with("-given.md") || name == "conventions.md" {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let commands: Vec<&str> = text
            .lines()
            .filter(|line| line.starts_with("nullwindow trace ") && line.contains("--output table"))
            .collect();
        let Some(header) = text.lines().find(|line| line.starts_with('|')) else { continue };
        let columns: Vec<&str> = header.split('|').map(str::trim).collect();
        let column = |name: &str| columns.iter().position(|column| *column == name);
        let (node, window) = (column("node").or_else(|| column("call")), column("window"));
        let Some(value) = column("returns").or_else(|| column("minimax value").filter(|_| window.is_none()))
        else {
            continue;
        };
        if commands.is_empty() {
            continue;
        }
        let printed: Vec<(String, i64, i64, i64)> =
            commands.iter().flat_map(|command| trace_rows(command)).collect();
        // The rows of the first table, the one whose header was read.
        let rows =
            text.lines().skip_while(|line| !line.starts_with('|')).take_while(|line| line.starts_with('|'));
        for row in rows.skip(2) {
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            let at = node.map_or("[]".to_owned(), |node| cells[node].trim_matches('`').to_owned());
            let window = window.map(|window| {
                let (alpha, beta) = cells[window]
                    .trim_matches(|c| c == '(' || c == ')')
                    .split_once(", ")
                    .unwrap_or_else(|| panic!("{name}: {row}"));
                let bound = |text: &str| exercise_number(text).unwrap_or_else(|| panic!("{name}: {row}"));
                (bound(alpha), bound(beta))
            });
            let result = exercise_number(cells[value]).unwrap_or_else(|| panic!("{name}: {row}"));
            let found = printed.iter().any(|(path, alpha, beta, printed_result)| {
                *path == at
                    && *printed_result == result
                    && window.is_none_or(|window| window == (*alpha, *beta))
            });
            assert!(found, "{name}: no check command prints the row {row}\n(commands: {commands:?})");
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} rows checked: are the tables still found?");
}
