//! Cycles of bataille decided by a SAT solver.
//!
//! The question "does a position of this deck come back to itself after exactly P tricks?"
//! is written as a formula in conjunctive normal form ([`encode`]) and given to CaDiCaL.
//! A satisfying assignment is a position, which the engine replays: it must lie on a loop
//! whose period divides P, or the encoding is wrong and the run fails. That loop (all its
//! positions, and their mirrors when swapping players is a symmetry) is then excluded by
//! blocking clauses and the solver is asked again, until the formula is unsatisfiable. An
//! unsatisfiable formula comes with an LRAT proof, which [`lrat`] checks independently of
//! the solver, from the DIMACS file and the proof file alone ([`solve`]).
//!
//! So a complete answer for period P reads: every position that comes back after P tricks
//! lies on one of the loops found, and the proof says there is no other. An answer cut by
//! the time limit claims nothing.
//!
//! Crate layout, each module importing only those before it: [`question`] (what is asked),
//! [`cnf`] (formulas), `stream` (the formula of periods counted in cards), [`encode`] (the
//! trick formula, and the size check of both), [`lrat`] (the proof checker), [`solve`]
//! (driving the solver, a period of `cycles solve`), [`aligned`] (the aligned questions).

pub mod aligned;
pub mod cnf;
pub mod encode;
pub mod lrat;
pub mod question;
pub mod solve;
mod stream;

pub use aligned::{
    AlignedEncoding, AlignedError, AlignedInstance, AlignedQuestion, aligned_formula_size,
    aligned_stem, solve_aligned,
};
pub use encode::Encoding;
pub use question::{Counted, Question, QuestionError};
pub use solve::{
    Certificate, Config, Found, Instance, Settings, SolveError, Solved, Verdict, formula_size,
    solve, solver_version,
};

#[cfg(test)]
mod tests;
