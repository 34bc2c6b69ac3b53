//! Real games through every exact driver.

use nullwindow::game::Game;
use nullwindow::games::tictactoe::TicTacToe;
use nullwindow::oracle::solve;
use nullwindow::registry::{Driver, SearchParams};
use nullwindow::search::{Algorithm, Engine, EngineConfig, Limits};

#[test]
fn tictactoe_is_a_draw_for_every_exact_driver() {
    let game = TicTacToe::from_moves("").unwrap();
    let report = solve(&game, &Driver::select("all").unwrap(), &SearchParams::default());
    assert_eq!(report.value, 0);
    for result in &report.results {
        assert_eq!(result.outcome.value, 0, "{}", result.driver.info().name);
    }
}

#[test]
fn tictactoe_positions_agree_with_minimax_at_every_depth() {
    // A few openings, each searched to several depths by every engine driver with a small table.
    for moves in ["5", "51", "15", "159", "1234", "5137"] {
        let game = TicTacToe::from_moves(moves).unwrap();
        for depth in 0..=9 {
            let exact = nullwindow::reference::minimax::search(&game, &game.root(), depth).value;
            for algorithm in Algorithm::ALL {
                let mut engine = Engine::new(EngineConfig { tt_entries: 128, ..EngineConfig::default() });
                let result = engine.search(&game, algorithm, &Limits { depth, ..Limits::default() }, |_| {});
                assert_eq!(result.value, exact, "{algorithm} on {moves} at depth {depth}");
            }
        }
    }
}
