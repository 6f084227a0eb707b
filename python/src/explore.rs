//! The search harness from Python: every deal of a deck, or seeded random ones, played on all
//! cores; the result is the command line's tables (`summary.csv`, `histograms.csv`,
//! `records.csv`, `cycles.csv`, and `state.txt`) as text, which the Python half reads into
//! DataFrames.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use bataille_engine::DeckSpec;
use bataille_search::{Bataille, Mode, Options, Plan, Progress, Shard, explore as run, report};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::Interrupted;
use crate::play::{limits, methods};
use crate::stop::{interruptible_with, pool};

/// The most games each worker keeps per measure (the command line's `--top` limit).
const MAX_TOP: u64 = 10_000;
/// The fewest loops kept by `max_cycles` (the command line's limit).
const MIN_MAX_CYCLES: u64 = 1_000;

/// Counts the deals played, for the progress callback.
#[derive(Debug, Default)]
struct Counter {
    deals: AtomicU64,
    total: AtomicU64,
}

impl Progress for Counter {
    fn start(&self, _pending: u64, deals: u128) {
        self.total.store(u64::try_from(deals).unwrap_or(u64::MAX), Ordering::Relaxed);
    }

    fn unit_done(&self, deals: u64) {
        self.deals.fetch_add(deals, Ordering::Relaxed);
    }
}

/// Explores the deals of a deck: see `bataille.explore`.
#[pyfunction]
#[pyo3(signature = (colours, values, method="natural", method2=None, *, random=None, seed=0,
    threads=0, top=10, max_tricks=None, shard=None, max_cycles=None, progress=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn explore<'py>(
    py: Python<'py>,
    colours: usize,
    values: usize,
    method: &str,
    method2: Option<&str>,
    random: Option<u64>,
    seed: u64,
    threads: usize,
    top: u64,
    max_tricks: Option<u64>,
    shard: Option<(u64, u64)>,
    max_cycles: Option<u64>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let spec = DeckSpec::new(colours, values).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let methods = methods(method, method2)?;
    let game = Bataille::new(spec, methods, limits(methods, max_tricks)?);
    let mode = match random {
        Some(0) => return Err(PyValueError::new_err("random must be at least 1 deal, got 0")),
        Some(deals) => Mode::Random { deals },
        None => Mode::Exhaustive,
    };
    if top > MAX_TOP {
        return Err(PyValueError::new_err(format!(
            "top {top} is more than the limit of {MAX_TOP} (the longest games kept by every \
             worker)"
        )));
    }
    if let Some(k) = max_cycles.filter(|&k| k < MIN_MAX_CYCLES) {
        return Err(PyValueError::new_err(format!(
            "max_cycles: expected at least {MIN_MAX_CYCLES} loops kept, got {k}: the summary \
             estimates how many distinct loops there are from the kept ones, which needs \
             {MIN_MAX_CYCLES}"
        )));
    }
    let plan = Plan::new(&game, mode, seed, top as usize)
        .map_err(|e| PyValueError::new_err(e.to_string()))?
        .keeping_cycles(max_cycles.map_or(0, |k| usize::try_from(k).unwrap_or(usize::MAX)));
    let shard = match shard {
        None => Shard::WHOLE,
        Some((k, n)) => Shard::new(k, n).ok_or_else(|| {
            PyValueError::new_err(format!("shard ({k}, {n}): expected 1 <= k <= n"))
        })?,
    };
    let units = plan.key().units;
    if shard.count() > units {
        return Err(PyValueError::new_err(format!(
            "shard {}/{}: the run has {units} work units, fewer than {} shards (some shards \
             would have nothing to do)",
            shard.index() + 1,
            shard.count(),
            shard.count()
        )));
    }
    // The pool's limits, checked here: the harness builds its own pool of that size.
    drop(pool(threads)?);
    let options = Options { threads, ..Options::default() };
    let stop = AtomicBool::new(false);
    let counter = Counter::default();
    let tick = |py: Python<'_>| -> PyResult<()> {
        if let Some(callback) = &progress {
            let done = counter.deals.load(Ordering::Relaxed);
            callback.call1((done, counter.total.load(Ordering::Relaxed)))?;
        }
        let _ = py;
        Ok(())
    };
    let kept = "explore stopped before the end: nothing was kept (the run had no checkpoint)";
    let ended = interruptible_with(
        py,
        &stop,
        kept,
        || run(&game, &plan, shard, None, &options, &counter, &stop),
        tick,
    )?
    .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    if ended.interrupted {
        return Err(Interrupted::new_err(kept));
    }
    let state = &ended.state;
    let cycles = report::cycle_rows(&game, state);
    let text = |write: &dyn Fn(&mut Vec<u8>) -> csv::Result<()>| -> PyResult<String> {
        let mut bytes = Vec::new();
        write(&mut bytes).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        String::from_utf8(bytes).map_err(|e| PyRuntimeError::new_err(e.to_string()))
    };
    let out = PyDict::new(py);
    out.set_item("summary", text(&|w| report::write_summary(&game, state, plan.deals(), w))?)?;
    out.set_item("histograms", text(&|w| report::write_histograms(state, w))?)?;
    out.set_item("records", text(&|w| report::write_records(&game, state, w))?)?;
    out.set_item("cycles", text(&|w| report::write_cycles(&cycles, w))?)?;
    out.set_item("state", state.encode())?;
    out.set_item("text", report::human_summary(&game, state, &cycles))?;
    out.set_item("deals_played", ended.deals_played)?;
    Ok(out)
}
