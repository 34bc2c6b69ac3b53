//! The exercises at the end of the chapters: for each, what the question is given (a tree, a first
//! guess) and its answer, both computed here from real searches, so that an answer cannot drift from
//! what the crate does. A chapter writes the question and includes `exercises/CHAPTER-N-given.md`
//! (where there is one) and, inside a `<details>` block, `exercises/CHAPTER-N.md`.
//!
//! The trees are files of the corpus (`testdata/trees/exercise-*.tree`), so that the commands an
//! answer gives a reader run as written, and the corpus test checks every exact driver on them too.

use std::fmt::Write as _;

use nullwindow::compare::minimal_tree_leaves;
use nullwindow::driver::{Pass, SearchParams};
use nullwindow::game::{Game, Player};
use nullwindow::literal::verhelst::ASPIRATION_WINDOW;
use nullwindow::reference::{minimax, negamax};
use nullwindow::registry::Driver;
use nullwindow::search::trace::Probe;
use nullwindow::search::{Algorithm, Engine};
use nullwindow::theory::node_types::{self, NodeType};
use nullwindow::tree::synthetic::{SyntheticConfig, SyntheticTree};
use nullwindow::tree::{NodeId, Tree, text};
use nullwindow::value::{Bound, INFINITY, Value};

use super::labels::{plural, show, window};
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
            source: include_str!(concat!("../../../testdata/trees/", $file)),
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
        ("minimax", vec![minimax_values(), negamax_values(), depth_limited_values()]),
        ("listings", vec![inexact_listings(), negamax_windows(), table_without_depth_on_a_tree()]),
        ("alphabeta", vec![skipped_leaves(), bounds_and_values(), best_move_first(), critical_leaves()]),
        (
            "memory",
            vec![
                stored_bounds(),
                null_windows_store_no_exact_value(),
                table_answers(),
                bound_stored_as_exact(),
            ],
        ),
        ("null-window", vec![two_tests(), leaves_of_a_test(), what_two_tests_prove()]),
        ("mtdf", vec![passes_from_below(), passes_from_above(), passes_from_the_value(), fail_hard_passes()]),
        (
            "bound-array",
            vec![bound_array_by_hand(), bound_array_from_plus_infinity(), bound_array_from_minus_infinity()],
        ),
        ("bisection", vec![rounding_the_average(), bisection_stops(), engine_bisection()]),
        ("sss-dual", vec![sss_passes(), dual_passes(), stockman_order(), sss_dominates_alpha_beta()]),
        ("pvs", vec![pvs_research(), negascout_near_the_leaves(), pvs_leaves_twice()]),
        ("aspiration", vec![aspiration_fails_low(), aspiration_fails_high(), full_window_research()]),
        (
            "iterative-deepening",
            vec![mtdf_iterations(), what_deepening_costs(), printed_iterative_deepening()],
        ),
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

/// A path as the trace prints it, in code.
fn at(path: &[u32]) -> String {
    let indices: Vec<String> = path.iter().map(ToString::to_string).collect();
    format!("`[{}]`", indices.join(","))
}

/// Who moves at `node`, or that it is a leaf.
fn mover(tree: &Tree, node: NodeId) -> &'static str {
    if tree.is_leaf(node) {
        "leaf"
    } else {
        match tree.player(node) {
            Player::Max => "MAX",
            Player::Min => "MIN",
        }
    }
}

/// What a result says about the node's value, by the fail-soft postcondition.
fn reading(tree: &Tree, step: &Step) -> &'static str {
    if tree.is_leaf(step.node) {
        return "the leaf's value";
    }
    match step.bound() {
        Bound::Exact => "exact",
        Bound::Upper => "upper bound (fails low)",
        Bound::Lower => "lower bound (fails high)",
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

fn minimax_values() -> Exercise {
    let tree = IRREGULAR.tree();
    let mut answer = String::from("| node | to move | minimax value |\n|---|---|---:|\n");
    for (path, node) in preorder(&tree) {
        if !tree.is_leaf(node) {
            let _ = writeln!(
                answer,
                "| {} | {} | {} |",
                at(&path),
                mover(&tree, node),
                show(value_of(&tree, node))
            );
        }
    }
    let children: Vec<String> = children_paths(&tree, &[])
        .iter()
        .map(|path| show(value_of(&tree, tree.node_at(path).expect("a child"))))
        .collect();
    let _ = writeln!(
        answer,
        "\nThe root takes the largest of its children's values, {}: **{}**. A leaf that stands higher \
         up than the others is simply a position where the game ended earlier. `nullwindow trace` \
         with `--algo minimax` lists every node with its value:",
        and_list(&children),
        show(value_of(&tree, tree.root_id()))
    );
    answer.push_str(&commands(&[format!(
        "nullwindow trace {} --algo minimax --on entry --output table",
        IRREGULAR.file
    )]));
    Exercise { given: Some(IRREGULAR.given()), answer }
}

fn negamax_values() -> Exercise {
    let tree = IRREGULAR.tree();
    let mut answer = String::from(
        "| child of the root | to move | value from MAX's side | value from the side to move (negamax) |\n|---|---|---:|---:|\n",
    );
    let mut negated = Vec::new();
    for path in children_paths(&tree, &[]) {
        let node = tree.node_at(&path).expect("a child");
        let for_max = negamax::search(&tree, &node, u32::MAX).value;
        assert_eq!(for_max, value_of(&tree, node), "negamax and minimax agree");
        let for_mover = tree.to_move(&node).perspective(for_max);
        negated.push(format!("−({})", show(for_mover)));
        let _ = writeln!(
            answer,
            "| {} | {} | {} | {} |",
            at(&path),
            mover(&tree, node),
            show(for_max),
            show(for_mover)
        );
    }
    let _ = writeln!(
        answer,
        "\nEvery child of the root has MIN to move, so its negamax value is its minimax value negated. \
         The root negates each child's value and takes the largest: max({}) = **{}**, the same as \
         minimax, from MAX's side because MAX moves at the root.",
        negated.join(", "),
        show(value_of(&tree, tree.root_id()))
    );
    answer.push_str(&commands(&[format!("nullwindow solve {} --algo minimax,negamax", IRREGULAR.file)]));
    Exercise { given: None, answer }
}

fn depth_limited_values() -> Exercise {
    let tree = IRREGULAR.tree();
    let children = children_paths(&tree, &[]);
    let mut answer = String::from("| depth |");
    for path in &children {
        let _ = write!(answer, " {} |", at(path));
    }
    answer.push_str(" root |\n|---:|");
    answer.push_str(&"---:|".repeat(children.len() + 1));
    answer.push('\n');
    let mut lines = Vec::new();
    for depth in 1..=tree.height() {
        let _ = write!(answer, "| {depth} |");
        for path in &children {
            let node = tree.node_at(path).expect("a child");
            let _ = write!(answer, " {} |", show(minimax::search(&tree, &node, depth - 1).value));
        }
        let _ = writeln!(answer, " {} |", show(minimax::search(&tree, &tree.root(), depth).value));
        lines.push(format!("nullwindow solve {} --depth {depth} --algo minimax", IRREGULAR.file));
    }
    answer.push_str(
        "\nA child of the root is searched one ply less deep than the root. An interior node where \
         the depth runs out is scored by its evaluation, 0 for every interior node of this format, so \
         a shallow search sees 0 wherever the tree goes on below its horizon, and only the last \
         depth, the tree's height, gives the value of the whole tree.\n",
    );
    answer.push_str(&commands(&lines));
    Exercise { given: None, answer }
}

// The published listings.

fn inexact_listings() -> Exercise {
    let mut answer = String::from("| driver | source | corrected driver |\n|---|---|---|\n");
    for driver in Driver::ALL.iter().filter(|driver| !driver.info().exact) {
        let corrected = Driver::from_name(&format!("{driver}-corrected"))
            .map_or_else(|| "none".to_owned(), |corrected| format!("`{corrected}`"));
        let _ = writeln!(answer, "| `{driver}` | {} | {corrected} |", driver.info().source);
    }
    answer.push_str(
        "\nA faithful translation of a listing that the tests show wrong is kept wrong, so that the \
         tests can show the bug and a reader can run it; it is marked inexact, which is what `all` \
         leaves out. Beside it stands a driver with the smallest change that makes it exact.\n",
    );
    answer.push_str(&commands(&["nullwindow algos".to_owned()]));
    Exercise { given: None, answer }
}

fn negamax_windows() -> Exercise {
    let tree = TWO_PLY.tree();
    let driver = Driver::KornilovAlphaBeta;
    let mut calls = Vec::new();
    let _ = driver.run_observed(&tree, &SearchParams::default(), &mut |call| calls.push(call.clone()));
    let steps = literal(&tree, driver, None);
    let mut answer = String::from(
        "| call | window passed, MIN's side | returns, MIN's side | the trace's window, MAX's side | the trace's result |\n|---|---|---:|---|---:|\n",
    );
    for path in children_paths(&tree, &[]) {
        let node = tree.node_at(&path).expect("a child");
        let call = calls.iter().find(|call| call.position == node).expect("every child is searched");
        assert_eq!(call.perspective, nullwindow::driver::Perspective::Mover);
        let step = steps.steps.iter().find(|step| step.node == node).expect("the same call");
        assert_eq!((step.alpha, step.beta, step.result), (-call.beta, -call.alpha, -call.result));
        let _ = writeln!(
            answer,
            "| {} | {} | {} | {} | {} |",
            at(&path),
            window(call.alpha, call.beta),
            show(call.result),
            window(step.alpha, step.beta),
            show(step.result)
        );
    }
    answer.push_str(
        "\nThe listing passes a child the root's window negated and swapped, `(−β, −α)`, after raising \
         `α` to the best score so far, and negates what the child returns. The trace turns every \
         record to MAX's side the same way, so that a negamax listing and a minimax one print alike.\n",
    );
    answer.push_str(&commands(&[literal_trace(&TWO_PLY, driver, "")]));
    Exercise { given: Some(TWO_PLY.given()), answer }
}

fn table_without_depth_on_a_tree() -> Exercise {
    let tree = THREE_PLY.tree();
    let printed = literal(&tree, Driver::PlaatMtdf, None);
    let corrected = literal(&tree, Driver::PlaatMtdfCorrected, None);
    assert_eq!(printed.passes, corrected.passes);
    assert_eq!(printed.steps.len(), corrected.steps.len());
    assert_eq!(printed.value, value_of(&tree, tree.root_id()));
    let leaves = printed.leaves(&tree).count();
    let mut answer = format!(
        "No. Both make the same passes, call `AlphaBetaWithMemory` {} times and evaluate {leaves} \
         leaves, and both return {}:\n\n",
        printed.steps.len(),
        show(printed.value)
    );
    answer.push_str(&pass_table(&printed.passes));
    answer.push_str(
        "\nThe printed table looks a node up without its depth, which goes wrong only when a bound \
         found at one depth answers a search of the same position at another: a position reached at \
         two depths (a transposition), or the next iteration of iterative deepening. In a tree \
         searched once, every node is met at one depth only, so the two tables hold the same entries.\n",
    );
    answer.push_str(&commands(&[format!(
        "nullwindow solve {} --algo plaat-mtdf,plaat-mtdf-corrected",
        THREE_PLY.file
    )]));
    Exercise { given: Some(THREE_PLY.given()), answer }
}

// Alpha-beta.

/// The cut-offs of a search, one line each: the node, its window, the child that cut it off, and
/// the children skipped.
fn cutoffs(tree: &Tree, steps: &[Step]) -> String {
    let mut out = String::new();
    for step in steps {
        let skipped = step.skipped(tree);
        if skipped.is_empty() {
            continue;
        }
        let last = *step.entered.last().expect("a cut-off node entered a child");
        let mut child = step.path.clone();
        child.push(last);
        let child_step = steps.iter().rev().find(|s| s.path == child).expect("the child's step");
        let skipped: Vec<String> = skipped
            .iter()
            .map(|&index| {
                let mut path = step.path.clone();
                path.push(index);
                at(&path)
            })
            .collect();
        let why = match tree.player(step.node) {
            Player::Min => format!(
                "MIN can hold MAX to at most {}, at or below α = {}, so MAX will not come here",
                show(step.result),
                show(step.alpha)
            ),
            Player::Max => format!(
                "MAX can get at least {}, at or above β = {}, so MIN will not come here",
                show(step.result),
                show(step.beta)
            ),
        };
        let _ = writeln!(
            out,
            "* {} ({}) is called with {}. Its child {} returns {}: {why}. It returns {} and skips {}.",
            at(&step.path),
            mover(tree, step.node),
            window(step.alpha, step.beta),
            at(&child),
            show(child_step.result),
            show(step.result),
            and_list(&skipped)
        );
    }
    out
}

fn skipped_leaves() -> Exercise {
    let tree = TWO_PLY.tree();
    let search = engine(&tree, Algorithm::AlphaBeta, None);
    let evaluated: Vec<Vec<u32>> = search.leaves(&tree).map(|step| step.path.clone()).collect();
    let all_leaves: Vec<Vec<u32>> =
        preorder(&tree).into_iter().filter(|(_, node)| tree.is_leaf(*node)).map(|(path, _)| path).collect();
    let skipped: Vec<String> =
        all_leaves.iter().filter(|path| !evaluated.contains(path)).map(|path| leaf(&tree, path)).collect();
    let mut answer = format!(
        "It evaluates {} of the {} leaves and never evaluates {}.\n\n",
        evaluated.len(),
        all_leaves.len(),
        and_list(&skipped)
    );
    answer.push_str(&cutoffs(&tree, &search.steps));
    answer.push_str(
        "\nThe first MIN node is searched with the full window and returns its exact value; from then \
         on MAX has that value for sure, and every later MIN node only has to show that it is no \
         better.\n",
    );
    answer.push_str(&commands(&[engine_trace(&TWO_PLY, Algorithm::AlphaBeta, "")]));
    Exercise { given: Some(TWO_PLY.given()), answer }
}

fn bounds_and_values() -> Exercise {
    let tree = BOUNDS.tree();
    let search = engine(&tree, Algorithm::AlphaBeta, None);
    let mut answer = String::from(
        "| node | to move | window | returns | by the postcondition | minimax value |\n|---|---|---|---:|---|---:|\n",
    );
    for step in search.steps.iter().filter(|step| !tree.is_leaf(step.node) && step.bound() != Bound::Exact) {
        let value = value_of(&tree, step.node);
        assert!(step.bound().holds(step.result, value), "the postcondition holds at {:?}", step.path);
        let _ = writeln!(
            answer,
            "| {} | {} | {} | {} | {} | {} |",
            at(&step.path),
            mover(&tree, step.node),
            window(step.alpha, step.beta),
            show(step.result),
            reading(&tree, step),
            show(value)
        );
    }
    assert!(
        search.steps.iter().any(|step| !tree.is_leaf(step.node) && step.result != value_of(&tree, step.node)),
        "a bound that is not the value"
    );
    let exact: Vec<String> = search
        .steps
        .iter()
        .filter(|step| !tree.is_leaf(step.node) && step.bound() == Bound::Exact)
        .map(|step| at(&step.path))
        .collect();
    let _ = writeln!(
        answer,
        "\nEvery other interior node it visits, {}, returns its exact value. Each bound lies on the \
         side of the true value the postcondition promises: an upper bound at or above it, a lower \
         bound at or below it. Compare the trace with minimax's, which lists every node's value:",
        and_list(&exact)
    );
    answer.push_str(&commands(&[
        engine_trace(&BOUNDS, Algorithm::AlphaBeta, ""),
        format!("nullwindow trace {} --algo minimax --on entry --output table", BOUNDS.file),
    ]));
    Exercise { given: Some(BOUNDS.given()), answer }
}

/// `tree` printed with the children of every node sorted best first for the player to move (ties
/// keep their order).
fn best_first(tree: &Tree, node: NodeId) -> String {
    if tree.is_leaf(node) {
        return show(tree.evaluation(node)).replace('−', "-");
    }
    let mut children: Vec<NodeId> = tree.children(node).to_vec();
    children.sort_by_key(|&child| {
        let value = value_of(tree, child);
        if tree.player(node) == Player::Max { -value } else { value }
    });
    let printed: Vec<String> = children.iter().map(|&child| best_first(tree, child)).collect();
    format!("({})", printed.join(" "))
}

fn best_move_first() -> Exercise {
    let tree = TWO_PLY.tree();
    let ordered = TWO_PLY_ORDERED.tree();
    assert_eq!(
        best_first(&tree, tree.root_id()),
        text::print(&ordered),
        "the ordered file is the tree, sorted"
    );
    let leaves = |tree: &Tree| engine(tree, Algorithm::AlphaBeta, None).leaves(tree).count();
    let (width, depth) = (tree.max_width(), tree.height());
    let minimal = minimal_tree_leaves(width, depth);
    assert_eq!(leaves(&ordered) as u128, minimal, "best move first, alpha-beta searches the minimal tree");
    let given = format!(
        "{}\nand the same tree with the best move first at every node (`{}`):\n\n```text\n{}\n```\n",
        TWO_PLY.given(),
        TWO_PLY_ORDERED.file,
        text::print(&ordered)
    );
    let answer = format!(
        "As given, alpha-beta evaluates {} leaves; with the best move first, {}. That is Knuth and \
         Moore's minimal tree: with width w = {width} and depth d = {depth}, w<sup>⌈d/2⌉</sup> + \
         w<sup>⌊d/2⌋</sup> − 1 = {} + {} − 1 = {minimal}. The first MIN node is searched in full (its \
         exact value proves \"at least\"), and every other MIN node is refuted by its first leaf.\n{}",
        leaves(&tree),
        leaves(&ordered),
        u128::from(width).pow(depth.div_ceil(2)),
        u128::from(width).pow(depth / 2),
        commands(&[
            format!("nullwindow solve {} --algo alphabeta --no-killers --no-history", TWO_PLY.file),
            format!("nullwindow solve {} --algo alphabeta --no-killers --no-history", TWO_PLY_ORDERED.file),
        ])
    );
    Exercise { given: Some(given), answer }
}

fn critical_leaves() -> Exercise {
    let (width, depth) = (2u32, 3u32);
    let given = format!(
        "A uniform tree of width {width} and depth {depth} (every interior node has {width} children, \
         every leaf is {depth} plies deep) whose best move comes first at every node.\n"
    );
    let mut answer = String::from("| leaf | Knuth and Moore's type |\n|---|---|\n");
    let mut critical = 0u128;
    for index in 0..width.pow(depth) {
        let path: Vec<u32> = (0..depth).rev().map(|level| index / width.pow(level) % width).collect();
        let kind = match node_types::classify(&path) {
            Some(NodeType::Pv) => "PV",
            Some(NodeType::Cut) => "CUT",
            Some(NodeType::All) => "ALL",
            None => "not critical: pruned",
        };
        critical += u128::from(node_types::classify(&path).is_some());
        let _ = writeln!(answer, "| {} | {kind} |", at(&path));
    }
    let minimal = minimal_tree_leaves(width, depth);
    assert_eq!(critical, minimal);
    let tree = SyntheticTree::new(SyntheticConfig {
        seed: 0,
        width,
        depth,
        ordering: 1.0,
        ..SyntheticConfig::default()
    })
    .expect("a valid configuration");
    let outcome = Driver::AlphaBeta.run(&tree, &SearchParams::default());
    assert_eq!(
        u128::from(outcome.counts.leaves),
        minimal,
        "alpha-beta evaluates exactly the critical leaves"
    );
    let _ = writeln!(
        answer,
        "\nWith 0 for the best child, a node is critical when every index at an even position of its \
         path (the second, the fourth, …) is 0, or every index at an odd position (the first, the \
         third, …) is 0: {critical} leaves, w<sup>⌈d/2⌉</sup> + w<sup>⌊d/2⌋</sup> − 1 = {minimal}. \
         MAX moves at the odd positions: the paths whose odd positions are 0 take MAX's best move \
         against every MIN reply and prove \"at least\"; those whose even positions are 0 take MIN's \
         best reply to every MAX move and prove \"at most\"; the principal variation belongs to both. Alpha-beta on such a tree evaluates exactly these \
         leaves; `compare` counts them on synthetic trees:"
    );
    answer.push_str(&commands(&[format!(
        "nullwindow compare --width {width} --depth {depth} --ordering 1 --seeds 1 --algo alphabeta"
    )]));
    Exercise { given: Some(given), answer }
}

// Transposition tables.

fn stored_bounds() -> Exercise {
    let tree = TWO_PLY.tree();
    let search = engine(&tree, Algorithm::AlphaBeta, None);
    let mut answer =
        String::from("| node | to move | window | returns | stored as |\n|---|---|---|---:|---|\n");
    for step in search.steps.iter().filter(|step| !tree.is_leaf(step.node)) {
        let stored = step.stored.expect("every interior node of one search is stored");
        assert_eq!(stored, step.bound(), "stored relative to the window searched");
        let _ = writeln!(
            answer,
            "| {} | {} | {} | {} | {} |",
            at(&step.path),
            mover(&tree, step.node),
            window(step.alpha, step.beta),
            show(step.result),
            entry(stored, step.result)
        );
    }
    answer.push_str(
        "\nEach result is stored relative to the window the node was searched with: at or below α an \
         upper bound, at or above β a lower bound, strictly inside the window the exact value. The \
         engine stores no leaves: it evaluates them again, which costs less than a probe.\n",
    );
    answer.push_str(&commands(&[engine_trace(&TWO_PLY, Algorithm::AlphaBeta, "")]));
    Exercise { given: Some(TWO_PLY.given()), answer }
}

fn null_windows_store_no_exact_value() -> Exercise {
    let tree = THREE_PLY.tree();
    let search = engine(&tree, Algorithm::Mtdf, None);
    let mut answer = String::from(
        "| pass | window | lower bounds stored | upper bounds stored | exact values stored |\n|---:|---|---:|---:|---:|\n",
    );
    for (index, pass) in search.passes.iter().enumerate() {
        let count = |bound: Bound| search.pass(index + 1).filter(|step| step.stored == Some(bound)).count();
        assert_eq!(count(Bound::Exact), 0, "a null-window search stores no exact value");
        let _ = writeln!(
            answer,
            "| {} | {} | {} | {} | {} |",
            index + 1,
            window(pass.alpha, pass.beta),
            count(Bound::Lower),
            count(Bound::Upper),
            count(Bound::Exact)
        );
    }
    answer.push_str(
        "\nNone: with `β = α + 1` no integer lies strictly between `α` and `β`, so every result fails \
         low or high and is stored as one bound. The exact value of a node is known only once a lower \
         and an upper bound, from different passes, meet.\n",
    );
    answer.push_str(&commands(&[engine_trace(&THREE_PLY, Algorithm::Mtdf, "")]));
    Exercise { given: Some(THREE_PLY.given()), answer }
}

fn table_answers() -> Exercise {
    let tree = THREE_PLY.tree();
    let search = engine(&tree, Algorithm::Mtdf, None);
    let mut answer = String::from(
        "| pass | node | window | returns | from the entry stored in pass |\n|---:|---|---|---:|---|\n",
    );
    let mut answered = 0;
    for (index, step) in search.steps.iter().enumerate() {
        if step.probe != Some(Probe::Cutoff) {
            continue;
        }
        answered += 1;
        let earlier = search.steps[..index]
            .iter()
            .rev()
            .find(|earlier| earlier.node == step.node && earlier.stored.is_some())
            .expect("an answered node was stored before");
        let stored = earlier.stored.expect("stored");
        let decides = match stored {
            Bound::Lower => step.beta <= earlier.result,
            Bound::Upper => earlier.result <= step.alpha,
            Bound::Exact => true,
        };
        assert!(decides && step.result == earlier.result, "the entry decides the window");
        let _ = writeln!(
            answer,
            "| {} | {} | {} | {} | {}: {} |",
            step.pass,
            at(&step.path),
            window(step.alpha, step.beta),
            show(step.result),
            earlier.pass,
            entry(stored, earlier.result)
        );
    }
    assert!(answered > 0);
    answer.push_str(
        "\nAn entry answers a node when its bound already decides the new window: a lower bound at or \
         above β (the node fails high again), or an upper bound at or below α (it fails low again). \
         Then the node returns the stored bound without searching a child. Other entries still help: \
         they order the children (`hit` in the trace) and may narrow the window.\n",
    );
    answer.push_str(&commands(&[engine_trace(&THREE_PLY, Algorithm::Mtdf, "")]));
    Exercise { given: None, answer }
}

fn bound_stored_as_exact() -> Exercise {
    let tree = THREE_PLY.tree();
    let search = literal(&tree, Driver::WikipediaJaMtdf, None);
    let value = value_of(&tree, tree.root_id());
    assert_ne!(search.value, value, "the listing is wrong on this tree");
    let (index, wrong) = search
        .steps
        .iter()
        .enumerate()
        .find(|(_, step)| {
            !tree.is_leaf(step.node)
                && step.result != value_of(&tree, step.node)
                && match tree.player(step.node) {
                    Player::Min => step.result >= step.beta,
                    Player::Max => step.result <= step.alpha,
                }
        })
        .expect("a bound stored as exact");
    let (side, bound) = match tree.player(wrong.node) {
        Player::Min => ("at or above β", "a lower bound"),
        Player::Max => ("at or below α", "an upper bound"),
    };
    let mut answer = format!(
        "In pass {}, {} ({}) is called with {}. No child cuts it off, so its loop ends with {}, {side}: \
         {bound}, as the postcondition says, but the listing stores it as both bounds, an exact value. \
         Its true value is {}.\n\n",
        wrong.pass,
        at(&wrong.path),
        mover(&tree, wrong.node),
        window(wrong.alpha, wrong.beta),
        show(wrong.result),
        show(value_of(&tree, wrong.node))
    );
    for later in search.steps[index + 1..].iter().filter(|later| later.node == wrong.node) {
        let _ = writeln!(
            answer,
            "* In pass {} it is called with {} and returns {} from the table, without a search.",
            later.pass,
            window(later.alpha, later.beta),
            show(later.result)
        );
    }
    let _ = writeln!(
        answer,
        "\nSo the driver returns {} where the value is {}. Its passes:\n\n{}\nThe corrected driver \
         stores by Plaat's rule, relative to the window, and finds {}.",
        show(search.value),
        show(value),
        pass_table(&search.passes),
        show(value)
    );
    answer.push_str(&commands(&[
        literal_trace(&THREE_PLY, Driver::WikipediaJaMtdf, ""),
        format!("nullwindow solve {} --algo wikipedia-ja-mtdf-corrected", THREE_PLY.file),
    ]));
    Exercise { given: None, answer }
}

// Null-window search.

/// The tests the null-window exercises make.
const TESTS: [Value; 2] = [3, 8];

fn two_tests() -> Exercise {
    let tree = THREE_PLY.tree();
    let given = format!(
        "{}\nThe questions: is it worth at least {}? Is it worth at least {}?\n",
        THREE_PLY.given(),
        TESTS[0],
        TESTS[1]
    );
    let mut answer = String::from("| question | window | returns | answer |\n|---|---|---:|---|\n");
    let mut lines = Vec::new();
    for gamma in TESTS {
        let search = engine(&tree, Algorithm::Mtdf, Some(gamma));
        let pass = search.passes[0];
        assert_eq!((pass.alpha, pass.beta), (gamma - 1, gamma));
        let yes = pass.result >= gamma;
        let _ = writeln!(
            answer,
            "| at least {gamma}? | {} | {} | {}: the value is {} |",
            window(pass.alpha, pass.beta),
            show(pass.result),
            if yes { "yes" } else { "no" },
            proves(&pass)
        );
        lines.push(engine_trace(&THREE_PLY, Algorithm::Mtdf, &format!(" --first-guess {gamma}")));
    }
    answer.push_str(
        "\nEach test is one search with the window `(γ − 1, γ)`. MTD(f)'s first pass from the first \
         guess γ is exactly that test, so the first pass (`pass` 1) of each trace below is the \
         search; its last record is the root's.\n",
    );
    answer.push_str(&commands(&lines));
    Exercise { given: Some(given), answer }
}

fn leaves_of_a_test() -> Exercise {
    let tree = THREE_PLY.tree();
    let gamma = TESTS[0];
    let search = engine(&tree, Algorithm::Mtdf, Some(gamma));
    let test: Vec<&Step> = search.pass(1).collect();
    let leaves: Vec<String> =
        test.iter().filter(|step| tree.is_leaf(step.node)).map(|step| leaf(&tree, &step.path)).collect();
    let full = engine(&tree, Algorithm::AlphaBeta, None).leaves(&tree).count();
    let root = test[0];
    assert!(root.result >= gamma, "the test fails high");
    let mut answer = format!(
        "The test \"at least {gamma}?\" evaluates {} leaves, {}; full-window alpha-beta needs {full}.\n\n",
        leaves.len(),
        and_list(&leaves)
    );
    for step in test.iter().filter(|step| !tree.is_leaf(step.node)) {
        let _ = writeln!(
            answer,
            "* {} ({}) enters {} of its {} children and returns {}.",
            at(&step.path),
            mover(&tree, step.node),
            step.entered.len(),
            tree.children(step.node).len(),
            show(step.result)
        );
    }
    answer.push_str(
        "\nTo prove \"at least γ\", MAX needs one move that reaches γ at each of its nodes on the way, \
         and must answer every MIN reply there: a MAX node stops at its first child that reaches γ, and \
         a MIN node that reaches γ has had all its children searched. That is one of the minimal \
         tree's two strategies, MAX's, and not the other.\n",
    );
    answer.push_str(&commands(&[engine_trace(
        &THREE_PLY,
        Algorithm::Mtdf,
        &format!(" --first-guess {gamma}"),
    )]));
    Exercise { given: None, answer }
}

fn what_two_tests_prove() -> Exercise {
    let tree = THREE_PLY.tree();
    let bounds = TESTS.iter().fold((-INFINITY, INFINITY), |bounds, &gamma| {
        engine(&tree, Algorithm::Mtdf, Some(gamma)).passes[0].narrow(bounds)
    });
    let value = value_of(&tree, tree.root_id());
    assert!(bounds.0 <= value && value <= bounds.1);
    let mut answer = format!(
        "The value lies in [{}, {}]: the yes gave the lower bound, the no the upper bound. ",
        show(bounds.0),
        show(bounds.1)
    );
    if bounds.0 == bounds.1 {
        answer.push_str("They meet: the value is proven, and no further test is needed.\n");
    } else {
        let _ = writeln!(
            answer,
            "{} values remain, so the value is not proven yet. A further test at any γ in ({}, {}] \
             moves one of the bounds, whichever way it fails; the tests go on until the bounds meet.",
            bounds.1 - bounds.0 + 1,
            show(bounds.0),
            show(bounds.1)
        );
    }
    Exercise { given: None, answer }
}

// MTD(f).

/// The first guess the MTD(f) exercises start above the value from.
const GUESS_ABOVE: Value = 20;

fn mtdf_passes(first_guess: Option<Value>) -> (Tree, Steps) {
    let tree = THREE_PLY.tree();
    let search = engine(&tree, Algorithm::Mtdf, first_guess);
    assert_eq!(search.value, value_of(&tree, tree.root_id()));
    (tree, search)
}

fn passes_from_below() -> Exercise {
    let (tree, search) = mtdf_passes(None);
    let guess = tree.evaluation(tree.root_id());
    let given = format!(
        "{}\nThe first guess: {}, the root's static evaluation (what the engine uses by default).\n",
        THREE_PLY.given(),
        show(guess)
    );
    let mut answer = pass_table(&search.passes);
    let _ = writeln!(
        answer,
        "\n{} passes. The first guess lies below the value, so every pass but the last fails high and \
         raises the lower bound; the next test is one above it (`β = g + 1`), until a test fails low \
         at the value itself. The root's records in the trace (path `[]`) are the passes:",
        search.passes.len()
    );
    answer.push_str(&commands(&[engine_trace(&THREE_PLY, Algorithm::Mtdf, "")]));
    Exercise { given: Some(given), answer }
}

fn passes_from_above() -> Exercise {
    let (_, search) = mtdf_passes(Some(GUESS_ABOVE));
    let given = format!("The same tree, from the first guess {GUESS_ABOVE}.\n");
    let mut answer = pass_table(&search.passes);
    let _ = writeln!(
        answer,
        "\n{} passes. From above the value, the passes fail low and bring the upper bound down \
         (`β = g`), as SSS* does, until one fails high at the value.",
        search.passes.len()
    );
    answer.push_str(&commands(&[engine_trace(
        &THREE_PLY,
        Algorithm::Mtdf,
        &format!(" --first-guess {GUESS_ABOVE}"),
    )]));
    Exercise { given: Some(given), answer }
}

fn passes_from_the_value() -> Exercise {
    let (tree, _) = mtdf_passes(None);
    let value = value_of(&tree, tree.root_id());
    let (_, search) = mtdf_passes(Some(value));
    assert_eq!(search.passes.len(), 2);
    let mut answer = format!("The value is {}. From it:\n\n", show(value));
    answer.push_str(&pass_table(&search.passes));
    answer.push_str(
        "\nTwo passes, always: \"at least v?\" fails high (a lower bound v) and \"at least v + 1?\" \
         fails low (an upper bound v). No fewer can do: one test proves one bound, and the value needs \
         both.\n",
    );
    answer.push_str(&commands(&[engine_trace(
        &THREE_PLY,
        Algorithm::Mtdf,
        &format!(" --first-guess {value}"),
    )]));
    Exercise { given: None, answer }
}

fn fail_hard_passes() -> Exercise {
    let (tree, search) = mtdf_passes(None);
    let guess = tree.evaluation(tree.root_id());
    let value = value_of(&tree, tree.root_id());
    // MTD(f)'s loop over a fail-hard test: `β` when the value is at least `β`, `β − 1` otherwise.
    let (mut lower, mut upper, mut g, mut passes) = (-INFINITY, INFINITY, guess, Vec::new());
    while lower < upper {
        let beta = if g == lower { g + 1 } else { g };
        g = if value >= beta { beta } else { beta - 1 };
        passes.push(Pass { alpha: beta - 1, beta, result: g });
        if g < beta {
            upper = g;
        } else {
            lower = g;
        }
    }
    let given = format!(
        "The same tree and MTD(f) from the first guess {}, but over a fail-hard null-window search, \
         which returns `γ` when the value is at least `γ` and `γ − 1` otherwise.\n",
        show(guess)
    );
    let mut answer = format!(
        "{} passes, against {} fail-soft: each fail-hard pass moves a bound by one, so MTD(f) walks \
         from the guess to the value one unit at a time.\n\n",
        passes.len(),
        search.passes.len()
    );
    answer.push_str(&pass_table(&passes));
    answer.push_str(
        "\nWith an evaluation in centipawns and a guess a pawn off, that is a hundred passes where a \
         fail-soft search needs a handful.\n",
    );
    Exercise { given: Some(given), answer }
}

// The C bound-array form.

fn bound_array_by_hand() -> Exercise {
    let tree = THREE_PLY.tree();
    let search = literal(&tree, Driver::ChessprogrammingMtdf, None);
    assert_eq!(search.value, value_of(&tree, tree.root_id()));
    let guess = tree.evaluation(tree.root_id());
    let given = format!(
        "{}\nThe first guess: `f` = {} (the translation's default, the root's evaluation).\n",
        THREE_PLY.given(),
        show(guess)
    );
    let mut answer = String::from(
        "| pass | `f == bound[0]` | `beta` | `f` returned | `f < beta` | `bound[0]` after | `bound[1]` after |\n|---:|---|---:|---:|---|---:|---:|\n",
    );
    let (mut bound, mut f) = ([-INFINITY, INFINITY], guess);
    for (index, pass) in search.passes.iter().enumerate() {
        let adds = f == bound[0];
        let beta = f + Value::from(adds);
        assert_eq!(beta, pass.beta, "the translation's beta");
        f = pass.result;
        let fails_low = f < beta;
        bound[usize::from(fails_low)] = f;
        let _ = writeln!(
            answer,
            "| {} | {adds} | {} | {} | {fails_low} | {} | {} |",
            index + 1,
            show(beta),
            show(f),
            show(bound[0]),
            show(bound[1])
        );
    }
    answer.push_str(
        "\nThe comparison adds one exactly when the last result was the lower bound, and `f < beta` \
         picks the upper bound (1) when a pass failed low. The loop stops when `bound[0]` reaches \
         `bound[1]`.\n",
    );
    answer.push_str(&commands(&[literal_trace(&THREE_PLY, Driver::ChessprogrammingMtdf, "")]));
    Exercise { given: Some(given), answer }
}

fn bound_array_from_plus_infinity() -> Exercise {
    let tree = THREE_PLY.tree();
    let c = literal(&tree, Driver::ChessprogrammingMtdf, Some(INFINITY));
    let sss = literal(&tree, Driver::MtSss, None);
    assert_eq!(c.passes, sss.passes, "from +∞ the C loop is SSS*");
    let (last, before) = c.passes.split_last().expect("a pass");
    assert!(before.iter().all(|pass| pass.result < pass.beta) && last.result >= last.beta);
    let given = format!("The same tree, from the first guess `f` = {}.\n", show(INFINITY));
    let mut answer = format!(
        "`f` is not `bound[0]` (−∞), so `beta` = {}: the first test is \"at least ∞?\", which fails \
         low, and from then on every result but the last is the upper bound, tested at again: \
         `beta = f`. That is SSS*, MTD(+∞) with `bound := g`, pass for pass:\n\n",
        show(INFINITY)
    );
    answer.push_str(&pass_table(&c.passes));
    answer.push_str(&commands(&[
        literal_trace(&THREE_PLY, Driver::ChessprogrammingMtdf, &format!(" --first-guess {INFINITY}")),
        literal_trace(&THREE_PLY, Driver::MtSss, ""),
    ]));
    Exercise { given: Some(given), answer }
}

fn bound_array_from_minus_infinity() -> Exercise {
    let tree = THREE_PLY.tree();
    let c = literal(&tree, Driver::ChessprogrammingMtdf, Some(-INFINITY));
    let dual = literal(&tree, Driver::MtDual, None);
    assert_eq!(c.passes[..], dual.passes[1..], "the C loop skips DUAL*'s first pass");
    let (last, before) = c.passes.split_last().expect("a pass");
    assert!(before.iter().all(|pass| pass.result >= pass.beta) && last.result < last.beta);
    assert_eq!(dual.passes[0].result, -INFINITY, "DUAL*'s first pass proves nothing");
    let given = format!("The same tree, from the first guess `f` = {}.\n", show(-INFINITY));
    let mut answer = format!(
        "`f` equals `bound[0]`, so `beta` = {}: the first test is \"at least −∞ + 1?\", and from then \
         on every pass but the last fails high and the test moves one above the result, as in DUAL*. But DUAL* as \
         Figure 11 writes it first tests at {} itself, a pass that can only fail high at {} and \
         proves nothing; the C loop skips it. The C loop's passes:\n\n",
        show(-INFINITY + 1),
        show(-INFINITY),
        show(-INFINITY)
    );
    answer.push_str(&pass_table(&c.passes));
    answer.push_str("\nand `dual-literal`'s:\n\n");
    answer.push_str(&pass_table(&dual.passes));
    answer.push_str(&commands(&[
        literal_trace(&THREE_PLY, Driver::ChessprogrammingMtdf, &format!(" --first-guess -{INFINITY}")),
        literal_trace(&THREE_PLY, Driver::MtDual, ""),
    ]));
    Exercise { given: Some(given), answer }
}

// Bisection.

/// The figure's `average` as integer division, and rounded up.
const fn average_down(a: Value, b: Value) -> Value {
    (a + b) / 2
}

const fn average_up(a: Value, b: Value) -> Value {
    (a + b + 1).div_euclid(2)
}

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

fn rounding_the_average() -> Exercise {
    let tree = TEACHING.tree();
    let printed = literal(&tree, Driver::MtBi, None);
    let corrected = literal(&tree, Driver::MtBiCorrected, None);
    let shared = 2;
    assert_eq!(printed.passes[..shared], corrected.passes[..shared]);
    let (lower, upper) = bounds_after(&printed.passes)[shared - 1];
    let (down, up) = (average_down(upper, lower), average_up(upper, lower));
    assert_eq!((printed.passes[shared].beta, corrected.passes[shared].beta), (down, up));
    let given = format!(
        "The teaching tree (`{}`). Both `mtd-bi-literal` and `mtd-bi-literal-corrected` begin with \
         these passes:\n\n{}",
        TEACHING.file,
        pass_table(&printed.passes[..shared])
    );
    let mut answer = format!(
        "`mtd-bi-literal` tests at `average(f+, f−)` = ({} + {}) div 2 = {down}, rounded down: the \
         window {}. The corrected driver rounds up, to {up}: the window {}. Both find the value, but \
         the printed one needs {} passes and the corrected one {}.\n\n`mtd-bi-literal`:\n\n{}\n\
         `mtd-bi-literal-corrected`:\n\n{}",
        show(upper),
        show(lower),
        window(down - 1, down),
        window(up - 1, up),
        printed.passes.len(),
        corrected.passes.len(),
        pass_table(&printed.passes),
        pass_table(&corrected.passes)
    );
    answer.push_str(
        "\nA test at `b` asks \"at least b?\", and only a test in `(f−, f+]` can move a bound. Rounded \
         down, the midpoint of two adjacent bounds is `f−` itself; rounded up, it is always in range.\n",
    );
    answer.push_str(&commands(&[
        literal_trace(&TEACHING, Driver::MtBi, ""),
        literal_trace(&TEACHING, Driver::MtBiCorrected, ""),
    ]));
    Exercise { given: Some(given), answer }
}

fn bisection_stops() -> Exercise {
    let tree = BISECTION.tree();
    let value = value_of(&tree, tree.root_id());
    let printed = literal(&tree, Driver::MtBi, None);
    let corrected = literal(&tree, Driver::MtBiCorrected, None);
    assert_ne!(printed.value, value, "the printed average stops short on this tree");
    assert_eq!(corrected.value, value);
    let bounds = bounds_after(&printed.passes);
    let stuck = printed.passes.len() - 1;
    let (lower, upper) = bounds[stuck - 1];
    assert_eq!(printed.passes[stuck].beta, average_down(upper, lower));
    assert_eq!(bounds[stuck], bounds[stuck - 1], "the last pass changes nothing");
    let mut answer = format!(
        "`mtd-bi-literal`:\n\n{}\nAfter pass {stuck} the bounds are adjacent, [{}, {}]. The next test \
         is at `average({}, {})` = {}, rounded down to `f−`: \"at least {}?\" is already known, the \
         pass fails high at {} again and changes nothing. The printed loop would repeat it forever; \
         the translation stops and returns {}, but the value is {}. Rounded up, the test is at {}, \
         and the corrected driver finds the value:\n\n{}",
        pass_table(&printed.passes),
        show(lower),
        show(upper),
        show(upper),
        show(lower),
        show(printed.passes[stuck].beta),
        show(lower),
        show(printed.passes[stuck].result),
        show(printed.value),
        show(value),
        show(average_up(upper, lower)),
        pass_table(&corrected.passes)
    );
    answer.push_str(&commands(&[
        literal_trace(&BISECTION, Driver::MtBi, ""),
        format!("nullwindow solve {} --algo mtd-bi-literal-corrected", BISECTION.file),
    ]));
    Exercise { given: Some(BISECTION.given()), answer }
}

fn engine_bisection() -> Exercise {
    let tree = THREE_PLY.tree();
    let search = engine(&tree, Algorithm::MtdBi, None);
    assert_eq!(search.value, value_of(&tree, tree.root_id()));
    let mut answer = String::from(
        "| pass | bounds before | test `β` | window | returns | bounds after |\n|---:|---|---:|---|---:|---|\n",
    );
    let mut bounds = (-INFINITY, INFINITY);
    for (index, pass) in search.passes.iter().enumerate() {
        let before = bounds;
        if index > 0 {
            assert_eq!(pass.beta, before.0 + (before.1 - before.0 + 1) / 2, "the midpoint, rounded up");
        }
        bounds = pass.narrow(bounds);
        let _ = writeln!(
            answer,
            "| {} | [{}, {}] | {} | {} | {} | [{}, {}] |",
            index + 1,
            show(before.0),
            show(before.1),
            show(pass.beta),
            window(pass.alpha, pass.beta),
            show(pass.result),
            show(bounds.0),
            show(bounds.1)
        );
    }
    answer.push_str(
        "\nThe first test is at the first guess, the root's evaluation; every later one at \
         `lower + (upper − lower + 1) / 2`. The first midpoint is near ∞/2, a test that only proves \
         the value is not astronomically large; the ones after it halve an interval of real values.\n",
    );
    answer.push_str(&commands(&[engine_trace(&THREE_PLY, Algorithm::MtdBi, "")]));
    Exercise { given: Some(THREE_PLY.given()), answer }
}

// SSS* and DUAL*.

fn sss_passes() -> Exercise {
    let tree = BEST_FIRST.tree();
    let search = literal(&tree, Driver::MtSss, None);
    let (last, before) = search.passes.split_last().expect("a pass");
    assert!(before.iter().all(|pass| pass.result < pass.beta) && last.result >= last.beta);
    assert_eq!(
        search.passes[0].result,
        value_of(&tree, tree.root_id()),
        "the first upper bound is the value"
    );
    let mut answer = pass_table(&search.passes);
    let _ = writeln!(
        answer,
        "\n{}. Each pass but the last fails low and gives a new, lower upper bound, which the next \
         pass tests at; the last fails high at its test, and the bounds meet. The first pass already \
         finds the value as its upper bound: the leaves of each MIN node's first MAX child bound \
         that MIN node from above, and the best of those bounds is the value here.",
        plural(search.passes.len(), "pass", "passes")
    );
    answer.push_str(&commands(&[literal_trace(&BEST_FIRST, Driver::MtSss, "")]));
    Exercise { given: Some(BEST_FIRST.given()), answer }
}

fn dual_passes() -> Exercise {
    let tree = BEST_FIRST.tree();
    let search = literal(&tree, Driver::MtDual, None);
    let (last, before) = search.passes.split_last().expect("a pass");
    assert!(before.iter().all(|pass| pass.result >= pass.beta) && last.result < last.beta);
    assert_eq!(search.passes[0].result, -INFINITY, "DUAL*'s first pass proves nothing");
    let mut answer = pass_table(&search.passes);
    let _ = writeln!(
        answer,
        "\n{} passes, the mirror image of SSS*: each pass but the last fails high, and the next tests \
         one above the new lower bound. The first, at −∞ itself, can only fail high at −∞ and proves \
         nothing; Figure 11 makes it anyway.",
        search.passes.len()
    );
    answer.push_str(&commands(&[literal_trace(&BEST_FIRST, Driver::MtDual, "")]));
    Exercise { given: None, answer }
}

/// `leaves` without repeats, in the order of their first evaluation.
fn first_evaluations(leaves: &[NodeId]) -> Vec<NodeId> {
    let mut seen = Vec::new();
    for &leaf in leaves {
        if !seen.contains(&leaf) {
            seen.push(leaf);
        }
    }
    seen
}

fn stockman_order() -> Exercise {
    let tree = BEST_FIRST.tree();
    let (_, stockman) = Driver::StockmanSss.run_recording_leaves(&tree, &SearchParams::default());
    let (_, mt) = Driver::MtSss.run_recording_leaves(&tree, &SearchParams::default());
    let order = first_evaluations(&stockman);
    assert_eq!(order, first_evaluations(&mt), "MT-SSS* evaluates Stockman's leaves in his order");
    let all_paths = paths(&tree);
    let named: Vec<String> = order.iter().map(|node| leaf(&tree, &all_paths[node.index()])).collect();
    let mut answer = format!(
        "Both evaluate {} leaves, in this order: {}.\n\nStockman's OPEN list first takes the leaves \
         of each MIN node's first MAX child, which give the first upper bound; then it refines best \
         first: the triple of highest merit on OPEN is where the next pass of MT-SSS* goes down, \
         because that pass tests at the same upper bound.\n",
        order.len(),
        and_list(&named)
    );
    answer.push_str(&commands(&[
        format!("nullwindow trace {} --algo stockman-sss --output table", BEST_FIRST.file),
        literal_trace(&BEST_FIRST, Driver::MtSss, ""),
    ]));
    Exercise { given: None, answer }
}

fn sss_dominates_alpha_beta() -> Exercise {
    let tree = BEST_FIRST.tree();
    let (_, alpha_beta) = Driver::KornilovAlphaBeta.run_recording_leaves(&tree, &SearchParams::default());
    let (_, sss) = Driver::MtSss.run_recording_leaves(&tree, &SearchParams::default());
    assert!(sss.iter().all(|leaf| alpha_beta.contains(leaf)), "SSS* evaluates no leaf alpha-beta prunes");
    let all_paths = paths(&tree);
    let only_alpha_beta: Vec<String> = alpha_beta
        .iter()
        .filter(|leaf| !sss.contains(leaf))
        .map(|node| leaf(&tree, &all_paths[node.index()]))
        .collect();
    // The skipped leaves are those of the first MIN node's second child.
    let second_child: Vec<String> =
        children_paths(&tree, &[0, 1]).iter().map(|path| leaf(&tree, path)).collect();
    assert_eq!(only_alpha_beta, second_child);
    let distinct = first_evaluations(&sss).len();
    let mut answer = format!(
        "Alpha-beta evaluates {} leaves, SSS* {distinct} ({} evaluations: a later pass evaluates some \
         again). SSS* never evaluates {}, which alpha-beta does: once the first MIN node's first \
         MAX child has shown that MIN can hold MAX to less than the upper bound SSS* is testing, the \
         rest of that MIN node cannot matter. The other way round there is nothing: SSS* evaluates no \
         leaf that alpha-beta skips, as Stockman proved.\n",
        alpha_beta.len(),
        sss.len(),
        and_list(&only_alpha_beta)
    );
    answer.push_str(&commands(&[
        format!("nullwindow trace {} --algo kornilov-alphabeta --on entry --output table", BEST_FIRST.file),
        literal_trace(&BEST_FIRST, Driver::MtSss, ""),
    ]));
    Exercise { given: None, answer }
}

// PVS and NegaScout.

fn pvs_research() -> Exercise {
    let tree = RESEARCH.tree();
    let search = literal(&tree, Driver::VerhelstPrincipalVariation, None);
    let mut answer = String::from("| call | window | returns | what it is |\n|---|---|---:|---|\n");
    let mut researched = Vec::new();
    for path in children_paths(&tree, &[]) {
        let calls: Vec<&Step> = search.steps.iter().filter(|step| step.path == path).collect();
        for (index, step) in calls.iter().enumerate() {
            let what = if step.beta - step.alpha == 1 {
                format!("a null-window test: {}", reading(&tree, step))
            } else if index > 0 {
                researched.push(at(&path));
                format!("the re-search: {}", reading(&tree, step))
            } else {
                format!("the first move, full window: {}", reading(&tree, step))
            };
            let _ = writeln!(
                answer,
                "| {} | {} | {} | {what} |",
                at(&path),
                window(step.alpha, step.beta),
                show(step.result)
            );
        }
    }
    let _ = writeln!(
        answer,
        "\nThe re-searched child: {}. Its test asks whether it beats the first move's value, and fails \
         high with a fail-soft lower bound; the re-search then starts at that bound, `(value, β)`, not \
         at `α`: the test has already proven that the child is worth at least that much.",
        and_list(&researched)
    );
    answer.push_str(&commands(&[literal_trace(&RESEARCH, Driver::VerhelstPrincipalVariation, "")]));
    Exercise { given: Some(RESEARCH.given()), answer }
}

/// The nodes a search visits twice in one pass, in the order of their second visit.
fn researched(steps: &Steps) -> Vec<Vec<u32>> {
    let mut seen: Vec<(usize, Vec<u32>)> = Vec::new();
    let mut twice = Vec::new();
    for step in &steps.steps {
        let key = (step.pass, step.path.clone());
        if seen.contains(&key) {
            if !twice.contains(&step.path) {
                twice.push(step.path.clone());
            }
        } else {
            seen.push(key);
        }
    }
    twice
}

fn negascout_near_the_leaves() -> Exercise {
    let tree = SHALLOW_RESEARCH.tree();
    let pvs = engine(&tree, Algorithm::Pvs, None);
    let negascout = engine(&tree, Algorithm::NegaScout, None);
    let (pvs_again, negascout_again) = (researched(&pvs), researched(&negascout));
    assert!(!pvs_again.is_empty() && negascout_again.is_empty());
    assert!(tree.height() < 3, "NegaScout's rule for the last two plies");
    let child = &pvs_again[0];
    let visits: Vec<&Step> = pvs.steps.iter().filter(|step| &step.path == child).collect();
    let (test, research) = (visits[0], visits[1]);
    assert_eq!(test.result, value_of(&tree, test.node), "the test already found the value");
    let answer = format!(
        "PVS tests {child} with {}, and it returns {}, above the window; so PVS searches it again with \
         {} and gets {} once more. NegaScout re-searches nothing: at a node fewer than three plies \
         from the leaves (here the root, {} plies), a fail-soft null-window result that fails high is \
         already exact, so Reinefeld skips the re-search. PVS evaluates {} leaves, NegaScout {}.\n{}",
        window(test.alpha, test.beta),
        show(test.result),
        window(research.alpha, research.beta),
        show(research.result),
        tree.height(),
        pvs.leaves(&tree).count(),
        negascout.leaves(&tree).count(),
        commands(&[
            engine_trace(&SHALLOW_RESEARCH, Algorithm::Pvs, ""),
            engine_trace(&SHALLOW_RESEARCH, Algorithm::NegaScout, ""),
        ]),
        child = at(child)
    );
    Exercise { given: Some(SHALLOW_RESEARCH.given()), answer }
}

fn pvs_leaves_twice() -> Exercise {
    let tree = RESEARCH.tree();
    let (_, pvs) = Driver::VerhelstPrincipalVariation.run_recording_leaves(&tree, &SearchParams::default());
    let (_, alpha_beta) = Driver::KornilovAlphaBeta.run_recording_leaves(&tree, &SearchParams::default());
    let all_paths = paths(&tree);
    let mut twice: Vec<NodeId> =
        pvs.iter().copied().filter(|leaf| pvs.iter().filter(|l| *l == leaf).count() > 1).collect();
    twice.dedup();
    twice.sort();
    twice.dedup();
    let mut distinct = pvs.clone();
    distinct.sort();
    distinct.dedup();
    assert!(distinct.iter().all(|leaf| alpha_beta.contains(leaf)), "PVS evaluates no leaf alpha-beta prunes");
    let named: Vec<String> = twice.iter().map(|node| leaf(&tree, &all_paths[node.index()])).collect();
    let answer = format!(
        "PVS makes {} evaluations of {} distinct leaves; alpha-beta evaluates {}. The leaves PVS \
         evaluates twice, once in the test and once in the re-search, are {}. Every leaf PVS \
         evaluates, alpha-beta evaluates too (Reinefeld's dominance is about distinct leaves); on a \
         tree whose best move comes last, the repeated ones are what PVS pays for its tests.\n{}",
        pvs.len(),
        distinct.len(),
        alpha_beta.len(),
        and_list(&named),
        commands(&[format!("nullwindow solve {} --algo kornilov-alphabeta,verhelst-pvs", RESEARCH.file)])
    );
    Exercise { given: None, answer }
}

// Aspiration windows.

/// The first guess the aspiration exercises start from, above the value by more than the window's
/// half-width.
const ASPIRATION_GUESS: Value = 60;

fn aspiration_passes(first_guess: Value) -> (Tree, Steps) {
    let tree = THREE_PLY.tree();
    let search = engine(&tree, Algorithm::Aspiration, Some(first_guess));
    assert_eq!(search.value, value_of(&tree, tree.root_id()));
    (tree, search)
}

fn aspiration_fails_low() -> Exercise {
    let (_, search) = aspiration_passes(ASPIRATION_GUESS);
    let delta = SearchParams::default().aspiration_delta;
    let given = format!(
        "{}\nThe engine's aspiration search, first guess {ASPIRATION_GUESS}, δ = {delta} (the default).\n",
        THREE_PLY.given()
    );
    let first = search.passes[0];
    let mut answer = format!(
        "The first window is {}. The search fails low with {}: an upper bound. The engine re-opens \
         only the low side, and only up to that bound: the next window is {} (the `+ 1` keeps the \
         bound itself inside, so that a value equal to it is found exactly).\n\n",
        window(first.alpha, first.beta),
        show(first.result),
        window(search.passes[1].alpha, search.passes[1].beta)
    );
    answer.push_str(&pass_table(&search.passes));
    answer.push_str(&commands(&[engine_trace(
        &THREE_PLY,
        Algorithm::Aspiration,
        &format!(" --first-guess {ASPIRATION_GUESS}"),
    )]));
    Exercise { given: Some(given), answer }
}

fn aspiration_fails_high() -> Exercise {
    let (_, search) = aspiration_passes(-ASPIRATION_GUESS);
    let given = format!("The same search from the first guess −{ASPIRATION_GUESS}.\n");
    let first = search.passes[0];
    let mut answer = format!(
        "The first window is {}, and the search fails high with {}, a lower bound. The re-search \
         window is {}: it starts just below the bound and is open above.\n\n",
        window(first.alpha, first.beta),
        show(first.result),
        window(search.passes[1].alpha, search.passes[1].beta)
    );
    answer.push_str(&pass_table(&search.passes));
    answer.push_str(&commands(&[engine_trace(
        &THREE_PLY,
        Algorithm::Aspiration,
        &format!(" --first-guess -{ASPIRATION_GUESS}"),
    )]));
    Exercise { given: Some(given), answer }
}

fn full_window_research() -> Exercise {
    let tree = THREE_PLY.tree();
    let verhelst = literal(&tree, Driver::VerhelstAspiration, Some(ASPIRATION_GUESS));
    let (_, ours) = aspiration_passes(ASPIRATION_GUESS);
    let given = format!(
        "The same tree and first guess {ASPIRATION_GUESS}, searched by `verhelst-aspiration`, whose \
         window is ±{ASPIRATION_WINDOW} and whose re-search uses the full window.\n"
    );
    let mut answer = format!(
        "`verhelst-aspiration` evaluates {} leaves; the engine's `aspiration`, {}. The passes of \
         `verhelst-aspiration`:\n\n{}\n\
         and the engine's:\n\n{}\nAfter a fail low the full window throws away the bound the first \
         search proved; the engine keeps it as the top of its re-search window, so the re-search can \
         cut off wherever a node is shown to reach it. (The engine's table also carries the first \
         search's bounds and best moves into the re-search.)\n",
        verhelst.leaves(&tree).count(),
        ours.leaves(&tree).count(),
        pass_table(&verhelst.passes),
        pass_table(&ours.passes)
    );
    answer.push_str(&commands(&[
        literal_trace(&THREE_PLY, Driver::VerhelstAspiration, &format!(" --first-guess {ASPIRATION_GUESS}")),
        engine_trace(&THREE_PLY, Algorithm::Aspiration, &format!(" --first-guess {ASPIRATION_GUESS}")),
    ]));
    Exercise { given: Some(given), answer }
}

// Iterative deepening.

fn mtdf_iterations() -> Exercise {
    let tree = IRREGULAR.tree();
    let params = SearchParams { iterative_deepening: true, ..figure_params() };
    let result = Engine::new(&params).search(&tree, Algorithm::Mtdf, &params, |_| {});
    assert_eq!(result.value, value_of(&tree, tree.root_id()));
    let mut answer =
        String::from("| depth | first guess | passes: window → result | value |\n|---:|---:|---|---:|\n");
    let mut guess = tree.evaluation(tree.root_id());
    for iteration in &result.iterations {
        assert_eq!(iteration.value, minimax::search(&tree, &tree.root(), iteration.depth).value);
        let passes: Vec<String> = iteration
            .passes
            .iter()
            .map(|pass| format!("{} → {}", window(pass.alpha, pass.beta), show(pass.result)))
            .collect();
        let _ = writeln!(
            answer,
            "| {} | {} | {} | {} |",
            iteration.depth,
            show(guess),
            passes.join(", "),
            show(iteration.value)
        );
        guess = iteration.value;
    }
    answer.push_str(
        "\nEach iteration's value is the depth-limited minimax value, and the first guess of the next; \
         the first iteration starts from the root's evaluation. With the exact value as its guess an \
         iteration needs two passes; it needs more where the value moves from one depth to the next.\n",
    );
    answer.push_str(&commands(&[format!(
        "nullwindow solve {} --algo mtdf --iterative --no-killers --no-history",
        IRREGULAR.file
    )]));
    Exercise { given: Some(IRREGULAR.given()), answer }
}

fn what_deepening_costs() -> Exercise {
    let tree = IRREGULAR.tree();
    let deepening = SearchParams { iterative_deepening: true, ..figure_params() };
    let result = Engine::new(&deepening).search(&tree, Algorithm::Mtdf, &deepening, |_| {});
    let at_once = Engine::new(&figure_params()).search(&tree, Algorithm::Mtdf, &figure_params(), |_| {});
    let mut answer = String::from("| iteration | leaves evaluated | passes |\n|---:|---:|---:|\n");
    let mut before = 0;
    for iteration in &result.iterations {
        let _ = writeln!(
            answer,
            "| depth {} | {} | {} |",
            iteration.depth,
            iteration.counts.leaves - before,
            iteration.passes.len()
        );
        before = iteration.counts.leaves;
    }
    let last = result.iterations.last().expect("an iteration");
    assert!(result.counts.leaves > at_once.counts.leaves, "on this tree deepening does not pay");
    let _ = writeln!(
        answer,
        "| in all | {} | {} |\n\nOne search of the whole depth from the first guess {} evaluates {} \
         leaves in {}. Here deepening does not pay: the earlier iterations cost leaves of their own, \
         and their first guesses and best moves save the last one less than that. It pays where they \
         save more, in a deep search whose last iteration dominates the cost.",
        result.counts.leaves,
        result.iterations.iter().map(|iteration| iteration.passes.len()).sum::<usize>(),
        show(tree.evaluation(tree.root_id())),
        at_once.counts.leaves,
        plural(at_once.iterations[0].passes.len(), "pass", "passes")
    );
    assert_eq!(last.depth, tree.height());
    answer.push_str(&commands(&[
        format!("nullwindow solve {} --algo mtdf --iterative --no-killers --no-history", IRREGULAR.file),
        format!("nullwindow solve {} --algo mtdf --no-killers --no-history", IRREGULAR.file),
    ]));
    Exercise { given: None, answer }
}

fn printed_iterative_deepening() -> Exercise {
    let tree = THREE_PLY.tree();
    let printed = literal(&tree, Driver::PlaatIterativeDeepening, None);
    let value = value_of(&tree, tree.root_id());
    let shallow = minimax::search(&tree, &tree.root(), 1).value;
    assert!(tree.children(tree.root_id()).iter().all(|&child| !tree.is_leaf(child)));
    assert_ne!(printed.value, value);
    assert_eq!(printed.value, shallow, "the depth-1 value answers every later iteration");
    let roots: Vec<&Step> = printed.steps.iter().filter(|step| step.path.is_empty()).collect();
    let first_iteration: Vec<Pass> = printed
        .passes
        .iter()
        .zip(&roots)
        .filter(|(_, root)| root.depth == 1)
        .map(|(pass, _)| *pass)
        .collect();
    let (lower, upper) = *bounds_after(&first_iteration).last().expect("a depth-1 pass");
    let mut answer = format!(
        "It returns {}, not {}. Its passes, with the nodes each visits below the root:\n\n| pass | depth | window | returns | nodes below the root |\n|---:|---:|---|---:|---:|\n",
        show(printed.value),
        show(value)
    );
    for root in &roots {
        let below = printed.pass(root.pass).count() - 1;
        assert!(root.depth == 1 || below == 0, "the table answers the root from depth 2 on");
        let _ = writeln!(
            answer,
            "| {} | {} | {} | {} | {below} |",
            root.pass,
            root.depth,
            window(root.alpha, root.beta),
            show(root.result)
        );
    }
    let _ = writeln!(
        answer,
        "\nAt depth 1 every child of the root is an interior node, scored by its evaluation (0 in this \
         format), so the depth-1 value is {}, and its passes leave the bounds [{}, {}] on the root in \
         the table. The table has no depth: from depth 2 on, each pass looks the root up, finds those \
         bounds, which decide its window, and returns {} without searching a child. The corrected \
         driver keys the table by node and depth, and finds the value.",
        show(shallow),
        show(lower),
        show(upper),
        show(shallow)
    );
    answer.push_str(&commands(&[
        literal_trace(&THREE_PLY, Driver::PlaatIterativeDeepening, ""),
        format!("nullwindow solve {} --algo plaat-id-corrected", THREE_PLY.file),
    ]));
    Exercise { given: Some(THREE_PLY.given()), answer }
}
