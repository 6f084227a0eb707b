//! The CNF of "a position of this deck that comes back to itself after each player has turned
//! exactly K cards": the *stream* encoding, whose size grows with K (one turn of the loop),
//! not with the states of every trick.
//!
//! # Streams instead of states
//!
//! Follow one player through a loop. Everything he ever holds is one stream of cards: his hand
//! at the start, then each pile he wins, in order. His hand at any trick boundary is a window of
//! that stream: from the next card he turns to the last card he received. If the position comes
//! back after he has turned K cards, his stream repeats with period K: the card at stream index
//! `j + K` has the value of the card at `j`. So the whole loop is written with 2K values, the
//! cards `x[0..K)` and `y[0..K)` each player turns in one turn of the loop, and the first hand's
//! length `a` (the second's is `N − a`):
//! - the first hand is `x[j mod K]` for `j < a`, the second `y[j mod K]` for `j < N − a`; they
//!   hold the deck (for each v, exactly C·(V − v + 1) of those cards are ≥ v);
//! - reveal i compares `x[i]` and `y[i]`: a tie goes on to reveal i + 1, a difference ends the
//!   trick (reveal K − 1 ends one: the position is at a trick boundary);
//! - the winner of a trick that starts at reveal s puts its pile at his stream indices `G`,
//!   `G + 1`, …, where `G` is his queue's end when the trick starts (`a` plus twice the
//!   reveals of the tricks he won before s, for the first player). Natural stacking puts the
//!   pair of reveal i at `G + 2·(e − i)` and `G + 2·(e − i) + 1` (e the trick's last reveal),
//!   higher card first; for a tied pair the two cards are equal;
//! - every reveal i of the trick must find a card: `i < G` for each player (a loop never ends);
//! - each player receives exactly K cards in the turn (so K is even and each wins K/2 reveals).
//!
//! A model is exactly a position that comes back after K reveals by each player, at a trick
//! boundary: the engine playing that position turns `x[0]`, `y[0]`, … and the received cards
//! are those the model says, so it plays the model's reveals and ends the turn with the same
//! two windows. A loop whose turn takes K₀ cards comes back after every multiple of K₀.
//!
//! Counts are one-hot over a window of values (`Window`), defined by equivalences so that every
//! real play has exactly one model. The trick's shape is one-hot too: the distance of each reveal
//! to the end of its trick, below R = the most reveals of a trick (a fact about every game, as in
//! the trick encoding, or T + 1 when the question allows at most T ties per trick: a longer
//! trick is excluded, so the models are exactly the loops whose tricks are that short).
//!
//! # Symmetry
//!
//! Unless only deals are asked for, the first hand is the smallest hand of its loop at every
//! trick boundary, both players counted, as in the census's canonical positions.
//!
//! # Lopsided loops
//!
//! `Question::max_hand` = M, with 2M < N, asks for the loops in which one player holds at most
//! M cards at every trick boundary. The formula requires it of the first hand: `a ≤ M`, and
//! `F − i ≤ M` at every trick start i. That is exact. In such a loop the other player always
//! holds at least N − M > M cards, so the smallest hand of the loop is the first player's, and
//! the canonical position above has him first: the loop has a model. Conversely a model's
//! first hand is at most M at every trick boundary of the turn, hence of the loop.
//!
//! # Split periods
//!
//! `Question::first_hand` = L adds `a = L`: the loops whose smallest hand (at every trick
//! boundary, both players counted) holds L cards. By the symmetry above every model of a loop
//! has its first hand equal to that smallest hand, so all of a loop's models lie in one part,
//! and the parts L = 1, 2, … partition the period's loops; each part's formula is the whole one
//! plus a unit clause, and its own proof certifies its own part.
//!
//! # Optimized stacking
//!
//! The winner's pile is the trick's cards sorted from strongest to weakest: for each reveal e
//! that ends a trick, pile slot j is `≥ v` when more than j of the trick's cards are `≥ v`
//! (a unary count over the last R reveals that belong to the trick), and slot j goes to
//! stream index `G + j` while j is below the trick's 2·(length).

use bataille_engine::{Card, Method, Position};

use crate::cnf::{Cnf, FALSE, Lit, TRUE, lit_value};
use crate::question::Question;

/// A card in the order encoding: `ge[v − 1]` is "value ≥ v" (`ge[0]` is true).
type Slot = Vec<Lit>;

/// A number in `lo..lo + lits.len()`, one literal per value (exactly one true).
#[derive(Debug, Clone)]
struct Window {
    lo: usize,
    lits: Vec<Lit>,
}

impl Window {
    fn new(cnf: &mut Cnf, lo: usize, hi: usize) -> Window {
        Window { lo, lits: (lo..=hi).map(|_| cnf.var()).collect() }
    }

    /// "The number is g" (false outside the window).
    fn is(&self, g: usize) -> Lit {
        g.checked_sub(self.lo).and_then(|i| self.lits.get(i)).copied().unwrap_or(FALSE)
    }

    fn values(&self) -> impl Iterator<Item = usize> + '_ {
        self.lo..self.lo + self.lits.len()
    }

    fn hi(&self) -> usize {
        self.lo + self.lits.len() - 1
    }
}

/// The stream formula and how to read a position from its variables.
#[derive(Debug)]
pub(crate) struct Stream {
    /// `a_ge[t]`: the first hand holds at least t cards (t = 0..=N).
    a_ge: Vec<Lit>,
    x: Vec<Slot>,
    y: Vec<Slot>,
    cards: usize,
}

/// An upper bound on the clauses of the stream formula, counted from [`Stream::encode`]'s loops
/// as [`Question::clause_bound`] counts the trick formula's. An odd K's formula stops after the
/// deck; the bound counts it whole all the same, so that it grows with K.
pub(crate) fn clause_bound(q: &Question) -> f64 {
    let n = q.deck.cards() as f64;
    let k = f64::from(q.period);
    let (c, v) = (q.deck.colours() as f64, q.deck.values() as f64);
    let r = q.max_reveals() as f64;
    // The cards turned, ordered, and the first hand's length.
    let cards = 2.0 * k * (v - 2.0).max(0.0) + (n - 2.0).max(0.0);
    // The hands hold the deck: for each value above the lowest, 2(N − 1) `and`s and a counter.
    let deck: f64 = (1..q.deck.values())
        .map(|above| {
            3.0 * 2.0 * (n - 1.0) + Cnf::at_least_clauses(2.0 * (n - 1.0), c * above as f64 + 1.0)
        })
        .sum::<f64>()
        + 4.0 * (v - 1.0);
    // Each reveal's comparison, tie and winner, and its distance to the trick's end.
    let reveals = k * (8.0 * v + 6.0 + 3.0 * r) + r;
    let lengths = 3.0 * (n - 1.0);
    // Each player's queue ends: the start window, then at each reveal i the trick-start window
    // (9 a value, 2 more for each value up to i, which the reveal rules out) and the next queue
    // end (5 a value), and at the end the window K further.
    let ends = 2.0 * (n - 1.0)
        + 9.0 * window_sum(q, 0.0, k)
        + k * (k - 1.0)
        + 5.0 * window_sum(q, 1.0, k + 1.0)
        + 2.0 * k
        + 2.0 * window_sum(q, k, k + 1.0);
    let piles = match q.method {
        Method::Optimized => {
            // For each reveal e ending a trick of up to W = min(R, e + 1) reveals: the trick's
            // extent, a counter of its 2W cards for each value, and for each player and queue
            // end the `and` that places the pile and 4W(V − 1) clauses.
            let lo = q.max_reveals().min(q.period as usize);
            let per_trick =
                |w: f64| 3.0 * w + (v - 1.0) * (6.0 * w + Cnf::at_least_clauses(2.0 * w, 2.0 * w));
            let place = |w: f64, ends: f64| 2.0 * ends * (4.0 + 4.0 * w * (v - 1.0));
            let short: f64 = (0..lo)
                .map(|e| {
                    let w = (e + 1) as f64;
                    per_trick(w) + place(w, window_sum(q, e as f64, e as f64 + 1.0))
                })
                .sum();
            let long = (k - lo as f64) * per_trick(r) + place(r, window_sum(q, lo as f64, k));
            short + long
        }
        // For each reveal and player: where the pair goes (R per queue end), and the pair
        // written at each place it can go (6(V − 1) each).
        _ => {
            2.0 * (r * window_sum(q, 0.0, k)
                + 6.0 * (v - 1.0) * (window_sum(q, 0.0, k) + k * (2.0 * r - 2.0)))
        }
    };
    let symmetry = if q.deals {
        2.0
    } else {
        // a ≤ N − a, the first trick won, the part, and no hand shorter at any trick start.
        // With M: at each trick start i, the queue ends above i + M, N − 1 − M + min(i, K − i).
        let max_hand = q
            .max_hand
            .map_or(0.0, |m| 2.0 + (k - 1.0) * (n - 1.0 - f64::from(m)) + (k * k / 4.0).floor());
        6.0 + max_hand + 2.0 * window_sum(q, 1.0, k)
    };
    2.0 + cards + deck + reveals + lengths + 2.0 * ends + piles + symmetry
}

/// Σ for i in from..to of the width of a player's queue end before reveal i, which holds 1 to
/// N − 1 + min(2i, K).
fn window_sum(q: &Question, from: f64, to: f64) -> f64 {
    let k = f64::from(q.period);
    // Σ_{i < x} min(2i, K): 2i below K for i < ⌈K/2⌉.
    let below = |x: f64| {
        let half = (k / 2.0).ceil();
        if x <= half { x * (x - 1.0) } else { half * (half - 1.0) + (x - half) * k }
    };
    (to - from) * (q.deck.cards() - 1) as f64 + below(to) - below(from)
}

impl Stream {
    /// Encodes `q` (a question counted in cards) into `cnf`.
    #[allow(clippy::needless_range_loop)] // reveal i, value v, player h: the formula's indices
    pub(crate) fn encode(q: &Question, cnf: &mut Cnf) -> Stream {
        let k = q.period as usize;
        let n = q.deck.cards();
        let (colours, values) = (q.deck.colours(), q.deck.values());
        let r = q.max_reveals();
        let slot = |cnf: &mut Cnf| -> Slot {
            let mut s = vec![TRUE];
            s.extend((1..values).map(|_| cnf.var()));
            for v in 2..values {
                cnf.add(&[-s[v], s[v - 1]]);
            }
            s
        };
        let x: Vec<Slot> = (0..k).map(|_| slot(cnf)).collect();
        let y: Vec<Slot> = (0..k).map(|_| slot(cnf)).collect();
        // a ≥ t, t = 0..=N: 1 ≤ a ≤ N − 1.
        let mut a_ge = vec![TRUE, TRUE];
        a_ge.extend((2..n).map(|_| cnf.var()));
        a_ge.push(FALSE);
        for t in 2..n {
            cnf.add(&[-a_ge[t], a_ge[t - 1]]);
        }
        let s = Stream { a_ge, x, y, cards: n };

        // The hands hold the deck.
        for v in 1..values {
            let mut inputs = Vec::with_capacity(2 * n);
            for j in 0..n - 1 {
                inputs.push(cnf.and(&[s.a_ge[j + 1], s.x[j % k][v]]));
                // The second hand holds N − a ≥ j + 1 cards: a ≤ N − 1 − j.
                inputs.push(cnf.and(&[-s.a_ge[n - j], s.y[j % k][v]]));
            }
            let want = colours * (values - v);
            let count = cnf.at_least(&inputs, want + 1);
            cnf.add(&[count[want - 1]]);
            cnf.add(&[-count[want]]);
        }
        if k % 2 == 1 {
            // Each player receives an even number of cards per trick won, and must receive K.
            cnf.add(&[]);
            return s;
        }

        // Each reveal: the first player higher, lower, or a tie (not at the last reveal).
        let mut higher = Vec::with_capacity(k);
        let mut tie = Vec::with_capacity(k);
        for i in 0..k {
            let (a, b) = (&s.x[i], &s.y[i]);
            let gt: Vec<Lit> = (1..values).map(|v| cnf.and(&[a[v], -b[v]])).collect();
            let lt: Vec<Lit> = (1..values).map(|v| cnf.and(&[b[v], -a[v]])).collect();
            let (gt, lt) = (cnf.or(&gt), cnf.or(&lt));
            higher.push(gt);
            if i + 1 == k {
                // The turn ends at a trick boundary: the last reveal is not a tie.
                cnf.add(&[gt, lt]);
                tie.push(FALSE);
            } else {
                tie.push(cnf.and(&[-gt, -lt]));
            }
        }
        // first_wins[i]: the first player wins the trick of reveal i.
        let mut first_wins = vec![FALSE; k];
        for i in (0..k).rev() {
            let later = if i + 1 < k { cnf.and(&[tie[i], first_wins[i + 1]]) } else { FALSE };
            first_wins[i] = cnf.or(&[higher[i], later]);
        }
        // dist[i]: reveals after i in its trick, below R.
        let mut dist: Vec<Window> = vec![Window { lo: 0, lits: Vec::new() }; k];
        for i in (0..k).rev() {
            let w = Window::new(cnf, 0, r - 1);
            // dist = 0 ⇔ not a tie; dist = d + 1 ⇔ a tie and the next reveal's dist is d.
            cnf.add(&[-w.is(0), -tie[i]]);
            cnf.add(&[w.is(0), tie[i]]);
            for d in 1..r {
                let next = if i + 1 < k { dist[i + 1].is(d - 1) } else { FALSE };
                cnf.implies(&[w.is(d)], &[tie[i], next]);
                cnf.add(&[-tie[i], -next, w.is(d)]);
            }
            if i + 1 < k {
                // A trick of more than R reveals does not happen.
                cnf.add(&[-tie[i], -dist[i + 1].is(r - 1)]);
            }
            dist[i] = w;
        }
        let start: Vec<Lit> = (0..k).map(|i| if i == 0 { TRUE } else { -tie[i - 1] }).collect();

        // Each player's queue end and trick-start queue end.
        let a_is: Vec<Lit> = (0..=n).map(|t| s.is_a(cnf, t)).collect();
        let mut starts = [Vec::new(), Vec::new()];
        for (h, wins) in [(0, 1i32), (1, -1)] {
            let won = |i: usize| if wins > 0 { first_wins[i] } else { -first_wins[i] };
            // The queue end before reveal i: a (or N − a) plus 2 per reveal won before.
            let mut g = Window::new(cnf, 1, n - 1);
            for t in g.values() {
                let a = if h == 0 { t } else { n - t };
                cnf.add(&[-g.is(t), a_is[a]]);
                cnf.add(&[g.is(t), -a_is[a]]);
            }
            let mut at_start = Vec::with_capacity(k);
            let mut f_prev: Option<Window> = None;
            for i in 0..k {
                // F: the queue end when reveal i's trick started; every reveal needs F > i.
                let f = Window::new(cnf, g.lo, g.hi());
                for t in f.values() {
                    let from_prev = f_prev.as_ref().map_or(FALSE, |p| p.is(t));
                    let here = cnf.and(&[start[i], g.is(t)]);
                    let kept = cnf.and(&[-start[i], from_prev]);
                    cnf.add(&[-here, f.is(t)]);
                    cnf.add(&[-kept, f.is(t)]);
                    cnf.add(&[-f.is(t), here, kept]);
                    if t <= i {
                        cnf.add(&[-f.is(t)]);
                    }
                }
                at_start.push(f.clone());
                // The next queue end.
                let next = Window::new(cnf, g.lo, (g.hi() + 2).min(n - 1 + k));
                for t in next.values() {
                    let stay = g.is(t);
                    let grow = if t >= 2 { g.is(t - 2) } else { FALSE };
                    cnf.add(&[-stay, won(i), next.is(t)]);
                    cnf.add(&[-grow, -won(i), next.is(t)]);
                    cnf.add(&[-next.is(t), stay, grow]);
                    cnf.add(&[-next.is(t), -won(i), grow]);
                    cnf.add(&[-next.is(t), won(i), stay]);
                }
                for t in g.values().filter(|&t| t + 2 > next.hi()) {
                    cnf.add(&[-g.is(t), -won(i)]);
                }
                g = next;
                f_prev = Some(f);
            }
            // After the turn, the queue end is K further: each player received K cards.
            for t in g.values() {
                let back = t.checked_sub(k).map_or(FALSE, |a| {
                    if h == 0 { a_is[a] } else { n.checked_sub(a).map_or(FALSE, |b| a_is[b]) }
                });
                cnf.add(&[-g.is(t), back]);
            }
            starts[h] = at_start;
        }

        // The piles.
        let streams = [&s.x, &s.y];
        match q.method {
            Method::Optimized => {
                for e in 0..k {
                    // The trick ending at e: reveals e − m + 1 ..= e with ties before e.
                    let mut within = vec![TRUE];
                    for m in 1..r.min(e + 1) {
                        within.push(cnf.and(&[within[m - 1], tie[e - m]]));
                    }
                    let mut counts = Vec::with_capacity(values);
                    for v in 1..values {
                        let inputs: Vec<Lit> = (0..within.len())
                            .flat_map(|m| [(m, 0), (m, 1)])
                            .map(|(m, h)| cnf.and(&[within[m], streams[h][e - m][v]]))
                            .collect();
                        counts.push(cnf.at_least(&inputs, 2 * within.len()));
                    }
                    // Under "e ends the trick", within[m] is "the trick has more than m
                    // reveals", so pile slot j exists when within[j / 2].
                    for (h, wins) in [(0, first_wins[e]), (1, -first_wins[e])] {
                        let stream = streams[h];
                        for f in starts[h][e].values() {
                            let when = cnf.and(&[-tie[e], wins, starts[h][e].is(f)]);
                            for j in 0..2 * within.len() {
                                let exists = within[j / 2];
                                let target = &stream[(f + j) % k];
                                for v in 1..values {
                                    let c = counts[v - 1][j];
                                    cnf.add(&[-when, -exists, -target[v], c]);
                                    cnf.add(&[-when, -exists, target[v], -c]);
                                }
                            }
                        }
                    }
                }
            }
            _ => {
                for i in 0..k {
                    let (a, b) = (&s.x[i], &s.y[i]);
                    for (h, wins) in [(0, first_wins[i]), (1, -first_wins[i])] {
                        let stream = streams[h];
                        let f = &starts[h][i];
                        // The pair goes to f + 2·dist: (higher, lower).
                        let at = Window::new(cnf, f.lo, f.hi() + 2 * (r - 1));
                        for t in f.values() {
                            for d in 0..r {
                                cnf.add(&[-wins, -f.is(t), -dist[i].is(d), at.is(t + 2 * d)]);
                            }
                        }
                        for p in at.values() {
                            let (hi, lo) = (&stream[p % k], &stream[(p + 1) % k]);
                            let when = at.is(p);
                            for v in 1..values {
                                cnf.add(&[-when, -hi[v], a[v], b[v]]);
                                cnf.add(&[-when, -a[v], hi[v]]);
                                cnf.add(&[-when, -b[v], hi[v]]);
                                cnf.add(&[-when, -lo[v], a[v]]);
                                cnf.add(&[-when, -lo[v], b[v]]);
                                cnf.add(&[-when, -a[v], -b[v], lo[v]]);
                            }
                        }
                    }
                }
            }
        }

        if q.deals {
            let mut lengths = vec![a_is[n / 2]];
            if q.method.is_symmetric() && n % 2 == 1 {
                lengths.push(a_is[n - n / 2]);
            }
            cnf.add(&lengths);
        } else {
            // The first hand is the smallest of its loop: a ≤ N − a, and at every later trick
            // start neither hand (queue end − reveals made) is shorter than a.
            cnf.add(&[-s.a_ge[n / 2 + 1]]);
            cnf.add(&[first_wins[0]]);
            if let Some(l) = q.first_hand {
                cnf.add(&[a_is[l as usize]]);
            }
            if let Some(m) = q.max_hand.map(|m| m as usize) {
                // The first hand holds at most M cards at every trick start (below).
                cnf.add(&[-s.a_ge[m + 1]]);
                for i in 1..k {
                    for t in starts[0][i].values().filter(|&t| t > i + m) {
                        cnf.add(&[-start[i], -starts[0][i].is(t)]);
                    }
                }
            }
            for h in 0..2 {
                for i in 1..k {
                    for t in starts[h][i].values() {
                        // Hand length t − i; a ≤ t − i, i.e. not a ≥ t − i + 1.
                        let shorter = match (t + 1).checked_sub(i) {
                            Some(l) if l <= n => s.a_ge[l],
                            Some(_) => FALSE,
                            None => TRUE,
                        };
                        cnf.add(&[-start[i], -starts[h][i].is(t), -shorter]);
                    }
                }
            }
        }
        s
    }

    /// "a = t" as a literal.
    fn is_a(&self, cnf: &mut Cnf, t: usize) -> Lit {
        if t == 0 || t >= self.cards {
            return FALSE;
        }
        cnf.and(&[self.a_ge[t], -self.a_ge[t + 1]])
    }

    /// The position of a model.
    pub(crate) fn position(&self, mut value: impl FnMut(Lit) -> bool) -> Position {
        let mut truth = |l: Lit| lit_value(l, &mut value);
        let a = (1..self.cards).take_while(|&t| truth(self.a_ge[t])).count();
        let k = self.x.len();
        let mut card = |s: &Slot| -> Card {
            let v = s.iter().take_while(|&&l| truth(l)).count();
            Card::try_from(v).expect("values fit a card")
        };
        let first: Vec<Card> = (0..a).map(|j| card(&self.x[j % k])).collect();
        let second: Vec<Card> = (0..self.cards - a).map(|j| card(&self.y[j % k])).collect();
        Position::new(first, second).expect("two hands")
    }

    /// The clause that forbids `position` (one that comes back after K cards): its first
    /// hand's length and the cards of both hands within the first K of each stream.
    pub(crate) fn block(&self, position: &Position) -> Vec<Lit> {
        let a = position.first().len();
        let mut clause = vec![-self.a_ge[a], self.a_ge[a + 1]];
        for (slots, hand) in [(&self.x, position.first()), (&self.y, position.second())] {
            for (slot, &c) in slots.iter().zip(hand) {
                let v = usize::from(c);
                clause.push(-slot[v - 1]);
                if v < slot.len() {
                    clause.push(slot[v]);
                }
            }
        }
        clause
    }
}
