//! `nullwindow`: minimax game-tree search around Aske Plaat's MTD(f), as a reference implementation,
//! a test oracle and a textbook.
//!
//! # Who should use this
//!
//! * **Engine authors** who wrote alpha-beta, PVS or MTD(f) and want to know whether it returns the
//!   right value: point `nullwindow fuzz` (or [`oracle::harness::fuzz`]) at your engine for the
//!   smallest case it gets wrong, or the `nullwindow` command line or [`oracle::solve`] at a tree or
//!   a game and compare; a game of your own is served over [`oracle::protocol`].
//! * **Students** reading the published pseudo-code: every listing sits in the crate as a literal
//!   translation, beside the property tests that show whether it is right.
//! * **Researchers** who need exact node counts on reproducible trees.
//!
//! # A map of the crate
//!
//! The modules are layered, each speaking only to those above it in this table:
//!
//! | module | what it holds |
//! |---|---|
//! | [`value`] | the value type, the crate's `INFINITY` and the admissible leaf range |
//! | [`game`] | the [`Game`] trait every search is written against |
//! | [`driver`] | the vocabulary every driver shares: [`SearchParams`], [`Outcome`], hooks, passes, and the node events every driver emits ([`driver::observe`]) |
//! | [`tree`], [`games`] | explicit trees (the arena, the parenthesis and `gtree` formats, random and synthetic trees); tic-tac-toe, Connect Four and Nim |
//! | [`reference`](mod@reference) | plain minimax in minimax and negamax form: the oracle |
//! | [`literal`] | line-by-line translations of the published pseudo-code, one module per source |
//! | [`search`] | the optimized [`Engine`]: table, ordering, iterative deepening, ten algorithms, threads |
//! | [`theory`] | the literature's definitions the tests check: node types, the witness criterion |
//! | [`registry`] | the catalogues: every [`Driver`] by name, one row each, and every game ([`registry::games`]); the only module that lists them |
//! | [`oracle`] | run drivers and check them against minimax; divide, check and audit another engine's claims, read and written as records ([`oracle::record`]), or hold a pruning engine's records to the rules of its own search ([`oracle::consistency`]); fuzz any engine ([`oracle::harness`]), its claims about its own game proved rather than valued ([`oracle::proof`]); search an engine's own game over a line protocol ([`oracle::protocol`]) |
//! | [`compare`] | drivers side by side, against the Knuth–Moore minimal tree |
//!
//! The most used items are re-exported here: [`Driver`], [`SearchParams`], [`Outcome`], [`Engine`],
//! [`Algorithm`], [`Game`], [`Player`], [`Tree`], [`Value`] and [`INFINITY`].
//!
//! # Features
//!
//! * `cli` (default): the `nullwindow` command line, with its dependencies (clap, indicatif,
//!   serde_json). A library user who only searches turns it off: `default-features = false`.
//! * `serde`: `Serialize` for the report types (driver rows, counts, passes, trace probes); `cli`
//!   turns it on.
//!
//! # Vocabulary
//!
//! * **Node, position**: a state of the game. A **leaf** is a node a search evaluates instead of
//!   expanding: a **terminal** node (no moves) or a **depth cut-off** (the depth ran out).
//! * **MAX and MIN**: the two players; values are read from MAX's side in *minimax form*, from the
//!   side to move in *negamax form* (see [`game`]).
//! * **Window** `(alpha, beta)`: the interval a search is asked about. A search **fails low** when it
//!   returns `g <= alpha` (then `g` is an upper bound on the true value), **fails high** when it
//!   returns `g >= beta` (a lower bound), and is exact in between. **Fail-soft** searches may return
//!   values outside the window, which are tighter bounds; **fail-hard** ones clamp to it.
//! * **Null window** (zero window): `beta = alpha + 1`. It can only fail low or high, so it answers one
//!   question, "is the value at least `beta`?" (Pearl's *Test*). **MTD** drivers find the value by a
//!   sequence of such **passes** at the root.
//! * **Transposition table**: memory of bounds found for positions, so that re-searches and
//!   transpositions (one position reached by several move orders) cost less.
//! * **Driver**: a complete search from the root, listed in the [`registry`]. Every driver takes the
//!   same [`SearchParams`] and reports an [`Outcome`].
//! * **Node events**: what every driver tells an [observer](driver::observe) as it searches: a node
//!   entered (depth, window), a leaf evaluated, a node returned (result, what the table did). A
//!   **record** is one node as `nullwindow trace` writes it and `nullwindow audit` reads it
//!   ([`oracle::record`]).
//!
//! # Example
//!
//! ```
//! use nullwindow::{Driver, SearchParams, Tree};
//!
//! let tree: Tree = "((3 17) (2 12) (15 (25 0)))".parse()?;
//! let outcome = Driver::Minimax.run(&tree, &SearchParams::default());
//! assert_eq!((outcome.value, outcome.counts.leaves), (15, 7));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod compare;
pub mod driver;
#[doc(hidden)]
// Public only so that the fuzz targets (a separate crate) and `cargo test` can run the same checks;
// not part of the API.
pub mod fuzzing;
pub mod game;
pub mod games;
pub mod literal;
pub mod oracle;
pub mod reference;
pub mod registry;
pub mod search;
pub mod theory;
pub mod tree;
pub mod value;

pub use driver::{Outcome, SearchParams};
pub use game::{Game, Player};
pub use registry::Driver;
pub use search::{Algorithm, Engine};
pub use tree::Tree;
pub use value::{INFINITY, Value};

/// The README's Rust examples, compiled and run as doctests so that they cannot drift.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// The book's chapters, whose Rust examples are compiled and run as doctests. Listings included from
/// the crate's source are fenced `rust,ignore`: that source is compiled by every build already.
#[cfg(doctest)]
pub mod book {
    macro_rules! chapters {
        ($($name:ident => $file:literal),* $(,)?) => {
            $(
                #[doc = include_str!(concat!("../book/src/", $file))]
                pub struct $name;
            )*
        };
    }

    chapters! {
        Introduction => "introduction.md",
        Trees => "trees.md",
        Minimax => "minimax.md",
        Listings => "listings.md",
        AlphaBeta => "alphabeta.md",
        Memory => "memory.md",
        NullWindow => "null-window.md",
        Mtdf => "mtdf.md",
        BoundArray => "bound-array.md",
        Bisection => "bisection.md",
        SssDual => "sss-dual.md",
        Pvs => "pvs.md",
        Viewer => "viewer.md",
        Aspiration => "aspiration.md",
        IterativeDeepening => "iterative-deepening.md",
        Errata => "errata.md",
        Engine => "engine.md",
        Threads => "threads.md",
        Measuring => "measuring.md",
        Theory => "theory.md",
        Certify => "certify.md",
        Games => "games.md",
        Oracle => "oracle.md",
        Protocol => "protocol.md",
        Selective => "selective.md",
        CaseStudies => "case-studies.md",
        Testing => "testing.md",
        Glossary => "glossary.md",
        Bibliography => "bibliography.md",
        CheatSheet => "cheat-sheet.md",
        CoursePaths => "course-paths.md",
    }
}
