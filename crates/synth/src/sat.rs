//! The SAT backends behind one small trait: BatSat (pure Rust, so it also runs in the
//! WebAssembly build) and CaDiCaL (native, feature `cadical`), both through `rustsat`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
use rustsat::types::TernaryVal;
pub use rustsat::types::{Lit, Var};

use crate::SynthError;

/// What one call of the solver found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SatOutcome {
    /// A model exists; read it with [`Backend::value`].
    Sat,
    /// No model exists (under the assumptions given).
    Unsat,
    /// The stop flag was raised during the call.
    Stopped,
    /// The conflict limit (see [`Backend::limit_conflicts`]) was reached first.
    Limit,
}

/// An incremental SAT solver: clauses are only ever added between calls.
pub trait Backend {
    /// The solver's name, for reports.
    fn name(&self) -> &'static str;
    /// Adds a clause.
    fn add(&mut self, clause: &[Lit]) -> Result<(), SynthError>;
    /// Solves under `assumptions`.
    fn solve(&mut self, assumptions: &[Lit]) -> Result<SatOutcome, SynthError>;
    /// The value of `lit` in the last model (unassigned counts as false).
    fn value(&self, lit: Lit) -> bool;
    /// After an unsatisfiable call under assumptions: a clause the formula entails made
    /// of negated assumptions (those that together cannot hold).
    fn core(&mut self) -> Result<Vec<Lit>, SynthError>;
    /// Asks the solver to try `lit` first when it decides its variable; returns false
    /// when the solver cannot take phase hints.
    fn prefer(&mut self, lit: Lit) -> Result<bool, SynthError>;
    /// Conflicts ("dead ends") met so far, over all calls.
    fn conflicts(&self) -> u64;
    /// Variables the solver has settled for good: fixed at the root level (and, for
    /// CaDiCaL, eliminated or substituted). Read between solves; never falls.
    fn settled(&self) -> u64;
    /// Declares `var`, the next variable in order, and whether the search may branch on
    /// it (a backend that cannot restrict its branching ignores `branch`). A variable
    /// left out must be set by unit propagation whenever the clauses need it true once
    /// the branched variables are set: a model reads it as false when left unset.
    /// `phase`, where given, is the value the search tries first for it (a backend
    /// without phase hints ignores it).
    fn declare(&mut self, _var: Var, _branch: bool, _phase: Option<bool>) {}
    /// Later calls give up with [`SatOutcome::Limit`] once [`Backend::conflicts`] reaches
    /// `own` (None: no limit of its own) or the value `shared` gives, whichever is lower
    /// (`shared` may be lowered from another thread while a call runs).
    fn limit_conflicts(&mut self, own: Option<u64>, shared: Option<Arc<dyn Ceiling>>);
}

/// A conflict limit that others may lower while a call runs (BatSat reads it at every
/// decision; CaDiCaL only when a call starts).
pub trait Ceiling: Send + Sync {
    /// The conflicts at which the solver gives up, now.
    fn dead_ends(&self) -> u64;
}

/// Lowered from other threads (the race's ceilings).
impl Ceiling for AtomicU64 {
    fn dead_ends(&self) -> u64 {
        self.load(Ordering::Relaxed)
    }
}

/// The backends this build has, by name, the default first. BatSat is the default
/// everywhere: on auto-complete's many small incremental calls it needs a tenth of
/// CaDiCaL's conflicts (docs/complete.md has the comparison).
pub fn backends() -> &'static [&'static str] {
    if cfg!(feature = "cadical") {
        &["batsat", "cadical"]
    } else {
        &["batsat"]
    }
}

/// Opens a backend by name (`cadical` or `batsat`); `stop` interrupts a running call.
pub fn open(name: &str, stop: Arc<AtomicBool>) -> Result<Box<dyn Backend>, SynthError> {
    match name {
        "batsat" => Ok(Box::new(BatSat::new(stop))),
        #[cfg(feature = "cadical")]
        "cadical" => Ok(Box::new(Cadical::new(stop))),
        _ => Err(SynthError::UnknownBackend {
            name: name.to_string(),
            known: backends().join(", "),
        }),
    }
}

/// A SAT backend's error (rustsat reports them as `anyhow::Error`), its causes kept in
/// the message (`{:#}`).
fn backend_error(e: impl std::fmt::Display) -> SynthError {
    SynthError::Backend(format!("{e:#}"))
}

/// The outcome of a call; an interrupted call was stopped by the flag or else by the
/// conflict limit.
fn outcome(r: SolverResult, stop: &AtomicBool) -> SatOutcome {
    match r {
        SolverResult::Sat => SatOutcome::Sat,
        SolverResult::Unsat => SatOutcome::Unsat,
        SolverResult::Interrupted if stop.load(Ordering::Relaxed) => SatOutcome::Stopped,
        SolverResult::Interrupted => SatOutcome::Limit,
    }
}

/// The lower of a limit of one's own and a shared one.
fn lowest(own: Option<u64>, shared: &Option<Arc<dyn Ceiling>>) -> u64 {
    let shared = shared.as_ref().map_or(u64::MAX, |s| s.dead_ends());
    own.unwrap_or(u64::MAX).min(shared)
}

/// BatSat's callbacks as this crate uses them: the stop flag and the conflict limits.
/// BatSat has a conflict budget but no way to set it, and its stop callback cannot see
/// the solver, so conflicts are counted here, as BatSat reports each clause it learns:
/// one per conflict analysed, plus one per call that fails on its assumptions.
#[derive(Default)]
pub struct Limits {
    stop: Option<Arc<AtomicBool>>,
    /// Clauses learnt, over all calls: the backend's conflict count.
    learnt: u64,
    own: Option<u64>,
    shared: Option<Arc<dyn Ceiling>>,
}

impl batsat::Callbacks for Limits {
    fn stop(&self) -> bool {
        if self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            return true;
        }
        self.learnt >= lowest(self.own, &self.shared)
    }
    fn on_new_clause(&mut self, _c: &[batsat::Lit], kind: batsat::ClauseKind) {
        if kind == batsat::ClauseKind::Learnt {
            self.learnt += 1;
        }
    }
}

/// BatSat, a MiniSat descendant written in Rust. It takes a phase only as a variable is
/// declared (its fixed polarity; no hint after that), and it can leave variables out of
/// its branching (see [`Backend::declare`]).
pub struct BatSat {
    solver: rustsat_batsat::Solver<Limits>,
    stop: Arc<AtomicBool>,
}

impl BatSat {
    /// A fresh solver that gives up a call when `stop` is raised.
    pub fn new(stop: Arc<AtomicBool>) -> BatSat {
        let mut solver = rustsat_batsat::Solver::<Limits>::default();
        solver.batsat_mut().cb_mut().stop = Some(stop.clone());
        BatSat { solver, stop }
    }
}

impl Backend for BatSat {
    fn name(&self) -> &'static str {
        "batsat"
    }
    fn add(&mut self, clause: &[Lit]) -> Result<(), SynthError> {
        self.solver.add_clause_ref(clause).map_err(backend_error)
    }
    fn solve(&mut self, assumptions: &[Lit]) -> Result<SatOutcome, SynthError> {
        let conflicts = self.conflicts();
        let cb = self.solver.batsat_mut().cb_mut();
        if conflicts >= lowest(cb.own, &cb.shared) {
            return Ok(SatOutcome::Limit);
        }
        let result = self
            .solver
            .solve_assumps(assumptions)
            .map_err(backend_error)?;
        Ok(outcome(result, &self.stop))
    }
    fn value(&self, lit: Lit) -> bool {
        matches!(self.solver.lit_val(lit), Ok(TernaryVal::True))
    }
    fn core(&mut self) -> Result<Vec<Lit>, SynthError> {
        self.solver.core().map_err(backend_error)
    }
    fn prefer(&mut self, _lit: Lit) -> Result<bool, SynthError> {
        Ok(false)
    }
    fn limit_conflicts(&mut self, own: Option<u64>, shared: Option<Arc<dyn Ceiling>>) {
        let cb = self.solver.batsat_mut().cb_mut();
        cb.own = own;
        cb.shared = shared;
    }
    fn conflicts(&self) -> u64 {
        self.solver.batsat_ref().cb().learnt
    }
    fn settled(&self) -> u64 {
        use batsat::SolverInterface;
        self.solver.batsat_ref().proved_at_lvl_0().len() as u64
    }
    fn declare(&mut self, var: Var, branch: bool, phase: Option<bool>) {
        use batsat::SolverInterface;
        let solver = self.solver.batsat_mut();
        // skipped variables (the encoding skips none) are ordinary ones
        while solver.num_vars() < var.idx32() {
            solver.new_var_default();
        }
        if solver.num_vars() == var.idx32() {
            let upol = match phase {
                Some(true) => batsat::lbool::TRUE,
                Some(false) => batsat::lbool::FALSE,
                None => batsat::lbool::UNDEF,
            };
            solver.new_var(upol, branch);
        }
    }
}

/// CaDiCaL, natively.
#[cfg(feature = "cadical")]
pub struct Cadical {
    solver: rustsat_cadical::CaDiCaL<'static, 'static>,
    stop: Arc<AtomicBool>,
    own: Option<u64>,
    shared: Option<Arc<dyn Ceiling>>,
}

#[cfg(feature = "cadical")]
impl Cadical {
    /// A fresh solver that gives up a call when `stop` is raised.
    pub fn new(stop: Arc<AtomicBool>) -> Cadical {
        use rustsat::solvers::{ControlSignal, Terminate};
        let mut solver = rustsat_cadical::CaDiCaL::default();
        let flag = stop.clone();
        solver.attach_terminator(move || {
            if flag.load(Ordering::Relaxed) {
                ControlSignal::Terminate
            } else {
                ControlSignal::Continue
            }
        });
        Cadical {
            solver,
            stop,
            own: None,
            shared: None,
        }
    }
}

#[cfg(feature = "cadical")]
impl Backend for Cadical {
    fn name(&self) -> &'static str {
        "cadical"
    }
    fn add(&mut self, clause: &[Lit]) -> Result<(), SynthError> {
        self.solver.add_clause_ref(clause).map_err(backend_error)
    }
    fn solve(&mut self, assumptions: &[Lit]) -> Result<SatOutcome, SynthError> {
        let limit = lowest(self.own, &self.shared);
        if limit != u64::MAX {
            // CaDiCaL takes a limit per call, so a shared limit lowered during a call
            // is only seen by the next one
            let conflicts = self.conflicts();
            if conflicts >= limit {
                return Ok(SatOutcome::Limit);
            }
            let left = std::os::raw::c_int::try_from(limit - conflicts).unwrap_or(i32::MAX);
            self.solver
                .set_limit(rustsat_cadical::Limit::Conflicts(left))
                .map_err(backend_error)?;
        }
        let result = self
            .solver
            .solve_assumps(assumptions)
            .map_err(backend_error)?;
        Ok(outcome(result, &self.stop))
    }
    fn value(&self, lit: Lit) -> bool {
        matches!(self.solver.lit_val(lit), Ok(TernaryVal::True))
    }
    fn core(&mut self) -> Result<Vec<Lit>, SynthError> {
        self.solver.core().map_err(backend_error)
    }
    fn prefer(&mut self, lit: Lit) -> Result<bool, SynthError> {
        use rustsat::solvers::PhaseLit;
        self.solver.phase_lit(lit).map_err(backend_error)?;
        Ok(true)
    }
    fn declare(&mut self, var: Var, _branch: bool, phase: Option<bool>) {
        use rustsat::solvers::PhaseLit;
        if let Some(value) = phase {
            // CaDiCaL's "lucky" phases try a few fixed assignments before any hint, and
            // one of them often satisfies a small instance: a hinted search goes without
            // (neither call can fail on a valid option and literal)
            let _ = self.solver.set_option("lucky", 0);
            let lit = if value { var.pos_lit() } else { var.neg_lit() };
            let _ = self.solver.phase_lit(lit);
        }
    }
    fn conflicts(&self) -> u64 {
        use rustsat::solvers::GetInternalStats;
        self.solver.conflicts() as u64
    }
    fn settled(&self) -> u64 {
        use rustsat::solvers::SolveStats;
        let vars = self.solver.max_var().map_or(0, |v| v.idx() as i64 + 1);
        (vars - self.solver.get_active()).max(0) as u64
    }
    fn limit_conflicts(&mut self, own: Option<u64>, shared: Option<Arc<dyn Ceiling>>) {
        self.own = own;
        self.shared = shared;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pigeons into holes, one fewer hole than pigeons: unsatisfiable, and hard enough
    /// that proving it takes thousands of conflicts.
    fn pigeonhole(solver: &mut dyn Backend, pigeons: u32) {
        let holes = pigeons - 1;
        let var = |p: u32, h: u32| Var::new(p * holes + h);
        for v in 0..pigeons * holes {
            solver.declare(Var::new(v), true, None);
        }
        for p in 0..pigeons {
            let any: Vec<Lit> = (0..holes).map(|h| var(p, h).pos_lit()).collect();
            solver.add(&any).unwrap();
        }
        for h in 0..holes {
            for p in 0..pigeons {
                for q in p + 1..pigeons {
                    solver
                        .add(&[var(p, h).neg_lit(), var(q, h).neg_lit()])
                        .unwrap();
                }
            }
        }
    }

    #[test]
    fn a_call_gives_up_at_its_own_or_a_shared_conflict_limit_and_resumes_past_it() {
        for name in backends() {
            let stop = Arc::new(AtomicBool::new(false));
            let mut solver = open(name, stop.clone()).unwrap();
            pigeonhole(solver.as_mut(), 8);
            // its own limit: the call stops there, and a call at the limit stops at once
            solver.limit_conflicts(Some(100), None);
            assert_eq!(solver.solve(&[]).unwrap(), SatOutcome::Limit, "{name}");
            let at = solver.conflicts();
            assert!((100..=110).contains(&at), "{name}: {at}");
            assert_eq!(solver.solve(&[]).unwrap(), SatOutcome::Limit, "{name}");
            assert_eq!(solver.conflicts(), at, "{name}");
            // a shared limit below its own counts as well
            let shared = Arc::new(AtomicU64::new(300));
            solver.limit_conflicts(Some(1000), Some(shared.clone()));
            assert_eq!(solver.solve(&[]).unwrap(), SatOutcome::Limit, "{name}");
            assert!((300..=310).contains(&solver.conflicts()), "{name}");
            // the stop flag is told apart from a limit
            stop.store(true, Ordering::Relaxed);
            shared.store(u64::MAX, Ordering::Relaxed);
            solver.limit_conflicts(None, Some(shared));
            assert_eq!(solver.solve(&[]).unwrap(), SatOutcome::Stopped, "{name}");
            // without limits the search resumes to its proof
            stop.store(false, Ordering::Relaxed);
            solver.limit_conflicts(None, None);
            assert_eq!(solver.solve(&[]).unwrap(), SatOutcome::Unsat, "{name}");
            assert!(solver.conflicts() > 310, "{name}");
        }
    }
}
