//! Files a run writes: atomic writes that name the file on failure, output directories that
//! are written all at once (or not at all), and the checks made before any work starts.
//!
//! Every write goes to a temporary file beside its target (`NAME.tmp`), is flushed to disk and
//! then renamed over the target. A run's output directory is written in two passes: every
//! temporary file first, then the renames; when a write fails (a full disk) the temporary
//! files are removed and the directory keeps its old files. A directory that holds files is
//! only written into when they are this run's own (resumed) or when its results may be
//! replaced. Refusals name the options in the caller's [`Words`].

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::Error;
use crate::error::{Context, Result, bail};

/// The files that the runs with an output directory write: the ones a run replaces, and the ones
/// that do not count as another run's results (the checkpoint aside).
pub const OUTPUT_NAMES: [&str; 13] = [
    "instances.csv",
    "parts.csv",
    "rounds.csv",
    "blocks.csv",
    "summary.csv",
    "histograms.csv",
    "records.csv",
    "cycles.csv",
    "loops.csv",
    "state.txt",
    "metadata.csv",
    "best.csv",
    "seeds.txt",
];

/// The words a refusal uses for the options of a run: the command line's flags, or the Python
/// package's keyword arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Words {
    /// The option that continues a checkpoint.
    pub resume: &'static str,
    /// The option that replaces the results in a used output directory.
    pub replace: &'static str,
    /// The option that names the checkpoint.
    pub checkpoint: &'static str,
    /// The option that names the output directory.
    pub out: &'static str,
    /// The option that sets a solver's time limit.
    pub time_limit: &'static str,
    /// The option that asks a solver for every loop.
    pub all: &'static str,
    /// The option that asks a solver for every period up to a bound.
    pub max_period: &'static str,
    /// The option that asks the aligned solver for every period up to a bound of rounds.
    pub max_rounds: &'static str,
    /// The option that accepts the merge of shards that do not cover the whole run.
    pub partial: &'static str,
    /// The option that sets the random deals of each cell of a recipe.
    pub deals: &'static str,
    /// The option that names the results directory of a recipe.
    pub results: &'static str,
    /// The option that lifts the limit on a run's estimated time.
    pub no_estimate_limit: &'static str,
    /// The option that solves one part of a split period.
    pub part: &'static str,
    /// The option that merges the checkpoints of a run's shards.
    pub merge: &'static str,
    /// The option that runs one shard of the work.
    pub shard: &'static str,
    /// The option that bounds the positions a walk visits.
    pub budget: &'static str,
    /// The option that names the records file found games are appended to.
    pub records: &'static str,
    /// The options of a record search's budget: deals evaluated, and seconds.
    pub iterations: &'static str,
    pub time: &'static str,
}

impl Words {
    /// The command line's flags.
    pub const CLI: Words = Words {
        resume: "--resume",
        replace: "--replace",
        checkpoint: "--checkpoint",
        out: "--out",
        time_limit: "--time-limit",
        all: "--all",
        max_period: "--max-period",
        max_rounds: "--max-rounds",
        partial: "--partial",
        deals: "--deals",
        results: "--results DIR",
        no_estimate_limit: "--no-estimate-limit",
        part: "--part",
        merge: "--merge",
        shard: "--shard",
        budget: "--budget",
        records: "--records",
        iterations: "--iterations",
        time: "--time",
    };
    /// The Python package's keyword arguments.
    pub const PYTHON: Words = Words {
        resume: "resume=True",
        replace: "replace=True",
        checkpoint: "checkpoint=",
        out: "out=",
        time_limit: "time_limit=",
        all: "all=True",
        max_period: "max_period=",
        max_rounds: "max_rounds=",
        partial: "partial=True",
        deals: "deals=",
        results: "results=",
        no_estimate_limit: "no_estimate_limit=True",
        part: "part=",
        merge: "merge=",
        shard: "shard=",
        budget: "budget=",
        records: "records=",
        iterations: "iterations=",
        time: "time=",
    };
}

/// `path` with `.tmp` appended: where [`write_atomic`] writes first.
fn temporary(path: &Path) -> PathBuf {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    PathBuf::from(tmp)
}

/// Writes and flushes `bytes` to `tmp`, removing it again on failure.
fn write_temporary(tmp: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let result = (|| {
        let mut f = fs::File::create(tmp)?;
        f.write_all(bytes)?;
        f.sync_all()
    })();
    if result.is_err() {
        let _ = fs::remove_file(tmp);
    }
    result
}

/// Makes the renames in `dir` durable (best effort: not every platform opens directories).
fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && let Ok(d) = fs::File::open(dir)
    {
        let _ = d.sync_all();
    }
}

/// A file written piece by piece, whole or not at all: the bytes go to a temporary file beside
/// it, renamed over it by [`AtomicFile::commit`]; dropped before that (an error on the way), the
/// temporary file is removed and the old file kept. Every error names the file.
#[derive(Debug)]
pub struct AtomicFile {
    path: PathBuf,
    tmp: PathBuf,
    file: Option<std::io::BufWriter<fs::File>>,
}

impl AtomicFile {
    pub fn create(path: &Path) -> std::io::Result<AtomicFile> {
        let tmp = temporary(path);
        let file = fs::File::create(&tmp).map_err(|e| named(path, e))?;
        Ok(AtomicFile { path: path.to_path_buf(), tmp, file: Some(std::io::BufWriter::new(file)) })
    }

    /// Flushes the bytes to disk and puts the file in place.
    pub fn commit(mut self) -> std::io::Result<()> {
        let file = self.file.take().expect("committed once");
        let result = file
            .into_inner()
            .map_err(|e| e.into_error())
            .and_then(|f| f.sync_all())
            .and_then(|()| fs::rename(&self.tmp, &self.path));
        if let Err(e) = result {
            let _ = fs::remove_file(&self.tmp);
            return Err(named(&self.path, e));
        }
        sync_dir(&self.path);
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let file = self.file.as_mut().expect("not committed");
        file.write(buf).map_err(|e| named(&self.path, e))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let file = self.file.as_mut().expect("not committed");
        file.flush().map_err(|e| named(&self.path, e))
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

/// An I/O error with the file it happened to.
fn named(path: &Path, e: std::io::Error) -> std::io::Error {
    std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// The least time between two checkpoints of a run that saves one after a batch of units (a
/// census, a search of aligned blocks): a checkpoint is flushed to disk, and batches of small
/// units end every few milliseconds.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(30);

/// The checkpoint of a run that saves its state after batches of units (a census, a search of
/// aligned blocks): after the first batch, then [`CHECKPOINT_EVERY`] after the last save, and
/// once more when the run ends or stops ([`Checkpointer::finish`]), so that a stopped run keeps
/// all it did. A write that fails is reported by `finish`; the run goes on meanwhile.
#[derive(Debug)]
pub struct Checkpointer<'a> {
    path: Option<&'a Path>,
    last: Option<Instant>,
    /// The units done in the state saved last.
    saved: Option<u64>,
    error: Option<std::io::Error>,
}

impl<'a> Checkpointer<'a> {
    /// Saves to `path` (`None`: never).
    pub fn new(path: Option<&'a Path>) -> Checkpointer<'a> {
        Checkpointer { path, last: None, saved: None, error: None }
    }

    /// After a batch: saves the state (`done` units; `text` writes it) if it is due.
    pub fn batch(&mut self, done: u64, text: impl FnOnce() -> String) {
        if self.last.is_none_or(|t| t.elapsed() >= CHECKPOINT_EVERY) {
            self.save(done, text);
        }
    }

    /// Saves the state now, whatever the time since the last save (a merged state, the state
    /// at the run's end).
    pub fn save(&mut self, done: u64, text: impl FnOnce() -> String) {
        let Some(path) = self.path else { return };
        self.last = Some(Instant::now());
        match write_atomic(path, text().as_bytes()) {
            Ok(()) => self.saved = Some(done),
            Err(e) => {
                self.error.get_or_insert(e);
            }
        }
    }

    /// The run has ended or stopped with `done` units: saves the state unless the last save
    /// holds it, and reports the first write that failed.
    pub fn finish(mut self, done: u64, text: impl FnOnce() -> String) -> Result<()> {
        if self.saved != Some(done) {
            self.save(done, text);
        }
        match self.error {
            Some(e) => bail!("cannot write the checkpoint: {e}"),
            None => Ok(()),
        }
    }
}

/// Writes `bytes` to `path` atomically: a temporary file beside it, flushed to disk, renamed.
/// On failure the temporary file is removed, `path` keeps its old content, and the error
/// names `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes)?;
    file.commit()
}

/// The files of one output directory, kept in memory and written together by
/// [`OutputFiles::commit`].
#[derive(Debug)]
pub struct OutputFiles {
    dir: PathBuf,
    files: Vec<(&'static str, Vec<u8>)>,
}

impl OutputFiles {
    pub fn new(dir: &Path) -> OutputFiles {
        OutputFiles { dir: dir.to_path_buf(), files: Vec::new() }
    }

    /// The files added so far: their names and sizes in bytes.
    pub fn sizes(&self) -> impl Iterator<Item = (&'static str, usize)> + '_ {
        self.files.iter().map(|(name, bytes)| (*name, bytes.len()))
    }

    /// Adds the file `name` with `bytes`.
    pub fn add(&mut self, name: &'static str, bytes: Vec<u8>) {
        self.files.push((name, bytes));
    }

    /// Adds a CSV file of `(key, value)` rows under the header `key,value`.
    pub fn add_key_values(&mut self, name: &'static str, rows: &[(&str, String)]) {
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut write = || -> csv::Result<()> {
            w.write_record(["key", "value"])?;
            for (k, v) in rows {
                w.write_record([*k, v.as_str()])?;
            }
            w.flush()?;
            Ok(())
        };
        write().expect("writing to memory does not fail");
        self.add(name, w.into_inner().expect("writing to memory does not fail"));
    }

    /// Writes every file: all the temporary files first, then the renames, so that a failure
    /// (a full disk) leaves the directory's old files, no temporary file, and an error naming
    /// the file. When the directory held a bataille run's results (its `metadata.csv` names a
    /// `bataille` command), the output files of other runs' kinds (in [`OUTPUT_NAMES`]) that
    /// this run does not write are removed, so that the directory holds one run's results;
    /// files of any other origin are left alone.
    pub fn commit(self) -> Result<()> {
        let ours = is_ours(&self.dir);
        let created = !self.dir.exists();
        fs::create_dir_all(&self.dir).with_context(|| {
            format!("cannot create the output directory {}", self.dir.display())
        })?;
        let mut written: Vec<(PathBuf, PathBuf)> = Vec::new();
        let cleanup = |written: &[(PathBuf, PathBuf)]| {
            for (tmp, _) in written {
                let _ = fs::remove_file(tmp);
            }
            if created {
                // Only an empty directory is removed.
                let _ = fs::remove_dir(&self.dir);
            }
        };
        for (name, bytes) in &self.files {
            let path = self.dir.join(name);
            let tmp = temporary(&path);
            if let Err(e) = write_temporary(&tmp, bytes) {
                cleanup(&written);
                return Err(e).with_context(|| {
                    format!("cannot write {} (the directory keeps its old files)", path.display())
                });
            }
            written.push((tmp, path));
        }
        for (i, (tmp, path)) in written.iter().enumerate() {
            if let Err(e) = fs::rename(tmp, path) {
                cleanup(&written[i..]);
                return Err(e).with_context(|| format!("cannot write {}", path.display()));
            }
        }
        sync_dir(&self.dir.join("x"));
        for stale in OUTPUT_NAMES.iter().filter(|_| ours) {
            if !self.files.iter().any(|(name, _)| name == stale) {
                let path = self.dir.join(stale);
                if path.is_file() {
                    fs::remove_file(&path)
                        .with_context(|| format!("cannot remove {}", path.display()))?;
                }
            }
        }
        Ok(())
    }
}

/// Whether `dir` holds the results of a bataille run: its `metadata.csv` names a `bataille`
/// command.
fn is_ours(dir: &Path) -> bool {
    let Ok(Some(text)) = read_bounded(&dir.join("metadata.csv"), 1 << 20) else { return false };
    text.lines().any(|l| l.starts_with("command,bataille ") || l.starts_with("command,\"bataille "))
}

/// The lock file a run keeps in its output directory (and beside its checkpoint, with the
/// checkpoint's name) while it runs; removed when it ends.
pub const LOCK_NAME: &str = ".bataille.lock";

/// The outputs of a run, checked, created and locked before its first deal: held until the
/// run ends. Two runs never write the same output directory or checkpoint: the second is
/// refused before any work, with the first one's pid. On drop the lock files are removed, and
/// an output directory the run created is removed again when it holds nothing else (a run
/// refused or failed before its results leaves nothing behind).
#[derive(Debug)]
#[must_use = "the outputs stay locked only while this value lives"]
pub struct Outputs {
    locks: Vec<Lock>,
    created: Option<PathBuf>,
}

impl Drop for Outputs {
    fn drop(&mut self) {
        self.locks.clear();
        if let Some(dir) = &self.created {
            // Only an empty directory is removed.
            let _ = fs::remove_dir(dir);
        }
    }
}

/// An exclusive lock (`flock`) on a lock file, which holds the pid of its run.
#[derive(Debug)]
struct Lock {
    _file: fs::File,
    path: PathBuf,
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

impl Lock {
    /// Locks `path` (created if needed) for this process, or says which run holds it: `what`
    /// names the locked thing in the message.
    fn take(path: &Path, what: &str) -> Result<Lock> {
        use std::io::Seek as _;
        let mut file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .with_context(|| format!("cannot write {what}: cannot create {}", path.display()))?;
        if !try_lock(&file) {
            let who = holder(&mut file);
            bail!(
                "{what} is in use by another bataille run{who}: wait for it to end, or choose \
                 another"
            );
        }
        let _ = file.set_len(0);
        let _ = file.rewind();
        let _ = writeln!(file, "{}", std::process::id());
        Ok(Lock { _file: file, path: path.to_path_buf() })
    }
}

/// Who holds a lock file, as a message names it: " (pid N)" from the pid it holds, or nothing.
fn holder(file: &mut fs::File) -> String {
    let mut pid = String::new();
    let _ = std::io::Read::read_to_string(&mut std::io::Read::take(file, 64), &mut pid);
    let pid = pid.trim();
    if pid.is_empty() { String::new() } else { format!(" (pid {pid})") }
}

/// Takes an exclusive `flock` on `file` without waiting: whether it is ours.
fn try_lock(file: &fs::File) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::io::AsRawFd as _;
        // SAFETY: the descriptor is open for the duration of the call; flock only reads it.
        unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        true
    }
}

/// `path` with `.lock` appended: the lock beside a checkpoint.
fn lock_beside(path: &Path) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(".lock");
    PathBuf::from(p)
}

/// Checks the output paths of a long run before any work, creates the output directory and
/// locks it and the checkpoint ([`Outputs`], to keep until the run ends). A checkpoint that
/// exists is only continued when resumed, its directory must exist, and it cannot be the
/// output directory itself nor a file the results will be written to. The output directory,
/// when it holds files (the checkpoint aside), must be this run's own (`resume` and `own` says
/// so) or `replace` must be given.
pub fn prepare_outputs(
    checkpoint: Option<&Path>,
    resume: bool,
    out: &Path,
    replace: bool,
    own: &dyn Fn(&Path) -> bool,
    words: &Words,
) -> Result<Outputs> {
    if let Some(path) = checkpoint {
        if path.is_dir() || same_path(path, out) {
            bail!(
                "the checkpoint {} is {}: a checkpoint is a file of its own",
                path.display(),
                if path.is_dir() { "a directory" } else { "the output directory" }
            );
        }
        check_outside_outputs(words.checkpoint, path, out, words)?;
        check_checkpoint(path, resume, words)?;
        // Tried now rather than at the first checkpoint: the temporary file it is written to.
        let tmp = temporary(path);
        fs::File::create(&tmp)
            .with_context(|| format!("cannot write the checkpoint {}", tmp.display()))?;
        let _ = fs::remove_file(&tmp);
    }
    if out.exists() && !out.is_dir() {
        bail!("the output {} is not a directory", out.display());
    }
    if out.is_dir() && !replace {
        // The checkpoint (its temporary file, its lock) may live in the output directory.
        let mut ignored: Vec<std::ffi::OsString> = vec![LOCK_NAME.into()];
        if let Some(c) = checkpoint.filter(|c| c.parent().is_some_and(|p| same_dir(p, out))) {
            for p in [c.to_path_buf(), temporary(c), lock_beside(c)] {
                ignored.extend(p.file_name().map(|n| n.to_owned()));
            }
        }
        let mut others = Vec::new();
        for entry in fs::read_dir(out)
            .with_context(|| format!("cannot read the output directory {}", out.display()))?
        {
            let name = entry?.file_name();
            if !ignored.contains(&name) {
                others.push(name.to_string_lossy().into_owned());
            }
        }
        others.sort();
        let allowed = others.is_empty() || (resume && own(out));
        if !allowed {
            let why = if !resume {
                "a rerun would replace its results"
            } else if out.join("metadata.csv").exists() {
                "its files are not this run's (another deck, question or state)"
            } else {
                "its files are not this run's (another deck, question or state; it has no \
                 metadata.csv)"
            };
            bail!(
                "the output directory {} is not empty ({} entries, e.g. {}): {why}; pass {} to \
                 replace them, or choose another directory",
                out.display(),
                others.len(),
                others[0],
                words.replace
            );
        }
    }
    if out.is_symlink() && !out.exists() {
        bail!(
            "the output directory {} is a symbolic link to {}, which does not exist",
            out.display(),
            fs::read_link(out).map(|p| p.display().to_string()).unwrap_or_default()
        );
    }
    // Nothing is written inside a directory that another run holds (its checkpoint would be
    // overwritten, its results mixed with ours).
    check_not_held("the output directory", out, None)?;
    if let Some(path) = checkpoint {
        check_not_held("the checkpoint", path, Some(out))?;
    }
    let created = (!out.exists()).then(|| out.to_path_buf());
    fs::create_dir_all(out)
        .with_context(|| format!("cannot create the output directory {}", out.display()))?;
    let mut outputs = Outputs { locks: Vec::new(), created };
    let what = format!("the output directory {}", out.display());
    outputs.locks.push(Lock::take(&out.join(LOCK_NAME), &what)?);
    if let Some(path) = checkpoint {
        let what = format!("the checkpoint {}", path.display());
        outputs.locks.push(Lock::take(&lock_beside(path), &what)?);
    }
    Ok(outputs)
}

/// Checks and locks, before any work, the one output file of a command (none for standard
/// output) and its checkpoint: the file's directory must exist and be writable (its lock file
/// is created there, beside it), and a checkpoint is treated as by [`prepare_outputs`].
pub fn prepare_file_output(
    out: Option<&Path>,
    checkpoint: Option<&Path>,
    resume: bool,
    words: &Words,
) -> Result<Outputs> {
    let mut outputs = Outputs { locks: Vec::new(), created: None };
    for (what, path) in [("the output file", out), ("the checkpoint", checkpoint)] {
        if let Some(path) = path {
            check_not_held(what, path, None)?;
        }
    }
    if let Some(path) = out {
        if path.is_dir() {
            bail!("cannot write {}: it is a directory", path.display());
        }
        check_regular(path, "cannot write")?;
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        if !dir.is_dir() {
            bail!("cannot write {}: {}", path.display(), missing_dir(dir));
        }
        outputs.locks.push(Lock::take(&lock_beside(path), &path.display().to_string())?);
        // The file itself must be writable (a read-only file in a writable directory).
        let tmp = temporary(path);
        fs::File::create(&tmp).with_context(|| format!("cannot write {}", path.display()))?;
        let _ = fs::remove_file(&tmp);
    }
    if let Some(path) = checkpoint {
        if out.is_some_and(|o| is_or_beside(o, path) || is_or_beside(path, o)) {
            bail!(
                "the checkpoint {} is the output file or a file written beside it: give them \
                 different names",
                path.display()
            );
        }
        check_checkpoint(path, resume, words)?;
        let what = format!("the checkpoint {}", path.display());
        outputs.locks.push(Lock::take(&lock_beside(path), &what)?);
    }
    Ok(outputs)
}

/// Refuses a checkpoint that cannot be written or continued: not a regular file, one that
/// exists when the run does not resume, one whose directory does not exist.
fn check_checkpoint(path: &Path, resume: bool, words: &Words) -> Result<()> {
    check_regular(path, "the checkpoint")?;
    if !resume && path.exists() {
        bail!(
            "the checkpoint {} already exists: pass {} to continue it, or remove it",
            path.display(),
            words.resume
        );
    }
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !dir.is_dir() {
        bail!("cannot write the checkpoint: {}", missing_dir(dir));
    }
    Ok(())
}

/// Whether `a` and `b` are one existing file under two names (hard links).
fn same_inode(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        if let (Ok(x), Ok(y)) = (fs::metadata(a), fs::metadata(b)) {
            return (x.dev(), x.ino()) == (y.dev(), y.ino());
        }
    }
    let _ = (a, b);
    false
}

/// Why `dir` cannot hold a file: it does not exist, or it is not a directory.
fn missing_dir(dir: &Path) -> String {
    if dir.exists() {
        format!("{} is not a directory", dir.display())
    } else {
        format!("the directory {} does not exist", dir.display())
    }
}

/// Refuses `path` (`what` names it) when it lies inside a directory that another bataille run
/// holds: one whose lock file ([`LOCK_NAME`], a regular file of this user's) is locked by
/// another process. The directories looked at are those above `path`, as the file system
/// resolves them (`..` and symbolic links followed), but `mine`, this run's own output
/// directory, which it locks itself.
fn check_not_held(what: &str, path: &Path, mine: Option<&Path>) -> Result<()> {
    // The deepest directory above `path` that exists, resolved (the rest holds no lock yet).
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let Some(existing) = parent.ancestors().find_map(|d| {
        let d = if d.as_os_str().is_empty() { Path::new(".") } else { d };
        fs::canonicalize(d).ok()
    }) else {
        return Ok(());
    };
    for dir in existing.ancestors() {
        if mine.is_some_and(|m| same_dir(dir, m)) {
            continue;
        }
        if let Some(who) = held_by_another(&dir.join(LOCK_NAME)) {
            bail!(
                "{what} {} is inside {}, the output directory of another bataille run{who}: it \
                 would write over that run's files; choose a place outside it",
                path.display(),
                dir.display()
            );
        }
    }
    Ok(())
}

/// Whether the lock file `lock` is held by another process (who, as [`holder`] says), read
/// without waiting: only a regular file owned by this user counts (not a FIFO, which would
/// block, nor a file another user left to block every run beneath it).
fn held_by_another(lock: &Path) -> Option<String> {
    let meta = fs::symlink_metadata(lock).ok()?;
    if !meta.file_type().is_file() {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt as _, OpenOptionsExt as _};
        // SAFETY: geteuid has no preconditions and cannot fail.
        if meta.uid() != unsafe { libc::geteuid() } {
            return None;
        }
        // (Read and write: an exclusive lock on a file opened for reading only fails on NFS.)
        let mut file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW)
            .open(lock)
            .ok()?;
        // (Closing the file releases a lock taken here at once.)
        if try_lock(&file) {
            return None;
        }
        Some(holder(&mut file))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Whether `a` is the file `b`, or one written beside it (its temporary file, its lock).
fn is_or_beside(a: &Path, b: &Path) -> bool {
    same_file(a, b) || [temporary(b), lock_beside(b)].iter().any(|x| same_file(a, x))
}

/// Refuses a records file that is also the checkpoint (the run would end on it, or clobber it).
pub fn check_records_apart(flag: &str, records: &Path, checkpoint: Option<&Path>) -> Result<()> {
    if let Some(ckpt) = checkpoint
        && is_or_beside(records, ckpt)
    {
        bail!(
            "{flag} {} is the checkpoint or a file written beside it: give two files",
            records.display()
        );
    }
    Ok(())
}

/// Refuses a file (`what` names it) that is there but is not a regular file: it is replaced
/// by a rename, so a link or a device would be replaced, not written.
fn check_regular(path: &Path, what: &str) -> Result<()> {
    if let Ok(m) = fs::symlink_metadata(path)
        && !m.file_type().is_file()
    {
        bail!(
            "{what} {}: it is not a regular file (a link, a device, ...), and files are \
             replaced by a rename",
            path.display()
        );
    }
    Ok(())
}

/// Whether `a` and `b` name the same existing file or directory, or the same path.
pub fn same_path(a: &Path, b: &Path) -> bool {
    a == b || fs::canonicalize(a).ok().is_some_and(|x| fs::canonicalize(b).ok() == Some(x))
}

/// Whether `a` and `b` name the same file, existing or not: the same path, or the same name in
/// the same directory however it is spelled (`rr.csv`, `./rr.csv`, `d/../rr.csv`).
pub fn same_file(a: &Path, b: &Path) -> bool {
    same_path(a, b)
        || same_inode(a, b)
        || (a.file_name().is_some()
            && a.file_name() == b.file_name()
            && same_dir(a.parent().unwrap_or(Path::new("")), b.parent().unwrap_or(Path::new(""))))
}

/// Refuses a file the user gave (`flag`, e.g. the records file) that the results written to
/// `out` would replace or remove.
pub fn check_outside_outputs(flag: &str, path: &Path, out: &Path, words: &Words) -> Result<()> {
    let in_out = path.parent().is_some_and(|p| same_dir(p, out));
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    // (The directory's lock file too: it is removed when the run ends; and the temporary files
    // the results are written to before their renames.)
    let result = |n: &str| OUTPUT_NAMES.contains(&n);
    if in_out
        && (result(name) || name == LOCK_NAME || name.strip_suffix(".tmp").is_some_and(result))
    {
        bail!(
            "{flag} {} would be overwritten by the results written to {}: choose another file \
             or another {}",
            path.display(),
            out.display(),
            words.out
        );
    }
    Ok(())
}

/// Whether `a` and `b` name the same directory (`""` is the working directory).
fn same_dir(a: &Path, b: &Path) -> bool {
    let canon = |p: &Path| {
        let p = if p.as_os_str().is_empty() { Path::new(".") } else { p };
        fs::canonicalize(p).ok()
    };
    canon(a).is_some_and(|x| canon(b) == Some(x))
}

/// The largest state file (checkpoint or `state.txt`) read.
pub const MAX_STATE_BYTES: u64 = 8 << 30;

/// The largest records file read (a million rows is about 200 MB; the repository's is a few
/// kB).
pub const MAX_RECORDS_BYTES: u64 = 256 << 20;

/// Reads the file at `path` as text: `Ok(None)` when it does not exist. It must be a regular
/// file of at most `max` bytes, and is read no further than that (`/dev/zero` is refused). A
/// UTF-8 byte-order mark at its start, which some editors add, is dropped.
pub fn read_bounded(path: &Path, max: u64) -> Result<Option<String>> {
    let meta = match fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    if !meta.is_file() {
        bail!("cannot read {}: not a regular file", path.display());
    }
    let mut bytes = Vec::new();
    let file = fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    std::io::Read::read_to_end(&mut std::io::Read::take(file, max + 1), &mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    if bytes.len() as u64 > max {
        bail!("{} is larger than the limit of {max} bytes", path.display());
    }
    if bytes.starts_with(b"\xef\xbb\xbf") {
        bytes.drain(..3);
    }
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| Error::msg(format!("cannot read {}: not UTF-8 text", path.display())))
}

/// Checks, before any work, that rows can be appended to the records file at `path`: an
/// existing file must be writable; a new one needs an existing, writable directory (none is
/// created).
pub fn check_appendable(path: &Path) -> Result<()> {
    if path.exists() {
        fs::OpenOptions::new()
            .append(true)
            .open(path)
            .with_context(|| format!("cannot append to the records file {}", path.display()))?;
        return Ok(());
    }
    let dir = match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(d) => d,
        None => Path::new("."),
    };
    if !dir.is_dir() {
        bail!(
            "cannot create the records file {}: the directory {} does not exist",
            path.display(),
            dir.display()
        );
    }
    if fs::metadata(dir).is_ok_and(|m| m.permissions().readonly()) || !writable(dir) {
        bail!(
            "cannot create the records file {}: the directory {} is not writable",
            path.display(),
            dir.display()
        );
    }
    Ok(())
}

/// Whether this process may create files in `dir`.
fn writable(dir: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt as _;
        let Ok(c) = std::ffi::CString::new(dir.as_os_str().as_bytes()) else { return false };
        // SAFETY: `c` is a valid NUL-terminated path that outlives the call.
        unsafe { libc::access(c.as_ptr(), libc::W_OK | libc::X_OK) == 0 }
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run's checkpoint after batches: the first batch saved, the next ones not before 30 s,
    /// and the end saved whatever the time (a stop keeps all that was done).
    #[test]
    fn checkpoints_after_batches_keep_the_end() {
        let dir = std::env::temp_dir().join(format!("bataille-batches-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.ckpt");
        let read = || fs::read_to_string(&path).unwrap();
        let mut checkpoint = Checkpointer::new(Some(&path));
        checkpoint.batch(1, || "1".into());
        assert_eq!(read(), "1");
        checkpoint.batch(2, || "2".into());
        assert_eq!(read(), "1", "saved again before 30 s");
        checkpoint.finish(2, || "2".into()).unwrap();
        assert_eq!(read(), "2");
        // A write that fails is reported at the end.
        let missing = dir.join("no-such-dir").join("run.ckpt");
        let mut checkpoint = Checkpointer::new(Some(&missing));
        checkpoint.batch(1, || "1".into());
        let e = checkpoint.finish(1, || "1".into()).unwrap_err().to_string();
        assert!(e.starts_with("cannot write the checkpoint: "), "{e}");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A file written piece by piece: replaced whole at the commit; dropped before it (an error
    /// on the way), the old file is as it was and no temporary file is left; a commit that
    /// cannot put the file in place names it and leaves nothing.
    #[test]
    fn atomic_files_are_whole_or_untouched() {
        let dir = std::env::temp_dir().join(format!("bataille-atomic-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.csv");
        fs::write(&path, "old\n").unwrap();
        let mut f = AtomicFile::create(&path).unwrap();
        f.write_all(b"half of a ").unwrap();
        drop(f);
        assert_eq!(fs::read_to_string(&path).unwrap(), "old\n");
        assert!(!temporary(&path).exists());
        let mut f = AtomicFile::create(&path).unwrap();
        f.write_all(b"new\n").unwrap();
        f.commit().unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new\n");
        assert!(!temporary(&path).exists());
        // Two names of one file are one file.
        let other = dir.join("other-name.csv");
        fs::hard_link(&path, &other).unwrap();
        assert!(same_file(&path, &other) && !same_file(&path, &dir.join("absent.csv")));
        // The rename fails: the target became a non-empty directory meanwhile.
        let blocked = dir.join("blocked");
        let mut f = AtomicFile::create(&blocked).unwrap();
        f.write_all(b"x").unwrap();
        fs::create_dir_all(blocked.join("inside")).unwrap();
        let e = f.commit().unwrap_err().to_string();
        assert!(e.contains("blocked"), "{e}");
        assert!(!temporary(&blocked).exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Text files are read as their text: a byte-order mark an editor put first is dropped,
    /// the same bytes elsewhere are kept, and a file over the bound is refused.
    #[test]
    fn bounded_reads_drop_a_byte_order_mark() {
        let dir = std::env::temp_dir().join(format!("bataille-bom-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.csv");
        fs::write(&path, "\u{feff}a,b\n\u{feff}\n").unwrap();
        assert_eq!(read_bounded(&path, 100).unwrap().as_deref(), Some("a,b\n\u{feff}\n"));
        assert!(read_bounded(&path, 5).is_err());
        assert_eq!(read_bounded(&dir.join("absent"), 100).unwrap(), None);
        fs::remove_dir_all(&dir).unwrap();
    }
}
