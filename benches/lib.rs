//! Criterion benchmarks of the workspace; see `engine.rs` and the README's "Performance"
//! section for the commands and recorded figures. This library is empty.
