//! The match game of seed 003 ("La stratégie des allumettes", MATH.en.JEANS 2004-2005).
//!
//! One heap of matches. The first player takes 1 or 2; afterwards a player takes from 1 up to
//! `k·n + q` matches, where `n` is what the opponent took on the move before (the document's
//! main game is `2n`; its variants are `3n`, `4n`, `k·n` and `n+1`). The player who takes the
//! last match loses (misère play); normal play is offered for comparison.
//!
//! A position is the document's couple `(a, n)`: `a` matches left, `n` taken on the previous
//! move. This crate writes the opening position `(a, 0)` (nobody has taken yet, so the first
//! player may take up to [`Rule::first_max`], 2 in the document). Under the `2n` and `n+1`
//! rules it plays exactly like `(a, 1)`, which is how the document writes it (`(50,1)`).
//!
//! Whether a position is won only grows with the allowed take, and the allowed take grows with
//! `n`: so `(a, n)` is won exactly when the smallest winning take from `a`, `m(a)`, is at most
//! `cap(n)`. [`MatchTable`] stores `m(a)` for every `a` up to a bound and so answers every
//! position `(a, n)`; `m(2), m(3), ...` is the document's "suite gagnante". Under the `2n`
//! rule `m(a)` is the smallest part of the Zeckendorf decomposition of `a - 1` (the
//! document's theorem), see [`zeckendorf`].

use std::fmt;
use std::str::FromStr;

use crate::game::{Convention, Game, Outcome};

/// Why a rule or a table cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// `k·n + q` must allow at least one match after a take of one.
    #[error("the rule {k}n+{q} never allows a move (k + q must be at least 1)")]
    NoMove {
        /// The multiplier.
        k: u32,
        /// The constant.
        q: u32,
    },
    /// The first move must allow at least one match.
    #[error("the first move must allow at least 1 match, not {0}")]
    ZeroFirstMove(u32),
    /// A rule written in an unknown way.
    #[error("cannot read the rule {}: expected a form like 2n, 3n, kn, n+1 or 2n+1", quoted(.0))]
    Syntax(String),
    /// A table larger than the crate accepts.
    #[error("a table of {requested} matches is larger than the limit of {limit}")]
    TooLarge {
        /// The heap size asked for.
        requested: u64,
        /// The largest heap size accepted.
        limit: u64,
    },
}

/// The take-limit rule: after a take of `n` the next player may take 1 to `k·n + q`; the
/// first player may take 1 to `first_max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rule {
    k: u32,
    q: u32,
    first_max: u32,
}

impl Rule {
    /// The document's main rule: at most twice the opponent's last take, first move 1 or 2.
    pub const DOUBLE: Rule = Rule { k: 2, q: 0, first_max: 2 };
    /// The `n+1` rule of section B.IV, first move 1 or 2.
    pub const N_PLUS_ONE: Rule = Rule { k: 1, q: 1, first_max: 2 };

    /// The rule `k·n + q` with a first move of 1 or 2.
    pub fn new(k: u32, q: u32) -> Result<Rule, RuleError> {
        if k == 0 && q == 0 {
            return Err(RuleError::NoMove { k, q });
        }
        Ok(Rule { k, q, first_max: 2 })
    }

    /// The rule `k·n`, first move 1 or 2 (the document's `3n`, `4n`, `kn`).
    pub fn times(k: u32) -> Result<Rule, RuleError> {
        Rule::new(k, 0)
    }

    /// The same rule with a first move of 1 to `first_max`.
    pub fn with_first_max(self, first_max: u32) -> Result<Rule, RuleError> {
        if first_max == 0 {
            return Err(RuleError::ZeroFirstMove(first_max));
        }
        Ok(Rule { first_max, ..self })
    }

    /// The multiplier `k`.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// The constant `q`.
    pub fn q(&self) -> u32 {
        self.q
    }

    /// The largest first move.
    pub fn first_max(&self) -> u32 {
        self.first_max
    }

    /// The largest take allowed after a take of `prev` (`prev = 0`: the opening move).
    pub fn cap(&self, prev: u32) -> u64 {
        if prev == 0 {
            u64::from(self.first_max)
        } else {
            u64::from(self.k) * u64::from(prev) + u64::from(self.q)
        }
    }

    /// The smallest previous take `n >= 1` after which a take of `t` is allowed, if any.
    pub fn smallest_prev_allowing(&self, t: u64) -> Option<u64> {
        let (k, q) = (u64::from(self.k), u64::from(self.q));
        if t <= k + q {
            Some(1)
        } else if k == 0 {
            None
        } else {
            Some((t - q).div_ceil(k))
        }
    }
}

impl fmt::Display for Rule {
    /// `2n`, `n+1`, `3n+2`, `4`; with ` (first move up to 3)` when that is not 2.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.k, self.q) {
            (0, q) => write!(f, "{q}")?,
            (1, 0) => f.write_str("n")?,
            (1, q) => write!(f, "n+{q}")?,
            (k, 0) => write!(f, "{k}n")?,
            (k, q) => write!(f, "{k}n+{q}")?,
        }
        if self.first_max != 2 {
            write!(f, " (first move up to {})", self.first_max)?;
        }
        Ok(())
    }
}

impl FromStr for Rule {
    type Err = RuleError;

    /// Reads `2n`, `3n`, `n`, `n+1`, `2n+1`, `2*n`, `2·n + 1`, or a constant such as `3`
    /// (spaces ignored).
    fn from_str(s: &str) -> Result<Rule, RuleError> {
        let err = || RuleError::Syntax(s.to_string());
        let t: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        let t = t.to_ascii_lowercase().replace(['*', '·'], "");
        let (head, q) = match t.split_once('+') {
            Some((h, q)) => (h.to_string(), q.parse::<u32>().map_err(|_| err())?),
            None => (t.clone(), 0),
        };
        let k = match head.strip_suffix('n') {
            Some("") => 1,
            Some(k) => k.parse::<u32>().map_err(|_| err())?,
            // A constant limit: `3` allows 1 to 3 whatever the previous take.
            None if !t.contains('+') => return Rule::new(0, head.parse().map_err(|_| err())?),
            None => return Err(err()),
        };
        Rule::new(k, q)
    }
}

/// `text` quoted for an error message, cut after 80 characters (with its length) so that a
/// huge bad input does not flood the terminal: the form of `bataille_engine::position::quoted`,
/// which this crate does not depend on.
pub(crate) fn quoted(text: &str) -> String {
    match text.char_indices().nth(80) {
        None => format!("{text:?}"),
        Some((cut, _)) => format!("{:?}… ({} bytes in all)", &text[..cut], text.len()),
    }
}

/// A position `(a, n)`: `left` matches, `prev` taken on the move before (0 at the opening).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MatchPos {
    /// Matches left.
    pub left: u32,
    /// Matches the opponent took on the previous move; 0 before the first move.
    pub prev: u32,
}

impl MatchPos {
    /// The opening position with `left` matches.
    pub fn opening(left: u32) -> MatchPos {
        MatchPos { left, prev: 0 }
    }
}

impl fmt::Display for MatchPos {
    /// `(48,2)` as in the document; the opening is `(50,start)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.prev == 0 {
            write!(f, "({},start)", self.left)
        } else {
            write!(f, "({},{})", self.left, self.prev)
        }
    }
}

/// The match game as a [`Game`] for the generic solver. Moves are the number of matches taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchGame {
    /// The take-limit rule.
    pub rule: Rule,
    /// Misère in the document (the last match loses).
    pub convention: Convention,
}

impl MatchGame {
    /// The document's game: the rule, and the player who takes the last match loses.
    pub fn misere(rule: Rule) -> MatchGame {
        MatchGame { rule, convention: Convention::Misere }
    }
}

impl Game for MatchGame {
    type Position = MatchPos;
    type Move = u32;

    fn convention(&self) -> Convention {
        self.convention
    }

    fn moves(&self, p: &MatchPos, out: &mut Vec<(u32, MatchPos)>) {
        let max = self.rule.cap(p.prev).min(u64::from(p.left)) as u32;
        for t in 1..=max {
            out.push((t, MatchPos { left: p.left - t, prev: t }));
        }
    }
}

/// The whole one-heap game up to a heap size, compressed to the smallest winning take `m(a)`
/// of every heap size `a` (computed from `a = 0` upwards: retrograde analysis).
#[derive(Debug, Clone)]
pub struct MatchTable {
    game: MatchGame,
    /// `min_take[a]`: the smallest take from `a` that leaves a P-position, 0 if none.
    min_take: Vec<u32>,
}

impl MatchTable {
    /// The largest heap a table accepts (4 bytes per heap size: 800 MB at most).
    pub const MAX_LEFT: u64 = 200_000_000;

    /// Solves every heap size from 0 to `max_left`.
    pub fn new(game: MatchGame, max_left: u32) -> Result<MatchTable, RuleError> {
        if u64::from(max_left) > Self::MAX_LEFT {
            return Err(RuleError::TooLarge {
                requested: u64::from(max_left),
                limit: Self::MAX_LEFT,
            });
        }
        let mut t = MatchTable { game, min_take: Vec::with_capacity(max_left as usize + 1) };
        for a in 0..=max_left {
            let m = (1..=a).find(|&take| t.is_p(a - take, take)).unwrap_or(0);
            t.min_take.push(m);
        }
        Ok(t)
    }

    /// Whether `(left, prev)` is a P-position, for `left` already in the table and `prev >= 1`.
    fn is_p(&self, left: u32, prev: u32) -> bool {
        if left == 0 {
            return self.game.convention == Convention::Normal;
        }
        let m = self.min_take[left as usize];
        m == 0 || u64::from(m) > self.game.rule.cap(prev)
    }

    /// The game.
    pub fn game(&self) -> MatchGame {
        self.game
    }

    /// The largest heap size in the table.
    pub fn max_left(&self) -> u32 {
        (self.min_take.len() - 1) as u32
    }

    /// The smallest winning take `m(a)` from a heap of `left`, whatever the previous take: the
    /// term of the document's "suite gagnante" for `left` matches. `None` when no take wins
    /// (`left = 1` in misère play, `left = 0`), or when `left` is beyond the table.
    pub fn min_winning_take(&self, left: u32) -> Option<u32> {
        self.min_take.get(left as usize).copied().filter(|&m| m > 0)
    }

    /// The outcome of `p`, or `None` when `p.left` is beyond the table.
    pub fn outcome(&self, p: MatchPos) -> Option<Outcome> {
        if p.left > self.max_left() {
            return None;
        }
        if p.left == 0 {
            return Some(self.game.convention.terminal_outcome());
        }
        let m = self.min_take[p.left as usize];
        Some(Outcome::from_win(m > 0 && u64::from(m) <= self.game.rule.cap(p.prev)))
    }

    /// Every winning take from `p`, smallest first (`None` beyond the table).
    pub fn winning_takes(&self, p: MatchPos) -> Option<Vec<u32>> {
        if p.left > self.max_left() {
            return None;
        }
        let max = self.game.rule.cap(p.prev).min(u64::from(p.left)) as u32;
        Some((1..=max).filter(|&t| self.is_p(p.left - t, t)).collect())
    }

    /// The smallest previous take `n >= 1` for which `(left, n)` is won, with the document's
    /// convention of listing, for each heap size, the first winning couple. `None` when no
    /// `(left, n)` is won or `left` is beyond the table.
    pub fn threshold(&self, left: u32) -> Option<u32> {
        let m = self.min_winning_take(left)?;
        self.game.rule.smallest_prev_allowing(u64::from(m)).map(|n| n as u32)
    }

    /// The document's "suite gagnante": `m(2), m(3), ..., m(max_left)`.
    pub fn winning_sequence(&self) -> Vec<u32> {
        (2..=self.max_left()).map(|a| self.min_take[a as usize]).collect()
    }

    /// The "base sequence" of the document: the takes `t` with `m(t + 1) = t`, i.e. the heap
    /// sizes from which the only way to win is to leave a single match (misère play).
    pub fn base_sequence(&self) -> Vec<u32> {
        (2..=self.max_left())
            .filter(|&a| self.min_take[a as usize] == a - 1)
            .map(|a| a - 1)
            .collect()
    }
}

/// The Fibonacci numbers of the document, `F_1 = 1, F_2 = 2, F_3 = 3, F_4 = 5, ...`, up to
/// `max` included.
pub fn fibonacci_up_to(max: u64) -> Vec<u64> {
    let mut f = vec![1u64, 2];
    while let Some(next) = f[f.len() - 1].checked_add(f[f.len() - 2]) {
        if next > max {
            break;
        }
        f.push(next);
    }
    f.retain(|&x| x <= max);
    f
}

/// The Zeckendorf decomposition of `x >= 1`: distinct, non-consecutive Fibonacci numbers
/// summing to `x`, largest first (the greedy choice, as in the document's lemma). Empty for 0.
pub fn zeckendorf(mut x: u64) -> Vec<u64> {
    let fib = fibonacci_up_to(x);
    let mut parts = Vec::new();
    for &f in fib.iter().rev() {
        if f <= x {
            parts.push(f);
            x -= f;
        }
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Solver;

    /// The compressed table equals brute force on every position up to 80 matches, for several
    /// rules and both conventions, outcomes and winning takes.
    #[test]
    fn table_matches_the_solver() {
        let rules = ["2n", "3n", "4n", "n+1", "n", "2n+1", "1", "3"];
        for r in rules {
            for convention in [Convention::Normal, Convention::Misere] {
                let rule: Rule = r.parse().unwrap();
                let game = MatchGame { rule, convention };
                let table = MatchTable::new(game, 80).unwrap();
                let mut solver = Solver::new(&game);
                for left in 0..=80 {
                    for prev in 0..=(left + 1) {
                        let p = MatchPos { left, prev };
                        let brute = solver.outcome(&p).unwrap();
                        assert_eq!(table.outcome(p), Some(brute), "{r} {convention} {p}");
                        let w: Vec<u32> =
                            solver.winning_moves(&p).unwrap().into_iter().map(|(t, _)| t).collect();
                        assert_eq!(table.winning_takes(p), Some(w), "{r} {convention} {p}");
                    }
                }
            }
        }
    }

    /// The document's theorem: under 2n, `m(a)` is the smallest Zeckendorf part of `a - 1`.
    #[test]
    fn zeckendorf_theorem() {
        let t = MatchTable::new(MatchGame::misere(Rule::DOUBLE), 20_000).unwrap();
        for a in 2..=20_000u32 {
            let z = zeckendorf(u64::from(a - 1));
            assert_eq!(t.min_winning_take(a).map(u64::from), z.last().copied(), "a = {a}");
        }
        assert_eq!(t.min_winning_take(1), None);
    }

    proptest::proptest! {
        /// For any rule, every winning take leads to a P-position and every other legal take to
        /// an N-position (the definition of the outcomes, checked on the table's own answers).
        #[test]
        fn table_is_self_consistent(k in 0u32..6, q in 0u32..3, left in 0u32..400, prev in 0u32..60) {
            let Ok(rule) = Rule::new(k, q) else { return Ok(()) };
            for convention in [Convention::Normal, Convention::Misere] {
                let t = MatchTable::new(MatchGame { rule, convention }, 400).unwrap();
                let p = MatchPos { left, prev };
                let winning = t.winning_takes(p).unwrap();
                let max = rule.cap(prev).min(u64::from(left)) as u32;
                for take in 1..=max {
                    let q = MatchPos { left: left - take, prev: take };
                    let lost = t.outcome(q).unwrap() == Outcome::Lose;
                    proptest::prop_assert_eq!(lost, winning.contains(&take));
                }
                if left > 0 {
                    proptest::prop_assert_eq!(t.outcome(p).unwrap().is_win(), !winning.is_empty());
                }
            }
        }
    }

    #[test]
    fn zeckendorf_decompositions() {
        assert_eq!(zeckendorf(49), vec![34, 13, 2]);
        assert_eq!(zeckendorf(1), vec![1]);
        assert_eq!(zeckendorf(0), Vec::<u64>::new());
        assert_eq!(fibonacci_up_to(60), vec![1, 2, 3, 5, 8, 13, 21, 34, 55]);
        let big = fibonacci_up_to(u64::MAX);
        assert!(big.len() > 85);
        for x in [u64::MAX, 1 << 63, 12_345_678_901] {
            let z = zeckendorf(x);
            assert_eq!(z.iter().sum::<u64>(), x);
            for w in z.windows(2) {
                let i = big.iter().position(|&f| f == w[0]).unwrap();
                let j = big.iter().position(|&f| f == w[1]).unwrap();
                assert!(i >= j + 2, "{x}: {z:?}");
            }
        }
    }

    #[test]
    fn rules_parse_and_print() {
        for (text, k, q, shown) in [
            ("2n", 2, 0, "2n"),
            ("3N", 3, 0, "3n"),
            ("n+1", 1, 1, "n+1"),
            ("2 n + 1", 2, 1, "2n+1"),
            ("2*n", 2, 0, "2n"),
            ("n", 1, 0, "n"),
        ] {
            let r: Rule = text.parse().unwrap();
            assert_eq!((r.k(), r.q()), (k, q), "{text}");
            assert_eq!(r.to_string(), shown);
        }
        for bad in ["", "n+", "x", "0", "0n", "n+x", "-1n", "2+1"] {
            assert!(bad.parse::<Rule>().is_err(), "{bad}");
        }
        assert_eq!(Rule::new(0, 3).unwrap().to_string(), "3");
        assert_eq!("3".parse::<Rule>().unwrap(), Rule::new(0, 3).unwrap());
        assert!(Rule::DOUBLE.with_first_max(0).is_err());
    }

    #[test]
    fn thresholds() {
        let r = Rule::DOUBLE;
        assert_eq!(r.smallest_prev_allowing(13), Some(7));
        assert_eq!(r.smallest_prev_allowing(2), Some(1));
        assert_eq!(Rule::N_PLUS_ONE.smallest_prev_allowing(40), Some(39));
        assert_eq!(Rule::new(0, 3).unwrap().smallest_prev_allowing(4), None);
        let t = MatchTable::new(MatchGame::misere(r), 60).unwrap();
        assert_eq!(t.threshold(48), Some(7));
        assert_eq!(t.threshold(1), None);
        assert_eq!(t.outcome(MatchPos::opening(50)), Some(Outcome::Win));
        assert_eq!(t.winning_takes(MatchPos::opening(50)), Some(vec![2]));
        assert_eq!(t.outcome(MatchPos { left: 61, prev: 1 }), None);
    }
}
