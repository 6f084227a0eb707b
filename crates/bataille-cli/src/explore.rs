//! `bataille explore` and `bataille merge`: the search harness on the command line.
//!
//! `explore` validates its flags into a [`bataille_search::Plan`], runs it with a progress bar
//! (plain periodic lines when stderr is not a terminal), saves checkpoints atomically
//! (temporary file, fsync, rename) every `--checkpoint-every` seconds and on Ctrl-C, and writes
//! the output directory:
//!
//! - `summary.csv`, `histograms.csv`, `records.csv`, `cycles.csv` (and `loops.csv` for
//!   `bataille hunt`): the results (columns in [`bataille_search::report`]); byte-identical
//!   for the same work whatever `--threads`, and for merged shards;
//! - `state.txt`: the machine-readable state that `merge` reads (also identical);
//! - `metadata.csv`: command, version, threads, shard, elapsed time, speed: the only file that
//!   differs between runs.
//!
//! The output directory must be empty, or this run's own (`--resume`), or `--replace` must be
//! given; its files are written together (see [`crate::output`]). Before a long run (more
//! than [`bataille_runs::cost::ESTIMATE_FROM`] deals) the time is estimated from a short sample, and
//! a run estimated at more than [`bataille_runs::progress::MAX_DAYS`] days is refused unless
//! `--no-estimate-limit` is given. The run itself is [`crate::search`]'s, shared with `hunt`
//! and `bmn explore`.
//!
//! Exit codes: 0 done, 2 bad input (a refusal, or `merge` of an incomplete set of shards
//! without `--partial`), 130 interrupted by Ctrl-C or SIGTERM (the checkpoint and the partial
//! results are saved; `--resume` continues).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use bataille_engine::Limits;
use bataille_records::row::FoundBy;
use bataille_runs::files::Words;
use bataille_runs::records::append_longest;
use bataille_search::{Bataille, State};
use clap::Args;

use crate::args::{DeckArgs, RunArgs, max_tricks};
use crate::output::{Terminal, check_records_file, command_line, commit, machine, replay_command};
use crate::search::{RunConfig, run_search};

/// Flags of `bataille explore`.
#[derive(Debug, Args)]
pub(crate) struct ExploreArgs {
    #[command(flatten)]
    deck: DeckArgs,
    /// Stop each game after this many tricks (default: none for deterministic methods,
    /// 10,000,000 with a random method).
    #[arg(long)]
    max_tricks: Option<u64>,
    /// Append the longest finished game by tricks and by cards to this records file (e.g.
    /// results/records.csv) with the command, seed, commit and machine, once the run is
    /// complete. Deterministic methods only: `bataille verify` replays every row.
    #[arg(long, value_name = "FILE")]
    records: Option<PathBuf>,
    #[command(flatten)]
    run: RunArgs,
}

/// Flags of `bataille merge`.
#[derive(Debug, Args)]
pub(crate) struct MergeArgs {
    /// Output directories of `explore --shard` runs of one search.
    #[arg(required = true, value_name = "DIR")]
    parts: Vec<PathBuf>,
    /// Output directory of the merged results (empty, unless --replace is given).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Replace the results in a non-empty --out directory.
    #[arg(long)]
    replace: bool,
    /// Accept parts that do not cover the whole run (shards missing or unfinished): the
    /// merged results are then partial, and say so.
    #[arg(long)]
    partial: bool,
}

pub(crate) fn run(args: ExploreArgs) -> Result<ExitCode> {
    let (spec, methods) = args.deck.validate()?;
    let mut limits = Limits::default_for(methods);
    if let Some(max) = max_tricks(args.max_tricks)? {
        limits.max_tricks = max;
    }
    let game = Bataille::new(spec, methods, limits);
    let run = RunConfig::new(&game, &args.run, 0)?;
    let Some(path) = &args.records else { return run_search(&game, &run, None) };
    if !methods.is_deterministic() {
        bail!(
            "--records needs deterministic stacking methods ({methods} has a random one): \
             `bataille verify` replays every row of the records file"
        );
    }
    // Checked before any work, so that a long run does not end on a bad path.
    crate::output::check_outside_outputs("--records", path, run.out())?;
    crate::output::files::check_records_apart(path, args.run.checkpoint.as_deref())?;
    check_records_file(path)?;
    // Where the run starts: the working directory may move on during a long run. The date is
    // the end's.
    let found_by = FoundBy {
        seed: args.run.random.is_some().then_some(args.run.seed),
        command: replay_command(),
        commit: commit(),
        machine: machine(),
        date: String::new(),
    };
    let append = |state: &State| -> Result<()> {
        let run = (&game, spec, methods);
        Ok(append_longest(path, run, &found_by, state, "--top", &Terminal)?)
    };
    run_search(&game, &run, Some(&append))
}

pub(crate) fn merge(args: MergeArgs) -> Result<ExitCode> {
    let merged = bataille_runs::merge::merge(
        &args.parts,
        &args.out,
        args.replace,
        args.partial,
        command_line(),
        &Words::CLI,
    )?;
    print!("{}", merged.summary);
    println!("results:   {}", args.out.display());
    if let Some(missing) = merged.missing {
        println!("partial:   {missing} (--partial)");
    }
    Ok(ExitCode::SUCCESS)
}
