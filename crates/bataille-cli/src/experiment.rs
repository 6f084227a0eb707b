//! `bataille experiment run RECIPE`: regenerates one of the article's tables from a recipe in
//! `experiments/` (format in [`bataille_experiment::recipe`]) into `results/<name>/`, with a
//! `NOTE.md` saying what produced them: the run of [`bataille_runs::experiment`], with a
//! progress bar and its summary printed. Everything but the note is identical for the same
//! recipe whatever `--threads`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use bataille_experiment::Recipe;
use bataille_runs::experiment::Experiment;
use bataille_runs::files::Words;
use clap::{Args, Subcommand};

use crate::output::progress::ExploreProgress;
use crate::output::{Terminal, command_line};

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

fn run_recipe(args: RunArgs) -> Result<ExitCode> {
    let words = Words::CLI;
    let experiment =
        Experiment::read(&args.recipe, args.deals, &args.results, args.replace, &words)?;
    if !matches!(experiment.recipe, Recipe::Records(_) | Recipe::LoopRates(_)) {
        experiment.estimate(args.threads, args.no_estimate_limit, &Terminal)?;
    }
    let progress = ExploreProgress::new("experiment", "deals");
    let summary = experiment.run(args.threads, &progress, &command_line(), &Terminal);
    progress.finish();
    print!("{}", summary?);
    Ok(ExitCode::SUCCESS)
}
