//! A search that starts where games end: a beam of positions played backwards, one trick a
//! layer, from positions whose games end (a terminal position, a late position of a long game).
//!
//! The ancestors of a position form a tree ([`super`]); a depth-first walk of it
//! ([`super::extend`]) goes deep along a few branches and spends its budget near the start. The
//! beam goes one trick back at a time over many branches at once: each layer is every
//! predecessor of the layer before, cut to the `width` positions nearest a deal's split (the
//! first hand's length nearest ⌊N/2⌋; among equals, the caller's order), so that the
//! positions kept can still turn into deals many tricks further back. Every deal met on the way
//! is a start whose game reaches the root, `d` tricks later for a deal `d` layers back; the
//! deepest is kept, by tricks and by cards.
//!
//! With a width at least the size of every layer, the beam visits the whole tree, as the walk
//! does; narrower, it is a heuristic, and its answer depends only on its arguments (the roots,
//! methods, ties, width, budget and order), never on timing.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{Unplay, keep};
use crate::method::Methods;
use crate::position::Position;
use crate::spec::Card;

/// A position the beam starts from, with the game that follows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BeamRoot {
    /// The position (its game must end).
    pub position: Position,
    /// Tricks of the game from it to its end.
    pub tricks: u64,
    /// Cards (reveals per player) of that game.
    pub cards: u64,
}

/// The bounds of a beam search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BeamBounds {
    /// Positions kept in each layer (at least 1).
    pub width: usize,
    /// Most positions expanded (their predecessors enumerated) in all.
    pub budget: u64,
    /// Most ties in one trick played backwards.
    pub max_ties: usize,
}

/// The order among positions equally near a deal's split, the smallest kept: a key of the
/// position's cards (first hand then second) and its first hand's length. The caller draws it
/// from its seed, so that the engine holds no policy of seeds.
pub type BeamOrder<'a> = dyn Fn(&[Card], usize) -> u64 + 'a;

/// What a beam search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Beam {
    /// The deal whose game is longest by tricks, with its tricks and cards (those of the whole
    /// game, the root's included), or `None` when no deal was met.
    pub by_tricks: Option<(Position, u64, u64)>,
    /// The same, by cards (then tricks).
    pub by_cards: Option<(Position, u64, u64)>,
    /// Layers played back (tricks before the roots).
    pub layers: u64,
    /// Positions expanded.
    pub expanded: u64,
    /// Deals met.
    pub deals: u64,
    /// Whether the beam died out: no position of the last layer has a predecessor (within the
    /// ties allowed). Otherwise the budget or a stop request ended it.
    pub exhausted: bool,
    /// Whether some layer held more positions than the width (the search was a heuristic, not
    /// the whole tree).
    pub cut: bool,
    /// Whether a stop request ended it.
    pub stopped: bool,
    /// The best deal by tricks after each layer that improved it: (layer, tricks of its whole
    /// game), for the rate of gain.
    pub improvements: Vec<(u64, u64)>,
}

/// One layer of the beam, flat: position `i` is `cards[i * n..(i + 1) * n]`, its first hand
/// the first `first[i]` of them, with its game's tricks and cards (to the roots' end).
#[derive(Debug, Default)]
struct Layer {
    cards: Vec<Card>,
    first: Vec<u16>,
    tricks: Vec<u64>,
    reveals: Vec<u64>,
}

impl Layer {
    fn len(&self) -> usize {
        self.first.len()
    }

    fn clear(&mut self) {
        self.cards.clear();
        self.first.clear();
        self.tricks.clear();
        self.reveals.clear();
    }

    fn push(&mut self, first: &[Card], second: &[Card], tricks: u64, reveals: u64) {
        self.cards.extend_from_slice(first);
        self.cards.extend_from_slice(second);
        self.first.push(first.len() as u16);
        self.tricks.push(tricks);
        self.reveals.push(reveals);
    }

    /// Position `i`'s hands.
    fn hands(&self, i: usize, n: usize) -> (&[Card], &[Card]) {
        self.cards[i * n..(i + 1) * n].split_at(usize::from(self.first[i]))
    }

    /// Keeps the `width` positions of smallest key (in place, their order by key).
    fn cut(&mut self, width: usize, n: usize, half: usize, order: &BeamOrder<'_>) {
        if self.len() <= width {
            return;
        }
        let mut order: Vec<(usize, u64, usize)> = (0..self.len())
            .map(|i| {
                let (first, _) = self.hands(i, n);
                let distance = first.len().abs_diff(half);
                (distance, order(&self.cards[i * n..(i + 1) * n], first.len()), i)
            })
            .collect();
        order.select_nth_unstable(width - 1);
        order.truncate(width);
        order.sort_unstable();
        let mut kept = Layer::default();
        for &(_, _, i) in &order {
            let (first, second) = self.hands(i, n);
            kept.push(first, second, self.tricks[i], self.reveals[i]);
        }
        *self = kept;
    }
}

/// Plays `roots` backwards a layer (one trick) at a time, keeping in each layer the `width`
/// positions nearest a deal's split (among equals, the smallest by `order`), until no predecessor is left, `budget` positions have been
/// expanded, or `stop` is set; returns the deepest deals met (see the module's notes). All roots
/// must hold the same number of cards. `watch` is told the layer and the positions expanded
/// after each layer.
///
/// # Panics
///
/// If a method is random, `width` is 0, or the roots hold different numbers of cards.
pub fn beam(
    roots: &[BeamRoot],
    methods: Methods,
    bounds: BeamBounds,
    order: &BeamOrder<'_>,
    stop: &AtomicBool,
    watch: &mut dyn FnMut(u64, u64),
) -> Beam {
    assert!(bounds.width > 0, "a beam holds at least one position");
    let n = roots.first().map_or(0, |r| r.position.cards());
    assert!(roots.iter().all(|r| r.position.cards() == n), "the roots hold different decks");
    let half = n / 2;
    let mut result = Beam {
        by_tricks: None,
        by_cards: None,
        layers: 0,
        expanded: 0,
        deals: 0,
        exhausted: false,
        cut: false,
        stopped: false,
        improvements: Vec::new(),
    };
    let mut layer = Layer::default();
    for r in roots {
        layer.push(r.position.first(), r.position.second(), r.tricks, r.cards);
    }
    layer.cut(bounds.width, n, half, order);
    let mut next = Layer::default();
    let mut unplay = Unplay::default();
    // A layer's candidates are cut to the width whenever they pass this many: the positions
    // kept are those the cut of the whole layer keeps (the key orders them totally).
    let spill = bounds.width.saturating_mul(4).max(64);
    'layers: loop {
        next.clear();
        for i in 0..layer.len() {
            if stop.load(Ordering::Relaxed) {
                result.stopped = true;
                break 'layers;
            }
            if result.expanded >= bounds.budget {
                break 'layers;
            }
            result.expanded += 1;
            let (first, second) = layer.hands(i, n);
            let (tricks, reveals) = (layer.tricks[i] + 1, layer.reveals[i]);
            let (by_tricks, by_cards, deals) =
                (&mut result.by_tricks, &mut result.by_cards, &mut result.deals);
            let _ = unplay.each(first, second, methods, bounds.max_ties, &mut |f, s, r| {
                let reveals = reveals + u64::from(r);
                if f.len() == half {
                    // Every deal met counts, whatever the cuts keep.
                    *deals += 1;
                    let at_least =
                        |best: &Option<(Position, u64, u64)>, key: (u64, u64), by_cards| {
                            best.as_ref().is_none_or(|(_, t, c)| {
                                key >= if by_cards { (*c, *t) } else { (*t, *c) }
                            })
                        };
                    if at_least(by_tricks, (tricks, reveals), false)
                        || at_least(by_cards, (reveals, tricks), true)
                    {
                        let p = Position::new(f.to_vec(), s.to_vec()).expect("a position");
                        keep(by_tricks, &p, tricks, reveals, false);
                        keep(by_cards, &p, tricks, reveals, true);
                    }
                }
                next.push(f, s, tricks, reveals);
                ControlFlow::Continue(())
            });
            if next.len() > spill {
                result.cut = true;
                next.cut(bounds.width, n, half, order);
            }
        }
        if next.len() == 0 {
            result.exhausted = true;
            break;
        }
        result.layers += 1;
        let best = result.by_tricks.as_ref().map(|b| b.1);
        if let Some(t) = best
            && result.improvements.last().is_none_or(|&(_, last)| t > last)
        {
            result.improvements.push((result.layers, t));
        }
        if next.len() > bounds.width {
            result.cut = true;
        }
        next.cut(bounds.width, n, half, order);
        std::mem::swap(&mut layer, &mut next);
        watch(result.layers, result.expanded);
    }
    // (A deal met in a layer the budget or a stop cut short.)
    if let Some((_, t, _)) = &result.by_tricks
        && result.improvements.last().is_none_or(|&(_, last)| *t > last)
    {
        result.improvements.push((result.layers + 1, *t));
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::NoRandom;
    use crate::method::Method;
    use crate::outcome::Limits;
    use crate::play::play;
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    use rand_xoshiro::Xoshiro256PlusPlus;

    static NEVER: AtomicBool = AtomicBool::new(false);

    fn root(p: &Position, methods: Methods) -> Option<BeamRoot> {
        let r = play(p, methods, &mut NoRandom, Limits::DETERMINISTIC);
        r.outcome.is_finished().then(|| BeamRoot {
            position: p.clone(),
            tricks: r.tricks,
            cards: r.cards,
        })
    }

    fn bounds(width: usize) -> BeamBounds {
        BeamBounds { width, budget: u64::MAX, max_ties: 8 }
    }

    /// An order drawn from `seed` (FNV-1a over the cards: any fixed key will do here).
    fn order(seed: u64) -> impl Fn(&[Card], usize) -> u64 {
        move |cards, first| {
            let mut h = 0xcbf2_9ce4_8422_2325 ^ seed ^ first as u64;
            for &c in cards {
                h = (h ^ u64::from(c)).wrapping_mul(0x0100_0000_01b3);
            }
            h
        }
    }

    /// Positions of small decks whose games end: every 7th arrangement of the deck, each split.
    fn starts(deck: &[Card]) -> Vec<Position> {
        let mut deck = deck.to_vec();
        deck.sort_unstable();
        let (mut out, mut k) = (Vec::new(), 0u64);
        loop {
            k += 1;
            if k % 7 == 0 {
                for split in [deck.len() / 2, deck.len() / 2 + 1, deck.len()] {
                    out.push(
                        Position::new(deck[..split].to_vec(), deck[split..].to_vec()).unwrap(),
                    );
                }
            }
            let Some(i) = deck.windows(2).rposition(|w| w[0] < w[1]) else { break };
            let j = deck.iter().rposition(|&x| x > deck[i]).unwrap();
            deck.swap(i, j);
            deck[i + 1..].reverse();
        }
        out
    }

    #[test]
    fn a_beam_wide_enough_finds_what_the_whole_tree_holds() {
        // With no cut, the beam visits every ancestor: the deepest deals are the depth-first
        // walk's, and so is the count of deals met.
        let decks: [&[Card]; 3] =
            [&[1, 1, 2, 2, 3, 3], &[1, 1, 2, 2, 3, 3, 4, 4], &[1, 2, 3, 4, 5, 6, 7]];
        let mut compared = 0;
        for deck in decks {
            for m in [Method::Natural, Method::Optimized] {
                let methods = Methods::both(m);
                for p in starts(deck) {
                    let Some(r) = root(&p, methods) else { continue };
                    let b = beam(
                        std::slice::from_ref(&r),
                        methods,
                        bounds(1 << 20),
                        &order(3),
                        &NEVER,
                        &mut |_, _| {},
                    );
                    let e = super::super::extend(&p, methods, 8, u64::MAX);
                    assert!(b.exhausted && !b.cut && !b.stopped, "{p}");
                    let whole = |f: Option<(Position, u64, u64)>| {
                        f.map(|(d, t, c)| (d, t + r.tricks, c + r.cards))
                    };
                    assert_eq!(b.by_tricks, whole(e.by_tricks), "{p} {m:?}");
                    assert_eq!(b.by_cards, whole(e.by_cards), "{p} {m:?}");
                    assert_eq!(b.deals, e.deals, "{p} {m:?}");
                    assert_eq!(b.expanded, e.visited + 1, "{p} {m:?}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 100, "{compared}");
    }

    /// The position where the game from `p` ends (after its last trick), if it ends with every
    /// card in one hand.
    fn end_of(p: &Position, methods: Methods) -> Option<Position> {
        let mut g = crate::Game::new(p);
        for _ in 0..100_000 {
            if g.ending().is_some() {
                let end = g.to_position();
                return (end.first().is_empty() || end.second().is_empty()).then_some(end);
            }
            if let crate::game::TrickResult::Ended(_) = g.trick(methods, &mut NoRandom).result {
                return None;
            }
        }
        None
    }

    /// The end of the longest game among 300 shuffled 16-card natural deals: a terminal
    /// position with a deep tree of ancestors (through tricks of up to 8 ties: this deck's
    /// longest games have tricks of 4).
    fn terminal_16() -> BeamRoot {
        let methods = Methods::both(Method::Natural);
        let mut best: Option<(u64, Position)> = None;
        for k in 0..300u64 {
            let mut deck: Vec<Card> = (1..=4).flat_map(|v| [v; 4]).collect();
            deck.shuffle(&mut Xoshiro256PlusPlus::seed_from_u64(k));
            let p = Position::new(deck[..8].to_vec(), deck[8..].to_vec()).unwrap();
            let r = play(&p, methods, &mut NoRandom, Limits::DETERMINISTIC);
            if let Some(end) = end_of(&p, methods)
                && best.as_ref().is_none_or(|b| r.tricks > b.0)
            {
                best = Some((r.tricks, end));
            }
        }
        BeamRoot { position: best.unwrap().1, tricks: 0, cards: 0 }
    }

    #[test]
    fn every_deal_found_plays_the_game_announced() {
        // Narrow beams from the end of a 16-card game: each deal kept replays to its length,
        // the same seed gives the same answer, and the improvements only grow.
        let methods = Methods::both(Method::Natural);
        let r = terminal_16();
        for width in [1, 2, 16, 256] {
            for seed in [0, 1] {
                let b = beam(
                    std::slice::from_ref(&r),
                    methods,
                    BeamBounds { width, budget: 20_000, max_ties: 8 },
                    &order(seed),
                    &NEVER,
                    &mut |_, _| {},
                );
                let again = beam(
                    std::slice::from_ref(&r),
                    methods,
                    BeamBounds { width, budget: 20_000, max_ties: 8 },
                    &order(seed),
                    &NEVER,
                    &mut |_, _| {},
                );
                assert_eq!(b, again);
                for (deal, tricks, cards) in [&b.by_tricks, &b.by_cards].into_iter().flatten() {
                    assert!(deal.is_deal());
                    let g = play(deal, methods, &mut NoRandom, Limits::DETERMINISTIC);
                    assert!(g.outcome.is_finished());
                    assert_eq!((g.tricks, g.cards), (*tricks, *cards), "{deal} width {width}");
                }
                assert!(width < 256 || b.by_tricks.is_some(), "no deal met at width {width}");
                assert!(b.improvements.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1));
                assert_eq!(b.improvements.last().map(|i| i.1), b.by_tricks.as_ref().map(|d| d.1));
            }
        }
    }

    #[test]
    fn a_budget_and_a_stop_end_the_beam() {
        let methods = Methods::both(Method::Natural);
        let r = terminal_16();
        let b = beam(
            std::slice::from_ref(&r),
            methods,
            BeamBounds { width: 64, budget: 10, max_ties: 3 },
            &order(0),
            &NEVER,
            &mut |_, _| {},
        );
        assert_eq!(b.expanded, 10);
        assert!(!b.exhausted && !b.stopped);
        let stop = AtomicBool::new(true);
        let b = beam(
            &[r],
            methods,
            BeamBounds { width: 64, budget: u64::MAX, max_ties: 3 },
            &order(0),
            &stop,
            &mut |_, _| {},
        );
        assert!(b.stopped && b.expanded == 0 && b.by_tricks.is_none());
    }
}
