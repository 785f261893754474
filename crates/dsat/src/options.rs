//! How a whole-root solve runs: its options, their defaults, and each race entrant's.

/// How a whole-root solve runs.
#[derive(Debug, Clone)]
pub struct Options {
    /// Map positions down to this many plies below the root (the deepest cut).
    pub cut_plies: u32,
    /// Map only this many plies at first (at most `cut_plies`); the map is deepened to
    /// `cut_plies` once `deepen_after` rounds have not settled the root.
    pub first_cut_plies: u32,
    /// The first cut instead when `widen_after` is not 0: a race's widening search then
    /// explores another map than the first search, not only other level budgets (see
    /// `docs/dsat.md`, "A deeper first map for the second search").
    pub widening_first_cut_plies: u32,
    /// Verify-and-refine rounds at the first cut before the map is deepened.
    pub deepen_after: u64,
    /// Give up (`budget`) once this many positions are mapped.
    pub max_states: u64,
    /// Verify-and-refine rounds at most before giving up (`budget`).
    pub max_rounds: u64,
    /// The SAT backend (`batsat`, or `cadical` natively).
    pub backend: String,
    /// Strong-solver budget per "does this Red move keep the win?" (0: never ask).
    pub oracle_nodes: u64,
    /// The map encodes the positions at most this many plies above its cut without
    /// asking the strong solver about their moves; a refuted candidate that reaches one
    /// asks then (0: every position is asked as it is mapped). Near the cut the
    /// questions are the most numerous and prune the least (see `docs/dsat.md`,
    /// "Questions left to the candidates").
    pub unasked_plies: u32,
    /// Whole-tree learning: after a refuted candidate, besides its losing line, encode
    /// up to this many more of the positions it reaches, the nearest the root first
    /// (0: the losing line only).
    pub tree_cap: usize,
    /// Fault-directed learning: after a refuted candidate, also encode the paths from
    /// the root to this many of the positions where it goes wrong, the nearest the root
    /// first (0: none). See `docs/dsat.md`, "Learning the paths to a candidate's
    /// faults".
    pub fault_paths: usize,
    /// Level budget: undecided cells first take levels below this only; each time the
    /// solver proves no diagram within the budget, it grows by one, up to all ten
    /// levels (10 or more: no budget), so `unsat` always covers levels 0..9. The
    /// default, 1, makes a diagram the SAT search finds take the fewest levels that can
    /// win (one the local search finds first may take more).
    pub first_levels: u8,
    /// Symmetry breaking: search only diagrams whose `?` cells leave no gap in the
    /// levels (every winning diagram has such a twin that plays alike, so no verdict
    /// changes; false searches every assignment, as before).
    pub compact_levels: bool,
    /// Build the circuits' gates only for the levels the budget lets the `?` cells take,
    /// the rest as it grows (about half the memory a position; false builds every level
    /// from the start, as before).
    pub levels_on_demand: bool,
    /// Dead ends (conflicts) a level budget may take, counted from when it was set,
    /// before it grows by one without a proof that no diagram fits it (0: it grows only
    /// on such a proof, so a diagram this search finds takes the fewest levels that can
    /// win).
    pub widen_after: u64,
    /// Work the local search may do before the map is built, in positions walked plus
    /// strong-solver nodes (0: no local search; it runs only with the strong-solver
    /// oracle). See [`LocalSearch`](crate::LocalSearch).
    pub local_work: u64,
    /// The local search's random stream (see
    /// [`LocalSearch::new`](crate::LocalSearch::new); a race gives each entrant its own).
    pub local_seed: u64,
    /// After a local search that found nothing, the SAT search's level variables try
    /// first the levels of its diagram with the fewest faults (where the backend takes
    /// such hints; false: no hint, as before). A race hints its later searches only
    /// (see [`entrant`]).
    pub phase_hint: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            cut_plies: 16,
            first_cut_plies: 8,
            widening_first_cut_plies: 10,
            deepen_after: 500,
            max_states: 2_000_000,
            max_rounds: 10_000,
            backend: c4lab_synth::sat::backends()[0].to_string(),
            oracle_nodes: 100_000,
            unasked_plies: UNASKED_PLIES,
            tree_cap: 512,
            fault_paths: FAULT_PATHS,
            first_levels: 1,
            compact_levels: true,
            levels_on_demand: true,
            widen_after: 0,
            local_work: LOCAL_WORK,
            local_seed: 0,
            phase_hint: true,
        }
    }
}

impl Options {
    /// True when a solve of `diagram` runs a local search first: it has a budget, the
    /// strong solver to judge Red's moves (without it every move would look sound), and
    /// a `?` cell to repair (with none, the verifier judges the diagram as it stands).
    pub fn runs_local_search(&self, diagram: &c4lab_steady::Diagram) -> bool {
        self.local_work > 0 && self.oracle_nodes > 0 && diagram.undecided() > 0
    }

    /// The plies mapped at first: `first_cut_plies`, or `widening_first_cut_plies` for a
    /// search whose level budget widens unproved, at most `cut_plies`.
    pub fn first_cut(&self) -> u32 {
        let first = if self.widen_after > 0 {
            self.widening_first_cut_plies
        } else {
            self.first_cut_plies
        };
        first.min(self.cut_plies)
    }
}

/// The default [`Options::fault_paths`].
pub const FAULT_PATHS: usize = 16;

/// The default [`Options::unasked_plies`]: the last Red-to-move layers above the cut.
pub const UNASKED_PLIES: u32 = 4;

/// The default budget of the local search (a race's first entrant's), in positions
/// walked plus strong-solver nodes: one to three seconds on the development machine
/// (see `docs/dsat.md`, "Local search first" and "25 M for the first search").
pub const LOCAL_WORK: u64 = 25_000_000;

/// The default local-search budget of a race's later entrants, whose SAT search waits
/// for the first's release mark anyway (see `docs/dsat.md`, "A local search for every
/// search of the race").
pub const LATER_LOCAL_WORK: u64 = 50_000_000;

/// The options of entrant `index` of a race, from `base`: its level budget widens after
/// `widen_after` dead ends, and its local search draws stream `index` with `local_work`
/// (None: [`LOCAL_WORK`] for the first, [`LATER_LOCAL_WORK`] for the others); the
/// others only take `base`'s phase hint.
pub fn entrant(base: &Options, index: usize, widen_after: u64, local_work: Option<u64>) -> Options {
    Options {
        widen_after,
        local_seed: index as u64,
        local_work: local_work.unwrap_or(if index == 0 {
            LOCAL_WORK
        } else {
            LATER_LOCAL_WORK
        }),
        // the first search stays unhinted: the two then differ in one more way, and
        // each wins roots the other misses (docs/dsat.md, "The local search's best
        // diagram as a start")
        phase_hint: base.phase_hint && index > 0,
        ..base.clone()
    }
}
