//! The oracle: run drivers on a game and check each against plain minimax.
//!
//! This is what `nullwindow solve` does, as a library call an engine author can make from their own
//! tests.
//!
//! ```
//! use nullwindow::oracle::solve;
//! use nullwindow::registry::{Driver, SearchParams};
//! use nullwindow::tree::Tree;
//!
//! let tree: Tree = "((3 17) (2 12) (15 (25 0)))".parse()?;
//! let report = solve(&tree, &Driver::select("all")?, &SearchParams::default());
//! assert_eq!(report.value, 15);
//! assert!(report.disagreements().next().is_none());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::game::Game;
use crate::outcome::Outcome;
use crate::reference::minimax;
use crate::registry::{Driver, Progress, SearchParams};
use crate::value::Value;

/// One driver's run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DriverResult {
    /// The driver.
    pub driver: Driver,
    /// What it returned.
    pub outcome: Outcome,
}

/// The exact value and every driver's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The minimax value at the requested depth.
    pub value: Value,
    /// Each driver's result, in the order asked for.
    pub results: Vec<DriverResult>,
}

impl Report {
    /// The results whose value differs from the minimax value.
    pub fn disagreements(&self) -> impl Iterator<Item = &DriverResult> {
        self.results.iter().filter(|result| result.outcome.value != self.value)
    }
}

/// Computes the minimax value of `game` at `params.depth`, then runs each driver and records what it
/// returns.
#[must_use]
pub fn solve<G: Game>(game: &G, drivers: &[Driver], params: &SearchParams) -> Report {
    solve_with_progress(game, drivers, params, &mut |_, _| {})
}

/// As [`solve`], reporting each completed iteration of the drivers that deepen iteratively, for
/// progress on long searches.
pub fn solve_with_progress<G: Game>(
    game: &G,
    drivers: &[Driver],
    params: &SearchParams,
    progress: &mut dyn FnMut(Driver, &Progress),
) -> Report {
    let value = minimax::search(game, &game.root(), params.depth).value;
    let results = drivers
        .iter()
        .map(|&driver| {
            let outcome = driver.run_with_progress(game, params, &mut |step| progress(driver, step));
            DriverResult { driver, outcome }
        })
        .collect();
    Report { value, results }
}
