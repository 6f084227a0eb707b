//! Positions (two hands at a trick boundary), their notation and their validation.
//!
//! Two notations are read: the article's `[5, 3] / [2, 4, 1]` and the compact `5,3/2,4,1`
//! (spaces also separate cards). Both are written top card first, first player first.

use std::cmp::Ordering;
use std::fmt;

use crate::spec::{Card, DeckSpec, MAX_CARDS, MAX_VALUE};

/// Which of the two players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Player {
    /// The player whose hand is written first.
    First,
    /// The player whose hand is written second.
    Second,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// 0 for the first player, 1 for the second.
    pub fn index(self) -> usize {
        match self {
            Player::First => 0,
            Player::Second => 1,
        }
    }
}

/// Two hands, top card first. Any split of the deck is a position; a *deal* is a position whose
/// first hand has ⌊N/2⌋ cards (see [`Position::is_deal`]).
///
/// `Position` is the convenient, allocating form used at the edges (parsing, printing, traces);
/// the hot loops run on [`crate::Game`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    hands: [Vec<Card>; 2],
}

/// Why a position could not be read or is not a legal deck.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionError {
    /// The text has no `/` between the two hands, or more than one.
    Separator(String),
    /// A card is not a number, or is outside `1..=255`.
    BadCard(String),
    /// Brackets do not match.
    Brackets(String),
    /// Two commas with no card between them (or a comma at either end of a hand).
    EmptyCard(String),
    /// More cards than the engine supports.
    TooLarge(usize),
    /// The cards are not the multiset of the deck: the text says which value is wrong.
    Multiset(String),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Separator(s) => {
                write!(
                    f,
                    "expected two hands separated by one '/', as in `[5, 3] / [2, 4, 1]`, got {}",
                    quoted(s)
                )
            }
            PositionError::BadCard(s) => {
                write!(
                    f,
                    "{} is not a card: cards are whole numbers from 1 to {MAX_VALUE}",
                    quoted(s)
                )
            }
            PositionError::Brackets(s) => write!(f, "unbalanced brackets in hand {}", quoted(s)),
            PositionError::EmptyCard(s) => {
                let inner = s.trim_start_matches('[').trim_end_matches(']').trim();
                let place = if inner.ends_with(',') {
                    "after the last comma"
                } else if inner.starts_with(',') {
                    "before the first comma"
                } else {
                    "between two commas"
                };
                write!(f, "a card is missing {place} in hand {}", quoted(s))
            }
            PositionError::TooLarge(n) => {
                write!(f, "{n} cards is more than the engine supports (at most {MAX_CARDS})")
            }
            PositionError::Multiset(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for PositionError {}

impl Position {
    /// A position from two hands, top card first. Cards must be in `1..=255` and the total at
    /// most [`MAX_CARDS`]; whether they form a deck is checked by [`Position::check_deck`].
    pub fn new(first: Vec<Card>, second: Vec<Card>) -> Result<Position, PositionError> {
        let total = first.len() + second.len();
        if total > MAX_CARDS {
            return Err(PositionError::TooLarge(total));
        }
        if first.iter().chain(&second).any(|&c| c == 0) {
            return Err(PositionError::BadCard("0".to_string()));
        }
        Ok(Position { hands: [first, second] })
    }

    /// Reads `[5, 3] / [2, 4, 1]`, `5,3/2,4,1` or `5 3 / 2 4 1`.
    ///
    /// ```
    /// use bataille_engine::Position;
    /// let p: Position = "[5, 3] / [2, 4, 1]".parse().unwrap();
    /// assert_eq!(p, "5,3/2,4,1".parse().unwrap());
    /// assert_eq!(p.to_string(), "[5, 3] / [2, 4, 1]");
    /// assert_eq!(p.compact(), "5,3/2,4,1");
    /// ```
    pub fn parse(text: &str) -> Result<Position, PositionError> {
        let parts: Vec<&str> = text.split('/').collect();
        if parts.len() != 2 {
            return Err(PositionError::Separator(text.to_string()));
        }
        let first = parse_hand(parts[0])?;
        let second = parse_hand(parts[1])?;
        Position::new(first, second)
    }

    /// The hand of `player`, top card first.
    pub fn hand(&self, player: Player) -> &[Card] {
        &self.hands[player.index()]
    }

    /// The first player's hand.
    pub fn first(&self) -> &[Card] {
        &self.hands[0]
    }

    /// The second player's hand.
    pub fn second(&self) -> &[Card] {
        &self.hands[1]
    }

    /// Total number of cards in both hands.
    pub fn cards(&self) -> usize {
        self.hands[0].len() + self.hands[1].len()
    }

    /// The same position with the players swapped.
    pub fn swapped(&self) -> Position {
        Position { hands: [self.hands[1].clone(), self.hands[0].clone()] }
    }

    /// Whether the first hand holds ⌊N/2⌋ cards, the split of a deal.
    pub fn is_deal(&self) -> bool {
        self.hands[0].len() == self.cards() / 2
    }

    /// The compact notation `5,3/2,4,1`.
    pub fn compact(&self) -> String {
        let join = |h: &[Card]| h.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(",");
        format!("{}/{}", join(&self.hands[0]), join(&self.hands[1]))
    }

    /// Infers the deck from the cards: V is the largest value and C the number of copies of
    /// value 1; every value `1..=V` must then appear exactly C times.
    ///
    /// ```
    /// use bataille_engine::Position;
    /// let p: Position = "[2, 1, 4, 4, 2, 1, 3, 3] / [4, 2, 4, 1, 3, 2, 3, 1]".parse().unwrap();
    /// assert_eq!(p.infer_deck().unwrap().to_string(), "C=4 V=4");
    /// let bad: Position = "1,1,2/2,3".parse().unwrap();
    /// let err = bad.infer_deck().unwrap_err().to_string();
    /// assert!(err.contains("value 3 appears 1 time"), "{err}");
    /// ```
    pub fn infer_deck(&self) -> Result<DeckSpec, PositionError> {
        let counts = self.counts();
        let values = counts.iter().rposition(|&c| c > 0).unwrap_or(0);
        if values == 0 {
            return Err(PositionError::Multiset("the position has no card".to_string()));
        }
        let colours = counts[1];
        if colours == 0 {
            return Err(PositionError::Multiset(format!(
                "value 1 is missing: a deck holds every value from 1 to V (here V={values}) \
                 the same number of times"
            )));
        }
        let spec =
            DeckSpec::new(colours, values).map_err(|e| PositionError::Multiset(e.to_string()))?;
        self.check_deck(spec)?;
        Ok(spec)
    }

    /// Checks that the cards are exactly the deck `spec`: each value `1..=V` present C times.
    pub fn check_deck(&self, spec: DeckSpec) -> Result<(), PositionError> {
        let counts = self.counts();
        let mut problems = Vec::new();
        for (value, &count) in counts.iter().enumerate().skip(1) {
            let expected = if value <= spec.values() { spec.colours() } else { 0 };
            if count != expected {
                let times = if count == 1 { "time" } else { "times" };
                problems.push(if expected == 0 {
                    format!("value {value} appears {count} {times} but the deck has no such value")
                } else {
                    format!("value {value} appears {count} {times}, expected {expected}")
                });
            }
        }
        if problems.is_empty() {
            return Ok(());
        }
        let shown = problems.len().min(4);
        let more = if problems.len() > shown {
            format!(" (and {} more)", problems.len() - shown)
        } else {
            String::new()
        };
        Err(PositionError::Multiset(format!(
            "not a {spec} deck of {} cards: {}{more}",
            spec.cards(),
            problems[..shown].join("; ")
        )))
    }

    /// Checks only that every card is in `1..=V`, and with `colours` = C that no value appears
    /// more than C times (a partial deck, used when the caller asked for one explicitly).
    pub fn check_partial(
        &self,
        values: usize,
        colours: Option<usize>,
    ) -> Result<(), PositionError> {
        if let Some(c) = self.hands.iter().flatten().find(|&&c| usize::from(c) > values) {
            return Err(PositionError::Multiset(format!("value {c} is larger than V={values}")));
        }
        let Some(c) = colours else { return Ok(()) };
        match self.counts().iter().enumerate().find(|&(_, &n)| n > c) {
            Some((value, n)) => Err(PositionError::Multiset(format!(
                "value {value} appears {n} times, more than C={c}"
            ))),
            None => Ok(()),
        }
    }

    fn counts(&self) -> [usize; 256] {
        let mut counts = [0usize; 256];
        for &c in self.hands.iter().flatten() {
            counts[usize::from(c)] += 1;
        }
        counts
    }

    /// The total order used for canonical cycle ids: first by the first hand's length, then
    /// card by card through the first hand and then the second.
    pub fn canonical_cmp(&self, other: &Position) -> Ordering {
        (self.hands[0].len(), &self.hands[0], &self.hands[1]).cmp(&(
            other.hands[0].len(),
            &other.hands[0],
            &other.hands[1],
        ))
    }
}

/// How many characters of a bad input an error message repeats.
pub const QUOTED_CHARS: usize = 80;

/// `text` quoted for an error message, cut after [`QUOTED_CHARS`] characters (with its length),
/// so that an error about a huge input stays short: every error of the workspace that repeats
/// what a user gave goes through it.
///
/// ```
/// use bataille_engine::position::quoted;
/// assert_eq!(quoted("1,x"), "\"1,x\"");
/// assert!(quoted(&"7".repeat(1000)).ends_with("… (1000 bytes in all)"));
/// ```
pub fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTED_CHARS) {
        None => format!("{text:?}"),
        Some((cut, _)) => format!("{:?}… ({} bytes in all)", &text[..cut], text.len()),
    }
}

fn parse_hand(text: &str) -> Result<Vec<Card>, PositionError> {
    let t = text.trim();
    let inner = match (t.strip_prefix('['), t.strip_suffix(']')) {
        (Some(_), Some(_)) if t.len() >= 2 => &t[1..t.len() - 1],
        (None, None) => t,
        _ => return Err(PositionError::Brackets(text.trim().to_string())),
    };
    if inner.contains(['[', ']']) {
        return Err(PositionError::Brackets(text.trim().to_string()));
    }
    if inner.trim().is_empty() {
        return Ok(Vec::new());
    }
    // Cards are separated by commas or by blanks; a comma with no card on one side is refused.
    if inner.split(',').any(|item| item.trim().is_empty()) {
        return Err(PositionError::EmptyCard(t.to_string()));
    }
    inner
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .map(|s| match s.parse::<u16>() {
            Ok(v) if (1..=MAX_VALUE as u16).contains(&v) => Ok(v as Card),
            _ => Err(PositionError::BadCard(s.to_string())),
        })
        .collect()
}

impl std::str::FromStr for Position {
    type Err = PositionError;
    fn from_str(s: &str) -> Result<Position, PositionError> {
        Position::parse(s)
    }
}

impl fmt::Display for Position {
    /// The article's notation: `[5, 3] / [2, 4, 1]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |h: &[Card]| h.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(", ");
        write!(f, "[{}] / [{}]", show(&self.hands[0]), show(&self.hands[1]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_notations() {
        let p = Position::parse("[5, 3] / [2, 4, 1]").unwrap();
        assert_eq!(p.first(), &[5, 3]);
        assert_eq!(p.second(), &[2, 4, 1]);
        assert_eq!(Position::parse("5 3/2 4 1").unwrap(), p);
        assert_eq!(Position::parse(" [] / [1] ").unwrap().first(), &[] as &[u8]);
    }

    #[test]
    fn parse_errors() {
        let check = |text: &str, needle: &str| {
            let err = Position::parse(text).unwrap_err().to_string();
            assert!(err.contains(needle), "{text:?}: {err}");
        };
        check("1,2,3", "separated by one '/'");
        check("1/2/3", "separated by one '/'");
        check("1,x/2", "\"x\" is not a card");
        check("1,0/2", "\"0\" is not a card");
        check("1,256/2", "\"256\" is not a card");
        check("[1,2/3", "unbalanced brackets");
        check("[[1]]/3", "unbalanced brackets");
        check("1,,2/1,2", "missing between two commas");
        check("1,2,/1,2", "missing after the last comma in hand \"1,2,\"");
        check("[1, 2, ]/1,2", "missing after the last comma");
        check("[,1]/2", "missing before the first comma");
        let huge = format!("{}/1", "7".repeat(131_072));
        assert!(Position::parse(&huge).unwrap_err().to_string().len() < 200);
    }

    #[test]
    fn deck_errors() {
        let check = |text: &str, needle: &str| {
            let p = Position::parse(text).unwrap();
            let err = p.infer_deck().unwrap_err().to_string();
            assert!(err.contains(needle), "{text:?}: {err}");
        };
        check("2,3/3,2", "value 1 is missing");
        check("1,2,2/1,1", "value 2 appears 2 times, expected 3");
        check("1,1,3/3,2", "value 2 appears 1 time, expected 2");
        let p = Position::parse("1,2/3,4").unwrap();
        let spec = DeckSpec::new(1, 3).unwrap();
        assert!(p.check_deck(spec).unwrap_err().to_string().contains("no such value"));
        assert!(p.check_partial(3, None).is_err());
        assert!(p.check_partial(4, None).is_ok());
        // With C: no value more than C times.
        let p = Position::parse("5,3/5,4,5").unwrap();
        assert!(p.check_partial(5, Some(3)).is_ok());
        assert!(p.check_partial(5, Some(2)).unwrap_err().to_string().contains("value 5 appears 3"));
    }

    #[test]
    fn deal_split() {
        assert!(Position::parse("5,3/2,4,1").unwrap().is_deal());
        assert!(!Position::parse("5,3,2/4,1").unwrap().is_deal());
    }
}
