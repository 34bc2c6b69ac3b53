//! The integration test suite, one binary (each test binary links separately, which is slow).
//!
//! * `audit`: the per-node audit of another engine's records.
//! * `certify`: the certificate by exhaustion: a small one holds, its smallest counterexamples are
//!   committed, and the drivers decided by the order of values are told apart from the others.
//! * `book`: the book's chapters and includes resolve.
//! * `case_studies`: the book's case studies of published engines: each shrunk case's exact value,
//!   what the `minimax` crate says on it, and the chapter's commands, run.
//! * `fuzzing`: the fuzz seeds and past crashes, replayed.
//! * `harness`: the library harness: a correct engine agrees, every kind of planted bug is caught
//!   and shrunk.
//! * `hostile`: hostile engines, commands and files through the command line: bounded in time and
//!   memory, nothing left running or on disk, unreadable records never agreed with.
//! * `formats`: the parenthesis and `gtree` formats, round trips and error positions.
//! * `random_trees`: the seeded generator.
//! * `protocol`: games served over the line protocol by engines in Python and JavaScript, searched
//!   exactly; every way to break the protocol named.
//! * `minimax`: the oracle against independent computations.
//! * `own_game`: the own-game fuzz: an engine's own search on its own game, a wrong answer
//!   followed down to the node where the bug acts; games where a side moves twice.
//! * `real_engines`: engines as they are: a table kept between searches (its history shrunk and
//!   replayed as a session), every `fuzz` flag honoured with `--engine`.
//! * `selective`: a pruning engine with its features off (exact), on (held to the rules of its
//!   own search, its selectivity profile recomputed), and planted table bugs found at their node.
//! * `consistency`: the rules of a search's own records against every exact driver's trace.
//! * `proof`: the oracle's proofs against minimax, MT's contract, budgets; the minimal tree of any
//!   position, and what the proofs of game positions ask against it.
//! * `corpus`: every tree in `testdata/` through every exact driver.
//! * `literal`: the literal translations against minimax.
//! * `synthetic`: implicit synthetic trees.
//! * `theory`: SSS* = MT-SSS*, DUAL* = MT-DUAL*, dominance over alpha-beta.
//! * `shrink`: the delta-debugging shrinker, in process and as `nullwindow shrink` running a real
//!   command.
//! * `witness`: Wesselink et al.'s witness criterion: their counterexample, the engine's deeper-entries mode.
//! * `cli`: the `nullwindow` command line (with the default feature `cli`).
//! * `readme`: every command example in `README.md`, run and compared with the output it shows
//!   (with the default feature `cli`).

mod audit;
mod book;
mod case_studies;
mod certify;
#[cfg(feature = "cli")]
mod cli;
mod consistency;
mod corpus;
mod engine;
mod formats;
mod fuzzing;
mod games;
mod harness;
#[cfg(feature = "cli")]
mod hostile;
mod literal;
mod minimax;
mod own_game;
mod proof;
#[cfg(feature = "process")]
mod protocol;
mod random_trees;
#[cfg(feature = "cli")]
mod readme;
#[cfg(feature = "cli")]
mod real_engines;
#[cfg(feature = "cli")]
mod selective;
mod shrink;
mod strategies;
mod synthetic;
mod theory;
mod witness;
