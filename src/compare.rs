//! Drivers side by side on a set of games: how much each searches, against the Knuth–Moore minimal
//! tree, and how fast. This is what `nullwindow compare` prints.
//!
//! Knuth and Moore (1975) proved that on a uniform tree of width `w` and depth `d`, every algorithm
//! that finds the minimax value must evaluate at least `w^⌈d/2⌉ + w^⌊d/2⌋ − 1` leaves, and that
//! alpha-beta evaluates exactly that many when the best move always comes first. Dividing a driver's
//! leaf count by this number gives a measure of search efficiency that does not depend on the tree's
//! size: 1.0 is perfect.
//!
//! ```
//! use nullwindow::compare::{compare, minimal_tree_leaves};
//! use nullwindow::driver::SearchParams;
//! use nullwindow::registry::Driver;
//! use nullwindow::tree::random::RandomTreeConfig;
//!
//! assert_eq!(minimal_tree_leaves(3, 4), 17); // 3^2 + 3^2 - 1
//! let trees: Vec<_> = (0..4)
//!     .map(|seed| RandomTreeConfig { seed, width: 3..=3, depth: 4..=4, uniform: true, ..Default::default() }.generate())
//!     .collect::<Result<_, _>>()?;
//! let rows = compare(&trees, &[], &Driver::select("minimax,alphabeta")?, &SearchParams::default(), |_, _| {});
//! assert_eq!(rows[0].leaves, 81.0); // minimax evaluates every leaf
//! assert!(rows[1].leaves < 81.0 && rows[1].disagreements == 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::time::{Duration, Instant};

use crate::driver::SearchParams;
use crate::game::Game;
use crate::registry::Driver;
use crate::value::Value;

pub use crate::theory::node_types::minimal_leaves as minimal_tree_leaves;
pub use crate::theory::node_types::minimal_nodes as minimal_tree_nodes;

/// One driver's averages over the games compared.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The driver.
    pub driver: Driver,
    /// Mean leaves evaluated per game.
    pub leaves: f64,
    /// Mean nodes visited per game.
    pub nodes: f64,
    /// Mean root passes per game, for drivers that make them.
    pub passes: Option<f64>,
    /// Total wall time over all games.
    pub time: Duration,
    /// Games on which the driver's value differs from the reference value.
    pub disagreements: usize,
}

impl Row {
    /// Nodes visited per second of search.
    #[must_use]
    pub fn nodes_per_second(&self, games: usize) -> f64 {
        let seconds = self.time.as_secs_f64();
        if seconds > 0.0 { self.nodes * games as f64 / seconds } else { 0.0 }
    }
}

/// Runs every driver on every game with `params`, calling `progress(done, total)` after each run, and
/// averages the counts. Each game's reference value is `known[i]` when given (a synthetic tree that
/// knows its value), else the first driver's value on it; a driver disagrees when its value differs.
pub fn compare<G: Game>(
    games: &[G],
    known: &[Option<Value>],
    drivers: &[Driver],
    params: &SearchParams,
    mut progress: impl FnMut(usize, usize),
) -> Vec<Row> {
    let total = games.len() * drivers.len();
    let mut reference: Vec<Option<Value>> =
        (0..games.len()).map(|index| known.get(index).copied().flatten()).collect();
    let mut rows = Vec::with_capacity(drivers.len());
    for (driver_index, &driver) in drivers.iter().enumerate() {
        let (mut leaves, mut nodes, mut passes) = (0u64, 0u64, None::<usize>);
        let mut time = Duration::ZERO;
        let mut disagreements = 0;
        for (game_index, game) in games.iter().enumerate() {
            let start = Instant::now();
            let outcome = driver.run(game, params);
            time += start.elapsed();
            leaves += outcome.counts.leaves;
            nodes += outcome.counts.nodes;
            if let Some(made) = &outcome.passes {
                passes = Some(passes.unwrap_or(0) + made.len());
            }
            match reference[game_index] {
                None => reference[game_index] = Some(outcome.value),
                Some(value) if value != outcome.value => disagreements += 1,
                Some(_) => {}
            }
            progress(driver_index * games.len() + game_index + 1, total);
        }
        let count = games.len().max(1) as f64;
        rows.push(Row {
            driver,
            leaves: leaves as f64 / count,
            nodes: nodes as f64 / count,
            passes: passes.map(|passes| passes as f64 / count),
            time,
            disagreements,
        });
    }
    rows
}
