//! `c4lab bench`: benchmarks that print a table.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use c4lab_steady::solution::{check_solution, parse_leaves};
use c4lab_steady::{Verdict, Verifier};
use clap::Subcommand;
use sha2::{Digest, Sha256};

use crate::baseline::{check_program, run_baseline, BaselineRun};

/// What to measure.
#[derive(Subcommand)]
pub enum Bench {
    /// Verify every upstream diagram, then time the whole check-solution.
    Verify {
        /// Upstream's branches.txt.
        #[arg(long, default_value = "../shared/data/upstream/branches.txt")]
        branches: PathBuf,
        /// Upstream's steady_states.txt.
        #[arg(long, default_value = "../shared/data/upstream/steady_states.txt")]
        steady_states: PathBuf,
        /// Timed runs of check-solution, 1 to 1,000 (the best and the median are printed).
        #[arg(long, default_value_t = 5, value_parser = crate::whole::range::<u32>(1, 1000))]
        runs: u32,
    },
    /// Auto-complete: upstream diagrams with k cells undecided, per k the success rate and candidates/time.
    Complete(crate::complete_bench::BenchComplete),
    /// dsat: upstream roots (ply 16+) with every level cell `?`: verdict, positions mapped, times.
    Dsat(crate::dsat_bench::BenchDsat),
    /// Corpus generation: games/s and labels/s per teacher, peak memory.
    Corpus(crate::corpus_bench::BenchCorpus),
    /// The model: training and inference speed, size, holdout agreement, optimal-move rate.
    Model(crate::model_bench::BenchModel),
    /// Solve the benchmark position sets (exact scores checked) and optionally the empty board.
    Solver {
        /// The folder of `<moves> <score>` sets.
        #[arg(long, default_value = "../shared/data/bench")]
        sets: PathBuf,
        /// Which sets (default: all six).
        #[arg(
            long,
            value_delimiter = ',',
            default_value = "L3_R1,L2_R1,L2_R2,L1_R1,L1_R2,L1_R3"
        )]
        only: Vec<String>,
        /// Transposition table size in MiB (cleared before each position).
        #[arg(long, default_value_t = 128, value_parser = crate::solve::table_mib)]
        table_mb: usize,
        /// Also solve the empty board, strongly and weakly (with the book too, if given).
        #[arg(long)]
        empty: bool,
        /// An opening book made by `c4lab book`, for the empty-board rows.
        #[arg(long)]
        book: Option<PathBuf>,
        /// Search thread counts to compare side by side (0: one per core).
        #[arg(long, value_delimiter = ',', default_value = "1", value_parser = crate::solve::thread_arg)]
        threads: Vec<usize>,
        /// Run each set this many times and report the fastest run (other processes on
        /// the machine only ever add time; on one thread node counts are the same every
        /// run, on more the threads' race through the shared table moves them).
        #[arg(long, default_value_t = 1, value_parser = crate::solve::count_u32_arg)]
        repeat: u32,
        /// Another solver to run side by side, interleaved with this one, set by set
        /// (the program and its arguments, split at spaces). It reads one move sequence
        /// a line on stdin and writes one line per position ending in `<score> <nodes>
        /// <microseconds>` (the layout of `c4lab solve` and of the classic solver), and
        /// exits once its input ends (one still running 5 s after its last answer is
        /// stopped); its scores are checked like ours and its own microseconds are averaged.
        #[arg(long)]
        baseline: Option<String>,
    },
}

/// Runs a benchmark.
pub fn run(what: Bench) -> Result<u8> {
    match what {
        Bench::Verify {
            branches,
            steady_states,
            runs,
        } => verify(&branches, &steady_states, runs),
        Bench::Complete(args) => crate::complete_bench::bench(args),
        Bench::Dsat(args) => crate::dsat_bench::bench(args),
        Bench::Corpus(args) => crate::corpus_bench::bench(args),
        Bench::Model(args) => crate::model_bench::bench(args),
        Bench::Solver {
            sets,
            only,
            table_mb,
            empty,
            book,
            threads,
            repeat,
            baseline,
        } => solver(
            &sets,
            &only,
            table_mb,
            &threads,
            repeat,
            empty,
            book.as_deref(),
            baseline.as_deref(),
        ),
    }
}

/// The largest benchmark data file read (upstream's files and the position sets are
/// under a megabyte).
pub(crate) const DATA_MAX_BYTES: u64 = 64 << 20;

/// Reads a benchmark's data file; the defaults (`../shared/data/...`) are relative to
/// where c4lab runs, so a missing relative path says which flag to pass.
pub fn read_data(path: &Path, flag: &str) -> Result<String> {
    // (`-`: standard input, as `pick` and `check-solution` read it; it was refused as a
    // file not found in the current folder)
    if path == Path::new("-") || std::fs::metadata(path).is_ok() {
        // (a byte that is not UTF-8 is named by line and byte; a stream without end is
        // read no further than the limit)
        return crate::input::read_limited(Some(path), DATA_MAX_BYTES, "a benchmark's data file");
    }
    std::fs::read_to_string(path).with_context(|| {
        let hint = if path.is_relative() {
            format!(
                " (a relative path is read from the current folder, {}; pass {flag})",
                std::env::current_dir().map_or("unknown".into(), |d| d.display().to_string())
            )
        } else {
            String::new()
        };
        format!("cannot read {}{hint}", path.display())
    })
}

/// The median: the middle value, or the mean of the middle two of an even count (NaN
/// of none, or where a middle one is NaN).
pub(crate) fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

fn verify(branches: &Path, steady: &Path, runs: u32) -> Result<u8> {
    if branches == Path::new("-") && steady == Path::new("-") {
        anyhow::bail!("--branches and --steady-states are both standard input, but it holds one file: give the other by name");
    }
    let (b, s) = (
        read_data(branches, "--branches FILE")?,
        read_data(steady, "--steady-states FILE")?,
    );
    // a wrong file, or the two swapped, is bad input as check-solution says it (it was
    // timed, and reported as a solution that fails its checks)
    crate::solution::refuse_wrong_files(branches, &b, steady, &s)?;
    let (leaves, errors) = parse_leaves(&s);
    anyhow::ensure!(errors.is_empty(), "{}: {}", steady.display(), errors[0]);
    let mut verifier = Verifier::new();
    let mut times = Vec::with_capacity(leaves.len());
    let (mut positions, mut wins) = (0u64, 0usize);
    let all = Instant::now();
    for leaf in &leaves {
        let t = Instant::now();
        let v = verifier.verify(&leaf.diagram);
        times.push(t.elapsed().as_secs_f64());
        if let Verdict::Win { positions: p } = v {
            positions += p;
            wins += 1;
        }
    }
    let total = all.elapsed().as_secs_f64();
    times.sort_by(f64::total_cmp);
    let mut walls: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            let ok = check_solution(&b, &s).passed();
            (t.elapsed().as_secs_f64(), ok)
        })
        .map(|(t, ok)| if ok { t } else { f64::NAN })
        .collect();
    walls.sort_by(f64::total_cmp);
    // the threads the check ran on (the core count, named here before, ignored
    // RAYON_NUM_THREADS)
    let threads = c4lab_steady::verify_many_threads();
    outln!("| measure | value |");
    outln!("| --- | ---: |");
    outln!(
        "| diagrams verified (single thread) | {} ({} win) |",
        leaves.len(),
        wins
    );
    outln!("| total verify time | {:.1} ms |", total * 1e3);
    outln!(
        "| median per diagram | {:.1} µs |",
        median(&mut times) * 1e6
    );
    outln!(
        "| max per diagram | {:.1} µs |",
        times[times.len() - 1] * 1e6
    );
    outln!("| positions searched | {positions} |");
    outln!(
        "| positions per second | {:.1} M |",
        positions as f64 / total / 1e6
    );
    // a failed check has no time to give (it was printed as NaN ms)
    let ms = |w: f64| {
        if w.is_nan() {
            "failed".to_string()
        } else {
            format!("{:.1} ms", w * 1e3)
        }
    };
    outln!(
        "| check-solution wall, best of {} ({threads} thread{}) | {} |",
        walls.len(),
        if threads == 1 { "" } else { "s" },
        ms(walls[0])
    );
    outln!(
        "| check-solution wall, median | {} |",
        // (an even --runs took the upper of the middle two)
        ms(median(&mut walls))
    );
    if walls.iter().any(|w| w.is_nan()) {
        // which checks, and where to read every failure
        let report = check_solution(&b, &s);
        for c in report.checks.iter().filter(|c| !c.passed) {
            let first = c
                .failures
                .first()
                .map_or(String::new(), |f| format!(": {f}"));
            outln!("check-solution FAILED {} ({}){first}", c.name, c.summary);
        }
        outln!(
            "(every failure: c4lab check-solution --branches {} --steady-states {})",
            branches.display(),
            steady.display()
        );
        return Ok(1);
    }
    Ok(0)
}

/// The classic single-threaded C++ bitboard solver's search time per position on this
/// kind of machine, as recorded beside the published sets (shared/data/bench/README.md):
/// each set's name, the SHA-256 of its file and the figure.
const CLASSIC: [(&str, &str, &str); 6] = [
    (
        "L3_R1",
        "f2ffd55a553132a8902e9dda80971124ef0f1df9c5e3d79e8af9b23472b6e410",
        "7.3",
    ),
    (
        "L2_R1",
        "fb1ba739fb26cdf9936bfa713cf62740815ea81ded6afc9cf39ff08af9ab1415",
        "9.3",
    ),
    (
        "L2_R2",
        "764dd3e5638c2109dac3ff8c6dfb1ce043c6f333bb620c37d627d3e0dbce357c",
        "1,660-2,030",
    ),
    (
        "L1_R1",
        "122fa2cb16ca29c052747b9fb6a37d1af7fb5e50130c998e178cf24645b2dce8",
        "9.8",
    ),
    (
        "L1_R2",
        "50ac4fb242e43cc124520040b66a3d0b604328fa295e36f240c4ce43e47ea6ba",
        "1,800-1,940",
    ),
    (
        "L1_R3",
        "5fafd9029ac3004a730c973498a4c09c61e81c0f08ddba9424c93e107e29e511",
        "314,000-323,000",
    ),
];

/// The classic solver's recorded figure for set `set` whose file is `text`: None for a
/// set not published, or a file that is not the published set of that name (its
/// SHA-256 differs), whose positions that figure says nothing about.
fn classic_micros(set: &str, text: &str) -> Option<&'static str> {
    let (_, digest, micros) = CLASSIC.iter().find(|(name, ..)| *name == set)?;
    let ours: String = Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    (ours == *digest).then_some(*micros)
}

#[allow(clippy::too_many_arguments)]
fn solver(
    dir: &std::path::Path,
    only: &[String],
    mb: usize,
    threads: &[usize],
    repeat: u32,
    empty: bool,
    book: Option<&std::path::Path>,
    baseline: Option<&str>,
) -> Result<u8> {
    // a baseline that cannot start is named before the table, not after the first set
    if let Some(cmd) = baseline {
        check_program(cmd)?;
    }
    let typed = threads;
    let threads: Vec<usize> = typed
        .iter()
        .map(|&t| crate::solve::thread_count(t))
        .collect();
    // (a count given twice, or 0 beside the core count, ran the same columns twice)
    if let Some(twice) = threads
        .iter()
        .find(|t| threads.iter().filter(|u| u == t).count() > 1)
    {
        let zero = match typed.contains(&0) {
            true => format!(
                " (0 is one per core, here {})",
                crate::solve::thread_count(0)
            ),
            false => String::new(),
        };
        bail!("--threads names {twice} twice{zero}: give each count once");
    }
    let plural = |t: usize| if t == 1 { "thread" } else { "threads" };
    let mut head = String::from("| set | positions | mismatches |");
    let mut rule = String::from("| --- | ---: | ---: |");
    // (the time column says which run it is)
    let fastest = match repeat {
        1 => String::new(),
        n => format!(", fastest of {n} runs"),
    };
    for &t in &threads {
        head += &format!(
            " mean µs ({t} {0}{fastest}) | mean nodes ({t} {0}) |",
            plural(t)
        );
        rule += " ---: | ---: |";
    }
    if baseline.is_some() {
        head += " baseline µs | baseline nodes | baseline mismatches | baseline process s | speed-up (1st column) |";
        rule += " ---: | ---: | ---: | ---: | ---: |";
    }
    // the table and the book before any solving (the empty-board rows come last)
    crate::table_memory::ensure_table_memory(mb << 20, 1)?;
    if let Some(b) = book {
        if !empty {
            bail!(
                "--book {} is for the empty-board rows only: add --empty, or leave out --book",
                b.display()
            );
        }
        crate::book::read_book(b)?;
    }
    // (a set named twice was solved and printed twice)
    if let Some(twice) = only
        .iter()
        .find(|n| only.iter().filter(|m| m == n).count() > 1)
    {
        bail!("--only names {twice} twice: give each set once");
    }
    // every set is read and checked before the table starts, so a wrong --sets, --only
    // or line prints no header (and solves nothing first)
    let sets = only
        .iter()
        .map(|name| {
            let path = dir.join(format!("{name}.txt"));
            if dir.is_dir() && !path.exists() {
                let mut sets: Vec<String> = std::fs::read_dir(dir)
                    .into_iter()
                    .flatten()
                    .filter_map(|e| {
                        e.ok()?
                            .file_name()
                            .to_str()?
                            .strip_suffix(".txt")
                            .map(String::from)
                    })
                    .collect();
                sets.sort();
                if sets.is_empty() {
                    bail!(
                        "no set {name:?} in {}: it holds no .txt file (--sets names the folder of the benchmark sets)",
                        dir.display()
                    );
                }
                bail!(
                    "no set {name:?} in {} (--only takes names of its .txt files: {})",
                    dir.display(),
                    sets.join(", ")
                );
            }
            let text = read_data(&path, "--sets FOLDER")?;
            let cases =
                c4lab_solver::parse_bench(&text).with_context(|| path.display().to_string())?;
            if cases.is_empty() {
                bail!(
                    "{}: no positions to solve (a set holds `<moves> <score>` lines)",
                    path.display()
                );
            }
            Ok((cases, classic_micros(name, &text)))
        })
        .collect::<Result<Vec<_>>>()?;
    outln!("{head} classic solver µs (recorded) |");
    outln!("{rule} ---: |");
    // on a terminal, a line names the set being solved once it has run a second (a
    // deep set or the empty board ran minutes without a word)
    let ticker = crate::ticker::Ticker::on_terminal();
    let mut failed = false;
    let mut notes = Vec::new();
    for (name, (cases, classic)) in only.iter().zip(sets) {
        let mut cells = String::new();
        let (mut positions, mut mismatches, mut first) = (0, 0, None);
        // the baseline runs beside the first thread count's runs only
        let (mut theirs, mut ours_micros): (Option<BaselineRun>, f64) = (None, 0.0);
        for (i, &t) in threads.iter().enumerate() {
            let with_baseline = baseline.filter(|_| i == 0);
            crate::table_memory::ensure_table_memory(mb << 20, 1)?;
            let mut s = c4lab_solver::Solver::new(mb << 20);
            s.set_threads(t);
            let origin = Instant::now();
            let mut clock = || origin.elapsed().as_nanos() as u64;
            let solving = |run: u32| {
                let of = match repeat {
                    1 => String::new(),
                    n => format!(", run {} of {n}", run + 1),
                };
                format!("bench solver: solving {name} ({t} {}{of})", plural(t))
            };
            ticker.start(solving(0));
            let mut r = c4lab_solver::run_bench(&mut s, &cases, false, &mut clock);
            for run in 0..repeat {
                // interleaved: the baseline runs after each of our runs of the set
                if let Some(cmd) = with_baseline {
                    theirs = Some(run_baseline(cmd, &cases)?.fastest_of(theirs));
                }
                if run + 1 == repeat {
                    break;
                }
                ticker.start(solving(run + 1));
                let mut again = c4lab_solver::run_bench(&mut s, &cases, false, &mut clock);
                // a wrong score in any run counts, whichever run was fastest
                let mismatches = r.mismatches.max(again.mismatches);
                let first = r.first_mismatch.take().or(again.first_mismatch.take());
                if again.time < r.time {
                    r = again;
                }
                r.mismatches = mismatches;
                r.first_mismatch = first;
            }
            let n = r.positions.max(1) as f64;
            cells += &format!(
                " {:.1} | {:.0} |",
                r.time as f64 / n / 1e3,
                r.nodes as f64 / n
            );
            if i == 0 {
                ours_micros = r.time as f64 / n / 1e3;
            }
            positions = r.positions;
            // positions scored wrong under some thread count: never more than the set
            mismatches = mismatches.max(r.mismatches);
            first = first.or(r.first_mismatch);
        }
        ticker.done();
        failed |= mismatches > 0;
        // a baseline with wrong scores fails the bench too: its speed-up compares nothing
        failed |= theirs.as_ref().is_some_and(|b| b.mismatches > 0);
        let their_first = theirs.as_ref().and_then(|b| b.first_mismatch.clone());
        if let Some(b) = theirs {
            let n = b.positions.max(1) as f64;
            let micros = b.micros / n;
            cells += &format!(
                " {micros:.1} | {:.0} | {} | {:.2} | {:.2}x |",
                b.nodes / n,
                b.mismatches,
                b.wall,
                micros / ours_micros
            );
        }
        outln!(
            "| {name} | {positions} | {mismatches} |{cells} {} |",
            classic.unwrap_or("-")
        );
        // (a set of a published set's name but other positions showed that set's figure)
        if classic.is_none() && CLASSIC.iter().any(|(published, ..)| published == name) {
            notes.push(format!(
                "{name}: not the published file of that name, so no recorded classic figure"
            ));
        }
        // (said under the table: between its rows they broke it apart)
        if let Some((moves, want, got)) = first {
            notes.push(format!(
                "{name}: first mismatch: {moves}: expected {want}, solved {got}"
            ));
        }
        if let Some((moves, want, got)) = their_first {
            notes.push(format!(
                "{name}: the baseline's first mismatch: {moves}: expected {want}, it answered {got}"
            ));
        }
    }
    if !notes.is_empty() {
        outln!();
        for note in notes {
            outln!("{note}");
        }
    }
    if empty {
        let mut rows = vec![("no book", None)];
        if let Some(b) = book {
            rows.push(("with book", Some(b)));
        }
        outln!();
        outln!("| empty board | threads | strong | weak | nodes (strong) |");
        outln!("| --- | ---: | ---: | ---: | ---: |");
        for (label, b) in rows {
            for &t in &threads {
                let mut s = crate::solve::solver(mb, t, b)?;
                let board = format!("bench solver: the empty board, {label}, {t} {}", plural(t));
                ticker.start(format!("{board}, strong"));
                let start = Instant::now();
                let strong = s.solve(&c4lab_board::Position::new());
                let strong_s = start.elapsed().as_secs_f64();
                let nodes = s.nodes();
                s.reset();
                ticker.start(format!("{board}, weak"));
                let start = Instant::now();
                let weak = s.solve_weak(&c4lab_board::Position::new());
                let weak_s = start.elapsed().as_secs_f64();
                ticker.done();
                outln!(
                    "| {label} | {t} | {strong_s:.2} s (score {strong}) | {weak_s:.2} s (sign {weak}) | {nodes} |"
                );
            }
        }
    }
    Ok(if failed { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use super::median;

    #[test]
    fn an_even_count_takes_the_mean_of_the_middle_two() {
        // it took the upper one: two tasks of 4 and 1 ms had a median of 4 ms (bench
        // complete), two check-solution runs the slower one's time (bench verify)
        assert_eq!(median(&mut [4.0, 1.0]), 2.5);
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert!(median(&mut []).is_nan());
        // a failed run (NaN) in the middle leaves no median to give
        assert!(median(&mut [1.0, f64::NAN]).is_nan());
    }
}
