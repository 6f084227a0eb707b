//! Beggar-my-neighbour as a [`DealGame`], on the `bataille-bmn` engine: deals of a
//! [`bataille_bmn::DeckSpec`] (cards are penalties `0..=4`), the first ⌊N/2⌋ cards to the first
//! hand, which leads. Leading is an advantage, so swapping the hands is not a symmetry and
//! every arrangement is a deal of its own.
//!
//! This adapter shows the harness is not bataille-specific: the same [`crate::explore`],
//! [`crate::State`] and reports serve any game that can say what its deck is and play a deal.

use bataille_bmn::{DeckSpec, Limits, Outcome, Scratch, format_deal, play_deal};
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::arrangement::{Arrangements, next_arrangement};
use crate::game::{CycleInfo, DealGame, DealOutcome, DealRecord};

/// Beggar-my-neighbour deals of one deck.
#[derive(Debug, Clone)]
pub struct Bmn {
    spec: DeckSpec,
    limits: Limits,
    deck: Vec<u8>,
    arrangements: Arrangements,
}

/// The per-thread state of a beggar-my-neighbour search.
#[derive(Debug, Clone)]
pub struct BmnWorker {
    deal: Vec<u8>,
    scratch: Scratch,
}

impl Bmn {
    /// Deals of `spec`, each game stopped at `limits`.
    pub fn new(spec: DeckSpec, limits: Limits) -> Bmn {
        let deck = spec.sorted_deck();
        Bmn { spec, limits, arrangements: Arrangements::new(&deck), deck }
    }

    /// Rebuilds the game named by an [`DealGame::identity`] string (`bmn 36,4,4,4,4`,
    /// `bmn 8,1,1,0,0 cap=100`).
    pub fn from_identity(identity: &str) -> Option<Bmn> {
        let mut words = identity.split(' ');
        if words.next() != Some("bmn") {
            return None;
        }
        let spec = DeckSpec::parse_counts(words.next()?).ok()?;
        let limits = match words.next() {
            None => Limits::NONE,
            Some(cap) => Limits { max_tricks: cap.strip_prefix("cap=")?.parse().ok()? },
        };
        let game = Bmn::new(spec, limits);
        (words.next().is_none() && game.identity() == identity).then_some(game)
    }
}

impl DealGame for Bmn {
    type Worker = BmnWorker;

    fn cards_counted(&self) -> &'static str {
        "in all (both players)"
    }

    fn worker(&self) -> BmnWorker {
        BmnWorker { deal: self.deck.clone(), scratch: Scratch::default() }
    }

    fn identity(&self) -> String {
        let counts = self.spec.counts().map(|c| c.to_string()).join(",");
        let cap = if self.limits == Limits::NONE {
            String::new()
        } else {
            format!(" cap={}", self.limits.max_tricks)
        };
        format!("bmn {counts}{cap}")
    }

    fn deck(&self) -> &[u8] {
        &self.deck
    }

    fn reduces_by_swap(&self) -> bool {
        false
    }

    fn seek(&self, w: &mut BmnWorker, rank: u128) {
        self.arrangements.unrank(rank, &mut w.deal);
    }

    #[inline]
    fn step(&self, w: &mut BmnWorker) -> bool {
        next_arrangement(&mut w.deal)
    }

    #[inline]
    fn is_canonical(&self, _w: &BmnWorker) -> bool {
        true
    }

    #[inline]
    fn sample(&self, w: &mut BmnWorker, rng: &mut Xoshiro256PlusPlus) {
        w.deal.copy_from_slice(&self.deck);
        w.deal.shuffle(rng);
    }

    #[inline]
    fn play(&self, w: &mut BmnWorker, _rng: &mut Xoshiro256PlusPlus) -> DealRecord {
        let r = play_deal(&w.deal, self.limits, &mut w.scratch);
        let outcome = match r.outcome {
            Outcome::FirstWins => DealOutcome::FirstWins,
            Outcome::SecondWins => DealOutcome::SecondWins,
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

    #[inline]
    fn deal<'w>(&self, w: &'w BmnWorker) -> &'w [u8] {
        &w.deal
    }

    fn deal_text(&self, deal: &[u8]) -> String {
        format_deal(deal)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::{Mode, Options, Plan, Shard, Silent, explore, naive};

    #[test]
    fn exhaustive_small_deck_equals_a_direct_loop() {
        // 10 cards: 6 numerals, one card of each penalty: 10!/6! = 5040 deals.
        let game = Bmn::new(DeckSpec::new([6, 1, 1, 1, 1]).unwrap(), Limits::NONE);
        let plan = Plan::with_unit_size(&game, Mode::Exhaustive, 0, 3, 97).unwrap();
        let o = Options { threads: 2, ..Options::default() };
        let got = explore(&game, &plan, Shard::WHOLE, None, &o, &Silent, &AtomicBool::new(false))
            .unwrap()
            .state
            .stats;
        let mut scratch = Scratch::default();
        let mut expected = crate::Stats::new(3);
        let mut w = game.worker();
        let mut rng = plan.unit_rng(0);
        let deals = naive::deals(game.deck(), false);
        for d in &deals {
            w.deal.copy_from_slice(d);
            let r = game.play(&mut w, &mut rng);
            assert_eq!(r.tricks, play_deal(d, Limits::NONE, &mut scratch).tricks);
            expected.add(&r, d);
        }
        assert_eq!(got.deals, 5040);
        assert_eq!(got, expected);
    }

    #[test]
    fn identity_round_trip() {
        let g = Bmn::new(DeckSpec::STANDARD, Limits::NONE);
        assert_eq!(g.identity(), "bmn 36,4,4,4,4");
        assert!(Bmn::from_identity(&g.identity()).is_some());
        let capped = Bmn::new(DeckSpec::ITALIAN, Limits { max_tricks: 9 });
        let back = Bmn::from_identity(&capped.identity()).unwrap();
        assert_eq!(back.identity(), capped.identity());
        assert!(Bmn::from_identity("bmn 1,2").is_none());
    }

    #[test]
    fn random_deals_whatever_the_threads() {
        let game = Bmn::new(DeckSpec::STANDARD, Limits::NONE);
        let plan = Plan::with_unit_size(&game, Mode::Random { deals: 3000 }, 5, 3, 128).unwrap();
        let run = |threads| {
            let o = Options { threads, ..Options::default() };
            let stop = AtomicBool::new(false);
            explore(&game, &plan, Shard::WHOLE, None, &o, &Silent, &stop).unwrap().state.encode()
        };
        assert_eq!(run(1), run(2));
    }
}
