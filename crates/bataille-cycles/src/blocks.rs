//! Aligned blocks: every aligned cycle of natural bataille on a multiset of 2n cards.
//!
//! An aligned cycle (the article's box 4, [`bataille_engine::aligned`]) needs no whole deck:
//! inside an aligned round the i-th card of one hand meets only the i-th card of the other, so
//! any multiset of 2n cards dealt n/n may carry one (a *block*), and only the order of its values
//! matters. This module finds every aligned cycle on every *pattern* of 2n cards: values
//! `1..=k`, value v used `m_v` times, 1 ≤ m_v ≤ the maximum multiplicity (4 for a real deck).
//! Each cycle is reported once, by its canonical position, with its period in rounds and tricks
//! and whether its player-swapped twin is itself.
//!
//! Every position of a cycle is the image of another by the round map ([`round_natural`]); an
//! image's hand is a sequence of piles `[w, l, t, t, ...]` with w > l, that is n even, each pair
//! of cards `(h[2j], h[2j+1])` non-increasing and the first pair strict. The canonical position
//! of a cycle is its smallest round-end position, the player-swapped ones included, in the order
//! of the interleaved sequence `A[0], B[0], A[1], B[1], ...`. Cycles of rounds that lie on the
//! same loop of tricks (the engine's cycle id) are one loop with several *phases*
//! ([`catalogue`]).
//!
//! # The searches
//!
//! - The outcome search (the `symbolic` submodule, [`search_unit`], [`run`]): every pattern at
//!   once. The root's cards are symbols without values; the trick outcomes of round after round
//!   are chosen where the relations known so far leave them open, and become relations between
//!   symbols; the cycle is closed by equalities, and the weak orders of the symbols compatible
//!   with the relations are the roots, each played with [`round_natural`]. Exhaustive whatever
//!   `max_rounds` is (the rounds followed before the roots left in a branch are played one by
//!   one). This is what `bataille aligned blocks` runs.
//! - The search by values ([`search_pattern`]): one pattern, depth first over the pairs
//!   `(A[i], B[i])` under the pile constraint, the rounds followed for [`PRUNE_LEVELS`] rounds on
//!   the prefixes the cards placed give, each complete position played until it comes back, is
//!   not aligned, meets a smaller position, or `max_rounds` rounds pass (counted as *capped*). An
//!   independent check of the first.
//! - [`brute_force`]: every arrangement of a pattern played in full by the engine with its cycle
//!   detection. The tests compare the three on every pattern of up to 8 cards (10 with
//!   `BATAILLE_LONG_TESTS=1`, which also compares the first two on every pattern of 12 cards).
//!
//! # Runs
//!
//! The units of the outcome search are the outcomes of round 1 at the first six indices (fewer
//! when n < 6), in base 3, in a fixed order. [`run`] searches the units of a [`Shard`] in that
//! order, in parallel batches on the search harness's pool, and hands a [`BlocksState`] (units done, cycles
//! found, counters) to a callback after each batch: the caller saves it as a checkpoint
//! ([`BlocksState::to_text`], checksummed) and a run resumed from it continues where it stopped.
//! The state and the catalogue depend only on the units done, never on the thread count or the
//! batch boundaries; [`run_sequential`] is the sequential path to compare with.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};

use bataille_engine::aligned::round_natural;
use bataille_engine::{Card, Limits, Method, Methods, NoRandom, Outcome, Position, aligned, play};
use bataille_search::Shard;
use bataille_search::arrangement::next_arrangement;
use bataille_search::pool::{Pool, PoolError};
use bataille_search::sealed;

/// The largest n (cards per hand) searched.
pub const MAX_HALF: usize = 16;

/// The largest round cap of the search (`--max-rounds`): far beyond any use (the default is 8;
/// the tests follow 100), well within the stack (a debug build overflowed it at 20,000 rounds
/// of 8 cards, not at 5,000).
pub const MAX_ROUNDS: usize = 1000;

/// Rounds followed during the depth-first search (beyond them, complete positions are played).
pub const PRUNE_LEVELS: usize = 6;

/// What to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlocksSpec {
    cards: usize,
    max_multiplicity: usize,
    max_rounds: usize,
}

/// Why a [`BlocksSpec`] was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BlocksError {
    /// The number of cards is odd, zero or too large.
    #[error("a block has 2n cards with 1 ≤ n ≤ {MAX_HALF}, got {0} cards")]
    Cards(usize),
    /// The maximum multiplicity is 0.
    #[error("the maximum multiplicity must be at least 1, got 0")]
    Multiplicity,
    /// The round cap is 0, or above [`MAX_ROUNDS`] (each round followed is a level of the
    /// recursive search).
    #[error("the round cap must be 1 to {MAX_ROUNDS}, got {0}")]
    Rounds(usize),
}

impl BlocksSpec {
    /// Blocks of `cards` cards (2n), values used at most `max_multiplicity` times; `max_rounds`
    /// is the rounds the outcome search follows before playing out the roots left (the round cap
    /// of [`search_pattern`]).
    pub fn new(
        cards: usize,
        max_multiplicity: usize,
        max_rounds: usize,
    ) -> Result<BlocksSpec, BlocksError> {
        if cards == 0 || cards % 2 == 1 || cards > 2 * MAX_HALF {
            return Err(BlocksError::Cards(cards));
        }
        if max_multiplicity == 0 {
            return Err(BlocksError::Multiplicity);
        }
        if max_rounds == 0 || max_rounds > MAX_ROUNDS {
            return Err(BlocksError::Rounds(max_rounds));
        }
        Ok(BlocksSpec { cards, max_multiplicity, max_rounds })
    }

    /// 2n.
    pub fn cards(self) -> usize {
        self.cards
    }

    /// n.
    pub fn half(self) -> usize {
        self.cards / 2
    }

    /// The largest multiplicity of a value.
    pub fn max_multiplicity(self) -> usize {
        self.max_multiplicity
    }

    /// The round cap.
    pub fn max_rounds(self) -> usize {
        self.max_rounds
    }
}

/// Every pattern of `cards` cards with multiplicities at most `max_multiplicity`: the
/// compositions of `cards` into parts `m_1, m_2, ...` (value v used `m_v` times), in
/// lexicographic order.
///
/// ```
/// use bataille_cycles::blocks::patterns;
/// assert_eq!(patterns(4, 4), vec![vec![1, 1, 1, 1], vec![1, 1, 2], vec![1, 2, 1], vec![1, 3],
///     vec![2, 1, 1], vec![2, 2], vec![3, 1], vec![4]]);
/// assert_eq!(patterns(20, 4).len(), 283_953);
/// ```
pub fn patterns(cards: usize, max_multiplicity: usize) -> Vec<Vec<u8>> {
    fn rec(left: usize, max: usize, prefix: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if left == 0 {
            out.push(prefix.clone());
            return;
        }
        for m in 1..=max.min(left) {
            prefix.push(m as u8);
            rec(left - m, max, prefix, out);
            prefix.pop();
        }
    }
    let mut out = Vec::new();
    rec(cards, max_multiplicity.max(1), &mut Vec::new(), &mut out);
    out
}

/// The pattern of a multiset of cards: how many times each value `1..=max` occurs.
pub fn pattern_of(cards: &[Card]) -> Vec<u8> {
    let max = cards.iter().copied().max().unwrap_or(0);
    let mut m = vec![0u8; usize::from(max)];
    for &c in cards {
        m[usize::from(c) - 1] += 1;
    }
    m
}

/// One aligned cycle on a block: a loop of tricks of the engine that passes through n/n
/// positions at which rounds are aligned, given by the smallest of them.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct BlockCycle {
    /// Value v is used `pattern[v - 1]` times.
    pub pattern: Vec<u8>,
    /// The canonical position: the smallest round-end position of the loop and of its player
    /// swap, in the interleaved order (see the module docs).
    pub first: Vec<Card>,
    /// The second hand of the canonical position.
    pub second: Vec<Card>,
    /// Rounds in one turn of the cycle.
    pub period_rounds: usize,
    /// Tricks in one turn of the cycle.
    pub period_tricks: u64,
    /// Cycles of rounds (aligned phases) on the same loop of tricks: a loop may pass through
    /// n/n positions of more than one cycle of rounds (the C=4 V=4 loops pass through two).
    pub phases: usize,
    /// The engine's canonical id of the loop of tricks ([`bataille_engine::CycleId`]).
    pub cycle_id: u64,
    /// Whether the player-swapped cycle is the same cycle.
    pub self_twin: bool,
    /// Whether two rounds from the canonical position give its player swap (f∘f = swap).
    pub square_is_swap: bool,
}

impl BlockCycle {
    /// The canonical position.
    pub fn position(&self) -> Position {
        Position::new(self.first.clone(), self.second.clone()).expect("a valid position")
    }

    /// n, the cards in each hand.
    pub fn half(&self) -> usize {
        self.first.len()
    }

    /// The cycle of rounds `p` starts, played by the engine (natural stacking), when `p` lies
    /// on an aligned loop of rounds (tail 0) and is its canonical position: the smallest
    /// round-end position of the loop and of its player swap in the interleaved order.
    /// `None` otherwise.
    pub fn of(p: &Position) -> Option<BlockCycle> {
        let natural = Methods::both(Method::Natural);
        let r = play(p, natural, &mut NoRandom, Limits::DETERMINISTIC);
        let Outcome::Cycle(c) = r.outcome else { return None };
        let a = aligned::check(p, natural).ok()?;
        if c.tail_tricks != 0 || a.tail_rounds != 0 {
            return None;
        }
        BlockCycle::canonical(p, &a, c.id.0)
    }

    /// The cycle of `p`'s rounds `a` (loop id `id`), if `p` is its canonical position.
    fn canonical(p: &Position, a: &aligned::Aligned, id: u64) -> Option<BlockCycle> {
        let orbit: Vec<Position> = a.rounds.iter().map(|r| r.end.clone()).collect();
        let key = |q: &Position| {
            q.first().iter().zip(q.second()).flat_map(|(&x, &y)| [x, y]).collect::<Vec<_>>()
        };
        let all = orbit.iter().flat_map(|q| [q.clone(), q.swapped()]);
        let min = all.min_by_key(|q| key(q))?;
        if key(&min) != key(p) {
            return None;
        }
        let swapped = p.swapped();
        let cards: Vec<Card> = p.first().iter().chain(p.second()).copied().collect();
        Some(BlockCycle {
            pattern: pattern_of(&cards),
            first: p.first().to_vec(),
            second: p.second().to_vec(),
            period_rounds: a.period_rounds,
            period_tricks: a.period_tricks(),
            phases: 1,
            cycle_id: id,
            self_twin: orbit.contains(&swapped),
            square_is_swap: orbit.len() >= 2 && orbit[1 % orbit.len()] == swapped,
        })
    }
}

/// What searching one pattern gave.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PatternResult {
    /// The cycles, in increasing canonical position.
    pub cycles: Vec<BlockCycle>,
    /// Nodes of the depth-first search (pairs placed).
    pub nodes: u64,
    /// Complete positions played round by round.
    pub leaves: u64,
    /// Complete positions still undecided after `max_rounds` rounds (0 for an exhaustive
    /// search).
    pub capped: u64,
}

/// The order of positions: the interleaved sequence `a[0], b[0], a[1], b[1], ...`, compared
/// lexicographically.
fn cmp_interleaved(a: &[Card], b: &[Card], c: &[Card], d: &[Card]) -> std::cmp::Ordering {
    for i in 0..a.len() {
        let o = a[i].cmp(&c[i]).then(b[i].cmp(&d[i]));
        if o.is_ne() {
            return o;
        }
    }
    std::cmp::Ordering::Equal
}

/// A round being followed on known prefixes of its two hands.
#[derive(Debug, Clone, Copy)]
struct Level {
    hands: [[Card; MAX_HALF]; 2],
    /// Cards known in each hand.
    known: [usize; 2],
    /// The next index to compare.
    pos: usize,
    /// The index where the current trick began.
    start: usize,
    /// How the position compares with the root so far: `Less` never stays (the branch ends),
    /// `Greater` once a difference is found, `Equal` while the known parts agree. For the
    /// position itself and its player swap.
    vs_root: [std::cmp::Ordering; 2],
    /// Indices compared with the root.
    compared: usize,
}

const EMPTY_LEVEL: Level = Level {
    hands: [[0; MAX_HALF]; 2],
    known: [0; 2],
    pos: 0,
    start: 0,
    vs_root: [std::cmp::Ordering::Equal; 2],
    compared: 0,
};

/// The depth-first search of one pattern.
struct Search {
    half: usize,
    max_rounds: usize,
    square: bool,
    counts: Vec<u8>,
    levels: [Level; PRUNE_LEVELS + 1],
    result: PatternResult,
}

impl Search {
    /// Follows the rounds after the root's index `i` was placed; false when the branch ends.
    fn propagate(&mut self) -> bool {
        let n = self.half;
        for k in 0..=PRUNE_LEVELS {
            // Compare the level with the root (level 0) on what both know.
            if k == 2 && self.square {
                // Only cycles on which two rounds swap the players: level 2 is the root swapped.
                let (lower, upper) = self.levels.split_at_mut(k);
                let (root, lv) = (&lower[0], &mut upper[0]);
                let common = lv.known[0].min(lv.known[1]).min(root.known[0]);
                for j in lv.compared..common {
                    if lv.hands[0][j] != root.hands[1][j] || lv.hands[1][j] != root.hands[0][j] {
                        return false;
                    }
                }
            }
            if k > 0 {
                let root_known = self.levels[0].known[0];
                let (lower, upper) = self.levels.split_at_mut(k);
                let root = &lower[0];
                let lv = &mut upper[0];
                let common = lv.known[0].min(lv.known[1]).min(root_known);
                while lv.compared < common {
                    let j = lv.compared;
                    for (s, o) in lv.vs_root.iter_mut().enumerate() {
                        if o.is_eq() {
                            let (x, y) = (lv.hands[s][j], lv.hands[1 - s][j]);
                            *o = x.cmp(&root.hands[0][j]).then(y.cmp(&root.hands[1][j]));
                            if o.is_lt() {
                                return false;
                            }
                        }
                    }
                    lv.compared += 1;
                }
            }
            if k == PRUNE_LEVELS {
                break;
            }
            // Play the level's round on its common known prefix, feeding the next level.
            let (lower, upper) = self.levels.split_at_mut(k + 1);
            let lv = &mut lower[k];
            let next = &mut upper[0];
            let common = lv.known[0].min(lv.known[1]);
            while lv.pos < common {
                let i = lv.pos;
                let (a, b) = (lv.hands[0][i], lv.hands[1][i]);
                lv.pos += 1;
                if a == b {
                    continue;
                }
                let w = usize::from(b > a);
                let cards = 2 * (i + 1 - lv.start);
                let at = next.known[w];
                if at + cards > n {
                    return false;
                }
                let out = &mut next.hands[w];
                out[at] = a.max(b);
                out[at + 1] = a.min(b);
                for j in 0..(i - lv.start) {
                    let t = lv.hands[0][i - 1 - j];
                    out[at + 2 + 2 * j] = t;
                    out[at + 3 + 2 * j] = t;
                }
                next.known[w] += cards;
                lv.start = i + 1;
            }
            if lv.pos == n && lv.start != n {
                return false;
            }
        }
        true
    }

    fn dfs(&mut self, i: usize) {
        if i == self.half {
            self.leaf();
            return;
        }
        let values = self.counts.len();
        for a in 1..=values {
            if self.counts[a - 1] == 0 {
                continue;
            }
            let a = a as Card;
            if !extends_piles(&self.levels[0].hands[0], i, a) {
                continue;
            }
            self.counts[usize::from(a) - 1] -= 1;
            for b in 1..=values {
                if self.counts[b - 1] == 0 {
                    continue;
                }
                let b = b as Card;
                if !extends_piles(&self.levels[0].hands[1], i, b) {
                    continue;
                }
                // The swap of the root is not smaller: the first difference has a < b.
                let root_swap = self.levels[0].vs_root[1];
                if root_swap.is_eq() && b < a {
                    continue;
                }
                self.counts[usize::from(b) - 1] -= 1;
                self.result.nodes += 1;
                let saved = self.levels;
                let root = &mut self.levels[0];
                root.hands[0][i] = a;
                root.hands[1][i] = b;
                root.known = [i + 1, i + 1];
                if root_swap.is_eq() && a < b {
                    root.vs_root[1] = std::cmp::Ordering::Greater;
                }
                if self.propagate() {
                    self.dfs(i + 1);
                }
                self.levels = saved;
                self.counts[usize::from(b) - 1] += 1;
            }
            self.counts[usize::from(a) - 1] += 1;
        }
    }

    /// Plays a complete position round by round.
    fn leaf(&mut self) {
        self.result.leaves += 1;
        let n = self.half;
        let root = &self.levels[0];
        match concrete_cycle(&root.hands[0][..n], &root.hands[1][..n], self.max_rounds) {
            Leaf::Cycle(c) => self.result.cycles.push(c),
            Leaf::Capped => self.result.capped += 1,
            Leaf::No => {}
        }
    }
}

/// Whether card `c` at index `i` of `hand` keeps it a sequence of piles: each pair
/// `(h[2j], h[2j + 1])` non-increasing, the first strictly.
fn extends_piles(hand: &[Card], i: usize, c: Card) -> bool {
    i.is_multiple_of(2) || c < hand[i - 1] || (i > 1 && c == hand[i - 1])
}

/// What playing one complete position round by round gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Leaf {
    /// The position is the canonical position of this cycle of rounds.
    Cycle(BlockCycle),
    /// It is not on a cycle, or not the cycle's canonical position.
    No,
    /// Undecided after the round cap.
    Capped,
}

/// Plays `p0 / p1` round by round with the round map (Brent's detection on the round-end
/// positions, so a position that only leads into a cycle is dropped as soon as that cycle is
/// seen twice) and says whether it is the canonical position of a cycle of rounds.
pub(crate) fn concrete_cycle(p0: &[Card], p1: &[Card], max_rounds: usize) -> Leaf {
    let n = p0.len();
    let mut root = [[0 as Card; MAX_HALF]; 2];
    root[0][..n].copy_from_slice(p0);
    root[1][..n].copy_from_slice(p1);
    Walk::new(root).play_on(p0, p1, root, 1, max_rounds)
}

/// A concrete position, n cards per hand in the first n slots.
pub(crate) type Concrete = [[Card; MAX_HALF]; 2];

/// The state of [`concrete_cycle`]'s walk after some rounds: Brent's saved position and power
/// of two, the tricks played, and what the player-swapped positions met so far said.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Walk {
    pub(crate) saved: Concrete,
    pub(crate) power: usize,
    pub(crate) tricks: u64,
    pub(crate) self_twin: bool,
    pub(crate) square_is_swap: bool,
}

impl Walk {
    /// The walk before its first round, from `root`.
    pub(crate) fn new(root: Concrete) -> Walk {
        Walk { saved: root, power: 1, tricks: 0, self_twin: false, square_is_swap: false }
    }

    /// Plays rounds `first_round..=max_rounds` from `cur`, the position after the rounds
    /// before them, until the walk from the root `p0 / p1` is decided.
    pub(crate) fn play_on(
        mut self,
        p0: &[Card],
        p1: &[Card],
        mut cur: Concrete,
        first_round: usize,
        max_rounds: usize,
    ) -> Leaf {
        let n = p0.len();
        let mut next = cur;
        for round in first_round..=max_rounds {
            let [c0, c1] = &cur;
            let [n0, n1] = &mut next;
            match round_natural(&c0[..n], &c1[..n], &mut n0[..n], &mut n1[..n]) {
                Ok(t) => self.tricks += u64::from(t),
                Err(_) => return Leaf::No,
            }
            std::mem::swap(&mut cur, &mut next);
            let (q0, q1) = (&cur[0][..n], &cur[1][..n]);
            let direct = cmp_interleaved(q0, q1, p0, p1);
            let swapped = cmp_interleaved(q1, q0, p0, p1);
            if direct.is_lt() || swapped.is_lt() {
                return Leaf::No;
            }
            if swapped.is_eq() {
                self.self_twin = true;
                self.square_is_swap |= round == 2;
            }
            if direct.is_eq() {
                return self.found(p0, p1, round);
            }
            // A cycle that does not come back to the root: the root is not on it.
            if cur == self.saved {
                return Leaf::No;
            }
            if round == self.power {
                self.saved = cur;
                self.power *= 2;
            }
        }
        Leaf::Capped
    }

    /// The root `p0 / p1` came back after `round` rounds, never passing a smaller position.
    pub(crate) fn found(&self, p0: &[Card], p1: &[Card], round: usize) -> Leaf {
        let position = Position::new(p0.to_vec(), p1.to_vec()).expect("a valid position");
        let natural = Methods::both(Method::Natural);
        let r = play(&position, natural, &mut NoRandom, Limits::DETERMINISTIC);
        let Outcome::Cycle(cycle) = r.outcome else { unreachable!("an aligned cycle loops") };
        Leaf::Cycle(BlockCycle {
            pattern: pattern_of(&[p0, p1].concat()),
            first: p0.to_vec(),
            second: p1.to_vec(),
            period_rounds: round,
            period_tricks: self.tricks,
            phases: 1,
            cycle_id: cycle.id.0,
            self_twin: self.self_twin,
            square_is_swap: self.square_is_swap,
        })
    }
}

/// Every aligned cycle of `pattern` (value v used `pattern[v - 1]` times, 2n cards in all),
/// each once, by the pruned depth-first search (see the module docs).
///
/// ```
/// use bataille_cycles::blocks::search_pattern;
/// // The C=4 V=4 deck: the article's four aligned cycles.
/// let r = search_pattern(&[4, 4, 4, 4], 100);
/// assert_eq!(r.cycles.len(), 4);
/// assert!(r.cycles.iter().all(|c| c.period_rounds == 4 && c.period_tricks == 24));
/// assert_eq!(r.capped, 0);
/// ```
pub fn search_pattern(pattern: &[u8], max_rounds: usize) -> PatternResult {
    search_pattern_in(pattern, max_rounds, Scope::Every)
}

/// Which cycles a search looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    /// Every aligned cycle.
    Every,
    /// Only the cycles on which two rounds swap the players (f∘f = swap, as on every cycle
    /// known): a much faster search, exhaustive for those cycles only.
    SquareIsSwap,
}

impl Scope {
    /// The name used in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Every => "every",
            Scope::SquareIsSwap => "square-is-swap",
        }
    }
}

/// [`search_pattern`] for the cycles of `scope` only.
pub fn search_pattern_in(pattern: &[u8], max_rounds: usize, scope: Scope) -> PatternResult {
    let cards: usize = pattern.iter().map(|&m| usize::from(m)).sum();
    assert!(
        cards.is_multiple_of(2) && cards <= 2 * MAX_HALF,
        "a block has 2n ≤ {} cards",
        2 * MAX_HALF
    );
    let half = cards / 2;
    if half % 2 == 1 || half == 0 {
        // An image hand is made of piles of even length: no position of an odd n is an image.
        return PatternResult::default();
    }
    let mut s = Search {
        half,
        max_rounds,
        square: scope == Scope::SquareIsSwap,
        counts: pattern.to_vec(),
        levels: [EMPTY_LEVEL; PRUNE_LEVELS + 1],
        result: PatternResult::default(),
    };
    s.dfs(0);
    s.result.cycles = by_loop(std::mem::take(&mut s.result.cycles));
    s.result
}

/// Groups cycles of rounds by their loop of tricks (the engine's cycle id), keeping the
/// smallest of each loop with the number of phases; sorted by pattern, then canonical position.
pub fn by_loop(mut cycles: Vec<BlockCycle>) -> Vec<BlockCycle> {
    cycles.sort();
    let mut out: Vec<BlockCycle> = Vec::new();
    for c in cycles {
        match out.iter_mut().find(|o| o.cycle_id == c.cycle_id) {
            Some(o) => o.phases += 1,
            None => out.push(c),
        }
    }
    out
}

/// Every aligned cycle of `pattern` by brute force: every n/n arrangement is played in full by
/// the engine (natural, Brent's cycle detection); those lying on their loop (tail 0) and aligned
/// ([`aligned::check`], tail 0 rounds) are grouped into cycles. For tests and checks: it plays
/// (2n)!/Πm! games.
pub fn brute_force(pattern: &[u8]) -> Vec<BlockCycle> {
    let mut cards: Vec<Card> = pattern
        .iter()
        .enumerate()
        .flat_map(|(v, &m)| std::iter::repeat_n(v as Card + 1, usize::from(m)))
        .collect();
    let half = cards.len() / 2;
    let mut cycles = Vec::new();
    loop {
        let p = Position::new(cards[..half].to_vec(), cards[half..].to_vec()).expect("valid");
        cycles.extend(BlockCycle::of(&p));
        if !next_arrangement(&mut cards) {
            break;
        }
    }
    by_loop(cycles)
}

/// The progress of a blocks run: which units (patterns) are done and what they gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlocksState {
    /// What is searched.
    pub spec: BlocksSpec,
    /// The shard searched.
    pub shard: Shard,
    /// Units of the shard done, in order (the shard's units are u ≡ index mod count, ascending).
    pub done: u64,
    /// Units in the whole run (patterns).
    pub units: u64,
    /// Nodes, leaves and capped positions over the units done.
    pub nodes: u64,
    /// Complete positions played.
    pub leaves: u64,
    /// Positions undecided at the round cap.
    pub capped: u64,
    /// Units (among those done) with at least one cycle.
    pub units_with_cycles: u64,
    /// The cycles found, in unit order then canonical position.
    pub cycles: Vec<BlockCycle>,
}

const MAGIC: &str = "bataille-blocks state 1";

/// Why a saved blocks state was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BlocksStateError {
    /// Not a blocks state, or of another version.
    #[error("not a bataille blocks state file (expected the first line {MAGIC:?})")]
    Magic,
    /// The checksum does not match.
    #[error("the blocks state file is corrupt: its checksum does not match its content")]
    Checksum,
    /// A line could not be read.
    #[error("the blocks state file is corrupt at line {line}: {what}")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// What was wrong.
        what: String,
    },
    /// The state is of another run.
    #[error("the blocks state is of another run: {0}")]
    OtherRun(String),
    /// Shard states that do not make up one whole run.
    #[error("cannot merge the blocks states: {0}")]
    Merge(String),
}

impl BlocksState {
    /// A run with nothing done yet.
    pub fn new(spec: BlocksSpec, shard: Shard) -> BlocksState {
        let units = symbolic::units(spec.half()).len() as u64;
        BlocksState {
            spec,
            shard,
            done: 0,
            units,
            nodes: 0,
            leaves: 0,
            capped: 0,
            units_with_cycles: 0,
            cycles: Vec::new(),
        }
    }

    /// Units in this shard.
    pub fn shard_units(&self) -> u64 {
        self.shard.units(self.units)
    }

    /// Whether every unit of the shard is done.
    pub fn is_complete(&self) -> bool {
        self.done == self.shard_units()
    }

    fn add(&mut self, r: PatternResult) {
        self.done += 1;
        self.nodes += r.nodes;
        self.leaves += r.leaves;
        self.capped += r.capped;
        self.units_with_cycles += u64::from(!r.cycles.is_empty());
        self.cycles.extend(r.cycles);
    }

    /// The text form: versioned, one cycle a line, checksummed; no time, host or thread count.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let sp = self.spec;
        let _ = writeln!(s, "{MAGIC}");
        let _ = writeln!(
            s,
            "spec cards {} max-multiplicity {} max-rounds {} prune-levels {PRUNE_LEVELS}",
            sp.cards, sp.max_multiplicity, sp.max_rounds
        );
        let _ = writeln!(s, "shard {}/{}", self.shard.index() + 1, self.shard.count());
        let _ = writeln!(s, "units {} done {}", self.units, self.done);
        let _ = writeln!(
            s,
            "counts {} {} {} {}",
            self.nodes, self.leaves, self.capped, self.units_with_cycles
        );
        for c in &self.cycles {
            let _ = writeln!(
                s,
                "cycle {} {} {} {} {} {} {:016x} {} {}",
                join(&c.pattern),
                join(&c.first),
                join(&c.second),
                c.period_rounds,
                c.period_tricks,
                c.phases,
                c.cycle_id,
                u8::from(c.self_twin),
                u8::from(c.square_is_swap)
            );
        }
        sealed::seal(&s)
    }

    /// Reads [`BlocksState::to_text`]'s form and checks it belongs to `spec` and `shard`.
    pub fn from_text(
        text: &str,
        spec: BlocksSpec,
        shard: Shard,
    ) -> Result<BlocksState, BlocksStateError> {
        let body = sealed::open(text, MAGIC).map_err(|e| match e {
            sealed::SealError::Format { .. } => BlocksStateError::Magic,
            sealed::SealError::Checksum => BlocksStateError::Checksum,
        })?;
        let mut state = BlocksState::new(spec, shard);
        let expected = BlocksState { cycles: Vec::new(), ..state.clone() }.to_text();
        let header: Vec<&str> = expected.lines().take(3).collect();
        let lines: Vec<&str> = body.lines().collect();
        if lines.len() < 5 || lines[..3] != header[..] {
            let got = lines.get(1..3).map(|l| l.join(", ")).unwrap_or_default();
            return Err(BlocksStateError::OtherRun(format!(
                "it holds {got:?}, this run is {:?}",
                header[1..].join(", ")
            )));
        }
        let syntax = |line: usize, what: &str| BlocksStateError::Syntax { line, what: what.into() };
        let nums = |line: usize, text: &str, prefix: &str| -> Result<Vec<u64>, BlocksStateError> {
            text.strip_prefix(prefix)
                .ok_or_else(|| syntax(line, prefix))?
                .split(' ')
                .filter(|w| !w.is_empty() && *w != "done")
                .map(|w| w.parse().map_err(|_| syntax(line, "a number")))
                .collect()
        };
        let u = nums(4, lines[3], "units ")?;
        if u.len() != 2 || u[0] != state.units || u[1] > state.shard_units() {
            return Err(syntax(4, "units and done"));
        }
        state.done = u[1];
        let c = nums(5, lines[4], "counts ")?;
        let [nodes, leaves, capped, with] = c[..] else { return Err(syntax(5, "four counts")) };
        (state.nodes, state.leaves, state.capped, state.units_with_cycles) =
            (nodes, leaves, capped, with);
        for (i, line) in lines[5..].iter().enumerate() {
            let no = i + 6;
            let words: Vec<&str> = line.split(' ').collect();
            if words.len() != 10 || words[0] != "cycle" {
                return Err(syntax(no, "a cycle line"));
            }
            let cards = |w: &str| -> Result<Vec<u8>, BlocksStateError> {
                w.split(',').map(|x| x.parse().map_err(|_| syntax(no, "a card"))).collect()
            };
            let num = |w: &str| -> Result<u64, BlocksStateError> {
                w.parse().map_err(|_| syntax(no, "a number"))
            };
            state.cycles.push(BlockCycle {
                pattern: cards(words[1])?,
                first: cards(words[2])?,
                second: cards(words[3])?,
                period_rounds: num(words[4])? as usize,
                period_tricks: num(words[5])?,
                phases: num(words[6])? as usize,
                cycle_id: u64::from_str_radix(words[7], 16).map_err(|_| syntax(no, "an id"))?,
                self_twin: num(words[8])? == 1,
                square_is_swap: num(words[9])? == 1,
            });
        }
        Ok(state)
    }
}

impl BlocksState {
    /// The whole run made of the complete states of its `n` shards (in any order): the same
    /// state, to the byte, as the run without shards. Refused, naming what is wrong, when the
    /// parts are of different runs, when a shard is missing, repeated or not complete.
    pub fn merge(parts: &[BlocksState]) -> Result<BlocksState, BlocksStateError> {
        let merge = |what: String| Err(BlocksStateError::Merge(what));
        let Some(first) = parts.first() else { return merge("no state given".into()) };
        let count = first.shard.count();
        for p in parts {
            if (p.spec, p.units) != (first.spec, first.units) {
                return merge(format!(
                    "shard {} is of --cards {} --max-multiplicity {} --max-rounds {}, shard {} \
                     of --cards {} --max-multiplicity {} --max-rounds {}",
                    p.shard,
                    p.spec.cards,
                    p.spec.max_multiplicity,
                    p.spec.max_rounds,
                    first.shard,
                    first.spec.cards,
                    first.spec.max_multiplicity,
                    first.spec.max_rounds
                ));
            }
            if p.shard.count() != count {
                return merge(format!(
                    "shards {} and {} split the run differently",
                    first.shard, p.shard
                ));
            }
            if !p.is_complete() {
                return merge(format!(
                    "shard {} is not complete ({} of its {} units done)",
                    p.shard,
                    p.done,
                    p.shard_units()
                ));
            }
        }
        let mut seen = vec![false; count as usize];
        for p in parts {
            let i = p.shard.index() as usize;
            if std::mem::replace(&mut seen[i], true) {
                return merge(format!("shard {} is given twice", p.shard));
            }
        }
        let missing: Vec<String> = (0..count)
            .filter(|&i| !seen[i as usize])
            .map(|i| format!("{}/{count}", i + 1))
            .collect();
        if !missing.is_empty() {
            return merge(format!("missing shards {}", missing.join(", ")));
        }
        let mut whole = BlocksState::new(first.spec, Shard::WHOLE);
        whole.done = whole.units;
        for p in parts {
            whole.nodes += p.nodes;
            whole.leaves += p.leaves;
            whole.capped += p.capped;
            whole.units_with_cycles += p.units_with_cycles;
            whole.cycles.extend(p.cycles.iter().cloned());
        }
        // Each part lists its cycles in unit order; a stable sort by unit gives the order of
        // the run without shards.
        let half = whole.spec.half();
        let units = symbolic::units(half);
        whole.cycles.sort_by_cached_key(|c| {
            let code: Vec<u8> = (0..half.min(6))
                .map(|i| match c.first[i].cmp(&c.second[i]) {
                    std::cmp::Ordering::Equal => 0,
                    std::cmp::Ordering::Greater => 1,
                    std::cmp::Ordering::Less => 2,
                })
                .collect();
            units.iter().position(|u| *u == code)
        });
        Ok(whole)
    }
}

fn join(cards: &[u8]) -> String {
    cards.iter().map(u8::to_string).collect::<Vec<_>>().join(",")
}

/// Searches unit `u` of the outcome search of `spec` (see [`BlocksState`]).
pub fn search_unit(spec: BlocksSpec, u: u64) -> PatternResult {
    search_unit_until(spec, u, &AtomicBool::new(false)).expect("never stopped")
}

/// [`search_unit`], ended early when `stop` is set (polled every few milliseconds): `None`
/// then.
pub fn search_unit_until(spec: BlocksSpec, u: u64, stop: &AtomicBool) -> Option<PatternResult> {
    let units = symbolic::units(spec.half());
    let r = symbolic::search_unit(
        spec.half(),
        spec.max_multiplicity,
        spec.max_rounds,
        &units[u as usize],
        stop,
    )?;
    Some(PatternResult { cycles: r.cycles, nodes: r.nodes, leaves: r.leaves, capped: r.capped })
}

/// The units of `state`'s shard not done yet, in order.
fn pending(state: &BlocksState) -> Vec<u64> {
    let shard = state.shard;
    (0..state.units)
        .filter(|u| u % shard.count() == shard.index())
        .skip(state.done as usize)
        .collect()
}

/// Searches the pending units of `state` in order, `batch` units at a time in parallel on
/// `pool` (made by [`pool`]), calling `checkpoint` with the state after each batch. Stops
/// early when `stop` is set: the units under way end within milliseconds, and only those of
/// the batch before the first one cut short are kept. The result depends only on the units
/// done.
pub fn run(
    state: &mut BlocksState,
    pool: &Pool,
    batch: usize,
    stop: &AtomicBool,
    checkpoint: &mut dyn FnMut(&BlocksState),
) {
    let pending = pending(state);
    let spec = state.spec;
    for chunk in pending.chunks(batch.max(1)) {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        for r in pool.map_prefix(chunk, |u| search_unit_until(spec, u, stop)) {
            state.add(r);
        }
        checkpoint(state);
    }
}

/// A pool for [`run`] of `threads` workers (0: one per core), with the deep stacks the search
/// recurses into (once per index and round followed).
pub fn pool(threads: usize) -> Result<Pool, PoolError> {
    Pool::with_stack(threads, 64 << 20)
}

/// Whether `first` / `second` comes back to itself under the round map (it lies on an aligned
/// cycle of rounds).
pub fn on_cycle(first: &[Card], second: &[Card]) -> bool {
    let n = first.len();
    if n == 0 || n > MAX_HALF || second.len() != n {
        return false;
    }
    let mut cur = [[0 as Card; MAX_HALF]; 2];
    cur[0][..n].copy_from_slice(first);
    cur[1][..n].copy_from_slice(second);
    let start = cur;
    let (mut next, mut saved, mut power) = (cur, cur, 1);
    let mut round = 0;
    loop {
        round += 1;
        let [c0, c1] = &cur;
        let [n0, n1] = &mut next;
        if round_natural(&c0[..n], &c1[..n], &mut n0[..n], &mut n1[..n]).is_err() {
            return false;
        }
        std::mem::swap(&mut cur, &mut next);
        if cur == start {
            return true;
        }
        if cur == saved {
            return false;
        }
        if round == power {
            (saved, power) = (cur, power * 2);
        }
    }
}

/// The indices k (0 < k < n) at which the position splits into two blocks, `A[..k] / B[..k]`
/// and `A[k..] / B[k..]`, each on an aligned cycle of its own: a cycle with none is *prime*
/// (not two smaller blocks laid end to end, with their values interleaved or not).
pub fn splits(first: &[Card], second: &[Card]) -> Vec<usize> {
    (1..first.len())
        .filter(|&k| on_cycle(&first[..k], &second[..k]) && on_cycle(&first[k..], &second[k..]))
        .collect()
}

/// The same search, one unit after another on the calling thread: the sequential path to
/// compare [`run`] with.
pub fn run_sequential(state: &mut BlocksState) {
    for u in pending(state) {
        let r = search_unit(state.spec, u);
        state.add(r);
    }
}

/// The catalogue of a finished run (or of several shards' cycles): one row per loop of tricks
/// ([`by_loop`]), in order of pattern then canonical position.
pub fn catalogue(cycles: &[BlockCycle]) -> Vec<BlockCycle> {
    by_loop(cycles.to_vec())
}

/// The header of a catalogue file (`results/aligned-blocks/blocks-2N.csv`).
pub const CATALOGUE_HEADER: &str = "cards,half,values,pattern,position,period_rounds,\
period_tricks,phases,cycle_id,self_twin,square_is_swap,splits";

/// One catalogue line (without its line end), in the columns of [`CATALOGUE_HEADER`].
pub fn catalogue_row(c: &BlockCycle) -> String {
    let list = |cards: &[Card]| cards.iter().map(Card::to_string).collect::<Vec<_>>().join(",");
    let splits = splits(&c.first, &c.second);
    format!(
        "{},{},{},\"{}\",\"{}\",{},{},{},{:016x},{},{},\"{}\"",
        2 * c.half(),
        c.half(),
        c.pattern.len(),
        list(&c.pattern),
        c.position(),
        c.period_rounds,
        c.period_tricks,
        c.phases,
        c.cycle_id,
        c.self_twin,
        c.square_is_swap,
        splits.iter().map(usize::to_string).collect::<Vec<_>>().join(";")
    )
}

/// A catalogue file: [`CATALOGUE_HEADER`], then a line per row of `rows` (as [`catalogue`]
/// lists them).
pub fn catalogue_text(rows: &[BlockCycle]) -> String {
    let mut text = format!("{CATALOGUE_HEADER}\n");
    for c in rows {
        text.push_str(&catalogue_row(c));
        text.push('\n');
    }
    text
}

/// A catalogue row read back: its position and whether it is prime (no split).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogueRow {
    /// The block's canonical position.
    pub position: Position,
    /// Whether it is prime: not two smaller blocks laid end to end.
    pub prime: bool,
}

/// Why a catalogue file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CatalogueError {
    /// Not a catalogue: no position or splits column.
    #[error("not a blocks catalogue (no position or splits column)")]
    Columns,
    /// A line that is not CSV, or a position that cannot be read.
    #[error("line {line}: {why}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        why: String,
    },
}

/// The rows of a catalogue file's text.
pub fn read_catalogue(text: &str) -> Result<Vec<CatalogueRow>, CatalogueError> {
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let headers = r.headers().map_err(|e| CatalogueError::Line { line: 1, why: e.to_string() })?;
    let col = |name: &str| headers.iter().position(|h| h == name);
    let (Some(pos), Some(splits)) = (col("position"), col("splits")) else {
        return Err(CatalogueError::Columns);
    };
    let mut rows = Vec::new();
    for (i, rec) in r.records().enumerate() {
        let line = i + 2;
        let rec = rec.map_err(|e| CatalogueError::Line { line, why: e.to_string() })?;
        let (Some(p), Some(s)) = (rec.get(pos), rec.get(splits)) else {
            return Err(CatalogueError::Line { line, why: "missing columns".into() });
        };
        let position: Position = p
            .parse()
            .map_err(|_| CatalogueError::Line { line, why: format!("bad position {p:?}") })?;
        rows.push(CatalogueRow { position, prime: s.is_empty() });
    }
    Ok(rows)
}

mod symbolic;

#[cfg(test)]
mod tests;
