//! Exact and weak agreement with the benchmark files' scores.

mod common;

use std::sync::atomic::AtomicBool;

use c4lab_solver::{Limits, Outcome, Solver};
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
fn l1_r3_exact_two_positions() {
    let Some(cases) = sample("L1_R3", 1) else {
        return;
    };
    let mut solver = Solver::new(64 << 20);
    // two positions this solver needs few nodes for, their scores distinct
    let chosen: Vec<_> = cases
        .iter()
        .filter(|c| ["7331233426", "4777157454"].contains(&c.moves.as_str()))
        .collect();
    assert_eq!(chosen.len(), 2, "both positions are in the set");
    assert_ne!(chosen[0].score, chosen[1].score);
    for c in chosen {
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
fn weak_solve_costs_fewer_nodes_than_the_exact_score() {
    // the sign alone tested at zero took 2.3 times the exact solve's nodes on L1_R2
    // (quick wins proved down every long line); probing for a quick win and a quick
    // loss first makes it the cheaper question it is
    let Some(cases) = sample("L1_R2", 20) else {
        return;
    };
    let mut solver = Solver::new(TABLE);
    let (mut exact, mut weak) = (0, 0);
    for c in &cases {
        solver.reset();
        solver.solve(&c.position);
        exact += solver.nodes();
        solver.reset();
        assert_eq!(solver.solve_weak(&c.position), c.score.signum());
        weak += solver.nodes();
    }
    assert!(weak < exact, "weak {weak} nodes, exact {exact}");
}

#[test]
fn weak_solve_past_given_up_probes_keeps_the_sign() {
    // four stones in (`4443`), the probe for a quick win takes all the 100,000 nodes a
    // probe may and is given up; the search goes on under the solve's own limit, and
    // its sign is the exact score's
    let mut solver = Solver::new(TABLE);
    let moves = "4443";
    let pos = c4lab_board::Position::from_moves(moves).unwrap();
    solver.reset();
    let exact = solver.solve(&pos);
    solver.reset();
    assert_eq!(solver.solve_weak(&pos), exact.signum(), "{moves}");
    // a budget met after a given-up probe leaves bounds that hold it
    solver.reset();
    let limits = Limits {
        max_nodes: 250_000,
        weak: true,
        ..Limits::default()
    };
    match solver.solve_limited(&pos, limits) {
        Outcome::Exact(s) => assert_eq!(s, exact.signum(), "{moves}"),
        Outcome::Unknown { lower, upper } => {
            assert!(
                lower <= exact.signum() && exact.signum() <= upper,
                "{moves}"
            )
        }
    }
    assert!(solver.nodes() <= 250_001, "{moves}: {}", solver.nodes());
}

#[test]
fn weak_solve_under_budgets_keeps_the_sign() {
    // a budget (or a stop) met inside a probe or after it ends the search with bounds
    // that hold the sign
    let Some(cases) = sample("L1_R3", 25) else {
        return;
    };
    let mut solver = Solver::new(TABLE);
    for c in &cases {
        let sign = c.score.signum();
        solver.reset();
        assert_eq!(solver.solve_weak(&c.position), sign, "L1_R3: {}", c.moves);
        for budget in [1_000, 60_000, 150_000, 400_000] {
            solver.reset();
            let limits = Limits {
                max_nodes: budget,
                weak: true,
                ..Limits::default()
            };
            match solver.solve_limited(&c.position, limits) {
                Outcome::Exact(s) => assert_eq!(s, sign, "{}", c.moves),
                Outcome::Unknown { lower, upper } => {
                    assert!(
                        lower <= sign && sign <= upper,
                        "{}: {lower}..{upper}",
                        c.moves
                    );
                    assert!(solver.nodes() <= budget + 1, "{}", c.moves);
                }
            }
        }
        let stop = AtomicBool::new(true);
        let stopped = Limits {
            weak: true,
            stop: Some(&stop),
            ..Limits::default()
        };
        solver.reset();
        assert!(matches!(
            solver.solve_limited(&c.position, stopped),
            Outcome::Unknown { .. }
        ));
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
