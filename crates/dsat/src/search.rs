//! Searching a mapped root: solve, verify the model, and learn from its losing line
//! and faults, round after round, deepening the map when the rounds at a cut run out.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use c4lab_steady::{Diagram, Verdict, Verifier};
use c4lab_synth::sat::{Ceiling, SatOutcome};
use c4lab_synth::{learn_tree, line_positions, BreadthFirst, Encoding, SynthError, FREE_LEVELS};

use crate::{
    faults, start, LevelBudget, LocalStats, Mapping, Options, Outcome, Progress, Report, RoundEnd,
    SearchState, MAP_REPORT_EVERY,
};

/// A root mapped and encoded down to its cut, ready to search.
pub struct Mapped {
    pub(crate) enc: Encoding,
    pub(crate) root: c4lab_board::Position,
    pub(crate) mapped: u64,
    pub(crate) early: Option<Outcome>,
    pub(crate) rounds: u64,
    /// Rounds since the map was last deepened.
    pub(crate) rounds_at_cut: u64,
    pub(crate) settled: u64,
    /// The level budget: undecided cells take levels below it.
    pub(crate) levels: LevelBudget,
    /// The budget the last round solved under, and how that round ended.
    pub(crate) last_round: (u8, Option<RoundEnd>),
    pub(crate) verifier: Verifier,
    pub(crate) map: BreadthFirst,
    pub(crate) options: Options,
    pub(crate) stop: Arc<AtomicBool>,
    pub(crate) ceiling: Option<Arc<dyn Ceiling>>,
    pub(crate) local_stats: LocalStats,
}

/// Maps the root of `diagram` (its `?` cells free over 0..9, the others pinned): every
/// Red-to-move position down to the cut, breadth first, encoded as it is reached (none
/// for a diagram with no `?` cell, which the verifier judges as it stands).
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
    /// stopped), or None when the search goes on: after refining on a losing line, or
    /// after its level budget grew (proved too small, or widened).
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
        let candidate = self.enc.model_diagram()?;
        match self.verifier.verify(&candidate) {
            Verdict::Win { .. } => return Ok((Some(Outcome::Found(candidate)), RoundEnd::Verdict)),
            Verdict::Loss { counterexample, .. } => {
                // culprit expansion: encode the Red-to-move positions on the losing line,
                // then (capped) the rest of the candidate's tree
                for pos in line_positions(&self.root, &counterexample) {
                    self.enc.encode(pos.current(), pos.mask())?;
                }
                // the walk stops with the search, and within the state budget
                let room = self
                    .options
                    .max_states
                    .saturating_sub(self.enc.stats().positions);
                let cap = self
                    .options
                    .tree_cap
                    .min(usize::try_from(room).unwrap_or(usize::MAX));
                learn_tree(&mut self.enc, &candidate, cap, &self.stop)?;
                if self.options.fault_paths > 0 {
                    faults::learn_fault_paths(&mut self.enc, &candidate, self.options.fault_paths)?;
                }
            }
            // as auto-complete says it: a bound for pathological input
            Verdict::Budget { positions } => return Err(SynthError::VerifierBudget { positions }),
            other => {
                return Err(SynthError::Internal(format!(
                    "a dsat candidate got the verdict {}",
                    other.name()
                )))
            }
        }
        // (the round refuted its candidate; the search then ends for want of states)
        if self.enc.stats().positions >= self.options.max_states {
            return Ok((Some(Outcome::Budget), RoundEnd::Refuted));
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
    /// round that reaches no verdict (the race lets its others go from there: not on the
    /// round that ends the search, found, unsat or out of states); returns the report and the most dead ends one level
    /// budget took.
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
            if let Some(outcome) = verdict {
                return Ok((self.report(outcome), self.widest_budget()));
            }
            watch(&self);
        }
    }
}
