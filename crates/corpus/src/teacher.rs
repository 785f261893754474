//! The teachers that label a ply: which moves a position's target puts mass on.
//!
//! * flag 2, alpha-beta search teacher: [`c4lab_solver::search_move`] with a depth and
//!   a node budget, one move (one-hot);
//! * flag 1, bounded exact solver: positions with at most `bounded_empty` (7) empty
//!   cells, every best move, mass spread evenly;
//! * flag 3, full exact solver: every best move from any position.
//!
//! Mode `alphabeta` gives flag 1 at plies with <= 7 empty cells and flag 2 elsewhere;
//! mode `exact` gives flag 3 everywhere.

use c4lab_board::{Position, CELLS, WIDTH};
use c4lab_solver::{search_move, Book, Solver};

use crate::sidecar::{FLAG_ALPHABETA, FLAG_BOUNDED, FLAG_EXACT};

/// Which teacher labels the plies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TeacherMode {
    /// Alpha-beta search (flag 2), bounded exact solver near the end (flag 1).
    AlphaBeta,
    /// The full exact solver everywhere (flag 3).
    Exact,
}

impl TeacherMode {
    /// The mode's name on the command line: `alphabeta` or `exact`.
    pub fn name(self) -> &'static str {
        match self {
            TeacherMode::AlphaBeta => "alphabeta",
            TeacherMode::Exact => "exact",
        }
    }

    /// Parses `alphabeta` or `exact`.
    pub fn parse(s: &str) -> Option<TeacherMode> {
        match s {
            "alphabeta" | "alpha-beta" | "ab" => Some(TeacherMode::AlphaBeta),
            "exact" => Some(TeacherMode::Exact),
            _ => None,
        }
    }
}

/// Teacher settings.
#[derive(Debug, Clone)]
pub struct TeacherConfig {
    /// Which teacher.
    pub mode: TeacherMode,
    /// Search depth of the alpha-beta teacher.
    pub depth: u32,
    /// Node budget of the alpha-beta teacher per move.
    pub node_budget: u64,
    /// The bounded exact solver labels plies with at most this many empty cells.
    pub bounded_empty: u32,
    /// Transposition-table bytes of each thread's exact solver.
    pub table_bytes: usize,
    /// An opening book for the exact solver (speeds up early plies in mode `exact`).
    pub book: Option<Book>,
}

impl Default for TeacherConfig {
    fn default() -> Self {
        TeacherConfig {
            mode: TeacherMode::AlphaBeta,
            depth: 6,
            node_budget: 20_000,
            bounded_empty: 7,
            table_bytes: 1 << 22,
            book: None,
        }
    }
}

/// A teacher with its own solver (one per thread).
pub struct Teacher {
    cfg: TeacherConfig,
    solver: Solver,
}

/// The columns of `cols` as a 7-bit mask.
pub fn mask_of(cols: &[usize]) -> u8 {
    cols.iter().fold(0u8, |m, &x| m | 1 << x)
}

impl Teacher {
    /// A teacher for `cfg` (allocates the solver's table).
    pub fn new(cfg: &TeacherConfig) -> Teacher {
        let mut solver = Solver::new(cfg.table_bytes);
        solver.set_book(cfg.book.clone());
        Teacher {
            cfg: cfg.clone(),
            solver,
        }
    }

    /// The settings.
    pub fn config(&self) -> &TeacherConfig {
        &self.cfg
    }

    /// Every best column of `pos` by the exact solver, as a mask.
    pub fn exact_mask(&mut self, pos: &Position) -> u8 {
        mask_of(&self.solver.best_moves(pos))
    }

    /// The teacher flag and target columns for `pos` (a legal position, not over).
    pub fn label(&mut self, pos: &Position) -> (u8, u8) {
        debug_assert!(pos.winner().is_none() && !pos.is_full());
        let empty = CELLS as u32 - pos.moves_played();
        match self.cfg.mode {
            TeacherMode::Exact => (FLAG_EXACT, self.exact_mask(pos)),
            TeacherMode::AlphaBeta if empty <= self.cfg.bounded_empty => {
                (FLAG_BOUNDED, self.exact_mask(pos))
            }
            TeacherMode::AlphaBeta => {
                let x = search_move(pos, self.cfg.depth, self.cfg.node_budget);
                debug_assert!(x < WIDTH && pos.can_play(x));
                (FLAG_ALPHABETA, 1 << x)
            }
        }
    }
}
