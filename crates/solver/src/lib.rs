//! Connect Four strong solver.
//!
//! Scores follow Pascal Pons' convention, always from the side to move: 0 is a draw,
//! a positive score a win and a negative one a loss. Winning with one's k-th stone
//! from the end of the game scores k, so a win on the next move from a position with
//! `n` stones scores `(43 - n) / 2`; losses mirror wins. A position a four has already
//! ended is lost by the side that did not make the four, scored as the win was
//! ([`four_score`]).
//!
//! The search is a bitboard negamax with alpha-beta pruning and null-window tests
//! that narrow the score. It uses a caller-sized transposition table (4-entry
//! buckets, lossless keys, both bounds and the best move, with a small cache-resident
//! table for positions near the end), prefetching of the children's entries, move
//! ordering by threats created, losing-move anticipation, detection of a win with
//! the next stone (which also tightens the upper bound), mirror symmetry at shallow
//! depths and enhanced transposition cutoffs. An optional opening [`Book`] answers
//! shallow positions at once. [`search_move`] is a separate depth-limited heuristic
//! search.
//!
//! The library uses no clock or filesystem (it builds for `wasm32-unknown-unknown`);
//! time limits come from the caller as node budgets or a stop flag ([`Limits`]). It
//! starts threads only with the `parallel` feature, where [`Solver::set_threads`]
//! lets long solves share the table between threads, and rayon-based helpers analyse
//! columns and build books in parallel.

mod bench;
mod book;
mod error;
mod heuristic;
mod order;
#[cfg(feature = "parallel")]
mod parallel;
mod search;
mod shared;
mod solver;
mod table;

pub use bench::{parse_bench, run_bench, score_bounds, BenchCase, BenchReport};
pub use book::{build_book, Book, BOOK_MAGIC, BOOK_MAX_DEPTH};
use c4lab_board::Position;
pub use error::{BenchError, BookError};
pub use heuristic::search_move;
pub use order::non_losing_moves;
#[cfg(feature = "parallel")]
pub use parallel::{analyze_parallel, build_book_parallel};
pub use solver::{Limits, Outcome, Solver};
pub use table::advise_huge_pages;

/// A game score in Pascal Pons' convention, from the side to move.
pub type Score = i32;

/// Number of cells on the board, as a score-arithmetic constant.
pub(crate) const CELLS: i32 = 42;

/// The score of a position with `moves` stones where the side to move wins at once.
#[inline]
pub fn immediate_win_score(moves: u32) -> Score {
    (CELLS + 1 - moves as i32) / 2
}

/// The score of `pos` when a four is on the board (the game is over), from the side to
/// move: the four's holder won with its last stone, so a win for it and a loss for the
/// other side; `None` while the game goes on.
///
/// A position built from its moves never goes past a four, but one built from
/// bitboards ([`Position::from_bitboards`]) may (even one played on past the four, its
/// holder to move): the solver's scoring entry points ([`Solver::solve`] and its
/// kin, [`Solver::loses_within`], [`Solver::analyze`], [`Solver::best_moves`]) answer
/// such a position by this rule rather than searching on past the win.
pub fn four_score(pos: &Position) -> Option<Score> {
    let winner = pos.winner()?;
    let n = pos.moves_played();
    // the holder's last stone: the n-th when it has just moved, the (n - 1)-th when it
    // is to move; it won with the board as it was before that stone
    let holder_to_move = winner == pos.to_move();
    let before = n.saturating_sub(if holder_to_move { 2 } else { 1 });
    let won = immediate_win_score(before);
    Some(if holder_to_move { won } else { -won })
}

/// What playing a column comes to before any search (see [`column_move`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnMove {
    /// The column is full.
    Full,
    /// The game is over (a four is on the board): no column can be played.
    Over,
    /// The move makes four: its score.
    Wins(Score),
    /// The position after the move, to be solved; the move scores minus its score.
    Child(Position),
}

/// Playing column `x` in `pos`: no move at all once a four has ended the game, a full
/// column, an immediate win, or the child to solve (every way of scoring columns, one
/// solver or several, shares this).
pub fn column_move(pos: &Position, x: usize) -> ColumnMove {
    if pos.winner().is_some() {
        ColumnMove::Over
    } else if !pos.can_play(x) {
        ColumnMove::Full
    } else if pos.is_winning_move(x) {
        ColumnMove::Wins(immediate_win_score(pos.moves_played()))
    } else {
        ColumnMove::Child(pos.after(x))
    }
}

/// The column search order from the centre outwards.
pub(crate) const CENTRE_ORDER: [usize; 7] = [3, 2, 4, 1, 5, 0, 6];
