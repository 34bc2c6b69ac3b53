//! `nullwindow`: minimax game-tree search around Aske Plaat's MTD(f), as a reference implementation,
//! a test oracle and a textbook.
//!
//! # Who should use this
//!
//! * **Engine authors** who wrote alpha-beta, PVS or MTD(f) and want to know whether it returns the
//!   right value: point the `nullwindow` command line or [`oracle::solve`] at a tree or a game and compare.
//! * **Students** reading the published pseudo-code: every listing sits in the crate as a literal
//!   translation, beside the property tests that show whether it is right.
//! * **Researchers** who need exact node counts on reproducible trees.
//!
//! # A map of the crate
//!
//! | module | what it holds |
//! |---|---|
//! | [`value`] | the value type, the crate's `INFINITY` and the admissible leaf range |
//! | [`game`] | the [`Game`](game::Game) trait every search is written against |
//! | [`tree`] | explicit trees: the arena, the parenthesis and `gtree` formats, random trees |
//! | [`reference`](mod@reference) | plain minimax in minimax and negamax form: the oracle |
//! | [`literal`] | line-by-line translations of the published pseudo-code, one module per source |
//! | [`search`] | the optimized engine: table, ordering, iterative deepening, nine drivers |
//! | [`registry`] | every driver by name, as the command line lists and runs them |
//! | [`oracle`] | run drivers and check them against minimax |
//! | [`outcome`] | what a search reports: value, leaves, nodes, passes |
//! | [`compare`] | drivers side by side, against the Knuth–Moore minimal tree |
//! | [`theory`] | the literature's definitions the tests check: node types, the witness criterion |
//! | [`fuzzing`] | the fuzz targets' decoders and checks, replayed by `cargo test` |
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
//! * **Driver**: a complete search from the root, listed in [`registry`].
//!
//! # Example
//!
//! ```
//! use nullwindow::registry::{Driver, SearchParams};
//! use nullwindow::tree::Tree;
//!
//! let tree: Tree = "((3 17) (2 12) (15 (25 0)))".parse()?;
//! let outcome = Driver::Minimax.run(&tree, &SearchParams::default());
//! assert_eq!((outcome.value, outcome.counts.leaves), (15, 7));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod compare;
pub mod fuzzing;
pub mod game;
pub mod games;
pub mod literal;
pub mod oracle;
pub mod outcome;
pub mod reference;
pub mod registry;
pub mod search;
pub mod theory;
pub mod tree;
pub mod value;

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
        Aspiration => "aspiration.md",
        IterativeDeepening => "iterative-deepening.md",
        Errata => "errata.md",
        Engine => "engine.md",
        Measuring => "measuring.md",
        Theory => "theory.md",
        Games => "games.md",
        Oracle => "oracle.md",
        Testing => "testing.md",
        Bibliography => "bibliography.md",
    }
}
