//! The history an engine's answer may depend on: the searches it was asked before, and the fewest
//! of them after which it still answers wrong ([`minimize_history`]).
//!
//! A real engine keeps its transposition table, killers and history heuristic from one search to
//! the next. A bug in what it keeps (a hash that ignores part of the position, a mate score stored
//! without its distance) then shows only after the right searches before: asked the case again,
//! or asked it alone in a fresh process, the engine is right. What reproduces such a finding is
//! the list of earlier searches, and what explains it is the shortest such list. Zeller and
//! Hildebrandt's delta debugging ("Simplifying and Isolating Failure-Inducing Input", IEEE TSE
//! 2002) finds one that is 1-minimal: leaving out any single earlier search loses the bug.

/// What [`minimize_history`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Minimized<T> {
    /// The earlier requests kept, in their order: the engine is still wrong after them.
    pub kept: Vec<T>,
    /// Tests run (each a fresh engine asked `kept`-like lists and then the case).
    pub tests: u64,
    /// Whether the result is 1-minimal; `false` when `max_tests` ran out first.
    pub minimal: bool,
}

/// The fewest of `history` (in order) after which `wrong` still holds, by delta debugging (ddmin):
/// the list is cut into `n` parts, and a part alone, or everything but a part, is kept whenever
/// `wrong` holds for it; `n` doubles when neither does, until parts are single requests. `wrong`
/// must hold for `history` itself (the caller has checked: a history it does not hold for has
/// nothing to shrink). The empty history is tried first, then at most `max_tests` tests in all.
///
/// Each kept list is a subsequence of `history`, so its requests keep their order.
///
/// ```
/// use nullwindow::oracle::harness::minimize_history;
///
/// // An engine that goes wrong once 3 and 7 were both searched before, in that order.
/// let history: Vec<u32> = (0..20).collect();
/// let wrong = |earlier: &[u32]| {
///     let three = earlier.iter().position(|&x| x == 3);
///     let seven = earlier.iter().position(|&x| x == 7);
///     matches!((three, seven), (Some(a), Some(b)) if a < b)
/// };
/// let found = minimize_history(&history, wrong, 1000);
/// assert_eq!(found.kept, vec![3, 7]);
/// assert!(found.minimal);
/// ```
pub fn minimize_history<T: Clone>(
    history: &[T],
    mut wrong: impl FnMut(&[T]) -> bool,
    max_tests: u64,
) -> Minimized<T> {
    let tests = std::cell::Cell::new(0u64);
    let mut test = |candidate: &[T]| {
        tests.set(tests.get() + 1);
        wrong(candidate)
    };
    if history.is_empty() || test(&[]) {
        return Minimized { kept: Vec::new(), tests: tests.get(), minimal: true };
    }
    let mut kept = history.to_vec();
    let mut parts = 2usize;
    let out_of_tests = || tests.get() >= max_tests;
    while kept.len() >= 2 {
        let n = parts.min(kept.len());
        let bounds: Vec<(usize, usize)> =
            (0..n).map(|i| (i * kept.len() / n, (i + 1) * kept.len() / n)).collect();
        let mut reduced = false;
        // A part alone: the bug needs only what it holds.
        for &(start, end) in &bounds {
            if out_of_tests() {
                return Minimized { kept, tests: tests.get(), minimal: false };
            }
            if test(&kept[start..end]) {
                kept = kept[start..end].to_vec();
                parts = 2;
                reduced = true;
                break;
            }
        }
        // Everything but a part: the part is not needed.
        if !reduced && n > 2 {
            for &(start, end) in &bounds {
                if out_of_tests() {
                    return Minimized { kept, tests: tests.get(), minimal: false };
                }
                let complement: Vec<T> = kept[..start].iter().chain(&kept[end..]).cloned().collect();
                if test(&complement) {
                    kept = complement;
                    parts = (n - 1).max(2);
                    reduced = true;
                    break;
                }
            }
        }
        if !reduced {
            if n >= kept.len() {
                break;
            }
            parts = (n * 2).min(kept.len());
        }
    }
    // With one request left, the empty history (tried first) does not hold: 1-minimal.
    Minimized { kept, tests: tests.get(), minimal: true }
}
