//! The reference searches: plain minimax in both forms, the oracle every other driver is checked
//! against. They prune nothing and visit every node down to the depth limit.

pub mod minimax;
pub mod negamax;
