//! Stockman's SSS* (1979), the best-first algorithm that MT-SSS* reformulates, with its OPEN list and
//! Γ operator, as Plaat, Schaeffer, Pijls and de Bruin restate it ("Best-First Fixed-Depth Minimax
//! Algorithms", *Artificial Intelligence* 87, 1996, after Pearl, *Heuristics*, 1984); and DUAL*, the
//! same procedure with the players' roles exchanged.
//!
//! OPEN holds triples (node, status, merit), status LIVE or SOLVED. It starts as (root, LIVE,
//! +INFINITY). Each step removes the triple of highest merit (ties: the leftmost node) and applies Γ:
//!
//! 1. LIVE leaf (terminal, or at the depth limit): put back (n, SOLVED, min(h, value(n))).
//! 2. LIVE interior MAX node: add (c, LIVE, h) for every child c.
//! 3. LIVE interior MIN node: add (first child, LIVE, h).
//! 4. SOLVED MAX node with a next sibling: add (next sibling, LIVE, h).
//! 5. SOLVED MAX node that is its parent's last child: add (parent, SOLVED, h).
//! 6. SOLVED MIN node: add (parent, SOLVED, h) and remove every triple below that parent.
//!
//! When the root comes off OPEN SOLVED, its merit is the minimax value. Every leaf is evaluated at most
//! once.
//!
//! # Deviations
//!
//! 1. The nodes reached are kept in an arena (parent, child index, position); "leftmost" compares
//!    their paths of child indices from the root, lexicographically.
//! 2. "MAX" is the player to move at the root, and values are read from that player's side, so the
//!    procedure runs from any root; the driver reports the value from MAX's side.
//! 3. DUAL* runs the same procedure for the other player (values negated, the root a MIN node), as
//!    the restatement describes it.

use super::{Search, Table, run_listing};
use crate::driver::{Hooks, Outcome, SearchParams};
use crate::game::{Game, Player};
use crate::value::{INFINITY, Value};

/// Whether a node is still to be solved or already has its merit as a value bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Live,
    Solved,
}

/// A node the procedure has reached: where it hangs in the tree, and its position.
struct Node<P> {
    parent: Option<usize>,
    /// Its index among its parent's children.
    index: u32,
    ply: u32,
    position: P,
}

/// One entry of OPEN: a node (by its index in the arena), its status and merit.
#[derive(Clone, Copy, Debug)]
struct Triple {
    node: usize,
    status: Status,
    merit: Value,
}

/// The nodes reached so far, each stored once.
struct Arena<P> {
    nodes: Vec<Node<P>>,
}

impl<P> Arena<P> {
    fn add(&mut self, parent: Option<usize>, index: u32, ply: u32, position: P) -> usize {
        self.nodes.push(Node { parent, index, ply, position });
        self.nodes.len() - 1
    }

    /// The child indices from the root to `node`.
    fn path(&self, mut node: usize) -> Vec<u32> {
        let mut path = Vec::new();
        while let Some(parent) = self.nodes[node].parent {
            path.push(self.nodes[node].index);
            node = parent;
        }
        path.reverse();
        path
    }

    /// Whether `node` lies below `ancestor` (or is it).
    fn is_below(&self, mut node: usize, ancestor: usize) -> bool {
        while self.nodes[node].ply > self.nodes[ancestor].ply {
            match self.nodes[node].parent {
                Some(parent) => node = parent,
                None => return false,
            }
        }
        node == ancestor
    }
}

// ANCHOR: sss
/// SSS* from `root` to depth `d`, for `player` (who maximises; values from that player's side).
/// Returns the value from `player`'s side.
pub fn sss_star<G: Game>(search: &mut Search<'_, G>, root: &G::Position, d: u32, player: Player) -> Value {
    let game = search.game;
    let mut arena = Arena { nodes: Vec::new() };
    let root_node = arena.add(None, 0, 0, root.clone());
    let mut open = vec![Triple { node: root_node, status: Status::Live, merit: INFINITY }];
    loop {
        // Remove the triple of highest merit, the leftmost among equals.
        let Some(best) = (0..open.len()).reduce(|best, i| {
            let (a, b) = (open[best], open[i]);
            let leftmost = || arena.path(b.node) < arena.path(a.node);
            if b.merit > a.merit || (b.merit == a.merit && leftmost()) { i } else { best }
        }) else {
            // deviation: OPEN never empties before the root is solved; answer rather than fail if
            // a game breaks the trait's contract.
            return -INFINITY;
        };
        let Triple { node: n, status, merit: h } = open.swap_remove(best);
        if n == root_node && status == Status::Solved {
            return h;
        }
        let position = arena.nodes[n].position.clone();
        let ply = arena.nodes[n].ply;
        let is_max = game.to_move(&position) == player;
        match status {
            Status::Live => {
                search.node();
                if ply >= d || game.is_terminal(&position) {
                    // Γ1: a leaf.
                    let value = player.perspective(search.evaluate(&position));
                    open.push(Triple { node: n, status: Status::Solved, merit: h.min(value) });
                } else if is_max {
                    // Γ2: every child.
                    for (index, mv) in game.moves(&position).enumerate() {
                        let child = arena.add(Some(n), index as u32, ply + 1, game.play(&position, mv));
                        open.push(Triple { node: child, status: Status::Live, merit: h });
                    }
                } else if let Some(mv) = game.moves(&position).next() {
                    // Γ3: the first child.
                    let child = arena.add(Some(n), 0, ply + 1, game.play(&position, mv));
                    open.push(Triple { node: child, status: Status::Live, merit: h });
                }
            }
            Status::Solved => {
                let Some(parent) = arena.nodes[n].parent else { return h };
                let index = arena.nodes[n].index;
                if is_max {
                    let parent_position = arena.nodes[parent].position.clone();
                    if let Some(mv) = game.moves(&parent_position).nth(index as usize + 1) {
                        // Γ4: the next sibling.
                        let sibling =
                            arena.add(Some(parent), index + 1, ply, game.play(&parent_position, mv));
                        open.push(Triple { node: sibling, status: Status::Live, merit: h });
                    } else {
                        // Γ5: the parent is solved.
                        open.push(Triple { node: parent, status: Status::Solved, merit: h });
                    }
                } else {
                    // Γ6: the parent is solved; nothing below it is needed any more.
                    open.retain(|triple| !arena.is_below(triple.node, parent));
                    open.push(Triple { node: parent, status: Status::Solved, merit: h });
                }
            }
        }
    }
}
// ANCHOR_END: sss

/// Runs SSS* at the root to `depth`; the value from MAX's side.
pub fn root_sss<G: Game>(search: &mut Search<'_, G>, root: &G::Position, depth: u32) -> Value {
    let player = search.game.to_move(root);
    let value = sss_star(search, root, depth, player);
    player.perspective(value)
}

/// Runs DUAL* (SSS* for the player not to move at the root) to `depth`; the value from MAX's side.
pub fn root_dual<G: Game>(search: &mut Search<'_, G>, root: &G::Position, depth: u32) -> Value {
    let player = search.game.to_move(root).opponent();
    let value = sss_star(search, root, depth, player);
    player.perspective(value)
}

// The drivers: each entry is one row of the catalogue (`crate::registry`).

/// `stockman-sss`: [`sss_star`] with its OPEN list.
pub fn run_sss<'a, G: Game>(
    game: &'a G,
    root: &G::Position,
    params: &SearchParams,
    hooks: Hooks<'a, G>,
) -> Outcome<G::Move> {
    run_listing(game, root, params, hooks, Table::AsPrinted, |search| root_sss(search, root, params.depth))
}

/// `stockman-dual`: DUAL*, [`sss_star`] with the roles exchanged.
pub fn run_dual<'a, G: Game>(
    game: &'a G,
    root: &G::Position,
    params: &SearchParams,
    hooks: Hooks<'a, G>,
) -> Outcome<G::Move> {
    run_listing(game, root, params, hooks, Table::AsPrinted, |search| root_dual(search, root, params.depth))
}
