//! Phase hints: an encoding built with a hint diagram tries its levels first, so with
//! nothing mapped below the root (every assignment a model) the first model is the hint.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use c4lab_board::Position;
use c4lab_steady::{Cell, Diagram};
use c4lab_synth::{checked_root, sat, Encoding};

/// A root with every empty cell `?` but one pinned at level 4.
fn puzzle() -> Diagram {
    let root = Position::from_moves("4453").unwrap();
    Diagram::from_root(&root, |x, y| match (x, y) {
        (0, 0) => Cell::Level(4),
        _ => Cell::Undecided,
    })
}

/// `puzzle` with every `?` at a level drawn from `seed`.
fn hint(puzzle: &Diagram, seed: u64) -> Diagram {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut d = puzzle.clone();
    for x in 0..7 {
        for y in 0..6 {
            if d.cell(x, y) == Cell::Undecided {
                d.set(x, y, Cell::Level(rng.u8(0..10)));
            }
        }
    }
    d
}

fn first_model(puzzle: &Diagram, hint: Option<&Diagram>, backend: &str) -> Diagram {
    let root = checked_root(puzzle).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let mut enc =
        Encoding::with_phases(puzzle, &root, sat::open(backend, stop).unwrap(), hint).unwrap();
    assert_eq!(enc.backend().solve(&[]).unwrap(), sat::SatOutcome::Sat);
    enc.model_diagram().unwrap()
}

#[test]
fn the_first_model_of_a_hinted_encoding_is_the_hint_on_every_backend() {
    let puzzle = puzzle();
    for backend in sat::backends() {
        let plain = first_model(&puzzle, None, backend);
        for seed in [1, 2, 3] {
            let hint = hint(&puzzle, seed);
            // (a random hint is no model the solver would reach unhinted)
            assert_ne!(plain, hint, "{backend}: seed {seed}");
            assert_eq!(
                first_model(&puzzle, Some(&hint), backend),
                hint,
                "{backend}: seed {seed}"
            );
        }
    }
}
