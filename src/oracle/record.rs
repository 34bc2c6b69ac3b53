//! Records: one node of a search, as `nullwindow trace` writes it and `nullwindow audit` reads it.
//!
//! A [`Record`] says which node was searched (its path of child indices from the root, and a
//! [`NodeName`]), how deep, with which window, and what it returned; a trace adds the order it was
//! visited in, the root call (*pass*) it belongs to, what the table did, the bound stored and the
//! child that cut it off. As text, a record is one JSON object on a line (JSON lines):
//!
//! ```text
//! {"visit":3,"pass":1,"path":[0,0],"node":2,"depth":1,"alpha":-1,"beta":0,"result":3,"probe":"none","stored":null,"cutoff":null}
//! ```
//!
//! This module is the one place that knows the format: [`Recorder`] turns the node events of any
//! driver ([`crate::driver::observe`]) into records, [`write_jsonl`] writes them, [`read_jsonl`]
//! reads another engine's (with the line and column of what is wrong), and [`locate`] finds each
//! record's node in a game by its path or its name ([`NodeNames`]). Values are from MAX's side;
//! [`Record::turned`] is where a record turns between MAX's side and the side to move.
//!
//! # Example: audit a Rust engine's records with the library alone
//!
//! Reading JSON lines takes the `serde` feature (on with the default `cli`); a Rust engine can as
//! well build its [`Record`]s itself.
//!
#![cfg_attr(feature = "serde", doc = "```")]
#![cfg_attr(not(feature = "serde"), doc = "```ignore")]
//! use nullwindow::driver::Perspective;
//! use nullwindow::oracle::audit::{Options, Rule, audit};
//! use nullwindow::oracle::record::{TreeNames, locate, read_jsonl};
//! use nullwindow::tree::Tree;
//!
//! let tree: Tree = "((3 17) (2 1))".parse()?;
//! // Your negamax engine's records, values from the side to move: the second MIN node, searched
//! // with (-INF, -3) from MIN's side, returned -2 and stored it as exact; but its value, from
//! // MIN's side, is -1.
//! let lines = r#"{"path": [0], "depth": 1, "alpha": -1000000000, "beta": 1000000000, "result": -3}
//! {"path": [1], "depth": 1, "alpha": -1000000000, "beta": -3, "result": -2, "stored": "exact"}"#;
//! let read = read_jsonl(lines).map_err(|e| e.to_string())?;
//! let records = locate(&tree, &TreeNames::new(None), read).map_err(|e| e.to_string())?;
//! let options = Options { perspective: Perspective::Mover, ..Options::default() };
//! let first = audit(&tree, &records, &options).first.unwrap();
//! assert_eq!((first.record, first.rule, first.exact), (1, Rule::Stored, -1));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashMap;
use std::fmt;

use crate::driver::observe::{NodeEntered, NodeReturned, Observer, Perspective, Probe};
use crate::game::{Game, Player};
use crate::tree::{NodeId, Tree};
use crate::value::{Bound, Value};

/// Which event of a node a record stands for, in a trace that writes both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "lowercase"))]
pub enum Event {
    /// The node was entered: it has no result yet.
    Enter,
    /// The node returned.
    Return,
}

/// How a record names its node besides its path: a number (a node of a parenthesis tree, counted
/// from 0 at the root in the file's order) or a string (a `gtree` id, or a game position as the
/// moves played from the start).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(untagged))]
pub enum NodeName {
    /// A node number.
    Number(u64),
    /// An id or a position.
    Id(String),
}

impl fmt::Display for NodeName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Number(number) => write!(f, "{number}"),
            // The empty name (a game's starting position) still shows.
            Self::Id(id) if id.is_empty() => f.write_str("''"),
            Self::Id(id) => f.write_str(&crate::tree::text::excerpt(id)),
        }
    }
}

/// One node of a search: what it was asked and what it answered (values from MAX's side unless
/// said otherwise), and what a trace adds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record<P> {
    /// The node (`()` for a record read but not yet [located](locate)).
    pub position: P,
    /// The child indices from the root to the node (in a game: indices into the legal moves, in
    /// the game's order), if known: they tell which records lie below which.
    pub path: Option<Vec<u32>>,
    /// The node's name, if the record gives one.
    pub node: Option<NodeName>,
    /// The plies from the searched position down to the node, if the record gives them (`ply`):
    /// where a node named by its token alone lies, which its side to move and, for an engine that
    /// scores by distance, its value depend on. A path or moves give it already, and must agree.
    pub ply: Option<u32>,
    /// The plies the node was searched to (its remaining depth).
    pub depth: u32,
    /// The window's lower end, as the node was called.
    pub alpha: Value,
    /// The window's upper end.
    pub beta: Value,
    /// What the search of the node returned (meaningless in an [`Event::Enter`] record).
    pub result: Value,
    /// How the engine stored the result in its table, if it did.
    pub stored: Option<Bound>,
    /// What the engine's table did at the node: [`Probe::Cutoff`] says the result is a table
    /// entry's, returned without a search, which the audit traces to the record that stored it.
    pub probe: Option<Probe>,
    /// The child index whose value reached beta, if one did.
    pub cutoff: Option<u32>,
    /// Which event the record stands for, in a trace that writes both.
    pub event: Option<Event>,
    /// The order the node was entered in, from 1.
    pub visit: Option<u64>,
    /// The root call the node belongs to, from 1 (`nullwindow trace` counts them within each
    /// iteration instead).
    pub pass: Option<u64>,
    /// The iteration of an iteratively deepening search the node belongs to, from 1 (its root
    /// searches at one depth); `None` for a search of one depth.
    pub iteration: Option<u64>,
    /// The line the record was read from, from 1.
    pub line: Option<usize>,
}

impl<P> Record<P> {
    /// A record of `position` searched `depth` plies deep with the window `(alpha, beta)`, which
    /// returned `result`; nothing else known.
    #[must_use]
    pub const fn new(position: P, depth: u32, (alpha, beta): (Value, Value), result: Value) -> Self {
        Self {
            position,
            path: None,
            node: None,
            ply: None,
            depth,
            alpha,
            beta,
            result,
            stored: None,
            probe: None,
            cutoff: None,
            event: None,
            visit: None,
            pass: None,
            iteration: None,
            line: None,
        }
    }

    /// The record with its values read from `perspective` at a node where `player` moves, turned to
    /// MAX's side: MIN's window `(a, b)` is MAX's `(-b, -a)`, its lower bounds MAX's upper bounds.
    /// Turning a record from MAX's side with `Perspective::Mover` reads it from the side to move
    /// again (the turn is its own inverse). The crate's one place where a record turns.
    #[must_use]
    pub fn turned(self, player: Player, perspective: Perspective) -> Self {
        let (alpha, beta, result) = perspective.turn(player, (self.alpha, self.beta, self.result));
        let stored = self.stored.map(|bound| perspective.turn_bound(player, bound));
        Self { alpha, beta, result, stored, ..self }
    }

    /// The same record of another position (the node as found in a game).
    #[must_use]
    pub fn at<Q>(self, position: Q) -> Record<Q> {
        Record {
            position,
            path: self.path,
            node: self.node,
            ply: self.ply,
            depth: self.depth,
            alpha: self.alpha,
            beta: self.beta,
            result: self.result,
            stored: self.stored,
            probe: self.probe,
            cutoff: self.cutoff,
            event: self.event,
            visit: self.visit,
            pass: self.pass,
            iteration: self.iteration,
            line: self.line,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Naming nodes

/// How a game's records name its nodes (`node`), beside their paths: for writing a record, and for
/// finding the node a record read names.
pub trait NodeNames<G: Game> {
    /// The name of `position`, reached from the root by `path`.
    fn name(&self, game: &G, position: &G::Position, path: &[u32]) -> NodeName;

    /// The node `name` names, with its path from the root when the name tells it; or why no node
    /// has that name.
    ///
    /// # Errors
    /// A message naming what is wrong with the name.
    fn find(&self, game: &G, name: &NodeName) -> Result<(G::Position, Option<Vec<u32>>), String>;

    /// The node `path` leads to from the root, or why it leads nowhere. The default walks
    /// [`Game::legal_moves`].
    ///
    /// # Errors
    /// The step of the path that is not a legal move.
    fn walk(&self, game: &G, path: &[u32]) -> Result<G::Position, String> {
        let mut position = game.root();
        for (step, &index) in path.iter().enumerate() {
            let legal = game.legal_moves(&position);
            let mv = legal.get(index as usize).copied().ok_or_else(|| {
                format!(
                    "step {} of the path {}: the position has {} legal moves",
                    step + 1,
                    path_text(path),
                    legal.len()
                )
            })?;
            position = game.play(&position, mv);
        }
        Ok(position)
    }
}

/// A path as records and messages print it: `[0,2,1]`, long ones cut in the middle.
#[must_use]
pub fn path_text(path: &[u32]) -> String {
    const SHOWN: usize = 16;
    let steps = |steps: &[u32]| steps.iter().map(ToString::to_string).collect::<Vec<_>>().join(",");
    if path.len() <= 2 * SHOWN {
        format!("[{}]", steps(path))
    } else {
        let left_out = path.len() - 2 * SHOWN;
        format!("[{},… {left_out} more …,{}]", steps(&path[..SHOWN]), steps(&path[path.len() - SHOWN..]))
    }
}

/// The names of a tree's nodes: their `gtree` ids, or their numbers in a parenthesis tree.
#[derive(Clone, Debug, Default)]
pub struct TreeNames {
    ids: Option<Vec<String>>,
    by_id: HashMap<String, NodeId>,
}

impl TreeNames {
    /// Names by the ids `ids` (`ids[node.index()]`, as a `gtree` file gives them), or by number when
    /// `None`.
    #[must_use]
    pub fn new(ids: Option<Vec<String>>) -> Self {
        let mut by_id = HashMap::new();
        for (index, id) in ids.iter().flatten().enumerate() {
            // The first node of an id, should a file repeat one.
            by_id.entry(id.clone()).or_insert(NodeId(index as u32));
        }
        Self { ids, by_id }
    }
}

impl NodeNames<Tree> for TreeNames {
    fn name(&self, _: &Tree, position: &NodeId, _: &[u32]) -> NodeName {
        match &self.ids {
            Some(ids) => NodeName::Id(ids[position.index()].clone()),
            None => NodeName::Number(u64::from(position.0)),
        }
    }

    fn find(&self, tree: &Tree, name: &NodeName) -> Result<(NodeId, Option<Vec<u32>>), String> {
        let node = match (&self.ids, name) {
            (Some(_), name) => {
                let id = match name {
                    NodeName::Id(id) => id.clone(),
                    NodeName::Number(number) => number.to_string(),
                };
                *self
                    .by_id
                    .get(&id)
                    .ok_or_else(|| format!("no node has the id '{}'", crate::tree::text::excerpt(&id)))?
            }
            (None, NodeName::Number(number)) => usize::try_from(*number)
                .ok()
                .filter(|&n| n < tree.node_count())
                .map(|n| NodeId(n as u32))
                .ok_or_else(|| {
                    format!(
                        "the node number {number} is not one of this tree's (0 to {})",
                        tree.node_count() - 1
                    )
                })?,
            (None, NodeName::Id(id)) => {
                return Err(format!(
                    "'node' is the string '{}', but a parenthesis tree names nodes by number (from 0 at the root)",
                    crate::tree::text::excerpt(id)
                ));
            }
        };
        Ok((node, None))
    }

    fn walk(&self, tree: &Tree, path: &[u32]) -> Result<NodeId, String> {
        tree.node_at(path).ok_or_else(|| {
            format!("the path {} leaves the tree (`nullwindow divide --path` walks it)", path_text(path))
        })
    }
}

/// The names of a game's positions: the moves played from the start, one character each (as the
/// game prints its moves), `root_moves` being those of the position the search starts from.
#[derive(Clone, Debug, Default)]
pub struct MoveNames {
    /// The moves that lead to the searched position.
    pub root_moves: String,
}

impl<G: Game> NodeNames<G> for MoveNames {
    fn name(&self, game: &G, _: &G::Position, path: &[u32]) -> NodeName {
        let mut moves = self.root_moves.clone();
        let mut position = game.root();
        for &index in path {
            let Some(mv) = game.legal_moves(&position).get(index as usize).copied() else { break };
            moves.push_str(&mv.to_string());
            position = game.play(&position, mv);
        }
        NodeName::Id(moves)
    }

    fn find(&self, game: &G, name: &NodeName) -> Result<(G::Position, Option<Vec<u32>>), String> {
        let moves = match name {
            NodeName::Id(moves) => moves.clone(),
            NodeName::Number(number) => number.to_string(),
        };
        let excerpt = crate::tree::text::excerpt(&moves);
        let Some(beyond) = moves.strip_prefix(&self.root_moves) else {
            return Err(format!(
                "the position '{excerpt}' does not follow from the searched position '{}'",
                self.root_moves
            ));
        };
        let mut position = game.root();
        let mut path = Vec::new();
        for (at, symbol) in beyond.chars().enumerate() {
            let legal = game.legal_moves(&position);
            let index =
                legal.iter().position(|mv| mv.to_string() == symbol.to_string()).ok_or_else(|| {
                    format!(
                        "the position '{excerpt}': move {} ('{symbol}') is not a legal move there",
                        self.root_moves.chars().count() + at + 1
                    )
                })?;
            position = game.play(&position, legal[index]);
            path.push(index as u32);
        }
        Ok((position, Some(path)))
    }
}

/// Finds each record's node in `game`: by its path, by its name, or by both (which must agree).
///
/// # Errors
/// The first record whose node cannot be found, with its line.
pub fn locate<G: Game>(
    game: &G,
    names: &impl NodeNames<G>,
    records: Vec<Record<()>>,
) -> Result<Vec<Record<G::Position>>, ReadError> {
    records
        .into_iter()
        .map(|record| {
            let at = |message: String| ReadError { line: record.line, column: None, message };
            let by_path = match &record.path {
                Some(path) => Some(names.walk(game, path).map_err(at)?),
                None => None,
            };
            // A path whose node has the record's name agrees with it, whichever node the name
            // alone would find (an engine's token reached at several depths names the deepest).
            if let (Some(position), Some(path), Some(name)) = (&by_path, &record.path, &record.node)
                && names.name(game, position, path) == *name
            {
                let position = position.clone();
                return Ok(record.at(position));
            }
            let by_name = match &record.node {
                Some(name) => Some(names.find(game, name).map_err(at)?),
                None => None,
            };
            match (by_path, by_name) {
                (Some(position), Some((named, _))) => {
                    if game.key(&position) != game.key(&named) {
                        return Err(at("'path' and 'node' name different nodes".to_owned()));
                    }
                    Ok(record.at(position))
                }
                (Some(position), None) => Ok(record.at(position)),
                (None, Some((position, path))) => {
                    let mut record = record.at(position);
                    record.path = path;
                    Ok(record)
                }
                (None, None) => {
                    Err(at("the record names no node: give 'path' (child indices) or 'node'".to_owned()))
                }
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Recording a search

/// A node entered and not yet returned.
/// How a record's path is found: through its parent, or given whole.
#[derive(Clone, Debug)]
enum Link {
    Child { parent: Option<usize>, index: u32 },
    Path(Vec<u32>),
}

struct Frame<P> {
    position: P,
    /// Its record.
    record: usize,
    /// Its children's keys, in legal-move order, once a child has been looked up: to tell a child's
    /// index (a map for nodes with many children, so that a wide node costs no more per child).
    children: Option<ChildIndex>,
}

/// The index of each child of a node, by key (the first, when two children share one).
enum ChildIndex {
    Few(Vec<u64>),
    Many(HashMap<u64, u32>),
}

impl ChildIndex {
    fn of<G: Game>(game: &G, position: &G::Position) -> Self {
        let keys: Vec<u64> =
            game.legal_moves(position).into_iter().map(|mv| game.key(&game.play(position, mv))).collect();
        if keys.len() <= 16 {
            return Self::Few(keys);
        }
        let mut map = HashMap::with_capacity(keys.len());
        for (index, key) in keys.into_iter().enumerate() {
            map.entry(key).or_insert(index as u32);
        }
        Self::Many(map)
    }

    fn find(&self, key: u64) -> Option<u32> {
        match self {
            Self::Few(keys) => keys.iter().position(|&child| child == key).map(|index| index as u32),
            Self::Many(map) => map.get(&key).copied(),
        }
    }
}

/// Records a search as it goes: an [`Observer`] that turns every node event of any driver into a
/// [`Record`], values from MAX's side, with the node's path, its visit and its pass. Afterwards
/// [`Recorder::records`] lists them as a trace writes them.
///
/// ```
/// use nullwindow::oracle::record::{Recorder, When};
/// use nullwindow::registry::Driver;
/// use nullwindow::tree::Tree;
/// use nullwindow::SearchParams;
///
/// let tree: Tree = "((3 17) (2 12) (15 (25 0)))".parse()?;
/// let mut recorder = Recorder::new(&tree);
/// let _ = Driver::KornilovAlphaBeta.run_observed(&tree, &SearchParams::default(), &mut recorder);
/// let records = recorder.records(When::Completion);
/// let root = records.last().unwrap();
/// assert_eq!((root.path.as_deref(), root.result), (Some(&[][..]), 15));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Recorder<'g, G: Game> {
    game: &'g G,
    /// The position the search starts from.
    root: G::Position,
    /// The records, without their paths: a record's path is its parent's and one more step
    /// ([`Recorder::links`]), built when the record is given out, so that a search of depth `d`
    /// keeps memory linear in its nodes, not `d` times that (a chain of 20,000 plies took 1.6 GB).
    records: Vec<Record<G::Position>>,
    /// Each record's parent record (`None` at a root) and its index among the parent's moves; or,
    /// for a node solved without a call, its whole path.
    links: Vec<Link>,
    /// Each event in order: `(true, i)` when record `i`'s node is entered, `(false, i)` when it
    /// returns.
    events: Vec<(bool, usize)>,
    stack: Vec<Frame<G::Position>>,
    pass: u64,
    /// The depth of the last root search and the iteration it belongs to: a root searched at
    /// another depth starts the next iteration.
    root_depth: Option<u32>,
    iteration: u64,
    /// Whether some node returned without being entered (Stockman's solved nodes).
    unentered: bool,
}

/// Which events a trace writes, and in what order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// Each node when it returns: children before their parent.
    Completion,
    /// Each node when it is entered: parents before their children.
    Entry,
    /// Both: an [`Event::Enter`] record without a result, then the [`Event::Return`] record.
    Both,
}

impl<'g, G: Game> Recorder<'g, G> {
    /// A recorder of a search of `game` from its root.
    #[must_use]
    pub fn new(game: &'g G) -> Self {
        Self::from(game, game.root())
    }

    /// A recorder of a search of `game` from `root`.
    #[must_use]
    pub const fn from(game: &'g G, root: G::Position) -> Self {
        Self {
            game,
            root,
            records: Vec::new(),
            links: Vec::new(),
            events: Vec::new(),
            stack: Vec::new(),
            pass: 0,
            root_depth: None,
            iteration: 0,
            unentered: false,
        }
    }

    /// The path of legal-move indices that plays `moves` from the root (a move that is not legal
    /// ends it).
    fn path_of(&self, moves: &[G::Move]) -> Vec<u32> {
        let mut position = self.root.clone();
        let mut path = Vec::with_capacity(moves.len());
        for &mv in moves {
            let Some(index) = self.game.legal_moves(&position).iter().position(|&legal| legal == mv) else {
                break;
            };
            path.push(index as u32);
            position = self.game.play(&position, mv);
        }
        path
    }

    /// Whether the driver reported nodes without entering them (Stockman's drivers, which solve
    /// nodes instead of calling them): such a search has no entry order.
    #[must_use]
    pub const fn reports_unentered_nodes(&self) -> bool {
        self.unentered
    }

    /// The path of record `index`: its ancestors' steps from the root.
    fn path(&self, index: usize) -> Vec<u32> {
        let mut steps = Vec::new();
        let mut at = Some(index);
        while let Some(record) = at {
            match &self.links[record] {
                Link::Child { parent, index } => {
                    if parent.is_some() {
                        steps.push(*index);
                    }
                    at = *parent;
                }
                Link::Path(path) => {
                    steps.extend(path.iter().rev());
                    break;
                }
            }
        }
        steps.reverse();
        steps
    }

    /// The records as `when` writes them.
    #[must_use]
    pub fn records(self, when: When) -> Vec<Record<G::Position>> {
        let mut records = Vec::new();
        self.each_record(when, None, |record| records.push(record));
        records
    }

    /// The records as `when` writes them, each named by `names`.
    #[must_use]
    pub fn records_named(self, when: When, names: &impl NodeNames<G>) -> Vec<Record<G::Position>> {
        let mut records = Vec::new();
        self.each_record(when, Some(names as &dyn NodeNames<G>), |record| records.push(record));
        records
    }

    /// Hands each record, as `when` writes them and named by `names` if given, to `write`, one at
    /// a time: a record's path is built as it is handed out, so that writing the records of a deep
    /// search as they come keeps memory linear in the search's nodes.
    pub fn each_record(
        &self,
        when: When,
        names: Option<&dyn NodeNames<G>>,
        mut write: impl FnMut(Record<G::Position>),
    ) {
        for &(enter, index) in &self.events {
            let record = &self.records[index];
            let record = match (when, enter) {
                (When::Completion, false) | (When::Entry, true) => record.clone(),
                (When::Both, true) => Record {
                    event: Some(Event::Enter),
                    result: 0,
                    probe: None,
                    stored: None,
                    cutoff: None,
                    ..record.clone()
                },
                (When::Both, false) => Record { event: Some(Event::Return), ..record.clone() },
                _ => continue,
            };
            let path = self.path(index);
            let node = names.map(|names| names.name(self.game, &record.position, &path));
            // Iterations are numbered only in a search of several.
            let iteration = record.iteration.filter(|_| self.iteration > 1);
            write(Record { path: Some(path), node: node.or(record.node), iteration, ..record });
        }
    }

    /// The index of `child` among the legal moves of the frame on top of the stack.
    fn child_index(&mut self, child: &G::Position) -> u32 {
        let game = self.game;
        let Some(parent) = self.stack.last_mut() else { return 0 };
        let children = parent.children.get_or_insert_with(|| ChildIndex::of(game, &parent.position));
        children.find(game.key(child)).unwrap_or(0)
    }

    /// A new record of `node`, MAX's side, counted as the next visit (its path is in its link).
    fn record(&self, node: &NodeEntered<'_, G::Position>, pass: u64) -> Record<G::Position> {
        let player = self.game.to_move(node.position);
        let (alpha, beta, _) = node.perspective.turn(player, (node.alpha, node.beta, 0));
        let mut record = Record::new(node.position.clone(), node.depth, (alpha, beta), 0);
        record.visit = Some(self.records.len() as u64 + 1);
        record.pass = Some(pass);
        record
    }

    /// Fills in what a returned node answered, from MAX's side.
    fn answer(&self, record: &mut Record<G::Position>, node: &NodeReturned<'_, G::Position, G::Move>) {
        let player = self.game.to_move(node.node.position);
        let (alpha, beta, result) = node.for_max(player);
        record.alpha = alpha;
        record.beta = beta;
        record.result = result;
        record.probe = node.probe;
        record.stored = node.stored.map(|bound| node.node.perspective.turn_bound(player, bound));
        record.cutoff = node.cutoff.and_then(|mv| {
            self.game
                .legal_moves(node.node.position)
                .iter()
                .position(|&legal| legal == mv)
                .map(|index| index as u32)
        });
    }
}

impl<G: Game> Observer<G> for Recorder<'_, G> {
    fn entered(&mut self, node: &NodeEntered<'_, G::Position>) {
        if node.ply == 0 {
            self.pass += 1;
            if self.root_depth != Some(node.depth) {
                self.root_depth = Some(node.depth);
                self.iteration += 1;
            }
        }
        self.stack.truncate(node.ply);
        let parent = self.stack.last().map(|parent| parent.record);
        let step = if parent.is_some() { self.child_index(node.position) } else { 0 };
        let mut record = self.record(node, self.pass.max(1));
        record.iteration = Some(self.iteration.max(1));
        let index = self.records.len();
        self.records.push(record);
        self.links.push(Link::Child { parent, index: step });
        self.events.push((true, index));
        self.stack.push(Frame { position: node.position.clone(), record: index, children: None });
    }

    fn returned(&mut self, node: &NodeReturned<'_, G::Position, G::Move>) {
        let index = if let Some(moves) = node.moves {
            // A node solved without a call: a record of its own, in the first pass.
            self.unentered = true;
            let mut record = self.record(&node.node, 1);
            record.iteration = Some(1);
            self.links.push(Link::Path(self.path_of(moves)));
            self.records.push(record);
            self.records.len() - 1
        } else {
            let Some(frame) = self.stack.get(node.node.ply) else { return };
            let index = frame.record;
            self.stack.truncate(node.node.ply);
            index
        };
        let mut record = self.records[index].clone();
        self.answer(&mut record, node);
        self.records[index] = record;
        self.events.push((false, index));
    }
}

// ---------------------------------------------------------------------------------------------
// Reading and writing JSON lines

/// What is wrong with a record, and where: its line (and column, for bad JSON).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// The line, from 1; `None` when the error is about the records as a whole.
    pub line: Option<usize>,
    /// The column, from 1, when known.
    pub column: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl ReadError {
    /// The message prefixed with where, in the text called `name`: `name:3:7: message`.
    #[must_use]
    pub fn at(&self, name: &str) -> String {
        match (self.line, self.column) {
            (Some(line), Some(column)) => format!("{name}:{line}:{column}: {}", self.message),
            (Some(line), None) => format!("{name}:{line}: {}", self.message),
            (None, _) => format!("{name}: {}", self.message),
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.at("line"))
    }
}

impl std::error::Error for ReadError {}

#[cfg(feature = "serde")]
pub use self::json::{read_jsonl, read_jsonl_in, write_jsonl};

#[cfg(feature = "serde")]
mod json {
    use std::collections::HashSet;
    use std::fmt;

    use serde::Serialize;
    use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
    use serde_json::{Map, Value as Json};

    use super::{Event, NodeName, ReadError, Record};
    use crate::driver::observe::Probe;
    use crate::tree::text::excerpt;
    use crate::value::{Bound, Decimals, Value};

    /// A record as a trace line writes it, its fields in this order.
    #[derive(Serialize)]
    struct Line<'a> {
        #[serde(skip_serializing_if = "Option::is_none")]
        event: Option<Event>,
        visit: Option<u64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        iteration: Option<u64>,
        pass: Option<u64>,
        path: Option<&'a [u32]>,
        node: Option<&'a NodeName>,
        #[serde(skip_serializing_if = "Option::is_none")]
        ply: Option<u32>,
        depth: u32,
        alpha: Value,
        beta: Value,
        result: Option<Value>,
        probe: Option<Probe>,
        stored: Option<Bound>,
        cutoff: Option<u32>,
    }

    /// One record as a line of JSON (without the newline). An [`Event::Enter`] record writes no
    /// result.
    #[must_use]
    pub fn write_jsonl<P>(record: &Record<P>) -> String {
        let line = Line {
            event: record.event,
            visit: record.visit,
            iteration: record.iteration,
            pass: record.pass,
            path: record.path.as_deref(),
            node: record.node.as_ref(),
            ply: record.ply,
            depth: record.depth,
            alpha: record.alpha,
            beta: record.beta,
            result: (record.event != Some(Event::Enter)).then_some(record.result),
            probe: record.probe,
            stored: record.stored,
            cutoff: record.cutoff,
        };
        serde_json::to_string(&line).unwrap_or_default()
    }

    /// Reads records, one JSON object per line: blank lines are skipped, unknown fields ignored, and
    /// records whose `event` is `enter` skipped (they have no result). Each record keeps its line;
    /// its node is found afterwards by [`super::locate`].
    ///
    /// # Errors
    /// The first line that is not a record, with its line (and column, for bad JSON), or that there
    /// are no records.
    pub fn read_jsonl(text: &str) -> Result<Vec<Record<()>>, ReadError> {
        read_jsonl_in(text, Decimals::NONE)
    }

    /// [`read_jsonl`] for an engine whose values have `decimals` digits after the point
    /// ([`Decimals`]): each value read exactly, scaled to whole units; a window's edge at or beyond
    /// the crate's infinity once scaled is that infinity ([`Decimals::read_edge`]).
    ///
    /// # Errors
    /// As [`read_jsonl`], and a value with more digits than `decimals`, or a result outside the
    /// admissible range once scaled.
    ///
    /// ```
    /// use nullwindow::oracle::record::read_jsonl_in;
    /// use nullwindow::value::{Decimals, INFINITY};
    /// let line = r#"{"path": [], "depth": 1, "alpha": -1e9, "beta": 0.5, "result": 4.53}"#;
    /// let read = read_jsonl_in(line, Decimals::new(2).unwrap()).unwrap();
    /// assert_eq!((read[0].alpha, read[0].beta, read[0].result), (-INFINITY, 50, 453));
    /// ```
    pub fn read_jsonl_in(text: &str, decimals: Decimals) -> Result<Vec<Record<()>>, ReadError> {
        let mut records = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let number = index + 1;
            if line.trim().is_empty() {
                continue;
            }
            let at = |message: String| ReadError { line: Some(number), column: None, message };
            let json: ReadLine = serde_json::from_str(line).map_err(|e| {
                // serde_json ends its message with the position, which the error gives apart.
                let message = e.to_string();
                let message = message.split(" at line ").next().unwrap_or(&message).to_owned();
                ReadError {
                    line: Some(number),
                    column: Some(e.column()),
                    message: format!("not valid JSON: {message}"),
                }
            })?;
            let ReadLine::Object(fields) = json else {
                return Err(at("not a JSON object (each line is one record, {...})".to_owned()));
            };
            // A map keeps the last of two equal keys; a record that gives one field twice is refused.
            if let Some(key) = &fields.repeated {
                return Err(at(format!("the record gives '{}' twice", excerpt(key))));
            }
            if fields.object.get("event").and_then(Json::as_str) == Some("enter") {
                continue;
            }
            let mut record = parse(&fields, decimals).map_err(at)?;
            record.line = Some(number);
            records.push(record);
        }
        if records.is_empty() {
            return Err(ReadError {
                line: None,
                column: None,
                message: "no records (one JSON object per line)".to_owned(),
            });
        }
        Ok(records)
    }

    fn parse(fields: &Fields, decimals: Decimals) -> Result<Record<()>, String> {
        let object = &fields.object;
        let integer = |field: &str| -> Result<i64, String> {
            match object.get(field) {
                None | Some(Json::Null) => Err(format!("the record has no '{field}'")),
                Some(value) => value.as_i64().ok_or_else(|| format!("'{field}' is {value}, not an integer")),
            }
        };
        let value = |field: &str, edge: bool| -> Result<Value, String> {
            if decimals == Decimals::NONE {
                let number = integer(field)?;
                return Value::try_from(number)
                    .map_err(|_| format!("'{field}' is {number}, outside the 32-bit range of values"));
            }
            let number = match object.get(field) {
                None | Some(Json::Null) => return Err(format!("the record has no '{field}'")),
                Some(Json::Number(number)) => number.to_string(),
                Some(other) => return Err(format!("'{field}' is {other}, not a number")),
            };
            let read = if edge { decimals.read_edge(&number) } else { decimals.read(&number) };
            read.map_err(|error| format!("'{field}' is {number}, {}", decimals.refusal(error)))
        };
        let path = match &fields.path {
            None | Some(PathField::Null) => None,
            Some(PathField::Steps(steps)) => Some(steps.clone()),
            Some(PathField::BadStep(step)) => {
                return Err(format!("'path' holds {step}, not a child index (0, 1, 2, ...)"));
            }
            Some(PathField::Other(other)) => {
                return Err(format!("'path' is {other}, not a list of child indices"));
            }
        };
        let node = match object.get("node") {
            None | Some(Json::Null) => None,
            Some(Json::String(id)) => Some(NodeName::Id(id.clone())),
            Some(Json::Number(number)) => {
                Some(number.as_u64().map_or_else(|| NodeName::Id(number.to_string()), NodeName::Number))
            }
            Some(other) => {
                return Err(format!("'node' is {}, not a node's name (a number or a string)", kind(other)));
            }
        };
        if path.is_none() && node.is_none() {
            return Err("the record names no node: give 'path' (child indices) or 'node'".to_owned());
        }
        let depth = integer("depth")?;
        let depth = u32::try_from(depth).map_err(|_| format!("'depth' is {depth}, not a number of plies"))?;
        let ply = match object.get("ply") {
            None | Some(Json::Null) => None,
            Some(value) => Some(
                value
                    .as_u64()
                    .and_then(|ply| u32::try_from(ply).ok())
                    .ok_or_else(|| format!("'ply' is {value}, not a number of plies"))?,
            ),
        };
        if let (Some(ply), Some(path)) = (ply, &path)
            && path.len() != ply as usize
        {
            let steps = if path.len() == 1 { "step" } else { "steps" };
            return Err(format!("'ply' is {ply}, but the path is {} {steps} long", path.len()));
        }
        let stored = match object.get("stored") {
            None | Some(Json::Null | Json::Bool(_)) => None,
            Some(Json::String(bound)) => Some(match bound.as_str() {
                "lower" => Bound::Lower,
                "upper" => Bound::Upper,
                "exact" => Bound::Exact,
                _ => return Err(format!("'stored' is '{}', not lower, upper or exact", excerpt(bound))),
            }),
            Some(other) => return Err(format!("'stored' is {other}, not lower, upper or exact")),
        };
        let probe = match object.get("probe") {
            None | Some(Json::Null) => None,
            Some(Json::String(probe)) => Some(
                [Probe::None, Probe::Bounds, Probe::Miss, Probe::Hit, Probe::Cutoff, Probe::Etc]
                    .into_iter()
                    .find(|known| known.name() == probe)
                    .ok_or_else(|| {
                        format!("'probe' is '{}', not none, bounds, miss, hit, cutoff or etc", excerpt(probe))
                    })?,
            ),
            Some(other) => {
                return Err(format!("'probe' is {other}, not none, bounds, miss, hit, cutoff or etc"));
            }
        };
        let mut record =
            Record::new((), depth, (value("alpha", true)?, value("beta", true)?), value("result", false)?);
        record.path = path;
        record.node = node;
        record.ply = ply;
        record.stored = stored;
        record.probe = probe;
        Ok(record)
    }

    /// A line as read: an object's fields, or any other JSON value.
    enum ReadLine {
        Object(Fields),
        Other,
    }

    /// An object's fields: `path` read straight into child indices (a path of millions of steps
    /// costs four bytes a step, not a JSON value each), the others as JSON, and the first key given
    /// twice.
    struct Fields {
        object: Map<String, Json>,
        path: Option<PathField>,
        repeated: Option<String>,
    }

    /// What `path` holds.
    enum PathField {
        Null,
        Steps(Vec<u32>),
        /// The first step that is no child index.
        BadStep(Json),
        Other(Json),
    }

    impl<'de> Deserialize<'de> for ReadLine {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            struct LineVisitor;
            impl<'de> Visitor<'de> for LineVisitor {
                type Value = ReadLine;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("a JSON value")
                }
                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ReadLine, A::Error> {
                    let mut fields = Fields { object: Map::new(), path: None, repeated: None };
                    let mut seen = HashSet::new();
                    while let Some(key) = map.next_key::<String>()? {
                        if !seen.insert(key.clone()) && fields.repeated.is_none() {
                            fields.repeated = Some(key.clone());
                        }
                        if key == "path" {
                            fields.path = Some(map.next_value::<PathField>()?);
                        } else {
                            let value: Json = map.next_value()?;
                            fields.object.insert(key, value);
                        }
                    }
                    Ok(ReadLine::Object(fields))
                }
                fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ReadLine, A::Error> {
                    while seq.next_element::<IgnoredAny>()?.is_some() {}
                    Ok(ReadLine::Other)
                }
                fn visit_bool<E>(self, _: bool) -> Result<ReadLine, E> {
                    Ok(ReadLine::Other)
                }
                fn visit_i64<E>(self, _: i64) -> Result<ReadLine, E> {
                    Ok(ReadLine::Other)
                }
                fn visit_u64<E>(self, _: u64) -> Result<ReadLine, E> {
                    Ok(ReadLine::Other)
                }
                fn visit_f64<E>(self, _: f64) -> Result<ReadLine, E> {
                    Ok(ReadLine::Other)
                }
                fn visit_str<E>(self, _: &str) -> Result<ReadLine, E> {
                    Ok(ReadLine::Other)
                }
                fn visit_unit<E>(self) -> Result<ReadLine, E> {
                    Ok(ReadLine::Other)
                }
            }
            deserializer.deserialize_any(LineVisitor)
        }
    }

    impl<'de> Deserialize<'de> for PathField {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            struct PathVisitor;
            impl<'de> Visitor<'de> for PathVisitor {
                type Value = PathField;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("a list of child indices")
                }
                fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<PathField, A::Error> {
                    let mut steps = Vec::new();
                    let mut bad = None;
                    // Each step is read alone: only the indices are kept.
                    while let Some(step) = seq.next_element::<Json>()? {
                        match step.as_u64().and_then(|step| u32::try_from(step).ok()) {
                            Some(index) if bad.is_none() => steps.push(index),
                            Some(_) => {}
                            None => bad = bad.or(Some(step)),
                        }
                    }
                    Ok(bad.map_or(PathField::Steps(steps), PathField::BadStep))
                }
                fn visit_unit<E>(self) -> Result<PathField, E> {
                    Ok(PathField::Null)
                }
                fn visit_none<E>(self) -> Result<PathField, E> {
                    Ok(PathField::Null)
                }
                fn visit_bool<E>(self, value: bool) -> Result<PathField, E> {
                    Ok(PathField::Other(Json::from(value)))
                }
                fn visit_i64<E>(self, value: i64) -> Result<PathField, E> {
                    Ok(PathField::Other(Json::from(value)))
                }
                fn visit_u64<E>(self, value: u64) -> Result<PathField, E> {
                    Ok(PathField::Other(Json::from(value)))
                }
                fn visit_f64<E>(self, value: f64) -> Result<PathField, E> {
                    Ok(PathField::Other(Json::from(value)))
                }
                fn visit_str<E>(self, value: &str) -> Result<PathField, E> {
                    Ok(PathField::Other(Json::from(value)))
                }
                fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<PathField, A::Error> {
                    let object = Map::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                    Ok(PathField::Other(Json::Object(object)))
                }
            }
            deserializer.deserialize_any(PathVisitor)
        }
    }

    /// What kind of JSON value `value` is, for a message that cannot quote it usefully.
    fn kind(value: &Json) -> String {
        match value {
            Json::Null => "null".to_owned(),
            Json::Bool(b) => b.to_string(),
            Json::Number(n) => n.to_string(),
            Json::String(s) => format!("the string '{}'", excerpt(s)),
            Json::Array(_) => "a list".to_owned(),
            Json::Object(_) => "an object".to_owned(),
        }
    }
}
