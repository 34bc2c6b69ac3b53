//! The book's chapter "What the oracle found" cannot drift: every shrunk case in
//! `testdata/case-studies/` has the exact value the chapter states, each stated disagreement is
//! found in the chapter as the oracle words it, the `minimax` crate says what the chapter says it
//! says (its glue is the cargo example, compiled in here), and every command the chapter shows with
//! its output that needs only this crate prints that output today. The easyAI commands need easyAI
//! and are not run; their numbers are held to the crate's exact values here.

use std::path::Path;

use nullwindow::game::{Game, Player};
use nullwindow::games::tictactoe::TicTacToe;
use nullwindow::oracle::harness::Case;
use nullwindow::reference::minimax;
use nullwindow::theory::witness::extension_values;
use nullwindow::tree::Tree;
use nullwindow::tree::unfold::unfold;
use nullwindow::value::Value;

#[path = "../../examples/case-studies/minimax/main.rs"]
mod minimax_crate;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The chapter as a reader sees it: each snapshot it includes (`{{#include FILE:N:}}`, from line N
/// on) put in place, so that a number the chapter shows from a snapshot is checked too.
fn chapter() -> String {
    let text = std::fs::read_to_string(root().join("book/src/case-studies.md")).unwrap();
    let mut pieces = text.split("{{#include ");
    let mut shown = pieces.next().unwrap().to_owned();
    for piece in pieces {
        let (directive, rest) = piece.split_once("}}").unwrap();
        match directive.strip_suffix(':').and_then(|spec| spec.rsplit_once(':')) {
            Some((path, first)) if path.ends_with(".snap") => {
                let included = std::fs::read_to_string(root().join("book/src").join(path)).unwrap();
                let from: usize = first.parse().unwrap();
                for line in included.lines().skip(from - 1) {
                    shown.push_str(line);
                    shown.push('\n');
                }
            }
            _ => shown.push_str(directive),
        }
        shown.push_str(rest);
    }
    shown
}

fn case(file: &str) -> Tree {
    let path = root().join("testdata/case-studies").join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    if file.ends_with(".gtree") {
        nullwindow::tree::gtree::parse(&text).unwrap()
    } else {
        text.parse().unwrap()
    }
}

/// The exact depth-limited value of a tree's root, from the side to move there.
fn exact_for_mover(tree: &Tree, depth: u32) -> Value {
    let root = tree.root_id();
    tree.to_move(&root).perspective(minimax::search(tree, &root, depth).value)
}

/// Each root move's exact value, from the side to move at the root.
fn divide_for_mover(tree: &Tree, depth: u32) -> Vec<Value> {
    let root = tree.root_id();
    let mover = tree.to_move(&root);
    tree.children(root)
        .iter()
        .map(|&child| mover.perspective(minimax::search(tree, &child, depth - 1).value))
        .collect()
}

fn says(chapter: &str, text: &str) {
    assert!(chapter.contains(text), "the chapter no longer says {text:?}");
}

#[test]
fn every_shrunk_case_has_the_exact_value_the_chapter_states() {
    let chapter = chapter();
    // (file, depth, exact value from the side to move, what the chapter quotes the oracle saying)
    let cases = [
        ("minimax-win-band.tree", 1, 32668, "the engine says 32767, the exact value is 32668"),
        ("minimax-deeper-entry.gtree", 4, 1, "the engine says 0, the exact value is 1;"),
        ("easyai-leaf-shift.tree", 2, -1, "the engine says 0, the exact value is -1"),
        ("easyai-sss-move.gtree", 4, 1, "after move 0 the root is worth -1, but its value is 1"),
        ("easyai-dual-loops.gtree", 2, 1, "the exact value is 1, from MIN's side"),
    ];
    for (file, depth, exact, quoted) in cases {
        assert_eq!(exact_for_mover(&case(file), depth), exact, "{file} at depth {depth}");
        says(&chapter, &format!("testdata/case-studies/{file}"));
        says(&chapter, quoted);
    }
    // The shrunk cases as the oracle printed them.
    for (file, shown) in [
        ("minimax-deeper-entry.gtree", "0 0 W 1 3\n1 0 B 2\n2 0 W 3\n3 0 B 4\n4 1 W 5\n5 0 B\n"),
        ("easyai-sss-move.gtree", "0 0 B 1 3\n1 0 W 2\n2 1 B\n3 -1 W\n"),
        ("easyai-dual-loops.gtree", "0 0 B 1 2\n1 0 W\n2 -1 W\n"),
    ] {
        assert_eq!(std::fs::read_to_string(root().join("testdata/case-studies").join(file)).unwrap(), shown);
        says(&chapter, shown);
    }
    assert_eq!(divide_for_mover(&case("easyai-sss-move.gtree"), 4), [-1, 1]);
    assert_eq!(divide_for_mover(&case("easyai-dual-loops.gtree"), 2), [0, 1]);
}

#[test]
fn the_minimax_crate_says_what_the_chapter_says() {
    // Its win band: the one-leaf case searched one ply.
    let band = Case { tree: case("minimax-win-band.tree"), depth: 1, origin: String::new() };
    for strategy in ["negamax", "iterative", "mtdf", "parallel"] {
        assert_eq!(minimax_crate::search(strategy, &band).unwrap().value, 32767, "{strategy}");
    }
    // A deeper entry: the table's strategies say 0, which an extension gives, where the exact
    // value is 1; negamax, with no table, says 1.
    let tree = case("minimax-deeper-entry.gtree");
    assert!(extension_values(&tree, &tree.root_id(), 4).contains(&0));
    let deeper = Case { tree, depth: 4, origin: String::new() };
    assert_eq!(minimax_crate::search("negamax", &deeper).unwrap().value, 1);
    for strategy in ["iterative", "plain", "mtdf", "aspiration"] {
        assert_eq!(minimax_crate::search(strategy, &deeper).unwrap().value, 0, "{strategy}");
    }
}

/// easyAI's Nim (`easyAI/games/Nim.py`): four piles; a move takes any number from one pile; the
/// side to move when the piles are empty has won (its opponent took the last piece), worth 100.
struct Nim {
    start: ([u8; 4], Player),
}

impl Game for Nim {
    type Position = ([u8; 4], Player);
    type Move = u32;
    type Moves = std::vec::IntoIter<u32>;

    fn root(&self) -> Self::Position {
        self.start
    }

    fn to_move(&self, position: &Self::Position) -> Player {
        position.1
    }

    /// In easyAI's order: pile by pile, then the number taken (a move is `pile * 16 + taken`).
    fn moves(&self, (piles, _): &Self::Position) -> Self::Moves {
        let moves = (0..4u32)
            .flat_map(|pile| (1..=u32::from(piles[pile as usize])).map(move |take| pile * 16 + take));
        moves.collect::<Vec<_>>().into_iter()
    }

    fn play(&self, (piles, player): &Self::Position, mv: u32) -> Self::Position {
        let mut piles = *piles;
        piles[(mv / 16) as usize] -= u8::try_from(mv % 16).unwrap();
        (piles, player.opponent())
    }

    fn evaluate(&self, (piles, player): &Self::Position) -> Value {
        if piles.iter().all(|&pile| pile == 0) { player.perspective(100) } else { 0 }
    }

    fn key(&self, (piles, player): &Self::Position) -> u64 {
        piles.iter().fold(u64::from(*player == Player::Max), |key, &pile| key * 8 + u64::from(pile))
    }
}

fn name(mv: u32) -> String {
    format!("{},{}", mv / 16 + 1, mv % 16)
}

#[test]
fn easyais_own_games_have_the_values_the_chapter_states() {
    let chapter = chapter();
    // TicTacToe after 4 8 5 9 3 2, two plies: a win (the crate's 1, easyAI's 100), which SSS
    // scores 99.
    let game = TicTacToe::from_moves("485932").unwrap();
    let position = game.root();
    assert_eq!(game.to_move(&position).perspective(minimax::search(&game, &position, 2).value), 1);
    says(&chapter, "position: 021110022\nthe engine says 99 (move 6); the exact value is 100");

    // Nim at 0-0-1-0, two plies: the mover must take the last piece (SSS: -99).
    let nim = Nim { start: ([0, 0, 1, 0], Player::Min) };
    assert_eq!(Player::Min.perspective(minimax::search(&nim, &nim.root(), 2).value), -100);
    says(&chapter, "position: 0-0-1-0\nthe engine says -99 (move 3,1); the exact value is -100");

    // Nim at 0-0-2-5, three plies, MIN to move: exact 0, every move as the chapter lists it.
    let nim = Nim { start: ([0, 0, 2, 5], Player::Min) };
    let root = nim.root();
    assert_eq!(Player::Min.perspective(minimax::search(&nim, &root, 3).value), 0);
    says(&chapter, "position: 0-0-2-5\nthe engine says 100 (move 4,3); the exact value is 0");
    for mv in nim.legal_moves(&root) {
        let value = Player::Min.perspective(minimax::search(&nim, &nim.play(&root, mv), 2).value);
        says(&chapter, &format!("  {:<6}{value}\n", name(mv)));
    }
    // The oracle's limit: unfolded to the case's depth, the extensions give 0 alone; on the game
    // itself, where a node at the horizon can be searched on, an extension gives easyAI's 100.
    let case = unfold(&nim, &root, 3, 100_000).unwrap();
    let within: Vec<Value> = extension_values(&case, &case.root_id(), 3).into_iter().collect();
    assert_eq!(within, [0], "extensions of the unfolded case");
    says(&chapter, "the extensions give values from 0 to 0");
    assert!(extension_values(&nim, &root, 3).contains(&100), "extensions on the game, from the side to move");
}

// The command line run as the chapter shows it, as every chapter's commands run.
#[cfg(feature = "cli")]
use crate::book::run;

/// The `minimax` crate's glue as the chapter runs it: the cargo example's arguments, and what it
/// prints.
fn run_example(args: &[&str]) -> String {
    let args: Vec<String> = args.iter().map(|&arg| arg.to_owned()).collect();
    let (report, _) = minimax_crate::run(&args).unwrap();
    format!("$ cargo run --release --example case-study-minimax -- {}\n{report}", args.join(" "))
}

// The output the chapter shows: each snapshot is included from its sixth line.

#[test]
fn minimax_crate_agrees_on_the_default_cases() {
    insta::assert_snapshot!(run_example(&["all", "300", "0"]));
}

#[test]
fn minimax_crate_win_band() {
    insta::assert_snapshot!(run_example(&["negamax", "300", "0", "32660..32767"]));
}

#[test]
fn minimax_crate_deeper_entry() {
    insta::assert_snapshot!(run_example(&["iterative", "2000", "1", "-9..9", "2..7"]));
}

#[test]
#[cfg(feature = "cli")]
fn minimax_crate_deeper_entry_exact_value() {
    insta::assert_snapshot!(run(&[
        "solve",
        "testdata/case-studies/minimax-deeper-entry.gtree",
        "--depth",
        "4",
        "--algo",
        "minimax"
    ]));
}

#[test]
#[cfg(feature = "cli")]
fn easyai_sss_move_divided() {
    insta::assert_snapshot!(run(&["divide", "testdata/case-studies/easyai-sss-move.gtree", "--depth", "4"]));
}

#[test]
#[cfg(feature = "cli")]
fn easyai_dual_loops_divided() {
    insta::assert_snapshot!(run(&[
        "divide",
        "testdata/case-studies/easyai-dual-loops.gtree",
        "--depth",
        "2"
    ]));
}
