//! The two-heap match game of seed 003, section B.II.
//!
//! Two heaps A and B. A player takes matches from one heap of his choice, at most `k·n + q`
//! where `n` is the opponent's previous take (whichever heap it came from), 1 or 2 at the
//! opening; the player who takes the very last match loses. Positions are the document's
//! triplets `(a, b, n)`. As for one heap, whether `(a, b, n)` is won only grows with `n`, so
//! [`TwoHeapTable`] stores the smallest winning take of every pair `(a, b)`.

use std::fmt;

use crate::game::{Convention, Game, Outcome};
use crate::matches::{Rule, RuleError};

/// One of the two heaps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Heap {
    /// The first heap.
    A,
    /// The second heap.
    B,
}

/// A triplet `(a, b, n)`: matches in heaps A and B, and the previous take (0 at the opening).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TwoHeapPos {
    /// Matches in heap A.
    pub a: u32,
    /// Matches in heap B.
    pub b: u32,
    /// Matches taken on the previous move; 0 before the first move.
    pub prev: u32,
}

impl fmt::Display for TwoHeapPos {
    /// `(5, 3, 2)` as in the document; the opening is `(50, 50, start)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.prev == 0 {
            write!(f, "({}, {}, start)", self.a, self.b)
        } else {
            write!(f, "({}, {}, {})", self.a, self.b, self.prev)
        }
    }
}

/// A move: `take` matches from `heap`. Written `2A` as in the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TwoHeapMove {
    /// The heap taken from.
    pub heap: Heap,
    /// How many matches.
    pub take: u32,
}

impl TwoHeapMove {
    /// The position after the move (which must be legal).
    pub fn apply(&self, p: TwoHeapPos) -> TwoHeapPos {
        match self.heap {
            Heap::A => TwoHeapPos { a: p.a - self.take, b: p.b, prev: self.take },
            Heap::B => TwoHeapPos { a: p.a, b: p.b - self.take, prev: self.take },
        }
    }
}

impl fmt::Display for TwoHeapMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.take, if self.heap == Heap::A { 'A' } else { 'B' })
    }
}

/// The two-heap game as a [`Game`] for the generic solver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TwoHeapGame {
    /// The take-limit rule.
    pub rule: Rule,
    /// Misère in the document (the last match loses).
    pub convention: Convention,
}

impl Game for TwoHeapGame {
    type Position = TwoHeapPos;
    type Move = TwoHeapMove;

    fn convention(&self) -> Convention {
        self.convention
    }

    fn moves(&self, p: &TwoHeapPos, out: &mut Vec<(TwoHeapMove, TwoHeapPos)>) {
        let cap = self.rule.cap(p.prev);
        for (heap, size) in [(Heap::A, p.a), (Heap::B, p.b)] {
            for take in 1..=cap.min(u64::from(size)) as u32 {
                let m = TwoHeapMove { heap, take };
                out.push((m, m.apply(*p)));
            }
        }
    }

    /// The heaps can be swapped.
    fn canonical(&self, p: &TwoHeapPos) -> TwoHeapPos {
        TwoHeapPos { a: p.a.min(p.b), b: p.a.max(p.b), prev: p.prev }
    }
}

/// Every pair of heap sizes up to a bound, compressed to the smallest winning take.
#[derive(Debug, Clone)]
pub struct TwoHeapTable {
    game: TwoHeapGame,
    max: u32,
    /// `min_take[a * (max + 1) + b]`: the smallest winning take from `(a, b)`, 0 if none.
    min_take: Vec<u32>,
}

impl TwoHeapTable {
    /// The largest heap a table accepts (4 bytes per pair of heaps: 100 MB at most).
    pub const MAX_HEAP: u32 = 5_000;

    /// Solves every pair of heaps up to `max` each.
    pub fn new(game: TwoHeapGame, max: u32) -> Result<TwoHeapTable, RuleError> {
        if max > Self::MAX_HEAP {
            return Err(RuleError::TooLarge {
                requested: u64::from(max),
                limit: u64::from(Self::MAX_HEAP),
            });
        }
        let side = max as usize + 1;
        let mut t = TwoHeapTable { game, max, min_take: vec![0; side * side] };
        for a in 0..=max {
            for b in 0..=max {
                let m = (1..=a.max(b))
                    .find(|&take| {
                        (take <= a && t.is_p(a - take, b, take))
                            || (take <= b && t.is_p(a, b - take, take))
                    })
                    .unwrap_or(0);
                t.min_take[a as usize * side + b as usize] = m;
            }
        }
        Ok(t)
    }

    fn is_p(&self, a: u32, b: u32, prev: u32) -> bool {
        if a == 0 && b == 0 {
            return self.game.convention == Convention::Normal;
        }
        let m = self.min_take[a as usize * (self.max as usize + 1) + b as usize];
        m == 0 || u64::from(m) > self.game.rule.cap(prev)
    }

    /// The largest heap size in the table.
    pub fn max(&self) -> u32 {
        self.max
    }

    /// The outcome of `p`, or `None` when a heap is beyond the table.
    pub fn outcome(&self, p: TwoHeapPos) -> Option<Outcome> {
        if p.a > self.max || p.b > self.max {
            return None;
        }
        if p.a == 0 && p.b == 0 {
            return Some(self.game.convention.terminal_outcome());
        }
        Some(Outcome::from_win(!self.is_p(p.a, p.b, p.prev)))
    }

    /// Every winning move from `p`, heap A first then heap B, smaller takes first.
    pub fn winning_moves(&self, p: TwoHeapPos) -> Option<Vec<TwoHeapMove>> {
        if p.a > self.max || p.b > self.max {
            return None;
        }
        let mut out = Vec::new();
        self.game.moves(&p, &mut out);
        Some(out.into_iter().filter(|(m, q)| self.is_p(q.a, q.b, m.take)).map(|(m, _)| m).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Solver;

    #[test]
    fn table_matches_the_solver() {
        for r in ["2n", "3n", "n+1"] {
            for convention in [Convention::Normal, Convention::Misere] {
                let game = TwoHeapGame { rule: r.parse().unwrap(), convention };
                let table = TwoHeapTable::new(game, 14).unwrap();
                let mut solver = Solver::new(&game);
                for a in 0..=14 {
                    for b in 0..=14 {
                        for prev in 0..=(a + b) {
                            let p = TwoHeapPos { a, b, prev };
                            let brute = solver.outcome(&p).unwrap();
                            assert_eq!(table.outcome(p), Some(brute), "{r} {convention} {p}");
                            let w: Vec<TwoHeapMove> = solver
                                .winning_moves(&p)
                                .unwrap()
                                .into_iter()
                                .map(|(m, _)| m)
                                .collect();
                            assert_eq!(table.winning_moves(p), Some(w), "{r} {convention} {p}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn equal_heaps_are_lost() {
        let game = TwoHeapGame { rule: Rule::DOUBLE, convention: Convention::Misere };
        let t = TwoHeapTable::new(game, 60).unwrap();
        for a in 2..=60 {
            for prev in 0..=2 * a {
                assert_eq!(t.outcome(TwoHeapPos { a, b: a, prev }), Some(Outcome::Lose));
            }
        }
        assert_eq!(t.outcome(TwoHeapPos { a: 1, b: 1, prev: 1 }), Some(Outcome::Win));
        assert_eq!(t.outcome(TwoHeapPos { a: 61, b: 1, prev: 1 }), None);
    }
}
