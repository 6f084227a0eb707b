//! One run of the search harness, shared by `explore`, `hunt` and `bmn explore`: the run flags
//! validated into a [`RunConfig`] (no I/O), then [`run_search`]: checkpoints, progress, the
//! output directory and the terminal summary.
//!
//! Before a long run (more than [`ESTIMATE_FROM`] deals) the time is estimated from a short
//! sample, and a run estimated at more than [`MAX_DAYS`] days is refused unless
//! `--no-estimate-limit` is given.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use bataille_runs::files::Words;
use bataille_runs::search::{SearchRun, result_files};
use bataille_search::{DealGame, Mode, Options, Plan, Shard, Silent, State, explore, sample_speed};

use crate::args::RunArgs;
use crate::checks::{at_most, cores};
use crate::output::progress::{ExploreProgress, human_duration};
use crate::output::stop::{EXIT_INTERRUPTED, on_interrupt};
use crate::output::{OutputFiles, command_line};

/// The largest `--top`: each worker keeps that many games per measure in every batch.
pub(crate) const MAX_TOP: u64 = 10_000;

/// Runs of more deals than this get a time estimate before they start (fewer deals take less
/// than a minute even on the largest deck, where a game lasts milliseconds).
pub(crate) const ESTIMATE_FROM: u128 = 10_000;
/// An estimate is printed when the run should last longer than this (seconds).
pub(crate) const SHOW_ESTIMATE_FROM: f64 = 60.0;
/// Runs estimated at more days than this are refused without `--no-estimate-limit`.
pub(crate) use bataille_runs::progress::MAX_DAYS;

/// The result files (all but the metadata) of `state`, and the terminal summary.
pub(crate) fn results<G: DealGame>(
    dir: &Path,
    game: &G,
    plan: &Plan,
    state: &State,
) -> Result<(OutputFiles, String)> {
    Ok(result_files(dir, game, plan, state)?)
}

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
    /// Whether a run estimated at more than [`MAX_DAYS`] days may start.
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

/// How long the sample of a dry run lasts, at least (or the whole shard, when it is shorter).
const SAMPLE: Duration = Duration::from_secs(1);

/// `--dry-run`: plays the shard's first units (doubling their number until the sample has
/// lasted [`SAMPLE`], or the shard is done) on the run's threads, then prints what the whole
/// shard and run would cost at that speed: time, core-hours, this process's peak memory, and
/// the size of the sample's result files. The last line, `cost: key=value ...`, is for
/// scripts (the SLURM launcher reads it). Nothing is written.
fn dry_run<G: DealGame>(game: &G, run: &RunConfig) -> Result<ExitCode> {
    let (plan, shard) = (&run.plan, run.shard);
    let threads = if run.threads == 0 { cores() } else { run.threads };
    let never = std::sync::atomic::AtomicBool::new(false);
    let started = Instant::now();
    let (mut state, mut played, mut batch) = (None, 0u64, 1u64);
    let state = loop {
        let options = Options {
            threads: run.threads,
            checkpoint_every: Duration::from_secs(3600),
            max_units: Some(batch),
        };
        let ended = explore(game, plan, shard, state.take(), &options, &Silent, &never)?;
        played += ended.deals_played;
        if !ended.interrupted || started.elapsed() >= SAMPLE {
            break ended.state;
        }
        state = Some(ended.state);
        batch *= 2;
    };
    let elapsed = started.elapsed().as_secs_f64().max(1e-9);
    let units = plan.key().units.max(1);
    let shard_units = shard.units(units);
    let sampled = state.done.len();
    let shard_deals = plan.deals() as f64 * shard_units as f64 / units as f64;
    let per_s = played as f64 / elapsed;
    // The shard at the sample's speed; the whole run as `shard.count()` such shards.
    let secs = if sampled >= shard_units { elapsed } else { shard_deals / per_s.max(1e-9) };
    let core_hours = secs * threads as f64 / 3600.0;
    let (files, _) = results(Path::new("."), game, plan, &state)?;
    let output: usize = files.sizes().map(|(_, n)| n).sum::<usize>() + METADATA_BYTES;
    let memory = peak_memory();
    let items = game.items();
    let on = if threads == 1 { "1 thread".to_string() } else { format!("{threads} threads") };
    let key = plan.key();
    println!("dry run:   {} — {} (seed {}), shard {shard}", key.game, key.mode, key.seed);
    println!(
        "sample:    {sampled} of the shard's {shard_units} units, {played} {items} in \
         {elapsed:.2} s on {on}: {per_s:.0} {items}/s"
    );
    println!(
        "shard:     {shard_deals:.3e} {items}: about {} on {on} ({core_hours:.3} core-hours)",
        human_duration(secs)
    );
    println!(
        "run:       {} shards: {:.3} core-hours in all; on {} cores at once, about {}",
        shard.count(),
        core_hours * shard.count() as f64,
        threads as u64 * shard.count(),
        human_duration(secs)
    );
    println!(
        "memory:    {} MB at most in this process (the sample's workers included)",
        memory.div_ceil(1 << 20)
    );
    println!(
        "output:    about {} kB per shard (the sample's files; cycles.csv and loops.csv grow \
         with the distinct loops found)",
        output.div_ceil(1000)
    );
    println!(
        "cost: units={shard_units} deals={shard_deals:.0} seconds={secs:.1} threads={threads} \
         core_hours={core_hours:.4} memory_bytes={memory} output_bytes={output}"
    );
    Ok(ExitCode::SUCCESS)
}

/// About the size of a run's `metadata.csv` (the command line aside, which is as long as typed).
const METADATA_BYTES: usize = 400;

/// The peak resident memory of this process, in bytes (0 where it cannot be read).
fn peak_memory() -> u64 {
    #[cfg(unix)]
    {
        // SAFETY: getrusage only writes the struct it is given, which is zeroed and owned here.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } == 0 {
            // Kilobytes on Linux.
            return u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024;
        }
    }
    0
}

/// Before a run of more than [`ESTIMATE_FROM`] deals: measures the speed on a short sample (a
/// time, not a count: the largest decks play a few deals in it; 20 ms, then 300 ms when the
/// first puts the run above a quarter of a minute), prints the estimated time
/// when it is more than a minute, and refuses a run estimated at more than [`MAX_DAYS`] days
/// unless `no_limit`.
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

/// The time estimate of playing `deals` deals of `game` on `threads` threads (0: one per
/// core), printed when it is long; a run beyond the limit of days is refused unless
/// `no_limit`, saying how to make it shorter (`shorter`). (Also for `records search`, whose
/// iterations are deals of the game.)
pub(crate) fn estimate_deals<G: DealGame>(
    game: &G,
    deals: f64,
    threads: usize,
    no_limit: bool,
    shorter: &str,
) -> Result<()> {
    let threads = if threads == 0 { cores() } else { threads };
    if deals < ESTIMATE_FROM as f64 {
        return Ok(());
    }
    // Threads beyond the cores add nothing.
    let workers = threads.min(cores()).max(1);
    // A quick sample first: a run it puts well under the minute is not worth a longer one
    // (the sample's time is spent before every run).
    let quick = sample_speed(game, Duration::from_millis(20));
    if deals / (quick * workers as f64) < SHOW_ESTIMATE_FROM / 4.0 {
        return Ok(());
    }
    let speed = sample_speed(game, Duration::from_millis(300));
    let secs = deals / (speed * workers as f64);
    let days = secs / 86_400.0;
    let on = if workers == 1 { "1 thread".to_string() } else { format!("{workers} threads") };
    if secs < SHOW_ESTIMATE_FROM {
        return Ok(());
    }
    eprintln!(
        "estimate:  {} for {deals:.3e} {items} at about {speed:.0} {items}/s per thread on {on} \
         (measured on a sample)",
        human_duration(secs),
        items = game.items()
    );
    if days > MAX_DAYS && !no_limit {
        bail!(
            "the run would take about {} ({deals:.3e} {items} on {on}), more than the limit of \
             {MAX_DAYS} days: {shorter}, or pass --no-estimate-limit to run it anyway",
            human_duration(secs),
            items = game.items()
        );
    }
    Ok(())
}
