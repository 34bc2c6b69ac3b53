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

impl Pass {
    /// The bounds on the root's value after this pass, given the bounds before it: a result that
    /// fails low is a new upper bound, one that fails high a new lower bound, and one inside the
    /// window is the value itself.
    ///
    /// ```
    /// use nullwindow::outcome::Pass;
    ///
    /// let bounds = (-100, 100);
    /// assert_eq!(Pass { alpha: 4, beta: 5, result: 3 }.narrow(bounds), (-100, 3));
    /// assert_eq!(Pass { alpha: 4, beta: 5, result: 7 }.narrow(bounds), (7, 100));
    /// assert_eq!(Pass { alpha: 0, beta: 9, result: 6 }.narrow(bounds), (6, 6));
    /// ```
    #[must_use]
    pub const fn narrow(&self, (lower, upper): (Value, Value)) -> (Value, Value) {
        if self.result <= self.alpha {
            (lower, self.result)
        } else if self.result >= self.beta {
            (self.result, upper)
        } else {
            (self.result, self.result)
        }
    }
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
