//! `merge`: the output directories of the shards of one search (`explore`, `hunt`,
//! `bmn explore`, a position hunt) read back and written as the results of the whole run,
//! byte for byte those of a run on one machine. The game is named in the state files; every
//! deal they keep is played again before anything is written.

use std::path::{Path, PathBuf};
use std::time::Instant;

use bataille_cycles::hunt::{PositionHunt, read_seeds};
use bataille_engine::position::quoted;
use bataille_search::bmn::Bmn;
use bataille_search::{Bataille, DealGame, Plan, State};

use crate::error::{Context as _, bail};
use crate::files::{
    MAX_RECORDS_BYTES, MAX_STATE_BYTES, Words, prepare_outputs, read_bounded, same_path,
};
use crate::search::result_files;
use crate::{Error, Result};

/// What [`merge`] wrote.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The human summary of the merged results.
    pub summary: String,
    /// For partial results, which shards they lack, as a sentence; `None` when complete.
    pub missing: Option<String>,
}

/// Merges the output directories `parts` of one search into `out` (refused when used, unless
/// `replace`): every part's `state.txt` read and checked, the parts' states merged, and the
/// result files and `metadata.csv` (`command`, the command that merged them) written at once.
/// Parts that do not cover the whole run are refused unless `partial`.
pub fn merge(
    parts: &[PathBuf],
    out: &Path,
    replace: bool,
    partial: bool,
    command: String,
    words: &Words,
) -> Result<Merged> {
    let started = Instant::now();
    if let Some(dir) = parts.iter().find(|d| same_path(d, out)) {
        bail!(
            "{} {} is one of the parts to merge: the merge would replace it; give another \
             directory",
            words.out,
            dir.display()
        );
    }
    let mut states = Vec::new();
    for dir in parts {
        let path = dir.join("state.txt");
        let text = read_bounded(&path, MAX_STATE_BYTES)?.with_context(|| {
            format!("cannot read {}: no such file (is it an explore output?)", path.display())
        })?;
        states
            .push(State::decode(&text).with_context(|| format!("cannot read {}", path.display()))?);
    }
    let state = State::merge(&states).map_err(Error::new)?;
    if !state.is_complete() && !partial {
        bail!("{}; pass {} to merge them anyway", missing_shards(&state), words.partial);
    }
    let _outputs = prepare_outputs(None, false, out, replace, &|_| false, words)?;
    let identity = state.key.game.clone();
    let seeds = || read_bounded(&parts[0].join("seeds.txt"), MAX_RECORDS_BYTES);
    let merged = Merging { state: &state, out, parts: parts.len(), command, started };
    let summary = if let Some(game) = Bataille::from_identity(&identity) {
        merged.write(&game, seeds().ok().flatten())?
    } else if let Some(game) = Bmn::from_identity(&identity) {
        merged.write(&game, seeds().ok().flatten())?
    } else if identity.starts_with("positions ") {
        // A position hunt: its seeds are in each part's seeds.txt (the identity names them).
        let text = seeds()?;
        let list = match &text {
            Some(text) => read_seeds(text)
                .with_context(|| format!("cannot read {}", parts[0].join("seeds.txt").display()))?,
            None => Vec::new(),
        };
        let game = PositionHunt::from_identity(&identity, &list).with_context(|| {
            format!("the parts' seeds.txt are not the seeds of {}", quoted(&identity))
        })?;
        merged.write(&game, text)?
    } else {
        bail!("unknown game {} in the state files", quoted(&identity))
    };
    let missing = (!state.is_complete()).then(|| missing_shards(&state));
    Ok(Merged { summary, missing })
}

/// The merged state and where it goes.
struct Merging<'a> {
    state: &'a State,
    out: &'a Path,
    /// How many parts were merged.
    parts: usize,
    command: String,
    started: Instant,
}

impl Merging<'_> {
    /// Writes the results of the merged state for `game`, with `seeds` (a position hunt's
    /// seeds.txt) beside them; returns the human summary.
    fn write<G: DealGame>(self, game: &G, seeds: Option<String>) -> Result<String> {
        let state = self.state;
        let plan = Plan::with_unit_size(
            game,
            state.key.mode,
            state.key.seed,
            state.key.top,
            state.key.unit_size,
        )
        .map_err(Error::new)?
        .keeping_loop_deals(state.key.loop_deals)
        .keeping_cycles(state.key.max_cycles);
        if plan.key() != &state.key {
            bail!("the state files do not describe a run of {}", state.key.game);
        }
        // Every deal kept is one of the game's: merged, they are played and written.
        state.check_deals(game).context("cannot merge")?;
        let (mut files, summary) = result_files(self.out, game, &plan, state)?;
        if let Some(seeds) = seeds {
            files.add("seeds.txt", seeds.into_bytes());
        }
        files.add_key_values(
            "metadata.csv",
            &[
                ("command", self.command),
                ("version", env!("CARGO_PKG_VERSION").to_string()),
                ("parts", self.parts.to_string()),
                ("elapsed_s", format!("{:.3}", self.started.elapsed().as_secs_f64())),
            ],
        );
        files.commit()?;
        Ok(summary)
    }
}

/// Which shards an incomplete merged state lacks, as a sentence.
pub fn missing_shards(state: &State) -> String {
    let stride = state.done.stride();
    let units = state.key.units;
    if stride <= 1 {
        return format!(
            "the parts cover {} of {units} units: the run is unfinished",
            state.done.len()
        );
    }
    const LISTED: usize = 20;
    let (missing, first) = state.done.incomplete_shards(units, LISTED);
    let mut list: Vec<String> = first.iter().map(u64::to_string).collect();
    if missing > first.len() as u64 {
        list.push(format!("and {} more", missing - first.len() as u64));
    }
    let (noun, verb) = if missing == 1 { ("shard", "is") } else { ("shards", "are") };
    format!(
        "{noun} {} of {stride} {verb} missing or unfinished (the parts cover {} of {units} units)",
        list.join(", "),
        state.done.len()
    )
}
