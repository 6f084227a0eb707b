//! Stacking methods: how the winner of a trick puts the cards he won under his hand.
//!
//! The cards on the table are kept as pairs in the order they were revealed:
//! `table[2i]` is the first player's card of the i-th reveal, `table[2i + 1]` the second's.
//! A method reorders the table in place into the order in which the cards go under the winner's
//! hand (first = nearest the top).

use std::fmt;
use std::str::FromStr;

use rand::Rng;
use rand::seq::SliceRandom;

use crate::position::Player;
use crate::spec::Card;

/// A stacking method. Each player may use a different one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// The card that won, the loser's card, then the pair of the last battle, the pair before,
    /// and so on back to the first pair (the article's "rangement naturel").
    Natural,
    /// All cards won, strongest first ("rangement optimisé").
    Optimized,
    /// The cards won in uniformly random order ("rangement aléatoire"). Not deterministic:
    /// a repeated position is not a loop.
    Random,
    /// All cards won, weakest first: the choice of the second player in the article's box 3
    /// (C=1 V=4 example).
    Ascending,
    /// Pairs in natural order (last reveal first), the first player's card before the second's
    /// in each pair, whoever won: Lakshtanov's rule in the article's box 3.
    FirstPlayerFirst,
}

impl Method {
    /// Every method, in the order they are listed to users.
    pub const ALL: [Method; 5] = [
        Method::Natural,
        Method::Optimized,
        Method::Random,
        Method::Ascending,
        Method::FirstPlayerFirst,
    ];

    /// The three methods of the article.
    pub const ARTICLE: [Method; 3] = [Method::Optimized, Method::Natural, Method::Random];

    /// The name used on the command line and in CSV files.
    pub fn name(self) -> &'static str {
        match self {
            Method::Natural => "natural",
            Method::Optimized => "optimized",
            Method::Random => "random",
            Method::Ascending => "ascending",
            Method::FirstPlayerFirst => "first-player-first",
        }
    }

    /// Reads a method name (as printed by [`Method::name`]; `optimised` is accepted too).
    pub fn from_name(name: &str) -> Option<Method> {
        match name {
            "optimised" => Some(Method::Optimized),
            _ => Method::ALL.into_iter().find(|m| m.name() == name),
        }
    }

    /// Whether the method's order depends only on the cards (then a repeated position is a
    /// loop).
    pub fn is_deterministic(self) -> bool {
        self != Method::Random
    }

    /// Whether the method treats both players alike, so that swapping the players mirrors
    /// the game.
    pub fn is_symmetric(self) -> bool {
        self != Method::FirstPlayerFirst
    }

    /// Orders the cards of a trick with no battle: `a` is the first player's card, `b` the
    /// second's, `winner` the player with the higher card.
    #[inline(always)]
    pub fn order_pair<R: Rng + ?Sized>(
        self,
        a: Card,
        b: Card,
        winner: Player,
        rng: &mut R,
    ) -> [Card; 2] {
        let (hi, lo) = if a > b { (a, b) } else { (b, a) };
        match self {
            Method::Natural | Method::Optimized => [hi, lo],
            Method::Ascending => [lo, hi],
            Method::FirstPlayerFirst => [a, b],
            Method::Random => {
                let _ = winner;
                if rng.random::<bool>() { [hi, lo] } else { [lo, hi] }
            }
        }
    }

    /// Orders, in place, all the cards of a trick: on entry `table` holds the reveals as
    /// described in the module docs, on return the order in which they go under the winner's
    /// hand.
    pub fn order_table<R: Rng + ?Sized>(self, table: &mut [Card], winner: Player, rng: &mut R) {
        debug_assert!(table.len().is_multiple_of(2));
        match self {
            Method::Natural | Method::FirstPlayerFirst => {
                // Pairs from the last reveal back to the first, the chosen card of each first.
                table.reverse();
                // After the reversal each pair reads (second's card, first's card).
                let lead_second = self == Method::Natural && winner == Player::Second;
                if !lead_second {
                    for pair in table.chunks_exact_mut(2) {
                        pair.swap(0, 1);
                    }
                }
            }
            Method::Optimized => table.sort_unstable_by(|x, y| y.cmp(x)),
            Method::Ascending => table.sort_unstable(),
            Method::Random => table.shuffle(rng),
        }
    }
}

/// A name that is not a stacking method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodError {
    name: String,
}

impl fmt::Display for MethodError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown stacking method {}: expected one of ",
            crate::position::quoted(&self.name)
        )?;
        for (i, m) in Method::ALL.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            write!(f, "{sep}{}", m.name())?;
        }
        Ok(())
    }
}

impl std::error::Error for MethodError {}

impl FromStr for Method {
    type Err = MethodError;

    /// Reads a name printed by [`Method::name`] (`optimised` is accepted too).
    fn from_str(s: &str) -> Result<Method, MethodError> {
        Method::from_name(s).ok_or_else(|| MethodError { name: s.to_string() })
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A pair of methods, one per player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Methods {
    /// The first player's method.
    pub first: Method,
    /// The second player's method.
    pub second: Method,
}

impl Methods {
    /// Both players use `m`.
    pub fn both(m: Method) -> Methods {
        Methods { first: m, second: m }
    }

    /// The first player uses `first`, the second `second`.
    pub fn new(first: Method, second: Method) -> Methods {
        Methods { first, second }
    }

    /// The method of `player`.
    pub fn of(self, player: Player) -> Method {
        match player {
            Player::First => self.first,
            Player::Second => self.second,
        }
    }

    /// Whether the whole game is deterministic.
    pub fn is_deterministic(self) -> bool {
        self.first.is_deterministic() && self.second.is_deterministic()
    }

    /// Whether swapping the players maps a game to its mirror image.
    pub fn is_swap_symmetric(self) -> bool {
        self.first == self.second && self.first.is_symmetric()
    }
}

impl FromStr for Methods {
    type Err = MethodError;

    /// Reads `m` (both players use `m`) or `a/b` (the first player uses `a`, the second `b`),
    /// the form printed by the `Display` of [`Methods`].
    fn from_str(s: &str) -> Result<Methods, MethodError> {
        match s.split_once('/') {
            Some((a, b)) => Ok(Methods::new(a.parse()?, b.parse()?)),
            None => s.parse().map(Methods::both),
        }
    }
}

impl fmt::Display for Methods {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.first == self.second {
            write!(f, "{}", self.first)
        } else {
            write!(f, "{}/{}", self.first, self.second)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::NoRandom;

    #[test]
    fn names_round_trip() {
        for m in Method::ALL {
            assert_eq!(Method::from_name(m.name()), Some(m));
        }
        assert_eq!(Method::from_name("optimised"), Some(Method::Optimized));
        assert_eq!(Method::from_name("nope"), None);
        let err = "nope".parse::<Method>().unwrap_err().to_string();
        assert!(err.contains("\"nope\"") && err.contains("first-player-first"), "{err}");
        for a in Method::ALL {
            assert_eq!(Methods::both(a).to_string().parse(), Ok(Methods::both(a)));
            for b in Method::ALL {
                assert_eq!(Methods::new(a, b).to_string().parse(), Ok(Methods::new(a, b)));
            }
        }
        assert!("natural/".parse::<Methods>().is_err());
        assert!("natural/optimized/random".parse::<Methods>().is_err());
    }

    #[test]
    fn table_orders() {
        // Reveals 3=3, 2=2, 1=1, then 1 < 2: the second player wins (article example).
        let table = [3, 3, 2, 2, 1, 1, 1, 2];
        let check = |m: Method, winner: Player, expected: [Card; 8]| {
            let mut t = table;
            m.order_table(&mut t, winner, &mut NoRandom);
            assert_eq!(t, expected, "{m} {winner:?}");
        };
        check(Method::Natural, Player::Second, [2, 1, 1, 1, 2, 2, 3, 3]);
        check(Method::Optimized, Player::Second, [3, 3, 2, 2, 2, 1, 1, 1]);
        check(Method::Ascending, Player::Second, [1, 1, 1, 2, 2, 2, 3, 3]);
        check(Method::FirstPlayerFirst, Player::Second, [1, 2, 1, 1, 2, 2, 3, 3]);
        // A first-player win: reveals 2=2, then 3 > 1.
        let table = [2, 2, 3, 1];
        let mut t = table;
        Method::Natural.order_table(&mut t, Player::First, &mut NoRandom);
        assert_eq!(t, [3, 1, 2, 2]);
        let mut t = [2, 2, 1, 3];
        Method::FirstPlayerFirst.order_table(&mut t, Player::Second, &mut NoRandom);
        assert_eq!(t, [1, 3, 2, 2]);
    }

    #[test]
    fn pair_orders() {
        let r = &mut NoRandom;
        assert_eq!(Method::Natural.order_pair(2, 5, Player::Second, r), [5, 2]);
        assert_eq!(Method::Optimized.order_pair(5, 2, Player::First, r), [5, 2]);
        assert_eq!(Method::Ascending.order_pair(5, 2, Player::First, r), [2, 5]);
        assert_eq!(Method::FirstPlayerFirst.order_pair(2, 5, Player::Second, r), [2, 5]);
    }
}
