//! The Lab's synthesis engine: auto-complete and the whole-root solve (dsat) compiled
//! to WebAssembly, a module of its own so the page's main engine stays small; only the
//! auto-complete and dsat workers load it.
//! A session's `start` throws the error message for a bad grid; its `step` returns a
//! JSON string, with `"ok": false` and an `"error"` when a step fails.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use c4lab_board::format_moves;
use c4lab_steady::{Counterexample, Diagram};
use c4lab_synth::{Completer, Completion, Options, RootValue, Step};
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

pub(crate) fn fail(e: impl std::fmt::Display) -> String {
    json!({ "ok": false, "error": e.to_string() }).to_string()
}

/// Reads a grid given as six rows (any form `c4lab verify` reads), or as its 42 cells on
/// one line, as the Lab's other engine functions take it.
pub(crate) fn diagram(grid: &str) -> Result<Diagram, String> {
    c4lab_steady::read_grid(grid).map_err(|e| e.to_string())
}

mod ceiling;
mod dsat;

use ceiling::RaceCeiling;
pub use dsat::DsatSession;

/// Sets an unsat report's `root_outcome` and `root_score` (as `c4lab dsat --json`
/// gives them) from the open root's value, solved once and kept in `value`.
pub(crate) fn root_fields(
    j: &mut Value,
    root: Option<c4lab_board::Position>,
    value: &mut Option<Option<RootValue>>,
) {
    let v = *value.get_or_insert_with(|| root.as_ref().and_then(c4lab_synth::root_value));
    j["root_outcome"] = json!(v.map(RootValue::outcome));
    j["root_score"] = json!(v.and_then(|v| v.score));
}

/// The 42 cells of a diagram in grid order as one string.
pub(crate) fn flat(d: &Diagram) -> String {
    d.cells().iter().map(|c| c.to_char()).collect()
}

/// One auto-complete search (BatSat, the pure-Rust backend); the page stops it by
/// terminating its worker, after writing 0 into its shared slot where it has one.
#[wasm_bindgen]
pub struct CompleteSession {
    completer: Completer,
    /// The stop the page writes while a step runs (0 dead ends: stop); natively only
    /// the tests lower it (`share_stop` is wasm's).
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    stop: Arc<RaceCeiling>,
    done: Option<Completion>,
    /// The root, when an unsat would be about it; its value once solved.
    root: Option<c4lab_board::Position>,
    root_value: Option<Option<RootValue>>,
}

fn candidate(d: &Diagram, cx: &Counterexample) -> Value {
    json!({
        "cells": flat(d),
        "line": format_moves(&cx.line),
        "reason": cx.reason.name(),
    })
}

#[wasm_bindgen]
impl CompleteSession {
    /// Starts a search over the `?` cells of `grid`, seeded by `seed`; a bad grid throws
    /// its error message.
    pub fn start(grid: &str, seed: f64) -> Result<CompleteSession, String> {
        // a number from the page: refused when it is no seed, rather than replaced by 1
        if !(seed.is_finite() && seed >= 0.0 && seed.fract() == 0.0) {
            return Err(format!("a seed of {seed}: give a whole number from 0"));
        }
        let d = diagram(grid)?;
        let options = Options {
            seed: seed as u64,
            backend: "batsat".into(),
            ..Options::default()
        };
        let mut completer = Completer::new(&d, options, Arc::new(AtomicBool::new(false)))
            .map_err(|e| e.to_string())?;
        let stop = Arc::new(RaceCeiling::new());
        completer.stop_at(stop.clone());
        Ok(CompleteSession {
            completer,
            stop,
            done: None,
            root: c4lab_synth::open_root(&d),
            root_value: None,
        })
    }

    /// Also reads a stop from `array[index]` (an `Int32Array` over a
    /// SharedArrayBuffer) while a step runs: 0 ends the SAT call it is in and asks the
    /// strong solver nothing more, so the worker is free when the page terminates it
    /// (a step ran on up to 2 s after Stop).
    #[cfg(target_arch = "wasm32")]
    pub fn share_stop(&mut self, array: js_sys::Int32Array, index: u32) {
        self.stop.share(array, index);
    }

    /// Runs up to `rounds` candidates and reports: `{ok, state: running | found |
    /// unsat, undecided, candidates, clauses, positions, conflicts, live, deepest,
    /// cells, positions_verified, root_outcome, root_score}` (`live`/`deepest`: `{cells,
    /// line, reason}`; the root's value with an unsat about the root itself).
    pub fn step(&mut self, rounds: u32) -> String {
        for _ in 0..rounds.max(1) {
            if self.done.is_some() {
                break;
            }
            match self.completer.step() {
                Ok(Step::Refuted) => {}
                Ok(Step::Done(done)) => self.done = Some(done),
                Err(e) => return fail(e),
            }
        }
        let p = self.completer.progress();
        let mut j = json!({
            "ok": true,
            "state": match &self.done {
                None => "running",
                Some(Completion::Found { .. }) => "found",
                Some(Completion::Unsat) => "unsat",
                Some(Completion::Stopped) => "stopped",
            },
            "undecided": self.completer.undecided(),
            "candidates": p.candidates,
            "clauses": p.clauses,
            "positions": p.positions,
            "conflicts": p.conflicts,
        });
        if let Some((d, cx)) = &p.live {
            j["live"] = candidate(d, cx);
        }
        if let Some((d, cx)) = &p.deepest {
            j["deepest"] = candidate(d, cx);
        }
        if let Some(Completion::Found { diagram, positions }) = &self.done {
            j["cells"] = json!(flat(diagram));
            j["positions_verified"] = json!(positions);
        }
        if let Some(Completion::Unsat) = &self.done {
            root_fields(&mut j, self.root, &mut self.root_value);
        }
        j.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::CompleteSession;

    /// `examples/complete.txt`: eight `?` cells a search fills in a few candidates.
    const EIGHT: &str = "9909999\n99R9999\n??Y?999\nYRY?R??\nYYYRR??\nRRRYYRY\n";

    fn state(report: &str) -> String {
        let j: serde_json::Value = serde_json::from_str(report).unwrap();
        j["state"].as_str().unwrap().to_string()
    }

    #[test]
    fn a_stop_written_while_a_step_runs_ends_the_search() {
        // unstopped, the search finds a completion
        let mut free = CompleteSession::start(EIGHT, 1.0).unwrap();
        assert_eq!(state(&free.step(1000)), "found");
        // the page's 0 (here the session's own value: the shared slot is wasm's) ends
        // the SAT call at once, and the search with it
        let mut stopped = CompleteSession::start(EIGHT, 1.0).unwrap();
        stopped.stop.lower(0);
        assert_eq!(state(&stopped.step(1000)), "stopped");
    }
}
