//! The whole-root solve for the browser: the same `c4lab-dsat` as the command line,
//! with the pure-Rust SAT backend, run in steps so its worker can report progress.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use c4lab_dsat::{start, Mapped, Mapping, Options, Outcome, Progress};
use serde_json::json;
use wasm_bindgen::prelude::*;

use crate::{diagram, fail, flat};

/// Where a session is.
enum Phase {
    Mapping(Mapping),
    Searching(Mapped),
    Done(c4lab_dsat::Report),
}

/// One whole-root solve (BatSat); the page stops it by terminating its worker.
#[wasm_bindgen]
pub struct DsatSession {
    /// `Some` between calls (taken while a phase moves on; left `None` after an error).
    phase: Option<Phase>,
    undecided: usize,
}

#[wasm_bindgen]
impl DsatSession {
    /// Starts solving the root of `grid` (`?` cells free over levels 0-9, the others
    /// pinned), mapping at first the default first cut (at most `cut_plies`) and later
    /// `cut_plies` below the root, and at most `max_states` positions
    /// (the memory budget: 1-3 KB each, as measured natively). `first_levels` is the
    /// level budget: the `?` cells first take levels below it, one more each time no
    /// diagram fits (1: the fewest levels; 10: every level from the start).
    pub fn start(
        grid: &str,
        cut_plies: u32,
        max_states: f64,
        first_levels: u8,
    ) -> Result<DsatSession, String> {
        let d = diagram(grid)?;
        let options = Options {
            cut_plies,
            max_states: if max_states.is_finite() && max_states >= 1.0 {
                max_states as u64
            } else {
                Options::default().max_states
            },
            backend: "batsat".into(),
            first_levels,
            ..Options::default()
        };
        let mapping =
            start(&d, &options, Arc::new(AtomicBool::new(false))).map_err(|e| e.to_string())?;
        Ok(DsatSession {
            phase: Some(Phase::Mapping(mapping)),
            undecided: d.undecided(),
        })
    }

    /// Maps up to `batch` positions, or runs one solve-verify round once mapping is
    /// done, and reports `{ok, state: mapping | searching | found | unsat | budget |
    /// stopped, undecided, positions, max_states, round, conflicts, settled, levels, cells}`.
    pub fn step(&mut self, batch: u32) -> String {
        let Some(phase) = self.phase.take() else {
            return fail("this solve already failed; start a new one");
        };
        let next = match phase {
            Phase::Mapping(mut m) => match m.step(batch.max(1) as u64) {
                Ok(true) => Phase::Searching(m.finish()),
                Ok(false) => Phase::Mapping(m),
                Err(e) => return fail(e),
            },
            Phase::Searching(mut s) => match s.round() {
                Ok(Some(outcome)) => Phase::Done(s.report(outcome)),
                Ok(None) if s.wants_deeper() => Phase::Mapping(s.deepen()),
                Ok(None) => Phase::Searching(s),
                Err(e) => return fail(e),
            },
            done @ Phase::Done(_) => done,
        };
        let mut j = json!({ "ok": true, "undecided": self.undecided });
        self.phase = Some(next);
        match self.phase.as_mut().expect("just set") {
            Phase::Mapping(m) => {
                j["state"] = json!("mapping");
                if let Progress::Mapping {
                    positions,
                    max_states,
                } = m.progress()
                {
                    j["positions"] = json!(positions);
                    j["max_states"] = json!(max_states);
                }
            }
            Phase::Searching(s) => {
                j["state"] = json!("searching");
                if let Progress::Searching {
                    round,
                    positions,
                    conflicts,
                    settled,
                } = s.progress()
                {
                    j["round"] = json!(round);
                    j["positions"] = json!(positions);
                    j["conflicts"] = json!(conflicts);
                    j["settled"] = json!(settled);
                }
                j["levels"] = json!(s.levels());
            }
            Phase::Done(r) => {
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
                j["levels"] = json!(r.levels);
                if let Outcome::Found(d) = &r.outcome {
                    j["cells"] = json!(flat(d));
                }
            }
        }
        j.to_string()
    }
}
