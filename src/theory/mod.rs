//! The theory as executable definitions: what the literature proves the algorithms search, in a form
//! the tests can check.
//!
//! * [`node_types`]: Knuth and Moore's node types (PV, CUT, ALL) on perfectly ordered trees, and the
//!   size of the minimal tree they make up.
//! * [`minimal_tree`]: the minimal tree of any position (widths that differ, early ends, a side that
//!   moves twice): the smallest proofs of its value, the limit the oracle's proofs are held to.
//! * [`witness`]: Wesselink et al.'s witness criterion, what a depth-limited search that uses deeper
//!   table entries may return.
//! * [`is_fail_soft_result`]: the postcondition every search in the crate keeps, call by call.
//! * [`certify`]: a certificate by exhaustion, every driver on every case below a size.

pub mod certify;
pub mod minimal_tree;
pub mod node_types;
pub mod witness;

use crate::value::Value;

/// The fail-soft postcondition (Plaat, Schaeffer, Pijls and de Bruin 1996, p. 8): whether `g`,
/// returned by a search with the window `(alpha, beta)` of a node whose value is `f`, is a correct
/// fail-soft result. A result at or below `alpha` bounds `f` from above, one at or above `beta`
/// bounds it from below, and one strictly inside the window is `f` itself.
///
/// ```
/// use nullwindow::theory::is_fail_soft_result;
///
/// assert!(is_fail_soft_result(2, 1, 2, 5)); // fails low: the value is at most 2
/// assert!(is_fail_soft_result(9, 12, 2, 5)); // fails high: at least 9
/// assert!(!is_fail_soft_result(3, 4, 2, 5)); // inside the window, so it must be the value
/// ```
#[must_use]
pub const fn is_fail_soft_result(g: Value, f: Value, alpha: Value, beta: Value) -> bool {
    if g <= alpha {
        f <= g
    } else if g >= beta {
        f >= g
    } else {
        f == g
    }
}
