//! Helpers the dsat test files share: upstream's roots, with their level cells undecided.

use std::path::PathBuf;

use c4lab_board::{HEIGHT, WIDTH};
use c4lab_dsat::Options;
use c4lab_steady::{Cell, Diagram};

/// The default options without the local search, for the tests of the SAT search.
#[allow(dead_code)] // not every test file tests the SAT search
pub fn sat_only() -> Options {
    Options {
        local_work: 0,
        ..Options::default()
    }
}

/// Upstream diagrams whose roots hold at least `min_ply` stones (empty when the files are absent).
pub fn upstream(min_ply: u32) -> Vec<Diagram> {
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
    c4lab_steady::solution::diagrams_with_plies(leaves, min_ply..=u32::MAX)
}

/// `n` upstream diagrams of ply `min_ply`+, spread evenly over them (none when the
/// files are absent, never fewer otherwise, so a loop over them cannot quietly shrink).
pub fn spread(min_ply: u32, n: usize) -> Vec<Diagram> {
    let all = upstream(min_ply);
    if all.is_empty() {
        return all;
    }
    assert!(
        all.len() >= n,
        "only {} upstream roots of ply {min_ply}+",
        all.len()
    );
    let step = all.len() / n;
    all.into_iter().step_by(step).take(n).collect()
}

/// `d` with every level cell `?`.
pub fn all_undecided(d: &Diagram) -> Diagram {
    let mut out = d.clone();
    for x in 0..WIDTH {
        for y in 0..HEIGHT {
            if matches!(d.cell(x, y), Cell::Level(_)) {
                out.set(x, y, Cell::Undecided);
            }
        }
    }
    out
}

/// The levels a diagram's cells hold, lowest first.
#[allow(dead_code)] // not every test file looks at levels
pub fn levels_used(d: &Diagram) -> std::collections::BTreeSet<u8> {
    d.cells()
        .iter()
        .filter_map(|c| match c {
            Cell::Level(l) => Some(*l),
            _ => None,
        })
        .collect()
}
