//! Cards and decks: penalty values, their notation, and validated deck specifications.
//!
//! Only penalty cards matter in beggar-my-neighbour, so a card is its penalty: 0 for a numeral
//! (2 to 10), 1 for a jack, 2 for a queen, 3 for a king, 4 for an ace. A [`DeckSpec`] is the
//! number of cards of each penalty; the standard 52-card deck is 36 numerals and four each of
//! J, Q, K and A.

use std::fmt;

use thiserror::Error;

/// A card: its penalty, `0` (numeral) to `4` (ace).
pub type Card = u8;

/// The largest penalty a card may carry (an ace pays 4).
pub const MAX_PENALTY: Card = 4;

/// The largest deck the engine plays, in cards.
///
/// A hand is stored as a 256-slot ring of penalty cards, each with the number of numerals in
/// front of it in one byte, plus one slot for the numerals after the last penalty card: at most
/// 255 cards in all keeps every count in range.
pub const MAX_CARDS: usize = 255;

/// The letter of each penalty in hand strings: `-` numeral, then `J`, `Q`, `K`, `A`.
pub const CARD_CHARS: [char; 5] = ['-', 'J', 'Q', 'K', 'A'];

/// The names of the penalties, for messages.
const CARD_NAMES: [&str; 5] = ["numerals", "jacks", "queens", "kings", "aces"];

/// `text` quoted for an error message, cut after 80 characters (with its length) so that a
/// huge bad input does not flood the terminal: the form of `bataille_engine::position::quoted`,
/// which this crate does not depend on.
pub(crate) fn quoted(text: &str) -> String {
    match text.char_indices().nth(80) {
        None => format!("{text:?}"),
        Some((cut, _)) => format!("{:?}… ({} bytes in all)", &text[..cut], text.len()),
    }
}

/// The character of `card` in hand strings (`-JQKA`).
///
/// ```
/// assert_eq!(bataille_bmn::card_char(3), 'K');
/// ```
pub fn card_char(card: Card) -> char {
    CARD_CHARS[usize::from(card.min(MAX_PENALTY))]
}

/// The plural name of the cards of penalty `card` (`numerals`, `jacks`, ...), for messages.
pub fn card_name(card: Card) -> &'static str {
    CARD_NAMES[usize::from(card.min(MAX_PENALTY))]
}

/// How many cards of each penalty a deck holds, validated.
///
/// ```
/// use bataille_bmn::DeckSpec;
/// assert_eq!(DeckSpec::STANDARD.cards(), 52);
/// assert_eq!(DeckSpec::ITALIAN.cards(), 40);
/// let two_decks = DeckSpec::new([72, 8, 8, 8, 8]).unwrap();
/// assert_eq!(two_decks.penalty_cards(), 32);
/// assert!(DeckSpec::new([250, 4, 4, 4, 4]).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DeckSpec {
    counts: [u8; 5],
}

/// Why a deck specification was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DeckError {
    /// Fewer than two cards: there is nothing to deal.
    #[error("a deck needs at least 2 cards, got {0}")]
    TooSmall(usize),
    /// More than [`MAX_CARDS`] cards.
    #[error("a deck of {0} cards is larger than the engine supports (at most {MAX_CARDS} cards)")]
    TooLarge(usize),
    /// A named preset that does not exist.
    #[error("unknown deck {}: expected standard (52 cards) or italian (40 cards, no aces)", quoted(.0))]
    UnknownPreset(String),
    /// A `--counts` text that is not five whole numbers.
    #[error(
        "cannot read the deck counts {}: expected five whole numbers NUMERALS,J,Q,K,A such \
         as 36,4,4,4,4",
        quoted(.0)
    )]
    BadCounts(String),
}

impl DeckSpec {
    /// The standard 52-card deck: 36 numerals, 4 jacks, 4 queens, 4 kings, 4 aces.
    pub const STANDARD: DeckSpec = DeckSpec { counts: [36, 4, 4, 4, 4] };

    /// The 40-card Italian deck played without aces: 28 numerals and 4 each of J, Q, K.
    pub const ITALIAN: DeckSpec = DeckSpec { counts: [28, 4, 4, 4, 0] };

    /// A deck with `counts[p]` cards of penalty `p` (numerals first, then J, Q, K, A).
    pub fn new(counts: [usize; 5]) -> Result<DeckSpec, DeckError> {
        let total = counts.iter().fold(0usize, |a, &c| a.saturating_add(c));
        if total < 2 {
            return Err(DeckError::TooSmall(total));
        }
        if total > MAX_CARDS {
            return Err(DeckError::TooLarge(total));
        }
        Ok(DeckSpec { counts: counts.map(|c| c as u8) })
    }

    /// A named deck: `standard` (52 cards) or `italian` (40 cards, no aces).
    pub fn preset(name: &str) -> Result<DeckSpec, DeckError> {
        match name {
            "standard" | "52" => Ok(DeckSpec::STANDARD),
            "italian" | "40" => Ok(DeckSpec::ITALIAN),
            _ => Err(DeckError::UnknownPreset(name.to_string())),
        }
    }

    /// Reads `NUMERALS,J,Q,K,A`, e.g. `36,4,4,4,4`.
    ///
    /// ```
    /// use bataille_bmn::DeckSpec;
    /// assert_eq!(DeckSpec::parse_counts("28,4,4,4,0").unwrap(), DeckSpec::ITALIAN);
    /// assert!(DeckSpec::parse_counts("28,4,4").is_err());
    /// ```
    pub fn parse_counts(text: &str) -> Result<DeckSpec, DeckError> {
        let bad = || DeckError::BadCounts(text.to_string());
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        if parts.len() != 5 {
            return Err(bad());
        }
        let mut counts = [0usize; 5];
        for (c, p) in counts.iter_mut().zip(&parts) {
            *c = p.parse().map_err(|_| bad())?;
        }
        DeckSpec::new(counts)
    }

    /// The number of cards of each penalty, numerals first.
    pub fn counts(self) -> [usize; 5] {
        self.counts.map(usize::from)
    }

    /// The number of cards of penalty `card`.
    pub fn count(self, card: Card) -> usize {
        usize::from(self.counts[usize::from(card.min(MAX_PENALTY))])
    }

    /// N, the number of cards.
    pub fn cards(self) -> usize {
        self.counts().iter().sum()
    }

    /// The number of penalty cards (jacks, queens, kings and aces).
    pub fn penalty_cards(self) -> usize {
        self.cards() - self.count(0)
    }

    /// Cards the first player receives in a deal: ⌊N/2⌋.
    pub fn first_hand(self) -> usize {
        self.cards() / 2
    }

    /// The whole deck, numerals first, then jacks, queens, kings, aces.
    pub fn sorted_deck(self) -> Vec<Card> {
        let mut deck = Vec::with_capacity(self.cards());
        self.write_sorted(&mut deck);
        deck
    }

    /// Writes the sorted deck into `out` (cleared first).
    pub fn write_sorted(self, out: &mut Vec<Card>) {
        out.clear();
        for (p, &n) in self.counts.iter().enumerate() {
            out.extend(std::iter::repeat_n(p as Card, usize::from(n)));
        }
    }

    /// The number of distinct deals: N! / (n₀! n₁! n₂! n₃! n₄!), the arrangements of the deck
    /// (numerals are indistinguishable, and so are cards of equal penalty). Swapping the hands
    /// of a deal is *not* a symmetry (the first hand leads), so every arrangement is a distinct
    /// game. `None` if it exceeds `u128`.
    ///
    /// ```
    /// use bataille_bmn::DeckSpec;
    /// // 52! / (36! 4! 4! 4! 4!) ≈ 6.5 × 10^20
    /// assert_eq!(DeckSpec::STANDARD.arrangements(), Some(653_534_134_886_878_245_000));
    /// ```
    pub fn arrangements(self) -> Option<u128> {
        // Product of binomials C(n₀+…+nₖ, nₖ), each exact.
        let mut total: u128 = 1;
        let mut placed: u128 = 0;
        for &n in &self.counts {
            for i in 1..=u128::from(n) {
                placed += 1;
                total = total.checked_mul(placed)? / i;
            }
        }
        Some(total)
    }
}

impl Default for DeckSpec {
    fn default() -> DeckSpec {
        DeckSpec::STANDARD
    }
}

impl fmt::Display for DeckSpec {
    /// `52 cards (36 numerals, 4 J, 4 Q, 4 K, 4 A)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [n, j, q, k, a] = self.counts;
        write!(f, "{} cards ({n} numerals, {j} J, {q} Q, {k} K, {a} A)", self.cards())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrangements_match_brute_force_on_small_decks() {
        // Count distinct permutations of small multisets by brute force.
        fn brute(deck: &[Card]) -> u128 {
            let mut seen = std::collections::BTreeSet::new();
            let mut d = deck.to_vec();
            permute(&mut d, 0, &mut seen);
            seen.len() as u128
        }
        fn permute(d: &mut [Card], k: usize, seen: &mut std::collections::BTreeSet<Vec<Card>>) {
            if k == d.len() {
                seen.insert(d.to_vec());
                return;
            }
            for i in k..d.len() {
                d.swap(k, i);
                permute(d, k + 1, seen);
                d.swap(k, i);
            }
        }
        for counts in [[2, 1, 0, 0, 1], [3, 1, 1, 1, 1], [4, 2, 0, 1, 0], [1, 1, 1, 1, 2]] {
            let spec = DeckSpec::new(counts).unwrap();
            assert_eq!(spec.arrangements(), Some(brute(&spec.sorted_deck())), "{counts:?}");
        }
    }

    #[test]
    fn limits_and_presets() {
        assert_eq!(DeckSpec::new([0, 1, 0, 0, 0]), Err(DeckError::TooSmall(1)));
        assert_eq!(DeckSpec::new([255, 0, 0, 0, 0]).unwrap().cards(), 255);
        assert_eq!(DeckSpec::new([252, 1, 1, 1, 1]), Err(DeckError::TooLarge(256)));
        assert_eq!(DeckSpec::new([usize::MAX, 1, 0, 0, 0]), Err(DeckError::TooLarge(usize::MAX)));
        assert_eq!(DeckSpec::preset("italian").unwrap().count(4), 0);
        assert!(DeckSpec::preset("tarot").is_err());
        assert!(DeckSpec::parse_counts("36,4,4,4,x").is_err());
        assert_eq!(DeckSpec::STANDARD.to_string(), "52 cards (36 numerals, 4 J, 4 Q, 4 K, 4 A)");
        assert_eq!(DeckSpec::STANDARD.first_hand(), 26);
    }
}
