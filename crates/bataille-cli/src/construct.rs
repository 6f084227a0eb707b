//! `bataille construct`: the known infinite games, built and checked by the engine.
//!
//! - `spivey`: Spivey's C = 1 loops for V = m·2^k, m odd ≥ 5.
//! - `lakshtanov`: the 52-card loop of the article's box 3 under the first-player-first rule.
//! - `aligned`: a C = 4 aligned cycle for an even V ≥ 4 from the known V = 4 and V = 6 ones.
//! - `c1-positions`: every position of the C = 1 deck, and which lie on a loop.
//!
//! The flags and their checks are here; the reports are `bataille_constructs::report`'s,
//! printed as they come.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use bataille_constructs::report::{self, Report};
use bataille_constructs::spivey::{Labelling, Plan, PlanError, Substitution};
use bataille_constructs::values::parse_values;
use bataille_constructs::{aligned, positions};
use bataille_engine::{DeckSpec, Method, Methods, Position};
use clap::{Args, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};

use crate::checks::shown;

/// Flags of `bataille construct`.
#[derive(Debug, Args)]
pub(crate) struct ConstructArgs {
    #[command(subcommand)]
    command: ConstructCommand,
}

#[derive(Debug, Subcommand)]
enum ConstructCommand {
    /// Spivey's C=1 loop for V = m·2^k (m odd, m >= 5): the A/B pattern, the insertion steps, a
    /// labelling, and the engine's verdict. For V = 1, 2^k or 3·2^k it says why the construction
    /// does not apply (exit 0). Several V (`5..200`, `5,7,9`) print one CSV line each.
    Spivey(SpiveyArgs),
    /// Lakshtanov's 52-card loop (box 3): first-player-first stacking for both players, checked,
    /// with the battles before and on the loop.
    Lakshtanov,
    /// A C=4 aligned cycle for an even V >= 4, made of the article's V=4 and V=6 aligned cycles
    /// (V = 4a + 6b), checked. Several V print one CSV line each.
    Aligned(EvenArgs),
    /// Every C=1 position (any split of the V cards, each hand in any order) for V <= 13:
    /// how many lie on a loop or lead into one, and the loops. One bit per position
    /// (V=12: 779 MB, minutes), one core.
    C1Positions(PositionsArgs),
}

/// Flags of `bataille construct spivey`.
#[derive(Debug, Args)]
struct SpiveyArgs {
    /// V, or several: `18`, `5..200` (inclusive), `5,7,9`, `4..10,12`.
    #[arg(long, short = 'v')]
    values: String,
    /// How values replace the categories (every value of a stronger category above every value
    /// of a weaker one): descending = in reading order (first hand, then second), each
    /// category's values from its highest down (gives the article's V=18 deal); ascending =
    /// from its lowest up; random = shuffled (see --seed).
    #[arg(long, value_enum, default_value_t = LabellingName::Descending)]
    labelling: LabellingName,
    /// Seed of the random labelling (each V uses a generator seeded with it).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// An explicit substitution, categories in order, values in reading order:
    /// `A=9,6,8,7 B=1,2,5,4,3` (one V only).
    #[arg(long, conflicts_with_all = ["labelling", "deal"])]
    substitution: Option<String>,
    /// Read this deal as a labelling of the pattern: prints the substitution it uses, or where
    /// it departs from the pattern (one V only).
    #[arg(long, conflicts_with = "labelling")]
    deal: Option<String>,
    /// Do not play the deal: give the period predicted from the category loop only (instant,
    /// where some V up to 255 loop for hundreds of millions of tricks).
    #[arg(long)]
    predict_only: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum LabellingName {
    Descending,
    Ascending,
    Random,
}

/// Flags of `bataille construct aligned`.
#[derive(Debug, Args)]
struct EvenArgs {
    /// V (even, at least 4), or several: `4..26`, `8,10`.
    #[arg(long, short = 'v')]
    values: String,
    /// The decomposition V = 4a + 6b to use, as `a,b` (default: the one with most V=6 parts).
    #[arg(long, conflicts_with = "all")]
    split: Option<String>,
    /// Every decomposition V = 4a + 6b.
    #[arg(long)]
    all: bool,
}

/// Flags of `bataille construct c1-positions`.
#[derive(Debug, Args)]
struct PositionsArgs {
    /// V, from 1 to 13 (or several: `2..8`).
    #[arg(long, short = 'v')]
    values: String,
    /// Also play every position with the engine and check both censuses agree (V <= 10).
    #[arg(long)]
    brute_force: bool,
    /// Also write the number of loops of each period, for every V, to this CSV file
    /// (columns in docs/formats.md; replaced if it exists).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
}

pub(crate) fn run(args: ConstructArgs) -> Result<ExitCode> {
    match args.command {
        ConstructCommand::Spivey(a) => run_spivey(a),
        ConstructCommand::Lakshtanov => finish(report::lakshtanov()),
        ConstructCommand::Aligned(a) => run_even(a),
        ConstructCommand::C1Positions(a) => run_positions(a),
    }
}

// ---------------------------------------------------------------------------------------------
// spivey

fn run_spivey(args: SpiveyArgs) -> Result<ExitCode> {
    let values = parse_values(&args.values)?;
    // Invalid deck sizes are input errors, whatever the mode.
    for &v in &values {
        if let Err(e @ PlanError::Deck { .. }) = Plan::new(v) {
            bail!("{e}");
        }
    }
    let labelling = match (&args.substitution, args.labelling) {
        (Some(text), _) => Labelling::Given(text.parse::<Substitution>()?),
        (None, LabellingName::Descending) => Labelling::Descending,
        (None, LabellingName::Ascending) => Labelling::Ascending,
        (None, LabellingName::Random) => Labelling::Random { seed: args.seed },
    };
    let [v] = values[..] else {
        if args.substitution.is_some() || args.deal.is_some() {
            bail!("--substitution and --deal take one V, got {} values", values.len());
        }
        let table = report::spivey_table(&values, &labelling, args.predict_only);
        return finish(table.map_err(|e| anyhow!("{e}"))?);
    };
    // Not the deck at all is a bad input (exit 2), refused before anything is printed; a deck
    // that does not follow the pattern is an answer (exit 1).
    let deal = args.deal.as_deref().map(|text| read_deal(text, v)).transpose()?;
    if let Err(PlanError::NotApplicable(why)) = Plan::new(v)
        && (deal.is_some() || args.substitution.is_some())
    {
        let flag = if deal.is_some() { "--deal" } else { "--substitution" };
        bail!("{flag} reads a labelling of Spivey's pattern, and V={v} has none: {why}")
    }
    finish(report::spivey(v, &labelling, deal.as_ref(), args.predict_only)?)
}

/// Prints a report; exit 0 when what it checks held, [`crate::EXIT_FINDING`] otherwise.
fn finish(report: Report) -> Result<ExitCode> {
    print!("{}", report.text);
    Ok(if report.ok { ExitCode::SUCCESS } else { ExitCode::from(crate::EXIT_FINDING) })
}

/// `--deal` of `construct spivey`: a deal of the C=1 deck of V values.
fn read_deal(text: &str, v: usize) -> Result<Position> {
    let deal =
        Position::parse(text).with_context(|| format!("cannot read the deal {}", shown(text)))?;
    deal.check_deck(DeckSpec::new(1, v)?).with_context(|| format!("--deal {deal}"))?;
    Ok(deal)
}

// ---------------------------------------------------------------------------------------------
// aligned (even V)

fn run_even(args: EvenArgs) -> Result<ExitCode> {
    let values = parse_values(&args.values)?;
    // Every deck checked before the first is built: C=4, V from 1 to 64 (256 cards).
    for &v in &values {
        DeckSpec::new(4, v).with_context(|| format!("cannot build the aligned deck C=4 V={v}"))?;
    }
    let split = match &args.split {
        Some(text) => {
            let parts: Vec<&str> = text.split(',').collect();
            let [a, b] = parts[..] else {
                bail!("cannot read --split {}: expected `a,b`", shown(text))
            };
            let n = |s: &str| {
                s.trim().parse::<usize>().with_context(|| {
                    format!(
                        "cannot read --split {}: {} is not a whole number",
                        shown(text),
                        shown(s.trim())
                    )
                })
            };
            Some((n(a)?, n(b)?))
        }
        None => None,
    };
    // A split fits every deck asked, or nothing is printed.
    if let Some(s) = split {
        for &v in &values {
            aligned::even_deck(v, Some(s))?;
        }
    }
    if let [v] = values[..] {
        if split.is_none() && aligned::decompositions(v).is_empty() {
            return finish(report::even_not_applicable(v));
        }
        if !args.all {
            let parts = aligned::even_deck(v, split)?;
            let a = parts.iter().filter(|p| p.cards() == 16).count();
            println!(
                "parts:     {a} × the V=4 aligned cycle, then {} × the V=6 one (box 4)",
                parts.len() - a
            );
            return crate::extension::report_extension(&parts, Methods::both(Method::Natural));
        }
    }
    finish(report::even_table(&values, split, args.all)?)
}

// ---------------------------------------------------------------------------------------------
// c1-positions

fn run_positions(args: PositionsArgs) -> Result<ExitCode> {
    let values = parse_values(&args.values)?;
    for &v in &values {
        if v == 0 || v > positions::MAX_VALUES {
            bail!("{}", positions::CensusError::Values(v));
        }
        if args.brute_force && v > 10 {
            bail!(
                "--brute-force plays every position with the engine: V={v} is too many (at most 10)"
            );
        }
    }
    // Checked (the directory writable), and locked, before any work.
    let _outputs = crate::output::prepare_file_output(args.csv.as_deref(), None, false)?;
    let mut code = ExitCode::SUCCESS;
    let mut censuses = Vec::new();
    for (i, &v) in values.iter().enumerate() {
        if i > 0 {
            println!();
        }
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template("{msg} [{bar:40}] {percent}% eta {eta}")
                .expect("a valid template"),
        );
        bar.set_message(format!("V={v}"));
        let start = Instant::now();
        let (census, stats) = positions::census(v, |done, total| {
            bar.set_length(total);
            bar.set_position(done);
        })?;
        let seconds = start.elapsed().as_secs_f64();
        bar.finish_and_clear();
        print!("{}", report::census(&census, &stats, seconds));
        if args.brute_force {
            let start = Instant::now();
            let b = positions::brute_force(v)?;
            let report = report::brute_force(&b, &census, start.elapsed().as_secs_f64());
            print!("{}", report.text);
            if !report.ok {
                code = ExitCode::from(crate::EXIT_FINDING);
            }
        }
        censuses.push(census);
    }
    if let Some(path) = &args.csv {
        crate::output::write_atomic(path, &report::census_csv(&censuses))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(code)
}
