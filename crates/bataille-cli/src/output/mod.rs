//! The command line's side of a run, whose files `bataille_runs` writes: the library's checks
//! with the CLI's flags in their refusals, the command line of this process, what a run shows
//! while it works, and the Ctrl-C / SIGTERM request to stop.
//!
//! - [`files`]: the checks before a run and the atomic writes of `bataille_runs::files`, with
//!   the CLI's flags;
//! - [`metadata`]: [`command_line`] and [`replay_command`] (no absolute path of this machine);
//!   [`commit`], [`machine`] and the records file ([`read_records`], [`check_records_file`])
//!   are `bataille_runs`';
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

pub(crate) use files::{AtomicFile, check_outside_outputs, prepare_file_output, write_atomic};

/// Writes `text` to standard output: an error (not a panic) when it cannot be written, as on a
/// full disk.
pub(crate) fn print_stdout(text: &str) -> anyhow::Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| anyhow::anyhow!("cannot write to standard output: {e}"))
}

/// What the binary's `print!` and `println!` do: write to standard output, and end the run
/// with [`print_failed`] when that fails.
pub(crate) fn print_out(args: std::fmt::Arguments<'_>) {
    use std::io::Write as _;
    if let Err(e) = std::io::stdout().lock().write_fmt(args) {
        print_failed(&e);
    }
}

/// Ends the process after a failed write to standard output: a one-line message on standard
/// error and exit 2 (the files of the run, written before its report, are in place).
pub(crate) fn print_failed(e: &std::io::Error) -> ! {
    eprintln!("bataille: error: cannot write to standard output: {e}");
    std::process::exit(i32::from(crate::EXIT_USAGE))
}
pub(crate) use bataille_runs::provenance::{commit, machine};
pub(crate) use bataille_runs::records::{check_records_file, read_records};
pub(crate) use metadata::{command_line, replay_command};

/// `n` tricks, in words: "1 trick", "2 tricks".
pub(crate) fn tricks(n: u64) -> String {
    format!("{n} trick{}", if n == 1 { "" } else { "s" })
}

/// Where the runs of the library crates say their lines: the report on standard output, the
/// notes on standard error.
pub(crate) struct Terminal;

impl bataille_runs::Say for Terminal {
    fn line(&self, text: &str) {
        println!("{text}");
    }

    fn note(&self, text: &str) {
        eprintln!("{text}");
    }
}
