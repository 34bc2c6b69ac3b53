//! The theory as executable definitions: what the literature proves the algorithms search, in a form
//! the tests can check.
//!
//! * [`node_types`]: Knuth and Moore's node types (PV, CUT, ALL) on perfectly ordered trees, and the
//!   size of the minimal tree they make up.
//! * [`witness`]: Wesselink et al.'s witness criterion, what a depth-limited search that uses deeper
//!   table entries may return.

pub mod node_types;
pub mod witness;
