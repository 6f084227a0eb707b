//! The encoding against the census of every position on small decks.

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

use bataille_cycles::census::{CensusSpec, CensusState, run_sequential};
use bataille_engine::{
    DeckSpec, Game, Limits, Method, Methods, NoRandom, Outcome, Player, Position, TrickResult,
    Tricks, play,
};
use bataille_search::Shard;

use bataille_cycles::blocks::{self, BlocksSpec, BlocksState};

use crate::{AlignedQuestion, Config, Counted, Question, Settings, Verdict, solve, solve_aligned};

/// True (and says so) unless BATAILLE_LONG_TESTS is set: the long tests run only then.
fn skipped() -> bool {
    let skip = std::env::var_os("BATAILLE_LONG_TESTS").is_none();
    if skip {
        eprintln!("skipped: set BATAILLE_LONG_TESTS=1");
    }
    skip
}

/// Every model, no time limit, files in `dir` removed after checking.
fn settings(dir: &std::path::Path) -> Settings {
    Settings {
        all: true,
        time_limit: None,
        stop: Box::leak(Box::new(AtomicBool::new(false))),
        work_dir: dir.to_path_buf(),
        keep: false,
        progress: None,
        config: Config::Default,
    }
}

/// Cycle ids by period, for the periods up to `max`.
type Loops = BTreeMap<u64, Vec<u64>>;

/// The loops asked for: at most `ties` ties per trick, one hand of at most `hand` cards, a
/// smallest hand of exactly `first` cards (one part of a split period).
#[derive(Debug, Clone, Copy)]
struct Only {
    ties: Option<u32>,
    hand: Option<u32>,
    first: Option<u32>,
}

const EVERY: Only = Only { ties: None, hand: None, first: None };

fn ties(t: u32) -> Only {
    Only { ties: Some(t), ..EVERY }
}

fn hand(m: u32) -> Only {
    Only { hand: Some(m), ..EVERY }
}

/// The loops of every period up to `max`, as the solver finds them, every answer certified.
fn solved(c: usize, v: usize, method: Method, counted: Counted, max: u32) -> Loops {
    solved_of(c, v, method, counted, false, EVERY, max)
}

/// The same, with only loops through a deal when `deals`, and only the loops `only` asks for.
fn solved_of(
    c: usize,
    v: usize,
    method: Method,
    counted: Counted,
    deals: bool,
    only: Only,
    max: u32,
) -> Loops {
    let dir = std::env::temp_dir().join(format!(
        "bataille-sat-{c}-{v}-{}-{}-{deals}-{:?}-{:?}-{:?}-{}",
        method.name(),
        counted.unit(),
        only.ties,
        only.hand,
        only.first,
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let settings = settings(&dir);
    let mut known = Vec::new();
    let mut out = Loops::new();
    for period in 1..=max {
        let deck = DeckSpec::new(c, v).unwrap();
        let (max_ties, max_hand, first_hand) = (only.ties, only.hand, only.first);
        let q = Question { deck, method, counted, period, deals, max_ties, max_hand, first_hand };
        let inst = solve(&q, &known, &settings).unwrap();
        assert_eq!(inst.verdict, Verdict::Complete, "{q:?}");
        assert!(inst.certificate.is_some());
        for f in inst.found {
            assert_eq!(counted.of(&f), u64::from(period), "{q:?}: a blocked loop came back");
            out.entry(counted.of(&f)).or_default().push(f.id);
            known.push(f);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    for ids in out.values_mut() {
        ids.sort_unstable();
    }
    out
}

/// The loops of exactly `period`, every one (`--all` at that period alone), certified complete.
fn solved_at(
    c: usize,
    v: usize,
    method: Method,
    counted: Counted,
    only: Only,
    period: u32,
) -> Vec<u64> {
    let dir = std::env::temp_dir().join(format!(
        "bataille-sat-at-{c}-{v}-{}-{period}-{:?}-{:?}-{:?}-{}",
        method.name(),
        only.ties,
        only.hand,
        only.first,
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let deck = DeckSpec::new(c, v).unwrap();
    let (max_ties, max_hand, first_hand) = (only.ties, only.hand, only.first);
    let q =
        Question { deck, method, counted, period, deals: false, max_ties, max_hand, first_hand };
    let inst = solve(&q, &[], &settings(&dir)).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(inst.verdict, Verdict::Complete, "{q:?}");
    assert!(inst.certificate.is_some());
    let mut ids: Vec<u64> =
        inst.found.iter().filter(|f| counted.of(f) == u64::from(period)).map(|f| f.id).collect();
    ids.sort_unstable();
    ids
}

/// The census's loops of period up to `max`.
fn census(c: usize, v: usize, method: Method, counted: Counted, max: u32) -> Loops {
    census_of(c, v, method, counted, EVERY, max)
}

/// The ties of the longest trick of the loop through `position`, over its `period` tricks.
fn most_ties(position: &Position, method: Method, period: u64) -> u32 {
    let start = Game::new(position);
    let tricks = Tricks::new(&start, Methods::both(method), NoRandom, Limits::DETERMINISTIC);
    let most = tricks.take(period as usize).map(|t| t.reveals - 1).max();
    most.expect("a loop has tricks")
}

/// Both hands' lengths at each trick boundary of the loop through `position`, over its
/// `period` tricks (the start included).
fn hand_lengths(position: &Position, method: Method, period: u64) -> Vec<[i64; 2]> {
    let start = Game::new(position);
    let mut lens = [position.first().len() as i64, position.second().len() as i64];
    let mut out = vec![lens];
    let tricks = Tricks::new(&start, Methods::both(method), NoRandom, Limits::DETERMINISTIC);
    for t in tricks.take(period as usize) {
        let TrickResult::Taken(winner) = t.result else { panic!("a loop's trick ended the game") };
        let w = usize::from(winner == Player::Second);
        lens[w] += i64::from(t.reveals);
        lens[1 - w] -= i64::from(t.reveals);
        out.push(lens);
    }
    out
}

/// The hand of each player at each trick boundary of the loop through `position`, over its
/// `period` tricks: the largest, for the player whose largest is smaller.
fn smaller_hand_at_most(position: &Position, method: Method, period: u64) -> u32 {
    let lens = hand_lengths(position, method, period);
    let most = |h: usize| lens.iter().map(|l| l[h]).max().expect("a start");
    most(0).min(most(1)) as u32
}

/// The smallest hand of the loop through `position`, both players and every trick boundary
/// counted: the part of a split period the loop belongs to.
fn smallest_hand(position: &Position, method: Method, period: u64) -> u32 {
    let lens = hand_lengths(position, method, period);
    lens.iter().map(|l| l[0].min(l[1])).min().expect("a start") as u32
}

/// The census's loops of period up to `max` that `only` asks for.
fn census_of(c: usize, v: usize, method: Method, counted: Counted, only: Only, max: u32) -> Loops {
    let spec = CensusSpec::new(DeckSpec::new(c, v).unwrap(), method).unwrap();
    let mut state = CensusState::new(spec, Shard::WHOLE);
    run_sequential(&mut state);
    let mut out = Loops::new();
    for f in state.loops() {
        let r = play(&f.position(), Methods::both(method), &mut NoRandom, Limits::DETERMINISTIC);
        let Outcome::Cycle(cycle) = r.outcome else { panic!("census loop {f:?} does not loop") };
        assert_eq!(cycle.period_tricks, f.period_tricks);
        let period = match counted {
            Counted::Tricks => cycle.period_tricks,
            Counted::Cards => cycle.period_cards,
        };
        let p = f.position();
        let short = only.ties.is_none_or(|t| most_ties(&p, method, cycle.period_tricks) <= t);
        let lopsided =
            only.hand.is_none_or(|m| smaller_hand_at_most(&p, method, cycle.period_tricks) <= m);
        let part = only.first.is_none_or(|l| smallest_hand(&p, method, cycle.period_tricks) == l);
        if period <= u64::from(max) && short && lopsided && part {
            out.entry(period).or_default().push(cycle.id.0);
        }
    }
    for ids in out.values_mut() {
        ids.sort_unstable();
    }
    out
}

/// Compares; returns the number of loops.
fn same_as_census(c: usize, v: usize, method: Method, max: u32) -> usize {
    same_as_census_in(c, v, method, Counted::Tricks, max)
}

/// Compares, the periods counted in `counted`; returns the number of loops.
fn same_as_census_in(c: usize, v: usize, method: Method, counted: Counted, max: u32) -> usize {
    let got = solved(c, v, method, counted, max);
    let want = census(c, v, method, counted, max);
    assert_eq!(
        got,
        want,
        "C={c} V={v} {} in {}: the solver's loops (left), the census's (right)",
        method.name(),
        counted.unit()
    );
    got.values().map(Vec::len).sum()
}

/// Every loop of period up to 8 on the small decks, certified absent elsewhere, is exactly
/// the census's (C=1 has no battle, so natural and optimized play the same game there).
#[test]
fn small_decks_equal_the_census() {
    let mut loops = 0;
    for v in 2..=8 {
        loops += same_as_census(1, v, Method::Natural, 8);
    }
    for (c, v) in [(2, 2), (2, 3), (2, 4), (3, 2), (3, 3), (4, 2), (4, 3)] {
        loops += same_as_census(c, v, Method::Natural, 8);
        loops += same_as_census(c, v, Method::Optimized, 8);
    }
    // Not a comparison of empty sets: C=1 V=5 alone has two loops of period 6.
    assert!(loops >= 2, "{loops} loops");
}

/// The stream formula (periods counted in cards each player turns) against the census: every
/// loop whose turn takes up to 10 cards per player on the small decks, certified absent
/// elsewhere.
#[test]
fn small_decks_equal_the_census_in_cards() {
    let mut loops = 0;
    for v in 2..=8 {
        loops += same_as_census_in(1, v, Method::Natural, Counted::Cards, 10);
    }
    for (c, v) in [(2, 2), (2, 3), (2, 4), (3, 2), (3, 3), (4, 2), (4, 3)] {
        loops += same_as_census_in(c, v, Method::Natural, Counted::Cards, 10);
        loops += same_as_census_in(c, v, Method::Optimized, Counted::Cards, 10);
    }
    assert!(loops >= 2, "{loops} loops");
}

/// With one colour there is no battle, so a loop turns as many cards as it has tricks: both
/// formulas answer the same questions, also when only deals are asked for.
#[test]
fn both_formulas_agree_on_loops_through_deals() {
    let mut loops = 0;
    for v in 2..=8 {
        let tricks = solved_of(1, v, Method::Natural, Counted::Tricks, true, EVERY, 8);
        let cards = solved_of(1, v, Method::Natural, Counted::Cards, true, EVERY, 8);
        assert_eq!(tricks, cards, "C=1 V={v}: loops through a deal, tricks (left), cards (right)");
        loops += cards.values().map(Vec::len).sum::<usize>();
    }
    assert!(loops >= 1, "{loops} loops");
}

/// Loops with at most T ties per trick (`max_ties`), both formulas, against the census's loops
/// whose longest trick has at most T ties: the restriction excludes exactly the loops with a
/// longer battle, and keeps the others.
#[test]
fn loops_with_few_ties_are_the_census_loops_with_short_battles() {
    let (mut kept, mut left_out) = (0, 0);
    let count = |l: &Loops| l.values().map(Vec::len).sum::<usize>();
    for (c, v) in [(1, 5), (2, 4), (3, 3), (4, 3)] {
        for method in [Method::Natural, Method::Optimized] {
            for (counted, max) in [(Counted::Tricks, 8), (Counted::Cards, 10)] {
                let every = census(c, v, method, counted, max);
                for t in [0, 1] {
                    let got = solved_of(c, v, method, counted, false, ties(t), max);
                    let want = census_of(c, v, method, counted, ties(t), max);
                    assert_eq!(
                        got,
                        want,
                        "C={c} V={v} {} in {}, at most {t} ties: the solver (left), the census (right)",
                        method.name(),
                        counted.unit()
                    );
                    kept += count(&want);
                    left_out += count(&every) - count(&want);
                }
            }
        }
    }
    // A loop with battles of two ties, at its own period alone (every loop): C=4 V=3 natural,
    // whose loop has 19 tricks (the trick formula) and turns 26 cards (the stream formula).
    // With at most 1 tie it is not a model, with at most 2 it is.
    for (c, v, counted, period, loops, bounds) in
        [(4, 3, Counted::Cards, 26, 1, [1, 2]), (4, 3, Counted::Tricks, 19, 1, [1, 2])]
    {
        for t in bounds {
            let got = solved_at(c, v, Method::Natural, counted, ties(t), period);
            let want = census_of(c, v, Method::Natural, counted, ties(t), period)
                .remove(&u64::from(period))
                .unwrap_or_default();
            assert_eq!(
                got,
                want,
                "C={c} V={v} natural at {period} {}, at most {t} ties",
                counted.unit()
            );
            kept += want.len();
            left_out += loops - want.len();
        }
    }
    // Not a comparison of empty sets, nor of the unrestricted ones.
    assert!(kept >= 1 && left_out >= 1, "{kept} loops kept, {left_out} left out");
}

/// Lopsided loops (`max_hand`: one player holds at most M cards at every trick boundary), in
/// cards, against the census's loops whose smaller player's largest hand is at most M, for
/// every M below half the deck: the restriction keeps exactly those loops.
#[test]
fn lopsided_loops_are_the_census_loops_with_a_small_hand() {
    let (mut kept, mut left_out) = (0, 0);
    let count = |l: &Loops| l.values().map(Vec::len).sum::<usize>();
    for (c, v) in [(1, 5), (1, 7), (2, 4), (3, 3), (4, 3)] {
        for method in [Method::Natural, Method::Optimized] {
            let every = census(c, v, method, Counted::Cards, 10);
            for m in 1..=(c * v - 1) as u32 / 2 {
                let got = solved_of(c, v, method, Counted::Cards, false, hand(m), 10);
                let want = census_of(c, v, method, Counted::Cards, hand(m), 10);
                assert_eq!(
                    got,
                    want,
                    "C={c} V={v} {}, one hand of at most {m}: the solver (left), the census (right)",
                    method.name()
                );
                kept += count(&want);
                left_out += count(&every) - count(&want);
            }
        }
    }
    // A loop with battles: C=4 V=3 natural turns 26 cards, and each player's hand reaches 8
    // cards or more along it, so with one hand of at most 5 (the largest bound on 12 cards)
    // it is left out, where without the bound it is found.
    let loops = solved_at(4, 3, Method::Natural, Counted::Cards, EVERY, 26);
    assert_eq!(loops, census(4, 3, Method::Natural, Counted::Cards, 26)[&26]);
    // A position of that loop (the solver's), checked to be on it.
    let position = Position::parse("[3, 3] / [3, 1, 3, 2, 1, 1, 2, 2, 2, 1]").unwrap();
    let r = play(&position, Methods::both(Method::Natural), &mut NoRandom, Limits::DETERMINISTIC);
    let Outcome::Cycle(cycle) = r.outcome else { panic!("{position:?} does not loop") };
    assert_eq!(vec![cycle.id.0], loops);
    assert_eq!(smaller_hand_at_most(&position, Method::Natural, cycle.period_tricks), 8);
    assert_eq!(solved_at(4, 3, Method::Natural, Counted::Cards, hand(5), 26), Vec::<u64>::new());
    // Not a comparison of empty sets, nor of the unrestricted ones.
    assert!(kept >= 1 && left_out >= 1, "{kept} loops kept, {left_out} left out");
}

/// A split period (`Question::parts`): part L holds exactly the census's loops whose smallest
/// hand, over both players and every trick boundary, has L cards, so the parts together are
/// the whole period, each loop in one part. The decks of the lopsided test, to 10 cards, and
/// the C=4 V=3 loop (26 cards, with battles) in its part and in no other.
#[test]
fn split_periods_are_the_census_loops_by_smallest_hand() {
    let mut parts_with_loops = 0;
    for (c, v) in [(1, 5), (1, 7), (2, 4), (3, 3), (4, 3)] {
        for method in [Method::Natural, Method::Optimized] {
            let deck = DeckSpec::new(c, v).unwrap();
            let whole = Question {
                deck,
                method,
                counted: Counted::Cards,
                period: 10,
                deals: false,
                max_ties: None,
                max_hand: None,
                first_hand: None,
            };
            let parts = whole.parts();
            assert_eq!(parts.len(), c * v / 2, "C={c} V={v}: one part per smallest hand");
            let mut union = Loops::new();
            for part in parts {
                let only = Only { first: part.first_hand, ..EVERY };
                let got = solved_of(c, v, method, Counted::Cards, false, only, 10);
                let want = census_of(c, v, method, Counted::Cards, only, 10);
                assert_eq!(
                    got,
                    want,
                    "C={c} V={v} {}, smallest hand {:?}: the solver (left), the census (right)",
                    method.name(),
                    part.first_hand
                );
                parts_with_loops += usize::from(!got.is_empty());
                for (p, ids) in got {
                    union.entry(p).or_default().extend(ids);
                }
            }
            for ids in union.values_mut() {
                ids.sort_unstable();
            }
            assert_eq!(union, census(c, v, method, Counted::Cards, 10), "C={c} V={v}");
        }
    }
    // Loops in more than one part: not every loop in part 1.
    assert!(parts_with_loops >= 2, "{parts_with_loops}");
    let position = Position::parse("[3, 3] / [3, 1, 3, 2, 1, 1, 2, 2, 2, 1]").unwrap();
    let r = play(&position, Methods::both(Method::Natural), &mut NoRandom, Limits::DETERMINISTIC);
    let Outcome::Cycle(cycle) = r.outcome else { panic!("{position:?} does not loop") };
    let l = smallest_hand(&position, Method::Natural, cycle.period_tricks);
    let part = |first| {
        let only = Only { first: Some(first), ..EVERY };
        solved_at(4, 3, Method::Natural, Counted::Cards, only, 26)
    };
    assert_eq!(part(l), vec![cycle.id.0]);
    assert_eq!(part(if l == 1 { 2 } else { l - 1 }), Vec::<u64>::new());
    // The bound of a lopsided question also bounds its parts.
    let lopsided = Question {
        deck: DeckSpec::new(4, 3).unwrap(),
        method: Method::Natural,
        counted: Counted::Cards,
        period: 26,
        deals: false,
        max_ties: None,
        max_hand: Some(3),
        first_hand: None,
    };
    let firsts: Vec<Option<u32>> = lopsided.parts().iter().map(|q| q.first_hand).collect();
    assert_eq!(firsts, [Some(1), Some(2), Some(3)]);
}

/// The same to the periods of the known loops (minutes; run with BATAILLE_LONG_TESTS=1):
/// C=4 V=3 natural to 19 (its loop), C=4 V=4 to 24 (its four loops), and the decks of the
/// issue's list.
#[test]
fn small_decks_equal_the_census_to_longer_periods() {
    if skipped() {
        return;
    }
    for v in 2..=10 {
        same_as_census(1, v, Method::Natural, 16);
    }
    for (c, v, max) in [(2, 5, 16), (2, 6, 12), (3, 4, 12), (4, 3, 19), (4, 4, 24)] {
        same_as_census(c, v, Method::Natural, max);
        same_as_census(c, v, Method::Optimized, max);
    }
    // The known loops are among them.
    assert_eq!(same_as_census(4, 3, Method::Natural, 19), 1);
    assert_eq!(same_as_census(4, 4, Method::Natural, 24), 4);
}

/// The stream formula to longer turns (a minute or two in a release build; run with
/// BATAILLE_LONG_TESTS=1): C=4 V=3 to 26 cards (its loop of 19 tricks turns 26), and the
/// smaller decks further.
#[test]
fn small_decks_equal_the_census_in_cards_to_longer_turns() {
    if skipped() {
        return;
    }
    for v in 2..=10 {
        same_as_census_in(1, v, Method::Natural, Counted::Cards, 20);
    }
    for (c, v, max) in [(2, 5, 20), (2, 6, 16), (3, 4, 16), (4, 3, 26)] {
        same_as_census_in(c, v, Method::Natural, Counted::Cards, max);
        same_as_census_in(c, v, Method::Optimized, Counted::Cards, max);
    }
    assert_eq!(same_as_census_in(4, 3, Method::Natural, Counted::Cards, 26), 1);
}

/// C=4 V=4 natural to 32 cards, its four loops of 24 tricks (tens of minutes; run with
/// BATAILLE_LONG_TESTS=1).
#[test]
fn the_c4v4_loops_are_the_census_in_cards_to_32() {
    if skipped() {
        return;
    }
    assert_eq!(same_as_census_in(4, 4, Method::Natural, Counted::Cards, 32), 4);
}

/// The catalogue's rows (one per loop of tricks) of `cards` cards, by the solver, rounds 1 to
/// `max_rounds`, every answer certified.
fn aligned_by_solver(cards: usize, max_rounds: u32, prime: bool) -> Vec<String> {
    let dir =
        std::env::temp_dir().join(format!("bataille-sat-aligned-{cards}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let settings = settings(&dir);
    let mut found = Vec::new();
    for rounds in 1..=max_rounds {
        let q = AlignedQuestion { cards, rounds, max_multiplicity: 4, colours: None, prime };
        let inst = solve_aligned(&q, &settings).unwrap();
        assert_eq!(inst.verdict, Verdict::Complete, "{q:?}");
        assert!(inst.certificate.is_some());
        found.extend(inst.found);
    }
    std::fs::remove_dir_all(&dir).unwrap();
    blocks::catalogue(&found).iter().map(blocks::catalogue_row).collect()
}

/// The same rows by the outcome search of `bataille aligned blocks`, periods up to `max_rounds`.
fn aligned_by_search(cards: usize, max_rounds: usize, prime: bool) -> Vec<String> {
    let spec = BlocksSpec::new(cards, 4, 8).unwrap();
    let mut state = BlocksState::new(spec, Shard::WHOLE);
    blocks::run_sequential(&mut state);
    let mut rows = blocks::catalogue(&state.cycles);
    rows.retain(|c| {
        c.period_rounds <= max_rounds && (!prime || blocks::splits(&c.first, &c.second).is_empty())
    });
    rows.iter().map(blocks::catalogue_row).collect()
}

#[test]
fn aligned_cycles_equal_the_blocks_catalogue() {
    // 8 cards: the six 4-round blocks; 2, 4, 6, 10 and 12: none (odd n refuted at once).
    for (cards, rounds) in [(2, 8), (4, 8), (6, 8), (8, 8), (10, 8), (12, 4)] {
        let sat = aligned_by_solver(cards, rounds, false);
        assert_eq!(sat, aligned_by_search(cards, rounds as usize, false), "{cards} cards");
        assert_eq!(sat.len(), if cards == 8 { 6 } else { 0 }, "{cards} cards");
    }
    // The six 8-card blocks are prime: the same with the constraint.
    assert_eq!(aligned_by_solver(8, 4, true).len(), 6);
}

#[test]
fn aligned_cycles_equal_the_blocks_catalogue_to_16_cards() {
    if skipped() {
        return;
    }
    // 34,920 of the 16-card loops (4 rounds) are two 8-card blocks: none is prime, and the
    // 17 prime ones have 6 rounds.
    let prime = aligned_by_solver(16, 6, true);
    assert_eq!(prime, aligned_by_search(16, 6, true));
    assert_eq!(prime.len(), 17);
    for (cards, rounds) in [(12, 8), (16, 6)] {
        let sat = aligned_by_solver(cards, rounds, false);
        assert_eq!(sat, aligned_by_search(cards, rounds as usize, false));
    }
}

#[test]
fn the_c4v4_deck_has_exactly_the_hunts_four_loops_as_aligned_cycles() {
    let dir =
        std::env::temp_dir().join(format!("bataille-sat-c4v4-aligned-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let settings = settings(&dir);
    let mut ids = Vec::new();
    for rounds in 1..=4 {
        let q = AlignedQuestion {
            cards: 16,
            rounds,
            max_multiplicity: 4,
            colours: Some(4),
            prime: false,
        };
        let inst = solve_aligned(&q, &settings).unwrap();
        assert_eq!(inst.verdict, Verdict::Complete);
        // Each loop passes through two cycles of rounds, both found.
        assert_eq!(inst.found.len(), if rounds == 4 { 8 } else { 0 });
        ids.extend(inst.found.iter().map(|c| format!("{:016x}", c.cycle_id)));
    }
    std::fs::remove_dir_all(&dir).unwrap();
    ids.sort();
    ids.dedup();
    // The exhaustive hunt of every C=4 V=4 deal (results/hunts/c4v4-natural).
    let hunt = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../results/hunts/c4v4-natural/cycles.csv"
    ))
    .unwrap();
    let mut known: Vec<String> =
        hunt.lines().skip(1).map(|l| l.split(',').next().unwrap().to_string()).collect();
    known.sort();
    assert_eq!(ids, known);
}

/// A stop asked before the solver starts (while the formula was built) gives an undecided
/// period at once: no solver call, no model, no certificate; the formula is still hashed.
#[test]
fn a_stop_asked_while_building_skips_the_solver() {
    let dir = std::env::temp_dir().join(format!("bataille-sat-stopped-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut s = settings(&dir);
    s.stop = Box::leak(Box::new(AtomicBool::new(true)));
    let deck = DeckSpec::new(1, 5).unwrap();
    let q = Question {
        deck,
        method: Method::Natural,
        counted: Counted::Tricks,
        period: 6,
        deals: false,
        max_ties: None,
        max_hand: None,
        first_hand: None,
    };
    let inst = solve(&q, &[], &s).unwrap();
    assert_eq!((inst.verdict, inst.calls), (Verdict::Stopped, 0));
    assert!(inst.found.is_empty() && inst.certificate.is_none());
    assert_eq!(inst.cnf_sha256.len(), 64);
    // The same question not stopped finds the C=1 V=5 loop of 6 tricks.
    let inst = solve(&q, &[], &settings(&dir)).unwrap();
    assert_eq!(inst.verdict, Verdict::Complete);
    assert!(!inst.found.is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The bound on the clauses against the clauses built: never below, at most 1.5 times above.
fn check_bound(what: &str, bound: f64, built: usize) {
    let built = built as f64;
    assert!(bound >= built, "{what}: bound {bound} below the {built} clauses built");
    assert!(bound <= 1.5 * built, "{what}: bound {bound} over 1.5 times the {built} clauses built");
}

/// Trick and cards formulas, natural and optimized, on decks of 1 to 4 colours: one-colour
/// decks of many values (their deck counter grows as N²V, the formulas' largest part), with and
/// without deals and restrictions on decks of up to 52 cards.
#[test]
fn the_clause_bound_holds_every_formula_built() {
    use Counted::{Cards, Tricks};
    let questions = [
        (1, 5, Tricks, 6),
        (1, 32, Tricks, 1),
        (1, 32, Tricks, 3),
        (1, 64, Tricks, 1),
        (2, 7, Tricks, 4),
        (2, 24, Tricks, 1),
        (2, 24, Tricks, 2),
        (3, 5, Tricks, 4),
        (3, 9, Tricks, 2),
        (4, 3, Tricks, 1),
        (4, 3, Tricks, 7),
        (4, 6, Tricks, 2),
        (4, 13, Tricks, 1),
        (4, 13, Tricks, 3),
        (1, 32, Cards, 2),
        (1, 32, Cards, 5),
        (1, 64, Cards, 2),
        (2, 7, Cards, 8),
        (2, 24, Cards, 2),
        (2, 24, Cards, 6),
        (3, 5, Cards, 6),
        (3, 9, Cards, 4),
        (4, 3, Cards, 1),
        (4, 3, Cards, 10),
        (4, 6, Cards, 8),
        (4, 6, Cards, 47),
        (4, 13, Cards, 4),
        (4, 13, Cards, 12),
    ];
    for (c, v, counted, period) in questions {
        let deck = DeckSpec::new(c, v).unwrap();
        for method in [Method::Natural, Method::Optimized] {
            let plain = Question {
                deck,
                method,
                counted,
                period,
                deals: false,
                max_ties: None,
                max_hand: None,
                first_hand: None,
            };
            let mut variants = vec![plain];
            if deck.cards() <= 52 {
                variants.push(Question { deals: true, ..plain });
                variants.push(Question { max_ties: Some(1), ..plain });
                if counted == Cards && deck.cards() >= 3 {
                    let most = (deck.cards() as u32 - 1) / 2;
                    variants.push(Question { max_hand: Some(most), max_ties: Some(0), ..plain });
                    variants.push(Question { first_hand: Some(1), ..plain });
                }
            }
            for q in variants {
                let built = crate::Encoding::new(&q).unwrap().cnf.len();
                if counted == Cards && period % 2 == 1 {
                    // An odd K's formula is the deck and the empty clause; the bound counts the
                    // whole formula, so that it grows with K.
                    assert!(q.clause_bound() >= built as f64, "{q:?}");
                } else {
                    check_bound(&format!("{q:?}"), q.clause_bound(), built);
                }
            }
        }
    }
}

/// The aligned formula: free multisets and decks, prime or not, 1 to 4 rounds.
#[test]
fn the_clause_bound_holds_every_aligned_formula_built() {
    for cards in [4, 6, 8, 12, 16, 24, 28] {
        for rounds in [1, 2, 3, 4] {
            for (colours, max_multiplicity) in [(None, 4), (None, 1), (Some(4), 4), (Some(2), 4)] {
                for prime in [false, true] {
                    if colours.is_some_and(|c| cards % c != 0) {
                        continue;
                    }
                    let q = AlignedQuestion { cards, rounds, max_multiplicity, colours, prime };
                    let built = crate::AlignedEncoding::new(&q).unwrap().cnf.len();
                    check_bound(&format!("{q:?}"), q.clause_bound(), built);
                }
            }
        }
    }
}

/// Absurd sizes are refused from the bound alone, before anything is built, at once.
#[test]
fn absurd_sizes_are_refused_at_once() {
    let refused = |c, v, counted, period| {
        let q = Question {
            deck: DeckSpec::new(c, v).unwrap(),
            method: Method::Optimized,
            counted,
            period,
            deals: false,
            max_ties: None,
            max_hand: None,
            first_hand: None,
        };
        matches!(q.check(), Err(crate::QuestionError::TooLarge { .. }))
    };
    let start = std::time::Instant::now();
    // C=1 V=255: about 8.5·10^7 clauses at a period of 1 trick (its deck counter alone).
    assert!(refused(1, 255, Counted::Tricks, 1));
    assert!(refused(1, 255, Counted::Tricks, 76));
    assert!(refused(4, 64, Counted::Tricks, 100_000));
    assert!(refused(4, 64, Counted::Cards, u32::MAX));
    assert!(!refused(1, 128, Counted::Tricks, 1));
    assert!(start.elapsed() < std::time::Duration::from_secs(1));
}
