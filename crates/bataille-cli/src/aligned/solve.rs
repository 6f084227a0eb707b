//! `bataille aligned solve`: every aligned cycle of 2n cards with a period of R rounds found,
//! and the rest proved absent, by a SAT solver (see `bataille_sat::aligned`), run by
//! `bataille_runs::solve::aligned`.

use std::process::ExitCode;

use anyhow::{Result, bail};
use bataille_runs::solve::aligned::{AlignedCycles, aligned_dry_run, solve_aligned_cycles};
use clap::Args;

use crate::solve::{RunArgs, exit_code};

/// Flags of `bataille aligned solve`.
#[derive(Debug, Args)]
pub(crate) struct SolveArgs {
    /// 2n, the cards of both hands (n cards per hand).
    #[arg(long)]
    cards: usize,
    /// Aligned cycles of exactly R rounds.
    #[arg(
        long,
        value_name = "R",
        required_unless_present = "max_rounds",
        conflicts_with = "max_rounds"
    )]
    rounds: Option<u32>,
    /// Every period from 1 to R rounds, in order.
    #[arg(long, value_name = "R")]
    max_rounds: Option<u32>,
    /// The most times a value may be used (4 for a real deck).
    #[arg(long = "max-mult", alias = "max-multiplicity", value_name = "K", default_value_t = 4)]
    max_mult: usize,
    /// Only the deck of C colours: each value 1..2N/C used exactly C times (instead of
    /// --max-mult).
    #[arg(long, short = 'c', value_name = "C", conflicts_with = "max_mult")]
    colours: Option<usize>,
    /// Only prime cycles: positions that do not cut into two smaller blocks each on a cycle
    /// of its own (the rows of the catalogue with no `splits`).
    #[arg(long)]
    prime: bool,
    /// Check the question and print its last period's formula size and the times of the
    /// periods already in --out (read, never written), then stop: nothing is solved. The
    /// cluster launcher's check (scripts/slurm/submit.sh).
    #[arg(long)]
    dry_run: bool,
    #[command(flatten)]
    run: RunArgs,
}

pub(crate) fn run(args: SolveArgs) -> Result<ExitCode> {
    let (first, last) = match (args.rounds, args.max_rounds) {
        (Some(r), _) => (r, r),
        (None, Some(r)) => (1, r),
        (None, None) => bail!("give --rounds R or --max-rounds R"),
    };
    let asked = AlignedCycles {
        cards: args.cards,
        first,
        last,
        max_mult: args.max_mult,
        colours: args.colours,
        prime: args.prime,
    };
    if args.dry_run {
        print!("{}", aligned_dry_run(&asked, Some(&args.run.out))?);
        return Ok(ExitCode::SUCCESS);
    }
    Ok(exit_code(&solve_aligned_cycles(&asked, &args.run.solver_run())?))
}
