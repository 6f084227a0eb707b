//! Integration tests of the `bataille` binary.

mod cli;
mod explore;
mod takeaway;
