//! The reports of `bataille construct`, rendered to text: Spivey's construction for one V
//! ([`spivey`]) or several ([`spivey_table`]), Lakshtanov's loop ([`lakshtanov`]), the aligned
//! decks of even V ([`even_table`]) and the census of C = 1 positions ([`census`],
//! [`census_csv`], [`brute_force`]). Each report comes with whether what it checks held ([`Report::ok`]); the
//! front end prints it and sets its exit code.
//!
//! ```
//! use bataille_constructs::report;
//! use bataille_constructs::spivey::Labelling;
//!
//! let r = report::spivey(9, &Labelling::Descending, None, false).unwrap();
//! assert!(r.ok);
//! assert!(r.text.contains("period:        20 tricks"));
//! let r = report::spivey(12, &Labelling::Descending, None, false).unwrap();
//! assert!(r.ok && r.text.contains("construction:  does not apply"));
//! ```

use std::collections::BTreeMap;

use bataille_engine::{Method, Methods, Outcome, Position, aligned as engine_aligned};

use crate::aligned::{self, ConcatError, EvenError};
use crate::lakshtanov;
use crate::positions::{self, Census, WalkStats};
use crate::spivey::{self, Construction, Labelling, Pattern, Plan, PlanError, SpiveyError, letter};

/// A report: its lines, every one ended, and whether what it checks held (a loop found as
/// predicted, a deal that follows the pattern).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Report {
    /// The text.
    pub text: String,
    /// Whether everything checked held.
    pub ok: bool,
}

impl Report {
    fn new() -> Report {
        Report { text: String::new(), ok: true }
    }

    /// Adds a line.
    fn line(&mut self, line: impl AsRef<str>) {
        self.text.push_str(line.as_ref());
        self.text.push('\n');
    }

    /// `self`, with `ok` false.
    fn failed(mut self) -> Report {
        self.ok = false;
        self
    }
}

/// Why an even-V table could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvenTableError {
    /// No deck for a V and a decomposition.
    #[error(transparent)]
    Even(#[from] EvenError),
    /// The parts could not be laid end to end.
    #[error(transparent)]
    Concat(#[from] ConcatError),
}

/// Spivey's construction for one V, step by step: the A/B pattern, the insertion steps, the
/// categories, the labelling (or, with `deal`, the labelling read from that deal of the C = 1
/// deck), the deal, the category loop and the predicted period, then (unless `predict_only`)
/// the engine's verdict. A V where the construction does not apply is said so (ok).
pub fn spivey(
    v: usize,
    labelling: &Labelling,
    deal: Option<&Position>,
    predict_only: bool,
) -> Result<Report, SpiveyError> {
    let mut r = Report::new();
    let plan = match Plan::new(v) {
        Ok(plan) => plan,
        Err(PlanError::NotApplicable(why)) => {
            r.line(format!("V:             {v}"));
            r.line("construction:  does not apply");
            r.line(format!("why:           {why}"));
            return Ok(r);
        }
        Err(e) => return Err(e.into()),
    };
    let (m, k) = (plan.odd(), plan.doublings());
    let steps = if k == 1 { "step" } else { "steps" };
    r.line(format!(
        "V:             {v} = {m}·2^{k}: m = {m} odd and at least 5, k = {k} insertion {steps}"
    ));
    let mut pattern = Pattern::two_categories(m);
    let n = m / 4;
    let how = if m % 4 == 1 {
        format!("{m} = 4·{n} + 1: first player {n} × [A, B], second {n} × [B, A] then B")
    } else {
        format!("{m} = 4·{n} + 3: first player {n} × [A, B], second {} × [B, A] then B", n + 1)
    };
    r.line(format!("A/B pattern:   {pattern}   ({how})"));
    for step in 1..=k {
        pattern = pattern.inserted();
        let new = letter(pattern.categories() - 1);
        r.line(format!(
            "insertion {step}:   {pattern}   (behind each card the next weaker category, {new} new)"
        ));
    }
    let ranges: Vec<String> = pattern
        .ranges()
        .iter()
        .enumerate()
        .map(|(c, r)| format!("{} = {}..{} ({} cards)", letter(c), r.start(), r.end(), r.len()))
        .collect();
    r.line(format!("categories:    {}", ranges.join(", ")));
    let construction = match deal {
        Some(deal) => match pattern.read(deal) {
            Ok(substitution) => {
                r.line("labelling:     read from the deal: it follows the pattern");
                Construction { plan, pattern, substitution, deal: deal.clone() }
            }
            Err(why) => {
                r.line(format!(
                    "labelling:     the deal {deal} does not follow the pattern: {why}"
                ));
                return Ok(r.failed());
            }
        },
        None => {
            let c = spivey::construct(v, labelling)?;
            r.line(format!("labelling:     {}", labelling_name(labelling)));
            c
        }
    };
    r.line(format!("substitution:  {}", construction.substitution));
    r.line(format!("deal:          {}", construction.deal));
    let d = &construction.deal;
    let shape = if d.is_deal() { "the deal split" } else { "not the deal split: a position" };
    r.line(format!("shape:         {} / {} cards ({shape})", d.first().len(), d.second().len()));
    let Some(category) = construction.pattern.category_loop() else {
        r.line("category loop: NONE: two cards of a category met (the construction is broken)");
        return Ok(r.failed());
    };
    r.line(format!(
        "category loop: {} tricks (2^{}), no two cards of a category ever meet",
        category.period_tricks,
        k + 1
    ));
    let predicted = construction.predicted_period();
    r.line(format!(
        "predicted:     period {} tricks = {} × {} (the order of the permutation of card slots \
         after one category loop; the same for every labelling)",
        predicted.tricks(),
        predicted.category_tricks,
        predicted.order
    ));
    r.line("method:        natural (the same as optimized with one colour)");
    if predict_only {
        return Ok(r);
    }
    let result = construction.play();
    match result.outcome {
        Outcome::Cycle(c) => {
            let agrees = u128::from(c.period_tricks) == predicted.tricks();
            r.line("engine:        infinite game (loop)");
            r.line(format!(
                "tail:          {} tricks, {} cards per player",
                c.tail_tricks, c.tail_cards
            ));
            r.line(format!(
                "period:        {} tricks, {} cards per player ({})",
                c.period_tricks,
                c.period_cards,
                if agrees { "as predicted" } else { "NOT as predicted" }
            ));
            r.line(format!("cycle id:      {}", c.id));
            Ok(if agrees { r } else { r.failed() })
        }
        o => {
            r.line(format!("engine:        NO LOOP: {} after {} tricks", o.name(), result.tricks));
            Ok(r.failed())
        }
    }
}

/// The labelling in words.
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

/// Spivey's construction for each of `values`, one CSV line each under a header: V = m·2^k,
/// whether it loops as predicted (or `not-applicable`, `predicted` when `predict_only`), the
/// hands' sizes, the periods and the deal.
pub fn spivey_table(
    values: &[usize],
    labelling: &Labelling,
    predict_only: bool,
) -> Result<Report, SpiveyError> {
    let mut r = Report::new();
    r.line(
        "v,m,k,status,first,second,category_tricks,predicted_period,tail_tricks,period_tricks,deal",
    );
    for &v in values {
        let (m, k) = (v >> v.trailing_zeros(), v.trailing_zeros());
        let c = match spivey::construct(v, labelling) {
            Ok(c) => c,
            Err(SpiveyError::Plan(PlanError::NotApplicable(_))) => {
                r.line(format!("{v},{m},{k},not-applicable,,,,,,,"));
                continue;
            }
            Err(e) => return Err(e),
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
                    r.ok = false;
                    (
                        "loop-not-as-predicted",
                        cy.tail_tricks.to_string(),
                        cy.period_tricks.to_string(),
                    )
                }
                _ => {
                    r.ok = false;
                    ("no-loop", String::new(), String::new())
                }
            }
        };
        r.line(format!(
            "{v},{m},{k},{status},{},{},{},{},{tail},{period},\"{}\"",
            c.deal.first().len(),
            c.deal.second().len(),
            p.category_tricks,
            p.tricks(),
            c.deal.compact()
        ));
    }
    Ok(r)
}

/// Lakshtanov's 52-card loop (box 3) under his rule for both players, played and checked: its
/// tail and period, its battles, and whether it is an aligned cycle.
pub fn lakshtanov() -> Report {
    let mut r = Report::new();
    let deal: Position = lakshtanov::DEAL.parse().expect("a valid deal");
    let spec = deal.infer_deck().expect("a whole deck");
    r.line(format!("deal:      {deal}"));
    r.line(format!("deck:      {spec}, {} / {} cards", deal.first().len(), deal.second().len()));
    r.line(
        "rule:      first-player-first for both players (Lakshtanov: the first player's card is \
         always stacked before the second's; in a battle the engine takes the pairs last reveal \
         first)",
    );
    let b = lakshtanov::battles(&deal, lakshtanov::METHODS);
    let Outcome::Cycle(c) = b.result.outcome else {
        r.line(format!(
            "outcome:   NO LOOP: {} after {} tricks",
            b.result.outcome.name(),
            b.result.tricks
        ));
        return r.failed();
    };
    let p = b.period.expect("a loop");
    r.line("outcome:   infinite game (loop)");
    r.line(format!(
        "tail:      {} tricks, {} cards per player, {} battles",
        c.tail_tricks, c.tail_cards, b.tail.battles
    ));
    r.line(format!(
        "period:    {} tricks, {} cards per player, {} battles",
        c.period_tricks, c.period_cards, p.battles
    ));
    r.line(format!("cycle id:  {}", c.id));
    if b.tail.battles + p.battles == 0 {
        r.line(
            "battles:   none, before or on the loop: the order of the pairs of a battle, which \
             Lakshtanov's rule leaves open, plays no part in this game",
        );
    } else {
        r.line(format!(
            "battles:   {} tricks with a battle (up to {} reveals): this loop depends on the order \
             of the pairs of a battle, which Lakshtanov's rule leaves open",
            b.tail.battles + p.battles,
            b.tail.longest.max(p.longest)
        ));
    }
    match engine_aligned::check(&deal, lakshtanov::METHODS) {
        Ok(a) => r.line(format!("aligned:   yes, {}", a.summary())),
        Err(why) => r.line(format!("aligned:   no: {why}")),
    }
    r
}

/// Why the construction does not apply to one V: V not 4a + 6b.
pub fn even_not_applicable(v: usize) -> Report {
    let mut r = Report::new();
    r.line(format!("V:            {v}"));
    r.line("construction: does not apply");
    r.line(format!("why:          {}", EvenError::NotEven(v)));
    r
}

/// The C = 4 aligned deck of each of `values` (V = 4a + 6b), built from the V = 4 and V = 6
/// aligned cycles with the decomposition `split`, or every decomposition (`all`), or the one
/// with most V = 6 parts, played (natural) and checked: one CSV line each under a header.
pub fn even_table(
    values: &[usize],
    split: Option<(usize, usize)>,
    all: bool,
) -> Result<Report, EvenTableError> {
    let natural = Methods::both(Method::Natural);
    let mut r = Report::new();
    r.line("v,a,b,cards,status,tail_tricks,period_tricks,round_cards,period_rounds,deal");
    for &v in values {
        let splits = match split {
            Some(s) => vec![s],
            None if all => aligned::decompositions(v),
            None => aligned::decompositions(v).into_iter().take(1).collect(),
        };
        if splits.is_empty() {
            r.line(format!("{v},,,,not-applicable,,,,,"));
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
            let ok = e.is_aligned_loop();
            r.ok &= ok;
            r.line(format!(
                "{v},{},{},{},{},{tail},{period},{round},{rounds},\"{}\"",
                s.0,
                s.1,
                e.spec.cards(),
                if ok { "aligned-loop" } else { "failed" },
                e.deal.compact()
            ));
        }
    }
    Ok(r)
}

/// The census of C = 1 positions of one V, in words: the positions and deals, how many lie on
/// a loop or lead into one, the loops (the first ten), the walks and the time it took
/// (`seconds`, as the caller measured it).
pub fn census(c: &Census, stats: &WalkStats, seconds: f64) -> String {
    let mut out = String::new();
    let v = c.values;
    let deals = c.positions / (v as u64 + 1);
    let mut line = |text: String| {
        out.push_str(&text);
        out.push('\n');
    };
    line(format!(
        "deck:          C=1 V={v}, natural stacking (the same as optimized with one colour)"
    ));
    line(format!(
        "positions:     {} ({v}!·{}: every split, each hand in any order)",
        c.positions,
        v + 1
    ));
    line(format!("deals:         {deals} (first hand {} cards)", v / 2));
    line(format!("on a loop:     {} positions, {} deals", c.on_loop, c.deals_on_loop));
    line(format!(
        "into a loop:   {} positions, {} deals (on a loop or leading to one)",
        c.into_loop, c.deals_into_loop
    ));
    if c.loops.is_empty() {
        line("loops:         none: every position ends".into());
    } else {
        let mut periods: Vec<u64> = c.loops.iter().map(|l| l.period).collect();
        periods.sort_unstable();
        periods.dedup();
        line(format!("loops:         {} (periods {:?} tricks)", c.loops.len(), periods));
        for l in c.loops.iter().take(10) {
            line(format!(
                "               {:>6} tricks  {}",
                l.period,
                positions::unrank(v, l.smallest)
            ));
        }
        if c.loops.len() > 10 {
            line(format!("               ... and {} more", c.loops.len() - 10));
        }
    }
    line(format!(
        "walks:         {} (longest {} positions), bitmap {:.1} MB",
        stats.walks,
        stats.longest,
        stats.bitmap_bytes as f64 / 1e6
    ));
    line(format!("time:          {seconds:.2} s (one core)"));
    out
}

/// The census `brute` made by playing every position, set against `census` (`seconds`: the
/// time it took).
pub fn brute_force(brute: &Census, census: &Census, seconds: f64) -> Report {
    let mut r = Report::new();
    if brute == census {
        r.line(format!("brute force:   the same census, every position played ({seconds:.2} s)"));
        r
    } else {
        r.line(format!("brute force:   DIFFERENT: {brute:?}"));
        r.failed()
    }
}

/// The census CSV: `values,period_tricks,loops,example_position`, one row per V and period
/// (increasing), `loops` the number of distinct loops of that period and `example_position` a
/// position on the first of them (the one holding the smallest rank); a V without loops has one
/// row with an empty period, 0 loops and no example.
pub fn census_csv(censuses: &[Census]) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut write = || -> csv::Result<()> {
        w.write_record(["values", "period_tricks", "loops", "example_position"])?;
        for c in censuses {
            let v = c.values.to_string();
            if c.loops.is_empty() {
                w.write_record([v.as_str(), "", "0", ""])?;
                continue;
            }
            // Loops come by increasing smallest rank: the first of each period is its example.
            let mut periods: BTreeMap<u64, (u64, u64)> = BTreeMap::new();
            for l in &c.loops {
                periods.entry(l.period).or_insert((0, l.smallest)).0 += 1;
            }
            for (period, (loops, smallest)) in periods {
                let example = positions::unrank(c.values, smallest).to_string();
                w.write_record([v.as_str(), &period.to_string(), &loops.to_string(), &example])?;
            }
        }
        Ok(())
    };
    write().expect("writing to memory does not fail");
    w.into_inner().expect("writing to memory does not fail")
}
