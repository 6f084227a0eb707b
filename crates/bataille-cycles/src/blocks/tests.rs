use super::*;

/// Both searches against brute force, every pattern of `cards` cards.
fn check_against_brute_force(cards: usize) -> usize {
    let mut found = Vec::new();
    for p in patterns(cards, 4) {
        let pruned = search_pattern(&p, 1000);
        assert_eq!(pruned.capped, 0, "{p:?}");
        assert_eq!(pruned.cycles, brute_force(&p), "pattern {p:?}");
        found.extend(pruned.cycles);
    }
    let spec = BlocksSpec::new(cards, 4, 64).unwrap();
    let mut st = BlocksState::new(spec, Shard::WHOLE);
    run_sequential(&mut st);
    assert_eq!(catalogue(&st.cycles), found, "{cards} cards");
    found.len()
}

#[test]
fn pruned_search_equals_brute_force() {
    for cards in [2, 4, 6, 8] {
        check_against_brute_force(cards);
    }
}

/// Every pattern of 10 cards (about 10^8 games in full: minutes in a release build).
#[test]
fn pruned_search_equals_brute_force_10_cards() {
    if std::env::var_os("BATAILLE_LONG_TESTS").is_none() {
        return;
    }
    assert_eq!(check_against_brute_force(10), 0);
}

#[test]
fn the_v4_deck_has_the_four_known_cycles() {
    let r = search_pattern(&[4, 4, 4, 4], 1000);
    assert_eq!(r.capped, 0);
    assert_eq!(r.cycles.len(), 4);
    for c in &r.cycles {
        assert_eq!((c.period_rounds, c.period_tricks, c.phases), (4, 24, 2));
        assert!(c.self_twin && c.square_is_swap);
    }
    // The cycles of the hunt catalogue, one position each: each lies on exactly one cycle.
    let known = [
        "[2, 1, 3, 3, 4, 1, 4, 4] / [3, 2, 3, 1, 4, 2, 2, 1]",
        "[2, 1, 3, 3, 4, 2, 4, 1] / [3, 2, 3, 1, 2, 1, 4, 4]",
        "[2, 1, 3, 3, 4, 2, 2, 1] / [3, 2, 3, 1, 4, 1, 4, 4]",
        "[2, 1, 3, 3, 2, 1, 4, 4] / [3, 2, 3, 1, 4, 2, 4, 1]",
    ];
    let natural = Methods::both(Method::Natural);
    let mut deals = 0;
    for c in &r.cycles {
        let a = aligned::check(&c.position(), natural).unwrap();
        let orbit: Vec<Position> = a.rounds.iter().map(|r| r.end.clone()).collect();
        // Each round-end position and its swap are on the loop: count them up to the swap.
        assert!(orbit.contains(&c.position().swapped()));
        deals += c.phases * a.rounds.len() / 2;
        let hits = known.iter().filter(|k| orbit.contains(&k.parse().unwrap())).count();
        assert_eq!(hits, 1, "{}", c.position());
    }
    // Four loops, each with two phases of four rounds, a position and its swap in each: the
    // 16 aligned deals of C=4 V=4 up to the swap.
    assert_eq!(deals, 16);
}

#[test]
fn states_are_the_same_whatever_the_threads_and_batches() {
    let spec = BlocksSpec::new(8, 4, 100).unwrap();
    let mut seq = BlocksState::new(spec, Shard::WHOLE);
    run_sequential(&mut seq);
    assert!(seq.is_complete());
    let stop = AtomicBool::new(false);
    for (threads, batch) in [(1, 1), (2, 7), (3, 1000)] {
        let mut st = BlocksState::new(spec, Shard::WHOLE);
        let mut saves = Vec::new();
        run(&mut st, &pool(threads).unwrap(), batch, &stop, &mut |s| saves.push(s.to_text()));
        assert_eq!(st, seq, "threads {threads} batch {batch}");
        // Resuming from any checkpoint ends in the same state.
        let mid = &saves[saves.len() / 2];
        let mut resumed = BlocksState::from_text(mid, spec, Shard::WHOLE).unwrap();
        run(&mut resumed, &pool(threads).unwrap(), batch, &stop, &mut |_| {});
        assert_eq!(resumed.to_text(), seq.to_text());
    }
    assert!(!seq.cycles.is_empty());
    // Shards together hold every cycle once.
    let mut parts = Vec::new();
    for k in 0..3 {
        let mut st = BlocksState::new(spec, Shard::new(k + 1, 3).unwrap());
        run_sequential(&mut st);
        parts.extend(st.cycles);
    }
    parts.sort();
    let mut all = seq.cycles.clone();
    all.sort();
    assert_eq!(parts, all);
}

/// A unit stopped while it runs gives nothing; one not stopped gives what [`search_unit`] does;
/// a run stopped keeps only whole units, and resumed ends in the state of a run never stopped.
#[test]
fn a_stopped_unit_gives_nothing_and_the_run_keeps_whole_units() {
    let spec = BlocksSpec::new(16, 4, 8).unwrap();
    let (never, now) = (AtomicBool::new(false), AtomicBool::new(true));
    // The largest unit of 16 cards: thousands of polls.
    let u = (0..BlocksState::new(spec, Shard::WHOLE).units)
        .max_by_key(|&u| search_unit(spec, u).nodes)
        .unwrap();
    assert!(search_unit(spec, u).nodes > 100_000);
    assert_eq!(search_unit_until(spec, u, &now), None);
    assert_eq!(search_unit_until(spec, u, &never), Some(search_unit(spec, u)));
    // Stopped from its first batch: no unit from the first cut short on.
    let small = BlocksSpec::new(8, 4, 100).unwrap();
    let mut whole = BlocksState::new(small, Shard::WHOLE);
    run_sequential(&mut whole);
    let mut cut = BlocksState::new(small, Shard::WHOLE);
    run(&mut cut, &pool(2).unwrap(), 8, &now, &mut |_| {});
    assert!(cut.done < whole.done);
    run(&mut cut, &pool(2).unwrap(), 8, &never, &mut |_| {});
    assert_eq!(cut.to_text(), whole.to_text());
}

/// Merging the states of the shards gives the state of the run without shards, to the byte;
/// sets that are not one whole run are refused with the reason.
#[test]
fn merged_shards_are_the_whole_run() {
    let merged_is_whole = |cards: usize, n: u64| {
        let spec = BlocksSpec::new(cards, 4, 8).unwrap();
        let mut whole = BlocksState::new(spec, Shard::WHOLE);
        run_sequential(&mut whole);
        let mut parts: Vec<_> = (1..=n)
            .rev()
            .map(|k| {
                let mut st = BlocksState::new(spec, Shard::new(k, n).unwrap());
                run_sequential(&mut st);
                st
            })
            .collect();
        assert_eq!(BlocksState::merge(&parts).unwrap().to_text(), whole.to_text());
        parts.reverse();
        parts
    };
    let parts = merged_is_whole(8, 3);
    // The 16-card catalogue has cycles in many units of every shard (13 s).
    if std::env::var_os("BATAILLE_LONG_TESTS").is_some() {
        merged_is_whole(16, 5);
    }
    let err = |parts: &[BlocksState]| BlocksState::merge(parts).unwrap_err().to_string();
    assert!(err(&parts[..2]).contains("missing shards 3/3"), "{}", err(&parts[..2]));
    let twice = [parts[0].clone(), parts[1].clone(), parts[1].clone()];
    assert!(err(&twice).contains("shard 2/3 is given twice"), "{}", err(&twice));
    let mut partial = parts.clone();
    partial[1].done -= 1;
    assert!(err(&partial).contains("shard 2/3 is not complete"), "{}", err(&partial));
    let other = BlocksState::new(BlocksSpec::new(6, 4, 8).unwrap(), Shard::WHOLE);
    assert!(err(&[parts[0].clone(), other]).contains("--cards 6"));
    assert!(err(&[]).contains("no state"));

    // The 8-card cycles all lie in one unit: the order across units is checked on cycles
    // placed by hand in the units of round-1 outcomes 2201 (second, second, tie, first) and
    // 0000 (all ties), shard 2/2 holding the earlier unit.
    let spec = BlocksSpec::new(8, 4, 8).unwrap();
    let mut halves: Vec<_> =
        (1..=2).map(|k| BlocksState::new(spec, Shard::new(k, 2).unwrap())).collect();
    let cycle = |first: [u8; 4], second: [u8; 4]| BlockCycle {
        pattern: vec![],
        first: first.to_vec(),
        second: second.to_vec(),
        period_rounds: 1,
        period_tricks: 1,
        phases: 1,
        cycle_id: 0,
        self_twin: false,
        square_is_swap: false,
    };
    halves[0].cycles = vec![cycle([2, 1, 3, 3], [3, 2, 3, 1])];
    halves[1].cycles = vec![cycle([1, 1, 1, 1], [1, 1, 1, 1]), cycle([2, 2, 2, 2], [2, 2, 2, 2])];
    for h in &mut halves {
        h.done = h.shard_units();
    }
    let merged = BlocksState::merge(&halves).unwrap();
    let firsts: Vec<_> = merged.cycles.iter().map(|c| c.first[0]).collect();
    assert_eq!(firsts, [1, 2, 2]);
}

#[test]
fn state_text_is_checked() {
    let spec = BlocksSpec::new(8, 4, 100).unwrap();
    let mut st = BlocksState::new(spec, Shard::WHOLE);
    run_sequential(&mut st);
    let text = st.to_text();
    assert_eq!(BlocksState::from_text(&text, spec, Shard::WHOLE).unwrap(), st);
    let edited = text.replacen("cycle 1", "cycle 2", 1);
    assert_eq!(
        BlocksState::from_text(&edited, spec, Shard::WHOLE),
        Err(BlocksStateError::Checksum)
    );
    let other = BlocksSpec::new(8, 3, 100).unwrap();
    assert!(matches!(
        BlocksState::from_text(&text, other, Shard::WHOLE),
        Err(BlocksStateError::OtherRun(_))
    ));
    assert_eq!(BlocksSpec::new(7, 4, 1), Err(BlocksError::Cards(7)));
}

/// The outcome search on 16 cards (the committed catalogue's counts), and the per-pattern
/// search on every pattern of 12 cards agreeing with it (about a minute in a debug build).
#[test]
fn long_checks() {
    if std::env::var_os("BATAILLE_LONG_TESTS").is_none() {
        return;
    }
    let mut st = BlocksState::new(BlocksSpec::new(16, 4, 8).unwrap(), Shard::WHOLE);
    run_sequential(&mut st);
    let loops = catalogue(&st.cycles);
    assert_eq!((st.cycles.len(), loops.len(), st.capped), (69_857, 34_937, 0));
    let prime = loops.iter().filter(|c| splits(&c.first, &c.second).is_empty()).count();
    assert_eq!(prime, 17);
    let mut st = BlocksState::new(BlocksSpec::new(12, 4, 8).unwrap(), Shard::WHOLE);
    run_sequential(&mut st);
    let by_pattern: Vec<BlockCycle> =
        patterns(12, 4).iter().flat_map(|p| search_pattern(p, 1000).cycles).collect();
    assert_eq!(catalogue(&st.cycles), by_pattern);
}

#[test]
fn prime_blocks_and_splits() {
    // The C=4 V=4 cycle is two 8-card blocks laid end to end.
    let v4: Position = "[2, 1, 4, 4, 2, 1, 3, 3] / [4, 2, 4, 1, 3, 2, 3, 1]".parse().unwrap();
    assert!(on_cycle(v4.first(), v4.second()));
    assert_eq!(splits(v4.first(), v4.second()), vec![4]);
    assert!(splits(&[2, 1, 3, 3], &[3, 2, 3, 1]).is_empty());
    assert!(!on_cycle(&[5, 3], &[2, 4]));
}
