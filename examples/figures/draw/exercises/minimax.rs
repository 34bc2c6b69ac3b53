//! The exercises of the chapter "Minimax".

use super::*;

/// The chapter's exercises, in the order it asks them.
pub(super) fn exercises() -> Vec<Exercise> {
    vec![minimax_values(), negamax_values(), depth_limited_values()]
}

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
