//! The one entry point that picks how the positions of a game are answered: Bouton's closed
//! form for [`Nim`], the periodic closed form for [`Subtraction`], the compressed tables for the
//! match games ([`MatchTable`], [`TwoHeapTable`]), or, on request, the generic [`Solver`] (the
//! brute force the others are checked against).
//!
//! An [`Engine<G>`] answers positions of its game `G` only: the position type is the game's,
//! so a position of another game cannot be asked about.
//!
//! ```
//! use bataille_takeaway::dispatch::Engine;
//! use bataille_takeaway::{Convention, Nim, Outcome};
//!
//! let nim = Nim { convention: Convention::Misere };
//! let fast = Engine::new(nim, 7, false).unwrap();
//! let brute = Engine::new(nim, 7, true).unwrap();
//! let p = vec![1, 3, 5, 7];
//! assert_eq!(fast.outcome(&p), Ok(Outcome::Lose));
//! assert_eq!(fast.outcome(&p), brute.outcome(&p));
//! assert_eq!(fast.method(), "Bouton's closed form");
//! ```

use crate::game::{Game, Outcome};
use crate::matches::{MatchGame, MatchPos, MatchTable, RuleError};
use crate::nim::{self, Nim};
use crate::solver::{MoveTo, SolveError, Solver};
use crate::subtraction::Subtraction;
use crate::two_heaps::{TwoHeapGame, TwoHeapPos, TwoHeapTable};

/// Positions the generic solver may store before giving up.
pub const BRUTE_LIMIT: usize = 20_000_000;

/// Why a position could not be answered, or an engine built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DispatchError {
    /// The position is larger than the table was built for.
    #[error("beyond the table")]
    BeyondTable,
    /// A heap too large for a table (tables index heaps by `u32`).
    #[error("the heap {0} is too large: at most {max}", max = u32::MAX)]
    HeapTooLarge(u64),
    /// The table cannot be built.
    #[error(transparent)]
    Table(#[from] RuleError),
    /// The generic solver gave up.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// The generic solver would have too many positions to solve: refused before any work.
    #[error(
        "the generic solver (--brute-force) would have up to {positions} positions to solve from \
         here, more than its limit of {limit}: leave out --brute-force (the closed form or table \
         answers it), or take a smaller position"
    )]
    BruteTooLarge {
        /// The bound on the positions below the one asked about.
        positions: u128,
        /// [`BRUTE_LIMIT`].
        limit: usize,
    },
}

/// A game with a faster answer than the generic solver: a closed form, or a table of every
/// position up to a size.
pub trait FastAnswer: Game + Copy {
    /// The closed form or table.
    type Fast;

    /// The closed form, or the table of every position whose heaps are at most `size`.
    fn fast(self, size: u64) -> Result<Self::Fast, DispatchError>;

    /// How `fast` answers, in words.
    fn fast_method(fast: &Self::Fast) -> String;

    /// The outcome of `p` for the player to move; `None` beyond a table.
    fn fast_outcome(fast: &Self::Fast, p: &Self::Position) -> Option<Outcome>;

    /// The winning moves from `p` with the positions they lead to; `None` beyond a table.
    fn fast_winning(fast: &Self::Fast, p: &Self::Position) -> Option<Vec<MoveTo<Self>>>;

    /// Whether no object is left at `p`.
    fn is_over(p: &Self::Position) -> bool;

    /// An upper bound on the positions the generic solver may meet from `p` (it bounds the
    /// moves of any one of them too), computed without playing: the generic solver is refused
    /// before any work where it exceeds [`BRUTE_LIMIT`].
    fn brute_positions(&self, p: &Self::Position) -> u128;
}

/// Answers the positions of one game `G`: by its [`FastAnswer`], or by the generic solver.
#[derive(Debug, Clone)]
pub enum Engine<G: FastAnswer> {
    /// The closed form or table.
    Fast(G::Fast),
    /// The generic solver (brute force), limited to [`BRUTE_LIMIT`] positions.
    Brute(G),
}

impl<G: FastAnswer> Engine<G> {
    /// The engine for `game` and positions whose heaps are at most `size`: the generic solver
    /// when `brute_force`, the faster answer otherwise.
    pub fn new(game: G, size: u64, brute_force: bool) -> Result<Engine<G>, DispatchError> {
        Ok(if brute_force { Engine::Brute(game) } else { Engine::Fast(game.fast(size)?) })
    }

    /// How the positions are answered, in words.
    pub fn method(&self) -> String {
        match self {
            Engine::Fast(fast) => G::fast_method(fast),
            Engine::Brute(_) => "generic solver (brute force)".into(),
        }
    }

    /// The outcome of `p` for the player to move.
    pub fn outcome(&self, p: &G::Position) -> Result<Outcome, DispatchError> {
        match self {
            Engine::Fast(fast) => G::fast_outcome(fast, p).ok_or(DispatchError::BeyondTable),
            Engine::Brute(game) => {
                let won = !self.winning(p)?.is_empty();
                Ok(if G::is_over(p) {
                    game.convention().terminal_outcome()
                } else {
                    Outcome::from_win(won)
                })
            }
        }
    }

    /// The winning moves from `p`, with the positions they lead to.
    pub fn winning(&self, p: &G::Position) -> Result<Vec<MoveTo<G>>, DispatchError> {
        match self {
            Engine::Fast(fast) => G::fast_winning(fast, p).ok_or(DispatchError::BeyondTable),
            Engine::Brute(game) => {
                let positions = game.brute_positions(p);
                if positions > BRUTE_LIMIT as u128 {
                    return Err(DispatchError::BruteTooLarge { positions, limit: BRUTE_LIMIT });
                }
                Ok(Solver::with_limit(game, BRUTE_LIMIT).winning_moves(p)?)
            }
        }
    }
}

/// A heap size as a table index.
fn heap_u32(size: u64) -> Result<u32, DispatchError> {
    u32::try_from(size).map_err(|_| DispatchError::HeapTooLarge(size))
}

impl FastAnswer for Nim {
    type Fast = Nim;

    fn brute_positions(&self, p: &Vec<u64>) -> u128 {
        p.iter().fold(1u128, |n, &h| n.saturating_mul(u128::from(h) + 1))
    }

    fn fast(self, _size: u64) -> Result<Nim, DispatchError> {
        Ok(self)
    }

    fn fast_method(_: &Nim) -> String {
        "Bouton's closed form".into()
    }

    fn fast_outcome(g: &Nim, p: &Vec<u64>) -> Option<Outcome> {
        Some(nim::outcome(p, g.convention))
    }

    fn fast_winning(g: &Nim, p: &Vec<u64>) -> Option<Vec<MoveTo<Nim>>> {
        Some(nim::winning_moves(p, g.convention).into_iter().map(|m| (m, m.apply(p))).collect())
    }

    fn is_over(p: &Vec<u64>) -> bool {
        p.iter().all(|&h| h == 0)
    }
}

impl FastAnswer for Subtraction {
    type Fast = Subtraction;

    fn brute_positions(&self, p: &u64) -> u128 {
        u128::from(*p) + 1
    }

    fn fast(self, _size: u64) -> Result<Subtraction, DispatchError> {
        Ok(self)
    }

    fn fast_method(g: &Subtraction) -> String {
        format!("closed form (period {})", g.period())
    }

    fn fast_outcome(g: &Subtraction, n: &u64) -> Option<Outcome> {
        Some(g.outcome(*n))
    }

    fn fast_winning(g: &Subtraction, n: &u64) -> Option<Vec<MoveTo<Subtraction>>> {
        Some(g.winning_take(*n).map(|t| (t, n - t)).into_iter().collect())
    }

    fn is_over(n: &u64) -> bool {
        *n == 0
    }
}

impl FastAnswer for MatchGame {
    type Fast = MatchTable;

    fn brute_positions(&self, p: &MatchPos) -> u128 {
        // (matches left, previous take), each at most the matches.
        let n = u128::from(p.left.max(p.prev)) + 1;
        n * n
    }

    fn fast(self, size: u64) -> Result<MatchTable, DispatchError> {
        Ok(MatchTable::new(self, heap_u32(size)?)?)
    }

    fn fast_method(t: &MatchTable) -> String {
        format!("table of every heap up to {}", t.max_left())
    }

    fn fast_outcome(t: &MatchTable, p: &MatchPos) -> Option<Outcome> {
        t.outcome(*p)
    }

    fn fast_winning(t: &MatchTable, p: &MatchPos) -> Option<Vec<MoveTo<MatchGame>>> {
        let next = |take: u32| (take, MatchPos { left: p.left - take, prev: take });
        Some(t.winning_takes(*p)?.into_iter().map(next).collect())
    }

    fn is_over(p: &MatchPos) -> bool {
        p.left == 0
    }
}

impl FastAnswer for TwoHeapGame {
    type Fast = TwoHeapTable;

    fn brute_positions(&self, p: &TwoHeapPos) -> u128 {
        let (a, b) = (u128::from(p.a) + 1, u128::from(p.b) + 1);
        a * b * (a.max(b).max(u128::from(p.prev) + 1))
    }

    fn fast(self, size: u64) -> Result<TwoHeapTable, DispatchError> {
        Ok(TwoHeapTable::new(self, heap_u32(size)?)?)
    }

    fn fast_method(t: &TwoHeapTable) -> String {
        format!("table of every pair of heaps up to {}", t.max())
    }

    fn fast_outcome(t: &TwoHeapTable, p: &TwoHeapPos) -> Option<Outcome> {
        t.outcome(*p)
    }

    fn fast_winning(t: &TwoHeapTable, p: &TwoHeapPos) -> Option<Vec<MoveTo<TwoHeapGame>>> {
        Some(t.winning_moves(*p)?.into_iter().map(|m| (m, m.apply(*p))).collect())
    }

    fn is_over(p: &TwoHeapPos) -> bool {
        p.a == 0 && p.b == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Convention;
    use crate::matches::Rule;

    /// The faster answers agree with the generic solver, moves included.
    fn agree<G: FastAnswer>(game: G, size: u64, positions: &[G::Position]) {
        let sorted = |moves: Vec<MoveTo<G>>| {
            let mut v: Vec<String> = moves.iter().map(|m| format!("{m:?}")).collect();
            v.sort();
            v
        };
        let fast = Engine::new(game, size, false).unwrap();
        let brute = Engine::new(game, size, true).unwrap();
        for p in positions {
            assert_eq!(fast.outcome(p), brute.outcome(p), "{p:?}");
            let (a, b) = (fast.winning(p).unwrap(), brute.winning(p).unwrap());
            assert_eq!(sorted(a), sorted(b), "{p:?}");
        }
    }

    #[test]
    fn every_engine_agrees_with_the_solver() {
        for c in [Convention::Normal, Convention::Misere] {
            agree(Nim { convention: c }, 7, &[vec![1, 3, 5, 7], vec![0, 0], vec![2, 2, 1]]);
            let g = Subtraction::new(3, c).unwrap();
            agree(g, 30, &(0..30).collect::<Vec<_>>());
            let g = MatchGame { rule: Rule::DOUBLE, convention: c };
            let ps: Vec<MatchPos> = (1..20).map(MatchPos::opening).collect();
            agree(g, 20, &ps);
            let g = TwoHeapGame { rule: Rule::DOUBLE, convention: c };
            agree(g, 6, &[TwoHeapPos { a: 5, b: 3, prev: 0 }, TwoHeapPos { a: 0, b: 0, prev: 1 }]);
        }
    }

    #[test]
    fn tables_refuse_what_they_do_not_hold() {
        let g = MatchGame::misere(Rule::DOUBLE);
        let e = Engine::new(g, 10, false).unwrap();
        assert_eq!(e.outcome(&MatchPos::opening(11)), Err(DispatchError::BeyondTable));
        let big = u64::from(u32::MAX) + 1;
        let e = Engine::new(g, big, false).unwrap_err();
        assert_eq!(e.to_string(), format!("the heap {big} is too large: at most {}", u32::MAX));
    }
}
