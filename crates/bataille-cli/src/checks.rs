//! Limits on user-given numbers and text, shared by every command: worker threads, sizes that
//! are allocated, durations, and how much of a bad input an error message repeats.
//!
//! Each limit is checked before anything is allocated or started, and the refusal names the
//! value, the limit and why (exit code 2).

use std::time::Duration;

use anyhow::{Result, bail};

/// Most worker threads per available core.
pub(crate) const THREADS_PER_CORE: usize = 8;
/// Most worker threads in any case.
pub(crate) const MAX_THREADS: usize = 1024;

pub(crate) use bataille_runs::cost::cores;

/// The largest `--threads`: [`THREADS_PER_CORE`] per core, at most [`MAX_THREADS`].
pub(crate) fn max_threads() -> usize {
    (cores() * THREADS_PER_CORE).min(MAX_THREADS)
}

/// clap value parser of `--threads`: 0 (one per core) up to [`max_threads`].
pub(crate) fn threads(text: &str) -> Result<usize, String> {
    let n: usize = text.parse().map_err(|_| {
        format!("expected a number of threads (0: one per core), got {}", shown(text))
    })?;
    let max = max_threads();
    if n > max {
        return Err(format!(
            "{n} threads is more than the limit of {max} ({THREADS_PER_CORE} per core on {} \
             cores, at most {MAX_THREADS}): more threads than cores only slow a run down",
            cores()
        ));
    }
    Ok(n)
}

/// The longest `--time` accepted (about 10 years), far from `Duration`'s limits.
pub(crate) const MAX_SECONDS: f64 = 3.2e8;

/// clap value parser of a duration in seconds (`--time`): a positive finite number, at most
/// [`MAX_SECONDS`].
pub(crate) fn seconds(text: &str) -> Result<Duration, String> {
    let t: f64 =
        text.trim().parse().map_err(|_| format!("expected seconds, got {}", shown(text)))?;
    if !(t.is_finite() && t > 0.0) {
        return Err(format!("expected a positive number of seconds, got {text}"));
    }
    if t > MAX_SECONDS {
        return Err(format!(
            "{t:e} s is more than the limit of {MAX_SECONDS:e} s (about 10 years)"
        ));
    }
    Ok(Duration::from_secs_f64(t))
}

/// The fewest loops `--max-cycles` keeps: the summary's estimate of how many distinct loops
/// there are, (K − 1) / U₍K₎ from the K kept, needs 3 (it is 0 from one, and from two its
/// error has no bound).
pub(crate) const MIN_MAX_CYCLES: u64 = 3;

/// clap value parser of `--max-cycles`: a number of loops, at least [`MIN_MAX_CYCLES`].
pub(crate) fn max_cycles(text: &str) -> Result<u64, String> {
    let k: u64 =
        text.parse().map_err(|_| format!("expected a number of loops, got {}", shown(text)))?;
    if k < MIN_MAX_CYCLES {
        return Err(format!(
            "expected at least {MIN_MAX_CYCLES} loops kept, got {k}: the summary estimates how \
             many distinct loops there are from the kept ones, which needs {MIN_MAX_CYCLES}"
        ));
    }
    Ok(k)
}

/// Refuses `value` above `max` for `flag`, saying why the limit is there.
pub(crate) fn at_most(flag: &str, value: u64, max: u64, why: &str) -> Result<()> {
    if value > max {
        bail!("{flag} {value} is more than the limit of {max} ({why})");
    }
    Ok(())
}

/// `text` quoted for an error message, cut short (with its length) so that a huge bad input
/// does not flood the terminal: the engine's [`bataille_engine::position::quoted`].
pub(crate) use bataille_engine::position::quoted as shown;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits() {
        assert_eq!(threads("0"), Ok(0));
        assert!(threads(&max_threads().to_string()).is_ok());
        assert!(threads(&(max_threads() + 1).to_string()).unwrap_err().contains("limit"));
        assert!(threads("-1").is_err() && threads("1e3").is_err());
        assert!(seconds("1e20").unwrap_err().contains("limit"));
        assert!(seconds("0").is_err() && seconds("nan").is_err() && seconds("-1").is_err());
        assert_eq!(seconds("1.5"), Ok(Duration::from_millis(1500)));
        assert_eq!(shown("1/2"), "\"1/2\"");
        let long = "9,".repeat(100_000);
        assert!(shown(&long).len() < 200 && shown(&long).contains("200000 bytes"));
    }
}
