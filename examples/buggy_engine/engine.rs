//! A small engine as engine authors write one: negamax alpha-beta, fail-soft, a transposition table
//! of (depth, value, bound) entries, and iterative deepening. It is *not* one of the crate's
//! searches: it stands for your engine, and writes the per-node records `nullwindow audit` reads.
//!
//! Three realistic bugs can be switched on, one at a time ([`Bug`]); with none, the engine is exact.

use std::collections::HashMap;

use nullwindow::game::Game;
use nullwindow::tree::{NodeId, Tree};

/// The engine's infinity (any number above every value will do).
pub const INF: i32 = 1_000_000;

// ANCHOR: bugs
/// A planted bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bug {
    /// No bug: the engine returns exact values.
    None,
    /// A result at or below alpha (an upper bound) goes into the table as exact.
    FailLowStoredExact,
    /// A table entry answers a node searched deeper than the entry was: a shallower search's value
    /// passes for a deeper one.
    ShallowerEntry,
    /// At the horizon the evaluation is returned from the first player's side, not the mover's.
    HorizonSign,
}
// ANCHOR_END: bugs

impl Bug {
    /// Every bug, with the name the example's `--bug` takes.
    pub const ALL: [(&'static str, Self); 4] = [
        ("none", Self::None),
        ("fail-low-stored-exact", Self::FailLowStoredExact),
        ("shallower-entry", Self::ShallowerEntry),
        ("horizon-sign", Self::HorizonSign),
    ];
}

/// How a table entry bounds the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    /// The value.
    Exact,
    /// At least the value.
    Lower,
    /// At most the value.
    Upper,
}

impl Flag {
    /// The name audit records use.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Exact => "exact",
            Self::Lower => "lower",
            Self::Upper => "upper",
        }
    }
}

#[derive(Clone, Copy)]
struct Entry {
    depth: u32,
    value: i32,
    flag: Flag,
}

/// One node the engine searched, as it returned: values from the side to move (negamax).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Child indices from the root.
    pub path: Vec<u32>,
    /// The node.
    pub node: NodeId,
    /// The depth it was searched to.
    pub depth: u32,
    /// The window it was searched with.
    pub alpha: i32,
    /// The window's upper edge.
    pub beta: i32,
    /// What it returned.
    pub result: i32,
    /// How the result went into the table, if it did.
    pub stored: Option<Flag>,
}

impl Line {
    /// The record as one line of JSON, the format `nullwindow audit` reads.
    pub fn to_json(&self) -> String {
        let path: Vec<String> = self.path.iter().map(ToString::to_string).collect();
        let stored = self.stored.map_or_else(|| "null".to_owned(), |flag| format!("\"{}\"", flag.name()));
        format!(
            "{{\"path\":[{}],\"depth\":{},\"alpha\":{},\"beta\":{},\"result\":{},\"stored\":{stored}}}",
            path.join(","),
            self.depth,
            self.alpha,
            self.beta,
            self.result
        )
    }
}

/// The engine: a tree to search, a bug, a table, and the records of what it did.
pub struct Engine<'a> {
    tree: &'a Tree,
    bug: Bug,
    table: HashMap<NodeId, Entry>,
    /// Every node searched so far, in the order they returned.
    pub lines: Vec<Line>,
}

impl<'a> Engine<'a> {
    /// An engine with an empty table.
    pub fn new(tree: &'a Tree, bug: Bug) -> Self {
        Self { tree, bug, table: HashMap::new(), lines: Vec::new() }
    }

    /// Iterative deepening to `depth`: the value of the root from the side to move there.
    pub fn search(&mut self, depth: u32) -> i32 {
        let root = self.tree.root_id();
        let mut value = 0;
        for iteration in 1..=depth.max(1) {
            value = self.negamax(root, iteration, -INF, INF, &mut Vec::new());
        }
        value
    }

    fn negamax(
        &mut self,
        node: NodeId,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
        path: &mut Vec<u32>,
    ) -> i32 {
        let (alpha_in, beta_in) = (alpha, beta);
        if let Some(entry) = self.table.get(&node).copied() {
            let usable = if self.bug == Bug::ShallowerEntry { true } else { entry.depth == depth };
            if usable {
                match entry.flag {
                    Flag::Exact => {
                        return self.record(node, path, depth, (alpha_in, beta_in), entry.value, None);
                    }
                    Flag::Lower => alpha = alpha.max(entry.value),
                    Flag::Upper => beta = beta.min(entry.value),
                }
                if alpha >= beta {
                    return self.record(node, path, depth, (alpha_in, beta_in), entry.value, None);
                }
            }
        }
        let children = self.tree.children(node).to_vec();
        if depth == 0 || children.is_empty() {
            let for_max = self.tree.evaluate(&node);
            let horizon_bug = self.bug == Bug::HorizonSign && depth == 0;
            let value = if horizon_bug { for_max } else { self.tree.to_move(&node).perspective(for_max) };
            return self.record(node, path, depth, (alpha_in, beta_in), value, None);
        }
        let alpha_orig = alpha;
        let mut best = -INF;
        for (index, child) in children.into_iter().enumerate() {
            path.push(index as u32);
            let value = -self.negamax(child, depth - 1, -beta, -alpha.max(best), path);
            path.pop();
            best = best.max(value);
            if best >= beta {
                break;
            }
        }
        let flag = if best <= alpha_orig {
            if self.bug == Bug::FailLowStoredExact { Flag::Exact } else { Flag::Upper }
        } else if best >= beta {
            Flag::Lower
        } else {
            Flag::Exact
        };
        self.table.insert(node, Entry { depth, value: best, flag });
        self.record(node, path, depth, (alpha_in, beta_in), best, Some(flag))
    }

    fn record(
        &mut self,
        node: NodeId,
        path: &[u32],
        depth: u32,
        window: (i32, i32),
        result: i32,
        stored: Option<Flag>,
    ) -> i32 {
        let (alpha, beta) = window;
        self.lines.push(Line { path: path.to_vec(), node, depth, alpha, beta, result, stored });
        result
    }
}
