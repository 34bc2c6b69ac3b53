//! Seeded random game graphs with transpositions, identical for a given seed on every platform.
//!
//! A random [tree](super::random) reaches every position by one path. Real games reach one position
//! by several move orders, some of them longer than others, and that is where transposition tables
//! (and their bugs) live. This generator draws layered graphs that have both:
//!
//! * The root is level 0; levels `1..=plies` each get a number of nodes drawn from
//!   [`RandomGraphConfig::nodes`]. White (MAX) moves at even levels, Black (MIN) at odd ones.
//! * Every node above the last level draws a number of links from [`RandomGraphConfig::children`].
//!   A link goes one level down, or with [`RandomGraphConfig::skip_probability`] three levels down
//!   (two plies further, when there are that many levels), so that the same position is reached at
//!   different depths and colours still alternate. A node links to distinct children; when its
//!   levels have fewer nodes than it draws links, it gets fewer.
//! * Nodes on the last level are leaves. Every node, interior or leaf, gets an evaluation from
//!   [`RandomGraphConfig::values`], which a depth-limited search reads at a cut-off.
//! * Nodes that no link reaches from the root are left out, so a level may hold fewer nodes than
//!   drawn. Links only go down, so there is no cycle. Nodes are numbered in preorder from the root,
//!   as the `gtree` reader numbers them, so `gtree::parse(&gtree::print(&g)) == g`.
//!
//! Like the tree generator it draws from ChaCha8 with its own arithmetic (see [`super::random`]),
//! in a fixed order: the size of each level, then node by node, level by level, the evaluation, the
//! number of links and each link's level and child. A test pins the output for a seed.
//!
//! ```
//! use nullwindow::tree::gtree;
//! use nullwindow::tree::random_graph::RandomGraphConfig;
//!
//! // Two nodes on every level, two links per node, none skipping: each level's nodes are reached
//! // from both nodes above them.
//! let config = RandomGraphConfig {
//!     seed: 3, plies: 4, nodes: 2..=2, children: 2..=2, skip_probability: 0.0,
//!     ..RandomGraphConfig::default()
//! };
//! let graph = config.generate()?;
//! assert!(graph.has_shared_nodes());
//! assert_eq!(graph.stats().nodes, 9);
//! assert_eq!(graph, config.generate()?); // same seed, same graph
//! assert_eq!(gtree::parse(&gtree::print(&graph))?, graph);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::ops::RangeInclusive;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use super::random::{ConfigError, MAX_GENERATED_NODES, draw_below, draw_probability, draw_u32, draw_value};
use super::{Tree, from_child_lists};
use crate::game::Player;
use crate::value::{Value, is_admissible};

/// What random game graph to generate. See the [module documentation](self).
#[derive(Clone, Debug, PartialEq)]
pub struct RandomGraphConfig {
    /// The seed: the same seed and configuration give the same graph everywhere.
    pub seed: u64,
    /// Levels below the root; the leaves stand on the last. 0 makes the root a lone leaf.
    pub plies: u32,
    /// Nodes drawn for each level below the root (at least 1).
    pub nodes: RangeInclusive<u32>,
    /// Links drawn for each node above the last level (at least 1), each to a distinct child.
    pub children: RangeInclusive<u32>,
    /// The probability that a link skips two plies: from level `k` to `k + 3` instead of `k + 1`,
    /// where level `k + 3` exists.
    pub skip_probability: f64,
    /// Evaluations of every node, interior ones included (admissible).
    pub values: RangeInclusive<Value>,
}

impl Default for RandomGraphConfig {
    /// Seed 0, 4 plies, 2 to 4 nodes per level, 2 or 3 links per node, a link skipping with
    /// probability 0.25, evaluations -99 to 99.
    fn default() -> Self {
        Self { seed: 0, plies: 4, nodes: 2..=4, children: 2..=3, skip_probability: 0.25, values: -99..=99 }
    }
}

impl RandomGraphConfig {
    /// Checks the configuration: non-empty ranges, at least one node per level and one link per
    /// node, admissible values, a probability, and at most [`MAX_GENERATED_NODES`] nodes and as many
    /// links in the worst case.
    ///
    /// # Errors
    /// The first problem found.
    pub fn validate(&self) -> Result<(), ConfigError> {
        for (name, empty) in [
            ("nodes", self.nodes.start() > self.nodes.end()),
            ("children", self.children.start() > self.children.end()),
            ("values", self.values.start() > self.values.end()),
        ] {
            if empty {
                return Err(ConfigError::EmptyRange(name));
            }
        }
        if *self.nodes.start() == 0 {
            return Err(ConfigError::EmptyLevel);
        }
        if *self.children.start() == 0 {
            return Err(ConfigError::ZeroWidth);
        }
        if !is_admissible(*self.values.start()) || !is_admissible(*self.values.end()) {
            return Err(ConfigError::ValuesNotAdmissible);
        }
        if !(0.0..=1.0).contains(&self.skip_probability) {
            return Err(ConfigError::SkipProbability(self.skip_probability));
        }
        let worst_case_nodes =
            u64::from(self.plies).saturating_mul(u64::from(*self.nodes.end())).saturating_add(1);
        let worst_case_links = worst_case_nodes.saturating_mul(u64::from(*self.children.end()));
        if worst_case_nodes > MAX_GENERATED_NODES || worst_case_links > MAX_GENERATED_NODES {
            return Err(ConfigError::GraphTooLarge { worst_case_nodes, worst_case_links });
        }
        Ok(())
    }

    /// Generates the graph, without recursion.
    ///
    /// # Errors
    /// As [`RandomGraphConfig::validate`].
    pub fn generate(&self) -> Result<Tree, ConfigError> {
        self.validate()?;
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let plies = self.plies as usize;
        // Validation keeps every count below 2^25, so indices fit in u32 and usize alike.
        let mut level_sizes = vec![1usize];
        level_sizes.extend((0..plies).map(|_| draw_u32(&mut rng, &self.nodes) as usize));
        let mut first = vec![0usize];
        for size in &level_sizes {
            first.push(first.last().copied().unwrap_or(0) + size);
        }
        let total = first[plies + 1];
        let mut evaluations = Vec::with_capacity(total);
        let mut children: Vec<Vec<usize>> = Vec::with_capacity(total);
        // `chosen_by[child] == parent + 1` when `parent` already links to `child`: distinct children
        // at constant cost per draw.
        let mut chosen_by = vec![0usize; total];
        for level in 0..=plies {
            for node in first[level]..first[level + 1] {
                evaluations.push(draw_value(&mut rng, &self.values));
                let mut links = Vec::new();
                if level == plies {
                    children.push(links);
                    continue;
                }
                let near = level + 1;
                let far = (level + 3 <= plies).then_some(level + 3);
                let mut left =
                    [(near, level_sizes[near]), (far.unwrap_or(near), far.map_or(0, |l| level_sizes[l]))];
                for _ in 0..draw_u32(&mut rng, &self.children) {
                    let skip = far.is_some() && draw_probability(&mut rng) < self.skip_probability;
                    let preferred = usize::from(skip);
                    let Some(pick) = [preferred, 1 - preferred].into_iter().find(|&at| left[at].1 > 0) else {
                        break;
                    };
                    let target = left[pick].0;
                    let child = loop {
                        let index =
                            usize::try_from(draw_below(&mut rng, level_sizes[target] as u64)).unwrap_or(0);
                        let child = first[target] + index;
                        if chosen_by[child] != node + 1 {
                            break child;
                        }
                    };
                    chosen_by[child] = node + 1;
                    left[pick].1 -= 1;
                    links.push(child);
                }
                children.push(links);
            }
        }
        Ok(number_in_preorder(&children, &evaluations, &first))
    }
}

/// The graph reachable from node 0, renumbered in preorder as the `gtree` reader numbers it; a node's
/// colour is its level's (MAX on even levels).
fn number_in_preorder(children: &[Vec<usize>], evaluations: &[Value], first: &[usize]) -> Tree {
    let lists: Vec<Vec<u32>> = children
        .iter()
        .map(|links| links.iter().map(|&child| u32::try_from(child).unwrap_or(u32::MAX)).collect())
        .collect();
    from_child_lists(0, &lists, |node, _| {
        let node = node as usize;
        let level = first.partition_point(|&start| start <= node) - 1;
        (evaluations[node], if level % 2 == 0 { Player::Max } else { Player::Min })
    })
    .0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_configurations_say_what_is_wrong() {
        let cases = [
            (RandomGraphConfig { nodes: 0..=2, ..Default::default() }, ConfigError::EmptyLevel),
            (RandomGraphConfig { children: 0..=2, ..Default::default() }, ConfigError::ZeroWidth),
            (
                RandomGraphConfig { skip_probability: 1.5, ..Default::default() },
                ConfigError::SkipProbability(1.5),
            ),
            (
                RandomGraphConfig { values: 0..=1_000_000_000, ..Default::default() },
                ConfigError::ValuesNotAdmissible,
            ),
        ];
        for (config, error) in cases {
            assert_eq!(config.validate(), Err(error));
        }
        let huge = RandomGraphConfig { plies: 1000, nodes: 100_000..=100_000, ..Default::default() };
        let error = huge.validate().unwrap_err();
        assert!(matches!(error, ConfigError::GraphTooLarge { worst_case_nodes: 100_000_001, .. }), "{error}");
        assert!(error.to_string().contains("up to 100000001 nodes and 300000003 links"), "{error}");
    }

    #[test]
    fn zero_plies_is_a_lone_leaf_and_links_never_go_up() {
        let leaf = RandomGraphConfig { plies: 0, ..Default::default() }.generate().unwrap();
        assert_eq!(leaf.stats().nodes, 1);
        let graph = RandomGraphConfig { seed: 5, plies: 8, skip_probability: 0.5, ..Default::default() }
            .generate()
            .unwrap();
        // Every leaf stands on the last level, reached by paths of 8 plies or fewer by skips of two.
        let stats = graph.stats();
        assert!(stats.height <= 8 && stats.height.is_multiple_of(2), "{stats:?}");
        assert_eq!(graph.post_order().len(), graph.node_count(), "every node is reachable");
    }
}
