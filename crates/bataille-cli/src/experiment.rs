//! `bataille experiment run RECIPE`: regenerates one of the article's tables from a recipe in
//! `experiments/` (format in [`bataille_experiment::recipe`]) and writes its CSV, Markdown and
//! SVG files to `results/<name>/` (`<name>`: the recipe's file name without extension), with a
//! `NOTE.md` saying what produced them: command, seed, commit, toolchain, machine, threads and
//! time. Everything but the note is identical for the same recipe whatever `--threads`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use bataille_experiment::rates::RunFiles;
use bataille_experiment::{Recipe, Settings, records};
use bataille_search::Shard;
use clap::{Args, Subcommand};

use crate::output::progress::{ExploreProgress, human_duration};
use crate::output::{command_line, commit, machine};

/// Flags of `bataille experiment`.
#[derive(Debug, Args)]
pub(crate) struct ExperimentArgs {
    #[command(subcommand)]
    command: ExperimentCommand,
}

#[derive(Debug, Subcommand)]
enum ExperimentCommand {
    /// Run a recipe (e.g. experiments/durations-c4.recipe; the extension may be left out).
    Run(RunArgs),
}

#[derive(Debug, Args)]
struct RunArgs {
    /// The recipe file.
    recipe: PathBuf,
    /// Random deals per cell, instead of the recipe's (for a quick, reduced run).
    #[arg(long, value_name = "N")]
    deals: Option<u64>,
    /// Worker threads (default: one per core; at most 8 per core); never changes the results.
    #[arg(long, default_value_t = 0, value_parser = crate::checks::threads)]
    threads: usize,
    /// The results directory; the table goes to <DIR>/<recipe name>/.
    #[arg(long, value_name = "DIR", default_value = "results")]
    results: PathBuf,
    /// Replace the table's existing results (<DIR>/<recipe name>/ is refused otherwise).
    #[arg(long)]
    replace: bool,
    /// Run even when the estimated time is more than 30 days.
    #[arg(long)]
    no_estimate_limit: bool,
}

pub(crate) fn run(args: ExperimentArgs) -> Result<ExitCode> {
    match args.command {
        ExperimentCommand::Run(a) => run_recipe(a),
    }
}

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

/// The largest recipe file read (recipes are a few lines).
const MAX_RECIPE_BYTES: u64 = 1 << 20;

fn run_recipe(args: RunArgs) -> Result<ExitCode> {
    let path = find_recipe(&args.recipe)?;
    let text = crate::output::read_bounded(&path, MAX_RECIPE_BYTES)?
        .with_context(|| format!("cannot read {}: it does not exist", path.display()))?;
    let mut recipe =
        Recipe::parse(&text).with_context(|| format!("invalid recipe {}", path.display()))?;
    if let Some(deals) = args.deals {
        if deals == 0 {
            bail!("--deals must be at least 1, got 0");
        }
        recipe = recipe.with_deals(deals);
    }
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .with_context(|| format!("cannot name the results of {}", path.display()))?
        .to_string();
    let out_dir = args.results.join(&name);
    if out_dir.exists() && !args.replace {
        bail!(
            "{} already holds results: pass --replace to regenerate them, or --results DIR to \
             write them elsewhere",
            out_dir.display()
        );
    }
    if !matches!(recipe, Recipe::Records(_) | Recipe::LoopRates(_)) {
        estimate(&recipe, args.threads, args.no_estimate_limit)?;
    }
    // The files are written to a staging directory, made and locked now (a read-only results
    // directory is refused before any work), then put in place all at once. A run that fails
    // leaves neither the staging directory nor a results directory it made.
    let made_results = !args.results.exists();
    let staging = args.results.join(format!(".{name}.partial"));
    let outputs = crate::output::prepare_outputs(None, false, &staging, true, &|_| true)?;
    let summary = match run_staged(&args, &recipe, &path, &name, &staging) {
        Ok(summary) => summary,
        Err(e) => {
            drop(outputs);
            let _ = fs::remove_dir_all(&staging);
            if made_results {
                let _ = fs::remove_dir(&args.results);
            }
            return Err(e);
        }
    };
    // A failure here says where the files are: the staging directory is not removed.
    put_in_place(&staging, &out_dir)?;
    drop(outputs);
    let _ = fs::remove_dir_all(&staging);
    print!("{summary}");
    Ok(ExitCode::SUCCESS)
}

/// Runs `recipe` and writes its files into `staging`; returns the summary to print.
fn run_staged(
    args: &RunArgs,
    recipe: &Recipe,
    path: &Path,
    name: &str,
    staging: &Path,
) -> Result<String> {
    clear_except_lock(staging)?;
    let started = Instant::now();
    let output = match &recipe {
        Recipe::Records(r) => {
            let read = |p: PathBuf| -> Result<Option<String>> {
                Ok(crate::output::read_bounded(&p, crate::output::MAX_RECORDS_BYTES)?)
            };
            let mut sources = Vec::new();
            for s in &r.sources {
                sources.push((s.clone(), read(args.results.join(s).join("longest.csv"))?));
            }
            let extra = read(args.results.join(&r.extra))?;
            records::run(r, &sources, extra.as_deref())?
        }
        Recipe::LoopRates(r) => {
            let mut runs = Vec::new();
            for s in &r.sources {
                collect_summaries(&args.results.join(s), s, &mut runs)?;
            }
            bataille_experiment::rates::run(r, &runs)?
        }
        _ => {
            let progress = ExploreProgress::new("experiment", "deals");
            let settings = Settings { threads: args.threads, progress: &progress };
            let out = bataille_experiment::run(recipe, &settings, &mut |line| {
                eprintln!("experiment {name}: {line}");
            });
            progress.finish();
            out?
        }
    };
    let elapsed = started.elapsed().as_secs_f64();
    for (file, bytes) in &output.files {
        let p = staging.join(file);
        crate::output::write_atomic(&p, bytes).context("cannot write the results")?;
    }
    let threads = if args.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        args.threads
    };
    let note = format!(
        "# How these files were made\n\n\
         - command: `{}`\n- recipe: `{}` ({} table)\n- seed: {}\n- commit: {}\n- toolchain: {}\n\
         - machine: {}\n- threads: {threads}\n- elapsed: {elapsed:.1} s\n\n\
         Every file here but this note is identical for the same recipe, whatever the threads.\n",
        command_line(),
        crate::output::shown_file(path),
        recipe.kind(),
        recipe.seed().map_or("none (no random deals)".to_string(), |s| s.to_string()),
        commit(),
        toolchain(),
        machine(),
    );
    crate::output::write_atomic(&staging.join("NOTE.md"), note.as_bytes())
        .context("cannot write the results")?;
    let out_dir = args.results.join(name);
    Ok(format!("{}\nwritten to {} in {elapsed:.1} s\n", output.summary, out_dir.display()))
}

/// Every `summary.csv` under `dir` (named `source/...` after the folder), depth first in name
/// order, at most 6 levels down, with the run's shard from the `metadata.csv` beside it.
fn collect_summaries(dir: &Path, source: &str, out: &mut Vec<RunFiles>) -> Result<()> {
    fn walk(dir: &Path, name: &str, depth: usize, out: &mut Vec<RunFiles>) -> Result<()> {
        let read = |file: &str| {
            crate::output::read_bounded(&dir.join(file), crate::output::MAX_RECORDS_BYTES)
        };
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

/// Before a large recipe (more than a million deals a cell, or exhaustive runs of more than 10^8
/// arrangements): the time estimated from a short sample of every cell, printed, and a run of
/// more than [`crate::search::MAX_DAYS`] days refused unless `no_limit`.
fn estimate(recipe: &Recipe, threads: usize, no_limit: bool) -> Result<()> {
    let large = match recipe {
        Recipe::Durations(d) => d.deals > 1_000_000 || d.exact > 100_000_000,
        Recipe::Duels(d) => d.deals > 1_000_000,
        _ => false,
    };
    if !large {
        return Ok(());
    }
    let workers =
        if threads == 0 { crate::checks::cores() } else { threads.min(crate::checks::cores()) };
    let Some(secs) = bataille_experiment::estimated_seconds(
        recipe,
        workers,
        std::time::Duration::from_millis(40),
    ) else {
        return Ok(());
    };
    eprintln!(
        "estimate:  {} on {workers} threads (the speed of each cell measured on a sample)",
        human_duration(secs)
    );
    if secs / 86_400.0 > crate::search::MAX_DAYS && !no_limit {
        bail!(
            "the recipe would take about {}, more than the limit of {} days: lower --deals, or \
             pass --no-estimate-limit to run it anyway",
            human_duration(secs),
            crate::search::MAX_DAYS
        );
    }
    Ok(())
}

/// Removes everything in the staging directory `dir` but its lock file (what a run killed before
/// it finished left there).
fn clear_except_lock(dir: &Path) -> Result<()> {
    for entry in fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let path = entry?.path();
        if path.file_name().is_some_and(|n| n == crate::output::LOCK_NAME) {
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
        let Some(file) = path.file_name().filter(|n| *n != crate::output::LOCK_NAME) else {
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

fn output_of(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn toolchain() -> String {
    output_of("rustc", &["--version"]).unwrap_or_else(|| "unknown".to_string())
}
