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

/// A duration in the largest fitting unit: `42 s`, `3.5 hours`, `12 days`, `3.1e6 years`
/// (the experiment crate's, which its estimates use too).
pub use bataille_experiment::human_seconds as human_duration;
