//! dsat (the README's "`c4lab dsat` in detail"): every Red-to-move position a diagram
//! could face below a root, down to a cut ply, mapped into one SAT instance (the
//! per-position encoding of `c4lab-synth`); a model is re-verified, and where it fails
//! the positions on the losing line, then (capped) the rest of the positions the failed
//! diagram reaches, and the paths to the first places it goes wrong ("fault paths"),
//! are encoded and the same solver runs again. Before the map a local search tries to
//! repair a diagram into a winner ([`LocalSearch`]); natively two searches race
//! ([`race`], the `race` feature), the second widening its level budget without proof.
//! `docs/dsat.md` has each part's measurements.
//!
//! `unsat` is sound for the language (the clauses hold for every winning diagram, and
//! the strong-solver pruning only removes moves that cannot keep a win) but it is not
//! independently audited.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

mod answers;
mod faults;
mod local;
mod mapping;
mod options;
#[cfg(feature = "race")]
mod race;
mod report;
mod search;
pub use local::LocalSearch;
pub use mapping::{start, Mapping};
pub use options::{entrant, Options, FAULT_PATHS, LATER_LOCAL_WORK, LOCAL_WORK, UNASKED_PLIES};
#[cfg(feature = "race")]
pub use race::{dead_end_weight, race, Entrant, RaceReport};
pub use report::{LocalStats, Outcome, Progress, Report, RoundEnd};
pub use search::{map, map_with_progress, Mapped};

use c4lab_steady::{Diagram, Verifier};
use c4lab_synth::sat::open;
use c4lab_synth::{Encoding, SynthError};

/// The local search's work between two progress reports, per position a
/// [`Mapping::step`] batch asks for.
pub(crate) const LOCAL_WORK_PER_POSITION: u64 = 256;

/// Positions mapped between two `Progress::Mapping` reports.
pub(crate) const MAP_REPORT_EVERY: u64 = 4096;

/// What a search carries over when its map is deepened.
pub(crate) struct SearchState {
    rounds: u64,
    settled: u64,
    levels: LevelBudget,
    verifier: Verifier,
    last_round: (u8, Option<RoundEnd>),
}

/// The level budget and what is known about it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LevelBudget {
    /// `?` cells take levels below this (10: every level).
    levels: u8,
    /// No diagram wins with fewer levels than this (proved by the solver).
    least: u8,
    /// The solver's conflicts when the budget was last set.
    since: u64,
    /// The most dead ends one budget below all ten levels has taken so far.
    widest: u64,
}

/// A fresh encoding of `diagram`'s root under `options` (no oracle yet), its level
/// variables trying `hint`'s levels first where given.
pub(crate) fn open_encoding(
    diagram: &Diagram,
    root: &c4lab_board::Position,
    options: &Options,
    stop: &Arc<AtomicBool>,
    hint: Option<&Diagram>,
) -> Result<Encoding, SynthError> {
    let backend = open(&options.backend, stop.clone())?;
    let mut enc = Encoding::with_phases(diagram, root, backend, hint)?;
    if options.compact_levels {
        enc.forbid_level_gaps()?;
    }
    if options.levels_on_demand {
        enc.build_levels_on_demand(options.first_levels)?;
    }
    Ok(enc)
}

/// Maps and searches in one call.
pub fn solve(
    diagram: &Diagram,
    options: &Options,
    stop: Arc<AtomicBool>,
) -> Result<Report, SynthError> {
    map(diagram, options, stop)?.search()
}
