//! `c4lab dsat`: solve a whole root as one SAT instance.

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use c4lab_dsat::{solve, Options, Outcome};
use serde_json::json;

use crate::complete::stop_flag;
use crate::input::read_diagram;

/// `c4lab dsat`.
pub fn dsat(
    file: Option<&Path>,
    json_out: bool,
    max_seconds: Option<f64>,
    options: Options,
) -> Result<u8> {
    let input = read_diagram(file)?;
    let stop = stop_flag(max_seconds)?;
    if !json_out {
        eprintln!(
            "{} undecided cells (?) over levels 0-9, every other cell pinned; mapping to {} plies below the root (at most {} positions), backend {}",
            input.diagram.undecided(),
            options.cut_plies,
            options.max_states,
            options.backend
        );
    }
    let start = Instant::now();
    let report = solve(&input.diagram, &options, stop).context("cannot solve this root")?;
    let seconds = start.elapsed().as_secs_f64();
    let (verdict, code) = match &report.outcome {
        Outcome::Found(_) => ("found", 0),
        Outcome::Unsat => ("unsat", 1),
        Outcome::Budget => ("budget", 3),
        Outcome::Stopped => ("stopped", 3),
    };
    let e = report.encoding;
    if json_out {
        let mut j = json!({
            "verdict": verdict,
            "mapped": report.mapped,
            "positions": e.positions,
            "variables": e.variables,
            "clauses": e.clauses,
            "circuits": e.circuits,
            "pruned": e.pruned,
            "rounds": report.rounds,
            "conflicts": report.conflicts,
            "seconds": seconds,
        });
        if let Outcome::Found(d) = &report.outcome {
            j["diagram"] = json!(d.to_grid().lines().collect::<Vec<_>>());
        }
        println!("{j}");
        return Ok(code);
    }
    let counts = format!(
        "{} positions mapped, {} in the end, {} variables, {} clauses, {} Red moves pruned by the strong solver, {} rounds, {} dead ends, {seconds:.2} s",
        report.mapped, e.positions, e.variables, e.clauses, e.pruned, report.rounds, report.conflicts
    );
    match &report.outcome {
        Outcome::Found(d) => {
            print!("{}", d.to_grid());
            eprintln!("found: a diagram that verifies as a win; {counts}");
        }
        Outcome::Unsat => eprintln!(
            "unsat: no diagram with these pinned cells (levels 0-9 for the ? cells) wins from this root; sound for the language, not independently audited; {counts}"
        ),
        Outcome::Budget => eprintln!("budget: the state budget (--max-states) or the round cap ran out; {counts}"),
        Outcome::Stopped => eprintln!("stopped; {counts}"),
    }
    Ok(code)
}
