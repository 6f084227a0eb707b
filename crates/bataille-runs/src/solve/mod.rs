//! The runs of the SAT solver (`bataille_sat`) into an output directory: the periods of a
//! question solved in order, each decided period's row written as soon as it is decided, and a
//! stopped run continued by `resume` from its files, which are read back and checked (their
//! question, every column, the loops replayed by the engine, each kept row's formula rebuilt).
//!
//! - [`loops`]: `cycles solve`, loops of a period (in tricks or in cards) found or proved
//!   absent, whole or in parts;
//! - [`aligned`]: `aligned solve`, the aligned cycles of R rounds.
//!
//! What both share is here: the options of a solver run ([`SolverRun`]), the resume rule of
//! its directory (its question line, a period undecided at this time limit kept as it is), and
//! the check of the rows read back.

pub mod aligned;
pub mod loops;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use bataille_sat::{Certificate, Config, Settings, Verdict, solve::PART};

use crate::error::{Context as _, bail};
use crate::files::{MAX_STATE_BYTES, OutputFiles, Words, read_bounded};
use crate::{Result, Say};

/// What every solver run shares: its output directory and how it is used, the solver's time
/// and configuration, the proofs kept, and what the run hears and says.
pub struct SolverRun<'a> {
    /// Seconds of solver time each period may take (all its solver calls; with parts, each
    /// part); a period not decided in time is undecided, and the run stops there.
    pub time_limit: Option<Duration>,
    /// Keep each period's CNF and proof in `out/proofs` (otherwise only their hashes and sizes).
    pub keep: bool,
    /// The output directory: instances.csv, what was found, metadata.csv.
    pub out: PathBuf,
    /// Continue the periods not decided yet in `out`.
    pub resume: bool,
    /// Replace the results in a used `out`.
    pub replace: bool,
    /// CaDiCaL's configuration.
    pub config: Config,
    /// The command that made the run, for metadata.csv (without this machine's paths).
    pub command: String,
    /// The names of the options in the refusals.
    pub words: Words,
    /// Set to stop the solver as soon as it can (Ctrl-C).
    pub stop: &'static AtomicBool,
    /// Told while the solver searches: the solver calls of the period so far and its seconds
    /// (see [`Settings::progress`]).
    pub progress: Option<fn(u32, f64)>,
    /// Where the run says what it does.
    pub say: &'a dyn Say,
    /// With `resume`, the commands of the runs that made the files before this one, read once
    /// from their metadata.csv before this run first writes it.
    earlier: OnceLock<Vec<String>>,
    /// Solve nothing: the parts put together by [`loops::merge_parts`] make their period's row,
    /// and those missing are left to a later run.
    merging: bool,
}

impl<'a> SolverRun<'a> {
    /// The options of a run into `out`, with its command, the names of its options, its stop
    /// request and where it says what it does; the rest as [`SolverRun`]'s fields say.
    #[allow(clippy::too_many_arguments)] // (each is one option of the run, named by its type)
    pub fn new(
        out: PathBuf,
        time_limit: Option<Duration>,
        keep: bool,
        resume: bool,
        replace: bool,
        config: Config,
        command: String,
        words: Words,
        stop: &'static AtomicBool,
        say: &'a dyn Say,
    ) -> SolverRun<'a> {
        SolverRun {
            time_limit,
            keep,
            out,
            resume,
            replace,
            config,
            command,
            words,
            stop,
            progress: None,
            say,
            earlier: OnceLock::new(),
            merging: false,
        }
    }

    /// After the last period: the proofs directory named (with `keep`, when it holds proofs,
    /// this run's or an earlier one's) or removed (when empty).
    fn put_away_proofs(&self, settings: &Settings) {
        let kept = std::fs::read_dir(&settings.work_dir).is_ok_and(|mut d| d.next().is_some());
        if self.keep && kept {
            self.say.line(&format!("proofs:    {}", settings.work_dir.display()));
        } else if !kept {
            let _ = std::fs::remove_dir(&settings.work_dir);
        }
    }

    /// Whether `resume` keeps as it is, rather than solve again, the period or part of row
    /// `line` (of a file whose header is `header`): one formula (not a sum of parts, which
    /// has no formula hash) undecided at a time limit at least about this run's, by this
    /// run's solver and configuration, which would only be undecided again. Its solver seconds
    /// stand for the limit it ran into, with a 5% margin: the limit counts the solver's calls
    /// only, as `solve_s` does, but rows written before it did (when it also counted the
    /// loading of the formula and the work between calls) fall short of it by that much.
    /// With no time limit, nothing is kept.
    fn ran_out(&self, header: &str, line: &str) -> bool {
        let field = |name: &str| {
            let i = header.split(',').position(|h| h == name);
            i.and_then(|i| line.split(',').nth(i)).unwrap_or("")
        };
        let limit = |t: Duration| {
            field("solve_s").parse::<f64>().is_ok_and(|s| s >= 0.95 * t.as_secs_f64())
        };
        field("verdict") == "undecided"
            && !field("cnf_sha256").is_empty()
            && field("solver") == self.config.solver()
            && self.time_limit.is_some_and(limit)
    }

    /// The same run continuing the output directory [`loops::merge_parts`] made, solving
    /// nothing.
    fn merged(&self) -> SolverRun<'a> {
        SolverRun {
            out: self.out.clone(),
            command: self.command.clone(),
            resume: true,
            replace: false,
            earlier: OnceLock::new(),
            merging: true,
            ..*self
        }
    }

    /// Whether the stop request stopped the solver.
    pub fn interrupted(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The solver's settings: proofs in `out/proofs` (created here), the stop request, the
    /// progress callback.
    fn settings(&self, all: bool) -> Result<Settings> {
        let proofs = self.out.join("proofs");
        // The files a run killed on the way was writing (this run holds the directory's lock),
        // and when replacing, the kept proofs of the results replaced, which go with them: only
        // names the solver runs write, in a proofs directory of the output's own.
        let mut ends = vec![format!(".cnf.{PART}"), format!(".lrat.{PART}")];
        if self.replace {
            ends.extend([".cnf".to_string(), ".lrat".to_string()]);
        }
        let ours = |name: &str| {
            (name.starts_with("period-") || name.starts_with("cards-"))
                && ends.iter().any(|e| name.ends_with(e))
        };
        let entries = if proofs.is_symlink() { None } else { std::fs::read_dir(&proofs).ok() };
        for file in entries.into_iter().flatten().flatten() {
            let path = file.path();
            if file.file_name().to_str().is_some_and(ours) && path.is_file() {
                std::fs::remove_file(&path)
                    .with_context(|| format!("cannot remove {}", path.display()))?;
            }
        }
        std::fs::create_dir_all(&proofs)
            .with_context(|| format!("cannot create {}", proofs.display()))?;
        Ok(Settings {
            all,
            time_limit: self.time_limit,
            stop: self.stop,
            work_dir: proofs,
            keep: self.keep,
            progress: self.progress,
            config: self.config,
        })
    }

    /// metadata.csv of a solver run: the question (`header` is `question,TEXT`), the commands
    /// of the runs resumed (`earlier_command`, first to last, a command run again in a row
    /// written once), this run's command, the version, this run's solver and checker, its time
    /// limit. (Each row of the results names the solver that decided it.)
    fn metadata(&self, files: &mut OutputFiles, header: &str) {
        let (q, rest) = header.split_once(',').expect("a key and a value");
        let earlier = self
            .earlier
            .get_or_init(|| if self.resume { earlier_commands(&self.out) } else { Vec::new() });
        let command = self.command.clone();
        // The same command run again (a queue restarted, a run resumed after a stop) is one.
        let earlier = match earlier.split_last() {
            Some((last, before)) if *last == command => before,
            _ => earlier.as_slice(),
        };
        let mut rows = vec![(q, rest.to_string())];
        rows.extend(earlier.iter().map(|c| ("earlier_command", c.clone())));
        rows.extend([
            ("command", command),
            ("version", env!("CARGO_PKG_VERSION").to_string()),
            ("solver", self.config.solver()),
            ("checker", "bataille_sat::lrat (RUP steps only)".to_string()),
            (
                "time_limit_s",
                self.time_limit.map_or("none".into(), |t| t.as_secs_f64().to_string()),
            ),
        ]);
        files.add_key_values("metadata.csv", &rows);
    }

    /// Checks, before anything is written, that `resume` has this question's directory to
    /// continue: one that exists, whose question line is `header` or one that `extends`
    /// accepts (the same question to a smaller bound). Another question is refused with what
    /// differs. Returns the test of a directory's own files for
    /// [`crate::files::prepare_outputs`].
    fn check_resumable<'b>(
        &self,
        header: &'b str,
        extends: &'b dyn Fn(&str) -> bool,
    ) -> Result<impl Fn(&Path) -> bool + 'b> {
        let own =
            move |dir: &Path| question_of(dir).is_some_and(|line| line == header || extends(&line));
        let w = &self.words;
        if !self.resume || self.replace {
            return Ok(own);
        }
        if !self.out.exists() {
            bail!(
                "{}: the output directory {} does not exist: there is nothing to resume \
                 (leave out {} to start)",
                w.resume,
                self.out.display(),
                w.resume
            );
        }
        if let Some(line) = question_of(&self.out)
            && line != header
            && !extends(&line)
        {
            let (theirs, ours) = (&line["question,".len()..], &header["question,".len()..]);
            let (a, b) = differing_words(theirs, ours);
            bail!(
                "{}: {} holds another question, \"{theirs}\", not this run's \"{ours}\" \
                 (it has {a} where this run has {b}): resume it with its own question \
                 (its metadata.csv has the commands), or with a larger {} or \
                 {}, which keeps its periods; or pass {}",
                w.resume,
                self.out.display(),
                w.max_period,
                w.max_rounds,
                w.replace
            );
        }
        Ok(own)
    }
}

impl std::fmt::Debug for SolverRun<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SolverRun")
            .field("out", &self.out)
            .field("time_limit", &self.time_limit)
            .field("keep", &self.keep)
            .field("resume", &self.resume)
            .field("replace", &self.replace)
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

/// The commands that made a solver directory's files, from its metadata.csv: its earlier
/// commands, then its command (none if the file cannot be read).
fn earlier_commands(dir: &Path) -> Vec<String> {
    let Ok(Some(text)) = read_bounded(&dir.join("metadata.csv"), MAX_STATE_BYTES) else {
        return Vec::new();
    };
    csv::Reader::from_reader(text.as_bytes())
        .records()
        .filter_map(|r| r.ok())
        .filter(|r| matches!(r.get(0), Some("earlier_command" | "command")))
        .filter_map(|r| r.get(1).map(str::to_string))
        .collect()
}

/// The question line of a solver directory's metadata.csv (`question,TEXT`), if it has one.
fn question_of(dir: &Path) -> Option<String> {
    let text = read_bounded(&dir.join("metadata.csv"), MAX_STATE_BYTES).ok().flatten()?;
    text.lines().find(|l| l.starts_with("question,")).map(str::to_string)
}

/// The words where `a` and `b` differ: what lies between their common first and last words.
fn differing_words(a: &str, b: &str) -> (String, String) {
    let (x, y): (Vec<&str>, Vec<&str>) = (a.split(' ').collect(), b.split(' ').collect());
    let head = x.iter().zip(&y).take_while(|(p, q)| p == q).count();
    let most = x.len().min(y.len()) - head;
    let tail = x.iter().rev().zip(y.iter().rev()).take(most).take_while(|(p, q)| p == q).count();
    let middle = |w: &[&str]| {
        let m = w[head..w.len() - tail].join(" ");
        if m.is_empty() { "nothing".to_string() } else { format!("\"{m}\"") }
    };
    (middle(&x), middle(&y))
}

/// A verdict as the files write it.
fn verdict_name(v: &Verdict) -> &'static str {
    match v {
        Verdict::Complete => "complete",
        Verdict::Found => "found",
        Verdict::Undecided => "undecided",
        Verdict::Stopped => "stopped",
    }
}

/// Whether a verdict as the files write it claims nothing (the time limit or a stop request
/// came first): such a period or part is solved again on resume.
fn is_open(verdict: &str) -> bool {
    matches!(verdict, "undecided" | "stopped")
}

/// Whether `v` is a verdict as the files write it.
fn is_verdict(v: &str) -> bool {
    matches!(v, "complete" | "found" | "undecided" | "stopped")
}

/// The check time, proof size, proof hash and proof steps, or four empty columns.
fn certificate_columns(c: Option<&Certificate>) -> (String, String, String, String) {
    match c {
        Some(c) => (
            format!("{:.3}", c.check_seconds),
            c.proof_bytes.to_string(),
            c.proof_sha256.clone(),
            c.checked.added.to_string(),
        ),
        None => (String::new(), String::new(), String::new(), String::new()),
    }
}

/// What a period took outside its solver calls, which the time limit does not count.
fn outside_the_limit(build: f64, load: f64) -> String {
    format!(
        "and outside the time limit, {build:.1} s building the formula and {load:.1} s \
         loading it into the solver and between calls"
    )
}

/// A count as the files write it (`-0` from versions that summed an empty list of parts).
fn count(text: &str) -> Option<u64> {
    if text == "-0" { Some(0) } else { text.parse().ok() }
}

/// Checks a row of instances.csv or parts.csv read back by `resume`: one letter of `kinds`
/// per column of `header`: `n` a count, `N` a count or empty, `s` seconds, `S` seconds or
/// empty, `b` true or false, `v` a verdict, `h` a SHA-256 or empty, `t` any text but empty.
/// Returns the fields.
fn check_row<'a>(line: &'a str, header: &str, kinds: &str) -> Result<Vec<&'a str>> {
    let fields: Vec<&str> = line.split(',').collect();
    if fields.len() != kinds.len() {
        bail!("{} columns, not the {} of `{header}`", fields.len(), kinds.len());
    }
    let seconds = |v: &str| v.parse::<f64>().is_ok_and(|x| x.is_finite() && x >= 0.0);
    for ((value, kind), name) in fields.iter().zip(kinds.chars()).zip(header.split(',')) {
        let ok = match kind {
            'n' => count(value).is_some(),
            'N' => value.is_empty() || count(value).is_some(),
            's' => seconds(value),
            'S' => value.is_empty() || seconds(value),
            'b' => matches!(*value, "true" | "false"),
            'v' => is_verdict(value),
            'h' => {
                value.is_empty()
                    || (value.len() == 64 && value.bytes().all(|b| b.is_ascii_hexdigit()))
            }
            _ => !value.is_empty(),
        };
        if !ok {
            bail!("{name} is \"{value}\"");
        }
    }
    Ok(fields)
}

/// Checks the header line of a file read back by `resume`.
fn check_header(line: Option<&str>, header: &str, file: &Path, words: &Words) -> Result<()> {
    if line != Some(header) {
        bail!(
            "{}: {} does not begin with the header `{header}`: these are not this \
             command's files",
            words.resume,
            file.display()
        );
    }
    Ok(())
}
