//! What a search will cost, known before it runs: the time estimate made before every long run
//! (and the refusal of one that would take more than [`MAX_DAYS`] days), and the dry run, which
//! plays a sample of a shard and prices the shard and the whole run in time, core-hours, memory
//! and output, with a last line for scripts (the SLURM launcher reads it); and the same for a
//! run of units that are not deals (a census, a search of aligned blocks), on a sample of them.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bataille_search::pool::Pool;
use bataille_search::{DealGame, Options, Plan, Shard, Silent, explore, sample_speed};

use crate::error::bail;
use crate::progress::{MAX_DAYS, human_duration};
use crate::search::result_files;
use crate::{Error, Result, Say};

/// Runs of more deals than this get a time estimate before they start (fewer deals take less
/// than a minute even on the largest deck, where a game lasts milliseconds).
pub const ESTIMATE_FROM: u128 = 10_000;
/// An estimate is said when the run should last longer than this (seconds).
pub const SHOW_ESTIMATE_FROM: f64 = 60.0;

/// The cores this process may use.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The time estimate of playing `deals` deals of `game` on `threads` threads (0: one per
/// core), said as a note when it is long; a run beyond [`MAX_DAYS`] is refused unless
/// `no_limit`, saying how to make it shorter (`shorter`) and which option (`lift`) lifts the
/// limit. The speed is measured on a short sample (a time, not a count: the largest decks
/// play a few deals in it; 20 ms, then 300 ms when the first puts the run above a quarter of a
/// minute).
pub fn estimate_deals<G: DealGame>(
    game: &G,
    deals: f64,
    threads: usize,
    (no_limit, lift): (bool, &str),
    shorter: &str,
    say: &dyn Say,
) -> Result<()> {
    let threads = if threads == 0 { cores() } else { threads };
    if deals < ESTIMATE_FROM as f64 {
        return Ok(());
    }
    // Threads beyond the cores add nothing.
    let workers = threads.min(cores()).max(1);
    // A quick sample first: a run it puts well under the minute is not worth a longer one
    // (the sample's time is spent before every run).
    let quick = sample_speed(game, Duration::from_millis(20));
    if deals / (quick * workers as f64) < SHOW_ESTIMATE_FROM / 4.0 {
        return Ok(());
    }
    let speed = sample_speed(game, Duration::from_millis(300));
    let secs = deals / (speed * workers as f64);
    let days = secs / 86_400.0;
    let on = if workers == 1 { "1 thread".to_string() } else { format!("{workers} threads") };
    if secs < SHOW_ESTIMATE_FROM {
        return Ok(());
    }
    say.note(&format!(
        "estimate:  {} for {deals:.3e} {items} at about {speed:.0} {items}/s per thread on {on} \
         (measured on a sample)",
        human_duration(secs),
        items = game.items()
    ));
    if days > MAX_DAYS && !no_limit {
        bail!(
            "the run would take about {} ({deals:.3e} {items} on {on}), more than the limit of \
             {MAX_DAYS} days: {shorter}, or pass {lift} to run it anyway",
            human_duration(secs),
            items = game.items()
        );
    }
    Ok(())
}

/// How long the sample of a dry run lasts, at least (or the whole shard, when it is shorter).
const SAMPLE: Duration = Duration::from_secs(1);

/// About the size of a run's `metadata.csv` (the command line aside, which is as long as typed).
const METADATA_BYTES: usize = 400;

/// What a shard of a search, and the whole run, would cost: [`dry_run`]'s measure.
#[derive(Clone, Debug)]
pub struct Cost {
    /// The game, the mode and the seed, as the run names them.
    pub run: String,
    /// The shard priced.
    pub shard: Shard,
    /// The threads the sample ran on, and the shard would.
    pub threads: usize,
    /// Units of the sample, of the shard.
    pub sampled_units: u64,
    pub shard_units: u64,
    /// Deals (or positions) of the sample, its seconds, and what the game calls its items.
    pub played: u64,
    pub sample_seconds: f64,
    pub items: &'static str,
    /// Deals of the shard, its seconds on `threads` threads at the sample's speed, and its
    /// core-hours.
    pub shard_deals: f64,
    pub seconds: f64,
    pub core_hours: f64,
    /// The process's peak resident memory, in bytes.
    pub memory_bytes: u64,
    /// About the size of a shard's output files, in bytes.
    pub output_bytes: usize,
}

/// Plays the first units of `shard` (doubling their number until the sample has lasted
/// [`SAMPLE`], or the shard is done) on `threads` threads (0: one per core), and prices the
/// whole shard and run at that speed. Nothing is written.
pub fn dry_run<G: DealGame>(game: &G, plan: &Plan, shard: Shard, threads: usize) -> Result<Cost> {
    let workers = if threads == 0 { cores() } else { threads };
    let never = AtomicBool::new(false);
    let started = Instant::now();
    let (mut state, mut played, mut batch) = (None, 0u64, 1u64);
    let state = loop {
        let options = Options {
            threads,
            checkpoint_every: Duration::from_secs(3600),
            max_units: Some(batch),
        };
        let ended = explore(game, plan, shard, state.take(), &options, &Silent, &never)
            .map_err(Error::new)?;
        played += ended.deals_played;
        if !ended.interrupted || started.elapsed() >= SAMPLE {
            break ended.state;
        }
        state = Some(ended.state);
        batch *= 2;
    };
    let elapsed = started.elapsed().as_secs_f64().max(1e-9);
    let units = plan.key().units.max(1);
    let shard_units = shard.units(units);
    let sampled = state.done.len();
    let shard_deals = plan.deals() as f64 * shard_units as f64 / units as f64;
    // The sample's speed per core, the threads beyond this machine's cores counted as the
    // cores a node would give them: the shard on `workers` such cores; the whole run as
    // `shard.count()` such shards.
    let per_core = played as f64 / elapsed / workers.min(cores()) as f64;
    let seconds = if sampled >= shard_units && workers <= cores() {
        elapsed
    } else {
        shard_deals / (per_core * workers as f64).max(1e-9)
    };
    let (files, _) = result_files(Path::new("."), game, plan, &state)?;
    let key = plan.key();
    Ok(Cost {
        run: format!("{} — {} (seed {})", key.game, key.mode, key.seed),
        shard,
        threads: workers,
        sampled_units: sampled,
        shard_units,
        played,
        sample_seconds: elapsed,
        items: game.items(),
        shard_deals,
        seconds,
        core_hours: seconds * workers as f64 / 3600.0,
        memory_bytes: peak_memory(),
        output_bytes: files.sizes().map(|(_, n)| n).sum::<usize>() + METADATA_BYTES,
    })
}

impl Cost {
    /// The dry run's report: the run, the sample, the shard, the whole run, memory and output,
    /// then `cost: key=value ...` for scripts.
    pub fn report(&self) -> String {
        let (threads, items, secs) = (self.threads, self.items, self.seconds);
        let on = if threads == 1 { "1 thread".to_string() } else { format!("{threads} threads") };
        let count = self.shard.count();
        let per_s = self.played as f64 / self.sample_seconds;
        format!(
            "dry run:   {}, shard {}\n\
             sample:    {} of the shard's {} units, {} {items} in {:.2} s on {on}: \
             {per_s:.0} {items}/s{}\n\
             shard:     {:.3e} {items}: about {} on {on} ({:.3} core-hours)\n\
             run:       {count} shards: {:.3} core-hours in all; on {} cores at once, about {}\n\
             memory:    {} MB at most in this process (the sample's workers included)\n\
             output:    about {} kB per shard (the sample's files; cycles.csv and loops.csv \
             grow with the distinct loops found)\n\
             cost: units={} deals={:.0} seconds={secs:.1} threads={threads} core_hours={:.4} \
             memory_bytes={} output_bytes={}\n",
            self.run,
            self.shard,
            self.sampled_units,
            self.shard_units,
            self.played,
            self.sample_seconds,
            projected(threads),
            self.shard_deals,
            human_duration(secs),
            self.core_hours,
            self.core_hours * count as f64,
            threads as u64 * count,
            human_duration(secs),
            self.memory_bytes.div_ceil(1 << 20),
            self.output_bytes.div_ceil(1000),
            self.shard_units,
            self.shard_deals,
            self.core_hours,
            self.memory_bytes,
            self.output_bytes,
        )
    }
}

/// The most CPU time a unit of a units sample may take: it is stopped then, and counts as the
/// time it had run (less than its own).
const UNITS_SAMPLE_LIMIT: Duration = Duration::from_secs(30);

/// What a shard of a run of independent units (a census, a search of aligned blocks) would
/// cost: [`sample_units`]' measure.
#[derive(Clone, Debug)]
pub struct UnitsCost {
    /// The run, as it names itself.
    pub run: String,
    /// The shard priced.
    pub shard: Shard,
    /// The threads the sample ran on, and the shard would.
    pub threads: usize,
    /// Units of the sample, of the shard.
    pub sampled_units: u64,
    pub shard_units: u64,
    /// Units of the sample stopped at [`UNITS_SAMPLE_LIMIT`]: the estimate is then low.
    pub unfinished: u64,
    /// The sample's wall seconds, and the mean CPU seconds of its units.
    pub sample_seconds: f64,
    pub unit_seconds: f64,
    /// The shard's seconds on `threads` threads at the sample's mean, and its core-hours.
    pub seconds: f64,
    pub core_hours: f64,
    /// The process's peak resident memory, in bytes.
    pub memory_bytes: u64,
    /// About the size of a shard's output files, in bytes.
    pub output_bytes: usize,
}

/// Prices `shard` of a run of independent units by searching a sample of them, spread evenly
/// through the shard (units differ in cost by orders of magnitude, and their cost follows
/// their order: the first units alone would mislead), on `pool`'s threads. `search(u, stop)`
/// searches unit `u` of the run (all shards counted) and says whether it finished; `stop` is
/// set when it has had [`UNITS_SAMPLE_LIMIT`] of CPU time. The sample starts with one unit
/// per thread and doubles until it holds [`MIN_UNITS_SAMPLED`] units and has lasted
/// [`SAMPLE`], or its next round would pass [`MAX_SAMPLE`] at the mean so far; the units still
/// running at [`MAX_SAMPLE`] are stopped, and count as cut. A unit's time is the CPU time of
/// the thread that searched it (other work on the machine does not inflate it), and the
/// shard's time that CPU time spread over the threads. The estimate is the sample's mean: with
/// units this uneven, a small sample is a rough one. `output_bytes`: about the size of a
/// shard's files. Nothing is written.
pub fn sample_units(
    run: String,
    pool: &Pool,
    shard: Shard,
    total_units: u64,
    output_bytes: usize,
    search: impl Fn(u64, &AtomicBool) -> bool + Sync,
) -> UnitsCost {
    sample_units_within(UNITS_SAMPLE_LIMIT, run, pool, shard, total_units, output_bytes, search)
}

/// [`sample_units`], each sampled unit stopped after `limit` of CPU time (the tests' is short).
fn sample_units_within(
    limit: Duration,
    run: String,
    pool: &Pool,
    shard: Shard,
    total_units: u64,
    output_bytes: usize,
    search: impl Fn(u64, &AtomicBool) -> bool + Sync,
) -> UnitsCost {
    let workers = pool.threads();
    let shard_units = shard.units(total_units);
    let started = Instant::now();
    let mut size = (workers as u64).min(shard_units);
    let (mut times, mut unfinished) = (Vec::new(), 0);
    while size > 0 {
        // Unit j of the sample is the shard's unit at the middle of the j-th of `size` equal
        // stretches; the shard's i-th unit is the run's unit index + i × count.
        let sample: Vec<u64> = (0..size)
            .map(|j| ((2 * j + 1) as u128 * shard_units as u128 / (2 * size) as u128) as u64)
            .map(|i| shard.index() + i * shard.count())
            .collect();
        let measured = search_each_within(pool, &sample, limit, started + MAX_SAMPLE, &search);
        times = measured.iter().map(|&(t, _)| t).collect();
        unfinished = measured.iter().filter(|&&(_, finished)| !finished).count() as u64;
        let elapsed = started.elapsed();
        if size == shard_units || (elapsed >= SAMPLE && size >= MIN_UNITS_SAMPLED) {
            break;
        }
        // The next round, twice as large, is not started when it would pass the sample's
        // budget at the mean so far.
        let next = (2 * size).min(shard_units);
        let mean = times.iter().sum::<f64>() / size as f64;
        let running = workers.min(cores()) as f64;
        if elapsed.as_secs_f64() + mean * next as f64 / running > MAX_SAMPLE.as_secs_f64() {
            break;
        }
        size = next;
    }
    let sampled = times.len() as u64;
    let unit_seconds = times.iter().sum::<f64>() / sampled.max(1) as f64;
    let seconds = unit_seconds * shard_units as f64 / workers as f64;
    UnitsCost {
        run,
        shard,
        threads: workers,
        sampled_units: sampled,
        shard_units,
        unfinished,
        sample_seconds: started.elapsed().as_secs_f64(),
        unit_seconds,
        seconds,
        core_hours: seconds * workers as f64 / 3600.0,
        memory_bytes: peak_memory(),
        output_bytes: output_bytes + METADATA_BYTES,
    }
}

/// A units sample goes on, its rounds doubling, until it holds this many units (and has lasted
/// [`SAMPLE`]), or the shard's units are all in it...
const MIN_UNITS_SAMPLED: u64 = 32;
/// ...or its next round would take it past this.
const MAX_SAMPLE: Duration = Duration::from_secs(120);

/// Searches each of `units` on `pool`, each stopped once it has run `limit` of CPU time, and
/// all of them at `deadline`: its CPU seconds, and whether it finished.
fn search_each_within(
    pool: &Pool,
    units: &[u64],
    limit: Duration,
    deadline: Instant,
    search: &(impl Fn(u64, &AtomicBool) -> bool + Sync),
) -> Vec<(f64, bool)> {
    // Each unit under way: the CPU clock of the thread searching it (none: NO_CLOCK) and that
    // clock's seconds when it started, polled by a watchdog that sets the unit's stop once it
    // has had `limit` of CPU time (other work on the machine does not shorten its share).
    const NO_CLOCK: i64 = i64::MIN;
    let clocks: Vec<AtomicI64> = units.iter().map(|_| AtomicI64::new(NO_CLOCK)).collect();
    let starts: Vec<AtomicU64> = units.iter().map(|_| AtomicU64::new(0)).collect();
    let stops: Vec<AtomicBool> = units.iter().map(|_| AtomicBool::new(false)).collect();
    let ended = AtomicBool::new(false);
    // Set however the search ends, a panic included (the scope waits for the watchdog).
    struct Ended<'a>(&'a AtomicBool);
    impl Drop for Ended<'_> {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Relaxed);
        }
    }
    std::thread::scope(|s| {
        s.spawn(|| {
            while !ended.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(10));
                let late = Instant::now() >= deadline;
                for ((clock, start), stop) in clocks.iter().zip(&starts).zip(&stops) {
                    if late {
                        stop.store(true, Ordering::Relaxed);
                        continue;
                    }
                    let id = clock.load(Ordering::Acquire);
                    if id == NO_CLOCK {
                        continue;
                    }
                    let ran = clock_seconds(id) - f64::from_bits(start.load(Ordering::Relaxed));
                    if ran >= limit.as_secs_f64() {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        });
        let _ended = Ended(&ended);
        let indices: Vec<u64> = (0..units.len() as u64).collect();
        pool.map_prefix(&indices, |i| {
            let i = i as usize;
            let id = this_thread_clock();
            let t = clock_seconds(id);
            starts[i].store(t.to_bits(), Ordering::Relaxed);
            clocks[i].store(id, Ordering::Release);
            let finished = search(units[i], &stops[i]);
            clocks[i].store(NO_CLOCK, Ordering::Release);
            Some((clock_seconds(id) - t, finished))
        })
    })
}

impl UnitsCost {
    /// The dry run's report, as [`Cost::report`]'s: the run, the sample, the shard, the whole
    /// run, memory and output, then `cost: key=value ...` for scripts, whose `cut` counts the
    /// sampled units stopped at [`UNITS_SAMPLE_LIMIT`] (the estimate is then low).
    pub fn report(&self) -> String {
        let threads = self.threads;
        let on = if threads == 1 { "1 thread".to_string() } else { format!("{threads} threads") };
        let count = self.shard.count();
        let stopped = if self.unfinished > 0 {
            format!(
                "; {} of them stopped after {} s, counted as that (the estimate below is low)",
                self.unfinished,
                UNITS_SAMPLE_LIMIT.as_secs()
            )
        } else {
            String::new()
        };
        format!(
            "dry run:   {}, shard {}\n\
             sample:    {} of the shard's {} units, spread evenly through it, in {:.2} s on {on}: \
             {:.4} CPU s a unit on average{stopped}{}\n\
             shard:     about {} on {on} ({:.3} core-hours)\n\
             run:       {count} shards: about {:.3} core-hours in all; on {} cores at once, \
             about {}\n\
             memory:    {} MB at most in this process (the sample's workers included)\n\
             output:    about {} kB per shard (without loops; each loop found adds a row)\n\
             cost: units={} seconds={:.1} threads={threads} core_hours={:.4} memory_bytes={} \
             output_bytes={} cut={}\n",
            self.run,
            self.shard,
            self.sampled_units,
            self.shard_units,
            self.sample_seconds,
            self.unit_seconds,
            projected(threads),
            human_duration(self.seconds),
            self.core_hours,
            self.core_hours * count as f64,
            threads as u64 * count,
            human_duration(self.seconds),
            self.memory_bytes.div_ceil(1 << 20),
            self.output_bytes.div_ceil(1000),
            self.shard_units,
            self.seconds,
            self.core_hours,
            self.memory_bytes,
            self.output_bytes,
            self.unfinished,
        )
    }
}

/// What the sample line adds when the threads asked for outnumber this machine's cores: the
/// times below are for as many cores as threads, at this machine's speed per core.
fn projected(threads: usize) -> String {
    let here = cores();
    if threads <= here {
        return String::new();
    }
    format!(
        " on this machine's {here} core{}; below, {threads} cores at its speed per core",
        if here == 1 { "" } else { "s" }
    )
}

/// The CPU clock of the calling thread, which other threads may read (where there are none,
/// a wall clock).
fn this_thread_clock() -> i64 {
    #[cfg(unix)]
    {
        let mut id: libc::clockid_t = 0;
        // SAFETY: pthread_getcpuclockid only writes the clock id it is given, owned here, for
        // the calling thread, which exists.
        if unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut id) } == 0 {
            return i64::from(id);
        }
        i64::from(libc::CLOCK_MONOTONIC)
    }
    #[cfg(not(unix))]
    0
}

/// The seconds of clock `id` ([`this_thread_clock`]; 0 where it cannot be read).
fn clock_seconds(id: i64) -> f64 {
    #[cfg(unix)]
    {
        let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: clock_gettime only writes the struct it is given, which is owned here.
        if unsafe { libc::clock_gettime(id as libc::clockid_t, &mut t) } == 0 {
            return t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9;
        }
        0.0
    }
    #[cfg(not(unix))]
    {
        let _ = id;
        static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
        START.get_or_init(Instant::now).elapsed().as_secs_f64()
    }
}

/// The peak resident memory of this process, in bytes (0 where it cannot be read).
fn peak_memory() -> u64 {
    #[cfg(unix)]
    {
        // SAFETY: getrusage only writes the struct it is given, which is zeroed and owned here.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } == 0 {
            // Kilobytes on Linux.
            return u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::sync::Mutex;
    use std::sync::atomic::Ordering;
    use std::time::Duration;

    use bataille_search::Shard;
    use bataille_search::pool::Pool;

    use super::sample_units_within;

    /// The units sampled are the shard's own, spread through it; quick units are all sampled;
    /// units that never end are each stopped at the limit and make the estimate a low one.
    #[test]
    fn a_units_sample_is_the_shards_and_says_when_it_is_low() {
        let pool = Pool::new(2).unwrap();
        let shard = Shard::new(2, 3).unwrap();
        let seen = Mutex::new(BTreeSet::new());
        let limit = Duration::from_secs(60);
        let cost = sample_units_within(limit, "quick".into(), &pool, shard, 100, 10, |u, _| {
            seen.lock().unwrap().insert(u);
            true
        });
        let seen = seen.into_inner().unwrap();
        assert_eq!(seen, (0..100).filter(|u| u % 3 == 1).collect::<BTreeSet<u64>>());
        assert_eq!((cost.sampled_units, cost.shard_units, cost.unfinished), (33, 33, 0));
        assert!(cost.report().ends_with(" cut=0\n"), "{}", cost.report());
        // Units that never end: each is stopped at the limit; the first round is one unit per
        // thread, each in the middle of its half of the shard, and the rounds double until the
        // sample holds 32 units and has lasted a second.
        let seen = Mutex::new(BTreeSet::new());
        let limit = Duration::from_millis(50);
        let cost = sample_units_within(
            limit,
            "endless".into(),
            &pool,
            Shard::WHOLE,
            1 << 20,
            10,
            |u, stop| {
                seen.lock().unwrap().insert(u);
                while !stop.load(Ordering::Relaxed) {
                    std::hint::spin_loop();
                }
                false
            },
        );
        let seen = seen.into_inner().unwrap();
        assert!(seen.contains(&(1 << 18)) && seen.contains(&(3 << 18)), "{seen:?}");
        assert_eq!((cost.sampled_units, cost.unfinished), (32, 32));
        assert!(cost.unit_seconds > 0.0, "{}", cost.unit_seconds);
        assert!(cost.report().contains("is low") && cost.report().ends_with(" cut=32\n"));
    }
}
