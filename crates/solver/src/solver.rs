//! The public solver: exact, weak and budgeted solving, per-column analysis.

use std::sync::atomic::AtomicBool;

use c4lab_board::{Position, WIDTH};

use crate::book::Book;
use crate::search::Search;
use crate::table::Table;
use crate::{immediate_win_score, Score, CELLS};

/// The most memory given to the table of positions near the end of the game, which
/// should stay in the processor's cache.
const NEAR_BYTES: usize = 1 << 20;

/// A Connect Four solver owning a transposition table of a caller-chosen size.
pub struct Solver {
    table: Table,
    near: Table,
    nodes: u64,
    book: Option<Book>,
}

/// Limits on one solve: a node budget, a stop flag and whether only the sign is wanted.
#[derive(Debug, Clone, Copy)]
pub struct Limits<'a> {
    /// Give up after visiting this many nodes.
    pub max_nodes: u64,
    /// Give up soon after this flag becomes true (checked every few thousand nodes).
    pub stop: Option<&'a AtomicBool>,
    /// Only find the sign of the score (win, draw or loss).
    pub weak: bool,
}

impl Default for Limits<'_> {
    fn default() -> Self {
        Limits {
            max_nodes: u64::MAX,
            stop: None,
            weak: false,
        }
    }
}

/// The result of a solve that may run out of budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The exact score (or its sign, for a weak solve).
    Exact(Score),
    /// The search stopped first; the score lies in `lower ..= upper`.
    Unknown {
        /// A proven lower bound.
        lower: Score,
        /// A proven upper bound.
        upper: Score,
    },
}

impl Outcome {
    /// The exact score, if the solve finished.
    pub fn exact(self) -> Option<Score> {
        match self {
            Outcome::Exact(s) => Some(s),
            Outcome::Unknown { .. } => None,
        }
    }
}

impl Solver {
    /// A solver whose transposition table uses at most `table_bytes` bytes (4 KiB
    /// minimum); more memory means fewer nodes on hard positions.
    pub fn new(table_bytes: usize) -> Solver {
        let near = (table_bytes / 8).clamp(4096, NEAR_BYTES);
        Solver {
            table: Table::new(table_bytes - near.min(table_bytes)),
            near: Table::new(near),
            nodes: 0,
            book: None,
        }
    }

    /// The transposition table's actual size in bytes.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes() + self.near.bytes()
    }

    /// Nodes searched since the solver was created or last reset.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Clears the transposition table and the node counter (keeps the book).
    pub fn reset(&mut self) {
        self.table.clear();
        self.near.clear();
        self.nodes = 0;
    }

    /// Sets the node counter back to zero, keeping the table.
    pub fn reset_nodes(&mut self) {
        self.nodes = 0;
    }

    /// Installs (or removes) an opening book consulted before and during searches.
    pub fn set_book(&mut self, book: Option<Book>) {
        self.book = book;
    }

    /// The installed opening book.
    pub fn book(&self) -> Option<&Book> {
        self.book.as_ref()
    }

    /// The exact score of `pos` (a legal position without a four).
    pub fn solve(&mut self, pos: &Position) -> Score {
        match self.solve_limited(pos, Limits::default()) {
            Outcome::Exact(s) => s,
            Outcome::Unknown { .. } => unreachable!("an unlimited search finishes"),
        }
    }

    /// The sign of the score of `pos`: 1 win, 0 draw, -1 loss for the side to move.
    pub fn solve_weak(&mut self, pos: &Position) -> Score {
        let limits = Limits {
            weak: true,
            ..Limits::default()
        };
        match self.solve_limited(pos, limits) {
            Outcome::Exact(s) => s,
            Outcome::Unknown { .. } => unreachable!("an unlimited search finishes"),
        }
    }

    /// The exact score of `pos`, or `Unknown` once `max_nodes` nodes are spent.
    pub fn solve_with_budget(&mut self, pos: &Position, max_nodes: u64) -> Outcome {
        let limits = Limits {
            max_nodes,
            ..Limits::default()
        };
        self.solve_limited(pos, limits)
    }

    /// Solves `pos` within `limits` (exactly, or only the sign when `limits.weak`).
    pub fn solve_limited(&mut self, pos: &Position, limits: Limits<'_>) -> Outcome {
        let n = pos.moves_played();
        if n as i32 >= CELLS {
            return Outcome::Exact(0);
        }
        if pos.winning_moves() != 0 {
            let s = immediate_win_score(n);
            return Outcome::Exact(if limits.weak { s.signum() } else { s });
        }
        if let Some(s) = self.book.as_ref().and_then(|b| b.get(pos)) {
            return Outcome::Exact(if limits.weak { s.signum() } else { s });
        }
        // no immediate win: the side to move wins at best with its second stone
        let (mut min, mut max) = (-(CELLS - n as i32) / 2, (CELLS - 1 - n as i32) / 2);
        if limits.weak {
            min = min.max(-1);
            max = max.min(1);
        }
        let mut search = Search::new(
            &mut self.table,
            &mut self.near,
            self.book.as_ref(),
            self.nodes,
            limits.max_nodes,
            limits.stop,
        );
        let (lo, hi) = search.narrow(pos, min, max);
        let aborted = search.aborted;
        self.nodes = search.nodes;
        if aborted {
            let (lower, upper) = if limits.weak {
                (lo.signum(), hi.signum())
            } else {
                (lo, hi)
            };
            return Outcome::Unknown { lower, upper };
        }
        // a weak window can end with the bounds crossed; `lo` then carries the sign
        Outcome::Exact(if limits.weak { lo.signum() } else { lo })
    }

    /// The score of playing each column, from the side to move's perspective;
    /// `None` for full columns.
    pub fn analyze(&mut self, pos: &Position) -> [Option<Score>; WIDTH] {
        let mut out = [None; WIDTH];
        for (x, slot) in out.iter_mut().enumerate() {
            *slot = self.column_score(pos, x);
        }
        out
    }

    /// The score of playing column `x` in `pos`, `None` when the column is full.
    pub fn column_score(&mut self, pos: &Position, x: usize) -> Option<Score> {
        if !pos.can_play(x) {
            return None;
        }
        if pos.is_winning_move(x) {
            return Some(immediate_win_score(pos.moves_played()));
        }
        Some(-self.solve(&pos.after(x)))
    }

    /// Every column achieving the best score (empty only for a full board).
    pub fn best_moves(&mut self, pos: &Position) -> Vec<usize> {
        best_of(&self.analyze(pos))
    }
}

/// The columns holding the highest score in an analysis.
pub(crate) fn best_of(scores: &[Option<Score>; WIDTH]) -> Vec<usize> {
    let best = scores.iter().flatten().max();
    match best {
        None => Vec::new(),
        Some(&b) => (0..WIDTH).filter(|&x| scores[x] == Some(b)).collect(),
    }
}
