//! Crate-level tests: hand-worked games, the published games, and the engine cross-checked
//! against the naive implementation of [`crate::reference`].

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::published::{
    CASELLA, PublishedGame, PublishedOutcome, RECORDS, STATUSES, Status, checks,
};
use crate::reference::play_naive;
use crate::{
    Card, Cycle, Dealer, DeckSpec, Game, Hands, Limits, Outcome, Player, Record, Scratch,
    format_hand, loop_positions, play, play_hands,
};

/// Plays `a` / `b` trick by trick: for each trick the pile (in play order), the taker, and the
/// position after it with its leader.
fn trace(a: &str, b: &str, tricks: usize) -> Vec<String> {
    let h = Hands::parse(a, b).unwrap();
    let mut g = Game::new(h.first(), h.second());
    let mut out = Vec::new();
    for _ in 0..tricks {
        let t = g.trick();
        out.push(format!(
            "{} {} -> {} ({} leads){}",
            format_hand(&g.last_pile()),
            t.taker,
            g.to_hands(),
            g.leader(),
            if t.game_over { ", over" } else { "" }
        ));
        assert_eq!(t.cards as usize, g.last_pile().len());
        if t.game_over {
            break;
        }
    }
    out
}

#[test]
fn hand_worked_loop() {
    // J-- / -J-. Trick 1: the first player turns J, the second pays "-": the first takes
    // "J-" under "--" and leads. Trick 2: "-" (first), "J" (second), "-" paid by the first:
    // the second takes "-J-" under his "-". Trick 3 is trick 2 with the players swapped, and
    // brings back the position after trick 1: a loop of 2 tricks (6 cards) after a tail of 1
    // trick (2 cards).
    assert_eq!(
        trace("J--", "-J-", 3),
        [
            "J- first -> --J- / J- (first leads)",
            "-J- second -> J- / --J- (second leads)",
            "-J- first -> --J- / J- (first leads)",
        ]
    );
    let r = play(&Hands::parse("J--", "-J-").unwrap());
    let Outcome::Cycle(c) = r.outcome else { panic!("{r:?}") };
    assert_eq!((c.tail_tricks, c.tail_cards, c.period_tricks, c.period_cards), (1, 2, 2, 6));
    assert_eq!((r.tricks, r.cards), (3, 8));
    // The loop, from its entry; the two positions read the same from the leader.
    let l = loop_positions(&Hands::parse("J--", "-J-").unwrap()).unwrap();
    let shown: Vec<String> = l.iter().map(|(h, p)| format!("{h} ({p})")).collect();
    assert_eq!(shown, ["--J- / J- (first)", "J- / --J- (second)"]);
    // Its id is the same from the entry itself, and from the player-swapped position.
    let id = |a: &str, b: &str| match play(&Hands::parse(a, b).unwrap()).outcome {
        Outcome::Cycle(c) => c.id,
        o => panic!("{o:?}"),
    };
    assert_eq!(c.id, id("--J-", "J-"));
}

#[test]
fn hand_worked_endings() {
    // Q- / -K-: Q, the second pays "-" then turns K; the first pays "-" and must pay two more
    // with no card left: the second wins and gathers "Q-K-" (1 trick, 4 cards).
    assert_eq!(trace("Q-", "-K-", 5), ["Q-K- second ->  / -Q-K- (second leads), over"]);
    let r = play(&Hands::parse("Q-", "-K-").unwrap());
    assert_eq!(r, Record { outcome: Outcome::SecondWins, tricks: 1, cards: 4 });
    // J- / -: the second pays the jack with his last card. The trick ends with his hand empty:
    // the game stops there (1 trick, 2 cards); the first does not lead again.
    let r = play(&Hands::parse("J-", "-").unwrap());
    assert_eq!(r, Record { outcome: Outcome::FirstWins, tricks: 1, cards: 2 });
    // A longer game, worked by hand: J- / --.
    // 1: J, "-" paid: the first takes "J-" -> "-J-" / "-" (2 cards).
    // 2: "-" first, "-" second (his last), "J" first: the second must pay and cannot; the
    //    first gathers "--J" (3 cards).
    assert_eq!(
        trace("J-", "--", 5),
        ["J- first -> -J- / - (first leads)", "--J first -> ---J /  (first leads), over",]
    );
    assert_eq!(
        play(&Hands::parse("J-", "--").unwrap()),
        Record { outcome: Outcome::FirstWins, tricks: 2, cards: 5 }
    );
}

/// Plays a published game and compares with its published claim.
fn check(game: &PublishedGame) {
    let r = play(&game.hands());
    game.hands().check_deck(DeckSpec::STANDARD).unwrap();
    assert!(game.hands().is_deal(), "{}", game.name);
    match game.claim {
        PublishedOutcome::Ends { cards, tricks } => {
            assert!(r.outcome.winner().is_some(), "{}: {r:?}", game.name);
            assert_eq!((r.cards, r.tricks), (cards, tricks), "{}", game.name);
        }
        PublishedOutcome::Loops { period_tricks } => {
            let Outcome::Cycle(c) = r.outcome else { panic!("{}: {r:?}", game.name) };
            assert_eq!(c.period_tricks, period_tricks, "{}", game.name);
        }
    }
    // The naive implementation agrees on every field.
    assert_eq!(
        r,
        play_naive(game.hands().first(), game.hands().second(), u64::MAX),
        "{}",
        game.name
    );
}

#[test]
fn published_games() {
    check(&CASELLA);
    for g in &RECORDS {
        check(g);
    }
}

#[test]
fn catalogue_has_no_failure() {
    let all = checks();
    assert_eq!(all.len(), 6);
    for c in &all {
        assert_ne!(c.status, Status::Fail, "{c:?}");
        assert!(STATUSES.contains(&c.status), "{c:?}");
    }
    let print = all.iter().find(|c| c.id == "bmn-article-box1-hands").unwrap();
    assert_eq!(print.status, Status::Misprint);
    assert!(
        print.evidence.contains("numerals: 31 instead of 36 (5 missing)"),
        "{}",
        print.evidence
    );
}

/// Engine and naive implementation on the same hands, every field compared.
fn same(a: &[Card], b: &[Card], scratch: &mut Scratch, max_tricks: u64) -> Record {
    let fast = play_hands(a, b, Limits { max_tricks }, scratch);
    let naive = play_naive(a, b, max_tricks);
    assert_eq!(fast, naive, "{} / {}", format_hand(a), format_hand(b));
    fast
}

#[test]
fn engine_equals_naive_on_random_small_decks() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2024);
    let mut scratch = Scratch::default();
    let (mut loops, mut ends) = (0, 0);
    for _ in 0..20_000 {
        let n = rng.random_range(2..=16);
        // Jacks and queens make loops likelier on small decks.
        let top = if rng.random_bool(0.5) { 2 } else { 4 };
        let mut cards: Vec<Card> = (0..n)
            .map(|_| if rng.random_bool(0.35) { rng.random_range(1..=top) } else { 0 })
            .collect();
        crate::shuffle(&mut cards, &mut rng);
        let split = rng.random_range(0..=n);
        let r = same(&cards[..split], &cards[split..], &mut scratch, u64::MAX);
        match r.outcome {
            Outcome::Cycle(_) => loops += 1,
            _ => ends += 1,
        }
    }
    // Both kinds of outcome were exercised.
    assert!(loops > 20 && ends > 5000, "{loops} loops, {ends} ends");
}

#[test]
fn engine_equals_naive_on_every_deal_of_a_small_deck() {
    // 8 cards, 4 numerals and one of each penalty: 8!/4! = 1680 arrangements, every split.
    let spec = DeckSpec::new([4, 1, 1, 1, 1]).unwrap();
    let mut deck = spec.sorted_deck();
    let mut scratch = Scratch::default();
    let mut seen = 0;
    loop {
        for split in 0..=deck.len() {
            same(&deck[..split], &deck[split..], &mut scratch, u64::MAX);
        }
        seen += 1;
        if !next_permutation(&mut deck) {
            break;
        }
    }
    assert_eq!(seen as u128, spec.arrangements().unwrap());
}

#[test]
fn engine_equals_naive_on_every_small_position() {
    // Every sequence of up to 9 cards among numeral, J, Q, cut at every place.
    let mut scratch = Scratch::default();
    let (mut loops, mut games) = (0, 0);
    for n in 2..=9u32 {
        for code in 0..3usize.pow(n) {
            let cards: Vec<Card> = (0..n).map(|i| (code / 3usize.pow(i) % 3) as Card).collect();
            for split in 0..=cards.len() {
                let r = same(&cards[..split], &cards[split..], &mut scratch, u64::MAX);
                loops += usize::from(matches!(r.outcome, Outcome::Cycle(_)));
                games += 1;
            }
        }
    }
    assert_eq!(games, (2..=9u32).map(|n| 3usize.pow(n) * (n as usize + 1)).sum::<usize>());
    assert!(loops > 40, "{loops} loops");
}

/// Lexicographic next permutation of a multiset; false after the last one.
fn next_permutation(v: &mut [Card]) -> bool {
    let Some(i) = (1..v.len()).rev().find(|&i| v[i - 1] < v[i]) else { return false };
    let j = (i..v.len()).rev().find(|&j| v[j] > v[i - 1]).expect("exists");
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}

#[test]
fn engine_equals_naive_on_random_52_card_deals_and_caps() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut dealer = Dealer::new(DeckSpec::STANDARD);
    let mut scratch = Scratch::default();
    for i in 0..300 {
        let d = dealer.deal(&mut rng).to_vec();
        let cap = if i % 3 == 0 { rng.random_range(0..40) } else { u64::MAX };
        let (a, b) = d.split_at(26);
        same(a, b, &mut scratch, cap);
    }
    // The 40-card Italian deck too.
    let mut dealer = Dealer::new(DeckSpec::ITALIAN);
    for _ in 0..300 {
        let d = dealer.deal(&mut rng).to_vec();
        same(&d[..20], &d[20..], &mut scratch, u64::MAX);
    }
}

#[test]
fn trick_by_trick_equals_the_fast_loop() {
    // `Game::trick` (traces) and the loop of `play_hands` are two codings of the trick: they
    // must agree on every trick count, card count and final position.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let mut scratch = Scratch::default();
    for spec in [DeckSpec::STANDARD, DeckSpec::ITALIAN, DeckSpec::new([6, 2, 1, 1, 0]).unwrap()] {
        let mut dealer = Dealer::new(spec);
        for _ in 0..500 {
            let d = dealer.deal(&mut rng).to_vec();
            let (a, b) = d.split_at(d.len() / 2);
            let r = play_hands(a, b, Limits::NONE, &mut scratch);
            let mut g = Game::new(a, b);
            let (mut tricks, mut cards) = (0, 0);
            while tricks < r.tricks {
                let t = g.trick();
                tricks += 1;
                cards += u64::from(t.cards);
                if t.game_over {
                    assert_eq!(r.outcome.winner(), Some(t.taker));
                    break;
                }
            }
            assert_eq!((tricks, cards), (r.tricks, r.cards), "{}", crate::format_deal(&d));
        }
    }
}

#[test]
fn largest_deck() {
    // 255 cards: 191 numerals, 16 of each penalty: gaps and rings at their limits.
    let spec = DeckSpec::new([191, 16, 16, 16, 16]).unwrap();
    let mut dealer = Dealer::new(spec);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut scratch = Scratch::default();
    for _ in 0..20 {
        let d = dealer.deal(&mut rng).to_vec();
        same(&d[..127], &d[127..], &mut scratch, u64::MAX);
    }
    // All numerals in one hand, and all penalty cards.
    same(&[0; 254], &[0], &mut scratch, u64::MAX);
    same(&[4; 128], &[1; 127], &mut scratch, u64::MAX);
}

/// Plays from `a` / `b` with `leader` to lead, trick by trick, with the naive definition of a
/// loop replaced by the engine's: returns (winner or None, tricks, cards) within `max` tricks.
fn run_game(a: &[Card], b: &[Card], leader: Player, max: u64) -> (Option<Player>, u64, u64) {
    let mut g = Game::default();
    g.set(a, b, leader);
    let (mut tricks, mut cards) = (0, 0);
    if let Some(w) = g.winner() {
        return (Some(w), 0, 0);
    }
    while tricks < max {
        let n = a.len() + b.len();
        let t = g.trick();
        assert_eq!(g.len(Player::First) + g.len(Player::Second), n, "cards are conserved");
        tricks += 1;
        cards += u64::from(t.cards);
        if t.game_over {
            assert!(g.is_empty(t.taker.other()));
            return (Some(t.taker), tricks, cards);
        }
    }
    (None, tricks, cards)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Swapping the hands and the leader mirrors the game: same measures, winner swapped.
    #[test]
    fn swapping_players_mirrors(cards in proptest::collection::vec(0u8..=4, 2..40), split in 0usize..40) {
        let split = split.min(cards.len());
        let (a, b) = cards.split_at(split);
        let (w1, t1, c1) = run_game(a, b, Player::First, 500);
        let (w2, t2, c2) = run_game(b, a, Player::Second, 500);
        prop_assert_eq!((w1.map(Player::other), t1, c1), (w2, t2, c2));
        let r = play_naive(a, b, 500);
        // And the naive implementation ends the same way when the game ends.
        if let Some(w) = w1 {
            prop_assert_eq!(r.outcome.winner(), Some(w));
            prop_assert_eq!((r.tricks, r.cards), (t1, c1));
        }
    }

    /// Cycle ids are shared by every position of the loop, in either orientation.
    #[test]
    fn every_loop_position_has_the_loop_id(cards in proptest::collection::vec(0u8..=2, 4..14), split in 1usize..13) {
        let split = split.min(cards.len() - 1);
        let h = Hands::new(cards[..split].to_vec(), cards[split..].to_vec()).unwrap();
        let r = play(&h);
        if let Outcome::Cycle(Cycle { id, period_tricks, .. }) = r.outcome {
            let l = loop_positions(&h).unwrap();
            prop_assert_eq!(l.len() as u64, period_tricks);
            for (pos, leader) in l {
                // Start each loop position with its leader written first: a deal of the
                // oriented position, first to lead.
                let (x, y) = match leader {
                    Player::First => (pos.first().to_vec(), pos.second().to_vec()),
                    Player::Second => (pos.second().to_vec(), pos.first().to_vec()),
                };
                let r2 = play(&Hands::new(x, y).unwrap());
                let Outcome::Cycle(c2) = r2.outcome else { panic!("a loop position loops") };
                prop_assert_eq!(c2.id, id);
                prop_assert_eq!(c2.tail_tricks, 0);
                prop_assert_eq!(c2.period_tricks, period_tricks);
            }
        }
    }
}
