//! `cycles solve`: loops of a given period found, or proved absent, by the SAT solver, into an
//! output directory: instances.csv (one row per period), parts.csv (one row per part of a
//! split period), cycles.csv (the loops found, replayed by the engine), metadata.csv (the
//! question and the commands that made the files). Each period's row is written as soon as it
//! is decided; [`solve_loops`] with `resume` continues the periods not decided yet.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

use bataille_engine::{DeckSpec, Method, Methods, Position};
use bataille_sat::{Counted, Found, Instance, Question, Settings, Verdict, formula_size, solve};
use bataille_search::pool::Pool;

use super::{
    SolverRun, certificate_columns, check_header, check_row, count, is_open, outside_the_limit,
    verdict_name,
};
use crate::error::{Context as _, bail, error};
use crate::files::{MAX_STATE_BYTES, OutputFiles, Words, prepare_outputs, read_bounded};
use crate::{Error, Result, Say};

/// The question of a `cycles solve` run: which loops, of which periods, and how it is solved.
#[derive(Clone, Debug)]
pub struct Loops {
    /// The deck.
    pub deck: DeckSpec,
    /// The stacking method of both players.
    pub method: Method,
    /// What a period counts: tricks, or the cards each player turns.
    pub counted: Counted,
    /// The first period asked (1 with a bound on the periods, else the one period).
    pub first: u32,
    /// The last period asked.
    pub last: u32,
    /// Every loop (otherwise the search stops at the first loop of period exactly `last`).
    pub all: bool,
    /// Only loops that pass through a deal.
    pub deals: bool,
    /// Only loops whose tricks have at most this many ties.
    pub max_ties: Option<u32>,
    /// Only loops in which one player holds at most this many cards at every trick boundary.
    pub max_hand: Option<u32>,
    /// Solve each period in parts, one per length of the loop's smallest hand.
    pub split: bool,
    /// Parts solved at once with `split`, one solver per thread (`None` or 0: one per core).
    pub threads: Option<usize>,
    /// With `split` and one period: solve only the part whose loops' smallest hand has this
    /// many cards (a task of a cluster's job array); [`merge_parts`] puts the parts together.
    pub part: Option<u32>,
}

/// How a solver run ended.
#[derive(Clone, Debug)]
pub struct Conclusion {
    /// What the files certify, and where the run stopped: the run's last lines.
    pub text: String,
    /// Whether the stop request stopped the solver (the files are resumable).
    pub interrupted: bool,
}

/// The columns of instances.csv after the period (and of parts.csv after the period and the
/// part).
const INSTANCES_HEADER: &str = "deals,verdict,loops_found,vars,clauses,solver_calls,\
solve_s,check_s,proof_bytes,proof_sha256,proof_steps,cnf_sha256,solver";

/// The question and the options of the run, together.
struct Args<'a> {
    q: &'a Loops,
    run: &'a SolverRun<'a>,
}

/// Solves the periods of `asked` into `run`'s output directory, saying each one's verdict and
/// the loops found as they come, then the conclusion. Every period is checked before any
/// work (a refused size, a refused method); with `resume`, the files are read back and checked
/// first, and the periods decided are kept.
pub fn solve_loops(asked: &Loops, run: &SolverRun<'_>) -> Result<Conclusion> {
    let args = &Args { q: asked, run };
    let (deck, counted, first, last) = (asked.deck, asked.counted, asked.first, asked.last);
    let (resume, replace) = (run.words.resume, run.words.replace);
    // Every period is checked before any work (a refused size, a refused method).
    let question = |period| Question {
        deck,
        method: args.q.method,
        counted,
        period,
        deals: args.q.deals,
        max_ties: args.q.max_ties,
        max_hand: args.q.max_hand,
        first_hand: None,
    };
    for p in [first, last] {
        let q = question(p);
        q.check().map_err(Error::new)?;
        if args.q.split {
            // The parts are refused where a period has none (tricks, deals).
            Question { first_hand: Some(1), ..q }.check().map_err(Error::new)?;
        }
    }
    if let Some(h) = asked.part {
        check_part(asked, h, question(first).parts().len(), &run.words)?;
    }
    let restricted = restriction(args.q.max_ties, args.q.max_hand);
    let question_line =
        |last: u32| header(deck, args.q.method, args.q.deals, counted, first, last, &restricted);
    let header = question_line(last);
    // A run of periods 1 to a smaller bound is continued by a larger one: its periods are
    // this question's too.
    let extends = |line: &str| first == 1 && (1..last).any(|n| line == question_line(n));
    let own = run.check_resumable(&header, &extends)?;
    let _outputs = prepare_outputs(None, run.resume, &run.out, run.replace, &own, &run.words)?;
    let methods = Methods::both(args.q.method);

    // Resume: the periods decided before, the parts of split periods, and their loops.
    let most = question(first).parts().len();
    let (mut rows, mut parts, mut known, claims) = if args.run.resume {
        let expected =
            Expected { deck, methods, counted, deals: args.q.deals, first, last, parts: most };
        read_previous(&run.out, &run.words, &expected)?
    } else {
        Default::default()
    };
    // Solved again: what is undecided or stopped, and with --all what stopped at its first
    // loop; but not what is undecided at a time limit at least about this run's (a period
    // solved whole then, or a part with --split), which would only be undecided again.
    let redo = |verdict: &str| is_open(verdict) || (args.q.all && verdict == "found");
    let decided: Vec<u32> = rows.iter().filter(|r| !redo(&r.1)).map(|r| r.0).collect();
    let (row_header, part_header) = (instances_header(counted), parts_header(counted));
    let mut held: Vec<u32> = rows
        .iter()
        .filter(|r| !args.q.split && args.run.ran_out(&row_header, &r.2))
        .map(|r| r.0)
        .collect();
    // A part solved again is solved whole again; so is every part of a period now solved
    // whole.
    let held_part = |r: &PartRow| args.q.split && args.run.ran_out(&part_header, &r.line);
    parts.retain(|r| {
        (!redo(&r.verdict) || held_part(r)) && (args.q.split || decided.contains(&r.period))
    });
    // A split period undecided with every part kept, one of them undecided, has nothing left
    // to solve either.
    let mine = |p: u32| parts.iter().filter(move |r| r.period == p);
    held.extend(rows.iter().filter(|r| args.q.split && r.1 == "undecided").map(|r| r.0).filter(
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
                "{resume}: {} lists {listed} loops of {}{hand}, where the run found {}: the \
                 files do not agree (start again with {replace})",
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
        let kept = Kept {
            rows: &rows,
            parts: &parts,
            known: &known,
            first,
            last,
            counted,
            words: &run.words,
        };
        // (One formula at a time, as a whole period is solved; with --split, as many as parts
        // are solved at once.)
        let threads = if args.q.split { args.q.threads.unwrap_or(0) } else { 1 };
        kept.check_formulas(&run.out, &question, threads)?;
    }
    // Nothing left to solve (every period decided, the search stopped at its loop before, or
    // the first period not decided is undecided at this time limit already): the files stay
    // as they are, their command and solver lines those of the runs that decided them, and
    // the answer is said again.
    let mut exact_found = rows.iter().any(|r| r.1 == "found");
    let nothing_left = (exact_found && !args.q.all)
        || (first..=last).find(|p| !decided.contains(p)).is_none_or(|p| held.contains(&p))
        || asked.part.is_some_and(|h| kept_part(first, h));
    if nothing_left {
        run.say.line(&format!("nothing left to solve: {} is kept as it is", run.out.display()));
    } else {
        // The directory is this question's from now on: a run stopped at once can be resumed.
        write(args, &header, &rows, &parts, &known)?;
    }
    let settings = args.run.settings(args.q.all)?;
    run.say.line(&format!(
        "deck:      C={} V={} {}, {}{}",
        deck.colours(),
        deck.values(),
        args.q.method.name(),
        what(args.q.deals),
        restricted
    ));
    run.say.line(&format!(
        "solver:    {} (LRAT proofs checked by bataille's own checker)",
        run.config.solver()
    ));
    // The parts of a split period run on these threads.
    let pool = match args.q.split {
        true => Some(Pool::new(args.q.threads.unwrap_or(0)).map_err(Error::new)?),
        false => None,
    };
    let mut stopped_at = None;
    for period in first..=last {
        if exact_found && !args.q.all {
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
        let blocked: Vec<Found> = if args.q.first != args.q.last {
            known.iter().filter(|f| counted.of(f) < u64::from(period)).cloned().collect()
        } else {
            Vec::new()
        };
        let verdict = if let Some(pool) = &pool {
            let ctx = SplitRun { args, header: &header, settings: &settings, pool };
            ctx.period(&q, &blocked, &mut rows, &mut parts, &mut known)?
        } else {
            let inst = solve(&q, &blocked, &settings).map_err(Error::new)?;
            report(&inst, None, run.say, &run.words);
            rows.push((period, verdict_name(&inst.verdict).to_string(), instance_row(&inst)));
            add_loops(&mut known, &inst.found);
            write(args, &header, &rows, &parts, &known)?;
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
        write(args, &header, &rows, &parts, &known)?;
    }
    let stopped_at = stopped_at.map(|p| (p, settings.stop.load(Ordering::Relaxed)));
    let conclusion = match asked.part {
        Some(h) => part_conclusion(&parts, args, h, stopped_at.is_some_and(|s| s.1)),
        None => conclusion(&rows, args, first, last, stopped_at, &restricted),
    };
    run.say.line(&conclusion);
    Ok(Conclusion { text: conclusion, interrupted: run.interrupted() })
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
    args: &'a Args<'a>,
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
            .filter(|p| self.args.q.part.is_none_or(|h| p.first_hand == Some(h)))
            .filter(|_| !self.args.run.merging)
            .collect();
        // Longest first, as the earlier period that took the longest predicts: the period
        // ends sooner, and a part that needs most of a working session starts at its
        // beginning (an unknown part goes after the known ones, the rest in their order).
        longest_first(&mut todo, &expected_seconds(parts, q.period));
        let found_exact = AtomicBool::new(false);
        let settings = self.settings;
        let all = self.args.q.all;
        let failed: Mutex<Option<Error>> = Mutex::new(None);
        let shared = Mutex::new((&mut *rows, &mut *parts, &mut *known));
        let fail = |e: Error| {
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
                Err(e) => return fail(Error::new(e)),
            };
            if inst.verdict == Verdict::Found {
                found_exact.store(true, Ordering::Relaxed);
            }
            // Each part's row and loops are written as soon as it is decided.
            let mut guard = shared.lock().unwrap_or_else(PoisonError::into_inner);
            let (rows, parts, known) = &mut *guard;
            report(&inst, inst.question.first_hand, self.args.run.say, &self.args.run.words);
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
        if let Some(h) = self.args.q.part {
            // One part alone: its verdict, and no row for the period, which its other parts'
            // runs decide with it.
            let verdict = mine.iter().find(|r| r.first_hand == h).map(|r| r.verdict.as_str());
            return Ok(match verdict {
                Some("complete") => Verdict::Complete,
                Some("found") => Verdict::Found,
                Some("undecided") => Verdict::Undecided,
                _ => Verdict::Stopped,
            });
        }
        let (verdict, line) = split_row(q, &mine, stopped, &settings.config.solver());
        rows.retain(|r| r.0 != q.period);
        rows.push((q.period, verdict_name(&verdict).to_string(), line));
        write(self.args, self.header, rows, parts, known)?;
        let p = label(q.counted, q.period);
        let decided = mine.iter().filter(|r| !is_open(&r.verdict)).count();
        self.args.run.say.line(&format!(
            "{p}: {} ({decided} of {} parts decided)",
            verdict_name(&verdict),
            q.parts().len()
        ));
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
    words: &'a Words,
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
        let (resume, replace) = (self.words.resume, self.words.replace);
        let sha = INSTANCES_HEADER.split(',').position(|c| c == "cnf_sha256").expect("a column");
        let no_hash = |file: &str, what: &str| {
            error!(
                "{resume}: {}: {what} has no cnf_sha256, the hash of the formula it was solved \
                 for: the files do not agree (start again with {replace})",
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
        let errors: Mutex<Vec<(usize, Error)>> = Mutex::new(Vec::new());
        Pool::new(threads).map_err(Error::new)?.for_each_in_order(
            &jobs,
            |(i, (file, what, q, [vars, clauses], loops))| {
                let error = match bataille_sat::formula_size(q, loops) {
                    Err(e) => Some(Error::new(e)),
                    Ok((v, c)) if v.to_string() == *vars && c.to_string() == *clauses => None,
                    Ok((v, c)) => Some(error!(
                        "{resume}: {}: {what} was solved for a formula of {vars} variables and \
                     {clauses} clauses, where this question's has {v} and {c}: the row is \
                     another question's (start again with {replace})",
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
    slowest_before(parts, period).map_or_else(Vec::new, |s| s.1)
}

/// The period before `period` whose parts took the longest in all, and the seconds each of its
/// parts (by first hand) took.
fn slowest_before(parts: &[PartRow], period: u32) -> Option<(u32, Vec<(u32, f64)>)> {
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
    let &(slowest, _) = totals.iter().max_by(|a, b| a.1.total_cmp(&b.1))?;
    let mine = parts.iter().filter(|r| r.period == slowest);
    Some((slowest, mine.map(|r| (r.first_hand, seconds(r))).collect()))
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

fn report(inst: &Instance, part: Option<u32>, say: &dyn Say, words: &Words) {
    let mut p = label(inst.question.counted, inst.question.period);
    if let Some(l) = part {
        let _ = write!(p, ", smallest hand {l}");
    }
    let size = format!("{} vars, {} clauses", inst.vars, inst.clauses);
    for f in &inst.found {
        say.line(&format!(
            "{p}: loop {:016x} of period {} tricks ({} cards): {}",
            f.id, f.period_tricks, f.period_cards, f.position
        ));
    }
    match (&inst.verdict, &inst.certificate) {
        (Verdict::Complete, Some(c)) => say.line(&format!(
            "{p}: complete ({size}; {:.2} s in the solver; proof of {} bytes, {} steps, \
             checked in {:.2} s)",
            inst.solve_seconds, c.proof_bytes, c.checked.added, c.check_seconds
        )),
        (Verdict::Found, _) => {
            say.line(&format!("{p}: a loop found ({size}; {:.2} s)", inst.solve_seconds))
        }
        (Verdict::Stopped, _) => say.line(&format!(
            "{p}: stopped after {:.1} s in the solver ({size}; {}): nothing is claimed \
             ({} solves it again)",
            inst.solve_seconds,
            outside_the_limit(inst.build_seconds, inst.load_seconds),
            words.resume
        )),
        _ => say.line(&format!(
            "{p}: UNDECIDED after {:.1} s in the solver ({size}; {}): nothing is claimed",
            inst.solve_seconds,
            outside_the_limit(inst.build_seconds, inst.load_seconds)
        )),
    }
}

fn conclusion(
    rows: &[(u32, String, String)],
    args: &Args<'_>,
    first: u32,
    last: u32,
    stopped: Option<(u32, bool)>,
    restricted: &str,
) -> String {
    let (counted, all, w) = (args.q.counted, args.q.all, &args.run.words);
    // A question of deals asks of loops through a deal (a deal lies on the loop: a loop
    // that a deal only leads into is not asked of), and of deals.
    let (reached, position) =
        if args.q.deals { (" through a deal", "deal") } else { ("", "position") };
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
            write!(
                s,
                "stopped: {} and beyond not decided ({} continues)",
                label(counted, p),
                w.resume
            )
        } else {
            write!(
                s,
                "undecided: {} and beyond (raise {} and {})",
                label(counted, p),
                w.time_limit,
                w.resume
            )
        };
    } else if !all && rows.iter().any(|r| r.1 == "found") {
        if !s.is_empty() {
            s.push('\n');
        }
        let _ =
            write!(s, "found: the search stopped at the first loop ({} lists every loop)", w.all);
    }
    s
}

fn write(
    args: &Args<'_>,
    header: &str,
    rows: &[(u32, String, String)],
    parts: &[PartRow],
    known: &[Found],
) -> Result<()> {
    let mut rows: Vec<&(u32, String, String)> = rows.iter().collect();
    rows.sort_by_key(|r| r.0);
    let mut instances = instances_header(args.q.counted) + "\n";
    for r in rows {
        instances.push_str(&r.2);
        instances.push('\n');
    }
    let cycles = cycles_text(known);
    // The loops before the rows that count them: a run killed between the two renames leaves
    // loops of a period not yet decided, which a resume drops and finds again.
    let mut files = OutputFiles::new(&args.run.out);
    files.add("cycles.csv", cycles.into_bytes());
    files.add("instances.csv", instances.into_bytes());
    // (A parts.csv whose parts are all dropped is removed with the other stale outputs.)
    if !parts.is_empty() {
        files.add("parts.csv", parts_text(parts, args.q.counted).into_bytes());
    }
    args.run.metadata(&mut files, header);
    files.commit()
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
fn read_previous(out: &Path, words: &Words, e: &Expected) -> Result<Previous> {
    let resume = words.resume;
    let read = |name: &str| -> Result<String> {
        read_bounded(&out.join(name), MAX_STATE_BYTES)?
            .with_context(|| format!("{resume}: {} has no {name}", out.display()))
    };
    let mut claims: Vec<Claim> = Vec::new();
    let path = out.join("instances.csv");
    let header = instances_header(e.counted);
    let text = read("instances.csv")?;
    let mut lines = text.lines();
    check_header(lines.next(), &header, &path, words)?;
    let mut rows: Vec<(u32, String, String)> = Vec::new();
    // Complete periods with no proof of their own: split periods, whose parts must all be.
    let mut by_parts = Vec::new();
    for (n, line) in lines.enumerate() {
        let at = || format!("{resume}: {} line {}", path.display(), n + 2);
        let f = check_row(line, &header, &format!("n{INSTANCE_KINDS}")).with_context(at)?;
        let (period, _, verdict, loops) = e.instance(&f, false).with_context(at)?;
        if rows.iter().any(|r| r.0 == period) {
            return Err(error!("period {period} is there twice")).with_context(at);
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
        check_header(lines.next(), &header, &path, words)?;
        for (n, line) in lines.enumerate() {
            let at = || format!("{resume}: {} line {}", path.display(), n + 2);
            let f = check_row(line, &header, &format!("nn{INSTANCE_KINDS}")).with_context(at)?;
            let (period, first_hand, verdict, loops) = e.instance(&f, true).with_context(at)?;
            if parts.iter().any(|r: &PartRow| (r.period, r.first_hand) == (period, first_hand)) {
                return Err(error!("period {period} smallest hand {first_hand} is there twice"))
                    .with_context(at);
            }
            if verdict == "complete" && f[11].is_empty() {
                return Err(Error::msg("a complete part with no proof")).with_context(at);
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
                "{resume}: {} line {line}: {} is complete with no proof of its own, and not \
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
    check_header(text.lines().next(), CYCLES_HEADER, &path, words)?;
    let mut known: Vec<Found> = Vec::new();
    let mut r = csv::Reader::from_reader(text.as_bytes());
    for (n, rec) in r.records().enumerate() {
        let at = || format!("{resume}: {} line {}", path.display(), n + 2);
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
            return Err(Error::msg(why)).with_context(at);
        }
        known.push(found);
    }
    Ok((rows, parts, known, claims))
}

/// Refuses a part that is not one of the question's `parts`, or a question that is not one
/// split period.
fn check_part(asked: &Loops, h: u32, parts: usize, words: &Words) -> Result<()> {
    if !asked.split || asked.first != asked.last {
        bail!("{} solves one part of one split period: give one period, split", words.part);
    }
    if h == 0 || h as usize > parts {
        bail!(
            "{} {h}: {} has {parts} parts, smallest hands 1 to {parts}",
            words.part,
            label(asked.counted, asked.first)
        );
    }
    Ok(())
}

/// What the run of one part says at its end: the part's verdict, and what certifies the period.
fn part_conclusion(parts: &[PartRow], args: &Args<'_>, h: u32, asked: bool) -> String {
    let (q, w) = (args.q, &args.run.words);
    let p = label(q.counted, q.first);
    let row = parts.iter().find(|r| (r.period, r.first_hand) == (q.first, h));
    let loops = |r: &PartRow| {
        let n = count(r.field(4)).unwrap_or(0);
        format!("{n} loop{}", if n == 1 { "" } else { "s" })
    };
    let verdict = match (row.map(|r| r.verdict.as_str()), row) {
        (Some("complete"), Some(r)) => format!("complete ({} found)", loops(r)),
        (Some("found"), _) => "a loop found".to_string(),
        (Some("undecided"), _) if !asked => {
            format!("undecided (raise {} and {})", w.time_limit, w.resume)
        }
        _ => format!("stopped ({} continues)", w.resume),
    };
    format!(
        "part: {p}, smallest hand {h} of {}: {verdict}; {} puts the parts together and \
         certifies the period when every part is complete",
        args.q.parts_of_first(),
        w.merge
    )
}

impl Loops {
    /// The number of parts of the first period.
    fn parts_of_first(&self) -> usize {
        self.question(self.first).parts().len()
    }

    /// The question of period `period`, whole.
    fn question(&self, period: u32) -> Question {
        Question {
            deck: self.deck,
            method: self.method,
            counted: self.counted,
            period,
            deals: self.deals,
            max_ties: self.max_ties,
            max_hand: self.max_hand,
            first_hand: None,
        }
    }
}

/// Puts together in `run`'s output directory the directories `dirs` of the parts of one split
/// period (each made by runs of one part, [`Loops::part`], or of several), then finishes the
/// period there as `resume` does: every part's row and loops are read back and checked (its
/// question, its columns, the loops replayed by the engine, its formula rebuilt), a part met in
/// two directories is refused, and the period's row is made from its parts: complete when every
/// part is. Parts missing or undecided leave the period undecided, to be solved by `resume`.
/// The commands of the parts' runs become the merged directory's earlier commands.
pub fn merge_parts(asked: &Loops, run: &SolverRun<'_>, dirs: &[PathBuf]) -> Result<Conclusion> {
    let w = &run.words;
    if !asked.split || asked.first != asked.last || asked.part.is_some() {
        bail!("{} puts together the parts of one split period: give one period, split", w.merge);
    }
    if run.resume {
        bail!("{} makes a new directory: leave out {}", w.merge, w.resume);
    }
    let q = asked.question(asked.first);
    q.check().map_err(Error::new)?;
    Question { first_hand: Some(1), ..q }.check().map_err(Error::new)?;
    let restricted = restriction(asked.max_ties, asked.max_hand);
    let header = header(
        asked.deck,
        asked.method,
        asked.deals,
        asked.counted,
        asked.first,
        asked.last,
        &restricted,
    );
    let expected = Expected {
        deck: asked.deck,
        methods: Methods::both(asked.method),
        counted: asked.counted,
        deals: asked.deals,
        first: asked.first,
        last: asked.last,
        parts: q.parts().len(),
    };
    let (mut parts, mut known, mut commands): (Vec<PartRow>, Vec<Found>, Vec<String>) =
        Default::default();
    let mut from: Vec<(u32, &Path)> = Vec::new();
    for dir in dirs {
        if crate::files::same_path(dir, &run.out) {
            bail!(
                "{} {}: the merge would replace it; give another directory",
                w.out,
                dir.display()
            );
        }
        match super::question_of(dir) {
            Some(line) if line == header => {}
            other => bail!(
                "{} is not a part of this question, \"{}\": it holds {}",
                dir.display(),
                &header["question,".len()..],
                other.map_or("no question".to_string(), |l| format!(
                    "\"{}\"",
                    &l["question,".len()..]
                ))
            ),
        }
        let (_, mine, loops, _) = read_previous(dir, w, &expected)?;
        for r in mine {
            if let Some((_, other)) = from.iter().find(|(h, _)| *h == r.first_hand) {
                bail!(
                    "{}, smallest hand {} is in both {} and {}: merge each part once",
                    label(asked.counted, r.period),
                    r.first_hand,
                    other.display(),
                    dir.display()
                );
            }
            from.push((r.first_hand, dir));
            parts.push(r);
        }
        add_loops(&mut known, &loops);
        commands.extend(super::earlier_commands(dir));
    }
    sort_split_loops(&mut known, asked.counted);
    {
        let own = |_: &Path| false;
        let _outputs = prepare_outputs(None, false, &run.out, run.replace, &own, w)?;
        let mut files = OutputFiles::new(&run.out);
        files.add("cycles.csv", cycles_text(&known).into_bytes());
        files.add("instances.csv", (instances_header(asked.counted) + "\n").into_bytes());
        files.add("parts.csv", parts_text(&parts, asked.counted).into_bytes());
        let (key, question) = header.split_once(',').expect("a key and a value");
        let mut rows = vec![(key, question.to_string())];
        rows.extend(commands.into_iter().map(|c| ("earlier_command", c)));
        files.add_key_values("metadata.csv", &rows);
        files.commit()?;
    }
    let open: Vec<String> = (1..=q.parts().len() as u32)
        .filter(|h| !parts.iter().any(|r| r.first_hand == *h && !is_open(&r.verdict)))
        .map(|h| h.to_string())
        .collect();
    let mut done = solve_loops(asked, &run.merged())?;
    if !open.is_empty() {
        let line = format!(
            "open parts: smallest hand {} (missing or not decided): solve them with {} and merge \
             again, or continue here with {}",
            open.join(", "),
            w.part,
            w.resume
        );
        run.say.line(&line);
        done.text = format!("{}\n{line}", done.text);
    }
    Ok(done)
}

/// cycles.csv: the loops, in the order given.
fn cycles_text(known: &[Found]) -> String {
    let mut cycles = format!("{CYCLES_HEADER}\n");
    for f in known {
        let _ = writeln!(
            cycles,
            "{:016x},{},{},\"{}\"",
            f.id, f.period_tricks, f.period_cards, f.position
        );
    }
    cycles
}

/// parts.csv: the parts' rows, by period and smallest hand.
fn parts_text(parts: &[PartRow], counted: Counted) -> String {
    let mut parts: Vec<&PartRow> = parts.iter().collect();
    parts.sort_by_key(|r| (r.period, r.first_hand));
    let mut text = parts_header(counted) + "\n";
    for r in parts {
        text.push_str(&r.line);
        text.push('\n');
    }
    text
}

/// What a run of `asked` would be, for a launcher: its tasks (one per part of a split period,
/// else one), the size of each task's formula (variables and clauses, built without a
/// solver: the memory a solver will need grows with them), and the solver seconds the parts
/// of the slowest earlier split period took in the output directory `earlier`, when it holds
/// one. The time a SAT question takes is not predictable from its size, so the report says so
/// and gives no estimate; its last line, `cost: tasks=N seconds=unknown ...`, is for scripts.
pub fn dry_run(asked: &Loops, earlier: Option<&Path>, words: &Words) -> Result<String> {
    let q = asked.question(asked.last);
    q.check().map_err(Error::new)?;
    let split = asked.split && asked.first == asked.last;
    let questions: Vec<Question> = if split {
        Question { first_hand: Some(1), ..q }.check().map_err(Error::new)?;
        q.parts()
    } else {
        vec![q]
    };
    let p = label(asked.counted, asked.last);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "dry run:   C={} V={} {}, {}{}: {p}{}",
        asked.deck.colours(),
        asked.deck.values(),
        asked.method.name(),
        what(asked.deals),
        restriction(asked.max_ties, asked.max_hand),
        if asked.first == asked.last {
            String::new()
        } else {
            format!(" (the last of periods {} to {})", asked.first, asked.last)
        }
    );
    let (mut vars, mut clauses) = (0, 0);
    for part in &questions {
        let (v, c) = formula_size(part, &[]).map_err(Error::new)?;
        (vars, clauses) = (vars.max(v), clauses.max(c));
        let which = part.first_hand.map_or(String::new(), |h| format!(", smallest hand {h}"));
        let _ = writeln!(s, "formula:   {p}{which}: {v} vars, {c} clauses");
    }
    let tasks = questions.len();
    let _ = writeln!(
        s,
        "tasks:     {tasks} ({})",
        if split {
            format!("one per part, each run with {} H", words.part)
        } else {
            "the periods are solved one after the other".to_string()
        }
    );
    let earlier_parts = earlier
        .and_then(|dir| read_bounded(&dir.join("parts.csv"), MAX_STATE_BYTES).ok().flatten())
        .map(|text| parts_of_text(&text))
        .unwrap_or_default();
    if let Some((period, measured)) = slowest_before(&earlier_parts, asked.last) {
        let list: Vec<String> = measured.iter().map(|(h, t)| format!("{h}: {t:.0} s")).collect();
        let total: f64 = measured.iter().map(|m| m.1).sum();
        let _ = writeln!(
            s,
            "time:      not predictable; the parts of the slowest earlier period, {}, took \
             {total:.0} s in all (smallest hand: solver seconds) {}",
            label(asked.counted, period),
            list.join(", ")
        );
    } else {
        s.push_str(
            "time:      not predictable: a SAT question's time does not follow from its size \
             (no earlier split period measured in the output directory)\n",
        );
    }
    let _ = writeln!(s, "cost: tasks={tasks} seconds=unknown vars={vars} clauses={clauses}");
    Ok(s)
}

/// The rows of a parts.csv text, unchecked (for the times of earlier periods only).
fn parts_of_text(text: &str) -> Vec<PartRow> {
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let mut f = line.split(',');
            let period = f.next()?.parse().ok()?;
            let first_hand = f.next()?.parse().ok()?;
            let verdict = f.nth(1)?.to_string();
            Some(PartRow { period, first_hand, verdict, line: line.to_string() })
        })
        .collect()
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
