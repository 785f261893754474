//! The SAT backends behind one small trait: BatSat (pure Rust, so it also runs in the
//! WebAssembly build) and CaDiCaL (native, feature `cadical`), both through `rustsat`.

use std::sync::atomic::{AtomicBool, Ordering};
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
    fn declare(&mut self, _var: Var, _branch: bool) {}
}

/// The backends this build has, by name, the default first. BatSat is the default
/// everywhere: on auto-complete's many small incremental calls it needs a tenth of
/// CaDiCaL's conflicts (the README's auto-complete table has the comparison).
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

fn backend_error(e: anyhow::Error) -> SynthError {
    SynthError::Backend(e.to_string())
}

fn outcome(r: SolverResult) -> SatOutcome {
    match r {
        SolverResult::Sat => SatOutcome::Sat,
        SolverResult::Unsat => SatOutcome::Unsat,
        SolverResult::Interrupted => SatOutcome::Stopped,
    }
}

/// BatSat, a MiniSat descendant written in Rust. It takes no phase hints, but it can
/// leave variables out of its branching (see [`Backend::declare`]).
pub struct BatSat {
    solver: rustsat_batsat::BasicSolver,
}

impl BatSat {
    /// A fresh solver that gives up a call when `stop` is raised.
    pub fn new(stop: Arc<AtomicBool>) -> BatSat {
        let mut solver = rustsat_batsat::BasicSolver::default();
        solver
            .batsat_mut()
            .cb_mut()
            .set_stop(move || stop.load(Ordering::Relaxed));
        BatSat { solver }
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
        self.solver
            .solve_assumps(assumptions)
            .map(outcome)
            .map_err(backend_error)
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
    fn conflicts(&self) -> u64 {
        use batsat::SolverInterface;
        self.solver.batsat_ref().num_conflicts()
    }
    fn settled(&self) -> u64 {
        use batsat::SolverInterface;
        self.solver.batsat_ref().proved_at_lvl_0().len() as u64
    }
    fn declare(&mut self, var: Var, branch: bool) {
        use batsat::SolverInterface;
        let solver = self.solver.batsat_mut();
        // skipped variables (the encoding skips none) are ordinary ones
        while solver.num_vars() < var.idx32() {
            solver.new_var_default();
        }
        if solver.num_vars() == var.idx32() {
            solver.new_var(batsat::lbool::UNDEF, branch);
        }
    }
}

/// CaDiCaL, natively.
#[cfg(feature = "cadical")]
pub struct Cadical {
    solver: rustsat_cadical::CaDiCaL<'static, 'static>,
}

#[cfg(feature = "cadical")]
impl Cadical {
    /// A fresh solver that gives up a call when `stop` is raised.
    pub fn new(stop: Arc<AtomicBool>) -> Cadical {
        use rustsat::solvers::{ControlSignal, Terminate};
        let mut solver = rustsat_cadical::CaDiCaL::default();
        solver.attach_terminator(move || {
            if stop.load(Ordering::Relaxed) {
                ControlSignal::Terminate
            } else {
                ControlSignal::Continue
            }
        });
        Cadical { solver }
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
        self.solver
            .solve_assumps(assumptions)
            .map(outcome)
            .map_err(backend_error)
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
    fn conflicts(&self) -> u64 {
        use rustsat::solvers::GetInternalStats;
        self.solver.conflicts() as u64
    }
    fn settled(&self) -> u64 {
        use rustsat::solvers::SolveStats;
        let vars = self.solver.max_var().map_or(0, |v| v.idx() as i64 + 1);
        (vars - self.solver.get_active()).max(0) as u64
    }
}
