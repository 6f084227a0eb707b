//! Property tests: the engine against the naive player, conservation of cards, the player swap,
//! and natural = optimized when every value is unique.

use bataille_engine::{
    Card, Game, Limits, Method, Methods, NoRandom, Outcome, Position, Scratch, TrickResult, play,
    play_deterministic_phased,
};
use proptest::prelude::*;

use crate::naive::{self, NaiveOutcome};

const DETERMINISTIC: [Method; 4] =
    [Method::Natural, Method::Optimized, Method::Ascending, Method::FirstPlayerFirst];

/// A random position of a small deck: C in 1..=4, V in 1..=6, any split.
fn position() -> impl Strategy<Value = Position> {
    (1usize..=4, 1usize..=6)
        .prop_flat_map(|(c, v)| {
            let deck: Vec<Card> = (1..=v as Card).flat_map(|x| std::iter::repeat_n(x, c)).collect();
            let n = deck.len();
            (Just(deck).prop_shuffle(), 0..=n)
        })
        .prop_map(|(deck, split)| {
            Position::new(deck[..split].to_vec(), deck[split..].to_vec()).unwrap()
        })
}

fn method() -> impl Strategy<Value = Method> {
    prop::sample::select(DETERMINISTIC.to_vec())
}

fn run(p: &Position, m: Methods) -> bataille_engine::GameResult {
    play(p, m, &mut NoRandom, Limits::DETERMINISTIC)
}

/// The game with `free` tricks played before Brent's algorithm starts (0: from the start).
fn run_phased(p: &Position, m: Methods, free: u64) -> bataille_engine::GameResult {
    play_deterministic_phased(
        &Game::new(p),
        m,
        Limits::DETERMINISTIC,
        &mut Scratch::default(),
        free,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// Brent's answer (outcome, tail, period, both measures) equals the hash-map detector's.
    /// The first phase may end anywhere (`free`), or not be played at all.
    #[test]
    fn brent_equals_naive(p in position(), m1 in method(), m2 in method(), free in 0u64..80) {
        let fast = run_phased(&p, Methods::new(m1, m2), free);
        prop_assert_eq!(fast, run(&p, Methods::new(m1, m2)));
        let slow = naive::play(p.first(), p.second(), m1, m2);
        let expected = match slow.outcome {
            NaiveOutcome::First => "first".to_string(),
            NaiveOutcome::Second => "second".to_string(),
            NaiveOutcome::Draw => "draw".to_string(),
            NaiveOutcome::Loop { tail, period, tail_cards, period_cards } => {
                format!("cycle {tail} {period} {tail_cards} {period_cards}")
            }
        };
        let got = match fast.outcome {
            Outcome::Cycle(c) => format!(
                "cycle {} {} {} {}",
                c.tail_tricks, c.period_tricks, c.tail_cards, c.period_cards
            ),
            o => o.name().to_string(),
        };
        prop_assert_eq!(got, expected);
        prop_assert_eq!((fast.tricks, fast.cards), (slow.tricks, slow.cards));
    }

    /// No card appears or disappears during a trick, except the table when a battle ends the
    /// game.
    #[test]
    fn cards_are_conserved(p in position(), m1 in method(), m2 in method()) {
        let methods = Methods::new(m1, m2);
        let mut g = Game::new(&p);
        let mut counts = [0usize; 256];
        for &c in p.first().iter().chain(p.second()) {
            counts[usize::from(c)] += 1;
        }
        for _ in 0..500 {
            if g.ending().is_some() {
                break;
            }
            let t = g.trick(methods, &mut NoRandom);
            if let TrickResult::Ended(_) = t.result {
                break;
            }
            let now = g.to_position();
            let mut c2 = [0usize; 256];
            for &c in now.first().iter().chain(now.second()) {
                c2[usize::from(c)] += 1;
            }
            prop_assert_eq!(counts, c2);
        }
    }

    /// Swapping the players mirrors the game for natural and optimized stacking, and the loop
    /// keeps its name.
    #[test]
    fn swap_mirrors(p in position(), optimized in any::<bool>()) {
        let m = Methods::both(if optimized { Method::Optimized } else { Method::Natural });
        let r = run(&p, m);
        let s = run(&p.swapped(), m);
        prop_assert_eq!((r.tricks, r.cards), (s.tricks, s.cards));
        let mirrored = match r.outcome {
            Outcome::FirstWins => Outcome::SecondWins,
            Outcome::SecondWins => Outcome::FirstWins,
            o => o,
        };
        prop_assert_eq!(mirrored, s.outcome);
    }

    /// With one colour there are no battles, so natural and optimized stacking coincide.
    #[test]
    fn natural_is_optimized_for_one_colour(
        (deck, split) in (1usize..=40).prop_flat_map(|v| {
            let deck: Vec<Card> = (1..=v as Card).collect();
            (Just(deck).prop_shuffle(), 0..=v)
        })
    ) {
        let p = Position::new(deck[..split].to_vec(), deck[split..].to_vec()).unwrap();
        prop_assert_eq!(
            run(&p, Methods::both(Method::Natural)),
            run(&p, Methods::both(Method::Optimized))
        );
    }
}

/// Every deal reaching a loop gets the loop's id, and deals on distinct loops get distinct ids:
/// checked on every position of the C=1 V=7 deck against the loops' position sets.
#[test]
fn cycle_ids_name_loops() {
    use std::collections::{BTreeSet, HashMap};
    let m = Methods::both(Method::Natural);
    let mut deck: Vec<Card> = (1..=7).collect();
    // loop (as the set of its positions and their mirrors) -> ids seen
    let mut ids: HashMap<BTreeSet<String>, BTreeSet<u64>> = HashMap::new();
    loop {
        for split in 0..=deck.len() {
            let p = Position::new(deck[..split].to_vec(), deck[split..].to_vec()).unwrap();
            if let Outcome::Cycle(c) = run(&p, m).outcome {
                let positions = bataille_engine::loop_positions(&p, m).unwrap();
                let set: BTreeSet<String> =
                    positions.iter().flat_map(|q| [q.compact(), q.swapped().compact()]).collect();
                ids.entry(set).or_default().insert(c.id.0);
            }
        }
        let Some(i) = deck.windows(2).rposition(|w| w[0] < w[1]) else { break };
        let j = deck.iter().rposition(|&x| x > deck[i]).unwrap();
        deck.swap(i, j);
        deck[i + 1..].reverse();
    }
    assert!(ids.len() > 1, "the C=1 V=7 deck has several loops");
    for (set, seen) in &ids {
        assert_eq!(seen.len(), 1, "one id per loop: {set:?}");
    }
    let distinct: BTreeSet<u64> = ids.values().flatten().copied().collect();
    assert_eq!(distinct.len(), ids.len(), "distinct loops get distinct ids");
}

/// Calls `f` on every position (every arrangement, every split) of the deck `c` x `v`.
fn for_each_position(c: usize, v: usize, mut f: impl FnMut(&Position)) {
    let mut deck: Vec<Card> = (1..=v as Card).flat_map(|x| std::iter::repeat_n(x, c)).collect();
    loop {
        for split in 0..=deck.len() {
            f(&Position::new(deck[..split].to_vec(), deck[split..].to_vec()).unwrap());
        }
        let Some(i) = deck.windows(2).rposition(|w| w[0] < w[1]) else { break };
        let j = deck.iter().rposition(|&x| x > deck[i]).unwrap();
        deck.swap(i, j);
        deck[i + 1..].reverse();
    }
}

/// Brent against the naive detector on every position of a few small decks, for natural and
/// optimized stacking, with the default first phase and with none (Brent's algorithm from the
/// start); loops with a tail must occur among them.
#[test]
fn brent_equals_naive_exhaustive() {
    let mut loops_with_tail = 0;
    for (c, v) in [(1, 7), (2, 4), (3, 3), (4, 2)] {
        for m in [Method::Natural, Method::Optimized] {
            for_each_position(c, v, |p| {
                let fast = run(p, Methods::both(m));
                assert_eq!(fast, run_phased(p, Methods::both(m), 0), "{p} {m}");
                let slow = naive::play(p.first(), p.second(), m, m);
                assert_eq!((fast.tricks, fast.cards), (slow.tricks, slow.cards), "{p} {m}");
                match (fast.outcome, slow.outcome) {
                    (
                        Outcome::Cycle(f),
                        NaiveOutcome::Loop { tail, period, tail_cards, period_cards },
                    ) => {
                        let got = (f.tail_tricks, f.period_tricks, f.tail_cards, f.period_cards);
                        assert_eq!(got, (tail, period, tail_cards, period_cards), "{p} {m}");
                        loops_with_tail += usize::from(tail > 0);
                    }
                    (Outcome::FirstWins, NaiveOutcome::First)
                    | (Outcome::SecondWins, NaiveOutcome::Second)
                    | (Outcome::Draw, NaiveOutcome::Draw) => {}
                    (f, s) => panic!("{p} {m}: engine {f:?}, naive {s:?}"),
                }
            });
        }
    }
    assert!(loops_with_tail > 100, "only {loops_with_tail} loops with a tail");
}

/// Long tails and periods, on both sides of Brent's first gap (32 tricks) and of the first
/// phase (default, or ending after 0, 1, 33 or 100 tricks): random positions of
/// the C=1 V=9, 10, 11 decks, where most positions lead into a loop (periods 12 to 60), and of
/// the C=4 V=5 deck (seeded), every game checked against the naive detector.
#[test]
fn brent_equals_naive_long_games() {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(32);
    let (mut long_tails, mut short_periods_late) = (0, 0);
    for (c, v) in [(1, 9), (1, 10), (1, 11), (4, 5)] {
        let mut deck: Vec<Card> = (1..=v as Card).flat_map(|x| std::iter::repeat_n(x, c)).collect();
        for i in 0..5_000 {
            deck.shuffle(&mut rng);
            let split = i % (deck.len() + 1);
            let p = Position::new(deck[..split].to_vec(), deck[split..].to_vec()).unwrap();
            for m in [Method::Natural, Method::Optimized] {
                let fast = run(&p, Methods::both(m));
                let free = [0, 1, 33, 100][i % 4];
                assert_eq!(fast, run_phased(&p, Methods::both(m), free), "{p} {m} {free}");
                let slow = naive::play(p.first(), p.second(), m, m);
                assert_eq!((fast.tricks, fast.cards), (slow.tricks, slow.cards), "{p} {m}");
                if let (Outcome::Cycle(f), NaiveOutcome::Loop { tail, period, .. }) =
                    (fast.outcome, slow.outcome)
                {
                    assert_eq!((f.tail_tricks, f.period_tricks), (tail, period), "{p} {m}");
                    long_tails += usize::from(tail > 32);
                    short_periods_late += usize::from(tail > 32 && period < 32);
                }
            }
        }
    }
    assert!(long_tails > 0 && short_periods_late > 0, "{long_tails} {short_periods_late}");
}
