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
//!    their paths of child indices from the root, lexicographically, by walking both nodes up to
//!    where their paths part (no path is built: siblings compare in one step).
//! 2. "MAX" is the player to move at the root, and values are read from that player's side, so the
//!    procedure runs from any root; the driver reports the value from MAX's side.
//! 3. DUAL* runs the same procedure for the other player (values negated, the root a MIN node), as
//!    the restatement describes it.
//! 4. OPEN is a binary heap ordered by merit, then leftmost first, rather than a list searched for
//!    its best triple: the same triple comes off it, in O(log n) comparisons instead of n, so that
//!    a node with n children costs O(n log n) rather than O(n²).
//! 5. Case 6 removes the triples below the parent lazily: it marks the nodes below the parent (each
//!    node reached is marked at most once), and a marked triple is dropped when it reaches the top
//!    of the heap, instead of being searched for in OPEN at once. The triple taken at each step is
//!    the one the restatement takes.
//!
//! # How it is observed
//!
//! The procedure makes no recursive calls, so it reports what stands for one: each step that solves
//! a node (cases 1, 5 and 6) reports that node returned, from MAX's side, with the moves that lead
//! to it from the root (a node is solved
//! after its children, so they come first). Its result is the merit the node is solved with, and
//! its window is `(h - 1, h)`, where `h` is the merit it came off OPEN with, LIVE: the solved merit
//! answers "is the value at least `h`?" as a fail-soft search of that window does. It is `h` when
//! the value is at least `h`, and the value itself when that is less (the tests check both at every
//! solved node). A node taken LIVE and then removed by case 6 is counted but never reported.

use std::iter::successors;

use super::{Search, Table, run_listing};
use crate::driver::observe::{NodeEntered, NodeReturned, Perspective};
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
    /// Its last child reached so far, and its previous sibling: the links case 6 walks down.
    last_child: Option<usize>,
    previous_sibling: Option<usize>,
    /// Whether case 6 removed every triple below one of its ancestors (its own among them).
    removed: bool,
    /// The merit it came off OPEN with, LIVE: the bound its solved merit answers.
    entered: Value,
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
    /// Adds the `index`th child of `parent` (children are reached in order, so it is the last so far).
    fn add(&mut self, parent: Option<usize>, index: u32, ply: u32, position: P) -> usize {
        let node = self.nodes.len();
        let previous_sibling = parent.and_then(|parent| self.nodes[parent].last_child.replace(node));
        self.nodes.push(Node {
            parent,
            index,
            ply,
            position,
            last_child: None,
            previous_sibling,
            removed: false,
            entered: INFINITY,
        });
        node
    }

    /// Whether `a`'s path of child indices from the root is lexicographically smaller than `b`'s:
    /// at the first level where they differ, `a`'s index is the smaller, or `a` lies above `b`.
    fn is_left_of(&self, a: usize, b: usize) -> bool {
        let (mut x, mut y) = (a, b);
        while self.nodes[x].ply > self.nodes[y].ply {
            x = self.parent(x);
        }
        while self.nodes[y].ply > self.nodes[x].ply {
            y = self.parent(y);
        }
        if x == y {
            // One path is a prefix of the other. OPEN never holds a node and one below it, but the
            // heap may still hold a removed triple below a live one, and must see a total order.
            return self.nodes[a].ply < self.nodes[b].ply;
        }
        while self.nodes[x].parent != self.nodes[y].parent {
            (x, y) = (self.parent(x), self.parent(y));
        }
        self.nodes[x].index < self.nodes[y].index
    }

    /// The parent of a node that is not the root.
    fn parent(&self, node: usize) -> usize {
        self.nodes[node].parent.expect("only the root has no parent, and it is above every other node")
    }

    /// The children of `node` reached so far, last first.
    fn children(&self, node: usize) -> impl Iterator<Item = usize> + '_ {
        successors(self.nodes[node].last_child, |&child| self.nodes[child].previous_sibling)
    }

    /// Marks every node below `ancestor` removed. A node already marked has its subtree marked (case
    /// 6 removed it with an ancestor, and nothing is added below a removed node), so the walk stops
    /// there, and each node is marked once over the whole search.
    fn remove_below(&mut self, ancestor: usize) {
        let mut below: Vec<usize> = self.children(ancestor).collect();
        while let Some(node) = below.pop() {
            if !std::mem::replace(&mut self.nodes[node].removed, true) {
                below.extend(self.children(node));
            }
        }
    }

    /// Whether Γ takes `a` before `b`: the higher merit, and among equals the leftmost node.
    fn comes_first(&self, a: &Triple, b: &Triple) -> bool {
        a.merit > b.merit || (a.merit == b.merit && self.is_left_of(a.node, b.node))
    }
}

/// OPEN, as a binary heap whose top is the triple Γ takes next. (The standard library's heap orders
/// by the elements alone, and "leftmost" needs the arena.)
struct Open {
    heap: Vec<Triple>,
}

impl Open {
    fn push<P>(&mut self, triple: Triple, arena: &Arena<P>) {
        self.heap.push(triple);
        let mut child = self.heap.len() - 1;
        while child > 0 {
            let parent = (child - 1) / 2;
            if !arena.comes_first(&self.heap[child], &self.heap[parent]) {
                break;
            }
            self.heap.swap(child, parent);
            child = parent;
        }
    }

    /// Removes the triple of highest merit, the leftmost among equals.
    fn pop<P>(&mut self, arena: &Arena<P>) -> Option<Triple> {
        if self.heap.is_empty() {
            return None;
        }
        let best = self.heap.swap_remove(0);
        let mut parent = 0;
        loop {
            let (left, right) = (2 * parent + 1, 2 * parent + 2);
            let Some(left_triple) = self.heap.get(left) else { break };
            let child = match self.heap.get(right) {
                Some(right_triple) if arena.comes_first(right_triple, left_triple) => right,
                _ => left,
            };
            if !arena.comes_first(&self.heap[child], &self.heap[parent]) {
                break;
            }
            self.heap.swap(child, parent);
            parent = child;
        }
        Some(best)
    }
}

/// Reports `node` solved with merit `g` (from `player`'s side) as a call of the window `(h - 1, h)`,
/// `h` the merit it came off OPEN with, LIVE, with the moves that lead to it from the root (the
/// solved nodes do not nest as calls do).
fn report_solved<G: Game>(
    search: &mut Search<'_, G>,
    arena: &Arena<G::Position>,
    node: usize,
    g: Value,
    d: u32,
    player: Player,
) {
    if !search.is_observed() {
        return;
    }
    let Node { ply, entered: h, ref position, .. } = arena.nodes[node];
    // The merits are `player`'s: from MAX's side as every value the observer hears.
    let (alpha, beta, result) = Perspective::Mover.turn(player, (h - 1, h, g));
    // The moves from the root: each node's index among its parent's moves, read back as the move.
    let game = search.game;
    let mut moves: Vec<G::Move> = successors(Some(node), |&at| arena.nodes[at].parent)
        .filter_map(|at| {
            let parent = arena.nodes[at].parent?;
            game.moves(&arena.nodes[parent].position).nth(arena.nodes[at].index as usize)
        })
        .collect();
    moves.reverse();
    let entered = NodeEntered {
        ply: ply as usize,
        position,
        depth: d - ply,
        alpha,
        beta,
        perspective: Perspective::Max,
    };
    search.report(&NodeReturned {
        node: entered,
        result,
        probe: None,
        stored: None,
        cutoff: None,
        moves: Some(&moves),
    });
}

// ANCHOR: sss
/// SSS* from `root` to depth `d`, for `player` (who maximises; values from that player's side).
/// Returns the value from `player`'s side.
pub fn sss_star<G: Game>(search: &mut Search<'_, G>, root: &G::Position, d: u32, player: Player) -> Value {
    let game = search.game;
    let mut arena = Arena { nodes: Vec::new() };
    let root_node = arena.add(None, 0, 0, root.clone());
    // deviation: OPEN is a heap, so that taking its best triple does not scan it (see `Open`).
    let mut open = Open { heap: Vec::new() };
    open.push(Triple { node: root_node, status: Status::Live, merit: INFINITY }, &arena);
    loop {
        // Remove the triple of highest merit, the leftmost among equals.
        let Some(Triple { node: n, status, merit: h }) = open.pop(&arena) else {
            // deviation: OPEN never empties before the root is solved; answer rather than fail if
            // a game breaks the trait's contract.
            return -INFINITY;
        };
        if arena.nodes[n].removed {
            // deviation: case 6 removed it; it is dropped only now (see `Arena::remove_below`).
            continue;
        }
        if n == root_node && status == Status::Solved {
            return h;
        }
        let position = arena.nodes[n].position.clone();
        let ply = arena.nodes[n].ply;
        let is_max = game.to_move(&position) == player;
        match status {
            Status::Live => {
                search.node();
                arena.nodes[n].entered = h;
                if ply >= d || game.is_terminal(&position) {
                    // Γ1: a leaf.
                    let value = player.perspective(search.evaluate(&position));
                    report_solved(search, &arena, n, h.min(value), d, player);
                    open.push(Triple { node: n, status: Status::Solved, merit: h.min(value) }, &arena);
                } else if is_max {
                    // Γ2: every child.
                    for (index, mv) in game.moves(&position).enumerate() {
                        let child = arena.add(Some(n), index as u32, ply + 1, game.play(&position, mv));
                        open.push(Triple { node: child, status: Status::Live, merit: h }, &arena);
                    }
                } else if let Some(mv) = game.moves(&position).next() {
                    // Γ3: the first child.
                    let child = arena.add(Some(n), 0, ply + 1, game.play(&position, mv));
                    open.push(Triple { node: child, status: Status::Live, merit: h }, &arena);
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
                        open.push(Triple { node: sibling, status: Status::Live, merit: h }, &arena);
                    } else {
                        // Γ5: the parent is solved.
                        report_solved(search, &arena, parent, h, d, player);
                        open.push(Triple { node: parent, status: Status::Solved, merit: h }, &arena);
                    }
                } else {
                    // Γ6: the parent is solved; nothing below it is needed any more.
                    arena.remove_below(parent);
                    report_solved(search, &arena, parent, h, d, player);
                    open.push(Triple { node: parent, status: Status::Solved, merit: h }, &arena);
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
