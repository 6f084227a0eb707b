//! The constructions that seed 003 proposes for its sequences, implemented as written so that
//! they can be compared with the solved game ([`MatchTable`](crate::MatchTable)).
//!
//! Sequences are indexed as in the document: term `i >= 1` is the winning take from a heap of
//! `i + 1` matches; the functions return `v` with `v[i - 1]` the term `i` and `0` where a
//! construction writes nothing.
//!
//! - Base sequences: Fibonacci (`2n`), the recurrences `U_p = U_(p-1) + U_(p-4)` (`3n`),
//!   `U_(p-6)` (`4n`), the general `kn` rule ([`document_kn_base`]), and the recurrence that
//!   the solved games do follow ([`game_base`]).
//! - Insertion of the first terms after each large term: literally ([`literal_insertion`]: only
//!   after base terms, by concatenation) and as the Turbo Pascal program of annex 1 does it
//!   ([`positional_insertion`]: every written term, in place, cascading).
//! - The TI-83 program of annex 2 ([`ti_annex2`]).
//! - The units-digit conjecture for the `n+1` rule ([`n_plus_one_conjecture`]).

/// A base sequence `1 2 3 ...` extended by `U_p = U_(p-1) + U_(p-lag)` (1-based `p`) until
/// terms exceed `max`.
pub fn linear_recurrence(initial: &[u64], lag: usize, max: u64) -> Vec<u64> {
    let mut u = initial.to_vec();
    while u.len() >= lag {
        let p = u.len(); // the 0-based index of the next term
        let Some(next) = u[p - 1].checked_add(u[p - lag]) else { break };
        if next > max {
            break;
        }
        u.push(next);
    }
    u.retain(|&x| x <= max);
    u
}

/// The base sequence of the document's "Généralisation à kn", as written: the numbers `1` to
/// `k+1`, then `U_p = U_(p-1) + U_(p-k)` while `p < k(k-1)` (or `p <= k(k-1)` when
/// `through_end`), then `U_p = U_(p-1) + U_(p-2(k-1))`; terms up to `max`. `k >= 2`.
pub fn document_kn_base(k: u64, max: u64, through_end: bool) -> Vec<u64> {
    assert!(k >= 2, "the kn rule is stated for k >= 2");
    let mut u: Vec<u64> = (1..=k + 1).collect();
    let switch = k * (k - 1);
    loop {
        let p = u.len() as u64 + 1; // the 1-based index of the next term
        let first_phase = if through_end { p <= switch } else { p < switch };
        let lag = if first_phase { k } else { 2 * (k - 1) };
        let Some(next) = u[(p - 2) as usize].checked_add(u[(p - 1 - lag) as usize]) else {
            break;
        };
        if next > max {
            break;
        }
        u.push(next);
    }
    u.retain(|&x| x <= max);
    u
}

/// The base sequence that the `kn` game follows (checked against the solver in this crate's
/// tests and by `verify`): `H_1 = 1`, `H_(j+1) = H_j + H_m` with `m` the least index such that
/// `k·H_m >= H_j`. Terms up to `max`. `k >= 1`.
pub fn game_base(k: u64, max: u64) -> Vec<u64> {
    assert!(k >= 1, "k must be at least 1");
    let mut h = vec![1u64];
    let mut m = 0; // 0-based; non-decreasing as H_j grows
    loop {
        let last = *h.last().expect("non-empty");
        while k.saturating_mul(h[m]) < last {
            m += 1;
        }
        let Some(next) = last.checked_add(h[m]) else { break };
        if next > max {
            break;
        }
        h.push(next);
    }
    h
}

/// The document's reading of its insertion rule taken literally: write the base terms in
/// order; after each base term `A >= threshold`, write the first `quota(A)` terms of the
/// sequence built so far; inserted terms trigger nothing. Returns the first `len` terms (fewer
/// if the base runs out).
pub fn literal_insertion(
    base: &[u64],
    len: usize,
    threshold: u64,
    quota: impl Fn(u64) -> usize,
) -> Vec<u64> {
    let mut t: Vec<u64> = Vec::with_capacity(len);
    for &a in base {
        if t.len() >= len {
            break;
        }
        t.push(a);
        if a >= threshold {
            for r in 0..quota(a) {
                let Some(&x) = t.get(r) else { break };
                t.push(x);
            }
        }
    }
    t.truncate(len);
    t
}

/// Where the inserted terms are copied from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The sequence as built so far (the document's text: "les premiers termes de la suite que
    /// l'on est en train de construire").
    Prefix,
    /// The skeleton holding only the base terms, zero elsewhere: what annex 1's Turbo Pascal
    /// procedure `Inserer_bout_de_tableau` copies (`TabFibo`, not `T`).
    Skeleton,
}

/// The insertion rule as annex 1's program applies it: base term `u` is placed at index `u`;
/// then for `i = 1, 2, ...`, if term `i` is at least `threshold`, terms `i + 1` to
/// `i + quota(term)` are overwritten with terms `1..` of `source`. Every written term thus
/// triggers its own insertion (the cascade the editors' note asks for). Returns terms `1..=len`
/// (0 where nothing was written).
pub fn positional_insertion(
    base: &[u64],
    len: usize,
    threshold: u64,
    quota: impl Fn(u64) -> usize,
    source: Source,
) -> Vec<u64> {
    // 1-based arrays with a spare 0 slot, as in the Pascal program.
    let mut t = vec![0u64; len + 1];
    for &u in base {
        if let Ok(i) = usize::try_from(u)
            && i <= len
        {
            t[i] = u;
        }
    }
    let skeleton = t.clone();
    for i in 1..=len {
        let v = t[i];
        if v >= threshold {
            let q = quota(v);
            for r in 1..=q {
                if i + r > len {
                    break;
                }
                t[i + r] = match source {
                    Source::Prefix => t[r],
                    Source::Skeleton => skeleton[r],
                };
            }
        }
    }
    t.remove(0);
    t
}

/// Annex 1's Turbo Pascal program run with `nombre` matches: the whole table `T[1..nombre-1]`
/// it builds (its answer for `nombre` is the last term). Copies from the skeleton, as printed.
pub fn pascal_annex1(nombre: usize) -> Vec<u64> {
    let len = nombre.saturating_sub(1);
    let fib = crate::matches::fibonacci_up_to(len as u64);
    positional_insertion(&fib, len, 3, |a| (a / 2) as usize, Source::Skeleton)
}

/// Annex 2's TI-83 program for `matches` matches: walks up the Fibonacci pairs `(a, b)` until
/// `c = matches - 1` equals one of them (answer `c`) or lies strictly between them (then
/// `c <- c - a` and start again). The printed program displays an unset variable `m`; the
/// value it computes is `c`, returned here. `None` for 1 match, where it would loop forever.
pub fn ti_annex2(matches: u64) -> Option<u64> {
    let mut c = matches.checked_sub(1)?;
    if c == 0 {
        return None;
    }
    let (mut a, mut b) = (1u64, 2u64);
    loop {
        if c == a || c == b {
            return Some(c);
        }
        if a < c && c < b {
            c -= a;
            a = 1;
            b = 2;
        } else {
            b = b.checked_add(a)?;
            a = b - a;
        }
    }
}

/// How to read "le chiffre des dizaines" beyond 99.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tens {
    /// The tens digit (101 has 0).
    Digit,
    /// The number of tens (101 has 10).
    Count,
}

/// The document's conjecture for the `n+1` rule: the matches to take to win from `a`, or `None`
/// where it gives no rule (units digit 6, and `a = 1`).
pub fn n_plus_one_conjecture(a: u64, tens: Tens) -> Option<u64> {
    if a < 2 {
        return None;
    }
    match a % 10 {
        0 | 5 | 2 | 7 => Some(1),
        3 | 8 => Some(2),
        4 | 9 => Some(3),
        1 => {
            let t = match tens {
                Tens::Digit => (a / 10) % 10,
                Tens::Count => a / 10,
            };
            Some(if t % 2 == 1 {
                10
            } else if (t / 2) % 2 == 1 {
                20
            } else {
                a - 1
            })
        }
        _ => None,
    }
}

/// The quota of the `2n` text: `A div 2`.
pub fn quota_2n(a: u64) -> usize {
    (a / 2) as usize
}

/// The quota of the `3n`, `4n` and `kn` texts: `A div k`, less 1 when `k` divides `A`, that is
/// `(A - 1) div k`.
pub fn quota_kn(k: u64) -> impl Fn(u64) -> usize {
    move |a| (a / k - u64::from(a % k == 0)) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recurrences() {
        assert_eq!(
            linear_recurrence(&[1, 2, 3, 4, 6], 4, 55),
            vec![1, 2, 3, 4, 6, 8, 11, 15, 21, 29, 40, 55]
        );
        assert_eq!(
            linear_recurrence(&[1, 2, 3, 4, 5, 7, 9, 12], 6, 40),
            vec![1, 2, 3, 4, 5, 7, 9, 12, 15, 19, 24, 31, 40]
        );
        assert_eq!(document_kn_base(2, 40, false), vec![1, 2, 3, 5, 8, 13, 21, 34]);
        assert_eq!(document_kn_base(3, 60, false), vec![1, 2, 3, 4, 6, 8, 11, 15, 21, 29, 40, 55]);
        assert_eq!(document_kn_base(3, 10, true), vec![1, 2, 3, 4, 6, 9]);
        assert_eq!(document_kn_base(4, 10, false), vec![1, 2, 3, 4, 5, 7, 10]);
        assert_eq!(game_base(2, 60), vec![1, 2, 3, 5, 8, 13, 21, 34, 55]);
        assert_eq!(game_base(4, 40), vec![1, 2, 3, 4, 5, 7, 9, 12, 15, 19, 24, 31, 40]);
        assert_eq!(game_base(1, 40), vec![1, 2, 4, 8, 16, 32]);
    }

    #[test]
    fn insertions_of_the_2n_text() {
        let fib = crate::matches::fibonacci_up_to(1000);
        let want = [1, 2, 3, 1, 5, 1, 2, 8, 1, 2, 3, 1, 13, 1, 2, 3, 1, 5, 1, 2, 21];
        let p = positional_insertion(&fib, want.len(), 3, quota_2n, Source::Prefix);
        assert_eq!(p, want);
        // Literally, 13 is followed by 6 terms only, so 21 comes one place early.
        let l = literal_insertion(&fib, want.len(), 3, quota_2n);
        assert_eq!(l[..19], want[..19]);
        assert_eq!(l[19], 21);
        assert_eq!(pascal_annex1(22), want);
    }

    #[test]
    fn ti_program() {
        assert_eq!(ti_annex2(1), None);
        assert_eq!(ti_annex2(50), Some(2));
        assert_eq!(ti_annex2(56), Some(55));
        assert_eq!(ti_annex2(14), Some(13));
    }

    #[test]
    fn conjecture_readings() {
        assert_eq!(n_plus_one_conjecture(81, Tens::Digit), Some(80));
        assert_eq!(n_plus_one_conjecture(61, Tens::Digit), Some(20));
        assert_eq!(n_plus_one_conjecture(71, Tens::Digit), Some(10));
        assert_eq!(n_plus_one_conjecture(16, Tens::Digit), None);
        assert_eq!(n_plus_one_conjecture(101, Tens::Digit), Some(100));
        assert_eq!(n_plus_one_conjecture(101, Tens::Count), Some(20));
        assert_eq!(quota_kn(3)(21), 6);
        assert_eq!(quota_kn(3)(22), 7);
    }
}
