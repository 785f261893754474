//! `analyze` and `best_moves` against solving every child, and known facts.

mod common;

use c4lab_board::{parse_stones, Position, WIDTH};
use c4lab_solver::{immediate_win_score, Solver};
use common::{sample, TABLE};

/// Checks `analyze` column by column against solving each child in a fresh table.
fn check_analysis(solver: &mut Solver, pos: &Position, expected_best: Option<i32>) {
    let scores = solver.analyze(pos);
    let mut fresh = Solver::new(TABLE);
    for (x, &got) in scores.iter().enumerate() {
        let want = if !pos.can_play(x) {
            None
        } else if pos.is_winning_move(x) {
            Some(immediate_win_score(pos.moves_played()))
        } else {
            fresh.reset();
            Some(-fresh.solve(&pos.after(x)))
        };
        assert_eq!(got, want, "column {} of {:?}", x + 1, pos);
    }
    let best = scores.iter().flatten().max().copied();
    if let Some(b) = expected_best {
        assert_eq!(best, Some(b), "best score of {pos:?}");
    }
    let moves = solver.best_moves(pos);
    assert!(!moves.is_empty());
    for (x, &s) in scores.iter().enumerate() {
        assert_eq!(moves.contains(&x), s.is_some() && s == best);
    }
}

#[test]
fn analysis_matches_solving_children() {
    let mut solver = Solver::new(TABLE);
    for (set, step) in [
        ("L3_R1", 100),
        ("L2_R1", 100),
        ("L2_R2", 200),
        ("L1_R1", 100),
    ] {
        let Some(cases) = sample(set, step) else {
            return;
        };
        for c in &cases {
            // the best column's score is the position's score
            check_analysis(&mut solver, &c.position, Some(c.score));
        }
    }
}

#[test]
fn immediate_wins_score_43_minus_n_over_2() {
    let mut solver = Solver::new(TABLE);
    // Red to move with three on the bottom row (6 stones)
    let p = Position::from_moves("112233").unwrap();
    assert_eq!(solver.solve(&p), (43 - 6) / 2);
    assert_eq!(solver.solve_weak(&p), 1);
    let a = solver.analyze(&p);
    assert_eq!(a[3], Some(18));
    assert_eq!(solver.best_moves(&p), vec![3]);
    check_analysis(&mut solver, &p, Some(18));
    // Yellow to move, can win at once with a vertical four (7 stones)
    let q = Position::from_moves("1212124").unwrap();
    assert_eq!(q.winning_moves().count_ones(), 1);
    assert_eq!(solver.solve(&q), (43 - 7) / 2);
}

#[test]
fn a_move_that_lets_the_opponent_win_scores_the_opponents_immediate_win() {
    let mut solver = Solver::new(TABLE);
    // Yellow to move must block column 4; elsewhere Red wins with its next stone
    let p = Position::from_moves("11223").unwrap();
    let a = solver.analyze(&p);
    // after Yellow's 6th stone, Red wins with the 7th: score (43 - 6) / 2 for Red
    assert_eq!(a[0], Some(-(43 - 6) / 2));
    assert!(a[3].unwrap() > a[0].unwrap());
    assert_eq!(solver.best_moves(&p), vec![3]);
}

#[test]
fn full_and_nearly_full_boards() {
    // a full board without a four, and a legal order reaching it
    let grid = "YYRRYRR\nRYRYYYR\nRYRRYYY\nYRYRRRY\nYYYRRYR\nRRRYYYR\n";
    let loaded = parse_stones(grid).expect("a reachable drawn board");
    let mut pos = Position::new();
    let mut solver = Solver::new(TABLE);
    for &x in &loaded.order {
        pos.play(x as usize);
        if pos.moves_played() >= 36 && !pos.is_full() {
            let s = solver.solve(&pos);
            check_analysis(&mut solver, &pos, Some(s));
        }
    }
    assert!(pos.is_full());
    assert_eq!(pos, loaded.position);
    assert_eq!(solver.solve(&pos), 0);
    assert_eq!(solver.solve_weak(&pos), 0);
    assert_eq!(solver.analyze(&pos), [None; WIDTH]);
    assert!(solver.best_moves(&pos).is_empty());
    // with one cell left the last move fills the board: a draw
    let mut before = pos;
    before.undo(loaded.order[41] as usize);
    assert_eq!(solver.solve(&before), 0);
}

#[test]
fn mirror_images_score_alike() {
    let Some(cases) = sample("L2_R2", 100) else {
        return;
    };
    let mut solver = Solver::new(TABLE);
    for c in &cases {
        solver.reset();
        assert_eq!(solver.solve(&c.position.mirror()), c.score, "{}", c.moves);
    }
}
