//! Cycles of bataille among all positions, not only deals.
//!
//! A loop of natural or optimized bataille need not pass through a deal (a position whose
//! first hand holds ⌊N/2⌋ cards): the C=4 V=11 loop of period 1,152 in the public C++
//! explorer's logs never holds 22/22, yet a deal enters it after 165 tricks. This crate looks
//! for loops among positions of every split, and comes back from a loop to the deals that reach
//! it by playing backwards:
//!
//! - [`census`]: every loop of a small deck, each once by its canonical position, with the
//!   pruning that makes C=4 V=5 (6.4·10^12 positions) a matter of CPU-hours: on a loop, both
//!   hands are runs of piles ([`piles`]);
//! - [`ancestors`]: the tree of positions that reach a loop (or any position), counted by
//!   depth, and the deals in it with the trick at which each enters the loop;
//! - [`hunt`]: loops hunted among positions of every split of a large deck, drawn uniformly,
//!   as runs of piles, or seeded from the loops of smaller decks;
//! - [`blocks`]: aligned cycles on any multiset of 2n cards (the article's box 4), the finite
//!   attack on the 52-card question by aligned blocks.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use bataille_cycles::census::{CensusSpec, CensusState, run};
//! use bataille_engine::{DeckSpec, Method};
//! use bataille_search::{Shard, pool::Pool};
//!
//! // Every loop of C=4 V=3, among all 450,450 positions: the article's one 19-trick cycle.
//! let spec = CensusSpec::new(DeckSpec::new(4, 3).unwrap(), Method::Natural).unwrap();
//! let mut state = CensusState::new(spec, Shard::WHOLE);
//! run(&mut state, &Pool::new(2).unwrap(), 64, &AtomicBool::new(false), &mut |_| {});
//! assert!(state.is_complete());
//! let loops = state.loops();
//! assert_eq!(loops.len(), 1);
//! assert_eq!(loops[0].period_tricks, 19);
//! ```
//!
//! No I/O and no threads of its own: the census runs its units on the search harness's
//! [`bataille_search::pool::Pool`]; `bataille_runs` reads and writes the files of its runs.
//!
//! # Crate layout
//!
//! - [`piles`] (private): hands as runs of piles, read card by card.
//! - [`census`]: [`census::CensusSpec`], units, [`census::search_unit`], [`census::run`],
//!   [`census::CensusState`] (checkpoints, shards merged).
//! - [`ancestors`]: [`ancestors::Tree`], the positions and deals that reach a loop.
//! - [`hunt`]: [`hunt::PositionHunt`], positions of every split drawn by a sampler (uniform, as
//!   runs of piles, or seeded from known loops) and played by the search harness.
//! - [`blocks`]: every aligned cycle on a multiset of 2n cards (aligned blocks), in units with
//!   checkpoints, and the catalogue's CSV rows.

pub mod ancestors;
pub mod blocks;
pub mod census;
pub mod hunt;
mod piles;

#[cfg(test)]
mod fuzz;
