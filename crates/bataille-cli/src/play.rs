//! `bataille play`: one game, its outcome and measures, optionally every position.

use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use bataille_engine::{
    Card, DeckSpec, Ending, Game, GameResult, Limits, Methods, Outcome, Position, TrickResult,
    aligned, play, play_traced,
};
use clap::Args;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::args::{AnyMethodArgs, max_tricks};
use crate::checks::shown;
use crate::deal::parse_deal;
use crate::output::tricks;

/// Flags of `bataille play`.
#[derive(Debug, Args)]
pub(crate) struct PlayArgs {
    /// The two hands, top card first: `[5, 3] / [2, 4, 1]` or `5,3/2,4,1`.
    pub(crate) deal: String,
    #[command(flatten)]
    pub(crate) methods: AnyMethodArgs,
    /// Seed of the random method.
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    /// Print every position, as the article does.
    #[arg(long)]
    pub(crate) trace: bool,
    /// Number of colours C (inferred from the deal when omitted).
    #[arg(long, short = 'c')]
    pub(crate) colours: Option<usize>,
    /// Number of values V (inferred from the deal when omitted).
    #[arg(long, short = 'v')]
    pub(crate) values: Option<usize>,
    /// Accept cards that do not form a whole deck (any cards from 1 to V; with -c C, each
    /// value at most C times).
    #[arg(long)]
    pub(crate) partial: bool,
    /// Play scripted tricks instead of a stacking method: the order in which the winner stacks
    /// the cards of each trick, tricks separated by ';' (e.g. "4,2;1,3;4,1;2,3" for the
    /// article's box 3). Every position is printed, and whether the script comes back to the
    /// start.
    #[arg(long, conflicts_with_all = ["method", "method2", "seed"])]
    pub(crate) orders: Option<String>,
    /// Stop after this many tricks (default: none for deterministic methods, 10,000,000 with a
    /// random method).
    #[arg(long)]
    pub(crate) max_tricks: Option<u64>,
}

/// What `play` was asked to do, validated.
struct PlayConfig {
    deal: Position,
    deck: Deck,
    methods: Methods,
    seed: u64,
    trace: bool,
    limits: Limits,
}

/// The deck a deal was checked against.
enum Deck {
    Whole(DeckSpec),
    Partial { values: usize },
}

pub(crate) fn run(args: PlayArgs) -> Result<ExitCode> {
    if let Some(orders) = &args.orders {
        let (deal, _) = parse_deal(&args.deal, args.colours, args.values, args.partial)?;
        return run_script(&deal, orders);
    }
    let config = PlayConfig::new(args)?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.seed);
    let result = if config.trace {
        play_traced_printed(&config, &mut rng)
    } else {
        play(&config.deal, config.methods, &mut rng, config.limits)
    };
    print_summary(&config, &result);
    Ok(ExitCode::SUCCESS)
}

impl PlayConfig {
    fn new(args: PlayArgs) -> Result<PlayConfig> {
        let methods = args.methods.methods();
        let (deal, spec) = parse_deal(&args.deal, args.colours, args.values, args.partial)?;
        let deck = match spec {
            Some(spec) => Deck::Whole(spec),
            None => Deck::Partial {
                values: args.values.unwrap_or_else(|| {
                    usize::from(
                        deal.first().iter().chain(deal.second()).copied().max().unwrap_or(0),
                    )
                }),
            },
        };
        let mut limits = Limits::default_for(methods);
        if let Some(max) = max_tricks(args.max_tricks)? {
            limits.max_tricks = max;
        }
        Ok(PlayConfig { deal, deck, methods, seed: args.seed, trace: args.trace, limits })
    }
}

/// Plays the scripted tricks of `orders` from `deal`, printing every position.
fn run_script(deal: &Position, orders: &str) -> Result<ExitCode> {
    let script: Vec<Vec<Card>> = orders
        .split(';')
        .map(|t| {
            t.split(|c: char| c == ',' || c.is_whitespace())
                .filter(|s| !s.is_empty())
                .map(|s| {
                    s.parse::<Card>()
                        .with_context(|| format!("{} is not a card in --orders", shown(s)))
                })
                .collect::<Result<Vec<Card>>>()
        })
        .collect::<Result<_>>()?;
    let mut g = Game::new(deal);
    let mut line = deal.to_string();
    for (i, order) in script.iter().enumerate() {
        if g.ending().is_some() {
            bail!(
                "the game is over after {} but --orders has {}",
                tricks(i as u64),
                tricks(script.len() as u64)
            );
        }
        let t = g
            .trick_with_order(order)
            .with_context(|| format!("scripted trick {} from {}", i + 1, g.to_position()))?;
        println!("{line} →");
        line = g.to_position().to_string();
        if let TrickResult::Ended(end) = t.result {
            println!("{line}");
            let how = match end {
                Ending::FirstWins => "the first player wins: the second has no card to turn",
                Ending::SecondWins => "the second player wins: the first has no card to turn",
                Ending::Draw => "a draw: both run out at the same reveal",
            };
            println!("the game ends during scripted trick {} ({how})", i + 1);
            return Ok(ExitCode::SUCCESS);
        }
    }
    println!("{line}");
    if g.to_position() == *deal {
        let n = script.len() as u64;
        println!("the scripted tricks come back to the start: a loop of {}", tricks(n));
    } else {
        let n = script.len() as u64;
        println!("after {} the position is not the start (scripted)", tricks(n));
    }
    Ok(ExitCode::SUCCESS)
}

/// Plays the game once, printing every position (the engine's [`play_traced`]).
fn play_traced_printed(config: &PlayConfig, rng: &mut Xoshiro256PlusPlus) -> GameResult {
    let mut line: Option<String> = None;
    let result = play_traced(&config.deal, config.methods, rng, config.limits, |g| {
        if let Some(previous) = line.replace(g.to_position().to_string()) {
            println!("{previous} →");
        }
    });
    if let Some(last) = line {
        println!("{last}");
    }
    result
}

fn print_summary(config: &PlayConfig, result: &GameResult) {
    let deal = &config.deal;
    let split = format!("{} / {} cards", deal.first().len(), deal.second().len());
    let shape = if deal.is_deal() { "a deal" } else { "a position (not the deal split)" };
    let deck = match config.deck {
        Deck::Whole(spec) => format!("{spec}, {} cards", spec.cards()),
        Deck::Partial { values } => format!("partial deck, values up to {values}"),
    };
    println!("deal:      {deal}");
    println!("shape:     {shape}, {split}; {deck}");
    println!("methods:   {} (first) / {} (second)", config.methods.first, config.methods.second);
    if !config.methods.is_deterministic() {
        println!("seed:      {}", config.seed);
    }
    match result.outcome {
        Outcome::FirstWins => println!("outcome:   the first player wins"),
        Outcome::SecondWins => println!("outcome:   the second player wins"),
        Outcome::Draw => println!("outcome:   draw (both run out together)"),
        Outcome::Capped => println!("outcome:   stopped at the cap of {}", tricks(result.tricks)),
        Outcome::Cycle(c) => {
            println!("outcome:   infinite game (loop)");
            println!("tail:      {} tricks, {} cards per player", c.tail_tricks, c.tail_cards);
            println!("period:    {} tricks, {} cards per player", c.period_tricks, c.period_cards);
            println!("cycle id:  {}", c.id);
        }
    }
    let until = if matches!(result.outcome, Outcome::Cycle(_)) {
        " until the first repeated position"
    } else {
        ""
    };
    println!("tricks:    {}{until}", result.tricks);
    println!("cards:     {} per player{until}", result.cards);
    if let Outcome::Cycle(_) = result.outcome
        && deal.first().len() == deal.second().len()
    {
        match aligned::check(deal, config.methods) {
            Ok(a) => println!("aligned:   yes, {}", a.summary()),
            Err(why) => println!("aligned:   no: {why}"),
        }
    }
}
