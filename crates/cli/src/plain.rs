//! Progress as plain lines where standard error is no terminal (a log file, a CI job,
//! a pipe): indicatif draws nothing there, and a long run would stay silent until it
//! ends. One line every ten seconds, and one at the end. On a terminal a bar shows the
//! progress instead, and a stopping signal clears it.

use std::io::IsTerminal;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, WeakProgressBar};

/// The progress bars that may be on the screen, cleared by a stopping signal (held
/// weakly: a bar dropped on an error path is finished by its drop, not kept drawing).
static BARS: Mutex<Vec<WeakProgressBar>> = Mutex::new(Vec::new());

/// Has Ctrl-C, SIGTERM or SIGHUP clear `bar` from the screen before the program ends
/// by the signal (its last frame stayed, and the shell's prompt ran on after it).
pub fn clear_bar_on_stop(bar: &ProgressBar) {
    crate::files::remove_on_interrupt(clear_bars);
    let mut bars = BARS.lock().unwrap_or_else(|e| e.into_inner());
    bars.retain(|b| b.upgrade().is_some_and(|b| !b.is_finished()));
    bars.push(bar.downgrade());
}

/// Clears every registered bar (run by the stopping signal's handler).
fn clear_bars() {
    for bar in BARS.lock().unwrap_or_else(|e| e.into_inner()).iter() {
        if let Some(bar) = bar.upgrade() {
            bar.finish_and_clear();
        }
    }
}

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
            sayln!(
                "{}: {done} of {} {} ({:.0} %), {:.0} s{note}",
                self.phase,
                self.total,
                self.unit,
                100.0 * done as f64 / self.total.max(1) as f64,
                self.started.elapsed().as_secs_f64()
            );
        }
    }

    /// Says the phase ended at `done`, `note` after it.
    pub fn finish(&mut self, done: u64, note: &str) {
        if self.on {
            sayln!(
                "{}: {done} of {} {} in {:.1} s{note}",
                self.phase,
                self.total,
                self.unit,
                self.started.elapsed().as_secs_f64()
            );
            self.on = false;
        }
    }
}

/// Runs `work`, and meanwhile, where `shown` and standard error is no terminal (a log
/// file, a batch job), writes `status` as it stands every ten seconds: the searches
/// (`complete`, `dsat`) report between their SAT calls, and one call can take minutes.
pub fn with_status_lines<R>(
    what: &str,
    shown: bool,
    status: &Mutex<String>,
    work: impl FnOnce() -> R,
) -> R {
    if !shown || std::io::stderr().is_terminal() {
        return work();
    }
    let started = Instant::now();
    let done = (Mutex::new(false), Condvar::new());
    /// Ends the line writer however `work` ends (a panic too: the scope waits for it).
    struct Done<'a>(&'a (Mutex<bool>, Condvar));
    impl Drop for Done<'_> {
        fn drop(&mut self) {
            *self.0 .0.lock().unwrap_or_else(|e| e.into_inner()) = true;
            self.0 .1.notify_all();
        }
    }
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let (lock, wake) = &done;
            let mut finished = lock.lock().unwrap_or_else(|e| e.into_inner());
            let mut last = Instant::now();
            while !*finished {
                let left = EVERY.saturating_sub(last.elapsed());
                finished = wake
                    .wait_timeout(finished, left)
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
                if !*finished && last.elapsed() >= EVERY {
                    last = Instant::now();
                    let line = status.lock().unwrap_or_else(|e| e.into_inner()).clone();
                    let secs = started.elapsed().as_secs_f64();
                    sayln!("{what}, {secs:.0} s: {line}");
                }
            }
        });
        let _done = Done(&done);
        work()
    })
}
