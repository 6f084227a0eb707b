//! The one public record table: the longest finished games published for each deck, with
//! their deals, and the longer games of the public C++ explorer's run logs.
//!
//! - [`PUBLIC_RECORDS`]: the record table of the authors' repository
//!   (github.com/cristal-smac/bataille, 2025) with the deal of every record as the authors'
//!   record files (`records/`) give it: tricks, cards, winner.
//! - [`EXPLORER_LOGS`]: the longer optimized games in the run logs of the C++ explorer that
//!   found most of the table's records (github.com/legrosbuffle/bataille_cpp, `results/`): the
//!   logs give tricks only, and how many random deals the run had played.
//!
//! `bataille verify` replays every deal here, `bataille experiment` sets its records table
//! against it, and [`best_known`] names the best known game of a cell and its source.

use bataille_engine::Method;

/// A record of the public table, with its deal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PublicRecord {
    /// The id of its `verify` entry: `record-c4-v13-natural`, `record-c1-v16`.
    pub id: &'static str,
    /// C.
    pub colours: usize,
    /// V.
    pub values: usize,
    /// Both players' method.
    pub method: Method,
    /// Tricks, as published.
    pub tricks: u64,
    /// Cards each player turned, as the record file gives them.
    pub cards: u64,
    /// Who won, as the record file gives it: `first wins` or `second wins`.
    pub winner: &'static str,
    /// The deal, in the article's notation.
    pub deal: &'static str,
    /// What else was published for the same cell (the article's own figure, a later search).
    pub note: &'static str,
}

/// A game of the C++ explorer's run logs longer than the table's record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoggedGame {
    /// The id of its `verify` entry: `log-c4-v6-optimized`.
    pub id: &'static str,
    /// C.
    pub colours: usize,
    /// V.
    pub values: usize,
    /// Both players' method.
    pub method: Method,
    /// Tricks, as logged.
    pub tricks: u64,
    /// Random deals the run had played when it logged the game.
    pub deals: u64,
    /// The deal.
    pub deal: &'static str,
}

#[allow(clippy::too_many_arguments)] // one row of the table, typed as printed
const fn record(
    id: &'static str,
    colours: usize,
    values: usize,
    method: Method,
    tricks: u64,
    cards: u64,
    winner: &'static str,
    deal: &'static str,
    note: &'static str,
) -> PublicRecord {
    PublicRecord { id, colours, values, method, tricks, cards, winner, deal, note }
}

const fn logged(
    id: &'static str,
    colours: usize,
    values: usize,
    method: Method,
    tricks: u64,
    deals: u64,
    deal: &'static str,
) -> LoggedGame {
    LoggedGame { id, colours, values, method, tricks, deals, deal }
}

/// The public record table (github.com/cristal-smac/bataille, 2025), longest finished games,
/// with the deals of the authors' record files.
#[rustfmt::skip]
pub const PUBLIC_RECORDS: &[PublicRecord] = &[
    record("record-c4-v5-natural", 4, 5, Method::Natural, 453, 562, "first wins", "[1,1,1,2,1,5,3,4,4,5] / [2,3,5,3,4,5,2,3,4,2]", ""),
    record("record-c4-v6-natural", 4, 6, Method::Natural, 994, 1190, "first wins", "[3,4,5,4,1,1,6,2,1,1,2,3] / [5,4,4,5,6,6,2,2,6,3,5,3]", ""),
    record("record-c4-v7-natural", 4, 7, Method::Natural, 1611, 1880, "first wins", "[1,1,1,1,2,2,2,2,3,6,6,3,6,7] / [4,3,5,4,5,4,5,6,3,7,7,5,4,7]", ""),
    record("record-c4-v8-natural", 4, 8, Method::Natural, 2308, 2602, "second wins", "[5,5,1,4,6,1,8,3,6,5,3,7,8,2,2,8] / [7,8,7,6,1,3,4,7,5,1,4,3,2,6,4,2]", "article: 1999"),
    record("record-c4-v9-natural", 4, 9, Method::Natural, 2708, 3024, "first wins", "[3,3,1,3,7,9,1,2,6,3,4,4,6,7,2,2,9,5] / [5,8,7,4,8,5,1,5,8,1,7,2,4,9,8,6,6,9]", ""),
    record("record-c4-v10-natural", 4, 10, Method::Natural, 3745, 4120, "first wins", "[7,9,2,1,8,4,3,9,7,9,1,6,4,5,10,5,4,7,6,3] / [2,9,10,2,8,1,10,5,7,6,2,3,8,5,8,1,3,6,4,10]", ""),
    record("record-c4-v11-natural", 4, 11, Method::Natural, 4211, 4582, "second wins", "[10,5,11,5,2,3,4,6,10,10,8,8,9,4,5,1,10,5,11,7,8,8] / [4,9,1,7,1,6,2,3,6,3,3,9,2,7,9,2,7,1,11,11,4,6]", ""),
    record("record-c4-v12-natural", 4, 12, Method::Natural, 4913, 5346, "first wins", "[8,11,5,8,7,3,11,4,6,7,6,2,12,3,1,5,10,12,2,5,11,6,2,5] / [10,7,9,8,6,3,9,12,9,2,9,4,11,1,1,1,4,4,7,12,8,10,3,10]", ""),
    record("record-c4-v13-natural", 4, 13, Method::Natural, 5610, 6038, "first wins", "[7,4,10,12,11,9,8,1,2,6,13,2,6,2,11,6,1,13,1,11,5,12,5,12,4,7] / [9,9,10,7,8,4,9,6,10,10,3,3,5,3,8,13,3,11,7,2,4,12,1,8,5,13]", "article: 5506"),
    record("record-c4-v5-optimized", 4, 5, Method::Optimized, 311, 382, "first wins", "[2,3,5,3,1,4,4,2,4,5] / [5,3,1,1,2,4,2,3,5,1]", "a later exhaustive search reports 316"),
    record("record-c4-v6-optimized", 4, 6, Method::Optimized, 620, 736, "first wins", "[5,3,2,2,6,2,4,5,3,6,6,3] / [5,6,4,4,3,1,5,2,1,1,1,4]", ""),
    record("record-c4-v7-optimized", 4, 7, Method::Optimized, 2427, 2690, "second wins", "[1,2,2,2,6,5,3,1,1,3,1,4,7,7] / [7,4,5,5,4,4,3,5,6,2,7,6,6,3]", ""),
    record("record-c4-v8-optimized", 4, 8, Method::Optimized, 1645, 1858, "second wins", "[5,3,8,6,8,6,1,3,2,1,8,7,7,1,2,1] / [3,5,2,7,6,4,6,3,4,8,5,7,4,4,5,2]", ""),
    record("record-c4-v9-optimized", 4, 9, Method::Optimized, 1936, 2154, "second wins", "[1,8,6,5,6,8,2,9,2,4,7,7,7,2,5,1,1,5] / [9,8,6,6,4,3,3,5,2,7,8,3,9,3,9,4,4,1]", ""),
    record("record-c4-v10-optimized", 4, 10, Method::Optimized, 2628, 2896, "second wins", "[8,9,3,9,7,2,4,10,8,8,7,6,5,3,3,4,2,10,5,3] / [6,6,6,4,1,7,10,4,8,2,1,9,9,1,10,5,2,5,1,7]", ""),
    record("record-c4-v11-optimized", 4, 11, Method::Optimized, 15136, 15642, "second wins", "[3,8,3,10,4,3,9,4,10,1,1,3,4,2,7,7,8,11,6,7,9,6] / [5,11,8,10,5,9,2,5,7,6,2,10,11,1,8,5,11,9,6,4,1,2]", ""),
    record("record-c4-v12-optimized", 4, 12, Method::Optimized, 3206, 3472, "first wins", "[2,1,11,7,5,9,6,4,6,9,10,1,3,12,3,4,1,3,4,10,2,12,11,1] / [3,8,8,11,7,5,9,8,7,4,10,9,8,7,5,2,12,5,2,12,6,10,11,6]", ""),
    record("record-c4-v13-optimized", 4, 13, Method::Optimized, 4060, 4402, "second wins", "[13,8,13,2,10,13,12,2,3,10,5,6,1,1,6,6,2,11,2,5,12,8,7,9,5,8] / [12,5,4,1,9,11,7,6,1,10,3,9,7,4,11,10,3,8,4,7,12,11,13,3,9,4]", ""),
    record("record-c1-v16", 1, 16, Method::Natural, 246, 246, "first wins", "[9,14,11,2,6,3,16,10] / [12,1,13,15,8,7,5,4]", ""),
    record("record-c1-v22", 1, 22, Method::Natural, 1391, 1391, "second wins", "[11,4,13,14,16,3,18,21,8,17,15] / [19,10,6,20,12,2,9,5,7,22,1]", ""),
    record("record-c1-v24", 1, 24, Method::Natural, 886, 886, "second wins", "[16,8,17,9,6,2,14,19,23,12,3,13] / [22,24,1,21,11,18,4,10,5,15,7,20]", ""),
    record("record-c1-v32", 1, 32, Method::Natural, 1810, 1810, "first wins", "[3,9,29,23,11,18,20,2,8,25,22,13,1,32,15,17] / [12,7,26,14,31,21,16,5,27,30,24,6,10,19,28,4]", ""),
    record("record-c1-v48", 1, 48, Method::Natural, 4146, 4146, "first wins", "[36,22,16,45,25,48,26,28,20,23,15,33,17,12,42,13,46,27,18,32,19,8,43,6] / [3,14,2,11,10,37,30,38,41,1,39,34,21,40,29,47,5,24,4,31,44,7,35,9]", ""),
    record("record-c1-v64", 1, 64, Method::Natural, 7568, 7568, "second wins", "[7,52,62,59,39,8,33,41,63,57,34,36,43,20,12,27,9,38,45,40,50,53,10,49,61,31,46,21,58,19,5,30] / [22,29,4,54,32,23,35,44,48,60,14,47,25,55,24,42,26,11,18,13,15,1,6,2,56,64,37,51,17,16,3,28]", ""),
];

/// The longer optimized games of the C++ explorer's run logs
/// (github.com/legrosbuffle/bataille_cpp, `results/`).
#[rustfmt::skip]
pub const EXPLORER_LOGS: &[LoggedGame] = &[
    logged("log-c4-v6-optimized", 4, 6, Method::Optimized, 640, 746_586_112, "[6,5,3,6,1,1,4,4,2,5,1,1] / [5,6,4,3,2,2,4,2,6,3,3,5]"),
    logged("log-c4-v7-optimized", 4, 7, Method::Optimized, 2505, 13_109_297_152, "[5,1,2,4,6,6,1,5,7,4,1,7,2,3] / [5,2,7,6,4,1,5,3,2,4,7,3,6,3]"),
    logged("log-c4-v8-optimized", 4, 8, Method::Optimized, 1757, 38_647_365_632, "[2,8,8,5,6,4,1,5,1,6,4,6,2,1,7,8] / [8,1,4,2,2,3,5,5,7,7,3,7,3,3,4,6]"),
    logged("log-c4-v9-optimized", 4, 9, Method::Optimized, 2209, 14_494_466_048, "[7,3,7,4,8,5,6,2,9,1,3,8,5,1,6,6,9,4] / [4,9,2,5,8,4,6,2,5,7,8,9,2,1,1,3,3,7]"),
    logged("log-c4-v10-optimized", 4, 10, Method::Optimized, 2742, 9_828_302_848, "[5,6,5,10,2,2,8,8,1,9,4,5,1,4,2,1,4,7,9,1] / [3,7,3,3,10,6,2,4,8,3,7,8,6,10,9,7,6,9,5,10]"),
    logged("log-c4-v11-optimized", 4, 11, Method::Optimized, 15801, 1_308_622_848, "[2,6,2,5,2,7,10,10,11,10,4,1,6,4,10,9,5,3,7,8,8,1] / [11,3,11,8,4,2,6,4,7,6,11,1,8,1,7,9,5,9,3,9,3,5]"),
    logged("log-c4-v12-optimized", 4, 12, Method::Optimized, 4160, 3_263_168_512, "[3,10,5,7,4,6,6,9,1,1,2,4,2,7,3,12,6,5,8,8,3,7,12,11] / [9,10,12,12,10,9,11,5,3,4,8,1,10,11,7,5,4,9,2,6,2,11,8,1]"),
    logged("log-c4-v13-optimized", 4, 13, Method::Optimized, 5174, 4_318_035_968, "[3,13,8,4,8,2,6,9,1,9,2,1,10,11,1,11,7,1,3,8,2,11,9,5,4,7] / [13,10,3,13,5,6,7,6,5,6,12,13,10,9,4,5,12,8,7,10,11,3,2,12,12,4]"),
];

/// The method a cell is filed under: with one colour no battle happens, so natural and
/// optimized stacking are the same game, filed as natural.
fn filed(colours: usize, method: Method) -> Method {
    if colours == 1 && method == Method::Optimized { Method::Natural } else { method }
}

/// The public record of a cell.
pub fn public_record(
    colours: usize,
    values: usize,
    method: Method,
) -> Option<&'static PublicRecord> {
    let method = filed(colours, method);
    PUBLIC_RECORDS.iter().find(|r| (r.colours, r.values, r.method) == (colours, values, method))
}

/// The explorer's logged game of a cell, when it logged one longer than the table's.
pub fn logged_game(colours: usize, values: usize, method: Method) -> Option<&'static LoggedGame> {
    let method = filed(colours, method);
    EXPLORER_LOGS.iter().find(|r| (r.colours, r.values, r.method) == (colours, values, method))
}

impl PublicRecord {
    /// Its note, with the explorer's longer logged game when there is one.
    pub fn notes(&self) -> String {
        match (self.note, logged_game(self.colours, self.values, self.method)) {
            ("", Some(l)) => format!("C++ explorer's logs: {}", l.tricks),
            (n, Some(l)) => format!("{n}; C++ explorer's logs: {}", l.tricks),
            (n, None) => n.to_string(),
        }
    }
}

/// Where the best known game of a cell comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The public record table.
    Table,
    /// The C++ explorer's run logs.
    Logs,
    /// Our own records file (`results/records.csv`).
    Ours,
}

impl Source {
    /// A short name: `table`, `logs`, `ours`.
    pub fn name(self) -> &'static str {
        match self {
            Source::Table => "table",
            Source::Logs => "logs",
            Source::Ours => "ours",
        }
    }
}

/// The best known game of a cell, in tricks: the longest of the public table's, the
/// explorer's logged one and `ours` (our best, when the caller has one), with its source and
/// deal. Ties go to the published game.
pub fn best_known(
    colours: usize,
    values: usize,
    method: Method,
    ours: Option<(u64, &str)>,
) -> Option<(u64, Source, String)> {
    let mut best: Option<(u64, Source, String)> = None;
    let mut consider = |tricks: u64, source: Source, deal: &str| {
        if best.as_ref().is_none_or(|b| tricks > b.0) {
            best = Some((tricks, source, deal.to_string()));
        }
    };
    if let Some(r) = public_record(colours, values, method) {
        consider(r.tricks, Source::Table, r.deal);
    }
    if let Some(l) = logged_game(colours, values, method) {
        consider(l.tricks, Source::Logs, l.deal);
    }
    if let Some((tricks, deal)) = ours {
        consider(tricks, Source::Ours, deal);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_known_games() {
        // V=6 optimized: the logs' 640 beat the table's 620; a longer game of ours wins.
        let (t, s, _) = best_known(4, 6, Method::Optimized, None).unwrap();
        assert_eq!((t, s), (640, Source::Logs));
        let (t, s, d) = best_known(4, 6, Method::Optimized, Some((642, "x"))).unwrap();
        assert_eq!((t, s, d.as_str()), (642, Source::Ours, "x"));
        // A tie stays with the published game.
        let (_, s, _) = best_known(4, 13, Method::Natural, Some((5610, "x"))).unwrap();
        assert_eq!(s, Source::Table);
        assert_eq!(public_record(1, 16, Method::Optimized).unwrap().tricks, 246);
        assert_eq!(
            public_record(4, 8, Method::Optimized).unwrap().notes(),
            "C++ explorer's logs: 1757"
        );
        assert!(best_known(2, 3, Method::Natural, None).is_none());
        // Every id names its cell.
        for r in PUBLIC_RECORDS {
            let c1 = format!("record-c1-v{}", r.values);
            let c4 = format!("record-c{}-v{}-{}", r.colours, r.values, r.method);
            assert_eq!(r.id, if r.colours == 1 { c1 } else { c4 });
        }
        for l in EXPLORER_LOGS {
            assert_eq!(l.id, format!("log-c{}-v{}-{}", l.colours, l.values, l.method));
        }
    }
}
