//! Values, the crate's `INFINITY`, the admissible leaf range, and values with decimals
//! ([`Decimals`]).
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

/// How many digits an engine's values carry after a decimal point, from 0 (whole numbers, the
/// default) to [`Decimals::MAX`]: an engine that scores in pawns, `4.53`, announces two
/// (`decimals=2` in the line protocol, [`crate::oracle::protocol::Features::decimals`]).
///
/// The oracle judges such values exactly, as whole numbers of the smallest unit (hundredths for
/// two digits): a [`Value`] of 453 is the engine's `4.53`. [`Decimals::read`] turns what the engine
/// wrote into that whole number, refusing what it cannot hold exactly, and [`Decimals::show`] writes
/// it back as the engine would, with all its digits. Scaled values must stay admissible
/// ([`is_admissible`]): the more digits, the smaller the largest value an engine may write.
///
/// ```
/// use nullwindow::value::Decimals;
/// let cents = Decimals::new(2).unwrap();
/// assert_eq!(cents.read("4.53"), Ok(453));
/// assert_eq!(cents.read("-0.5"), Ok(-50));
/// assert_eq!(cents.read("1e-2"), Ok(1)); // as JSON may write 0.01
/// assert_eq!(cents.show(-50).to_string(), "-0.50");
/// assert!(cents.read("0.125").is_err()); // a third digit: not exact in hundredths
/// assert_eq!(Decimals::NONE.show(453).to_string(), "453");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Decimals(u8);

/// Why [`Decimals::read`] refuses a number; [`Decimals::refusal`] words it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecimalError {
    /// It is not a decimal number (an optional sign, digits with an optional point, an optional
    /// exponent).
    NotANumber,
    /// It has more digits after the point than the engine announced: this many.
    TooManyDigits(u32),
    /// Scaled, it lies outside the admissible range; the most digits with which a value this
    /// large would fit, if any.
    OutOfRange(Option<u8>),
}

impl Decimals {
    /// Whole numbers: values as the engine writes them, no point.
    pub const NONE: Self = Self(0);

    /// The most digits after the point: 10⁹ units must still hold a value of some size.
    pub const MAX: u8 = 9;

    /// `digits` after the point, if it is at most [`Decimals::MAX`].
    #[must_use]
    pub const fn new(digits: u8) -> Option<Self> {
        if digits <= Self::MAX { Some(Self(digits)) } else { None }
    }

    /// The digits after the point.
    #[must_use]
    pub const fn digits(self) -> u8 {
        self.0
    }

    /// `text`, a number with at most [`Decimals::digits`] digits after its point, as a whole number
    /// of units (`4.53` is 453 with two digits). A sign, a point without digits after it, trailing
    /// zeros and an exponent (`1e-05`, as JSON writers put small numbers) are read; whatever the
    /// digits, the scaled value must be admissible ([`is_admissible`]).
    ///
    /// # Errors
    /// What is wrong with the number ([`DecimalError`]).
    pub fn read(self, text: &str) -> Result<Value, DecimalError> {
        let scaled = match self.read_unbounded(text) {
            Ok(scaled) => Value::try_from(scaled).ok().filter(|&value| is_admissible(value)),
            Err(DecimalError::OutOfRange(_)) => None,
            Err(error) => return Err(error),
        };
        scaled.ok_or_else(|| DecimalError::OutOfRange(self.largest_fitting(text)))
    }

    /// [`Decimals::read`] for an edge of a window: one at or beyond `±INFINITY` once scaled is
    /// `±INFINITY`, since no admissible value lies beyond it (an engine's own infinity, `1e9` in
    /// pawns, is the crate's).
    ///
    /// # Errors
    /// As [`Decimals::read`], except the range.
    pub fn read_edge(self, text: &str) -> Result<Value, DecimalError> {
        let infinity = i128::from(INFINITY);
        let scaled = match self.read_unbounded(text) {
            Err(DecimalError::OutOfRange(_)) if text.starts_with('-') => -infinity,
            Err(DecimalError::OutOfRange(_)) => infinity,
            read => read?,
        };
        Ok(Value::try_from(scaled.clamp(-infinity, infinity)).unwrap_or(INFINITY))
    }

    /// `value` as the engine writes it: `4.53` for 453 with two digits, every digit after the point
    /// written (`-0.50`); a whole number as it is without digits. With digits, an edge at or beyond
    /// `±INFINITY` is `-inf` or `+inf`, which the engine may have written in its own units.
    #[must_use]
    pub const fn show(self, value: Value) -> Shown {
        Shown { value: value as i128, decimals: self, infinite: true }
    }

    /// A difference between two values (a loss, an error), written as [`Decimals::show`] writes a
    /// value; it may exceed the range of values, and is never infinite.
    #[must_use]
    pub const fn show_difference(self, difference: u64) -> Shown {
        Shown { value: difference as i128, decimals: self, infinite: false }
    }

    /// Why `error` refuses a number, in the words every message uses after the number itself
    /// (`'result' is 0.125, with 3 digits after the point: the engine announced decimals=2`).
    ///
    /// ```
    /// use nullwindow::value::Decimals;
    /// let cents = Decimals::new(2).unwrap();
    /// let refused = |text: &str| cents.refusal(cents.read(text).unwrap_err());
    /// assert_eq!(refused("0.125"), "with 3 digits after the point: the engine announced decimals=2");
    /// assert_eq!(
    ///     refused("10000000"),
    ///     "outside ±9999999.99 with decimals=2 (a value this large fits with decimals=1 at most)"
    /// );
    /// ```
    #[must_use]
    pub fn refusal(self, error: DecimalError) -> String {
        let digits = self.0;
        let largest = self.show(MAX_LEAF);
        match error {
            DecimalError::NotANumber => {
                format!("not a number with at most {digits} digits after the point (decimals={digits})")
            }
            DecimalError::TooManyDigits(found) => {
                format!("with {found} digits after the point: the engine announced decimals={digits}")
            }
            DecimalError::OutOfRange(Some(fits)) => format!(
                "outside ±{largest} with decimals={digits} (a value this large fits with decimals={fits} at most)"
            ),
            DecimalError::OutOfRange(None) => {
                format!("outside ±{largest} with decimals={digits}, whatever the digits after the point")
            }
        }
    }

    /// 10 to the power of the digits.
    const fn unit(self) -> i128 {
        10i128.pow(self.0 as u32)
    }

    /// `text` scaled exactly, however large (up to what `i128` holds).
    fn read_unbounded(self, text: &str) -> Result<i128, DecimalError> {
        let number = Number::parse(text).ok_or(DecimalError::NotANumber)?;
        let shift = number.exponent + i64::from(self.0);
        if shift < 0 {
            return Err(DecimalError::TooManyDigits(u32::try_from(-number.exponent).unwrap_or(u32::MAX)));
        }
        let magnitude = number.times_ten_to(shift).ok_or(DecimalError::OutOfRange(None))?;
        Ok(if number.negative { -magnitude } else { magnitude })
    }

    /// For [`DecimalError::OutOfRange`]: the most digits, up to these, with which `text`'s
    /// magnitude (its excess digits dropped) is at most [`MAX_LEAF`].
    fn largest_fitting(self, text: &str) -> Option<u8> {
        let number = Number::parse(text)?;
        (0..=self.0).rev().find(|&digits| {
            let shift = number.exponent + i64::from(digits);
            let magnitude = if shift >= 0 {
                number.times_ten_to(shift)
            } else {
                // Dropping the digits below the unit: what is left of them, if any.
                let dropped = usize::try_from(-shift).unwrap_or(usize::MAX);
                let kept = number.digits.len().saturating_sub(dropped);
                Some(number.digits[..kept].parse::<i128>().unwrap_or(0))
            };
            magnitude.is_some_and(|magnitude| magnitude <= i128::from(MAX_LEAF))
        })
    }
}

/// A decimal number as written: its sign, its significant digits (no leading or trailing zeros),
/// and the power of ten its last digit stands for.
struct Number {
    negative: bool,
    digits: String,
    exponent: i64,
}

impl Number {
    /// `None` if `text` is not an optional sign, digits with an optional point, and an optional
    /// exponent (of at most a few thousand, which no value needs).
    fn parse(text: &str) -> Option<Self> {
        let (mantissa, exponent) = match text.find(['e', 'E']) {
            Some(at) => (&text[..at], text[at + 1..].parse::<i64>().ok().filter(|e| e.abs() <= 4096)?),
            None => (text, 0),
        };
        let (negative, unsigned) = match mantissa.as_bytes().first() {
            Some(b'-') => (true, &mantissa[1..]),
            Some(b'+') => (false, &mantissa[1..]),
            _ => (false, mantissa),
        };
        let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
        let all_digits = whole.bytes().chain(fraction.bytes()).all(|byte| byte.is_ascii_digit());
        if (whole.is_empty() && fraction.is_empty()) || !all_digits || text.len() > 4096 {
            return None;
        }
        let written = format!("{whole}{fraction}");
        let digits = written.trim_start_matches('0').trim_end_matches('0').to_owned();
        let trailing = written.len() - written.trim_end_matches('0').len();
        let exponent = if digits.is_empty() {
            0
        } else {
            exponent - i64::try_from(fraction.len()).ok()? + i64::try_from(trailing).ok()?
        };
        Some(Self { negative, digits, exponent })
    }

    /// The magnitude times 10^`shift`, if `i128` holds it.
    fn times_ten_to(&self, shift: i64) -> Option<i128> {
        if self.digits.is_empty() {
            return Some(0);
        }
        let mut magnitude: i128 = self.digits.parse().ok()?;
        for _ in 0..shift {
            magnitude = magnitude.checked_mul(10)?;
        }
        Some(magnitude)
    }
}

/// A value written as its engine writes it ([`Decimals::show`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shown {
    value: i128,
    decimals: Decimals,
    /// Whether a value at or beyond the crate's infinity is written `±inf`.
    infinite: bool,
}

impl std::fmt::Display for Shown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Self { value, decimals, infinite } = *self;
        if decimals.0 == 0 {
            return write!(f, "{value}");
        }
        if infinite && value.unsigned_abs() >= INFINITY.unsigned_abs().into() {
            return f.write_str(if value > 0 { "+inf" } else { "-inf" });
        }
        let unit = decimals.unit();
        let magnitude = value.abs();
        let sign = if value < 0 { "-" } else { "" };
        write!(f, "{sign}{}.{:0width$}", magnitude / unit, magnitude % unit, width = usize::from(decimals.0))
    }
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

    fn cents() -> Decimals {
        Decimals::new(2).unwrap()
    }

    #[test]
    fn decimals_read_exactly_what_the_engine_wrote() {
        let cents = cents();
        for (text, value) in [
            ("4.53", 453),
            ("-4.53", -453),
            ("+0.07", 7),
            ("3", 300),
            ("3.", 300),
            (".5", 50),
            ("-0.50", -50),
            ("4.530000", 453),
            ("0.00", 0),
            ("-0", 0),
            ("1e-2", 1),
            ("1.5E1", 1500),
            ("0.0001e2", 1),
            ("9999999.99", 999_999_999),
        ] {
            assert_eq!(cents.read(text), Ok(value), "{text}");
        }
        for text in ["", "-", ".", "4,53", "4.5.3", "e2", "1e", "0x10", "inf", "NaN", " 1", "1 ", "--1"] {
            assert_eq!(cents.read(text), Err(DecimalError::NotANumber), "{text:?}");
        }
        assert_eq!(cents.read("0.125"), Err(DecimalError::TooManyDigits(3)));
        assert_eq!(cents.read("1e-3"), Err(DecimalError::TooManyDigits(3)));
        assert_eq!(Decimals::NONE.read("0.5"), Err(DecimalError::TooManyDigits(1)));
    }

    #[test]
    fn a_value_too_large_once_scaled_names_the_most_digits_that_fit() {
        let cents = cents();
        assert_eq!(cents.read("10000000"), Err(DecimalError::OutOfRange(Some(1))));
        assert_eq!(cents.read("-10000000.25"), Err(DecimalError::OutOfRange(Some(1))));
        assert_eq!(cents.read("123456789.5"), Err(DecimalError::OutOfRange(Some(0))));
        assert_eq!(cents.read("1000000000"), Err(DecimalError::OutOfRange(None)));
        assert_eq!(cents.read("1e4000"), Err(DecimalError::OutOfRange(None)));
        let nine = Decimals::new(Decimals::MAX).unwrap();
        assert_eq!(nine.read("1"), Err(DecimalError::OutOfRange(Some(8))));
        assert_eq!(nine.read("0.999999999"), Ok(999_999_999));
        assert_eq!(Decimals::new(10), None);
        // A window's edge beyond every value is the crate's infinity.
        assert_eq!(cents.read_edge("-1e9"), Ok(-INFINITY));
        assert_eq!(cents.read_edge("1e400"), Ok(INFINITY));
        assert_eq!(cents.read_edge("2.5"), Ok(250));
    }

    #[test]
    fn decimals_show_every_digit_and_infinity_by_name() {
        let cents = cents();
        let shown = |value| cents.show(value).to_string();
        assert_eq!(
            [shown(453), shown(-453), shown(7), shown(-7), shown(0), shown(MAX_LEAF), shown(-INFINITY)],
            ["4.53", "-4.53", "0.07", "-0.07", "0.00", "9999999.99", "-inf"]
        );
        assert_eq!(Decimals::NONE.show(-INFINITY).to_string(), "-1000000000");
    }

    proptest::proptest! {
        /// What is shown reads back as the same value, for every digit count and admissible value.
        #[test]
        fn a_shown_value_reads_back(digits in 0..=Decimals::MAX, value in MIN_LEAF..=MAX_LEAF) {
            let decimals = Decimals::new(digits).unwrap();
            proptest::prop_assert_eq!(decimals.read(&decimals.show(value).to_string()), Ok(value));
        }

        /// Scaling agrees with exact rational arithmetic: `whole.fraction` with `k` digits is
        /// `whole * 10^n + fraction * 10^(n-k)` when `k <= n`, and refused otherwise.
        #[test]
        fn reading_scales_exactly(
            digits in 0..=4u8, whole in 0..100_000i64, fraction in 0..10_000i64, written in 1..=4usize,
            negative: bool,
        ) {
            let fraction = fraction % 10i64.pow(written as u32);
            let text = format!("{}{whole}.{fraction:0written$}", if negative { "-" } else { "" });
            let significant = format!("{fraction:0written$}").trim_end_matches('0').len();
            let expected = if significant > usize::from(digits) {
                Err(DecimalError::TooManyDigits(significant as u32))
            } else {
                let unit = 10i64.pow(u32::from(digits));
                let magnitude = whole * unit + fraction * unit / 10i64.pow(written as u32);
                Ok(Value::try_from(if negative { -magnitude } else { magnitude }).unwrap())
            };
            proptest::prop_assert_eq!(Decimals::new(digits).unwrap().read(&text), expected);
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
