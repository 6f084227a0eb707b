//! The files of a run, as `bataille_runs::files` writes and checks them, with the command
//! line's flags named in its refusals ([`Words::CLI`]).

use std::path::Path;

use bataille_runs::files::{self, Words};
pub(crate) use bataille_runs::files::{AtomicFile, Outputs, write_atomic};

/// [`files::prepare_file_output`], with the command line's flags.
pub(crate) fn prepare_file_output(
    out: Option<&Path>,
    checkpoint: Option<&Path>,
    resume: bool,
) -> bataille_runs::Result<Outputs> {
    files::prepare_file_output(out, checkpoint, resume, &Words::CLI)
}

/// [`files::check_outside_outputs`]: `flag` names the file the results would replace.
pub(crate) fn check_outside_outputs(
    flag: &str,
    path: &Path,
    out: &Path,
) -> bataille_runs::Result<()> {
    files::check_outside_outputs(flag, path, out, &Words::CLI)
}

/// [`files::check_records_apart`] for `--records`.
pub(crate) fn check_records_apart(
    records: &Path,
    checkpoint: Option<&Path>,
) -> bataille_runs::Result<()> {
    files::check_records_apart("--records", records, checkpoint)
}
