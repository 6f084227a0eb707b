//! What a hand looks like on a loop: a run of piles.
//!
//! On a loop every card of a hand has been won since it was last played: a hand is a queue,
//! each trick takes its player's top cards, and a position that comes back after P tricks has
//! turned every card of both hands over after enough turns of the loop, the same number of
//! reveals being taken from each hand. Cards reach the bottom of a hand only as the *pile* of a
//! trick won, all its cards at once, in the order of the winner's stacking method. So each hand
//! of a position on a loop reads, from the top, as the unplayed end of one pile followed by
//! whole piles, the last the pile its player won most recently:
//!
//! - **natural** stacking: a pile is `[w, l, t, t, …]`, the winning card, the losing one
//!   (w > l), then the pairs of the ties. Its pairs, read from its bottom, are non-increasing
//!   (`t = t`, `w > l`), and every pile has an even length, so the cards of a hand pair up from
//!   the bottom of the hand, the top card alone when the hand is odd, and **every pair is
//!   non-increasing** (the first card ≥ the second). Conversely any such hand is a run of piles:
//!   each strict pair starts a pile, each equal pair continues one as a tie.
//! - **optimized** stacking: a pile is its cards sorted strongest first, of even length, holding
//!   the deciding pair once each and the tied values twice each: **non-increasing, with exactly
//!   two values an odd number of times**. The top of the hand is the end of such a pile (any
//!   non-increasing run whose values below its top card have at most two odd counts, which is
//!   all [`Reader`] asks of it).
//!
//! [`Reader`] checks a hand of known length card by card from the top, so that a depth-first
//! enumeration of hands can prune a prefix as soon as no run of piles starts with it.
//! It accepts every hand of a position on a loop, and a few more (the top pile's end is only
//! checked loosely): it is a necessary condition, which is all the census needs.

use bataille_engine::{Card, Method};

/// The state of a hand read so far (see [`Reader::next`]).
pub(crate) type State = u8;

/// Reads hands as runs of piles of one stacking method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reader {
    /// Natural stacking: pairs from the bottom, each non-increasing.
    Natural,
    /// Optimized stacking: sorted piles with two odd counts; `top` is V, the highest value.
    Optimized { top: Card },
}

impl Reader {
    /// The reader of `method`'s piles for a deck whose highest value is `top`; `None` for the
    /// methods the census does not take.
    pub(crate) fn new(method: Method, top: Card) -> Option<Reader> {
        match method {
            Method::Natural => Some(Reader::Natural),
            Method::Optimized => Some(Reader::Optimized { top }),
            _ => None,
        }
    }

    /// The state after reading `card` at index `j` of a hand of `n` cards, the previous card
    /// being `prev` in state `state` (both ignored for `j = 0`), or `None` when no hand of a
    /// position on a loop starts with the cards read. For `j = n − 1` the state is `Some` only
    /// if the whole hand is a run of piles.
    #[inline(always)]
    pub(crate) fn next(
        self,
        n: usize,
        j: usize,
        prev: Card,
        state: State,
        card: Card,
    ) -> Option<State> {
        match self {
            Reader::Natural => {
                // Index j > 0 is the second card of a pair when n − j is odd (the top card of
                // an odd hand is alone: its pair was played).
                (j == 0 || (n - j).is_multiple_of(2) || card <= prev).then_some(0)
            }
            Reader::Optimized { top } => {
                let s = if j == 0 {
                    if card == top { TOP_START } else { ANY }
                } else {
                    let rel = usize::from(card == prev) + 2 * usize::from(card < prev);
                    let mut s = STEP[usize::from(state)][rel];
                    // A new pile may start here if one can end just above, and the piles from
                    // here to the bottom can fill an even number of cards.
                    if state & ENDS != 0 && (n - j).is_multiple_of(2) {
                        s |= START;
                    }
                    s
                };
                let last = j + 1 == n;
                (s != 0 && (!last || s & ENDS != 0)).then_some(s)
            }
        }
    }

    /// Whether a whole hand is a run of piles (the empty hand is).
    #[cfg(test)]
    pub(crate) fn accepts(self, hand: &[Card]) -> bool {
        let n = hand.len();
        let mut state = 0;
        for (j, &c) in hand.iter().enumerate() {
            let prev = if j == 0 { 0 } else { hand[j - 1] };
            match self.next(n, j, prev, state, c) {
                Some(s) => state = s,
                None => return false,
            }
        }
        true
    }
}

// Optimized piles. The open pile's state after card c is (f, p): f (0 to 2) values above c
// appear an odd number of times in it, and c itself an odd (p = 1) or even (p = 0) number of
// times; bit 2f + p of the state is set when the pile may be in that state. The pile may end
// after c when f + p = 2.

/// The pile may end here: (1, 1) or (2, 0).
const ENDS: State = 1 << 3 | 1 << 4;
/// A pile that starts with this card: (0, 1).
const START: State = 1 << 1;
/// Any state: the top of a hand may be the end of any pile.
const ANY: State = 0b11_1111;
/// The top card is the highest value: no value above it can be odd.
const TOP_START: State = 0b11;

/// `STEP[state][rel]`: the states after a card greater than (rel 0), equal to (rel 1) or less
/// than (rel 2) the previous one, in the same pile.
const STEP: [[State; 3]; 64] = {
    let mut table = [[0; 3]; 64];
    let mut s = 0;
    while s < 64 {
        let mut bit = 0;
        while bit < 6 {
            if s & (1 << bit) != 0 {
                let (f, p) = (bit / 2, bit % 2);
                // Equal: the same value once more.
                table[s][1] |= 1 << (2 * f + (1 - p));
                // Smaller: the previous value's parity is settled.
                if f + p <= 2 {
                    table[s][2] |= 1 << (2 * (f + p) + 1);
                }
            }
            bit += 1;
        }
        s += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `hand` is the end of one pile followed by whole piles, by trying every cut:
    /// the definition, slowly.
    fn brute(method: Method, top: Card, hand: &[Card]) -> bool {
        let is_pile = |p: &[Card]| match method {
            Method::Natural => {
                p.len() >= 2
                    && p.len().is_multiple_of(2)
                    && p[0] > p[1]
                    && p[2..].chunks(2).all(|t| t[0] == t[1])
            }
            _ => {
                let odd = (1..=top).filter(|v| p.iter().filter(|&c| c == v).count() % 2 == 1);
                p.len().is_multiple_of(2) && p.is_sorted_by(|a, b| a >= b) && odd.count() == 2
            }
        };
        // The end of a pile: some pile of the deck's values ends with it.
        let is_end = |e: &[Card]| match method {
            Method::Natural => {
                // The end of [w, l, t, t, ...]: pairs from the bottom equal, the top card alone
                // or a strict pair then equal pairs.
                let o = e.len() % 2;
                let pairs: Vec<&[Card]> = e[o..].chunks(2).collect();
                match pairs.iter().position(|p| p[0] != p[1]) {
                    None => true,
                    Some(k) => {
                        o == 0
                            && k == 0
                            && pairs[0][0] > pairs[0][1]
                            && pairs[1..].iter().all(|p| p[0] == p[1])
                    }
                }
            }
            _ => {
                // Some sorted prefix of values ≥ e[0] completes it into a pile.
                (0..=4usize.pow(u32::from(top - e.first().copied().unwrap_or(top)) + 1)).any(
                    |code| {
                        let first = e.first().copied().unwrap_or(top);
                        let mut prefix = Vec::new();
                        let mut c = code;
                        for v in (first..=top).rev() {
                            prefix.extend(std::iter::repeat_n(v, c % 4));
                            c /= 4;
                        }
                        let mut p = prefix;
                        p.extend_from_slice(e);
                        is_pile(&p)
                    },
                )
            }
        };
        // Cut the hand: an end, then piles.
        fn rest(h: &[Card], is_pile: &dyn Fn(&[Card]) -> bool) -> bool {
            h.is_empty() || (2..=h.len()).any(|k| is_pile(&h[..k]) && rest(&h[k..], is_pile))
        }
        hand.is_empty()
            || (1..=hand.len()).any(|k| is_end(&hand[..k]) && rest(&hand[k..], &is_pile))
    }

    #[test]
    fn every_run_of_piles_is_accepted() {
        // Every hand of up to 7 cards with values 1 to 3 (two values for longer hands): the
        // reader accepts every run of piles; for natural stacking it accepts exactly those.
        for method in [Method::Natural, Method::Optimized] {
            let (mut runs, mut more) = (0, 0);
            for n in 0..=7u32 {
                let top: Card = 3;
                for code in 0..u32::from(top).pow(n) {
                    let hand: Vec<Card> = (0..n)
                        .map(|i| (code / u32::from(top).pow(i) % u32::from(top)) as Card + 1)
                        .collect();
                    let reader = Reader::new(method, top).unwrap();
                    let (truth, read) = (brute(method, top, &hand), reader.accepts(&hand));
                    assert!(read || !truth, "{method} {hand:?} is a run of piles");
                    if method == Method::Natural {
                        assert_eq!(read, truth, "{hand:?}");
                    }
                    runs += u32::from(truth);
                    more += u32::from(read && !truth);
                }
            }
            assert!(runs > 500, "{method}: {runs}");
            // The optimized reader is loose only about the top pile.
            assert!(more < runs / 4, "{method}: {more} accepted beyond {runs}");
        }
    }

    #[test]
    fn step_table() {
        // (0, 1) then an equal card: (0, 0); then a smaller one: (0, 1).
        assert_eq!(STEP[usize::from(START)][1], 1 << 0);
        assert_eq!(STEP[1 << 0][2], START);
        // (2, 1) cannot take a smaller card: three odd values.
        assert_eq!(STEP[1 << 5][2], 0);
        assert_eq!(STEP[usize::from(ANY)][0], 0);
    }
}
