//! Auto-complete against real data: upstream diagrams with cells undecided come back
//! completed and verified; impossible instances come back UNSAT; the CEGIS invariant
//! holds round by round.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use c4lab_board::{Position, HEIGHT, WIDTH};
use c4lab_steady::{Cell, Diagram, Verdict, Verifier};
use c4lab_synth::{
    line_positions, sat, undecide, walk_tree, Completer, Completion, Encoding, Learn, Options, Step,
};
use rustc_hash::FxHashSet;

/// Upstream's diagrams whose roots hold 16 or more stones (the scope of the benchmark;
/// shallower roots have trees too large for a quick test).
fn upstream_diagrams() -> Vec<Diagram> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/upstream/steady_states.txt");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!(
            "skipped: upstream's steady_states.txt is not at {}",
            path.display()
        );
        return Vec::new();
    };
    let (leaves, errors) = c4lab_steady::solution::parse_leaves(&text);
    assert!(errors.is_empty(), "{errors:?}");
    c4lab_steady::solution::diagrams_with_plies(leaves, 16..=u32::MAX)
}

fn options(backend: &str, learn: Learn, seed: u64) -> Options {
    Options {
        seed,
        learn,
        backend: backend.to_string(),
        ..Options::default()
    }
}

fn run(diagram: &Diagram, opts: Options) -> Completion {
    let mut c = Completer::new(diagram, opts, Arc::new(AtomicBool::new(false))).unwrap();
    c.run(|_| {}).unwrap()
}

fn assert_completes(puzzle: &Diagram, found: &Completion) {
    let Completion::Found { diagram, .. } = found else {
        panic!(
            "expected a completion of\n{}\ngot {found:?}",
            puzzle.to_grid()
        );
    };
    assert!(Verifier::new().verify(diagram).is_win());
    for x in 0..WIDTH {
        for y in 0..HEIGHT {
            match puzzle.cell(x, y) {
                Cell::Undecided => {
                    assert!(
                        matches!(diagram.cell(x, y), Cell::Level(0..=9)),
                        "({x},{y})"
                    )
                }
                fixed => assert_eq!(diagram.cell(x, y), fixed, "decided cell ({x},{y}) changed"),
            }
        }
    }
}

#[test]
fn upstream_diagrams_with_undecided_cells_are_completed_on_every_backend() {
    let all = upstream_diagrams();
    for backend in sat::backends() {
        // CaDiCaL is the slower backend on these small incremental calls
        let ks: &[usize] = if *backend == "batsat" {
            &[4, 8, 12]
        } else {
            &[4, 8]
        };
        for (i, d) in all.iter().step_by(60).enumerate() {
            for &k in ks {
                let puzzle = undecide(d, k, i as u64 * 31 + k as u64);
                let found = run(&puzzle, options(backend, Learn::Positions, 7));
                assert_completes(&puzzle, &found);
            }
        }
    }
}

#[test]
fn the_blocking_clause_also_completes_small_instances() {
    let all = upstream_diagrams();
    for (i, d) in all.iter().step_by(90).enumerate() {
        let puzzle = undecide(d, 4, i as u64);
        let found = run(&puzzle, options(sat::backends()[0], Learn::Blocking, 3));
        assert_completes(&puzzle, &found);
    }
}

/// Late roots that the strong solver scores as not won for Red, every empty cell `?`.
fn lost_roots() -> Vec<Diagram> {
    let mut solver = c4lab_solver::Solver::new(1 << 20);
    let mut rng = fastrand::Rng::with_seed(5);
    let mut out = Vec::new();
    while out.len() < 4 {
        let mut p = Position::new();
        let mut ok = true;
        while p.moves_played() < 30 {
            let legal: Vec<usize> = (0..WIDTH)
                .filter(|&x| p.can_play(x) && !p.is_winning_move(x))
                .collect();
            if legal.is_empty() {
                ok = false;
                break;
            }
            p.play(legal[rng.usize(..legal.len())]);
        }
        if !ok || p.winning_moves() != 0 || solver.solve(&p) > 0 {
            continue;
        }
        out.push(Diagram::from_root(&p, |_, _| Cell::Undecided));
    }
    out
}

#[test]
fn roots_that_are_not_won_are_unsat_on_every_backend() {
    for backend in sat::backends() {
        for puzzle in lost_roots() {
            assert_eq!(
                run(&puzzle, options(backend, Learn::Positions, 1)),
                Completion::Unsat,
                "{}",
                puzzle.to_grid()
            );
        }
    }
}

#[test]
fn two_yellow_threats_make_any_completion_unsat() {
    // Yellow holds columns 2-4 of the bottom row (threats at 1 and 5); Red cannot win at once
    let root = Position::from_moves("727364").unwrap();
    assert_eq!(root.opponent_winning_moves().count_ones(), 2);
    let puzzle = Diagram::from_root(&root, |_, _| Cell::Undecided);
    assert_eq!(run(&puzzle, Options::default()), Completion::Unsat);
}

#[test]
fn every_candidate_is_new_and_excluded_by_what_it_taught() {
    let all = upstream_diagrams();
    for learn in [Learn::Positions, Learn::Tree, Learn::Blocking] {
        let mut refuted = 0;
        for (i, d) in all.iter().step_by(70).enumerate() {
            let puzzle = undecide(d, 8, 100 + i as u64);
            let opts = options(sat::backends()[0], learn, 11);
            let mut c = Completer::new(&puzzle, opts, Arc::new(AtomicBool::new(false))).unwrap();
            let mut seen: FxHashSet<Diagram> = FxHashSet::default();
            for _ in 0..400 {
                match c.step().unwrap() {
                    Step::Refuted => {
                        let (candidate, _) = c.progress().live.clone().unwrap();
                        assert!(seen.insert(candidate.clone()), "a candidate repeated");
                        assert!(c.excludes(&candidate).unwrap(), "{}", candidate.to_grid());
                        refuted += 1;
                    }
                    Step::Done(done) => {
                        assert_completes(&puzzle, &done);
                        break;
                    }
                }
            }
        }
        assert!(
            all.is_empty() || refuted >= 5,
            "{learn:?}: only {refuted} refuted candidates were checked"
        );
    }
}

#[test]
fn a_raised_stop_flag_stops_the_search() {
    let root = Position::from_moves("4444").unwrap();
    let puzzle = Diagram::from_root(&root, |_, _| Cell::Undecided);
    let stop = Arc::new(AtomicBool::new(true));
    let mut c = Completer::new(&puzzle, Options::default(), stop).unwrap();
    assert_eq!(c.run(|_| {}).unwrap(), Completion::Stopped);
}

#[test]
fn bad_roots_and_unknown_backends_are_refused() {
    let floating = Diagram::parse("???????\n???????\n???????\n???????\n??R????\n???????\n")
        .unwrap()
        .diagram;
    let err = Completer::new(
        &floating,
        Options::default(),
        Arc::new(AtomicBool::new(false)),
    )
    .err()
    .expect("a floating stone is refused");
    assert!(err.to_string().contains("root"), "{err}");
    let empty = Diagram::from_root(&Position::new(), |_, _| Cell::Undecided);
    let err = Completer::new(
        &empty,
        options("minisat", Learn::Positions, 1),
        Arc::new(AtomicBool::new(false)),
    )
    .err()
    .expect("unknown backend");
    assert!(err.to_string().contains("minisat"), "{err}");
}

/// Asserts that no model of `enc` plays `wrong`'s levels.
fn assert_excluded(enc: &mut Encoding, wrong: &Diagram) {
    let assume = enc.assumptions_for(wrong);
    assert_eq!(
        enc.backend().solve(&assume).unwrap(),
        sat::SatOutcome::Unsat,
        "{}",
        wrong.to_grid()
    );
}

#[test]
fn the_encoding_admits_winning_diagrams_and_excludes_refuted_ones() {
    let (mut admitted, mut excluded) = (0, 0);
    for (i, d) in upstream_diagrams().iter().step_by(60).enumerate() {
        let puzzle = undecide(d, 16, 500 + i as u64);
        // the upstream diagram must be a completion over levels 0-9
        let free = (0..WIDTH)
            .flat_map(|x| (0..HEIGHT).map(move |y| (x, y)))
            .filter(|&(x, y)| puzzle.cell(x, y) == Cell::Undecided);
        if free
            .clone()
            .any(|(x, y)| !matches!(d.cell(x, y), Cell::Level(0..=9)))
        {
            continue;
        }
        let root = c4lab_synth::checked_root(&puzzle).unwrap();
        for &backend in sat::backends() {
            let stop = Arc::new(AtomicBool::new(false));
            let mut enc = Encoding::new(&puzzle, &root, sat::open(backend, stop).unwrap()).unwrap();
            // a winning diagram satisfies the clauses of every position it reaches
            walk_tree(&root, d, |red, mask| enc.encode(red, mask).map(|_| true)).unwrap();
            let assume = enc.assumptions_for(d);
            assert_eq!(enc.backend().solve(&assume).unwrap(), sat::SatOutcome::Sat);
            admitted += 1;
            // a diagram the verifier refutes is excluded once its losing line is encoded
            let mut rng = fastrand::Rng::with_seed(i as u64);
            for _ in 0..6 {
                let mut wrong = d.clone();
                for (x, y) in free.clone() {
                    if rng.u8(0..4) == 0 {
                        wrong.set(x, y, Cell::Level(rng.u8(0..10)));
                    }
                }
                let Verdict::Loss { counterexample, .. } = Verifier::new().verify(&wrong) else {
                    continue;
                };
                for pos in line_positions(&root, &counterexample) {
                    enc.encode(pos.current(), pos.mask()).unwrap();
                }
                assert_excluded(&mut enc, &wrong);
                excluded += 1;
            }
        }
    }
    assert!(
        upstream_diagrams().is_empty() || (admitted >= 10 && excluded >= 10),
        "only {admitted} admitted and {excluded} excluded"
    );
}

#[test]
fn the_clauses_do_not_depend_on_the_order_positions_are_encoded() {
    // a position gets its reachability literal only when encoded, and the clauses from
    // its parents encoded before it are added then: encoding root first, deepest first
    // or shuffled must admit the winner and exclude each refuted diagram alike
    let (mut admitted, mut excluded) = (0, 0);
    for (i, d) in upstream_diagrams().iter().step_by(40).enumerate() {
        let puzzle = undecide(d, 16, 900 + i as u64);
        if (0..WIDTH)
            .flat_map(|x| (0..HEIGHT).map(move |y| (x, y)))
            .any(|(x, y)| {
                puzzle.cell(x, y) == Cell::Undecided && !matches!(d.cell(x, y), Cell::Level(0..=9))
            })
        {
            continue;
        }
        let root = c4lab_synth::checked_root(&puzzle).unwrap();
        let fresh = || {
            let stop = Arc::new(AtomicBool::new(false));
            Encoding::new(&puzzle, &root, sat::open("batsat", stop).unwrap()).unwrap()
        };
        let mut tree = Vec::new();
        walk_tree(&root, d, |red, mask| {
            tree.push((red, mask));
            Ok(true)
        })
        .unwrap();
        let mut rng = fastrand::Rng::with_seed(i as u64);
        let orders = |rng: &mut fastrand::Rng, mut items: Vec<(u64, u64)>| {
            let mut out = vec![items.clone()];
            items.reverse();
            out.push(items.clone());
            rng.shuffle(&mut items);
            out.push(items);
            out
        };
        for order in orders(&mut rng, tree) {
            let mut enc = fresh();
            for (red, mask) in order {
                enc.encode(red, mask).unwrap();
            }
            let assume = enc.assumptions_for(d);
            assert_eq!(enc.backend().solve(&assume).unwrap(), sat::SatOutcome::Sat);
            admitted += 1;
        }
        for _ in 0..8 {
            let mut wrong = d.clone();
            for x in 0..WIDTH {
                for y in 0..HEIGHT {
                    if puzzle.cell(x, y) == Cell::Undecided && rng.u8(0..4) == 0 {
                        wrong.set(x, y, Cell::Level(rng.u8(0..10)));
                    }
                }
            }
            let Verdict::Loss { counterexample, .. } = Verifier::new().verify(&wrong) else {
                continue;
            };
            // the losing line alone, in each order, into a fresh encoding
            let line = line_positions(&root, &counterexample)
                .iter()
                .map(|p| (p.current(), p.mask()))
                .collect();
            for order in orders(&mut rng, line) {
                let mut enc = fresh();
                for (red, mask) in order {
                    enc.encode(red, mask).unwrap();
                }
                assert_excluded(&mut enc, &wrong);
                excluded += 1;
            }
        }
    }
    assert!(
        upstream_diagrams().is_empty() || (admitted >= 15 && excluded >= 30),
        "only {admitted} admitted and {excluded} excluded"
    );
}

#[test]
fn the_root_is_mapped_before_the_first_candidate_and_deepened_later() {
    let Some(d) = upstream_diagrams().into_iter().nth(5) else {
        return;
    };
    let puzzle = undecide(&d, 14, 7);
    let with = |premap_plies, deepen_after, deepen_to_plies| {
        let opts = Options {
            premap_plies,
            deepen_after,
            deepen_to_plies,
            ..Options::default()
        };
        Completer::new(&puzzle, opts, Arc::new(AtomicBool::new(false))).unwrap()
    };
    // only the root, or every position fewer than 4 or 8 plies below it
    let none = with(0, u64::MAX, 0).progress().positions;
    let shallow = with(4, u64::MAX, 0).progress().positions;
    let deep = with(8, u64::MAX, 0).progress().positions;
    assert_eq!(none, 1);
    assert!(none < shallow && shallow < deep, "{none} {shallow} {deep}");
    // near the empty board no strong-solver question is answered within its budget, so
    // the map stops after a few positions and the first candidate comes at once
    let empty = Diagram::from_root(&Position::new(), |_, _| Cell::Undecided);
    let wide = Completer::new(&empty, Options::default(), Arc::new(AtomicBool::new(false)));
    assert!(wide.unwrap().progress().positions < 10);
    // a map of 4 plies deepened to 8 before the first candidate holds the 8-ply map
    let mut c = with(4, 0, 8);
    let step = c.step().unwrap();
    assert!(c.progress().positions >= deep);
    if let Step::Done(done) = step {
        assert_completes(&puzzle, &done);
    } else {
        assert_completes(&puzzle, &c.run(|_| {}).unwrap());
    }
}

#[test]
fn from_tree_after_on_a_refuted_candidate_teaches_every_position_it_reaches() {
    let Some(d) = upstream_diagrams().into_iter().nth(5) else {
        return;
    };
    let puzzle = undecide(&d, 14, 7);
    let first_round = |tree_after| {
        let opts = Options {
            premap_plies: 0,
            deepen_after: u64::MAX,
            tree_after,
            ..Options::default()
        };
        let mut c = Completer::new(&puzzle, opts, Arc::new(AtomicBool::new(false))).unwrap();
        assert_eq!(
            c.step().unwrap(),
            Step::Refuted,
            "the bare root's first candidate loses"
        );
        let (candidate, _) = c.progress().live.clone().unwrap();
        (candidate, c.progress().positions)
    };
    // never: only the losing line is learnt; from the first candidate on: its whole tree
    let (lines_candidate, lines) = first_round(0);
    let (candidate, trees) = first_round(1);
    assert_eq!(lines_candidate, candidate, "the same first candidate");
    let root = puzzle.root().unwrap().position;
    let mut reached = 0;
    walk_tree(&root, &candidate, |_, _| {
        reached += 1;
        Ok(true)
    })
    .unwrap();
    assert!(lines < trees, "{lines} {trees}");
    assert!(
        trees >= reached.min(Options::default().tree_cap as u64),
        "{trees} of {reached}"
    );
}

#[test]
fn a_tree_walk_visits_the_positions_nearest_the_root_first() {
    // a capped walk (what whole-tree learning encodes a round) must stop at the
    // shallowest positions; a depth-first walk would spend its cap down one line
    let mut checked = 0;
    for d in upstream_diagrams().iter().step_by(97).take(8) {
        let root = d.root().unwrap().position;
        let mut plies = Vec::new();
        walk_tree(&root, d, |_, mask| {
            plies.push(mask.count_ones());
            Ok(true)
        })
        .unwrap();
        assert!(plies.windows(2).all(|w| w[0] <= w[1]), "{plies:?}");
        // and it reaches every ply the diagram's tree spans
        let (first, last) = (plies[0], *plies.last().unwrap());
        assert_eq!(first, root.moves_played());
        assert!((first..=last).step_by(2).all(|p| plies.contains(&p)));
        checked += (plies.len() > 10) as u32;
    }
    assert!(checked > 0 || upstream_diagrams().is_empty());
}

#[test]
fn losing_cores_exclude_each_candidate_and_admit_every_winner() {
    // cores learnt from the first candidate on: each refuted candidate is excluded and
    // the upstream diagram, a known win, never is (a core holds for every winner)
    let all = upstream_diagrams();
    let (mut cores, mut checked) = (0, 0);
    for (i, d) in all.iter().step_by(20).enumerate() {
        let puzzle = undecide(d, 20, 900 + i as u64);
        let levels_in_range = (0..WIDTH)
            .flat_map(|x| (0..HEIGHT).map(move |y| (x, y)))
            .filter(|&(x, y)| puzzle.cell(x, y) == Cell::Undecided)
            .all(|(x, y)| matches!(d.cell(x, y), Cell::Level(0..=9)));
        if !levels_in_range {
            continue;
        }
        let opts = Options {
            lost_budget: 2_000,
            lost_after: 0,
            ..options(sat::backends()[0], Learn::Positions, 5)
        };
        let mut c = Completer::new(&puzzle, opts, Arc::new(AtomicBool::new(false))).unwrap();
        for _ in 0..40 {
            match c.step().unwrap() {
                Step::Refuted => {
                    let (candidate, _) = c.progress().live.clone().unwrap();
                    assert!(c.excludes(&candidate).unwrap(), "{}", candidate.to_grid());
                    assert!(
                        !c.excludes(d).unwrap(),
                        "what was learnt excludes the winning upstream diagram\n{}",
                        d.to_grid()
                    );
                    checked += 1;
                }
                Step::Done(done) => {
                    assert_completes(&puzzle, &done);
                    break;
                }
            }
        }
        cores += c.progress().cores;
    }
    assert!(
        all.is_empty() || (cores >= 10 && checked >= 10),
        "only {cores} cores and {checked} refuted candidates"
    );
}

#[test]
fn a_losing_core_loses_whatever_the_other_cells_hold() {
    // the core at each position of a refuted candidate's losing line: random diagrams
    // that keep the core's levels (every other `?` cell at random) lose from there too
    let all = upstream_diagrams();
    let mut rng = fastrand::Rng::with_seed(3);
    let (mut cores, mut samples) = (0, 0);
    for (i, d) in all.iter().step_by(20).enumerate() {
        let puzzle = undecide(d, 20, 1300 + i as u64);
        let opts = Options {
            lost_budget: 2_000,
            ..options(sat::backends()[0], Learn::Positions, 5)
        };
        let mut c = Completer::new(&puzzle, opts, Arc::new(AtomicBool::new(false))).unwrap();
        let Step::Refuted = c.step().unwrap() else {
            continue;
        };
        let (candidate, cx) = c.progress().live.clone().unwrap();
        let root = puzzle.root().unwrap().position;
        for pos in line_positions(&root, &cx).iter().rev() {
            let Some(core) = c.losing_core(pos, &candidate).unwrap() else {
                break;
            };
            cores += 1;
            for _ in 0..8 {
                let sample = Diagram::from_root(pos, |x, y| match puzzle.cell(x, y) {
                    Cell::Undecided => match core.iter().find(|&&(cx, cy, _)| (cx, cy) == (x, y)) {
                        Some(&(_, _, l)) => Cell::Level(l),
                        None => Cell::Level(rng.u8(0..10)),
                    },
                    other => other,
                });
                let verdict = Verifier::new().verify(&sample);
                assert!(
                    matches!(verdict, Verdict::Loss { .. }),
                    "core {core:?} at {} stones, yet this wins:\n{}",
                    pos.moves_played(),
                    sample.to_grid()
                );
                samples += 1;
            }
        }
    }
    assert!(
        all.is_empty() || (cores >= 10 && samples >= 80),
        "only {cores} cores, {samples} samples"
    );
}
