//! Values, the crate's `INFINITY`, and the admissible leaf range.
//!
//! Every score in the crate is a [`Value`], a plain `i32` read from MAX's side in minimax form and from
//! the side to move in negamax form. Published pseudo-code writes `+INFINITY` and `-INFINITY` and does
//! arithmetic on them: negation (negamax), `beta - 1` and `g + 1` (null windows), `(lower + upper) / 2`
//! (bisection). With `i32::MIN` or `i32::MAX` as infinity each of those can overflow; `-i32::MIN` is the
//! classic. So the crate fixes the numbers such that none can:
//!
//! * [`INFINITY`] is 10⁹, far inside `i32`.
//! * Leaf values (and every static evaluation) must lie in the **admissible range**
//!   [`MIN_LEAF`]`..=`[`MAX_LEAF`], that is strictly between `-INFINITY` and `+INFINITY`. This is what
//!   Plaat's page means by "values outside the range of leaf values": a search bounded by `±INFINITY`
//!   can always fail low against `+INFINITY` and high against `-INFINITY`, which SSS* as MTD(+INFINITY)
//!   and DUAL* as MTD(-INFINITY) rely on.
//!
//! Any value a driver handles lies in `-INFINITY - 1 ..= INFINITY + 1`; the sum or difference of two
//! such values is at most `2 * (10⁹ + 1)`, below `i32::MAX` (about 2.147 × 10⁹), so negation, `± 1`,
//! sums and midpoints never overflow.
//!
//! ```
//! use nullwindow::value::{INFINITY, MAX_LEAF, MIN_LEAF, is_admissible};
//! assert_eq!(-(-INFINITY), INFINITY);
//! assert_eq!((-INFINITY + INFINITY) / 2, 0);
//! assert!(INFINITY.checked_add(INFINITY + 2).is_some());
//! assert!(is_admissible(MAX_LEAF) && is_admissible(MIN_LEAF));
//! assert!(!is_admissible(INFINITY) && !is_admissible(i32::MIN));
//! ```

/// A minimax value or bound.
pub type Value = i32;

/// The crate's infinity: larger than every admissible leaf value, and small enough that any
/// arithmetic a driver does on it stays inside `i32`.
pub const INFINITY: Value = 1_000_000_000;

/// `value` as a table shows it to a reader: `-inf` and `+inf` for `∓INFINITY`, the number
/// otherwise (JSON keeps the numbers).
///
/// ```
/// use nullwindow::value::{INFINITY, shown};
/// assert_eq!((shown(-INFINITY), shown(7), shown(INFINITY)), ("-inf".to_owned(), "7".to_owned(), "+inf".to_owned()));
/// ```
#[must_use]
pub fn shown(value: Value) -> String {
    match value {
        INFINITY => "+inf".to_owned(),
        v if v == -INFINITY => "-inf".to_owned(),
        v => v.to_string(),
    }
}

/// The largest admissible leaf value (and static evaluation): `INFINITY - 1`.
pub const MAX_LEAF: Value = INFINITY - 1;

/// The smallest admissible leaf value (and static evaluation): `-INFINITY + 1`.
pub const MIN_LEAF: Value = -MAX_LEAF;

/// Whether `value` may stand at a leaf or be returned by a static evaluation.
#[must_use]
pub const fn is_admissible(value: Value) -> bool {
    value >= MIN_LEAF && value <= MAX_LEAF
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_driver_operation_on_extreme_values_fits_in_i32() {
        let extremes = [-INFINITY - 1, -INFINITY, MIN_LEAF, 0, MAX_LEAF, INFINITY, INFINITY + 1];
        for a in extremes {
            assert!(a.checked_neg().is_some());
            for b in extremes {
                assert!(a.checked_add(b).is_some(), "{a} + {b}");
                assert!(a.checked_sub(b).is_some(), "{a} - {b}");
                assert!(a.checked_add(b).and_then(|s| s.checked_add(1)).is_some());
            }
        }
    }
}

/// What a search result says about a node's value, relative to the window it was searched with:
/// the bound a table stores it as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "lowercase"))]
pub enum Bound {
    /// The result is a lower bound on the node's value (it failed high).
    Lower,
    /// The result is an upper bound (it failed low).
    Upper,
    /// The result is the node's value.
    Exact,
}

impl Bound {
    /// The bound a fail-soft result `g` of a search with the window `(alpha, beta)` is: an upper
    /// bound when it fails low (`g <= alpha`), a lower bound when it fails high (`g >= beta`), the
    /// value in between.
    #[must_use]
    pub const fn of_result(g: Value, alpha: Value, beta: Value) -> Self {
        if g <= alpha {
            Self::Upper
        } else if g >= beta {
            Self::Lower
        } else {
            Self::Exact
        }
    }

    /// The same bound seen from the other side: a lower bound for one player is an upper bound for
    /// the other (for turning a negamax engine's records to MAX's side).
    #[must_use]
    pub const fn flipped(self) -> Self {
        match self {
            Self::Lower => Self::Upper,
            Self::Upper => Self::Lower,
            Self::Exact => Self::Exact,
        }
    }

    /// The name records use: `lower`, `upper` or `exact`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Lower => "lower",
            Self::Upper => "upper",
            Self::Exact => "exact",
        }
    }

    /// Whether `stored`, stored as this bound, holds for the value `value`.
    #[must_use]
    pub const fn holds(self, stored: Value, value: Value) -> bool {
        match self {
            Self::Lower => stored <= value,
            Self::Upper => stored >= value,
            Self::Exact => stored == value,
        }
    }
}
