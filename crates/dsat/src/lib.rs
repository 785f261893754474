//! dsat (SPEC §6): every Red-to-move position a diagram could face below a root, down
//! to a cut ply, mapped into one SAT instance (the per-position encoding of
//! `c4lab-synth`); a model is re-verified, and where it fails past the cut the
//! positions on the losing line are encoded and the same solver runs again.
//!
//! `unsat` is sound for the language (the clauses hold for every winning diagram, and
//! the strong-solver pruning only removes moves that cannot keep a win) but it is not
//! independently audited.

use std::collections::VecDeque;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use c4lab_steady::{Diagram, Verdict, Verifier};
use c4lab_synth::encoding::key;
use c4lab_synth::sat::{open, SatOutcome};
use c4lab_synth::{checked_root, line_positions, Encoding, EncodingStats, SynthError};
use rustc_hash::FxHashSet;

/// How a whole-root solve runs.
#[derive(Debug, Clone)]
pub struct Options {
    /// Map positions down to this many plies below the root.
    pub cut_plies: u32,
    /// Give up (`budget`) once this many positions are mapped.
    pub max_states: u64,
    /// Verify-and-refine rounds at most before giving up (`budget`).
    pub max_rounds: u64,
    /// The SAT backend (`batsat`, or `cadical` natively).
    pub backend: String,
    /// Strong-solver budget per "does this Red move keep the win?" (0: never ask).
    pub oracle_nodes: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            cut_plies: 16,
            max_states: 2_000_000,
            max_rounds: 10_000,
            backend: c4lab_synth::sat::backends()[0].to_string(),
            oracle_nodes: 100_000,
        }
    }
}

/// How a solve ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A diagram (pinned cells unchanged) that the verifier confirms wins.
    Found(Diagram),
    /// No diagram with these pinned cells over levels 0..9 wins (not independently audited).
    Unsat,
    /// The state budget or the round cap ran out.
    Budget,
    /// The stop flag was raised.
    Stopped,
}

/// The result with its counts.
#[derive(Debug, Clone)]
pub struct Report {
    /// The verdict.
    pub outcome: Outcome,
    /// Positions mapped before the first solve (down to the cut).
    pub mapped: u64,
    /// Positions encoded in the end (refinement adds to the map).
    pub encoding: EncodingStats,
    /// Solve-verify rounds.
    pub rounds: u64,
    /// The solver's conflicts ("dead ends").
    pub conflicts: u64,
}

/// A root mapped and encoded down to its cut, ready to search.
pub struct Mapped {
    enc: Encoding,
    root: c4lab_board::Position,
    mapped: u64,
    early: Option<Outcome>,
    max_states: u64,
    max_rounds: u64,
}

/// Maps the root of `diagram` (its `?` cells free over 0..9, the others pinned): every
/// Red-to-move position down to the cut, breadth first, encoded as it is reached.
pub fn map(
    diagram: &Diagram,
    options: &Options,
    stop: Arc<AtomicBool>,
) -> Result<Mapped, SynthError> {
    let root = checked_root(diagram)?;
    let backend = open(&options.backend, stop.clone())?;
    let mut enc = Encoding::new(diagram, &root, backend)?;
    if options.oracle_nodes > 0 {
        enc.use_oracle(16 << 20, options.oracle_nodes);
    }
    let cut = root.moves_played() + options.cut_plies;
    let mut seen: FxHashSet<u64> = FxHashSet::default();
    let mut queue = VecDeque::from([(root.current(), root.mask())]);
    seen.insert(key(root.current(), root.mask()));
    let mut early = None;
    while let Some((red, mask)) = queue.pop_front() {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            early = Some(Outcome::Stopped);
            break;
        }
        if enc.stats().positions >= options.max_states {
            early = Some(Outcome::Budget);
            break;
        }
        for (cr, cm) in enc.encode(red, mask)? {
            if cm.count_ones() < cut && seen.insert(key(cr, cm)) {
                queue.push_back((cr, cm));
            }
        }
    }
    Ok(Mapped {
        mapped: enc.stats().positions,
        enc,
        root,
        early,
        max_states: options.max_states,
        max_rounds: options.max_rounds,
    })
}

impl Mapped {
    /// Positions mapped.
    pub fn positions(&self) -> u64 {
        self.mapped
    }

    /// Solves, verifies and refines until found, unsat, the budget or the stop flag.
    pub fn search(mut self) -> Result<Report, SynthError> {
        let (mapped, root) = (self.mapped, self.root);
        let enc = &mut self.enc;
        let report = |outcome, enc: &mut Encoding, rounds| Report {
            outcome,
            mapped,
            encoding: enc.stats(),
            rounds,
            conflicts: enc.backend().conflicts(),
        };
        if let Some(outcome) = self.early.take() {
            return Ok(report(outcome, enc, 0));
        }
        let mut verifier = Verifier::new();
        for round in 1..=self.max_rounds {
            match enc.backend().solve(&[])? {
                SatOutcome::Unsat => return Ok(report(Outcome::Unsat, enc, round)),
                SatOutcome::Stopped => return Ok(report(Outcome::Stopped, enc, round)),
                SatOutcome::Sat => {}
            }
            let candidate = enc.model_diagram();
            match verifier.verify(&candidate) {
                Verdict::Win { .. } => return Ok(report(Outcome::Found(candidate), enc, round)),
                Verdict::Loss { counterexample, .. } => {
                    // culprit expansion: encode the Red-to-move positions on the losing line
                    for pos in line_positions(&root, &counterexample) {
                        enc.encode(pos.current(), pos.mask())?;
                    }
                }
                other => {
                    return Err(SynthError::Internal(format!(
                        "a dsat candidate got the verdict {}",
                        other.name()
                    )))
                }
            }
            if enc.stats().positions >= self.max_states {
                return Ok(report(Outcome::Budget, enc, round));
            }
        }
        Ok(report(Outcome::Budget, enc, self.max_rounds))
    }
}

/// Maps and searches in one call.
pub fn solve(
    diagram: &Diagram,
    options: &Options,
    stop: Arc<AtomicBool>,
) -> Result<Report, SynthError> {
    map(diagram, options, stop)?.search()
}
