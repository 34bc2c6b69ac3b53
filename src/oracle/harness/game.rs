//! The harness's second source of cases: positions of your own game, searched by your engine's own
//! search, and a wrong answer followed down the game to the node where the bug acts.
//!
//! A tree case runs an engine's *tree reader*: its own move generation, passes, hashing and
//! evaluation never run. That is where real engines keep their bugs. Here the engine searches
//! positions of its own game ([`fuzz_game`]), as perft checks a move generator against the engine's
//! own game:
//!
//! 1. **cases**: case `i` walks random moves from the start, a playout of at most [`Config::walk`]
//!    plies cut at a length drawn over it (so that late positions, passes and end games come up),
//!    and draws the depth from [`Config::height`]; the same seed and `i` give the same case;
//! 2. **judging**: the position unfolded to the depth, and only that, is a [`Case`] that [`judge`]
//!    decides as it decides a tree case: the records, the value, the move;
//! 3. **descending** ([`descend`]): a game position cannot lose nodes the way a tree can, so a
//!    wrong answer is minimized along the game. First the smallest depth at which the engine is
//!    still wrong at the position, then a move to a child position where its search (one ply
//!    shallower) is still wrong, and again, until the engine is wrong at a position `P` to depth
//!    `d` but right at every child of `P` to `d - 1` (and at `P` to every smaller depth). That
//!    node is where the bug acts: in `P`'s own moves, pass, table or evaluation.
//!
//! The engine is a closure `(case) → answer`; an answer of `None` (or [`super::Reply::Skip`])
//! declines a case (it is counted, never a failure), and a panic is caught as a failure. Values are from the side [`Config::perspective`] names, as for tree cases.
//!
//! ```
//! use nullwindow::driver::Perspective;
//! use nullwindow::game::Game;
//! use nullwindow::games::nim::{Heap, Nim};
//! use nullwindow::oracle::harness::{Answer, Config, GameOutcome, fuzz_game};
//!
//! // A negamax search of Nim's own positions with a planted bug: at four stones it returns the
//! // evaluation without searching.
//! fn negamax(game: &Nim, position: &Heap, depth: u32) -> i32 {
//!     if depth == 0 || game.is_terminal(position) || position.stones == 4 {
//!         return game.evaluate_for_mover(position);
//!     }
//!     let values = game.legal_moves(position).into_iter().map(|mv| -negamax(game, &game.play(position, mv), depth - 1));
//!     values.max().unwrap()
//! }
//! let game = Nim::from_moves("")?;
//! let config = Config { perspective: Perspective::Mover, cases: 100, walk: 30, ..Config::default() };
//! let outcome = fuzz_game(&config, &game, |case| {
//!     Ok::<_, String>(Some(Answer::value(negamax(&game, &case.position, case.case.depth))))
//! }, |_| {});
//! let GameOutcome::Disagreed(found) = outcome else { panic!("the bug is caught") };
//! // Descended to four stones: at depth 1 every child is evaluated (0, as the bug says), at
//! // depth 2 the side to move loses, and every child is right one ply shallower.
//! assert_eq!((found.found.position.stones, found.found.case.depth), (4, 2));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashMap;
use std::fmt::Write as _;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use super::{
    Answer, Case, Config, ConfigError, Disagreement, Failure, MAX_UNFOLDED_NODES, Progress, Reply, Tried,
    ask, judge, run_cases,
};
use crate::driver::Perspective;
use crate::game::Game;
use crate::games::random_position;
use crate::reference::minimax;
use crate::tree::random::{draw_below, draw_u32};
use crate::tree::unfold::unfold_with_positions;
use crate::value::Value;

/// A position of your game and the depth to search it to, unfolded into the [`Case`] the judge
/// reads.
pub struct GameCase<G: Game> {
    /// The position.
    pub position: G::Position,
    /// The moves from the start to it (as walked; empty for a position given directly).
    pub moves: Vec<G::Move>,
    /// The position unfolded `case.depth` plies: its root is `position`, its `k`-th child the
    /// position after the `k`-th of [`Game::legal_moves`]. An [`Answer`]'s move is such an index,
    /// and its records name nodes of this tree.
    pub case: Case,
    /// Each node's position, by [`NodeId::index`](crate::tree::NodeId::index) in `case.tree`.
    pub positions: Vec<G::Position>,
    /// Plies unfolded past `case.depth` (as many as fit), where the witness criterion of
    /// [`Config::deeper_entries`] finds the values that entries of deeper searches give: an own
    /// game's case holds no more of the game than it unfolds. 0 for [`GameCase::new`].
    pub beyond: u32,
}

impl<G: Game> Clone for GameCase<G> {
    fn clone(&self) -> Self {
        Self {
            position: self.position.clone(),
            moves: self.moves.clone(),
            case: self.case.clone(),
            positions: self.positions.clone(),
            beyond: self.beyond,
        }
    }
}

impl<G: Game> GameCase<G> {
    /// `position`, reached by `moves`, unfolded `depth` plies (or fewer, if that many would
    /// exceed the harness's 20,000 nodes: the case's depth then says how deep).
    #[must_use]
    pub fn new(game: &G, position: G::Position, moves: Vec<G::Move>, depth: u32, origin: String) -> Self {
        Self::unfolded(game, position, moves, depth, 0, origin)
    }

    /// The same case unfolded up to `plies` past its depth, as many as fit in the harness's 20,000
    /// nodes ([`GameCase::beyond`]): what [`Config::deeper_entries`] needs to see the values of
    /// deeper searches.
    #[must_use]
    pub fn beyond(self, game: &G, plies: u32) -> Self {
        Self::unfolded(game, self.position, self.moves, self.case.depth, plies, self.case.origin)
    }

    /// `position` unfolded `depth + beyond` plies, the extra plies dropped first and then the
    /// depth lowered, until it fits.
    fn unfolded(
        game: &G,
        position: G::Position,
        moves: Vec<G::Move>,
        depth: u32,
        beyond: u32,
        origin: String,
    ) -> Self {
        let tries =
            (0..=beyond).rev().map(|extra| (depth, extra)).chain((0..depth).rev().map(|depth| (depth, 0)));
        let (depth, extra, (tree, positions)) = tries
            .into_iter()
            .find_map(|(depth, extra)| {
                unfold_with_positions(game, &position, depth + extra, MAX_UNFOLDED_NODES)
                    .ok()
                    .map(|found| (depth, extra, found))
            })
            .unwrap_or_else(|| unreachable!("a position unfolded 0 plies is one node"));
        Self { position, moves, case: Case { tree, depth, origin }, positions, beyond: extra }
    }

    /// The position after its move `index` (its `index`-th legal move), searched one ply less.
    fn child(&self, game: &G, mv: G::Move) -> Self {
        let mut moves = self.moves.clone();
        moves.push(mv);
        let origin = format!("own game, {} from the start", super::counted_moves(moves.len()));
        let depth = self.case.depth.saturating_sub(1);
        Self::unfolded(game, game.play(&self.position, mv), moves, depth, self.beyond, origin)
    }

    /// The same position searched `depth` plies.
    fn at_depth(&self, game: &G, depth: u32) -> Self {
        let origin = self.case.origin.clone();
        Self::unfolded(game, self.position.clone(), self.moves.clone(), depth, self.beyond, origin)
    }
}

impl Config {
    /// Case `index` of a run on `game`: a random walk from the start, cut at a length drawn over
    /// it, and a depth drawn from [`Config::height`]. See the [module documentation](self).
    #[must_use]
    pub fn game_case<G: Game>(&self, game: &G, index: u64) -> GameCase<G> {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let seed = rng.next_u64();
        let (_, playout) = random_position(game, seed, self.walk);
        let length = draw_below(&mut rng, playout.len() as u64 + 1);
        let moves = playout[..usize::try_from(length).unwrap_or(0)].to_vec();
        let position = moves.iter().fold(game.root(), |position, &mv| game.play(&position, mv));
        let depth = draw_u32(&mut rng, &self.height).max(self.least_depth());
        let origin = format!("own game, {} from the start", super::counted_moves(moves.len()));
        GameCase::unfolded(game, position, moves, depth, self.unfolded_beyond(), origin)
    }

    /// Plies an own game's case is unfolded past its depth: two with deeper entries, for the
    /// witness criterion, and none without.
    #[must_use]
    pub const fn unfolded_beyond(&self) -> u32 {
        if self.deeper_entries { 2 } else { 0 }
    }
}

/// How a run on your game ended.
pub enum GameOutcome<G: Game, E> {
    /// No case disagreed.
    Agreed {
        /// Cases judged and agreed.
        agreed: u64,
        /// Cases whose judgement needed more than [`Config::budget`] nodes.
        undecided: u64,
        /// Cases the engine declined.
        skipped: u64,
    },
    /// A case disagreed; followed down the game.
    Disagreed(Box<Descent<G>>),
    /// The engine could not answer a case, or panicked on it.
    EngineFailed {
        /// The case's index in the run.
        index: u64,
        /// The case.
        case: Box<GameCase<G>>,
        /// The engine's error, or its panic's message.
        error: Failure<E>,
    },
    /// The configuration cannot draw cases.
    Config(ConfigError),
}

/// A case the engine got wrong, and the node down the game where the bug acts.
pub struct Descent<G: Game> {
    /// The case's index in the run.
    pub index: u64,
    /// The case as drawn.
    pub original: GameCase<G>,
    /// Where the descent ended: wrong here, right at every child one ply shallower and here at
    /// every smaller depth.
    pub found: GameCase<G>,
    /// What the engine answered there.
    pub answer: Answer,
    /// What is wrong with it.
    pub disagreement: Disagreement,
    /// Searches asked of the engine while descending.
    pub tests: u64,
    /// The side the engine's values are from.
    pub perspective: Perspective,
}

impl<G: Game> Descent<G> {
    /// A report in a few lines: the case, where the descent ended, what the engine said there, the
    /// exact value and every move's (as `divide` gives them, from the side to move there), and what
    /// is wrong. `position` writes a position, `name` a move of a position.
    pub fn report(
        &self,
        position: impl Fn(&G::Position) -> String,
        name: impl Fn(&G::Position, G::Move) -> String,
        game: &G,
        budget: u64,
    ) -> String {
        let found = &self.found;
        let tree = &found.case.tree;
        let root = tree.root_id();
        let mover = tree.player(root);
        let mut memo = HashMap::new();
        let mut exact = |node, depth| minimax::value(tree, &node, depth, &mut memo, budget);
        let from_mover = |value: Value| mover.perspective(value);
        let line = |played: &[G::Move]| -> String {
            let mut at = game.root();
            let mut names = Vec::with_capacity(played.len());
            for &mv in played {
                names.push(name(&at, mv));
                at = game.play(&at, mv);
            }
            if names.is_empty() { "(the start)".to_owned() } else { names.join(" ") }
        };
        let mut report = format!(
            "case {} ({}), depth {}; descended in {} to depth {}, {} from the start\nmoves: {}\nposition: {}\n",
            self.index,
            self.original.case.origin,
            self.original.case.depth,
            super::counted(self.tests, "search", "searches"),
            found.case.depth,
            super::counted_moves(found.moves.len()),
            line(&found.moves),
            position(&found.position),
        );
        let said = match self.answer.best_move {
            Some(index) => {
                let mv = game.legal_moves(&found.position).get(index as usize).copied();
                let shown = mv.map_or_else(|| format!("#{index}"), |mv| name(&found.position, mv));
                format!("{} (move {shown})", self.answer.value)
            }
            None => self.answer.value.to_string(),
        };
        let value = exact(root, found.case.depth).map_or_else(
            || "beyond the budget".to_owned(),
            |v| {
                let side = |value| self.perspective.turn(mover, (value, value, value)).2;
                side(v).to_string()
            },
        );
        let _ = writeln!(report, "the engine says {said}; the exact value is {value}");
        if found.case.depth > 0 {
            let moves = game.legal_moves(&found.position);
            let width = moves.iter().map(|&mv| name(&found.position, mv).len()).max().unwrap_or(4).max(4);
            let _ = writeln!(report, "  {:<width$}  value (from the side to move here)", "move");
            for (&child, &mv) in tree.children(root).iter().zip(&moves) {
                let value = exact(child, found.case.depth - 1)
                    .map_or_else(|| "beyond the budget".to_owned(), |v| from_mover(v).to_string());
                let _ = writeln!(report, "  {:<width$}  {value}", name(&found.position, mv));
            }
        }
        report + &self.disagreement.describe(self.perspective, mover)
    }
}

/// Runs `engine` on [`Config::cases`] positions of `game` ([`Config::game_case`]), judges each
/// ([`judge`]) and follows the first that disagrees down the game ([`descend`]). See the
/// [module documentation](self). [`Config::families`], widths and values play no part.
pub fn fuzz_game<G: Game, E, R: Into<Reply>>(
    config: &Config,
    game: &G,
    mut engine: impl FnMut(&GameCase<G>) -> Result<R, E>,
    mut progress: impl FnMut(Progress),
) -> GameOutcome<G, E> {
    if config.height.is_empty() {
        return GameOutcome::Config(ConfigError(
            "the height (the depths to search) is an empty range".to_owned(),
        ));
    }
    let tried = run_cases(
        config,
        |index| Ok(config.game_case(game, index)),
        &mut engine,
        |case: &GameCase<G>| &case.case,
        |_| Some(super::Family::Own),
        &mut progress,
    );
    match tried {
        Tried::Agreed { agreed, undecided, skipped } => GameOutcome::Agreed { agreed, undecided, skipped },
        Tried::Config(error) => GameOutcome::Config(error),
        Tried::Failed { index, case, error } => {
            GameOutcome::EngineFailed { index, case: Box::new(case), error }
        }
        Tried::Disagreed { index, case, disagreement } => {
            let descent = descend(config, game, &case, disagreement, &mut engine, &mut progress);
            GameOutcome::Disagreed(Box::new(Descent { index, original: case, ..descent }))
        }
    }
}

/// Follows a case the engine gets wrong (`disagreement`) down the game: the smallest depth at the
/// position that is still wrong, then a child still wrong one ply shallower, and again, until no
/// child is (see the [module documentation](self)). A case the engine fails on, declines or that
/// cannot be judged within the budget is not wrong. At most [`Config::max_shrink_tests`] searches.
/// The result's `index` and `original` are `case`'s.
pub fn descend<G: Game, E, R: Into<Reply>>(
    config: &Config,
    game: &G,
    case: &GameCase<G>,
    disagreement: Disagreement,
    mut engine: impl FnMut(&GameCase<G>) -> Result<R, E>,
    mut progress: impl FnMut(Progress),
) -> Descent<G> {
    let mut tests = 0u64;
    let mut wrong = |candidate: &GameCase<G>, tests: &mut u64| -> Option<(Answer, Disagreement)> {
        *tests += 1;
        let answer = ask(&mut engine, candidate).ok()??;
        let found = judge(&candidate.case, &answer, config).ok()??;
        Some((answer, found))
    };
    // The answer on `case` itself, to report if nothing smaller is wrong.
    let first = wrong(case, &mut tests);
    let (answer, disagreement) = first.unwrap_or((Answer::default(), disagreement));
    let mut best = (case.clone(), answer, disagreement);
    'descend: loop {
        for depth in config.least_depth()..best.0.case.depth {
            if tests >= config.max_shrink_tests {
                break 'descend;
            }
            let shallower = best.0.at_depth(game, depth);
            if let Some((answer, disagreement)) = wrong(&shallower, &mut tests) {
                best = (shallower, answer, disagreement);
                break;
            }
        }
        progress(Progress::Shrinking {
            tests,
            nodes: usize::try_from(best.0.case.tree.stats().nodes).unwrap_or(usize::MAX),
        });
        if best.0.case.depth <= config.least_depth() {
            break;
        }
        let mut moved = false;
        for mv in game.legal_moves(&best.0.position) {
            if tests >= config.max_shrink_tests {
                break 'descend;
            }
            let child = best.0.child(game, mv);
            if let Some((answer, disagreement)) = wrong(&child, &mut tests) {
                best = (child, answer, disagreement);
                moved = true;
                break;
            }
        }
        if !moved {
            break;
        }
    }
    let (found, answer, disagreement) = best;
    Descent {
        index: 0,
        original: case.clone(),
        found,
        answer,
        disagreement,
        tests,
        perspective: config.perspective,
    }
}
