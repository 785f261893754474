//! The decision rule (the README's "The language, as implemented") as clauses: one-hot
//! level variables per undecided cell, a decision circuit per playable set, and a
//! reachability variable per encoded Red-to-move position with the clauses that make a
//! reached position's every line end in a Red four.
//!
//! The encoding is sound and exact for the positions it holds: a diagram that wins
//! satisfies every clause (set each position's reachability to "the diagram reaches
//! it"), and a diagram that loses on a line whose positions are all encoded satisfies
//! none of the models. Positions not yet encoded are optimistic (no clauses).

use c4lab_board::{Position, HEIGHT, WIDTH};
use c4lab_steady::{Cell, Diagram};
use rustc_hash::FxHashMap;

use crate::sat::{Backend, Lit, Var};

mod circuit;
mod moves;
mod oracle;
use crate::SynthError;
use c4lab_board::column_of;
use c4lab_board::each_cell;
use circuit::Circuit;
pub use moves::{after_red_move, key, playable, MoveOutcome};
use moves::{leads_to, rule_cells, tops};
pub(crate) use oracle::Oracle;

/// Levels a search may give an undecided cell: `0`..`9`.
pub const FREE_LEVELS: u8 = 10;

/// What the encoding knows of one cell (indexed by Pons bit: `x * 7 + y`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Domain {
    /// A root stone, or a bit outside the board.
    Stone,
    /// A decided level, held fixed.
    Fixed(u8),
    /// Undecided: `x[c][l]` is variable `base + l` for `l` in `0..FREE_LEVELS`.
    Free(u32),
}

/// A position's reachability variable, whether its clauses are encoded, and whether the
/// strong solver was asked about its moves (see [`Encoding::encode_unasked`]).
#[derive(Debug, Clone, Copy)]
struct Node {
    var: Var,
    encoded: bool,
    asked: bool,
}

/// Counts for reports.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EncodingStats {
    /// Variables created.
    pub variables: u64,
    /// Clauses added.
    pub clauses: u64,
    /// Positions whose clauses are in the solver.
    pub positions: u64,
    /// Distinct playable sets with a circuit.
    pub circuits: u64,
    /// Red moves the strong solver proved do not keep the win (ruled out, not mapped).
    pub pruned: u64,
    /// Questions the strong solver could not answer within its budget.
    pub unknown: u64,
}

/// The clauses of a growing set of positions below one root, in one incremental solver.
pub struct Encoding {
    backend: Box<dyn Backend>,
    next_var: u32,
    truth: Lit,
    cells: [Domain; 64],
    circuits: FxHashMap<u64, Circuit>,
    /// The circuits' shared gates: per (set of playable cells, level), "some cell of
    /// the set has the level" (when built) and "exactly one has".
    tallies: FxHashMap<(u64, u8), (Option<Lit>, Lit)>,
    /// Every position with a reachability variable, by key, and whether its own
    /// clauses are in (one map for both: it is the encoding's largest structure).
    nodes: FxHashMap<u64, Node>,
    stats: EncodingStats,
    root: Position,
    template: Diagram,
    oracle: Option<Oracle>,
    /// Per level `l`: true exactly when some undecided cell takes `l` (built by the first
    /// [`Encoding::level_budget`] or [`Encoding::forbid_level_gaps`]; empty before and
    /// when no cell is undecided).
    level_used: Vec<Lit>,
    /// The circuits hold gates for the levels below this (all of them unless
    /// [`Encoding::build_levels_on_demand`]).
    built_levels: u8,
}

fn bit(x: usize, y: usize) -> usize {
    x * (HEIGHT + 1) + y
}

impl Encoding {
    /// An encoding for `diagram` (decided cells fixed, `?` cells free over `0..=9`) below
    /// the Red-to-move `root`, with `r[root]` asserted.
    ///
    /// The search branches on the level and reachability variables only (where the
    /// backend can restrict it). The rest are the circuits' gates, and no clause has two
    /// of them positive (a gate defined both ways is set by propagation; a one-sided
    /// gate or a pick appears positive only as the head of its own implication), so once
    /// the branched variables are set, unit propagation makes true exactly the gates
    /// that must be, and the rest can be false (docs/dsat.md measures it).
    pub fn new(
        diagram: &Diagram,
        root: &Position,
        backend: Box<dyn Backend>,
    ) -> Result<Encoding, SynthError> {
        Encoding::with_phases(diagram, root, backend, None)
    }

    /// [`Encoding::new`], with each `?` cell's level variables set to try first the
    /// level `hint` gives that cell (where the backend takes phases).
    pub fn with_phases(
        diagram: &Diagram,
        root: &Position,
        backend: Box<dyn Backend>,
        hint: Option<&Diagram>,
    ) -> Result<Encoding, SynthError> {
        let mut enc = Encoding {
            backend,
            next_var: 0,
            truth: Lit::positive(0),
            cells: [Domain::Stone; 64],
            circuits: FxHashMap::default(),
            tallies: FxHashMap::default(),
            nodes: FxHashMap::default(),
            stats: EncodingStats::default(),
            root: *root,
            template: diagram.clone(),
            oracle: None,
            level_used: Vec::new(),
            built_levels: c4lab_steady::LEVELS as u8,
        };
        enc.truth = enc.fresh().pos_lit();
        enc.add(&[enc.truth])?;
        for x in 0..WIDTH {
            for y in 0..HEIGHT {
                enc.cells[bit(x, y)] = match diagram.cell(x, y) {
                    Cell::Red | Cell::Yellow => Domain::Stone,
                    Cell::Level(l) => Domain::Fixed(l),
                    Cell::Undecided => {
                        let base = enc.next_var;
                        let hinted = match hint.map(|h| h.cell(x, y)) {
                            Some(Cell::Level(l)) => Some(l),
                            _ => None,
                        };
                        let lits: Vec<Lit> = (0..FREE_LEVELS)
                            .map(|l| {
                                let phase = hinted.map(|h| h == l);
                                enc.fresh_var_with(true, phase).pos_lit()
                            })
                            .collect();
                        enc.exactly_one(&lits)?;
                        Domain::Free(base)
                    }
                };
            }
        }
        let r = enc.reach_var(root.current(), root.mask())?;
        enc.add(&[r.pos_lit()])?;
        Ok(enc)
    }

    /// The assumptions that keep every undecided cell below level `levels` (none when
    /// `levels` is [`FREE_LEVELS`] or more): a solve under them that comes back
    /// unsatisfiable says nothing about the levels above.
    pub fn level_budget(&mut self, levels: u8) -> Result<Vec<Lit>, SynthError> {
        self.build_levels(levels)?;
        if levels >= FREE_LEVELS {
            return Ok(Vec::new());
        }
        self.build_level_used()?;
        Ok(self
            .level_used
            .iter()
            .skip(usize::from(levels))
            .map(|&used| !used)
            .collect())
    }

    /// Builds, once, one literal per level equivalent to "some undecided cell holds it"
    /// (none when no cell is undecided).
    fn build_level_used(&mut self) -> Result<(), SynthError> {
        let free = self.free_cells();
        if !self.level_used.is_empty() || free.is_empty() {
            return Ok(());
        }
        for l in 0..FREE_LEVELS {
            let used = self.fresh().pos_lit();
            let mut some = vec![!used];
            for &(x, y) in &free {
                let has = self.level_lit(x, y, l).expect("a free cell");
                self.add(&[!has, used])?;
                some.push(has);
            }
            self.add(&some)?;
            self.level_used.push(used);
        }
        Ok(())
    }

    /// Symmetry breaking: rules out diagrams with a gap in the levels. The rule compares
    /// levels only by order and equality, so undecided cells at a level `l` that no
    /// pinned cell holds can move down to `l - 1` when no cell at all holds it, without
    /// changing a single decision; every diagram thus has a gap-free twin that plays
    /// alike. Clauses: for each `l` with neither `l` nor `l - 1` pinned, an undecided
    /// cell holds `l` only if one holds `l - 1`.
    pub fn forbid_level_gaps(&mut self) -> Result<(), SynthError> {
        self.build_level_used()?;
        if self.level_used.is_empty() {
            return Ok(());
        }
        let mut pinned = [false; FREE_LEVELS as usize];
        for c in self.cells {
            if let Domain::Fixed(l) = c {
                if l < FREE_LEVELS {
                    pinned[usize::from(l)] = true;
                }
            }
        }
        for l in 1..usize::from(FREE_LEVELS) {
            if !pinned[l] && !pinned[l - 1] {
                let (used, below) = (self.level_used[l], self.level_used[l - 1]);
                self.add(&[!used, below])?;
            }
        }
        Ok(())
    }

    /// The reachability literal of the Red-to-move position (Red's stones `red`,
    /// occupied `mask`), created if needed.
    pub fn reach_lit(&mut self, red: u64, mask: u64) -> Result<Lit, SynthError> {
        Ok(self.reach_var(red, mask)?.pos_lit())
    }

    /// The solver's dead ends (conflicts) so far, over all calls.
    pub fn dead_ends(&self) -> u64 {
        self.backend.conflicts()
    }

    /// The solver, for solving and reading models.
    pub fn backend(&mut self) -> &mut dyn Backend {
        self.backend.as_mut()
    }

    /// Counts so far.
    pub fn stats(&self) -> EncodingStats {
        self.stats
    }

    /// True when the position's clauses are already in the solver.
    pub fn is_encoded(&self, red: u64, mask: u64) -> bool {
        self.nodes.get(&key(red, mask)).is_some_and(|n| n.encoded)
    }

    /// The children of an encoded position's moves that the strong solver did not rule
    /// out (asked again, uncounted; none ruled out while the position is unasked): where
    /// a walk goes on below it. Empty for a position not encoded.
    pub fn encoded_children(&mut self, red: u64, mask: u64) -> Vec<(u64, u64)> {
        let asked = match self.nodes.get(&key(red, mask)) {
            Some(node) if node.encoded => node.asked,
            _ => return Vec::new(),
        };
        let (cells, _) = rule_cells(red, mask);
        let mut out = Vec::new();
        for cell in each_cell(cells) {
            if let MoveOutcome::Children(children) = after_red_move(red, mask, cell) {
                if !asked || self.ask_oracle(red, mask, cell, false) {
                    out.extend(children);
                }
            }
        }
        out
    }

    /// The undecided cells as `(x, y)`, in grid order.
    pub fn free_cells(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for y in (0..HEIGHT).rev() {
            for x in 0..WIDTH {
                if matches!(self.cells[bit(x, y)], Domain::Free(_)) {
                    out.push((x, y));
                }
            }
        }
        out
    }

    /// The literal "cell `(x, y)` has level `l`" of an undecided cell.
    pub fn level_lit(&self, x: usize, y: usize, l: u8) -> Option<Lit> {
        match self.cells[bit(x, y)] {
            Domain::Free(base) if l < FREE_LEVELS => Some(Var::new(base + u32::from(l)).pos_lit()),
            _ => None,
        }
    }

    /// The diagram the last model describes: the input with every `?` set.
    ///
    /// Errors ([`SynthError::Internal`]) when a `?` cell holds no level in the model,
    /// which its one-hot clauses forbid: a level made up there would be a candidate
    /// other than the model, which learning from it might never exclude.
    pub fn model_diagram(&self) -> Result<Diagram, SynthError> {
        let mut d = self.template.clone();
        for (x, y) in self.free_cells() {
            let l = (0..FREE_LEVELS)
                .find(|&l| {
                    self.level_lit(x, y, l)
                        .is_some_and(|lit| self.backend.value(lit))
                })
                .ok_or_else(|| {
                    SynthError::Internal(format!(
                        "the SAT model gives the ? cell in column {}, row {} no level",
                        x + 1,
                        y + 1
                    ))
                })?;
            d.set(x, y, Cell::Level(l));
        }
        Ok(d)
    }

    /// The assumptions that pin every undecided cell to its level in `diagram`.
    pub fn assumptions_for(&self, diagram: &Diagram) -> Vec<Lit> {
        self.free_cells()
            .into_iter()
            .filter_map(|(x, y)| match diagram.cell(x, y) {
                Cell::Level(l) => self.level_lit(x, y, l),
                _ => None,
            })
            .collect()
    }

    /// The input diagram: decided cells as given, `?` where the search is free.
    pub fn template(&self) -> &Diagram {
        &self.template
    }

    /// The root.
    pub fn root(&self) -> &Position {
        &self.root
    }

    /// Adds the clauses of the Red-to-move position (Red's stones `red`, occupied `mask`)
    /// and returns the children of its moves that are not ruled out, where a walk goes on
    /// (empty when already encoded, when Red wins at once, or when every move loses). A
    /// position encoded unasked is asked now: the moves the strong solver rules out get
    /// their clauses (and nothing is returned).
    pub fn encode(&mut self, red: u64, mask: u64) -> Result<Vec<(u64, u64)>, SynthError> {
        self.encode_asking(red, mask, true)
    }

    /// [`Encoding::encode`] without asking the strong solver about the position's moves:
    /// none is ruled out (every child of a move that does not lose at once is returned)
    /// until the position is encoded again with [`Encoding::encode`], as a refuted
    /// candidate that reaches it does. Near a map's cut the questions are the most
    /// numerous and prune the least (docs/dsat.md, "Questions left to the candidates").
    pub fn encode_unasked(&mut self, red: u64, mask: u64) -> Result<Vec<(u64, u64)>, SynthError> {
        self.encode_asking(red, mask, false)
    }

    /// [`Encoding::encode`], asking the strong solver only when `ask`.
    fn encode_asking(
        &mut self,
        red: u64,
        mask: u64,
        ask: bool,
    ) -> Result<Vec<(u64, u64)>, SynthError> {
        match self.nodes.get(&key(red, mask)) {
            Some(node) if node.encoded => {
                if ask && !node.asked {
                    self.ask_now(red, mask, node.var.pos_lit())?;
                }
                return Ok(Vec::new());
            }
            _ => {}
        }
        let r = self.reach_var(red, mask)?.pos_lit();
        let node = self.nodes.get_mut(&key(red, mask)).expect("just made");
        node.encoded = true;
        node.asked = ask;
        self.stats.positions += 1;
        let (cells, forced) = rule_cells(red, mask);
        if cells != 0 && !forced {
            // rule 3: the levels pick the move, so some level must be unique
            let unique = self.circuit(cells)?.some_unique;
            self.add(&[!r, unique])?;
        }
        let mut next = Vec::new();
        for (cell, pick) in self.rule_moves(red, mask)? {
            self.encode_move(red, mask, cell, (r, pick), ask, &mut next)?;
        }
        Ok(next)
    }

    /// The moves the rule lets Red make at (`red`, `mask`), each with the literal that
    /// picks it: the block alone, whatever the levels (`None`), when Yellow threatens a
    /// four; none when Red wins at once.
    fn rule_moves(&mut self, red: u64, mask: u64) -> Result<Vec<(u64, Option<Lit>)>, SynthError> {
        let (cells, forced) = rule_cells(red, mask);
        if cells == 0 {
            return Ok(Vec::new());
        }
        if forced {
            return Ok(vec![(cells, None)]);
        }
        let circuit = self.circuit(cells)?;
        Ok((0..WIDTH)
            .filter(|&x| circuit.pick[x] != !self.truth)
            .map(|x| (cells & c4lab_board::column_mask(x), Some(circuit.pick[x])))
            .collect())
    }

    /// The clauses of Red playing `cell` at the position with reachability `r`, when
    /// `pick` holds (always, for a forced block): a losing move (or one the strong solver,
    /// when `ask`, rules out) is forbidden, and otherwise each child position that
    /// already has a reachability literal is implied; the others get their clause when
    /// they get their literal (see [`Encoding::link_parents`]). The children go onto
    /// `next`.
    fn encode_move(
        &mut self,
        red: u64,
        mask: u64,
        cell: u64,
        (r, pick): (Lit, Option<Lit>),
        ask: bool,
        next: &mut Vec<(u64, u64)>,
    ) -> Result<(), SynthError> {
        let mut outcome = after_red_move(red, mask, cell);
        if ask && matches!(outcome, MoveOutcome::Children(_)) && !self.keeps_win(red, mask, cell) {
            self.stats.pruned += 1;
            outcome = MoveOutcome::Lost;
        }
        let mut clause = vec![!r];
        clause.extend(pick.map(|p| !p));
        match outcome {
            MoveOutcome::Lost => self.add(&clause)?,
            MoveOutcome::Children(children) => {
                for (cr, cm) in children {
                    if let Some(node) = self.nodes.get(&key(cr, cm)) {
                        clause.push(node.var.pos_lit());
                        self.add(&clause)?;
                        clause.pop();
                    }
                    next.push((cr, cm));
                }
            }
        }
        Ok(())
    }

    /// Asks the strong solver about the moves of a position encoded unasked (its
    /// reachability `r`), forbidding each move it rules out, as [`Encoding::encode`]
    /// would have.
    fn ask_now(&mut self, red: u64, mask: u64, r: Lit) -> Result<(), SynthError> {
        self.nodes
            .get_mut(&key(red, mask))
            .expect("an encoded position")
            .asked = true;
        for (cell, pick) in self.rule_moves(red, mask)? {
            let playable = matches!(after_red_move(red, mask, cell), MoveOutcome::Children(_));
            if playable && !self.keeps_win(red, mask, cell) {
                self.stats.pruned += 1;
                let mut clause = vec![!r];
                clause.extend(pick.map(|p| !p));
                self.add(&clause)?;
            }
        }
        Ok(())
    }

    /// Adds the clauses that lead from each encoded parent of the Red-to-move position
    /// (`red`, `mask`) to its new reachability literal `c`: a position gets a literal only
    /// once it is encoded (or asked for), since a literal no clause constrains would be
    /// set true at no cost. A parent's move that the strong solver ruled out gets the
    /// clause too, which its clause forbidding that move already implies.
    fn link_parents(&mut self, red: u64, mask: u64, c: Lit) -> Result<(), SynthError> {
        let yellow = red ^ mask;
        for reply in each_cell(tops(mask) & yellow) {
            let after = mask ^ reply;
            for cell in each_cell(tops(after) & red) {
                let (pr, pm) = (red ^ cell, after ^ cell);
                // the bit tests first: the lookup is the costly part
                let (cells, forced) = rule_cells(pr, pm);
                if cells & cell == 0 || !leads_to(pr, pm, cell, reply) {
                    continue;
                }
                let rp = match self.nodes.get(&key(pr, pm)) {
                    Some(node) if node.encoded => node.var.pos_lit(),
                    _ => continue,
                };
                if forced {
                    self.add(&[!rp, c])?;
                } else {
                    let pick = self.circuit(cells)?.pick[column_of(cell)];
                    if pick != !self.truth {
                        self.add(&[!rp, !pick, c])?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Adds a clause, counting it.
    pub fn add(&mut self, clause: &[Lit]) -> Result<(), SynthError> {
        self.stats.clauses += 1;
        self.backend.add(clause)
    }

    /// A new gate variable, left out of the search's branching.
    fn fresh(&mut self) -> Var {
        self.fresh_var(false)
    }

    /// A new variable, one the search branches on when `branch` (the cells' levels and
    /// the positions' reachability; see [`Encoding::new`]).
    fn fresh_var(&mut self, branch: bool) -> Var {
        self.fresh_var_with(branch, None)
    }

    /// A new variable, its first value `phase` where given.
    fn fresh_var_with(&mut self, branch: bool, phase: Option<bool>) -> Var {
        let v = Var::new(self.next_var);
        self.backend.declare(v, branch, phase);
        self.next_var += 1;
        self.stats.variables += 1;
        v
    }

    fn reach_var(&mut self, red: u64, mask: u64) -> Result<Var, SynthError> {
        if let Some(node) = self.nodes.get(&key(red, mask)) {
            return Ok(node.var);
        }
        let v = self.fresh_var(true);
        self.nodes.insert(
            key(red, mask),
            Node {
                var: v,
                encoded: false,
                asked: false,
            },
        );
        self.link_parents(red, mask, v.pos_lit())?;
        Ok(v)
    }
}
