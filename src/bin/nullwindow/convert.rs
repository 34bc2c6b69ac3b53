//! `nullwindow convert`: a tree file printed in the other format.
//!
//! Parenthesis to gtree never loses anything. Gtree to parenthesis can: interior evaluations, a MIN
//! root, and shared nodes, which the parenthesis format prints once per parent. Such a conversion
//! is refused with the first node it would lose, unless `--lossy` asks for it anyway.

use std::process::ExitCode;

use clap::{Args, ValueEnum};
use nullwindow::tree::text::{self, Loss, excerpt};
use nullwindow::tree::{NodeId, Tree, gtree};

use crate::CliError;
use crate::input::{Format, ROOT_HELP, read_tree_with_ids};
use crate::output::{counted, errln, out, outln};

/// The most nodes the parenthesis format is asked to print: a graph whose shared nodes expand to
/// more would print gigabytes.
const MAX_PRINTED_NODES: u64 = 1 << 25;

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum OutputFormat {
    /// The parenthesis format.
    Paren,
    /// One node per line: `ID EVAL W|B CHILD_ID…`.
    Gtree,
}

#[derive(Args)]
pub struct ConvertArgs {
    /// The tree file, or `-` for standard input.
    #[arg(default_value = "-")]
    file: String,
    /// The format to print.
    #[arg(long, value_enum)]
    to: OutputFormat,
    /// The input format.
    #[arg(long, value_enum, default_value_t = Format::Auto)]
    format: Format,
    #[arg(long, value_name = "ID", help = ROOT_HELP)]
    root: Option<String>,
    /// Convert to the parenthesis format even what it cannot hold (interior evaluations, a MIN
    /// root, shared nodes printed once per parent), and say on standard error what was lost.
    #[arg(long)]
    lossy: bool,
}

pub fn run(args: &ConvertArgs) -> Result<ExitCode, CliError> {
    let (tree, ids) = read_tree_with_ids(&args.file, args.format, args.root.as_deref())?;
    if args.to == OutputFormat::Gtree {
        out!("{}", gtree::print(&tree));
        return Ok(ExitCode::SUCCESS);
    }
    let losses = text::losses(&tree);
    let name = |node: NodeId| node_name(&tree, ids.as_deref(), node);
    if let Some(&first) = losses.first().filter(|_| !args.lossy) {
        let why = match first {
            Loss::MinRoot => format!(
                "the root {} is MIN (B), and the parenthesis format's root is always MAX",
                name(tree.root_id())
            ),
            Loss::InteriorEvaluation(node) => format!(
                "node {} is interior with the evaluation {}, and the parenthesis format gives interior nodes \
                 none (a depth-limited search reads 0)",
                name(node),
                tree.evaluation(node)
            ),
            Loss::SharedNode(node) => format!(
                "node {} has {} parents, and the parenthesis format prints it once per parent: the \
                 transposition is lost",
                name(node),
                parent_counts(&tree)[node.index()]
            ),
        };
        return Err(CliError(format!("cannot convert without loss: {why}; add --lossy to convert anyway")));
    }
    let printed = text::printed_node_count(&tree);
    if printed > MAX_PRINTED_NODES {
        let size = if printed == u64::MAX { "more than 10^19".to_owned() } else { format!("{printed}") };
        return Err(CliError(format!(
            "printed in the parenthesis format, its shared nodes once per parent, this graph of {} \
             would be a tree of {size} nodes; the limit is {MAX_PRINTED_NODES}",
            counted(tree.stats().nodes, "node", "nodes")
        )));
    }
    if !losses.is_empty() {
        errln!("note: the parenthesis format lost {}", describe(&tree, &losses, &name));
    }
    outln!("{}", text::print(&tree));
    Ok(ExitCode::SUCCESS)
}

/// What `losses` amount to, in one phrase.
fn describe(tree: &Tree, losses: &[Loss], name: &dyn Fn(NodeId) -> String) -> String {
    let mut parts = Vec::new();
    if losses.contains(&Loss::MinRoot) {
        parts.push(format!("the root's colour ({} is MIN, printed as MAX)", name(tree.root_id())));
    }
    let evaluations: Vec<NodeId> = losses
        .iter()
        .filter_map(|loss| if let Loss::InteriorEvaluation(node) = loss { Some(*node) } else { None })
        .collect();
    if let Some(&first) = evaluations.first() {
        parts.push(format!(
            "{} that {} not 0 (the first at node {})",
            counted(evaluations.len() as u128, "interior evaluation", "interior evaluations"),
            if evaluations.len() == 1 { "is" } else { "are" },
            name(first)
        ));
    }
    let shared: Vec<NodeId> = losses
        .iter()
        .filter_map(|loss| if let Loss::SharedNode(node) = loss { Some(*node) } else { None })
        .collect();
    if let Some(&first) = shared.first() {
        parts.push(format!(
            "the sharing of {}, printed once per parent (the first is node {})",
            counted(shared.len() as u128, "node", "nodes"),
            name(first)
        ));
    }
    parts.join("; ")
}

/// How many parents each node reachable from the root has.
fn parent_counts(tree: &Tree) -> Vec<u32> {
    let mut parents = vec![0u32; tree.node_count()];
    for node in tree.post_order() {
        for child in tree.children(node) {
            parents[child.index()] = parents[child.index()].saturating_add(1);
        }
    }
    parents
}

/// A node as the user knows it: its gtree id, or its path of child indices from the root.
fn node_name(tree: &Tree, ids: Option<&[String]>, node: NodeId) -> String {
    if let Some(id) = ids.and_then(|ids| ids.get(node.index())) {
        return format!("'{}'", excerpt(id));
    }
    // The path by which a preorder walk first reaches the node.
    let mut parent: Vec<Option<(NodeId, u32)>> = vec![None; tree.node_count()];
    let mut seen = vec![false; tree.node_count()];
    let mut stack = vec![(tree.root_id(), None)];
    while let Some((at, from)) = stack.pop() {
        if std::mem::replace(&mut seen[at.index()], true) {
            continue;
        }
        parent[at.index()] = from;
        for (index, &child) in tree.children(at).iter().enumerate().rev() {
            stack.push((child, Some((at, u32::try_from(index).unwrap_or(u32::MAX)))));
        }
    }
    let mut path = Vec::new();
    let mut at = node;
    while let Some((up, index)) = parent[at.index()] {
        path.push(index.to_string());
        at = up;
    }
    path.reverse();
    if path.is_empty() {
        "at the root".to_owned()
    } else {
        format!("at the path {} (child indices from the root)", path.join(" "))
    }
}
