//! The progress bar of the commands that run for a while (`compare`, `bench`): on standard error, and
//! only on a terminal, so that redirected output stays clean.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

/// A bar over `total` steps of the named `unit` ("searches", "positions"), headed by `label` (a file
/// name, or nothing); hidden when standard error is not a terminal.
pub fn bar(total: u64, unit: &str, label: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    let template = format!("{{msg}} {{bar:40}} {{pos}}/{{len}} {unit}, {{elapsed}} (eta {{eta}})");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar.set_message(label.to_owned());
    bar
}
