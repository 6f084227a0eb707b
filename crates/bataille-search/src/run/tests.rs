use std::collections::BTreeMap;
use std::sync::Mutex;

use bataille_engine::{DeckSpec, Limits, Method, Methods};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::*;
use crate::bataille::{Bataille, BatailleWorker};
use crate::game::{DealOutcome, DealRecord};
use crate::naive::{self, NaiveMethod};

fn bataille(c: usize, v: usize, m: Methods) -> Bataille {
    Bataille::new(DeckSpec::new(c, v).unwrap(), m, Limits::default_for(m))
}

fn opts(threads: usize) -> Options {
    Options { threads, ..Options::default() }
}

fn run(game: &Bataille, plan: &Plan, shard: Shard, resume: Option<State>, o: &Options) -> Ended {
    explore(game, plan, shard, resume, o, &Silent, &AtomicBool::new(false)).unwrap()
}

/// A game that records the deals it is asked to play (through the real `run_unit` path).
struct Recorder(Bataille);

impl DealGame for Recorder {
    type Worker = (BatailleWorker, Vec<Vec<u8>>);
    fn worker(&self) -> Self::Worker {
        (self.0.worker(), Vec::new())
    }
    fn identity(&self) -> String {
        self.0.identity()
    }
    fn deck(&self) -> &[u8] {
        self.0.deck()
    }
    fn reduces_by_swap(&self) -> bool {
        self.0.reduces_by_swap()
    }
    fn seek(&self, w: &mut Self::Worker, rank: u128) {
        self.0.seek(&mut w.0, rank)
    }
    fn step(&self, w: &mut Self::Worker) -> bool {
        self.0.step(&mut w.0)
    }
    fn is_canonical(&self, w: &Self::Worker) -> bool {
        self.0.is_canonical(&w.0)
    }
    fn skip_non_canonical(&self, w: &mut Self::Worker, max: u64) -> u64 {
        self.0.skip_non_canonical(&mut w.0, max)
    }
    fn sample(&self, w: &mut Self::Worker, rng: &mut Xoshiro256PlusPlus) {
        self.0.sample(&mut w.0, rng)
    }
    fn play(&self, w: &mut Self::Worker, _rng: &mut Xoshiro256PlusPlus) -> DealRecord {
        w.1.push(self.0.deal(&w.0).to_vec());
        DealRecord { outcome: DealOutcome::Draw, tricks: 0, cards: 0 }
    }
    fn deal<'w>(&self, w: &'w Self::Worker) -> &'w [u8] {
        self.0.deal(&w.0)
    }
    fn deal_text(&self, deal: &[u8]) -> String {
        self.0.deal_text(deal)
    }
}

/// The small decks of the issue: C ≤ 4 with V ≤ 3, C = 1 with V ≤ 8, C = 2 with V ≤ 4.
fn small_decks() -> Vec<(usize, usize)> {
    let mut d = vec![];
    for c in 1..=4 {
        for v in 1..=3 {
            d.push((c, v));
        }
    }
    d.extend((4..=8).map(|v| (1, v)));
    d.push((2, 4));
    d
}

#[test]
fn exhaustive_enumeration_equals_brute_force() {
    for (c, v) in small_decks() {
        for m in [Methods::both(Method::Natural), Methods::new(Method::Natural, Method::Optimized)]
        {
            let game = Recorder(bataille(c, v, m));
            // Small odd units put unit boundaries everywhere relative to the mirror pairs and to
            // the blocks of mirrors passed over at once; a large one lets whole blocks go.
            for unit in [1, 7, 1000] {
                let plan = Plan::with_unit_size(&game, Mode::Exhaustive, 0, 1, unit).unwrap();
                let mut w = game.worker();
                let mut stats = Stats::new(1);
                for u in 0..plan.key().units {
                    run_unit(&game, &plan, u, &mut w, &mut stats);
                }
                let played = w.1;
                let set: std::collections::BTreeSet<Vec<u8>> = played.iter().cloned().collect();
                assert_eq!(set.len(), played.len(), "C={c} V={v} {m}: a deal played twice");
                let expected = naive::deals(game.deck(), game.reduces_by_swap());
                assert_eq!(set, expected, "C={c} V={v} {m}, units of {unit}");
                assert_eq!(plan.deals(), expected.len() as u128, "closed formula, C={c} V={v} {m}");
            }
        }
    }
}

fn naive_method(m: Method) -> NaiveMethod {
    match m {
        Method::Natural => NaiveMethod::Natural,
        Method::Optimized => NaiveMethod::Optimized,
        _ => unreachable!("the naive player knows two methods"),
    }
}

fn cross_check(c: usize, v: usize, m: Methods) {
    let game = bataille(c, v, m);
    let top = 5;
    let deals = naive::deals(game.deck(), game.reduces_by_swap());
    let h = game.deck().len() / 2;
    let mm = [naive_method(m.first), naive_method(m.second)];
    let results: Vec<_> =
        deals.iter().map(|d| (d.clone(), naive::play(&d[..h], &d[h..], mm))).collect();
    let expected = naive::aggregate(&results, top);
    let plan = Plan::with_unit_size(&game, Mode::Exhaustive, 0, top, 101).unwrap();
    let got = run(&game, &plan, Shard::WHOLE, None, &opts(2));
    assert!(!got.interrupted);
    assert_eq!(naive::from_stats(&got.state.stats), expected, "C={c} V={v} {m}");
}

#[test]
fn cross_check_with_naive_implementation() {
    for m in [Methods::both(Method::Natural), Methods::both(Method::Optimized)] {
        for v in 1..=3 {
            cross_check(4, v, m);
        }
        for v in 1..=4 {
            cross_check(2, v, m);
        }
        for v in 1..=8 {
            cross_check(1, v, m);
        }
    }
    // Different methods per player: no swap reduction.
    cross_check(2, 3, Methods::new(Method::Natural, Method::Optimized));
    cross_check(3, 3, Methods::new(Method::Optimized, Method::Natural));
}

// C=1 V=9 (362,880 deals, odd N so no reduction) is the largest case: one test per method so
// that the test runner spreads them over the cores.
#[test]
fn cross_check_c1_v9_natural() {
    cross_check(1, 9, Methods::both(Method::Natural));
}

#[test]
fn cross_check_c1_v9_optimized() {
    cross_check(1, 9, Methods::both(Method::Optimized));
}

#[test]
fn cross_check_finds_loops() {
    // The cross-check above is only meaningful if loops occur in it.
    let game = bataille(4, 3, Methods::both(Method::Natural));
    let plan = Plan::new(&game, Mode::Exhaustive, 0, 3).unwrap();
    let s = explore_sequential(&game, &plan).stats;
    assert!(s.looping_deals > 0, "{} loops", s.looping_deals);
    let game = bataille(1, 9, Methods::both(Method::Natural));
    let plan = Plan::new(&game, Mode::Exhaustive, 0, 3).unwrap();
    assert!(explore_sequential(&game, &plan).stats.looping_deals > 0);
}

fn encode_all(game: &Bataille, plan: &Plan, threads: usize) -> String {
    run(game, plan, Shard::WHOLE, None, &opts(threads)).state.encode()
}

#[test]
fn same_result_whatever_the_threads() {
    let cases = [
        (bataille(4, 3, Methods::both(Method::Natural)), Mode::Exhaustive),
        (bataille(4, 3, Methods::both(Method::Random)), Mode::Exhaustive),
        (bataille(4, 4, Methods::both(Method::Optimized)), Mode::Random { deals: 3000 }),
        (
            bataille(4, 4, Methods::new(Method::Random, Method::Natural)),
            Mode::Random { deals: 2000 },
        ),
    ];
    for (game, mode) in cases {
        let plan = Plan::with_unit_size(&game, mode, 42, 4, 97).unwrap();
        let one = encode_all(&game, &plan, 1);
        assert_eq!(one, encode_all(&game, &plan, 2), "{mode}");
        assert_eq!(one, encode_all(&game, &plan, 3), "{mode}");
        assert_eq!(one, explore_sequential(&game, &plan).encode(), "{mode}");
    }
}

#[test]
fn seeds_matter_in_random_mode() {
    let game = bataille(4, 4, Methods::both(Method::Natural));
    let mode = Mode::Random { deals: 500 };
    let a = Plan::with_unit_size(&game, mode, 1, 3, 64).unwrap();
    let b = Plan::with_unit_size(&game, mode, 2, 3, 64).unwrap();
    let (a, b) = (explore_sequential(&game, &a).stats, explore_sequential(&game, &b).stats);
    assert_eq!(a.deals, 500);
    assert_ne!(a.tricks, b.tricks);
}

#[test]
fn merged_shards_equal_the_whole_run() {
    for (game, mode) in [
        (bataille(4, 3, Methods::both(Method::Natural)), Mode::Exhaustive),
        (bataille(2, 5, Methods::both(Method::Random)), Mode::Random { deals: 1500 }),
    ] {
        let plan = Plan::with_unit_size(&game, mode, 9, 4, 61).unwrap();
        let whole = encode_all(&game, &plan, 2);
        let parts: Vec<State> = (1..=3)
            .map(|k| run(&game, &plan, Shard::new(k, 3).unwrap(), None, &opts(2)).state)
            .collect();
        // Shards in any order, round-tripped through their text form.
        let decoded: Vec<State> =
            parts.iter().rev().map(|p| State::decode(&p.encode()).unwrap()).collect();
        let merged = State::merge(&decoded).unwrap();
        assert_eq!(merged.encode(), whole, "{mode}");
        // Two of three shards: incomplete, and a shard given twice is refused.
        let partial = State::merge(&parts[..2]).unwrap();
        assert!(!partial.is_complete());
        assert!(State::merge(&[parts[0].clone(), parts[0].clone()]).is_err());
    }
}

/// Runs `plan` in rounds of at most `max_units` units, each resumed from the text form of the
/// last; returns the final state's text and the number of rounds.
fn run_interrupted(game: &Bataille, plan: &Plan, max_units: u64) -> (String, usize) {
    let mut saved: Option<String> = None;
    let mut rounds = 0;
    loop {
        let resume = saved.as_deref().map(|t| State::decode(t).unwrap());
        let o = Options { threads: 2, max_units: Some(max_units), ..Options::default() };
        let ended = run(game, plan, Shard::WHOLE, resume, &o);
        rounds += 1;
        saved = Some(ended.state.encode());
        if !ended.interrupted {
            return (saved.unwrap(), rounds);
        }
    }
}

#[test]
fn interrupted_then_resumed_equals_uninterrupted() {
    let game = bataille(4, 3, Methods::both(Method::Natural));
    let plan = Plan::with_unit_size(&game, Mode::Exhaustive, 0, 4, 50).unwrap();
    let whole = encode_all(&game, &plan, 2);
    // Stop after a few units, three times, resuming from the saved text each time.
    let (saved, rounds) = run_interrupted(&game, &plan, 150);
    assert!(rounds > 2, "{rounds} rounds");
    assert_eq!(saved, whole);
}

#[test]
fn stop_request_leaves_a_consistent_state() {
    /// Raises the stop flag after a few units.
    struct StopAfter<'a>(&'a AtomicBool, Mutex<u32>);
    impl Progress for StopAfter<'_> {
        fn unit_done(&self, _deals: u64) {
            let mut n = self.1.lock().unwrap();
            *n += 1;
            if *n == 10 {
                self.0.store(true, Ordering::Relaxed);
            }
        }
    }
    let game = bataille(4, 3, Methods::both(Method::Optimized));
    let plan = Plan::with_unit_size(&game, Mode::Exhaustive, 0, 4, 50).unwrap();
    let whole = encode_all(&game, &plan, 2);
    let stop = AtomicBool::new(false);
    let progress = StopAfter(&stop, Mutex::new(0));
    let first = explore(&game, &plan, Shard::WHOLE, None, &opts(2), &progress, &stop).unwrap();
    assert!(first.interrupted);
    let resumed = State::decode(&first.state.encode()).unwrap();
    let done = run(&game, &plan, Shard::WHOLE, Some(resumed), &opts(1));
    assert_eq!(done.state.encode(), whole);
}

#[test]
fn mismatched_or_corrupt_states_are_refused() {
    let game = bataille(2, 3, Methods::both(Method::Natural));
    let plan = Plan::with_unit_size(&game, Mode::Exhaustive, 0, 4, 5).unwrap();
    let o = Options { threads: 1, max_units: Some(3), ..Options::default() };
    let state = run(&game, &plan, Shard::WHOLE, None, &o).state;
    let text = state.encode();
    // Another deck, another method, another shard.
    let stop = AtomicBool::new(false);
    let other = bataille(2, 3, Methods::both(Method::Optimized));
    let other_plan = Plan::with_unit_size(&other, Mode::Exhaustive, 0, 4, 5).unwrap();
    let err = explore(&other, &other_plan, Shard::WHOLE, Some(state.clone()), &o, &Silent, &stop)
        .unwrap_err()
        .to_string();
    assert!(err.contains("optimized"), "{err}");
    let err = explore(&game, &plan, Shard::new(1, 2).unwrap(), Some(state), &o, &Silent, &stop)
        .unwrap_err()
        .to_string();
    assert!(err.contains("shard 1/1, not 1/2"), "{err}");
    // Corruption: a changed digit, a truncation, another file.
    let changed = text.replacen("counts ", "counts 1", 1);
    assert_eq!(State::decode(&changed), Err(StateError::Checksum));
    assert_eq!(State::decode(&text[..text.len() / 2]), Err(StateError::Checksum));
    assert_eq!(State::decode("hello\n"), Err(StateError::Magic));
    assert_eq!(State::decode(&text), Ok(State::decode(&text).unwrap()));
}

/// Every looping deal by loop, as the naive player finds them: loop id → (deal → tail tricks).
fn naive_loop_deals(game: &Bataille, m: Methods) -> BTreeMap<u64, BTreeMap<Vec<u8>, u64>> {
    let h = game.deck().len() / 2;
    let mm = [naive_method(m.first), naive_method(m.second)];
    let mut out: BTreeMap<u64, BTreeMap<Vec<u8>, u64>> = BTreeMap::new();
    for d in naive::deals(game.deck(), game.reduces_by_swap()) {
        if let naive::NaiveOutcome::Loop(id, tail, _, _) = naive::play(&d[..h], &d[h..], mm).outcome
        {
            out.entry(id).or_default().insert(d, tail);
        }
    }
    out
}

fn kept(s: &Stats) -> BTreeMap<u64, BTreeMap<Vec<u8>, u64>> {
    s.loops.iter().map(|(&id, l)| (id, l.kept.clone())).collect()
}

#[test]
fn hunt_keeps_every_looping_deal() {
    for (c, v, m) in [
        (4, 3, Methods::both(Method::Natural)),
        (3, 3, Methods::both(Method::Optimized)),
        (1, 7, Methods::both(Method::Natural)),
        (3, 3, Methods::new(Method::Optimized, Method::Natural)),
    ] {
        let game = bataille(c, v, m);
        let expected = naive_loop_deals(&game, m);
        assert!(!expected.is_empty(), "C={c} V={v} {m}: the test needs loops");
        let plan = Plan::with_unit_size(&game, Mode::Exhaustive, 0, 2, 97)
            .unwrap()
            .keeping_loop_deals(usize::MAX);
        let got = run(&game, &plan, Shard::WHOLE, None, &opts(2)).state;
        assert_eq!(kept(&got.stats), expected, "C={c} V={v} {m}");
        assert!(!got.stats.loop_deals_truncated());
        let listed: usize = expected.values().map(BTreeMap::len).sum();
        assert_eq!(listed as u64, got.stats.looping_deals, "C={c} V={v} {m}");
        assert_eq!(State::decode(&got.encode()).unwrap(), got);
    }
}

#[test]
fn hunt_cap_keeps_the_smallest_deals_and_says_so() {
    let m = Methods::both(Method::Natural);
    let game = bataille(1, 7, m);
    let expected = naive_loop_deals(&game, m);
    // The median list length: some loops are cut, others not.
    let mut lens: Vec<usize> = expected.values().map(BTreeMap::len).collect();
    lens.sort_unstable();
    let cap = lens[lens.len() / 2];
    assert!(lens[lens.len() - 1] > cap);
    let plan =
        Plan::with_unit_size(&game, Mode::Exhaustive, 0, 2, 13).unwrap().keeping_loop_deals(cap);
    let whole = run(&game, &plan, Shard::WHOLE, None, &opts(2)).state;
    for (id, deals) in &expected {
        let l = &whole.stats.loops[id];
        let smallest: BTreeMap<Vec<u8>, u64> =
            deals.iter().take(cap).map(|(d, &t)| (d.clone(), t)).collect();
        assert_eq!(l.kept, smallest, "{id:016x}");
        assert_eq!(l.truncated, deals.len() > cap, "{id:016x}");
        assert_eq!(l.deals, deals.len() as u64);
    }
    assert!(whole.stats.loop_deals_truncated());
    // Shards merged in any order give the same lists and flags.
    let parts: Vec<State> = (1..=4)
        .rev()
        .map(|k| run(&game, &plan, Shard::new(k, 4).unwrap(), None, &opts(2)).state)
        .map(|s| State::decode(&s.encode()).unwrap())
        .collect();
    assert_eq!(State::merge(&parts).unwrap().encode(), whole.encode());
}

#[test]
fn hunt_resumed_and_sharded_equal_the_whole_run() {
    for (c, v, mode) in [(4, 3, Mode::Exhaustive), (1, 9, Mode::Random { deals: 20_000 })] {
        let game = bataille(c, v, Methods::both(Method::Natural));
        let plan = Plan::with_unit_size(&game, mode, 5, 3, 211).unwrap().keeping_loop_deals(1000);
        let whole = encode_all(&game, &plan, 2);
        assert!(whole.contains("\nkept "), "{mode}: the test needs looping deals");
        // Interrupted and resumed from the text form.
        let (saved, rounds) = run_interrupted(&game, &plan, 40);
        assert!(rounds > 1, "{mode}: {rounds} rounds");
        assert_eq!(saved, whole, "{mode}");
        // Shards.
        let parts: Vec<State> = (1..=3)
            .map(|k| run(&game, &plan, Shard::new(k, 3).unwrap(), None, &opts(1)).state)
            .collect();
        assert_eq!(State::merge(&parts).unwrap().encode(), whole, "{mode}");
        // A checkpoint of a hunt does not resume a plain exploration (or another cap).
        let plain = Plan::with_unit_size(&game, mode, 5, 3, 211).unwrap();
        let state = State::decode(&whole).unwrap();
        let err = state.check_resumable(plain.key(), Shard::WHOLE).unwrap_err().to_string();
        assert!(err.contains("this is a hunt checkpoint, and this command is an explore"), "{err}");
        let plain = State::new(plain.key().clone(), Shard::WHOLE);
        let err = plain.check_resumable(plan.key(), Shard::WHOLE).unwrap_err().to_string();
        assert!(err.contains("this is an explore checkpoint"), "{err}");
        let other = plan.clone().keeping_loop_deals(999);
        let err = state.check_resumable(other.key(), Shard::WHOLE).unwrap_err().to_string();
        assert!(err.contains("loop deals kept"), "{err}");
    }
}

#[test]
fn cycle_cap_is_exact_for_what_it_keeps_whatever_the_split() {
    for (c, v, mode) in [(1, 9, Mode::Random { deals: 30_000 }), (1, 7, Mode::Exhaustive)] {
        let game = bataille(c, v, Methods::both(Method::Natural));
        let all = Plan::with_unit_size(&game, mode, 3, 3, 97).unwrap();
        let all = run(&game, &all, Shard::WHOLE, None, &opts(2)).state.stats;
        let cap = all.loops.len() / 3;
        assert!(cap >= 3, "{mode}: the test needs more loops ({})", all.loops.len());
        let plan = Plan::with_unit_size(&game, mode, 3, 3, 97).unwrap().keeping_cycles(cap);
        let whole = run(&game, &plan, Shard::WHOLE, None, &opts(2)).state;
        // The loops of smallest rank, exactly as the uncapped run counts them.
        let mut ranked: Vec<u64> = all.loops.keys().copied().collect();
        ranked.sort_by_key(|&id| crate::stats::cycle_rank(id));
        let expected: BTreeMap<u64, _> =
            ranked[..cap].iter().map(|id| (*id, all.loops[id].clone())).collect();
        let s = &whole.stats;
        assert_eq!(s.loops, expected, "{mode}");
        assert!(s.cycles_dropped);
        assert_eq!(
            (s.looping_deals, s.deals, &s.tricks),
            (all.looping_deals, all.deals, &all.tricks)
        );
        assert_eq!(s.shortest_tail(), all.shortest_tail());
        let e = s.distinct_cycles_estimate().unwrap();
        assert!(e > 0.0 && e.is_finite());
        // Same bytes whatever the threads, through the text form, resumed, and sharded.
        let text = whole.encode();
        assert!(text.contains("\nmax-cycles ") && text.contains("\ncycles-dropped\n"));
        assert_eq!(State::decode(&text).unwrap(), whole);
        assert_eq!(encode_all(&game, &plan, 1), text, "{mode}");
        assert_eq!(explore_sequential(&game, &plan).encode(), text, "{mode}");
        let (saved, rounds) = run_interrupted(&game, &plan, 20);
        assert!(rounds > 1, "{mode}: {rounds} rounds");
        assert_eq!(saved, text, "{mode}");
        let parts: Vec<State> = (1..=3)
            .rev()
            .map(|k| run(&game, &plan, Shard::new(k, 3).unwrap(), None, &opts(1)).state)
            .collect();
        assert_eq!(State::merge(&parts).unwrap().encode(), text, "{mode}");
        // A capped checkpoint resumes neither an uncapped run nor another cap.
        for other in [0, cap + 1] {
            let p = Plan::with_unit_size(&game, mode, 3, 3, 97).unwrap().keeping_cycles(other);
            let err = whole.check_resumable(p.key(), Shard::WHOLE).unwrap_err().to_string();
            assert!(err.contains("--max-cycles"), "{err}");
        }
    }
}

#[test]
fn capped_states_that_contradict_themselves_are_refused() {
    let game = bataille(1, 9, Methods::both(Method::Natural));
    let plan = Plan::with_unit_size(&game, Mode::Random { deals: 5000 }, 1, 3, 97)
        .unwrap()
        .keeping_cycles(3);
    let state = run(&game, &plan, Shard::WHOLE, None, &opts(1)).state;
    let text = state.encode();
    assert!(text.contains("\ncycles-dropped\n"), "the test needs a dropped loop");
    let reseal = |t: &str| {
        let body = &t[..t.rfind("checksum ").unwrap()];
        format!("{body}checksum {:016x}\n", crate::sealed::fnv1a(body.as_bytes()))
    };
    let refused = |t: String, needle: &str| {
        let err = State::decode(&reseal(&t)).unwrap_err().to_string();
        assert!(err.contains(needle), "{needle}: {err}");
    };
    assert!(State::decode(&reseal(&text)).is_ok());
    // More loops than the cap, or dropped loops but fewer kept than the cap; a cap of 0.
    refused(text.replace("max-cycles 3", "max-cycles 2"), "does not fit max-cycles");
    refused(text.replace("max-cycles 3", "max-cycles 4"), "does not fit max-cycles");
    refused(text.replace("max-cycles 3", "max-cycles 0"), "max-cycles 0");
    // No loop dropped, yet the kept loops miss some looping deals.
    refused(text.replace("\ncycles-dropped\n", "\n"), "do not add up");
    // A shortest tail longer than a kept loop's, or a shorter one on a kept loop.
    let line = text.lines().find(|l| l.starts_with("shortest-tail ")).unwrap();
    let f: Vec<&str> = line.split(' ').collect();
    let longer = format!("shortest-tail 999 {} {}", f[2], f[3]);
    refused(text.replace(line, &longer), "shortest tail");
    refused(text.replace(&format!("{line}\n"), ""), "shortest tail");
    let (kept_id, _) = state.stats.loops.iter().next().unwrap();
    let on_kept = format!("shortest-tail 0 {kept_id:016x} {}", f[3]);
    if on_kept != line {
        refused(text.replace(line, &on_kept), "shortest tail");
    }
    // Merging parts with different caps names the cap.
    let other = Plan::with_unit_size(&game, Mode::Random { deals: 5000 }, 1, 3, 97)
        .unwrap()
        .keeping_cycles(4);
    let other = run(&game, &other, Shard::WHOLE, None, &opts(1)).state;
    let err = State::merge(&[state, other]).unwrap_err().to_string();
    assert!(err.contains("cycles kept (--max-cycles) is \"3\" in one and \"4\""), "{err}");
}

#[test]
fn stop_inside_a_unit_abandons_it_within_milliseconds() {
    // One C=4 V=4 unit of 16 million ranks per worker: seconds of work each.
    let game = bataille(4, 4, Methods::both(Method::Natural));
    let plan = Plan::with_unit_size(&game, Mode::Exhaustive, 0, 4, 1 << 24).unwrap();
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let ended = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(50));
            stop.store(true, Ordering::Relaxed);
        });
        explore(&game, &plan, Shard::WHOLE, None, &opts(2), &Silent, &stop).unwrap()
    });
    assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
    assert!(ended.interrupted);
    // Nothing of the abandoned units is counted.
    assert_eq!(ended.state.encode(), State::new(plan.key().clone(), Shard::WHOLE).encode());
}

#[test]
fn stop_at_any_moment_then_resume_equals_uninterrupted() {
    let game = bataille(4, 3, Methods::both(Method::Optimized));
    let plan = Plan::with_unit_size(&game, Mode::Exhaustive, 0, 4, 5000).unwrap();
    let whole = encode_all(&game, &plan, 2);
    for delay_us in [0, 300, 1_000, 3_000] {
        let stop = AtomicBool::new(false);
        let first = std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_micros(delay_us));
                stop.store(true, Ordering::Relaxed);
            });
            explore(&game, &plan, Shard::WHOLE, None, &opts(2), &Silent, &stop).unwrap()
        });
        let resumed = State::decode(&first.state.encode()).unwrap();
        let done = run(&game, &plan, Shard::WHOLE, Some(resumed), &opts(2));
        assert_eq!(done.state.encode(), whole, "stopped after {delay_us} µs");
    }
}

#[test]
fn sample_speed_measures_a_positive_rate() {
    let game = bataille(4, 5, Methods::both(Method::Natural));
    let speed = sample_speed(&game, Duration::from_millis(20));
    assert!(speed.is_finite() && speed > 0.0, "{speed}");
}

/// A state whose checksum was recomputed after an edit is still read with care: counts that do
/// not agree with one another are refused (they made `merge` overflow, or gave impossible
/// files), with the line to blame when there is one.
#[test]
fn resealed_states_that_disagree_are_refused() {
    let game = bataille(4, 3, Methods::both(Method::Natural));
    let plan = Plan::with_unit_size(&game, Mode::Random { deals: 300 }, 5, 3, 64).unwrap();
    let text = explore_sequential(&game, &plan).encode();
    let body = crate::sealed::open(&text, "bataille-search state 1").unwrap().into_owned();
    let edit = |tag: &str, field: usize, value: &str| {
        let lines: Vec<String> = body
            .lines()
            .map(|l| {
                let mut f: Vec<&str> = l.split(' ').collect();
                if l.starts_with(tag) {
                    f[field] = value;
                }
                f.join(" ")
            })
            .collect();
        crate::sealed::seal(&(lines.join("\n") + "\n"))
    };
    assert!(State::decode(&edit("counts", 1, "300")).is_ok(), "the edit itself is neutral");
    let max = u64::MAX.to_string();
    for (tag, field, value, why) in [
        ("done", 2, "0-99", "a unit done is not one of the run's"),
        ("histogram tricks", 2, "1:0", "counted 0"),
        ("counts", 1, max.as_str(), "the outcomes do not add up"),
        ("counts", 2, "0", "the outcomes do not add up"),
        ("done", 2, "0-1", "more deals than the units done hold"),
        ("moments tricks", 2, max.as_str(), "tricks moments and histogram"),
        ("moments cards", 4, "7", "cards moments and histogram"),
        ("histogram tricks", 2, "1:999", "tricks moments and histogram"),
    ] {
        let forged = edit(tag, field, value);
        let e = State::decode(&forged).map(|_| ()).unwrap_err().to_string();
        assert!(e.contains(why), "{tag} {value}: {e}");
    }
    // A kept game whose deal is not one of the game's (another deck, a byte more): the state
    // reads, but is refused for this game before its deals are played or written.
    let state = State::decode(&text).unwrap();
    assert!(state.check_deals(&game).is_ok());
    for deal in ["3,3,3,3,3,3,3,3,3,3,3,3", "1,1,1,1,2,2,2,2,3,3,3,3,5"] {
        let lines: Vec<String> = body
            .lines()
            .map(|l| match l.rsplit_once(' ') {
                Some((head, _)) if l.starts_with("record tricks ") => format!("{head} {deal}"),
                _ => l.to_string(),
            })
            .collect();
        let forged = State::decode(&crate::sealed::seal(&(lines.join("\n") + "\n"))).unwrap();
        let e = forged.check_deals(&game).unwrap_err().to_string();
        assert!(e.contains("not one of"), "{deal}: {e}");
    }
}
