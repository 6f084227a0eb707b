//! What a run covers: the mode, the work units, the shard, and the set of completed units.
//!
//! Units are numbered 0, 1, ... `units - 1`. An exhaustive unit is a range of `unit_size`
//! arrangement ranks; a random unit is a block of `unit_size` deals drawn from its own random
//! stream, derived from (seed, unit index) alone. Shard K of N takes the units u with
//! u mod N = K − 1, so shards are disjoint, need no coordination, and each gets a fair mix of
//! the deal space.

use std::fmt;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use bataille_engine::position::quoted;

use crate::arrangement::{Arrangements, TooManyArrangements};
use crate::game::DealGame;
use crate::seed::splitmix64;
use crate::stats::Stats;

/// Exhaustive or random deals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Every deal once (one per mirror pair when the game reduces by swap).
    Exhaustive,
    /// This many uniformly random deals.
    Random {
        /// The number of deals.
        deals: u64,
    },
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mode::Exhaustive => f.write_str("exhaustive"),
            Mode::Random { deals } => write!(f, "random {deals}"),
        }
    }
}

/// Shard `index + 1` of `count` (written `K/N`, 1-based, on the command line).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u64,
    count: u64,
}

impl Shard {
    /// The whole run.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Shard `k` of `n`, 1-based; `None` unless 1 ≤ k ≤ n.
    pub fn new(k: u64, n: u64) -> Option<Shard> {
        (k >= 1 && k <= n).then(|| Shard { index: k - 1, count: n })
    }

    /// 0-based index.
    pub fn index(self) -> u64 {
        self.index
    }

    /// Number of shards.
    pub fn count(self) -> u64 {
        self.count
    }

    /// The number of units of this shard among `units`.
    pub fn units(self, units: u64) -> u64 {
        units.saturating_sub(self.index).div_ceil(self.count)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

/// Why a text is not a shard: it is not `K/N` with 1 ≤ K ≤ N.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid shard {}: expected K/N with 1 ≤ K ≤ N, e.g. 3/8", quoted(.text))]
pub struct ShardError {
    text: String,
}

impl std::str::FromStr for Shard {
    type Err = ShardError;

    /// Reads `K/N` (1-based, as printed by the `Display` of [`Shard`]).
    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let parsed = s.split_once('/').and_then(|(k, n)| Some((k.parse().ok()?, n.parse().ok()?)));
        parsed.and_then(|(k, n)| Shard::new(k, n)).ok_or_else(|| ShardError { text: s.to_string() })
    }
}

/// Everything that determines a run's aggregates: two states can be resumed into each other or
/// merged only when their keys are equal.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RunKey {
    /// The game's [`DealGame::identity`].
    pub game: String,
    /// Exhaustive or random.
    pub mode: Mode,
    /// The seed of the random streams.
    pub seed: u64,
    /// Arrangement ranks (exhaustive) or deals (random) per unit.
    pub unit_size: u64,
    /// Number of units in the whole run.
    pub units: u64,
    /// How many longest games are kept.
    pub top: usize,
    /// How many deals each loop keeps (0: none; `bataille hunt` keeps them, see
    /// [`crate::stats`]).
    pub loop_deals: usize,
    /// How many distinct loops are kept (0: all; see [`crate::stats`]).
    pub max_cycles: usize,
}

impl RunKey {
    /// Empty aggregates for this run.
    pub fn empty_stats(&self) -> Stats {
        Stats::with_loop_deals(self.top, self.loop_deals).keeping_cycles(self.max_cycles)
    }
}

/// Random deals per unit for decks of up to 64 cards: fixed, so a larger budget with the same
/// seed extends a smaller one.
pub const RANDOM_UNIT: u64 = 1 << 14;

/// Random deals per unit for a deck of `cards`: [`RANDOM_UNIT`] up to 64 cards; fewer for the
/// larger decks, whose games are much longer (a C=1 V=255 deal plays for milliseconds), so that
/// a unit stays well under a second of work and an interrupted run loses little. A function of
/// the deck alone, never of the machine: the deals of a seed are the same everywhere.
pub fn random_unit(cards: usize) -> u64 {
    match cards {
        0..=64 => RANDOM_UNIT,
        65..=128 => 1 << 10,
        _ => 1 << 6,
    }
}
/// Smallest number of arrangement ranks per exhaustive unit.
pub const EXHAUSTIVE_UNIT: u64 = 1 << 16;
/// Exhaustive units are made larger for huge decks so that there are at most about this many
/// (up to [`MAX_EXHAUSTIVE_UNIT`]).
pub const MAX_EXHAUSTIVE_UNITS: u64 = 1 << 22;
/// Largest number of arrangement ranks per exhaustive unit: a unit lasts well under a second
/// whatever the deck, so that checkpoints and progress stay timely. It only bounds decks of
/// more than 2^41 arrangements (C=4 V≥6, C=1 V≥16, ...), whose runs have more than 2^22 units;
/// smaller decks (C=4 V≤5 among them) keep the unit size they always had.
pub const MAX_EXHAUSTIVE_UNIT: u64 = 1 << 20;

/// A validated run: its key and the numbers derived from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    key: RunKey,
    /// The number of arrangements (exhaustive mode).
    space: u64,
    /// Deals the whole run will play (the closed formula in exhaustive mode).
    deals: u128,
}

impl Plan {
    /// A run of `game` in `mode`, with the default unit size.
    pub fn new<G: DealGame>(
        game: &G,
        mode: Mode,
        seed: u64,
        top: usize,
    ) -> Result<Plan, TooManyArrangements> {
        let unit_size = match mode {
            Mode::Random { .. } => random_unit(game.deck().len()),
            Mode::Exhaustive => {
                let arr = Arrangements::new(game.deck());
                let space = arr
                    .count()
                    .and_then(|c| u64::try_from(c).ok())
                    .ok_or(TooManyArrangements { cards: arr.len() })?;
                space
                    .div_ceil(MAX_EXHAUSTIVE_UNITS)
                    .next_power_of_two()
                    .clamp(EXHAUSTIVE_UNIT, MAX_EXHAUSTIVE_UNIT)
            }
        };
        Plan::with_unit_size(game, mode, seed, top, unit_size)
    }

    /// A run with `unit_size` ranks or deals per unit (at least 1).
    pub fn with_unit_size<G: DealGame>(
        game: &G,
        mode: Mode,
        seed: u64,
        top: usize,
        unit_size: u64,
    ) -> Result<Plan, TooManyArrangements> {
        let unit_size = unit_size.max(1);
        let arrangements = Arrangements::new(game.deck());
        let (space, deals) = match mode {
            Mode::Exhaustive => {
                let space = arrangements
                    .count()
                    .and_then(|c| u64::try_from(c).ok())
                    .ok_or(TooManyArrangements { cards: arrangements.len() })?;
                let deals = if game.reduces_by_swap() {
                    arrangements.swap_classes().expect("counted above")
                } else {
                    u128::from(space)
                };
                (space, deals)
            }
            Mode::Random { deals } => (deals, u128::from(deals)),
        };
        let key = RunKey {
            game: game.identity(),
            mode,
            seed,
            unit_size,
            units: space.div_ceil(unit_size),
            top,
            loop_deals: 0,
            max_cycles: 0,
        };
        Ok(Plan { key, space, deals })
    }

    /// The same run, keeping for each loop the `cap` smallest deals that reach it (a hunt).
    pub fn keeping_loop_deals(mut self, cap: usize) -> Plan {
        self.key.loop_deals = cap;
        self
    }

    /// The same run, keeping at most `max` distinct loops (0: all), those of smallest
    /// [`crate::stats::cycle_rank`].
    pub fn keeping_cycles(mut self, max: usize) -> Plan {
        self.key.max_cycles = max;
        self
    }

    /// The run's key.
    pub fn key(&self) -> &RunKey {
        &self.key
    }

    /// Deals the whole run plays.
    pub fn deals(&self) -> u128 {
        self.deals
    }

    /// The ranks (exhaustive) or deal numbers (random) of unit `u`.
    pub fn unit_range(&self, u: u64) -> (u64, u64) {
        let start = u * self.key.unit_size;
        // (Saturating: the last unit of a run of nearly 2^64 deals ends at the run's end.)
        (start, start.saturating_add(self.key.unit_size).min(self.space))
    }

    /// The random stream of unit `u`: for a given seed, distinct units get distinct generator
    /// seeds (SplitMix64 finalisers are bijections).
    pub fn unit_rng(&self, u: u64) -> Xoshiro256PlusPlus {
        Xoshiro256PlusPlus::seed_from_u64(splitmix64(
            self.key.seed ^ splitmix64(u ^ 0x6a09_e667_f3bc_c908),
        ))
    }
}

/// A set of completed units, stored per residue class modulo a stride as sorted disjoint
/// half-open intervals of local indices j (unit = class + j · stride). A shard K/N is the
/// single class K − 1 modulo N, so its completed units stay a handful of intervals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitSet {
    stride: u64,
    classes: std::collections::BTreeMap<u64, Vec<(u64, u64)>>,
}

impl UnitSet {
    /// No unit done yet, for `shard`.
    pub fn empty(shard: Shard) -> UnitSet {
        UnitSet { stride: shard.count, classes: [(shard.index, Vec::new())].into() }
    }

    /// Every unit of a run of `units`.
    pub fn full(units: u64) -> UnitSet {
        let iv = if units == 0 { Vec::new() } else { vec![(0, units)] };
        UnitSet { stride: 1, classes: [(0, iv)].into() }
    }

    pub(crate) fn from_parts(
        stride: u64,
        classes: std::collections::BTreeMap<u64, Vec<(u64, u64)>>,
    ) -> UnitSet {
        UnitSet { stride, classes }
    }

    /// The stride (number of shards the set is split by).
    pub fn stride(&self) -> u64 {
        self.stride
    }

    /// The classes and their intervals of local indices.
    pub fn classes(&self) -> &std::collections::BTreeMap<u64, Vec<(u64, u64)>> {
        &self.classes
    }

    /// The shard this set belongs to, when it is one class.
    pub fn shard(&self) -> Option<Shard> {
        match self.classes.keys().collect::<Vec<_>>()[..] {
            [&index] => Some(Shard { index, count: self.stride }),
            _ => None,
        }
    }

    /// Whether unit `u` is done.
    pub fn contains(&self, u: u64) -> bool {
        let (class, j) = (u % self.stride, u / self.stride);
        self.classes.get(&class).is_some_and(|iv| {
            let i = iv.partition_point(|&(_, end)| end <= j);
            iv.get(i).is_some_and(|&(start, _)| start <= j)
        })
    }

    /// The number of units done.
    pub fn len(&self) -> u64 {
        self.classes.values().flatten().map(|(a, b)| b - a).sum()
    }

    /// Whether no unit is done.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Marks unit `u` done (its class must be one of the set's).
    pub fn insert(&mut self, u: u64) {
        let (class, j) = (u % self.stride, u / self.stride);
        let iv = self.classes.entry(class).or_default();
        let i = iv.partition_point(|&(_, end)| end < j);
        // iv[i] is the first interval that ends at or after j.
        match iv.get(i).copied() {
            Some((start, end)) if start <= j && j < end => {}
            Some((_, end)) if end == j => {
                iv[i].1 = j + 1;
                if iv.get(i + 1).is_some_and(|&(s, _)| s == j + 1) {
                    iv[i].1 = iv[i + 1].1;
                    iv.remove(i + 1);
                }
            }
            Some((start, _)) if start == j + 1 => iv[i].0 = j,
            _ => iv.insert(i, (j, j + 1)),
        }
    }

    /// The union with `other`, which must have the same stride and no unit in common.
    pub fn union(&self, other: &UnitSet) -> Result<UnitSet, String> {
        if self.stride != other.stride {
            return Err(format!(
                "cannot merge parts split into {} and {} shards",
                self.stride, other.stride
            ));
        }
        let mut out = self.clone();
        for (&class, iv) in &other.classes {
            let mine = out.classes.entry(class).or_default();
            let mut all: Vec<(u64, u64)> = mine.iter().chain(iv).copied().collect();
            all.sort_unstable();
            let mut merged: Vec<(u64, u64)> = Vec::new();
            for (a, b) in all {
                if let Some(last) = merged.last_mut() {
                    if a < last.1 {
                        return Err(format!(
                            "shard {}/{} is given twice (unit {} is in both)",
                            class + 1,
                            self.stride,
                            class + a * self.stride
                        ));
                    }
                    if a == last.1 {
                        last.1 = b;
                        continue;
                    }
                }
                merged.push((a, b));
            }
            *mine = merged;
        }
        Ok(out)
    }

    /// Collapses to stride 1 when every unit of a run of `units` is done, so that merged
    /// complete shards equal an unsharded run.
    pub fn normalize(&mut self, units: u64) {
        if self.stride > 1 && self.len() == units {
            *self = UnitSet::full(units);
        }
    }

    /// The shards of a run of `units` that some unit is missing from: how many, and the first
    /// `list` of them as 1-based K of `stride()` shards, in increasing order. Cheap whatever
    /// the stride (it walks the classes present, not every shard).
    pub fn incomplete_shards(&self, units: u64, list: usize) -> (u64, Vec<u64>) {
        let shards = self.stride.min(units);
        let complete = |index: u64| {
            let want = Shard { index, count: self.stride }.units(units);
            let done: u64 =
                self.classes.get(&index).map_or(0, |iv| iv.iter().map(|(a, b)| b - a).sum());
            done >= want
        };
        let complete_count = self.classes.keys().filter(|&&i| i < shards && complete(i)).count();
        let missing = shards - complete_count as u64;
        let mut first = Vec::new();
        let mut index = 0;
        while first.len() < list.min(missing as usize) && index < shards {
            if !complete(index) {
                first.push(index + 1);
            }
            index += 1;
        }
        (missing, first)
    }

    /// The units of `shard` not done yet, in increasing order.
    pub fn pending(&self, shard: Shard, units: u64) -> impl Iterator<Item = u64> + '_ {
        (0..shard.units(units))
            .map(move |j| shard.index + j * shard.count)
            .filter(|&u| !self.contains(u))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_set_insert_and_union() {
        let mut a = UnitSet::empty(Shard::WHOLE);
        for u in [3, 1, 2, 7, 0, 5, 6, 4] {
            assert!(!a.contains(u));
            a.insert(u);
            assert!(a.contains(u));
        }
        assert_eq!(a, UnitSet::full(8));
        let shard = |k| Shard::new(k, 3).unwrap();
        let mut parts: Vec<UnitSet> = (1..=3).map(|k| UnitSet::empty(shard(k))).collect();
        for (k, p) in parts.iter_mut().enumerate() {
            for u in UnitSet::empty(shard(k as u64 + 1))
                .pending(shard(k as u64 + 1), 10)
                .collect::<Vec<_>>()
            {
                p.insert(u);
            }
        }
        assert_eq!(parts[0].len(), 4);
        assert_eq!(parts[2].len(), 3);
        let mut all = parts[0].union(&parts[1]).unwrap().union(&parts[2]).unwrap();
        assert!(parts[0].union(&parts[0]).is_err(), "a shard given twice");
        all.normalize(10);
        assert_eq!(all, UnitSet::full(10));
    }

    #[test]
    fn unit_sizes_of_committed_runs_do_not_change() {
        use bataille_engine::{DeckSpec, Limits, Method, Methods};
        let key = |c, v| {
            let m = Methods::both(Method::Natural);
            let game =
                crate::Bataille::new(DeckSpec::new(c, v).unwrap(), m, Limits::default_for(m));
            let plan = Plan::new(&game, Mode::Exhaustive, 0, 10).unwrap();
            (plan.key().unit_size, plan.key().units)
        };
        // The exhaustive runs under results/ and the C=4 V=5 hunt: their plans stay as they are.
        assert_eq!(key(4, 4).0, 1 << 16);
        assert_eq!(key(4, 5), (1 << 17, 2_331_087));
        // Huge decks get units of at most 2^20 ranks, so that a unit lasts well under a second.
        assert_eq!(key(4, 6).0, MAX_EXHAUSTIVE_UNIT);
        assert_eq!(key(1, 20).0, MAX_EXHAUSTIVE_UNIT);
        assert_eq!(key(3, 8).0, MAX_EXHAUSTIVE_UNIT);
    }

    /// A random run of nearly 2^64 deals: its last unit ends at the run's end (it overflowed).
    #[test]
    fn the_last_unit_of_the_largest_run_ends_at_its_end() {
        use bataille_engine::{DeckSpec, Limits, Method, Methods};
        let m = Methods::both(Method::Natural);
        let game = crate::Bataille::new(DeckSpec::new(4, 3).unwrap(), m, Limits::default_for(m));
        let plan = Plan::new(&game, Mode::Random { deals: u64::MAX }, 0, 10).unwrap();
        let last = plan.key().units - 1;
        let (start, end) = plan.unit_range(last);
        assert!(start < end && end == u64::MAX, "{start} {end}");
        assert_eq!(plan.unit_range(0), (0, plan.key().unit_size));
    }

    #[test]
    fn shards_parse_as_printed() {
        for (k, n) in [(1, 1), (3, 8), (8, 8)] {
            let shard = Shard::new(k, n).unwrap();
            assert_eq!(shard.to_string().parse::<Shard>(), Ok(shard));
        }
        for bad in ["0/3", "4/3", "x", "1/", "/2", "1/2/3", "-1/2"] {
            let e = bad.parse::<Shard>().unwrap_err().to_string();
            assert!(e.starts_with(&format!("invalid shard {bad:?}: expected K/N")), "{e}");
        }
        let long = "9".repeat(1000);
        assert!(long.parse::<Shard>().unwrap_err().to_string().len() < 200);
    }

    #[test]
    fn shards_partition_units() {
        for n in 1..6 {
            let mut seen = [0; 23];
            for k in 1..=n {
                let s = Shard::new(k, n).unwrap();
                let units: Vec<u64> = UnitSet::empty(s).pending(s, 23).collect();
                assert_eq!(units.len() as u64, s.units(23));
                for u in units {
                    seen[u as usize] += 1;
                }
            }
            assert!(seen.iter().all(|&c| c == 1));
        }
        assert!(Shard::new(0, 3).is_none() && Shard::new(4, 3).is_none());
    }
}
