use std::collections::BTreeMap;

use bataille_engine::{Limits, NoRandom, Outcome, play};

use super::*;

/// Every loop of the deck by brute force: every position of every split played by the engine;
/// those on a loop (tail 0) counted by cycle id: (period tricks, period cards, positions).
fn brute_force(spec: CensusSpec) -> BTreeMap<u64, (u64, u64, u64)> {
    let methods = spec.methods();
    let mut deck = spec.deck().sorted_deck();
    let mut loops = BTreeMap::new();
    loop {
        for split in 0..=deck.len() {
            let p = Position::new(deck[..split].to_vec(), deck[split..].to_vec()).unwrap();
            let r = play(&p, methods, &mut NoRandom, Limits::DETERMINISTIC);
            if let Outcome::Cycle(c) = r.outcome
                && c.tail_tricks == 0
            {
                let e = loops.entry(c.id.0).or_insert((c.period_tricks, c.period_cards, 0));
                assert_eq!((e.0, e.1), (c.period_tricks, c.period_cards), "{p}");
                e.2 += 1;
            }
        }
        let Some(i) = deck.windows(2).rposition(|w| w[0] < w[1]) else { break };
        let j = deck.iter().rposition(|&x| x > deck[i]).unwrap();
        deck.swap(i, j);
        deck[i + 1..].reverse();
    }
    loops
}

/// The census's loops in the same form, each checked on the way: its canonical position lies
/// on a loop of the period found, and is the loop's smallest position.
fn census(spec: CensusSpec) -> (BTreeMap<u64, (u64, u64, u64)>, CensusState) {
    let mut state = CensusState::new(spec, Shard::WHOLE);
    run_sequential(&mut state);
    let mut loops = BTreeMap::new();
    for f in state.loops() {
        let p = f.position();
        let r = play(&p, spec.methods(), &mut NoRandom, Limits::DETERMINISTIC);
        let Outcome::Cycle(c) = r.outcome else { panic!("{p} does not loop") };
        assert_eq!(c.tail_tricks, 0, "{p}");
        assert_eq!((c.period_tricks, c.period_cards), (f.period_tricks, f.period_cards), "{p}");
        let positions = bataille_engine::loop_positions(&p, spec.methods()).unwrap();
        let smallest = positions
            .iter()
            .flat_map(|q| [q.clone(), q.swapped()])
            .min_by(|x, y| x.canonical_cmp(y))
            .unwrap();
        assert_eq!(smallest, p, "the canonical position");
        assert_eq!(positions.contains(&p.swapped()), f.self_twin, "{p}");
        let first_max = positions.iter().map(|q| q.first().len()).max().unwrap();
        assert_eq!(first_max, f.first_max, "{p}");
        // A loop and its mirror image: twice the positions, unless it is its own.
        let count = c.period_tricks * if f.self_twin { 1 } else { 2 };
        assert!(loops.insert(c.id.0, (c.period_tricks, c.period_cards, count)).is_none(), "{p}");
    }
    (loops, state)
}

fn check(c: usize, v: usize, method: Method) -> usize {
    let spec = CensusSpec::new(DeckSpec::new(c, v).unwrap(), method).unwrap();
    let (got, _) = census(spec);
    assert_eq!(got, brute_force(spec), "{spec}");
    got.len()
}

#[test]
fn every_loop_of_the_small_decks() {
    // Every deck of up to 10 cards of the list, both methods: the census finds exactly
    // the loops of the brute force over every position, with their periods and the number of
    // positions on them. (12 cards with BATAILLE_LONG_TESTS=1, below.)
    let mut loops = 0;
    for (c, v) in [(4, 2), (2, 2), (2, 3), (2, 4), (2, 5), (3, 2), (3, 3), (1, 5), (1, 7), (1, 8)] {
        for method in [Method::Natural, Method::Optimized] {
            loops += check(c, v, method);
        }
    }
    assert!(loops > 20, "{loops}");
}

#[test]
fn every_loop_of_the_12_card_decks() {
    if std::env::var_os("BATAILLE_LONG_TESTS").is_none() {
        return;
    }
    for (c, v) in [(4, 3), (2, 6), (3, 4), (1, 9), (1, 10)] {
        for method in [Method::Natural, Method::Optimized] {
            check(c, v, method);
        }
    }
}

#[test]
fn the_c4_v3_loop() {
    // C=4 V=3: one loop among all positions, the article's 19-trick cycle reached by 360
    // deals (checked against brute force by the long test).
    let spec = CensusSpec::new(DeckSpec::new(4, 3).unwrap(), Method::Natural).unwrap();
    let (got, state) = census(spec);
    assert_eq!(got.len(), 1);
    assert_eq!(got.values().next().unwrap().0, 19);
    assert!(state.is_complete() && state.candidates > 0);
}

#[test]
fn the_one_colour_census_agrees() {
    // C = 1: the positions on a loop and the loops (a loop and its mirror image counted
    // apart) of `construct c1-positions`, which visits every position.
    for v in 1..=9 {
        let spec = CensusSpec::new(DeckSpec::new(1, v).unwrap(), Method::Natural).unwrap();
        let (got, _) = census(spec);
        let (c1, _) = bataille_constructs::positions::census(v, |_, _| {}).unwrap();
        let on_loop: u64 = got.values().map(|l| l.2).sum();
        let loops: u64 = got.values().map(|l| l.2 / l.0).sum();
        assert_eq!((on_loop, loops), (c1.on_loop, c1.loops.len() as u64), "V={v}");
    }
}

#[test]
fn threads_shards_and_text() {
    // The parallel run, the shards merged and the state read back all give the sequential
    // run's state.
    let spec = CensusSpec::new(DeckSpec::new(2, 5).unwrap(), Method::Natural).unwrap();
    let mut whole = CensusState::new(spec, Shard::WHOLE);
    run_sequential(&mut whole);
    let pool = Pool::new(2).unwrap();
    let mut parallel = CensusState::new(spec, Shard::WHOLE);
    run(&mut parallel, &pool, 7, &AtomicBool::new(false), &mut |_| {});
    assert_eq!(parallel, whole);
    let parts: Vec<CensusState> = (1..=3)
        .map(|k| {
            let shard: Shard = format!("{k}/3").parse().unwrap();
            let mut s = CensusState::new(spec, shard);
            run(&mut s, &pool, 5, &AtomicBool::new(false), &mut |_| {});
            let text = s.to_text();
            CensusState::from_text(&text, spec, shard).unwrap()
        })
        .collect();
    let mut merged = CensusState::merge(&parts).unwrap();
    merged.found = merged.loops();
    whole.found = whole.loops();
    assert_eq!(merged, whole);
    assert!(
        CensusState::merge(&parts[..2]).unwrap_err().to_string().contains("missing shards 3/3")
    );
    let other = CensusSpec::new(DeckSpec::new(2, 5).unwrap(), Method::Optimized).unwrap();
    let err = CensusState::from_text(&whole.to_text(), other, Shard::WHOLE).unwrap_err();
    assert!(err.to_string().contains("another run"), "{err}");
}

#[test]
fn forged_loop_lines_are_refused() {
    // A state edited and sealed again: each loop line is walked again by the census, so a
    // position that does not loop, a wrong period or first-max, or a loop listed twice is
    // refused with its line, never read (the report would replay it and fail).
    let spec = CensusSpec::new(DeckSpec::new(4, 3).unwrap(), Method::Natural).unwrap();
    let mut whole = CensusState::new(spec, Shard::WHOLE);
    run_sequential(&mut whole);
    let body = sealed::open(&whole.to_text(), MAGIC).unwrap().into_owned();
    let line = body.lines().find(|l| l.starts_with("loop ")).unwrap().to_string();
    let w: Vec<&str> = line.split(' ').collect();
    let not_canonical = Position::new(w[1].parse::<Position>().unwrap().second().to_vec(), {
        w[1].parse::<Position>().unwrap().first().to_vec()
    })
    .unwrap();
    let twice = format!("{line}\n{line}");
    for (forged, why) in [
        (line.replace(" period 19 26 ", " period 5 7 "), "not what the line says"),
        (line.replace(" first-max ", " first-max 1"), "not what the line says"),
        (line.replace(w[1], &not_canonical.compact()), "not the canonical position"),
        (line.replace(w[1], "1,2/3,3,3,1,1,2,2,2,1,3"), "not the canonical position"),
        (line.replace(" twin 0", " twin 2"), "twin is 0 or 1"),
        (twice, "a loop listed twice"),
    ] {
        let text = sealed::seal(&body.replace(&line, &forged));
        let err = CensusState::from_text(&text, spec, Shard::WHOLE).unwrap_err().to_string();
        assert!(err.contains(why), "{forged}: {err}");
    }
    // The real state reads back.
    assert_eq!(CensusState::from_text(&whole.to_text(), spec, Shard::WHOLE).unwrap(), whole);
    // A loop of one shard listed by another too is refused by the merge.
    let mut parts: Vec<CensusState> = (1..=2)
        .map(|k| {
            let mut s = CensusState::new(spec, format!("{k}/2").parse().unwrap());
            run_sequential(&mut s);
            s
        })
        .collect();
    let f = whole.found[0].clone();
    for p in &mut parts {
        if !p.found.contains(&f) {
            p.found.push(f.clone());
        }
    }
    let err = CensusState::merge(&parts).unwrap_err().to_string();
    assert!(err.contains("is listed by two shards"), "{err}");
}

#[test]
fn a_stop_request_gives_up_within_the_unit() {
    let spec = CensusSpec::new(DeckSpec::new(2, 5).unwrap(), Method::Natural).unwrap();
    let stop = AtomicBool::new(true);
    let busy = (0..spec.units().count())
        .find(|&u| search_unit(spec, u, &AtomicBool::new(false)).unwrap().candidates > STOP_POLL);
    if let Some(u) = busy {
        assert_eq!(search_unit(spec, u, &stop), None);
    }
}
