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
//! | `search POS DEPTH FILE` (`records`) | the same, after writing its node records to `FILE` as JSON lines |
//! | `mover POS` (`mover`) | a word naming the player to move; two across a game, the root's MAX |
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
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

pub mod lazy;

pub use lazy::{ServedGame, ServedPosition};

use super::record::{NodeName, NodeNames};
use crate::game::{Game, Player};
use crate::tree::{NodeId, Tree, from_child_lists, text};
use crate::value::{Value, is_admissible};

/// The version of the protocol this oracle speaks.
pub const VERSION: u32 = 1;

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
}

impl Default for Options {
    /// To the end, at most 10⁶ nodes, ten seconds an answer.
    fn default() -> Self {
        Self { depth: None, max_nodes: 1_000_000, timeout: Duration::from_secs(10) }
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

/// A request or an answer, shortened for a message.
fn quoted(line: &str) -> String {
    format!("'{}'", text::excerpt(line))
}

/// The optional requests an engine answers, as it announces them after `protocol 1` in its
/// version line (`protocol 1 search records mover`). Names the oracle does not know are ignored.
///
/// ```
/// use nullwindow::oracle::protocol::Features;
///
/// let features = Features::parse("protocol 1 search mover castling").unwrap();
/// assert!(features.search && features.mover && !features.records);
/// assert_eq!(features.names(), "search mover");
/// assert_eq!(Features::parse("protocol 1"), Some(Features::default()));
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
                _ => {}
            }
        }
        Some(features)
    }

    /// The names announced, as the version line lists them (`none` when there are none).
    #[must_use]
    pub fn names(self) -> String {
        let names: Vec<&str> = [(self.search, "search"), (self.records, "records"), (self.mover, "mover")]
            .into_iter()
            .filter_map(|(on, name)| on.then_some(name))
            .collect();
        if names.is_empty() { "none".to_owned() } else { names.join(" ") }
    }
}

/// An engine speaking the protocol, as a child process.
pub struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<std::io::Result<String>>,
    timeout: Duration,
    /// The last request answered, once the engine has closed its input.
    closed_after: Option<String>,
    /// Requests asked, for the figures.
    pub requests: u64,
    /// The optional requests the engine announced.
    pub features: Features,
}

impl Session {
    /// Starts `command` with `sh -c`, checks the version it speaks and reads the optional requests
    /// it announces ([`Features`]).
    ///
    /// # Errors
    /// The command cannot start, or does not answer `protocol 1` with `protocol 1`, optionally
    /// followed by names.
    pub fn start(command: &str, timeout: Duration) -> Result<Self, ProtocolError> {
        let mut child = Command::new("sh")
            .args(["-c", command])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| ProtocolError(format!("cannot start the engine: {e}")))?;
        let stdout =
            child.stdout.take().ok_or_else(|| ProtocolError("the engine has no output".to_owned()))?;
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let failed = line.is_err();
                if sender.send(line).is_err() || failed {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        let mut session = Self {
            child,
            stdin,
            lines,
            timeout,
            closed_after: None,
            requests: 0,
            features: Features::default(),
        };
        let request = format!("protocol {VERSION}");
        let answer = session.ask(std::slice::from_ref(&request))?.pop().unwrap_or_default();
        session.features = Features::parse(&answer).ok_or_else(|| {
            ProtocolError(format!(
                "the engine answered {} to {}: it must answer '{request}' (the protocol's version), \
                 optionally followed by the optional requests it answers",
                quoted(&answer),
                quoted(&request)
            ))
        })?;
        Ok(session)
    }

    /// Sends `requests` all at once and reads their answers, in order.
    ///
    /// # Errors
    /// The engine exits, cannot be written to, or is late with an answer.
    pub fn ask(&mut self, requests: &[String]) -> Result<Vec<String>, ProtocolError> {
        self.requests += requests.len() as u64;
        let mut text = String::with_capacity(requests.iter().map(|r| r.len() + 1).sum());
        for request in requests {
            text.push_str(request);
            text.push('\n');
        }
        let mut stdin = self.stdin.take().ok_or_else(|| {
            let after = self
                .closed_after
                .as_deref()
                .map_or_else(String::new, |last| format!(" after answering {}", quoted(last)));
            ProtocolError(format!("the engine closed its input{after}, before {}", quoted(&requests[0])))
        })?;
        // Written on a thread of its own: an engine that answers while we still write fills its
        // output pipe, and would wait for us to read while we wait for it to read.
        let writer = std::thread::spawn(move || {
            let written = stdin.write_all(text.as_bytes()).and_then(|()| stdin.flush());
            (stdin, written)
        });
        let mut answers = Vec::with_capacity(requests.len());
        let mut failure = None;
        for request in requests {
            let deadline = Instant::now() + self.timeout;
            match self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(Ok(line)) => answers.push(line),
                Ok(Err(e)) => {
                    failure = Some(format!("cannot read the engine's answer to {}: {e}", quoted(request)));
                    break;
                }
                Err(RecvTimeoutError::Disconnected) => {
                    // Its output closes as it exits, just before its status can be read: wait a
                    // little for the status, which tells more than the closed pipe.
                    let deadline = Instant::now() + Duration::from_millis(500);
                    let mut status = self.child.try_wait().ok().flatten();
                    while status.is_none() && Instant::now() < deadline {
                        std::thread::sleep(Duration::from_millis(2));
                        status = self.child.try_wait().ok().flatten();
                    }
                    let how =
                        status.map_or_else(|| "closed its output".to_owned(), |s| format!("exited ({s})"));
                    failure = Some(format!("the engine {how} before answering {}", quoted(request)));
                    break;
                }
                Err(RecvTimeoutError::Timeout) => {
                    failure = Some(format!(
                        "the engine did not answer {} within {:.1} s",
                        quoted(request),
                        self.timeout.as_secs_f64()
                    ));
                    break;
                }
            }
        }
        if let Some(failure) = failure {
            let _ = self.child.kill();
            return Err(ProtocolError(failure));
        }
        // Every answer came; an engine that then stopped reading is caught at the next request.
        match writer.join() {
            Ok((stdin, Ok(()))) => self.stdin = Some(stdin),
            _ => self.closed_after = requests.last().cloned(),
        }
        Ok(answers)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = stdin.write_all(b"quit\n");
        }
        // An engine that ignores `quit` is not left behind.
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
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
/// named by its moves or its path.
#[derive(Clone, Debug)]
pub struct TokenNames {
    by_token: HashMap<String, NodeId>,
    either_side: HashSet<String>,
}

impl<'e> NodeNames<EngineGame<'e>> for TokenNames {
    /// The token; for a token reached with either side to move, the moves from the root along
    /// `path`, separated by spaces.
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
        NodeName::Id(names.join(" "))
    }

    /// A token, or else the names of the moves from the root separated by spaces (the empty name
    /// is the root); a name that is both is the token.
    fn find(&self, game: &EngineGame<'e>, name: &NodeName) -> Result<(NodeId, Option<Vec<u32>>), String> {
        let token = match name {
            NodeName::Id(token) => token.clone(),
            NodeName::Number(number) => number.to_string(),
        };
        if self.either_side.contains(&token) {
            return Err(format!(
                "position '{}' is reached with either side to move, so its token names two nodes: name the \
                 node by its moves from the root, separated by spaces, or by its 'path'",
                text::excerpt(&token)
            ));
        }
        if let Some(&node) = self.by_token.get(&token) {
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
                let legal = if moves.is_empty() { "none".to_owned() } else { moves.join(" ") };
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

/// What the engine said of one token.
#[derive(Clone, Debug, Default)]
struct Known {
    children: Option<Vec<(String, String)>>,
    evaluation: Option<Value>,
    /// With [`Features::mover`]: the engine's word for the player to move.
    mover: Option<String>,
}

/// Plies left at a node when unfolding to the end.
const TO_THE_END: u32 = u32::MAX;

/// An engine's game as far as it has been asked: a running [`Session`] and what the engine said of
/// each token, asked once per token whatever the path or side that reached it. The unfolding
/// ([`Served::unfold`]), the own-game fuzz's positions ([`ServedGame`]) and `search` requests all
/// ask through it.
pub struct Served {
    session: Session,
    known: HashMap<String, Known>,
    root: String,
}

/// A node of an unfolding: a token, the side to move there and the plies left below it. A token
/// reached with either side to move is two nodes: without `mover`, a token need not name the side
/// (a negamax engine's values are from the side to move anyway).
type NodeKey = (String, Player, u32);

impl Served {
    /// Starts the engine, checks its version and asks for the root (and, with
    /// [`Features::mover`], the root's mover, which is MAX).
    ///
    /// # Errors
    /// As [`Session::start`]; a root token that is not one word.
    pub fn start(command: &str, timeout: Duration) -> Result<Self, ProtocolError> {
        let mut session = Session::start(command, timeout)?;
        let root = session.ask(&["root".to_owned()])?.pop().unwrap_or_default().trim().to_owned();
        check_token(&root, "root", &root)?;
        let mut served = Self { session, known: HashMap::new(), root: root.clone() };
        served.known.insert(root.clone(), Known::default());
        served.ask_movers(&[root])?;
        Ok(served)
    }

    /// The optional requests the engine announced.
    #[must_use]
    pub const fn features(&self) -> Features {
        self.session.features
    }

    /// The start's token.
    #[must_use]
    pub fn root(&self) -> &str {
        &self.root
    }

    /// Requests the engine has answered.
    #[must_use]
    pub const fn requests(&self) -> u64 {
        self.session.requests
    }

    /// Tokens the engine has been asked about (what memory the answers take grows with it).
    #[must_use]
    pub fn known(&self) -> usize {
        self.known.len()
    }

    /// Forgets every answer but the start's, to bound memory over a long run: each token is asked
    /// again when next needed, and the answers, being the engine's, are the same.
    pub fn forget(&mut self) {
        self.known.retain(|token, _| *token == self.root);
    }

    /// Asks, all at once, for the moves of each of `tokens` not asked yet (and, with
    /// [`Features::mover`], for the mover of every position they lead to).
    fn expand(&mut self, tokens: &[&str]) -> Result<(), ProtocolError> {
        let mut asked: Vec<String> = Vec::new();
        let mut asking: HashSet<&str> = HashSet::new();
        for &token in tokens {
            let unknown = self.known.get(token).is_none_or(|known| known.children.is_none());
            if unknown && asking.insert(token) {
                asked.push(token.to_owned());
            }
        }
        if asked.is_empty() {
            return Ok(());
        }
        let requests: Vec<String> = asked.iter().map(|token| format!("children {token}")).collect();
        let answers = self.session.ask(&requests)?;
        let mut new_tokens = Vec::new();
        for ((token, request), answer) in asked.iter().zip(&requests).zip(&answers) {
            let moves = parse_children(request, answer)?;
            for (_, child) in &moves {
                if !self.known.contains_key(child) {
                    self.known.insert(child.clone(), Known::default());
                    new_tokens.push(child.clone());
                }
            }
            self.known.entry(token.clone()).or_default().children = Some(moves);
        }
        self.ask_movers(&new_tokens)
    }

    /// With [`Features::mover`], asks for the mover of each of `tokens`, all at once; there are
    /// two players' words in a game, no more.
    fn ask_movers(&mut self, tokens: &[String]) -> Result<(), ProtocolError> {
        if !self.features().mover || tokens.is_empty() {
            return Ok(());
        }
        let requests: Vec<String> = tokens.iter().map(|token| format!("mover {token}")).collect();
        let answers = self.session.ask(&requests)?;
        let mut words: Vec<String> = Vec::new();
        for known in self.known.values() {
            if let Some(word) = &known.mover
                && !words.contains(word)
            {
                words.push(word.clone());
            }
        }
        for ((token, request), answer) in tokens.iter().zip(&requests).zip(&answers) {
            let word = answer.trim();
            if word.is_empty() || word.chars().any(char::is_whitespace) {
                return Err(ProtocolError(format!(
                    "the engine answered {} to {}: a player is one word, without whitespace",
                    quoted(answer),
                    quoted(request)
                )));
            }
            if !words.iter().any(|known| known == word) {
                if words.len() == 2 {
                    return Err(ProtocolError(format!(
                        "the engine answered {} to {}: a game has two players, and it named '{}' and '{}' before",
                        quoted(answer),
                        quoted(request),
                        text::excerpt(&words[0]),
                        text::excerpt(&words[1])
                    )));
                }
                words.push(word.to_owned());
            }
            self.known.entry(token.clone()).or_default().mover = Some(word.to_owned());
        }
        Ok(())
    }

    /// Asks, all at once, for the evaluation of each of `tokens` not asked yet.
    fn evaluate_all(&mut self, tokens: &[&str]) -> Result<(), ProtocolError> {
        let mut asked: Vec<String> =
            tokens.iter().filter(|token| self.evaluation(token).is_none()).map(|&t| t.to_owned()).collect();
        asked.sort_unstable();
        asked.dedup();
        if asked.is_empty() {
            return Ok(());
        }
        let requests: Vec<String> = asked.iter().map(|token| format!("eval {token}")).collect();
        let answers = self.session.ask(&requests)?;
        for ((token, request), answer) in asked.iter().zip(&requests).zip(&answers) {
            let value = answer.trim().parse::<Value>().ok().filter(|&value| is_admissible(value)).ok_or_else(|| {
                ProtocolError(format!(
                    "the engine answered {} to {}: an evaluation is a whole number in the admissible range {}..={}",
                    quoted(answer),
                    quoted(request),
                    crate::value::MIN_LEAF,
                    crate::value::MAX_LEAF
                ))
            })?;
            self.known.entry(token.clone()).or_default().evaluation = Some(value);
        }
        Ok(())
    }

    fn evaluation(&self, token: &str) -> Option<Value> {
        self.known.get(token).and_then(|known| known.evaluation)
    }

    /// The moves of `token`, each a name and the token it leads to, in the engine's order (asked
    /// now if they were not before).
    ///
    /// # Errors
    /// The engine fails or breaks the protocol.
    pub fn moves(&mut self, token: &str) -> Result<&[(String, String)], ProtocolError> {
        self.expand(&[token])?;
        Ok(self.known[token].children.as_deref().unwrap_or_default())
    }

    /// The evaluation of `token`, from the side to move there (asked now if it was not before).
    ///
    /// # Errors
    /// The engine fails or breaks the protocol.
    pub fn evaluate(&mut self, token: &str) -> Result<Value, ProtocolError> {
        self.evaluate_all(&[token])?;
        Ok(self.evaluation(token).unwrap_or(0))
    }

    /// The side to move at `child`, a position `parent` (where `side` moves) leads to: the other
    /// side, unless the engine announced [`Features::mover`] and names the same player at both.
    fn side_after(&self, parent: &str, side: Player, child: &str) -> Player {
        let mover = |token: &str| self.known.get(token).and_then(|known| known.mover.as_deref());
        if self.features().mover && mover(parent) == mover(child) { side } else { side.opponent() }
    }

    /// The side to move at `token` when a search starts there: MAX, unless the engine announced
    /// [`Features::mover`] and names the root's opponent there.
    ///
    /// # Errors
    /// The engine fails or breaks the protocol.
    pub fn side_at(&mut self, token: &str) -> Result<Player, ProtocolError> {
        if !self.known.contains_key(token) {
            self.known.insert(token.to_owned(), Known::default());
            self.ask_movers(&[token.to_owned()])?;
        }
        let mover = |token: &str| self.known.get(token).and_then(|known| known.mover.as_deref());
        let opponent = self.features().mover && mover(token) != mover(&self.root);
        Ok(if opponent { Player::Min } else { Player::Max })
    }

    /// The position a `--position` names, then `path` (child indices in the engine's order) walked
    /// from it: its token, its side to move, and the moves from the start when they are known.
    /// `position` is moves from the start separated by spaces (empty: the start), or a token; a
    /// single word that names a move of the start is that move. A token's side to move is MAX (or,
    /// with [`Features::mover`], the side the engine names).
    ///
    /// # Errors
    /// A move that is not legal where it is played, or a path that leaves the game; the engine
    /// fails.
    pub fn locate(&mut self, position: &str, path: &[u32]) -> Result<Located, ProtocolError> {
        let root = self.root.clone();
        let words: Vec<&str> = position.split_whitespace().collect();
        let is_root_move = words.len() == 1 && self.moves(&root)?.iter().any(|(name, _)| name == words[0]);
        let mut located = if words.len() == 1 && !is_root_move {
            check_token(words[0], "--position", position)?;
            let side = self.side_at(words[0])?;
            Located { token: words[0].to_owned(), side, moves: None }
        } else {
            let mut located = Located { token: root, side: Player::Max, moves: Some(Vec::new()) };
            for word in words {
                located = self.play_named(located, word)?;
            }
            located
        };
        for &index in path {
            let moves = self.moves(&located.token)?;
            let Some((name, _)) = moves.get(index as usize) else {
                let count = moves.len();
                return Err(ProtocolError(format!(
                    "--path: position {} has {}, so there is no move {index}",
                    quoted(&located.token),
                    match count {
                        0 => "no moves".to_owned(),
                        1 => "one move (index 0)".to_owned(),
                        n => format!("{n} moves (0 to {})", n - 1),
                    }
                )));
            };
            let name = name.clone();
            located = self.play_named(located, &name)?;
        }
        Ok(located)
    }

    /// The position after the move named `name`.
    fn play_named(&mut self, from: Located, name: &str) -> Result<Located, ProtocolError> {
        let moves = self.moves(&from.token)?;
        let Some((_, child)) = moves.iter().find(|(known, _)| known == name) else {
            let legal: Vec<&str> = moves.iter().map(|(name, _)| name.as_str()).collect();
            let after = match from.moves.as_deref() {
                Some([]) => "at the start".to_owned(),
                Some(moves) => format!("after {}", moves.join(" ")),
                None => format!("at {}", quoted(&from.token)),
            };
            return Err(ProtocolError(format!(
                "{after} there is no move '{}' (the moves there: {})",
                text::excerpt(name),
                if legal.is_empty() { "none".to_owned() } else { legal.join(" ") }
            )));
        };
        let child = child.clone();
        let side = self.side_after(&from.token, from.side, &child);
        let moves = from.moves.map(|mut moves| {
            moves.push(name.to_owned());
            moves
        });
        Ok(Located { token: child, side, moves })
    }

    /// The engine's own search of `token` to `depth` plies (`search POS DEPTH`; with `records`,
    /// `search POS DEPTH FILE`, and the engine writes its records to `records` first).
    ///
    /// # Errors
    /// The engine did not announce `search`, fails, or answers what is not `VALUE`, `VALUE MOVE`
    /// (a move of the position) or `skip`.
    pub fn search(
        &mut self,
        token: &str,
        depth: u32,
        records: Option<&Path>,
    ) -> Result<Searched, ProtocolError> {
        if !self.features().search {
            return Err(ProtocolError(
                "the engine did not announce 'search' in its version line (it answers 'protocol 1 search' \
                 when it does)"
                    .to_owned(),
            ));
        }
        let request = match records.filter(|_| self.features().records) {
            Some(file) => {
                let file =
                    file.to_str().filter(|file| !file.chars().any(char::is_whitespace)).ok_or_else(|| {
                        ProtocolError(format!(
                            "the records' file '{}' is not one word of UTF-8",
                            file.display()
                        ))
                    })?;
                format!("search {token} {depth} {file}")
            }
            None => format!("search {token} {depth}"),
        };
        let answer = self.session.ask(std::slice::from_ref(&request))?.pop().unwrap_or_default();
        let words: Vec<&str> = answer.split_whitespace().collect();
        let wrong = |why: &str| {
            ProtocolError(format!("the engine answered {} to {}: {why}", quoted(&answer), quoted(&request)))
        };
        match words.as_slice() {
            ["skip"] => Ok(Searched::Skip),
            [value] | [value, _] => {
                let value = value
                    .parse::<Value>()
                    .ok()
                    .filter(|value| value.unsigned_abs() < crate::value::INFINITY.unsigned_abs())
                    .ok_or_else(|| {
                        wrong("a search answers a whole number within ±10⁹, optionally a move, or skip")
                    })?;
                let best_move = match words.get(1) {
                    None => None,
                    Some(name) => {
                        let moves = self.moves(token)?;
                        let index = moves.iter().position(|(known, _)| known == name).ok_or_else(|| {
                            let legal: Vec<&str> = moves.iter().map(|(name, _)| name.as_str()).collect();
                            wrong(&format!(
                                "'{}' is no move of the position (its moves: {})",
                                text::excerpt(name),
                                if legal.is_empty() { "none".to_owned() } else { legal.join(" ") }
                            ))
                        })?;
                        Some(u32::try_from(index).unwrap_or(u32::MAX))
                    }
                };
                Ok(Searched::Value { value, best_move })
            }
            _ => Err(wrong("a search answers VALUE, VALUE MOVE, or skip")),
        }
    }

    /// Unfolds the game from `from` (where `side` moves) `depth` plies deep (`None`: to its end),
    /// asking the engine only what it was not asked before, a whole level at a time.
    ///
    /// # Errors
    /// The engine fails or breaks the protocol; more than `max_nodes` nodes within the depth, or
    /// (unfolding to the end) a cycle.
    pub fn unfold(
        &mut self,
        from: &str,
        side: Player,
        depth: Option<u32>,
        max_nodes: usize,
    ) -> Result<EngineTree, ProtocolError> {
        let start = Instant::now();
        let requests_before = self.requests();
        let left = depth.unwrap_or(TO_THE_END);
        let mut nodes: Vec<NodeKey> = vec![(from.to_owned(), side, left)];
        let mut index: HashMap<NodeKey, u32> = HashMap::from([(nodes[0].clone(), 0)]);
        let mut children: Vec<Vec<u32>> = vec![Vec::new()];
        let mut frontier = vec![0u32];
        while !frontier.is_empty() {
            let expanding: Vec<&str> = frontier
                .iter()
                .map(|&node| &nodes[node as usize])
                .filter(|(_, _, left)| *left > 0)
                .map(|(token, _, _)| token.as_str())
                .collect();
            let expanding: Vec<String> = expanding.into_iter().map(str::to_owned).collect();
            self.expand(&expanding.iter().map(String::as_str).collect::<Vec<_>>())?;
            let mut next = Vec::new();
            for node in std::mem::take(&mut frontier) {
                let (token, side, left) = nodes[node as usize].clone();
                if left == 0 {
                    continue;
                }
                let moves = self.known[&token].children.clone().unwrap_or_default();
                for (_, child) in moves {
                    let child_side = self.side_after(&token, side, &child);
                    let child_left = if left == TO_THE_END { TO_THE_END } else { left - 1 };
                    let key = (child, child_side, child_left);
                    let id = match index.get(&key) {
                        Some(&id) => id,
                        None => {
                            if nodes.len() >= max_nodes {
                                return Err(ProtocolError(format!(
                                    "the game has more than {max_nodes} positions {}: give a smaller depth (or a \
                                     larger limit)",
                                    depth.map_or_else(
                                        || "to its end".to_owned(),
                                        |d| format!("within {d} plies")
                                    ),
                                )));
                            }
                            let id = u32::try_from(nodes.len())
                                .map_err(|_| ProtocolError("the game has too many positions".to_owned()))?;
                            index.insert(key.clone(), id);
                            nodes.push(key);
                            children.push(Vec::new());
                            next.push(id);
                            id
                        }
                    };
                    children[node as usize].push(id);
                }
            }
            frontier = next;
        }
        let tokens: Vec<&str> = nodes.iter().map(|(token, _, _)| token.as_str()).collect();
        let tokens: Vec<String> = tokens.into_iter().map(str::to_owned).collect();
        self.evaluate_all(&tokens.iter().map(String::as_str).collect::<Vec<_>>())?;
        if depth.is_none() {
            find_cycle(&children).map_or(Ok(()), |node| {
                Err(ProtocolError(format!(
                    "the game has a cycle through position {}: it has no end to search to; give a depth",
                    quoted(&nodes[node as usize].0)
                )))
            })?;
        }
        let (tree, order) = from_child_lists(0, &children, |node, _| {
            let (token, side, _) = &nodes[node as usize];
            (side.perspective(self.evaluation(token).unwrap_or(0)), *side)
        });
        let tokens = order.iter().map(|&node| nodes[node as usize].0.clone()).collect();
        let depth_left = order.iter().map(|&node| nodes[node as usize].2).collect();
        let moves = order
            .iter()
            .map(|&node| {
                let (token, _, left) = &nodes[node as usize];
                if *left == 0 {
                    return Vec::new();
                }
                self.known[token].children.iter().flatten().map(|(name, _)| name.clone()).collect()
            })
            .collect();
        Ok(EngineTree {
            tree,
            tokens,
            moves,
            depth_left,
            requests: self.requests() - requests_before,
            elapsed: start.elapsed(),
        })
    }
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

/// Runs `command` and unfolds its game from the start. See the [module documentation](self).
///
/// # Errors
/// The engine fails or breaks the protocol; the game has more than [`Options::max_nodes`] nodes
/// within the depth, or (unfolding to the end) a cycle.
pub fn unfold_engine(command: &str, options: &Options) -> Result<EngineTree, ProtocolError> {
    unfold_engine_at(command, options, "", &[])
}

/// Runs `command` and unfolds its game from the position `position` names, then `path` walked
/// from it ([`Served::locate`]). The requests counted and the time include reaching it.
///
/// # Errors
/// As [`unfold_engine`], and as [`Served::locate`].
pub fn unfold_engine_at(
    command: &str,
    options: &Options,
    position: &str,
    path: &[u32],
) -> Result<EngineTree, ProtocolError> {
    let start = Instant::now();
    let mut served = Served::start(command, options.timeout)?;
    let located = served.locate(position, path)?;
    let mut tree = served.unfold(&located.token, located.side, options.depth, options.max_nodes)?;
    tree.requests = served.requests();
    tree.elapsed = start.elapsed();
    Ok(tree)
}

/// A token or a move's name: a word without whitespace.
fn check_token(word: &str, request: &str, answer: &str) -> Result<(), ProtocolError> {
    if word.is_empty() || word.chars().any(char::is_whitespace) {
        return Err(ProtocolError(format!(
            "the engine answered {} to {}: a position token is one word, without whitespace",
            quoted(answer),
            quoted(request)
        )));
    }
    Ok(())
}

/// The moves of a `children` answer: pairs of a name and a token, no name twice.
fn parse_children(request: &str, answer: &str) -> Result<Vec<(String, String)>, ProtocolError> {
    let words: Vec<&str> = answer.split_whitespace().collect();
    if words.len() % 2 == 1 {
        return Err(ProtocolError(format!(
            "the engine answered {} to {}: the answer is pairs of a move's name and the position it leads to, \
             and this one has an odd number of words",
            quoted(answer),
            quoted(request)
        )));
    }
    let moves: Vec<(String, String)> =
        words.chunks(2).map(|pair| (pair[0].to_owned(), pair[1].to_owned())).collect();
    for (index, (name, _)) in moves.iter().enumerate() {
        if moves[..index].iter().any(|(earlier, _)| earlier == name) {
            return Err(ProtocolError(format!(
                "the engine answered {} to {}: the move {} is named twice",
                quoted(answer),
                quoted(request),
                quoted(name)
            )));
        }
    }
    Ok(moves)
}

/// A node on a cycle of `children`, if there is one (depth first, without recursion).
fn find_cycle(children: &[Vec<u32>]) -> Option<u32> {
    // 0: not seen, 1: on the path, 2: done.
    let mut state = vec![0u8; children.len()];
    for start in 0..children.len() {
        if state[start] != 0 {
            continue;
        }
        let mut stack = vec![(start, 0usize)];
        state[start] = 1;
        while let Some((node, next)) = stack.last_mut() {
            let node = *node;
            if let Some(&child) = children[node].get(*next) {
                *next += 1;
                match state[child as usize] {
                    0 => {
                        state[child as usize] = 1;
                        stack.push((child as usize, 0));
                    }
                    1 => return Some(child),
                    _ => {}
                }
            } else {
                state[node] = 2;
                stack.pop();
            }
        }
    }
    None
}
