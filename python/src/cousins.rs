//! The claims of the article and the record tables (`verify`), and beggar-my-neighbour
//! (`bmn_play`): the command line's `verify` and `bmn play`, as rows and values.

use bataille_bmn::{DeckSpec, Hands, Limits, Outcome, Scratch, parse_deal, play_hands};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// A claim as a row: id, source, claim, published, computed, status, evidence.
type ClaimRow = (&'static str, &'static str, String, String, String, &'static str, String);

/// The catalogue of published claims, each recomputed by the engine, as rows: see
/// `bataille.verify`.
#[pyfunction]
#[pyo3(signature = (filter=None))]
pub(crate) fn verify(py: Python<'_>, filter: Option<&str>) -> PyResult<Vec<ClaimRow>> {
    let claims = py.detach(bataille_verify::catalogue);
    let rows: Vec<_> = claims
        .into_iter()
        .filter(|c| filter.is_none_or(|f| c.id.contains(f)))
        .map(|c| (c.id, c.source, c.claim, c.published, c.computed, c.status.label(), c.evidence))
        .collect();
    if rows.is_empty()
        && let Some(f) = filter
    {
        return Err(PyValueError::new_err(format!("no catalogue entry matches the filter {f:?}")));
    }
    Ok(rows)
}

/// Plays one game of beggar-my-neighbour: see `bataille.bmn.play`.
#[pyfunction]
#[pyo3(signature = (first, second=None, *, deck=None, counts=None, partial=false,
    max_tricks=None))]
pub(crate) fn bmn_play<'py>(
    py: Python<'py>,
    first: &str,
    second: Option<&str>,
    deck: Option<&str>,
    counts: Option<&str>,
    partial: bool,
    max_tricks: Option<u64>,
) -> PyResult<Bound<'py, PyDict>> {
    let refused = |e: &dyn std::fmt::Display| PyValueError::new_err(e.to_string());
    let hands = match second {
        Some(second) => Hands::parse(first, second).map_err(|e| refused(&e))?,
        None if first.contains('/') => parse_deal(first).map_err(|e| refused(&e))?,
        None => {
            return Err(PyValueError::new_err(
                "expected two hands: play(first, second) or play('FIRST/SECOND')",
            ));
        }
    };
    if hands.cards() == 0 {
        return Err(PyValueError::new_err("both hands are empty: there is no game to play"));
    }
    if !partial {
        let spec = match (deck, counts) {
            (Some(_), Some(_)) => {
                return Err(PyValueError::new_err("give deck= or counts=, not both"));
            }
            (Some(name), None) => DeckSpec::preset(name).map_err(|e| refused(&e))?,
            (None, Some(counts)) => DeckSpec::parse_counts(counts).map_err(|e| refused(&e))?,
            (None, None) => DeckSpec::STANDARD,
        };
        hands.check_deck(spec).map_err(|e| {
            PyValueError::new_err(format!(
                "{e} (use deck= or counts= for another deck, partial=True for any cards)"
            ))
        })?;
    }
    let limits = match max_tricks {
        Some(0) => return Err(PyValueError::new_err("max_tricks must be at least 1, got 0")),
        max => Limits { max_tricks: max.unwrap_or(u64::MAX) },
    };
    // A game of the standard deck lasts at most a few thousand tricks, and a loop is found by
    // Brent's detection: played on this thread, with the interpreter released.
    let r = py.detach(|| {
        let mut scratch = Box::<Scratch>::default();
        play_hands(hands.first(), hands.second(), limits, &mut scratch)
    });
    let out = PyDict::new(py);
    out.set_item("hands", hands.to_string())?;
    let outcome = match r.outcome {
        Outcome::FirstWins => "first",
        Outcome::SecondWins => "second",
        Outcome::Capped => "capped",
        Outcome::Cycle(_) => "loop",
    };
    out.set_item("outcome", outcome)?;
    out.set_item("tricks", r.tricks)?;
    out.set_item("cards", r.cards)?;
    if let Outcome::Cycle(c) = r.outcome {
        out.set_item("tail_tricks", c.tail_tricks)?;
        out.set_item("tail_cards", c.tail_cards)?;
        out.set_item("period_tricks", c.period_tricks)?;
        out.set_item("period_cards", c.period_cards)?;
        out.set_item("cycle_id", c.id.to_string())?;
    }
    Ok(out)
}
