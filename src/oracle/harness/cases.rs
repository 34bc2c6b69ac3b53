//! Where cases come from: random trees and graphs, and positions of a game unfolded into trees, for
//! an engine that reads trees ([`Case`]); positions of a game itself, for an engine's own search of
//! its own game ([`GameCase`]). Case `i` of a run depends on the run's seed and `i` alone.

use std::fmt;
use std::str::FromStr;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use super::{Config, ConfigError, counted_moves};
use crate::game::Game;
use crate::games::connect4::Connect4;
use crate::games::random_position;
use crate::games::tictactoe::TicTacToe;
use crate::oracle::proof::TO_THE_END;
use crate::tree::random::{RandomTreeConfig, draw_below, draw_u32};
use crate::tree::random_graph::RandomGraphConfig;
use crate::tree::unfold::unfold;
use crate::tree::{NodeId, Tree, text};

/// A kind of case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Random trees, the parenthesis format's kind: a MAX root, leaf values, interior nodes 0.
    Trees,
    /// Random trees with an evaluation on every interior node, for depth-limited searches.
    Evaluated,
    /// Random game graphs with transpositions, some positions reached at two depths.
    Graphs,
    /// Tic-tac-toe from a random position, unfolded a few plies (a graph of its transpositions).
    TicTacToe,
    /// Connect Four from a random position, unfolded a few plies (a graph of its transpositions).
    Connect4,
    /// A game of your own ([`Config::own`]: an engine's, served over [`crate::oracle::protocol`], or any
    /// [`Game`] unfolded): a random position, unfolded a few plies.
    Own,
}

impl Family {
    /// Every family, in the order a run cycles through them ([`Family::Own`] only with a game).
    pub const ALL: [Self; 6] =
        [Self::Trees, Self::Evaluated, Self::Graphs, Self::TicTacToe, Self::Connect4, Self::Own];

    /// The families a run draws from by default: every one but [`Family::Own`].
    pub const BUILT_IN: [Self; 5] =
        [Self::Trees, Self::Evaluated, Self::Graphs, Self::TicTacToe, Self::Connect4];

    /// The family's name, as `nullwindow fuzz --family` takes it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Trees => "trees",
            Self::Evaluated => "evaluated",
            Self::Graphs => "graphs",
            Self::TicTacToe => "tictactoe",
            Self::Connect4 => "connect4",
            Self::Own => "own",
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Family {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        Self::ALL.into_iter().find(|family| family.name() == name).ok_or_else(|| {
            let names: Vec<&str> = Self::ALL.iter().map(|family| family.name()).collect();
            format!(
                "no family '{}'{}; the families are {}",
                text::excerpt(name),
                crate::registry::did_you_mean(name, names.iter().copied()),
                names.join(", ")
            )
        })
    }
}

/// One case: a tree and the depth to search it to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The tree (or graph) to search.
    pub tree: Tree,
    /// The depth limit: 0 evaluates the root; the tree's height or more searches to the end.
    pub depth: u32,
    /// Where it came from: the family, and for a game the position's moves from the start.
    pub origin: String,
}

impl Case {
    /// The extension of a file that holds the case's tree: `tree` when the parenthesis format holds
    /// it, `gtree` otherwise. The tree's `Display` writes the matching format.
    #[must_use]
    pub fn extension(&self) -> &'static str {
        if text::losses(&self.tree).is_empty() { "tree" } else { "gtree" }
    }

    /// The move, in the case's move order ([`Answer::best_move`](super::Answer::best_move)), that leads from the root to
    /// `child`; `None` when `child` is no child of the root. For an engine that answers with the
    /// position it would play rather than its index.
    ///
    /// ```
    /// use nullwindow::game::Game;
    /// use nullwindow::oracle::harness::Case;
    ///
    /// let case = Case { tree: "((1 2) (3 4))".parse()?, depth: 2, origin: String::new() };
    /// let second = case.tree.play(&case.tree.root(), 1);
    /// assert_eq!(case.move_to(second), Some(1));
    /// assert_eq!(case.move_to_key(case.tree.key(&second)), Some(1));
    /// assert_eq!(case.move_to(case.tree.root()), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn move_to(&self, child: NodeId) -> Option<u32> {
        let at = self.tree.children(self.tree.root_id()).iter().position(|&other| other == child)?;
        u32::try_from(at).ok()
    }

    /// The move that leads from the root to the child whose key ([`Game::key`]) is `key`; `None`
    /// when no child of the root has it. For an engine that answers with the key of the position
    /// it would play.
    #[must_use]
    pub fn move_to_key(&self, key: u64) -> Option<u32> {
        let children = self.tree.children(self.tree.root_id());
        let at = children.iter().position(|child| self.tree.key(child) == key)?;
        u32::try_from(at).ok()
    }
}

/// The most nodes a game's position unfolded into a tree case may have: the tree is unfolded as
/// many plies as fit, and the case's depth is drawn within its height.
const MAX_UNFOLDED_NODES: usize = 20_000;

impl Config {
    pub(super) fn tree_config(&self, seed: u64, family: Family) -> RandomTreeConfig {
        RandomTreeConfig {
            seed,
            width: self.width.clone(),
            depth: (*self.height.start()).max(1).min(*self.height.end())..=*self.height.end(),
            values: self.values.clone(),
            interior_values: (family == Family::Evaluated).then(|| self.values.clone()),
            ..RandomTreeConfig::default()
        }
    }

    pub(super) fn graph_config(&self, seed: u64) -> RandomGraphConfig {
        RandomGraphConfig {
            seed,
            plies: *self.height.end(),
            nodes: 1..=self.width.end().saturating_add(1),
            children: self.width.clone(),
            values: self.values.clone(),
            ..RandomGraphConfig::default()
        }
    }

    /// Case `index` of the run: the same configuration and index give the same case everywhere.
    ///
    /// # Errors
    /// As [`Config::validate`].
    pub fn case(&self, index: u64) -> Result<Case, ConfigError> {
        self.validate()?;
        let family = self.families[usize::try_from(index % self.families.len() as u64).unwrap_or(0)];
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let seed = rng.next_u64();
        let height = draw_u32(&mut rng, &self.height);
        let (tree, origin) = match family {
            Family::Trees | Family::Evaluated => {
                let tree =
                    self.tree_config(seed, family).generate().map_err(|e| ConfigError(e.to_string()))?;
                (tree, format!("{family}, seed {seed}"))
            }
            Family::Graphs => {
                let config = RandomGraphConfig { plies: height, ..self.graph_config(seed) };
                (config.generate().map_err(|e| ConfigError(e.to_string()))?, format!("{family}, seed {seed}"))
            }
            Family::TicTacToe => {
                let game = TicTacToe::from_moves("").map_err(|e| ConfigError(e.to_string()))?;
                let plies = draw_u32(&mut rng, &(0..=7));
                let (position, moves) = random_position(&game, seed, plies);
                let squares: String = moves.iter().map(ToString::to_string).collect();
                (unfold_within(&game, &position, height), format!("{family} position '{squares}'"))
            }
            Family::Connect4 => {
                let game = Connect4::from_moves("").map_err(|e| ConfigError(e.to_string()))?;
                let plies = draw_u32(&mut rng, &(0..=24));
                let (position, moves) = random_position(&game, seed, plies);
                let columns: String = moves.iter().map(ToString::to_string).collect();
                (unfold_within(&game, &position, height.min(4)), format!("{family} position '{columns}'"))
            }
            Family::Own => {
                let game = self.own.as_ref().ok_or_else(|| ConfigError("no game of your own".to_owned()))?;
                let plies = draw_u32(&mut rng, &(0..=self.walk));
                let (position, moves) = random_position(game, seed, plies);
                let path: Vec<String> = moves.iter().map(ToString::to_string).collect();
                (unfold_within(game, &position, height), format!("{family} game, path [{}]", path.join(",")))
            }
        };
        // Depth 0 (the root's evaluation alone) one case in ten; the other depths alike (a
        // terminal root is searched 1 ply: to its end, as 0 would).
        let zero = draw_below(&mut rng, 10) == 0;
        let depth = if zero && self.depth_zero { 0 } else { draw_u32(&mut rng, &(1..=tree.height().max(1))) };
        Ok(Case { tree, depth, origin })
    }
}

/// `game` unfolded from `position`, `plies` deep or less: as deep as fits [`MAX_UNFOLDED_NODES`].
fn unfold_within<G: Game>(game: &G, position: &G::Position, plies: u32) -> Tree {
    (0..=plies)
        .rev()
        .find_map(|plies| unfold(game, position, plies, MAX_UNFOLDED_NODES).ok())
        .unwrap_or_else(|| unreachable!("a position unfolded 0 plies is one node"))
}

/// A position of a game and the depth to search it to: a case of
/// [`fuzz_game`](super::fuzz_game), which the engine searches in its own game and
/// [`judge_game`](super::judge_game) judges at exactly this depth.
pub struct GameCase<G: Game> {
    /// The position.
    pub position: G::Position,
    /// The moves from the start to it (as walked; empty for a position given directly).
    pub moves: Vec<G::Move>,
    /// The depth to search it to: 0 evaluates the position alone.
    pub depth: u32,
    /// Where it came from, for a report.
    pub origin: String,
}

impl<G: Game> Clone for GameCase<G> {
    fn clone(&self) -> Self {
        Self {
            position: self.position.clone(),
            moves: self.moves.clone(),
            depth: self.depth,
            origin: self.origin.clone(),
        }
    }
}

impl<G: Game> GameCase<G> {
    /// `position`, reached by `moves`, searched `depth` plies deep.
    #[must_use]
    pub const fn new(position: G::Position, moves: Vec<G::Move>, depth: u32, origin: String) -> Self {
        Self { position, moves, depth, origin }
    }

    /// The position after `mv`, searched one ply less (to the end, as this one is), as a search's
    /// root ([`Game::search_root`]).
    pub(super) fn child(&self, game: &G, mv: G::Move) -> Self {
        let mut moves = self.moves.clone();
        moves.push(mv);
        let origin = format!("own game, {} from the start", counted_moves(moves.len()));
        let child = game.search_root(&game.play(&self.position, mv));
        Self::new(child, moves, one_ply_less(self.depth), origin)
    }

    /// The same position searched `depth` plies.
    pub(super) fn at_depth(&self, depth: u32) -> Self {
        Self { depth, ..self.clone() }
    }
}

impl Config {
    /// Case `index` of a run on `game`: a random walk from the start, a playout of at most
    /// [`Config::walk`] plies cut at a length drawn over it (so that late positions, passes and
    /// end games come up), and a depth drawn from [`Config::height`] (at least
    /// [`Config::least_depth`]). The same seed and `index` give the same case.
    #[must_use]
    pub fn game_case<G: Game>(&self, game: &G, index: u64) -> GameCase<G> {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let seed = rng.next_u64();
        let (_, playout) = random_position(game, seed, self.walk);
        let length = if self.to_end {
            // As many plies before the playout's end as a depth would be drawn.
            let before = u64::from(draw_u32(&mut rng, &self.height));
            (playout.len() as u64).saturating_sub(before)
        } else {
            draw_below(&mut rng, playout.len() as u64 + 1)
        };
        let moves = playout[..usize::try_from(length).unwrap_or(0)].to_vec();
        let reached = moves.iter().fold(game.root(), |position, &mv| game.play(&position, mv));
        let position = game.search_root(&reached);
        let depth =
            if self.to_end { TO_THE_END } else { draw_u32(&mut rng, &self.height).max(self.least_depth()) };
        let origin = format!("own game, {} from the start", counted_moves(moves.len()));
        GameCase::new(position, moves, depth, origin)
    }
}

/// A depth one ply less: to the end of the game stays to the end.
#[must_use]
pub const fn one_ply_less(depth: u32) -> u32 {
    if depth >= TO_THE_END { TO_THE_END } else { depth.saturating_sub(1) }
}

/// A depth as reports and `reproduce:` lines write it: its plies, or `end` ([`TO_THE_END`]).
#[must_use]
pub fn depth_text(depth: u32) -> String {
    if depth >= TO_THE_END { "end".to_owned() } else { depth.to_string() }
}
