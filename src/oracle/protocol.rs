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
//! Equal tokens are the same position: that is how the oracle finds transpositions, and it asks
//! about each token once. Sides alternate with every move, and the root's side to move is MAX: every
//! value the oracle reports is from the side to move at the root. Requests may come before the
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
//! Whatever the engine does, the oracle never hangs or panics: an engine that exits, answers a line
//! that does not parse, answers late ([`Options::timeout`]) or contradicts itself (a token reached
//! with either side to move, a move named twice) ends the unfolding with a [`ProtocolError`] naming
//! the request and the answer.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

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
}

impl Session {
    /// Starts `command` with `sh -c` and checks the version it speaks.
    ///
    /// # Errors
    /// The command cannot start, or does not answer `protocol 1` with `protocol 1`.
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
        let mut session = Self { child, stdin, lines, timeout, closed_after: None, requests: 0 };
        let request = format!("protocol {VERSION}");
        let answer = session.ask(std::slice::from_ref(&request))?.pop().unwrap_or_default();
        if answer.trim() != request {
            return Err(ProtocolError(format!(
                "the engine answered {} to {}: it must answer '{request}' (the protocol's version)",
                quoted(&answer),
                quoted(&request)
            )));
        }
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

    /// How records name its nodes: by their tokens.
    #[must_use]
    pub fn names(&self) -> TokenNames {
        let mut by_token: HashMap<String, NodeId> = HashMap::new();
        for (index, token) in self.tokens.iter().enumerate() {
            let node = NodeId(u32::try_from(index).unwrap_or(u32::MAX));
            let deeper = by_token
                .get(token)
                .is_none_or(|known| self.depth_left[known.index()] < self.depth_left[index]);
            if deeper {
                by_token.insert(token.clone(), node);
            }
        }
        TokenNames { by_token }
    }
}

/// Nodes named by their tokens, or by the names of the moves from the root separated by spaces; a
/// token reached with several depths left names the node unfolded deepest, which answers a record
/// of any depth it can.
#[derive(Clone, Debug)]
pub struct TokenNames {
    by_token: HashMap<String, NodeId>,
}

impl<'e> NodeNames<EngineGame<'e>> for TokenNames {
    fn name(&self, game: &EngineGame<'e>, position: &NodeId, _path: &[u32]) -> NodeName {
        NodeName::Id(game.engine.tokens[position.index()].clone())
    }

    /// A token, or else the names of the moves from the root separated by spaces (the empty name
    /// is the root); a name that is both is the token.
    fn find(&self, game: &EngineGame<'e>, name: &NodeName) -> Result<(NodeId, Option<Vec<u32>>), String> {
        let token = match name {
            NodeName::Id(token) => token.clone(),
            NodeName::Number(number) => number.to_string(),
        };
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
struct Known {
    children: Option<Vec<(String, String)>>,
    evaluation: Option<Value>,
    /// The side to move, from the first path that reached it.
    player: Player,
}

/// Plies left at a node when unfolding to the end.
const TO_THE_END: u32 = u32::MAX;

/// Runs `command` and unfolds its game. See the [module documentation](self).
///
/// # Errors
/// The engine fails or breaks the protocol; the game has more than [`Options::max_nodes`] nodes
/// within the depth, or (unfolding to the end) a cycle.
pub fn unfold_engine(command: &str, options: &Options) -> Result<EngineTree, ProtocolError> {
    let start = Instant::now();
    let mut session = Session::start(command, options.timeout)?;
    let root = session.ask(&["root".to_owned()])?.pop().unwrap_or_default().trim().to_owned();
    check_token(&root, "root", &root)?;
    let mut known: HashMap<String, Known> = HashMap::new();
    known.insert(root.clone(), Known { children: None, evaluation: None, player: Player::Max });
    // Nodes: (token, plies left); shared by both, so that a token reached with another depth left
    // stays a node of its own.
    let depth = options.depth.unwrap_or(TO_THE_END);
    let mut nodes: Vec<(String, u32)> = vec![(root.clone(), depth)];
    let mut index: HashMap<(String, u32), u32> = HashMap::from([((root, depth), 0)]);
    let mut children: Vec<Vec<u32>> = vec![Vec::new()];
    let mut frontier = vec![0u32];
    while !frontier.is_empty() {
        // Ask, all at once, about every token of the level not asked yet.
        let mut asked: Vec<String> = Vec::new();
        let mut asking: HashSet<&str> = HashSet::new();
        for &node in &frontier {
            let (token, left) = &nodes[node as usize];
            if *left > 0 && known[token].children.is_none() && asking.insert(token) {
                asked.push(token.clone());
            }
        }
        let requests: Vec<String> = asked.iter().map(|token| format!("children {token}")).collect();
        let answers = session.ask(&requests)?;
        for ((token, request), answer) in asked.iter().zip(&requests).zip(&answers) {
            let moves = parse_children(request, answer)?;
            known.get_mut(token).expect("asked tokens are known").children = Some(moves);
        }
        let mut next = Vec::new();
        for node in std::mem::take(&mut frontier) {
            let (token, left) = nodes[node as usize].clone();
            if left == 0 {
                continue;
            }
            let player = known[&token].player;
            let moves = known[&token].children.clone().unwrap_or_default();
            for (name, child) in moves {
                match known.get(&child) {
                    Some(seen) if seen.player != player.opponent() => {
                        return Err(ProtocolError(format!(
                            "position {} is reached with {} to move and, after move {} from {}, with {} to move: \
                             sides must alternate with every move",
                            quoted(&child),
                            seen.player,
                            quoted(&name),
                            quoted(&token),
                            player.opponent()
                        )));
                    }
                    Some(_) => {}
                    None => {
                        known.insert(
                            child.clone(),
                            Known { children: None, evaluation: None, player: player.opponent() },
                        );
                    }
                }
                let child_left = if left == TO_THE_END { TO_THE_END } else { left - 1 };
                let key = (child, child_left);
                let id = match index.get(&key) {
                    Some(&id) => id,
                    None => {
                        if nodes.len() >= options.max_nodes {
                            return Err(ProtocolError(format!(
                                "the game has more than {} positions {}: give a smaller depth (or a larger limit)",
                                options.max_nodes,
                                options
                                    .depth
                                    .map_or_else(|| "to its end".to_owned(), |d| format!("within {d} plies")),
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
    // Every position's evaluation, asked once per token, all at once.
    let tokens: Vec<String> = {
        let mut unique: Vec<String> = nodes.iter().map(|(token, _)| token.clone()).collect();
        unique.sort_unstable();
        unique.dedup();
        unique
    };
    let requests: Vec<String> = tokens.iter().map(|token| format!("eval {token}")).collect();
    let answers = session.ask(&requests)?;
    for ((token, request), answer) in tokens.iter().zip(&requests).zip(&answers) {
        let value = answer.trim().parse::<Value>().ok().filter(|&value| is_admissible(value)).ok_or_else(|| {
            ProtocolError(format!(
                "the engine answered {} to {}: an evaluation is a whole number in the admissible range {}..={}",
                quoted(answer),
                quoted(request),
                crate::value::MIN_LEAF,
                crate::value::MAX_LEAF
            ))
        })?;
        known.get_mut(token).expect("every node's token is known").evaluation = Some(value);
    }
    if options.depth.is_none() {
        find_cycle(&children).map_or(Ok(()), |node| {
            Err(ProtocolError(format!(
                "the game has a cycle through position {}: it has no end to search to; give a depth",
                quoted(&nodes[node as usize].0)
            )))
        })?;
    }
    let requests = session.requests;
    drop(session);
    let (tree, order) = from_child_lists(0, &children, |node, _| {
        let known = &known[&nodes[node as usize].0];
        let player = known.player;
        let from_mover = known.evaluation.unwrap_or(0);
        (player.perspective(from_mover), player)
    });
    let tokens = order.iter().map(|&node| nodes[node as usize].0.clone()).collect();
    let depth_left = order.iter().map(|&node| nodes[node as usize].1).collect();
    let moves = order
        .iter()
        .map(|&node| {
            let (token, left) = &nodes[node as usize];
            if *left == 0 {
                return Vec::new();
            }
            known[token].children.iter().flatten().map(|(name, _)| name.clone()).collect()
        })
        .collect();
    Ok(EngineTree { tree, tokens, moves, depth_left, requests, elapsed: start.elapsed() })
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
