//! `c4lab dsat`: solve a whole root as one SAT instance.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use c4lab_dsat::{Options, Outcome, Progress};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use crate::complete::stop_flag;
use crate::heap;
use crate::input::read_diagram;

/// How the header line names the level budget (nothing when there is none).
fn budget_note(options: &Options) -> String {
    let mut notes = Vec::new();
    if options.first_levels < c4lab_synth::FREE_LEVELS {
        notes.push(format!(
            "first 0-{}, one more level each time no diagram fits",
            options.first_levels.saturating_sub(1)
        ));
    }
    if options.compact_levels {
        notes.push("no gap between levels".to_string());
    }
    if !options.levels_on_demand {
        notes.push("every level's gates built from the start".to_string());
    }
    if notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", notes.join(", "))
    }
}

/// An entrant's name in progress lines and reports: A, B, ...
fn entrant_name(i: usize) -> char {
    (b'A' + (i % 26) as u8) as char
}

/// How an entrant treats its level budget, for the header and the report.
fn widen_note(widen_after: u64) -> String {
    if widen_after == 0 {
        "level budget grows only on proof".to_string()
    } else {
        format!("level budget grows after {widen_after} dead ends")
    }
}

/// The verdict's name and exit code.
fn verdict(outcome: &Outcome) -> (&'static str, u8) {
    match outcome {
        Outcome::Found(_) => ("found", 0),
        Outcome::Unsat => ("unsat", 1),
        Outcome::Budget => ("budget", 3),
        Outcome::Stopped => ("stopped", 3),
    }
}

/// What the level budget says at the end, for the summary line: only what is proved (a
/// budget the search stopped in, or one that grew unproved, proves nothing by itself;
/// `unsat` already covers levels 0-9).
fn levels_note(outcome: &Outcome, levels: u8, least: u8) -> String {
    let proved = match outcome {
        Outcome::Unsat => return String::new(),
        Outcome::Found(_) if least == levels => "the fewest that can win".to_string(),
        _ if least > 1 => format!("none wins with fewer than {least}"),
        _ => "no smaller budget ruled out".to_string(),
    };
    format!("level budget 0-{} in the end ({proved}), ", levels - 1)
}

/// `c4lab dsat`: one solve per entry of `widen_after`, side by side (see `c4lab_dsat::race`).
pub fn dsat(
    file: Option<&Path>,
    json_out: bool,
    max_seconds: Option<f64>,
    options: Options,
    widen_after: &[u64],
) -> Result<u8> {
    let input = read_diagram(file)?;
    if widen_after.is_empty() {
        bail!("--widen-after needs at least one value (0: the level budget grows only on proof)");
    }
    let entrants: Vec<Options> = widen_after
        .iter()
        .map(|&w| Options {
            widen_after: w,
            ..options.clone()
        })
        .collect();
    let stop = stop_flag(max_seconds)?;
    if !json_out {
        let side_by_side = if entrants.len() > 1 {
            let names: Vec<String> = widen_after
                .iter()
                .enumerate()
                .map(|(i, &w)| format!("{}: {}", entrant_name(i), widen_note(w)))
                .collect();
            format!(
                "; {} searches side by side ({}), the verdict with the fewest dead ends (counted from the first's start) counts",
                entrants.len(),
                names.join("; ")
            )
        } else if widen_after[0] > 0 {
            format!("; {}", widen_note(widen_after[0]))
        } else {
            String::new()
        };
        eprintln!(
            "{} undecided cells (?) over levels 0-9{}, every other cell pinned; mapping to {} plies below the root, {} after {} rounds (at most {} positions), up to {} positions of each failed candidate's tree learnt, backend {}{side_by_side}",
            input.diagram.undecided(),
            budget_note(&options),
            options.first_cut_plies.min(options.cut_plies),
            options.cut_plies,
            options.deepen_after,
            options.max_states,
            options.tree_cap,
            options.backend
        );
    }
    let bar = if json_out {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(options.max_states)
    };
    bar.set_style(
        ProgressStyle::with_template(
            "mapping [{bar:30}] {pos}/{len} positions of the state budget ({elapsed})",
        )
        .expect("template")
        .progress_chars("=> "),
    );
    let start = Instant::now();
    // memory: what the solvers, the oracles' tables and the empty encodings take before
    // the first position (setup), then the peak above that per encoded position
    let held_before = heap::held();
    let setup_held = AtomicUsize::new(0);
    let ready = || {
        setup_held.store(heap::held(), Ordering::Relaxed);
        heap::mark();
    };
    let searching = AtomicBool::new(false);
    let lines = Mutex::new(vec![String::new(); entrants.len()]);
    let progress = |i: usize, p: Progress| {
        let line = match p {
            Progress::Searching {
                round,
                positions,
                conflicts,
                settled,
            } => {
                if !searching.swap(true, Ordering::Relaxed) {
                    bar.set_style(
                        ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                            .expect("template"),
                    );
                }
                format!("round {round}: {positions} positions, {conflicts} dead ends, {settled} settled variables")
            }
            Progress::Mapping {
                positions,
                max_states,
            } => {
                if !searching.load(Ordering::Relaxed) {
                    bar.set_position(positions.max(bar.position()));
                }
                format!("mapping: {positions} of at most {max_states} positions")
            }
        };
        let mut lines = lines.lock().expect("progress lines");
        lines[i] = line;
        if lines.len() == 1 {
            bar.set_message(lines[0].clone());
        } else {
            let named: Vec<String> = lines
                .iter()
                .enumerate()
                .map(|(i, l)| format!("{}: {l}", entrant_name(i)))
                .collect();
            bar.set_message(named.join(" | "));
        }
        bar.tick();
    };
    // the searches differ only in when a budget may grow unproved, so they search alike
    // until the smallest such count: the first runs alone that far
    let head_start = widen_after
        .iter()
        .copied()
        .filter(|&w| w > 0)
        .min()
        .unwrap_or(u64::MAX);
    let race = c4lab_dsat::race(
        &input.diagram,
        &entrants,
        head_start,
        stop,
        &ready,
        &progress,
    )
    .context("cannot solve this root")?;
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    let setup_held = setup_held.load(Ordering::Relaxed);
    let setup_bytes = setup_held.saturating_sub(held_before);
    let chosen = race.chosen();
    let report = race.report();
    let map_seconds = race.entrants[chosen].map_seconds;
    // heap held above the setup at the peak, per position encoded by any entrant
    let positions: u64 = race
        .entrants
        .iter()
        .map(|e| e.report.encoding.positions)
        .sum();
    // CaDiCaL allocates in C++, past the counting allocator: its figure would be too low
    let counted = options.backend != "cadical";
    let bytes_per_state =
        counted.then(|| heap::peak().saturating_sub(setup_held) / positions.max(1) as usize);
    let (name, code) = verdict(&report.outcome);
    let e = report.encoding;
    if json_out {
        let mut j = json!({
            "verdict": name,
            "mapped": report.mapped,
            "positions": e.positions,
            "variables": e.variables,
            "clauses": e.clauses,
            "circuits": e.circuits,
            "pruned": e.pruned,
            "oracle_unknown": e.unknown,
            "rounds": report.rounds,
            "conflicts": report.conflicts,
            "levels": report.levels,
            "least_levels": report.least_levels,
            "widen_after": widen_after[chosen],
            "winner": race.winner,
            "entrants": race.entrants.iter().zip(widen_after).map(|(e, w)| json!({
                "widen_after": w,
                "verdict": verdict(&e.report.outcome).0,
                "positions": e.report.encoding.positions,
                "rounds": e.report.rounds,
                "conflicts": e.report.conflicts,
                "started_at": e.started_at,
                "levels": e.report.levels,
                "least_levels": e.report.least_levels,
                "map_seconds": e.map_seconds,
            })).collect::<Vec<_>>(),
            "bytes_per_state": bytes_per_state,
            "setup_bytes": counted.then_some(setup_bytes),
            "map_seconds": map_seconds,
            "search_seconds": seconds - map_seconds,
            "seconds": seconds,
        });
        if let Outcome::Found(d) = &report.outcome {
            j["diagram"] = json!(d.to_grid().lines().collect::<Vec<_>>());
        }
        println!("{j}");
        return Ok(code);
    }
    let memory = match bytes_per_state {
        Some(b) => format!(
            "{:.1} MB to set up, then {b} bytes per position at the peak, ",
            setup_bytes as f64 / 1e6
        ),
        None => "memory not counted (CaDiCaL allocates outside Rust's heap), ".to_string(),
    };
    let levels = if options.first_levels < c4lab_synth::FREE_LEVELS {
        levels_note(&report.outcome, report.levels, report.least_levels)
    } else {
        String::new()
    };
    let who = if race.entrants.len() > 1 {
        let others: Vec<String> = race
            .entrants
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != chosen)
            .map(|(i, e)| {
                let start = if e.started_at > 0 {
                    format!(", started at the first's {}", e.started_at)
                } else {
                    String::new()
                };
                format!(
                    "{} {} after {} dead ends{start}",
                    entrant_name(i),
                    verdict(&e.report.outcome).0,
                    e.report.conflicts
                )
            })
            .collect();
        format!(
            "search {} ({}; {}), ",
            entrant_name(chosen),
            widen_note(widen_after[chosen]),
            others.join(", ")
        )
    } else {
        String::new()
    };
    let counts = format!(
        "{who}{} positions mapped, {} in the end, {} variables, {} clauses, {} Red moves pruned by the strong solver, {} rounds, {} dead ends, {levels}{memory}mapping {map_seconds:.2} s, {seconds:.2} s in all",
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
    /// Roots with at most this many stones.
    #[arg(long, default_value_t = 42)]
    max_ply: u32,
    /// How many roots (taken evenly from those of --min-ply to --max-ply stones).
    #[arg(long, default_value_t = 8)]
    roots: usize,
    /// Give up a root after this many seconds.
    #[arg(long, default_value_t = 30.0)]
    cap: f64,
    /// SAT backend.
    #[arg(long, default_value = "batsat")]
    backend: String,
    /// Map positions down to this many plies below each root (the deepest cut).
    #[arg(long, default_value_t = Options::default().cut_plies)]
    cut: u32,
    /// Map only this many plies at first; deepen to --cut after --deepen-after rounds.
    #[arg(long, default_value_t = Options::default().first_cut_plies)]
    first_cut: u32,
    /// Verify-and-refine rounds at the first cut before the map is deepened.
    #[arg(long, default_value_t = Options::default().deepen_after)]
    deepen_after: u64,
    /// After a candidate fails: positions it reaches encoded at most, besides its losing
    /// line (0: the losing line only).
    #[arg(long, default_value_t = Options::default().tree_cap)]
    tree_cap: usize,
    /// Level budget: `?` cells first take levels below this only, one more each time no
    /// diagram fits (1, the default: the fewest levels; 10: every level from the start).
    #[arg(long, default_value_t = Options::default().first_levels,
          value_parser = clap::value_parser!(u8).range(1..=10))]
    first_levels: u8,
    /// Also search diagrams whose `?` levels leave gaps (no symmetry breaking).
    #[arg(long)]
    level_gaps: bool,
    /// Build the circuits' gates for every level from the start (see `c4lab dsat
    /// --build-all-levels`).
    #[arg(long)]
    build_all_levels: bool,
    /// One search per value, side by side, a thread each (see `c4lab dsat
    /// --widen-after`); with two, `--jobs 1` keeps one root's threads on two cores.
    #[arg(long, value_delimiter = ',', default_value = "0,3000")]
    widen_after: Vec<u64>,
    /// Only write each root's diagram (every level cell `?`) to DIR/<root>.txt and stop,
    /// for other tools (the browser-engine comparison, web/tests/bench-dsat.mjs).
    #[arg(long, value_name = "DIR")]
    write_grids: Option<std::path::PathBuf>,
    /// Strong-solver node budget per "does this Red move keep the win?" (0: no pruning,
    /// to measure how much the pruning shrinks the map).
    #[arg(long, default_value_t = 100_000)]
    oracle_nodes: u64,
    /// Roots solved at a time, each in its own process (more than one slows each solve:
    /// the processes share the machine's caches and memory bandwidth).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    jobs: u64,
}

/// The `--widen-after` values as the flag takes them.
fn widen_list(values: &[u64]) -> String {
    values
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// Runs `bench dsat` and prints its table: every level cell of each root `?`.
pub fn bench(a: BenchDsat) -> Result<u8> {
    use c4lab_steady::Cell;
    let pool = crate::complete::upstream_pool(&a.steady_states, a.min_ply..=a.max_ply)?;
    let step = (pool.len() / a.roots.max(1)).max(1);
    if a.write_grids.is_none() {
        println!(
            "dsat: upstream roots of ply {}-{}, every level cell ?, cut {} plies then {} after {} rounds, tree cap {}, first levels {}{}{}, widen after {}, backend {}, oracle {} nodes, cap {} s, {} at a time",
            a.min_ply,
            a.max_ply,
            a.first_cut.min(a.cut),
            a.cut,
            a.deepen_after,
            a.tree_cap,
            a.first_levels,
            if a.level_gaps { ", level gaps allowed" } else { "" },
            if a.build_all_levels { ", every level built from the start" } else { "" },
            widen_list(&a.widen_after),
            a.backend,
            a.oracle_nodes,
            a.cap,
            a.jobs
        );
        println!(
            "{:<22} {:>4} {:>8} {:>9} {:>8} {:>11} {:>8} {:>9} {:>9} {:>9} {:>7} {:>6} {:>3}",
            "root",
            "ply",
            "verdict",
            "mapped",
            "pruned",
            "clauses/pos",
            "setup MB",
            "bytes/pos",
            "map ms",
            "search ms",
            "rounds",
            "levels",
            "by"
        );
    }
    let mut roots = Vec::new();
    for d in pool.iter().step_by(step).take(a.roots) {
        let root = d.root().expect("filtered");
        let mut puzzle = d.clone();
        for (i, c) in d.cells().iter().enumerate() {
            if let Cell::Level(_) = c {
                puzzle.set(i % 7, 5 - i / 7, Cell::Undecided);
            }
        }
        let name = c4lab_board::format_moves(&root.order);
        if let Some(dir) = &a.write_grids {
            crate::input::write_grid(dir, &format!("{name}.txt"), &puzzle)?;
            continue;
        }
        roots.push((name, root.position.moves_played(), puzzle.to_grid()));
    }
    if a.write_grids.is_some() {
        return Ok(0);
    }
    let exe = std::env::current_exe().context("cannot find this program to run each root")?;
    // `--jobs` roots at a time, each in a process of its own; rows print in root order
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (send, receive) = std::sync::mpsc::channel();
    let mut seconds = Vec::new();
    std::thread::scope(|scope| -> Result<()> {
        for _ in 0..a.jobs.max(1) {
            let send = send.clone();
            let (next, roots, exe, a) = (&next, &roots, &exe, &a);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((name, _, grid)) = roots.get(i) else {
                    break;
                };
                if send.send((i, run_root(exe, a, name, grid))).is_err() {
                    break;
                }
            });
        }
        drop(send);
        let mut waiting = std::collections::BTreeMap::new();
        let mut printed = 0;
        for (i, result) in receive {
            waiting.insert(i, result);
            while let Some(result) = waiting.remove(&printed) {
                let (name, ply, _) = &roots[printed];
                let j = result?;
                print_row(name, *ply, &j);
                let found = j["verdict"] == "found";
                let t = j["map_seconds"].as_f64().unwrap_or(f64::NAN)
                    + j["search_seconds"].as_f64().unwrap_or(f64::NAN);
                seconds.push(if found { t } else { f64::INFINITY });
                printed += 1;
            }
        }
        Ok(())
    })?;
    println!("{}", summary(&seconds));
    Ok(if seconds.iter().all(|t| t.is_finite()) {
        0
    } else {
        1
    })
}

/// The bench's last line: roots found, found within 10 s, and the median time to the
/// verdict counting a root not found as slower than any (the targets).
fn summary(seconds: &[f64]) -> String {
    let found = seconds.iter().filter(|t| t.is_finite()).count();
    let quick = seconds.iter().filter(|&&t| t <= 10.0).count();
    let mut sorted = seconds.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let median = match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => sorted[n / 2],
        _ => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    };
    let median = if median.is_finite() {
        format!("{median:.2} s")
    } else if n == 0 {
        "none".to_string()
    } else {
        "not found (over half the roots)".to_string()
    };
    format!(
        "found {found} of {n}, {quick} within 10 s; median {median} (a root not found counts as slower than any)"
    )
}

/// Runs `c4lab dsat --json` on one root's grid in a process of its own, so that its
/// memory is measured alone.
fn run_root(exe: &Path, a: &BenchDsat, name: &str, grid: &str) -> Result<serde_json::Value> {
    let mut command = std::process::Command::new(exe);
    command.args(["dsat", "--json", "--backend", &a.backend]);
    for (flag, value) in [
        ("--max-seconds", a.cap.to_string()),
        ("--oracle-nodes", a.oracle_nodes.to_string()),
        ("--cut", a.cut.to_string()),
        ("--first-cut", a.first_cut.to_string()),
        ("--deepen-after", a.deepen_after.to_string()),
        ("--tree-cap", a.tree_cap.to_string()),
        ("--first-levels", a.first_levels.to_string()),
        ("--widen-after", widen_list(&a.widen_after)),
    ] {
        command.arg(flag).arg(value);
    }
    let mut child = command
        .args(a.level_gaps.then_some("--level-gaps"))
        .args(a.build_all_levels.then_some("--build-all-levels"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .context("cannot start c4lab dsat")?;
    std::io::Write::write_all(child.stdin.as_mut().expect("piped"), grid.as_bytes())?;
    let out = child.wait_with_output()?;
    match serde_json::from_slice(&out.stdout) {
        Ok(j) => Ok(j),
        Err(_) => bail!(
            "c4lab dsat gave no JSON for {name} (exit {:?})",
            out.status.code()
        ),
    }
}

/// One row of the bench's table.
fn print_row(name: &str, ply: u32, j: &serde_json::Value) {
    let num = |k: &str| j[k].as_f64().unwrap_or(f64::NAN);
    // JSON values ignore a width when printed: counts go through strings
    let int = |k: &str| {
        j[k].as_u64()
            .map_or_else(|| "-".to_string(), |v| v.to_string())
    };
    println!(
        "{:<22} {:>4} {:>8} {:>9} {:>8} {:>11.0} {:>8} {:>9} {:>9.0} {:>9.0} {:>7} {:>6} {:>3}",
        name,
        ply,
        j["verdict"].as_str().unwrap_or("?"),
        int("mapped"),
        int("pruned"),
        num("clauses") / num("positions").max(1.0),
        j["setup_bytes"]
            .as_f64()
            .map_or_else(|| "-".to_string(), |b| format!("{:.1}", b / 1e6)),
        int("bytes_per_state"),
        num("map_seconds") * 1e3,
        num("search_seconds") * 1e3,
        int("rounds"),
        int("levels"),
        j["winner"]
            .as_u64()
            .map_or('-', |w| entrant_name(w as usize))
    );
}

#[cfg(test)]
mod tests {
    use super::{levels_note, summary, Outcome};
    use c4lab_steady::{Cell, Diagram};

    #[test]
    fn the_level_note_claims_only_what_the_budgets_proved() {
        let found = Outcome::Found(Diagram::from_cells([Cell::Level(0); 42]));
        assert_eq!(
            levels_note(&found, 4, 4),
            "level budget 0-3 in the end (the fewest that can win), "
        );
        // a budget that grew unproved, or one the search stopped in, proves nothing
        assert!(levels_note(&found, 5, 3).contains("(none wins with fewer than 3)"));
        assert!(levels_note(&Outcome::Stopped, 4, 4).contains("(none wins with fewer than 4)"));
        assert!(levels_note(&Outcome::Budget, 1, 1).contains("(no smaller budget ruled out)"));
        // unsat speaks of every level itself
        assert_eq!(levels_note(&Outcome::Unsat, 10, 10), "");
    }

    #[test]
    fn the_summary_counts_a_root_not_found_as_slower_than_any() {
        let miss = f64::INFINITY;
        assert_eq!(
            summary(&[0.5, miss, 12.0]),
            "found 2 of 3, 1 within 10 s; median 12.00 s (a root not found counts as slower than any)"
        );
        // an even count takes the mean of the middle two
        assert!(summary(&[1.0, 2.0, 4.0, miss]).contains("median 3.00 s"));
        // a median that falls on misses is no time at all
        assert!(summary(&[1.0, miss, miss]).contains("median not found (over half the roots)"));
        assert!(summary(&[1.0, miss]).contains("median not found"));
        assert!(summary(&[]).starts_with("found 0 of 0, 0 within 10 s; median none"));
    }
}
