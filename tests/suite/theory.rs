//! The theory as executable properties: what the literature proves each algorithm searches.
//!
//! * SSS* = MT-SSS*: on fixed-depth trees, with a table that keeps every node, MTD(+INFINITY) evaluates
//!   the same leaves in the same order as Stockman's SSS* with its OPEN list (ties broken leftmost);
//!   the same for DUAL* and MTD(-INFINITY) (Plaat, Schaeffer, Pijls and de Bruin 1996; de Bruin, Pijls
//!   and Plaat 1994).
//! * Dominance, on the same move order: SSS* (Stockman 1979), MTD-bi = C* with enough memory (Coplan),
//!   and NegaScout/PVS (Reinefeld) never evaluate a leaf that fail-soft alpha-beta prunes.

use std::collections::HashSet;

use nullwindow::literal::Literal;
use nullwindow::registry::SearchParams;
use nullwindow::tree::{NodeId, Tree};
use nullwindow::value::Value;
use proptest::prelude::*;

use crate::strategies::Shape;

/// Uniform trees (every leaf at the same depth, the condition of the SSS* theorems): width 2 to 4,
/// depth 1 to 5, values from `values`.
fn uniform_trees(values: impl Strategy<Value = Value> + Clone + 'static) -> impl Strategy<Value = Tree> {
    (2usize..=4, 1u32..=5).prop_flat_map(move |(width, depth)| {
        let leaves = width.pow(depth);
        prop::collection::vec(values.clone(), leaves).prop_map(move |values| {
            fn build(width: usize, depth: u32, values: &mut impl Iterator<Item = Value>) -> Shape {
                if depth == 0 {
                    Shape::Leaf(values.next().unwrap())
                } else {
                    Shape::Node((0..width).map(|_| build(width, depth - 1, values)).collect())
                }
            }
            build(width, depth, &mut values.into_iter()).to_tree()
        })
    })
}

fn values() -> impl Strategy<Value = Value> + Clone {
    prop_oneof![0..=20, -1000..=1000]
}

/// The leaves a driver evaluates, each at its first evaluation, in order.
fn first_evaluations(literal: Literal, tree: &Tree) -> Vec<NodeId> {
    let (_, evaluated) = literal.run_recording_leaves(tree, &SearchParams::default());
    let mut seen = HashSet::new();
    evaluated.into_iter().filter(|node| seen.insert(*node)).collect()
}

fn leaf_set(literal: Literal, tree: &Tree) -> HashSet<NodeId> {
    first_evaluations(literal, tree).into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn mt_sss_evaluates_the_leaves_of_stockmans_sss_in_the_same_order(tree in uniform_trees(values())) {
        prop_assert_eq!(first_evaluations(Literal::MtSss, &tree), first_evaluations(Literal::StockmanSss, &tree), "{}", tree);
    }

    #[test]
    fn mt_dual_evaluates_the_leaves_of_dual_in_the_same_order(tree in uniform_trees(values())) {
        prop_assert_eq!(first_evaluations(Literal::MtDual, &tree), first_evaluations(Literal::StockmanDual, &tree), "{}", tree);
    }

    #[test]
    fn sss_mtd_bi_and_pvs_never_evaluate_a_leaf_alpha_beta_prunes(tree in uniform_trees(values())) {
        // Fail-soft alpha-beta without memory, left to right: Kornilov's listing.
        let alpha_beta = leaf_set(Literal::KornilovAlphaBeta, &tree);
        for literal in [Literal::StockmanSss, Literal::MtSss, Literal::MtBiCorrected, Literal::VerhelstPrincipalVariation] {
            let extra: Vec<NodeId> = leaf_set(literal, &tree).difference(&alpha_beta).copied().collect();
            prop_assert!(extra.is_empty(), "{} evaluates {:?}, which alpha-beta prunes, on {}", literal.info().name, extra, tree);
        }
    }
}
