//! The opening book agrees with search; budgets and stop flags give honest answers.

mod common;

use std::sync::atomic::AtomicBool;

use c4lab_board::{Position, WIDTH};
use c4lab_solver::{build_book, search_move, Book, Limits, Outcome, Solver};
use common::{sample, TABLE};

#[test]
fn book_answers_equal_search_answers() {
    let Some(cases) = sample("L2_R1", 250) else {
        return;
    };
    for c in &cases {
        let mut builder = Solver::new(TABLE);
        let mut calls = 0;
        let book = build_book(&mut builder, &c.position, 2, &mut |done, total| {
            calls += 1;
            assert!(done <= total);
        });
        assert!(calls > 0 && !book.is_empty());
        let bytes = book.to_bytes();
        let loaded = Book::from_bytes(&bytes).expect("a book reads back");
        assert_eq!(loaded, book);
        assert_eq!(loaded.get(&c.position), Some(c.score));

        // every position within two moves: the book equals a fresh search
        let mut plain = Solver::new(TABLE);
        let mut with_book = Solver::new(TABLE);
        with_book.set_book(Some(loaded.clone()));
        let mut checked = 0;
        for x in 0..WIDTH {
            if !c.position.can_play(x) || c.position.is_winning_move(x) {
                continue;
            }
            let p1 = c.position.after(x);
            for y in 0..WIDTH {
                if !p1.can_play(y) || p1.is_winning_move(y) {
                    continue;
                }
                let p2 = p1.after(y);
                plain.reset();
                let s = plain.solve(&p2);
                assert_eq!(
                    loaded.get(&p2),
                    Some(s),
                    "{} then {} {}",
                    c.moves,
                    x + 1,
                    y + 1
                );
                assert_eq!(loaded.get(&p2.mirror()), Some(s));
                checked += 1;
            }
            plain.reset();
            assert_eq!(loaded.get(&p1), Some(plain.solve(&p1)));
            // a solver holding the book answers and analyses identically
            assert_eq!(with_book.analyze(&p1), plain.analyze(&p1));
            assert_eq!(with_book.best_moves(&p1), plain.best_moves(&p1));
        }
        assert!(checked > 0);
        with_book.reset_nodes();
        assert_eq!(with_book.solve(&c.position), c.score);
        assert_eq!(with_book.nodes(), 0, "the book answers the root");
    }
}

#[test]
fn tiny_budget_is_unknown_and_bounds_are_honest() {
    let Some(cases) = sample("L1_R2", 50) else {
        return;
    };
    let mut solver = Solver::new(TABLE);
    let mut unknown = 0;
    for c in &cases {
        solver.reset();
        let enough = solver.solve_with_budget(&c.position, u64::MAX);
        assert_eq!(enough, Outcome::Exact(c.score));
        assert_eq!(enough.exact(), Some(c.score));
        let needed = solver.nodes();
        // a budget of exactly the nodes needed succeeds
        solver.reset();
        assert_eq!(
            solver.solve_with_budget(&c.position, needed),
            Outcome::Exact(c.score)
        );
        // tiny budgets, and one node fewer than needed, give honest bounds
        for budget in [0, 1, 10, needed - 1].into_iter().filter(|&b| b < needed) {
            solver.reset();
            match solver.solve_with_budget(&c.position, budget) {
                Outcome::Unknown { lower, upper } => {
                    assert!(lower <= c.score && c.score <= upper, "{}", c.moves);
                    unknown += 1;
                }
                Outcome::Exact(s) => panic!("{}: {budget} nodes solved it ({s})", c.moves),
            }
        }
    }
    assert!(unknown > 0);
}

#[test]
fn the_loss_test_agrees_with_the_score_and_a_short_budget_answers_honestly() {
    let Some(cases) = sample("L2_R1", 60) else {
        return;
    };
    let mut solver = Solver::new(TABLE);
    let (mut losses, mut others, mut unanswered) = (0, 0, 0);
    for c in &cases {
        // the position itself, and every position one move on (the other side to move)
        let mut positions = vec![c.position];
        positions.extend(
            (0..WIDTH)
                .filter(|&x| c.position.can_play(x) && !c.position.is_winning_move(x))
                .map(|x| c.position.after(x)),
        );
        for p in positions {
            solver.reset();
            let score = solver.solve(&p);
            solver.reset();
            assert_eq!(
                solver.loses_within(&p, Limits::default()),
                Some(score < 0),
                "{} ({} moves in), score {score}",
                c.moves,
                p.moves_played()
            );
            if score < 0 {
                losses += 1;
            } else {
                others += 1;
            }
            solver.reset();
            let short = Limits {
                max_nodes: 5,
                ..Limits::default()
            };
            match solver.loses_within(&p, short) {
                Some(lost) => assert_eq!(lost, score < 0, "{}", c.moves),
                None => unanswered += 1,
            }
        }
    }
    assert!(losses > 0 && others > 0 && unanswered > 0);
}

#[test]
fn a_raised_stop_flag_stops_the_search() {
    let Some(cases) = sample("L1_R2", 100) else {
        return;
    };
    let stop = AtomicBool::new(true);
    let mut solver = Solver::new(TABLE);
    for c in &cases {
        solver.reset();
        let limits = Limits {
            stop: Some(&stop),
            ..Limits::default()
        };
        let out = solver.solve_limited(&c.position, limits);
        assert!(matches!(out, Outcome::Unknown { .. }), "{}", c.moves);
        assert!(solver.nodes() <= 1, "a raised flag stops at the first node");
        let weak = Limits {
            weak: true,
            ..Limits::default()
        };
        assert_eq!(
            solver.solve_limited(&c.position, weak),
            Outcome::Exact(c.score.signum())
        );
    }
}

#[test]
fn heuristic_search_is_deterministic_and_sensible() {
    let Some(cases) = sample("L2_R1", 100) else {
        return;
    };
    let mut solver = Solver::new(TABLE);
    for c in &cases {
        let m = search_move(&c.position, 8, 200_000);
        assert!(c.position.can_play(m));
        assert_eq!(m, search_move(&c.position, 8, 200_000), "{}", c.moves);
        // the move never hands the opponent an immediate win when avoidable
        let a = solver.analyze(&c.position);
        let loses_at_once = |x: usize| {
            let p = c.position.after(x);
            p.winning_moves() != 0
        };
        if (0..WIDTH).any(|x| c.position.can_play(x) && !loses_at_once(x)) {
            assert!(!loses_at_once(m), "{}: column {}", c.moves, m + 1);
        }
        assert!(a[m].is_some());
    }
    // it takes an immediate win
    let p = Position::from_moves("112233").unwrap();
    assert_eq!(search_move(&p, 1, 10), 3);
}
