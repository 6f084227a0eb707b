//! Everything a command writes besides its results, and how: the files of a run (atomic writes,
//! output directories written all at once, the checks made before any work), its provenance
//! (the command as typed, commit, machine, date, the records file), the progress shown while it
//! works, and the Ctrl-C / SIGTERM request to stop.
//!
//! - [`files`]: atomic writes, [`OutputFiles`], [`prepare_outputs`], bounded reads;
//! - [`metadata`]: [`command_line`] (no absolute path of this machine), [`commit`],
//!   [`machine`], [`utc_now`], the records file ([`read_records`], [`check_records_file`],
//!   [`append_records`]; its rows are typed and parsed in `bataille_records::row`);
//! - [`progress`]: the progress displays of `explore` / `hunt` / `bmn explore` and of
//!   `records search`, finished before the final report is printed;
//! - [`stop`]: the stop request set by Ctrl-C or SIGTERM, and the exit code of an interrupted
//!   run.
//!
//! The formats of the files themselves are described in `docs/formats.md`.

pub(crate) mod files;
pub(crate) mod metadata;
pub(crate) mod progress;
pub(crate) mod stop;

pub(crate) use files::{
    MAX_RECORDS_BYTES, MAX_STATE_BYTES, OutputFiles, check_appendable, check_outside_outputs,
    check_writable_file, prepare_outputs, read_bounded, write_atomic,
};

/// Writes `text` to standard output: an error (not a panic) when it cannot be written, as on a
/// full disk.
pub(crate) fn print_stdout(text: &str) -> anyhow::Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| anyhow::anyhow!("cannot write to standard output: {e}"))
}
pub(crate) use metadata::{
    append_records, check_records_file, command_line, commit, machine, read_records,
    replay_command, utc_now,
};
