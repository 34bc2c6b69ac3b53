//! The own-game fuzz (`oracle::harness::fuzz_game`): an engine's own search on positions of its
//! own game, a wrong answer followed down the game to the node where the bug acts; and games where a
//! side moves twice, which the judges search as they are.

use nullwindow::driver::Perspective;
use nullwindow::game::{Game, Player};
use nullwindow::games::connect4::Connect4;
use nullwindow::games::tictactoe::TicTacToe;
use nullwindow::oracle::harness::{Answer, Config, GameCase, GameOutcome, fuzz_game, judge_game};
use nullwindow::oracle::proof::Prover;
use nullwindow::reference::minimax;
use nullwindow::theory::witness::Witness;
use nullwindow::tree::unfold::unfold;
use nullwindow::value::Value;
use proptest::prelude::*;

/// A negamax search with its own move generation: `drops(position)` says where it forgets its
/// last move (a bug in the game code, which no tree file reaches). Values from the side to move;
/// a same-side child counts unnegated.
fn negamax<G: Game>(
    game: &G,
    position: &G::Position,
    depth: u32,
    drops: &dyn Fn(&G::Position) -> bool,
) -> Value {
    let mut moves = game.legal_moves(position);
    if depth == 0 || moves.is_empty() {
        return game.evaluate_for_mover(position);
    }
    if drops(position) && moves.len() > 1 {
        moves.pop();
    }
    let mover = game.to_move(position);
    moves
        .into_iter()
        .map(|mv| {
            let child = game.play(position, mv);
            let value = negamax(game, &child, depth - 1, drops);
            if game.to_move(&child) == mover { value } else { -value }
        })
        .max()
        .unwrap_or_default()
}

fn config(seed: u64, cases: u64) -> Config {
    Config { seed, cases, perspective: Perspective::Mover, walk: 60, height: 0..=4, ..Config::default() }
}

/// The engine as the harness calls it.
fn searcher<'g, G: Game>(
    game: &'g G,
    drops: &'g dyn Fn(&G::Position) -> bool,
) -> impl FnMut(&GameCase<G>) -> Result<Option<Answer<G::Position>>, String> + 'g {
    move |case| Ok(Some(Answer::value(negamax(game, &case.position, case.depth, drops))))
}

/// Whether `engine` is wrong on `case`.
fn wrong<G: Game>(
    game: &G,
    case: &GameCase<G>,
    engine: &mut impl FnMut(&GameCase<G>) -> Result<Option<Answer<G::Position>>, String>,
) -> bool {
    let answer = engine(case).unwrap().unwrap();
    judge_game(game, &mut Prover::new(1 << 12), case, &answer, &config(0, 0)).unwrap().is_some()
}

/// The descent's contract, checked at its end: the engine is wrong at the position to its depth,
/// right there at every smaller depth, and right at every child one ply shallower; and then the
/// bug acts at that very position (its move list is the only thing left that can be wrong).
fn check_descent<G: Game>(
    game: &G,
    drops: &dyn Fn(&G::Position) -> bool,
    seed: u64,
) -> Result<bool, TestCaseError> {
    let mut engine = searcher(game, drops);
    let GameOutcome::Disagreed(found) = fuzz_game(&config(seed, 60), game, &mut engine, |_| {}) else {
        return Ok(false);
    };
    let end = &found.found;
    let depth = end.depth;
    prop_assert!(wrong(game, end, &mut engine), "wrong where the descent ends");
    for shallower in 0..depth {
        let case = GameCase::new(end.position.clone(), end.moves.clone(), shallower, String::new());
        prop_assert!(!wrong(game, &case, &mut engine), "right at depth {shallower}");
    }
    prop_assert!(depth > 0);
    for mv in game.legal_moves(&end.position) {
        let child = GameCase::new(game.play(&end.position, mv), Vec::new(), depth - 1, String::new());
        prop_assert!(!wrong(game, &child, &mut engine), "right at the child after {mv}");
    }
    prop_assert!(drops(&end.position), "the bug acts where the descent ends");
    // The moves lead there from the start.
    let reached = end.moves.iter().fold(game.root(), |at, &mv| game.play(&at, mv));
    prop_assert_eq!(game.key(&reached), game.key(&end.position));
    Ok(true)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// On tic-tac-toe and Connect Four, wherever a move-generation bug is planted, the descent
    /// ends at a position where it acts, wrong there and right at every child.
    #[test]
    fn the_descent_ends_at_a_position_where_the_planted_bug_acts(seed in 0u64..1000, residue in 0u64..3) {
        let tictactoe = TicTacToe::from_moves("").unwrap();
        let drops = |position: &_| tictactoe.key(position) % 3 == residue;
        check_descent(&tictactoe, &drops, seed)?;
        let connect4 = Connect4::from_moves("").unwrap();
        let drops = |position: &_| connect4.key(position) % 7 == residue;
        check_descent(&connect4, &drops, seed)?;
    }

    /// In a game where a side moves twice, the witness criterion's ranges are those of the
    /// extensions' values enumerated set by set, hold the exact value, and to the end of the
    /// unfolded tree (where no extension adds anything) are that value alone.
    #[test]
    fn the_judges_search_a_game_where_a_side_moves_twice(stones in 1u32..12, unfolded in 0u32..8, depth in 0u32..8) {
        let game = ExtraTurns { stones };
        let tree = unfold(&game, &game.root(), unfolded, 100_000).unwrap();
        let root = tree.root_id();
        let exact = tree.player(root).perspective(minimax::minimax(&tree, &root, depth, &mut Default::default()));
        let mut witness = Witness::new(&tree, 1_000_000);
        prop_assert!(witness.holds(&root, depth, exact).unwrap());
        let values = nullwindow::theory::witness::extension_values(&tree, &root, depth);
        let range = witness.range(&root, depth).unwrap();
        prop_assert_eq!(Some(range), values.first().copied().zip(values.last().copied()));
        prop_assert!(values.contains(&exact));
        for &value in &values {
            prop_assert!(witness.holds(&root, depth, value).unwrap(), "{} of {:?}", value, values);
        }
        let whole = tree.player(root).perspective(minimax::minimax(&tree, &root, u32::MAX, &mut Default::default()));
        prop_assert_eq!(witness.range(&root, tree.height().max(1)).unwrap(), (whole, whole));
    }
}

/// A correct engine agrees on every case, on both games; so does one whose bug sits where no
/// case reaches.
#[test]
fn a_correct_search_agrees_on_every_case() {
    let game = Connect4::from_moves("").unwrap();
    let none = |_: &_| false;
    let outcome = fuzz_game(&config(7, 80), &game, searcher(&game, &none), |_| {});
    assert!(matches!(outcome, GameOutcome::Agreed { agreed: 80, undecided: 0, skipped: 0 }));
    let extra = ExtraTurns { stones: 11 };
    let none = |_: &Heap| false;
    let outcome = fuzz_game(&config(7, 200), &extra, searcher(&extra, &none), |_| {});
    assert!(matches!(outcome, GameOutcome::Agreed { agreed: 200, .. }));
}

/// An engine that negates on an extra turn, as if sides alternated, is caught, and the descent
/// ends at a position with an extra turn among its moves.
#[test]
fn a_search_that_forgets_the_extra_turn_is_followed_to_one() {
    let game = ExtraTurns { stones: 11 };
    fn alternating(game: &ExtraTurns, position: &Heap, depth: u32) -> Value {
        let moves = game.legal_moves(position);
        if depth == 0 || moves.is_empty() {
            return game.evaluate_for_mover(position);
        }
        moves.into_iter().map(|mv| -alternating(game, &game.play(position, mv), depth - 1)).max().unwrap()
    }
    let outcome = fuzz_game(
        &config(3, 200),
        &game,
        |case| Ok::<_, String>(Some(Answer::value(alternating(&game, &case.position, case.depth)))),
        |_| {},
    );
    let GameOutcome::Disagreed(found) = outcome else { panic!("caught") };
    let at = found.found.position;
    assert!(
        game.legal_moves(&at).into_iter().any(|mv| game.to_move(&game.play(&at, mv)) == at.to_move),
        "{at:?}"
    );
    let report = found.report(|p| format!("{p:?}"), |_, mv| mv.to_string(), |_| None, &game);
    assert!(report.contains("the value is wrong"), "{report}");
}

/// A heap of stones; a move takes 1 or 2, and taking 1 from an even heap gives the mover another
/// turn. Whoever takes the last stone wins (+5), and a heap cut off by the depth is worth the
/// stones' parity to the side to move.
#[derive(Clone, Copy, Debug)]
pub struct ExtraTurns {
    pub stones: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Heap {
    stones: u32,
    to_move: Player,
    /// Who took the last stone, once the heap is empty.
    last: Player,
}

impl Game for ExtraTurns {
    type Position = Heap;
    type Move = u32;
    type Moves = std::vec::IntoIter<u32>;

    fn root(&self) -> Heap {
        Heap { stones: self.stones, to_move: Player::Max, last: Player::Min }
    }

    fn to_move(&self, position: &Heap) -> Player {
        position.to_move
    }

    fn moves(&self, position: &Heap) -> Self::Moves {
        (1..=position.stones.min(2)).collect::<Vec<_>>().into_iter()
    }

    fn play(&self, position: &Heap, taken: u32) -> Heap {
        let again = taken == 1 && position.stones.is_multiple_of(2) && position.stones > 1;
        let to_move = if again { position.to_move } else { position.to_move.opponent() };
        Heap { stones: position.stones - taken, to_move, last: position.to_move }
    }

    fn evaluate(&self, position: &Heap) -> Value {
        if position.stones == 0 {
            return position.last.perspective(5);
        }
        position.to_move.perspective(i32::from(position.stones % 2 == 1))
    }

    fn key(&self, position: &Heap) -> u64 {
        u64::from(position.stones) * 4
            + u64::from(position.to_move == Player::Min) * 2
            + u64::from(position.last == Player::Min)
    }

    fn keys_identify_positions(&self) -> bool {
        true
    }
}

/// With deeper entries an own game's case is judged on its position unfolded two plies past its
/// depth, so that the witness criterion sees what a deeper search gives: a root answered with its
/// value one ply deeper is accepted, as on a tree case; judged exactly, it is wrong.
#[test]
fn with_deeper_entries_an_own_game_case_sees_past_its_depth() {
    let game = TicTacToe::from_moves("").unwrap();
    let deeper = Config { deeper_entries: true, ..Config::default() };
    let exactly = Config::default();
    let mut prover = Prover::new(1 << 12);
    let mut found = 0;
    for seed in 0..200u64 {
        let (position, moves) = nullwindow::games::random_position(&game, seed, 4);
        for depth in 1..=2u32 {
            let unfolded = unfold(&game, &position, depth + 1, 1 << 20).unwrap();
            let root = unfolded.root_id();
            let one_ply_deeper = minimax::search(&unfolded, &root, depth + 1).value;
            if one_ply_deeper == minimax::search(&unfolded, &root, depth).value {
                continue;
            }
            found += 1;
            let answer = Answer::value(one_ply_deeper);
            let case = GameCase::new(position, moves.clone(), depth, String::new());
            let judged = judge_game(&game, &mut prover, &case, &answer, &deeper);
            assert_eq!(judged, Ok(None), "{moves:?} at depth {depth}");
            let judged = judge_game(&game, &mut prover, &case, &answer, &exactly);
            assert!(judged.unwrap().is_some(), "{moves:?} at depth {depth}");
        }
    }
    assert!(found > 10, "only {found} positions whose value changes one ply deeper");
}

/// Without depth 0 no own-game case is drawn there and no descent goes there: the engine is never
/// asked at depth 0, and its planted bug is still followed down, to depth 1 or more.
#[test]
fn without_depth_zero_no_case_and_no_descent_goes_there() {
    let game = TicTacToe::from_moves("").unwrap();
    let drops = |position: &_| game.key(position) % 5 == 0;
    let mut inner = searcher(&game, &drops);
    let least_asked = std::cell::Cell::new(u32::MAX);
    let mut engine = |case: &GameCase<TicTacToe>| {
        least_asked.set(least_asked.get().min(case.depth));
        inner(case)
    };
    let without = Config { depth_zero: false, ..config(3, 200) };
    let GameOutcome::Disagreed(found) = fuzz_game(&without, &game, &mut engine, |_| {}) else {
        panic!("the planted bug was not caught")
    };
    assert!(found.found.depth >= 1, "descended to depth {}", found.found.depth);
    assert_eq!(least_asked.get(), 1);
    // With depth 0 allowed (these heights include it), the same run asks there.
    least_asked.set(u32::MAX);
    let _ = fuzz_game(&config(3, 200), &game, &mut engine, |_| {});
    assert_eq!(least_asked.get(), 0);
}
