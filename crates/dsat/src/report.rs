//! What a whole-root solve reports: its verdict and counts, its progress, and how each
//! solve-verify round ended.

use c4lab_steady::Diagram;
use c4lab_synth::EncodingStats;

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
    /// Positions encoded when the search last started: the map down to the cut (after
    /// a deepening, with what refinement had encoded before it).
    pub mapped: u64,
    /// Positions encoded in the end (refinement adds to the map).
    pub encoding: EncodingStats,
    /// Solve-verify rounds.
    pub rounds: u64,
    /// The solver's conflicts ("dead ends").
    pub conflicts: u64,
    /// The level budget in the end (10: every level allowed).
    pub levels: u8,
    /// Proved: no winning diagram takes fewer levels than this for its `?` cells (the
    /// budgets below it admitted none); 1 when nothing was proved (a local search's
    /// find, a find at the first budget), so `levels` only where the budget started at
    /// one level and grew on proofs alone to the one the SAT search found it at.
    pub least_levels: u8,
    /// What the local search did before the map (nothing when it did not run).
    pub local: LocalStats,
}

/// The local search's counts (see [`crate::LocalSearch`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LocalStats {
    /// Repair steps taken.
    pub steps: u64,
    /// The work done: positions walked plus strong-solver nodes.
    pub work: u64,
    /// True when the local search found the diagram reported.
    pub found: bool,
}

/// How far a solve has come, for progress displays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// The local search, before mapping (see [`crate::LocalSearch`]).
    Local {
        /// Repair steps so far.
        steps: u64,
        /// The fewest faults a diagram has had so far (None before the first walk).
        faults: Option<usize>,
        /// The work done so far: positions walked plus strong-solver nodes.
        work: u64,
        /// The work it may do before mapping begins.
        budget: u64,
    },
    /// In a race, a search after the first whose local search ended without a find (or
    /// that had none: work 0): its SAT search waits to be let go (see [`crate::race`]).
    Waiting {
        /// Repair steps its local search took.
        steps: u64,
        /// The work its local search did.
        work: u64,
    },
    /// Mapping: positions encoded so far against the state budget (a full gauge
    /// means the budget overflowed, not that the map is complete).
    Mapping {
        /// Positions encoded so far.
        positions: u64,
        /// The state budget.
        max_states: u64,
    },
    /// Searching: after each solve-verify round.
    Searching {
        /// Rounds so far.
        round: u64,
        /// Positions encoded (refinement adds some).
        positions: u64,
        /// The SAT solver's conflicts so far ("dead ends"); never falls.
        conflicts: u64,
        /// Variables the solver has settled for good; never falls.
        settled: u64,
        /// The level budget the last round solved under (10: every level).
        levels: u8,
        /// How the last round ended (None before the first).
        ended: Option<RoundEnd>,
    },
}

/// How one solve-verify round ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundEnd {
    /// A candidate the verifier refuted: its losing line and tree were learnt.
    Refuted,
    /// No diagram fits the level budget: it grows by one, proved.
    TooFewLevels,
    /// The budget took its share of dead ends (`widen_after`): it grows by one, unproved.
    Widened,
    /// The round gave the search's verdict (found or unsat; a search that runs out of
    /// states or rounds ends after a round that did not, or before its first).
    Verdict,
    /// The search was stopped: the stop flag, a conflict limit, or another solve of the
    /// race that finished with fewer dead ends.
    Stopped,
}

impl RoundEnd {
    /// A short name for logs: `refuted`, `too-few-levels`, `widened`, `verdict`,
    /// `stopped`.
    pub fn name(self) -> &'static str {
        match self {
            RoundEnd::Refuted => "refuted",
            RoundEnd::TooFewLevels => "too-few-levels",
            RoundEnd::Widened => "widened",
            RoundEnd::Verdict => "verdict",
            RoundEnd::Stopped => "stopped",
        }
    }
}
