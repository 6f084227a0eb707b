//! `bataille aligned blocks`: every aligned cycle on 2n cards (see `bataille_cycles::blocks`),
//! written as a CSV catalogue, with checkpoints (`bataille_runs::blocks`); and `bataille
//! aligned cover`, the decks covered by the blocks of the catalogue.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use bataille_constructs::cover::{COVER_HEADER, Covered, cover_deck, cover_row};
use bataille_cycles::blocks::BlocksSpec;
use bataille_engine::Position;
use bataille_runs::blocks::{self, Blocks, BlocksConfig, read_catalogue};
use bataille_runs::files::Words;
use bataille_search::Shard;
use clap::Args;

use crate::checks::shown;
use crate::output::Terminal;
use crate::output::progress::UnitsProgress;
use crate::output::stop::{EXIT_INTERRUPTED, on_interrupt};

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
    /// Save the run's state here (atomically) after its first batch of units, then every 30 s
    /// and at its end or stop.
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// Continue from the --checkpoint file.
    #[arg(long, requires = "checkpoint")]
    resume: bool,
    /// Units searched in a batch (a checkpoint is saved after a batch, at most every 30 s).
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
    /// Search nothing and write nothing: search a sample of the shard's units, spread through
    /// it (a second to two minutes, each unit stopped after 30 s of CPU time), and print what
    /// the shard and the whole run would cost (time, core-hours, memory, output), with a last
    /// `cost:` line for scripts.
    #[arg(long, conflicts_with_all = ["merge", "resume"])]
    dry_run: bool,
}

pub(crate) fn run(args: BlocksArgs) -> Result<ExitCode> {
    let spec = BlocksSpec::new(args.cards, args.max_multiplicity, args.max_rounds)?;
    if args.dry_run {
        let shard = args.shard.unwrap_or(Shard::WHOLE);
        print!("{}", blocks::dry_run(spec, shard, args.threads, &Words::CLI)?.report());
        return Ok(ExitCode::SUCCESS);
    }
    let mut run = Blocks::prepare(BlocksConfig {
        spec,
        shard: args.shard.unwrap_or(Shard::WHOLE),
        threads: args.threads,
        batch: args.batch,
        checkpoint: args.checkpoint,
        resume: args.resume,
        merge: args.merge,
        out: args.out,
        words: Words::CLI,
    })?;
    let stop = on_interrupt("bataille: stopping (Ctrl-C again to quit at once)");
    let progress = UnitsProgress::new("aligned blocks", run.state().shard_units());
    let searched = run.search(stop, &mut |s| progress.update(s.done, s.from, s.total, s.what));
    progress.finish();
    searched?;
    let end = run.finish(&Terminal)?;
    if let Some(text) = &end.catalogue {
        std::io::stdout().write_all(text.as_bytes())?;
    }
    eprintln!("{}", end.summary);
    Ok(match (end.replay_failures, end.complete) {
        (0, true) => ExitCode::SUCCESS,
        (0, false) => ExitCode::from(EXIT_INTERRUPTED),
        _ => ExitCode::from(crate::EXIT_FINDING),
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
    println!("{COVER_HEADER}");
    let mut all_ok = true;
    for c in colours {
        for v in values.clone() {
            let covered = cover_deck(&blocks, c, v)?;
            all_ok &= covered.as_ref().is_none_or(Covered::verified);
            println!("{}", cover_row(c, v, covered.as_ref(), &blocks));
        }
    }
    Ok(if all_ok { ExitCode::SUCCESS } else { ExitCode::from(crate::EXIT_FINDING) })
}
