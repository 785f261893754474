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

/// A game a four has ended (built from bitboards, as a caller reading a board may) is
/// lost by the side that did not make the four, scored as the win was, and has no
/// move to analyse.
#[test]
fn a_position_with_a_four_is_lost_by_the_side_without_it() {
    use c4lab_solver::{analyze_parallel, four_score, Limits, Outcome};
    let bit = |x: usize, y: usize| 1u64 << (x * 7 + y);
    // Red's four along the bottom (its fourth stone the seventh), Yellow on three of them
    let red = (0..4).map(|x| bit(x, 0)).sum::<u64>();
    let yellow = (0..3).map(|x| bit(x, 1)).sum::<u64>();
    let red_won = Position::from_bitboards(red, yellow);
    // Yellow's four in column 7 (its fourth stone the eighth), Red's stones scattered
    let red = bit(0, 0) + bit(1, 0) + bit(3, 0) + bit(4, 0);
    let yellow = (0..4).map(|y| bit(6, y)).sum::<u64>();
    let yellow_won = Position::from_bitboards(red, yellow);
    for (pos, stones) in [(red_won, 7), (yellow_won, 8)] {
        assert_eq!(pos.moves_played(), stones);
        // the winner won with the board at stones - 1: 18 both times
        let lost = -immediate_win_score(stones - 1);
        assert_eq!(lost, -18);
        assert_eq!(four_score(&pos), Some(lost));
        let mut solver = Solver::new(TABLE);
        assert_eq!(solver.solve(&pos), lost, "{pos:?}");
        assert_eq!(solver.solve_weak(&pos), -1);
        assert_eq!(solver.solve_with_budget(&pos, 1), Outcome::Exact(lost));
        assert_eq!(solver.loses_within(&pos, Limits::default()), Some(true));
        assert_eq!(solver.analyze(&pos), [None; WIDTH]);
        assert_eq!(analyze_parallel(&pos, TABLE), [None; WIDTH]);
        assert!(solver.best_moves(&pos).is_empty());
    }
    // a board played on past the four, its holder to move: a win for it, scored by the
    // stone that made the four (Red's seventh stone overall, Yellow's eighth)
    let red = (0..4).map(|x| bit(x, 0)).sum::<u64>();
    let yellow = bit(0, 1) + bit(1, 1) + bit(2, 1) + bit(5, 0);
    let red_to_move = Position::from_bitboards(red, yellow);
    let red = bit(0, 0) + bit(1, 0) + bit(3, 0) + bit(4, 0) + bit(5, 0);
    let yellow = (0..4).map(|y| bit(6, y)).sum::<u64>();
    let yellow_to_move = Position::from_bitboards(red, yellow);
    for (pos, stones) in [(red_to_move, 8), (yellow_to_move, 9)] {
        assert_eq!(pos.moves_played(), stones);
        assert_eq!(four_score(&pos), Some(18), "{pos:?}");
        let mut solver = Solver::new(TABLE);
        assert_eq!(solver.solve(&pos), 18);
        assert_eq!(solver.loses_within(&pos, Limits::default()), Some(false));
        assert!(solver.best_moves(&pos).is_empty());
    }
    // a game that goes on has no such score
    assert_eq!(four_score(&Position::from_moves("4444").unwrap()), None);
}
