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
//! Exit codes: 0 done, 2 bad input, 130 interrupted by Ctrl-C (the checkpoint and the partial
//! results are saved; `--resume` continues).

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use bataille_engine::{DeckSpec, Limits, Methods};
use bataille_search::bmn::Bmn;
use bataille_search::records::{RecordRow, check_row};
use bataille_search::{
    Bataille, DealGame, Mode, Options, Plan, Progress, Shard, State, explore, report,
};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::play::parse_methods;
use crate::provenance::{append_records, commit, machine, utc_now};

/// Exit code of a run stopped by Ctrl-C.
const EXIT_INTERRUPTED: u8 = 130;

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
pub(crate) struct RunArgs {
    /// Play every deal once (one per mirror pair when the players are interchangeable).
    #[arg(long, conflicts_with = "random", required_unless_present = "random")]
    exhaustive: bool,
    /// Play this many uniformly random deals.
    #[arg(long, value_name = "N")]
    random: Option<u64>,
    /// Seed of the random deals and of the random stacking method.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
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
    /// How many longest games to keep, by tricks and by cards.
    #[arg(long, default_value_t = 10)]
    top: usize,
    /// Keep at most this many distinct cycles (default: all): those of smallest rank, a
    /// uniform sample whose counts stay exact; the summary then estimates how many distinct
    /// cycles there are. Bounds the memory, checkpoints and cycles.csv of runs that reach
    /// millions of them.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    max_cycles: Option<u64>,
    /// Output directory (created if needed).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
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
    /// Output directory of the merged results.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

/// Set by Ctrl-C (or SIGTERM, as a scheduler sends before pre-empting); polled by the workers
/// between units.
static STOP: AtomicBool = AtomicBool::new(false);

pub(crate) fn parse_shard(text: &str) -> Result<Shard> {
    let parsed = text.split_once('/').and_then(|(k, n)| Some((k.parse().ok()?, n.parse().ok()?)));
    parsed
        .and_then(|(k, n)| Shard::new(k, n))
        .with_context(|| format!("invalid shard {text:?}: expected K/N with 1 ≤ K ≤ N, e.g. 3/8"))
}

/// Checks the output paths of a long run before any work: a checkpoint that exists is only
/// continued with `--resume`, its directory must exist, and the output directory is created.
pub(crate) fn prepare_outputs(checkpoint: Option<&Path>, resume: bool, out: &Path) -> Result<()> {
    if let Some(path) = checkpoint {
        if !resume && path.exists() {
            bail!(
                "the checkpoint {} already exists: pass --resume to continue it, or remove it",
                path.display()
            );
        }
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            if !dir.is_dir() {
                bail!(
                    "cannot write the checkpoint: the directory {} does not exist",
                    dir.display()
                );
            }
        }
    }
    fs::create_dir_all(out)
        .with_context(|| format!("cannot create the output directory {}", out.display()))
}

/// Writes `bytes` to `path` atomically: a temporary file beside it, flushed to disk, renamed.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    fs::rename(&tmp, path)?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        // Make the rename itself durable (best effort: not every platform opens directories).
        if let Ok(d) = fs::File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

/// The progress display and the checkpoint writer.
struct Reporter {
    /// The command, for the plain progress lines.
    name: &'static str,
    bar: Option<ProgressBar>,
    checkpoint: Option<PathBuf>,
    deals: AtomicU64,
    units: AtomicU64,
    pending: AtomicU64,
    started: Instant,
    last_line: Mutex<Instant>,
}

impl Reporter {
    fn new(name: &'static str, checkpoint: Option<PathBuf>) -> Reporter {
        let target = ProgressDrawTarget::stderr();
        let bar = (!target.is_hidden()).then(|| {
            let bar = ProgressBar::with_draw_target(Some(0), target);
            let style = ProgressStyle::with_template(
                "{elapsed_precise} [{wide_bar}] {percent}% {human_pos}/{human_len} deals, \
                 {per_sec:0}, ETA {eta}",
            )
            .expect("a valid template")
            .progress_chars("=> ");
            bar.set_style(style);
            bar
        });
        Reporter {
            name,
            bar,
            checkpoint,
            deals: AtomicU64::new(0),
            units: AtomicU64::new(0),
            pending: AtomicU64::new(0),
            started: Instant::now(),
            last_line: Mutex::new(Instant::now()),
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Progress for Reporter {
    fn start(&self, pending: u64, deals: u128) {
        self.pending.store(pending, Ordering::Relaxed);
        if let Some(bar) = &self.bar {
            bar.set_length(u64::try_from(deals).unwrap_or(u64::MAX));
        }
    }

    fn unit_done(&self, deals: u64) {
        let total = self.deals.fetch_add(deals, Ordering::Relaxed) + deals;
        let units = self.units.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(bar) = &self.bar {
            bar.inc(deals);
            return;
        }
        // Plain lines every 10 s; a worker that finds the lock taken just goes on.
        let Ok(mut last) = self.last_line.try_lock() else { return };
        if last.elapsed() >= Duration::from_secs(10) {
            *last = Instant::now();
            let secs = self.started.elapsed().as_secs_f64();
            eprintln!(
                "{}: {units}/{} units, {total} deals, {:.0} deals/s, {secs:.0} s",
                self.name,
                self.pending.load(Ordering::Relaxed),
                total as f64 / secs
            );
        }
    }

    fn checkpoint(&self, state: &State) -> std::io::Result<()> {
        match &self.checkpoint {
            Some(path) => write_atomic(path, state.encode().as_bytes()),
            None => Ok(()),
        }
    }
}

/// Writes the result files (all but the metadata) of `state` into `dir`.
fn write_results<G: DealGame>(dir: &Path, game: &G, plan: &Plan, state: &State) -> Result<String> {
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let file = |name: &str| -> Result<fs::File> {
        let path = dir.join(name);
        fs::File::create(&path).with_context(|| format!("cannot write {}", path.display()))
    };
    let cycles = report::cycle_rows(game, state);
    report::write_summary(game, state, plan.deals(), file("summary.csv")?)?;
    report::write_histograms(state, file("histograms.csv")?)?;
    report::write_records(game, state, file("records.csv")?)?;
    report::write_cycles(&cycles, file("cycles.csv")?)?;
    if state.key.loop_deals > 0 {
        report::write_loops(game, state, &cycles, file("loops.csv")?)?;
    }
    write_atomic(&dir.join("state.txt"), state.encode().as_bytes())
        .with_context(|| format!("cannot write {}", dir.join("state.txt").display()))?;
    Ok(report::human_summary(game, state, &cycles))
}

fn write_metadata(dir: &Path, rows: &[(&str, String)]) -> Result<()> {
    let path = dir.join("metadata.csv");
    let mut w = csv::Writer::from_path(&path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    w.write_record(["key", "value"])?;
    for (k, v) in rows {
        w.write_record([*k, v.as_str()])?;
    }
    w.flush()?;
    Ok(())
}

pub(crate) fn command_line() -> String {
    std::env::args().collect::<Vec<_>>().join(" ")
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
    // A records file that is there must be one, so that a long run does not end on a bad path.
    crate::records::read_records(path)?;
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

/// The command line as a user would type it again to get the same results: `bataille` and the
/// arguments, quoted where needed, without the checkpoint flags (a replay starts afresh).
fn replay_command() -> String {
    let quote = |a: String| {
        if !a.is_empty() && a.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,+".contains(c)) {
            a
        } else {
            format!("'{}'", a.replace('\'', "'\\''"))
        }
    };
    let mut words = vec!["bataille".to_string()];
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--resume" => {}
            "--checkpoint" | "--checkpoint-every" => {
                args.next();
            }
            _ if a.starts_with("--checkpoint=") || a.starts_with("--checkpoint-every=") => {}
            _ => words.push(quote(a)),
        }
    }
    words.join(" ")
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
    let max_cycles = args.max_cycles.map_or(0, |k| usize::try_from(k).unwrap_or(usize::MAX));
    let plan = Plan::new(game, mode, args.seed, args.top)?
        .keeping_loop_deals(loop_deals)
        .keeping_cycles(max_cycles);
    let name = if loop_deals > 0 { "hunt" } else { "explore" };
    let resume = match (&args.checkpoint, args.resume) {
        (Some(path), true) => {
            let text = fs::read_to_string(path)
                .with_context(|| format!("cannot read the checkpoint {}", path.display()))?;
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
    prepare_outputs(args.checkpoint.as_deref(), args.resume, &args.out)?;

    // The first Ctrl-C asks the workers to stop after their current unit; a second one quits.
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(i32::from(EXIT_INTERRUPTED));
        }
        eprintln!("\nbataille: stopping after the current units (Ctrl-C again to quit at once)");
    });
    let options = Options {
        threads: args.threads,
        checkpoint_every: Duration::from_secs(args.checkpoint_every.max(1)),
        max_units: args.max_units,
    };
    let reporter = Reporter::new(name, args.checkpoint.clone());
    let started = Instant::now();
    let ended = explore(game, &plan, shard, resume, &options, &reporter, &STOP)?;
    let elapsed = started.elapsed().as_secs_f64();
    reporter.finish();

    let summary = write_results(&args.out, game, &plan, &ended.state)?;
    let threads = if args.threads == 0 { rayon_threads() } else { args.threads };
    write_metadata(
        &args.out,
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
    )?;
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

pub(crate) fn rayon_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

pub(crate) fn merge(args: MergeArgs) -> Result<ExitCode> {
    let started = Instant::now();
    let mut parts = Vec::new();
    for dir in &args.parts {
        let path = dir.join("state.txt");
        let text = fs::read_to_string(&path).with_context(|| {
            format!("cannot read {} (is it an explore output?)", path.display())
        })?;
        parts
            .push(State::decode(&text).with_context(|| format!("cannot read {}", path.display()))?);
    }
    let state = State::merge(&parts)?;
    let identity = state.key.game.clone();
    if let Some(game) = Bataille::from_identity(&identity) {
        merge_game(&game, &state, &args, started)
    } else if let Some(game) = Bmn::from_identity(&identity) {
        merge_game(&game, &state, &args, started)
    } else {
        bail!("unknown game {identity:?} in the state files")
    }
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
    let summary = write_results(&args.out, game, &plan, state)?;
    write_metadata(
        &args.out,
        &[
            ("command", command_line()),
            ("version", env!("CARGO_PKG_VERSION").to_string()),
            ("parts", args.parts.len().to_string()),
            ("elapsed_s", format!("{:.3}", started.elapsed().as_secs_f64())),
        ],
    )?;
    print!("{summary}");
    println!("results:   {}", args.out.display());
    if !state.is_complete() {
        println!(
            "warning:   the parts cover {} of {} units: some shards are missing or unfinished",
            state.done.len(),
            state.key.units
        );
    }
    Ok(ExitCode::SUCCESS)
}
