//! Sequences of windows on one table: the searches with memory called again and again, as MTD(f),
//! iterative deepening and a real engine call them, each call judged by the fail-soft contract.
//!
//! A driver makes the calls its source prints, so a bug that only a sequence it never makes would
//! show stays hidden from the driver rows. Here a table search gets every sequence of
//! [`Scope::windows`](super::Scope::windows) windows on one table: the window edges are values too,
//! placed in the weak order with the values the calls read (each edge read before the first call).
//! Every call's result `g` must keep the contract with the depth-`d` value `v`: `g <= alpha`
//! implies `v <= g`, `g >= beta` implies `v >= g`, and otherwise `g == v`. Each holds for every
//! filling of the unread values exactly when it holds with them all below and all above what was
//! read, since each asks that `v` lie in an interval.

use std::fmt;

use super::classes::Reading;
use crate::driver::{Hooks, SearchParams};
use crate::game::{Game, Player};
use crate::literal::memory::Memory;
use crate::literal::{Search, plaat, wikipedia_ja};
use crate::search::Engine;
use crate::search::alphabeta::alpha_beta;
use crate::tree::Tree;
use crate::value::Value;

/// A search with memory that the certificate calls with a sequence of windows on one table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableSearch {
    /// Plaat's `AlphaBetaWithMemory`, its table keyed by node as printed.
    Plaat,
    /// Plaat's `AlphaBetaWithMemory` over a table keyed by node and depth.
    PlaatCorrected,
    /// The Japanese Wikipedia's `AlphaBetaWithMemory`, as printed.
    WikipediaJa,
    /// The Japanese Wikipedia's `AlphaBetaWithMemory` with its corrections.
    WikipediaJaCorrected,
    /// The engine's [`alpha_beta`], each call a root search of its own on the engine's table.
    Engine,
}

impl TableSearch {
    /// Every table search the certificate calls.
    pub const ALL: [Self; 5] =
        [Self::Plaat, Self::PlaatCorrected, Self::WikipediaJa, Self::WikipediaJaCorrected, Self::Engine];

    /// The name its row carries.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Plaat => "plaat AlphaBetaWithMemory",
            Self::PlaatCorrected => "plaat AlphaBetaWithMemory corrected",
            Self::WikipediaJa => "wikipedia-ja AlphaBetaWithMemory",
            Self::WikipediaJaCorrected => "wikipedia-ja AlphaBetaWithMemory corrected",
            Self::Engine => "engine alpha_beta",
        }
    }

    /// Whether it keeps the contract on every sequence (the printed listings do not).
    #[must_use]
    pub const fn exact(self) -> bool {
        matches!(self, Self::PlaatCorrected | Self::WikipediaJaCorrected | Self::Engine)
    }

    /// The result of each call, `windows` in turn on one table, searched `depth` plies deep from
    /// `game`'s root; windows and results from MAX's side. Every window must be non-empty and
    /// within `±INFINITY`.
    pub fn run<G: Game>(self, game: &G, depth: u32, windows: &[(Value, Value)]) -> Vec<Value> {
        let root = game.root();
        let literal =
            |memory: Memory,
             corrected: bool,
             search: fn(&mut Search<'_, G>, &G::Position, Value, Value, u32) -> Value| {
                let mut state = Search::new(game, memory, Hooks::default());
                state.corrected = corrected;
                windows.iter().map(|&(alpha, beta)| search(&mut state, &root, alpha, beta, depth)).collect()
            };
        match self {
            Self::Plaat => literal(Memory::keyed_by_node(), false, plaat::alpha_beta_with_memory),
            Self::PlaatCorrected => {
                literal(Memory::keyed_by_node_and_depth(), true, plaat::alpha_beta_with_memory)
            }
            Self::WikipediaJa => {
                literal(Memory::keyed_by_node(), false, wikipedia_ja::alpha_beta_with_memory)
            }
            Self::WikipediaJaCorrected => {
                literal(Memory::keyed_by_node_and_depth(), true, wikipedia_ja::alpha_beta_with_memory)
            }
            Self::Engine => {
                let params =
                    SearchParams { depth, tt_entries: super::TABLE_ENTRIES, ..SearchParams::default() };
                let mut engine = Engine::new(&params);
                let side = game.to_move(&root);
                windows
                    .iter()
                    .map(|&(alpha, beta)| {
                        // The engine searches in negamax form: the window from the side to move.
                        let (low, high) = match side {
                            Player::Max => (alpha, beta),
                            Player::Min => (-beta, -alpha),
                        };
                        let g = engine.with_searcher(game, &params, |searcher| {
                            alpha_beta(searcher, &root, depth, low, high, 0)
                        });
                        side.perspective(g)
                    })
                    .collect()
            }
        }
    }
}

/// One sequence of windows on one table, a counterexample to a table search's contract.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SequenceCase {
    /// The tree or graph.
    pub tree: Tree,
    /// The depth of every call.
    pub depth: u32,
    /// The windows, in the order of the calls, up to the first call that breaks the contract.
    pub windows: Vec<(Value, Value)>,
}

impl fmt::Display for SequenceCase {
    /// The tree on one line, the depth, the windows.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        super::write_tree_and_depth(f, &self.tree, self.depth)?;
        let windows: Vec<String> =
            self.windows.iter().map(|(alpha, beta)| format!("({alpha}, {beta})")).collect();
        write!(f, ", windows {}", windows.join(" then "))
    }
}

/// Runs `search` on every class of values of `tree` at `depth` with every sequence of `length`
/// windows, calling `wrong` with the class's number and the counterexample for every class where a
/// call breaks the contract. Returns the runs made (classes whose windows are not empty).
pub(super) fn run_sequences(
    tree: &Tree,
    depth: u32,
    search: TableSearch,
    length: usize,
    shared_interior: bool,
    mut wrong: impl FnMut(u64, SequenceCase),
) -> u64 {
    let reading = Reading::new(tree, super::Values::Order, shared_interior, 2 * length);
    let mut used = vec![false; tree.node_count()];
    let (mut class, mut runs) = (0, 0);
    loop {
        let windows: Vec<(Value, Value)> =
            (0..length).map(|i| (reading.read_extra(2 * i), reading.read_extra(2 * i + 1))).collect();
        if windows.iter().all(|(alpha, beta)| alpha < beta) {
            runs += 1;
            let results = search.run(&reading, depth, &windows);
            for (calls, (&(alpha, beta), &g)) in windows.iter().zip(&results).enumerate() {
                let keeps = |v: Value| {
                    if g <= alpha {
                        v <= g
                    } else if g >= beta {
                        v >= g
                    } else {
                        v == g
                    }
                };
                if let Some(tree) = super::counterexample(tree, &reading, depth, &mut used, keeps) {
                    wrong(class, SequenceCase { tree, depth, windows: windows[..=calls].to_vec() });
                    break;
                }
            }
        }
        class += 1;
        if !reading.advance() {
            return runs;
        }
    }
}
