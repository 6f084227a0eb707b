//! Where a result comes from, as its files record it: the command that made it, as typed but
//! without any absolute path of this machine (a path inside the working directory is written
//! relative to it, any other as `<outside>/NAME`), and the command that makes the same result
//! again (without the options of a resumed run); the commit of the code, the machine and the
//! time, as `metadata.csv` and the records file write them.

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::SystemTime;

/// `bataille` and `args` (the words after the program), each shown without machine paths and
/// quoted for a POSIX shell; with `replay`, without the checkpoint options (`--checkpoint`,
/// `--checkpoint-every`, `--resume`, `--replace`), since a replay starts afresh. `cwd` is the
/// working directory the paths are relative to.
///
/// ```
/// use std::path::Path;
/// use bataille_runs::provenance::command;
///
/// let args = ["explore", "-c", "4", "--out", "/home/me/runs/a b", "--resume"];
/// let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
/// let cwd = Some(Path::new("/home/me"));
/// assert_eq!(command(args.clone(), cwd, false), "bataille explore -c 4 --out 'runs/a b' --resume");
/// assert_eq!(command(args, None, true), "bataille explore -c 4 --out '<outside>/a b'");
/// ```
pub fn command(args: Vec<String>, cwd: Option<&Path>, replay: bool) -> String {
    let mut words = vec!["bataille".to_string()];
    let mut args = args.into_iter();
    while let Some(a) = args.next() {
        if replay {
            match a.as_str() {
                "--resume" | "--replace" => continue,
                "--checkpoint" | "--checkpoint-every" => {
                    args.next();
                    continue;
                }
                _ if a.starts_with("--checkpoint=") || a.starts_with("--checkpoint-every=") => {
                    continue;
                }
                _ => {}
            }
        }
        words.push(quote(&shown(&a, cwd)));
    }
    words.join(" ")
}

/// An argument without absolute paths: `PATH` or `--flag=PATH` made relative to `cwd` when
/// inside it, `<outside>/NAME` otherwise; any other argument as it is.
fn shown(arg: &str, cwd: Option<&Path>) -> String {
    if arg.starts_with("--")
        && let Some((flag, value)) = arg.split_once('=')
    {
        return format!("{flag}={}", shown_path(value, cwd));
    }
    shown_path(arg, cwd)
}

/// A path as the files write it: relative to `cwd` when inside it, `<outside>/NAME` otherwise
/// (no machine path in a written file).
pub fn shown_path(text: &str, cwd: Option<&Path>) -> String {
    let path = Path::new(text);
    if !path.is_absolute() {
        return text.to_string();
    }
    if let Some(inside) = cwd.and_then(|c| path.strip_prefix(c).ok()) {
        let inside = inside.to_string_lossy();
        return if inside.is_empty() { ".".to_string() } else { inside.into_owned() };
    }
    let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    format!("<outside>/{name}")
}

/// `word` as a POSIX shell reads it back: as it is when made of safe characters, otherwise in
/// single quotes.
fn quote(word: &str) -> String {
    if !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,+".contains(c))
    {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The commit of the working directory's repository (`-dirty` when tracked files outside
/// `results/` are modified), or `unknown` outside a repository.
pub fn commit() -> String {
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

/// The host name, CPU model and the cores this process may use.
pub fn machine() -> String {
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
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!("{host}; {cpu}; {cores} cores")
}

/// The current UTC time as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn utc_now() -> String {
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

    fn shown_words(args: &[&str], cwd: &str, replay: bool) -> String {
        let args = args.iter().map(|a| a.to_string()).collect();
        command(args, Some(Path::new(cwd)), replay)
    }

    #[test]
    fn commands_carry_no_absolute_path() {
        let cwd = "/home/someone/bataille";
        let args = [
            "hunt",
            "--out",
            "/home/someone/bataille/results/hunts/x",
            "--checkpoint",
            "/tmp/hunt-ckpt/x.ckpt",
            "--records=/home/someone/bataille/results/records.csv",
            "--seed",
            "3",
        ];
        assert_eq!(
            shown_words(&args, cwd, false),
            "bataille hunt --out results/hunts/x --checkpoint '<outside>/x.ckpt' \
             --records=results/records.csv --seed 3"
        );
        assert_eq!(
            shown_words(&args, cwd, true),
            "bataille hunt --out results/hunts/x --records=results/records.csv --seed 3"
        );
        // Relative paths, the directory itself, a sibling directory with a longer name, words
        // that need quotes.
        let args = ["explore", "--out", "out/x", "/home/someone/bataille", "/home/someone/bat"];
        assert_eq!(
            shown_words(&args, cwd, false),
            "bataille explore --out out/x . '<outside>/bat'"
        );
        assert_eq!(
            shown_words(&["play", "[1, 2] / [2, 1]", "it's"], cwd, false),
            "bataille play '[1, 2] / [2, 1]' 'it'\\''s'"
        );
        assert_eq!(shown_words(&["--out", "/"], cwd, false), "bataille --out '<outside>/'");
        // Without a working directory every absolute path is outside.
        let args = vec!["/home/someone/bataille/x".to_string()];
        assert_eq!(command(args, None, false), "bataille '<outside>/x'");
    }
}
