//! Mapping a root: the local search first, then every Red-to-move position down to
//! the first cut, breadth first, encoded as it is reached.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use c4lab_steady::{Diagram, Verifier};
use c4lab_synth::sat::Ceiling;
use c4lab_synth::{
    checked_root, judged_as_it_stands, root_is_drawn, AsItStands, BreadthFirst, Encoding,
    SynthError, FREE_LEVELS,
};

use crate::{
    open_encoding, LevelBudget, LocalSearch, LocalStats, Mapped, Options, Outcome, Progress,
    SearchState, LOCAL_WORK_PER_POSITION,
};

/// A root being mapped: positions are encoded breadth first, a batch per [`Mapping::step`].
pub struct Mapping {
    pub(crate) enc: Encoding,
    pub(crate) root: c4lab_board::Position,
    pub(crate) map: BreadthFirst,
    pub(crate) options: Options,
    pub(crate) stop: Arc<AtomicBool>,
    pub(crate) early: Option<Outcome>,
    /// The search so far, when this mapping deepens a searched map.
    pub(crate) search: Option<SearchState>,
    /// In a race: the dead ends at which this solve can no longer win (see `race`).
    pub(crate) ceiling: Option<Arc<dyn Ceiling>>,
    /// In a race: the work at which this solve's local search can no longer win.
    pub(crate) local_ceiling: Option<Arc<dyn Ceiling>>,
    /// The local search, while it runs (before the first position is mapped).
    pub(crate) local: Option<Box<LocalSearch>>,
    pub(crate) local_stats: LocalStats,
    /// The level budget a diagram the local search found fits (it proves no fewer).
    pub(crate) local_levels: Option<u8>,
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
    // a diagram with no `?` cell has one completion, itself: the verifier judges it at
    // once (mapping it first could run out of states on a question already answered)
    let judged = judged_as_it_stands(diagram, &root)?.map(|judged| match judged {
        AsItStands::Wins { .. } => Outcome::Found(diagram.clone()),
        AsItStands::Loses => Outcome::Unsat,
    });
    let local = (options.runs_local_search(diagram) && !drawn).then(|| {
        Box::new(LocalSearch::new(
            diagram,
            root,
            options.local_seed,
            stop.clone(),
        ))
    });
    let mut enc = open_encoding(diagram, &root, options, &stop, None)?;
    if options.oracle_nodes > 0 {
        enc.use_oracle(
            c4lab_synth::complete::ORACLE_TABLE_BYTES,
            options.oracle_nodes,
            stop.clone(),
        );
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
        early: drawn.then_some(Outcome::Unsat).or(judged),
        search: None,
        ceiling: None,
        local_ceiling: None,
        local,
        local_stats: LocalStats::default(),
        local_levels: None,
    })
}

impl Mapping {
    /// Runs the local search for about `batch` positions' worth of work while it runs
    /// (false then), else encodes up to `batch` more positions; true once the map is
    /// complete, the state budget overflowed, the stop flag was raised or the local
    /// search found a diagram, and on every step after that.
    pub fn step(&mut self, batch: u64) -> Result<bool, SynthError> {
        if self.early.is_some() {
            return Ok(true);
        }
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
                // a map of exactly the budget is complete, not over it (only positions
                // at the cut may be left, and they take none of it)
                self.map.settle();
                if self.map.is_done() {
                    return Ok(true);
                }
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
        let local_ceiling = self.local_ceiling.clone();
        let ceiling = || local_ceiling.as_ref().map_or(u64::MAX, |c| c.dead_ends());
        let mut over = local.work() >= ceiling();
        local.set_budget(self.options.local_work);
        while local.work() < until && !local.ended() && !over {
            if self.stop.load(Ordering::Relaxed) {
                self.early = Some(Outcome::Stopped);
                return Ok(true);
            }
            let found = local.step(&mut self.enc);
            over = local.work() >= ceiling();
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

    /// Caps the local search's work before mapping at `work` (0: no local search); has
    /// effect while the local search runs.
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

    /// True once the solve has ended before its search: the local search found a
    /// diagram, it was stopped, outrun or out of states, or the root was settled at the
    /// start (a full board, a diagram with no `?` cell).
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
    /// positions while mapping; while searching, BatSat reads it at every decision,
    /// CaDiCaL when a call starts).
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
