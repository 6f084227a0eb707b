//! Reading a deal given on the command line (`play`, `aligned`): the text, then the deck it
//! must form.

use anyhow::{Context, Result, bail};
use bataille_engine::{DeckSpec, Position};

/// Parses a deal and checks it against the deck: inferred, or given by `colours`/`values`, or
/// any cards up to V when `partial`.
pub(crate) fn parse_deal(
    text: &str,
    colours: Option<usize>,
    values: Option<usize>,
    partial: bool,
) -> Result<(Position, Option<DeckSpec>)> {
    let deal = Position::parse(text)
        .with_context(|| format!("cannot read the deal {}", crate::checks::shown(text)))?;
    if deal.cards() == 0 {
        bail!("both hands are empty: there is no game to play");
    }
    if partial {
        if colours == Some(0) {
            bail!("--colours must be at least 1, got 0");
        }
        if let Some(v) = values.filter(|&v| v == 0 || v > bataille_engine::MAX_VALUE) {
            bail!("--values must be 1 to {}, got {v}", bataille_engine::MAX_VALUE);
        }
        let max = deal.first().iter().chain(deal.second()).copied().max().unwrap_or(0);
        let v = values.unwrap_or(usize::from(max));
        // (With --colours, a partial deck holds each value at most C times.)
        deal.check_partial(v, colours)?;
        return Ok((deal, None));
    }
    let spec = match (colours, values) {
        (Some(c), Some(v)) => {
            let spec = DeckSpec::new(c, v)?;
            deal.check_deck(spec)?;
            spec
        }
        // One of the two given: the other follows from the number of cards, and the deal is
        // checked against that deck (not against one inferred from its cards).
        (Some(n), None) | (None, Some(n)) if n > 0 && deal.cards() % n == 0 => {
            let other = deal.cards() / n;
            let (c, v) = if colours.is_some() { (n, other) } else { (other, n) };
            let spec = DeckSpec::new(c, v)?;
            deal.check_deck(spec)?;
            spec
        }
        _ => {
            let spec = deal.infer_deck().context(
                "the deal is not a whole deck (`bataille play --partial` plays any cards)",
            )?;
            if colours.is_some_and(|c| c != spec.colours())
                || values.is_some_and(|v| v != spec.values())
            {
                bail!(
                    "the deal is a {spec} deck, not the one given by --colours/--values \
                     (C={} V={})",
                    colours.map_or("?".to_string(), |c| c.to_string()),
                    values.map_or("?".to_string(), |v| v.to_string())
                );
            }
            spec
        }
    };
    Ok((deal, Some(spec)))
}
