//! The progress of the commands that run for a while (`certify`, `fuzz`, `audit`, `bench`,
//! `compare`), on standard error so that redirected output stays clean: a bar on a terminal, and a
//! plain line every [`EVERY`] otherwise (a log, a CI job), so that a long run is never silent
//! (`NULLWINDOW_PROGRESS_SECONDS` sets another period); nothing at all with `--quiet`.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::output::errln;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How often a line is printed off a terminal.
pub const EVERY: Duration = Duration::from_secs(10);

/// Set by `--quiet`: no progress at all.
static QUIET: AtomicBool = AtomicBool::new(false);

/// Turns progress off (`--quiet`) or on for the rest of the run.
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether `--quiet` was given: no progress, and no summary of what a run went through.
pub fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// A bar over `total` steps of the named `unit` ("searches", "positions"), headed by `label` (a file
/// name, a command's name, or nothing). On a terminal it draws itself; otherwise a line such as
/// `fuzz: 120/1000 cases, 10 s` goes to standard error every [`EVERY`] while the bar lives.
pub fn bar(total: u64, unit: &str, label: &str) -> ProgressBar {
    if QUIET.load(Ordering::Relaxed) {
        return ProgressBar::hidden();
    }
    if !std::io::stderr().is_terminal() {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
        bar.set_message(label.to_owned());
        report_off_a_terminal(&bar, unit.to_owned());
        return bar;
    }
    let bar = ProgressBar::new(total);
    let template = format!("{{msg}} {{bar:40}} {{pos}}/{{len}} {unit}, {{elapsed}} (eta {{eta}})");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar.set_message(label.to_owned());
    bar
}

/// Prints the bar's state every [`EVERY`] (or `NULLWINDOW_PROGRESS_SECONDS`) until it is finished
/// or dropped.
fn report_off_a_terminal(bar: &ProgressBar, unit: String) {
    let weak = bar.downgrade();
    let start = Instant::now();
    let every = std::env::var("NULLWINDOW_PROGRESS_SECONDS")
        .ok()
        .and_then(|seconds| seconds.parse::<f64>().ok())
        .filter(|seconds| seconds.is_finite() && *seconds > 0.0)
        .map_or(EVERY, Duration::from_secs_f64);
    std::thread::spawn(move || {
        let mut next = start + every;
        loop {
            std::thread::sleep(Duration::from_millis(100).min(every));
            let Some(bar) = weak.upgrade() else { return };
            if bar.is_finished() {
                return;
            }
            if Instant::now() < next {
                continue;
            }
            next += every;
            let message = bar.message();
            let of = bar
                .length()
                .filter(|&length| length > 0)
                .map_or_else(String::new, |length| format!("/{length}"));
            errln!(
                "{}{}{of} {unit}, {} s",
                if message.is_empty() { String::new() } else { format!("{message}: ") },
                bar.position(),
                start.elapsed().as_secs()
            );
        }
    });
}
