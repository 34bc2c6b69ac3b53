//! `nullwindow gen`: print a seeded random tree.

use std::ops::RangeInclusive;
use std::process::ExitCode;
use std::str::FromStr;

use clap::{Args, ValueEnum};
use nullwindow::tree::random::RandomTreeConfig;
use nullwindow::tree::{gtree, text};

use crate::CliError;
use crate::output::{out, outln};

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum OutputFormat {
    Paren,
    Gtree,
}

#[derive(Args)]
pub struct GenArgs {
    /// The seed: the same seed and options print the same tree on every platform.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Children per interior node, `A..B` (inclusive) or a single number.
    #[arg(long, default_value = "2..4", value_parser = parse_range::<u32>)]
    width: RangeInclusive<u32>,
    /// Depths at which leaves stand, `C..D` (inclusive) or a single number; the root has depth 0.
    #[arg(long, default_value = "2..4", value_parser = parse_range::<u32>)]
    depth: RangeInclusive<u32>,
    /// Leaf values, `LO..HI` (inclusive), within the admissible range.
    #[arg(long, default_value = "-99..99", value_parser = parse_range::<i32>, allow_hyphen_values = true)]
    values: RangeInclusive<i32>,
    /// The probability that a node between the two leaf depths is a leaf.
    #[arg(long, default_value_t = 0.2)]
    leaf_probability: f64,
    /// Draw one width and one depth, and give every interior node that width and every leaf that depth.
    #[arg(long)]
    uniform: bool,
    /// How to print the tree.
    #[arg(long, value_enum, default_value_t = OutputFormat::Paren)]
    format: OutputFormat,
}

pub fn run(args: &GenArgs) -> Result<ExitCode, CliError> {
    let config = RandomTreeConfig {
        seed: args.seed,
        width: args.width.clone(),
        depth: args.depth.clone(),
        values: args.values.clone(),
        leaf_probability: args.leaf_probability,
        uniform: args.uniform,
    };
    let tree = config.generate()?;
    match args.format {
        OutputFormat::Paren => outln!("{}", text::print(&tree)),
        OutputFormat::Gtree => out!("{}", gtree::print(&tree)),
    }
    Ok(ExitCode::SUCCESS)
}

/// Parses `A..B`, `A..=B` (both inclusive) or `A`.
fn parse_range<T: FromStr + Copy>(source: &str) -> Result<RangeInclusive<T>, String> {
    let number = |part: &str| {
        part.trim().parse::<T>().map_err(|_| match part.trim().parse::<i128>() {
            Ok(_) => format!("'{}' is out of range", nullwindow::tree::text::excerpt(part)),
            Err(_) => format!("'{}' is not a whole number", nullwindow::tree::text::excerpt(part)),
        })
    };
    match source.split_once("..") {
        Some((start, end)) => Ok(number(start)?..=number(end.strip_prefix('=').unwrap_or(end))?),
        None => {
            let single = number(source)?;
            Ok(single..=single)
        }
    }
}
