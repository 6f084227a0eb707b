//! How a game comes out: its [`Outcome`] and two measures ([`GameResult`]), the [`Limits`] it
//! is played under, and a loop ([`Cycle`]) with its canonical name ([`CycleId`]), given by
//! walking the loop once. [`crate::play`](mod@crate::play) and
//! [`crate::tricks`] both build these.

use std::fmt;

use crate::game::{Ending, Game, NoRandom, TrickResult};
use crate::method::Methods;

/// Limits on a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Stop after this many tricks with [`Outcome::Capped`]. For deterministic games this only
    /// guards against enormous loops; for random ones it is the only stop besides the end.
    pub max_tricks: u64,
}

impl Limits {
    /// No cap for deterministic games (Brent's algorithm always terminates).
    pub const DETERMINISTIC: Limits = Limits { max_tricks: u64::MAX };
    /// The default cap for random games: 10 million tricks.
    pub const RANDOM: Limits = Limits { max_tricks: 10_000_000 };

    /// The default limits for `methods`.
    pub fn default_for(methods: Methods) -> Limits {
        if methods.is_deterministic() { Limits::DETERMINISTIC } else { Limits::RANDOM }
    }
}

/// A loop reached by a deterministic game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cycle {
    /// Tricks before the loop is entered.
    pub tail_tricks: u64,
    /// Reveals (cards each player turned) before the loop is entered.
    pub tail_cards: u64,
    /// Tricks in one turn of the loop.
    pub period_tricks: u64,
    /// Reveals in one turn of the loop.
    pub period_cards: u64,
    /// The name of the loop, shared by every deal that reaches it.
    pub id: CycleId,
}

/// The name of a loop: the fingerprint of its smallest position in the order of
/// [`Position::canonical_cmp`](crate::Position::canonical_cmp), the player-swapped loop included when swapping players is a
/// symmetry of the game (same symmetric method for both).
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
    /// The first player won.
    FirstWins,
    /// The second player won.
    SecondWins,
    /// Both ran out together.
    Draw,
    /// The game loops forever.
    Cycle(Cycle),
    /// The trick cap was reached first.
    Capped,
}

impl Outcome {
    /// A short lower-case name: `first`, `second`, `draw`, `cycle`, `capped`.
    pub fn name(&self) -> &'static str {
        match self {
            Outcome::FirstWins => "first",
            Outcome::SecondWins => "second",
            Outcome::Draw => "draw",
            Outcome::Cycle(_) => "cycle",
            Outcome::Capped => "capped",
        }
    }

    /// Whether the game ended (win or draw).
    pub fn is_finished(&self) -> bool {
        matches!(self, Outcome::FirstWins | Outcome::SecondWins | Outcome::Draw)
    }
}

impl From<Ending> for Outcome {
    fn from(e: Ending) -> Outcome {
        match e {
            Ending::FirstWins => Outcome::FirstWins,
            Ending::SecondWins => Outcome::SecondWins,
            Ending::Draw => Outcome::Draw,
        }
    }
}

/// The outcome of a game and its two measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// How it came out.
    pub outcome: Outcome,
    /// Tricks played: for a finished game every trick begun (the last may be a battle that
    /// could not be finished); for a loop, tail + period (the tricks until the first repeated
    /// position); for a capped game, the cap.
    pub tricks: u64,
    /// Cards each player turned (reveals), counted over the same tricks.
    pub cards: u64,
}

/// Advances a game that is known to be on a loop or heading to one by `n` tricks, returning
/// the reveals played.
pub(crate) fn advance(g: &mut Game, methods: Methods, n: u64) -> u64 {
    let mut cards = 0;
    for _ in 0..n {
        let t = g.trick(methods, &mut NoRandom);
        debug_assert!(matches!(t.result, TrickResult::Taken(_)));
        cards += u64::from(t.reveals);
    }
    cards
}

/// Walks the loop through `entry` once; returns its reveals and its canonical id.
pub(crate) fn walk_loop(entry: &Game, methods: Methods, lam: u64) -> (u64, CycleId) {
    let symmetric = methods.is_swap_symmetric();
    let mut g = entry.clone();
    let mut best = entry.clone();
    let mut best_swap = false;
    let mut cards = 0;
    for _ in 0..lam {
        for swap in [false, true] {
            if (swap && !symmetric) || g.cmp_oriented(swap, &best, best_swap).is_ge() {
                continue;
            }
            best.clone_from(&g);
            best_swap = swap;
        }
        cards += advance(&mut g, methods, 1);
    }
    debug_assert!(g.same_position(entry));
    (cards, CycleId(best.fingerprint(best_swap)))
}
