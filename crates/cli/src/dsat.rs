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
            "oracle_unknown": e.unknown,
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

/// `c4lab bench dsat`.
#[derive(clap::Args)]
pub struct BenchDsat {
    /// Upstream's steady_states.txt.
    #[arg(long, default_value = "../shared/data/upstream/steady_states.txt")]
    steady_states: std::path::PathBuf,
    /// Roots with at least this many stones.
    #[arg(long, default_value_t = 16)]
    min_ply: u32,
    /// How many roots (taken evenly from those of --min-ply or more).
    #[arg(long, default_value_t = 8)]
    roots: usize,
    /// Give up a root after this many seconds.
    #[arg(long, default_value_t = 30.0)]
    cap: f64,
    /// SAT backend.
    #[arg(long, default_value = "batsat")]
    backend: String,
}

/// Runs `bench dsat` and prints its table: every level cell of each root `?`.
pub fn bench(a: BenchDsat) -> Result<u8> {
    use c4lab_steady::Cell;
    let pool = crate::complete::upstream_pool(&a.steady_states, a.min_ply..=u32::MAX)?;
    let step = (pool.len() / a.roots.max(1)).max(1);
    println!(
        "dsat: upstream roots of ply {}+, every level cell ?, cut 16 plies, backend {}, cap {} s",
        a.min_ply, a.backend, a.cap
    );
    println!(
        "{:<22} {:>4} {:>8} {:>9} {:>11} {:>9} {:>9} {:>7}",
        "root", "ply", "verdict", "mapped", "clauses/pos", "map ms", "search ms", "rounds"
    );
    let mut all_found = true;
    for d in pool.iter().step_by(step).take(a.roots) {
        let root = d.root().expect("filtered");
        let mut puzzle = d.clone();
        for (i, c) in d.cells().iter().enumerate() {
            if let Cell::Level(_) = c {
                puzzle.set(i % 7, 5 - i / 7, Cell::Undecided);
            }
        }
        let stop = stop_flag(Some(a.cap))?;
        let options = Options {
            backend: a.backend.clone(),
            ..Options::default()
        };
        let t = Instant::now();
        let mapped = c4lab_dsat::map(&puzzle, &options, stop)?;
        let map_ms = t.elapsed().as_secs_f64() * 1e3;
        let t = Instant::now();
        let report = mapped.search()?;
        let search_ms = t.elapsed().as_secs_f64() * 1e3;
        let verdict = match report.outcome {
            Outcome::Found(_) => "found",
            Outcome::Unsat => "unsat",
            Outcome::Budget => "budget",
            Outcome::Stopped => "stopped",
        };
        all_found &= verdict == "found";
        let e = report.encoding;
        println!(
            "{:<22} {:>4} {:>8} {:>9} {:>11.0} {:>9.0} {:>9.0} {:>7}",
            c4lab_board::format_moves(&root.order),
            root.position.moves_played(),
            verdict,
            report.mapped,
            e.clauses as f64 / e.positions.max(1) as f64,
            map_ms,
            search_ms,
            report.rounds
        );
    }
    Ok(if all_found { 0 } else { 1 })
}
