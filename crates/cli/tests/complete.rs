//! `c4lab complete` and `bench complete` as a script would use them.

mod common;
use common::*;

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

    // losing cores on from the first candidate, on a root whose first candidates
    // lose: still found, and the cores learnt counted
    let wider = "??0????\n??R????\n0?Y????\nYRY?R??\nYYYRR??\nRRRYYRY\n";
    let cores = c4lab(
        &[
            "complete",
            "--json",
            "--lost-budget",
            "2000",
            "--lost-after",
            "0",
            "-",
        ],
        wider,
    );
    assert_exit(&cores, 0);
    let jc: serde_json::Value = serde_json::from_slice(&cores.stdout).unwrap();
    assert_eq!(jc["verdict"], "found");
    assert!(jc["candidates"].as_u64().unwrap() > 1, "{jc}");
    assert!(jc["cores"].as_u64().unwrap() > 0, "{jc}");

    // unsat: Yellow's open three on the bottom row beats every completion
    let board = "???????\n???????\n???????\n???????\n?????R?\n?YYY?RR\n";
    let unsat = c4lab(&["complete", "-"], board);
    assert_exit(&unsat, 1);
    assert!(String::from_utf8_lossy(&unsat.stderr).contains("no diagram wins from this root"));

    // stopped: the empty board with every cell undecided, cut off after half a second
    let wide = "???????\n".repeat(6);
    let stopped = c4lab(&["complete", "--max-seconds", "0.5"], &wide);
    assert_eq!(stopped.status.code(), Some(3));
    let err = String::from_utf8_lossy(&stopped.stderr);
    assert!(
        err.contains("wide scope") && err.contains("stopped"),
        "{err}"
    );
    // the warning does not ask for the cap it was given
    assert!(!err.contains("or set --max-seconds"), "{err}");
    // and the time said counts from where the cap does (it left out the set-up: a
    // 0.5 s stop was said to come after 0.3 s)
    let said: f64 = err
        .lines()
        .find(|l| l.starts_with("stopped:"))
        .and_then(|l| l.strip_suffix(" s")?.rsplit(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("{err}"));
    assert!(said >= 0.5, "{err}");

    // the stop is on time while whole-tree learning asks the strong solver about
    // hundreds of new positions (near the empty board none is answered): each question
    // is cut short, where a round of them once held a 2 s stop up for 15 s
    let start = std::time::Instant::now();
    let stopped = c4lab(
        &["complete", "--tree-after", "20", "--max-seconds", "2"],
        &wide,
    );
    assert_eq!(stopped.status.code(), Some(3));
    let took = start.elapsed().as_secs_f64();
    assert!(took < 8.0, "a 2 s stop took {took:.1} s");

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
    // `n` tasks of upstream's, k cells undecided, with `extra` flags
    let tasks = |k: &str, n: &str, extra: &[&str]| {
        let head = [
            "bench",
            "complete",
            "--steady-states",
            states.to_str().unwrap(),
        ];
        c4lab(&[&head[..], &["--k", k, "--tasks", n], extra].concat(), "")
    };
    // a row with nothing found has no medians: dashes, not NaN (exit 1: not all found)
    let none = tasks("26", "1", &["--cap", "0.001"]);
    assert_exit(&none, 1);
    let row = stdout(&none);
    assert!(!row.contains("NaN"), "{row}");
    assert!(
        row.contains("  26     0/1            -            -"),
        "{row}"
    );
    // the stop is read between steps, so a task may be found in its first step after
    // the cap has passed: that is not found within it (at --cap 0.001 tasks found in a
    // few ms counted as found); no task's set-up takes under 0.1 ms
    let late = tasks("1", "12", &["--cap", "0.0001", "--tasks-detail"]);
    assert_exit(&late, 1);
    let row = stdout(&late);
    assert!(row.contains("   1    0/12            -"), "{row}");
    let detail = String::from_utf8_lossy(&late.stderr);
    assert!(!detail.contains(": found,"), "{detail}");
    // blocking clauses encode no position: its column is a dash, not a median of 0
    let blocking = tasks("4", "1", &["--learn", "blocking"]);
    assert_exit(&blocking, 0);
    let row = stdout(&blocking);
    assert!(
        row.starts_with("auto-complete: 1 upstream diagram of ply "),
        "{row}"
    );
    let found = row
        .lines()
        .find(|l| l.starts_with("   4     1/1"))
        .expect(&row);
    assert!(found.ends_with(" -"), "{row}");
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
        let n = j["candidates"].as_u64().unwrap();
        let line = format!(": found, {n} candidate{},", if n == 1 { "" } else { "s" });
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
fn a_full_board_is_a_draw_for_every_command() {
    // the drawn game 656173566152215676422337377473141445425321, as a level grid
    let full = "YRYRRYR\nRYYRYYR\nRRRYRRY\nYYRYRYY\nYRYYRRR\nYYYRYRR\n";
    let verify = c4lab(&["verify", "-"], full);
    assert_exit(&verify, 1);
    assert!(stdout(&verify).contains("loss: draw at the root"));
    // complete and dsat answered "no playable root" (exit 2) where verify says loss:
    // the same verdict now, unsat with the loss as it stands
    for cmd in ["complete", "dsat"] {
        let o = c4lab(&[cmd, "-"], full);
        assert_exit(&o, 1);
        let said = String::from_utf8_lossy(&o.stderr);
        assert!(said.contains("unsat: with no ? cell"), "{cmd}: {said}");
        assert!(said.contains("draw at the root"), "{cmd}: {said}");
        let j = c4lab(&[cmd, "--json", "-"], full);
        let j: serde_json::Value = serde_json::from_slice(&j.stdout).unwrap();
        assert_eq!(j["verdict"], "unsat", "{cmd}: {j}");
        assert_eq!(j["loss"]["reason"], "draw", "{cmd}: {j}");
    }
    // no link was given: the refusal speaks of the board, not of "the link's root"
    let link = c4lab(&["convert", "--to", "link", "-"], full);
    assert_exit(&link, 2);
    let said = String::from_utf8_lossy(&link.stderr);
    assert!(said.contains("the stones fill the board"), "{said}");
}

#[test]
fn a_root_lost_to_every_diagram_is_named_so() {
    // Yellow holds three in the bottom row, open at both ends; every empty cell is `?`
    let lost = "???????\n???????\n???????\n???????\n??????R\n?YYY?RR\n";
    for (cmd, said) in [
        (
            "complete",
            "unsat: no diagram wins from this root (its 36 empty cells over levels 0-9)",
        ),
        (
            "dsat",
            "unsat: no diagram wins from this root (every empty cell free over levels 0-9)",
        ),
    ] {
        let o = c4lab(&[cmd, "-"], lost);
        assert_exit(&o, 1);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(said), "{cmd}: {err}");
        // --json says what the verdict covers too (it gave the bare verdict)
        let j = c4lab(&[cmd, "--json", "-"], lost);
        assert_exit(&j, 1);
        let j: serde_json::Value = serde_json::from_slice(&j.stdout).unwrap();
        let covers = j["covers"].as_str().unwrap_or_default();
        assert!(
            covers.starts_with(said.trim_start_matches("unsat: ")),
            "{cmd}: {j}"
        );
        if cmd == "dsat" {
            assert!(err.contains(&format!("unsat: {covers}; ")), "{err}");
            assert!(covers.ends_with("not independently audited"), "{covers}");
        }
        // and whether it is the game that is lost, or the language that falls short
        let lost_in_play = "the strong solver scores the root -";
        assert!(
            err.contains(lost_in_play) && err.contains("lost with best play"),
            "{err}"
        );
        assert!(j["root_score"].as_i64().is_some_and(|s| s < 0), "{j}");
    }
    // a root Red wins, where no diagram does (the reference unsat root)
    let o = c4lab(&["dsat", "--json", "4621352243446466"], "");
    assert_exit(&o, 1);
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(j["root_score"].as_i64().is_some_and(|s| s > 0), "{j}");
    assert_eq!(j["root_outcome"], "win", "{j}");
    let o = c4lab(&["dsat", "4621352243446466"], "");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("a win with best play, but by no diagram of this language"),
        "{err}"
    );
    // a root ten plies in, whose exact score takes more than the budget: its sign (it
    // said nothing)
    let o = c4lab(&["dsat", "--json", "7762344456"], "");
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["root_outcome"], "loss", "{j}");
    assert!(j["root_score"].is_null(), "{j}");
    // one level pinned: the answer is about these pinned cells only
    let o = c4lab(&["complete", "-"], lost.replacen('?', "9", 1));
    assert_exit(&o, 1);
    assert!(String::from_utf8_lossy(&o.stderr).contains("no completion of these pinned cells wins"));
    let j = c4lab(&["complete", "--json", "-"], lost.replacen('?', "9", 1));
    let j: serde_json::Value = serde_json::from_slice(&j.stdout).unwrap();
    assert!(
        j["covers"]
            .as_str()
            .unwrap()
            .starts_with("no completion of these pinned cells wins"),
        "{j}"
    );
    // (no score: the answer is not about the root)
    assert!(j["root_score"].is_null(), "{j}");
}

#[test]
fn the_candidate_log_holds_every_candidate_and_how_it_was_judged() {
    let dir = std::env::temp_dir().join(format!("c4lab-candidates-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("candidates.jsonl");
    let log_s = log.to_str().unwrap();
    // a root whose first candidates lose
    let wider = "??0????\n??R????\n0?Y????\nYRY?R??\nYYYRR??\nRRRYYRY\n";
    let run = c4lab(
        &["complete", "--json", "--log-candidates", log_s, "-"],
        wider,
    );
    assert_exit(&run, 0);
    let report: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // one line per candidate, in order, the last the one that won
    assert_eq!(lines.len() as u64, report["candidates"].as_u64().unwrap());
    assert!(lines.len() > 1, "{text}");
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["candidate"], i as u64 + 1, "{line}");
        let last = i + 1 == lines.len();
        assert_eq!(line["won"], last, "{line}");
        let grid: String = line["diagram"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| format!("{}\n", r.as_str().unwrap()))
            .collect();
        // each candidate is judged as the verifier judges it
        let verdict = c4lab(&["verify", "--json", "-"], &grid);
        let verdict: serde_json::Value = serde_json::from_slice(&verdict.stdout).unwrap();
        if last {
            assert_eq!(line["diagram"], report["diagram"]);
            assert_eq!(verdict["verdict"], "win");
        } else {
            assert_eq!(verdict["verdict"], "loss", "{grid}");
            // the loss in full, as verify gives it (yellow and tied levels too)
            for field in ["line", "reason", "yellow", "tied"] {
                assert_eq!(verdict[field], line["loss"][field], "{field}: {grid}");
            }
        }
    }
    // standard output carries the result: refused, and nothing searched
    let out = c4lab(&["complete", "--log-candidates", "-", "-"], wider);
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("--log-candidates -: standard output carries the result"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn on_a_terminal_the_live_line_names_the_deepest_loss_and_its_moves() {
    let dir = std::env::temp_dir().join(format!("c4lab-live-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let grid = dir.join("empty.txt");
    std::fs::write(&grid, "???????\n".repeat(6)).unwrap();
    // on a terminal, two seconds of search
    let run = format!(
        "{} complete --max-seconds 2 {}",
        env!("CARGO_BIN_EXE_c4lab"),
        grid.display()
    );
    let shown = on_a_terminal(&run);
    std::fs::remove_dir_all(&dir).ok();
    let Some(shown) = shown else {
        return;
    };
    let end = shown.rfind("ended=").unwrap();
    assert!(shown[end..].starts_with("ended=3"), "{shown:?}");
    assert!(shown.contains("stopped"), "{shown:?}");
    // "deepest loss 42 plies (draw after 5161...)": the reason and the moves (it gave
    // the ply count alone)
    let at = shown.find("deepest loss ").expect(&shown);
    let rest = &shown[at..];
    let open = rest.find(" (").expect(rest);
    let after = rest.find(" after ").expect(rest);
    let plies: usize = rest["deepest loss ".len()..rest.find(" plies").expect(rest)]
        .parse()
        .expect(rest);
    let moves: String = rest[after + " after ".len()..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    assert!(open < after, "{rest}");
    assert_eq!(moves.len(), plies, "{rest}");
}

#[test]
fn where_standard_error_is_no_terminal_a_long_search_writes_its_line_every_ten_seconds() {
    // a log file or a batch job (standard error piped here): it was silent until the
    // verdict, however long the search ran
    let out = c4lab(
        &["complete", "--max-seconds", "11", "-"],
        "???????\n".repeat(6),
    );
    assert_exit(&out, 3);
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("complete, "))
        .collect();
    assert_eq!(lines.len(), 1, "{err}");
    // (ten seconds in, give or take a busy machine's wake-up)
    let secs: u64 = lines[0]["complete, ".len()..lines[0].find(" s: ").expect(&err)]
        .parse()
        .expect(&err);
    assert!((10..=11).contains(&secs), "{err}");
    assert!(lines[0].contains(" candidates, "), "{err}");
}
