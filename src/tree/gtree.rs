//! The `gtree` format for game graphs, as written by the formally verified minimax study of Wesselink
//! et al. (public repository `wiegerw/minimax`, `python/game_trees.py`, functions `parse_tree` and
//! `print_tree`).
//!
//! One node per line: `ID EVAL [W|B] CHILD_ID…`. The first line is the root. `ID` is any word, `EVAL`
//! an integer from White's (MAX's) side, `W` (White, MAX) or `B` (Black, MIN) the player to move; a
//! node without a colour takes the opposite of the parent it is first reached from in a depth-first
//! walk from the root, and a root without one is White. Several parents may list the same child, which
//! makes the graph share a node (a transposition). Blank lines are skipped.
//!
//! ```text
//! 0 0 W 1 2
//! 1 5 B 3 4
//! 2 -2 B 4
//! 3 7
//! 4 1
//! ```
//!
//! Beyond the original reader, this one checks what the crate's searches rely on and reports each
//! problem with its line and column: a duplicate or unknown id, a value outside the admissible range,
//! a cycle, and players that do not alternate along an edge (a node whose colour equals its parent's).
//! It also skips `#` comments to the end of a line, which the original does not accept, so keep
//! them out of files meant for both. Nodes not reachable from the root are dropped. Nodes are
//! renumbered in depth-first order from the root, and [`print`](fn@print) writes those numbers as ids.

use std::collections::HashMap;

use super::text::{ParseError, Position};
use super::{Node, NodeId, Tree};
use crate::game::Player;
use crate::value::{MAX_LEAF, MIN_LEAF, Value, is_admissible};

/// One line of the file, before ids are resolved.
struct Line<'a> {
    id: &'a str,
    id_at: Position,
    evaluation: Value,
    player: Option<Player>,
    children: Vec<(&'a str, Position)>,
}

/// Reads a game graph in the `gtree` format.
///
/// # Errors
/// Empty input, a line without an evaluation, an evaluation that is not an integer or not admissible,
/// a duplicate id, an unknown child id, a cycle, or non-alternating players, with line and column.
pub fn parse(source: &str) -> Result<Tree, ParseError> {
    let lines = split_lines(source)?;
    if lines.is_empty() {
        return Err(ParseError::new(Position { line: 1, column: 1 }, "empty input: no root line"));
    }
    let mut index_of_id: HashMap<&str, usize> = HashMap::with_capacity(lines.len());
    for (index, line) in lines.iter().enumerate() {
        if index_of_id.insert(line.id, index).is_some() {
            return Err(ParseError::new(line.id_at, format!("duplicate node id '{}'", line.id)));
        }
    }
    let mut child_lines: Vec<Vec<usize>> = Vec::with_capacity(lines.len());
    for line in &lines {
        let mut children = Vec::with_capacity(line.children.len());
        for &(child, at) in &line.children {
            let index = *index_of_id
                .get(child)
                .ok_or_else(|| ParseError::new(at, format!("unknown node id '{child}'")))?;
            children.push(index);
        }
        child_lines.push(children);
    }

    // Depth-first walk from the root: number nodes in preorder, fill in colours from the parent
    // first reached from, check alternation on every edge, and find cycles (an edge to a node still
    // on the walk's stack).
    let unvisited = u32::MAX;
    let mut new_id = vec![unvisited; lines.len()];
    let mut players: Vec<Option<Player>> = lines.iter().map(|line| line.player).collect();
    let mut on_stack = vec![false; lines.len()];
    let mut order: Vec<usize> = Vec::new();
    players[0] = players[0].or(Some(Player::Max));
    new_id[0] = 0;
    order.push(0);
    on_stack[0] = true;
    let mut stack = vec![(0usize, 0usize)];
    while let Some((line, next_child)) = stack.last_mut() {
        let line = *line;
        let Some(&child) = child_lines[line].get(*next_child) else {
            on_stack[line] = false;
            stack.pop();
            continue;
        };
        let at = lines[line].children[*next_child].1;
        *next_child += 1;
        if on_stack[child] {
            return Err(ParseError::new(
                at,
                format!("cycle: node '{}' is its own descendant", lines[child].id),
            ));
        }
        let parent_player = players[line].unwrap_or(Player::Max);
        let expected = parent_player.opponent();
        match players[child] {
            None => players[child] = Some(expected),
            Some(player) if player != expected => {
                return Err(ParseError::new(
                    at,
                    format!(
                        "players must alternate: node '{}' is {} like its parent '{}'",
                        lines[child].id,
                        colour_name(player),
                        lines[line].id
                    ),
                ));
            }
            Some(_) => {}
        }
        if new_id[child] == unvisited {
            new_id[child] = u32::try_from(order.len())
                .map_err(|_| ParseError::new(at, format!("more than {} nodes", u32::MAX)))?;
            order.push(child);
            on_stack[child] = true;
            stack.push((child, 0));
        }
    }

    let mut nodes = Vec::with_capacity(order.len());
    let mut edges = Vec::new();
    for &line in &order {
        let first_edge = u32::try_from(edges.len())
            .map_err(|_| ParseError::new(lines[line].id_at, format!("more than {} edges", u32::MAX)))?;
        edges.extend(child_lines[line].iter().map(|&child| NodeId(new_id[child])));
        nodes.push(Node {
            evaluation: lines[line].evaluation,
            player: players[line].unwrap_or(Player::Max),
            first_edge,
            child_count: u32::try_from(child_lines[line].len()).unwrap_or(u32::MAX),
        });
    }
    Ok(Tree::from_parts(nodes, edges, NodeId(0)))
}

/// Writes `tree` in the `gtree` format: one line per distinct node reachable from the root, root
/// first, nodes numbered in the arena's order, every line with its colour.
///
/// `parse(&print(t)) == t` for every tree read by [`parse`] or built by this crate.
#[must_use]
pub fn print(tree: &Tree) -> String {
    let mut order = tree.post_order();
    order.sort_unstable();
    let mut out = String::new();
    for node in order {
        out.push_str(&format!(
            "{} {} {}",
            node,
            tree.evaluation(node),
            match tree.player(node) {
                Player::Max => 'W',
                Player::Min => 'B',
            }
        ));
        for child in tree.children(node) {
            out.push_str(&format!(" {child}"));
        }
        out.push('\n');
    }
    out
}

const fn colour_name(player: Player) -> &'static str {
    match player {
        Player::Max => "White (W)",
        Player::Min => "Black (B)",
    }
}

fn split_lines(source: &str) -> Result<Vec<Line<'_>>, ParseError> {
    let mut lines = Vec::new();
    for (line_index, text) in source.lines().enumerate() {
        let text = text.split('#').next().unwrap_or("");
        let mut words =
            words_with_columns(text).map(|(column, word)| (word, Position { line: line_index + 1, column }));
        let Some((id, id_at)) = words.next() else { continue };
        let Some((evaluation_word, evaluation_at)) = words.next() else {
            return Err(ParseError::new(id_at, format!("node '{id}' has no evaluation")));
        };
        let evaluation = evaluation_word.parse::<i64>().ok().ok_or_else(|| {
            ParseError::new(evaluation_at, format!("'{evaluation_word}' is not an integer"))
        })?;
        let evaluation = Value::try_from(evaluation).ok().filter(|&v| is_admissible(v)).ok_or_else(|| {
            ParseError::new(
                evaluation_at,
                format!(
                    "value {evaluation_word} is outside the admissible leaf range {MIN_LEAF}..={MAX_LEAF}"
                ),
            )
        })?;
        let mut children: Vec<(&str, Position)> = words.collect();
        let player = match children.first() {
            Some(&("W", _)) => Some(Player::Max),
            Some(&("B", _)) => Some(Player::Min),
            _ => None,
        };
        if player.is_some() {
            children.remove(0);
        }
        lines.push(Line { id, id_at, evaluation, player, children });
    }
    Ok(lines)
}

/// The whitespace-separated words of `text` with their 1-based byte columns.
fn words_with_columns(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_ascii_whitespace().map(move |word| (word.as_ptr() as usize - text.as_ptr() as usize + 1, word))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn reads_colours_shared_children_and_interior_evaluations() {
        let tree = parse("a 0 W b c\nb 5 d e\nc -2 B e\nd 7\ne 1\n").unwrap();
        assert!(tree.has_shared_nodes());
        assert_eq!(tree.stats().nodes, 5);
        let b = tree.play(&tree.root(), 0);
        assert_eq!((tree.evaluation(b), tree.player(b)), (5, Player::Min));
        let e_from_b = tree.play(&b, 1);
        let e_from_c = tree.play(&tree.play(&tree.root(), 1), 0);
        assert_eq!(e_from_b, e_from_c);
        assert_eq!(tree.player(e_from_b), Player::Max);
    }

    #[test]
    fn round_trips_through_print() {
        let tree = parse("r 3 B x y\nx 1 z\ny 2 z\nz 4\n").unwrap();
        assert_eq!(tree.player(tree.root_id()), Player::Min);
        assert_eq!(parse(&print(&tree)).unwrap(), tree);
    }

    #[test]
    fn reports_problems_with_positions() {
        let cases = [
            ("", 1, 1, "empty input"),
            ("0 1 1\n1 2 0\n", 2, 5, "cycle"),
            ("0 1 W 1\n1 2 W\n", 1, 7, "players must alternate"),
            ("0 1 7\n", 1, 5, "unknown node id '7'"),
            ("0 1\n0 2\n", 2, 1, "duplicate node id '0'"),
            ("0 x\n", 1, 3, "'x' is not an integer"),
            ("0\n", 1, 1, "has no evaluation"),
            ("0 1000000000\n", 1, 3, "outside the admissible leaf range"),
        ];
        for (source, line, column, message) in cases {
            let error = parse(source).unwrap_err();
            assert_eq!((error.line, error.column), (line, column), "{source:?}: {error}");
            assert!(error.message.contains(message), "{source:?}: {error}");
        }
    }
}
