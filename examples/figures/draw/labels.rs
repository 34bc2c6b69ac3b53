//! How the figures write values, windows and counts: as the book's text does, with ∞ for the crate's
//! `INFINITY`, so that a figure and the sentence beside it read alike.

use nullwindow::game::Player;
use nullwindow::tree::{NodeId, Tree};
use nullwindow::value::{INFINITY, Value};

/// A value as the book prints it: the crate's `INFINITY` as ∞.
pub(super) fn show(value: Value) -> String {
    match value {
        // DUAL* as Figure 11 writes it first tests at −∞, with the window (−∞ − 1, −∞).
        v if v == INFINITY + 1 => "∞+1".to_owned(),
        v if v == -INFINITY - 1 => "−∞−1".to_owned(),
        v if v >= INFINITY => "∞".to_owned(),
        v if v <= -INFINITY => "−∞".to_owned(),
        v if v == INFINITY - 1 => "∞−1".to_owned(),
        v if v == -INFINITY + 1 => "−∞+1".to_owned(),
        // Bisection's first midpoints: half of infinity, give or take a little.
        v if (v - INFINITY / 2).abs() <= 1000 => format!("∞/2{}", signed_offset(v - INFINITY / 2)),
        v if (v + INFINITY / 2).abs() <= 1000 => format!("−∞/2{}", signed_offset(v + INFINITY / 2)),
        v if v < 0 => format!("−{}", -v),
        v => v.to_string(),
    }
}

fn signed_offset(offset: Value) -> String {
    match offset {
        0 => String::new(),
        o if o < 0 => format!("−{}", -o),
        o => format!("+{o}"),
    }
}

pub(super) fn window(alpha: Value, beta: Value) -> String {
    format!("({}, {})", show(alpha), show(beta))
}

pub(super) fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// A path as `nullwindow trace` prints it, in code: `[1,0]`.
pub(super) fn path(path: &[u32]) -> String {
    let indices: Vec<String> = path.iter().map(ToString::to_string).collect();
    format!("`[{}]`", indices.join(","))
}

/// Who moves at `node`, or that it is a leaf.
pub(super) fn mover(tree: &Tree, node: NodeId) -> &'static str {
    if tree.is_leaf(node) {
        "leaf"
    } else {
        match tree.player(node) {
            Player::Max => "MAX",
            Player::Min => "MIN",
        }
    }
}
