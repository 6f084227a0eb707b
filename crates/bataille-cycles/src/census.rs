//! The census: every loop of a deck, among all its positions (every split, not only deals).
//!
//! A deck of N cards has (N + 1) · N! / (C!)^V positions: C=4 V=5 has 6.4·10^12. Playing each
//! is out of the question; the census plays a few of them, chosen so that every loop is found
//! exactly once, by its *canonical position*: the smallest of its positions in the order of
//! cycle ids ([`bataille_engine::Position::canonical_cmp`]: the first hand's length, then the
//! cards), the player-swapped positions included (natural and optimized stacking treat both
//! players alike, so a loop and its mirror image are one cycle, as `explore` counts them).
//!
//! # What the canonical position `p = A / B` of a loop looks like
//!
//! 1. **Both hands are runs of piles** ([`crate::piles`]): true of every position on a loop.
//! 2. **`a = |A|` is at most ⌊N/2⌋**: it is the smallest hand of the whole loop, both players
//!    counted, since a position with a smaller hand, or its mirror, would come first.
//! 3. **The first player wins the next trick**: a trick of r reveals changes each hand by ±r,
//!    and if the first player lost it the next position of the loop would have a first hand of
//!    a − r < a cards. So `B[0] ≤ A[0]` (a tie opens a battle the first player must win).
//!
//! # The walk
//!
//! Every position with these three properties (a *candidate*) is played forward, trick by
//! trick, until
//!
//! - the game ends: no loop;
//! - a hand holds fewer than `a` cards, or a position with a hand of `a` cards is smaller than
//!   `p` (read with that hand first): if `p` were on a loop, that position would be on it too
//!   and come before `p`, so `p` is not the canonical position of a loop;
//! - `p` comes back: `p` is canonical, and the loop is found, its period counted;
//! - the mirror of `p` comes back after t tricks: the loop is its own mirror image, and its
//!   period is 2t (the second half of the loop is the mirror of the first);
//! - Brent's cycle detection (after 64 tricks per card) sees the game loop elsewhere: the loop
//!   does not pass through `p`.
//!
//! Each loop has one canonical position, which passes 1 to 3 and whose walk comes back to it
//! without meeting a smaller position; every other candidate is discarded. So the census finds
//! every loop of the deck exactly once. The tests compare it with a brute force over every
//! position of the decks of up to 12 cards.
//!
//! # Units
//!
//! The candidates are enumerated depth first, card by card through `A` then `B`, every prefix
//! checked against 1 to 3 as soon as it is placed. The work is split into units: a unit is a
//! split `a` and the first [`Units::prefix`] cards of `A B` (a number in base V), so that the
//! units are many and small. [`run`] searches the units of a [`Shard`] in order, in parallel
//! batches, and hands the [`CensusState`] (units done, loops found, counters) to a callback
//! after each batch, to save as a checkpoint; the state depends only on the units done.
//! [`report`] renders what a census found: `cycles.csv` and its summary.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};

use bataille_engine::{
    Card, DeckSpec, Game, Method, Methods, NoRandom, Player, Position, TrickResult, loop_positions,
};
use bataille_search::Shard;
use bataille_search::pool::Pool;

use bataille_search::sealed;

use crate::piles::{Reader, State};

/// The largest deck the census takes (positions are held in fixed arrays).
pub const MAX_CARDS: usize = 64;

/// Units are at most this many per split: the prefix is the longest whose V^prefix fits.
const UNITS_PER_SPLIT: u64 = 1 << 16;

/// What to census: a deck and a stacking method (both players).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CensusSpec {
    deck: DeckSpec,
    method: Method,
}

/// Why a census cannot run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CensusError {
    /// The method is not natural or optimized.
    #[error(
        "the census takes natural or optimized stacking (both players), not {0}: its pruning \
         reads the piles of those two methods"
    )]
    Method(String),
    /// The deck is too large.
    #[error(
        "a census of {0} cards is out of reach (at most {MAX_CARDS} cards; C=4 V=5, 20 cards, \
         takes CPU-hours, and each card more multiplies the work)"
    )]
    TooLarge(usize),
}

impl CensusSpec {
    /// The census of `deck` under `method` for both players.
    pub fn new(deck: DeckSpec, method: Method) -> Result<CensusSpec, CensusError> {
        if !matches!(method, Method::Natural | Method::Optimized) {
            return Err(CensusError::Method(method.to_string()));
        }
        if deck.cards() > MAX_CARDS {
            return Err(CensusError::TooLarge(deck.cards()));
        }
        Ok(CensusSpec { deck, method })
    }

    /// The deck.
    pub fn deck(self) -> DeckSpec {
        self.deck
    }

    /// The stacking method of both players.
    pub fn method(self) -> Method {
        self.method
    }

    /// Both players' methods.
    pub fn methods(self) -> Methods {
        Methods::both(self.method)
    }

    /// How the census is split into units.
    pub fn units(self) -> Units {
        let (n, v) = (self.deck.cards(), self.deck.values() as u64);
        let mut prefix = 1.min(n);
        while prefix < n && v.saturating_pow(prefix as u32 + 1) <= UNITS_PER_SPLIT {
            prefix += 1;
        }
        let per_split = v.saturating_pow(prefix as u32);
        Units { splits: n / 2, prefix, per_split }
    }
}

impl std::fmt::Display for CensusSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.deck, self.method)
    }
}

/// The units of a census: for each split `a` (1 to ⌊N/2⌋ cards in the first hand), every
/// sequence of `prefix` values that may open `A B`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Units {
    /// ⌊N/2⌋.
    pub splits: usize,
    /// Cards fixed by a unit.
    pub prefix: usize,
    /// Units per split: V^prefix.
    pub per_split: u64,
}

impl Units {
    /// The number of units.
    pub fn count(self) -> u64 {
        self.splits as u64 * self.per_split
    }
}

/// A loop found by the census, by its canonical position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The first hand of the canonical position.
    pub first: Vec<Card>,
    /// The second hand.
    pub second: Vec<Card>,
    /// Tricks in one turn of the loop.
    pub period_tricks: u64,
    /// Reveals (cards each player turns) in one turn.
    pub period_cards: u64,
    /// The largest first hand along the loop, in the canonical position's orientation (the
    /// smallest is the canonical position's own).
    pub first_max: usize,
    /// Whether the loop is its own mirror image (the players swapped, the same positions).
    pub self_twin: bool,
}

impl Found {
    /// The canonical position.
    pub fn position(&self) -> Position {
        Position::new(self.first.clone(), self.second.clone()).expect("a census position")
    }

    /// The census's record of the loop that `position` lies on under `methods` (the census of
    /// its deck lists it as this, from its canonical position, or from its mirror's with
    /// symmetric stacking), or `None` if the game from `position` does not reach a loop.
    ///
    /// # Panics
    ///
    /// If a method is random.
    pub fn of_loop(position: &Position, methods: Methods) -> Option<Found> {
        let positions = loop_positions(position, methods)?;
        let mut w = Walker::new();
        let mirrors = positions.iter().map(Position::swapped);
        positions
            .iter()
            .cloned()
            .chain(mirrors)
            .find_map(|p| w.walk(p.first(), p.second(), methods).1)
    }
}

/// What one unit found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UnitResult {
    /// Candidates walked.
    pub candidates: u64,
    /// Tricks played by the walks.
    pub tricks: u64,
    /// The loops whose canonical position is in the unit.
    pub found: Vec<Found>,
}

/// Searches unit `u` of `spec`'s census. `stop` is polled every few thousand candidates;
/// `None` when it was set before the unit was done.
pub fn search_unit(spec: CensusSpec, u: u64, stop: &AtomicBool) -> Option<UnitResult> {
    let units = spec.units();
    assert!(u < units.count(), "unit {u} of {}", units.count());
    let a = (u / units.per_split) as usize + 1;
    let mut code = u % units.per_split;
    let mut s = Search::new(spec, a, stop);
    // The unit's prefix, most significant value first, checked like any placed card.
    let mut prefix = [0 as Card; MAX_CARDS];
    for i in (0..units.prefix).rev() {
        prefix[i] = (code % s.values) as Card + 1;
        code /= s.values;
    }
    for (i, &c) in prefix[..units.prefix].iter().enumerate() {
        if !s.place(i, c) {
            return Some(s.result);
        }
    }
    s.dfs(units.prefix);
    (!s.stopped).then_some(s.result)
}

/// The depth-first enumeration of one split's candidates.
struct Search<'a> {
    reader: Reader,
    methods: Methods,
    n: usize,
    a: usize,
    values: u64,
    cards: [Card; MAX_CARDS],
    states: [State; MAX_CARDS],
    left: [u8; 256],
    walker: Walker,
    result: UnitResult,
    stop: &'a AtomicBool,
    stopped: bool,
}

impl Search<'_> {
    fn new(spec: CensusSpec, a: usize, stop: &AtomicBool) -> Search<'_> {
        let deck = spec.deck;
        let mut left = [0u8; 256];
        left[1..=deck.values()].fill(deck.colours() as u8);
        Search {
            reader: Reader::new(spec.method, deck.values() as Card).expect("a census method"),
            methods: spec.methods(),
            n: deck.cards(),
            a,
            values: deck.values() as u64,
            cards: [0; MAX_CARDS],
            states: [0; MAX_CARDS],
            left,
            walker: Walker::new(),
            result: UnitResult::default(),
            stop,
            stopped: false,
        }
    }

    /// Places `c` at index `i` if a candidate may have it there (the cards before it placed).
    #[inline(always)]
    fn place(&mut self, i: usize, c: Card) -> bool {
        if self.left[usize::from(c)] == 0 {
            return false;
        }
        let (a, n) = (self.a, self.n);
        // The hand and the index in it.
        let (len, j) = if i < a { (a, i) } else { (n - a, i - a) };
        if i == a && c > self.cards[0] {
            // The first player must win the first trick.
            return false;
        }
        let (prev, state) = if j == 0 { (0, 0) } else { (self.cards[i - 1], self.states[i - 1]) };
        match self.reader.next(len, j, prev, state, c) {
            Some(s) => {
                self.states[i] = s;
                self.cards[i] = c;
                self.left[usize::from(c)] -= 1;
                true
            }
            None => false,
        }
    }

    fn dfs(&mut self, i: usize) {
        if i == self.n {
            self.candidate();
            return;
        }
        for v in 1..=self.values as Card {
            if self.stopped {
                return;
            }
            if self.place(i, v) {
                self.dfs(i + 1);
                self.left[usize::from(v)] += 1;
            }
        }
    }

    fn candidate(&mut self) {
        self.result.candidates += 1;
        if self.result.candidates.is_multiple_of(STOP_POLL) && self.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        let (first, second) = self.cards[..self.n].split_at(self.a);
        let (tricks, found) = self.walker.walk(first, second, self.methods);
        self.result.tricks += tricks;
        if let Some(f) = found {
            self.result.found.push(f);
        }
    }
}

/// Candidates walked between two looks at the stop request.
const STOP_POLL: u64 = 1 << 12;

/// Tricks per card played before Brent's cycle detection starts in a walk.
const FREE_PER_CARD: u64 = 64;

/// The walk of a candidate (see the module documentation), in reusable games.
struct Walker {
    start: Game,
    game: Game,
    saved: Game,
}

impl Walker {
    fn new() -> Walker {
        Walker { start: Game::default(), game: Game::default(), saved: Game::default() }
    }

    /// Walks from `first / second`; returns the tricks played and the loop, if the position is
    /// the canonical position of one.
    fn walk(&mut self, first: &[Card], second: &[Card], methods: Methods) -> (u64, Option<Found>) {
        let a = first.len();
        self.start.set(first, second);
        self.game.set(first, second);
        let free = FREE_PER_CARD * (first.len() + second.len()) as u64;
        let (mut tricks, mut cards, mut first_max) = (0u64, 0u64, a);
        let (mut power, mut lam) = (1u64, 0u64);
        loop {
            if self.game.ending().is_some() {
                return (tricks, None);
            }
            let t = self.game.trick(methods, &mut NoRandom);
            tricks += 1;
            cards += u64::from(t.reveals);
            if let TrickResult::Ended(_) = t.result {
                return (tricks, None);
            }
            let (la, lb) = (self.game.len(Player::First), self.game.len(Player::Second));
            if la < a || lb < a {
                return (tricks, None);
            }
            first_max = first_max.max(la);
            if la == a {
                match self.game.cmp_oriented(false, &self.start, false) {
                    std::cmp::Ordering::Less => return (tricks, None),
                    std::cmp::Ordering::Equal => {
                        let found = self.found(tricks, cards, first_max, false);
                        return (tricks, Some(found));
                    }
                    std::cmp::Ordering::Greater => {}
                }
            }
            if lb == a {
                match self.game.cmp_oriented(true, &self.start, false) {
                    std::cmp::Ordering::Less => return (tricks, None),
                    std::cmp::Ordering::Equal => {
                        // The mirror of the start: half the loop. The other half is the mirror
                        // of this one, so its first hands are this half's second hands.
                        let first_max = first_max.max(first.len() + second.len() - a);
                        let found = self.found(2 * tricks, 2 * cards, first_max, true);
                        return (tricks, Some(found));
                    }
                    std::cmp::Ordering::Greater => {}
                }
            }
            if tricks > free {
                // Brent: the saved position, replaced after 1, 2, 4, ... tricks.
                lam += 1;
                if self.game.same_position(&self.saved) {
                    return (tricks, None);
                }
                if lam == power {
                    self.saved.clone_from(&self.game);
                    (power, lam) = (power * 2, 0);
                }
            } else if tricks == free {
                self.saved.clone_from(&self.game);
            }
        }
    }

    fn found(&self, period_tricks: u64, period_cards: u64, first_max: usize, twin: bool) -> Found {
        Found {
            first: self.start.hand(Player::First).collect(),
            second: self.start.hand(Player::Second).collect(),
            period_tricks,
            period_cards,
            first_max,
            self_twin: twin,
        }
    }
}

/// The state of a census run: the units of its shard done (in order), the loops they hold and
/// counters. Saved as checkpoints ([`CensusState::to_text`]) and merged across shards
/// ([`CensusState::merge`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CensusState {
    /// What is searched.
    pub spec: CensusSpec,
    /// The part of the units searched.
    pub shard: Shard,
    /// The census's units (all shards).
    pub units: u64,
    /// The shard's units done, in order.
    pub done: u64,
    /// Candidates walked.
    pub candidates: u64,
    /// Tricks played by the walks.
    pub tricks: u64,
    /// The loops found, in unit order.
    pub found: Vec<Found>,
}

/// Why a saved census state was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StateError {
    /// Not a census state, or damaged.
    #[error(transparent)]
    Sealed(#[from] sealed::SealError),
    /// A state of another census or shard.
    #[error("it is the state of another run: {0}")]
    OtherRun(String),
    /// A line could not be read.
    #[error("line {line}: {why}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// Shards that do not make one whole run.
    #[error("cannot merge: {0}")]
    Merge(String),
}

/// The first line of a census state.
const MAGIC: &str = "bataille cycles census state v1";

impl CensusState {
    /// A run of `spec`'s `shard` with nothing done.
    pub fn new(spec: CensusSpec, shard: Shard) -> CensusState {
        CensusState {
            spec,
            shard,
            units: spec.units().count(),
            done: 0,
            candidates: 0,
            tricks: 0,
            found: Vec::new(),
        }
    }

    /// The shard's units.
    pub fn shard_units(&self) -> u64 {
        self.shard.units(self.units)
    }

    /// Whether every unit of the shard is done.
    pub fn is_complete(&self) -> bool {
        self.done == self.shard_units()
    }

    /// The shard's units not done yet, in order (at most `limit`).
    fn pending(&self, limit: usize) -> Vec<u64> {
        let (k, n) = (self.shard.index(), self.shard.count());
        (self.done..self.shard_units()).take(limit).map(|j| k + j * n).collect()
    }

    /// Adds the result of the shard's next unit.
    pub fn add(&mut self, r: UnitResult) {
        self.done += 1;
        self.candidates += r.candidates;
        self.tricks += r.tricks;
        self.found.extend(r.found);
    }

    fn header(&self) -> String {
        let units = self.spec.units();
        format!(
            "{MAGIC}\ndeck {} method {} prefix {}\nshard {}/{}\n",
            self.spec.deck,
            self.spec.method,
            units.prefix,
            self.shard.index() + 1,
            self.shard.count()
        )
    }

    /// The checksummed text form.
    pub fn to_text(&self) -> String {
        let mut s = self.header();
        let _ = writeln!(s, "units {} done {}", self.units, self.done);
        let _ = writeln!(s, "counts candidates {} tricks {}", self.candidates, self.tricks);
        for f in &self.found {
            let _ = writeln!(
                s,
                "loop {} period {} {} first-max {} twin {}",
                Position::new(f.first.clone(), f.second.clone()).expect("a position").compact(),
                f.period_tricks,
                f.period_cards,
                f.first_max,
                u8::from(f.self_twin)
            );
        }
        sealed::seal(&s)
    }

    /// Reads [`CensusState::to_text`]'s form, checking that it belongs to `spec` and `shard`.
    pub fn from_text(
        text: &str,
        spec: CensusSpec,
        shard: Shard,
    ) -> Result<CensusState, StateError> {
        let body = sealed::open(text, MAGIC)?;
        let mut state = CensusState::new(spec, shard);
        let header = state.header();
        if !body.starts_with(&header) {
            let got: Vec<&str> = body.lines().skip(1).take(2).collect();
            let want: Vec<&str> = header.lines().skip(1).collect();
            return Err(StateError::OtherRun(format!(
                "it holds {:?}, this run is {:?}",
                got.join(", "),
                want.join(", ")
            )));
        }
        let skip = header.lines().count();
        let mut listed = std::collections::HashSet::new();
        for (k, line) in body.lines().enumerate().skip(skip) {
            let bad = |why: &str| StateError::Line { line: k + 1, why: why.to_string() };
            let w: Vec<&str> = line.split(' ').collect();
            let num = |i: usize| -> Result<u64, StateError> {
                w.get(i).and_then(|t| t.parse().ok()).ok_or_else(|| bad("expected a number"))
            };
            match w[0] {
                "units" if w.len() == 4 && w[2] == "done" => {
                    if num(1)? != state.units {
                        return Err(bad("the number of units is not this census's"));
                    }
                    state.done = num(3)?;
                    if state.done > state.shard_units() {
                        return Err(bad("more units done than the shard has"));
                    }
                }
                "counts" if w.len() == 5 => {
                    state.candidates = num(2)?;
                    state.tricks = num(4)?;
                }
                "loop"
                    if w.len() == 9
                        && w[2] == "period"
                        && w[5] == "first-max"
                        && w[7] == "twin" =>
                {
                    let p: Position = w[1].parse().map_err(|_| bad("not a position"))?;
                    p.check_deck(spec.deck).map_err(|e| bad(&e.to_string()))?;
                    let found = Found {
                        first: p.first().to_vec(),
                        second: p.second().to_vec(),
                        period_tricks: num(3)?,
                        period_cards: num(4)?,
                        first_max: usize::try_from(num(6)?).map_err(|_| bad("too large"))?,
                        self_twin: match w[8] {
                            "0" => false,
                            "1" => true,
                            _ => return Err(bad("twin is 0 or 1")),
                        },
                    };
                    // The census's own walk of the position, which must give this very line
                    // (a state edited and sealed again is not taken on trust).
                    match Walker::new().walk(p.first(), p.second(), spec.methods()).1 {
                        Some(walked) if walked == found => {}
                        Some(walked) => {
                            return Err(bad(&format!(
                                "the loop of {} has period {} tricks {} cards, first-max {}, \
                                 twin {}, not what the line says",
                                p.compact(),
                                walked.period_tricks,
                                walked.period_cards,
                                walked.first_max,
                                u8::from(walked.self_twin)
                            )));
                        }
                        None => {
                            return Err(bad(&format!(
                                "{} is not the canonical position of a loop",
                                p.compact()
                            )));
                        }
                    }
                    if !listed.insert((found.first.clone(), found.second.clone())) {
                        return Err(bad("a loop listed twice"));
                    }
                    state.found.push(found);
                }
                _ => return Err(bad("not a line of a census state")),
            }
        }
        Ok(state)
    }

    /// The state of a whole run from the complete states of all its shards: the same as a
    /// run without shards, whatever the order of `parts`.
    pub fn merge(parts: &[CensusState]) -> Result<CensusState, StateError> {
        let merge = |why: String| Err(StateError::Merge(why));
        let Some(first) = parts.first() else { return merge("no shard given".into()) };
        let count = first.shard.count();
        let mut seen = vec![false; count as usize];
        for p in parts {
            if p.spec != first.spec {
                return merge(format!(
                    "shard {} is a census of {}, not {}",
                    p.shard, p.spec, first.spec
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
            if std::mem::replace(&mut seen[p.shard.index() as usize], true) {
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
        let mut whole = CensusState::new(first.spec, Shard::WHOLE);
        whole.done = whole.units;
        for p in parts {
            let (Some(candidates), Some(tricks)) =
                (whole.candidates.checked_add(p.candidates), whole.tricks.checked_add(p.tricks))
            else {
                return merge("the shards' counts add up to more than 2^64".into());
            };
            (whole.candidates, whole.tricks) = (candidates, tricks);
            whole.found.extend(p.found.iter().cloned());
        }
        whole.found.sort_by(|x, y| x.position().canonical_cmp(&y.position()));
        // Each position belongs to one shard: a loop listed by two came from a forged state.
        if let Some(w) = whole.found.windows(2).find(|w| w[0] == w[1]) {
            return merge(format!("the loop of {} is listed by two shards", w[0].position()));
        }
        Ok(whole)
    }

    /// The loops found, sorted by canonical position (the order of a whole run's catalogue).
    pub fn loops(&self) -> Vec<Found> {
        let mut found = self.found.clone();
        found.sort_by(|x, y| x.position().canonical_cmp(&y.position()));
        found
    }
}

/// Searches the pending units of `state` in order, `batch` units at a time in parallel on
/// `pool`, calling `checkpoint` with the state after each batch. Stops early when `stop` is
/// set: the units under way give up within milliseconds and are searched again on resume. The
/// state depends only on the units done.
pub fn run(
    state: &mut CensusState,
    pool: &Pool,
    batch: usize,
    stop: &AtomicBool,
    checkpoint: &mut dyn FnMut(&CensusState),
) {
    let spec = state.spec;
    while !state.is_complete() && !stop.load(Ordering::Relaxed) {
        let units = state.pending(batch.max(1));
        for r in pool.map_prefix(&units, |u| search_unit(spec, u, stop)) {
            state.add(r);
        }
        checkpoint(state);
    }
}

/// The same census, one unit after another on the calling thread: the sequential path to
/// compare [`run`] with.
pub fn run_sequential(state: &mut CensusState) {
    let stop = AtomicBool::new(false);
    for u in state.pending(usize::MAX) {
        let r = search_unit(state.spec, u, &stop).expect("never stopped");
        state.add(r);
    }
}

pub mod report;

#[cfg(test)]
mod tests;
