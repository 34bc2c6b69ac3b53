//! `nullwindow solve` and the demo: run drivers, print a table or JSON, and exit 1 when one disagrees
//! with minimax.

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Args;
use nullwindow::driver::{Iteration, Kind, Perspective, SearchParams};
use nullwindow::game::{Game, Player};
use nullwindow::oracle::{self, Report};
use nullwindow::registry::Driver;
use nullwindow::tree::{MAX_SEARCH_HEIGHT, Tree, examples};
use nullwindow::value::{INFINITY, Value};
use serde::Serialize;

use crate::CliError;
use crate::input::{Target, TargetArgs, with_game};
use crate::ordering::OrderingArgs;
use crate::output::{errln, outln};

/// The searches recurse once per level; this stack holds [`MAX_SEARCH_HEIGHT`] levels of the deepest
/// driver with room to spare. Pages are only touched as the recursion reaches them.
const SEARCH_STACK_BYTES: usize = 1 << 30;

/// What the table's counts count, as `nullwindow solve --help` prints it.
pub const COUNTS_HELP: &str = "\
The counts:
  leaves   evaluations: every time a driver evaluates a position (a terminal one, or one where the
           depth ran out); a leaf evaluated again in a later pass or iteration counts again, so a
           driver that visits 19 distinct leaves may count 23
  nodes    calls of the driver's search, or for Stockman's drivers nodes taken off OPEN; re-visits
           count again
  passes   searches of the root, for the drivers that make several (MTD tests, aspiration windows,
           iterations)";

#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    target: TargetArgs,
    /// Drivers to run, comma-separated (see `nullwindow algos`), or a group: `all` (every exact
    /// driver), `reference`, `literal`, `optimized`. Default: `all`; for Connect Four `optimized`.
    /// On a tree over 2,000 levels deep, a group leaves out the iterative-deepening translations
    /// (their cost grows with the square of the depth); on a graph whose unfolded tree has over 10^7
    /// nodes, the drivers that keep no table (they visit a node once per path); named, they run.
    #[arg(long)]
    algo: Option<String>,
    /// Print one JSON object instead of a table: `side`, `MAX` or `MIN`, the side to move at the root,
    /// from whose side every value in the object is (a gtree file's root may be MIN); `value`, the
    /// exact value; `results`, one object per driver with its `algorithm`, `value`, `leaves`, `nodes`
    /// and `passes` (null for a driver without passes).
    #[arg(long)]
    json: bool,
    /// The first guess for drivers that take one (MTD(f)), from -INFINITY to +INFINITY (±10⁹).
    #[arg(long, allow_hyphen_values = true,
          value_parser = clap::value_parser!(i32).range(i64::from(-INFINITY)..=i64::from(INFINITY)))]
    first_guess: Option<i32>,
    /// Search this many plies; a node where the depth runs out is scored by its evaluation (0 for an
    /// interior node of a parenthesis-format tree). Default: the whole tree.
    #[arg(long, allow_hyphen_values = true, value_parser = crate::sizes::depth)]
    depth: Option<u32>,
    /// Transposition-table entries for the optimized drivers (rounded down to a power of two; 0 means 1; at most 2^28).
    #[arg(long, default_value_t = 1 << 16, value_parser = crate::sizes::tt_entries)]
    tt_entries: usize,
    /// Let the optimized drivers deepen iteratively from depth 1, each iteration's value the next
    /// one's first guess (their counts then include every iteration).
    #[arg(long)]
    iterative: bool,
    #[command(flatten)]
    ordering: OrderingArgs,
}

pub fn run(args: &SolveArgs) -> Result<ExitCode, CliError> {
    let target = args.target.read(args.depth)?;
    let list = args.algo.as_deref().unwrap_or(target.default_drivers());
    let mut drivers = Driver::select(list)?;
    crate::ordering::leave_out_infinite_walks(&mut drivers, list, args.ordering.fail_hard())?;
    target.check_drivers(&mut drivers, list)?;
    crate::ordering::leave_out_long_walks(
        &mut drivers,
        list,
        args.ordering.fail_hard(),
        (args.first_guess, target.root_evaluation()),
        target.value_range(),
    )?;
    // (A tree too deep to search at all is refused by the search below, with no note before.)
    if let Some(tree) = target.tree() {
        let depth = tree.height().min(args.depth.unwrap_or(u32::MAX));
        if depth <= MAX_SEARCH_HEIGHT {
            leave_out_deepening_drivers(&mut drivers, list, depth);
            leave_out_path_walkers(&mut drivers, list, tree.unfolded_nodes(depth));
        }
    }
    let mut params = SearchParams {
        depth: args.depth.unwrap_or(u32::MAX),
        first_guess: args.first_guess,
        tt_entries: args.tt_entries,
        iterative_deepening: args.iterative,
        ..SearchParams::default()
    };
    args.ordering.apply(&mut params);
    let view = View { root_player: target.root_player(), reference: target.reference() };
    with_game!(&target, game => {
        let report = search(game, target.tree(), view.reference, &drivers, &params)?;
        if args.json {
            print_json(&report, &view, params.iterative_deepening)?;
        } else {
            print_summary(&args.target.describe(&target), &params, &report, &view);
            print_table(&report, &view, &params);
            if params.iterative_deepening {
                print_iterations(&report, &view);
            }
        }
        Ok(verdict(&report, &view))
    })
}

/// Above this many levels, a group (`all`, `literal`) leaves out the drivers that deepen
/// iteratively by their nature: they search every depth from 1 up again, so their cost grows with
/// the square of the depth (at 10,000 levels `plaat-id-corrected` takes a minute and 2.4 GB, and
/// 100,000 levels would take hours). Named one by one, they still run.
const DEEPENING_LEVELS: u32 = 2_000;

/// Leaves out of `drivers` those that deepen iteratively and that `list` does not name one by one,
/// when the search is deeper than [`DEEPENING_LEVELS`], saying so in one line on standard error.
fn leave_out_deepening_drivers(drivers: &mut Vec<Driver>, list: &str, depth: u32) {
    if depth <= DEEPENING_LEVELS {
        return;
    }
    let named: Vec<&str> = list.split(',').map(str::trim).collect();
    let (left_out, kept): (Vec<Driver>, Vec<Driver>) =
        drivers.iter().partition(|driver| driver.info().deepens && !named.contains(&driver.info().name));
    if !left_out.is_empty() {
        let names: Vec<&str> = left_out.iter().map(|driver| driver.info().name).collect();
        errln!(
            "note: left out {}: they search every depth from 1 to {depth} again, a cost that grows with \
             the square of the depth (over {DEEPENING_LEVELS} levels); name them in --algo to run them",
            names.join(", ")
        );
        *drivers = kept;
    }
}

/// Above this many nodes in the unfolded tree, a group leaves out the drivers that keep no
/// transposition table: on a graph of transpositions they visit a position once per path that
/// reaches it (60 diamonds in a chain: 181 nodes, 2⁶² unfolded), where the others, and the oracle's
/// reference, visit it once. Named one by one, they still run.
const UNFOLDED_NODES: u128 = 10_000_000;

/// Leaves out of `drivers` those that keep no table and that `list` does not name one by one, when
/// the unfolded tree has more than [`UNFOLDED_NODES`] nodes, saying so in one line on standard error.
fn leave_out_path_walkers(drivers: &mut Vec<Driver>, list: &str, unfolded: u128) {
    if unfolded <= UNFOLDED_NODES {
        return;
    }
    let named: Vec<&str> = list.split(',').map(str::trim).collect();
    let (left_out, kept): (Vec<Driver>, Vec<Driver>) =
        drivers.iter().partition(|driver| !driver.info().table && !named.contains(&driver.info().name));
    if !left_out.is_empty() {
        let names: Vec<&str> = left_out.iter().map(|driver| driver.info().name).collect();
        let size = if unfolded == u128::MAX { "over 2^128".to_owned() } else { unfolded.to_string() };
        errln!(
            "note: left out {}: they keep no table, and would visit every one of the {size} nodes of the \
             unfolded tree (over {UNFOLDED_NODES}); name them in --algo to run them",
            names.join(", ")
        );
        *drivers = kept;
    }
}

/// How to present a report: values from the root player's side, checked against `reference`.
struct View {
    root_player: Player,
    reference: Driver,
}

/// Runs every exact driver on the built-in teaching tree.
pub fn demo() -> Result<ExitCode, CliError> {
    let tree: Tree = examples::TEACHING_TREE.parse()?;
    let target = Target::Tree(tree.clone());
    outln!("nullwindow: every driver on a built-in teaching tree, checked against plain minimax.");
    outln!();
    outln!("teaching tree: {}", examples::TEACHING_TREE);
    let params = SearchParams::default();
    let report = search(&tree, Some(&tree), Driver::Minimax, &Driver::select("all")?, &params)?;
    let view = View { root_player: Player::Max, reference: Driver::Minimax };
    print_summary(&target.describe("", None), &params, &report, &view);
    print_table(&report, &view, &params);
    outln!();
    outln!("{}", next_steps());
    Ok(verdict(&report, &view))
}

/// The demo's closing hint: how to install the command when it runs from a build directory
/// (`cargo run`, `target/release/nullwindow`), and what to try next either way.
fn next_steps() -> String {
    let in_place = std::env::current_exe().is_ok_and(|exe| {
        exe.components().any(|part| part.as_os_str() == "target")
            && exe.parent().is_some_and(|dir| dir.ends_with("debug") || dir.ends_with("release"))
    });
    let then = "`nullwindow gen --seed 7 | nullwindow solve -`, `nullwindow algos`, `nullwindow --help`.";
    if in_place {
        format!("Next: `cargo install --path . --locked` puts `nullwindow` on your PATH; then {then}")
    } else {
        format!("Next: {then}")
    }
}

/// Runs the oracle on the search thread (`tree`, when the game is one, is checked for its height).
fn search<G: Game + Sync>(
    game: &G,
    tree: Option<&Tree>,
    reference: Driver,
    drivers: &[Driver],
    params: &SearchParams,
) -> Result<Report<G::Move>, CliError>
where
    G::Move: Send,
{
    on_search_thread(tree, params.depth, || {
        oracle::solve_against(game, reference, drivers, params, &mut report_progress)
    })
}

/// Runs `work` on a thread with a stack deep enough for [`MAX_SEARCH_HEIGHT`] levels, after refusing
/// a tree taller than that (unless `depth` searches less of it).
pub fn on_search_thread<T: Send>(
    tree: Option<&Tree>,
    depth: u32,
    work: impl FnOnce() -> T + Send,
) -> Result<T, CliError> {
    if let Some(tree) = tree {
        let height = tree.height();
        if height.min(depth) > MAX_SEARCH_HEIGHT {
            return Err(CliError(format!(
                "the tree is {height} levels deep; the searches recurse once per level and search at \
                 most {MAX_SEARCH_HEIGHT} (use --depth to search less deep)"
            )));
        }
    }
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("search".to_owned())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn_scoped(scope, work)
            .map_err(|e| CliError(format!("cannot start the search thread: {e}")))?
            .join()
            .map_err(|_| CliError("the search failed unexpectedly".to_owned()))
    })
}

/// On a terminal, one line on stderr per completed iteration once a search has run for a second, so
/// that a long search shows it is alive; nothing when stderr is redirected.
fn report_progress<M>(driver: Driver, progress: &Iteration<M>) {
    if progress.elapsed.as_secs_f64() >= 1.0 && std::io::stderr().is_terminal() {
        errln!(
            "  {} depth {}: value {} ({} nodes, {:.1} s)",
            driver.info().name,
            progress.depth,
            progress.value,
            progress.counts.nodes,
            progress.elapsed.as_secs_f64()
        );
    }
}

fn print_summary<M>(description: &str, params: &SearchParams, report: &Report<M>, view: &View) {
    let depth = if params.depth == u32::MAX { "full".to_owned() } else { params.depth.to_string() };
    outln!("{description}; depth searched: {depth}");
    let side = if view.root_player == Player::Max {
        String::new()
    } else {
        ", from MIN's side (to move)".to_owned()
    };
    let source = match view.reference {
        Driver::Minimax => "minimax value".to_owned(),
        other => format!("exact value (by {})", other.info().name),
    };
    outln!("{source}: {}{side}", view.root_player.perspective(report.value));
    outln!();
}

fn print_table<M>(report: &Report<M>, view: &View, params: &SearchParams) {
    let optimized = report.results.iter().any(|result| result.driver.info().kind == Kind::Optimized);
    if params.iterative_deepening && optimized {
        outln!("(optimized drivers deepen iteratively from depth 1: their counts include every iteration)");
        outln!();
    }
    if params.fail_hard && optimized {
        outln!("(optimized drivers fail hard: every search's result is clamped to its window)");
        outln!();
    }
    let name_width = report.results.iter().map(|r| r.driver.info().name.len()).max().unwrap_or(9).max(9);
    outln!(
        "{:<name_width$}  {:<9}  {:>11}  {:>10}  {:>10}  {:>6}",
        "algorithm",
        "kind",
        "value",
        "leaves",
        "nodes",
        "passes"
    );
    for result in &report.results {
        let info = result.driver.info();
        let passes = result.outcome.passes.as_ref().map_or_else(|| "-".to_owned(), |p| p.len().to_string());
        let mark = if result.outcome.value == report.value { "" } else { "  WRONG" };
        outln!(
            "{:<name_width$}  {:<9}  {:>11}  {:>10}  {:>10}  {:>6}{mark}",
            info.name,
            info.kind.to_string(),
            view.root_player.perspective(result.outcome.value),
            result.outcome.counts.leaves,
            result.outcome.counts.nodes,
            passes
        );
    }
}

/// Each iteration of each driver that deepened iteratively (`--iterative`): its depth, first guess,
/// value, the leaves and nodes it took (not the totals so far), and its root searches.
fn print_iterations<M>(report: &Report<M>, view: &View) {
    for result in report.results.iter().filter(|result| !result.outcome.iterations.is_empty()) {
        outln!();
        outln!(
            "{}, iteration by iteration (values from the side to move at the root, {}):",
            result.driver.info().name,
            view.root_player
        );
        outln!(
            "{:>5}  {:>11}  {:>11}  {:>10}  {:>10}  root searches: window -> result",
            "depth",
            "first guess",
            "value",
            "leaves",
            "nodes"
        );
        for row in iteration_rows(result, view) {
            let searches: Vec<String> = row
                .passes
                .iter()
                .map(|pass| format!("({}, {}) -> {}", pass.alpha, pass.beta, pass.result))
                .collect();
            outln!(
                "{:>5}  {:>11}  {:>11}  {:>10}  {:>10}  {}",
                row.depth,
                row.first_guess.map_or_else(|| "-".to_owned(), |guess| guess.to_string()),
                row.value,
                row.leaves,
                row.nodes,
                if searches.is_empty() { "-".to_owned() } else { searches.join(", ") }
            );
        }
    }
}

/// One iteration, as `solve --iterative` prints it: values from the side to move at the root.
#[derive(Serialize)]
struct IterationRow {
    depth: u32,
    /// The first guess of a driver that makes passes; none for the others.
    first_guess: Option<Value>,
    value: Value,
    /// Leaves and nodes of this iteration alone.
    leaves: u64,
    nodes: u64,
    passes: Vec<JsonPass>,
}

#[derive(Serialize)]
struct JsonPass {
    alpha: Value,
    beta: Value,
    result: Value,
}

fn iteration_rows<M>(result: &nullwindow::oracle::DriverResult<M>, view: &View) -> Vec<IterationRow> {
    let side = |value: Value| view.root_player.perspective(value);
    let mut before = nullwindow::driver::Counts::default();
    result
        .outcome
        .iterations
        .iter()
        .map(|iteration| {
            let row = IterationRow {
                depth: iteration.depth,
                first_guess: result.driver.info().passes.then(|| side(iteration.first_guess)),
                value: side(iteration.value),
                leaves: iteration.counts.leaves - before.leaves,
                nodes: iteration.counts.nodes - before.nodes,
                passes: iteration
                    .passes
                    .iter()
                    .map(|pass| {
                        let (alpha, beta, result) =
                            Perspective::Mover.turn(view.root_player, (pass.alpha, pass.beta, pass.result));
                        JsonPass { alpha, beta, result }
                    })
                    .collect(),
            };
            before = iteration.counts;
            row
        })
        .collect()
}

/// The `--json` shape: `{"side": "MAX"|"MIN", "value": V, "results": [{"algorithm", "value", "leaves",
/// "nodes", "passes"}]}`, values from the side to move at the root, which `side` names so that a MIN
/// root's values are not read as MAX's. With `--iterative`, each optimized driver's result also
/// has `iterations`: `depth`, `first_guess`, `value`, the `leaves` and `nodes` of that iteration,
/// and its root searches' windows and results (`passes`).
#[derive(Serialize)]
struct JsonReport<'a> {
    side: String,
    value: Value,
    results: Vec<JsonResult<'a>>,
}

#[derive(Serialize)]
struct JsonResult<'a> {
    algorithm: &'a str,
    value: Value,
    leaves: u64,
    nodes: u64,
    passes: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    iterations: Option<Vec<IterationRow>>,
}

fn print_json<M>(report: &Report<M>, view: &View, iterative: bool) -> Result<(), CliError> {
    let results = report
        .results
        .iter()
        .map(|result| JsonResult {
            algorithm: result.driver.info().name,
            value: view.root_player.perspective(result.outcome.value),
            leaves: result.outcome.counts.leaves,
            nodes: result.outcome.counts.nodes,
            passes: result.outcome.passes.as_ref().map(Vec::len),
            iterations: (iterative && !result.outcome.iterations.is_empty())
                .then(|| iteration_rows(result, view)),
        })
        .collect();
    let value = view.root_player.perspective(report.value);
    let side = view.root_player.to_string();
    outln!("{}", serde_json::to_string_pretty(&JsonReport { side, value, results })?);
    Ok(())
}

/// Exit 1, naming each driver that disagrees with the exact value; otherwise success.
fn verdict<M>(report: &Report<M>, view: &View) -> ExitCode {
    let mut wrong = false;
    for result in report.disagreements() {
        wrong = true;
        errln!(
            "error: {} returned {}, but the exact value is {}",
            result.driver.info().name,
            view.root_player.perspective(result.outcome.value),
            view.root_player.perspective(report.value)
        );
    }
    if wrong { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deepening_drivers_are_left_out_of_groups_on_deep_trees_but_run_when_named() {
        let all = Driver::select("all").unwrap();
        let mut drivers = all.clone();
        leave_out_deepening_drivers(&mut drivers, "all", DEEPENING_LEVELS);
        assert_eq!(drivers, all, "at the limit, nothing is left out");
        leave_out_deepening_drivers(&mut drivers, "all", DEEPENING_LEVELS + 1);
        assert!(drivers.iter().all(|driver| !driver.info().deepens));
        assert_eq!(drivers.len(), all.len() - 2);
        let mut named = Driver::select("literal,kornilov-id").unwrap();
        leave_out_deepening_drivers(&mut named, "literal,kornilov-id", DEEPENING_LEVELS + 1);
        assert!(named.contains(&Driver::KornilovIterativeDeepening));
        assert!(!named.contains(&Driver::PlaatIterativeDeepeningCorrected));
    }
}
