//! Seed 003 (MATH.en.JEANS 2004-2005, "La stratégie des allumettes"): the 2n game and its
//! Fibonacci theorem, the annexed programs, two heaps, the 3n, 4n, kn and n+1 rules.

use rustc_hash::FxHashMap;

use super::data;
use super::parse;
use super::{Bounds, Check, Claim, Known, entry, spaced, strings};
use crate::constructions::{
    self, Source, Tens, document_kn_base, game_base, literal_insertion, positional_insertion,
    quota_2n, quota_kn,
};
use crate::matches::{fibonacci_up_to, zeckendorf};
use crate::two_heaps::{Heap, TwoHeapMove};
use crate::{
    Convention, MatchGame, MatchPos, MatchTable, Outcome, Rule, Solver, TwoHeapGame, TwoHeapPos,
    TwoHeapTable, check_strategy,
};

const A1: &str = "seed 003, A.I (2n)";
const A2: &str = "seed 003, A.II (2n)";
const A3: &str = "seed 003, A.III (2n)";
const B1: &str = "seed 003, B.I annexes";
const B2: &str = "seed 003, B.II (two heaps)";
const B3: &str = "seed 003, B.III (3n, 4n, kn)";
const B4: &str = "seed 003, B.IV (n+1)";

/// The largest heap annex 1's program accepts ("Pas plus de 10950").
const PASCAL_MAX: u32 = 10_950;

/// The solved one-heap games the checks share.
struct Tables {
    /// `times[k]`: the `kn` rule, for `k = 1 ..= k_max` (`times[0]` unused).
    times: Vec<MatchTable>,
    n_plus_one: MatchTable,
}

impl Tables {
    fn new(b: &Bounds) -> Tables {
        let solve = |rule| MatchTable::new(MatchGame::misere(rule), b.matches).expect("in range");
        let mut times = vec![solve(Rule::DOUBLE)];
        for k in 1..=b.k_max {
            times.push(solve(Rule::times(k).expect("k >= 1")));
        }
        Tables { times, n_plus_one: solve(Rule::N_PLUS_ONE) }
    }

    fn k(&self, k: u32) -> &MatchTable {
        &self.times[k as usize]
    }
}

pub(super) fn entries(b: &Bounds) -> Vec<Claim> {
    let t = Tables::new(b);
    let n = b.matches;
    let (two_heap_wrong, two_heap_print) = two_heap_table(b);
    vec![
        entry("s003-illustration", A1, illustration(), Known::None),
        entry("s003-2n-list", A1, couple_list(t.k(2), data::LIST_2N, 50), Known::None),
        entry("s003-2n-examples", A1, worked_examples(t.k(2)), Known::None),
        entry("s003-2n-monotone", A1, monotone(b), Known::None),
        entry("s003-2n-sequence", A2, sequence(t.k(2), data::SEQUENCE_2N, "2n"), Known::None),
        entry("s003-fibonacci", A2, fibonacci(), Known::None),
        entry("s003-2n-takes-fibonacci", A2, takes_are_fibonacci(t.k(2)), Known::None),
        entry("s003-2n-construction", A2, construction_2n(t.k(2)), Known::None),
        entry("s003-decompositions", A3, decompositions(), Known::None),
        entry("s003-lemma", A3, lemma(), Known::None),
        entry("s003-theorem", A3, theorem(t.k(2), b), Known::None),
        entry("s003-corollary", A3, corollary(t.k(2)), Known::None),
        entry("s003-50-matches", A3, fifty(t.k(2)), Known::None),
        entry("s003-annex1-pascal", B1, annex1(t.k(2)), Known::None),
        entry("s003-annex2-ti83", B1, annex2(t.k(2)), Known::None),
        entry(
            "s003-two-heaps-table",
            B2,
            two_heap_wrong,
            Known::False(strings(&["(6, 2, 1)", "(6, 3, 1)", "(6, 3, 2)", "(6, 3, 3)"])),
        ),
        entry(
            "s003-two-heaps-print",
            B2,
            two_heap_print,
            Known::Misprint(strings(&["(4, 2, 1)", "(6, 4, 3)"])),
        ),
        entry("s003-two-heaps-equal", B2, equal_heaps(b), Known::None),
        entry("s003-two-heaps-mirror", B2, mirror(b), Known::None),
        entry("s003-two-heaps-50", B2, fifty_fifty(), Known::None),
        entry("s003-3n-sequence", B3, sequence(t.k(3), data::SEQUENCE_3N, "3n"), Known::None),
        entry("s003-3n-base", B3, base(t.k(3), data::BASE_3N, 4, 5), Known::None),
        entry(
            "s003-3n-insertion-literal",
            B3,
            insertion_literal(t.k(3)),
            Known::False(strings(&["a=21"])),
        ),
        entry("s003-3n-note", B3, first_excess(t.k(3)), Known::False(strings(&["A=15"]))),
        entry("s003-3n-insertion", B3, insertion(t.k(3), "3n"), Known::None),
        entry("s003-3n-continuation", B3, continuation(t.k(3)), Known::None),
        entry("s003-4n-sequence", B3, sequence(t.k(4), data::SEQUENCE_4N, "4n"), Known::None),
        entry("s003-4n-base", B3, base(t.k(4), data::BASE_4N, 6, 8), Known::None),
        entry("s003-4n-insertion", B3, insertion(t.k(4), "4n"), Known::None),
        entry(
            "s003-kn-base",
            B3,
            kn_base(&t, b),
            Known::False((4..=b.k_max).map(|k| format!("k={k}")).collect()),
        ),
        entry(
            "s003-kn-recurrence",
            B3,
            kn_recurrence(&t, b),
            Known::False((6..=b.k_max).map(|k| format!("k={k}")).collect()),
        ),
        entry("s003-kn-insertion", B3, kn_insertion(&t, b), Known::None),
        entry("s003-kn-game-base", B3, kn_game_base(&t, b), Known::Computed),
        entry(
            "s003-n+1-list",
            B4,
            couple_list(&t.n_plus_one, data::LIST_N_PLUS_1, 81),
            Known::Misprint(strings(&["a=62"])),
        ),
        entry(
            "s003-n+1-conjecture",
            B4,
            n_plus_one_conjecture(&t.n_plus_one, n),
            Known::False(strings(&["a=6"])),
        ),
        entry("s003-n+1-rule", B4, n_plus_one_rule(&t.n_plus_one), Known::Computed),
    ]
}

fn illustration() -> Check {
    // (50,1) (48,2) (45,3) (44,1): takes 2, 3, 1; "le joueur n°2 peut en retirer jusqu'à 2".
    let line = [(50u32, 0u32), (48, 2), (45, 3), (44, 1)];
    let rule = Rule::DOUBLE;
    let mut mismatches = Vec::new();
    let mut caps = Vec::new();
    for w in line.windows(2) {
        let ((a, prev), (b, took)) = (w[0], w[1]);
        caps.push(rule.cap(prev));
        if a - b != took || u64::from(took) > rule.cap(prev) {
            mismatches.push(format!("({b},{took})"));
        }
    }
    caps.push(rule.cap(line[3].1));
    Check {
        claim: "the sample game (50,1) (48,2) (45,3) (44,1) is legal; the next player may take \
                up to 2"
            .into(),
        published: "may take 2, 4, 6, then 2".into(),
        computed: format!("may take {}", spaced(&caps)),
        mismatches: if caps == [2, 4, 6, 2] { mismatches } else { vec!["caps".into()] },
        evidence: "the opening (50,start) allows 1 or 2, like the document's (50,1)".into(),
    }
}

/// Checks a printed list of couples `(a,n)P` / `(a,n)Gi`: each outcome, each winning take `i`,
/// the first winning `n` of each heap (the list's purpose), and that every heap appears.
fn couple_list(t: &MatchTable, text: &str, max_a: u32) -> Check {
    let printed = parse::entries(text);
    let mut mismatches = Vec::new();
    let mut first_won: FxHashMap<u32, u32> = FxHashMap::default();
    let mut seen = vec![false; max_a as usize + 1];
    let mut couples = 0;
    for e in &printed {
        let Some(a) = e.coords[0] else { continue };
        if a as usize <= max_a as usize {
            seen[a as usize] = true;
        }
        let prevs: Vec<u32> = match e.coords[1] {
            Some(n) => vec![n],
            None => (1..=2 * a + 2).collect(),
        };
        for &n in &prevs {
            couples += 1;
            let p = MatchPos { left: a, prev: n };
            let o = t.outcome(p).expect("in the table");
            if o.is_win() != e.won {
                mismatches.push(format!("({a},{n})"));
                continue;
            }
            if e.won {
                let takes = t.winning_takes(p).expect("in the table");
                if e.tail.parse::<u32>().map_or(true, |i| !takes.contains(&i)) {
                    mismatches.push(e.show());
                }
                let f = first_won.entry(a).or_insert(n);
                *f = (*f).min(n);
            }
        }
    }
    let mut thresholds = 0;
    let mut heaps: Vec<_> = first_won.into_iter().collect();
    heaps.sort_unstable();
    for (a, n) in heaps {
        thresholds += 1;
        if t.threshold(a) != Some(n) {
            mismatches.push(format!("a={a}: first won n={n}"));
        }
    }
    let missing: Vec<u32> = (1..=max_a).filter(|&a| !seen[a as usize]).collect();
    let mut evidence = format!(
        "{} printed entries, {couples} couples ((1,n) for n = 1 to 4); the first winning n of \
         {thresholds} heaps",
        printed.len()
    );
    for &a in &missing {
        let m = t.min_winning_take(a).expect("a >= 2 has a winning take");
        evidence.push_str(&format!(
            "; no entry for a = {a}: ({a},{})G{m} is missing",
            t.threshold(a).expect("won")
        ));
        mismatches.push(format!("a={a}"));
    }
    Check {
        claim: format!(
            "the list of couples (a,n)P / (a,n)Gi up to {max_a} matches ({} rule)",
            t.game().rule
        ),
        published: format!("{} entries", printed.len()),
        computed: if mismatches.is_empty() {
            "all agree".into()
        } else {
            format!("disagree at {}", mismatches.join(", "))
        },
        mismatches,
        evidence,
    }
}

fn worked_examples(t: &MatchTable) -> Check {
    let claims: [(u32, u32, Option<u32>); 6] = [
        (4, 1, None),
        (3, 1, Some(2)),
        (2, 2, Some(1)),
        (4, 2, Some(3)),
        (4, 3, Some(3)),
        (4, 4, Some(3)),
    ];
    let mut mismatches = Vec::new();
    let mut shown = Vec::new();
    for (a, n, take) in claims {
        let p = MatchPos { left: a, prev: n };
        let o = t.outcome(p).expect("small");
        let takes = t.winning_takes(p).expect("small");
        shown.push(match o {
            Outcome::Lose => format!("({a},{n})P"),
            Outcome::Win => format!("({a},{n})G{}", spaced(&takes)),
        });
        let ok = match take {
            None => o == Outcome::Lose,
            Some(i) => takes.contains(&i),
        };
        if !ok {
            mismatches.push(format!("({a},{n})"));
        }
    }
    Check {
        claim: "(4,1)P since (3,1)G2 and (2,2)G1; (4,2)G3 hence (4,3)G3 and (4,4)G3".into(),
        published: "(4,1)P (3,1)G2 (2,2)G1 (4,2)G3 (4,3)G3 (4,4)G3".into(),
        computed: shown.join(" "),
        mismatches,
        evidence: String::new(),
    }
}

/// "Si un couple (a,n) est gagnant, tous les couples (a,n') avec n' > n sont gagnants", by
/// brute force (the generic solver, which knows nothing of thresholds).
fn monotone(b: &Bounds) -> Check {
    let game = MatchGame::misere(Rule::DOUBLE);
    let mut solver = Solver::new(&game);
    let mut mismatches = Vec::new();
    for a in 1..=b.brute {
        let mut won = false;
        for n in 1..=a {
            let w = solver.outcome(&MatchPos { left: a, prev: n }).expect("small").is_win();
            if won && !w {
                mismatches.push(format!("({a},{n})"));
            }
            won |= w;
        }
    }
    Check {
        claim: "if (a,n) is won, so is every (a,n') with n' > n".into(),
        published: "true (argued)".into(),
        computed: format!("holds for every a <= {} and n <= a (generic solver)", b.brute),
        mismatches,
        evidence: String::new(),
    }
}

/// Published terms against the table: term `i` (from 1) is the smallest winning take from
/// `i + 1` matches. A disagreement is named `a=<heap>`.
fn compare_terms(published: &[u64], t: &MatchTable) -> Vec<String> {
    published
        .iter()
        .enumerate()
        .filter(|&(i, &v)| t.min_winning_take(i as u32 + 2).map(u64::from) != Some(v))
        .map(|(i, _)| format!("a={}", i + 2))
        .collect()
}

fn sequence(t: &MatchTable, text: &str, rule: &str) -> Check {
    let published = parse::numbers(text);
    let computed: Vec<u32> = t.winning_sequence().into_iter().take(published.len()).collect();
    Check {
        claim: format!(
            "the winning sequence for the {rule} rule (smallest winning take from 2 to {} matches)",
            published.len() + 1
        ),
        published: spaced(&published),
        computed: spaced(&computed),
        mismatches: compare_terms(&published, t),
        evidence: String::new(),
    }
}

fn fibonacci() -> Check {
    let published = parse::numbers(data::FIBONACCI);
    let computed = fibonacci_up_to(*published.last().expect("non-empty"));
    Check {
        claim: "the Fibonacci numbers F_1 = 1, F_2 = 2, F_n = F_(n-1) + F_(n-2)".into(),
        published: spaced(&published),
        computed: spaced(&computed),
        mismatches: if published == computed { vec![] } else { vec!["list".into()] },
        evidence: String::new(),
    }
}

fn takes_are_fibonacci(t: &MatchTable) -> Check {
    let fib = fibonacci_up_to(u64::MAX);
    let bad: Vec<String> = (2..=t.max_left())
        .filter(|&a| {
            t.min_winning_take(a).is_none_or(|m| fib.binary_search(&u64::from(m)).is_err())
        })
        .map(|a| format!("a={a}"))
        .collect();
    Check {
        claim: "every number of the winning sequence is a Fibonacci number".into(),
        published: "observed up to 55 matches".into(),
        computed: format!("holds up to {} matches", t.max_left()),
        mismatches: bad,
        evidence: String::new(),
    }
}

fn first_difference(a: &[u64], b: &[u64]) -> Option<usize> {
    a.iter().zip(b).position(|(x, y)| x != y).or((a.len() != b.len()).then(|| a.len().min(b.len())))
}

fn game_terms(t: &MatchTable) -> Vec<u64> {
    t.winning_sequence().into_iter().map(u64::from).collect()
}

/// The 2n construction: Fibonacci numbers, and after each written term A >= 3 its first
/// A div 2 terms, written in place so that inserted terms insert in turn.
fn construction_2n(t: &MatchTable) -> Check {
    let game = game_terms(t);
    let fib = fibonacci_up_to(u64::from(t.max_left()));
    let built = positional_insertion(&fib, game.len(), 3, quota_2n, Source::Prefix);
    let printed = parse::numbers(data::CONSTRUCTION_2N);
    let literal = literal_insertion(&fib, game.len(), 3, quota_2n);
    let mut mismatches = Vec::new();
    if built[..printed.len()] != printed[..] {
        mismatches.push("printed lines".to_string());
    }
    if let Some(i) = first_difference(&built, &game) {
        mismatches.push(format!("a={}", i + 2));
    }
    let lit =
        first_difference(&literal, &game).map_or("never".into(), |i| format!("a = {}", i + 2));
    Check {
        claim: "Fibonacci numbers, and after each term A >= 3 the first A div 2 terms (\"13 div 2 \
                = 6 ... et 5 div 2 = 2\": inserted terms insert too)"
            .into(),
        published: format!("{} ...", spaced(&printed)),
        computed: format!("reproduces the game for every heap up to {}", t.max_left()),
        mismatches,
        evidence: format!(
            "written in place (as annex 1 does); inserting only after Fibonacci numbers would \
             first go wrong at {lit}"
        ),
    }
}

fn decompositions() -> Check {
    let mut mismatches = Vec::new();
    let mut count = 0;
    let fib = fibonacci_up_to(u64::MAX);
    for text in data::DECOMPOSITIONS {
        let (a, idx) = parse::decomposition(text).expect("the catalogue's decompositions parse");
        count += 1;
        let parts: Vec<u64> = idx.iter().map(|&i| fib[i - 1]).collect();
        if zeckendorf(a - 1) != parts {
            mismatches.push(format!("a={a}"));
        }
    }
    Check {
        claim: "a = 1 + F_p1 + ... + F_pk with indices at least 2 apart, for a = 2 to 31".into(),
        published: format!("{count} decompositions"),
        computed: "all equal the greedy (Zeckendorf) decomposition of a - 1".into(),
        mismatches,
        evidence: String::new(),
    }
}

fn lemma() -> Check {
    let f = fibonacci_up_to(u64::MAX / 2);
    let bad: Vec<String> = (2..f.len())
        .filter(|&i| !(2 * f[i - 1] > f[i] && f[i] > 2 * f[i - 2]))
        .map(|i| format!("p={}", i + 1))
        .collect();
    Check {
        claim: "2 F_(p-1) > F_p > 2 F_(p-2) for p >= 3".into(),
        published: "proved".into(),
        computed: format!("holds for 3 <= p <= {}", f.len()),
        mismatches: bad,
        evidence: String::new(),
    }
}

/// The theorem: (a, n) is won iff the smallest part F of a - 1 = F_p1 + ... + F_pk satisfies
/// F <= 2n, and taking F wins. Checked on the table for every heap, and position by position
/// with the generic solver for small heaps.
fn theorem(t: &MatchTable, b: &Bounds) -> Check {
    let mut mismatches = Vec::new();
    for a in 2..=t.max_left() {
        let z = *zeckendorf(u64::from(a - 1)).last().expect("a - 1 >= 1");
        if t.min_winning_take(a).map(u64::from) != Some(z) {
            mismatches.push(format!("a={a}"));
        }
    }
    let game = MatchGame::misere(Rule::DOUBLE);
    let mut solver = Solver::new(&game);
    for a in 2..=b.brute {
        let z = *zeckendorf(u64::from(a - 1)).last().expect("a - 1 >= 1");
        for n in 1..=a {
            let p = MatchPos { left: a, prev: n };
            let won = z <= 2 * u64::from(n);
            let brute: Vec<u32> =
                solver.winning_moves(&p).expect("small").into_iter().map(|(m, _)| m).collect();
            if won == brute.is_empty() || (won && !brute.contains(&(z as u32))) {
                mismatches.push(format!("({a},{n})"));
            }
        }
    }
    mismatches.dedup();
    Check {
        claim: "(a,n) is won exactly when the last part F_pk of a = 1 + F_p1 + ... + F_pk is at \
                most 2n, by taking F_pk"
            .into(),
        published: "theorem (proved)".into(),
        computed: format!(
            "holds for every heap up to {} (table) and every (a,n) with a <= {} (generic solver)",
            t.max_left(),
            b.brute
        ),
        mismatches,
        evidence: String::new(),
    }
}

fn corollary(t: &MatchTable) -> Check {
    let bad: Vec<String> = (2..=t.max_left())
        .filter(|&a| {
            let last = *zeckendorf(u64::from(a - 1)).last().expect("a - 1 >= 1");
            t.outcome(MatchPos::opening(a)).expect("in range").is_win() != (last <= 2)
        })
        .map(|a| format!("a={a}"))
        .collect();
    Check {
        claim: "the first player wins exactly when the decomposition of a ends with F_1 or F_2 \
                (1 or 2)"
            .into(),
        published: "corollary (proved)".into(),
        computed: format!("holds for every heap up to {}", t.max_left()),
        mismatches: bad,
        evidence: String::new(),
    }
}

fn fifty(t: &MatchTable) -> Check {
    let z = zeckendorf(49);
    let takes = t.winning_takes(MatchPos::opening(50)).expect("in range");
    let mut mismatches = Vec::new();
    if z != [34, 13, 2] {
        mismatches.push("decomposition".to_string());
    }
    if takes != [2] {
        mismatches.push("move".to_string());
    }
    Check {
        claim: "50 = 1 + F_8 + F_6 + F_2 = 1 + 34 + 13 + 2: the first player wins by taking 2"
            .into(),
        published: "take 2".into(),
        computed: format!(
            "50 = 1 + {}; winning first moves: {}",
            z.iter().map(u64::to_string).collect::<Vec<_>>().join(" + "),
            spaced(&takes)
        ),
        mismatches,
        evidence: String::new(),
    }
}

fn annex1(t: &MatchTable) -> Check {
    let game = game_terms(t);
    let printed = constructions::pascal_annex1(PASCAL_MAX as usize);
    let mut mismatches = Vec::new();
    if let Some(i) = first_difference(&printed, &game[..printed.len()]) {
        mismatches.push(format!("a={}", i + 2));
    }
    let whole = constructions::pascal_annex1(game.len() + 1);
    if let Some(i) = first_difference(&whole, &game) {
        mismatches.push(format!("a={} (beyond the program's limit)", i + 2));
    }
    Check {
        claim: "annex 1 (Turbo Pascal) gives the number of matches to take, up to 10,950".into(),
        published: "T[Nombre - 1] for Nombre <= 10950".into(),
        computed: format!(
            "agrees with the game up to {PASCAL_MAX} (and up to {} with larger arrays)",
            t.max_left()
        ),
        mismatches,
        evidence: "run as printed: it copies from TabFibo (Fibonacci numbers, zeros elsewhere), \
                   not from T; every copied Fibonacci number copies in turn, which fills the \
                   zeros"
            .into(),
    }
}

fn annex2(t: &MatchTable) -> Check {
    let bad: Vec<String> = (2..=t.max_left())
        .filter(|&a| constructions::ti_annex2(u64::from(a)) != t.min_winning_take(a).map(u64::from))
        .map(|a| format!("a={a}"))
        .collect();
    Check {
        claim: "annex 2 (TI-83) gives the number of matches to take".into(),
        published: "program".into(),
        computed: format!("agrees with the game up to {}", t.max_left()),
        mismatches: bad,
        evidence: "the program as printed displays m, which it never sets: the value it \
                   computes is c; for 1 match it would loop forever"
            .into(),
    }
}

/// The printed move of a triplet: `IA` (conversion of `1A`), `2A`, or `A` (digit lost).
fn triplet_move(tail: &str) -> Result<TwoHeapMove, &'static str> {
    let tail = tail.replace('I', "1");
    let heap = match tail.chars().last() {
        Some('A') => Heap::A,
        Some('B') => Heap::B,
        _ => return Err("no heap"),
    };
    let digits = &tail[..tail.len() - 1];
    if digits.is_empty() {
        return Err("digit lost");
    }
    digits.parse().map(|take| TwoHeapMove { heap, take }).map_err(|_| "unreadable")
}

/// The table of triplets: (wrong claims, print defects).
fn two_heap_table(b: &Bounds) -> (Check, Check) {
    let game = TwoHeapGame { rule: Rule::DOUBLE, convention: Convention::Misere };
    let t = TwoHeapTable::new(game, b.two_heaps.max(9)).expect("in range");
    let mut wrong = Vec::new();
    let mut wrong_why = Vec::new();
    let mut print = Vec::new();
    let mut print_why = Vec::new();
    let mut count = 0;
    for line in data::TRIPLETS {
        let entries = parse::entries(line);
        // The previous take shared by a printed row.
        let mut counts: FxHashMap<u32, usize> = FxHashMap::default();
        for e in &entries {
            if let Some(n) = e.coords[2] {
                *counts.entry(n).or_default() += 1;
            }
        }
        let row_n = counts.into_iter().max_by_key(|&(n, c)| (c, std::cmp::Reverse(n))).map(|x| x.0);
        for e in &entries {
            let (a, bb) = (e.coords[0].expect("number"), e.coords[1].expect("number"));
            let prevs: Vec<u32> = match (e.coords[2], row_n) {
                (Some(n), Some(r)) if n != r => {
                    let key = format!("({a}, {bb}, {r})");
                    print_why.push(format!("{} is printed in the row of n = {r}: {key}", e.show()));
                    print.push(key);
                    vec![r]
                }
                (Some(n), _) => vec![n],
                (None, _) => (0..=4).collect(),
            };
            for n in prevs {
                count += 1;
                let p = TwoHeapPos { a, b: bb, prev: n };
                let key = format!("({a}, {bb}, {n})");
                let o = t.outcome(p).expect("in range");
                let moves = t.winning_moves(p).expect("in range");
                let shown: Vec<String> = moves.iter().map(TwoHeapMove::to_string).collect();
                if o.is_win() != e.won {
                    wrong_why.push(format!(
                        "{key} is {} ({})",
                        o.letter(),
                        if o.is_win() { shown.join(" ") } else { "no winning move".into() }
                    ));
                    wrong.push(key);
                    continue;
                }
                if !e.won {
                    continue;
                }
                match triplet_move(&e.tail) {
                    Ok(m) if moves.contains(&m) => {}
                    Ok(m) => {
                        wrong_why
                            .push(format!("{key}: {m} does not win ({} does)", shown.join(" ")));
                        wrong.push(key);
                    }
                    Err(why) => {
                        print_why.push(format!("{key}: move {why}, computed {}", shown.join(" ")));
                        print.push(key);
                    }
                }
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    print.sort();
    print.dedup();
    let explain = |why: &[String]| why.join("; ");
    let single = MatchTable::new(MatchGame::misere(Rule::DOUBLE), 6).expect("small");
    let six = single.outcome(MatchPos { left: 6, prev: 2 }).expect("small");
    let wrong_check = Check {
        claim: "the table of triplets (a, b, n), outcomes and winning moves, up to (6, 6, 3)"
            .into(),
        published: format!("{count} triplets"),
        computed: if wrong.is_empty() {
            "all agree".into()
        } else {
            format!("{} wrong: {}", wrong.len(), wrong.join(", "))
        },
        evidence: format!(
            "{}; taking 2B from (6, 2, 1) leaves one heap of 6 after a take of 2, which is {} \
             (the document's own (6,2)P): the errors at (6, 3, n) follow from that one",
            explain(&wrong_why),
            six.letter()
        ),
        mismatches: wrong,
    };
    let print_check = Check {
        claim: "the same table, as converted to text".into(),
        published: "moves written IA, IB (for 1A, 1B)".into(),
        computed: format!("{} print defects", print.len()),
        evidence: explain(&print_why),
        mismatches: print,
    };
    (wrong_check, print_check)
}

fn equal_heaps(b: &Bounds) -> Check {
    let game = TwoHeapGame { rule: Rule::DOUBLE, convention: Convention::Misere };
    let t = TwoHeapTable::new(game, b.two_heaps).expect("in range");
    let mut mismatches = Vec::new();
    for a in 1..=b.two_heaps {
        for n in 0..=2 * a {
            let o = t.outcome(TwoHeapPos { a, b: a, prev: n }).expect("in range");
            if o.is_win() != (a == 1) {
                mismatches.push(format!("({a}, {a}, {n})"));
            }
        }
    }
    Check {
        claim: "(a, a, n) is lost for a >= 2, whatever n; (1, 1, n) is won".into(),
        published: "table up to (9, 9, n), proof for all a".into(),
        computed: format!("holds for a <= {} and every n (from the opening to 2a)", b.two_heaps),
        mismatches,
        evidence: String::new(),
    }
}

/// The second player's strategy of the proof: take what the opponent took from the other heap
/// while both have 2 or more; if he leaves 1 in a heap, empty the other; if he empties one,
/// leave 1 in the other.
fn mirror_move(p: &TwoHeapPos) -> Option<TwoHeapPos> {
    let (lo, hi) = (p.a.min(p.b), p.a.max(p.b));
    let to = match lo {
        0 if hi >= 2 => 1,
        0 => return None,
        1 => 0,
        _ => lo,
    };
    let take = hi - to;
    if take == 0 {
        return None;
    }
    Some(if p.a >= p.b {
        TwoHeapPos { a: to, b: p.b, prev: take }
    } else {
        TwoHeapPos { a: p.a, b: to, prev: take }
    })
}

fn mirror(b: &Bounds) -> Check {
    let game = TwoHeapGame { rule: Rule::DOUBLE, convention: Convention::Misere };
    let mut starts = Vec::new();
    let mut out = Vec::new();
    for a in 2..=b.mirror {
        for n in 0..=a {
            out.clear();
            crate::Game::moves(&game, &TwoHeapPos { a, b: a, prev: n }, &mut out);
            starts.extend(out.iter().map(|&(_, q)| q));
        }
    }
    let r = check_strategy(&game, &starts, mirror_move);
    let (computed, mismatches) = match &r {
        Ok(n) => (
            format!(
                "wins against every line from (a, a, n), 2 <= a <= {} ({n} positions)",
                b.mirror
            ),
            vec![],
        ),
        Err(f) => {
            let line: Vec<String> = f.line().iter().map(TwoHeapPos::to_string).collect();
            (format!("fails: {}", line.join(" → ")), vec![line[0].clone()])
        }
    };
    Check {
        claim: "the second player wins by taking the opponent's number from the other heap (and \
                the two end cases of the proof)"
            .into(),
        published: "proved by induction".into(),
        computed,
        mismatches,
        evidence: String::new(),
    }
}

fn fifty_fifty() -> Check {
    let game = TwoHeapGame { rule: Rule::DOUBLE, convention: Convention::Misere };
    let t = TwoHeapTable::new(game, 50).expect("in range");
    let o = t.outcome(TwoHeapPos { a: 50, b: 50, prev: 0 }).expect("in range");
    Check {
        claim: "two heaps of 50: the second player wins".into(),
        published: "second player".into(),
        computed: format!("(50, 50, start) is {}", o.letter()),
        mismatches: if o == Outcome::Lose { vec![] } else { vec!["(50, 50, start)".into()] },
        evidence: String::new(),
    }
}

/// The base sequence: its printed terms, and the recurrence with `lag` from term `from + 1` on,
/// over the whole table.
fn base(t: &MatchTable, text: &str, lag: usize, from: usize) -> Check {
    let printed = parse::numbers(text);
    let game: Vec<u64> = t.base_sequence().into_iter().map(u64::from).collect();
    let mut mismatches: Vec<String> = (0..printed.len())
        .filter(|&i| game.get(i) != Some(&printed[i]))
        .map(|i| format!("U_{}", i + 1))
        .collect();
    for p in from + 1..=game.len() {
        if game[p - 1] != game[p - 2] + game[p - 1 - lag] {
            mismatches.push(format!("U_{p}"));
        }
    }
    Check {
        claim: format!(
            "the base sequence ({} rule): {} ..., U_p = U_(p-1) + U_(p-{lag})",
            t.game().rule,
            spaced(&printed[..from])
        ),
        published: spaced(&printed),
        computed: format!(
            "{} ...; the recurrence holds for all {} terms up to {}",
            spaced(&game[..printed.len().min(game.len())]),
            game.len(),
            t.max_left()
        ),
        mismatches,
        evidence: "base terms: the takes t with m(t + 1) = t, where only leaving 1 match wins"
            .into(),
    }
}

fn insertion_literal(t: &MatchTable) -> Check {
    let k = u64::from(t.game().rule.k());
    let game = game_terms(t);
    let base: Vec<u64> = t.base_sequence().into_iter().map(u64::from).collect();
    let built = literal_insertion(&base, game.len(), k + 1, quota_kn(k));
    let d = first_difference(&built, &game);
    let (computed, mismatches, evidence) = match d {
        None => ("reproduces the game".into(), vec![], String::new()),
        Some(i) => {
            let before = base.iter().rev().find(|&&u| u <= i as u64).copied().unwrap_or(0);
            let next = base.iter().find(|&&u| u > before).copied().unwrap_or(0);
            let printed = built[i];
            (
                format!("first wrong at a = {}: {} instead of {}", i + 2, printed, game[i]),
                vec![format!("a={}", i + 2)],
                format!(
                    "after {before}, the rule writes {} terms before {next}, the game has {}",
                    quota_kn(k)(before),
                    next - before - 1
                ),
            )
        }
    };
    Check {
        claim: format!(
            "{}n: after each base term A >= {}, write the first A div {k} terms (less 1 if {k} \
             divides A), read literally (inserted terms insert nothing)",
            k,
            k + 1
        ),
        published: "rule".into(),
        computed,
        mismatches,
        evidence,
    }
}

/// The editors' note: "Un tel cas de dépassement se produit dès la valeur A=21 : sept termes
/// au final vont être intercalés avant B=29 et non six".
fn first_excess(t: &MatchTable) -> Check {
    let k = u64::from(t.game().rule.k());
    let base: Vec<u64> = t.base_sequence().into_iter().map(u64::from).collect();
    let excess: Vec<String> = base
        .windows(2)
        .filter(|w| w[0] > k && w[1] - w[0] - 1 > quota_kn(k)(w[0]) as u64)
        .map(|w| {
            format!(
                "A = {}: {} terms before {}, not {}",
                w[0],
                w[1] - w[0] - 1,
                w[1],
                quota_kn(k)(w[0])
            )
        })
        .collect();
    let first = base
        .windows(2)
        .find(|w| w[0] > k && w[1] - w[0] - 1 > quota_kn(k)(w[0]) as u64)
        .map(|w| w[0]);
    Check {
        claim: "3n (editors' note): the first base term A followed by more terms than the rule's \
                quotient is A = 21"
            .into(),
        published: "A = 21: seven terms before 29, not six".into(),
        computed: excess.iter().take(3).cloned().collect::<Vec<_>>().join("; "),
        mismatches: first.filter(|&a| a != 21).map(|a| format!("A={a}")).into_iter().collect(),
        evidence: "the published sequence shows it too: 15 1 2 3 4 1 21".into(),
    }
}

fn insertion(t: &MatchTable, rule: &str) -> Check {
    let k = u64::from(t.game().rule.k());
    let game = game_terms(t);
    let base: Vec<u64> = t.base_sequence().into_iter().map(u64::from).collect();
    let built = positional_insertion(&base, game.len(), k + 1, quota_kn(k), Source::Prefix);
    let mismatches: Vec<String> =
        first_difference(&built, &game).map(|i| format!("a={}", i + 2)).into_iter().collect();
    Check {
        claim: format!(
            "{rule}: the base sequence, and after every written term A >= {} its first A div {k} \
             terms (less 1 if {k} divides A), inserted terms inserting in turn (editors' reading)",
            k + 1
        ),
        published: "rule and note".into(),
        computed: format!("reproduces the game for every heap up to {}", t.max_left()),
        mismatches,
        evidence: String::new(),
    }
}

fn continuation(t: &MatchTable) -> Check {
    let printed = parse::numbers(data::CONTINUATION_3N);
    let start = parse::numbers(data::SEQUENCE_3N).len();
    let game = game_terms(t);
    let computed = &game[start..start + printed.len()];
    Check {
        claim: "the 3n sequence goes on with \"11 1 2 3 55 ... ?\" (editors' guess)".into(),
        published: spaced(&printed),
        computed: spaced(computed),
        mismatches: (0..printed.len())
            .filter(|&i| computed[i] != printed[i])
            .map(|i| format!("a={}", start + i + 2))
            .collect(),
        evidence: String::new(),
    }
}

fn kn_base(t: &Tables, b: &Bounds) -> Check {
    let mut mismatches = Vec::new();
    let mut found = Vec::new();
    for k in 2..=b.k_max {
        let game: Vec<u64> = t.k(k).base_sequence().into_iter().map(u64::from).collect();
        let doc = document_kn_base(u64::from(k), u64::from(b.matches), false);
        match first_difference(&doc, &game) {
            None => found.push(format!("k={k}: agree")),
            Some(i) => {
                found.push(format!(
                    "k={k}: U_{} is {} by the rule, {} in the game",
                    i + 1,
                    doc.get(i).map_or("-".into(), u64::to_string),
                    game.get(i).map_or("-".into(), u64::to_string)
                ));
                mismatches.push(format!("k={k}"));
            }
        }
    }
    let inclusive = document_kn_base(3, 100, true);
    let game3: Vec<u64> = t.k(3).base_sequence().into_iter().map(u64::from).collect();
    let incl = first_difference(&inclusive, &game3)
        .map_or("agrees".into(), |i| format!("gives U_{} = {} for k = 3", i + 1, inclusive[i]));
    Check {
        claim: "base sequence for kn: 1 to k+1, then U_p = U_(p-1) + U_(p-k) until p = k(k-1), \
                then U_p = U_(p-1) + U_(p-2(k-1))"
            .into(),
        published: "conjecture".into(),
        computed: found.join("; "),
        mismatches,
        evidence: format!(
            "\"until p = k(k-1)\" read as p < k(k-1), the reading that gives the document's own \
             3n base (read as p <= k(k-1) it {incl}); for k = 4 the document's own 4n base \
             1 2 3 4 5 7 9 12 contradicts the rule; heaps up to {}",
            b.matches
        ),
    }
}

fn kn_recurrence(t: &Tables, b: &Bounds) -> Check {
    let mut mismatches = Vec::new();
    let mut found = Vec::new();
    for k in 2..=b.k_max as usize {
        let game: Vec<u64> = t.k(k as u32).base_sequence().into_iter().map(u64::from).collect();
        let lag = 2 * (k - 1);
        let from = (k * (k - 1)).max(lag + 1);
        let bad: Vec<usize> = (from..=game.len())
            .filter(|&p| game[p - 1] != game[p - 2] + game[p - 1 - lag])
            .collect();
        if let (Some(first), Some(last)) = (bad.first(), bad.last()) {
            found.push(format!(
                "k={k}: fails at {} of U_{from}..U_{} (first U_{first}, last U_{last})",
                bad.len(),
                game.len()
            ));
            mismatches.push(format!("k={k}"));
        } else {
            found.push(format!("k={k}: holds for U_{from}..U_{}", game.len()));
        }
    }
    Check {
        claim: "for kn, the base sequence satisfies U_p = U_(p-1) + U_(p-2(k-1)) from p = k(k-1) \
                on"
        .into(),
        published: "conjecture".into(),
        computed: found.join("; "),
        mismatches,
        evidence: format!(
            "base sequences of the games up to {} matches; the lag the games follow is given by \
             s003-kn-game-base",
            b.matches
        ),
    }
}

fn kn_insertion(t: &Tables, b: &Bounds) -> Check {
    let mut mismatches = Vec::new();
    for k in 2..=b.k_max {
        let table = t.k(k);
        let k = u64::from(k);
        let game = game_terms(table);
        let base: Vec<u64> = table.base_sequence().into_iter().map(u64::from).collect();
        let built = positional_insertion(&base, game.len(), k + 1, quota_kn(k), Source::Prefix);
        if let Some(i) = first_difference(&built, &game) {
            mismatches.push(format!("k={k}: a={}", i + 2));
        }
    }
    Check {
        claim: "kn: after every written term A >= k+1 of the base sequence, its first A div k \
                terms (less 1 if k divides A), inserting in turn"
            .into(),
        published: "conjecture".into(),
        computed: format!(
            "with the games' base sequences, reproduces every game for 2 <= k <= {}, heaps up to \
             {}",
            b.k_max, b.matches
        ),
        mismatches,
        evidence: "the insertion rule holds; only the base sequence of the conjecture is wrong \
                   (s003-kn-base)"
            .into(),
    }
}

fn kn_game_base(t: &Tables, b: &Bounds) -> Check {
    let mut mismatches = Vec::new();
    for k in 1..=b.k_max {
        let game: Vec<u64> = t.k(k).base_sequence().into_iter().map(u64::from).collect();
        let rule = game_base(u64::from(k), u64::from(b.matches) - 1);
        if let Some(i) = first_difference(&rule, &game) {
            mismatches.push(format!("k={k}: U_{}", i + 1));
        }
    }
    let eg = game_base(7, 200);
    Check {
        claim: "the base sequence of the kn game: H_1 = 1, H_(j+1) = H_j + H_m, m the least \
                index with k·H_m >= H_j"
            .into(),
        published: "not in the document".into(),
        computed: format!(
            "holds for 1 <= k <= {} up to {} matches (e.g. k = 7: {})",
            b.k_max,
            b.matches,
            spaced(&eg)
        ),
        mismatches,
        evidence: "a rule that does hold, in place of the kn conjecture".into(),
    }
}

fn n_plus_one_conjecture(t: &MatchTable, n: u32) -> Check {
    let mut mismatches = Vec::new();
    let first = |tens: Tens, units_one: bool| -> Option<(u32, Option<u64>, u64)> {
        (2..=t.max_left()).find_map(|a| {
            let m = u64::from(t.min_winning_take(a)?);
            let c = constructions::n_plus_one_conjecture(u64::from(a), tens);
            (c != Some(m) && (!units_one || a % 10 == 1)).then_some((a, c, m))
        })
    };
    let gap = first(Tens::Digit, false);
    if let Some((a, _, _)) = gap {
        mismatches.push(format!("a={a}"));
    }
    let show = |f: Option<(u32, Option<u64>, u64)>| match f {
        None => format!("never up to {n}"),
        Some((a, c, m)) => format!(
            "a = {a}: {} where the winning take is {m}",
            c.map_or("no rule".into(), |c| format!("take {c}"))
        ),
    };
    let digit = first(Tens::Digit, true);
    let count = first(Tens::Count, true);
    let within: Vec<u32> = (2..=81)
        .filter(|&a| {
            constructions::n_plus_one_conjecture(u64::from(a), Tens::Digit)
                != t.min_winning_take(a).map(u64::from)
        })
        .collect();
    Check {
        claim: "n+1: multiples of 5 and heaps ending in 2 or 7: take 1; in 3 or 8: take 2; in 4 \
                or 9: take 3; ending in 1: by the tens digit (odd: 10; even, half odd: 20; \
                else a - 1)"
            .into(),
        published: "conjecture".into(),
        computed: format!("first wrong at {}", show(gap)),
        mismatches,
        evidence: format!(
            "heaps ending in 6 have no rule (up to 81: {}); the rule for heaps ending in 1 first \
             fails at {} (tens digit), at {} (number of tens)",
            spaced(&within),
            show(digit),
            show(count)
        ),
    }
}

/// The rule the n+1 game follows: m(a) = 1, 2, 3 for a = 0 or 2, 3, 4 (mod 5); for a = 1
/// (mod 5), 5 times the largest power of 2 dividing (a - 1) / 5.
fn n_plus_one_rule(t: &MatchTable) -> Check {
    let rule = |a: u64| match a % 5 {
        0 | 2 => 1,
        3 => 2,
        4 => 3,
        _ => {
            let j = (a - 1) / 5;
            5 * (j & j.wrapping_neg())
        }
    };
    let bad: Vec<String> = (2..=t.max_left())
        .filter(|&a| t.min_winning_take(a).map(u64::from) != Some(rule(u64::from(a))))
        .map(|a| format!("a={a}"))
        .collect();
    Check {
        claim: "n+1: the winning take is 1, 1, 2, 3 for a = 0, 2, 3, 4 (mod 5), and for a = 1 \
                (mod 5) it is 5·2^v, 2^v the largest power of 2 dividing (a - 1)/5"
            .into(),
        published: "not in the document".into(),
        computed: format!("holds for every heap up to {}", t.max_left()),
        mismatches: bad,
        evidence: "a rule that does hold, in place of the conjecture".into(),
    }
}
