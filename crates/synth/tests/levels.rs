//! Level symmetry breaking: the clauses of `Encoding::forbid_level_gaps` admit exactly
//! the diagrams without a gap in their levels, and every diagram has a gap-free twin
//! that makes the same decisions, so a search with the clauses misses no winner.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use c4lab_board::{Position, HEIGHT, WIDTH};
use c4lab_steady::{decide, Cell, Diagram};
use c4lab_synth::{checked_root, sat, Encoding};

/// A root with two pinned cells (levels 3 and 7) and every other empty cell `?`.
fn puzzle() -> Diagram {
    let root = Position::from_moves("4453").unwrap();
    Diagram::from_root(&root, |x, y| match (x, y) {
        (0, 0) => Cell::Level(3),
        (6, 5) => Cell::Level(7),
        _ => Cell::Undecided,
    })
}

fn free_cells(d: &Diagram) -> Vec<(usize, usize)> {
    (0..WIDTH)
        .flat_map(|x| (0..HEIGHT).map(move |y| (x, y)))
        .filter(|&(x, y)| d.cell(x, y) == Cell::Undecided)
        .collect()
}

/// The levels held by some cell, and those held by a pinned cell of `puzzle`.
fn held(puzzle: &Diagram, d: &Diagram) -> ([bool; 10], [bool; 10]) {
    let (mut any, mut pinned) = ([false; 10], [false; 10]);
    for x in 0..WIDTH {
        for y in 0..HEIGHT {
            if let Cell::Level(l) = d.cell(x, y) {
                any[usize::from(l)] = true;
                if puzzle.cell(x, y) != Cell::Undecided {
                    pinned[usize::from(l)] = true;
                }
            }
        }
    }
    (any, pinned)
}

/// The first level that could move down: held by `?` cells only, with the level below
/// it held by no cell at all.
fn movable(puzzle: &Diagram, d: &Diagram) -> Option<u8> {
    let (any, pinned) = held(puzzle, d);
    (1..10u8).find(|&l| any[usize::from(l)] && !pinned[usize::from(l)] && !any[usize::from(l) - 1])
}

/// Moves levels down into empty levels until none can move.
fn twin(puzzle: &Diagram, d: &Diagram) -> Diagram {
    let mut out = d.clone();
    while let Some(l) = movable(puzzle, &out) {
        for (x, y) in free_cells(puzzle) {
            if out.cell(x, y) == Cell::Level(l) {
                out.set(x, y, Cell::Level(l - 1));
            }
        }
    }
    out
}

fn random_completion(puzzle: &Diagram, rng: &mut fastrand::Rng) -> Diagram {
    // a few levels at a time, so that gaps are common but not universal
    let palette: Vec<u8> = (0..rng.usize(1..5)).map(|_| rng.u8(0..10)).collect();
    let mut d = puzzle.clone();
    for (x, y) in free_cells(puzzle) {
        d.set(x, y, Cell::Level(palette[rng.usize(..palette.len())]));
    }
    d
}

#[test]
fn the_gap_clauses_admit_exactly_the_diagrams_without_a_gap() {
    let puzzle = puzzle();
    let root = checked_root(&puzzle).unwrap();
    let mut rng = fastrand::Rng::with_seed(7);
    let (mut admitted, mut refused) = (0, 0);
    for backend in sat::backends() {
        let stop = Arc::new(AtomicBool::new(false));
        let mut enc = Encoding::new(&puzzle, &root, sat::open(backend, stop).unwrap()).unwrap();
        enc.forbid_level_gaps().unwrap();
        for _ in 0..300 {
            let d = random_completion(&puzzle, &mut rng);
            let gap_free = movable(&puzzle, &d).is_none();
            let assume = enc.assumptions_for(&d);
            let outcome = enc.backend().solve(&assume).unwrap();
            assert_eq!(
                outcome == sat::SatOutcome::Sat,
                gap_free,
                "{backend} on\n{}",
                d.to_grid()
            );
            if gap_free {
                admitted += 1;
            } else {
                refused += 1;
            }
        }
    }
    assert!(
        admitted >= 50 && refused >= 50,
        "{admitted} admitted, {refused} refused"
    );
}

#[test]
fn every_diagram_has_a_gap_free_twin_that_decides_alike() {
    let puzzle = puzzle();
    let root = checked_root(&puzzle).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let mut enc = Encoding::new(&puzzle, &root, sat::open("batsat", stop).unwrap()).unwrap();
    enc.forbid_level_gaps().unwrap();
    let mut rng = fastrand::Rng::with_seed(11);
    let mut moved = 0;
    for _ in 0..200 {
        let d = random_completion(&puzzle, &mut rng);
        let t = twin(&puzzle, &d);
        moved += usize::from(t != d);
        let assume = enc.assumptions_for(&t);
        assert_eq!(
            enc.backend().solve(&assume).unwrap(),
            sat::SatOutcome::Sat,
            "the twin of\n{}is refused:\n{}",
            d.to_grid(),
            t.to_grid()
        );
        // the same column wherever Red is to move on random lines below the root
        let (a, b) = (d.levels(), t.levels());
        for _ in 0..20 {
            let mut pos = root;
            while !pos.is_full() && pos.winner().is_none() {
                if pos.moves_played() % 2 == root.moves_played() % 2 {
                    let (x, y) = (decide(&pos, &a).column, decide(&pos, &b).column);
                    assert_eq!(x, y, "{}", pos.to_grid());
                }
                let open: Vec<usize> = (0..WIDTH).filter(|&x| pos.can_play(x)).collect();
                pos.play(open[rng.usize(..open.len())]);
            }
        }
    }
    assert!(moved >= 50, "only {moved} diagrams had a gap");
}
