//! Running a user's shell command on a file, as `shrink` and `fuzz` do: with a timeout that stops
//! every process it started, its output kept within bounds, and a temporary directory that an
//! interruption removes.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::time::{Duration, Instant};

use nullwindow::tree::text;

use crate::CliError;

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
    /// Standard output, up to [`OUTPUT_KEPT`] bytes (empty unless asked for).
    pub stdout: Vec<u8>,
    /// Standard error, up to [`OUTPUT_KEPT`] bytes.
    pub stderr: Vec<u8>,
}

impl Run {
    /// The first line of standard error, for a message: ` (it said: …)`, or nothing.
    pub fn said(&self) -> String {
        String::from_utf8_lossy(&self.stderr)
            .lines()
            .find(|line| !line.trim().is_empty())
            .map(|line| format!(" (it said: {})", text::excerpt(line)))
            .unwrap_or_default()
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

/// The most of a command's output kept; the rest is read and dropped.
pub const OUTPUT_KEPT: usize = 1 << 16;

/// The process group of the run under way, if any: what an interruption stops.
#[derive(Clone, Default)]
pub struct Running(Arc<Mutex<Option<u32>>>);

impl Running {
    fn set(&self, group: Option<u32>) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = group;
    }

    fn get(&self) -> Option<u32> {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// On Ctrl-C (or SIGTERM), stops the run under way with every process it started, removes the
/// temporary directory, and ends the command with the status of an interruption.
pub fn interrupt_cleans_up(running: &Running, directory: &Path) {
    let (running, directory) = (running.clone(), directory.to_owned());
    // A second handler cannot be set; then interruption only leaves the directory behind.
    let _ = ctrlc::set_handler(move || {
        if let Some(group) = running.get() {
            stop_group(group);
        }
        let _ = std::fs::remove_dir_all(&directory);
        eprintln!("interrupted: the temporary directory is removed");
        std::process::exit(130);
    });
}

/// Runs `command` with `sh -c` once, standard input closed, stopping it (and every process it
/// started) after `timeout`; keeps standard output when `keep_stdout`.
pub fn run(
    command: &str,
    timeout: Option<Duration>,
    keep_stdout: bool,
    running: &Running,
) -> Result<Run, CliError> {
    let mut shell = Command::new("sh");
    shell
        .args(["-c", command])
        .stdin(Stdio::null())
        .stdout(if keep_stdout { Stdio::piped() } else { Stdio::null() })
        .stderr(Stdio::piped());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut shell, 0);
    let child = shell.spawn().map_err(|e| CliError(format!("cannot run sh: {e}")))?;
    let group = child.id();
    running.set(Some(group));
    let (finished, done) = mpsc::channel::<()>();
    let read_bounded = |stream: Option<Box<dyn Read + Send>>| {
        let finished = finished.clone();
        std::thread::spawn(move || {
            let mut kept = Vec::new();
            if let Some(mut stream) = stream {
                let _ = (&mut stream).take(OUTPUT_KEPT as u64).read_to_end(&mut kept);
                let _ = std::io::copy(&mut stream, &mut std::io::sink());
            }
            let _ = finished.send(());
            kept
        })
    };
    let mut child = child;
    let stdout = read_bounded(child.stdout.take().map(|s| Box::new(s) as Box<dyn Read + Send>));
    let stderr = read_bounded(child.stderr.take().map(|s| Box::new(s) as Box<dyn Read + Send>));
    drop(finished);
    let status = wait(child, timeout);
    // A command that left something running in the background, holding the pipes open, loses it
    // too; one whose pipes closed with it needs no stopping (which costs a process).
    let grace = Instant::now() + Duration::from_millis(100);
    let closed = (0..2).all(|_| done.recv_timeout(grace.saturating_duration_since(Instant::now())).is_ok());
    if !closed || !matches!(status, Ok(Some(_))) {
        stop_group(group);
    }
    running.set(None);
    let (stdout, stderr) = (stdout.join().unwrap_or_default(), stderr.join().unwrap_or_default());
    let ended = match status? {
        None => Ended::TimedOut,
        Some(status) => status.code().map_or_else(|| Ended::Killed(signal(&status)), Ended::Exited),
    };
    Ok(Run { ended, stdout, stderr })
}

/// Waits for `child` to exit, for at most `timeout`: its status, or `None` when the time ran out
/// (the child is then left to [`stop_group`], and reaped by its waiting thread).
fn wait(mut child: Child, timeout: Option<Duration>) -> Result<Option<ExitStatus>, CliError> {
    let Some(timeout) = timeout else {
        return child.wait().map(Some).map_err(|e| CliError(format!("cannot wait for the command: {e}")));
    };
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(child.wait());
    });
    match receiver.recv_timeout(timeout) {
        Ok(status) => status.map(Some).map_err(|e| CliError(format!("cannot wait for the command: {e}"))),
        Err(_) => Ok(None),
    }
}

/// Stops the process group `group` (the shell and all it started), if it still runs.
#[cfg(unix)]
fn stop_group(group: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{group}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

#[cfg(not(unix))]
fn stop_group(_group: u32) {}

#[cfg(unix)]
fn signal(status: &ExitStatus) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    status.signal()
}

#[cfg(not(unix))]
fn signal(_status: &ExitStatus) -> Option<i32> {
    None
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

/// A fresh directory under the system's temporary directory, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// A new directory whose name starts with `prefix`.
    pub fn new(prefix: &str) -> Result<Self, CliError> {
        let base = std::env::temp_dir();
        for attempt in 0u32..1000 {
            let path = base.join(format!("{prefix}-{}-{attempt}", std::process::id()));
            match std::fs::create_dir(&path) {
                Ok(()) => return Ok(Self(path)),
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
    }
}
