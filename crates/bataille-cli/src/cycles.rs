//! `bataille cycles`: loops among all positions (see `bataille_cycles`): the census of every
//! loop of a deck, and the tree of positions and deals that reach a loop or a position.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use bataille_cycles::census::CensusSpec;
use bataille_engine::backward::Bounds;
use bataille_engine::{DeckSpec, Method, Methods};
use bataille_runs::cycles::ancestors::{Ancestors, AncestorsConfig, Listing};
use bataille_runs::cycles::census::{self, Census, CensusConfig};
use bataille_runs::cycles::{hunt_files, read_seeds};
use bataille_runs::files::Words;
use bataille_search::Shard;
use clap::{Args, Subcommand};

use crate::args::MethodArgs;
use crate::deal::parse_deal;
use crate::output::progress::UnitsProgress;
use crate::output::stop::{EXIT_INTERRUPTED, on_interrupt};
use crate::output::{Terminal, command_line};

/// Flags of `bataille cycles`.
#[derive(Debug, Args)]
pub(crate) struct CyclesArgs {
    #[command(subcommand)]
    command: CyclesCommand,
}

#[derive(Debug, Subcommand)]
enum CyclesCommand {
    /// Every loop of a deck among all its positions (every split, not only deals), each once
    /// by its canonical position: period, hands, aligned or not, and the deals that reach it.
    Census(CensusArgs),
    /// The positions that reach POSITION (or its loop, if it lies on one), by playing
    /// backwards: counts by depth, the deepest, and the deals among them with their tails.
    Ancestors(AncestorsArgs),
    /// Hunt loops among positions of every split: seeded random positions (uniform, as runs of
    /// piles, or built from known loops), played until they end or loop, every loop kept with
    /// the positions that reach it. The same files, checkpoints, shards and merge as `hunt`.
    Hunt(HuntArgs),
    /// Loops of a given period found, or proved absent, by a SAT solver (CaDiCaL): each loop
    /// replayed by the engine, each absence certified by an LRAT proof that is checked.
    Solve(crate::solve::SolveArgs),
}

pub(crate) fn run(args: CyclesArgs) -> Result<ExitCode> {
    match args.command {
        CyclesCommand::Census(a) => run_census(a),
        CyclesCommand::Ancestors(a) => run_ancestors(a),
        CyclesCommand::Hunt(a) => run_hunt(a),
        CyclesCommand::Solve(a) => crate::solve::run(a),
    }
}

/// Flags of `bataille cycles census`.
#[derive(Debug, Args)]
pub(crate) struct CensusArgs {
    /// Number of colours C (copies of each value).
    #[arg(long, short = 'c')]
    colours: usize,
    /// Number of values V.
    #[arg(long, short = 'v')]
    values: usize,
    /// Stacking method of both players: natural or optimized.
    #[arg(long, short, default_value = "natural")]
    method: Method,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0, value_parser = crate::checks::threads)]
    threads: usize,
    /// Only this shard of the units, `K/N` (1-based); combine the shards' checkpoints with
    /// --merge.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Save the run's state here (atomically) after its first batch of units, then every 30 s
    /// and at its end or stop.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Continue from the --checkpoint file.
    #[arg(long, requires = "checkpoint")]
    resume: bool,
    /// Units searched in parallel in a batch (a checkpoint is saved after a batch, at most
    /// every 30 s).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    batch: u64,
    /// Positions visited at most in the tree of each loop, to count the deals that reach it
    /// (a count cut by this bound is reported as incomplete).
    #[arg(long, default_value_t = 100_000_000, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    budget: u64,
    /// Output directory: cycles.csv, summary.csv, state.txt, metadata.csv. It must be empty,
    /// or hold this run's own results (with --resume), unless --replace is given.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Replace the results in a non-empty --out directory.
    #[arg(long)]
    replace: bool,
    /// Run even when the census is out of reach of 30 days on these threads.
    #[arg(long)]
    no_estimate_limit: bool,
    /// Search nothing: merge the complete checkpoints of every shard of a run (made with
    /// --shard K/N for the same deck and method) and write the results of the whole run.
    #[arg(long, num_args = 1.., value_name = "CHECKPOINT", conflicts_with_all = ["shard", "resume"])]
    merge: Vec<PathBuf>,
    /// Search nothing and write nothing: search a sample of the shard's units, spread through
    /// it (a second to two minutes, each unit stopped after 30 s of CPU time), and print what
    /// the shard and the whole run would cost (time, core-hours, memory, output), with a last
    /// `cost:` line for scripts.
    #[arg(long, conflicts_with_all = ["merge", "resume"])]
    dry_run: bool,
}

fn run_census(args: CensusArgs) -> Result<ExitCode> {
    let deck = DeckSpec::new(args.colours, args.values)?;
    let spec = CensusSpec::new(deck, args.method)?;
    if args.dry_run {
        let shard = args.shard.unwrap_or(Shard::WHOLE);
        print!(
            "{}",
            census::dry_run(spec, shard, args.threads, args.budget, &Words::CLI)?.report()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let mut census = Census::prepare(CensusConfig {
        spec,
        shard: args.shard.unwrap_or(Shard::WHOLE),
        threads: args.threads,
        batch: args.batch as usize,
        budget: args.budget,
        checkpoint: args.checkpoint,
        resume: args.resume,
        merge: args.merge,
        out: args.out,
        replace: args.replace,
        no_estimate_limit: args.no_estimate_limit,
        words: Words::CLI,
    })?;
    let stop = on_interrupt("bataille: stopping (Ctrl-C again to quit at once)");
    let progress = UnitsProgress::new("cycles census", census.state().shard_units());
    let searched = census.search(stop, &mut |s| progress.update(s.done, s.from, s.total, s.what));
    progress.finish();
    searched?;
    let end = census.finish(command_line(), stop, &Terminal)?;
    Ok(if end.stopped() { ExitCode::from(EXIT_INTERRUPTED) } else { ExitCode::SUCCESS })
}

/// Flags of `bataille cycles ancestors`.
#[derive(Debug, Args)]
pub(crate) struct AncestorsArgs {
    /// The position, top card first: `[2, 1, 4, 4, 2, 1, 3, 3] / [4, 2, 4, 1, 3, 2, 3, 1]`
    /// (any split of a whole deck).
    position: String,
    #[command(flatten)]
    methods: MethodArgs,
    /// Number of colours C (inferred from the cards when not given).
    #[arg(long, short = 'c')]
    colours: Option<usize>,
    /// Number of values V (inferred from the cards when not given).
    #[arg(long, short = 'v')]
    values: Option<usize>,
    /// Ancestors at most this many tricks before the position (or the loop).
    #[arg(long, value_name = "D")]
    max_depth: Option<u64>,
    /// Tricks with at most this many ties are played backwards (default: any).
    #[arg(long, value_name = "T")]
    max_ties: Option<usize>,
    /// Positions visited at most.
    #[arg(long, default_value_t = 100_000_000, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    budget: u64,
    /// How many of the deepest ancestors to print.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(0..=1000))]
    deepest: u64,
    /// Write every deal of the tree to this CSV file (`-`: standard output, the report then
    /// goes to standard error): cycle_id, deal, tail_tricks, tail_cards. A file that exists
    /// is replaced only with --replace.
    #[arg(long, value_name = "FILE")]
    deals: Option<PathBuf>,
    /// Replace the --deals file if it exists.
    #[arg(long, requires = "deals")]
    replace: bool,
}

fn run_ancestors(args: AncestorsArgs) -> Result<ExitCode> {
    let methods: Methods = args.methods.deterministic("playing backwards needs")?;
    let (position, _) = parse_deal(&args.position, args.colours, args.values, false)?;
    let deals =
        args.deals.map(|p| if p.as_os_str() == "-" { Listing::Returned } else { Listing::File(p) });
    let walk = Ancestors::prepare(AncestorsConfig {
        position,
        methods,
        bounds: Bounds {
            max_depth: args.max_depth.unwrap_or(u64::MAX),
            max_ties: args.max_ties.unwrap_or(bataille_engine::MAX_CARDS),
            budget: args.budget,
        },
        deepest: args.deepest as usize,
        deals,
        replace: args.replace,
        words: Words::CLI,
    })?;
    // Ctrl-C (or SIGTERM) ends the walk within milliseconds: what it met is reported (and
    // with --deals written) as a walk stopped on its budget would be, and the exit code says
    // it was stopped.
    let stop = on_interrupt("bataille: stopping the walk (Ctrl-C again to quit at once)");
    let progress = UnitsProgress::counting("cycles ancestors", args.budget, "positions");
    let end = walk.walk(stop, &mut |s| progress.update(s.done, s.from, s.total, s.what));
    progress.finish();
    let end = end?;
    if let Some(csv) = &end.deals {
        // The listing on standard output, the report on standard error.
        crate::output::print_stdout(csv)?;
        eprint!("{}", end.report);
    } else {
        crate::output::print_stdout(&end.report)?;
    }
    Ok(if end.tree.walked.stopped { ExitCode::from(EXIT_INTERRUPTED) } else { ExitCode::SUCCESS })
}

/// How `cycles hunt` draws its positions (see `bataille_cycles::hunt::Sampler`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum SamplerName {
    /// Every position of every split equally likely.
    Uniform,
    /// A uniform position with each hand made a run of piles (the shape of positions on a
    /// loop).
    Piles,
    /// Known loops of smaller decks (--seeds) with the missing cards inserted at random places.
    Insert,
    /// Positions of the same deck (--seeds) one to four local moves away.
    Mutate,
}

/// Flags of `bataille cycles hunt`.
#[derive(Debug, Args)]
pub(crate) struct HuntArgs {
    #[command(flatten)]
    deck: crate::args::DeckArgs,
    /// How positions are drawn.
    #[arg(long, value_enum, default_value = "uniform")]
    sampler: SamplerName,
    /// The seed positions of `insert` and `mutate`: one position per line, or a CSV file with
    /// a position, deal or example_deal column (a census's or a hunt's cycles.csv).
    #[arg(long, value_name = "FILE")]
    seeds: Option<PathBuf>,
    /// Keep at most this many positions per loop (the smallest).
    #[arg(long, default_value_t = 1000, value_name = "N")]
    keep: usize,
    #[command(flatten)]
    run: crate::args::RunArgs,
}

fn run_hunt(args: HuntArgs) -> Result<ExitCode> {
    use bataille_cycles::hunt::{PositionHunt, Sampler};
    let (spec, methods) = args.deck.validate()?;
    if args.run.exhaustive {
        bail!(
            "cycles hunt draws positions at random (--random N): every position of a deck is \
             the census's work (`bataille cycles census`)"
        );
    }
    if args.keep == 0 {
        bail!("--keep must be at least 1 position per loop, got 0");
    }
    let sampler = match (args.sampler, &args.seeds) {
        (SamplerName::Uniform | SamplerName::Piles, Some(_)) => {
            bail!("--seeds is for the insert and mutate samplers")
        }
        (SamplerName::Uniform, None) => Sampler::Uniform,
        (SamplerName::Piles, None) => Sampler::Piles,
        (SamplerName::Insert, Some(path)) => Sampler::Insert(read_seeds(path)?),
        (SamplerName::Mutate, Some(path)) => Sampler::Mutate(read_seeds(path)?),
        (name, None) => {
            bail!("the {} sampler needs --seeds FILE", format!("{name:?}").to_lowercase())
        }
    };
    let game = PositionHunt::new(spec, methods, sampler)?;
    let mut config =
        crate::search::RunConfig::new(&game, &args.run, args.keep)?.named("cycles hunt");
    for (name, bytes) in hunt_files(&game) {
        config = config.with_file(name, bytes);
    }
    crate::search::run_search(&game, &config, None)
}
