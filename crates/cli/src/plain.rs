//! Progress as plain lines where standard error is no terminal (a log file, a CI job,
//! a pipe): indicatif draws nothing there, and a long run would stay silent until it
//! ends. One line every ten seconds, and one at the end.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// How often a line is written.
const EVERY: Duration = Duration::from_secs(10);

/// One phase's plain progress lines (nothing on a terminal, where a bar shows it).
pub struct PlainProgress {
    on: bool,
    phase: String,
    unit: &'static str,
    total: u64,
    started: Instant,
    last: Instant,
}

impl PlainProgress {
    /// A phase of `total` `unit`s (plural), written only when standard error is no
    /// terminal.
    pub fn new(phase: &str, unit: &'static str, total: u64) -> PlainProgress {
        let now = Instant::now();
        PlainProgress {
            on: !std::io::stderr().is_terminal(),
            phase: phase.to_string(),
            unit,
            total,
            started: now,
            last: now,
        }
    }

    /// Says how far the phase is, `note` after it, when ten seconds have passed since
    /// the last line.
    pub fn update(&mut self, done: u64, note: &str) {
        if self.on && self.last.elapsed() >= EVERY {
            self.last = Instant::now();
            eprintln!(
                "{}: {done} of {} {} ({:.0} %), {:.0} s{note}",
                self.phase,
                self.total,
                self.unit,
                100.0 * done as f64 / self.total.max(1) as f64,
                self.started.elapsed().as_secs_f64()
            );
        }
    }

    /// Says the phase ended at `done`.
    pub fn finish(&mut self, done: u64) {
        if self.on {
            eprintln!(
                "{}: {done} of {} {} in {:.1} s",
                self.phase,
                self.total,
                self.unit,
                self.started.elapsed().as_secs_f64()
            );
            self.on = false;
        }
    }
}
