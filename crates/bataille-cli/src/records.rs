//! `bataille records search` and `bataille records extend`: record hunting on the command line.
//!
//! Validates the flags into a [`bataille_records::search::Config`], runs the search with a
//! progress bar (plain periodic lines when stderr is not a terminal), saves checkpoints
//! atomically on a timer and on Ctrl-C, and writes the output directory:
//!
//! - `best.csv`: every chain's best finished game, for each measure, longest first;
//! - `cycles.csv`: the loops met (loops are never records);
//! - `state.txt`: the search state (the same bytes for the same work, whatever `--threads`);
//! - `metadata.csv`: command, seed, threads, iterations, elapsed time, and the replay command.
//!
//! With `--records FILE` (usually `results/records.csv`) the best deal for each measure is also
//! appended to that records file, with the command, seed, commit and machine that found it;
//! `bataille verify` replays every row of that file. Without it no file but the output
//! directory is written.
//!
//! `records extend` plays backwards from a deal (or any position whose game ends) and appends
//! the deals farthest before it, which play that many tricks more, to the same file.
//!
//! The records file is checked before any work (readable, appendable, within
//! [`crate::output::MAX_RECORDS_BYTES`]); the output directory is refused when it holds other
//! files, unless it is this search's own (`--resume`) or `--replace` is given.
//!
//! Exit codes: 0 done, 2 bad input (also a `--time` too short to evaluate a deal), 130
//! interrupted by Ctrl-C (`--resume` continues).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use bataille_engine::{Limits, NoRandom, Position, backward, play};
use bataille_records::row::{FoundBy, RecordRow};
use bataille_records::search::{
    Anneal, Budget, Config, RunOptions, SearchResult, SearchState, search,
};
use bataille_search::stats::Measure;
use clap::{Args, Subcommand};

use crate::args::{DeckArgs, MethodArgs};
use crate::checks::{cores, shown};
use crate::output::progress::{RecordsProgress, UnitsProgress};
use crate::output::stop::{EXIT_INTERRUPTED, on_interrupt};
use crate::output::{
    OutputFiles, append_records, check_records_file, command_line, commit, machine,
    prepare_outputs, read_bounded, report_appended, utc_now,
};

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
    }
}

fn extend_command(args: ExtendArgs) -> Result<ExitCode> {
    let start: Position =
        args.deal.parse().with_context(|| format!("invalid deal {}", shown(&args.deal)))?;
    let spec = start
        .infer_deck()
        .with_context(|| format!("{} is not a whole deck", shown(&start.to_string())))?;
    let methods = args.methods.deterministic("playing backwards needs")?;
    if args.budget == 0 {
        bail!("--budget must be at least 1, got 0");
    }
    bataille_runs::cycles::check_walk_memory(
        args.budget,
        start.cards(),
        &bataille_runs::files::Words::CLI,
    )?;
    if let Some(records) = &args.records {
        check_records_file(records)?;
    }
    let play = |p: &Position| play(p, methods, &mut NoRandom, Limits::DETERMINISTIC);
    let r = play(&start);
    if !r.outcome.is_finished() {
        bail!(
            "the game from {} does not end ({}): only a finished game can be extended",
            shown(&start.to_string()),
            r.outcome.name()
        );
    }
    println!("start:     {start}");
    println!(
        "game:      C={} V={} {methods}: {} tricks, {} cards",
        spec.colours(),
        spec.values(),
        r.tricks,
        r.cards
    );
    // Ctrl-C (or SIGTERM) ends the search within milliseconds; the best deals found before
    // are printed and kept as a finished search's are.
    let stop = on_interrupt("bataille: stopping the search (Ctrl-C again to quit at once)");
    let started = Instant::now();
    let ties = format!("tricks of at most {} ties", args.max_ties);
    // The longest deal found by each measure: (deal, tricks, cards) of its whole game.
    let (found, complete, ties_cut, stopped) = if args.whole_game {
        let positions = r.tricks / args.every + 1;
        let progress =
            UnitsProgress::counting("records extend", positions, "positions of the game");
        let e = backward::extend_game(
            &start,
            methods,
            args.max_ties,
            args.budget,
            args.every,
            stop,
            &mut |done| progress.update(done, 0, positions, "searched backwards"),
        );
        progress.finish();
        let searched = match (e.stopped, e.complete, e.ties_cut) {
            (true, ..) => "STOPPED by the request, the rest of the game not searched".to_string(),
            (_, true, false) => "each whole tree".to_string(),
            (_, true, true) => format!("each whole tree of {ties} (longer tricks left out)"),
            (_, false, _) => format!("some stopped at the budget of {} positions", args.budget),
        };
        println!(
            "searched:  {} positions of the game (every {} tricks), {} positions before them, \
             {searched} in {:.2} s",
            e.positions,
            args.every,
            e.visited,
            started.elapsed().as_secs_f64()
        );
        ([e.by_tricks, e.by_cards], e.complete, e.ties_cut, e.stopped)
    } else {
        let progress = UnitsProgress::counting("records extend", args.budget, "positions");
        let e = backward::extend_watched(
            &start,
            methods,
            args.max_ties,
            args.budget,
            stop,
            &mut |seen| {
                progress.update(seen, 0, args.budget, &format!("{seen} positions before it"));
            },
        );
        progress.finish();
        let searched = match (e.stopped, e.complete, e.ties_cut) {
            (true, ..) => "STOPPED by the request".to_string(),
            (_, true, false) => "the whole tree".to_string(),
            (_, true, true) => format!("the whole tree of {ties} (longer tricks left out)"),
            (_, false, _) => format!("stopped at the budget of {} positions", args.budget),
        };
        println!(
            "searched:  {} positions before it ({} deals), {searched} in {:.2} s",
            e.visited,
            e.deals,
            started.elapsed().as_secs_f64()
        );
        let whole =
            |f: Option<(Position, u64, u64)>| f.map(|(d, t, c)| (d, r.tricks + t, r.cards + c));
        ([whole(e.by_tricks), whole(e.by_cards)], e.complete, e.ties_cut, e.stopped)
    };
    let mut rows = Vec::new();
    let mut command =
        format!("bataille records extend {} --method {}", start.compact(), methods.first);
    if methods.second != methods.first {
        command += &format!(" --method2 {}", methods.second);
    }
    command += &format!(" --max-ties {} --budget {}", args.max_ties, args.budget);
    if args.whole_game {
        command += &format!(" --whole-game --every {}", args.every);
    }
    let (commit, machine, date) = (commit(), machine(), utc_now());
    for (measure, found) in [(Measure::Tricks, &found[0]), (Measure::Cards, &found[1])] {
        let Some((deal, tricks, cards)) = found else { continue };
        // Replayed: the deal must play exactly the announced game.
        let g = play(deal);
        if !g.outcome.is_finished() || (g.tricks, g.cards) != (*tricks, *cards) {
            bail!(
                "internal error: {deal} was found to play {tricks} tricks, {cards} cards but \
                 plays {} tricks, {} cards",
                g.tricks,
                g.cards
            );
        }
        // From a deal, a deal whose game is longer; from any other position (a long game of a
        // position hunt, say), the longest deal found: the start's own game is no deal's.
        let longer = match measure {
            _ if !start.is_deal() => true,
            Measure::Tricks => (g.tricks, g.cards) > (r.tricks, r.cards),
            Measure::Cards => (g.cards, g.tricks) > (r.cards, r.tricks),
        };
        if !longer {
            continue;
        }
        let signed = |a: u64, b: u64| format!("{:+}", a as i128 - b as i128);
        let against = if start.is_deal() {
            format!("{} tricks, {} cards", signed(g.tricks, r.tricks), signed(g.cards, r.cards))
        } else {
            "the longest deal found".to_string()
        };
        println!(
            "by {:<7} {deal}: {} tricks, {} cards ({against})",
            format!("{}:", measure.name()),
            g.tricks,
            g.cards,
        );
        rows.push(RecordRow {
            spec,
            methods,
            measure,
            tricks: g.tricks,
            cards: g.cards,
            deal: deal.clone(),
            found_by: FoundBy {
                seed: None,
                command: command.clone(),
                commit: commit.clone(),
                machine: machine.clone(),
                date: date.clone(),
            },
        });
    }
    if rows.is_empty() && stopped {
        println!("stopped: no longer game found before the stop (nothing is claimed)");
    } else if rows.is_empty() {
        let what = match (args.whole_game, start.is_deal()) {
            (true, true) => "no deal leads to a longer game through a position of this one",
            (true, false) => "no deal leads to a position of this game",
            (false, _) => "no deal leads to this position",
        };
        match (complete, ties_cut) {
            (true, false) => println!("{what}"),
            (true, true) => println!("{what} through {ties}"),
            (false, _) if !start.is_deal() => println!(
                "undecided: no deal found within the budget (a larger --budget searches further)"
            ),
            (false, _) => println!(
                "undecided: no longer game found within the budget (a larger --budget searches \
                 further)"
            ),
        }
    } else if let Some(records) = &args.records {
        report_appended(records, append_records(records, &rows)?, rows.len());
    }
    if stopped {
        println!("stopped: the search was cut short; the deals above are the best found before");
        return Ok(ExitCode::from(EXIT_INTERRUPTED));
    }
    Ok(ExitCode::SUCCESS)
}

fn search_command(args: SearchArgs) -> Result<ExitCode> {
    // The code and machine the search starts with (the working directory may move on during a
    // long run).
    let (commit, machine) = (commit(), machine());
    let (spec, methods) = args.deck.validate()?;
    let measure = args.measure;
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
    let cfg = Config {
        spec,
        methods,
        measure,
        seed: args.seed,
        chains: args.chains,
        anneal: Anneal { epoch: args.epoch, ..Anneal::default() },
    };
    cfg.validate()?;
    if let Some(records) = &args.records {
        crate::output::check_outside_outputs("--records", records, &args.out)?;
        crate::output::files::check_records_apart(records, args.checkpoint.as_deref())?;
        check_records_file(records)?;
    }
    let read_state = |path: &Path| -> Result<Option<SearchState>> {
        let Some(text) = read_bounded(path, crate::output::MAX_STATE_BYTES)? else {
            return Ok(None);
        };
        Ok(Some(
            SearchState::decode(&text, &cfg)
                .with_context(|| format!("cannot resume from {}", path.display()))?,
        ))
    };
    let resume = match (&args.checkpoint, args.resume) {
        (Some(path), true) => Some(read_state(path)?.with_context(|| {
            format!("cannot read the checkpoint {}: it does not exist", path.display())
        })?),
        _ => None,
    };
    if let (Some(state), Budget::Iterations(n)) = (&resume, budget)
        && state.iterations() > n
    {
        bail!(
            "the checkpoint is already at {} iterations, beyond --iterations {n}: a resume \
             cannot give the run of {n} (start it again without --resume)",
            state.iterations()
        );
    }
    let own = |dir: &Path| read_state(&dir.join("state.txt")).is_ok_and(|s| s.is_some());
    let _outputs =
        prepare_outputs(args.checkpoint.as_deref(), args.resume, &args.out, args.replace, &own)?;

    let stop =
        on_interrupt("records: stopping after the current round (Ctrl-C again to quit at once)");
    let len = match budget {
        Budget::Iterations(n) => Some(n),
        Budget::Time(_) => None,
    };
    let progress = RecordsProgress::new(len, args.checkpoint.clone());
    let options = RunOptions {
        threads: args.threads,
        checkpoint_every: Duration::from_secs(args.checkpoint_every.max(1)),
    };
    let started = Instant::now();
    let ended = search(&cfg, budget, resume, &options, &progress, stop)?;
    let elapsed = started.elapsed().as_secs_f64();
    progress.finish();
    let result = &ended.result;
    if result.iterations == 0 {
        bail!(
            "no deal was evaluated within --time {:?}: give a longer --time, or --iterations N",
            args.time.unwrap_or_default()
        );
    }
    let threads = if args.threads == 0 { cores() } else { args.threads };
    let command = command_line();
    let replay = replay_command(&args, result.iterations);

    let mut files = OutputFiles::new(&args.out);
    files.add("best.csv", result.best_csv(cfg.spec));
    files.add("cycles.csv", result.cycles_csv(cfg.spec));
    files.add("state.txt", ended.state.encode().into_bytes());
    let rate = ended.iterations_run as f64 / elapsed.max(1e-9);
    files.add_key_values(
        "metadata.csv",
        &[
            ("command", command.clone()),
            ("replay", replay.clone()),
            ("version", env!("CARGO_PKG_VERSION").to_string()),
            ("commit", commit.clone()),
            ("machine", machine.clone()),
            ("seed", args.seed.to_string()),
            ("chains", args.chains.to_string()),
            ("threads", threads.to_string()),
            ("iterations", result.iterations.to_string()),
            ("iterations_run", ended.iterations_run.to_string()),
            ("elapsed_s", format!("{elapsed:.3}")),
            ("deals_per_s", format!("{rate:.0}")),
        ],
    );
    files.commit()?;
    let spec_name = format!("C={} V={} {}", spec.colours(), spec.values(), methods);
    println!("search:    {spec_name}, maximising {}, seed {}", measure.name(), args.seed);
    for (name, list) in [("tricks", &result.by_tricks), ("cards", &result.by_cards)] {
        match list.first() {
            Some(f) => println!(
                "best {name:<6} {} tricks, {} cards: {}",
                f.tricks,
                f.cards,
                deal_text(&cfg, &f.deal)
            ),
            None => println!("best {name:<6} none (every deal looped)"),
        }
    }
    println!(
        "loops:     {} deals looped, {} distinct loops (cycles.csv)",
        result.loops_met,
        result.cycles.len()
    );
    println!(
        "time:      {elapsed:.2} s, {} deals evaluated, {rate:.0} deals/s on {threads} threads",
        ended.iterations_run
    );
    println!("replay:    {replay}");
    if let Some(records) = args.records.as_ref().filter(|_| !ended.interrupted) {
        let date = utc_now();
        let rows: Vec<_> =
            [(Measure::Tricks, &result.by_tricks), (Measure::Cards, &result.by_cards)]
                .into_iter()
                .filter_map(|(m, list)| list.first().map(|f| (m, f)))
                .map(|(measure, f)| RecordRow {
                    spec,
                    methods,
                    measure,
                    tricks: f.tricks,
                    cards: f.cards,
                    deal: SearchResult::position(cfg.spec, &f.deal),
                    found_by: FoundBy {
                        seed: Some(args.seed),
                        command: replay.clone(),
                        commit: commit.clone(),
                        machine: machine.clone(),
                        date: date.clone(),
                    },
                })
                .collect();
        report_appended(records, append_records(records, &rows)?, rows.len());
    }
    println!("results:   {}", args.out.display());
    if ended.interrupted {
        println!("stopped before the end: the results are partial");
        return Ok(ExitCode::from(EXIT_INTERRUPTED));
    }
    Ok(ExitCode::SUCCESS)
}

/// The command that replays this search with an iteration budget (the same deals).
fn replay_command(args: &SearchArgs, iterations: u64) -> String {
    let mut c = format!(
        "bataille records search --colours {} --values {} --method {}",
        args.deck.colours, args.deck.values, args.deck.methods.method
    );
    if let Some(m) = &args.deck.methods.method2 {
        c += &format!(" --method2 {m}");
    }
    c += &format!(
        " --measure {} --seed {} --chains {} --epoch {} --iterations {iterations}",
        args.measure, args.seed, args.chains, args.epoch
    );
    c
}

fn deal_text(cfg: &Config, deal: &[u8]) -> String {
    SearchResult::position(cfg.spec, deal).to_string()
}
