//! What a command searches: a tree read from a file or standard input, in the format its name or
//! `--format` says, a game position (`--game`, `--position`), or an engine's game served over the
//! line protocol (`--engine`).

use std::io::{IsTerminal, Read};
use std::path::Path;
use std::time::Duration;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, ValueEnum};
use nullwindow::game::{Game as _, Player};
use nullwindow::oracle::protocol::{self, EngineTree};
use nullwindow::registry::Driver;
use nullwindow::registry::games::{AnyGame, KnownGame};
use nullwindow::tree::{NodeId, Tree, gtree, text};
use nullwindow::value::Value;

use crate::CliError;
use crate::output::errln;

/// A tree file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// `.gtree` files are gtree, everything else (and standard input) the parenthesis format.
    Auto,
    /// The parenthesis format: `((3 17) (2 12) (15 (25 0)))`.
    Paren,
    /// One node per line: `ID EVAL [W|B] CHILD_ID…`.
    Gtree,
}

/// The help of `--root`, shared by every command that reads a tree file.
pub const ROOT_HELP: &str = "The id of the root node of a gtree file. Without it, the root is the one \
node that no line names as a child, and every node must be reachable from it; with it, nodes not \
reachable from ID are allowed and are not part of the searched graph. Not for the parenthesis format";

/// Reads and parses the tree at `path` (`-` for standard input); `root` chooses a gtree file's root.
pub fn read_tree(path: &str, format: Format, root: Option<&str>) -> Result<Tree, CliError> {
    read(path, format, root, false).map(|(tree, _)| tree)
}

/// As [`read_tree`], with the id each node has in a gtree file (`ids[node.index()]`), or `None`
/// for a tree read in the parenthesis format, whose nodes have no names.
pub fn read_tree_with_ids(
    path: &str,
    format: Format,
    root: Option<&str>,
) -> Result<(Tree, Option<Vec<String>>), CliError> {
    read(path, format, root, true)
}

/// Whether `path` is read as a gtree file in `format`.
pub fn is_gtree(path: &str, format: Format) -> bool {
    match format {
        Format::Auto => Path::new(path).extension().is_some_and(|ext| ext == "gtree"),
        chosen => chosen == Format::Gtree,
    }
}

// Only a command that names nodes keeps their ids: a copy of each costs memory on large files.
fn read(
    path: &str,
    format: Format,
    root: Option<&str>,
    keep_ids: bool,
) -> Result<(Tree, Option<Vec<String>>), CliError> {
    let format = match format {
        Format::Auto if is_gtree(path, format) => Format::Gtree,
        Format::Auto if root.is_some() => {
            let (what, why) = if path == "-" {
                ("standard input".to_owned(), "")
            } else {
                (format!("'{path}'"), " (its name does not end in .gtree)")
            };
            return Err(CliError(format!(
                "--root names a node of a gtree file, but {what} is read in the parenthesis format{why}: \
                 add --format gtree"
            )));
        }
        Format::Auto => Format::Paren,
        Format::Paren if root.is_some() => {
            return Err(CliError(
                "--root names a node of a gtree file; a parenthesis-format tree's root is its outermost node"
                    .to_owned(),
            ));
        }
        chosen => chosen,
    };
    if path == "-" && std::io::stdin().is_terminal() {
        return Err(CliError(
            "no tree on standard input: name a tree file, or pipe one in with '-'".to_owned(),
        ));
    }
    let (name, bytes) = read_input(path, "")?;
    let parsed = match format {
        Format::Gtree => {
            let source = std::str::from_utf8(&bytes).map_err(|e| {
                let (line, column) = line_and_column(&bytes, e.valid_up_to());
                CliError(format!("{name}:{line}:{column}: the file is not valid UTF-8"))
            })?;
            if keep_ids {
                gtree::parse_with_ids(source, root).map(|(tree, ids)| (tree, Some(ids)))
            } else {
                match root {
                    Some(root) => gtree::parse_with_root(source, root),
                    None => gtree::parse(source),
                }
                .map(|tree| (tree, None))
            }
        }
        _ => text::parse_bytes(&bytes).map(|tree| (tree, None)),
    };
    parsed.map_err(|e| {
        // A parenthesis tree read as gtree fails on some odd id; say what it looks like.
        let first = String::from_utf8_lossy(&bytes)
            .lines()
            .map(|line| line.split('#').next().unwrap_or("").trim().to_owned())
            .find(|line| !line.is_empty());
        let hint = if format == Format::Gtree && first.is_some_and(|line| line.starts_with('(')) {
            " (the file looks like the parenthesis format: leave out --format gtree)"
        } else {
            ""
        };
        CliError(format!("{name}:{}:{}: {}{hint}", e.line, e.column, e.message))
    })
}

/// The most bytes a file the command line reads may hold (a tree, a trace, a test set): more is an
/// error that says so, not a read that runs until memory runs out (`/dev/zero`).
pub const MAX_INPUT_BYTES: u64 = 512 << 20;

/// The bytes of `path` (`-`: standard input), at most [`MAX_INPUT_BYTES`], and the name to give
/// it in messages; `what` says what it is (` the trace`) in an error.
pub fn read_input(path: &str, what: &str) -> Result<(String, Vec<u8>), CliError> {
    let name = if path == "-" { "<stdin>".to_owned() } else { path.to_owned() };
    let mut bytes = Vec::new();
    let read = if path == "-" {
        std::io::stdin().lock().take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|file| file.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes))
    };
    read.map_err(|e| {
        if path == "-" {
            CliError(format!("cannot read{what} from standard input: {e}"))
        } else {
            CliError(format!("cannot read{what} '{path}': {e}"))
        }
    })?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(CliError(format!(
            "{name}: larger than {} MiB, the most{what} a file read here may hold",
            MAX_INPUT_BYTES >> 20
        )));
    }
    Ok((name, bytes))
}

fn line_and_column(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = offset - before.iter().rposition(|&b| b == b'\n').map_or(0, |newline| newline + 1) + 1;
    (line, column)
}

/// `--game`: a name from the catalogue of games, each listed in `--help` with how its positions
/// are written.
pub fn game_parser() -> impl TypedValueParser<Value = KnownGame> {
    let names = KnownGame::ALL.iter().map(|game| {
        let info = game.info();
        PossibleValue::new(info.name).help(format!("{}; a position is {}", info.title, info.position))
    });
    PossibleValuesParser::new(names)
        .map(|name| KnownGame::from_name(&name).expect("clap accepts only the catalogue's names"))
}

/// Where a search starts: a tree file, or a game position.
#[derive(Args)]
pub struct TargetArgs {
    /// The tree file, or `-` for standard input (default, unless --game is given).
    file: Option<String>,
    /// The input format of a tree file.
    #[arg(long, value_enum, default_value_t = Format::Auto)]
    format: Format,
    /// Search a game instead of a tree file.
    #[arg(long, value_parser = game_parser())]
    game: Option<KnownGame>,
    /// The game position: the moves played from the start (see --game); with --engine, the
    /// engine's move names separated by spaces, or a position's token (`moves:…` or `token:…` says
    /// which, and a word that is both must say).
    #[arg(long, default_value = "")]
    pub position: String,
    #[arg(long, value_name = "ID", conflicts_with = "game", help = ROOT_HELP)]
    root: Option<String>,
    /// Search the game an engine serves over the line protocol instead (run by `sh -c`; the
    /// protocol is in the book's "Your game, your engine"): its game is unfolded to the depth
    /// (--depth; to its end without one), values from the side to move at its root.
    #[arg(long, value_name = "CMD", conflicts_with_all = ["game", "root", "file"])]
    pub engine: Option<String>,
    /// With --engine: the longest the engine may take to answer one request, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0, requires = "engine")]
    engine_timeout: f64,
    /// With --engine: the most positions to unfold (nodes, a position once per depth left).
    #[arg(long, value_name = "N", default_value_t = 1_000_000, requires = "engine")]
    max_positions: usize,
    /// With --engine: the most memory, in MiB, the engine's answers and the unfolded game may take.
    #[arg(long, value_name = "MIB", default_value_t = 512, requires = "engine")]
    max_memory: usize,
    /// Start from the node these child indices lead to (0 = first child, dot-separated: `0.2.1`),
    /// as if its moves were played: walk a tree file like a game.
    #[arg(long, value_name = "INDICES", conflicts_with = "game", value_parser = parse_path)]
    path: Option<ChildPath>,
}

/// The child indices of `--path` (a type of its own: clap would read a `Vec` as several values).
#[derive(Clone, Debug)]
pub struct ChildPath(Vec<u32>);

/// Parses `--path`: child indices separated by dots (`0.2.1`); empty for the root.
fn parse_path(text: &str) -> Result<ChildPath, String> {
    if text.is_empty() {
        return Ok(ChildPath(Vec::new()));
    }
    text.split('.')
        .map(|part| {
            part.trim().parse::<u32>().map_err(|_| {
                format!("'{}' is not a child index (a number from 0, the first child)", text::excerpt(part))
            })
        })
        .collect::<Result<_, _>>()
        .map(ChildPath)
}

/// The node `path` leads to from the root of `tree`, or an error naming the step that leaves the tree.
pub fn walk(tree: &Tree, path: &[u32]) -> Result<NodeId, CliError> {
    let mut node = tree.root_id();
    for (step, &index) in path.iter().enumerate() {
        let children = tree.children(node);
        node = *children.get(index as usize).ok_or_else(|| {
            let at =
                if step == 0 { "the root".to_owned() } else { format!("node {}", dotted(&path[..step])) };
            CliError(format!(
                "--path {}: {at} has {}, so there is no child {index}",
                dotted(path),
                match children.len() {
                    0 => "no children (it is a leaf)".to_owned(),
                    1 => "one child (index 0)".to_owned(),
                    n => format!("{n} children (0 to {})", n - 1),
                }
            ))
        })?;
    }
    Ok(node)
}

/// A path written as `--path` takes it.
pub fn dotted(path: &[u32]) -> String {
    path.iter().map(ToString::to_string).collect::<Vec<_>>().join(".")
}

/// A tree or a game position, read from the command line.
pub enum Target {
    /// A tree file.
    Tree(Tree),
    /// A position of a game of the catalogue.
    Game(AnyGame),
    /// An engine's game, served over the line protocol and unfolded.
    Engine(Box<EngineTree>),
}

/// Runs `$body` with `$game` bound to the target's [`Game`](nullwindow::game::Game), whatever its type.
macro_rules! with_game {
    ($target:expr, $game:ident => $body:expr) => {
        match $target {
            $crate::input::Target::Tree($game) => $body,
            $crate::input::Target::Game(any) => nullwindow::with_any_game!(any, $game => $body),
            $crate::input::Target::Engine(engine) => {
                let $game = &engine.game();
                $body
            }
        }
    };
}
pub(crate) use with_game;

/// Runs `$body` with `$game` bound to the target's game and `$names` to how records name its nodes
/// (a tree's `gtree` ids `$ids` or node numbers; a game's moves from the start, from `$position`).
macro_rules! with_names {
    ($target:expr, $ids:expr, $position:expr, $game:ident, $names:ident => $body:expr) => {
        match $target {
            $crate::input::Target::Tree($game) => {
                let $names = nullwindow::oracle::record::TreeNames::new($ids);
                $body
            }
            $crate::input::Target::Game(any) => {
                let $names = nullwindow::oracle::record::MoveNames { root_moves: $position.clone() };
                nullwindow::with_any_game!(any, $game => $body)
            }
            $crate::input::Target::Engine(engine) => {
                let $names = engine.names();
                let $game = &engine.game();
                $body
            }
        }
    };
}
pub(crate) use with_names;

impl TargetArgs {
    /// Whether a tree file, a game or an engine is named (else a tree is read from standard input).
    pub fn names_a_target(&self) -> bool {
        self.game.is_some() || self.engine.is_some() || self.file.is_some()
    }

    /// Whether the target is read from standard input.
    pub fn reads_stdin(&self) -> bool {
        self.game.is_none() && self.engine.is_none() && self.file.as_deref().is_none_or(|file| file == "-")
    }

    /// The child indices of `--path`, if given.
    pub fn path(&self) -> Option<&[u32]> {
        self.path.as_ref().map(|path| path.0.as_slice())
    }

    /// One line saying what `target` (read from these arguments) is.
    pub fn describe(&self, target: &Target) -> String {
        target.describe(&self.position, self.path())
    }

    /// Reads the tree file, sets up the game position, or unfolds the engine's game `depth` plies
    /// (`None`: to its end).
    pub fn read(&self, depth: Option<u32>) -> Result<Target, CliError> {
        self.read_target(false, depth).map(|(target, _)| target)
    }

    /// Reads the target like [`TargetArgs::read`], with each node's gtree id when the target is a
    /// gtree file (indexed by the node's arena index in the target's tree).
    pub fn read_with_ids(&self, depth: Option<u32>) -> Result<(Target, Option<Vec<String>>), CliError> {
        self.read_target(true, depth)
    }

    fn read_target(
        &self,
        keep_ids: bool,
        depth: Option<u32>,
    ) -> Result<(Target, Option<Vec<String>>), CliError> {
        if let Some(command) = &self.engine {
            // Before anything is unfolded: a depth the searches cannot reach is refused, not lowered.
            if let Some(depth) = depth {
                crate::sizes::within_search_height("depth", depth)?;
            }
            if !(self.engine_timeout.is_finite() && self.engine_timeout > 0.0) {
                return Err(CliError(format!(
                    "--engine-timeout {}: an answer needs some time, in seconds",
                    self.engine_timeout
                )));
            }
            let options = protocol::Options {
                depth: depth.filter(|&depth| depth != u32::MAX),
                max_nodes: self.max_positions,
                max_bytes: self.max_memory.saturating_mul(1 << 20),
                timeout: Duration::from_secs_f64(self.engine_timeout.min(1e9)),
            };
            // A long unfolding shows it is alive, off a terminal too.
            let bar =
                crate::progress::bar(self.max_positions as u64, "positions", "unfolding the engine's game");
            let path = self.path().unwrap_or(&[]);
            let unfolded = protocol::unfold_engine_reporting(
                command,
                &options,
                &self.position,
                path,
                &mut |positions| {
                    bar.set_position(positions as u64);
                },
            );
            bar.finish_and_clear();
            let engine = unfolded.map_err(|e| CliError(format!("--engine: {e}")))?;
            // The time varies from run to run, so it stays out of what a command prints.
            if !crate::progress::quiet() {
                errln!(
                    "note: the engine answered {} in {} ms",
                    crate::output::counted(u128::from(engine.requests), "request", "requests"),
                    engine.elapsed.as_millis()
                );
            }
            return Ok((Target::Engine(Box::new(engine)), None));
        }
        if self.game.is_none() && !self.position.is_empty() {
            return Err(CliError(format!(
                "--position '{}' goes with --game or --engine (a tree file's node is chosen with --path)",
                text::excerpt(&self.position)
            )));
        }
        let target = match (self.game, &self.file) {
            (Some(_), Some(file)) => {
                Err(CliError(format!("give a tree file or --game, not both (the file was '{file}')")))
            }
            (Some(game), None) => Ok(Target::Game(
                game.at(&self.position)
                    .map_err(|e| CliError(format!("--position '{}': {e}", self.position)))?,
            )),
            (None, file) => {
                let (tree, ids) =
                    read(file.as_deref().unwrap_or("-"), self.format, self.root.as_deref(), keep_ids)?;
                let Some(path) = self.path() else { return Ok((Target::Tree(tree), ids)) };
                let (subtree, original) = tree.subtree(walk(&tree, path)?);
                let ids = ids.map(|ids| original.iter().map(|node| ids[node.index()].clone()).collect());
                return Ok((Target::Tree(subtree), ids));
            }
        };
        target.map(|target| (target, None))
    }
}

impl Target {
    /// The exact driver whose value the others are checked against: plain minimax for a tree, the
    /// catalogue's reference for a game.
    pub const fn reference(&self) -> Driver {
        match self {
            Self::Tree(_) | Self::Engine(_) => Driver::Minimax,
            Self::Game(game) => game.info().reference,
        }
    }

    /// The drivers `--algo` means when not given: every exact one for a tree, the catalogue's
    /// default for a game.
    pub const fn default_drivers(&self) -> &'static str {
        match self {
            Self::Tree(_) | Self::Engine(_) => "all",
            Self::Game(game) => game.info().default_drivers,
        }
    }

    /// One line saying what is searched; `position` is the game position's moves, `path` the
    /// child indices walked from a tree file's root.
    pub fn describe(&self, position: &str, path: Option<&[u32]>) -> String {
        match self {
            Self::Tree(tree) => {
                let stats = tree.stats();
                use crate::output::counted;
                let (nodes, leaves) = (stats.nodes as u128, stats.leaves as u128);
                let at = path.map_or_else(String::new, |path| {
                    format!(" at path {} ({} to move)", dotted(path), tree.player(tree.root_id()))
                });
                format!(
                    "tree{at}: {}, {}, height {}",
                    counted(nodes, "node", "nodes"),
                    counted(leaves, "leaf", "leaves"),
                    stats.height
                )
            }
            Self::Game(game) => game.describe(position),
            Self::Engine(engine) => {
                use crate::output::counted;
                let stats = engine.tree.stats();
                let depth = engine.depth_left.first().copied().unwrap_or(0);
                let unfolded =
                    if depth == u32::MAX { "to its end".to_owned() } else { format!("{depth} plies") };
                let mut at = String::new();
                if !position.is_empty() {
                    at.push_str(&format!(" from position '{position}'"));
                }
                if let Some(path) = path {
                    at.push_str(&format!(
                        " at path {} ({} to move)",
                        dotted(path),
                        engine.tree.player(engine.tree.root_id())
                    ));
                }
                format!(
                    "the engine's game{at}, unfolded {unfolded}: {}, {}, height {} ({})",
                    counted(stats.nodes as u128, "position", "positions"),
                    counted(stats.leaves as u128, "leaf", "leaves"),
                    stats.height,
                    counted(u128::from(engine.requests), "request", "requests"),
                )
            }
        }
    }

    /// On an engine's game where a side moves twice, keeps plain minimax alone: the drivers search
    /// alternating games (negamax turns every value at every ply). A driver `list` names one by one
    /// is refused; those a group (`all`, `optimized`) brought in are left out, saying so in one
    /// line.
    pub fn check_drivers(&self, drivers: &mut Vec<Driver>, list: &str) -> Result<(), CliError> {
        let Self::Engine(engine) = self else { return Ok(()) };
        let Some((node, index)) = engine.repeated_mover() else { return Ok(()) };
        let twice = format!(
            "the engine's game lets a side move twice (after move '{}' at '{}', {} moves again)",
            text::excerpt(&engine.moves[node.index()][index]),
            text::excerpt(&engine.tokens[node.index()]),
            engine.tree.player(node),
        );
        let named: Vec<&str> = list.split(',').map(str::trim).collect();
        if let Some(driver) =
            drivers.iter().find(|driver| **driver != Driver::Minimax && named.contains(&driver.info().name))
        {
            return Err(CliError(format!(
                "{twice}, and {} searches games whose sides alternate: search it with --algo minimax; divide, \
                 check, audit and fuzz judge it exactly",
                driver.info().name
            )));
        }
        let (kept, left_out): (Vec<Driver>, Vec<Driver>) =
            drivers.iter().partition(|driver| **driver == Driver::Minimax);
        if !left_out.is_empty() {
            if kept.is_empty() {
                return Err(CliError(format!(
                    "{twice}, and every driver of '{}' searches games whose sides alternate: search it with \
                     --algo minimax",
                    text::excerpt(list)
                )));
            }
            let names: Vec<&str> = left_out.iter().map(|driver| driver.info().name).collect();
            errln!(
                "note: left out {}: {twice}, and they search games whose sides alternate",
                names.join(", ")
            );
            *drivers = kept;
        }
        Ok(())
    }

    /// The least and the greatest evaluation the target's positions can have: over a tree's (or
    /// an unfolded engine game's) nodes, or the game's range from the catalogue.
    pub fn value_range(&self) -> (Value, Value) {
        let over = |tree: &Tree| {
            tree.post_order()
                .into_iter()
                .map(|node| tree.evaluation(node))
                .fold((Value::MAX, Value::MIN), |(low, high), value| (low.min(value), high.max(value)))
        };
        match self {
            Self::Tree(tree) => over(tree),
            Self::Engine(engine) => over(&engine.tree),
            Self::Game(game) => game.info().values,
        }
    }

    /// The root's static evaluation from MAX's side: the first guess of a driver not given one
    /// (a game of the catalogue's values are small, so 0 stands for it).
    pub fn root_evaluation(&self) -> Value {
        self.tree().map_or(0, |tree| tree.evaluation(tree.root_id()))
    }

    /// The tree, when the target is one.
    pub const fn tree(&self) -> Option<&Tree> {
        match self {
            Self::Tree(tree) => Some(tree),
            Self::Engine(engine) => Some(&engine.tree),
            _ => None,
        }
    }

    /// Whose side the reported values are from: the side to move at the root (MAX for a tree).
    pub fn root_player(&self) -> Player {
        with_game!(self, game => game.to_move(&game.root()))
    }

    /// The side to move at the root as a message names it: `MAX`, and, for an engine that names
    /// its players (`mover`), its own word too (`MAX, the engine's 'white'`).
    pub fn root_player_named(&self) -> String {
        match self {
            Self::Engine(engine) if engine.root_word.is_some() => {
                format!(
                    "{}, the engine's '{}'",
                    self.root_player(),
                    engine.root_word.as_deref().unwrap_or_default()
                )
            }
            _ => self.root_player().to_string(),
        }
    }
}

/// Finds the legal move at `position` written `text` (as the game prints its moves).
pub fn parse_move<G: nullwindow::game::Game>(
    game: &G,
    position: &G::Position,
    text: &str,
) -> Option<G::Move> {
    game.legal_moves(position).into_iter().find(|mv| mv.to_string() == text)
}
