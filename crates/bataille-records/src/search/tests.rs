use std::sync::atomic::AtomicBool;

use bataille_engine::{Method, Position};
use proptest::prelude::*;

use super::*;
use crate::row::{
    FoundBy, RecordMismatch, RecordRow, RecordsFileError, check_row, parse_records, write_records,
};

fn cfg(c: usize, v: usize, method: Method, measure: Measure, seed: u64, chains: usize) -> Config {
    Config {
        spec: DeckSpec::new(c, v).unwrap(),
        methods: Methods::both(method),
        measure,
        seed,
        chains,
        anneal: Anneal { epoch: 300, ..Anneal::default() },
    }
}

fn run(cfg: &Config, budget: Budget, resume: Option<SearchState>, threads: usize) -> SearchEnded {
    let options = RunOptions { threads, ..RunOptions::default() };
    search(cfg, budget, resume, &options, &Quiet, &AtomicBool::new(false)).unwrap()
}

proptest! {
    #[test]
    fn moves_keep_the_multiset(seed in any::<u64>(), c in 1usize..5, v in 1usize..14, steps in 1usize..50) {
        let spec = DeckSpec::new(c, v).unwrap();
        let deck = spec.sorted_deck();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut deal = deck.clone();
        deal.shuffle(&mut rng);
        for _ in 0..steps {
            mutate(&mut deal, &mut rng);
            let mut sorted = deal.clone();
            sorted.sort_unstable();
            prop_assert_eq!(&sorted, &deck);
        }
    }
}

#[test]
fn moves_do_move_cards() {
    // Every kind of move is drawn: over many moves of a deck of distinct cards most change it.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut deal: Vec<u8> = (1..=20).collect();
    let mut changed = 0;
    for _ in 0..1000 {
        let before = deal.clone();
        mutate(&mut deal, &mut rng);
        changed += usize::from(deal != before);
    }
    assert!(changed > 900, "{changed}");
}

#[test]
fn same_results_whatever_the_threads() {
    for (measure, method) in
        [(Measure::Tricks, Method::Natural), (Measure::Cards, Method::Optimized)]
    {
        let c = cfg(4, 5, method, measure, 7, 5);
        let n = 4_003; // not a multiple of the chains
        let one = run(&c, Budget::Iterations(n), None, 1).result;
        let two = run(&c, Budget::Iterations(n), None, 2).result;
        let three = run(&c, Budget::Iterations(n), None, 3).result;
        let seq = search_sequential(&c, n).unwrap();
        assert_eq!(one, two);
        assert_eq!(one, three);
        assert_eq!(one, seq);
        assert_eq!(one.iterations, n);
        assert_eq!(one.per_chain, vec![801, 801, 801, 800, 800]);
        // Another seed walks elsewhere.
        let other = search_sequential(&Config { seed: 8, ..c.clone() }, n).unwrap();
        assert_ne!(one.by_tricks, other.by_tricks);
    }
}

#[test]
fn resume_equals_one_run() {
    let c = cfg(4, 5, Method::Natural, Measure::Tricks, 3, 4);
    let whole = run(&c, Budget::Iterations(3_000), None, 2);
    let part = run(&c, Budget::Iterations(1_111), None, 2);
    let text = part.state.encode();
    let back = SearchState::decode(&text, &c).unwrap();
    assert_eq!(back.encode(), text);
    let rest = run(&c, Budget::Iterations(3_000), Some(back), 1);
    assert_eq!(rest.result, whole.result);
    assert_eq!(rest.iterations_run, 3_000 - 1_111);
    assert_eq!(rest.state.encode(), whole.state.encode());
}

#[test]
fn checkpoints_are_checked() {
    let c = cfg(4, 4, Method::Natural, Measure::Tricks, 3, 2);
    let text = run(&c, Budget::Iterations(200), None, 1).state.encode();
    let edited = text.replacen("chain 0 100", "chain 0 101", 1);
    assert!(matches!(SearchState::decode(&edited, &c), Err(RecordsError::Corrupt(_))));
    let other = Config { seed: 4, ..c.clone() };
    assert!(matches!(SearchState::decode(&text, &other), Err(RecordsError::Mismatch(_))));
    assert!(matches!(SearchState::decode("", &c), Err(RecordsError::Corrupt(_))));
    // Edited and sealed again: a best game its deal does not play, or counts past 2^64, are
    // refused all the same (one was appended to a records file, the other overflowed).
    let body = sealed::open(&text, MAGIC).unwrap().into_owned();
    let reseal = |f: &dyn Fn(&str) -> String| {
        let lines: Vec<String> = body.lines().map(f).collect();
        sealed::seal(&(lines.join("\n") + "\n"))
    };
    assert!(SearchState::decode(&reseal(&|l| l.to_string()), &c).is_ok());
    let longer = reseal(&|l| {
        let mut w: Vec<String> = l.split(' ').map(str::to_string).collect();
        if w[0] == "best" {
            w[2] = (w[2].parse::<u64>().unwrap() + 1).to_string();
        }
        w.join(" ")
    });
    let e = SearchState::decode(&longer, &c).map(|_| ()).unwrap_err().to_string();
    assert!(e.contains("not what its deal plays"), "{e}");
    let huge = reseal(&|l| {
        let mut w: Vec<String> = l.split(' ').map(str::to_string).collect();
        if w[0] == "chain" {
            w[2] = u64::MAX.to_string();
        }
        w.join(" ")
    });
    let e = SearchState::decode(&huge, &c).map(|_| ()).unwrap_err().to_string();
    assert!(e.contains("more than 2^64"), "{e}");
}

#[test]
fn time_budget_replays_with_its_iterations() {
    let c = cfg(4, 5, Method::Optimized, Measure::Tricks, 11, 3);
    let timed = run(&c, Budget::Time(Duration::from_millis(200)), None, 2).result;
    assert!(timed.iterations > 0);
    assert!(timed.per_chain.iter().all(|&d| d == timed.per_chain[0]), "{:?}", timed.per_chain);
    let replay = run(&c, Budget::Iterations(timed.iterations), None, 1).result;
    assert_eq!(replay, timed);
}

/// A row found by an exhaustive run.
fn record_row(
    spec: DeckSpec,
    methods: Methods,
    tricks: u64,
    cards: u64,
    deal: Position,
) -> RecordRow {
    let found_by = FoundBy {
        seed: None,
        command: "bataille explore".to_string(),
        commit: "unknown".to_string(),
        machine: "here".to_string(),
        date: "2026-01-01T00:00:00Z".to_string(),
    };
    RecordRow { spec, methods, measure: Measure::Tricks, tricks, cards, deal, found_by }
}

#[test]
fn records_file_rows_read_as_written() {
    let deal: Position = "[3, 1, 2] / [2, 3, 1]".parse().unwrap();
    let mut row =
        record_row(DeckSpec::new(2, 3).unwrap(), Methods::both(Method::Natural), 4, 7, deal);
    let mut second = row.clone();
    second.methods = "optimized/ascending".parse().unwrap();
    second.measure = Measure::Cards;
    second.found_by.seed = Some(42);
    second.found_by.command = "bataille records search --seed 42, quoted".to_string();
    row.found_by.seed = None;
    let text = String::from_utf8(write_records(&[row.clone(), second.clone()], true)).unwrap();
    assert!(text.starts_with("colours,values,method,measure,tricks,cards,deal,seed,"), "{text}");
    assert!(text.contains(",-,bataille explore,"), "{text}");
    assert_eq!(parse_records(&text), Ok(vec![(2, row.clone()), (3, second)]));
    assert_eq!(parse_records(""), Ok(vec![]));
    assert_eq!(parse_records("a,b\n"), Err(RecordsFileError::Columns));
    let body = String::from_utf8(write_records(&[row], true)).unwrap();
    for (from, to, message) in [
        ("2,3,natural,", "2,3,sideways,", "line 2: unknown stacking method \"sideways\""),
        (",tricks,4,", ",length,4,", "line 2: invalid measure \"length\""),
        ("2,3,natural,", "x,3,natural,", "line 2: invalid colours \"x\": invalid digit"),
        ("2,3,natural,", "0,3,natural,", "line 2: invalid deck C=0 V=3"),
        ("[3, 1, 2]", "[3, 1, 2", "line 2: invalid deal \"[3, 1, 2 / [2, 3, 1]\""),
        (",-,", ",x,", "line 2: invalid seed \"x\""),
        ("2026-01-01T00:00:00Z", "not a date", "line 2: invalid date \"not a date\": expected"),
        ("2026-01-01T00:00:00Z", "2026-01-01", "line 2: invalid date \"2026-01-01\""),
        ("2026-01-01T00:00:00Z", "2026-02-29T00:00:00Z", "line 2: invalid date"),
        ("2026-01-01T00:00:00Z", "2026-01-01T24:00:00Z", "line 2: invalid date"),
        ("2026-01-01T00:00:00Z", "2026-01-01 00:00:00Z", "line 2: invalid date"),
    ] {
        let e = parse_records(&body.replace(from, to)).unwrap_err().to_string();
        assert!(e.starts_with(message), "{e}");
    }
    for date in ["2024-02-29T23:59:59Z", "2000-12-31T00:00:00Z", "2026-11-21T09:54:40Z"] {
        assert!(parse_records(&body.replace("2026-01-01T00:00:00Z", date)).is_ok(), "{date}");
    }
}

#[test]
fn a_deal_split_otherwise_is_named_by_its_split() {
    // The five cards of C=1 V=5, split 1/4: the deck is right, the split is not a deal's.
    let spec = DeckSpec::new(1, 5).unwrap();
    let natural = Methods::both(Method::Natural);
    let row = record_row(spec, natural, 3, 3, "[1] / [2, 3, 4, 5]".parse().unwrap());
    let e = check_row(&row).unwrap_err();
    assert_eq!(e, RecordMismatch::Split { first: 1, second: 4 });
    assert_eq!(e.to_string(), "1/4 is not a deal's split: a deal of 5 cards is split 2/3");
    let even = record_row(
        DeckSpec::new(2, 3).unwrap(),
        natural,
        3,
        3,
        "[1] / [1, 2, 2, 3, 3]".parse().unwrap(),
    );
    assert_eq!(
        check_row(&even).unwrap_err().to_string(),
        "1/5 is not a deal's split: a deal of 6 cards is split 3/3"
    );
    // Cards of another deck are still "not a deal of the deck".
    let other = record_row(spec, natural, 3, 3, "[1, 2] / [3, 4, 6]".parse().unwrap());
    assert!(matches!(check_row(&other), Err(RecordMismatch::NotADeal(5, 1, 5))));
}

#[test]
fn found_records_replay_to_their_lengths() {
    let c = cfg(4, 6, Method::Natural, Measure::Tricks, 5, 3);
    let r = run(&c, Budget::Iterations(3_000), None, 2).result;
    assert_eq!(r.by_tricks.len(), 3);
    assert!(r.by_tricks.windows(2).all(|w| w[0].tricks >= w[1].tricks));
    for f in r.by_tricks.iter().chain(&r.by_cards) {
        let g = replay(&f.deal, c.methods);
        assert!(g.outcome.is_finished(), "{:?}", f);
        assert_eq!((g.tricks, g.cards), (f.tricks, f.cards));
        let row = record_row(
            c.spec,
            c.methods,
            f.tricks,
            f.cards,
            Position::new(f.deal[..12].to_vec(), f.deal[12..].to_vec()).unwrap(),
        );
        assert_eq!(check_row(&row), Ok(()));
        assert!(matches!(
            check_row(&RecordRow { tricks: f.tricks + 1, ..row.clone() }),
            Err(RecordMismatch::Lengths(..))
        ));
    }
}

#[test]
fn loops_go_to_the_cycles() {
    // C=1 V=5: the article's [5, 3] / [2, 4, 1] loops, and loops are common.
    let c = cfg(1, 5, Method::Natural, Measure::Tricks, 1, 2);
    let r = run(&c, Budget::Iterations(2_000), None, 2).result;
    assert!(!r.cycles.is_empty());
    assert!(r.loops_met >= r.cycles.len() as u64);
    for cy in &r.cycles {
        let g = replay(&cy.deal, c.methods);
        let Outcome::Cycle(found) = g.outcome else { panic!("{:?} does not loop", cy.deal) };
        assert_eq!(
            (found.id.0, found.period_tricks, found.tail_tricks),
            (cy.id, cy.period_tricks, cy.tail_tricks)
        );
    }
    for f in &r.by_tricks {
        assert!(replay(&f.deal, c.methods).outcome.is_finished());
    }
    let looping = record_row(c.spec, c.methods, 6, 6, "[5, 3] / [2, 4, 1]".parse().unwrap());
    assert!(matches!(check_row(&looping), Err(RecordMismatch::Loops(_))));
    let wrong_deck = RecordRow { spec: DeckSpec::new(1, 6).unwrap(), ..looping };
    assert!(matches!(check_row(&wrong_deck), Err(RecordMismatch::NotADeal(..))));
}

#[test]
fn bad_configurations() {
    let c = cfg(4, 5, Method::Natural, Measure::Tricks, 0, 4);
    assert_eq!(Config { chains: 0, ..c.clone() }.validate(), Err(RecordsError::NoChains));
    let random = Config { methods: Methods::both(Method::Random), ..c.clone() };
    assert!(matches!(random.validate(), Err(RecordsError::RandomMethod(_))));
    let tiny = Config { spec: DeckSpec::new(1, 1).unwrap(), ..c.clone() };
    assert_eq!(tiny.validate(), Err(RecordsError::TinyDeck(1)));
    let hot = Config { anneal: Anneal { t_end: 1.0, ..c.anneal }, ..c.clone() };
    assert!(matches!(hot.validate(), Err(RecordsError::Anneal(..))));
    // An epoch of 0 is refused for itself: the temperatures, which the user did not give, are
    // not mentioned.
    let still = Config { anneal: Anneal { epoch: 0, ..c.anneal }, ..c };
    assert_eq!(still.validate(), Err(RecordsError::NoEpoch));
    assert!(!RecordsError::NoEpoch.to_string().contains("temperature"));
}

#[test]
fn time_budget_levels_a_resumed_search() {
    let c = cfg(4, 5, Method::Natural, Measure::Tricks, 2, 4);
    let part = run(&c, Budget::Iterations(1_001), None, 1);
    assert_eq!(part.result.per_chain, vec![251, 250, 250, 250]);
    let timed = run(&c, Budget::Time(Duration::from_millis(100)), Some(part.state), 2).result;
    assert!(timed.per_chain.iter().all(|&d| d == timed.per_chain[0] && d > 251), "{timed:?}");
}
