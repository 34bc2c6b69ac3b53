//! The switches that turn the optimized drivers' move-ordering heuristics off, shared by `solve`,
//! `trace` and `compare`: the book draws its figures of the teaching tree without killers and history,
//! and these let a reader reproduce the figures' numbers.

use clap::Args;
use nullwindow::driver::SearchParams;

/// Move-ordering heuristics of the optimized drivers that can be turned off.
#[derive(Args, Clone, Copy, Debug, Default)]
pub struct OrderingArgs {
    /// Turn off the killer-move heuristic of the optimized drivers (a move that cut off at a ply is
    /// tried early at that ply's other nodes). The book's figures of the teaching tree are drawn
    /// without it.
    #[arg(long)]
    no_killers: bool,
    /// Turn off the history heuristic of the optimized drivers (moves that often cut off are tried
    /// first). The book's figures of the teaching tree are drawn without it.
    #[arg(long)]
    no_history: bool,
}

impl OrderingArgs {
    /// Turns off in `params` what the switches name, and nothing else.
    pub fn apply(self, params: &mut SearchParams) {
        if self.no_killers {
            params.killers = false;
        }
        if self.no_history {
            params.history = false;
        }
    }
}
