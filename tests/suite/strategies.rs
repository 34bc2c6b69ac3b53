//! Random trees for property tests: a proptest strategy that shrinks towards small trees with small
//! values, and a quickcheck `Arbitrary` wrapper.

use nullwindow::driver::SearchParams;
use nullwindow::tree::{Tree, TreeBuilder, gtree};
use nullwindow::value::{MAX_LEAF, MIN_LEAF, Value};
use proptest::prelude::*;

/// A tree as nested values, the form proptest generates and shrinks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A leaf with its value.
    Leaf(Value),
    /// An interior node with its children (at least one).
    Node(Vec<Shape>),
}

impl Shape {
    /// The tree this shape describes (root MAX, levels alternating, interior evaluations 0).
    pub fn to_tree(&self) -> Tree {
        let mut builder = TreeBuilder::new();
        // Explicit stack: each entry is a shape and whether its node is already open.
        let mut stack = vec![(self, false)];
        while let Some((shape, opened)) = stack.pop() {
            match shape {
                Shape::Leaf(value) => builder.leaf(*value).unwrap(),
                Shape::Node(_) if opened => builder.close().unwrap(),
                Shape::Node(children) => {
                    builder.open().unwrap();
                    stack.push((shape, true));
                    stack.extend(children.iter().rev().map(|child| (child, false)));
                }
            }
        }
        builder.finish().unwrap()
    }
}

/// Irregular trees: widths 1 to `max_width`, depth at most `max_depth`, leaf values in `values`.
pub fn shapes(
    max_width: usize,
    max_depth: u32,
    values: impl Strategy<Value = Value> + 'static,
) -> BoxedStrategy<Shape> {
    let leaf = values.prop_map(Shape::Leaf);
    leaf.prop_recursive(max_depth, 4096, max_width as u32, move |inner| {
        prop::collection::vec(inner, 1..=max_width).prop_map(Shape::Node)
    })
    .boxed()
}

/// The default random trees of the test suite: widths 1 to 6, depths 0 to 8, narrow values (so that
/// ties, the hard case for bounds, are common).
pub fn trees() -> impl Strategy<Value = Tree> {
    shapes(6, 8, -10..=10).prop_map(|shape| shape.to_tree())
}

/// Every tree of exactly `nodes` nodes with leaf values from `values`, in a fixed order.
pub fn all_shapes(nodes: usize, values: &[Value]) -> Vec<Shape> {
    if nodes == 1 {
        return values.iter().map(|&v| Shape::Leaf(v)).collect();
    }
    all_forests(nodes - 1, values).into_iter().map(Shape::Node).collect()
}

/// Every non-empty sequence of trees with `nodes` nodes in all.
fn all_forests(nodes: usize, values: &[Value]) -> Vec<Vec<Shape>> {
    let mut forests = Vec::new();
    for first in 1..=nodes {
        for head in all_shapes(first, values) {
            if first == nodes {
                forests.push(vec![head.clone()]);
            } else {
                for tail in all_forests(nodes - first, values) {
                    let mut forest = vec![head.clone()];
                    forest.extend(tail);
                    forests.push(forest);
                }
            }
        }
    }
    forests
}

/// A quickcheck tree: widths 1 to 4, depth at most 5, values -20 to 20.
#[derive(Clone, Debug)]
pub struct QuickTree(pub Shape);

impl quickcheck::Arbitrary for QuickTree {
    fn arbitrary(g: &mut quickcheck::Gen) -> Self {
        fn grow(g: &mut quickcheck::Gen, depth: u32) -> Shape {
            let leaf = depth == 0 || <u8 as quickcheck::Arbitrary>::arbitrary(g) % 4 == 0;
            if leaf {
                Shape::Leaf(i32::from(<i8 as quickcheck::Arbitrary>::arbitrary(g)) % 21)
            } else {
                let width = 1 + usize::from(<u8 as quickcheck::Arbitrary>::arbitrary(g)) % 4;
                Shape::Node((0..width).map(|_| grow(g, depth - 1)).collect())
            }
        }
        Self(grow(g, 5))
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        match &self.0 {
            Shape::Leaf(value) => {
                Box::new(quickcheck::Arbitrary::shrink(value).map(|v| Self(Shape::Leaf(v))))
            }
            Shape::Node(children) => {
                // Replace the node by one of its children, or drop a child.
                let mut smaller: Vec<Self> = children.iter().cloned().map(Self).collect();
                if children.len() > 1 {
                    for skip in 0..children.len() {
                        let mut rest = children.clone();
                        rest.remove(skip);
                        smaller.push(Self(Shape::Node(rest)));
                    }
                }
                Box::new(smaller.into_iter())
            }
        }
    }
}

/// Layered game graphs with transpositions reached at different depths: a node at level `k` takes
/// children from levels `k + 1` and `k + 3`, so one position can sit two plies deeper on another path.
pub fn game_graphs() -> impl Strategy<Value = Tree> {
    game_graphs_valued(|evaluation| evaluation % 50)
}

/// [`game_graphs`] whose evaluations lie on both sides of the edges of 16 bits (±32,768), where the
/// transposition table keeps a bound only weaker: most near an edge, a few small.
pub fn game_graphs_across_sixteen_bits() -> impl Strategy<Value = Tree> {
    game_graphs_valued(|evaluation| {
        let near = [32_766, 32_767, 32_768, 32_769, 40_000];
        let small = evaluation % 50;
        let wide = small.signum() * near[(evaluation.unsigned_abs() % 5) as usize] + evaluation % 3;
        if evaluation % 4 == 0 { small } else { wide }
    })
}

/// [`game_graphs`] with each node's evaluation drawn from the leaf range and mapped by `value`.
fn game_graphs_valued(value: fn(Value) -> Value) -> impl Strategy<Value = Tree> {
    (2usize..=6, prop::collection::vec(1usize..=4, 6))
        .prop_flat_map(|(levels, sizes)| {
            let sizes: Vec<usize> = sizes[..levels].to_vec();
            let total: usize = sizes.iter().sum();
            (
                Just(sizes),
                prop::collection::vec(
                    (
                        MIN_LEAF / 2..=MAX_LEAF / 2,
                        prop::collection::vec((any::<bool>(), any::<prop::sample::Index>()), 1..=3),
                    ),
                    total,
                ),
            )
        })
        .prop_map(move |(sizes, nodes)| {
            let mut first = vec![0usize];
            for size in &sizes {
                first.push(first.last().unwrap() + size);
            }
            let mut text = String::new();
            let mut index = 0;
            for (level, &size) in sizes.iter().enumerate() {
                for _ in 0..size {
                    let (evaluation, choices) = &nodes[index];
                    let colour = if level % 2 == 0 { 'W' } else { 'B' };
                    let evaluation = value(*evaluation);
                    text.push_str(&format!("n{index} {evaluation} {colour}"));
                    if level + 1 < sizes.len() {
                        for (far, pick) in choices {
                            let target = if *far && level + 3 < sizes.len() { level + 3 } else { level + 1 };
                            text.push_str(&format!(" n{}", first[target] + pick.index(sizes[target])));
                        }
                    }
                    text.push('\n');
                    index += 1;
                }
            }
            // Nodes that no line above picks are not part of the graph.
            gtree::parse_with_root(&text, "n0").unwrap()
        })
}

/// An engine that searches moves in the game's own order: no iterative deepening, killers, history or
/// table move, so that a perfectly ordered tree stays perfectly ordered.
pub fn game_order_only() -> SearchParams {
    SearchParams { killers: false, history: false, table_move_first: false, ..SearchParams::default() }
}

/// The engine as a program runs it: the defaults, deepening iteratively from depth 1.
pub fn deepening() -> SearchParams {
    SearchParams { iterative_deepening: true, ..SearchParams::default() }
}

/// Wesselink et al.'s counterexample graph (`testdata/trees/wesselink-ttm-counterexample.gtree`) with
/// every evaluation redrawn from -5 to 5: the shape that breaks Marsland's scheme (a position reached
/// at two depths, below a chain of single moves), with other numbers.
pub fn study_shapes() -> impl Strategy<Value = Tree> {
    let source = include_str!("../../testdata/trees/wesselink-ttm-counterexample.gtree");
    let lines: Vec<&'static str> = source.lines().filter(|line| !line.starts_with('#')).collect();
    prop::collection::vec(-5..=5 as Value, lines.len()).prop_map(move |values| {
        let mut text = String::new();
        for (line, value) in lines.iter().zip(values) {
            let mut words: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
            words[1] = value.to_string();
            text.push_str(&words.join(" "));
            text.push('\n');
        }
        gtree::parse(&text).unwrap()
    })
}

/// Game graphs with positions reached at two depths: random layered ones, or the study's shape.
pub fn graphs_with_transpositions() -> impl Strategy<Value = Tree> {
    prop_oneof![game_graphs(), study_shapes()]
}
