//! `experiment run`: a recipe of `experiments/` (format in `bataille_experiment::recipe`) run
//! into `<results>/<name>/` (`<name>`: the recipe's file name without extension): its CSV,
//! Markdown and SVG files, and a `NOTE.md` saying what produced them (command, seed, commit,
//! toolchain, machine, threads and time). Everything but the note is identical for the same
//! recipe whatever the threads.
//!
//! The files are written to a staging directory beside the results, locked while the run lives,
//! then put in place all at once: a run that fails leaves neither the staging directory nor a
//! results directory it made.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use bataille_experiment::rates::RunFiles;
use bataille_experiment::{Recipe, Settings, records};
use bataille_search::{Progress, Shard};

use crate::cost::cores;
use crate::error::{Context as _, bail};
use crate::files::{
    LOCK_NAME, MAX_RECORDS_BYTES, Words, prepare_outputs, read_bounded, write_atomic,
};
use crate::progress::{MAX_DAYS, human_duration};
use crate::provenance::{commit, machine, shown_path};
use crate::{Error, Result, Say};

/// The largest recipe file read (recipes are a few lines).
const MAX_RECIPE_BYTES: u64 = 1 << 20;

/// A recipe read and checked, ready to run.
#[derive(Debug)]
pub struct Experiment {
    /// The recipe, with its deals per cell replaced when asked.
    pub recipe: Recipe,
    /// The recipe file.
    pub path: PathBuf,
    /// The results' name: the recipe file's name without extension.
    pub name: String,
    /// The results directory, which gets `<name>/`.
    pub results: PathBuf,
    /// The names of the options in the refusals.
    pub words: Words,
}

impl Experiment {
    /// The recipe at `path` (the extension `.recipe` may be left out), with `deals` random
    /// deals per cell instead of its own when given, into `results/<name>/`, which is refused
    /// when it holds results unless `replace`. `words` names the options in the refusals.
    pub fn read(
        path: &Path,
        deals: Option<u64>,
        results: &Path,
        replace: bool,
        words: &Words,
    ) -> Result<Experiment> {
        let path = find_recipe(path)?;
        let text = read_bounded(&path, MAX_RECIPE_BYTES)?
            .with_context(|| format!("cannot read {}: it does not exist", path.display()))?;
        let mut recipe =
            Recipe::parse(&text).with_context(|| format!("invalid recipe {}", path.display()))?;
        if let Some(deals) = deals {
            if deals == 0 {
                bail!("{} must be at least 1, got 0", words.deals);
            }
            recipe = recipe.with_deals(deals);
        }
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .with_context(|| format!("cannot name the results of {}", path.display()))?
            .to_string();
        let out_dir = results.join(&name);
        if out_dir.exists() && !replace {
            bail!(
                "{} already holds results: pass {} to regenerate them, or {} to write them \
                 elsewhere",
                out_dir.display(),
                words.replace,
                words.results
            );
        }
        Ok(Experiment { recipe, path, name, results: results.to_path_buf(), words: *words })
    }

    /// The directory the results go to.
    pub fn out_dir(&self) -> PathBuf {
        self.results.join(&self.name)
    }

    /// Before a large recipe (more than a million deals a cell, or exhaustive runs of more
    /// than 10^8 arrangements): the time estimated from a short sample of every cell, said as a
    /// note, and a run of more than [`MAX_DAYS`] days refused unless `no_limit`.
    pub fn estimate(&self, threads: usize, no_limit: bool, say: &dyn Say) -> Result<()> {
        let large = match &self.recipe {
            Recipe::Durations(d) => d.deals > 1_000_000 || d.exact > 100_000_000,
            Recipe::Duels(d) => d.deals > 1_000_000,
            _ => false,
        };
        if !large {
            return Ok(());
        }
        let workers = if threads == 0 { cores() } else { threads.min(cores()) };
        let sample = Duration::from_millis(40);
        let Some(secs) = bataille_experiment::estimated_seconds(&self.recipe, workers, sample)
        else {
            return Ok(());
        };
        say.note(&format!(
            "estimate:  {} on {workers} threads (the speed of each cell measured on a sample)",
            human_duration(secs)
        ));
        if secs / 86_400.0 > MAX_DAYS && !no_limit {
            bail!(
                "the recipe would take about {}, more than the limit of {MAX_DAYS} days: lower \
                 {}, or pass {} to run it anyway",
                human_duration(secs),
                self.words.deals,
                self.words.no_estimate_limit
            );
        }
        Ok(())
    }

    /// Runs the recipe on `threads` threads (0: one per core), its progress on `progress` and
    /// the lines of its log said as notes, and puts its files and `NOTE.md` (with `command`,
    /// the command that made them) in place. Returns the summary the run reports.
    pub fn run(
        &self,
        threads: usize,
        progress: &dyn Progress,
        command: &str,
        say: &dyn Say,
    ) -> Result<String> {
        let results = &self.results;
        let made_results = !results.exists();
        let staging = results.join(format!(".{}.partial", self.name));
        let outputs = prepare_outputs(None, false, &staging, true, &|_| true, &self.words)?;
        let summary = match self.run_staged(threads, progress, command, say, &staging) {
            Ok(summary) => summary,
            Err(e) => {
                drop(outputs);
                let _ = fs::remove_dir_all(&staging);
                if made_results {
                    let _ = fs::remove_dir(results);
                }
                return Err(e);
            }
        };
        // A failure here says where the files are: the staging directory is not removed.
        put_in_place(&staging, &self.out_dir())?;
        drop(outputs);
        let _ = fs::remove_dir_all(&staging);
        Ok(summary)
    }

    /// Runs the recipe and writes its files into `staging`; returns the summary.
    fn run_staged(
        &self,
        threads: usize,
        progress: &dyn Progress,
        command: &str,
        say: &dyn Say,
        staging: &Path,
    ) -> Result<String> {
        clear_except_lock(staging)?;
        let started = Instant::now();
        let results = &self.results;
        let output = match &self.recipe {
            Recipe::Records(r) => {
                let read = |p: PathBuf| read_bounded(&p, MAX_RECORDS_BYTES);
                let mut sources = Vec::new();
                for s in &r.sources {
                    sources.push((s.clone(), read(results.join(s).join("longest.csv"))?));
                }
                let extra = read(results.join(&r.extra))?;
                records::run(r, &sources, extra.as_deref()).map_err(Error::new)?
            }
            Recipe::LoopRates(r) => {
                let mut runs = Vec::new();
                for s in &r.sources {
                    collect_summaries(&results.join(s), s, &mut runs)?;
                }
                bataille_experiment::rates::run(r, &runs).map_err(Error::new)?
            }
            recipe => {
                let settings = Settings { threads, progress };
                let name = &self.name;
                bataille_experiment::run(recipe, &settings, &mut |line| {
                    say.note(&format!("experiment {name}: {line}"));
                })
                .map_err(Error::new)?
            }
        };
        let elapsed = started.elapsed().as_secs_f64();
        for (file, bytes) in &output.files {
            let p = staging.join(file);
            write_atomic(&p, bytes).context("cannot write the results")?;
        }
        let threads = if threads == 0 { cores() } else { threads };
        let recipe = &self.recipe;
        let note = format!(
            "# How these files were made\n\n\
             - command: `{command}`\n- recipe: `{}` ({} table)\n- seed: {}\n- commit: {}\n\
             - toolchain: {}\n- machine: {}\n- threads: {threads}\n- elapsed: {elapsed:.1} s\n\n\
             Every file here but this note is identical for the same recipe, whatever the \
             threads.\n",
            shown_path(&self.path.to_string_lossy(), std::env::current_dir().ok().as_deref()),
            recipe.kind(),
            recipe.seed().map_or("none (no random deals)".to_string(), |s| s.to_string()),
            commit(),
            toolchain(),
            machine(),
        );
        write_atomic(&staging.join("NOTE.md"), note.as_bytes())
            .context("cannot write the results")?;
        Ok(format!(
            "{}\nwritten to {} in {elapsed:.1} s\n",
            output.summary,
            self.out_dir().display()
        ))
    }
}

/// The recipe file at `path`, or at `path.recipe`.
fn find_recipe(path: &Path) -> Result<PathBuf> {
    if path.is_file() {
        return Ok(path.to_path_buf());
    }
    let mut with_ext = path.as_os_str().to_owned();
    with_ext.push(".recipe");
    let with_ext = PathBuf::from(with_ext);
    if with_ext.is_file() {
        return Ok(with_ext);
    }
    if path.exists() {
        bail!("{} is not a recipe file (it is not a regular file)", path.display())
    }
    bail!("no recipe at {} (nor {})", path.display(), with_ext.display())
}

/// Every `summary.csv` under `dir` (named `source/...` after the folder), depth first in name
/// order, at most 6 levels down, with the run's shard from the `metadata.csv` beside it.
fn collect_summaries(dir: &Path, source: &str, out: &mut Vec<RunFiles>) -> Result<()> {
    fn walk(dir: &Path, name: &str, depth: usize, out: &mut Vec<RunFiles>) -> Result<()> {
        let read = |file: &str| read_bounded(&dir.join(file), MAX_RECORDS_BYTES);
        if let Some(summary) = read("summary.csv")? {
            let shard = read("metadata.csv")?
                .and_then(|m| m.lines().find_map(|l| l.strip_prefix("shard,")?.trim().parse().ok()))
                .unwrap_or(Shard::WHOLE);
            out.push(RunFiles { source: name.to_string(), summary, shard });
        }
        if depth == 0 {
            return Ok(());
        }
        let mut subdirs: Vec<PathBuf> = fs::read_dir(dir)
            .with_context(|| format!("cannot read {}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_dir())
            .collect();
        subdirs.sort();
        for d in subdirs {
            let child = d.file_name().and_then(|n| n.to_str()).unwrap_or("?");
            walk(&d, &format!("{name}/{child}"), depth - 1, out)?;
        }
        Ok(())
    }
    if !dir.is_dir() {
        bail!("cannot read the source {}: not a directory", dir.display());
    }
    walk(dir, source, 6, out)
}

/// Removes everything in the staging directory `dir` but its lock file (what a run killed before
/// it finished left there).
fn clear_except_lock(dir: &Path) -> Result<()> {
    for entry in fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let path = entry?.path();
        if path.file_name().is_some_and(|n| n == LOCK_NAME) {
            continue;
        }
        let removed =
            if path.is_dir() { fs::remove_dir_all(&path) } else { fs::remove_file(&path) };
        removed.with_context(|| format!("cannot clear {}", path.display()))?;
    }
    Ok(())
}

/// Moves the complete set of files in `staging` to `out` in two renames: the old results (if
/// any) aside, the new ones in place, then the old ones removed. A failure says which state the
/// directories were left in.
fn put_in_place(staging: &Path, out: &Path) -> Result<()> {
    let parent = out.parent().unwrap_or(Path::new("."));
    let name = out.file_name().and_then(|n| n.to_str()).unwrap_or("results");
    let old = parent.join(format!(".{name}.old"));
    let _ = fs::remove_dir_all(&old);
    let had_old = out.exists();
    if had_old {
        fs::rename(out, &old).with_context(|| {
            format!("cannot move the old results {} aside: nothing was replaced", out.display())
        })?;
    }
    // The new files: every file of the staging directory but its lock.
    fs::create_dir(out).with_context(|| format!("cannot create {}", out.display()))?;
    for entry in
        fs::read_dir(staging).with_context(|| format!("cannot read {}", staging.display()))?
    {
        let path = entry?.path();
        let Some(file) = path.file_name().filter(|n| *n != LOCK_NAME) else {
            continue;
        };
        if let Err(e) = fs::rename(&path, out.join(file)) {
            let old_note = if had_old {
                format!("; the old results are in {}", old.display())
            } else {
                String::new()
            };
            bail!(
                "cannot move {} into {}: {e}; {} holds part of the new results, {} the rest{old_note}",
                path.display(),
                out.display(),
                out.display(),
                staging.display()
            );
        }
    }
    if had_old {
        fs::remove_dir_all(&old).with_context(|| format!("cannot remove {}", old.display()))?;
    }
    Ok(())
}

/// What `program args` prints, when it runs and succeeds.
fn output_of(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The Rust toolchain of this machine (`rustc --version`).
fn toolchain() -> String {
    output_of("rustc", &["--version"]).unwrap_or_else(|| "unknown".to_string())
}
