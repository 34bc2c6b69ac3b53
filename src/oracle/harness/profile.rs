//! How far a selective engine strays from the exact value, measured case by case: the selectivity
//! profile of `fuzz --engine --selective`.
//!
//! A pruning engine's value differs from the exact depth-limited value by design. How often, and
//! by how much, is what its author tunes the pruning on: each case's [`Measure`] holds the
//! engine's value, the exact value at the same depth (proved from the engine's value as a first
//! guess, [`super::judge::measure`]) and how much the move it chose gives up; a [`Profile`] adds
//! them up per depth, prints them ([`Profile::lines`]) and plots the shares ([`Profile::svg`]). It
//! is a measurement, not a verdict: [`Profile::worse_share`] is what a threshold holds it to.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::value::{Decimals, Value};

/// One case measured: values from the side to move at the case's position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Measure {
    /// The depth the case was searched to.
    pub depth: u32,
    /// The engine's value.
    pub value: Value,
    /// The exact value at that depth.
    pub exact: Value,
    /// How much less than the exact value the position is worth after the engine's move (0 for a
    /// best move); `None` when the engine named no move, or its move's value was beyond the budget.
    pub move_loss: Option<Value>,
}

/// The measures of one depth, or of every depth together.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Cases measured.
    pub cases: u64,
    /// By how much each value that differs from the exact value differs (absolute).
    pub value_errors: Vec<u64>,
    /// Cases whose move was measured.
    pub moves: u64,
    /// By how much each worse move falls short of the best.
    pub move_losses: Vec<u64>,
}

impl Tally {
    fn add(&mut self, measure: &Measure) {
        self.cases += 1;
        if measure.value != measure.exact {
            self.value_errors.push(measure.value.abs_diff(measure.exact).into());
        }
        if let Some(loss) = measure.move_loss {
            self.moves += 1;
            if loss > 0 {
                self.move_losses.push(loss.unsigned_abs().into());
            }
        }
    }

    /// The share of cases whose value differs, in percent (0 with no case).
    #[must_use]
    pub fn value_share(&self) -> f64 {
        percent(self.value_errors.len() as u64, self.cases)
    }

    /// The share of measured moves that are worse than a best move, in percent.
    #[must_use]
    pub fn worse_share(&self) -> f64 {
        percent(self.move_losses.len() as u64, self.moves)
    }

    /// One line: `depth 3: 40 cases, value differs in 5 (12.5%; median 2, largest 7), move worse
    /// in 2 of 40 (5.0%; median 1, largest 3)`.
    fn line(&self, label: &str, decimals: Decimals) -> String {
        let spread = |errors: &[u64]| {
            let (median, largest) = median_and_largest(errors);
            let (median, largest) = (decimals.show_difference(median), decimals.show_difference(largest));
            if errors.is_empty() { String::new() } else { format!("; median {median}, largest {largest}") }
        };
        format!(
            "{label}: {} {}, value differs in {} ({:.1}%{}), move worse in {} of {} ({:.1}%{})",
            self.cases,
            if self.cases == 1 { "case" } else { "cases" },
            self.value_errors.len(),
            self.value_share(),
            spread(&self.value_errors),
            self.move_losses.len(),
            self.moves,
            self.worse_share(),
            spread(&self.move_losses)
        )
    }
}

fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        return 0.0;
    }
    #[allow(clippy::cast_precision_loss)] // counts of cases, far below 2^52
    let share = part as f64 * 100.0 / whole as f64;
    share
}

/// The median (the lower of the middle two) and the largest of `values`; zeros when empty.
fn median_and_largest(values: &[u64]) -> (u64, u64) {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let median = sorted.get(sorted.len().saturating_sub(1) / 2).copied().unwrap_or(0);
    (median, sorted.last().copied().unwrap_or(0))
}

/// The measures of a run, per depth.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Profile {
    /// Each depth's tally.
    pub by_depth: BTreeMap<u32, Tally>,
    /// Cases judged whose exact value was beyond the budget: not measured.
    pub unmeasured: u64,
}

impl Profile {
    /// Adds one case's measure.
    pub fn add(&mut self, measure: &Measure) {
        self.by_depth.entry(measure.depth).or_default().add(measure);
    }

    /// Every depth's tally together.
    #[must_use]
    pub fn total(&self) -> Tally {
        let mut total = Tally::default();
        for tally in self.by_depth.values() {
            total.cases += tally.cases;
            total.value_errors.extend(&tally.value_errors);
            total.moves += tally.moves;
            total.move_losses.extend(&tally.move_losses);
        }
        total
    }

    /// The share of measured moves worse than a best move, over every depth, in percent.
    #[must_use]
    pub fn worse_share(&self) -> f64 {
        self.total().worse_share()
    }

    /// The profile in lines: every depth together, then each depth, then the unmeasured cases.
    #[must_use]
    pub fn lines(&self) -> Vec<String> {
        self.lines_in(Decimals::NONE)
    }

    /// [`Profile::lines`] with the differences written as an engine with `decimals` writes values.
    #[must_use]
    pub fn lines_in(&self, decimals: Decimals) -> Vec<String> {
        let mut lines = vec![self.total().line("all depths", decimals)];
        lines.extend(
            self.by_depth.iter().map(|(depth, tally)| tally.line(&format!("  depth {depth}"), decimals)),
        );
        if self.unmeasured > 0 {
            lines.push(format!(
                "  not measured: {} (the exact value beyond --max-positions)",
                self.unmeasured
            ));
        }
        lines
    }

    /// A bar chart of the shares by depth, as a standalone SVG: for each depth, the share of cases
    /// whose value differs and the share whose move is worse, with `title` above.
    #[must_use]
    pub fn svg(&self, title: &str) -> String {
        const WIDTH: usize = 640;
        const HEIGHT: usize = 320;
        const LEFT: usize = 56;
        const BOTTOM: usize = 48;
        const TOP: usize = 40;
        let plot_height = HEIGHT - BOTTOM - TOP;
        let depths: Vec<(&u32, &Tally)> = self.by_depth.iter().collect();
        let slot = (WIDTH - LEFT - 16) / depths.len().max(1);
        let bar = (slot / 3).max(2);
        let mut svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
             viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"12\">\n\
             <title>{}</title>\n<rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"white\"/>\n\
             <text x=\"{LEFT}\" y=\"20\" font-size=\"14\">{}</text>\n",
            escape(title),
            escape(title)
        );
        for tick in [0, 25, 50, 75, 100] {
            let y = TOP + plot_height - plot_height * tick / 100;
            let _ = writeln!(
                svg,
                "<line x1=\"{LEFT}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"#ddd\"/>\
                 <text x=\"{}\" y=\"{}\" text-anchor=\"end\">{tick}%</text>",
                WIDTH - 16,
                LEFT - 6,
                y + 4
            );
        }
        let height_of = |share: f64| {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // 0 to 100% of the plot
            let height = (share.clamp(0.0, 100.0) * plot_height as f64 / 100.0).round() as usize;
            height
        };
        for (slot_index, (depth, tally)) in depths.iter().enumerate() {
            let x = LEFT + slot_index * slot + slot / 6;
            for (offset, share, colour, what) in [
                (0, tally.value_share(), "#4477aa", "value differs"),
                (bar, tally.worse_share(), "#ee6677", "move worse"),
            ] {
                let height = height_of(share);
                let _ = writeln!(
                    svg,
                    "<rect x=\"{}\" y=\"{}\" width=\"{bar}\" height=\"{height}\" fill=\"{colour}\">\
                     <title>depth {depth}: {what} in {share:.1}%</title></rect>",
                    x + offset,
                    TOP + plot_height - height
                );
            }
            let _ = writeln!(
                svg,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{depth}</text>",
                x + bar,
                TOP + plot_height + 16
            );
        }
        let _ = write!(
            svg,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">depth</text>\n\
             <rect x=\"{LEFT}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"#4477aa\"/>\
             <text x=\"{}\" y=\"{}\">value differs from the exact value</text>\n\
             <rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"#ee6677\"/>\
             <text x=\"{}\" y=\"{}\">move worse than a best move</text>\n</svg>\n",
            LEFT + (WIDTH - LEFT) / 2,
            HEIGHT - 22,
            HEIGHT - 14,
            LEFT + 14,
            HEIGHT - 5,
            LEFT + 260,
            HEIGHT - 14,
            LEFT + 274,
            HEIGHT - 5,
        );
        svg
    }
}

/// `text` safe inside an SVG element.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_medians_and_largest_are_counted_per_depth() {
        let mut profile = Profile::default();
        let measure = |depth, value, exact, move_loss| Measure { depth, value, exact, move_loss };
        for case in [
            measure(1, 3, 3, Some(0)),
            measure(1, 5, 3, Some(2)),
            measure(2, -4, 0, Some(0)),
            measure(2, 0, 0, None),
            measure(2, 1, 0, Some(7)),
        ] {
            profile.add(&case);
        }
        assert_eq!(
            profile.lines(),
            [
                "all depths: 5 cases, value differs in 3 (60.0%; median 2, largest 4), move worse in 2 of 4 \
                 (50.0%; median 2, largest 7)",
                "  depth 1: 2 cases, value differs in 1 (50.0%; median 2, largest 2), move worse in 1 of 2 \
                 (50.0%; median 2, largest 2)",
                "  depth 2: 3 cases, value differs in 2 (66.7%; median 1, largest 4), move worse in 1 of 2 \
                 (50.0%; median 7, largest 7)",
            ]
        );
        let svg = profile.svg("a <test>");
        assert!(svg.contains("a &lt;test&gt;") && svg.contains("depth 2: move worse in 50.0%"), "{svg}");
    }
}
