//! Sessions: the searches an engine was asked, in order. The own-game fuzz logs them as it asks
//! ([`Log`]), because an engine that keeps its table between searches may answer a search wrong
//! only after the right ones before it; it shrinks them to the fewest that still show a bug
//! ([`nullwindow::oracle::harness::minimize_history`]), saves them as a session file ([`write`]), and `--session FILE`
//! replays one in a fresh engine ([`read`]).
//!
//! A session file holds one request a line, as the engine reads it: `search POS DEPTH` or `new`.
//! Blank lines and lines starting with `#` are left out. The last request is the search judged.

use std::cell::{Cell, RefCell};
use std::fmt;
use std::path::{Path, PathBuf};

use crate::CliError;
use nullwindow::oracle::harness::depth_text;

/// The most bytes a session file may hold: far more than the searches of any run it replays.
const MAX_BYTES: u64 = 256 << 20;

/// The extension a saved session takes.
pub const EXTENSION: &str = "session";

/// One request of a session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// `search POS DEPTH` (or `search POS end`): the engine's own search of a position.
    Search {
        /// The position's token.
        token: String,
        /// Plies to search.
        depth: u32,
    },
    /// `new`: the engine forgets what it keeps between searches.
    New,
}

impl fmt::Display for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Search { token, depth } => write!(f, "search {token} {}", depth_text(*depth)),
            Self::New => f.write_str("new"),
        }
    }
}

impl Request {
    /// The memory the log reckons a request takes.
    fn bytes(&self) -> usize {
        match self {
            Self::Search { token, .. } => token.len() + 32,
            Self::New => 32,
        }
    }
}

/// The requests an engine process was asked since it started, as long as they fit in a bound:
/// past it, the log stops, and says so ([`Log::complete`]), so that a long run's memory stays
/// bounded and no history it shows is one cut short in silence.
pub struct Log {
    requests: RefCell<Vec<Request>>,
    bytes: Cell<usize>,
    max_bytes: usize,
    complete: Cell<bool>,
    /// Where the last two searches of a case (each asked once, or --repeat times) began.
    starts: Cell<(usize, usize)>,
}

impl Log {
    /// An empty log that keeps at most `max_bytes` of requests.
    pub const fn new(max_bytes: usize) -> Self {
        Self {
            requests: RefCell::new(Vec::new()),
            bytes: Cell::new(0),
            max_bytes,
            complete: Cell::new(true),
            starts: Cell::new((0, 0)),
        }
    }

    /// Logs `request`, unless the log is full.
    pub fn push(&self, request: Request) {
        let bytes = self.bytes.get() + request.bytes();
        if bytes > self.max_bytes || !self.complete.get() {
            self.complete.set(false);
            return;
        }
        self.bytes.set(bytes);
        self.requests.borrow_mut().push(request);
    }

    /// Whether every request since the engine started is in the log.
    pub fn complete(&self) -> bool {
        self.complete.get()
    }

    /// The requests logged before the last asking of `search` (the first of a run of it asked
    /// again in a row, with `new` between): what the engine had been asked when it answered it.
    pub fn before_last_ask(&self, search: &Request) -> Vec<Request> {
        let requests = self.requests.borrow();
        let Some(mut start) = requests.iter().rposition(|request| request == search) else {
            return requests.clone();
        };
        while start > 0 && (requests[start - 1] == *search || requests[start - 1] == Request::New) {
            start -= 1;
        }
        requests[..start].to_vec()
    }

    /// Marks where the requests of a case begin.
    pub fn start_case(&self) {
        self.starts.set((self.starts.get().1, self.requests.borrow().len()));
    }

    /// The requests logged before the case before the last: what the engine was asked before a
    /// case that it was then asked again.
    pub fn before_previous_case(&self) -> Vec<Request> {
        self.requests.borrow()[..self.starts.get().0].to_vec()
    }
}

/// Reads the session file `path`: its requests, the last a search.
///
/// # Errors
/// The file cannot be read, or a line is not a request (named by its line and column), or the last
/// request is not a search.
pub fn read(path: &Path) -> Result<Vec<Request>, CliError> {
    let failed = |why: String| CliError(format!("--session '{}': {why}", path.display()));
    let size = std::fs::metadata(path).map_err(|e| failed(e.to_string()))?.len();
    if size > MAX_BYTES {
        return Err(failed(format!(
            "{size} bytes, more than a session holds (at most {} MiB)",
            MAX_BYTES >> 20
        )));
    }
    let bytes = std::fs::read(path).map_err(|e| failed(e.to_string()))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..valid].iter().filter(|&&byte| byte == b'\n').count() + 1;
        failed(format!("line {line} is not UTF-8"))
    })?;
    let at = |line: usize, column: usize, why: String| {
        CliError(format!("--session '{}', line {line}, column {column}: {why}", path.display()))
    };
    let mut requests = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let column = |word: &str| word.as_ptr() as usize - line.as_ptr() as usize + 1;
        match words.as_slice() {
            [] => {}
            [first, ..] if first.starts_with('#') => {}
            ["new"] => requests.push(Request::New),
            ["search", token, depth] => {
                let depth = crate::sizes::depth_or_end(depth).map_err(|why| {
                    at(number + 1, column(depth), format!("'{depth}' is not a depth: {why}"))
                })?;
                requests.push(Request::Search { token: (*token).to_owned(), depth });
            }
            [first, ..] => {
                return Err(at(
                    number + 1,
                    column(first),
                    format!(
                        "'{}' is not a request of a session: each line is 'search POS DEPTH' or 'new'",
                        nullwindow::tree::text::excerpt(line.trim())
                    ),
                ));
            }
        }
    }
    match requests.last() {
        Some(Request::Search { .. }) => Ok(requests),
        Some(Request::New) => Err(CliError(format!(
            "--session '{}': its last request is 'new'; the last is the search judged",
            path.display()
        ))),
        None => Err(CliError(format!("--session '{}': the file holds no request", path.display()))),
    }
}

/// The text of a session file: a comment saying what it is, then the requests.
pub fn text(command: &str, requests: &[Request]) -> String {
    let mut text = format!(
        "# A session of the engine '{}': one request a line, in order, to a fresh engine process;\n\
         # the last search is the one judged (nullwindow fuzz --engine CMD --session FILE).\n",
        command.replace('\n', " ")
    );
    for request in requests {
        text.push_str(&request.to_string());
        text.push('\n');
    }
    text
}

/// Saves `requests` as a session file at `path` (with `.session` added; never over a file that
/// exists): where, or why it could not be.
pub fn write(path: &Path, command: &str, requests: &[Request]) -> Result<PathBuf, String> {
    super::save_new(path, EXTENSION, &text(command, requests))
}
