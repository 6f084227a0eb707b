//! Lakshtanov's 52-card example (the article's box 3) and a census of battles on a loop.
//!
//! With random stacking a game can loop if chance keeps choosing the same orders. Lakshtanov's
//! rule, "the first player's card is always stacked before the second player's", is
//! [`Method::FirstPlayerFirst`]; for a battle the engine also needs the order of the pairs, and
//! takes the natural one (last reveal first). [`battles`] tells whether that choice matters for
//! a given game: if no battle happens, it does not.

use bataille_engine::{
    Cycle, Game, GameResult, Limits, Method, Methods, NoRandom, Outcome, Position, TrickResult,
    play,
};

/// The 52-card deal of the article's box 3.
pub const DEAL: &str = "[13, 12, 13, 12, 11, 10, 11, 10, 9, 8, 9, 8, 7, 6, 7, 6, 5, 4, 5, 4, 3, 2, 3, 1, 2, 1] / \
     [12, 13, 12, 13, 10, 11, 10, 11, 8, 9, 8, 9, 6, 7, 6, 7, 4, 5, 4, 5, 2, 3, 1, 3, 1, 2]";

/// Lakshtanov's rule for both players.
pub const METHODS: Methods =
    Methods { first: Method::FirstPlayerFirst, second: Method::FirstPlayerFirst };

/// The tricks of a stretch of a game, and how many were battles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TrickCount {
    /// Tricks.
    pub tricks: u64,
    /// Tricks with at least one tie (a battle).
    pub battles: u64,
    /// The most reveals in one trick (1 when there is no battle).
    pub longest: u32,
}

impl TrickCount {
    fn add(&mut self, reveals: u32) {
        self.tricks += 1;
        self.battles += u64::from(reveals > 1);
        self.longest = self.longest.max(reveals);
    }
}

/// A game and its battles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Battles {
    /// The engine's verdict.
    pub result: GameResult,
    /// The tricks before the loop (the whole game if it ends).
    pub tail: TrickCount,
    /// One turn of the loop, if the game loops.
    pub period: Option<TrickCount>,
}

/// Plays `start` with the deterministic `methods` and counts the battles before and on the
/// loop.
///
/// ```
/// use bataille_constructs::lakshtanov::{battles, DEAL, METHODS};
/// let b = battles(&DEAL.parse().unwrap(), METHODS);
/// assert!(b.period.is_some());
/// ```
pub fn battles(start: &Position, methods: Methods) -> Battles {
    assert!(methods.is_deterministic(), "loops are only defined for deterministic methods");
    let result = play(start, methods, &mut NoRandom, Limits::DETERMINISTIC);
    let mut g = Game::new(start);
    let mut count = |n: u64| {
        let mut c = TrickCount::default();
        for _ in 0..n {
            if g.ending().is_some() {
                break;
            }
            let t = g.trick(methods, &mut NoRandom);
            c.add(t.reveals);
            if let TrickResult::Ended(_) = t.result {
                break;
            }
        }
        c
    };
    match result.outcome {
        Outcome::Cycle(Cycle { tail_tricks, period_tricks, .. }) => {
            let tail = count(tail_tricks);
            let period = Some(count(period_tricks));
            Battles { result, tail, period }
        }
        _ => Battles { result, tail: count(result.tricks), period: None },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_battles() {
        // The article's C=4 V=4 aligned cycle has battles on its loop (4 = 4 at the third trick).
        let nat = Methods::both(Method::Natural);
        let b =
            battles(&"[2, 1, 4, 4, 2, 1, 3, 3] / [4, 2, 4, 1, 3, 2, 3, 1]".parse().unwrap(), nat);
        let p = b.period.unwrap();
        assert_eq!((b.tail.tricks, p.tricks), (0, 24));
        assert!(p.battles > 0 && p.longest >= 2);
        // A C=1 game has none.
        let b = battles(&"[5, 3] / [2, 4, 1]".parse().unwrap(), nat);
        assert_eq!(b.period.unwrap(), TrickCount { tricks: 6, battles: 0, longest: 1 });
        // A finished game: all its tricks are the tail.
        let b = battles(&"[1, 1, 2, 2] / [2, 2, 1, 1]".parse().unwrap(), nat);
        assert_eq!((b.result.outcome, b.tail.tricks, b.period), (Outcome::Draw, 5, None));
        assert_eq!(b.tail.battles, 1);
    }
}
