//! `bataille aligned blocks`: every aligned cycle on 2n cards (see `bataille_cycles::blocks`),
//! written as a CSV catalogue, with checkpoints; and the catalogue's rows read back for
//! `bataille aligned cover`.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use bataille_cycles::blocks::{self, BlocksSpec, BlocksState, CATALOGUE_HEADER, CatalogueRow};
use bataille_engine::aligned::check;
use bataille_engine::{Card, Limits, Method, Methods, NoRandom, Outcome, Position, play};
use bataille_search::Shard;
use clap::Args;

use crate::checks::shown;
use crate::output::{prepare_file_output, write_atomic};

/// Flags of `bataille aligned blocks`.
#[derive(Debug, Args)]
pub(crate) struct BlocksArgs {
    /// 2n, the cards of a block (n cards per hand).
    #[arg(long)]
    cards: usize,
    /// The most times a value may occur in a block (4 for blocks of a real deck).
    #[arg(long, default_value_t = 4)]
    max_multiplicity: usize,
    /// Rounds followed by the outcome search before the positions left in a branch are played
    /// one by one (the search is exhaustive whatever this is; it only moves the work).
    #[arg(long, default_value_t = 8)]
    max_rounds: usize,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0, value_parser = crate::checks::threads)]
    threads: usize,
    /// Only this shard of the units, `k/n` (1-based).
    #[arg(long)]
    shard: Option<Shard>,
    /// Save the run's state here after each batch of units (atomically).
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// Continue from the --checkpoint file.
    #[arg(long, requires = "checkpoint")]
    resume: bool,
    /// Units searched between checkpoints.
    #[arg(long, default_value_t = 16)]
    batch: usize,
    /// Write the catalogue here (CSV); standard output otherwise.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Search nothing: merge the complete checkpoints of every shard of a run (made with
    /// --shard k/n and the same --cards, --max-multiplicity and --max-rounds) and write the
    /// catalogue of the whole run, the same as a run without shards (and its state to
    /// --checkpoint, when given).
    #[arg(long, num_args = 1.., value_name = "CHECKPOINT", conflicts_with_all = ["shard", "resume"])]
    merge: Vec<PathBuf>,
}

/// The state of a whole run from the complete checkpoints of its shards.
fn merge_states(paths: &[PathBuf], spec: BlocksSpec) -> Result<BlocksState> {
    let mut parts = Vec::new();
    for path in paths {
        let text = crate::output::files::read_bounded(path, crate::output::files::MAX_STATE_BYTES)?
            .with_context(|| {
                format!("cannot read the checkpoint {}: it does not exist", path.display())
            })?;
        // The shard is read from the file, then checked with the rest of its header.
        let shard: Shard = text
            .lines()
            .find_map(|l| l.strip_prefix("shard "))
            .and_then(|s| s.parse().ok())
            .with_context(|| {
                format!("{} is not a blocks checkpoint (no shard line)", path.display())
            })?;
        let state = BlocksState::from_text(&text, spec, shard)
            .with_context(|| format!("cannot use {}", path.display()))?;
        parts.push(state);
    }
    Ok(BlocksState::merge(&parts)?)
}

/// Process CPU time (user + system), in seconds.
pub(crate) fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let usage = unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut u);
        u
    };
    let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
    t(usage.ru_utime) + t(usage.ru_stime)
}

pub(crate) fn run(args: BlocksArgs) -> Result<ExitCode> {
    let spec = BlocksSpec::new(args.cards, args.max_multiplicity, args.max_rounds)?;
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let units = BlocksState::new(spec, Shard::WHOLE).units;
    if shard.count() > units {
        bail!(
            "--shard {shard}: the search of {} cards has {units} units, fewer than {} shards",
            spec.cards(),
            shard.count()
        );
    }
    // The output is one file: its directory may hold others (the catalogue of each size), but
    // a finished catalogue is not replaced silently.
    if let Some(out) = &args.out
        && out.exists()
        && !args.resume
    {
        bail!(
            "{} already exists: remove it first, or pass --resume with the checkpoint of the \
             run that writes it",
            out.display()
        );
    }
    let _outputs =
        prepare_file_output(args.out.as_deref(), args.checkpoint.as_deref(), args.resume)?;
    let merging = !args.merge.is_empty();
    let mut state = match (&args.checkpoint, args.resume) {
        _ if merging => merge_states(&args.merge, spec)?,
        (Some(path), true) => {
            let text = fs::read_to_string(path)
                .with_context(|| format!("cannot read the checkpoint {}", path.display()))?;
            BlocksState::from_text(&text, spec, shard)?
        }
        _ => BlocksState::new(spec, shard),
    };
    let stop = crate::output::stop::on_interrupt(
        "bataille: stopping after the current units (Ctrl-C again to quit at once)",
    );
    let started = Instant::now();
    let total = state.shard_units();
    let mut save_error = None;
    if merging && let Some(path) = &args.checkpoint {
        write_atomic(path, state.to_text().as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let pool = blocks::pool(args.threads)?;
    let progress = crate::output::progress::UnitsProgress::new("aligned blocks", total);
    let from = state.done;
    blocks::run(&mut state, &pool, args.batch, stop, &mut |s| {
        let what = format!("{} cycles of rounds, {} nodes", s.cycles.len(), s.nodes);
        progress.update(s.done, from, total, &what);
        if let Some(path) = &args.checkpoint
            && let Err(e) = write_atomic(path, s.to_text().as_bytes())
        {
            save_error.get_or_insert(e);
        }
    });
    progress.finish();
    if let Some(e) = save_error {
        bail!("cannot write the checkpoint: {e}");
    }
    let rows = blocks::catalogue(&state.cycles);
    // Every loop replayed by the engine in full: an aligned loop with the period found. The
    // position comes back after the row's tricks, so the engine's (least) period divides them;
    // it is smaller when the position is a shorter block repeated, e.g. the 8-card block
    // [2, 1, 2, 2] / [3, 2, 2, 1] twice, whose 16-card round of 6 tricks is two turns of its
    // 3-trick loop.
    let natural = Methods::both(Method::Natural);
    let mut replay_failures = 0;
    for c in &rows {
        let p = c.position();
        let looped = matches!(
            play(&p, natural, &mut NoRandom, Limits::DETERMINISTIC).outcome,
            Outcome::Cycle(cy) if cy.tail_tricks == 0 && c.period_tricks % cy.period_tricks == 0
        );
        let rounds = check(&p, natural)
            .is_ok_and(|a| a.tail_rounds == 0 && a.period_rounds == c.period_rounds);
        if !(looped && rounds) {
            eprintln!("bataille: {p} does NOT replay as an aligned loop");
            replay_failures += 1;
        }
    }
    let mut text = format!("{CATALOGUE_HEADER}\n");
    for c in &rows {
        text.push_str(&blocks::catalogue_row(c));
        text.push('\n');
    }
    // A run stopped before its end writes no catalogue: a partial one would read as whole
    // (`aligned cover` takes every catalogue as complete). Its checkpoint holds the rest.
    match &args.out {
        _ if !state.is_complete() => eprintln!(
            "bataille: stopped before the end ({}/{} units): no catalogue written; continue \
             with --checkpoint FILE --resume",
            state.done, total
        ),
        Some(path) => write_atomic(path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => std::io::stdout().write_all(text.as_bytes())?,
    }
    let prime = rows.iter().filter(|c| blocks::splits(&c.first, &c.second).is_empty()).count();
    eprintln!(
        "blocks {} cards (max multiplicity {}): {}/{} units{}, {} loops ({} prime, {} with f∘f = \
         swap), {} cycles of rounds, {} nodes, {} leaves, {} undecided; {} replayed by the \
         engine as aligned loops; {:.1} s CPU, {:.1} s wall",
        spec.cards(),
        spec.max_multiplicity(),
        state.done,
        total,
        if shard == Shard::WHOLE { String::new() } else { format!(" of shard {shard}") },
        rows.len(),
        prime,
        rows.iter().filter(|c| c.square_is_swap).count(),
        state.cycles.len(),
        state.nodes,
        state.leaves,
        state.capped,
        rows.len() - replay_failures,
        cpu_seconds(),
        started.elapsed().as_secs_f64()
    );
    Ok(if replay_failures > 0 {
        ExitCode::from(crate::EXIT_FINDING)
    } else if state.is_complete() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(crate::output::stop::EXIT_INTERRUPTED)
    })
}

/// Flags of `bataille aligned cover`.
#[derive(Debug, Args)]
pub(crate) struct CoverArgs {
    /// C, the colours: one number or a range `a..b` (inclusive).
    #[arg(long, short = 'c')]
    colours: String,
    /// V, the values: one number or a range `a..b` (inclusive).
    #[arg(long, short = 'v')]
    values: String,
    /// The directory of block catalogues (every `blocks-*.csv` written by `aligned blocks`).
    #[arg(long, default_value = "results/aligned-blocks")]
    catalogue: PathBuf,
}

fn range(text: &str, what: &str) -> Result<std::ops::RangeInclusive<usize>> {
    let parse = |t: &str| {
        t.trim()
            .parse::<usize>()
            .with_context(|| format!("{what} must be a number or a..b, got {}", shown(text)))
    };
    let (a, b) = match text.split_once("..") {
        Some((a, b)) => (parse(a)?, parse(b)?),
        None => (parse(text)?, parse(text)?),
    };
    if a == 0 || a > b {
        bail!("{what} must be a range of positive numbers a..b with a ≤ b, got {}", shown(text));
    }
    Ok(a..=b)
}

/// `bataille aligned cover`: for each deck, a cover by prime blocks of the catalogue, the deal,
/// and the engine's verdict. Exit 0 when every deal built is a verified aligned loop, 1 if one
/// is not.
pub(crate) fn run_cover(args: CoverArgs) -> Result<ExitCode> {
    let colours = range(&args.colours, "-c")?;
    let values = range(&args.values, "-v")?;
    // The whole range is checked before any row: its largest deck is the one that can fail.
    bataille_engine::DeckSpec::new(*colours.end(), *values.end())
        .with_context(|| format!("-c {} -v {}", args.colours, args.values))?;
    let rows = read_catalogue(&args.catalogue)?;
    // A composite block is two blocks laid end to end: the prime ones cover every deck the
    // composite ones do.
    let blocks: Vec<Position> = rows.into_iter().filter(|r| r.prime).map(|r| r.position).collect();
    eprintln!("catalogue: {} prime blocks from {}", blocks.len(), args.catalogue.display());
    println!("C,V,constructed,blocks,deal,outcome,aligned");
    let mut all_ok = true;
    for c in colours {
        for v in values.clone() {
            match bataille_constructs::cover::cover_deck(&blocks, c, v)? {
                None => println!("{c},{v},no,,,,"),
                Some(cov) => {
                    let outcome = match cov.result.outcome {
                        bataille_engine::Outcome::Cycle(cy) => {
                            format!(
                                "loop: tail {} tricks, period {} tricks",
                                cy.tail_tricks, cy.period_tricks
                            )
                        }
                        _ => "NO LOOP".to_string(),
                    };
                    let aligned = match &cov.aligned {
                        Ok(a) if a.tail_rounds == 0 => {
                            format!("rounds of {} cards, {} rounds", a.half, a.period_rounds)
                        }
                        Ok(a) => format!("NOT on its loop ({} rounds of tail)", a.tail_rounds),
                        Err(e) => format!("NOT aligned: {e}"),
                    };
                    all_ok &= outcome.starts_with("loop") && !aligned.starts_with("NOT");
                    let parts: Vec<String> = cov
                        .placements
                        .iter()
                        .map(|p| {
                            let b = &blocks[p.block];
                            let values: Vec<String> =
                                p.values.iter().map(Card::to_string).collect();
                            format!("{} as {}", b.compact(), values.join(","))
                        })
                        .collect();
                    println!(
                        "{c},{v},yes,\"{}\",\"{}\",\"{outcome}\",\"{aligned}\"",
                        parts.join("; "),
                        cov.deal
                    );
                }
            }
        }
    }
    Ok(if all_ok { ExitCode::SUCCESS } else { ExitCode::from(crate::EXIT_FINDING) })
}

/// Reads every `blocks-*.csv` catalogue in `dir`.
pub(crate) fn read_catalogue(dir: &Path) -> Result<Vec<CatalogueRow>> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .with_context(|| format!("cannot read the catalogue directory {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "csv"))
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("blocks-"))
        })
        .collect();
    files.sort();
    if files.is_empty() {
        bail!("{} holds no catalogue (no blocks-N.csv file)", dir.display());
    }
    let mut rows = Vec::new();
    for path in files {
        let text = crate::output::read_bounded(&path, crate::output::MAX_RECORDS_BYTES)?
            .with_context(|| format!("cannot read {}", path.display()))?;
        rows.extend(
            blocks::read_catalogue(&text)
                .with_context(|| format!("cannot read {}", path.display()))?,
        );
    }
    Ok(rows)
}
