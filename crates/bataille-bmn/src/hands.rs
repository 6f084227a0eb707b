//! Two hands: their notation, parsing and validation against a deck.
//!
//! A hand is written top card first, one character a card: `-` for a numeral, `J`, `Q`, `K`,
//! `A` for the penalty cards (`---K---Q-KQAJ-----AAJ--J--`). Digits `0` to `4` are read as
//! the penalty they stand for, and a bracketed list of digits (`[0, 0, 0, 3, ...]`, the
//! article's notation) is read too.

use std::fmt;

use thiserror::Error;

use crate::deck::{Card, DeckSpec, MAX_CARDS, MAX_PENALTY, card_char, card_name, quoted};

/// Which of the two players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// The player whose hand is written first; he leads the first trick.
    First,
    /// The player whose hand is written second.
    Second,
}

impl Player {
    /// Both players, first first.
    pub const BOTH: [Player; 2] = [Player::First, Player::Second];

    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// 0 for the first player, 1 for the second.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The player of index 0 or 1 (any odd index is the second).
    pub fn from_index(i: usize) -> Player {
        if i & 1 == 0 { Player::First } else { Player::Second }
    }

    /// `first` or `second`.
    pub fn name(self) -> &'static str {
        match self {
            Player::First => "first",
            Player::Second => "second",
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why hands could not be read, or do not form the expected deck.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HandsError {
    /// A character that is not a card.
    #[error(
        "the {player} hand {} has {} at position {position}: expected - (numeral), J, Q, K, A, \
         or a penalty digit 0 to 4",
        quoted(.text),
        quoted(.found)
    )]
    BadCard {
        /// Whose hand.
        player: Player,
        /// The hand as given.
        text: String,
        /// 1-based position of the character (in characters).
        position: usize,
        /// The offending character or list item.
        found: String,
    },
    /// A deal written as one text without exactly one `/` between the hands.
    #[error("expected two hands separated by one '/', as in `--K-/J-A-`, got {}", quoted(.0))]
    Separator(String),
    /// A bracketed list that does not close.
    #[error("the {player} hand {} opens a '[' list that does not close with ']'", quoted(.text))]
    Brackets {
        /// Whose hand.
        player: Player,
        /// The hand as given.
        text: String,
    },
    /// More cards than the engine supports.
    #[error("the hands hold {0} cards, more than the engine supports (at most {MAX_CARDS})")]
    TooLarge(usize),
    /// The cards are not the deck: the message says which counts differ.
    #[error("the hands are not a legal deck of {spec}: {details}")]
    WrongDeck {
        /// The deck they were checked against.
        spec: DeckSpec,
        /// What differs, e.g. `cards: 47 instead of 52; numerals: 31 instead of 36 (5 missing)`.
        details: String,
    },
}

/// Two hands, top card first. The first hand leads the first trick.
///
/// Any two hands are accepted (any split, any cards up to [`MAX_CARDS`] in all); whether they
/// form a given deck is [`Hands::check_deck`], and whether they are a *deal* (the first hand
/// holds ⌊N/2⌋ cards) is [`Hands::is_deal`].
///
/// ```
/// use bataille_bmn::{DeckSpec, Hands};
/// let h = Hands::parse("---K---Q-KQAJ-----AAJ--J--", "----------Q----KQ-J-----KA").unwrap();
/// h.check_deck(DeckSpec::STANDARD).unwrap();
/// assert!(h.is_deal());
/// assert_eq!(h.to_string(), "---K---Q-KQAJ-----AAJ--J-- / ----------Q----KQ-J-----KA");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Hands {
    hands: [Vec<Card>; 2],
}

impl Hands {
    /// Two hands of cards (penalties `0..=4`).
    pub fn new(first: Vec<Card>, second: Vec<Card>) -> Result<Hands, HandsError> {
        let n = first.len() + second.len();
        if n > MAX_CARDS {
            return Err(HandsError::TooLarge(n));
        }
        for (player, hand) in [(Player::First, &first), (Player::Second, &second)] {
            if let Some(i) = hand.iter().position(|&c| c > MAX_PENALTY) {
                return Err(HandsError::BadCard {
                    player,
                    text: format_hand(hand),
                    position: i + 1,
                    found: hand[i].to_string(),
                });
            }
        }
        Ok(Hands { hands: [first, second] })
    }

    /// Reads two hands (see the module documentation for the notation).
    pub fn parse(first: &str, second: &str) -> Result<Hands, HandsError> {
        Hands::new(parse_hand(first, Player::First)?, parse_hand(second, Player::Second)?)
    }

    /// The deal `cards` split as dealt: the first ⌊N/2⌋ cards to the first player.
    pub fn from_deal(cards: &[Card]) -> Result<Hands, HandsError> {
        let (a, b) = cards.split_at(cards.len() / 2);
        Hands::new(a.to_vec(), b.to_vec())
    }

    /// The hand of `player`, top first.
    pub fn hand(&self, player: Player) -> &[Card] {
        &self.hands[player.index()]
    }

    /// The first hand, top first.
    pub fn first(&self) -> &[Card] {
        &self.hands[0]
    }

    /// The second hand, top first.
    pub fn second(&self) -> &[Card] {
        &self.hands[1]
    }

    /// The number of cards in both hands.
    pub fn cards(&self) -> usize {
        self.hands[0].len() + self.hands[1].len()
    }

    /// How many cards of each penalty the two hands hold, numerals first.
    pub fn counts(&self) -> [usize; 5] {
        let mut counts = [0; 5];
        for &c in self.hands.iter().flatten() {
            counts[usize::from(c)] += 1;
        }
        counts
    }

    /// Whether the first hand holds ⌊N/2⌋ cards, as in a deal.
    pub fn is_deal(&self) -> bool {
        self.hands[0].len() == self.cards() / 2
    }

    /// Checks that the two hands together are exactly the deck `spec`.
    pub fn check_deck(&self, spec: DeckSpec) -> Result<(), HandsError> {
        let found = self.counts();
        let want = spec.counts();
        if found == want {
            return Ok(());
        }
        let mut parts = Vec::new();
        if self.cards() != spec.cards() {
            parts.push(format!("cards: {} instead of {}", self.cards(), spec.cards()));
        }
        for p in 0..5 {
            let (f, w) = (found[p], want[p]);
            if f != w {
                let (n, how) = if f < w { (w - f, "missing") } else { (f - w, "too many") };
                parts.push(format!("{}: {f} instead of {w} ({n} {how})", card_name(p as Card)));
            }
        }
        Err(HandsError::WrongDeck { spec, details: parts.join("; ") })
    }

    /// The deck these hands form (their counts), if it is one the engine supports.
    pub fn deck(&self) -> Option<DeckSpec> {
        DeckSpec::new(self.counts()).ok()
    }
}

impl fmt::Display for Hands {
    /// `FIRST / SECOND` in the `-JQKA` notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} / {}", format_hand(&self.hands[0]), format_hand(&self.hands[1]))
    }
}

/// A hand in the `-JQKA` notation, top first.
///
/// ```
/// assert_eq!(bataille_bmn::format_hand(&[0, 0, 3, 4, 1, 2]), "--KAJQ");
/// ```
pub fn format_hand(cards: &[Card]) -> String {
    cards.iter().map(|&c| card_char(c)).collect()
}

/// Reads one hand: `-JQKA` characters (letters in either case, digits `0`-`4` allowed), or a
/// bracketed list of penalty digits such as `[0, 0, 3, 2]`.
pub fn parse_hand(text: &str, player: Player) -> Result<Vec<Card>, HandsError> {
    let bad = |position: usize, found: &str| HandsError::BadCard {
        player,
        text: text.to_string(),
        position,
        found: found.to_string(),
    };
    let trimmed = text.trim();
    if let Some(rest) = trimmed.strip_prefix('[') {
        let inner = rest
            .strip_suffix(']')
            .ok_or_else(|| HandsError::Brackets { player, text: text.to_string() })?;
        if inner.trim().is_empty() {
            return Ok(Vec::new());
        }
        return inner
            .split(',')
            .enumerate()
            .map(|(i, item)| {
                let item = item.trim();
                match item.parse::<u8>() {
                    Ok(v) if v <= MAX_PENALTY => Ok(v),
                    _ => Err(bad(i + 1, item)),
                }
            })
            .collect();
    }
    trimmed
        .chars()
        .enumerate()
        .map(|(i, ch)| match ch.to_ascii_uppercase() {
            '-' | '0' => Ok(0),
            'J' | '1' => Ok(1),
            'Q' | '2' => Ok(2),
            'K' | '3' => Ok(3),
            'A' | '4' => Ok(4),
            _ => Err(bad(i + 1, &ch.to_string())),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notations() {
        let a = parse_hand("--kA3j0", Player::First).unwrap();
        assert_eq!(a, [0, 0, 3, 4, 3, 1, 0]);
        let b = parse_hand("[0, 0, 3, 4, 3, 1, 0]", Player::First).unwrap();
        assert_eq!(a, b);
        assert_eq!(parse_hand("[]", Player::First).unwrap(), Vec::<Card>::new());
        assert_eq!(parse_hand("", Player::First).unwrap(), Vec::<Card>::new());
    }

    #[test]
    fn errors_name_the_bad_value() {
        let e = parse_hand("--X-", Player::Second).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the second hand \"--X-\" has \"X\" at position 3: expected - (numeral), J, Q, K, A, \
             or a penalty digit 0 to 4"
        );
        let e = parse_hand("[0, 5]", Player::First).unwrap_err();
        assert!(e.to_string().contains("\"5\" at position 2"), "{e}");
        assert!(matches!(parse_hand("[0, 1", Player::First), Err(HandsError::Brackets { .. })));
        assert_eq!(Hands::new(vec![0; 200], vec![0; 56]), Err(HandsError::TooLarge(256)));
        assert!(Hands::new(vec![5], vec![0]).is_err());
    }

    #[test]
    fn deck_check_says_what_differs() {
        let h = Hands::parse("-JQKA-", "---").unwrap();
        h.check_deck(DeckSpec::new([5, 1, 1, 1, 1]).unwrap()).unwrap();
        let e = h.check_deck(DeckSpec::new([4, 1, 1, 2, 1]).unwrap()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the hands are not a legal deck of 9 cards (4 numerals, 1 J, 1 Q, 2 K, 1 A): \
             numerals: 5 instead of 4 (1 too many); kings: 1 instead of 2 (1 missing)"
        );
        assert!(!h.is_deal() && Hands::from_deal(&[0, 1, 2, 3, 4]).unwrap().is_deal());
    }
}
