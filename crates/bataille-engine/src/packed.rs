//! Natural and optimized games of small decks with each hand held in one 64-bit register.
//!
//! When a deck's `N` cards fit in 64 bits at `w` bits a card (`N · w ≤ 64`, `w` the bits of the
//! largest value: the C=4 V=4 and V=5 decks, C=2 up to V=8, C=1 up to V=16), a hand is a `u64`
//! whose low `w` bits are its top card. A reveal is then a mask and a shift of each hand, and
//! the taker's cards are one OR at the bottom of its hand: no memory is touched, and no branch
//! depends on the cards. A tie keeps its cards in a register (the *pot*) and the trick goes on;
//! the reveal that settles it adds the trick's cards at the taker's bottom:
//!
//! - natural stacking ([`Method::Natural`]): the higher card, the lower one, then the tied
//!   pairs from the last back, the pot holding the tied cards themselves;
//! - optimized stacking ([`Method::Optimized`], decks of at most 8 values): every card of the
//!   trick, strongest first. The pot counts the tied cards of each value (8 bits a value), and
//!   the settling reveal lays the runs of equal cards out from the strongest value down: a
//!   sort by counting, with no branch either.
//!
//! [`Packed::play_many`] plays any number of deals several at a time, one in each 64-bit lane of
//! a vector register, chosen at run time: eight lanes of an AVX-512 register where the
//! processor has `avx512f`, four lanes of an AVX2 register where it has `avx2`, one game at a
//! time otherwise. The same steps run on every lane, and a lane whose game has ended takes the
//! next deal at once, so that the lanes stay busy until the last deals.
//!
//! Only the first phase of [`crate::play_deterministic`] is played this way: a game still
//! running after it is left to [`crate::play_deterministic`] (Brent's algorithm), so every
//! answer is the engine's.

use crate::game::Ending;
use crate::method::Method;
use crate::outcome::{GameResult, Limits};
use crate::play::free_tricks;
use crate::spec::Card;

/// A game [`Packed`] played to its end: small enough to come back in registers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Finished {
    /// How it ended.
    pub ending: Ending,
    /// Tricks begun, as [`GameResult::tricks`].
    pub tricks: u32,
    /// Cards each player turned, as [`GameResult::cards`].
    pub cards: u32,
}

impl From<Finished> for GameResult {
    fn from(f: Finished) -> GameResult {
        GameResult { outcome: f.ending.into(), tricks: f.tricks.into(), cards: f.cards.into() }
    }
}

/// A deal (or any position) with each hand in a register, made by [`Packed::pack`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PackedDeal {
    first: u64,
    second: u64,
    first_bits: u32,
    second_bits: u32,
}

/// A deck's natural or optimized games played in registers (see the [module](self)
/// documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Packed {
    /// Bits per card.
    width: u32,
    /// Largest card value.
    max_value: Card,
    /// Optimized stacking (else natural), for both players.
    optimized: bool,
    /// The vector instructions [`Packed::play_many`] may use (detected at run time).
    simd: Simd,
    /// Tricks begun before the game is handed back: as many as the first phase of
    /// [`crate::play_deterministic`] plays reveals.
    free: u64,
}

/// Calls `f::<W, OPT>(args)` with the bits a card and the method of `packed` as constants.
macro_rules! dispatch {
    ($packed:expr, $($f:ident)::+ ($($arg:expr),*)) => {
        match ($packed.width, $packed.optimized) {
            (1, false) => $($f)::+::<1, false>($($arg),*),
            (2, false) => $($f)::+::<2, false>($($arg),*),
            (3, false) => $($f)::+::<3, false>($($arg),*),
            (4, false) => $($f)::+::<4, false>($($arg),*),
            (5, false) => $($f)::+::<5, false>($($arg),*),
            (_, false) => $($f)::+::<6, false>($($arg),*),
            (1, true) => $($f)::+::<1, true>($($arg),*),
            (2, true) => $($f)::+::<2, true>($($arg),*),
            // At most 8 values: 3 bits.
            (_, true) => $($f)::+::<3, true>($($arg),*),
        }
    };
}

/// Values an optimized pot can count: eight fields of 8 bits.
const OPTIMIZED_VALUES: Card = 8;

impl Packed {
    /// For deals of `cards` cards of values `1..=max_value` played with `method` by both
    /// players: `None` when the method is neither natural nor optimized, when a hand of all the
    /// cards does not fit in 64 bits (or a card needs more than 6 bits), or for optimized
    /// stacking with more than 8 values.
    pub fn new(cards: usize, max_value: Card, method: Method) -> Option<Packed> {
        let optimized = match method {
            Method::Natural => false,
            Method::Optimized => true,
            _ => return None,
        };
        let width = (u32::BITS - u32::from(max_value.max(2) - 1).leading_zeros()).max(1);
        let fits = width <= 6 && cards as u32 * width <= u64::BITS && cards > 0;
        (fits && max_value > 0 && (!optimized || max_value <= OPTIMIZED_VALUES)).then(|| Packed {
            width,
            max_value,
            optimized,
            simd: Simd::detect(),
            free: free_tricks(cards as u32),
        })
    }

    /// What plays the games, for the record of a run: "AVX-512 lanes (8 games at a time)",
    /// "AVX2 lanes (4 games at a time)" or "registers (one game at a time)".
    pub fn describe(&self) -> &'static str {
        match self.simd {
            Simd::Avx512 => "AVX-512 lanes (8 games at a time)",
            Simd::Avx2 => "AVX2 lanes (4 games at a time)",
            Simd::None => "registers (one game at a time)",
        }
    }

    /// The position `first` / `second` in registers.
    ///
    /// # Panics
    ///
    /// If the cards do not fit in 64 bits (their values are only checked in debug builds:
    /// they must be in `1..=max_value`, as given to [`Packed::new`]).
    #[inline]
    pub fn pack(&self, first: &[Card], second: &[Card]) -> PackedDeal {
        // Checked: more cards would silently fall off the registers.
        assert!(
            (first.len() + second.len()) as u32 * self.width <= u64::BITS,
            "{} cards of {} bits do not fit in 64",
            first.len() + second.len(),
            self.width
        );
        debug_assert!(first.iter().chain(second).all(|&c| (1..=self.max_value).contains(&c)));
        PackedDeal {
            first: pack(first, self.width),
            second: pack(second, self.width),
            first_bits: first.len() as u32 * self.width,
            second_bits: second.len() as u32 * self.width,
        }
    }

    /// Plays the deal `first` / `second`: the result if the game ends within the first phase
    /// of [`crate::play_deterministic`] (and within `limits`), exactly as
    /// [`crate::play_deterministic`] gives it (see `From<Finished>`); `None` if it is still
    /// running then, to be played by [`crate::play_deterministic`].
    ///
    /// # Panics
    ///
    /// As [`Packed::pack`].
    ///
    /// ```
    /// use bataille_engine::{Game, GameResult, Limits, Method, Methods, Packed, Scratch};
    /// let (first, second) = ([2, 1, 4, 4, 2, 1, 3, 3], [4, 2, 4, 1, 3, 3, 1, 2]);
    /// for method in [Method::Natural, Method::Optimized] {
    ///     let packed = Packed::new(16, 4, method).unwrap();
    ///     let got: GameResult = packed.play(&first, &second, Limits::DETERMINISTIC).unwrap().into();
    ///     let mut start = Game::default();
    ///     start.set(&first, &second);
    ///     let expected = bataille_engine::play_deterministic(
    ///         &start, Methods::both(method), Limits::DETERMINISTIC, &mut Scratch::default());
    ///     assert_eq!(got, expected);
    /// }
    /// ```
    #[inline]
    pub fn play(&self, first: &[Card], second: &[Card], limits: Limits) -> Option<Finished> {
        self.play_packed(self.pack(first, second), limits)
    }

    /// [`Packed::play`] of a packed position.
    #[inline]
    pub fn play_packed(&self, deal: PackedDeal, limits: Limits) -> Option<Finished> {
        let stop = self.free.min(limits.max_tricks);
        dispatch!(self, play(deal, self.max_value, stop))
    }

    /// [`Packed::play_packed`] for every deal of `deals` into `results` (`results[i]` for
    /// `deals[i]`): in the lanes of vector registers where the processor has them (eight with
    /// AVX-512, four with AVX2), each lane taking the next deal as soon as its game is over,
    /// else one deal after the other.
    ///
    /// # Panics
    ///
    /// If `results` is shorter than `deals`.
    pub fn play_many(
        &self,
        deals: &[PackedDeal],
        limits: Limits,
        results: &mut [Option<Finished>],
    ) {
        assert!(results.len() >= deals.len(), "one result per deal");
        #[cfg(target_arch = "x86_64")]
        if self.simd != Simd::None {
            let stop = self.free.min(limits.max_tricks);
            let v = self.max_value;
            // SAFETY: `simd` names only instructions the processor has (detected at run time).
            unsafe {
                match self.simd {
                    Simd::Avx512 => dispatch!(self, lanes::play_avx512(deals, v, stop, results)),
                    _ => dispatch!(self, lanes::play_avx2(deals, v, stop, results)),
                }
            }
            return;
        }
        for (r, &deal) in results.iter_mut().zip(deals) {
            *r = self.play_packed(deal, limits);
        }
    }
}

/// A hand as a register: the top card in the low `width` bits, each card its value less one.
#[inline(always)]
fn pack(hand: &[Card], width: u32) -> u64 {
    hand.iter().rev().fold(0u64, |h, &card| h << width | u64::from(card - 1))
}

/// The vector instructions the lanes run on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Simd {
    /// None: one game after the other.
    None,
    /// AVX2: four games at a time.
    Avx2,
    /// AVX-512 (F): eight games at a time.
    Avx512,
}

impl Simd {
    /// The best the processor has.
    fn detect() -> Simd {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                return Simd::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                return Simd::Avx2;
            }
        }
        Simd::None
    }
}

/// `value` (a card less one) in every `W`-bit field of a register: the runs of equal cards an
/// optimized pile is laid out from.
#[inline(always)]
const fn repeated<const W: u32>(value: u64) -> u64 {
    let mut r = 0u64;
    let mut shift = 0;
    while shift < u64::BITS {
        r |= value << shift;
        shift += W;
    }
    r
}

/// The end of a game from its hand lengths: `None` while both hands hold cards.
#[inline(always)]
fn ending(first_bits: u64, second_bits: u64) -> Option<Ending> {
    match (first_bits == 0, second_bits == 0) {
        (false, false) => None,
        (true, false) => Some(Ending::SecondWins),
        (false, true) => Some(Ending::FirstWins),
        (true, true) => Some(Ending::Draw),
    }
}

/// [`Packed::play_packed`] with `W` bits a card, natural or optimized (`OPT`) stacking, up to
/// `stop` tricks begun.
///
/// The reveals go in runs as long as the shorter hand, in which no hand runs out (a reveal
/// takes one card of each): nothing in a run branches on the cards.
#[inline(never)]
fn play<const W: u32, const OPT: bool>(
    deal: PackedDeal,
    max_value: Card,
    stop: u64,
) -> Option<Finished> {
    let mask: u64 = (1 << W) - 1;
    let (mut a_hand, mut b_hand) = (deal.first, deal.second);
    let (mut a_bits, mut b_bits) = (deal.first_bits, deal.second_bits);
    // The tied cards of the trick being played: natural, the cards, the last tie in the low
    // bits, two cards each; optimized, how many of each value (8 bits a value).
    let (mut pot, mut pot_bits) = (0u64, 0u32);
    let (mut tricks, mut reveals) = (0u64, 0u64);
    loop {
        // A hand with no card to reveal ends the game, between tricks or in a battle.
        if let Some(ending) = ending(a_bits.into(), b_bits.into()) {
            // At most 32 tricks a card and 64 cards: far below 2^32 reveals.
            return Some(Finished { ending, tricks: tricks as u32, cards: reveals as u32 });
        }
        // A run stops before a trick would begin past `stop`: it reveals at most as many
        // cards as tricks are left.
        let left = stop.saturating_sub(tricks);
        if left == 0 && pot_bits == 0 {
            return None;
        }
        let run = (a_bits.min(b_bits) / W).min(left.clamp(1, u64::from(u32::MAX)) as u32);
        for _ in 0..run {
            let (a, b) = (a_hand & mask, b_hand & mask);
            a_hand >>= W;
            b_hand >>= W;
            a_bits -= W;
            b_bits -= W;
            tricks += u64::from(pot_bits == 0);
            let (tie, first_takes) = (a == b, a > b);
            let keep = u64::from(tie).wrapping_neg();
            // All by value: what the taker receives (nothing goes anywhere on a tie), at the
            // bottom of its hand.
            let won = if OPT {
                let counts = pot + (1 << (8 * a)) + (1 << (8 * b));
                pot = counts & keep;
                optimized_pile::<W>(counts, max_value)
            } else {
                let (hi, lo) = if first_takes { (a, b) } else { (b, a) };
                let won = hi | lo << W | pot << (2 * W);
                pot = (pot << (2 * W) | a | a << W) & keep;
                won
            };
            let won_bits = 2 * W + pot_bits;
            let to_a = u64::from(first_takes).wrapping_neg();
            let to_b = u64::from(!first_takes & !tie).wrapping_neg();
            a_hand |= (won & to_a) << a_bits;
            b_hand |= (won & to_b) << b_bits;
            a_bits += won_bits & to_a as u32;
            b_bits += won_bits & to_b as u32;
            pot_bits = (pot_bits + 2 * W) & keep as u32;
        }
        reveals += u64::from(run);
    }
}

/// The cards counted in `counts` (8 bits a value, the value less one) strongest first, the
/// first in the low bits: an optimized pile.
#[inline(always)]
fn optimized_pile<const W: u32>(counts: u64, max_value: Card) -> u64 {
    let (mut pile, mut at) = (0u64, 0u32);
    for v in (0..u64::from(max_value)).rev() {
        let bits = (counts >> (8 * v) & 0xff) as u32 * W;
        // `bits` ≤ 64 (a whole deck on the table), `at` < 64 before the last run.
        let run = repeated::<W>(v) & 1u64.checked_shl(bits).unwrap_or(0).wrapping_sub(1);
        pile |= run.checked_shl(at).unwrap_or(0);
        at += bits;
    }
    pile
}

/// The games in lanes: [`play`] written for the lanes of AVX2 (four games) or AVX-512 (eight)
/// registers, one reveal of each game per step. A lane whose game has ended (or reached `stop`
/// between tricks) hands its result back and takes the next deal; once the deals run out it
/// stands still.
#[cfg(target_arch = "x86_64")]
mod lanes {
    use std::arch::x86_64::*;

    use super::{Card, Finished, OPTIMIZED_VALUES, PackedDeal, ending, repeated};

    #[cfg(test)]
    thread_local! {
        /// Runs of steps of the four (AVX2) and eight (AVX-512) lanes on this thread, so that
        /// the tests can tell that the lanes they compare did play.
        static STEPS: std::cell::Cell<[u64; 2]> = const { std::cell::Cell::new([0; 2]) };
    }

    /// Counts a run of steps of the `L` lanes (tests only).
    #[inline(always)]
    fn count_steps<const L: usize>() {
        #[cfg(test)]
        STEPS.with(|s| {
            let mut n = s.get();
            n[usize::from(L == 8)] += 1;
            s.set(n);
        });
    }

    /// The runs of steps of the AVX2 and of the AVX-512 lanes on this thread so far.
    #[cfg(test)]
    pub(super) fn steps_run() -> [u64; 2] {
        STEPS.with(std::cell::Cell::get)
    }

    /// The games of `L` lanes between runs of steps, a field for each register.
    #[repr(C, align(64))]
    struct Saved<const L: usize> {
        a_hand: [u64; L],
        b_hand: [u64; L],
        a_bits: [u64; L],
        b_bits: [u64; L],
        pot: [u64; L],
        pot_bits: [u64; L],
        tricks: [u64; L],
        reveals: [u64; L],
        /// All ones in the lanes that play a deal, 0 in the others.
        busy: [u64; L],
    }

    impl<const L: usize> Saved<L> {
        /// Lane `i` starts `deal`.
        fn start(&mut self, i: usize, deal: &PackedDeal) {
            self.a_hand[i] = deal.first;
            self.b_hand[i] = deal.second;
            self.a_bits[i] = deal.first_bits.into();
            self.b_bits[i] = deal.second_bits.into();
            self.pot[i] = 0;
            self.pot_bits[i] = 0;
            self.tricks[i] = 0;
            self.reveals[i] = 0;
            self.busy[i] = u64::MAX;
        }
    }

    /// Plays `deals` into `results` in `L` lanes: `steps` plays the busy lanes until some game
    /// is over and returns the mask of those lanes, which then take the next deals.
    #[inline(always)]
    fn drive<const L: usize>(
        deals: &[PackedDeal],
        results: &mut [Option<Finished>],
        mut steps: impl FnMut(&mut Saved<L>) -> u32,
    ) {
        let zero = [0; L];
        let mut saved = Saved::<L> {
            a_hand: zero,
            b_hand: zero,
            a_bits: zero,
            b_bits: zero,
            pot: zero,
            pot_bits: zero,
            tricks: zero,
            reveals: zero,
            busy: zero,
        };
        let mut playing = [usize::MAX; L];
        for (i, deal) in deals.iter().enumerate().take(L) {
            saved.start(i, deal);
            playing[i] = i;
        }
        let mut next = L.min(deals.len());
        while playing.iter().any(|&d| d != usize::MAX) {
            count_steps::<L>();
            let ended = steps(&mut saved);
            for i in (0..L).filter(|i| ended & (1 << i) != 0) {
                results[playing[i]] =
                    ending(saved.a_bits[i], saved.b_bits[i]).map(|ending| Finished {
                        ending,
                        tricks: saved.tricks[i] as u32,
                        cards: saved.reveals[i] as u32,
                    });
                if let Some(deal) = deals.get(next) {
                    saved.start(i, deal);
                    playing[i] = next;
                    next += 1;
                } else {
                    saved.busy[i] = 0;
                    playing[i] = usize::MAX;
                }
            }
        }
    }

    /// Plays `deals` with `W` bits a card, natural or optimized (`OPT`) stacking, up to `stop`
    /// tricks begun, into `results`, four lanes at a time.
    #[target_feature(enable = "avx2")]
    pub(super) fn play_avx2<const W: u32, const OPT: bool>(
        deals: &[PackedDeal],
        max_value: Card,
        stop: u64,
        results: &mut [Option<Finished>],
    ) {
        let mut runs =
            [(_mm256_setzero_si256(), _mm256_setzero_si256()); OPTIMIZED_VALUES as usize];
        for (v, run) in runs.iter_mut().enumerate() {
            *run = (
                _mm256_set1_epi64x(8 * v as i64),
                _mm256_set1_epi64x(repeated::<W>(v as u64) as i64),
            );
        }
        let runs = &runs[..if OPT { max_value.into() } else { 0 }];
        drive::<4>(deals, results, |saved| steps_avx2::<W, OPT>(saved, runs, stop));
    }

    /// [`play_avx2`] in the eight lanes of AVX-512 registers.
    #[target_feature(enable = "avx512f")]
    pub(super) fn play_avx512<const W: u32, const OPT: bool>(
        deals: &[PackedDeal],
        max_value: Card,
        stop: u64,
        results: &mut [Option<Finished>],
    ) {
        let mut runs =
            [(_mm512_setzero_si512(), _mm512_setzero_si512()); OPTIMIZED_VALUES as usize];
        for (v, run) in runs.iter_mut().enumerate() {
            *run = (
                _mm512_set1_epi64(8 * v as i64),
                _mm512_set1_epi64(repeated::<W>(v as u64) as i64),
            );
        }
        let runs = &runs[..if OPT { max_value.into() } else { 0 }];
        drive::<8>(deals, results, |saved| steps_avx512::<W, OPT>(saved, runs, stop));
    }

    /// Plays one reveal after the other in every busy lane of `saved` until a lane's game is
    /// over: the mask of those lanes. `runs` holds the optimized piles' constants by value:
    /// where its count is, its cards (see `optimized_pile`).
    #[target_feature(enable = "avx2")]
    fn steps_avx2<const W: u32, const OPT: bool>(
        saved: &mut Saved<4>,
        runs: &[(__m256i, __m256i)],
        stop: u64,
    ) -> u32 {
        let w = _mm256_set1_epi64x(W.into());
        let two_w = _mm256_set1_epi64x(2 * i64::from(W));
        let mask = _mm256_set1_epi64x((1i64 << W) - 1);
        let zero = _mm256_setzero_si256();
        let one = _mm256_set1_epi64x(1);
        let byte = _mm256_set1_epi64x(0xff);
        let last_trick = _mm256_set1_epi64x(stop.min(i64::MAX as u64) as i64 - 1);
        // SAFETY: each field of `Saved` is 32 bytes, aligned by its representation.
        let load = |a: &[u64; 4]| unsafe { _mm256_load_si256(a.as_ptr().cast()) };
        let active = load(&saved.busy);
        let mut a_hand = load(&saved.a_hand);
        let mut b_hand = load(&saved.b_hand);
        let mut a_bits = load(&saved.a_bits);
        let mut b_bits = load(&saved.b_bits);
        let mut pot = load(&saved.pot);
        let mut pot_bits = load(&saved.pot_bits);
        let mut tricks = load(&saved.tricks);
        let mut reveals = load(&saved.reveals);
        let ended = loop {
            // A lane's game is over when a hand has no card to reveal, or between tricks at
            // `stop` (tricks > stop - 1, in signed lanes: the counts are small).
            let empty =
                _mm256_or_si256(_mm256_cmpeq_epi64(a_bits, zero), _mm256_cmpeq_epi64(b_bits, zero));
            let at_stop = _mm256_and_si256(
                _mm256_cmpeq_epi64(pot_bits, zero),
                _mm256_cmpgt_epi64(tricks, last_trick),
            );
            let ended = _mm256_and_si256(_mm256_or_si256(empty, at_stop), active);
            if _mm256_movemask_pd(_mm256_castsi256_pd(ended)) != 0 {
                break ended;
            }
            let a = _mm256_and_si256(a_hand, mask);
            let b = _mm256_and_si256(b_hand, mask);
            a_hand = _mm256_srlv_epi64(a_hand, w);
            b_hand = _mm256_srlv_epi64(b_hand, w);
            let taken = _mm256_and_si256(active, w);
            a_bits = _mm256_sub_epi64(a_bits, taken);
            b_bits = _mm256_sub_epi64(b_bits, taken);
            // Counts go up by one (minus a lane of all ones) in the active lanes.
            let begins = _mm256_and_si256(_mm256_cmpeq_epi64(pot_bits, zero), active);
            tricks = _mm256_sub_epi64(tricks, begins);
            reveals = _mm256_sub_epi64(reveals, active);
            let tie = _mm256_cmpeq_epi64(a, b);
            let first_takes = _mm256_cmpgt_epi64(a, b);
            let won = if OPT {
                let counts = _mm256_add_epi64(
                    pot,
                    _mm256_add_epi64(
                        _mm256_sllv_epi64(one, _mm256_slli_epi64::<3>(a)),
                        _mm256_sllv_epi64(one, _mm256_slli_epi64::<3>(b)),
                    ),
                );
                pot = _mm256_and_si256(counts, tie);
                let mut pile = zero;
                let mut at = zero;
                for &(shift, cards) in runs.iter().rev() {
                    let count = _mm256_and_si256(_mm256_srlv_epi64(counts, shift), byte);
                    let bits = _mm256_mul_epu32(count, w);
                    let ones = _mm256_sub_epi64(_mm256_sllv_epi64(one, bits), one);
                    pile =
                        _mm256_or_si256(pile, _mm256_sllv_epi64(_mm256_and_si256(cards, ones), at));
                    at = _mm256_add_epi64(at, bits);
                }
                pile
            } else {
                let hi = _mm256_blendv_epi8(b, a, first_takes);
                let lo = _mm256_blendv_epi8(a, b, first_takes);
                let pot_up = _mm256_sllv_epi64(pot, two_w);
                let won = _mm256_or_si256(_mm256_or_si256(hi, _mm256_sllv_epi64(lo, w)), pot_up);
                let tied = _mm256_or_si256(_mm256_or_si256(pot_up, a), _mm256_sllv_epi64(a, w));
                pot = _mm256_and_si256(tied, tie);
                won
            };
            let won_bits = _mm256_add_epi64(pot_bits, two_w);
            let to_a = _mm256_and_si256(first_takes, active);
            let to_b = _mm256_andnot_si256(_mm256_or_si256(first_takes, tie), active);
            a_hand =
                _mm256_or_si256(a_hand, _mm256_sllv_epi64(_mm256_and_si256(won, to_a), a_bits));
            b_hand =
                _mm256_or_si256(b_hand, _mm256_sllv_epi64(_mm256_and_si256(won, to_b), b_bits));
            a_bits = _mm256_add_epi64(a_bits, _mm256_and_si256(won_bits, to_a));
            b_bits = _mm256_add_epi64(b_bits, _mm256_and_si256(won_bits, to_b));
            pot_bits = _mm256_and_si256(_mm256_add_epi64(pot_bits, two_w), tie);
        };
        // SAFETY: as `load`.
        let store =
            |a: &mut [u64; 4], v: __m256i| unsafe { _mm256_store_si256(a.as_mut_ptr().cast(), v) };
        store(&mut saved.a_hand, a_hand);
        store(&mut saved.b_hand, b_hand);
        store(&mut saved.a_bits, a_bits);
        store(&mut saved.b_bits, b_bits);
        store(&mut saved.pot, pot);
        store(&mut saved.pot_bits, pot_bits);
        store(&mut saved.tricks, tricks);
        store(&mut saved.reveals, reveals);
        _mm256_movemask_pd(_mm256_castsi256_pd(ended)) as u32
    }

    /// [`steps_avx2`] in eight lanes, the lanes' conditions in mask registers: a taker's hand,
    /// the counts and the pot change only in the lanes a mask selects.
    #[target_feature(enable = "avx512f")]
    fn steps_avx512<const W: u32, const OPT: bool>(
        saved: &mut Saved<8>,
        runs: &[(__m512i, __m512i)],
        stop: u64,
    ) -> u32 {
        let w = _mm512_set1_epi64(W.into());
        let two_w = _mm512_set1_epi64(2 * i64::from(W));
        let mask = _mm512_set1_epi64((1i64 << W) - 1);
        let zero = _mm512_setzero_si512();
        let one = _mm512_set1_epi64(1);
        let byte = _mm512_set1_epi64(0xff);
        let last_trick = _mm512_set1_epi64(stop.min(i64::MAX as u64) as i64 - 1);
        // SAFETY: each field of `Saved` is 64 bytes, aligned by its representation.
        let load = |a: &[u64; 8]| unsafe { _mm512_load_si512(a.as_ptr().cast()) };
        let active: __mmask8 = _mm512_cmpneq_epi64_mask(load(&saved.busy), zero);
        let mut a_hand = load(&saved.a_hand);
        let mut b_hand = load(&saved.b_hand);
        let mut a_bits = load(&saved.a_bits);
        let mut b_bits = load(&saved.b_bits);
        let mut pot = load(&saved.pot);
        let mut pot_bits = load(&saved.pot_bits);
        let mut tricks = load(&saved.tricks);
        let mut reveals = load(&saved.reveals);
        let ended = loop {
            // As `steps_avx2`: a hand with no card, or `stop` reached between tricks.
            let between = _mm512_cmpeq_epi64_mask(pot_bits, zero);
            let empty =
                _mm512_cmpeq_epi64_mask(a_bits, zero) | _mm512_cmpeq_epi64_mask(b_bits, zero);
            let at_stop = _mm512_mask_cmpgt_epi64_mask(between, tricks, last_trick);
            let ended = (empty | at_stop) & active;
            if ended != 0 {
                break ended;
            }
            let a = _mm512_and_si512(a_hand, mask);
            let b = _mm512_and_si512(b_hand, mask);
            a_hand = _mm512_srlv_epi64(a_hand, w);
            b_hand = _mm512_srlv_epi64(b_hand, w);
            a_bits = _mm512_mask_sub_epi64(a_bits, active, a_bits, w);
            b_bits = _mm512_mask_sub_epi64(b_bits, active, b_bits, w);
            tricks = _mm512_mask_add_epi64(tricks, between & active, tricks, one);
            reveals = _mm512_mask_add_epi64(reveals, active, reveals, one);
            let tie = _mm512_cmpeq_epi64_mask(a, b);
            let to_a = _mm512_mask_cmpgt_epi64_mask(active, a, b);
            let to_b = _mm512_mask_cmpgt_epi64_mask(active, b, a);
            let won = if OPT {
                let counts = _mm512_add_epi64(
                    pot,
                    _mm512_add_epi64(
                        _mm512_sllv_epi64(one, _mm512_slli_epi64::<3>(a)),
                        _mm512_sllv_epi64(one, _mm512_slli_epi64::<3>(b)),
                    ),
                );
                pot = _mm512_maskz_mov_epi64(tie, counts);
                let mut pile = zero;
                let mut at = zero;
                for &(shift, cards) in runs.iter().rev() {
                    let count = _mm512_and_si512(_mm512_srlv_epi64(counts, shift), byte);
                    let bits = _mm512_mul_epu32(count, w);
                    let ones = _mm512_sub_epi64(_mm512_sllv_epi64(one, bits), one);
                    pile =
                        _mm512_or_si512(pile, _mm512_sllv_epi64(_mm512_and_si512(cards, ones), at));
                    at = _mm512_add_epi64(at, bits);
                }
                pile
            } else {
                let hi = _mm512_max_epu64(a, b);
                let lo = _mm512_min_epu64(a, b);
                let pot_up = _mm512_sllv_epi64(pot, two_w);
                let won = _mm512_or_si512(_mm512_or_si512(hi, _mm512_sllv_epi64(lo, w)), pot_up);
                let tied = _mm512_or_si512(_mm512_or_si512(pot_up, a), _mm512_sllv_epi64(a, w));
                pot = _mm512_maskz_mov_epi64(tie, tied);
                won
            };
            let won_bits = _mm512_add_epi64(pot_bits, two_w);
            a_hand = _mm512_mask_or_epi64(a_hand, to_a, a_hand, _mm512_sllv_epi64(won, a_bits));
            b_hand = _mm512_mask_or_epi64(b_hand, to_b, b_hand, _mm512_sllv_epi64(won, b_bits));
            a_bits = _mm512_mask_add_epi64(a_bits, to_a, a_bits, won_bits);
            b_bits = _mm512_mask_add_epi64(b_bits, to_b, b_bits, won_bits);
            pot_bits = _mm512_maskz_mov_epi64(tie, won_bits);
        };
        // SAFETY: as `load`.
        let store =
            |a: &mut [u64; 8], v: __m512i| unsafe { _mm512_store_si512(a.as_mut_ptr().cast(), v) };
        store(&mut saved.a_hand, a_hand);
        store(&mut saved.b_hand, b_hand);
        store(&mut saved.a_bits, a_bits);
        store(&mut saved.b_bits, b_bits);
        store(&mut saved.pot, pot);
        store(&mut saved.pot_bits, pot_bits);
        store(&mut saved.tricks, tricks);
        store(&mut saved.reveals, reveals);
        u32::from(ended)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "x86_64")]
    use crate::packed::lanes::steps_run;
    use crate::{Game, Methods, Scratch, play_deterministic};

    /// No lanes without x86-64.
    #[cfg(not(target_arch = "x86_64"))]
    fn steps_run() -> [u64; 2] {
        [0; 2]
    }

    const METHODS: [Method; 2] = [Method::Natural, Method::Optimized];

    fn reference(first: &[Card], second: &[Card], method: Method, limits: Limits) -> GameResult {
        let mut g = Game::default();
        g.set(first, second);
        play_deterministic(&g, Methods::both(method), limits, &mut Scratch::default())
    }

    /// A game handed back had not ended before its first phase (or its cap) was over.
    fn still_running(packed: &Packed, expected: GameResult, limits: Limits) -> bool {
        !expected.outcome.is_finished() || expected.tricks >= packed.free.min(limits.max_tricks)
    }

    fn deck(c: usize, v: usize) -> Vec<Card> {
        (1..=v as Card).flat_map(|x| std::iter::repeat_n(x, c)).collect()
    }

    #[test]
    fn which_decks_fit() {
        let width = |cards, v, m| Packed::new(cards, v, m).map(|p| p.width);
        for m in METHODS {
            assert_eq!(width(16, 4, m), Some(2));
            assert_eq!(width(20, 5, m), Some(3));
            assert_eq!(width(21, 5, m), Some(3));
            assert_eq!(width(22, 5, m), None);
            assert_eq!(width(24, 6, m), None);
            assert_eq!(width(64, 2, m), Some(1));
            assert_eq!(width(3, 1, m), Some(1));
            assert_eq!(width(0, 1, m), None);
            assert_eq!(width(16, 8, m), Some(3));
        }
        let natural = |cards, v| width(cards, v, Method::Natural);
        assert_eq!(natural(16, 16), Some(4));
        assert_eq!(natural(17, 16), None);
        assert_eq!(natural(9, 64), Some(6));
        assert_eq!(natural(8, 65), None);
        // An optimized pot counts at most 8 values.
        assert_eq!(width(9, 9, Method::Optimized), None);
        assert_eq!(width(16, 4, Method::Random), None);
        assert_eq!(width(16, 4, Method::Ascending), None);
    }

    #[test]
    #[should_panic(expected = "40 cards of 2 bits do not fit in 64")]
    fn too_many_cards_panic() {
        let packed = Packed::new(16, 4, Method::Natural).unwrap();
        packed.play(&[1; 20], &[2; 20], Limits::DETERMINISTIC);
    }

    /// The optimized pile of a battle: every card strongest first, the first in the low bits.
    #[test]
    fn optimized_piles() {
        let pile = |cards: &[u64]| {
            let counts = cards.iter().map(|&c| 1u64 << (8 * (c - 1))).sum();
            let bits = optimized_pile::<3>(counts, 8);
            (0..cards.len()).map(|i| (bits >> (3 * i) & 7) + 1).collect::<Vec<_>>()
        };
        assert_eq!(pile(&[2, 5]), [5, 2]);
        assert_eq!(pile(&[3, 3, 1, 1, 8, 4]), [8, 4, 3, 3, 1, 1]);
        assert_eq!(pile(&[]), [0u64; 0]);
        // A whole deck of 64 one-bit cards.
        assert_eq!(optimized_pile::<1>(64 << 8, 2), u64::MAX);
        assert_eq!(optimized_pile::<1>(32 << 8 | 32, 2), u64::from(u32::MAX));
    }

    /// Every deal of small decks, split as the searches split them: the same result as the
    /// engine, or `None` exactly when the engine's first phase does not end the game either.
    #[test]
    fn every_small_deal_equals_the_engine() {
        for method in METHODS {
            for (c, v) in [(4, 3), (1, 9), (2, 5), (3, 3), (2, 4), (1, 1), (3, 1), (2, 2), (2, 8)] {
                let mut deck = deck(c, v);
                let Some(packed) = Packed::new(deck.len(), v as Card, method) else {
                    assert!(method == Method::Optimized && v > 8);
                    continue;
                };
                let half = deck.len() / 2;
                let mut handed_back = 0;
                let mut deals = 0;
                loop {
                    let (a, b) = deck.split_at(half);
                    let expected = reference(a, b, method, Limits::DETERMINISTIC);
                    match packed.play(a, b, Limits::DETERMINISTIC) {
                        Some(got) => assert_eq!(GameResult::from(got), expected, "{a:?} / {b:?}"),
                        None => {
                            assert!(still_running(&packed, expected, Limits::DETERMINISTIC));
                            handed_back += 1;
                        }
                    }
                    deals += 1;
                    // C=2 V=8 has 2.5 million deals: the first 200,000.
                    let Some(i) = deck.windows(2).rposition(|w| w[0] < w[1]) else { break };
                    if deals == 200_000 {
                        break;
                    }
                    let j = deck.iter().rposition(|&x| x > deck[i]).unwrap();
                    deck.swap(i, j);
                    deck[i + 1..].reverse();
                }
                // The natural loops of C=4 V=3 and C=1 V=9 are handed back.
                if method == Method::Natural && ((c, v) == (4, 3) || (c, v) == (1, 9)) {
                    assert!(handed_back > 0, "C={c} V={v} {method}");
                }
            }
        }
    }

    /// Runs of deals of every length, consecutive deals of small decks and random deals with
    /// uneven splits and caps: the lanes (each taking the next deal when its game is over)
    /// give what one game at a time gives, in the order of the deals.
    #[test]
    fn many_at_once_equal_one_at_a_time() {
        use rand::seq::SliceRandom;
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(4);
        for method in METHODS {
            for (c, v) in [(4, 3), (2, 4), (3, 3), (4, 4), (4, 5), (32, 2), (2, 8), (1, 8)] {
                let mut deck = deck(c, v);
                let packed = Packed::new(deck.len(), v as Card, method).unwrap();
                for i in 0..400 {
                    let n = i % 41;
                    let limits = match i % 7 {
                        0 => Limits { max_tricks: rng.random_range(0..30) },
                        _ => Limits::DETERMINISTIC,
                    };
                    let mut deals = Vec::new();
                    for _ in 0..n {
                        deck.shuffle(&mut rng);
                        let split = if i % 5 == 0 {
                            rng.random_range(0..=deck.len())
                        } else {
                            deck.len() / 2
                        };
                        deals.push(packed.pack(&deck[..split], &deck[split..]));
                    }
                    // Every kind of lanes the processor has, and one game at a time.
                    for simd in [Simd::None, Simd::Avx2, Simd::Avx512] {
                        if simd > packed.simd {
                            continue;
                        }
                        let p = Packed { simd, ..packed };
                        let mut got = vec![None; n + 1];
                        let before = steps_run();
                        p.play_many(&deals, limits, &mut got);
                        let ran = [Simd::Avx2, Simd::Avx512].map(|kind| {
                            let k = usize::from(kind == Simd::Avx512);
                            steps_run()[k] > before[k]
                        });
                        // Those lanes played (when there was a deal), and no others.
                        let lanes = n > 0 && simd != Simd::None;
                        assert_eq!(
                            ran,
                            [lanes && simd == Simd::Avx2, lanes && simd == Simd::Avx512]
                        );
                        for (k, &deal) in deals.iter().enumerate() {
                            assert_eq!(got[k], packed.play_packed(deal, limits), "{deal:?}");
                        }
                        assert_eq!(got[n], None);
                    }
                }
            }
        }
        // Where the processor has the instructions, their lanes were among those compared.
        let [avx2, avx512] = steps_run();
        #[cfg(target_arch = "x86_64")]
        {
            let has_avx512 = std::arch::is_x86_feature_detected!("avx512f");
            let has_avx2 = std::arch::is_x86_feature_detected!("avx2") || has_avx512;
            assert_eq!(avx2 > 0, has_avx2, "{avx2} runs of AVX2 steps");
            assert_eq!(avx512 > 0, has_avx512, "{avx512} runs of AVX-512 steps");
        }
        #[cfg(not(target_arch = "x86_64"))]
        assert_eq!((avx2, avx512), (0, 0));
    }

    /// The lanes run where the processor has them (the tests above then check them).
    #[test]
    fn lanes_run_where_the_processor_has_them() {
        let packed = Packed::new(20, 5, Method::Natural).unwrap();
        #[cfg(target_arch = "x86_64")]
        {
            let avx512 = std::arch::is_x86_feature_detected!("avx512f");
            let avx2 = std::arch::is_x86_feature_detected!("avx2");
            assert_eq!(packed.simd == Simd::Avx512, avx512);
            assert_eq!(packed.simd >= Simd::Avx2, avx2 || avx512);
        }
        #[cfg(not(target_arch = "x86_64"))]
        assert_eq!(packed.simd, Simd::None);
    }

    /// Random deals of the largest decks that fit, with and without caps, and uneven splits.
    #[test]
    fn random_deals_equal_the_engine() {
        use rand::seq::SliceRandom;
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(64);
        for method in METHODS {
            for (c, v) in [(4, 4), (4, 5), (1, 16), (2, 8), (3, 7), (32, 2), (8, 2)] {
                let mut deck = deck(c, v);
                let Some(packed) = Packed::new(deck.len(), v as Card, method) else {
                    assert!(method == Method::Optimized && v > 8);
                    continue;
                };
                let (mut finished, mut handed_back) = (0, 0);
                for i in 0..20_000 {
                    deck.shuffle(&mut rng);
                    let split =
                        if i % 3 == 0 { rng.random_range(0..=deck.len()) } else { deck.len() / 2 };
                    let limits = match i % 50 {
                        0 => Limits { max_tricks: 0 },
                        1 => Limits { max_tricks: rng.random_range(1..40) },
                        _ => Limits::DETERMINISTIC,
                    };
                    let (a, b) = deck.split_at(split);
                    let expected = reference(a, b, method, limits);
                    match packed.play(a, b, limits) {
                        Some(got) => {
                            assert_eq!(GameResult::from(got), expected, "{a:?} / {b:?} {limits:?}");
                            finished += 1;
                        }
                        None => {
                            assert!(still_running(&packed, expected, limits), "{a:?} / {b:?}");
                            handed_back += 1;
                        }
                    }
                }
                assert!(finished > 1_000, "C={c} V={v}: {finished} finished, {handed_back} not");
            }
        }
    }
}
