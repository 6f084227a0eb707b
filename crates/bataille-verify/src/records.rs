//! The rows of the records file (`results/records.csv`) replayed one by one, and each cell of
//! the file against the best known game of its deck and method (the public table's, the C++
//! explorer's logged one, or the file's own when it is longer), rendered as the tables
//! `bataille verify` prints: plain text or Markdown.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use bataille_engine::Method;
use bataille_records::published::best_known;
use bataille_records::row::{RecordRow, check_row};

/// Replays every row (`(line, row)`, the line number in the file) and renders one line each,
/// the tally and the table of cells against the best known games; returns the text and the
/// number of rows that did not replay. `file` names the records file in the plain form.
pub fn replay_table(file: &str, rows: &[(usize, RecordRow)], markdown: bool) -> (String, usize) {
    let mut s = String::from("\n");
    if markdown {
        s.push_str("| records file line | deck | method | stated | replayed | status |\n");
        s.push_str("| --- | --- | --- | --- | --- | --- |\n");
    } else {
        let _ = writeln!(s, "records of {file} (every row replayed):");
    }
    let mut failed = 0;
    for (line, row) in rows {
        let deck = format!("C={} V={}", row.spec.colours(), row.spec.values());
        let stated = format!("{} tricks / {} cards", row.tricks, row.cards);
        let (status, replayed) = match check_row(row) {
            Ok(()) => ("ok", stated.clone()),
            Err(e) => {
                failed += 1;
                ("FAILED", e.to_string())
            }
        };
        let _ = if markdown {
            writeln!(s, "| {line} | {deck} | {} | {stated} | {replayed} | {status} |", row.methods)
        } else {
            writeln!(s, "{status:<16}  line {line}: {deck} {}, {stated}: {replayed}", row.methods)
        };
    }
    let _ = writeln!(
        s,
        "\n{} record rows replayed: {} ok, {failed} failed",
        rows.len(),
        rows.len() - failed
    );
    s.push_str(&best_known_table(rows, markdown));
    (s, failed)
}

/// Each cell of the records file (one method for both players, rows that replay) against the
/// best known game: empty when no cell has a best known game.
fn best_known_table(rows: &[(usize, RecordRow)], markdown: bool) -> String {
    let mut ours: BTreeMap<(usize, usize, String), (u64, String, Method)> = BTreeMap::new();
    for (_, row) in rows {
        let m = row.methods.first;
        if row.methods.second != m || check_row(row).is_err() {
            continue;
        }
        let key = (row.spec.colours(), row.spec.values(), m.name().to_string());
        let e = ours.entry(key).or_insert((0, String::new(), m));
        if row.tricks > e.0 {
            *e = (row.tricks, row.deal.compact(), m);
        }
    }
    let cells: Vec<_> = ours
        .iter()
        .filter_map(|((c, v, name), (tricks, deal, m))| {
            let (best, source, _) = best_known(*c, *v, *m, Some((*tricks, deal)))?;
            Some((format!("C={c} V={v}"), name.clone(), *tricks, best, source))
        })
        .collect();
    let mut s = String::new();
    if cells.is_empty() {
        return s;
    }
    s.push('\n');
    if markdown {
        s.push_str("| deck | method | ours (tricks) | best known | source |\n");
        s.push_str("| --- | --- | ---: | ---: | --- |\n");
    } else {
        s.push_str(
            "each cell against the best known game (public table, the C++ explorer's logs, or ours):\n",
        );
    }
    for (deck, method, tricks, best, source) in cells {
        let source = source.name();
        let _ = if markdown {
            writeln!(s, "| {deck} | {method} | {tricks} | {best} | {source} |")
        } else {
            let mark = if tricks >= best { "best known" } else { "below" };
            writeln!(s, "{mark:<16}  {deck} {method}: ours {tricks}, best known {best} ({source})")
        };
    }
    s
}
