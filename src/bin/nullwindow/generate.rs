//! `nullwindow gen`: print a seeded random tree, or with `--graph` a random game graph.

use std::ops::RangeInclusive;
use std::process::ExitCode;
use std::str::FromStr;

use clap::{Args, ValueEnum};
use nullwindow::tree::random::RandomTreeConfig;
use nullwindow::tree::random_graph::RandomGraphConfig;
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
    /// Children per interior node, `A..B` (inclusive) or a single number. With --graph: links per
    /// node, each to a distinct child (fewer when the levels below run out of nodes).
    #[arg(long, default_value = "2..4", value_parser = parse_range::<u32>)]
    width: RangeInclusive<u32>,
    /// Depths at which leaves stand, `C..D` (inclusive) or a single number; the root has depth 0.
    #[arg(long, default_value = "2..4", value_parser = parse_range::<u32>, conflicts_with = "graph")]
    depth: RangeInclusive<u32>,
    /// Leaf values, `LO..HI` (inclusive), within the admissible range. With --graph: the
    /// evaluation of every node.
    #[arg(long, default_value = "-99..99", value_parser = parse_range::<i32>, allow_hyphen_values = true)]
    values: RangeInclusive<i32>,
    /// The probability that a node between the two leaf depths is a leaf.
    #[arg(long, default_value_t = 0.2, conflicts_with = "graph")]
    leaf_probability: f64,
    /// Draw one width and one depth, and give every interior node that width and every leaf that depth.
    #[arg(long, conflicts_with = "graph")]
    uniform: bool,
    /// Give every interior node a static evaluation from `LO..HI` (inclusive), for depth-limited
    /// searches to read where they stop; the tree is then printed in the gtree format, which holds
    /// them. Without it interior nodes evaluate to 0.
    #[arg(long, value_name = "LO..HI", value_parser = parse_range::<i32>, allow_hyphen_values = true, conflicts_with = "graph")]
    interior_values: Option<RangeInclusive<i32>>,
    /// Print a random game graph with transpositions instead: levels of nodes, links from each level
    /// to the next or (--skip-probability) two plies further, an evaluation on every node, White
    /// (MAX) at even levels. Printed in the gtree format, which keeps the shared nodes.
    #[arg(long)]
    graph: bool,
    /// With --graph: levels below the root; the leaves stand on the last.
    #[arg(long, default_value_t = 4, requires = "graph", value_parser = crate::sizes::depth)]
    levels: u32,
    /// With --graph: nodes drawn for each level below the root, `A..B` (inclusive) or a single
    /// number; nodes no link reaches are left out.
    #[arg(long, default_value = "2..4", requires = "graph", value_parser = parse_range::<u32>)]
    level_nodes: RangeInclusive<u32>,
    /// With --graph: the probability that a link skips two plies (level k to k+3), so that a
    /// position is reached at different depths.
    #[arg(long, default_value_t = 0.25, requires = "graph")]
    skip_probability: f64,
    /// How to print the tree; default: paren, or gtree with --graph or --interior-values.
    #[arg(long, value_enum)]
    format: Option<OutputFormat>,
}

pub fn run(args: &GenArgs) -> Result<ExitCode, CliError> {
    if args.graph {
        return graph(args);
    }
    let config = RandomTreeConfig {
        seed: args.seed,
        width: args.width.clone(),
        depth: args.depth.clone(),
        values: args.values.clone(),
        leaf_probability: args.leaf_probability,
        uniform: args.uniform,
        interior_values: args.interior_values.clone(),
    };
    if args.interior_values.is_some() && args.format == Some(OutputFormat::Paren) {
        return Err(CliError(
            "--format paren cannot hold interior evaluations: print the tree as gtree (the default with \
             --interior-values)"
                .to_owned(),
        ));
    }
    let tree = config.generate()?;
    let default_format =
        if args.interior_values.is_some() { OutputFormat::Gtree } else { OutputFormat::Paren };
    match args.format.unwrap_or(default_format) {
        OutputFormat::Paren => outln!("{}", text::print(&tree)),
        OutputFormat::Gtree => out!("{}", gtree::print(&tree)),
    }
    Ok(ExitCode::SUCCESS)
}

fn graph(args: &GenArgs) -> Result<ExitCode, CliError> {
    if args.format == Some(OutputFormat::Paren) {
        return Err(CliError(
            "--format paren cannot hold a graph's shared nodes and interior evaluations: print it as \
             gtree (the default with --graph)"
                .to_owned(),
        ));
    }
    let config = RandomGraphConfig {
        seed: args.seed,
        plies: args.levels,
        nodes: args.level_nodes.clone(),
        children: args.width.clone(),
        skip_probability: args.skip_probability,
        values: args.values.clone(),
    };
    out!("{}", gtree::print(&config.generate()?));
    Ok(ExitCode::SUCCESS)
}

/// Parses `A..B`, `A..=B` (both inclusive) or `A`.
pub fn parse_range<T: FromStr + Copy>(source: &str) -> Result<RangeInclusive<T>, String> {
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
