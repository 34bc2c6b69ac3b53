//! A running engine ([`Session`]) and what it answered ([`Served`]): the half of the protocol that
//! runs a program, and so needs the feature `process` (on with the default `cli`).

use std::collections::{HashMap, HashSet};
use std::io::{BufReader, Write};
use std::path::Path;
use std::process::{ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::{EngineTree, Features, Located, Options, ProtocolError, Searched, VERSION};
use crate::game::Player;
use crate::oracle::runner::{Runner, read_line};
use crate::tree::{from_child_lists, text};
use crate::value::{Value, is_admissible};

/// An engine speaking the protocol, as a child process (a [`Runner`]: its whole process group is
/// stopped when the session ends, whichever way).
pub struct Session {
    runner: Runner,
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
        let mut runner = Runner::start(command, Stdio::piped(), Stdio::piped(), Stdio::inherit())
            .map_err(|e| ProtocolError(format!("cannot start the engine: {e}")))?;
        let stdout =
            runner.take_stdout().ok_or_else(|| ProtocolError("the engine has no output".to_owned()))?;
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            // The end of the output closes the channel: the engine's exit tells more than a line.
            while let Some(line) = read_line(&mut reader).transpose() {
                let failed = line.is_err();
                if sender.send(line).is_err() || failed {
                    break;
                }
            }
        });
        let stdin = runner.take_stdin();
        let mut session = Self {
            runner,
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
                    let status = self.runner.wait_for(Some(deadline - Instant::now())).ok().flatten();
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
            self.runner.stop();
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
        // An engine that ignores `quit` is not left behind: the runner stops its group, and
        // whatever it left running in it, when it drops.
        let _ = self.runner.wait_for(Some(Duration::from_millis(500)));
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
/// ([`Served::unfold`]), the own-game fuzz's positions ([`ServedGame`](super::ServedGame)) and `search` requests all
/// ask through it.
pub struct Served {
    session: Session,
    known: HashMap<String, Known>,
    root: String,
    /// The memory the answers kept take, as counted (see [`Options::max_bytes`]).
    bytes: usize,
    max_bytes: usize,
}

/// What a node of an unfolding costs besides its token's bytes, as counted against
/// [`Options::max_bytes`]: its key twice (list and index), its child list, its edge, its label.
const NODE_BYTES: usize = 160;

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
        let mut served =
            Self { session, known: HashMap::new(), root: root.clone(), bytes: 0, max_bytes: usize::MAX };
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

    /// Bounds the memory the answers kept and an unfolding may take ([`Options::max_bytes`]): past
    /// it, an error names the bound.
    pub const fn set_max_bytes(&mut self, max_bytes: usize) {
        self.max_bytes = max_bytes;
    }

    /// Counts `bytes` more, or says that the bound is passed.
    fn charge(&mut self, bytes: usize) -> Result<(), ProtocolError> {
        self.bytes = self.bytes.saturating_add(bytes);
        if self.bytes > self.max_bytes {
            return Err(ProtocolError(format!(
                "the engine's game takes more than {} MiB of memory to hold (the bound, --max-memory): give a \
                 smaller depth, or a larger bound",
                self.max_bytes >> 20
            )));
        }
        Ok(())
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
        self.bytes = 0;
    }

    /// Asks, all at once, for the moves of each of `tokens` not asked yet (and, with
    /// [`Features::mover`], for the mover of every position they lead to).
    pub(super) fn expand(&mut self, tokens: &[&str]) -> Result<(), ProtocolError> {
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
            self.charge(2 * answer.len() + NODE_BYTES * (moves.len() + 1))?;
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
    pub(super) fn evaluate_all(&mut self, tokens: &[&str]) -> Result<(), ProtocolError> {
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
    pub(super) fn side_after(&self, parent: &str, side: Player, child: &str) -> Player {
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
                            self.charge(2 * key.0.len() + NODE_BYTES)?;
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

/// Runs `command` and unfolds its game from the start. See the [module documentation](super).
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
    served.set_max_bytes(options.max_bytes);
    let located = served.locate(position, path)?;
    let mut tree = served.unfold(&located.token, located.side, options.depth, options.max_nodes)?;
    tree.requests = served.requests();
    tree.elapsed = start.elapsed();
    Ok(tree)
}

/// A request or an answer, shortened for a message.
fn quoted(line: &str) -> String {
    format!("'{}'", text::excerpt(line))
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
    // A set, not a look back at every earlier move: a position with 10⁵ moves is read in linear time.
    let mut named: HashSet<&str> = HashSet::with_capacity(moves.len());
    for (name, _) in &moves {
        if !named.insert(name) {
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
