//! The local search that runs before the SAT map: what it finds verifies, keeps the
//! pinned cells and leaves no gap in the levels, and no two of its levels merge; a run
//! repeats itself; a root it cannot win goes on to the SAT search, which still says
//! `unsat`; its budget holds; another random stream finds what the first missed; in a
//! race every entrant's local search runs and the least work wins, and one that found
//! spent no time mapping; a SAT search after a local search that found nothing starts
//! from its best diagram; a stop ends it within a walk.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use c4lab_board::{Position, HEIGHT, WIDTH};
use c4lab_dsat::{
    entrant, race, solve, start, LocalSearch, Options, Outcome, RaceReport, Report, LOCAL_WORK,
};
use c4lab_steady::{Cell, Diagram, Verifier};

mod common;
use common::{all_undecided, levels_used, spread};

fn solved(d: &Diagram, options: &Options) -> Report {
    solve(d, options, Arc::new(AtomicBool::new(false))).unwrap()
}

/// The found diagram, checked: it verifies and the pinned cells are as given.
fn found(puzzle: &Diagram, report: &Report) -> Diagram {
    let Outcome::Found(d) = &report.outcome else {
        panic!(
            "expected found for\n{}got {:?}",
            puzzle.to_grid(),
            report.outcome
        );
    };
    assert!(Verifier::new().verify(d).is_win(), "{}", d.to_grid());
    for x in 0..WIDTH {
        for y in 0..HEIGHT {
            match puzzle.cell(x, y) {
                Cell::Undecided => assert!(matches!(d.cell(x, y), Cell::Level(0..=9))),
                pinned => assert_eq!(d.cell(x, y), pinned, "pinned cell ({x},{y}) changed"),
            }
        }
    }
    d.clone()
}

/// True when the local search settled the root: no SAT round ran.
fn by_local_search(report: &Report) -> bool {
    let settled = report.rounds == 0 && report.conflicts == 0 && report.local.steps > 0;
    assert_eq!(report.local.found, settled, "{report:?}");
    settled
}

/// A race of `entrants` on `puzzle` with a head start of 3,000 dead ends, unwatched.
fn raced(puzzle: &Diagram, entrants: &[Options]) -> RaceReport {
    race(
        puzzle,
        entrants,
        3000,
        Arc::new(AtomicBool::new(false)),
        &|| {},
        &|_, _| {},
    )
    .unwrap()
}

/// Every level cell of the root after `moves` undecided.
fn open_root(moves: &str) -> Diagram {
    Diagram::from_root(&Position::from_moves(moves).unwrap(), |_, _| {
        Cell::Undecided
    })
}

/// A ply-18 upstream root whose local search misses within [`STREAM_WORK`] on stream 0
/// and finds on stream 1 (found by measuring, see `docs/dsat.md`, "A local search for
/// every search of the race").
const SECOND_STREAM_ROOT: &str = "656666454544535242";

/// The local search's budget in the streams test: the first search's default when the
/// root was chosen (stream 0 finds it within the later default, 25 M).
const STREAM_WORK: u64 = 10_000_000;

#[test]
fn upstream_roots_are_found_by_the_local_search_with_levels_from_zero_and_no_gap() {
    let roots = spread(20, 12);
    let mut local = 0;
    for d in &roots {
        let puzzle = all_undecided(d);
        let report = solved(&puzzle, &Options::default());
        let diagram = found(&puzzle, &report);
        if !by_local_search(&report) {
            continue;
        }
        local += 1;
        // nothing is pinned at a level, so the levels are renumbered from 0: the budget
        // reported is the number of levels the ? cells take
        let used = levels_used(&diagram);
        assert!(used.iter().copied().eq(0..used.len() as u8), "{used:?}");
        assert_eq!(usize::from(report.levels), used.len());
        // no two neighbouring levels can be merged into one and still win
        for l in 1..report.levels {
            let merged = Diagram::from_cells((*diagram.cells()).map(|c| match c {
                Cell::Level(m) if m >= l => Cell::Level(m - 1),
                other => other,
            }))
            .unwrap();
            assert!(
                !Verifier::new().verify(&merged).is_win(),
                "levels {} and {l} merge:\n{}",
                l - 1,
                diagram.to_grid()
            );
        }
        assert_eq!(report.least_levels, 1, "the local search proves nothing");
        assert!(report.local.work > 0);
    }
    if !roots.is_empty() {
        // most upstream roots take the local search a fraction of its budget
        assert!(local >= 9, "{local} of 12 found by the local search");
    }
}

/// `d` with every other level cell undecided (which half by `i`), the rest pinned to
/// upstream's levels.
fn half_pinned(d: &Diagram, i: usize) -> Diagram {
    let mut half = d.clone();
    for x in 0..WIDTH {
        for y in 0..HEIGHT {
            if (x + y + i).is_multiple_of(2) && matches!(d.cell(x, y), Cell::Level(_)) {
                half.set(x, y, Cell::Undecided);
            }
        }
    }
    half
}

#[test]
fn pinned_cells_come_back_unchanged_and_a_run_repeats_itself() {
    for (i, d) in spread(18, 4).iter().enumerate() {
        let half = half_pinned(d, i);
        let first = solved(&half, &Options::default());
        let second = solved(&half, &Options::default());
        let diagram = found(&half, &first);
        assert_eq!(Outcome::Found(diagram), second.outcome);
        assert_eq!(first.local, second.local);
    }
}

/// The levels `puzzle`'s pinned cells hold, and those `found` gives its `?` cells.
fn pinned_and_free_levels(puzzle: &Diagram, found: &Diagram) -> ([bool; 14], [bool; 14]) {
    let (mut pinned, mut free) = ([false; 14], [false; 14]);
    for x in 0..WIDTH {
        for y in 0..HEIGHT {
            match (puzzle.cell(x, y), found.cell(x, y)) {
                (Cell::Level(l), _) => pinned[usize::from(l)] = true,
                (Cell::Undecided, Cell::Level(l)) => free[usize::from(l)] = true,
                _ => {}
            }
        }
    }
    (pinned, free)
}

#[test]
fn with_cells_pinned_the_local_search_leaves_the_gap_free_twin_and_no_level_merges() {
    // the example of the README (pinned 0 and 9s), and upstream roots with every other
    // level cell pinned to upstream's level
    let example = "9909999\n99R9999\n??Y?999\nYRY?R??\nYYYRR??\nRRRYYRY\n";
    let mut puzzles = vec![Diagram::parse(example).unwrap().diagram];
    for (i, d) in spread(18, 6).iter().enumerate() {
        puzzles.push(half_pinned(d, i));
    }
    let mut checked = 0;
    for puzzle in &puzzles {
        let report = solved(puzzle, &Options::default());
        let diagram = found(puzzle, &report);
        if !by_local_search(&report) {
            continue;
        }
        checked += 1;
        let (pinned, free) = pinned_and_free_levels(puzzle, &diagram);
        // what the SAT search's symmetry breaking admits: a level only `?` cells hold
        // has the level below it in use by a `?` cell, or pinned
        for l in 1..10 {
            if free[l] && !pinned[l] && !pinned[l - 1] {
                assert!(
                    free[l - 1],
                    "level {l} without {}:\n{}",
                    l - 1,
                    diagram.to_grid()
                );
            }
        }
        // no level only `?` cells hold merges into the next lower level in use
        for l in 1..10u8 {
            if !free[usize::from(l)] || pinned[usize::from(l)] {
                continue;
            }
            let Some(below) = (0..l)
                .rev()
                .find(|&m| free[usize::from(m)] || pinned[usize::from(m)])
            else {
                continue;
            };
            let mut merged = diagram.clone();
            for x in 0..WIDTH {
                for y in 0..HEIGHT {
                    if puzzle.cell(x, y) == Cell::Undecided && diagram.cell(x, y) == Cell::Level(l)
                    {
                        merged.set(x, y, Cell::Level(below));
                    }
                }
            }
            assert!(
                !Verifier::new().verify(&merged).is_win(),
                "level {l} merges into {below}:\n{}",
                diagram.to_grid()
            );
        }
    }
    assert!(
        checked >= 1,
        "the local search settled none of the pinned puzzles"
    );
}

#[test]
fn a_root_no_diagram_wins_goes_on_to_the_sat_search_which_says_unsat() {
    // Yellow's open three on the bottom row: no diagram stops both ends
    let threats = Diagram::from_root(&Position::from_moves("727364").unwrap(), |_, _| {
        Cell::Undecided
    });
    let report = solved(&threats, &Options::default());
    assert_eq!(report.outcome, Outcome::Unsat);
    assert!(report.local.steps > 0, "the local search ran first");
    assert!(report.rounds > 0, "then the SAT search");
    // with some cells pinned too, the local search gives up as soon as it sees that no
    // move at the root keeps the win (it spent its whole budget, seconds, first)
    let mut pinned = threats.clone();
    for x in [0, 1] {
        for y in 0..HEIGHT {
            if pinned.cell(x, y) == Cell::Undecided {
                pinned.set(x, y, Cell::Level(0));
            }
        }
    }
    let report = solved(&pinned, &Options::default());
    assert_eq!(report.outcome, Outcome::Unsat);
    assert!(report.local.steps > 0, "the local search ran first");
    assert!(report.local.work < 10_000, "{:?}", report.local);
    // with no `?` cell there is nothing to repair: the local search does not run
    for d in spread(22, 2) {
        let mut tied = d.clone();
        for x in 0..WIDTH {
            for y in 0..HEIGHT {
                if matches!(d.cell(x, y), Cell::Level(_)) {
                    tied.set(x, y, Cell::Level(5));
                }
            }
        }
        let report = solved(&tied, &Options::default());
        assert_eq!(report.local, Default::default(), "{}", tied.to_grid());
        let pinned = solved(&d, &Options::default());
        assert_eq!(pinned.outcome, Outcome::Found(d.clone()));
        assert_eq!(pinned.local, Default::default());
    }
}

#[test]
fn the_local_search_keeps_to_its_budget_and_zero_turns_it_off() {
    let Some(d) = spread(22, 1).into_iter().next() else {
        return;
    };
    let puzzle = all_undecided(&d);
    let off = solved(
        &puzzle,
        &Options {
            local_work: 0,
            ..Options::default()
        },
    );
    found(&puzzle, &off);
    assert_eq!(off.local, Default::default());
    // a budget too small for a single repair step: one walk of the tree, then the map
    let tiny = solved(
        &puzzle,
        &Options {
            local_work: 1,
            ..Options::default()
        },
    );
    found(&puzzle, &tiny);
    assert!(tiny.local.steps <= 1, "{:?}", tiny.local);
    assert!(
        tiny.local.work <= 1 + 15 * Options::default().oracle_nodes,
        "{:?}",
        tiny.local
    );
    assert!(tiny.rounds > 0 || tiny.local.steps == 0);
    // the budget holds within a step too: past it by at most two positions' questions
    // (the position a step repairs and the one a walk reached; one a Red move, each a
    // few nodes over its own budget at most), even on the empty board, where each
    // question is dearest (a single step there once took 17 M of work on a budget of 1)
    let empty = open_root("");
    for budget in [1, 1_000_000] {
        let options = Options {
            local_work: budget,
            max_states: 1,
            ..Options::default()
        };
        let report = solved(&empty, &options);
        assert_eq!(report.outcome, Outcome::Budget);
        assert!(
            report.local.work <= budget + 15 * options.oracle_nodes,
            "{budget}: {:?}",
            report.local
        );
    }
    // without the strong solver every move would look sound: no local search
    let blind = solved(
        &puzzle,
        &Options {
            oracle_nodes: 0,
            ..Options::default()
        },
    );
    found(&puzzle, &blind);
    assert_eq!(blind.local.steps, 0);
}

#[test]
fn a_stop_ends_the_local_search_within_its_walk() {
    // a repair step on a large tree takes a core a fifth of a second, and the stop (a
    // time limit, Ctrl-C) was read only between steps: 26 searches sharing two cores
    // overran --max-seconds 0.5 by two seconds
    let stop = Arc::new(AtomicBool::new(false));
    let root = Position::from_moves("4444").unwrap();
    let puzzle = open_root("4444");
    let backend = c4lab_synth::sat::open("batsat", stop.clone()).unwrap();
    let mut enc = c4lab_synth::Encoding::new(&puzzle, &root, backend).unwrap();
    let table = c4lab_synth::complete::ORACLE_TABLE_BYTES;
    enc.use_oracle(table, Options::default().oracle_nodes, stop.clone());
    let mut running = LocalSearch::new(&puzzle, root, 0, Arc::new(AtomicBool::new(false)));
    assert!(running.step(&mut enc).is_none());
    assert!(
        running.work() > 1000,
        "a step walks the tree: {}",
        running.work()
    );
    let mut stopped = LocalSearch::new(&puzzle, root, 0, stop.clone());
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(stopped.step(&mut enc).is_none());
    assert_eq!(stopped.work(), 0, "stopped at the walk's first position");
    assert_eq!(stopped.steps(), 0, "the step is dropped");
}

#[test]
fn another_random_stream_finds_what_the_first_missed() {
    let puzzle = open_root(SECOND_STREAM_ROOT);
    let on = |seed| Options {
        local_seed: seed,
        local_work: STREAM_WORK,
        ..Options::default()
    };
    // stream 0: no find within the budget, the SAT search settles it
    let first = solved(&puzzle, &on(0));
    found(&puzzle, &first);
    assert!(!by_local_search(&first), "{:?}", first.local);
    assert!(first.local.work >= STREAM_WORK, "{:?}", first.local);
    // the default budget of the first search (25 M) lets stream 0 find it, past 10 M
    let longer = solved(&puzzle, &Options::default());
    found(&puzzle, &longer);
    assert!(by_local_search(&longer), "{:?}", longer.local);
    assert!(longer.local.work >= STREAM_WORK, "{:?}", longer.local);
    assert!(longer.local.work < LOCAL_WORK, "{:?}", longer.local);
    // stream 1 finds it, and again exactly so
    let next = solved(&puzzle, &on(1));
    let diagram = found(&puzzle, &next);
    assert!(by_local_search(&next), "{:?}", next.local);
    assert!(next.local.work < STREAM_WORK, "{:?}", next.local);
    let again = solved(&puzzle, &on(1));
    assert_eq!(again.outcome, Outcome::Found(diagram));
    assert_eq!(again.local, next.local);
}

#[test]
fn in_a_race_every_local_search_runs_and_the_least_work_wins_exactly_again() {
    let puzzle = open_root(SECOND_STREAM_ROOT);
    let entrants: Vec<Options> = [0, 3000]
        .iter()
        .enumerate()
        .map(|(i, &w)| entrant(&Options::default(), i, w, None))
        .collect();
    let run = || raced(&puzzle, &entrants);
    let first = run();
    // the second entrant's local search runs from the start on its own stream and finds
    // it (the first's, on stream 0, needs more work for its own find)
    assert_eq!(first.winner, Some(1));
    let winner = &first.entrants[1].report;
    let diagram = found(&puzzle, winner);
    assert!(winner.local.found);
    assert_eq!(first.entrants[1].started_at, 0);
    // it mapped nothing, so no time goes to mapping
    assert_eq!(first.entrants[1].map_seconds, 0.0);
    // the first's local search found nothing with less work: it gave up once its work
    // passed the winner's (or, had the second been slow to start, its SAT search went
    // on and lost to the find whatever its verdict)
    let loser = &first.entrants[0].report;
    assert!(!loser.local.found, "{loser:?}");
    assert!(loser.local.work > winner.local.work, "{loser:?}");
    // alone, the winner's options find the same diagram with the same work, and a
    // second race repeats the first
    let alone = solved(&puzzle, &entrants[1]);
    assert_eq!(alone.outcome, Outcome::Found(diagram.clone()));
    assert_eq!(alone.local, winner.local);
    let again = run();
    assert_eq!(again.winner, Some(1));
    assert_eq!(again.report().outcome, Outcome::Found(diagram));
    assert_eq!(again.report().local, winner.local);
}

/// A ply-16 upstream root (everything `?`) whose SAT search, after a short local
/// search, runs differently from the local search's best diagram than unhinted (found
/// by measuring: 20 against 3 dead ends).
const HINTED_ROOT: &str = "???????\n???????\n???RY??\n???YR??\n??RYRRY\nYYRRRYY\n";

#[test]
fn the_sat_search_starts_from_the_local_search_best_diagram_and_only_after_one() {
    let puzzle = Diagram::parse(HINTED_ROOT).unwrap().diagram;
    let run = |local_work: u64, phase_hint: bool| {
        let options = Options {
            local_work,
            phase_hint,
            ..Options::default()
        };
        let report = solved(&puzzle, &options);
        found(&puzzle, &report);
        assert!(!by_local_search(&report), "{report:?}");
        report
    };
    // a local search too short to find: the hint changes the SAT search's path (and
    // the diagram is found and verifies either way)
    let (hinted, plain) = (run(300_000, true), run(300_000, false));
    assert_ne!(hinted.conflicts, plain.conflicts, "{hinted:?}");
    // the same again: nothing in it depends on timing
    assert_eq!(run(300_000, true).conflicts, hinted.conflicts);
    // no local search, no hint
    assert_eq!(run(0, true).conflicts, run(0, false).conflicts);
    // a race hints its later searches only
    let base = Options::default();
    assert!(!entrant(&base, 0, 0, None).phase_hint);
    assert!(entrant(&base, 1, 3000, None).phase_hint);
    let off = Options {
        phase_hint: false,
        ..base
    };
    assert!(!entrant(&off, 1, 3000, None).phase_hint);
}

#[test]
fn a_race_won_by_the_first_local_search_spends_no_time_mapping() {
    // the first upstream root of the spread that the first search's local search finds
    let roots = spread(20, 12);
    if roots.is_empty() {
        return; // upstream's files are absent (said by `upstream`)
    }
    let puzzle = roots
        .iter()
        .map(all_undecided)
        .find(|p| by_local_search(&solved(p, &Options::default())))
        .expect("the local search finds some of twelve upstream roots");
    // the first entrant alone: its local search runs inside its race thread, before the
    // map would, and its time is not the map's
    let first = [entrant(&Options::default(), 0, 0, None)];
    let r = raced(&puzzle, &first);
    assert_eq!(r.winner, Some(0));
    let e = &r.entrants[0];
    assert!(e.report.local.found, "{e:?}");
    assert_eq!(e.report.mapped, 0, "{e:?}");
    assert_eq!(e.map_seconds, 0.0, "{e:?}");
}

#[test]
fn a_mapping_whose_local_search_found_stays_ended_when_stepped_again() {
    // the eight lowest level cells of examples/win.txt undecided: the local search finds
    // them (a step after that set up the SAT encoding from nothing and said the map
    // had begun)
    let grid = "9909999\n99R9999\n??Y?999\nYRY?R??\nYYYRR??\nRRRYYRY\n";
    let puzzle = c4lab_steady::read_grid(grid).unwrap();
    let mut m = start(
        &puzzle,
        &Options::default(),
        Arc::new(AtomicBool::new(false)),
    )
    .unwrap();
    while !m.step(64).unwrap() {}
    assert!(m.has_verdict());
    for _ in 0..3 {
        assert!(m.step(64).unwrap());
        assert!(m.has_verdict() && !m.in_local());
    }
    let report = m.finish().search().unwrap();
    assert!(matches!(report.outcome, Outcome::Found(_)), "{report:?}");
    assert!(by_local_search(&report), "{report:?}");
}
