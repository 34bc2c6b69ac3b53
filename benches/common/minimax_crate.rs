//! The `minimax` crate (version 0.6) searching the crate's synthetic trees: the peer that the scale
//! benchmark and the per-node example compare the engine with. Its `Game` trait has no `self`, so
//! the tree it searches sits in a thread-local.

use std::cell::RefCell;
use std::hint::black_box;

use minimax::Strategy as _;
use nullwindow::game::{Game, Player};
use nullwindow::tree::synthetic::{SyntheticPosition, SyntheticTree};

thread_local! {
    /// The `minimax` crate's `Game` trait has no `self`: the tree its functions read.
    static TREE: RefCell<Option<SyntheticTree>> = const { RefCell::new(None) };
}

fn with_tree<T>(f: impl FnOnce(&SyntheticTree) -> T) -> T {
    TREE.with(|tree| f(tree.borrow().as_ref().expect("the tree is set before a search")))
}

/// A synthetic tree as the `minimax` crate sees a game.
struct Synthetic;

impl minimax::Game for Synthetic {
    type S = SyntheticPosition;
    type M = u32;

    fn generate_moves(state: &SyntheticPosition, moves: &mut Vec<u32>) -> Option<minimax::Winner> {
        with_tree(|tree| moves.extend(tree.moves(state)));
        None
    }

    fn apply(state: &mut SyntheticPosition, mv: u32) -> Option<SyntheticPosition> {
        Some(with_tree(|tree| tree.play(state, mv)))
    }

    fn get_winner(_state: &SyntheticPosition) -> Option<minimax::Winner> {
        None
    }

    fn zobrist_hash(state: &SyntheticPosition) -> u64 {
        with_tree(|tree| tree.key(state))
    }
}

struct Evaluator;

impl minimax::Evaluator for Evaluator {
    type G = Synthetic;

    fn evaluate(&self, state: &SyntheticPosition) -> minimax::Evaluation {
        let value = with_tree(|tree| tree.evaluate_for_mover(state));
        i16::try_from(value).expect("synthetic values of this bench fit in i16")
    }
}

/// The `minimax` crate's table in the scale benchmark: 32 MiB, the bytes of the engine's 2^20
/// entries when they were 32 bytes each.
pub const TABLE_BYTES: usize = 32 << 20;

/// One `minimax`-crate search of `tree` (a table of `table_bytes`, which the crate rounds up to a
/// power of two of its 20-byte entries; iterative deepening to the tree's depth; null-window PVS
/// or with `mtdf` its MTD(f)); its root value from MAX's side, and its line of statistics that
/// counts the nodes explored.
pub fn minimax_crate(tree: &SyntheticTree, mtdf: bool, table_bytes: usize) -> (i32, String) {
    TREE.with(|slot| *slot.borrow_mut() = Some(tree.clone()));
    let options = minimax::IterativeOptions::new().with_table_byte_size(table_bytes);
    let options = if mtdf { options.with_mtdf() } else { options };
    let mut search = minimax::IterativeSearch::new(Evaluator, options);
    search.set_max_depth(tree.config().depth as u8);
    let mut root = tree.root();
    black_box(search.choose_move(&root));
    let value = i32::from(search.root_value());
    let stats = search.stats(&mut root);
    let nodes = stats.lines().find(|line| line.starts_with("Explored")).unwrap_or("").to_owned();
    (if tree.to_move(&root) == Player::Max { value } else { -value }, nodes)
}
