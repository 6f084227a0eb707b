//! The CSV tables of `takeaway table`: every position of a game up to a size with its outcome
//! and winning moves ([`PositionsTable`]), and the winning sequence of the match game
//! ([`write_sequence`]), written to any `io::Write` (the columns are in the book's
//! `docs/formats.md`).
//!
//! ```
//! use bataille_takeaway::spec::{GameKind, GameOptions, GameSpec};
//! use bataille_takeaway::table::PositionsTable;
//!
//! let spec = GameSpec::new(&GameOptions::new(GameKind::FortBoyard, vec![0])).unwrap();
//! let table = PositionsTable::new(&spec, 5, 1, 5).unwrap();
//! let mut csv = Vec::new();
//! table.write(&mut csv).unwrap();
//! assert!(String::from_utf8(csv).unwrap().starts_with("objects,outcome,winning_take\n0,N,\n1,P,\n2,N,1\n"));
//! ```

use std::io;

use crate::dispatch::{DispatchError, Engine};
use crate::front::{Front, winning};
use crate::matches::{MatchGame, MatchPos, MatchTable};
use crate::nim::{self, Nim};
use crate::spec::{GameAt, GameSpec};
use crate::subtraction::Subtraction;
use crate::two_heaps::{TwoHeapGame, TwoHeapPos};

/// The most rows a [`PositionsTable`] should have (a front end refuses more, before any work,
/// by [`positions_rows`]).
pub const MAX_TABLE_ROWS: u64 = 20_000_000;

/// Why a table could not be written.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// A position could not be answered.
    #[error(transparent)]
    Dispatch(#[from] DispatchError),
    /// A row could not be written.
    #[error(transparent)]
    Csv(#[from] csv::Error),
    /// The table could not be written out.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// About how many rows the positions table of `game` has (heaps up to `max`, `rows` rows of
/// nim, previous takes up to `prev_max`), without building it.
pub fn positions_rows(game: &GameAt, max: u64, rows: usize, prev_max: u32) -> f64 {
    let (m, p) = (max as f64 + 1.0, f64::from(prev_max) + 1.0);
    match game {
        GameAt::Nim(..) => (1..=rows).map(|i| (m - 1.0 + i as f64) / i as f64).product(),
        GameAt::Subtraction(..) => m,
        GameAt::Matches(..) => m * p,
        GameAt::TwoHeaps(..) => m * (m + 1.0) / 2.0 * p,
    }
}

/// The engine of a table, for whichever game it lists.
#[derive(Debug)]
enum Engines {
    Nim(Engine<Nim>),
    Subtraction(Engine<Subtraction>),
    Matches(Engine<MatchGame>),
    TwoHeaps(Engine<TwoHeapGame>),
}

/// Every position of a game up to a size, ready to be written: its outcome (P or N) and its
/// winning moves.
#[derive(Debug)]
pub struct PositionsTable {
    engine: Engines,
    max: u32,
    rows: usize,
    prev_max: u32,
}

impl PositionsTable {
    /// The table of `spec`'s game (its start position is not used): heaps up to `max`; `rows`
    /// rows for nim; previous takes up to `prev_max` for the match games. The engine (a match
    /// table) is built here, the rows when written.
    pub fn new(
        spec: &GameSpec,
        max: u32,
        rows: usize,
        prev_max: u32,
    ) -> Result<PositionsTable, DispatchError> {
        let (size, brute) = (u64::from(max), spec.brute_force);
        let engine = match &spec.game {
            GameAt::Nim(g, _) => Engines::Nim(Engine::new(*g, size, brute)?),
            GameAt::Subtraction(g, _) => Engines::Subtraction(Engine::new(*g, size, brute)?),
            GameAt::Matches(g, _) => Engines::Matches(Engine::new(*g, size, brute)?),
            GameAt::TwoHeaps(g, _) => Engines::TwoHeaps(Engine::new(*g, size, brute)?),
        };
        Ok(PositionsTable { engine, max, rows, prev_max })
    }

    /// Writes the table as CSV to `w`, header first, and flushes it.
    pub fn write(&self, w: impl io::Write) -> Result<(), TableError> {
        let mut w = csv::Writer::from_writer(w);
        let (max, prev_max) = (self.max, self.prev_max);
        match &self.engine {
            Engines::Nim(engine) => {
                w.write_record(["rows", "outcome", "nim_sum", "winning_moves"])?;
                for r in nim::sorted_positions(self.rows, u64::from(max)) {
                    let moves: Vec<String> =
                        winning(engine, &r)?.into_iter().map(|m| m.text).collect();
                    w.write_record([
                        Nim::show(&r),
                        engine.outcome(&r)?.letter().to_string(),
                        nim::nim_sum(&r).to_string(),
                        moves.join("; "),
                    ])?;
                }
            }
            Engines::Subtraction(engine) => {
                w.write_record(["objects", "outcome", "winning_take"])?;
                for n in 0..=u64::from(max) {
                    let take = engine.winning(&n)?.first().map(|(t, _)| t.to_string());
                    w.write_record([
                        n.to_string(),
                        engine.outcome(&n)?.letter().to_string(),
                        take.unwrap_or_default(),
                    ])?;
                }
            }
            Engines::Matches(engine) => {
                w.write_record(["left", "prev", "outcome", "winning_takes"])?;
                for left in 1..=max {
                    for prev in 0..=prev_max {
                        let p = MatchPos { left, prev };
                        let takes: Vec<String> =
                            engine.winning(&p)?.iter().map(|(t, _)| t.to_string()).collect();
                        w.write_record([
                            left.to_string(),
                            prev.to_string(),
                            engine.outcome(&p)?.letter().to_string(),
                            takes.join(" "),
                        ])?;
                    }
                }
            }
            Engines::TwoHeaps(engine) => {
                w.write_record(["a", "b", "prev", "outcome", "winning_moves"])?;
                for x in 0..=max {
                    for y in 0..=x {
                        for prev in 0..=prev_max {
                            let p = TwoHeapPos { a: x, b: y, prev };
                            let moves: Vec<String> =
                                engine.winning(&p)?.iter().map(|(m, _)| m.to_string()).collect();
                            w.write_record([
                                x.to_string(),
                                y.to_string(),
                                prev.to_string(),
                                engine.outcome(&p)?.letter().to_string(),
                                moves.join(" "),
                            ])?;
                        }
                    }
                }
            }
        }
        w.flush()?;
        Ok(())
    }
}

/// Writes the winning sequence of the match game of `t` as CSV to `w`: for each heap from 2 to
/// the table's largest, the smallest winning take, the first previous take from which it is
/// allowed, whether it takes all but one, and whether the first player wins.
pub fn write_sequence(t: &MatchTable, w: impl io::Write) -> Result<(), TableError> {
    let mut w = csv::Writer::from_writer(w);
    w.write_record(["matches", "winning_take", "first_winning_prev", "base", "first_player_wins"])?;
    for left in 2..=t.max_left() {
        let take = t.min_winning_take(left);
        w.write_record([
            left.to_string(),
            take.map(|m| m.to_string()).unwrap_or_default(),
            t.threshold(left).map(|n| n.to_string()).unwrap_or_default(),
            (take == Some(left - 1)).to_string(),
            t.outcome(MatchPos::opening(left)).expect("in the table").is_win().to_string(),
        ])?;
    }
    w.flush()?;
    Ok(())
}
