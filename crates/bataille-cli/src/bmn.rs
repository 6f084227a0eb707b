//! `bataille bmn`: beggar-my-neighbour (bataille anglaise): `play` one game, `verify` the
//! published games.
//!
//! The raw clap structures are here with the code; the validated configuration
//! ([`PlayConfig`]) is what the library sees.

use std::io::{BufWriter, ErrorKind, Write};
use std::process::ExitCode;

use anyhow::{Result, bail};
use bataille_bmn::published::{STATUSES, checks};
use bataille_bmn::report::{write_summary, write_trace};
use bataille_bmn::{DeckSpec, Hands, Limits, Scratch, parse_deal, play_hands};
use clap::{Args, Subcommand};

use crate::args::{RunArgs, max_tricks};
use crate::search::{RunConfig, run_search};

/// Flags of `bataille bmn`.
#[derive(Debug, Args)]
pub(crate) struct BmnArgs {
    #[command(subcommand)]
    command: BmnCommand,
}

#[derive(Debug, Subcommand)]
enum BmnCommand {
    /// Play one game from two hands and report its outcome, or its loop.
    Play(PlayArgs),
    /// Replay Casella et al.'s non-terminating game, the article's printing of it (box 1) and
    /// the record games; compare with the published figures.
    Verify(VerifyArgs),
    /// Explore deals (every one, or N seeded random ones) on all cores: outcomes, lengths,
    /// records and loops, as CSV files (the same flags and files as `bataille explore`).
    Explore(ExploreArgs),
}

/// Flags of `bataille bmn explore`.
#[derive(Debug, Args)]
struct ExploreArgs {
    /// The deck: standard (52 cards) or italian (40 cards, no aces).
    #[arg(long, value_name = "NAME", conflicts_with = "counts")]
    deck: Option<String>,
    /// Any deck, as the counts NUMERALS,J,Q,K,A; at most 255 cards.
    #[arg(long, value_name = "N,J,Q,K,A")]
    counts: Option<String>,
    /// Stop each game after this many tricks (default: none; Brent's algorithm ends every
    /// game).
    #[arg(long, value_name = "N")]
    max_tricks: Option<u64>,
    #[command(flatten)]
    run: RunArgs,
}

/// Flags of `bataille bmn play`.
#[derive(Debug, Args)]
struct PlayArgs {
    /// The first hand (it leads), top card first: `-` for a numeral, J, Q, K, A for the
    /// penalty cards (1 to 4 cards to pay), e.g. `---K---Q-KQAJ-----AAJ--J--`. Digits 0-4 and
    /// the article's `[0, 0, 3, ...]` are read too; `FIRST/SECOND` in one argument as well.
    #[arg(allow_hyphen_values = true, value_name = "HAND1")]
    first: String,
    /// The second hand, same notation. A hand of exactly two numerals, `--`, reads as the end
    /// of the options: write it `00`, or put `--` before the hands.
    #[arg(allow_hyphen_values = true, value_name = "HAND2")]
    second: Option<String>,
    /// Print every trick: the leader, the pile in the order played, the taker, the hands.
    #[arg(long)]
    trace: bool,
    /// The deck the hands must form: standard (52 cards: 36 numerals and 4 each of J, Q, K,
    /// A) or italian (40 cards: 28 numerals and 4 each of J, Q, K, no aces).
    #[arg(long, value_name = "NAME", conflicts_with = "counts")]
    deck: Option<String>,
    /// Any deck, as the counts NUMERALS,J,Q,K,A (e.g. 72,8,8,8,8 for two decks); at most
    /// 255 cards.
    #[arg(long, value_name = "N,J,Q,K,A")]
    counts: Option<String>,
    /// Play hands that do not form a whole deck (e.g. the article's misprinted ones).
    #[arg(long, conflicts_with_all = ["deck", "counts"])]
    partial: bool,
    /// Stop after this many tricks.
    #[arg(long, value_name = "N")]
    max_tricks: Option<u64>,
}

/// Flags of `bataille bmn verify`.
#[derive(Debug, Args)]
struct VerifyArgs {
    #[command(flatten)]
    format: crate::args::FormatArgs,
}

pub(crate) fn run(args: BmnArgs) -> Result<ExitCode> {
    match args.command {
        BmnCommand::Play(a) => play(PlayConfig::new(a)?),
        BmnCommand::Verify(a) => verify(&a),
        BmnCommand::Explore(a) => explore(&a),
    }
}

fn explore(a: &ExploreArgs) -> Result<ExitCode> {
    let spec = match (&a.deck, &a.counts) {
        (Some(name), _) => DeckSpec::preset(name)?,
        (None, Some(counts)) => DeckSpec::parse_counts(counts)?,
        (None, None) => DeckSpec::STANDARD,
    };
    let limits = match max_tricks(a.max_tricks)? {
        Some(max) => Limits { max_tricks: max },
        None => Limits::NONE,
    };
    let game = bataille_search::bmn::Bmn::new(spec, limits);
    run_search(&game, &RunConfig::new(&game, &a.run, 0)?, None)
}

/// What `bmn play` was asked to do, validated.
struct PlayConfig {
    hands: Hands,
    /// The deck the hands were checked against (`None` with `--partial`).
    deck: Option<DeckSpec>,
    trace: bool,
    limits: Limits,
}

impl PlayConfig {
    fn new(a: PlayArgs) -> Result<PlayConfig> {
        let hands = match &a.second {
            Some(second) => Hands::parse(&a.first, second).map_err(|e| {
                // `--` ends the options: what follows it is read as a hand.
                if second.starts_with("--") && second.chars().any(|c| c.is_ascii_lowercase()) {
                    anyhow::anyhow!("{e} (options go before a `--` separator, not after it)")
                } else {
                    e.into()
                }
            })?,
            None if a.first.contains('/') => parse_deal(&a.first)?,
            None => bail!(
                "expected two hands (HAND1 HAND2, or HAND1/HAND2 in one argument), got only \
                 {}; a hand of exactly two numerals, `--`, is read as the end of the options: \
                 write it `00`, or put `--` before the hands",
                crate::checks::shown(&a.first)
            ),
        };
        if hands.cards() == 0 {
            bail!("both hands are empty: there is no game to play");
        }
        let deck = if a.partial {
            None
        } else {
            let spec = match (&a.deck, &a.counts) {
                (Some(name), _) => DeckSpec::preset(name)?,
                (None, Some(counts)) => DeckSpec::parse_counts(counts)?,
                (None, None) => DeckSpec::STANDARD,
            };
            if let Err(e) = hands.check_deck(spec) {
                bail!("{e} (use --deck or --counts for another deck, --partial for any cards)");
            }
            Some(spec)
        };
        let limits = Limits { max_tricks: max_tricks(a.max_tricks)?.unwrap_or(u64::MAX) };
        Ok(PlayConfig { hands, deck, trace: a.trace, limits })
    }
}

fn play(config: PlayConfig) -> Result<ExitCode> {
    let h = &config.hands;
    let mut scratch = Box::<Scratch>::default();
    let r = play_hands(h.first(), h.second(), config.limits, &mut scratch);
    let mut out = BufWriter::new(std::io::stdout().lock());
    let written = (|| {
        if config.trace {
            write_trace(&mut out, h, &r)?;
        }
        write_summary(&mut out, h, config.deck, &r)?;
        out.flush()
    })();
    match written {
        // A reader that stops early (`| head`) is not an error.
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        other => {
            other?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn verify(a: &VerifyArgs) -> Result<ExitCode> {
    let failed = crate::claims::print_claims(&checks(), a.format.format(), STATUSES);
    Ok(crate::claims::exit_code(failed))
}
