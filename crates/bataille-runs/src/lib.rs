//! What a run is, for every front end of the toolkit (the `bataille` command line and the
//! Python package): its output directory, written all at once and locked while the run lives;
//! its checkpoint, saved atomically and resumed only by the same run; the checks made before
//! any work; and where its results come from.
//!
//! - [`files`]: atomic writes, [`files::OutputFiles`] (a directory written all at once),
//!   [`files::prepare_outputs`] (the checks and locks before a run), bounded reads. Refusals
//!   name the options in the caller's [`files::Words`].
//! - [`search`]: a run of the search harness into an output directory, step by step, with
//!   its checkpoint ([`search::SearchRun`]); [`merge`]: the output directories of a search's
//!   shards merged into the results of the whole run; [`cost`]: what a search will cost,
//!   before it runs (the time estimate and the dry run).
//! - [`cycles`]: the runs of `bataille cycles`: the census of every loop of a deck
//!   ([`cycles::census`]), the walk up a position's tree of ancestors
//!   ([`cycles::ancestors`]), a position hunt's seeds.
//! - [`solve`]: the runs of the SAT solver, their question files and their resume rule, a
//!   split period's parts run apart and merged.
//! - [`blocks`]: the search for every aligned block on 2n cards into its catalogue file, and
//!   the catalogues read back.
//! - [`records`]: the records file (`results/records.csv`), read, checked and appended to;
//!   the record searches ([`records::search`]) and extensions ([`records::extend`]) that
//!   append to it.
//! - [`experiment`]: a recipe of the article's tables run into its results directory.
//! - [`hunts`]: the committed exhaustive hunts read back as the claims they settle.
//! - [`provenance`]: the command that made a result, without this machine's paths; the
//!   commit, the machine, the date.
//! - [`progress`]: how far a run is ([`progress::Steps`], handed to a progress callback) and
//!   how long it would take, in words; [`say`]: the lines a run tells its user as it goes
//!   ([`say::Say`]), printed or not by the front end.
//! - [`Error`]: a refusal or failure naming the file and what was done, with its cause.
//!
//! The formats of the files are described in the book's `docs/formats.md`, what a run
//! promises in `docs/guarantees.md`.

pub mod blocks;
pub mod cost;
pub mod cycles;
pub mod error;
pub mod experiment;
pub mod files;
pub mod hunts;
pub mod merge;
pub mod progress;
pub mod provenance;
pub mod records;
pub mod say;
pub mod search;
pub mod solve;

pub use error::{Error, Result};
pub use say::{Quiet, Say};

#[cfg(test)]
mod fuzz;
