//! `nullwindow algos`: the registry as a table or JSON.

use std::process::ExitCode;

use clap::Args;
use nullwindow::registry::Driver;

use crate::CliError;
use crate::output::outln;

#[derive(Args)]
pub struct AlgosArgs {
    /// Print a JSON array instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &AlgosArgs) -> Result<ExitCode, CliError> {
    let infos: Vec<_> = Driver::ALL.iter().map(|driver| driver.info()).collect();
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&infos)?);
        return Ok(ExitCode::SUCCESS);
    }
    let name_width = infos.iter().map(|info| info.name.len()).max().unwrap_or(4).max(4);
    outln!("{:<name_width$}  {:<9}  {:<5}  source", "name", "kind", "exact");
    for info in infos {
        let exact = if info.exact { "yes" } else { "no" };
        outln!("{:<name_width$}  {:<9}  {:<5}  {}", info.name, info.kind.to_string(), exact, info.source);
    }
    Ok(ExitCode::SUCCESS)
}
