//! The first phase of a deterministic game on large decks, many tricks at a time.
//!
//! Between two battles, and as long as neither hand can run out, the tricks of a game compare
//! the two hands card by card: trick `i` turns the `i`-th card of each hand, and the cards won
//! go to the bottoms, behind every card still to be turned. So a run of `r` such tricks is one
//! comparison of the first `r` cards of each hand, and what each player wins is the list of
//! the pairs `(higher, lower)` where his card was the higher, in order. With AVX-512 (BW and
//! VBMI2) that is a handful of instructions for up to 32 tricks: two loads, the comparisons,
//! the pairs made as 16-bit words, and one compress and one store for each winner. A tie ends
//! the run at its position, and the battle is played card by card, as the ring engine plays
//! it.
//!
//! The hands live in two linear buffers (top card at `head`, the next free slot at `tail`),
//! moved back to the start of their buffer when the tail nears the end. Natural and
//! optimized stacking (the same for both players) take this path; every other method, and
//! processors without the instructions, play the ring engine of [`crate::play`].
//!
//! The phase plays exactly the tricks the ring engine plays (the same reveals in the same
//! order), so a game that ends here has the same length, and a game still running goes on
//! from the same position under Brent's algorithm (tested against the ring engine on every
//! deal of small decks and on random 52-card deals).

use crate::game::{Ending, Game};
use crate::position::Player;
use crate::spec::Card;

/// Bytes of each hand's buffer.
const CAP: usize = 1024;
/// Room kept past a tail: a 64-byte store of pairs, or a battle's pile (at most every card),
/// and the 32 bytes read at a head.
const MARGIN: usize = crate::spec::MAX_CARDS + 64;

/// The two hands of a game being played by [`free_run`]: reusable, no allocation. Player `p`
/// holds `buf[p][head[p]..tail[p]]`, top first; a hand whose tail nears the end of its buffer
/// is moved back to the start.
#[derive(Clone)]
pub(crate) struct Wide {
    buf: [[Card; CAP]; 2],
    head: [usize; 2],
    tail: [usize; 2],
}

impl Default for Wide {
    fn default() -> Wide {
        Wide { buf: [[0; CAP]; 2], head: [0; 2], tail: [0; 2] }
    }
}

impl std::fmt::Debug for Wide {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Wide({:?} / {:?})", self.hand(0), self.hand(1))
    }
}

impl Wide {
    /// The cards of player `p`, top first.
    fn hand(&self, p: usize) -> &[Card] {
        &self.buf[p][self.head[p]..self.tail[p]]
    }

    /// Takes the hands of `g`.
    fn load(&mut self, g: &Game) {
        for (p, player) in [Player::First, Player::Second].into_iter().enumerate() {
            let mut n = 0;
            for c in g.hand(player) {
                self.buf[p][n] = c;
                n += 1;
            }
            self.head[p] = 0;
            self.tail[p] = n;
        }
    }

    /// Gives the hands back to `g`.
    fn store(&self, g: &mut Game) {
        g.set(self.hand(0), self.hand(1));
    }

    /// The ending if a hand is empty at this trick boundary.
    #[inline(always)]
    fn ending(&self) -> Option<Ending> {
        match (self.head[0] == self.tail[0], self.head[1] == self.tail[1]) {
            (false, false) => None,
            (true, false) => Some(Ending::SecondWins),
            (false, true) => Some(Ending::FirstWins),
            (true, true) => Some(Ending::Draw),
        }
    }

    /// Moves the hand of player `p` back to the start of its buffer.
    #[inline(never)]
    fn compact(&mut self, p: usize) {
        let (h, t) = (self.head[p], self.tail[p]);
        self.buf[p].copy_within(h..t, 0);
        self.head[p] = 0;
        self.tail[p] = t - h;
    }

    /// The rest of a trick whose first reveal, at both heads, is a tie (not yet turned): turns
    /// cards until two differ, then stacks the pile for the winner (natural, or `optimized`:
    /// strongest first), as the ring engine's battle does. Returns the ending if a hand runs
    /// out or is empty after; adds the extra reveals to `battle_cards`.
    #[inline(never)]
    fn battle(&mut self, optimized: bool, battle_cards: &mut u64) -> Option<Ending> {
        let (h0_start, h1_start) = (self.head[0], self.head[1]);
        self.head[0] += 1;
        self.head[1] += 1;
        let (a, b) = loop {
            if self.head[0] == self.tail[0] || self.head[1] == self.tail[1] {
                return self.ending();
            }
            let a = self.buf[0][self.head[0]];
            let b = self.buf[1][self.head[1]];
            self.head[0] += 1;
            self.head[1] += 1;
            *battle_cards += 1;
            if a != b {
                break (a, b);
            }
        };
        let first_wins = a > b;
        let w = usize::from(!first_wins);
        let loser_start = if first_wins { h1_start } else { h0_start };
        let ties = self.head[0] - h0_start - 1;
        let (hi, lo) = (a.max(b), a.min(b));
        let mut t = self.tail[w];
        let [b0, b1] = &mut self.buf;
        let (won, lost) = if first_wins { (b0, &*b1) } else { (b1, &*b0) };
        let mut put = |x: Card| {
            won[t] = x;
            t += 1;
        };
        let tied = &lost[loser_start..loser_start + ties];
        if !optimized {
            put(hi);
            put(lo);
            for &x in tied.iter().rev() {
                put(x);
                put(x);
            }
        } else {
            let mut sorted = [0 as Card; crate::spec::MAX_CARDS / 2];
            let sorted = &mut sorted[..ties];
            sorted.copy_from_slice(tied);
            sorted.sort_unstable_by(|x, y| y.cmp(x));
            let (mut hi_done, mut lo_done) = (false, false);
            for &x in sorted.iter() {
                if !hi_done && hi >= x {
                    put(hi);
                    hi_done = true;
                }
                if !lo_done && lo >= x {
                    put(lo);
                    lo_done = true;
                }
                put(x);
                put(x);
            }
            if !hi_done {
                put(hi);
            }
            if !lo_done {
                put(lo);
            }
        }
        self.tail[w] = t;
        self.ending()
    }
}

/// Whether this processor runs [`free_run`].
#[inline]
pub(crate) fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("avx512vbmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The first phase of a natural (or `optimized`) game from `g`, a trick boundary with both
/// hands non-empty: tricks until the game ends (the ending is returned) or about `until`
/// tricks in all have been played (`None`; `g` then holds the position reached), as
/// [`crate::play`]'s ring engine plays them. `tricks` and `battle_cards` are added to.
///
/// The caller checks [`available`] first.
pub(crate) fn free_run(
    w: &mut Wide,
    g: &mut Game,
    optimized: bool,
    until: u64,
    tricks: &mut u64,
    battle_cards: &mut u64,
) -> Option<Ending> {
    w.load(g);
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the caller checked `available()`: the processor has the instructions.
    let end = unsafe { x86::run(w, optimized, until, tricks, battle_cards) };
    #[cfg(not(target_arch = "x86_64"))]
    let end: Option<Ending> = unreachable!("free_run without the instructions");
    if end.is_none() {
        w.store(g);
    }
    end
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::{CAP, MARGIN, Wide};
    use crate::game::Ending;
    use crate::spec::Card;

    /// See [`super::free_run`]: reveals are counted by the first hand's head, and the phase
    /// stops once `until - tricks` of them are played, at a trick boundary, never past `until`
    /// tricks (each reveal is at most one trick).
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi2,popcnt,bmi1")]
    pub(super) fn run(
        w: &mut Wide,
        optimized: bool,
        until: u64,
        tricks: &mut u64,
        battle_cards: &mut u64,
    ) -> Option<Ending> {
        let budget = until.saturating_sub(*tricks);
        // Tricks played here, and the battles' extra reveals: the reveals are their sum.
        let (mut played, mut extra) = (0u64, 0u64);
        // The counters live in registers between battles.
        let [mut h0, mut h1] = w.head;
        let [mut t0, mut t1] = w.tail;
        let end = loop {
            let reveals = played + extra;
            if reveals >= budget {
                break None;
            }
            if t0 > CAP - MARGIN || t1 > CAP - MARGIN {
                (w.head, w.tail) = ([h0, h1], [t0, t1]);
                for p in 0..2 {
                    if w.tail[p] > CAP - MARGIN {
                        w.compact(p);
                    }
                }
                ([h0, h1], [t0, t1]) = (w.head, w.tail);
            }
            let room = (t0 - h0).min(t1 - h1).min(32) as u64;
            let r_max = room.min(budget - reveals) as u32;
            debug_assert!(r_max >= 1);
            let (base0, base1) = (w.buf[0].as_mut_ptr(), w.buf[1].as_mut_ptr());
            // SAFETY: every tail is at most CAP - MARGIN here, so the 32 bytes read at each
            // head (at most the tail) and the 64 written at each tail are in the buffer.
            let (a, b) = unsafe {
                (
                    _mm256_loadu_si256(base0.add(h0).cast::<__m256i>()),
                    _mm256_loadu_si256(base1.add(h1).cast::<__m256i>()),
                )
            };
            let limit: u32 = if r_max == 32 { u32::MAX } else { (1u32 << r_max) - 1 };
            let ties = _mm256_cmpeq_epi8_mask(a, b) & limit;
            let r = if ties == 0 { r_max } else { ties.trailing_zeros() };
            let run: u32 = if r == 32 { u32::MAX } else { (1u32 << r) - 1 };
            let first = _mm256_cmpgt_epu8_mask(a, b) & run;
            let hi = _mm512_cvtepu8_epi16(_mm256_max_epu8(a, b));
            let lo = _mm512_cvtepu8_epi16(_mm256_min_epu8(a, b));
            let pairs = _mm512_or_si512(hi, _mm512_slli_epi16::<8>(lo));
            let won0 = _mm512_maskz_compress_epi16(first, pairs);
            let won1 = _mm512_maskz_compress_epi16(run & !first, pairs);
            // SAFETY: as above (with `r` = 0 the stores write nothing that counts).
            unsafe {
                _mm512_storeu_si512(base0.add(t0).cast::<__m512i>(), won0);
                _mm512_storeu_si512(base1.add(t1).cast::<__m512i>(), won1);
            }
            let n0 = first.count_ones() as usize;
            let r = r as usize;
            (h0, h1) = (h0 + r, h1 + r);
            (t0, t1) = (t0 + 2 * n0, t1 + 2 * (r - n0));
            played += r as u64;
            if ties != 0 {
                played += 1;
                // Most battles are one tie and a deciding pair: the pile is four cards,
                // written here as one store. Natural: the pair, then the tie twice. Optimized:
                // the four cards strongest first (the pair's higher before an equal tie).
                if t0 - h0 >= 2 && t1 - h1 >= 2 {
                    // SAFETY: both hands hold the cards read.
                    let (x, a, b) =
                        unsafe { (*base0.add(h0), *base0.add(h0 + 1), *base1.add(h1 + 1)) };
                    if a != b {
                        let (hi, lo) = (a.max(b), a.min(b));
                        let pile = if !optimized || (lo >= x) {
                            [hi, lo, x, x]
                        } else if hi >= x {
                            [hi, x, x, lo]
                        } else {
                            [x, x, hi, lo]
                        };
                        let first_wins = a > b;
                        let (base, t) =
                            if first_wins { (base0, &mut t0) } else { (base1, &mut t1) };
                        // SAFETY: a tail is at most CAP - MARGIN + 64 after a run.
                        unsafe { base.add(*t).cast::<[Card; 4]>().write_unaligned(pile) };
                        *t += 4;
                        (h0, h1) = (h0 + 2, h1 + 2);
                        extra += 1;
                        if h0 == t0 || h1 == t1 {
                            (w.head, w.tail) = ([h0, h1], [t0, t1]);
                            break w.ending();
                        }
                        continue;
                    }
                }
                (w.head, w.tail) = ([h0, h1], [t0, t1]);
                let end = w.battle(optimized, &mut extra);
                ([h0, h1], [t0, t1]) = (w.head, w.tail);
                if end.is_some() {
                    break end;
                }
            } else if h0 == t0 || h1 == t1 {
                (w.head, w.tail) = ([h0, h1], [t0, t1]);
                break w.ending();
            }
        };
        (w.head, w.tail) = ([h0, h1], [t0, t1]);
        *tricks += played;
        *battle_cards += extra;
        end
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    use rand_xoshiro::Xoshiro256PlusPlus;

    use crate::method::{Method, Methods};
    use crate::outcome::Limits;
    use crate::play::play_deterministic_rings;
    use crate::play::{Scratch, play_deterministic, play_deterministic_phased};
    use crate::spec::{Card, DeckSpec};
    use crate::{Game, Position};

    const BOTH: [Method; 2] = [Method::Natural, Method::Optimized];

    /// Both engines on `deal`, every result equal; also with a first phase of a few tricks
    /// only, so that the wide phase hands games over to Brent's algorithm at many points.
    fn same(deal: &Position, methods: Methods, s: &mut [Scratch; 2]) {
        let g = Game::new(deal);
        let wide = play_deterministic(&g, methods, Limits::DETERMINISTIC, &mut s[0]);
        let rings = play_deterministic_rings(&g, methods, Limits::DETERMINISTIC, &mut s[1]);
        assert_eq!(wide, rings, "{deal} {methods}");
        for free in [1, 7, 40] {
            let short =
                play_deterministic_phased(&g, methods, Limits::DETERMINISTIC, &mut s[0], free);
            assert_eq!(short, rings, "{deal} {methods} free {free}");
        }
        let capped = Limits { max_tricks: 1 + wide.tricks / 2 };
        let a = play_deterministic(&g, methods, capped, &mut s[0]);
        let b = play_deterministic_rings(&g, methods, capped, &mut s[1]);
        assert_eq!(a, b, "{deal} {methods} capped");
    }

    /// Every deal of `cards`: every arrangement (in lexicographic order), split in halves.
    fn every_deal(mut cards: Vec<Card>, f: &mut impl FnMut(&Position)) {
        cards.sort_unstable();
        loop {
            let half = cards.len() / 2;
            f(&Position::new(cards[..half].to_vec(), cards[half..].to_vec()).unwrap());
            // Next permutation.
            let Some(i) =
                (0..cards.len().saturating_sub(1)).rev().find(|&i| cards[i] < cards[i + 1])
            else {
                return;
            };
            let j = (i + 1..cards.len()).rev().find(|&j| cards[j] > cards[i]).unwrap();
            cards.swap(i, j);
            cards[i + 1..].reverse();
        }
    }

    #[test]
    fn every_deal_of_small_decks_plays_as_on_the_rings() {
        if !super::available() {
            eprintln!("skipped: this processor has no AVX-512 VBMI2");
            return;
        }
        let mut s = [Scratch::default(), Scratch::default()];
        for (c, v) in [(4, 2), (4, 3), (2, 4), (2, 5), (3, 3), (1, 8)] {
            let deck: Vec<Card> = DeckSpec::new(c, v).unwrap().sorted_deck();
            for m in BOTH {
                every_deal(deck.clone(), &mut |p| same(p, Methods::both(m), &mut s));
            }
        }
    }

    #[test]
    fn random_deals_of_large_decks_play_as_on_the_rings() {
        if !super::available() {
            eprintln!("skipped: this processor has no AVX-512 VBMI2");
            return;
        }
        // BATAILLE_LONG_TESTS: a million 52-card deals of each method.
        let deals =
            if std::env::var_os("BATAILLE_LONG_TESTS").is_some() { 1_000_000 } else { 3_000 };
        let mut s = [Scratch::default(), Scratch::default()];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(27);
        for (c, v, n) in [
            (4, 13, deals),
            (4, 8, 3_000),
            (2, 26, 3_000),
            (4, 16, 2_000),
            (2, 64, 500),
            (1, 255, 100),
        ] {
            let mut deck: Vec<Card> = DeckSpec::new(c, v).unwrap().sorted_deck();
            for _ in 0..n {
                deck.shuffle(&mut rng);
                let half = deck.len() / 2;
                let p = Position::new(deck[..half].to_vec(), deck[half..].to_vec()).unwrap();
                for m in BOTH {
                    same(&p, Methods::both(m), &mut s);
                }
            }
        }
    }
}
