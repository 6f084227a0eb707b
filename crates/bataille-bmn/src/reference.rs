//! A deliberately naive implementation of the rules, to cross-check the engine.
//!
//! It follows the rules card by card, as a person plays: two `VecDeque` hands, a `Vec` pile,
//! and every position at a trick boundary kept in a hash map to find the first repeat. It is
//! slow and allocates freely; it shares nothing with [`crate::game`] or [`crate::play`](mod@crate::play) except
//! the result types, so an agreement between the two on many deals is evidence for both.

use std::collections::{HashMap, VecDeque};

use crate::deck::Card;
use crate::play::{Cycle, CycleId, Outcome, Record};

/// A position as the naive player keeps it: leader (0 or 1), first hand, second hand.
type Key = (usize, Vec<Card>, Vec<Card>);

/// When a game is over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndRule {
    /// As soon as one player holds every card: a player who must play and has no card has
    /// lost, and so has a player left with no card when a trick ends. The engine's rule, and
    /// the published records' measures.
    HoldsAllCards,
    /// Only when a player must play and has no card: a player who paid with his last card is
    /// out only when the winner leads the next card (one more card, one more trick).
    MustPlay,
}

/// Plays the game from `first` and `second` (the first leads) card by card, stopping after
/// `max_tricks` tricks with [`Outcome::Capped`].
pub fn play_naive(first: &[Card], second: &[Card], max_tricks: u64) -> Record {
    play_naive_rule(first, second, max_tricks, EndRule::HoldsAllCards)
}

/// [`play_naive`] with a choice of [`EndRule`].
pub fn play_naive_rule(first: &[Card], second: &[Card], max_tricks: u64, rule: EndRule) -> Record {
    let mut hands = [VecDeque::from(first.to_vec()), VecDeque::from(second.to_vec())];
    let mut leader = 0;
    let mut seen: HashMap<Key, usize> = HashMap::new();
    // Positions in order, with the tricks and cards played before each.
    let mut history: Vec<(Key, u64)> = Vec::new();
    let mut tricks: u64 = 0;
    let mut cards: u64 = 0;
    loop {
        // A player without a card at a trick boundary has lost: the other holds them all.
        if rule == EndRule::HoldsAllCards {
            if hands[1].is_empty() {
                return Record { outcome: Outcome::FirstWins, tricks, cards };
            }
            if hands[0].is_empty() {
                return Record { outcome: Outcome::SecondWins, tricks, cards };
            }
        }
        let key: Key =
            (leader, hands[0].iter().copied().collect(), hands[1].iter().copied().collect());
        if let Some(&at) = seen.get(&key) {
            let tail_cards = history[at].1;
            let id = naive_id(history[at..].iter().map(|(k, _)| k));
            let cycle = Cycle {
                tail_tricks: at as u64,
                tail_cards,
                period_tricks: tricks - at as u64,
                period_cards: cards - tail_cards,
                id,
            };
            return Record { outcome: Outcome::Cycle(cycle), tricks, cards };
        }
        seen.insert(key.clone(), history.len());
        history.push((key, cards));
        if tricks == max_tricks {
            return Record { outcome: Outcome::Capped, tricks, cards };
        }

        // One trick, card by card.
        tricks += 1;
        let mut pile = Vec::new();
        let mut turn = leader;
        let mut owed: u8 = 0;
        let mut penalty_player = None;
        loop {
            let Some(card) = hands[turn].pop_front() else {
                // `turn` must play and has no card: he loses, the other gathers the pile.
                let winner = 1 - turn;
                hands[winner].extend(pile);
                let outcome = if winner == 0 { Outcome::FirstWins } else { Outcome::SecondWins };
                return Record { outcome, tricks, cards };
            };
            cards += 1;
            pile.push(card);
            if card > 0 {
                // A penalty card: the opponent now owes its value (a payment in progress stops).
                owed = card;
                penalty_player = Some(turn);
                turn = 1 - turn;
            } else if owed > 0 {
                // A numeral paid towards the penalty; the same player goes on paying.
                owed -= 1;
                if owed == 0 {
                    break;
                }
            } else {
                // No penalty card yet in this trick: the players alternate.
                turn = 1 - turn;
            }
        }
        let taker = penalty_player.expect("a paid trick has a penalty card");
        hands[taker].extend(pile);
        leader = taker;
    }
}

/// The id of a loop given its positions: the smallest position read from the leader (length
/// of his hand, his cards, the other cards), hashed with 64-bit FNV-1a.
fn naive_id<'a>(positions: impl Iterator<Item = &'a Key>) -> CycleId {
    let oriented = positions
        .map(|(l, a, b)| {
            if *l == 0 { (a.len(), a.clone(), b.clone()) } else { (b.len(), b.clone(), a.clone()) }
        })
        .min()
        .expect("a loop has at least one position");
    let (n, leader_hand, other) = oriented;
    let mut bytes = vec![(n & 0xff) as u8, (n >> 8) as u8];
    bytes.extend(leader_hand);
    bytes.extend(other);
    let mut h: u64 = 0xcbf29ce484222325;
    for b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x100000001b3);
    }
    CycleId(h)
}
