//! The strong solver as an oracle: does a Red move keep a won game?

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use c4lab_board::Position;

use super::Encoding;
use crate::sat::Ceiling;

/// The strong solver, its node budget a question and the search's stop flag.
pub(crate) struct Oracle {
    solver: c4lab_solver::Solver,
    max_nodes: u64,
    /// The search's stop flag: a question cut short by it is left unanswered.
    stop: Arc<AtomicBool>,
    /// A stop read before each question (at 0 dead ends no question is asked), for a
    /// caller that cannot raise `stop` while a step runs (the page's worker).
    halt: Option<Arc<dyn Ceiling>>,
}

/// The strong solver's answer to one question.
enum Answer {
    /// Proved either way: true when the move keeps the win.
    Proved(bool),
    /// The node budget ran out first.
    Unknown,
    /// The stop flag cut the question short.
    Stopped,
}

impl Oracle {
    /// An oracle with a transposition table of `table_bytes`, `max_nodes` a question.
    fn new(table_bytes: usize, max_nodes: u64, stop: Arc<AtomicBool>) -> Oracle {
        Oracle {
            solver: c4lab_solver::Solver::new(table_bytes),
            max_nodes,
            stop,
            halt: None,
        }
    }

    /// Nodes searched so far, over every question.
    fn nodes(&self) -> u64 {
        self.solver.nodes()
    }

    /// Does Red, to move at (`red`, `mask`), keep a won game by playing `cell`?
    fn keeps_win(&mut self, red: u64, mask: u64, cell: u64) -> Answer {
        if self.halt.as_ref().is_some_and(|h| h.dead_ends() == 0) {
            return Answer::Stopped;
        }
        let after = Position::from_bitboards(red | cell, mask ^ red);
        let limits = c4lab_solver::Limits {
            max_nodes: self.max_nodes,
            stop: Some(&self.stop),
            ..Default::default()
        };
        // Red keeps the win when Yellow, to move, loses
        match self.solver.loses_within(&after, limits) {
            Some(lost) => Answer::Proved(lost),
            None if self.stop.load(Ordering::Relaxed) => Answer::Stopped,
            None => Answer::Unknown,
        }
    }
}

/// The oracle as the encoding uses it.
impl Encoding {
    /// Lets the strong solver rule out Red moves that do not keep a win, spending at most
    /// `max_nodes` nodes a question (sound: a diagram that plays such a move at a
    /// position it reaches cannot win); `table_bytes` sizes its transposition table.
    /// Raising `stop` cuts the question under way short (it is then left unanswered, so
    /// nothing is pruned), so a stop is not held up by a round of questions.
    pub fn use_oracle(&mut self, table_bytes: usize, max_nodes: u64, stop: Arc<AtomicBool>) {
        self.oracle = Some(Oracle::new(table_bytes, max_nodes, stop));
    }

    /// Leaves every later question unanswered once `halt` reads 0 (a stop the caller
    /// cannot raise through the flag while a step runs); no-op without an oracle.
    pub fn halt_oracle_at(&mut self, halt: Arc<dyn Ceiling>) {
        if let Some(oracle) = self.oracle.as_mut() {
            oracle.halt = Some(halt);
        }
    }

    /// Hands this encoding's strong-solver oracle (and its table) to `other`.
    pub fn hand_oracle_to(&mut self, other: &mut Encoding) {
        other.oracle = self.oracle.take();
    }

    /// False when the oracle proves that Red playing `cell` does not keep a win.
    pub(super) fn keeps_win(&mut self, red: u64, mask: u64, cell: u64) -> bool {
        self.ask_oracle(red, mask, cell, true)
    }

    /// The strong solver's answer to "does Red playing `cell` keep a won game?" (true
    /// when it cannot tell within its budget), or `None` without an oracle.
    pub fn oracle_keeps_win(&mut self, red: u64, mask: u64, cell: u64) -> Option<bool> {
        self.oracle.as_ref()?;
        Some(self.ask_oracle(red, mask, cell, false))
    }

    /// Nodes the strong-solver oracle has searched so far (0 without one).
    pub fn oracle_nodes(&self) -> u64 {
        self.oracle.as_ref().map_or(0, Oracle::nodes)
    }

    /// [`Encoding::keeps_win`], counting an unanswered question only when `count`.
    pub(super) fn ask_oracle(&mut self, red: u64, mask: u64, cell: u64, count: bool) -> bool {
        let Some(oracle) = self.oracle.as_mut() else {
            return true;
        };
        // not proved either way: keep the move (no pruning); a question cut short by a
        // stop is not one the budget could not answer
        match oracle.keeps_win(red, mask, cell) {
            Answer::Proved(keeps) => keeps,
            Answer::Unknown => {
                self.stats.unknown += u64::from(count);
                true
            }
            Answer::Stopped => true,
        }
    }

    /// Moves the strong-solver oracle out (to lend it to another encoding).
    pub(crate) fn take_oracle(&mut self) -> Option<Oracle> {
        self.oracle.take()
    }

    /// Puts an oracle (back) in.
    pub(crate) fn give_oracle(&mut self, oracle: Option<Oracle>) {
        self.oracle = oracle;
    }
}
