//! Progress as plain lines where standard error is no terminal (a log file, a CI job,
//! a pipe): indicatif draws nothing there, and a long run would stay silent until it
//! ends. One line every ten seconds, whether or not a unit of work ended meanwhile, and
//! one at the end. On a terminal a bar shows the progress instead, and a stopping
//! signal clears it.

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
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

/// One phase's plain progress lines (nothing on a terminal, where a bar shows it). A
/// line is written every ten seconds even while no unit ends: a game of the exact
/// teacher can take minutes, and the log stayed silent meanwhile.
pub struct PlainProgress {
    /// The line's state and the thread that writes it on time (None on a terminal, and
    /// once finished).
    beat: Option<(Arc<Beat>, JoinHandle<()>)>,
}

/// What the line says, shared with the thread that writes it on time.
struct Beat {
    line: Mutex<Line>,
    wake: Condvar,
}

struct Line {
    phase: String,
    unit: &'static str,
    total: u64,
    done: u64,
    note: String,
    started: Instant,
    last: Instant,
    every: Duration,
    over: bool,
    out: Box<dyn Write + Send>,
}

impl Line {
    /// Writes how far the phase is.
    fn write(&mut self) {
        self.last = Instant::now();
        let _ = writeln!(
            self.out,
            "{}: {} of {} {} ({:.0} %), {:.0} s{}",
            self.phase,
            self.done,
            self.total,
            self.unit,
            100.0 * self.done as f64 / self.total.max(1) as f64,
            self.started.elapsed().as_secs_f64(),
            self.note
        );
    }

    /// Writes that the phase ended at `done`, `note` after it.
    fn write_end(&mut self, done: u64, note: &str) {
        let secs = self.started.elapsed().as_secs_f64();
        let _ = writeln!(
            self.out,
            "{}: {done} of {} {} in {secs:.1} s{note}",
            self.phase, self.total, self.unit
        );
    }
}

impl PlainProgress {
    /// A phase of `total` `unit`s (plural), written only when standard error is no
    /// terminal.
    pub fn new(phase: &str, unit: &'static str, total: u64) -> PlainProgress {
        if std::io::stderr().is_terminal() {
            return PlainProgress { beat: None };
        }
        PlainProgress::writing(phase, unit, total, EVERY, Box::new(std::io::stderr()))
    }

    /// A phase whose lines go to `out`, one every `every`.
    fn writing(
        phase: &str,
        unit: &'static str,
        total: u64,
        every: Duration,
        out: Box<dyn Write + Send>,
    ) -> PlainProgress {
        let now = Instant::now();
        let beat = Arc::new(Beat {
            line: Mutex::new(Line {
                phase: phase.to_string(),
                unit,
                total,
                done: 0,
                note: String::new(),
                started: now,
                last: now,
                every,
                over: false,
                out,
            }),
            wake: Condvar::new(),
        });
        let shared = beat.clone();
        let thread = std::thread::spawn(move || {
            let mut line = shared.line.lock().unwrap_or_else(|e| e.into_inner());
            while !line.over {
                let left = line.every.saturating_sub(line.last.elapsed());
                line = shared
                    .wake
                    .wait_timeout(line, left)
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
                if !line.over && line.last.elapsed() >= line.every {
                    line.write();
                }
            }
        });
        PlainProgress {
            beat: Some((beat, thread)),
        }
    }

    /// Records how far the phase is, `note` after it (written when its time comes).
    pub fn update(&mut self, done: u64, note: &str) {
        if let Some((beat, _)) = &self.beat {
            let mut line = beat.line.lock().unwrap_or_else(|e| e.into_inner());
            line.done = done;
            line.note = note.to_string();
            if line.last.elapsed() >= line.every {
                line.write();
            }
        }
    }

    /// Says the phase ended at `done`, `note` after it.
    pub fn finish(&mut self, done: u64, note: &str) {
        self.stop(Some((done, note)));
    }

    /// Ends the line writer, after the last line `end` gives (if any).
    fn stop(&mut self, end: Option<(u64, &str)>) {
        if let Some((beat, thread)) = self.beat.take() {
            {
                let mut line = beat.line.lock().unwrap_or_else(|e| e.into_inner());
                line.over = true;
                if let Some((done, note)) = end {
                    line.write_end(done, note);
                }
            }
            beat.wake.notify_all();
            let _ = thread.join();
        }
    }
}

/// A phase left unfinished (an error ends the command) ends its line writer, unsaid.
impl Drop for PlainProgress {
    fn drop(&mut self) {
        self.stop(None);
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

#[cfg(test)]
mod tests {
    use super::*;

    use crate::ticker::tests::Seen;

    fn lines(sink: &Seen) -> Vec<String> {
        sink.text().lines().map(str::to_string).collect()
    }

    #[test]
    fn a_line_is_written_on_time_while_no_unit_ends_and_none_after_the_end() {
        let sink = Seen::default();
        let every = Duration::from_millis(20);
        let mut p = PlainProgress::writing("train", "games", 3, every, Box::new(sink.clone()));
        p.update(1, ", 7 candidates tried");
        // no unit ends from here on: the lines still come, each saying where it stands
        let waited = Instant::now();
        while lines(&sink).len() < 2 && waited.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(every);
        }
        let said = lines(&sink);
        assert!(said.len() >= 2, "{said:?}");
        assert!(
            said.iter()
                .all(|l| l.starts_with("train: 1 of 3 games (33 %), ")
                    && l.ends_with(" s, 7 candidates tried")),
            "{said:?}"
        );
        p.finish(3, "");
        let end = lines(&sink);
        assert!(
            end.last().unwrap().starts_with("train: 3 of 3 games in "),
            "{end:?}"
        );
        std::thread::sleep(every * 5);
        assert_eq!(lines(&sink), end, "nothing is written after the end");
    }
}
