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
//! values: which are equal and which are smaller (the Fubini numbers 1, 3, 13, 75, 541, 4683 …
//! count the weak orders of `n` values). A first guess is one more value in the order.
//!
//! The other drivers see the distances between values. Bisection takes midpoints, aspiration adds
//! a fixed delta, and Pons' driver splits the window in the middle. For them the order does not
//! decide the run, and [`certify`] runs them on small actual values (−2 to 2) instead, from every
//! first guess from −3 to 3. The test
//! `certify::a_monotone_remapping_changes_nothing_for_the_drivers_decided_by_order` checks the
//! division both ways. A gap-keeping monotone map leaves every count of a first-kind driver
//! unchanged. For each driver of the second kind, some map changes its run.
//!
//! # Classes found as they are read
//!
//! A driver sees the values only through [`Game::evaluate`](crate::game::Game::evaluate), one node
//! at a time, and a value it never reads cannot change its run. So [`certify`] does not assign all
//! the values of a tree and run the driver once per assignment: it decides each value only when the
//! run first reads it. For the first kind the value is placed against those read before (below
//! all, equal to one, between two, above all: `2q + 1` places among `q` classes, spread two apart);
//! for the second it is one of −2 to 2. Running again with the last choice moved on walks every
//! sequence of choices once, depth first, and each sequence is one class the run tells apart. A
//! driver that reads every leaf sees every weak order once; alpha-beta, which leaves values unread,
//! sees far fewer classes. The run is right for every value of its unread nodes exactly when
//! minimax agrees with it with the unread nodes below everything read and with them above: minimax
//! never falls as a value rises, so these two are its least and greatest value over all of them.
//! A test compares this with trying every assignment on every small shape, driver by driver.
//!
//! # The scope
//!
//! - **Trees**: every shape of at most [`Scope::nodes`] nodes, one-child interior nodes included
//!   (the Catalan numbers count the shapes of `n` nodes: 1, 1, 2, 5, 14, 42, 132 …), and every
//!   shape of at most [`Scope::leaves`] leaves whose interior nodes have two children or more (the
//!   little Schröder numbers: 1, 1, 3, 11, 45, 197, 903, 4279 …). Each is searched to the end and,
//!   with [`Scope::depth_limits`], to every depth below its height. Its interior nodes share one
//!   evaluation, as the parenthesis format gives them, or with [`Scope::distinct_evaluations`]
//!   each has its own.
//! - **Graphs**: every game graph of at most [`Scope::graph_nodes`] nodes with a transposition (a
//!   node with two parents), in a canonical form. Nodes are numbered in the depth-first preorder
//!   that the `gtree` reader gives, sides alternate along every edge, and either side moves at the
//!   root. Each graph is searched to every depth up to its height, every node with its own
//!   evaluation, by the drivers that keep a table ([`DriverInfo::table`](crate::driver::DriverInfo::table)).
//!   The other drivers walk the unfolded tree, which the tree cases already cover. With
//!   [`Scope::deeper_entries`], the engine's drivers also search each graph with entries of deeper
//!   searches answering, and their result is judged by the witness criterion.
//!
//! An exact driver must return the minimax value on every case. An inexact one must be caught, and
//! its **smallest** counterexample is the first in the order of size: the fewest nodes, trees before
//! graphs, then the order of enumeration (tree, depth, driver, first guess, class). That order is
//! deterministic, so the smallest counterexample is a fact of the scope that a test can commit. A
//! counterexample is printed as a plain tree: the values the run read, the unread values minimax
//! takes at the extreme where it disagrees, and the rest 0.
//!
//! # Sequences of windows
//!
//! A driver makes only the calls its source prints. [`certify_sequences`] calls each search with
//! memory ([`TableSearch`]) with every sequence of [`Scope::windows`] windows on one table, the
//! window edges placed among the values like values read first, and judges every call by the
//! fail-soft contract (see the `windows` module's source for the argument).
//!
//! # What it does not prove
//!
//! A certificate covers its scope and nothing beyond it. Tables are large enough never to replace
//! an entry the search needs (256 entries). Sequences of windows have finite edges and a fixed
//! length. The book's chapter "A certificate by exhaustion" has the counts.

mod classes;
mod enumerate;
mod windows;

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::driver::{Kind, SearchParams};
use crate::game::Player;
use crate::registry::Driver;
use crate::theory::witness::Witness;
use crate::tree::Tree;
use crate::value::Value;
use classes::{Reading, Values, minimax};
use enumerate::{Shape, branching_shapes, build, graph, graphs, shapes};
use windows::run_sequences;
pub use windows::{SequenceCase, TableSearch};

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
    /// Whether each interior node of a tree has its own evaluation; otherwise they share one, as
    /// the parenthesis format gives them. (Every node of a graph has its own.)
    pub distinct_evaluations: bool,
    /// Whether the engine's drivers also search every graph with entries of deeper searches
    /// answering ([`SearchParams::deeper_entries`]), judged by the witness criterion
    /// ([`crate::theory::witness`]). The criterion looks past the depth, so these runs read every
    /// evaluation first: each weak order of them, or each small assignment.
    pub deeper_entries: bool,
    /// The length of the sequences of windows [`certify_sequences`] calls the searches with memory
    /// with, on one table (0: none).
    pub windows: usize,
}

impl Default for Scope {
    /// Trees of up to 7 nodes, branching trees of up to 5 leaves, graphs of up to 5 nodes, every
    /// depth limit and first guess, deeper entries, sequences of two windows.
    fn default() -> Self {
        Self {
            nodes: 7,
            leaves: 5,
            graph_nodes: 5,
            depth_limits: true,
            first_guesses: true,
            distinct_evaluations: false,
            deeper_entries: true,
            windows: 2,
        }
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
    /// Whether entries of deeper searches answered (the result is then judged by the witness
    /// criterion, not against the minimax value).
    pub deeper_entries: bool,
}

impl fmt::Display for Case {
    /// The tree on one line (a graph's `gtree` lines joined by `; `), the depth, the first guess.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_tree_and_depth(f, &self.tree, self.depth)?;
        if let Some(guess) = self.first_guess {
            write!(f, ", first guess {guess}")?;
        }
        if self.deeper_entries {
            f.write_str(", deeper entries")?;
        }
        Ok(())
    }
}

/// A case's tree on one line (a graph's `gtree` lines joined by `; `), and its depth unless it is
/// searched to the end: how every counterexample begins.
fn write_tree_and_depth(f: &mut fmt::Formatter<'_>, tree: &Tree, depth: u32) -> fmt::Result {
    f.write_str(tree.to_string().trim_end().replace('\n', "; ").as_str())?;
    if depth != u32::MAX {
        write!(f, ", depth {depth}")?;
    }
    Ok(())
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

/// One table search's certificate over sequences of windows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SequenceRow {
    /// The search with memory.
    pub search: TableSearch,
    /// Cases it ran on (a tree or graph and a depth).
    pub cases: u64,
    /// Runs (one per class of values and windows, each a sequence of calls).
    pub runs: u64,
    /// Runs in which a call broke the contract.
    pub counterexamples: u64,
    /// The smallest of them.
    pub smallest: Option<SequenceCase>,
    /// Time spent in its runs, over all threads.
    pub elapsed: Duration,
}

impl SequenceRow {
    /// Whether the certificate holds for the search: an exact one keeps the contract on every
    /// sequence, and a printed listing that does not is caught.
    #[must_use]
    pub const fn holds(&self) -> bool {
        self.search.exact() == (self.counterexamples == 0)
    }
}

/// One family of cases: a shape, or a graph with either side at its root, searched to each of its
/// depths by every driver over every class of values. Its cases are run as they come.
struct Family {
    /// Sorts families by size: nodes, then trees before graphs, then enumeration order.
    key: (usize, u8, usize),
    /// The tree, or the graph with MAX and with MIN at the root; every evaluation 0.
    trees: Vec<Tree>,
}

impl Family {
    /// The depths each tree is searched to: a shape to the end and to every depth below its height,
    /// a graph to every depth from 1 (its height: to the end).
    fn depths(&self, tree: &Tree, scope: &Scope) -> Vec<u32> {
        let height = tree.height();
        if self.key.1 == 1 {
            (1..=height).map(|depth| if depth == height { u32::MAX } else { depth }).collect()
        } else if scope.depth_limits {
            std::iter::once(u32::MAX).chain(0..height).collect()
        } else {
            vec![u32::MAX]
        }
    }
}

/// Every family of the scope, in the order of size.
fn families(scope: &Scope) -> Vec<Family> {
    let mut memo = HashMap::new();
    let mut branching_memo = HashMap::new();
    let mut seen = HashSet::new();
    let mut all = Vec::new();
    let mut index = 0;
    let every_shape = (1..=scope.nodes).flat_map(|nodes| shapes(nodes, &mut memo));
    let branching: Vec<Shape> =
        (1..=scope.leaves).flat_map(|leaves| branching_shapes(leaves, &mut branching_memo)).collect();
    for shape in every_shape.chain(branching) {
        if seen.insert(shape.clone()) {
            let nodes = shape.iter().filter(|&&step| step != Some(false)).count();
            all.push(Family { key: (nodes, 0, index), trees: vec![build(&shape)] });
            index += 1;
        }
    }
    for nodes in 4..=scope.graph_nodes {
        for children in graphs(nodes) {
            let trees = [Player::Max, Player::Min].map(|root| graph(&children, root)).to_vec();
            all.push(Family { key: (nodes, 1, index), trees });
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

/// One way a driver is run on one tree and depth.
#[derive(Clone, Copy, Debug)]
struct Mode {
    /// How values are chosen.
    values: Values,
    /// The first guess the driver is given, if fixed.
    first_guess: Option<Value>,
    /// Whether the first guess is a value of its own, read before the run and placed among the
    /// values it reads (every class of guess).
    placed_guess: bool,
    /// Whether entries of deeper searches answer.
    deeper_entries: bool,
}

/// The ways `driver` runs on one tree or graph and depth. A driver decided by the order runs from
/// its own first guess, and (when it makes root passes) from a first guess placed among the values
/// like one more value read first: every class of guess. The others run on small values, and from every
/// guess from −3 to 3. On a graph, an engine's driver also runs with deeper entries (from its own
/// guess, and from the placed one when it is decided by the order).
fn modes(driver: Driver, scope: &Scope, is_graph: bool) -> Vec<Mode> {
    let info = driver.info();
    let guesses = scope.first_guesses && info.passes;
    let mode = |values, first_guess| Mode { values, first_guess, placed_guess: false, deeper_entries: false };
    let mut modes = if decided_by_order(driver) {
        let mut modes = vec![mode(Values::Order, None)];
        if guesses {
            modes.push(Mode { placed_guess: true, ..mode(Values::Order, None) });
        }
        modes
    } else {
        let mut modes = vec![mode(Values::Small, None)];
        if guesses {
            modes.extend((-3..=3).map(|guess| mode(Values::Small, Some(guess))));
        }
        modes
    };
    if is_graph && scope.deeper_entries && info.kind == Kind::Optimized {
        let deeper: Vec<Mode> = modes
            .iter()
            .filter(|mode| mode.values != Values::Small || mode.first_guess.is_none())
            .map(|&mode| Mode { deeper_entries: true, ..mode })
            .collect();
        modes.extend(deeper);
    }
    modes
}

/// Where a run stands in the order of size: the family's nodes, kind (tree 0, graph 1) and number,
/// the case's number in the family, the class's number in the case.
type Place = (usize, u8, usize, usize, u64);

/// One row's counts on one thread: cases, runs, counterexamples, the smallest (`C`: a [`Case`] or
/// a [`SequenceCase`]) with its place in the order of size, time.
#[derive(Clone, Debug)]
struct Tally<C> {
    cases: u64,
    runs: u64,
    counterexamples: u64,
    smallest: Option<(Place, C)>,
    elapsed: Duration,
}

impl<C> Default for Tally<C> {
    fn default() -> Self {
        Self { cases: 0, runs: 0, counterexamples: 0, smallest: None, elapsed: Duration::ZERO }
    }
}

impl<C> Tally<C> {
    /// Counts a counterexample at `place`, kept if it is the smallest so far.
    fn wrong(&mut self, place: Place, case: impl FnOnce() -> C) {
        self.counterexamples += 1;
        self.keep_smaller(place, case);
    }

    /// Keeps the counterexample `case` makes if `place` comes before the smallest so far.
    fn keep_smaller(&mut self, place: Place, case: impl FnOnce() -> C) {
        if self.smallest.as_ref().is_none_or(|(known, _)| place < *known) {
            self.smallest = Some((place, case()));
        }
    }

    /// Adds another thread's counts.
    fn absorb(&mut self, other: Self) {
        self.cases += other.cases;
        self.runs += other.runs;
        self.counterexamples += other.counterexamples;
        self.elapsed += other.elapsed;
        if let Some((place, case)) = other.smallest {
            self.keep_smaller(place, || case);
        }
    }
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
    let tallies = share_out(scope, drivers.len(), threads, progress, |family, part, tallies| {
        run_family(family, part, drivers, scope, tallies);
    });
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

/// Calls each search of `searches` with every sequence of [`Scope::windows`] windows on one
/// table, on every case of `scope` (see [`windows`](self#sequences-of-windows)), on `threads`
/// threads, telling `progress` as [`certify`] does.
pub fn certify_sequences(
    scope: &Scope,
    searches: &[TableSearch],
    threads: usize,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Vec<SequenceRow> {
    let tallies = share_out(scope, searches.len(), threads, progress, |family, part, tallies| {
        run_sequences_of_family(family, part, searches, scope, tallies);
    });
    searches
        .iter()
        .zip(tallies)
        .map(|(&search, tally)| SequenceRow {
            search,
            cases: tally.cases,
            runs: tally.runs,
            counterexamples: tally.counterexamples,
            smallest: tally.smallest.map(|(_, case)| case),
            elapsed: tally.elapsed,
        })
        .collect()
}

/// Shares the families of `scope` out to `threads` threads in parts, each thread running `work`
/// on a part into its own `rows` tallies; the threads' tallies added up.
fn share_out<C: Send>(
    scope: &Scope,
    rows: usize,
    threads: usize,
    progress: &(dyn Fn(u64, u64) + Sync),
    work: impl Fn(&Family, (usize, usize), &mut [Tally<C>]) + Sync,
) -> Vec<Tally<C>> {
    let families = families(scope);
    let total = (families.len() * PARTS) as u64;
    let done = AtomicU64::new(0);
    let next = AtomicU64::new(0);
    let tallies: Mutex<Vec<Tally<C>>> = Mutex::new((0..rows).map(|_| Tally::default()).collect());
    std::thread::scope(|threads_scope| {
        for _ in 0..threads.max(1) {
            threads_scope.spawn(|| {
                let mut local: Vec<Tally<C>> = (0..rows).map(|_| Tally::default()).collect();
                loop {
                    let item = usize::try_from(next.fetch_add(1, Ordering::Relaxed)).unwrap_or(usize::MAX);
                    let Some(family) = families.get(item / PARTS) else {
                        break;
                    };
                    work(family, (item % PARTS, PARTS), &mut local);
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                }
                let mut tallies = tallies.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                for (tally, mine) in tallies.iter_mut().zip(local) {
                    tally.absorb(mine);
                }
            });
        }
    });
    tallies.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Calls the table searches on one part of one family's cases into `tallies`: every tree of the
/// family, every depth, every search, a case each (dealt out to the parts in turn), and every class
/// of values and windows.
fn run_sequences_of_family(
    family: &Family,
    (part, parts): (usize, usize),
    searches: &[TableSearch],
    scope: &Scope,
    tallies: &mut [Tally<SequenceCase>],
) {
    let shared = family.key.1 == 0 && !scope.distinct_evaluations;
    let mut unit = 0;
    for tree in &family.trees {
        for depth in family.depths(tree, scope) {
            for (&search, tally) in searches.iter().zip(tallies.iter_mut()) {
                unit += 1;
                if (unit - 1) % parts != part {
                    continue;
                }
                let start = Instant::now();
                tally.cases += 1;
                tally.runs += run_sequences(tree, depth, search, scope.windows, shared, |class, wrong| {
                    tally.wrong((family.key.0, family.key.1, family.key.2, unit, class), || wrong);
                });
                tally.elapsed += start.elapsed();
            }
        }
    }
}

/// Runs the drivers on one part of one family's cases into `tallies`: every tree of the family,
/// every depth, every driver, every mode, a case each (dealt out to the parts in turn), and every
/// class of values the driver tells apart in it.
fn run_family(
    family: &Family,
    (part, parts): (usize, usize),
    drivers: &[Driver],
    scope: &Scope,
    tallies: &mut [Tally<Case>],
) {
    let is_graph = family.key.1 == 1;
    let mut unit = 0;
    for tree in &family.trees {
        for depth in family.depths(tree, scope) {
            for (driver, tally) in drivers.iter().zip(tallies.iter_mut()) {
                if is_graph && !driver.info().table {
                    continue;
                }
                for mode in modes(*driver, scope, is_graph) {
                    unit += 1;
                    if (unit - 1) % parts != part {
                        continue;
                    }
                    let key = (family.key.0, family.key.1, family.key.2, unit);
                    let Mode { values, first_guess, placed_guess, deeper_entries } = mode;
                    let params = SearchParams {
                        depth,
                        first_guess,
                        deeper_entries,
                        tt_entries: TABLE_ENTRIES,
                        ..SearchParams::default()
                    };
                    let start = Instant::now();
                    tally.cases += 1;
                    let shared = !is_graph && !scope.distinct_evaluations;
                    let reading = (values, placed_guess, shared);
                    tally.runs += run_case(tree, *driver, &params, reading, |class, wrong, first_guess| {
                        let case = || Case { tree: wrong, depth, first_guess, deeper_entries };
                        tally.wrong((key.0, key.1, key.2, key.3, class), case);
                    });
                    tally.elapsed += start.elapsed();
                }
            }
        }
    }
}

/// Runs `driver` on `tree` over every class of values it tells apart, calling `wrong` with the
/// class's number, a tree it is wrong on and the first guess it had, for every class where it is.
/// `reading` says how values are chosen, whether the first guess is one of them (read first), and
/// whether interior nodes share their evaluation. Returns the runs made.
fn run_case(
    tree: &Tree,
    driver: Driver,
    params: &SearchParams,
    (values, placed_guess, shared_interior): (Values, bool, bool),
    mut wrong: impl FnMut(u64, Tree, Option<Value>),
) -> u64 {
    let mut used = vec![false; tree.node_count()];
    let reading = Reading::new(tree, values, shared_interior, usize::from(placed_guess));
    let mut params = params.clone();
    let mut class = 0;
    loop {
        if placed_guess {
            params.first_guess = Some(reading.read_extra(0));
        }
        if params.deeper_entries {
            reading.read_all();
        }
        let value = driver.run(&reading, &params).value;
        let found = if params.deeper_entries {
            not_a_witness(tree, &reading, params.depth, value)
        } else {
            counterexample(tree, &reading, params.depth, &mut used, |exact| exact == value)
        };
        if let Some(tree) = found {
            wrong(class, tree, params.first_guess);
        }
        class += 1;
        if !reading.advance() {
            return class;
        }
    }
}

/// The graph, every evaluation read, if `value` is no result of an all-or-none extension of it
/// searched `depth` plies deep (the witness criterion, which a search with deeper entries must meet).
fn not_a_witness(tree: &Tree, reading: &Reading<'_>, depth: u32, value: Value) -> Option<Tree> {
    let concrete = tree.with_evaluations(|node| reading.value_of(node).unwrap_or(0));
    let root = concrete.root_id();
    let mover = concrete.player(root).perspective(value);
    // The graphs are tiny: the budget is never reached, and if it were, the case would count as wrong.
    let holds = Witness::new(&concrete, WITNESS_BUDGET).holds(&root, depth, mover).unwrap_or(false);
    (!holds).then_some(concrete)
}

/// Nodes the witness criterion may visit for one case.
const WITNESS_BUDGET: u64 = 1 << 20;

/// The tree on which the run just made is wrong, if one exists: the values it read, and every
/// unread node that minimax takes at its least (or greatest) where the minimax value `v` then fails
/// `keeps(v)`; the other unread nodes 0. `keeps` must ask that `v` lie in an interval, so that the
/// two extremes decide it for every filling of the unread nodes.
fn counterexample(
    tree: &Tree,
    reading: &Reading<'_>,
    depth: u32,
    used: &mut [bool],
    keeps: impl Fn(Value) -> bool,
) -> Option<Tree> {
    let (low, high) = reading.extremes();
    for fill in [low, high] {
        used.fill(false);
        let exact =
            minimax(tree, tree.root_id(), depth, &|node| reading.value_of(node).unwrap_or(fill), used);
        if !keeps(exact) {
            return Some(tree.with_evaluations(|node| {
                reading.value_of(node).unwrap_or(if used[node.index()] { fill } else { 0 })
            }));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::minimax;
    use crate::tree::NodeId;

    /// Every assignment of `choices` to `items` things.
    fn assignments(items: usize, choices: &[Value]) -> Vec<Vec<Value>> {
        let mut all = vec![Vec::new()];
        for _ in 0..items {
            all = all
                .into_iter()
                .flat_map(|prefix: Vec<Value>| {
                    choices.iter().map(move |&v| [prefix.clone(), vec![v]].concat())
                })
                .collect();
        }
        all
    }

    /// The classes miss nothing: on every shape of at most 4 nodes, to the end and to every depth,
    /// a driver has a counterexample among its classes exactly when it has one among all the
    /// assignments of values to the leaves and the shared interior evaluation (every weak order
    /// spread two apart, or every small value), tried one by one.
    #[test]
    fn the_classes_find_a_counterexample_exactly_where_trying_every_assignment_does() {
        let scope = Scope { nodes: 4, leaves: 0, graph_nodes: 0, ..Scope::default() };
        for family in families(&scope) {
            let tree = &family.trees[0];
            let leaves: Vec<NodeId> =
                (0..tree.node_count() as u32).map(NodeId).filter(|&node| tree.is_leaf(node)).collect();
            for depth in family.depths(tree, &scope) {
                for &driver in Driver::ALL {
                    let params = SearchParams { depth, tt_entries: TABLE_ENTRIES, ..SearchParams::default() };
                    let values = if decided_by_order(driver) { Values::Order } else { Values::Small };
                    let mut found = false;
                    run_case(tree, driver, &params, (values, false, true), |_, wrong, _| {
                        // A counterexample is a tree the driver is wrong on.
                        let exact =
                            minimax::value(&wrong, &wrong.root_id(), depth, &mut HashMap::new(), u64::MAX);
                        assert_ne!(Some(driver.run(&wrong, &params).value), exact, "{wrong}");
                        found = true;
                    });
                    let choices: Vec<Value> = match values {
                        Values::Order => (0..=leaves.len() as Value).map(|rank| 2 * rank).collect(),
                        Values::Small => (-2..=2).collect(),
                    };
                    let exists = assignments(leaves.len() + 1, &choices).iter().any(|assignment| {
                        let concrete = tree.with_evaluations(|node| {
                            leaves
                                .iter()
                                .position(|&leaf| leaf == node)
                                .map_or(assignment[leaves.len()], |i| assignment[i])
                        });
                        let exact = minimax::value(
                            &concrete,
                            &concrete.root_id(),
                            depth,
                            &mut HashMap::new(),
                            u64::MAX,
                        );
                        Some(driver.run(&concrete, &params).value) != exact
                    });
                    assert_eq!(found, exists, "{} on {tree} at depth {depth}", driver.info().name);
                }
            }
        }
    }
}
