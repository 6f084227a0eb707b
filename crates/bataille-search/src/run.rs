//! The driver: runs the pending units of a shard on a rayon pool, merges the per-worker
//! aggregates, reports progress and hands out consistent snapshots for checkpoints.
//!
//! Units are processed in batches. Inside a batch every rayon worker folds the units it takes
//! into its own [`Stats`] (no lock, no shared counter in the per-deal path); the folds are
//! reduced when the batch ends, and the batch's units are marked done. Between batches the
//! state is consistent (every done unit fully counted, no other), which is when a checkpoint is
//! offered and the stop request is honoured. The stop request is also polled inside a unit,
//! every deal of a random unit, every [`STOP_POLL`] deals of an exhaustive one: a worker that sees
//! it abandons its unit, and with it everything it
//! folded in this batch (its units stay pending and are played again on resume, so a result
//! never counts part of a unit). An interrupted batch thus ends within a fraction of a second
//! whatever the size of the units.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

use crate::game::DealGame;
use crate::plan::{Mode, Plan, Shard};
use crate::pool::Pool;
use crate::state::{State, StateError};
use crate::stats::Stats;

/// Where progress goes: the command line draws a bar, tests ignore it. Called from worker
/// threads (once per unit, never per deal) and from the driver (between batches).
pub trait Progress: Sync {
    /// The run starts: `pending` units to do, of which the deals are about `deals`.
    fn start(&self, pending: u64, deals: u128) {
        let _ = (pending, deals);
    }

    /// A unit has been played: `deals` deals.
    fn unit_done(&self, deals: u64) {
        let _ = deals;
    }

    /// A consistent snapshot to save (periodically, and once at the end). An error stops the
    /// run.
    fn checkpoint(&self, state: &State) -> std::io::Result<()> {
        let _ = state;
        Ok(())
    }
}

/// No progress report.
#[derive(Debug, Clone, Copy, Default)]
pub struct Silent;

impl Progress for Silent {}

/// How to run.
#[derive(Debug, Clone)]
pub struct Options {
    /// Worker threads (0: rayon's default, one per core).
    pub threads: usize,
    /// Offer a checkpoint at least this often.
    pub checkpoint_every: Duration,
    /// Stop after this many units in this invocation (to simulate an interruption).
    pub max_units: Option<u64>,
}

impl Default for Options {
    fn default() -> Options {
        Options { threads: 0, checkpoint_every: Duration::from_secs(60), max_units: None }
    }
}

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The saved state does not belong to this run.
    #[error(transparent)]
    State(#[from] StateError),
    /// Saving a checkpoint failed.
    #[error("cannot save the checkpoint: {0}")]
    Checkpoint(std::io::Error),
    /// The thread pool could not be built.
    #[error("cannot start {threads} worker threads: {message}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// rayon's message.
        message: String,
    },
}

/// The end of a run.
#[derive(Debug, Clone)]
pub struct Ended {
    /// The state reached.
    pub state: State,
    /// Whether the run stopped before its last unit (stop request or `max_units`).
    pub interrupted: bool,
    /// Deals played in this invocation.
    pub deals_played: u64,
}

/// Plays every pending unit of `shard`, starting from `resume` (a saved state, checked against
/// the plan) or from nothing. `stop` is polled between units.
pub fn explore<G: DealGame>(
    game: &G,
    plan: &Plan,
    shard: Shard,
    resume: Option<State>,
    options: &Options,
    progress: &dyn Progress,
    stop: &AtomicBool,
) -> Result<Ended, RunError> {
    let mut state = match resume {
        Some(s) => {
            s.check_resumable(plan.key(), shard)?;
            s
        }
        None => State::new(plan.key().clone(), shard),
    };
    let pool = Pool::new(options.threads)
        .map_err(|e| RunError::Threads { threads: e.threads, message: e.message })?;
    let threads = pool.threads();
    let units = plan.key().units;
    // Pending units are found lazily, walking the shard's units in order and skipping those
    // done, so a run of billions of deals never lists its units.
    let shard_units = shard.units(units);
    let pending = shard_units.saturating_sub(state.done.len());
    let limit = options.max_units.unwrap_or(u64::MAX);
    let todo = pending.min(limit);
    let share = todo as f64 / units.max(1) as f64;
    progress.start(todo, (plan.deals() as f64 * share) as u128);

    let mut last_checkpoint = Instant::now();
    let mut deals_played = 0;
    let mut batch_len = threads * 4;
    let mut j = 0; // the next local index of the shard to look at
    let mut taken = 0; // units handed out in this invocation
    let mut batch = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        batch.clear();
        while batch.len() < batch_len && j < shard_units && taken < limit {
            let u = shard.index() + j * shard.count();
            j += 1;
            if !state.done.contains(u) {
                batch.push(u);
                taken += 1;
            }
        }
        if batch.is_empty() {
            break;
        }
        let started = Instant::now();
        let (stats, done) = pool.install(|| run_batch(game, plan, &batch, progress, stop));
        debug_assert!(done.len() == batch.len() || stop.load(Ordering::Relaxed));
        deals_played += stats.deals;
        state.stats.merge(&stats);
        for &u in &done {
            state.done.insert(u);
        }
        // Aim for batches of about two seconds: long enough that the wait for the slowest unit
        // is small, short enough for timely checkpoints.
        let per_unit = started.elapsed().as_secs_f64() / batch.len() as f64;
        let wanted = (2.0 / per_unit.max(1e-6)) as usize;
        batch_len = wanted.clamp(threads * 4, threads * 4096);
        if last_checkpoint.elapsed() >= options.checkpoint_every {
            progress.checkpoint(&state).map_err(RunError::Checkpoint)?;
            last_checkpoint = Instant::now();
        }
    }
    let interrupted = state.done.len() < shard_units;
    progress.checkpoint(&state).map_err(RunError::Checkpoint)?;
    Ok(Ended { state, interrupted, deals_played })
}

fn run_batch<G: DealGame>(
    game: &G,
    plan: &Plan,
    batch: &[u64],
    progress: &dyn Progress,
    stop: &AtomicBool,
) -> (Stats, Vec<u64>) {
    let key = plan.key();
    batch
        .par_iter()
        .with_max_len(1)
        .fold(
            || Fold {
                worker: game.worker(),
                stats: key.empty_stats(),
                done: Vec::new(),
                whole: true,
            },
            |mut f, &u| {
                if f.whole && !stop.load(Ordering::Relaxed) {
                    let before = f.stats.deals;
                    if run_unit_until(game, plan, u, &mut f.worker, &mut f.stats, stop) {
                        progress.unit_done(f.stats.deals - before);
                        f.done.push(u);
                    } else {
                        // Part of unit u is in the fold: drop the fold, its units stay pending.
                        f.whole = false;
                    }
                }
                f
            },
        )
        .map(|f| if f.whole { (f.stats, f.done) } else { (key.empty_stats(), Vec::new()) })
        .reduce(
            || (key.empty_stats(), Vec::new()),
            |(mut a, mut da), (b, db)| {
                a.merge(&b);
                da.extend(db);
                (a, da)
            },
        )
}

/// One worker's share of a batch: the units it played whole, and their aggregates; `whole` is
/// false once a unit was abandoned on a stop request (the fold then counts for nothing).
struct Fold<W> {
    worker: W,
    stats: Stats,
    done: Vec<u64>,
    whole: bool,
}

/// Exhaustive deals played between two looks at the stop request inside a unit (a few
/// milliseconds); random deals look at it every deal.
pub const STOP_POLL: u64 = 1 << 12;

/// Plays unit `u` into `stats`. The same unit always plays the same deals with the same random
/// numbers, whichever thread runs it.
pub fn run_unit<G: DealGame>(game: &G, plan: &Plan, u: u64, w: &mut G::Worker, stats: &mut Stats) {
    let whole = run_unit_until(game, plan, u, w, stats, &AtomicBool::new(false));
    debug_assert!(whole);
}

/// [`run_unit`], abandoned when `stop` is set (polled every random deal, every [`STOP_POLL`]
/// exhaustive deals): returns
/// whether the unit was played whole. An abandoned unit has added part of its deals to
/// `stats`, which the caller must then discard.
pub fn run_unit_until<G: DealGame>(
    game: &G,
    plan: &Plan,
    u: u64,
    w: &mut G::Worker,
    stats: &mut Stats,
    stop: &AtomicBool,
) -> bool {
    let (start, end) = plan.unit_range(u);
    let mut rng = plan.unit_rng(u);
    let mut batch = Batch { size: game.batch(), staged: 0 };
    // Exhaustive deals are small decks' (a few hundred nanoseconds each); a random deal is
    // drawn and may be a long game (milliseconds for the largest decks): it looks at the
    // request every time, so that stopping takes about one game whatever the deck.
    let every = match plan.key().mode {
        Mode::Exhaustive => STOP_POLL,
        Mode::Random { .. } => 1,
    };
    let mut polls = 0u64;
    let mut stopped = || {
        polls += 1;
        polls.is_multiple_of(every) && stop.load(Ordering::Relaxed)
    };
    match plan.key().mode {
        Mode::Exhaustive => {
            game.seek(w, u128::from(start));
            let mut rank = start;
            loop {
                if game.is_canonical(w) {
                    batch.play(game, w, &mut rng, stats);
                    rank += 1;
                } else {
                    rank += game.skip_non_canonical(w, end - rank);
                }
                if rank == end {
                    break;
                }
                if stopped() {
                    return false;
                }
                game.step(w);
            }
        }
        Mode::Random { .. } => {
            for _ in start..end {
                if stopped() {
                    return false;
                }
                game.sample(w, &mut rng);
                batch.play(game, w, &mut rng, stats);
            }
        }
    }
    batch.flush(game, w, stats);
    true
}

/// Deals waiting to be played together ([`DealGame::batch`]); they reach the tallies in the
/// order they were dealt, as one at a time.
struct Batch {
    size: usize,
    staged: usize,
}

impl Batch {
    /// Plays the worker's deal now, or stages it and plays the batch once full.
    #[inline]
    fn play<G: DealGame>(
        &mut self,
        game: &G,
        w: &mut G::Worker,
        rng: &mut Xoshiro256PlusPlus,
        stats: &mut Stats,
    ) {
        if self.size == 1 {
            let r = game.play(w, rng);
            stats.add(&r, game.deal(w));
            return;
        }
        game.stage(w, self.staged);
        self.staged += 1;
        if self.staged == self.size {
            self.flush(game, w, stats);
        }
    }

    /// Plays the staged deals.
    #[inline]
    fn flush<G: DealGame>(&mut self, game: &G, w: &mut G::Worker, stats: &mut Stats) {
        if self.staged > 0 {
            game.play_staged(w, self.staged, &mut |r, deal| stats.add(r, deal));
            self.staged = 0;
        }
    }
}

/// Deals per second that one thread plays, measured on uniformly random deals of `game` for
/// about `budget`, through the same path as a run (batches included). Every deal of a deck is
/// equally likely in an exhaustive run too, so the rate predicts either mode; it is a measure
/// of the machine, not part of any result (its plan and seed are its own).
pub fn sample_speed<G: DealGame>(game: &G, budget: Duration) -> f64 {
    const SEED: u64 = 0x5a3b_1e5e_ed00_0001;
    let mut w = game.worker();
    let mut deals = 64u64;
    loop {
        let plan = Plan::with_unit_size(game, Mode::Random { deals }, SEED, 1, deals)
            .expect("a random plan needs no arrangement count");
        let mut stats = plan.key().empty_stats();
        let started = Instant::now();
        run_unit(game, &plan, 0, &mut w, &mut stats);
        let elapsed = started.elapsed();
        // Doubled until one block lasts half the budget: about the budget in all.
        if elapsed >= budget / 2 || deals >= 1 << 40 {
            return deals as f64 / elapsed.as_secs_f64().max(1e-9);
        }
        deals *= 2;
    }
}

/// Runs the whole plan on the calling thread, unit after unit: the sequential path that the
/// parallel one is compared with.
pub fn explore_sequential<G: DealGame>(game: &G, plan: &Plan) -> State {
    let mut state = State::new(plan.key().clone(), Shard::WHOLE);
    let mut w = game.worker();
    for u in 0..plan.key().units {
        run_unit(game, plan, u, &mut w, &mut state.stats);
        state.done.insert(u);
    }
    state
}

#[cfg(test)]
mod tests;
