//! One run of the search harness, shared by `explore`, `hunt` and `bmn explore`: the run flags
//! validated into a [`RunConfig`] (no I/O), then [`run_search`]: checkpoints, progress, the
//! output directory and the terminal summary.
//!
//! Before a long run (more than [`bataille_runs::cost::ESTIMATE_FROM`] deals) the time is estimated from a short
//! sample, and a run estimated at more than [`bataille_runs::progress::MAX_DAYS`] days is refused unless
//! `--no-estimate-limit` is given.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Result, bail};
use bataille_runs::cost;
use bataille_runs::files::Words;
use bataille_runs::search::SearchRun;
use bataille_search::{DealGame, Mode, Options, Plan, Shard, State};

use crate::args::RunArgs;
use crate::checks::{at_most, cores};
use crate::output::progress::ExploreProgress;
use crate::output::stop::{EXIT_INTERRUPTED, on_interrupt};
use crate::output::{Terminal, command_line};

/// The largest `--top`: each worker keeps that many games per measure in every batch.
pub(crate) const MAX_TOP: u64 = 10_000;

/// What to do with the results of a complete run (not called for an interrupted one).
pub(crate) type OnComplete<'a> = &'a dyn Fn(&State) -> Result<()>;

/// A run of the search harness as [`RunArgs`] asked for it, validated against its game.
pub(crate) struct RunConfig {
    /// The deals, their work units, what is kept.
    plan: Plan,
    /// The part of the run to do.
    shard: Shard,
    /// Worker threads (0: one per core).
    threads: usize,
    /// Where checkpoints go, and whether to resume from there.
    checkpoint: Option<PathBuf>,
    resume: bool,
    checkpoint_every: Duration,
    /// The output directory, and whether its results may be replaced.
    out: PathBuf,
    replace: bool,
    /// Whether a run estimated at more than [`bataille_runs::progress::MAX_DAYS`] days may start.
    no_estimate_limit: bool,
    /// Stop after this many units, as if interrupted (tests).
    max_units: Option<u64>,
    /// Measure the cost on a sample and stop.
    dry_run: bool,
    /// `hunt` or `explore`, for the progress display.
    name: &'static str,
    /// Files written beside the results (a position hunt's seeds).
    extra_files: Vec<(&'static str, Vec<u8>)>,
}

impl RunConfig {
    /// Validates `args` for `game`. With `loop_deals` > 0 (a hunt) each loop also keeps its
    /// `loop_deals` smallest deals, written to `loops.csv`.
    pub(crate) fn new<G: DealGame>(game: &G, args: &RunArgs, loop_deals: usize) -> Result<Self> {
        let mode = match args.random {
            Some(0) => bail!("--random must be at least 1 deal, got 0"),
            Some(deals) => Mode::Random { deals },
            None => Mode::Exhaustive,
        };
        at_most("--top", args.top, MAX_TOP, "the longest games kept by every worker")?;
        let max_cycles = args.max_cycles.map_or(0, |k| usize::try_from(k).unwrap_or(usize::MAX));
        let plan = Plan::new(game, mode, args.seed, args.top as usize)?
            .keeping_loop_deals(loop_deals)
            .keeping_cycles(max_cycles);
        if let Some(shard) = args.shard
            && shard.count() > plan.key().units
        {
            let units = plan.key().units;
            bail!(
                "--shard {shard}: the run has {units} work unit{}, fewer than {} shards (some \
                 shards would have nothing to do): use at most {units} shard{}",
                if units == 1 { "" } else { "s" },
                shard.count(),
                if units == 1 { "" } else { "s" },
            );
        }
        Ok(RunConfig {
            plan,
            shard: args.shard.unwrap_or(Shard::WHOLE),
            threads: args.threads,
            checkpoint: args.checkpoint.clone(),
            resume: args.resume,
            checkpoint_every: Duration::from_secs(args.checkpoint_every.max(1)),
            out: args.out.clone(),
            replace: args.replace,
            no_estimate_limit: args.no_estimate_limit,
            max_units: args.max_units,
            dry_run: args.dry_run,
            name: if loop_deals > 0 { "hunt" } else { "explore" },
            extra_files: Vec::new(),
        })
    }

    /// The same run, also writing the file `name` with `bytes` beside its results, and showing
    /// `display` in its progress.
    pub(crate) fn with_file(mut self, name: &'static str, bytes: Vec<u8>) -> Self {
        self.extra_files.push((name, bytes));
        self
    }

    /// The same run, named `name` in its progress display.
    pub(crate) fn named(mut self, name: &'static str) -> Self {
        self.name = name;
        self
    }

    /// The output directory.
    pub(crate) fn out(&self) -> &Path {
        &self.out
    }
}

/// Runs `run` on `game`: the checkpoint resumed, the time estimated, the output directory
/// prepared, then the deals explored with progress and checkpoints, the output files written
/// and the summary printed (the steps of [`SearchRun`]). `on_complete` runs after the output
/// files are written, when the run (or shard) is complete.
pub(crate) fn run_search<G: DealGame>(
    game: &G,
    run: &RunConfig,
    on_complete: Option<OnComplete<'_>>,
) -> Result<ExitCode> {
    let search = SearchRun {
        game,
        plan: &run.plan,
        shard: run.shard,
        options: Options {
            threads: run.threads,
            checkpoint_every: run.checkpoint_every,
            max_units: run.max_units,
        },
        checkpoint: run.checkpoint.clone(),
        resume: run.resume,
        out: run.out.clone(),
        replace: run.replace,
        words: Words::CLI,
    };
    if run.dry_run {
        return dry_run(game, run);
    }
    let resume = search.resume_from()?;
    let threads = if run.threads == 0 { cores() } else { run.threads };
    let done = resume.as_ref().map_or(0, |s| s.done.len());
    estimate(game, &run.plan, run.shard, done, threads, run.no_estimate_limit)?;
    let _outputs = search.prepare()?;

    // The first Ctrl-C (or SIGTERM) asks the workers to stop: they abandon their current units
    // within milliseconds (those are played again on resume); a second one quits at once.
    let stop = on_interrupt("bataille: stopping (Ctrl-C again to quit at once)");
    let progress = ExploreProgress::new(run.name, game.items());
    let finished = search.explore(resume, &progress, stop)?;
    progress.finish();
    let summary = search.write(&finished, command_line(), threads, &run.extra_files)?;
    let (ended, elapsed) = (&finished.ended, finished.elapsed);
    print!("{summary}");
    println!(
        "time:      {elapsed:.2} s, {} {items} played, {:.0} {items}/s on {threads} threads",
        ended.deals_played,
        ended.deals_played as f64 / elapsed.max(1e-9),
        items = game.items()
    );
    println!("results:   {}", run.out.display());
    if ended.interrupted {
        match &run.checkpoint {
            Some(path) => {
                println!(
                    "stopped before the end: continue with --resume (checkpoint {})",
                    path.display()
                )
            }
            None => println!("stopped before the end (no --checkpoint: the results are partial)"),
        }
        return Ok(ExitCode::from(EXIT_INTERRUPTED));
    }
    if let Some(f) = on_complete {
        f(&ended.state)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `--dry-run`: plays a sample of the shard and prints what the whole shard and run would cost
/// ([`bataille_runs::cost::dry_run`]); the last line, `cost: key=value ...`, is for scripts
/// (the SLURM launcher reads it). Nothing is written.
fn dry_run<G: DealGame>(game: &G, run: &RunConfig) -> Result<ExitCode> {
    print!("{}", cost::dry_run(game, &run.plan, run.shard, run.threads)?.report());
    Ok(ExitCode::SUCCESS)
}

/// Before a run of more than [`bataille_runs::cost::ESTIMATE_FROM`] deals: the time estimated on a sample, printed
/// when it is more than a minute, and a run of more than [`bataille_runs::progress::MAX_DAYS`] days refused unless
/// `no_limit`.
fn estimate<G: DealGame>(
    game: &G,
    plan: &Plan,
    shard: Shard,
    done_units: u64,
    threads: usize,
    no_limit: bool,
) -> Result<()> {
    let units = plan.key().units.max(1);
    let pending = shard.units(units).saturating_sub(done_units);
    let deals = plan.deals() as f64 * pending as f64 / units as f64;
    estimate_deals(game, deals, threads, no_limit, "split it with --shard K/N across machines")
}

/// [`cost::estimate_deals`] on the terminal, with `--no-estimate-limit` to lift the limit.
/// (Also for `records search`, whose iterations are deals of the game.)
pub(crate) fn estimate_deals<G: DealGame>(
    game: &G,
    deals: f64,
    threads: usize,
    no_limit: bool,
    shorter: &str,
) -> Result<()> {
    let lift = (no_limit, "--no-estimate-limit");
    Ok(cost::estimate_deals(game, deals, threads, lift, shorter, &Terminal)?)
}
