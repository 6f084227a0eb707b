//! The records file (`results/records.csv`): one row per record game, typed ([`RecordRow`]),
//! parsed ([`parse_records`]), written ([`write_records`]) and replayed ([`check_row`]). The
//! file itself is read and appended to by `bataille_runs::records`.

use std::num::ParseIntError;

use bataille_engine::{
    DeckSpec, MethodError, Methods, Outcome, Position, PositionError, SpecError,
};

use bataille_engine::position::quoted;
use bataille_search::stats::{Measure, MeasureError};

use crate::search::replay;

/// The columns of the records file, in order.
pub const RECORD_COLUMNS: [&str; 12] = [
    "colours", "values", "method", "measure", "tricks", "cards", "deal", "seed", "command",
    "commit", "machine", "date",
];

/// How a record was found: the columns `seed` to `date` of its row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundBy {
    /// The seed of the random deals or chains (`None`, written `-`, for an exhaustive run or
    /// a backward search).
    pub seed: Option<u64>,
    /// The command that finds it again.
    pub command: String,
    /// The commit of the code that found it.
    pub commit: String,
    /// The machine that found it.
    pub machine: String,
    /// When it was found (UTC, ISO 8601).
    pub date: String,
}

/// A row of the records file: a finished game of a deck, its lengths, and how it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordRow {
    /// The deck.
    pub spec: DeckSpec,
    /// Stacking methods.
    pub methods: Methods,
    /// The measure it is a record of.
    pub measure: Measure,
    /// Stated tricks.
    pub tricks: u64,
    /// Stated cards.
    pub cards: u64,
    /// The deal.
    pub deal: Position,
    /// How it was found.
    pub found_by: FoundBy,
}

impl RecordRow {
    /// The row's fields, in the order of [`RECORD_COLUMNS`].
    pub fn fields(&self) -> [String; 12] {
        let f = &self.found_by;
        [
            self.spec.colours().to_string(),
            self.spec.values().to_string(),
            self.methods.to_string(),
            self.measure.name().to_string(),
            self.tricks.to_string(),
            self.cards.to_string(),
            self.deal.to_string(),
            f.seed.map_or_else(|| "-".to_string(), |s| s.to_string()),
            f.command.clone(),
            f.commit.clone(),
            f.machine.clone(),
            f.date.clone(),
        ]
    }
}

/// Why a field of a records file's row is invalid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FieldError {
    /// A number column (`colours`, `values`, `tricks`, `cards`) that is not a number.
    #[error("invalid {column} {}: {error}", quoted(.text))]
    Number {
        /// The column.
        column: &'static str,
        /// Its text.
        text: String,
        /// Why it is not a number.
        error: ParseIntError,
    },
    /// C and V that make no deck.
    #[error("invalid deck C={colours} V={values}: {error}")]
    Deck {
        /// Colours C.
        colours: u64,
        /// Values V.
        values: u64,
        /// Why it is no deck.
        error: SpecError,
    },
    /// An unknown method name.
    #[error(transparent)]
    Methods(#[from] MethodError),
    /// A random method: a random game has no fixed length to record or replay.
    #[error(
        "records are for deterministic methods, not {0}: a game stacked at random has no fixed length"
    )]
    Random(String),
    /// An unknown measure name.
    #[error(transparent)]
    Measure(#[from] MeasureError),
    /// A deal that cannot be read.
    #[error("invalid deal {}: {error}", quoted(.text))]
    Deal {
        /// Its text.
        text: String,
        /// Why it cannot be read.
        error: PositionError,
    },
    /// A seed that is neither a number nor `-`.
    #[error("invalid seed {}: expected a number, or - when there is none", quoted(.text))]
    Seed {
        /// Its text.
        text: String,
    },
    /// A date that is not a UTC time `YYYY-MM-DDTHH:MM:SSZ`.
    #[error(
        "invalid date {}: expected a UTC time YYYY-MM-DDTHH:MM:SSZ, e.g. 2026-11-21T09:54:40Z",
        quoted(.text)
    )]
    Date {
        /// Its text.
        text: String,
    },
}

/// Why a records file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordsFileError {
    /// The header line is not CSV.
    #[error("{0}")]
    Header(String),
    /// The header does not name [`RECORD_COLUMNS`].
    #[error("unexpected columns, expected {}", RECORD_COLUMNS.join(","))]
    Columns,
    /// A line is not a CSV row of the file (e.g. not 12 fields).
    #[error("line {line}: {message}")]
    Csv {
        /// Its line number (1 is the header).
        line: usize,
        /// The CSV reader's message.
        message: String,
    },
    /// A field of a row is invalid.
    #[error("line {line}: {error}")]
    Field {
        /// Its line number (1 is the header).
        line: usize,
        /// What is wrong.
        error: FieldError,
    },
}

/// The rows of a records file's text, each with its line number (the header is line 1); an
/// empty text has none.
pub fn parse_records(text: &str) -> Result<Vec<(usize, RecordRow)>, RecordsFileError> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let headers = r.headers().map_err(|e| RecordsFileError::Header(e.to_string()))?.clone();
    if headers.iter().ne(RECORD_COLUMNS) {
        return Err(RecordsFileError::Columns);
    }
    let mut rows = Vec::new();
    for (i, rec) in r.records().enumerate() {
        let line = i + 2;
        let rec = rec.map_err(|e| RecordsFileError::Csv { line, message: e.to_string() })?;
        let row = parse_row(&rec).map_err(|error| RecordsFileError::Field { line, error })?;
        rows.push((line, row));
    }
    Ok(rows)
}

/// One row (checked in the order of the columns the replay needs first).
fn parse_row(rec: &csv::StringRecord) -> Result<RecordRow, FieldError> {
    let field = |k: usize| rec.get(k).unwrap_or("");
    let num = |k: usize| -> Result<u64, FieldError> {
        field(k).parse().map_err(|error| FieldError::Number {
            column: RECORD_COLUMNS[k],
            text: field(k).to_string(),
            error,
        })
    };
    let methods: Methods = field(2).parse()?;
    if !methods.is_deterministic() {
        return Err(FieldError::Random(methods.to_string()));
    }
    let deal: Position =
        field(6).parse().map_err(|error| FieldError::Deal { text: field(6).to_string(), error })?;
    let measure: Measure = field(3).parse()?;
    let (colours, values) = (num(0)?, num(1)?);
    let spec = DeckSpec::new(colours as usize, values as usize)
        .map_err(|error| FieldError::Deck { colours, values, error })?;
    let (tricks, cards) = (num(4)?, num(5)?);
    let seed = match field(7) {
        "-" => None,
        text => Some(text.parse().map_err(|_| FieldError::Seed { text: text.to_string() })?),
    };
    if !is_utc_time(field(11)) {
        return Err(FieldError::Date { text: field(11).to_string() });
    }
    let found_by = FoundBy {
        seed,
        command: field(8).to_string(),
        commit: field(9).to_string(),
        machine: field(10).to_string(),
        date: field(11).to_string(),
    };
    Ok(RecordRow { spec, methods, measure, tricks, cards, deal, found_by })
}

/// Whether `text` is a UTC time `YYYY-MM-DDTHH:MM:SSZ` of the calendar (the form of the
/// `date` column): a day the month has, an hour below 24, minutes and seconds below 60.
fn is_utc_time(text: &str) -> bool {
    let b = text.as_bytes();
    let form = b"dddd-dd-ddTdd:dd:ddZ";
    if b.len() != form.len()
        || !b.iter().zip(form).all(|(&c, &f)| if f == b'd' { c.is_ascii_digit() } else { c == f })
    {
        return false;
    }
    let n = |from: usize, to: usize| text[from..to].parse::<u32>().unwrap_or(u32::MAX);
    let (year, month, day) = (n(0, 4), n(5, 7), n(8, 10));
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        1..=12 => 31,
        _ => 0,
    };
    (1..=days).contains(&day) && n(11, 13) < 24 && n(14, 16) < 60 && n(17, 19) < 60
}

/// `rows` as CSV lines of the records file, after the header line when `header`.
pub fn write_records(rows: &[RecordRow], header: bool) -> Vec<u8> {
    let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
    // Writing to memory fails only on a short write, which a Vec never makes.
    if header {
        let _ = w.write_record(RECORD_COLUMNS);
    }
    for row in rows {
        let _ = w.write_record(row.fields());
    }
    w.into_inner().unwrap_or_default()
}

/// Why a record row does not hold.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordMismatch {
    /// The deal is not a deal of the stated deck.
    #[error("the deal is not a {0}-card deal of C={1} V={2}")]
    NotADeal(usize, usize, usize),
    /// The deal holds the stated deck, split otherwise than a deal (⌊N/2⌋ cards to the first
    /// player).
    #[error(
        "{first}/{second} is not a deal's split: a deal of {} cards is split {}/{}",
        first + second,
        (first + second) / 2,
        (first + second).div_ceil(2)
    )]
    Split {
        /// Cards of the first hand.
        first: usize,
        /// Cards of the second hand.
        second: usize,
    },
    /// The game does not end.
    #[error("the deal does not end: it loops ({0})")]
    Loops(String),
    /// The lengths differ.
    #[error("stated {0} tricks / {1} cards, replayed {2} tricks / {3} cards")]
    Lengths(u64, u64, u64, u64),
}

/// Replays a record row: `Ok(())` when the deal is a deal of the stated deck (⌊N/2⌋ cards to the
/// first player) whose game ends after exactly the stated tricks and cards.
pub fn check_row(row: &RecordRow) -> Result<(), RecordMismatch> {
    let spec = row.spec;
    if row.deal.check_deck(spec).is_err() {
        return Err(RecordMismatch::NotADeal(spec.cards(), spec.colours(), spec.values()));
    }
    if !row.deal.is_deal() {
        let (first, second) = (row.deal.first().len(), row.deal.second().len());
        return Err(RecordMismatch::Split { first, second });
    }
    let bytes = [row.deal.first(), row.deal.second()].concat();
    let r = replay(&bytes, row.methods);
    if let Outcome::Cycle(c) = r.outcome {
        return Err(RecordMismatch::Loops(format!(
            "tail {} tricks, period {} tricks",
            c.tail_tricks, c.period_tricks
        )));
    }
    if (r.tricks, r.cards) != (row.tricks, row.cards) {
        return Err(RecordMismatch::Lengths(row.tricks, row.cards, r.tricks, r.cards));
    }
    Ok(())
}
