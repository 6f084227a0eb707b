//! The playing state: two ring buffers of cards, and the trick.
//!
//! A [`Game`] is a fixed-size value (two 256-byte rings and their indices): copying it is a
//! `memcpy`, playing a trick touches no heap, and the same value is reused for every deal of a
//! search.

use std::cmp::Ordering;

use rand::RngCore;

use crate::method::Methods;
use crate::position::{Player, Position};
use crate::spec::{Card, MAX_CARDS};

/// How a finished game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ending {
    /// The second player had to turn a card and had none.
    FirstWins,
    /// The first player had to turn a card and had none.
    SecondWins,
    /// Both ran out at the same reveal.
    Draw,
}

/// What one trick did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Trick {
    /// Reveals in the trick (cards each player turned): 1, plus one per battle.
    pub reveals: u32,
    /// Who took the cards, or how the game ended during a battle.
    pub result: TrickResult,
}

/// The result of a trick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrickResult {
    /// This player took the cards.
    Taken(Player),
    /// A battle could not be finished: a player (or both) ran out. The cards on the table are
    /// out of play.
    Ended(Ending),
}

/// Two hands at a trick boundary, stored as two rings of 256 bytes.
pub struct Game {
    rings: [[Card; MAX_CARDS]; 2],
    head: [u8; 2],
    len: [u16; 2],
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Game({})", self.to_position())
    }
}

impl Clone for Game {
    fn clone(&self) -> Game {
        Game { rings: self.rings, head: self.head, len: self.len }
    }

    /// Copies only the 32-byte blocks that hold cards in play (slots outside a hand are never
    /// read) instead of both 256-byte rings: a search resets its working games at every deal,
    /// and for small decks the two full copies were about 15% of the search time (a `memcpy`
    /// call each), against a few inlined block moves.
    #[inline]
    fn clone_from(&mut self, src: &Game) {
        const BLOCK: usize = 32;
        for p in 0..2 {
            let (h, n) = (usize::from(src.head[p]), usize::from(src.len[p]));
            if h + n > MAX_CARDS {
                self.rings[p] = src.rings[p];
                continue;
            }
            let mut b = h & !(BLOCK - 1);
            while b < h + n {
                let dst: &mut [Card; BLOCK] =
                    (&mut self.rings[p][b..b + BLOCK]).try_into().expect("a whole block");
                let from: &[Card; BLOCK] =
                    src.rings[p][b..b + BLOCK].try_into().expect("a whole block");
                *dst = *from;
                b += BLOCK;
            }
        }
        self.head = src.head;
        self.len = src.len;
    }
}

impl Default for Game {
    fn default() -> Game {
        Game { rings: [[0; MAX_CARDS]; 2], head: [0; 2], len: [0; 2] }
    }
}

impl Game {
    /// The game at `position`.
    pub fn new(position: &Position) -> Game {
        let mut g = Game::default();
        g.set(position.first(), position.second());
        g
    }

    /// Resets to the hands `first` and `second` (top card first), reusing this value.
    ///
    /// The caller guarantees at most [`MAX_CARDS`] cards in all, which [`Position`] and
    /// [`crate::DeckSpec`] enforce.
    #[inline]
    pub fn set(&mut self, first: &[Card], second: &[Card]) {
        debug_assert!(first.len() + second.len() <= MAX_CARDS);
        self.rings[0][..first.len()].copy_from_slice(first);
        self.rings[1][..second.len()].copy_from_slice(second);
        self.head = [0; 2];
        self.len = [first.len() as u16, second.len() as u16];
    }

    /// The current position (allocates: for traces and reports, not for hot loops).
    pub fn to_position(&self) -> Position {
        Position::new(self.hand(Player::First).collect(), self.hand(Player::Second).collect())
            .expect("a game holds a valid position")
    }

    /// The cards of `player`, top first.
    pub fn hand(&self, player: Player) -> impl Iterator<Item = Card> + '_ {
        let p = player.index();
        (0..self.len[p]).map(move |i| self.rings[p][self.head[p].wrapping_add(i as u8) as usize])
    }

    /// The number of cards `player` holds.
    #[inline(always)]
    pub fn len(&self, player: Player) -> usize {
        usize::from(self.len[player.index()])
    }

    /// Whether both hands are empty.
    pub fn is_empty(&self) -> bool {
        self.len == [0, 0]
    }

    /// The ending if a player cannot turn a card now (at a trick boundary).
    #[inline(always)]
    pub fn ending(&self) -> Option<Ending> {
        match (self.len[0] == 0, self.len[1] == 0) {
            (false, false) => None,
            (true, false) => Some(Ending::SecondWins),
            (false, true) => Some(Ending::FirstWins),
            (true, true) => Some(Ending::Draw),
        }
    }

    #[inline(always)]
    fn pop(&mut self, p: usize) -> Card {
        let c = self.rings[p][self.head[p] as usize];
        self.head[p] = self.head[p].wrapping_add(1);
        self.len[p] -= 1;
        c
    }

    #[inline(always)]
    fn push(&mut self, p: usize, c: Card) {
        let at = self.head[p].wrapping_add(self.len[p] as u8);
        self.rings[p][at as usize] = c;
        self.len[p] += 1;
    }

    /// Plays one trick. The caller has checked [`Game::ending`] is `None`.
    ///
    /// `rng` is only used by [`crate::Method::Random`]; deterministic games may pass
    /// [`NoRandom`].
    #[inline(always)]
    pub fn trick<R: RngCore + ?Sized>(&mut self, methods: Methods, rng: &mut R) -> Trick {
        debug_assert!(self.ending().is_none());
        let a = self.pop(0);
        let b = self.pop(1);
        if a != b {
            let winner = if a > b { Player::First } else { Player::Second };
            let [x, y] = methods.of(winner).order_pair(a, b, winner, rng);
            let w = winner.index();
            self.push(w, x);
            self.push(w, y);
            return Trick { reveals: 1, result: TrickResult::Taken(winner) };
        }
        self.battle(a, methods, rng)
    }

    /// The rest of a trick whose first reveal was a tie on `card`.
    #[cold]
    #[inline(never)]
    fn battle<R: RngCore + ?Sized>(&mut self, card: Card, methods: Methods, rng: &mut R) -> Trick {
        let mut table = [0 as Card; MAX_CARDS];
        table[0] = card;
        table[1] = card;
        let mut n = 2;
        let mut reveals = 1;
        loop {
            if let Some(end) = self.ending() {
                return Trick { reveals, result: TrickResult::Ended(end) };
            }
            let a = self.pop(0);
            let b = self.pop(1);
            reveals += 1;
            table[n] = a;
            table[n + 1] = b;
            n += 2;
            if a != b {
                let winner = if a > b { Player::First } else { Player::Second };
                let won = &mut table[..n];
                methods.of(winner).order_table(won, winner, rng);
                let w = winner.index();
                for &c in won.iter() {
                    self.push(w, c);
                }
                return Trick { reveals, result: TrickResult::Taken(winner) };
            }
        }
    }

    /// Whether both hands are the same as in `other`.
    #[inline(always)]
    pub fn same_position(&self, other: &Game) -> bool {
        // The two lengths are compared one at a time: a single 32-bit load of both, right
        // after the trick's 16-bit store to one of them, cannot be store-forwarded and stalls
        // the loop (measured: about half of the search time).
        self.len[0] == other.len[0]
            && self.len[1] == other.len[1]
            && self.cmp_cards(false, other, false) == Ordering::Equal
    }

    /// The canonical order of positions (first hand's length, then the cards of the first hand,
    /// then of the second), with either game optionally read with its players swapped.
    pub fn cmp_oriented(&self, swap: bool, other: &Game, other_swap: bool) -> Ordering {
        let (p, q) = (usize::from(swap), usize::from(other_swap));
        self.len[p].cmp(&other.len[q]).then_with(|| self.cmp_cards(swap, other, other_swap))
    }

    fn cmp_cards(&self, swap: bool, other: &Game, other_swap: bool) -> Ordering {
        for k in 0..2 {
            let (p, q) = (k ^ usize::from(swap), k ^ usize::from(other_swap));
            let n = self.len[p].min(other.len[q]);
            for i in 0..n {
                let x = self.rings[p][self.head[p].wrapping_add(i as u8) as usize];
                let y = other.rings[q][other.head[q].wrapping_add(i as u8) as usize];
                if x != y {
                    return x.cmp(&y);
                }
            }
            if self.len[p] != other.len[q] {
                return self.len[p].cmp(&other.len[q]);
            }
        }
        Ordering::Equal
    }

    /// A 64-bit FNV-1a hash of the position, optionally read with the players swapped. Stable
    /// across runs, platforms and versions: it names cycles in CSV files.
    pub fn fingerprint(&self, swap: bool) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |byte: u8| {
            h ^= u64::from(byte);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        };
        let first = usize::from(swap);
        let len = self.len[first];
        eat(len as u8);
        eat((len >> 8) as u8);
        for k in 0..2 {
            let p = k ^ first;
            for i in 0..self.len[p] {
                eat(self.rings[p][self.head[p].wrapping_add(i as u8) as usize]);
            }
        }
        h
    }
}

/// A random source for deterministic games, which never draw from it. It yields zeros.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoRandom;

impl RngCore for NoRandom {
    fn next_u32(&mut self) -> u32 {
        0
    }
    fn next_u64(&mut self) -> u64 {
        0
    }
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        dst.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::method::Method;

    fn after_one_trick(deal: &str, m: Method) -> String {
        let mut g = Game::new(&deal.parse().unwrap());
        g.trick(Methods::both(m), &mut NoRandom);
        g.to_position().to_string()
    }

    #[test]
    fn article_stacking_examples() {
        let deal = "[3, 2, 1, 1, 2, 1] / [3, 2, 1, 2, 3, 3]";
        assert_eq!(
            after_one_trick(deal, Method::Natural),
            "[2, 1] / [3, 3, 2, 1, 1, 1, 2, 2, 3, 3]"
        );
        assert_eq!(
            after_one_trick(deal, Method::Optimized),
            "[2, 1] / [3, 3, 3, 3, 2, 2, 2, 1, 1, 1]"
        );
    }

    #[test]
    fn battle_exhausting_both_is_a_draw() {
        let mut g = Game::new(&"1,2/1,2".parse().unwrap());
        let t = g.trick(Methods::both(Method::Natural), &mut NoRandom);
        assert_eq!(t, Trick { reveals: 2, result: TrickResult::Ended(Ending::Draw) });
        let mut g = Game::new(&"1/1,2".parse().unwrap());
        let t = g.trick(Methods::both(Method::Natural), &mut NoRandom);
        assert_eq!(t, Trick { reveals: 1, result: TrickResult::Ended(Ending::SecondWins) });
    }

    #[test]
    fn ring_wraps() {
        // Enough tricks to wrap the 256-slot rings many times.
        let mut g = Game::new(&"1,3/2,4".parse().unwrap());
        let mut n = 0;
        while g.ending().is_none() && n < 1000 {
            g.trick(Methods::both(Method::Natural), &mut NoRandom);
            n += 1;
        }
        assert_eq!(g.len(Player::First) + g.len(Player::Second), 4);
    }

    #[test]
    fn orientation_and_fingerprint() {
        let g = Game::new(&"5,3/2,4,1".parse().unwrap());
        let s = Game::new(&"2,4,1/5,3".parse().unwrap());
        assert_eq!(g.cmp_oriented(true, &s, false), Ordering::Equal);
        assert_eq!(g.fingerprint(true), s.fingerprint(false));
        assert_ne!(g.fingerprint(false), s.fingerprint(false));
        assert_eq!(g.cmp_oriented(false, &s, false), Ordering::Less, "shorter first hand first");
    }
}
