//! Local search over diagrams, before the SAT map: repair the positions where the
//! diagram goes wrong, one cell change at a time, with the strong solver as the judge
//! of each Red move.
//!
//! A diagram's *faults* are the Red-to-move positions it reaches from the root where it
//! names no move, or names one the strong solver proves does not keep the win (or one
//! after which a Yellow reply wins or fills the board). The walk does not stop at a
//! fault: it goes on below it with the winning move of the lowest level, so the count
//! covers the whole tree the diagram would face once repaired there, and a repair that
//! uncovers deeper faults scores worse. A diagram with no fault wins whenever every
//! answer was exact; it is accepted only once the verifier confirms it.
//!
//! Each step picks a fault (sometimes one of the positions above it), lists the changes
//! of its playable `?` cells' levels that make it play a move that keeps the win (one
//! cell, or when none does, that cell made the lowest unique level and the other
//! playable cells at or below its level raised), and takes the one that leaves the
//! fewest faults, or at random now and then; a change just undone is barred for a few
//! steps. The random choices come from a fixed-seed generator, and the work is counted
//! in positions walked plus the strong solver's nodes, so a run does not depend on
//! timing and the native and browser builds agree. Searches with different seeds draw
//! different streams and try different repairs (a race gives each entrant its own).
//! No SAT solver is involved, so this can only find a diagram, never prove there is
//! none: the SAT search runs after it (see `docs/dsat.md`, "Local search first").

use c4lab_board::{cell_bit, each_cell, winning_cells, Position, HEIGHT, WIDTH};
use c4lab_steady::agent::{choose, Choice};
use c4lab_steady::{Cell, Diagram, Levels, Verifier};
use c4lab_synth::encoding::{key, playable};
use c4lab_synth::Encoding;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::answers::Answers;
use crate::faults::no_reply_ends_it;
use c4lab_synth::FREE_LEVELS;

/// Positions one walk may visit; a tree larger than this counts as one more fault.
const WALK_CAP: usize = 100_000;
/// Changes tried in full at one step (a random sample when there are more).
const TRIED: usize = 12;
/// Steps for which the level a change replaced may not come back.
const TABU_STEPS: u64 = 10;
/// One step in this many takes a random repair rather than the best.
const NOISE_ONE_IN: u64 = 5;
/// One climb in this many goes one position further up from a fault.
const CLIMB_ONE_IN: u64 = 3;

/// A small xorshift generator, written out so that its sequence is fixed by this file
/// (the same in the browser build and across dependency updates), which a run's
/// reproducibility rests on.
struct Xorshift(u64);

impl Xorshift {
    /// The generator of stream `seed`: stream 0 starts from the constant the first
    /// version used, the others from a splitmix of the seed (never zero), so that
    /// neighbouring seeds give unrelated streams.
    fn seeded(seed: u64) -> Xorshift {
        if seed == 0 {
            return Xorshift(0x9E37_79B9_7F4A_7C15);
        }
        let mut z = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Xorshift((z ^ (z >> 31)) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn one_in(&mut self, n: u64) -> bool {
        self.next().is_multiple_of(n)
    }
}

/// A position reached by a walk: Red's stones, the occupied cells, the index of the
/// position above it (`usize::MAX` at the root).
type Node = (u64, u64, usize);

/// The local search of one root; see the module comment.
pub struct LocalSearch {
    root: Position,
    template: Diagram,
    /// The `?` cells, by bit: the only cells a change may touch.
    free: u64,
    /// The empty cells at the root, by bit: the level layer.
    empty: u64,
    /// Each empty cell's level, by its bit's index.
    levels: [u8; 64],
    rng: Xorshift,
    /// (a cell's bit index, level) barred until the step given.
    tabu: FxHashMap<(u8, u8), u64>,
    /// The strong solver's answers, by the key of the position after Red's move.
    answers: Answers,
    /// The keys of the positions the current walk has reached.
    seen: FxHashSet<u64>,
    stack: Vec<Node>,
    nodes: Vec<Node>,
    faults: Vec<usize>,
    steps: u64,
    walked: u64,
    /// Strong-solver nodes spent on this search's questions.
    oracle_nodes: u64,
    fewest: usize,
    /// The levels of the diagram with the fewest faults so far.
    best: [u8; 64],
    /// Set once a verified diagram is found, once a fault-free diagram failed the
    /// verifier (an unanswered strong-solver question misled the walk), or once no
    /// change of the `?` levels can repair the root: the search ends.
    ended: bool,
    /// The work at which a walk stops, and the step it is in is dropped.
    budget: u64,
    /// Set once a walk stopped at the budget (or at `stop`): no step runs after it.
    spent: bool,
    /// The solve's stop flag (its time limit, Ctrl-C), read within each walk: a step on
    /// a large tree takes a core a fifth of a second, and many searches sharing two
    /// cores overran a `--max-seconds` by seconds when it was read only between steps.
    stop: Arc<AtomicBool>,
}

impl LocalSearch {
    /// A search from the root of `template` whose `?` cells start at the claimeven
    /// pattern (level 2 on board rows 2, 4 and 6, level 9 on rows 1, 3 and 5), its
    /// random choices drawn from stream `seed` (searches with different seeds try
    /// different repairs); `stop` ends it within a walk (the step then running is dropped).
    pub fn new(
        template: &Diagram,
        root: Position,
        seed: u64,
        stop: Arc<AtomicBool>,
    ) -> LocalSearch {
        let mut levels = [0u8; 64];
        let (mut free, mut empty) = (0u64, 0u64);
        for x in 0..WIDTH {
            for y in 0..HEIGHT {
                let b = cell_bit(x, y);
                let i = b.trailing_zeros() as usize;
                match template.cell(x, y) {
                    Cell::Level(l) => {
                        levels[i] = l;
                        empty |= b;
                    }
                    Cell::Undecided => {
                        levels[i] = if y % 2 == 1 { 2 } else { FREE_LEVELS - 1 };
                        free |= b;
                        empty |= b;
                    }
                    Cell::Red | Cell::Yellow => {}
                }
            }
        }
        LocalSearch {
            root,
            template: template.clone(),
            free,
            empty,
            levels,
            rng: Xorshift::seeded(seed),
            tabu: FxHashMap::default(),
            answers: Answers::new(),
            seen: FxHashSet::default(),
            stack: Vec::new(),
            nodes: Vec::new(),
            faults: Vec::new(),
            steps: 0,
            walked: 0,
            oracle_nodes: 0,
            fewest: usize::MAX,
            best: levels,
            ended: false,
            budget: u64::MAX,
            spent: false,
            stop,
        }
    }

    /// The work done so far, the unit of the search's budget: positions walked plus
    /// the strong solver's nodes (each costs about as much as the other).
    pub fn work(&self) -> u64 {
        self.walked + self.oracle_nodes
    }

    /// Repair steps taken so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The fewest faults a diagram of this search has had so far (None before the
    /// first walk).
    pub fn fewest_faults(&self) -> Option<usize> {
        (self.fewest != usize::MAX).then_some(self.fewest)
    }

    /// The diagram with the fewest faults so far (levels renumbered as in a find).
    pub fn best_diagram(&self) -> Diagram {
        self.diagram_of(&self.renumbered(&self.best))
    }

    /// The smallest level budget that admits the current levels: one above the highest
    /// level a `?` cell holds.
    pub fn levels(&self) -> u8 {
        each_cell(self.free)
            .map(|b| self.levels[b.trailing_zeros() as usize] + 1)
            .max()
            .unwrap_or(1)
    }

    /// Stops the search once its work reaches `work`: checked at every position a walk
    /// visits, so the work ends past it by at most two positions' strong-solver
    /// questions (the one a step repairs and the one a walk reached); the step then
    /// running is dropped.
    pub fn set_budget(&mut self, work: u64) {
        self.budget = work;
    }

    /// True once the search has nothing more to try (see [`LocalSearch::step`]).
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// One repair step; returns the diagram once one with no fault passes the verifier.
    /// `enc` must have the strong-solver oracle: without one every move looks sound.
    pub fn step(&mut self, enc: &mut Encoding) -> Option<Diagram> {
        if self.ended || self.spent {
            return None;
        }
        let faults = self.walk(enc, usize::MAX);
        if self.spent {
            return None;
        }
        if faults < self.fewest {
            self.fewest = faults;
            self.best = self.levels;
        }
        if faults == 0 {
            self.ended = true;
            self.levels = self.renumbered(&self.levels);
            let diagram = self.diagram_of(&self.levels);
            let mut verifier = Verifier::new();
            if !verifier.verify(&diagram).is_win() {
                return None;
            }
            return Some(self.merge_levels(diagram, &mut verifier));
        }
        self.steps += 1;
        let (red, mask) = self.target();
        let mut changes = self.repairs(enc, red, mask);
        if changes.is_empty() {
            // no `?` level makes the root keep the win (a forced block that loses, or no
            // `?` cell playable there): nothing above it to change either. Not when a
            // pinned cell is playable there, which a larger change might promote, unless
            // no move there keeps the win at all (the root is lost whatever the levels:
            // with pinned cells the search ran its whole budget). (The root is the
            // walk's first node.)
            let playable = playable(mask);
            let at_root = (red, mask) == (self.root.current(), self.root.mask())
                && self.faults.first() == Some(&0);
            self.ended = at_root
                && (playable & self.empty & !self.free == 0
                    || each_cell(playable & self.empty).all(|c| !self.keeps(enc, red, mask, c)));
            return None;
        }
        while changes.len() > TRIED {
            let i = self.rng.below(changes.len());
            changes.swap_remove(i);
        }
        let chosen = if self.rng.one_in(NOISE_ONE_IN) {
            self.rng.below(changes.len())
        } else {
            let Some(best) = self.best_of(enc, &changes) else {
                // a walk stopped at the budget: the step is dropped, and not counted
                self.steps -= 1;
                return None;
            };
            best
        };
        for &(b, l) in &changes[chosen] {
            self.tabu
                .insert((b, self.levels[b as usize]), self.steps + TABU_STEPS);
            self.levels[b as usize] = l;
        }
        None
    }

    /// `levels` with the `?` cells' levels closed up without gaps: a level only `?`
    /// cells hold moves down to just above the next lower level in use by a pinned cell
    /// (or to 0), keeping the order of all levels and each pinned cell's. The rule
    /// compares levels only by order and equality, so the diagram plays alike, and the
    /// result is the twin the SAT search's symmetry breaking admits (`l` used by a `?`
    /// cell implies `l - 1` used, unless either is pinned).
    fn renumbered(&self, levels: &[u8; 64]) -> [u8; 64] {
        let pinned = self.pinned_levels();
        let mut used = [false; 64];
        for b in each_cell(self.free) {
            used[usize::from(levels[b.trailing_zeros() as usize])] = true;
        }
        let mut rank = [0u8; 64];
        let mut next = 0u8;
        for l in 0..64u8 {
            if pinned[usize::from(l)] {
                rank[usize::from(l)] = l;
                next = l + 1;
            } else if used[usize::from(l)] {
                rank[usize::from(l)] = next;
                next += 1;
            }
        }
        let mut out = *levels;
        for b in each_cell(self.free) {
            let i = b.trailing_zeros() as usize;
            out[i] = rank[usize::from(levels[i])];
        }
        out
    }

    /// The levels pinned cells hold, by level.
    fn pinned_levels(&self) -> [bool; 64] {
        let mut pinned = [false; 64];
        for b in each_cell(self.empty & !self.free) {
            pinned[usize::from(self.levels[b.trailing_zeros() as usize])] = true;
        }
        pinned
    }

    /// The diagram `levels` stand for at the `?` cells (pinned cells as given).
    fn diagram_of(&self, levels: &[u8; 64]) -> Diagram {
        Diagram::from_root(&self.root, |x, y| match self.template.cell(x, y) {
            Cell::Undecided => Cell::Level(levels[cell_bit(x, y).trailing_zeros() as usize]),
            other => other,
        })
    }

    /// A winning diagram with fewer levels: a level only `?` cells hold is merged into
    /// the next lower level in use (a `?` cell's or a pinned cell's) where the diagram
    /// still wins, tried from the top until no merge wins, the levels closed up after
    /// each. The search uses every level freely, and a diagram with fewer is easier to
    /// read; pinned cells keep their levels.
    fn merge_levels(&mut self, mut diagram: Diagram, verifier: &mut Verifier) -> Diagram {
        let pinned = self.pinned_levels();
        loop {
            let mut in_use = [false; 64];
            for b in each_cell(self.empty) {
                in_use[usize::from(self.levels[b.trailing_zeros() as usize])] = true;
            }
            let merged = (1..64u8).rev().find_map(|l| {
                if !in_use[usize::from(l)] || pinned[usize::from(l)] {
                    return None;
                }
                let below = (0..l).rev().find(|&m| in_use[usize::from(m)])?;
                let mut levels = self.levels;
                for b in each_cell(self.free) {
                    let i = b.trailing_zeros() as usize;
                    if levels[i] == l {
                        levels[i] = below;
                    }
                }
                let levels = self.renumbered(&levels);
                let candidate = self.diagram_of(&levels);
                verifier
                    .verify(&candidate)
                    .is_win()
                    .then_some((levels, candidate))
            });
            let Some((levels, better)) = merged else {
                return diagram;
            };
            self.levels = levels;
            diagram = better;
        }
    }

    /// A fault of the last walk, or now and then a position above it.
    fn target(&mut self) -> (u64, u64) {
        let i = self.faults[self.rng.below(self.faults.len())];
        let (mut red, mut mask, mut up) = self.nodes[i];
        while up != usize::MAX && self.rng.one_in(CLIMB_ONE_IN) {
            (red, mask, up) = self.nodes[up];
        }
        (red, mask)
    }

    /// The changes that make the position play a move that keeps the win.
    fn repairs(&mut self, enc: &mut Encoding, red: u64, mask: u64) -> Vec<Vec<(u8, u8)>> {
        let playable = playable(mask);
        let mut out = Vec::new();
        for b in each_cell(playable & self.free) {
            let i = b.trailing_zeros() as usize;
            let old = self.levels[i];
            for l in (0..FREE_LEVELS).filter(|&l| l != old) {
                self.levels[i] = l;
                self.walked += 1; // a decision, about as costly as a position walked
                let levels = self.layer();
                if let Some(cell) = played(red, mask, &levels) {
                    if self.keeps(enc, red, mask, cell) {
                        out.push(vec![(i as u8, l)]);
                    }
                }
            }
            self.levels[i] = old;
        }
        if !out.is_empty() || winning_cells(mask ^ red, mask) & playable != 0 {
            return out;
        }
        // no single change will do: a winning cell made the lowest level held once,
        // the other playable cells at or below it raised above it
        for w in each_cell(playable & self.free) {
            if !self.keeps(enc, red, mask, w) {
                continue;
            }
            for l in 0..FREE_LEVELS - 1 {
                let mut change = vec![(w.trailing_zeros() as u8, l)];
                for o in each_cell(playable & self.free & !w) {
                    let i = o.trailing_zeros() as usize;
                    if self.levels[i] <= l {
                        let raised = l + 1 + self.rng.below(usize::from(FREE_LEVELS - l - 1)) as u8;
                        change.push((i as u8, raised));
                    }
                }
                out.push(change);
            }
        }
        out
    }

    /// The index of the change leaving the fewest faults (ties at random), skipping
    /// barred single-cell changes unless every change is barred; None once a walk
    /// stopped at the budget.
    fn best_of(&mut self, enc: &mut Encoding, changes: &[Vec<(u8, u8)>]) -> Option<usize> {
        let mut best: Vec<usize> = Vec::new();
        let mut fewest = usize::MAX;
        for (k, change) in changes.iter().enumerate() {
            if let [one] = change.as_slice() {
                if self.tabu.get(one).is_some_and(|&until| until > self.steps) {
                    continue;
                }
            }
            let old: Vec<u8> = change
                .iter()
                .map(|&(b, _)| self.levels[b as usize])
                .collect();
            for &(b, l) in change {
                self.levels[b as usize] = l;
            }
            let faults = self.walk(enc, fewest);
            for (&(b, _), &o) in change.iter().zip(&old).rev() {
                self.levels[b as usize] = o;
            }
            if self.spent {
                return None;
            }
            if faults < fewest {
                fewest = faults;
                best.clear();
            }
            if faults == fewest {
                best.push(k);
            }
        }
        if best.is_empty() {
            return Some(self.rng.below(changes.len()));
        }
        Some(best[self.rng.below(best.len())])
    }

    /// The level layer of the current levels.
    fn layer(&self) -> Levels {
        let mut masks = [0u64; c4lab_steady::LEVELS];
        for b in each_cell(self.empty) {
            masks[usize::from(self.levels[b.trailing_zeros() as usize])] |= b;
        }
        Levels::from_masks(masks)
    }

    /// Cached: does Red playing `cell` keep the win?
    fn keeps(&mut self, enc: &mut Encoding, red: u64, mask: u64, cell: u64) -> bool {
        let key = key(red | cell, mask | cell);
        if let Some(a) = self.answers.get(key) {
            return a;
        }
        let before = enc.oracle_nodes();
        let a = enc.oracle_keeps_win(red, mask, cell).unwrap_or(true);
        self.oracle_nodes += enc.oracle_nodes().saturating_sub(before);
        self.answers.insert(key, a);
        a
    }

    /// Walks the tree the current levels face from the root (a fault going on with the
    /// lowest-level winning move) and returns its faults; stops counting past `limit`.
    fn walk(&mut self, enc: &mut Encoding, limit: usize) -> usize {
        let levels = self.layer();
        self.seen.clear();
        self.nodes.clear();
        self.faults.clear();
        let root = (self.root.current(), self.root.mask());
        self.seen.insert(key(root.0, root.1));
        self.stack.push((root.0, root.1, usize::MAX));
        while let Some((red, mask, up)) = self.stack.pop() {
            if self.work() >= self.budget || self.stop.load(Ordering::Relaxed) {
                self.spent = true;
                break;
            }
            let me = self.nodes.len();
            self.nodes.push((red, mask, up));
            self.walked += 1;
            if self.faults.len() > limit || me >= WALK_CAP {
                self.faults.push(me);
                break;
            }
            let chosen = match choose(red, mask, &levels) {
                Choice::Win => continue,
                Choice::Block(cell) | Choice::Level(cell, _)
                    if self.keeps(enc, red, mask, cell) =>
                {
                    no_reply_ends_it(red, mask, cell).then_some(cell)
                }
                _ => None,
            };
            let cell = match chosen {
                Some(cell) => cell,
                None => {
                    self.faults.push(me);
                    match self.fallback(enc, red, mask, &levels) {
                        Some(cell) => cell,
                        None => continue,
                    }
                }
            };
            let (red2, mask2) = (red | cell, mask | cell);
            for y in each_cell(playable(mask2)) {
                if self.seen.insert(key(red2, mask2 | y)) {
                    self.stack.push((red2, mask2 | y, me));
                }
            }
        }
        self.stack.clear();
        self.faults.len()
    }

    /// At a fault, the move the walk goes on with: the winning move (a forced block if
    /// there is one) whose cell holds the lowest level; `None` when none keeps the win.
    fn fallback(
        &mut self,
        enc: &mut Encoding,
        red: u64,
        mask: u64,
        levels: &Levels,
    ) -> Option<u64> {
        let playable = playable(mask);
        let threats = winning_cells(mask ^ red, mask) & playable;
        let cells = if threats != 0 { threats } else { playable };
        let mut best: Option<(u8, u64)> = None;
        for c in each_cell(cells) {
            if self.keeps(enc, red, mask, c) && no_reply_ends_it(red, mask, c) {
                let l = level_of(levels, c);
                if best.is_none_or(|(bl, _)| l < bl) {
                    best = Some((l, c));
                }
            }
        }
        best.map(|(_, c)| c)
    }
}

/// The cell Red plays by the rule (the README's "The language, as implemented"), `None`
/// for an immediate win or no move.
fn played(red: u64, mask: u64, levels: &Levels) -> Option<u64> {
    match choose(red, mask, levels) {
        Choice::Block(cell) | Choice::Level(cell, _) => Some(cell),
        Choice::Win | Choice::NoMove => None,
    }
}

fn level_of(levels: &Levels, cell: u64) -> u8 {
    (0..c4lab_steady::LEVELS as u8)
        .find(|&l| levels.mask(l) & cell != 0)
        .unwrap_or(u8::MAX)
}
