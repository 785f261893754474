//! Synthesis of steady-state diagrams with a SAT solver.
//!
//! [`encoding`] states the decision rule (the README's language section) as clauses
//! over the levels of the undecided cells; [`complete`] is auto-complete
//! (docs/complete.md), a CEGIS loop from a breadth-first map of the first plies that
//! learns each losing line the verifier finds (and whole candidate trees once a search
//! runs long); [`map`] encodes every position below a root breadth first; [`tree`]
//! walks the positions a diagram reaches and learns them; [`sat`] holds the solver
//! backends.

pub mod complete;
pub mod encoding;
mod error;
pub mod map;
pub mod sat;
pub mod tree;

use c4lab_board::{has_four, Position};
use c4lab_steady::Diagram;

pub use complete::{
    line_positions, undecide, Completer, Completion, Learn, Options, Progress, Step,
};
pub use encoding::{Encoding, EncodingStats, FREE_LEVELS};
pub use error::SynthError;
pub use map::BreadthFirst;
pub use tree::{learn_tree, walk_tree};

/// The diagram's root, refused when it is not a Red-to-move position without a four. A
/// full board is a root: the game is drawn there whatever the levels, so no diagram
/// wins ([`root_is_drawn`]), as `verify` says (`loss`, a draw at the root).
pub fn checked_root(diagram: &Diagram) -> Result<Position, SynthError> {
    let root = diagram
        .root()
        .map_err(|e| SynthError::Root(e.to_string()))?;
    let pos = root.position;
    for (four, who) in [(pos.red(), "Red"), (pos.yellow(), "Yellow")] {
        if has_four(four) {
            return Err(SynthError::Root(format!(
                "{who} already has four in a row at the root: there is no game to play"
            )));
        }
    }
    Ok(pos)
}

/// Whether the root is a full board: drawn before any level is consulted, so the
/// answer to "which levels win?" is none, with nothing to search.
pub fn root_is_drawn(root: &Position) -> bool {
    root.mask() == c4lab_board::BOARD_MASK
}

/// How a diagram with no `?` cell, its one completion, stands: judged by the verifier
/// before any search (a search of it could only say the same, later).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AsItStands {
    /// It wins: the verifier searched `positions`.
    Wins {
        /// Positions the verifier searched.
        positions: u64,
    },
    /// It does not win.
    Loses,
}

/// [`AsItStands`] for `diagram` when it has no `?` cell and its root is not a full
/// board (which [`root_is_drawn`] settles), else None; a diagram too large for the
/// verifier is an error.
pub fn judged_as_it_stands(
    diagram: &Diagram,
    root: &Position,
) -> Result<Option<AsItStands>, SynthError> {
    if diagram.undecided() > 0 || root_is_drawn(root) {
        return Ok(None);
    }
    match c4lab_steady::Verifier::new().verify(diagram) {
        c4lab_steady::Verdict::Win { positions } => Ok(Some(AsItStands::Wins { positions })),
        c4lab_steady::Verdict::Budget { positions } => {
            Err(SynthError::VerifierBudget { positions })
        }
        _ => Ok(Some(AsItStands::Loses)),
    }
}

/// The strong solver's value of a root: its exact score where settled, else its sign.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RootValue {
    /// The exact score (Red to move; Pascal Pons' convention), when settled.
    pub score: Option<i32>,
    /// Its sign: 1 a win for Red with best play, 0 a draw, -1 a loss.
    pub sign: i32,
}

impl RootValue {
    /// `win`, `draw` or `loss`, for Red with best play.
    pub fn outcome(self) -> &'static str {
        ["loss", "draw", "win"][(self.sign + 1) as usize]
    }
}

/// The root of `d` when an answer about it is about the root itself: every empty cell
/// `?` (at least one), none pinned, so an unsat covers every diagram.
pub fn open_root(d: &Diagram) -> Option<Position> {
    let pinned = (d.cells().iter()).any(|c| matches!(c, c4lab_steady::Cell::Level(_)));
    let root = d.root().ok().filter(|_| d.undecided() > 0 && !pinned)?;
    Some(root.position)
}

/// The value of the root of an unsat answer about the root itself (every empty cell
/// `?`), which says whether the game or the language leaves Red no winning diagram: the
/// exact score within 2,000,000 nodes, else the sign within 20,000,000 (a root some
/// plies from the start), else nothing.
pub fn root_value(root: &Position) -> Option<RootValue> {
    let mut solver = c4lab_solver::Solver::new(16 << 20);
    if let Some(score) = solver.solve_with_budget(root, 2_000_000).exact() {
        let sign = score.signum();
        return Some(RootValue {
            score: Some(score),
            sign,
        });
    }
    let weak = c4lab_solver::Limits {
        max_nodes: 20_000_000,
        weak: true,
        ..c4lab_solver::Limits::default()
    };
    let sign = solver.solve_limited(root, weak).exact()?;
    Some(RootValue { score: None, sign })
}
