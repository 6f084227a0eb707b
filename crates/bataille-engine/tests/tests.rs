//! Integration tests of the engine: a naive reference implementation, and property tests.

mod naive;
mod properties;
