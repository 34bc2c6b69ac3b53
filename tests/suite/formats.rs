//! The tree formats: round trips, and errors reported at the right line and column.

use nullwindow::tree::text::{ParseError, parse, print};
use nullwindow::tree::{Tree, gtree};
use proptest::prelude::*;

use crate::strategies::{shapes, trees};

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
