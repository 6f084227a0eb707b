//! Playing a whole game: outcomes, measures and Brent's cycle detection.
//!
//! Deterministic games (every method but random) either end or reach a position seen before.
//! [`play`] finds out which in two phases. The first plays 32 tricks per card (at least 64)
//! with no cycle detection at all: nearly every game that ends does so there, at full speed.
//! A game still running then goes on under Brent's algorithm: one saved position (the one
//! reached), compared after every trick and replaced after 32, 64, 128, ... more tricks —
//! constant memory and about one trick simulated per trick played. The period found is exact
//! from any saved position. When a loop is found the tail and the cards are measured by
//! replaying from the start, and the loop is walked once more to name it ([`CycleId`](crate::CycleId)).
//!
//! Games with a random method are played until they end or reach the trick cap.

use rand::RngCore;

use crate::game::{Ending, Game, NoRandom, TrickResult, slot};
use crate::method::{Method, Methods};
use crate::outcome::{Cycle, GameResult, Limits, Outcome};
use crate::outcome::{advance, walk_loop};
use crate::position::Position;
use crate::spec::{Card, MAX_CARDS};
use crate::tricks::{SeenPositions, Tricks};

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
    wide: crate::wide::Wide,
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
    let cards = start.len_of(0) + start.len_of(1);
    play_deterministic_phased(start, methods, limits, scratch, free_tricks(cards))
}

/// [`play_deterministic`] on the ring engine alone, never the wide first phase of
/// [`crate::wide`]: for the tests and benchmarks that compare the two.
#[doc(hidden)]
pub fn play_deterministic_rings(
    start: &Game,
    methods: Methods,
    limits: Limits,
    scratch: &mut Scratch,
) -> GameResult {
    let cards = start.len_of(0) + start.len_of(1);
    play_with(start, methods, limits, scratch, free_tricks(cards), false)
}

/// Whether [`play_deterministic`] plays the first phase of natural and optimized games many
/// tricks at a time ([`crate::wide`]): when the processor has AVX-512 BW, VL and VBMI2.
pub fn wide_first_phase() -> bool {
    crate::wide::available()
}

/// How [`play_deterministic`] plays the first phase of a game with `methods`, for the record of
/// a run: "AVX-512 runs of up to 32 tricks" (the wide phase) or "rings, one trick at a time".
pub fn first_phase(methods: Methods) -> &'static str {
    let wide =
        methods == Methods::both(Method::Natural) || methods == Methods::both(Method::Optimized);
    if wide && crate::wide::available() {
        "AVX-512 runs of up to 32 tricks"
    } else {
        "rings, one trick at a time"
    }
}

/// [`play_deterministic`] with `free` tricks (about: the first phase counts reveals) played
/// before Brent's algorithm starts instead of the default: for the tests, which check that the
/// answer does not depend on it.
#[doc(hidden)]
pub fn play_deterministic_phased(
    start: &Game,
    methods: Methods,
    limits: Limits,
    scratch: &mut Scratch,
    free: u64,
) -> GameResult {
    play_with(start, methods, limits, scratch, free, crate::wide::available())
}

/// [`play_deterministic_phased`], with the wide first phase when `wide` (and the methods allow).
fn play_with(
    start: &Game,
    methods: Methods,
    limits: Limits,
    scratch: &mut Scratch,
    free: u64,
    wide: bool,
) -> GameResult {
    let wide = wide
        && (methods == Methods::both(Method::Natural)
            || methods == Methods::both(Method::Optimized));
    // One monomorphic copy of the game per pair of orders, so that the order of a trick
    // without battle is known at compile time.
    let k = |m: Method| match m {
        Method::Natural | Method::Optimized => HI_LO,
        Method::Ascending => LO_HI,
        Method::FirstPlayerFirst => FIRST_SECOND,
        Method::Random => panic!("play_deterministic called with the random method"),
    };
    match (k(methods.first), k(methods.second)) {
        (HI_LO, HI_LO) => brent::<HI_LO, HI_LO>(start, methods, limits, scratch, free, wide),
        (HI_LO, LO_HI) => brent::<HI_LO, LO_HI>(start, methods, limits, scratch, free, false),
        (HI_LO, _) => brent::<HI_LO, FIRST_SECOND>(start, methods, limits, scratch, free, false),
        (LO_HI, HI_LO) => brent::<LO_HI, HI_LO>(start, methods, limits, scratch, free, false),
        (LO_HI, LO_HI) => brent::<LO_HI, LO_HI>(start, methods, limits, scratch, free, false),
        (LO_HI, _) => brent::<LO_HI, FIRST_SECOND>(start, methods, limits, scratch, free, false),
        (_, HI_LO) => brent::<FIRST_SECOND, HI_LO>(start, methods, limits, scratch, free, false),
        (_, LO_HI) => brent::<FIRST_SECOND, LO_HI>(start, methods, limits, scratch, free, false),
        (_, _) => brent::<FIRST_SECOND, FIRST_SECOND>(start, methods, limits, scratch, free, false),
    }
}

/// [`PairOrder`]s as const parameters.
const HI_LO: u8 = 0;
const LO_HI: u8 = 1;
const FIRST_SECOND: u8 = 2;

/// Tricks between Brent's first two saves (then the gaps double). Any value gives the exact
/// period.
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
    const fn of_const(k: u8) -> PairOrder {
        match k {
            HI_LO => PairOrder::HiLo,
            LO_HI => PairOrder::LoHi,
            _ => PairOrder::FirstSecond,
        }
    }

    #[inline(always)]
    fn order(self, a: Card, b: Card, hi: Card, lo: Card) -> (Card, Card) {
        match self {
            PairOrder::HiLo => (hi, lo),
            PairOrder::LoHi => (lo, hi),
            PairOrder::FirstSecond => (a, b),
        }
    }
}

/// The ring counters of the game being played, held in registers by the hot loops and written
/// back to the [`Game`] only when a slower path needs it.
#[derive(Debug, Clone, Copy)]
struct Counters {
    h0: u32,
    h1: u32,
    t0: u32,
    t1: u32,
}

impl Counters {
    #[inline(always)]
    fn of(g: &Game) -> Counters {
        Counters { h0: g.head[0], h1: g.head[1], t0: g.tail[0], t1: g.tail[1] }
    }

    #[inline(always)]
    fn store(self, g: &mut Game) {
        g.head = [self.h0, self.h1];
        g.tail = [self.t0, self.t1];
    }

    /// The ending if a player has no card at this trick boundary.
    #[inline(always)]
    fn ending(self) -> Option<Ending> {
        match (self.h0 == self.t0, self.h1 == self.t1) {
            (false, false) => None,
            (true, false) => Some(Ending::SecondWins),
            (false, true) => Some(Ending::FirstWins),
            (true, true) => Some(Ending::Draw),
        }
    }
}

/// Tricks played without looking for a loop before Brent's algorithm starts: 32 per card (at
/// least 64). Beyond every game of the C=4 V=4 deck and all but about 0.1% of 52-card games, so
/// that nearly every game that ends pays nothing for the cycle detection; a game that loops
/// plays at most this many tricks more than it needs.
#[inline(always)]
pub(crate) fn free_tricks(cards: u32) -> u64 {
    u64::from(cards).saturating_mul(32).max(64)
}

/// Plays a trick without battle between the top cards `a != b` (the heads already moved past
/// them): no data-dependent branch, the winner's ring and tail are selected by value, and the
/// two cards are written as one aligned pair (the tails are even, see [`Game::set`]).
#[inline(always)]
fn take(
    ring: &mut [Card; 2 * MAX_CARDS],
    c: &mut Counters,
    a: Card,
    b: Card,
    k1: PairOrder,
    k2: PairOrder,
) {
    let first_wins = a > b;
    let (hi, lo) = (a.max(b), a.min(b));
    let (x1, y1) = k1.order(a, b, hi, lo);
    let (x2, y2) = k2.order(a, b, hi, lo);
    let (x, y) = if first_wins { (x1, y1) } else { (x2, y2) };
    let t = if first_wins { c.t0 } else { c.t1 };
    debug_assert!(t % 2 == 0, "tails are even");
    let at = (usize::from(!first_wins) << 8) | (t as usize & (MAX_CARDS - 2));
    ring[at..at + 2].copy_from_slice(&[x, y]);
    let grow0 = 2 * u32::from(first_wins);
    c.t0 = c.t0.wrapping_add(grow0);
    c.t1 = c.t1.wrapping_add(2 - grow0);
}

/// The rest of a trick whose first reveal was a tie (the heads already moved past it), on the
/// local counters. Returns the ending if a hand runs out during the battle or is empty after
/// it; adds the battle's extra reveals to `battle_cards`.
///
/// Natural and optimized stacking for both players run inline: the revealed cards stay in the
/// loser's ring (nothing is written there during the trick) and the tie values are read back
/// from it. Natural: the deciding pair, then each tie value twice from the last tie back.
/// Optimized: all of them strongest first. Other methods go through [`Game::battle`].
#[inline(always)]
fn battle(
    g: &mut Game,
    c: &mut Counters,
    methods: Methods,
    tie: Card,
    battle_cards: &mut u64,
) -> Option<Ending> {
    if methods != Methods::both(Method::Natural) && methods != Methods::both(Method::Optimized) {
        c.store(g);
        let t = g.battle(tie, methods, &mut NoRandom);
        *c = Counters::of(g);
        *battle_cards += u64::from(t.reveals - 1);
        if let TrickResult::Ended(end) = t.result {
            return Some(end);
        }
        return c.ending();
    }
    let (h0_start, h1_start) = (c.h0.wrapping_sub(1), c.h1.wrapping_sub(1));
    let (a, b) = loop {
        if (c.h0 == c.t0) | (c.h1 == c.t1) {
            return c.ending();
        }
        let a = g.ring[slot(0, c.h0)];
        let b = g.ring[slot(1, c.h1)];
        c.h0 = c.h0.wrapping_add(1);
        c.h1 = c.h1.wrapping_add(1);
        *battle_cards += 1;
        if a != b {
            break (a, b);
        }
    };
    let first_wins = a > b;
    let (w, l) = (usize::from(!first_wins), usize::from(first_wins));
    let loser_start = if first_wins { h1_start } else { h0_start };
    let ties = c.h0.wrapping_sub(h0_start) - 1;
    let mut t = if first_wins { c.t0 } else { c.t1 };
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
        c.t0 = t;
    } else {
        c.t1 = t;
    }
    c.ending()
}

/// The first phase of a game: tricks from a trick boundary with both hands non-empty until
/// the game ends (the ending is returned) or about `until` tricks have been played (`None`, at
/// a trick boundary with both hands non-empty), with no cycle detection.
///
/// The tricks go in runs between which no hand can run out: a trick without battle takes at
/// most one card from each hand, so a run as long as the shorter hand needs no ending check,
/// and a trick without battle is two loads, a comparison and one store with no data-dependent
/// branch. A tie leaves the run for [`battle`].
#[inline(never)]
fn free_run<const K1: u8, const K2: u8>(
    g: &mut Game,
    c: &mut Counters,
    methods: Methods,
    until: u64,
    tricks: &mut u64,
    battle_cards: &mut u64,
) -> Option<Ending> {
    let (k1, k2) = (PairOrder::of_const(K1), PairOrder::of_const(K2));
    let mut cc = *c;
    // Reveals are counted by the first head (every reveal begins a trick or is a battle's),
    // and the phase stops after `until` reveals rather than tricks: as good for its purpose.
    let first_reveal = cc.h0;
    let budget = until.saturating_sub(*tricks).min(u64::from(u32::MAX / 2)) as u32;
    let stop = first_reveal.wrapping_add(budget);
    let mut battle_reveals: u64 = 0;
    let end = loop {
        let room = cc.t0.wrapping_sub(cc.h0).min(cc.t1.wrapping_sub(cc.h1));
        let left = stop.wrapping_sub(cc.h0) as i32;
        if left <= 0 {
            break None;
        }
        let run_end = cc.h0.wrapping_add(room.min(left as u32));
        let tie = loop {
            if cc.h0 == run_end {
                break None;
            }
            let a = g.ring[slot(0, cc.h0)];
            let b = g.ring[slot(1, cc.h1)];
            cc.h0 = cc.h0.wrapping_add(1);
            cc.h1 = cc.h1.wrapping_add(1);
            if a == b {
                break Some(a);
            }
            take(&mut g.ring, &mut cc, a, b, k1, k2);
        };
        let end = match tie {
            Some(a) => battle(g, &mut cc, methods, a, &mut battle_reveals),
            None => cc.ending(),
        };
        if end.is_some() {
            break end;
        }
    };
    let reveals = u64::from(cc.h0.wrapping_sub(first_reveal));
    *c = cc;
    *tricks += reveals - battle_reveals;
    *battle_cards += battle_reveals;
    end
}

/// The two phases of a deterministic game.
///
/// First the game is played for `free` tricks ([`free_tricks`]) with no cycle detection by
/// [`free_run`]. Nearly every game that ends does so there. A game still running then goes on
/// under Brent's algorithm: the position reached is saved and compared (first by a key of the
/// position: the first hand's length and both top cards, which the next trick loads anyway)
/// after every trick, and replaced after 32, 64, 128, ... tricks. Brent's algorithm finds the
/// exact period from any position of the game; the tail is measured from the start by
/// [`measure_cycle`].
#[inline(never)]
fn brent<const K1: u8, const K2: u8>(
    start: &Game,
    methods: Methods,
    limits: Limits,
    scratch: &mut Scratch,
    free: u64,
    wide: bool,
) -> GameResult {
    debug_assert!(methods.is_deterministic());
    let (k1, k2) = (PairOrder::of_const(K1), PairOrder::of_const(K2));
    let Scratch { game: g, saved, wide: lanes } = scratch;
    g.clone_from(start);
    // Kept by every way of making or playing a `Game` (tested); `take` relies on it, so a
    // broken invariant stops here rather than giving a wrong game.
    assert!(g.tails_even(), "a game's tail counters are even");
    let mut c = Counters::of(g);
    let mut tricks: u64 = 0;
    let mut battle_cards: u64 = 0;
    macro_rules! result {
        ($outcome:expr) => {
            GameResult { outcome: $outcome, tricks, cards: tricks + battle_cards }
        };
    }
    if let Some(end) = c.ending() {
        return result!(end.into());
    }
    let until = free.min(limits.max_tricks);
    let end = if wide {
        let optimized = methods.first == Method::Optimized;
        let end = crate::wide::free_run(lanes, g, optimized, until, &mut tricks, &mut battle_cards);
        c = Counters::of(g);
        end
    } else {
        free_run::<K1, K2>(g, &mut c, methods, until, &mut tricks, &mut battle_cards)
    };
    if let Some(end) = end {
        return result!(end.into());
    }
    if tricks == limits.max_tricks {
        return result!(Outcome::Capped);
    }
    // Phase 2: Brent's algorithm from the position reached.
    c.store(g);
    saved.clone_from(g);
    let mut power: u64 = FIRST_BRENT_GAP;
    let mut lam: u64 = 0;
    let max_tricks = limits.max_tricks;
    let mut a = g.ring[slot(0, c.h0)];
    let mut b = g.ring[slot(1, c.h1)];
    let key = |c: Counters, a: Card, b: Card| {
        c.t0.wrapping_sub(c.h0) | u32::from(a) << 16 | u32::from(b) << 24
    };
    let mut saved_key = key(c, a, b);
    loop {
        // Here both hands are non-empty and `a`, `b` are their top cards.
        if tricks == max_tricks {
            return result!(Outcome::Capped);
        }
        c.h0 = c.h0.wrapping_add(1);
        c.h1 = c.h1.wrapping_add(1);
        tricks += 1;
        let end = if a != b {
            take(&mut g.ring, &mut c, a, b, k1, k2);
            c.ending()
        } else {
            battle(g, &mut c, methods, a, &mut battle_cards)
        };
        if let Some(end) = end {
            return result!(end.into());
        }
        a = g.ring[slot(0, c.h0)];
        b = g.ring[slot(1, c.h1)];
        let now = key(c, a, b);
        lam += 1;
        if now == saved_key {
            c.store(g);
            if g.same_position(saved) {
                let cycle = measure_cycle(start, methods, lam);
                return GameResult {
                    outcome: Outcome::Cycle(cycle),
                    tricks: cycle.tail_tricks + cycle.period_tricks,
                    cards: cycle.tail_cards + cycle.period_cards,
                };
            }
        }
        if lam == power {
            c.store(g);
            saved.clone_from(g);
            saved_key = now;
            power *= 2;
            lam = 0;
        }
    }
}

/// Plays a game with at least one random method until it ends or reaches the cap: the
/// [`Tricks`] of the game, played out.
pub fn play_random<R: RngCore + ?Sized>(
    start: &Game,
    methods: Methods,
    rng: &mut R,
    limits: Limits,
) -> GameResult {
    Tricks::new(start, methods, rng, limits).finish()
}

/// Plays a game with a random method under the convention of the article's program (the
/// authors' published program, github.com/cristal-smac/bataille): the positions met before
/// each trick are remembered, and the game is stopped as soon as a position comes back. Such a
/// game comes out as [`Outcome::Capped`] with the tricks and cards played until the repeat, so
/// that means over finished games leave it out, as the article's program did. Games that never
/// repeat a position are played exactly as by [`play_random`] with the same generator.
///
/// This is not the correct rule for the random method (a repeated position is not a loop: the
/// next shuffles may differ), only a way to reproduce the published means. It allocates one
/// key per new position. (With deterministic methods a repeated position is a loop, and the
/// result is that [`Outcome::Cycle`]: see [`Tricks::until_repeat`].)
pub fn play_random_until_repeat<R: RngCore + ?Sized>(
    start: &Game,
    methods: Methods,
    rng: &mut R,
    limits: Limits,
    seen: &mut SeenPositions,
) -> GameResult {
    Tricks::new(start, methods, rng, limits).until_repeat(seen).finish()
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

/// Plays the game from `start` as [`play`] does, showing `visit` every position: the start,
/// then the position after each trick. It returns [`play`]'s result, and the positions shown
/// are those of that game: to its end; to its first repeated position for a deterministic loop
/// (that position is shown again last); or to the cap of `limits`.
///
/// A deterministic game under a cap ([`Limits::DETERMINISTIC`] not given) is the exception:
/// there [`play`] reports a loop only if Brent's detection has found it within the cap (some
/// tricks after its first repeated position), so the result is [`play`]'s and the positions go
/// to where that result stops. Allocates one key per position for a deterministic game.
///
/// ```
/// use bataille_engine::{play_traced, Limits, Method, Methods, NoRandom, Outcome, Position};
/// let deal: Position = "[5, 3] / [2, 4, 1]".parse().unwrap();
/// let mut shown = Vec::new();
/// let r = play_traced(&deal, Methods::both(Method::Natural), &mut NoRandom,
///     Limits::DETERMINISTIC, |g| shown.push(g.to_position()));
/// assert!(matches!(r.outcome, Outcome::Cycle(_)));
/// assert_eq!(shown.len(), 7); // the start, then 6 tricks back to it
/// assert_eq!(shown[0], shown[6]);
/// ```
pub fn play_traced<R: RngCore + ?Sized>(
    start: &Position,
    methods: Methods,
    rng: &mut R,
    limits: Limits,
    mut visit: impl FnMut(&Game),
) -> GameResult {
    let deterministic = methods.is_deterministic();
    let capped = (deterministic && limits != Limits::DETERMINISTIC)
        .then(|| play(start, methods, &mut NoRandom, limits));
    let limits = capped.map_or(limits, |r| Limits { max_tricks: r.tricks });
    let game = Game::new(start);
    let mut seen = SeenPositions::default();
    let mut tricks = Tricks::new(&game, methods, rng, limits);
    if deterministic && capped.is_none() {
        tricks = tricks.until_repeat(&mut seen);
    }
    visit(tricks.game());
    while tricks.next().is_some() {
        visit(tricks.game());
    }
    let result = tricks.finish();
    capped.unwrap_or(result)
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

    /// Scripted choices for the random method: `random::<bool>()` reads the top bit of
    /// `next_u32`, so each value of the script picks [high, low] (top bit set) or [low, high].
    struct Script(Vec<bool>, usize);

    impl RngCore for Script {
        fn next_u32(&mut self) -> u32 {
            let bit = self.0[self.1 % self.0.len()];
            self.1 += 1;
            if bit { u32::MAX } else { 0 }
        }
        fn next_u64(&mut self) -> u64 {
            u64::from(self.next_u32())
        }
        fn fill_bytes(&mut self, dst: &mut [u8]) {
            dst.fill(0);
        }
    }

    #[test]
    fn random_game_repeating_a_position() {
        // The article's box 3: [4, 1] / [2, 3] comes back after four tricks when the winner
        // stacks high-low, low-high, high-low, low-high.
        let start = Game::new(&"[4, 1] / [2, 3]".parse().unwrap());
        let random = Methods::both(Method::Random);
        let script = || Script(vec![true, false], 0);
        let limits = Limits { max_tricks: 1000 };
        // The correct convention plays on: the same choices forever, up to the cap.
        let r = play_random(&start, random, &mut script(), limits);
        assert_eq!((r.outcome, r.tricks, r.cards), (Outcome::Capped, 1000, 1000));
        // The published program's convention stops when the start comes back, after 4 tricks.
        let mut seen = SeenPositions::default();
        let r = play_random_until_repeat(&start, random, &mut script(), limits, &mut seen);
        assert_eq!((r.outcome, r.tricks, r.cards), (Outcome::Capped, 4, 4));
        // Other choices end the game, the same way under both conventions; the set is reused.
        for bits in [vec![true], vec![false], vec![false, true, true]] {
            let a = play_random(&start, random, &mut Script(bits.clone(), 0), limits);
            let b =
                play_random_until_repeat(&start, random, &mut Script(bits, 0), limits, &mut seen);
            assert!(a.outcome.is_finished(), "{a:?}");
            assert_eq!(a, b);
        }
    }
}
