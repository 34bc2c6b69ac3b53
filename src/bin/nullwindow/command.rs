//! Running a user's shell command on a file, as `shrink` and `fuzz` do: with a timeout that stops
//! every process it started, its output kept within bounds, and a temporary directory that an
//! interruption removes.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::time::{Duration, Instant};

use nullwindow::oracle::runner::{self, Runner};

use crate::CliError;
use crate::output::errln;

/// How one run of a command ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// It exited with this status.
    Exited(i32),
    /// It was killed by a signal (the number, where the platform tells it).
    Killed(Option<i32>),
    /// It was stopped at the timeout.
    TimedOut,
}

/// One run: how it ended, what it wrote.
pub struct Run {
    pub ended: Ended,
    /// Standard output, its first [`OUTPUT_KEPT`] bytes (empty unless asked for).
    pub stdout: Vec<u8>,
    /// Standard error, its last [`OUTPUT_KEPT`] bytes.
    pub stderr: Vec<u8>,
}

/// The most lines of a command's standard error a message quotes.
const QUOTED_LINES: usize = 20;

impl Run {
    /// What the command said on standard error, for a message: ` (it said: …)` for one line, its
    /// last lines (at most [`QUOTED_LINES`], each shortened) for more, or nothing. The last lines,
    /// because that is where a crash says what went wrong (a Python traceback starts with
    /// `Traceback (most recent call last):`).
    pub fn said(&self) -> String {
        said(&self.stderr)
    }

    /// How it ended, in words: "exited 3", "was killed by signal 9", "ran past the timeout".
    pub fn how(&self) -> String {
        match self.ended {
            Ended::Exited(code) => format!("exited {code}"),
            Ended::Killed(Some(signal)) => format!("was killed by signal {signal}"),
            Ended::Killed(None) => "was killed".to_owned(),
            Ended::TimedOut => "ran past the timeout".to_owned(),
        }
    }
}

/// What a program said on standard error (`stderr`), for a message: ` (it said: …)` for one line,
/// its last lines (at most [`QUOTED_LINES`], each shortened) for more, or nothing.
fn said(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text.lines().filter(|line| !line.trim().is_empty()).collect();
    match lines.as_slice() {
        [] => String::new(),
        [line] => format!(" (it said: {})", said_line(line)),
        _ => {
            let shown = &lines[lines.len().saturating_sub(QUOTED_LINES)..];
            let quoted: Vec<String> = shown.iter().map(|line| format!("  {}", said_line(line))).collect();
            let which = if shown.len() == lines.len() { "it said" } else { "the last lines it said" };
            format!(" ({which}:\n{})", quoted.join("\n"))
        }
    }
}

/// The most characters of one line of standard error a message quotes.
const QUOTED_WIDTH: usize = 300;

/// One line of what a program said, as a message quotes it: whole up to [`QUOTED_WIDTH`]
/// characters, quotes and all (a Python error names its object in quotes), with only control
/// characters escaped so that a message stays one line a line.
fn said_line(line: &str) -> String {
    let mut shown: String = line
        .chars()
        .take(QUOTED_WIDTH)
        .flat_map(|c| if c.is_control() { c.escape_debug().collect::<Vec<_>>() } else { vec![c] })
        .collect();
    if line.chars().nth(QUOTED_WIDTH).is_some() {
        shown.push('…');
    }
    shown
}

/// The most of a command's output kept; the rest is read and dropped.
pub const OUTPUT_KEPT: usize = 1 << 16;

/// The temporary directories that exist now: what an interruption removes.
static DIRECTORIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// On Ctrl-C or SIGTERM, whatever the command is doing: stops every program it runs (their whole
/// process groups), removes its temporary directories, and exits with the status of an
/// interruption (130). Nothing is reported as a failure of the program that was stopped.
pub fn stop_on_interrupt() {
    // A second handler cannot be set; the first stays.
    let _ = ctrlc::set_handler(|| {
        runner::stop_all();
        let directories = std::mem::take(&mut *DIRECTORIES.lock().unwrap_or_else(PoisonError::into_inner));
        for directory in directories {
            let _ = std::fs::remove_dir_all(directory);
        }
        errln!("interrupted");
        std::process::exit(130);
    });
}

/// After an interruption, the handler is about to exit: a run that died of it waits for that
/// instead of being reported.
pub fn wait_if_interrupted() {
    while runner::interrupted() {
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Output read from a stream on a thread of its own, kept within bounds as it comes.
struct Collected {
    kept: Arc<Mutex<Vec<u8>>>,
    done: mpsc::Receiver<()>,
}

impl Collected {
    /// Reads `stream` to its end, keeping its first [`OUTPUT_KEPT`] bytes (`last`: its last).
    fn start(stream: Option<impl Read + Send + 'static>, last: bool) -> Self {
        let kept = Arc::new(Mutex::new(Vec::new()));
        let (finished, done) = mpsc::channel();
        let into = Arc::clone(&kept);
        std::thread::spawn(move || {
            let mut buffer = [0u8; 1 << 14];
            if let Some(mut stream) = stream {
                while let Ok(read) = stream.read(&mut buffer) {
                    if read == 0 {
                        break;
                    }
                    let mut kept = into.lock().unwrap_or_else(PoisonError::into_inner);
                    if last {
                        kept.extend_from_slice(&buffer[..read]);
                        let excess = kept.len().saturating_sub(OUTPUT_KEPT);
                        kept.drain(..excess);
                    } else {
                        let room = OUTPUT_KEPT.saturating_sub(kept.len()).min(read);
                        kept.extend_from_slice(&buffer[..room]);
                    }
                }
            }
            let _ = finished.send(());
        });
        Self { kept, done }
    }

    /// What was read by `deadline`: all of it if the stream ended by then. A stream something
    /// else still holds open (a process in a session of its own) is not waited for past it.
    fn finish(self, deadline: Instant) -> Vec<u8> {
        let _ = self.done.recv_timeout(deadline.saturating_duration_since(Instant::now()));
        std::mem::take(&mut *self.kept.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// Runs `command` with `sh -c` once, standard input closed, for at most `timeout`; keeps standard
/// output when `keep_stdout`. Whatever it started in its process group is stopped when it exits
/// or times out, and its output is read until then and a moment more, however long something
/// outside the group holds the pipes open.
pub fn run(command: &str, timeout: Option<Duration>, keep_stdout: bool) -> Result<Run, CliError> {
    let stdout = if keep_stdout { Stdio::piped() } else { Stdio::null() };
    let mut runner = Runner::start(command, Stdio::null(), stdout, Stdio::piped())
        .map_err(|e| CliError(format!("cannot run sh: {e}")))?;
    let stdout = Collected::start(runner.take_stdout(), false);
    let stderr = Collected::start(runner.take_stderr(), true);
    let status =
        runner.wait_for(timeout).map_err(|e| CliError(format!("cannot wait for the command: {e}")))?;
    runner.stop();
    let grace = Instant::now() + Duration::from_millis(100);
    let (stdout, stderr) = (stdout.finish(grace), stderr.finish(grace));
    wait_if_interrupted();
    let ended = match status {
        None => Ended::TimedOut,
        Some(status) => status.code().map_or_else(|| Ended::Killed(signal(&status)), Ended::Exited),
    };
    Ok(Run { ended, stdout, stderr })
}

#[cfg(unix)]
fn signal(status: &ExitStatus) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    status.signal()
}

#[cfg(not(unix))]
fn signal(_status: &ExitStatus) -> Option<i32> {
    None
}

/// The most bytes of records one run of an engine may write: more is an engine failure, not a
/// verdict.
pub const MAX_RECORD_BYTES: u64 = 256 << 20;

/// The records an engine wrote to `file`, if it wrote any: `None` when there is no such file or it
/// is empty. The file must be a regular file (a FIFO, a device or a link to one is refused before
/// it is opened, so that reading can neither block nor run on forever) of at most
/// [`MAX_RECORD_BYTES`], in UTF-8; anything else is the engine's failure, never records read as
/// none.
pub fn read_records(file: &Path) -> Result<Option<String>, String> {
    let metadata = match std::fs::metadata(file) {
        Ok(metadata) => metadata,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read the engine's records '{}': {e}", file.display())),
    };
    if !metadata.is_file() {
        return Err(format!("the engine's records '{}' are not a regular file", file.display()));
    }
    if metadata.len() > MAX_RECORD_BYTES {
        return Err(format!(
            "the engine's records '{}' have {} bytes, more than the {} MiB the oracle reads",
            file.display(),
            metadata.len(),
            MAX_RECORD_BYTES >> 20
        ));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(file)
        .and_then(|opened| opened.take(MAX_RECORD_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read the engine's records '{}': {e}", file.display()))?;
    if bytes.len() as u64 > MAX_RECORD_BYTES {
        return Err(format!(
            "the engine's records '{}' grew past {} MiB",
            file.display(),
            MAX_RECORD_BYTES >> 20
        ));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "the engine's records '{}' are not UTF-8 (byte {})",
            file.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    Ok((!text.trim().is_empty()).then_some(text))
}

/// `text` in single quotes for `sh`, each `'` in it written `'\''`.
pub fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// `path` quoted for `sh` ([`quote`]).
pub fn quote_path(path: &Path) -> Result<String, CliError> {
    let text = path
        .to_str()
        .ok_or_else(|| CliError(format!("the file '{}' has a path that is not UTF-8", path.display())))?;
    Ok(quote(text))
}

/// A fresh directory under the system's temporary directory, removed when dropped (and by an
/// interruption, [`stop_on_interrupt`]).
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// A new directory whose name starts with `prefix`.
    pub fn new(prefix: &str) -> Result<Self, CliError> {
        let base = std::env::temp_dir();
        for attempt in 0u32..1000 {
            let path = base.join(format!("{prefix}-{}-{attempt}", std::process::id()));
            match std::fs::create_dir(&path) {
                Ok(()) => {
                    DIRECTORIES.lock().unwrap_or_else(PoisonError::into_inner).push(path.clone());
                    return Ok(Self(path));
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => {
                    return Err(CliError(format!("cannot create a directory in '{}': {e}", base.display())));
                }
            }
        }
        Err(CliError(format!("cannot create a fresh directory in '{}'", base.display())))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        // Nothing to do about a failure here: the command's result matters more than the leftovers.
        let _ = std::fs::remove_dir_all(&self.0);
        DIRECTORIES.lock().unwrap_or_else(PoisonError::into_inner).retain(|directory| *directory != self.0);
    }
}

/// An engine that answers one line a case and keeps running between them (`fuzz --persistent`):
/// started on the first request, and again after any failure (which stops it whole), so that a
/// crash or a hang costs one case, not the run.
pub struct LineEngine {
    command: String,
    running: Option<Persistent>,
    /// Engines started after the first: each follows a failure.
    pub restarts: u64,
    started: u64,
}

/// A running [`LineEngine`].
struct Persistent {
    runner: Runner,
    stdin: std::process::ChildStdin,
    /// The engine's output lines, each batch what one read brought in: an answer with a line
    /// after it in the same batch answered no request.
    lines: mpsc::Receiver<std::io::Result<Vec<String>>>,
    stderr: Collected,
}

impl LineEngine {
    /// An engine run by `sh -c command`, not started yet.
    pub const fn new(command: String) -> Self {
        Self { command, running: None, restarts: 0, started: 0 }
    }

    /// Writes `request` as a line and reads one line of answer within `timeout`. On a failure (it
    /// exits, stops reading, answers late or not in UTF-8) the engine is stopped whole, and the
    /// error says what happened and what it said on standard error.
    pub fn ask(&mut self, request: &str, timeout: Duration) -> Result<String, String> {
        if self.running.is_none() {
            self.running = Some(self.start()?);
        }
        let running = self.running.as_mut().expect("just started");
        let deadline = Instant::now() + timeout;
        // A line already there answers no request (the engine answered one twice): taken as this
        // request's answer, it would put every later answer out of step.
        let unasked =
            running.lines.try_recv().ok().and_then(Result::ok).and_then(|lines| lines.into_iter().next());
        let written = writeln!(running.stdin, "{request}").and_then(|()| running.stdin.flush());
        let failure = match written {
            _ if unasked.is_some() => format!(
                "the engine answered '{}' to no request (after its answer to the case before): it answers \
                 each case with one line, so every later answer would be taken as another case's",
                nullwindow::tree::text::excerpt(unasked.as_deref().unwrap_or_default())
            ),
            Err(e) => format!("the engine does not read its input ({e})"),
            Ok(()) => match running.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(Ok(lines)) if lines.len() == 1 => return Ok(lines.into_iter().next().unwrap_or_default()),
                Ok(Ok(lines)) => format!(
                    "the engine answered '{}' to no request (after its answer to this case): it answers each \
                     case with one line, so every later answer would be taken as another case's",
                    nullwindow::tree::text::excerpt(lines.get(1).map_or("", String::as_str))
                ),
                Ok(Err(e)) => format!("cannot read the engine's answer: {e}"),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    format!("the engine ran past --timeout {:.1} s", timeout.as_secs_f64())
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    let status = running.runner.wait_for(Some(Duration::from_millis(500))).ok().flatten();
                    status.map_or_else(
                        || "the engine closed its output".to_owned(),
                        |s| format!("the engine exited ({s})"),
                    )
                }
            },
        };
        let Some(mut stopped) = self.running.take() else { return Err(failure) };
        stopped.runner.stop();
        wait_if_interrupted();
        let stderr = stopped.stderr.finish(Instant::now() + Duration::from_millis(100));
        Err(format!("{failure}{}", said(&stderr)))
    }

    fn start(&mut self) -> Result<Persistent, String> {
        let mut runner = Runner::start(&self.command, Stdio::piped(), Stdio::piped(), Stdio::piped())
            .map_err(|e| format!("cannot run sh: {e}"))?;
        let stdin = runner.take_stdin().ok_or("the engine has no input")?;
        let stdout = runner.take_stdout().ok_or("the engine has no output")?;
        let stderr = Collected::start(runner.take_stderr(), true);
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = std::io::BufReader::new(stdout);
            while let Some(line) = runner::read_line(&mut reader).transpose() {
                // The whole lines the same read brought in go together: a second one answered
                // nothing, and is seen with the first however the threads are scheduled.
                let lines = line.and_then(|line| {
                    let mut lines = vec![line];
                    while reader.buffer().contains(&b'\n') {
                        match runner::read_line(&mut reader)? {
                            Some(line) => lines.push(line),
                            None => break,
                        }
                    }
                    Ok(lines)
                });
                let failed = lines.is_err();
                if sender.send(lines).is_err() || failed {
                    break;
                }
            }
        });
        self.started += 1;
        self.restarts = self.started - 1;
        Ok(Persistent { runner, stdin, lines, stderr })
    }
}

impl Drop for LineEngine {
    /// Says `quit`, gives the engine half a second to exit, and stops its group.
    fn drop(&mut self) {
        if let Some(mut running) = self.running.take() {
            let _ = writeln!(running.stdin, "quit").and_then(|()| running.stdin.flush());
            let _ = running.runner.wait_for(Some(Duration::from_millis(500)));
        }
    }
}

/// The CPU time, user and system, in seconds, this process has taken and its children have taken
/// (those that have exited and been waited for). `None` where the system does not tell.
pub fn cpu_times() -> Option<(f64, f64)> {
    use nix::sys::resource::{UsageWho, getrusage};
    let seconds = |usage: nix::sys::resource::Usage| {
        let time = |t: nix::sys::time::TimeVal| t.tv_sec() as f64 + t.tv_usec() as f64 / 1e6;
        time(usage.user_time()) + time(usage.system_time())
    };
    let own = getrusage(UsageWho::RUSAGE_SELF).ok()?;
    let children = getrusage(UsageWho::RUSAGE_CHILDREN).ok()?;
    Some((seconds(own), seconds(children)))
}

/// The most memory this process has held, in bytes (`VmHWM` in `/proc/self/status`: Linux); `None`
/// where the system does not tell.
pub fn peak_memory() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib << 10)
}
