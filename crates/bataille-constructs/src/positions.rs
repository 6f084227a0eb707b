//! Every position of the C = 1 deck: which lie on a loop, which lead into one.
//!
//! A *position* is any split of the V cards between the two players, each hand in any order:
//! V!·(V+1) positions, the deals (first hand ⌊V/2⌋ cards) among them. With one colour no battle
//! can happen, so natural and optimized stacking are the same game.
//!
//! [`census`] visits every position once. Positions are numbered by [`rank`]: the Lehmer rank
//! of the two hands read as one permutation, times V+1, plus the first hand's length. A bitmap
//! marks the visited ones. From each unvisited position (in rank order) a walk plays trick after
//! trick, marking each position it passes, until
//!
//! - a hand is empty: every position of the walk ends;
//! - it meets a position of an earlier walk: that walk settled whether the position loops, and
//!   this walk's positions share its fate (a second bitmap, allocated only once a loop has been
//!   found, marks the positions whose game loops);
//! - it meets a position of its own walk: a new loop is closed, made of the walk from that
//!   position on.
//!
//! Each position is played once, so V = 12 (12!·13 ≈ 6.2·10⁹ positions, a 779 MB bitmap) takes
//! minutes on one core. The walks are sequential; [`brute_force`] plays every position with the
//! engine instead and must give the same [`Census`].

use bataille_engine::{
    Card, Limits, Method, Methods, NoRandom, Outcome, Position, loop_positions, play,
};

/// The largest V [`census`] accepts: V = 13 needs a bitmap of 10.9 GB.
pub const MAX_VALUES: usize = 13;

/// The stacking method (natural; optimized is the same game with one colour).
const METHODS: Methods = Methods { first: Method::Natural, second: Method::Natural };

/// What the census found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Census {
    /// V.
    pub values: usize,
    /// V!·(V+1).
    pub positions: u64,
    /// Positions lying on a loop.
    pub on_loop: u64,
    /// Positions whose game loops (on a loop or leading into one).
    pub into_loop: u64,
    /// Deals (first hand ⌊V/2⌋ cards) lying on a loop.
    pub deals_on_loop: u64,
    /// Deals whose game loops.
    pub deals_into_loop: u64,
    /// Every loop, by increasing smallest rank.
    pub loops: Vec<LoopSummary>,
}

/// One loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoopSummary {
    /// The smallest rank of its positions (see [`unrank`]).
    pub smallest: u64,
    /// Its length in tricks (= positions on it).
    pub period: u64,
}

/// How the walks went (not part of the result: it depends on the method, not the game).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WalkStats {
    /// Walks started.
    pub walks: u64,
    /// The longest walk, in positions.
    pub longest: u64,
    /// Bytes of bitmap allocated.
    pub bitmap_bytes: u64,
}

/// Why the census could not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CensusError {
    /// V is 0 or above [`MAX_VALUES`].
    #[error(
        "V={0} is out of range: the census of positions takes V from 1 to {MAX_VALUES} (V!·(V+1) \
         positions, one bit each)"
    )]
    Values(usize),
    /// The bitmap could not be allocated.
    #[error("cannot allocate the {0}-byte bitmap of visited positions")]
    Memory(u64),
}

/// V!·(V+1), the number of positions.
pub fn positions(values: usize) -> u64 {
    (1..=values as u64).product::<u64>() * (values as u64 + 1)
}

/// The rank of the position `first / second` of the C = 1 deck of `first.len() + second.len()`
/// values: Lehmer rank of the two hands read as one permutation, times V+1, plus the first
/// hand's length. The caller guarantees the cards are 1..=V once each, V ≤ [`MAX_VALUES`].
///
/// ```
/// use bataille_constructs::positions::{rank, unrank};
/// assert_eq!(rank(&[1, 2, 3], &[]), 3);
/// assert_eq!(rank(&[], &[3, 2, 1]), 5 * 4);
/// let p = unrank(5, rank(&[5, 3], &[2, 4, 1]));
/// assert_eq!(p.to_string(), "[5, 3] / [2, 4, 1]");
/// ```
pub fn rank(first: &[Card], second: &[Card]) -> u64 {
    let p = Packed::from_hands(first, second);
    macro_rules! by_v {
        ($($v:literal)*) => {
            match first.len() + second.len() {
                $($v => p.rank::<$v>(),)*
                n => panic!("rank takes 1 to {MAX_VALUES} cards, got {n}"),
            }
        };
    }
    by_v!(1 2 3 4 5 6 7 8 9 10 11 12 13)
}

/// The position of rank `r` (see [`rank`]) of the C = 1 deck of `values` cards.
pub fn unrank(values: usize, r: u64) -> Position {
    let v = values as u64;
    let split = (r % (v + 1)) as usize;
    let mut perm = r / (v + 1);
    let mut digits = vec![0u64; values];
    for i in (0..values).rev() {
        let radix = (values - i) as u64;
        digits[i] = perm % radix;
        perm /= radix;
    }
    let mut unused: Vec<Card> = (1..=values as Card).collect();
    let cards: Vec<Card> = digits.iter().map(|&d| unused.remove(d as usize)).collect();
    Position::new(cards[..split].to_vec(), cards[split..].to_vec()).expect("at most 13 cards")
}

/// Two hands packed four bits a card, top card in the low bits.
#[derive(Debug, Clone, Copy)]
struct Packed {
    hand: [u64; 2],
    len: [u32; 2],
}

impl Packed {
    fn from_hands(first: &[Card], second: &[Card]) -> Packed {
        let pack = |h: &[Card]| h.iter().rev().fold(0u64, |acc, &c| acc << 4 | u64::from(c));
        Packed { hand: [pack(first), pack(second)], len: [first.len() as u32, second.len() as u32] }
    }

    /// One trick (cards are distinct, so there is no battle): the winner puts his card, then
    /// the loser's, under his hand. The caller has checked that neither hand is empty.
    #[inline(always)]
    fn step(&mut self) {
        let (a, b) = (self.hand[0] & 15, self.hand[1] & 15);
        self.hand[0] >>= 4;
        self.hand[1] >>= 4;
        self.len[0] -= 1;
        self.len[1] -= 1;
        let w = usize::from(a < b);
        let (hi, lo) = (a.max(b), a.min(b));
        self.hand[w] |= (hi | lo << 4) << (4 * self.len[w]);
        self.len[w] += 2;
    }

    #[inline(always)]
    fn ended(&self) -> bool {
        (self.len[0] == 0) | (self.len[1] == 0)
    }

    /// The rank (see [`rank`]) of a position of the V-card deck: the Lehmer digit of each card
    /// (how many cards after it are smaller, i.e. its value less the smaller ones before it)
    /// times its constant weight, plus the first hand's length.
    #[inline(always)]
    fn rank<const V: usize>(&self) -> u64 {
        debug_assert_eq!((self.len[0] + self.len[1]) as usize, V);
        let weights = &WEIGHTS[V];
        // Both hands as one string of nibbles (at most 52 bits).
        let seq = self.hand[0] | self.hand[1] << (4 * self.len[0]);
        let mut used: u32 = 0;
        let mut r = u64::from(self.len[0]);
        for (i, &w) in weights.iter().enumerate().take(V) {
            let c = ((seq >> (4 * i)) & 15) as u32;
            let smaller_before = (used & ((1u32 << c) - 1)).count_ones();
            r += u64::from(c - 1 - smaller_before) * w;
            used |= 1u32 << c;
        }
        r
    }
}

/// `WEIGHTS[V][i]` = (V-1-i)!·(V+1): the weight of the i-th card's Lehmer digit in a rank.
const WEIGHTS: [[u64; MAX_VALUES]; MAX_VALUES + 1] = {
    let mut w = [[0u64; MAX_VALUES]; MAX_VALUES + 1];
    let mut v = 1;
    while v <= MAX_VALUES {
        let mut i = 0;
        while i < v {
            let mut f = 1u64;
            let mut k = 2;
            while k < (v - i) as u64 {
                f *= k;
                k += 1;
            }
            w[v][i] = f * (v as u64 + 1);
            i += 1;
        }
        v += 1;
    }
    w
};

/// A bitmap over ranks.
struct Bits(Vec<u64>);

impl Bits {
    fn new(bits: u64) -> Result<Bits, CensusError> {
        let words = bits.div_ceil(64) as usize;
        let mut v = Vec::new();
        v.try_reserve_exact(words).map_err(|_| CensusError::Memory(words as u64 * 8))?;
        v.resize(words, 0);
        Ok(Bits(v))
    }

    #[inline(always)]
    fn get(&self, i: u64) -> bool {
        self.0[(i >> 6) as usize] >> (i & 63) & 1 != 0
    }

    #[inline(always)]
    fn set(&mut self, i: u64) {
        self.0[(i >> 6) as usize] |= 1 << (i & 63);
    }

    fn bytes(&self) -> u64 {
        self.0.len() as u64 * 8
    }
}

/// Visits every position of the C = 1 deck of `values` cards (see the module docs).
/// `progress` is called now and then with the number of permutations done and their total.
///
/// ```
/// use bataille_constructs::positions::census;
/// let (c, _) = census(5, |_, _| {}).unwrap();
/// assert!(c.on_loop > 0);
/// let (c, _) = census(6, |_, _| {}).unwrap();
/// assert_eq!((c.positions, c.into_loop), (720 * 7, 0));
/// ```
pub fn census(
    values: usize,
    mut progress: impl FnMut(u64, u64),
) -> Result<(Census, WalkStats), CensusError> {
    macro_rules! by_v {
        ($($v:literal)*) => {
            match values {
                $($v => census_of::<$v>(&mut progress),)*
                _ => Err(CensusError::Values(values)),
            }
        };
    }
    by_v!(1 2 3 4 5 6 7 8 9 10 11 12 13)
}

/// [`census`] for one V, on the CPU's `popcnt` instruction when it has one (the rank counts
/// bits for every card; x86-64's baseline has no such instruction).
fn census_of<const V: usize>(
    progress: &mut dyn FnMut(u64, u64),
) -> Result<(Census, WalkStats), CensusError> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has just been found to support popcnt.
        return unsafe { census_popcnt::<V>(progress) };
    }
    census_body::<V>(progress)
}

/// [`census_body`] compiled for CPUs with `popcnt`.
///
/// # Safety
///
/// The CPU must support `popcnt`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn census_popcnt<const V: usize>(
    progress: &mut dyn FnMut(u64, u64),
) -> Result<(Census, WalkStats), CensusError> {
    census_body::<V>(progress)
}

#[inline(always)]
fn census_body<const V: usize>(
    progress: &mut dyn FnMut(u64, u64),
) -> Result<(Census, WalkStats), CensusError> {
    let total = positions(V);
    let permutations = total / (V as u64 + 1);
    let mut w = Walker::<V> {
        visited: Bits::new(total)?,
        loops_to: None,
        path: Vec::new(),
        census: Census {
            values: V,
            positions: total,
            on_loop: 0,
            into_loop: 0,
            deals_on_loop: 0,
            deals_into_loop: 0,
            loops: Vec::new(),
        },
        stats: WalkStats::default(),
    };
    let mut cards: Vec<Card> = (1..=V as Card).collect();
    let stride = V as u64 + 1;
    let mut base = 0u64;
    let mut perm = 0u64;
    loop {
        // Splits 0 and V leave a hand empty: those positions end at once and are never walked.
        for split in 1..V {
            let r = base + split as u64;
            if !w.visited.get(r) {
                w.walk(Packed::from_hands(&cards[..split], &cards[split..]), r)?;
            }
        }
        perm += 1;
        if perm & 0xffff == 0 {
            progress(perm, permutations);
        }
        base += stride;
        if !next_permutation(&mut cards) {
            break;
        }
    }
    progress(permutations, permutations);
    w.census.loops.sort_unstable_by_key(|l| l.smallest);
    w.stats.bitmap_bytes = w.visited.bytes() + w.loops_to.as_ref().map_or(0, Bits::bytes);
    Ok((w.census, w.stats))
}

struct Walker<const V: usize> {
    visited: Bits,
    /// Positions whose game loops; allocated with the first loop found (every position visited
    /// before then ends).
    loops_to: Option<Bits>,
    path: Vec<u64>,
    census: Census,
    stats: WalkStats,
}

impl<const V: usize> Walker<V> {
    fn is_deal(r: u64) -> bool {
        r % (V as u64 + 1) == (V / 2) as u64
    }

    #[inline(always)]
    fn walk(&mut self, mut s: Packed, mut r: u64) -> Result<(), CensusError> {
        self.path.clear();
        self.stats.walks += 1;
        let loops = loop {
            self.visited.set(r);
            self.path.push(r);
            s.step();
            if s.ended() {
                break false;
            }
            r = s.rank::<V>();
            if self.visited.get(r) {
                if let Some(i) = self.path.iter().rposition(|&x| x == r) {
                    self.close_loop(i);
                    break true;
                }
                break self.loops_to.as_ref().is_some_and(|b| b.get(r));
            }
        };
        self.stats.longest = self.stats.longest.max(self.path.len() as u64);
        if loops {
            self.mark_loops_to()?;
        }
        Ok(())
    }

    /// Every position of the walk leads into a loop.
    #[cold]
    fn mark_loops_to(&mut self) -> Result<(), CensusError> {
        if self.loops_to.is_none() {
            self.loops_to = Some(Bits::new(self.census.positions)?);
        }
        let bits = self.loops_to.as_mut().expect("allocated");
        for &p in &self.path {
            bits.set(p);
        }
        let deals = self.path.iter().filter(|&&p| Self::is_deal(p)).count() as u64;
        self.census.into_loop += self.path.len() as u64;
        self.census.deals_into_loop += deals;
        Ok(())
    }

    /// The walk has come back to `path[i]`: `path[i..]` is a new loop.
    #[cold]
    fn close_loop(&mut self, i: usize) {
        let on = &self.path[i..];
        let smallest = *on.iter().min().expect("a loop has a position");
        let deals = on.iter().filter(|&&p| Self::is_deal(p)).count() as u64;
        self.census.on_loop += on.len() as u64;
        self.census.deals_on_loop += deals;
        self.census.loops.push(LoopSummary { smallest, period: on.len() as u64 });
    }
}

/// The next permutation in lexicographic order; false (and `a` sorted) after the last.
fn next_permutation(a: &mut [Card]) -> bool {
    let Some(i) = a.windows(2).rposition(|w| w[0] < w[1]) else {
        a.reverse();
        return false;
    };
    let j = a.iter().rposition(|&x| x > a[i]).expect("a larger element exists");
    a.swap(i, j);
    a[i + 1..].reverse();
    true
}

/// The same census by brute force: every position played by the engine (Brent's detection),
/// loops listed with [`loop_positions`]. For checking [`census`] on small decks (V ≤ 9).
pub fn brute_force(values: usize) -> Result<Census, CensusError> {
    if values == 0 || values > MAX_VALUES {
        return Err(CensusError::Values(values));
    }
    let total = positions(values);
    let mut c = Census {
        values,
        positions: total,
        on_loop: 0,
        into_loop: 0,
        deals_on_loop: 0,
        deals_into_loop: 0,
        loops: Vec::new(),
    };
    let mut listed = std::collections::HashSet::new();
    for r in 0..total {
        let p = unrank(values, r);
        let Outcome::Cycle(cycle) = play(&p, METHODS, &mut NoRandom, Limits::DETERMINISTIC).outcome
        else {
            continue;
        };
        c.into_loop += 1;
        c.deals_into_loop += u64::from(p.is_deal());
        if cycle.tail_tricks > 0 {
            continue;
        }
        c.on_loop += 1;
        c.deals_on_loop += u64::from(p.is_deal());
        if listed.contains(&r) {
            continue;
        }
        let ranks: Vec<u64> = loop_positions(&p, METHODS)
            .expect("it loops")
            .iter()
            .map(|q| rank(q.first(), q.second()))
            .collect();
        let smallest = *ranks.iter().min().expect("a loop has a position");
        c.loops.push(LoopSummary { smallest, period: ranks.len() as u64 });
        listed.extend(ranks);
    }
    c.loops.sort_unstable_by_key(|l| l.smallest);
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bataille_engine::{Game, Player};
    use proptest::prelude::*;

    #[test]
    fn ranks_are_a_bijection_in_lexicographic_order() {
        for values in 1..=6 {
            let mut seen = Vec::new();
            for r in 0..positions(values) {
                let p = unrank(values, r);
                assert_eq!(rank(p.first(), p.second()), r);
                seen.push((
                    p.first().iter().chain(p.second()).copied().collect::<Vec<_>>(),
                    p.first().len(),
                ));
            }
            assert!(
                seen.windows(2).all(|w| w[0] < w[1]),
                "V={values}: rank order is lexicographic"
            );
        }
    }

    proptest! {
        /// The packed trick is the engine's trick, for every V up to 13.
        #[test]
        fn packed_trick_is_the_engines(values in 2usize..=13, seed in any::<u64>(), split in 1usize..13) {
            let split = split.min(values - 1);
            let r = (seed % (positions(values) / (values as u64 + 1))) * (values as u64 + 1) + split as u64;
            let p = unrank(values, r);
            let mut s = Packed::from_hands(p.first(), p.second());
            let mut g = Game::new(&p);
            for _ in 0..50 {
                if g.ending().is_some() {
                    prop_assert!(s.ended());
                    break;
                }
                prop_assert!(!s.ended());
                g.trick(METHODS, &mut NoRandom);
                s.step();
                let q = g.to_position();
                prop_assert_eq!(s.len, [g.len(Player::First) as u32, g.len(Player::Second) as u32]);
                if !s.ended() {
                    prop_assert_eq!(unrank(values, rank(q.first(), q.second())), q.clone());
                    let packed = Packed::from_hands(q.first(), q.second());
                    prop_assert_eq!((packed.hand, packed.len), (s.hand, s.len));
                }
            }
        }
    }

    #[test]
    fn census_equals_brute_force() {
        for values in 1..=8 {
            let (c, stats) = census(values, |_, _| {}).unwrap();
            let b = brute_force(values).unwrap();
            assert_eq!(c, b, "V={values}");
            assert!(stats.walks > 0 || values == 1);
        }
    }

    #[test]
    fn loops_of_odd_decks_and_none_for_2_3_4_6_8() {
        for values in [2, 3, 4, 6, 8] {
            let (c, _) = census(values, |_, _| {}).unwrap();
            assert_eq!((c.on_loop, c.into_loop, c.loops.len()), (0, 0, 0), "V={values}");
        }
        for values in [5, 7] {
            let (c, _) = census(values, |_, _| {}).unwrap();
            assert!(c.on_loop > 0 && c.into_loop >= c.on_loop, "V={values}");
            assert_eq!(c.loops.iter().map(|l| l.period).sum::<u64>(), c.on_loop);
        }
        // The article's V=5 and V=7 loops are among those found.
        for (values, deal) in [(5, "[5, 3] / [2, 4, 1]"), (7, "[1, 7, 4] / [5, 3, 6, 2]")] {
            let (c, _) = census(values, |_, _| {}).unwrap();
            let p: Position = deal.parse().unwrap();
            let on: Vec<u64> = loop_positions(&p, METHODS)
                .unwrap()
                .iter()
                .map(|q| rank(q.first(), q.second()))
                .collect();
            let smallest = *on.iter().min().unwrap();
            assert!(c.loops.contains(&LoopSummary { smallest, period: on.len() as u64 }), "{deal}");
        }
    }

    #[test]
    fn bad_values() {
        assert_eq!(census(0, |_, _| {}).unwrap_err(), CensusError::Values(0));
        assert_eq!(census(14, |_, _| {}).unwrap_err(), CensusError::Values(14));
        assert!(brute_force(14).is_err());
    }
}
