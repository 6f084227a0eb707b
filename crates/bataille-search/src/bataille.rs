//! Bataille as a [`DealGame`]: deals of a C·V deck split ⌊N/2⌋ / ⌈N/2⌉, played by the engine.
//!
//! Deterministic method pairs run [`bataille_engine::play_deterministic`] on a per-worker
//! [`Scratch`] (no allocation per deal); pairs with a random method run
//! [`bataille_engine::play_random`] with the work unit's random stream.
//!
//! **Swap reduction.** When N is even and both players use the same symmetric method
//! ([`Methods::is_swap_symmetric`]), the deal (A, B) and its mirror (B, A) give the same game
//! with the players' roles exchanged, so an exhaustive search plays one deal per unordered pair
//! {A, B}: the arrangement (A, B) is kept iff A ≤ B lexicographically (A = B once). The first
//! player of a played deal is then the one holding the lexicographically smaller hand, which is
//! what "wins of the first player" counts in that mode.
//!
//! **Small decks.** Natural and optimized games of decks of several colours whose hands fit in
//! 64 bits (C=4 V ≤ 5, C=2 V ≤ 8, ...) are played by [`Packed`] first, [`BATCH`] deals at a
//! time ([`DealGame::batch`]) in the lanes of AVX-512 or AVX2 registers, the engine taking over the rare
//! game it hands back: the same results, faster where ties are frequent.
//!
//! **Aligned loops.** A loop is reported *aligned* when one of its positions with two equal
//! hands passes [`bataille_engine::aligned::check`]. This is a property of the loop, not of the
//! deal that led to it: a deal with a tail may reach an aligned loop without being aligned
//! itself, and the aligned position (the smallest in [`Position::canonical_cmp`] order) is the
//! one that can be duplicated into longer aligned loops (article box 4).

use bataille_engine::packed::{Finished, PackedDeal};
use bataille_engine::{
    DeckSpec, Game, Limits, Methods, Outcome, Packed, Position, Scratch, SeenPositions, aligned,
    loop_positions, play_deterministic, play_random, play_random_until_repeat,
};
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::arrangement::{Arrangements, multinomial, next_arrangement};
use crate::game::{Alignment, CycleInfo, DealGame, DealOutcome, DealRecord};

/// How games with a random method are played (see the book's docs/rules.md, "Loops").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum RandomConvention {
    /// To the end (or the trick cap): a repeated position is not a loop under random stacking.
    /// The correct rule, and the default.
    #[default]
    PlayedToEnd,
    /// As the article's program: stopped as soon as a position repeats, and counted as
    /// capped (so left out of the means over finished games). See
    /// [`bataille_engine::play_random_until_repeat`]. Deterministic methods are unaffected.
    StopOnRepeat,
}

/// Bataille deals of one deck under one pair of stacking methods.
#[derive(Debug, Clone)]
pub struct Bataille {
    spec: DeckSpec,
    methods: Methods,
    limits: Limits,
    stop_on_repeat: bool,
    deck: Vec<u8>,
    arrangements: Arrangements,
    half: usize,
    reduce: bool,
    /// Natural and optimized games of decks of several colours whose hands fit in a register
    /// start there.
    packed: Option<Packed>,
}

/// Deals played together where [`Packed`] plays the deck: enough that the lanes stay busy
/// (each takes the next deal when its game is over, so only the last games of a batch leave
/// lanes idle), few enough to stay in the first-level cache.
pub const BATCH: usize = 256;

/// The per-thread state of a bataille search.
#[derive(Debug, Clone)]
pub struct BatailleWorker {
    deal: Vec<u8>,
    game: Game,
    scratch: Scratch,
    seen: SeenPositions,
    /// The deals of the next batch, end to end ([`DealGame::stage`]).
    staged: Vec<u8>,
    /// The same deals in registers, and their results.
    packed: Vec<PackedDeal>,
    results: Vec<Option<Finished>>,
}

impl Bataille {
    /// Deals of `spec` played with `methods`, each game stopped at `limits`.
    pub fn new(spec: DeckSpec, methods: Methods, limits: Limits) -> Bataille {
        Bataille::with_convention(spec, methods, limits, RandomConvention::PlayedToEnd)
    }

    /// Deals of `spec` played with `methods`, a random method following `convention`.
    pub fn with_convention(
        spec: DeckSpec,
        methods: Methods,
        limits: Limits,
        convention: RandomConvention,
    ) -> Bataille {
        let deck = spec.sorted_deck();
        let arrangements = Arrangements::new(&deck);
        let n = deck.len();
        Bataille {
            spec,
            methods,
            limits,
            stop_on_repeat: convention == RandomConvention::StopOnRepeat
                && !methods.is_deterministic(),
            arrangements,
            half: n / 2,
            reduce: n.is_multiple_of(2) && methods.is_swap_symmetric(),
            // Registers pay where ties are frequent (a tie is a mispredicted branch in the
            // rings, and nothing in registers): four lanes measured 1.9 times as fast as the
            // rings on C=4 V=4, C=4 V=5 and C=2 V=6, but slower on C=1 V=10 and V=11, which
            // have no ties and many loops (docs/performance.md, "The register engine and its
            // lanes").
            packed: match methods.first {
                m if methods == Methods::both(m) && spec.colours() >= 2 => {
                    Packed::new(n, spec.values() as u8, m)
                }
                _ => None,
            },
            deck,
        }
    }

    /// The deck.
    pub fn spec(&self) -> DeckSpec {
        self.spec
    }

    /// The stacking methods.
    pub fn methods(&self) -> Methods {
        self.methods
    }

    /// Rebuilds the game named by an [`DealGame::identity`] string (`bataille C=4 V=4 natural`,
    /// `bataille C=2 V=5 natural/optimized cap=1000`), as saved in a state file.
    pub fn from_identity(identity: &str) -> Option<Bataille> {
        let mut words = identity.split(' ');
        if words.next() != Some("bataille") {
            return None;
        }
        let c = words.next()?.strip_prefix("C=")?.parse().ok()?;
        let v = words.next()?.strip_prefix("V=")?.parse().ok()?;
        let methods: Methods = words.next()?.parse().ok()?;
        let mut limits = Limits::default_for(methods);
        let mut convention = RandomConvention::PlayedToEnd;
        for word in words {
            if word == "stop=repeat" && convention == RandomConvention::PlayedToEnd {
                convention = RandomConvention::StopOnRepeat;
            } else {
                limits = Limits { max_tricks: word.strip_prefix("cap=")?.parse().ok()? };
            }
        }
        let game =
            Bataille::with_convention(DeckSpec::new(c, v).ok()?, methods, limits, convention);
        (game.identity() == identity).then_some(game)
    }

    fn position(&self, deal: &[u8]) -> Position {
        Position::new(deal[..self.half].to_vec(), deal[self.half..].to_vec())
            .expect("a deal of a valid deck is a valid position")
    }
}

impl DealGame for Bataille {
    type Worker = BatailleWorker;

    fn worker(&self) -> BatailleWorker {
        BatailleWorker {
            deal: self.deck.clone(),
            game: Game::default(),
            scratch: Scratch::default(),
            seen: SeenPositions::default(),
            staged: vec![0; self.deck.len() * self.batch()],
            packed: vec![PackedDeal::default(); self.batch()],
            results: vec![None; self.batch()],
        }
    }

    fn identity(&self) -> String {
        let cap = if self.limits == Limits::default_for(self.methods) {
            String::new()
        } else {
            format!(" cap={}", self.limits.max_tricks)
        };
        let stop = if self.stop_on_repeat { " stop=repeat" } else { "" };
        format!(
            "bataille C={} V={} {}{cap}{stop}",
            self.spec.colours(),
            self.spec.values(),
            self.methods
        )
    }

    fn deck(&self) -> &[u8] {
        &self.deck
    }

    fn reduces_by_swap(&self) -> bool {
        self.reduce
    }

    fn seek(&self, w: &mut BatailleWorker, rank: u128) {
        self.arrangements.unrank(rank, &mut w.deal);
    }

    #[inline]
    fn step(&self, w: &mut BatailleWorker) -> bool {
        next_arrangement(&mut w.deal)
    }

    #[inline]
    fn is_canonical(&self, w: &BatailleWorker) -> bool {
        if !self.reduce {
            return true;
        }
        // A ≤ B, usually decided by the first cards: an inline loop beats a memcmp call.
        let (a, b) = w.deal.split_at(self.half);
        for (x, y) in a.iter().zip(b) {
            if x != y {
                return x < y;
            }
        }
        true
    }

    /// The deal (A, B) has A > B, decided at the first index `i` where they differ: every
    /// arrangement with the same A and B[..=i] is then a mirror too. When B[i+1..] is in
    /// ascending order (its smallest arrangement: the first deal of that block in the
    /// lexicographic order) the whole block is passed over, B[i+1..] set to its largest
    /// arrangement (the last deal of the block); otherwise the deal alone.
    #[inline]
    fn skip_non_canonical(&self, w: &mut BatailleWorker, max: u64) -> u64 {
        let (a, b) = w.deal.split_at_mut(self.half);
        let Some(i) = a.iter().zip(b.iter()).position(|(x, y)| x != y) else { return 1 };
        debug_assert!(a[i] > b[i], "called on a canonical deal");
        let rest = &mut b[i + 1..];
        if !rest.is_sorted() {
            return 1;
        }
        let block = arrangement_count(rest);
        if block == 0 || block > max {
            return 1;
        }
        rest.reverse();
        block
    }

    #[inline]
    fn sample(&self, w: &mut BatailleWorker, rng: &mut Xoshiro256PlusPlus) {
        // From the sorted deck, so that the deal depends on the random stream alone and not on
        // what the worker played before.
        w.deal.copy_from_slice(&self.deck);
        w.deal.shuffle(rng);
    }

    #[inline]
    fn play(&self, w: &mut BatailleWorker, rng: &mut Xoshiro256PlusPlus) -> DealRecord {
        let BatailleWorker { deal, game, scratch, seen, .. } = w;
        let (first, second) = deal.split_at(self.half);
        if let Some(f) = self.packed.and_then(|p| p.play(first, second, self.limits)) {
            return record(f.into());
        }
        game.set(first, second);
        let r = if self.methods.is_deterministic() {
            play_deterministic(game, self.methods, self.limits, scratch)
        } else if self.stop_on_repeat {
            play_random_until_repeat(game, self.methods, rng, self.limits, seen)
        } else {
            play_random(game, self.methods, rng, self.limits)
        };
        record(r)
    }

    /// [`BATCH`] deals at once where [`Packed`] plays the deck.
    fn batch(&self) -> usize {
        if self.packed.is_some() { BATCH } else { 1 }
    }

    #[inline]
    fn stage(&self, w: &mut BatailleWorker, i: usize) {
        let n = w.deal.len();
        w.staged[i * n..(i + 1) * n].copy_from_slice(&w.deal);
        let packed = self.packed.expect("deals are staged only for the register engine");
        let (first, second) = w.deal.split_at(self.half);
        w.packed[i] = packed.pack(first, second);
    }

    fn play_staged(
        &self,
        w: &mut BatailleWorker,
        n: usize,
        add: &mut impl FnMut(&DealRecord, &[u8]),
    ) {
        let packed = self.packed.expect("deals are staged only for the register engine");
        let cards = w.deal.len();
        packed.play_many(&w.packed[..n], self.limits, &mut w.results);
        for (&result, deal) in w.results.iter().zip(w.staged.chunks_exact(cards)).take(n) {
            let record = match result {
                Some(f) => record(f.into()),
                None => {
                    // Still running after the first phase: the engine plays it again.
                    w.game.set(&deal[..self.half], &deal[self.half..]);
                    record(play_deterministic(&w.game, self.methods, self.limits, &mut w.scratch))
                }
            };
            add(&record, deal);
        }
    }

    #[inline]
    fn deal<'w>(&self, w: &'w BatailleWorker) -> &'w [u8] {
        &w.deal
    }

    fn deal_text(&self, deal: &[u8]) -> String {
        self.position(deal).to_string()
    }

    fn engine(&self) -> String {
        let phase = bataille_engine::first_phase(self.methods);
        if !self.methods.is_deterministic() {
            return "rings, random stacking".to_string();
        }
        match self.packed {
            Some(p) => format!("{}, then {phase} for games still running", p.describe()),
            None => phase.to_string(),
        }
    }

    fn alignment(&self, deal: &[u8]) -> Alignment {
        if !self.methods.is_deterministic() || self.deck.len() % 2 == 1 {
            return Alignment::NotApplicable;
        }
        let Some(positions) = loop_positions(&self.position(deal), self.methods) else {
            return Alignment::NotApplicable;
        };
        match aligned::aligned_position(&positions, self.methods) {
            Some(p) => Alignment::Yes(p.to_string()),
            None => Alignment::No,
        }
    }
}

impl From<bataille_engine::GameResult> for DealRecord {
    /// An engine result as a deal's record.
    #[inline]
    fn from(r: bataille_engine::GameResult) -> DealRecord {
        record(r)
    }
}

/// An engine result as a deal's record.
#[inline]
fn record(r: bataille_engine::GameResult) -> DealRecord {
    let outcome = match r.outcome {
        Outcome::FirstWins => DealOutcome::FirstWins,
        Outcome::SecondWins => DealOutcome::SecondWins,
        Outcome::Draw => DealOutcome::Draw,
        Outcome::Capped => DealOutcome::Capped,
        Outcome::Cycle(c) => DealOutcome::Cycle(CycleInfo {
            id: c.id.0,
            tail_tricks: c.tail_tricks,
            tail_cards: c.tail_cards,
            period_tricks: c.period_tricks,
            period_cards: c.period_cards,
        }),
    };
    DealRecord { outcome, tricks: r.tricks, cards: r.cards }
}

/// The number of arrangements of the sorted `cards` (a multinomial coefficient), or 0 when it
/// does not fit in 64 bits (then nothing is skipped).
fn arrangement_count(cards: &[u8]) -> u64 {
    let runs = cards.chunk_by(|x, y| x == y).map(|run| run.len() as u32);
    multinomial(runs).and_then(|n| u64::try_from(n).ok()).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bataille_engine::Method;

    #[test]
    fn arrangement_counts() {
        assert_eq!(arrangement_count(&[]), 1);
        assert_eq!(arrangement_count(&[3]), 1);
        assert_eq!(arrangement_count(&[1, 2, 3]), 6);
        assert_eq!(arrangement_count(&[1, 1, 2, 2]), 6);
        assert_eq!(arrangement_count(&[1, 1, 1, 2, 2, 3, 3, 3]), 560);
        // 16 cards, C=4 V=4: 16! / 4!^4.
        let deck: Vec<u8> = (1..=4).flat_map(|v| [v; 4]).collect();
        assert_eq!(arrangement_count(&deck), 63_063_000);
        // Too many for 64 bits: 52 distinct cards.
        let big: Vec<u8> = (1..=52).collect();
        assert_eq!(arrangement_count(&big), 0);
    }

    #[test]
    fn aligned_loops() {
        let nat = Methods::both(Method::Natural);
        let check = |deal: &str, expected: &str| {
            let p: Position = deal.parse().unwrap();
            let g = Bataille::new(p.infer_deck().unwrap(), nat, Limits::DETERMINISTIC);
            let bytes = [p.first(), p.second()].concat();
            let got = match g.alignment(&bytes) {
                Alignment::Yes(_) => "yes",
                Alignment::No => "no",
                Alignment::NotApplicable => "n/a",
            };
            assert_eq!(got, expected, "{deal}");
        };
        // The article's aligned loops for C=4 V=4 and V=6 (box 4).
        check("[2, 1, 4, 4, 2, 1, 3, 3] / [4, 2, 4, 1, 3, 2, 3, 1]", "yes");
        check("[2, 1, 5, 5, 6, 2, 6, 6, 4, 1, 4, 4] / [5, 3, 5, 1, 6, 3, 3, 2, 4, 2, 3, 1]", "yes");
        // The only C=4 V=3 loop (19 tricks, found by the exhaustive search) is not aligned.
        check("[2, 1, 2, 1, 3, 3] / [2, 1, 3, 2, 3, 1]", "no");
        // A finished game has no loop; odd decks have no equal hands.
        check("[1, 1, 2, 2] / [2, 2, 1, 1]", "n/a");
        check("[5, 3] / [2, 4, 1]", "n/a");
    }

    #[test]
    fn identity_round_trip() {
        let check = |c, v, m: Methods, limits: Limits| {
            let g = Bataille::new(DeckSpec::new(c, v).unwrap(), m, limits);
            let back = Bataille::from_identity(&g.identity())
                .unwrap_or_else(|| panic!("{}", g.identity()));
            assert_eq!((back.spec, back.methods, back.limits), (g.spec, g.methods, g.limits));
        };
        let nat = Methods::both(Method::Natural);
        check(4, 4, nat, Limits::DETERMINISTIC);
        check(4, 13, Methods::new(Method::Random, Method::Optimized), Limits::RANDOM);
        check(1, 9, nat, Limits { max_tricks: 77 });
        let random = Methods::both(Method::Random);
        let g = Bataille::with_convention(
            DeckSpec::new(4, 8).unwrap(),
            random,
            Limits { max_tricks: 500 },
            RandomConvention::StopOnRepeat,
        );
        assert_eq!(g.identity(), "bataille C=4 V=8 random cap=500 stop=repeat");
        let back = Bataille::from_identity(&g.identity()).unwrap();
        assert_eq!(back.identity(), g.identity());
        // The convention does not apply to deterministic methods.
        let g = Bataille::with_convention(
            DeckSpec::new(4, 8).unwrap(),
            nat,
            Limits::DETERMINISTIC,
            RandomConvention::StopOnRepeat,
        );
        assert_eq!(g.identity(), "bataille C=4 V=8 natural");
        assert!(Bataille::from_identity("bataille C=4 V=4").is_none());
        assert!(Bataille::from_identity("bataille C=4 V=4 natural cap=x").is_none());
    }

    #[test]
    fn swap_reduction_only_when_symmetric() {
        let spec = DeckSpec::new(2, 2).unwrap();
        let nat = Methods::both(Method::Natural);
        assert!(Bataille::new(spec, nat, Limits::DETERMINISTIC).reduces_by_swap());
        let mixed = Methods::new(Method::Natural, Method::Optimized);
        assert!(!Bataille::new(spec, mixed, Limits::DETERMINISTIC).reduces_by_swap());
        let odd = DeckSpec::new(1, 5).unwrap();
        assert!(!Bataille::new(odd, nat, Limits::DETERMINISTIC).reduces_by_swap());
    }
}
