//! Loops from Python: the census of every loop of a small deck and the tree of a position's
//! ancestors (`bataille_runs::cycles`), and loops decided by the SAT solver (`cycles solve`,
//! `aligned solve`, by `bataille_runs::solve`), into the command line's output directories,
//! which the Python half reads into DataFrames.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use bataille_cycles::ancestors::AncestorsError;
use bataille_cycles::census::{CensusError, CensusSpec};
use bataille_engine::DeckSpec;
use bataille_engine::backward::Bounds;
use bataille_runs::cycles::ancestors::{Ancestors, AncestorsConfig, Listing};
use bataille_runs::cycles::census::{Census, CensusConfig};
use bataille_runs::files::Words;
use bataille_runs::progress::Steps;
use bataille_runs::solve::SolverRun;
use bataille_runs::solve::aligned::{AlignedCycles, solve_aligned_cycles};
use bataille_runs::solve::loops::{Conclusion, Loops, merge_parts, solve_loops};
use bataille_runs::{Say, provenance};
use bataille_sat::{AlignedError, Config, Counted, QuestionError};
use bataille_search::Shard;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::stop::{interrupted, pool, until_interrupted};

/// The lines a run says (its report, and its notes), kept until the interpreter's thread hands
/// them on, or until the run's report is read whole.
#[derive(Debug, Default)]
pub(crate) struct Lines {
    /// Each line, and whether it is a note (standard error on the command line).
    said: Mutex<Vec<(bool, String)>>,
    /// How many lines [`Lines::take`] has handed on.
    taken: Mutex<usize>,
}

impl Say for Lines {
    fn line(&self, text: &str) {
        self.lock().push((false, text.to_string()));
    }

    fn note(&self, text: &str) {
        self.lock().push((true, text.to_string()));
    }
}

impl Lines {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(bool, String)>> {
        self.said.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The lines and notes said since the last call.
    fn take(&self) -> Vec<String> {
        let said = self.lock();
        let mut taken = self.taken.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let new = said[*taken..].iter().map(|l| l.1.clone()).collect();
        *taken = said.len();
        new
    }

    /// The report: every line said, notes left out, as the command line prints it on standard
    /// output.
    pub(crate) fn report(&self) -> String {
        let said = self.lock();
        let lines: Vec<&str> = said.iter().filter(|l| !l.0).map(|l| l.1.as_str()).collect();
        lines.join("\n")
    }
}

/// The options of a solver run, as the keyword arguments give them.
struct RunOf {
    out: PathBuf,
    time_limit: Option<f64>,
    keep: bool,
    resume: bool,
    replace: bool,
    solver_config: String,
}

impl RunOf {
    /// The flags of the command line that make the same files.
    fn flags(&self, args: &mut Vec<String>) {
        if let Some(t) = self.time_limit {
            args.extend(["--time-limit".to_string(), t.to_string()]);
        }
        if self.keep {
            args.push("--keep".to_string());
        }
        if self.solver_config != "default" {
            args.extend(["--solver-config".to_string(), self.solver_config.clone()]);
        }
        args.extend(["--out".to_string(), self.out.to_string_lossy().into_owned()]);
        if self.resume {
            args.push("--resume".to_string());
        }
        if self.replace {
            args.push("--replace".to_string());
        }
    }

    /// Runs `solve` on a [`SolverRun`] of these options, its command `args` (the command line's
    /// words), with the interpreter released; each line said goes to `echo` (a callable) as it
    /// comes. Ctrl-C stops the solver: the periods decided are kept, and [`crate::Interrupted`]
    /// says so.
    fn run<'py>(
        &self,
        py: Python<'py>,
        mut args: Vec<String>,
        echo: Option<Py<PyAny>>,
        solve: impl FnOnce(&SolverRun<'_>) -> bataille_runs::Result<Conclusion> + Send,
    ) -> PyResult<Bound<'py, PyDict>> {
        if self.resume && self.replace {
            return Err(PyValueError::new_err("resume=True and replace=True exclude each other"));
        }
        let config: Config = self.solver_config.parse().map_err(|_| {
            PyValueError::new_err(format!(
                "solver_config {:?}: expected default, sat or unsat",
                self.solver_config
            ))
        })?;
        let time_limit = match self.time_limit {
            None => None,
            Some(t) if t.is_finite() && t > 0.0 && t <= 3.2e8 => Some(Duration::from_secs_f64(t)),
            Some(t) => {
                return Err(PyValueError::new_err(format!(
                    "time_limit {t}: expected a positive number of seconds, at most 3.2e8"
                )));
            }
        };
        self.flags(&mut args);
        let cwd = std::env::current_dir().ok();
        let command = provenance::command(args, cwd.as_deref(), false);
        // The solver's stop request lives as long as the process: one flag per call, a byte.
        let stop: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
        let lines = Lines::default();
        let run = SolverRun::new(
            self.out.clone(),
            time_limit,
            self.keep,
            self.resume,
            self.replace,
            config,
            command,
            Words::PYTHON,
            stop,
            &lines,
        );
        let tick = |py: Python<'_>| forward(py, &lines, echo.as_ref());
        let (done, signal) = until_interrupted(py, stop, || solve(&run), tick)?;
        let conclusion = done.map_err(|e| {
            if e.is::<QuestionError>() || e.is::<AlignedError>() {
                PyValueError::new_err(e.chain())
            } else {
                PyOSError::new_err(e.chain())
            }
        })?;
        if signal.is_some() || conclusion.interrupted {
            let kept = format!(
                "the solver stopped before the end: the periods decided are in {} (call again \
                 with resume=True)",
                self.out.display()
            );
            return Err(match signal {
                Some(e) => interrupted(py, e, &kept),
                None => crate::Interrupted::new_err(kept),
            });
        }
        let result = PyDict::new(py);
        result.set_item("conclusion", conclusion.text)?;
        Ok(result)
    }
}

/// The periods asked: one (`period`) or every one up to a bound (`max_period`).
fn periods(period: Option<u32>, max_period: Option<u32>, names: [&str; 2]) -> PyResult<(u32, u32)> {
    let (first, last) = match (period, max_period) {
        (Some(p), None) => (p, p),
        (None, Some(p)) => (1, p),
        _ => {
            return Err(PyValueError::new_err(format!(
                "give one of {}= and {}=",
                names[0], names[1]
            )));
        }
    };
    if first == 0 {
        return Err(PyValueError::new_err(format!("{}= must be at least 1, got 0", names[0])));
    }
    if last > 100_000 {
        return Err(PyValueError::new_err(format!(
            "{last} is more than the limit of 100000 periods"
        )));
    }
    Ok((first, last))
}

/// Loops of a period found, or proved absent, by the SAT solver: see `bataille.cycles.solve`.
#[pyfunction]
#[pyo3(signature = (colours, values, method="natural", *, out, period=None, max_period=None,
    all=false, deals=false, cards=false, max_ties=None, max_hand=None, split=false, threads=0,
    part=None, merge=None, time_limit=None, keep=false, resume=false, replace=false,
    solver_config="default", echo=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve<'py>(
    py: Python<'py>,
    colours: usize,
    values: usize,
    method: &str,
    out: PathBuf,
    period: Option<u32>,
    max_period: Option<u32>,
    all: bool,
    deals: bool,
    cards: bool,
    max_ties: Option<u32>,
    max_hand: Option<u32>,
    split: bool,
    threads: usize,
    part: Option<u32>,
    merge: Option<Vec<PathBuf>>,
    time_limit: Option<f64>,
    keep: bool,
    resume: bool,
    replace: bool,
    solver_config: &str,
    echo: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    if (part.is_some() || merge.is_some()) && (!split || period.is_none()) {
        return Err(PyValueError::new_err(
            "part= and merge= take one split period: give split=True and period=",
        ));
    }
    if part.is_some() && merge.is_some() {
        return Err(PyValueError::new_err("part= and merge= exclude each other"));
    }
    let deck = DeckSpec::new(colours, values).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let method = crate::play::method(method)?;
    let (first, last) = periods(period, max_period, ["period", "max_period"])?;
    if threads > 0 && !split {
        return Err(PyValueError::new_err("threads= needs split=True (parts solved at once)"));
    }
    drop(pool(threads)?);
    let asked = Loops {
        deck,
        method,
        counted: if cards { Counted::Cards } else { Counted::Tricks },
        first,
        last,
        all,
        deals,
        max_ties,
        max_hand,
        split,
        threads: split.then_some(threads),
        part,
    };
    let mut args: Vec<String> =
        ["cycles", "solve", "-c", &colours.to_string()].iter().map(|s| s.to_string()).collect();
    let mut add = |words: &[&str]| args.extend(words.iter().map(|w| w.to_string()));
    add(&["-v", &values.to_string(), "--method", method.name()]);
    match period {
        Some(p) => add(&["--period", &p.to_string()]),
        None => add(&["--max-period", &last.to_string()]),
    }
    for (on, flag) in [(all, "--all"), (deals, "--deals"), (cards, "--cards"), (split, "--split")] {
        if on {
            add(&[flag]);
        }
    }
    if let Some(t) = max_ties {
        add(&["--max-ties", &t.to_string()]);
    }
    if let Some(m) = max_hand {
        add(&["--max-hand", &m.to_string()]);
    }
    if split && threads > 0 {
        add(&["--threads", &threads.to_string()]);
    }
    if let Some(h) = part {
        add(&["--part", &h.to_string()]);
    }
    if let Some(dirs) = &merge {
        add(&["--merge"]);
        args.extend(dirs.iter().map(|d| d.to_string_lossy().into_owned()));
    }
    let run =
        RunOf { out, time_limit, keep, resume, replace, solver_config: solver_config.to_string() };
    match merge {
        Some(dirs) => run.run(py, args, echo, |r| merge_parts(&asked, r, &dirs)),
        None => run.run(py, args, echo, |r| solve_loops(&asked, r)),
    }
}

/// Every aligned cycle of R rounds found, and the rest proved absent, by the SAT solver: see
/// `bataille.cycles.solve_aligned`.
#[pyfunction]
#[pyo3(signature = (cards, *, out, rounds=None, max_rounds=None, max_mult=4, colours=None,
    prime=false, time_limit=None, keep=false, resume=false, replace=false,
    solver_config="default", echo=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_aligned<'py>(
    py: Python<'py>,
    cards: usize,
    out: PathBuf,
    rounds: Option<u32>,
    max_rounds: Option<u32>,
    max_mult: usize,
    colours: Option<usize>,
    prime: bool,
    time_limit: Option<f64>,
    keep: bool,
    resume: bool,
    replace: bool,
    solver_config: &str,
    echo: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (first, last) = periods(rounds, max_rounds, ["rounds", "max_rounds"])?;
    let asked = AlignedCycles { cards, first, last, max_mult, colours, prime };
    let mut args: Vec<String> =
        ["aligned", "solve", "--cards", &cards.to_string()].iter().map(|s| s.to_string()).collect();
    match rounds {
        Some(r) => args.extend(["--rounds".to_string(), r.to_string()]),
        None => args.extend(["--max-rounds".to_string(), last.to_string()]),
    }
    match colours {
        Some(c) => args.extend(["-c".to_string(), c.to_string()]),
        None if max_mult != 4 => args.extend(["--max-mult".to_string(), max_mult.to_string()]),
        None => {}
    }
    if prime {
        args.push("--prime".to_string());
    }
    let run =
        RunOf { out, time_limit, keep, resume, replace, solver_config: solver_config.to_string() };
    run.run(py, args, echo, |r| solve_aligned_cycles(&asked, r))
}

/// How far a long call is, for its progress callback.
#[derive(Debug, Default)]
struct Done {
    done: AtomicU64,
    total: AtomicU64,
}

impl Done {
    fn set(&self, s: Steps<'_>) {
        self.done.store(s.done, Ordering::Relaxed);
        self.total.store(s.total, Ordering::Relaxed);
    }
}

/// The error of a run: `ValueError` for a question refused (`E`), `OSError` otherwise.
fn run_error<E: std::error::Error + 'static>(e: bataille_runs::Error) -> PyErr {
    if e.is::<E>() { PyValueError::new_err(e.chain()) } else { PyOSError::new_err(e.chain()) }
}

/// Every loop of a small deck, among every position of every split: see
/// `bataille.cycles.census`.
#[pyfunction]
#[pyo3(signature = (colours, values, method="natural", *, out, shard=None, threads=0, batch=256,
    budget=100_000_000, checkpoint=None, resume=false, merge=None, replace=false,
    no_estimate_limit=false, progress=None, echo=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn census<'py>(
    py: Python<'py>,
    colours: usize,
    values: usize,
    method: &str,
    out: PathBuf,
    shard: Option<(u64, u64)>,
    threads: usize,
    batch: u64,
    budget: u64,
    checkpoint: Option<PathBuf>,
    resume: bool,
    merge: Option<Vec<PathBuf>>,
    replace: bool,
    no_estimate_limit: bool,
    progress: Option<Py<PyAny>>,
    echo: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let refused = |e: &dyn std::fmt::Display| PyValueError::new_err(e.to_string());
    let deck = DeckSpec::new(colours, values).map_err(|e| refused(&e))?;
    let method = crate::play::method(method)?;
    let spec = CensusSpec::new(deck, method).map_err(|e| refused(&e))?;
    if !(1..=1_000_000).contains(&batch) {
        return Err(PyValueError::new_err(format!("batch {batch}: expected 1 to 1000000 units")));
    }
    if budget == 0 {
        return Err(PyValueError::new_err("budget must be at least 1 position, got 0"));
    }
    if resume && checkpoint.is_none() {
        return Err(PyValueError::new_err("resume=True needs checkpoint=, the file to resume"));
    }
    let shard = match shard {
        None => Shard::WHOLE,
        Some((k, n)) => Shard::new(k, n).ok_or_else(|| {
            PyValueError::new_err(format!("shard ({k}, {n}): expected 1 <= k <= n"))
        })?,
    };
    let merge = merge.unwrap_or_default();
    if !merge.is_empty() && (shard != Shard::WHOLE || resume) {
        return Err(PyValueError::new_err(
            "merge= takes the shards' checkpoints: no shard= or resume=",
        ));
    }
    drop(pool(threads)?);
    let path = |p: &PathBuf| p.to_string_lossy().into_owned();
    let mut args: Vec<String> = vec!["cycles".into(), "census".into()];
    args.extend(["-c".into(), colours.to_string(), "-v".into(), values.to_string()]);
    args.extend(["-m".into(), method.name().to_string()]);
    if shard != Shard::WHOLE {
        args.extend(["--shard".into(), shard.to_string()]);
    }
    args.extend(["--threads".into(), threads.to_string()]);
    if batch != 256 {
        args.extend(["--batch".into(), batch.to_string()]);
    }
    if budget != 100_000_000 {
        args.extend(["--budget".into(), budget.to_string()]);
    }
    if let Some(c) = &checkpoint {
        args.extend(["--checkpoint".into(), path(c)]);
    }
    if resume {
        args.push("--resume".into());
    }
    if !merge.is_empty() {
        args.push("--merge".into());
        args.extend(merge.iter().map(path));
    }
    args.extend(["--out".into(), path(&out)]);
    if replace {
        args.push("--replace".into());
    }
    if no_estimate_limit {
        args.push("--no-estimate-limit".into());
    }
    let cwd = std::env::current_dir().ok();
    let command = provenance::command(args, cwd.as_deref(), false);
    let mut census = Census::prepare(CensusConfig {
        spec,
        shard,
        threads,
        batch: batch as usize,
        budget,
        checkpoint: checkpoint.clone(),
        resume,
        merge,
        out: out.clone(),
        replace,
        no_estimate_limit,
        words: Words::PYTHON,
    })
    .map_err(run_error::<CensusError>)?;
    let stop = AtomicBool::new(false);
    let (lines, done) = (Lines::default(), Done::default());
    let tick = |py: Python<'_>| -> PyResult<()> {
        forward(py, &lines, echo.as_ref())?;
        if let Some(callback) = &progress {
            let d = &done;
            callback
                .call1(py, (d.done.load(Ordering::Relaxed), d.total.load(Ordering::Relaxed)))?;
        }
        Ok(())
    };
    let work = || {
        census.search(&stop, &mut |s| done.set(s))?;
        census.finish(command, &stop, &lines)
    };
    let (end, signal) = until_interrupted(py, &stop, work, tick)?;
    let end = end.map_err(run_error::<CensusError>)?;
    if signal.is_some() || end.stopped() {
        let kept = match &checkpoint {
            Some(c) => format!(
                "the census stopped before the end: the partial results are in {}, and the \
                 checkpoint {} holds every unit searched (call again with resume=True)",
                out.display(),
                c.display()
            ),
            None => format!(
                "the census stopped before the end: the partial results are in {} (no \
                 checkpoint=: a new run starts over)",
                out.display()
            ),
        };
        return Err(match signal {
            Some(e) => interrupted(py, e, &kept),
            None => crate::Interrupted::new_err(kept),
        });
    }
    let result = PyDict::new(py);
    result.set_item("complete", end.complete)?;
    result.set_item("loops", end.loops)?;
    Ok(result)
}

/// The lines said so far, handed to `echo` when given.
fn forward(py: Python<'_>, lines: &Lines, echo: Option<&Py<PyAny>>) -> PyResult<()> {
    let new = lines.take();
    if let Some(echo) = echo {
        for line in new {
            echo.call1(py, (line,))?;
        }
    }
    Ok(())
}

/// The tree of the positions that reach a loop or a position: see `bataille.cycles.ancestors`.
#[pyfunction]
#[pyo3(signature = (position, method="natural", method2=None, *, max_depth=None, max_ties=None,
    budget=100_000_000, deepest=5, deals=false, progress=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn ancestors<'py>(
    py: Python<'py>,
    position: &Bound<'py, PyAny>,
    method: &str,
    method2: Option<&str>,
    max_depth: Option<u64>,
    max_ties: Option<usize>,
    budget: u64,
    deepest: usize,
    deals: bool,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let position = crate::play::deal(position)?;
    let methods = crate::play::methods(method, method2)?;
    if budget == 0 {
        return Err(PyValueError::new_err("budget must be at least 1 position, got 0"));
    }
    if deepest > 1000 {
        return Err(PyValueError::new_err(format!("deepest {deepest}: at most 1000")));
    }
    let walk = Ancestors::prepare(AncestorsConfig {
        position,
        methods,
        bounds: Bounds {
            max_depth: max_depth.unwrap_or(u64::MAX),
            max_ties: max_ties.unwrap_or(bataille_engine::MAX_CARDS),
            budget,
        },
        deepest,
        deals: deals.then_some(Listing::Returned),
        replace: false,
        words: Words::PYTHON,
    })
    .map_err(run_error::<AncestorsError>)?;
    let stop = AtomicBool::new(false);
    let done = Done::default();
    let tick = |py: Python<'_>| -> PyResult<()> {
        if let Some(callback) = &progress {
            let d = &done;
            callback
                .call1(py, (d.done.load(Ordering::Relaxed), d.total.load(Ordering::Relaxed)))?;
        }
        Ok(())
    };
    let (end, signal) =
        until_interrupted(py, &stop, || walk.walk(&stop, &mut |s| done.set(s)), tick)?;
    let end = end.map_err(run_error::<AncestorsError>)?;
    if let Some(e) = signal {
        let kept = "the walk stopped before its bounds: nothing was kept (call again)";
        return Err(interrupted(py, e, kept));
    }
    let t = &end.tree;
    let result = PyDict::new(py);
    result.set_item("report", end.report)?;
    result.set_item("deals", end.deals)?;
    result.set_item("by_depth", t.by_depth.clone())?;
    result.set_item("deal_count", t.deal_count)?;
    result.set_item("visited", t.walked.visited)?;
    result.set_item("complete", t.walked.complete())?;
    let deepest: Vec<(String, u64, u64)> =
        t.deepest.iter().map(|(p, tricks, cards)| (p.to_string(), *tricks, *cards)).collect();
    result.set_item("deepest", deepest)?;
    Ok(result)
}
