//! Literal translations of the published pseudo-code, one module per source document.
//!
//! Each module follows its listing line by line: the same structure, the same statement order, the
//! same loop forms (a Pascal `repeat … until` stays a loop that tests at the bottom) and the same
//! names in snake_case. Where Rust or the crate forces a change, the site says `// deviation:` and
//! why, and the module's documentation lists every one. Where a listing is wrong, it is *kept* wrong
//! (marked `exact: false` in the [registry](crate::registry), so `--algo all` leaves it out) and a
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
//! | [`wesselink`] | Wesselink, Huizing and van de Wetering (2025), `python/negamax.py` | negamax with a table: the Wikipedia and Marsland schemes and three variants (not registry drivers: they answer from deeper entries by design) |
//!
//! # How the translations are observed
//!
//! The recursive functions are written exactly as printed, and each one is entered through a thin
//! wrapper of the printed name that counts the node and reports the finished call (position, depth,
//! the window as passed in, and the result) to an observer. The tests use the observer to check the
//! fail-soft postcondition at every call, not only at the root; the wrapper never changes a value.
//! The printed body is the function of the same name with `_listing` appended.
//!
//! # Example
//!
//! ```
//! use nullwindow::literal::Literal;
//! use nullwindow::registry::SearchParams;
//! use nullwindow::tree::Tree;
//!
//! let tree: Tree = "((3 17) (2 12) (15 (25 0)))".parse()?;
//! let outcome = Literal::PlaatMtdf.run(&tree, &SearchParams::default(), &mut |_| {});
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

use crate::game::{Game, Player};
use crate::outcome::{Counts, Outcome, Pass};
use crate::registry::{DriverInfo, SearchParams};
use crate::value::{INFINITY, Value};

use memory::Memory;

/// Whose side a recorded value is read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Perspective {
    /// Minimax form: from MAX's side.
    Max,
    /// Negamax form: from the side to move at the call's position.
    Mover,
}

/// One finished call of a translated recursive search, as the observer sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call<P> {
    /// The position searched.
    pub position: P,
    /// The depth it was searched to.
    pub depth: u32,
    /// The window's lower edge as passed in (before any narrowing by the table).
    pub alpha: Value,
    /// The window's upper edge as passed in.
    pub beta: Value,
    /// What the call returned.
    pub result: Value,
    /// How to read `alpha`, `beta` and `result`.
    pub perspective: Perspective,
}

/// The state a translated driver runs in: the game, the table of the listings that have one, the
/// counts, the root passes, and the call observer.
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
    observer: &'a mut dyn FnMut(&Call<G::Position>),
    /// Every evaluated position, in order, when asked for ([`Literal::run_recording_leaves`]).
    evaluated: Option<Vec<G::Position>>,
}

impl<'a, G: Game> Search<'a, G> {
    /// A fresh search with an empty table of the given kind.
    pub fn new(game: &'a G, memory: Memory, observer: &'a mut dyn FnMut(&Call<G::Position>)) -> Self {
        Self {
            game,
            memory,
            corrected: false,
            counts: Counts::default(),
            passes: Vec::new(),
            observer,
            evaluated: None,
        }
    }

    /// Counts one call of a recursive search.
    pub(crate) const fn node(&mut self) {
        self.counts.nodes += 1;
    }

    /// Evaluates `position` from MAX's side, counting a leaf.
    pub(crate) fn evaluate(&mut self, position: &G::Position) -> Value {
        self.counts.leaves += 1;
        if let Some(evaluated) = &mut self.evaluated {
            evaluated.push(position.clone());
        }
        self.game.evaluate(position)
    }

    /// Evaluates `position` from the side to move, counting a leaf.
    pub(crate) fn evaluate_for_mover(&mut self, position: &G::Position) -> Value {
        self.counts.leaves += 1;
        if let Some(evaluated) = &mut self.evaluated {
            evaluated.push(position.clone());
        }
        self.game.evaluate_for_mover(position)
    }

    /// Reports a finished call to the observer and passes its result through.
    pub(crate) fn finished(&mut self, call: Call<G::Position>) -> Value {
        (self.observer)(&call);
        call.result
    }

    /// Records a root pass made in minimax form.
    pub(crate) fn pass(&mut self, alpha: Value, beta: Value, result: Value) {
        self.passes.push(Pass { alpha, beta, result });
    }

    /// Records a root pass made in negamax form by `root_player`, turned to MAX's side.
    pub(crate) fn pass_for_mover(&mut self, root_player: Player, alpha: Value, beta: Value, result: Value) {
        match root_player {
            Player::Max => self.pass(alpha, beta, result),
            Player::Min => self.pass(-beta, -alpha, -result),
        }
    }

    /// The outcome of a driver that returned `value` (from MAX's side); `passes` says whether the
    /// driver makes root passes.
    pub(crate) fn outcome(self, value: Value, passes: bool) -> Outcome {
        Outcome { value, counts: self.counts, passes: passes.then_some(self.passes) }
    }
}

/// The deepest iteration an iterative-deepening translation runs: the requested depth, or the game's
/// depth bound when that is smaller (the listings loop to a constant `MAX_SEARCH_DEPTH`).
pub(crate) fn max_search_depth<G: Game>(game: &G, root: &G::Position, depth: u32) -> u32 {
    game.depth_bound(root).map_or(depth, |bound| bound.min(depth))
}

/// The first guess a driver uses: the caller's (clamped to `±INFINITY`, from MAX's side), or the
/// driver's own default.
pub(crate) fn first_guess(params: &SearchParams, default: Value) -> Value {
    params.first_guess.map_or(default, |guess| guess.clamp(-INFINITY, INFINITY))
}

/// A literal driver: one translated listing run from the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Literal {
    /// [`plaat::alpha_beta_with_memory`] with the full window, once.
    PlaatAlphaBetaWithMemory,
    /// [`plaat::mtdf`] at the requested depth.
    PlaatMtdf,
    /// [`plaat::iterative_deepening`]: MTD(f) at depths 1, 2, …, one table for all.
    PlaatIterativeDeepening,
    /// Plaat's `AlphaBetaWithMemory` with a table that also keys on depth, once.
    PlaatAlphaBetaWithMemoryCorrected,
    /// Plaat's `MTDF` over the table that keys on depth.
    PlaatMtdfCorrected,
    /// Plaat's `iterative_deepening` over the table that keys on depth, starting from the root's
    /// evaluation.
    PlaatIterativeDeepeningCorrected,
    /// [`wikipedia_ja::mtdf`] over its own `AlphaBetaWithMemory`.
    WikipediaJaMtdf,
    /// The Wikipedia (ja) `MTDF` over its `AlphaBetaWithMemory` with Plaat's store rule and a depth key.
    WikipediaJaMtdfCorrected,
    /// [`chessprogramming::mtdf`], the C form with `bound[2]`.
    ChessprogrammingMtdf,
    /// [`kornilov::alpha_beta`] with the full window.
    KornilovAlphaBeta,
    /// [`kornilov::mtdf`] from the root's static evaluation.
    KornilovMtdf,
    /// [`kornilov::search_mt`], bisection.
    KornilovSearchMt,
    /// [`kornilov::iterative_deepening`] with MTD(f) inside.
    KornilovIterativeDeepening,
    /// [`verhelst::principal_variation`] with the full window.
    VerhelstPrincipalVariation,
    /// [`verhelst::aspiration`] over Kornilov's `AlphaBeta`.
    VerhelstAspiration,
    /// [`mt::sss`]: MTD(+INFINITY).
    MtSss,
    /// [`mt::dual`]: MTD(−INFINITY).
    MtDual,
    /// [`mt::mtd_bi`]: bisection with the figure's `average`, read as integer division.
    MtBi,
    /// MTD(bi) with an average that rounds up, so that the test value always splits the interval.
    MtBiCorrected,
    /// [`stockman::sss_star`]: Stockman's SSS* with its OPEN list.
    StockmanSss,
    /// Stockman's procedure for the other player: DUAL*.
    StockmanDual,
}

impl Literal {
    /// Every literal driver, in the order `nullwindow algos` lists them.
    pub const ALL: &'static [Self] = &[
        Self::PlaatAlphaBetaWithMemory,
        Self::PlaatMtdf,
        Self::PlaatIterativeDeepening,
        Self::PlaatAlphaBetaWithMemoryCorrected,
        Self::PlaatMtdfCorrected,
        Self::PlaatIterativeDeepeningCorrected,
        Self::WikipediaJaMtdf,
        Self::WikipediaJaMtdfCorrected,
        Self::ChessprogrammingMtdf,
        Self::KornilovAlphaBeta,
        Self::KornilovMtdf,
        Self::KornilovSearchMt,
        Self::KornilovIterativeDeepening,
        Self::VerhelstPrincipalVariation,
        Self::VerhelstAspiration,
        Self::MtSss,
        Self::MtDual,
        Self::MtBi,
        Self::MtBiCorrected,
        Self::StockmanSss,
        Self::StockmanDual,
    ];

    /// The driver's registry entry.
    #[must_use]
    pub const fn info(self) -> &'static DriverInfo {
        match self {
            Self::PlaatAlphaBetaWithMemory => &plaat::ALPHA_BETA_WITH_MEMORY,
            Self::PlaatMtdf => &plaat::MTDF,
            Self::PlaatIterativeDeepening => &plaat::ITERATIVE_DEEPENING,
            Self::PlaatAlphaBetaWithMemoryCorrected => &plaat::ALPHA_BETA_WITH_MEMORY_CORRECTED,
            Self::PlaatMtdfCorrected => &plaat::MTDF_CORRECTED,
            Self::PlaatIterativeDeepeningCorrected => &plaat::ITERATIVE_DEEPENING_CORRECTED,
            Self::WikipediaJaMtdf => &wikipedia_ja::MTDF,
            Self::WikipediaJaMtdfCorrected => &wikipedia_ja::MTDF_CORRECTED,
            Self::ChessprogrammingMtdf => &chessprogramming::MTDF,
            Self::KornilovAlphaBeta => &kornilov::ALPHA_BETA,
            Self::KornilovMtdf => &kornilov::MTDF,
            Self::KornilovSearchMt => &kornilov::SEARCH_MT,
            Self::KornilovIterativeDeepening => &kornilov::ITERATIVE_DEEPENING,
            Self::VerhelstPrincipalVariation => &verhelst::PRINCIPAL_VARIATION,
            Self::VerhelstAspiration => &verhelst::ASPIRATION,
            Self::MtSss => &mt::SSS,
            Self::MtDual => &mt::DUAL,
            Self::MtBi => &mt::MTD_BI,
            Self::MtBiCorrected => &mt::MTD_BI_CORRECTED,
            Self::StockmanSss => &stockman::SSS,
            Self::StockmanDual => &stockman::DUAL,
        }
    }

    /// Whether the driver makes root passes (and so reports them).
    #[must_use]
    pub const fn makes_passes(self) -> bool {
        !matches!(
            self,
            Self::PlaatAlphaBetaWithMemory
                | Self::PlaatAlphaBetaWithMemoryCorrected
                | Self::KornilovAlphaBeta
                | Self::VerhelstPrincipalVariation
                | Self::StockmanSss
                | Self::StockmanDual
        )
    }

    /// Runs the driver from the game's root to `params.depth` (`u32::MAX`: to the end of the game),
    /// reporting every finished call of its recursive search to `observer`. The value is from MAX's
    /// side.
    pub fn run<G: Game>(
        self,
        game: &G,
        params: &SearchParams,
        observer: &mut dyn FnMut(&Call<G::Position>),
    ) -> Outcome {
        self.run_inner(game, params, observer, false).0
    }

    /// As [`Literal::run`] without an observer, also returning every position the driver evaluated,
    /// in order (a leaf evaluated twice appears twice): what the leaf-order properties compare.
    pub fn run_recording_leaves<G: Game>(
        self,
        game: &G,
        params: &SearchParams,
    ) -> (Outcome, Vec<G::Position>) {
        self.run_inner(game, params, &mut |_| {}, true)
    }

    fn run_inner<G: Game>(
        self,
        game: &G,
        params: &SearchParams,
        observer: &mut dyn FnMut(&Call<G::Position>),
        record: bool,
    ) -> (Outcome, Vec<G::Position>) {
        let root = game.root();
        let depth = params.depth;
        let corrected = matches!(
            self,
            Self::PlaatAlphaBetaWithMemoryCorrected
                | Self::PlaatMtdfCorrected
                | Self::PlaatIterativeDeepeningCorrected
                | Self::WikipediaJaMtdfCorrected
                | Self::MtBiCorrected
        );
        // The drivers of sources that print no table code of their own use Plaat's listing over the
        // corrected table (see their modules).
        let borrows_plaat =
            matches!(self, Self::ChessprogrammingMtdf | Self::MtSss | Self::MtDual | Self::MtBi);
        let memory = if corrected || borrows_plaat {
            Memory::keyed_by_node_and_depth()
        } else {
            Memory::keyed_by_node()
        };
        let mut search = Search::new(game, memory, observer);
        search.corrected = corrected;
        search.evaluated = record.then(Vec::new);
        let value = match self {
            Self::PlaatAlphaBetaWithMemory | Self::PlaatAlphaBetaWithMemoryCorrected => {
                plaat::alpha_beta_with_memory(&mut search, &root, -INFINITY, INFINITY, depth)
            }
            Self::PlaatMtdf | Self::PlaatMtdfCorrected => {
                plaat::mtdf(&mut search, &root, first_guess(params, 0), depth)
            }
            Self::PlaatIterativeDeepening => {
                plaat::iterative_deepening(&mut search, &root, max_search_depth(game, &root, depth))
            }
            Self::PlaatIterativeDeepeningCorrected => {
                plaat::iterative_deepening_corrected(&mut search, &root, max_search_depth(game, &root, depth))
            }
            Self::WikipediaJaMtdf | Self::WikipediaJaMtdfCorrected => {
                wikipedia_ja::mtdf(&mut search, &root, first_guess(params, 0), depth)
            }
            Self::ChessprogrammingMtdf => {
                chessprogramming::mtdf(&mut search, &root, first_guess(params, 0), depth)
            }
            Self::KornilovAlphaBeta => kornilov::root_alpha_beta(&mut search, &root, depth),
            Self::KornilovMtdf => kornilov::root_mtdf(&mut search, &root, depth, params.first_guess),
            Self::KornilovSearchMt => kornilov::root_search_mt(&mut search, &root, depth),
            Self::KornilovIterativeDeepening => {
                kornilov::root_iterative_deepening(&mut search, &root, max_search_depth(game, &root, depth))
            }
            Self::VerhelstPrincipalVariation => verhelst::root_principal_variation(&mut search, &root, depth),
            Self::VerhelstAspiration => {
                verhelst::root_aspiration(&mut search, &root, depth, params.first_guess)
            }
            Self::MtSss => mt::sss(&mut search, &root, depth),
            Self::MtDual => mt::dual(&mut search, &root, depth),
            Self::MtBi => mt::mtd_bi(&mut search, &root, depth),
            Self::MtBiCorrected => mt::mtd_bi_corrected(&mut search, &root, depth),
            Self::StockmanSss => stockman::root_sss(&mut search, &root, depth),
            Self::StockmanDual => stockman::root_dual(&mut search, &root, depth),
        };
        let evaluated = search.evaluated.take().unwrap_or_default();
        (search.outcome(value, self.makes_passes()), evaluated)
    }
}
