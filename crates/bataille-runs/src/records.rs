//! The records file (`results/records.csv`), which collects record deals with how they were
//! found (replayed by `bataille verify`): read and checked before a run, appended to after it,
//! a game never written twice. Its rows are typed, parsed and written by
//! `bataille_records::row`. And the runs that look for record games: [`search`] (simulated
//! annealing over deals, into an output directory) and [`extend`] (a finished game made longer
//! by playing backwards).

use std::fs;
use std::io::Write as _;
use std::path::Path;

use bataille_engine::position::quoted;
use bataille_engine::{DeckSpec, GameResult, Limits, Methods, NoRandom, Position, play};
use bataille_records::row::{
    FoundBy, RecordRow, RecordsFileError, check_row, parse_records, write_records,
};
use bataille_search::{Bataille, DealGame as _, State};

use crate::error::{Context, Result};
use crate::files::{MAX_RECORDS_BYTES, check_appendable, read_bounded};
use crate::provenance::utc_now;
use crate::{Error, Say};

pub mod beam;
pub mod extend;
pub mod search;

/// Reads the records file into its rows, each with its line number: `Ok(None)` when it does
/// not exist.
pub fn read_records(path: &Path) -> Result<Option<Vec<(usize, RecordRow)>>> {
    let Some(text) = read_bounded(path, MAX_RECORDS_BYTES)? else {
        return Ok(None);
    };
    records_of(path, &text).map(Some)
}

/// The rows of a records file's text (`path` names it in errors).
pub fn records_of(path: &Path, text: &str) -> Result<Vec<(usize, RecordRow)>> {
    parse_records(text).map_err(|e| {
        let p = path.display();
        Error::msg(match e {
            RecordsFileError::Header(why) => format!("cannot read {p}: {why}"),
            RecordsFileError::Field { .. } => format!("{p} {e}"),
            RecordsFileError::Columns | RecordsFileError::Csv { .. } => format!("{p}: {e}"),
        })
    })
}

/// Checks, before any work, that the records file at `path` can be read (when it exists) and
/// appended to.
pub fn check_records_file(path: &Path) -> Result<()> {
    read_records(path)?;
    check_appendable(path)
}

/// Appends `rows` to the records file, writing the header first if the file is new or empty
/// (a byte-order mark alone is empty), and returns how many were appended: a row whose game
/// the file already holds (the same deck, methods, measure and deal, as when a finished run is
/// resumed or a job requeued) is not written twice. Its directory must exist (checked before
/// the run by [`check_records_file`]); none is created. The rows go in one write; if it fails
/// (a full disk) the file is cut back to its old length, and the error names it.
pub fn append_records(path: &Path, rows: &[RecordRow]) -> Result<usize> {
    // (Empty as text: no file, no byte, or only the byte-order mark an editor saves.)
    let text = read_bounded(path, MAX_RECORDS_BYTES)?.unwrap_or_default();
    let old = records_of(path, &text)?;
    let same = |a: &RecordRow, b: &RecordRow| {
        (a.spec, a.methods, a.measure, &a.deal) == (b.spec, b.methods, b.measure, &b.deal)
    };
    let mut new: Vec<RecordRow> = Vec::new();
    for row in rows {
        if !old.iter().any(|(_, o)| same(o, row)) && !new.iter().any(|n| same(n, row)) {
            new.push(row.clone());
        }
    }
    if new.is_empty() {
        return Ok(0);
    }
    let old_len = fs::metadata(path).map_or(0, |m| m.len());
    let mut bytes = write_records(&new, text.is_empty());
    // A file whose last line has no line end (edited by hand) gets one first, so that the
    // first new row is not glued to the old last one.
    if !text.is_empty() && !ends_with_newline(path)? {
        bytes.insert(0, b'\n');
    }
    let mut file = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot append to {}", path.display()))?;
    if let Err(e) = file.write_all(&bytes).and_then(|()| file.sync_all()) {
        let _ = file.set_len(old_len);
        return Err(e).with_context(|| {
            format!("cannot append to {} (it keeps its old rows)", path.display())
        });
    }
    Ok(new.len())
}

/// Plays the game from `start`, which must end (`must` ends the refusal: what a start must be),
/// and says it: the start and its game. The start of `records extend` and `records beam`.
pub(crate) fn finished_game(
    start: &Position,
    spec: DeckSpec,
    methods: Methods,
    must: &str,
    say: &dyn Say,
) -> Result<GameResult> {
    let game = play(start, methods, &mut NoRandom, Limits::DETERMINISTIC);
    if !game.outcome.is_finished() {
        crate::error::bail!(
            "the game from {} does not end ({}): {must}",
            quoted(&start.to_string()),
            game.outcome.name()
        );
    }
    say.line(&format!("start:     {start}"));
    say.line(&format!(
        "game:      C={} V={} {methods}: {} tricks, {} cards",
        spec.colours(),
        spec.values(),
        game.tricks,
        game.cards
    ));
    Ok(game)
}

/// Replays `deal`, found to play `tricks` and `cards`: it must play exactly that game, or the
/// search that found it is wrong (an internal error, never a row written).
pub(crate) fn replayed(
    deal: &Position,
    tricks: u64,
    cards: u64,
    methods: Methods,
) -> Result<GameResult> {
    let g = play(deal, methods, &mut NoRandom, Limits::DETERMINISTIC);
    if !g.outcome.is_finished() || (g.tricks, g.cards) != (tricks, cards) {
        crate::error::bail!(
            "internal error: {deal} was found to play {tricks} tricks, {cards} cards but plays \
             {} tricks, {} cards",
            g.tricks,
            g.cards
        );
    }
    Ok(g)
}

/// The report's line on the rows appended to the records file at `path`: `appended` of the
/// `offered` ones ([`append_records`]' count).
pub fn appended(path: &Path, appended: usize, offered: usize) -> String {
    let p = path.display();
    match (appended, offered - appended) {
        (0, 0) => format!("records:   no finished game to append to {p}"),
        (0, _) => format!("records:   already in {p} (nothing appended)"),
        (n, 0) => format!("records:   {n} appended to {p}"),
        (n, k) => format!("records:   {n} appended to {p} ({k} already there)"),
    }
}

/// Whether the file's last byte is a line end.
fn ends_with_newline(path: &Path) -> Result<bool> {
    use std::io::{Read as _, Seek as _, SeekFrom};
    let mut file =
        fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut last = [0u8; 1];
    file.seek(SeekFrom::End(-1))
        .and_then(|_| file.read_exact(&mut last))
        .with_context(|| format!("cannot read {}", path.display()))?;
    Ok(last[0] == b'\n')
}

/// Appends to the records file `path` the longest finished game of an exploration's `state`
/// by tricks and by cards (games of `game`, with `spec` and `methods`), each replayed first,
/// found by `found_by` (dated now); says how many were appended, or why there was none
/// (`top` names the option that keeps the games).
pub fn append_longest(
    path: &Path,
    (game, spec, methods): (&Bataille, DeckSpec, Methods),
    found_by: &FoundBy,
    state: &State,
    top: &str,
    say: &dyn Say,
) -> Result<()> {
    let found_by = FoundBy { date: utc_now(), ..found_by.clone() };
    let mut rows = Vec::new();
    for list in [&state.stats.longest_by_tricks, &state.stats.longest_by_cards] {
        let Some(best) = list.entries().first() else { continue };
        let deal = game.deal_text(&best.deal);
        let row = RecordRow {
            spec,
            methods,
            measure: list.measure(),
            tricks: best.tricks,
            cards: best.cards,
            deal: deal.parse().with_context(|| format!("internal error: deal {deal}"))?,
            found_by: found_by.clone(),
        };
        check_row(&row).with_context(|| format!("internal error: {deal} does not replay"))?;
        rows.push(row);
    }
    if rows.is_empty() {
        say.line(
            if state.stats.finished() == 0 {
                "records:   no finished game to append".to_string()
            } else {
                format!("records:   no game kept to append ({top} 0 keeps none)")
            }
            .as_str(),
        );
        return Ok(());
    }
    say.line(&appended(path, append_records(path, &rows)?, rows.len()));
    Ok(())
}
