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

/// A duration in the largest fitting unit: `42 s`, `3.5 hours`, `12 days`, `3.1e6 years`.
pub fn human_duration(secs: f64) -> String {
    let (value, unit) = match secs {
        s if s < 120.0 => (s, "s"),
        s if s < 7_200.0 => (s / 60.0, "minutes"),
        s if s < 172_800.0 => (s / 3_600.0, "hours"),
        s if s < 3.0e7 => (s / 86_400.0, "days"),
        s => (s / 3.156e7, "years"),
    };
    if value >= 1e6 { format!("{value:.1e} {unit}") } else { format!("{value:.1} {unit}") }
}
