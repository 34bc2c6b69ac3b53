//! One search of a synthetic tree by the engine or by the `minimax` crate, to count the
//! instructions each spends per node (the book's "Measuring" chapter):
//!
//! ```text
//! cargo build --release --example per_node
//! valgrind --tool=callgrind --callgrind-out-file=cg.out \
//!     target/release/examples/per_node nullwindow-pvs incremental 8 11
//! ```
//!
//! Searchers: `nullwindow-pvs`, `nullwindow-mtdf` (iterative deepening, a table of 2^20 entries
//! kept out of the nodes just above the leaves, every ordering enhancement on: the scale
//! benchmark's engine), `minimax-pvs`, `minimax-mtdf` (the `minimax` crate 0.6 with a table of 32
//! MiB), and `none`, which builds the tree and searches nothing: the baseline to subtract. An
//! optional fifth argument sets the engine's `table_min_depth` (2 by default; 1 puts the table at
//! every interior node, as the `minimax` crate does); an optional sixth gives both searchers a
//! table of that many 16-byte entries' bytes (the engine ENTRIES entries, the crate ENTRIES x 16
//! bytes, which it rounds up to ENTRIES entries of its own: a table that fits the caches with
//! 16384). Prints the value and the nodes searched.

use std::process::ExitCode;

use nullwindow::driver::SearchParams;
use nullwindow::search::{Algorithm, Engine};
use nullwindow::tree::synthetic::{Model, SyntheticConfig, SyntheticTree};

#[path = "../benches/common/minimax_crate.rs"]
mod minimax_crate;

const USAGE: &str = "usage: per_node nullwindow-pvs|nullwindow-mtdf|minimax-pvs|minimax-mtdf|none \
                     incremental|independent WIDTH DEPTH [TABLE_MIN_DEPTH [ENTRIES]]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(([searcher, model, width, depth], optional)) = args.split_first_chunk::<4>() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let (table_min_depth, entries) = match optional {
        [] => ("2", None),
        [table_min_depth] => (table_min_depth.as_str(), None),
        [table_min_depth, entries] => (table_min_depth.as_str(), Some(entries.as_str())),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let model = match model.as_str() {
        "incremental" => Model::Incremental,
        "independent" => Model::Independent,
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let (Ok(width), Ok(depth), Ok(table_min_depth), Ok(entries)) =
        (width.parse(), depth.parse(), table_min_depth.parse(), entries.map(str::parse::<usize>).transpose())
    else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let crate_table_bytes = entries.map_or(minimax_crate::TABLE_BYTES, |entries| entries.saturating_mul(16));
    let tree = match SyntheticTree::new(SyntheticConfig { width, depth, model, ..Default::default() }) {
        Ok(tree) => tree,
        Err(error) => {
            eprintln!("per_node: {error}");
            return ExitCode::from(2);
        }
    };
    let params = SearchParams {
        tt_entries: entries.unwrap_or(1 << 20),
        table_min_depth,
        iterative_deepening: true,
        ..SearchParams::default()
    };
    let engine = |algorithm| {
        let result = Engine::new(&params).search(&tree, algorithm, &params, |_| {});
        (result.value, result.counts.nodes.to_string())
    };
    let (value, nodes) = match searcher.as_str() {
        "nullwindow-pvs" => engine(Algorithm::Pvs),
        "nullwindow-mtdf" => engine(Algorithm::Mtdf),
        "minimax-pvs" | "minimax-mtdf" => {
            let (value, line) =
                minimax_crate::minimax_crate(&tree, searcher == "minimax-mtdf", crate_table_bytes);
            // "Explored N nodes. …": the first number.
            let nodes = line.split(|c: char| !c.is_ascii_digit()).find(|part| !part.is_empty());
            (value, nodes.unwrap_or("0").to_owned())
        }
        "none" => (0, "0".to_owned()),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    println!("{searcher}: value {value}, nodes {nodes}");
    ExitCode::SUCCESS
}
