//! `bataille cycles solve`: loops of a given period found, or proved absent, by a SAT solver
//! (see `bataille_sat`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use bataille_engine::{DeckSpec, Method, Methods, Position};
use bataille_sat::{
    Certificate, Config, Counted, Found, Instance, Question, Settings, Verdict, solve, solve::PART,
};
use bataille_search::pool::Pool;
use clap::Args;

use crate::output::stop::{EXIT_INTERRUPTED, on_interrupt};
use crate::output::{MAX_STATE_BYTES, OutputFiles, command_line, prepare_outputs, read_bounded};

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
    /// With --resume, the commands of the runs that made the files before this one, read once
    /// from their metadata.csv before this run first writes it.
    #[arg(skip)]
    pub earlier: OnceLock<Vec<String>>,
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

const INSTANCES_HEADER: &str = "deals,verdict,loops_found,vars,clauses,solver_calls,\
solve_s,check_s,proof_bytes,proof_sha256,proof_steps,cnf_sha256,solver";

impl RunArgs {
    /// After the last period: the proofs directory named (with --keep, when it holds proofs,
    /// this run's or an earlier one's) or removed (when empty).
    pub(crate) fn put_away_proofs(&self, settings: &Settings) {
        let kept = std::fs::read_dir(&settings.work_dir).is_ok_and(|mut d| d.next().is_some());
        if self.keep && kept {
            println!("proofs:    {}", settings.work_dir.display());
        } else if !kept {
            let _ = std::fs::remove_dir(&settings.work_dir);
        }
    }

    /// Whether --resume keeps as it is, rather than solve again, the period or part of row
    /// `line` (of a file whose header is `header`): one formula (not a sum of parts, which
    /// has no formula hash) undecided at a time limit at least about this run's, by this
    /// run's solver and configuration, which would only be undecided again. Its solver seconds
    /// stand for the limit it ran into, with a 5% margin: the limit counts the solver's calls
    /// only, as `solve_s` does, but rows written before it did (when it also counted the
    /// loading of the formula and the work between calls) fall short of it by that much.
    /// With no --time-limit, nothing is kept.
    pub(crate) fn ran_out(&self, header: &str, line: &str) -> bool {
        let field = |name: &str| {
            let i = header.split(',').position(|h| h == name);
            i.and_then(|i| line.split(',').nth(i)).unwrap_or("")
        };
        let limit = |t: Duration| {
            field("solve_s").parse::<f64>().is_ok_and(|s| s >= 0.95 * t.as_secs_f64())
        };
        field("verdict") == "undecided"
            && !field("cnf_sha256").is_empty()
            && field("solver") == self.solver_config.solver()
            && self.time_limit.is_some_and(limit)
    }

    /// The exit code: interrupted if Ctrl-C stopped the solver.
    pub(crate) fn exit_code(settings: &Settings) -> ExitCode {
        if settings.stop.load(Ordering::Relaxed) {
            ExitCode::from(EXIT_INTERRUPTED)
        } else {
            ExitCode::SUCCESS
        }
    }

    /// The solver's settings: proofs in --out/proofs (created here), Ctrl-C stops the solver,
    /// a progress line on standard error at most every 30 s.
    pub(crate) fn settings(&self, all: bool) -> Result<Settings> {
        let proofs = self.out.join("proofs");
        // The files a run killed on the way was writing (this run holds the directory's lock),
        // and with --replace the kept proofs of the results replaced, which go with them: only
        // names the solver commands write, in a proofs directory of the output's own.
        let mut ends = vec![format!(".cnf.{PART}"), format!(".lrat.{PART}")];
        if self.replace {
            ends.extend([".cnf".to_string(), ".lrat".to_string()]);
        }
        let ours = |name: &str| {
            (name.starts_with("period-") || name.starts_with("cards-"))
                && ends.iter().any(|e| name.ends_with(e))
        };
        let entries = if proofs.is_symlink() { None } else { std::fs::read_dir(&proofs).ok() };
        for file in entries.into_iter().flatten().flatten() {
            let path = file.path();
            if file.file_name().to_str().is_some_and(ours) && path.is_file() {
                std::fs::remove_file(&path)
                    .with_context(|| format!("cannot remove {}", path.display()))?;
            }
        }
        std::fs::create_dir_all(&proofs)
            .with_context(|| format!("cannot create {}", proofs.display()))?;
        Ok(Settings {
            all,
            time_limit: self.time_limit,
            stop: on_interrupt("bataille: stopping the solver (Ctrl-C again to quit at once)"),
            work_dir: proofs,
            keep: self.keep,
            progress: Some(solver_progress),
            config: self.solver_config,
        })
    }

    /// metadata.csv of a solver run: the question (`header` is `question,TEXT`), the commands
    /// of the runs resumed (`earlier_command`, first to last, a command run again in a row
    /// written once), this run's command, the version, this run's solver and checker, its time
    /// limit. (Each row of the results names the solver that decided it.)
    pub(crate) fn metadata(&self, files: &mut OutputFiles, header: &str) {
        let (q, rest) = header.split_once(',').expect("a key and a value");
        let earlier = self
            .earlier
            .get_or_init(|| if self.resume { earlier_commands(&self.out) } else { Vec::new() });
        let command = command_line();
        // The same command run again (a queue restarted, a run resumed after a stop) is one.
        let earlier = match earlier.split_last() {
            Some((last, before)) if *last == command => before,
            _ => earlier.as_slice(),
        };
        let mut rows = vec![(q, rest.to_string())];
        rows.extend(earlier.iter().map(|c| ("earlier_command", c.clone())));
        rows.extend([
            ("command", command),
            ("version", env!("CARGO_PKG_VERSION").to_string()),
            ("solver", self.solver_config.solver()),
            ("checker", "bataille_sat::lrat (RUP steps only)".to_string()),
            (
                "time_limit_s",
                self.time_limit.map_or("none".into(), |t| t.as_secs_f64().to_string()),
            ),
        ]);
        files.add_key_values("metadata.csv", &rows);
    }
}

/// The commands that made a solver directory's files, from its metadata.csv: its earlier
/// commands, then its command (none if the file cannot be read).
fn earlier_commands(dir: &Path) -> Vec<String> {
    let Ok(Some(text)) = read_bounded(&dir.join("metadata.csv"), MAX_STATE_BYTES) else {
        return Vec::new();
    };
    csv::Reader::from_reader(text.as_bytes())
        .records()
        .filter_map(|r| r.ok())
        .filter(|r| matches!(r.get(0), Some("earlier_command" | "command")))
        .filter_map(|r| r.get(1).map(str::to_string))
        .collect()
}

/// The question line of a solver directory's metadata.csv (`question,TEXT`), if it has one.
fn question_of(dir: &Path) -> Option<String> {
    let text = read_bounded(&dir.join("metadata.csv"), MAX_STATE_BYTES).ok().flatten()?;
    text.lines().find(|l| l.starts_with("question,")).map(str::to_string)
}

/// Checks, before anything is written, that `--resume` has this question's directory to
/// continue: one that exists, whose question line is `header` or one that `extends` accepts
/// (the same question to a smaller bound). Another question is refused with what differs.
/// Returns the test of a directory's own files for [`prepare_outputs`].
pub(crate) fn check_resumable<'a>(
    run: &RunArgs,
    header: &'a str,
    extends: &'a dyn Fn(&str) -> bool,
) -> Result<impl Fn(&Path) -> bool + 'a> {
    let own =
        move |dir: &Path| question_of(dir).is_some_and(|line| line == header || extends(&line));
    if !run.resume || run.replace {
        return Ok(own);
    }
    if !run.out.exists() {
        bail!(
            "--resume: the output directory {} does not exist: there is nothing to resume \
             (leave out --resume to start)",
            run.out.display()
        );
    }
    if let Some(line) = question_of(&run.out)
        && line != header
        && !extends(&line)
    {
        let (theirs, ours) = (&line["question,".len()..], &header["question,".len()..]);
        let (a, b) = differing_words(theirs, ours);
        bail!(
            "--resume: {} holds another question, \"{theirs}\", not this run's \"{ours}\" \
             (it has {a} where this run has {b}): resume it with its own question \
             (its metadata.csv has the commands), or with a larger --max-period or \
             --max-rounds, which keeps its periods; or pass --replace",
            run.out.display()
        );
    }
    Ok(own)
}

/// The words where `a` and `b` differ: what lies between their common first and last words.
fn differing_words(a: &str, b: &str) -> (String, String) {
    let (x, y): (Vec<&str>, Vec<&str>) = (a.split(' ').collect(), b.split(' ').collect());
    let head = x.iter().zip(&y).take_while(|(p, q)| p == q).count();
    let most = x.len().min(y.len()) - head;
    let tail = x.iter().rev().zip(y.iter().rev()).take(most).take_while(|(p, q)| p == q).count();
    let middle = |w: &[&str]| {
        let m = w[head..w.len() - tail].join(" ");
        if m.is_empty() { "nothing".to_string() } else { format!("\"{m}\"") }
    };
    (middle(&x), middle(&y))
}

pub(crate) fn run(args: SolveArgs) -> Result<ExitCode> {
    let deck = DeckSpec::new(args.colours, args.values)?;
    let counted = args.counted();
    let (first, last) = match (args.period, args.max_period) {
        (Some(p), _) => (p, p),
        (None, Some(p)) => (1, p),
        (None, None) => bail!("give --period P or --max-period P"),
    };
    // Every period is checked before any work (a refused size, a refused method).
    let question = |period| Question {
        deck,
        method: args.method,
        counted,
        period,
        deals: args.deals,
        max_ties: args.max_ties,
        max_hand: args.max_hand,
        first_hand: None,
    };
    for p in [first, last] {
        let q = question(p);
        q.check()?;
        if args.split {
            // The parts are refused where a period has none (tricks, deals).
            Question { first_hand: Some(1), ..q }.check()?;
        }
    }
    let restricted = restriction(args.max_ties, args.max_hand);
    let question_line =
        |last: u32| header(deck, args.method, args.deals, counted, first, last, &restricted);
    let header = question_line(last);
    // A run of periods 1 to a smaller bound is continued by a larger one: its periods are
    // this question's too.
    let extends = |line: &str| first == 1 && (1..last).any(|n| line == question_line(n));
    let own = check_resumable(&args.run, &header, &extends)?;
    let _outputs = prepare_outputs(None, args.run.resume, &args.run.out, args.run.replace, &own)?;
    let methods = Methods::both(args.method);

    // Resume: the periods decided before, the parts of split periods, and their loops.
    let most = question(first).parts().len();
    let (mut rows, mut parts, mut known, claims) = if args.run.resume {
        let expected =
            Expected { deck, methods, counted, deals: args.deals, first, last, parts: most };
        read_previous(&args.run.out, &expected)?
    } else {
        Default::default()
    };
    // Solved again: what is undecided or stopped, and with --all what stopped at its first
    // loop; but not what is undecided at a time limit at least about this run's (a period
    // solved whole then, or a part with --split), which would only be undecided again.
    let redo = |verdict: &str| is_open(verdict) || (args.all && verdict == "found");
    let decided: Vec<u32> = rows.iter().filter(|r| !redo(&r.1)).map(|r| r.0).collect();
    let (row_header, part_header) = (instances_header(counted), parts_header(counted));
    let mut held: Vec<u32> = rows
        .iter()
        .filter(|r| !args.split && args.run.ran_out(&row_header, &r.2))
        .map(|r| r.0)
        .collect();
    // A part solved again is solved whole again; so is every part of a period now solved
    // whole.
    let held_part = |r: &PartRow| args.split && args.run.ran_out(&part_header, &r.line);
    parts.retain(|r| {
        (!redo(&r.verdict) || held_part(r)) && (args.split || decided.contains(&r.period))
    });
    // A split period undecided with every part kept, one of them undecided, has nothing left
    // to solve either.
    let mine = |p: u32| parts.iter().filter(move |r| r.period == p);
    held.extend(rows.iter().filter(|r| args.split && r.1 == "undecided").map(|r| r.0).filter(
        |&p| {
            mine(p).count() == question(p).parts().len()
                && mine(p).any(|r| r.verdict == "undecided")
        },
    ));
    rows.retain(|r| decided.contains(&r.0) || held.contains(&r.0));
    // What is solved again finds its loops again (and would not, were they kept: they would be
    // blocked).
    let kept_part =
        |period: u32, hand: u32| parts.iter().any(|r| (r.period, r.first_hand) == (period, hand));
    known.retain(|f| {
        let p = finder(first, last, counted.of(f));
        decided.contains(&p) || held.contains(&p) || kept_part(p, part_of(f))
    });
    // Every period and part kept lists as many loops as it found (what is solved again need
    // not: a run killed while dropping its loops leaves its row).
    for c in claims {
        let kept =
            if c.hand == 0 { decided.contains(&c.period) } else { kept_part(c.period, c.hand) };
        let listed = known
            .iter()
            .filter(|f| finder(first, last, counted.of(f)) == c.period)
            .filter(|f| c.hand == 0 || part_of(f) == c.hand)
            .count() as u64;
        if kept && listed != c.loops {
            let hand =
                if c.hand == 0 { String::new() } else { format!(" smallest hand {}", c.hand) };
            bail!(
                "--resume: {} lists {listed} loops of {}{hand}, where the run found {}: the \
                 files do not agree (start again with --replace)",
                args.run.out.join("cycles.csv").display(),
                label(counted, c.period),
                c.loops
            );
        }
    }
    // Every period and part kept was solved for this question's formula: its size, rebuilt,
    // is the one its row gives (a row taken from another question's files, or a question
    // line edited, is refused).
    if args.run.resume {
        let kept = Kept { rows: &rows, parts: &parts, known: &known, first, last, counted };
        // (One formula at a time, as a whole period is solved; with --split, as many as parts
        // are solved at once.)
        let threads = if args.split { args.threads.unwrap_or(0) } else { 1 };
        kept.check_formulas(&args.run.out, &question, threads)?;
    }
    // Nothing left to solve (every period decided, the search stopped at its loop before, or
    // the first period not decided is undecided at this time limit already): the files stay
    // as they are, their command and solver lines those of the runs that decided them, and
    // the answer is said again.
    let mut exact_found = rows.iter().any(|r| r.1 == "found");
    let nothing_left = (exact_found && !args.all)
        || (first..=last).find(|p| !decided.contains(p)).is_none_or(|p| held.contains(&p));
    if nothing_left {
        println!("nothing left to solve: {} is kept as it is", args.run.out.display());
    } else {
        // The directory is this question's from now on: a run stopped at once can be resumed.
        write(&args, &header, &rows, &parts, &known)?;
    }
    let settings = args.run.settings(args.all)?;
    println!(
        "deck:      C={} V={} {}, {}{}",
        deck.colours(),
        deck.values(),
        args.method.name(),
        what(args.deals),
        restricted
    );
    println!(
        "solver:    {} (LRAT proofs checked by bataille's own checker)",
        args.run.solver_config.solver()
    );
    // The parts of a split period run on these threads.
    let pool = if args.split { Some(Pool::new(args.threads.unwrap_or(0))?) } else { None };
    let mut stopped_at = None;
    for period in first..=last {
        if exact_found && !args.all {
            break;
        }
        if decided.contains(&period) {
            continue;
        }
        if held.contains(&period) {
            stopped_at = Some(period);
            break;
        }
        let q = question(period);
        // With --max-period, the loops of the periods before (not those of this period that
        // parts kept from an earlier run found: each part blocks only its own, so that a part
        // solved again is the formula it would have been in one run).
        let blocked: Vec<Found> = if args.max_period.is_some() {
            known.iter().filter(|f| counted.of(f) < u64::from(period)).cloned().collect()
        } else {
            Vec::new()
        };
        let verdict = if let Some(pool) = &pool {
            let ctx = SplitRun { args: &args, header: &header, settings: &settings, pool };
            ctx.period(&q, &blocked, &mut rows, &mut parts, &mut known)?
        } else {
            let inst = solve(&q, &blocked, &settings)?;
            report(&inst, None);
            rows.push((period, verdict_name(&inst.verdict).to_string(), instance_row(&inst)));
            add_loops(&mut known, &inst.found);
            write(&args, &header, &rows, &parts, &known)?;
            inst.verdict
        };
        exact_found |= verdict == Verdict::Found;
        if !verdict.is_decided() {
            stopped_at = Some(period);
            break;
        }
    }
    args.run.put_away_proofs(&settings);
    if !nothing_left {
        write(&args, &header, &rows, &parts, &known)?;
    }
    let stopped_at = stopped_at.map(|p| (p, settings.stop.load(Ordering::Relaxed)));
    println!("{}", conclusion(&rows, &args, first, last, stopped_at, &restricted));
    Ok(RunArgs::exit_code(&settings))
}

/// A row of parts.csv: one part of a split period.
#[derive(Debug, Clone)]
struct PartRow {
    period: u32,
    first_hand: u32,
    verdict: String,
    /// The row, period and first hand included.
    line: String,
}

/// The header of cycles.csv.
const CYCLES_HEADER: &str = "cycle_id,period_tricks,period_cards,position";

impl PartRow {
    fn of(inst: &Instance) -> PartRow {
        let row = instance_row(inst);
        let (period, rest) = row.split_once(',').expect("a period column");
        let first_hand = inst.question.first_hand.expect("a part of a split period");
        PartRow {
            period: inst.question.period,
            first_hand,
            verdict: verdict_name(&inst.verdict).to_string(),
            line: format!("{period},{first_hand},{rest}"),
        }
    }

    fn field(&self, i: usize) -> &str {
        self.line.split(',').nth(i).unwrap_or("")
    }
}

/// The instances.csv row of a split period, from its parts: the verdict (found if a part found
/// a loop of the period, complete if every part is decided, else stopped if a stop was asked
/// or a part was stopped, else undecided), the loops of the period, the largest part's
/// formula, the sums of calls, seconds, proof bytes and steps (the parts' proof and formula
/// hashes are in parts.csv, so those two columns are empty).
fn split_row(q: &Question, parts: &[&PartRow], stopped: bool, solver: &str) -> (Verdict, String) {
    let want = q.parts().len();
    let decided = parts.iter().filter(|p| !is_open(&p.verdict)).count();
    let verdict = if parts.iter().any(|p| p.verdict == "found") {
        Verdict::Found
    } else if decided == want {
        Verdict::Complete
    } else if stopped || parts.iter().any(|p| p.verdict == "stopped") {
        Verdict::Stopped
    } else {
        Verdict::Undecided
    };
    // (A fold from +0: an empty sum of floats is -0.)
    let sum = |i: usize| {
        parts.iter().map(|p| p.field(i).parse::<f64>().unwrap_or(0.0)).fold(0.0, |a, b| a + b)
    };
    let most = |i: usize| parts.iter().map(|p| p.field(i).parse::<u64>().unwrap_or(0)).max();
    let complete = verdict == Verdict::Complete;
    let when = |text: String| if complete { text } else { String::new() };
    let line = format!(
        "{},{},{},{},{},{},{},{:.3},{},{},,{},,{solver}",
        q.period,
        q.deals,
        verdict_name(&verdict),
        sum(4),
        most(5).unwrap_or(0),
        most(6).unwrap_or(0),
        sum(7),
        sum(8),
        when(format!("{:.3}", sum(9))),
        when(format!("{}", sum(10))),
        when(format!("{}", sum(12))),
    );
    (verdict, line)
}

/// What the parts of a split period share: the flags, the question's header, the settings,
/// the worker threads.
struct SplitRun<'a> {
    args: &'a SolveArgs,
    header: &'a str,
    settings: &'a Settings,
    pool: &'a Pool,
}

impl SplitRun<'_> {
    /// Solves the parts of period `q` not decided yet, on the pool's threads, each part's row
    /// and loops written as soon as it is decided; then the period's row. Returns the period's
    /// verdict.
    fn period(
        &self,
        q: &Question,
        blocked: &[Found],
        rows: &mut Vec<(u32, String, String)>,
        parts: &mut Vec<PartRow>,
        known: &mut Vec<Found>,
    ) -> Result<Verdict> {
        let mut todo: Vec<Question> = q
            .parts()
            .into_iter()
            .filter(|p| {
                !parts.iter().any(|r| r.period == q.period && Some(r.first_hand) == p.first_hand)
            })
            .collect();
        // Longest first, as the earlier period that took the longest predicts: the period
        // ends sooner, and a part that needs most of a working session starts at its
        // beginning (an unknown part goes after the known ones, the rest in their order).
        longest_first(&mut todo, &expected_seconds(parts, q.period));
        let found_exact = AtomicBool::new(false);
        let settings = self.settings;
        let all = self.args.all;
        let failed: Mutex<Option<anyhow::Error>> = Mutex::new(None);
        let shared = Mutex::new((&mut *rows, &mut *parts, &mut *known));
        let fail = |e: anyhow::Error| {
            // The other parts stop at once: an error gives no verdict.
            settings.stop.store(true, Ordering::Relaxed);
            failed.lock().unwrap_or_else(PoisonError::into_inner).get_or_insert(e);
        };
        self.pool.for_each_in_order(&todo, |part| {
            if settings.stop.load(Ordering::Relaxed)
                || (!all && found_exact.load(Ordering::Relaxed))
            {
                return;
            }
            let inst = match solve(part, blocked, settings) {
                Ok(inst) => inst,
                Err(e) => return fail(e.into()),
            };
            if inst.verdict == Verdict::Found {
                found_exact.store(true, Ordering::Relaxed);
            }
            // Each part's row and loops are written as soon as it is decided.
            let mut guard = shared.lock().unwrap_or_else(PoisonError::into_inner);
            let (rows, parts, known) = &mut *guard;
            report(&inst, inst.question.first_hand);
            parts.push(PartRow::of(&inst));
            add_loops(known, &inst.found);
            sort_split_loops(known, q.counted);
            if let Err(e) = write(self.args, self.header, rows, parts, known) {
                fail(e);
            }
        });
        if let Some(e) = failed.into_inner().unwrap_or_else(PoisonError::into_inner) {
            return Err(e);
        }
        let mine: Vec<&PartRow> = parts.iter().filter(|r| r.period == q.period).collect();
        let stopped = settings.stop.load(Ordering::Relaxed);
        let (verdict, line) = split_row(q, &mine, stopped, &settings.config.solver());
        rows.retain(|r| r.0 != q.period);
        rows.push((q.period, verdict_name(&verdict).to_string(), line));
        write(self.args, self.header, rows, parts, known)?;
        let p = label(q.counted, q.period);
        let decided = mine.iter().filter(|r| !is_open(&r.verdict)).count();
        println!(
            "{p}: {} ({decided} of {} parts decided)",
            verdict_name(&verdict),
            q.parts().len()
        );
        Ok(verdict)
    }
}

/// What a resumed run keeps of its files: the rows of instances.csv and parts.csv, the loops.
struct Kept<'a> {
    rows: &'a [(u32, String, String)],
    parts: &'a [PartRow],
    known: &'a [Found],
    first: u32,
    last: u32,
    counted: Counted,
}

impl Kept<'_> {
    /// The loops blocked in the final formula of period `p` (of its part of smallest hand
    /// `hand`): those whose period divides `p`, blocked before the solver started (with
    /// --max-period, the loops of smaller periods, in every part) or found by it.
    fn blocked(&self, p: u32, hand: Option<u32>) -> Vec<&Found> {
        let divides = |f: &&Found| u64::from(p) % self.counted.of(f) == 0;
        let before = |f: &Found| self.first != self.last && self.counted.of(f) < u64::from(p);
        self.known
            .iter()
            .filter(divides)
            .filter(|f| hand.is_none_or(|l| before(f) || part_of(f) == l))
            .collect()
    }

    /// Checks that each period and part kept was solved for `question`'s formula: the
    /// variables and clauses of the formula rebuilt with its loops blocked
    /// ([`bataille_sat::formula_size`]) are those of its row. Every part, and every period
    /// but a split one (whose row sums its parts and has no formula hash), has a formula of
    /// its own: a row without its `cnf_sha256` is refused, unless its period has parts kept.
    /// The formulas are built on a pool of `threads` threads (0: one per core).
    fn check_formulas(
        &self,
        out: &Path,
        question: &(dyn Fn(u32) -> Question + Sync),
        threads: usize,
    ) -> Result<()> {
        // (file, what, question, row's vars and clauses, loops blocked)
        type Job<'b> = (&'static str, String, Question, [&'b str; 2], Vec<&'b Found>);
        let mut jobs: Vec<Job<'_>> = Vec::new();
        let sha = INSTANCES_HEADER.split(',').position(|c| c == "cnf_sha256").expect("a column");
        let no_hash = |file: &str, what: &str| {
            anyhow::anyhow!(
                "--resume: {}: {what} has no cnf_sha256, the hash of the formula it was solved \
                 for: the files do not agree (start again with --replace)",
                out.join(file).display()
            )
        };
        for (p, _, line) in self.rows {
            let f: Vec<&str> = line.split(',').collect();
            let split = self.parts.iter().any(|r| r.period == *p);
            if f.get(sha + 1).is_none_or(|h| h.is_empty()) && !split {
                return Err(no_hash("instances.csv", &label(self.counted, *p)));
            }
            if f.get(sha + 1).is_some_and(|h| !h.is_empty()) {
                let what = label(self.counted, *p);
                jobs.push((
                    "instances.csv",
                    what,
                    question(*p),
                    [f[4], f[5]],
                    self.blocked(*p, None),
                ));
            }
        }
        for r in self.parts {
            let f: Vec<&str> = r.line.split(',').collect();
            let what = format!("{}, smallest hand {}", label(self.counted, r.period), r.first_hand);
            if f.get(sha + 2).is_none_or(|h| h.is_empty()) {
                return Err(no_hash("parts.csv", &what));
            }
            let q = Question { first_hand: Some(r.first_hand), ..question(r.period) };
            let blocked = self.blocked(r.period, Some(r.first_hand));
            jobs.push(("parts.csv", what, q, [f[5], f[6]], blocked));
        }
        // (The index keeps the first refusal the one of the first row, whatever thread met it.)
        let jobs: Vec<(usize, Job<'_>)> = jobs.into_iter().enumerate().collect();
        let errors: Mutex<Vec<(usize, anyhow::Error)>> = Mutex::new(Vec::new());
        Pool::new(threads)?.for_each_in_order(
            &jobs,
            |(i, (file, what, q, [vars, clauses], loops))| {
                let error = match bataille_sat::formula_size(q, loops) {
                    Err(e) => Some(anyhow::Error::from(e)),
                    Ok((v, c)) if v.to_string() == *vars && c.to_string() == *clauses => None,
                    Ok((v, c)) => Some(anyhow::anyhow!(
                        "--resume: {}: {what} was solved for a formula of {vars} variables and \
                     {clauses} clauses, where this question's has {v} and {c}: the row is \
                     another question's (start again with --replace)",
                        out.join(file).display()
                    )),
                };
                if let Some(e) = error {
                    errors.lock().unwrap_or_else(PoisonError::into_inner).push((*i, e));
                }
            },
        );
        let mut errors = errors.into_inner().unwrap_or_else(PoisonError::into_inner);
        errors.sort_by_key(|e| e.0);
        match errors.into_iter().next() {
            Some((_, e)) => Err(e),
            None => Ok(()),
        }
    }
}

/// Orders `todo` by the seconds `expected` of each part (by first hand), most first; the parts
/// with no expected time after them, and parts of equal times, in their order.
fn longest_first(todo: &mut [Question], expected: &[(u32, f64)]) {
    let guess =
        |p: &Question| expected.iter().find(|e| Some(e.0) == p.first_hand).map_or(-1.0, |e| e.1);
    todo.sort_by(|a, b| guess(b).total_cmp(&guess(a)));
}

/// The seconds each part (by first hand) took in the period before `period` whose parts took
/// the longest in all: what the parts of `period` are expected to take, in that order (empty
/// when no earlier period was split).
fn expected_seconds(parts: &[PartRow], period: u32) -> Vec<(u32, f64)> {
    // (solve_s, after the period and first hand columns.)
    let column = 2 + INSTANCES_HEADER.split(',').position(|c| c == "solve_s").expect("a column");
    let seconds = |r: &PartRow| r.field(column).parse::<f64>().unwrap_or(0.0);
    let mut totals: Vec<(u32, f64)> = Vec::new();
    for r in parts.iter().filter(|r| r.period < period) {
        match totals.iter_mut().find(|t| t.0 == r.period) {
            Some(t) => t.1 += seconds(r),
            None => totals.push((r.period, seconds(r))),
        }
    }
    let Some(&(slowest, _)) = totals.iter().max_by(|a, b| a.1.total_cmp(&b.1)) else {
        return Vec::new();
    };
    parts.iter().filter(|r| r.period == slowest).map(|r| (r.first_hand, seconds(r))).collect()
}

/// The loops of a split run in their canonical order, whatever order the parts finished in:
/// by period, then by the part (the first hand of the solver's position), each part's own in
/// the order its solver found them.
fn sort_split_loops(known: &mut [Found], counted: Counted) {
    known.sort_by_key(|f| (counted.of(f), part_of(f)));
}

/// The part of a split period a loop was found in: the first hand of the solver's position,
/// which the stream formula makes the loop's smallest hand.
fn part_of(f: &Found) -> u32 {
    f.position.first().len() as u32
}

fn what(deals: bool) -> &'static str {
    if deals { "loops through a deal" } else { "loops among positions of every split" }
}

/// The restrictions of `--max-ties` and `--max-hand`, as the question, the report and the
/// conclusion name them.
fn restriction(max_ties: Option<u32>, max_hand: Option<u32>) -> String {
    let mut s = match max_ties {
        None => String::new(),
        Some(0) => " with no tie in any trick".to_string(),
        Some(1) => " with at most 1 tie per trick".to_string(),
        Some(t) => format!(" with at most {t} ties per trick"),
    };
    if let Some(m) = max_hand {
        s += if max_ties.is_some() { " and" } else { " with" };
        let _ = write!(s, " one hand of at most {m} cards");
    }
    s
}

fn header(
    deck: DeckSpec,
    method: Method,
    deals: bool,
    counted: Counted,
    first: u32,
    last: u32,
    restricted: &str,
) -> String {
    format!(
        "question,C={} V={} {} {} periods {}{first} to {last}{}",
        deck.colours(),
        deck.values(),
        method.name(),
        if deals { "deals" } else { "positions" },
        if counted == Counted::Cards { "in cards " } else { "" },
        restricted
    )
}

/// The first column of instances.csv.
fn period_column(counted: Counted) -> &'static str {
    match counted {
        Counted::Tricks => "period",
        Counted::Cards => "period_cards",
    }
}

/// The header of instances.csv.
fn instances_header(counted: Counted) -> String {
    format!("{},{INSTANCES_HEADER}", period_column(counted))
}

/// The header of parts.csv.
fn parts_header(counted: Counted) -> String {
    format!("{},first_hand,{INSTANCES_HEADER}", period_column(counted))
}

/// How the report names a period.
fn label(counted: Counted, p: u32) -> String {
    match counted {
        Counted::Tricks => format!("period {p}"),
        Counted::Cards => format!("{p} cards"),
    }
}

pub(crate) fn verdict_name(v: &Verdict) -> &'static str {
    match v {
        Verdict::Complete => "complete",
        Verdict::Found => "found",
        Verdict::Undecided => "undecided",
        Verdict::Stopped => "stopped",
    }
}

/// Whether a verdict as the files write it claims nothing (the time limit or a stop request
/// came first): such a period or part is solved again on resume.
pub(crate) fn is_open(verdict: &str) -> bool {
    matches!(verdict, "undecided" | "stopped")
}

/// The period whose solver calls found a loop turning in `p` (tricks or cards), in a question
/// of periods `first` to `last`: its own period with `--max-period` (a loop of a divisor is
/// found at the divisor and blocked after), the one period asked with `--period` (whose
/// solutions include the loops of its divisors). A period's row counts the loops it found.
fn finder(first: u32, last: u32, p: u64) -> u32 {
    if first == last { last } else { u32::try_from(p).unwrap_or(u32::MAX) }
}

fn instance_row(inst: &Instance) -> String {
    let q = &inst.question;
    let (check, bytes, sha, steps) = certificate_columns(inst.certificate.as_ref());
    format!(
        "{},{},{},{},{},{},{},{:.3},{check},{bytes},{sha},{steps},{},{}",
        q.period,
        q.deals,
        verdict_name(&inst.verdict),
        inst.found.len(),
        inst.vars,
        inst.clauses,
        inst.calls,
        inst.solve_seconds,
        inst.cnf_sha256,
        inst.solver
    )
}

/// The check time, proof size, proof hash and proof steps, or four empty columns.
pub(crate) fn certificate_columns(c: Option<&Certificate>) -> (String, String, String, String) {
    match c {
        Some(c) => (
            format!("{:.3}", c.check_seconds),
            c.proof_bytes.to_string(),
            c.proof_sha256.clone(),
            c.checked.added.to_string(),
        ),
        None => (String::new(), String::new(), String::new(), String::new()),
    }
}

fn report(inst: &Instance, part: Option<u32>) {
    let mut p = label(inst.question.counted, inst.question.period);
    if let Some(l) = part {
        let _ = write!(p, ", smallest hand {l}");
    }
    let size = format!("{} vars, {} clauses", inst.vars, inst.clauses);
    for f in &inst.found {
        println!(
            "{p}: loop {:016x} of period {} tricks ({} cards): {}",
            f.id, f.period_tricks, f.period_cards, f.position
        );
    }
    match (&inst.verdict, &inst.certificate) {
        (Verdict::Complete, Some(c)) => println!(
            "{p}: complete ({size}; {:.2} s in the solver; proof of {} bytes, {} steps, \
             checked in {:.2} s)",
            inst.solve_seconds, c.proof_bytes, c.checked.added, c.check_seconds
        ),
        (Verdict::Found, _) => {
            println!("{p}: a loop found ({size}; {:.2} s)", inst.solve_seconds)
        }
        (Verdict::Stopped, _) => println!(
            "{p}: stopped after {:.1} s in the solver ({size}; {}): nothing is claimed \
             (--resume solves it again)",
            inst.solve_seconds,
            outside_the_limit(inst.build_seconds, inst.load_seconds)
        ),
        _ => println!(
            "{p}: UNDECIDED after {:.1} s in the solver ({size}; {}): nothing is claimed",
            inst.solve_seconds,
            outside_the_limit(inst.build_seconds, inst.load_seconds)
        ),
    }
}

/// What a period took outside its solver calls, which the time limit does not count.
pub(crate) fn outside_the_limit(build: f64, load: f64) -> String {
    format!(
        "and outside the time limit, {build:.1} s building the formula and {load:.1} s \
         loading it into the solver and between calls"
    )
}

fn conclusion(
    rows: &[(u32, String, String)],
    args: &SolveArgs,
    first: u32,
    last: u32,
    stopped: Option<(u32, bool)>,
    restricted: &str,
) -> String {
    let (counted, all) = (args.counted(), args.all);
    // A question of deals asks of loops through a deal (a deal lies on the loop: a loop
    // that a deal only leads into is not asked of), and of deals.
    let (reached, position) =
        if args.deals { (" through a deal", "deal") } else { ("", "position") };
    let complete_to =
        (first..=last).take_while(|p| rows.iter().any(|r| r.0 == *p && r.1 == "complete")).last();
    let mut s = String::new();
    match complete_to {
        Some(p) if first == 1 => {
            let which = match counted {
                Counted::Tricks => format!("of period 1 to {p}"),
                Counted::Cards => format!("whose turn takes 1 to {p} cards per player"),
            };
            let _ = write!(
                s,
                "certified: every loop{reached}{restricted} {which} is listed in cycles.csv (each period's proof checked)"
            );
        }
        Some(p) => {
            let _ = write!(
                s,
                "certified: every {position} that comes back after {p} {}{restricted} lies on a loop listed in cycles.csv",
                counted.unit()
            );
        }
        None => {}
    }
    if let Some((p, asked)) = stopped {
        if !s.is_empty() {
            s.push('\n');
        }
        let _ = if asked {
            write!(s, "stopped: {} and beyond not decided (--resume continues)", label(counted, p))
        } else {
            write!(
                s,
                "undecided: {} and beyond (raise --time-limit and --resume)",
                label(counted, p)
            )
        };
    } else if !all && rows.iter().any(|r| r.1 == "found") {
        if !s.is_empty() {
            s.push('\n');
        }
        s.push_str("found: the search stopped at the first loop (--all lists every loop)");
    }
    s
}

fn write(
    args: &SolveArgs,
    header: &str,
    rows: &[(u32, String, String)],
    parts: &[PartRow],
    known: &[Found],
) -> Result<()> {
    let mut rows: Vec<&(u32, String, String)> = rows.iter().collect();
    rows.sort_by_key(|r| r.0);
    let mut instances = instances_header(args.counted()) + "\n";
    for r in rows {
        instances.push_str(&r.2);
        instances.push('\n');
    }
    let mut cycles = format!("{CYCLES_HEADER}\n");
    for f in known {
        let _ = writeln!(
            cycles,
            "{:016x},{},{},\"{}\"",
            f.id, f.period_tricks, f.period_cards, f.position
        );
    }
    // The loops before the rows that count them: a run killed between the two renames leaves
    // loops of a period not yet decided, which a resume drops and finds again.
    let mut files = OutputFiles::new(&args.run.out);
    files.add("cycles.csv", cycles.into_bytes());
    files.add("instances.csv", instances.into_bytes());
    // (A parts.csv whose parts are all dropped is removed with the other stale outputs.)
    if !parts.is_empty() {
        let mut parts: Vec<&PartRow> = parts.iter().collect();
        parts.sort_by_key(|r| (r.period, r.first_hand));
        let mut text = parts_header(args.counted()) + "\n";
        for r in parts {
            text.push_str(&r.line);
            text.push('\n');
        }
        files.add("parts.csv", text.into_bytes());
    }
    args.run.metadata(&mut files, header);
    Ok(files.commit()?)
}

/// A verdict as the files write it.
fn is_verdict(v: &str) -> bool {
    matches!(v, "complete" | "found" | "undecided" | "stopped")
}

/// Adds the loops of an instance not already listed (a period solved again after a resume
/// finds again the loops of its divisors that an earlier try had found).
fn add_loops(known: &mut Vec<Found>, found: &[Found]) {
    for f in found {
        if !known.iter().any(|k| k.id == f.id) {
            known.push(f.clone());
        }
    }
}

/// A count as the files write it (`-0` from versions that summed an empty list of parts).
pub(crate) fn count(text: &str) -> Option<u64> {
    if text == "-0" { Some(0) } else { text.parse().ok() }
}

/// Checks a row of instances.csv or parts.csv (of `cycles solve` or `aligned solve`) read back
/// by --resume: one letter of `kinds` per column of `header`: `n` a count, `N` a count or
/// empty, `s` seconds, `S` seconds or empty, `b` true or false, `v` a verdict, `h` a SHA-256
/// or empty, `t` any text but empty. Returns the fields.
pub(crate) fn check_row<'a>(line: &'a str, header: &str, kinds: &str) -> Result<Vec<&'a str>> {
    let fields: Vec<&str> = line.split(',').collect();
    if fields.len() != kinds.len() {
        bail!("{} columns, not the {} of `{header}`", fields.len(), kinds.len());
    }
    let seconds = |v: &str| v.parse::<f64>().is_ok_and(|x| x.is_finite() && x >= 0.0);
    for ((value, kind), name) in fields.iter().zip(kinds.chars()).zip(header.split(',')) {
        let ok = match kind {
            'n' => count(value).is_some(),
            'N' => value.is_empty() || count(value).is_some(),
            's' => seconds(value),
            'S' => value.is_empty() || seconds(value),
            'b' => matches!(*value, "true" | "false"),
            'v' => is_verdict(value),
            'h' => {
                value.is_empty()
                    || (value.len() == 64 && value.bytes().all(|b| b.is_ascii_hexdigit()))
            }
            _ => !value.is_empty(),
        };
        if !ok {
            bail!("{name} is \"{value}\"");
        }
    }
    Ok(fields)
}

/// Checks the header line of a file read back by --resume.
pub(crate) fn check_header(line: Option<&str>, header: &str, file: &Path) -> Result<()> {
    if line != Some(header) {
        bail!(
            "--resume: {} does not begin with the header `{header}`: these are not this \
             command's files",
            file.display()
        );
    }
    Ok(())
}

/// The kinds of the instance columns (see [`check_row`]), after the period (and the part).
const INSTANCE_KINDS: &str = "bvnnnnsSNhNht";

/// What a resumed question's files must agree with.
struct Expected {
    deck: DeckSpec,
    methods: Methods,
    counted: Counted,
    deals: bool,
    first: u32,
    last: u32,
    /// The parts of a split period: smallest hands 1 to this.
    parts: usize,
}

impl Expected {
    /// Whether a loop turning in `p` (tricks or cards) belongs to the question: one of its
    /// periods, or a divisor of its one period.
    fn holds_period(&self, p: u64) -> bool {
        let (first, last) = (u64::from(self.first), u64::from(self.last));
        (first..=last).contains(&p) || (first == last && p > 0 && last % p == 0)
    }

    /// Checks an instance row's fields (`f`: period, [part,] then the instance columns) and
    /// returns its period, verdict and loops found.
    fn instance<'a>(&self, f: &[&'a str], part: bool) -> Result<(u32, u32, &'a str, u64)> {
        let period: u32 = f[0].parse().context("the period")?;
        if !(self.first..=self.last).contains(&period) {
            bail!("period {period} is not one of this question's {} to {}", self.first, self.last);
        }
        let hand = if part {
            let hand: u32 = f[1].parse().context("the smallest hand")?;
            if hand == 0 || hand as usize > self.parts {
                bail!(
                    "period {period} has a part of smallest hand {hand}, not one of this \
                     question's 1 to {}",
                    self.parts
                );
            }
            hand
        } else {
            0
        };
        let c = &f[usize::from(part) + 1..];
        if c[0] != self.deals.to_string() {
            bail!("written for deals={}, this question has deals={}", c[0], self.deals);
        }
        if c[1] == "complete" && (c[7].is_empty() || c[8].is_empty() || c[10].is_empty()) {
            bail!("period {period} is complete with no checked proof");
        }
        Ok((period, hand, c[1], count(c[2]).unwrap_or(0)))
    }
}

/// The loops a decided period (`hand` 0) or part (its smallest hand) says it found.
#[derive(Debug)]
struct Claim {
    period: u32,
    hand: u32,
    loops: u64,
}

type Previous = (Vec<(u32, String, String)>, Vec<PartRow>, Vec<Found>, Vec<Claim>);

/// The files of a question read back by --resume, checked: headers, every column, the periods
/// and parts of this question only and once each, a complete period's proof (its own, or every
/// part's), the loops replayed by the engine (ids and periods come from it, not from the file)
/// and of the question's periods. Returns the rows, parts, loops, and what each decided
/// period and part says it found (checked by the caller against what it keeps).
fn read_previous(out: &Path, e: &Expected) -> Result<Previous> {
    let read = |name: &str| -> Result<String> {
        read_bounded(&out.join(name), MAX_STATE_BYTES)?
            .with_context(|| format!("--resume: {} has no {name}", out.display()))
    };
    let mut claims: Vec<Claim> = Vec::new();
    let path = out.join("instances.csv");
    let header = instances_header(e.counted);
    let text = read("instances.csv")?;
    let mut lines = text.lines();
    check_header(lines.next(), &header, &path)?;
    let mut rows: Vec<(u32, String, String)> = Vec::new();
    // Complete periods with no proof of their own: split periods, whose parts must all be.
    let mut by_parts = Vec::new();
    for (n, line) in lines.enumerate() {
        let at = || format!("--resume: {} line {}", path.display(), n + 2);
        let f = check_row(line, &header, &format!("n{INSTANCE_KINDS}")).with_context(at)?;
        let (period, _, verdict, loops) = e.instance(&f, false).with_context(at)?;
        if rows.iter().any(|r| r.0 == period) {
            return Err(anyhow::anyhow!("period {period} is there twice")).with_context(at);
        }
        if verdict == "complete" && f[10].is_empty() {
            by_parts.push((period, n + 2));
        }
        if !is_open(verdict) {
            claims.push(Claim { period, hand: 0, loops });
        }
        rows.push((period, verdict.to_string(), line.to_string()));
    }
    // The parts of split periods, if any.
    let mut parts = Vec::new();
    let path = out.join("parts.csv");
    if let Some(text) = read_bounded(&path, MAX_STATE_BYTES)? {
        let header = parts_header(e.counted);
        let mut lines = text.lines();
        check_header(lines.next(), &header, &path)?;
        for (n, line) in lines.enumerate() {
            let at = || format!("--resume: {} line {}", path.display(), n + 2);
            let f = check_row(line, &header, &format!("nn{INSTANCE_KINDS}")).with_context(at)?;
            let (period, first_hand, verdict, loops) = e.instance(&f, true).with_context(at)?;
            if parts.iter().any(|r: &PartRow| (r.period, r.first_hand) == (period, first_hand)) {
                return Err(anyhow::anyhow!(
                    "period {period} smallest hand {first_hand} is there twice"
                ))
                .with_context(at);
            }
            if verdict == "complete" && f[11].is_empty() {
                return Err(anyhow::anyhow!("a complete part with no proof")).with_context(at);
            }
            if !is_open(verdict) {
                claims.push(Claim { period, hand: first_hand, loops });
            }
            parts.push(PartRow {
                period,
                first_hand,
                verdict: verdict.to_string(),
                line: line.to_string(),
            });
        }
    }
    for (period, line) in by_parts {
        let proved = parts.iter().filter(|r| r.period == period && r.verdict == "complete");
        if proved.count() != e.parts {
            bail!(
                "--resume: {} line {line}: {} is complete with no proof of its own, and not \
                 every part of it is complete in parts.csv{}",
                out.join("instances.csv").display(),
                label(e.counted, period),
                if path.exists() { "" } else { " (there is no parts.csv)" }
            );
        }
    }
    // The loops are played again from their positions: ids and periods come from the engine,
    // not from the file.
    let path = out.join("cycles.csv");
    let text = read("cycles.csv")?;
    check_header(text.lines().next(), CYCLES_HEADER, &path)?;
    let mut known: Vec<Found> = Vec::new();
    let mut r = csv::Reader::from_reader(text.as_bytes());
    for (n, rec) in r.records().enumerate() {
        let at = || format!("--resume: {} line {}", path.display(), n + 2);
        let rec = rec.with_context(at)?;
        let position: Position = rec.get(3).unwrap_or("").parse().with_context(at)?;
        position.check_deck(e.deck).with_context(at)?;
        let found = Found::of(&position, e.methods)
            .with_context(|| format!("{position} does not loop"))
            .with_context(at)?;
        let id = format!("{:016x}", found.id);
        // A question's loops have its periods, or divide its one period.
        let p = e.counted.of(&found);
        let periods = (found.period_tricks.to_string(), found.period_cards.to_string());
        let why = if rec.get(0) != Some(id.as_str()) {
            format!("{position} is on loop {id}, not {}", rec.get(0).unwrap_or(""))
        } else if (rec.get(1), rec.get(2)) != (Some(periods.0.as_str()), Some(periods.1.as_str())) {
            format!(
                "loop {id} turns in {} tricks and {} cards, not {} and {}",
                periods.0,
                periods.1,
                rec.get(1).unwrap_or(""),
                rec.get(2).unwrap_or("")
            )
        } else if known.iter().any(|k| k.id == found.id) {
            format!("loop {id} is there twice")
        } else if !e.holds_period(p) {
            format!("loop {id} turns in {p} {}, not a period of this question", e.counted.unit())
        } else {
            String::new()
        };
        if !why.is_empty() {
            return Err(anyhow::anyhow!(why)).with_context(at);
        }
        known.push(found);
    }
    Ok((rows, parts, known, claims))
}

#[cfg(test)]
mod tests {
    use bataille_engine::{DeckSpec, Method};
    use bataille_sat::{Counted, Question};

    use super::{PartRow, expected_seconds, longest_first};

    fn row(period: u32, first_hand: u32, seconds: f64) -> PartRow {
        PartRow {
            period,
            first_hand,
            verdict: "complete".to_string(),
            line: format!(
                "{period},{first_hand},false,complete,0,10,20,1,{seconds:.3},0.1,5,h,3,c,cadical"
            ),
        }
    }

    #[test]
    fn parts_are_expected_to_take_what_they_took_in_the_slowest_earlier_period() {
        let parts = vec![
            row(36, 1, 40.0),
            row(36, 2, 680.0),
            row(36, 3, 300.0),
            // An odd count, refuted at once, and a later period stopped early.
            row(37, 1, 0.1),
            row(37, 2, 0.1),
            row(37, 3, 0.1),
            row(38, 2, 5.0),
            // The period being solved, and one after it, do not count.
            row(40, 1, 9000.0),
            row(41, 1, 9000.0),
        ];
        assert_eq!(expected_seconds(&parts, 40), vec![(1, 40.0), (2, 680.0), (3, 300.0)]);
        assert_eq!(expected_seconds(&parts, 37), vec![(1, 40.0), (2, 680.0), (3, 300.0)]);
        assert_eq!(expected_seconds(&parts, 36), Vec::new());
    }

    #[test]
    fn parts_start_longest_first() {
        let q = Question {
            deck: DeckSpec::new(4, 6).unwrap(),
            method: Method::Natural,
            counted: Counted::Cards,
            period: 40,
            deals: false,
            max_ties: None,
            max_hand: None,
            first_hand: None,
        };
        let hands = |todo: &[Question]| -> Vec<u32> {
            todo.iter().map(|p| p.first_hand.unwrap()).collect()
        };
        let mut todo = q.parts();
        // Hands 2 and 5 unknown (no time), 3 and 4 equal: they keep their order.
        let expected = [(1, 40.0), (3, 300.0), (4, 300.0), (6, 900.0), (7, 0.5)];
        longest_first(&mut todo, &expected);
        assert_eq!(hands(&todo), [6, 3, 4, 1, 7, 2, 5, 8, 9, 10, 11, 12]);
        // Nothing known: the parts in their order.
        let mut todo = q.parts();
        longest_first(&mut todo, &[]);
        assert_eq!(hands(&todo), (1..=12).collect::<Vec<u32>>());
    }
}
