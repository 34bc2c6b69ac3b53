//! The `nullwindow` command line: solve trees with every driver and check them against minimax, list
//! the drivers, generate random trees, convert tree files between formats, compare drivers on
//! synthetic trees, divide a position into its moves' values, check another engine's claimed line,
//! audit another engine's search node by node, fuzz another engine on seeded cases, serve a game over the
//! line protocol, shrink a tree on which a command fails, and (with no arguments) show a demo.

mod algos;
mod audit;
mod bench;
mod certify;
mod check;
mod command;
mod compare;
mod convert;
mod divide;
mod fuzz;
mod generate;
mod input;
mod ordering;
mod output;
mod progress;
mod serve;
mod shrink;
mod sizes;
mod solve;
mod trace;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::output::{err, errln, out};

/// A failure the command reports as one `error:` line.
#[derive(Debug)]
pub struct CliError(pub String);

impl<E: std::error::Error> From<E> for CliError {
    fn from(error: E) -> Self {
        Self(error.to_string())
    }
}

/// Minimax, alpha-beta, PVS and MTD(f), each checked against plain minimax.
///
/// Without a command, runs every driver on a built-in teaching tree.
#[derive(Parser)]
#[command(name = "nullwindow", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Print no progress (by default a bar on a terminal, and a line every 10 s otherwise, on
    /// standard error, for the commands that run for a while), nor fuzz's summary of its cases, nor
    /// the notes that count what a run asked of an engine (a note that a group of drivers left one
    /// out, or that a conversion lost something, still prints: it says the question changed).
    #[arg(long, global = true)]
    quiet: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a tree with the chosen drivers and check each against minimax (exit 1 if one disagrees).
    #[command(after_long_help = solve::COUNTS_HELP)]
    Solve(solve::SolveArgs),
    /// List every driver: name, kind, source document, and whether it is exact.
    Algos(algos::AlgosArgs),
    /// Print a random tree (or game graph), the same for the same seed on every platform.
    Gen(generate::GenArgs),
    /// Print a tree file in the other format (parenthesis or gtree); refuses to lose anything.
    Convert(convert::ConvertArgs),
    /// Compare drivers on implicit synthetic trees, against the Knuth-Moore minimal tree.
    Compare(compare::CompareArgs),
    /// Every legal move at the root with its exact value (perft's divide, for values).
    Divide(divide::DivideArgs),
    /// Check another engine's value and principal variation; exit 1 at the first wrong ply.
    Check(check::CheckArgs),
    /// Check another engine's per-node records against the exact values; exit 1 at the first that
    /// breaks a rule.
    #[command(after_long_help = audit::RECORD_HELP)]
    Audit(audit::AuditArgs),
    /// One record per node a driver searches (JSON lines or a table), to diff against your engine.
    #[command(after_long_help = trace::RECORD_HELP)]
    Trace(trace::TraceArgs),
    /// Run another engine (any language) on seeded cases, judge its values, moves and records, and
    /// shrink the first case it gets wrong (exit 1).
    #[command(after_long_help = fuzz::FUZZ_HELP)]
    Fuzz(fuzz::FuzzArgs),
    /// Every driver on every small tree and graph: a certificate by exhaustion (exit 1 if it does
    /// not hold).
    #[command(after_long_help = certify::CERTIFY_HELP)]
    Certify(certify::CertifyArgs),
    /// The smallest tree on which a command still fails (delta debugging); `{}` is the tree's file.
    #[command(after_long_help = shrink::SHRINK_HELP)]
    Shrink(shrink::ShrinkArgs),
    /// Serve a game of the catalogue over the line protocol, the crate's MTD(f) answering `search`:
    /// a reference engine for `fuzz --engine` and for a protocol client of your own.
    #[command(after_long_help = serve::SERVE_HELP)]
    Serve(serve::ServeArgs),
    /// Benchmarks on published test sets: `bench connect4 FILE…` (Pons' positions and scores).
    #[command(subcommand)]
    Bench(bench::BenchCommand),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return report_clap_error(&error),
    };
    command::stop_on_interrupt();
    // Every program the command line runs is started by a runner, so every other child it has is
    // one an engine left behind.
    nullwindow::oracle::runner::adopt_orphans();
    progress::set_quiet(cli.quiet);
    let result = match cli.command {
        None => solve::demo(),
        Some(Command::Solve(args)) => solve::run(&args),
        Some(Command::Algos(args)) => algos::run(&args),
        Some(Command::Gen(args)) => generate::run(&args),
        Some(Command::Convert(args)) => convert::run(&args),
        Some(Command::Compare(args)) => compare::run(&args),
        Some(Command::Divide(args)) => divide::run(&args),
        Some(Command::Check(args)) => check::run(&args),
        Some(Command::Trace(args)) => trace::run(&args),
        Some(Command::Audit(args)) => audit::run(&args),
        Some(Command::Shrink(args)) => shrink::run(&args),
        Some(Command::Fuzz(args)) => fuzz::run(&args),
        Some(Command::Certify(args)) => certify::run(&args),
        Some(Command::Serve(args)) => serve::run(&args),
        Some(Command::Bench(command)) => bench::run(&command),
    };
    match result {
        Ok(code) => code,
        Err(CliError(message)) => {
            // An error that an interruption caused is no error: the handler is about to exit 130.
            command::wait_if_interrupted();
            errln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

/// Help and version go to stdout as clap writes them; a usage error becomes one `error:` line.
fn report_clap_error(error: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(error.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        out!("{error}");
        return ExitCode::SUCCESS;
    }
    if error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        err!("{error}");
        return ExitCode::from(2);
    }
    let rendered = error.render().to_string();
    let mut message = String::new();
    let mut usage = None;
    for line in rendered.lines() {
        let text = line.trim();
        if text.is_empty() || text.starts_with("For more information") {
            continue;
        }
        if let Some(rest) = text.strip_prefix("Usage:") {
            usage = Some(rest.trim().to_owned());
            continue;
        }
        let text = text.strip_prefix("error: ").unwrap_or(text);
        // An indented line is an item of the list the line before announced with a colon.
        let separator = match message.chars().last() {
            None => "",
            Some(':') => " ",
            Some(_) if line.starts_with(char::is_whitespace) && !text.starts_with("tip:") => ", ",
            Some(_) => "; ",
        };
        message.push_str(separator);
        message.push_str(text);
    }
    // A missing argument is best answered by the usage line, kept on the one error line.
    if error.kind() == ErrorKind::MissingRequiredArgument
        && let Some(usage) = usage
    {
        message.push_str(&format!(" (usage: {usage}; more with --help)"));
    }
    errln!("error: {message}");
    ExitCode::from(2)
}
