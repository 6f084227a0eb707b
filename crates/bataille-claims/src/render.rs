//! The one printer of claims: a plain table, Markdown or CSV.

use std::fmt::Write as _;

use crate::{Claim, Status};

/// How [`render`] prints a list of claims.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A plain table for the terminal: one line per claim (status, identifier, published and
    /// computed values) with the claim and its source under it, and the evidence of every
    /// claim that is not [`Status::Ok`] (of every claim with `details`).
    Table {
        /// Print the evidence of the claims that are ok too.
        details: bool,
    },
    /// A Markdown table: claim (with its identifier), source, published, computed, status.
    Markdown,
    /// CSV with a header line: name, source, status, claim, published, computed, evidence.
    /// Fields are quoted when they hold a comma, a double quote or a line break (quotes
    /// doubled), as RFC 4180 and the `csv` crate's default writer do.
    Csv,
}

/// The widest the published column of [`Format::Table`] is padded to; a longer value pushes
/// the computed one to the right on its line only.
const PUBLISHED_WIDTH: usize = 40;

/// The width of the status column of [`Format::Table`] (the longest label and some room).
const STATUS_WIDTH: usize = 16;

/// Renders `claims` in `format`, every line ended by a newline. The tally is not included (see
/// [`crate::Tally::line`]).
pub fn render(claims: &[Claim], format: Format) -> String {
    match format {
        Format::Table { details } => table(claims, details),
        Format::Markdown => markdown(claims),
        Format::Csv => csv(claims),
    }
}

fn table(claims: &[Claim], details: bool) -> String {
    // Each column as wide as its header at least.
    let wn = claims.iter().map(|c| c.id.chars().count()).max().unwrap_or(0).max("entry".len());
    let wp = claims.iter().map(|c| c.published.chars().count()).max().unwrap_or(0);
    let wp = wp.min(PUBLISHED_WIDTH).max("published".len());
    let ws = STATUS_WIDTH;
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(out, "{:<ws$}  {:<wn$}  {:<wp$}  computed", "status", "entry", "published");
    for c in claims {
        let _ = writeln!(
            out,
            "{:<ws$}  {:<wn$}  {:<wp$}  {}",
            c.status.label(),
            c.id,
            c.published,
            c.computed
        );
        let _ = writeln!(out, "{:<ws$}  claim: {} ({})", "", c.claim, c.source);
        if !c.evidence.is_empty() && (details || c.status != Status::Ok) {
            let mut lines = c.evidence.lines();
            let first = lines.next().unwrap_or_default();
            let _ = writeln!(out, "{:<ws$}  evidence: {first}", "");
            for line in lines {
                let _ = writeln!(out, "{:<ws$}            {line}", "");
            }
        }
    }
    out
}

fn markdown(claims: &[Claim]) -> String {
    // A cell holds no column separator and no line break.
    let cell = |t: &str| t.replace('|', "\\|").replace('\n', " ");
    let mut out = String::new();
    out.push_str("| claim | source | published | computed | status |\n");
    out.push_str("| --- | --- | --- | --- | --- |\n");
    for c in claims {
        let _ = writeln!(
            out,
            "| `{}`: {} | {} | {} | {} | {} |",
            c.id,
            cell(&c.claim),
            cell(c.source),
            cell(&c.published),
            cell(&c.computed),
            c.status.label()
        );
    }
    out
}

fn csv(claims: &[Claim]) -> String {
    let mut out = String::new();
    let mut record = |fields: [&str; 7]| {
        for (i, f) in fields.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            csv_field(&mut out, f);
        }
        out.push('\n');
    };
    record(["name", "source", "status", "claim", "published", "computed", "evidence"]);
    for c in claims {
        record([
            c.id,
            c.source,
            c.status.label(),
            &c.claim,
            &c.published,
            &c.computed,
            &c.evidence,
        ]);
    }
    out
}

/// Appends `field` to `out`, quoted when it holds a comma, a double quote or a line break.
fn csv_field(out: &mut String, field: &str) {
    if field.contains([',', '"', '\n', '\r']) {
        out.push('"');
        out.push_str(&field.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(field);
    }
}
