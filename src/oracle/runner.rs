//! The one way the oracle runs another program: `sh -c CMD` as the leader of a process group of its
//! own (std's `process_group(0)`), so that stopping it (`killpg`) stops everything it started in
//! that group. A [`Runner`] stops its group when it is dropped, whichever way its owner
//! leaves: an answer, an error, a timeout, a panic. [`stop_all`] stops every group still running,
//! for an interruption (the command line calls it on Ctrl-C and SIGTERM), and [`interrupted`] tells
//! the code that sees a run die of it that the run was interrupted, not broken.
//!
//! A program that leaves a process of its own session behind (`setsid`, a daemon) has left the
//! group. On Linux a program that calls [`adopt_orphans`] (the command line does) becomes the
//! subreaper of its descendants: such a process, once its parent exits, comes back to it rather
//! than to init, and is stopped with the rest when no group runs any more, or on an interruption.
//! Elsewhere it may outlive the command.
//!
//! The engines the [line protocol](super::protocol) serves, and the commands `fuzz` and `shrink`
//! run, all run through it.

use std::collections::HashSet;
use std::io::{self, BufRead, Read};
use std::process::{ChildStderr, ChildStdin, ChildStdout, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use std::os::unix::process::CommandExt as _;
use std::process::{Child, Command};

/// The groups started and not yet stopped.
static RUNNING: Mutex<Option<HashSet<u32>>> = Mutex::new(None);

/// Set once an interruption stops every group.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Set by [`adopt_orphans`]: every child of this process that no [`Runner`] runs is an orphan.
static ADOPTING: AtomicBool = AtomicBool::new(false);

/// Makes this process the subreaper of its descendants, on Linux: a process that an engine leaves
/// running outside its group (in a session of its own) comes back to this process when its parent
/// exits, and is stopped as soon as no [`Runner`] runs (and on [`stop_all`]). Call it only in a
/// program whose every child is started by a [`Runner`]: any other child would be stopped too.
/// Whether it could be done (never, off Linux).
pub fn adopt_orphans() -> bool {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    if nix::sys::prctl::set_child_subreaper(true).is_ok() {
        ADOPTING.store(true, Ordering::SeqCst);
        return true;
    }
    false
}

/// The children of this process that no [`Runner`] runs: orphaned descendants of the programs it
/// ran, come back to it ([`adopt_orphans`]).
fn orphans() -> Vec<i32> {
    let ours = std::process::id().to_string();
    let runners = running().clone().unwrap_or_default();
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| !runners.contains(pid))
        .filter(|pid| {
            // The fields after the command's name, which is in parentheses and may hold anything:
            // state, then the parent's id.
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
                stat.rsplit_once(')').and_then(|(_, fields)| fields.split_whitespace().nth(1)) == Some(&ours)
            })
        })
        .filter_map(|pid| i32::try_from(pid).ok())
        .collect()
}

/// Stops the orphans [`adopt_orphans`] brings back, and those theirs bring back as they are
/// stopped (each with its group, which a session leader leads); with `reap`, waits for each, so
/// that none is left a zombie.
fn stop_orphans(reap: bool) {
    if !ADOPTING.load(Ordering::SeqCst) {
        return;
    }
    // Each round stops one generation; a fork bomb is not followed for ever.
    for _ in 0..64 {
        let orphans = orphans();
        if orphans.is_empty() {
            return;
        }
        for &orphan in &orphans {
            let _ = killpg(Pid::from_raw(orphan), Signal::SIGKILL);
            let _ = nix::sys::signal::kill(Pid::from_raw(orphan), Signal::SIGKILL);
        }
        for &orphan in &orphans {
            if reap {
                let _ = nix::sys::wait::waitpid(Pid::from_raw(orphan), None);
            }
        }
        if !reap {
            return;
        }
    }
}

fn running() -> std::sync::MutexGuard<'static, Option<HashSet<u32>>> {
    RUNNING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A program run by `sh -c`, leading a process group of its own. See the
/// [module documentation](self).
pub struct Runner {
    child: Child,
    group: u32,
    status: Option<ExitStatus>,
    stopped: bool,
}

impl Runner {
    /// Starts `command` with `sh -c`, its standard streams as given.
    ///
    /// # Errors
    /// `sh` cannot be started.
    pub fn start(command: &str, stdin: Stdio, stdout: Stdio, stderr: Stdio) -> io::Result<Self> {
        let mut shell = Command::new("sh");
        shell.args(["-c", command]).stdin(stdin).stdout(stdout).stderr(stderr).process_group(0);
        // Registered before it starts, so that an interruption in between finds it; and none is
        // started once an interruption has begun (it marks the process first, then takes the
        // list), so that nothing it started outlives it.
        let mut groups = running();
        if interrupted() {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "interrupted"));
        }
        let child = shell.spawn()?;
        let group = child.id();
        groups.get_or_insert_with(HashSet::new).insert(group);
        drop(groups);
        Ok(Self { child, group, status: None, stopped: false })
    }

    /// The process group's id (the shell's process id).
    #[must_use]
    pub const fn group(&self) -> u32 {
        self.group
    }

    /// Its standard input, if piped and not taken yet.
    pub fn take_stdin(&mut self) -> Option<ChildStdin> {
        self.child.stdin.take()
    }

    /// Its standard output, if piped and not taken yet.
    pub fn take_stdout(&mut self) -> Option<ChildStdout> {
        self.child.stdout.take()
    }

    /// Its standard error, if piped and not taken yet.
    pub fn take_stderr(&mut self) -> Option<ChildStderr> {
        self.child.stderr.take()
    }

    /// The shell's exit status, if it has exited (what it left running in its group may still
    /// run, until [`Runner::stop`]).
    ///
    /// # Errors
    /// The status cannot be read.
    pub fn try_wait(&mut self) -> io::Result<Option<ExitStatus>> {
        if self.status.is_none() {
            self.status = self.child.try_wait()?;
        }
        Ok(self.status)
    }

    /// Waits for the shell to exit for at most `limit` (`None`: as long as it takes): its status,
    /// or `None` if it is still running.
    ///
    /// # Errors
    /// The status cannot be read.
    pub fn wait_for(&mut self, limit: Option<Duration>) -> io::Result<Option<ExitStatus>> {
        let deadline = limit.map(|limit| Instant::now() + limit);
        let mut pause = Duration::from_micros(200);
        loop {
            if let Some(status) = self.try_wait()? {
                return Ok(Some(status));
            }
            let now = Instant::now();
            if deadline.is_some_and(|deadline| now >= deadline) {
                return Ok(None);
            }
            let left = deadline.map_or(pause, |deadline| deadline - now);
            std::thread::sleep(pause.min(left));
            pause = (pause * 2).min(Duration::from_millis(20));
        }
    }

    /// The CPU time, user and system, the processes of the group have taken so far, with what the
    /// children they waited for took: read from `/proc` (Linux), `None` where it cannot be. A
    /// process that left the group is not counted.
    #[must_use]
    pub fn cpu_time(&self) -> Option<Duration> {
        // The kernel counts in USER_HZ ticks, which Linux fixes at 100 a second for user space.
        const TICKS_PER_SECOND: u64 = 100;
        let mut ticks = 0u64;
        let mut found = false;
        for entry in std::fs::read_dir("/proc").ok()?.flatten() {
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
            // The fields after the command's name, which is in parentheses and may hold anything.
            let Some((_, fields)) = stat.rsplit_once(')') else { continue };
            let fields: Vec<&str> = fields.split_whitespace().collect();
            // state ppid pgrp session … utime stime cutime cstime: fields 3 to 17 of the line.
            let number = |at: usize| fields.get(at).and_then(|field| field.parse::<u64>().ok());
            if number(2) != Some(u64::from(self.group)) {
                continue;
            }
            found = true;
            ticks += [11, 12, 13, 14].iter().filter_map(|&at| number(at)).sum::<u64>();
        }
        found.then(|| Duration::from_millis(ticks * 1000 / TICKS_PER_SECOND))
    }

    /// Stops the whole group (SIGKILL), if it still runs, and reaps the shell.
    pub fn stop(&mut self) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        // The group may be gone already: nothing to stop then.
        if let Ok(group) = i32::try_from(self.group) {
            let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
        }
        if self.status.is_none() {
            self.status = self.child.wait().ok();
        }
        let others = running().as_mut().is_some_and(|groups| {
            groups.remove(&self.group);
            !groups.is_empty()
        });
        // With no program running, every child left is an orphan of one that ran.
        if !others {
            stop_orphans(true);
        }
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Stops every group a [`Runner`] started and did not stop yet, and marks the process interrupted
/// ([`interrupted`]). For a signal handler: it only signals.
pub fn stop_all() {
    INTERRUPTED.store(true, Ordering::SeqCst);
    let groups: Vec<u32> = running().iter().flatten().copied().collect();
    for group in groups {
        if let Ok(group) = i32::try_from(group) {
            let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
        }
    }
    stop_orphans(false);
}

/// Whether [`stop_all`] was called: a run that died now was interrupted, and is no failure of the
/// program's.
#[must_use]
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// The longest line read from a program: a line that never ends is an error, not all of memory.
pub const MAX_ANSWER_BYTES: usize = 64 << 20;

/// One line of a program's output, without its line ending: `None` at the end of the output; an
/// error for a line longer than [`MAX_ANSWER_BYTES`] or not UTF-8.
pub fn read_line(reader: &mut impl BufRead) -> std::io::Result<Option<String>> {
    let mut line = Vec::new();
    let limit = u64::try_from(MAX_ANSWER_BYTES).unwrap_or(u64::MAX) + 1;
    if reader.take(limit).read_until(b'\n', &mut line)? == 0 {
        return Ok(None);
    }
    if line.last() == Some(&b'\n') {
        line.pop();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
    } else if line.len() > MAX_ANSWER_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("the line is longer than {} MiB, the most an answer may be", MAX_ANSWER_BYTES >> 20),
        ));
    }
    String::from_utf8(line)
        .map(Some)
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "the line is not UTF-8"))
}
