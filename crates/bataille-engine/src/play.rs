//! Playing a whole game: outcomes, measures and Brent's cycle detection.
//!
//! Deterministic games (every method but random) either end or reach a position seen before.
//! [`play`] finds out which with Brent's algorithm: one saved position, compared after every
//! trick, replaced at tricks 32, 96, 224, ... (the start is the first saved position, and the
//! gaps double from 32, so that the many short games copy nothing) — constant memory and about
//! one trick simulated per trick played. The period found is exact whatever the first gap. When a loop is found the tail and the cards are measured by replaying from the
//! start, and the loop is walked once more to name it ([`CycleId`]).
//!
//! Games with a random method are played until they end or reach the trick cap.

use std::fmt;

use rand::RngCore;

use crate::game::{Ending, Game, NoRandom, TrickResult, slot};
use crate::method::{Method, Methods};
use crate::position::Position;
use crate::spec::{Card, MAX_CARDS};

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
/// [`Position::canonical_cmp`], the player-swapped loop included when swapping players is a
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

/// Plays the game from `start`. Deterministic games get Brent's cycle detection; random ones
/// (see [`crate::Method::Random`]) are played until they end or reach `limits.max_tricks`.
///
/// ```
/// use bataille_engine::{play, Limits, Method, Methods, NoRandom, Outcome, Position};
/// let deal: Position = "[5, 3] / [2, 4, 1]".parse().unwrap();
/// let r = play(&deal, Methods::both(Method::Natural), &mut NoRandom, Limits::DETERMINISTIC);
/// match r.outcome {
///     Outcome::Cycle(c) => assert_eq!((c.tail_tricks, c.period_tricks), (0, 6)),
///     _ => panic!("the article's V=5 deal loops"),
/// }
/// ```
pub fn play<R: RngCore + ?Sized>(
    start: &Position,
    methods: Methods,
    rng: &mut R,
    limits: Limits,
) -> GameResult {
    let game = Game::new(start);
    if methods.is_deterministic() {
        let mut scratch = Scratch::default();
        play_deterministic(&game, methods, limits, &mut scratch)
    } else {
        play_random(&game, methods, rng, limits)
    }
}

/// Reusable buffers for [`play_deterministic`]: keep one per worker so that no game allocates.
#[derive(Debug, Clone, Default)]
pub struct Scratch {
    game: Game,
    saved: Game,
}

/// Plays a deterministic game from `start` with Brent's cycle detection, using `scratch` for
/// the working copies. `start` is left unchanged.
///
/// # Panics
///
/// If a method is [`Method::Random`]: the caller checks `methods.is_deterministic()` (as
/// [`play`] does) and plays random games with [`play_random`].
#[inline]
pub fn play_deterministic(
    start: &Game,
    methods: Methods,
    limits: Limits,
    scratch: &mut Scratch,
) -> GameResult {
    use PairOrder::{FirstSecond, HiLo, LoHi};
    // One monomorphic copy of the loop per pair of orders, so that the order of a trick without
    // battle is known at compile time.
    let k = |m: Method| match m {
        Method::Natural | Method::Optimized => HiLo,
        Method::Ascending => LoHi,
        Method::FirstPlayerFirst => FirstSecond,
        Method::Random => panic!("play_deterministic called with the random method"),
    };
    // Natural or optimized stacking for both, the common cases, get their battles inline too.
    if methods == Methods::both(Method::Natural) {
        return brent(start, Methods::both(Method::Natural), HiLo, HiLo, limits, scratch);
    }
    if methods == Methods::both(Method::Optimized) {
        return brent(start, Methods::both(Method::Optimized), HiLo, HiLo, limits, scratch);
    }
    match (k(methods.first), k(methods.second)) {
        (HiLo, HiLo) => brent(start, methods, HiLo, HiLo, limits, scratch),
        (HiLo, LoHi) => brent(start, methods, HiLo, LoHi, limits, scratch),
        (HiLo, FirstSecond) => brent(start, methods, HiLo, FirstSecond, limits, scratch),
        (LoHi, HiLo) => brent(start, methods, LoHi, HiLo, limits, scratch),
        (LoHi, LoHi) => brent(start, methods, LoHi, LoHi, limits, scratch),
        (LoHi, FirstSecond) => brent(start, methods, LoHi, FirstSecond, limits, scratch),
        (FirstSecond, HiLo) => brent(start, methods, FirstSecond, HiLo, limits, scratch),
        (FirstSecond, LoHi) => brent(start, methods, FirstSecond, LoHi, limits, scratch),
        (FirstSecond, FirstSecond) => {
            brent(start, methods, FirstSecond, FirstSecond, limits, scratch)
        }
    }
}

/// Tricks before Brent's first save (then the gaps double). Any value gives the exact period;
/// 32 lets most games of small decks end before any copy.
const FIRST_BRENT_GAP: u64 = 32;

/// How a deterministic method orders the two cards of a trick without battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PairOrder {
    /// Higher card first (natural and optimized).
    HiLo,
    /// Lower card first (ascending).
    LoHi,
    /// First player's card first.
    FirstSecond,
}

impl PairOrder {
    #[inline(always)]
    fn order(self, a: Card, b: Card, hi: Card, lo: Card) -> (Card, Card) {
        match self {
            PairOrder::HiLo => (hi, lo),
            PairOrder::LoHi => (lo, hi),
            PairOrder::FirstSecond => (a, b),
        }
    }
}

/// The hot loop: tricks without battle run on local copies of the ring counters with no
/// data-dependent branch (the winner selects a ring by index); battles, the cycle check and
/// Brent's saves write the counters back to the [`Game`].
///
/// Brent's comparison is filtered by a key of the position (the first hand's length and both
/// top cards, which the next trick loads anyway) before the full comparison.
#[inline(always)]
fn brent(
    start: &Game,
    methods: Methods,
    k1: PairOrder,
    k2: PairOrder,
    limits: Limits,
    scratch: &mut Scratch,
) -> GameResult {
    debug_assert!(methods.is_deterministic());
    let Scratch { game: g, saved } = scratch;
    g.clone_from(start);
    // Until the first save the saved position is `start` itself.
    let mut saved_is_start = true;
    let [mut h0, mut h1] = g.head;
    let [mut t0, mut t1] = g.tail;
    let mut power: u64 = FIRST_BRENT_GAP;
    let mut lam: u64 = 0;
    let mut tricks: u64 = 0;
    let mut battle_cards: u64 = 0;
    let max_tricks = limits.max_tricks;
    macro_rules! sync {
        () => {
            g.head = [h0, h1];
            g.tail = [t0, t1];
        };
    }
    macro_rules! result {
        ($outcome:expr) => {
            GameResult { outcome: $outcome, tricks, cards: tricks + battle_cards }
        };
    }
    if let Some(end) = g.ending() {
        return result!(end.into());
    }
    let mut a = g.ring[slot(0, h0)];
    let mut b = g.ring[slot(1, h1)];
    let key = |len0: u32, a: Card, b: Card| len0 | u32::from(a) << 16 | u32::from(b) << 24;
    let mut saved_key = key(t0.wrapping_sub(h0), a, b);
    loop {
        // Here both hands are non-empty and `a`, `b` are their top cards.
        if tricks == max_tricks {
            return result!(Outcome::Capped);
        }
        h0 = h0.wrapping_add(1);
        h1 = h1.wrapping_add(1);
        tricks += 1;
        if a != b {
            let first_wins = a > b;
            let (hi, lo) = (a.max(b), a.min(b));
            let (x1, y1) = k1.order(a, b, hi, lo);
            let (x2, y2) = k2.order(a, b, hi, lo);
            let (x, y) = if first_wins { (x1, y1) } else { (x2, y2) };
            let p = usize::from(!first_wins);
            let t = if first_wins { t0 } else { t1 };
            g.ring[slot(p, t)] = x;
            g.ring[slot(p, t.wrapping_add(1))] = y;
            let grow0 = 2 * u32::from(first_wins);
            t0 = t0.wrapping_add(grow0);
            t1 = t1.wrapping_add(2 - grow0);
            if (h0 == t0) | (h1 == t1) {
                sync!();
                return result!(g.ending().expect("a hand is empty").into());
            }
        } else if methods == Methods::both(Method::Natural)
            || methods == Methods::both(Method::Optimized)
        {
            // A battle, on the local counters. The revealed cards stay in the loser's ring
            // (nothing is written there during the trick): the tie values are read back from
            // it. Natural: the deciding pair, then each tie value twice from the last tie
            // back. Optimized: all of them strongest first.
            let (h0_start, h1_start) = (h0.wrapping_sub(1), h1.wrapping_sub(1));
            loop {
                if (h0 == t0) | (h1 == t1) {
                    sync!();
                    return result!(g.ending().expect("a hand is empty").into());
                }
                a = g.ring[slot(0, h0)];
                b = g.ring[slot(1, h1)];
                h0 = h0.wrapping_add(1);
                h1 = h1.wrapping_add(1);
                battle_cards += 1;
                if a != b {
                    break;
                }
            }
            let first_wins = a > b;
            let (w, l) = (usize::from(!first_wins), usize::from(first_wins));
            let loser_start = if first_wins { h1_start } else { h0_start };
            let ties = h0.wrapping_sub(h0_start) - 1;
            let mut t = if first_wins { t0 } else { t1 };
            macro_rules! put {
                ($x:expr) => {{
                    let x: Card = $x;
                    g.ring[slot(w, t)] = x;
                    t = t.wrapping_add(1);
                }};
            }
            let (hi, lo) = (a.max(b), a.min(b));
            if methods.first == Method::Natural {
                put!(hi);
                put!(lo);
                for i in (0..ties).rev() {
                    let x = g.ring[slot(l, loser_start.wrapping_add(i))];
                    put!(x);
                    put!(x);
                }
            } else {
                // At most 128 ties: both hands held them, and there are at most 256 cards.
                let mut tied = [0 as Card; MAX_CARDS / 2];
                let tied = &mut tied[..ties as usize];
                for (i, x) in tied.iter_mut().enumerate() {
                    *x = g.ring[slot(l, loser_start.wrapping_add(i as u32))];
                }
                tied.sort_unstable_by(|x, y| y.cmp(x));
                let (mut hi_done, mut lo_done) = (false, false);
                for &x in tied.iter() {
                    if !hi_done && hi >= x {
                        put!(hi);
                        hi_done = true;
                    }
                    if !lo_done && lo >= x {
                        put!(lo);
                        lo_done = true;
                    }
                    put!(x);
                    put!(x);
                }
                if !hi_done {
                    put!(hi);
                }
                if !lo_done {
                    put!(lo);
                }
            }
            if first_wins {
                t0 = t;
            } else {
                t1 = t;
            }
            if (h0 == t0) | (h1 == t1) {
                sync!();
                return result!(g.ending().expect("a hand is empty").into());
            }
        } else {
            sync!();
            let t = g.battle(a, methods, &mut NoRandom);
            [h0, h1] = g.head;
            [t0, t1] = g.tail;
            battle_cards += u64::from(t.reveals - 1);
            if let TrickResult::Ended(end) = t.result {
                return result!(end.into());
            }
            if let Some(end) = g.ending() {
                return result!(end.into());
            }
        }
        a = g.ring[slot(0, h0)];
        b = g.ring[slot(1, h1)];
        let now = key(t0.wrapping_sub(h0), a, b);
        lam += 1;
        if now == saved_key {
            sync!();
            if g.same_position(if saved_is_start { start } else { saved }) {
                let cycle = measure_cycle(start, methods, lam);
                return GameResult {
                    outcome: Outcome::Cycle(cycle),
                    tricks: cycle.tail_tricks + cycle.period_tricks,
                    cards: cycle.tail_cards + cycle.period_cards,
                };
            }
        }
        if lam == power {
            sync!();
            saved.clone_from(g);
            saved_is_start = false;
            saved_key = now;
            power *= 2;
            lam = 0;
        }
    }
}

/// Plays a game with at least one random method until it ends or reaches the cap.
pub fn play_random<R: RngCore + ?Sized>(
    start: &Game,
    methods: Methods,
    rng: &mut R,
    limits: Limits,
) -> GameResult {
    let mut g = start.clone();
    let mut tricks: u64 = 0;
    let mut cards: u64 = 0;
    loop {
        if let Some(end) = g.ending() {
            return GameResult { outcome: end.into(), tricks, cards };
        }
        if tricks == limits.max_tricks {
            return GameResult { outcome: Outcome::Capped, tricks, cards };
        }
        let t = g.trick(methods, rng);
        tricks += 1;
        cards += u64::from(t.reveals);
        if let TrickResult::Ended(end) = t.result {
            return GameResult { outcome: end.into(), tricks, cards };
        }
    }
}

/// Advances a game that is known to be on a loop or heading to one by `n` tricks, returning
/// the reveals played.
fn advance(g: &mut Game, methods: Methods, n: u64) -> u64 {
    let mut cards = 0;
    for _ in 0..n {
        let t = g.trick(methods, &mut NoRandom);
        debug_assert!(matches!(t.result, TrickResult::Taken(_)));
        cards += u64::from(t.reveals);
    }
    cards
}

/// Given the period `lam` found by Brent's algorithm, measures the tail and names the loop.
fn measure_cycle(start: &Game, methods: Methods, lam: u64) -> Cycle {
    let mut ahead = start.clone();
    advance(&mut ahead, methods, lam);
    let mut entry = start.clone();
    let mut tail_tricks = 0;
    let mut tail_cards = 0;
    while !entry.same_position(&ahead) {
        tail_cards += advance(&mut entry, methods, 1);
        advance(&mut ahead, methods, 1);
        tail_tricks += 1;
    }
    let (period_cards, id) = walk_loop(&entry, methods, lam);
    Cycle { tail_tricks, tail_cards, period_tricks: lam, period_cards, id }
}

/// Walks the loop through `entry` once; returns its reveals and its canonical id.
fn walk_loop(entry: &Game, methods: Methods, lam: u64) -> (u64, CycleId) {
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

/// The positions of the loop reached from `start`, beginning at the loop's entry (the first
/// position of the game that lies on the loop), or `None` if the game ends. Deterministic
/// methods only; allocates one [`Position`] per trick of the loop.
pub fn loop_positions(start: &Position, methods: Methods) -> Option<Vec<Position>> {
    assert!(methods.is_deterministic(), "loops are only defined for deterministic methods");
    let r = play(start, methods, &mut NoRandom, Limits::DETERMINISTIC);
    let Outcome::Cycle(c) = r.outcome else { return None };
    let mut g = Game::new(start);
    advance(&mut g, methods, c.tail_tricks);
    let mut out = Vec::with_capacity(c.period_tricks as usize);
    for _ in 0..c.period_tricks {
        out.push(g.to_position());
        advance(&mut g, methods, 1);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::method::Method;

    fn run(deal: &str, m: Method) -> GameResult {
        play(&deal.parse().unwrap(), Methods::both(m), &mut NoRandom, Limits::DETERMINISTIC)
    }

    #[test]
    fn finished_games() {
        let r = run("[1, 1, 2, 2] / [2, 2, 1, 1]", Method::Natural);
        assert_eq!(r.outcome, Outcome::Draw);
        let r = run("[1, 1, 1, 2] / [2, 2, 1, 2]", Method::Natural);
        assert_eq!(r.outcome, Outcome::SecondWins);
        let r = run("[2] / [1]", Method::Natural);
        assert_eq!(r, GameResult { outcome: Outcome::FirstWins, tricks: 1, cards: 1 });
        let r = run("[] / [1]", Method::Natural);
        assert_eq!(r, GameResult { outcome: Outcome::SecondWins, tricks: 0, cards: 0 });
    }

    #[test]
    fn tail_is_measured() {
        // The article's V=5 deal lies on its own loop. Non-zero tails are checked against a
        // naive detector in the property tests.
        let r = run("[5, 3] / [2, 4, 1]", Method::Natural);
        let Outcome::Cycle(c) = r.outcome else { panic!() };
        assert_eq!((c.tail_tricks, c.period_tricks, c.period_cards), (0, 6, 6));
        assert_eq!((r.tricks, r.cards), (6, 6));
    }

    #[test]
    fn same_loop_same_id_including_swap() {
        let id = |deal: &str| match run(deal, Method::Natural).outcome {
            Outcome::Cycle(c) => c.id,
            o => panic!("{deal}: {o:?}"),
        };
        let a = id("[5, 3] / [2, 4, 1]");
        assert_eq!(a, id("[3, 5, 2] / [4, 1]"));
        assert_eq!(a, id("[2, 4, 1] / [5, 3]"));
        assert_ne!(a, id("[1, 7, 4] / [5, 3, 6, 2]"));
    }

    #[test]
    fn loop_listing() {
        let deal: Position = "[5, 3] / [2, 4, 1]".parse().unwrap();
        let l = loop_positions(&deal, Methods::both(Method::Natural)).unwrap();
        assert_eq!(l.len(), 6);
        assert_eq!(l[0], deal);
        assert_eq!(l[1].to_string(), "[3, 5, 2] / [4, 1]");
        assert!(loop_positions(&"2/1".parse().unwrap(), Methods::both(Method::Natural)).is_none());
    }

    #[test]
    fn cap() {
        let r = play(
            &"[5, 3] / [2, 4, 1]".parse().unwrap(),
            Methods::both(Method::Natural),
            &mut NoRandom,
            Limits { max_tricks: 3 },
        );
        assert_eq!(r.outcome, Outcome::Capped);
        assert_eq!(r.tricks, 3);
    }
}
