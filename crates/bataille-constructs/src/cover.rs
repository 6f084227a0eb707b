//! Decks covered by aligned blocks: an exact-cover search over a catalogue of blocks.
//!
//! A *block* is an aligned cycle on any multiset of 2n cards (see `bataille aligned blocks`).
//! Blocks laid one after the other in both hands play each block's round in turn, and only the
//! order of the values inside a block matters, so each block may take any order-preserving map
//! of its values into the deck's (blocks may interleave values). [`cover`] looks for blocks and
//! maps whose multiplicities add up to exactly C for each of the V values; [`build`] lays them
//! end to end into a deal of the C·V deck, which the engine then plays ([`cover_deck`]);
//! [`cover_row`] renders the result as a row of `bataille aligned cover`'s table.
//!
//! The search takes the smallest value still short of C cards: some block of a cover has its
//! smallest value there (a block whose smallest value lay lower would overfill a value already
//! complete), so each block is tried with its value 1 mapped there and its other values mapped
//! increasingly above, within what is left of each value. States that failed are remembered.
//! Only one block per multiplicity pattern is needed, and the result is the first cover in that
//! order (blocks in catalogue order, maps in increasing order).

use std::collections::HashSet;

use bataille_engine::{
    Card, DeckSpec, GameResult, Limits, Method, Methods, NoRandom, Outcome, Position, SpecError,
    aligned::{self, Aligned, NotAligned},
    play,
};

/// One block in a cover: which block, and the deck value of each of its values (value v of
/// the block becomes `values[v - 1]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// Index of the block in the catalogue given.
    pub block: usize,
    /// The map of the block's values 1..k, increasing.
    pub values: Vec<Card>,
}

/// The multiplicity pattern of a block: how many times each value 1..k occurs.
fn pattern(p: &Position) -> Vec<usize> {
    let max = p.first().iter().chain(p.second()).copied().max().unwrap_or(0);
    let mut m = vec![0; usize::from(max)];
    for &c in p.first().iter().chain(p.second()) {
        m[usize::from(c) - 1] += 1;
    }
    m
}

struct Search {
    patterns: Vec<(usize, Vec<usize>)>,
    failed: HashSet<Vec<u8>>,
    chosen: Vec<Placement>,
}

impl Search {
    fn solve(&mut self, need: &mut Vec<u8>) -> bool {
        let Some(low) = need.iter().position(|&x| x > 0) else { return true };
        if self.failed.contains(need) {
            return false;
        }
        for k in 0..self.patterns.len() {
            let (block, m) = self.patterns[k].clone();
            if usize::from(need[low]) < m[0] {
                continue;
            }
            let mut map = vec![low as Card + 1];
            need[low] -= m[0] as u8;
            if self.place(need, &m, &mut map, block) {
                return true;
            }
            need[low] += m[0] as u8;
        }
        self.failed.insert(need.clone());
        false
    }

    /// Maps the block's values after those in `map`, then goes on with the rest of the deck.
    fn place(
        &mut self,
        need: &mut Vec<u8>,
        m: &[usize],
        map: &mut Vec<Card>,
        block: usize,
    ) -> bool {
        let r = map.len();
        if r == m.len() {
            self.chosen.push(Placement { block, values: map.clone() });
            if self.solve(need) {
                return true;
            }
            self.chosen.pop();
            return false;
        }
        let from = usize::from(*map.last().expect("value 1 is mapped"));
        for v in from..need.len() {
            if usize::from(need[v]) >= m[r] {
                need[v] -= m[r] as u8;
                map.push(v as Card + 1);
                if self.place(need, m, map, block) {
                    return true;
                }
                map.pop();
                need[v] += m[r] as u8;
            }
        }
        false
    }
}

/// A cover of the C·V deck by `blocks` (each usable any number of times), if there is one.
///
/// ```
/// use bataille_constructs::cover::cover;
/// let v4 = "[2, 1, 4, 4, 2, 1, 3, 3] / [4, 2, 4, 1, 3, 2, 3, 1]".parse().unwrap();
/// let c = cover(&[v4], 4, 8).unwrap();
/// assert_eq!(c.len(), 2);
/// assert!(cover(&["[2, 1, 3, 3] / [3, 2, 3, 1]".parse().unwrap()], 4, 5).is_none());
/// ```
pub fn cover(blocks: &[Position], colours: usize, values: usize) -> Option<Vec<Placement>> {
    let mut seen = HashSet::new();
    let patterns: Vec<(usize, Vec<usize>)> = blocks
        .iter()
        .enumerate()
        .map(|(i, b)| (i, pattern(b)))
        .filter(|(_, m)| m.iter().all(|&x| (1..=colours).contains(&x)) && m.len() <= values)
        .filter(|(_, m)| seen.insert(m.clone()))
        .collect();
    let mut s = Search { patterns, failed: HashSet::new(), chosen: Vec::new() };
    let mut need = vec![colours as u8; values];
    s.solve(&mut need).then_some(s.chosen)
}

/// Lays the placed blocks end to end, hand by hand, each with its values mapped.
pub fn build(blocks: &[Position], placements: &[Placement]) -> Position {
    let (mut first, mut second) = (Vec::new(), Vec::new());
    for p in placements {
        let b = &blocks[p.block];
        let map = |&c: &Card| p.values[usize::from(c) - 1];
        first.extend(b.first().iter().map(map));
        second.extend(b.second().iter().map(map));
    }
    Position::new(first, second).expect("blocks are positions")
}

/// A deck built from blocks and played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Covered {
    /// The blocks and their maps.
    pub placements: Vec<Placement>,
    /// The deal.
    pub deal: Position,
    /// Its deck.
    pub spec: DeckSpec,
    /// The engine's verdict (natural stacking).
    pub result: GameResult,
    /// The aligned check of the deal.
    pub aligned: Result<Aligned, NotAligned>,
}

/// Covers the C·V deck with `blocks` and plays the deal: `Ok(None)` when no cover exists.
pub fn cover_deck(
    blocks: &[Position],
    colours: usize,
    values: usize,
) -> Result<Option<Covered>, SpecError> {
    let spec = DeckSpec::new(colours, values)?;
    let Some(placements) = cover(blocks, colours, values) else { return Ok(None) };
    let deal = build(blocks, &placements);
    debug_assert_eq!(deal.infer_deck().ok(), Some(spec));
    let natural = Methods::both(Method::Natural);
    let result = play(&deal, natural, &mut NoRandom, Limits::DETERMINISTIC);
    let aligned = aligned::check(&deal, natural);
    Ok(Some(Covered { placements, deal, spec, result, aligned }))
}

impl Covered {
    /// Whether the deal is what a cover promises: a loop from the deal on, in aligned rounds
    /// (no round of tail).
    pub fn verified(&self) -> bool {
        matches!(self.result.outcome, Outcome::Cycle(_))
            && matches!(&self.aligned, Ok(a) if a.tail_rounds == 0)
    }
}

/// The header of the table of covered decks ([`cover_row`]).
pub const COVER_HEADER: &str = "C,V,constructed,blocks,deal,outcome,aligned";

/// The row of the C·V deck in the table of covered decks: `covered` (by [`cover_deck`] from
/// `blocks`) with its blocks and their values, its deal, the engine's outcome and the aligned
/// check; or a row that says no cover was found.
pub fn cover_row(
    colours: usize,
    values: usize,
    covered: Option<&Covered>,
    blocks: &[Position],
) -> String {
    let Some(cov) = covered else { return format!("{colours},{values},no,,,,") };
    let outcome = match cov.result.outcome {
        Outcome::Cycle(cy) => {
            format!("loop: tail {} tricks, period {} tricks", cy.tail_tricks, cy.period_tricks)
        }
        _ => "NO LOOP".to_string(),
    };
    let aligned = match &cov.aligned {
        Ok(a) if a.tail_rounds == 0 => {
            format!("rounds of {} cards, {} rounds", a.half, a.period_rounds)
        }
        Ok(a) => format!("NOT on its loop ({} rounds of tail)", a.tail_rounds),
        Err(e) => format!("NOT aligned: {e}"),
    };
    let parts: Vec<String> = cov
        .placements
        .iter()
        .map(|p| {
            let b = &blocks[p.block];
            let values: Vec<String> = p.values.iter().map(Card::to_string).collect();
            format!("{} as {}", b.compact(), values.join(","))
        })
        .collect();
    format!(
        "{colours},{values},yes,\"{}\",\"{}\",\"{outcome}\",\"{aligned}\"",
        parts.join("; "),
        cov.deal
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aligned::{KNOWN_V4, KNOWN_V6};
    use bataille_engine::Outcome;

    fn pos(s: &str) -> Position {
        s.parse().unwrap()
    }

    /// The issue's example: the V=4 cycle on the values {1,3,5,7} and again on {2,4,6,8}.
    #[test]
    fn interleaved_blocks_loop() {
        let v4 = pos(KNOWN_V4);
        let odd = Placement { block: 0, values: vec![1, 3, 5, 7] };
        let even = Placement { block: 0, values: vec![2, 4, 6, 8] };
        let deal = build(std::slice::from_ref(&v4), &[odd, even]);
        assert_eq!(deal, pos("3,1,7,7,3,1,5,5,4,2,8,8,4,2,6,6 / 7,3,7,1,5,3,5,1,8,4,8,2,6,4,6,2"));
        let natural = Methods::both(Method::Natural);
        let r = play(&deal, natural, &mut NoRandom, Limits::DETERMINISTIC);
        let Outcome::Cycle(c) = r.outcome else { panic!("{deal}: {r:?}") };
        assert_eq!(c.period_tricks, 48);
        let a = aligned::check(&deal, natural).unwrap();
        assert_eq!((a.half, a.tail_rounds, a.period_tricks()), (16, 0, 48));
    }

    /// Blocks of different periods laid end to end, with values interleaved in every
    /// order-preserving way of two 3-value blocks: always an aligned loop whose period in
    /// rounds is the lcm of the parts' and whose tricks add up.
    #[test]
    fn blocks_concatenate_with_any_order_preserving_maps() {
        let natural = Methods::both(Method::Natural);
        let small = pos("[2, 1, 3, 3] / [3, 2, 3, 1]");
        let a = aligned::check(&small, natural).unwrap();
        // Every way to give the two copies the values 1..6, each copy increasing.
        for mask in 0u32..64 {
            if mask.count_ones() != 3 {
                continue;
            }
            let (x, y): (Vec<Card>, Vec<Card>) = (1..=6).partition(|&v| mask >> (v - 1) & 1 == 1);
            let p = [Placement { block: 0, values: x }, Placement { block: 0, values: y }];
            let deal = build(std::slice::from_ref(&small), &p);
            let d = aligned::check(&deal, natural).unwrap_or_else(|e| panic!("{deal}: {e}"));
            assert_eq!(d.period_rounds, a.period_rounds, "{deal}");
            assert_eq!(d.period_tricks(), 2 * a.period_tricks(), "{deal}");
        }
        // The V=4 and V=6 cycles (4 rounds each) with the 8-card block.
        let parts = [pos(KNOWN_V6), small.clone(), pos(KNOWN_V4)];
        let p = [
            Placement { block: 0, values: (1..=6).collect() },
            Placement { block: 1, values: vec![1, 4, 6] },
            Placement { block: 2, values: vec![2, 3, 5, 6] },
        ];
        let deal = build(&parts, &p);
        let d = aligned::check(&deal, natural).unwrap();
        assert_eq!((d.half, d.period_rounds), (12 + 4 + 8, 4));
    }

    #[test]
    fn decks_from_the_known_cycles() {
        let blocks = [pos(KNOWN_V4), pos(KNOWN_V6)];
        for v in 1..=13 {
            let c = cover_deck(&blocks, 4, v).unwrap();
            assert_eq!(c.is_some(), v >= 4 && v % 2 == 0, "V={v}");
            if let Some(c) = c {
                assert!(matches!(c.result.outcome, Outcome::Cycle(_)), "V={v}");
                assert_eq!(c.aligned.unwrap().tail_rounds, 0);
            }
        }
    }
}
