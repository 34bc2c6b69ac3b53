//! The exercises of the chapter "Alpha-beta".

use super::*;

/// The chapter's exercises, in the order it asks them.
pub(super) fn exercises() -> Vec<Exercise> {
    vec![skipped_leaves(), bounds_and_values(), best_move_first(), critical_leaves()]
}

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
        let skipped: Vec<String> = step.skipped_paths(tree).iter().map(|path| at(path)).collect();
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
            step.reading(&tree),
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
