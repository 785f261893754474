//! `c4lab bench dsat` as a script would use it: its rows, its sample files, a baseline
//! build beside it, and no solve left running when it is killed.

mod common;
use common::*;
use std::path::Path;

/// `c4lab bench dsat` on upstream's roots (`states`), with `flags`.
fn bench_dsat(states: &Path, flags: &[&str]) -> Output {
    let mut args = vec!["bench", "dsat", "--steady-states", states.to_str().unwrap()];
    args.extend_from_slice(flags);
    c4lab(&args, "")
}

#[test]
fn bench_dsat_writes_its_roots_as_grids_for_other_tools() {
    let Some(states) = upstream_states() else {
        return;
    };
    // one root of one ply is named so (it said "1 upstream roots of ply 22-22"), and a
    // lone search's local work as one value (it said "25000000,50000000")
    let flags = [
        "--roots",
        "1",
        "--min-ply",
        "22",
        "--max-ply",
        "22",
        "--widen-after",
        "0",
    ];
    let header = stdout(&bench_dsat(&states, &flags));
    assert!(
        header.starts_with("dsat: 1 upstream root of ply 22, every level cell ?")
            && header.contains("local search 25000000 work,"),
        "{header}"
    );
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
    // upstream's file on standard input, as `pick` reads it (it was sought as a file
    // named `-` in the current folder)
    let text = std::fs::read_to_string(&states).unwrap();
    let args = [
        "bench",
        "dsat",
        "--steady-states",
        "-",
        "--roots",
        "2",
        "--write-grids",
    ];
    let out = c4lab(&[&args[..], &[dir.to_str().unwrap()]].concat(), &text);
    assert_exit(&out, 0);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
    std::fs::remove_dir_all(&dir).ok();
    // more roots asked than the plies hold: all of them written, and said so
    let flags = ["--min-ply", "22", "--roots", "500", "--write-grids"];
    let out = bench_dsat(&states, &[&flags[..], &[dir.to_str().unwrap()]].concat());
    assert_exit(&out, 0);
    let written = std::fs::read_dir(&dir).unwrap().count();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains(&format!(
            "wrote {written} upstream roots of ply 22-42 (all there are; 500 asked)"
        )),
        "{said}"
    );
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
    assert!(
        text.contains("local search 25000000,50000000 work"),
        "{text}"
    );
    // without the strong solver no local search runs, and the header says so
    let unjudged = c4lab(
        &[
            "bench",
            "dsat",
            "--cap",
            "20",
            "--oracle-nodes",
            "0",
            "--grids",
            &grids[0],
        ],
        "",
    );
    assert!(
        stdout(&unjudged).contains("local search off (--oracle-nodes 0)"),
        "{}",
        stdout(&unjudged)
    );
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
    // a baseline whose report lacks a figure the table sums is named, not summed as NaN
    // (its row read `NaN` and the summary compared nothing, exit 0)
    #[cfg(target_os = "linux")]
    {
        let program = script(
            &dir.join("terse.sh"),
            "cat > /dev/null\necho '{\"verdict\": \"found\", \"map_seconds\": 0.1}'",
        );
        let terse = c4lab(
            &[
                "bench",
                "dsat",
                "--grids",
                &grids[0],
                "--baseline",
                &program,
            ],
            "",
        );
        assert_eq!(terse.status.code(), Some(2));
        let err = String::from_utf8_lossy(&terse.stderr);
        assert!(
            err.contains("terse.sh dsat --json for") && err.contains("has no `search_seconds`"),
            "{err}"
        );
    }
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
    assert!(
        said.contains("Yellow already has four in a row at the root"),
        "{said}"
    );
    assert!(
        refused.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&refused.stdout)
    );
    // a cap that no run can honour, or no roots at all, is refused before any table
    for (flag, value) in [("--cap", "0"), ("--cap", "nan"), ("--roots", "0")] {
        let out = c4lab(&["bench", "dsat", "--grids", &grids[0], flag, value], "");
        assert_eq!(out.status.code(), Some(2), "{flag} {value}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(&format!("invalid value '{value}'")),
            "{flag} {value}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.stdout.is_empty(), "{flag} {value}");
    }
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
    // these roots take well under a second: far from the cap, whatever the load
    assert_eq!(found, 4, "{rows:?}");
    assert!(last.starts_with("found 4 of 4,"), "{last}");
    assert_eq!(code, Some(0));
    // two at a time: the same roots, the same verdicts, in the same order
    let (code2, rows2, last2) = run("2");
    assert_eq!(rows2, rows);
    assert_eq!(code2, code);
    assert!(
        last2.starts_with(&format!("found {found} of 4,")),
        "{last2}"
    );
    // the search flags reach each root's solve: a state budget of five runs out (the
    // SAT search's: the local search, which maps nothing, is turned off)
    // (asked for more roots than there are, it runs and says how many there are)
    let tight = bench(&["--roots", "500", "--max-states", "5", "--local-work", "0"]);
    let text = stdout(&tight);
    let header = text.lines().next().unwrap_or_default();
    assert!(header.contains("at most 5 positions"), "{text}");
    let rows: Vec<&str> = text
        .lines()
        .skip(2)
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    assert!(rows.len() > 4 && rows.len() < 500, "{text}");
    let all = format!(
        "dsat: {} upstream roots of ply 22-42 (all there are; 500 asked)",
        rows.len()
    );
    assert!(header.starts_with(&all), "{text}");
    assert!(
        rows.iter()
            .all(|r| r.split_whitespace().nth(2) == Some("budget")),
        "{text}"
    );
}

#[test]
fn bench_dsat_counts_per_position_over_the_positions_encoded() {
    let Some(states) = upstream_states() else {
        return;
    };
    // with --cut 0 the map is empty and refinement encodes every position: the row
    // shows both, and its per-position figures are over the encoded ones (beside the
    // map alone it read 0 positions of some 2,500 bytes each)
    let flags = [
        "--min-ply",
        "22",
        "--roots",
        "1",
        "--cut",
        "0",
        "--local-work",
        "0",
    ];
    let out = bench_dsat(&states, &flags);
    assert_exit(&out, 0);
    let text = stdout(&out);
    let head: Vec<&str> = text.lines().nth(1).unwrap().split_whitespace().collect();
    assert_eq!(head[3..5], ["mapped", "encoded"], "{text}");
    let row: Vec<&str> = text.lines().nth(2).unwrap().split_whitespace().collect();
    assert_eq!((row[2], row[3]), ("found", "0"), "{text}");
    let encoded: u64 = row[4].parse().expect(&text);
    let bytes: u64 = row[8].parse().expect(&text);
    assert!(encoded > 0 && bytes > 0, "{text}");
}

#[cfg(target_os = "linux")]
#[test]
fn a_bench_killed_mid_root_leaves_no_solve_running() {
    use std::time::{Duration, Instant};
    let dir = std::env::temp_dir().join(format!("c4lab-bench-kill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // the empty board, every cell free: a solve that runs to its cap
    let grid = dir.join("wide.txt");
    std::fs::write(&grid, "???????\n".repeat(6)).unwrap();
    let mut bench = std::process::Command::new(env!("CARGO_BIN_EXE_c4lab"))
        .args(["bench", "dsat", "--cap", "60", "--grids"])
        .arg(&grid)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t = Instant::now();
    let solve = loop {
        if let Some(&(pid, _)) = children_of(bench.id()).first() {
            break pid;
        }
        assert!(t.elapsed() < Duration::from_secs(20), "no solve started");
        std::thread::sleep(Duration::from_millis(50));
    };
    bench.kill().unwrap();
    bench.wait().unwrap();
    // it used to run on, adopted, for the rest of its cap
    let state = |pid: u32| {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|s| {
                s.rsplit_once(')')
                    .and_then(|(_, r)| r.trim_start().chars().next())
            })
    };
    let t = Instant::now();
    while matches!(state(solve), Some(s) if s != 'Z') {
        if t.elapsed() > Duration::from_secs(10) {
            // (not left running for its cap by the failing test either)
            let _ = std::process::Command::new("kill")
                .arg(solve.to_string())
                .status();
            panic!("the solve {solve} still runs after its bench was killed");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The processes whose parent is `pid` (Linux's /proc), with their state letter.
#[cfg(target_os = "linux")]
fn children_of(pid: u32) -> Vec<(u32, char)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // "pid (name) state ppid ...": the name may hold spaces, so read after its ')'
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.get(1).and_then(|p| p.parse::<u32>().ok()) == Some(pid) {
            if let Ok(child) = entry.file_name().to_string_lossy().parse::<u32>() {
                out.push((child, fields[0].chars().next().unwrap_or('?')));
            }
        }
    }
    out
}
