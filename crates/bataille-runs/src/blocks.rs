//! The search for every aligned cycle on 2n cards (`bataille_cycles::blocks`) run into its
//! catalogue file, in the steps a front end takes: the run checked, its file and checkpoint
//! locked and its state read (a checkpoint continued, or the checkpoints of every shard
//! merged) by [`Blocks::prepare`]; its units searched with a checkpoint saved after batches
//! ([`Blocks::search`]); then every loop replayed by the engine and the catalogue written
//! ([`Blocks::finish`]). A run stopped before its end writes no catalogue: a partial one would
//! read as whole. And the catalogues read back ([`read_catalogue`]), for the covers of decks.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use bataille_cycles::blocks::{self, BlocksSpec, BlocksState, CatalogueRow};
use bataille_engine::aligned::check;
use bataille_engine::{Limits, Method, Methods, NoRandom, Outcome, play};
use bataille_search::Shard;

use crate::Error;
use crate::cost::{UnitsCost, sample_units};
use crate::error::{Context, Result, bail};
use crate::files::{
    Checkpointer, MAX_RECORDS_BYTES, MAX_STATE_BYTES, Outputs, Words, prepare_file_output,
    read_bounded, write_atomic,
};
use crate::progress::Steps;
use crate::say::Say;

/// A search of aligned blocks as the caller asked for it.
#[derive(Debug, Clone)]
pub struct BlocksConfig {
    /// The cards of a block, the most times a value occurs, the rounds followed.
    pub spec: BlocksSpec,
    /// The part of the units to search.
    pub shard: Shard,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Units searched in a batch (the checkpoint is saved after batches: [`Checkpointer`]).
    pub batch: usize,
    /// Where the state is saved (after batches: [`Checkpointer`]), and whether the run
    /// continues it.
    pub checkpoint: Option<PathBuf>,
    pub resume: bool,
    /// The complete checkpoints of every shard, to merge instead of searching (empty: none).
    pub merge: Vec<PathBuf>,
    /// The catalogue file; `None`: the catalogue is handed back ([`BlocksEnd::catalogue`]).
    pub out: Option<PathBuf>,
    /// The names of these options in refusals.
    pub words: Words,
}

/// A search checked, its outputs locked (until it is dropped) and its state read.
#[derive(Debug)]
pub struct Blocks {
    config: BlocksConfig,
    state: BlocksState,
    /// When the work of this invocation started.
    started: Instant,
    _outputs: Outputs,
}

/// How a search ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlocksEnd {
    /// Every unit of the shard was searched.
    pub complete: bool,
    /// Loops of the catalogue that the engine does not replay as aligned loops (each said).
    pub replay_failures: usize,
    /// The catalogue, when it has no file and the search is complete.
    pub catalogue: Option<String>,
    /// The closing line: units, loops, prime ones, the search's counters, the loops replayed,
    /// the CPU and wall time.
    pub summary: String,
}

/// Refuses more shards than units.
fn check_shard(spec: BlocksSpec, shard: Shard, words: &Words) -> Result<()> {
    let units = BlocksState::new(spec, Shard::WHOLE).units;
    if shard.count() > units {
        bail!(
            "{} {shard}: the search of {} cards has {units} units, fewer than {} shards",
            words.shard,
            spec.cards(),
            shard.count()
        );
    }
    Ok(())
}

/// What `shard` of the search of `spec` would cost on `threads` threads (0: one per core),
/// measured on a sample of its units ([`sample_units`]); refused as [`Blocks::prepare`]
/// refuses the run. Nothing is written. The replay of the loops found, after the search, is
/// not in the estimate.
pub fn dry_run(spec: BlocksSpec, shard: Shard, threads: usize, words: &Words) -> Result<UnitsCost> {
    check_shard(spec, shard, words)?;
    let pool = blocks::pool(threads).map_err(Error::new)?;
    let state = BlocksState::new(spec, shard);
    let run = format!("aligned blocks of {} cards", spec.cards());
    Ok(sample_units(run, &pool, shard, state.units, state.to_text().len(), |u, stop| {
        blocks::search_unit_until(spec, u, stop).is_some()
    }))
}

impl Blocks {
    /// Checks the run, locks its catalogue file and checkpoint, and reads its state: the
    /// checkpoint it continues, the shards' checkpoints it merges, or a state with nothing
    /// done. Refused: more shards than units, a catalogue file that exists (unless the run
    /// resumes: it is the file of the run that writes it).
    pub fn prepare(config: BlocksConfig) -> Result<Blocks> {
        let (spec, shard, words) = (config.spec, config.shard, &config.words);
        check_shard(spec, shard, words)?;
        // The output is one file: its directory may hold others (the catalogue of each size),
        // but a finished catalogue is not replaced silently.
        if let Some(out) = &config.out
            && out.exists()
            && !config.resume
        {
            bail!(
                "{} already exists: remove it first, or pass {} with the checkpoint of the run \
                 that writes it",
                out.display(),
                words.resume
            );
        }
        let outputs = prepare_file_output(
            config.out.as_deref(),
            config.checkpoint.as_deref(),
            config.resume,
            words,
        )?;
        let state = match (&config.checkpoint, config.resume) {
            _ if !config.merge.is_empty() => merge_states(&config.merge, spec)?,
            (Some(path), true) => {
                let text = fs::read_to_string(path)
                    .with_context(|| format!("cannot read the checkpoint {}", path.display()))?;
                BlocksState::from_text(&text, spec, shard).map_err(Error::new)?
            }
            _ => BlocksState::new(spec, shard),
        };
        Ok(Blocks { config, state, started: Instant::now(), _outputs: outputs })
    }

    /// The state so far: the units of the shard ([`BlocksState::shard_units`]) and those done.
    pub fn state(&self) -> &BlocksState {
        &self.state
    }

    /// Searches the pending units (the merged state of a merge saved first), saving the
    /// checkpoint after batches ([`Checkpointer`]) and telling `progress` the units done and
    /// what they found; `stop` ends the search within milliseconds, keeping the whole units
    /// done. A checkpoint that cannot be saved ends it in an error, once the units are done.
    pub fn search(&mut self, stop: &AtomicBool, progress: &mut dyn FnMut(Steps<'_>)) -> Result<()> {
        self.started = Instant::now();
        let mut checkpoint = Checkpointer::new(self.config.checkpoint.as_deref());
        if !self.config.merge.is_empty() {
            checkpoint.save(self.state.done, || self.state.to_text());
        }
        let pool = blocks::pool(self.config.threads).map_err(Error::new)?;
        let (from, total) = (self.state.done, self.state.shard_units());
        blocks::run(&mut self.state, &pool, self.config.batch, stop, &mut |s| {
            let what = format!("{} cycles of rounds, {} nodes", s.cycles.len(), s.nodes);
            progress(Steps { done: s.done, from, total, what: &what });
            checkpoint.batch(s.done, || s.to_text());
        });
        checkpoint.finish(self.state.done, || self.state.to_text())
    }

    /// Replays every loop found by the engine (saying each that fails), then writes the
    /// catalogue to its file or hands it back; a search stopped before its end writes none and
    /// says so.
    pub fn finish(self, say: &dyn Say) -> Result<BlocksEnd> {
        let Blocks { config, state, started, _outputs } = self;
        let (spec, shard) = (config.spec, config.shard);
        let rows = blocks::catalogue(&state.cycles);
        // Every loop replayed by the engine in full: an aligned loop with the period found. The
        // position comes back after the row's tricks, so the engine's (least) period divides
        // them; it is smaller when the position is a shorter block repeated, e.g. the 8-card
        // block [2, 1, 2, 2] / [3, 2, 2, 1] twice, whose 16-card round of 6 tricks is two turns
        // of its 3-trick loop.
        let natural = Methods::both(Method::Natural);
        let mut replay_failures = 0;
        for c in &rows {
            let p = c.position();
            let looped = matches!(
                play(&p, natural, &mut NoRandom, Limits::DETERMINISTIC).outcome,
                Outcome::Cycle(cy) if cy.tail_tricks == 0 && c.period_tricks % cy.period_tricks == 0
            );
            let rounds = check(&p, natural)
                .is_ok_and(|a| a.tail_rounds == 0 && a.period_rounds == c.period_rounds);
            if !(looped && rounds) {
                say.note(&format!("bataille: {p} does NOT replay as an aligned loop"));
                replay_failures += 1;
            }
        }
        let text = blocks::catalogue_text(&rows);
        let total = state.shard_units();
        // A run stopped before its end writes no catalogue: a partial one would read as whole
        // (`aligned cover` takes every catalogue as complete). Its checkpoint holds the rest.
        let mut catalogue = None;
        match &config.out {
            _ if !state.is_complete() => say.note(&format!(
                "bataille: stopped before the end ({}/{} units): no catalogue written; continue \
                 with {} FILE {}",
                state.done, total, config.words.checkpoint, config.words.resume
            )),
            Some(path) => write_atomic(path, text.as_bytes())
                .with_context(|| format!("cannot write {}", path.display()))?,
            None => catalogue = Some(text),
        }
        let prime = rows.iter().filter(|c| blocks::splits(&c.first, &c.second).is_empty()).count();
        let summary = format!(
            "blocks {} cards (max multiplicity {}): {}/{} units{}, {} loops ({} prime, {} with \
             f∘f = swap), {} cycles of rounds, {} nodes, {} leaves, {} undecided; {} replayed by \
             the engine as aligned loops; {:.1} s CPU, {:.1} s wall",
            spec.cards(),
            spec.max_multiplicity(),
            state.done,
            total,
            if shard == Shard::WHOLE { String::new() } else { format!(" of shard {shard}") },
            rows.len(),
            prime,
            rows.iter().filter(|c| c.square_is_swap).count(),
            state.cycles.len(),
            state.nodes,
            state.leaves,
            state.capped,
            rows.len() - replay_failures,
            cpu_seconds(),
            started.elapsed().as_secs_f64()
        );
        Ok(BlocksEnd { complete: state.is_complete(), replay_failures, catalogue, summary })
    }
}

/// The state of a whole run from the complete checkpoints of its shards.
fn merge_states(paths: &[PathBuf], spec: BlocksSpec) -> Result<BlocksState> {
    let mut parts = Vec::new();
    for path in paths {
        let text = read_bounded(path, MAX_STATE_BYTES)?.with_context(|| {
            format!("cannot read the checkpoint {}: it does not exist", path.display())
        })?;
        // The shard is read from the file, then checked with the rest of its header.
        let shard: Shard = text
            .lines()
            .find_map(|l| l.strip_prefix("shard "))
            .and_then(|s| s.parse().ok())
            .with_context(|| {
                format!("{} is not a blocks checkpoint (no shard line)", path.display())
            })?;
        let state = BlocksState::from_text(&text, spec, shard)
            .with_context(|| format!("cannot use {}", path.display()))?;
        parts.push(state);
    }
    BlocksState::merge(&parts).map_err(Error::new)
}

/// The CPU time of this process (user and system), in seconds.
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let usage = unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut u);
        u
    };
    let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
    t(usage.ru_utime) + t(usage.ru_stime)
}

/// Every catalogue in `dir` (its `blocks-*.csv` files, in the order of their names), read
/// back.
pub fn read_catalogue(dir: &Path) -> Result<Vec<CatalogueRow>> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .with_context(|| format!("cannot read the catalogue directory {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "csv"))
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("blocks-"))
        })
        .collect();
    files.sort();
    if files.is_empty() {
        bail!("{} holds no catalogue (no blocks-N.csv file)", dir.display());
    }
    let mut rows = Vec::new();
    for path in files {
        let text = read_bounded(&path, MAX_RECORDS_BYTES)?
            .with_context(|| format!("cannot read {}", path.display()))?;
        rows.extend(
            blocks::read_catalogue(&text)
                .with_context(|| format!("cannot read {}", path.display()))?,
        );
    }
    Ok(rows)
}
