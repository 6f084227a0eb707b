//! Integration tests of the engine: a naive reference implementation, property tests, and the
//! fuzz suite's properties of deals.

mod fuzz;
mod naive;
mod properties;
