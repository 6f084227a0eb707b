//! The take-away games from Python: a game and a position solved by the one dispatch of
//! `bataille-takeaway` (`bataille takeaway solve`), its report as the command line prints it.

use bataille_takeaway::Convention;
use bataille_takeaway::spec::{GameKind, GameOptions, GameSpec};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// Solves a take-away game at a position: see `bataille.takeaway.solve`.
#[pyfunction]
#[pyo3(name = "takeaway_solve", signature = (game, heaps, *, convention=None, rule=None, first_max=None, prev=None,
    max_take=None, brute_force=false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve(
    py: Python<'_>,
    game: &str,
    heaps: Vec<u64>,
    convention: Option<&str>,
    rule: Option<String>,
    first_max: Option<u32>,
    prev: Option<u32>,
    max_take: Option<u64>,
    brute_force: bool,
) -> PyResult<String> {
    let kinds = [
        GameKind::Nim,
        GameKind::Marienbad,
        GameKind::Subtraction,
        GameKind::FortBoyard,
        GameKind::Matches,
        GameKind::TwoHeaps,
    ];
    let Some(kind) = kinds.into_iter().find(|k| k.name() == game) else {
        let names: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
        return Err(PyValueError::new_err(format!(
            "unknown game {game:?}: expected one of {}",
            names.join(", ")
        )));
    };
    let convention = match convention {
        None => None,
        Some("normal") => Some(Convention::Normal),
        Some("misere" | "misère") => Some(Convention::Misere),
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "convention {other:?}: expected normal or misere"
            )));
        }
    };
    let options = GameOptions {
        convention,
        rule,
        first_max,
        prev,
        max_take,
        brute_force,
        ..GameOptions::new(kind, heaps)
    };
    let refused = |e: &dyn std::fmt::Display| PyValueError::new_err(e.to_string());
    let spec = GameSpec::new(&options).map_err(|e| refused(&e))?;
    py.detach(|| spec.solve()).map_err(|e| refused(&e))
}
