//! `c4lab complete` (auto-complete by CEGIS) and `c4lab bench complete`.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use c4lab_board::format_moves;
use c4lab_steady::{Cell, Counterexample, Diagram};
use c4lab_synth::{undecide, Completer, Completion, Learn, Options, Progress, Step};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use crate::complete_args::SearchArgs;
use crate::input::read_diagram;
use crate::line_log::{refuse_clash, LineLog};
use crate::plain::with_status_lines;
use crate::verify::RootValue;

/// Above this many `?` cells the scope is called wide before the search starts.
const WIDE_SCOPE: usize = 20;

/// Parses a time cap in seconds: a positive number a `Duration` can hold.
pub fn seconds_arg(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        // (a positive time below a nanosecond is a nanosecond, as `stop_flag` waits it)
        Ok(s) if s > 0.0 && Duration::try_from_secs_f64(s).is_ok() => Ok(s),
        // (it said "positive" of 1e20 too)
        Ok(s) if s > 0.0 => Err("expected a number of seconds no larger than about 1.8e19".into()),
        _ => Err("expected a positive number of seconds".into()),
    }
}

/// Raises `stop` after `seconds` (if given) and on Ctrl-C, SIGTERM or SIGHUP.
pub fn stop_flag(seconds: Option<f64>) -> Result<Arc<AtomicBool>> {
    let stop = Arc::new(AtomicBool::new(false));
    if let Some(s) = seconds {
        // a positive time below a nanosecond still waits one
        let wait = Duration::try_from_secs_f64(s)
            .ok()
            .filter(|_| s > 0.0)
            .map(|d| d.max(Duration::from_nanos(1)))
            .with_context(|| {
                // (a huge value in full would run to hundreds of digits)
                let got = if s.abs() < 1e15 { format!("{s}") } else { format!("{s:e}") };
                format!("--max-seconds must be a positive number of seconds no larger than about 1.8e19, got {got}")
            })?;
        let flag = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(wait);
            flag.store(true, Ordering::Relaxed);
        });
    }
    #[cfg(unix)]
    for signal in crate::files::stopping_signals() {
        // (a signal the process ignores stays ignored: `nohup` keeps a closed terminal
        // from stopping the search)
        let _ = signal_hook::flag::register(signal, stop.clone());
    }
    #[cfg(not(unix))]
    {
        let flag = stop.clone();
        // a second handler cannot be installed (tests call this twice in one process):
        // then Ctrl-C keeps its default meaning
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));
    }
    Ok(stop)
}

fn progress_line(p: &Progress) -> String {
    let deepest = match &p.deepest {
        Some((_, cx)) => format!(
            "deepest loss {} plies ({} after {})",
            cx.line.len(),
            cx.reason.name(),
            format_moves(&cx.line)
        ),
        None => "no loss yet".into(),
    };
    // losing cores are opt-in: counted only once there are some
    let cores = if p.cores > 0 {
        format!(", {} losing cores", p.cores)
    } else {
        String::new()
    };
    format!(
        "{}, {}, {}{cores}, {}; {deepest}",
        counted(p.candidates, "candidate"),
        counted(p.clauses, "clause"),
        counted(p.positions, "position"),
        counted(p.conflicts, "dead end")
    )
}

/// `n word`, the word in the plural (an `s` added) unless `n` is 1.
pub(crate) fn counted(n: impl Into<u64>, word: &str) -> String {
    let n = n.into();
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// One candidate's line of `--log-candidates`: `lost` is its counterexample, None for
/// the candidate that won.
fn log_candidate(log: &LineLog, p: &Progress, diagram: &Diagram, lost: Option<&Counterexample>) {
    let mut line = json!({
        "candidate": p.candidates,
        "diagram": diagram.to_grid().lines().collect::<Vec<_>>(),
        "won": lost.is_none(),
        "clauses": p.clauses,
        "positions": p.positions,
    });
    // (its loss as `verify --json` gives it: reason, line, yellow, and tied levels)
    if let Some(cx) = lost {
        line["loss"] = cx.to_json();
    }
    log.write(&line);
}

/// `c4lab complete`; `log_candidates` names a file for a line per candidate.
pub fn complete(
    file: Option<&Path>,
    json_out: bool,
    max_seconds: Option<f64>,
    args: &SearchArgs,
    log_candidates: Option<&Path>,
) -> Result<u8> {
    args.check()?;
    if let Some(log) = log_candidates {
        refuse_clash("--log-candidates", "candidate log", log, file)?;
    }
    let input = read_diagram(file)?;
    let diagram = input.diagram;
    let stop = stop_flag(max_seconds)?;
    let mut completer = Completer::new(&diagram, args.options(), stop).map_err(|e| match e {
        // the settings are at fault, not the diagram
        c4lab_synth::SynthError::Options(_) => anyhow::Error::new(e),
        e => anyhow::Error::new(e).context(format!(
            "{}: cannot search completions of this diagram",
            input.name
        )),
    })?;
    let undecided = completer.undecided();
    // a log that cannot be written is refused before the run is described
    let candidate_log = log_candidates
        .map(|log| LineLog::create(log, "candidate log"))
        .transpose()?;
    if !json_out {
        sayln!(
            "{} (?) searched over levels 0-9; every other cell stays as it is; backend {}",
            counted(undecided as u64, "undecided cell"),
            args.backend
        );
        if undecided > WIDE_SCOPE {
            let or_cap = if max_seconds.is_none() {
                " or set --max-seconds"
            } else {
                ""
            };
            sayln!(
                "warning: {undecided} undecided cells is a wide scope: the search may run a long time; decide some cells{or_cap}"
            );
        }
    }
    let bar = if json_out {
        ProgressBar::hidden()
    } else {
        ProgressBar::new_spinner()
    };
    bar.set_style(ProgressStyle::with_template("{spinner} {elapsed} {msg}").expect("template"));
    let start = Instant::now();
    let mut last = Instant::now();
    // where standard error is no terminal (a log file, a batch job), the live line
    // every ten seconds
    let status = Mutex::new("no candidate yet".to_string());
    let done = with_status_lines("complete", !json_out, &status, || -> Result<Completion> {
        loop {
            let step = completer.step()?;
            let p = completer.progress();
            if let Some(log) = &candidate_log {
                match &step {
                    Step::Refuted => {
                        if let Some((d, cx)) = &p.live {
                            log_candidate(log, p, d, Some(cx));
                        }
                    }
                    Step::Done(Completion::Found { diagram, .. }) => {
                        log_candidate(log, p, diagram, None)
                    }
                    Step::Done(_) => {}
                }
            }
            *status.lock().unwrap_or_else(|e| e.into_inner()) = progress_line(p);
            if last.elapsed() > Duration::from_millis(100) {
                bar.set_message(progress_line(p));
                bar.tick();
                last = Instant::now();
            }
            if let Step::Done(done) = step {
                return Ok(done);
            }
        }
    })?;
    bar.finish_and_clear();
    // a candidate log that could not be written costs the run no verdict: said at the end
    let log_error = candidate_log.and_then(|log| log.finish().err());
    let p = completer.progress().clone();
    let seconds = start.elapsed().as_secs_f64();
    let (verdict, code) = match &done {
        Completion::Found { .. } => ("found", 0),
        Completion::Unsat => ("unsat", 1),
        Completion::Stopped => ("stopped", 3),
    };
    // a diagram with no `?` cell was judged as it stands: say why it loses
    let as_it_stands = matches!(done, Completion::Unsat)
        .then(|| crate::verify::loss_as_it_stands(&diagram))
        .flatten();
    // what an unsat verdict covers, said on the verdict line and as `covers` in JSON
    let covers = match &as_it_stands {
        Some(_) => "with no ? cell the diagram is judged as it stands, and it loses".to_string(),
        // with no level cell fixed, nothing else could be: the root is lost to every
        // diagram
        None if !has_fixed_levels(&diagram) => format!(
            "no diagram wins from this root (its {} over levels 0-9)",
            counted(undecided as u64, "empty cell")
        ),
        None => format!(
            "no completion of these fixed cells wins (the {} over levels 0-9, every other cell as given); this says nothing of the root with other fixed cells",
            counted(undecided as u64, "? cell")
        ),
    };
    // an unsat about the root itself: is the root lost in the game, or to the language?
    let unsat = matches!(done, Completion::Unsat);
    let root_value = crate::verify::unsat_root_value(&diagram, unsat);
    if json_out {
        let mut j = json!({
            "verdict": verdict,
            "undecided": undecided,
            "candidates": p.candidates,
            "clauses": p.clauses,
            "positions": p.positions,
            "conflicts": p.conflicts,
            "cores": p.cores,
            "seconds": seconds,
            "backend": args.backend,
            "learn": args.learn,
            "seed": args.seed,
        });
        if let Completion::Found { diagram, positions } = &done {
            j["diagram"] = json!(diagram.to_grid().lines().collect::<Vec<_>>());
            j["verified_positions"] = json!(positions);
        }
        if let Completion::Unsat = done {
            j["covers"] = json!(covers);
            j["root_outcome"] = json!(root_value.map(RootValue::outcome));
            j["root_score"] = json!(root_value.and_then(|v| v.score));
        }
        if let Some(cx) = &as_it_stands {
            j["loss"] = cx.to_json();
        }
        if let Some((d, cx)) = &p.deepest {
            j["deepest"] = json!({
                "diagram": d.to_grid().lines().collect::<Vec<_>>(),
                "loss": cx.to_json(),
            });
        }
        outln!("{j}");
        crate::line_log::warn_after_verdict(log_error);
        return Ok(code);
    }
    let summary = format!(
        "{}, {}, {} encoded, {seconds:.2} s",
        counted(p.candidates, "candidate"),
        counted(p.clauses, "clause"),
        counted(p.positions, "position")
    );
    match &done {
        Completion::Found { diagram, positions } => {
            out!("{}", diagram.to_grid());
            sayln!(
                "found: a completion that verifies as a win ({} searched); {summary}",
                counted(*positions, "position")
            );
        }
        Completion::Unsat => match &as_it_stands {
            Some(cx) => sayln!("unsat: {covers}: {}; {summary}", cx.describe()),
            None => sayln!(
                "unsat: {covers}{}; {summary}",
                crate::verify::root_clause(root_value)
            ),
        },
        Completion::Stopped => {
            if let Some((d, cx)) = &p.deepest {
                sayln!("deepest candidate so far, lost by {}:", cx.describe());
                say!("{}", d.to_grid());
            }
            sayln!("stopped: no completion found yet; {summary}");
        }
    }
    crate::line_log::warn_after_verdict(log_error);
    Ok(code)
}

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
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(0..=42))]
    min_ply: u32,
    /// Only diagrams whose root has at most this many stones.
    #[arg(long, default_value_t = 18, value_parser = clap::value_parser!(u32).range(0..=42))]
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
    #[arg(long, value_delimiter = ',', conflicts_with = "seed")]
    seeds: Vec<u64>,
    /// Write each task's grid (its `?` cells undecided) to this directory as
    /// `k<K>-seed<S>-task<I>.txt` instead of running it, so that one task can be rerun
    /// alone with `c4lab complete`.
    #[arg(long)]
    write_grids: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) search: SearchArgs,
}

/// The median: the middle value, or the mean of the middle two of an even count (NaN
/// of none).
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
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
    let pool = c4lab_steady::solution::diagrams_with_plies(leaves, plies.clone());
    anyhow::ensure!(
        !pool.is_empty(),
        "no diagram of {} has a root of {} stones",
        path.display(),
        if *plies.end() == u32::MAX {
            format!("{} or more", plies.start())
        } else {
            format!("{}-{}", plies.start(), plies.end())
        }
    );
    Ok(pool)
}

/// Task `i` of the benchmark under `seed`: upstream's diagram `d` with `k` cells undecided.
fn task(d: &Diagram, k: usize, i: usize, seed: u64) -> Diagram {
    undecide(d, k, (k * 1000 + i) as u64 ^ seed)
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
            "--k {k}: the diagrams sampled from roots of {}-{} stones have as few as {cells} level cells to undecide; give k of at most {cells} (or a lower --max-ply)",
            a.min_ply,
            a.max_ply
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
                "wrote the tasks of {} of ply {}-{}{}",
                counted(pool.len() as u64, "upstream diagram"),
                a.min_ply,
                a.max_ply,
                all_there_are(pool.len(), a.tasks)
            );
        }
        return Ok(0);
    }
    outln!(
        "auto-complete: {} of ply {}-{}{}, backend {}, learn {}, seed {}, cap {} s; medians and maxima over the tasks found",
        counted(pool.len().min(a.tasks) as u64, "upstream diagram"),
        a.min_ply,
        a.max_ply,
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
            if a.tasks_detail {
                let p = c.progress();
                let outcome = match done {
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
            if let Completion::Found { .. } = done {
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

/// Whether any empty cell holds a level (not `?`): what a search of the rest pins.
pub(crate) fn has_fixed_levels(diagram: &c4lab_steady::Diagram) -> bool {
    (diagram.cells().iter()).any(|c| matches!(c, c4lab_steady::Cell::Level(_)))
}

#[cfg(test)]
mod tests {
    use super::{counted, median};

    #[test]
    fn an_even_count_takes_the_mean_of_the_middle_two() {
        // it took the upper one: two tasks of 4 and 1 ms had a median of 4 ms
        assert_eq!(median(&mut [4.0, 1.0]), 2.5);
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert!(median(&mut []).is_nan());
    }

    #[test]
    fn one_of_a_thing_reads_in_the_singular() {
        // `complete` on a diagram with no ? cell printed "1 candidates"
        assert_eq!(counted(1u64, "candidate"), "1 candidate");
        assert_eq!(counted(0u64, "clause"), "0 clauses");
    }
}
