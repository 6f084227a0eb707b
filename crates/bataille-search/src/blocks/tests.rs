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
        run(&mut st, threads, batch, &stop, &mut |s| saves.push(s.to_text())).unwrap();
        assert_eq!(st, seq, "threads {threads} batch {batch}");
        // Resuming from any checkpoint ends in the same state.
        let mid = &saves[saves.len() / 2];
        let mut resumed = BlocksState::from_text(mid, spec, Shard::WHOLE).unwrap();
        run(&mut resumed, threads, batch, &stop, &mut |_| {}).unwrap();
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
