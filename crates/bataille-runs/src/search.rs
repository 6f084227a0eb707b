//! A run of the search harness (`explore`, `hunt`, `bmn explore`, the position hunts) into an
//! output directory, in the steps a front end takes: the checkpoint read and checked
//! ([`SearchRun::resume_from`]), the outputs checked and locked ([`SearchRun::prepare`]), the
//! deals played with a checkpoint saved as they go ([`SearchRun::explore`]), and the result
//! files written all at once ([`SearchRun::write`]). Between the steps the front end does what
//! is its own: a time estimate, the Ctrl-C handler, a progress display, the final report.
//!
//! A run stopped and resumed (any number of times, whatever the threads) writes the files of an
//! uninterrupted run: the harness's state counts whole units only, and the checkpoint is
//! replaced atomically.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use bataille_search::{DealGame, Ended, Options, Plan, Progress, Shard, State, explore, report};

use crate::Error;
use crate::error::{Context, Result};
use crate::files::{
    MAX_STATE_BYTES, OutputFiles, Outputs, Words, prepare_outputs, read_bounded, write_atomic,
};

/// A run of the harness, validated: what it plays and where its files go.
#[derive(Debug)]
pub struct SearchRun<'a, G: DealGame> {
    /// The game whose deals are played.
    pub game: &'a G,
    /// The deals, their work units, what is kept.
    pub plan: &'a Plan,
    /// The part of the run to do.
    pub shard: Shard,
    /// Threads, checkpoint period, a cap on the units of this invocation.
    pub options: Options,
    /// Where the checkpoint is saved, and whether the run continues it.
    pub checkpoint: Option<PathBuf>,
    pub resume: bool,
    /// The output directory, and whether its results may be replaced.
    pub out: PathBuf,
    pub replace: bool,
    /// The names of these options in refusals.
    pub words: Words,
}

/// The end of [`SearchRun::explore`].
#[derive(Debug)]
pub struct Finished {
    /// The harness's end: the state reached, whether it stopped early, deals played.
    pub ended: Ended,
    /// Whether the run continued a checkpoint.
    pub resumed: bool,
    /// Seconds spent playing in this invocation.
    pub elapsed: f64,
}

impl<G: DealGame> SearchRun<'_, G> {
    /// The state to continue: read from the checkpoint and checked against the run when
    /// resuming, `None` otherwise.
    pub fn resume_from(&self) -> Result<Option<State>> {
        let (Some(path), true) = (&self.checkpoint, self.resume) else { return Ok(None) };
        let text = read_bounded(path, MAX_STATE_BYTES)?.with_context(|| {
            format!("cannot read the checkpoint {}: it does not exist", path.display())
        })?;
        let state = State::decode(&text)
            .with_context(|| format!("cannot resume from {}", path.display()))?;
        state
            .check_resumable(self.plan.key(), self.shard)
            .and_then(|()| state.check_deals(self.game))
            .with_context(|| format!("cannot resume from {}", path.display()))?;
        Ok(Some(state))
    }

    /// Checks the outputs and locks them until the returned value is dropped: an output
    /// directory that holds files takes them only when they are this run's own (its
    /// `state.txt` is a state of this run, and the run resumes) or may be replaced.
    pub fn prepare(&self) -> Result<Outputs> {
        let own = |dir: &Path| {
            read_bounded(&dir.join("state.txt"), MAX_STATE_BYTES)
                .ok()
                .flatten()
                .and_then(|text| State::decode(&text).ok())
                .is_some_and(|s| s.check_resumable(self.plan.key(), self.shard).is_ok())
        };
        prepare_outputs(
            self.checkpoint.as_deref(),
            self.resume,
            &self.out,
            self.replace,
            &own,
            &self.words,
        )
    }

    /// Plays the pending units from `resume`, showing `progress` and saving the checkpoint as
    /// the harness offers it; `stop` ends the run early (the checkpoint then holds every unit
    /// played in full).
    pub fn explore(
        &self,
        resume: Option<State>,
        progress: &dyn Progress,
        stop: &AtomicBool,
    ) -> Result<Finished> {
        let resumed = resume.is_some();
        let saving = Checkpointing { inner: progress, path: self.checkpoint.as_deref() };
        let started = Instant::now();
        let ended = explore(self.game, self.plan, self.shard, resume, &self.options, &saving, stop)
            .map_err(Error::new)?;
        Ok(Finished { ended, resumed, elapsed: started.elapsed().as_secs_f64() })
    }

    /// Writes the result files of `finished` to the output directory, all at once: the
    /// tables, `state.txt`, `extra` files, and `metadata.csv` (`command`, the command that
    /// made them; `threads`, the number of threads used). Returns the human summary.
    pub fn write(
        &self,
        finished: &Finished,
        command: String,
        threads: usize,
        extra: &[(&'static str, Vec<u8>)],
    ) -> Result<String> {
        let Finished { ended, resumed, elapsed } = finished;
        let (mut files, summary) = result_files(&self.out, self.game, self.plan, &ended.state)?;
        for (name, bytes) in extra {
            files.add(name, bytes.clone());
        }
        let per_s = ended.deals_played as f64 / elapsed.max(1e-9);
        files.add_key_values(
            "metadata.csv",
            &[
                ("command", command),
                ("version", env!("CARGO_PKG_VERSION").to_string()),
                ("seed", self.plan.key().seed.to_string()),
                ("threads", threads.to_string()),
                ("shard", self.shard.to_string()),
                ("resumed", resumed.to_string()),
                ("elapsed_s", format!("{elapsed:.3}")),
                ("deals_played", ended.deals_played.to_string()),
                ("deals_per_s", format!("{per_s:.0}")),
                ("engine", self.game.engine()),
            ],
        );
        files.commit()?;
        Ok(summary)
    }
}

/// The progress of a run, which also saves each checkpoint the harness offers to `path`.
struct Checkpointing<'a> {
    inner: &'a dyn Progress,
    path: Option<&'a Path>,
}

impl Progress for Checkpointing<'_> {
    fn start(&self, pending: u64, deals: u128) {
        self.inner.start(pending, deals);
    }

    fn unit_done(&self, deals: u64) {
        self.inner.unit_done(deals);
    }

    fn checkpoint(&self, state: &State) -> std::io::Result<()> {
        self.inner.checkpoint(state)?;
        match self.path {
            Some(path) => write_atomic(path, state.encode().as_bytes()),
            None => Ok(()),
        }
    }
}

/// The result files (all but the metadata) of `state`, for the directory `dir`, and the human
/// summary: `summary.csv`, `histograms.csv`, `records.csv`, `cycles.csv`, `loops.csv` for a
/// hunt that keeps the deals of each loop, and `state.txt`.
pub fn result_files<G: DealGame>(
    dir: &Path,
    game: &G,
    plan: &Plan,
    state: &State,
) -> Result<(OutputFiles, String)> {
    let mut files = OutputFiles::new(dir);
    let cycles = report::cycle_rows(game, state);
    let mut add = |name: &'static str,
                   write: &dyn Fn(&mut Vec<u8>) -> csv::Result<()>|
     -> Result<()> {
        let mut bytes = Vec::new();
        write(&mut bytes).with_context(|| format!("cannot write {}", dir.join(name).display()))?;
        files.add(name, bytes);
        Ok(())
    };
    add("summary.csv", &|w| report::write_summary(game, state, plan.deals(), w))?;
    add("histograms.csv", &|w| report::write_histograms(state, w))?;
    add("records.csv", &|w| report::write_records(game, state, w))?;
    add("cycles.csv", &|w| report::write_cycles(&cycles, w))?;
    if state.key.loop_deals > 0 {
        add("loops.csv", &|w| report::write_loops(game, state, &cycles, w))?;
    }
    files.add("state.txt", state.encode().into_bytes());
    Ok((files, report::human_summary(game, state, &cycles)))
}
