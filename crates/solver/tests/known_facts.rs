//! Facts of Connect Four the solver must reproduce from scratch (no book): the first
//! player wins, and only by opening in the centre column. The costliest test here (two
//! threads, about 40 s optimised).

use c4lab_board::{Position, WIDTH};
use c4lab_solver::Solver;

#[test]
fn the_first_player_wins_and_only_by_opening_in_the_centre() {
    let mut solver = Solver::new(256 << 20);
    solver.set_threads(2);
    let empty = Position::new();
    let mut yellow_after = [0; WIDTH];
    // columns 1-4; 5-7 are their mirror images
    for x in 0..=WIDTH / 2 {
        yellow_after[x] = solver.solve_weak(&empty.after(x));
        yellow_after[WIDTH - 1 - x] = yellow_after[x];
    }
    // Yellow, to move after Red's first stone, loses exactly after the centre
    assert_eq!(
        yellow_after,
        [1, 1, 0, -1, 0, 1, 1],
        "Yellow's weak value after each opening"
    );
    // and the empty board itself is a first-player win, however it is asked
    assert_eq!(solver.solve_weak(&empty), 1);
}
