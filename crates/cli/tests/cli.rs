//! The `c4lab` binary as a script would use it: outputs, `--json`, exit codes.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Upstream's steady_states.txt, or None (with a note) when it is not beside the repo.
fn upstream_states() -> Option<PathBuf> {
    let states = repo().join("../shared/data/upstream/steady_states.txt");
    if !states.exists() {
        eprintln!(
            "skipped: upstream's solution is not at {}",
            states.display()
        );
        return None;
    }
    Some(states)
}

/// `c4lab bench dsat` on upstream's roots (`states`), with `flags`.
fn bench_dsat(states: &Path, flags: &[&str]) -> Output {
    let mut args = vec!["bench", "dsat", "--steady-states", states.to_str().unwrap()];
    args.extend_from_slice(flags);
    c4lab(&args, "")
}

fn c4lab(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_c4lab"))
        .args(args)
        .current_dir(repo())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("c4lab runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Asserts the exit code, showing the command's error output otherwise.
fn assert_exit(o: &Output, code: i32) {
    assert_eq!(
        o.status.code(),
        Some(code),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn verify_exit_codes_and_json() {
    let win = c4lab(&["verify", "examples/win.txt"], "");
    assert_eq!(win.status.code(), Some(0));
    assert!(stdout(&win).contains("win: Red makes four on every line"));

    let loss = c4lab(&["verify", "--json", "examples/loss.txt"], "");
    assert_eq!(loss.status.code(), Some(1));
    let j: serde_json::Value = serde_json::from_str(&stdout(&loss)).unwrap();
    assert_eq!(j["verdict"], "loss");
    assert_eq!(j["reason"], "no-move");
    assert_eq!(j["line"], "67711132");
    assert_eq!(j["tied"], serde_json::json!([9]));

    let incomplete = c4lab(&["verify", "examples/incomplete.txt"], "");
    assert_eq!(incomplete.status.code(), Some(2));

    let garbage = c4lab(&["verify", "-"], "not a diagram\n");
    assert_eq!(garbage.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&garbage.stderr).contains("standard input: not a diagram"));

    let budget = c4lab(&["verify", "--budget", "2", "examples/win.txt"], "");
    assert_eq!(budget.status.code(), Some(3));
}

#[test]
fn stdin_links_and_conversions() {
    let grid = std::fs::read_to_string(repo().join("examples/win.txt")).unwrap();
    let link = c4lab(&["convert", "--to", "link"], &grid);
    assert_eq!(link.status.code(), Some(0));
    let link = stdout(&link);
    assert!(link.starts_with("1.655433534337221121."), "{link}");
    // a link reads back as the same diagram
    let back = c4lab(&["convert", "--to", "grid"], &link);
    assert_eq!(stdout(&back), grid);
    assert!(String::from_utf8_lossy(&back.stderr).contains("read: share link"));
    // JSON round trip through stdin
    let json = stdout(&c4lab(&["convert", "--to", "json"], &grid));
    assert!(json.starts_with("[\"9909999\""), "{json}");
    assert_eq!(stdout(&c4lab(&["convert"], &json)), grid);
    // levels 6-8 have no old marker: a clear refusal
    let old = c4lab(&["convert", "--to", "old"], &grid);
    assert_eq!(old.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&old.stderr).contains("has no old-language marker"));
}

#[test]
fn simplify_reports_before_it_applies() {
    let mut grid = std::fs::read_to_string(repo().join("examples/win.txt")).unwrap();
    let minimal = c4lab(&["simplify", "--dry-run"], &grid);
    assert!(stdout(&minimal).contains("already minimal"));
    // clutter: the top-right cell was 9 and is not consulted
    grid.replace_range(6..7, "8");
    let dry = c4lab(&["simplify", "--dry-run"], &grid);
    assert!(
        stdout(&dry).contains("would clear 1 cells"),
        "{}",
        stdout(&dry)
    );
    let done = c4lab(&["simplify"], &grid);
    assert_eq!(
        stdout(&done),
        std::fs::read_to_string(repo().join("examples/win.txt")).unwrap()
    );
}

#[test]
fn play_prints_each_rule() {
    let out = c4lab(&["play", "examples/win.txt"], "x\n2\nu\n1\n");
    let text = stdout(&out);
    assert!(
        text.contains("Red plays 6 (level 7, lower levels tied: 0 in columns 1, 3)"),
        "{text}"
    );
    assert!(text.contains("\"x\": type a column 1-7"), "{text}");
    assert!(text.contains("Yellow plays 2"), "{text}");
    assert!(text.contains("undone"), "{text}");
    assert!(text.contains("Red plays 7 (win)"), "{text}");
    assert_eq!(out.status.code(), Some(0));
    let lost = c4lab(
        &["play", "examples/loss.txt", "--moves", "7112", "--no-input"],
        "",
    );
    assert!(
        stdout(&lost).contains("Red has no move"),
        "{}",
        stdout(&lost)
    );
    assert_eq!(lost.status.code(), Some(1));
}

#[test]
fn check_solution_on_upstream_files() {
    let dir = repo().join("../shared/data/upstream");
    if !dir.join("branches.txt").exists() {
        eprintln!(
            "skipped: upstream's solution files are not at {}",
            dir.display()
        );
        return;
    }
    let b = dir.join("branches.txt");
    let s = dir.join("steady_states.txt");
    let out = c4lab(
        &[
            "check-solution",
            "--branches",
            b.to_str().unwrap(),
            "--steady-states",
            s.to_str().unwrap(),
        ],
        "",
    );
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
fn solve_prints_the_classic_layout_and_names_bad_lines() {
    let out = c4lab(
        &["solve", "--table-mb", "16"],
        "2252576253462244111563365343671351441 \n448\n\n12121211\n1111111\n",
    );
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    let fields: Vec<&str> = lines[0].split(' ').collect();
    assert_eq!(fields.len(), 4, "{text}");
    assert_eq!(fields[0], "2252576253462244111563365343671351441");
    fields[2].parse::<u64>().unwrap();
    fields[3].parse::<u64>().unwrap();
    assert!(lines[1].starts_with("448 error: line 2: move 3"), "{text}");
    assert!(
        lines[2].contains("line 4") && lines[2].contains("already over"),
        "{text}"
    );
    assert!(lines[3].contains("column 1 is already full"), "{text}");
    assert_eq!(out.status.code(), Some(2));

    // scores agree with the independent solver's file, weakly and strongly
    let set = repo().join("../shared/data/bench/L3_R1.txt");
    let Ok(text) = std::fs::read_to_string(&set) else {
        eprintln!("skipped: {} is absent", set.display());
        return;
    };
    let sample: Vec<&str> = text.lines().step_by(50).collect();
    let input = sample.join("\n");
    let strong = stdout(&c4lab(&["solve", "--table-mb", "16"], &input));
    let weak = stdout(&c4lab(&["solve", "--weak", "--table-mb", "16"], &input));
    for ((want, got), sign) in sample.iter().zip(strong.lines()).zip(weak.lines()) {
        let want: i32 = want.split(' ').nth(1).unwrap().parse().unwrap();
        assert_eq!(
            got.split(' ').nth(1).unwrap().parse::<i32>().unwrap(),
            want,
            "{got}"
        );
        assert_eq!(
            sign.split(' ').nth(1).unwrap().parse::<i32>().unwrap(),
            want.signum(),
            "{sign}"
        );
    }

    // hard positions with two threads sharing the table: the same exact scores
    let set = repo().join("../shared/data/bench/L1_R3.txt");
    let text = std::fs::read_to_string(&set).expect("the sets travel together");
    let sample: Vec<&str> = text.lines().step_by(30).collect();
    let out = stdout(&c4lab(
        &["solve", "--threads", "2", "--table-mb", "32"],
        &sample.join("\n"),
    ));
    assert_eq!(out.lines().count(), sample.len(), "{out}");
    for (want, got) in sample.iter().zip(out.lines()) {
        let want: Vec<&str> = want.split(' ').collect();
        let got: Vec<&str> = got.split(' ').collect();
        assert_eq!(got[..2], want[..2]);
    }
}

#[test]
fn analyze_scores_every_column() {
    // Red to move with three in the bottom row: column 4 wins at once
    let out = c4lab(&["analyze", "--json", "--table-mb", "16", "112233"], "");
    let j: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(j["scores"][3], 18); // (43 - 6) / 2
    assert_eq!(j["best"], 18);
    let full = c4lab(&["analyze", "--table-mb", "16", "111111"], "");
    let text = stdout(&full);
    assert!(
        text.lines()
            .any(|l| l.starts_with("score") && l.split_whitespace().nth(1) == Some("-")),
        "{text}"
    );
    let bad = c4lab(&["analyze", "9"], "");
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn complete_exit_codes_and_json() {
    // found: the completed grid on stdout, decided cells unchanged, and it verifies
    let found = c4lab(&["complete", "examples/complete.txt"], "");
    assert_exit(&found, 0);
    let grid = stdout(&found);
    let puzzle = std::fs::read_to_string(repo().join("examples/complete.txt")).unwrap();
    let puzzle: Vec<&str> = puzzle.lines().filter(|l| !l.starts_with('#')).collect();
    for (row, want) in grid.lines().zip(&puzzle) {
        for (got, want) in row.chars().zip(want.chars()) {
            if want == '?' {
                assert!(got.is_ascii_digit(), "{grid}");
            } else {
                assert_eq!(got, want, "{grid}");
            }
        }
    }
    assert_eq!(c4lab(&["verify"], &grid).status.code(), Some(0));
    assert!(String::from_utf8_lossy(&found.stderr).contains("8 undecided cells"));

    // the same seed gives the same run; JSON names the verdict and the counts
    let a = c4lab(
        &["complete", "--json", "--seed", "5", "examples/complete.txt"],
        "",
    );
    let b = c4lab(
        &["complete", "--json", "--seed", "5", "examples/complete.txt"],
        "",
    );
    let ja: serde_json::Value = serde_json::from_slice(&a.stdout).unwrap();
    let jb: serde_json::Value = serde_json::from_slice(&b.stdout).unwrap();
    assert_eq!(ja["verdict"], "found");
    assert_eq!(ja["diagram"], jb["diagram"]);
    assert_eq!(ja["candidates"], jb["candidates"]);

    // losing cores on from the first candidate: still found, and counted
    let cores = c4lab(
        &[
            "complete",
            "--json",
            "--lost-budget",
            "2000",
            "--lost-after",
            "0",
            "examples/complete.txt",
        ],
        "",
    );
    assert_exit(&cores, 0);
    let jc: serde_json::Value = serde_json::from_slice(&cores.stdout).unwrap();
    assert_eq!(jc["verdict"], "found");
    assert!(jc["cores"].as_u64().is_some(), "{jc}");

    // unsat: Yellow's open three on the bottom row beats every completion
    let board = "???????\n???????\n???????\n???????\n?????R?\n?YYY?RR\n";
    let unsat = c4lab(&["complete", "-"], board);
    assert_exit(&unsat, 1);
    assert!(
        String::from_utf8_lossy(&unsat.stderr).contains("no completion of these fixed cells wins")
    );

    // stopped: the empty board with every cell undecided, cut off after half a second
    let wide = "???????\n".repeat(6);
    let stopped = c4lab(&["complete", "--max-seconds", "0.5"], &wide);
    assert_eq!(stopped.status.code(), Some(3));
    let err = String::from_utf8_lossy(&stopped.stderr);
    assert!(
        err.contains("wide scope") && err.contains("stopped"),
        "{err}"
    );

    // bad input
    assert_eq!(c4lab(&["complete"], "not a diagram").status.code(), Some(2));
    assert_eq!(
        c4lab(
            &["complete", "--backend", "minisat", "examples/complete.txt"],
            ""
        )
        .status
        .code(),
        Some(2)
    );
}

#[test]
fn bench_complete_prints_a_line_per_task() {
    let Some(states) = upstream_states() else {
        return;
    };
    let out = c4lab(
        &[
            "bench",
            "complete",
            "--steady-states",
            states.to_str().unwrap(),
            "--k",
            "4",
            "--tasks",
            "2",
            "--seeds",
            "1,2",
            "--tasks-detail",
        ],
        "",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let lines: Vec<&str> = err.lines().filter(|l| l.contains("task")).collect();
    assert_eq!(lines.len(), 4, "{err}");
    // each seed runs every task; the row pools them
    for (j, l) in lines.iter().enumerate() {
        let (seed, i) = (1 + j / 2, j % 2);
        assert!(
            l.starts_with(&format!("  k 4 seed {seed} task {i} root ")) && l.contains(": found, "),
            "{l}"
        );
    }
    assert!(stdout(&out).contains("seed 1,2,"), "{}", stdout(&out));
    assert!(stdout(&out).contains("   4     4/4"), "{}", stdout(&out));
}

#[test]
fn bench_complete_writes_tasks_that_complete_reruns_alike() {
    let Some(states) = upstream_states() else {
        return;
    };
    let states = states.to_str().unwrap();
    let common = [
        "--steady-states",
        states,
        "--k",
        "8",
        "--tasks",
        "2",
        "--seeds",
        "3",
    ];
    let run = c4lab(
        &[&["bench", "complete", "--tasks-detail"][..], &common].concat(),
        "",
    );
    assert_exit(&run, 0);
    let err = String::from_utf8_lossy(&run.stderr);
    let dir = std::env::temp_dir().join(format!("c4lab-tasks-{}", std::process::id()));
    let written = c4lab(
        &[
            &["bench", "complete", "--write-grids", dir.to_str().unwrap()][..],
            &common,
        ]
        .concat(),
        "",
    );
    assert_exit(&written, 0);
    for i in 0..2 {
        let path = dir.join(format!("k8-seed3-task{i}.txt"));
        let grid = std::fs::read_to_string(&path).unwrap();
        assert_eq!(grid.matches('?').count(), 8, "{grid}");
        // the same task under the same seed: the same search, candidate for candidate
        let done = c4lab(
            &["complete", "--json", "--seed", "3", path.to_str().unwrap()],
            "",
        );
        assert_exit(&done, 0);
        let j: serde_json::Value = serde_json::from_slice(&done.stdout).unwrap();
        let line = format!(": found, {} candidates,", j["candidates"]);
        let task = format!("  k 8 seed 3 task {i} root ");
        assert!(
            err.lines()
                .any(|l| l.starts_with(&task) && l.contains(&line)),
            "{line} not in\n{err}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bench_dsat_writes_its_roots_as_grids_for_other_tools() {
    let Some(states) = upstream_states() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("c4lab-grids-{}", std::process::id()));
    let out = bench_dsat(
        &states,
        &["--roots", "3", "--write-grids", dir.to_str().unwrap()],
    );
    assert_exit(&out, 0);
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
    files.sort_by_key(|f| f.file_name());
    assert_eq!(files.len(), 3, "{}", stdout(&out));
    for f in files {
        // every level cell undecided: the grid reads back with its root and no verdict
        let grid = std::fs::read_to_string(f.path()).unwrap();
        assert!(
            grid.contains('?') && !grid.chars().any(|c| c.is_ascii_digit()),
            "{grid}"
        );
        let v = c4lab(&["verify", f.path().to_str().unwrap()], "");
        let text = stdout(&v);
        let root = f.path().file_stem().unwrap().to_string_lossy().to_string();
        assert!(text.contains(&format!("root: {root}")), "{text}");
        assert!(text.contains("incomplete"), "{text}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bench_dsat_runs_given_grids_against_a_baseline_build() {
    let Some(states) = upstream_states() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("c4lab-baseline-{}", std::process::id()));
    let flags = [
        "--min-ply",
        "22",
        "--roots",
        "2",
        "--write-grids",
        dir.to_str().unwrap(),
    ];
    let wrote = bench_dsat(&states, &flags);
    assert_exit(&wrote, 0);
    let mut grids: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|f| f.path().to_string_lossy().into_owned())
        .collect();
    grids.sort();
    let mut args = vec!["bench", "dsat", "--cap", "20", "--grids"];
    args.extend(grids.iter().map(String::as_str));
    // the same build as its own baseline: each root twice, the same dead ends
    args.extend(["--baseline", env!("CARGO_BIN_EXE_c4lab")]);
    let out = c4lab(&args, "");
    let text = stdout(&out);
    assert!(
        text.lines().next().unwrap().contains("2 grids as given"),
        "{text}"
    );
    let rows: Vec<&str> = text.lines().skip(2).take(4).collect();
    for (k, stem) in grids
        .iter()
        .map(|g| Path::new(g).file_stem().unwrap())
        .enumerate()
    {
        for (row, build) in rows[2 * k..2 * k + 2].iter().zip(["this", "base"]) {
            assert!(row.starts_with(&*stem.to_string_lossy()), "{text}");
            assert!(row.ends_with(build), "{text}");
        }
    }
    assert!(text.contains("\nthis build: found "), "{text}");
    assert!(text.contains("\nbaseline:   found "), "{text}");
    // (roots of 22 stones take well under a second: far from the cap)
    assert!(text.contains("this build: found 2 of 2"), "{text}");
    assert!(
        text.contains("on the 2 roots both found, this build / baseline: dead ends x1.000"),
        "{text}"
    );
    let missing = c4lab(
        &[
            "bench",
            "dsat",
            "--grids",
            &grids[0],
            "--baseline",
            "no-such-c4lab",
        ],
        "",
    );
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("--baseline no-such-c4lab"));
    // a grid whose root cannot be played is refused, named, before any root runs
    let won = dir.join("won.txt");
    std::fs::write(
        &won,
        "???????\n???????\nY??????\nY??????\nYR?????\nYRRR???\n",
    )
    .unwrap();
    let refused = c4lab(
        &["bench", "dsat", "--grids", &grids[0], won.to_str().unwrap()],
        "",
    );
    assert_eq!(refused.status.code(), Some(2));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("won.txt: no root to solve"), "{said}");
    assert!(said.contains("already holds a four"), "{said}");
    assert!(
        refused.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&refused.stdout)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bench_dsat_runs_roots_side_by_side_in_order_and_sums_them_up() {
    let Some(states) = upstream_states() else {
        return;
    };
    // upstream roots of 22 stones and more
    let bench = |flags: &[&str]| bench_dsat(&states, &[&["--min-ply", "22"], flags].concat());
    let run = |jobs: &str| {
        let out = bench(&["--roots", "4", "--cap", "10", "--jobs", jobs]);
        let text = stdout(&out);
        // the root and verdict columns of the table's rows
        let rows: Vec<(String, String)> = text
            .lines()
            .skip(2)
            .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
            .map(|l| {
                let cols: Vec<&str> = l.split_whitespace().collect();
                (cols[0].to_string(), cols[2].to_string())
            })
            .collect();
        let last = text.lines().last().unwrap_or_default().to_string();
        (out.status.code(), rows, last)
    };
    let (code, rows, last) = run("1");
    assert_eq!(rows.len(), 4, "{last}");
    let found = rows.iter().filter(|(_, v)| v == "found").count();
    assert!(last.starts_with(&format!("found {found} of 4,")), "{last}");
    assert_eq!(code, Some(if found == 4 { 0 } else { 1 }));
    // (these roots take well under a second: far from the cap, whatever the load)
    // two at a time: the same roots, the same verdicts, in the same order
    let (code2, rows2, last2) = run("2");
    assert_eq!(rows2, rows);
    assert_eq!(code2, code);
    assert!(
        last2.starts_with(&format!("found {found} of 4,")),
        "{last2}"
    );
    // the search flags reach each root's solve: a state budget of five runs out
    let tight = bench(&["--roots", "1", "--max-states", "5"]);
    let text = stdout(&tight);
    assert!(
        text.lines()
            .next()
            .unwrap_or_default()
            .contains("at most 5 positions"),
        "{text}"
    );
    let row = text.lines().nth(2).unwrap_or_default();
    assert_eq!(row.split_whitespace().nth(2), Some("budget"), "{text}");
}

#[test]
fn dsat_exit_codes_and_json() {
    // a shallow map (the rest is learnt from the verifier's losing lines and a few
    // positions of each failed candidate's tree)
    let found = c4lab(
        &[
            "dsat",
            "--json",
            "--cut",
            "4",
            "--tree-cap",
            "16",
            "examples/complete.txt",
        ],
        "",
    );
    assert_exit(&found, 0);
    let j: serde_json::Value = serde_json::from_slice(&found.stdout).unwrap();
    assert_eq!(j["verdict"], "found");
    let grid: Vec<&str> = j["diagram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert_eq!(
        c4lab(&["verify"], &(grid.join("\n") + "\n")).status.code(),
        Some(0)
    );
    // two searches side by side by default; the winner's verdict is the one reported
    let entrants = j["entrants"].as_array().unwrap();
    assert_eq!(entrants.len(), 2, "{j}");
    let winner = j["winner"].as_u64().unwrap() as usize;
    assert_eq!(entrants[winner]["conflicts"], j["conflicts"], "{j}");
    assert_eq!(entrants[winner]["widen_after"], j["widen_after"], "{j}");
    // the first search starts the clock; a later one reports where it joined
    assert_eq!(entrants[0]["started_at"], 0, "{j}");
    assert!(entrants[1]["started_at"].is_u64(), "{j}");
    // memory: the setup holds each search's 16 MiB strong-solver table, and the
    // positions add their own share on top
    let setup = j["setup_bytes"].as_u64().unwrap();
    assert!(setup >= 32 << 20, "{j}");
    assert!(j["bytes_per_state"].as_u64().unwrap() > 0, "{j}");
    let no_oracle = c4lab(
        &[
            "dsat",
            "--json",
            "--cut",
            "4",
            "--oracle-nodes",
            "0",
            "--widen-after",
            "0",
            "examples/complete.txt",
        ],
        "",
    );
    let j: serde_json::Value = serde_json::from_slice(&no_oracle.stdout).unwrap();
    assert_eq!(j["entrants"].as_array().unwrap().len(), 1, "{j}");
    assert!(j["setup_bytes"].as_u64().unwrap() < 8 << 20, "{j}");
    // CaDiCaL allocates past the counting allocator: no figure rather than a low one
    let cadical = c4lab(
        &[
            "dsat",
            "--json",
            "--cut",
            "4",
            "--backend",
            "cadical",
            "examples/complete.txt",
        ],
        "",
    );
    assert_exit(&cadical, 0);
    let j: serde_json::Value = serde_json::from_slice(&cadical.stdout).unwrap();
    assert!(
        j["bytes_per_state"].is_null() && j["setup_bytes"].is_null(),
        "{j}"
    );
    let none = c4lab(&["dsat", "--widen-after", "", "examples/complete.txt"], "");
    assert_eq!(none.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&none.stderr).contains("--widen-after"));

    // a level budget: the `?` cells come back below the budget the search ended with
    let budgeted = c4lab(
        &[
            "dsat",
            "--json",
            "--cut",
            "4",
            "--first-levels",
            "1",
            "examples/complete.txt",
        ],
        "",
    );
    assert_exit(&budgeted, 0);
    let j: serde_json::Value = serde_json::from_slice(&budgeted.stdout).unwrap();
    let levels = j["levels"].as_u64().unwrap();
    assert!((2..=10).contains(&levels), "{j}");
    let input = std::fs::read_to_string(repo().join("examples/complete.txt")).unwrap();
    let input_rows = input.lines().filter(|l| !l.starts_with('#'));
    for (row, given) in j["diagram"].as_array().unwrap().iter().zip(input_rows) {
        for (c, g) in row.as_str().unwrap().chars().zip(given.chars()) {
            if g == '?' {
                assert!(u64::from(c.to_digit(10).unwrap()) < levels, "{j}");
            }
        }
    }

    // symmetry breaking is on unless --level-gaps turns it off; either way a winner
    for (flags, note) in [
        (&[][..], true),
        (&["--level-gaps", "--first-levels", "10"][..], false),
    ] {
        let mut args = vec!["dsat", "--cut", "4"];
        args.extend_from_slice(flags);
        args.push("examples/complete.txt");
        let run = c4lab(&args, "");
        assert_exit(&run, 0);
        let header = String::from_utf8_lossy(&run.stderr);
        assert_eq!(header.contains("no gap between levels"), note, "{header}");
        let grid = String::from_utf8_lossy(&run.stdout);
        assert_eq!(c4lab(&["verify"], &grid).status.code(), Some(0), "{grid}");
    }

    let board = "???????\n???????\n???????\n???????\n?????R?\n?YYY?RR\n";
    let unsat = c4lab(&["dsat", "-"], board);
    assert_eq!(unsat.status.code(), Some(1));
    let said = String::from_utf8_lossy(&unsat.stderr);
    assert!(said.contains("not independently audited"), "{said}");
    // no level budget is "the fewest that can win" when nothing wins
    assert!(!said.contains("can win"), "{said}");

    let wide = "???????\n".repeat(6);
    let budget = c4lab(
        &["dsat", "--max-states", "1000", "--oracle-nodes", "0"],
        &wide,
    );
    assert_eq!(budget.status.code(), Some(3));
    let said = String::from_utf8_lossy(&budget.stderr);
    assert!(said.contains("(no smaller budget ruled out)"), "{said}");
    assert_eq!(c4lab(&["dsat"], "R??????\n").status.code(), Some(2));
    // a root that cannot be played is refused with the reason, before any account of
    // the run
    let won = "???????\n???????\nY??????\nY??????\nYR?????\nYRRR???\n";
    let refused = c4lab(&["dsat"], won);
    assert_eq!(refused.status.code(), Some(2));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("the root already holds a four"), "{said}");
    assert!(!said.contains("undecided cells"), "{said}");
    // a level budget names one to ten levels
    let zero = c4lab(
        &["dsat", "--first-levels", "0", "examples/complete.txt"],
        "",
    );
    assert_eq!(zero.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&zero.stderr).contains("--first-levels"));
}

#[test]
fn train_then_eval_a_model_on_a_generated_corpus() {
    let dir = std::env::temp_dir().join(format!("c4lab-train-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let out = c4lab(
        &[
            "corpus",
            "generate",
            "--games",
            "300",
            "--holdout",
            "60",
            "--seed",
            "3",
            "--out",
            d,
        ],
        "",
    );
    assert_exit(&out, 0);
    let corpus = format!("{d}/train/corpus_300.txt");
    let targets = format!("{d}/train/perply_targets.npz");
    let (hold, hold_t) = (
        format!("{d}/holdout/corpus.txt"),
        format!("{d}/holdout/perply_targets.npz"),
    );
    let model = format!("{d}/m.c4m");
    let train_to = |out: &str, ctx: &str, extra: &[&str]| {
        let mut args = vec![
            "train",
            "--load-corpus",
            &corpus,
            "--perply-targets",
            &targets,
            "--holdout-corpus",
            &hold,
            "--holdout-targets",
            &hold_t,
            "--transcript",
            "v2",
            "--move-loss",
            "7way",
            "--soft-w",
            "1.0",
            "--steps",
            "2000",
            "--batch",
            "16",
            "--ctx",
            ctx,
            "--lr",
            "0.5",
            "--seed",
            "32",
            "--corpus-source",
            "teacher",
            "--hard-start",
            "0",
            "--hard-ramp",
            "500",
            "--hard-w",
            "0.5",
            "--out",
            out,
        ];
        args.extend_from_slice(extra);
        c4lab(&args, "")
    };
    let train = |ctx: &str, extra: &[&str]| train_to(&model, ctx, extra);
    let first_run = train("192", &[]);
    assert_exit(&first_run, 0);
    let text = stdout(&first_run);
    assert!(
        text.contains("trained 2000 steps") && text.contains("holdout agreement"),
        "{text}"
    );
    let first = std::fs::read(&model).unwrap();
    // the same seed gives the same model; resuming a finished run to more steps works
    assert_eq!(train("192", &[]).status.code(), Some(0));
    assert_eq!(std::fs::read(&model).unwrap(), first);
    let out = train("192", &["--resume"]);
    assert_exit(&out, 0);
    assert_eq!(
        std::fs::read(&model).unwrap(),
        first,
        "resuming a finished run adds nothing"
    );
    // the threat windows are the default; the column windows alone make a smaller
    // model (8 tables a side against 13), which bench model names; a checkpoint of
    // one set does not resume as the other; an unknown set is refused
    let columns_model = format!("{d}/columns.c4m");
    let out = train_to(&columns_model, "192", &["--features", "columns"]);
    assert_exit(&out, 0);
    let size = |p: &str| std::fs::metadata(p).unwrap().len() - 16;
    assert_eq!(size(&columns_model) * 13, size(&model) * 8);
    let named = stdout(&c4lab(
        &[
            "bench",
            "model",
            "--corpus",
            d,
            "--model",
            &columns_model,
            "--positions",
            "1",
        ],
        "",
    ));
    assert!(
        named.contains("16-bit table indices, columns features"),
        "{named}"
    );
    let out = train("192", &["--features", "columns", "--resume"]);
    assert_exit(&out, 2);
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("resume it with --index-bits 16 --features threats"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = train("192", &["--features", "rows"]);
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("use threats or columns"));
    // the evaluation table, reproducible from its seed
    let eval = || {
        stdout(&c4lab(
            &[
                "eval",
                "--model",
                &model,
                "--holdout-corpus",
                &hold,
                "--holdout-targets",
                &hold_t,
                "--positions",
                "20",
                "--games",
                "2",
                "--seed",
                "5",
            ],
            "",
        ))
    };
    let table = eval();
    assert!(
        table.contains("| holdout agreement |") && table.contains("optimal-move rate"),
        "{table}"
    );
    assert_eq!(eval(), table);
    // bench model times the exported model itself when given one: no training row, and
    // the same holdout agreement as eval
    let bench = stdout(&c4lab(
        &[
            "bench",
            "model",
            "--corpus",
            d,
            "--model",
            &model,
            "--positions",
            "5",
        ],
        "",
    ));
    let rate = |t: &str| {
        let line = t
            .lines()
            .find(|l| l.starts_with("| holdout agreement |"))
            .unwrap();
        line.split('|')
            .nth(2)
            .unwrap()
            .trim()
            .split(" %")
            .next()
            .unwrap()
            .to_string()
    };
    assert!(!bench.contains("training time"), "{bench}");
    assert!(bench.contains("| inference"), "{bench}");
    assert_eq!(rate(&bench), rate(&table), "{bench}\n{table}");
    // the model's hint: one line a position; a bad one is named and the rest answered
    let out = c4lab(
        &["hint", "--model", &model, "4453", "44444444", "112233"],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    let lines: Vec<String> = stdout(&out).lines().map(String::from).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("4453 ") && lines[1] == "112233 4",
        "{lines:?}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("\"44444444\": move 7"));
    let json = stdout(&c4lab(&["hint", "--json", "--model", &model, "4453"], ""));
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(v["moves"], "4453");
    assert_eq!(v["scores"].as_array().unwrap().len(), 7);
    assert_eq!(lines[0], format!("4453 {}", v["column"]));
    // the model as an opponent: it answers every move and the game is judged
    let out = c4lab(
        &[
            "play",
            "--opponent",
            "model",
            "--model",
            &model,
            "--you",
            "red",
            "--moves",
            "1111",
            "--no-input",
        ],
        "",
    );
    let text = stdout(&out);
    assert!(text.matches("the model plays").count() >= 3, "{text}");
    assert!(matches!(out.status.code(), Some(0 | 1)), "{text}");
    let out = c4lab(&["play", "--opponent", "model"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--model FILE"));
    // bad input is named
    let out = train("5", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--ctx 5"));
    let out = c4lab(
        &[
            "eval",
            "--model",
            &corpus,
            "--holdout-corpus",
            &hold,
            "--holdout-targets",
            &hold_t,
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a c4lab model"));
    // several corpora: each with its sidecar, in order (one named twice counts twice)
    let count = |out: &std::process::Output| -> u64 {
        let err = String::from_utf8_lossy(&out.stderr);
        let line = err.lines().find(|l| l.contains("training positions"));
        line.and_then(|l| l.split_whitespace().next()?.parse().ok())
            .unwrap_or_else(|| panic!("no count of training positions in {err}"))
    };
    let once = count(&first_run);
    let twice = train(
        "192",
        &["--load-corpus", &corpus, "--perply-targets", &targets],
    );
    assert_exit(&twice, 0);
    assert_eq!(count(&twice), 2 * once);
    let out = train("192", &["--load-corpus", &corpus]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("2 --load-corpus but 1 --perply-targets"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The first `n` lines of benchmark set `name`, written alone into a fresh folder named
/// after `tag` (for `bench solver --sets`): the folder and the lines, or None (with a
/// note) when the sets are not beside the repo.
fn small_set(name: &str, n: usize, tag: &str) -> Option<(PathBuf, Vec<String>)> {
    let path = repo().join(format!("../shared/data/bench/{name}.txt"));
    let Ok(set) = std::fs::read_to_string(path) else {
        eprintln!("skipped: the benchmark sets are not beside the repo");
        return None;
    };
    let dir = std::env::temp_dir().join(format!("c4lab-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lines: Vec<String> = set.lines().take(n).map(str::to_string).collect();
    std::fs::write(dir.join(format!("{name}.txt")), lines.join("\n")).unwrap();
    Some((dir, lines))
}

#[test]
fn bench_solver_reports_the_fastest_of_repeated_runs_and_any_wrong_score() {
    let Some((dir, lines)) = small_set("L3_R1", 20, "sets") else {
        return;
    };
    let sets = dir.display().to_string();
    let run = |repeat: &str| {
        let base = ["bench", "solver", "--only", "L3_R1", "--table-mb", "4"];
        c4lab(
            &[&base[..], &["--sets", &sets, "--repeat", repeat]].concat(),
            "",
        )
    };
    let good = run("3");
    assert_eq!(good.status.code(), Some(0), "{}", stdout(&good));
    assert!(
        stdout(&good).contains("| L3_R1 | 20 | 0 |"),
        "{}",
        stdout(&good)
    );
    // one wrong score: the run fails and names the position, however often it repeats
    let (moves, score) = lines[7].split_once(' ').unwrap();
    let wrong = format!("{moves} {}", score.parse::<i32>().unwrap() + 1);
    let mut bad = lines.clone();
    bad[7] = wrong;
    std::fs::write(dir.join("L3_R1.txt"), bad.join("\n")).unwrap();
    let failed = run("3");
    assert_eq!(failed.status.code(), Some(1));
    assert!(
        stdout(&failed).contains("| L3_R1 | 20 | 1 |"),
        "{}",
        stdout(&failed)
    );
    assert!(stdout(&failed).contains(&format!("first mismatch: {moves}")));
    assert_eq!(run("0").status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bench_solver_runs_a_baseline_side_by_side_and_checks_its_scores() {
    let Some((dir, lines)) = small_set("L2_R1", 30, "baseline") else {
        return;
    };
    let sets = dir.display().to_string();
    let bin = env!("CARGO_BIN_EXE_c4lab");
    let run = |baseline: &str| {
        let base = ["bench", "solver", "--only", "L2_R1", "--table-mb", "4"];
        c4lab(
            &[
                &base[..],
                &["--sets", &sets, "--repeat", "2", "--baseline", baseline],
            ]
            .concat(),
            "",
        )
    };
    let row = |o: &Output| -> Vec<String> {
        let text = stdout(o);
        let line = text
            .lines()
            .find(|l| l.starts_with("| L2_R1 |"))
            .unwrap_or_else(|| panic!("{text}"));
        line.split('|')
            .map(|c| c.trim().to_string())
            .filter(|c| !c.is_empty())
            .collect()
    };
    // this very solver as its own baseline: the layout `c4lab solve` prints is read back
    let same = run(&format!("{bin} solve --table-mb 4"));
    assert_exit(&same, 0);
    let cells = row(&same);
    // set, positions, mismatches, µs, nodes, baseline µs, nodes, mismatches, process s, speed-up, recorded
    assert_eq!(cells.len(), 11, "{cells:?}");
    assert_eq!(cells[7], "0", "{cells:?}");
    assert!(
        cells[9].ends_with('x') && cells[5].parse::<f64>().unwrap() > 0.0,
        "{cells:?}"
    );
    // a baseline that only knows win, draw or loss gets most exact scores wrong
    let weak = run(&format!("{bin} solve --weak --table-mb 4"));
    assert_exit(&weak, 0);
    let wrong: usize = row(&weak)[7].parse().unwrap();
    let exact = lines
        .iter()
        .filter(|l| {
            l.split_whitespace()
                .nth(1)
                .is_some_and(|s| s.parse::<i32>().unwrap().abs() > 1)
        })
        .count();
    assert!(
        wrong >= exact && exact > 0,
        "{wrong} wrong, {exact} scores beyond ±1"
    );
    // a program that cannot be started is a clear error, not a table
    let missing = run("/nonexistent/solver");
    assert_exit(&missing, 2);
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot start /nonexistent/solver"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_missing_file_is_named_once_with_its_cause_once() {
    for args in [
        &["corpus", "check", "no-such-dir/corpus.txt"][..],
        &["corpus", "label", "no-such-dir/corpus.txt"][..],
        &["verify", "no-such-dir/diagram.txt"][..],
    ] {
        let out = c4lab(args, "");
        assert_exit(&out, 2);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("error: ") && err.contains("no-such-dir/"),
            "{err}"
        );
        assert_eq!(err.matches("(os error 2)").count(), 1, "{err}");
    }
}
