//! `bataille aligned`: aligned cycles (the article's box 4): check one, repeat one, combine
//! several. Exit 0 when the deal asked about is (or the one built is) a verified aligned loop,
//! 1 when it is not, 2 on bad input.

use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use bataille_engine::{
    Limits, Methods, NoRandom, Outcome, Position,
    aligned::{Aligned, check},
    play,
};
use clap::{Args, Subcommand};

mod blocks;
mod solve;

use crate::args::MethodArgs;
use crate::deal::parse_deal;
use crate::extension::{ending, report_extension};
use crate::output::tricks;

/// Flags of `bataille aligned`.
#[derive(Debug, Args)]
pub(crate) struct AlignedArgs {
    #[command(subcommand)]
    command: AlignedCommand,
}

#[derive(Debug, Subcommand)]
enum AlignedCommand {
    /// Is DEAL an aligned cycle? Two hands of n cards such that, each time both players have
    /// turned n more cards, a trick has just ended and the hands are again n and n, round after
    /// round around the loop. Prints every round.
    Check {
        /// The two hands, top card first: `[2, 1, 4, 4, 2, 1, 3, 3] / [4, 2, 4, 1, 3, 2, 3, 1]`.
        deal: String,
        #[command(flatten)]
        methods: MethodArgs,
    },
    /// K copies of DEAL laid end to end, each copy's values shifted above the previous ones
    /// (box 4): an aligned cycle gives one K times longer. Prints the deal and checks it.
    Repeat {
        /// The deal to repeat.
        deal: String,
        /// How many copies.
        #[arg(long, short = 'k')]
        times: usize,
        #[command(flatten)]
        methods: MethodArgs,
    },
    /// The DEALs laid end to end, each one's values shifted by the total V of those before it
    /// (they must have the same C). Aligned cycles combine into an aligned cycle whose loop of
    /// rounds is the lcm of theirs. Prints the deal and checks it.
    Combine {
        /// The deals, in order (the first keeps its values).
        #[arg(required = true)]
        deals: Vec<String>,
        #[command(flatten)]
        methods: MethodArgs,
    },
    /// Every aligned cycle of natural bataille on 2n cards: every multiset of values 1..k used
    /// at most --max-multiplicity times each, dealt n/n (a block). Writes the catalogue (CSV),
    /// one row per loop of tricks.
    Blocks(blocks::BlocksArgs),
    /// Decks built from the blocks catalogue: an exact cover of the C·V deck by prime blocks
    /// with order-preserving maps of their values, laid end to end; each deal is played by the
    /// engine (loop, aligned, period).
    Cover(blocks::CoverArgs),
    /// Every aligned cycle of 2n cards with a period of R rounds, on any multiset with each
    /// value used at most --max-mult times, found by a SAT solver (CaDiCaL) and replayed by
    /// the engine; the rest proved absent by an LRAT proof that is checked.
    Solve(solve::SolveArgs),
}

pub(crate) fn run(args: AlignedArgs) -> Result<ExitCode> {
    match args.command {
        AlignedCommand::Check { deal, methods } => {
            let methods = methods.deterministic("aligned cycles are defined for")?;
            let (deal, _) = parse_deal(&deal, None, None, false)?;
            run_check(&deal, methods)
        }
        AlignedCommand::Repeat { deal, times, methods } => {
            let methods = methods.deterministic("aligned cycles are defined for")?;
            if times == 0 {
                bail!("--times must be at least 1, got 0");
            }
            let (deal, spec) = parse_deal(&deal, None, None, false)?;
            let spec = spec.context("internal error: a whole deck has a deck")?;
            // Checked before the copies are made: the result must be a deck the engine plays.
            let most = (bataille_engine::MAX_VALUE / spec.values())
                .min(bataille_engine::MAX_CARDS / spec.cards().max(1));
            if times > most {
                bail!(
                    "--times {times} is too many: {times} copies of a C={} V={} deal make more \
                     than {} values or {} cards (at most --times {most} for this deal)",
                    spec.colours(),
                    spec.values(),
                    bataille_engine::MAX_VALUE,
                    bataille_engine::MAX_CARDS
                );
            }
            report_extension(&vec![deal; times], methods)
        }
        AlignedCommand::Blocks(args) => blocks::run(args),
        AlignedCommand::Cover(args) => blocks::run_cover(args),
        AlignedCommand::Solve(args) => solve::run(args),
        AlignedCommand::Combine { deals, methods } => {
            let methods = methods.deterministic("aligned cycles are defined for")?;
            let deals = deals
                .iter()
                .map(|d| parse_deal(d, None, None, false).map(|x| x.0))
                .collect::<Result<Vec<_>>>()?;
            report_extension(&deals, methods)
        }
    }
}

fn run_check(deal: &Position, methods: Methods) -> Result<ExitCode> {
    println!("deal:      {deal}");
    println!("methods:   {methods}");
    let r = play(deal, methods, &mut NoRandom, Limits::DETERMINISTIC);
    match r.outcome {
        Outcome::Cycle(c) => println!(
            "outcome:   infinite game (loop): tail {} tricks, period {} tricks, {} cards per player",
            c.tail_tricks, c.period_tricks, c.period_cards
        ),
        o => println!("outcome:   {} after {} (no loop)", ending(o), tricks(r.tricks)),
    }
    match check(deal, methods) {
        Ok(a) => {
            println!("aligned:   yes: rounds of {} cards per player", a.half);
            print_rounds(&a);
            println!("tail:      {} rounds", a.tail_rounds);
            println!("period:    {} rounds, {} tricks", a.period_rounds, a.period_tricks());
            Ok(ExitCode::SUCCESS)
        }
        Err(why) => {
            println!("aligned:   no: {why}");
            Ok(ExitCode::from(crate::EXIT_FINDING))
        }
    }
}

fn print_rounds(a: &Aligned) {
    println!("round  tricks  position at the round's end");
    for (i, r) in a.rounds.iter().enumerate() {
        let mark = match (i + 1 == a.rounds.len(), a.tail_rounds) {
            (false, _) => String::new(),
            (true, 0) => "   (the deal again: loop)".to_string(),
            (true, t) => format!("   (the end of round {t} again: loop)"),
        };
        println!("{:>5}  {:>6}  {}{mark}", i + 1, r.tricks, r.end);
    }
}
