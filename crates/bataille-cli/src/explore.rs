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
//! than [`ESTIMATE_FROM`] deals) the time is estimated from a short sample, and a run
//! estimated at more than [`MAX_DAYS`] days is refused unless `--no-estimate-limit` is given.
//!
//! Exit codes: 0 done, 2 bad input (a refusal, or `merge` of an incomplete set of shards
//! without `--partial`), 130 interrupted by Ctrl-C or SIGTERM (the checkpoint and the partial
//! results are saved; `--resume` continues).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use bataille_engine::{DeckSpec, Limits, Methods};
use bataille_search::bmn::Bmn;
use bataille_search::records::{RecordRow, check_row};
use bataille_search::{
    Bataille, DealGame, Mode, Options, Plan, Shard, State, explore, report, sample_speed,
};
use clap::Args;

use crate::checks::{at_most, cores};
use crate::output::progress::ExploreProgress;
use crate::output::stop::{EXIT_INTERRUPTED, on_interrupt};
use crate::output::{
    OutputFiles, append_records, command_line, commit, machine, prepare_outputs, replay_command,
    utc_now,
};
use crate::play::parse_methods;

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

/// The deck and stacking-method flags of `explore`, `hunt` and `records search`.
#[derive(Debug, Args)]
pub(crate) struct DeckArgs {
    /// Number of colours C (copies of each value).
    #[arg(long, short = 'c')]
    pub(crate) colours: usize,
    /// Number of values V.
    #[arg(long, short = 'v')]
    pub(crate) values: usize,
    /// Stacking method of the first player (and of the second unless --method2 is given):
    /// natural, optimized, random, ascending, first-player-first.
    #[arg(long, short, default_value = "natural")]
    pub(crate) method: String,
    /// Stacking method of the second player.
    #[arg(long)]
    pub(crate) method2: Option<String>,
}

impl DeckArgs {
    /// The validated deck and methods.
    pub(crate) fn validate(&self) -> Result<(DeckSpec, Methods)> {
        let spec = DeckSpec::new(self.colours, self.values)?;
        Ok((spec, parse_methods(&self.method, self.method2.as_deref())?))
    }
}

/// Flags shared by every command that explores deals (`explore`, `bmn explore`).
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("mode").required(true).args(["exhaustive", "random"])))]
pub(crate) struct RunArgs {
    /// Play every deal once (one per mirror pair when the players are interchangeable).
    #[arg(long, conflicts_with = "random")]
    exhaustive: bool,
    /// Play this many uniformly random deals.
    #[arg(long, value_name = "N")]
    random: Option<u64>,
    /// Seed of the random deals and of the random stacking method.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (default: one per core; at most 8 per core).
    #[arg(long, default_value_t = 0, value_parser = crate::checks::threads)]
    threads: usize,
    /// Run only the K-th of N disjoint parts (1 ≤ K ≤ N), to combine later with `merge`.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Save progress to this file periodically and on Ctrl-C.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Continue from the --checkpoint file.
    #[arg(long, requires = "checkpoint")]
    resume: bool,
    /// Seconds between checkpoints.
    #[arg(long, default_value_t = 60, value_name = "SECS")]
    checkpoint_every: u64,
    /// How many longest games to keep, by tricks and by cards (at most 10,000).
    #[arg(long, default_value_t = 10)]
    top: u64,
    /// Keep at most this many distinct cycles (default: all): those of smallest rank, a
    /// uniform sample whose counts stay exact; the summary then estimates how many distinct
    /// cycles there are. Bounds the memory, checkpoints and cycles.csv of runs that reach
    /// millions of them.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    max_cycles: Option<u64>,
    /// Output directory (created if needed). It must be empty, or hold this run's own
    /// results (with --resume), unless --replace is given.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Replace the results in a non-empty --out directory.
    #[arg(long)]
    replace: bool,
    /// Run even when the estimated time is more than 30 days.
    #[arg(long)]
    no_estimate_limit: bool,
    /// Stop after this many work units, as if interrupted (for tests of --resume).
    #[arg(long, hide = true)]
    max_units: Option<u64>,
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

pub(crate) fn parse_shard(text: &str) -> Result<Shard> {
    let parsed = text.split_once('/').and_then(|(k, n)| Some((k.parse().ok()?, n.parse().ok()?)));
    parsed.and_then(|(k, n)| Shard::new(k, n)).with_context(|| {
        format!(
            "invalid shard {}: expected K/N with 1 ≤ K ≤ N, e.g. 3/8",
            crate::checks::shown(text)
        )
    })
}

/// The largest `--top`: each worker keeps that many games per measure in every batch.
pub(crate) const MAX_TOP: u64 = 10_000;

/// Runs of more deals than this get a time estimate before they start.
pub(crate) const ESTIMATE_FROM: u128 = 1 << 30;
/// Runs estimated at more days than this are refused without `--no-estimate-limit`.
pub(crate) const MAX_DAYS: f64 = 30.0;

/// The result files (all but the metadata) of `state`, and the terminal summary.
fn results<G: DealGame>(
    dir: &Path,
    game: &G,
    plan: &Plan,
    state: &State,
) -> Result<(OutputFiles, String)> {
    let mut files = OutputFiles::new(dir);
    let cycles = report::cycle_rows(game, state);
    let mut add = |name: &'static str, write: &dyn Fn(&mut Vec<u8>) -> Result<()>| -> Result<()> {
        let mut bytes = Vec::new();
        write(&mut bytes).with_context(|| format!("cannot write {}", dir.join(name).display()))?;
        files.add(name, bytes);
        Ok(())
    };
    add("summary.csv", &|w| Ok(report::write_summary(game, state, plan.deals(), w)?))?;
    add("histograms.csv", &|w| Ok(report::write_histograms(state, w)?))?;
    add("records.csv", &|w| Ok(report::write_records(game, state, w)?))?;
    add("cycles.csv", &|w| Ok(report::write_cycles(&cycles, w)?))?;
    if state.key.loop_deals > 0 {
        add("loops.csv", &|w| Ok(report::write_loops(game, state, &cycles, w)?))?;
    }
    files.add("state.txt", state.encode().into_bytes());
    Ok((files, report::human_summary(game, state, &cycles)))
}

pub(crate) fn run(args: ExploreArgs) -> Result<ExitCode> {
    let (spec, methods) = args.deck.validate()?;
    let mut limits = Limits::default_for(methods);
    if let Some(max) = args.max_tricks {
        if max == 0 {
            bail!("--max-tricks must be at least 1, got 0");
        }
        limits.max_tricks = max;
    }
    let game = Bataille::new(spec, methods, limits);
    let Some(path) = &args.records else { return run_search(&game, &args.run, 0, None) };
    if !methods.is_deterministic() {
        bail!(
            "--records needs deterministic stacking methods ({methods} has a random one): \
             `bataille verify` replays every row of the records file"
        );
    }
    // Checked before any work, so that a long run does not end on a bad path.
    crate::output::check_outside_outputs("--records", path, &args.run.out)?;
    crate::records::check_records_file(path)?;
    let seed = if args.run.random.is_some() { args.run.seed.to_string() } else { "-".to_string() };
    // Where the run starts: the working directory may move on during a long run.
    let found_by = Provenance { command: replay_command(), commit: commit(), machine: machine() };
    let append =
        |state: &State| append_longest(path, spec, methods, &seed, &found_by, &game, state);
    run_search(&game, &args.run, 0, Some(&append))
}

/// The command, commit and machine of a run, for the records file.
struct Provenance {
    command: String,
    commit: String,
    machine: String,
}

/// Appends the longest finished game of `state` by tricks and by cards to the records file,
/// each replayed first.
fn append_longest(
    path: &Path,
    spec: DeckSpec,
    methods: Methods,
    seed: &str,
    found_by: &Provenance,
    game: &Bataille,
    state: &State,
) -> Result<()> {
    let date = utc_now();
    let mut rows = Vec::new();
    for list in [&state.stats.longest_by_tricks, &state.stats.longest_by_cards] {
        let Some(best) = list.entries().first() else { continue };
        let deal = game.deal_text(&best.deal);
        let row = RecordRow {
            colours: spec.colours(),
            values: spec.values(),
            methods,
            tricks: best.tricks,
            cards: best.cards,
            deal: deal.parse().with_context(|| format!("internal error: deal {deal}"))?,
        };
        check_row(&row).with_context(|| format!("internal error: {deal} does not replay"))?;
        rows.push([
            spec.colours().to_string(),
            spec.values().to_string(),
            methods.to_string(),
            list.measure().name().to_string(),
            best.tricks.to_string(),
            best.cards.to_string(),
            deal,
            seed.to_string(),
            found_by.command.clone(),
            found_by.commit.clone(),
            found_by.machine.clone(),
            date.clone(),
        ]);
    }
    if rows.is_empty() {
        println!("records:   no finished game to append");
        return Ok(());
    }
    append_records(path, &rows)?;
    println!("records:   longest games appended to {}", path.display());
    Ok(())
}

/// What to do with the results of a complete run (not called for an interrupted one).
pub(crate) type OnComplete<'a> = &'a dyn Fn(&State) -> Result<()>;

/// Explores the deals of `game` as `args` say: validation of the run flags, checkpoints,
/// progress, output files and the terminal summary. With `loop_deals` > 0 (a hunt) each loop
/// also keeps its `loop_deals` smallest deals, written to `loops.csv`. `on_complete` runs
/// after the output files are written, when the run (or shard) is complete.
pub(crate) fn run_search<G: DealGame>(
    game: &G,
    args: &RunArgs,
    loop_deals: usize,
    on_complete: Option<OnComplete<'_>>,
) -> Result<ExitCode> {
    let mode = match args.random {
        Some(0) => bail!("--random must be at least 1 deal, got 0"),
        Some(deals) => Mode::Random { deals },
        None => Mode::Exhaustive,
    };
    let shard = args.shard.as_deref().map(parse_shard).transpose()?.unwrap_or(Shard::WHOLE);
    at_most("--top", args.top, MAX_TOP, "the longest games kept by every worker")?;
    let max_cycles = args.max_cycles.map_or(0, |k| usize::try_from(k).unwrap_or(usize::MAX));
    let plan = Plan::new(game, mode, args.seed, args.top as usize)?
        .keeping_loop_deals(loop_deals)
        .keeping_cycles(max_cycles);
    let name = if loop_deals > 0 { "hunt" } else { "explore" };
    let resume = match (&args.checkpoint, args.resume) {
        (Some(path), true) => {
            let text = crate::output::read_bounded(path, crate::output::MAX_STATE_BYTES)?
                .with_context(|| {
                    format!("cannot read the checkpoint {}: it does not exist", path.display())
                })?;
            let state = State::decode(&text)
                .with_context(|| format!("cannot resume from {}", path.display()))?;
            state
                .check_resumable(plan.key(), shard)
                .with_context(|| format!("cannot resume from {}", path.display()))?;
            Some(state)
        }
        _ => None,
    };
    let resumed = resume.is_some();
    let own = |dir: &Path| {
        crate::output::read_bounded(&dir.join("state.txt"), crate::output::MAX_STATE_BYTES)
            .ok()
            .flatten()
            .and_then(|text| State::decode(&text).ok())
            .is_some_and(|s| s.check_resumable(plan.key(), shard).is_ok())
    };
    let threads = if args.threads == 0 { rayon_threads() } else { args.threads };
    let done = resume.as_ref().map_or(0, |s| s.done.len());
    estimate(game, &plan, shard, done, threads, args.no_estimate_limit)?;
    prepare_outputs(args.checkpoint.as_deref(), args.resume, &args.out, args.replace, &own)?;

    // The first Ctrl-C (or SIGTERM) asks the workers to stop: they abandon their current units
    // within milliseconds (those are played again on resume); a second one quits at once.
    let stop = on_interrupt("bataille: stopping (Ctrl-C again to quit at once)");
    let options = Options {
        threads: args.threads,
        checkpoint_every: Duration::from_secs(args.checkpoint_every.max(1)),
        max_units: args.max_units,
    };
    let progress = ExploreProgress::new(name, args.checkpoint.clone());
    let started = Instant::now();
    let ended = explore(game, &plan, shard, resume, &options, &progress, stop)?;
    let elapsed = started.elapsed().as_secs_f64();
    progress.finish();

    let (mut files, summary) = results(&args.out, game, &plan, &ended.state)?;
    files.add_key_values(
        "metadata.csv",
        &[
            ("command", command_line()),
            ("version", env!("CARGO_PKG_VERSION").to_string()),
            ("seed", args.seed.to_string()),
            ("threads", threads.to_string()),
            ("shard", shard.to_string()),
            ("resumed", resumed.to_string()),
            ("elapsed_s", format!("{elapsed:.3}")),
            ("deals_played", ended.deals_played.to_string()),
            ("deals_per_s", format!("{:.0}", ended.deals_played as f64 / elapsed.max(1e-9))),
        ],
    );
    files.commit()?;
    print!("{summary}");
    println!(
        "time:      {elapsed:.2} s, {} deals played, {:.0} deals/s on {threads} threads",
        ended.deals_played,
        ended.deals_played as f64 / elapsed.max(1e-9)
    );
    println!("results:   {}", args.out.display());
    if ended.interrupted {
        match &args.checkpoint {
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

/// Before a run of more than [`ESTIMATE_FROM`] deals: measures the speed on a short sample,
/// prints the estimated time, and refuses a run estimated at more than [`MAX_DAYS`] days unless
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
    if deals < ESTIMATE_FROM as f64 {
        return Ok(());
    }
    let speed = sample_speed(game, Duration::from_millis(300));
    // Threads beyond the cores add nothing.
    let workers = threads.min(cores()).max(1);
    let secs = deals / (speed * workers as f64);
    let days = secs / 86_400.0;
    let on = if workers == 1 { "1 thread".to_string() } else { format!("{workers} threads") };
    eprintln!(
        "estimate:  {} for {deals:.3e} deals at about {speed:.0} deals/s per thread on {on} \
         (measured on a sample)",
        human_duration(secs)
    );
    if days > MAX_DAYS && !no_limit {
        bail!(
            "the run would take about {} ({deals:.3e} deals on {on}), more than the limit of \
             {MAX_DAYS} days: split it with --shard K/N across machines, or pass \
             --no-estimate-limit to run it anyway",
            human_duration(secs)
        );
    }
    Ok(())
}

/// A duration in the largest fitting unit: `42 s`, `3.5 hours`, `12 days`, `3.1e6 years`.
pub(crate) fn human_duration(secs: f64) -> String {
    let (value, unit) = match secs {
        s if s < 120.0 => (s, "s"),
        s if s < 7_200.0 => (s / 60.0, "minutes"),
        s if s < 172_800.0 => (s / 3_600.0, "hours"),
        s if s < 3.0e7 => (s / 86_400.0, "days"),
        s => (s / 3.156e7, "years"),
    };
    if value >= 1e6 { format!("{value:.1e} {unit}") } else { format!("{value:.1} {unit}") }
}

pub(crate) fn rayon_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

pub(crate) fn merge(args: MergeArgs) -> Result<ExitCode> {
    let started = Instant::now();
    let mut parts = Vec::new();
    for dir in &args.parts {
        let path = dir.join("state.txt");
        let text = crate::output::read_bounded(&path, crate::output::MAX_STATE_BYTES)?
            .with_context(|| {
                format!("cannot read {}: no such file (is it an explore output?)", path.display())
            })?;
        parts
            .push(State::decode(&text).with_context(|| format!("cannot read {}", path.display()))?);
    }
    let state = State::merge(&parts)?;
    if !state.is_complete() && !args.partial {
        bail!("{}; pass --partial to merge them anyway", missing_shards(&state));
    }
    prepare_outputs(None, false, &args.out, args.replace, &|_| false)?;
    let identity = state.key.game.clone();
    if let Some(game) = Bataille::from_identity(&identity) {
        merge_game(&game, &state, &args, started)
    } else if let Some(game) = Bmn::from_identity(&identity) {
        merge_game(&game, &state, &args, started)
    } else {
        bail!("unknown game {} in the state files", crate::checks::shown(&identity))
    }
}

/// Which shards an incomplete merged state lacks, as a sentence.
fn missing_shards(state: &State) -> String {
    let stride = state.done.stride();
    let units = state.key.units;
    if stride <= 1 {
        return format!(
            "the parts cover {} of {units} units: the run is unfinished",
            state.done.len()
        );
    }
    const LISTED: usize = 20;
    let (missing, first) = state.done.incomplete_shards(units, LISTED);
    let mut list: Vec<String> = first.iter().map(u64::to_string).collect();
    if missing > first.len() as u64 {
        list.push(format!("and {} more", missing - first.len() as u64));
    }
    let (noun, verb) = if missing == 1 { ("shard", "is") } else { ("shards", "are") };
    format!(
        "{noun} {} of {stride} {verb} missing or unfinished (the parts cover {} of {units} units)",
        list.join(", "),
        state.done.len()
    )
}

fn merge_game<G: DealGame>(
    game: &G,
    state: &State,
    args: &MergeArgs,
    started: Instant,
) -> Result<ExitCode> {
    let plan = Plan::with_unit_size(
        game,
        state.key.mode,
        state.key.seed,
        state.key.top,
        state.key.unit_size,
    )?
    .keeping_loop_deals(state.key.loop_deals)
    .keeping_cycles(state.key.max_cycles);
    if plan.key() != &state.key {
        bail!("the state files do not describe a run of {}", state.key.game);
    }
    let (mut files, summary) = results(&args.out, game, &plan, state)?;
    files.add_key_values(
        "metadata.csv",
        &[
            ("command", command_line()),
            ("version", env!("CARGO_PKG_VERSION").to_string()),
            ("parts", args.parts.len().to_string()),
            ("elapsed_s", format!("{:.3}", started.elapsed().as_secs_f64())),
        ],
    );
    files.commit()?;
    print!("{summary}");
    println!("results:   {}", args.out.display());
    if !state.is_complete() {
        println!("partial:   {} (--partial)", missing_shards(state));
    }
    Ok(ExitCode::SUCCESS)
}
