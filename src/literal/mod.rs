//! Literal translations of the published pseudo-code, one module per source document.
//!
//! Each module follows its listing line by line: the same structure, the same statement order, the
//! same loop forms (a Pascal `repeat … until` stays a loop that tests at the bottom) and the same
//! names in snake_case. Where Rust or the crate forces a change, the site says `// deviation:` and
//! why, and the module's documentation lists every one. Where a listing is wrong, it is *kept* wrong
//! (marked `exact: false` in the [catalogue](crate::registry), so `--algo all` leaves it out) and a
//! corrected driver with the smallest change that makes it exact sits beside it.
//!
//! | module | source | drivers |
//! |---|---|---|
//! | [`plaat`] | Aske Plaat, "MTD(f), a new chess algorithm" (web page) | `AlphaBetaWithMemory`, `MTDF`, `iterative_deepening` |
//! | [`wikipedia_ja`] | Wikipedia (Japanese), "MTD-f" | `MTDF` (while form) over its own `AlphaBetaWithMemory` |
//! | [`chessprogramming`] | Chessprogramming wiki, "MTD(f)" | the C `mtdf` with `int bound[2]` |
//! | [`kornilov`] | Russian article after Kornilov (2005) | fail-soft negamax `AlphaBeta`, `MTDF`, `SearchMT`, `IterativeDeepening` |
//! | [`verhelst`] | Paul Verhelst, "Chess Tree Search" | `PrincipalVariation`, aspiration search |
//! | [`mt`] | Plaat, Schaeffer, Pijls and de Bruin, *Artificial Intelligence* 87 (1996), Figure 11 | the MTD framework: SSS*, DUAL*, MTD(bi) = C* |
//! | [`stockman`] | Stockman (1979), as Plaat et al. (1996) restate it | SSS* and DUAL* with the OPEN list |
//! | [`wesselink`] | Wesselink, Huizing and van de Wetering (2025), `python/negamax.py`, `python/negamax-depth-plaat.py` and the Dafny `dafny-4.11/negamax-ttw-variants.dfy` | negamax with a table: the Wikipedia and Marsland schemes, their variants and Plaat et al.'s (1996) depth-limited search (not registry drivers: they answer from deeper entries by design) |
//!
//! # How the translations are observed
//!
//! The recursive functions are written exactly as printed, and each one is entered through a thin
//! wrapper of the printed name that counts the node and tells the [observer](crate::driver::observe)
//! of it: the node entered (position, depth, the window as passed in), every evaluation, and the
//! node returned with its result. The tests use the observer to check the fail-soft postcondition at
//! every call, not only at the root; `nullwindow trace` writes its records from the same events. The
//! wrapper never changes a value. The printed body is the function of the same name with `_listing`
//! appended.
//!
//! # How a translation becomes a driver
//!
//! Each module ends with its drivers' *entries* (`run_…`), one per driver: the table the listing
//! uses, whether the corrected version runs, and the call that starts the listing from the root.
//! The [catalogue](crate::registry) lists each entry in one row, with its name and source.
//!
//! # Example
//!
//! ```
//! use nullwindow::driver::{Hooks, SearchParams};
//! use nullwindow::literal::plaat;
//! use nullwindow::tree::Tree;
//!
//! let tree: Tree = "((3 17) (2 12) (15 (25 0)))".parse()?;
//! let outcome = plaat::run_mtdf(&tree, &tree.root_id(), &SearchParams::default(), Hooks::default());
//! assert_eq!(outcome.value, 15);
//! // MTD(f) from the first guess 0: each pass is one null-window call at the root.
//! let passes = outcome.passes.unwrap();
//! assert!(passes.iter().all(|pass| pass.beta == pass.alpha + 1));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod chessprogramming;
pub mod kornilov;
pub mod memory;
pub mod mt;
pub mod plaat;
pub mod stockman;
pub mod verhelst;
pub mod wesselink;
pub mod wikipedia_ja;

use std::time::Instant;

use crate::driver::observe::{NodeEntered, NodeReturned, Observer};
pub use crate::driver::{Call, Perspective};
use crate::driver::{Counts, Hooks, Outcome, Pass, SearchParams, capped_depth};
use crate::game::{Game, Player};
use crate::value::{INFINITY, Value};

use memory::Memory;

/// The state a translated driver runs in: the game, the table of the listings that have one, the
/// counts, the root passes, and the observer that hears each call and evaluation.
pub struct Search<'a, G: Game> {
    /// The game searched.
    pub game: &'a G,
    /// The transposition table of the listings that use one.
    pub memory: Memory,
    /// Whether to run the corrected version of a listing that the tests show wrong (each site that
    /// reads it is marked `// correction:`).
    pub corrected: bool,
    counts: Counts,
    passes: Vec<Pass>,
    observer: Option<&'a mut dyn Observer<G>>,
    /// Calls under way: the ply of the next node entered.
    ply: usize,
}

impl<'a, G: Game> Search<'a, G> {
    /// A fresh search with an empty table of the given kind, telling `hooks.observer` of every node
    /// (the translations make no iterations: `hooks.progress` hears nothing).
    pub fn new(game: &'a G, memory: Memory, hooks: Hooks<'a, G>) -> Self {
        Self {
            game,
            memory,
            corrected: false,
            counts: Counts::default(),
            passes: Vec::new(),
            observer: hooks.observer,
            ply: 0,
        }
    }

    /// Counts one call of a recursive search.
    pub(crate) const fn node(&mut self) {
        self.counts.nodes += 1;
    }

    /// Counts a leaf and tells the observer of it.
    fn leaf(&mut self, position: &G::Position) {
        self.counts.leaves += 1;
        if let Some(observer) = self.observer.as_mut() {
            observer.evaluated(position);
        }
    }

    /// Evaluates `position` from MAX's side, counting a leaf.
    pub(crate) fn evaluate(&mut self, position: &G::Position) -> Value {
        self.leaf(position);
        self.game.evaluate(position)
    }

    /// Evaluates `position` from the side to move, counting a leaf.
    pub(crate) fn evaluate_for_mover(&mut self, position: &G::Position) -> Value {
        self.leaf(position);
        self.game.evaluate_for_mover(position)
    }

    /// One call of a recursive listing as callers see it: counts the node, tells the observer that
    /// `position` is entered to be searched `depth` plies deep with the window `(alpha, beta)` (read
    /// from `perspective`), runs `listing`, and tells the observer what it returned. Passes the
    /// result through.
    pub(crate) fn call(
        &mut self,
        position: &G::Position,
        (depth, alpha, beta): (u32, Value, Value),
        perspective: Perspective,
        listing: impl FnOnce(&mut Self) -> Value,
    ) -> Value {
        self.node();
        let node = NodeEntered { ply: self.ply, position, depth, alpha, beta, perspective };
        if let Some(observer) = self.observer.as_mut() {
            observer.entered(&node);
        }
        self.ply += 1;
        let result = listing(self);
        self.ply -= 1;
        self.report(&NodeReturned { node, result, probe: None, stored: None, cutoff: None, moves: None });
        result
    }

    /// Whether an observer listens (so that what only it needs is worked out only for it).
    pub(crate) const fn is_observed(&self) -> bool {
        self.observer.is_some()
    }

    /// Tells the observer that a node returned.
    pub(crate) fn report(&mut self, node: &NodeReturned<'_, G::Position, G::Move>) {
        if let Some(observer) = self.observer.as_mut() {
            observer.returned(node);
        }
    }

    /// Records a root pass made in minimax form.
    pub(crate) fn pass(&mut self, alpha: Value, beta: Value, result: Value) {
        self.passes.push(Pass { alpha, beta, result });
    }

    /// Records a root pass made in negamax form by `root_player`, turned to MAX's side.
    pub(crate) fn pass_for_mover(&mut self, root_player: Player, alpha: Value, beta: Value, result: Value) {
        let (alpha, beta, result) = Perspective::Mover.turn(root_player, (alpha, beta, result));
        self.pass(alpha, beta, result);
    }
}

/// Which table a listing's driver searches with, and whether it runs corrected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Table {
    /// The table as the listing prints it: keyed by node alone (or none at all).
    AsPrinted,
    /// The table keyed by node and depth, for the listing as printed: the drivers of sources that
    /// print no table of their own, over Plaat's `AlphaBetaWithMemory`.
    KeyedByDepth,
    /// The table keyed by node and depth, and the listing's other `// correction:` sites switched on.
    Corrected,
}

/// Runs a translated driver from `root`: a fresh [`Search`] over `table`, then `listing`, whose value
/// is from MAX's side. Every root pass the listing records is reported (the catalogue keeps them for
/// the drivers that make passes).
pub(crate) fn run_listing<'a, G: Game>(
    game: &'a G,
    root: &G::Position,
    params: &SearchParams,
    hooks: Hooks<'a, G>,
    table: Table,
    listing: impl FnOnce(&mut Search<'a, G>) -> Value,
) -> Outcome<G::Move> {
    let start = Instant::now();
    let memory = match table {
        Table::AsPrinted => Memory::keyed_by_node(),
        Table::KeyedByDepth | Table::Corrected => Memory::keyed_by_node_and_depth(),
    };
    let mut search = Search::new(game, memory, hooks);
    search.corrected = table == Table::Corrected;
    let value = listing(&mut search);
    let depth = capped_depth(game, root, params.depth);
    let mut outcome = Outcome::single(value, search.counts, depth, start.elapsed());
    outcome.passes = Some(search.passes);
    outcome
}

/// The first guess a driver uses: the caller's (clamped to `±INFINITY`, from MAX's side), or the
/// driver's own default.
pub(crate) fn first_guess(params: &SearchParams, default: Value) -> Value {
    params.first_guess.map_or(default, |guess| guess.clamp(-INFINITY, INFINITY))
}
