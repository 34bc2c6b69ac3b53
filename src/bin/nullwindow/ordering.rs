//! The switches of the optimized drivers shared by `solve`, `trace` and `compare`: the move-ordering
//! heuristics off (the book draws its figures of the teaching tree without killers and history, and
//! these let a reader reproduce the figures' numbers), failing hard, and which nodes use the table.

use clap::Args;
use nullwindow::driver::SearchParams;
use nullwindow::registry::Driver;
use nullwindow::search::Algorithm;

use crate::CliError;
use crate::output::errln;

/// Switches of the optimized drivers: move-ordering heuristics turned off, failing hard, the
/// shallowest nodes that use the table.
#[derive(Args, Clone, Copy, Debug, Default)]
pub struct OrderingArgs {
    /// Turn off the killer-move heuristic of the optimized drivers (a move that cut off at a ply is
    /// tried early at that ply's other nodes). The book's figures of the teaching tree are drawn
    /// without it.
    #[arg(long)]
    no_killers: bool,
    /// Turn off the history heuristic of the optimized drivers (moves that often cut off are tried
    /// first). The book's figures of the teaching tree are drawn without it.
    #[arg(long)]
    no_history: bool,
    /// Make the optimized drivers fail hard: every search returns its result clamped to its window.
    /// Still exact; it shows what failing hard costs (an MTD pass moves a bound by one unit at most).
    #[arg(long)]
    fail_hard: bool,
    /// The optimized drivers' shallowest nodes to use the transposition table: nodes searched fewer
    /// plies deep neither probe nor store. 1 (the default) lets every node but the leaves use it;
    /// 2 keeps out the nodes just above the leaves, whose few leaves can cost less to search again
    /// than a probe that misses the processor's caches. Values never depend on it.
    #[arg(long, value_name = "PLIES", default_value_t = 1)]
    table_min_depth: u32,
}

impl OrderingArgs {
    /// Whether `--fail-hard` was given.
    pub const fn fail_hard(self) -> bool {
        self.fail_hard
    }

    /// Turns off in `params` what the switches name and sets the table's shallowest nodes, and
    /// nothing else.
    pub fn apply(self, params: &mut SearchParams) {
        if self.no_killers {
            params.killers = false;
        }
        if self.no_history {
            params.history = false;
        }
        if self.fail_hard {
            params.fail_hard = true;
        }
        params.table_min_depth = self.table_min_depth;
    }
}

/// With `--fail-hard`, the drivers whose first test lies at ±INFINITY (SSS* and DUAL*) would walk
/// down one unit a pass, some 10^9 passes: a group (`all`, `optimized`) leaves them out, saying so
/// in one line on standard error; named one by one in `list`, they are refused.
pub fn leave_out_infinite_walks(
    drivers: &mut Vec<Driver>,
    list: &str,
    fail_hard: bool,
) -> Result<(), CliError> {
    if !fail_hard {
        return Ok(());
    }
    let walks = |driver: &Driver| driver.algorithm().is_some_and(|algorithm| algorithm.starts_at_infinity());
    let named: Vec<&str> = list.split(',').map(str::trim).collect();
    if let Some(driver) = drivers.iter().find(|driver| walks(driver) && named.contains(&driver.info().name)) {
        return Err(CliError(format!(
            "{driver} starts at an infinite bound: failing hard it would take some 10^9 passes to come down \
             (run it without --fail-hard)"
        )));
    }
    let (left_out, kept): (Vec<Driver>, Vec<Driver>) = drivers.iter().partition(|driver| walks(driver));
    if !left_out.is_empty() {
        let names: Vec<&str> = left_out.iter().map(|driver| driver.info().name).collect();
        errln!(
            "note: left out {}: they start at an infinite bound, and failing hard would take some 10^9 passes",
            names.join(", ")
        );
        *drivers = kept;
    }
    Ok(())
}

/// The most passes a driver may need to walk, one unit a pass, from its first guess to the value.
const MAX_WALKED_PASSES: i64 = 100_000;

/// With `--fail-hard`, MTD(f) moves its bound one unit a pass from its first guess: a guess far
/// outside the target's values (`values`, the least and greatest evaluation) would take as many
/// passes as units (10^9 from `--first-guess 1000000000`, or from the default guess, the root's
/// evaluation `root`, on leaves near ±10^9). Such a guess is refused for MTD(f) named in `list`, and
/// leaves it out of a group with a note.
pub fn leave_out_long_walks(
    drivers: &mut Vec<Driver>,
    list: &str,
    fail_hard: bool,
    (first_guess, root): (Option<i32>, i32),
    (lowest, highest): (i32, i32),
) -> Result<(), CliError> {
    if !fail_hard {
        return Ok(());
    }
    let guess = first_guess.unwrap_or(root);
    let farthest =
        (i64::from(guess) - i64::from(lowest)).abs().max((i64::from(guess) - i64::from(highest)).abs());
    if farthest <= MAX_WALKED_PASSES {
        return Ok(());
    }
    let walks = |driver: &Driver| driver.algorithm() == Some(Algorithm::Mtdf);
    let named: Vec<&str> = list.split(',').map(str::trim).collect();
    let from = if first_guess.is_some() {
        format!("--first-guess {guess}")
    } else {
        format!("its first guess, the root's evaluation {guess},")
    };
    let why = format!(
        "failing hard from {from} it moves one unit a pass, and the values lie from {lowest} to {highest}: up \
         to {farthest} passes"
    );
    if let Some(driver) = drivers.iter().find(|driver| walks(driver) && named.contains(&driver.info().name)) {
        return Err(CliError(format!(
            "{driver}: {why} (give a first guess within {MAX_WALKED_PASSES} of the values, or run it without \
             --fail-hard)"
        )));
    }
    if drivers.iter().any(walks) {
        errln!("note: left out mtdf: {why}");
        drivers.retain(|driver| !walks(driver));
    }
    Ok(())
}
