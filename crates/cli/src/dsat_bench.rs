//! `c4lab bench dsat`: upstream roots with every level cell `?` (or given grids), each
//! solved by `c4lab dsat` in a process of its own, one row per root and a summary; with
//! a baseline build, both builds on every root, interleaved, side by side.

use std::path::Path;

use anyhow::{bail, Context, Result};

use crate::dsat::entrant_name;
use crate::dsat_args::SearchArgs;

/// `c4lab bench dsat`.
#[derive(clap::Args)]
pub struct BenchDsat {
    /// Upstream's steady_states.txt.
    #[arg(long, default_value = "../shared/data/upstream/steady_states.txt")]
    steady_states: std::path::PathBuf,
    /// Roots with at least this many stones.
    #[arg(long, default_value_t = 16, value_parser = crate::whole::range::<u32>(0, 42))]
    min_ply: u32,
    /// Roots with at most this many stones.
    #[arg(long, default_value_t = 42, value_parser = crate::whole::range::<u32>(0, 42))]
    max_ply: u32,
    /// How many roots (taken evenly from those of --min-ply to --max-ply stones).
    #[arg(long, default_value_t = 8, value_parser = crate::solve::count_arg)]
    roots: usize,
    /// Give up a root after this many seconds.
    #[arg(long, allow_hyphen_values = true, default_value_t = 30.0, value_parser = crate::complete::seconds_arg)]
    cap: f64,
    #[command(flatten)]
    search: SearchArgs,
    /// Only write each root's diagram (every level cell `?`) to DIR/ROOT.txt and stop,
    /// for other tools (the browser-engine comparison, web/tests/bench-dsat.mjs).
    /// (--baseline, --jobs, --cap and the search settings shape a run, so they are
    /// refused beside it.)
    #[arg(long, value_name = "DIR", conflicts_with_all = ["baseline", "jobs", "cap"])]
    write_grids: Option<std::path::PathBuf>,
    /// Roots solved at a time, each in its own process (more than one slows each solve:
    /// the processes share the machine's caches and memory bandwidth).
    #[arg(long, default_value_t = 1, value_parser = crate::whole::range::<u64>(1, 64))]
    jobs: u64,
    /// Solve these grids (as `c4lab dsat` reads them, pinned cells kept) instead of
    /// upstream's roots: a fixed sample, such as one `--write-grids` wrote.
    /// (--roots, --min-ply, --max-ply and --steady-states choose upstream's roots, so
    /// they are refused beside it rather than ignored.)
    #[arg(long, num_args = 1.., value_name = "FILE",
          conflicts_with_all = ["write_grids", "roots", "min_ply", "max_ply", "steady_states"])]
    grids: Vec<std::path::PathBuf>,
    /// Another `c4lab` build to run on every root as well, with the same flags (and
    /// the same environment, so a setting read from it applies to both): the two
    /// alternate which goes first, root by root, and the summary compares them.
    #[arg(long, value_name = "EXE")]
    baseline: Option<std::path::PathBuf>,
    /// The search settings typed on the command line (`--write-grids` refuses them).
    #[arg(skip)]
    pub(crate) typed_search: Vec<String>,
}

/// The roots to solve: a name, the stones on the board, and the grid `c4lab dsat` reads.
type Root = (String, u32, String);

/// Runs `bench dsat` and prints its table (and, with a baseline, both builds' summaries).
pub fn bench(a: BenchDsat) -> Result<u8> {
    // (search settings beside --write-grids are refused first: none of them is used)
    if let Some(dir) = &a.write_grids {
        crate::input::refuse_search_settings(&a.typed_search)?;
        crate::input::check_grid_dir(dir)?;
    }
    // the flags every root's `c4lab dsat` gets, refused here rather than once a root
    a.search.check()?;
    if let Some(b) = a.baseline.as_ref().filter(|b| !b.is_file()) {
        let what = if b.is_dir() {
            "a folder, not a program"
        } else {
            "no such program"
        };
        bail!(
            "--baseline {}: {what} (give the path of another c4lab build)",
            b.display()
        );
    }
    let roots = if a.grids.is_empty() {
        upstream_roots(&a)?
    } else {
        given_roots(&a.grids)?
    };
    if a.write_grids.is_some() {
        let written = roots.len();
        if written < a.roots {
            sayln!(
                "wrote {} of {}{}",
                crate::complete::counted(written as u64, "upstream root"),
                crate::complete_bench::plies(a.min_ply, a.max_ply),
                crate::complete_bench::all_there_are(written, a.roots)
            );
        }
        return Ok(0);
    }
    let source = if a.grids.is_empty() {
        format!(
            "{} of {}{}, every level cell ?",
            crate::complete::counted(roots.len() as u64, "upstream root"),
            crate::complete_bench::plies(a.min_ply, a.max_ply),
            crate::complete_bench::all_there_are(roots.len(), a.roots)
        )
    } else {
        format!(
            "{} as given",
            crate::complete::counted(roots.len() as u64, "grid")
        )
    };
    let against = match &a.baseline {
        Some(b) => format!(", against the baseline {} (interleaved)", b.display()),
        None => String::new(),
    };
    outln!(
        "dsat: {source}, {}, cap {} s, {} at a time{against}",
        a.search.describe(),
        a.cap,
        a.jobs
    );
    outln!(
        "{:<22} {:>4} {:>8} {:>9} {:>9} {:>8} {:>11} {:>8} {:>9} {:>9} {:>9} {:>7} {:>6} {:>3}{}",
        "root",
        "ply",
        "verdict",
        "mapped",
        "encoded",
        "pruned",
        "clauses/pos",
        "setup MB",
        "bytes/pos",
        "map ms",
        "search ms",
        "rounds",
        "levels",
        "by",
        if a.baseline.is_some() { "  build" } else { "" }
    );
    let this = std::env::current_exe().context("cannot find this program to run each root")?;
    let mut builds = vec![this];
    builds.extend(a.baseline.clone());
    // `--jobs` roots at a time, each in a process of its own; rows print in root order
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (send, receive) = std::sync::mpsc::channel();
    // per build, the seconds to each root's verdict (a root not found: infinity) and
    // its dead ends
    let mut seconds = vec![Vec::new(); builds.len()];
    let mut dead_ends = vec![Vec::new(); builds.len()];
    std::thread::scope(|scope| -> Result<()> {
        for _ in 0..a.jobs.max(1) {
            let send = send.clone();
            let (next, roots, builds, a) = (&next, &roots, &builds, &a);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((name, _, grid)) = roots.get(i) else {
                    break;
                };
                // the builds take turns going first, so that neither always runs on a
                // machine the other has just warmed (or heated)
                let mut results: Vec<Option<Result<serde_json::Value>>> =
                    builds.iter().map(|_| None).collect();
                for k in 0..builds.len() {
                    let b = (k + i) % builds.len();
                    results[b] = Some(run_root(&builds[b], a, name, grid));
                }
                if send.send((i, results)).is_err() {
                    break;
                }
            });
        }
        drop(send);
        let mut waiting = std::collections::BTreeMap::new();
        let mut printed = 0;
        for (i, results) in receive {
            waiting.insert(i, results);
            while let Some(results) = waiting.remove(&printed) {
                let (name, ply, _) = &roots[printed];
                for (b, result) in results.into_iter().enumerate() {
                    let j = result.expect("every build ran")?;
                    let label = match (&a.baseline, b) {
                        (None, _) => "",
                        (Some(_), 0) => "  this",
                        (Some(_), _) => "  base",
                    };
                    print_row(name, *ply, &j, label)?;
                    let found = j["verdict"] == "found";
                    let t = j["map_seconds"].as_f64().unwrap_or(f64::NAN)
                        + j["search_seconds"].as_f64().unwrap_or(f64::NAN);
                    seconds[b].push(if found { t } else { f64::INFINITY });
                    dead_ends[b].push(j["conflicts"].as_f64().unwrap_or(f64::NAN));
                }
                printed += 1;
            }
        }
        Ok(())
    })?;
    if a.baseline.is_some() {
        outln!("this build: {}", summary(&seconds[0]));
        outln!("baseline:   {}", summary(&seconds[1]));
        outln!("{}", comparison(&seconds, &dead_ends));
    } else {
        outln!("{}", summary(&seconds[0]));
    }
    Ok(if seconds[0].iter().all(|t| t.is_finite()) {
        0
    } else {
        1
    })
}

/// Upstream's roots of the chosen plies, taken evenly, every level cell `?` (also written
/// out with `--write-grids`).
fn upstream_roots(a: &BenchDsat) -> Result<Vec<Root>> {
    use c4lab_steady::Cell;
    let pool = crate::complete_bench::upstream_pool(&a.steady_states, a.min_ply..=a.max_ply)?;
    let step = (pool.len() / a.roots.max(1)).max(1);
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
        }
        roots.push((name, root.position.moves_played(), puzzle.to_grid()));
    }
    Ok(roots)
}

/// The grids given, each named by its file's stem; the same grid given twice is
/// refused (it ran twice and counted twice in the summary and the median).
fn given_roots(files: &[std::path::PathBuf]) -> Result<Vec<Root>> {
    let mut roots: Vec<Root> = Vec::with_capacity(files.len());
    for f in files {
        let d = crate::input::read_diagram(Some(f))?.diagram;
        // the same check as `c4lab dsat`'s, before the first root runs
        let root = c4lab_synth::checked_root(&d)
            .with_context(|| format!("{}: no root to solve", f.display()))?;
        let name = f
            .file_stem()
            .map_or_else(|| f.display().to_string(), |s| s.to_string_lossy().into());
        let grid = d.to_grid();
        if let Some(j) = roots.iter().position(|r| r.2 == grid) {
            let same = if files[j] == *f {
                format!("--grids names {} twice", f.display())
            } else {
                format!(
                    "--grids {} and {} hold the same grid",
                    files[j].display(),
                    f.display()
                )
            };
            bail!("{same}: it would run twice and count twice in the median; give each grid once");
        }
        roots.push((name, root.moves_played(), grid));
    }
    Ok(roots)
}

/// How this build did against the baseline on the roots both found: the geometric
/// means of the ratios of dead ends and of seconds (below 1: this build needed less).
fn comparison(seconds: &[Vec<f64>], dead_ends: &[Vec<f64>]) -> String {
    let (mut n, mut log_ends, mut log_secs) = (0, 0.0, 0.0);
    for i in 0..seconds[0].len() {
        let (t, b) = (seconds[0][i], seconds[1][i]);
        if t.is_finite() && b.is_finite() {
            n += 1;
            log_ends += (dead_ends[0][i].max(1.0) / dead_ends[1][i].max(1.0)).ln();
            log_secs += (t.max(1e-3) / b.max(1e-3)).ln();
        }
    }
    if n == 0 {
        return "no root found by both builds".to_string();
    }
    let mean = |sum: f64| (sum / f64::from(n)).exp();
    format!(
        "on the {n} roots both found, this build / baseline: dead ends x{:.3}, seconds x{:.3} (geometric means)",
        mean(log_ends),
        mean(log_secs)
    )
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
    } else if 2 * found == n {
        // (the mean of the middle two, one of them a miss)
        "not found (half the roots)".to_string()
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
    crate::baseline::ended_with_us(&mut command)
        .args(["dsat", "--json", "--max-seconds", &a.cap.to_string()])
        .args(a.search.child_args());
    let mut child = command
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot start {} dsat", exe.display()))?;
    // a program that exits without reading the grid is named below, by its output and
    // exit status (its broken pipe is no reason to stop as if our stdout had closed)
    let _ = std::io::Write::write_all(child.stdin.as_mut().expect("piped"), grid.as_bytes());
    let out = child.wait_with_output()?;
    match serde_json::from_slice::<serde_json::Value>(&out.stdout) {
        Ok(j) => {
            // the table and the summaries read these: a build whose report lacks one
            // (or gives a time below zero) would have summed NaN or nonsense
            let verdict = j["verdict"].as_str();
            let bad = ["map_seconds", "search_seconds", "conflicts"]
                .into_iter()
                .find(|k| !j[k].as_f64().is_some_and(|v| v.is_finite() && v >= 0.0));
            if let (Some(_), None) = (verdict, bad) {
                return Ok(j);
            }
            bail!(
                "{} dsat --json for {name} ({}) has no {}; a build this bench can compare reports `verdict`, `map_seconds`, `search_seconds` and `conflicts`",
                exe.display(),
                out.status,
                bad.map_or("`verdict`".to_string(), |k| format!("`{k}` as a number of zero or more"))
            )
        }
        // (the child's standard error is ours: its own message, if any, is above)
        Err(_) => bail!(
            "{} dsat gave no JSON for {name} ({}); if the message above names a flag, this build may not know it",
            exe.display(),
            out.status
        ),
    }
}

/// One row of the bench's table; `label` names the build when there are two.
fn print_row(name: &str, ply: u32, j: &serde_json::Value, label: &str) -> Result<()> {
    let num = |k: &str| j[k].as_f64().unwrap_or(f64::NAN);
    // JSON values ignore a width when printed: counts go through strings
    let int = |k: &str| {
        j[k].as_u64()
            .map_or_else(|| "-".to_string(), |v| v.to_string())
    };
    // per position only where the verdict's search encoded some (a diagram its local
    // search found before any map has none, and another search's figure would mislead)
    let encoded = num("positions") > 0.0;
    let per_position = |text: String| if encoded { text } else { "-".to_string() };
    outln!(
        "{:<22} {:>4} {:>8} {:>9} {:>9} {:>8} {:>11} {:>8} {:>9} {:>9.0} {:>9.0} {:>7} {:>6} {:>3}{label}",
        name,
        ply,
        j["verdict"].as_str().unwrap_or("?"),
        int("mapped"),
        // the per-position columns' divisor: the map and what refinement added to it
        // (beside the map alone, `--cut 0` showed 0 positions of 2,579 bytes each)
        int("positions"),
        int("pruned"),
        per_position(format!("{:.0}", num("clauses") / num("positions"))),
        j["setup_bytes"]
            .as_f64()
            .map_or_else(|| "-".to_string(), |b| format!("{:.1}", b / 1e6)),
        per_position(int("bytes_per_state")),
        num("map_seconds") * 1e3,
        num("search_seconds") * 1e3,
        int("rounds"),
        int("levels"),
        j["winner"]
            .as_u64()
            .map_or('-', |w| entrant_name(w as usize))
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::summary;

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
        assert!(summary(&[1.0, miss]).contains("median not found (half the roots)"));
        assert!(summary(&[]).starts_with("found 0 of 0, 0 within 10 s; median none"));
    }
}
