//! Every driver by name: what `nullwindow algos` lists and `nullwindow solve --algo` runs.
//!
//! A *driver* is a complete search procedure run from the root: plain minimax, a literal translation
//! of a published listing, or an optimized engine configuration. Each has a [`DriverInfo`] in its own
//! module and a variant of [`Driver`] here; [`Driver::run`] runs it on any [`Game`].
//!
//! ```
//! use nullwindow::registry::{Driver, SearchParams};
//! use nullwindow::tree::Tree;
//!
//! let tree: Tree = "((3 17) (2 12) (15 (25 0)))".parse()?;
//! let drivers = Driver::select("all")?;
//! for driver in drivers {
//!     assert_eq!(driver.run(&tree, &SearchParams::default()).value, 15);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use serde::Serialize;

use crate::game::Game;
use crate::literal::Literal;
use crate::outcome::Outcome;
use crate::reference;
use crate::search::{self, Algorithm};
use crate::value::Value;

/// Where a driver comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Plain minimax, the oracle.
    Reference,
    /// A line-by-line translation of a source document's pseudo-code.
    Literal,
    /// The crate's engine, as a real program would search.
    Optimized,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Reference => "reference",
            Self::Literal => "literal",
            Self::Optimized => "optimized",
        })
    }
}

/// What the registry knows about a driver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DriverInfo {
    /// The name used on the command line.
    pub name: &'static str,
    /// Reference, literal or optimized.
    pub kind: Kind,
    /// The document (or publication) the driver follows.
    pub source: &'static str,
    /// Whether it returns the minimax value on every tree. A faithful translation of a listing that
    /// the tests show to be wrong is kept, marked inexact, and left out of `all`.
    pub exact: bool,
}

/// How to run a driver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Plies to search; `u32::MAX` searches to the end of the game.
    pub depth: u32,
    /// The first guess of drivers that take one (MTD(f)); `None` lets each use its source's default.
    pub first_guess: Option<Value>,
    /// Transposition-table entries for the optimized drivers (rounded up to a power of two).
    pub tt_entries: usize,
    /// Whether the optimized drivers deepen iteratively from depth 1 (their counts then include
    /// every iteration) instead of searching the requested depth at once.
    pub iterative_deepening: bool,
}

impl Default for SearchParams {
    /// No depth limit, no first guess, 2^16 table entries, no iterative deepening.
    fn default() -> Self {
        Self { depth: u32::MAX, first_guess: None, tt_entries: 1 << 16, iterative_deepening: false }
    }
}

/// One completed iteration of a driver that deepens iteratively.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The depth completed.
    pub depth: u32,
    /// Its value, from MAX's side.
    pub value: Value,
    /// Nodes visited so far.
    pub nodes: u64,
    /// Time since the driver started.
    pub elapsed: std::time::Duration,
}

/// A driver the crate can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Driver {
    /// [`reference::minimax`]
    Minimax,
    /// [`reference::negamax`]
    Negamax,
    /// A literal translation of a published listing, [`crate::literal`].
    Literal(Literal),
    /// A driver of the optimized engine, [`crate::search`].
    Optimized(Algorithm),
}

/// A driver name that the registry does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownDriver(pub String);

impl fmt::Display for UnknownDriver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown driver '{}' (`nullwindow algos` lists them all); groups: all, reference, literal, optimized",
            self.0
        )
    }
}

impl std::error::Error for UnknownDriver {}

const DRIVER_COUNT: usize = 2 + Literal::ALL.len() + Algorithm::ALL.len();

/// [`Driver::ALL`], assembled from the two lists that name the literal and optimized drivers, so a
/// new driver is registered where it is defined and nowhere else.
const ALL_DRIVERS: [Driver; DRIVER_COUNT] = {
    let mut all = [Driver::Minimax; DRIVER_COUNT];
    all[1] = Driver::Negamax;
    let mut i = 0;
    while i < Literal::ALL.len() {
        all[2 + i] = Driver::Literal(Literal::ALL[i]);
        i += 1;
    }
    let mut j = 0;
    while j < Algorithm::ALL.len() {
        all[2 + Literal::ALL.len() + j] = Driver::Optimized(Algorithm::ALL[j]);
        j += 1;
    }
    all
};

impl Driver {
    /// Every driver, in the order `nullwindow algos` lists them: the reference, then every literal
    /// translation ([`Literal::ALL`]), then every optimized driver ([`Algorithm::ALL`]).
    pub const ALL: &'static [Self] = &ALL_DRIVERS;

    /// The driver's registry entry.
    #[must_use]
    pub const fn info(self) -> &'static DriverInfo {
        match self {
            Self::Minimax => &reference::minimax::INFO,
            Self::Negamax => &reference::negamax::INFO,
            Self::Literal(literal) => literal.info(),
            Self::Optimized(algorithm) => algorithm.info(),
        }
    }

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
    pub fn run<G: Game>(self, game: &G, params: &SearchParams) -> Outcome {
        self.run_with_progress(game, params, &mut |_| {})
    }

    /// Runs the driver from the game's root, reporting each completed iteration of a driver that
    /// deepens iteratively (the others report nothing).
    pub fn run_with_progress<G: Game>(
        self,
        game: &G,
        params: &SearchParams,
        progress: &mut dyn FnMut(&Progress),
    ) -> Outcome {
        let root = game.root();
        match self {
            Self::Minimax => reference::minimax::search(game, &root, params.depth),
            Self::Negamax => reference::negamax::search(game, &root, params.depth),
            Self::Literal(literal) => literal.run(game, params, &mut |_| {}),
            Self::Optimized(algorithm) => search::run_driver_from_registry(game, algorithm, params, progress),
        }
    }
}
