//! Loops decided by the SAT solver, from Python: `cycles solve` and `aligned solve` run by
//! `bataille_runs::solve` into an output directory, the command line's files, which the Python
//! half reads into DataFrames.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use bataille_engine::DeckSpec;
use bataille_runs::files::Words;
use bataille_runs::solve::SolverRun;
use bataille_runs::solve::aligned::{AlignedCycles, solve_aligned_cycles};
use bataille_runs::solve::loops::{Conclusion, Loops, merge_parts, solve_loops};
use bataille_runs::{Say, provenance};
use bataille_sat::{AlignedError, Config, Counted, QuestionError};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::stop::{interrupted, pool, until_interrupted};

/// The lines a run says, kept until the interpreter's thread hands them on.
#[derive(Debug, Default)]
struct Lines(Mutex<Vec<String>>);

impl Say for Lines {
    fn line(&self, text: &str) {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(text.to_string());
    }

    fn note(&self, text: &str) {
        self.line(text);
    }
}

impl Lines {
    fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner))
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
        let tick = |py: Python<'_>| -> PyResult<()> {
            let new = lines.take();
            if let Some(echo) = &echo {
                for line in new {
                    echo.call1(py, (line,))?;
                }
            }
            Ok(())
        };
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
