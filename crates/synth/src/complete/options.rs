//! Auto-complete's settings: how a losing candidate is learnt ([`Learn`]) and how the
//! search runs ([`Options`]).

/// How a counterexample is turned into clauses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Learn {
    /// Encode every Red-to-move position the candidate reaches (up to a cap per round),
    /// the losing ones included.
    Tree,
    /// Encode every Red-to-move position on the losing line (reachability and the
    /// decision circuit of its playable set).
    Positions,
    /// The source document's clause: some consulted cell/level pair must change.
    Blocking,
}

impl Learn {
    /// Reads `tree`, `positions` or `blocking`.
    pub fn parse(text: &str) -> Option<Learn> {
        match text {
            "tree" => Some(Learn::Tree),
            "positions" => Some(Learn::Positions),
            "blocking" => Some(Learn::Blocking),
            _ => None,
        }
    }

    /// The mode's name.
    pub fn name(self) -> &'static str {
        match self {
            Learn::Tree => "tree",
            Learn::Positions => "positions",
            Learn::Blocking => "blocking",
        }
    }
}

/// The default of [`Options::lost_after`].
pub const LOST_AFTER: u64 = 100;
/// The default of [`Options::tree_after`].
pub const TREE_AFTER: u64 = 150;

/// How the search runs.
#[derive(Debug, Clone)]
pub struct Options {
    /// Seeds the phase scrambling; a seed fixes the whole run.
    pub seed: u64,
    /// Scramble the solver's phases every this many candidates (0: never).
    pub scramble_every: u64,
    /// How counterexamples are learnt.
    pub learn: Learn,
    /// The SAT backend: `cadical` (native builds) or `batsat`.
    pub backend: String,
    /// Node budget of each strong-solver question "does this Red move keep the win?"
    /// (0: do not ask; moves proved not to keep it are ruled out).
    pub oracle_nodes: u64,
    /// [`Learn::Tree`]: new positions encoded a round at most, beyond the losing line.
    pub tree_cap: usize,
    /// [`Learn::Positions`]: from this many candidates on, learn as [`Learn::Tree`]
    /// does (0: never). Lines are cheap and win the easy tasks; a search that has not
    /// converged by then keeps proposing diagrams that lose in unmapped places, and
    /// encoding everything such a candidate reaches maps them far faster.
    pub tree_after: u64,
    /// Before the first candidate, encode the root and every Red-to-move position fewer
    /// than this many plies below it (breadth first; not with [`Learn::Blocking`]). The
    /// map stops early once [`PREMAP_MAX_UNKNOWN`](super::PREMAP_MAX_UNKNOWN) strong-solver questions are left
    /// unanswered (near the empty board every question is, and each costs a full node
    /// budget) and at most [`PREMAP_MAX_POSITIONS`](super::PREMAP_MAX_POSITIONS) positions are mapped.
    pub premap_plies: u32,
    /// After this many candidates, deepen that map to `deepen_to_plies`.
    pub deepen_after: u64,
    /// The depth the map is deepened to (no deepening when not above `premap_plies`).
    pub deepen_to_plies: u32,
    /// From `lost_after` candidates on, until whole-tree learning takes over at
    /// `tree_after` (so with [`Learn::Positions`] only), each position of a losing line whose whole
    /// subtree has at most this many Red-to-move positions teaches a losing core: the
    /// subtree is encoded completely in an instance of its own, solved with the
    /// candidate's levels assumed, and the levels that cannot hold together become the
    /// clause "this position is not reached or one of these cells differs" (0, the
    /// default: never; measured at 2,000 it found one task more of 40 for over half again
    /// the median time). The clause holds for every winning diagram; the cores found are
    /// small (2-6 cells), so each rules out far more than the candidate.
    pub lost_budget: u64,
    /// Losing cores are learnt from this many candidates on (easy tasks end before).
    pub lost_after: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            seed: 1,
            scramble_every: 25,
            learn: Learn::Positions,
            backend: crate::sat::backends()[0].to_string(),
            oracle_nodes: 100_000,
            tree_cap: 512,
            tree_after: TREE_AFTER,
            premap_plies: 6,
            deepen_after: 100,
            deepen_to_plies: 8,
            lost_budget: 0,
            lost_after: LOST_AFTER,
        }
    }
}
