//! Integration tests of the `bataille` binary.

#[macro_use]
mod support;

mod bmn;
mod cli;
mod construct;
mod docs;
mod experiment;
mod explore;
mod faults;
mod hostile;
mod hostile3;
mod hunt;
mod old_files;
mod records;
mod solve;
mod takeaway;
