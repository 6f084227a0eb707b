//! Regenerates the article's tables (Delahaye & Mathieu, seed 002) from recipes: mean
//! durations for C = 1 and C = 4, win-rate duels for 32 and 52 cards, the records table, and
//! the loop-rate table of the committed hunts, as CSV, Markdown and SVG plots.
//!
//! A [`Recipe`] (the plain-text files in `experiments/`, format in [`recipe`]) is run by
//! [`run`], which drives the search harness (`bataille-search`: seeded random deals and
//! exhaustive enumeration on a rayon pool, exact order-independent aggregates) and returns the
//! files to write as bytes: this crate does no I/O. Same recipe and seed ⇒ the same bytes,
//! whatever the number of threads.
//!
//! ```
//! use bataille_experiment::{Recipe, Settings, run};
//!
//! let recipe = Recipe::parse(
//!     "table = durations\ncolours = 1\nvalues = 2, 4\nmethods = natural\ndeals = 1000\nexact = 100",
//! )
//! .unwrap();
//! let out = run(&recipe, &Settings::new(1), &mut |_| {}).unwrap();
//! let csv = String::from_utf8(out.file("durations.csv").unwrap().to_vec()).unwrap();
//! // C=1 V=2: every game is one trick, one card each; V=4 exactly 10/3 over all deals.
//! assert!(csv.lines().nth(1).unwrap().contains(",1.0000,"));
//! assert!(csv.lines().nth(2).unwrap().contains(",3.3333,"));
//! ```
//!
//! # Crate layout
//!
//! - [`recipe`]: the recipe format, parsed and validated into [`Recipe`].
//! - [`published`]: the article's printed means.
//! - [`durations`]: mean-duration tables, exact means over all deals.
//! - [`duels`]: win rates of every ordered pair of methods.
//! - [`records`]: longest games found against the public records.
//! - [`rates`]: how rare loops are among random deals and positions, against the C++
//!   explorer's logs.
//! - [`plot`]: the SVG plots.

use std::sync::atomic::AtomicBool;

use bataille_engine::{DeckSpec, Limits, Methods};
use bataille_search::arrangement::TooManyArrangements;
use bataille_search::stats::Stats;
use bataille_search::{Bataille, Mode, Options, Plan, Progress, RunError, Shard, Silent, explore};

pub mod duels;
pub mod durations;
pub mod plot;
pub mod published;
pub mod rates;
pub mod recipe;
pub mod records;

pub use recipe::{Convention, Recipe, RecipeError};

/// A proportion with its 95% interval (normal approximation), in percent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Percent {
    /// The percentage.
    pub value: f64,
    /// Half the width of the 95% interval.
    pub half_width: f64,
}

impl Percent {
    /// `k` of `n`.
    pub fn of(k: u64, n: u64) -> Percent {
        if n == 0 {
            return Percent { value: 0.0, half_width: 0.0 };
        }
        let p = k as f64 / n as f64;
        Percent { value: 100.0 * p, half_width: 100.0 * 1.96 * (p * (1.0 - p) / n as f64).sqrt() }
    }
}

/// How to run.
#[derive(Clone, Copy)]
pub struct Settings<'a> {
    /// Worker threads (0: one per core). Never changes a result.
    pub threads: usize,
    /// Where the progress of each cell's run goes.
    pub progress: &'a dyn Progress,
}

impl std::fmt::Debug for Settings<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Settings").field("threads", &self.threads).finish_non_exhaustive()
    }
}

impl Settings<'static> {
    /// `threads` workers, no progress shown.
    pub fn new(threads: usize) -> Settings<'static> {
        Settings { threads, progress: &Silent }
    }
}

/// The files of a table, to be written under its results folder, and a Markdown summary.
#[derive(Debug, Clone)]
pub struct Output {
    /// (file name, contents).
    pub files: Vec<(String, Vec<u8>)>,
    /// The table in Markdown.
    pub summary: String,
}

/// A duration in the largest fitting unit: `42 s`, `3.5 hours`, `12 days`, `3.1e6 years`.
pub fn human_seconds(secs: f64) -> String {
    let (value, unit) = match secs {
        s if s < 120.0 => (s, "s"),
        s if s < 7_200.0 => (s / 60.0, "minutes"),
        s if s < 172_800.0 => (s / 3_600.0, "hours"),
        s if s < 3.0e7 => (s / 86_400.0, "days"),
        s => (s / 3.156e7, "years"),
    };
    if value >= 1e6 { format!("{value:.1e} {unit}") } else { format!("{value:.1} {unit}") }
}

impl Output {
    /// The contents of the file `name`.
    pub fn file(&self, name: &str) -> Option<&[u8]> {
        self.files.iter().find(|(n, _)| n == name).map(|(_, b)| b.as_slice())
    }
}

/// Why a table could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ExperimentError {
    /// The search harness failed.
    #[error(transparent)]
    Run(#[from] RunError),
    /// A deck too large to enumerate.
    #[error(transparent)]
    TooLarge(#[from] TooManyArrangements),
    /// Rendering a CSV failed.
    #[error("cannot render a CSV table: {0}")]
    Csv(#[from] csv::Error),
    /// Drawing a plot failed.
    #[error("cannot draw a plot: {0}")]
    Plot(String),
    /// A records or loop-rate table was asked of [`run`], which needs the files it reads: see
    /// [`records::run`] and [`rates::run`].
    #[error("a records or loop-rate table reads result files: use records::run or rates::run")]
    NeedsFiles,
}

/// Runs a durations or duels recipe; `log` hears a line per cell. Records and loop-rate tables
/// read files and go through [`records::run`] and [`rates::run`].
pub fn run(
    recipe: &Recipe,
    settings: &Settings<'_>,
    log: &mut dyn FnMut(&str),
) -> Result<Output, ExperimentError> {
    match recipe {
        Recipe::Durations(d) => durations::run(d, settings, log),
        Recipe::Duels(d) => duels::run(d, settings, log),
        Recipe::Records(_) | Recipe::LoopRates(_) => Err(ExperimentError::NeedsFiles),
    }
}

/// One run of the search harness, the whole plan on the settings' workers, its progress shown.
fn search(
    game: &Bataille,
    mode: Mode,
    seed: u64,
    top: usize,
    settings: &Settings<'_>,
) -> Result<Stats, ExperimentError> {
    let plan = Plan::new(game, mode, seed, top)?;
    let stop = AtomicBool::new(false);
    let options = Options { threads: settings.threads, ..Options::default() };
    let ended = explore(game, &plan, Shard::WHOLE, None, &options, settings.progress, &stop)?;
    Ok(ended.state.stats)
}

/// About how many seconds `recipe` takes on `threads` workers (0: `cores`): the speed of each
/// cell measured on a short sample of its deals, over its random and exhaustive deals. `None`
/// for the tables that read files.
pub fn estimated_seconds(
    recipe: &Recipe,
    threads: usize,
    sample: std::time::Duration,
) -> Option<f64> {
    let workers = threads.max(1) as f64;
    let time =
        |game: &Bataille, deals: f64| deals / bataille_search::sample_speed(game, sample) / workers;
    match recipe {
        Recipe::Durations(d) => {
            let mut secs = 0.0;
            for &v in &d.values {
                let spec = DeckSpec::new(d.colours, v).expect("validated by the recipe");
                for &m in &d.methods {
                    let methods = Methods::both(m);
                    let game = Bataille::new(spec, methods, Limits::default_for(methods));
                    let cells = if m.is_deterministic() { 1.0 } else { d.conventions.len() as f64 };
                    secs += cells * time(&game, d.deals as f64);
                    let arrangements =
                        bataille_search::arrangement::Arrangements::new(&spec.sorted_deck())
                            .count()
                            .unwrap_or(u128::MAX);
                    if m.is_deterministic() && arrangements <= d.exact {
                        secs += time(&game, arrangements as f64 / 2.0);
                    }
                }
            }
            Some(secs)
        }
        Recipe::Duels(d) => {
            let mut secs = 0.0;
            for &v in &d.values {
                let spec = DeckSpec::new(d.colours, v).expect("validated by the recipe");
                for &first in &d.methods {
                    for &second in d.methods.iter().filter(|&&m| m != first) {
                        let methods = Methods::new(first, second);
                        let game = Bataille::new(spec, methods, Limits::default_for(methods));
                        secs += time(&game, d.deals as f64);
                    }
                }
            }
            Some(secs)
        }
        Recipe::Records(_) | Recipe::LoopRates(_) => None,
    }
}

fn csv_bytes(rows: &[Vec<String>]) -> Result<Vec<u8>, csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.write_record(r)?;
    }
    w.into_inner().map_err(|e| csv::Error::from(e.into_error()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "table = durations\ncolours = 4\nvalues = 2, 3\n\
                         methods = natural, random\ndeals = 3000\nseed = 11\n\
                         conventions = end, repeat\nexact = 100000\nhistograms = 3\n";

    #[test]
    fn same_seed_same_bytes_whatever_the_threads() {
        let recipe = Recipe::parse(SMALL).unwrap();
        let one = run(&recipe, &Settings::new(1), &mut |_| {}).unwrap();
        let two = run(&recipe, &Settings::new(2), &mut |_| {}).unwrap();
        assert_eq!(one.files, two.files);
        let names: Vec<&str> = one.files.iter().map(|f| f.0.as_str()).collect();
        assert_eq!(
            names,
            [
                "durations.csv",
                "longest.csv",
                "histograms.csv",
                "means.svg",
                "histogram-v3.svg",
                "table.md"
            ]
        );
        // Another seed draws other deals.
        let other = run(&recipe.clone().with_deals(3001), &Settings::new(2), &mut |_| {}).unwrap();
        assert_ne!(one.file("durations.csv"), other.file("durations.csv"));
        let duels = Recipe::parse(
            "table = duels\ncolours = 4\nvalues = 3\nmethods = natural, random\ndeals = 2000",
        )
        .unwrap();
        let a = run(&duels, &Settings::new(1), &mut |_| {}).unwrap();
        let b = run(&duels, &Settings::new(2), &mut |_| {}).unwrap();
        assert_eq!(a.files, b.files);
    }

    #[test]
    fn small_table_contents() {
        let out = run(&Recipe::parse(SMALL).unwrap(), &Settings::new(2), &mut |_| {}).unwrap();
        let text = String::from_utf8(out.file("durations.csv").unwrap().to_vec()).unwrap();
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let rows: Vec<csv::StringRecord> = r.records().map(|r| r.unwrap()).collect();
        // V = 2, 3 × (natural, random end, random repeat).
        assert_eq!(rows.len(), 6);
        for row in &rows {
            assert_eq!(&row[4], "3000");
            let (finished, stopped): (u64, u64) =
                (row[5].parse().unwrap(), row[6].parse().unwrap());
            assert_eq!(finished + stopped, 3000);
            let mean: f64 = row[7].parse().unwrap();
            let (lo, hi): (f64, f64) = (row[10].parse().unwrap(), row[11].parse().unwrap());
            assert!(lo < mean && mean < hi);
        }
        // The exact mean is given for natural only, and the sample agrees with it.
        let nat = &rows[0];
        assert_eq!((&nat[1], &nat[2], &nat[3]), ("2", "natural", ""));
        assert_eq!(&nat[18], "70");
        let exact: f64 = nat[17].parse().unwrap();
        let (mean, se): (f64, f64) = (nat[7].parse().unwrap(), nat[9].parse().unwrap());
        assert!((mean - exact).abs() < 4.0 * se, "{mean} {exact} {se}");
        assert_eq!(&rows[1][17], "");
        // Random games played to the end always finish on such small decks; the published
        // convention stops some of them.
        assert_eq!(&rows[1][3], "end");
        assert_eq!(&rows[1][6], "0");
        assert_eq!(&rows[2][3], "repeat");
        assert!(rows[2][6].parse::<u64>().unwrap() > 0);
        let svg = String::from_utf8(out.file("means.svg").unwrap().to_vec()).unwrap();
        assert!(
            svg.starts_with("<svg") && svg.contains("<text") && svg.contains("random (repeat)")
        );
    }
}

#[cfg(test)]
mod fuzz;
