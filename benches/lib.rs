//! Criterion benchmarks of the workspace; see `engine.rs`, `search.rs` and the book's
//! docs/performance.md for the commands and recorded figures. This library is empty.
