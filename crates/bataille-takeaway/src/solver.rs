//! The generic exact solver: retrograde analysis of the positions reachable from a start.
//!
//! [`Solver`] walks the position graph depth first (an explicit stack, so deep games do not
//! overflow the call stack) and labels positions from the ends of play backwards: a position
//! with no move takes the convention's terminal outcome, a position with a move to a P-position
//! is an N-position, any other is a P-position. Labels are memoised by canonical position, so
//! every position is solved once however many lines reach it. It is the brute force against
//! which the closed forms and the compressed tables of this crate are tested.
//!
//! [`check_strategy`] plays a strategy against every possible reply of the opponent and
//! returns a losing line if there is one.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::game::{Convention, Game, Outcome};

/// Why a game could not be solved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// A position repeats along a line of play, so the game is not finite.
    #[error("the game is not finite: a position repeats along a line of play")]
    Cycle,
    /// More positions than the solver's limit would have to be stored.
    #[error("more than {limit} positions to solve (use a closed form or a smaller position)")]
    TooLarge {
        /// The limit given to [`Solver::with_limit`].
        limit: usize,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Label {
    InProgress,
    Win,
    Lose,
}

/// A move of `G` with the position it leads to.
pub type MoveTo<G> = (<G as Game>::Move, <G as Game>::Position);

/// Memoised exact solver of a [`Game`].
#[derive(Debug)]
pub struct Solver<'g, G: Game> {
    game: &'g G,
    memo: FxHashMap<G::Position, Label>,
    limit: usize,
    buf: Vec<(G::Move, G::Position)>,
}

struct Frame<P> {
    key: P,
    children: Vec<P>,
    next: usize,
}

impl<'g, G: Game> Solver<'g, G> {
    /// The default bound on stored positions (a few hundred MB at most for small positions).
    pub const DEFAULT_LIMIT: usize = 20_000_000;

    /// A solver with the default position limit.
    pub fn new(game: &'g G) -> Self {
        Self::with_limit(game, Self::DEFAULT_LIMIT)
    }

    /// A solver that gives up with [`SolveError::TooLarge`] beyond `limit` stored positions.
    pub fn with_limit(game: &'g G, limit: usize) -> Self {
        Solver { game, memo: FxHashMap::default(), limit, buf: Vec::new() }
    }

    /// The game being solved.
    pub fn game(&self) -> &'g G {
        self.game
    }

    /// Number of positions solved so far.
    pub fn solved(&self) -> usize {
        self.memo.len()
    }

    /// The outcome of `p` for the player to move.
    pub fn outcome(&mut self, p: &G::Position) -> Result<Outcome, SolveError> {
        let key = self.game.canonical(p);
        match self.memo.get(&key) {
            Some(Label::Win) => return Ok(Outcome::Win),
            Some(Label::Lose) => return Ok(Outcome::Lose),
            Some(Label::InProgress) => unreachable!("no search is in progress between calls"),
            None => {}
        }
        let r = self.search(key);
        if r.is_err() {
            self.memo.retain(|_, l| *l != Label::InProgress);
        }
        r.map(Outcome::from_win)
    }

    /// Every winning move from `p` (those that leave a P-position), in the game's move order,
    /// with the positions they lead to. Empty when `p` is a P-position.
    pub fn winning_moves(&mut self, p: &G::Position) -> Result<Vec<MoveTo<G>>, SolveError> {
        let mut moves = Vec::new();
        self.game.moves(p, &mut moves);
        let mut winning = Vec::new();
        for (m, q) in moves {
            if self.outcome(&q)? == Outcome::Lose {
                winning.push((m, q));
            }
        }
        Ok(winning)
    }

    fn frame(&mut self, key: G::Position) -> Result<Frame<G::Position>, SolveError> {
        if self.memo.len() >= self.limit {
            return Err(SolveError::TooLarge { limit: self.limit });
        }
        self.buf.clear();
        self.game.moves(&key, &mut self.buf);
        let children = self.buf.drain(..).map(|(_, q)| self.game.canonical(&q)).collect();
        self.memo.insert(key.clone(), Label::InProgress);
        Ok(Frame { key, children, next: 0 })
    }

    fn search(&mut self, start: G::Position) -> Result<bool, SolveError> {
        let terminal_win = self.game.convention() == Convention::Misere;
        let mut stack = vec![self.frame(start)?];
        loop {
            let top = stack.last_mut().expect("the stack holds the position being solved");
            let mut descend = None;
            let mut win = false;
            while top.next < top.children.len() {
                match self.memo.get(&top.children[top.next]) {
                    Some(Label::Win) => top.next += 1,
                    Some(Label::Lose) => {
                        win = true;
                        break;
                    }
                    Some(Label::InProgress) => return Err(SolveError::Cycle),
                    None => {
                        descend = Some(top.children[top.next].clone());
                        break;
                    }
                }
            }
            if let Some(child) = descend {
                let f = self.frame(child)?;
                stack.push(f);
                continue;
            }
            if top.children.is_empty() {
                win = terminal_win;
            }
            let done = stack.pop().expect("non-empty");
            self.memo.insert(done.key, if win { Label::Win } else { Label::Lose });
            if stack.is_empty() {
                return Ok(win);
            }
        }
    }
}

/// How a strategy failed: the line of play from the start (strategy to move) to the failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StrategyFailure<P> {
    /// The strategy gave no move at the last position of the line.
    NoMove(Vec<P>),
    /// The strategy gave a position that no legal move reaches from the one before it.
    Illegal(Vec<P>),
    /// The game ended with the strategy's player losing; the line is the whole game.
    Lost(Vec<P>),
}

impl<P> StrategyFailure<P> {
    /// The line of play, start first.
    pub fn line(&self) -> &[P] {
        match self {
            StrategyFailure::NoMove(l) | StrategyFailure::Illegal(l) | StrategyFailure::Lost(l) => {
                l
            }
        }
    }
}

/// Checks that `strategy` wins from each of `starts` (its player to move) against every reply.
///
/// The strategy maps a position (its player to move) to the position it moves to. Returns the
/// number of distinct positions at which the strategy was consulted, or the first failing line
/// found in a depth-first walk of the opponent's replies (starts in the order given).
pub fn check_strategy<G: Game>(
    game: &G,
    starts: &[G::Position],
    mut strategy: impl FnMut(&G::Position) -> Option<G::Position>,
) -> Result<usize, StrategyFailure<G::Position>> {
    let mut seen = FxHashSet::default();
    for start in starts {
        let mut line = vec![start.clone()];
        walk(game, &mut strategy, &mut seen, &mut line)?;
    }
    Ok(seen.len())
}

fn walk<G: Game>(
    game: &G,
    strategy: &mut impl FnMut(&G::Position) -> Option<G::Position>,
    seen: &mut FxHashSet<G::Position>,
    line: &mut Vec<G::Position>,
) -> Result<(), StrategyFailure<G::Position>> {
    let p = line.last().expect("the line holds the current position").clone();
    let key = game.canonical(&p);
    if seen.contains(&key) {
        return Ok(());
    }
    let misere = game.convention() == Convention::Misere;
    let mut moves = Vec::new();
    game.moves(&p, &mut moves);
    if moves.is_empty() {
        // The opponent took the last one.
        return if misere { Ok(()) } else { Err(StrategyFailure::Lost(line.clone())) };
    }
    let Some(q) = strategy(&p) else {
        return Err(StrategyFailure::NoMove(line.clone()));
    };
    let qk = game.canonical(&q);
    if !moves.iter().any(|(_, r)| game.canonical(r) == qk) {
        line.push(q);
        return Err(StrategyFailure::Illegal(line.clone()));
    }
    line.push(q.clone());
    moves.clear();
    game.moves(&q, &mut moves);
    if moves.is_empty() {
        // The strategy took the last one.
        if misere {
            return Err(StrategyFailure::Lost(line.clone()));
        }
    }
    for (_, r) in moves {
        line.push(r);
        walk(game, strategy, seen, line)?;
        line.pop();
    }
    line.pop();
    seen.insert(key);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game with a cycle: from n you may go to n - 1 or, from 2, back to 3.
    struct Loopy;

    impl Game for Loopy {
        type Position = u32;
        type Move = u32;
        fn convention(&self) -> Convention {
            Convention::Normal
        }
        fn moves(&self, p: &u32, out: &mut Vec<(u32, u32)>) {
            if *p > 0 {
                out.push((*p - 1, *p - 1));
            }
            if *p == 2 {
                out.push((3, 3));
            }
        }
    }

    /// Take 1 or 2 from a heap: P-positions are the multiples of 3 in normal play.
    struct TakeOneOrTwo(Convention);

    impl Game for TakeOneOrTwo {
        type Position = u32;
        type Move = u32;
        fn convention(&self) -> Convention {
            self.0
        }
        fn moves(&self, p: &u32, out: &mut Vec<(u32, u32)>) {
            for t in 1..=(*p).min(2) {
                out.push((t, p - t));
            }
        }
    }

    #[test]
    fn cycles_are_reported_not_looped() {
        let mut s = Solver::new(&Loopy);
        assert_eq!(s.outcome(&5), Err(SolveError::Cycle));
        // A failed search leaves no half-solved position behind.
        assert_eq!(s.outcome(&1), Ok(Outcome::Win));
    }

    #[test]
    fn limit_is_enforced() {
        let g = TakeOneOrTwo(Convention::Normal);
        let mut s = Solver::with_limit(&g, 10);
        assert_eq!(s.outcome(&100), Err(SolveError::TooLarge { limit: 10 }));
    }

    #[test]
    fn small_game_both_conventions() {
        let normal = TakeOneOrTwo(Convention::Normal);
        let misere = TakeOneOrTwo(Convention::Misere);
        let mut n = Solver::new(&normal);
        let mut m = Solver::new(&misere);
        for p in 0..60 {
            assert_eq!(n.outcome(&p).unwrap().is_win(), p % 3 != 0, "normal {p}");
            assert_eq!(m.outcome(&p).unwrap().is_win(), p % 3 != 1, "misère {p}");
        }
        let w: Vec<_> = n.winning_moves(&7).unwrap().into_iter().map(|(t, _)| t).collect();
        assert_eq!(w, vec![1]);
        assert!(n.winning_moves(&9).unwrap().is_empty());
    }

    #[test]
    fn deep_games_do_not_overflow_the_stack() {
        let g = TakeOneOrTwo(Convention::Normal);
        let mut s = Solver::new(&g);
        assert_eq!(s.outcome(&300_000).unwrap(), Outcome::Lose);
    }

    #[test]
    fn strategy_checker_finds_the_losing_line() {
        let g = TakeOneOrTwo(Convention::Normal);
        // The right strategy: leave a multiple of 3.
        let good = |p: &u32| Some(p - p % 3);
        assert!(check_strategy(&g, &[8, 11, 13], good).is_ok());
        // Always taking one loses from 5: 5 -> 4, opponent 4 -> 3, 3 -> 2, opponent takes 2.
        let greedy = |p: &u32| Some(p - 1);
        let err = check_strategy(&g, &[5], greedy).unwrap_err();
        assert!(matches!(err, StrategyFailure::Lost(_)), "{err:?}");
        assert_eq!(err.line().first(), Some(&5));
        assert_eq!(err.line().last(), Some(&0));
        // Jumping two from 1 is illegal.
        let bad = |p: &u32| Some(p.saturating_sub(2) + u32::from(*p == 1) * 5);
        assert!(matches!(check_strategy(&g, &[1], bad), Err(StrategyFailure::Illegal(_))));
    }
}
