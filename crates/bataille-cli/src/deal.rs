//! Reading a deal given on the command line (`play`, `aligned`): the engine's
//! [`read_deal`], with the flag that plays any cards named when the cards form no whole deck.

use anyhow::{Result, anyhow};
use bataille_engine::deal::{DealError, DeckOf, read_deal};
use bataille_engine::{DeckSpec, Position};

/// Parses a deal and checks it against the deck: inferred, or given by `colours`/`values`, or
/// any cards up to V when `partial`.
pub(crate) fn parse_deal(
    text: &str,
    colours: Option<usize>,
    values: Option<usize>,
    partial: bool,
) -> Result<(Position, Option<DeckSpec>)> {
    read_deal(text, &DeckOf { colours, values, partial }).map_err(|e| match e {
        DealError::NotWhole(e) => {
            anyhow!("the deal is not a whole deck (`bataille play --partial` plays any cards): {e}")
        }
        e => anyhow!(e),
    })
}
