//! The claims of the three `verify` commands (`verify`, `bmn verify`, `takeaway verify`),
//! printed by the one printer of `bataille-claims` in the format chosen by
//! [`crate::args::FormatArgs`].

use std::process::ExitCode;

use bataille_claims::{Claim, Format, Status, Tally, render};

/// Prints `claims` in `format` and, under a table, a blank line and the tally over `statuses`
/// (the ones the catalogue uses); returns the number of failed claims.
pub(crate) fn print_claims(claims: &[Claim], format: Format, statuses: &[Status]) -> usize {
    print!("{}", render(claims, format));
    let tally = Tally::of(claims);
    if format != Format::Csv {
        println!();
        println!("{}", tally.line(statuses));
    }
    tally.failed()
}

/// Exit 0 when nothing failed, [`crate::EXIT_FINDING`] otherwise.
pub(crate) fn exit_code(failed: usize) -> ExitCode {
    if failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(crate::EXIT_FINDING) }
}
