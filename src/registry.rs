//! The catalogue: every driver by name, what `nullwindow algos` lists and `nullwindow solve --algo`
//! runs.
//!
//! A *driver* is a complete search procedure run from the root: plain minimax, a literal translation
//! of a published listing, or an optimized engine configuration. This module sits at the top of the
//! library and is the only place that lists them: one row per driver, with its name, kind,
//! exactness, whether it makes root passes (and, for the few that do, that it deepens iteratively
//! by its nature), its source document, and its *entry*, a function of the
//! shape [`Entry`] in the driver's own module. Adding a driver is one module (or one function in
//! one) and one row here; nothing below this module knows the catalogue. The games the crate can
//! search by name have a catalogue of their own, [`games`].
//!
//! ```
//! use nullwindow::driver::SearchParams;
//! use nullwindow::registry::Driver;
//! use nullwindow::tree::Tree;
//!
//! let tree: Tree = "((3 17) (2 12) (15 (25 0)))".parse()?;
//! for driver in Driver::select("all")? {
//!     assert_eq!(driver.run(&tree, &SearchParams::default()).value, 15);
//! }
//! assert_eq!(Driver::from_name("plaat-mtdf").map(|driver| driver.info().exact), Some(false));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod games;

use std::fmt;

use crate::driver::observe::{Leaves, Observer};
use crate::driver::{DriverInfo, Entry, Hooks, Kind, Outcome, SearchParams};
use crate::game::Game;
use crate::literal::{chessprogramming, kornilov, mt, plaat, stockman, verhelst, wikipedia_ja};
use crate::reference::{minimax, negamax};
use crate::search::{self, Algorithm};

/// The source documents, by author and title, as `nullwindow algos` names them.
mod source {
    pub const MINIMAX: &str = "textbook minimax (von Neumann); the crate's oracle";
    pub const NEGAMAX: &str = "textbook minimax in negamax form (Knuth and Moore 1975)";
    pub const PLAAT: &str = "Plaat, MTD(f), a new chess algorithm (web page)";
    pub const PLAAT_CORRECTED: &str = "Plaat, MTD(f) web page; table keyed by depth";
    pub const PLAAT_ID_CORRECTED: &str =
        "Plaat, MTD(f) web page; table keyed by depth, first guess evaluate(root)";
    pub const WIKIPEDIA_JA: &str = "Wikipedia (ja), MTD-f";
    pub const WIKIPEDIA_JA_CORRECTED: &str = "Wikipedia (ja), MTD-f; store rule and table corrected";
    pub const CPW: &str = "Chessprogramming wiki, MTD(f), C pseudo code";
    pub const KORNILOV: &str = "Russian article after Kornilov (2005), MTD(f)";
    pub const VERHELST: &str = "Verhelst, Chess Tree Search (web page)";
    pub const VERHELST_ASPIRATION: &str = "Verhelst, Chess Tree Search; over Kornilov's AlphaBeta";
    pub const MT: &str = "Plaat et al., Best-First Fixed-Depth Minimax Algorithms (1996), Figure 11";
    pub const MT_BI_CORRECTED: &str = "Plaat et al. (1996), Figure 11; average rounded up";
    pub const STOCKMAN: &str = "Stockman (1979), as restated by Plaat et al. (1996)";
    pub const ALPHABETA: &str =
        "fail-soft alpha-beta with memory (Knuth and Moore 1975; Plaat's AlphaBetaWithMemory)";
    pub const ASPIRATION: &str =
        "aspiration windows around the previous iteration (Verhelst, Chess Tree Search)";
    pub const ASPIRATION_NEGASCOUT: &str =
        "aspiration windows over NegaScout (Plaat, Schaeffer, Pijls and de Bruin 1996, §5)";
    pub const PVS: &str = "principal variation search (Marsland 1983; Verhelst, Chess Tree Search)";
    pub const NEGASCOUT: &str = "NegaScout (Reinefeld 1983)";
    pub const MTDF: &str =
        "MTD(f) (Plaat, Schaeffer, Pijls and de Bruin 1996; Plaat, MTD(f), a new chess algorithm)";
    pub const MTD_BI: &str = "MTD by bisection, C* (Coplan 1982; Plaat et al. 1996)";
    pub const MTD_PONS: &str =
        "MTD by bisection, half-way to the far bound first (Pons, Solving Connect 4, part 8)";
    pub const SSS: &str = "SSS* as MTD(+INFINITY) (Stockman 1979; Plaat et al. 1996)";
    pub const DUAL: &str = "DUAL* as MTD(-INFINITY) (Marsland et al. 1987; Plaat et al. 1996)";
}

/// Writes [`Driver`] from the rows of the catalogue: the enum, [`Driver::ALL`] in row order,
/// [`Driver::info`], the dispatch to each row's entry, and the map between the engine's rows and
/// its [`Algorithm`]s. A row of the engine names its algorithm and source; its name, passes and
/// entry come from the algorithm, so that no fact is written twice.
macro_rules! catalogue {
    (
        $(
            $(#[doc = $doc:literal])*
            $variant:ident => $name:expr, $kind:ident, exact: $exact:literal, passes: $passes:literal,
                deepens: $deepens:literal, table: $table:literal, $source:expr, $entry:expr;
        )*
        @engine
        $(
            $(#[doc = $engine_doc:literal])*
            $engine_variant:ident => $algorithm:ident, $engine_source:expr;
        )*
    ) => {
        /// A driver the crate can run: one row of the catalogue.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Driver {
            $($(#[doc = $doc])* $variant,)*
            $($(#[doc = $engine_doc])* $engine_variant,)*
        }

        impl Driver {
            /// Every driver, in the order `nullwindow algos` lists them: the reference, then every
            /// literal translation, then every optimized driver.
            pub const ALL: &'static [Self] = &[$(Self::$variant,)* $(Self::$engine_variant,)*];

            /// The driver's row: name, kind, source, exactness, passes.
            #[must_use]
            pub const fn info(self) -> &'static DriverInfo {
                match self {
                    $(Self::$variant => {
                        const INFO: DriverInfo = DriverInfo {
                            name: $name,
                            kind: Kind::$kind,
                            source: $source,
                            exact: $exact,
                            passes: $passes,
                            deepens: $deepens,
                            table: $table,
                        };
                        &INFO
                    })*
                    $(Self::$engine_variant => {
                        const INFO: DriverInfo = DriverInfo {
                            name: Algorithm::$algorithm.name(),
                            kind: Kind::Optimized,
                            source: $engine_source,
                            exact: true,
                            passes: Algorithm::$algorithm.makes_passes(),
                            deepens: Algorithm::$algorithm.deepens(),
                            table: true,
                        };
                        &INFO
                    })*
                }
            }

            /// The row's entry function.
            fn entry<G: Game>(self) -> Entry<G> {
                match self {
                    $(Self::$variant => { let entry: Entry<G> = $entry; entry })*
                    $(Self::$engine_variant => {
                        let entry: Entry<G> = |game, root, params, hooks| {
                            search::run(game, root, Algorithm::$algorithm, params, hooks)
                        };
                        entry
                    })*
                }
            }

            /// The engine's algorithm behind an optimized driver; `None` for the others.
            #[must_use]
            pub const fn algorithm(self) -> Option<Algorithm> {
                match self {
                    $(Self::$engine_variant => Some(Algorithm::$algorithm),)*
                    _ => None,
                }
            }

            /// The optimized driver that runs `algorithm` (the match is exhaustive: every algorithm
            /// has its row).
            #[must_use]
            pub const fn for_algorithm(algorithm: Algorithm) -> Self {
                match algorithm {
                    $(Algorithm::$algorithm => Self::$engine_variant,)*
                }
            }
        }
    };
}

catalogue! {
    /// [`minimax::search`]: plain minimax, the oracle.
    Minimax => "minimax", Reference, exact: true, passes: false, deepens: false, table: false, source::MINIMAX, minimax::run;
    /// [`negamax::search`]: plain minimax in negamax form.
    Negamax => "negamax", Reference, exact: true, passes: false, deepens: false, table: false, source::NEGAMAX, negamax::run;

    /// [`plaat::run_alpha_beta_with_memory`]
    PlaatAlphaBetaWithMemory => "plaat-alphabeta-memory", Literal, exact: false, passes: false, deepens: false, table: true,
        source::PLAAT, plaat::run_alpha_beta_with_memory;
    /// [`plaat::run_mtdf`]
    PlaatMtdf => "plaat-mtdf", Literal, exact: false, passes: true, deepens: false, table: true, source::PLAAT, plaat::run_mtdf;
    /// [`plaat::run_iterative_deepening`]
    PlaatIterativeDeepening => "plaat-id", Literal, exact: false, passes: true, deepens: true, table: true,
        source::PLAAT, plaat::run_iterative_deepening;
    /// [`plaat::run_alpha_beta_with_memory_corrected`]
    PlaatAlphaBetaWithMemoryCorrected => "plaat-alphabeta-memory-corrected", Literal, exact: true,
        passes: false, deepens: false, table: true, source::PLAAT_CORRECTED, plaat::run_alpha_beta_with_memory_corrected;
    /// [`plaat::run_mtdf_corrected`]
    PlaatMtdfCorrected => "plaat-mtdf-corrected", Literal, exact: true, passes: true, deepens: false, table: true,
        source::PLAAT_CORRECTED, plaat::run_mtdf_corrected;
    /// [`plaat::run_iterative_deepening_corrected`]
    PlaatIterativeDeepeningCorrected => "plaat-id-corrected", Literal, exact: true, passes: true, deepens: true, table: true,
        source::PLAAT_ID_CORRECTED, plaat::run_iterative_deepening_corrected;
    /// [`wikipedia_ja::run_mtdf`]
    WikipediaJaMtdf => "wikipedia-ja-mtdf", Literal, exact: false, passes: true, deepens: false, table: true,
        source::WIKIPEDIA_JA, wikipedia_ja::run_mtdf;
    /// [`wikipedia_ja::run_mtdf_corrected`]
    WikipediaJaMtdfCorrected => "wikipedia-ja-mtdf-corrected", Literal, exact: true, passes: true, deepens: false, table: true,
        source::WIKIPEDIA_JA_CORRECTED, wikipedia_ja::run_mtdf_corrected;
    // ANCHOR: row
    /// [`chessprogramming::run_mtdf`]
    ChessprogrammingMtdf => "cpw-mtdf", Literal, exact: true, passes: true, deepens: false, table: true,
        source::CPW, chessprogramming::run_mtdf;
    // ANCHOR_END: row
    /// [`kornilov::run_alpha_beta`]
    KornilovAlphaBeta => "kornilov-alphabeta", Literal, exact: true, passes: false, deepens: false, table: false,
        source::KORNILOV, kornilov::run_alpha_beta;
    /// [`kornilov::run_mtdf`]
    KornilovMtdf => "kornilov-mtdf", Literal, exact: true, passes: true, deepens: false, table: false, source::KORNILOV, kornilov::run_mtdf;
    /// [`kornilov::run_search_mt`]
    KornilovSearchMt => "kornilov-searchmt", Literal, exact: true, passes: true, deepens: false, table: false,
        source::KORNILOV, kornilov::run_search_mt;
    /// [`kornilov::run_iterative_deepening`]
    KornilovIterativeDeepening => "kornilov-id", Literal, exact: true, passes: true, deepens: true, table: false,
        source::KORNILOV, kornilov::run_iterative_deepening;
    /// [`verhelst::run_principal_variation`]
    VerhelstPrincipalVariation => "verhelst-pvs", Literal, exact: true, passes: false, deepens: false, table: false,
        source::VERHELST, verhelst::run_principal_variation;
    /// [`verhelst::run_aspiration`]
    VerhelstAspiration => "verhelst-aspiration", Literal, exact: true, passes: true, deepens: false, table: false,
        source::VERHELST_ASPIRATION, verhelst::run_aspiration;
    /// [`mt::run_sss`]
    MtSss => "sss-literal", Literal, exact: true, passes: true, deepens: false, table: true, source::MT, mt::run_sss;
    /// [`mt::run_dual`]
    MtDual => "dual-literal", Literal, exact: true, passes: true, deepens: false, table: true, source::MT, mt::run_dual;
    /// [`mt::run_mtd_bi`]
    MtBi => "mtd-bi-literal", Literal, exact: false, passes: true, deepens: false, table: true, source::MT, mt::run_mtd_bi;
    /// [`mt::run_mtd_bi_corrected`]
    MtBiCorrected => "mtd-bi-literal-corrected", Literal, exact: true, passes: true, deepens: false, table: true,
        source::MT_BI_CORRECTED, mt::run_mtd_bi_corrected;
    /// [`stockman::run_sss`]
    StockmanSss => "stockman-sss", Literal, exact: true, passes: false, deepens: false, table: false, source::STOCKMAN, stockman::run_sss;
    /// [`stockman::run_dual`]
    StockmanDual => "stockman-dual", Literal, exact: true, passes: false, deepens: false, table: false, source::STOCKMAN, stockman::run_dual;

    @engine
    /// [`Algorithm::AlphaBeta`]: fail-soft alpha-beta with the full window.
    AlphaBeta => AlphaBeta, source::ALPHABETA;
    /// [`Algorithm::Aspiration`]: aspiration windows around the previous iteration's value.
    Aspiration => Aspiration, source::ASPIRATION;
    /// [`Algorithm::AspirationNegaScout`]: aspiration windows over NegaScout.
    AspirationNegaScout => AspirationNegaScout, source::ASPIRATION_NEGASCOUT;
    /// [`Algorithm::Pvs`]: principal variation search.
    Pvs => Pvs, source::PVS;
    /// [`Algorithm::NegaScout`]: Reinefeld's NegaScout.
    NegaScout => NegaScout, source::NEGASCOUT;
    /// [`Algorithm::Mtdf`]: MTD(f).
    Mtdf => Mtdf, source::MTDF;
    /// [`Algorithm::MtdBi`]: MTD by bisection.
    MtdBi => MtdBi, source::MTD_BI;
    /// [`Algorithm::MtdPons`]: MTD by bisection, half-way to the far bound first.
    MtdPons => MtdPons, source::MTD_PONS;
    /// [`Algorithm::Sss`]: SSS* as MTD(+INFINITY).
    Sss => Sss, source::SSS;
    /// [`Algorithm::Dual`]: DUAL* as MTD(−INFINITY).
    Dual => Dual, source::DUAL;
}

/// A driver name that the catalogue does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownDriver(pub String);

impl fmt::Display for UnknownDriver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = Driver::ALL.iter().map(|driver| driver.info().name).chain(GROUPS);
        write!(
            f,
            "unknown driver '{}'{}; `nullwindow algos` lists them all; groups: {}",
            crate::tree::text::excerpt(&self.0),
            did_you_mean(&self.0, names),
            GROUPS.join(", ")
        )
    }
}

/// The groups [`Driver::select`] takes besides driver names.
const GROUPS: [&str; 4] = ["all", "reference", "literal", "optimized"];

/// `" (did you mean 'NAME'?)"` for the known name closest to a mistyped `name`, when one is close
/// enough to be meant (Jaro similarity above 0.7, as clap suggests), or nothing.
///
/// ```
/// use nullwindow::registry::did_you_mean;
/// assert_eq!(did_you_mean("mtfd", ["mtdf", "pvs", "sss"]), " (did you mean 'mtdf'?)");
/// assert_eq!(did_you_mean("MTDF", ["mtdf", "pvs", "sss"]), " (did you mean 'mtdf'?)");
/// assert_eq!(did_you_mean("chess", ["mtdf", "pvs", "sss"]), "");
/// ```
#[must_use]
pub fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    // Case aside: `MTDF` is `mtdf` typed in capitals.
    let name = name.to_lowercase();
    known
        .into_iter()
        .map(|candidate| (strsim::jaro(&name, &candidate.to_lowercase()), candidate))
        .filter(|&(similarity, _)| similarity > 0.7)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map_or_else(String::new, |(_, candidate)| format!(" (did you mean '{candidate}'?)"))
}

impl std::error::Error for UnknownDriver {}

impl Driver {
    /// The driver called `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|driver| driver.info().name == name)
    }

    /// The drivers named in a comma-separated list. Besides driver names, `all` stands for every
    /// exact driver, and `reference`, `literal` and `optimized` for every exact driver of that kind.
    ///
    /// # Errors
    /// The first name that is neither a driver nor a group.
    pub fn select(list: &str) -> Result<Vec<Self>, UnknownDriver> {
        let exact_of_kind = |kind: Option<Kind>| -> Vec<Self> {
            Self::ALL
                .iter()
                .copied()
                .filter(|driver| driver.info().exact && kind.is_none_or(|kind| driver.info().kind == kind))
                .collect()
        };
        let mut selected = Vec::new();
        for name in list.split(',').map(str::trim) {
            let drivers = match name {
                "all" => exact_of_kind(None),
                "reference" => exact_of_kind(Some(Kind::Reference)),
                "literal" => exact_of_kind(Some(Kind::Literal)),
                "optimized" => exact_of_kind(Some(Kind::Optimized)),
                _ => vec![Self::from_name(name).ok_or_else(|| UnknownDriver(name.to_owned()))?],
            };
            for driver in drivers {
                if !selected.contains(&driver) {
                    selected.push(driver);
                }
            }
        }
        Ok(selected)
    }

    /// Runs the driver from the game's root.
    #[must_use]
    pub fn run<G: Game>(self, game: &G, params: &SearchParams) -> Outcome<G::Move> {
        self.run_from(game, &game.root(), params, Hooks::default())
    }

    /// Runs the driver from `root`, telling `hooks` what it does. The outcome reports root passes
    /// exactly when the row says the driver makes them.
    #[must_use]
    pub fn run_from<'a, G: Game>(
        self,
        game: &'a G,
        root: &G::Position,
        params: &SearchParams,
        hooks: Hooks<'a, G>,
    ) -> Outcome<G::Move> {
        let mut outcome = (self.entry::<G>())(game, root, params, hooks);
        outcome.passes = if self.info().passes { Some(outcome.passes.unwrap_or_default()) } else { None };
        outcome
    }

    /// Runs the driver from the game's root, telling `observer` of every node it enters, evaluates
    /// and returns from ([`crate::driver::observe`]). Every driver in the catalogue speaks to it.
    pub fn run_observed<G: Game>(
        self,
        game: &G,
        params: &SearchParams,
        observer: &mut dyn Observer<G>,
    ) -> Outcome<G::Move> {
        self.run_from(game, &game.root(), params, Hooks::observed(observer))
    }

    /// Runs the driver from the game's root and returns, beside the outcome, every position it
    /// evaluated, in order (a leaf evaluated twice appears twice): what the leaf-order theorems
    /// compare.
    #[must_use]
    pub fn run_recording_leaves<G: Game>(
        self,
        game: &G,
        params: &SearchParams,
    ) -> (Outcome<G::Move>, Vec<G::Position>) {
        let mut leaves = Leaves::default();
        let outcome = self.run_observed(game, params, &mut leaves);
        (outcome, leaves.0)
    }
}

impl fmt::Display for Driver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.info().name)
    }
}
