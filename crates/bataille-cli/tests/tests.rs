//! Integration tests of the `bataille` binary.

mod bmn;
mod cli;
mod explore;
mod records;
mod takeaway;
