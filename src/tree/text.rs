//! The parenthesis format: `tree := INTEGER | '(' tree+ ')'`.
//!
//! Tokens are separated by whitespace (parentheses need none); `#` starts a comment that runs to the
//! end of the line. The root is MAX and levels alternate. A leaf value must be admissible
//! ([`crate::value`]). Interior nodes carry no evaluation in this format: a depth-limited search that
//! stops at one uses **0**. Use the [`gtree`](super::gtree) format to give interior nodes evaluations.
//!
//! ```text
//! # Three MIN nodes under a MAX root; the value is 15.
//! ((3 17) (2 12) (15 (25 0)))
//! ```
//!
//! The parser never recurses, so nesting depth is limited only by memory, and every error names its
//! line and column (both counted from 1, columns in bytes):
//!
//! ```
//! use nullwindow::tree::text::parse;
//! let error = parse("((3 17)\n (2 x))").unwrap_err();
//! assert_eq!((error.line, error.column), (2, 5));
//! assert_eq!(error.to_string(), "line 2, column 5: 'x' is not an integer");
//! ```

use std::fmt;

use super::{BuildError, NodeId, Tree, TreeBuilder};
use crate::game::{Game, Player};
use crate::value::{MAX_LEAF, MIN_LEAF, Value};

/// A syntax error in a tree file, with its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The line of the offending token, from 1.
    pub line: usize,
    /// The column (byte) of the offending token, from 1.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for ParseError {}

impl ParseError {
    pub(crate) fn new(position: Position, message: impl Into<String>) -> Self {
        Self { line: position.line, column: position.column, message: message.into() }
    }
}

/// A line and column in the input, both from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Position {
    pub(crate) line: usize,
    pub(crate) column: usize,
}

/// Parses a tree in the parenthesis format.
///
/// # Errors
/// Empty input, unbalanced parentheses, an empty node `()`, a token that is not an integer, a value
/// outside the admissible range, or more than one tree, each with its line and column.
pub fn parse(source: &str) -> Result<Tree, ParseError> {
    parse_bytes(source.as_bytes())
}

/// Parses a tree in the parenthesis format from raw bytes (a file that need not be UTF-8: any
/// non-ASCII byte outside a comment is reported as part of a bad token).
///
/// # Errors
/// As [`parse`].
pub fn parse_bytes(source: &[u8]) -> Result<Tree, ParseError> {
    let mut builder = TreeBuilder::new();
    // Where each open '(' stands, to report an unclosed one.
    let mut open_positions: Vec<Position> = Vec::new();
    let mut end = Position { line: 1, column: 1 };
    for token in Tokens::new(source) {
        let (position, token) = token;
        end = position;
        let step = match token {
            Token::Open => {
                open_positions.push(position);
                builder.open()
            }
            Token::Close => builder.close().inspect(|()| {
                open_positions.pop();
            }),
            Token::Word(word) => {
                let value = parse_value(word).map_err(|message| ParseError::new(position, message))?;
                builder.leaf(value)
            }
            Token::End => break,
        };
        step.map_err(|error| {
            let at = match error {
                // Point at the '(' that opened the empty node, where the reader looks for it.
                BuildError::EmptyNode => open_positions.last().copied().unwrap_or(position),
                _ => position,
            };
            ParseError::new(at, error.to_string())
        })?;
    }
    builder.finish().map_err(|error| match error {
        BuildError::Unclosed(_) => {
            let at = open_positions.last().copied().unwrap_or(end);
            ParseError::new(at, "unbalanced '(': this node is never closed")
        }
        other => ParseError::new(end, other.to_string()),
    })
}

/// A bad token as an error quotes it: at most its first 40 characters, control characters escaped,
/// so that an error stays one short line whatever the input holds (100 KB of NUL bytes included).
pub fn excerpt(token: &str) -> String {
    let mut shown: String = token.chars().take(40).flat_map(char::escape_debug).collect();
    if token.chars().nth(40).is_some() {
        shown.push('…');
    }
    shown
}

/// A name that came from outside (an engine's token or move) as a message shows it whole: its
/// control characters escaped as Rust's `{:?}` escapes them (`\u{1b}`, `\n`), so that no name can
/// move the cursor or recolour a terminal, and everything else as it is.
#[must_use]
pub fn printable(name: &str) -> std::borrow::Cow<'_, str> {
    if name.chars().any(char::is_control) {
        let escaped = name
            .chars()
            .flat_map(|c| if c.is_control() { c.escape_debug().collect::<Vec<_>>() } else { vec![c] })
            .collect();
        std::borrow::Cow::Owned(escaped)
    } else {
        std::borrow::Cow::Borrowed(name)
    }
}

fn parse_value(word: &[u8]) -> Result<Value, String> {
    let shown = excerpt(&String::from_utf8_lossy(word));
    let digits = word.strip_prefix(b"-").or_else(|| word.strip_prefix(b"+")).unwrap_or(word);
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err(format!("'{shown}' is not an integer"));
    }
    // Saturate long digit strings: they are out of range either way.
    let magnitude =
        digits.iter().fold(0i64, |acc, &d| acc.saturating_mul(10).saturating_add(i64::from(d - b'0')));
    let value = if word[0] == b'-' { -magnitude } else { magnitude };
    Value::try_from(value)
        .ok()
        .filter(|&v| crate::value::is_admissible(v))
        .ok_or_else(|| format!("value {shown} is outside the admissible leaf range {MIN_LEAF}..={MAX_LEAF}"))
}

/// Prints `tree` in the parenthesis format, on one line, children separated by single spaces.
///
/// `parse(&print(t)) == t` for every tree this format can express: the shape, the leaf values, and
/// players alternating from a MAX root. Interior evaluations are not part of the format and print as
/// nothing, and a node shared by several parents (from a `gtree` file) prints once per parent. The
/// printer never recurses.
#[must_use]
pub fn print(tree: &Tree) -> String {
    let mut out = String::new();
    // Each stack entry is a node and the index of its next child to print.
    let mut stack = vec![(tree.root(), 0usize)];
    while let Some((node, next_child)) = stack.last_mut() {
        let node = *node;
        if tree.is_leaf(node) {
            out.push_str(&tree.evaluation(node).to_string());
            stack.pop();
            continue;
        }
        let children = tree.children(node);
        match *next_child {
            0 => out.push('('),
            i if i == children.len() => {
                out.push(')');
                stack.pop();
                continue;
            }
            _ => out.push(' '),
        }
        let child = children[*next_child];
        *next_child += 1;
        stack.push((child, 0));
    }
    out
}

/// Something of a tree that [`print`](fn@print) cannot write: reading the printed text back gives
/// another tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loss {
    /// The root is MIN; the format's root is always MAX.
    MinRoot,
    /// An interior node whose evaluation is not 0; the format gives interior nodes none (a
    /// depth-limited search reads 0 there).
    InteriorEvaluation(NodeId),
    /// A node with several parents (a transposition); the format prints it once per parent, as
    /// separate nodes.
    SharedNode(NodeId),
}

/// Everything of `tree` that the parenthesis format cannot hold, node by node in the order of their
/// numbers (the root first: the readers number nodes in preorder); empty when `parse(&print(tree))`
/// gives `tree` back. Players that do not alternate along an edge are not listed: no reader or
/// builder of the crate makes such a tree.
///
/// ```
/// use nullwindow::tree::{NodeId, gtree, text::{Loss, losses}};
/// let graph = gtree::parse("r 0 B a b\na 5 W c\nb 0 W c\nc 1 B\n")?;
/// assert_eq!(losses(&graph), [Loss::MinRoot, Loss::InteriorEvaluation(NodeId(1)), Loss::SharedNode(NodeId(2))]);
/// assert!(losses(&"((1 2) 3)".parse()?).is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn losses(tree: &Tree) -> Vec<Loss> {
    let mut parents = vec![0u32; tree.node_count()];
    let mut reachable = tree.post_order();
    reachable.sort_unstable();
    for &node in &reachable {
        for child in tree.children(node) {
            parents[child.index()] = parents[child.index()].saturating_add(1);
        }
    }
    let mut found = Vec::new();
    if tree.player(tree.root_id()) == Player::Min {
        found.push(Loss::MinRoot);
    }
    for node in reachable {
        if !tree.is_leaf(node) && tree.evaluation(node) != 0 {
            found.push(Loss::InteriorEvaluation(node));
        }
        if parents[node.index()] > 1 {
            found.push(Loss::SharedNode(node));
        }
    }
    found
}

/// How many nodes [`print`](fn@print) writes: a shared node once per path to it, so a graph may
/// print exponentially many. Counted without printing, saturating at `u64::MAX`.
///
/// ```
/// use nullwindow::tree::{gtree, text::printed_node_count};
/// // A chain of diamonds: every level doubles the paths.
/// let graph = gtree::parse("a 0 b c\nb 0 d\nc 0 d\nd 0 e f\ne 0 g\nf 0 g\ng 1\n")?;
/// assert_eq!((graph.stats().nodes, printed_node_count(&graph)), (7, 13));
/// # Ok::<(), nullwindow::tree::text::ParseError>(())
/// ```
#[must_use]
pub fn printed_node_count(tree: &Tree) -> u64 {
    printed_sizes(tree)[tree.root_id().index()]
}

/// [`printed_node_count`] of the subtree below every node reachable from the root, by arena index
/// (0 for nodes the root does not reach).
pub(crate) fn printed_sizes(tree: &Tree) -> Vec<u64> {
    let mut size = vec![0u64; tree.node_count()];
    for node in tree.post_order() {
        size[node.index()] =
            tree.children(node).iter().fold(1u64, |total, child| total.saturating_add(size[child.index()]));
    }
    size
}

#[derive(Debug, PartialEq, Eq)]
enum Token<'a> {
    Open,
    Close,
    Word(&'a [u8]),
    End,
}

/// Splits the input into parentheses and words, skipping whitespace and comments.
struct Tokens<'a> {
    source: &'a [u8],
    offset: usize,
    position: Position,
    done: bool,
}

impl<'a> Tokens<'a> {
    const fn new(source: &'a [u8]) -> Self {
        Self { source, offset: 0, position: Position { line: 1, column: 1 }, done: false }
    }

    fn advance(&mut self) {
        if self.source[self.offset] == b'\n' {
            self.position.line += 1;
            self.position.column = 1;
        } else {
            self.position.column += 1;
        }
        self.offset += 1;
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = (Position, Token<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        loop {
            let Some(&byte) = self.source.get(self.offset) else {
                self.done = true;
                return Some((self.position, Token::End));
            };
            let start = self.position;
            match byte {
                b'#' => {
                    while self.source.get(self.offset).is_some_and(|&b| b != b'\n') {
                        self.advance();
                    }
                }
                b if b.is_ascii_whitespace() => self.advance(),
                b'(' => {
                    self.advance();
                    return Some((start, Token::Open));
                }
                b')' => {
                    self.advance();
                    return Some((start, Token::Close));
                }
                _ => {
                    let first = self.offset;
                    while self
                        .source
                        .get(self.offset)
                        .is_some_and(|&b| !b.is_ascii_whitespace() && !matches!(b, b'(' | b')' | b'#'))
                    {
                        self.advance();
                    }
                    return Some((start, Token::Word(&self.source[first..self.offset])));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_the_example_tree_back() {
        let source = "((3 17) (2 12) (15 (25 0)))";
        assert_eq!(print(&parse(source).unwrap()), source);
    }

    #[test]
    fn accepts_signs_comments_and_no_space_around_parentheses() {
        let tree = parse("# a comment\n(+3 -4#x\n(5))").unwrap();
        assert_eq!(print(&tree), "(3 -4 (5))");
    }

    #[test]
    fn deep_nesting_parses_and_prints_without_recursion() {
        let depth = 1_000_000;
        let source = format!("{}7{}", "(".repeat(depth), ")".repeat(depth));
        let tree = parse(&source).unwrap();
        assert_eq!(tree.stats().height, depth as u32);
        assert_eq!(print(&tree), source);
    }

    #[test]
    fn huge_integers_are_out_of_range_not_overflowing() {
        let error = parse("(1 99999999999999999999999999)").unwrap_err();
        assert_eq!(error.column, 4);
        assert!(error.message.contains("outside the admissible leaf range"), "{error}");
    }
}
