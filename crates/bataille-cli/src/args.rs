//! The clap groups that several commands share: the deck and stacking methods, the run flags
//! of the search harness, the format of the `verify` commands.
//!
//! Each flag is typed by the library type it stands for and parsed by that type's `FromStr`
//! (a method in `bataille-engine`, a shard in `bataille-search`), so that a name is read in one
//! place and a bad one is refused by clap with the list of the valid ones. Limits that depend
//! on this machine (threads) are checked by the value parsers of [`crate::checks`]; what
//! depends on several flags at once is checked by the command's validation into its
//! configuration.

use std::path::PathBuf;

use anyhow::{Result, bail};
use bataille_claims::Format;
use bataille_engine::{DeckSpec, Method, Methods};
use bataille_search::Shard;
use clap::Args;

/// The deck and stacking-method flags of `explore`, `hunt` and `records search`.
#[derive(Debug, Args)]
pub(crate) struct DeckArgs {
    /// Number of colours C (copies of each value).
    #[arg(long, short = 'c')]
    pub(crate) colours: usize,
    /// Number of values V.
    #[arg(long, short = 'v')]
    pub(crate) values: usize,
    #[command(flatten)]
    pub(crate) methods: AnyMethodArgs,
}

impl DeckArgs {
    /// The validated deck and methods.
    pub(crate) fn validate(&self) -> Result<(DeckSpec, Methods)> {
        Ok((DeckSpec::new(self.colours, self.values)?, self.methods.methods()))
    }
}

/// `--method` and `--method2`, any method (random included).
#[derive(Debug, Args)]
pub(crate) struct AnyMethodArgs {
    /// Stacking method of the first player (and of the second unless --method2 is given):
    /// natural, optimized, random, ascending, first-player-first.
    #[arg(long, short, default_value = "natural")]
    pub(crate) method: Method,
    /// Stacking method of the second player.
    #[arg(long)]
    pub(crate) method2: Option<Method>,
}

impl AnyMethodArgs {
    /// The methods of both players.
    pub(crate) fn methods(&self) -> Methods {
        Methods::new(self.method, self.method2.unwrap_or(self.method))
    }
}

/// `--method` and `--method2` of the commands that need deterministic stacking.
#[derive(Debug, Args)]
pub(crate) struct MethodArgs {
    /// Stacking method of both players (or of the first when --method2 is given): natural,
    /// optimized, ascending, first-player-first.
    #[arg(long, short, default_value = "natural")]
    method: Method,
    /// Stacking method of the second player.
    #[arg(long)]
    method2: Option<Method>,
}

impl MethodArgs {
    /// The methods, refused with `what` in the message when one is random.
    pub(crate) fn deterministic(&self, what: &str) -> Result<Methods> {
        let methods = Methods::new(self.method, self.method2.unwrap_or(self.method));
        if !methods.is_deterministic() {
            bail!("{what} deterministic stacking, not {methods}");
        }
        Ok(methods)
    }
}

/// Flags shared by every command that explores deals (`explore`, `hunt`, `bmn explore`).
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("mode").required(true).args(["exhaustive", "random"])))]
pub(crate) struct RunArgs {
    /// Play every deal once (one per mirror pair when the players are interchangeable).
    #[arg(long, conflicts_with = "random")]
    pub(crate) exhaustive: bool,
    /// Play this many uniformly random deals.
    #[arg(long, value_name = "N")]
    pub(crate) random: Option<u64>,
    /// Seed of the random deals and of the random stacking method.
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    /// Worker threads (default: one per core; at most 8 per core).
    #[arg(long, default_value_t = 0, value_parser = crate::checks::threads)]
    pub(crate) threads: usize,
    /// Run only the K-th of N disjoint parts (1 ≤ K ≤ N), to combine later with `merge`.
    #[arg(long, value_name = "K/N")]
    pub(crate) shard: Option<Shard>,
    /// Save progress to this file periodically and on Ctrl-C.
    #[arg(long, value_name = "FILE")]
    pub(crate) checkpoint: Option<PathBuf>,
    /// Continue from the --checkpoint file.
    #[arg(long, requires = "checkpoint")]
    pub(crate) resume: bool,
    /// Seconds between checkpoints.
    #[arg(long, default_value_t = 60, value_name = "SECS", requires = "checkpoint")]
    pub(crate) checkpoint_every: u64,
    /// How many longest games to keep, by tricks and by cards (at most 10,000).
    #[arg(long, default_value_t = 10)]
    pub(crate) top: u64,
    /// Keep at most this many distinct cycles (default: all; at least 3): those of smallest
    /// rank, a uniform sample whose counts stay exact; the summary then estimates how many
    /// distinct cycles there are. Bounds the memory, checkpoints and cycles.csv of runs that
    /// reach millions of them.
    #[arg(long, value_name = "K", value_parser = crate::checks::max_cycles)]
    pub(crate) max_cycles: Option<u64>,
    /// Output directory (created if needed). It must be empty, or hold this run's own
    /// results (with --resume), unless --replace is given.
    #[arg(long, value_name = "DIR")]
    pub(crate) out: PathBuf,
    /// Replace the results in a non-empty --out directory.
    #[arg(long)]
    pub(crate) replace: bool,
    /// Run even when the estimated time is more than 30 days.
    #[arg(long)]
    pub(crate) no_estimate_limit: bool,
    /// Stop after this many work units, as if interrupted (for tests of --resume).
    #[arg(long, hide = true)]
    pub(crate) max_units: Option<u64>,
    /// Measure what the run (or shard) would cost on a sample of its own first work units
    /// (about a second, on --threads), print the time, core-hours, memory and output size,
    /// and stop: nothing is written.
    #[arg(long)]
    pub(crate) dry_run: bool,
}

/// How the three `verify` commands print their claims.
#[derive(Debug, Args)]
pub(crate) struct FormatArgs {
    /// Print the evidence of every entry, not only of misprints, disagreements and failures.
    #[arg(long)]
    details: bool,
    /// Print the table in Markdown instead of aligned text.
    #[arg(long, conflicts_with = "csv")]
    markdown: bool,
    /// Write the entries as CSV: name, source, status, claim, published, computed, evidence.
    #[arg(long)]
    csv: bool,
}

impl FormatArgs {
    /// The printer's format.
    pub(crate) fn format(&self) -> Format {
        match (self.markdown, self.csv) {
            (true, _) => Format::Markdown,
            (false, true) => Format::Csv,
            (false, false) => Format::Table { details: self.details },
        }
    }
}

/// Refuses a `--max-tricks 0`: every command that takes `--max-tricks` plays at least one
/// trick (0 would stop every game before it starts, which no command means).
pub(crate) fn max_tricks(value: Option<u64>) -> Result<Option<u64>> {
    if value == Some(0) {
        bail!("--max-tricks must be at least 1, got 0");
    }
    Ok(value)
}
