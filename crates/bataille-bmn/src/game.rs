//! The playing state and the trick, on run-length encoded hands.
//!
//! Numerals are indistinguishable, so a hand is fully described by its penalty cards and the
//! number of numerals in front of each. A [`Game`] stores each hand as a 256-slot ring of
//! 16-bit *tokens* `gap << 8 | penalty`: "`gap` numerals, then a card of this penalty". The
//! last token of every hand is a *sentinel* of penalty 0 whose gap is the numerals after the
//! last penalty card, so an empty hand is the single token 0. For example `--K-A---` is the
//! tokens `(2, K) (1, A) (3, end)`.
//!
//! A trick then costs one step per penalty card played instead of one per card:
//!
//! - *Alternation*: the leader plays his cards at turns 0, 2, 4, … and the follower at 1, 3, 5,
//!   …, so the first penalty card (or the first player to run out) comes from the leader if his
//!   gap `gₗ` is at most the follower's `g_f` (turn `2gₗ` against `2g_f + 1`).
//! - *Payment*: the payer owes `n`; with a gap `g < n` in front of his next penalty card he pays
//!   `g` numerals and then turns that card (or runs out, if it is his sentinel); otherwise he
//!   pays `n` numerals and the trick is over.
//! - The pile is kept as tokens too and ends under the taker's hand: its first gap merges with
//!   the numerals at the bottom of his hand. Its penalty cards are written below the bottom of
//!   both hands as they are played, and the taker's copy is kept: the pile is never copied.
//!
//! Nothing is allocated: a `Game` is three fixed arrays and a few counters, and copying the
//! live part of a position ([`Game::copy_position_from`]) touches only its tokens.

use std::cmp::Ordering;
use std::fmt;

use crate::deck::{Card, MAX_CARDS};
use crate::hands::{Hands, Player};

const RING: usize = 256;

/// A token: `gap << 8 | penalty`. Penalty 0 marks the end of a hand (the sentinel).
type Token = u16;

#[inline(always)]
fn gap(t: Token) -> u16 {
    t >> 8
}

#[inline(always)]
fn penalty(t: Token) -> u16 {
    t & 0xff
}

/// The cards of a token: its numerals, then its penalty card unless it is the sentinel.
fn expand(t: Token) -> impl Iterator<Item = Card> {
    std::iter::repeat_n(0, usize::from(gap(t)))
        .chain((penalty(t) != 0).then_some(penalty(t) as Card))
}

/// What one trick did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Trick {
    /// Cards turned during the trick, by both players.
    pub cards: u32,
    /// Who took the pile: the player of the last penalty card, or, if the game ended during the
    /// trick, the winner, who gathers it.
    pub taker: Player,
    /// Whether the game is over: the other player had to play and had no card, or was left with
    /// no card when the trick ended (the taker now holds every card).
    pub game_over: bool,
}

/// How [`Game::run`] stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Run {
    /// The game is over.
    Won { winner: Player, tricks: u64, cards: u64 },
    /// The position equals the saved one, `period` tricks after it was saved.
    Repeat { period: u64, tricks: u64, cards: u64 },
    /// The trick limit was reached.
    Capped { tricks: u64, cards: u64 },
}

/// The trick of Brent's first save in [`Game::run`].
const FIRST_SAVE: u64 = 32;

/// A shape no position has: nothing is saved yet.
const NO_SHAPE: u32 = u32::MAX;

/// Brent's algorithm, in [`Game::run`]: the shape of the saved position, the trick it was
/// saved at, and the trick of the next save.
struct Brent {
    shape: u32,
    saved_at: u64,
    next_save: u64,
}

/// Two hands at a trick boundary and the player to lead, run-length encoded (see the module
/// documentation).
#[derive(Clone)]
pub struct Game {
    /// The two rings, one after the other: player `p`'s slot `i` is `rings[p << 8 | i]`.
    rings: [Token; 2 * RING],
    /// Slot of each hand's first token.
    head: [u8; 2],
    /// Slot of each hand's sentinel (its last token): a hand holds `bottom - head + 1` tokens.
    bottom: [u8; 2],
    leader: u8,
    last: LastPile,
}

/// Where the pile of the last trick went, for [`Game::last_pile`].
#[derive(Debug, Clone, Copy, Default)]
struct LastPile {
    /// Its first penalty card and the numerals before it (or, with `len` 0, only numerals).
    first: Token,
    /// The taker's ring slot that `first` was merged into; the other penalty cards follow it.
    slot: u8,
    /// Penalty cards in the pile.
    len: u8,
    /// Numerals after the last penalty card.
    tail: u16,
}

impl Default for Game {
    /// Two empty hands, the first player to lead.
    fn default() -> Game {
        Game {
            rings: [0; 2 * RING],
            head: [0; 2],
            bottom: [0; 2],
            leader: 0,
            last: LastPile::default(),
        }
    }
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Game({}, {} leads)", self.to_hands(), self.leader())
    }
}

/// The index of slot `i` of player `p`'s ring (`p` is 0 or 1; the mask lets the compiler see
/// that the index is in bounds).
#[inline(always)]
fn at(p: usize, i: u8) -> usize {
    (p & 1) << 8 | usize::from(i)
}

impl Game {
    /// The game at the start of a deal: `first` and `second` (top first), the first to lead.
    pub fn new(first: &[Card], second: &[Card]) -> Game {
        let mut g = Game::default();
        g.set(first, second, Player::First);
        g
    }

    /// Resets to the hands `first` and `second` (top first) with `leader` to lead, reusing
    /// this value.
    ///
    /// The caller guarantees at most [`MAX_CARDS`] cards in all, each a penalty `0..=4`
    /// ([`Hands`] and [`crate::DeckSpec`] enforce it). Larger inputs panic.
    #[inline]
    pub fn set(&mut self, first: &[Card], second: &[Card], leader: Player) {
        assert!(first.len() + second.len() <= MAX_CARDS, "at most {MAX_CARDS} cards");
        self.encode(0, first);
        self.encode(1, second);
        self.leader = leader.index() as u8;
        self.last = LastPile::default();
    }

    #[inline(always)]
    fn encode(&mut self, p: usize, cards: &[Card]) {
        // Branch-free: every card writes the token in progress; a penalty card closes it.
        let ring = &mut self.rings[at(p, 0)..at(p, 0) + RING];
        let mut n: usize = 0;
        let mut gap: u16 = 0;
        for &c in cards {
            ring[n & 0xff] = gap << 8 | Token::from(c);
            let is_penalty = c != 0;
            n += usize::from(is_penalty);
            gap = if is_penalty { 0 } else { gap + 1 };
        }
        ring[n & 0xff] = gap << 8;
        self.head[p] = 0;
        self.bottom[p] = n as u8;
    }

    /// The number of tokens of hand `p`, sentinel included.
    #[inline(always)]
    fn tokens(&self, p: usize) -> usize {
        usize::from(self.bottom[p].wrapping_sub(self.head[p])) + 1
    }

    /// The `k`-th token of hand `p`.
    #[inline(always)]
    fn token(&self, p: usize, k: usize) -> Token {
        self.rings[at(p, self.head[p].wrapping_add(k as u8))]
    }

    /// The player to lead the next trick.
    #[inline(always)]
    pub fn leader(&self) -> Player {
        Player::from_index(usize::from(self.leader))
    }

    /// The cards of `player`, top first.
    pub fn hand(&self, player: Player) -> impl Iterator<Item = Card> + '_ {
        let p = player.index();
        (0..self.tokens(p)).flat_map(move |k| expand(self.token(p, k)))
    }

    /// The number of cards `player` holds.
    pub fn len(&self, player: Player) -> usize {
        let p = player.index();
        (0..self.tokens(p))
            .map(|k| {
                let t = self.token(p, k);
                usize::from(gap(t)) + usize::from(penalty(t) != 0)
            })
            .sum()
    }

    /// Whether `player` holds no card.
    #[inline(always)]
    pub fn is_empty(&self, player: Player) -> bool {
        self.token(player.index(), 0) == 0
    }

    /// The winner if a player holds no card (the other holds them all): the game is over.
    #[inline(always)]
    pub fn winner(&self) -> Option<Player> {
        match (self.is_empty(Player::First), self.is_empty(Player::Second)) {
            (_, true) => Some(Player::First),
            (true, false) => Some(Player::Second),
            (false, false) => None,
        }
    }

    /// The two hands (allocates: for traces and reports, not for hot loops).
    pub fn to_hands(&self) -> Hands {
        Hands::new(self.hand(Player::First).collect(), self.hand(Player::Second).collect())
            .expect("a game holds at most MAX_CARDS cards")
    }

    /// The cards of the pile of the trick just played, in the order they were played (empty
    /// before the first trick). Valid until the next trick; allocates.
    pub fn last_pile(&self) -> Vec<Card> {
        let LastPile { first, slot, len, tail } = self.last;
        let mut out: Vec<Card> = expand(first).collect();
        let p = usize::from(self.leader);
        for k in 1..len {
            out.extend(expand(self.rings[at(p, slot.wrapping_add(k))]));
        }
        out.extend(std::iter::repeat_n(0, usize::from(tail)));
        out
    }

    /// Plays one trick. The caller has checked that neither hand is empty ([`Game::winner`]).
    ///
    /// The pile's penalty cards are written, as they are played, just below the bottom of
    /// *both* hands (slots that hold no card); when the trick is over the taker's copy is kept
    /// by moving his bottom, so the pile is never copied. The heads of the two hands live in
    /// locals named by role (`hx` for the player of the last penalty card, `hy` for the payer)
    /// and swap when the roles do.
    #[inline(always)]
    pub fn trick(&mut self) -> Trick {
        let l = usize::from(self.leader & 1);
        let (hl, hf) = (self.head[l], self.head[l ^ 1]);
        let tl = self.rings[at(l, hl)];
        let tf = self.rings[at(l ^ 1, hf)];
        // The first penalty card (or the first player to run out) comes from the leader if his
        // gap is at most the follower's (turn 2·gₗ against 2·g_f + 1). The roles are chosen
        // with masks rather than a branch: this comparison is a coin toss for the predictor.
        let follower_first = gap(tf) < gap(tl);
        let mut x = l ^ usize::from(follower_first);
        let m16 = u16::from(follower_first).wrapping_neg();
        let m8 = u8::from(follower_first).wrapping_neg();
        let (mut hx, mut hy) = (hl ^ ((hl ^ hf) & m8), hf ^ ((hl ^ hf) & m8));
        let (tx, ty) = (tl ^ ((tl ^ tf) & m16), tf ^ ((tl ^ tf) & m16));
        let gx = gap(tx);
        // Cards turned before x's next card: his gx numerals and as many from the other, one
        // more when x is the follower.
        let before = 2 * gx + u16::from(follower_first);
        self.rings[at(x ^ 1, hy)] = ty - ((before - gx) << 8);
        let mut owed = penalty(tx);
        if owed == 0 {
            return self.leader_phase_run_out(x, before);
        }
        hx = hx.wrapping_add(1);
        let [b0, b1] = self.bottom;
        let first = before << 8 | owed;
        let mut cards = u32::from(before) + 1;
        let mut n: u8 = 1;
        loop {
            let y = x ^ 1;
            let t = self.rings[at(y, hy)];
            let g = gap(t);
            if g >= owed {
                // y pays in full with numerals: x takes the pile.
                let rest = t - (owed << 8);
                self.rings[at(y, hy)] = rest;
                self.head[x] = hx;
                self.head[y] = hy;
                self.commit(x, first, n, owed);
                return Trick {
                    cards: cards + u32::from(owed),
                    taker: Player::from_index(x),
                    game_over: rest == 0,
                };
            }
            // y pays g numerals, then turns his next card: a new penalty, or nothing.
            let v = penalty(t);
            cards += u32::from(g);
            if v == 0 {
                self.rings[at(y, hy)] = 0;
                self.head[x] = hx;
                self.head[y] = hy;
                self.commit(x, first, n, g);
                return Trick { cards, taker: Player::from_index(x), game_over: true };
            }
            hy = hy.wrapping_add(1);
            self.rings[at(0, b0.wrapping_add(n))] = t;
            self.rings[at(1, b1.wrapping_add(n))] = t;
            n += 1;
            cards += 1;
            x = y;
            std::mem::swap(&mut hx, &mut hy);
            owed = v;
        }
    }

    /// Keeps the pile (first token `first`, `n` penalty cards, then `tail` numerals) under the
    /// hand of `x`; `x` leads next.
    #[inline(always)]
    fn commit(&mut self, x: usize, first: Token, n: u8, tail: u16) {
        let slot = self.bottom[x];
        // The sentinel holds x's last numerals: they precede the pile's first gap.
        self.rings[at(x, slot)] += first;
        let bottom = slot.wrapping_add(n);
        self.rings[at(x, bottom)] = tail << 8;
        self.bottom[x] = bottom;
        self.leader = x as u8;
        self.last = LastPile { first, slot, len: n, tail };
    }

    /// Before any penalty card, `x` had to play and had no card: he played his last numerals,
    /// and the other player gathers the `before` numerals of the pile.
    #[cold]
    #[inline(never)]
    fn leader_phase_run_out(&mut self, x: usize, before: u16) -> Trick {
        self.rings[at(x, self.head[x])] = 0;
        let y = x ^ 1;
        let slot = self.bottom[y];
        self.rings[at(y, slot)] += before << 8;
        self.leader = y as u8;
        self.last = LastPile { first: before << 8, slot, len: 0, tail: 0 };
        Trick { cards: u32::from(before), taker: Player::from_index(y), game_over: true }
    }

    /// Plays tricks until the game is over, the position equals the one saved in `saved`
    /// (Brent's algorithm), or `max_tricks` tricks have been played.
    ///
    /// Brent's saves come at tricks 32, 96, 224, … (the gaps double: 32, 64, 128, …), counted
    /// from the call; after each trick the position is compared with the last one saved. Any
    /// loop is found (once a save falls on the loop with a gap at least its period), with its
    /// exact period; starting the saves at trick 32 rather than 1 spares the many short games
    /// of a random search any copying.
    ///
    /// This is [`Game::trick`] in a loop with the state kept in registers: the heads of the two
    /// hands live in locals named by role (`x` the player of the last penalty card, or the
    /// leader between tricks; `y` the other), memory is only written back when Brent's
    /// algorithm needs the position, and the pile is not recorded for [`Game::last_pile`].
    #[inline]
    pub(crate) fn run(&mut self, saved: &mut Game, max_tricks: u64) -> Run {
        // Roles: x leads (then: x played the last penalty card), y = x ^ 1. The heads follow
        // the roles; the bottoms stay by player (they only move when a trick is taken).
        let mut x = usize::from(self.leader & 1);
        let mut hx = self.head[x];
        let mut hy = self.head[x ^ 1];
        let [mut b0, mut b1] = self.bottom;
        // Brent's state. Rarely touched, so kept out of the way of the hot loop.
        let mut brent = Brent { shape: NO_SHAPE, saved_at: 0, next_save: FIRST_SAVE };
        let mut tricks: u64 = 0;
        let mut cards: u64 = 0;
        // The follower's front token, carried from the end of the last trick (it was just
        // written there: reading it back would wait for the store).
        let mut follower_front = self.rings[at(x ^ 1, hy)];
        macro_rules! write_back {
            () => {
                self.head[x] = hx;
                self.head[x ^ 1] = hy;
                self.bottom = [b0, b1];
                self.leader = x as u8;
            };
        }
        loop {
            if tricks == max_tricks {
                write_back!();
                return Run::Capped { tricks, cards };
            }
            tricks += 1;
            // Alternation (see `trick`): x leads, y follows.
            let tl = self.rings[at(x, hx)];
            let tf = follower_front;
            let follower_first = gap(tf) < gap(tl);
            let m16 = u16::from(follower_first).wrapping_neg();
            let m8 = u8::from(follower_first).wrapping_neg();
            x ^= usize::from(follower_first);
            (hx, hy) = (hx ^ ((hx ^ hy) & m8), hy ^ ((hx ^ hy) & m8));
            let (tx, ty) = (tl ^ ((tl ^ tf) & m16), tf ^ ((tl ^ tf) & m16));
            let gx = gap(tx);
            let before = 2 * gx + u16::from(follower_first);
            // y's front after his numerals: kept in a register, it is the first one he pays from.
            let mut t = ty - ((before - gx) << 8);
            self.rings[at(x ^ 1, hy)] = t;
            let mut owed = penalty(tx);
            if owed == 0 {
                // x had to play and had no card: y gathers the numerals.
                self.rings[at(x, hx)] = 0;
                let by = if x == 0 { b1 } else { b0 };
                self.rings[at(x ^ 1, by)] += before << 8;
                x ^= 1;
                std::mem::swap(&mut hx, &mut hy);
                write_back!();
                cards += u64::from(before);
                return Run::Won { winner: Player::from_index(x), tricks, cards };
            }
            hx = hx.wrapping_add(1);
            let first = before << 8 | owed;
            cards += u64::from(before) + 1;
            let mut n: u8 = 1;
            // Payment: y owes `owed`. Each penalty card he turns is written below the bottom
            // of both hands; the taker's copy is kept.
            while gap(t) < owed {
                let v = penalty(t);
                if v == 0 {
                    // y had to pay and had no card left: x gathers the pile.
                    cards += u64::from(gap(t));
                    self.rings[at(x ^ 1, hy)] = 0;
                    let bx = if x == 0 { &mut b0 } else { &mut b1 };
                    self.rings[at(x, *bx)] += first;
                    *bx = bx.wrapping_add(n);
                    self.rings[at(x, *bx)] = gap(t) << 8;
                    write_back!();
                    return Run::Won { winner: Player::from_index(x), tricks, cards };
                }
                hy = hy.wrapping_add(1);
                self.rings[at(0, b0.wrapping_add(n))] = t;
                self.rings[at(1, b1.wrapping_add(n))] = t;
                n += 1;
                cards += u64::from(gap(t) + 1);
                x ^= 1;
                std::mem::swap(&mut hx, &mut hy);
                owed = v;
                t = self.rings[at(x ^ 1, hy)];
            }
            // y pays in full: x takes the pile and leads.
            let rest = t - (owed << 8);
            follower_front = rest;
            self.rings[at(x ^ 1, hy)] = rest;
            cards += u64::from(owed);
            let bx = if x == 0 { b0 } else { b1 };
            self.rings[at(x, bx)] += first;
            let bx = bx.wrapping_add(n);
            self.rings[at(x, bx)] = owed << 8;
            (b0, b1) = if x == 0 { (bx, b1) } else { (b0, bx) };
            if rest == 0 {
                write_back!();
                return Run::Won { winner: Player::from_index(x), tricks, cards };
            }
            // Brent: compare with the saved position, replace it at powers of two.
            let now = Self::shape(x, hx, bx);
            if now == brent.shape {
                write_back!();
                if self.same_position(saved) {
                    return Run::Repeat { period: tricks - brent.saved_at, tricks, cards };
                }
            }
            if tricks == brent.next_save {
                write_back!();
                saved.copy_position_from(self);
                brent.shape = now;
                // Brent's powers of two: the next save comes twice as far.
                let power = tricks - brent.saved_at;
                brent.next_save = tricks + 2 * power;
                brent.saved_at = tricks;
            }
        }
    }

    /// A necessary condition for two positions to be equal: the leader and the number of
    /// tokens of his hand (`hx` to `bx`). The other hand holds the rest of the tokens: every
    /// penalty card is in a hand between tricks, plus one sentinel each.
    #[inline(always)]
    fn shape(x: usize, hx: u8, bx: u8) -> u32 {
        x as u32 | u32::from(bx.wrapping_sub(hx)) << 8
    }

    /// Whether both hands and the player to lead are the same as in `other`.
    #[inline(always)]
    pub fn same_position(&self, other: &Game) -> bool {
        let shape = |g: &Game| {
            [g.leader, g.bottom[0].wrapping_sub(g.head[0]), g.bottom[1].wrapping_sub(g.head[1])]
        };
        shape(self) == shape(other)
            && (0..2).all(|p| (0..self.tokens(p)).all(|k| self.token(p, k) == other.token(p, k)))
    }

    /// Makes this game the position of `other` (hands and leader), copying only live tokens.
    #[inline]
    pub fn copy_position_from(&mut self, other: &Game) {
        for p in 0..2 {
            for k in 0..other.tokens(p) {
                let i = at(p, other.head[p].wrapping_add(k as u8));
                self.rings[i] = other.rings[i];
            }
        }
        self.head = other.head;
        self.bottom = other.bottom;
        self.leader = other.leader;
    }

    /// The position read from the leader: the length of his hand, then his cards followed by
    /// his opponent's. Two positions that differ only by swapping the players (hands and
    /// leader) read the same.
    fn oriented(&self) -> (usize, impl Iterator<Item = Card> + '_) {
        let l = self.leader();
        (self.len(l), self.hand(l).chain(self.hand(l.other())))
    }
}

/// The canonical order of leader-oriented positions: the leader's hand length, then the cards
/// of the leader's hand, then those of the other hand (`-` < `J` < `Q` < `K` < `A`).
pub(crate) fn cmp_oriented(a: &Game, b: &Game) -> Ordering {
    let (na, ca) = a.oriented();
    let (nb, cb) = b.oriented();
    // With equal leader hands' lengths, comparing the concatenations compares the leader hands
    // first, then the other hands.
    na.cmp(&nb).then_with(|| ca.cmp(cb))
}

/// A 64-bit FNV-1a hash of a leader-oriented position: the leader's hand length (two bytes,
/// little-endian), his cards, then the other hand's cards. Stable across runs and platforms.
pub(crate) fn fingerprint_oriented(leader_len: usize, cards: impl Iterator<Item = Card>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |byte: u8| {
        h ^= u64::from(byte);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    };
    eat(leader_len as u8);
    eat((leader_len >> 8) as u8);
    for c in cards {
        eat(c);
    }
    h
}

/// [`fingerprint_oriented`] of a game's position.
pub(crate) fn fingerprint(g: &Game) -> u64 {
    let (n, cards) = g.oriented();
    fingerprint_oriented(n, cards)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hands::format_hand;

    fn game(a: &str, b: &str) -> Game {
        let h = Hands::parse(a, b).unwrap();
        Game::new(h.first(), h.second())
    }

    fn show(g: &Game) -> String {
        format!("{} ({} leads)", g.to_hands(), g.leader())
    }

    /// One trick: (cards, taker, over, pile, position after).
    fn one(a: &str, b: &str) -> (u32, Player, bool, String, String) {
        let mut g = game(a, b);
        let t = g.trick();
        (t.cards, t.taker, t.game_over, format_hand(&g.last_pile()), show(&g))
    }

    #[test]
    fn encoding_round_trips() {
        for (a, b) in [("--K-A---", "J"), ("", "----"), ("AKQJ", ""), ("-", "-")] {
            let g = game(a, b);
            assert_eq!(g.to_hands().to_string(), format!("{a} / {b}"));
            assert_eq!(g.len(Player::First), a.len());
        }
    }

    #[test]
    fn hand_worked_tricks() {
        use Player::{First, Second};
        // Leader turns a jack at once; the follower pays one numeral; the leader takes "J-".
        assert_eq!(one("J-", "--"), (2, First, false, "J-".into(), "-J- / - (first leads)".into()));
        // Alternation: leader -, follower -, leader -, follower Q; leader pays 2 numerals.
        // Pile "---Q--" goes under the follower's hand, who leads next.
        // The first hand is then empty: the game is over.
        assert_eq!(
            one("----", "-Q-"),
            (6, Second, true, "---Q--".into(), " / ----Q-- (second leads)".into())
        );
        // With a card left the game goes on.
        assert_eq!(
            one("-----", "-Q-"),
            (6, Second, false, "---Q--".into(), "- / ----Q-- (second leads)".into())
        );
        // Payment interrupted: first turns K, second pays "-" then turns A, first pays 4.
        assert_eq!(
            one("K-----", "-A-"),
            (7, Second, false, "K-A----".into(), "- / -K-A---- (second leads)".into())
        );
        // Interrupted twice: J, then Q while paying it, then J while paying the queen.
        assert_eq!(
            one("JJ-", "Q--"),
            (4, First, false, "JQJ-".into(), "-JQJ- / - (first leads)".into())
        );
        // The payer runs out: second owes 3 but holds 2 numerals; first gathers the pile.
        assert_eq!(one("K", "--"), (3, First, true, "K--".into(), "K-- /  (first leads)".into()));
        // No penalty at all: the follower runs out first (turn 3), the leader gathers.
        assert_eq!(one("---", "-"), (3, First, true, "---".into(), "---- /  (first leads)".into()));
        // The leader runs out at turn 2.
        assert_eq!(one("-", "--"), (2, Second, true, "--".into(), " / --- (second leads)".into()));
    }

    #[test]
    fn wraps_around_the_ring() {
        // Many tricks with few tokens make the heads wrap many times.
        let mut g = game("J-", "-J");
        for _ in 0..2000 {
            if g.winner().is_some() {
                break;
            }
            g.trick();
        }
        assert_eq!(g.len(Player::First) + g.len(Player::Second), 4);
    }

    #[test]
    fn orientation_and_fingerprint() {
        let a = Game::new(&[1, 0], &[0, 0, 2]);
        let mut b = Game::default();
        b.set(&[0, 0, 2], &[1, 0], Player::Second);
        assert_eq!(cmp_oriented(&a, &b), Ordering::Equal);
        assert_eq!(fingerprint(&a), fingerprint(&b));
        assert!(!a.same_position(&b));
        let mut c = Game::default();
        c.copy_position_from(&a);
        assert!(c.same_position(&a));
    }
}
