//! Raw command-line flags (clap). Commands validate them into their own configurations.

use clap::{Args, Parser, Subcommand};

/// Research toolkit for the card game of War (French "bataille") and its cousins.
#[derive(Debug, Parser)]
#[command(name = "bataille", version, about, max_term_width = 100)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Play one deal (or any position) and report its outcome and lengths.
    Play(PlayArgs),
    /// Check every claim of the article (and the public record tables) against the engine.
    Verify(VerifyArgs),
    /// Explore every deal of a deck, or random deals, in parallel: outcomes, records, cycles.
    Explore(crate::explore::ExploreArgs),
    /// Combine the output directories of `explore --shard` runs into one result.
    Merge(crate::explore::MergeArgs),
    /// Beggar-my-neighbour (bataille anglaise): play a game, verify the published games.
    Bmn(crate::bmn::BmnArgs),
    /// Regenerate one of the article's tables from a recipe: CSV, Markdown and SVG plots.
    Experiment(crate::experiment::ExperimentArgs),
    /// The take-away games of the companion documents: Nim, Marienbad, Fort Boyard, matches.
    Takeaway(crate::takeaway::TakeawayArgs),
    /// Build the known infinite games (Spivey, Lakshtanov, aligned cycles for even V) and
    /// check them; census of every C=1 position.
    Construct(crate::construct::ConstructArgs),
    /// Aligned cycles (box 4): check one, repeat one, combine several.
    Aligned(crate::aligned::AlignedArgs),
    /// Hunt infinite games: explore deals and keep every deal that loops, by cycle, aligned
    /// cycles flagged.
    Hunt(crate::hunt::HuntArgs),
    /// Hunt record-length games: a guided search over deals, reproducible by seed.
    Records(crate::records::RecordsArgs),
}

/// Flags of `bataille play`.
#[derive(Debug, Args)]
pub(crate) struct PlayArgs {
    /// The two hands, top card first: `[5, 3] / [2, 4, 1]` or `5,3/2,4,1`.
    pub(crate) deal: String,
    /// Stacking method of the first player (and of the second unless --method2 is given):
    /// natural, optimized, random, ascending, first-player-first.
    #[arg(long, short, default_value = "natural")]
    pub(crate) method: String,
    /// Stacking method of the second player.
    #[arg(long)]
    pub(crate) method2: Option<String>,
    /// Seed of the random method.
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    /// Print every position, as the article does.
    #[arg(long)]
    pub(crate) trace: bool,
    /// Number of colours C (inferred from the deal when omitted).
    #[arg(long, short = 'c')]
    pub(crate) colours: Option<usize>,
    /// Number of values V (inferred from the deal when omitted).
    #[arg(long, short = 'v')]
    pub(crate) values: Option<usize>,
    /// Accept cards that do not form a whole deck (any cards from 1 to V).
    #[arg(long)]
    pub(crate) partial: bool,
    /// Play scripted tricks instead of a stacking method: the order in which the winner stacks
    /// the cards of each trick, tricks separated by ';' (e.g. "4,2;1,3;4,1;2,3" for the
    /// article's box 3). Every position is printed, and whether the script comes back to the
    /// start.
    #[arg(long, conflicts_with_all = ["method", "method2", "seed"])]
    pub(crate) orders: Option<String>,
    /// Stop after this many tricks (default: none for deterministic methods, 10,000,000 with a
    /// random method).
    #[arg(long)]
    pub(crate) max_tricks: Option<u64>,
}

/// Flags of `bataille verify`.
#[derive(Debug, Args)]
pub(crate) struct VerifyArgs {
    /// Show only the entries whose name contains this text.
    #[arg(long)]
    pub(crate) filter: Option<String>,
    #[command(flatten)]
    pub(crate) format: crate::verify::FormatArgs,
    /// The records file whose rows are replayed after the catalogue (skipped when the default
    /// file does not exist; not with --csv, which writes the catalogue only).
    #[arg(long, value_name = "FILE", conflicts_with = "csv")]
    pub(crate) records: Option<std::path::PathBuf>,
}

/// `--method` and `--method2` of the commands that need deterministic stacking.
#[derive(Debug, Args)]
pub(crate) struct MethodArgs {
    /// Stacking method of both players (or of the first when --method2 is given): natural,
    /// optimized, ascending, first-player-first.
    #[arg(long, short, default_value = "natural")]
    method: String,
    /// Stacking method of the second player.
    #[arg(long)]
    method2: Option<String>,
}

impl MethodArgs {
    /// The methods, refused with `what` in the message when one is random.
    pub(crate) fn deterministic(&self, what: &str) -> anyhow::Result<bataille_engine::Methods> {
        let methods = crate::play::parse_methods(&self.method, self.method2.as_deref())?;
        if !methods.is_deterministic() {
            anyhow::bail!("{what} deterministic stacking, not {methods}");
        }
        Ok(methods)
    }
}
