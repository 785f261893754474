//! dsat (SPEC §6): every Red-to-move position a diagram could face below a root, down
//! to a cut ply, mapped into one SAT instance (the per-position encoding of
//! `c4lab-synth`); a model is re-verified, and where it fails the positions on the
//! losing line, then (capped) the rest of the positions the failed diagram reaches, are
//! encoded and the same solver runs again.
//!
//! `unsat` is sound for the language (the clauses hold for every winning diagram, and
//! the strong-solver pruning only removes moves that cannot keep a win) but it is not
//! independently audited.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

mod answers;
mod faults;
mod local;
mod options;
mod race;
mod report;
pub use local::LocalSearch;
pub use options::{entrant, Options, FAULT_PATHS, LATER_LOCAL_WORK, LOCAL_WORK, UNASKED_PLIES};
pub use race::{dead_end_weight, race, Entrant, RaceReport};
pub use report::{LocalStats, Outcome, Progress, Report, RoundEnd};

use c4lab_steady::{Diagram, Verdict, Verifier};
use c4lab_synth::sat::{open, Ceiling, SatOutcome};
use c4lab_synth::{
    checked_root, learn_tree, line_positions, root_is_drawn, BreadthFirst, Encoding, SynthError,
    FREE_LEVELS,
};

/// The local search's work between two progress reports, per position a
/// [`Mapping::step`] batch asks for.
const LOCAL_WORK_PER_POSITION: u64 = 256;

/// Positions mapped between two `Progress::Mapping` reports.
pub(crate) const MAP_REPORT_EVERY: u64 = 4096;

/// A root being mapped: positions are encoded breadth first, a batch per [`Mapping::step`].
pub struct Mapping {
    enc: Encoding,
    root: c4lab_board::Position,
    map: BreadthFirst,
    options: Options,
    stop: Arc<AtomicBool>,
    early: Option<Outcome>,
    /// The search so far, when this mapping deepens a searched map.
    search: Option<SearchState>,
    /// In a race: the dead ends at which this solve can no longer win (see `race`).
    ceiling: Option<Arc<dyn Ceiling>>,
    /// In a race: the work at which this solve's local search can no longer win.
    local_ceiling: Option<Arc<dyn Ceiling>>,
    /// The local search, while it runs (before the first position is mapped).
    local: Option<Box<LocalSearch>>,
    local_stats: LocalStats,
    /// The level budget a diagram the local search found fits (it proves no fewer).
    local_levels: Option<u8>,
}

/// What a search carries over when its map is deepened.
struct SearchState {
    rounds: u64,
    settled: u64,
    levels: LevelBudget,
    verifier: Verifier,
    last_round: (u8, Option<RoundEnd>),
}

/// The level budget and what is known about it.
#[derive(Debug, Clone, Copy)]
struct LevelBudget {
    /// `?` cells take levels below this (10: every level).
    levels: u8,
    /// No diagram wins with fewer levels than this (proved by the solver).
    least: u8,
    /// The solver's conflicts when the budget was last set.
    since: u64,
    /// The most dead ends one budget below all ten levels has taken so far.
    widest: u64,
}

/// A fresh encoding of `diagram`'s root under `options` (no oracle yet), its level
/// variables trying `hint`'s levels first where given.
fn open_encoding(
    diagram: &Diagram,
    root: &c4lab_board::Position,
    options: &Options,
    stop: &Arc<AtomicBool>,
    hint: Option<&Diagram>,
) -> Result<Encoding, SynthError> {
    let backend = open(&options.backend, stop.clone())?;
    let mut enc = Encoding::with_phases(diagram, root, backend, hint)?;
    if options.compact_levels {
        enc.forbid_level_gaps()?;
    }
    if options.levels_on_demand {
        enc.build_levels_on_demand(options.first_levels)?;
    }
    Ok(enc)
}

/// Starts mapping the root of `diagram` (its `?` cells free over 0..9, the others
/// pinned): nothing is encoded until the first [`Mapping::step`].
pub fn start(
    diagram: &Diagram,
    options: &Options,
    stop: Arc<AtomicBool>,
) -> Result<Mapping, SynthError> {
    let root = checked_root(diagram)?;
    // a full board draws whatever the levels: unsat, with nothing to map or search
    let drawn = root_is_drawn(&root);
    let local = (options.runs_local_search(diagram) && !drawn)
        .then(|| Box::new(LocalSearch::new(diagram, root, options.local_seed)));
    let mut enc = open_encoding(diagram, &root, options, &stop, None)?;
    if options.oracle_nodes > 0 {
        enc.use_oracle(16 << 20, options.oracle_nodes, stop.clone());
    }
    let mut map = BreadthFirst::new(
        &root,
        root.moves_played().saturating_add(options.first_cut()),
    );
    map.leave_unasked(options.unasked_plies);
    Ok(Mapping {
        enc,
        root,
        map,
        options: options.clone(),
        stop,
        early: drawn.then_some(Outcome::Unsat),
        search: None,
        ceiling: None,
        local_ceiling: None,
        local,
        local_stats: LocalStats::default(),
        local_levels: None,
    })
}

impl Mapping {
    /// Encodes up to `batch` more positions; true once the map is complete, the state
    /// budget overflowed or the stop flag was raised.
    pub fn step(&mut self, batch: u64) -> Result<bool, SynthError> {
        if self.local.is_some() {
            return self.step_local(batch);
        }
        for _ in 0..batch {
            if self.early.is_some() {
                return Ok(true);
            }
            if self.stop.load(Ordering::Relaxed) || self.outrun() {
                self.early = Some(Outcome::Stopped);
            } else if self.enc.stats().positions >= self.options.max_states {
                self.early = Some(Outcome::Budget);
            } else if !self.map.step(&mut self.enc)? {
                return Ok(true);
            }
        }
        Ok(self.early.is_some() || self.map.is_done())
    }

    /// Runs the local search for about `batch` positions' worth of work; true once it
    /// found a diagram or was stopped (the verdict is then in), false while it runs or
    /// once it gave up (mapping begins at the next step).
    fn step_local(&mut self, batch: u64) -> Result<bool, SynthError> {
        let Some(local) = self.local.as_mut() else {
            return Ok(false);
        };
        let until = local
            .work()
            .saturating_add(batch.max(1).saturating_mul(LOCAL_WORK_PER_POSITION))
            .min(self.options.local_work);
        // the work at which a find of this local search can no longer win the race
        // (the dead-end ceiling is the SAT search's: a SAT verdict never stops a local
        // search, which would win over it)
        let ceiling = self
            .local_ceiling
            .as_ref()
            .map_or(u64::MAX, |c| c.dead_ends());
        let mut over = local.work() >= ceiling;
        local.set_budget(self.options.local_work);
        while local.work() < until && !local.ended() && !over {
            if self.stop.load(Ordering::Relaxed) {
                self.early = Some(Outcome::Stopped);
                return Ok(true);
            }
            let found = local.step(&mut self.enc);
            let ceiling = self
                .local_ceiling
                .as_ref()
                .map_or(u64::MAX, |c| c.dead_ends());
            over = local.work() >= ceiling;
            // a find with as much work as another's, or more, loses: the search ends as
            // if it had found nothing
            self.local_stats = LocalStats {
                steps: local.steps(),
                work: local.work(),
                found: found.is_some() && !over,
            };
            if let Some(diagram) = found.filter(|_| !over) {
                self.local_levels = Some(local.levels());
                self.early = Some(Outcome::Found(diagram));
                return Ok(true);
            }
        }
        // over: no find of it can win now, but the SAT search may still (its own
        // ceiling says when it cannot)
        if over || local.ended() || local.work() >= self.options.local_work {
            let hint = self.options.phase_hint.then(|| local.best_diagram());
            self.local = None;
            if let Some(hint) = hint {
                // the same encoding so far (the root only), its level variables hinted;
                // the oracle moves over with the answers its table holds
                let template = self.enc.template().clone();
                let mut enc = open_encoding(
                    &template,
                    &self.root,
                    &self.options,
                    &self.stop,
                    Some(&hint),
                )?;
                self.enc.hand_oracle_to(&mut enc);
                self.enc = enc;
            }
        }
        Ok(false)
    }

    /// Caps the local search's work before mapping at `work` (0: no local search);
    /// has effect only before the first step.
    pub fn limit_local(&mut self, work: u64) {
        self.options.local_work = self.options.local_work.min(work);
        if work == 0 {
            self.local = None;
        }
    }

    /// True while the local search runs: mapping has not begun.
    pub fn in_local(&self) -> bool {
        self.local.is_some() && self.early.is_none()
    }

    /// True once the solve has ended before its search (the local search found a
    /// diagram, or it was stopped or outrun).
    pub fn has_verdict(&self) -> bool {
        self.early.is_some()
    }

    /// Enters this solve's local search in a race of local searches: it ends once its
    /// work reaches `ceiling` (checked between its steps; a find then could not win),
    /// which the other entrants lower as their local searches find a diagram (or as
    /// their SAT searches prove there is none); the SAT search then goes on under its
    /// own ceiling (see [`Mapping::race_to`]).
    pub fn race_local_to(&mut self, ceiling: Arc<dyn Ceiling>) {
        self.local_ceiling = Some(ceiling);
    }

    /// In a race, true once another solve has finished with fewer dead ends.
    fn outrun(&mut self) -> bool {
        let conflicts = self.enc.backend().conflicts();
        self.ceiling
            .as_ref()
            .is_some_and(|c| conflicts >= c.dead_ends())
    }

    /// Enters this solve in a race: it gives up (`stopped`) once its dead ends reach
    /// `ceiling`, which the other entrants lower as they finish (checked between
    /// positions while mapping and at every dead end while searching).
    pub fn race_to(&mut self, ceiling: Arc<dyn Ceiling>) {
        self.ceiling = Some(ceiling);
    }

    /// The mapping gauge: positions encoded so far against the state budget.
    pub fn progress(&self) -> Progress {
        if let Some(local) = &self.local {
            return Progress::Local {
                steps: local.steps(),
                faults: local.fewest_faults(),
                work: local.work(),
                budget: self.options.local_work,
            };
        }
        Progress::Mapping {
            positions: self.enc.stats().positions,
            max_states: self.options.max_states,
        }
    }

    /// Ends mapping (whatever is left in the queue stays unmapped) and readies the search
    /// (or resumes it, after a deepening).
    pub fn finish(self) -> Mapped {
        let search = self.search.unwrap_or(SearchState {
            rounds: 0,
            settled: 0,
            levels: LevelBudget {
                levels: self
                    .local_levels
                    .unwrap_or(self.options.first_levels)
                    .clamp(1, FREE_LEVELS),
                least: 1,
                since: 0,
                widest: 0,
            },
            verifier: Verifier::new(),
            last_round: (0, None),
        });
        Mapped {
            mapped: self.enc.stats().positions,
            enc: self.enc,
            root: self.root,
            early: self.early,
            rounds: search.rounds,
            rounds_at_cut: 0,
            settled: search.settled,
            levels: search.levels,
            last_round: search.last_round,
            verifier: search.verifier,
            map: self.map,
            options: self.options,
            stop: self.stop,
            ceiling: self.ceiling,
            local_stats: self.local_stats,
        }
    }
}

/// A root mapped and encoded down to its cut, ready to search.
pub struct Mapped {
    enc: Encoding,
    root: c4lab_board::Position,
    mapped: u64,
    early: Option<Outcome>,
    rounds: u64,
    /// Rounds since the map was last deepened.
    rounds_at_cut: u64,
    settled: u64,
    /// The level budget: undecided cells take levels below it.
    levels: LevelBudget,
    /// The budget the last round solved under, and how that round ended.
    last_round: (u8, Option<RoundEnd>),
    verifier: Verifier,
    map: BreadthFirst,
    options: Options,
    stop: Arc<AtomicBool>,
    ceiling: Option<Arc<dyn Ceiling>>,
    local_stats: LocalStats,
}

/// Maps the root of `diagram` (its `?` cells free over 0..9, the others pinned): every
/// Red-to-move position down to the cut, breadth first, encoded as it is reached.
pub fn map(
    diagram: &Diagram,
    options: &Options,
    stop: Arc<AtomicBool>,
) -> Result<Mapped, SynthError> {
    map_with_progress(diagram, options, stop, &mut |_| {})
}

/// [`map`], reporting `Progress::Mapping` every few thousand positions and at the end.
pub fn map_with_progress(
    diagram: &Diagram,
    options: &Options,
    stop: Arc<AtomicBool>,
    progress: &mut dyn FnMut(Progress),
) -> Result<Mapped, SynthError> {
    let mut mapping = start(diagram, options, stop)?;
    while !mapping.step(MAP_REPORT_EVERY)? {
        progress(mapping.progress());
    }
    progress(mapping.progress());
    Ok(mapping.finish())
}

impl Mapped {
    /// Positions mapped.
    pub fn positions(&self) -> u64 {
        self.mapped
    }

    /// True when the search has run its rounds at a cut shallower than the deepest
    /// and the map should be deepened (see [`Mapped::deepen`]).
    pub fn wants_deeper(&self) -> bool {
        // (a verdict already in, say the local search's, is not thrown away)
        self.early.is_none()
            && self.map.cut()
                < self
                    .root
                    .moves_played()
                    .saturating_add(self.options.cut_plies)
            && self.rounds_at_cut >= self.options.deepen_after
    }

    /// Goes back to mapping, breadth first from the positions at the current cut down
    /// to the deepest cut, into the same solver (clauses are only added, so what the
    /// search learnt stays). Positions refinement already encoded are walked through,
    /// not encoded again.
    pub fn deepen(self) -> Mapping {
        let mut map = self.map;
        map.deepen(
            self.root
                .moves_played()
                .saturating_add(self.options.cut_plies),
        );
        Mapping {
            enc: self.enc,
            root: self.root,
            map,
            options: self.options,
            stop: self.stop,
            early: None,
            ceiling: self.ceiling,
            local_ceiling: None,
            local: None,
            local_stats: self.local_stats,
            local_levels: None,
            search: Some(SearchState {
                rounds: self.rounds,
                settled: self.settled,
                levels: self.levels,
                verifier: self.verifier,
                last_round: self.last_round,
            }),
        }
    }

    /// The level budget now: the `?` cells take levels below it (10: every level).
    pub fn levels(&self) -> u8 {
        self.levels.levels
    }

    /// The most dead ends one level budget (below all ten levels) has taken so far: a
    /// solve whose `widen_after` is above this would so far have searched exactly alike.
    pub fn widest_budget(&self) -> u64 {
        self.levels.widest
    }

    /// The dead ends (conflicts) the search has met so far.
    pub fn dead_ends(&self) -> u64 {
        self.enc.dead_ends()
    }

    /// The search's counts so far, as a `Progress::Searching` report.
    pub fn progress(&mut self) -> Progress {
        Progress::Searching {
            round: self.rounds,
            positions: self.enc.stats().positions,
            conflicts: self.enc.backend().conflicts(),
            settled: self.settled,
            levels: self.last_round.0,
            ended: self.last_round.1,
        }
    }

    /// The report for a search that ended with `outcome`.
    pub fn report(&mut self, outcome: Outcome) -> Report {
        Report {
            outcome,
            mapped: self.mapped,
            encoding: self.enc.stats(),
            rounds: self.rounds,
            conflicts: self.enc.backend().conflicts(),
            levels: self.levels.levels,
            least_levels: self.levels.least,
            local: self.local_stats,
        }
    }

    /// One solve-verify round: the verdict once there is one (found, unsat, budget,
    /// stopped), or None after refining on a losing line.
    pub fn round(&mut self) -> Result<Option<Outcome>, SynthError> {
        if let Some(outcome) = self.early.take() {
            return Ok(Some(outcome));
        }
        if self.rounds >= self.options.max_rounds {
            return Ok(Some(Outcome::Budget));
        }
        self.rounds += 1;
        self.rounds_at_cut += 1;
        let levels = self.levels.levels;
        let (verdict, ended) = self.solve_and_verify(levels)?;
        self.last_round = (levels, Some(ended));
        Ok(verdict)
    }

    /// The body of [`Mapped::round`] under the budget `levels`: its verdict, if any, and
    /// how it ended.
    fn solve_and_verify(&mut self, levels: u8) -> Result<(Option<Outcome>, RoundEnd), SynthError> {
        let budget = self.enc.level_budget(levels)?;
        let widen_at = (self.options.widen_after > 0 && levels < FREE_LEVELS)
            .then(|| self.levels.since.saturating_add(self.options.widen_after));
        self.enc
            .backend()
            .limit_conflicts(widen_at, self.ceiling.clone());
        let sat = self.enc.backend().solve(&budget)?;
        let conflicts = self.enc.backend().conflicts();
        self.settled = self.enc.backend().settled().max(self.settled);
        if levels < FREE_LEVELS {
            self.levels.widest = self.levels.widest.max(conflicts - self.levels.since);
        }
        if self
            .ceiling
            .as_ref()
            .is_some_and(|c| conflicts >= c.dead_ends())
        {
            // outrun: another solve of the race finished with fewer dead ends
            return Ok((Some(Outcome::Stopped), RoundEnd::Stopped));
        }
        match sat {
            SatOutcome::Unsat if !budget.is_empty() && !self.enc.backend().core()?.is_empty() => {
                // no diagram within the budget: allow one more level
                self.levels = LevelBudget {
                    levels: levels + 1,
                    least: levels + 1,
                    since: conflicts,
                    widest: self.levels.widest,
                };
                return Ok((None, RoundEnd::TooFewLevels));
            }
            SatOutcome::Unsat => {
                // unsatisfiable whatever the budget: no level could help
                self.levels.levels = FREE_LEVELS;
                self.levels.least = FREE_LEVELS;
                return Ok((Some(Outcome::Unsat), RoundEnd::Verdict));
            }
            SatOutcome::Limit if widen_at.is_some_and(|w| conflicts >= w) => {
                // the budget took its share of dead ends: allow one more level unproved
                self.levels.levels = levels + 1;
                self.levels.since = conflicts;
                return Ok((None, RoundEnd::Widened));
            }
            SatOutcome::Stopped | SatOutcome::Limit => {
                return Ok((Some(Outcome::Stopped), RoundEnd::Stopped))
            }
            SatOutcome::Sat => {}
        }
        let candidate = self.enc.model_diagram();
        match self.verifier.verify(&candidate) {
            Verdict::Win { .. } => return Ok((Some(Outcome::Found(candidate)), RoundEnd::Verdict)),
            Verdict::Loss { counterexample, .. } => {
                // culprit expansion: encode the Red-to-move positions on the losing line,
                // then (capped) the rest of the candidate's tree
                for pos in line_positions(&self.root, &counterexample) {
                    self.enc.encode(pos.current(), pos.mask())?;
                }
                learn_tree(&mut self.enc, &candidate, self.options.tree_cap)?;
                if self.options.fault_paths > 0 {
                    faults::learn_fault_paths(&mut self.enc, &candidate, self.options.fault_paths)?;
                }
            }
            other => {
                return Err(SynthError::Internal(format!(
                    "a dsat candidate got the verdict {}",
                    other.name()
                )))
            }
        }
        if self.enc.stats().positions >= self.options.max_states {
            return Ok((Some(Outcome::Budget), RoundEnd::Verdict));
        }
        Ok((None, RoundEnd::Refuted))
    }

    /// Solves, verifies and refines until found, unsat, the budget or the stop flag.
    pub fn search(self) -> Result<Report, SynthError> {
        self.search_with_progress(&mut |_| {})
    }

    /// [`Mapped::search`], reporting `Progress::Searching` after every round.
    pub fn search_with_progress(
        self,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Report, SynthError> {
        Ok(self.search_watching(progress, &mut |_| {})?.0)
    }

    /// [`Mapped::search_with_progress`], also showing `watch` the search after every
    /// round; returns the report and the most dead ends one level budget took.
    pub(crate) fn search_watching(
        mut self,
        progress: &mut dyn FnMut(Progress),
        watch: &mut dyn FnMut(&Mapped),
    ) -> Result<(Report, u64), SynthError> {
        loop {
            if self.wants_deeper() {
                let mut mapping = self.deepen();
                while !mapping.step(MAP_REPORT_EVERY)? {
                    progress(mapping.progress());
                }
                progress(mapping.progress());
                self = mapping.finish();
            }
            let before = self.rounds;
            let verdict = self.round()?;
            if self.rounds > before {
                progress(self.progress());
            }
            watch(&self);
            if let Some(outcome) = verdict {
                return Ok((self.report(outcome), self.widest_budget()));
            }
        }
    }
}

/// Maps and searches in one call.
pub fn solve(
    diagram: &Diagram,
    options: &Options,
    stop: Arc<AtomicBool>,
) -> Result<Report, SynthError> {
    map(diagram, options, stop)?.search()
}
