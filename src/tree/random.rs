//! Seeded random trees, identical for a given seed on every platform.
//!
//! The generator draws from ChaCha8 (`rand_chacha`), whose output stream is fixed by its
//! specification, and turns raw 64-bit words into ranges and coin flips with its own arithmetic, so no
//! change of a distribution algorithm in a dependency can change a tree. A test pins the output for
//! a few seeds.
//!
//! Shape rules, for a node at depth `k` (the root has depth 0) with the depth range `lo..=hi`:
//! * `k >= hi`: a leaf;
//! * `k < lo`: interior;
//! * otherwise a leaf with probability [`RandomTreeConfig::leaf_probability`].
//!
//! An interior node gets a width drawn from the width range; a leaf a value from the value range.
//! A **uniform** tree instead draws one width and one depth for the whole tree: every interior node
//! has that width and every leaf stands at that depth.
//!
//! ```
//! use nullwindow::tree::random::RandomTreeConfig;
//! let config = RandomTreeConfig { seed: 7, width: 2..=2, depth: 3..=3, ..RandomTreeConfig::default() };
//! let tree = config.generate()?;
//! assert_eq!(tree.stats().leaves, 8);
//! assert_eq!(tree, config.generate()?); // same seed, same tree
//! # Ok::<(), nullwindow::tree::random::ConfigError>(())
//! ```

use std::fmt;
use std::ops::RangeInclusive;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use super::{Tree, TreeBuilder};
use crate::value::{MAX_LEAF, MIN_LEAF, Value, is_admissible};

/// The most nodes a generated tree may have in the worst case its configuration allows.
pub const MAX_GENERATED_NODES: u64 = 1 << 25;

/// What random tree to generate.
#[derive(Clone, Debug, PartialEq)]
pub struct RandomTreeConfig {
    /// The seed: the same seed and configuration give the same tree everywhere.
    pub seed: u64,
    /// Children per interior node (at least 1).
    pub width: RangeInclusive<u32>,
    /// Depths at which leaves may stand.
    pub depth: RangeInclusive<u32>,
    /// Leaf values (admissible).
    pub values: RangeInclusive<Value>,
    /// The probability that a node between the shallowest and deepest leaf depth is a leaf.
    pub leaf_probability: f64,
    /// Whether every interior node has the same width and every leaf the same depth.
    pub uniform: bool,
    /// Static evaluations of interior nodes, drawn from this range (admissible), for depth-limited
    /// searches to read where they stop; `None` gives every interior node 0 and draws nothing, so
    /// that the trees of earlier versions stay as they were for each seed.
    pub interior_values: Option<RangeInclusive<Value>>,
}

impl Default for RandomTreeConfig {
    /// Seed 0, widths 2 to 4, leaves at depths 2 to 4, values -99 to 99, early leaves with
    /// probability 0.2, not uniform, interior evaluations 0.
    fn default() -> Self {
        Self {
            seed: 0,
            width: 2..=4,
            depth: 2..=4,
            values: -99..=99,
            leaf_probability: 0.2,
            uniform: false,
            interior_values: None,
        }
    }
}

/// Why a [`RandomTreeConfig`] cannot be generated.
#[derive(Clone, Debug, PartialEq)]
pub enum ConfigError {
    /// A range whose start is above its end.
    EmptyRange(&'static str),
    /// A width of 0: interior nodes need a child.
    ZeroWidth,
    /// A value range reaching outside the admissible leaf range.
    ValuesNotAdmissible,
    /// A probability outside `0..=1`.
    Probability(f64),
    /// The configuration allows trees larger than [`MAX_GENERATED_NODES`].
    TooLarge {
        /// The worst-case node count (saturated at `u64::MAX`).
        worst_case_nodes: u64,
    },
    /// A graph level of 0 nodes ([`RandomGraphConfig`](super::random_graph::RandomGraphConfig)):
    /// every level needs a node.
    EmptyLevel,
    /// A skip probability outside `0..=1`.
    SkipProbability(f64),
    /// The configuration allows graphs with more than [`MAX_GENERATED_NODES`] nodes or links.
    GraphTooLarge {
        /// The worst-case node count (saturated at `u64::MAX`).
        worst_case_nodes: u64,
        /// The worst-case count of links, parent to child (saturated at `u64::MAX`).
        worst_case_links: u64,
    },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::EmptyRange(what) => write!(f, "the {what} range is empty (its start is above its end)"),
            Self::ZeroWidth => f.write_str("a width of 0 is not allowed: interior nodes need a child"),
            Self::ValuesNotAdmissible => {
                write!(f, "values must lie in the admissible leaf range {MIN_LEAF}..={MAX_LEAF}")
            }
            Self::Probability(p) => write!(f, "the leaf probability {p} is not between 0 and 1"),
            Self::TooLarge { worst_case_nodes } => {
                let size = if *worst_case_nodes == u64::MAX {
                    "more than 10^19".to_owned()
                } else {
                    format!("up to {worst_case_nodes}")
                };
                write!(
                    f,
                    "these widths and depths allow trees of {size} nodes; the limit is {MAX_GENERATED_NODES}"
                )
            }
            Self::EmptyLevel => f.write_str("a level of 0 nodes is not allowed: every level needs a node"),
            Self::SkipProbability(p) => write!(f, "the skip probability {p} is not between 0 and 1"),
            Self::GraphTooLarge { worst_case_nodes, worst_case_links } => write!(
                f,
                "these levels, nodes and children allow graphs of up to {worst_case_nodes} nodes and \
                 {worst_case_links} links; the limit is {MAX_GENERATED_NODES} of each"
            ),
        }
    }
}

impl std::error::Error for ConfigError {}

impl RandomTreeConfig {
    /// Checks the configuration: non-empty ranges, widths of at least 1, admissible values, a
    /// probability, and a worst case of at most [`MAX_GENERATED_NODES`] nodes.
    ///
    /// # Errors
    /// The first problem found.
    pub fn validate(&self) -> Result<(), ConfigError> {
        for (name, empty) in [
            ("width", self.width.start() > self.width.end()),
            ("depth", self.depth.start() > self.depth.end()),
            ("values", self.values.start() > self.values.end()),
            (
                "interior values",
                self.interior_values.as_ref().is_some_and(|values| values.start() > values.end()),
            ),
        ] {
            if empty {
                return Err(ConfigError::EmptyRange(name));
            }
        }
        if *self.width.start() == 0 {
            return Err(ConfigError::ZeroWidth);
        }
        let ranges = std::iter::once(&self.values).chain(self.interior_values.as_ref());
        if ranges.flat_map(|values| [*values.start(), *values.end()]).any(|value| !is_admissible(value)) {
            return Err(ConfigError::ValuesNotAdmissible);
        }
        if !(0.0..=1.0).contains(&self.leaf_probability) {
            return Err(ConfigError::Probability(self.leaf_probability));
        }
        let worst_case_nodes = worst_case_nodes(u64::from(*self.width.end()), *self.depth.end());
        if worst_case_nodes > MAX_GENERATED_NODES {
            return Err(ConfigError::TooLarge { worst_case_nodes });
        }
        Ok(())
    }

    /// Generates the tree, without recursion.
    ///
    /// # Errors
    /// As [`RandomTreeConfig::validate`].
    pub fn generate(&self) -> Result<Tree, ConfigError> {
        self.validate()?;
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let (width, depth) = if self.uniform {
            let width = draw_u32(&mut rng, &self.width);
            let depth = draw_u32(&mut rng, &self.depth);
            (width..=width, depth..=depth)
        } else {
            (self.width.clone(), self.depth.clone())
        };
        let mut builder = TreeBuilder::new();
        // Children still to generate for each open node, the innermost last.
        let mut remaining: Vec<u32> = Vec::new();
        loop {
            let node_depth = u32::try_from(remaining.len()).unwrap_or(u32::MAX);
            let is_leaf = node_depth >= *depth.end()
                || (node_depth >= *depth.start() && draw_probability(&mut rng) < self.leaf_probability);
            // Validation bounds the tree far below u32::MAX nodes, and the events below are always
            // well formed, so the builder cannot refuse them.
            const WELL_FORMED: &str = "the generator's events are well formed";
            if !is_leaf {
                remaining.push(draw_u32(&mut rng, &width));
                let evaluation =
                    self.interior_values.as_ref().map_or(0, |values| draw_value(&mut rng, values));
                builder.open_evaluated(evaluation).expect(WELL_FORMED);
                continue;
            }
            builder.leaf(draw_value(&mut rng, &self.values)).expect(WELL_FORMED);
            // Close every node whose last child is now complete.
            loop {
                let Some(count) = remaining.last_mut() else {
                    return Ok(builder.finish().expect(WELL_FORMED));
                };
                *count -= 1;
                if *count > 0 {
                    break;
                }
                remaining.pop();
                builder.close().expect(WELL_FORMED);
            }
        }
    }
}

/// `1 + w + w^2 + … + w^d`, saturating.
fn worst_case_nodes(width: u64, depth: u32) -> u64 {
    let mut total = 1u64;
    let mut level = 1u64;
    for _ in 0..depth {
        level = level.saturating_mul(width);
        total = total.saturating_add(level);
    }
    total
}

/// A uniform integer in `0..span` (span ≥ 1), by rejection so that no value is favoured.
pub(crate) fn draw_below(rng: &mut ChaCha8Rng, span: u64) -> u64 {
    let zone = u64::MAX - (u64::MAX % span);
    loop {
        let word = rng.next_u64();
        if word < zone {
            return word % span;
        }
    }
}

pub(crate) fn draw_u32(rng: &mut ChaCha8Rng, range: &RangeInclusive<u32>) -> u32 {
    let span = u64::from(*range.end() - *range.start()) + 1;
    // The draw is below span, so the sum stays within the range.
    range.start() + u32::try_from(draw_below(rng, span)).unwrap_or(0)
}

pub(crate) fn draw_value(rng: &mut ChaCha8Rng, range: &RangeInclusive<Value>) -> Value {
    let span = u64::try_from(i64::from(*range.end()) - i64::from(*range.start()) + 1).unwrap_or(1);
    let offset = i64::try_from(draw_below(rng, span)).unwrap_or(0);
    Value::try_from(i64::from(*range.start()) + offset).unwrap_or(*range.start())
}

/// A uniform float in `[0, 1)` from the top 53 bits of a word.
pub(crate) fn draw_probability(rng: &mut ChaCha8Rng) -> f64 {
    #[allow(clippy::cast_precision_loss)] // 53 bits convert exactly
    let mantissa = (rng.next_u64() >> 11) as f64;
    mantissa / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_trees_have_the_drawn_width_everywhere() {
        let config =
            RandomTreeConfig { seed: 3, width: 3..=3, depth: 4..=4, uniform: true, ..Default::default() };
        let stats = config.generate().unwrap().stats();
        assert_eq!((stats.leaves, stats.nodes, stats.height), (81, 121, 4));
    }

    #[test]
    fn either_end_of_the_values_outside_the_admissible_range_is_refused() {
        let huge = crate::value::MAX_LEAF + 1;
        for values in [0..=huge, -huge..=0] {
            let config = RandomTreeConfig { values, ..Default::default() };
            assert_eq!(config.validate(), Err(ConfigError::ValuesNotAdmissible));
        }
    }

    #[test]
    fn a_tree_of_exactly_the_largest_size_is_allowed() {
        // A chain of 2^25 nodes: the worst case equals the limit, which is allowed.
        let depth = u32::try_from(MAX_GENERATED_NODES - 1).unwrap();
        let config = RandomTreeConfig { width: 1..=1, depth: depth..=depth, ..Default::default() };
        assert_eq!(config.validate(), Ok(()));
        let deeper = RandomTreeConfig { depth: depth + 1..=depth + 1, ..config };
        assert!(deeper.validate().is_err());
    }

    #[test]
    fn single_value_ranges_are_not_empty_and_empty_ones_name_themselves() {
        let one = RandomTreeConfig { width: 2..=2, depth: 3..=3, values: 5..=5, ..Default::default() };
        assert_eq!(one.validate(), Ok(()));
        #[allow(clippy::reversed_empty_ranges)]
        let empty = RandomTreeConfig { values: 5..=4, ..Default::default() };
        let error = empty.validate().unwrap_err();
        assert_eq!(error, ConfigError::EmptyRange("values"));
        assert_eq!(error.to_string(), "the values range is empty (its start is above its end)");
    }

    #[test]
    fn too_large_says_how_large() {
        let saturated = ConfigError::TooLarge { worst_case_nodes: u64::MAX };
        assert!(saturated.to_string().contains("more than 10^19 nodes"), "{saturated}");
        let counted = ConfigError::TooLarge { worst_case_nodes: 1 << 40 };
        assert!(counted.to_string().contains(&format!("up to {} nodes", 1u64 << 40)), "{counted}");
    }

    #[test]
    fn refuses_trees_that_could_be_too_large() {
        let config = RandomTreeConfig { width: 1000..=1000, depth: 10..=10, ..Default::default() };
        assert!(matches!(config.generate(), Err(ConfigError::TooLarge { .. })));
    }

    #[test]
    fn interior_evaluations_are_drawn_only_when_asked_for() {
        let plain = RandomTreeConfig { seed: 5, ..Default::default() };
        let evaluated = RandomTreeConfig { interior_values: Some(1..=9), ..plain.clone() };
        let (plain, evaluated) = (plain.generate().unwrap(), evaluated.generate().unwrap());
        let interior = |tree: &Tree| -> Vec<Value> {
            tree.post_order().into_iter().filter(|&n| !tree.is_leaf(n)).map(|n| tree.evaluation(n)).collect()
        };
        assert!(interior(&plain).iter().all(|&e| e == 0));
        assert!(interior(&evaluated).iter().all(|e| (1..=9).contains(e)));
        let outside = RandomTreeConfig { interior_values: Some(0..=MAX_LEAF + 1), ..Default::default() };
        assert_eq!(outside.validate(), Err(ConfigError::ValuesNotAdmissible));
    }

    #[test]
    fn depth_zero_is_a_single_leaf() {
        let config = RandomTreeConfig { depth: 0..=0, ..Default::default() };
        assert_eq!(config.generate().unwrap().stats().nodes, 1);
    }
}
