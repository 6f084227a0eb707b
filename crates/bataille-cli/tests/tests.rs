//! Integration tests of the `bataille` binary.

mod bmn;
mod cli;
mod construct;
mod explore;
mod takeaway;
