//! Long calls run beside the interpreter: the work on a thread of its own, with the
//! interpreter released, while the calling thread wakes every few milliseconds to let Python
//! run its signal handlers. Ctrl-C (KeyboardInterrupt, or any exception a handler raises) sets
//! the work's stop flag, waits for it to end (as the command line's first Ctrl-C does) and
//! raises the exception.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use bataille_search::pool::Pool;

use crate::Interrupted;

/// How often the waiting thread lets Python run its signal handlers.
const POLL: Duration = Duration::from_millis(20);
/// How often a long call reports its progress.
const TICK: Duration = Duration::from_millis(250);

/// Most worker threads per core, and in any case: the command line's limits.
const THREADS_PER_CORE: usize = 8;
const MAX_THREADS: usize = 1024;

/// Runs `work` with the interpreter released. When a signal handler raises (Ctrl-C), `stop` is
/// set and `work` is waited for; then a KeyboardInterrupt becomes [`Interrupted`] with the
/// message `kept` (what the stop kept), and any other exception is returned as it is.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    kept: &str,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    match until_interrupted(py, stop, work, |_| Ok(()))? {
        (done, None) => Ok(done),
        (_, Some(e)) => Err(interrupted(py, e, kept)),
    }
}

/// A KeyboardInterrupt as [`Interrupted`] with the message `kept`; any other exception as it is.
pub(crate) fn interrupted(py: Python<'_>, e: PyErr, kept: &str) -> PyErr {
    if e.is_instance_of::<PyKeyboardInterrupt>(py) {
        Interrupted::new_err(kept.to_string())
    } else {
        e
    }
}

/// Runs `work` with the interpreter released, calling `tick` (with the interpreter held) every
/// [`TICK`] and once at the end: progress. When a signal handler raises (Ctrl-C) or `tick`
/// fails, `stop` is set and `work` is waited for: its value comes back with the exception, so
/// that what it kept can be saved before the exception is raised.
pub(crate) fn until_interrupted<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
    mut tick: impl FnMut(Python<'_>) -> PyResult<()>,
) -> PyResult<(T, Option<PyErr>)> {
    let panicked = |_| PyRuntimeError::new_err("bataille: internal error (a panic)");
    std::thread::scope(|scope| {
        let handle = scope.spawn(work);
        let mut last = Instant::now();
        loop {
            py.detach(|| {
                let until = Instant::now() + POLL;
                while !handle.is_finished() && Instant::now() < until {
                    std::thread::sleep(Duration::from_millis(1));
                }
            });
            let finished = handle.is_finished();
            let ticked = if finished || last.elapsed() >= TICK {
                last = Instant::now();
                tick(py)
            } else {
                Ok(())
            };
            if finished {
                let done = handle.join().map_err(panicked)?;
                return Ok((done, ticked.err()));
            }
            if let Err(e) = ticked.and_then(|()| py.check_signals()) {
                stop.store(true, Ordering::SeqCst);
                let done = py.detach(|| handle.join()).map_err(panicked)?;
                return Ok((done, Some(e)));
            }
        }
    })
}

/// The cores this process may use.
pub(crate) fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A pool of `threads` worker threads (0: one per core), refused past the command line's
/// limits.
pub(crate) fn pool(threads: usize) -> PyResult<Pool> {
    let cores = cores();
    let max = (cores * THREADS_PER_CORE).min(MAX_THREADS);
    if threads > max {
        return Err(PyValueError::new_err(format!(
            "{threads} threads is more than the limit of {max} ({THREADS_PER_CORE} per core on \
             {cores} cores, at most {MAX_THREADS}): more threads than cores only slow a run down"
        )));
    }
    Pool::new(threads).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}
