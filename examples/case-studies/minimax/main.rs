//! The `minimax` crate (0.6.0), fuzzed by the oracle's library harness as its author would: each
//! strategy the crate exports searches the harness's cases through the crate's own `Game` and
//! `Evaluator` traits.
//!
//! `cargo run --release --example case-study-minimax -- [STRATEGY] [CASES] [SEED] [VALUES] [HEIGHT]
//! [--deeper-entries]`: STRATEGY is
//! `negamax`, `iterative` (the default options: PVS and a table), `plain` (no null windows),
//! `mtdf`, `aspiration`, `parallel` or `all` (the default); CASES is 300 by default, SEED 0,
//! VALUES (the range of leaf values and evaluations) `-9..9`, and HEIGHT (of the trees, and the
//! plies the games are unfolded) `1..4`. `--deeper-entries` judges by the witness criterion.

use std::process::ExitCode;
use std::sync::{Mutex, RwLock};

use minimax::Strategy as _;
use nullwindow::driver::Perspective;
use nullwindow::game::Game as _;
use nullwindow::oracle::harness::{Answer, Config, Outcome, fuzz};
use nullwindow::tree::{NodeId, Tree};

// ANCHOR: glue
// `minimax::Game` has no `self`: the tree its functions read, shared with `ParallelSearch`'s
// threads.
static TREE: RwLock<Option<Tree>> = RwLock::new(None);
// So one search at a time, since they share `TREE`.
static SEARCH: Mutex<()> = Mutex::new(());

fn with_tree<T>(f: impl FnOnce(&Tree) -> T) -> T {
    f(TREE
        .read()
        .expect("no search panics holding the lock")
        .as_ref()
        .expect("the case is set before a search"))
}

/// A node, and whether it stands for a leaf passed to the other side (see `PASS`).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Node(NodeId, bool);

/// `minimax::Winner` can only say win, draw or loss, so a leaf worth 3 cannot end the game.
/// A leaf instead passes forever: each pass turns the evaluation to the other side, so the leaf
/// is worth its value at any depth left.
const PASS: u32 = u32::MAX;

struct CaseGame;

impl minimax::Game for CaseGame {
    type S = Node;
    type M = u32;

    fn generate_moves(state: &Node, moves: &mut Vec<u32>) -> Option<minimax::Winner> {
        with_tree(|tree| match tree.children(state.0).len() as u32 {
            0 => moves.push(PASS),
            n => moves.extend(0..n),
        });
        None
    }

    fn apply(state: &mut Node, mv: u32) -> Option<Node> {
        Some(if mv == PASS {
            Node(state.0, !state.1)
        } else {
            Node(with_tree(|t| t.children(state.0)[mv as usize]), false)
        })
    }

    fn get_winner(_: &Node) -> Option<minimax::Winner> {
        None
    }

    fn zobrist_hash(state: &Node) -> u64 {
        // Spread over the high bits too: the crate's table checks only a key's high 32 bits.
        (u64::from(state.0.0) * 2 + u64::from(state.1)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
}

#[derive(Clone)]
struct Eval;

impl minimax::Evaluator for Eval {
    type G = CaseGame;

    fn evaluate(&self, state: &Node) -> minimax::Evaluation {
        let value = with_tree(|tree| tree.evaluate_for_mover(&state.0));
        let value = i16::try_from(value).expect("the case's values fit in i16");
        if state.1 { -value } else { value }
    }
}

/// One search of `case` by `strategy`: its root value from the side to move, and its move.
pub fn search(strategy: &str, case: &nullwindow::oracle::harness::Case) -> Option<Answer> {
    let tree = &case.tree;
    // The crate's strategies need a move to search (depth 0 returns no move and no value), its
    // evaluations are i16, and negamax assumes the sides alternate.
    let alternates = (0..tree.stats().nodes as u32)
        .map(NodeId)
        .all(|n| tree.children(n).iter().all(|&c| tree.to_move(&c) != tree.to_move(&n)));
    let fits =
        (0..tree.stats().nodes as u32).all(|n| tree.evaluation(NodeId(n)).abs() <= i32::from(i16::MAX));
    if case.depth == 0 || !alternates || !fits {
        return None;
    }
    let _one_at_a_time = SEARCH.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    *TREE.write().expect("no search panics holding the lock") = Some(tree.clone());
    let root = Node(tree.root_id(), false);
    let depth = u8::try_from(case.depth.min(60)).ok()?;
    let iterative = |options: minimax::IterativeOptions| {
        let mut search = minimax::IterativeSearch::new(Eval, options);
        search.set_max_depth(depth);
        let mv = search.choose_move(&root);
        (mv, search.root_value())
    };
    let options = minimax::IterativeOptions::new();
    let (mv, value) = match strategy {
        "negamax" => {
            let mut search = minimax::Negamax::new(Eval, depth);
            let mv = search.choose_move(&root);
            (mv, search.root_value())
        }
        "iterative" => iterative(options),
        "plain" => iterative(options.with_null_window_search(false)),
        "mtdf" => iterative(options.with_mtdf()),
        "aspiration" => iterative(options.with_aspiration_window(2)),
        "parallel" => {
            let parallel = minimax::ParallelOptions::new().with_num_threads(2);
            let mut search = minimax::ParallelSearch::new(Eval, options, parallel);
            search.set_max_depth(depth);
            let mv = search.choose_move(&root);
            (mv, search.root_value())
        }
        _ => unreachable!("the strategy is checked in main"),
    };
    let best_move = mv.filter(|&m| m != PASS);
    Some(Answer { best_move, ..Answer::value(i32::from(value)) })
}
// ANCHOR_END: glue

const STRATEGIES: [&str; 6] = ["negamax", "iterative", "plain", "mtdf", "aspiration", "parallel"];

/// Runs the strategies `args` names (the command line's arguments) and returns what they report,
/// a line or a shrunk case each, and whether every one agreed; an error for bad arguments.
pub fn run(args: &[String]) -> Result<(String, bool), String> {
    let deeper_entries = args.iter().any(|arg| arg == "--deeper-entries");
    let args: Vec<&String> = args.iter().filter(|arg| *arg != "--deeper-entries").collect();
    let which = args.first().map_or("all", |arg| arg.as_str());
    let number = |at: usize, default: u64, name: &str| {
        args.get(at)
            .map_or(Ok::<u64, String>(default), |n| n.parse().map_err(|_| format!("{name} is a number")))
    };
    let range = |at: usize, default: std::ops::RangeInclusive<i32>, name: &str| {
        args.get(at).map_or(Ok::<_, String>(default), |range| {
            let bad = || format!("{name} is LOW..HIGH");
            let (low, high) = range.split_once("..").ok_or_else(bad)?;
            Ok(low.parse().map_err(|_| bad())?..=high.parse().map_err(|_| bad())?)
        })
    };
    let (cases, seed) = (number(1, 300, "CASES")?, number(2, 0, "SEED")?);
    let values = range(3, -9..=9, "VALUES")?;
    let height = range(4, 1..=4, "HEIGHT")?;
    let height = u32::try_from(*height.start()).unwrap_or(1)..=u32::try_from(*height.end()).unwrap_or(4);
    let strategies: Vec<&str> = match which {
        "all" => STRATEGIES.to_vec(),
        one if STRATEGIES.contains(&one) => vec![one],
        other => return Err(format!("unknown strategy '{other}': one of {} or all", STRATEGIES.join(", "))),
    };
    let (mut report, mut agreed_all) = (String::new(), true);
    for strategy in strategies {
        // ANCHOR: fuzz
        let config = Config {
            perspective: Perspective::Mover,
            cases,
            seed,
            values: values.clone(),
            height: height.clone(),
            deeper_entries,
            ..Config::default()
        };
        let outcome = fuzz(&config, |case| Ok::<_, String>(search(strategy, case)), |_| {});
        // ANCHOR_END: fuzz
        let line = match outcome {
            Outcome::Agreed { agreed, undecided, skipped } => {
                format!("agreed on {agreed} cases ({skipped} declined, {undecided} undecided)")
            }
            Outcome::Disagreed(found) => found.report(),
            other => format!("{other:?}"),
        };
        agreed_all &= line.starts_with("agreed");
        report.push_str(&format!("{strategy}: {line}\n"));
    }
    Ok((report, agreed_all))
}

#[allow(dead_code, reason = "the book's test includes this file for `run` and `search` alone")]
fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok((report, agreed)) => {
            print!("{report}");
            if agreed { ExitCode::SUCCESS } else { ExitCode::FAILURE }
        }
        Err(message) => {
            eprintln!("{message}");
            ExitCode::from(2)
        }
    }
}
