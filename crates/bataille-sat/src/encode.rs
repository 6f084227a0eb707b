//! The CNF of "a position of this deck that comes back to itself after exactly P tricks".
//!
//! # Variables
//!
//! The formula unrolls P tricks over P *states* (positions at a trick boundary); the trick
//! played from state P − 1 leads back to state 0, which closes the loop. A state holds two
//! hands of S = N − 1 *slots* (on a loop neither hand is empty, so neither holds N cards).
//! A slot holds a card value or nothing, in the **order encoding**: V variables
//! `slot ≥ 1, …, slot ≥ V`, where `slot ≥ 1` means "the slot holds a card", and
//! `slot ≥ v+1 → slot ≥ v`. Occupied slots come first in each hand. Comparing two cards is
//! then a disjunction (`a > b ⇔ ∃v: a ≥ v ∧ ¬(b ≥ v)`), and the cards in a hand are counted
//! value by value.
//!
//! # A trick
//!
//! From state t, with the hands `a` and `b`:
//! - reveal k (0-based) happens when the reveals before it were all ties; both players must
//!   hold a card there (a player who cannot reveal loses, and a loop never ends). A trick has
//!   at most R reveals, R = min(⌊N/2⌋, 1 + V·⌊C/2⌋): both hands hold at least r cards, and
//!   the r − 1 ties use pairs of equal cards, at most ⌊C/2⌋ pairs per value. So R is a fact
//!   about every game, not a bound of the search, unless the question asks for loops with at
//!   most T ties per trick (`Question::max_ties`, R = T + 1): a tie at the R-th reveal is then
//!   excluded, so the models are exactly the loops whose tricks have at most T ties.
//! - the winner is the player with the higher card at the last reveal;
//! - both hands lose their first r cards; the winner's gets the *pile* after its last card.
//!   The pile is, for natural stacking, the higher then the lower card of the last reveal,
//!   then the tied pairs from the last back to the first; for optimized stacking, the 2r
//!   cards sorted from strongest to weakest (each pile slot is `count of cards ≥ v > j`).
//!
//! Every case split (the number of reveals, the length of the winner's hand) is a one-hot
//! set of variables, and each case is a set of conditional equalities between slots. The
//! encoding is exact: its solutions are the positions that come back after P tricks (on a
//! loop of period P or of a divisor of P), nothing more, nothing less. The tests compare it
//! with the census of every position on small decks.
//!
//! # One position per loop, or nearly
//!
//! Every position of a loop, and its mirror, would be a solution. Unless only deals are asked
//! for, state 0 is required to hold the smallest hand of its loop (both players counted) as
//! its first hand, as the census's canonical positions do: every loop has such a position, and
//! the first player wins its next trick (a lost trick would shorten that hand). This prunes
//! the search by up to 2P without losing any loop.
//!
//! # The deck
//!
//! State 0 holds exactly C cards of each value: for each v, exactly C·(V − v + 1) slots are
//! `≥ v`, counted by a unary counter. The tricks move cards without creating or losing any,
//! so the other states hold the same cards.

use bataille_engine::{Card, Method, Position};

use crate::cnf::{Cnf, FALSE, Lit, TRUE, lit_value};
use crate::question::{Counted, MAX_CLAUSES, Question, QuestionError};
use crate::stream::Stream;

/// A card value or nothing, in the order encoding: `ge[v − 1]` is "value ≥ v".
type Slot = Vec<Lit>;

impl Question {
    /// Checks the question before any work.
    pub fn check(&self) -> Result<(), QuestionError> {
        if !matches!(self.method, Method::Natural | Method::Optimized) {
            return Err(QuestionError::Method(self.method.name()));
        }
        if self.period == 0 {
            return Err(QuestionError::ZeroPeriod);
        }
        if self.deck.cards() < 2 {
            return Err(QuestionError::TinyDeck(self.deck.cards()));
        }
        if let Some(m) = self.max_hand {
            let (cards, most) = (self.deck.cards(), (self.deck.cards() - 1) / 2);
            if most == 0 {
                return Err(QuestionError::MaxHandTiny(cards));
            }
            if m == 0 || m as usize > most {
                return Err(QuestionError::MaxHand { given: m, cards, most });
            }
            if self.counted != Counted::Cards || self.deals {
                return Err(QuestionError::MaxHandWhere);
            }
        }
        if let Some(l) = self.first_hand {
            if self.counted != Counted::Cards || self.deals {
                return Err(QuestionError::SplitWhere);
            }
            let most = self.smallest_hand_most();
            if l == 0 || l as usize > most {
                return Err(QuestionError::FirstHand { given: l, most });
            }
        }
        let clauses = self.clause_bound();
        if clauses > MAX_CLAUSES {
            return Err(QuestionError::TooLarge {
                c: self.deck.colours(),
                v: self.deck.values(),
                period: self.period,
                unit: self.counted.unit(),
                clauses,
                limit: MAX_CLAUSES,
            });
        }
        Ok(())
    }

    /// An upper bound on the clauses of the formula, counted from the encoder's loops without
    /// building anything (so an absurd size is refused at once). Each `add` counts the clauses
    /// it writes (2 for a clause that may end as a unit), each `and` of k variables k + 1, each
    /// unary counter [`Cnf::at_least_clauses`]. The tests hold it between the clauses built and
    /// 1.5 times as many, on decks of 1 to 4 colours.
    pub fn clause_bound(&self) -> f64 {
        if self.counted == Counted::Cards {
            return crate::stream::clause_bound(self);
        }
        let (slots, most) = (self.deck.cards() - 1, self.max_reveals());
        let (c, v) = (self.deck.colours() as f64, self.deck.values() as f64);
        let (s, r, p) = (slots as f64, most as f64, f64::from(self.period));
        // Two hands of S slots, each ordered, occupied slots first, the first occupied.
        let state = 2.0 * (s * (v - 1.0) + (s - 1.0) + 2.0);
        // State 0 holds the deck: one counter of 2S inputs for each value.
        let deck: f64 = (1..=self.deck.values())
            .map(|above| Cnf::at_least_clauses(2.0 * s, c * above as f64 + 1.0) + 4.0)
            .sum();
        let symmetry = if self.deals {
            // A first hand of one or two lengths: an `and` each, and their clause.
            10.0
        } else {
            // The first trick won by the first player; no hand shorter than the first.
            2.0 + (2.0 * p - 1.0) * s
        };
        // Each reveal: both cards there, the comparisons, the tie, the next reveal, the win.
        let reveals = r * (4.0 + 2.0 * 3.0 * v + 2.0 * (v + 1.0) + 3.0 + 3.0 + 3.0);
        // Who wins, and the trick's length (one-hot).
        let outcome = (r + 1.0) + 3.0 * r;
        let pile = match self.method {
            // For each value, an `and` per revealed card and a counter of 2R inputs.
            Method::Optimized => v * (2.0 * r * 3.0 + Cnf::at_least_clauses(2.0 * r, 2.0 * r)),
            // 2R slots; for each trick length k + 1, the pair 6V, the k tied pairs 4V each, and
            // the slots left empty.
            _ => 2.0 * r * (v - 1.0) + 6.0 * v * r + 2.0 * v * r * (r - 1.0) + r * (r - 1.0),
        };
        // The hand without its first cards: 2V clauses for each slot and trick length where a
        // card comes, V where the slot is emptied.
        let shift: f64 = (0..most)
            .map(|k| {
                let filled = slots.saturating_sub(k + 1) as f64;
                2.0 * v * filled + v * (s - filled)
            })
            .sum();
        // The pile under the winner's hand of each length l: 2V per pile slot that fits, then
        // the empty slot after it (V) or a clause for the first card with no room (1).
        let placed: f64 =
            (0..slots).map(|l| 2.0 * v * (2 * most).min(slots - l) as f64 + v + 1.0).sum();
        // For each player: the hand's slots, the shift, its length (one-hot), the next hand
        // equal to it (4V − 1 a slot), and the pile.
        let hand = s * (v - 1.0) + shift + (3.0 * s - 1.0) + s * (4.0 * v - 1.0) + placed;
        let trick = reveals + outcome + pile + 2.0 * hand;
        2.0 + p * state + deck + symmetry + p * trick
    }
}

/// The formula of a question, and how to read a position from its variables.
#[derive(Debug)]
pub struct Encoding {
    /// The formula.
    pub cnf: Cnf,
    /// How to read state 0.
    read: Read,
}

/// State 0 of the trick formula (the two hands' slots), or the stream formula.
#[derive(Debug)]
enum Read {
    Tricks { start: [Vec<Slot>; 2], values: usize },
    Cards(Stream),
}

impl Encoding {
    /// Encodes a question (checked first with [`Question::check`]).
    pub fn new(q: &Question) -> Result<Encoding, QuestionError> {
        q.check()?;
        if q.counted == Counted::Cards {
            let mut cnf = Cnf::new();
            let stream = Stream::encode(q, &mut cnf);
            return Ok(Encoding { cnf, read: Read::Cards(stream) });
        }
        let mut e = Encoder::new(q);
        let states: Vec<[Vec<Slot>; 2]> = (0..q.period).map(|_| e.state()).collect();
        e.deck(&states[0]);
        if q.deals {
            e.deals(&states[0], q.method.is_symmetric());
        }
        for t in 0..states.len() {
            let next = &states[(t + 1) % states.len()];
            let first_wins = e.trick(&states[t], next);
            if t == 0 && !q.deals {
                e.cnf.add(&[first_wins]);
            }
        }
        if !q.deals {
            e.smallest_hand_first(&states);
        }
        let read = Read::Tricks { start: states[0].clone(), values: e.values };
        Ok(Encoding { cnf: e.cnf, read })
    }

    /// The position of state 0 in a model (`value(x)` is the value of variable x).
    pub fn position(&self, mut value: impl FnMut(Lit) -> bool) -> Position {
        let start = match &self.read {
            Read::Tricks { start, .. } => start,
            Read::Cards(stream) => return stream.position(value),
        };
        let mut hand = |slots: &[Slot]| -> Vec<Card> {
            slots
                .iter()
                .map(|s| s.iter().take_while(|&&l| lit_value(l, &mut value)).count())
                .take_while(|&v| v > 0)
                .map(|v| Card::try_from(v).expect("values fit a card"))
                .collect()
        };
        Position::new(hand(&start[0]), hand(&start[1])).expect("two hands")
    }

    /// The clause that forbids `position` as state 0.
    pub fn block(&self, position: &Position) -> Vec<Lit> {
        let (start, values) = match &self.read {
            Read::Tricks { start, values } => (start, *values),
            Read::Cards(stream) => return stream.block(position),
        };
        let mut clause = Vec::new();
        for (slots, hand) in start.iter().zip([position.first(), position.second()]) {
            for (i, slot) in slots.iter().enumerate() {
                match hand.get(i).map(|&c| usize::from(c)) {
                    // Differs: not ≥ v, or ≥ v + 1.
                    Some(v) => {
                        clause.push(-slot[v - 1]);
                        if v < values {
                            clause.push(slot[v]);
                        }
                    }
                    None => clause.push(slot[0]),
                }
            }
        }
        clause
    }
}

struct Encoder {
    cnf: Cnf,
    colours: usize,
    values: usize,
    slots: usize,
    reveals: usize,
    method: Method,
}

impl Encoder {
    fn new(q: &Question) -> Encoder {
        Encoder {
            cnf: Cnf::new(),
            colours: q.deck.colours(),
            values: q.deck.values(),
            slots: q.deck.cards() - 1,
            reveals: q.max_reveals(),
            method: q.method,
        }
    }

    fn empty(&self) -> Slot {
        vec![FALSE; self.values]
    }

    /// A slot of new variables, ordered.
    fn slot(&mut self) -> Slot {
        let s: Slot = (0..self.values).map(|_| self.cnf.var()).collect();
        for v in 1..self.values {
            self.cnf.add(&[-s[v], s[v - 1]]);
        }
        s
    }

    /// A state: two hands of slots, occupied slots first, neither hand empty.
    fn state(&mut self) -> [Vec<Slot>; 2] {
        let mut hand = || {
            let h: Vec<Slot> = (0..self.slots).map(|_| self.slot()).collect();
            for i in 1..self.slots {
                self.cnf.add(&[-h[i][0], h[i - 1][0]]);
            }
            self.cnf.add(&[h[0][0]]);
            h
        };
        [hand(), hand()]
    }

    /// `when → x = y`, slot by slot.
    fn equal_if(&mut self, when: &[Lit], x: &Slot, y: &Slot) {
        let mut clause: Vec<Lit> = when.iter().map(|&l| -l).collect();
        let n = clause.len();
        for v in 0..self.values {
            clause.truncate(n);
            clause.extend([-x[v], y[v]]);
            self.cnf.add(&clause);
            clause.truncate(n);
            clause.extend([x[v], -y[v]]);
            self.cnf.add(&clause);
        }
    }

    /// State 0 holds the deck: exactly C·(V − v + 1) slots ≥ v, for each v.
    fn deck(&mut self, state: &[Vec<Slot>; 2]) {
        for v in 0..self.values {
            let inputs: Vec<Lit> = state.iter().flatten().map(|s| s[v]).collect();
            let want = self.colours * (self.values - v);
            let count = self.cnf.at_least(&inputs, want + 1);
            self.cnf.add(&[count[want - 1]]);
            self.cnf.add(&[-count[want]]);
        }
    }

    /// State 0 is a deal: a first hand of ⌊N/2⌋ cards (or, when swapping players is a
    /// symmetry, of ⌈N/2⌉ cards, the mirror of a deal).
    fn deals(&mut self, state: &[Vec<Slot>; 2], symmetric: bool) {
        let n = self.slots + 1;
        let mut lengths = vec![n / 2];
        if symmetric && n % 2 == 1 {
            lengths.push(n - n / 2);
        }
        let occupied = |i: usize| -> Lit { state[0].get(i).map_or(FALSE, |s| s[0]) };
        let options: Vec<Lit> = lengths
            .iter()
            .map(|&l| {
                let full = if l == 0 { TRUE } else { occupied(l - 1) };
                self.cnf.and(&[full, -occupied(l)])
            })
            .collect();
        self.cnf.add(&options);
    }

    /// State 0 is a position of its loop whose first hand is the smallest hand of the loop,
    /// both players counted: no hand of any state is shorter.
    fn smallest_hand_first(&mut self, states: &[[Vec<Slot>; 2]]) {
        let first = states[0][0].clone();
        for (t, state) in states.iter().enumerate() {
            for (h, hand) in state.iter().enumerate() {
                if (t, h) != (0, 0) {
                    for (a, b) in first.iter().zip(hand) {
                        self.cnf.add(&[-a[0], b[0]]);
                    }
                }
            }
        }
    }

    /// The trick from `cur` to `next`; returns the literal "the first player wins it".
    fn trick(&mut self, cur: &[Vec<Slot>; 2], next: &[Vec<Slot>; 2]) -> Lit {
        let r = self.reveals;
        let empty = self.empty();
        let at = |h: usize, i: usize| -> Slot { cur[h].get(i).cloned().unwrap_or(empty.clone()) };

        // Reveals: happens[k], and the first player higher at reveal k.
        let mut happens = vec![TRUE];
        let mut first_wins_at = Vec::with_capacity(r);
        for k in 0..r {
            let (a, b) = (at(0, k), at(1, k));
            let d = happens[k];
            self.cnf.implies(&[d], &[a[0], b[0]]);
            let a_higher: Vec<Lit> =
                (0..self.values).map(|v| self.cnf.and(&[a[v], -b[v]])).collect();
            let b_higher: Vec<Lit> =
                (0..self.values).map(|v| self.cnf.and(&[b[v], -a[v]])).collect();
            let a_gt = self.cnf.or(&a_higher);
            let b_gt = self.cnf.or(&b_higher);
            let tie = self.cnf.and(&[-a_gt, -b_gt]);
            if k + 1 < r {
                happens.push(self.cnf.and(&[d, tie]));
            } else {
                self.cnf.add(&[-d, -tie]);
            }
            first_wins_at.push(self.cnf.and(&[d, a_gt]));
        }
        let first_wins = self.cnf.or(&first_wins_at);
        // last[k]: the trick has exactly k + 1 reveals.
        let last: Vec<Lit> = (0..r)
            .map(|k| {
                let more = happens.get(k + 1).copied().unwrap_or(FALSE);
                self.cnf.and(&[happens[k], -more])
            })
            .collect();

        let pile = self.pile(cur, &happens, &last);

        for (h, wins) in [(0, first_wins), (1, -first_wins)] {
            // The hand without its first r cards.
            let rest: Vec<Slot> = (0..self.slots).map(|_| self.slot()).collect();
            for (i, slot) in rest.iter().enumerate() {
                for (k, &l) in last.iter().enumerate() {
                    let from = at(h, i + k + 1);
                    self.equal_if(&[l], slot, &from);
                }
            }
            // length[L]: the rest holds exactly L cards.
            let length: Vec<Lit> = (0..self.slots)
                .map(|l| {
                    let full = if l == 0 { TRUE } else { rest[l - 1][0] };
                    self.cnf.and(&[full, -rest[l][0]])
                })
                .collect();
            for i in 0..self.slots {
                self.equal_if(&[-wins], &next[h][i], &rest[i]);
                self.equal_if(&[wins, rest[i][0]], &next[h][i], &rest[i]);
            }
            for (l, &len) in length.iter().enumerate() {
                for (j, p) in pile.iter().enumerate() {
                    match next[h].get(l + j) {
                        Some(slot) => self.equal_if(&[wins, len], slot, p),
                        None => {
                            // No slot left for the pile's card j: it must not exist.
                            self.cnf.add(&[-wins, -len, -p[0]]);
                            break;
                        }
                    }
                }
            }
        }
        first_wins
    }

    /// The pile the winner puts under his hand: 2R slots and an empty one after them.
    fn pile(&mut self, cur: &[Vec<Slot>; 2], happens: &[Lit], last: &[Lit]) -> Vec<Slot> {
        let r = self.reveals;
        let empty = self.empty();
        let at = |h: usize, i: usize| -> Slot { cur[h].get(i).cloned().unwrap_or(empty.clone()) };
        let mut pile: Vec<Slot> = Vec::with_capacity(2 * r + 1);
        match self.method {
            Method::Optimized => {
                // Slot j is ≥ v when more than j revealed cards are ≥ v.
                let mut counts = Vec::with_capacity(self.values);
                for v in 0..self.values {
                    let inputs: Vec<Lit> = (0..r)
                        .flat_map(|k| [(k, 0), (k, 1)])
                        .map(|(k, h)| self.cnf.and(&[happens[k], at(h, k)[v]]))
                        .collect();
                    counts.push(self.cnf.at_least(&inputs, 2 * r));
                }
                pile.extend((0..2 * r).map(|j| counts.iter().map(|c| c[j]).collect::<Slot>()));
            }
            _ => {
                pile = (0..2 * r).map(|_| self.slot()).collect();
                for (k, &l) in last.iter().enumerate() {
                    let (a, b) = (at(0, k), at(1, k));
                    for v in 0..self.values {
                        // The higher card, then the lower.
                        self.cnf.add(&[-l, -a[v], pile[0][v]]);
                        self.cnf.add(&[-l, -b[v], pile[0][v]]);
                        self.cnf.add(&[-l, -pile[0][v], a[v], b[v]]);
                        self.cnf.add(&[-l, -a[v], -b[v], pile[1][v]]);
                        self.cnf.add(&[-l, -pile[1][v], a[v]]);
                        self.cnf.add(&[-l, -pile[1][v], b[v]]);
                    }
                    // The tied pairs, from the last back to the first (both cards equal).
                    for m in 0..k {
                        let tied = at(0, k - 1 - m);
                        let (x, y) = (pile[2 + 2 * m].clone(), pile[3 + 2 * m].clone());
                        self.equal_if(&[l], &x, &tied);
                        self.equal_if(&[l], &y, &tied);
                    }
                    for p in &pile[2 * k + 2..] {
                        self.cnf.add(&[-l, -p[0]]);
                    }
                }
            }
        }
        pile.push(empty);
        pile
    }
}
