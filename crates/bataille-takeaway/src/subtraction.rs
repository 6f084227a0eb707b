//! Subtraction games: one heap, each move takes 1 to `max_take` objects.
//!
//! Closed forms: under normal play the P-positions are the multiples of `max_take + 1`; under
//! misère play they are the numbers `1 (mod max_take + 1)`. Fort Boyard's sticks (seed 004) are
//! the misère game with `max_take = 3`: the losing positions are `4k + 1`.

use crate::game::{Convention, Game, Outcome};

/// Why a subtraction game cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SubtractionError {
    /// A move must be allowed to take at least one object.
    #[error("the largest take must be at least 1, not {0}")]
    ZeroMaxTake(u64),
}

/// Take 1 to `max_take` objects from one heap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Subtraction {
    max_take: u64,
    convention: Convention,
}

impl Subtraction {
    /// Fort Boyard's sticks: take 1, 2 or 3, the player who takes the last stick loses.
    pub const FORT_BOYARD: Subtraction =
        Subtraction { max_take: 3, convention: Convention::Misere };

    /// Take 1 to `max_take` (at least 1) under `convention`.
    pub fn new(max_take: u64, convention: Convention) -> Result<Self, SubtractionError> {
        if max_take == 0 {
            return Err(SubtractionError::ZeroMaxTake(max_take));
        }
        Ok(Subtraction { max_take, convention })
    }

    /// The largest take.
    pub fn max_take(&self) -> u64 {
        self.max_take
    }

    /// The closed-form outcome of a heap of `n`.
    pub fn outcome(&self, n: u64) -> Outcome {
        // The period M + 1 is 2^64 for M = u64::MAX: counted in u128, it does not wrap.
        let period = self.period();
        let n = u128::from(n);
        let p = match self.convention {
            Convention::Normal => n.is_multiple_of(period),
            Convention::Misere => n % period == 1,
        };
        Outcome::from_win(!p)
    }

    /// The closed-form winning take from a heap of `n` (there is at most one), if any.
    pub fn winning_take(&self, n: u64) -> Option<u64> {
        let period = self.period();
        let t = match self.convention {
            Convention::Normal => u128::from(n) % period,
            Convention::Misere if n == 0 => 0,
            Convention::Misere => u128::from(n - 1) % period,
        };
        // t < period and t ≤ n: it fits.
        (t > 0).then(|| u64::try_from(t).expect("at most the heap"))
    }

    /// The period of the outcomes, `max_take + 1` (up to 2^64).
    pub fn period(&self) -> u128 {
        u128::from(self.max_take) + 1
    }
}

impl Game for Subtraction {
    type Position = u64;
    type Move = u64;

    fn convention(&self) -> Convention {
        self.convention
    }

    fn moves(&self, p: &u64, out: &mut Vec<(u64, u64)>) {
        for t in 1..=(*p).min(self.max_take) {
            out.push((t, p - t));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Solver;

    #[test]
    fn largest_take_does_not_wrap() {
        let max = u64::MAX;
        let normal = Subtraction::new(max, Convention::Normal).unwrap();
        assert_eq!(normal.period(), 1 << 64);
        // Every heap can be taken whole: the player to move wins.
        assert_eq!(normal.outcome(max), Outcome::from_win(true));
        assert_eq!(normal.winning_take(max), Some(max));
        assert_eq!(normal.outcome(0), Outcome::from_win(false));
        let misere = Subtraction::new(max, Convention::Misere).unwrap();
        // Leave one: take all but one.
        assert_eq!(misere.outcome(max), Outcome::from_win(true));
        assert_eq!(misere.winning_take(max), Some(max - 1));
        assert_eq!(misere.outcome(1), Outcome::from_win(false));
    }

    #[test]
    fn closed_form_matches_the_solver() {
        for convention in [Convention::Normal, Convention::Misere] {
            for k in 1..=7 {
                let g = Subtraction::new(k, convention).unwrap();
                let mut s = Solver::new(&g);
                for n in 0..200 {
                    assert_eq!(g.outcome(n), s.outcome(&n).unwrap(), "{convention} k={k} n={n}");
                    let w: Vec<u64> =
                        s.winning_moves(&n).unwrap().into_iter().map(|(t, _)| t).collect();
                    assert_eq!(g.winning_take(n).into_iter().collect::<Vec<_>>(), w);
                }
            }
        }
    }

    #[test]
    fn fort_boyard() {
        let g = Subtraction::FORT_BOYARD;
        let losing: Vec<u64> = (1..=18).filter(|&n| !g.outcome(n).is_win()).collect();
        assert_eq!(losing, vec![1, 5, 9, 13, 17]);
        assert_eq!(g.winning_take(18), Some(1));
        assert_eq!(g.winning_take(20), Some(3));
        assert_eq!(Subtraction::new(0, Convention::Normal), Err(SubtractionError::ZeroMaxTake(0)));
    }
}
