//! The book cannot drift: every chapter in `SUMMARY.md` exists and every chapter file is listed; every
//! `{{#include}}` names a file that exists and an anchor (or line range) that exists in it; and every
//! figure is what the crate draws today. mdBook itself builds a page with a dangling include without
//! an error, so these tests are what catch one.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

// The drawing code of `cargo run --example figures`, compiled here too so that a stale figure fails.
#[path = "../../examples/figures/draw.rs"]
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
        for directive in text.split("{{#include ").skip(1) {
            let target = directive.split("}}").next().unwrap().trim();
            let (path, spec) = target.split_once(".rs:").map_or_else(
                || {
                    target
                        .split_once(".snap:")
                        .map_or((target.to_owned(), None), |(p, s)| (format!("{p}.snap"), Some(s)))
                },
                |(p, s)| (format!("{p}.rs"), Some(s)),
            );
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
    for entry in std::fs::read_dir(&figures).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(
            names.contains(name.as_str()),
            "book/src/figures/{name} is not drawn by `cargo run --example figures`"
        );
    }
}
