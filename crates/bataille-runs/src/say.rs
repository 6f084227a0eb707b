//! Where a run tells its user what it does as it goes, one line at a time: a period decided, a
//! census unit done, the conclusion. The library crates never print; a run of this crate says
//! its lines to the front end that called it, which prints them (the command line: the report
//! on standard output, the notes on standard error), hands them to a callback or drops them
//! (the Python package).

/// The lines of a run, as they come. Lines carry no trailing newline.
pub trait Say: Sync {
    /// A line of the run's report (standard output on the command line).
    fn line(&self, text: &str);
    /// A note on the work as it goes, not part of the report (standard error on the command
    /// line): a progress line, a warning.
    fn note(&self, text: &str);
}

/// Says nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl Say for Quiet {
    fn line(&self, _: &str) {}
    fn note(&self, _: &str) {}
}
