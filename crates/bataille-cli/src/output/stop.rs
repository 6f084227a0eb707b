//! The request to stop a long run: the first Ctrl-C (or SIGTERM, as a scheduler sends before
//! pre-empting) sets a flag that the workers poll, so that the run saves its checkpoint and its
//! partial results; a second one quits at once.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Exit code of a run stopped before its end by Ctrl-C or SIGTERM (`--resume` continues it).
pub(crate) const EXIT_INTERRUPTED: u8 = 130;

/// Set by the first Ctrl-C or SIGTERM.
static STOP: AtomicBool = AtomicBool::new(false);

/// When the first signal came.
static FIRST: OnceLock<Instant> = OnceLock::new();

/// A second signal this soon after the first is the same request, not a second one:
/// `timeout -s TERM` sends its signal twice (to the command, then to its process group), and
/// a scheduler may signal every process of a job together.
const SAME_REQUEST: Duration = Duration::from_secs(1);

/// Installs the handler of Ctrl-C and SIGTERM (once per process: a command calls it once,
/// after its checks and before its work): the first signal sets the returned flag and prints
/// `message` on stderr, after an empty line (to leave a progress bar's line); a second one,
/// more than [`SAME_REQUEST`] later, ends the process at once with [`EXIT_INTERRUPTED`].
/// Without a handler (one already set), the flag is never set and the signals keep their
/// default action.
pub(crate) fn on_interrupt(message: &'static str) -> &'static AtomicBool {
    let _ = ctrlc::set_handler(move || {
        if STOP.swap(true, Ordering::SeqCst) {
            if FIRST.get().is_some_and(|t| t.elapsed() < SAME_REQUEST) {
                return;
            }
            std::process::exit(i32::from(EXIT_INTERRUPTED));
        }
        let _ = FIRST.set(Instant::now());
        eprintln!("\n{message}");
    });
    &STOP
}
