//! What the standing fuzz suite's properties share: each crate that reads user input keeps,
//! in a test module named `fuzz`, the properties that feed its parsers (deals in
//! `bataille-engine`, hands in `bataille-bmn`, recipes in `bataille-experiment`, state files
//! in `bataille-search`, `bataille-cycles` and `bataille-records`, take-away games and moves
//! in `bataille-takeaway`, records files in `bataille-runs`, flags and the solvers' files in
//! `bataille-cli`), with
//! arbitrary and near-valid text; each parser must answer `Ok` or a short error, never panic.
//! This crate is a dev-dependency only: nothing that is built for use depends on it.
//!
//! `cargo test` runs [`cases`] cases per property (a few seconds in all) from a fixed seed, so
//! that a failure is reproducible. A longer campaign runs every property of the workspace:
//!
//! ```sh
//! BATAILLE_FUZZ_CASES=100000 cargo test --workspace --tests fuzz
//! BATAILLE_FUZZ_CASES=100000 BATAILLE_FUZZ_SEED=7 cargo test --workspace --tests fuzz   # another seed
//! ```
//!
//! (`--tests` leaves out the documentation tests, which hold no property; `--workspace`, not
//! `-p`, reuses the build `cargo test --workspace` made.)

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};

/// Cases per property: `BATAILLE_FUZZ_CASES`, or 256.
pub fn cases() -> u32 {
    std::env::var("BATAILLE_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(256)
}

/// A runner with a fixed seed (`BATAILLE_FUZZ_SEED`, or a constant), no failure files, for
/// [`cases`] cases.
pub fn runner() -> TestRunner {
    runner_of(cases())
}

/// [`runner`], for `cases` cases.
pub fn runner_of(cases: u32) -> TestRunner {
    let seed = std::env::var("BATAILLE_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x0bad_5eed_0018);
    TestRunner::new(Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    })
}

/// Runs `test` on values of `strategy`, panicking with the minimal failing input.
pub fn check<S: Strategy>(strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>)
where
    S::Value: std::fmt::Debug,
{
    if let Err(e) = runner().run(&strategy, test) {
        panic!("{e}");
    }
}

/// Text made of the characters that matter to the parser (`alphabet`) and a little of
/// anything, up to `len` characters.
pub fn text(alphabet: &'static str, len: usize) -> impl Strategy<Value = String> {
    let chars: Vec<char> = alphabet.chars().collect();
    prop::collection::vec(
        prop_oneof![
            8 => prop::sample::select(chars),
            1 => any::<char>(),
        ],
        0..len,
    )
    .prop_map(|v| v.into_iter().collect())
}

/// Numbers as a user might type them at the limits of their type.
pub fn number_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<u64>().prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        prop::sample::select(vec![
            "0",
            "1",
            "-1",
            "255",
            "256",
            "4294967295",
            "4294967296",
            "18446744073709551615",
            "18446744073709551616",
            "1e20",
            "1e-12",
            "NaN",
            "inf",
            "-0",
            "",
            " 3",
            "0x10",
        ])
        .prop_map(str::to_string),
        any::<f64>().prop_map(|x| x.to_string()),
    ]
}

/// An error message must stay short, whatever the input's length.
pub fn short(message: &str) -> Result<(), TestCaseError> {
    prop_assert!(message.len() < 2_000, "an error of {} bytes", message.len());
    Ok(())
}

/// `e` and its causes, one after the other, as the command line shows an error.
pub fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text = format!("{text}: {c}");
        cause = c.source();
    }
    text
}

/// A state file with one line replaced by junk or an extreme number, or cut short.
pub fn damaged(valid: String) -> impl Strategy<Value = String> {
    let lines = valid.lines().count();
    (0..lines, number_text(), 0..valid.len(), 0..3u8).prop_map(move |(i, junk, cut, how)| {
        match how {
            0 => valid
                .lines()
                .enumerate()
                .map(|(j, l)| {
                    if j != i {
                        return l.to_string();
                    }
                    // Keep the line's key, give it an extreme value.
                    match l.split_once(' ') {
                        Some((k, _)) => format!("{k} {junk}"),
                        None => junk.clone(),
                    }
                })
                .collect::<Vec<_>>()
                .join("\n"),
            1 => valid.char_indices().take_while(|&(k, _)| k < cut).map(|(_, c)| c).collect(),
            _ => {
                let mut v = valid.clone().into_bytes();
                v[cut] ^= 0x01;
                String::from_utf8_lossy(&v).into_owned()
            }
        }
    })
}

/// A CSV file with one field of one row replaced by junk or an extreme number, a row dropped
/// or doubled, or the text cut short or a bit flipped.
pub fn csv_damaged(valid: String) -> impl Strategy<Value = String> {
    let lines: Vec<String> = valid.lines().map(str::to_string).collect();
    let n = lines.len().max(1);
    (0..n, 0..20usize, number_text(), 0..valid.len().max(1), 0..5u8).prop_map(
        move |(i, j, junk, cut, how)| match how {
            0 | 1 => {
                let mut l = lines.clone();
                if let Some(line) = l.get_mut(i) {
                    let mut f: Vec<String> = line.split(',').map(str::to_string).collect();
                    let k = j % f.len();
                    f[k] = if how == 0 { junk.clone() } else { String::new() };
                    *line = f.join(",");
                }
                l.join("\n") + "\n"
            }
            2 => {
                let mut l = lines.clone();
                if i < l.len() {
                    if j % 2 == 0 {
                        l.remove(i);
                    } else {
                        let row = l[i].clone();
                        l.insert(i, row);
                    }
                }
                l.join("\n") + "\n"
            }
            3 => valid.char_indices().take_while(|&(k, _)| k < cut).map(|(_, c)| c).collect(),
            _ => {
                let mut v = valid.clone().into_bytes();
                if !v.is_empty() {
                    let at = cut % v.len();
                    v[at] ^= 1 << (j % 8);
                }
                String::from_utf8_lossy(&v).into_owned()
            }
        },
    )
}
