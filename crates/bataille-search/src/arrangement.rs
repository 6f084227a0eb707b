//! Arrangements of a multiset deck: counting, ranking, unranking and stepping in lexicographic
//! order.
//!
//! A deck of N cards with repeated values has N! / ∏ cᵥ! distinct arrangements (cᵥ copies of
//! value v). They are numbered 0, 1, ... in lexicographic order of the card sequence, so a work
//! unit is a range of ranks: [`Arrangements::unrank`] positions a worker at the start of its
//! range once, and [`next_arrangement`] steps to each following arrangement in amortised
//! constant time.
//!
//! For a game where swapping the two players mirrors every deal, [`Arrangements::swap_classes`]
//! counts the deals up to that swap with the closed formula (arrangements + s) / 2, where s
//! counts the arrangements whose two halves are equal.

use std::fmt;

/// The arrangements of one multiset of card values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arrangements {
    /// Distinct values, increasing, with their multiplicities.
    counts: Vec<(u8, u32)>,
    /// The number of cards.
    len: usize,
    /// The number of arrangements, when it fits in a `u128`.
    total: Option<u128>,
}

/// The number of arrangements of a multiset given by its multiplicities, `None` on overflow of
/// `u128`.
///
/// ```
/// use bataille_search::arrangement::multinomial;
/// assert_eq!(multinomial([4, 4, 4]), Some(34_650)); // C=4 V=3
/// assert_eq!(multinomial([1; 12]), Some(479_001_600)); // 12!
/// ```
pub fn multinomial(multiplicities: impl IntoIterator<Item = u32>) -> Option<u128> {
    let mut total: u128 = 1;
    let mut n: u128 = 0;
    for c in multiplicities {
        // Multiply by binomial(n + c, c), one factor at a time: each partial product is an
        // integer (a product of consecutive binomials).
        for i in 1..=u128::from(c) {
            n += 1;
            total = total.checked_mul(n)? / i;
        }
    }
    Some(total)
}

impl Arrangements {
    /// The arrangements of `cards` (any order; only the multiset matters).
    pub fn new(cards: &[u8]) -> Arrangements {
        let mut sorted = cards.to_vec();
        sorted.sort_unstable();
        let mut counts: Vec<(u8, u32)> = Vec::new();
        for &c in &sorted {
            match counts.last_mut() {
                Some((v, n)) if *v == c => *n += 1,
                _ => counts.push((c, 1)),
            }
        }
        let total = multinomial(counts.iter().map(|&(_, n)| n));
        Arrangements { counts, len: sorted.len(), total }
    }

    /// The number of cards in each arrangement.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the deck is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The number of arrangements, `None` if it exceeds `u128`.
    pub fn count(&self) -> Option<u128> {
        self.total
    }

    /// The arrangements whose first ⌊N/2⌋ cards equal the last ⌊N/2⌋: none for odd N or when a
    /// value has an odd multiplicity, otherwise the arrangements of half the multiset.
    pub fn equal_halves(&self) -> Option<u128> {
        if self.len % 2 == 1 || self.counts.iter().any(|&(_, n)| n % 2 == 1) {
            return Some(0);
        }
        multinomial(self.counts.iter().map(|&(_, n)| n / 2))
    }

    /// The number of classes {A, B} = {B, A} of deals under the swap of the two halves, for
    /// even N: (arrangements + s) / 2 with s = [`Arrangements::equal_halves`]. For odd N the
    /// halves have different lengths and every arrangement is its own class.
    ///
    /// ```
    /// use bataille_search::arrangement::Arrangements;
    /// use bataille_engine::DeckSpec;
    /// let classes = |c, v| {
    ///     Arrangements::new(&DeckSpec::new(c, v).unwrap().sorted_deck()).swap_classes()
    /// };
    /// assert_eq!(classes(4, 3), Some(17_370));
    /// assert_eq!(classes(4, 4), Some(31_532_760));
    /// assert_eq!(classes(4, 5), Some(152_770_174_200));
    /// assert_eq!(classes(1, 12), Some(239_500_800));
    /// ```
    pub fn swap_classes(&self) -> Option<u128> {
        let total = self.total?;
        if self.len % 2 == 1 {
            return Some(total);
        }
        // total + s cannot overflow by much: s ≤ total, so halve first.
        let s = self.equal_halves()?;
        Some(total / 2 + s / 2 + (total % 2 + s % 2) / 2)
    }

    /// Writes the arrangement of rank `rank` (0-based, lexicographic) into `out`.
    ///
    /// The caller guarantees `rank < self.count()` and `out.len() == self.len()`; the count
    /// must fit in a `u64` (see [`Arrangements::count`]) so that no product overflows.
    pub fn unrank(&self, mut rank: u128, out: &mut [u8]) {
        let total = self.total.expect("unrank needs a countable deck");
        debug_assert!(rank < total && out.len() == self.len);
        debug_assert!(total <= u128::from(u64::MAX));
        let mut counts = self.counts.clone();
        let mut remaining = total; // arrangements of the cards not yet placed
        for (m, slot) in (1..=self.len as u128).rev().zip(out.iter_mut()) {
            // Among `remaining` arrangements of m cards, those starting with v number
            // remaining · cᵥ / m.
            for (v, c) in counts.iter_mut() {
                if *c == 0 {
                    continue;
                }
                let block = remaining * u128::from(*c) / m;
                if rank < block {
                    *slot = *v;
                    *c -= 1;
                    remaining = block;
                    break;
                }
                rank -= block;
            }
        }
    }

    /// The rank of `cards`, an arrangement of this multiset (inverse of
    /// [`Arrangements::unrank`]).
    pub fn rank(&self, cards: &[u8]) -> u128 {
        let total = self.total.expect("rank needs a countable deck");
        debug_assert_eq!(cards.len(), self.len);
        let mut counts = self.counts.clone();
        let mut remaining = total;
        let mut rank = 0;
        for (m, &card) in (1..=self.len as u128).rev().zip(cards) {
            for (v, c) in counts.iter_mut() {
                if *c == 0 {
                    continue;
                }
                let block = remaining * u128::from(*c) / m;
                if *v == card {
                    *c -= 1;
                    remaining = block;
                    break;
                }
                rank += block;
            }
        }
        rank
    }
    /// How many of the deal's two orders, `first ++ second` and `second ++ first` (one order
    /// when the hands are equal), have a lexicographic rank below `played`. That is how often
    /// an explorer that plays the first `played` arrangements of the list plays the deal
    /// {first, second}: 0, 1 or 2 times, where one deal per swap class plays it once. The
    /// public C++ explorer's exhaustive mode plays about half of the list (its log gives the
    /// exact number: 31,531,501 of 63,063,000 for C=4 V=4, 152,770,117,500 of 305,540,235,000
    /// for C=4 V=5).
    ///
    /// The caller guarantees that `first ++ second` is an arrangement of this multiset.
    pub fn orders_ranked_below(&self, first: &[u8], second: &[u8], played: u128) -> u32 {
        let mut cards = Vec::with_capacity(self.len);
        let mut below = |a: &[u8], b: &[u8]| {
            cards.clear();
            cards.extend_from_slice(a);
            cards.extend_from_slice(b);
            u32::from(self.rank(&cards) < played)
        };
        if first == second {
            below(first, second)
        } else {
            below(first, second) + below(second, first)
        }
    }
}

/// Steps `cards` to the next arrangement in lexicographic order; returns `false` (leaving the
/// slice sorted increasing, the first arrangement) after the last one.
///
/// ```
/// use bataille_search::arrangement::next_arrangement;
/// let mut a = [1, 1, 2];
/// assert!(next_arrangement(&mut a));
/// assert_eq!(a, [1, 2, 1]);
/// assert!(next_arrangement(&mut a));
/// assert_eq!(a, [2, 1, 1]);
/// assert!(!next_arrangement(&mut a));
/// ```
#[inline]
pub fn next_arrangement(cards: &mut [u8]) -> bool {
    let n = cards.len();
    if n < 2 {
        return false;
    }
    // The longest non-increasing suffix starts at i + 1.
    let mut i = n - 1;
    while i > 0 && cards[i - 1] >= cards[i] {
        i -= 1;
    }
    if i == 0 {
        cards.reverse();
        return false;
    }
    let pivot = i - 1;
    let mut j = n - 1;
    while cards[j] <= cards[pivot] {
        j -= 1;
    }
    cards.swap(pivot, j);
    cards[i..].reverse();
    true
}

/// Why an exhaustive enumeration cannot be run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooManyArrangements {
    /// The number of cards.
    pub cards: usize,
}

impl fmt::Display for TooManyArrangements {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a deck of {} cards has more than 2^64 arrangements: too many for an exhaustive \
             search (use random deals)",
            self.cards
        )
    }
}

impl std::error::Error for TooManyArrangements {}

#[cfg(test)]
mod tests {
    use super::*;
    use bataille_engine::DeckSpec;
    use proptest::prelude::*;

    fn deck(c: usize, v: usize) -> Vec<u8> {
        DeckSpec::new(c, v).unwrap().sorted_deck()
    }

    /// Every distinct permutation, by brute force over index permutations (Heap's algorithm)
    /// and a set, independently of ranking and stepping.
    fn brute_force(cards: &[u8]) -> std::collections::BTreeSet<Vec<u8>> {
        let mut a = cards.to_vec();
        let n = a.len();
        let mut out = std::collections::BTreeSet::new();
        let mut c = vec![0; n];
        out.insert(a.clone());
        let mut i = 0;
        while i < n {
            if c[i] < i {
                if i % 2 == 0 {
                    a.swap(0, i)
                } else {
                    a.swap(c[i], i)
                }
                out.insert(a.clone());
                c[i] += 1;
                i = 0;
            } else {
                c[i] = 0;
                i += 1;
            }
        }
        out
    }

    #[test]
    fn stepping_and_unranking_agree_with_brute_force() {
        for (c, v) in [(1, 1), (1, 4), (2, 3), (3, 2), (2, 4), (1, 7), (4, 2)] {
            let cards = deck(c, v);
            let all = brute_force(&cards);
            let arr = Arrangements::new(&cards);
            assert_eq!(arr.count(), Some(all.len() as u128), "C={c} V={v}");
            let mut a = cards.clone();
            for (rank, expected) in all.iter().enumerate() {
                assert_eq!(&a, expected, "C={c} V={v} rank {rank}");
                let mut u = vec![0; cards.len()];
                arr.unrank(rank as u128, &mut u);
                assert_eq!(&u, expected);
                assert_eq!(arr.rank(expected), rank as u128);
                let more = next_arrangement(&mut a);
                assert_eq!(more, rank + 1 < all.len());
            }
            assert_eq!(a, cards, "wraps to the first arrangement");
        }
    }

    #[test]
    fn closed_formula_for_published_counts() {
        // (C, V, arrangements, classes up to the swap): the published counts of deals.
        let check = |c: usize, v: usize, classes: u128| {
            let arr = Arrangements::new(&deck(c, v));
            assert_eq!(arr.swap_classes(), Some(classes), "C={c} V={v}");
        };
        check(4, 3, 17_370);
        check(4, 4, 31_532_760);
        check(4, 5, 152_770_174_200);
        check(1, 12, 239_500_800);
        assert_eq!(Arrangements::new(&deck(4, 13)).count(), None, "52!/(4!)^13 > 2^128");
    }

    #[test]
    fn equal_halves_by_brute_force() {
        for (c, v) in [(2, 2), (2, 3), (4, 2), (2, 4), (3, 2), (1, 6)] {
            let cards = deck(c, v);
            let h = cards.len() / 2;
            let all = brute_force(&cards);
            let s =
                all.iter().filter(|a| cards.len().is_multiple_of(2) && a[..h] == a[h..]).count();
            let classes = all
                .iter()
                .map(|a| {
                    let swapped = [&a[h..], &a[..h]].concat();
                    if cards.len().is_multiple_of(2) { a.clone().min(swapped) } else { a.clone() }
                })
                .collect::<std::collections::BTreeSet<_>>()
                .len();
            let arr = Arrangements::new(&cards);
            assert_eq!(arr.equal_halves(), Some(s as u128), "C={c} V={v}");
            assert_eq!(arr.swap_classes(), Some(classes as u128), "C={c} V={v}");
        }
    }

    /// An explorer walking the first half of the list plays each class as often as
    /// `orders_ranked_below` says: counted class by class over the brute-force list.
    #[test]
    fn orders_ranked_below_by_brute_force() {
        for (c, v) in [(2, 2), (2, 3), (4, 2), (2, 4), (1, 6)] {
            let cards = deck(c, v);
            let h = cards.len() / 2;
            let all: Vec<_> = brute_force(&cards).into_iter().collect();
            let half = all.len() / 2;
            let mut walked = std::collections::BTreeMap::<Vec<u8>, u32>::new();
            for a in &all {
                let swapped = [&a[h..], &a[..h]].concat();
                walked.entry(a.clone().min(swapped)).or_default();
            }
            for a in &all[..half] {
                let swapped = [&a[h..], &a[..h]].concat();
                *walked.get_mut(&a.clone().min(swapped)).unwrap() += 1;
            }
            let arr = Arrangements::new(&cards);
            for (class, n) in &walked {
                let got = arr.orders_ranked_below(&class[..h], &class[h..], half as u128);
                assert_eq!(got, *n, "C={c} V={v} {class:?}");
            }
            // Some classes are played twice and some never: the pitfall of the half list.
            if (c, v) == (2, 4) {
                assert!(walked.values().any(|&n| n == 0) && walked.values().any(|&n| n == 2));
            }
        }
    }

    proptest! {
        #[test]
        fn unrank_then_rank(c in 1usize..5, v in 1usize..6, frac in 0.0f64..1.0) {
            let arr = Arrangements::new(&deck(c, v));
            let total = arr.count().unwrap();
            let rank = ((total as f64 * frac) as u128).min(total - 1);
            let mut a = vec![0; arr.len()];
            arr.unrank(rank, &mut a);
            prop_assert_eq!(arr.rank(&a), rank);
            if rank + 1 < total {
                let mut b = vec![0; arr.len()];
                arr.unrank(rank + 1, &mut b);
                prop_assert!(next_arrangement(&mut a));
                prop_assert_eq!(a, b);
            }
        }
    }
}
