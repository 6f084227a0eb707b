//! Nim on any heaps (rows), normal and misère play: the game, Bouton's closed forms and the
//! binary column sums of seeds 000 and 001.
//!
//! A move takes at least one object from one row. Bouton (1901): under normal play a position
//! is lost for the player to move exactly when the xor of the rows (the "digital sum" of seed
//! 001, the even column sums of the "property P" of seed 000) is zero. Under misère play
//! (Marienbad: the player who takes the last one loses) the same holds as long as some row has
//! two or more objects; when every row has at most one, the player to move loses exactly when
//! the number of non-empty rows is odd.

use std::fmt;

use crate::game::{Convention, Game, Outcome};

/// Nim under a play convention. Positions are the row sizes, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Nim {
    /// Who wins when no object is left.
    pub convention: Convention,
}

/// A Nim move: row `row` (0-based) goes from `from` to `to` objects (`to < from`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NimMove {
    /// The row, counted from 0.
    pub row: usize,
    /// Objects in the row before the move.
    pub from: u64,
    /// Objects left in the row after the move.
    pub to: u64,
}

impl NimMove {
    /// How many objects the move takes.
    pub fn take(&self) -> u64 {
        self.from - self.to
    }

    /// The position after the move.
    pub fn apply(&self, heaps: &[u64]) -> Vec<u64> {
        let mut h = heaps.to_vec();
        h[self.row] = self.to;
        h
    }
}

impl fmt::Display for NimMove {
    /// `take 53 from row 2 (59 -> 6)`, rows counted from 1 as people count them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "take {} from row {} ({} -> {})", self.take(), self.row + 1, self.from, self.to)
    }
}

impl Game for Nim {
    type Position = Vec<u64>;
    type Move = NimMove;

    fn convention(&self) -> Convention {
        self.convention
    }

    fn moves(&self, p: &Vec<u64>, out: &mut Vec<(NimMove, Vec<u64>)>) {
        for (row, &from) in p.iter().enumerate() {
            for to in (0..from).rev() {
                let m = NimMove { row, from, to };
                out.push((m, m.apply(p)));
            }
        }
    }

    /// Rows in increasing order, empty rows dropped: the same game.
    fn canonical(&self, p: &Vec<u64>) -> Vec<u64> {
        let mut h: Vec<u64> = p.iter().copied().filter(|&x| x > 0).collect();
        h.sort_unstable();
        h
    }
}

/// The xor of the rows (the "somme digitale" of seed 001).
pub fn nim_sum(heaps: &[u64]) -> u64 {
    heaps.iter().fold(0, |a, &h| a ^ h)
}

/// Bouton's closed form for the outcome of `heaps` under `convention`.
pub fn outcome(heaps: &[u64], convention: Convention) -> Outcome {
    let big = heaps.iter().filter(|&&h| h >= 2).count();
    let lose = match convention {
        Convention::Normal => nim_sum(heaps) == 0,
        Convention::Misere if big == 0 => heaps.iter().filter(|&&h| h == 1).count() % 2 == 1,
        Convention::Misere => nim_sum(heaps) == 0,
    };
    Outcome::from_win(!lose)
}

/// Every winning move from `heaps` under `convention`, by the closed form (any heap sizes), in
/// row order. Empty for a P-position.
pub fn winning_moves(heaps: &[u64], convention: Convention) -> Vec<NimMove> {
    let big = heaps.iter().filter(|&&h| h >= 2).count();
    let ones = heaps.iter().filter(|&&h| h == 1).count();
    match convention {
        Convention::Misere if big == 0 => {
            // Only single objects: taking one is the only kind of move; it wins iff it leaves
            // an odd number of them.
            if ones % 2 == 0 { single_moves(heaps, |h| h == 1, |_| 0) } else { Vec::new() }
        }
        Convention::Misere if big == 1 => {
            // Reduce the big row to 0 or 1 so that an odd number of single objects remain.
            let to = if ones % 2 == 0 { 1 } else { 0 };
            single_moves(heaps, |h| h >= 2, |_| to)
        }
        _ => {
            let s = nim_sum(heaps);
            single_moves(heaps, |h| h ^ s < h, |h| h ^ s)
        }
    }
}

fn single_moves(
    heaps: &[u64],
    pick: impl Fn(u64) -> bool,
    to: impl Fn(u64) -> u64,
) -> Vec<NimMove> {
    heaps
        .iter()
        .enumerate()
        .filter(|&(_, &h)| pick(h))
        .map(|(row, &from)| NimMove { row, from, to: to(from) })
        .collect()
}

/// The column sums of the rows written in binary, most significant column first, as seed 000
/// draws them under its tables (33, 59, 25, 3 give `[2, 2, 2, 0, 2, 4]`). Property P of seed
/// 000 holds when every sum is even. Empty for rows that are all zero.
pub fn column_sums(heaps: &[u64]) -> Vec<u32> {
    let width = heaps.iter().map(|&h| 64 - h.leading_zeros()).max().unwrap_or(0);
    (0..width).rev().map(|bit| heaps.iter().map(|&h| ((h >> bit) & 1) as u32).sum()).collect()
}

/// Every position of `rows` rows of at most `max` objects, rows in non-decreasing order (one
/// representative per Nim position), in lexicographic order.
pub fn sorted_positions(rows: usize, max: u64) -> Vec<Vec<u64>> {
    let mut out = vec![vec![]];
    for _ in 0..rows {
        let mut next = Vec::new();
        for p in &out {
            let lo = p.last().copied().unwrap_or(0);
            for h in lo..=max {
                let mut q = p.clone();
                q.push(h);
                next.push(q);
            }
        }
        out = next;
    }
    out
}

/// Every position below `bounds` (row `i` from 0 to `bounds[i]`), in lexicographic order.
pub fn positions_below(bounds: &[u64]) -> Vec<Vec<u64>> {
    let mut out = vec![vec![]];
    for &b in bounds {
        out = out
            .into_iter()
            .flat_map(|p: Vec<u64>| {
                (0..=b).map(move |h| {
                    let mut q = p.clone();
                    q.push(h);
                    q
                })
            })
            .collect();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Solver;

    /// Closed forms equal brute force on every position of 1 to 6 rows (up to 12 objects in one
    /// row, 9 in four, 4 in six), outcomes and full sets of winning moves, both conventions.
    #[test]
    fn closed_forms_match_the_solver() {
        for convention in [Convention::Normal, Convention::Misere] {
            let game = Nim { convention };
            let mut solver = Solver::new(&game);
            let mut checked = 0;
            for (rows, max) in [(1, 12), (2, 10), (3, 9), (4, 9), (5, 6), (6, 4)] {
                for p in sorted_positions(rows, max) {
                    let o = solver.outcome(&p).unwrap();
                    assert_eq!(outcome(&p, convention), o, "{convention} {p:?}");
                    let brute: Vec<NimMove> =
                        solver.winning_moves(&p).unwrap().into_iter().map(|(m, _)| m).collect();
                    let mut closed = winning_moves(&p, convention);
                    closed.sort_by_key(|m| (m.row, std::cmp::Reverse(m.from - m.to)));
                    let mut brute = brute;
                    brute.sort_by_key(|m| (m.row, std::cmp::Reverse(m.from - m.to)));
                    assert_eq!(closed, brute, "{convention} {p:?}");
                    if p.iter().any(|&h| h > 0) {
                        assert_eq!(o.is_win(), !closed.is_empty(), "{convention} {p:?}");
                    }
                    checked += 1;
                }
            }
            assert_eq!(checked, 13 + 66 + 220 + 715 + 462 + 210);
        }
    }

    proptest::proptest! {
        /// On large heaps, the closed forms are consistent with themselves: winning moves lead
        /// to P-positions, and from a P-position every move (here: to each smaller size of each
        /// row, sampled) leads to an N-position.
        #[test]
        fn closed_forms_are_consistent(
            heaps in proptest::collection::vec(0u64..1 << 40, 1..6),
            cut in 0u64..1 << 40,
            misere in proptest::bool::ANY,
        ) {
            let c = if misere { Convention::Misere } else { Convention::Normal };
            let moves = winning_moves(&heaps, c);
            let any = heaps.iter().any(|&h| h > 0);
            proptest::prop_assert_eq!(outcome(&heaps, c).is_win(), !moves.is_empty() || !any);
            for m in &moves {
                proptest::prop_assert_eq!(outcome(&m.apply(&heaps), c), Outcome::Lose);
            }
            if outcome(&heaps, c) == Outcome::Lose {
                for (row, &h) in heaps.iter().enumerate() {
                    if h > 0 {
                        let m = NimMove { row, from: h, to: cut % h };
                        proptest::prop_assert_eq!(outcome(&m.apply(&heaps), c), Outcome::Win);
                    }
                }
            }
        }
    }

    #[test]
    fn enumerations() {
        assert_eq!(sorted_positions(2, 2).len(), 6);
        assert_eq!(positions_below(&[3, 5, 7, 9]).len(), 4 * 6 * 8 * 10);
        assert_eq!(positions_below(&[1, 1]), vec![vec![0, 0], vec![0, 1], vec![1, 0], vec![1, 1]]);
    }

    #[test]
    fn column_sums_of_seed_000() {
        assert_eq!(column_sums(&[33, 59, 25, 3]), vec![2, 2, 2, 0, 2, 4]);
        assert_eq!(column_sums(&[0, 0]), Vec::<u32>::new());
        assert_eq!(column_sums(&[1]), vec![1]);
    }

    #[test]
    fn large_heaps_by_closed_form() {
        let heaps = [1u64 << 60, (1 << 60) - 1, 12345];
        let moves = winning_moves(&heaps, Convention::Normal);
        assert!(!moves.is_empty());
        for m in moves {
            assert_eq!(nim_sum(&m.apply(&heaps)), 0);
        }
    }

    #[test]
    fn marienbad_is_lost_for_the_first_player() {
        assert_eq!(outcome(&[1, 3, 5, 7], Convention::Misere), Outcome::Lose);
        assert_eq!(outcome(&[1, 3, 5, 7], Convention::Normal), Outcome::Lose);
        assert_eq!(
            winning_moves(&[3, 5, 7, 9], Convention::Normal),
            vec![NimMove { row: 3, from: 9, to: 1 }]
        );
    }
}
