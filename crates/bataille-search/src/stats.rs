//! Order-independent aggregates of explored deals.
//!
//! Everything in [`Stats`] is an exact integer (counts, sums and sums of squares in `u128`,
//! histograms) or a selection with a total order and a deterministic tie-break (the longest
//! games: larger measure first, then the smaller deal; per loop: the smallest deal reaching it).
//! [`Stats::merge`] is therefore associative and commutative, so the result of a search does
//! not depend on how deals were split among threads, work units or shards.
//!
//! **Looping deals.** A hunt (`bataille hunt`) also keeps the deals that reach each loop:
//! [`LoopStats::kept`], a sorted map deal → tail, holding the `loop_deals` smallest deals of
//! each loop (a per-loop cap, set with [`Stats::with_loop_deals`]; 0, the default, keeps
//! none). Keeping the smallest *k* of a set is order-independent, so the kept lists merge
//! exactly; a loop whose list hit the cap says so ([`LoopStats::truncated`]: it is reached by
//! more deals than it keeps). In a random run a deal drawn twice is kept once but counted twice
//! in [`LoopStats::deals`].
//!
//! **Capped cycle lists.** A run that reaches millions of distinct loops (C=4 V=7 optimized
//! reaches one every few thousand deals) can keep only `max_cycles` of them
//! ([`Stats::keeping_cycles`]; 0, the default, keeps all): those with the smallest
//! [`cycle_rank`], a bijective mix of the canonical id. The *k* smallest of a set merge
//! exactly, so a loop kept at the end was never dropped by any part: its count, example and
//! shortest tail are exact. Since the ids are hashes, the kept loops are a uniform sample of
//! the distinct loops, and the rank of the last one kept estimates how many there are
//! ([`Stats::distinct_cycles_estimate`]). The counts of looping deals and the shortest tail
//! over all of them ([`Stats::shortest_tail`]) stay exact.

use std::collections::BTreeMap;

use bataille_engine::position::quoted;

use crate::game::{CycleInfo, DealOutcome, DealRecord};

/// How a finished game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Finish {
    /// The first player won.
    First,
    /// The second player won.
    Second,
    /// Draw.
    Draw,
}

impl Finish {
    /// `first`, `second` or `draw`.
    pub fn name(self) -> &'static str {
        match self {
            Finish::First => "first",
            Finish::Second => "second",
            Finish::Draw => "draw",
        }
    }

    /// Reads [`Finish::name`].
    pub fn from_name(s: &str) -> Option<Finish> {
        [Finish::First, Finish::Second, Finish::Draw].into_iter().find(|f| f.name() == s)
    }
}

/// Count, sum and sum of squares of a measure, exactly.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Moments {
    /// Number of values.
    pub n: u64,
    /// Sum of the values.
    pub sum: u128,
    /// Sum of the squares.
    pub sum_sq: u128,
}

impl Moments {
    #[inline(always)]
    fn add(&mut self, x: u64) {
        self.n += 1;
        self.sum += u128::from(x);
        self.sum_sq += u128::from(x) * u128::from(x);
    }

    // (Merges saturate: parts read from files are checked, but a sum of several is not.)
    fn merge(&mut self, o: &Moments) {
        self.n = self.n.saturating_add(o.n);
        self.sum = self.sum.saturating_add(o.sum);
        self.sum_sq = self.sum_sq.saturating_add(o.sum_sq);
    }

    /// The mean, or `None` with no value.
    pub fn mean(&self) -> Option<f64> {
        (self.n > 0).then(|| self.sum as f64 / self.n as f64)
    }

    /// The sample standard deviation (n − 1 in the denominator), or `None` with fewer than two
    /// values. The numerator n·Σx² − (Σx)² is computed exactly.
    pub fn sd(&self) -> Option<f64> {
        if self.n < 2 {
            return None;
        }
        let n = u128::from(self.n);
        // Exact when it fits (every real run: values far below 2^32); in floats otherwise.
        let num = n
            .checked_mul(self.sum_sq)
            .zip(self.sum.checked_mul(self.sum))
            .and_then(|(a, b)| a.checked_sub(b))
            .map_or_else(
                || {
                    let (n, s, q) = (n as f64, self.sum as f64, self.sum_sq as f64);
                    (n * q - s * s).max(0.0)
                },
                |x| x as f64,
            );
        Some((num / (n * (n - 1)) as f64).sqrt())
    }

    /// The 95% confidence interval of the mean (normal approximation, ±1.96 standard errors).
    pub fn ci95(&self) -> Option<(f64, f64)> {
        let (m, sd) = (self.mean()?, self.sd()?);
        let h = 1.96 * sd / (self.n as f64).sqrt();
        Some((m - h, m + h))
    }
}

/// An exact histogram of non-negative integers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Histogram {
    /// `dense[v]` counts the value v, for v below [`Histogram::DENSE`]; the vector is exactly
    /// as long as the largest value seen + 1, so equal histograms are equal values.
    dense: Vec<u64>,
    /// Counts of values from [`Histogram::DENSE`] up.
    sparse: BTreeMap<u64, u64>,
}

impl Histogram {
    /// Values below this are counted in a vector.
    pub const DENSE: u64 = 1 << 16;

    /// Counts `v` once.
    #[inline(always)]
    pub fn add(&mut self, v: u64) {
        self.add_n(v, 1);
    }

    /// Counts `v` `n` times.
    #[inline(always)]
    pub fn add_n(&mut self, v: u64, n: u64) {
        if v < Histogram::DENSE {
            let i = v as usize;
            if i >= self.dense.len() {
                self.dense.resize(i + 1, 0);
            }
            self.dense[i] += n;
        } else {
            *self.sparse.entry(v).or_insert(0) += n;
        }
    }

    fn merge(&mut self, o: &Histogram) {
        if o.dense.len() > self.dense.len() {
            self.dense.resize(o.dense.len(), 0);
        }
        for (a, b) in self.dense.iter_mut().zip(&o.dense) {
            *a = a.saturating_add(*b);
        }
        for (&v, &n) in &o.sparse {
            let c = self.sparse.entry(v).or_insert(0);
            *c = c.saturating_add(n);
        }
    }

    /// The (value, count) pairs with a non-zero count, by increasing value.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        let dense = self.dense.iter().enumerate().filter(|(_, n)| **n > 0);
        dense.map(|(v, &n)| (v as u64, n)).chain(self.sparse.iter().map(|(&v, &n)| (v, n)))
    }
}

/// One finished game kept among the longest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Tricks played.
    pub tricks: u64,
    /// Cards each player turned.
    pub cards: u64,
    /// How it ended.
    pub finish: Finish,
    /// The deal.
    pub deal: Vec<u8>,
}

/// Which measure a [`TopK`] ranks by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// Tricks played.
    Tricks,
    /// Cards each player turned.
    Cards,
}

impl Measure {
    /// `tricks` or `cards`.
    pub fn name(self) -> &'static str {
        match self {
            Measure::Tricks => "tricks",
            Measure::Cards => "cards",
        }
    }

    #[inline(always)]
    fn of(self, tricks: u64, cards: u64) -> u64 {
        match self {
            Measure::Tricks => tricks,
            Measure::Cards => cards,
        }
    }
}

/// Why a text is not a [`Measure`] name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid measure {}: expected tricks or cards", quoted(.name))]
pub struct MeasureError {
    name: String,
}

impl std::str::FromStr for Measure {
    type Err = MeasureError;

    /// Reads a name printed by [`Measure::name`].
    fn from_str(s: &str) -> Result<Measure, MeasureError> {
        match s {
            "tricks" => Ok(Measure::Tricks),
            "cards" => Ok(Measure::Cards),
            _ => Err(MeasureError { name: s.to_string() }),
        }
    }
}

impl std::fmt::Display for Measure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The k longest finished games by one measure: larger measure first, ties broken by the
/// smaller deal (then by the other measure, which the deal already determines).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopK {
    measure: Measure,
    k: usize,
    entries: Vec<Record>,
}

impl TopK {
    /// An empty list keeping `k` games.
    pub fn new(measure: Measure, k: usize) -> TopK {
        // Grown as games come: `k` may be large, and most lists stay short.
        TopK { measure, k, entries: Vec::with_capacity(k.min(64)) }
    }

    /// The games kept, best first.
    pub fn entries(&self) -> &[Record] {
        &self.entries
    }

    /// The measure ranked.
    pub fn measure(&self) -> Measure {
        self.measure
    }

    #[inline(always)]
    fn offer(&mut self, tricks: u64, cards: u64, finish: Finish, deal: &[u8]) {
        if self.entries.len() == self.k {
            let Some(last) = self.entries.last() else { return };
            let m = self.measure.of(tricks, cards);
            if m < self.measure.of(last.tricks, last.cards) {
                return;
            }
        }
        self.insert(Record { tricks, cards, finish, deal: deal.to_vec() });
    }

    fn key<'a>(&self, r: &'a Record) -> (std::cmp::Reverse<u64>, &'a [u8]) {
        (std::cmp::Reverse(self.measure.of(r.tricks, r.cards)), &r.deal)
    }

    #[cold]
    fn insert(&mut self, r: Record) {
        let key = self.key(&r);
        let at = self.entries.partition_point(|e| self.key(e) < key);
        if at >= self.k || self.entries.get(at).is_some_and(|e| self.key(e) == key) {
            return;
        }
        self.entries.insert(at, r);
        self.entries.truncate(self.k);
    }

    fn merge(&mut self, o: &TopK) {
        for r in &o.entries {
            self.offer(r.tricks, r.cards, r.finish, &r.deal);
        }
    }
}

/// What is known of one loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoopStats {
    /// Tricks in one turn.
    pub period_tricks: u64,
    /// Cards each player turned in one turn.
    pub period_cards: u64,
    /// Deals that reach it.
    pub deals: u64,
    /// The smallest deal (lexicographically) that reaches it.
    pub example: Vec<u8>,
    /// The shortest tail (tricks) among those deals.
    pub shortest_tail: u64,
    /// The smallest deal with that tail.
    pub shortest_tail_deal: Vec<u8>,
    /// The smallest distinct deals reaching it (at most the run's `loop_deals` cap), each
    /// with its tail in tricks; empty unless the run keeps looping deals.
    pub kept: BTreeMap<Vec<u8>, u64>,
    /// Whether more distinct deals reach it than the cap lets [`LoopStats::kept`] hold (some
    /// were dropped: the largest ones).
    pub truncated: bool,
}

impl LoopStats {
    /// Keeps at most `cap` deals (the smallest), noting whether any was dropped.
    fn cap(&mut self, cap: usize) {
        while self.kept.len() > cap {
            self.kept.pop_last();
            self.truncated = true;
        }
    }

    fn merge(&mut self, o: &LoopStats, cap: usize) {
        // The union of two "smallest k" lists, cut to k, is the smallest k of the union; it
        // overflows iff either part did or the union does: the same whatever the order.
        self.truncated |= o.truncated;
        for (deal, &tail) in &o.kept {
            self.kept.insert(deal.clone(), tail);
        }
        self.cap(cap);
        self.deals = self.deals.saturating_add(o.deals);
        if o.example < self.example {
            self.example.clone_from(&o.example);
        }
        if (o.shortest_tail, &o.shortest_tail_deal) < (self.shortest_tail, &self.shortest_tail_deal)
        {
            self.shortest_tail = o.shortest_tail;
            self.shortest_tail_deal.clone_from(&o.shortest_tail_deal);
        }
    }
}

/// The aggregates of a set of explored deals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stats {
    /// Deals played.
    pub deals: u64,
    /// Deals the first player won.
    pub first_wins: u64,
    /// Deals the second player won.
    pub second_wins: u64,
    /// Drawn deals.
    pub draws: u64,
    /// Deals that loop (not distinct loops: those are [`Stats::loops`]).
    pub looping_deals: u64,
    /// Deals stopped by the trick cap.
    pub capped: u64,
    /// Tricks of the finished games.
    pub tricks: Moments,
    /// Cards of the finished games.
    pub cards: Moments,
    /// Histogram of the tricks of finished games.
    pub tricks_histogram: Histogram,
    /// Histogram of the cards of finished games.
    pub cards_histogram: Histogram,
    /// The longest finished games by tricks.
    pub longest_by_tricks: TopK,
    /// The longest finished games by cards.
    pub longest_by_cards: TopK,
    /// Every loop reached, by canonical id (with a `max_cycles` cap: those of smallest
    /// [`cycle_rank`]).
    pub loops: BTreeMap<u64, LoopStats>,
    /// How many deals each loop keeps in [`LoopStats::kept`] (0: none).
    pub loop_deals: usize,
    /// How many distinct loops [`Stats::loops`] keeps (0: all), those of smallest
    /// [`cycle_rank`].
    pub max_cycles: usize,
    /// Whether some distinct loop was dropped (or never kept) for the `max_cycles` cap.
    pub cycles_dropped: bool,
    /// The ranks of the loops kept, with their ids (only with a `max_cycles` cap).
    ranks: BTreeMap<u64, u64>,
    /// The looping deal with the shortest tail, smallest deal on ties, over every looping
    /// deal (kept loop or not): (tail tricks, deal, loop id).
    shortest: Option<(u64, Vec<u8>, u64)>,
}

/// The order in which a `max_cycles` cap keeps loops: the canonical id through SplitMix64
/// ([`crate::seed::splitmix64`]), a bijection of `u64` that spreads any set of ids uniformly.
pub fn cycle_rank(id: u64) -> u64 {
    crate::seed::splitmix64(id)
}

impl Stats {
    /// No deal yet; keep the `top` longest games by each measure.
    pub fn new(top: usize) -> Stats {
        Stats::with_loop_deals(top, 0)
    }

    /// No deal yet; keep the `top` longest games by each measure and, for each loop, the
    /// `loop_deals` smallest deals that reach it.
    pub fn with_loop_deals(top: usize, loop_deals: usize) -> Stats {
        Stats {
            deals: 0,
            first_wins: 0,
            second_wins: 0,
            draws: 0,
            looping_deals: 0,
            capped: 0,
            tricks: Moments::default(),
            cards: Moments::default(),
            tricks_histogram: Histogram::default(),
            cards_histogram: Histogram::default(),
            longest_by_tricks: TopK::new(Measure::Tricks, top),
            longest_by_cards: TopK::new(Measure::Cards, top),
            loops: BTreeMap::new(),
            loop_deals,
            max_cycles: 0,
            cycles_dropped: false,
            ranks: BTreeMap::new(),
            shortest: None,
        }
    }

    /// The same aggregates keeping at most `max_cycles` distinct loops (0: all), those of
    /// smallest [`cycle_rank`]. Meant for empty aggregates: loops already kept beyond the cap
    /// are dropped.
    pub fn keeping_cycles(mut self, max_cycles: usize) -> Stats {
        self.max_cycles = max_cycles;
        self.set_ranks();
        self.trim_loops();
        self
    }

    /// How many longest games are kept.
    pub fn top(&self) -> usize {
        self.longest_by_tricks.k
    }

    /// Games that ended (wins and draws).
    pub fn finished(&self) -> u64 {
        self.first_wins.saturating_add(self.second_wins).saturating_add(self.draws)
    }

    /// Adds one deal.
    #[inline(always)]
    pub fn add(&mut self, r: &DealRecord, deal: &[u8]) {
        self.deals += 1;
        let finish = match r.outcome {
            DealOutcome::FirstWins => {
                self.first_wins += 1;
                Finish::First
            }
            DealOutcome::SecondWins => {
                self.second_wins += 1;
                Finish::Second
            }
            DealOutcome::Draw => {
                self.draws += 1;
                Finish::Draw
            }
            DealOutcome::Capped => {
                self.capped += 1;
                return;
            }
            DealOutcome::Cycle(c) => {
                self.add_cycle(&c, deal);
                return;
            }
        };
        self.tricks.add(r.tricks);
        self.cards.add(r.cards);
        self.tricks_histogram.add(r.tricks);
        self.cards_histogram.add(r.cards);
        self.longest_by_tricks.offer(r.tricks, r.cards, finish, deal);
        self.longest_by_cards.offer(r.tricks, r.cards, finish, deal);
    }

    #[cold]
    fn add_cycle(&mut self, c: &CycleInfo, deal: &[u8]) {
        self.looping_deals += 1;
        self.offer_shortest(c.tail_tricks, deal, c.id);
        if self.max_cycles > 0
            && self.loops.len() >= self.max_cycles
            && !self.loops.contains_key(&c.id)
            && self.ranks.last_key_value().is_some_and(|(&worst, _)| cycle_rank(c.id) > worst)
        {
            self.cycles_dropped = true;
            return;
        }
        let mut kept = BTreeMap::new();
        if self.loop_deals > 0 {
            kept.insert(deal.to_vec(), c.tail_tricks);
        }
        let one = LoopStats {
            period_tricks: c.period_tricks,
            period_cards: c.period_cards,
            deals: 1,
            example: deal.to_vec(),
            shortest_tail: c.tail_tricks,
            shortest_tail_deal: deal.to_vec(),
            kept,
            truncated: false,
        };
        match self.loops.get_mut(&c.id) {
            Some(l) => l.merge(&one, self.loop_deals),
            None => self.insert_loop(c.id, one),
        }
    }

    fn offer_shortest(&mut self, tail: u64, deal: &[u8], id: u64) {
        if self.shortest.as_ref().is_none_or(|(t, d, _)| (tail, deal) < (*t, d.as_slice())) {
            self.shortest = Some((tail, deal.to_vec(), id));
        }
    }

    /// Adds a loop not yet kept, then applies the `max_cycles` cap.
    fn insert_loop(&mut self, id: u64, l: LoopStats) {
        self.loops.insert(id, l);
        if self.max_cycles > 0 {
            self.ranks.insert(cycle_rank(id), id);
            self.trim_loops();
        }
    }

    /// Drops the loops of largest rank beyond the `max_cycles` cap.
    fn trim_loops(&mut self) {
        while self.max_cycles > 0 && self.loops.len() > self.max_cycles {
            let Some((_, worst)) = self.ranks.pop_last() else { break };
            self.loops.remove(&worst);
            self.cycles_dropped = true;
        }
    }

    /// How many distinct loops the deals reach, estimated when the `max_cycles` cap dropped
    /// some (else `loops.len()` is exact and this is `None`, as it is with a cap below 3):
    /// from the rank of the last loop kept, by the "k minimum values" estimator
    /// (k - 1) / U₍ₖ₎, relative standard error about 1/√(k - 2).
    pub fn distinct_cycles_estimate(&self) -> Option<f64> {
        let k = self.ranks.len();
        let (&worst, _) = self.ranks.last_key_value()?;
        if !self.cycles_dropped || k < 3 {
            return None;
        }
        // U₍ₖ₎: the k-th smallest rank as a fraction of the whole range, in (0, 1].
        let u = (worst as f64 + 1.0) / 2f64.powi(64);
        Some((k - 1) as f64 / u)
    }

    /// Whether some loop reached by more distinct deals than the cap dropped some of them.
    pub fn loop_deals_truncated(&self) -> bool {
        self.loops.values().any(|l| l.truncated)
    }

    /// Adds every deal counted in `o` (kept with the same `loop_deals` cap).
    pub fn merge(&mut self, o: &Stats) {
        debug_assert_eq!(self.loop_deals, o.loop_deals, "merging runs with different caps");
        debug_assert_eq!(self.max_cycles, o.max_cycles, "merging runs with different caps");
        self.deals = self.deals.saturating_add(o.deals);
        self.first_wins = self.first_wins.saturating_add(o.first_wins);
        self.second_wins = self.second_wins.saturating_add(o.second_wins);
        self.draws = self.draws.saturating_add(o.draws);
        self.looping_deals = self.looping_deals.saturating_add(o.looping_deals);
        self.capped = self.capped.saturating_add(o.capped);
        self.tricks.merge(&o.tricks);
        self.cards.merge(&o.cards);
        self.tricks_histogram.merge(&o.tricks_histogram);
        self.cards_histogram.merge(&o.cards_histogram);
        self.longest_by_tricks.merge(&o.longest_by_tricks);
        self.longest_by_cards.merge(&o.longest_by_cards);
        self.cycles_dropped |= o.cycles_dropped;
        if let Some((tail, deal, id)) = &o.shortest {
            self.offer_shortest(*tail, deal, *id);
        }
        for (id, l) in &o.loops {
            match self.loops.get_mut(id) {
                Some(mine) => mine.merge(l, self.loop_deals),
                None => self.insert_loop(*id, l.clone()),
            }
        }
    }

    /// The looping deal with the shortest tail: (tail tricks, deal, loop id), smallest deal
    /// on ties. Over every looping deal, also those of loops dropped by a `max_cycles` cap.
    pub fn shortest_tail(&self) -> Option<(u64, &[u8], u64)> {
        self.shortest.as_ref().map(|(t, d, id)| (*t, d.as_slice(), *id))
    }

    /// Restores the shortest tail (decoding a saved state): given for a capped run, else
    /// found among the loops.
    pub(crate) fn set_shortest_tail(&mut self, given: Option<(u64, Vec<u8>, u64)>) {
        self.shortest = given.or_else(|| {
            self.loops
                .iter()
                .map(|(&id, l)| (l.shortest_tail, l.shortest_tail_deal.clone(), id))
                .min_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)))
        });
    }

    /// Restores the ranks of the kept loops (decoding a saved state, setting a cap).
    pub(crate) fn set_ranks(&mut self) {
        self.ranks = if self.max_cycles > 0 {
            self.loops.keys().map(|&id| (cycle_rank(id), id)).collect()
        } else {
            BTreeMap::new()
        };
    }

    /// Restores a list of longest games (decoding a saved state).
    pub(crate) fn set_records(&mut self, measure: Measure, records: Vec<Record>) {
        let list = match measure {
            Measure::Tricks => &mut self.longest_by_tricks,
            Measure::Cards => &mut self.longest_by_cards,
        };
        for r in records {
            list.offer(r.tricks, r.cards, r.finish, &r.deal);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Moments whose exact numerator does not fit (only a forged file holds such): a float sd,
    /// not an overflow.
    #[test]
    fn sd_of_huge_moments_does_not_overflow() {
        let m = Moments { n: 2, sum: 1 << 64, sum_sq: 1 << 127 };
        assert!(m.sd().is_some_and(f64::is_finite));
        let m = Moments { n: 3, sum: 6, sum_sq: 14 };
        assert_eq!(m.sd(), Some(1.0));
    }
    use proptest::prelude::*;

    fn record(tricks: u64, cards: u64, first: bool) -> DealRecord {
        let outcome = if first { DealOutcome::FirstWins } else { DealOutcome::SecondWins };
        DealRecord { outcome, tricks, cards }
    }

    #[test]
    fn measures_parse_as_printed() {
        for m in [Measure::Tricks, Measure::Cards] {
            assert_eq!(m.name().parse::<Measure>(), Ok(m));
            assert_eq!(m.to_string(), m.name());
        }
        let e = "length".parse::<Measure>().unwrap_err().to_string();
        assert_eq!(e, "invalid measure \"length\": expected tricks or cards");
    }

    #[test]
    fn top_k_tie_break_by_deal() {
        let mut s = Stats::new(2);
        s.add(&record(5, 6, true), &[3, 1]);
        s.add(&record(5, 7, true), &[2, 1]);
        s.add(&record(5, 9, true), &[4, 1]);
        s.add(&record(4, 9, true), &[1, 1]);
        let deals: Vec<_> = s.longest_by_tricks.entries().iter().map(|r| r.deal.clone()).collect();
        assert_eq!(deals, [vec![2, 1], vec![3, 1]]);
        let deals: Vec<_> = s.longest_by_cards.entries().iter().map(|r| r.deal.clone()).collect();
        assert_eq!(deals, [vec![1, 1], vec![4, 1]]);
    }

    #[test]
    fn moments() {
        let mut m = Moments::default();
        for x in [2, 4, 4, 4, 5, 5, 7, 9] {
            m.add(x);
        }
        assert_eq!(m.mean(), Some(5.0));
        assert!((m.sd().unwrap() - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
    }

    /// A deal of the property tests: (tricks, kind, a, b); kind 4 loops, into loop `a % 6`.
    fn synthetic(&(t, kind, a, b): &(u64, u64, u8, u8)) -> (DealRecord, Vec<u8>) {
        let outcome = match kind {
            0 => DealOutcome::FirstWins,
            1 => DealOutcome::SecondWins,
            2 => DealOutcome::Draw,
            3 => DealOutcome::Capped,
            _ => DealOutcome::Cycle(CycleInfo {
                id: u64::from(a % 6).wrapping_mul(0x9e37_79b9_7f4a_7c15),
                tail_tricks: u64::from(b),
                tail_cards: u64::from(b),
                period_tricks: 7,
                period_cards: 8,
            }),
        };
        (DealRecord { outcome, tricks: t, cards: t + u64::from(a) }, vec![a, b])
    }

    fn fold<'a>(empty: &Stats, deals: impl Iterator<Item = &'a (u64, u64, u8, u8)>) -> Stats {
        let mut s = empty.clone();
        for d in deals {
            let (r, deal) = synthetic(d);
            s.add(&r, &deal);
        }
        s
    }

    proptest! {
        /// Splitting the deals in any way and merging gives the same aggregates (the kept
        /// looping deals included, with caps small enough to cut some lists and drop some
        /// loops).
        #[test]
        fn merge_is_order_independent(
            deals in proptest::collection::vec((0u64..70_000, 0u64..5, 0u8..12, 0u8..4), 0..60),
            cut in 0usize..60,
            max_cycles in 0usize..4,
        ) {
            let empty = Stats::with_loop_deals(3, 2).keeping_cycles(max_cycles);
            let whole = fold(&empty, deals.iter());
            let cut = cut.min(deals.len());
            let x = fold(&empty, deals[..cut].iter().rev());
            let mut y = fold(&empty, deals[cut..].iter());
            y.merge(&x);
            prop_assert_eq!(y, whole);
        }

        /// A `max_cycles` cap keeps exactly the loops of smallest rank, each with the counts
        /// it has without the cap; the other counts and the shortest tail are unchanged.
        #[test]
        fn cycle_cap_keeps_the_smallest_ranks_exactly(
            deals in proptest::collection::vec((0u64..70_000, 4u64..6, 0u8..12, 0u8..4), 0..60),
            max_cycles in 1usize..5,
        ) {
            let all = fold(&Stats::with_loop_deals(3, 2), deals.iter());
            let capped = fold(&Stats::with_loop_deals(3, 2).keeping_cycles(max_cycles), deals.iter());
            let mut ranked: Vec<u64> = all.loops.keys().copied().collect();
            ranked.sort_by_key(|&id| cycle_rank(id));
            ranked.truncate(max_cycles);
            let expected: BTreeMap<u64, LoopStats> =
                ranked.iter().map(|id| (*id, all.loops[id].clone())).collect();
            prop_assert_eq!(&capped.loops, &expected);
            prop_assert_eq!(capped.cycles_dropped, all.loops.len() > max_cycles);
            prop_assert_eq!(capped.looping_deals, all.looping_deals);
            prop_assert_eq!(capped.shortest_tail(), all.shortest_tail());
            prop_assert_eq!(&capped.longest_by_tricks, &all.longest_by_tricks);
        }
    }

    /// The estimate of the number of distinct loops from the kept ranks: within three relative
    /// standard errors (1/√(k - 2)) of the truth for several sizes; none when nothing is
    /// dropped (the count is exact).
    #[test]
    fn distinct_cycles_estimate() {
        let looping = |id: u64| DealRecord {
            outcome: DealOutcome::Cycle(CycleInfo {
                id,
                tail_tricks: 1,
                tail_cards: 1,
                period_tricks: 2,
                period_cards: 2,
            }),
            tricks: 0,
            cards: 0,
        };
        let k = 400;
        for n in [300u64, 5_000, 60_000] {
            let mut s = Stats::new(1).keeping_cycles(k);
            // Ids as the engine makes them: FNV-1a hashes of distinct positions.
            for i in 0..n {
                s.add(&looping(crate::sealed::fnv1a(&i.to_le_bytes())), &[1, 2]);
            }
            if n <= k as u64 {
                assert!(!s.cycles_dropped);
                assert_eq!(s.loops.len() as u64, n);
                assert_eq!(s.distinct_cycles_estimate(), None);
            } else {
                assert!(s.cycles_dropped);
                assert_eq!(s.loops.len(), k);
                let e = s.distinct_cycles_estimate().unwrap();
                let se = 1.0 / ((k - 2) as f64).sqrt();
                assert!((e / n as f64 - 1.0).abs() < 3.0 * se, "n {n}: estimate {e}");
            }
        }
        let mut tiny = Stats::new(1).keeping_cycles(2);
        for id in 0..10 {
            tiny.add(&looping(id), &[1, 2]);
        }
        assert_eq!(tiny.distinct_cycles_estimate(), None);
    }
}
