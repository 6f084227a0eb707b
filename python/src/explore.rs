//! The search harness from Python: every deal of a deck, or seeded random ones, played on all
//! cores; the result is the command line's tables (`summary.csv`, `histograms.csv`,
//! `records.csv`, `cycles.csv`, and `state.txt`) as text, which the Python half reads into
//! DataFrames.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use bataille_cycles::hunt::{PositionHunt, Sampler};
use bataille_engine::{DeckSpec, Method, Methods, Position};
use bataille_runs::cycles::{hunt_files, read_seeds};
use bataille_runs::files::Words;
use bataille_runs::provenance;
use bataille_runs::search::SearchRun;
use bataille_search::{Bataille, DealGame, Mode, Options, Plan, Progress, Shard, report};
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::Interrupted;
use crate::play::{limits, methods};
use crate::stop::{cores, interrupted, pool, until_interrupted};

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

/// Where `explore` writes: the output directory, its checkpoint, whether to resume or replace.
#[derive(Debug, Default)]
struct Files {
    out: Option<PathBuf>,
    checkpoint: Option<PathBuf>,
    checkpoint_every: u64,
    resume: bool,
    replace: bool,
}

/// Explores the deals of a deck: see `bataille.explore`.
#[pyfunction]
#[pyo3(signature = (colours, values, method="natural", method2=None, *, random=None, seed=0,
    threads=0, top=10, max_tricks=None, shard=None, max_cycles=None, out=None, checkpoint=None,
    checkpoint_every=60, resume=false, replace=false, progress=None, keep=None, sampler=None,
    seeds=None))]
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
    out: Option<PathBuf>,
    checkpoint: Option<PathBuf>,
    checkpoint_every: u64,
    resume: bool,
    replace: bool,
    progress: Option<Bound<'py, PyAny>>,
    keep: Option<usize>,
    sampler: Option<&str>,
    seeds: Option<PathBuf>,
) -> PyResult<Bound<'py, PyDict>> {
    let spec = DeckSpec::new(colours, values).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let methods = methods(method, method2)?;
    // A hunt (`keep`: the deals kept per loop) is an exploration that keeps the deals of each
    // loop, as `bataille hunt` is.
    if keep.is_some() {
        for m in [methods.first, methods.second] {
            if m == Method::Random {
                return Err(PyValueError::new_err(format!(
                    "hunt does not apply to the {} stacking method: a repeated position is not \
                     a loop when tricks are stacked at random (use explore for its statistics)",
                    m.name()
                )));
            }
        }
    }
    if keep == Some(0) {
        return Err(PyValueError::new_err("keep must be at least 1 deal per loop, got 0"));
    }
    // Positions of every split (`sampler`): the position hunt of `bataille cycles hunt`.
    let hunt = match sampler {
        None => None,
        Some(name) => {
            if random.is_none() {
                return Err(PyValueError::new_err(
                    "a position hunt draws positions at random (random=N): every position of a \
                     deck is the census's work (bataille.cycles.census)",
                ));
            }
            let seeded = |seeds: &Option<PathBuf>| -> PyResult<Vec<Position>> {
                let path = seeds.as_ref().ok_or_else(|| {
                    PyValueError::new_err(format!("the {name} sampler needs seeds=FILE"))
                })?;
                read_seeds(path).map_err(|e| PyOSError::new_err(e.chain()))
            };
            let sampler = match name {
                "uniform" | "piles" if seeds.is_some() => {
                    return Err(PyValueError::new_err(
                        "seeds= is for the insert and mutate samplers",
                    ));
                }
                "uniform" => Sampler::Uniform,
                "piles" => Sampler::Piles,
                "insert" => Sampler::Insert(seeded(&seeds)?),
                "mutate" => Sampler::Mutate(seeded(&seeds)?),
                other => {
                    return Err(PyValueError::new_err(format!(
                        "sampler {other:?}: expected uniform, piles, insert or mutate"
                    )));
                }
            };
            let game = PositionHunt::new(spec, methods, sampler)
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            Some((game, name))
        }
    };
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
    if out.is_none() && (checkpoint.is_some() || resume || replace) {
        return Err(PyValueError::new_err(
            "checkpoint=, resume= and replace= need out=, the output directory of the run",
        ));
    }
    if resume && checkpoint.is_none() {
        return Err(PyValueError::new_err("resume=True needs checkpoint=, the file to resume"));
    }
    let asked = Asked {
        mode,
        seed,
        top,
        keep,
        max_cycles,
        shard,
        threads,
        progress,
        command: CommandOf {
            keep,
            colours,
            values,
            methods,
            random,
            seed,
            threads,
            top,
            max_tricks,
            shard: Shard::WHOLE,
            max_cycles,
            sampler: hunt.as_ref().map(|h| (h.1.to_string(), seeds.clone())),
            files: Files {
                out: out.clone(),
                checkpoint: checkpoint.clone(),
                checkpoint_every,
                resume,
                replace,
            },
        },
    };
    match &hunt {
        Some((game, _)) => search(py, game, asked, hunt_files(game)),
        None => search(py, &game, asked, Vec::new()),
    }
}

/// What an `explore` call asked for, checked, whatever its game.
struct Asked<'py> {
    mode: Mode,
    seed: u64,
    top: u64,
    keep: Option<usize>,
    max_cycles: Option<u64>,
    shard: Option<(u64, u64)>,
    threads: usize,
    progress: Option<Bound<'py, PyAny>>,
    command: CommandOf,
}

/// Runs the search of `asked` on `game`, writing `extra` files beside the results.
fn search<'py, G: DealGame>(
    py: Python<'py>,
    game: &G,
    asked: Asked<'py>,
    extra: Vec<(&'static str, Vec<u8>)>,
) -> PyResult<Bound<'py, PyDict>> {
    let Asked { mode, seed, top, keep, max_cycles, shard, threads, progress, mut command } = asked;
    let files = &command.files;
    let (out, checkpoint, checkpoint_every) =
        (files.out.clone(), files.checkpoint.clone(), files.checkpoint_every);
    let (resume, replace) = (files.resume, files.replace);
    let plan = Plan::new(game, mode, seed, top as usize)
        .map_err(|e| PyValueError::new_err(e.to_string()))?
        .keeping_loop_deals(keep.unwrap_or(0))
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
    command.shard = shard;
    let cli = self::command(&command);
    let run = SearchRun {
        game,
        plan: &plan,
        shard,
        options: Options {
            threads,
            checkpoint_every: Duration::from_secs(checkpoint_every.max(1)),
            ..Options::default()
        },
        checkpoint,
        resume,
        out: out.clone().unwrap_or_default(),
        replace,
        words: Words::PYTHON,
    };
    let failed = |e: bataille_runs::Error| PyOSError::new_err(e.chain());
    let resumed = run.resume_from().map_err(failed)?;
    let _outputs = match &out {
        Some(_) => Some(run.prepare().map_err(failed)?),
        None => None,
    };
    let stop = AtomicBool::new(false);
    let counter = Counter::default();
    let tick = |_: Python<'_>| -> PyResult<()> {
        if let Some(callback) = &progress {
            let done = counter.deals.load(Ordering::Relaxed);
            callback.call1((done, counter.total.load(Ordering::Relaxed)))?;
        }
        Ok(())
    };
    let (finished, signal) =
        until_interrupted(py, &stop, || run.explore(resumed, &counter, &stop), tick)?;
    let finished = finished.map_err(failed)?;
    let threads_used = if threads == 0 { cores() } else { threads };
    let summary = match &out {
        Some(_) => run.write(&finished, cli, threads_used, &extra).map_err(failed)?,
        None => String::new(),
    };
    if signal.is_some() || finished.ended.interrupted {
        let name = match (&command.sampler, keep) {
            (Some(_), _) => "cycles.hunt",
            (None, Some(_)) => "hunt",
            (None, None) => "explore",
        };
        let kept = match (&out, &run.checkpoint) {
            (Some(out), Some(ckpt)) => format!(
                "{name} stopped before the end: the partial results are in {}, and the \
                 checkpoint {} holds every unit played (call again with resume=True)",
                out.display(),
                ckpt.display()
            ),
            (Some(out), None) => format!(
                "{name} stopped before the end: the partial results are in {} (no \
                 checkpoint=: a new run starts over)",
                out.display()
            ),
            _ => format!(
                "{name} stopped before the end: nothing was kept (no out= and no checkpoint=)"
            ),
        };
        return Err(match signal {
            Some(e) => interrupted(py, e, &kept),
            None => Interrupted::new_err(kept),
        });
    }
    let state = &finished.ended.state;
    let cycles = report::cycle_rows(game, state);
    let text = |write: &dyn Fn(&mut Vec<u8>) -> csv::Result<()>| -> PyResult<String> {
        let mut bytes = Vec::new();
        write(&mut bytes).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        String::from_utf8(bytes).map_err(|e| PyRuntimeError::new_err(e.to_string()))
    };
    let result = PyDict::new(py);
    result.set_item("summary", text(&|w| report::write_summary(game, state, plan.deals(), w))?)?;
    result.set_item("histograms", text(&|w| report::write_histograms(state, w))?)?;
    result.set_item("records", text(&|w| report::write_records(game, state, w))?)?;
    result.set_item("cycles", text(&|w| report::write_cycles(&cycles, w))?)?;
    if state.key.loop_deals > 0 {
        result.set_item("loops", text(&|w| report::write_loops(game, state, &cycles, w))?)?;
    }
    result.set_item("state", state.encode())?;
    let text =
        if summary.is_empty() { report::human_summary(game, state, &cycles) } else { summary };
    result.set_item("text", text)?;
    result.set_item("deals_played", finished.ended.deals_played)?;
    Ok(result)
}

/// What an `explore` call asked for, for the command line that does the same.
struct CommandOf {
    keep: Option<usize>,
    colours: usize,
    values: usize,
    methods: Methods,
    random: Option<u64>,
    seed: u64,
    threads: usize,
    top: u64,
    max_tricks: Option<u64>,
    shard: Shard,
    max_cycles: Option<u64>,
    /// A position hunt's sampler, and its seeds file.
    sampler: Option<(String, Option<PathBuf>)>,
    files: Files,
}

/// The `bataille explore` command that makes the same files, for `metadata.csv`: the options
/// that differ from the defaults, paths without this machine's (see
/// [`bataille_runs::provenance`]).
fn command(c: &CommandOf) -> String {
    let mut args: Vec<String> = Vec::new();
    let mut add = |words: &[&str]| args.extend(words.iter().map(|w| w.to_string()));
    let name = if c.keep.is_some() { "hunt" } else { "explore" };
    match &c.sampler {
        Some(_) => add(&["cycles", "hunt"]),
        None => add(&[name]),
    }
    add(&["-c", &c.colours.to_string(), "-v", &c.values.to_string()]);
    add(&["-m", c.methods.first.name()]);
    if c.methods.second != c.methods.first {
        add(&["--method2", c.methods.second.name()]);
    }
    match c.random {
        Some(n) => add(&["--random", &n.to_string(), "--seed", &c.seed.to_string()]),
        None if c.seed != 0 => add(&["--exhaustive", "--seed", &c.seed.to_string()]),
        None => add(&["--exhaustive"]),
    }
    if let Some(max) = c.max_tricks {
        add(&["--max-tricks", &max.to_string()]);
    }
    // (A position hunt keeps 1,000 positions per loop unless told, a hunt a million deals.)
    let default_keep = if c.sampler.is_some() { 1_000 } else { 1_000_000 };
    if let Some(keep) = c.keep.filter(|&k| k != default_keep) {
        add(&["--keep", &keep.to_string()]);
    }
    if let Some((sampler, seeds)) = &c.sampler {
        if sampler != "uniform" {
            add(&["--sampler", sampler]);
        }
        if let Some(seeds) = seeds {
            add(&["--seeds", &seeds.to_string_lossy()]);
        }
    }
    if c.top != 10 {
        add(&["--top", &c.top.to_string()]);
    }
    if let Some(k) = c.max_cycles {
        add(&["--max-cycles", &k.to_string()]);
    }
    if c.shard != Shard::WHOLE {
        add(&["--shard", &c.shard.to_string()]);
    }
    add(&["--threads", &c.threads.to_string()]);
    let path = |p: &PathBuf| p.to_string_lossy().into_owned();
    if let Some(ckpt) = &c.files.checkpoint {
        add(&["--checkpoint", &path(ckpt)]);
        if c.files.checkpoint_every != 60 {
            add(&["--checkpoint-every", &c.files.checkpoint_every.to_string()]);
        }
        if c.files.resume {
            add(&["--resume"]);
        }
    }
    if let Some(out) = &c.files.out {
        add(&["--out", &path(out)]);
    }
    if c.files.replace {
        add(&["--replace"]);
    }
    let cwd = std::env::current_dir().ok();
    provenance::command(args, cwd.as_deref(), false)
}
