//! Whole games: outcomes, the two measures, and Brent's cycle detection.
//!
//! Beggar-my-neighbour is deterministic, so a game either ends or reaches a position (both
//! hands, numerals indistinguishable, and the player to lead, at a trick boundary) seen before,
//! and then loops forever. [`play_hands`] finds out which with Brent's algorithm: one saved
//! position, compared after every trick and replaced at tricks 32, 96, 224, … (gaps doubling)
//! — constant memory and about one trick simulated per trick played. When a loop is found its tail is measured
//! by replaying from the start, and the loop is walked once more to name it ([`CycleId`]).
//!
//! # Measures and the end of a game
//!
//! - *cards*: every card turned onto the pile, by either player;
//! - *tricks*: every time the pile is taken, the last one included.
//!
//! The game is over when one player holds every card: either his opponent had to play and had
//! no card (the winner then gathers the pile: that is the last trick), or a trick ends with the
//! opponent's hand empty (he paid with his last card). In the second case the game stops there:
//! the winner does not lead into a trick his opponent cannot answer. These are the measures of
//! the published record tables (Mann & Wu 2007: 7157 cards, 1007 tricks; Nessler 2022: 8344
//! cards, 1164 tricks; both end with the loser paying his last card); counting one more card and
//! one more trick for a final lead would give 7158/1008 and 8345/1165.

use std::fmt;

use crate::deck::{Card, MAX_CARDS};
use crate::game::{Game, Run, cmp_oriented, fingerprint};
use crate::hands::{Hands, Player};

/// Limits on a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Stop after this many tricks with [`Outcome::Capped`]. Brent's algorithm always
    /// terminates, so this only guards against enormous loops.
    pub max_tricks: u64,
}

impl Limits {
    /// No cap.
    pub const NONE: Limits = Limits { max_tricks: u64::MAX };
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::NONE
    }
}

/// A loop reached by a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cycle {
    /// Tricks before the loop is entered.
    pub tail_tricks: u64,
    /// Cards turned before the loop is entered.
    pub tail_cards: u64,
    /// Tricks in one turn of the loop.
    pub period_tricks: u64,
    /// Cards turned in one turn of the loop.
    pub period_cards: u64,
    /// The name of the loop, shared by every deal that reaches it.
    pub id: CycleId,
}

/// The name of a loop: the 64-bit FNV-1a fingerprint of its smallest position, each position
/// read from the leader (his hand, then his opponent's) and ordered by the leader's hand
/// length, then his cards, then the other cards (`-` < `J` < `Q` < `K` < `A`). Reading from
/// the leader makes the player-swapped loop the same loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CycleId(pub u64);

impl fmt::Display for CycleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// How a game came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The first player won (holds every card).
    FirstWins,
    /// The second player won.
    SecondWins,
    /// The game loops forever.
    Cycle(Cycle),
    /// The trick cap was reached first.
    Capped,
}

impl Outcome {
    /// A short lower-case name: `first`, `second`, `cycle`, `capped`.
    pub fn name(&self) -> &'static str {
        match self {
            Outcome::FirstWins => "first",
            Outcome::SecondWins => "second",
            Outcome::Cycle(_) => "cycle",
            Outcome::Capped => "capped",
        }
    }

    /// The winner, if the game ended.
    pub fn winner(&self) -> Option<Player> {
        match self {
            Outcome::FirstWins => Some(Player::First),
            Outcome::SecondWins => Some(Player::Second),
            Outcome::Cycle(_) | Outcome::Capped => None,
        }
    }

    fn won_by(p: Player) -> Outcome {
        match p {
            Player::First => Outcome::FirstWins,
            Player::Second => Outcome::SecondWins,
        }
    }
}

/// The outcome of a game and its two measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Record {
    /// How it came out.
    pub outcome: Outcome,
    /// Tricks: for a finished game every pile taken, the last included; for a loop, tail +
    /// period (the tricks until the first repeated position); for a capped game, the cap.
    pub tricks: u64,
    /// Cards turned, by both players, over the same tricks.
    pub cards: u64,
}

/// Reusable state for [`play_hands`] and [`play_deal`]: keep one per worker so that no game
/// allocates.
#[derive(Debug, Clone, Default)]
pub struct Scratch {
    game: Game,
    saved: Game,
}

/// Plays the deal `cards` as dealt: the first ⌊N/2⌋ cards are the first hand (top first), the
/// rest the second; the first hand leads. This is the entry point for searches: no
/// allocation, the deal as a slice of penalties.
///
/// The caller guarantees at most [`MAX_CARDS`] cards, each `0..=4` (a [`crate::DeckSpec`]
/// deck); longer slices panic.
///
/// ```
/// use bataille_bmn::{Limits, Outcome, Scratch, play_deal};
/// let mut scratch = Scratch::default();
/// // First "J-", second "--". Trick 1: J, paid with one numeral (2 cards); the first player
/// // takes "J-" and holds "-J-". Trick 2: -, -, J (3 cards), and the second player, who must
/// // pay the jack, has no card left: the first gathers the pile and wins.
/// let r = play_deal(&[1, 0, 0, 0], Limits::NONE, &mut scratch);
/// assert_eq!((r.outcome, r.tricks, r.cards), (Outcome::FirstWins, 2, 5));
/// ```
#[inline]
pub fn play_deal(cards: &[Card], limits: Limits, scratch: &mut Scratch) -> Record {
    let (a, b) = cards.split_at(cards.len() / 2);
    play_hands(a, b, limits, scratch)
}

/// Plays the game from the hands `first` and `second` (top first), the first to lead, with
/// Brent's cycle detection. See [`play_deal`] for the preconditions.
#[inline]
pub fn play_hands(
    first: &[Card],
    second: &[Card],
    limits: Limits,
    scratch: &mut Scratch,
) -> Record {
    assert!(first.len() + second.len() <= MAX_CARDS, "at most {MAX_CARDS} cards");
    let Scratch { game: g, saved } = scratch;
    g.set(first, second, Player::First);
    if let Some(w) = g.winner() {
        return Record { outcome: Outcome::won_by(w), tricks: 0, cards: 0 };
    }
    match g.run(saved, limits.max_tricks) {
        Run::Won { winner, tricks, cards } => {
            Record { outcome: Outcome::won_by(winner), tricks, cards }
        }
        Run::Capped { tricks, cards } => Record { outcome: Outcome::Capped, tricks, cards },
        Run::Repeat { period, .. } => {
            let cycle = measure_cycle(first, second, period);
            Record {
                outcome: Outcome::Cycle(cycle),
                tricks: cycle.tail_tricks + cycle.period_tricks,
                cards: cycle.tail_cards + cycle.period_cards,
            }
        }
    }
}

/// Plays `hands` to the end or to its loop (allocates a [`Scratch`]; for one-off games).
///
/// ```
/// use bataille_bmn::{Hands, Outcome, play};
/// let h = Hands::parse("---K---Q-KQAJ-----AAJ--J--", "----------Q----KQ-J-----KA").unwrap();
/// let Outcome::Cycle(c) = play(&h).outcome else { panic!("Casella's game never ends") };
/// assert_eq!(c.period_tricks, 62);
/// ```
pub fn play(hands: &Hands) -> Record {
    let mut scratch = Box::<Scratch>::default();
    play_hands(hands.first(), hands.second(), Limits::NONE, &mut scratch)
}

/// Advances a game that does not end within `n` tricks by `n` tricks; returns the cards.
fn advance(g: &mut Game, n: u64) -> u64 {
    let mut cards = 0;
    for _ in 0..n {
        let t = g.trick();
        debug_assert!(!t.game_over);
        cards += u64::from(t.cards);
    }
    cards
}

/// Given the period `lam` found by Brent's algorithm, measures the tail and names the loop.
#[cold]
fn measure_cycle(first: &[Card], second: &[Card], lam: u64) -> Cycle {
    let mut ahead = Game::new(first, second);
    advance(&mut ahead, lam);
    let mut entry = Game::new(first, second);
    let mut tail_tricks = 0;
    let mut tail_cards = 0;
    while !entry.same_position(&ahead) {
        tail_cards += advance(&mut entry, 1);
        advance(&mut ahead, 1);
        tail_tricks += 1;
    }
    let (period_cards, id) = walk_loop(&entry, lam);
    Cycle { tail_tricks, tail_cards, period_tricks: lam, period_cards, id }
}

/// Walks the loop through `entry` once; returns its cards and its canonical id.
fn walk_loop(entry: &Game, lam: u64) -> (u64, CycleId) {
    let mut g = entry.clone();
    let mut best = entry.clone();
    let mut cards = 0;
    for _ in 0..lam {
        if cmp_oriented(&g, &best).is_lt() {
            best.clone_from(&g);
        }
        cards += advance(&mut g, 1);
    }
    debug_assert!(g.same_position(entry));
    (cards, CycleId(fingerprint(&best)))
}

/// The positions of the loop reached from `hands` (the first to lead), beginning at the loop's
/// entry (the first position of the game that lies on the loop), each with its leader; `None`
/// if the game ends. Allocates one [`Hands`] per trick of the loop.
pub fn loop_positions(hands: &Hands) -> Option<Vec<(Hands, Player)>> {
    let r = play(hands);
    let Outcome::Cycle(c) = r.outcome else { return None };
    let mut g = Game::new(hands.first(), hands.second());
    advance(&mut g, c.tail_tricks);
    let mut out = Vec::with_capacity(c.period_tricks as usize);
    for _ in 0..c.period_tricks {
        out.push((g.to_hands(), g.leader()));
        advance(&mut g, 1);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(a: &str, b: &str) -> Record {
        play(&Hands::parse(a, b).unwrap())
    }

    #[test]
    fn finished_games() {
        // "J-" / "--": trick 1 J- (first takes, now -J- against -), trick 2: first turns -,
        // second turns his last -, first turns J, second cannot pay: 3 more cards.
        let r = run("J-", "--");
        assert_eq!(r, Record { outcome: Outcome::FirstWins, tricks: 2, cards: 5 });
        // An empty hand at the start: the other player already holds every card.
        assert_eq!(run("", "-").outcome, Outcome::SecondWins);
        assert_eq!(run("-", "").tricks, 0);
        // Only numerals: one trick, every card turned.
        assert_eq!(
            run("-----", "-----"),
            Record { outcome: Outcome::SecondWins, tricks: 1, cards: 10 }
        );
    }

    #[test]
    fn cap() {
        let h = Hands::parse("K-----", "-A-").unwrap();
        let mut s = Scratch::default();
        let r = play_hands(h.first(), h.second(), Limits { max_tricks: 1 }, &mut s);
        assert_eq!((r.outcome, r.tricks, r.cards), (Outcome::Capped, 1, 7));
    }
}
