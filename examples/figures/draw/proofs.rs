//! What the oracle's proofs of an engine's claim ask (`nullwindow::oracle::proof`), against the
//! minimal tree of the same case and against unfolding the case to its depth, which is what the
//! own-game fuzz asked before it proved.

use std::fmt::Write as _;

use nullwindow::driver::Perspective;
use nullwindow::game::Game;
use nullwindow::games::connect4::Connect4;
use nullwindow::games::random_position;
use nullwindow::games::tictactoe::TicTacToe;
use nullwindow::oracle::harness::{Answer, Config, GameCase, judge_game};
use nullwindow::oracle::proof::{Asking, Prover};
use nullwindow::theory::minimal_tree::minimal_tree;
use nullwindow::tree::unfold::unfold;

/// One row: the mean positions a case's proofs ask about, its minimal tree and its unfolding, over
/// `positions` searched `depth` plies deep with the right value claimed.
fn row<G: Game>(name: &str, game: &G, positions: &[G::Position], depth: u32) -> String {
    let (mut asked, mut minimal, mut unfolded) = (0u64, 0u64, 0u64);
    for position in positions {
        let tree = minimal_tree(game, position, depth, 1 << 26).expect("small enough to count");
        let asking = Asking::new(game);
        let case = GameCase::new(position.clone(), Vec::new(), depth, String::new());
        let config = Config { perspective: Perspective::Mover, ..Config::default() };
        let judged =
            judge_game(&asking, &mut Prover::new(1 << 14), &case, &Answer::value(tree.value), &config);
        assert_eq!(judged, Ok(None), "the right value agrees");
        asked += asking.asked() as u64;
        minimal += tree.nodes;
        unfolded += unfold(game, position, depth, usize::MAX).expect("no limit").stats().nodes as u64;
    }
    let cases = positions.len() as f64;
    format!(
        "| {name} | {depth} | {} | {:.1} | {:.1} | {:.2} | {:.1} | {:.3} |",
        positions.len(),
        asked as f64 / cases,
        minimal as f64 / cases,
        asked as f64 / minimal as f64,
        unfolded as f64 / cases,
        asked as f64 / unfolded as f64,
    )
}

/// Tic-tac-toe and Connect Four positions a few moves in (seeded), their claims proved.
pub(super) fn proof_costs_table() -> String {
    let mut out = String::from(
        "| game | depth | cases | positions the proofs ask, a case | minimal tree, nodes | ratio | positions unfolded to the depth | proofs / unfolded |\n|---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let tictactoe = TicTacToe::from_moves("").expect("the start");
    let positions: Vec<_> = (0..100u64).map(|seed| random_position(&tictactoe, seed, 3).0).collect();
    for depth in [2, 4, 6] {
        let _ = writeln!(out, "{}", row("tic-tac-toe", &tictactoe, &positions, depth));
    }
    let connect4 = Connect4::from_moves("").expect("the start");
    let positions: Vec<_> = (0..30u64).map(|seed| random_position(&connect4, seed, 20).0).collect();
    for depth in [4, 6] {
        let _ = writeln!(out, "{}", row("Connect Four", &connect4, &positions, depth));
    }
    out
}
