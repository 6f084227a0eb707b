//! Reading a deal given as text and checking it against the deck it must form: the deck
//! inferred from the cards, or given by its colours and values (one of the two is enough: the
//! other follows from the number of cards), or any cards up to V for a partial deck.
//!
//! The command line and the Python package read their deals here, so that a deal is refused
//! with the same words by both.
//!
//! ```
//! use bataille_engine::deal::{read_deal, DeckOf};
//!
//! let (deal, deck) = read_deal("[5, 3] / [2, 4, 1]", &DeckOf::default()).unwrap();
//! assert_eq!(deal.cards(), 5);
//! assert_eq!(deck.unwrap().to_string(), "C=1 V=5");
//! assert!(read_deal("[1, 1] / [2]", &DeckOf::default()).is_err());
//! ```

use std::fmt;

use crate::position::quoted;
use crate::{DeckSpec, MAX_VALUE, Position, PositionError, SpecError};

/// The deck a deal must form.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeckOf {
    /// The number of colours C, when given.
    pub colours: Option<usize>,
    /// The number of values V, when given.
    pub values: Option<usize>,
    /// Any cards from 1 to V (V given, or the largest card); with `colours`, each value at most
    /// C times.
    pub partial: bool,
}

/// Why a deal was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DealError {
    /// The text is not two hands of cards.
    Unreadable {
        /// The text as given.
        text: String,
        /// What is wrong with it.
        error: PositionError,
    },
    /// Both hands are empty.
    Empty,
    /// A partial deck with 0 colours.
    NoColours,
    /// A partial deck with 0 values or more than [`MAX_VALUE`].
    Values(usize),
    /// The colours and values given are not a deck.
    Spec(SpecError),
    /// The cards are not the deck given, or not a partial deck.
    Cards(PositionError),
    /// The cards form no whole deck (none was given).
    NotWhole(PositionError),
    /// The cards form a whole deck, but not the one given.
    OtherDeck {
        /// The deck the cards form.
        spec: DeckSpec,
        /// The colours given.
        colours: Option<usize>,
        /// The values given.
        values: Option<usize>,
    },
}

impl fmt::Display for DealError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let given = |n: Option<usize>| n.map_or("?".to_string(), |n| n.to_string());
        match self {
            DealError::Unreadable { text, error } => {
                write!(f, "cannot read the deal {}: {error}", quoted(text))
            }
            DealError::Empty => f.write_str("both hands are empty: there is no game to play"),
            DealError::NoColours => f.write_str("--colours must be at least 1, got 0"),
            DealError::Values(v) => write!(f, "--values must be 1 to {MAX_VALUE}, got {v}"),
            DealError::Spec(e) => e.fmt(f),
            DealError::Cards(e) => e.fmt(f),
            DealError::NotWhole(e) => write!(f, "the deal is not a whole deck: {e}"),
            DealError::OtherDeck { spec, colours, values } => write!(
                f,
                "the deal is a {spec} deck, not the one given by --colours/--values (C={} V={})",
                given(*colours),
                given(*values)
            ),
        }
    }
}

impl std::error::Error for DealError {}

/// Reads the deal `text` and checks it against `deck`: returns the deal and its whole deck
/// (`None` for a partial deck).
pub fn read_deal(text: &str, deck: &DeckOf) -> Result<(Position, Option<DeckSpec>), DealError> {
    let deal = Position::parse(text)
        .map_err(|error| DealError::Unreadable { text: text.to_string(), error })?;
    check_deal(deal, deck)
}

/// Checks the deal against `deck`, as [`read_deal`] does once the text is read.
pub fn check_deal(
    deal: Position,
    deck: &DeckOf,
) -> Result<(Position, Option<DeckSpec>), DealError> {
    let DeckOf { colours, values, partial } = *deck;
    if deal.cards() == 0 {
        return Err(DealError::Empty);
    }
    if partial {
        if colours == Some(0) {
            return Err(DealError::NoColours);
        }
        if let Some(v) = values.filter(|&v| v == 0 || v > MAX_VALUE) {
            return Err(DealError::Values(v));
        }
        let max = deal.first().iter().chain(deal.second()).copied().max().unwrap_or(0);
        let v = values.unwrap_or(usize::from(max));
        deal.check_partial(v, colours).map_err(DealError::Cards)?;
        return Ok((deal, None));
    }
    let spec = match (colours, values) {
        (Some(c), Some(v)) => DeckSpec::new(c, v).map_err(DealError::Spec)?,
        // One of the two given: the other follows from the number of cards, and the deal is
        // checked against that deck (not against one inferred from its cards).
        (Some(n), None) | (None, Some(n)) if n > 0 && deal.cards().is_multiple_of(n) => {
            let other = deal.cards() / n;
            let (c, v) = if colours.is_some() { (n, other) } else { (other, n) };
            DeckSpec::new(c, v).map_err(DealError::Spec)?
        }
        _ => {
            let spec = deal.infer_deck().map_err(DealError::NotWhole)?;
            if colours.is_some_and(|c| c != spec.colours())
                || values.is_some_and(|v| v != spec.values())
            {
                return Err(DealError::OtherDeck { spec, colours, values });
            }
            return Ok((deal, Some(spec)));
        }
    };
    deal.check_deck(spec).map_err(DealError::Cards)?;
    Ok((deal, Some(spec)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, colours: Option<usize>, values: Option<usize>, partial: bool) -> String {
        match read_deal(text, &DeckOf { colours, values, partial }) {
            Ok((deal, spec)) => {
                format!("{deal} {}", spec.map_or("partial".into(), |s| s.to_string()))
            }
            Err(e) => format!("error: {e}"),
        }
    }

    fn refusal(
        text: &str,
        colours: Option<usize>,
        values: Option<usize>,
        partial: bool,
    ) -> DealError {
        read_deal(text, &DeckOf { colours, values, partial }).unwrap_err()
    }

    #[test]
    fn decks_inferred_given_or_partial() {
        assert_eq!(read("5,3/2,4,1", None, None, false), "[5, 3] / [2, 4, 1] C=1 V=5");
        assert_eq!(read("1,2/2,1", Some(2), None, false), "[1, 2] / [2, 1] C=2 V=2");
        assert_eq!(read("1,2/2,1", None, Some(2), false), "[1, 2] / [2, 1] C=2 V=2");
        assert_eq!(read("1,2/2,1", Some(2), Some(2), false), "[1, 2] / [2, 1] C=2 V=2");
        assert_eq!(read("1,1/3", None, None, true), "[1, 1] / [3] partial");
        assert_eq!(read("1,1/3", None, Some(4), true), "[1, 1] / [3] partial");
    }

    #[test]
    fn refusals_say_why() {
        assert!(matches!(refusal("1,1/3", None, None, false), DealError::NotWhole(_)));
        assert!(matches!(refusal("1,1/3", Some(1), None, true), DealError::Cards(_)));
        assert!(matches!(refusal("1,2/2,1", Some(1), None, false), DealError::Cards(_)));
        assert!(matches!(refusal("1,2/2,1", Some(2), Some(3), false), DealError::Cards(_)));
        assert!(matches!(refusal("1,2/2,1", Some(0), Some(3), false), DealError::Spec(_)));
        assert!(matches!(refusal("1,2/2,1", Some(0), None, true), DealError::NoColours));
        assert!(matches!(refusal("1,2/2,1", None, Some(0), true), DealError::Values(0)));
        assert!(matches!(
            refusal("1,2/2,1", Some(3), None, false),
            DealError::OtherDeck { colours: Some(3), values: None, .. }
        ));
        assert_eq!(
            read("/", None, None, false),
            "error: both hands are empty: there is no game to play"
        );
        assert!(
            read("1,x/2", None, None, false).starts_with("error: cannot read the deal \"1,x/2\": "),
            "{}",
            read("1,x/2", None, None, false)
        );
        assert_eq!(
            read("1,2/2,1", Some(3), None, false),
            "error: the deal is a C=2 V=2 deck, not the one given by --colours/--values (C=3 V=?)"
        );
    }
}
