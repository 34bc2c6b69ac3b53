//! A running engine ([`Session`]) and what it answered ([`Served`]): the half of the protocol that
//! runs a program, and so needs the feature `process` (on with the default `cli`).

use std::collections::{HashMap, HashSet};
use std::io::{ErrorKind, Read, Write};
use std::os::fd::AsFd;
use std::path::Path;
use std::process::{ChildStdin, ChildStdout, Stdio};
use std::rc::Rc;
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::fcntl::{FcntlArg, OFlag, fcntl};
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use rustc_hash::FxHashMap;

use super::{EngineTree, Features, Located, Options, ProtocolError, Searched, VERSION};
use crate::game::Player;
use crate::oracle::runner::{MAX_ANSWER_BYTES, Runner};
use crate::tree::{from_child_lists, text};
use crate::value::{Decimals, Value, is_admissible};

/// An engine speaking the protocol, as a child process (a [`Runner`]: its whole process group is
/// stopped when the session ends, whichever way).
///
/// A batch of requests is written and its answers read on the calling thread alone, in one loop
/// that waits on both pipes at once: a request goes out whenever the engine's input has room, an
/// answer comes in whenever its output has one, so that an engine which answers while requests are
/// still being written never waits on the oracle, nor the oracle on it. A round trip is a few
/// system calls, no thread and no copy between threads.
pub struct Session {
    runner: Runner,
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    /// Bytes of output read and not yet taken as answers, from `taken` on; no line ends before
    /// `scanned`.
    output: Vec<u8>,
    taken: usize,
    scanned: usize,
    /// Whether the engine's output has ended.
    ended: bool,
    /// Where output is read into, before it is appended to `output`.
    scratch: Box<[u8]>,
    timeout: Duration,
    /// The last request answered, once the engine has closed its input.
    closed_after: Option<String>,
    /// The last request answered.
    last_answered: Option<String>,
    /// Requests asked, for the figures.
    pub requests: u64,
    /// Batches of requests asked, each one round trip to the engine and back.
    pub round_trips: u64,
    /// The longest answer so far, in bytes: what a batch reckons each answer may take.
    pub longest_answer: usize,
    /// The optional requests the engine announced.
    pub features: Features,
}

/// The most bytes read from the engine at once.
const READ_CHUNK: usize = 1 << 16;

/// Why no answer came.
enum NoAnswer {
    /// The deadline passed.
    Late,
    /// The engine's output ended.
    Ended,
    /// Its output could not be read, or a line is not an answer (too long, not UTF-8).
    Broken(String),
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
        let stdin = runner.take_stdin();
        // Written without blocking: a request that does not fit waits in the loop that also reads
        // the engine's answers, so that neither side waits on the other.
        if let Some(stdin) = &stdin {
            let flags = fcntl(stdin, FcntlArg::F_GETFL)
                .map_err(|e| ProtocolError(format!("cannot set up the engine's input: {e}")))?;
            fcntl(stdin, FcntlArg::F_SETFL(OFlag::from_bits_retain(flags) | OFlag::O_NONBLOCK))
                .map_err(|e| ProtocolError(format!("cannot set up the engine's input: {e}")))?;
        }
        let mut session = Self {
            runner,
            stdin,
            stdout,
            output: Vec::new(),
            taken: 0,
            scanned: 0,
            ended: false,
            scratch: vec![0; READ_CHUNK].into_boxed_slice(),
            timeout,
            closed_after: None,
            last_answered: None,
            requests: 0,
            round_trips: 0,
            longest_answer: 0,
            features: Features::default(),
        };
        let request = format!("protocol {VERSION}");
        let answer = session.ask(std::slice::from_ref(&request))?.pop().unwrap_or_default();
        session.features = Features::parse(&answer).ok_or_else(|| {
            if let Some(word) = answer.split_whitespace().find(|word| word.starts_with("decimals=")) {
                return ProtocolError(format!(
                    "the engine answered {} to {}: '{}' announces how many digits its values have after \
                     the point, from decimals=1 to decimals={}",
                    quoted(&answer),
                    quoted(&request),
                    text::excerpt(word),
                    crate::value::Decimals::MAX
                ));
            }
            ProtocolError(format!(
                "the engine answered {} to {}: it must answer '{request}' (the protocol's version), \
                 optionally followed by the optional requests it answers",
                quoted(&answer),
                quoted(&request)
            ))
        })?;
        Ok(session)
    }

    /// Sends `requests` and reads their answers, in order. Each answer may take up to the
    /// session's timeout from the one before it (from the start, for the first).
    ///
    /// # Errors
    /// The engine exits, cannot be written to, or is late with an answer.
    pub fn ask(&mut self, requests: &[String]) -> Result<Vec<String>, ProtocolError> {
        self.unasked_answer()?;
        self.requests += requests.len() as u64;
        self.round_trips += 1;
        let mut text = String::with_capacity(requests.iter().map(|r| r.len() + 1).sum());
        for request in requests {
            text.push_str(request);
            text.push('\n');
        }
        let mut written = 0;
        let mut answers = Vec::with_capacity(requests.len());
        let mut deadline = Instant::now() + self.timeout;
        while answers.len() < requests.len() || written < text.len() {
            while answers.len() < requests.len() {
                match self.take_line() {
                    Ok(Some(line)) => {
                        answers.push(line);
                        deadline = Instant::now() + self.timeout;
                    }
                    Ok(None) => break,
                    Err(why) => return Err(self.fail(why, requests.get(answers.len()))),
                }
            }
            if answers.len() == requests.len() && written == text.len() {
                break;
            }
            // Its output may have ended before this request was sent (seen while looking for an
            // unasked answer): no answer can come, and there is nothing left to wait for.
            if answers.len() < requests.len() && self.ended && self.pending_line().is_none() {
                return Err(self.fail(NoAnswer::Ended, requests.get(answers.len())));
            }
            let writing = written < text.len();
            if writing && self.stdin.is_none() {
                let after = self
                    .closed_after
                    .as_deref()
                    .map_or_else(String::new, |last| format!(" after answering {}", quoted(last)));
                return Err(ProtocolError(format!(
                    "the engine closed its input{after}, before {}",
                    quoted(&requests[0])
                )));
            }
            // The engine's input does not block: write what fits, and wait for room only when
            // nothing does.
            let mut full = false;
            while writing && written < text.len() && !full {
                match self.stdin.as_mut().map(|stdin| stdin.write(&text.as_bytes()[written..])) {
                    Some(Ok(count)) => written += count,
                    Some(Err(e)) if e.kind() == ErrorKind::Interrupted => {}
                    Some(Err(e)) if e.kind() == ErrorKind::WouldBlock => full = true,
                    _ => {
                        // The engine closed its input. The answers it has already written may
                        // still come; the next request that needs writing is refused.
                        self.stdin = None;
                        self.closed_after = answers.last().map(|_| requests[answers.len() - 1].clone());
                        written = text.len();
                    }
                }
            }
            if answers.len() == requests.len() && written == text.len() {
                break;
            }
            let reading = answers.len() < requests.len() && !self.ended;
            let (_, readable) = match self.wait(full, reading, deadline) {
                Ok(ready) => ready,
                Err(why) => return Err(self.fail(why, requests.get(answers.len()))),
            };
            if readable && let Err(why) = self.read_some() {
                return Err(self.fail(why, requests.get(answers.len())));
            }
        }
        self.last_answered = requests.last().cloned();
        Ok(answers)
    }

    /// An error if the engine has written output that answers no request: what it wrote after
    /// its last answer, before it was asked anything else (an engine that answers a request
    /// twice). Taken as the answer to the next request, it would put every later answer out of
    /// step, and judge each answer as the one to another question.
    fn unasked_answer(&mut self) -> Result<(), ProtocolError> {
        // Before the first request, what the engine writes is taken as its answer to it (the
        // version line), and judged as that.
        if self.last_answered.is_none() {
            return Ok(());
        }
        if self.taken == self.output.len() && !self.ended {
            let mut fds = [PollFd::new(self.stdout.as_fd(), PollFlags::POLLIN)];
            let ready = poll(&mut fds, PollTimeout::ZERO).is_ok_and(|ready| ready > 0);
            if ready && let Err(why) = self.read_some() {
                return Err(self.fail(why, None));
            }
        }
        if self.taken == self.output.len() {
            return Ok(());
        }
        let end = self.output[self.taken..]
            .iter()
            .position(|&byte| byte == b'\n')
            .map_or(self.output.len(), |at| self.taken + at);
        let extra = String::from_utf8_lossy(&self.output[self.taken..end]).into_owned();
        let after = self.last_answered.as_deref().map_or_else(
            || "before any request".to_owned(),
            |last| format!("after its answer to {}", quoted(last)),
        );
        self.runner.stop();
        Err(ProtocolError(format!(
            "the engine answered {} to no request ({after}): it answers each request with one line, so \
             every answer after this one would be taken as another request's",
            quoted(extra.trim_end_matches('\r'))
        )))
    }

    /// Waits until the engine's input has room (when `writing`) or its output has something
    /// (when `reading`), or `deadline` passes: which of the two is ready.
    fn wait(&self, writing: bool, reading: bool, deadline: Instant) -> Result<(bool, bool), NoAnswer> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(NoAnswer::Late);
            }
            let mut fds = Vec::with_capacity(2);
            let stdin = self.stdin.as_ref().filter(|_| writing);
            if let Some(stdin) = stdin {
                fds.push(PollFd::new(stdin.as_fd(), PollFlags::POLLOUT));
            }
            if reading {
                fds.push(PollFd::new(self.stdout.as_fd(), PollFlags::POLLIN));
            }
            // Whole milliseconds, rounded up, so that a wait never ends just short of the deadline.
            let millis = u16::try_from(left.as_millis().saturating_add(1)).unwrap_or(u16::MAX);
            match poll(&mut fds, PollTimeout::from(millis)) {
                Ok(0) => {}
                Ok(_) => {
                    let ready = |fd: &PollFd<'_>| fd.revents().is_some_and(|events| !events.is_empty());
                    let writable = stdin.is_some() && ready(&fds[0]);
                    let readable = reading && ready(&fds[fds.len() - 1]);
                    return Ok((writable, readable));
                }
                Err(Errno::EINTR) => {}
                Err(e) => return Err(NoAnswer::Broken(format!("cannot wait for the engine: {e}"))),
            }
        }
    }

    /// Reads what the engine's output has (at least one byte, or its end).
    fn read_some(&mut self) -> Result<(), NoAnswer> {
        if self.taken > 0 && self.taken == self.output.len() {
            self.output.clear();
            self.taken = 0;
            self.scanned = 0;
        }
        loop {
            match self.stdout.read(&mut self.scratch) {
                Ok(0) => {
                    self.ended = true;
                    return Ok(());
                }
                Ok(count) => {
                    self.output.extend_from_slice(&self.scratch[..count]);
                    return Ok(());
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(NoAnswer::Broken(format!("cannot read the engine's output: {e}"))),
            }
        }
    }

    /// Where the next complete line ends in the output read (its newline, or the end of the output
    /// for a last line without one). What it has looked through it does not look through again, so
    /// that a long line read in many pieces costs time linear in its length.
    fn pending_line(&mut self) -> Option<usize> {
        let from = self.scanned.max(self.taken);
        match self.output[from..].iter().position(|&byte| byte == b'\n') {
            Some(at) => Some(from + at),
            None => {
                self.scanned = self.output.len();
                (self.ended && self.taken < self.output.len()).then_some(self.output.len())
            }
        }
    }

    /// The next answer line from the output read, without its line ending, if a whole one is
    /// there.
    fn take_line(&mut self) -> Result<Option<String>, NoAnswer> {
        let Some(end) = self.pending_line() else {
            if self.output.len() - self.taken > MAX_ANSWER_BYTES {
                return Err(NoAnswer::Broken(format!(
                    "the line is longer than {} MiB, the most an answer may be",
                    MAX_ANSWER_BYTES >> 20
                )));
            }
            return Ok(None);
        };
        let mut line = &self.output[self.taken..end];
        self.taken = (end + 1).min(self.output.len());
        self.scanned = self.taken;
        if line.len() > MAX_ANSWER_BYTES {
            return Err(NoAnswer::Broken(format!(
                "the line is longer than {} MiB, the most an answer may be",
                MAX_ANSWER_BYTES >> 20
            )));
        }
        if line.last() == Some(&b'\r') {
            line = &line[..line.len() - 1];
        }
        self.longest_answer = self.longest_answer.max(line.len());
        let line = std::str::from_utf8(line)
            .map_err(|_| NoAnswer::Broken("the line is not UTF-8".to_owned()))?
            .to_owned();
        Ok(Some(line))
    }

    /// The error for the answer to `request` that did not come, the engine stopped.
    fn fail(&mut self, why: NoAnswer, request: Option<&String>) -> ProtocolError {
        let request = request.map_or_else(|| "its requests".to_owned(), |request| quoted(request));
        let failure = match why {
            NoAnswer::Late => {
                format!("the engine did not answer {request} within {:.1} s", self.timeout.as_secs_f64())
            }
            NoAnswer::Broken(why) => format!("cannot read the engine's answer to {request}: {why}"),
            NoAnswer::Ended => {
                // Its output closes as it exits, just before its status can be read: wait a
                // little for the status, which tells more than the closed pipe.
                let status = self.runner.wait_for(Some(Duration::from_millis(500))).ok().flatten();
                let how = status.map_or_else(|| "closed its output".to_owned(), |s| format!("exited ({s})"));
                format!("the engine {how} before answering {request}")
            }
        };
        self.runner.stop();
        ProtocolError(failure)
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

/// A move as kept: its name's number and the number of the token it leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Move {
    /// The name's number ([`Served::name`]).
    pub(super) name: u32,
    /// The child's token's number ([`Served::token`]).
    pub(super) child: u32,
}

/// What the engine said of one token. With [`Features::mover`], a token's mover is asked as soon
/// as the token is named, and forgotten with it: no position is ever placed without its side.
#[derive(Clone, Debug, Default)]
struct Known {
    children: Option<Box<[Move]>>,
    evaluation: Option<Value>,
    /// With [`Features::mover`]: which of the engine's two players' words it answered (0 is the
    /// start's).
    mover: Option<u8>,
    /// Whether the engine has been asked anything about it (counted once in [`Served::asked`]).
    asked: bool,
    /// What a search has asked of its children at once ([`Served::prefetched`]).
    prefetched: u8,
}

/// Plies left at a node when unfolding to the end.
const TO_THE_END: u32 = u32::MAX;

/// An engine's game as far as it has been asked: a running [`Session`] and what the engine said of
/// each token, asked once per token whatever the path or side that reached it. The unfolding
/// ([`Served::unfold`]), the own-game fuzz's positions ([`ServedGame`](super::ServedGame)) and
/// `search` requests all ask through it.
///
/// Tokens and move names are numbered as the engine first names them (the start's token is 0),
/// and kept once each: a position's moves are pairs of numbers, so that a game of millions of
/// positions is held in little more memory than its tokens take.
pub struct Served {
    session: Session,
    /// Every token named, by number.
    tokens: Vec<Rc<str>>,
    numbers: FxHashMap<Rc<str>, u32>,
    /// What the engine said of each, by number.
    known: Vec<Known>,
    /// Every move name, by number.
    names: Vec<Rc<str>>,
    name_numbers: FxHashMap<Rc<str>, u32>,
    /// With [`Features::mover`]: the engine's words for the two players, the start's first.
    players: Vec<String>,
    /// Positions the engine has been asked about (again after [`Served::forget`]).
    asked: u64,
    /// The memory the answers kept take, as counted (see [`Options::max_bytes`]).
    bytes: usize,
    max_bytes: usize,
    /// The bound on each answer to `search`, where it is not the session's on every answer.
    search_timeout: Option<Duration>,
    /// The engine's answers to `horizon`, by token number.
    horizons: FxHashMap<u32, Value>,
}

/// What a node of an unfolding costs besides its token's bytes, as counted against
/// [`Options::max_bytes`]: its key twice (list and index), its child list, its edge, its label.
const NODE_BYTES: usize = 160;

/// The most bytes of requests and answers a batch is reckoned to take ([`Served::in_batches`]).
const BATCH_BYTES: usize = 8 << 20;

/// What a token (or a move's name) kept costs besides its bytes: its entry in the list and in the
/// index, its counted reference, and what is known of it.
const TOKEN_BYTES: usize = 112;

/// A node of an unfolding: a token's number, the side to move there and the plies left below it.
/// A token reached with either side to move is two nodes: without `mover`, a token need not name
/// the side (a negamax engine's values are from the side to move anyway).
type NodeKey = (u32, Player, u32);

/// The start's token's number.
const ROOT: u32 = 0;

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
        let mut served = Self {
            session,
            tokens: Vec::new(),
            numbers: FxHashMap::default(),
            known: Vec::new(),
            names: Vec::new(),
            name_numbers: FxHashMap::default(),
            players: Vec::new(),
            asked: 0,
            bytes: 0,
            max_bytes: usize::MAX,
            search_timeout: None,
            horizons: FxHashMap::default(),
        };
        served.number(&root);
        served.learn(&[ROOT])?;
        Ok(served)
    }

    /// The engine's word for `player` (MAX moves at the start), once it has named that player in
    /// answer to `mover` ([`Features::mover`]).
    #[must_use]
    pub fn player_word(&self, player: Player) -> Option<&str> {
        self.players.get(usize::from(player == Player::Min)).map(String::as_str)
    }

    /// The optional requests the engine announced.
    #[must_use]
    pub const fn features(&self) -> Features {
        self.session.features
    }

    /// The start's token.
    #[must_use]
    pub fn root(&self) -> &str {
        &self.tokens[ROOT as usize]
    }

    /// Requests the engine has answered.
    #[must_use]
    pub const fn requests(&self) -> u64 {
        self.session.requests
    }

    /// Batches of requests the engine has answered, each a round trip.
    #[must_use]
    pub const fn round_trips(&self) -> u64 {
        self.session.round_trips
    }

    /// The CPU time the engine has taken so far, every process of its group together (where the
    /// system tells it: Linux).
    #[must_use]
    pub fn engine_cpu(&self) -> Option<Duration> {
        self.session.runner.cpu_time()
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

    /// Tokens known: those the engine named, asked about or not (what memory the answers take
    /// grows with it).
    #[must_use]
    pub fn known(&self) -> usize {
        self.tokens.len()
    }

    /// Positions the engine has been asked about (`children`, `eval` or `mover`), each counted once
    /// until it is forgotten, and again if it is asked about after that.
    #[must_use]
    pub const fn asked(&self) -> u64 {
        self.asked
    }

    /// The memory the answers kept take, in bytes, as counted against the bound
    /// ([`Served::set_max_bytes`]).
    #[must_use]
    pub const fn bytes(&self) -> usize {
        self.bytes
    }

    /// Forgets every answer, to bound memory over a long run: each position is asked about again,
    /// whole, when next needed, and the answers, being the engine's, are the same. Only the start's
    /// token and its mover stay: the side every other position's is read against. Numbers given
    /// before no longer mean the same tokens.
    pub fn forget(&mut self) {
        let root = self.tokens.swap_remove(ROOT as usize);
        let mover = self.known[ROOT as usize].mover;
        self.tokens.clear();
        self.numbers.clear();
        self.known.clear();
        self.names.clear();
        self.name_numbers.clear();
        self.bytes = 0;
        self.horizons.clear();
        self.number(&root);
        self.known[ROOT as usize].mover = mover;
    }

    /// The number of `token`, numbered now if it is new (nothing is asked about it).
    pub(super) fn number(&mut self, token: &str) -> u32 {
        if let Some(&number) = self.numbers.get(token) {
            return number;
        }
        let number = u32::try_from(self.tokens.len()).unwrap_or(u32::MAX);
        let token: Rc<str> = token.into();
        self.tokens.push(Rc::clone(&token));
        self.numbers.insert(token, number);
        self.known.push(Known::default());
        // Counted, not refused: the bound is checked where the answers that name tokens come in.
        self.bytes = self.bytes.saturating_add(TOKEN_BYTES + self.tokens[number as usize].len());
        number
    }

    /// The token numbered `number`.
    pub(super) fn token(&self, number: u32) -> &str {
        self.tokens.get(number as usize).map_or("", |token| token)
    }

    /// The move name numbered `number`.
    pub(super) fn name(&self, number: u32) -> &str {
        self.names.get(number as usize).map_or("", |name| name)
    }

    /// The moves of the token numbered `number`, if the engine has been asked for them.
    pub(super) fn children(&self, number: u32) -> Option<&[Move]> {
        self.known.get(number as usize)?.children.as_deref()
    }

    /// The evaluation of the token numbered `number`, if the engine has been asked for it.
    pub(super) fn evaluation(&self, number: u32) -> Option<Value> {
        self.known.get(number as usize)?.evaluation
    }

    /// Notes that a search has asked `bits` of the children of the token numbered `number` at once,
    /// and whether it had before.
    pub(super) fn prefetched(&mut self, number: u32, bits: u8) -> bool {
        self.known.get_mut(number as usize).is_some_and(|known| {
            let before = known.prefetched & bits == bits;
            known.prefetched |= bits;
            before
        })
    }

    /// Notes that the engine is being asked about the token numbered `number`, counting it the
    /// first time.
    fn ask_about(&mut self, number: u32) {
        if let Some(known) = self.known.get_mut(number as usize)
            && !std::mem::replace(&mut known.asked, true)
        {
            self.asked += 1;
        }
    }

    /// With [`Features::mover`], asks (all at once) for the mover of each of the tokens numbered
    /// `numbers` not asked yet: a position is never placed without its side.
    fn learn(&mut self, numbers: &[u32]) -> Result<(), ProtocolError> {
        if !self.features().mover {
            return Ok(());
        }
        let mut new: Vec<u32> =
            numbers.iter().copied().filter(|&number| self.known[number as usize].mover.is_none()).collect();
        new.sort_unstable();
        new.dedup();
        self.ask_movers(&new)
    }

    /// Asks, all at once, for the moves of each of the tokens numbered `numbers` not asked yet
    /// (and, with [`Features::mover`], for the mover of every position they lead to).
    pub(super) fn expand(&mut self, numbers: &[u32]) -> Result<(), ProtocolError> {
        self.learn(numbers)?;
        let mut asked: Vec<u32> = numbers
            .iter()
            .copied()
            .filter(|&number| self.known[number as usize].children.is_none())
            .collect();
        if asked.len() > 1 {
            asked.sort_unstable();
            asked.dedup();
        }
        if asked.is_empty() {
            return Ok(());
        }
        self.in_batches(&asked, |served, asked| {
            let requests: Vec<String> =
                asked.iter().map(|&number| format!("children {}", served.token(number))).collect();
            for &number in asked {
                served.ask_about(number);
            }
            let answers = served.session.ask(&requests)?;
            let mut named: Vec<u32> = Vec::new();
            for ((&number, request), answer) in asked.iter().zip(&requests).zip(&answers) {
                let moves = served.parse_children(request, answer)?;
                served.charge(16 + 8 * moves.len())?;
                named.extend(moves.iter().map(|mv| mv.child));
                served.known[number as usize].children = Some(moves);
            }
            served.learn(&named)
        })
    }

    /// Runs `batch` on `numbers` a batch at a time: each batch's requests and answers within
    /// [`BATCH_BYTES`] (or a tenth of the memory bound, if less), every answer reckoned as long as
    /// the longest so far; one request at least. Positions with long tokens, or answers with many
    /// moves, are asked about in smaller batches, so that the answers of one batch, held together
    /// before they are read, never hold much more than the bound.
    fn in_batches(
        &mut self,
        numbers: &[u32],
        mut batch: impl FnMut(&mut Self, &[u32]) -> Result<(), ProtocolError>,
    ) -> Result<(), ProtocolError> {
        let limit = BATCH_BYTES.min(self.max_bytes / 10).max(1);
        let mut start = 0;
        while start < numbers.len() {
            let answer = self.session.longest_answer.saturating_add(1);
            let (mut end, mut bytes) = (start, 0usize);
            while end < numbers.len() {
                let cost = self.tokens[numbers[end] as usize].len().saturating_add(16).saturating_add(answer);
                if end > start && bytes.saturating_add(cost) > limit {
                    break;
                }
                bytes = bytes.saturating_add(cost);
                end += 1;
            }
            batch(self, &numbers[start..end])?;
            start = end;
        }
        Ok(())
    }

    /// The moves of a `children` answer, their names and tokens numbered: pairs of a name and a
    /// token, no name twice.
    fn parse_children(&mut self, request: &str, answer: &str) -> Result<Box<[Move]>, ProtocolError> {
        let mut words = answer.split_whitespace();
        let mut moves = Vec::new();
        while let Some(name_word) = words.next() {
            let Some(token) = words.next() else {
                return Err(ProtocolError(format!(
                    "the engine answered {} to {}: the answer is pairs of a move's name and the position it leads \
                     to, and this one has an odd number of words",
                    quoted(answer),
                    quoted(request)
                )));
            };
            let name = match self.name_numbers.get(name_word) {
                Some(&name) => name,
                None => {
                    let name = u32::try_from(self.names.len()).unwrap_or(u32::MAX);
                    let text: Rc<str> = name_word.into();
                    self.names.push(Rc::clone(&text));
                    self.name_numbers.insert(text, name);
                    self.charge(TOKEN_BYTES + name_word.len())?;
                    name
                }
            };
            let child = self.number(token);
            moves.push(Move { name, child });
        }
        // A set only for a wide position, so that one with 10⁵ moves is read in linear time.
        let repeated = if moves.len() <= 16 {
            moves.iter().enumerate().find(|(at, mv)| moves[..*at].iter().any(|other| other.name == mv.name))
        } else {
            let mut seen = HashSet::with_capacity(moves.len());
            moves.iter().enumerate().find(|(_, mv)| !seen.insert(mv.name))
        };
        if let Some((_, mv)) = repeated {
            return Err(ProtocolError(format!(
                "the engine answered {} to {}: the move {} is named twice",
                quoted(answer),
                quoted(request),
                quoted(self.name(mv.name))
            )));
        }
        Ok(moves.into_boxed_slice())
    }

    /// With [`Features::mover`], asks for the mover of each of the tokens numbered `numbers`, all
    /// at once; there are two players' words in a game, no more.
    fn ask_movers(&mut self, numbers: &[u32]) -> Result<(), ProtocolError> {
        if !self.features().mover || numbers.is_empty() {
            return Ok(());
        }
        self.in_batches(numbers, Self::ask_movers_batch)
    }

    /// [`Served::ask_movers`] for one batch.
    fn ask_movers_batch(&mut self, numbers: &[u32]) -> Result<(), ProtocolError> {
        let requests: Vec<String> =
            numbers.iter().map(|&number| format!("mover {}", self.token(number))).collect();
        for &number in numbers {
            self.ask_about(number);
        }
        let answers = self.session.ask(&requests)?;
        for ((&number, request), answer) in numbers.iter().zip(&requests).zip(&answers) {
            let word = answer.trim();
            if word.is_empty() || word.chars().any(char::is_whitespace) {
                return Err(ProtocolError(format!(
                    "the engine answered {} to {}: a player is one word, without whitespace",
                    quoted(answer),
                    quoted(request)
                )));
            }
            let player = match self.players.iter().position(|known| known == word) {
                Some(player) => player,
                None => {
                    if let [first, second] = self.players.as_slice() {
                        return Err(ProtocolError(format!(
                            "the engine answered {} to {}: a game has two players, and it named '{}' and '{}' before",
                            quoted(answer),
                            quoted(request),
                            text::excerpt(first),
                            text::excerpt(second)
                        )));
                    }
                    self.players.push(word.to_owned());
                    self.players.len() - 1
                }
            };
            self.known[number as usize].mover = u8::try_from(player).ok();
        }
        Ok(())
    }

    /// Asks, all at once, for the evaluation of each of the tokens numbered `numbers` not asked
    /// yet.
    pub(super) fn evaluate_all(&mut self, numbers: &[u32]) -> Result<(), ProtocolError> {
        let mut asked: Vec<u32> = numbers
            .iter()
            .copied()
            .filter(|&number| self.known[number as usize].evaluation.is_none())
            .collect();
        if asked.len() > 1 {
            asked.sort_unstable();
            asked.dedup();
        }
        if asked.is_empty() {
            return Ok(());
        }
        self.learn(&asked)?;
        self.in_batches(&asked, Self::evaluate_batch)
    }

    /// [`Served::evaluate_all`] for one batch.
    fn evaluate_batch(&mut self, asked: &[u32]) -> Result<(), ProtocolError> {
        for &number in asked {
            self.ask_about(number);
        }
        let requests: Vec<String> =
            asked.iter().map(|&number| format!("eval {}", self.token(number))).collect();
        let answers = self.session.ask(&requests)?;
        for ((&number, request), answer) in asked.iter().zip(&requests).zip(&answers) {
            let whole = || {
                format!(
                    "an evaluation is a whole number in the admissible range {}..={}",
                    crate::value::MIN_LEAF,
                    crate::value::MAX_LEAF
                )
            };
            let value = read_value(self.features().decimals, answer, whole).map_err(|why| {
                ProtocolError(format!("the engine answered {} to {}: {why}", quoted(answer), quoted(request)))
            })?;
            self.known[number as usize].evaluation = Some(value);
        }
        Ok(())
    }

    /// The moves of `token`, each a name and the token it leads to, in the engine's order (asked
    /// now if they were not before).
    ///
    /// # Errors
    /// The engine fails or breaks the protocol.
    pub fn moves(&mut self, token: &str) -> Result<Vec<(&str, &str)>, ProtocolError> {
        let number = self.number(token);
        self.expand(&[number])?;
        let moves = self.children(number).unwrap_or_default();
        Ok(moves.iter().map(|mv| (self.name(mv.name), self.token(mv.child))).collect())
    }

    /// The evaluation of `token`, from the side to move there (asked now if it was not before).
    ///
    /// # Errors
    /// The engine fails or breaks the protocol.
    pub fn evaluate(&mut self, token: &str) -> Result<Value, ProtocolError> {
        let number = self.number(token);
        self.evaluate_all(&[number])?;
        Ok(self.evaluation(number).unwrap_or(0))
    }

    /// Whether the same side moves at the token numbered `child` as at `parent`, a position it
    /// follows: never, unless the engine announced [`Features::mover`] and names the same player
    /// at both.
    pub(super) fn keeps_side(&self, parent: u32, child: u32) -> bool {
        let mover = |number: u32| self.known.get(number as usize).and_then(|known| known.mover);
        self.features().mover && mover(parent).is_some() && mover(parent) == mover(child)
    }

    /// The side to move at `child`, a position `parent` (where `side` moves) leads to.
    fn side_after(&self, parent: u32, side: Player, child: u32) -> Player {
        if self.keeps_side(parent, child) { side } else { side.opponent() }
    }

    /// The side to move at `token` when a search starts there: MAX, unless the engine announced
    /// [`Features::mover`] and names the root's opponent there.
    ///
    /// # Errors
    /// The engine fails or breaks the protocol.
    pub fn side_at(&mut self, token: &str) -> Result<Player, ProtocolError> {
        let number = self.number(token);
        self.learn(&[number])?;
        Ok(if self.keeps_side(ROOT, number) || !self.features().mover { Player::Max } else { Player::Min })
    }

    /// The position a `--position` names, then `path` (child indices in the engine's order) walked
    /// from it: its token, its side to move, and the moves from the start when they are known.
    /// `position` is `token:TOKEN`, `moves:MOVES`, or without a prefix: moves from the start
    /// separated by spaces (empty: the start), or a token. A single word without a prefix is a move
    /// of the start if the start has a move of that name, and a token otherwise; a word that is
    /// both a move of the start and a token the engine has named is refused, as ambiguous. A
    /// token's side to move is MAX (or, with [`Features::mover`], the side the engine names).
    ///
    /// # Errors
    /// A move that is not legal where it is played, or a path that leaves the game; an ambiguous
    /// word; the engine fails.
    pub fn locate(&mut self, position: &str, path: &[u32]) -> Result<Located, ProtocolError> {
        let root = self.root().to_owned();
        let (forced, position) = match (position.strip_prefix("token:"), position.strip_prefix("moves:")) {
            (Some(token), _) => (Some(true), token),
            (_, Some(moves)) => (Some(false), moves),
            _ => (None, position),
        };
        let words: Vec<&str> = position.split_whitespace().collect();
        let is_root_move = words.len() == 1 && self.moves(&root)?.iter().any(|&(name, _)| name == words[0]);
        if forced.is_none() && is_root_move && self.numbers.contains_key(words[0]) {
            return Err(ProtocolError(format!(
                "'{0}' is both a move of the start and a position's token: give --position=moves:{0} or \
                 --position=token:{0}",
                text::excerpt(words[0])
            )));
        }
        let is_token = match forced {
            Some(token) => token,
            None => words.len() == 1 && !is_root_move,
        };
        if is_token && words.len() != 1 {
            return Err(ProtocolError(format!(
                "token:{}: a position token is one word, without whitespace",
                text::excerpt(position)
            )));
        }
        let mut located = if is_token {
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
            let Some(&(name, _)) = moves.get(index as usize) else {
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
            let name = name.to_owned();
            located = self.play_named(located, &name)?;
        }
        Ok(located)
    }

    /// The position after the move named `name`.
    fn play_named(&mut self, from: Located, name: &str) -> Result<Located, ProtocolError> {
        let moves = self.moves(&from.token)?;
        let Some(&(_, child)) = moves.iter().find(|&&(known, _)| known == name) else {
            let legal: Vec<&str> = moves.iter().map(|&(name, _)| name).collect();
            let after = match from.moves.as_deref() {
                Some([]) => "at the start".to_owned(),
                Some(moves) => format!("after {}", moves.join(" ")),
                None => format!("at {}", quoted(&from.token)),
            };
            return Err(ProtocolError(format!(
                "{after} there is no move '{}' (the moves there: {})",
                text::excerpt(name),
                super::listed_moves(legal)
            )));
        };
        let child = child.to_owned();
        let (parent, child_number) = (self.number(&from.token), self.number(&child));
        let side = self.side_after(parent, from.side, child_number);
        let moves = from.moves.map(|mut moves| {
            moves.push(name.to_owned());
            moves
        });
        Ok(Located { token: child, side, moves })
    }

    /// The engine's value of the position numbered `number` at its search's horizon (`horizon
    /// POS`), from the side to move there, asked once a token; [`Served::evaluate`]'s where the
    /// engine does not announce [`Features::horizon`].
    ///
    /// # Errors
    /// The engine fails, or answers what is not an admissible whole number.
    pub fn horizon(&mut self, number: u32) -> Result<Value, ProtocolError> {
        if !self.features().horizon {
            self.evaluate_all(&[number])?;
            return Ok(self.evaluation(number).unwrap_or(0));
        }
        self.horizon_all(&[number])?;
        Ok(self.horizons.get(&number).copied().unwrap_or(0))
    }

    /// Asks `horizon` of every token of `numbers` not asked before, in one round trip.
    ///
    /// # Errors
    /// As [`Served::horizon`].
    pub(super) fn horizon_all(&mut self, numbers: &[u32]) -> Result<(), ProtocolError> {
        let mut asked: Vec<u32> =
            numbers.iter().copied().filter(|number| !self.horizons.contains_key(number)).collect();
        asked.sort_unstable();
        asked.dedup();
        if asked.is_empty() {
            return Ok(());
        }
        let requests: Vec<String> =
            asked.iter().map(|&number| format!("horizon {}", self.tokens[number as usize])).collect();
        let answers = self.session.ask(&requests)?;
        for ((&number, request), answer) in asked.iter().zip(&requests).zip(&answers) {
            let whole = || "'horizon' answers a whole number within ±10⁹".to_owned();
            let value = read_value(self.features().decimals, answer, whole).map_err(|why| {
                ProtocolError(format!("the engine answered {} to {}: {why}", quoted(answer), quoted(request)))
            })?;
            self.horizons.insert(number, value);
        }
        Ok(())
    }

    /// `new`: the engine forgets all it keeps between searches (its table, killers, history), so
    /// that the next search is a fresh engine's.
    ///
    /// # Errors
    /// The engine did not announce `new`, fails, or answers other than `ok`.
    pub fn new_game(&mut self) -> Result<(), ProtocolError> {
        if !self.features().new {
            return Err(ProtocolError(
                "the engine did not announce 'new' in its version line (it answers 'protocol 1 search new' \
                 when it does)"
                    .to_owned(),
            ));
        }
        let request = "new".to_owned();
        let answer = self.session.ask(std::slice::from_ref(&request))?.pop().unwrap_or_default();
        if answer.trim() != "ok" {
            return Err(ProtocolError(format!(
                "the engine answered {} to 'new': it answers 'ok'",
                quoted(&answer)
            )));
        }
        Ok(())
    }

    /// The names of the engine's selective features (`options`), each one word.
    ///
    /// # Errors
    /// The engine did not announce `options`, or fails.
    pub fn options(&mut self) -> Result<Vec<String>, ProtocolError> {
        self.options_announced()?;
        let answer = self.session.ask(&["options".to_owned()])?.pop().unwrap_or_default();
        Ok(answer.split_whitespace().map(str::to_owned).collect())
    }

    /// The tokens of the positions the engine declares of equal value to `token` (`symmetric POS`).
    ///
    /// # Errors
    /// The engine did not announce `symmetric`, or fails.
    pub fn symmetric(&mut self, token: &str) -> Result<Vec<String>, ProtocolError> {
        if !self.features().symmetric {
            return Err(ProtocolError(
                "the engine did not announce 'symmetric' in its version line (it answers 'protocol 1 search \
                 symmetric' when it does)"
                    .to_owned(),
            ));
        }
        let request = format!("symmetric {token}");
        let answer = self.session.ask(std::slice::from_ref(&request))?.pop().unwrap_or_default();
        Ok(answer.split_whitespace().map(str::to_owned).collect())
    }

    /// Switches the selective feature `name` on or off (`set NAME on|off`).
    ///
    /// # Errors
    /// The engine did not announce `options`, fails, or answers other than `ok`.
    pub fn set(&mut self, name: &str, on: bool) -> Result<(), ProtocolError> {
        self.options_announced()?;
        let request = format!("set {name} {}", if on { "on" } else { "off" });
        let answer = self.session.ask(std::slice::from_ref(&request))?.pop().unwrap_or_default();
        if answer.trim() != "ok" {
            return Err(ProtocolError(format!(
                "the engine answered {} to {}: it answers 'ok'",
                quoted(&answer),
                quoted(&request)
            )));
        }
        Ok(())
    }

    fn options_announced(&self) -> Result<(), ProtocolError> {
        if self.features().options {
            Ok(())
        } else {
            Err(ProtocolError(
                "the engine did not announce 'options' in its version line (it answers 'protocol 1 search \
                 options' when it does)"
                    .to_owned(),
            ))
        }
    }

    /// Bounds each answer to `search` by `timeout` (by default, the session's bound on every
    /// answer): a longer search is an engine failure.
    pub fn set_search_timeout(&mut self, timeout: Duration) {
        self.search_timeout = Some(timeout);
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
        // A search to the end of the game (`search POS end`, announced `end`) writes no records:
        // their depths, the plies left, mean nothing there.
        let to_the_end = depth >= crate::oracle::proof::TO_THE_END;
        if to_the_end && !self.features().end {
            return Err(ProtocolError(
                "the engine did not announce 'end' in its version line: it searches to a depth, not to \
                 the end of the game ('search POS end')"
                    .to_owned(),
            ));
        }
        let request = match records.filter(|_| self.features().records && !to_the_end) {
            _ if to_the_end => format!("search {token} end"),
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
        let answer = match self.search_timeout {
            Some(timeout) => {
                let usual = std::mem::replace(&mut self.session.timeout, timeout);
                let answer = self.session.ask(std::slice::from_ref(&request));
                self.session.timeout = usual;
                answer
            }
            None => self.session.ask(std::slice::from_ref(&request)),
        }?
        .pop()
        .unwrap_or_default();
        let words: Vec<&str> = answer.split_whitespace().collect();
        let wrong = |why: &str| {
            ProtocolError(format!("the engine answered {} to {}: {why}", quoted(&answer), quoted(&request)))
        };
        match words.as_slice() {
            ["skip"] => Ok(Searched::Skip),
            [value] | [value, _] => {
                let whole =
                    || "a search answers a whole number within ±10⁹, optionally a move, or skip".to_owned();
                let value = read_value(self.features().decimals, value, whole).map_err(|why| wrong(&why))?;
                let best_move = match words.get(1) {
                    None => None,
                    Some(name) => {
                        let moves = self.moves(token)?;
                        let index = moves.iter().position(|&(known, _)| known == *name).ok_or_else(|| {
                            let legal: Vec<&str> = moves.iter().map(|&(name, _)| name).collect();
                            wrong(&format!(
                                "'{}' is no move of the position (its moves: {})",
                                text::excerpt(name),
                                super::listed_moves(legal)
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
        progress: &mut dyn FnMut(usize),
    ) -> Result<EngineTree, ProtocolError> {
        let start = Instant::now();
        let requests_before = self.requests();
        let left = depth.unwrap_or(TO_THE_END);
        let from = self.number(from);
        let mut nodes: Vec<NodeKey> = vec![(from, side, left)];
        let mut index: HashMap<NodeKey, u32> = HashMap::from([(nodes[0], 0)]);
        let mut children: Vec<Vec<u32>> = vec![Vec::new()];
        let mut frontier = vec![0u32];
        while !frontier.is_empty() {
            let expanding: Vec<u32> = frontier
                .iter()
                .map(|&node| nodes[node as usize])
                .filter(|&(_, _, left)| left > 0)
                .map(|(token, _, _)| token)
                .collect();
            self.expand(&expanding)?;
            let mut next = Vec::new();
            for node in std::mem::take(&mut frontier) {
                let (token, side, left) = nodes[node as usize];
                if left == 0 {
                    continue;
                }
                let moves = self.children(token).unwrap_or_default().to_vec();
                for mv in moves {
                    let child_side = self.side_after(token, side, mv.child);
                    let child_left = if left == TO_THE_END { TO_THE_END } else { left - 1 };
                    let key = (mv.child, child_side, child_left);
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
                            self.charge(NODE_BYTES)?;
                            index.insert(key, id);
                            nodes.push(key);
                            if nodes.len().is_multiple_of(4096) {
                                progress(nodes.len());
                            }
                            children.push(Vec::new());
                            next.push(id);
                            id
                        }
                    };
                    children[node as usize].push(id);
                }
            }
            frontier = next;
            progress(nodes.len());
        }
        let tokens: Vec<u32> = nodes.iter().map(|&(token, _, _)| token).collect();
        self.evaluate_all(&tokens)?;
        if depth.is_none() {
            find_cycle(&children).map_or(Ok(()), |node| {
                Err(ProtocolError(format!(
                    "the game has a cycle through position {}: it has no end to search to; give a depth",
                    quoted(self.token(nodes[node as usize].0))
                )))
            })?;
        }
        // The unfolded tree keeps each node's token and its moves' names as strings of its own.
        let strings = nodes.iter().map(|&(token, _, left)| {
            let names = if left == 0 {
                0
            } else {
                self.children(token)
                    .unwrap_or_default()
                    .iter()
                    .map(|mv| self.name(mv.name).len() + size_of::<String>())
                    .sum::<usize>()
            };
            self.token(token).len() + 2 * size_of::<String>() + names
        });
        let strings = strings.fold(0usize, usize::saturating_add);
        self.charge(strings)?;
        let (tree, order) = from_child_lists(0, &children, |node, _| {
            let (token, side, _) = nodes[node as usize];
            (side.perspective(self.evaluation(token).unwrap_or(0)), side)
        });
        let tokens = order.iter().map(|&node| self.token(nodes[node as usize].0).to_owned()).collect();
        let depth_left = order.iter().map(|&node| nodes[node as usize].2).collect();
        let moves = order
            .iter()
            .map(|&node| {
                let (token, _, left) = nodes[node as usize];
                if left == 0 {
                    return Vec::new();
                }
                self.children(token)
                    .unwrap_or_default()
                    .iter()
                    .map(|mv| self.name(mv.name).to_owned())
                    .collect()
            })
            .collect();
        Ok(EngineTree {
            tree,
            tokens,
            moves,
            depth_left,
            root_word: None,
            requests: self.requests() - requests_before,
            elapsed: start.elapsed(),
        })
    }
}

/// `answer` read as a value: a whole number, admissible, for an engine that announces no
/// decimals (`whole` says what it must be), or a number with the digits it announced, which the
/// scaled value is ([`Decimals::read`], refused in the words of [`Decimals::refusal`]).
fn read_value(decimals: Decimals, answer: &str, whole: impl FnOnce() -> String) -> Result<Value, String> {
    let answer = answer.trim();
    if decimals == Decimals::NONE {
        return answer.parse::<Value>().ok().filter(|&value| is_admissible(value)).ok_or_else(whole);
    }
    decimals.read(answer).map_err(|error| format!("the value is {answer}, {}", decimals.refusal(error)))
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
    unfold_engine_reporting(command, options, position, path, &mut |_| {})
}

/// [`unfold_engine_at`], calling `progress` with the positions unfolded so far as the unfolding
/// goes on (after each ply, and every few thousand positions), for a report of a long unfolding.
///
/// # Errors
/// As [`unfold_engine_at`], and an engine that announces decimals ([`Features::decimals`]) or
/// `distance` ([`Features::distance`]): a tree holds one whole number a position, so their values
/// are judged only through [`Served`].
pub fn unfold_engine_reporting(
    command: &str,
    options: &Options,
    position: &str,
    path: &[u32],
    progress: &mut dyn FnMut(usize),
) -> Result<EngineTree, ProtocolError> {
    let start = Instant::now();
    let mut served = Served::start(command, options.timeout)?;
    if served.features().distance {
        // One value a node: a finished position's value by distance depends on the search's root.
        return Err(ProtocolError(
            "the engine announces distance: a finished position is worth less the further below the \
             searched position it lies, which a tree of one value a position cannot hold; its own \
             search is judged (fuzz --engine without --command)"
                .to_owned(),
        ));
    }
    let decimals = served.features().decimals;
    if decimals != Decimals::NONE {
        // An engine tree holds whole numbers: a value of 453 printed for the engine's 4.53 would
        // change the question in silence.
        return Err(ProtocolError(format!(
            "the engine announces decimals={}: its values are judged with their digits only by its own \
             search (fuzz --engine without --command), not unfolded into a tree of whole numbers",
            decimals.digits()
        )));
    }
    served.set_max_bytes(options.max_bytes);
    let located = served.locate(position, path)?;
    let mut tree = served.unfold(&located.token, located.side, options.depth, options.max_nodes, progress)?;
    tree.root_word = served.player_word(located.side).map(str::to_owned);
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
