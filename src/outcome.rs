//! What a search reports: its value, how much it searched, and the passes of a null-window driver.

use serde::Serialize;

use crate::value::Value;

/// How much of the tree a search looked at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Calls of [`crate::game::Game::evaluate`]: terminal positions and depth cut-offs.
    pub leaves: u64,
    /// Nodes visited: every call of the recursive search (re-visits in later passes count again).
    pub nodes: u64,
}

/// One null-window (or narrow-window) call at the root, as MTD drivers make them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Pass {
    /// The window's lower edge.
    pub alpha: Value,
    /// The window's upper edge.
    pub beta: Value,
    /// What the call returned: an upper bound if `result <= alpha`, a lower bound if `result >= beta`.
    pub result: Value,
}

/// The result of running one driver.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// The value found (from MAX's side at a MAX root, as every driver reports it).
    pub value: Value,
    /// Leaves and nodes searched.
    pub counts: Counts,
    /// The root passes of a driver that makes them; `None` for single-pass searches.
    pub passes: Option<Vec<Pass>>,
}
