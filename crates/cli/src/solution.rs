//! `c4lab check-solution`.

use std::path::Path;
use std::time::Instant;

use anyhow::Result;
use c4lab_steady::solution::{check_solution, parse_branches, parse_leaves};
use serde_json::json;

/// How many failures of each check are printed in text mode.
const SHOWN: usize = 5;

/// Runs every check and prints one line per check; exit 1 when any fails.
pub fn check(branches: &Path, steady: &Path, json_out: bool) -> Result<u8> {
    // a solution's files are some kilobytes (upstream's: 5 KB and 64 KB)
    let read = |p: &Path| crate::input::read_limited(Some(p), 256 << 20, "a solution file");
    // (`-`, or a name such as /dev/stdin for the same stream)
    let stdin = |p: &Path| p == Path::new("-") || crate::files::is_stdin(p);
    if stdin(branches) && stdin(steady) {
        anyhow::bail!(
            "--branches {} and --steady-states {} are both standard input, but it holds one file: give the other by name",
            branches.display(),
            steady.display()
        );
    }
    // a default path missing from the current folder says how it is read, as bench's do
    let read_named = |p: &Path, flag: &str| match std::fs::metadata(p) {
        Err(_) if !stdin(p) => crate::bench::read_data(p, flag),
        _ => read(p),
    };
    let b = read_named(branches, "--branches FILE")?;
    let s = read_named(steady, "--steady-states FILE")?;
    refuse_wrong_files(branches, &b, steady, &s)?;
    let start = Instant::now();
    let report = check_solution(&b, &s);
    let secs = start.elapsed().as_secs_f64();
    if json_out {
        let checks: Vec<_> = report
            .checks
            .iter()
            .map(|c| json!({"check": c.name, "passed": c.passed, "summary": c.summary, "failures": c.failures}))
            .collect();
        outln!(
            "{}",
            json!({"passed": report.passed(), "checks": checks, "seconds": secs})
        );
    } else {
        for c in &report.checks {
            outln!(
                "{:<13} {}  {}",
                c.name,
                if c.passed { "pass" } else { "FAIL" },
                c.summary
            );
            for f in c.failures.iter().take(SHOWN) {
                outln!("    {f}");
            }
            if c.failures.len() > SHOWN {
                outln!("    ... and {} more", c.failures.len() - SHOWN);
            }
        }
        outln!(
            "{} in {:.3} s",
            if report.passed() {
                "all checks pass"
            } else {
                "FAILED"
            },
            secs
        );
    }
    Ok(if report.passed() { 0 } else { 1 })
}

/// Refuses (exit 2) a file that holds none of what it should, as a wrong file or the two
/// swapped: such input is no solution that fails (exit 1), and its thousands of line
/// errors said so only in their first line.
pub(crate) fn refuse_wrong_files(branches: &Path, b: &str, steady: &Path, s: &str) -> Result<()> {
    let (found_b, errors_b) = parse_branches(b);
    let (found_s, errors_s) = parse_leaves(s);
    if !found_b.is_empty() && !found_s.is_empty() {
        return Ok(());
    }
    let nothing = |found: usize, errors: &[String]| found == 0 && errors.is_empty();
    if nothing(found_b.len(), &errors_b) && nothing(found_s.len(), &errors_s) {
        anyhow::bail!(
            "--branches {} and --steady-states {} are both empty (nothing but blank or comment lines): give upstream's branches.txt and steady_states.txt",
            branches.display(),
            steady.display()
        );
    }
    if b == s {
        anyhow::bail!(
            "--branches {} and --steady-states {} hold the same text: give branches.txt to --branches and steady_states.txt to --steady-states",
            branches.display(),
            steady.display()
        );
    }
    if !parse_leaves(b).0.is_empty() || !parse_branches(s).0.is_empty() {
        anyhow::bail!(
            "--branches {} and --steady-states {} look swapped (diagrams where branch lines go, or the reverse): give branches.txt to --branches and steady_states.txt to --steady-states",
            branches.display(),
            steady.display()
        );
    }
    let first = |errors: &[String]| match errors.first() {
        Some(e) => format!(" (the first thing read: {e})"),
        None => " (nothing in it but blank or comment lines)".into(),
    };
    if found_b.is_empty() {
        anyhow::bail!(
            "--branches {} holds no branch line (`<moves>-><column>`, the root's `-><column>`){}: give upstream's branches.txt",
            branches.display(),
            first(&errors_b)
        );
    }
    anyhow::bail!(
        "--steady-states {} holds no diagram (six rows each, blank lines between){}: give upstream's steady_states.txt",
        steady.display(),
        first(&errors_s)
    )
}
