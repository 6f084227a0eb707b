//! Solving one period: CaDiCaL on the formula, each model replayed by the engine, each loop
//! found blocked, until the formula is unsatisfiable (and the proof checked), or the time
//! is up.

use std::cell::Cell;
use std::fs::{self, File};
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bataille_engine::{Limits, Methods, NoRandom, Outcome, Position, loop_positions, play};
use cadical_sys::{CaDiCal, Status, Terminator};
use sha2::{Digest, Sha256};

use crate::cnf::{Cnf, Lit};
use crate::encode::Encoding;
use crate::lrat::{self, Checked, LratError};
use crate::question::{Counted, Question, QuestionError};

/// A loop found by the solver and replayed by the engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The position the solver gave (state 0 of the formula).
    pub position: Position,
    /// Its cycle id (engine convention: the fingerprint of the loop's smallest position).
    pub id: u64,
    /// Period in tricks.
    pub period_tricks: u64,
    /// Period in cards played by each player.
    pub period_cards: u64,
    /// Every position of the loop, and their mirrors when swapping players is a symmetry.
    pub positions: Vec<Position>,
}

impl Counted {
    /// A loop's period in this unit.
    pub fn of(self, found: &Found) -> u64 {
        match self {
            Counted::Tricks => found.period_tricks,
            Counted::Cards => found.period_cards,
        }
    }
}

/// How one period came out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Every position that comes back after P tricks lies on one of the loops found (of
    /// period P or of a divisor): certified by a checked proof.
    Complete,
    /// A loop of period exactly P was found and the search stopped there (not `all`).
    Found,
    /// The time limit came first: nothing is claimed.
    Undecided,
    /// A stop request (Ctrl-C, SIGTERM, or an error in a part solved beside it) came first:
    /// nothing is claimed, and the time limit was not reached.
    Stopped,
}

impl Verdict {
    /// Whether the period was answered ([`Verdict::Complete`] or [`Verdict::Found`]).
    pub fn is_decided(&self) -> bool {
        matches!(self, Verdict::Complete | Verdict::Found)
    }
}

/// The certificate of a [`Verdict::Complete`] answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Certificate {
    /// What the checker counted.
    pub checked: Checked,
    /// Size of the proof in bytes.
    pub proof_bytes: u64,
    /// SHA-256 of the proof.
    pub proof_sha256: String,
    /// Seconds the checker took.
    pub check_seconds: f64,
}

/// One question's answer: a period of `cycles solve` ([`Instance`]) or of `aligned solve`
/// ([`crate::AlignedInstance`]).
#[derive(Debug, Clone)]
pub struct Solved<Q, F> {
    /// The question.
    pub question: Q,
    /// Variables of the formula.
    pub vars: u32,
    /// Clauses of the formula (blocking clauses included).
    pub clauses: usize,
    /// SHA-256 of the final formula in DIMACS.
    pub cnf_sha256: String,
    /// The verdict.
    pub verdict: Verdict,
    /// What was found, in order, each replayed by the engine.
    pub found: Vec<F>,
    /// Solver calls.
    pub calls: u32,
    /// Seconds in the solver, all calls: what the time limit counts.
    pub solve_seconds: f64,
    /// Seconds spent building the formula (and its blocking clauses), before the solver is
    /// given it: not counted by the time limit.
    pub build_seconds: f64,
    /// Seconds spent outside the solver's calls while the period was solved: loading the
    /// formula into the solver (once per call with a fresh solver), replaying and blocking
    /// the loops found. Not counted by the time limit.
    pub load_seconds: f64,
    /// The certificate, for [`Verdict::Complete`].
    pub certificate: Option<Certificate>,
    /// The solver and its configuration ([`Config::solver`]).
    pub solver: String,
}

/// One period's answer: the loops found (period P or a divisor of it).
pub type Instance = Solved<Question, Found>;

impl<Q, F> Solved<Q, F> {
    /// The answer from the formula and what [`drive`] gave.
    pub(crate) fn new(question: Q, cnf: &Cnf, run: Run, found: Vec<F>) -> Solved<Q, F> {
        Solved {
            question,
            vars: cnf.vars(),
            clauses: cnf.len(),
            cnf_sha256: run.cnf_sha256,
            verdict: run.verdict,
            found,
            calls: run.calls,
            solve_seconds: run.solve_seconds,
            build_seconds: 0.0,
            load_seconds: run.load_seconds,
            certificate: run.certificate,
            solver: run.solver,
        }
    }
}

/// Why solving failed (never a verdict).
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The question is refused.
    #[error(transparent)]
    Question(#[from] QuestionError),
    /// Another question (an aligned one, [`crate::aligned::AlignedError`]) is refused.
    #[error(transparent)]
    Refused(Box<dyn std::error::Error + Send + Sync>),
    /// A file could not be written or read (the cause is the error's source, which a report of
    /// the whole chain prints after it).
    #[error("{what}")]
    Io {
        /// What was being done.
        what: String,
        /// The error.
        source: io::Error,
    },
    /// The solver did not accept its options or proof file.
    #[error("the solver refused {0}")]
    Solver(String),
    /// The proof of an unsatisfiable formula did not check: no verdict.
    #[error("the solver's proof did not check, no verdict")]
    Proof(#[from] LratError),
    /// A model that the engine does not replay as a loop: a bug of the encoding.
    #[error("the solver's position {0} does not {1} when played: the encoding is wrong")]
    Replay(String, String),
}

/// The extension added to the CNF and proof files while they are written: a file with it is
/// not a kept file (one left by a run killed on the way may be removed).
pub const PART: &str = "part";

/// How to solve.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Enumerate every loop (otherwise stop at the first of period exactly P).
    pub all: bool,
    /// Time limit of the instance: the seconds of all its solver calls together (building the
    /// formula, loading it into the solver and the work between calls are not counted, so a
    /// period undecided at the limit spent the whole limit in the solver).
    pub time_limit: Option<Duration>,
    /// Set to stop the solver as soon as possible (Ctrl-C).
    pub stop: &'static AtomicBool,
    /// Directory for the instance's CNF and proof files.
    pub work_dir: PathBuf,
    /// Keep the CNF and proof files after checking (otherwise only their hashes and sizes).
    pub keep: bool,
    /// Told while the solver searches (whenever CaDiCaL checks whether to stop, many times a
    /// second): the solver calls of the period so far, the running one included, and the
    /// seconds since the period started. It should return at once.
    pub progress: Option<fn(u32, f64)>,
    /// CaDiCaL's configuration: it tunes the search, never what is answered.
    pub config: Config,
}

/// CaDiCaL's configurations (its command-line `--sat` and `--unsat`): presets of its options
/// that favour formulas with models, or without. They change how long a period takes, not
/// its answer: a model is still replayed by the engine, a refutation still checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Config {
    /// CaDiCaL's own defaults.
    #[default]
    Default,
    /// Tuned for formulas with models (longer stable phases, less inprocessing): finding a
    /// loop that exists.
    Sat,
    /// Tuned for formulas without models: proving that no loop exists.
    Unsat,
}

impl Config {
    /// The configuration's name, as CaDiCaL and the command line spell it.
    pub fn name(self) -> &'static str {
        match self {
            Config::Default => "default",
            Config::Sat => "sat",
            Config::Unsat => "unsat",
        }
    }

    /// The solver, this configuration and the proof format, as the output files record them:
    /// `cadical-3.0.1 --binary`, or `cadical-3.0.1 --sat --binary` (binary LRAT proofs; rows
    /// written by earlier versions, with text LRAT proofs, lack `--binary`).
    pub fn solver(self) -> String {
        match self {
            Config::Default => format!("{} --binary", solver_version()),
            c => format!("{} --{} --binary", solver_version(), c.name()),
        }
    }

    /// A new solver with this configuration.
    fn solver_new(self) -> Result<CaDiCal, SolveError> {
        let mut s = CaDiCal::new();
        if self != Config::Default && !s.configure(self.name()) {
            return Err(SolveError::Solver(format!("the configuration {}", self.name())));
        }
        Ok(s)
    }
}

impl std::str::FromStr for Config {
    type Err = String;

    fn from_str(s: &str) -> Result<Config, String> {
        [Config::Default, Config::Sat, Config::Unsat]
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| format!("'{s}' is not a solver configuration: default, sat or unsat"))
    }
}

/// The solver's name and version.
pub fn solver_version() -> String {
    CaDiCal::signature()
}

/// Polled by CaDiCaL while it searches: stops it once the period's solver time reaches the
/// limit, or on request, and tells the progress function how the period goes.
struct Clock {
    stop: &'static AtomicBool,
    limit: Option<Duration>,
    progress: Option<fn(u32, f64)>,
    /// Solver calls of the period so far, the running one included.
    calls: Rc<Cell<u32>>,
    /// Solver time of the calls before the running one.
    spent: Rc<Cell<Duration>>,
    /// When the running call began.
    call_started: Rc<Cell<Instant>>,
    started: Instant,
}

impl Terminator for Clock {
    fn terminated(&mut self) -> bool {
        if let Some(progress) = self.progress {
            progress(self.calls.get(), self.started.elapsed().as_secs_f64());
        }
        let used = || self.spent.get() + self.call_started.get().elapsed();
        self.stop.load(Ordering::Relaxed) || self.limit.is_some_and(|l| used() >= l)
    }
}

/// The file names of period P's CNF and proof.
pub fn file_names(q: &Question) -> (String, String) {
    let stem = stem(q);
    (format!("{stem}.cnf"), format!("{stem}.lrat"))
}

fn stem(q: &Question) -> String {
    let whole = match q.counted {
        Counted::Tricks => format!("period-{}", q.period),
        Counted::Cards => format!("cards-{}", q.period),
    };
    match q.first_hand {
        Some(l) => format!("{whole}-hand-{l}"),
        None => whole,
    }
}

/// When [`drive`] starts a new solver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fresh {
    /// For every call, each writing its proof: an unsatisfiable answer is certified as it
    /// comes. For formulas with few models.
    EveryCall,
    /// For the first call, with its proof; if it finds a model, once for the other models
    /// (one incremental solver, no proof), and once more on the final formula for the proof.
    /// For formulas with many models.
    AtTheEnd,
}

/// What [`drive`] gave.
pub(crate) struct Run {
    pub verdict: Verdict,
    pub calls: u32,
    pub solve_seconds: f64,
    pub load_seconds: f64,
    pub cnf_sha256: String,
    pub certificate: Option<Certificate>,
    pub solver: String,
}

/// Solves `cnf` until it is unsatisfiable, the time is up, or `on_model` says to stop. Each
/// model goes to `on_model` (the value of each variable, and the formula to add blocking
/// clauses to), which returns whether to stop ([`Verdict::Found`]). An unsatisfiable formula
/// is certified: its LRAT proof, written by a solver given the whole final formula, is checked
/// by [`lrat::check`] against the DIMACS file ([`Verdict::Complete`]). The files are written
/// as `STEM.cnf.part` and `STEM.lrat.part` in the work directory, and with `settings.keep`
/// renamed `STEM.cnf` and (when complete) `STEM.lrat`, replacing an earlier run's, which
/// are removed otherwise.
pub(crate) fn drive(
    cnf: &mut Cnf,
    stem: &str,
    settings: &Settings,
    fresh: Fresh,
    mut on_model: impl FnMut(&mut dyn FnMut(Lit) -> bool, &mut Cnf) -> Result<bool, SolveError>,
) -> Result<Run, SolveError> {
    let started = Instant::now();
    let seen = Rc::new(Cell::new(0));
    let spent = Rc::new(Cell::new(Duration::ZERO));
    let call_started = Rc::new(Cell::new(started));
    let clock = || Clock {
        stop: settings.stop,
        limit: settings.time_limit,
        progress: settings.progress,
        calls: Rc::clone(&seen),
        spent: Rc::clone(&spent),
        call_started: Rc::clone(&call_started),
        started,
    };
    // Written under a `.part` name, renamed when kept: a run killed on the way leaves no file
    // that reads as a kept CNF or proof.
    let kept_path = |ext: &str| settings.work_dir.join(format!("{stem}.{ext}"));
    let cnf_path = settings.work_dir.join(format!("{stem}.cnf.{PART}"));
    let proof_path = settings.work_dir.join(format!("{stem}.lrat.{PART}"));
    let traced = |cnf: &Cnf| -> Result<CaDiCal, SolveError> {
        let mut s = settings.config.solver_new()?;
        for (name, value) in [("lrat", 1), ("binary", 1)] {
            if !s.set(name, value) {
                return Err(SolveError::Solver(format!("the option {name}={value}")));
            }
        }
        if !s.trace_proof2(&path_str(&proof_path)?) {
            return Err(SolveError::Solver(format!("the proof file {}", proof_path.display())));
        }
        add_clauses(&mut s, cnf.clauses());
        s.connect_terminator(clock());
        Ok(s)
    };
    let mut calls = 0;
    let mut timed = |s: &mut CaDiCal| {
        seen.set(calls + 1);
        let t = Instant::now();
        call_started.set(t);
        let status = s.solve();
        spent.set(spent.get() + t.elapsed());
        calls += 1;
        status
    };
    let verdict = match fresh {
        // A stop asked while the formula was built: the solver is not even loaded.
        _ if settings.stop.load(Ordering::Relaxed) => Verdict::Stopped,
        Fresh::EveryCall => loop {
            // The LRAT proof numbers the formula's clauses exactly as the DIMACS file does.
            let mut s = traced(cnf)?;
            match timed(&mut s) {
                Status::SATISFIABLE => {
                    let stop = on_model(&mut |x| s.val(x) > 0, cnf)?;
                    if stop {
                        break Verdict::Found;
                    }
                }
                Status::UNSATISFIABLE => {
                    s.close_proof_trace(false);
                    break Verdict::Complete;
                }
                Status::UNKNOWN => break Verdict::Undecided,
            }
        },
        Fresh::AtTheEnd => 'run: {
            // The first call with its proof: a formula without models is certified at once.
            let mut s = traced(cnf)?;
            match timed(&mut s) {
                Status::SATISFIABLE => {
                    if on_model(&mut |x| s.val(x) > 0, cnf)? {
                        break 'run Verdict::Found;
                    }
                }
                Status::UNSATISFIABLE => {
                    s.close_proof_trace(false);
                    break 'run Verdict::Complete;
                }
                Status::UNKNOWN => break 'run Verdict::Undecided,
            }
            drop(s);
            let mut s = settings.config.solver_new()?;
            s.connect_terminator(clock());
            let mut given = 0;
            let verdict = loop {
                add_clauses(&mut s, cnf.clauses_from(given));
                given = cnf.literal_count();
                match timed(&mut s) {
                    Status::SATISFIABLE => {
                        if on_model(&mut |x| s.val(x) > 0, cnf)? {
                            break Verdict::Found;
                        }
                    }
                    Status::UNSATISFIABLE => break Verdict::Complete,
                    Status::UNKNOWN => break Verdict::Undecided,
                }
            };
            drop(s);
            if verdict != Verdict::Complete {
                break 'run verdict;
            }
            let mut s = traced(cnf)?;
            match timed(&mut s) {
                Status::UNSATISFIABLE => {
                    s.close_proof_trace(false);
                    Verdict::Complete
                }
                Status::UNKNOWN => Verdict::Undecided,
                Status::SATISFIABLE => {
                    return Err(SolveError::Solver(
                        "a model of the final formula, which the incremental solver had found \
                         unsatisfiable"
                            .into(),
                    ));
                }
            }
        }
    };
    // An answer cut short by a stop request is told apart from one that ran out of time.
    let verdict = match verdict {
        Verdict::Undecided if settings.stop.load(Ordering::Relaxed) => Verdict::Stopped,
        v => v,
    };
    let solve_seconds = spent.get().as_secs_f64();
    let load_seconds = (started.elapsed().as_secs_f64() - solve_seconds).max(0.0);
    write_cnf(cnf, &cnf_path)?;
    let cnf_sha256 = sha256(&cnf_path)?;
    let certificate = match verdict {
        Verdict::Complete => Some(certify(&cnf_path, &proof_path)?),
        _ => None,
    };
    // An earlier run's kept files of this question go: they are not this run's.
    for ext in ["cnf", "lrat"] {
        let _ = fs::remove_file(kept_path(ext));
    }
    if settings.keep {
        let keep = |from: &Path, ext: &str| {
            fs::rename(from, kept_path(ext)).map_err(|source| SolveError::Io {
                what: format!("cannot keep {}", kept_path(ext).display()),
                source,
            })
        };
        keep(&cnf_path, "cnf")?;
        if verdict == Verdict::Complete {
            keep(&proof_path, "lrat")?;
        }
    }
    for p in [&cnf_path, &proof_path] {
        let _ = fs::remove_file(p);
    }
    Ok(Run {
        verdict,
        calls,
        solve_seconds,
        load_seconds,
        cnf_sha256,
        certificate,
        solver: settings.config.solver(),
    })
}

fn add_clauses<'a>(s: &mut CaDiCal, clauses: impl Iterator<Item = &'a [Lit]>) {
    for clause in clauses {
        for &l in clause {
            s.add(l);
        }
        s.add(0);
    }
}

/// Solves period `q.period`. `known` loops whose period divides it are blocked first (they
/// come back after P tricks too, and are not news).
pub fn solve(q: &Question, known: &[Found], settings: &Settings) -> Result<Instance, SolveError> {
    let built = Instant::now();
    let mut enc = Encoding::new(q)?;
    let methods = Methods::both(q.method);
    for f in known.iter().filter(|f| u64::from(q.period) % q.counted.of(f) == 0) {
        for p in &f.positions {
            let clause = enc.block(p);
            enc.cnf.add(&clause);
        }
    }
    let build_seconds = built.elapsed().as_secs_f64();
    let mut found = Vec::new();
    let mut cnf = std::mem::take(&mut enc.cnf);
    // Few loops per period: a fresh solver for every call, so that every call could give the
    // proof.
    let run = drive(&mut cnf, &stem(q), settings, Fresh::EveryCall, |value, cnf| {
        let position = enc.position(value);
        let f = replay(&position, q, methods)?;
        for p in &f.positions {
            cnf.add(&enc.block(p));
        }
        let exact = q.counted.of(&f) == u64::from(q.period);
        found.push(f);
        Ok(exact && !settings.all)
    })?;
    Ok(Instance { build_seconds, ..Instance::new(*q, &cnf, run, found) })
}

/// The variables and clauses of the final formula of a period solved by [`solve`], rebuilt
/// without a solver: `q`'s formula with every position of `loops` blocked (the loops blocked
/// before the solver started and those it found, in any order: the counts do not depend on
/// it). `--resume` compares it with what a file says a period was solved for, so that a row
/// is never taken for another question's (a fingerprint of the formula, not a proof: see
/// docs/guarantees.md).
pub fn formula_size(q: &Question, loops: &[&Found]) -> Result<(u32, usize), QuestionError> {
    let mut enc = Encoding::new(q)?;
    for p in loops.iter().flat_map(|f| &f.positions) {
        let clause = enc.block(p);
        enc.cnf.add(&clause);
    }
    Ok((enc.cnf.vars(), enc.cnf.len()))
}
/// Plays the solver's position: it must lie on a loop whose period divides P.
fn replay(position: &Position, q: &Question, methods: Methods) -> Result<Found, SolveError> {
    let fail = |what: &str| SolveError::Replay(position.to_string(), what.to_string());
    if position.check_deck(q.deck).is_err() {
        return Err(fail("hold the deck"));
    }
    let f = Found::of(position, methods).ok_or_else(|| fail("loop"))?;
    if u64::from(q.period) % q.counted.of(&f) != 0 || !f.positions.contains(position) {
        return Err(fail(&format!("come back after {} {}", q.period, q.counted.unit())));
    }
    Ok(f)
}

impl Found {
    /// The loop `position` reaches, played by the engine (its id, periods, positions and, when
    /// swapping players is a symmetry, their mirrors), or `None` if the game ends.
    pub fn of(position: &Position, methods: Methods) -> Option<Found> {
        let r = play(position, methods, &mut NoRandom, Limits::DETERMINISTIC);
        let Outcome::Cycle(c) = r.outcome else { return None };
        let mut positions = loop_positions(position, methods)?;
        if methods.is_swap_symmetric() {
            let mirrors: Vec<Position> = positions.iter().map(Position::swapped).collect();
            positions.extend(mirrors);
        }
        Some(Found {
            position: position.clone(),
            id: c.id.0,
            period_tricks: c.period_tricks,
            period_cards: c.period_cards,
            positions,
        })
    }
}

fn certify(cnf: &Path, proof: &Path) -> Result<Certificate, SolveError> {
    let t = Instant::now();
    let open = |p: &Path| {
        File::open(p).map(BufReader::new).map_err(|source| SolveError::Io {
            what: format!("cannot read {}", p.display()),
            source,
        })
    };
    let checked = lrat::check(open(cnf)?, open(proof)?)?;
    let check_seconds = t.elapsed().as_secs_f64();
    let proof_bytes = fs::metadata(proof)
        .map_err(|source| SolveError::Io {
            what: format!("cannot read {}", proof.display()),
            source,
        })?
        .len();
    Ok(Certificate { checked, proof_bytes, proof_sha256: sha256(proof)?, check_seconds })
}

fn write_cnf(cnf: &Cnf, path: &Path) -> Result<(), SolveError> {
    let io = |source| SolveError::Io { what: format!("cannot write {}", path.display()), source };
    let mut out = io::BufWriter::new(File::create(path).map_err(io)?);
    cnf.write_dimacs(&mut out).map_err(io)?;
    io::Write::flush(&mut out).map_err(io)
}

/// SHA-256 of a file, in hex.
pub fn sha256(path: &Path) -> Result<String, SolveError> {
    let io = |source| SolveError::Io { what: format!("cannot read {}", path.display()), source };
    let mut file = File::open(path).map_err(io)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buf).map_err(io)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

fn path_str(p: &Path) -> Result<String, SolveError> {
    p.to_str().map(str::to_string).ok_or_else(|| SolveError::Io {
        what: format!("{} is not UTF-8", p.display()),
        source: io::Error::from(io::ErrorKind::InvalidInput),
    })
}
