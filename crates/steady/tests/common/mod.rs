//! Shared helpers for the steady-state tests: upstream data, random roots and diagrams.
#![allow(dead_code)]

use std::path::PathBuf;

use c4lab_board::Position;
use c4lab_steady::{Cell, Diagram};
use proptest::prelude::*;

/// `shared/data/upstream` beside the repository, or `None` with the reason printed.
pub fn upstream() -> Option<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/upstream");
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).ok();
    match (read("branches.txt"), read("steady_states.txt")) {
        (Some(b), Some(s)) => Some((b, s)),
        _ => {
            eprintln!(
                "skipped: upstream's solution files are not at {}",
                dir.display()
            );
            None
        }
    }
}

/// Plays `choices` (each taken modulo the legal columns) from the empty board for
/// `plies` plies, never completing a four; the result has Red to move when `plies` is even.
pub fn random_root(choices: &[u8], plies: usize) -> Position {
    let mut p = Position::new();
    for &c in choices.iter().take(plies) {
        let legal: Vec<usize> = (0..7)
            .filter(|&x| p.can_play(x) && !p.is_winning_move(x))
            .collect();
        if legal.is_empty() {
            break;
        }
        p.play(legal[c as usize % legal.len()]);
    }
    if p.moves_played() % 2 == 1 {
        // give Red the move back with one more safe Yellow stone, if there is one
        if let Some(x) = (0..7).find(|&x| p.can_play(x) && !p.is_winning_move(x)) {
            p.play(x);
        }
    }
    p
}

/// Strategy: a Red-to-move root without a four, and a level for each of its empty cells
/// (a `max_level` of 14 stands for `?`: a 14 drawn is a `?` cell).
pub fn root_and_levels(
    min_ply: usize,
    max_ply: usize,
    max_level: u8,
) -> impl Strategy<Value = Diagram> {
    (
        proptest::collection::vec(any::<u8>(), 42),
        min_ply..=max_ply,
        proptest::collection::vec(0..=max_level, 42),
    )
        .prop_filter_map(
            "root must be Red to move with no four",
            |(choices, plies, levels)| {
                let root = random_root(&choices, plies);
                if root.moves_played() % 2 == 1 || root.winner().is_some() || root.is_full() {
                    return None;
                }
                let mut next = levels.into_iter();
                Some(Diagram::from_root(&root, |_, _| {
                    match next.next().unwrap_or(9) {
                        14 => Cell::Undecided,
                        l => Cell::Level(l),
                    }
                }))
            },
        )
}

/// Every diagram of upstream's file, translated.
pub fn upstream_diagrams(steady: &str) -> Vec<Diagram> {
    let (leaves, errors) = c4lab_steady::solution::parse_leaves(steady);
    assert!(errors.is_empty(), "{errors:?}");
    leaves.into_iter().map(|l| l.diagram).collect()
}
