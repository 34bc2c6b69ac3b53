//! The exercises at the end of the chapters: for each, what the question is given (a tree, a first
//! guess) and its answer, both computed here from real searches, so that an answer cannot drift from
//! what the crate does. A chapter writes the question and includes `exercises/CHAPTER-N-given.md`
//! (where there is one) and, inside a `<details>` block, `exercises/CHAPTER-N.md`.
//!
//! One file per chapter holds that chapter's exercises, in the order the chapter asks them; this
//! file holds what they share: the corpus trees, how answers name nodes and print passes, and the
//! searches they record.
//!
//! The trees are files of the corpus (`testdata/trees/exercise-*.tree`), so that the commands an
//! answer gives a reader run as written, and the corpus test checks every exact driver on them too.

mod alphabeta;
mod aspiration;
mod bisection;
mod bound_array;
mod iterative_deepening;
mod listings;
mod memory;
#[path = "minimax.rs"]
mod minimax_chapter;
mod mtdf;
mod null_window;
mod pvs;
mod sss_dual;

use std::fmt::Write as _;

use nullwindow::compare::minimal_tree_leaves;
use nullwindow::driver::observe::Probe;
use nullwindow::driver::{Pass, SearchParams};
use nullwindow::game::{Game, Player};
use nullwindow::literal::verhelst::ASPIRATION_WINDOW;
use nullwindow::reference::{minimax, negamax};
use nullwindow::registry::Driver;
use nullwindow::search::{Algorithm, Engine};
use nullwindow::theory::node_types::{self, NodeType};
use nullwindow::tree::synthetic::{SyntheticConfig, SyntheticTree};
use nullwindow::tree::{NodeId, Tree, text};
use nullwindow::value::{Bound, INFINITY, Value};

use super::labels::{mover, path as at, plural, show, window};
use super::record::figure_params;
use super::steps::{Step, Steps, engine_steps, literal_steps, paths};

/// A tree of the corpus that exercises use: its file, for the commands, and its text.
struct Example {
    file: &'static str,
    source: &'static str,
}

impl Example {
    fn tree(&self) -> Tree {
        self.source.parse().unwrap_or_else(|e| panic!("{}: {e}", self.file))
    }

    /// The tree as a question gives it.
    fn given(&self) -> String {
        format!(
            "The tree (`{}`), MAX to move at the root:\n\n```text\n{}\n```\n",
            self.file,
            text::print(&self.tree())
        )
    }
}

macro_rules! example {
    ($name:ident, $file:literal) => {
        const $name: Example = Example {
            file: concat!("testdata/trees/", $file),
            source: include_str!(concat!("../../../../testdata/trees/", $file)),
        };
    };
}

example!(TWO_PLY, "exercise-two-ply.tree");
example!(TWO_PLY_ORDERED, "exercise-two-ply-ordered.tree");
example!(THREE_PLY, "exercise-three-ply.tree");
example!(RESEARCH, "exercise-research.tree");
example!(SHALLOW_RESEARCH, "exercise-shallow-research.tree");
example!(BISECTION, "exercise-bisection.tree");
example!(BEST_FIRST, "exercise-best-first.tree");
example!(BOUNDS, "exercise-bounds.tree");
example!(IRREGULAR, "exercise-irregular.tree");
example!(TEACHING, "teaching.tree");

/// One exercise: what its question is given, if the chapter includes that, and its answer.
struct Exercise {
    given: Option<String>,
    answer: String,
}

/// Every file of the exercises: `exercises/conventions.md`, and for each chapter's exercises in order
/// `exercises/CHAPTER-N.md` (the answer) and `exercises/CHAPTER-N-given.md` (the question's data).
pub(super) fn all() -> Vec<(String, String)> {
    let chapters: [(&str, Vec<Exercise>); 12] = [
        ("minimax", minimax_chapter::exercises()),
        ("listings", listings::exercises()),
        ("alphabeta", alphabeta::exercises()),
        ("memory", memory::exercises()),
        ("null-window", null_window::exercises()),
        ("mtdf", mtdf::exercises()),
        ("bound-array", bound_array::exercises()),
        ("bisection", bisection::exercises()),
        ("sss-dual", sss_dual::exercises()),
        ("pvs", pvs::exercises()),
        ("aspiration", aspiration::exercises()),
        ("iterative-deepening", iterative_deepening::exercises()),
    ];
    let mut files = vec![("exercises/conventions.md".to_owned(), conventions())];
    for (chapter, exercises) in chapters {
        for (index, exercise) in exercises.into_iter().enumerate() {
            let number = index + 1;
            if let Some(given) = exercise.given {
                files.push((format!("exercises/{chapter}-{number}-given.md"), given));
            }
            files.push((format!("exercises/{chapter}-{number}.md"), exercise.answer));
        }
    }
    files
}

/// How the exercises name nodes and settings, included at the top of each chapter's exercises.
fn conventions() -> String {
    let params = figure_params();
    assert!(!params.killers && !params.history, "the exercises search as the figures do");
    "Nodes are named by their path from the root, as `nullwindow trace` prints them: `[]` is the \
     root, `[1]` its second child, `[1,0]` that child's first child. Windows and values are from \
     MAX's side, ∞ is the crate's `INFINITY`, and a search is fail-soft unless the exercise says \
     otherwise. The engine's drivers search as in the figures, with killer moves and the history \
     heuristic off (`--no-killers --no-history` on the command line), so they try children left to \
     right unless the table holds a best move. Each answer is computed by the crate, and the \
     commands in it print the same numbers.\n"
        .to_owned()
}

// Formatting.

/// A table entry in words: `upper bound 2`, `exact value 3`.
fn entry(bound: Bound, value: Value) -> String {
    match bound {
        Bound::Exact => format!("exact value {}", show(value)),
        bound => format!("{} bound {}", bound.name(), show(value)),
    }
}

/// A leaf named by its path and value.
fn leaf(tree: &Tree, path: &[u32]) -> String {
    let node = tree.node_at(path).expect("a path of the tree");
    format!("{} ({})", at(path), show(tree.evaluation(node)))
}

/// A list in prose: `a`, `a and b`, `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => "none".to_owned(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// A code block of commands for the reader to run (the book's test runs them too).
fn commands(lines: &[String]) -> String {
    format!("\n```sh\n{}\n```\n", lines.join("\n"))
}

/// `nullwindow trace` of an engine driver, as the exercises search: node by node, in entry order.
fn engine_trace(example: &Example, algorithm: Algorithm, options: &str) -> String {
    format!(
        "nullwindow trace {} --algo {} --no-killers --no-history{options} --on entry --output table",
        example.file,
        algorithm.name()
    )
}

/// `nullwindow trace` of a literal driver, node by node, in entry order.
fn literal_trace(example: &Example, driver: Driver, options: &str) -> String {
    format!("nullwindow trace {} --algo {driver}{options} --on entry --output table", example.file)
}

/// What a pass proves about the root's value.
fn proves(pass: &Pass) -> String {
    match Bound::of_result(pass.result, pass.alpha, pass.beta) {
        Bound::Lower => format!("at least {}", show(pass.result)),
        Bound::Upper => format!("at most {}", show(pass.result)),
        Bound::Exact => format!("exactly {}", show(pass.result)),
    }
}

/// The passes of a driver: each window, its result, what that proves and the bounds after it.
fn pass_table(passes: &[Pass]) -> String {
    let mut out = String::from(
        "| pass | window | returns | so the value is | bounds after the pass |\n|---:|---|---:|---|---|\n",
    );
    let mut bounds = (-INFINITY, INFINITY);
    for (index, pass) in passes.iter().enumerate() {
        bounds = pass.narrow(bounds);
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | [{}, {}] |",
            index + 1,
            window(pass.alpha, pass.beta),
            show(pass.result),
            proves(pass),
            show(bounds.0),
            show(bounds.1)
        );
    }
    out
}

fn value_of(tree: &Tree, node: NodeId) -> Value {
    minimax::search(tree, &node, u32::MAX).value
}

fn engine(tree: &Tree, algorithm: Algorithm, first_guess: Option<Value>) -> Steps {
    engine_steps(tree, algorithm, &SearchParams { first_guess, ..figure_params() })
}

fn literal(tree: &Tree, driver: Driver, first_guess: Option<Value>) -> Steps {
    literal_steps(tree, driver, &SearchParams { first_guess, ..SearchParams::default() })
}

/// Every node of `tree` with its path, in preorder.
fn preorder(tree: &Tree) -> Vec<(Vec<u32>, NodeId)> {
    let mut nodes: Vec<(Vec<u32>, NodeId)> =
        paths(tree).into_iter().enumerate().map(|(index, path)| (path, NodeId(index as u32))).collect();
    nodes.sort();
    nodes
}

fn children_paths(tree: &Tree, path: &[u32]) -> Vec<Vec<u32>> {
    let node = tree.node_at(path).expect("a path of the tree");
    (0..tree.children(node).len() as u32)
        .map(|index| {
            let mut child = path.to_vec();
            child.push(index);
            child
        })
        .collect()
}

// Minimax.

/// Bounds after each of `passes`, from `(−∞, +∞)`.
fn bounds_after(passes: &[Pass]) -> Vec<(Value, Value)> {
    passes
        .iter()
        .scan((-INFINITY, INFINITY), |bounds, pass| {
            *bounds = pass.narrow(*bounds);
            Some(*bounds)
        })
        .collect()
}
