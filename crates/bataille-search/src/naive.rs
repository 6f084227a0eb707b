//! A deliberately naive bataille and exhaustive search, written from the rules alone, to
//! cross-check the fast path: hands in plain vectors, every position of a game kept in a hash
//! map to detect loops, every arrangement of the deck generated recursively and reduced by the
//! swap with a set, and aggregates computed from the full list of results.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};

use rustc_hash::FxHashMap as HashMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NaiveMethod {
    Natural,
    Optimized,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum NaiveOutcome {
    First,
    Second,
    Draw,
    /// (id, tail tricks, period tricks, period cards)
    Loop(u64, u64, u64, u64),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NaiveResult {
    pub(crate) outcome: NaiveOutcome,
    pub(crate) tricks: u64,
    pub(crate) cards: u64,
}

type Pos = (Vec<u8>, Vec<u8>);

/// The FNV-1a fingerprint of a position as the engine documents it: the first hand's length as
/// two little-endian bytes, then the cards of the first hand, then of the second.
fn fingerprint(p: &Pos) -> u64 {
    let mut bytes = vec![p.0.len() as u8, (p.0.len() >> 8) as u8];
    bytes.extend(&p.0);
    bytes.extend(&p.1);
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A position as one vector: the first hand, a 0, the second hand.
fn key(hands: &[Vec<u8>; 2]) -> Vec<u8> {
    let mut k = hands[0].clone();
    k.push(0);
    k.extend(&hands[1]);
    k
}

fn split(k: &[u8]) -> Pos {
    let i = k.iter().position(|&c| c == 0).unwrap();
    (k[..i].to_vec(), k[i + 1..].to_vec())
}

pub(crate) fn play(first: &[u8], second: &[u8], m: [NaiveMethod; 2]) -> NaiveResult {
    let symmetric = m[0] == m[1];
    let mut hands = [first.to_vec(), second.to_vec()];
    // Every position seen, with the tricks and cards played before it.
    let mut seen: HashMap<Vec<u8>, (u64, u64)> =
        HashMap::with_capacity_and_hasher(64, Default::default());
    let mut table: Vec<(u8, u8)> = Vec::with_capacity(first.len() + 1);
    let mut won: Vec<u8> = Vec::with_capacity(2 * first.len() + 2);
    let (mut tricks, mut cards) = (0u64, 0u64);
    loop {
        let pos = key(&hands);
        if let Some(&(t0, c0)) = seen.get(&pos) {
            // The loop: every position seen at or after the first occurrence.
            let on_loop: Vec<Pos> =
                seen.iter().filter(|(_, (t, _))| *t >= t0).map(|(k, _)| split(k)).collect();
            let mut candidates = on_loop.clone();
            if symmetric {
                candidates.extend(on_loop.into_iter().map(|(a, b)| (b, a)));
            }
            let smallest = candidates
                .into_iter()
                .min_by(|x, y| (x.0.len(), &x.0, &x.1).cmp(&(y.0.len(), &y.0, &y.1)))
                .unwrap();
            return NaiveResult {
                outcome: NaiveOutcome::Loop(fingerprint(&smallest), t0, tricks - t0, cards - c0),
                tricks,
                cards,
            };
        }
        seen.insert(pos, (tricks, cards));
        table.clear();
        if hands[0].is_empty() || hands[1].is_empty() {
            return end(&hands, tricks, cards);
        }
        tricks += 1;
        loop {
            if hands[0].is_empty() || hands[1].is_empty() {
                return end(&hands, tricks, cards);
            }
            let a = hands[0].remove(0);
            let b = hands[1].remove(0);
            cards += 1;
            table.push((a, b));
            if a != b {
                let w = usize::from(b > a);
                won.clear();
                match m[w] {
                    NaiveMethod::Natural => {
                        for &(x, y) in table.iter().rev() {
                            let (mine, theirs) = if w == 0 { (x, y) } else { (y, x) };
                            won.push(mine);
                            won.push(theirs);
                        }
                    }
                    NaiveMethod::Optimized => {
                        won.extend(table.iter().flat_map(|&(x, y)| [x, y]));
                        won.sort_by(|x, y| y.cmp(x));
                    }
                }
                hands[w].extend_from_slice(&won);
                break;
            }
        }
    }
}

fn end(hands: &[Vec<u8>; 2], tricks: u64, cards: u64) -> NaiveResult {
    let outcome = match (hands[0].is_empty(), hands[1].is_empty()) {
        (true, true) => NaiveOutcome::Draw,
        (true, false) => NaiveOutcome::Second,
        _ => NaiveOutcome::First,
    };
    NaiveResult { outcome, tricks, cards }
}

/// Every distinct arrangement of `deck`, by recursion on the values left.
fn arrangements(deck: &[u8]) -> Vec<Vec<u8>> {
    let mut counts: BTreeMap<u8, usize> = BTreeMap::new();
    for &c in deck {
        *counts.entry(c).or_default() += 1;
    }
    let mut out = Vec::new();
    let mut cur = Vec::new();
    fn rec(counts: &mut BTreeMap<u8, usize>, cur: &mut Vec<u8>, n: usize, out: &mut Vec<Vec<u8>>) {
        if cur.len() == n {
            out.push(cur.clone());
            return;
        }
        let values: Vec<u8> = counts.iter().filter(|(_, c)| **c > 0).map(|(v, _)| *v).collect();
        for v in values {
            *counts.get_mut(&v).unwrap() -= 1;
            cur.push(v);
            rec(counts, cur, n, out);
            cur.pop();
            *counts.get_mut(&v).unwrap() += 1;
        }
    }
    rec(&mut counts, &mut cur, deck.len(), &mut out);
    out
}

/// The deals an exhaustive search must play: every arrangement, reduced to one per mirror pair
/// {A, B} (the orientation with A ≤ B) when `reduce`.
pub(crate) fn deals(deck: &[u8], reduce: bool) -> BTreeSet<Vec<u8>> {
    let h = deck.len() / 2;
    arrangements(deck)
        .into_iter()
        .map(|a| {
            let swapped = [&a[h..], &a[..h]].concat();
            if reduce { a.min(swapped) } else { a }
        })
        .collect()
}

/// A loop: (period tricks, period cards, deals, smallest deal, shortest tail, its smallest deal).
pub(crate) type NaiveLoop = (u64, u64, u64, Vec<u8>, u64, Vec<u8>);

/// Aggregates computed from the full list, in plain collections.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NaiveAggregates {
    pub(crate) counts: [u64; 6],
    pub(crate) tricks: (u64, u128, u128),
    pub(crate) cards: (u64, u128, u128),
    pub(crate) tricks_histogram: Vec<(u64, u64)>,
    pub(crate) cards_histogram: Vec<(u64, u64)>,
    pub(crate) longest_by_tricks: Vec<(u64, u64, Vec<u8>)>,
    pub(crate) longest_by_cards: Vec<(u64, u64, Vec<u8>)>,
    pub(crate) loops: BTreeMap<u64, NaiveLoop>,
}

pub(crate) fn aggregate(results: &[(Vec<u8>, NaiveResult)], top: usize) -> NaiveAggregates {
    let finished: Vec<&(Vec<u8>, NaiveResult)> =
        results.iter().filter(|(_, r)| !matches!(r.outcome, NaiveOutcome::Loop(..))).collect();
    let count = |o: NaiveOutcome| results.iter().filter(|(_, r)| r.outcome == o).count() as u64;
    let loops_n = results.len() as u64 - finished.len() as u64;
    let moments = |f: &dyn Fn(&NaiveResult) -> u64| {
        let xs: Vec<u128> = finished.iter().map(|(_, r)| u128::from(f(r))).collect();
        (xs.len() as u64, xs.iter().sum(), xs.iter().map(|x| x * x).sum())
    };
    let histogram = |f: &dyn Fn(&NaiveResult) -> u64| {
        let mut h: BTreeMap<u64, u64> = BTreeMap::new();
        for (_, r) in &finished {
            *h.entry(f(r)).or_default() += 1;
        }
        h.into_iter().collect::<Vec<_>>()
    };
    let longest = |by_cards: bool| {
        let mut all: Vec<(u64, u64, Vec<u8>)> =
            finished.iter().map(|(d, r)| (r.tricks, r.cards, d.clone())).collect();
        all.sort_by(|x, y| {
            let key = |e: &(u64, u64, Vec<u8>)| Reverse(if by_cards { e.1 } else { e.0 });
            key(x).cmp(&key(y)).then_with(|| x.2.cmp(&y.2))
        });
        all.truncate(top);
        all
    };
    let mut loops: BTreeMap<u64, NaiveLoop> = BTreeMap::new();
    for (d, r) in results {
        if let NaiveOutcome::Loop(id, tail, pt, pc) = r.outcome {
            let e = loops.entry(id).or_insert((pt, pc, 0, d.clone(), tail, d.clone()));
            assert_eq!((e.0, e.1), (pt, pc), "one loop, one period");
            e.2 += 1;
            e.3 = e.3.clone().min(d.clone());
            if (tail, d) < (e.4, &e.5) {
                e.4 = tail;
                e.5 = d.clone();
            }
        }
    }
    NaiveAggregates {
        counts: [
            results.len() as u64,
            count(NaiveOutcome::First),
            count(NaiveOutcome::Second),
            count(NaiveOutcome::Draw),
            loops_n,
            0,
        ],
        tricks: moments(&|r| r.tricks),
        cards: moments(&|r| r.cards),
        tricks_histogram: histogram(&|r| r.tricks),
        cards_histogram: histogram(&|r| r.cards),
        longest_by_tricks: longest(false),
        longest_by_cards: longest(true),
        loops,
    }
}

/// The harness's aggregates in the same plain form.
pub(crate) fn from_stats(s: &crate::Stats) -> NaiveAggregates {
    let list = |l: &crate::stats::TopK| {
        l.entries().iter().map(|r| (r.tricks, r.cards, r.deal.clone())).collect::<Vec<_>>()
    };
    NaiveAggregates {
        counts: [s.deals, s.first_wins, s.second_wins, s.draws, s.looping_deals, s.capped],
        tricks: (s.tricks.n, s.tricks.sum, s.tricks.sum_sq),
        cards: (s.cards.n, s.cards.sum, s.cards.sum_sq),
        tricks_histogram: s.tricks_histogram.iter().collect(),
        cards_histogram: s.cards_histogram.iter().collect(),
        longest_by_tricks: list(&s.longest_by_tricks),
        longest_by_cards: list(&s.longest_by_cards),
        loops: s
            .loops
            .iter()
            .map(|(&id, l)| {
                let v = (
                    l.period_tricks,
                    l.period_cards,
                    l.deals,
                    l.example.clone(),
                    l.shortest_tail,
                    l.shortest_tail_deal.clone(),
                );
                (id, v)
            })
            .collect(),
    }
}
