//! The `gtree` format for game graphs, as written by the formally verified minimax study of Wesselink
//! et al. (public repository `wiegerw/minimax`, `python/game_trees.py`, functions `parse_tree` and
//! `print_tree`).
//!
//! One node per line: `ID EVAL [W|B] CHILD_ID…`, the lines in any order. `ID` is any word, `EVAL` an
//! integer from White's (MAX's) side, `W` (White, MAX) or `B` (Black, MIN) the player to move; a node
//! without a colour takes the opposite of the parent it is first reached from in a depth-first walk
//! from the root, and a root without one is White. Several parents may list the same child, which
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
//! The root is the one node that no line names as a child, wherever its line stands: the study's
//! writer lists nodes in the order of a Python set, so its root is often not the first line (its own
//! reader takes the first line all the same). Several such nodes, none (then every node is some
//! node's child, so there is a cycle), or nodes that the root does not reach are errors that name
//! them; [`parse_with_root`] reads from a chosen node instead, and leaves out what it does not reach.
//!
//! Beyond the original reader, this one checks what the crate's searches rely on and reports each
//! problem with its line and column: a duplicate or unknown id, a value outside the admissible range,
//! a cycle, and players that do not alternate along an edge (a node whose colour equals its parent's).
//! It also skips `#` comments to the end of a line, which the original does not accept, so keep
//! them out of files meant for both. Messages quote at most the first 40 characters of a word. Nodes
//! are renumbered in depth-first order from the root, and [`print`](fn@print) writes those numbers as
//! ids, the root first.

use std::collections::HashMap;

use super::text::{ParseError, Position, excerpt};
use super::{Node, NodeId, Tree};
use crate::game::Player;
use crate::value::{MAX_LEAF, MIN_LEAF, Value, is_admissible};

/// One line of the file, before ids are resolved.
struct Line<'a> {
    id: &'a str,
    id_at: Position,
    evaluation: Value,
    player: Option<Player>,
    /// Its children's ids, as `children_named[children.0..children.1]`: one list for every line, so
    /// that a file of millions of lines makes no allocation per line.
    children: (usize, usize),
}

/// Each line's children as line indices, in one list: `of(line)`.
struct ChildLines {
    /// Where each line's children start in `lines`; one more entry than lines.
    starts: Vec<usize>,
    lines: Vec<u32>,
}

impl ChildLines {
    fn of(&self, line: usize) -> &[u32] {
        &self.lines[self.starts[line]..self.starts[line + 1]]
    }

    fn len(&self) -> usize {
        self.starts.len() - 1
    }
}

/// How many ids an error names before it only counts the rest.
const IDS_NAMED: usize = 5;

/// Reads a game graph in the `gtree` format, its root being the one node that no line names as a
/// child.
///
/// ```
/// use nullwindow::tree::gtree;
/// // Lines in any order: `r` is the root because no line names it as a child.
/// let graph = gtree::parse("b 1 B\nr 0 W a b\na 2 B\n")?;
/// assert_eq!(graph.children(graph.root_id()).len(), 2);
/// let error = gtree::parse("r 0 W a\na 2 B\nx 5 W b\nb 1 B\n").unwrap_err();
/// assert_eq!((error.line, error.column), (1, 1));
/// assert_eq!(error.message, "several roots: 'r', 'x' are no node's child; choose the root (--root)");
/// # Ok::<(), nullwindow::tree::text::ParseError>(())
/// ```
///
/// # Errors
/// Empty input, a line without an evaluation, an evaluation that is not an integer or not admissible,
/// a duplicate id, an unknown child id, several nodes that no line names as a child or none, nodes
/// not reachable from the root, a cycle, or non-alternating players, with line and column.
pub fn parse(source: &str) -> Result<Tree, ParseError> {
    read(source, None)
}

/// Reads a game graph in the `gtree` format from the node `root`, wherever its line stands.
///
/// Nodes that `root` does not reach are allowed and left out of the tree, and only the part it
/// reaches is checked for cycles and alternating players; every line must still be well formed,
/// with unique ids and known children.
///
/// ```
/// use nullwindow::tree::gtree;
/// let graph = gtree::parse_with_root("r 0 W a\na 2 B\nx 5 W b\nb 1 B\n", "x")?;
/// assert_eq!((graph.node_count(), graph.evaluation(graph.root_id())), (2, 5));
/// # Ok::<(), nullwindow::tree::text::ParseError>(())
/// ```
///
/// # Errors
/// As [`parse`], except that unreachable nodes and other nodes without a parent are no error; and
/// `root` not being the id of a line, reported at the end of the input.
pub fn parse_with_root(source: &str, root: &str) -> Result<Tree, ParseError> {
    read(source, Some(root))
}

/// As [`parse`] (`root` `None`) or [`parse_with_root`], and the id each node has in the file:
/// `ids[node.index()]`. The tree renumbers nodes; a message about a node names it as its reader
/// wrote it.
///
/// ```
/// use nullwindow::tree::gtree;
/// let (graph, ids) = gtree::parse_with_ids("b 1 B\nr 0 W a b\na 2 B\n", None)?;
/// assert_eq!(ids, ["r", "a", "b"]);
/// assert_eq!(ids[graph.children(graph.root_id())[1].index()], "b");
/// # Ok::<(), nullwindow::tree::text::ParseError>(())
/// ```
///
/// # Errors
/// As [`parse`] or [`parse_with_root`].
pub fn parse_with_ids(source: &str, root: Option<&str>) -> Result<(Tree, Vec<String>), ParseError> {
    read_with_ids(source, root, true)
}

fn read(source: &str, chosen_root: Option<&str>) -> Result<Tree, ParseError> {
    // Only a caller that asks for the ids pays for a copy of each.
    read_with_ids(source, chosen_root, false).map(|(tree, _)| tree)
}

fn read_with_ids(
    source: &str,
    chosen_root: Option<&str>,
    keep_ids: bool,
) -> Result<(Tree, Vec<String>), ParseError> {
    let (lines, children_named) = split_lines(source)?;
    if lines.is_empty() {
        return Err(ParseError::new(Position { line: 1, column: 1 }, "empty input: no root line"));
    }
    let too_many = || ParseError::new(end_of(source), format!("more than {} lines", u32::MAX));
    let mut index_of_id: HashMap<&str, u32> = HashMap::with_capacity(lines.len());
    for (index, line) in lines.iter().enumerate() {
        let index = u32::try_from(index).map_err(|_| too_many())?;
        if index_of_id.insert(line.id, index).is_some() {
            return Err(ParseError::new(line.id_at, format!("duplicate node id {}", quoted(line.id))));
        }
    }
    let mut child_lines = ChildLines { starts: Vec::with_capacity(lines.len() + 1), lines: Vec::new() };
    child_lines.starts.push(0);
    child_lines.lines.reserve(children_named.len());
    for line in &lines {
        for &(child, at) in &children_named[line.children.0..line.children.1] {
            let index = *index_of_id
                .get(child)
                .ok_or_else(|| ParseError::new(at, format!("unknown node id {}", quoted(child))))?;
            child_lines.lines.push(index);
        }
        child_lines.starts.push(child_lines.lines.len());
    }
    drop(index_of_id);
    let root = match chosen_root {
        Some(id) => lines.iter().position(|line| line.id == id).ok_or_else(|| {
            // No line holds the id, so the only place to point at is where the search for it ended.
            ParseError::new(end_of(source), format!("no line has the id {} chosen as the root", quoted(id)))
        })?,
        None => find_root(&lines, &child_lines)?,
    };

    // Depth-first walk from the root: number nodes in preorder, fill in colours from the parent
    // first reached from, check alternation on every edge, and find cycles (an edge to a node still
    // on the walk's stack).
    let unvisited = u32::MAX;
    let mut new_id = vec![unvisited; lines.len()];
    let mut players: Vec<Option<Player>> = lines.iter().map(|line| line.player).collect();
    let mut on_stack = vec![false; lines.len()];
    let mut order: Vec<usize> = Vec::new();
    players[root] = players[root].or(Some(Player::Max));
    new_id[root] = 0;
    order.push(root);
    on_stack[root] = true;
    let mut stack = vec![(root, 0usize)];
    while let Some((line, next_child)) = stack.last_mut() {
        let line = *line;
        let Some(&child) = child_lines.of(line).get(*next_child) else {
            on_stack[line] = false;
            stack.pop();
            continue;
        };
        let child = child as usize;
        let at = children_named[lines[line].children.0 + *next_child].1;
        *next_child += 1;
        if on_stack[child] {
            return Err(ParseError::new(
                at,
                format!("cycle: node {} is its own descendant", quoted(lines[child].id)),
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
                        "players must alternate: node {} is {} like its parent {}",
                        quoted(lines[child].id),
                        colour_name(player),
                        quoted(lines[line].id)
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
    if chosen_root.is_none() && order.len() < lines.len() {
        // The root is the only node without a parent, so every node it misses has parents that it
        // misses too: following them up never ends, which in a finite file means a cycle.
        let unreached: Vec<usize> = (0..lines.len()).filter(|&line| new_id[line] == unvisited).collect();
        let (nodes, are, they_lie) =
            if unreached.len() == 1 { ("node", "is", "it lies") } else { ("nodes", "are", "they lie") };
        return Err(ParseError::new(
            lines[unreached[0]].id_at,
            format!(
                "{nodes} {} {are} not reachable from the root {}: {they_lie} on or below a cycle",
                name_list(unreached.iter().map(|&line| lines[line].id)),
                quoted(lines[root].id)
            ),
        ));
    }

    let mut nodes = Vec::with_capacity(order.len());
    let mut edges = Vec::new();
    for &line in &order {
        let first_edge = u32::try_from(edges.len())
            .map_err(|_| ParseError::new(lines[line].id_at, format!("more than {} edges", u32::MAX)))?;
        edges.extend(child_lines.of(line).iter().map(|&child| NodeId(new_id[child as usize])));
        nodes.push(Node {
            evaluation: lines[line].evaluation,
            player: players[line].unwrap_or(Player::Max),
            first_edge,
            child_count: u32::try_from(child_lines.of(line).len()).unwrap_or(u32::MAX),
        });
    }
    let ids =
        if keep_ids { order.iter().map(|&line| lines[line].id.to_owned()).collect() } else { Vec::new() };
    Ok((Tree::from_parts(nodes, edges, NodeId(0)), ids))
}

/// The line of the one node that no line names as a child.
fn find_root(lines: &[Line<'_>], child_lines: &ChildLines) -> Result<usize, ParseError> {
    let mut is_child = vec![false; lines.len()];
    for &child in &child_lines.lines {
        is_child[child as usize] = true;
    }
    let roots: Vec<usize> = (0..lines.len()).filter(|&line| !is_child[line]).collect();
    match roots[..] {
        [root] => Ok(root),
        [] => Err(no_root(lines, child_lines)),
        [first, ..] => Err(ParseError::new(
            lines[first].id_at,
            format!(
                "several roots: {} are no node's child; choose the root (--root)",
                name_list(roots.iter().map(|&line| lines[line].id))
            ),
        )),
    }
}

/// The error for a file where every node is some node's child, naming a cycle that shows it.
fn no_root(lines: &[Line<'_>], child_lines: &ChildLines) -> ParseError {
    let mut parent = vec![usize::MAX; lines.len()];
    for line in 0..child_lines.len() {
        for &child in child_lines.of(line) {
            if parent[child as usize] == usize::MAX {
                parent[child as usize] = line;
            }
        }
    }
    // Every node has a parent, so walking up from any node must come back to one already passed.
    let mut step_of = vec![usize::MAX; lines.len()];
    let mut path = Vec::new();
    let mut line = 0;
    while step_of[line] == usize::MAX {
        step_of[line] = path.len();
        path.push(line);
        line = parent[line];
    }
    let mut cycle: Vec<usize> = path[step_of[line]..].iter().rev().copied().collect();
    let first = cycle.iter().enumerate().min_by_key(|&(_, &line)| line).map_or(0, |(at, _)| at);
    cycle.rotate_left(first);
    let mut shown: Vec<String> = cycle.iter().take(IDS_NAMED).map(|&line| quoted(lines[line].id)).collect();
    if cycle.len() > IDS_NAMED {
        shown.push(format!("… ({} nodes)", cycle.len()));
    }
    shown.push(quoted(lines[cycle[0]].id));
    ParseError::new(
        lines[cycle[0]].id_at,
        format!("no root: every node is some node's child, as on the cycle {}", shown.join(" -> ")),
    )
}

/// Where the input ends: the line and column just past its last character.
fn end_of(source: &str) -> Position {
    let last_line = source.rfind('\n').map_or(0, |newline| newline + 1);
    Position { line: source.matches('\n').count() + 1, column: source.len() - last_line + 1 }
}

/// `word` in quotes, cut short if long.
fn quoted(word: &str) -> String {
    format!("'{}'", excerpt(word))
}

/// The first few of `ids`, quoted, and how many more there are.
fn name_list<'a>(ids: impl ExactSizeIterator<Item = &'a str>) -> String {
    let count = ids.len();
    let named: Vec<String> = ids.take(IDS_NAMED).map(quoted).collect();
    let mut list = named.join(", ");
    if count > IDS_NAMED {
        list.push_str(&format!(" and {} more", count - IDS_NAMED));
    }
    list
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

/// The lines of `source` that name a node, and every child id they name, in one list.
#[allow(clippy::type_complexity)] // the two lists, each as its only user reads it
fn split_lines(source: &str) -> Result<(Vec<Line<'_>>, Vec<(&str, Position)>), ParseError> {
    let mut lines = Vec::new();
    let mut children_named: Vec<(&str, Position)> = Vec::new();
    for (line_index, text) in source.lines().enumerate() {
        let text = text.split('#').next().unwrap_or("");
        let mut words =
            words_with_columns(text).map(|(column, word)| (word, Position { line: line_index + 1, column }));
        let Some((id, id_at)) = words.next() else { continue };
        let Some((evaluation_word, evaluation_at)) = words.next() else {
            return Err(ParseError::new(id_at, format!("node {} has no evaluation", quoted(id))));
        };
        let evaluation = evaluation_word.parse::<i64>().ok().ok_or_else(|| {
            ParseError::new(evaluation_at, format!("{} is not an integer", quoted(evaluation_word)))
        })?;
        let evaluation = Value::try_from(evaluation).ok().filter(|&v| is_admissible(v)).ok_or_else(|| {
            ParseError::new(
                evaluation_at,
                format!(
                    "value {} is outside the admissible leaf range {MIN_LEAF}..={MAX_LEAF}",
                    excerpt(evaluation_word)
                ),
            )
        })?;
        let mut words = words.peekable();
        let player = match words.peek() {
            Some(&("W", _)) => Some(Player::Max),
            Some(&("B", _)) => Some(Player::Min),
            _ => None,
        };
        if player.is_some() {
            words.next();
        }
        let first = children_named.len();
        children_named.extend(words);
        lines.push(Line { id, id_at, evaluation, player, children: (first, children_named.len()) });
    }
    Ok((lines, children_named))
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
            (
                "0 1 1\n1 2 0\n",
                1,
                1,
                "no root: every node is some node's child, as on the cycle '0' -> '1' -> '0'",
            ),
            ("r 0 a\na 1 b\nb 2 a\n", 3, 5, "cycle: node 'a' is its own descendant"),
            ("0 1 W 1\n1 2 W\n", 1, 7, "players must alternate"),
            ("0 1 7\n", 1, 5, "unknown node id '7'"),
            ("0 1\n0 2\n", 2, 1, "duplicate node id '0'"),
            ("0 x\n", 1, 3, "'x' is not an integer"),
            ("0\n", 1, 1, "has no evaluation"),
            ("0 1000000000\n", 1, 3, "outside the admissible leaf range"),
            ("a 1 W\nb 2 W c\nc 3 B\nd 4 B\n", 1, 1, "several roots: 'a', 'b', 'd' are no node's child"),
            (
                "r 0 a\na 1\nx 2 y\ny 3 x z\nz 4\n",
                3,
                1,
                "nodes 'x', 'y', 'z' are not reachable from the root 'r'",
            ),
            (
                "r 0 a\na 1\nx 2 x\n",
                3,
                1,
                "node 'x' is not reachable from the root 'r': it lies on or below a cycle",
            ),
        ];
        for (source, line, column, message) in cases {
            let error = parse(source).unwrap_err();
            assert_eq!((error.line, error.column), (line, column), "{source:?}: {error}");
            assert!(error.message.contains(message), "{source:?}: {error}");
        }
    }

    #[test]
    fn the_root_is_the_node_no_line_names_as_a_child() {
        let first = parse("r 0 W a b\na 1 B c\nb 2 B c\nc 3 W\n").unwrap();
        let shuffled = parse("c 3 W\nb 2 B c\n\nr 0 W a b\na 1 B c\n").unwrap();
        assert_eq!(shuffled, first);
    }

    #[test]
    fn a_chosen_root_leaves_out_what_it_does_not_reach() {
        let source = "r 0 W a\na 1 B\nx 5 B y\ny 6 W x\n";
        assert!(parse(source).is_err());
        let tree = parse_with_root(source, "r").unwrap();
        assert_eq!(tree, parse("r 0 W a\na 1 B\n").unwrap());
        let error = parse_with_root(source, "x").unwrap_err();
        assert_eq!(
            (error.line, error.column, error.message.as_str()),
            (4, 7, "cycle: node 'x' is its own descendant")
        );
        let error = parse_with_root(source, "q").unwrap_err();
        assert_eq!((error.line, error.column), (5, 1));
        assert_eq!(error.message, "no line has the id 'q' chosen as the root");
        // Below the chosen root, a node that another line also names as a child is an ordinary node.
        let tree = parse_with_root("a 1 W b\nb 2 B c\nc 3 W\n", "b").unwrap();
        assert_eq!((tree.node_count(), tree.player(tree.root_id())), (2, Player::Min));
    }

    #[test]
    fn long_ids_and_long_lists_are_cut_short() {
        let long = "x".repeat(10_000);
        let error = parse(&format!("r 0 {long}\n")).unwrap_err();
        assert_eq!(error.message, format!("unknown node id '{}…'", "x".repeat(40)));
        let roots: String = (0..8).map(|i| format!("n{i} {i}\n")).collect();
        let error = parse(&roots).unwrap_err();
        assert_eq!(
            error.message,
            "several roots: 'n0', 'n1', 'n2', 'n3', 'n4' and 3 more are no node's child; choose the root (--root)"
        );
        let ring: String = (0..8).map(|i| format!("n{i} {i} n{}\n", (i + 1) % 8)).collect();
        let error = parse(&ring).unwrap_err();
        assert_eq!(
            error.message,
            "no root: every node is some node's child, as on the cycle 'n0' -> 'n1' -> 'n2' -> 'n3' -> 'n4' -> … (8 nodes) -> 'n0'"
        );
    }
}
