//! Aligned cycles decided by the solver (`bataille aligned solve`): two hands of n cards whose
//! round map comes back to them after exactly R rounds, on any multiset of 2n cards with each
//! value used at most K times.
//!
//! The round map is that of `bataille_engine::aligned::round_natural`: inside an aligned round
//! the i-th cards of the two hands meet, the tricks are the runs of ties each closed by a
//! differing pair, the winner of a trick takes `[w, l, t, t, ...]` (the tied pairs from the last
//! back to the first), the last reveal is not a tie, each player wins n cards, and the next
//! position is each player's piles in the order won.
//!
//! The formula, for states 0 … R − 1 (state R is state 0):
//! - Each card is a value in 1..2n, order encoded (`≥ v` literals). Values are only compared,
//!   so a position is taken with its values packed: every value from 1 to the largest is used
//!   (at most K times, by a sequential counter), which gives each order of cards one model.
//! - Round r, index i: the outcome (tie, first higher, second higher) from the two values; the
//!   trick's winner, carried back from the index that ends it; the distance to that end d, the
//!   ties before i in the trick t, and the pairs won by the first player before i, c (all one
//!   hot). The pair of index i is then the s-th pair of its winner's next hand, s = (pairs the
//!   winner won before i) − t + d, and it is written there as (max, min) of the two cards: a
//!   tied pair is two equal cards, so its order does not matter. Each player wins n/2 pairs.
//! - With `colours` C, the multiset is the deck: each value 1..2n/C exactly C times.
//! - With `prime`, for each k some round does not cut at k (a trick straddles k − 1 and k, or
//!   the first k pairs do not give each player k cards): cutting at k in every round is
//!   exactly what makes the first k pairs and the rest two blocks, each on its own cycle.
//! - Symmetry: state 0 is not larger than any state or its player swap, in the order `A[0],
//!   B[0], A[1], B[1], ...` (the canonical position of the blocks catalogue), so each cycle of
//!   rounds is one model. Exact period: state R/q differs from state 0 for each prime q of R.
//! - An odd n has no aligned round (each trick gives its winner an even number of cards, and a
//!   player must win n): the formula is then the empty clause, refuted by a one-step proof.
//!
//! Each model is replayed by the engine ([`BlockCycle::of`]): it must be the canonical position
//! of an aligned cycle of exactly R rounds, or the run fails. Models are blocked one by one with
//! an incremental solver; the final formula is solved once more for its proof.

use std::time::Instant;

use bataille_cycles::blocks::{self, BlockCycle};
use bataille_engine::{Card, Position};

use crate::cnf::{Cnf, FALSE, Lit, TRUE};
use crate::question::MAX_CLAUSES;
use crate::solve::{Fresh, Settings, SolveError, Solved, drive};

/// The largest deck: 64 cards, hands of 32.
pub const MAX_CARDS: usize = 64;
/// The most rounds.
pub const MAX_ROUNDS: u32 = 64;

/// Does a position of two hands of `cards / 2` cards come back after exactly `rounds` aligned
/// rounds, each value used at most `max_multiplicity` times?
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlignedQuestion {
    /// 2n, the cards of both hands.
    pub cards: usize,
    /// R, the period in rounds.
    pub rounds: u32,
    /// K, the most times a value is used.
    pub max_multiplicity: usize,
    /// Only the deck of C colours: each value 1..2n/C used exactly C times (then
    /// `max_multiplicity` is not used).
    pub colours: Option<usize>,
    /// Only prime cycles: positions that do not cut into two smaller blocks, each on an
    /// aligned cycle of its own (the catalogue's empty `splits`).
    pub prime: bool,
}

/// Why an aligned question is refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AlignedError {
    /// Not an even number of cards, or none.
    #[error(
        "--cards {0}: an aligned position is two hands of n cards, an even number of 2 or more"
    )]
    Cards(usize),
    /// More than [`MAX_CARDS`].
    #[error("--cards {0}: at most {MAX_CARDS} cards")]
    TooManyCards(usize),
    /// Zero rounds or more than [`MAX_ROUNDS`].
    #[error("--rounds {0}: expected 1 to {MAX_ROUNDS}")]
    Rounds(u32),
    /// K = 0.
    #[error("--max-mult 0: each value is used at least once")]
    Multiplicity,
    /// C = 0, or C does not divide the cards.
    #[error("--colours {colours}: {cards} cards are not C copies of each value")]
    Colours {
        /// 2n.
        cards: usize,
        /// C.
        colours: usize,
    },
    /// The formula would be too large.
    #[error(
        "{cards} cards and {rounds} rounds: up to {clauses:.1e} clauses, more than {limit:.0e}"
    )]
    TooLarge {
        /// 2n.
        cards: usize,
        /// R.
        rounds: u32,
        /// The bound on the clauses ([`AlignedQuestion::clause_bound`]).
        clauses: f64,
        /// [`MAX_CLAUSES`].
        limit: f64,
    },
}

impl From<AlignedError> for SolveError {
    fn from(e: AlignedError) -> SolveError {
        SolveError::Refused(Box::new(e))
    }
}

impl AlignedQuestion {
    /// Refuses sizes the encoding does not take.
    pub fn check(&self) -> Result<(), AlignedError> {
        if self.cards < 2 || self.cards % 2 == 1 {
            return Err(AlignedError::Cards(self.cards));
        }
        if self.cards > MAX_CARDS {
            return Err(AlignedError::TooManyCards(self.cards));
        }
        if !(1..=MAX_ROUNDS).contains(&self.rounds) {
            return Err(AlignedError::Rounds(self.rounds));
        }
        if self.max_multiplicity == 0 {
            return Err(AlignedError::Multiplicity);
        }
        if let Some(c) = self.colours
            && (c == 0 || !self.cards.is_multiple_of(c))
        {
            return Err(AlignedError::Colours { cards: self.cards, colours: c });
        }
        let clauses = self.clause_bound();
        if clauses > MAX_CLAUSES {
            return Err(AlignedError::TooLarge {
                cards: self.cards,
                rounds: self.rounds,
                clauses,
                limit: MAX_CLAUSES,
            });
        }
        Ok(())
    }

    /// An upper bound on the clauses of the formula, counted from the encoder's loops as
    /// [`crate::Question::clause_bound`] counts the trick formula's: per round, the outcomes,
    /// the tricks' shapes, the pairs won so far, where each pair goes (one clause for each case)
    /// and its transfer (12 clauses a value for each slot); the order and period constraints.
    pub fn clause_bound(&self) -> f64 {
        let n = self.cards / 2;
        let h = n / 2;
        let (nf, m) = (n as f64, self.cards as f64);
        let rounds = f64::from(self.rounds);
        let states = rounds * 2.0 * nf * (m - 2.0);
        if n % 2 == 1 {
            return 2.0 + states + 2.0;
        }
        // At most k of 2n literals, by a sequential counter.
        let at_most = |k: usize| -> f64 {
            match k {
                _ if 2 * n <= k => 0.0,
                0 => 4.0 * nf,
                _ => 2.0 * nf * (1.0 + 2.0 * k as f64),
            }
        };
        let multiset = match self.colours {
            Some(c) => {
                let values = (self.cards / c) as f64;
                values * (6.0 * nf + at_most(c) + at_most(self.cards - c)) + 4.0 * nf
            }
            None => {
                m * (6.0 * nf + at_most(self.max_multiplicity) + 2.0 * nf + 1.0 + 2.0 * nf) + 2.0
            }
        };
        // Each hand a run of piles: every pair non-increasing, the first strictly.
        let piles = rounds * 2.0 * ((nf / 2.0) * (m - 1.0) + (m - 1.0) + 3.0);
        let outcomes = nf * (4.0 * m - 1.0) + 2.0;
        let shapes = 2.0 * nf + 2.0 * (nf - 1.0) + 3.0 * nf * (nf - 1.0);
        let counts = 11.0 * (nf * (nf - 1.0) / 2.0 + 2.0 * nf) + 2.0;
        // For index i: each (pairs won before, ties before, distance to the end) and player.
        let cases: usize = (0..n)
            .map(|i| {
                let owned = (0..=i).filter(|&a| a <= h && i - a <= h).count();
                owned * (i + 1) * (n - i) * 2
            })
            .sum();
        let transfer = nf * 6.0 * nf * (m - 1.0);
        let cuts = 3.0 * (n.saturating_sub(1) / 2) as f64;
        let round = outcomes + shapes + counts + cases as f64 + transfer + cuts;
        let prime = if self.prime { 2.0 * (nf - 1.0) } else { 0.0 };
        let lex = (2.0 * rounds - 1.0) * 2.0 * nf * (4.0 * m - 3.0);
        let differ = primes(self.rounds).len() as f64 * (4.0 * nf * (m - 1.0) + 2.0);
        2.0 + states + multiset + piles + rounds * round + prime + lex + differ
    }
}

/// A card's value, order encoded: `v[k]` is "≥ k" for k in 0..=m+1 (true for 0 and 1, false
/// for m + 1).
type Val = Vec<Lit>;

/// A state: the two hands' values.
type State = [Vec<Val>; 2];

/// The formula of an aligned question, with what is needed to read and block its models.
#[derive(Debug, Clone)]
pub struct AlignedEncoding {
    /// The formula.
    pub cnf: Cnf,
    /// State 0.
    root: State,
    /// The largest value, 2n.
    values: usize,
}

impl AlignedEncoding {
    /// Encodes a question (checked first with [`AlignedQuestion::check`]).
    pub fn new(q: &AlignedQuestion) -> Result<AlignedEncoding, AlignedError> {
        q.check()?;
        let n = q.cards / 2;
        let mut e = Encoder { cnf: Cnf::new(), n, m: q.cards };
        let rounds = q.rounds as usize;
        let states: Vec<State> = (0..rounds).map(|_| e.state()).collect();
        if n % 2 == 1 {
            e.cnf.add(&[]);
        } else {
            match q.colours {
                Some(c) => e.deck(&states[0], c),
                None => e.multiset(&states[0], q.max_multiplicity),
            }
            for s in &states {
                e.piles(s);
            }
            // For each round and each k, the literal "the round does not cut at k".
            let mut uncut: Vec<Vec<Lit>> = vec![Vec::new(); n];
            for r in 0..rounds {
                let cuts = e.round(&states[r], &states[(r + 1) % rounds]);
                for (k, l) in cuts.into_iter().enumerate() {
                    uncut[k].push(-l);
                }
            }
            if q.prime {
                // Cut at k in every round: the two parts are blocks, each on a cycle of its own.
                for clause in &uncut[1..] {
                    e.cnf.add(clause);
                }
            }
            let root = interleaved(&states[0], false);
            e.lex_le(&root, &interleaved(&states[0], true));
            for s in &states[1..] {
                e.lex_le(&root, &interleaved(s, false));
                e.lex_le(&root, &interleaved(s, true));
            }
            for p in primes(q.rounds) {
                let other = interleaved(&states[rounds / p as usize], false);
                e.differ(&root, &other);
            }
        }
        Ok(AlignedEncoding { cnf: e.cnf, root: states[0].clone(), values: q.cards })
    }

    /// The position of state 0 in a model.
    pub fn position(&self, mut value: impl FnMut(Lit) -> bool) -> Position {
        let mut hand = |vals: &[Val]| -> Vec<Card> {
            vals.iter()
                .map(|x| {
                    let v = 1 + x[2..=self.values].iter().take_while(|&&l| value(l)).count();
                    Card::try_from(v).expect("values fit a card")
                })
                .collect()
        };
        Position::new(hand(&self.root[0]), hand(&self.root[1])).expect("two hands")
    }

    /// The clause that forbids `position` as state 0.
    pub fn block(&self, position: &Position) -> Vec<Lit> {
        let mut clause = Vec::new();
        for (vals, hand) in self.root.iter().zip([position.first(), position.second()]) {
            for (x, &c) in vals.iter().zip(hand) {
                let v = usize::from(c);
                clause.push(-x[v]);
                clause.push(x[v + 1]);
            }
        }
        clause
    }
}

/// The state's values in the order `A[0], B[0], A[1], B[1], ...`, or of its player swap.
fn interleaved(s: &State, swapped: bool) -> Vec<Val> {
    let (a, b) = if swapped { (&s[1], &s[0]) } else { (&s[0], &s[1]) };
    a.iter().zip(b).flat_map(|(x, y)| [x.clone(), y.clone()]).collect()
}

/// The distinct primes of r.
fn primes(mut r: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut p = 2;
    while r > 1 {
        if r.is_multiple_of(p) {
            out.push(p);
            while r.is_multiple_of(p) {
                r /= p;
            }
        }
        p += 1;
    }
    out
}

struct Encoder {
    cnf: Cnf,
    n: usize,
    m: usize,
}

impl Encoder {
    fn val(&mut self) -> Val {
        let mut x = vec![TRUE, TRUE];
        for _ in 2..=self.m {
            x.push(self.cnf.var());
        }
        x.push(FALSE);
        for v in 2..self.m {
            self.cnf.add(&[-x[v + 1], x[v]]);
        }
        x
    }

    fn state(&mut self) -> State {
        let n = self.n;
        [(0..n).map(|_| self.val()).collect(), (0..n).map(|_| self.val()).collect()]
    }

    /// Values packed (every value from 1 to the largest used) and each used at most k times.
    fn multiset(&mut self, s: &State, k: usize) {
        let cards: Vec<&Val> = s[0].iter().chain(&s[1]).collect();
        for v in 1..=self.m {
            let eq: Vec<Lit> = cards.iter().map(|x| self.cnf.and(&[x[v], -x[v + 1]])).collect();
            self.at_most(&eq, k);
            let used = self.cnf.or(&eq);
            if v == 1 {
                self.cnf.add(&[used]);
            }
            for x in &cards {
                self.cnf.add(&[-x[v + 1], used]);
            }
        }
    }

    /// The deck of `c` colours: each value 1..=2n/c exactly `c` times.
    fn deck(&mut self, s: &State, c: usize) {
        let cards: Vec<&Val> = s[0].iter().chain(&s[1]).collect();
        let values = cards.len() / c;
        for v in 1..=values {
            let eq: Vec<Lit> = cards.iter().map(|x| self.cnf.and(&[x[v], -x[v + 1]])).collect();
            self.at_most(&eq, c);
            let not: Vec<Lit> = eq.iter().map(|&l| -l).collect();
            self.at_most(&not, cards.len() - c);
        }
        for x in &cards {
            self.cnf.add(&[-x[values + 1]]);
        }
    }

    /// Implied by the rounds, stated for propagation: every state is the image of one, so each
    /// hand is a run of piles `[w, l, t, t, ...]`: each pair of cards is non-increasing, and
    /// the first is strict.
    fn piles(&mut self, s: &State) {
        for hand in s {
            for (k, pair) in hand.chunks_exact(2).enumerate() {
                let (hi, lo) = (&pair[0], &pair[1]);
                for v in 2..=self.m {
                    self.cnf.add(&[-lo[v], hi[v]]);
                    if k == 0 {
                        self.cnf.add(&[-lo[v - 1], hi[v]]);
                    }
                }
                if k == 0 {
                    self.cnf.add(&[-lo[self.m]]);
                }
            }
        }
    }

    /// At most k of `xs` (sequential counter).
    fn at_most(&mut self, xs: &[Lit], k: usize) {
        if xs.len() <= k {
            return;
        }
        if k == 0 {
            for &x in xs {
                self.cnf.add(&[-x]);
            }
            return;
        }
        // s[j]: at least j + 1 of the inputs so far.
        let mut s: Vec<Lit> = vec![FALSE; k];
        for &x in xs {
            self.cnf.add(&[-x, -s[k - 1]]);
            let next: Vec<Lit> = (0..k).map(|_| self.cnf.var()).collect();
            for j in 0..k {
                self.cnf.add(&[-s[j], next[j]]);
                let below = if j == 0 { TRUE } else { s[j - 1] };
                self.cnf.add(&[-x, -below, next[j]]);
            }
            s = next;
        }
    }

    /// One aligned round from `cur` to `next`. Returns, for each k in 0..n, a literal true
    /// when the round cuts at k: no trick straddles indices k − 1 and k, and each player wins
    /// k cards among the first k pairs (false for k = 0).
    fn round(&mut self, cur: &State, next: &State) -> Vec<Lit> {
        let (n, h, m) = (self.n, self.n / 2, self.m);
        let c = &mut self.cnf;
        // Outcomes: a tie, the first player higher, or else the second.
        let (mut tie, mut first) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for (a, b) in cur[0].iter().zip(&cur[1]) {
            let (t, w) = (c.var(), c.var());
            c.add(&[-t, -w]);
            for v in 2..=m {
                c.add(&[-t, -a[v], b[v]]);
                c.add(&[-t, a[v], -b[v]]);
            }
            for v in 1..=m {
                c.add(&[-w, -b[v], a[v + 1]]);
                c.add(&[t, w, -a[v], b[v + 1]]);
            }
            tie.push(t);
            first.push(w);
        }
        c.add(&[-tie[n - 1]]);
        // The winner of index i's trick, and the distance d to its end (one hot).
        let mut win = vec![FALSE; n];
        let mut dist: Vec<Vec<Lit>> = vec![Vec::new(); n];
        for i in (0..n).rev() {
            let x = c.var();
            c.add(&[tie[i], -x, first[i]]);
            c.add(&[tie[i], x, -first[i]]);
            let mut d = vec![-tie[i]];
            if i + 1 < n {
                c.add(&[-tie[i], -x, win[i + 1]]);
                c.add(&[-tie[i], x, -win[i + 1]]);
                for &e in &dist[i + 1] {
                    d.push(c.and(&[tie[i], e]));
                }
            }
            win[i] = x;
            dist[i] = d;
        }
        // The ties before i in its trick (one hot).
        let mut before: Vec<Vec<Lit>> = vec![vec![TRUE]];
        for i in 1..n {
            let mut t = vec![-tie[i - 1]];
            for &e in &before[i - 1] {
                t.push(c.and(&[tie[i - 1], e]));
            }
            before.push(t);
        }
        // The pairs won by the first player among indices before i (one hot), at most h for
        // each player, h for each at the end.
        let mut count: Vec<Vec<Lit>> = vec![vec![TRUE]];
        for i in 0..n {
            let prev = &count[i];
            let mut cur_count = Vec::with_capacity(i + 2);
            for k in 0..=i + 1 {
                let mut ways = Vec::new();
                if k < prev.len() {
                    ways.push(c.and(&[prev[k], -win[i]]));
                }
                if k >= 1 {
                    ways.push(c.and(&[prev[k - 1], win[i]]));
                }
                let x = c.or(&ways);
                if k > h || i + 1 - k > h {
                    c.add(&[-x]);
                }
                cur_count.push(x);
            }
            count.push(cur_count);
        }
        c.add(&[count[n][h]]);
        // The slot of index i's pair in its winner's next hand, and the transfer.
        for i in 0..n {
            let slot: Vec<Lit> = (0..h).map(|_| c.var()).collect();
            for (a, &ca) in count[i].iter().enumerate() {
                if a > h || i - a > h {
                    continue;
                }
                for (t, &ct) in before[i].iter().enumerate() {
                    for (d, &cd) in dist[i].iter().enumerate() {
                        for (w, owned) in [(win[i], a), (-win[i], i - a)] {
                            let s = owned as isize - t as isize + d as isize;
                            let then =
                                if (0..h as isize).contains(&s) { slot[s as usize] } else { FALSE };
                            c.implies(&[w, ca, ct, cd], &[then]);
                        }
                    }
                }
            }
            let (a, b) = (&cur[0][i], &cur[1][i]);
            for (k, &sk) in slot.iter().enumerate() {
                for (p, w) in [(0, win[i]), (1, -win[i])] {
                    let (hi, lo) = (&next[p][2 * k], &next[p][2 * k + 1]);
                    for v in 2..=m {
                        c.add(&[-w, -sk, -hi[v], a[v], b[v]]);
                        c.add(&[-w, -sk, hi[v], -a[v]]);
                        c.add(&[-w, -sk, hi[v], -b[v]]);
                        c.add(&[-w, -sk, lo[v], -a[v], -b[v]]);
                        c.add(&[-w, -sk, -lo[v], a[v]]);
                        c.add(&[-w, -sk, -lo[v], b[v]]);
                    }
                }
            }
        }
        let mut cuts = vec![FALSE];
        for k in 1..n {
            cuts.push(if k % 2 == 0 { c.and(&[-tie[k - 1], count[k][k / 2]]) } else { FALSE });
        }
        cuts
    }

    /// `x ≤ y` in lexicographic order.
    fn lex_le(&mut self, x: &[Val], y: &[Val]) {
        let m = self.m;
        let mut equal = TRUE;
        for k in 0..x.len() {
            for v in 2..=m {
                self.cnf.add(&[-equal, -x[k][v], y[k][v]]);
            }
            if k + 1 < x.len() {
                let next = self.cnf.var();
                let mut clause = vec![-equal, next];
                for v in 2..=m {
                    clause.push(self.cnf.and(&[y[k][v], -x[k][v]]));
                }
                self.cnf.add(&clause);
                equal = next;
            }
        }
    }

    /// `x ≠ y`.
    fn differ(&mut self, x: &[Val], y: &[Val]) {
        let mut clause = Vec::new();
        for (a, b) in x.iter().zip(y) {
            for v in 2..=self.m {
                let d = self.cnf.var();
                self.cnf.add(&[-d, a[v], b[v]]);
                self.cnf.add(&[-d, -a[v], -b[v]]);
                clause.push(d);
            }
        }
        self.cnf.add(&clause);
    }
}

/// One aligned question's answer: [`Verdict::Complete`] (every cycle of rounds of exactly R
/// rounds found, each at its canonical position, and the rest refuted by a checked proof) or
/// [`Verdict::Undecided`] (or [`Verdict::Stopped`]).
pub type AlignedInstance = Solved<AlignedQuestion, BlockCycle>;

/// The file stem of an aligned question's CNF and proof.
pub fn aligned_stem(q: &AlignedQuestion) -> String {
    format!(
        "cards-{}-rounds-{}{}{}",
        q.cards,
        q.rounds,
        q.colours.map_or(String::new(), |c| format!("-colours-{c}")),
        if q.prime { "-prime" } else { "" }
    )
}

/// Every cycle of rounds of the question, each replayed by the engine, and the proof that
/// there is no other.
pub fn solve_aligned(
    q: &AlignedQuestion,
    settings: &Settings,
) -> Result<AlignedInstance, SolveError> {
    let built = Instant::now();
    let mut enc = AlignedEncoding::new(q)?;
    let build_seconds = built.elapsed().as_secs_f64();
    let mut cnf = std::mem::take(&mut enc.cnf);
    let mut found = Vec::new();
    let run = drive(&mut cnf, &aligned_stem(q), settings, Fresh::AtTheEnd, |value, cnf| {
        let p = enc.position(value);
        let cycle = BlockCycle::of(&p).filter(|c| {
            c.period_rounds == q.rounds as usize
                && match q.colours {
                    Some(colours) => c.pattern.iter().all(|&k| usize::from(k) == colours),
                    None => c.pattern.iter().all(|&k| usize::from(k) <= q.max_multiplicity),
                }
                && (!q.prime || blocks::splits(&c.first, &c.second).is_empty())
        });
        let Some(cycle) = cycle else {
            return Err(SolveError::Replay(
                p.to_string(),
                format!(
                    "start, as its canonical position, {} aligned cycle of exactly {} rounds \
                     with each value {} times",
                    if q.prime { "a prime" } else { "an" },
                    q.rounds,
                    q.colours.map_or(format!("at most {}", q.max_multiplicity), |c| format!(
                        "exactly {c}"
                    ))
                ),
            ));
        };
        cnf.add(&enc.block(&p));
        found.push(cycle);
        Ok(false)
    })?;
    Ok(AlignedInstance { build_seconds, ..AlignedInstance::new(*q, &cnf, run, found) })
}

/// The variables and clauses of the final formula of a period solved by [`solve_aligned`],
/// rebuilt without a solver: `q`'s formula with each of `found` (the canonical positions of
/// the cycles of rounds it found, in any order) blocked. See [`crate::solve::formula_size`].
pub fn aligned_formula_size(
    q: &AlignedQuestion,
    found: &[Position],
) -> Result<(u32, usize), AlignedError> {
    let mut enc = AlignedEncoding::new(q)?;
    for p in found {
        let clause = enc.block(p);
        enc.cnf.add(&clause);
    }
    Ok((enc.cnf.vars(), enc.cnf.len()))
}
