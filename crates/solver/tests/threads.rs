//! The multi-threaded search (threads sharing one table) against the published scores.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};

use c4lab_board::Position;
use c4lab_solver::{Limits, Outcome, Solver};
use common::{sample, TABLE};

/// Nodes a solve runs alone before it starts helper threads (see the solver).
const SHARED_AFTER: u64 = 100_000;

#[test]
fn two_threads_agree_with_the_published_scores_on_hard_positions() {
    let Some(cases) = sample("L1_R3", 25) else {
        return;
    };
    let mut solver = Solver::new(TABLE);
    solver.set_threads(2);
    assert_eq!(solver.threads(), 2);
    for c in &cases {
        solver.reset();
        assert_eq!(solver.solve(&c.position), c.score, "{}", c.moves);
        // long enough that helper threads joined in
        assert!(
            solver.nodes() > SHARED_AFTER,
            "{}: {} nodes",
            c.moves,
            solver.nodes()
        );
        solver.reset();
        assert_eq!(
            solver.solve_weak(&c.position),
            c.score.signum(),
            "{}",
            c.moves
        );
    }
}

#[test]
fn a_budget_shared_by_threads_gives_sound_bounds() {
    let Some(cases) = sample("L1_R3", 20) else {
        return;
    };
    let mut solver = Solver::new(TABLE);
    solver.set_threads(2);
    for c in &cases {
        solver.reset();
        match solver.solve_with_budget(&c.position, 3 * SHARED_AFTER) {
            Outcome::Exact(s) => assert_eq!(s, c.score, "{}", c.moves),
            Outcome::Unknown { lower, upper } => {
                assert!(lower <= c.score && c.score <= upper, "{}", c.moves);
                assert!(lower < upper);
            }
        }
        // the budget is for all threads together
        assert!(solver.nodes() <= 3 * SHARED_AFTER + 16, "{}", c.moves);
    }
}

#[test]
fn a_stop_flag_raised_mid_search_stops_every_thread() {
    let mut solver = Solver::new(TABLE);
    solver.set_threads(2);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        stop: Some(&stop),
        ..Limits::default()
    };
    // one stone in, the exact solve takes minutes; the flag ends it a moment after
    // the helper threads have started
    let p = Position::from_moves("4").unwrap();
    let outcome = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(300));
            stop.store(true, Ordering::Relaxed);
        });
        solver.solve_limited(&p, limits)
    });
    let Outcome::Unknown { lower, upper } = outcome else {
        panic!("a stopped solve is not exact: {outcome:?}");
    };
    // Red's centre opening wins (the empty board scores +1), so Yellow's score is -1
    assert!(lower <= -1 && -1 <= upper, "bounds {lower}..={upper}");
    assert!(solver.nodes() > SHARED_AFTER);
}
