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

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::method::{Method, Methods};
use crate::position::{Player, Position};
use crate::spec::{Card, MAX_CARDS, MAX_VALUE};

mod beam;
pub use beam::{Beam, BeamBounds, BeamOrder, BeamRoot, beam};

/// A position one trick before another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Predecessor {
    /// The earlier position.
    pub position: Position,
    /// Reveals of the trick that leads from it (1, plus one per tie).
    pub reveals: u32,
}

/// Every position from which one trick, with at most `max_ties` ties, leads to `p` under the
/// deterministic `methods`, appended to `out` in the order of [`Unplay::each`].
///
/// # Panics
///
/// If a method is random (a trick has no single result).
pub fn predecessors(p: &Position, methods: Methods, max_ties: usize, out: &mut Vec<Predecessor>) {
    let mut unplay = Unplay::default();
    let _ = unplay.each(p.first(), p.second(), methods, max_ties, &mut |first, second, reveals| {
        let position =
            Position::new(first.to_vec(), second.to_vec()).expect("the cards of a position");
        out.push(Predecessor { position, reveals });
        ControlFlow::Continue(())
    });
}

/// What [`Unplay::each`] hands each predecessor to: its first hand, its second hand and the
/// reveals of the trick that leads from it; breaking stops the enumeration.
pub type OnPredecessor<'a> = dyn FnMut(&[Card], &[Card], u32) -> ControlFlow<()> + 'a;

/// Plays tricks backwards: the positions one trick before a position, written into reusable
/// buffers (nothing is allocated per position).
///
/// The winner of the last trick has the cards he won at the bottom of his hand, `2r` cards for
/// a trick of `r` reveals, in the order of his stacking method, so the predecessors are read off
/// the bottom of each hand:
///
/// - natural and first-player-first stacking keep the reveals' pairs in order, the deciding pair
///   first: the bottom pairs are `r − 1` tied pairs (equal cards) under one pair won by the
///   winner, and at most one `r` fits each hand, so a position has at most two predecessors;
/// - optimized and ascending stacking sort the cards: the bottom `2r` cards are sorted, hold
///   exactly two values an odd number of times (the deciding pair, the winner's the higher)
///   and the tied values twice each, whose reveal order is lost: every distinct order of them
///   is a predecessor.
///
/// Each predecessor's trick is the one read: its ties are equal cards and its deciding pair is
/// won by the winner, so playing it forward gives the position back (the tests check every
/// predecessor against a brute force over all positions of small decks).
#[derive(Clone)]
pub struct Unplay {
    hands: [[Card; MAX_CARDS]; 2],
    ties: [Card; MAX_CARDS / 2],
    odd: [bool; MAX_VALUE + 1],
    ties_cut: bool,
}

impl Default for Unplay {
    fn default() -> Unplay {
        Unplay {
            hands: [[0; MAX_CARDS]; 2],
            ties: [0; MAX_CARDS / 2],
            odd: [false; MAX_VALUE + 1],
            ties_cut: false,
        }
    }
}

impl std::fmt::Debug for Unplay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Unplay")
    }
}

impl Unplay {
    /// Calls `f(first, second, reveals)` for every position `first / second` from which one
    /// trick of `reveals` reveals (at most `max_ties` ties) leads to `first_now / second_now`
    /// under the deterministic `methods`, in a fixed order: the tricks won by the first player,
    /// then by the second, each by increasing reveals, and for sorted stacking the tie orders in
    /// lexicographic order. Stops as soon as `f` breaks, and returns what it returned, so that
    /// the caller's budget bounds the work even where the tie orders are many.
    ///
    /// # Panics
    ///
    /// If a method is random (a trick has no single result).
    pub fn each(
        &mut self,
        first_now: &[Card],
        second_now: &[Card],
        methods: Methods,
        max_ties: usize,
        f: &mut OnPredecessor<'_>,
    ) -> ControlFlow<()> {
        assert!(methods.is_deterministic(), "playing backwards needs deterministic methods");
        self.ties_cut = false;
        for winner in [Player::First, Player::Second] {
            let (won, lost) = match winner {
                Player::First => (first_now, second_now),
                Player::Second => (second_now, first_now),
            };
            match methods.of(winner) {
                Method::Natural | Method::FirstPlayerFirst => {
                    self.each_ordered(won, lost, winner, methods.of(winner), max_ties, f)?
                }
                Method::Optimized | Method::Ascending => {
                    self.each_sorted(won, lost, winner, methods.of(winner), max_ties, f)?
                }
                Method::Random => unreachable!("checked deterministic"),
            }
        }
        ControlFlow::Continue(())
    }

    /// Whether the last [`Unplay::each`] left out a trick because it had more than `max_ties`
    /// ties (a hand's bottom could still be read as a longer trick).
    pub fn ties_cut(&self) -> bool {
        self.ties_cut
    }

    /// Natural and first-player-first stacking: the bottom pairs of `won`, last first.
    fn each_ordered(
        &mut self,
        won: &[Card],
        lost: &[Card],
        winner: Player,
        method: Method,
        max_ties: usize,
        f: &mut OnPredecessor<'_>,
    ) -> ControlFlow<()> {
        let n = won.len();
        for r in 1..=(n / 2).min(max_ties.saturating_add(1)) {
            let (x, y) = (won[n - 2 * r], won[n - 2 * r + 1]);
            if x == y {
                // A tied pair: the deciding pair is higher up.
                continue;
            }
            // The winner's card of the deciding pair: natural puts it first; first-player-first
            // puts the first player's card first.
            let (w, l) = match (method, winner) {
                (Method::FirstPlayerFirst, Player::Second) => (y, x),
                _ => (x, y),
            };
            if w < l {
                return ControlFlow::Continue(());
            }
            // Ties in reveal order: the bottom pair was the first tie.
            for k in 0..r - 1 {
                self.ties[k] = won[n - 2 - 2 * k];
            }
            return self.emit(won, lost, winner, r, w, l, f);
        }
        // Every pair read was tied: a longer trick would need more ties than allowed.
        self.ties_cut |= n / 2 > max_ties.saturating_add(1);
        ControlFlow::Continue(())
    }

    /// Optimized (strongest first) and ascending stacking: sorted bottoms of `won`.
    fn each_sorted(
        &mut self,
        won: &[Card],
        lost: &[Card],
        winner: Player,
        method: Method,
        max_ties: usize,
        f: &mut OnPredecessor<'_>,
    ) -> ControlFlow<()> {
        let n = won.len();
        let in_order = |upper: Card, lower: Card| match method {
            Method::Optimized => upper >= lower,
            _ => upper <= lower,
        };
        // `self.odd` is all false between calls: the parity of each value's count in the
        // bottom cards read so far.
        let mut odd_values = 0usize;
        let mut read = 0;
        let mut result = ControlFlow::Continue(());
        let last = (n / 2).min(max_ties.saturating_add(1));
        for r in 1..=last {
            let (x, y) = (won[n - 2 * r], won[n - 2 * r + 1]);
            if !in_order(x, y) || (r > 1 && !in_order(y, won[n - 2 * r + 2])) {
                break;
            }
            // Still sorted at the bound: a longer trick would need more ties than allowed.
            self.ties_cut |= r == last && n / 2 > last;
            for c in [x, y] {
                let odd = &mut self.odd[usize::from(c)];
                *odd = !*odd;
                odd_values = if *odd { odd_values + 1 } else { odd_values - 1 };
            }
            read = 2 * r;
            if odd_values != 2 {
                continue;
            }
            // Exactly two values an odd number of times: the deciding pair, the higher the
            // winner's. Each value also appears ⌊count / 2⌋ times among the ties, which are
            // listed ascending: the first of their orders.
            let pile = &won[n - 2 * r..];
            let (mut w, mut l, mut t) = (0, Card::MAX, 0);
            let mut i = 0;
            while i < pile.len() {
                let c = pile[i];
                let count = pile[i..].iter().take_while(|&&d| d == c).count();
                if count % 2 == 1 {
                    (w, l) = (w.max(c), l.min(c));
                }
                self.ties[t..t + count / 2].fill(c);
                t += count / 2;
                i += count;
            }
            debug_assert_eq!(t, r - 1);
            self.ties[..t].sort_unstable();
            loop {
                result = self.emit(won, lost, winner, r, w, l, f);
                if result.is_break() || !next_permutation(&mut self.ties[..r - 1]) {
                    break;
                }
            }
            if result.is_break() {
                break;
            }
        }
        for &c in &won[n - read..] {
            self.odd[usize::from(c)] = false;
        }
        result
    }

    /// Writes the predecessor with ties `self.ties[..r - 1]` (in reveal order) and deciding
    /// pair `w > l`, and hands it to `f`.
    #[allow(clippy::too_many_arguments)] // the parts of one trick, read by two callers
    fn emit(
        &mut self,
        won: &[Card],
        lost: &[Card],
        winner: Player,
        r: usize,
        w: Card,
        l: Card,
        f: &mut OnPredecessor<'_>,
    ) -> ControlFlow<()> {
        let rest = won.len() - 2 * r;
        let (wi, li) = (winner.index(), winner.other().index());
        let ties = &self.ties[..r - 1];
        let [h0, h1] = &mut self.hands;
        let (hw, hl) = if wi == 0 { (h0, h1) } else { (h1, h0) };
        hw[..r - 1].copy_from_slice(ties);
        hw[r - 1] = w;
        hw[r..r + rest].copy_from_slice(&won[..rest]);
        hl[..r - 1].copy_from_slice(ties);
        hl[r - 1] = l;
        hl[r..r + lost.len()].copy_from_slice(lost);
        let mut lens = [0, 0];
        lens[wi] = r + rest;
        lens[li] = r + lost.len();
        f(&self.hands[0][..lens[0]], &self.hands[1][..lens[1]], r as u32)
    }
}

/// The next arrangement of `cards` in lexicographic order (false, and the first again, after
/// the last).
fn next_permutation(cards: &mut [Card]) -> bool {
    let Some(i) = cards.windows(2).rposition(|w| w[0] < w[1]) else {
        cards.sort_unstable();
        return false;
    };
    let j = cards.iter().rposition(|&x| x > cards[i]).expect("a larger card after i");
    cards.swap(i, j);
    cards[i + 1..].reverse();
    true
}

/// The bounds of a walk up the tree of ancestors ([`walk_ancestors`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// Ancestors farther than this many tricks are not visited.
    pub max_depth: u64,
    /// Tricks with more ties than this are not played backwards.
    pub max_ties: usize,
    /// At most this many ancestors are visited.
    pub budget: u64,
}

impl Bounds {
    /// No bound but the budget: every trick, at any depth.
    pub fn budget(budget: u64) -> Bounds {
        Bounds { max_depth: u64::MAX, max_ties: MAX_CARDS, budget }
    }
}

/// How a walk up the tree of ancestors ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Walked {
    /// Ancestors visited (the roots not included).
    pub visited: u64,
    /// The budget stopped the walk: ancestors within the other bounds may be unvisited.
    pub budget_hit: bool,
    /// An ancestor at the depth bound has ancestors of its own, which were not visited.
    pub depth_cut: bool,
    /// A trick with more ties than the bound was left out somewhere.
    pub ties_cut: bool,
    /// A stop request ended the walk before its bounds did.
    pub stopped: bool,
}

impl Walked {
    /// Whether every ancestor was visited: no bound or stop request left any out.
    pub fn complete(&self) -> bool {
        !self.budget_hit && !self.depth_cut && !self.ties_cut && !self.stopped
    }
}

/// Ancestors visited between two looks at a stop request (a few milliseconds of walking).
const STOP_POLL: u64 = 1 << 12;

/// A stop request never made: the walks that take none.
static NEVER: AtomicBool = AtomicBool::new(false);

/// An ancestor met by [`walk_ancestors`].
#[derive(Debug, Clone, Copy)]
pub struct Ancestor<'a> {
    /// The first player's hand.
    pub first: &'a [Card],
    /// The second player's hand.
    pub second: &'a [Card],
    /// Tricks from it to its root.
    pub tricks: u64,
    /// Reveals (cards each player turns) from it to its root.
    pub cards: u64,
}

/// Where a walk up the tree of ancestors starts.
#[derive(Debug, Clone, Copy)]
pub enum Roots<'a> {
    /// One position, not on a loop (its game ends, or leads into a loop).
    Position(&'a Position),
    /// The positions of a loop in playing order (each the next one's predecessor, the last the
    /// first's): the tree is that of the positions that reach the loop, the loop excluded, and
    /// an ancestor's tricks count until it enters the loop.
    Cycle(&'a [Position]),
}

/// Visits every ancestor of `roots` within `bounds`, depth first, each once: every position
/// from which the game reaches a root (without passing through another position of a loop),
/// with the tricks and reveals it plays until then. The order of the visits is fixed (that of
/// [`Unplay::each`], depth first), so a walk stopped by its budget visits the same ancestors
/// every time. Nothing is allocated per ancestor: the pending positions are kept in one buffer.
///
/// The ancestors form a tree (a position has one successor): no position is met twice, and no
/// ancestor of a position off a loop lies on a loop. For a loop, the one predecessor of each
/// of its positions that lies on it is the previous position of the loop, which is left out.
///
/// # Panics
///
/// If a method is random, or a loop's positions are not all of the same number of cards.
pub fn walk_ancestors(
    roots: Roots<'_>,
    methods: Methods,
    bounds: Bounds,
    visit: &mut dyn FnMut(&Ancestor<'_>),
) -> Walked {
    walk_ancestors_until(roots, methods, bounds, &NEVER, visit)
}

/// [`walk_ancestors`], ending early (with [`Walked::stopped`]) once `stop` is set: it is
/// looked at every few thousand ancestors, so a walk stops within milliseconds of the request.
/// The ancestors visited before the stop are those a walk with a budget of as many would visit.
///
/// # Panics
///
/// As [`walk_ancestors`].
pub fn walk_ancestors_until(
    roots: Roots<'_>,
    methods: Methods,
    bounds: Bounds,
    stop: &AtomicBool,
    visit: &mut dyn FnMut(&Ancestor<'_>),
) -> Walked {
    let (positions, on_loop) = match roots {
        Roots::Position(p) => (std::slice::from_ref(p), false),
        Roots::Cycle(c) => (c, true),
    };
    let Some(n) = positions.first().map(Position::cards) else { return Walked::default() };
    assert!(positions.iter().all(|p| p.cards() == n), "a loop's positions hold the same cards");
    let mut walk = Walk {
        unplay: Unplay::default(),
        stack: Vec::new(),
        entry: HEADER + n,
        walked: Walked::default(),
        methods,
        bounds,
        stop,
    };
    let mut node = vec![0; walk.entry];
    for (i, root) in positions.iter().enumerate() {
        let skip = on_loop.then(|| &positions[(i + positions.len() - 1) % positions.len()]);
        if walk.expand(root.first(), root.second(), 0, 0, skip, visit).is_break() {
            return walk.walked;
        }
        while walk.stack.len() >= walk.entry {
            let at = walk.stack.len() - walk.entry;
            node.copy_from_slice(&walk.stack[at..]);
            walk.stack.truncate(at);
            let split = usize::from(u16::from_le_bytes([node[0], node[1]]));
            let tricks = u64::from_le_bytes(node[2..10].try_into().expect("8 bytes"));
            let cards = u64::from_le_bytes(node[10..18].try_into().expect("8 bytes"));
            let (a, b) = node[HEADER..].split_at(split);
            if walk.expand(a, b, tricks, cards, None, visit).is_break() {
                return walk.walked;
            }
        }
    }
    walk.walked
}

/// Bytes before the cards of a pending ancestor: the first hand's length (2), tricks and
/// reveals to the root (8 each).
const HEADER: usize = 18;

/// The state of [`walk_ancestors`].
struct Walk<'s> {
    unplay: Unplay,
    /// Pending ancestors, each [`HEADER`] bytes then the cards of both hands.
    stack: Vec<u8>,
    entry: usize,
    walked: Walked,
    methods: Methods,
    bounds: Bounds,
    stop: &'s AtomicBool,
}

impl Walk<'_> {
    /// Visits the predecessors of `first / second` (but `skip`) and queues them.
    fn expand(
        &mut self,
        first: &[Card],
        second: &[Card],
        tricks: u64,
        cards: u64,
        skip: Option<&Position>,
        visit: &mut dyn FnMut(&Ancestor<'_>),
    ) -> ControlFlow<()> {
        let Walk { unplay, stack, walked, methods, bounds, stop, .. } = self;
        if tricks == bounds.max_depth {
            // At the depth bound: not expanded, but does the bound hide anything?
            let mut any = false;
            let _ = unplay.each(first, second, *methods, bounds.max_ties, &mut |a, b, _| {
                any |= !skip.is_some_and(|s| s.first() == a && s.second() == b);
                if any { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
            });
            walked.depth_cut |= any;
            return ControlFlow::Continue(());
        }
        let flow = unplay.each(first, second, *methods, bounds.max_ties, &mut |a, b, reveals| {
            if skip.is_some_and(|s| s.first() == a && s.second() == b) {
                return ControlFlow::Continue(());
            }
            if walked.visited == bounds.budget {
                walked.budget_hit = true;
                return ControlFlow::Break(());
            }
            if walked.visited.is_multiple_of(STOP_POLL) && stop.load(Ordering::Relaxed) {
                walked.stopped = true;
                return ControlFlow::Break(());
            }
            walked.visited += 1;
            let (t, c) = (tricks + 1, cards + u64::from(reveals));
            visit(&Ancestor { first: a, second: b, tricks: t, cards: c });
            stack.extend_from_slice(&(a.len() as u16).to_le_bytes());
            stack.extend_from_slice(&t.to_le_bytes());
            stack.extend_from_slice(&c.to_le_bytes());
            stack.extend_from_slice(a);
            stack.extend_from_slice(b);
            ControlFlow::Continue(())
        });
        walked.ties_cut |= unplay.ties_cut();
        flow
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
    /// Whether the whole tree was searched (otherwise the budget or a stop request stopped
    /// it).
    pub complete: bool,
    /// Whether tricks of more than `max_ties` ties were left out: "the whole tree" is then the
    /// tree within that bound.
    pub ties_cut: bool,
    /// Whether a stop request ended the search (what it found so far is kept).
    pub stopped: bool,
}

/// Searches the ancestors of `start` (depth first, at most `budget` positions, tricks of at
/// most `max_ties` ties) for the deals farthest before it: a deal `d` tricks before `start`
/// plays `d` tricks more than `start` does. Among ancestors equally far, the smallest in the
/// order of [`Position::canonical_cmp`] is kept, so the answer depends only on the arguments.
/// The budget bounds the work: the walk stops at the first predecessor past it, even among
/// the many tie orders of one position.
///
/// `start` should be a position whose game ends: ancestors of a position on a loop include the
/// loop itself, and the search would then only stop at the budget.
///
/// # Panics
///
/// If a method is random.
pub fn extend(start: &Position, methods: Methods, max_ties: usize, budget: u64) -> Extension {
    extend_watched(start, methods, max_ties, budget, &NEVER, &mut |_| {})
}

/// [`extend`], telling `watch` the ancestors visited so far every [`WATCH_EVERY`] of them (for
/// a progress display), and ending early once `stop` is set ([`Extension::stopped`]; the best
/// deals met before are kept).
///
/// # Panics
///
/// If a method is random.
pub fn extend_watched(
    start: &Position,
    methods: Methods,
    max_ties: usize,
    budget: u64,
    stop: &AtomicBool,
    watch: &mut dyn FnMut(u64),
) -> Extension {
    let half = start.cards() / 2;
    let mut result = Extension {
        by_tricks: None,
        by_cards: None,
        visited: 0,
        deals: 0,
        complete: true,
        ties_cut: false,
        stopped: false,
    };
    let bounds = Bounds { max_depth: u64::MAX, max_ties, budget };
    let mut seen = 0u64;
    let walked = walk_ancestors_until(Roots::Position(start), methods, bounds, stop, &mut |a| {
        seen += 1;
        if seen.is_multiple_of(WATCH_EVERY) {
            watch(seen);
        }
        if a.first.len() == half {
            result.deals += 1;
            let p = Position::new(a.first.to_vec(), a.second.to_vec()).expect("a position");
            keep(&mut result.by_tricks, &p, a.tricks, a.cards, false);
            keep(&mut result.by_cards, &p, a.tricks, a.cards, true);
        }
    });
    result.visited = walked.visited;
    result.complete = !walked.budget_hit && !walked.stopped;
    result.ties_cut = walked.ties_cut;
    result.stopped = walked.stopped;
    result
}

/// What [`extend_game`] found: the deal whose game is longest among the deals before the
/// positions of a game, by tricks and by cards, and what the search covered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameExtension {
    /// The deal whose game is longest by tricks, with its tricks and cards (`None` when no
    /// position of the game has a deal among its ancestors within the bounds).
    pub by_tricks: Option<(Position, u64, u64)>,
    /// The same, by cards (then tricks).
    pub by_cards: Option<(Position, u64, u64)>,
    /// Positions of the game searched from (the start and every `every`-th trick after it).
    pub positions: u64,
    /// Ancestors visited in all.
    pub visited: u64,
    /// Whether every search covered its whole tree (otherwise a budget or a stop request
    /// stopped one).
    pub complete: bool,
    /// Whether tricks of more than `max_ties` ties were left out somewhere.
    pub ties_cut: bool,
    /// Whether a stop request ended the search before the end of the game (the best deals met
    /// before are kept).
    pub stopped: bool,
}

/// Extends a whole game, not only its deal: the game from `start` (which must end) passes
/// through a position `p_t` after `t` tricks; a deal `d` tricks before `p_t` plays the rest of
/// the game too, `L - t + d` tricks in all (`L` the game's length). So every position of the
/// game (the start, then every `every`-th trick) is searched backwards, each within `budget`
/// ancestors and tricks of at most `max_ties` ties, and the deal whose game is longest (by
/// tricks, and by cards) is kept, among ties the smallest in [`Position::canonical_cmp`].
/// `watch` is told the positions searched so far after each. Once `stop` is set, the search
/// ends within milliseconds ([`GameExtension::stopped`]), keeping the best deals met before.
///
/// # Panics
///
/// If a method is random, or `every` is 0.
pub fn extend_game(
    start: &Position,
    methods: Methods,
    max_ties: usize,
    budget: u64,
    every: u64,
    stop: &AtomicBool,
    watch: &mut dyn FnMut(u64),
) -> GameExtension {
    assert!(every > 0, "every must be at least 1");
    let whole =
        crate::play::play(start, methods, &mut crate::game::NoRandom, crate::Limits::DETERMINISTIC);
    let (length, length_cards) = (whole.tricks, whole.cards);
    let mut result = GameExtension {
        by_tricks: None,
        by_cards: None,
        positions: 0,
        visited: 0,
        complete: true,
        ties_cut: false,
        stopped: false,
    };
    let mut g = crate::Game::new(start);
    let (mut t, mut c) = (0u64, 0u64);
    loop {
        if t % every == 0 {
            let p = g.to_position();
            let e = extend_watched(&p, methods, max_ties, budget, stop, &mut |_| {});
            result.positions += 1;
            result.visited += e.visited;
            result.complete &= e.complete;
            result.ties_cut |= e.ties_cut;
            result.stopped |= e.stopped;
            for (found, by_cards) in [(&e.by_tricks, false), (&e.by_cards, true)] {
                if let Some((deal, d, dc)) = found {
                    let (tricks, cards) = (length - t + d, length_cards - c + dc);
                    let best = if by_cards { &mut result.by_cards } else { &mut result.by_tricks };
                    keep(best, deal, tricks, cards, by_cards);
                }
            }
            watch(result.positions);
            if result.stopped {
                break;
            }
        }
        if g.ending().is_some() {
            break;
        }
        let trick = g.trick(methods, &mut crate::game::NoRandom);
        t += 1;
        c += u64::from(trick.reveals);
        if let crate::game::TrickResult::Ended(_) = trick.result {
            break;
        }
    }
    // The start is a deal one trick before the position after the first trick: unless the
    // game has no trick or the budget stops that search, the answer is at least the game.
    result
}

/// How often [`extend_watched`] reports: every this many ancestors.
pub const WATCH_EVERY: u64 = 1 << 16;

/// The most bytes [`walk_ancestors`] may hold in pending positions when it visits `budget`
/// ancestors of a position of `cards` cards: each visited ancestor waits on its stack, as a
/// header and its cards, until it is expanded.
pub fn pending_bytes(budget: u64, cards: usize) -> u128 {
    u128::from(budget) * (HEADER + cards) as u128
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
    use crate::game::{Game, NoRandom, TrickResult};
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
                    // Any bound at or above the cards is no bound, the largest included.
                    for ties in [p.cards() / 2, usize::MAX] {
                        let mut got = Vec::new();
                        predecessors(&p, ms, ties, &mut got);
                        let mut got: Vec<Position> = got.into_iter().map(|q| q.position).collect();
                        got.sort_by(|a, b| a.canonical_cmp(b));
                        assert_eq!(got, brute_predecessors(&p, ms), "{deal} {ms} ties {ties}");
                        checked += got.len();
                    }
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

    /// Every position of the deck `sorted` (every split, every order), with its successor's
    /// index (None when the game ends in the trick) and the trick's reveals.
    fn state_space(
        sorted: &[Card],
        methods: Methods,
    ) -> (Vec<Position>, Vec<Option<(usize, u32)>>) {
        let mut all = Vec::new();
        let mut deck = sorted.to_vec();
        loop {
            for split in 0..=deck.len() {
                all.push(Position::new(deck[..split].to_vec(), deck[split..].to_vec()).unwrap());
            }
            let Some(i) = deck.windows(2).rposition(|w| w[0] < w[1]) else { break };
            let j = deck.iter().rposition(|&x| x > deck[i]).unwrap();
            deck.swap(i, j);
            deck[i + 1..].reverse();
        }
        let index: std::collections::HashMap<Position, usize> =
            all.iter().cloned().enumerate().map(|(i, p)| (p, i)).collect();
        let next = all
            .iter()
            .map(|p| {
                let mut g = Game::new(p);
                if g.ending().is_some() {
                    return None;
                }
                let t = g.trick(methods, &mut NoRandom);
                matches!(t.result, TrickResult::Taken(_))
                    .then(|| (index[&g.to_position()], t.reveals))
            })
            .collect();
        (all, next)
    }

    #[test]
    fn walks_visit_exactly_the_positions_that_reach_the_roots() {
        // Every position of three small decks, both methods: the ancestors walked from a
        // position (or from the loop it lies on) are exactly the positions whose game reaches
        // it (or enters that loop) first, with the tricks and reveals they play until then.
        let mut loops_seen = 0;
        for (sorted, methods) in [
            (&[1, 1, 2, 2, 3, 3][..], Method::Natural),
            (&[1, 1, 2, 2, 3, 3][..], Method::Optimized),
            (&[1, 1, 1, 2, 2, 2, 3][..], Method::Natural),
            (&[1, 2, 3, 4, 5][..], Method::Natural),
            (&[1, 1, 1, 2, 2, 2, 3, 3][..], Method::Optimized),
        ] {
            let methods = Methods::both(methods);
            let (all, next) = state_space(sorted, methods);
            // Positions on a loop: those that come back to themselves.
            let on_loop: Vec<bool> = (0..all.len())
                .map(|i| {
                    let mut j = i;
                    for _ in 0..=all.len() {
                        match next[j] {
                            Some((k, _)) if k == i => return true,
                            Some((k, _)) => j = k,
                            None => return false,
                        }
                    }
                    false
                })
                .collect();
            for (root, p) in all.iter().enumerate() {
                // Brute force: walk forward from every position.
                let targets: Vec<usize> = if on_loop[root] {
                    // The loop in playing order, starting at the root.
                    let mut l = vec![root];
                    while let Some((k, _)) = next[*l.last().unwrap()].filter(|&(k, _)| k != root) {
                        l.push(k);
                    }
                    l
                } else {
                    vec![root]
                };
                let mut expected = Vec::new();
                for (q, _) in all.iter().enumerate() {
                    if on_loop[q] && on_loop[root] || q == root {
                        continue;
                    }
                    let (mut j, mut tricks, mut cards) = (q, 0u64, 0u64);
                    while let Some((k, reveals)) = next[j] {
                        (j, tricks, cards) = (k, tricks + 1, cards + u64::from(reveals));
                        if targets.contains(&j) {
                            expected.push((all[q].clone(), tricks, cards));
                            break;
                        }
                        if on_loop[j] || tricks > all.len() as u64 {
                            break;
                        }
                    }
                }
                let cycle: Vec<Position> = targets.iter().map(|&i| all[i].clone()).collect();
                let roots = if on_loop[root] {
                    loops_seen += 1;
                    Roots::Cycle(&cycle)
                } else {
                    Roots::Position(p)
                };
                let mut got = Vec::new();
                let walked = walk_ancestors(roots, methods, Bounds::budget(u64::MAX), &mut |a| {
                    let q = Position::new(a.first.to_vec(), a.second.to_vec()).unwrap();
                    got.push((q, a.tricks, a.cards));
                });
                assert!(walked.complete(), "{p} {methods}");
                assert_eq!(walked.visited as usize, got.len());
                got.sort_by(|a, b| a.0.canonical_cmp(&b.0));
                expected.sort_by(|a, b| a.0.canonical_cmp(&b.0));
                assert_eq!(got, expected, "{p} {methods}");
            }
        }
        assert!(loops_seen > 10, "{loops_seen}");
    }

    #[test]
    fn whole_game_extension_is_the_longest_deal_merging_into_the_game() {
        // C=2 V=4: every deal, its game's positions; a deal's game that meets the start's game
        // goes on as it, so the answer is the longest game among the deals that meet it.
        let spec = crate::DeckSpec::new(2, 4).unwrap();
        let mut deck = spec.sorted_deck();
        let mut games: Vec<(Position, u64, u64, Vec<Position>)> = Vec::new();
        loop {
            let deal = Position::new(deck[..4].to_vec(), deck[4..].to_vec()).unwrap();
            for m in [Method::Natural] {
                let methods = Methods::both(m);
                let r = play(&deal, methods, &mut NoRandom, Limits::DETERMINISTIC);
                if r.outcome.is_finished() {
                    let mut g = Game::new(&deal);
                    let mut seen = vec![deal.clone()];
                    while g.ending().is_none() {
                        if let TrickResult::Ended(_) = g.trick(methods, &mut NoRandom).result {
                            break;
                        }
                        seen.push(g.to_position());
                    }
                    games.push((deal.clone(), r.tricks, r.cards, seen));
                }
            }
            if !next_permutation(&mut deck) {
                break;
            }
        }
        let methods = Methods::both(Method::Natural);
        for (start, length, _, positions) in games.iter().step_by(37) {
            let e = extend_game(start, methods, MAX_CARDS, u64::MAX, 1, &NEVER, &mut |_| {});
            assert!(e.complete);
            let set: std::collections::HashSet<&Position> = positions.iter().collect();
            let best = games
                .iter()
                .filter(|(_, _, _, p)| p.iter().any(|x| set.contains(x)))
                .map(|(_, t, _, _)| *t)
                .max()
                .unwrap();
            let (deal, tricks, _) = e.by_tricks.clone().expect("the start at least");
            assert_eq!(tricks, best, "{start}");
            assert!(tricks >= *length);
            assert_eq!(play(&deal, methods, &mut NoRandom, Limits::DETERMINISTIC).tricks, tricks);
        }
    }

    #[test]
    fn bounds_are_reported() {
        // Sorted stacking with many tied values has many predecessors (every order of the
        // ties, here 7! = 5040): the budget stops the walk inside them.
        let p: Position =
            "[10] / [9, 8, 7, 7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1]".parse().unwrap();
        let optimized = Methods::both(Method::Optimized);
        let mut orders = 0;
        let walked =
            walk_ancestors(Roots::Position(&p), optimized, Bounds::budget(1000), &mut |a| {
                orders += u64::from(a.tricks == 1);
            });
        assert!(walked.budget_hit && !walked.complete());
        assert_eq!((walked.visited, orders), (1000, 1000));
        // A tie bound that leaves tricks out says so.
        let bounds = Bounds { max_depth: u64::MAX, max_ties: 2, budget: u64::MAX };
        let walked = walk_ancestors(Roots::Position(&p), optimized, bounds, &mut |_| {});
        assert!(walked.ties_cut && !walked.budget_hit);
        // A depth bound too.
        let deal: Position = "[2, 1, 3, 3] / [1, 2, 3, 1]".parse().unwrap();
        let natural = Methods::both(Method::Natural);
        let bounds = Bounds { max_depth: 1, max_ties: 8, budget: u64::MAX };
        let walked = walk_ancestors(Roots::Position(&deal), natural, bounds, &mut |_| {});
        let all =
            walk_ancestors(Roots::Position(&deal), natural, Bounds::budget(u64::MAX), &mut |_| {});
        assert_eq!(walked.depth_cut, all.visited > walked.visited, "{walked:?} {all:?}");
    }

    #[test]
    fn a_stop_request_ends_a_walk_at_its_next_poll() {
        // 7! = 5040 tie orders: more than one poll's worth of ancestors.
        let p: Position =
            "[10] / [9, 8, 7, 7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1]".parse().unwrap();
        let optimized = Methods::both(Method::Optimized);
        let stop = AtomicBool::new(false);
        let mut seen = Vec::new();
        let walked = walk_ancestors_until(
            Roots::Position(&p),
            optimized,
            Bounds::budget(u64::MAX),
            &stop,
            &mut |a| {
                seen.push(Position::new(a.first.to_vec(), a.second.to_vec()).unwrap());
                if seen.len() == 100 {
                    stop.store(true, Ordering::Relaxed);
                }
            },
        );
        assert!(walked.stopped && !walked.budget_hit && !walked.complete(), "{walked:?}");
        assert_eq!(walked.visited, STOP_POLL, "the first poll after the request");
        // What it visited is what a budget of as many visits, in the same order.
        let mut again = Vec::new();
        let budget = Bounds::budget(walked.visited);
        walk_ancestors(Roots::Position(&p), optimized, budget, &mut |a| {
            again.push(Position::new(a.first.to_vec(), a.second.to_vec()).unwrap());
        });
        assert_eq!(seen, again);
        // The extensions keep what they found before the stop, and say they were stopped.
        let e = extend_watched(&p, optimized, MAX_CARDS, u64::MAX, &stop, &mut |_| {});
        assert!(e.stopped && !e.complete && e.visited == 0);
        let deal: Position = "[2, 1, 3, 3] / [1, 2, 3, 1]".parse().unwrap();
        let natural = Methods::both(Method::Natural);
        let g = extend_game(&deal, natural, MAX_CARDS, u64::MAX, 1, &stop, &mut |_| {});
        assert!(g.stopped && !g.complete && g.positions == 1);
    }
}
