//! The book's figures and measured tables, drawn by the crate itself.
//!
//! `cargo run --example figures` writes what [`all`] returns into `book/src/figures/`, and the book's
//! test (`tests/suite/book.rs`) compiles this same module and fails when a committed figure differs
//! from what it draws now, so a change to a search that moves a figure cannot go unnoticed.
//!
//! The pieces, one job each:
//!
//! * `svg`: the SVG writer, written by hand (a few elements, fixed number formatting) so that the
//!   output is the same byte for byte on every platform and needs no tool to render;
//! * `labels`: values, windows and counts as the book's text writes them;
//! * `record`: the engine's search of the teaching tree, node by node and pass by pass;
//! * `layout`: where each node of a tree figure stands;
//! * `panel`: one tree as one search left it, and the legend of its marks;
//! * `trees`: the figures of the teaching tree (minimax values, each driver's search, SSS* order);
//! * `bounds`: the MTD drivers' bounds, pass by pass;
//! * `leaves`: leaves against the minimal tree across depths, figure and table;
//! * `tables`: the other measured tables of the text;
//! * `proofs`: what the oracle's proofs of an engine's claim ask, against the minimal tree and the
//!   unfolding;
//! * `steps`: a search of a small tree node by node, engine or literal translation;
//! * `worked`: the worked traces of the text, node by node;
//! * `exercises`: the exercises' data and answers, in `exercises/`;
//! * `research`: Plaat et al.'s comparison with aspiration NegaScout on Connect Four and tic-tac-toe,
//!   too slow for a debug build, so not part of [`all`]: `cargo run --release --example figures --
//!   research` writes it, and the book's test recomputes only its cheap depths.

mod bounds;
mod exercises;
mod labels;
mod layout;
mod leaves;
mod panel;
mod proofs;
mod record;
// The generator uses its measuring half, the book's test its checking half.
#[allow(dead_code)]
pub mod research;
mod steps;
mod svg;
mod tables;
mod trees;
mod worked;

use nullwindow::search::Algorithm;
use nullwindow::tree::Tree;
use nullwindow::tree::examples::TEACHING_TREE;
use nullwindow::tree::synthetic::Model;

/// Every figure and generated table: its file name under `book/src/figures/` (with the subfolder, if
/// it is in one) and its contents.
pub fn all() -> Vec<(String, String)> {
    let tree: Tree = TEACHING_TREE.parse().expect("the teaching tree parses");
    let mut files = vec![("teaching-tree.svg".to_owned(), trees::minimax_tree_figure(&tree))];
    for algorithm in Algorithm::ALL {
        files.push((format!("tree-{}.svg", algorithm.name()), trees::searched_tree_figure(&tree, algorithm)));
    }
    files.push(("sss-order.svg".to_owned(), trees::sss_order_figure(&tree)));
    files.push(("mtd-bounds.svg".to_owned(), bounds::bounds_figure()));
    for model in [Model::Incremental, Model::Independent] {
        let measured = leaves::leaves_by_depth(model);
        files.push((format!("leaves-{model}.svg"), leaves::leaves_figure(&measured)));
        files.push((format!("leaves-{model}.md"), leaves::leaves_table(&measured)));
    }
    files.push(("minimal-tree.md".to_owned(), tables::minimal_tree_table()));
    files.push(("enhancements.md".to_owned(), tables::enhancements_table()));
    files.push(("passes.md".to_owned(), tables::passes_table()));
    files.push(("literal-vs-engine.md".to_owned(), tables::literal_table()));
    files.push(("proof-costs.md".to_owned(), proofs::proof_costs_table()));
    files.push(("worked-alphabeta.md".to_owned(), worked::alphabeta_table(&tree)));
    files.push(("worked-mtdf-pass.md".to_owned(), worked::mtdf_pass_table(&tree)));
    files.extend(exercises::all());
    // Written as JSON lines, which the library does with its `serde` feature.
    #[cfg(feature = "serde")]
    files.push((OWN_TRACE.to_owned(), own_trace_example()));
    files
}

/// The file of the trace the viewer's own-trace form starts with.
#[cfg_attr(not(feature = "serde"), allow(dead_code))] // the book's test names it without the feature
pub const OWN_TRACE: &str = "format-example-mtdf.jsonl";

/// The trace the viewer's own-trace form starts with: `nullwindow trace
/// testdata/trees/format-example.tree --algo mtdf --on both`, made by the same library calls.
#[cfg(feature = "serde")]
fn own_trace_example() -> String {
    use nullwindow::driver::{SearchParams, capped_depth};
    use nullwindow::game::Game;
    use nullwindow::oracle::record::{Recorder, TreeNames, When, write_jsonl};
    use nullwindow::registry::Driver;

    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/trees/format-example.tree"),
    )
    .expect("the format example is in the corpus");
    let tree: Tree = text.parse().expect("the format example parses");
    let params =
        SearchParams { depth: capped_depth(&tree, &tree.root(), u32::MAX), ..SearchParams::default() };
    let mut recorder = Recorder::new(&tree);
    let _ = Driver::Mtdf.run_observed(&tree, &params, &mut recorder);
    recorder
        .records_named(When::Both, &TreeNames::new(None))
        .iter()
        .map(|record| write_jsonl(record) + "\n")
        .collect()
}
