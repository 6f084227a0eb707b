//! The playing state: two ring buffers of cards, and the trick.
//!
//! A [`Game`] is a fixed-size value (two 256-byte rings and their indices): copying it is a
//! `memcpy`, playing a trick touches no heap, and the same value is reused for every deal of a
//! search.

use std::cmp::Ordering;

use rand::RngCore;

use crate::method::{Method, Methods};
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

/// A scripted order that is not the cards won in its trick.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderError {
    /// The cards on the table, in reveal order (first player's card first in each pair).
    pub won: Vec<Card>,
    /// The order given.
    pub order: Vec<Card>,
}

impl std::fmt::Display for OrderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let show = |c: &[Card]| c.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",");
        write!(
            f,
            "the order [{}] is not an arrangement of the cards won in this trick ({})",
            show(&self.order),
            show(&self.won)
        )
    }
}

impl std::error::Error for OrderError {}

/// Two hands at a trick boundary, stored as two rings of 256 bytes.
///
/// Player `p`'s ring is `ring[256 p .. 256 p + 256]`; `head[p]` and `tail[p]` are free-running
/// counters (wrapping), the hand being the cards at `head..tail` modulo 256. A player never
/// holds more than [`MAX_CARDS`] cards, so the ring never overflows.
pub struct Game {
    pub(crate) ring: [Card; 2 * MAX_CARDS],
    pub(crate) head: [u32; 2],
    pub(crate) tail: [u32; 2],
}

/// The index in [`Game::ring`] of counter value `i` of player `p`.
#[inline(always)]
pub(crate) fn slot(p: usize, i: u32) -> usize {
    (p << 8) | (i as usize & (MAX_CARDS - 1))
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Game({})", self.to_position())
    }
}

impl Clone for Game {
    fn clone(&self) -> Game {
        Game { ring: self.ring, head: self.head, tail: self.tail }
    }

    /// Copies only the 32-byte blocks of each ring that hold the hand (the other slots are
    /// never read) rather than all 512 bytes: `play_deterministic` clones the game once per
    /// deal (and at every Brent save of a long game), and full copies (a `memcpy` call each)
    /// were about 18% of an exhaustive C=4 V=4 search when there were two per deal.
    #[inline]
    fn clone_from(&mut self, src: &Game) {
        const BLOCK: usize = 32;
        for p in 0..2 {
            let base = p * MAX_CARDS;
            let start = src.head[p] as usize & (MAX_CARDS - 1);
            let end = start + src.tail[p].wrapping_sub(src.head[p]) as usize;
            if end > MAX_CARDS {
                let dst: &mut [Card; MAX_CARDS] =
                    (&mut self.ring[base..base + MAX_CARDS]).try_into().expect("a whole ring");
                *dst = src.ring[base..base + MAX_CARDS].try_into().expect("a whole ring");
                continue;
            }
            let mut b = start & !(BLOCK - 1);
            while b < end {
                let at = base + b;
                let dst: &mut [Card; BLOCK] =
                    (&mut self.ring[at..at + BLOCK]).try_into().expect("a whole block");
                *dst = src.ring[at..at + BLOCK].try_into().expect("a whole block");
                b += BLOCK;
            }
        }
        self.head = src.head;
        self.tail = src.tail;
    }
}

impl Default for Game {
    fn default() -> Game {
        Game { ring: [0; 2 * MAX_CARDS], head: [0; 2], tail: [0; 2] }
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
    ///
    /// Each hand starts at slot 0 or 1 of its ring so that its tail counter is even. Every
    /// trick adds an even number of cards (two per reveal), so the tails stay even, and the
    /// hot loop of [`crate::play_deterministic`] writes the two cards of a trick as one
    /// aligned pair that never straddles the end of the ring.
    #[inline]
    pub fn set(&mut self, first: &[Card], second: &[Card]) {
        debug_assert!(first.len() + second.len() <= MAX_CARDS);
        let (s0, s1) = (first.len() & 1, MAX_CARDS + (second.len() & 1));
        self.ring[s0..s0 + first.len()].copy_from_slice(first);
        self.ring[s1..s1 + second.len()].copy_from_slice(second);
        self.head = [(first.len() & 1) as u32, (second.len() & 1) as u32];
        self.tail = [self.head[0] + first.len() as u32, self.head[1] + second.len() as u32];
    }

    /// Whether both tail counters are even (see [`Game::set`]).
    #[inline(always)]
    pub(crate) fn tails_even(&self) -> bool {
        (self.tail[0] | self.tail[1]) & 1 == 0
    }

    /// The current position (allocates: for traces and reports, not for hot loops).
    pub fn to_position(&self) -> Position {
        Position::new(self.hand(Player::First).collect(), self.hand(Player::Second).collect())
            .expect("a game holds a valid position")
    }

    /// The cards of `player`, top first.
    pub fn hand(&self, player: Player) -> impl Iterator<Item = Card> + '_ {
        let p = player.index();
        (0..self.len_of(p)).map(move |i| self.ring[slot(p, self.head[p].wrapping_add(i))])
    }

    /// The number of cards `player` holds.
    #[inline(always)]
    pub fn len(&self, player: Player) -> usize {
        self.len_of(player.index()) as usize
    }

    #[inline(always)]
    pub(crate) fn len_of(&self, p: usize) -> u32 {
        self.tail[p].wrapping_sub(self.head[p])
    }

    /// Whether both hands are empty.
    pub fn is_empty(&self) -> bool {
        self.head == self.tail
    }

    /// The ending if a player cannot turn a card now (at a trick boundary).
    #[inline(always)]
    pub fn ending(&self) -> Option<Ending> {
        match (self.head[0] == self.tail[0], self.head[1] == self.tail[1]) {
            (false, false) => None,
            (true, false) => Some(Ending::SecondWins),
            (false, true) => Some(Ending::FirstWins),
            (true, true) => Some(Ending::Draw),
        }
    }

    #[inline(always)]
    fn pop(&mut self, p: usize) -> Card {
        let c = self.ring[slot(p, self.head[p])];
        self.head[p] = self.head[p].wrapping_add(1);
        c
    }

    #[inline(always)]
    fn push(&mut self, p: usize, c: Card) {
        self.ring[slot(p, self.tail[p])] = c;
        self.tail[p] = self.tail[p].wrapping_add(1);
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
    pub(crate) fn battle<R: RngCore + ?Sized>(
        &mut self,
        card: Card,
        methods: Methods,
        rng: &mut R,
    ) -> Trick {
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
                let w = winner.index();
                let method = methods.of(winner);
                match method {
                    // The pairs from the last reveal back, written straight to the ring.
                    Method::Natural | Method::FirstPlayerFirst => {
                        let lead = if method == Method::Natural { w } else { 0 };
                        for pair in table[..n].chunks_exact(2).rev() {
                            self.push(w, pair[lead]);
                            self.push(w, pair[1 - lead]);
                        }
                    }
                    _ => {
                        let won = &mut table[..n];
                        method.order_table(won, winner, rng);
                        for &c in won.iter() {
                            self.push(w, c);
                        }
                    }
                }
                return Trick { reveals, result: TrickResult::Taken(winner) };
            }
        }
    }

    /// Plays one trick in which the winner stacks the cards in the explicit `order` (first =
    /// nearest the top): a scripted trick, to replay published choices of the random method.
    /// `order` must hold exactly the cards won; otherwise nothing is played and the error says
    /// which cards were won. The caller has checked [`Game::ending`] is `None`.
    pub fn trick_with_order(&mut self, order: &[Card]) -> Result<Trick, OrderError> {
        debug_assert!(self.ending().is_none());
        let before = self.clone();
        let mut won = Vec::new();
        let mut reveals = 0;
        let winner = loop {
            if let Some(end) = self.ending() {
                return Ok(Trick { reveals, result: TrickResult::Ended(end) });
            }
            let (a, b) = (self.pop(0), self.pop(1));
            reveals += 1;
            won.extend([a, b]);
            if a != b {
                break if a > b { Player::First } else { Player::Second };
            }
        };
        let mut sorted_won = won.clone();
        sorted_won.sort_unstable();
        let mut sorted_order = order.to_vec();
        sorted_order.sort_unstable();
        if sorted_won != sorted_order {
            *self = before;
            return Err(OrderError { won, order: order.to_vec() });
        }
        for &c in order {
            self.push(winner.index(), c);
        }
        Ok(Trick { reveals, result: TrickResult::Taken(winner) })
    }

    /// Whether both hands are the same as in `other`.
    #[inline(always)]
    pub fn same_position(&self, other: &Game) -> bool {
        self.len_of(0) == other.len_of(0)
            && self.len_of(1) == other.len_of(1)
            && self.cmp_cards(false, other, false) == Ordering::Equal
    }

    /// The canonical order of positions (first hand's length, then the cards of the first hand,
    /// then of the second), with either game optionally read with its players swapped.
    pub fn cmp_oriented(&self, swap: bool, other: &Game, other_swap: bool) -> Ordering {
        let (p, q) = (usize::from(swap), usize::from(other_swap));
        self.len_of(p).cmp(&other.len_of(q)).then_with(|| self.cmp_cards(swap, other, other_swap))
    }

    fn cmp_cards(&self, swap: bool, other: &Game, other_swap: bool) -> Ordering {
        for k in 0..2 {
            let (p, q) = (k ^ usize::from(swap), k ^ usize::from(other_swap));
            let (lp, lq) = (self.len_of(p), other.len_of(q));
            for i in 0..lp.min(lq) {
                let x = self.ring[slot(p, self.head[p].wrapping_add(i))];
                let y = other.ring[slot(q, other.head[q].wrapping_add(i))];
                if x != y {
                    return x.cmp(&y);
                }
            }
            if lp != lq {
                return lp.cmp(&lq);
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
        let len = self.len_of(first);
        eat(len as u8);
        eat((len >> 8) as u8);
        for k in 0..2 {
            let p = k ^ first;
            for i in 0..self.len_of(p) {
                eat(self.ring[slot(p, self.head[p].wrapping_add(i))]);
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
    fn scripted_orders() {
        // Box 3 of the article: [4, 1] / [2, 3] comes back in four scripted tricks.
        let start: Position = "[4, 1] / [2, 3]".parse().unwrap();
        let mut g = Game::new(&start);
        for order in [[4, 2], [1, 3], [4, 1], [2, 3]] {
            g.trick_with_order(&order).unwrap();
        }
        assert_eq!(g.to_position(), start);
        let err = g.trick_with_order(&[4, 4]).unwrap_err();
        assert_eq!(err.won, vec![4, 2]);
        assert_eq!(g.to_position(), start, "a refused order plays nothing");
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
    fn tails_stay_even() {
        // Odd and even hands; the last two open with a battle.
        for deal in ["5,3/2,4,1", "1,2,3/4", "/1", "3,1/2,4", "1,2,3/1,3,2", "2,2,1,3/2,2,3,1"] {
            let position: Position = deal.parse().unwrap();
            let mut g = Game::new(&position);
            assert!(g.tails_even(), "{deal}");
            assert_eq!(g.to_position(), position);
            // Tricks keep them even, battles included.
            while g.ending().is_none() && g.tails_even() && g.head[0] < 100 {
                g.trick(Methods::both(Method::Natural), &mut NoRandom);
            }
            assert!(g.tails_even(), "{deal}");
        }
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
