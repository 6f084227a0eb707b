//! Deck specifications: `C` colours and `V` values, validated once.

use std::fmt;

/// A card is its value, `1..=V` (1 is the weakest). Colours never matter in bataille.
pub type Card = u8;

/// The largest deck the engine plays: each hand is a 256-slot ring buffer.
pub const MAX_CARDS: usize = 256;
/// The largest value a card may have (cards are bytes).
pub const MAX_VALUE: usize = 255;

/// A validated deck: `colours` copies of each value `1..=values`.
///
/// Construct it with [`DeckSpec::new`]; every field is then known to be in range, so the rest of
/// the engine never checks again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DeckSpec {
    colours: u16,
    values: u16,
}

/// Why a deck specification was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpecError {
    /// `C` was 0.
    ZeroColours,
    /// `V` was 0.
    ZeroValues,
    /// `V` exceeds [`MAX_VALUE`] (cards are stored in one byte).
    TooManyValues(usize),
    /// `C·V` exceeds [`MAX_CARDS`].
    TooManyCards { colours: usize, values: usize },
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::ZeroColours => write!(f, "the number of colours must be at least 1, got 0"),
            SpecError::ZeroValues => write!(f, "the number of values must be at least 1, got 0"),
            SpecError::TooManyValues(v) => {
                write!(f, "{v} values is more than the engine supports (at most {MAX_VALUE})")
            }
            SpecError::TooManyCards { colours, values } => write!(
                f,
                "a deck of {colours} colours x {values} values = {} cards is larger than the \
                 engine supports (at most {MAX_CARDS} cards)",
                colours * values
            ),
        }
    }
}

impl std::error::Error for SpecError {}

impl DeckSpec {
    /// Validates `colours` (C) and `values` (V).
    ///
    /// ```
    /// use bataille_engine::DeckSpec;
    /// let spec = DeckSpec::new(4, 13).unwrap();
    /// assert_eq!(spec.cards(), 52);
    /// assert!(DeckSpec::new(0, 13).is_err());
    /// assert!(DeckSpec::new(4, 65).is_err());
    /// ```
    pub fn new(colours: usize, values: usize) -> Result<DeckSpec, SpecError> {
        if colours == 0 {
            return Err(SpecError::ZeroColours);
        }
        if values == 0 {
            return Err(SpecError::ZeroValues);
        }
        if values > MAX_VALUE {
            return Err(SpecError::TooManyValues(values));
        }
        if colours.saturating_mul(values) > MAX_CARDS {
            return Err(SpecError::TooManyCards { colours, values });
        }
        Ok(DeckSpec { colours: colours as u16, values: values as u16 })
    }

    /// C, the number of copies of each value.
    pub fn colours(self) -> usize {
        usize::from(self.colours)
    }

    /// V, the number of distinct values.
    pub fn values(self) -> usize {
        usize::from(self.values)
    }

    /// N = C·V.
    pub fn cards(self) -> usize {
        self.colours() * self.values()
    }

    /// Cards the first player receives in a deal: ⌊N/2⌋.
    pub fn first_hand(self) -> usize {
        self.cards() / 2
    }

    /// The whole deck sorted by value, weakest first: `[1 × C, 2 × C, ...]`.
    pub fn sorted_deck(self) -> Vec<Card> {
        (1..=self.values()).flat_map(|v| std::iter::repeat_n(v as Card, self.colours())).collect()
    }
}

impl fmt::Display for DeckSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "C={} V={}", self.colours, self.values)
    }
}
