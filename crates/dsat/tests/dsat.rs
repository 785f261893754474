//! dsat on real roots: upstream roots with every cell undecided come back found and
//! verified, pinned cells come back unchanged, impossible roots come back unsat, both
//! backends agree, and on small instances the verdicts match trying every completion.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use c4lab_board::{Position, HEIGHT, WIDTH};
use c4lab_dsat::{map, map_with_progress, solve, Options, Outcome, Progress, RoundEnd};
use c4lab_steady::{Cell, Diagram, Verifier};

mod common;
use common::{all_undecided, levels_used, sat_only, spread, upstream};

fn run(d: &Diagram, backend: &str) -> Outcome {
    let opts = Options {
        backend: backend.into(),
        ..sat_only()
    };
    solve(d, &opts, Arc::new(AtomicBool::new(false)))
        .unwrap()
        .outcome
}

fn assert_found(puzzle: &Diagram, outcome: &Outcome) {
    let Outcome::Found(d) = outcome else {
        panic!("expected found for\n{}got {outcome:?}", puzzle.to_grid());
    };
    assert!(Verifier::new().verify(d).is_win());
    for x in 0..WIDTH {
        for y in 0..HEIGHT {
            match puzzle.cell(x, y) {
                Cell::Undecided => assert!(matches!(d.cell(x, y), Cell::Level(0..=9))),
                pinned => assert_eq!(d.cell(x, y), pinned, "pinned cell ({x},{y}) changed"),
            }
        }
    }
}

#[test]
fn upstream_roots_with_every_cell_undecided_are_found_on_both_backends() {
    for (i, d) in spread(22, 4).iter().enumerate() {
        let puzzle = all_undecided(d);
        for backend in ["batsat", "cadical"] {
            assert_found(&puzzle, &run(&puzzle, backend));
        }
        // half the cells pinned to upstream's levels: they come back unchanged
        let mut half = d.clone();
        for x in 0..WIDTH {
            for y in 0..HEIGHT {
                if (x + y + i) % 2 == 0 && matches!(d.cell(x, y), Cell::Level(_)) {
                    half.set(x, y, Cell::Undecided);
                }
            }
        }
        assert_found(&half, &run(&half, "batsat"));
    }
}

#[test]
fn impossible_roots_are_unsat_on_both_backends() {
    // Yellow's open three on the bottom row: no diagram stops both ends
    let threats = Diagram::from_root(&Position::from_moves("727364").unwrap(), |_, _| {
        Cell::Undecided
    });
    for backend in ["batsat", "cadical"] {
        assert_eq!(run(&threats, backend), Outcome::Unsat);
    }
    // upstream roots with every level cell pinned to 5: at a quiet root all playable
    // cells tie, so the diagram names no move
    for d in spread(22, 3).iter() {
        let mut tied = d.clone();
        for x in 0..WIDTH {
            for y in 0..HEIGHT {
                if matches!(d.cell(x, y), Cell::Level(_)) {
                    tied.set(x, y, Cell::Level(5));
                }
            }
        }
        let root = d.root().unwrap().position;
        if root.winning_moves() != 0 || root.opponent_winning_moves() != 0 {
            continue; // the tactical rules would move without the levels
        }
        for backend in ["batsat", "cadical"] {
            assert_eq!(run(&tied, backend), Outcome::Unsat, "{}", tied.to_grid());
        }
    }
}

#[test]
fn progress_fills_the_gauge_then_counts_rounds_with_rising_dead_ends_and_settled_variables() {
    let Some(d) = upstream(20).into_iter().nth(3) else {
        return;
    };
    let puzzle = all_undecided(&d);
    for backend in ["batsat", "cadical"] {
        // mapped to the deep cut at once (the deepening has its own test)
        let opts = Options {
            backend: backend.into(),
            max_states: 1 << 20,
            first_cut_plies: 16,
            ..sat_only()
        };
        let mut seen = Vec::new();
        let stop = Arc::new(AtomicBool::new(false));
        let mapped = map_with_progress(&puzzle, &opts, stop, &mut |p| seen.push(p)).unwrap();
        let mapped_positions = mapped.positions();
        let report = mapped.search_with_progress(&mut |p| seen.push(p)).unwrap();
        assert_found(&puzzle, &report.outcome);
        // the mapping gauge rises to the positions mapped, against the state budget
        let gauge: Vec<u64> = seen
            .iter()
            .filter_map(|p| match *p {
                Progress::Mapping {
                    positions,
                    max_states,
                } => {
                    assert_eq!(max_states, 1 << 20);
                    Some(positions)
                }
                _ => None,
            })
            .collect();
        assert!(gauge.windows(2).all(|w| w[0] <= w[1]), "{gauge:?}");
        assert_eq!(gauge.last(), Some(&mapped_positions));
        // then one report per round: rounds count up, dead ends and settled never fall
        let rounds: Vec<(u64, u64, u64)> = seen
            .iter()
            .skip(gauge.len())
            .map(|p| match *p {
                Progress::Searching {
                    round,
                    conflicts,
                    settled,
                    ..
                } => (round, conflicts, settled),
                other => panic!("a mapping report after the search began: {other:?}"),
            })
            .collect();
        assert_eq!(rounds.len() as u64, report.rounds, "{backend}");
        for (i, w) in rounds.windows(2).enumerate() {
            assert_eq!(w[1].0, i as u64 + 2);
            assert!(
                w[0].1 <= w[1].1 && w[0].2 <= w[1].2,
                "{backend}: {rounds:?}"
            );
        }
        assert!(rounds.last().unwrap().2 > 0, "{backend}: nothing settled");
        // each round says how it ended and under which budget: the budget grows only
        // after a round that proved it too small (the default widens on proof only), and
        // only the last round gives the verdict
        let ends: Vec<(u8, RoundEnd)> = seen
            .iter()
            .filter_map(|p| match *p {
                Progress::Searching { levels, ended, .. } => Some((levels, ended.unwrap())),
                _ => None,
            })
            .collect();
        assert_eq!(ends.last().unwrap(), &(report.levels, RoundEnd::Verdict));
        assert!(
            ends.iter().any(|e| e.1 == RoundEnd::TooFewLevels),
            "{ends:?}"
        );
        for w in ends.windows(2) {
            assert_ne!(w[0].1, RoundEnd::Verdict, "{backend}: {ends:?}");
            let grew = w[0].1 == RoundEnd::TooFewLevels;
            assert_eq!(w[1].0, w[0].0 + u8::from(grew), "{backend}: {ends:?}");
        }
    }
}

#[test]
fn a_shallow_first_map_is_deepened_into_the_same_solver() {
    let mut deepened = 0;
    for d in spread(20, 4).iter() {
        let puzzle = all_undecided(d);
        let opts = Options {
            first_cut_plies: 2,
            deepen_after: 1,
            ..sat_only()
        };
        let mut seen = Vec::new();
        let stop = Arc::new(AtomicBool::new(false));
        let mapped = map_with_progress(&puzzle, &opts, stop, &mut |p| seen.push(p)).unwrap();
        let shallow = mapped.positions();
        let report = mapped.search_with_progress(&mut |p| seen.push(p)).unwrap();
        assert_found(&puzzle, &report.outcome);
        // the same root mapped to the deep cut at once
        let deep = map(
            &puzzle,
            &Options {
                first_cut_plies: 16,
                ..sat_only()
            },
            Arc::new(AtomicBool::new(false)),
        )
        .unwrap()
        .positions();
        if report.rounds <= 1 {
            assert_eq!(report.mapped, shallow, "no deepening before a second round");
            continue;
        }
        deepened += 1;
        // the gauge comes back after the first round and the map grows to the deep one
        // (walking through the positions refinement encoded first)
        let first_round = seen
            .iter()
            .position(|p| matches!(p, Progress::Searching { .. }))
            .unwrap();
        assert!(seen[first_round..]
            .iter()
            .any(|p| matches!(p, Progress::Mapping { .. })));
        assert!(
            shallow < report.mapped && deep <= report.mapped,
            "shallow {shallow}, deepened {}, deep at once {deep}",
            report.mapped
        );
        // rounds keep counting and dead ends never fall across the deepening
        let rounds: Vec<(u64, u64)> = seen
            .iter()
            .filter_map(|p| match *p {
                Progress::Searching {
                    round, conflicts, ..
                } => Some((round, conflicts)),
                _ => None,
            })
            .collect();
        assert!(rounds
            .windows(2)
            .all(|w| w[1].0 == w[0].0 + 1 && w[0].1 <= w[1].1));
    }
    assert!(
        upstream(20).is_empty() || deepened >= 1,
        "nothing was deepened"
    );
}

#[test]
fn positions_left_unasked_near_the_cut_take_fewer_questions_and_change_no_verdict() {
    for d in spread(18, 3) {
        let puzzle = all_undecided(&d);
        let with = |unasked_plies| Options {
            unasked_plies,
            ..sat_only()
        };
        let first_map = |unasked_plies| {
            let stop = Arc::new(AtomicBool::new(false));
            let mut mapped = map(&puzzle, &with(unasked_plies), stop).unwrap();
            mapped.report(Outcome::Stopped).encoding
        };
        // the last two Red-to-move layers above the cut are not asked: nothing is ruled
        // out there, so the walk goes on below moves that an asking map prunes
        let (asked, unasked) = (first_map(0), first_map(4));
        assert!(unasked.pruned < asked.pruned, "{unasked:?} {asked:?}");
        assert!(
            unasked.positions >= asked.positions,
            "{unasked:?} {asked:?}"
        );
        for unasked_plies in [0, 4] {
            let stop = Arc::new(AtomicBool::new(false));
            let report = solve(&puzzle, &with(unasked_plies), stop).unwrap();
            assert_found(&puzzle, &report.outcome);
        }
    }
}

/// Positions a solve has encoded so far.
fn encoded(mapped: &mut c4lab_dsat::Mapped) -> u64 {
    match mapped.progress() {
        Progress::Searching { positions, .. } => positions,
        other => panic!("a mapped root reports {other:?}"),
    }
}

#[test]
fn a_failed_candidate_teaches_its_tree_up_to_the_cap() {
    let mut beyond_the_line = 0;
    for d in spread(18, 4).iter() {
        let puzzle = all_undecided(d);
        // the Red-to-move positions on one line from the root, at most
        let line = u64::from(42 - d.root().unwrap().position.moves_played()) / 2 + 1;
        for cap in [0, 64] {
            let opts = Options {
                first_cut_plies: 2,
                tree_cap: cap,
                fault_paths: 0,
                ..sat_only()
            };
            let mut mapped = map(&puzzle, &opts, Arc::new(AtomicBool::new(false))).unwrap();
            for _ in 0..30 {
                let before = encoded(&mut mapped);
                if let Some(outcome) = mapped.round().unwrap() {
                    assert_found(&puzzle, &outcome);
                    break;
                }
                let grown = encoded(&mut mapped) - before;
                assert!(
                    grown <= cap as u64 + line,
                    "cap {cap}: {grown} new positions"
                );
                if grown > line {
                    beyond_the_line += 1;
                }
            }
        }
    }
    assert!(
        upstream(18).is_empty() || beyond_the_line > 0,
        "no round learnt more than its losing line"
    );
}

#[test]
fn a_level_budget_grows_until_a_diagram_fits_and_unsat_still_covers_every_level() {
    let stop = || Arc::new(AtomicBool::new(false));
    let budget = |first_levels, compact_levels| Options {
        first_levels,
        compact_levels,
        ..sat_only()
    };
    let mut grown = 0;
    let roots = spread(22, 4);
    for d in roots.iter() {
        let puzzle = all_undecided(d);
        let report = solve(&puzzle, &budget(1, true), stop()).unwrap();
        assert_found(&puzzle, &report.outcome);
        let Outcome::Found(found) = &report.outcome else {
            unreachable!()
        };
        // the `?` cells take exactly the levels below the budget the search ended with:
        // none above it, and (no gaps) none below it left out
        let mut used = [false; 10];
        for x in 0..WIDTH {
            for y in 0..HEIGHT {
                if let (Cell::Undecided, Cell::Level(l)) = (puzzle.cell(x, y), found.cell(x, y)) {
                    assert!(
                        l < report.levels,
                        "level {l} at ({x},{y}) over {}",
                        report.levels
                    );
                    used[usize::from(l)] = true;
                }
            }
        }
        assert_eq!(
            used.iter().filter(|&&u| u).count(),
            usize::from(report.levels),
            "a gap in\n{}",
            found.to_grid()
        );
        // the search over every assignment, gaps included, needs as many levels
        let gaps = solve(&puzzle, &budget(1, false), stop()).unwrap();
        assert_found(&puzzle, &gaps.outcome);
        assert_eq!(gaps.levels, report.levels);
        // without a budget the levels still leave no gap: they run from 0 up
        let free = solve(&puzzle, &budget(10, true), stop()).unwrap();
        assert_found(&puzzle, &free.outcome);
        let Outcome::Found(free) = &free.outcome else {
            unreachable!()
        };
        let levels = levels_used(free);
        assert!(
            levels.iter().copied().eq(0..levels.len() as u8),
            "a gap in {levels:?}:\n{}",
            free.to_grid()
        );
        grown += u32::from(report.levels > 1);
    }
    // with one level every quiet playable cell ties, so some root needs more
    // (no roots where upstream's files are absent: skipped, said by `upstream`)
    assert!(grown > 0 || roots.is_empty());
    // unsat is only said once all ten levels are allowed
    let threats = Diagram::from_root(&Position::from_moves("727364").unwrap(), |_, _| {
        Cell::Undecided
    });
    for compact in [true, false] {
        let report = solve(&threats, &budget(1, compact), stop()).unwrap();
        assert_eq!(report.outcome, Outcome::Unsat);
        assert_eq!(report.levels, 10);
    }
}

#[test]
fn gates_built_as_the_budget_grows_prove_the_same_budgets_with_fewer_variables() {
    let stop = || Arc::new(AtomicBool::new(false));
    let options = |levels_on_demand| Options {
        levels_on_demand,
        ..sat_only()
    };
    let mut smaller = 0;
    let roots = spread(22, 4);
    for d in roots.iter() {
        let puzzle = all_undecided(d);
        let lazy = solve(&puzzle, &options(true), stop()).unwrap();
        let full = solve(&puzzle, &options(false), stop()).unwrap();
        assert_found(&puzzle, &lazy.outcome);
        assert_found(&puzzle, &full.outcome);
        // every budget below the last is proved too small either way
        assert_eq!(lazy.levels, full.levels, "{}", puzzle.to_grid());
        assert_eq!(lazy.least_levels, full.least_levels);
        // the gates of the levels above the budget are never made
        let per_position =
            |r: &c4lab_dsat::Report| r.encoding.variables as f64 / r.encoding.positions as f64;
        assert!(per_position(&lazy) <= per_position(&full));
        smaller += u32::from(per_position(&lazy) < per_position(&full));
    }
    // (no roots where upstream's files are absent: skipped, said by `upstream`)
    assert!(smaller > 0 || roots.is_empty());
    // unsat still covers every level
    let threats = Diagram::from_root(&Position::from_moves("727364").unwrap(), |_, _| {
        Cell::Undecided
    });
    let report = solve(&threats, &options(true), stop()).unwrap();
    assert_eq!(report.outcome, Outcome::Unsat);
    assert_eq!(report.levels, 10);
}

#[test]
fn pinned_cells_that_tie_at_the_root_leave_the_free_cells_a_gate_for_the_levels_built_later() {
    // the two pinned 0s are both playable at the root, so level 0 is never unique there
    // and no `?` cell could be picked at level 0: the levels built later still need a
    // gate for each of their columns (this root used to end in an internal error)
    let text = "??0????\n??R????\n0?Y????\nYRY?R??\nYYYRR??\nRRRYYRY\n";
    let puzzle = Diagram::parse(text).unwrap().diagram;
    for backend in ["batsat", "cadical"] {
        assert_found(&puzzle, &run(&puzzle, backend));
    }
}

/// The root's playable cells that hold levels, centre columns first.
fn playable_level_cells(d: &Diagram) -> Vec<(usize, usize)> {
    [3, 2, 4, 1, 5, 0, 6]
        .into_iter()
        .filter_map(|x| {
            (0..HEIGHT)
                .find(|&y| !matches!(d.cell(x, y), Cell::Red | Cell::Yellow))
                .filter(|&y| matches!(d.cell(x, y), Cell::Level(_)))
                .map(|y| (x, y))
        })
        .collect()
}

/// Whether some levels 0..9 for the `?` cells of `d` make a diagram the verifier calls a
/// win: every completion tried, with no SAT solver and no encoding involved.
fn some_completion_wins(d: &Diagram, verifier: &mut Verifier) -> bool {
    let free: Vec<(usize, usize)> = (0..WIDTH)
        .flat_map(|x| (0..HEIGHT).map(move |y| (x, y)))
        .filter(|&(x, y)| d.cell(x, y) == Cell::Undecided)
        .collect();
    let mut c = d.clone();
    (0..10u32.pow(free.len() as u32)).any(|mut code| {
        for &(x, y) in &free {
            c.set(x, y, Cell::Level((code % 10) as u8));
            code /= 10;
        }
        verifier.verify(&c).is_win()
    })
}

#[test]
fn on_small_instances_dsat_and_auto_complete_agree_with_trying_every_completion() {
    // upstream diagrams with three of the root's playable cells undecided, as given and
    // with a fourth playable cell moved to another level (which often breaks them): dsat
    // says found exactly when some completion wins, and so does auto-complete, so an
    // `unsat` is checked here by an engine that shares nothing with the encoding
    let mut verifier = Verifier::new();
    let (mut found, mut unsat) = (0, 0);
    for d in spread(16, 30) {
        let cells = playable_level_cells(&d);
        if cells.len() < 4 {
            continue;
        }
        let mut puzzles = Vec::new();
        for moved in [None, Some(0), Some(9), Some(4)] {
            let mut p = d.clone();
            if let Some(level) = moved {
                let (x, y) = cells[3];
                if p.cell(x, y) == Cell::Level(level) {
                    continue;
                }
                p.set(x, y, Cell::Level(level));
            }
            for &(x, y) in &cells[..3] {
                p.set(x, y, Cell::Undecided);
            }
            puzzles.push(p);
        }
        for p in puzzles {
            let wins = some_completion_wins(&p, &mut verifier);
            let outcome = run(&p, "batsat");
            // the default, the local search first, says the same
            let default = solve(&p, &Options::default(), Arc::new(AtomicBool::new(false)))
                .unwrap()
                .outcome;
            if wins {
                assert_found(&p, &outcome);
                assert_found(&p, &default);
                found += 1;
            } else {
                assert_eq!(outcome, Outcome::Unsat, "{}", p.to_grid());
                assert_eq!(default, Outcome::Unsat, "{}", p.to_grid());
                unsat += 1;
            }
            let mut complete = c4lab_synth::complete::Completer::new(
                &p,
                c4lab_synth::complete::Options::default(),
                Arc::new(AtomicBool::new(false)),
            )
            .unwrap();
            match complete.run(|_| {}).unwrap() {
                c4lab_synth::complete::Completion::Found { diagram, .. } => {
                    assert!(
                        wins,
                        "auto-complete found a winner where none is\n{}",
                        p.to_grid()
                    );
                    assert_found(&p, &Outcome::Found(diagram));
                }
                c4lab_synth::complete::Completion::Unsat => {
                    assert!(!wins, "auto-complete missed a winner of\n{}", p.to_grid())
                }
                other => panic!("{other:?}"),
            }
        }
    }
    if !upstream(16).is_empty() {
        // every instance was put to the test, and both verdicts were
        assert_eq!(found + unsat, 110);
        assert!(found >= 3 && unsat >= 3, "found {found}, unsat {unsat}");
    }
}
