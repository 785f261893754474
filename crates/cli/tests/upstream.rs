//! `check-solution` and `bench verify` on upstream's solution files (skipped, with a
//! printed reason, where `../shared/data` is absent).

mod common;
use common::*;

/// Upstream's solution folder (branches.txt, steady_states.txt), or None, said, when
/// it is not there.
fn upstream_solution() -> Option<std::path::PathBuf> {
    let dir = repo().join("../shared/data/upstream");
    if dir.join("branches.txt").exists() {
        return Some(dir);
    }
    eprintln!(
        "skipped: upstream's solution files are not at {}",
        dir.display()
    );
    None
}

#[test]
fn check_solution_on_upstream_files() {
    let Some(dir) = upstream_solution() else {
        return;
    };
    let b = dir.join("branches.txt");
    let s = dir.join("steady_states.txt");
    // the files are read where `bench verify` reads them by default (both flags were
    // required)
    let out = c4lab(&["check-solution"], "");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    for name in ["structure", "root", "coverage", "reachability", "leaves"] {
        assert!(
            text.lines()
                .any(|l| l.starts_with(name) && l.contains(" pass ")),
            "{name}: {text}"
        );
    }
    assert!(text.contains("1295 of 1295 diagrams verify as win"));
    // a broken pair of files: exit 1 and the failing check named
    let tmp = std::env::temp_dir().join(format!("c4lab-branches-{}.txt", std::process::id()));
    let lines: String = std::fs::read_to_string(&b)
        .unwrap()
        .lines()
        .filter(|l| *l != "41->5")
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&tmp, lines).unwrap();
    let out = c4lab(
        &[
            "check-solution",
            "--json",
            "--branches",
            tmp.to_str().unwrap(),
            "--steady-states",
            s.to_str().unwrap(),
        ],
        "",
    );
    std::fs::remove_file(&tmp).ok();
    assert_eq!(out.status.code(), Some(1));
    let j: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(j["passed"], false);
    assert_eq!(j["checks"][2]["check"], "coverage");
    assert_eq!(j["checks"][2]["passed"], false);
}

#[test]
fn bench_verify_names_the_failed_checks() {
    let Some(dir) = upstream_solution() else {
        return;
    };
    // upstream's first diagram alone: it wins, but leaves most of the graph uncovered
    let steady = std::fs::read_to_string(dir.join("steady_states.txt")).unwrap();
    let first: String = steady
        .split("\n\n")
        .take(2)
        .collect::<Vec<_>>()
        .join("\n\n")
        + "\n";
    let tmp = std::env::temp_dir().join(format!("c4lab-one-leaf-{}.txt", std::process::id()));
    std::fs::write(&tmp, first).unwrap();
    let b = dir.join("branches.txt");
    let out = c4lab(
        &[
            "bench",
            "verify",
            "--runs",
            "1",
            "--branches",
            b.to_str().unwrap(),
            "--steady-states",
            tmp.to_str().unwrap(),
        ],
        "",
    );
    // the check's wall time names the threads it ran on, RAYON_NUM_THREADS heeded (it
    // named the core count)
    let one_thread = std::process::Command::new(env!("CARGO_BIN_EXE_c4lab"))
        .args(["bench", "verify", "--runs", "1", "--branches"])
        .arg(&b)
        .arg("--steady-states")
        .arg(&tmp)
        .current_dir(repo())
        .env("RAYON_NUM_THREADS", "1")
        .output()
        .unwrap();
    std::fs::remove_file(&tmp).ok();
    let text = stdout(&one_thread);
    assert!(
        text.contains("check-solution wall, best of 1 (1 thread) |"),
        "{text}"
    );
    assert_exit(&out, 1);
    let text = stdout(&out);
    // it said only "check-solution FAILED on these files"
    assert!(
        text.contains("| diagrams verified (single thread) | 1 (1 win) |"),
        "{text}"
    );
    assert!(
        text.contains("check-solution FAILED coverage (")
            && text.contains("is covered by no branch, diagram or Red win next move"),
        "{text}"
    );
    assert!(
        text.contains("(every failure: c4lab check-solution --branches "),
        "{text}"
    );
}

#[test]
fn check_solution_takes_one_file_from_standard_input_at_most() {
    // standard input holds one file, not both: refused, not read as an empty second file
    // (and so is a name for that stream: it was read as both files, and failed)
    for (b, s) in [
        ("-", "-"),
        ("-", "/dev/stdin"),
        ("/dev/stdin", "/dev/stdin"),
    ] {
        let out = c4lab(
            &["check-solution", "--branches", b, "--steady-states", s],
            "-->4\n",
        );
        assert_exit(&out, 2);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!(
                "--branches {b} and --steady-states {s} are both standard input"
            )) && err.contains("give the other by name"),
            "{err}"
        );
    }
}
