//! `bataille hunt`: explore deals through the search harness and keep every deal that loops.
//!
//! A hunt is an exploration ([`crate::explore`]: the same run flags, checkpoints, shards,
//! `merge`, progress and output files) whose state also keeps, for each distinct loop, the
//! deals that reach it, up to `--keep` per loop (the smallest ones; `summary.csv` says
//! `loop_deals_truncated,true` when a loop had more). They are written to `loops.csv`
//! (`cycle_id,deal,tail_tricks`), next to `cycles.csv`, which flags the aligned loops and gives
//! an aligned position of each (check it with `bataille aligned check`). With `--max-cycles K`
//! only the K loops of smallest rank are kept, with their deals: the deals of the other loops
//! are counted but not listed.
//!
//! Only deterministic stacking methods are hunted: with the random method a repeated position
//! does not make a loop (the next tricks may be stacked otherwise), so the command refuses it.

use std::process::ExitCode;

use anyhow::{Result, bail};
use bataille_engine::{Limits, Method};
use bataille_search::Bataille;
use clap::Args;

use crate::args::{DeckArgs, RunArgs};
use crate::search::{RunConfig, run_search};

/// Flags of `bataille hunt`.
#[derive(Debug, Args)]
pub(crate) struct HuntArgs {
    #[command(flatten)]
    deck: DeckArgs,
    /// Keep at most this many deals per loop (the smallest); the summary says when a loop had
    /// more.
    #[arg(long, default_value_t = 1_000_000, value_name = "N")]
    keep: usize,
    #[command(flatten)]
    run: RunArgs,
}

pub(crate) fn run(args: HuntArgs) -> Result<ExitCode> {
    let (spec, methods) = args.deck.validate()?;
    for m in [methods.first, methods.second] {
        if m == Method::Random {
            bail!(
                "hunt does not apply to the {} stacking method: a repeated position is not a \
                 loop when tricks are stacked at random (use `bataille explore` for its \
                 statistics, `bataille play --orders` to replay a scripted loop)",
                m.name()
            );
        }
    }
    if args.keep == 0 {
        bail!("--keep must be at least 1 deal per loop, got 0");
    }
    let game = Bataille::new(spec, methods, Limits::default_for(methods));
    run_search(&game, &RunConfig::new(&game, &args.run, args.keep)?, None)
}
