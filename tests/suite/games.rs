//! Real games through every exact driver.

use nullwindow::driver::SearchParams;
use nullwindow::game::Game;
use nullwindow::games::connect4::Connect4;
use nullwindow::games::tictactoe::TicTacToe;
use nullwindow::oracle::{Departure, check, divide, solve};
use nullwindow::registry::Driver;
use nullwindow::search::{Algorithm, Engine};

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
                let params = SearchParams { depth, tt_entries: 128, ..crate::strategies::deepening() };
                let result = Engine::new(&params).search(&game, algorithm, &params, |_| {});
                assert_eq!(result.value, exact, "{algorithm} on {moves} at depth {depth}");
            }
        }
    }
}

/// Pons' positions with their scores, from `testdata/connect4/`.
fn pons_positions(file: &str) -> Vec<(String, i32)> {
    let path = format!("{}/testdata/connect4/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(|line| {
            let (moves, score) = line.split_once(' ').unwrap();
            (moves.to_owned(), score.parse().unwrap())
        })
        .collect()
}

#[test]
fn connect4_scores_match_pons_on_end_and_middle_game_positions() {
    let params = SearchParams { tt_entries: 1 << 18, ..SearchParams::default() };
    let mut engine = Engine::new(&params);
    let positions = [pons_positions("Test_L3_R1.first100"), pons_positions("Test_L2_R1.first20")].concat();
    assert_eq!(positions.len(), 120);
    for (moves, score) in positions {
        let game = Connect4::from_moves(&moves).unwrap();
        engine.clear();
        let value = engine.search_value(&game, Algorithm::Mtdf, &params);
        // Drivers report MAX's side; Pons scores the side to move.
        assert_eq!(game.to_move(&game.root()).perspective(value), score, "position {moves}");
    }
}

/// Pons' own driver on the first lines of all four of his sets, one table reused across each set
/// (as `nullwindow bench connect4` runs): the harder middle-game and the opening positions too.
#[test]
fn mtd_pons_scores_match_pons_on_every_set() {
    for file in ["Test_L3_R1.first100", "Test_L2_R1.first20", "Test_L2_R2.first20", "Test_L1_R1.first100"] {
        let params = SearchParams { tt_entries: 1 << 18, ..SearchParams::default() };
        let mut engine = Engine::new(&params);
        for (moves, score) in pons_positions(file) {
            let game = Connect4::from_moves(&moves).unwrap();
            let depth = game.depth_bound(&game.root()).unwrap();
            let value =
                engine.search_value(&game, Algorithm::MtdPons, &SearchParams { depth, ..params.clone() });
            assert_eq!(game.to_move(&game.root()).perspective(value), score, "{file}: position {moves}");
        }
    }
}

/// The stones still to come after the next one when both sides play perfectly, for a position of
/// `stones` stones with Pons' `score` from the side to move: what rates his test sets (below 14
/// easy, 14 to 27 medium, 28 or more hard), and what the generator of the hard set rates by.
fn stones_after_the_next(stones: usize, score: i32) -> usize {
    let stones = u32::try_from(stones).unwrap();
    let end = nullwindow::games::connect4::stones_at_the_end(stones, score).expect("a consistent score");
    usize::try_from(end - stones - 1).unwrap()
}

#[test]
fn connect4_ratings_reproduce_those_of_pons_sets() {
    for file in ["Test_L3_R1.first100", "Test_L2_R1.first20", "Test_L1_R1.first100"] {
        for (moves, score) in pons_positions(file) {
            assert!(stones_after_the_next(moves.len(), score) < 14, "{file}: {moves} is rated easy");
        }
    }
    for (moves, score) in pons_positions("Test_L2_R2.first20") {
        let rating = stones_after_the_next(moves.len(), score);
        assert!((14..28).contains(&rating), "Test_L2_R2: {moves} is rated medium");
    }
}

/// The set `examples/connect4_hard_set.rs` generates; the lines are written round-robin over the
/// stone counts.
const HARD_SET: &str = "hard-8-14.txt";

/// The generated set keeps what its generator promises: legal openings of 8 to 14 stones, evenly
/// spread and written round-robin, none over, none decided by the next stone either way, no position
/// twice (a mirror image counts as the same position), each rated medium or hard.
#[test]
fn connect4_hard_set_holds_undecided_distinct_openings_rated_medium_or_hard() {
    let positions = pons_positions(HARD_SET);
    assert_eq!(positions.len(), 7 * 42);
    let mut seen = std::collections::HashSet::new();
    for (index, (moves, score)) in positions.iter().enumerate() {
        let stones = moves.len();
        assert_eq!(stones, 8 + index % 7, "line {}: {moves}", index + 1);
        let game = Connect4::from_moves(moves).unwrap();
        let root = game.root();
        assert!(!game.is_terminal(&root), "{moves}");
        // Over is won: no board of 15 stones is full.
        let won = |position: &<Connect4 as Game>::Position| game.is_terminal(position);
        let children: Vec<_> = game.legal_moves(&root).into_iter().map(|mv| game.play(&root, mv)).collect();
        assert!(!children.iter().any(won), "{moves}: the side to move wins at once");
        let answered = |child: &_| game.legal_moves(child).into_iter().any(|mv| won(&game.play(child, mv)));
        assert!(!children.iter().all(answered), "{moves}: every move loses at once");
        let mirrored: String =
            moves.chars().map(|c| char::from_digit(8 - c.to_digit(10).unwrap(), 10).unwrap()).collect();
        let mirror = Connect4::from_moves(&mirrored).unwrap();
        assert!(seen.insert(game.key(&root).min(mirror.key(&mirror.root()))), "{moves} twice");
        assert!(stones_after_the_next(stones, *score) >= 14, "{moves} {score} is rated easy");
    }
}

/// The engine's exact search agrees with the independent solver that scored the set, on the lines
/// of 14 stones it solves within a node budget (14 of the 42 today; at most 8.4 million nodes in
/// all, a few seconds in a debug build). The benches check every line, in release.
#[test]
fn connect4_hard_set_scores_match_the_engine_where_it_is_quick() {
    let params = SearchParams { tt_entries: 1 << 16, node_limit: Some(200_000), ..SearchParams::default() };
    let mut engine = Engine::new(&params);
    let mut checked = 0;
    for (moves, score) in pons_positions(HARD_SET).into_iter().filter(|(moves, _)| moves.len() == 14) {
        let game = Connect4::from_moves(&moves).unwrap();
        engine.clear();
        let outcome = engine.search(&game, Algorithm::MtdPons, &params, |_| {});
        if !outcome.stopped {
            assert_eq!(game.to_move(&game.root()).perspective(outcome.value), score, "position {moves}");
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} lines solved within the budget");
}

#[test]
fn divide_agrees_with_solving_each_child_on_its_own() {
    let game = TicTacToe::from_moves("15").unwrap();
    let root = game.root();
    let divided = divide(&game, u32::MAX, Driver::Minimax);
    assert_eq!(divided.len(), 7);
    for (mv, value) in divided {
        let child = game.play(&root, mv);
        assert_eq!(value, nullwindow::reference::minimax::search(&game, &child, u32::MAX).value, "{mv}");
    }
    let game = Connect4::from_moves("7422341735647741166133573473242566").unwrap();
    let divided = divide(&game, u32::MAX, Driver::Mtdf);
    let best = divided.iter().map(|&(_, value)| value).max().unwrap();
    assert_eq!(best, 1, "Pons scores this position 1 for the side to move (MAX)");
}

#[test]
fn check_finds_a_planted_error_at_the_right_ply() {
    let game = TicTacToe::from_moves("").unwrap();
    // A best line for the empty board, with the exact value (a draw) after every ply.
    let params = crate::strategies::deepening();
    let result = Engine::new(&params).search(&game, Algorithm::Mtdf, &params, |_| {});
    let line: Vec<(_, i32)> = result.principal_variation.iter().map(|&mv| (mv, 0)).collect();
    assert!(line.len() >= 5);
    assert_eq!(check(&game, u32::MAX, Driver::Minimax, 0, &line).departure, None);
    // A wrong value planted at ply 4.
    let mut planted = line.clone();
    planted[3].1 = 1;
    let report = check(&game, u32::MAX, Driver::Minimax, 0, &planted);
    assert_eq!(report.departure, Some(Departure::Value { ply: 4, exact: 0 }));
    assert_eq!(report.path, line[..3].iter().map(|&(mv, _)| mv).collect::<Vec<_>>());
    // A losing move planted at ply 2: after X takes the centre, O must take a corner.
    let centre = game.moves(&game.root()).find(|mv| mv.to_string() == "5").unwrap();
    let after_centre = game.play(&game.root(), centre);
    let edge = game.moves(&after_centre).find(|mv| mv.to_string() == "2").unwrap();
    let report = check(&game, u32::MAX, Driver::Minimax, 0, &[(centre, 0), (edge, 1)]);
    assert!(matches!(report.departure, Some(Departure::NotBest { ply: 2, exact: 1, .. })), "{report:?}");
    // A wrong root value.
    assert_eq!(
        check(&game, u32::MAX, Driver::Minimax, 1, &[]).departure,
        Some(Departure::RootValue { exact: 0 })
    );
}

/// The Connect Four position reached by the legal moves that `choices` pick (centre-first order),
/// stopping when the game ends.
fn connect4_playout(choices: &[usize]) -> String {
    use nullwindow::games::connect4::MoveGeneration;
    let mut moves = String::new();
    for choice in choices {
        let game = Connect4::from_moves(&moves).unwrap();
        let legal: Vec<_> = game.with_generation(MoveGeneration::CentreFirst).moves(&game.root()).collect();
        if legal.is_empty() {
            break;
        }
        moves.push_str(&legal[choice % legal.len()].to_string());
    }
    moves
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Pons' move generation prunes and reorders, but every position keeps its value at every depth.
    #[test]
    fn connect4_move_generation_keeps_every_depth_limited_value(choices in proptest::collection::vec(0usize..7, 0..30), depth in 0u32..=5) {
        use nullwindow::games::connect4::MoveGeneration;
        let moves = connect4_playout(&choices);
        let threats = Connect4::from_moves(&moves).unwrap();
        let centre = threats.with_generation(MoveGeneration::CentreFirst);
        let exact = nullwindow::reference::minimax::search(&centre, &centre.root(), depth).value;
        proptest::prop_assert_eq!(nullwindow::reference::minimax::search(&threats, &threats.root(), depth).value, exact, "{} at depth {}", moves, depth);
        // The game's value bounds hold at this depth (the engine asks at depth 1 and deeper), and
        // the engine that uses them stays exact.
        let root = threats.root();
        if let Some((lower, upper)) = threats.value_bounds(&root, depth).filter(|_| depth >= 1) {
            let for_mover = threats.to_move(&root).perspective(exact);
            proptest::prop_assert!(lower <= for_mover && for_mover <= upper, "{} at depth {}: {} outside {:?}", moves, depth, for_mover, (lower, upper));
        }
        let params = SearchParams { depth, tt_entries: 64, ..crate::strategies::deepening() };
        let result = Engine::new(&params).search(&threats, Algorithm::Mtdf, &params, |_| {});
        proptest::prop_assert_eq!(result.value, exact, "engine on {} at depth {}", moves, depth);
    }

    /// `Game::value_bounds` holds at every depth the engine asks (1 and deeper) for every position
    /// within two plies of a random one, where immediate wins, forced blocks and lost positions are
    /// common; and bounds that meet are the exact value.
    #[test]
    fn connect4_value_bounds_hold_at_every_depth(choices in proptest::collection::vec(0usize..7, 8..42)) {
        use nullwindow::games::connect4::MoveGeneration;
        let start = Connect4::from_moves(&connect4_playout(&choices)).unwrap().with_generation(MoveGeneration::CentreFirst);
        // Depth 4 sees the opponent's second stone; it is checked at the nearer positions only.
        let mut positions = vec![(start.root(), 4)];
        for ply in 1..=2 {
            let next: Vec<_> = positions.iter().flat_map(|(p, _)| start.moves(p).map(|mv| (start.play(p, mv), 5 - ply)).collect::<Vec<_>>()).collect();
            positions.extend(next);
        }
        for (position, deepest) in &positions {
            for depth in 1..=*deepest {
                let Some((lower, upper)) = start.value_bounds(position, depth) else {
                    proptest::prop_assert!(start.is_terminal(position));
                    continue;
                };
                let exact = start.to_move(position).perspective(nullwindow::reference::minimax::search(&start, position, depth).value);
                proptest::prop_assert!(lower <= exact && exact <= upper, "{:?} at depth {}: {} outside {:?}", position, depth, exact, (lower, upper));
            }
        }
    }
}

/// Tic-tac-toe that keeps the nodes of less than `table_from` plies out of the table.
struct TableFrom {
    game: TicTacToe,
    table_from: u32,
}

impl Game for TableFrom {
    type Position = <TicTacToe as Game>::Position;
    type Move = <TicTacToe as Game>::Move;
    type Moves = <TicTacToe as Game>::Moves;

    fn root(&self) -> Self::Position {
        self.game.root()
    }
    fn to_move(&self, position: &Self::Position) -> nullwindow::Player {
        self.game.to_move(position)
    }
    fn moves(&self, position: &Self::Position) -> Self::Moves {
        self.game.moves(position)
    }
    fn play(&self, position: &Self::Position, mv: Self::Move) -> Self::Position {
        self.game.play(position, mv)
    }
    fn evaluate(&self, position: &Self::Position) -> nullwindow::Value {
        self.game.evaluate(position)
    }
    fn key(&self, position: &Self::Position) -> u64 {
        self.game.key(position)
    }
    fn uses_table(&self, _position: &Self::Position, depth: u32) -> bool {
        depth >= self.table_from
    }
}

/// Nodes a game keeps out of the table (`Game::uses_table`) change the work, never a value: every
/// engine driver, with the table for none, some or all of the nodes, agrees with minimax.
#[test]
fn nodes_kept_out_of_the_table_keep_every_value() {
    for moves in ["", "5", "51", "1234"] {
        for table_from in [0, 3, 10] {
            let game = TableFrom { game: TicTacToe::from_moves(moves).unwrap(), table_from };
            for depth in [2, 5, 9] {
                let exact = nullwindow::reference::minimax::search(&game, &game.root(), depth).value;
                for algorithm in Algorithm::ALL {
                    for deepening in [false, true] {
                        let base =
                            if deepening { crate::strategies::deepening() } else { SearchParams::default() };
                        let params = SearchParams { depth, tt_entries: 128, ..base };
                        let result = Engine::new(&params).search(&game, algorithm, &params, |_| {});
                        assert_eq!(
                            result.value, exact,
                            "{algorithm} on {moves:?}, table from {table_from}, depth {depth}"
                        );
                        if table_from > depth {
                            assert_eq!(result.counts.probes, 0, "{algorithm} probed a table kept out");
                        }
                    }
                }
            }
        }
    }
}

/// Tic-tac-toe whose evaluations are counted, to see how often a search reached the leaves.
struct Counted {
    game: TicTacToe,
    evaluations: std::cell::Cell<u64>,
}

impl Game for Counted {
    type Position = <TicTacToe as Game>::Position;
    type Move = <TicTacToe as Game>::Move;
    type Moves = <TicTacToe as Game>::Moves;

    fn root(&self) -> Self::Position {
        self.game.root()
    }
    fn to_move(&self, position: &Self::Position) -> nullwindow::Player {
        self.game.to_move(position)
    }
    fn moves(&self, position: &Self::Position) -> Self::Moves {
        self.game.moves(position)
    }
    fn play(&self, position: &Self::Position, mv: Self::Move) -> Self::Position {
        self.game.play(position, mv)
    }
    fn evaluate(&self, position: &Self::Position) -> nullwindow::Value {
        self.evaluations.set(self.evaluations.get() + 1);
        self.game.evaluate(position)
    }
    fn key(&self, position: &Self::Position) -> u64 {
        self.game.key(position)
    }
}

/// The oracle searches its reference once: when the reference is among the drivers it checks, that
/// driver's own run gives the exact value (`solve --algo mtd-pons` on Connect Four searched twice).
#[test]
fn the_reference_is_not_searched_twice() {
    let game = Counted { game: TicTacToe::from_moves("15").unwrap(), evaluations: std::cell::Cell::new(0) };
    let report = nullwindow::oracle::solve_against(
        &game,
        Driver::Minimax,
        &[Driver::Minimax],
        &SearchParams::default(),
        &mut |_, _| {},
    );
    assert_eq!(game.evaluations.get(), report.results[0].outcome.counts.leaves);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// `divide` and `check` keep one engine, and so one table, across the positions they value: the
    /// values stay those of minimax at every depth, on graphs whose children share positions.
    #[test]
    fn divide_by_an_engine_with_one_table_equals_minimax(tree in crate::strategies::graphs_with_transpositions(), depth in 1u32..=7) {
        proptest::prop_assert_eq!(divide(&tree, depth, Driver::Mtdf), divide(&tree, depth, Driver::Minimax));
        proptest::prop_assert_eq!(divide(&tree, depth, Driver::MtdPons), divide(&tree, depth, Driver::Minimax));
    }
}

/// Pons' end-game position whose search prunes column 5: moving there lets the opponent win at once.
const PRUNED_FIVE: &str = "7422341735647741166133573473242566";

/// `divide` and `check` judge every legal move, not only those the search's generator keeps.
#[test]
fn connect4_divide_and_check_judge_every_legal_move() {
    let game = Connect4::from_moves(PRUNED_FIVE).unwrap();
    let root = game.root();
    let searched: Vec<String> = game.moves(&root).map(|mv| mv.to_string()).collect();
    assert!(!searched.contains(&"5".to_owned()), "the generator keeps 5 now: {searched:?}");
    let divided = divide(&game, u32::MAX, Driver::MtdPons);
    let columns: Vec<String> = divided.iter().map(|(mv, _)| mv.to_string()).collect();
    assert_eq!(columns, ["1", "2", "5", "6"], "every playable column, left to right");
    let best = divided.iter().map(|&(_, value)| value).max().unwrap();
    assert_eq!(best, 1, "the solve value: Pons scores this position 1 for MAX, to move");
    let (five, five_value) = divided[2];
    assert!(five_value < best);
    // Claiming the pruned move with its own exact value: legal, exact, and not best.
    let report = check(&game, u32::MAX, Driver::MtdPons, best, &[(five, five_value)]);
    assert!(
        matches!(report.departure, Some(Departure::NotBest { ply: 1, exact, best: (_, 1) }) if exact == five_value),
        "{report:?}"
    );
}

/// Plain negamax over every legal move, to any depth: what the pruning generator must agree with.
fn negamax_over_legal_moves(game: &Connect4, position: &<Connect4 as Game>::Position, depth: u32) -> i32 {
    let legal = game.legal_moves(position);
    if depth == 0 || legal.is_empty() {
        return game.evaluate_for_mover(position);
    }
    legal
        .into_iter()
        .map(|mv| -negamax_over_legal_moves(game, &game.play(position, mv), depth - 1))
        .max()
        .unwrap()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// The exactness claim of pruning: at every depth, the value over the moves Pons' generator
    /// keeps equals the value over every legal move.
    #[test]
    fn connect4_pruning_keeps_the_value_over_every_legal_move(choices in proptest::collection::vec(0usize..7, 0..24), depth in 0u32..=5) {
        let moves = connect4_playout(&choices);
        let game = Connect4::from_moves(&moves).unwrap();
        let root = game.root();
        let pruned = nullwindow::reference::negamax::search(&game, &root, depth).value;
        let legal = negamax_over_legal_moves(&game, &root, depth);
        proptest::prop_assert_eq!(game.to_move(&root).perspective(pruned), legal, "{} at depth {}", moves, depth);
        proptest::prop_assert_eq!(game.legal_moves(&root).is_empty(), game.moves(&root).next().is_none());
    }
}

/// Every row of the catalogue of games holds what it says, so that a game added with its row is
/// checked without a test of its own: names are distinct; the start position reads back; at each
/// depth up to 4, every default driver agrees with the row's reference, and values at the ends of
/// random games lie in the row's range.
#[test]
fn every_game_of_the_catalogue_keeps_its_row() {
    use nullwindow::registry::games::KnownGame;
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::{Rng, SeedableRng};

    let names: std::collections::HashSet<_> = KnownGame::ALL.iter().map(|game| game.info().name).collect();
    assert_eq!(names.len(), KnownGame::ALL.len(), "two games share a name");
    for &known in KnownGame::ALL {
        let info = known.info();
        assert_eq!(KnownGame::from_name(info.name), Some(known));
        let (lowest, highest) = info.values;
        let start = known.at("").unwrap_or_else(|e| panic!("{}: the start does not read: {e}", info.name));
        assert!(start.describe("").contains(info.title), "{}", info.name);
        let drivers = Driver::select(info.default_drivers).unwrap();
        nullwindow::with_any_game!(&start, game => {
            for depth in 0..=4 {
                let params = SearchParams { depth, ..SearchParams::default() };
                let report = nullwindow::oracle::solve_against(game, info.reference, &drivers, &params, &mut |_, _| {});
                assert!(report.disagreements().next().is_none(), "{} at depth {depth}", info.name);
                assert!((lowest..=highest).contains(&report.value), "{} at depth {depth}", info.name);
            }
            // Random games to their end: every position's evaluation lies in the range.
            let mut rng = ChaCha8Rng::seed_from_u64(7);
            for _ in 0..200 {
                let mut position = game.root();
                loop {
                    let value = game.evaluate(&position);
                    assert!((lowest..=highest).contains(&value), "{}: {value} out of range", info.name);
                    let moves = game.legal_moves(&position);
                    if moves.is_empty() {
                        break;
                    }
                    let pick = rng.next_u32() as usize % moves.len();
                    position = game.play(&position, moves[pick]);
                }
            }
        });
    }
}

/// A node limit stops the drivers, never the oracle: with either kind of reference and the
/// reference not among the drivers, `solve_against` answers (it once took the limit for its own
/// and had no value to give).
#[test]
fn a_node_limit_never_makes_the_oracle_fail() {
    let params = SearchParams { depth: 6, node_limit: Some(10), ..SearchParams::default() };
    let connect4 = Connect4::from_moves("4453").unwrap();
    let report = nullwindow::oracle::solve_against(
        &connect4,
        Driver::MtdPons,
        &[Driver::Mtdf],
        &params,
        &mut |_, _| {},
    );
    assert!(report.results[0].outcome.stopped);
    let tictactoe = TicTacToe::from_moves("15").unwrap();
    let report = nullwindow::oracle::solve_against(
        &tictactoe,
        Driver::Minimax,
        &[Driver::Pvs],
        &params,
        &mut |_, _| {},
    );
    let exact = Driver::Minimax.run(&tictactoe, &SearchParams { depth: 6, ..SearchParams::default() }).value;
    assert_eq!(report.value, exact);
}
