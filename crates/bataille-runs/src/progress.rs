//! How far a run is and how long it would take, in the words a front end shows: the [`Steps`]
//! a run of counted steps hands its progress callback (a census's units, a walk's budget of
//! positions), a duration in words ([`human_duration`]), and the longest run started without
//! its estimate limit lifted ([`MAX_DAYS`]).

/// Runs estimated at more days than this are refused unless the caller lifts the limit (the
/// command line's `--no-estimate-limit`).
pub const MAX_DAYS: f64 = 30.0;

/// How far a run of counted steps is, as its progress callback hears it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Steps<'a> {
    /// Steps done.
    pub done: u64,
    /// Of them, those done before this invocation (a resumed run's).
    pub from: u64,
    /// Steps in all.
    pub total: u64,
    /// What they found so far, in words ("3 loops, 120 candidates").
    pub what: &'a str,
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
