//! `bataille aligned solve`: every aligned cycle of 2n cards with a period of R rounds found,
//! and the rest proved absent, by a SAT solver (see `bataille_sat::aligned`).

use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use bataille_cycles::blocks::{self, BlockCycle, CATALOGUE_HEADER};
use bataille_engine::Position;
use bataille_sat::{AlignedInstance, AlignedQuestion, Verdict, solve_aligned};
use clap::Args;

use crate::output::{MAX_STATE_BYTES, OutputFiles, prepare_outputs, read_bounded};
use crate::solve::{RunArgs, certificate_columns, verdict_name};

/// Flags of `bataille aligned solve`.
#[derive(Debug, Args)]
pub(crate) struct SolveArgs {
    /// 2n, the cards of both hands (n cards per hand).
    #[arg(long)]
    cards: usize,
    /// Aligned cycles of exactly R rounds.
    #[arg(
        long,
        value_name = "R",
        required_unless_present = "max_rounds",
        conflicts_with = "max_rounds"
    )]
    rounds: Option<u32>,
    /// Every period from 1 to R rounds, in order.
    #[arg(long, value_name = "R")]
    max_rounds: Option<u32>,
    /// The most times a value may be used (4 for a real deck).
    #[arg(long = "max-mult", alias = "max-multiplicity", value_name = "K", default_value_t = 4)]
    max_mult: usize,
    /// Only the deck of C colours: each value 1..2N/C used exactly C times (instead of
    /// --max-mult).
    #[arg(long, short = 'c', value_name = "C", conflicts_with = "max_mult")]
    colours: Option<usize>,
    /// Only prime cycles: positions that do not cut into two smaller blocks each on a cycle
    /// of its own (the rows of the catalogue with no `splits`).
    #[arg(long)]
    prime: bool,
    #[command(flatten)]
    run: RunArgs,
}

const INSTANCES_HEADER: &str = "rounds,verdict,cycles_of_rounds,loops,vars,clauses,\
solver_calls,solve_s,check_s,proof_bytes,proof_sha256,proof_steps,cnf_sha256,solver";

/// One decided (or undecided) period: its rounds, verdict and instances.csv row.
type Row = (u32, String, String);

pub(crate) fn run(args: SolveArgs) -> Result<ExitCode> {
    let (first, last) = match (args.rounds, args.max_rounds) {
        (Some(r), _) => (r, r),
        (None, Some(r)) => (1, r),
        (None, None) => bail!("give --rounds R or --max-rounds R"),
    };
    for rounds in [first, last] {
        AlignedQuestion {
            cards: args.cards,
            rounds,
            max_multiplicity: args.max_mult,
            colours: args.colours,
            prime: args.prime,
        }
        .check()?;
    }
    let what = if args.prime { "prime aligned cycles" } else { "aligned cycles" };
    let times = match args.colours {
        Some(c) => format!("values exactly {c} times"),
        None => format!("values at most {} times", args.max_mult),
    };
    let header =
        format!("question,{what} of {} cards ({times}) of {first} to {last} rounds", args.cards);
    let own = |dir: &Path| crate::solve::holds_question(dir, &header);
    let _outputs = prepare_outputs(None, args.run.resume, &args.run.out, args.run.replace, &own)?;
    let settings = args.run.settings(true)?;
    let (mut rows, mut found) = if args.run.resume {
        read_previous(&args.run.out, args.prime)?
    } else {
        (Vec::new(), Vec::new())
    };
    rows.retain(|r| r.1 != "undecided");
    let decided: Vec<u32> = rows.iter().map(|r| r.0).collect();
    found.retain(|c| decided.contains(&(c.period_rounds as u32)));
    println!("question:  {what} of {} cards, hands of {}, {times}", args.cards, args.cards / 2);
    println!(
        "solver:    {} (LRAT proofs checked by bataille's own checker)",
        settings.config.solver()
    );
    let mut stopped_at = None;
    for rounds in (first..=last).filter(|r| !decided.contains(r)) {
        let q = AlignedQuestion {
            cards: args.cards,
            rounds,
            max_multiplicity: args.max_mult,
            colours: args.colours,
            prime: args.prime,
        };
        let inst = solve_aligned(&q, &settings)?;
        report(&inst);
        rows.push((rounds, verdict_name(&inst.verdict).to_string(), instance_row(&inst)));
        found.extend(inst.found.iter().cloned());
        write(&args, &header, &rows, &found)?;
        if inst.verdict == Verdict::Undecided {
            stopped_at = Some(rounds);
            break;
        }
    }
    args.run.put_away_proofs(&settings);
    write(&args, &header, &rows, &found)?;
    let complete_to = (first..=last)
        .take_while(|r| rows.iter().any(|row| row.0 == *r && row.1 == "complete"))
        .last();
    if let Some(r) = complete_to {
        // Only the periods certified count (an undecided one's cycles are listed, not counted).
        let certified: Vec<BlockCycle> =
            found.iter().filter(|c| c.period_rounds <= r as usize).cloned().collect();
        let loops = blocks::catalogue(&certified).len();
        let span = if first == r { format!("{r}") } else { format!("{first} to {r}") };
        println!(
            "certified: every {} of {} cards ({times}) of {span} rounds is in blocks.csv: {loops} \
             loop{} ({} cycle{} of rounds); each period's proof checked",
            what.trim_end_matches('s'),
            args.cards,
            if loops == 1 { "" } else { "s" },
            certified.len(),
            if certified.len() == 1 { "" } else { "s" },
        );
    }
    if let Some(r) = stopped_at {
        println!("undecided: {r} rounds and beyond (raise --time-limit and --resume)");
    }
    Ok(RunArgs::exit_code(&settings))
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

fn report(inst: &AlignedInstance) {
    let r = inst.question.rounds;
    let size = format!("{} vars, {} clauses", inst.vars, inst.clauses);
    let loops = blocks::catalogue(&inst.found).len();
    match (&inst.verdict, &inst.certificate) {
        (Verdict::Complete, Some(c)) => println!(
            "{r} rounds: {} cycles of rounds on {loops} loops, complete ({size}; {:.2} s in the \
             solver, {} call{}; proof of {} bytes, {} steps, checked in {:.2} s)",
            inst.found.len(),
            inst.solve_seconds,
            inst.calls,
            if inst.calls == 1 { "" } else { "s" },
            c.proof_bytes,
            c.checked.added,
            c.check_seconds
        ),
        _ => println!(
            "{r} rounds: UNDECIDED after {:.1} s in the solver ({size}; {} cycles of rounds found \
             so far): nothing is claimed",
            inst.solve_seconds,
            inst.found.len()
        ),
    }
}

fn write(args: &SolveArgs, header: &str, rows: &[Row], found: &[BlockCycle]) -> Result<()> {
    let mut rows: Vec<&Row> = rows.iter().collect();
    rows.sort_by_key(|r| r.0);
    let mut instances = format!("{INSTANCES_HEADER}\n");
    for r in rows {
        instances.push_str(&r.2);
        instances.push('\n');
    }
    let mut catalogue = format!("{CATALOGUE_HEADER}\n");
    for c in blocks::catalogue(found) {
        catalogue.push_str(&blocks::catalogue_row(&c));
        catalogue.push('\n');
    }
    let mut sorted: Vec<&BlockCycle> = found.iter().collect();
    sorted.sort_by(|a, b| {
        (a.period_rounds, &a.first, &a.second).cmp(&(b.period_rounds, &b.first, &b.second))
    });
    let mut rounds = String::from("period_rounds,cycle_id,position\n");
    for c in sorted {
        let _ = writeln!(rounds, "{},{:016x},\"{}\"", c.period_rounds, c.cycle_id, c.position());
    }
    let mut files = OutputFiles::new(&args.run.out);
    files.add("instances.csv", instances.into_bytes());
    files.add("blocks.csv", catalogue.into_bytes());
    files.add("rounds.csv", rounds.into_bytes());
    args.run.metadata(&mut files, header);
    files.commit()
}

/// The periods decided before and their cycles of rounds, each played again by the engine
/// from its position (nothing else is taken from the files).
fn read_previous(out: &Path, prime: bool) -> Result<(Vec<Row>, Vec<BlockCycle>)> {
    let read = |name: &str| -> Result<String> {
        read_bounded(&out.join(name), MAX_STATE_BYTES)?
            .with_context(|| format!("--resume: {} has no {name}", out.display()))
    };
    let mut rows = Vec::new();
    for (n, line) in read("instances.csv")?.lines().enumerate().skip(1) {
        let mut f = line.split(',');
        let (Some(rounds), Some(verdict)) = (f.next().and_then(|r| r.parse().ok()), f.next())
        else {
            bail!("--resume: instances.csv line {}: not an instances row", n + 1);
        };
        rows.push((rounds, verdict.to_string(), line.to_string()));
    }
    let mut found = Vec::new();
    let text = read("rounds.csv")?;
    let mut r = csv::Reader::from_reader(text.as_bytes());
    for rec in r.records() {
        let rec = rec.context("--resume: rounds.csv")?;
        let position: Position =
            rec.get(2).unwrap_or("").parse().context("--resume: rounds.csv position")?;
        let cycle = BlockCycle::of(&position)
            .filter(|c| !prime || blocks::splits(&c.first, &c.second).is_empty())
            .with_context(|| {
                format!(
                    "--resume: rounds.csv: {position} is not the canonical position of {} aligned \
                     cycle",
                    if prime { "a prime" } else { "an" }
                )
            })?;
        found.push(cycle);
    }
    Ok((rows, found))
}
