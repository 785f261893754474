//! Simplify: blank (write 9 to) every cell that is not load-bearing, to a fixpoint.

use thiserror::Error;

use crate::{Cell, Diagram, Verdict, Verifier, BLANK};

/// Why a diagram cannot be simplified.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SimplifyError {
    /// Only a winning diagram has load-bearing cells to keep.
    #[error("simplify needs a diagram that verifies as a win; this one is `{0}`: fix that first")]
    NotAWin(&'static str),
}

/// The result of simplifying: the reduced diagram and the cells blanked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Simplified {
    /// The diagram with every blankable cell set to 9; still a win.
    pub diagram: Diagram,
    /// The blanked cells as `(x, y)`, column and board row from the bottom, 0-based.
    pub cleared: Vec<(usize, usize)>,
}

/// Blanks cells in grid order, keeping each blank that leaves the diagram winning, and
/// repeats until a whole pass blanks nothing: then no single cell can be blanked
/// without losing the win. Deterministic.
pub fn simplify(diagram: &Diagram, verifier: &mut Verifier) -> Result<Simplified, SimplifyError> {
    let verdict = verifier.verify(diagram);
    if !verdict.is_win() {
        return Err(SimplifyError::NotAWin(verdict.name()));
    }
    let mut d = diagram.clone();
    let mut cleared = Vec::new();
    loop {
        let mut changed = false;
        for y in (0..6).rev() {
            for x in 0..7 {
                let cell = d.cell(x, y);
                if !matches!(cell, Cell::Level(l) if l != BLANK) {
                    continue;
                }
                d.set(x, y, Cell::Level(BLANK));
                if matches!(verifier.verify(&d), Verdict::Win { .. }) {
                    cleared.push((x, y));
                    changed = true;
                } else {
                    d.set(x, y, cell);
                }
            }
        }
        if !changed {
            break;
        }
    }
    Ok(Simplified {
        diagram: d,
        cleared,
    })
}
