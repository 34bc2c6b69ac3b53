//! The tree formats: round trips, and errors reported at the right line and column.

use nullwindow::reference::minimax;
use nullwindow::tree::text::{ParseError, parse, print};
use nullwindow::tree::{Tree, gtree};
use proptest::prelude::*;

use crate::strategies::{game_graphs, shapes, study_shapes, trees};

/// Positions (line, column) of every leaf token in a printed tree, and where each starts in the text.
fn leaf_tokens(printed: &str) -> Vec<(usize, usize, usize, usize)> {
    let mut tokens = Vec::new();
    let (mut line, mut column) = (1, 1);
    let bytes = printed.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'-' || b.is_ascii_digit() {
            let start = i;
            let (l, c) = (line, column);
            while i < bytes.len() && (bytes[i] == b'-' || bytes[i].is_ascii_digit()) {
                i += 1;
                column += 1;
            }
            tokens.push((start, i, l, c));
            continue;
        }
        if b == b'\n' {
            line += 1;
            column = 1;
        } else {
            column += 1;
        }
        i += 1;
    }
    tokens
}

/// Spreads a printed tree over several lines by turning some spaces into newlines, as a hand-written
/// file would be.
fn with_newlines(printed: &str, every: usize) -> String {
    let mut spaces = 0;
    printed
        .chars()
        .map(|c| {
            if c == ' ' {
                spaces += 1;
                if spaces % every == 0 {
                    return '\n';
                }
            }
            c
        })
        .collect()
}

fn error_at(source: &str) -> ParseError {
    parse(source).expect_err(source)
}

fn minimax_value(tree: &Tree) -> i32 {
    minimax::search(tree, &tree.root_id(), u32::MAX).value
}

/// A printed graph's lines in an order a strategy picks, joined as the study's writer joins them (no
/// newline after the last), with the colour left out of every line but the root's when `colourless`
/// (the reader then infers each from its parent).
fn printed_lines(tree: Tree) -> impl Strategy<Value = (Tree, String)> {
    let lines: Vec<String> = gtree::print(&tree).lines().map(str::to_owned).collect();
    (Just(tree), Just(lines).prop_shuffle(), any::<bool>()).prop_map(|(tree, lines, colourless)| {
        let root = tree.root_id().to_string();
        let lines: Vec<String> = lines
            .into_iter()
            .map(|line| {
                let mut words: Vec<&str> = line.split(' ').collect();
                if colourless && words[0] != root {
                    words.remove(2);
                }
                words.join(" ")
            })
            .collect();
        (tree, lines.join("\n"))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn print_then_parse_gives_the_same_tree(tree in trees()) {
        prop_assert_eq!(parse(&print(&tree)).unwrap(), tree);
    }

    #[test]
    fn whitespace_and_comments_do_not_change_the_tree(tree in trees(), every in 1usize..4) {
        let spread = with_newlines(&print(&tree), every).replace('\n', " # a comment (with 1 2)\n");
        prop_assert_eq!(parse(&spread).unwrap(), tree);
    }

    #[test]
    fn gtree_print_then_parse_gives_the_same_tree(tree in trees()) {
        prop_assert_eq!(gtree::parse(&gtree::print(&tree)).unwrap(), tree);
    }

    /// `Display` promises no loss: graphs, interior evaluations and MIN roots come back too, and a
    /// tree the parenthesis format holds keeps that form.
    #[test]
    fn display_then_parse_gives_the_same_tree_of_any_kind(
        tree in prop_oneof![trees(), crate::strategies::graphs_with_transpositions()],
        seed in any::<u64>(),
    ) {
        let evaluated = nullwindow::tree::random::RandomTreeConfig {
            seed, interior_values: Some(-5..=5), ..Default::default()
        }.generate().unwrap();
        for tree in [tree, evaluated] {
            let shown = tree.to_string();
            prop_assert_eq!(shown.parse::<nullwindow::tree::Tree>().unwrap(), tree.clone(), "{}", shown);
            prop_assert_eq!(shown.starts_with('(') || !shown.contains(' '), nullwindow::tree::text::losses(&tree).is_empty());
        }
    }

    #[test]
    fn gtree_lines_in_any_order_give_the_same_graph(
        (tree, shuffled) in prop_oneof![trees(), game_graphs(), study_shapes()].prop_flat_map(printed_lines)
    ) {
        let read = gtree::parse(&shuffled).map_err(|e| TestCaseError::fail(format!("{e}:\n{shuffled}")))?;
        prop_assert_eq!(minimax_value(&read), minimax_value(&tree));
        prop_assert_eq!(read, tree);
    }

    #[test]
    fn a_bad_token_is_reported_where_it_stands(tree in trees(), every in 1usize..4, pick in any::<prop::sample::Index>()) {
        let source = with_newlines(&print(&tree), every);
        let tokens = leaf_tokens(&source);
        let (start, end, line, column) = tokens[pick.index(tokens.len())];
        for (bad, message) in [("7x", "is not an integer"), ("1000000000", "outside the admissible"), ("--3", "is not an integer")] {
            let broken = format!("{}{bad}{}", &source[..start], &source[end..]);
            let error = error_at(&broken);
            prop_assert_eq!((error.line, error.column), (line, column), "{}", error);
            prop_assert!(error.message.contains(message), "{}", error);
        }
    }

    #[test]
    fn an_empty_node_is_reported_at_its_parenthesis(tree in trees(), pick in any::<prop::sample::Index>()) {
        let source = print(&tree);
        let tokens = leaf_tokens(&source);
        let (start, end, line, column) = tokens[pick.index(tokens.len())];
        let broken = format!("{}(){}", &source[..start], &source[end..]);
        let error = error_at(&broken);
        prop_assert_eq!((error.line, error.column), (line, column), "{}", error);
        prop_assert!(error.message.contains("empty node"), "{}", error);
    }

    #[test]
    fn a_missing_close_is_reported_at_the_unclosed_parenthesis(shape in shapes(4, 5, -3..=3)) {
        let source = print(&shape.to_tree());
        prop_assume!(source.starts_with('('));
        let truncated = &source[..source.len() - 1];
        let error = error_at(truncated);
        prop_assert_eq!((error.line, error.column), (1, 1), "{}", error);
        prop_assert!(error.message.contains("never closed"), "{}", error);
    }

    #[test]
    fn text_after_the_tree_is_a_second_tree(tree in trees(), extra in prop_oneof![Just(")"), Just("5"), Just("(1)")]) {
        let source = print(&tree);
        let broken = format!("{source}\n  {extra}");
        let error = error_at(&broken);
        prop_assert_eq!((error.line, error.column), (2, 3), "{}", error);
    }
}

#[test]
fn each_error_class_has_its_own_message_and_position() {
    let cases = [
        ("", 1, 1, "empty input"),
        ("  # only a comment\n", 2, 1, "empty input"),
        ("((1 2)\n (3 4)", 1, 1, "never closed"),
        ("(1 2))", 1, 6, "unbalanced ')'"),
        (")", 1, 1, "unbalanced ')'"),
        ("(1 ()\n)", 1, 4, "empty node"),
        ("(1 two)", 1, 4, "'two' is not an integer"),
        ("(1 2.5)", 1, 4, "'2.5' is not an integer"),
        ("(1\n  -1000000000)", 2, 3, "outside the admissible leaf range"),
        ("(1 2147483648)", 1, 4, "outside the admissible leaf range"),
        ("(1 2) (3 4)", 1, 7, "more than one tree"),
        ("1 2", 1, 3, "more than one tree"),
        ("(1 \u{e9})", 1, 4, "is not an integer"),
    ];
    for (source, line, column, message) in cases {
        let error = error_at(source);
        assert_eq!((error.line, error.column), (line, column), "{source:?}: {error}");
        assert!(error.message.contains(message), "{source:?}: {error}");
    }
}

/// The corpus files that the study's own writer printed, each with the file it printed where the crate
/// has one with the root first.
const STUDY_ORDER: [(&str, Option<&str>); 3] = [
    ("study-order-transposition.gtree", Some("transposition.gtree")),
    ("study-order-wesselink-ttm-counterexample.gtree", Some("wesselink-ttm-counterexample.gtree")),
    ("study-order-random-tree.gtree", None),
];

fn tree_file(name: &str) -> String {
    let path = format!("{}/testdata/trees/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn files_in_the_studys_line_order_read_as_with_the_root_first() {
    for (name, original) in STUDY_ORDER {
        let source = tree_file(name);
        let node_lines: Vec<&str> =
            source.lines().filter(|line| !line.starts_with('#') && !line.trim().is_empty()).collect();
        let id = |line: &str| line.split_whitespace().next().unwrap().to_owned();
        // The study's writer gives every line its colour, so children start at the fourth word.
        let children: Vec<String> =
            node_lines.iter().flat_map(|line| line.split_whitespace().skip(3).map(str::to_owned)).collect();
        let root = node_lines.iter().position(|&line| !children.contains(&id(line))).unwrap();
        assert_ne!(root, 0, "{name}: the root is already first");

        let mut root_first = node_lines.clone();
        let root_line = root_first.remove(root);
        root_first.insert(0, root_line);
        let with_root_first = gtree::parse_with_root(&root_first.join("\n"), &id(root_line)).unwrap();
        let read = gtree::parse(&source).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(minimax_value(&read), minimax_value(&with_root_first), "{name}");
        assert_eq!(read, with_root_first, "{name}");
        if let Some(original) = original {
            assert_eq!(read, gtree::parse(&tree_file(original)).unwrap(), "{name} and {original}");
        }
        // What taking the first line for the root read instead: another, smaller graph.
        let from_first_line = gtree::parse_with_root(&source, &id(node_lines[0])).unwrap();
        assert!(from_first_line.node_count() < read.node_count(), "{name}");
    }
}

#[test]
fn gtree_errors_about_the_root_name_the_nodes() {
    let cases = [
        (
            "a 1 W\n# b has no parent either\nb 2 W c\nc 3 B\n",
            1,
            1,
            "several roots: 'a', 'b' are no node's child",
        ),
        (
            "a 1\nb 2 c a\nc 3 b\n",
            2,
            1,
            "no root: every node is some node's child, as on the cycle 'b' -> 'c' -> 'b'",
        ),
        ("c 1\nr 0 c\nu 2 v\nv 3 u\n", 3, 1, "nodes 'u', 'v' are not reachable from the root 'r'"),
        ("r 0 a\na 1 a\n", 2, 5, "cycle: node 'a' is its own descendant"),
    ];
    for (source, line, column, message) in cases {
        let error = gtree::parse(source).expect_err(source);
        assert_eq!((error.line, error.column), (line, column), "{source:?}: {error}");
        assert!(error.message.contains(message), "{source:?}: {error}");
    }
    let error = gtree::parse_with_root("r 0 a\na 1\n", "b").unwrap_err();
    assert_eq!(error.to_string(), "line 3, column 1: no line has the id 'b' chosen as the root");
}

#[test]
fn non_utf8_bytes_are_a_bad_token_not_a_crash() {
    let error = nullwindow::tree::text::parse_bytes(b"(1 \xff\xfe)").unwrap_err();
    assert_eq!((error.line, error.column), (1, 4));
}

#[test]
fn a_million_children_under_one_node_parse() {
    let source = format!("({})", vec!["1"; 1_000_000].join(" "));
    let tree: Tree = source.parse().unwrap();
    assert_eq!(tree.children(tree.root_id()).len(), 1_000_000);
}
