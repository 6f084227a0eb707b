//! A census of every loop of a deck (`bataille_cycles::census`) run into an output directory,
//! in the steps a front end takes: the run checked, its outputs locked and its state read (a
//! checkpoint continued, or the checkpoints of every shard merged) by [`Census::prepare`]; its
//! units searched with a checkpoint saved after batches ([`Census::search`]); then the deals
//! reaching each loop counted, `cycles.csv`, `summary.csv`, `state.txt` and `metadata.csv`
//! written all at once, and the report said ([`Census::finish`]). Between the steps the front
//! end does what is its own: the Ctrl-C handler, a progress display.
//!
//! A census stopped and resumed writes the files of an uninterrupted one: its state counts
//! whole units only, and the checkpoint is replaced atomically.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use bataille_cycles::census::report::{LoopRow, cycles_csv, summary};
use bataille_cycles::census::{self, CensusSpec, CensusState};
use bataille_engine::backward::Bounds;
use bataille_search::Shard;
use bataille_search::pool::Pool;

use crate::Error;
use crate::cost::{UnitsCost, sample_units};
use crate::cycles::check_walk_memory;
use crate::error::{Context, Result, bail};
use crate::files::{
    Checkpointer, MAX_STATE_BYTES, OutputFiles, Outputs, Words, check_outside_outputs,
    prepare_outputs, read_bounded,
};
use crate::progress::{MAX_DAYS, Steps, human_duration};
use crate::say::Say;

/// A census as the caller asked for it.
#[derive(Debug, Clone)]
pub struct CensusConfig {
    /// The deck and method.
    pub spec: CensusSpec,
    /// The part of the units to search.
    pub shard: Shard,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Units searched in parallel in a batch (the checkpoint is saved after batches:
    /// [`Checkpointer`]).
    pub batch: usize,
    /// Positions visited at most in the tree of each loop, to count the deals that reach it.
    pub budget: u64,
    /// Where the state is saved (after batches: [`Checkpointer`]), and whether the run
    /// continues it.
    pub checkpoint: Option<PathBuf>,
    pub resume: bool,
    /// The complete checkpoints of every shard, to merge instead of searching (empty: none).
    pub merge: Vec<PathBuf>,
    /// The output directory, and whether its results may be replaced.
    pub out: PathBuf,
    pub replace: bool,
    /// Whether a census out of reach of [`MAX_DAYS`] days may start.
    pub no_estimate_limit: bool,
    /// The names of these options in refusals.
    pub words: Words,
}

/// A census checked, its outputs locked (until it is dropped) and its state read.
#[derive(Debug)]
pub struct Census {
    config: CensusConfig,
    pool: Pool,
    state: CensusState,
    /// When the work of this invocation started.
    started: Instant,
    _outputs: Outputs,
}

/// How a census ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CensusEnd {
    /// Every unit of the shard was searched.
    pub complete: bool,
    /// A stop request cut the counting of some loop's deals short.
    pub counting_stopped: bool,
    /// The loops found.
    pub loops: usize,
}

impl CensusEnd {
    /// Whether the run was stopped before its end (its results partial or its counts lower
    /// bounds): a resumed run completes them.
    pub fn stopped(&self) -> bool {
        !self.complete || self.counting_stopped
    }
}

impl Census {
    /// Checks the run, locks its outputs and reads its state: the checkpoint it continues, the
    /// shards' checkpoints it merges (each kept outside the output directory, whose
    /// `state.txt` the merged state replaces), or a state with nothing done. Refused: more
    /// shards than units, a budget whose walks could hold too much memory
    /// ([`super::check_walk_memory`]), and, unless the limit is lifted, a census whose units
    /// left would take more than [`MAX_DAYS`] days even at 15 times the fastest rate measured.
    pub fn prepare(config: CensusConfig) -> Result<Census> {
        let (spec, shard, words) = (config.spec, config.shard, &config.words);
        check_run(spec, shard, config.budget, words)?;
        let pool = Pool::new(config.threads).map_err(Error::new)?;
        // (A shard's own state.txt replaced by the merged one could not be merged again.)
        for part in &config.merge {
            check_outside_outputs(words.merge, part, &config.out, words)?;
        }
        let own = |dir: &Path| {
            read_bounded(&dir.join("state.txt"), MAX_STATE_BYTES)
                .ok()
                .flatten()
                .is_some_and(|t| CensusState::from_text(&t, spec, shard).is_ok())
        };
        let outputs = prepare_outputs(
            config.checkpoint.as_deref(),
            config.resume,
            &config.out,
            config.replace,
            &own,
            words,
        )?;
        let merging = !config.merge.is_empty();
        let state = if merging {
            let parts: Vec<CensusState> =
                config.merge.iter().map(|p| read_state(p, spec, None)).collect::<Result<_>>()?;
            CensusState::merge(&parts).map_err(Error::new)?
        } else {
            match (&config.checkpoint, config.resume) {
                (Some(path), true) => read_state(path, spec, Some(shard))?,
                _ => CensusState::new(spec, shard),
            }
        };
        if !merging && !config.no_estimate_limit {
            // (Refused here, the output directory is removed again if this run created it.)
            refuse_out_of_reach(&state, pool.threads(), words)?;
        }
        Ok(Census { config, pool, state, started: Instant::now(), _outputs: outputs })
    }

    /// The state so far: the units of the shard ([`CensusState::shard_units`]) and those done.
    pub fn state(&self) -> &CensusState {
        &self.state
    }

    /// Searches the pending units, saving the checkpoint after batches ([`Checkpointer`]; and
    /// first, the merged state of a merge) and telling `progress` the units done and the loops
    /// found;
    /// `stop` ends the search after the units under way. A checkpoint that cannot be saved
    /// ends it in an error, once the units under way are done.
    pub fn search(&mut self, stop: &AtomicBool, progress: &mut dyn FnMut(Steps<'_>)) -> Result<()> {
        self.started = Instant::now();
        let from = self.state.done;
        let total = self.state.shard_units();
        let mut checkpoint = Checkpointer::new(self.config.checkpoint.as_deref());
        if !self.config.merge.is_empty() {
            checkpoint.save(self.state.done, || self.state.to_text());
        }
        census::run(&mut self.state, &self.pool, self.config.batch, stop, &mut |s| {
            let what = format!("{} loops, {} candidates", s.found.len(), s.candidates);
            progress(Steps { done: s.done, from, total, what: &what });
            checkpoint.batch(s.done, || s.to_text());
        });
        checkpoint.finish(self.state.done, || self.state.to_text())
    }

    /// Counts the deals that reach each loop (a walk of its tree each, which `stop` cuts short
    /// within milliseconds, the count then a lower bound), writes the output directory all at
    /// once (`metadata.csv` records `command`) and says the report: the summary, the first
    /// loops, and how to complete a run that was stopped.
    pub fn finish(self, command: String, stop: &AtomicBool, say: &dyn Say) -> Result<CensusEnd> {
        let Census { config, pool, state, started, _outputs } = self;
        let spec = config.spec;
        let bounds = Bounds::budget(config.budget);
        let rows: Vec<LoopRow> =
            state.loops().iter().map(|f| LoopRow::new(spec, f, bounds, stop)).collect();
        let counting_stopped = rows.iter().any(|r| r.walked.stopped);
        let elapsed = started.elapsed().as_secs_f64();
        let complete = state.is_complete();
        let mut files = OutputFiles::new(&config.out);
        files.add("cycles.csv", cycles_csv(&rows).into_bytes());
        let summary = summary(spec, &state, &rows);
        files.add_key_values("summary.csv", &summary);
        files.add("state.txt", state.to_text().into_bytes());
        files.add_key_values(
            "metadata.csv",
            &[
                ("command", command),
                ("version", env!("CARGO_PKG_VERSION").to_string()),
                ("threads", pool.threads().to_string()),
                ("shard", config.shard.to_string()),
                ("resumed", config.resume.to_string()),
                ("elapsed_s", format!("{elapsed:.3}")),
            ],
        );
        files.commit()?;
        for (k, v) in &summary {
            say.line(&format!("{:<22} {v}", format!("{}:", k.replace('_', " "))));
        }
        for r in rows.iter().take(20) {
            say.line(&format!(
                "  cycle {}: period {} tricks ({} cards), {}first hand {} to {}{}, {}",
                r.id,
                r.found.period_tricks,
                r.found.period_cards,
                if r.found.self_twin { "its own mirror, " } else { "" },
                r.found.first.len(),
                r.found.first_max,
                if r.aligned.is_some() { ", aligned" } else { "" },
                r.deals_text(),
            ));
            say.line(&format!("    {}", r.found.position()));
        }
        if rows.len() > 20 {
            say.line(&format!("  ... {} more in cycles.csv", rows.len() - 20));
        }
        say.line(&format!("time:                  {elapsed:.1} s on {} threads", pool.threads()));
        say.line(&format!("results:               {}", config.out.display()));
        let words = &config.words;
        if complete && counting_stopped {
            say.line(&format!(
                "stopped while counting the deals that reach each loop: the census is complete, \
                 but a count cut short is written as a lower bound (deals_complete false); run \
                 again{} for the full counts",
                config.checkpoint.as_ref().map_or(String::new(), |p| format!(
                    " with {} (checkpoint {})",
                    words.resume,
                    p.display()
                ))
            ));
        } else if !complete {
            say.line(&match &config.checkpoint {
                Some(path) => format!(
                    "stopped before the end: continue with {} (checkpoint {})",
                    words.resume,
                    path.display()
                ),
                None => format!(
                    "stopped before the end (no {}: the results are partial)",
                    words.checkpoint
                ),
            });
        }
        Ok(CensusEnd { complete, counting_stopped, loops: rows.len() })
    }
}

/// Refuses more shards than units, and a budget whose walks could hold too much memory.
fn check_run(spec: CensusSpec, shard: Shard, budget: u64, words: &Words) -> Result<()> {
    let units = spec.units().count();
    if shard.count() > units.max(1) {
        bail!(
            "{} {shard}: the census of {spec} has {units} units, fewer than {} shards",
            words.shard,
            shard.count()
        );
    }
    check_walk_memory(budget, spec.deck().cards(), words)
}

/// What `shard` of the census of `spec` would cost on `threads` threads (0: one per core),
/// measured on a sample of its units ([`sample_units`]); refused as [`Census::prepare`]
/// refuses the run. Nothing is written. The counting of each loop's deals, after the search,
/// is not in the estimate (seconds for most loops; up to the walk `budget`'s for a loop
/// reached by very many positions).
pub fn dry_run(
    spec: CensusSpec,
    shard: Shard,
    threads: usize,
    budget: u64,
    words: &Words,
) -> Result<UnitsCost> {
    check_run(spec, shard, budget, words)?;
    let pool = Pool::new(threads).map_err(Error::new)?;
    let state = CensusState::new(spec, shard);
    // The files of a shard that found no loop: the state, the summary, the header.
    let output = state.to_text().len() + 600;
    Ok(sample_units(format!("census of {spec}"), &pool, shard, state.units, output, |u, stop| {
        census::search_unit(spec, u, stop).is_some()
    }))
}

/// The census state saved at `path`, checked against `spec` and `shard` (read from the file
/// when `None`, for a merge).
fn read_state(path: &Path, spec: CensusSpec, shard: Option<Shard>) -> Result<CensusState> {
    let text = read_bounded(path, MAX_STATE_BYTES)?.with_context(|| {
        format!("cannot read the checkpoint {}: it does not exist", path.display())
    })?;
    // The shard is read from the file (for a merge), then checked with the rest of its header.
    let shard = match shard {
        Some(s) => s,
        None => text
            .lines()
            .find_map(|l| l.strip_prefix("shard "))
            .and_then(|s| s.trim().parse().ok())
            .with_context(|| {
                format!("{} is not a census checkpoint (no shard line)", path.display())
            })?,
    };
    CensusState::from_text(&text, spec, shard)
        .with_context(|| format!("cannot use {}", path.display()))
}

/// A rate of play the census is not expected to reach (positions per CPU-second), for the bound
/// below: 10^12, 15 times the fastest measured, C=4 V=6 optimized (8.1·10^16 positions in about
/// 1.2·10^6 CPU-seconds, from three shards; natural took 3.3·10^6), which was itself 5 times
/// the rate of C=4 V=5 optimized (6.4·10^12 in 476): the census plays a smaller share of the
/// positions as the deck grows, and this leaves room for more than one value of that growth.
const CENSUS_POSITIONS_PER_CPU_S: f64 = 1e12;

/// Refuses a census whose units left (their share of the positions) would take more than
/// [`MAX_DAYS`] days on `threads` even at [`CENSUS_POSITIONS_PER_CPU_S`]: only a deck far out
/// of reach is refused.
fn refuse_out_of_reach(state: &CensusState, threads: usize, words: &Words) -> Result<()> {
    let spec = state.spec;
    let deck = spec.deck();
    let (n, c) = (deck.cards(), deck.colours());
    let factorial = |k: usize| (1..=k).map(|i| i as f64).product::<f64>();
    // (N + 1) N! / (C!)^V positions, every split counted.
    let positions = (n + 1) as f64 * factorial(n) / factorial(c).powi(deck.values() as i32);
    let left = state.shard_units().saturating_sub(state.done) as f64 / state.units.max(1) as f64;
    let days = positions * left / CENSUS_POSITIONS_PER_CPU_S / threads.max(1) as f64 / 86_400.0;
    if days > MAX_DAYS {
        bail!(
            "the census of {spec}{} has about {:.1e} positions left: even at {:.0e} a CPU-second \
             (15 times the fastest rate measured, C=4 V=6 optimized) it would take more than {} \
             on {threads} thread{} (pass {} to run it anyway)",
            if state.shard == Shard::WHOLE {
                String::new()
            } else {
                format!(", shard {},", state.shard)
            },
            positions * left,
            CENSUS_POSITIONS_PER_CPU_S,
            human_duration(days * 86_400.0),
            if threads == 1 { "" } else { "s" },
            words.no_estimate_limit,
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use bataille_cycles::census::{CensusSpec, CensusState};
    use bataille_engine::{DeckSpec, Method};
    use bataille_search::Shard;

    use super::refuse_out_of_reach;
    use crate::files::Words;

    fn census(c: usize, v: usize, method: Method, shard: Shard) -> CensusState {
        CensusState::new(CensusSpec::new(DeckSpec::new(c, v).unwrap(), method).unwrap(), shard)
    }

    #[test]
    fn only_a_census_far_out_of_reach_is_refused() {
        let refuse =
            |state: &CensusState, threads| refuse_out_of_reach(state, threads, &Words::CLI);
        // C=4 V=6 (920 CPU-hours natural, measured on shards) runs on one thread.
        assert!(refuse(&census(4, 6, Method::Natural, Shard::WHOLE), 1).is_ok());
        // C=4 V=7, even optimized and on 64 threads, is refused; a thousandth of it is not.
        let c4v7 = census(4, 7, Method::Optimized, Shard::WHOLE);
        let e = refuse(&c4v7, 64).unwrap_err().to_string();
        assert!(e.contains("C=4 V=7 optimized") && e.contains("--no-estimate-limit"), "{e}");
        let part = census(4, 7, Method::Optimized, "1/1000".parse().unwrap());
        assert!(refuse(&part, 64).is_ok());
        // What is left counts (a state resumed): one unit of the 52-card census is still out
        // of reach, none is not.
        let mut c4v13 = census(4, 13, Method::Natural, Shard::WHOLE);
        assert!(refuse(&c4v13, 2).is_err());
        c4v13.done = c4v13.shard_units() - 1;
        assert!(refuse(&c4v13, 2).is_err());
        c4v13.done = c4v13.shard_units();
        assert!(refuse(&c4v13, 2).is_ok());
    }
}
