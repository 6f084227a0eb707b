//! `bataille._bataille`: the compiled half of the Python package `bataille` (python/bataille),
//! on the workspace's library crates. The Python half gives the documented functions, their
//! docstrings and the conversion to pandas; this half reads the arguments, runs the engine and
//! the searches with the interpreter released, and turns their results into Python objects.
//!
//! Errors are Python exceptions carrying the command line's words: `ValueError` for a bad deal
//! or argument, [`Interrupted`] when Ctrl-C (KeyboardInterrupt) stopped a long call.
//!
//! - [`play`](mod@play): one game ([`play::play`], [`play::Game`]), many in parallel
//!   ([`play::play_many`]).
//! - [`explore`]: the search harness: every deal of a deck or seeded random ones (a hunt
//!   keeps the deals of each loop too), into the command line's output directory if asked.
//! - [`cycles`]: loops: the census of a small deck, a position's ancestors, and loops decided
//!   by the SAT solver (`cycles solve`, `aligned solve`), into the command line's files.
//! - [`records`]: a finished game made longer by playing backwards (`records extend`).
//! - [`takeaway`]: the take-away games solved (`takeaway solve`).
//! - [`cousins`]: the published claims (`verify`) and beggar-my-neighbour (`bmn_play`).
//! - [`stop`]: long calls run beside the interpreter, which keeps watching for Ctrl-C.

use pyo3::prelude::*;

mod cousins;
mod cycles;
mod explore;
mod play;
mod records;
mod stop;
mod takeaway;

pyo3::create_exception!(
    bataille,
    Interrupted,
    pyo3::exceptions::PyKeyboardInterrupt,
    "A long call stopped by Ctrl-C (KeyboardInterrupt) before its end; its message says what \
     was kept."
);

#[pymodule]
fn _bataille(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("Interrupted", m.py().get_type::<Interrupted>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<play::Game>()?;
    m.add_function(wrap_pyfunction!(play::play, m)?)?;
    m.add_function(wrap_pyfunction!(play::play_many_array, m)?)?;
    m.add_function(wrap_pyfunction!(play::play_many_list, m)?)?;
    m.add_function(wrap_pyfunction!(explore::explore, m)?)?;
    m.add_function(wrap_pyfunction!(cycles::census, m)?)?;
    m.add_function(wrap_pyfunction!(cycles::ancestors, m)?)?;
    m.add_function(wrap_pyfunction!(cycles::solve, m)?)?;
    m.add_function(wrap_pyfunction!(cycles::solve_aligned, m)?)?;
    m.add_function(wrap_pyfunction!(records::extend, m)?)?;
    m.add_function(wrap_pyfunction!(takeaway::solve, m)?)?;
    m.add_function(wrap_pyfunction!(cousins::verify, m)?)?;
    m.add_function(wrap_pyfunction!(cousins::bmn_play, m)?)?;
    Ok(())
}
