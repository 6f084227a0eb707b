//! The entries of the catalogue, in the order of the article.
//!
//! Published values are typed from the sources (the article, seed 002; the public record table
//! and the authors' record files it comes from, github.com/cristal-smac/bataille, which give a
//! deal for every record); computed values come from the engine at run time. The table of every
//! entry is the book's docs/claims.md.

use bataille_engine::{
    Card, DeckSpec, Game, GameResult, Limits, Method, Methods, NoRandom, Outcome, Position, Tricks,
    aligned, loop_positions, play,
};
use bataille_records::published::{self, LoggedGame, PUBLIC_RECORDS};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::{Claim, Status};

const NATURAL: Methods = Methods { first: Method::Natural, second: Method::Natural };
const OPTIMIZED: Methods = Methods { first: Method::Optimized, second: Method::Optimized };

/// Runs every check and returns the entries in catalogue order.
pub fn catalogue() -> Vec<Claim> {
    let mut out = Vec::new();
    stacking(&mut out);
    eight_cards(&mut out);
    c1_cycles(&mut out);
    spivey(&mut out);
    aligned_cycles(&mut out);
    optimized_cycles(&mut out);
    random_method(&mut out);
    records(&mut out);
    record_file_cycles(&mut out);
    spivey_52(&mut out);
    out
}

/// What a check found: the two values and whether they agree.
struct Found {
    published: String,
    computed: String,
    agrees: bool,
}

impl Found {
    /// Agreement is equality of the two texts.
    fn text(published: impl Into<String>, computed: impl Into<String>) -> Found {
        let (published, computed) = (published.into(), computed.into());
        Found { agrees: published == computed, published, computed }
    }
}

/// An entry under construction.
struct Draft {
    name: &'static str,
    source: &'static str,
    claim: String,
    /// When set, the published value is a known misprint, explained by this text.
    misprint: Option<String>,
    /// When set, the published value differs for a known reason other than a misprint (another
    /// measure), explained by this text.
    differs: Option<String>,
    evidence: String,
}

fn claim(name: &'static str, source: &'static str, text: impl Into<String>) -> Draft {
    Draft {
        name,
        source,
        claim: text.into(),
        misprint: None,
        differs: None,
        evidence: String::new(),
    }
}

impl Draft {
    fn misprint(mut self, why: impl Into<String>) -> Draft {
        self.misprint = Some(why.into());
        self
    }

    fn differs(mut self, why: impl Into<String>) -> Draft {
        self.differs = Some(why.into());
        self
    }

    fn evidence(mut self, text: impl Into<String>) -> Draft {
        self.evidence = text.into();
        self
    }

    fn check(self, found: Found) -> Claim {
        let known = match (&self.misprint, &self.differs) {
            (Some(why), _) => Some((Status::Misprint, "a misprint", why)),
            (None, Some(why)) => Some((Status::Differs, "a known difference", why)),
            (None, None) => None,
        };
        let (status, evidence) = match (known, found.agrees) {
            (None, true) => (Status::Ok, self.evidence),
            (None, false) => (Status::Fail, self.evidence),
            (Some((status, _, why)), false) => (status, why.clone()),
            (Some((_, what, why)), true) => {
                (Status::Fail, format!("listed as {what} ({why}), but the values now agree"))
            }
        };
        Claim {
            id: self.name,
            source: self.source,
            claim: self.claim,
            published: found.published,
            computed: found.computed,
            status,
            evidence,
        }
    }
}

fn pos(text: &str) -> Position {
    text.parse().unwrap_or_else(|e| panic!("catalogue position {text:?}: {e}"))
}

fn run(deal: &Position, methods: Methods) -> GameResult {
    play(deal, methods, &mut NoRandom, Limits::DETERMINISTIC)
}

/// "loop of P tricks" for a deal on its loop, with the tail when there is one; otherwise the
/// ending.
fn loop_text(r: &GameResult) -> String {
    match r.outcome {
        Outcome::Cycle(c) if c.tail_tricks == 0 => format!("loop of {} tricks", c.period_tricks),
        Outcome::Cycle(c) => {
            format!("loop of {} tricks after {} tricks", c.period_tricks, c.tail_tricks)
        }
        _ => ending_text(r),
    }
}

fn ending_text(r: &GameResult) -> String {
    match r.outcome {
        Outcome::FirstWins => format!("first player wins ({} tricks)", r.tricks),
        Outcome::SecondWins => format!("second player wins ({} tricks)", r.tricks),
        Outcome::Draw => format!("draw ({} tricks)", r.tricks),
        Outcome::Capped => format!("capped at {} tricks", r.tricks),
        Outcome::Cycle(c) => format!("loop of {} tricks", c.period_tricks),
    }
}

/// The positions of the first `tricks` tricks from `start`, start included (fewer if the game
/// ends first).
fn trace(start: &Position, methods: Methods, tricks: usize) -> Vec<Position> {
    let limits = Limits { max_tricks: tricks as u64 };
    let mut game = Tricks::new(&Game::new(start), methods, NoRandom, limits);
    let mut out = vec![start.clone()];
    while game.next().is_some() {
        out.push(game.game().to_position());
    }
    out
}

/// Compares a printed sequence `a → b → ...` with the engine's trace from its first position.
fn sequence(printed: &str, methods: Methods) -> Found {
    let published: Vec<Position> = printed.split('→').map(pos).collect();
    let computed = trace(&published[0], methods, published.len() - 1);
    let n = published.len();
    let diff = published.iter().zip(&computed).position(|(p, c)| p != c);
    let computed_text = match diff {
        None if computed.len() == n => format!("same {n} positions"),
        None => format!("the game ends after {} positions", computed.len()),
        Some(i) => format!("position {} is {} (printed {})", i + 1, computed[i], published[i]),
    };
    Found {
        published: format!("{n} positions"),
        agrees: computed_text.starts_with("same"),
        computed: computed_text,
    }
}

/// How the multiset of cards of `printed` differs from that of `correct`.
fn missing_cards(printed: &Position, correct: &Position) -> String {
    let count = |p: &Position| {
        let mut c = [0i32; 256];
        for &x in p.first().iter().chain(p.second()) {
            c[usize::from(x)] += 1;
        }
        c
    };
    let (a, b) = (count(printed), count(correct));
    let mut parts = Vec::new();
    for v in 1..256 {
        let d = b[v] - a[v];
        if d > 0 {
            parts.push(format!("{d} card(s) of value {v} missing"));
        } else if d < 0 {
            parts.push(format!("{} extra card(s) of value {v}", -d));
        }
    }
    format!(
        "the printed position holds {} cards, the trick started with {}: {}",
        printed.cards(),
        correct.cards(),
        parts.join(", ")
    )
}

fn stacking(out: &mut Vec<Claim>) {
    let deal = pos("[3, 2, 1, 1, 2, 1] / [3, 2, 1, 2, 3, 3]");
    let after = |m: Method| trace(&deal, Methods::both(m), 1)[1].clone();
    let natural = after(Method::Natural);
    out.push(
        claim(
            "stacking-natural",
            "article, Méthodes de rangement",
            format!("{deal}: after the first trick with natural stacking"),
        )
        .check(Found::text("[2, 1] / [3, 3, 2, 1, 1, 1, 2, 2, 3, 3]", natural.to_string())),
    );
    let printed = pos("[2, 1] / [3, 3, 3, 3, 2, 2, 1, 1, 1]");
    let optimized = after(Method::Optimized);
    out.push(
        claim(
            "stacking-optimized",
            "article, Méthodes de rangement",
            format!("{deal}: after the first trick with optimized stacking"),
        )
        .misprint(format!(
            "{}; the second player won 3, 3, 2, 2, 1, 1, 1, 2 (three 2s) and sorts them \
             strongest first under his remaining [3, 3]",
            missing_cards(&printed, &deal)
        ))
        .check(Found::text(printed.to_string(), optimized.to_string())),
    );
}

fn eight_cards(out: &mut Vec<Claim>) {
    let r = run(&pos("[1, 1, 1, 2] / [2, 2, 1, 2]"), NATURAL);
    let computed = match r.outcome {
        Outcome::SecondWins => "second player wins".to_string(),
        _ => ending_text(&r),
    };
    out.push(
        claim(
            "c4-v2-quick-win",
            "article, 8-card example",
            "[1, 1, 1, 2] / [2, 2, 1, 2] (natural)",
        )
        .evidence(format!("{} tricks, {} cards per player", r.tricks, r.cards))
        .check(Found::text("second player wins", computed)),
    );
    let r = run(&pos("[1, 1, 2, 2] / [2, 2, 1, 1]"), NATURAL);
    let computed = if r.outcome == Outcome::Draw { "draw".to_string() } else { ending_text(&r) };
    out.push(
        claim("c4-v2-draw", "article, 8-card example", "[1, 1, 2, 2] / [2, 2, 1, 1] (natural)")
            .evidence(format!("{} tricks, {} cards per player", r.tricks, r.cards))
            .check(Found::text("draw", computed)),
    );
}

/// A deal the article says loops in `period` tricks from the start.
fn loops(
    out: &mut Vec<Claim>,
    name: &'static str,
    source: &'static str,
    deal: &str,
    methods: Methods,
    period: Option<u64>,
) {
    let deal = pos(deal);
    let r = run(&deal, methods);
    let computed = match (period, r.outcome) {
        (None, Outcome::Cycle(_)) => "loops".to_string(),
        _ => loop_text(&r),
    };
    let published = period.map_or("loops".to_string(), |p| format!("loop of {p} tricks"));
    let extra = match r.outcome {
        Outcome::Cycle(c) => format!(
            "{} tricks and {} cards per player per period, tail {}, cycle id {}",
            c.period_tricks, c.period_cards, c.tail_tricks, c.id
        ),
        _ => String::new(),
    };
    out.push(
        claim(name, source, format!("{deal} loops ({methods})"))
            .evidence(extra)
            .check(Found::text(published, computed)),
    );
}

fn c1_cycles(out: &mut Vec<Claim>) {
    let src = "article, Parties infinies (C=1)";
    loops(out, "c1-v5-cycle", src, "[5, 3] / [2, 4, 1]", NATURAL, Some(6));
    out.push(claim("c1-v5-sequence", src, "the six tricks of the V=5 loop as printed").check(
        sequence(
            "[5, 3] / [2, 4, 1] → [3, 5, 2] / [4, 1] → [5, 2] / [1, 4, 3] → [2, 5, 1] / [4, 3] \
             → [5, 1] / [3, 4, 2] → [1, 5, 3] / [4, 2] → [5, 3] / [2, 4, 1]",
            NATURAL,
        ),
    ));
    loops(out, "c1-v7-cycle", src, "[1, 7, 4] / [5, 3, 6, 2]", NATURAL, Some(8));
    loops(out, "c1-v9-cycle", src, "[9, 5, 8, 4] / [3, 7, 2, 6, 1]", NATURAL, Some(20));
    loops(
        out,
        "c1-v9-cycle-ab",
        "article, A/B method",
        "[9, 1, 6, 2] / [5, 8, 4, 7, 3]",
        NATURAL,
        Some(20),
    );
    out.push(
        claim(
            "c1-v9-sequence",
            "article, A/B method",
            "the twenty tricks of the V=9 loop as printed",
        )
        .check(sequence(
            "[9, 1, 6, 2] / [5, 8, 4, 7, 3] → [1, 6, 2, 9, 5] / [8, 4, 7, 3] → \
                 [6, 2, 9, 5] / [4, 7, 3, 8, 1] → [2, 9, 5, 6, 4] / [7, 3, 8, 1] → \
                 [9, 5, 6, 4] / [3, 8, 1, 7, 2] → [5, 6, 4, 9, 3] / [8, 1, 7, 2] → \
                 [6, 4, 9, 3] / [1, 7, 2, 8, 5] → [4, 9, 3, 6, 1] / [7, 2, 8, 5] → \
                 [9, 3, 6, 1] / [2, 8, 5, 7, 4] → [3, 6, 1, 9, 2] / [8, 5, 7, 4] → \
                 [6, 1, 9, 2] / [5, 7, 4, 8, 3] → [1, 9, 2, 6, 5] / [7, 4, 8, 3] → \
                 [9, 2, 6, 5] / [4, 8, 3, 7, 1] → [2, 6, 5, 9, 4] / [8, 3, 7, 1] → \
                 [6, 5, 9, 4] / [3, 7, 1, 8, 2] → [5, 9, 4, 6, 3] / [7, 1, 8, 2] → \
                 [9, 4, 6, 3] / [1, 8, 2, 7, 5] → [4, 6, 3, 9, 1] / [8, 2, 7, 5] → \
                 [6, 3, 9, 1] / [2, 7, 5, 8, 4] → [3, 9, 1, 6, 2] / [7, 5, 8, 4] → \
                 [9, 1, 6, 2] / [5, 8, 4, 7, 3]",
            NATURAL,
        )),
    );
    loops(out, "c1-v10-cycle", src, "[8, 6, 3, 10, 5] / [2, 9, 7, 4, 1]", NATURAL, Some(60));
    loops(
        out,
        "c1-v18-cycle",
        "article, Généralisation",
        "[18, 14, 13, 5, 17, 12, 11, 4] / [10, 3, 16, 9, 8, 2, 15, 7, 6, 1]",
        NATURAL,
        Some(360),
    );

    // "For C = 1 natural and optimized stacking are the same": every deal, both methods.
    let mut differ = 0u64;
    let mut deals = 0u64;
    for v in 2..=8 {
        for_each_c1_deal(v, |deal| {
            deals += 1;
            if run(deal, NATURAL) != run(deal, OPTIMIZED) {
                differ += 1;
            }
        });
    }
    out.push(
        claim(
            "c1-natural-is-optimized",
            "article, Durées moyennes",
            "with C=1 natural and optimized stacking play the same game (every deal, V=2..8)",
        )
        .evidence(format!("{deals} deals played with both methods"))
        .check(Found::text(
            "identical games",
            if differ == 0 {
                "identical games".to_string()
            } else {
                format!("{differ} deals differ")
            },
        )),
    );

    // "Exhaustive searches for V = 2, 3, 4, 6, 8 (and 12) found no cycle."
    let mut looping = Vec::new();
    let mut deals = 0u64;
    for v in [2, 3, 4, 6, 8] {
        for_each_c1_deal(v, |deal| {
            deals += 1;
            if matches!(run(deal, NATURAL).outcome, Outcome::Cycle(_)) {
                looping.push(deal.to_string());
            }
        });
    }
    out.push(
        claim(
            "c1-no-cycle-small",
            "article, Généralisation",
            "no deal loops for C=1 and V = 2, 3, 4, 6, 8 (natural; V=12 is checked by \
             `bataille explore --colours 1 --values 12 --exhaustive`)",
        )
        .evidence(format!("all {deals} arrangements of the five decks played"))
        .check(Found::text(
            "no cycle",
            if looping.is_empty() {
                "no cycle".to_string()
            } else {
                format!("{} looping deals, e.g. {}", looping.len(), looping[0])
            },
        )),
    );
}

/// Calls `f` on every arrangement of the C=1 deck of `v` cards, split at ⌊v/2⌋.
fn for_each_c1_deal(v: usize, mut f: impl FnMut(&Position)) {
    let mut cards: Vec<Card> = (1..=v as Card).collect();
    let half = v / 2;
    loop {
        let deal = Position::new(cards[..half].to_vec(), cards[half..].to_vec())
            .expect("small decks are valid");
        f(&deal);
        if !next_permutation(&mut cards) {
            break;
        }
    }
}

/// Steps to the next arrangement in lexicographic order; false after the last.
fn next_permutation(a: &mut [Card]) -> bool {
    let Some(i) = a.windows(2).rposition(|w| w[0] < w[1]) else { return false };
    let j = a.iter().rposition(|&x| x > a[i]).expect("a larger element exists");
    a.swap(i, j);
    a[i + 1..].reverse();
    true
}

fn spivey(out: &mut Vec<Claim>) {
    // The A/B pattern loops in two tricks in terms of categories: play it with A = 2, B = 1.
    // A tie never happens (cards played = tricks), so this is exactly the category game.
    let ab = pos("[2, 1, 2, 1] / [1, 2, 1, 2, 1]");
    let r = run(&ab, NATURAL);
    out.push(
        claim(
            "spivey-ab-pattern",
            "article, A/B method",
            "[A, B, A, B] / [B, A, B, A, B] loops in two tricks in terms of A and B",
        )
        .evidence(format!(
            "played with A=2, B=1: {} reveals in {} tricks, so no A meets an A",
            r.cards, r.tricks
        ))
        .check(Found::text("loop of 2 tricks", category_loop(&r))),
    );
    let abc = pos("[3, 2, 2, 1, 3, 2, 2, 1] / [2, 1, 3, 2, 2, 1, 3, 2, 2, 1]");
    let r = run(&abc, NATURAL);
    out.push(
        claim(
            "spivey-abc-pattern",
            "article, Généralisation",
            "[A, B, B, C, A, B, B, C] / [B, C, A, B, B, C, A, B, B, C] loops in four tricks in terms of A, B, C",
        )
        .evidence(format!("played with A=3, B=2, C=1: {} reveals in {} tricks", r.cards, r.tricks))
        .check(Found::text("loop of 4 tricks", category_loop(&r))),
    );

    // "There are 5! x 4! = 2880 ways to substitute 9..6 for the As and 5..1 for the Bs of
    // [A, B, A, B] / [B, A, B, A, B], and all of them loop."
    let mut subs = 0u32;
    let mut looping = 0u32;
    let mut a_vals: Vec<Card> = vec![6, 7, 8, 9];
    loop {
        let mut b_vals: Vec<Card> = vec![1, 2, 3, 4, 5];
        loop {
            let deal = Position::new(
                vec![a_vals[0], b_vals[0], a_vals[1], b_vals[1]],
                vec![b_vals[2], a_vals[2], b_vals[3], a_vals[3], b_vals[4]],
            )
            .expect("nine cards");
            subs += 1;
            if matches!(run(&deal, NATURAL).outcome, Outcome::Cycle(_)) {
                looping += 1;
            }
            if !next_permutation(&mut b_vals) {
                break;
            }
        }
        if !next_permutation(&mut a_vals) {
            break;
        }
    }
    out.push(
        claim(
            "c1-v9-all-substitutions",
            "article, Généralisation",
            "all 5! x 4! substitutions of the V=9 A/B pattern loop",
        )
        .check(Found::text("2880 of 2880 loop", format!("{looping} of {subs} loop"))),
    );

    // The V=18 pattern of the article with random labellings (categories kept).
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(18);
    let pattern = "ABBCABBC/BCABBCABBC";
    let trials = 1000;
    let mut looping = 0;
    for _ in 0..trials {
        if matches!(run(&label(pattern, &mut rng), NATURAL).outcome, Outcome::Cycle(_)) {
            looping += 1;
        }
    }
    out.push(
        claim(
            "c1-v18-labellings",
            "article, Généralisation",
            "any labelling of the A/B/C pattern (A > B > C) loops, V=18: 1000 random labellings, seed 18",
        )
        .check(Found::text(format!("{trials} of {trials} loop"), format!("{looping} of {trials} loop"))),
    );

    // "For positive integers, V is neither 2^k (k >= 1) nor 3·2^k (k >= 0) exactly when
    // V = m·2^k with k >= 0 and m odd, m > 3."
    let two_to_k = |v: u64| v > 1 && v.is_power_of_two();
    let three_two_to_k = |v: u64| v.is_multiple_of(3) && (v / 3).is_power_of_two();
    let first = |v: u64| !two_to_k(v) && !three_two_to_k(v);
    let second = |v: u64| (v >> v.trailing_zeros()) > 3;
    let bad: Vec<u64> = (1..=100_000).filter(|&v| first(v) != second(v)).collect();
    out.push(
        claim(
            "spivey-condition",
            "article, Parties infinies (C=1)",
            "for positive V: not 2^k (k>=1) nor 3·2^k (k>=0) <=> V = m·2^k with m odd > 3 (V = 1..100000)",
        )
        .misprint(
            "V = 1 is neither 2^k with k >= 1 nor 3·2^k, yet 1 = 1·2^0 with m = 1 not > 3; \
             the one-card deck has no loop, so the theorem's condition should exclude V = 1 \
             (the m·2^k form does)",
        )
        .check(Found::text("equivalent", if bad.is_empty() {
            "equivalent".to_string()
        } else {
            format!("differ at V = {:?}", bad)
        })),
    );
}

/// "loop of P tricks" for a category game in which no two cards of the same category meet.
fn category_loop(r: &GameResult) -> String {
    if r.cards != r.tricks {
        return "a tie between equal categories".to_string();
    }
    loop_text(r)
}

/// A random labelling of a category pattern: `A` the strongest category, cards of a category
/// get distinct values, every value of a stronger category above every weaker one.
fn label(pattern: &str, rng: &mut Xoshiro256PlusPlus) -> Position {
    let letters: Vec<char> = pattern.chars().filter(|c| c.is_ascii_uppercase()).collect();
    let mut cats: Vec<char> = letters.clone();
    cats.sort_unstable();
    cats.dedup();
    // Values from the top: the first category gets the highest values.
    let mut pools: Vec<Vec<Card>> = Vec::new();
    let mut next = letters.len() as Card;
    for &c in &cats {
        let n = letters.iter().filter(|&&x| x == c).count() as Card;
        let mut pool: Vec<Card> = (next - n + 1..=next).collect();
        pool.shuffle(rng);
        pools.push(pool);
        next -= n;
    }
    let (a, b) = pattern.split_once('/').expect("two hands");
    let mut take = |hand: &str| -> Vec<Card> {
        hand.chars()
            .map(|c| {
                pools[cats.iter().position(|&x| x == c).expect("known")].pop().expect("enough")
            })
            .collect()
    };
    let first = take(a);
    let second = take(b);
    Position::new(first, second).expect("valid")
}

fn aligned_cycles(out: &mut Vec<Claim>) {
    let src = "article, box 4";
    let v4 = "[2, 1, 4, 4, 2, 1, 3, 3] / [4, 2, 4, 1, 3, 2, 3, 1]";
    out.push(
        claim(
            "aligned-v4-sequence",
            src,
            "the first twelve tricks of the C=4 V=4 aligned cycle as printed",
        )
        .check(sequence(
            "[2, 1, 4, 4, 2, 1, 3, 3] / [4, 2, 4, 1, 3, 2, 3, 1] → \
         [1, 4, 4, 2, 1, 3, 3] / [2, 4, 1, 3, 2, 3, 1, 4, 2] → \
         [4, 4, 2, 1, 3, 3] / [4, 1, 3, 2, 3, 1, 4, 2, 2, 1] → \
         [2, 1, 3, 3, 4, 1, 4, 4] / [3, 2, 3, 1, 4, 2, 2, 1] → \
         [1, 3, 3, 4, 1, 4, 4] / [2, 3, 1, 4, 2, 2, 1, 3, 2] → \
         [3, 3, 4, 1, 4, 4] / [3, 1, 4, 2, 2, 1, 3, 2, 2, 1] → \
         [4, 1, 4, 4, 3, 1, 3, 3] / [4, 2, 2, 1, 3, 2, 2, 1] → \
         [4, 4, 3, 1, 3, 3] / [2, 1, 3, 2, 2, 1, 2, 1, 4, 4] → \
         [4, 3, 1, 3, 3, 4, 2] / [1, 3, 2, 2, 1, 2, 1, 4, 4] → \
         [3, 1, 3, 3, 4, 2, 4, 1] / [3, 2, 2, 1, 2, 1, 4, 4] → \
         [3, 3, 4, 2, 4, 1] / [2, 1, 2, 1, 4, 4, 2, 1, 3, 3] → \
         [3, 4, 2, 4, 1, 3, 2] / [1, 2, 1, 4, 4, 2, 1, 3, 3] → \
         [4, 2, 4, 1, 3, 2, 3, 1] / [2, 1, 4, 4, 2, 1, 3, 3]",
            NATURAL,
        )),
    );
    let deal = pos(v4);
    let after12 = trace(&deal, NATURAL, 12).pop().expect("twelve tricks");
    out.push(
        claim(
            "aligned-v4-exchange",
            src,
            "after twelve tricks the players have exchanged their hands",
        )
        .check(Found::text(deal.swapped().to_string(), after12.to_string())),
    );
    loops(out, "aligned-v4-cycle", src, v4, NATURAL, Some(24));
    out.push(aligned_entry("aligned-v4-rounds", src, v4, "rounds of 6 tricks (8 cards each)", 6));
    loops(
        out,
        "aligned-v4-twice",
        src,
        "[2, 1, 4, 4, 2, 1, 3, 3, 2, 1, 4, 4, 2, 1, 3, 3] / [4, 2, 4, 1, 3, 2, 3, 1, 4, 2, 4, 1, 3, 2, 3, 1]",
        NATURAL,
        Some(48),
    );
    loops(
        out,
        "aligned-32-cards",
        src,
        "[2, 1, 4, 4, 2, 1, 3, 3, 6, 5, 8, 8, 6, 5, 7, 7] / [4, 2, 4, 1, 3, 2, 3, 1, 8, 6, 8, 5, 7, 6, 7, 5]",
        NATURAL,
        Some(48),
    );
    let v6 = "[2, 1, 5, 5, 6, 2, 6, 6, 4, 1, 4, 4] / [5, 3, 5, 1, 6, 3, 3, 2, 4, 2, 3, 1]";
    out.push(aligned_entry("aligned-v6", src, v6, "aligned cycle", 0));
    let bad: Vec<u32> = (2..=1000)
        .step_by(2)
        .filter(|&v| v >= 4 && !(0..=v / 4).any(|a| (v - 4 * a) % 6 == 0))
        .collect();
    out.push(
        claim(
            "aligned-4a-6b",
            src,
            "every even V >= 4 is 4a + 6b (a, b >= 0, not both 0), V <= 1000",
        )
        .check(Found::text(
            "all",
            if bad.is_empty() { "all".to_string() } else { format!("not {bad:?}") },
        )),
    );
}

/// Checks that `deal` is an aligned cycle; with `round_tricks` > 0, also that every round has
/// that many tricks.
fn aligned_entry(
    name: &'static str,
    source: &'static str,
    deal: &str,
    published: &str,
    round_tricks: u64,
) -> Claim {
    let computed = match aligned::check(&pos(deal), NATURAL) {
        Ok(a) if round_tricks == 0 => format!(
            "aligned cycle: {} rounds of {} cards, {} tricks",
            a.period_rounds,
            a.half,
            a.period_tricks()
        ),
        Ok(a) => {
            let tricks: Vec<u64> = a.rounds.iter().map(|r| r.tricks).collect();
            if tricks.iter().all(|&t| t == round_tricks) {
                format!("rounds of {round_tricks} tricks ({} cards each)", a.half)
            } else {
                format!("rounds of {tricks:?} tricks")
            }
        }
        Err(why) => format!("not aligned: {why}"),
    };
    let agrees = if round_tricks == 0 {
        computed.starts_with("aligned cycle")
    } else {
        computed == published
    };
    claim(name, source, format!("{deal} is an aligned cycle (natural)")).check(Found {
        published: published.to_string(),
        computed,
        agrees,
    })
}

fn optimized_cycles(out: &mut Vec<Claim>) {
    let src = "article, Avec les jeux de cartes usuels";
    loops(
        out,
        "optimized-v5-cycle",
        src,
        "[3, 1, 5, 4, 3, 2, 4, 3, 3, 2] / [1, 1, 5, 4, 2, 2, 5, 4, 5, 1]",
        OPTIMIZED,
        Some(28),
    );
    loops(
        out,
        "optimized-v7-cycle",
        src,
        "[3, 5, 1, 7, 6, 6, 2, 4, 2, 3, 1, 7, 7, 6, 4, 5, 2, 3, 1] / [5, 5, 4, 4, 3, 2, 1, 7, 6]",
        OPTIMIZED,
        Some(2050),
    );
    loops(
        out,
        "optimized-v11-cycle",
        src,
        "[11, 6, 6, 2, 8, 3, 4, 1, 11, 10, 9, 5, 9, 7, 3, 1, 10, 10, 8, 4, 8, 6, 5, 2] / \
         [10, 4, 6, 1, 11, 8, 7, 5, 9, 2, 5, 1, 11, 7, 7, 3, 9, 4, 3, 2]",
        OPTIMIZED,
        Some(1125),
    );
    // The text says cycles were found "for V=3, V=5 and V=11" and then lists V=5, 7, 11.
    let spec = DeckSpec::new(4, 3).expect("small deck");
    let (positions, looping) = all_positions_looping(spec, OPTIMIZED);
    out.push(
        claim(
            "optimized-found-list",
            src,
            "optimized cycles were found \"for V=3, V=5 and V=11\" (the list that follows gives V=5, 7, 11)",
        )
        .misprint(format!(
            "no position at all of the C=4 V=3 deck loops with optimized stacking ({positions} \
             positions, every split, played), while the V=7 example that follows loops: the \
             text's \"V=3\" should read V=7"
        ))
        .check(Found::text(
            "V=3, 5, 11",
            if looping == 0 { "V=5, 7, 11 (none for V=3)".to_string() } else {
                format!("V=3 has {looping} looping positions")
            },
        )),
    );
}

/// Plays every position (every arrangement, every split) of `spec`; returns how many there
/// are and how many loop.
fn all_positions_looping(spec: DeckSpec, methods: Methods) -> (u64, u64) {
    let mut cards = spec.sorted_deck();
    let (mut positions, mut looping) = (0, 0);
    loop {
        for split in 0..=cards.len() {
            let p = Position::new(cards[..split].to_vec(), cards[split..].to_vec()).expect("valid");
            positions += 1;
            if matches!(run(&p, methods).outcome, Outcome::Cycle(_)) {
                looping += 1;
            }
        }
        if !next_permutation(&mut cards) {
            break;
        }
    }
    (positions, looping)
}

fn random_method(out: &mut Vec<Claim>) {
    let src = "article, box 3";
    // The first player stacks naturally, the second puts the better card behind the worse.
    let methods = Methods::new(Method::Natural, Method::Ascending);
    out.push(
        claim(
            "random-c1-v4-sequence",
            src,
            "[4, 1] / [2, 3] with the printed choices (first natural, second weakest first)",
        )
        .check(sequence(
            "[4, 1] / [2, 3] → [1, 4, 2] / [3] → [4, 2] / [1, 3] → [2, 4, 1] / [3] → [4, 1] / [2, 3]",
            methods,
        )),
    );
    loops(out, "random-c1-v4-cycle", src, "[4, 1] / [2, 3]", methods, Some(4));
    loops(
        out,
        "lakshtanov-52",
        src,
        "[13, 12, 13, 12, 11, 10, 11, 10, 9, 8, 9, 8, 7, 6, 7, 6, 5, 4, 5, 4, 3, 2, 3, 1, 2, 1] / \
         [12, 13, 12, 13, 10, 11, 10, 11, 8, 9, 8, 9, 6, 7, 6, 7, 4, 5, 4, 5, 2, 3, 1, 3, 1, 2]",
        Methods::both(Method::FirstPlayerFirst),
        None,
    );
}

/// Where the authors keep their record deals: one file per family, a deal per (C, V).
const RECORD_FILES: &str = "authors' record files (github.com/cristal-smac/bataille, records/)";

/// Who won, in the words of [`ending_text`]; the record files write it as a pair, `(1, 0)` for
/// the first player, `(0, 1)` for the second, `(0, 0)` for a draw.
fn winner_text(r: &GameResult) -> &'static str {
    match r.outcome {
        Outcome::FirstWins => "first wins",
        Outcome::SecondWins => "second wins",
        Outcome::Draw => "draw",
        Outcome::Cycle(_) => "loops",
        Outcome::Capped => "capped",
    }
}

/// A published record deal: `(name, method, published tricks, published cards, winner, deal)`.
type RecordDeal = (&'static str, Method, u64, u64, &'static str, &'static str);

/// The article's 32- and 52-card records (1999 and 5506 tricks), superseded in the public table
/// (`bataille_records::published`) by 2308 and 5610: the earlier deals of the same files.
#[rustfmt::skip]
const ARTICLE_RECORDS: &[RecordDeal] = &[
    ("article-record-32-natural", Method::Natural, 1999, 2268, "second wins", "[1,1,1,2,2,6,2,4,7,3,8,3,8,7,2,6] / [3,8,3,8,7,6,6,7,5,5,1,4,5,5,4,4]"),
    ("article-record-52-natural", Method::Natural, 5506, 5942, "second wins", "[1,7,7,8,1,1,9,13,1,7,3,6,10,10,2,11,9,8,12,2,7,12,2,4,4,5] / [3,6,6,8,2,10,4,9,11,13,8,3,6,3,12,13,12,5,10,13,5,4,11,5,11,9]"),
];

/// The "maximum possible" games the record files give for the exhaustively explored C=4
/// decks: `(name, method, tricks, cards, winner, deal, longer deal by tricks or "")`. Where the
/// last field is set, the files' game is the longest by cards played but not by tricks, and
/// that deal (found by `bataille explore -c 4 -v V -m M --exhaustive`) plays more tricks.
type MaximumDeal = (&'static str, Method, u64, u64, &'static str, &'static str, &'static str);

#[rustfmt::skip]
const PUBLIC_MAXIMA: &[MaximumDeal] = &[
    ("maximum-c4-v2-natural", Method::Natural, 4, 8, "first wins", "[1,1,2,2] / [1,2,2,1]", "[1,1,1,2] / [2,2,2,1]"),
    ("maximum-c4-v2-optimized", Method::Optimized, 5, 8, "draw", "[2,2,1,1] / [1,1,2,2]", ""),
    ("maximum-c4-v3-natural", Method::Natural, 37, 54, "first wins", "[2,1,3,1,3,2] / [2,3,3,1,1,2]", ""),
    ("maximum-c4-v3-optimized", Method::Optimized, 34, 48, "second wins", "[3,2,2,2,3,3] / [1,1,2,3,1,1]", ""),
    ("maximum-c4-v4-natural", Method::Natural, 142, 192, "first wins", "[2,1,3,3,4,2,3,4] / [4,1,3,1,4,2,2,1]", "[1,3,2,2,1,2,1,4] / [4,4,3,4,1,2,3,3]"),
    ("maximum-c4-v4-optimized", Method::Optimized, 100, 138, "second wins", "[2,4,2,2,1,1,4,1] / [2,3,4,3,1,3,3,4]", "[1,1,1,3,4,2,3,4] / [4,2,4,3,3,1,2,2]"),
];

/// Where the program that found most of the table's records keeps its run logs.
const LOGS_SOURCE: &str =
    "C++ explorer's run logs (github.com/legrosbuffle/bataille_cpp, results/)";

fn length_text(r: &GameResult) -> String {
    if r.outcome.is_finished() {
        format!("{} tricks, {} cards, {}", r.tricks, r.cards, winner_text(r))
    } else {
        ending_text(r)
    }
}

fn records(out: &mut Vec<Claim>) {
    let table =
        PUBLIC_RECORDS.iter().map(|r| (r.id, r.method, r.tricks, r.cards, r.winner, r.deal));
    for (name, m, tricks, cards, winner, deal) in table.chain(ARTICLE_RECORDS.iter().copied()) {
        let r = run(&pos(deal), Methods::both(m));
        out.push(
            claim(name, RECORD_FILES, format!("{deal} ({m}) is a finished game of this length"))
                .evidence(format!("outcome: {}", ending_text(&r)))
                .check(Found::text(
                    format!("{tricks} tricks, {cards} cards, {winner}"),
                    length_text(&r),
                )),
        );
    }
    for &LoggedGame { id: name, tricks, deals, deal, .. } in published::EXPLORER_LOGS {
        let r = run(&pos(deal), OPTIMIZED);
        let computed =
            if r.outcome.is_finished() { format!("{} tricks", r.tricks) } else { ending_text(&r) };
        out.push(
            claim(
                name,
                LOGS_SOURCE,
                format!(
                    "{deal} (optimized) is a finished game of this length, longer than the table's"
                ),
            )
            .evidence(format!("{}; logged after {deals} random deals", length_text(&r)))
            .check(Found::text(format!("{tricks} tricks"), computed)),
        );
    }
    for &(name, m, tricks, cards, winner, deal, longer) in PUBLIC_MAXIMA {
        let methods = Methods::both(m);
        let r = run(&pos(deal), methods);
        let published = format!("{tricks} tricks, {cards} cards, {winner}");
        let text = format!(
            "{deal} ({m}) is the longest game of the deck (\"maximum possible\", exhaustive search)"
        );
        let entry = claim(name, RECORD_FILES, text);
        let own = length_text(&r);
        if longer.is_empty() || own != published {
            // A deal that does not give its published length fails here, longer deal or not.
            out.push(entry.check(Found::text(published, own)));
            continue;
        }
        let l = run(&pos(longer), methods);
        let computed = format!("{own}; longer by tricks: {longer}, {}", length_text(&l));
        let agrees = !(l.outcome.is_finished() && l.tricks > tricks);
        out.push(
            entry
                .differs(format!(
                    "the files' game is a longest game by cards played ({cards} cards, the most \
                     of the deck: `bataille explore -c 4 -v {} -m {m} --exhaustive`), but not \
                     by tricks: {longer} plays {} tricks ({} cards). The files' search keeps \
                     the game with the most cards and reports its tricks",
                    pos(deal).infer_deck().map_or(0, |d| d.values()),
                    l.tricks,
                    l.cards
                ))
                .check(Found { published, computed, agrees }),
        );
    }
}

/// The natural-stacking loops the record files give for C=4.
fn record_file_cycles(out: &mut Vec<Claim>) {
    let src = RECORD_FILES;
    let v3 = "[3, 2, 1, 1, 2, 1] / [2, 1, 3, 2, 3, 3]";
    loops(out, "files-c4-v3-cycle", src, v3, NATURAL, Some(19));
    out.push(
        claim(
            "files-c4-v3-not-aligned",
            src,
            format!("{v3}: the only C=4 V=3 loop, \"unfortunately not aligned\""),
        )
        .check(Found::text(
            "not aligned",
            // No position of the loop with two equal hands is an aligned one.
            match loop_positions(&pos(v3), NATURAL) {
                Some(all)
                    if all.iter().any(|p| {
                        p.first().len() == p.second().len() && aligned::check(p, NATURAL).is_ok()
                    }) =>
                {
                    "aligned".to_string()
                }
                Some(_) => "not aligned".to_string(),
                None => "does not loop".to_string(),
            },
        )),
    );
    // "8545 looping deals lead to 4 different loops, all of 24 tricks and all aligned": the
    // four positions the files list (the 8545 is checked by `bataille explore -c 4 -v 4
    // --exhaustive`, whose cycles.csv holds these four ids).
    let v4 = [
        "[4, 2, 4, 1, 3, 1, 3, 3] / [2, 1, 4, 4, 3, 2, 2, 1]",
        "[3, 1, 3, 3, 2, 1, 4, 4] / [3, 2, 2, 1, 4, 2, 4, 1]",
        "[3, 1, 3, 3, 4, 1, 4, 4] / [3, 2, 2, 1, 4, 2, 2, 1]",
        "[2, 1, 4, 4, 2, 1, 3, 3] / [4, 2, 4, 1, 3, 2, 3, 1]",
    ];
    let mut ids = Vec::new();
    let mut texts = Vec::new();
    for deal in v4 {
        let p = pos(deal);
        let r = run(&p, NATURAL);
        let aligned = if aligned::check(&p, NATURAL).is_ok() { "aligned" } else { "not aligned" };
        if let Outcome::Cycle(c) = r.outcome {
            ids.push(c.id);
        }
        texts.push(format!("{}, {aligned}", loop_text(&r)));
    }
    ids.sort_unstable();
    ids.dedup();
    texts.sort_unstable();
    texts.dedup();
    out.push(
        claim(
            "files-c4-v4-cycles",
            src,
            "the four C=4 V=4 loops listed: distinct, 24 tricks, aligned",
        )
        .evidence(format!("{} distinct cycle ids", ids.len()))
        .check(Found::text(
            "4 distinct loops: loop of 24 tricks, aligned",
            format!("{} distinct loops: {}", ids.len(), texts.join("; ")),
        )),
    );
    let v6 = "[4, 2, 5, 5, 4, 2, 6, 6, 3, 2, 2, 1] / [5, 4, 5, 1, 6, 4, 6, 1, 3, 1, 3, 3]";
    loops(out, "files-c4-v6-cycle", src, v6, NATURAL, Some(36));
    out.push(aligned_entry("files-c4-v6-aligned", src, v6, "aligned cycle", 0));
    loops(
        out,
        "files-c4-v8-cycle",
        src,
        "[8, 5, 5, 1, 6, 2, 6, 6, 7, 2, 7, 7, 4, 2, 4, 4] / [8, 1, 8, 8, 6, 5, 5, 1, 7, 3, 3, 1, 4, 3, 3, 2]",
        NATURAL,
        Some(48),
    );
    loops(
        out,
        "files-c4-v11-cycle",
        src,
        "[1, 3, 4, 9, 4, 9, 6, 5, 10, 7, 6, 10, 5, 7, 10, 11, 11, 2, 8, 7, 9, 5] / \
         [8, 1, 4, 1, 4, 8, 2, 11, 6, 3, 7, 2, 8, 3, 9, 1, 2, 3, 10, 5, 6, 11]",
        NATURAL,
        None,
    );
}

fn spivey_52(out: &mut Vec<Claim>) {
    // Spivey labels cards 1..52 with 1 the strongest: label L is our value 53 - L.
    let first = [
        26, 46, 1, 7, 8, 27, 9, 28, 29, 47, 2, 10, 11, 30, 12, 31, 32, 48, 3, 13, 14, 33, 15, 34,
        35, 49,
    ];
    let second = [
        16, 36, 17, 37, 38, 50, 4, 18, 19, 39, 20, 40, 41, 51, 5, 21, 22, 42, 23, 43, 44, 52, 6,
        24, 25, 45,
    ];
    let map = |h: &[u8]| h.iter().map(|&l| 53 - l).collect::<Vec<Card>>();
    let deal = Position::new(map(&first), map(&second)).expect("52 cards");
    let r = run(&deal, NATURAL);
    let computed = match r.outcome {
        Outcome::Cycle(c) if c.period_tricks > 30_000 => "loop of over 30,000 tricks".to_string(),
        _ => loop_text(&r),
    };
    let exact = match r.outcome {
        Outcome::Cycle(c) => format!(
            "exact: tail {} tricks, period {} tricks ({} cards per player); Spivey's label L \
             mapped to value 53 - L: {}",
            c.tail_tricks, c.period_tricks, c.period_cards, deal
        ),
        _ => String::new(),
    };
    out.push(
        claim(
            "spivey-52",
            "Spivey, Cycles in War (2010)",
            "Spivey's 52-card C=1 deal loops, coming back after over 30,000 battles",
        )
        .evidence(exact)
        .check(Found::text("loop of over 30,000 tricks", computed)),
    );
}
