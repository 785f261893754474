//! The whole-root solve for the browser: the same `c4lab-dsat` as the command line,
//! with the pure-Rust SAT backend, run in steps so its worker can report progress.
//! The page races two sessions in two workers as `c4lab dsat` races two threads
//! (`web/race.js`): each session reports what the judging needs (its dead ends, the
//! most one level budget took, when it passed the release mark) and takes a ceiling.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use c4lab_dsat::{start, Mapped, Mapping, Options, Outcome, Progress};
use serde_json::json;
use wasm_bindgen::prelude::*;

use crate::ceiling::RaceCeiling;
use crate::{diagram, fail, flat};

/// Where a session is.
enum Phase {
    Mapping(Mapping),
    Searching(Mapped),
    /// The report, and the most dead ends one level budget took.
    Done(c4lab_dsat::Report, u64),
}

/// One whole-root solve (BatSat); the page stops it by terminating its worker.
#[wasm_bindgen]
pub struct DsatSession {
    /// `Some` between calls (taken while a phase moves on; left `None` after an error).
    phase: Option<Phase>,
    undecided: usize,
    /// The dead ends at which this session gives up (`stopped`): another entrant of
    /// the page's race finished with fewer.
    ceiling: Arc<RaceCeiling>,
    /// Once a level budget has taken this many dead ends, the session's dead ends at the
    /// end of that round are kept in `released_at` (the race's release mark).
    release_mark: u64,
    released_at: Option<u64>,
    /// The work at which this session's local search gives up (`stopped`): another
    /// entrant's local search found a diagram with less.
    local_ceiling: Arc<AtomicU64>,
    /// True while the session waits, its local search over, for the page to let its
    /// SAT search go (see [`DsatSession::hold_after_local`]).
    held: bool,
    /// The root, when an unsat would be about it; its value once solved.
    root: Option<c4lab_board::Position>,
    root_value: Option<Option<c4lab_synth::RootValue>>,
}

#[wasm_bindgen]
impl DsatSession {
    /// Starts solving the root of `grid` (`?` cells free over levels 0-9, the others
    /// pinned), mapping at first the default first cut (at most `cut_plies`) and later
    /// `cut_plies` below the root, and at most `max_states` positions
    /// (the memory budget: 1-3 KB each, as measured natively). `first_levels` is the
    /// level budget: the `?` cells first take levels below it, one more each time no
    /// diagram fits (1: the fewest levels; 10: every level from the start).
    /// `widen_after` (0: only on proof) lets a budget grow once it has taken that many
    /// dead ends, as `c4lab dsat --widen-after` does for one search. `entrant` is its
    /// index in the page's race: its local search's random stream and default budget
    /// are that search's in `c4lab dsat`'s race (0 for a solve on its own).
    pub fn start(
        grid: &str,
        cut_plies: u32,
        max_states: f64,
        first_levels: f64,
        widen_after: f64,
        entrant: u32,
    ) -> Result<DsatSession, String> {
        // a number from the page: refused outside 1-10 rather than wrapped into a byte
        if !(1.0..=10.0).contains(&first_levels) || first_levels.fract() != 0.0 {
            return Err(format!(
                "a level budget of {first_levels}: give a whole number of levels from 1 to 10"
            ));
        }
        let first_levels = first_levels as u8;
        // so is a state budget that is no count of positions (it fell back to the default)
        if !(max_states.is_finite() && max_states >= 1.0) {
            return Err(format!(
                "a state budget of {max_states}: give a positive number of positions"
            ));
        }
        let d = diagram(grid)?;
        let base = Options {
            cut_plies,
            max_states: max_states as u64,
            backend: "batsat".into(),
            first_levels,
            ..Options::default()
        };
        let options = c4lab_dsat::entrant(&base, entrant as usize, dead_ends(widen_after), None);
        let mut mapping =
            start(&d, &options, Arc::new(AtomicBool::new(false))).map_err(|e| e.to_string())?;
        let ceiling = Arc::new(RaceCeiling::new());
        mapping.race_to(ceiling.clone());
        let local_ceiling = Arc::new(AtomicU64::new(u64::MAX));
        mapping.race_local_to(local_ceiling.clone());
        Ok(DsatSession {
            phase: Some(Phase::Mapping(mapping)),
            undecided: d.undecided(),
            root: c4lab_synth::open_root(&d),
            root_value: None,
            ceiling,
            release_mark: u64::MAX,
            released_at: None,
            local_ceiling,
            held: false,
        })
    }

    /// Ends the local search once its work reaches `work` (lowered only; NaN changes
    /// nothing): another entrant's local search found a diagram with that work, or its
    /// SAT search proved there is none (0). The SAT search goes on under its own
    /// ceiling ([`DsatSession::set_ceiling`]).
    pub fn set_local_ceiling(&mut self, work: f64) {
        if !work.is_nan() {
            self.local_ceiling
                .fetch_min(self::dead_ends(work), Ordering::Relaxed);
        }
    }

    /// Once its local search is over without a diagram, the session reports the state
    /// `waiting` and does nothing more until [`DsatSession::release`]: a later entrant
    /// of the race, whose SAT search starts only at the first's release mark.
    pub fn hold_after_local(&mut self) {
        self.held = true;
    }

    /// Lets a held session go on to its map and SAT search.
    pub fn release(&mut self) {
        self.held = false;
    }

    /// Gives up (`stopped`) once this session's dead ends reach `dead_ends` (lowered
    /// only; NaN changes nothing).
    pub fn set_ceiling(&mut self, dead_ends: f64) {
        if !dead_ends.is_nan() {
            self.ceiling.lower(self::dead_ends(dead_ends));
        }
    }

    /// Also reads the ceiling from `array[index]` (an `Int32Array` over a
    /// SharedArrayBuffer), which the page may lower while a step runs.
    #[cfg(target_arch = "wasm32")]
    pub fn share_ceiling(&mut self, array: js_sys::Int32Array, index: u32) {
        self.ceiling.share(array, index);
    }

    /// Caps the local search that runs before this search maps its root (in
    /// positions walked plus strong-solver nodes; 0: none; it only lowers the
    /// entrant's default). Call it before the first step, as `c4lab dsat --local-work`
    /// does.
    pub fn set_local_work(&mut self, work: f64) {
        if let Some(Phase::Mapping(m)) = self.phase.as_mut() {
            m.limit_local(self::dead_ends(work));
        }
    }

    /// Reports `released_at`: the dead ends at the end of the first round that does not
    /// end the search and after which one level budget has taken `dead_ends` or more (the
    /// race's release mark).
    pub fn watch_release(&mut self, dead_ends: f64) {
        self.release_mark = self::dead_ends(dead_ends);
    }

    /// Maps up to `batch` positions, or runs one solve-verify round once mapping is
    /// done, and reports `{ok, state: mapping | waiting | searching | found | unsat |
    /// budget | stopped, undecided, positions, max_states, round, conflicts, settled, levels,
    /// least_levels, widest, released_at, local_steps, local_work, local_found, cells,
    /// root_outcome, root_score}` (the root's value with an unsat about the root itself)
    /// (`widest`: the most dead ends one level
    /// budget took; `released_at`: see [`DsatSession::watch_release`], else null).
    pub fn step(&mut self, batch: u32) -> String {
        let Some(phase) = self.phase.take() else {
            return fail("this solve already failed; start a new one");
        };
        let next = match phase {
            // held: the local search is over, the SAT search not let go yet
            Phase::Mapping(m) if self.held && !m.in_local() && !m.has_verdict() => {
                self.phase = Some(Phase::Mapping(m));
                return json!({"ok": true, "state": "waiting", "undecided": self.undecided, "positions": 0})
                    .to_string();
            }
            Phase::Mapping(mut m) => match m.step(batch.max(1) as u64) {
                // a verdict already in (a local search's find, a stop, the budget) is
                // reported at once: a "searching" report with no dead ends in between
                // would read to the race as a SAT search that cannot win, and retire it
                Ok(true) if m.has_verdict() => {
                    let mut s = m.finish();
                    match s.round() {
                        Ok(Some(outcome)) => Phase::Done(s.report(outcome), s.widest_budget()),
                        // (the first round returns the verdict in: not met, but a search
                        // that went on would be no wrong answer)
                        Ok(None) => Phase::Searching(s),
                        Err(e) => return fail(e),
                    }
                }
                Ok(true) => Phase::Searching(m.finish()),
                Ok(false) => Phase::Mapping(m),
                Err(e) => return fail(e),
            },
            Phase::Searching(mut s) => {
                let verdict = s.round();
                // as the native race watches its first search: after every round that
                // does not end the search (the others never start once the first ended)
                if matches!(verdict, Ok(None))
                    && self.released_at.is_none()
                    && s.widest_budget() >= self.release_mark
                {
                    self.released_at = Some(s.dead_ends());
                }
                match verdict {
                    Ok(Some(outcome)) => Phase::Done(s.report(outcome), s.widest_budget()),
                    Ok(None) if s.wants_deeper() => Phase::Mapping(s.deepen()),
                    Ok(None) => Phase::Searching(s),
                    Err(e) => return fail(e),
                }
            }
            done @ Phase::Done(..) => done,
        };
        let mut j = json!({
            "ok": true,
            "undecided": self.undecided,
            "released_at": self.released_at,
        });
        self.phase = Some(next);
        match self.phase.as_mut().expect("just set") {
            Phase::Mapping(m) if self.held && !m.in_local() && !m.has_verdict() => {
                // its local search just ended: nothing more until it is let go
                j["state"] = json!("waiting");
                j["positions"] = json!(0);
            }
            Phase::Mapping(m) => {
                j["state"] = json!("mapping");
                match m.progress() {
                    Progress::Mapping {
                        positions,
                        max_states,
                    } => {
                        j["positions"] = json!(positions);
                        j["max_states"] = json!(max_states);
                    }
                    Progress::Local {
                        steps,
                        faults,
                        work,
                        budget,
                    } => {
                        // before mapping: no position yet
                        j["positions"] = json!(0);
                        j["local_steps"] = json!(steps);
                        j["local_faults"] = json!(faults);
                        j["local_work"] = json!(work);
                        j["local_budget"] = json!(budget);
                    }
                    // (the native race's alone: the page's workers wait as `held`)
                    Progress::Searching { .. } | Progress::Waiting { .. } => {}
                }
            }
            Phase::Searching(s) => {
                j["state"] = json!("searching");
                if let Progress::Searching {
                    round,
                    positions,
                    conflicts,
                    settled,
                    ..
                } = s.progress()
                {
                    j["round"] = json!(round);
                    j["positions"] = json!(positions);
                    j["conflicts"] = json!(conflicts);
                    j["settled"] = json!(settled);
                }
                j["levels"] = json!(s.levels());
                j["widest"] = json!(s.widest_budget());
            }
            Phase::Done(r, widest) => {
                j["state"] = json!(match &r.outcome {
                    Outcome::Found(_) => "found",
                    Outcome::Unsat => "unsat",
                    Outcome::Budget => "budget",
                    Outcome::Stopped => "stopped",
                });
                j["round"] = json!(r.rounds);
                j["positions"] = json!(r.encoding.positions);
                j["mapped"] = json!(r.mapped);
                j["conflicts"] = json!(r.conflicts);
                // a diagram with no ? cell has no level budget (as `c4lab dsat --json`)
                let budget = |levels: u8| (self.undecided > 0).then_some(levels);
                j["levels"] = json!(budget(r.levels));
                j["least_levels"] = json!(budget(r.least_levels));
                j["widest"] = json!(widest);
                j["local_steps"] = json!(r.local.steps);
                j["local_work"] = json!(r.local.work);
                j["local_found"] = json!(r.local.found);
                if let Outcome::Found(d) = &r.outcome {
                    j["cells"] = json!(flat(d));
                }
                if let Outcome::Unsat = &r.outcome {
                    crate::root_fields(&mut j, self.root, &mut self.root_value);
                }
            }
        }
        j.to_string()
    }
}

/// A count of dead ends from JavaScript: NaN and negatives as 0, the rest truncated
/// (infinity and anything past 2^64 as "never"); a NaN ceiling is ignored instead.
fn dead_ends(n: f64) -> u64 {
    if n >= u64::MAX as f64 {
        u64::MAX
    } else if n > 0.0 {
        n as u64
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_budget_outside_one_to_ten_is_refused_not_wrapped() {
        let grid = "9909999\n99R9999\n??Y?999\nYRY?R??\nYYYRR??\nRRRYYRY\n";
        for bad in [0.0, 11.0, 256.0, -1.0, 2.5, f64::NAN] {
            let e = DsatSession::start(grid, 16, 1e5, bad, 0.0, 0).err();
            assert!(e.is_some_and(|e| e.contains("from 1 to 10")), "{bad}");
        }
        assert!(DsatSession::start(grid, 16, 1e5, 10.0, 0.0, 0).is_ok());
        // a state budget that counts no positions is refused, not replaced by the default
        for bad in [0.0, -5.0, f64::NAN, f64::INFINITY] {
            let e = DsatSession::start(grid, 16, bad, 1.0, 0.0, 0).err();
            assert!(e.is_some_and(|e| e.contains("a state budget of")), "{bad}");
        }
    }

    /// Steps a session to its end; the reports, the last one final.
    fn run(mut session: DsatSession) -> Vec<serde_json::Value> {
        let mut reports = Vec::new();
        loop {
            let r: serde_json::Value = serde_json::from_str(&session.step(64)).unwrap();
            let done = !["mapping", "searching"].contains(&r["state"].as_str().unwrap());
            reports.push(r);
            if done {
                return reports;
            }
        }
    }

    #[test]
    fn the_local_search_runs_first_reports_its_work_and_zero_turns_it_off() {
        let grid = "9909999\n99R9999\n??Y?999\nYRY?R??\nYYYRR??\nRRRYYRY\n";
        let local = run(DsatSession::start(grid, 16, 1e5, 1.0, 0.0, 0).unwrap());
        let end = local.last().unwrap();
        assert_eq!(end["state"], "found", "{end}");
        assert!(end["local_work"].as_u64().unwrap() > 0, "{end}");
        assert_eq!(end["round"], 0, "{end}");
        // the find is reported at once: never a search with no dead ends in between,
        // which the page's race would retire as one that cannot win
        assert!(local.iter().all(|r| r["state"] != "searching"), "{local:?}");
        let mut session = DsatSession::start(grid, 16, 1e5, 1.0, 0.0, 0).unwrap();
        session.set_local_work(0.0);
        let sat = run(session);
        let end = sat.last().unwrap();
        assert_eq!(end["state"], "found", "{end}");
        assert_eq!(end["local_work"], 0, "{end}");
        assert!(end["round"].as_u64().unwrap() > 0, "{end}");
        // while it runs the page is told about the local search, not a map of nothing
        assert!(sat.iter().all(|r| r["local_budget"].is_null()));
    }

    #[test]
    fn a_held_entrant_waits_after_its_local_search_until_let_go() {
        // a ply-18 root that stream 0 misses in a whole run of 10 M (see c4lab-dsat's
        // tests; it finds it within the default 25 M)
        let moves = "656666454544535242";
        let root = c4lab_board::Position::from_moves(moves).unwrap();
        let grid =
            c4lab_steady::Diagram::from_root(&root, |_, _| c4lab_steady::Cell::Undecided).to_grid();
        let mut first = DsatSession::start(&grid, 16, 1e5, 1.0, 0.0, 0).unwrap();
        first.set_local_work(1e7);
        first.hold_after_local();
        let held = run(first);
        assert_eq!(held.last().unwrap()["state"], "waiting");
        assert!(held.iter().any(|r| !r["local_budget"].is_null()));
        // the second entrant's stream finds it; its report says so
        let mut second = DsatSession::start(&grid, 16, 1e5, 1.0, 3000.0, 1).unwrap();
        second.hold_after_local();
        let end = run(second).pop().unwrap();
        assert_eq!(end["state"], "found", "{end}");
        assert_eq!(end["local_found"], true, "{end}");
        // a local ceiling at that work ends its local search without the find (and a
        // zero dead-end ceiling, as after another search's find, the whole session)
        let mut outrun = DsatSession::start(&grid, 16, 1e5, 1.0, 3000.0, 1).unwrap();
        outrun.set_local_ceiling(end["local_work"].as_f64().unwrap());
        outrun.set_ceiling(0.0);
        let stopped = run(outrun).pop().unwrap();
        assert_eq!(stopped["state"], "stopped", "{stopped}");
        assert_eq!(stopped["local_found"], false, "{stopped}");
        assert_eq!(stopped["local_work"], end["local_work"], "{stopped}");
        // let go, a held session maps and searches: stepping on after `waiting`
        let mut again = DsatSession::start(&grid, 16, 1e5, 1.0, 0.0, 0).unwrap();
        again.set_local_work(1000.0);
        again.hold_after_local();
        assert_eq!(run_until_waiting(&mut again), "waiting");
        again.release();
        let end = run(again).pop().unwrap();
        assert_eq!(end["state"], "found", "{end}");
        assert_eq!(end["local_found"], false, "{end}");
        assert!(end["round"].as_u64().unwrap() > 0, "{end}");
    }

    #[test]
    fn the_release_mark_is_passed_only_on_a_round_that_does_not_end_the_search() {
        // (on the round that finds, the page let the others go at the first's final count,
        // and they were counted as started)
        let grid = "9909999\n99R9999\n??Y?999\nYRY?R??\nYYYRR??\nRRRYYRY\n";
        let solve = |mark: Option<u64>| {
            let mut session = DsatSession::start(grid, 16, 1e5, 1.0, 0.0, 0).unwrap();
            session.set_local_work(0.0);
            if let Some(mark) = mark {
                session.watch_release(mark as f64);
            }
            run(session)
        };
        // the most dead ends a level budget took before the last round, and after it
        let unwatched = solve(None);
        let (end, before) = unwatched.split_last().unwrap();
        assert_eq!(end["state"], "found", "{end}");
        let widest = |r: &serde_json::Value| r["widest"].as_u64();
        let last = widest(end).unwrap();
        let earlier = before.iter().filter_map(widest).max().unwrap_or(0);
        assert!(last > earlier && earlier > 0, "{earlier} then {last}");
        // a mark only the round that finds passes: no release
        let end = solve(Some(last)).pop().unwrap();
        assert!(end["released_at"].is_null(), "{end}");
        // a mark an earlier round passes: released at that round's end, before the last
        let end = solve(Some(earlier)).pop().unwrap();
        let at = end["released_at"].as_u64().expect("released");
        assert!(at < end["conflicts"].as_u64().unwrap(), "{end}");
        assert!(
            before.iter().any(|r| r["conflicts"].as_u64() == Some(at)),
            "{end}"
        );
    }

    /// Steps until the session is no longer in its local search; its state then.
    fn run_until_waiting(session: &mut DsatSession) -> String {
        loop {
            let r: serde_json::Value = serde_json::from_str(&session.step(64)).unwrap();
            if r["local_budget"].is_null() {
                return r["state"].as_str().unwrap().to_string();
            }
        }
    }
}
