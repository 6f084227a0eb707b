//! Integration tests of the `bataille` binary.

mod bmn;
mod cli;
mod construct;
mod experiment;
mod explore;
mod hunt;
mod records;
mod takeaway;
