//! The WeakC4 steady-state language (the README's "The language, as implemented",
//! "Verification order" and `check-solution`).
//!
//! A [`Diagram`] gives each of the 42 cells a priority level (or a root stone, or `?`).
//! Red follows it as a strategy ([`agent`]); the [`Verifier`] searches every Yellow
//! reply and returns a [`Verdict`]; [`simplify`] blanks cells that carry no weight;
//! [`link`] packs a diagram into a URL fragment; [`solution`] checks upstream's whole
//! published solution graph.

pub mod agent;
mod diagram;
mod error;
mod keyset;
mod legacy;
pub mod link;
pub mod play;
mod read;
mod simplify;
pub mod solution;
mod verify;

pub use agent::{decide, Decision, Rule, Tie};
pub use diagram::{level_name, Cell, Diagram, Language, Levels, ParsedDiagram, Root};
pub use error::{DiagramError, RootError};
pub use read::{read_any, read_grid, unflattened, Read, ReadError};
pub use simplify::{simplify, Simplified, SimplifyError};
pub use verify::{
    verify_many, verify_many_threads, Counterexample, LossReason, Verdict, Verifier, DEFAULT_BUDGET,
};

/// The number of levels the language knows: `0`..`9` and `a`..`d` (10..13).
pub const LEVELS: usize = 14;
/// The level "Clear" and "Simplify" write; drawn as an empty cell.
pub const BLANK: u8 = 9;
