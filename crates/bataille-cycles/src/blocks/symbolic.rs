//! The search over trick outcomes: every block size at once.
//!
//! The 2n cards of the root position are symbols whose values are not chosen yet. Round after
//! round, each index's trick outcome (tie, first player higher, second player higher) is
//! chosen where the relations known so far leave it open, and becomes a relation between two
//! symbols (equal, greater, less), kept transitively closed; a choice that contradicts them, a
//! player winning more than n cards, or a round ending on a tie ends the branch. The positions
//! reached are arrangements of the symbols, fixed by the outcomes. After each round the search
//! tries to close the cycle (the position equals the root card for card: more equalities); when
//! they hold, every assignment of values compatible with the relations (every weak order of the
//! symbols with at most the maximum multiplicity per value) is a root position on a cycle, and
//! each is checked with the round map. Once the relations fix every pair, the branch is one
//! position, played on with the round map. In a branch still open after `max_rounds` rounds
//! (and [`LEAF_ROUNDS`] more, followed the same way but not counted), every root compatible
//! with the relations is played on with the round map, and kept when its cycle is longer than
//! those rounds: the search is exhaustive, each cycle found by exactly one branch (the one that
//! follows its outcomes, closing after its period or stopping earlier). A root is not replayed
//! through the rounds its branch followed: their positions (the *trail*) are the branch's,
//! mapped through the root's values, and the walk's checks are made on them in the same order.

use std::sync::atomic::{AtomicBool, Ordering};

use bataille_engine::Card;

#[cfg(debug_assertions)]
use super::concrete_cycle;
use super::{BlockCycle, Concrete, Leaf, MAX_HALF, Walk, cmp_interleaved};

const SYMBOLS: usize = 2 * MAX_HALF;

/// Relations between symbols: equality classes and a transitively closed strict order.
#[derive(Debug, Clone, Copy)]
struct Relations {
    rep: [u8; SYMBOLS],
    /// For a class representative: its members.
    members: [u32; SYMBOLS],
    /// For a class representative: every symbol known to be smaller.
    below: [u32; SYMBOLS],
    /// For a class representative: every symbol known to be larger.
    above: [u32; SYMBOLS],
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rel {
    Less,
    Equal,
    Greater,
    Open,
}

fn bits(mut x: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (x != 0).then(|| {
            let i = x.trailing_zeros() as usize;
            x &= x - 1;
            i
        })
    })
}

impl Relations {
    fn new(symbols: usize) -> Relations {
        let mut r = Relations {
            rep: [0; SYMBOLS],
            members: [0; SYMBOLS],
            below: [0; SYMBOLS],
            above: [0; SYMBOLS],
        };
        for s in 0..symbols {
            r.rep[s] = s as u8;
            r.members[s] = 1 << s;
        }
        r
    }

    fn rel(&self, a: u8, b: u8) -> Rel {
        let ra = usize::from(self.rep[usize::from(a)]);
        if ra == usize::from(self.rep[usize::from(b)]) {
            Rel::Equal
        } else if self.below[ra] >> b & 1 == 1 {
            Rel::Greater
        } else if self.above[ra] >> b & 1 == 1 {
            Rel::Less
        } else {
            Rel::Open
        }
    }

    /// The representatives of a and b when their relation is open; `Err(holds)` otherwise,
    /// `holds` saying whether it is already `wanted`.
    fn open_reps(&self, a: u8, b: u8, wanted: Rel) -> Result<(usize, usize), bool> {
        match self.rel(a, b) {
            Rel::Open => {
                Ok((usize::from(self.rep[usize::from(a)]), usize::from(self.rep[usize::from(b)])))
            }
            r => Err(r == wanted),
        }
    }

    /// a < b; false on a contradiction.
    fn less(&mut self, a: u8, b: u8) -> bool {
        let (ra, rb) = match self.open_reps(a, b, Rel::Less) {
            Ok(reps) => reps,
            Err(holds) => return holds,
        };
        let low = self.below[ra] | self.members[ra];
        let high = self.above[rb] | self.members[rb];
        for s in bits(high) {
            let c = usize::from(self.rep[s]);
            self.below[c] |= low;
        }
        for s in bits(low) {
            let c = usize::from(self.rep[s]);
            self.above[c] |= high;
        }
        true
    }

    /// a = b, classes of at most `max` symbols; false on a contradiction.
    fn equal(&mut self, a: u8, b: u8, max: u32) -> bool {
        let (ra, rb) = match self.open_reps(a, b, Rel::Equal) {
            Ok(reps) => reps,
            Err(holds) => return holds,
        };
        let members = self.members[ra] | self.members[rb];
        if members.count_ones() > max {
            return false;
        }
        let below = self.below[ra] | self.below[rb];
        let above = self.above[ra] | self.above[rb];
        for s in bits(self.members[rb]) {
            self.rep[s] = ra as u8;
        }
        self.members[ra] = members;
        self.below[ra] = below;
        self.above[ra] = above;
        for s in bits(above) {
            let c = usize::from(self.rep[s]);
            self.below[c] |= below | members;
        }
        for s in bits(below) {
            let c = usize::from(self.rep[s]);
            self.above[c] |= above | members;
        }
        true
    }

    /// Whether every two symbols are related.
    fn total(&self, symbols: usize) -> bool {
        let all = if symbols == 32 { u32::MAX } else { (1 << symbols) - 1 };
        (0..symbols).all(|s| {
            let c = usize::from(self.rep[s]);
            self.members[c] | self.below[c] | self.above[c] == all
        })
    }

    /// The value of each symbol when the relations are total: 1 + the classes below.
    fn values(&self, symbols: usize) -> [Card; SYMBOLS] {
        let mut v = [0; SYMBOLS];
        for (value, &rep) in v.iter_mut().zip(&self.rep).take(symbols) {
            let c = usize::from(rep);
            let classes = bits(self.below[c]).filter(|&x| usize::from(self.rep[x]) == x).count();
            *value = classes as Card + 1;
        }
        v
    }
}

/// A position as symbols.
type Hands = [[u8; MAX_HALF]; 2];

/// What one unit of the outcome search gave.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct UnitResult {
    pub(super) cycles: Vec<BlockCycle>,
    pub(super) nodes: u64,
    pub(super) leaves: u64,
    pub(super) capped: u64,
}

struct Outcomes<'a> {
    half: usize,
    max_mult: u32,
    max_rounds: usize,
    root: Hands,
    /// The outcomes forced at the first indices of round 1 (the unit).
    prefix: Vec<u8>,
    /// The positions after rounds 1, 2, ... of the branch followed, as symbols, with the
    /// tricks of each round: a root is checked against them without playing those rounds.
    trail: Vec<(Hands, u32)>,
    result: UnitResult,
    /// Polled every [`POLL_EVERY`] steps (nodes and roots checked); once it is seen set,
    /// `stopped` ends every branch at once.
    stop: &'a AtomicBool,
    steps: u32,
    stopped: bool,
}

/// Steps of the search between two polls of its stop request (a few milliseconds).
const POLL_EVERY: u32 = 1 << 12;

/// Rounds followed past `max_rounds`, uncounted, before the roots left in a branch are
/// enumerated: each of the leaf's roots whose next rounds are not aligned, or reach a smaller
/// position, is dropped before it is built (most of them: a root's first unfollowed round
/// decides it three times in four at 20 cards). The counters and the cycles do not depend on
/// it: the roots dropped are those the round map would have decided by those rounds. 1 gives
/// most of the gain, 2 a few percent more, 4 no more than 2.
const LEAF_ROUNDS: usize = 2;

/// Rounds a single position is played for before it counts as undecided (Brent's detection
/// decides far sooner: a position's orbit is at most the number of positions).
const CONCRETE_ROUNDS: usize = 1 << 20;

/// Which cycles a root found in a branch is recorded for: those that the branch is the only
/// one to find.
#[derive(Debug, Clone, Copy)]
enum Keep {
    /// Cycles of exactly this many rounds (the branch closed the cycle after them).
    Exactly(usize),
    /// Cycles of more rounds (the branch stopped following rounds after these).
    Above(usize),
}

impl Keep {
    /// The rounds followed by the branch.
    fn rounds(self) -> usize {
        match self {
            Keep::Exactly(r) | Keep::Above(r) => r,
        }
    }

    fn keeps(self, period: usize) -> bool {
        match self {
            Keep::Exactly(r) => period == r,
            Keep::Above(r) => period > r,
        }
    }
}

/// Outcome codes.
const TIE: u8 = 0;
const FIRST: u8 = 1;
const SECOND: u8 = 2;

impl<'a> Outcomes<'a> {
    /// The search of the unit `prefix`, at its root: the first hand holds the symbols 0..n,
    /// the second n..2n.
    fn new(
        half: usize,
        max_mult: usize,
        max_rounds: usize,
        prefix: &[u8],
        stop: &'a AtomicBool,
    ) -> Outcomes<'a> {
        let mut root = [[0; MAX_HALF]; 2];
        let [a, b] = &mut root;
        for (i, (x, y)) in a.iter_mut().zip(b.iter_mut()).take(half).enumerate() {
            (*x, *y) = (i as u8, (half + i) as u8);
        }
        Outcomes {
            half,
            max_mult: max_mult as u32,
            max_rounds,
            root,
            prefix: prefix.to_vec(),
            trail: Vec::new(),
            result: UnitResult::default(),
            stop,
            steps: 0,
            stopped: false,
        }
    }

    /// Whether the search is to end now: true once the stop request has been seen (polled
    /// every [`POLL_EVERY`] calls).
    fn stopping(&mut self) -> bool {
        self.steps = self.steps.wrapping_add(1);
        if self.steps.is_multiple_of(POLL_EVERY) && self.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        self.stopped
    }

    /// Plays index `i` of round `round` (1-based) from position `cur`, building `next`;
    /// `tricks` of the round have ended before index `i`.
    #[allow(clippy::too_many_arguments)] // the search state, copied down the recursion
    fn index(
        &mut self,
        rel: &Relations,
        round: usize,
        cur: &Hands,
        next: &mut Hands,
        known: [usize; 2],
        i: usize,
        start: usize,
        tricks: u32,
    ) {
        if self.stopping() {
            return;
        }
        let n = self.half;
        if i == n {
            self.round_end(rel, round, next, tricks);
            return;
        }
        let (a, b) = (cur[0][i], cur[1][i]);
        // An outcome the relations already fix is followed with them as they are (they passed
        // `root_is_an_image` when they were made); an open one with a copy that records it.
        let fixed = rel.rel(a, b);
        let mut copy;
        for outcome in [TIE, FIRST, SECOND] {
            if round == 1 && i < self.prefix.len() && self.prefix[i] != outcome {
                continue;
            }
            if outcome == TIE && i + 1 == n {
                continue;
            }
            let r = if fixed == Rel::Open {
                copy = *rel;
                let ok = match outcome {
                    TIE => copy.equal(a, b, self.max_mult),
                    FIRST => copy.less(b, a),
                    _ => copy.less(a, b),
                };
                if !ok || !self.root_is_an_image(&copy) {
                    continue;
                }
                &copy
            } else if fixed == [Rel::Equal, Rel::Greater, Rel::Less][usize::from(outcome)] {
                rel
            } else {
                continue;
            };
            if round <= self.max_rounds {
                self.result.nodes += 1;
            }
            if outcome == TIE {
                self.index(r, round, cur, next, known, i + 1, start, tricks);
                continue;
            }
            let w = usize::from(outcome - 1);
            let cards = 2 * (i + 1 - start);
            if known[w] + cards > n {
                continue;
            }
            let mut nx = *next;
            let out = &mut nx[w];
            let mut at = known[w];
            for j in (start..=i).rev() {
                out[at] = cur[w][j];
                out[at + 1] = cur[1 - w][j];
                at += 2;
            }
            let mut k = known;
            k[w] = at;
            self.index(r, round, cur, &mut nx, k, i + 1, i + 1, tricks + 1);
        }
    }

    /// The root lies on a cycle, so it is the image of a position: each hand a sequence of
    /// piles, that is each pair of cards `(h[2j], h[2j + 1])` non-increasing (the first pair
    /// strict, a relation set from the start). False when a pair is known to increase.
    fn root_is_an_image(&self, rel: &Relations) -> bool {
        // The root's hands are the symbols 0..n and n..2n: their pairs are (2j, 2j + 1) and
        // (n + 2j, n + 2j + 1), j < n / 2 (for an odd n the last card of a hand is in no pair),
        // and s < s + 1 is recorded in s's class as s + 1 above it.
        let increases = |s: usize| rel.above[usize::from(rel.rep[s])] >> (s + 1) & 1 == 1;
        let pairs = self.half / 2;
        (0..pairs).all(|j| !increases(2 * j)) && (0..pairs).all(|j| !increases(self.half + 2 * j))
    }

    /// Whether the interleaved sequence `x0[0], x1[0], x0[1], ...` is known to be smaller than
    /// the root's.
    fn known_smaller(&self, rel: &Relations, x0: &[u8], x1: &[u8]) -> bool {
        for j in 0..self.half {
            for (s, t) in [(x0[j], self.root[0][j]), (x1[j], self.root[1][j])] {
                match rel.rel(s, t) {
                    Rel::Equal => {}
                    Rel::Less => return true,
                    _ => return false,
                }
            }
        }
        false
    }

    fn round_end(&mut self, rel: &Relations, round: usize, pos: &Hands, tricks: u32) {
        let n = self.half;
        self.trail.truncate(round - 1);
        self.trail.push((*pos, tricks));
        // The root must be the smallest position of its cycle and of its swap: end the branch
        // when this position (or its swap) is known to be smaller, or the root's swap is.
        let [p0, p1] = pos;
        let [r0, r1] = &self.root;
        if self.known_smaller(rel, p0, p1)
            || self.known_smaller(rel, p1, p0)
            || self.known_smaller(rel, r1, r0)
        {
            return;
        }
        let symbols = 2 * n;
        let counted = round <= self.max_rounds;
        // Close the cycle here (unless a card is already known to differ from the root's).
        let open = |s, t| matches!(rel.rel(s, t), Rel::Equal | Rel::Open);
        if (0..n).all(|j| open(p0[j], r0[j]) && open(p1[j], r1[j])) {
            let mut closed = *rel;
            let closes = (0..n).all(|j| {
                closed.equal(p0[j], r0[j], self.max_mult)
                    && closed.equal(p1[j], r1[j], self.max_mult)
            });
            if closes {
                self.result.leaves += u64::from(counted);
                self.weak_orders(&closed, Keep::Exactly(round));
            }
        }
        if rel.total(symbols) {
            // One position: play it on.
            self.result.leaves += u64::from(counted);
            let values = rel.values(symbols);
            self.concrete(&values, Keep::Above(round));
            return;
        }
        if round == self.max_rounds {
            self.result.leaves += 1;
        }
        if round == self.max_rounds + LEAF_ROUNDS {
            // Every root left in the branch, played on: those on a cycle longer than the
            // rounds followed.
            self.weak_orders(rel, Keep::Above(round));
            return;
        }
        let mut next = [[0; MAX_HALF]; 2];
        self.index(rel, round + 1, pos, &mut next, [0, 0], 0, 0, 0);
    }

    /// Records the root with symbol values `values` if it lies on a cycle whose period in
    /// rounds passes `keep`, and it is that cycle's canonical position.
    fn concrete(&mut self, values: &[Card; SYMBOLS], keep: Keep) {
        if self.stopping() {
            return;
        }
        let root = self.map(&self.root, values);
        let n = self.half;
        let (a, b) = (&root[0][..n], &root[1][..n]);
        if cmp_interleaved(b, a, a, b).is_lt() {
            return;
        }
        let leaf = self.walk(values, &root, keep.rounds());
        #[cfg(debug_assertions)]
        debug_assert_eq!(leaf, concrete_cycle(a, b, CONCRETE_ROUNDS));
        match leaf {
            Leaf::Cycle(c) if keep.keeps(c.period_rounds) => self.result.cycles.push(c),
            Leaf::Capped => self.result.capped += 1,
            _ => {}
        }
    }

    /// The symbols of `hands` replaced by their values.
    fn map(&self, hands: &Hands, values: &[Card; SYMBOLS]) -> Concrete {
        let mut out = [[0; MAX_HALF]; 2];
        for (o, h) in out.iter_mut().zip(hands) {
            for (c, &s) in o.iter_mut().zip(&h[..self.half]) {
                *c = values[usize::from(s)];
            }
        }
        out
    }

    /// [`concrete_cycle`] from `root` (the root's symbols given `values`), the first `rounds`
    /// rounds read from the trail instead of played: the relations of the branch fix their
    /// outcomes, so they are aligned and end on the trail's positions. The same checks, in the
    /// same order, as playing them, so the same answer.
    fn walk(&self, values: &[Card; SYMBOLS], root: &Concrete, rounds: usize) -> Leaf {
        let n = self.half;
        let (p0, p1) = (&root[0][..n], &root[1][..n]);
        let v = |s: u8| values[usize::from(s)];
        // The position after a round of the trail, compared with `q` without mapping it whole.
        let cmp = |pos: &Hands, swap: usize, q: &Concrete| {
            for j in 0..n {
                let o = v(pos[swap][j]).cmp(&q[0][j]).then(v(pos[1 - swap][j]).cmp(&q[1][j]));
                if o.is_ne() {
                    return o;
                }
            }
            std::cmp::Ordering::Equal
        };
        let mut walk = Walk::new(*root);
        // Brent's saved position: the root, or the position after round `saved`.
        let mut saved = 0;
        for round in 1..=rounds {
            let (pos, tricks) = &self.trail[round - 1];
            walk.tricks += u64::from(*tricks);
            let direct = cmp(pos, 0, root);
            let swapped = cmp(pos, 1, root);
            if direct.is_lt() || swapped.is_lt() {
                return Leaf::No;
            }
            if swapped.is_eq() {
                walk.self_twin = true;
                walk.square_is_swap |= round == 2;
            }
            if direct.is_eq() {
                return walk.found(p0, p1, round);
            }
            let same = if saved == 0 {
                cmp(pos, 0, root).is_eq()
            } else {
                let q = &self.trail[saved - 1].0;
                (0..n).all(|j| v(pos[0][j]) == v(q[0][j]) && v(pos[1][j]) == v(q[1][j]))
            };
            if same {
                return Leaf::No;
            }
            if round == walk.power {
                saved = round;
                walk.power *= 2;
            }
        }
        if saved > 0 {
            walk.saved = self.map(&self.trail[saved - 1].0, values);
        }
        let cur = self.map(&self.trail[rounds - 1].0, values);
        walk.play_on(p0, p1, cur, rounds + 1, CONCRETE_ROUNDS)
    }

    /// Every weak order of the classes compatible with `rel`, each a root position to check.
    fn weak_orders(&mut self, rel: &Relations, round: Keep) {
        let symbols = 2 * self.half;
        let mut reps = [0; SYMBOLS];
        let mut count = 0;
        for s in (0..symbols).filter(|&s| usize::from(rel.rep[s]) == s) {
            reps[count] = s;
            count += 1;
        }
        let mut values = [0 as Card; SYMBOLS];
        self.levels(rel, &reps[..count], 0, 1, &mut values, round);
    }

    fn levels(
        &mut self,
        rel: &Relations,
        reps: &[usize],
        placed: u32,
        value: Card,
        values: &mut [Card; SYMBOLS],
        round: Keep,
    ) {
        let symbols = 2 * self.half;
        let all = if symbols == 32 { u32::MAX } else { (1u32 << symbols) - 1 };
        if placed == all {
            let v = *values;
            self.concrete(&v, round);
            return;
        }
        // Classes not placed whose smaller symbols are all placed.
        let mut ready = [0; SYMBOLS];
        let mut count = 0;
        for &c in reps {
            if placed & rel.members[c] == 0 && rel.below[c] & !placed == 0 {
                ready[count] = c;
                count += 1;
            }
        }
        // Every nonempty set of them, of at most max_mult symbols, becomes the next value.
        self.subsets(rel, reps, &ready[..count], 0, 0, placed, value, values, round);
    }

    #[allow(clippy::too_many_arguments)] // the enumeration's state, passed down
    fn subsets(
        &mut self,
        rel: &Relations,
        reps: &[usize],
        ready: &[usize],
        from: usize,
        set: u32,
        placed: u32,
        value: Card,
        values: &mut [Card; SYMBOLS],
        round: Keep,
    ) {
        if self.stopped {
            return;
        }
        if set != 0 {
            for s in bits(set) {
                values[s] = value;
            }
            self.levels(rel, reps, placed | set, value + 1, values, round);
        }
        for k in from..ready.len() {
            let more = set | rel.members[ready[k]];
            if more.count_ones() <= self.max_mult {
                self.subsets(rel, reps, ready, k + 1, more, placed, value, values, round);
            }
        }
    }
}

/// The units of the outcome search for n cards per hand: the outcomes of round 1's first
/// indices, in base 3 (tie, first, second), the first index never `first` (the root is not
/// larger than its swap).
pub(super) fn units(half: usize) -> Vec<Vec<u8>> {
    let k = half.min(6);
    let mut out = Vec::new();
    for code in 0..3usize.pow(k as u32) {
        let digits: Vec<u8> =
            (0..k).map(|i| (code / 3usize.pow((k - 1 - i) as u32) % 3) as u8).collect();
        if digits[0] != FIRST {
            out.push(digits);
        }
    }
    out
}

/// Searches one unit; `None` when `stop` was set before it was done (polled every few
/// milliseconds).
pub(super) fn search_unit(
    half: usize,
    max_mult: usize,
    max_rounds: usize,
    prefix: &[u8],
    stop: &AtomicBool,
) -> Option<UnitResult> {
    let mut o = Outcomes::new(half, max_mult, max_rounds, prefix, stop);
    let root = o.root;
    let mut rel = Relations::new(2 * half);
    if half >= 2 {
        // The first pile of each hand of the root begins with its winning card.
        let _ = rel.less(root[0][1], root[0][0]);
        let _ = rel.less(root[1][1], root[1][0]);
    }
    let mut next = [[0; MAX_HALF]; 2];
    o.index(&rel, 1, &root, &mut next, [0, 0], 0, 0, 0);
    if o.stopped {
        return None;
    }
    o.result.cycles.sort();
    o.result.cycles.dedup();
    Some(o.result)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only the pairs of a hand's piles count: with an odd n, neither the pair across the two
    /// hands nor the pairs shifted by one in the second hand.
    #[test]
    fn root_pairs_are_within_each_hand() {
        // (n, a < b, whether the root can still be an image).
        let cases = [
            // n = 1: no pair at all.
            (1, (0, 1), true),
            // n = 3: hands 0 1 2 / 3 4 5, pairs (0, 1) and (3, 4).
            (3, (0, 1), false),
            (3, (3, 4), false),
            (3, (2, 3), true),
            (3, (4, 5), true),
            (3, (1, 2), true),
            // n = 4: hands 0 1 2 3 / 4 5 6 7, pairs (0, 1), (2, 3), (4, 5), (6, 7).
            (4, (0, 1), false),
            (4, (2, 3), false),
            (4, (6, 7), false),
            (4, (1, 2), true),
            (4, (3, 4), true),
        ];
        let never = AtomicBool::new(false);
        for (half, (a, b), image) in cases {
            let mut rel = Relations::new(2 * half);
            assert!(rel.less(a, b));
            let o = Outcomes::new(half, 4, 8, &[], &never);
            assert_eq!(o.root_is_an_image(&rel), image, "n = {half}: {a} < {b}");
        }
    }
}
