//! Auto-complete (docs/complete.md): counterexample-guided search for levels of the `?` cells.
//!
//! A SAT model is a candidate diagram; the verifier checks it; a losing line is learnt;
//! repeat until a candidate wins (re-verified), the clauses are unsatisfiable, or the
//! caller stops it. Three ways to learn from a losing candidate are kept so they can be
//! measured: [`Learn::Tree`] encodes the decision rule exactly at every position the
//! candidate reaches, [`Learn::Positions`] only at the positions on the losing line
//! (both are facts true of every diagram), and [`Learn::Blocking`] adds the source
//! document's clause "one of the cell/level pairs consulted on this line must change".

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use c4lab_board::{column_mask, Position, HEIGHT, WIDTH};
use c4lab_steady::{Cell, Counterexample, Diagram, LossReason, Verdict, Verifier};
use rustc_hash::FxHashSet;

use crate::encoding::{playable, Encoding, FREE_LEVELS};
use crate::map::BreadthFirst;
use crate::sat::{open, Ceiling, Lit, SatOutcome};
use crate::tree::learn_tree;
use crate::SynthError;

mod options;
pub use options::{Learn, Options, LOST_AFTER, TREE_AFTER};

/// A cell and its level: `(x, y, level)`.
pub type CellLevel = (usize, usize, u8);

/// Positions the whole-subtree instances of the losing cores keep encoded between
/// candidates at most (beyond it they are dropped and rebuilt when needed).
pub const SUBTREE_CACHE_POSITIONS: u64 = 10_000;

/// Where a search stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Progress {
    /// Candidates verified so far.
    pub candidates: u64,
    /// Clauses in the solver.
    pub clauses: u64,
    /// Positions encoded.
    pub positions: u64,
    /// The solver's conflicts so far.
    pub conflicts: u64,
    /// Clauses learnt from losing cores (see [`Options::lost_budget`]).
    pub cores: u64,
    /// The last candidate and the line that beat it.
    pub live: Option<(Diagram, Counterexample)>,
    /// The candidate that survived longest (its losing line is the longest so far).
    pub deepest: Option<(Diagram, Counterexample)>,
}

/// How a search ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Completion {
    /// A completion that the verifier confirms wins.
    Found {
        /// The completed diagram.
        diagram: Diagram,
        /// Positions the confirming verification searched.
        positions: u64,
    },
    /// No completion of the pinned cells over levels 0..9 wins.
    Unsat,
    /// The caller stopped the search.
    Stopped,
}

/// One round of the loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// A candidate lost; its line has been learnt.
    Refuted,
    /// The search ended.
    Done(Completion),
}

/// A CEGIS search over the `?` cells of one diagram.
pub struct Completer {
    encoding: Encoding,
    /// Whole-subtree instances below positions of losing lines, by position key.
    subtrees: rustc_hash::FxHashMap<u64, Encoding>,
    /// Positions encoded in `subtrees`.
    cached_positions: u64,
    /// Positions whose subtree is larger than the budget.
    too_big: FxHashSet<u64>,
    stop: Arc<AtomicBool>,
    premap: Premap,
    verifier: Verifier,
    options: Options,
    rng: fastrand::Rng,
    progress: Progress,
    done: Option<Completion>,
}

impl Completer {
    /// Prepares a search; the diagram's root must be a legal Red-to-move position
    /// without a four. `stop` may be raised at any moment to end the search.
    pub fn new(
        diagram: &Diagram,
        options: Options,
        stop: Arc<AtomicBool>,
    ) -> Result<Completer, SynthError> {
        if options.lost_budget > 0 {
            // cores are learnt on the losing line only, before whole-tree learning
            // takes over; a setting that never reaches them is refused, not ignored
            if options.learn != Learn::Positions {
                return Err(SynthError::Options(
                    "lost_budget learns losing cores with Learn::Positions only".into(),
                ));
            }
            if options.tree_after > 0 && options.lost_after >= options.tree_after {
                return Err(SynthError::Options(format!(
                    "lost_after {} is not before tree_after {}, where whole-tree learning takes over: no core would be learnt",
                    options.lost_after, options.tree_after
                )));
            }
        }
        let root = crate::checked_root(diagram)?;
        let backend = open(&options.backend, stop.clone())?;
        let mut encoding = Encoding::new(diagram, &root, backend)?;
        if options.oracle_nodes > 0 {
            encoding.use_oracle(ORACLE_TABLE_BYTES, options.oracle_nodes, stop.clone());
        }
        // a full board draws whatever the levels: unsat, with nothing to search
        let drawn = crate::root_is_drawn(&root);
        // a diagram with no `?` cell has one completion, itself: the verifier judges it,
        // with no candidate and nothing encoded
        let judged = crate::judged_as_it_stands(diagram, &root)?.map(|judged| match judged {
            crate::AsItStands::Wins { positions } => Completion::Found {
                diagram: diagram.clone(),
                positions,
            },
            crate::AsItStands::Loses => Completion::Unsat,
        });
        let rng = fastrand::Rng::with_seed(options.seed);
        let mut c = Completer {
            encoding,
            subtrees: Default::default(),
            cached_positions: 0,
            too_big: FxHashSet::default(),
            stop: stop.clone(),
            premap: Premap::new(&root, stop.clone()),
            verifier: Verifier::new(),
            options,
            rng,
            progress: Progress {
                candidates: 0,
                clauses: 0,
                positions: 0,
                conflicts: 0,
                cores: 0,
                live: None,
                deepest: None,
            },
            done: drawn.then_some(Completion::Unsat).or(judged),
        };
        if c.options.learn != Learn::Blocking && c.done.is_none() {
            let cut = root
                .moves_played()
                .saturating_add(c.options.premap_plies.max(1));
            c.premap.deepen(&mut c.encoding, cut)?;
        }
        if c.options.scramble_every > 0 {
            c.scramble()?;
        }
        c.refresh();
        Ok(c)
    }

    /// The number of `?` cells searched.
    pub fn undecided(&self) -> usize {
        self.encoding.free_cells().len()
    }

    /// Where the search stands.
    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    /// Ends a SAT call once its conflicts reach `ceiling` (the search is then
    /// stopped), and asks the strong solver nothing more once it reads 0: a stop read
    /// during a step, for a caller that cannot raise the stop flag then (the page's
    /// worker, single-threaded, reads a shared slot).
    pub fn stop_at(&mut self, ceiling: Arc<dyn Ceiling>) {
        self.encoding.halt_oracle_at(ceiling.clone());
        self.encoding.backend().limit_conflicts(None, Some(ceiling));
    }

    /// Runs one round: solve, verify the candidate, learn its losing line.
    pub fn step(&mut self) -> Result<Step, SynthError> {
        if let Some(done) = &self.done {
            return Ok(Step::Done(done.clone()));
        }
        if self.options.learn != Learn::Blocking
            && self.progress.candidates == self.options.deepen_after
        {
            let cut = self
                .encoding
                .root()
                .moves_played()
                .saturating_add(self.options.deepen_to_plies);
            self.premap.deepen(&mut self.encoding, cut)?;
        }
        let every = self.options.scramble_every;
        if every > 0
            && self.progress.candidates > 0
            && self.progress.candidates.is_multiple_of(every)
        {
            self.scramble()?;
        }
        let outcome = self.encoding.backend().solve(&[])?;
        let result = match outcome {
            SatOutcome::Unsat => Some(Completion::Unsat),
            SatOutcome::Stopped | SatOutcome::Limit => Some(Completion::Stopped),
            SatOutcome::Sat => {
                let candidate = self.encoding.model_diagram()?;
                self.progress.candidates += 1;
                match self.verifier.verify(&candidate) {
                    Verdict::Win { positions } => Some(Completion::Found {
                        diagram: candidate,
                        positions,
                    }),
                    Verdict::Loss { counterexample, .. } => {
                        self.learn(&candidate, &counterexample)?;
                        let deeper = self
                            .progress
                            .deepest
                            .as_ref()
                            .is_none_or(|(_, d)| counterexample.line.len() > d.line.len());
                        if deeper {
                            self.progress.deepest =
                                Some((candidate.clone(), counterexample.clone()));
                        }
                        self.progress.live = Some((candidate, counterexample));
                        None
                    }
                    Verdict::Budget { positions } => {
                        return Err(SynthError::VerifierBudget { positions })
                    }
                    other => {
                        return Err(SynthError::Internal(format!(
                            "a candidate got the verdict {} (the root was checked before)",
                            other.name()
                        )))
                    }
                }
            }
        };
        self.refresh();
        Ok(match result {
            Some(done) => {
                self.done = Some(done.clone());
                Step::Done(done)
            }
            None => Step::Refuted,
        })
    }

    /// Runs rounds until the search ends, calling `report` after each.
    pub fn run(&mut self, mut report: impl FnMut(&Progress)) -> Result<Completion, SynthError> {
        loop {
            let step = self.step()?;
            report(&self.progress);
            if let Step::Done(done) = step {
                return Ok(done);
            }
        }
    }

    /// True when the clauses rule out `diagram` (a completion of this search's input):
    /// solving with its levels assumed is unsatisfiable. For tests of the CEGIS invariant.
    pub fn excludes(&mut self, diagram: &Diagram) -> Result<bool, SynthError> {
        let assumptions = self.encoding.assumptions_for(diagram);
        Ok(self.encoding.backend().solve(&assumptions)? == SatOutcome::Unsat)
    }

    fn refresh(&mut self) {
        let stats = self.encoding.stats();
        self.progress.clauses = stats.clauses;
        self.progress.positions = stats.positions;
        self.progress.conflicts = self.encoding.backend().conflicts();
    }

    /// Sets a random preferred level for every undecided cell (a no-op for backends
    /// that take no phase hints).
    fn scramble(&mut self) -> Result<(), SynthError> {
        for (x, y) in self.encoding.free_cells() {
            let chosen = self.rng.u8(0..FREE_LEVELS);
            for l in 0..FREE_LEVELS {
                let lit = self.encoding.level_lit(x, y, l).expect("free cell");
                let lit = if l == chosen { lit } else { !lit };
                if !self.encoding.backend().prefer(lit)? {
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    fn learn(&mut self, candidate: &Diagram, cx: &Counterexample) -> Result<(), SynthError> {
        let trees =
            self.options.tree_after > 0 && self.progress.candidates >= self.options.tree_after;
        if self.options.learn == Learn::Tree || (self.options.learn == Learn::Positions && trees) {
            self.learn_line(candidate, cx)?;
            // every position the candidate reaches, up to `tree_cap` new ones a round
            return learn_tree(
                &mut self.encoding,
                candidate,
                self.options.tree_cap,
                &self.stop,
            );
        }
        self.learn_line(candidate, cx)?;
        if self.options.lost_budget > 0
            && self.options.learn != Learn::Blocking
            && self.progress.candidates >= self.options.lost_after
        {
            self.learn_lost(candidate, cx)?;
        }
        Ok(())
    }

    /// Walks the losing line from its end towards the root and, while the positions'
    /// whole subtrees fit the budget, learns at each which of the candidate's levels
    /// lose there (see [`Options::lost_budget`]).
    fn learn_lost(&mut self, candidate: &Diagram, cx: &Counterexample) -> Result<(), SynthError> {
        let root = *self.encoding.root();
        let line = line_positions(&root, cx);
        for pos in line.iter().rev() {
            let Some(core) = self.losing_core_lits(pos, candidate)? else {
                break;
            };
            let r = self.encoding.reach_lit(pos.current(), pos.mask())?;
            let mut clause = core;
            clause.push(!r);
            self.encoding.add(&clause)?;
            self.progress.cores += 1;
        }
        Ok(())
    }

    /// Which of `candidate`'s levels lose from the Red-to-move `pos` whatever the other
    /// `?` cells hold, as `(x, y, level)` cells: None when `pos`'s whole subtree has
    /// more than [`Options::lost_budget`] positions or the candidate wins from `pos`.
    /// A diagram with these levels that reaches `pos` loses.
    pub fn losing_core(
        &mut self,
        pos: &Position,
        candidate: &Diagram,
    ) -> Result<Option<Vec<CellLevel>>, SynthError> {
        let Some(core) = self.losing_core_lits(pos, candidate)? else {
            return Ok(None);
        };
        let mut cells = Vec::new();
        for (x, y) in self.encoding.free_cells() {
            for l in 0..FREE_LEVELS {
                let lit = self.encoding.level_lit(x, y, l).expect("free cell");
                if core.contains(&!lit) {
                    cells.push((x, y, l));
                }
            }
        }
        Ok(Some(cells))
    }

    /// [`Completer::losing_core`] as the clause's literals (negated level literals).
    fn losing_core_lits(
        &mut self,
        pos: &Position,
        candidate: &Diagram,
    ) -> Result<Option<Vec<Lit>>, SynthError> {
        if self.too_big.contains(&pos.key()) {
            return Ok(None);
        }
        if !self.subtrees.contains_key(&pos.key()) {
            let backend = open(&self.options.backend, self.stop.clone())?;
            let mut sub = Encoding::new(self.encoding.template(), pos, backend)?;
            // the strong-solver oracle (and its warm table) is lent to the subtree
            sub.give_oracle(self.encoding.take_oracle());
            let mapped = map_subtree(&mut sub, pos, self.options.lost_budget, &self.stop);
            self.encoding.give_oracle(sub.take_oracle());
            let Some(mapped) = mapped? else {
                if !self.stop.load(Ordering::Relaxed) {
                    self.too_big.insert(pos.key());
                }
                return Ok(None);
            };
            if self.cached_positions + mapped > SUBTREE_CACHE_POSITIONS {
                self.subtrees.clear();
                self.cached_positions = 0;
            }
            self.cached_positions += mapped;
            self.subtrees.insert(pos.key(), sub);
        }
        let sub = self.subtrees.get_mut(&pos.key()).expect("just inserted");
        let assumptions = sub.assumptions_for(candidate);
        match sub.backend().solve(&assumptions)? {
            SatOutcome::Unsat => Ok(Some(sub.backend().core()?)),
            // stopped, or the candidate wins from `pos` (never so on its losing line)
            SatOutcome::Stopped | SatOutcome::Limit | SatOutcome::Sat => Ok(None),
        }
    }

    fn learn_line(&mut self, candidate: &Diagram, cx: &Counterexample) -> Result<(), SynthError> {
        let root = *self.encoding.root();
        let mut blocking: FxHashSet<Lit> = FxHashSet::default();
        for pos in line_positions(&root, cx) {
            match self.options.learn {
                Learn::Positions | Learn::Tree => {
                    self.encoding.encode(pos.current(), pos.mask())?;
                }
                Learn::Blocking => {
                    if pos.opponent_winning_moves() == 0 {
                        let open = playable(pos.mask());
                        for x in 0..WIDTH {
                            let cell = open & column_mask(x);
                            if cell == 0 {
                                continue;
                            }
                            let y = (cell.trailing_zeros() as usize) % (HEIGHT + 1);
                            if let Cell::Level(l) = candidate.cell(x, y) {
                                if let Some(lit) = self.encoding.level_lit(x, y, l) {
                                    blocking.insert(!lit);
                                }
                            }
                        }
                    }
                }
            }
        }
        if self.options.learn == Learn::Blocking {
            let mut clause: Vec<Lit> = blocking.into_iter().collect();
            clause.sort_unstable();
            self.encoding.add(&clause)?;
        }
        Ok(())
    }
}

/// Encodes every Red-to-move position from `pos` to the end of the game; how many, or
/// None once more than `budget` would be needed (or once `stop` is raised).
fn map_subtree(
    enc: &mut Encoding,
    pos: &Position,
    budget: u64,
    stop: &AtomicBool,
) -> Result<Option<u64>, SynthError> {
    let mut map = BreadthFirst::new(pos, (WIDTH * HEIGHT) as u32 + 1);
    let mut mapped = 0;
    while map.step(enc)? {
        mapped += 1;
        if mapped > budget || stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
    }
    Ok(Some(mapped))
}

/// Positions the premap (and its deepening) encodes at most.
pub const PREMAP_MAX_POSITIONS: u64 = 20_000;
/// Strong-solver questions the premap may leave unanswered before it stops.
pub const PREMAP_MAX_UNKNOWN: u64 = 16;

/// The positions mapped breadth first below the root before (and between) candidates.
struct Premap {
    map: BreadthFirst,
    /// Positions this map has encoded.
    mapped: u64,
    stop: Arc<AtomicBool>,
}

impl Premap {
    fn new(root: &Position, stop: Arc<AtomicBool>) -> Premap {
        Premap {
            map: BreadthFirst::new(root, root.moves_played()),
            mapped: 0,
            stop,
        }
    }

    /// Encodes every position down to `cut` stones (exclusive). Stops early (leaving the
    /// rest to the losing lines) after [`PREMAP_MAX_UNKNOWN`] questions the strong
    /// solver could not answer, at [`PREMAP_MAX_POSITIONS`], or when the stop flag is
    /// raised.
    fn deepen(&mut self, enc: &mut Encoding, cut: u32) -> Result<(), SynthError> {
        self.map.deepen(cut);
        let unknown = enc.stats().unknown + PREMAP_MAX_UNKNOWN;
        loop {
            if enc.stats().unknown >= unknown
                || self.mapped >= PREMAP_MAX_POSITIONS
                || self.stop.load(std::sync::atomic::Ordering::Relaxed)
            {
                self.map.abandon();
                return Ok(());
            }
            if !self.map.step(enc)? {
                return Ok(());
            }
            self.mapped += 1;
        }
    }
}

/// The oracle's transposition table: 16 MiB.
pub const ORACLE_TABLE_BYTES: usize = 16 << 20;

/// The Red-to-move positions on a losing line from `root`, in order: a no-move line ends
/// at one; a line that ends in a Yellow four or a full board ends a ply or two after the
/// last.
pub fn line_positions(root: &Position, cx: &Counterexample) -> Vec<Position> {
    let n = match cx.reason {
        LossReason::NoMove { .. } => cx.line.len() / 2 + 1,
        LossReason::YellowWins | LossReason::Draw => cx.line.len().div_ceil(2),
    };
    let mut pos = *root;
    let mut out = Vec::with_capacity(n);
    for k in 0..n {
        if k > 0 {
            pos.play(usize::from(cx.line[2 * k - 2]));
            pos.play(usize::from(cx.line[2 * k - 1]));
        }
        out.push(pos);
    }
    out
}

/// `diagram` with `k` of its level cells, chosen by `seed`, set to `?`: the tasks of the
/// auto-complete benchmark and tests.
pub fn undecide(diagram: &Diagram, k: usize, seed: u64) -> Diagram {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut cells: Vec<(usize, usize)> = (0..WIDTH)
        .flat_map(|x| (0..HEIGHT).map(move |y| (x, y)))
        .filter(|&(x, y)| matches!(diagram.cell(x, y), Cell::Level(_)))
        .collect();
    rng.shuffle(&mut cells);
    let mut out = diagram.clone();
    for &(x, y) in cells.iter().take(k) {
        out.set(x, y, Cell::Undecided);
    }
    out
}
