//! Multi-threaded helpers (feature `parallel`): one solver per thread via rayon.

use c4lab_board::{Position, WIDTH};
use rayon::prelude::*;

use crate::book::{book_positions, Book};
use crate::{column_move, ColumnMove, Score, Solver};

/// [`Solver::analyze`] with one thread per column, each with a table of
/// `table_bytes_per_thread` bytes.
pub fn analyze_parallel(pos: &Position, table_bytes_per_thread: usize) -> [Option<Score>; WIDTH] {
    let v: Vec<Option<Score>> = (0..WIDTH)
        .into_par_iter()
        .map(|x| match column_move(pos, x) {
            ColumnMove::Full | ColumnMove::Over => None,
            ColumnMove::Wins(score) => Some(score),
            ColumnMove::Child(child) => Some(-Solver::new(table_bytes_per_thread).solve(&child)),
        })
        .collect();
    let mut out = [None; WIDTH];
    out.copy_from_slice(&v);
    out
}

/// [`crate::build_book`] spread over rayon's threads, each with a table of
/// `table_bytes_per_thread` bytes.
pub fn build_book_parallel(root: &Position, depth: u32, table_bytes_per_thread: usize) -> Book {
    let positions = book_positions(root, depth);
    let items: Vec<(Position, Score)> = positions
        .par_iter()
        .map_init(
            || Solver::new(table_bytes_per_thread),
            |s, p| (*p, s.solve(p)),
        )
        .collect();
    Book::from_scores(items)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parallel_analysis_matches_sequential() {
        let p = Position::from_moves("4453213366").unwrap();
        let mut s = Solver::new(1 << 22);
        assert_eq!(analyze_parallel(&p, 1 << 20), s.analyze(&p));
        let book = build_book_parallel(&p, 1, 1 << 20);
        assert_eq!(book.get(&p), Some(s.solve(&p)));
    }
}
