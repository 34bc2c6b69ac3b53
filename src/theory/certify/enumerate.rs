//! The shapes and graphs a certificate enumerates: plane trees by their number of nodes or leaves,
//! and small game graphs with a transposition in a canonical form.

use std::collections::HashMap;

use crate::game::Player;
use crate::tree::{Tree, TreeBuilder};

/// A shape: the preorder of a tree, `true` opening an interior node (closed by `false` after its
/// children), `None` a leaf.
pub(super) type Shape = Vec<Option<bool>>;

/// Every shape of exactly `nodes` nodes (plane trees: the Catalan numbers 1, 1, 2, 5, 14, 42, 132 …),
/// one-child interior nodes included.
pub(super) fn shapes(nodes: usize, memo: &mut HashMap<usize, Vec<Shape>>) -> Vec<Shape> {
    if let Some(known) = memo.get(&nodes) {
        return known.clone();
    }
    let mut all = if nodes == 1 { vec![vec![None]] } else { Vec::new() };
    if nodes > 1 {
        for forest in forests(nodes - 1, memo) {
            let mut shape = vec![Some(true)];
            shape.extend(forest);
            shape.push(Some(false));
            all.push(shape);
        }
    }
    memo.insert(nodes, all.clone());
    all
}

/// Every non-empty sequence of shapes with `nodes` nodes in all, concatenated.
fn forests(nodes: usize, memo: &mut HashMap<usize, Vec<Shape>>) -> Vec<Shape> {
    let mut all = Vec::new();
    for first in 1..=nodes {
        let heads = shapes(first, memo);
        let tails = if first == nodes { vec![Vec::new()] } else { forests(nodes - first, memo) };
        for head in &heads {
            for tail in &tails {
                let mut forest = head.clone();
                forest.extend_from_slice(tail);
                all.push(forest);
            }
        }
    }
    all
}

/// Every game graph of exactly `nodes` nodes with a node of two parents, in canonical form: edges
/// go from lower to higher numbers, sides alternate along every edge, and numbering the graph in
/// depth-first preorder from node 0 leaves it as it is. As child lists.
pub(super) fn graphs(nodes: usize) -> Vec<Vec<Vec<u32>>> {
    let mut all = Vec::new();
    // Parent sets first: node j takes a non-empty set of earlier parents, of the other parity.
    let mut parents: Vec<Vec<u32>> = vec![Vec::new()];
    fn choose(
        nodes: usize,
        parents: &mut Vec<Vec<u32>>,
        depth_parity: &mut Vec<u8>,
        all: &mut Vec<Vec<Vec<u32>>>,
    ) {
        let j = parents.len();
        if j == nodes {
            if parents.iter().any(|p| p.len() > 1) {
                orderings(parents, all);
            }
            return;
        }
        for mask in 1u32..(1 << j) {
            let chosen: Vec<u32> = (0..j as u32).filter(|&p| mask & (1 << p) != 0).collect();
            let parity = depth_parity[chosen[0] as usize] ^ 1;
            if chosen.iter().any(|&p| depth_parity[p as usize] ^ 1 != parity) {
                continue;
            }
            parents.push(chosen);
            depth_parity.push(parity);
            choose(nodes, parents, depth_parity, all);
            parents.pop();
            depth_parity.pop();
        }
    }
    choose(nodes, &mut parents, &mut vec![0], &mut all);
    all
}

/// Every ordering of each node's children for the parent sets `parents`, kept when it is
/// canonical (its depth-first preorder is the numbering itself).
fn orderings(parents: &[Vec<u32>], all: &mut Vec<Vec<Vec<u32>>>) {
    let nodes = parents.len();
    let mut children: Vec<Vec<u32>> = vec![Vec::new(); nodes];
    for (child, of) in parents.iter().enumerate() {
        for &parent in of {
            children[parent as usize].push(child as u32);
        }
    }
    fn permutations(list: &[u32]) -> Vec<Vec<u32>> {
        if list.len() <= 1 {
            return vec![list.to_vec()];
        }
        let mut all = Vec::new();
        for (i, &first) in list.iter().enumerate() {
            let rest: Vec<u32> = list.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &x)| x).collect();
            for mut tail in permutations(&rest) {
                tail.insert(0, first);
                all.push(tail);
            }
        }
        all
    }
    let choices: Vec<Vec<Vec<u32>>> = children.iter().map(|list| permutations(list)).collect();
    let mut picked = vec![0usize; nodes];
    loop {
        let candidate: Vec<Vec<u32>> = (0..nodes).map(|n| choices[n][picked[n]].clone()).collect();
        if is_preorder(&candidate) {
            all.push(candidate);
        }
        // The next combination, like an odometer.
        let mut n = 0;
        while n < nodes {
            picked[n] += 1;
            if picked[n] < choices[n].len() {
                break;
            }
            picked[n] = 0;
            n += 1;
        }
        if n == nodes {
            return;
        }
    }
}

/// Whether a depth-first walk from node 0, children in order, first reaches the nodes in the order
/// of their numbers.
fn is_preorder(children: &[Vec<u32>]) -> bool {
    let mut seen = vec![false; children.len()];
    let mut next = 0u32;
    let mut stack = vec![(0u32, 0usize)];
    seen[0] = true;
    if next != 0 {
        return false;
    }
    next += 1;
    while let Some((node, index)) = stack.last_mut() {
        let node = *node;
        let Some(&child) = children[node as usize].get(*index) else {
            stack.pop();
            continue;
        };
        *index += 1;
        if !seen[child as usize] {
            if child != next {
                return false;
            }
            seen[child as usize] = true;
            next += 1;
            stack.push((child, 0));
        }
    }
    next as usize == children.len()
}

/// Every shape of exactly `leaves` leaves whose interior nodes have at least two children (plane
/// trees counted by the little Schröder numbers 1, 1, 3, 11, 45, 197, 903, 4279 …).
pub(super) fn branching_shapes(leaves: usize, memo: &mut HashMap<usize, Vec<Shape>>) -> Vec<Shape> {
    if let Some(known) = memo.get(&leaves) {
        return known.clone();
    }
    let mut all = if leaves == 1 { vec![vec![None]] } else { Vec::new() };
    if leaves > 1 {
        for forest in branching_forests(leaves, 2, memo) {
            let mut shape = vec![Some(true)];
            shape.extend(forest);
            shape.push(Some(false));
            all.push(shape);
        }
    }
    memo.insert(leaves, all.clone());
    all
}

/// Every sequence of at least `at_least` branching shapes with `leaves` leaves in all, concatenated.
fn branching_forests(leaves: usize, at_least: usize, memo: &mut HashMap<usize, Vec<Shape>>) -> Vec<Shape> {
    let mut all = if at_least == 0 && leaves == 0 { vec![Vec::new()] } else { Vec::new() };
    // Every shape has a leaf, so the rest must leave one for each shape still owed.
    for first in 1..=leaves.saturating_sub(at_least.saturating_sub(1)) {
        let heads = branching_shapes(first, memo);
        let tails = branching_forests(leaves - first, at_least.saturating_sub(1), memo);
        for head in &heads {
            for tail in &tails {
                let mut forest = head.clone();
                forest.extend_from_slice(tail);
                all.push(forest);
            }
        }
    }
    all
}

/// The tree of `shape`, MAX at the root, every evaluation 0 (the certificate decides them as they
/// are read).
pub(super) fn build(shape: &Shape) -> Tree {
    let mut builder = TreeBuilder::new();
    const WELL_FORMED: &str = "shapes are well formed";
    for step in shape {
        match step {
            None => builder.leaf(0).expect(WELL_FORMED),
            Some(true) => builder.open_evaluated(0).expect(WELL_FORMED),
            Some(false) => builder.close().expect(WELL_FORMED),
        }
    }
    builder.finish().expect(WELL_FORMED)
}

/// The game graph of `children` (canonical, so numbered as given) with `root` to move at node 0,
/// every evaluation 0.
pub(super) fn graph(children: &[Vec<u32>], root: Player) -> Tree {
    crate::tree::from_child_lists(0, children, |_, parent| (0, parent.map_or(root, Player::opponent))).0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_enumerations_count_what_the_literature_counts() {
        let mut memo = HashMap::new();
        // Catalan numbers (OEIS A000108) and Fubini numbers (OEIS A000670).
        let counts: Vec<usize> = (1..=7).map(|n| shapes(n, &mut memo).len()).collect();
        assert_eq!(counts, [1, 1, 2, 5, 14, 42, 132]);
        // Little Schröder numbers (OEIS A001003).
        let branching: Vec<usize> = (1..=8).map(|n| branching_shapes(n, &mut HashMap::new()).len()).collect();
        assert_eq!(branching, [1, 1, 3, 11, 45, 197, 903, 4279]);
    }

    #[test]
    fn graphs_are_canonical_alternating_and_share_a_node() {
        for nodes in 4..=5 {
            let all = graphs(nodes);
            assert!(!all.is_empty());
            for children in &all {
                assert!(is_preorder(children));
                let (tree, order) = crate::tree::from_child_lists(0, children, |_, parent| {
                    (0, parent.map_or(Player::Max, Player::opponent))
                });
                assert!(tree.has_shared_nodes());
                assert_eq!(
                    order,
                    (0..nodes as u32).collect::<Vec<_>>(),
                    "numbered as the reader numbers them"
                );
            }
            let unique: std::collections::HashSet<_> = all.iter().collect();
            assert_eq!(unique.len(), all.len(), "each graph once");
        }
    }
}
