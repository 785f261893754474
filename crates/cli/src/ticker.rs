//! A line on a terminal's standard error that says which long piece of work runs, and
//! for how long, once it has run a second: a solve near the empty board takes minutes,
//! and `analyze` or `solve` printed nothing until the answer. Work that ends within the
//! second draws nothing, and nothing is drawn where standard error is no terminal (a
//! log, a script), so the answers on standard output stay as they were.
//!
//! Hand-written rather than an indicatif spinner: a spinner draws at once, and would
//! flash for each of the thousands of quick lines a benchmark set feeds `solve`.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often the line is redrawn.
const EVERY: Duration = Duration::from_millis(250);

/// Says what runs on standard error, past a delay (see the module's note).
pub struct Ticker {
    shared: Option<Arc<Shared>>,
    thread: Option<JoinHandle<()>>,
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
    delay: Duration,
}

struct State {
    /// The work running and when it started.
    work: Option<(String, Instant)>,
    /// Whether the line is on the screen (to be erased when the work ends).
    drawn: bool,
    quit: bool,
    out: Box<dyn Write + Send>,
    /// Mirrors `drawn` for the stopping signal's handler (standard error's ticker only).
    on_screen: Option<&'static AtomicBool>,
}

/// Whether standard error's ticker line is on the screen.
static ON_SCREEN: AtomicBool = AtomicBool::new(false);

/// Erases standard error's ticker line, if drawn: run by a stopping signal.
fn erase_on_stop() {
    if ON_SCREEN.swap(false, Ordering::SeqCst) {
        say!("{ERASE}");
    }
}

/// Erases the line the cursor is on.
const ERASE: &str = "\r\x1b[2K";

impl Ticker {
    /// A ticker on standard error when it is a terminal (not a `dumb` one, which shows
    /// the erasing codes as text), else one that draws nothing.
    pub fn on_terminal() -> Ticker {
        let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
        if std::io::stderr().is_terminal() && !dumb {
            // Ctrl-C (or SIGTERM, SIGHUP) mid-solve erases the line before the signal
            // ends the program (the shell's prompt came after it)
            crate::files::remove_on_interrupt(erase_on_stop);
            let t = Ticker::to(Box::new(std::io::stderr()), Duration::from_secs(1));
            if let Some(s) = &t.shared {
                s.state.lock().expect("ticker lock").on_screen = Some(&ON_SCREEN);
            }
            t
        } else {
            Ticker {
                shared: None,
                thread: None,
            }
        }
    }

    /// A ticker drawing to `out` once a piece of work has run `delay`.
    pub fn to(out: Box<dyn Write + Send>, delay: Duration) -> Ticker {
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                work: None,
                drawn: false,
                quit: false,
                out,
                on_screen: None,
            }),
            wake: Condvar::new(),
            delay,
        });
        let s = shared.clone();
        let thread = std::thread::spawn(move || {
            let mut st = s.state.lock().expect("ticker lock");
            while !st.quit {
                if let Some((what, since)) = &st.work {
                    let ran = since.elapsed();
                    if ran >= s.delay {
                        let line = format!("{ERASE}{what}: {} s", ran.as_secs());
                        // (a terminal that went away ends nothing but this line)
                        let _ = st.out.write_all(line.as_bytes());
                        let _ = st.out.flush();
                        st.drawn = true;
                        if let Some(flag) = st.on_screen {
                            flag.store(true, Ordering::SeqCst);
                        }
                    }
                }
                st = s.wake.wait_timeout(st, EVERY).expect("ticker lock").0;
            }
        });
        Ticker {
            shared: Some(shared),
            thread: Some(thread),
        }
    }

    /// A piece of work starts: `what` is drawn once it has run the delay.
    pub fn start(&self, what: String) {
        if let Some(s) = &self.shared {
            s.state.lock().expect("ticker lock").work = Some((what, Instant::now()));
        }
    }

    /// The running work's line says `what` from now on, its clock running on (a piece
    /// of work in steps, each too short to be drawn on its own); starts it if none runs.
    pub fn retitle(&self, what: String) {
        if let Some(s) = &self.shared {
            let mut st = s.state.lock().expect("ticker lock");
            let since = st.work.as_ref().map_or_else(Instant::now, |w| w.1);
            st.work = Some((what, since));
        }
    }

    /// The work has ended: its line, if drawn, is erased before anything else is written.
    pub fn done(&self) {
        if let Some(s) = &self.shared {
            let mut st = s.state.lock().expect("ticker lock");
            st.work = None;
            if let Some(flag) = st.on_screen {
                flag.store(false, Ordering::SeqCst);
            }
            if st.drawn {
                st.drawn = false;
                let _ = st.out.write_all(ERASE.as_bytes());
                let _ = st.out.flush();
            }
        }
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.done();
        if let Some(s) = &self.shared {
            s.state.lock().expect("ticker lock").quit = true;
            s.wake.notify_all();
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A writer whose bytes the test reads back (the plain progress lines' test too).
    #[derive(Clone, Default)]
    pub(crate) struct Seen(Arc<Mutex<Vec<u8>>>);

    impl Write for Seen {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Seen {
        pub(crate) fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    #[test]
    fn long_work_is_named_with_its_time_and_erased_when_done_quick_work_draws_nothing() {
        let seen = Seen::default();
        let t = Ticker::to(Box::new(seen.clone()), Duration::from_millis(300));
        t.start("quick".into());
        t.done();
        t.start("solving 4".into());
        std::thread::sleep(Duration::from_millis(700));
        t.done();
        let text = seen.text();
        assert!(!text.contains("quick"), "{text:?}");
        // (its seconds depend on when the thread woke: not checked)
        assert!(text.starts_with("\r\x1b[2Ksolving 4: "), "{text:?}");
        assert!(text.ends_with(ERASE), "erased once done: {text:?}");
        // nothing more once the work is done
        std::thread::sleep(Duration::from_millis(400));
        drop(t);
        assert_eq!(seen.text(), text);
    }

    #[test]
    fn work_in_quick_steps_is_drawn_once_the_whole_has_run_the_delay() {
        // a book of many quick positions showed nothing: each step restarted the clock
        let seen = Seen::default();
        let t = Ticker::to(Box::new(seen.clone()), Duration::from_millis(300));
        t.start("book: listing".into());
        for i in 0..8 {
            t.retitle(format!("book: {i}/8 solved"));
            std::thread::sleep(Duration::from_millis(100));
        }
        t.done();
        let text = seen.text();
        assert!(text.contains("/8 solved: "), "{text:?}");
        drop(t);
    }
}
