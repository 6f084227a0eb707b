//! The progress of a long run on stderr: a bar when stderr is a terminal, otherwise a plain line
//! every [`LINE_EVERY`] (the checkpoints are saved by the runs of `bataille_runs`).
//!
//! No progress is ever shown after the final report: a display is lent to the search
//! (`&dyn Progress`), which returns only once its workers are done, and [`finish`] takes the
//! display by value, so the compiler refuses any call to it that could come later. The commands
//! print their report after `finish`.
//!
//! [`finish`]: ExploreProgress::finish

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bataille_records::search::SearchProgress;
use bataille_search::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How often a plain progress line is written when stderr is not a terminal.
pub(crate) const LINE_EVERY: Duration = Duration::from_secs(10);

/// A bar, or plain lines at most every `every`.
struct Display {
    bar: Option<ProgressBar>,
    lines: Mutex<Lines>,
    every: Duration,
    started: Instant,
}

/// Where the plain lines go, and when the last one went.
struct Lines {
    last: Instant,
    out: Box<dyn Write + Send>,
}

impl Display {
    /// A bar drawn with `template` (of `len` steps, unknown when `None`) when stderr is a
    /// terminal, plain lines on stderr otherwise.
    fn new(template: &str, len: Option<u64>) -> Display {
        let target = ProgressDrawTarget::stderr();
        let bar = (!target.is_hidden()).then(|| {
            let bar = ProgressBar::with_draw_target(len, target);
            let style = ProgressStyle::with_template(template)
                .expect("a valid template")
                .progress_chars("=> ");
            bar.set_style(style);
            bar
        });
        Display::with_lines(bar, Box::new(std::io::stderr()), LINE_EVERY)
    }

    fn with_lines(
        bar: Option<ProgressBar>,
        out: Box<dyn Write + Send>,
        every: Duration,
    ) -> Display {
        let now = Instant::now();
        Display { bar, lines: Mutex::new(Lines { last: now, out }), every, started: now }
    }

    /// Writes the line that `text` makes of the seconds elapsed, when the last one is at least
    /// `every` old. With `wait` false a caller that finds another one writing goes on (the
    /// workers); otherwise it waits its turn.
    fn line(&self, wait: bool, text: impl FnOnce(f64) -> String) {
        let mut lines = if wait {
            self.lines.lock().unwrap_or_else(|e| e.into_inner())
        } else {
            match self.lines.try_lock() {
                Ok(l) => l,
                Err(_) => return,
            }
        };
        if lines.last.elapsed() >= self.every {
            lines.last = Instant::now();
            let line = text(self.started.elapsed().as_secs_f64());
            let _ = writeln!(lines.out, "{line}");
        }
    }

    /// Clears the bar. Taking `self`, it is the last thing the display does.
    fn finish(self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        let mut lines = self.lines.into_inner().unwrap_or_else(|e| e.into_inner());
        let _ = lines.out.flush();
    }
}

/// The progress of `explore`, `hunt` and `bmn explore` (their checkpoints are saved by
/// `bataille_runs::search`).
pub(crate) struct ExploreProgress {
    /// The command, for the plain progress lines.
    name: &'static str,
    /// What is played: "deals" or "positions".
    items: &'static str,
    display: Display,
    deals: AtomicU64,
    units: AtomicU64,
    pending: AtomicU64,
}

impl ExploreProgress {
    /// The display of the command `name` (`explore` or `hunt`) playing `items` ("deals" or
    /// "positions").
    pub(crate) fn new(name: &'static str, items: &'static str) -> ExploreProgress {
        let display = Display::new(
            &format!(
                "{{elapsed_precise}} [{{wide_bar}}] {{percent}}% {{human_pos}}/{{human_len}} \
                 {items}, {{per_sec:0}}, ETA {{eta}}"
            ),
            Some(0),
        );
        ExploreProgress::with_display(name, items, display)
    }

    fn with_display(name: &'static str, items: &'static str, display: Display) -> ExploreProgress {
        ExploreProgress {
            name,
            items,
            display,
            deals: AtomicU64::new(0),
            units: AtomicU64::new(0),
            pending: AtomicU64::new(0),
        }
    }

    /// Clears the bar: nothing is shown after this (see the module documentation).
    pub(crate) fn finish(self) {
        self.display.finish();
    }
}

impl Progress for ExploreProgress {
    /// A run starts (a command may run several, one after the other: each starts from zero).
    fn start(&self, pending: u64, deals: u128) {
        self.pending.store(pending, Ordering::Relaxed);
        self.deals.store(0, Ordering::Relaxed);
        self.units.store(0, Ordering::Relaxed);
        if let Some(bar) = &self.display.bar {
            bar.set_length(u64::try_from(deals).unwrap_or(u64::MAX));
            bar.set_position(0);
        }
    }

    fn unit_done(&self, deals: u64) {
        let total = self.deals.fetch_add(deals, Ordering::Relaxed) + deals;
        let units = self.units.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(bar) = &self.display.bar {
            bar.inc(deals);
            return;
        }
        // A worker that finds another one writing just goes on.
        self.display.line(false, |secs| {
            let pending = self.pending.load(Ordering::Relaxed);
            // Units are of equal size (but the last): the time left is that of the units left.
            let left = if units < pending {
                human_duration((pending - units) as f64 * secs / units as f64)
            } else {
                "0 s".to_string()
            };
            format!(
                "{}: {units}/{pending} units, {total} {items}, {:.0} {items}/s, {secs:.0} s, \
                 about {left} left",
                self.name,
                total as f64 / secs,
                items = self.items
            )
        });
    }
}

/// The progress of a run of numbered units (`cycles census`, `aligned blocks`): a bar of units,
/// or a plain line with the time left.
pub(crate) struct UnitsProgress {
    name: &'static str,
    noun: &'static str,
    display: Display,
}

impl UnitsProgress {
    /// The display of the command `name` over `total` units.
    pub(crate) fn new(name: &'static str, total: u64) -> UnitsProgress {
        UnitsProgress::counting(name, total, "units")
    }

    /// The display of the command `name` over `total` steps called `noun` (a budget of
    /// positions, for example).
    pub(crate) fn counting(name: &'static str, total: u64, noun: &'static str) -> UnitsProgress {
        let template = format!(
            "{{elapsed_precise}} [{{wide_bar}}] {{percent}}% {{human_pos}}/{{human_len}} {noun}, \
             ETA {{eta}}, {{msg}}"
        );
        UnitsProgress { name, noun, display: Display::new(&template, Some(total)) }
    }

    /// `done` of `total` units are done (`from` of them before this invocation); `what` says
    /// what they found.
    pub(crate) fn update(&self, done: u64, from: u64, total: u64, what: &str) {
        if let Some(bar) = &self.display.bar {
            bar.set_position(done);
            bar.set_message(what.to_string());
            return;
        }
        self.display.line(true, |secs| {
            let rate = (done - from) as f64 / secs.max(1e-9);
            let left = if rate > 0.0 {
                human_duration((total - done) as f64 / rate)
            } else {
                "unknown".to_string()
            };
            format!(
                "{}: {done}/{total} {}, {what}, {secs:.0} s, about {left} left",
                self.name, self.noun
            )
        });
    }

    /// Clears the bar: nothing is shown after this (see the module documentation).
    pub(crate) fn finish(self) {
        self.display.finish();
    }
}

pub(crate) use bataille_runs::progress::human_duration;

/// The progress of `records search` (its checkpoints are saved by
/// `bataille_runs::records::search`).
pub(crate) struct RecordsProgress {
    display: Display,
}

impl RecordsProgress {
    /// The display of a search of `len` deals (unknown for a time budget).
    pub(crate) fn new(len: Option<u64>) -> RecordsProgress {
        let display = Display::new(
            "{elapsed_precise} [{wide_bar}] {human_pos} deals, {per_sec:0}, {msg}",
            len,
        );
        RecordsProgress { display }
    }

    /// Clears the bar: nothing is shown after this (see the module documentation).
    pub(crate) fn finish(self) {
        self.display.finish();
    }
}

impl SearchProgress for RecordsProgress {
    fn round(&self, iterations: u64, best_tricks: u64, best_cards: u64) {
        if let Some(bar) = &self.display.bar {
            bar.set_position(iterations);
            bar.set_message(format!("best {best_tricks} tricks, {best_cards} cards"));
            return;
        }
        self.display.line(true, |secs| {
            format!(
                "records: {iterations} deals, {:.0} deals/s, best {best_tricks} tricks, \
                 {best_cards} cards, {secs:.0} s",
                iterations as f64 / secs.max(1e-9)
            )
        });
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    use bataille_engine::{DeckSpec, Limits, Method, Methods};
    use bataille_search::{Bataille, Mode, Options, Plan, Shard, explore};

    use super::*;

    /// A writer into a buffer shared with the test.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn every_progress_line_comes_before_the_report() {
        let spec = DeckSpec::new(1, 8).unwrap();
        let game = Bataille::new(spec, Methods::both(Method::Natural), Limits::DETERMINISTIC);
        let plan = Plan::with_unit_size(&game, Mode::Exhaustive, 0, 3, 16).unwrap();
        let out = Shared::default();
        // A line for every unit (no interval), from 4 workers.
        let display = Display::with_lines(None, Box::new(out.clone()), Duration::ZERO);
        let progress = ExploreProgress::with_display("explore", "deals", display);
        let options = Options { threads: 4, ..Options::default() };
        let stop = AtomicBool::new(false);
        let ended = explore(&game, &plan, Shard::WHOLE, None, &options, &progress, &stop).unwrap();
        progress.finish();
        out.clone().write_all(b"results:   out\n").unwrap();
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.len() > 2, "{text}");
        assert_eq!(lines.last(), Some(&"results:   out"));
        let units = plan.key().units;
        for l in &lines[..lines.len() - 1] {
            assert!(l.starts_with("explore: ") && l.contains(&format!("/{units} units, ")), "{l}");
        }
        assert!(!ended.interrupted);
    }
}
