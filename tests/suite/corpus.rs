//! One corpus, many engines: every tree in `testdata/trees/` through every exact driver.
//!
//! Each file states its expected value in a header comment, `# value: V` (and optionally
//! `# depth: D` for a depth-limited search), so the corpus checks the oracle too.

use std::path::Path;

use nullwindow::oracle::solve;
use nullwindow::registry::{Driver, SearchParams};
use nullwindow::tree::{Tree, gtree, text};

fn header(source: &str, key: &str) -> Option<i64> {
    source.lines().find_map(|line| line.strip_prefix(&format!("# {key}:")).map(|v| v.trim().parse().unwrap()))
}

#[test]
fn every_exact_driver_finds_the_stated_value_of_every_corpus_tree() {
    let directory = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/trees");
    let mut checked = 0;
    for entry in std::fs::read_dir(&directory).unwrap() {
        let path = entry.unwrap().path();
        let source = std::fs::read_to_string(&path).unwrap();
        let tree: Tree = if path.extension().is_some_and(|e| e == "gtree") {
            gtree::parse(&source).unwrap()
        } else {
            text::parse(&source).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        };
        let expected =
            header(&source, "value").unwrap_or_else(|| panic!("{}: no '# value:' header", path.display()));
        let depth = header(&source, "depth").map_or(u32::MAX, |d| d as u32);
        let report =
            solve(&tree, &Driver::select("all").unwrap(), &SearchParams { depth, ..SearchParams::default() });
        assert_eq!(i64::from(report.value), expected, "{}", path.display());
        for result in &report.results {
            assert_eq!(
                result.outcome.value,
                report.value,
                "{} on {}",
                result.driver.info().name,
                path.display()
            );
        }
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} corpus trees");
}
