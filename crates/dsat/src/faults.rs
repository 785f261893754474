//! Fault-directed learning: after a refuted candidate, the paths to the positions where
//! it goes wrong are encoded, wherever in its tree they lie.
//!
//! The verifier names one losing line of a candidate, and whole-tree learning encodes
//! the positions it reaches nearest the root; a candidate that wins on the map fails
//! below its cut, often in many places deep down that neither reaches. This walks the
//! candidate's tree breadth first, with the strong solver judging each Red move (as the
//! local search does), and stops at its first faults: positions where it names no
//! move, or one that does not keep the win (or after which a Yellow reply wins or fills
//! the board). Each fault and the positions on its path from the root are encoded, so
//! the next candidate must play otherwise at every one of them, not at the one the
//! verifier happened to name (see `docs/dsat.md`, "Learning the paths to a candidate's
//! faults").

use c4lab_board::{each_cell, has_four, BOARD_MASK};
use c4lab_steady::agent::{choose, Choice};
use c4lab_steady::Diagram;
use c4lab_synth::encoding::{key, playable};
use c4lab_synth::{Encoding, SynthError};
use rustc_hash::FxHashSet;

/// Positions one walk may reach (queue) before it stops looking for faults (`c4lab dsat
/// --help` names it under `--fault-paths`).
const WALK_CAP: usize = 100_000;

/// Encodes the paths from the root to the first `faults` faults (breadth first) of
/// `candidate`'s tree; returns how many faults were found.
pub(crate) fn learn_fault_paths(
    enc: &mut Encoding,
    candidate: &Diagram,
    faults: usize,
) -> Result<usize, SynthError> {
    let root = *enc.root();
    let levels = candidate.levels();
    // (red, mask, index of the position above it; usize::MAX at the root)
    let mut nodes: Vec<(u64, u64, usize)> = vec![(root.current(), root.mask(), usize::MAX)];
    let mut seen: FxHashSet<u64> = FxHashSet::default();
    seen.insert(key(root.current(), root.mask()));
    let mut found = Vec::new();
    let mut next = 0;
    while next < nodes.len() && nodes.len() <= WALK_CAP && found.len() < faults {
        let me = next;
        next += 1;
        let (red, mask, _) = nodes[me];
        let cell = match choose(red, mask, &levels) {
            Choice::Win => continue,
            Choice::Block(cell) | Choice::Level(cell, _) => Some(cell),
            Choice::NoMove => None,
        };
        let sound = cell.filter(|&c| {
            enc.oracle_keeps_win(red, mask, c).unwrap_or(true) && no_reply_ends_it(red, mask, c)
        });
        let Some(c) = sound else {
            found.push(me);
            continue;
        };
        let (red2, mask2) = (red | c, mask | c);
        for y in each_cell(playable(mask2)) {
            if seen.insert(key(red2, mask2 | y)) {
                nodes.push((red2, mask2 | y, me));
            }
        }
    }
    // each path from the top, so every position is encoded below an encoded parent
    // (a position is linked to the parents encoded before it)
    let mut path = Vec::new();
    for &fault in &found {
        path.clear();
        let mut i = fault;
        while i != usize::MAX {
            let (red, mask, up) = nodes[i];
            path.push((red, mask));
            i = up;
        }
        for &(red, mask) in path.iter().rev() {
            enc.encode(red, mask)?;
        }
    }
    Ok(found.len())
}

/// False when a Yellow reply to Red playing `cell` wins or fills the board (a move an
/// unanswered strong-solver question let through).
pub(crate) fn no_reply_ends_it(red: u64, mask: u64, cell: u64) -> bool {
    let (red2, mask2) = (red | cell, mask | cell);
    each_cell(playable(mask2)).all(|y| !has_four((mask2 ^ red2) | y) && mask2 | y != BOARD_MASK)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    use c4lab_board::Position;
    use c4lab_steady::{Cell, Verifier};
    use c4lab_synth::sat::{open, SatOutcome};
    use c4lab_synth::BreadthFirst;

    use super::*;

    /// The root of the source's hard parity example, every cell `?`, mapped 2 plies
    /// deep with the strong solver as the oracle.
    fn shallow_map() -> (Diagram, Encoding) {
        let root = Position::from_moves("4521224144424221").unwrap();
        let puzzle = Diagram::from_root(&root, |_, _| Cell::Undecided);
        let stop = Arc::new(AtomicBool::new(false));
        let mut enc = Encoding::new(&puzzle, &root, open("batsat", stop.clone()).unwrap()).unwrap();
        enc.use_oracle(16 << 20, 100_000, stop);
        let mut map = BreadthFirst::new(&root, root.moves_played() + 2);
        while !map.step(&mut enc).unwrap() {}
        (puzzle, enc)
    }

    #[test]
    fn a_candidate_whose_fault_paths_are_learnt_cannot_come_back() {
        let (_, mut enc) = shallow_map();
        assert_eq!(enc.backend().solve(&[]).unwrap(), SatOutcome::Sat);
        let candidate = enc.model_diagram().unwrap();
        // it wins on the 2-ply map but loses below it
        assert!(!Verifier::new().verify(&candidate).is_win());
        let before = enc.stats().positions;
        let faults = learn_fault_paths(&mut enc, &candidate, 16).unwrap();
        assert!(faults > 0 && faults <= 16, "{faults} faults");
        assert!(enc.stats().positions > before);
        // its levels are no longer a model: at one of the encoded faults it goes wrong
        let assumed = enc.assumptions_for(&candidate);
        assert_eq!(enc.backend().solve(&assumed).unwrap(), SatOutcome::Unsat);
    }

    #[test]
    fn no_fault_is_looked_for_past_the_count_asked() {
        let (_, mut enc) = shallow_map();
        assert_eq!(enc.backend().solve(&[]).unwrap(), SatOutcome::Sat);
        let candidate = enc.model_diagram().unwrap();
        assert_eq!(learn_fault_paths(&mut enc, &candidate, 1).unwrap(), 1);
        assert_eq!(learn_fault_paths(&mut enc, &candidate, 0).unwrap(), 0);
    }
}
