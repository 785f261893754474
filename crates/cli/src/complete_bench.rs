//! `c4lab bench complete`: auto-complete on upstream's diagrams with cells undecided.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use c4lab_steady::{Cell, Diagram};
use c4lab_synth::{undecide, Completer, Completion, Learn, Options};
use clap::Args;

use crate::bench::median;
use crate::complete::{counted, seconds_arg};
use crate::complete_args::SearchArgs;

/// `c4lab bench complete`.
#[derive(Args)]
pub struct BenchComplete {
    /// Upstream's steady_states.txt.
    #[arg(long, default_value = "../shared/data/upstream/steady_states.txt")]
    steady_states: PathBuf,
    /// How many cells to undecide, per row of the table (1 or more each).
    #[arg(long, value_delimiter = ',', default_value = "4,8,14,20", value_parser = crate::solve::count_arg)]
    k: Vec<usize>,
    /// Diagrams per k (taken evenly from those with a root of at least --min-ply stones).
    #[arg(long, default_value_t = 12, value_parser = crate::solve::count_arg)]
    tasks: usize,
    /// Only diagrams whose root has at least this many stones.
    #[arg(long, default_value_t = 16, value_parser = crate::whole::range::<u32>(0, 42))]
    min_ply: u32,
    /// Only diagrams whose root has at most this many stones.
    #[arg(long, default_value_t = 18, value_parser = crate::whole::range::<u32>(0, 42))]
    max_ply: u32,
    /// Give up a task after this many seconds.
    #[arg(long, allow_hyphen_values = true, default_value_t = 20.0, value_parser = seconds_arg)]
    cap: f64,
    /// Also print one line per task on stderr (root, outcome, candidates, positions, clauses,
    /// cores, conflicts, time).
    #[arg(long)]
    tasks_detail: bool,
    /// Run the tasks under each of these seeds and pool them in each row; a seed acts
    /// as --seed does (it chooses the undecided cells and, on CaDiCaL, seeds the phase
    /// scrambling). Default: --seed alone (which is refused beside it, not ignored).
    #[arg(long, value_delimiter = ',', conflicts_with = "seed", value_parser = crate::whole::any_u64)]
    seeds: Vec<u64>,
    /// Write each task's grid (its `?` cells undecided) to this directory as
    /// `k<K>-seed<S>-task<I>.txt` instead of running it, so that one task can be rerun
    /// alone with `c4lab complete`. (--cap, --tasks-detail and the search settings but
    /// --seed shape a run, so they are refused beside it.)
    #[arg(long, conflicts_with_all = ["cap", "tasks_detail"])]
    write_grids: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) search: SearchArgs,
}

/// Upstream's diagrams (translated) whose roots hold a number of stones in `plies`.
pub fn upstream_pool(path: &Path, plies: std::ops::RangeInclusive<u32>) -> Result<Vec<Diagram>> {
    anyhow::ensure!(
        plies.start() <= plies.end(),
        "--min-ply {} is above --max-ply {}: no root has at least the one number of stones and at most the other; lower --min-ply or raise --max-ply",
        plies.start(),
        plies.end()
    );
    let text = crate::bench::read_data(path, "--steady-states FILE")?;
    let (leaves, errors) = c4lab_steady::solution::parse_leaves(&text);
    anyhow::ensure!(errors.is_empty(), "{}: {}", path.display(), errors[0]);
    // (an empty file was said to have no root of the stones asked, as if others were there)
    anyhow::ensure!(
        !leaves.is_empty(),
        "--steady-states {} holds no diagram (six rows each, blank lines between): give upstream's steady_states.txt",
        path.display()
    );
    let pool = c4lab_steady::solution::diagrams_with_plies(leaves, plies.clone());
    anyhow::ensure!(
        !pool.is_empty(),
        "no diagram of {} has a root of {} stones",
        path.display(),
        if *plies.end() == u32::MAX {
            format!("{} or more", plies.start())
        } else {
            stones(*plies.start(), *plies.end())
        }
    );
    Ok(pool)
}

/// Task `i` of the benchmark under `seed`: upstream's diagram `d` with `k` cells undecided.
fn task(d: &Diagram, k: usize, i: usize, seed: u64) -> Diagram {
    undecide(d, k, (k * 1000 + i) as u64 ^ seed)
}

/// `ply 14`, or `ply 14-16`: the stones of a sample's roots, as a header names them.
pub(crate) fn plies(min: u32, max: u32) -> String {
    format!("ply {}", stones(min, max))
}

/// `14`, or `14-16`: a count of stones from `min` to `max`.
fn stones(min: u32, max: u32) -> String {
    if min == max {
        min.to_string()
    } else {
        format!("{min}-{max}")
    }
}

/// A header's note when a sample asked for more upstream diagrams than the plies hold.
pub(crate) fn all_there_are(taken: usize, asked: usize) -> String {
    if taken < asked {
        format!(" (all there are; {asked} asked)")
    } else {
        String::new()
    }
}

/// Runs the benchmark and prints its table.
pub fn bench(a: BenchComplete) -> Result<u8> {
    // (search settings beside --write-grids are refused first: none of them is used)
    if a.write_grids.is_some() {
        // (bar --seed, which chooses the tasks)
        let search: Vec<String> = (a.search.typed().iter())
            .filter(|flag| *flag != "--seed")
            .cloned()
            .collect();
        crate::input::refuse_search_settings(&search)?;
    }
    a.search.check()?;
    // a value given twice would be run, or pooled, twice (`--seeds 1,1` counted each
    // task twice in its row)
    for (flag, values) in [
        ("--k", a.k.iter().map(|&k| k as u64).collect::<Vec<_>>()),
        ("--seeds", a.seeds.clone()),
    ] {
        if let Some(twice) = values
            .iter()
            .find(|v| values.iter().filter(|w| w == v).count() > 1)
        {
            bail!("{flag} names {twice} twice: give each value once");
        }
    }
    if let Some(dir) = &a.write_grids {
        crate::input::check_grid_dir(dir)?;
    }
    let pool = upstream_pool(&a.steady_states, a.min_ply..=a.max_ply)?;
    let step = (pool.len() / a.tasks.max(1)).max(1);
    // a task is a winning diagram with k cells undecided: a diagram that holds `?` cells
    // already would run more than its row's k, and one that loses could never be
    // completed (either was run and counted without a word)
    for d in pool.iter().step_by(step).take(a.tasks) {
        let root = || {
            d.root()
                .map_or_else(|_| "?".to_string(), |r| c4lab_board::format_moves(&r.order))
        };
        if d.undecided() > 0 {
            bail!(
                "--steady-states {}: the diagram of root {} holds {} already; the benchmark undecides k cells of a winning diagram: give diagrams with every cell decided",
                a.steady_states.display(),
                root(),
                counted(d.undecided() as u64, "? cell")
            );
        }
        match c4lab_steady::Verifier::new().verify(d) {
            c4lab_steady::Verdict::Win { .. } => {}
            c4lab_steady::Verdict::Budget { positions } => bail!(
                "--steady-states {}: the diagram of root {} is too large for the verifier ({positions} positions searched without a verdict): give smaller diagrams",
                a.steady_states.display(),
                root()
            ),
            _ => bail!(
                "--steady-states {}: the diagram of root {} does not win (`c4lab verify` says why); the benchmark undecides k cells of a winning diagram: give winning diagrams",
                a.steady_states.display(),
                root()
            ),
        }
    }
    // every task must have k level cells to undecide, or its row would claim a k it never ran
    let cells = pool
        .iter()
        .step_by(step)
        .take(a.tasks)
        .map(|d| {
            d.cells()
                .iter()
                .filter(|c| matches!(c, Cell::Level(_)))
                .count()
        })
        .min()
        .unwrap_or(0);
    if let Some(k) = a.k.iter().find(|&&k| k > cells) {
        bail!(
            "--k {k}: the diagrams sampled from roots of {} stones have as few as {cells} level cells to undecide; give k of at most {cells} (or a lower --max-ply)",
            stones(a.min_ply, a.max_ply)
        );
    }
    let seeds = if a.seeds.is_empty() {
        vec![a.search.seed]
    } else {
        a.seeds.clone()
    };
    let tasks = seeds.iter().flat_map(|&seed| {
        pool.iter()
            .step_by(step)
            .take(a.tasks)
            .enumerate()
            .map(move |(i, d)| (seed, i, d))
    });
    if let Some(dir) = &a.write_grids {
        for &k in &a.k {
            for (seed, i, d) in tasks.clone() {
                let name = format!("k{k}-seed{seed}-task{i}.txt");
                crate::input::write_grid(dir, &name, &task(d, k, i, seed))?;
            }
        }
        if pool.len() < a.tasks {
            sayln!(
                "wrote the tasks of {} of {}{}",
                counted(pool.len() as u64, "upstream diagram"),
                plies(a.min_ply, a.max_ply),
                all_there_are(pool.len(), a.tasks)
            );
        }
        return Ok(0);
    }
    outln!(
        "auto-complete: {} of {}{}, backend {}, learn {}, seed {}, cap {} s; medians and maxima over the tasks found",
        counted(pool.len().min(a.tasks) as u64, "upstream diagram"),
        plies(a.min_ply, a.max_ply),
        all_there_are(pool.len(), a.tasks),
        a.search.backend,
        a.search.learn,
        seeds
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(","),
        a.cap
    );
    outln!(
        "{:>4} {:>7} {:>12} {:>12} {:>11} {:>11} {:>10}",
        "k",
        "found",
        "cand median",
        "cand max",
        "ms median",
        "ms max",
        "pos median"
    );
    let mut all_found = true;
    let blocking = Learn::parse(&a.search.learn) == Some(Learn::Blocking);
    for &k in &a.k {
        let (mut cands, mut ms, mut positions) = (Vec::new(), Vec::new(), Vec::new());
        let mut found = 0;
        let mut ran = 0;
        for (seed, i, d) in tasks.clone() {
            ran += 1;
            let puzzle = task(d, k, i, seed);
            let options = Options {
                seed,
                ..a.search.options()
            };
            let stop = Arc::new(AtomicBool::new(false));
            let flag = stop.clone();
            let cap = a.cap;
            let timer = std::thread::spawn(move || {
                let start = Instant::now();
                while start.elapsed().as_secs_f64() < cap {
                    if flag.load(Ordering::Relaxed) {
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
                flag.store(true, Ordering::Relaxed);
            });
            let start = Instant::now();
            let mut c = Completer::new(&puzzle, options, stop.clone())?;
            let done = c.run(|_| {})?;
            let elapsed = start.elapsed().as_secs_f64() * 1e3;
            stop.store(true, Ordering::Relaxed);
            timer.join().ok();
            // the stop flag is read between steps, so a task's set-up or first step may
            // run past the cap: found then is not found within it (at --cap 0.001 a task
            // found in 5.5 ms counted as found)
            let in_cap = elapsed <= a.cap * 1e3;
            if a.tasks_detail {
                let p = c.progress();
                let outcome = match done {
                    Completion::Found { .. } if !in_cap => "found past the cap",
                    Completion::Found { .. } => "found",
                    Completion::Unsat => "unsat",
                    Completion::Stopped => "stopped",
                };
                sayln!(
                    "  k {k} seed {seed} task {i} root {}: {outcome}, {}, {}, {}, {}, {}, {:.1} ms",
                    puzzle
                        .root()
                        .map(|r| r
                            .order
                            .iter()
                            .map(|&x| char::from(b'1' + x))
                            .collect::<String>())
                        .unwrap_or_default(),
                    counted(p.candidates, "candidate"),
                    counted(p.positions, "position"),
                    counted(p.clauses, "clause"),
                    counted(p.cores, "core"),
                    counted(p.conflicts, "conflict"),
                    elapsed
                );
            }
            if let (Completion::Found { .. }, true) = (&done, in_cap) {
                found += 1;
                cands.push(c.progress().candidates as f64);
                ms.push(elapsed);
                positions.push(c.progress().positions as f64);
            }
        }
        all_found &= found == ran;
        let max = |v: &[f64]| v.iter().copied().fold(f64::NAN, f64::max);
        // no task found: nothing to take a median of ("-", as `bench solver` writes)
        let cell = |x: f64, decimals: usize| {
            if x.is_nan() {
                "-".to_string()
            } else {
                format!("{x:.decimals$}")
            }
        };
        outln!(
            "{:>4} {:>7} {:>12} {:>12} {:>11} {:>11} {:>10}",
            k,
            format!("{found}/{ran}"),
            cell(median(&mut cands.clone()), 0),
            cell(max(&cands), 0),
            cell(median(&mut ms.clone()), 1),
            cell(max(&ms), 1),
            // blocking clauses encode no position: a median of 0 would read as a count
            if blocking {
                "-".to_string()
            } else {
                cell(median(&mut positions), 0)
            },
        );
    }
    Ok(if all_found { 0 } else { 1 })
}
