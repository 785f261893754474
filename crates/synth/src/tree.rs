//! The positions a diagram reaches: a breadth-first walk of its game tree, and whole-tree
//! learning, which encodes what a losing candidate reaches (the nearest the root first)
//! so that no later candidate can repeat its mistakes anywhere in that tree.

use std::sync::atomic::{AtomicBool, Ordering};

use c4lab_board::{column_mask, Position};
use c4lab_steady::{decide, Diagram};
use rustc_hash::FxHashSet;

use crate::encoding::{after_red_move, key, playable, MoveOutcome};
use crate::{Encoding, SynthError};

/// Visits every Red-to-move position `diagram` reaches from `root` once, breadth first
/// (the nearest the root first; nothing below a move that loses at once or a position
/// where it names no move), until `visit` returns false. A capped walk thus stops at
/// the positions nearest the root, whose clauses constrain every line through them.
pub fn walk_tree(
    root: &Position,
    diagram: &Diagram,
    mut visit: impl FnMut(u64, u64) -> Result<bool, SynthError>,
) -> Result<(), SynthError> {
    let levels = diagram.levels();
    let mut queue = std::collections::VecDeque::from([(root.current(), root.mask())]);
    let mut visited: FxHashSet<u64> = FxHashSet::default();
    while let Some((red, mask)) = queue.pop_front() {
        if !visited.insert(key(red, mask)) {
            continue;
        }
        if !visit(red, mask)? {
            break;
        }
        let pos = Position::from_bitboards(red, mask ^ red);
        let Some(x) = decide(&pos, &levels).column else {
            continue;
        };
        if pos.is_winning_move(x) {
            continue;
        }
        let cell = playable(mask) & column_mask(x);
        if let MoveOutcome::Children(children) = after_red_move(red, mask, cell) {
            queue.extend(children);
        }
    }
    Ok(())
}

/// Encodes the positions `candidate` reaches from the encoding's root that are not encoded
/// yet, breadth first, at most `cap` of them (with a cap of 0, nothing: no walk), and
/// asks the strong solver about the moves of those it passes that a map encoded unasked.
/// The walk ends early once `stop` is raised.
pub fn learn_tree(
    enc: &mut Encoding,
    candidate: &Diagram,
    cap: usize,
    stop: &AtomicBool,
) -> Result<(), SynthError> {
    if cap == 0 {
        return Ok(());
    }
    let root = *enc.root();
    let mut added = 0;
    walk_tree(&root, candidate, |red, mask| {
        if stop.load(Ordering::Relaxed) {
            return Ok(false);
        }
        if !enc.is_encoded(red, mask) {
            if added == cap {
                return Ok(false);
            }
            added += 1;
        }
        // (an encoded position is asked about its moves, if it was not yet)
        enc.encode(red, mask)?;
        Ok(true)
    })
}
