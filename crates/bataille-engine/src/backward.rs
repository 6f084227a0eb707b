//! Playing backwards: the positions one trick before a position, and the longest games that
//! lead into a given deal.
//!
//! A deterministic game from a deal `D` that ends after `L` tricks can be made longer without
//! replaying anything: any position `Q` from which `D` is reached in `d` tricks is the start of
//! a game of `L + d` tricks (the same game, `d` tricks earlier), and it is a *deal* when its
//! first hand holds ⌊N/2⌋ cards. [`extend`] searches the tree of such ancestors depth first.
//!
//! The ancestors of a position form a tree, never a graph with repeats: a position has one
//! successor, so two paths to the same ancestor would be one, and an ancestor met again on its
//! own path would lie on a loop, which a game that ends never reaches. The tree is finite for
//! the same reason, but may be large: [`extend`] stops after a budget of positions.
//!
//! This is the allocating, convenient side of the engine (positions as [`Position`]), for
//! post-processing a few long games, not for searches over billions of deals.

use crate::game::{Game, NoRandom, TrickResult};
use crate::method::Methods;
use crate::position::{Player, Position};
use crate::spec::Card;

/// A position one trick before another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Predecessor {
    /// The earlier position.
    pub position: Position,
    /// Reveals of the trick that leads from it (1, plus one per tie).
    pub reveals: u32,
}

/// Every position from which one trick, with at most `max_ties` ties, leads to `p` under the
/// deterministic `methods`, appended to `out` (in a fixed order).
///
/// The trick's winner has the won cards at the bottom of his hand, in the order of his method;
/// the candidates are the ways of reading the last 2 + 2k cards of either hand as k tie values
/// (each twice) and a deciding pair, and each is kept only if playing one trick from it gives
/// `p` exactly, so the answer is right for every deterministic method.
///
/// # Panics
///
/// If a method is random (a trick has no single result).
pub fn predecessors(p: &Position, methods: Methods, max_ties: usize, out: &mut Vec<Predecessor>) {
    assert!(methods.is_deterministic(), "playing backwards needs deterministic methods");
    let mut game = Game::default();
    for winner in [Player::First, Player::Second] {
        let won_by = p.hand(winner);
        let other = p.hand(winner.other());
        for ties in 0..=max_ties {
            let m = 2 + 2 * ties;
            if won_by.len() < m {
                break;
            }
            let (rest, tail) = won_by.split_at(won_by.len() - m);
            let mut sorted: Vec<Card> = tail.to_vec();
            sorted.sort_unstable();
            let mut tie_values = Vec::with_capacity(ties);
            readings(&mut sorted, ties, &mut tie_values, &mut |ties: &[Card], h: Card, l: Card| {
                let mut w: Vec<Card> = ties.to_vec();
                w.push(h);
                w.extend_from_slice(rest);
                let mut o: Vec<Card> = ties.to_vec();
                o.push(l);
                o.extend_from_slice(other);
                let (first, second) = match winner {
                    Player::First => (w, o),
                    Player::Second => (o, w),
                };
                let q = Position::new(first, second).expect("the same cards as a valid position");
                game.set(q.first(), q.second());
                let t = game.trick(methods, &mut NoRandom);
                if t.result == TrickResult::Taken(winner) && game.to_position() == *p {
                    out.push(Predecessor { position: q, reveals: t.reveals });
                }
            });
        }
    }
}

/// Calls `f(ties, high, low)` for every way of reading the multiset `cards` (sorted) as the
/// ordered tie values `ties` (each value used twice) followed by a deciding pair `high > low`.
fn readings(
    cards: &mut Vec<Card>,
    ties: usize,
    chosen: &mut Vec<Card>,
    f: &mut dyn FnMut(&[Card], Card, Card),
) {
    if chosen.len() == ties {
        if let [low, high] = cards[..]
            && high > low
        {
            f(chosen, high, low);
        }
        return;
    }
    let mut i = 0;
    while i + 1 < cards.len() {
        let v = cards[i];
        if cards[i + 1] == v {
            cards.drain(i..i + 2);
            chosen.push(v);
            readings(cards, ties, chosen, f);
            chosen.pop();
            cards.splice(i..i, [v, v]);
        }
        // The next distinct value.
        while i < cards.len() && cards[i] == v {
            i += 1;
        }
    }
}

/// What [`extend`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extension {
    /// The deepest deal found by tricks: the deal, tricks and reveals it plays before reaching
    /// the start (`None` when no ancestor is a deal).
    pub by_tricks: Option<(Position, u64, u64)>,
    /// The same, by reveals (cards).
    pub by_cards: Option<(Position, u64, u64)>,
    /// Ancestors visited (the start not included).
    pub visited: u64,
    /// Ancestors that are deals.
    pub deals: u64,
    /// Whether the whole tree was searched (otherwise the budget stopped it).
    pub complete: bool,
}

/// Searches the ancestors of `start` (depth first, at most `budget` positions, tricks of at
/// most `max_ties` ties) for the deals farthest before it: a deal `d` tricks before `start`
/// plays `d` tricks more than `start` does. Among ancestors equally far, the smallest in the
/// order of [`Position::canonical_cmp`] is kept, so the answer depends only on the arguments.
///
/// `start` should be a position whose game ends: ancestors of a position on a loop include the
/// loop itself, and the search would then only stop at the budget.
///
/// # Panics
///
/// If a method is random.
pub fn extend(start: &Position, methods: Methods, max_ties: usize, budget: u64) -> Extension {
    let half = start.cards() / 2;
    let mut result =
        Extension { by_tricks: None, by_cards: None, visited: 0, deals: 0, complete: true };
    // (position, tricks before start, reveals before start)
    let mut stack: Vec<(Position, u64, u64)> = vec![(start.clone(), 0, 0)];
    let mut found = Vec::new();
    while let Some((p, tricks, cards)) = stack.pop() {
        found.clear();
        predecessors(&p, methods, max_ties, &mut found);
        for q in found.drain(..) {
            if result.visited == budget {
                result.complete = false;
                return result;
            }
            result.visited += 1;
            let (t, c) = (tricks + 1, cards + u64::from(q.reveals));
            if q.position.first().len() == half {
                result.deals += 1;
                keep(&mut result.by_tricks, &q.position, t, c, false);
                keep(&mut result.by_cards, &q.position, t, c, true);
            }
            stack.push((q.position, t, c));
        }
    }
    result
}

/// Keeps `(p, tricks, cards)` in `best` if it is farther (by tricks then cards, or by cards
/// then tricks), or as far with a smaller deal.
fn keep(
    best: &mut Option<(Position, u64, u64)>,
    p: &Position,
    tricks: u64,
    cards: u64,
    by_cards: bool,
) {
    let key = |t: u64, c: u64| if by_cards { (c, t) } else { (t, c) };
    let better = match best {
        None => true,
        Some((b, bt, bc)) => {
            let (new, old) = (key(tricks, cards), key(*bt, *bc));
            new > old || (new == old && p.canonical_cmp(b).is_lt())
        }
    };
    if better {
        *best = Some((p.clone(), tricks, cards));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::method::Method;
    use crate::outcome::{Limits, Outcome};
    use crate::play::play;

    /// Tricks and cards of a game that ends.
    fn length(p: &Position, methods: Methods) -> Option<(u64, u64)> {
        let r = play(p, methods, &mut NoRandom, Limits::DETERMINISTIC);
        r.outcome.is_finished().then_some((r.tricks, r.cards))
    }

    /// Brute force: every position of the deck whose first trick leads to `p`.
    fn brute_predecessors(p: &Position, methods: Methods) -> Vec<Position> {
        let mut deck: Vec<Card> = p.first().iter().chain(p.second()).copied().collect();
        deck.sort_unstable();
        let mut out = Vec::new();
        loop {
            for split in 0..=deck.len() {
                let q = Position::new(deck[..split].to_vec(), deck[split..].to_vec()).unwrap();
                let mut g = Game::new(&q);
                if g.ending().is_some() {
                    continue;
                }
                let t = g.trick(methods, &mut NoRandom);
                if matches!(t.result, TrickResult::Taken(_)) && g.to_position() == *p {
                    out.push(q);
                }
            }
            let Some(i) = deck.windows(2).rposition(|w| w[0] < w[1]) else { break };
            let j = deck.iter().rposition(|&x| x > deck[i]).unwrap();
            deck.swap(i, j);
            deck[i + 1..].reverse();
        }
        out.sort_by(|a, b| a.canonical_cmp(b));
        out
    }

    #[test]
    fn predecessors_are_exactly_the_brute_force_ones() {
        // Every position of small decks, every deterministic method pair: with enough ties
        // allowed, the predecessors are exactly those found by trying every position.
        let methods =
            [Method::Natural, Method::Optimized, Method::Ascending, Method::FirstPlayerFirst];
        let mut checked = 0;
        for deal in
            ["1,2,2,3,3,1/1,2,3,3,2,1", "2,1,1/2,1,3,3,2,3", "1,1,2,2/3,3", "4,2,1/3", "/1,1,2,2"]
        {
            let p: Position = deal.parse().unwrap();
            for &m1 in &methods {
                for &m2 in &methods {
                    let ms = Methods::new(m1, m2);
                    let mut got = Vec::new();
                    predecessors(&p, ms, p.cards() / 2, &mut got);
                    let mut got: Vec<Position> = got.into_iter().map(|q| q.position).collect();
                    got.sort_by(|a, b| a.canonical_cmp(b));
                    assert_eq!(got, brute_predecessors(&p, ms), "{deal} {ms}");
                    checked += got.len();
                }
            }
        }
        assert!(checked > 20, "{checked}");
    }

    #[test]
    fn extension_adds_its_depth() {
        // Deals of C=4 V=4 (every 997th arrangement) extended backwards play exactly the
        // tricks and cards announced, for both methods.
        let mut deck: Vec<Card> = (1..=4).flat_map(|v| [v; 4]).collect();
        let (mut extended, mut n) = (0, 0u64);
        while n < 200_000 {
            n += 1;
            let Some(i) = deck.windows(2).rposition(|w| w[0] < w[1]) else { break };
            let j = deck.iter().rposition(|&x| x > deck[i]).unwrap();
            deck.swap(i, j);
            deck[i + 1..].reverse();
            if n % 997 != 0 {
                continue;
            }
            let start = Position::new(deck[..8].to_vec(), deck[8..].to_vec()).unwrap();
            for m in [Method::Natural, Method::Optimized] {
                let methods = Methods::both(m);
                let Some((tricks, cards)) = length(&start, methods) else { continue };
                let e = extend(&start, methods, 3, 100_000);
                assert!(e.complete, "{start} {m}");
                for (q, t, c) in e.by_tricks.iter().chain(&e.by_cards) {
                    assert!(q.is_deal());
                    let got = length(q, methods);
                    assert_eq!(got, Some((tricks + t, cards + c)), "{start} {m} -> {q}");
                    extended += 1;
                }
            }
        }
        assert!(extended > 50, "{extended}");
    }

    #[test]
    fn a_loop_is_not_extended_past_the_budget() {
        let start: Position = "[5, 3] / [2, 4, 1]".parse().unwrap();
        let methods = Methods::both(Method::Natural);
        let r = play(&start, methods, &mut NoRandom, Limits::DETERMINISTIC);
        assert!(matches!(r.outcome, Outcome::Cycle(_)));
        let e = extend(&start, methods, 2, 50);
        assert!(!e.complete);
        assert_eq!(e.visited, 50);
    }
}
