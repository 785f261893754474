//! Level budgets that grow without a proof, and races of differently configured solves:
//! the verdict with the fewest dead ends counts, and it repeats exactly.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use c4lab_board::Position;
use c4lab_dsat::{race, solve, Entrant, Options, Outcome, Progress};
use c4lab_steady::{Cell, Diagram, Verifier};

mod common;
use common::{all_undecided, sat_only, spread};

/// A few upstream roots of ply 22+ with every level cell `?` (none when the files are absent).
fn puzzles() -> Vec<Diagram> {
    spread(22, 4).iter().map(all_undecided).collect()
}

fn widening(widen_after: u64) -> Options {
    Options {
        widen_after,
        ..sat_only()
    }
}

fn no_stop() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(false))
}

fn found(outcome: &Outcome) -> &Diagram {
    let Outcome::Found(d) = outcome else {
        panic!("expected found, got {outcome:?}");
    };
    assert!(Verifier::new().verify(d).is_win());
    d
}

#[test]
fn a_budget_grown_without_proof_says_so_and_still_finds_a_winner() {
    let mut unproved = 0;
    for puzzle in puzzles() {
        // growing only on proof: the budget in the end is the fewest levels that win
        let proved = solve(&puzzle, &widening(0), no_stop()).unwrap();
        found(&proved.outcome);
        assert_eq!(proved.least_levels, proved.levels);
        // growing after every dead end: a winner all the same, and what is proved
        // about fewer levels never claims more than the proof-only search found
        let eager = solve(&puzzle, &widening(1), no_stop()).unwrap();
        found(&eager.outcome);
        assert!(eager.least_levels <= eager.levels);
        assert!(eager.least_levels <= proved.levels);
        unproved += u32::from(eager.least_levels < eager.levels);
    }
    if !puzzles().is_empty() {
        assert!(unproved > 0, "no budget grew without a proof");
    }
}

#[test]
fn a_race_counts_the_verdict_with_the_lowest_weighted_dead_ends_and_repeats_exactly() {
    let entrants = [widening(0), widening(1)];
    for puzzle in puzzles() {
        let ready = AtomicUsize::new(0);
        let run = || {
            race(
                &puzzle,
                &entrants,
                0,
                no_stop(),
                &|| {
                    ready.fetch_add(1, Ordering::Relaxed);
                },
                &|_, _| {},
            )
            .unwrap()
        };
        let first = run();
        let w = first.winner.expect("a winner");
        let winner = &first.entrants[w].report;
        let diagram = found(&winner.outcome);
        // every other entrant finished later or gave up at the winner's count: its dead
        // ends, each counting 2 for the widening second (both start at once)
        assert_eq!((first.entrants[0].weight, first.entrants[1].weight), (1, 2));
        let count = |e: &Entrant| e.weight * e.report.conflicts;
        for (i, e) in first.entrants.iter().enumerate() {
            if i == w {
                continue;
            }
            let (mine, best) = (count(e), count(&first.entrants[w]));
            let later = mine > best || (mine == best && i > w);
            assert!(later, "entrant {i}: {:?} vs {:?}", e.report, winner);
        }
        // the race does not disturb the winner: alone it finds the same diagram with the
        // same dead ends, and a second race repeats the first
        let alone = solve(&puzzle, &entrants[w], no_stop()).unwrap();
        assert_eq!(found(&alone.outcome), diagram);
        assert_eq!(alone.conflicts, winner.conflicts);
        let again = run();
        assert_eq!(again.winner, Some(w));
        assert_eq!(found(&again.report().outcome), diagram);
        assert_eq!(ready.load(Ordering::Relaxed), 2);
    }
}

#[test]
fn a_race_on_an_impossible_root_is_unsat() {
    // Yellow's open three on the bottom row: no diagram stops both ends
    let threats = Diagram::from_root(&Position::from_moves("727364").unwrap(), |_, _| {
        Cell::Undecided
    });
    let report = race(
        &threats,
        &[widening(0), widening(50)],
        0,
        no_stop(),
        &|| {},
        &|_, _| {},
    )
    .unwrap();
    assert!(report.winner.is_some());
    assert_eq!(report.report().outcome, Outcome::Unsat);
    assert_eq!(report.report().levels, 10);
}

#[test]
fn a_late_start_counts_against_the_late_entrant_and_the_head_start_leaves_out_easy_roots() {
    let mut left_out = 0;
    let mut started_late = 0;
    let mut reversed_started = 0;
    for puzzle in puzzles() {
        // a head start no budget takes half of (the second never starts), and a small one
        for head in [1_000_000, 20] {
            let entrants = [widening(0), widening(head)];
            let headed = race(&puzzle, &entrants, head, no_stop(), &|| {}, &|_, _| {}).unwrap();
            let w = headed.winner.expect("a winner");
            assert_eq!(headed.entrants[0].started_at, 0);
            // the winner has the lowest count, its start plus its dead ends (ties: the
            // earlier); every other entrant finished later or stopped at that count
            // (the widening second's dead ends count twice)
            assert_eq!(
                (headed.entrants[0].weight, headed.entrants[1].weight),
                (1, 2)
            );
            let count = |e: &Entrant| e.started_at + e.weight * e.report.conflicts;
            for (i, e) in headed.entrants.iter().enumerate() {
                if i != w && headed.entrants[0].widest >= head / 2 {
                    let behind = count(e) > count(&headed.entrants[w])
                        || (count(e) == count(&headed.entrants[w]) && i > w);
                    assert!(behind, "entrant {i}: {:?} vs the winner {w}", e.report);
                }
            }
            // a second race repeats the first
            let again = race(&puzzle, &entrants, head, no_stop(), &|| {}, &|_, _| {}).unwrap();
            assert_eq!(again.winner, Some(w));
            assert_eq!(again.report().conflicts, headed.report().conflicts);
            assert_eq!(
                found(&again.report().outcome),
                found(&headed.report().outcome)
            );
            if headed.entrants[0].widest < head / 2 {
                // no budget of the first took half the head start: the second never
                // started, and the first won
                assert_eq!(w, 0);
                assert_eq!(headed.entrants[1].report.outcome, Outcome::Stopped);
                assert_eq!(headed.entrants[1].report.conflicts, 0);
                left_out += 1;
            } else {
                // the second started once a budget of the first took half the head start
                assert!(headed.entrants[1].started_at >= head / 2);
                started_late += 1;
            }
        }
        // with the widening search first, the others start from its count: its dead
        // ends at the release, twice
        let reversed = [widening(20), widening(0)];
        let r = race(&puzzle, &reversed, 20, no_stop(), &|| {}, &|_, _| {}).unwrap();
        if r.entrants[0].widest >= 10 && r.entrants[1].started_at > 0 {
            assert_eq!(r.entrants[1].started_at % 2, 0, "{:?}", r.entrants[1]);
            assert!(r.entrants[1].started_at >= 20);
            reversed_started += 1;
        }
    }
    if !puzzles().is_empty() {
        assert!(
            reversed_started > 0,
            "no race with the widening search first let go"
        );
        assert!(
            left_out > 0 && started_late > 0,
            "{left_out} {started_late}"
        );
    }
}

#[test]
fn a_widening_search_maps_its_own_first_cut() {
    let first = sat_only();
    assert_eq!(first.first_cut(), first.first_cut_plies);
    let second = widening(3000);
    assert_eq!(second.first_cut(), second.widening_first_cut_plies);
    assert_ne!(first.first_cut(), second.first_cut());
    // never past the deepest cut
    let shallow = Options {
        cut_plies: 6,
        ..widening(3000)
    };
    assert_eq!(shallow.first_cut(), 6);
    // the map itself: a widening search alone maps more positions at first
    if let Some(root) = puzzles().first() {
        let mapped = |o: &Options| {
            let mut m = c4lab_dsat::start(root, o, no_stop()).unwrap();
            while !m.step(1 << 20).unwrap() {}
            match m.progress() {
                Progress::Mapping { positions, .. } => positions,
                other => panic!("{other:?}"),
            }
        };
        let (a, b) = (mapped(&first), mapped(&second));
        assert!(b > a, "{b} positions at ten plies, {a} at eight");
    }
}

#[test]
fn a_search_held_back_says_it_waits_not_that_it_maps() {
    let Some(puzzle) = puzzles().into_iter().next() else {
        return;
    };
    // the second's local search ends at once, without a find, and its SAT search is
    // never let go: its last report was "mapping 0 positions", where it mapped nothing
    let held = Options {
        local_work: 1,
        ..widening(1_000_000)
    };
    let reports = std::sync::Mutex::new(Vec::new());
    let progress = |i: usize, p: Progress| {
        if i == 1 {
            reports.lock().unwrap().push(p);
        }
    };
    let r = race(
        &puzzle,
        &[sat_only(), held],
        1_000_000,
        no_stop(),
        &|| {},
        &progress,
    )
    .unwrap();
    assert!(!r.entrants[1].report.local.found);
    assert_eq!(r.entrants[1].report.outcome, Outcome::Stopped);
    let reports = reports.into_inner().unwrap();
    // it waits (or, had the first finished before its local search did, it says no
    // more than its local search's last report)
    assert!(
        matches!(
            reports.last(),
            Some(Progress::Waiting { .. } | Progress::Local { .. })
        ),
        "{reports:?}"
    );
    assert!(
        !reports
            .iter()
            .any(|p| matches!(p, Progress::Mapping { .. })),
        "{reports:?}"
    );
}
