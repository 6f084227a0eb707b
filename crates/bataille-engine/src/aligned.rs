//! Aligned cycles (the article's box 4).
//!
//! A deal of two hands of n cards is *aligned* when, each time both players have turned exactly
//! n more cards, a trick has just ended and the hands are again n and n, round after round,
//! until the positions at round ends repeat. Such a deal can be repeated k times end to end
//! (values shifted into their own ranges) to give a loop k times longer.
//!
//! [`check`] plays a deal with the engine and reports its rounds. [`round_natural`] is the round
//! map itself under natural stacking: inside an aligned round each player turns exactly his n
//! cards, so the i-th card of one hand meets only the i-th card of the other, and one round
//! from an n/n position is a function of the two hands alone. It writes the next n/n position
//! (each hand the piles the player won, in the order won; a pile is `[w, l, t, t, ...]`: the
//! winning card, the losing card, then the tied pairs from the last back to the first) or says
//! why the round is not aligned. It allocates nothing.

use std::collections::HashMap;

use crate::game::{Game, NoRandom, TrickResult};
use crate::method::Methods;
use crate::position::{Player, Position};
use crate::spec::Card;

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

/// The smallest position of a loop (its positions given in any order) that is an aligned
/// cycle, in the order of [`Position::canonical_cmp`]: the one that can be laid end to end with
/// others (box 4). `None` when the loop is not aligned: no position of it with two equal hands
/// passes [`check`].
pub fn aligned_position(loop_positions: &[Position], methods: Methods) -> Option<Position> {
    let mut equal: Vec<&Position> =
        loop_positions.iter().filter(|p| p.first().len() == p.second().len()).collect();
    equal.sort_by(|a, b| a.canonical_cmp(b));
    equal.into_iter().find(|p| check(p, methods).is_ok()).cloned()
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

/// Why one round from an n/n position is not aligned (see [`round_natural`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundBreak {
    /// The n-th reveal is a tie: the trick runs past the round's end.
    Straddle,
    /// Every trick ended inside the round, but the players won `first` and `second` cards, not
    /// n each.
    Unbalanced {
        /// Cards won by the first player.
        first: usize,
        /// Cards won by the second player.
        second: usize,
    },
}

/// One round of natural bataille from the n/n position `first` / `second` (n ≥ 1): when the
/// round is aligned and balanced, writes the position at its end into `next_first` and
/// `next_second` (n cards each) and returns the number of tricks; otherwise returns why not
/// (the buffers then hold unspecified cards).
///
/// The result is what the engine's game reaches after both players turned n cards (tested
/// against [`Game::trick`] on every position of small decks).
///
/// ```
/// use bataille_engine::aligned::{round_natural, RoundBreak};
/// let (mut a, mut b) = ([0; 8], [0; 8]);
/// let tricks = round_natural(&[2, 1, 4, 4, 2, 1, 3, 3], &[4, 2, 4, 1, 3, 2, 3, 1], &mut a, &mut b);
/// assert_eq!(tricks, Ok(6));
/// assert_eq!((a, b), ([4, 1, 4, 4, 3, 1, 3, 3], [4, 2, 2, 1, 3, 2, 2, 1]));
/// assert_eq!(round_natural(&[2, 1], &[1, 1], &mut a[..2], &mut b[..2]), Err(RoundBreak::Straddle));
/// ```
///
/// # Panics
///
/// When the four slices are not all of the same length.
pub fn round_natural(
    first: &[Card],
    second: &[Card],
    next_first: &mut [Card],
    next_second: &mut [Card],
) -> Result<u32, RoundBreak> {
    let n = first.len();
    assert!(
        second.len() == n && next_first.len() == n && next_second.len() == n,
        "a round is played from n/n hands into n/n buffers"
    );
    if n == 0 || first[n - 1] == second[n - 1] {
        return Err(RoundBreak::Straddle);
    }
    let mut won = [0; 2];
    let mut tricks = 0;
    let mut start = 0;
    for i in 0..n {
        let (a, b) = (first[i], second[i]);
        if a == b {
            continue;
        }
        let cards = 2 * (i + 1 - start);
        let w = usize::from(b > a);
        if won[w] + cards > n {
            won[w] += cards;
            return Err(RoundBreak::Unbalanced { first: won[0], second: won[1] });
        }
        let out = if w == 0 { &mut *next_first } else { &mut *next_second };
        let pile = &mut out[won[w]..won[w] + cards];
        pile[0] = a.max(b);
        pile[1] = a.min(b);
        for (j, pair) in pile[2..].chunks_exact_mut(2).enumerate() {
            let t = first[i - 1 - j];
            pair[0] = t;
            pair[1] = t;
        }
        won[w] += cards;
        tricks += 1;
        start = i + 1;
    }
    // Each player won at most n of the 2n cards, so both won exactly n.
    debug_assert_eq!(won, [n, n]);
    Ok(tricks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::method::Method;

    /// One round played by the engine, trick by trick, from an n/n position: `Some(next)` when
    /// both players turned exactly n cards and hold n each.
    fn round_by_game(deal: &Position) -> Option<Position> {
        let n = deal.first().len() as u64;
        let mut g = Game::new(deal);
        let mut turned = 0;
        while turned < n {
            let t = g.trick(Methods::both(Method::Natural), &mut NoRandom);
            turned += u64::from(t.reveals);
            if matches!(t.result, TrickResult::Ended(_)) {
                return None;
            }
        }
        let balanced = g.len(Player::First) == g.len(Player::Second);
        (turned == n && balanced).then(|| g.to_position())
    }

    /// Every arrangement of `cards` (sorted) in lexicographic order, into `f`.
    fn arrangements(cards: &mut [Card], f: &mut impl FnMut(&[Card])) {
        loop {
            f(cards);
            let Some(i) = (1..cards.len()).rev().find(|&i| cards[i - 1] < cards[i]) else {
                return;
            };
            let j = (i..cards.len()).rev().find(|&j| cards[j] > cards[i - 1]).unwrap();
            cards.swap(i - 1, j);
            cards[i..].reverse();
        }
    }

    /// The round map against the engine's game on every n/n position of every multiset of 2n
    /// cards, n ≤ 4, with values 1..k each used at most 4 times (every multiplicity pattern).
    #[test]
    fn round_map_matches_the_game() {
        let mut positions = 0;
        for half in 1..=4 {
            let size = 2 * half;
            // Every multiplicity pattern: compositions of 2n into parts of at most 4.
            let mut patterns = vec![vec![]];
            let mut done = Vec::new();
            while let Some(p) = patterns.pop() {
                let used: usize = p.iter().sum();
                if used == size {
                    done.push(p);
                    continue;
                }
                for m in 1..=4.min(size - used) {
                    let mut q = p.clone();
                    q.push(m);
                    patterns.push(q);
                }
            }
            for pattern in done {
                let mut cards: Vec<Card> = pattern
                    .iter()
                    .enumerate()
                    .flat_map(|(v, &m)| std::iter::repeat_n(v as Card + 1, m))
                    .collect();
                arrangements(&mut cards, &mut |c| {
                    positions += 1;
                    let deal = Position::new(c[..half].to_vec(), c[half..].to_vec()).unwrap();
                    let (mut a, mut b) = (vec![0; half], vec![0; half]);
                    let map = round_natural(deal.first(), deal.second(), &mut a, &mut b);
                    let game = round_by_game(&deal);
                    match (map, game) {
                        (Ok(tricks), Some(next)) => {
                            assert_eq!((a.as_slice(), b.as_slice()), (next.first(), next.second()));
                            assert!(tricks >= 1 && tricks as usize <= half, "{deal}");
                        }
                        (Err(_), None) => {}
                        (map, game) => panic!("{deal}: round map {map:?}, game {game:?}"),
                    }
                });
            }
        }
        // Sum over patterns of (2n)! / Πm!, n = 1..4 (ordered set partitions, blocks ≤ 4).
        assert_eq!(positions, 3 + 75 + 4_670 + 543_130);
    }

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
