//! Record-length games from Python: a finished game made longer by playing backwards
//! (`bataille_runs::records::extend`, the run of `bataille records extend`).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use bataille_records::row::RECORD_COLUMNS;
use bataille_runs::files::Words;
use bataille_runs::records::extend::{Extend, ExtendConfig};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::cycles::Lines;
use crate::stop::{interrupted, until_interrupted};

/// The longest games that lead into a finished game, found backwards: see
/// `bataille.records.extend`.
#[pyfunction]
#[pyo3(signature = (deal, method="natural", method2=None, *, max_ties=3, budget=10_000_000,
    whole_game=false, every=1, records=None, progress=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn extend<'py>(
    py: Python<'py>,
    deal: &Bound<'py, PyAny>,
    method: &str,
    method2: Option<&str>,
    max_ties: usize,
    budget: u64,
    whole_game: bool,
    every: u64,
    records: Option<PathBuf>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let start = crate::play::deal(deal)?;
    start
        .infer_deck()
        .map_err(|e| PyValueError::new_err(format!("{start} is not a whole deck: {e}")))?;
    let methods = crate::play::methods(method, method2)?;
    if !methods.is_deterministic() {
        return Err(PyValueError::new_err(format!(
            "playing backwards needs deterministic stacking methods, not {methods}"
        )));
    }
    if budget == 0 {
        return Err(PyValueError::new_err("budget must be at least 1, got 0"));
    }
    if every == 0 {
        return Err(PyValueError::new_err("every must be at least 1, got 0"));
    }
    let config = ExtendConfig {
        start,
        methods,
        max_ties,
        budget,
        every: whole_game.then_some(every),
        records,
        words: Words::PYTHON,
    };
    let failed = |e: bataille_runs::Error| PyOSError::new_err(e.chain());
    let said = Lines::default();
    let extend = Extend::prepare(config, &said).map_err(failed)?;
    let stop = AtomicBool::new(false);
    let (done, total) = (AtomicU64::new(0), AtomicU64::new(extend.steps()));
    let tick = |py: Python<'_>| -> PyResult<()> {
        if let Some(callback) = &progress {
            callback.call1(py, (done.load(Ordering::Relaxed), total.load(Ordering::Relaxed)))?;
        }
        Ok(())
    };
    let work = || {
        let extended = extend.search(&stop, &mut |s| {
            done.store(s.done, Ordering::Relaxed);
            total.store(s.total, Ordering::Relaxed);
        });
        extended.finish(&said)
    };
    let (end, signal) = until_interrupted(py, &stop, work, tick)?;
    let end = end.map_err(failed)?;
    if let Some(e) = signal {
        let kept = if end.rows.is_empty() {
            "the search stopped before its budget: no longer game was found"
        } else {
            "the search stopped before its budget: the longer games found so far were kept"
        };
        return Err(interrupted(py, e, kept));
    }
    let result = PyDict::new(py);
    let rows: Vec<Vec<String>> = end.rows.iter().map(|r| r.fields().to_vec()).collect();
    result.set_item("columns", RECORD_COLUMNS.to_vec())?;
    result.set_item("rows", rows)?;
    result.set_item("report", said.report())?;
    result.set_item("stopped", end.stopped)?;
    Ok(result)
}
