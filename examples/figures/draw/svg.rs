//! A small SVG writer: the few elements the figures use, with the book's fonts and colours.
//!
//! Numbers are written with one decimal at most, so the same drawing gives the same bytes on every
//! platform and the book's test can compare a figure as text.

use std::fmt::Write as _;

pub(super) const FONT: f64 = 13.0;
pub(super) const SMALL: f64 = 12.0;
pub(super) const INK: &str = "#222222";
pub(super) const FAINT: &str = "#b8b8b8";
pub(super) const EVALUATED: &str = "#2b6cb0";
pub(super) const ANSWERED: &str = "#f6ad55";

/// Fixed formatting: one decimal at most, so the same drawing gives the same bytes everywhere.
fn num(x: f64) -> String {
    let text = format!("{x:.1}");
    let text = text.strip_suffix(".0").unwrap_or(&text).to_owned();
    if text == "-0" { "0".to_owned() } else { text }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Roughly how wide `text` is at `size` (sans-serif digits and punctuation).
pub(super) fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.58
}

#[derive(Clone, Copy)]
pub(super) enum Anchor {
    Start,
    Middle,
    End,
}

impl Anchor {
    const fn name(self) -> &'static str {
        match self {
            Self::Start => "start",
            Self::Middle => "middle",
            Self::End => "end",
        }
    }
}

/// The rectangle a chart is drawn in.
pub(super) struct Plot {
    pub(super) left: f64,
    pub(super) top: f64,
    pub(super) width: f64,
    pub(super) height: f64,
}

pub(super) struct Svg {
    out: String,
}

impl Svg {
    pub(super) fn new(width: f64, height: f64, title: &str) -> Self {
        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="{f}">"#,
            w = num(width),
            h = num(height),
            f = num(FONT)
        );
        let _ = writeln!(out, "<title>{}</title>", escape(title));
        let _ = writeln!(
            out,
            r#"<rect x="0" y="0" width="{}" height="{}" fill="white"/>"#,
            num(width),
            num(height)
        );
        Self { out }
    }

    pub(super) fn line(
        &mut self,
        (x1, y1): (f64, f64),
        (x2, y2): (f64, f64),
        stroke: &str,
        width: f64,
        dash: bool,
    ) {
        let dash = if dash { r#" stroke-dasharray="4 3""# } else { "" };
        let _ = writeln!(
            self.out,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{stroke}" stroke-width="{}"{dash}/>"#,
            num(x1),
            num(y1),
            num(x2),
            num(y2),
            num(width)
        );
    }

    pub(super) fn circle(&mut self, (x, y): (f64, f64), r: f64, fill: &str, stroke: &str, dash: bool) {
        let dash = if dash { r#" stroke-dasharray="3 2""# } else { "" };
        let _ = writeln!(
            self.out,
            r#"<circle cx="{}" cy="{}" r="{}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"{dash}/>"#,
            num(x),
            num(y),
            num(r)
        );
    }

    pub(super) fn rect(&mut self, (x, y): (f64, f64), (w, h): (f64, f64), fill: &str, stroke: &str) {
        let _ = writeln!(
            self.out,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{fill}" stroke="{stroke}"/>"#,
            num(x),
            num(y),
            num(w),
            num(h)
        );
    }

    pub(super) fn text(&mut self, (x, y): (f64, f64), size: f64, anchor: Anchor, fill: &str, content: &str) {
        let _ = writeln!(
            self.out,
            r#"<text x="{}" y="{}" font-size="{}" text-anchor="{}" fill="{fill}">{}</text>"#,
            num(x),
            num(y),
            num(size),
            anchor.name(),
            escape(content)
        );
    }

    /// Text read from bottom to top, ending at `(x, y)`.
    pub(super) fn text_upward(&mut self, (x, y): (f64, f64), size: f64, fill: &str, content: &str) {
        let _ = writeln!(
            self.out,
            r#"<text x="{x}" y="{y}" font-size="{}" text-anchor="end" fill="{fill}" transform="rotate(-90 {x} {y})">{}</text>"#,
            num(size),
            escape(content),
            x = num(x),
            y = num(y),
        );
    }

    pub(super) fn polyline(&mut self, points: &[(f64, f64)], stroke: &str, width: f64, dash: Option<&str>) {
        let points: Vec<String> = points.iter().map(|&(x, y)| format!("{},{}", num(x), num(y))).collect();
        let dash = dash.map(|d| format!(r#" stroke-dasharray="{d}""#)).unwrap_or_default();
        let _ = writeln!(
            self.out,
            r#"<polyline points="{}" fill="none" stroke="{stroke}" stroke-width="{}"{dash}/>"#,
            points.join(" "),
            num(width)
        );
    }

    pub(super) fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        self.out
    }
}
