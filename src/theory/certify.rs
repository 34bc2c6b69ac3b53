//! A certificate by exhaustion: no counterexample exists below a size, for every driver.
//!
//! Random tests say "none found". Running every driver on **every** small case says "none exists
//! below this size". That is the small-scope hypothesis of Jackson's Alloy and of SmallCheck: most
//! bugs show on small inputs. Exhaustion needs a finite set of cases, and the value of a search is
//! not decided by the tree's shape alone. It is decided by the tree's shape and a finite
//! description of its values.
//!
//! # Why classes of values suffice
//!
//! Most drivers only compare values, and return a leaf's value, a bound they were given, or ±∞.
//! Such a driver commutes with every strictly increasing map of the integers applied to the leaves,
//! the first guess and the window alike: its run on the mapped tree is its run on the tree, step for
//! step, with every value mapped. MTD(f) and its kin also step a bound by one (`g + 1`,
//! `beta - 1`). On integers `x >= g + 1` and `x > g` coincide, so a map that keeps at least 2
//! between distinct values keeps the run too: no value lies strictly between `g` and `g + 1`.
//! For these drivers ([`decided_by_order`]) the run depends only on the **weak order** of the
//! values: which are equal and which are smaller. There are finitely many weak orders of `n`
//! values (the Fubini numbers 1, 3, 13, 75, 541, 4683 …). [`certify`] gives the `k` classes of an
//! order the values 0, 2, …, 2k − 2. A first guess is one more class: below every value, equal to
//! one, between two, or above all, which is every integer from −1 to 2k − 1.
//!
//! The other drivers see the distances between values. Bisection takes midpoints, aspiration adds
//! a fixed delta, and Pons' driver splits the window in the middle. For them the order does not
//! decide the run, and [`certify`] runs them on every assignment of small actual values (−2 to 2)
//! instead. The test `theory::a_monotone_remapping_changes_nothing_for_the_drivers_decided_by_order`
//! checks the division both ways. A gap-keeping monotone map leaves every count of a first-kind
//! driver unchanged. For each driver of the second kind, some map changes its run.
//!
//! # The scope
//!
//! - **Trees**: every shape of at most [`Scope::nodes`] nodes with at most [`Scope::leaves`] leaves,
//!   one-child interior nodes included (the Catalan numbers count the shapes of `n` nodes: 1, 1,
//!   2, 5, 14, 42, 132 …). Each is searched to the end,
//!   over the classes of its leaf values. With [`Scope::depth_limits`], it is also searched to every
//!   depth below its height, over the classes of its leaf values together with the one evaluation
//!   its interior nodes share (as the parenthesis format gives them).
//! - **Graphs**: every game graph of at most [`Scope::graph_nodes`] nodes with a transposition (a
//!   node with two parents), in a canonical form. Nodes are numbered in the depth-first preorder
//!   that the `gtree` reader gives, sides alternate along every edge, and either side moves at the
//!   root. Each graph is searched to every depth up to its height, over the classes of the
//!   evaluations of all its nodes, by the drivers that keep a table ([`DriverInfo::table`]). The
//!   other drivers walk the unfolded tree, which the tree cases already cover.
//!
//! An exact driver must return the minimax value on every case. An inexact one must be caught, and
//! its **smallest** counterexample is the first in the order of size: the fewest nodes, trees before
//! graphs, then the order of enumeration. That order is deterministic, so the smallest counterexample
//! is a fact of the scope that a test can commit.
//!
//! # What it does not prove
//!
//! A certificate covers its scope and nothing beyond it. Interior nodes of a tree share one
//! evaluation. Tables are large enough never to replace an entry the search needs (256 entries).
//! Each case is one search from an empty table, not a sequence of searches, and the engine's
//! deeper-entries mode is not run. The book's chapter "A certificate by exhaustion" has the counts.

use std::collections::HashMap;
use std::fmt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::driver::{DriverInfo, SearchParams};
use crate::game::Player;
use crate::reference::minimax;
use crate::registry::Driver;
use crate::tree::{Tree, TreeBuilder, from_child_lists};
use crate::value::Value;

/// How far a certificate reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scope {
    /// Trees of at most this many nodes (one-child interior nodes included)...
    pub nodes: usize,
    /// ...and at most this many leaves.
    pub leaves: usize,
    /// Graphs with a transposition, of at most this many nodes (below 4, none has one).
    pub graph_nodes: usize,
    /// Whether trees are also searched to every depth below their height.
    pub depth_limits: bool,
    /// Whether the drivers that make root passes also run from every class of first guess.
    pub first_guesses: bool,
}

impl Default for Scope {
    /// Trees of up to 7 nodes and 5 leaves, graphs of up to 5 nodes, every depth limit and first
    /// guess.
    fn default() -> Self {
        Self { nodes: 7, leaves: 5, graph_nodes: 5, depth_limits: true, first_guesses: true }
    }
}

/// Whether a driver's run depends only on the weak order of the values (with gaps of at least 2),
/// not on their distances. See the [module documentation](self).
#[must_use]
pub const fn decided_by_order(driver: Driver) -> bool {
    !matches!(
        driver,
        Driver::Aspiration
            | Driver::AspirationNegaScout
            | Driver::VerhelstAspiration
            | Driver::MtdBi
            | Driver::MtdPons
            | Driver::KornilovSearchMt
            | Driver::MtBi
            | Driver::MtBiCorrected
    )
}

/// One case: a tree or graph, the depth it is searched to, and the first guess.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The tree or graph.
    pub tree: Tree,
    /// The depth searched (`u32::MAX`: to the end).
    pub depth: u32,
    /// The first guess, for a driver that takes one (`None`: its own default).
    pub first_guess: Option<Value>,
}

impl fmt::Display for Case {
    /// The tree on one line (a graph's `gtree` lines joined by `; `), the depth, the first guess.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tree = self.tree.to_string();
        f.write_str(tree.trim_end().replace('\n', "; ").as_str())?;
        if self.depth != u32::MAX {
            write!(f, ", depth {}", self.depth)?;
        }
        if let Some(guess) = self.first_guess {
            write!(f, ", first guess {guess}")?;
        }
        Ok(())
    }
}

/// One driver's certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The driver.
    pub driver: Driver,
    /// Whether the catalogue says it is exact.
    pub exact: bool,
    /// Cases it ran on (a case with several first guesses counts once).
    pub cases: u64,
    /// Runs (one per case and first guess).
    pub runs: u64,
    /// Runs whose value is not the minimax value.
    pub counterexamples: u64,
    /// The smallest of them.
    pub smallest: Option<Case>,
    /// Time spent in its runs, over all threads.
    pub elapsed: Duration,
}

impl Row {
    /// Whether the certificate holds for the driver: an exact driver has no counterexample, and
    /// an inexact one has one.
    #[must_use]
    pub const fn holds(&self) -> bool {
        self.exact == (self.counterexamples == 0)
    }
}

/// A shape: the preorder of a tree, `true` opening an interior node (closed by `false` after its
/// children), `None` a leaf.
type Shape = Vec<Option<bool>>;

/// Every shape of exactly `nodes` nodes (plane trees: the Catalan numbers 1, 1, 2, 5, 14, 42, 132 …),
/// one-child interior nodes included.
fn shapes(nodes: usize, memo: &mut HashMap<usize, Vec<Shape>>) -> Vec<Shape> {
    if let Some(known) = memo.get(&nodes) {
        return known.clone();
    }
    let mut all = if nodes == 1 { vec![vec![None]] } else { Vec::new() };
    if nodes > 1 {
        for forest in forests(nodes - 1, memo) {
            let mut shape = vec![Some(true)];
            shape.extend(forest);
            shape.push(Some(false));
            all.push(shape);
        }
    }
    memo.insert(nodes, all.clone());
    all
}

/// Every non-empty sequence of shapes with `nodes` nodes in all, concatenated.
fn forests(nodes: usize, memo: &mut HashMap<usize, Vec<Shape>>) -> Vec<Shape> {
    let mut all = Vec::new();
    for first in 1..=nodes {
        let heads = shapes(first, memo);
        let tails = if first == nodes { vec![Vec::new()] } else { forests(nodes - first, memo) };
        for head in &heads {
            for tail in &tails {
                let mut forest = head.clone();
                forest.extend_from_slice(tail);
                all.push(forest);
            }
        }
    }
    all
}

/// Every weak order of `items` things, as the rank of each (the ranks used are `0..k`): every
/// partition into `k` blocks (a restricted growth string), its blocks ranked in every order.
fn weak_orders(items: usize) -> Vec<Vec<u8>> {
    fn partitions(prefix: &mut Vec<u8>, items: usize, all: &mut Vec<Vec<u8>>) {
        if prefix.len() == items {
            all.push(prefix.clone());
            return;
        }
        let limit = prefix.iter().copied().max().map_or(0, |highest| highest + 1);
        for block in 0..=limit {
            prefix.push(block);
            partitions(prefix, items, all);
            prefix.pop();
        }
    }
    fn rankings(blocks: usize) -> Vec<Vec<u8>> {
        if blocks == 0 {
            return vec![Vec::new()];
        }
        let mut all = Vec::new();
        for shorter in rankings(blocks - 1) {
            // The new block takes every rank; those at or above it move up one.
            for rank in 0..blocks {
                let mut ranking: Vec<u8> =
                    shorter.iter().map(|&r| if usize::from(r) >= rank { r + 1 } else { r }).collect();
                ranking.push(u8::try_from(rank).unwrap_or(u8::MAX));
                all.push(ranking);
            }
        }
        all
    }
    let mut blocks_of = Vec::new();
    partitions(&mut Vec::with_capacity(items), items, &mut blocks_of);
    let mut all = Vec::new();
    for blocks in blocks_of {
        let count = blocks.iter().copied().max().map_or(0, |highest| usize::from(highest) + 1);
        for ranking in rankings(count) {
            all.push(blocks.iter().map(|&block| ranking[usize::from(block)]).collect());
        }
    }
    all
}

/// Every assignment of the values −2 to 2 to `items` things.
fn small_values(items: usize) -> Vec<Vec<Value>> {
    let mut all = vec![Vec::new()];
    for _ in 0..items {
        all = all
            .into_iter()
            .flat_map(|prefix| (-2..=2).map(move |v| [prefix.clone(), vec![v]].concat()))
            .collect();
    }
    all
}

/// The tree of `shape` with `leaf_values` on its leaves in preorder and `interior` on every
/// interior node.
fn build(shape: &Shape, leaf_values: &[Value], interior: Value) -> Tree {
    let mut builder = TreeBuilder::new();
    let mut leaves = leaf_values.iter();
    const WELL_FORMED: &str = "shapes are well formed and values admissible";
    for step in shape {
        match step {
            None => builder.leaf(*leaves.next().expect(WELL_FORMED)).expect(WELL_FORMED),
            Some(true) => builder.open_evaluated(interior).expect(WELL_FORMED),
            Some(false) => builder.close().expect(WELL_FORMED),
        }
    }
    builder.finish().expect(WELL_FORMED)
}

/// Every game graph of exactly `nodes` nodes with a node of two parents, in canonical form: edges
/// go from lower to higher numbers, sides alternate along every edge, and numbering the graph in
/// depth-first preorder from node 0 leaves it as it is. As child lists.
fn graphs(nodes: usize) -> Vec<Vec<Vec<u32>>> {
    let mut all = Vec::new();
    // Parent sets first: node j takes a non-empty set of earlier parents, of the other parity.
    let mut parents: Vec<Vec<u32>> = vec![Vec::new()];
    fn choose(
        nodes: usize,
        parents: &mut Vec<Vec<u32>>,
        depth_parity: &mut Vec<u8>,
        all: &mut Vec<Vec<Vec<u32>>>,
    ) {
        let j = parents.len();
        if j == nodes {
            if parents.iter().any(|p| p.len() > 1) {
                orderings(parents, all);
            }
            return;
        }
        for mask in 1u32..(1 << j) {
            let chosen: Vec<u32> = (0..j as u32).filter(|&p| mask & (1 << p) != 0).collect();
            let parity = depth_parity[chosen[0] as usize] ^ 1;
            if chosen.iter().any(|&p| depth_parity[p as usize] ^ 1 != parity) {
                continue;
            }
            parents.push(chosen);
            depth_parity.push(parity);
            choose(nodes, parents, depth_parity, all);
            parents.pop();
            depth_parity.pop();
        }
    }
    choose(nodes, &mut parents, &mut vec![0], &mut all);
    all
}

/// Every ordering of each node's children for the parent sets `parents`, kept when it is
/// canonical (its depth-first preorder is the numbering itself).
fn orderings(parents: &[Vec<u32>], all: &mut Vec<Vec<Vec<u32>>>) {
    let nodes = parents.len();
    let mut children: Vec<Vec<u32>> = vec![Vec::new(); nodes];
    for (child, of) in parents.iter().enumerate() {
        for &parent in of {
            children[parent as usize].push(child as u32);
        }
    }
    fn permutations(list: &[u32]) -> Vec<Vec<u32>> {
        if list.len() <= 1 {
            return vec![list.to_vec()];
        }
        let mut all = Vec::new();
        for (i, &first) in list.iter().enumerate() {
            let rest: Vec<u32> = list.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &x)| x).collect();
            for mut tail in permutations(&rest) {
                tail.insert(0, first);
                all.push(tail);
            }
        }
        all
    }
    let choices: Vec<Vec<Vec<u32>>> = children.iter().map(|list| permutations(list)).collect();
    let mut picked = vec![0usize; nodes];
    loop {
        let candidate: Vec<Vec<u32>> = (0..nodes).map(|n| choices[n][picked[n]].clone()).collect();
        if is_preorder(&candidate) {
            all.push(candidate);
        }
        // The next combination, like an odometer.
        let mut n = 0;
        while n < nodes {
            picked[n] += 1;
            if picked[n] < choices[n].len() {
                break;
            }
            picked[n] = 0;
            n += 1;
        }
        if n == nodes {
            return;
        }
    }
}

/// Whether a depth-first walk from node 0, children in order, first reaches the nodes in the order
/// of their numbers.
fn is_preorder(children: &[Vec<u32>]) -> bool {
    let mut seen = vec![false; children.len()];
    let mut next = 0u32;
    let mut stack = vec![(0u32, 0usize)];
    seen[0] = true;
    if next != 0 {
        return false;
    }
    next += 1;
    while let Some((node, index)) = stack.last_mut() {
        let node = *node;
        let Some(&child) = children[node as usize].get(*index) else {
            stack.pop();
            continue;
        };
        *index += 1;
        if !seen[child as usize] {
            if child != next {
                return false;
            }
            seen[child as usize] = true;
            next += 1;
            stack.push((child, 0));
        }
    }
    next as usize == children.len()
}

/// One family of cases: a shape or a graph, to be searched over all its value classes, depths and
/// first guesses. Its cases are made as they are run, so that memory holds one at a time.
struct Family {
    /// Sorts families by size: nodes, then trees before graphs, then enumeration order.
    key: (usize, u8, usize),
    what: Recipe,
}

enum Recipe {
    /// A tree shape with this many leaves.
    Tree(Shape, usize),
    /// A graph's child lists.
    Graph(Vec<Vec<u32>>),
}

impl Family {
    /// Calls `case` with each case of the family that falls in `part` of `parts` (by its index in
    /// a fixed order, which it is given too): the tree, the depth, and whether its values are
    /// order classes (else small actual values). A case outside the part is not even built.
    fn for_each_case(
        &self,
        scope: &Scope,
        (part, parts): (usize, usize),
        mut case: impl FnMut(usize, &Tree, u32, bool),
    ) {
        let mut index = 0;
        let mut case = |build: &dyn Fn() -> Tree, depth: u32, by_order: bool| {
            if index % parts == part {
                case(index, &build(), depth, by_order);
            }
            index += 1;
        };
        let spread =
            |order: &[u8]| -> Vec<Value> { order.iter().map(|&rank| 2 * Value::from(rank)).collect() };
        match &self.what {
            Recipe::Tree(shape, leaves) => {
                let leaves = *leaves;
                for order in weak_orders(leaves) {
                    case(&|| build(shape, &spread(&order), 0), u32::MAX, true);
                }
                for values in small_values(leaves) {
                    case(&|| build(shape, &values, 0), u32::MAX, false);
                }
                if scope.depth_limits {
                    let height = build(shape, &vec![0; leaves], 0).height();
                    for depth in 0..height {
                        for order in weak_orders(leaves + 1) {
                            let values = spread(&order);
                            case(&|| build(shape, &values[..leaves], values[leaves]), depth, true);
                        }
                        for values in small_values(leaves + 1) {
                            case(&|| build(shape, &values[..leaves], values[leaves]), depth, false);
                        }
                    }
                }
            }
            Recipe::Graph(children) => {
                let nodes = children.len();
                for root in [Player::Max, Player::Min] {
                    let graph = |evaluations: &[Value]| {
                        from_child_lists(0, children, |node, parent| {
                            (evaluations[node as usize], parent.map_or(root, Player::opponent))
                        })
                        .0
                    };
                    let height = graph(&vec![0; nodes]).height();
                    for depth in 1..=height {
                        let depth = if depth == height { u32::MAX } else { depth };
                        for order in weak_orders(nodes) {
                            case(&|| graph(&spread(&order)), depth, true);
                        }
                        for values in small_values(nodes) {
                            case(&|| graph(&values), depth, false);
                        }
                    }
                }
            }
        }
    }
}

/// Every family of the scope, in the order of size.
fn families(scope: &Scope) -> Vec<Family> {
    let mut memo = HashMap::new();
    let mut all = Vec::new();
    let mut index = 0;
    for nodes in 1..=scope.nodes {
        for shape in shapes(nodes, &mut memo) {
            let leaves = shape.iter().filter(|step| step.is_none()).count();
            if leaves <= scope.leaves {
                all.push(Family { key: (nodes, 0, index), what: Recipe::Tree(shape, leaves) });
                index += 1;
            }
        }
    }
    for nodes in 4..=scope.graph_nodes {
        for children in graphs(nodes) {
            all.push(Family { key: (nodes, 1, index), what: Recipe::Graph(children) });
            index += 1;
        }
    }
    all.sort_by_key(|family| family.key);
    all
}

/// How many tree shapes and graphs the scope enumerates: the families of cases.
#[must_use]
pub fn families_in(scope: &Scope) -> (usize, usize) {
    let all = families(scope);
    let graphs = all.iter().filter(|family| family.key.1 == 1).count();
    (all.len() - graphs, graphs)
}

/// The first-guess classes of a tree whose values are the even numbers up to `highest`: every
/// integer from one below the least to one above the greatest.
fn guesses(tree: &Tree) -> Vec<Option<Value>> {
    let values: Vec<Value> = tree.post_order().into_iter().map(|node| tree.evaluation(node)).collect();
    let (low, high) = (values.iter().copied().min().unwrap_or(0), values.iter().copied().max().unwrap_or(0));
    std::iter::once(None).chain((low - 1..=high + 1).map(Some)).collect()
}

/// One driver's counts on one thread: cases, runs, counterexamples, the smallest with its place in
/// the order of size, time.
#[derive(Clone, Debug, Default)]
struct Tally {
    cases: u64,
    runs: u64,
    counterexamples: u64,
    smallest: Option<((usize, u8, usize, usize), Case)>,
    elapsed: Duration,
}

/// The table size every table-keeping driver runs with: never full on these cases.
const TABLE_ENTRIES: usize = 256;

/// Each family's cases are shared out in this many parts, so that the threads stay busy to the
/// end however the sizes of the families differ.
const PARTS: usize = 16;

/// Runs every driver of `drivers` on every case of `scope`, on `threads` threads, telling
/// `progress` how many parts of families are done of how many after each. See the [module
/// documentation](self).
pub fn certify(
    scope: &Scope,
    drivers: &[Driver],
    threads: usize,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Vec<Row> {
    let families = families(scope);
    let total = (families.len() * PARTS) as u64;
    let done = AtomicU64::new(0);
    let next = AtomicU64::new(0);
    let tallies: Mutex<Vec<Tally>> = Mutex::new(vec![Tally::default(); drivers.len()]);
    std::thread::scope(|threads_scope| {
        for _ in 0..threads.max(1) {
            threads_scope.spawn(|| {
                let mut local: Vec<Tally> = vec![Tally::default(); drivers.len()];
                loop {
                    let item = usize::try_from(next.fetch_add(1, Ordering::Relaxed)).unwrap_or(usize::MAX);
                    let Some(family) = families.get(item / PARTS) else {
                        break;
                    };
                    run_family(family, (item % PARTS, PARTS), drivers, scope, &mut local);
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                }
                let mut tallies = tallies.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                for (tally, mine) in tallies.iter_mut().zip(local) {
                    tally.cases += mine.cases;
                    tally.runs += mine.runs;
                    tally.counterexamples += mine.counterexamples;
                    tally.elapsed += mine.elapsed;
                    let smaller = match (&tally.smallest, &mine.smallest) {
                        (None, Some(_)) => true,
                        (Some((key, _)), Some((mine_key, _))) => mine_key < key,
                        _ => false,
                    };
                    if smaller {
                        tally.smallest = mine.smallest;
                    }
                }
            });
        }
    });
    let tallies = tallies.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    drivers
        .iter()
        .zip(tallies)
        .map(|(&driver, tally)| Row {
            driver,
            exact: driver.info().exact,
            cases: tally.cases,
            runs: tally.runs,
            counterexamples: tally.counterexamples,
            smallest: tally.smallest.map(|(_, case)| case),
            elapsed: tally.elapsed,
        })
        .collect()
}

/// Runs the drivers on one part of one family's cases into `tallies`.
fn run_family(
    family: &Family,
    part: (usize, usize),
    drivers: &[Driver],
    scope: &Scope,
    tallies: &mut [Tally],
) {
    let is_graph = family.key.1 == 1;
    family.for_each_case(scope, part, |case_index, tree, depth, by_order| {
        let exact = minimax::value(tree, &tree.root_id(), depth, &mut HashMap::new(), u64::MAX)
            .unwrap_or_else(|| unreachable!("no limit stops it"));
        let classes = guesses(tree);
        for (driver, tally) in drivers.iter().zip(tallies.iter_mut()) {
            let info: &DriverInfo = driver.info();
            if decided_by_order(*driver) != by_order || (is_graph && !info.table) {
                continue;
            }
            let first_guesses: &[Option<Value>] =
                if scope.first_guesses && info.passes { &classes } else { &[None] };
            tally.cases += 1;
            let start = Instant::now();
            for &first_guess in first_guesses {
                tally.runs += 1;
                let params =
                    SearchParams { depth, first_guess, tt_entries: TABLE_ENTRIES, ..SearchParams::default() };
                if driver.run(tree, &params).value != exact {
                    tally.counterexamples += 1;
                    let key = (family.key.0, family.key.1, family.key.2, case_index);
                    if tally.smallest.as_ref().is_none_or(|(known, _)| key < *known) {
                        tally.smallest = Some((key, Case { tree: tree.clone(), depth, first_guess }));
                    }
                }
            }
            tally.elapsed += start.elapsed();
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_enumerations_count_what_the_literature_counts() {
        let mut memo = HashMap::new();
        // Catalan numbers (OEIS A000108) and Fubini numbers (OEIS A000670).
        let counts: Vec<usize> = (1..=7).map(|n| shapes(n, &mut memo).len()).collect();
        assert_eq!(counts, [1, 1, 2, 5, 14, 42, 132]);
        let orders: Vec<usize> = (1..=5).map(|n| weak_orders(n).len()).collect();
        assert_eq!(orders, [1, 3, 13, 75, 541]);
        assert_eq!(small_values(3).len(), 125);
    }

    #[test]
    fn graphs_are_canonical_alternating_and_share_a_node() {
        for nodes in 4..=5 {
            let all = graphs(nodes);
            assert!(!all.is_empty());
            for children in &all {
                assert!(is_preorder(children));
                let (tree, order) = from_child_lists(0, children, |_, parent| {
                    (0, parent.map_or(Player::Max, Player::opponent))
                });
                assert!(tree.has_shared_nodes());
                assert_eq!(
                    order,
                    (0..nodes as u32).collect::<Vec<_>>(),
                    "numbered as the reader numbers them"
                );
            }
            let unique: std::collections::HashSet<_> = all.iter().collect();
            assert_eq!(unique.len(), all.len(), "each graph once");
        }
    }
}
