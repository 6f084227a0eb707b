//! Aligned cycles laid end to end (`aligned repeat`, `aligned combine`, `construct even`):
//! the deal built, played and checked against the prediction from its parts, printed.

use std::process::ExitCode;

use anyhow::Result;
use bataille_constructs::aligned::{self, Extension};
use bataille_engine::{Methods, Outcome, Position};

use crate::output::tricks;

/// Builds, plays and checks the concatenation of `parts`; prints everything.
pub(crate) fn report_extension(parts: &[Position], methods: Methods) -> Result<ExitCode> {
    let e = aligned::extend(parts, methods)?;
    print_extension(&e, methods);
    Ok(if e.is_aligned_loop() { ExitCode::SUCCESS } else { ExitCode::from(crate::EXIT_FINDING) })
}

fn print_extension(e: &Extension, methods: Methods) {
    println!("methods:   {methods}");
    for (i, part) in e.parts.iter().enumerate() {
        let status = match part {
            Ok(a) => format!(
                "aligned: rounds of {} cards, loop of {} rounds ({} tricks) after {}",
                a.half,
                a.period_rounds,
                a.period_tricks(),
                a.tail_rounds
            ),
            Err(why) => format!("NOT aligned: {why}"),
        };
        println!("part {:<4} {status}", i + 1);
    }
    println!("deal:      {}", e.deal);
    println!("deck:      {}, {} / {} cards", e.spec, e.deal.first().len(), e.deal.second().len());
    match e.result.outcome {
        Outcome::Cycle(c) => println!(
            "outcome:   infinite game (loop): tail {} tricks, period {} tricks, {} cards per player",
            c.tail_tricks, c.period_tricks, c.period_cards
        ),
        o => println!("outcome:   {} after {} (no loop)", ending(o), tricks(e.result.tricks)),
    }
    match &e.aligned {
        Ok(a) => println!(
            "aligned:   yes: rounds of {} cards, loop of {} rounds ({} tricks) after {}",
            a.half,
            a.period_rounds,
            a.period_tricks(),
            a.tail_rounds
        ),
        Err(why) => println!("aligned:   no: {why}"),
    }
    match (&e.predicted, &e.result.outcome) {
        (Some(p), Outcome::Cycle(c)) => println!(
            "predicted: loop of {} rounds ({} tricks) after {}, from the parts: {}",
            p.period_rounds,
            p.period_tricks,
            p.tail_rounds,
            if p.period_tricks == c.period_tricks { "as found" } else { "NOT as found" }
        ),
        (Some(p), _) => println!(
            "predicted: loop of {} rounds ({} tricks), but the engine finds no loop",
            p.period_rounds, p.period_tricks
        ),
        (None, _) => println!(
            "predicted: nothing: the construction is only guaranteed when every part is aligned"
        ),
    }
}

/// How a game that does not loop came out.
pub(crate) fn ending(o: Outcome) -> &'static str {
    match o {
        Outcome::FirstWins => "the first player wins",
        Outcome::SecondWins => "the second player wins",
        Outcome::Draw => "a draw",
        Outcome::Capped => "stopped at the cap",
        Outcome::Cycle(_) => "a loop",
    }
}
