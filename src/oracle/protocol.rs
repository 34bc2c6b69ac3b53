//! Your game, your engine: a line protocol through which the oracle searches a game it does not
//! know, in any language.
//!
//! The engine is a program that reads one request per line on its standard input and answers each
//! with one line on its standard output, in order, flushing after each. The oracle asks:
//!
//! | request | answer |
//! |---|---|
//! | `protocol 1` | `protocol 1`: the version the engine speaks, asked first |
//! | `root` | a position token: the engine's own encoding of the start, without whitespace |
//! | `children POS` | `MOVE POS MOVE POS …`: each legal move's name and the position it leads to; an empty line at a terminal position |
//! | `eval POS` | an integer: the position's value from the side to move there, admissible ([`crate::value`]) |
//! | `quit` | nothing: the engine exits |
//!
//! The version answer may go on with the names of the optional requests the engine answers
//! (`protocol 1 search records mover`, [`Features`]); names the oracle does not know are ignored:
//!
//! | request | answer |
//! |---|---|
//! | `search POS DEPTH` (`search`) | `VALUE`, `VALUE MOVE` or `skip`: the engine's own search of `POS`, from the side to move ([`Served::search`]) |
//! | `search POS end` (`end`) | the same for a search to the end of the game, as a solver gives it: `VALUE`, `VALUE MOVE` or `skip` |
//! | `search POS DEPTH FILE` (`records`) | the same, after writing its node records to `FILE` as JSON lines |
//! | `mover POS` (`mover`) | a word naming the player to move; two across a game, the root's MAX |
//! | `horizon POS` (`horizon`) | an integer: the value the engine's search gives `POS` where its depth runs out, even at a finished position (the oracle reads it at depth 0, `eval` above) |
//! | `options` (`options`) | the names of the engine's selective features, separated by spaces (`lmr nullmove`) |
//! | `set NAME on\|off` (`options`) | `ok`, once the feature is switched |
//! | `symmetric POS` (`symmetric`) | tokens of positions the engine's search must value as it values `POS`, separated by spaces (none: an empty line) |
//! | `decimals=N` (a word of the version line, N from 1 to 9) | no request: every value the engine writes (`eval`, `horizon`, `search`, the records) may have up to N digits after a decimal point, judged exactly as whole numbers of 10^-N and quoted with N digits ([`Decimals`]) |
//! | `distance` (a word of the version line) | no request: a finished position reached p plies below the searched one is worth `eval - p` (a win) or `eval + p` (a loss), as mate scores by distance are; the oracle's exact values follow it |
//! | `new` (`new`) | `ok`, once the engine has forgotten all it keeps between searches (its table, killers, history), as UCI's `ucinewgame` asks |
//!
//! Equal tokens are the same position: that is how the oracle finds transpositions, and it asks
//! about each token once. Sides alternate with every move, unless the engine answers `mover`, and
//! the root's side to move is MAX: every value the oracle reports is from the side to move at the
//! root. A token need not name the side to move: one reached with either side is two nodes. Requests may come before the
//! answers to earlier ones (the oracle writes a whole level of the game at once, and reads the
//! answers after), so an engine must not wait for its output to be read before reading on; a
//! line-by-line loop that flushes after each answer is right.
//!
//! [`unfold_engine`] runs the engine and unfolds its game, from the root to a depth, into an
//! [`EngineTree`]: a [`Tree`] (a graph of the transpositions) with each node's token and each
//! move's name. [`EngineTree::game`] is then a [`Game`] whose moves print by name, which every
//! driver, `divide`, `check`, `trace` and `audit` search like any other. The engine's evaluations
//! stand on every node, so a search of the tree to any depth up to the unfolded one reads what the
//! engine would.
//!
//! [`Served`] keeps a running engine and its answers, asked once per token: [`Served::unfold`]
//! unfolds from any position a level at a time, and [`ServedGame`] is the game asked lazily, which
//! the own-game fuzz walks ([`crate::oracle::harness::fuzz_game`]).
//!
//! Whatever the engine does, the oracle never hangs or panics: an engine that exits, answers a line
//! that does not parse, answers late ([`Options::timeout`]) or contradicts itself (a move named
//! twice, a third player) ends the unfolding with a [`ProtocolError`] naming the request and the
//! answer.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::time::Duration;

#[cfg(feature = "process")]
pub mod lazy;
#[cfg(feature = "process")]
mod served;

#[cfg(feature = "process")]
pub use lazy::{ServedGame, ServedPosition};
#[cfg(feature = "process")]
pub use served::{Served, Session, unfold_engine, unfold_engine_at, unfold_engine_reporting};

use super::record::{NodeName, NodeNames};
use crate::game::{Game, Player};
use crate::tree::{NodeId, Tree, text};
use crate::value::{Decimals, Value};

/// The version of the protocol this oracle speaks.
pub const VERSION: u32 = 1;

/// The memory an unfolding may take by default: 512 MiB.
pub const DEFAULT_MAX_BYTES: usize = 512 << 20;

/// How to unfold an engine's game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Plies to unfold from the root; `None` unfolds to the end of the game, which must then be
    /// finite (a cycle of positions is an error).
    pub depth: Option<u32>,
    /// The most nodes the unfolded tree may have.
    pub max_nodes: usize,
    /// The longest the engine may take to answer one request.
    pub timeout: Duration,
    /// The most memory, in bytes, the engine's answers and the unfolded game may take (as
    /// counted: each token and answer's bytes, and a fixed cost a node).
    pub max_bytes: usize,
}

impl Default for Options {
    /// To the end, at most 10⁶ nodes and [`DEFAULT_MAX_BYTES`], ten seconds an answer.
    fn default() -> Self {
        Self {
            depth: None,
            max_nodes: 1_000_000,
            timeout: Duration::from_secs(10),
            max_bytes: DEFAULT_MAX_BYTES,
        }
    }
}

/// Why an engine's game could not be unfolded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProtocolError(pub String);

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ProtocolError {}

impl ProtocolError {
    /// Whether the engine failed: it could not be started, stopped, was late or answered against
    /// the protocol (every such message starts by naming the engine). Otherwise the question had
    /// no answer in its game: a move the position does not have, a depth its cycles cannot be
    /// searched to, a bound too small for it.
    #[must_use]
    pub fn is_the_engines(&self) -> bool {
        [
            "the engine ",
            "cannot start the engine",
            "cannot read the engine's answer",
            "cannot set up the engine",
        ]
        .iter()
        .any(|start| self.0.starts_with(start))
    }
}

/// The optional requests an engine answers, as it announces them after `protocol 1` in its
/// version line (`protocol 1 search records mover`). Names the oracle does not know are ignored,
/// but not a `decimals=N` whose N is not 1 to 9: values read in a scale the engine did not mean
/// would all be judged wrong.
///
/// ```
/// use nullwindow::oracle::protocol::Features;
///
/// let features = Features::parse("protocol 1 search mover castling").unwrap();
/// assert!(features.search && features.mover && !features.records);
/// assert_eq!(features.names(), "search mover");
/// assert_eq!(Features::parse("protocol 1"), Some(Features::default()));
/// let pawns = Features::parse("protocol 1 search decimals=2").unwrap();
/// assert_eq!((pawns.decimals.digits(), pawns.names().as_str()), (2, "search decimals=2"));
/// assert_eq!(Features::parse("protocol 1 decimals=10"), None); // 1 to 9 digits
/// assert_eq!(Features::parse("protocol 2 search"), None);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// `search POS DEPTH`: the engine's own search of a position ([`Served::search`]).
    pub search: bool,
    /// `search POS DEPTH FILE`: the search writes its node records to `FILE` first.
    pub records: bool,
    /// `mover POS`: the player to move, so that a side may move twice; without it sides alternate.
    pub mover: bool,
    /// `new`: the engine forgets what it keeps between searches, and answers `ok`
    /// ([`Served::new_game`]).
    pub new: bool,
    /// `horizon POS`: the value the engine's search gives a position where its depth runs out,
    /// even where the game is over ([`Served::horizon`]); `eval` stays the value of a finished
    /// position reached above the horizon.
    pub horizon: bool,
    /// `options` and `set NAME on|off`: the engine names its selective features (late move
    /// reductions, null-move pruning, …) and switches each on or off ([`Served::options`],
    /// [`Served::set`]).
    pub options: bool,
    /// `symmetric POS`: the tokens of positions the engine's search must value as it values `POS`
    /// (a mirrored board, colours swapped), which the oracle searches too ([`Served::symmetric`]).
    pub symmetric: bool,
    /// `decimals=N`: every value the engine writes (`eval`, `horizon`, `search`, its records) may
    /// have up to N digits after a decimal point, 1 to 9; judged exactly, as whole numbers of
    /// 10^-N ([`Decimals`]), and written back with N digits. [`Decimals::NONE`] without it.
    pub decimals: Decimals,
    /// `distance`: a finished position's `eval` is its value reached at once; reached p plies
    /// below the searched position it is worth `eval - p` when `eval` is positive, `eval + p` when
    /// negative, so that a quicker win scores more (mate scores by distance, as chess engines
    /// give them). The oracle's exact values follow the rule ([`ServedPosition::ply`]). A
    /// `horizon` answer is the engine's own value where its depth ran out, taken as given.
    pub distance: bool,
    /// `search POS end`: the engine's search of `POS` to the end of the game, as a solver gives it
    /// (`fuzz --to-end`); no records are asked of it.
    pub end: bool,
}

impl Features {
    /// The features a version answer announces, or `None` if it does not start `protocol 1`.
    #[must_use]
    pub fn parse(answer: &str) -> Option<Self> {
        let mut words = answer.split_whitespace();
        let version = VERSION.to_string();
        if words.next() != Some("protocol") || words.next() != Some(version.as_str()) {
            return None;
        }
        let mut features = Self::default();
        for word in words {
            match word {
                "search" => features.search = true,
                "records" => features.records = true,
                "mover" => features.mover = true,
                "new" => features.new = true,
                "horizon" => features.horizon = true,
                "options" => features.options = true,
                "symmetric" => features.symmetric = true,
                "distance" => features.distance = true,
                "end" => features.end = true,
                _ => {
                    if let Some(digits) = word.strip_prefix("decimals=") {
                        features.decimals = digits.parse().ok().filter(|&n| n > 0).and_then(Decimals::new)?;
                    }
                }
            }
        }
        Some(features)
    }

    /// The names announced, as the version line lists them (`none` when there are none).
    #[must_use]
    pub fn names(self) -> String {
        let names: Vec<String> = [
            (self.search, "search"),
            (self.records, "records"),
            (self.mover, "mover"),
            (self.new, "new"),
            (self.horizon, "horizon"),
            (self.options, "options"),
            (self.symmetric, "symmetric"),
            (self.distance, "distance"),
            (self.end, "end"),
        ]
        .into_iter()
        .filter(|&(on, _)| on)
        .map(|(_, name)| name.to_owned())
        .chain((self.decimals != Decimals::NONE).then(|| format!("decimals={}", self.decimals.digits())))
        .collect();
        if names.is_empty() { "none".to_owned() } else { names.join(" ") }
    }
}

/// An engine's game unfolded into a tree. See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct EngineTree {
    /// The positions, a graph of the transpositions (a node per token and depth left), values from
    /// MAX's side, the root MAX.
    pub tree: Tree,
    /// Each node's token, by [`NodeId::index`].
    pub tokens: Vec<String>,
    /// Each node's moves' names, in the engine's order (child `k` is reached by `moves[n][k]`).
    pub moves: Vec<Vec<String>>,
    /// Each node's plies left: the depth its subtree was unfolded to.
    pub depth_left: Vec<u32>,
    /// The engine's word for the side to move at the root, when it announces `mover` (the root is
    /// MAX, whoever moves there in the engine's game).
    pub root_word: Option<String>,
    /// Requests the engine answered.
    pub requests: u64,
    /// How long the unfolding took.
    pub elapsed: Duration,
}

impl EngineTree {
    /// The unfolded game as a [`Game`] whose moves print by their names.
    #[must_use]
    pub const fn game(&self) -> EngineGame<'_> {
        EngineGame { engine: self }
    }

    /// A move after which the same side moves again, as the node and the move's index, if the
    /// game has one within the unfolding (only an engine that announces `mover` can have one). The
    /// crate's drivers search games whose sides alternate; the oracle's judges (plain minimax, the
    /// audit, the witness criterion) search this one too.
    #[must_use]
    pub fn repeated_mover(&self) -> Option<(NodeId, usize)> {
        (0..self.tokens.len()).find_map(|index| {
            let node = NodeId(u32::try_from(index).unwrap_or(u32::MAX));
            let player = self.tree.player(node);
            let children = self.tree.children(node);
            children.iter().position(|&child| self.tree.player(child) == player).map(|at| (node, at))
        })
    }

    /// How records name its nodes: by their tokens.
    #[must_use]
    pub fn names(&self) -> TokenNames {
        let mut by_token: HashMap<String, NodeId> = HashMap::new();
        let mut either_side: HashSet<String> = HashSet::new();
        for (index, token) in self.tokens.iter().enumerate() {
            let node = NodeId(u32::try_from(index).unwrap_or(u32::MAX));
            if let Some(known) = by_token.get(token)
                && self.tree.player(*known) != self.tree.player(node)
            {
                either_side.insert(token.clone());
            }
            let deeper = by_token
                .get(token)
                .is_none_or(|known| self.depth_left[known.index()] < self.depth_left[index]);
            if deeper {
                by_token.insert(token.clone(), node);
            }
        }
        TokenNames { by_token, either_side }
    }
}

/// Nodes named by their tokens, or by the names of the moves from the root separated by spaces; a
/// token reached with several depths left names the node unfolded deepest, which answers a record
/// of any depth it can. A token reached with either side to move names no node: such a node is
/// named by its moves or its path, and written `moves:` and its moves (`moves:3 1`), which no
/// token is. The same rule as `--position`: `token:T` is the token `T` alone, `moves:M` the moves
/// `M` alone, and a name without either is the token when one is known, else the moves.
#[derive(Clone, Debug)]
pub struct TokenNames {
    by_token: HashMap<String, NodeId>,
    either_side: HashSet<String>,
}

impl<'e> NodeNames<EngineGame<'e>> for TokenNames {
    /// The token; for a token reached with either side to move, `moves:` and the moves from the
    /// root along `path`, separated by spaces: never another node's token.
    fn name(&self, game: &EngineGame<'e>, position: &NodeId, path: &[u32]) -> NodeName {
        let token = &game.engine.tokens[position.index()];
        if !self.either_side.contains(token) {
            return NodeName::Id(token.clone());
        }
        let (mut node, mut names) = (game.engine.tree.root_id(), Vec::with_capacity(path.len()));
        for &index in path {
            names.push(game.engine.moves[node.index()].get(index as usize).cloned().unwrap_or_default());
            node = game.engine.tree.children(node).get(index as usize).copied().unwrap_or(node);
        }
        NodeName::Id(format!("moves:{}", names.join(" ")))
    }

    /// A token, or else the names of the moves from the root separated by spaces (the empty name
    /// is the root); a name that is both is the token. `token:` or `moves:` before the name says
    /// which it is.
    fn find(&self, game: &EngineGame<'e>, name: &NodeName) -> Result<(NodeId, Option<Vec<u32>>), String> {
        let token = match name {
            NodeName::Id(token) => token.clone(),
            NodeName::Number(number) => number.to_string(),
        };
        let (token, only) = match (token.strip_prefix("token:"), token.strip_prefix("moves:")) {
            (Some(token), _) => (token.to_owned(), Some(true)),
            (_, Some(moves)) => (moves.to_owned(), Some(false)),
            _ => (token, None),
        };
        if only == Some(true) && !self.by_token.contains_key(&token) && !self.either_side.contains(&token) {
            return Err(format!("token:{}: no position has this token", text::excerpt(&token)));
        }
        if only != Some(false) && self.either_side.contains(&token) {
            return Err(format!(
                "position '{}' is reached with either side to move, so its token names two nodes: name the \
                 node by its moves from the root, separated by spaces, or by its 'path'",
                text::excerpt(&token)
            ));
        }
        if let Some(&node) = self.by_token.get(&token).filter(|_| only != Some(false)) {
            return Ok((node, None));
        }
        let tree = &game.engine.tree;
        let (mut node, mut path, mut played) = (tree.root_id(), Vec::new(), Vec::new());
        for name in token.split_whitespace() {
            let moves = &game.engine.moves[node.index()];
            let Some(index) = moves.iter().position(|known| known == name) else {
                let after = if played.is_empty() {
                    "at the root".to_owned()
                } else {
                    format!("after {}", played.join(" "))
                };
                let legal = listed_moves(moves.iter().map(String::as_str));
                return Err(format!(
                    "'{}' is no position's token, nor moves from the root: {after} there is no move '{}' (the \
                     moves there: {legal})",
                    text::excerpt(&token),
                    text::excerpt(name),
                ));
            };
            let index = u32::try_from(index).unwrap_or(u32::MAX);
            node = tree.children(node)[index as usize];
            path.push(index);
            played.push(name);
        }
        Ok((node, Some(path)))
    }
}

/// A move of an [`EngineGame`]: the child's index, printed by its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NamedMove<'e> {
    /// The child's index among the position's moves.
    pub index: u32,
    /// The engine's name for it.
    pub name: &'e str,
}

impl fmt::Display for NamedMove<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// An [`EngineTree`] as a [`Game`]: positions are its nodes, moves its named edges.
#[derive(Clone, Copy, Debug)]
pub struct EngineGame<'e> {
    engine: &'e EngineTree,
}

impl<'e> Game for EngineGame<'e> {
    type Position = NodeId;
    type Move = NamedMove<'e>;
    type Moves = std::vec::IntoIter<NamedMove<'e>>;

    fn root(&self) -> NodeId {
        self.engine.tree.root_id()
    }

    fn to_move(&self, position: &NodeId) -> Player {
        self.engine.tree.player(*position)
    }

    fn moves(&self, position: &NodeId) -> Self::Moves {
        let names = &self.engine.moves[position.index()];
        let moves: Vec<NamedMove<'e>> = names
            .iter()
            .enumerate()
            .map(|(index, name)| NamedMove { index: u32::try_from(index).unwrap_or(u32::MAX), name })
            .collect();
        moves.into_iter()
    }

    fn play(&self, position: &NodeId, mv: NamedMove<'e>) -> NodeId {
        self.engine.tree.children(*position)[mv.index as usize]
    }

    fn evaluate(&self, position: &NodeId) -> Value {
        self.engine.tree.evaluation(*position)
    }

    fn key(&self, position: &NodeId) -> u64 {
        u64::from(position.0)
    }

    fn keys_identify_positions(&self) -> bool {
        true
    }

    fn is_terminal(&self, position: &NodeId) -> bool {
        self.engine.tree.is_leaf(*position)
    }

    fn depth_bound(&self, _position: &NodeId) -> Option<u32> {
        Some(self.engine.tree.height())
    }
}

/// The names of a position's moves as a message lists them: `none` for no move, the first 20
/// separated by spaces, and how many there are in all past 20 (a position may have thousands).
#[must_use]
pub fn listed_moves<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    const SHOWN: usize = 20;
    let names: Vec<&str> = names.into_iter().collect();
    if names.is_empty() {
        return "none".to_owned();
    }
    let shown = names.iter().take(SHOWN).map(|&name| text::excerpt(name)).collect::<Vec<_>>().join(" ");
    if names.len() > SHOWN { format!("{shown} … ({} in all)", names.len()) } else { shown }
}

/// A position [`Served::locate`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    /// Its token.
    pub token: String,
    /// The side to move there.
    pub side: Player,
    /// The moves from the start, when it was named by moves.
    pub moves: Option<Vec<String>>,
}

/// The engine's answer to `search`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Searched {
    /// It declined the position.
    Skip,
    /// Its value, from the side to move, and the index of its move among the position's moves.
    Value {
        /// The value, from the side to move.
        value: Value,
        /// The move's index in the engine's order, if it named one.
        best_move: Option<u32>,
    },
}
