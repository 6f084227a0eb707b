//! Seed 000 (CultureMath, "Marienbad"): Bouton's property P, the worked example 33-59-25-3,
//! Marienbad 1-3-5-7 and the misère strategy.

use super::{Check, Claim, Known, entry, parse, spaced, strings};
use crate::nim::{self, NimMove};
use crate::{Convention, Nim, Outcome, Solver, StrategyFailure, check_strategy};

const NORMAL: &str = "seed 000, normal play";
const MISERE: &str = "seed 000, Marienbad (misère)";

/// The rows of the worked example, and the position after "Albertazzi took 5 from the first".
const EXAMPLE: [u64; 4] = [33, 59, 25, 3];
const AFTER: [u64; 4] = [28, 59, 25, 3];
/// The document's reply: "prendre 57 allumettes de la deuxième rangée" (59 -> 2).
const REPLY: NimMove = NimMove { row: 1, from: 59, to: 2 };

pub(super) fn entries() -> Vec<Claim> {
    vec![
        entry("s000-example-sums", NORMAL, example_sums(), Known::None),
        entry("s000-example-lost", NORMAL, example_lost(), Known::None),
        entry(
            "s000-after-move-sums",
            NORMAL,
            sums(&AFTER, "1 3 3 0 2 3", "after 5 are taken from the first row"),
            Known::Misprint(strings(&["4s column"])),
        ),
        entry("s000-reply", NORMAL, reply(), Known::False(strings(&["reply"]))),
        entry(
            "s000-reply-sums",
            NORMAL,
            sums(&REPLY.apply(&AFTER), "2 2 0 2 2", "after the document's reply"),
            Known::Misprint(strings(&["4s column"])),
        ),
        entry("s000-bouton", NORMAL, bouton(Convention::Normal), Known::None),
        entry("s000-marienbad-1357", MISERE, marienbad(), Known::None),
        entry("s000-single-matches", MISERE, single_matches(), Known::None),
        entry("s000-misere-rule", MISERE, bouton(Convention::Misere), Known::None),
        entry("s000-misere-strategy", MISERE, misere_strategy(2), Known::False(strings(&["2-3"]))),
        entry("s000-misere-strategy-fixed", MISERE, misere_strategy(1), Known::None),
    ]
}

fn rows(r: &[u64]) -> String {
    r.iter().map(u64::to_string).collect::<Vec<_>>().join("-")
}

/// Column sums against a printed line; a mismatch is named by its column (`4s column`).
fn sums(r: &[u64], published: &str, when: &str) -> Check {
    let computed: Vec<u64> = nim::column_sums(r).into_iter().map(u64::from).collect();
    let printed = parse::numbers(published);
    let width = computed.len().max(printed.len());
    let at = |v: &[u64], i: usize| (i + v.len()).checked_sub(width).and_then(|j| v.get(j)).copied();
    let mismatches: Vec<String> = (0..width)
        .filter(|&i| at(&computed, i) != at(&printed, i))
        .map(|i| format!("{}s column", 1u64 << (width - 1 - i)))
        .collect();
    let mut evidence = String::new();
    if !mismatches.is_empty() && r[0] == 28 {
        // Which first row gives the printed sums? (The document's slip, found by search.)
        let fits: Vec<u64> = (0..=33)
            .filter(|&x| {
                let mut q = r.to_vec();
                q[0] = x;
                nim::column_sums(&q).into_iter().map(u64::from).collect::<Vec<_>>() == printed
            })
            .collect();
        evidence = format!(
            "28 = 11100 has a 1 in the 4s column; the printed sums are those of a first row of \
             {} (11000), as if 9 and not 5 had been taken",
            spaced(&fits)
        );
    }
    Check {
        claim: format!("binary column sums of {} ({when})", rows(r)),
        published: published.to_string(),
        computed: spaced(&computed),
        mismatches,
        evidence,
    }
}

fn example_sums() -> Check {
    let mut c = sums(&EXAMPLE, "2 2 2 0 2 4", "the worked example");
    c.claim.push_str(": all even, property P");
    c
}

fn example_lost() -> Check {
    let closed = nim::outcome(&EXAMPLE, Convention::Normal);
    Check {
        claim: format!("{} satisfies P, so it is lost for the player to move", rows(&EXAMPLE)),
        published: "lost (P)".into(),
        computed: format!("{} (nim-sum {})", closed.letter(), nim::nim_sum(&EXAMPLE)),
        mismatches: if closed == Outcome::Lose { vec![] } else { vec!["outcome".into()] },
        evidence: "Bouton's rule, itself checked against the solver by s000-bouton".into(),
    }
}

fn reply() -> Check {
    let moves = nim::winning_moves(&AFTER, Convention::Normal);
    let after = REPLY.apply(&AFTER);
    // The first row for which the document's reply would be right.
    let fits = nim::nim_sum(&after[1..]);
    let shown: Vec<String> = moves.iter().map(NimMove::to_string).collect();
    Check {
        claim: format!("from {}, the move that restores P", rows(&AFTER)),
        published: REPLY.to_string(),
        computed: shown.join("; "),
        mismatches: if moves.contains(&REPLY) { vec![] } else { vec!["reply".into()] },
        evidence: format!(
            "after the document's move the rows {} have nim-sum {} (not 0), a win for the \
             opponent; the move is right from {}-59-25-3, the position its column sums describe",
            rows(&after),
            nim::nim_sum(&after),
            fits
        ),
    }
}

/// Bouton's rule against the solver on every position of up to 4 rows of up to 7 (and all
/// positions below 1-3-5-7).
fn bouton(convention: Convention) -> Check {
    let game = Nim { convention };
    let mut solver = Solver::new(&game);
    let mut count = 0;
    let mut mismatches = Vec::new();
    for p in (1..=4).flat_map(|r| nim::sorted_positions(r, 7)) {
        count += 1;
        let brute = solver.outcome(&p).expect("small positions solve");
        if brute != nim::outcome(&p, convention) {
            mismatches.push(rows(&p));
        }
    }
    let claim = match convention {
        Convention::Normal => {
            "a distribution is lost for the player to move exactly when all its binary column \
             sums are even (property P)"
        }
        Convention::Misere => {
            "the last match loses: a distribution with a row of 2 or more is lost exactly when \
             it has property P; with single matches only, exactly when their number is odd"
        }
    };
    Check {
        claim: claim.into(),
        published: "theorem (proved)".into(),
        computed: format!("holds on all {count} positions of up to 4 rows of up to 7 (solver)"),
        mismatches,
        evidence: String::new(),
    }
}

fn marienbad() -> Check {
    let start = vec![1, 3, 5, 7];
    let mut found = Vec::new();
    let mut mismatches = Vec::new();
    for convention in [Convention::Misere, Convention::Normal] {
        let game = Nim { convention };
        let o = Solver::new(&game).outcome(&start).expect("1-3-5-7 solves");
        found.push(format!("{} ({convention})", o.letter()));
        if o != Outcome::Lose || nim::outcome(&start, convention) != o {
            mismatches.push(convention.name().to_string());
        }
    }
    Check {
        claim: "1-3-5-7: the player who starts loses (Pitoëff lets Albertazzi start and always \
                wins)"
            .into(),
        published: "first player loses".into(),
        computed: format!("{} by the solver", found.join(", ")),
        mismatches,
        evidence: "1 xor 3 xor 5 xor 7 = 0".into(),
    }
}

fn single_matches() -> Check {
    let game = Nim { convention: Convention::Misere };
    let mut solver = Solver::new(&game);
    let mut mismatches = Vec::new();
    for m in 1..=12 {
        let p = vec![1u64; m];
        let lost = solver.outcome(&p).expect("small") == Outcome::Lose;
        if lost != (m % 2 == 1) {
            mismatches.push(format!("{m} rows"));
        }
    }
    Check {
        claim: "rows of one match only: an even number (1-1, ...) is won for the player to \
                move, though it has property P; an odd number is lost"
            .into(),
        published: "even: won, odd: lost".into(),
        computed: "even: won, odd: lost, for 1 to 12 rows (solver)".into(),
        mismatches,
        evidence: String::new(),
    }
}

/// The misère strategy of the document, with its threshold: "envoyer P aussi longtemps que ...
/// il subsiste au moins une rangée contenant plus de deux allumettes" (threshold 2); from
/// 1-1-...-1-n take n if the number of rows is even, n - 1 if it is odd.
fn document_strategy(p: &[u64], threshold: u64) -> Option<Vec<u64>> {
    let big: Vec<usize> = (0..p.len()).filter(|&i| p[i] >= 2).collect();
    let rows = p.iter().filter(|&&h| h > 0).count();
    if big.len() <= 1 {
        let i = big.first().copied().or_else(|| p.iter().position(|&h| h == 1))?;
        let to = if rows % 2 == 0 { 0 } else { 1 };
        if to >= p[i] {
            return None;
        }
        let mut q = p.to_vec();
        q[i] = to;
        return Some(q);
    }
    nim::winning_moves(p, Convention::Normal)
        .into_iter()
        .map(|m| m.apply(p))
        .find(|q| q.iter().any(|&h| h > threshold))
}

fn misere_strategy(threshold: u64) -> Check {
    let game = Nim { convention: Convention::Misere };
    let mut starts: Vec<Vec<u64>> = (1..=4)
        .flat_map(|r| nim::sorted_positions(r, 7))
        .filter(|p| nim::outcome(p, Convention::Misere) == Outcome::Win)
        .collect();
    starts.sort_by_key(|p| (p.iter().sum::<u64>(), p.clone()));
    starts.dedup_by(|a, b| game_key(a) == game_key(b));
    let mut mismatches = Vec::new();
    let mut evidence = String::new();
    let mut checked = 0;
    for s in &starts {
        match check_strategy(&game, std::slice::from_ref(s), |p| document_strategy(p, threshold)) {
            Ok(n) => checked += n,
            Err(f) => {
                let at = f.line().last().expect("a failing line is not empty");
                let what = match &f {
                    StrategyFailure::NoMove(_) => "gives no move",
                    StrategyFailure::Illegal(_) => "gives an illegal move",
                    StrategyFailure::Lost(_) => "loses",
                };
                let line: Vec<String> = f.line().iter().map(|p| rows(&game_key(p))).collect();
                let replies: Vec<String> = nim::winning_moves(at, Convention::Misere)
                    .iter()
                    .map(|m| rows(&game_key(&m.apply(at))))
                    .collect();
                mismatches.push(rows(&game_key(at)));
                evidence = format!(
                    "at {} the strategy {what}{}: the winning replies ({}) leave no row of \
                     more than {threshold}",
                    rows(&game_key(at)),
                    if line.len() > 1 {
                        format!(" (line {})", line.join(" → "))
                    } else {
                        String::new()
                    },
                    replies.join(", ")
                );
                break;
            }
        }
    }
    let (claim, published) = if threshold == 2 {
        (
            "misère strategy as written: send P while a row of more than two matches remains; \
             from 1-1-…-1-n take n (even number of rows) or n - 1 (odd)",
            "wins from every position not P",
        )
    } else {
        (
            "the same strategy read with \"more than one match\" (Bouton's misère rule)",
            "wins from every position not P",
        )
    };
    let computed = if mismatches.is_empty() {
        format!(
            "wins from all {} such positions of up to 4 rows of up to 7 ({checked} positions)",
            starts.len()
        )
    } else {
        format!("fails first at {}", mismatches[0])
    };
    Check { claim: claim.into(), published: published.into(), computed, mismatches, evidence }
}

fn game_key(p: &[u64]) -> Vec<u64> {
    let mut q: Vec<u64> = p.iter().copied().filter(|&h| h > 0).collect();
    q.sort_unstable();
    q
}
