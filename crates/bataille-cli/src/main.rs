//! The `bataille` command line.
//!
//! Flags are parsed in two stages: clap reads them into typed structures ([`flags`]: the
//! commands; [`args`]: the groups several commands share; each command's own in its module),
//! and each command module turns them into a validated configuration before calling the
//! library crates, which never see clap. No command module imports another: what commands
//! share is in [`args`], [`checks`], [`claims`], [`deal`], [`extension`], [`search`] and
//! [`output`]. Exit codes: 0 success, 1 a finding the user asked about (a `verify`
//! mismatch), 2 a usage or input error.

use std::process::ExitCode;

/// `print!` for every module of the binary, in place of the standard one, which panics when
/// standard output cannot be written (a full disk): the write error ends the run with a
/// one-line message and exit 2 ([`output::print_failed`]). A closed pipe still ends it quietly
/// (exit 141, SIGPIPE's default action, see [`reset_sigpipe`]).
macro_rules! print {
    ($($arg:tt)*) => {
        $crate::output::print_out(format_args!($($arg)*))
    };
}

/// `println!` for every module of the binary: see [`print!`].
macro_rules! println {
    () => {
        $crate::output::print_out(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::output::print_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

mod aligned;
mod args;
mod bmn;
mod checks;
mod claims;
mod construct;
mod cycles;
mod deal;
mod experiment;
mod explore;
mod extension;
mod flags;
#[cfg(test)]
mod fuzz;
mod hunt;
mod output;
mod play;
mod records;
mod search;
mod solve;
mod takeaway;
mod verify;

/// Exit code for a finding the user asked to be told about (e.g. a `verify` mismatch).
const EXIT_FINDING: u8 = 1;
/// Exit code for a usage or input error.
const EXIT_USAGE: u8 = 2;

fn main() -> ExitCode {
    reset_sigpipe();
    let cli = match parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help and version to stdout with exit 0, errors to stderr with 2.
            if let Err(io) = e.print() {
                output::print_failed(&io);
            }
            return ExitCode::from(if e.use_stderr() { EXIT_USAGE } else { 0 });
        }
    };
    let result = match cli.command {
        flags::Command::Play(args) => play::run(args),
        flags::Command::Verify(args) => verify::run(args),
        flags::Command::Explore(args) => explore::run(args),
        flags::Command::Merge(args) => explore::merge(args),
        flags::Command::Bmn(args) => bmn::run(args),
        flags::Command::Takeaway(args) => takeaway::run(args),
        flags::Command::Experiment(args) => experiment::run(args),
        flags::Command::Construct(args) => construct::run(args),
        flags::Command::Aligned(args) => aligned::run(args),
        flags::Command::Hunt(args) => hunt::run(args),
        flags::Command::Records(args) => records::run(args),
        flags::Command::Cycles(args) => cycles::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("bataille: error: {e:#}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// The flags, with negative numbers read as values everywhere, so that `--time -1` is refused
/// by the flag's own check instead of clap's advice to write `-- -1`.
fn parse() -> Result<flags::Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    fn negative_numbers(cmd: clap::Command) -> clap::Command {
        cmd.allow_negative_numbers(true).mut_subcommands(negative_numbers)
    }
    let mut matches = negative_numbers(flags::Cli::command()).try_get_matches()?;
    flags::Cli::from_arg_matches_mut(&mut matches)
}

/// Lets `bataille verify | head` end quietly: with the default SIGPIPE action a closed pipe ends
/// the process, as for any Unix filter, instead of making `println!` panic.
fn reset_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in `main`, before any thread exists; SIG_DFL is a valid action.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
