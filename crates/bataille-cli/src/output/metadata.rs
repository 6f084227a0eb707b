//! Where a result came from: the command as typed, the commit, the machine and the time, and
//! the records file that collects record deals with them (`results/records.csv`, replayed by
//! `bataille verify`).
//!
//! The command is written so that results can be shared: the program is `bataille` whatever
//! path or name started it, an absolute path inside the working directory is written relative
//! to it, and one outside it as `<outside>/NAME` (its last component only), so that no path of
//! this machine (a home or build directory, a scratch folder) is recorded. Each word is quoted
//! for a POSIX shell when it needs it (`'<outside>/x'`, `'[1, 2] / [2, 1]'`).

use std::fs;
use std::io::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::SystemTime;

use anyhow::{Context, Result, anyhow};
use bataille_records::row::{RecordRow, RecordsFileError, parse_records, write_records};
use bataille_runs::provenance::{command, shown_path};

use crate::checks::cores;
use crate::output::{MAX_RECORDS_BYTES, check_appendable, read_bounded};

/// The command line as typed, for `metadata.csv` and `NOTE.md`: `bataille`, then the arguments
/// without any absolute path of this machine ([`bataille_runs::provenance::command`]).
pub(crate) fn command_line() -> String {
    let cwd = std::env::current_dir().ok();
    command(arguments(), cwd.as_deref(), false)
}

/// The command that makes the same results again, for the records file: [`command_line`]
/// without the flags of a resumed run (`--checkpoint`, `--checkpoint-every`, `--resume`,
/// `--replace`), since a replay starts afresh.
pub(crate) fn replay_command() -> String {
    let cwd = std::env::current_dir().ok();
    command(arguments(), cwd.as_deref(), true)
}

/// The arguments after the program (lossily decoded: a command line is shown, not parsed).
fn arguments() -> Vec<String> {
    std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned()).collect()
}

/// A path as the files write it: relative to the working directory when inside it,
/// `<outside>/NAME` otherwise (no machine path in a written file).
pub(crate) fn shown_file(path: &Path) -> String {
    shown_path(&path.to_string_lossy(), std::env::current_dir().ok().as_deref())
}

/// Reads the records file into its rows: `Ok(None)` when it does not exist.
pub(crate) fn read_records(path: &Path) -> Result<Option<Vec<(usize, RecordRow)>>> {
    let Some(text) = read_bounded(path, MAX_RECORDS_BYTES)? else {
        return Ok(None);
    };
    records_of(path, &text).map(Some)
}

/// The rows of a records file's text (`path` names it in errors).
pub(crate) fn records_of(path: &Path, text: &str) -> Result<Vec<(usize, RecordRow)>> {
    parse_records(text).map_err(|e| {
        let p = path.display();
        match e {
            RecordsFileError::Header(why) => anyhow!("cannot read {p}: {why}"),
            RecordsFileError::Field { .. } => anyhow!("{p} {e}"),
            RecordsFileError::Columns | RecordsFileError::Csv { .. } => anyhow!("{p}: {e}"),
        }
    })
}

/// Checks, before any work, that the records file at `path` can be read (when it exists) and
/// appended to.
pub(crate) fn check_records_file(path: &Path) -> Result<()> {
    read_records(path)?;
    Ok(check_appendable(path)?)
}

/// Appends `rows` to the records file, writing the header first if the file is new or empty
/// (a byte-order mark alone is empty), and returns how many were appended: a row whose game
/// the file already holds (the same deck, methods, measure and deal, as when a finished run is
/// resumed or a job requeued) is not written twice. Its directory must exist (checked before the run by [`check_records_file`]);
/// none is created. The rows go in one write; if it fails (a full disk) the file is cut back to
/// its old length, and the error names it.
pub(crate) fn append_records(path: &Path, rows: &[RecordRow]) -> Result<usize> {
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

/// Says how many of `offered` rows [`append_records`] appended to `path`.
pub(crate) fn report_appended(path: &Path, appended: usize, offered: usize) {
    let p = path.display();
    match (appended, offered - appended) {
        (0, 0) => println!("records:   no finished game to append to {p}"),
        (0, _) => println!("records:   already in {p} (nothing appended)"),
        (n, 0) => println!("records:   {n} appended to {p}"),
        (n, k) => println!("records:   {n} appended to {p} ({k} already there)"),
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

/// The commit of the working directory's repository (`-dirty` when tracked files outside
/// `results/` are modified), or `unknown` outside a repository.
pub(crate) fn commit() -> String {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(hash) => {
            // The records file itself (under `results/`) does not make the code dirty.
            let dirty = git(&[
                "status",
                "--porcelain",
                "--untracked-files=no",
                "--",
                ":(top,exclude)results",
            ])
            .is_some_and(|s| !s.is_empty());
            if dirty { format!("{hash}-dirty") } else { hash }
        }
        None => "unknown".to_string(),
    }
}

/// The host name, CPU model and core count.
pub(crate) fn machine() -> String {
    let host = fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "unknown host".to_string());
    let cpu = fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    format!("{host}; {cpu}; {} cores", cores())
}

/// The current UTC time as `YYYY-MM-DDTHH:MM:SSZ`.
pub(crate) fn utc_now() -> String {
    let secs =
        SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    utc_date(secs)
}

/// `secs` after the Unix epoch as `YYYY-MM-DDTHH:MM:SSZ`.
fn utc_date(secs: u64) -> String {
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_dates() {
        let check = |secs: u64, expected: &str| assert_eq!(utc_date(secs), expected);
        check(0, "1970-01-01T00:00:00Z");
        check(951_782_400, "2000-02-29T00:00:00Z");
        check(1_709_251_199, "2024-02-29T23:59:59Z");
        check(4_102_444_800, "2100-01-01T00:00:00Z");
    }
}
