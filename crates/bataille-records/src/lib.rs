//! Record-length games of bataille: the guided search for the longest finished games, the
//! records file that keeps them, and the one public record table they are measured against.
//!
//! - [`search`]: record hunting by iterated simulated annealing over deals, in independent
//!   seeded chains on the search harness's pool, reproducible whatever the threads, with a
//!   checksummed state for checkpoints;
//! - [`row`]: the rows of the records file (`results/records.csv`), typed, parsed, written and
//!   replayed;
//! - [`published`]: the public record table with its deals, the C++ explorer's longer logged
//!   games, and the best known game of each cell.
//!
//! ```
//! use bataille_engine::Method;
//! use bataille_records::published::{Source, best_known};
//!
//! // The 52-card natural record of the public table.
//! let (tricks, source, _deal) = best_known(4, 13, Method::Natural, None).unwrap();
//! assert_eq!((tricks, source), (5610, Source::Table));
//! ```
//!
//! No I/O, no threads of its own: `bataille_runs::records` reads and writes the files of its
//! runs.
//!
//! # Crate layout
//!
//! - [`search`]: [`search::Config`], [`search::search`], [`search::SearchState`], [`search::mutate`].
//! - [`row`]: [`row::RecordRow`], [`row::parse_records`], [`row::check_row`].
//! - [`published`]: [`published::PUBLIC_RECORDS`], [`published::EXPLORER_LOGS`],
//!   [`published::best_known`].

pub mod published;
pub mod row;
pub mod search;

#[cfg(test)]
mod fuzz;
