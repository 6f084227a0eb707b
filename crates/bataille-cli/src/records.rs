//! `bataille records search`, `bataille records extend` and `bataille records beam`: record
//! hunting on the command line.
//! The flags become the configuration of a run of `bataille_runs::records` (`search`: simulated
//! annealing into an output directory, with checkpoints; `extend`: a finished game made longer
//! by playing backwards), shown with a progress bar (plain periodic lines when stderr is not a
//! terminal). With `--records FILE` (usually `results/records.csv`) the deals found are
//! appended to that records file, which `bataille verify` replays.
//!
//! Exit codes: 0 done, 2 bad input (also a `--time` too short to evaluate a deal), 130
//! interrupted by Ctrl-C (`--resume` continues).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use bataille_engine::{DeckSpec, Limits, Position};
use bataille_records::search::{Anneal, Budget, Config};
use bataille_runs::files::Words;
use bataille_runs::records::beam::{BeamConfig, BeamSearch, BeamStart};
use bataille_runs::records::extend::{Extend, ExtendConfig};
use bataille_runs::records::search::{RecordSearch, SearchConfig};
use bataille_search::stats::Measure;
use clap::{Args, Subcommand};

use crate::args::{DeckArgs, MethodArgs};
use crate::checks::shown;
use crate::output::progress::{RecordsProgress, UnitsProgress};
use crate::output::stop::{EXIT_INTERRUPTED, on_interrupt};
use crate::output::{Terminal, command_line};

/// Flags of `bataille records`.
#[derive(Debug, Args)]
pub(crate) struct RecordsArgs {
    #[command(subcommand)]
    command: RecordsCommand,
}

#[derive(Debug, Subcommand)]
enum RecordsCommand {
    /// Search for record-length finished games by iterated simulated annealing over deals.
    Search(SearchArgs),
    /// Make a finished game longer by playing backwards: the deals from which the given
    /// position is reached, farthest first.
    Extend(ExtendArgs),
    /// Search for long games from where games end: terminal positions (every card in one
    /// hand), or a position of a game that ends, played backwards a trick at a time over a
    /// beam of positions; the deepest deals met are the longest games found.
    Beam(BeamArgs),
}

/// Flags of `bataille records beam`.
#[derive(Debug, Args)]
struct BeamArgs {
    /// Number of colours C (with --terminal).
    #[arg(long, short = 'c', requires = "terminal", conflicts_with = "from")]
    colours: Option<usize>,
    /// Number of values V (with --terminal).
    #[arg(long, short = 'v', requires = "terminal", conflicts_with = "from")]
    values: Option<usize>,
    /// Start from this many terminal positions of the deck -c/-v: every card in one hand, in
    /// orders drawn from --seed (each also with the hands swapped).
    #[arg(long, value_name = "N", required_unless_present = "from", requires_all = ["colours", "values"])]
    terminal: Option<usize>,
    /// Start from this position (a deal or any position of a whole deck whose game ends, top
    /// card first, `[5, 3] / [2, 4, 1]` or `5,3/2,4,1`).
    #[arg(long, value_name = "POSITION", conflicts_with = "terminal")]
    from: Option<String>,
    /// With --from: start LATE tricks before the end of its game instead.
    #[arg(long, value_name = "LATE", requires = "from")]
    late: Option<u64>,
    #[command(flatten)]
    methods: MethodArgs,
    /// Most ties in one un-played trick.
    #[arg(long, default_value_t = 3)]
    max_ties: usize,
    /// Positions kept in each layer of the beam (those nearest a deal's split).
    #[arg(long, default_value_t = 10_000)]
    width: usize,
    /// Most positions expanded in all.
    #[arg(long, default_value_t = 100_000_000)]
    budget: u64,
    /// Seed of the terminal orders and of the order among positions equally near the split.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Append the deals found to this records file (usually results/records.csv).
    #[arg(long, value_name = "FILE")]
    records: Option<PathBuf>,
}

/// Flags of `bataille records extend`.
#[derive(Debug, Args)]
struct ExtendArgs {
    /// The start: a deal or any position of a whole deck whose game ends, top card first
    /// (`[5, 3] / [2, 4, 1]` or `5,3/2,4,1`).
    deal: String,
    #[command(flatten)]
    methods: MethodArgs,
    /// Most ties in one un-played trick.
    #[arg(long, default_value_t = 3)]
    max_ties: usize,
    /// Most positions searched (with --whole-game: from each position of the game).
    #[arg(long, default_value_t = 10_000_000)]
    budget: u64,
    /// Search backwards from every position of the game, not only from its start: a deal `d`
    /// tricks before the position after `t` tricks plays `L - t + d` tricks.
    #[arg(long)]
    whole_game: bool,
    /// With --whole-game: search from the start and every N-th trick after it.
    #[arg(long, default_value_t = 1, value_name = "N", requires = "whole_game",
          value_parser = clap::value_parser!(u64).range(1..))]
    every: u64,
    /// Append the deals found to this records file (usually results/records.csv).
    #[arg(long, value_name = "FILE")]
    records: Option<PathBuf>,
}

/// Flags of `bataille records search`.
#[derive(Debug, Args)]
struct SearchArgs {
    #[command(flatten)]
    deck: DeckArgs,
    /// What the search maximises: tricks or cards (the best deals of both are kept).
    #[arg(long, default_value = "tricks")]
    measure: Measure,
    /// Seed of every chain.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Run for this many seconds (not reproducible: the iterations done are recorded so that
    /// `--iterations` replays the run).
    #[arg(
        long,
        value_name = "SECS",
        conflicts_with = "iterations",
        required_unless_present = "iterations",
        value_parser = crate::checks::seconds
    )]
    time: Option<Duration>,
    /// Evaluate this many deals in all (reproducible whatever --threads).
    #[arg(long, value_name = "N")]
    iterations: Option<u64>,
    /// Independent annealing chains (the results depend on it, not on --threads).
    #[arg(long, default_value_t = 32)]
    chains: usize,
    /// Iterations of a chain between restarts.
    #[arg(long, default_value_t = Anneal::default().epoch)]
    epoch: u64,
    /// Worker threads (default: one per core; at most 8 per core).
    #[arg(long, default_value_t = 0, value_parser = crate::checks::threads)]
    threads: usize,
    /// Save the search to this file periodically and on Ctrl-C.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Continue from the --checkpoint file (an --iterations budget counts the whole search).
    #[arg(long, requires = "checkpoint")]
    resume: bool,
    /// Seconds between checkpoints.
    #[arg(long, default_value_t = 60, value_name = "SECS", requires = "checkpoint")]
    checkpoint_every: u64,
    /// Run even when the --iterations are estimated at more than 30 days.
    #[arg(long)]
    no_estimate_limit: bool,
    /// Append the best deal of each measure to this records file (usually
    /// results/records.csv).
    #[arg(long, value_name = "FILE")]
    records: Option<PathBuf>,
    /// Output directory (created if needed). It must be empty, or hold this search's own
    /// results (with --resume), unless --replace is given.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Replace the results in a non-empty --out directory.
    #[arg(long)]
    replace: bool,
}

pub(crate) fn run(args: RecordsArgs) -> Result<ExitCode> {
    match args.command {
        RecordsCommand::Search(a) => search_command(a),
        RecordsCommand::Extend(a) => extend_command(a),
        RecordsCommand::Beam(a) => beam_command(a),
    }
}

/// The exit code of a run: 130 when it was stopped before its end.
fn exit_code(stopped: bool) -> ExitCode {
    if stopped { ExitCode::from(EXIT_INTERRUPTED) } else { ExitCode::SUCCESS }
}

fn extend_command(args: ExtendArgs) -> Result<ExitCode> {
    let start: Position =
        args.deal.parse().with_context(|| format!("invalid deal {}", shown(&args.deal)))?;
    start
        .infer_deck()
        .with_context(|| format!("{} is not a whole deck", shown(&start.to_string())))?;
    let methods = args.methods.deterministic("playing backwards needs")?;
    if args.budget == 0 {
        bail!("--budget must be at least 1, got 0");
    }
    let config = ExtendConfig {
        start,
        methods,
        max_ties: args.max_ties,
        budget: args.budget,
        every: args.whole_game.then_some(args.every),
        records: args.records,
        words: Words::CLI,
    };
    let extend = Extend::prepare(config, &Terminal)?;
    // Ctrl-C (or SIGTERM) ends the search within milliseconds; the best deals found before
    // are printed and kept as a finished search's are.
    let stop = on_interrupt("bataille: stopping the search (Ctrl-C again to quit at once)");
    let noun = if args.whole_game { "positions of the game" } else { "positions" };
    let progress = UnitsProgress::counting("records extend", extend.steps(), noun);
    let extended = extend.search(stop, &mut |s| progress.update(s.done, s.from, s.total, s.what));
    progress.finish();
    Ok(exit_code(extended.finish(&Terminal)?.stopped))
}

fn beam_command(args: BeamArgs) -> Result<ExitCode> {
    let methods = args.methods.deterministic("playing backwards needs")?;
    let start = match (&args.from, args.terminal, args.colours, args.values) {
        (Some(text), ..) => {
            let position: Position =
                text.parse().with_context(|| format!("invalid position {}", shown(text)))?;
            BeamStart::Position { position, late: args.late }
        }
        (None, Some(count), Some(c), Some(v)) => {
            BeamStart::Terminal { spec: DeckSpec::new(c, v)?, count }
        }
        _ => bail!("give --from POSITION, or --terminal N with -c and -v"),
    };
    let config = BeamConfig {
        start,
        methods,
        max_ties: args.max_ties,
        width: args.width,
        budget: args.budget,
        seed: args.seed,
        records: args.records,
        words: Words::CLI,
    };
    let beam = BeamSearch::prepare(config, &Terminal)?;
    // Ctrl-C (or SIGTERM) ends the search within milliseconds; the best deals found before
    // are printed and kept as a finished search's are.
    let stop = on_interrupt("bataille: stopping the search (Ctrl-C again to quit at once)");
    let progress = UnitsProgress::counting("records beam", args.budget, "positions");
    let found = beam.search(stop, &mut |s| progress.update(s.done, s.from, s.total, s.what));
    progress.finish();
    Ok(exit_code(found.finish(&Terminal)?.stopped))
}

fn search_command(args: SearchArgs) -> Result<ExitCode> {
    let (spec, methods) = args.deck.validate()?;
    let budget = match (args.time, args.iterations) {
        (_, Some(0)) => bail!("--iterations must be at least 1, got 0"),
        (_, Some(n)) => Budget::Iterations(n),
        (Some(t), None) => Budget::Time(t),
        (None, None) => bail!("give --time or --iterations"),
    };
    // Each iteration plays one deal: the same estimate as a random exploration's (not on a
    // resume, whose budget counts the iterations already done).
    if let Budget::Iterations(n) = budget
        && !args.resume
    {
        let game = bataille_search::Bataille::new(spec, methods, Limits::default_for(methods));
        let (threads, no_limit) = (args.threads, args.no_estimate_limit);
        crate::search::estimate_deals(&game, n as f64, threads, no_limit, "lower --iterations")?;
    }
    let search = Config {
        spec,
        methods,
        measure: args.measure,
        seed: args.seed,
        chains: args.chains,
        anneal: Anneal { epoch: args.epoch, ..Anneal::default() },
    };
    let run = RecordSearch::prepare(SearchConfig {
        search,
        budget,
        threads: args.threads,
        checkpoint: args.checkpoint,
        resume: args.resume,
        checkpoint_every: Duration::from_secs(args.checkpoint_every),
        records: args.records,
        out: args.out,
        replace: args.replace,
        method2_named: args.deck.methods.method2.is_some(),
        words: Words::CLI,
    })?;
    let stop =
        on_interrupt("records: stopping after the current round (Ctrl-C again to quit at once)");
    let progress = RecordsProgress::new(match budget {
        Budget::Iterations(n) => Some(n),
        Budget::Time(_) => None,
    });
    let searched = run.search(&progress, stop);
    progress.finish();
    let end = searched?.finish(command_line(), &Terminal)?;
    Ok(exit_code(end.ended.interrupted))
}
