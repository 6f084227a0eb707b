//! `bataille cycles`: loops among all positions (see `bataille_cycles`): the census of every
//! loop of a deck, and the tree of positions and deals that reach a loop or a position.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use bataille_cycles::ancestors::{self, Keep, Root, Tree};
use bataille_cycles::census::{self, CensusSpec, CensusState, Found};
use bataille_engine::backward::{Bounds, Walked};
use bataille_engine::{
    DeckSpec, Limits, Method, Methods, NoRandom, Outcome, aligned, loop_positions, play,
};
use bataille_search::Shard;
use bataille_search::arrangement::Arrangements;
use bataille_search::pool::Pool;
use clap::{Args, Subcommand};

use crate::args::MethodArgs;
use crate::deal::parse_deal;
use crate::output::progress::{UnitsProgress, human_duration};
use crate::output::stop::{EXIT_INTERRUPTED, on_interrupt};
use crate::output::{
    MAX_STATE_BYTES, OutputFiles, command_line, prepare_outputs, read_bounded, write_atomic,
};
use crate::search::MAX_DAYS;

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
    /// Save the run's state here after each batch of units (atomically).
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Continue from the --checkpoint file.
    #[arg(long, requires = "checkpoint")]
    resume: bool,
    /// Units searched in parallel between two checkpoints.
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
}

fn read_state(path: &Path, spec: CensusSpec, shard: Option<Shard>) -> Result<CensusState> {
    let text = read_bounded(path, MAX_STATE_BYTES)?.with_context(|| {
        format!("cannot read the checkpoint {}: it does not exist", path.display())
    })?;
    // The shard is read from the file (for --merge), then checked with the rest of its header.
    let shard = match shard {
        Some(s) => s,
        None => text
            .lines()
            .find_map(|l| l.strip_prefix("shard "))
            .and_then(|s| s.trim().parse().ok())
            .with_context(|| {
                format!("{} is not a census checkpoint (no shard line)", path.display())
            })?,
    };
    CensusState::from_text(&text, spec, shard)
        .with_context(|| format!("cannot use {}", path.display()))
}

/// A rate of play the census is not expected to reach (positions per CPU-second), for the bound
/// below: 10^12, 15 times the fastest measured, C=4 V=6 optimized (8.1·10^16 positions in about
/// 1.2·10^6 CPU-seconds, from three shards; natural took 3.3·10^6), which was itself 5 times
/// the rate of C=4 V=5 optimized (6.4·10^12 in 476): the census plays a smaller share of the
/// positions as the deck grows, and this leaves room for more than one value of that growth.
const CENSUS_POSITIONS_PER_CPU_S: f64 = 1e12;

/// Refuses a census whose units left (their share of the positions) would take more than
/// [`MAX_DAYS`] days on `threads` even at [`CENSUS_POSITIONS_PER_CPU_S`]: only a deck far out
/// of reach is refused.
fn refuse_out_of_reach(state: &CensusState, threads: usize) -> Result<()> {
    let spec = state.spec;
    let deck = spec.deck();
    let (n, c) = (deck.cards(), deck.colours());
    let factorial = |k: usize| (1..=k).map(|i| i as f64).product::<f64>();
    // (N + 1) N! / (C!)^V positions, every split counted.
    let positions = (n + 1) as f64 * factorial(n) / factorial(c).powi(deck.values() as i32);
    let left = state.shard_units().saturating_sub(state.done) as f64 / state.units.max(1) as f64;
    let days = positions * left / CENSUS_POSITIONS_PER_CPU_S / threads.max(1) as f64 / 86_400.0;
    if days > MAX_DAYS {
        bail!(
            "the census of {spec}{} has about {:.1e} positions left: even at {:.0e} a CPU-second \
             (15 times the fastest rate measured, C=4 V=6 optimized) it would take more than {} \
             on {threads} thread{} (pass --no-estimate-limit to run it anyway)",
            if state.shard == Shard::WHOLE {
                String::new()
            } else {
                format!(", shard {},", state.shard)
            },
            positions * left,
            CENSUS_POSITIONS_PER_CPU_S,
            human_duration(days * 86_400.0),
            if threads == 1 { "" } else { "s" },
        );
    }
    Ok(())
}

fn run_census(args: CensusArgs) -> Result<ExitCode> {
    let deck = DeckSpec::new(args.colours, args.values)?;
    let spec = CensusSpec::new(deck, args.method)?;
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    if shard.count() > spec.units().count().max(1) {
        bail!(
            "--shard {shard}: the census of {spec} has {} units, fewer than {} shards",
            spec.units().count(),
            shard.count()
        );
    }
    crate::checks::walk_memory(args.budget, deck.cards())?;
    let pool = Pool::new(args.threads)?;
    // (A shard's own state.txt replaced by the merged one could not be merged again.)
    for part in &args.merge {
        crate::output::files::check_outside_outputs("--merge", part, &args.out)?;
    }
    let own = |dir: &Path| {
        read_bounded(&dir.join("state.txt"), MAX_STATE_BYTES)
            .ok()
            .flatten()
            .is_some_and(|t| CensusState::from_text(&t, spec, shard).is_ok())
    };
    let _outputs =
        prepare_outputs(args.checkpoint.as_deref(), args.resume, &args.out, args.replace, &own)?;
    let merging = !args.merge.is_empty();
    let mut state = if merging {
        let parts: Vec<CensusState> =
            args.merge.iter().map(|p| read_state(p, spec, None)).collect::<Result<_>>()?;
        CensusState::merge(&parts)?
    } else {
        match (&args.checkpoint, args.resume) {
            (Some(path), true) => read_state(path, spec, Some(shard))?,
            _ => CensusState::new(spec, shard),
        }
    };
    if !merging && !args.no_estimate_limit {
        // (Refused here, the output directory is removed again if this run created it.)
        refuse_out_of_reach(&state, pool.threads())?;
    }
    let stop = on_interrupt("bataille: stopping (Ctrl-C again to quit at once)");
    let started = Instant::now();
    let from = state.done;
    let total = state.shard_units();
    let progress = UnitsProgress::new("cycles census", total);
    let mut save_error = None;
    let save = |s: &CensusState, save_error: &mut Option<std::io::Error>| {
        if let Some(path) = &args.checkpoint
            && let Err(e) = write_atomic(path, s.to_text().as_bytes())
        {
            save_error.get_or_insert(e);
        }
    };
    if merging {
        save(&state, &mut save_error);
    }
    census::run(&mut state, &pool, args.batch as usize, stop, &mut |s| {
        let what = format!("{} loops, {} candidates", s.found.len(), s.candidates);
        progress.update(s.done, from, total, &what);
        save(s, &mut save_error);
    });
    progress.finish();
    if let Some(e) = save_error {
        bail!("cannot write the checkpoint: {e}");
    }
    // The deals reaching each loop: a walk of its tree each, stopped (like the units) by a
    // stop request within milliseconds, and timed with the rest.
    let loops = state.loops();
    let bounds = Bounds::budget(args.budget);
    let rows: Vec<Row> = loops.iter().map(|f| Row::new(spec, f, bounds, stop)).collect();
    let counting_stopped = rows.iter().any(|r| r.walked.stopped);
    let elapsed = started.elapsed().as_secs_f64();
    let complete = state.is_complete();
    let mut files = OutputFiles::new(&args.out);
    files.add("cycles.csv", cycles_csv(&rows).into_bytes());
    let summary = summary(spec, &state, &rows);
    files.add_key_values("summary.csv", &summary);
    files.add("state.txt", state.to_text().into_bytes());
    files.add_key_values(
        "metadata.csv",
        &[
            ("command", command_line()),
            ("version", env!("CARGO_PKG_VERSION").to_string()),
            ("threads", pool.threads().to_string()),
            ("shard", shard.to_string()),
            ("resumed", args.resume.to_string()),
            ("elapsed_s", format!("{elapsed:.3}")),
        ],
    );
    files.commit()?;
    for (k, v) in &summary {
        println!("{:<22} {v}", format!("{}:", k.replace('_', " ")));
    }
    for r in rows.iter().take(20) {
        println!(
            "  cycle {}: period {} tricks ({} cards), {}first hand {} to {}{}, {}",
            r.id,
            r.found.period_tricks,
            r.found.period_cards,
            if r.found.self_twin { "its own mirror, " } else { "" },
            r.found.first.len(),
            r.found.first_max,
            if r.aligned.is_some() { ", aligned" } else { "" },
            deals_text(r.deals, &r.walked),
        );
        println!("    {}", r.found.position());
    }
    if rows.len() > 20 {
        println!("  ... {} more in cycles.csv", rows.len() - 20);
    }
    println!("time:                  {elapsed:.1} s on {} threads", pool.threads());
    println!("results:               {}", args.out.display());
    if complete && counting_stopped {
        println!(
            "stopped while counting the deals that reach each loop: the census is complete, \
             but a count cut short is written as a lower bound (deals_complete false); run \
             again{} for the full counts",
            args.checkpoint
                .as_ref()
                .map_or(String::new(), |p| format!(" with --resume (checkpoint {})", p.display()))
        );
        return Ok(ExitCode::from(EXIT_INTERRUPTED));
    }
    if !complete {
        match &args.checkpoint {
            Some(path) => println!(
                "stopped before the end: continue with --resume (checkpoint {})",
                path.display()
            ),
            None => println!("stopped before the end (no --checkpoint: the results are partial)"),
        }
        return Ok(ExitCode::from(EXIT_INTERRUPTED));
    }
    Ok(ExitCode::SUCCESS)
}

/// A loop of the census, with what the report adds: its id, aligned position and deals.
struct Row {
    found: Found,
    id: String,
    aligned: Option<String>,
    deals: u64,
    ancestors: u64,
    walked: Walked,
}

impl Row {
    /// The row of loop `f`, its deals counted by a walk of its tree within `bounds`; a stop
    /// request cuts the walk short (`walked.stopped`, the count then a lower bound).
    fn new(spec: CensusSpec, f: &Found, bounds: Bounds, stop: &AtomicBool) -> Row {
        let p = f.position();
        let methods = spec.methods();
        let id = match play(&p, methods, &mut NoRandom, Limits::DETERMINISTIC).outcome {
            Outcome::Cycle(c) => c.id.to_string(),
            o => panic!("the census's position {p} does not loop: {o:?}"),
        };
        let positions = loop_positions(&p, methods).expect("a loop");
        let aligned = aligned::aligned_position(&positions, methods).map(|q| q.to_string());
        let keep = Keep { deals: false, deepest: 0 };
        let t = ancestors::tree_watched(&p, methods, bounds, keep, stop, &mut |_| {})
            .expect("deterministic methods");
        let ancestors = t.walked.visited;
        Row { found: f.clone(), id, aligned, deals: t.deal_count, ancestors, walked: t.walked }
    }
}

fn deals_text(deals: u64, walked: &Walked) -> String {
    let s = if deals == 1 { "" } else { "s" };
    if walked.stopped {
        format!("at least {deals} deal{s} (the tree walk was stopped by the request)")
    } else if walked.budget_hit {
        format!("at least {deals} deal{s} (the tree walk stopped on its budget)")
    } else {
        format!("reached by {deals} deal{s}")
    }
}

/// The header of `cycles.csv`.
const CYCLES_HEADER: &str = "cycle_id,period_tricks,period_cards,position,first_min,first_max,\
self_twin,aligned,aligned_position,deals,deals_complete,ancestors";

fn cycles_csv(rows: &[Row]) -> String {
    let mut s = format!("{CYCLES_HEADER}\n");
    for r in rows {
        let f = &r.found;
        let _ = writeln!(
            s,
            "{},{},{},\"{}\",{},{},{},{},\"{}\",{},{},{}",
            r.id,
            f.period_tricks,
            f.period_cards,
            f.position(),
            f.first.len(),
            f.first_max,
            f.self_twin,
            if r.aligned.is_some() { "yes" } else { "no" },
            r.aligned.as_deref().unwrap_or(""),
            r.deals,
            r.walked.complete(),
            r.ancestors
        );
    }
    s
}

/// The summary's keys and values.
fn summary(spec: CensusSpec, state: &CensusState, rows: &[Row]) -> Vec<(&'static str, String)> {
    let deck = spec.deck();
    let arrangements = Arrangements::new(&deck.sorted_deck()).count();
    let positions = arrangements
        .and_then(|a| a.checked_mul(deck.cards() as u128 + 1))
        .map_or("more than 2^128".to_string(), |p| p.to_string());
    let mut periods: Vec<u64> = rows.iter().map(|r| r.found.period_tricks).collect();
    periods.sort_unstable();
    periods.dedup();
    let reached = rows.iter().filter(|r| r.deals > 0).count();
    let unreached = rows.iter().filter(|r| r.deals == 0 && r.walked.complete()).count();
    vec![
        ("deck", deck.to_string()),
        ("method", spec.method().to_string()),
        ("positions", positions),
        (
            "coverage",
            match (state.is_complete(), state.shard == Shard::WHOLE) {
                (true, true) => "complete: every position of every split".to_string(),
                (true, false) => format!(
                    "shard {} complete ({} units): merge the shards for the whole census",
                    state.shard, state.done
                ),
                (false, _) => format!(
                    "INCOMPLETE: {} of {} units of shard {}",
                    state.done,
                    state.shard_units(),
                    state.shard
                ),
            },
        ),
        ("units", state.units.to_string()),
        ("candidates", state.candidates.to_string()),
        ("tricks_walked", state.tricks.to_string()),
        ("cycles", rows.len().to_string()),
        ("aligned_cycles", rows.iter().filter(|r| r.aligned.is_some()).count().to_string()),
        ("periods", periods.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")),
        ("cycles_reached_by_deals", reached.to_string()),
        ("cycles_reached_by_no_deal", unreached.to_string()),
    ]
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
    crate::checks::walk_memory(args.budget, position.cards())?;
    let file = args.deals.as_deref().filter(|p| p.as_os_str() != "-");
    // A listing may take minutes to make: one that exists is not replaced silently.
    if let Some(path) = file
        && path.is_file()
        && !args.replace
    {
        bail!("{} already exists: remove it first, or pass --replace", path.display());
    }
    let _outputs = crate::output::prepare_file_output(file, None, false)?;
    let bounds = Bounds {
        max_depth: args.max_depth.unwrap_or(u64::MAX),
        max_ties: args.max_ties.unwrap_or(bataille_engine::MAX_CARDS),
        budget: args.budget,
    };
    let keep = Keep { deals: args.deals.is_some(), deepest: args.deepest as usize };
    // Ctrl-C (or SIGTERM) ends the walk within milliseconds: what it met is reported (and
    // with --deals written) as a walk stopped on its budget would be, and the exit code says
    // it was stopped.
    let stop = on_interrupt("bataille: stopping the walk (Ctrl-C again to quit at once)");
    let started = Instant::now();
    let progress = UnitsProgress::counting("cycles ancestors", args.budget, "positions");
    let t = ancestors::tree_watched(&position, methods, bounds, keep, stop, &mut |seen| {
        progress.update(seen, 0, args.budget, "of the budget");
    });
    progress.finish();
    let t = t?;
    let code = if t.walked.stopped { ExitCode::from(EXIT_INTERRUPTED) } else { ExitCode::SUCCESS };
    let report = ancestors_report(&t, &args, methods, started.elapsed().as_secs_f64());
    if let Some(path) = &args.deals {
        let id = match &t.root {
            Root::Cycle { id, .. } => id.to_string(),
            Root::Position(_) => String::new(),
        };
        let mut csv = String::from("cycle_id,deal,tail_tricks,tail_cards\n");
        for d in &t.deals {
            let _ = writeln!(csv, "{id},\"{}\",{},{}", d.deal, d.tricks, d.cards);
        }
        if path.as_os_str() == "-" {
            crate::output::print_stdout(&csv)?;
            eprint!("{report}");
            return Ok(code);
        }
        write_atomic(path, csv.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    crate::output::print_stdout(&report)?;
    Ok(code)
}

fn ancestors_report(t: &Tree, args: &AncestorsArgs, methods: Methods, secs: f64) -> String {
    let mut s = String::new();
    match &t.root {
        Root::Cycle { id, positions, self_twin } => {
            let _ = writeln!(
                s,
                "root:      the loop {id} ({} tricks{}): its {} positions, the tree of those \
                 that reach it",
                positions.len(),
                if *self_twin { ", its own mirror image" } else { "" },
                positions.len()
            );
        }
        Root::Position(p) => {
            let _ = writeln!(s, "root:      {p} (not on a loop)");
        }
    }
    let _ = writeln!(s, "methods:   {methods}");
    let w = &t.walked;
    let coverage = if w.complete() {
        "complete: every ancestor".to_string()
    } else if w.stopped {
        "INCOMPLETE: stopped by the request (Ctrl-C or SIGTERM); the counts are those of the \
         ancestors visited before"
            .to_string()
    } else if !w.budget_hit {
        let mut cut = Vec::new();
        if w.depth_cut {
            cut.push(format!("depth ≤ {}", args.max_depth.unwrap_or(u64::MAX)));
        }
        if w.ties_cut {
            cut.push(format!("ties ≤ {}", args.max_ties.unwrap_or(0)));
        }
        format!("exhaustive within the bounds ({}), which leave ancestors out", cut.join(", "))
    } else {
        format!("INCOMPLETE: stopped on its budget of {} positions", args.budget)
    };
    let _ = writeln!(s, "coverage:  {coverage}");
    let _ = writeln!(s, "ancestors: {} positions", w.visited);
    if w.visited == 0 && w.complete() {
        let _ = writeln!(s, "           no position leads to it: it has no predecessor");
    }
    let depths: Vec<String> =
        t.by_depth.iter().enumerate().skip(1).map(|(d, n)| format!("{d}:{n}")).collect();
    if !depths.is_empty() {
        let _ = writeln!(s, "by depth:  {}", depths.join(" "));
    }
    let mirror = matches!(t.root, Root::Cycle { .. }) && methods.is_swap_symmetric();
    let _ = writeln!(
        s,
        "deals:     {}{}",
        t.deal_count,
        if mirror { " (one per mirror pair, those on the loop included)" } else { "" }
    );
    for (p, tricks, cards) in &t.deepest {
        let _ = writeln!(s, "deepest:   {tricks} tricks, {cards} cards: {p}");
    }
    let _ = writeln!(s, "time:      {secs:.2} s");
    s
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
    use bataille_cycles::hunt::{PositionHunt, Sampler, read_seeds, write_seeds};
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
    let seeds = match (&args.seeds, args.sampler) {
        (Some(path), SamplerName::Insert | SamplerName::Mutate) => {
            let text = read_bounded(path, crate::output::MAX_RECORDS_BYTES)?
                .with_context(|| format!("cannot read {}: it does not exist", path.display()))?;
            read_seeds(&text)
                .with_context(|| format!("cannot read the seeds {}", path.display()))?
        }
        (Some(_), _) => bail!("--seeds is for the insert and mutate samplers"),
        (None, SamplerName::Insert | SamplerName::Mutate) => {
            let name = format!("{:?}", args.sampler).to_lowercase();
            bail!("the {name} sampler needs --seeds FILE")
        }
        (None, _) => Vec::new(),
    };
    let sampler = match args.sampler {
        SamplerName::Uniform => Sampler::Uniform,
        SamplerName::Piles => Sampler::Piles,
        SamplerName::Insert => Sampler::Insert(seeds.clone()),
        SamplerName::Mutate => Sampler::Mutate(seeds.clone()),
    };
    let game = PositionHunt::new(spec, methods, sampler)?;
    let mut config =
        crate::search::RunConfig::new(&game, &args.run, args.keep)?.named("cycles hunt");
    if !seeds.is_empty() {
        config = config.with_file("seeds.txt", write_seeds(&seeds).into_bytes());
    }
    crate::search::run_search(&game, &config, None)
}

#[cfg(test)]
mod tests {
    use bataille_cycles::census::{CensusSpec, CensusState};
    use bataille_engine::{DeckSpec, Method};
    use bataille_search::Shard;

    use super::refuse_out_of_reach;

    fn census(c: usize, v: usize, method: Method, shard: Shard) -> CensusState {
        CensusState::new(CensusSpec::new(DeckSpec::new(c, v).unwrap(), method).unwrap(), shard)
    }

    #[test]
    fn only_a_census_far_out_of_reach_is_refused() {
        // C=4 V=6 (920 CPU-hours natural, measured on shards) runs on one thread.
        assert!(refuse_out_of_reach(&census(4, 6, Method::Natural, Shard::WHOLE), 1).is_ok());
        // C=4 V=7, even optimized and on 64 threads, is refused; a thousandth of it is not.
        let c4v7 = census(4, 7, Method::Optimized, Shard::WHOLE);
        let e = refuse_out_of_reach(&c4v7, 64).unwrap_err().to_string();
        assert!(e.contains("C=4 V=7 optimized") && e.contains("--no-estimate-limit"), "{e}");
        let part = census(4, 7, Method::Optimized, "1/1000".parse().unwrap());
        assert!(refuse_out_of_reach(&part, 64).is_ok());
        // What is left counts (a state resumed): one unit of the 52-card census is still out
        // of reach, none is not.
        let mut c4v13 = census(4, 13, Method::Natural, Shard::WHOLE);
        assert!(refuse_out_of_reach(&c4v13, 2).is_err());
        c4v13.done = c4v13.shard_units() - 1;
        assert!(refuse_out_of_reach(&c4v13, 2).is_err());
        c4v13.done = c4v13.shard_units();
        assert!(refuse_out_of_reach(&c4v13, 2).is_ok());
    }
}
