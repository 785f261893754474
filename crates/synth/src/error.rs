//! The crate's typed errors.

use thiserror::Error;

/// Why a synthesis run could not start or go on.
#[derive(Debug, Error)]
pub enum SynthError {
    /// The diagram's root is not a legal Red-to-move position without a four.
    #[error("the diagram has no playable root: {0}")]
    Root(String),
    /// The backend name is not one this build has.
    #[error("unknown SAT backend `{name}`; this build has: {known}")]
    UnknownBackend {
        /// The name asked for.
        name: String,
        /// The names this build knows.
        known: String,
    },
    /// The SAT solver reported an error.
    #[error("the SAT solver failed: {0}")]
    Backend(String),
    /// A candidate's verification ran out of its node budget.
    #[error("verifying a candidate ran out of its budget after {positions} positions")]
    VerifierBudget {
        /// Positions searched.
        positions: u64,
    },
    /// Options that cannot work together (each named as its field of `Options`).
    #[error("{0}")]
    Options(String),
    /// A broken invariant of this crate: a bug, reported instead of a panic.
    #[error("internal error: {0}")]
    Internal(String),
}
