//! The provenance of a run as this process knows it: its own arguments and working directory
//! made into the command that `metadata.csv` and the records file record
//! ([`bataille_runs::provenance`]: no absolute path of this machine).

use bataille_runs::provenance::command;

/// The command line as typed, for `metadata.csv` and `NOTE.md`: `bataille`, then the arguments
/// without any absolute path of this machine ([`bataille_runs::provenance::command`]).
pub(crate) fn command_line() -> String {
    command(arguments(), std::env::current_dir().ok().as_deref(), false)
}

/// The command that makes the same results again, for the records file: [`command_line`]
/// without the flags of a resumed run.
pub(crate) fn replay_command() -> String {
    command(arguments(), std::env::current_dir().ok().as_deref(), true)
}

/// The arguments after the program (lossily decoded: a command line is shown, not parsed).
fn arguments() -> Vec<String> {
    std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned()).collect()
}
