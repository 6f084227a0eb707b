//! A record search (`bataille_records::search`, iterated simulated annealing over deals) run
//! into an output directory, in the steps a front end takes: the search checked, its outputs
//! locked and its checkpoint read ([`RecordSearch::prepare`]); the deals evaluated, the
//! checkpoint saved as the search offers it ([`RecordSearch::search`]); then `best.csv`,
//! `cycles.csv`, `state.txt` and `metadata.csv` written all at once, the report said and the
//! best deal of each measure appended to the records file ([`Searched::finish`]). Between the
//! steps the front end does what is its own: the Ctrl-C handler, a progress display.
//!
//! The same work gives the same files, whatever the threads: the search is deterministic in
//! its iterations, and the checkpoint is replaced atomically.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use bataille_records::row::{FoundBy, RecordRow};
use bataille_records::search::{
    Budget, Config, RunOptions, SearchEnded, SearchProgress, SearchResult, SearchState, search,
};
use bataille_search::stats::Measure;

use crate::Error;
use crate::error::{Context, Result, bail};
use crate::files::{
    MAX_STATE_BYTES, OutputFiles, Outputs, Words, check_outside_outputs, check_records_apart,
    prepare_outputs, read_bounded, write_atomic,
};
use crate::provenance::{commit, machine, utc_now};
use crate::records::{append_records, appended, check_records_file};
use crate::say::Say;

/// A record search as the caller asked for it.
#[derive(Debug, Clone)]
pub struct SearchConfig {
    /// What is searched: deck, methods, measure, seed, chains, schedule.
    pub search: Config,
    /// How long: deals evaluated in all, or seconds.
    pub budget: Budget,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Where the search is saved every `checkpoint_every`, and whether the run continues it.
    pub checkpoint: Option<PathBuf>,
    pub resume: bool,
    pub checkpoint_every: Duration,
    /// The records file the best deal of each measure is appended to, if any.
    pub records: Option<PathBuf>,
    /// The output directory, and whether its results may be replaced.
    pub out: PathBuf,
    pub replace: bool,
    /// Whether the replay command names the second player's method when it is the first's too
    /// (the command line names it when `--method2` was typed).
    pub method2_named: bool,
    /// The names of these options in refusals.
    pub words: Words,
}

/// A record search checked, its outputs locked (until it is dropped) and its checkpoint read.
#[derive(Debug)]
pub struct RecordSearch {
    config: SearchConfig,
    resume: Option<SearchState>,
    /// The code and machine the search starts with (the working directory may move on during
    /// a long run).
    commit: String,
    machine: String,
    _outputs: Outputs,
}

/// A record search done or stopped, its files not yet written.
#[derive(Debug)]
pub struct Searched {
    run: RecordSearch,
    ended: SearchEnded,
    /// Seconds the search took in this invocation.
    elapsed: f64,
}

/// How a record search ended.
#[derive(Debug)]
pub struct SearchEnd {
    /// The search's end: its state, results, deals evaluated, and whether it was stopped.
    pub ended: SearchEnded,
    /// The command that replays it (an iteration budget: the same deals).
    pub replay: String,
}

impl RecordSearch {
    /// Checks the search and the records file (readable, appendable, not one of the results
    /// nor the checkpoint), reads the checkpoint it continues (refused when it is past an
    /// iteration budget), and checks and locks the outputs: an output directory that holds
    /// files takes them only when they are this search's own (resumed) or may be replaced.
    pub fn prepare(config: SearchConfig) -> Result<RecordSearch> {
        let (commit, machine) = (commit(), machine());
        let (cfg, words) = (&config.search, &config.words);
        cfg.validate().map_err(Error::new)?;
        if let Some(records) = &config.records {
            check_outside_outputs(words.records, records, &config.out, words)?;
            check_records_apart(words.records, records, config.checkpoint.as_deref())?;
            check_records_file(records)?;
        }
        let read_state = |path: &Path| -> Result<Option<SearchState>> {
            let Some(text) = read_bounded(path, MAX_STATE_BYTES)? else {
                return Ok(None);
            };
            Ok(Some(
                SearchState::decode(&text, cfg)
                    .with_context(|| format!("cannot resume from {}", path.display()))?,
            ))
        };
        let resume = match (&config.checkpoint, config.resume) {
            (Some(path), true) => Some(read_state(path)?.with_context(|| {
                format!("cannot read the checkpoint {}: it does not exist", path.display())
            })?),
            _ => None,
        };
        if let (Some(state), Budget::Iterations(n)) = (&resume, config.budget)
            && state.iterations() > n
        {
            bail!(
                "the checkpoint is already at {} iterations, beyond {} {n}: a resume cannot give \
                 the run of {n} (start it again without {})",
                state.iterations(),
                words.iterations,
                words.resume
            );
        }
        let own = |dir: &Path| read_state(&dir.join("state.txt")).is_ok_and(|s| s.is_some());
        let outputs = prepare_outputs(
            config.checkpoint.as_deref(),
            config.resume,
            &config.out,
            config.replace,
            &own,
            words,
        )?;
        Ok(RecordSearch { config, resume, commit, machine, _outputs: outputs })
    }

    /// Evaluates deals until the budget is spent or `stop` is set (the round under way
    /// finished), telling `progress` each round and saving each checkpoint it offers. A search
    /// that evaluated no deal at all (a time budget too short) is refused.
    pub fn search(mut self, progress: &dyn SearchProgress, stop: &AtomicBool) -> Result<Searched> {
        let c = &self.config;
        let options = RunOptions {
            threads: c.threads,
            checkpoint_every: c.checkpoint_every.max(Duration::from_secs(1)),
        };
        let saving = Saving { inner: progress, path: c.checkpoint.as_deref() };
        let started = Instant::now();
        let ended = search(&c.search, c.budget, self.resume.take(), &options, &saving, stop)
            .map_err(Error::new)?;
        let elapsed = started.elapsed().as_secs_f64();
        if ended.result.iterations == 0 {
            let time = match c.budget {
                Budget::Time(t) => t,
                Budget::Iterations(_) => Duration::default(),
            };
            bail!(
                "no deal was evaluated within {} {time:?}: give a longer {}, or {} N",
                c.words.time,
                c.words.time,
                c.words.iterations
            );
        }
        Ok(Searched { run: self, ended, elapsed })
    }
}

impl Searched {
    /// Writes the output directory all at once (`metadata.csv` records `command` and the
    /// replay command), says the report (the best games, the loops met, the speed, the replay
    /// command), and appends the best deal of each measure to the records file unless the
    /// search was stopped.
    pub fn finish(self, command: String, say: &dyn Say) -> Result<SearchEnd> {
        let Searched { run, ended, elapsed } = self;
        let RecordSearch { config, commit, machine, .. } = run;
        let cfg = &config.search;
        let (spec, methods, measure) = (cfg.spec, cfg.methods, cfg.measure);
        let result = &ended.result;
        let threads = if config.threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            config.threads
        };
        let replay = replay_command(&config, result.iterations);
        let mut files = OutputFiles::new(&config.out);
        files.add("best.csv", result.best_csv(spec));
        files.add("cycles.csv", result.cycles_csv(spec));
        files.add("state.txt", ended.state.encode().into_bytes());
        let rate = ended.iterations_run as f64 / elapsed.max(1e-9);
        files.add_key_values(
            "metadata.csv",
            &[
                ("command", command),
                ("replay", replay.clone()),
                ("version", env!("CARGO_PKG_VERSION").to_string()),
                ("commit", commit.clone()),
                ("machine", machine.clone()),
                ("seed", cfg.seed.to_string()),
                ("chains", cfg.chains.to_string()),
                ("threads", threads.to_string()),
                ("iterations", result.iterations.to_string()),
                ("iterations_run", ended.iterations_run.to_string()),
                ("elapsed_s", format!("{elapsed:.3}")),
                ("deals_per_s", format!("{rate:.0}")),
            ],
        );
        files.commit()?;
        let spec_name = format!("C={} V={} {}", spec.colours(), spec.values(), methods);
        say.line(&format!(
            "search:    {spec_name}, maximising {}, seed {}",
            measure.name(),
            cfg.seed
        ));
        for (name, list) in [("tricks", &result.by_tricks), ("cards", &result.by_cards)] {
            say.line(&match list.first() {
                Some(f) => format!(
                    "best {name:<6} {} tricks, {} cards: {}",
                    f.tricks,
                    f.cards,
                    SearchResult::position(spec, &f.deal)
                ),
                None => format!("best {name:<6} none (every deal looped)"),
            });
        }
        say.line(&format!(
            "loops:     {} deals looped, {} distinct loops (cycles.csv)",
            result.loops_met,
            result.cycles.len()
        ));
        say.line(&format!(
            "time:      {elapsed:.2} s, {} deals evaluated, {rate:.0} deals/s on {threads} threads",
            ended.iterations_run
        ));
        say.line(&format!("replay:    {replay}"));
        if let Some(records) = config.records.as_ref().filter(|_| !ended.interrupted) {
            let date = utc_now();
            let rows: Vec<_> =
                [(Measure::Tricks, &result.by_tricks), (Measure::Cards, &result.by_cards)]
                    .into_iter()
                    .filter_map(|(m, list)| list.first().map(|f| (m, f)))
                    .map(|(measure, f)| RecordRow {
                        spec,
                        methods,
                        measure,
                        tricks: f.tricks,
                        cards: f.cards,
                        deal: SearchResult::position(spec, &f.deal),
                        found_by: FoundBy {
                            seed: Some(cfg.seed),
                            command: replay.clone(),
                            commit: commit.clone(),
                            machine: machine.clone(),
                            date: date.clone(),
                        },
                    })
                    .collect();
            say.line(&appended(records, append_records(records, &rows)?, rows.len()));
        }
        say.line(&format!("results:   {}", config.out.display()));
        if ended.interrupted {
            say.line("stopped before the end: the results are partial");
        }
        Ok(SearchEnd { ended, replay })
    }
}

/// The command that replays the search of `config` with a budget of `iterations` (the same
/// deals).
fn replay_command(config: &SearchConfig, iterations: u64) -> String {
    let cfg = &config.search;
    let mut c = format!(
        "bataille records search --colours {} --values {} --method {}",
        cfg.spec.colours(),
        cfg.spec.values(),
        cfg.methods.first
    );
    if config.method2_named || cfg.methods.second != cfg.methods.first {
        c += &format!(" --method2 {}", cfg.methods.second);
    }
    c += &format!(
        " --measure {} --seed {} --chains {} --epoch {} --iterations {iterations}",
        cfg.measure, cfg.seed, cfg.chains, cfg.anneal.epoch
    );
    c
}

/// The caller's progress, which also saves each checkpoint the search offers to `path`.
struct Saving<'a> {
    inner: &'a dyn SearchProgress,
    path: Option<&'a Path>,
}

impl SearchProgress for Saving<'_> {
    fn round(&self, iterations: u64, best_tricks: u64, best_cards: u64) {
        self.inner.round(iterations, best_tricks, best_cards);
    }

    fn checkpoint(&self, state: &SearchState) -> std::io::Result<()> {
        self.inner.checkpoint(state)?;
        match self.path {
            Some(path) => write_atomic(path, state.encode().as_bytes()),
            None => Ok(()),
        }
    }
}
