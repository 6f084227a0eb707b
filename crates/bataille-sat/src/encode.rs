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

use bataille_engine::{Card, DeckSpec, Method, Position};

use crate::cnf::{Cnf, FALSE, Lit, TRUE};
use crate::stream::Stream;

/// A card value or nothing, in the order encoding: `ge[v − 1]` is "value ≥ v".
type Slot = Vec<Lit>;

/// What to encode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Question {
    /// The deck.
    pub deck: DeckSpec,
    /// The stacking method of both players: natural or optimized.
    pub method: Method,
    /// When the position comes back: after `period` tricks, or after each player has turned
    /// `period` cards.
    pub counted: Counted,
    /// Tricks (or cards each player turns, see `counted`) after which the position comes back.
    pub period: u32,
    /// Only positions that are deals (first hand of ⌊N/2⌋ cards; with symmetric stacking,
    /// also the mirror of a deal).
    pub deals: bool,
    /// Only loops whose tricks have at most this many ties (a trick of at most `t + 1`
    /// reveals): a restriction that makes the formula smaller, to find loops of large decks
    /// sooner. Then a complete answer certifies only that no loop with such tricks exists.
    /// `None`: every trick the deck allows.
    pub max_ties: Option<u32>,
    /// Only loops in which one player holds at most this many cards at every trick boundary
    /// (fewer than half the deck): lopsided loops, as the C=4 V=7 loops met so far are. Only
    /// for periods counted in cards, among positions of every split. A complete answer then
    /// certifies only that no such loop exists. `None`: every split.
    pub max_hand: Option<u32>,
    /// Only the loops whose smallest hand at a trick boundary holds exactly this many cards:
    /// one *part* of a split period ([`Question::parts`]). Only for periods counted in cards,
    /// among positions of every split. `None`: the whole period.
    pub first_hand: Option<u32>,
}

/// What a period counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Counted {
    /// Tricks: the formula unrolls every trick ([`Encoding`]'s states).
    #[default]
    Tricks,
    /// Cards each player turns in one turn of the loop, battles included: the stream formula
    /// (`crate::stream`), which grows with the cards of one turn rather than with its states.
    /// A loop of P tricks turns at least P cards per player.
    Cards,
}

impl Counted {
    /// The unit, as the outputs name it.
    pub fn unit(self) -> &'static str {
        match self {
            Counted::Tricks => "tricks",
            Counted::Cards => "cards",
        }
    }

    /// A loop's period in this unit.
    pub fn of(self, found: &crate::Found) -> u64 {
        match self {
            Counted::Tricks => found.period_tricks,
            Counted::Cards => found.period_cards,
        }
    }
}

/// Why a question cannot be encoded.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum QuestionError {
    /// The method is neither natural nor optimized.
    #[error("the solver encodes natural or optimized stacking, not {0}")]
    Method(&'static str),
    /// The period is 0.
    #[error("the period must be at least 1")]
    ZeroPeriod,
    /// The deck has fewer than 2 cards.
    #[error("a deck of {0} card(s) has no loop: one hand is empty from the start")]
    TinyDeck(usize),
    /// The formula would be too large to build.
    #[error(
        "C={c} V={v} with a period of {period} {unit} makes up to {clauses:.1e} clauses, more \
         than the {limit:.0e} this command builds: choose a smaller period or deck"
    )]
    TooLarge { c: usize, v: usize, period: u32, unit: &'static str, clauses: f64, limit: f64 },
    /// A bound on the smaller hand that is not below half the deck, or is 0.
    #[error(
        "a bound on the smaller hand must be 1 to {most} on a deck of {cards} cards (below \
         half the deck), not {given}"
    )]
    MaxHand { given: u32, cards: usize, most: usize },
    /// A bound on the smaller hand of a deck too small to have one below half the deck.
    #[error("a deck of {0} cards has no smaller hand to bound: --max-hand needs 3 cards or more")]
    MaxHandTiny(usize),
    /// A bound on the smaller hand asked of the trick formula, or of deals.
    #[error(
        "a bound on the smaller hand needs periods counted in cards (--cards), among positions \
         of every split (not --deals)"
    )]
    MaxHandWhere,
    /// A part of a period that is not a length the smallest hand can have.
    #[error("a part of a period is a smallest hand of 1 to {most} cards, not {given}")]
    FirstHand { given: u32, most: usize },
    /// A split period asked of the trick formula, or of deals.
    #[error(
        "splitting a period by the smallest hand needs periods counted in cards (--cards), among \
         positions of every split (not --deals)"
    )]
    SplitWhere,
}

/// The largest formula built, in clauses as [`Question::clause_bound`] and
/// [`crate::AlignedQuestion::clause_bound`] count them: upper bounds, so no formula built has
/// more. The formula and the solver take about 160 to 190 bytes a clause (measured: 3.65·10^7
/// clauses of `-c 1 -v 4 --period 100000`, 5.7 GB; 1.09·10^7 of `-c 1 -v 128 --period 1`,
/// 2.0 GB with its proof checked), so a formula at the limit takes up to about 10 GB.
pub const MAX_CLAUSES: f64 = 5e7;

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

    /// The largest the smallest hand of a loop can be, at every trick boundary: half the deck,
    /// or the bound of `max_hand`.
    fn smallest_hand_most(&self) -> usize {
        let half = self.deck.cards() / 2;
        self.max_hand.map_or(half, |m| half.min(m as usize))
    }

    /// The parts of a split period: the same question for each length the loop's smallest
    /// hand can have (1 to ⌊N/2⌋, or to `max_hand`), as `first_hand`. Every loop the whole
    /// question has lies in exactly one part (its canonical position's first hand is that
    /// smallest hand), so the parts' loops together are the whole question's, and the period
    /// is complete when every part is. Each part is a smaller formula with a proof of its own,
    /// and the parts can be solved side by side.
    pub fn parts(&self) -> Vec<Question> {
        (1..=self.smallest_hand_most())
            .map(|l| Question { first_hand: Some(l as u32), ..*self })
            .collect()
    }

    /// The most reveals of a trick: on any position of the deck, or fewer if the question
    /// restricts the ties (`max_ties`).
    pub fn max_reveals(&self) -> usize {
        let (c, v, n) = (self.deck.colours(), self.deck.values(), self.deck.cards());
        let any = (n / 2).min(1 + v * (c / 2)).max(1);
        self.max_ties.map_or(any, |t| any.min(t as usize + 1))
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

pub(crate) fn lit_value(l: Lit, value: &mut impl FnMut(Lit) -> bool) -> bool {
    if l > 0 { value(l) } else { !value(-l) }
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
