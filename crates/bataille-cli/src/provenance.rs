//! Where a result came from: the commit, the machine and the time, and the records file that
//! collects record deals with them (`results/records.csv`, replayed by `bataille verify`).

use std::fs;
use std::io::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::SystemTime;

use anyhow::{Context, Result};

use crate::explore::rayon_threads;
use crate::records::RECORD_COLUMNS;

/// Appends `rows` to the records file, writing the header first if the file is new or empty.
/// Its directory must exist (checked before the run by
/// [`crate::records::check_records_file`]); none is created. The rows go in one write; if it
/// fails (a full disk) the file is cut back to its old length, and the error names it.
pub(crate) fn append_records(path: &Path, rows: &[[String; 12]]) -> Result<()> {
    let old_len = fs::metadata(path).map_or(0, |m| m.len());
    let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
    if old_len == 0 {
        w.write_record(RECORD_COLUMNS)?;
    }
    for row in rows {
        w.write_record(row)?;
    }
    let bytes = w.into_inner().context("internal error: a CSV row in memory")?;
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
    Ok(())
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
    format!("{host}; {cpu}; {} cores", rayon_threads())
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
