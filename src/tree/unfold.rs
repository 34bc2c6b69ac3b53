//! A [`Game`] unfolded from a position to a depth into an explicit [`Tree`]: the form every tool that
//! reads tree files (and every engine that does) can search, with the game's own evaluations.
//!
//! Node `n`'s `k`-th child is the position after the `k`-th move of [`Game::legal_moves`] (the rules,
//! not the search's move list). A node `depth` plies below the start is a leaf carrying its
//! [`Game::evaluate`]; so is a terminal position. Every interior node keeps its own evaluation too,
//! so a search of the tree to any depth `d <= depth` reads what a search of the game to `d` reads,
//! and their values are equal; deeper than `depth` the tree has nothing more.
//!
//! When the game's keys identify positions ([`Game::keys_identify_positions`]), a position reached
//! by several move orders with the same depth left is **one** node with several parents: the tree is
//! a graph of transpositions, as small as the game's, and prints in the `gtree` format. A position
//! reached with different depths left stays separate nodes, since what lies below it differs.
//!
//! ```
//! use nullwindow::game::Game;
//! use nullwindow::games::tictactoe::TicTacToe;
//! use nullwindow::driver::Counts;
//! use nullwindow::reference::minimax::minimax;
//! use nullwindow::tree::unfold::unfold;
//!
//! let game = TicTacToe::from_moves("")?;
//! let tree = unfold(&game, &game.root(), 3, 100_000)?;
//! // 9 × 8 × 7 move orders; X's two squares in either order reach the same position.
//! assert_eq!(tree.stats().leaves, 9 * 8 * 7 / 2);
//! let value = |game: &dyn Fn(&mut Counts) -> i32| game(&mut Counts::default());
//! assert_eq!(
//!     value(&|counts| minimax(&tree, &tree.root_id(), u32::MAX, counts)),
//!     value(&|counts| minimax(&game, &game.root(), 3, counts)),
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashMap;
use std::fmt;

use super::{Tree, from_child_lists};
use crate::game::{Game, Prefetch};

/// The unfolded tree would have more nodes than the limit given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLarge {
    /// The limit.
    pub max_nodes: usize,
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the unfolded tree has more than {} nodes; unfold fewer plies", self.max_nodes)
    }
}

impl std::error::Error for TooLarge {}

/// `game` from `position`, `depth` plies deep, as a tree (a graph of transpositions when the game's
/// keys identify positions), of at most `max_nodes` nodes. See the [module documentation](self).
/// Never recurses.
///
/// # Errors
/// [`TooLarge`] when the tree would have more than `max_nodes` nodes (at least one is always made).
pub fn unfold<G: Game>(
    game: &G,
    position: &G::Position,
    depth: u32,
    max_nodes: usize,
) -> Result<Tree, TooLarge> {
    unfold_with_positions(game, position, depth, max_nodes).map(|(tree, _)| tree)
}

/// As [`unfold`], with each node's position, by [`NodeId::index`](super::NodeId::index): what a
/// caller needs to name the tree's nodes in the game's own terms.
///
/// # Errors
/// As [`unfold`].
pub fn unfold_with_positions<G: Game>(
    game: &G,
    position: &G::Position,
    depth: u32,
    max_nodes: usize,
) -> Result<(Tree, Vec<G::Position>), TooLarge> {
    let share = game.keys_identify_positions();
    let mut positions = vec![position.clone()];
    let mut depth_left = vec![depth];
    let mut children: Vec<Vec<u32>> = vec![Vec::new()];
    let mut known: HashMap<(u64, u32), u32> = HashMap::new();
    // Level by level, so that a game told each level ahead ([`Game::prefetch`]) asks for it at once.
    let mut level = vec![0u32];
    while !level.is_empty() {
        let here: Vec<G::Position> = level.iter().map(|&node| positions[node as usize].clone()).collect();
        let wanted = if depth_left[level[0] as usize] > 0 {
            Prefetch::MovesAndEvaluations
        } else {
            Prefetch::Evaluations
        };
        game.prefetch(&here, wanted);
        let mut next = Vec::new();
        for (&node, here) in level.iter().zip(&here) {
            let left = depth_left[node as usize];
            if left == 0 {
                continue;
            }
            for mv in game.legal_moves(here) {
                let child = game.play(here, mv);
                let shared = if share { known.get(&(game.key(&child), left - 1)).copied() } else { None };
                let id = match shared {
                    Some(id) => id,
                    None => {
                        if positions.len() >= max_nodes {
                            return Err(TooLarge { max_nodes });
                        }
                        let id = u32::try_from(positions.len()).map_err(|_| TooLarge { max_nodes })?;
                        if share {
                            known.insert((game.key(&child), left - 1), id);
                        }
                        positions.push(child);
                        depth_left.push(left - 1);
                        children.push(Vec::new());
                        next.push(id);
                        id
                    }
                };
                children[node as usize].push(id);
            }
        }
        level = next;
    }
    let (tree, order) = from_child_lists(0, &children, |node, _| {
        let position = &positions[node as usize];
        (game.evaluate(position), game.to_move(position))
    });
    let positions = order.iter().map(|&node| positions[node as usize].clone()).collect();
    Ok((tree, positions))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::Counts;
    use crate::games::nim::Nim;
    use crate::reference::minimax::minimax;

    #[test]
    fn the_unfolded_tree_has_the_games_value_at_every_depth_up_to_its_own() {
        let game = Nim::from_moves("3333").unwrap();
        for depth in 0..=6 {
            let tree = unfold(&game, &game.root(), depth, 1 << 20).unwrap();
            assert!(depth < 2 || tree.has_shared_nodes(), "takes 1-2 and 2-1 meet");
            for searched in 0..=depth {
                assert_eq!(
                    minimax(&tree, &tree.root_id(), searched, &mut Counts::default()),
                    minimax(&game, &game.root(), searched, &mut Counts::default()),
                    "unfolded {depth}, searched {searched}"
                );
            }
        }
    }

    #[test]
    fn a_limit_too_small_is_an_error_and_depth_zero_is_one_leaf() {
        let game = Nim::from_moves("3333").unwrap();
        assert_eq!(unfold(&game, &game.root(), 0, 1).map(|t| t.stats().nodes), Ok(1));
        assert_eq!(unfold(&game, &game.root(), 5, 10), Err(TooLarge { max_nodes: 10 }));
    }
}
