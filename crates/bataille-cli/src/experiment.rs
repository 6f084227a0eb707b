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
use bataille_experiment::{Recipe, Settings, records};
use clap::{Args, Subcommand};

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
    let started = Instant::now();
    let output = match &recipe {
        Recipe::Records(r) => {
            let read = |p: PathBuf| -> Result<Option<String>> {
                crate::output::read_bounded(&p, crate::output::MAX_RECORDS_BYTES)
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
            let settings = Settings { threads: args.threads };
            bataille_experiment::run(&recipe, &settings, &mut |line| {
                eprintln!("experiment {name}: {line}");
            })?
        }
    };
    let elapsed = started.elapsed().as_secs_f64();
    fs::create_dir_all(&out_dir).with_context(|| format!("cannot create {}", out_dir.display()))?;
    for (file, bytes) in &output.files {
        let p = out_dir.join(file);
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
        path.display(),
        recipe.kind(),
        recipe.seed().map_or("none (no random deals)".to_string(), |s| s.to_string()),
        commit(),
        toolchain(),
        machine(),
    );
    crate::output::write_atomic(&out_dir.join("NOTE.md"), note.as_bytes())
        .context("cannot write the results")?;
    print!("{}", output.summary);
    println!("\nwritten to {} in {elapsed:.1} s", out_dir.display());
    Ok(ExitCode::SUCCESS)
}

/// Every `summary.csv` under `dir` (named `source/...` after the folder), depth first in name
/// order, at most 6 levels down.
fn collect_summaries(dir: &Path, source: &str, out: &mut Vec<(String, String)>) -> Result<()> {
    fn walk(dir: &Path, name: &str, depth: usize, out: &mut Vec<(String, String)>) -> Result<()> {
        let summary = dir.join("summary.csv");
        if let Some(text) = crate::output::read_bounded(&summary, crate::output::MAX_RECORDS_BYTES)?
        {
            out.push((name.to_string(), text));
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

fn output_of(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn toolchain() -> String {
    output_of("rustc", &["--version"]).unwrap_or_else(|| "unknown".to_string())
}
