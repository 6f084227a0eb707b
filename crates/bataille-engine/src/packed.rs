//! Natural games of small decks with each hand held in one 64-bit register.
//!
//! When a deck's `N` cards fit in 64 bits at `w` bits a card (`N · w ≤ 64`, `w` the bits of the
//! largest value: the C=4 V=4 and V=5 decks, C=2 up to V=8, C=1 up to V=16), a hand is a `u64`
//! whose low `w` bits are its top card. A reveal is then a mask and a shift of each hand, and
//! the taker's cards are one OR at the bottom of its hand: no memory is touched, and no branch
//! depends on the cards. A tie keeps its two cards in a register (the *pot*) and the trick goes on; the
//! reveal that settles it adds, at the taker's bottom, the higher card, the lower one, then the
//! tied pairs from the last back, which is natural stacking ([`crate::Method::Natural`]).
//!
//! [`PackedNatural::play_lanes`] plays four deals at once, one in each 64-bit lane of an AVX2
//! register, where the processor has them (detected at run time): the same steps on four games,
//! a lane whose game has ended standing still until the last one ends.
//!
//! Only the first phase of [`crate::play_deterministic`] is played this way: a game still
//! running after it is left to [`crate::play_deterministic`] (Brent's algorithm), so every
//! answer is the engine's.

use crate::game::Ending;
use crate::play::{GameResult, Limits, free_tricks};
use crate::spec::Card;

/// A game [`PackedNatural`] played to its end: small enough to come back in registers.
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

/// A deck's natural games played in registers (see the [module](self) documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PackedNatural {
    /// Bits per card.
    width: u32,
    /// Whether [`PackedNatural::play_lanes`] may use AVX2 (detected at run time).
    avx2: bool,
    /// Tricks begun before the game is handed back: as many as the first phase of
    /// [`crate::play_deterministic`] plays reveals.
    free: u64,
}

impl PackedNatural {
    /// For deals of `cards` cards of values `1..=max_value`, `None` when a hand of all the cards
    /// does not fit in 64 bits (or a card needs more than 6 bits).
    pub fn new(cards: usize, max_value: Card) -> Option<PackedNatural> {
        let width = (u32::BITS - u32::from(max_value.max(2) - 1).leading_zeros()).max(1);
        (width <= 6 && cards as u32 * width <= u64::BITS && cards > 0).then(|| PackedNatural {
            width,
            avx2: has_avx2(),
            free: free_tricks(cards as u32),
        })
    }

    /// Plays the deal `first` / `second` with natural stacking for both players: the result if
    /// the game ends within the first phase of [`crate::play_deterministic`] (and within
    /// `limits`), exactly as [`crate::play_deterministic`] gives it (see `From<Finished>`);
    /// `None` if it is still running then, to be played by [`crate::play_deterministic`].
    ///
    /// The cards must be in `1..=max_value` and number `cards` in all, as given to
    /// [`PackedNatural::new`].
    ///
    /// # Panics
    ///
    /// If the cards do not fit in 64 bits (their values are only checked in debug builds).
    ///
    /// ```
    /// use bataille_engine::{Game, GameResult, Limits, Method, Methods, PackedNatural, Scratch};
    /// let (first, second) = ([2, 1, 4, 4, 2, 1, 3, 3], [4, 2, 4, 1, 3, 3, 1, 2]);
    /// let packed = PackedNatural::new(16, 4).unwrap();
    /// let got: GameResult = packed.play(&first, &second, Limits::DETERMINISTIC).unwrap().into();
    /// let mut start = Game::default();
    /// start.set(&first, &second);
    /// let methods = Methods::both(Method::Natural);
    /// let expected = bataille_engine::play_deterministic(
    ///     &start, methods, Limits::DETERMINISTIC, &mut Scratch::default());
    /// assert_eq!(got, expected);
    /// ```
    #[inline]
    pub fn play(&self, first: &[Card], second: &[Card], limits: Limits) -> Option<Finished> {
        // Checked: more cards would silently fall off the registers.
        assert!(
            (first.len() + second.len()) as u32 * self.width <= u64::BITS,
            "{} cards of {} bits do not fit in 64",
            first.len() + second.len(),
            self.width
        );
        debug_assert!(
            first
                .iter()
                .chain(second)
                .all(|&c| u32::from(c).saturating_sub(1) >> self.width == 0 && c > 0)
        );
        let stop = self.free.min(limits.max_tricks);
        match self.width {
            1 => play::<1>(first, second, stop),
            2 => play::<2>(first, second, stop),
            3 => play::<3>(first, second, stop),
            4 => play::<4>(first, second, stop),
            5 => play::<5>(first, second, stop),
            _ => play::<6>(first, second, stop),
        }
    }
}

/// Deals played together by [`PackedNatural::play_lanes`].
pub const LANES: usize = 4;

impl PackedNatural {
    /// [`PackedNatural::play`] for up to [`LANES`] deals at once, in the lanes of one AVX2
    /// register when the processor has them (four games a reveal, with no branch on the cards),
    /// else one after the other. `results[i]` is `play(deals[i].0, deals[i].1, limits)`.
    ///
    /// # Panics
    ///
    /// If `deals` holds more than [`LANES`] deals or a deal does not fit in 64 bits.
    pub fn play_lanes(
        &self,
        deals: &[(&[Card], &[Card])],
        limits: Limits,
        results: &mut [Option<Finished>; LANES],
    ) {
        assert!(deals.len() <= LANES, "at most {LANES} deals at once");
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            let stop = self.free.min(limits.max_tricks);
            let mut hands = [(0u64, 0u64, 0u32, 0u32); LANES];
            for (h, &(first, second)) in hands.iter_mut().zip(deals) {
                let bits = (first.len() + second.len()) as u32 * self.width;
                assert!(bits <= u64::BITS, "cards of {} bits do not fit in 64", self.width);
                *h = (
                    pack(first, self.width),
                    pack(second, self.width),
                    first.len() as u32 * self.width,
                    second.len() as u32 * self.width,
                );
            }
            // SAFETY: `avx2` is set only where the processor has AVX2.
            unsafe { lanes::play(&hands, deals.len(), self.width, stop, results) };
            return;
        }
        for (r, &(first, second)) in results.iter_mut().zip(deals) {
            *r = self.play(first, second, limits);
        }
    }
}

/// A hand as a register: the top card in the low `width` bits, each card its value less one.
#[inline(always)]
fn pack(hand: &[Card], width: u32) -> u64 {
    hand.iter().rev().fold(0u64, |h, &card| h << width | u64::from(card - 1))
}

fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The four-lane game: [`play`] written for the lanes of an AVX2 register, one reveal of each
/// game per step. A lane whose game has ended (or reached `stop` between tricks) stops counting
/// and keeps its hand lengths, from which its result is read at the end.
#[cfg(target_arch = "x86_64")]
mod lanes {
    use std::arch::x86_64::*;

    use super::{Ending, Finished, LANES};

    /// Plays the first `used` of `hands` (packed hands and their lengths in bits) with `width`
    /// bits a card, up to `stop` tricks begun.
    ///
    /// # Safety
    ///
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn play(
        hands: &[(u64, u64, u32, u32); LANES],
        used: usize,
        width: u32,
        stop: u64,
        results: &mut [Option<Finished>; LANES],
    ) {
        let lane = |f: fn(&(u64, u64, u32, u32)) -> u64| {
            _mm256_set_epi64x(
                f(&hands[3]) as i64,
                f(&hands[2]) as i64,
                f(&hands[1]) as i64,
                f(&hands[0]) as i64,
            )
        };
        let mut a_hand = lane(|h| h.0);
        let mut b_hand = lane(|h| h.1);
        let mut a_bits = lane(|h| u64::from(h.2));
        let mut b_bits = lane(|h| u64::from(h.3));
        let w = _mm256_set1_epi64x(i64::from(width));
        let two_w = _mm256_set1_epi64x(2 * i64::from(width));
        let mask = _mm256_set1_epi64x((1i64 << width) - 1);
        let zero = _mm256_setzero_si256();
        let last_trick = _mm256_set1_epi64x(stop.min(i64::MAX as u64) as i64 - 1);
        let mut pot = zero;
        let mut pot_bits = zero;
        let mut tricks = zero;
        let mut reveals = zero;
        let used_lanes = [0, 1, 2, 3].map(|i| if i < used { -1i64 } else { 0 });
        let mut active =
            _mm256_set_epi64x(used_lanes[3], used_lanes[2], used_lanes[1], used_lanes[0]);
        loop {
            // A lane stops for good when a hand has no card to reveal, or between tricks at
            // `stop` (tricks > stop - 1, in signed lanes: the counts are small).
            let empty =
                _mm256_or_si256(_mm256_cmpeq_epi64(a_bits, zero), _mm256_cmpeq_epi64(b_bits, zero));
            let at_stop = _mm256_and_si256(
                _mm256_cmpeq_epi64(pot_bits, zero),
                _mm256_cmpgt_epi64(tricks, last_trick),
            );
            active = _mm256_andnot_si256(_mm256_or_si256(empty, at_stop), active);
            if _mm256_movemask_pd(_mm256_castsi256_pd(active)) == 0 {
                break;
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
            let hi = _mm256_blendv_epi8(b, a, first_takes);
            let lo = _mm256_blendv_epi8(a, b, first_takes);
            let won = _mm256_or_si256(
                _mm256_or_si256(hi, _mm256_sllv_epi64(lo, w)),
                _mm256_sllv_epi64(pot, two_w),
            );
            let won_bits = _mm256_add_epi64(pot_bits, two_w);
            let to_a = _mm256_and_si256(first_takes, active);
            let to_b = _mm256_andnot_si256(_mm256_or_si256(first_takes, tie), active);
            a_hand =
                _mm256_or_si256(a_hand, _mm256_sllv_epi64(_mm256_and_si256(won, to_a), a_bits));
            b_hand =
                _mm256_or_si256(b_hand, _mm256_sllv_epi64(_mm256_and_si256(won, to_b), b_bits));
            a_bits = _mm256_add_epi64(a_bits, _mm256_and_si256(won_bits, to_a));
            b_bits = _mm256_add_epi64(b_bits, _mm256_and_si256(won_bits, to_b));
            let tied = _mm256_or_si256(
                _mm256_or_si256(_mm256_sllv_epi64(pot, two_w), a),
                _mm256_sllv_epi64(a, w),
            );
            pot = _mm256_and_si256(tied, tie);
            pot_bits = _mm256_and_si256(_mm256_add_epi64(pot_bits, two_w), tie);
        }
        let get = |v: __m256i| -> [u64; LANES] {
            let mut out = [0u64; LANES];
            // SAFETY: `out` is 32 bytes, an unaligned store is allowed.
            unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), v) };
            out
        };
        let (a_bits, b_bits, tricks, reveals) =
            (get(a_bits), get(b_bits), get(tricks), get(reveals));
        for i in 0..used {
            let ending = match (a_bits[i] == 0, b_bits[i] == 0) {
                (false, false) => None,
                (true, false) => Some(Ending::SecondWins),
                (false, true) => Some(Ending::FirstWins),
                (true, true) => Some(Ending::Draw),
            };
            results[i] = ending.map(|ending| Finished {
                ending,
                tricks: tricks[i] as u32,
                cards: reveals[i] as u32,
            });
        }
    }
}

/// [`PackedNatural::play`] with `W` bits a card, up to `stop` tricks begun.
///
/// The reveals go in runs as long as the shorter hand, in which no hand runs out (a reveal
/// takes one card of each): nothing in a run branches on the cards.
#[inline(never)]
fn play<const W: u32>(first: &[Card], second: &[Card], stop: u64) -> Option<Finished> {
    let mask: u64 = (1 << W) - 1;
    let (mut a_hand, mut b_hand) = (pack(first, W), pack(second, W));
    let (mut a_bits, mut b_bits) = (first.len() as u32 * W, second.len() as u32 * W);
    // The tied cards of the trick being played, the last tie in the low bits, two cards each.
    let (mut pot, mut pot_bits) = (0u64, 0u32);
    let (mut tricks, mut reveals) = (0u64, 0u64);
    loop {
        // A hand with no card to reveal ends the game, between tricks or in a battle.
        let outcome = match (a_bits == 0, b_bits == 0) {
            (false, false) => None,
            (true, false) => Some(Ending::SecondWins),
            (false, true) => Some(Ending::FirstWins),
            (true, true) => Some(Ending::Draw),
        };
        if let Some(ending) = outcome {
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
            // All by value: what the taker receives, higher card first (nothing goes
            // anywhere on a tie), at the bottom of its hand.
            let (hi, lo) = if first_takes { (a, b) } else { (b, a) };
            let won = hi | lo << W | pot << (2 * W);
            let won_bits = 2 * W + pot_bits;
            let to_a = u64::from(first_takes).wrapping_neg();
            let to_b = u64::from(!first_takes & !tie).wrapping_neg();
            a_hand |= (won & to_a) << a_bits;
            b_hand |= (won & to_b) << b_bits;
            a_bits += won_bits & to_a as u32;
            b_bits += won_bits & to_b as u32;
            let keep = u64::from(tie).wrapping_neg();
            pot = (pot << (2 * W) | a | a << W) & keep;
            pot_bits = (pot_bits + 2 * W) & keep as u32;
        }
        reveals += u64::from(run);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Game, Method, Methods, Scratch, play_deterministic};

    fn reference(first: &[Card], second: &[Card], limits: Limits) -> GameResult {
        let mut g = Game::default();
        g.set(first, second);
        let methods = Methods::both(Method::Natural);
        play_deterministic(&g, methods, limits, &mut Scratch::default())
    }

    /// A game handed back had not ended before its first phase (or its cap) was over.
    fn still_running(packed: &PackedNatural, expected: GameResult, limits: Limits) -> bool {
        !expected.outcome.is_finished() || expected.tricks >= packed.free.min(limits.max_tricks)
    }

    #[test]
    fn which_decks_fit() {
        let width = |cards, v| PackedNatural::new(cards, v).map(|p| p.width);
        assert_eq!(width(16, 4), Some(2));
        assert_eq!(width(20, 5), Some(3));
        assert_eq!(width(21, 5), Some(3));
        assert_eq!(width(22, 5), None);
        assert_eq!(width(16, 16), Some(4));
        assert_eq!(width(17, 16), None);
        assert_eq!(width(24, 6), None);
        assert_eq!(width(64, 2), Some(1));
        assert_eq!(width(3, 1), Some(1));
        assert_eq!(width(0, 1), None);
        assert_eq!(width(9, 64), Some(6));
        assert_eq!(width(8, 65), None);
    }

    #[test]
    #[should_panic(expected = "40 cards of 2 bits do not fit in 64")]
    fn too_many_cards_panic() {
        let packed = PackedNatural::new(16, 4).unwrap();
        packed.play(&[1; 20], &[2; 20], Limits::DETERMINISTIC);
    }

    /// Every deal of small decks, split as the searches split them: the same result as the
    /// engine, or `None` exactly when the engine's first phase does not end the game either.
    #[test]
    fn every_small_deal_equals_the_engine() {
        for (c, v) in [(4, 3), (1, 9), (2, 5), (3, 3), (2, 4), (1, 1), (3, 1), (2, 2)] {
            let mut deck: Vec<Card> =
                (1..=v as Card).flat_map(|x| std::iter::repeat_n(x, c)).collect();
            let packed = PackedNatural::new(deck.len(), v as Card).unwrap();
            let half = deck.len() / 2;
            let mut handed_back = 0;
            loop {
                let (a, b) = deck.split_at(half);
                let expected = reference(a, b, Limits::DETERMINISTIC);
                match packed.play(a, b, Limits::DETERMINISTIC) {
                    Some(got) => assert_eq!(GameResult::from(got), expected, "{a:?} / {b:?}"),
                    None => {
                        assert!(still_running(&packed, expected, Limits::DETERMINISTIC));
                        handed_back += 1;
                    }
                }
                let Some(i) = deck.windows(2).rposition(|w| w[0] < w[1]) else { break };
                let j = deck.iter().rposition(|&x| x > deck[i]).unwrap();
                deck.swap(i, j);
                deck[i + 1..].reverse();
            }
            // The loops of C=4 V=3 and C=1 V=9 are handed back.
            if (c, v) == (4, 3) || (c, v) == (1, 9) {
                assert!(handed_back > 0, "C={c} V={v}");
            }
        }
    }

    /// Batches of consecutive deals of small decks, and random batches of every size with
    /// caps: the lanes give what one game at a time gives.
    #[test]
    fn lanes_equal_one_at_a_time() {
        use rand::seq::SliceRandom;
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(4);
        for (c, v) in [(4, 3), (2, 4), (1, 9), (3, 3), (4, 4), (4, 5), (32, 2), (1, 16)] {
            let mut deck: Vec<Card> =
                (1..=v as Card).flat_map(|x| std::iter::repeat_n(x, c)).collect();
            let packed = PackedNatural::new(deck.len(), v as Card).unwrap();
            for i in 0..3000 {
                let n = 1 + i % LANES;
                let limits = match i % 7 {
                    0 => Limits { max_tricks: rng.random_range(0..30) },
                    _ => Limits::DETERMINISTIC,
                };
                let mut deals = Vec::new();
                for _ in 0..n {
                    deck.shuffle(&mut rng);
                    let split =
                        if i % 5 == 0 { rng.random_range(0..=deck.len()) } else { deck.len() / 2 };
                    deals.push((deck[..split].to_vec(), deck[split..].to_vec()));
                }
                let hands: Vec<(&[Card], &[Card])> =
                    deals.iter().map(|(a, b)| (a.as_slice(), b.as_slice())).collect();
                // The lanes where the processor has them, and one at a time where it has not.
                let one_by_one = PackedNatural { avx2: false, ..packed };
                for p in [packed, one_by_one] {
                    let mut got = [None; LANES];
                    p.play_lanes(&hands, limits, &mut got);
                    for (k, (a, b)) in hands.iter().enumerate() {
                        assert_eq!(got[k], packed.play(a, b, limits), "{a:?} / {b:?} {limits:?}");
                    }
                }
            }
        }
    }

    /// Random deals of the largest decks that fit, with and without caps, and uneven splits.
    #[test]
    fn random_deals_equal_the_engine() {
        use rand::seq::SliceRandom;
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(64);
        for (c, v) in [(4, 4), (4, 5), (1, 16), (2, 8), (3, 7), (32, 2), (8, 2)] {
            let mut deck: Vec<Card> =
                (1..=v as Card).flat_map(|x| std::iter::repeat_n(x, c)).collect();
            let packed = PackedNatural::new(deck.len(), v as Card).unwrap();
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
                let expected = reference(a, b, limits);
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
