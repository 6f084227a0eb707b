//! Integration tests of the `bataille` binary.

mod cli;
mod takeaway;
