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
//! than [`crate::search::ESTIMATE_FROM`] deals) the time is estimated from a short sample, and
//! a run estimated at more than [`crate::search::MAX_DAYS`] days is refused unless
//! `--no-estimate-limit` is given. The run itself is [`crate::search`]'s, shared with `hunt`
//! and `bmn explore`.
//!
//! Exit codes: 0 done, 2 bad input (a refusal, or `merge` of an incomplete set of shards
//! without `--partial`), 130 interrupted by Ctrl-C or SIGTERM (the checkpoint and the partial
//! results are saved; `--resume` continues).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use bataille_cycles::hunt::PositionHunt;
use bataille_engine::{DeckSpec, Limits, Methods};
use bataille_records::row::{FoundBy, RecordRow, check_row};
use bataille_search::bmn::Bmn;
use bataille_search::{Bataille, DealGame, Plan, State};
use clap::Args;

use crate::args::{DeckArgs, RunArgs, max_tricks};
use crate::output::{
    append_records, check_records_file, command_line, commit, machine, prepare_outputs,
    replay_command, report_appended, utc_now,
};
use crate::search::{RunConfig, results, run_search};

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
    let append = |state: &State| append_longest(path, spec, methods, &found_by, &game, state);
    run_search(&game, &run, Some(&append))
}

/// Appends the longest finished game of `state` by tricks and by cards to the records file,
/// each replayed first.
fn append_longest(
    path: &Path,
    spec: DeckSpec,
    methods: Methods,
    found_by: &FoundBy,
    game: &Bataille,
    state: &State,
) -> Result<()> {
    let found_by = FoundBy { date: utc_now(), ..found_by.clone() };
    let mut rows = Vec::new();
    for list in [&state.stats.longest_by_tricks, &state.stats.longest_by_cards] {
        let Some(best) = list.entries().first() else { continue };
        let deal = game.deal_text(&best.deal);
        let row = RecordRow {
            spec,
            methods,
            measure: list.measure(),
            tricks: best.tricks,
            cards: best.cards,
            deal: deal.parse().with_context(|| format!("internal error: deal {deal}"))?,
            found_by: found_by.clone(),
        };
        check_row(&row).with_context(|| format!("internal error: {deal} does not replay"))?;
        rows.push(row);
    }
    if rows.is_empty() {
        if state.stats.finished() == 0 {
            println!("records:   no finished game to append");
        } else {
            println!("records:   no game kept to append (--top 0 keeps none)");
        }
        return Ok(());
    }
    report_appended(path, append_records(path, &rows)?, rows.len());
    Ok(())
}

pub(crate) fn merge(args: MergeArgs) -> Result<ExitCode> {
    let started = Instant::now();
    if let Some(dir) = args.parts.iter().find(|d| crate::output::files::same_path(d, &args.out)) {
        bail!(
            "--out {} is one of the parts to merge: the merge would replace it; give another \
             directory",
            dir.display()
        );
    }
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
    let _outputs = prepare_outputs(None, false, &args.out, args.replace, &|_| false)?;
    let identity = state.key.game.clone();
    if let Some(game) = Bataille::from_identity(&identity) {
        merge_game(&game, &state, &args, started)
    } else if let Some(game) = Bmn::from_identity(&identity) {
        merge_game(&game, &state, &args, started)
    } else if identity.starts_with("positions ") {
        // A position hunt: its seeds are in each part's seeds.txt (the identity names them).
        let seeds = match crate::output::read_bounded(
            &args.parts[0].join("seeds.txt"),
            crate::output::MAX_RECORDS_BYTES,
        )? {
            Some(text) => bataille_cycles::hunt::read_seeds(&text).with_context(|| {
                format!("cannot read {}", args.parts[0].join("seeds.txt").display())
            })?,
            None => Vec::new(),
        };
        let game = PositionHunt::from_identity(&identity, &seeds).with_context(|| {
            format!("the parts' seeds.txt are not the seeds of {}", crate::checks::shown(&identity))
        })?;
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
    // Every deal kept is one of the game's: merged, they are played and written.
    state.check_deals(game).context("cannot merge")?;
    let (mut files, summary) = results(&args.out, game, &plan, state)?;
    if let Ok(Some(seeds)) = crate::output::read_bounded(
        &args.parts[0].join("seeds.txt"),
        crate::output::MAX_RECORDS_BYTES,
    ) {
        files.add("seeds.txt", seeds.into_bytes());
    }
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
