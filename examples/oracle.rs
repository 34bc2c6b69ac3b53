//! Check a search of your own against the oracle.
//!
//! `cargo run --example oracle`: a hand-written fail-hard alpha-beta (the kind of code an engine
//! author brings) is compared with plain minimax on a thousand random trees; any disagreement is
//! printed with the smallest tree that shows it.

use nullwindow::game::Game;
use nullwindow::reference::minimax;
use nullwindow::tree::Tree;
use nullwindow::tree::random::RandomTreeConfig;
use nullwindow::value::{INFINITY, Value};

// ANCHOR: my_alpha_beta
/// Your engine's search, in negamax form.
fn my_alpha_beta<G: Game>(game: &G, node: &G::Position, depth: u32, mut alpha: Value, beta: Value) -> Value {
    if depth == 0 || game.is_terminal(node) {
        return game.evaluate_for_mover(node);
    }
    for mv in game.moves(node) {
        let score = -my_alpha_beta(game, &game.play(node, mv), depth - 1, -beta, -alpha);
        if score >= beta {
            return beta;
        }
        alpha = alpha.max(score);
    }
    alpha
}
// ANCHOR_END: my_alpha_beta

fn main() {
    let mut smallest: Option<Tree> = None;
    for seed in 0..1000 {
        let tree = RandomTreeConfig { seed, values: -3..=3, ..RandomTreeConfig::default() }
            .generate()
            .expect("a valid configuration");
        let root = tree.root();
        let mine =
            tree.to_move(&root).perspective(my_alpha_beta(&tree, &root, u32::MAX, -INFINITY, INFINITY));
        let exact = minimax::search(&tree, &root, u32::MAX).value;
        if mine != exact && smallest.as_ref().is_none_or(|s| s.node_count() > tree.node_count()) {
            smallest = Some(tree);
        }
    }
    match smallest {
        None => println!("my_alpha_beta agrees with minimax on 1000 random trees"),
        Some(tree) => println!("my_alpha_beta is wrong on {tree}"),
    }
}
