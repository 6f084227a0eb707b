//! `bataille hunt`: explore deals through the search harness and keep every deal that loops.
//!
//! A hunt is an exploration ([`crate::explore`]: the same run flags, checkpoints, shards,
//! `merge`, progress and output files) whose state also keeps, for each distinct loop, the
//! deals that reach it, up to `--keep` per loop (the smallest ones; `summary.csv` says
//! `loop_deals_truncated,true` when a loop had more). They are written to `loops.csv`
//! (`cycle_id,deal,tail_tricks`), next to `cycles.csv`, which flags the aligned loops and gives
//! an aligned position of each (check it with `bataille aligned check`).
//!
//! Only deterministic stacking methods are hunted: with the random method a repeated position
//! does not make a loop (the next tricks may be stacked otherwise), so the command refuses it.

use std::process::ExitCode;

use anyhow::{Result, bail};
use bataille_engine::{DeckSpec, Limits, Method, Methods};
use bataille_search::Bataille;
use clap::Args;

use crate::explore::{RunArgs, run_search};
use crate::play::parse_method;

/// Flags of `bataille hunt`.
#[derive(Debug, Args)]
pub(crate) struct HuntArgs {
    /// Number of colours C (copies of each value).
    #[arg(long, short = 'c')]
    colours: usize,
    /// Number of values V.
    #[arg(long, short = 'v')]
    values: usize,
    /// Stacking method of the first player (and of the second unless --method2 is given):
    /// natural, optimized, ascending, first-player-first (not random).
    #[arg(long, short, default_value = "natural")]
    method: String,
    /// Stacking method of the second player.
    #[arg(long)]
    method2: Option<String>,
    /// Keep at most this many deals per loop (the smallest); the summary says when a loop had
    /// more.
    #[arg(long, default_value_t = 1_000_000, value_name = "N")]
    keep: usize,
    #[command(flatten)]
    run: RunArgs,
}

pub(crate) fn run(args: HuntArgs) -> Result<ExitCode> {
    let spec = DeckSpec::new(args.colours, args.values)?;
    let first = parse_method(&args.method)?;
    let second = match &args.method2 {
        Some(name) => parse_method(name)?,
        None => first,
    };
    for m in [first, second] {
        if m == Method::Random {
            bail!(
                "hunt does not apply to the {} stacking method: a repeated position is not a \
                 loop when tricks are stacked at random (use `bataille explore` for its \
                 statistics, `bataille play --orders` to replay a scripted loop)",
                m.name()
            );
        }
    }
    let methods = Methods::new(first, second);
    if args.keep == 0 {
        bail!("--keep must be at least 1 deal per loop, got 0");
    }
    run_search(&Bataille::new(spec, methods, Limits::default_for(methods)), &args.run, args.keep)
}
