//! Exhaustive and random exploration of deals, in parallel, reproducibly.
//!
//! This crate is the search harness behind `bataille explore` and `bataille hunt`: it
//! enumerates every deal of a small deck (one per mirror pair when the players' roles are
//! symmetric) or draws seeded random deals, plays them on a rayon pool, and aggregates the
//! outcomes so that the result is byte-identical whatever the number of threads, however the
//! run is split into shards, and however often it is interrupted and resumed.
//!
//! Main types: [`DealGame`] (what a game must provide: its deck, how to play one deal;
//! implemented by [`Bataille`] and by [`bmn::Bmn`] for beggar-my-neighbour), [`Plan`] (the
//! mode, work units and seed), [`explore`] (the driver), [`State`] (completed units +
//! aggregates, saved as checkpoints and merged across shards) and [`Stats`] (the
//! order-independent aggregates).
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use bataille_engine::{DeckSpec, Limits, Method, Methods};
//! use bataille_search::{explore, Bataille, Mode, Options, Plan, Shard, Silent};
//!
//! let game = Bataille::new(
//!     DeckSpec::new(4, 3).unwrap(),
//!     Methods::both(Method::Natural),
//!     Limits::DETERMINISTIC,
//! );
//! let plan = Plan::new(&game, Mode::Exhaustive, 0, 10).unwrap();
//! let options = Options { threads: 2, ..Options::default() };
//! let stop = AtomicBool::new(false);
//! let ended = explore(&game, &plan, Shard::WHOLE, None, &options, &Silent, &stop).unwrap();
//! let s = &ended.state.stats;
//! assert_eq!(s.deals, 17_370); // published: C=4 V=3 has 17,370 deals up to the swap
//! assert_eq!(s.finished() + s.looping_deals, s.deals);
//! ```
//!
//! # Crate layout
//!
//! - [`arrangement`]: counting, ranking, unranking and stepping through multiset arrangements;
//!   the closed formula for deals up to the player swap.
//! - [`game`]: the [`DealGame`] trait and the per-deal [`DealRecord`].
//! - [`bataille`]: bataille as a [`DealGame`] on the engine.
//! - [`bmn`]: beggar-my-neighbour as a [`DealGame`] on the `bataille-bmn` engine.
//! - [`stats`]: [`Stats`], the exact, mergeable aggregates (for a hunt, see
//!   [`Plan::keeping_loop_deals`], also the deals reaching each loop; with
//!   [`Plan::keeping_cycles`], only a uniform sample of the distinct loops).
//! - [`plan`]: [`Plan`], [`Mode`], [`Shard`], work units and their random streams, [`UnitSet`].
//! - [`sealed`]: the checksummed text form of every state file.
//! - [`seed`]: the mixing function every seeded random stream is derived from.
//! - [`state`]: [`State`] and its checksummed text form (checkpoints, `state.txt`).
//! - [`pool`]: [`pool::Pool`], the worker threads every search of the workspace runs its units
//!   on.
//! - [`run`](mod@run): the parallel driver [`explore`] and the [`Progress`] callbacks.
//! - [`report`]: CSV tables and the human summary.

pub mod arrangement;
pub mod bataille;
pub mod bmn;
pub mod game;
pub mod plan;
pub mod pool;
pub mod report;
pub mod run;
pub mod sealed;
pub mod seed;
pub mod state;
pub mod stats;

#[cfg(test)]
mod naive;

pub use bataille::{Bataille, RandomConvention};
pub use game::{Alignment, CycleInfo, DealGame, DealOutcome, DealRecord};
pub use plan::{Mode, Plan, RunKey, Shard, ShardError, UnitSet};
pub use run::{
    Ended, Options, Progress, RunError, Silent, explore, explore_sequential, run_unit,
    run_unit_until, sample_speed,
};
pub use state::{State, StateError};
pub use stats::Stats;

#[cfg(test)]
mod fuzz;
