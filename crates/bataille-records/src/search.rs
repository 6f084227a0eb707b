//! Record hunting: a parallel, reproducible local search for the longest finished games.
//!
//! Random sampling finds long games only by luck. This module climbs instead: a fixed number of
//! independent **chains** each walk through deals by small moves that keep the deal a legal
//! arrangement of the deck ([`mutate`]: swap two cards, swap neighbours, move one card, reverse
//! a short segment, move a block), accepting a move by the Metropolis rule on the logarithm of
//! the game length (simulated annealing). Each chain works in **epochs** of
//! [`Anneal::epoch`] iterations; the temperature falls geometrically from [`Anneal::t_start`] to
//! [`Anneal::t_end`] over an epoch, then the chain restarts, half the time from its best deal and
//! half the time from a fresh random deal (iterated annealing with restarts).
//!
//! The chain optimises one [`Measure`] (tricks or cards) but keeps its best deal for both.
//! Loops are not records: a deal that loops scores zero and its loop goes to the chain's cycle
//! list (one example deal per [`bataille_engine::CycleId`], the lexicographically smallest).
//!
//! **Reproducibility.** The random numbers of chain `c` at its iteration `i` come from a stream
//! seeded by `(seed, c, i)` alone (seeding costs a few nanoseconds, a game several
//! microseconds), and every decision of a chain depends only on its own history, so the chains
//! can run on any number of threads, in any grouping of rounds, be checkpointed and resumed at
//! any iteration, and still give the same deals. The
//! results are reduced deterministically (longest first, then the smallest deal). An
//! iteration budget is split over the chains (chain `c` gets `⌊N/K⌋`, plus one for the first
//! `N mod K`); a time budget stops at a round boundary where every chain has done the same
//! number of iterations, so `chains × iterations` replays it exactly with an iteration budget.
//!
//! Every evaluation reuses the chain's [`Game`] and [`Scratch`]: nothing is allocated per move.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bataille_engine::{DeckSpec, Game, Limits, Methods, Outcome, Scratch, play_deterministic};
use bataille_search::pool::Pool;
use bataille_search::sealed;
use bataille_search::seed::splitmix64;
use bataille_search::stats::Measure;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Distinct loops a chain remembers (further ones are counted, not kept).
pub const MAX_CYCLES_PER_CHAIN: usize = 256;

const MAGIC: &str = "bataille-records state 1";

/// The annealing schedule of every chain.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Anneal {
    /// Iterations between restarts.
    pub epoch: u64,
    /// Temperature at the start of an epoch, on the scale of ln(length).
    pub t_start: f64,
    /// Temperature at the end of an epoch.
    pub t_end: f64,
}

impl Default for Anneal {
    fn default() -> Anneal {
        Anneal { epoch: 20_000, t_start: 0.3, t_end: 0.01 }
    }
}

/// What to search.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The deck.
    pub spec: DeckSpec,
    /// Deterministic stacking methods.
    pub methods: Methods,
    /// What the chains maximise.
    pub measure: Measure,
    /// The seed of every chain.
    pub seed: u64,
    /// Independent chains (fixed: the results depend on it, not on the threads).
    pub chains: usize,
    /// The schedule.
    pub anneal: Anneal,
}

/// Why a search cannot start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordsError {
    /// The methods include the random one.
    #[error("record search needs deterministic methods, got {0}")]
    RandomMethod(String),
    /// No chain.
    #[error("the number of chains must be at least 1, got 0")]
    NoChains,
    /// More chains than [`MAX_CHAINS`] (each holds a deal and its best games).
    #[error("{0} chains is more than the limit of {MAX_CHAINS}")]
    TooManyChains(usize),
    /// A deck too small to move cards in.
    #[error("the deck has {0} cards: a record search needs at least 2")]
    TinyDeck(usize),
    /// An epoch of no iteration.
    #[error("--epoch must be at least 1 iteration, got 0")]
    NoEpoch,
    /// Temperatures out of range: the start and the end.
    #[error("invalid annealing temperatures {0} and {1}: expected a start ≥ an end > 0")]
    Anneal(String, String),
    /// A saved state does not belong to this search.
    #[error("the checkpoint belongs to another search: {0}")]
    Mismatch(String),
    /// A saved state could not be read.
    #[error("cannot read the checkpoint: {0}")]
    Corrupt(String),
    /// The thread pool could not be built.
    #[error("cannot start {threads} worker threads: {message}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// rayon's message.
        message: String,
    },
    /// Saving a checkpoint failed.
    #[error("cannot save the checkpoint: {0}")]
    Checkpoint(String),
}

/// The most chains of one search (about 200 bytes each, allocated when it starts).
pub const MAX_CHAINS: usize = 1 << 20;

impl Config {
    /// Checks the configuration.
    pub fn validate(&self) -> Result<(), RecordsError> {
        if !self.methods.is_deterministic() {
            return Err(RecordsError::RandomMethod(self.methods.to_string()));
        }
        if self.chains == 0 {
            return Err(RecordsError::NoChains);
        }
        if self.chains > MAX_CHAINS {
            return Err(RecordsError::TooManyChains(self.chains));
        }
        if self.spec.cards() < 2 {
            return Err(RecordsError::TinyDeck(self.spec.cards()));
        }
        let a = self.anneal;
        if a.epoch == 0 {
            return Err(RecordsError::NoEpoch);
        }
        if !(a.t_start > 0.0 && a.t_end > 0.0 && a.t_end <= a.t_start) {
            return Err(RecordsError::Anneal(a.t_start.to_string(), a.t_end.to_string()));
        }
        Ok(())
    }

    /// The line naming the search in state files: two searches with the same key walk the same
    /// deals.
    pub fn key(&self) -> String {
        format!(
            "bataille C={} V={} {} measure={} seed={} chains={} epoch={} t={}..{}",
            self.spec.colours(),
            self.spec.values(),
            self.methods,
            self.measure.name(),
            self.seed,
            self.chains,
            self.anneal.epoch,
            self.anneal.t_start,
            self.anneal.t_end
        )
    }
}

/// A finished game found by a chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Tricks played.
    pub tricks: u64,
    /// Cards each player turned.
    pub cards: u64,
    /// The deal, both hands end to end.
    pub deal: Vec<u8>,
    /// The chain that found it.
    pub chain: usize,
    /// The chain's iteration that found it.
    pub iteration: u64,
}

impl Found {
    /// The value of `measure`.
    pub fn value(&self, measure: Measure) -> u64 {
        match measure {
            Measure::Tricks => self.tricks,
            Measure::Cards => self.cards,
        }
    }
}

/// A loop met by a chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CycleFound {
    /// The canonical id of the loop.
    pub id: u64,
    /// Tricks before the loop, from `deal`.
    pub tail_tricks: u64,
    /// Tricks in one turn.
    pub period_tricks: u64,
    /// Cards each player turned in one turn.
    pub period_cards: u64,
    /// The smallest deal seen that reaches it.
    pub deal: Vec<u8>,
}

/// One chain: its current deal, its bests, its loops.
#[derive(Debug, Clone)]
struct Chain {
    index: usize,
    done: u64,
    current: Vec<u8>,
    score: u64,
    best: [Option<Found>; 2],
    cycles: BTreeMap<u64, CycleFound>,
    loops_met: u64,
}

/// Per-thread buffers: the candidate deal and the engine's game and scratch.
#[derive(Debug, Default)]
struct Buffers {
    candidate: Vec<u8>,
    game: Game,
    scratch: Scratch,
}

/// The state of a search: every chain. Saved as checkpoints and as `state.txt`.
#[derive(Debug, Clone)]
pub struct SearchState {
    key: String,
    chains: Vec<Chain>,
}

/// How long to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// This many iterations in all (one iteration = one deal evaluated), split over the chains.
    Iterations(u64),
    /// Until this much time has passed in this invocation (not reproducible: replay with the
    /// iterations it reports).
    Time(Duration),
}

/// How to run.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Offer a checkpoint at least this often.
    pub checkpoint_every: Duration,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions { threads: 0, checkpoint_every: Duration::from_secs(60) }
    }
}

/// Where progress goes (called by the driver between rounds).
pub trait SearchProgress: Sync {
    /// A round ended: `iterations` done in all by the chains, the best lengths so far.
    fn round(&self, iterations: u64, best_tricks: u64, best_cards: u64) {
        let _ = (iterations, best_tricks, best_cards);
    }

    /// A consistent snapshot to save.
    fn checkpoint(&self, state: &SearchState) -> std::io::Result<()> {
        let _ = state;
        Ok(())
    }
}

/// No progress report.
#[derive(Debug, Clone, Copy, Default)]
pub struct Quiet;

impl SearchProgress for Quiet {}

/// The results of a search, reduced over the chains.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    /// Every chain's best finished game by tricks, longest first (ties: smallest deal).
    pub by_tricks: Vec<Found>,
    /// Every chain's best finished game by cards, longest first.
    pub by_cards: Vec<Found>,
    /// The loops met, by id (one smallest example deal each).
    pub cycles: Vec<CycleFound>,
    /// Deals that looped (all chains, repeats included).
    pub loops_met: u64,
    /// Iterations done by the chains in all (the whole search, resumed parts included).
    pub iterations: u64,
    /// Iterations done by each chain (equal unless an iteration budget is not a multiple of the
    /// number of chains).
    pub per_chain: Vec<u64>,
}

/// The end of a run.
#[derive(Debug, Clone)]
pub struct SearchEnded {
    /// The state reached (to save).
    pub state: SearchState,
    /// The reduced results.
    pub result: SearchResult,
    /// Iterations done in this invocation.
    pub iterations_run: u64,
    /// Whether a stop request ended the run before its budget.
    pub interrupted: bool,
}

/// Applies one random move to `deal`, in place. Every move permutes the cards, so the deal stays
/// an arrangement of the same multiset (and, the split being fixed, a legal deal).
pub fn mutate<R: Rng + ?Sized>(deal: &mut [u8], rng: &mut R) {
    let n = deal.len();
    if n < 2 {
        return;
    }
    match rng.random_range(0..8u32) {
        0..=3 => {
            // Swap a card with a card of a neighbouring value (if any): the two cards win and
            // lose mostly the same tricks, so the game changes late rather than at once.
            let i = rng.random_range(0..n);
            let v = deal[i];
            let w = if rng.random_bool(0.5) { v.wrapping_add(1) } else { v.wrapping_sub(1) };
            let start = rng.random_range(0..n);
            if let Some(k) = (0..n).map(|k| (start + k) % n).find(|&k| deal[k] == w) {
                deal.swap(i, k);
            }
        }
        4 => {
            // Swap two cards anywhere (within a hand or across).
            let i = rng.random_range(0..n);
            let j = rng.random_range(0..n);
            deal.swap(i, j);
        }
        5 => {
            // Swap neighbours.
            let i = rng.random_range(0..n - 1);
            deal.swap(i, i + 1);
        }
        6 => {
            // Move one card from i to j.
            let i = rng.random_range(0..n);
            let j = rng.random_range(0..n);
            if i < j {
                deal[i..=j].rotate_left(1);
            } else {
                deal[j..=i].rotate_right(1);
            }
        }
        7 => {
            // Reverse a short segment.
            let len = rng.random_range(2..=n.min(8));
            let i = rng.random_range(0..=n - len);
            deal[i..i + len].reverse();
        }
        _ => {
            // (Unused.) Move a block of up to 8 cards by up to 16 places: rotate the span they cover.
            let len = rng.random_range(1..=n.min(8));
            let i = rng.random_range(0..=n - len);
            let span_end = (i + len + rng.random_range(1..=16)).min(n);
            if span_end > i + len {
                deal[i..span_end].rotate_left(len);
            } else {
                deal.swap(i, rng.random_range(0..n));
            }
        }
    }
}

/// The random stream of chain `chain` at its iteration `iteration`.
fn iteration_rng(seed: u64, chain: usize, iteration: u64) -> Xoshiro256PlusPlus {
    let c = splitmix64(seed ^ splitmix64(chain as u64 ^ 0x243f_6a88_85a3_08d3));
    Xoshiro256PlusPlus::seed_from_u64(c ^ splitmix64(iteration))
}

/// What one evaluation gave.
#[derive(Debug, Clone, Copy)]
enum Eval {
    Finished { tricks: u64, cards: u64 },
    Loop { id: u64, tail_tricks: u64, period_tricks: u64, period_cards: u64 },
}

#[inline]
fn evaluate(cfg: &Config, deal: &[u8], b: &mut Buffers) -> Eval {
    let half = deal.len() / 2;
    b.game.set(&deal[..half], &deal[half..]);
    let r = play_deterministic(&b.game, cfg.methods, Limits::DETERMINISTIC, &mut b.scratch);
    match r.outcome {
        Outcome::Cycle(c) => Eval::Loop {
            id: c.id.0,
            tail_tricks: c.tail_tricks,
            period_tricks: c.period_tricks,
            period_cards: c.period_cards,
        },
        // Deterministic games without a cap always end or loop.
        _ => Eval::Finished { tricks: r.tricks, cards: r.cards },
    }
}

/// Replays `deal` (both hands end to end, split ⌊N/2⌋ / ⌈N/2⌉) and returns its outcome and
/// lengths: what `bataille verify` compares with a stored record row.
pub fn replay(deal: &[u8], methods: Methods) -> bataille_engine::GameResult {
    let half = deal.len() / 2;
    let mut game = Game::default();
    game.set(&deal[..half], &deal[half..]);
    let mut scratch = Scratch::default();
    play_deterministic(&game, methods, Limits::DETERMINISTIC, &mut scratch)
}

impl Chain {
    fn new(cfg: &Config, index: usize) -> Chain {
        Chain {
            index,
            done: 0,
            current: cfg.spec.sorted_deck(),
            score: 0,
            best: [None, None],
            cycles: BTreeMap::new(),
            loops_met: 0,
        }
    }

    fn record(&mut self, cfg: &Config, deal: &[u8], e: Eval) -> u64 {
        match e {
            Eval::Finished { tricks, cards } => {
                for (slot, m) in [Measure::Tricks, Measure::Cards].into_iter().enumerate() {
                    let v = if slot == 0 { tricks } else { cards };
                    let better = match &self.best[slot] {
                        None => true,
                        Some(b) => v > b.value(m),
                    };
                    if better {
                        self.best[slot] = Some(Found {
                            tricks,
                            cards,
                            deal: deal.to_vec(),
                            chain: self.index,
                            iteration: self.done,
                        });
                    }
                }
                match cfg.measure {
                    Measure::Tricks => tricks,
                    Measure::Cards => cards,
                }
            }
            Eval::Loop { id, tail_tricks, period_tricks, period_cards } => {
                self.loops_met += 1;
                let full = self.cycles.len() >= MAX_CYCLES_PER_CHAIN;
                match self.cycles.get_mut(&id) {
                    Some(c) if deal < c.deal.as_slice() => {
                        c.deal = deal.to_vec();
                        c.tail_tricks = tail_tricks;
                    }
                    Some(_) => {}
                    None if !full => {
                        self.cycles.insert(
                            id,
                            CycleFound {
                                id,
                                tail_tricks,
                                period_tricks,
                                period_cards,
                                deal: deal.to_vec(),
                            },
                        );
                    }
                    None => {}
                }
                0
            }
        }
    }

    /// Runs the chain until it has done `until` iterations.
    fn run(&mut self, cfg: &Config, until: u64, b: &mut Buffers) {
        let a = cfg.anneal;
        let ratio = (a.t_end / a.t_start).ln();
        while self.done < until {
            let mut rng = iteration_rng(cfg.seed, self.index, self.done);
            let phase = self.done % a.epoch;
            b.candidate.clear();
            if phase == 0 {
                // Start of an epoch: a fresh random deal, or (after the first) the best deal so
                // far half of the time.
                let slot = match cfg.measure {
                    Measure::Tricks => 0,
                    Measure::Cards => 1,
                };
                match &self.best[slot] {
                    Some(best) if self.done > 0 && rng.random_bool(0.5) => {
                        b.candidate.extend_from_slice(&best.deal);
                    }
                    _ => {
                        b.candidate.extend_from_slice(&self.current);
                        b.candidate.sort_unstable();
                        b.candidate.shuffle(&mut rng);
                    }
                }
                let deal = std::mem::take(&mut b.candidate);
                let e = evaluate(cfg, &deal, b);
                self.score = self.record(cfg, &deal, e);
                self.current.clear();
                self.current.extend_from_slice(&deal);
                b.candidate = deal;
                self.done += 1;
                continue;
            }
            b.candidate.extend_from_slice(&self.current);
            mutate(&mut b.candidate, &mut rng);
            let deal = std::mem::take(&mut b.candidate);
            let e = evaluate(cfg, &deal, b);
            let s = self.record(cfg, &deal, e);
            let u: f64 = rng.random();
            let accept = if s >= self.score {
                true
            } else if s == 0 {
                false
            } else {
                let t = a.t_start * (ratio * phase as f64 / a.epoch as f64).exp();
                let delta = (s as f64).ln() - (self.score as f64).ln();
                u < (delta / t).exp()
            };
            if accept {
                self.current.clear();
                self.current.extend_from_slice(&deal);
                self.score = s;
            }
            b.candidate = deal;
            self.done += 1;
        }
    }
}

impl SearchState {
    /// A fresh search: every chain at iteration 0.
    pub fn new(cfg: &Config) -> SearchState {
        SearchState {
            key: cfg.key(),
            chains: (0..cfg.chains).map(|c| Chain::new(cfg, c)).collect(),
        }
    }

    /// The search key this state belongs to.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// Iterations done by all chains.
    pub fn iterations(&self) -> u64 {
        self.chains.iter().map(|c| c.done).sum()
    }

    /// The reduced results.
    pub fn result(&self) -> SearchResult {
        let sorted = |slot: usize, m: Measure| {
            let mut v: Vec<Found> =
                self.chains.iter().filter_map(|c| c.best[slot].clone()).collect();
            v.sort_by(|a, b| b.value(m).cmp(&a.value(m)).then_with(|| a.deal.cmp(&b.deal)));
            v
        };
        let mut cycles: BTreeMap<u64, CycleFound> = BTreeMap::new();
        for c in &self.chains {
            for (id, found) in &c.cycles {
                match cycles.get(id) {
                    Some(old) if old.deal <= found.deal => {}
                    _ => {
                        cycles.insert(*id, found.clone());
                    }
                }
            }
        }
        SearchResult {
            by_tricks: sorted(0, Measure::Tricks),
            by_cards: sorted(1, Measure::Cards),
            cycles: cycles.into_values().collect(),
            loops_met: self.chains.iter().map(|c| c.loops_met).sum(),
            iterations: self.iterations(),
            per_chain: self.chains.iter().map(|c| c.done).collect(),
        }
    }

    /// The text form (versioned, ends with an FNV-1a checksum line, like the explore state).
    pub fn encode(&self) -> String {
        let deal = |d: &[u8]| d.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
        let mut s = String::new();
        let _ = writeln!(s, "{MAGIC}");
        let _ = writeln!(s, "key {}", self.key);
        for c in &self.chains {
            let _ = writeln!(
                s,
                "chain {} {} {} {} {}",
                c.index,
                c.done,
                c.score,
                c.loops_met,
                deal(&c.current)
            );
            for (slot, name) in ["tricks", "cards"].into_iter().enumerate() {
                if let Some(f) = &c.best[slot] {
                    let _ = writeln!(
                        s,
                        "best {name} {} {} {} {}",
                        f.tricks,
                        f.cards,
                        f.iteration,
                        deal(&f.deal)
                    );
                }
            }
            for f in c.cycles.values() {
                let _ = writeln!(
                    s,
                    "cycle {:016x} {} {} {} {}",
                    f.id,
                    f.tail_tricks,
                    f.period_tricks,
                    f.period_cards,
                    deal(&f.deal)
                );
            }
        }
        sealed::seal(&s)
    }

    /// Reads the text form and checks that it belongs to `cfg`.
    pub fn decode(text: &str, cfg: &Config) -> Result<SearchState, RecordsError> {
        let bad = |what: &str| RecordsError::Corrupt(what.to_string());
        let body = sealed::open(text, MAGIC).map_err(|e| match e {
            sealed::SealError::Format { .. } => bad("not a record-search state file"),
            sealed::SealError::Checksum => bad("its checksum does not match its content"),
        })?;
        let mut lines = body.lines();
        lines.next();
        let key = lines.next().and_then(|l| l.strip_prefix("key ")).ok_or_else(|| bad("no key"))?;
        if key != cfg.key() {
            return Err(RecordsError::Mismatch(format!("saved {key:?}, asked {:?}", cfg.key())));
        }
        let deck = cfg.spec.sorted_deck();
        let deal = |t: &str| -> Result<Vec<u8>, RecordsError> {
            let d: Vec<u8> = t
                .split(',')
                .map(|x| x.parse().map_err(|_| bad("bad card")))
                .collect::<Result<_, _>>()?;
            let mut sorted = d.clone();
            sorted.sort_unstable();
            if sorted != deck {
                return Err(bad("a deal is not an arrangement of the deck"));
            }
            Ok(d)
        };
        let num = |t: Option<&str>| -> Result<u64, RecordsError> {
            t.and_then(|x| x.parse().ok()).ok_or_else(|| bad("bad number"))
        };
        let mut chains: Vec<Chain> = Vec::new();
        let mut buffers = Buffers::default();
        for line in lines {
            let mut w = line.split(' ');
            match w.next() {
                Some("chain") => {
                    let index = num(w.next())? as usize;
                    if index != chains.len() {
                        return Err(bad("chains out of order"));
                    }
                    let done = num(w.next())?;
                    let score = num(w.next())?;
                    let loops_met = num(w.next())?;
                    let current = deal(w.next().ok_or_else(|| bad("no deal"))?)?;
                    chains.push(Chain {
                        index,
                        done,
                        current,
                        score,
                        best: [None, None],
                        cycles: BTreeMap::new(),
                        loops_met,
                    });
                }
                Some("best") => {
                    let chain = chains.last_mut().ok_or_else(|| bad("best before chain"))?;
                    let slot = match w.next() {
                        Some("tricks") => 0,
                        Some("cards") => 1,
                        _ => return Err(bad("bad best line")),
                    };
                    let tricks = num(w.next())?;
                    let cards = num(w.next())?;
                    let iteration = num(w.next())?;
                    let d = deal(w.next().ok_or_else(|| bad("no deal"))?)?;
                    // The game is played again: a best game is what its deal plays.
                    let plays = matches!(evaluate(cfg, &d, &mut buffers),
                        Eval::Finished { tricks: t, cards: c } if (t, c) == (tricks, cards));
                    if !plays || iteration > chain.done {
                        return Err(bad("a best game is not what its deal plays"));
                    }
                    chain.best[slot] =
                        Some(Found { tricks, cards, deal: d, chain: chain.index, iteration });
                }
                Some("cycle") => {
                    let chain = chains.last_mut().ok_or_else(|| bad("cycle before chain"))?;
                    let id = w
                        .next()
                        .and_then(|x| u64::from_str_radix(x, 16).ok())
                        .ok_or_else(|| bad("bad cycle id"))?;
                    let tail_tricks = num(w.next())?;
                    let period_tricks = num(w.next())?;
                    let period_cards = num(w.next())?;
                    let d = deal(w.next().ok_or_else(|| bad("no deal"))?)?;
                    chain.cycles.insert(
                        id,
                        CycleFound { id, tail_tricks, period_tricks, period_cards, deal: d },
                    );
                }
                _ => return Err(bad("unknown line")),
            }
        }
        if chains.len() != cfg.chains {
            return Err(bad("wrong number of chains"));
        }
        // Totals are summed later: they must fit.
        let total = |f: fn(&Chain) -> u64| chains.iter().try_fold(0u64, |s, c| s.checked_add(f(c)));
        if total(|c| c.done).is_none() || total(|c| c.loops_met).is_none() {
            return Err(bad("the chains' counts add up to more than 2^64"));
        }
        Ok(SearchState { key: key.to_string(), chains })
    }
}

/// Runs the search from `resume` (or from the start) until the budget is spent or `stop` is
/// set. The chains run on a pool of `options.threads` workers; the results do not depend on it.
pub fn search(
    cfg: &Config,
    budget: Budget,
    resume: Option<SearchState>,
    options: &RunOptions,
    progress: &dyn SearchProgress,
    stop: &AtomicBool,
) -> Result<SearchEnded, RecordsError> {
    cfg.validate()?;
    let mut state = match resume {
        Some(s) if s.key != cfg.key() => {
            return Err(RecordsError::Mismatch(format!(
                "saved {:?}, asked {:?}",
                s.key,
                cfg.key()
            )));
        }
        Some(s) => s,
        None => SearchState::new(cfg),
    };
    let pool = Pool::new(options.threads)
        .map_err(|e| RecordsError::Threads { threads: e.threads, message: e.message })?;
    let k = cfg.chains as u64;
    let before = state.iterations();
    // The target of each chain for an iteration budget (of the whole search).
    let target = |c: usize| match budget {
        Budget::Iterations(n) => n / k + u64::from((c as u64) < n % k),
        Budget::Time(_) => u64::MAX,
    };
    let started = Instant::now();
    let mut last_checkpoint = Instant::now();
    let mut round: u64 = 64;
    let mut interrupted = false;
    let mut buffers: Vec<Buffers> = Vec::new();
    loop {
        if stop.load(Ordering::Relaxed) {
            interrupted = true;
            break;
        }
        if let Budget::Time(t) = budget {
            let in_step = state.chains.iter().all(|c| c.done == state.chains[0].done);
            if started.elapsed() >= t && in_step {
                break;
            }
        }
        // This round: every chain `round` iterations further (up to its target). A time budget
        // keeps the chains in step: all go to the furthest one plus `round` (a resumed search
        // whose chains differ is brought level in its first round).
        let furthest = state.chains.iter().map(|c| c.done).max().unwrap_or(0);
        let goal = |c: &Chain| match budget {
            Budget::Time(_) => furthest + round,
            Budget::Iterations(_) => (c.done + round).min(target(c.index)),
        };
        if state.chains.iter().all(|c| goal(c) <= c.done) {
            break;
        }
        let round_start = Instant::now();
        let goals: Vec<u64> = state.chains.iter().map(goal).collect();
        buffers.resize_with(state.chains.len(), Buffers::default);
        let mut work: Vec<(&mut Chain, &mut Buffers)> =
            state.chains.iter_mut().zip(buffers.iter_mut()).collect();
        pool.for_each_mut(&mut work, |(c, b)| {
            let until = goals[c.index];
            c.run(cfg, until, b);
        });
        // Aim for rounds of about a second.
        let secs = round_start.elapsed().as_secs_f64();
        if secs < 0.5 {
            round = (round * 2).min(1 << 30);
        } else if secs > 2.0 && round > 1 {
            round /= 2;
        }
        let r = best_pair(&state);
        progress.round(state.iterations(), r.0, r.1);
        if last_checkpoint.elapsed() >= options.checkpoint_every {
            progress.checkpoint(&state).map_err(|e| RecordsError::Checkpoint(e.to_string()))?;
            last_checkpoint = Instant::now();
        }
    }
    progress.checkpoint(&state).map_err(|e| RecordsError::Checkpoint(e.to_string()))?;
    let iterations_run = state.iterations() - before;
    let result = state.result();
    Ok(SearchEnded { state, result, iterations_run, interrupted })
}

fn best_pair(state: &SearchState) -> (u64, u64) {
    let mut t = 0;
    let mut c = 0;
    for ch in &state.chains {
        if let Some(f) = &ch.best[0] {
            t = t.max(f.tricks);
        }
        if let Some(f) = &ch.best[1] {
            c = c.max(f.cards);
        }
    }
    (t, c)
}

/// Runs the same search on the calling thread, chain after chain, iteration budget only: the
/// sequential path that the parallel one is compared with.
pub fn search_sequential(cfg: &Config, iterations: u64) -> Result<SearchResult, RecordsError> {
    cfg.validate()?;
    let mut state = SearchState::new(cfg);
    let k = cfg.chains as u64;
    let mut b = Buffers::default();
    for c in &mut state.chains {
        let until = iterations / k + u64::from((c.index as u64) < iterations % k);
        c.run(cfg, until, &mut b);
    }
    Ok(state.result())
}

impl SearchResult {
    /// A deal of the search as a position: the first ⌊N/2⌋ cards to the first player.
    pub fn position(spec: DeckSpec, deal: &[u8]) -> bataille_engine::Position {
        let half = spec.cards() / 2;
        bataille_engine::Position::new(deal[..half].to_vec(), deal[half..].to_vec())
            .expect("a deal of a valid deck")
    }

    /// `best.csv`: the longest games by each measure, with the chain and iteration that found
    /// them.
    pub fn best_csv(&self, spec: DeckSpec) -> Vec<u8> {
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut write = || -> csv::Result<()> {
            w.write_record(["measure", "rank", "tricks", "cards", "chain", "iteration", "deal"])?;
            for (m, list) in [(Measure::Tricks, &self.by_tricks), (Measure::Cards, &self.by_cards)]
            {
                for (i, f) in list.iter().enumerate() {
                    w.write_record([
                        m.name().to_string(),
                        (i + 1).to_string(),
                        f.tricks.to_string(),
                        f.cards.to_string(),
                        f.chain.to_string(),
                        f.iteration.to_string(),
                        SearchResult::position(spec, &f.deal).to_string(),
                    ])?;
                }
            }
            w.flush()?;
            Ok(())
        };
        write().expect("writing to memory does not fail");
        w.into_inner().expect("writing to memory does not fail")
    }

    /// `cycles.csv`: the loops met, one example deal each.
    pub fn cycles_csv(&self, spec: DeckSpec) -> Vec<u8> {
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut write = || -> csv::Result<()> {
            w.write_record(["cycle_id", "period_tricks", "period_cards", "tail_tricks", "deal"])?;
            for c in &self.cycles {
                w.write_record([
                    format!("{:016x}", c.id),
                    c.period_tricks.to_string(),
                    c.period_cards.to_string(),
                    c.tail_tricks.to_string(),
                    SearchResult::position(spec, &c.deal).to_string(),
                ])?;
            }
            w.flush()?;
            Ok(())
        };
        write().expect("writing to memory does not fail");
        w.into_inner().expect("writing to memory does not fail")
    }
}

#[cfg(test)]
mod tests;
