//! Aligned cycles (the article's box 4).
//!
//! A deal of two hands of n cards is *aligned* when, each time both players have turned exactly
//! n more cards, a trick has just ended and the hands are again n and n, round after round,
//! until the positions at round ends repeat. Such a deal can be repeated k times end to end
//! (values shifted into their own ranges) to give a loop k times longer.

use std::collections::HashMap;

use crate::game::{Game, NoRandom, TrickResult};
use crate::method::Methods;
use crate::position::{Player, Position};

/// One round: both players turned n cards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Round {
    /// Tricks in the round.
    pub tricks: u64,
    /// The position when the round ends.
    pub end: Position,
}

/// Why a deal is not aligned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotAligned {
    /// The two hands are not the same length.
    UnequalHands { first: usize, second: usize },
    /// The game ended during the given round (0-based).
    Ended { round: usize },
    /// In this round (0-based) a trick straddled the n-th card: after the trick both players
    /// had turned `turned` cards, more than n.
    Straddle { round: usize, turned: u64 },
    /// After n cards the hands were of different lengths.
    Unbalanced { round: usize, first: usize, second: usize },
}

impl std::fmt::Display for NotAligned {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotAligned::UnequalHands { first, second } => {
                write!(
                    f,
                    "the hands hold {first} and {second} cards: an aligned deal has equal hands"
                )
            }
            NotAligned::Ended { round } => write!(f, "the game ends during round {}", round + 1),
            NotAligned::Straddle { round, turned } => write!(
                f,
                "in round {} a trick runs past the round's end (each player has turned {turned} \
                 cards when it ends)",
                round + 1
            ),
            NotAligned::Unbalanced { round, first, second } => write!(
                f,
                "at the end of round {} the hands hold {first} and {second} cards",
                round + 1
            ),
        }
    }
}

/// The round structure of an aligned deal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Aligned {
    /// n, the size of each hand.
    pub half: usize,
    /// Every round played, until a round-end position repeats.
    pub rounds: Vec<Round>,
    /// Rounds before the repeating part (0 when the deal lies on its own loop of rounds).
    pub tail_rounds: usize,
    /// Rounds in one turn of the loop.
    pub period_rounds: usize,
}

impl Aligned {
    /// One line: `rounds of n cards; loop of R rounds after T (P tricks)`.
    pub fn summary(&self) -> String {
        format!(
            "rounds of {} cards; loop of {} rounds after {} ({} tricks)",
            self.half,
            self.period_rounds,
            self.tail_rounds,
            self.period_tricks()
        )
    }

    /// Tricks in one turn of the loop.
    pub fn period_tricks(&self) -> u64 {
        self.rounds[self.tail_rounds..].iter().map(|r| r.tricks).sum()
    }
}

/// Decides whether `deal` is an aligned cycle under `methods` (deterministic), and returns its
/// rounds if so.
///
/// ```
/// use bataille_engine::{aligned, Method, Methods};
/// let deal = "[2, 1, 4, 4, 2, 1, 3, 3] / [4, 2, 4, 1, 3, 2, 3, 1]".parse().unwrap();
/// let a = aligned::check(&deal, Methods::both(Method::Natural)).unwrap();
/// assert_eq!(a.rounds[0].tricks, 6);
/// assert_eq!(a.period_tricks(), 24);
/// ```
pub fn check(deal: &Position, methods: Methods) -> Result<Aligned, NotAligned> {
    assert!(methods.is_deterministic(), "alignment is defined for deterministic methods");
    let (first, second) = (deal.first().len(), deal.second().len());
    if first != second {
        return Err(NotAligned::UnequalHands { first, second });
    }
    let n = first as u64;
    let mut g = Game::new(deal);
    let mut seen: HashMap<u64, Vec<usize>> = HashMap::new();
    let mut boundaries = vec![g.clone()];
    seen.entry(g.fingerprint(false)).or_default().push(0);
    let mut rounds = Vec::new();
    loop {
        let round = rounds.len();
        let mut turned = 0;
        let mut tricks = 0;
        while turned < n {
            if g.ending().is_some() {
                return Err(NotAligned::Ended { round });
            }
            let t = g.trick(methods, &mut NoRandom);
            tricks += 1;
            turned += u64::from(t.reveals);
            if let TrickResult::Ended(_) = t.result {
                return Err(NotAligned::Ended { round });
            }
        }
        if turned > n {
            return Err(NotAligned::Straddle { round, turned });
        }
        let (first, second) = (g.len(Player::First), g.len(Player::Second));
        if first != second {
            return Err(NotAligned::Unbalanced { round, first, second });
        }
        rounds.push(Round { tricks, end: g.to_position() });
        let slot = seen.entry(g.fingerprint(false)).or_default();
        if let Some(&earlier) = slot.iter().find(|&&i| boundaries[i].same_position(&g)) {
            return Ok(Aligned {
                half: n as usize,
                tail_rounds: earlier,
                period_rounds: rounds.len() - earlier,
                rounds,
            });
        }
        slot.push(boundaries.len());
        boundaries.push(g.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::method::Method;

    #[test]
    fn not_aligned_reasons() {
        let nat = Methods::both(Method::Natural);
        let deal = "[5, 3] / [2, 4, 1]".parse().unwrap();
        assert_eq!(check(&deal, nat), Err(NotAligned::UnequalHands { first: 2, second: 3 }));
        let deal = "[2, 1] / [1, 2]".parse().unwrap();
        assert!(matches!(
            check(&deal, nat),
            Err(NotAligned::Ended { .. }) | Err(NotAligned::Unbalanced { .. })
        ));
    }
}
