//! The runs of `bataille cycles`, on `bataille_cycles`: the census of every loop of a deck
//! into an output directory ([`census`]), the walk up the tree of a position's ancestors with
//! its listing of deals ([`ancestors`]), and the files of a position hunt that the search
//! harness's run does not make itself (its seeds, read here and written beside its results);
//! and the bound on the memory of a walk up a tree of ancestors ([`check_walk_memory`]).

use std::path::Path;

use bataille_cycles::hunt::{self, PositionHunt, Sampler};
use bataille_engine::Position;

use crate::error::{Context, Result, bail};
use crate::files::{MAX_RECORDS_BYTES, Words, read_bounded};

pub mod ancestors;
pub mod census;

/// The most memory a walk up the tree of ancestors may take for its pending positions.
pub const MAX_WALK_BYTES: u128 = 8 << 30;

/// Refuses a budget of `budget` positions whose walk over positions of `cards` cards could
/// hold more than [`MAX_WALK_BYTES`] of pending positions (a position with many tie orders
/// queues all of its predecessors at once).
pub fn check_walk_memory(budget: u64, cards: usize, words: &Words) -> Result<()> {
    let bytes = bataille_engine::backward::pending_bytes(budget, cards);
    if bytes > MAX_WALK_BYTES {
        bail!(
            "{} {budget} on {cards} cards could hold up to {:.1} GiB of positions waiting to be \
             searched, more than the limit of {} GiB: lower {} (at most {})",
            words.budget,
            bytes as f64 / f64::from(1u32 << 30),
            MAX_WALK_BYTES >> 30,
            words.budget,
            MAX_WALK_BYTES / bataille_engine::backward::pending_bytes(1, cards)
        );
    }
    Ok(())
}

/// The seed positions of a position hunt's `insert` or `mutate` sampler, read from the file at
/// `path` (one position per line, or a CSV file with a column of positions:
/// [`bataille_cycles::hunt::read_seeds`]).
pub fn read_seeds(path: &Path) -> Result<Vec<Position>> {
    let text = read_bounded(path, MAX_RECORDS_BYTES)?
        .with_context(|| format!("cannot read {}: it does not exist", path.display()))?;
    hunt::read_seeds(&text).with_context(|| format!("cannot read the seeds {}", path.display()))
}

/// The files a position hunt writes beside the harness's results: `seeds.txt`, the positions
/// its sampler starts from, when it has any.
pub fn hunt_files(game: &PositionHunt) -> Vec<(&'static str, Vec<u8>)> {
    match game.sampler() {
        Sampler::Insert(seeds) | Sampler::Mutate(seeds) if !seeds.is_empty() => {
            vec![("seeds.txt", hunt::write_seeds(seeds).into_bytes())]
        }
        _ => Vec::new(),
    }
}
