//! Random deals and the text form of a deal.
//!
//! A deal is the whole deck as a slice of penalties: the first ⌊N/2⌋ cards are the first hand,
//! top first, the rest the second hand. [`Dealer`] draws uniformly random deals from any
//! random source (searches use a seeded `rand_xoshiro` generator, one stream per work unit),
//! and [`format_deal`] writes a deal as `FIRST/SECOND` in the `-JQKA` notation.

use rand::RngCore;

use crate::deck::{Card, DeckSpec, MAX_CARDS};
use crate::hands::{Hands, HandsError, Player, format_hand, parse_hand};

/// Draws uniformly random deals of one deck, reusing its buffers (no allocation per deal).
///
/// Only the positions of the penalty cards need drawing: each deal fills the deck with
/// numerals, then picks the penalty cards' positions by a partial Fisher–Yates shuffle of a
/// permutation of the positions (a uniformly random ordered choice of distinct positions) and
/// puts the penalty cards there in a fixed order. Every arrangement of the deck arises from the
/// same number of ordered choices, so every deal has the same probability; each index is drawn
/// exactly uniformly (Lemire's multiply-and-reject method on 32-bit halves of the generator's
/// 64-bit outputs). For the standard deck that is 16 draws a deal instead of 51.
///
/// ```
/// use bataille_bmn::{Dealer, DeckSpec, Hands};
/// use rand::SeedableRng;
/// let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
/// let mut dealer = Dealer::new(DeckSpec::STANDARD);
/// let deal = dealer.deal(&mut rng);
/// Hands::from_deal(deal).unwrap().check_deck(DeckSpec::STANDARD).unwrap();
/// ```
#[derive(Debug, Clone)]
pub struct Dealer {
    deck: [Card; MAX_CARDS],
    /// The positions `0..n`, partly shuffled by each deal.
    positions: [u8; MAX_CARDS],
    /// The penalty cards, in a fixed order.
    penalties: Vec<Card>,
    n: usize,
    spec: DeckSpec,
}

impl Dealer {
    /// A dealer of `spec`.
    pub fn new(spec: DeckSpec) -> Dealer {
        let n = spec.cards();
        let mut positions = [0; MAX_CARDS];
        for (i, p) in positions.iter_mut().enumerate().take(n) {
            *p = i as u8;
        }
        let penalties = spec.sorted_deck().into_iter().filter(|&c| c != 0).collect();
        Dealer { deck: [0; MAX_CARDS], positions, penalties, n, spec }
    }

    /// The deck dealt.
    pub fn spec(&self) -> DeckSpec {
        self.spec
    }

    /// Draws a deal: the whole deck, the first ⌊N/2⌋ cards being the first hand.
    ///
    /// The deal is a function of the random stream alone (the buffers are reset first), so a
    /// search gets the same deals from the same stream whichever worker draws them.
    #[inline]
    pub fn deal<R: RngCore + ?Sized>(&mut self, rng: &mut R) -> &[Card] {
        let n = self.n;
        for (i, p) in self.positions[..n].iter_mut().enumerate() {
            *p = i as u8;
        }
        let deck = &mut self.deck[..n];
        deck.fill(0);
        let mut bits = Bits { word: 0, left: 0 };
        for (i, &card) in self.penalties.iter().enumerate() {
            let j = i + bits.below(rng, (n - i) as u32) as usize;
            self.positions.swap(i, j);
            deck[usize::from(self.positions[i])] = card;
        }
        deck
    }
}

/// Shuffles `cards` uniformly (Fisher–Yates with exactly uniform indices).
#[inline]
pub fn shuffle<R: RngCore + ?Sized>(cards: &mut [Card], rng: &mut R) {
    let mut bits = Bits { word: 0, left: 0 };
    for i in (1..cards.len()).rev() {
        let j = bits.below(rng, i as u32 + 1);
        cards.swap(i, j as usize);
    }
}

/// 32-bit draws taken two at a time from 64-bit outputs.
struct Bits {
    word: u64,
    left: u8,
}

impl Bits {
    #[inline(always)]
    fn next_u32<R: RngCore + ?Sized>(&mut self, rng: &mut R) -> u32 {
        if self.left == 0 {
            self.word = rng.next_u64();
            self.left = 2;
        }
        self.left -= 1;
        let x = self.word as u32;
        self.word >>= 32;
        x
    }

    /// A uniform integer in `0..s` (`s ≥ 1`): Lemire, "Fast random integer generation in an
    /// interval" (2019), without bias.
    #[inline(always)]
    fn below<R: RngCore + ?Sized>(&mut self, rng: &mut R, s: u32) -> u32 {
        let mut m = u64::from(self.next_u32(rng)) * u64::from(s);
        if (m as u32) < s {
            let t = s.wrapping_neg() % s;
            while (m as u32) < t {
                m = u64::from(self.next_u32(rng)) * u64::from(s);
            }
        }
        (m >> 32) as u32
    }
}

/// A deal as text, `FIRST/SECOND` in the `-JQKA` notation (the first ⌊N/2⌋ cards first).
///
/// ```
/// assert_eq!(bataille_bmn::format_deal(&[0, 3, 0, 0, 4]), "-K/--A");
/// ```
pub fn format_deal(cards: &[Card]) -> String {
    let (a, b) = cards.split_at(cards.len() / 2);
    format!("{}/{}", format_hand(a), format_hand(b))
}

/// Reads `FIRST/SECOND` (as written by [`format_deal`], spaces allowed around the `/`).
pub fn parse_deal(text: &str) -> Result<Hands, HandsError> {
    match text.split_once('/') {
        Some((a, b)) if !b.contains('/') => {
            Hands::new(parse_hand(a, Player::First)?, parse_hand(b, Player::Second)?)
        }
        _ => Err(HandsError::Separator(text.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn deals_are_legal_and_uniform() {
        // A 4-card deck with 2 numerals, 1 J, 1 A has 12 arrangements: each should come up
        // about 1/12 of the time (chi-square with 11 degrees of freedom).
        let spec = DeckSpec::new([2, 1, 0, 0, 1]).unwrap();
        let mut dealer = Dealer::new(spec);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut counts = std::collections::BTreeMap::new();
        let n = 120_000;
        for _ in 0..n {
            *counts.entry(dealer.deal(&mut rng).to_vec()).or_insert(0u32) += 1;
        }
        assert_eq!(counts.len() as u128, spec.arrangements().unwrap());
        let e = f64::from(n) / 12.0;
        let chi2: f64 = counts.values().map(|&c| (f64::from(c) - e).powi(2) / e).sum();
        // The 99.9% quantile of chi-square(11) is 31.3.
        assert!(chi2 < 31.3, "chi2 = {chi2}: {counts:?}");
    }

    #[test]
    fn deals_are_uniform_with_more_penalties_than_numerals() {
        // 1 numeral, 2 jacks, 1 king, 1 ace: 5!/2! = 60 arrangements.
        let spec = DeckSpec::new([1, 2, 0, 1, 1]).unwrap();
        let mut dealer = Dealer::new(spec);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut counts = std::collections::BTreeMap::new();
        let n = 300_000;
        for _ in 0..n {
            *counts.entry(dealer.deal(&mut rng).to_vec()).or_insert(0u32) += 1;
        }
        assert_eq!(counts.len() as u128, spec.arrangements().unwrap());
        let e = f64::from(n) / 60.0;
        let chi2: f64 = counts.values().map(|&c| (f64::from(c) - e).powi(2) / e).sum();
        // The 99.9% quantile of chi-square(59) is 98.3.
        assert!(chi2 < 98.3, "chi2 = {chi2}");
    }

    #[test]
    fn shuffle_is_uniform() {
        // All 24 orders of 4 distinct cards.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let mut counts = std::collections::BTreeMap::new();
        let n = 240_000;
        for _ in 0..n {
            let mut v = [1, 2, 3, 4];
            shuffle(&mut v, &mut rng);
            *counts.entry(v).or_insert(0u32) += 1;
        }
        assert_eq!(counts.len(), 24);
        let e = f64::from(n) / 24.0;
        let chi2: f64 = counts.values().map(|&c| (f64::from(c) - e).powi(2) / e).sum();
        // The 99.9% quantile of chi-square(23) is 49.7.
        assert!(chi2 < 49.7, "chi2 = {chi2}");
    }

    #[test]
    fn same_seed_same_deals() {
        let mut a = Dealer::new(DeckSpec::STANDARD);
        let mut b = Dealer::new(DeckSpec::STANDARD);
        let mut ra = Xoshiro256PlusPlus::seed_from_u64(42);
        let mut rb = Xoshiro256PlusPlus::seed_from_u64(42);
        for _ in 0..100 {
            let d = a.deal(&mut ra).to_vec();
            assert_eq!(d, b.deal(&mut rb));
            Hands::from_deal(&d).unwrap().check_deck(DeckSpec::STANDARD).unwrap();
        }
    }

    #[test]
    fn a_deal_depends_on_the_stream_alone() {
        let mut used = Dealer::new(DeckSpec::STANDARD);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        for _ in 0..10 {
            used.deal(&mut rng);
        }
        let mut fresh = Dealer::new(DeckSpec::STANDARD);
        let (mut r1, mut r2) =
            (Xoshiro256PlusPlus::seed_from_u64(99), Xoshiro256PlusPlus::seed_from_u64(99));
        assert_eq!(used.deal(&mut r1), fresh.deal(&mut r2));
    }

    #[test]
    fn text_round_trips() {
        let d = [0, 0, 3, 1, 0, 4, 2];
        assert_eq!(format_deal(&d), "--K/J-AQ");
        let h = parse_deal("--K / J-AQ").unwrap();
        assert_eq!((h.first(), h.second()), (&d[..3], &d[3..]));
        assert!(parse_deal("--K/J/-").is_err());
        assert!(parse_deal("--KJ-AQ").is_err());
    }
}
