//! `bataille cycles solve`: loops of a given period found, or proved absent, by a SAT solver
//! (see `bataille_sat`), run by `bataille_runs::solve::loops`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use bataille_engine::{DeckSpec, Method};
use bataille_runs::files::Words;
use bataille_runs::solve::SolverRun;
use bataille_runs::solve::loops::{Conclusion, Loops, dry_run, merge_parts, solve_loops};
use bataille_sat::{Config, Counted};
use clap::Args;

use crate::output::stop::{EXIT_INTERRUPTED, on_interrupt};
use crate::output::{Terminal, command_line};

/// Flags of `bataille cycles solve`.
#[derive(Debug, Args)]
pub(crate) struct SolveArgs {
    /// Number of colours C (copies of each value).
    #[arg(long, short = 'c')]
    colours: usize,
    /// Number of values V.
    #[arg(long, short = 'v')]
    values: usize,
    /// Stacking method of both players: natural or optimized.
    #[arg(long, short, default_value = "natural")]
    method: Method,
    /// Positions that come back after exactly P tricks, or with --cards after each player has
    /// turned P cards (loops of period P, and of its divisors, listed with their own period).
    #[arg(long, value_name = "P", required_unless_present = "max_period", conflicts_with = "max_period",
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    period: Option<u32>,
    /// Every period from 1 to P, in order; the loops found at one period are excluded from
    /// the next ones.
    #[arg(long, value_name = "P", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    max_period: Option<u32>,
    /// Every loop (otherwise the search stops at the first loop of period exactly P).
    #[arg(long)]
    all: bool,
    /// Only loops that pass through a deal (a first hand of ⌊N/2⌋ cards).
    #[arg(long)]
    deals: bool,
    /// Count periods in cards each player turns in one turn of the loop (battles included),
    /// not in tricks. The formula (the stream encoding) grows with those cards only, so it
    /// reaches longer turns; a loop of P tricks turns at least P cards per player.
    #[arg(long)]
    cards: bool,
    /// Only loops whose tricks have at most T ties (battles of at most T + 1 reveals). The
    /// formula is smaller, so loops of large decks are found sooner; "complete" then certifies
    /// only that no loop with such tricks exists, and the question, its files and the
    /// conclusion say so.
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u32).range(0..=1000))]
    max_ties: Option<u32>,
    /// Only loops in which one player holds at most M cards at every trick boundary (M below
    /// half the deck; with --cards, among positions of every split): lopsided loops, like the
    /// C=4 V=7 loops met so far. "complete" then certifies only that no such loop exists.
    #[arg(long, value_name = "M", value_parser = clap::value_parser!(u32).range(1..=1000))]
    max_hand: Option<u32>,
    /// Solve each period in parts, one per length of the loop's smallest hand (1 card to half
    /// the deck, or to --max-hand): each part is a smaller formula with a proof of its own, the
    /// period is complete when every part is, and --threads parts are solved side by side.
    /// parts.csv lists the parts; --time-limit applies to each part. With --cards, among
    /// positions of every split.
    #[arg(long)]
    split: bool,
    /// Parts solved at once with --split, one solver per thread (0, or left out: one per core).
    #[arg(long, value_name = "N", requires = "split", value_parser = crate::checks::threads)]
    threads: Option<usize>,
    /// With --split and --period: solve only the part whose loops' smallest hand has H cards
    /// (one task of a cluster's job array); --merge puts the parts' directories together.
    #[arg(long, value_name = "H", requires_all = ["split", "period"],
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    part: Option<u32>,
    /// With --split and --period: put together in --out the directories of runs of the
    /// period's parts (--part), each read back and checked, and make the period's row from
    /// them (complete when every part is); parts missing or undecided are left to --resume.
    #[arg(long, value_name = "DIR", num_args = 1.., requires_all = ["split", "period"],
          conflicts_with_all = ["part", "resume"])]
    merge: Vec<PathBuf>,
    /// Solve nothing: print the tasks a launcher would run (one per part with --split and
    /// --period), each part's formula size, and the solver seconds of the slowest earlier split
    /// period in --out, if it holds one. The last line, `cost: tasks=N seconds=unknown ...`, is
    /// for scripts (a SAT question's time is not predictable).
    #[arg(long, conflicts_with = "merge")]
    dry_run: bool,
    #[command(flatten)]
    run: RunArgs,
}

impl SolveArgs {
    /// What the periods count.
    fn counted(&self) -> Counted {
        if self.cards { Counted::Cards } else { Counted::Tricks }
    }
}

/// The flags every solver command shares: time, proofs, output directory.
#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// Seconds of solver time each period may take (all its solver calls; with `cycles solve
    /// --split`, each part); a period not decided in time is reported as undecided, and the
    /// search stops there. Building the formula and loading it into the solver are not
    /// counted (the report gives their seconds).
    #[arg(long, value_name = "SECONDS", value_parser = crate::checks::seconds)]
    pub time_limit: Option<Duration>,
    /// Keep each period's CNF and proof in --out/proofs; otherwise only their SHA-256 and
    /// sizes are kept.
    #[arg(long)]
    pub keep: bool,
    /// Output directory: instances.csv (one row per period), what was found, metadata.csv. It
    /// must be empty, or hold this question's own results (with --resume), unless --replace
    /// is given.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Continue the periods not decided yet in --out. The decided ones are kept, and so are
    /// those undecided at this --time-limit already (within 5%, by this --solver-config):
    /// raise it to solve them again.
    #[arg(long, conflicts_with = "replace")]
    pub resume: bool,
    /// Replace the results in a non-empty --out directory.
    #[arg(long)]
    pub replace: bool,
    /// CaDiCaL's configuration: default, sat (tuned to find a loop that exists) or unsat
    /// (tuned to prove that none does). It changes the time a period takes, never its answer;
    /// instances.csv records it with the solver.
    #[arg(long, value_name = "NAME", default_value = "default")]
    pub solver_config: Config,
}

/// While the solver searches: a line on standard error once 30 s have passed since the last one
/// (a period may take an hour, and an enumeration thousands of calls, one per model blocked).
fn solver_progress(calls: u32, seconds: f64) {
    static START: OnceLock<Instant> = OnceLock::new();
    static LAST: AtomicU64 = AtomicU64::new(0);
    let now = START.get_or_init(Instant::now).elapsed().as_secs();
    let last = LAST.load(Ordering::Relaxed);
    if now >= last + 30
        && LAST.compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed).is_ok()
    {
        let s = if calls == 1 { "" } else { "s" };
        eprintln!(
            "solver:    {calls} call{s} in this period so far, {seconds:.0} s since it started"
        );
    }
}

impl RunArgs {
    /// The run these flags ask for: this command's line, Ctrl-C stops the solver, a progress
    /// line on standard error at most every 30 s, the lines on the terminal.
    pub(crate) fn solver_run(&self) -> SolverRun<'static> {
        let mut run = SolverRun::new(
            self.out.clone(),
            self.time_limit,
            self.keep,
            self.resume,
            self.replace,
            self.solver_config,
            command_line(),
            Words::CLI,
            on_interrupt("bataille: stopping the solver (Ctrl-C again to quit at once)"),
            &Terminal,
        );
        run.progress = Some(solver_progress);
        run
    }
}

/// The exit code of a solver run: interrupted if Ctrl-C stopped the solver.
pub(crate) fn exit_code(c: &Conclusion) -> ExitCode {
    if c.interrupted { ExitCode::from(EXIT_INTERRUPTED) } else { ExitCode::SUCCESS }
}

pub(crate) fn run(args: SolveArgs) -> Result<ExitCode> {
    let deck = DeckSpec::new(args.colours, args.values)?;
    let (first, last) = match (args.period, args.max_period) {
        (Some(p), _) => (p, p),
        (None, Some(p)) => (1, p),
        (None, None) => bail!("give --period P or --max-period P"),
    };
    let asked = Loops {
        deck,
        method: args.method,
        counted: args.counted(),
        first,
        last,
        all: args.all,
        deals: args.deals,
        max_ties: args.max_ties,
        max_hand: args.max_hand,
        split: args.split,
        threads: args.threads,
        part: args.part,
    };
    if args.dry_run {
        print!("{}", dry_run(&asked, Some(&args.run.out), &Words::CLI)?);
        return Ok(ExitCode::SUCCESS);
    }
    let run = args.run.solver_run();
    let conclusion = if args.merge.is_empty() {
        solve_loops(&asked, &run)?
    } else {
        merge_parts(&asked, &run, &args.merge)?
    };
    Ok(exit_code(&conclusion))
}
