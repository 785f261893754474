//! Several differently configured solves of one root side by side, one thread each
//! (feature `race`, native builds only: the only threads and clock of this crate).
//!
//! Each entrant's search is deterministic on its own, and the winner is judged on dead
//! ends, never on which is back first, so the winner, and the diagram it found, do not
//! depend on timing. An entrant's count is its own dead ends, each weighted by
//! [`dead_end_weight`], plus its start: the first entrant's count when it started (0 for
//! the first, and for every entrant when all start at once), so a late starter is not
//! waited for where the first finishes sooner on the same clock. The verdict with
//! the lowest count wins (ties go to the earlier entrant), and an entrant only gives up
//! once its count reaches that of one that has finished; the weight makes that about
//! when the first to finish on the clock has finished, not later.
//!
//! The first entrant's SAT search may run alone for a head start: the others' start
//! at the end of its round (one that does not end the search) in which one of its level
//! budgets passed half the head start, so on the roots it settles quickly they cost
//! nothing, and when it ends before that (found, unsat, out of states) they never
//! start. Once started, they run to the usual ceilings (a widening search maps its own first cut, so it does not
//! repeat the first's work; with the same first cut it would until one of the first's
//! budgets took the whole head start, and then only its own core's time is lost).
//!
//! Every entrant's local search (see [`crate::LocalSearch`]), each with its own random
//! streams, runs from the start, before the head start is judged: the local searches
//! share the cores while the first has not mapped anything. A diagram a local search
//! finds wins over any SAT verdict, and among them the one found with the least work
//! (ties to the earlier entrant). A local search ends once its work reaches that of
//! one that found, or once a SAT search has proved `unsat` (no local search can find
//! anything then), and its entrant goes on to its SAT search, which a local find has
//! already outrun; otherwise the SAT verdicts wait for the local searches still
//! running, whose budgets bound them. So this too does not depend on timing.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Barrier, Condvar, Mutex};
use std::time::Instant;

use c4lab_steady::Diagram;
use c4lab_synth::SynthError;

use crate::{start, LocalStats, Options, Outcome, Progress, Report, MAP_REPORT_EVERY};

/// What one dead end of a search whose level budget widens without proof counts in a
/// race. Such a search soon works under ten levels, whose circuits are larger, and its
/// local search runs longer first: on the roots the first search settles in 5-10 s, its
/// dead ends took two to two and a half times as long (docs/dsat.md, "A widening
/// search's dead ends count twice").
const WIDENING_DEAD_END_WEIGHT: u64 = 2;

/// What one dead end of a search with `options` counts in a race: 2 when its level
/// budget widens without proof (`widen_after` > 0), else 1.
pub fn dead_end_weight(options: &Options) -> u64 {
    if options.widen_after > 0 {
        WIDENING_DEAD_END_WEIGHT
    } else {
        1
    }
}

/// How one entrant of a race ended.
#[derive(Debug, Clone)]
pub struct Entrant {
    /// Its report (`stopped` when another entrant finished first).
    pub report: Report,
    /// Seconds it spent mapping to its first cut (its local search not counted; 0 when
    /// the solve ended before mapping).
    pub map_seconds: f64,
    /// The most dead ends one of its level budgets took (see `Mapped::widest_budget`).
    pub widest: u64,
    /// The first entrant's count (its dead ends times its weight) when this one started
    /// (0 for the first, and for a diagram its local search found); its count in the
    /// race is this plus its own dead ends times `weight`.
    pub started_at: u64,
    /// What one of its dead ends counts in the race (see [`dead_end_weight`]).
    pub weight: u64,
}

impl Entrant {
    /// How the race ranks this entrant's verdict, lowest first: a diagram its local
    /// search found by the work that took, then a SAT verdict by its count.
    pub fn rank(&self) -> (u8, u64) {
        if self.report.local.found {
            (0, self.report.local.work)
        } else {
            (1, self.started_at + self.weight * self.report.conflicts)
        }
    }
}

/// How a race ended.
#[derive(Debug, Clone)]
pub struct RaceReport {
    /// The entrant whose verdict counts: the one that found a diagram or proved `unsat`
    /// with the lowest [`Entrant::rank`] (None when none did).
    pub winner: Option<usize>,
    /// Every entrant, in the order given.
    pub entrants: Vec<Entrant>,
}

impl RaceReport {
    /// The entrant that stands for the race: the winner; else one that ran out of states
    /// or rounds (`budget`), else the first.
    pub fn chosen(&self) -> usize {
        self.winner
            .or_else(|| {
                self.entrants
                    .iter()
                    .position(|e| e.report.outcome == Outcome::Budget)
            })
            .unwrap_or(0)
    }

    /// The report of the entrant that stands for the race (see [`RaceReport::chosen`]).
    pub fn report(&self) -> &Report {
        &self.entrants[self.chosen()].report
    }
}

/// Whether the entrants after the first run, and the first's count when they were let
/// go: undecided (None) while the first is within its head start.
struct Release {
    decision: Mutex<Option<(bool, u64)>>,
    changed: Condvar,
}

impl Release {
    /// Undecided, or (`head_start` 0) decided at once: the others start with the first.
    fn new(head_start: u64) -> Release {
        Release {
            decision: Mutex::new((head_start == 0).then_some((true, 0))),
            changed: Condvar::new(),
        }
    }

    /// The decision so far.
    fn state(&self) -> std::sync::MutexGuard<'_, Option<(bool, u64)>> {
        self.decision.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Decides once, the first entrant's count being `at`; later calls change nothing.
    fn decide(&self, run: bool, at: u64) {
        let mut state = self.state();
        if state.is_none() {
            *state = Some((run, at));
            self.changed.notify_all();
        }
    }

    /// True once the decision is made (a search then need not say it waits).
    fn decided(&self) -> bool {
        self.state().is_some()
    }

    /// Waits for the decision.
    fn wait(&self) -> bool {
        let mut state = self.state();
        loop {
            if let Some((run, _)) = *state {
                return run;
            }
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Where entrant `i` started: 0 for the first, else the first's count when the
    /// others were let go (0 when they started with it, or never).
    fn start_of(&self, i: usize) -> u64 {
        match *self.state() {
            Some((true, at)) if i > 0 => at,
            _ => 0,
        }
    }
}

/// Decides "the others do not run" when dropped, unless decided before: the first
/// entrant holds one, so that a panic in it does not leave the others waiting for ever.
struct DecideOnDrop<'a>(&'a Release);

impl Drop for DecideOnDrop<'_> {
    fn drop(&mut self) {
        self.0.decide(false, 0);
    }
}

/// Stops every entrant when dropped in a panic: each holds one, so that the others do
/// not run on to their own budgets for a race that has failed.
struct StopOnPanic<'a>(&'a Ceilings);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.stop_all();
        }
    }
}

/// Each entrant's ceilings: the dead ends at which its SAT search, and the work at
/// which its local search, can no longer win.
struct Ceilings {
    dead_ends: Vec<Arc<AtomicU64>>,
    work: Vec<Arc<AtomicU64>>,
    /// Each entrant's [`dead_end_weight`].
    weights: Vec<u64>,
}

impl Ceilings {
    fn new(entrants: &[Options]) -> Ceilings {
        let n = entrants.len();
        let none = || (0..n).map(|_| Arc::new(AtomicU64::new(u64::MAX))).collect();
        Ceilings {
            dead_ends: none(),
            work: none(),
            weights: entrants.iter().map(dead_end_weight).collect(),
        }
    }

    /// Stops every entrant (the race cannot be judged).
    fn stop_all(&self) {
        for c in self.dead_ends.iter().chain(&self.work) {
            c.store(0, Ordering::Relaxed);
        }
    }
}

/// Solves the root of `diagram` once per entry of `entrants`, each in its own thread.
/// Every entrant's local search starts at once; the others' SAT searches start after
/// the first's round in which one of its level budgets passed half of `head_start` dead
/// ends, and never if that round or one before ends its search (see the module notes;
/// 0: all start at once).
/// `ready` runs once every entrant has set up (its solver, its strong solver and its
/// empty encoding) and before any maps a position; `progress` receives each entrant's
/// reports with its index.
pub fn race(
    diagram: &Diagram,
    entrants: &[Options],
    head_start: u64,
    stop: Arc<AtomicBool>,
    ready: &(dyn Fn() + Sync),
    progress: &(dyn Fn(usize, Progress) + Sync),
) -> Result<RaceReport, SynthError> {
    if entrants.is_empty() {
        return Err(SynthError::Internal("a race needs an entrant".into()));
    }
    let n = entrants.len();
    let ceilings = Ceilings::new(entrants);
    let set_up = Barrier::new(n + 1);
    let go = Barrier::new(n + 1);
    let release = Release::new(head_start);
    let results: Vec<Result<Entrant, SynthError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = entrants
            .iter()
            .enumerate()
            .map(|(i, options)| {
                let (stop, ceilings, set_up, go) = (stop.clone(), &ceilings, &set_up, &go);
                let release = &release;
                scope.spawn(move || {
                    // a panic here would leave the barriers waiting for ever: an error
                    // instead, which stops the race at its start
                    let set_up_one = std::panic::AssertUnwindSafe(|| start(diagram, options, stop));
                    let mapping = std::panic::catch_unwind(set_up_one)
                        .unwrap_or_else(|_| {
                            Err(SynthError::Internal(format!(
                                "setting up search {} of the race panicked",
                                char::from_u32('A' as u32 + i as u32).unwrap_or('?')
                            )))
                        })
                        .map(|mut m| {
                            m.race_to(ceilings.dead_ends[i].clone());
                            m.race_local_to(ceilings.work[i].clone());
                            m
                        });
                    set_up.wait();
                    go.wait();
                    // a panic past here stops the others (the race cannot be judged)
                    let _stop_on_panic = StopOnPanic(ceilings);
                    let report = |p| progress(i, p);
                    let result = if i == 0 {
                        // however this thread ends, the others are not left waiting
                        let _decided = DecideOnDrop(release);
                        // the others start early, at half the head start, so that they
                        // have less to catch up on when they are needed; never before
                        // one dead end, so a start at 0 always means "never started"
                        let mark = (head_start / 2).max(1);
                        let result = mapping.and_then(|m| {
                            run(m, 0, 0, ceilings, release, &report, &|m| {
                                if m.widest_budget() >= mark {
                                    // the others start from the first's count
                                    let count = ceilings.weights[0] * m.dead_ends();
                                    release.decide(true, count);
                                }
                            })
                        });
                        // finished before any budget took half the head start: the
                        // others never start (this decision is the first's alone, so it
                        // does not depend on timing); let go, they run on
                        release.decide(false, 0);
                        result
                    } else {
                        mapping.and_then(|mut m| {
                            // the local search runs at once; the SAT search waits
                            while m.in_local() {
                                m.step(MAP_REPORT_EVERY)?;
                                if m.in_local() || m.has_verdict() {
                                    report(m.progress());
                                }
                            }
                            if !m.has_verdict() && !release.decided() {
                                // (not "mapping 0 positions": it maps once let go)
                                let LocalStats { steps, work, .. } = m.local_stats;
                                report(Progress::Waiting { steps, work });
                            }
                            if m.has_verdict() {
                                run(m, i, 0, ceilings, release, &report, &|_| {})
                            } else if release.wait() {
                                // let go: it maps from here (it said it waited until its
                                // first report, a few thousand positions on)
                                report(m.progress());
                                let at = release.start_of(i);
                                run(m, i, at, ceilings, release, &report, &|_| {})
                            } else {
                                let mut left_out = m.finish();
                                Ok(Entrant {
                                    report: left_out.report(Outcome::Stopped),
                                    map_seconds: 0.0,
                                    widest: 0,
                                    started_at: 0,
                                    weight: ceilings.weights[i],
                                })
                            }
                        })
                    };
                    if result.is_err() {
                        // the race cannot be judged: stop everyone
                        ceilings.stop_all();
                    }
                    result
                })
            })
            .collect();
        set_up.wait();
        ready();
        go.wait();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(SynthError::Internal("a dsat thread panicked".into())))
            })
            .collect()
    });
    let entrants = results.into_iter().collect::<Result<Vec<_>, _>>()?;
    contradiction(entrants.iter().map(|e| &e.report.outcome))?;
    let winner = entrants
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e.report.outcome, Outcome::Found(_) | Outcome::Unsat))
        .min_by_key(|(i, e)| (e.rank(), *i))
        .map(|(i, _)| i);
    Ok(RaceReport { winner, entrants })
}

/// An error when one entrant found a diagram (verified) and another proved `unsat`:
/// one of them rests on a bug, and ranking would hide it by reporting one verdict.
fn contradiction<'a>(outcomes: impl IntoIterator<Item = &'a Outcome>) -> Result<(), SynthError> {
    let (mut found, mut unsat) = (false, false);
    for outcome in outcomes {
        found |= matches!(outcome, Outcome::Found(_));
        unsat |= *outcome == Outcome::Unsat;
    }
    if found && unsat {
        return Err(SynthError::Internal(
            "one search of the race found a winning diagram (verified) and another proved that none exists: \
             run it again with --widen-after 0 for the first search alone, and report both"
                .into(),
        ));
    }
    Ok(())
}

/// One entrant, counted from `started_at`: its local search (if still running), map,
/// search (showing `rounds` the search after each round that does not end it), and on a
/// verdict lower the others' ceilings to where they can no longer win.
fn run(
    mut mapping: crate::Mapping,
    i: usize,
    started_at: u64,
    ceilings: &Ceilings,
    release: &Release,
    progress: &dyn Fn(Progress),
    rounds: &dyn Fn(&crate::Mapped),
) -> Result<Entrant, SynthError> {
    // the local search first (still running only in the first entrant), outside the
    // map's time; a find (or a stop) there ends the solve before any mapping
    let mut ended = mapping.has_verdict();
    while mapping.in_local() && !ended {
        ended = mapping.step(MAP_REPORT_EVERY)?;
        progress(mapping.progress());
    }
    let before_map = ended;
    let started = Instant::now();
    while !ended {
        ended = mapping.step(MAP_REPORT_EVERY)?;
        progress(mapping.progress());
    }
    let mapped = mapping.finish();
    let map_seconds = if before_map {
        0.0
    } else {
        started.elapsed().as_secs_f64()
    };
    let (report, widest) = mapped.search_watching(&mut |p| progress(p), &mut |m| rounds(m))?;
    let entrant = Entrant {
        report,
        map_seconds,
        widest,
        started_at,
        weight: ceilings.weights[i],
    };
    if matches!(entrant.report.outcome, Outcome::Found(_) | Outcome::Unsat) {
        // an earlier entrant wins a tie, so it may still finish at the same count
        let (kind, count) = entrant.rank();
        for j in (0..ceilings.work.len()).filter(|&j| j != i) {
            let reach = if j < i { count + 1 } else { count };
            if kind == 0 {
                // found by the local search: no SAT verdict can win now
                ceilings.work[j].fetch_min(reach, Ordering::Relaxed);
                ceilings.dead_ends[j].store(0, Ordering::Relaxed);
            } else {
                // its own dead ends at which its count reaches `reach`
                let from = release.start_of(j);
                let own = reach.saturating_sub(from).div_ceil(ceilings.weights[j]);
                ceilings.dead_ends[j].fetch_min(own, Ordering::Relaxed);
                if entrant.report.outcome == Outcome::Unsat {
                    // no diagram wins: no local search can find one
                    ceilings.work[j].store(0, Ordering::Relaxed);
                }
            }
        }
    }
    Ok(entrant)
}

#[cfg(test)]
mod tests {
    use super::*;
    use c4lab_board::Position;
    use c4lab_steady::{Cell, Diagram};

    #[test]
    fn a_found_diagram_and_an_unsat_proof_in_one_race_are_an_error() {
        let found = Outcome::Found(Diagram::from_root(&Position::default(), |_, _| {
            Cell::Level(9)
        }));
        let err = contradiction([&found, &Outcome::Unsat]).unwrap_err();
        assert!(err.to_string().contains("proved that none exists"), "{err}");
        assert!(contradiction([&Outcome::Unsat, &Outcome::Stopped]).is_ok());
        assert!(contradiction([&found, &Outcome::Stopped, &Outcome::Budget]).is_ok());
    }
}
