//! `aligned solve`: every aligned cycle of 2n cards with a period of R rounds found, and the
//! rest proved absent, by the SAT solver (`bataille_sat::aligned`), into an output directory:
//! instances.csv (one row per period of rounds), rounds.csv (the cycles of rounds found, each
//! replayed by the engine), blocks.csv (their catalogue rows), metadata.csv.

use std::fmt::Write as _;
use std::path::Path;

use bataille_cycles::blocks::{self, BlockCycle, CATALOGUE_HEADER};
use bataille_engine::Position;
use bataille_sat::{AlignedInstance, AlignedQuestion, Verdict, solve_aligned};

use super::loops::Conclusion;
use super::{
    SolverRun, certificate_columns, check_header, check_row, count, is_open, outside_the_limit,
    verdict_name,
};
use crate::error::{Context as _, bail};
use crate::files::{MAX_STATE_BYTES, OutputFiles, prepare_outputs, read_bounded};
use crate::{Error, Result, Say};

/// The question of an `aligned solve` run.
#[derive(Clone, Debug)]
pub struct AlignedCycles {
    /// 2n, the cards of both hands.
    pub cards: usize,
    /// The first period asked, in rounds (1 with a bound on the periods, else the one period).
    pub first: u32,
    /// The last period asked.
    pub last: u32,
    /// The most times a value may be used.
    pub max_mult: usize,
    /// Only the deck of C colours: each value used exactly C times (instead of `max_mult`).
    pub colours: Option<usize>,
    /// Only prime cycles.
    pub prime: bool,
}

/// The question and the options of the run, together.
struct Args<'a> {
    q: &'a AlignedCycles,
    run: &'a SolverRun<'a>,
}

const INSTANCES_HEADER: &str = "rounds,verdict,cycles_of_rounds,loops,vars,clauses,\
solver_calls,solve_s,check_s,proof_bytes,proof_sha256,proof_steps,cnf_sha256,solver";

/// One decided (or undecided) period: its rounds, verdict and instances.csv row.
type Row = (u32, String, String);

/// Solves the periods of `asked` into `run`'s output directory, saying each one's verdict as it
/// comes, then the conclusion. Every period is checked before any work; with `resume`, the
/// files are read back and checked first, and the periods decided are kept.
pub fn solve_aligned_cycles(asked: &AlignedCycles, run: &SolverRun<'_>) -> Result<Conclusion> {
    let args = &Args { q: asked, run };
    let (first, last) = (asked.first, asked.last);
    for rounds in [first, last] {
        AlignedQuestion {
            cards: args.q.cards,
            rounds,
            max_multiplicity: args.q.max_mult,
            colours: args.q.colours,
            prime: args.q.prime,
        }
        .check()
        .map_err(Error::new)?;
    }
    let what = if args.q.prime { "prime aligned cycles" } else { "aligned cycles" };
    let times = match args.q.colours {
        Some(c) => format!("values exactly {c} times"),
        None => format!("values at most {} times", args.q.max_mult),
    };
    let question_line = |last: u32| {
        format!("question,{what} of {} cards ({times}) of {first} to {last} rounds", args.q.cards)
    };
    let header = question_line(last);
    // A run of 1 to fewer rounds is continued by a larger bound: its periods are this
    // question's too.
    let extends = |line: &str| first == 1 && (1..last).any(|n| line == question_line(n));
    let own = run.check_resumable(&header, &extends)?;
    let _outputs = prepare_outputs(None, run.resume, &run.out, run.replace, &own, &run.words)?;
    let (mut rows, mut found) =
        if run.resume { read_previous(args, first, last)? } else { (Vec::new(), Vec::new()) };
    // Solved again: what is undecided or stopped, but not what is undecided at a time limit
    // at least about this run's (it would only be undecided again).
    let held: Vec<u32> =
        rows.iter().filter(|r| args.run.ran_out(INSTANCES_HEADER, &r.2)).map(|r| r.0).collect();
    rows.retain(|r| !is_open(&r.1) || held.contains(&r.0));
    let decided: Vec<u32> = rows.iter().filter(|r| !is_open(&r.1)).map(|r| r.0).collect();
    found.retain(|c| rows.iter().any(|r| r.0 == c.period_rounds as u32));
    if args.run.resume {
        check_formulas(args, &rows, &found)?;
    }
    // Nothing left to solve (every period decided, or the first one not decided is undecided
    // at this time limit already): the files stay as they are, their command and solver lines
    // those of the runs that decided them, and the answer is said again.
    let nothing_left =
        (first..=last).find(|r| !decided.contains(r)).is_none_or(|r| held.contains(&r));
    if nothing_left {
        check_catalogue(run, &found)?;
        run.say.line(&format!("nothing left to solve: {} is kept as it is", run.out.display()));
    } else {
        // The directory is this question's from now on: a run stopped at once can be resumed.
        write(args, &header, &rows, &found)?;
    }
    let settings = args.run.settings(true)?;
    run.say.line(&format!(
        "question:  {what} of {} cards, hands of {}, {times}",
        args.q.cards,
        args.q.cards / 2
    ));
    run.say.line(&format!(
        "solver:    {} (LRAT proofs checked by bataille's own checker)",
        settings.config.solver()
    ));
    let mut stopped_at = None;
    for rounds in (first..=last).filter(|r| !decided.contains(r)) {
        if held.contains(&rounds) {
            stopped_at = Some(rounds);
            break;
        }
        let q = AlignedQuestion {
            cards: args.q.cards,
            rounds,
            max_multiplicity: args.q.max_mult,
            colours: args.q.colours,
            prime: args.q.prime,
        };
        let inst = solve_aligned(&q, &settings).map_err(Error::new)?;
        report(&inst, run.say);
        rows.push((rounds, verdict_name(&inst.verdict).to_string(), instance_row(&inst)));
        found.extend(inst.found.iter().cloned());
        write(args, &header, &rows, &found)?;
        if !inst.verdict.is_decided() {
            stopped_at = Some(rounds);
            break;
        }
    }
    args.run.put_away_proofs(&settings);
    if !nothing_left {
        write(args, &header, &rows, &found)?;
    }
    let mut conclusion = String::new();
    let complete_to = (first..=last)
        .take_while(|r| rows.iter().any(|row| row.0 == *r && row.1 == "complete"))
        .last();
    if let Some(r) = complete_to {
        // Only the periods certified count (an undecided one's cycles are listed, not counted).
        let certified: Vec<BlockCycle> =
            found.iter().filter(|c| c.period_rounds <= r as usize).cloned().collect();
        let loops = blocks::catalogue(&certified).len();
        let span = if first == r { format!("{r}") } else { format!("{first} to {r}") };
        conclusion = format!(
            "certified: every {} of {} cards ({times}) of {span} rounds is in blocks.csv: {loops} \
             loop{} ({} cycle{} of rounds); each period's proof checked",
            what.trim_end_matches('s'),
            args.q.cards,
            if loops == 1 { "" } else { "s" },
            certified.len(),
            if certified.len() == 1 { "" } else { "s" },
        );
    }
    let w = &run.words;
    if let Some(r) = stopped_at {
        if !conclusion.is_empty() {
            conclusion.push('\n');
        }
        let _ = if run.interrupted() {
            write!(
                conclusion,
                "stopped: {r} rounds and beyond not decided ({} continues)",
                w.resume
            )
        } else {
            write!(
                conclusion,
                "undecided: {r} rounds and beyond (raise {} and {})",
                w.time_limit, w.resume
            )
        };
    }
    if !conclusion.is_empty() {
        run.say.line(&conclusion);
    }
    Ok(Conclusion { text: conclusion, interrupted: run.interrupted() })
}

/// What an `aligned solve` run would do, without solving: the question checked, the last
/// period's formula (no cycle blocked yet: that of its first solver call), one task (the periods
/// are solved one after the other), and, when `earlier` holds this kind of run's instances.csv,
/// the solver seconds of its decided periods. A SAT question's time does not follow from its
/// size: the cost line says `seconds=unknown`.
pub fn aligned_dry_run(asked: &AlignedCycles, earlier: Option<&Path>) -> Result<String> {
    let question = |rounds| AlignedQuestion {
        cards: asked.cards,
        rounds,
        max_multiplicity: asked.max_mult,
        colours: asked.colours,
        prime: asked.prime,
    };
    for rounds in [asked.first, asked.last] {
        question(rounds).check().map_err(Error::new)?;
    }
    let (vars, clauses) =
        bataille_sat::aligned_formula_size(&question(asked.last), &[]).map_err(Error::new)?;
    let what = if asked.prime { "prime aligned cycles" } else { "aligned cycles" };
    let span = if asked.first == asked.last {
        format!("{} rounds", asked.last)
    } else {
        format!("{} to {} rounds", asked.first, asked.last)
    };
    let mut s = String::new();
    let _ = writeln!(s, "dry run:   {what} of {} cards, {span}", asked.cards);
    let _ = writeln!(s, "formula:   {} rounds: {vars} vars, {clauses} clauses", asked.last);
    s.push_str("tasks:     1 (the periods are solved one after the other, on one core)\n");
    let solve_s = INSTANCES_HEADER.split(',').position(|c| c == "solve_s").expect("a column");
    let measured: Vec<String> = earlier
        .and_then(|dir| read_bounded(&dir.join("instances.csv"), MAX_STATE_BYTES).ok().flatten())
        .map(|text| {
            text.lines()
                .skip(1)
                .filter_map(|line| {
                    let f: Vec<&str> = line.split(',').collect();
                    let seconds = f.get(solve_s)?.parse::<f64>().ok()?;
                    let rounds = f.first()?;
                    let unit = if *rounds == "1" { "round" } else { "rounds" };
                    Some(format!("{rounds} {unit}: {seconds:.1} s ({})", f.get(1)?))
                })
                .collect()
        })
        .unwrap_or_default();
    if measured.is_empty() {
        s.push_str(
            "time:      not predictable: a SAT question's time does not follow from its size \
             (no earlier period measured in the output directory)\n",
        );
    } else {
        let _ = writeln!(
            s,
            "time:      not predictable; the periods already in the output directory took \
             (solver seconds) {}",
            measured.join(", ")
        );
    }
    let _ = writeln!(s, "cost: tasks=1 seconds=unknown vars={vars} clauses={clauses}");
    Ok(s)
}

fn instance_row(inst: &AlignedInstance) -> String {
    let (check, bytes, sha, steps) = certificate_columns(inst.certificate.as_ref());
    format!(
        "{},{},{},{},{},{},{},{:.3},{check},{bytes},{sha},{steps},{},{}",
        inst.question.rounds,
        verdict_name(&inst.verdict),
        inst.found.len(),
        blocks::catalogue(&inst.found).len(),
        inst.vars,
        inst.clauses,
        inst.calls,
        inst.solve_seconds,
        inst.cnf_sha256,
        inst.solver
    )
}

fn report(inst: &AlignedInstance, say: &dyn Say) {
    let r = inst.question.rounds;
    let size = format!("{} vars, {} clauses", inst.vars, inst.clauses);
    let loops = blocks::catalogue(&inst.found).len();
    match (&inst.verdict, &inst.certificate) {
        (Verdict::Complete, Some(c)) => say.line(&format!(
            "{r} rounds: {} cycles of rounds on {loops} loops, complete ({size}; {:.2} s in the \
             solver, {} call{}; proof of {} bytes, {} steps, checked in {:.2} s)",
            inst.found.len(),
            inst.solve_seconds,
            inst.calls,
            if inst.calls == 1 { "" } else { "s" },
            c.proof_bytes,
            c.checked.added,
            c.check_seconds
        )),
        _ => say.line(&format!(
            "{r} rounds: {} after {:.1} s in the solver ({size}; {} cycles of rounds found so \
             far; {}): nothing is claimed",
            if inst.verdict == Verdict::Stopped { "stopped" } else { "UNDECIDED" },
            inst.solve_seconds,
            inst.found.len(),
            outside_the_limit(inst.build_seconds, inst.load_seconds)
        )),
    }
}

fn write(args: &Args<'_>, header: &str, rows: &[Row], found: &[BlockCycle]) -> Result<()> {
    let mut rows: Vec<&Row> = rows.iter().collect();
    rows.sort_by_key(|r| r.0);
    let mut instances = format!("{INSTANCES_HEADER}\n");
    for r in rows {
        instances.push_str(&r.2);
        instances.push('\n');
    }
    let catalogue = catalogue_text(found);
    let mut sorted: Vec<&BlockCycle> = found.iter().collect();
    sorted.sort_by(|a, b| {
        (a.period_rounds, &a.first, &a.second).cmp(&(b.period_rounds, &b.first, &b.second))
    });
    let mut rounds = format!("{ROUNDS_HEADER}\n");
    for c in sorted {
        let _ = writeln!(rounds, "{},{:016x},\"{}\"", c.period_rounds, c.cycle_id, c.position());
    }
    // The cycles before the rows that count them (see `cycles solve`'s files).
    let mut files = OutputFiles::new(&args.run.out);
    files.add("rounds.csv", rounds.into_bytes());
    files.add("blocks.csv", catalogue.into_bytes());
    files.add("instances.csv", instances.into_bytes());
    args.run.metadata(&mut files, header);
    files.commit()
}

/// blocks.csv: the catalogue rows of the cycles of rounds found (a function of them alone).
fn catalogue_text(found: &[BlockCycle]) -> String {
    let mut catalogue = format!("{CATALOGUE_HEADER}\n");
    for c in blocks::catalogue(found) {
        catalogue.push_str(&blocks::catalogue_row(&c));
        catalogue.push('\n');
    }
    catalogue
}

/// The header of rounds.csv.
const ROUNDS_HEADER: &str = "period_rounds,cycle_id,position";

/// The periods decided before and their cycles of rounds, checked: headers, every column,
/// this question's periods only and once each, each cycle played again by the engine from its
/// position (nothing else is taken from the files), of this question's cards, and as many as
/// each decided period counted.
fn read_previous(args: &Args<'_>, first: u32, last: u32) -> Result<(Vec<Row>, Vec<BlockCycle>)> {
    let (out, words) = (&args.run.out, &args.run.words);
    let (resume, replace) = (words.resume, words.replace);
    let read = |name: &str| -> Result<String> {
        read_bounded(&out.join(name), MAX_STATE_BYTES)?
            .with_context(|| format!("{resume}: {} has no {name}", out.display()))
    };
    let path = out.join("instances.csv");
    let text = read("instances.csv")?;
    let mut lines = text.lines();
    check_header(lines.next(), INSTANCES_HEADER, &path, words)?;
    let mut rows: Vec<Row> = Vec::new();
    // (rounds, cycles of rounds, loops) of every decided period.
    let mut claims = Vec::new();
    for (n, line) in lines.enumerate() {
        let at = || format!("{resume}: {} line {}", path.display(), n + 2);
        let f = check_row(line, INSTANCES_HEADER, "nvnnnnnsSNhNht").with_context(at)?;
        let rounds: u32 = f[0].parse().with_context(at)?;
        let why = if !(first..=last).contains(&rounds) {
            format!("{rounds} rounds is not one of this question's {first} to {last}")
        } else if rows.iter().any(|r| r.0 == rounds) {
            format!("{rounds} rounds is there twice")
        } else if f[1] == "complete" && f[8..12].iter().any(|c| c.is_empty()) {
            format!("{rounds} rounds is complete with no checked proof")
        } else {
            String::new()
        };
        if !why.is_empty() {
            return Err(Error::msg(why)).with_context(at);
        }
        if !is_open(f[1]) {
            claims.push((rounds, count(f[2]).unwrap_or(0), count(f[3]).unwrap_or(0)));
        }
        rows.push((rounds, f[1].to_string(), line.to_string()));
    }
    let mut found: Vec<BlockCycle> = Vec::new();
    let path = out.join("rounds.csv");
    let text = read("rounds.csv")?;
    check_header(text.lines().next(), ROUNDS_HEADER, &path, words)?;
    let mut r = csv::Reader::from_reader(text.as_bytes());
    for (n, rec) in r.records().enumerate() {
        let at = || format!("{resume}: {} line {}", path.display(), n + 2);
        let rec = rec.with_context(at)?;
        let position: Position = rec.get(2).unwrap_or("").parse().with_context(at)?;
        let cycle = BlockCycle::of(&position)
            .filter(|c| !args.q.prime || blocks::splits(&c.first, &c.second).is_empty())
            .with_context(|| {
                format!(
                    "{position} is not the canonical position of {} aligned cycle",
                    if args.q.prime { "a prime" } else { "an" }
                )
            })
            .with_context(at)?;
        let fits = match args.q.colours {
            Some(c) => cycle.pattern.iter().all(|&k| usize::from(k) == c),
            None => cycle.pattern.iter().all(|&k| usize::from(k) <= args.q.max_mult),
        };
        let why = if position.cards() != args.q.cards || !fits {
            format!("{position} is not a position of this question's cards")
        } else if !(first as usize..=last as usize).contains(&cycle.period_rounds) {
            format!("{position} has {} rounds, not a period of this question", cycle.period_rounds)
        } else if rec.get(0) != Some(cycle.period_rounds.to_string().as_str())
            || rec.get(1) != Some(format!("{:016x}", cycle.cycle_id).as_str())
        {
            format!(
                "{position} has {} rounds on loop {:016x}, not what the row says",
                cycle.period_rounds, cycle.cycle_id
            )
        } else if found.iter().any(|c| (&c.first, &c.second) == (&cycle.first, &cycle.second)) {
            format!("{position} is there twice")
        } else {
            String::new()
        };
        if !why.is_empty() {
            return Err(Error::msg(why)).with_context(at);
        }
        found.push(cycle);
    }
    for (rounds, cycles, loops) in claims {
        let mine: Vec<BlockCycle> =
            found.iter().filter(|c| c.period_rounds == rounds as usize).cloned().collect();
        let listed = (mine.len() as u64, blocks::catalogue(&mine).len() as u64);
        if listed != (cycles, loops) {
            bail!(
                "{resume}: {} lists {} cycles of {rounds} rounds on {} loops, where the run \
                 found {cycles} on {loops}: the files do not agree (start again with {replace})",
                path.display(),
                listed.0,
                listed.1
            );
        }
    }
    Ok((rows, found))
}

/// Checks that each period kept was solved for this question's formula: the variables and
/// clauses of the formula rebuilt with its cycles of rounds blocked
/// ([`bataille_sat::aligned_formula_size`]) are those of its row (a row of another question's
/// files, or a question line edited, is refused).
fn check_formulas(args: &Args<'_>, rows: &[Row], found: &[BlockCycle]) -> Result<()> {
    let (resume, replace) = (args.run.words.resume, args.run.words.replace);
    let sha = INSTANCES_HEADER.split(',').position(|c| c == "cnf_sha256").expect("a column");
    for (rounds, _, line) in rows {
        let f: Vec<&str> = line.split(',').collect();
        if f.get(sha).is_none_or(|h| h.is_empty()) {
            bail!(
                "{resume}: {}: {rounds} rounds has no cnf_sha256, the hash of the formula it was \
                 solved for: the files do not agree (start again with {replace})",
                args.run.out.join("instances.csv").display()
            );
        }
        let q = AlignedQuestion {
            cards: args.q.cards,
            rounds: *rounds,
            max_multiplicity: args.q.max_mult,
            colours: args.q.colours,
            prime: args.q.prime,
        };
        let mine: Vec<Position> = found
            .iter()
            .filter(|c| c.period_rounds == *rounds as usize)
            .map(BlockCycle::position)
            .collect();
        let (v, c) = bataille_sat::aligned_formula_size(&q, &mine).map_err(Error::new)?;
        if (v.to_string().as_str(), c.to_string().as_str()) != (f[4], f[5]) {
            bail!(
                "{resume}: {}: {rounds} rounds was solved for a formula of {} variables and {} \
                 clauses, where this question's has {v} and {c}: the row is another \
                 question's (start again with {replace})",
                args.run.out.join("instances.csv").display(),
                f[4],
                f[5]
            );
        }
    }
    Ok(())
}

/// With nothing left to solve, the files are kept as they are and the run says every cycle is
/// in blocks.csv: it must be the catalogue of the cycles of rounds.csv (made from them by the
/// write that decided the last period; any other resume writes it again).
fn check_catalogue(run: &SolverRun<'_>, found: &[BlockCycle]) -> Result<()> {
    let path = run.out.join("blocks.csv");
    let (resume, replace) = (run.words.resume, run.words.replace);
    let text = read_bounded(&path, MAX_STATE_BYTES)?;
    if text.as_deref() != Some(catalogue_text(found).as_str()) {
        bail!(
            "{resume}: {} is {} the catalogue of the cycles in rounds.csv: the files do not \
             agree (restore it, or start again with {replace})",
            path.display(),
            if text.is_some() { "not" } else { "missing, not" }
        );
    }
    Ok(())
}
