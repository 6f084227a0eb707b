//! The command line's top level (clap): the commands. The clap groups several commands share
//! are in [`crate::args`]; each command's own flags are in its module, which validates them into
//! its configuration.

use clap::{Parser, Subcommand};

/// Research toolkit for the card game of War (French "bataille") and its cousins: play and check
/// games, verify the published claims, explore and hunt deals on all cores (exhaustive or seeded,
/// sharded, resumable), census the loops among all positions of a deck, search record-length
/// games, regenerate the article's tables, beggar-my-neighbour and the take-away games.
#[derive(Debug, Parser)]
#[command(name = "bataille", version, max_term_width = 100)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Play one deal (or any position) and report its outcome and lengths.
    Play(crate::play::PlayArgs),
    /// Check every claim of the article (and the public record tables) against the engine.
    Verify(crate::verify::VerifyArgs),
    /// Explore every deal of a deck, or random deals, in parallel: outcomes, records, cycles.
    Explore(crate::explore::ExploreArgs),
    /// Combine the output directories of `explore --shard` runs into one result.
    Merge(crate::explore::MergeArgs),
    /// Beggar-my-neighbour (bataille anglaise): play a game, verify the published games,
    /// explore deals.
    Bmn(crate::bmn::BmnArgs),
    /// Regenerate one of the article's tables from a recipe: CSV, Markdown and SVG plots.
    Experiment(crate::experiment::ExperimentArgs),
    /// The take-away games of the companion documents: Nim, Marienbad, Fort Boyard, matches.
    Takeaway(crate::takeaway::TakeawayArgs),
    /// Build the known infinite games (Spivey, Lakshtanov, aligned cycles for even V) and
    /// check them; census of every C=1 position.
    Construct(crate::construct::ConstructArgs),
    /// Aligned cycles (box 4): check, repeat and combine them; the catalogue of blocks; decks
    /// covered by blocks.
    Aligned(crate::aligned::AlignedArgs),
    /// Hunt infinite games: explore deals and keep every deal that loops, by cycle, aligned
    /// cycles flagged.
    Hunt(crate::hunt::HuntArgs),
    /// Loops among all positions: the census of every loop of a deck, and the positions and
    /// deals that reach a loop, by playing backwards.
    Cycles(crate::cycles::CyclesArgs),
    /// Hunt record-length games: a guided search over deals, reproducible by seed.
    Records(crate::records::RecordsArgs),
}
