//! Breadth-first mapping: every Red-to-move position below a root, encoded one at a
//! time down to a cut that can later move deeper. Auto-complete's premap and dsat's
//! whole-root map are both this.

use std::collections::VecDeque;

use c4lab_board::Position;
use rustc_hash::FxHashSet;

use crate::encoding::key;
use crate::{Encoding, SynthError};

/// A breadth-first walk of the positions below a root, down to a cut (exclusive).
pub struct BreadthFirst {
    seen: FxHashSet<u64>,
    queue: VecDeque<(u64, u64)>,
    /// Positions reached at the cut: reachability variables but no clauses yet.
    frontier: Vec<(u64, u64)>,
    cut: u32,
    /// Positions this many plies or fewer above the cut are encoded unasked.
    unasked_plies: u32,
}

impl BreadthFirst {
    /// A walk from `root` encoding the positions with fewer than `cut` stones.
    pub fn new(root: &Position, cut: u32) -> BreadthFirst {
        let start = (root.current(), root.mask());
        BreadthFirst {
            seen: FxHashSet::from_iter([key(start.0, start.1)]),
            queue: VecDeque::from([start]),
            frontier: Vec::new(),
            cut,
            unasked_plies: 0,
        }
    }

    /// Leaves the strong solver's questions about the positions at most `plies` above
    /// the cut (whichever cut the walk is at) to the candidates that reach them (see
    /// [`Encoding::encode_unasked`]; 0, the default, asks about every position).
    pub fn leave_unasked(&mut self, plies: u32) {
        self.unasked_plies = plies;
    }

    /// The cut: positions with this many stones or more are left to a deepening.
    pub fn cut(&self) -> u32 {
        self.cut
    }

    /// Encodes the next position above the cut; false once none is left. A position
    /// encoded before (say on a losing line) is not encoded again, but the walk goes on
    /// below it (and asks about its moves, if they were left unasked and it is now far
    /// enough above the cut).
    pub fn step(&mut self, enc: &mut Encoding) -> Result<bool, SynthError> {
        while let Some((red, mask)) = self.queue.pop_front() {
            let stones = mask.count_ones();
            if stones >= self.cut {
                self.frontier.push((red, mask));
                continue;
            }
            let ask = stones.saturating_add(self.unasked_plies) < self.cut;
            let children = if enc.is_encoded(red, mask) {
                if ask {
                    enc.encode(red, mask)?;
                }
                enc.encoded_children(red, mask)
            } else if ask {
                enc.encode(red, mask)?
            } else {
                enc.encode_unasked(red, mask)?
            };
            for (cr, cm) in children {
                if self.seen.insert(key(cr, cm)) {
                    self.queue.push_back((cr, cm));
                }
            }
            return Ok(true);
        }
        Ok(false)
    }

    /// True once nothing above the cut is left to encode.
    pub fn is_done(&self) -> bool {
        self.queue.is_empty()
    }

    /// Moves the positions at the cut from the head of the queue to the frontier (as
    /// [`BreadthFirst::step`] would, encoding nothing), so that [`BreadthFirst::is_done`]
    /// tells a map that is complete from one with positions left to encode.
    pub fn settle(&mut self) {
        while let Some(&(red, mask)) = self.queue.front() {
            if mask.count_ones() < self.cut {
                break;
            }
            self.frontier.push((red, mask));
            self.queue.pop_front();
        }
    }

    /// Drops what is still queued (it stays unmapped, left to the losing lines).
    pub fn abandon(&mut self) {
        self.queue.clear();
    }

    /// Moves the cut to `cut` stones: the positions at the old cut are queued again.
    pub fn deepen(&mut self, cut: u32) {
        self.cut = self.cut.max(cut);
        self.queue.extend(self.frontier.drain(..));
    }
}
