//! A deliberately naive bataille: `VecDeque` hands, the rules read literally, and loops found by
//! remembering every position in a hash map. Nothing is shared with the engine's code.

use std::collections::{HashMap, VecDeque};

use bataille_engine::Method;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum NaiveOutcome {
    First,
    Second,
    Draw,
    /// tail tricks, period tricks, tail cards, period cards
    Loop {
        tail: u64,
        period: u64,
        tail_cards: u64,
        period_cards: u64,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NaiveResult {
    pub(crate) outcome: NaiveOutcome,
    pub(crate) tricks: u64,
    pub(crate) cards: u64,
}

/// Orders the cards won: `reveals` in order, each (first player's card, second's).
fn stack(method: Method, reveals: &[(u8, u8)], first_won: bool) -> Vec<u8> {
    let mut all: Vec<u8> = reveals.iter().flat_map(|&(a, b)| [a, b]).collect();
    match method {
        Method::Natural => reveals
            .iter()
            .rev()
            .flat_map(|&(a, b)| if first_won { [a, b] } else { [b, a] })
            .collect(),
        Method::FirstPlayerFirst => reveals.iter().rev().flat_map(|&(a, b)| [a, b]).collect(),
        Method::Optimized => {
            all.sort();
            all.reverse();
            all
        }
        Method::Ascending => {
            all.sort();
            all
        }
        Method::Random => unreachable!("the naive player is deterministic"),
    }
}

/// Plays from the two hands with the two methods.
pub(crate) fn play(first: &[u8], second: &[u8], m1: Method, m2: Method) -> NaiveResult {
    let mut a: VecDeque<u8> = first.iter().copied().collect();
    let mut b: VecDeque<u8> = second.iter().copied().collect();
    // position -> (trick index, cards played before it)
    let mut seen: HashMap<(Vec<u8>, Vec<u8>), (u64, u64)> = HashMap::new();
    let mut tricks = 0u64;
    let mut cards = 0u64;
    loop {
        let key = (a.iter().copied().collect::<Vec<_>>(), b.iter().copied().collect::<Vec<_>>());
        if let Some(&(t0, c0)) = seen.get(&key) {
            return NaiveResult {
                outcome: NaiveOutcome::Loop {
                    tail: t0,
                    period: tricks - t0,
                    tail_cards: c0,
                    period_cards: cards - c0,
                },
                tricks,
                cards,
            };
        }
        seen.insert(key, (tricks, cards));
        if a.is_empty() || b.is_empty() {
            let outcome = match (a.is_empty(), b.is_empty()) {
                (true, true) => NaiveOutcome::Draw,
                (true, false) => NaiveOutcome::Second,
                _ => NaiveOutcome::First,
            };
            return NaiveResult { outcome, tricks, cards };
        }
        tricks += 1;
        let mut reveals = Vec::new();
        loop {
            if a.is_empty() || b.is_empty() {
                let outcome = match (a.is_empty(), b.is_empty()) {
                    (true, true) => NaiveOutcome::Draw,
                    (true, false) => NaiveOutcome::Second,
                    _ => NaiveOutcome::First,
                };
                return NaiveResult { outcome, tricks, cards };
            }
            let x = a.pop_front().unwrap();
            let y = b.pop_front().unwrap();
            cards += 1;
            reveals.push((x, y));
            if x > y {
                a.extend(stack(m1, &reveals, true));
                break;
            }
            if y > x {
                b.extend(stack(m2, &reveals, false));
                break;
            }
        }
    }
}
