//! `bataille construct`: the known infinite games, built and checked by the engine.
//!
//! - `spivey`: Spivey's C = 1 loops for V = m·2^k, m odd ≥ 5.
//! - `lakshtanov`: the 52-card loop of the article's box 3 under the first-player-first rule.
//! - `aligned`: a C = 4 aligned cycle for an even V ≥ 4 from the known V = 4 and V = 6 ones.
//! - `c1-positions`: every position of the C = 1 deck, and which lie on a loop.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use bataille_constructs::positions::{self, Census, WalkStats};
use bataille_constructs::spivey::{
    self, Construction, Labelling, Pattern, Plan, PlanError, Substitution, letter,
};
use bataille_constructs::{aligned, lakshtanov};
use bataille_engine::{DeckSpec, Method, Methods, Outcome, Position, aligned as engine_aligned};
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
        ConstructCommand::Lakshtanov => run_lakshtanov(),
        ConstructCommand::Aligned(a) => run_even(a),
        ConstructCommand::C1Positions(a) => run_positions(a),
    }
}

/// Reads `18`, `5..200`, `5..=200`, `5,7,9` or a mix, in order, without repeats.
pub(crate) fn parse_values(text: &str) -> Result<Vec<usize>> {
    let number = |s: &str| -> Result<usize> {
        s.trim().parse::<usize>().with_context(|| {
            format!(
                "cannot read the values {}: {} is not a whole number",
                shown(text),
                shown(s.trim())
            )
        })
    };
    let mut out = Vec::new();
    for part in text.split(',') {
        if let Some((lo, hi)) = part.split_once("..") {
            let (lo, hi) = (number(lo)?, number(hi.trim_start_matches('='))?);
            if lo > hi {
                bail!("cannot read the values {}: the range {lo}..{hi} is empty", shown(text));
            }
            out.extend(lo..=hi);
        } else {
            out.push(number(part)?);
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|v| seen.insert(*v));
    Ok(out)
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
    if let [v] = values[..] {
        return spivey_one(v, &labelling, args.deal.as_deref(), args.predict_only);
    }
    if args.substitution.is_some() || args.deal.is_some() {
        bail!("--substitution and --deal take one V, got {} values", values.len());
    }
    spivey_table(&values, &labelling, args.predict_only)
}

/// `--deal` of `construct spivey`: a deal of the C=1 deck of V values.
fn read_deal(text: &str, v: usize) -> Result<Position> {
    let deal =
        Position::parse(text).with_context(|| format!("cannot read the deal {}", shown(text)))?;
    deal.check_deck(DeckSpec::new(1, v)?).with_context(|| format!("--deal {deal}"))?;
    Ok(deal)
}

fn spivey_one(
    v: usize,
    labelling: &Labelling,
    deal: Option<&str>,
    predict_only: bool,
) -> Result<ExitCode> {
    // Not the deck at all is a bad input (exit 2), refused before anything is printed; a deck
    // that does not follow the pattern is an answer (exit 1).
    if let Some(text) = deal {
        read_deal(text, v)?;
    }
    let plan = match Plan::new(v) {
        Ok(plan) => plan,
        Err(PlanError::NotApplicable(why)) if deal.is_some() || given(labelling) => {
            let flag = if deal.is_some() { "--deal" } else { "--substitution" };
            bail!("{flag} reads a labelling of Spivey's pattern, and V={v} has none: {why}")
        }
        Err(PlanError::NotApplicable(why)) => {
            println!("V:             {v}");
            println!("construction:  does not apply");
            println!("why:           {why}");
            return Ok(ExitCode::SUCCESS);
        }
        Err(e) => bail!("{e}"),
    };
    let (m, k) = (plan.odd(), plan.doublings());
    let steps = if k == 1 { "step" } else { "steps" };
    println!(
        "V:             {v} = {m}·2^{k}: m = {m} odd and at least 5, k = {k} insertion {steps}"
    );
    let mut pattern = Pattern::two_categories(m);
    let n = m / 4;
    let how = if m % 4 == 1 {
        format!("{m} = 4·{n} + 1: first player {n} × [A, B], second {n} × [B, A] then B")
    } else {
        format!("{m} = 4·{n} + 3: first player {n} × [A, B], second {} × [B, A] then B", n + 1)
    };
    println!("A/B pattern:   {pattern}   ({how})");
    for step in 1..=k {
        pattern = pattern.inserted();
        let new = letter(pattern.categories() - 1);
        println!(
            "insertion {step}:   {pattern}   (behind each card the next weaker category, {new} new)"
        );
    }
    let ranges: Vec<String> = pattern
        .ranges()
        .iter()
        .enumerate()
        .map(|(c, r)| format!("{} = {}..{} ({} cards)", letter(c), r.start(), r.end(), r.len()))
        .collect();
    println!("categories:    {}", ranges.join(", "));
    let construction = match deal {
        Some(text) => {
            let deal = read_deal(text, v)?;
            match pattern.read(&deal) {
                Ok(substitution) => {
                    println!("labelling:     read from the deal: it follows the pattern");
                    Construction { plan, pattern, substitution, deal }
                }
                Err(why) => {
                    println!("labelling:     the deal {deal} does not follow the pattern: {why}");
                    return Ok(ExitCode::from(crate::EXIT_FINDING));
                }
            }
        }
        None => {
            let c = spivey::construct(v, labelling)?;
            println!("labelling:     {}", labelling_name(labelling));
            c
        }
    };
    println!("substitution:  {}", construction.substitution);
    println!("deal:          {}", construction.deal);
    let d = &construction.deal;
    let shape = if d.is_deal() { "the deal split" } else { "not the deal split: a position" };
    println!("shape:         {} / {} cards ({shape})", d.first().len(), d.second().len());
    let Some(category) = construction.pattern.category_loop() else {
        println!("category loop: NONE: two cards of a category met (the construction is broken)");
        return Ok(ExitCode::from(crate::EXIT_FINDING));
    };
    println!(
        "category loop: {} tricks (2^{}), no two cards of a category ever meet",
        category.period_tricks,
        k + 1
    );
    let predicted = construction.predicted_period();
    println!(
        "predicted:     period {} tricks = {} × {} (the order of the permutation of card slots \
         after one category loop; the same for every labelling)",
        predicted.tricks(),
        predicted.category_tricks,
        predicted.order
    );
    println!("method:        natural (the same as optimized with one colour)");
    if predict_only {
        return Ok(ExitCode::SUCCESS);
    }
    let r = construction.play();
    match r.outcome {
        Outcome::Cycle(c) => {
            let agrees = u128::from(c.period_tricks) == predicted.tricks();
            println!("engine:        infinite game (loop)");
            println!("tail:          {} tricks, {} cards per player", c.tail_tricks, c.tail_cards);
            println!(
                "period:        {} tricks, {} cards per player ({})",
                c.period_tricks,
                c.period_cards,
                if agrees { "as predicted" } else { "NOT as predicted" }
            );
            println!("cycle id:      {}", c.id);
            Ok(if agrees { ExitCode::SUCCESS } else { ExitCode::from(crate::EXIT_FINDING) })
        }
        o => {
            println!("engine:        NO LOOP: {} after {} tricks", o.name(), r.tricks);
            Ok(ExitCode::from(crate::EXIT_FINDING))
        }
    }
}

/// Whether the labelling is an explicit `--substitution`.
fn given(l: &Labelling) -> bool {
    matches!(l, Labelling::Given(_))
}

fn labelling_name(l: &Labelling) -> String {
    match l {
        Labelling::Descending => {
            "descending (reading order, each category from its highest value)".into()
        }
        Labelling::Ascending => {
            "ascending (reading order, each category from its lowest value)".into()
        }
        Labelling::Random { seed } => format!("random, seed {seed}"),
        Labelling::Given(_) => "given by --substitution".into(),
    }
}

fn spivey_table(values: &[usize], labelling: &Labelling, predict_only: bool) -> Result<ExitCode> {
    println!(
        "v,m,k,status,first,second,category_tricks,predicted_period,tail_tricks,period_tricks,deal"
    );
    let mut bad = false;
    for &v in values {
        let (m, k) = (v >> v.trailing_zeros(), v.trailing_zeros());
        let c = match spivey::construct(v, labelling) {
            Ok(c) => c,
            Err(spivey::SpiveyError::Plan(PlanError::NotApplicable(_))) => {
                println!("{v},{m},{k},not-applicable,,,,,,,");
                continue;
            }
            Err(e) => bail!("{e}"),
        };
        let p = c.predicted_period();
        let (status, tail, period) = if predict_only {
            ("predicted", String::new(), String::new())
        } else {
            match c.play().outcome {
                Outcome::Cycle(cy) if u128::from(cy.period_tricks) == p.tricks() => {
                    ("loop", cy.tail_tricks.to_string(), cy.period_tricks.to_string())
                }
                Outcome::Cycle(cy) => {
                    bad = true;
                    (
                        "loop-not-as-predicted",
                        cy.tail_tricks.to_string(),
                        cy.period_tricks.to_string(),
                    )
                }
                _ => {
                    bad = true;
                    ("no-loop", String::new(), String::new())
                }
            }
        };
        println!(
            "{v},{m},{k},{status},{},{},{},{},{tail},{period},\"{}\"",
            c.deal.first().len(),
            c.deal.second().len(),
            p.category_tricks,
            p.tricks(),
            c.deal.compact()
        );
    }
    Ok(if bad { ExitCode::from(crate::EXIT_FINDING) } else { ExitCode::SUCCESS })
}

// ---------------------------------------------------------------------------------------------
// lakshtanov

fn run_lakshtanov() -> Result<ExitCode> {
    let deal: Position = lakshtanov::DEAL.parse().expect("a valid deal");
    let spec = deal.infer_deck()?;
    println!("deal:      {deal}");
    println!("deck:      {spec}, {} / {} cards", deal.first().len(), deal.second().len());
    println!(
        "rule:      first-player-first for both players (Lakshtanov: the first player's card is \
         always stacked before the second's; in a battle the engine takes the pairs last reveal \
         first)"
    );
    let b = lakshtanov::battles(&deal, lakshtanov::METHODS);
    let Outcome::Cycle(c) = b.result.outcome else {
        println!(
            "outcome:   NO LOOP: {} after {} tricks",
            b.result.outcome.name(),
            b.result.tricks
        );
        return Ok(ExitCode::from(crate::EXIT_FINDING));
    };
    let p = b.period.expect("a loop");
    println!("outcome:   infinite game (loop)");
    println!(
        "tail:      {} tricks, {} cards per player, {} battles",
        c.tail_tricks, c.tail_cards, b.tail.battles
    );
    println!(
        "period:    {} tricks, {} cards per player, {} battles",
        c.period_tricks, c.period_cards, p.battles
    );
    println!("cycle id:  {}", c.id);
    if b.tail.battles + p.battles == 0 {
        println!(
            "battles:   none, before or on the loop: the order of the pairs of a battle, which \
             Lakshtanov's rule leaves open, plays no part in this game"
        );
    } else {
        println!(
            "battles:   {} tricks with a battle (up to {} reveals): this loop depends on the order \
             of the pairs of a battle, which Lakshtanov's rule leaves open",
            b.tail.battles + p.battles,
            b.tail.longest.max(p.longest)
        );
    }
    match engine_aligned::check(&deal, lakshtanov::METHODS) {
        Ok(a) => println!("aligned:   yes, {}", a.summary()),
        Err(why) => println!("aligned:   no: {why}"),
    }
    Ok(ExitCode::SUCCESS)
}

// ---------------------------------------------------------------------------------------------
// aligned (even V)

fn run_even(args: EvenArgs) -> Result<ExitCode> {
    let values = parse_values(&args.values)?;
    // Every deck checked before the first is built: C=4, V from 1 to 64 (256 cards).
    for &v in &values {
        bataille_engine::DeckSpec::new(4, v)
            .with_context(|| format!("cannot build the aligned deck C=4 V={v}"))?;
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
    let natural = Methods::both(Method::Natural);
    if let [v] = values[..] {
        if split.is_none() && aligned::decompositions(v).is_empty() {
            println!("V:            {v}");
            println!("construction: does not apply");
            println!("why:          {}", aligned::EvenError::NotEven(v));
            return Ok(ExitCode::SUCCESS);
        }
        if !args.all {
            let parts = aligned::even_deck(v, split)?;
            let a = parts.iter().filter(|p| p.cards() == 16).count();
            println!(
                "parts:     {a} × the V=4 aligned cycle, then {} × the V=6 one (box 4)",
                parts.len() - a
            );
            return crate::extension::report_extension(&parts, natural);
        }
    }
    println!("v,a,b,cards,status,tail_tricks,period_tricks,round_cards,period_rounds,deal");
    let mut bad = false;
    for &v in &values {
        let splits = match split {
            Some(s) => vec![s],
            None if args.all => aligned::decompositions(v),
            None => aligned::decompositions(v).into_iter().take(1).collect(),
        };
        if splits.is_empty() {
            println!("{v},,,,not-applicable,,,,,");
            continue;
        }
        for s in splits {
            let parts = aligned::even_deck(v, Some(s))?;
            let e = aligned::extend(&parts, natural)?;
            let (tail, period) = match e.result.outcome {
                Outcome::Cycle(c) => (c.tail_tricks.to_string(), c.period_tricks.to_string()),
                _ => (String::new(), String::new()),
            };
            let (round, rounds) = match &e.aligned {
                Ok(al) => (al.half.to_string(), al.period_rounds.to_string()),
                Err(_) => (String::new(), String::new()),
            };
            let ok = crate::extension::extension_ok(&e);
            bad |= !ok;
            println!(
                "{v},{},{},{},{},{tail},{period},{round},{rounds},\"{}\"",
                s.0,
                s.1,
                e.spec.cards(),
                if ok { "aligned-loop" } else { "failed" },
                e.deal.compact()
            );
        }
    }
    Ok(if bad { ExitCode::from(crate::EXIT_FINDING) } else { ExitCode::SUCCESS })
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
        print_census(&census, &stats, seconds);
        if args.brute_force {
            let start = Instant::now();
            let b = positions::brute_force(v)?;
            let seconds = start.elapsed().as_secs_f64();
            if b == census {
                println!("brute force:   the same census, every position played ({seconds:.2} s)");
            } else {
                println!("brute force:   DIFFERENT: {b:?}");
                code = ExitCode::from(crate::EXIT_FINDING);
            }
        }
        censuses.push(census);
    }
    if let Some(path) = &args.csv {
        crate::output::write_atomic(path, &census_csv(&censuses)?)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(code)
}

/// The census CSV: `values,period_tricks,loops,example_position`, one row per V and period
/// (increasing), `loops` the number of distinct loops of that period and `example_position` a
/// position on the first of them (the one holding the smallest rank); a V without loops has one
/// row with an empty period, 0 loops and no example.
fn census_csv(censuses: &[Census]) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(["values", "period_tricks", "loops", "example_position"])?;
    for c in censuses {
        let v = c.values.to_string();
        if c.loops.is_empty() {
            w.write_record([v.as_str(), "", "0", ""])?;
            continue;
        }
        // Loops come by increasing smallest rank: the first of each period is its example.
        let mut periods: std::collections::BTreeMap<u64, (u64, u64)> = Default::default();
        for l in &c.loops {
            periods.entry(l.period).or_insert((0, l.smallest)).0 += 1;
        }
        for (period, (loops, smallest)) in periods {
            let example = positions::unrank(c.values, smallest).to_string();
            w.write_record([v.as_str(), &period.to_string(), &loops.to_string(), &example])?;
        }
    }
    Ok(w.into_inner()?)
}

fn print_census(c: &Census, stats: &WalkStats, seconds: f64) {
    let v = c.values;
    let deals = c.positions / (v as u64 + 1);
    println!("deck:          C=1 V={v}, natural stacking (the same as optimized with one colour)");
    println!(
        "positions:     {} ({v}!·{}: every split, each hand in any order)",
        c.positions,
        v + 1
    );
    println!("deals:         {deals} (first hand {} cards)", v / 2);
    println!("on a loop:     {} positions, {} deals", c.on_loop, c.deals_on_loop);
    println!(
        "into a loop:   {} positions, {} deals (on a loop or leading to one)",
        c.into_loop, c.deals_into_loop
    );
    if c.loops.is_empty() {
        println!("loops:         none: every position ends");
    } else {
        let mut periods: Vec<u64> = c.loops.iter().map(|l| l.period).collect();
        periods.sort_unstable();
        periods.dedup();
        println!("loops:         {} (periods {:?} tricks)", c.loops.len(), periods);
        for l in c.loops.iter().take(10) {
            println!("               {:>6} tricks  {}", l.period, positions::unrank(v, l.smallest));
        }
        if c.loops.len() > 10 {
            println!("               ... and {} more", c.loops.len() - 10);
        }
    }
    println!(
        "walks:         {} (longest {} positions), bitmap {:.1} MB",
        stats.walks,
        stats.longest,
        stats.bitmap_bytes as f64 / 1e6
    );
    println!("time:          {seconds:.2} s (one core)");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_lists() {
        assert_eq!(parse_values("18").unwrap(), vec![18]);
        assert_eq!(parse_values("5..8").unwrap(), vec![5, 6, 7, 8]);
        assert_eq!(parse_values("5..=7,3, 5").unwrap(), vec![5, 6, 7, 3]);
        for (bad, needle) in [("x", "\"x\" is not"), ("5..", "\"\" is not"), ("8..5", "is empty")] {
            let e = parse_values(bad).unwrap_err().to_string();
            assert!(e.contains(needle), "{bad}: {e}");
        }
    }
}
