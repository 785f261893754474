//! The public solver: exact, weak and budgeted solving, per-column analysis.

use std::sync::atomic::AtomicBool;

use c4lab_board::{Position, WIDTH};

use crate::book::Book;
use crate::search::{Narrowing, Search};
#[cfg(feature = "parallel")]
use crate::shared::Shared;
use crate::table::Table;
use crate::{column_move, four_score, immediate_win_score, ColumnMove, Score, CELLS};

/// The most memory given to the table of positions near the end of the game, which
/// should stay in the processor's cache.
const NEAR_BYTES: usize = 1 << 20;

/// A Connect Four solver owning a transposition table of a caller-chosen size.
pub struct Solver {
    table: Table,
    near: Table,
    nodes: u64,
    book: Option<Book>,
    /// Search threads (1 unless the `parallel` feature is on and the caller asks).
    threads: usize,
    /// The helper threads' own cache-resident tables.
    #[cfg(feature = "parallel")]
    helper_near: Vec<Table>,
}

/// A solve first runs single-threaded for this many nodes; only a longer one starts
/// helper threads (starting threads costs more than a short search).
#[cfg(feature = "parallel")]
const SHARED_AFTER: u64 = 100_000;

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
            threads: 1,
            #[cfg(feature = "parallel")]
            helper_near: Vec::new(),
        }
    }

    /// Searches long solves with `threads` threads sharing the table (feature
    /// `parallel`; without it, and for 0, the solver stays single-threaded).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = if cfg!(feature = "parallel") {
            threads.max(1)
        } else {
            1
        };
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
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

    /// The exact score of `pos` (a legal position; one with a four scores as
    /// [`four_score`] says).
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
        if let Some(s) = four_score(pos) {
            return Outcome::Exact(if limits.weak { s.signum() } else { s });
        }
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
        let (min, max) = (-(CELLS - n as i32) / 2, (CELLS - 1 - n as i32) / 2);
        let mode = if limits.weak {
            Narrowing::Sign
        } else {
            Narrowing::Exact
        };
        let (lo, hi, aborted) = self.narrow_within(pos, min, max, limits, mode);
        if aborted {
            let (lower, upper) = if limits.weak {
                (lo.signum(), hi.signum())
            } else {
                (lo, hi)
            };
            return Outcome::Unknown { lower, upper };
        }
        // a sign-only narrowing ends once the bounds agree on the sign: `lo` carries it
        Outcome::Exact(if limits.weak { lo.signum() } else { lo })
    }

    /// Whether the side to move loses `pos` (a legal position; one with a four is
    /// lost by the side that does not hold it), or `None` once `limits.max_nodes`
    /// nodes are spent: one null-window test, where telling a loss from a draw by
    /// [`Solver::solve_limited`] may need two (`limits.weak` changes nothing here).
    pub fn loses_within(&mut self, pos: &Position, limits: Limits<'_>) -> Option<bool> {
        if let Some(s) = four_score(pos) {
            return Some(s < 0);
        }
        let n = pos.moves_played();
        if n as i32 >= CELLS || pos.winning_moves() != 0 {
            return Some(false);
        }
        if let Some(s) = self.book.as_ref().and_then(|b| b.get(pos)) {
            return Some(s < 0);
        }
        let min = (-(CELLS - n as i32) / 2).max(-1);
        if min >= 0 {
            return Some(false);
        }
        // (a probe for a quick loss first, as the sign's narrowing makes, cost dsat's
        // local search 3-24 % more work to the same find: docs/solver.md)
        let (lo, hi, aborted) = self.narrow_within(pos, min, 0, limits, Narrowing::Exact);
        if !aborted {
            Some(lo < 0)
        } else if hi < 0 {
            Some(true)
        } else if lo >= 0 {
            Some(false)
        } else {
            None
        }
    }

    /// Narrows the score of `pos` within `[min, max]` under `limits` (the node budget
    /// and stop flag): the bounds reached and whether the budget ran out first.
    fn narrow_within(
        &mut self,
        pos: &Position,
        min: i32,
        max: i32,
        limits: Limits<'_>,
        mode: Narrowing,
    ) -> (i32, i32, bool) {
        let first_budget = if self.threads > 1 {
            limits.max_nodes.min(shared_after())
        } else {
            limits.max_nodes
        };
        let mut search = Search::new(
            &self.table,
            &self.near,
            self.book.as_ref(),
            self.nodes,
            first_budget,
            limits.stop,
        );
        #[allow(unused_mut)]
        let (mut lo, mut hi) = search.narrow(pos, min, max, mode);
        #[allow(unused_mut)]
        let mut aborted = search.aborted;
        let spent = search.nodes - self.nodes;
        self.nodes = search.nodes;
        #[cfg(feature = "parallel")]
        {
            let stopped = limits
                .stop
                .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed));
            if aborted && self.threads > 1 && !stopped && spent < limits.max_nodes {
                (lo, hi, aborted) =
                    self.narrow_shared(pos, lo, hi, limits, mode, limits.max_nodes - spent);
            }
        }
        #[cfg(not(feature = "parallel"))]
        let _ = spent;
        (lo, hi, aborted)
    }

    /// Narrows the score of `pos` within `[min, max]` with all threads sharing the
    /// table, each running the whole null-window narrowing (deferring moves another
    /// thread is searching, see `Shared`); the first to finish stops the others. Returns the combined bounds and
    /// whether every thread was stopped short.
    #[cfg(feature = "parallel")]
    fn narrow_shared(
        &mut self,
        pos: &Position,
        min: i32,
        max: i32,
        limits: Limits<'_>,
        mode: Narrowing,
        budget: u64,
    ) -> (i32, i32, bool) {
        use std::sync::atomic::Ordering;
        let stop = limits.stop;
        while self.helper_near.len() + 1 < self.threads {
            self.helper_near.push(Table::new(self.near.bytes()));
        }
        for t in &mut self.helper_near {
            t.clear();
        }
        let per_thread = budget / self.threads as u64;
        let shared = Shared::new();
        let (table, book, shared) = (&self.table, self.book.as_ref(), &shared);
        let nears: Vec<&Table> = std::iter::once(&self.near)
            .chain(self.helper_near.iter())
            .take(self.threads)
            .collect();
        let results: Vec<(i32, i32, bool, u64)> = std::thread::scope(|s| {
            let handles: Vec<_> = nears
                .into_iter()
                .map(|near| {
                    s.spawn(move || {
                        let mut search = Search::new(table, near, book, 0, per_thread, stop);
                        search.share(pos, shared);
                        let (lo, hi) = search.narrow(pos, min, max, mode);
                        if !search.aborted {
                            shared.done.store(true, Ordering::Relaxed);
                        }
                        (lo, hi, search.aborted, search.nodes)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        });
        let mut out = (min, max, true);
        for (lo, hi, aborted, nodes) in results {
            self.nodes += nodes;
            // every thread's bounds are proven, so their intersection is too
            out.0 = out.0.max(lo);
            out.1 = out.1.min(hi);
            out.2 &= aborted;
        }
        out
    }

    /// The score of playing each column, from the side to move's perspective;
    /// `None` for full columns (every column once a four ends the game).
    pub fn analyze(&mut self, pos: &Position) -> [Option<Score>; WIDTH] {
        let mut out = [None; WIDTH];
        for (x, slot) in out.iter_mut().enumerate() {
            *slot = self.column_score(pos, x);
        }
        out
    }

    /// The score of playing column `x` in `pos`, `None` when the column is full or a
    /// four has ended the game.
    pub fn column_score(&mut self, pos: &Position, x: usize) -> Option<Score> {
        match column_move(pos, x) {
            ColumnMove::Full | ColumnMove::Over => None,
            ColumnMove::Wins(score) => Some(score),
            ColumnMove::Child(child) => Some(-self.solve(&child)),
        }
    }

    /// Every column achieving the best score (empty only for a full board or a game a
    /// four has ended).
    ///
    /// One exact solve of `pos`, then one null-window test per column: every column
    /// scores at most the position's score `s`, so a column is best exactly when its
    /// child scores at most `-s`. The tests run on the table the solve left warm and
    /// cost a fraction of solving each child exactly.
    pub fn best_moves(&mut self, pos: &Position) -> Vec<usize> {
        let n = pos.moves_played();
        if n as i32 >= CELLS || pos.winner().is_some() {
            return Vec::new();
        }
        let wins = pos.winning_moves();
        if wins != 0 {
            return (0..WIDTH).filter(|&x| pos.is_winning_move(x)).collect();
        }
        let s = self.solve(pos);
        (0..WIDTH)
            .filter(|&x| pos.can_play(x) && self.score_at_most(&pos.after(x), -s))
            .collect()
    }

    /// Whether the exact score of `pos` (no four on the board) is at most `bound`: one
    /// null-window search, single-threaded, without a node budget.
    fn score_at_most(&mut self, pos: &Position, bound: Score) -> bool {
        let n = pos.moves_played();
        if n as i32 >= CELLS {
            return 0 <= bound;
        }
        if pos.winning_moves() != 0 {
            return immediate_win_score(n) <= bound;
        }
        if let Some(s) = self.book.as_ref().and_then(|b| b.get(pos)) {
            return s <= bound;
        }
        let (min, max) = (-(CELLS - n as i32) / 2, (CELLS - 1 - n as i32) / 2);
        if bound >= max {
            return true;
        }
        if bound < min {
            return false;
        }
        let mut search = Search::new(
            &self.table,
            &self.near,
            self.book.as_ref(),
            self.nodes,
            u64::MAX,
            None,
        );
        let r = search.negamax(pos, bound, bound + 1);
        self.nodes = search.nodes;
        r <= bound
    }
}

/// The node budget of a solve's single-threaded start (see `SHARED_AFTER`).
#[inline]
fn shared_after() -> u64 {
    #[cfg(feature = "parallel")]
    {
        SHARED_AFTER
    }
    #[cfg(not(feature = "parallel"))]
    {
        u64::MAX
    }
}
