//! The `c4lab` binary as a script would use it: outputs, `--json`, exit codes (the
//! diagram commands; the searches, the solver and the model have files of their own).

use std::path::Path;

mod common;
use common::*;

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
    // Yellow's moves of the line, and the command that replays it
    assert_eq!(j["yellow"], "7112");
    let said = stdout(&c4lab(&["verify", "examples/loss.txt"], ""));
    assert!(
        said.contains("replay: c4lab play examples/loss.txt --moves 7112 (Yellow's moves"),
        "{said}"
    );
    let replayed = c4lab(
        &["play", "examples/loss.txt", "--moves", "7112", "--no-input"],
        "",
    );
    assert!(
        stdout(&replayed).contains("names no move"),
        "{}",
        stdout(&replayed)
    );
    // a share link with a Yellow line of its own (play would play that first) is
    // replayed through a grid
    let link = stdout(&c4lab(
        &["convert", "--to", "link", "examples/loss.txt"],
        "",
    ));
    let said = stdout(&c4lab(&["verify", "-"], format!("{}.7\n", link.trim())));
    assert!(
        said.contains("replay: c4lab convert --to grid FILE > grid.txt; c4lab play grid.txt --moves 7112 (the link's own Yellow line"),
        "{said}"
    );

    // the empty board with one level everywhere: no unique level at the root
    let flat = c4lab(&["verify", "-"], "9999999\n".repeat(6));
    assert_eq!(flat.status.code(), Some(1));
    assert!(
        stdout(&flat).contains("tied: 9) at the root [1 position searched]"),
        "{}",
        stdout(&flat)
    );
    // (no moves to replay at the root)
    assert!(!stdout(&flat).contains("replay"), "{}", stdout(&flat));

    let incomplete = c4lab(&["verify", "examples/incomplete.txt"], "");
    assert_eq!(incomplete.status.code(), Some(2));
    // where the undecided cell is, rows from the top as the grid is written
    assert!(
        stdout(&incomplete).contains("undecided (rows from the top): row 3 column 1"),
        "{}",
        stdout(&incomplete)
    );
    let j: serde_json::Value = serde_json::from_str(&stdout(&c4lab(
        &["verify", "--json", "examples/incomplete.txt"],
        "",
    )))
    .unwrap();
    assert_eq!(
        j["undecided_at"],
        serde_json::json!([{ "row": 3, "column": 1 }])
    );

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
    // a Yellow line the output form cannot hold, or one cut where Red's move depends on
    // a ? cell, is said on stderr (it went without a word)
    let lined = c4lab(&["convert", "--to", "grid"], format!("{}.2", link.trim()));
    assert_eq!(stdout(&lined), grid);
    assert!(
        String::from_utf8_lossy(&lined.stderr)
            .contains("note: the link's Yellow line (2) is not kept: only a share link holds one"),
        "{}",
        String::from_utf8_lossy(&lined.stderr)
    );
    let undecided = std::fs::read_to_string(repo().join("examples/complete.txt")).unwrap();
    let cut_link = stdout(&c4lab(&["convert", "--to", "link"], &undecided));
    let cut = c4lab(
        &["convert", "--to", "link"],
        format!("{}.17", cut_link.trim()),
    );
    assert_eq!(stdout(&cut), cut_link, "the line is not kept");
    assert!(
        String::from_utf8_lossy(&cut.stderr).contains(
            "note: standard input: the link's Yellow line (2 moves) was left out: Red's first move depends on a ? cell"
        ),
        "{}",
        String::from_utf8_lossy(&cut.stderr)
    );
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
    // applied to a minimal diagram: the grid unchanged on stdout (for pipes), the note on stderr
    let same = c4lab(&["simplify"], &grid);
    assert_eq!(same.status.code(), Some(0));
    assert_eq!(stdout(&same), grid);
    assert!(String::from_utf8_lossy(&same.stderr).contains("already minimal"));
    // clutter: the top-right cell was 9 and is not consulted
    grid.replace_range(6..7, "8");
    let dry = c4lab(&["simplify", "--dry-run"], &grid);
    assert!(
        stdout(&dry)
            .contains("would clear 1 cell (set it to 9; rows from the top: row 1 column 7)"),
        "{}",
        stdout(&dry)
    );
    let done = c4lab(&["simplify"], &grid);
    assert_eq!(
        stdout(&done),
        std::fs::read_to_string(repo().join("examples/win.txt")).unwrap()
    );
    let said = String::from_utf8_lossy(&done.stderr);
    assert!(
        said.contains("cleared 1 cell (rows from the top: row 1 column 7)"),
        "{said}"
    );
    // --json names the cell as `verify --json` names undecided ones: rows from the top
    let json = c4lab(&["simplify", "--json", "--dry-run"], &grid);
    let j: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(
        j["cells"],
        serde_json::json!([{ "row": 1, "column": 7 }]),
        "{j}"
    );
    assert_eq!(j["cleared"], 1, "{j}");
    // a losing diagram is refused with the verifier's reason: the line that beats it
    let loss = c4lab(&["simplify", "examples/loss.txt"], "");
    assert_eq!(loss.status.code(), Some(2));
    let said = String::from_utf8_lossy(&loss.stderr);
    assert!(
        said.contains("this one is `loss`: fix that first (loss: no-move (no level unique; tied: 9) after 67711132"),
        "{said}"
    );
}

#[test]
fn play_prints_each_rule() {
    // a diagram on standard input leaves no moves to read from it, however it is named
    // (`/dev/stdin` read the diagram's own rows back as moves, exit 0)
    let grid = std::fs::read_to_string(repo().join("examples/win.txt")).unwrap();
    for name in ["-", "/dev/stdin"] {
        let out = c4lab(&["play", name], &grid);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains("the moves cannot come from it too"),
            "{name}: {said}"
        );
    }
    // a bad --moves entry is refused before Red's first move is printed
    let bad = c4lab(
        &["play", "examples/win.txt", "--moves", "29", "--no-input"],
        "",
    );
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(stdout(&bad), "", "no move before the error");
    let said = String::from_utf8_lossy(&bad.stderr);
    assert!(
        said.contains("--moves, move 2: '9' is not a column; write columns as digits 1-7"),
        "{said}"
    );
    let out = c4lab(&["play", "examples/win.txt"], "u\nx\n+2\n02\n2\nu\n1\n");
    let text = stdout(&out);
    // Red's first move is on the board, but it is the diagram's: not Yellow's to undo
    assert!(
        text.contains("nothing to undo: Yellow has made no move"),
        "{text}"
    );
    assert!(
        text.contains("Red plays 6 (level 7, lower levels tied: 0 in columns 1, 3)"),
        "{text}"
    );
    assert!(text.contains("\"x\": type a column 1-7"), "{text}");
    // a column is one digit, as --moves takes it
    assert!(text.contains("\"+2\": type a column 1-7"), "{text}");
    assert!(text.contains("\"02\": type a column 1-7"), "{text}");
    assert!(text.contains("Yellow plays 2"), "{text}");
    assert!(text.contains("undone"), "{text}");
    assert!(text.contains("Red plays 7 (win)"), "{text}");
    assert_eq!(out.status.code(), Some(0));
    let lost = c4lab(
        &["play", "examples/loss.txt", "--moves", "7112", "--no-input"],
        "",
    );
    assert!(
        stdout(&lost).contains("Red has no move, every level tied: 9 in columns"),
        "{}",
        stdout(&lost)
    );
    assert_eq!(lost.status.code(), Some(1));
    // an undecided cell that Red's move turns on stops the game, as verify calls the
    // diagram incomplete (it used to play column 2, as if the `?` could not fire)
    let partial = "9999999\n9999999\n9999999\n9999999\n9999999\n?199999\n";
    let stopped = c4lab(&["play", "-", "--no-input"], partial);
    assert_eq!(stopped.status.code(), Some(2));
    let said = stdout(&stopped);
    assert!(
        said.contains("Red's move depends on the undecided (?) cell in column 1:")
            && !said.contains("Red plays"),
        "{said}"
    );
    // moves past the end of the game: the board it ended on, then why no move follows
    let over = c4lab(
        &["play", "examples/win.txt", "--moves", "11", "--no-input"],
        "",
    );
    assert_eq!(over.status.code(), Some(2));
    let said = stdout(&over);
    assert!(
        said.contains("  1 2 3 4 5 6 7") && said.contains("Red wins"),
        "{said}"
    );
    assert!(
        String::from_utf8_lossy(&over.stderr).contains(
            "Yellow's move 2 (column 1): the game stops here (Red wins), so no move can follow"
        ),
        "{}",
        String::from_utf8_lossy(&over.stderr)
    );
    // a root that cannot be played is named with its source and the reason
    let won = "0000000\n0000000\nY000000\nY000000\nYR00000\nYRRR000\n";
    for (args, why) in [
        (&["play", "-", "--no-input"][..], "already holds a four"),
        (&["simplify"][..], "this one is `root-terminal`"),
    ] {
        let refused = c4lab(args, won);
        assert_eq!(refused.status.code(), Some(2), "{args:?}");
        let said = String::from_utf8_lossy(&refused.stderr);
        assert!(
            said.contains("standard input: ") && said.contains(why),
            "{args:?}: {said}"
        );
    }
}

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
    std::fs::remove_file(&tmp).ok();
    assert_exit(&out, 1);
    let text = stdout(&out);
    // it said only "check-solution FAILED on these files"
    assert!(
        text.contains("| diagrams verified (single thread) | 1 (1 win) |"),
        "{text}"
    );
    assert!(
        text.contains("check-solution FAILED coverage (")
            && text
                .contains("Yellow's reply is covered by no branch, diagram or Red win next move"),
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
    let out = c4lab(
        &["check-solution", "--branches", "-", "--steady-states", "-"],
        "-->4\n",
    );
    assert_exit(&out, 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("both `-`") && err.contains("give the other by name"),
        "{err}"
    );
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

#[test]
fn out_of_range_numbers_and_empty_inputs_are_refused_by_name() {
    let empty = std::env::temp_dir().join(format!("c4lab-empty-{}.txt", std::process::id()));
    std::fs::write(&empty, "# nothing but a comment\n").unwrap();
    let empty_s = empty.display().to_string();
    // (arguments, what the message names)
    let never = std::env::temp_dir().join(format!("c4lab-never-{}", std::process::id()));
    let never_s = never.display().to_string();
    let generate = |flag: &'static str, value: &'static str| {
        [
            "corpus",
            "generate",
            "--games",
            "4",
            "--out",
            never_s.as_str(),
            flag,
            value,
        ]
    };
    let slots = generate("--slots", "0");
    let shard = generate("--shard", "1/2/3");
    // (depth 20 listed its positions until memory ran out)
    let book = ["book", "--depth", "11", "--out", never_s.as_str()];
    let opening = generate("--opening-min", "40");
    let epsilon = generate("--epsilon", "1.5");
    let bounded = generate("--bounded-empty", "9");
    // (the book is checked for the teacher before it is read: this one is not there)
    let unread_book = generate("--book", "no-such-book.bin");
    let holdout = generate("--holdout", "18446744073709551615");
    let widen_27 = vec!["0"; 27].join(",");
    let all_slots = [
        "corpus",
        "generate",
        "--games",
        "4",
        "--holdout",
        "1",
        "--slots",
        "42",
        "--out",
        never_s.as_str(),
    ];
    // a root with Yellow to move: dsat names the file it refuses
    let odd = std::env::temp_dir().join(format!("c4lab-odd-{}.txt", std::process::id()));
    std::fs::write(&odd, "9999999\n".repeat(5) + "999R999\n").unwrap();
    let odd_s = odd.display().to_string();
    // a grid's comment line alone: no rows (not a share link)
    let comment = std::env::temp_dir().join(format!("c4lab-comment-{}.txt", std::process::id()));
    std::fs::write(&comment, "# my root\n\n").unwrap();
    let comment_s = comment.display().to_string();
    let cases: [(&[&str], &str); 50] = [
        (
            &["book", "--depth", "1", "--out", "/nonexistent/dir/b.bin"],
            "cannot write /nonexistent/dir/b.bin",
        ),
        (
            &["complete", "--backend", "nope", "examples/complete.txt"],
            "--backend",
        ),
        (
            &["dsat", "--backend", "nope", "examples/complete.txt"],
            "--backend",
        ),
        (&bounded, "--bounded-empty"),
        (
            &[
                "complete",
                "--lost-budget",
                "2000",
                "--learn",
                "tree",
                "examples/complete.txt",
            ],
            "--lost-budget",
        ),
        (
            &[
                "complete",
                "--lost-budget",
                "2000",
                "--lost-after",
                "150",
                "examples/complete.txt",
            ],
            "--lost-after 150 is not before --tree-after 150",
        ),
        (&["bench", "solver", "--threads", "1,100000"], "--threads"),
        (
            &["bench", "corpus", "--teacher", "exact", "--games", "1"],
            "--teacher",
        ),
        (
            &[
                "eval",
                "--model",
                "m.c4m",
                "--holdout-corpus",
                "h.txt",
                "--opening",
                "42",
            ],
            "--opening",
        ),
        (&["play", "examples/win.txt", "--you", "red"], "--you"),
        (&["play", "-", "--moves", "4"], "--no-input"),
        (&["dsat", odd_s.as_str()], ".txt: cannot solve this root"),
        (&["dsat", comment_s.as_str()], "found 0 rows"),
        // settings the chosen learning never uses are refused, not ignored
        (
            &[
                "complete",
                "--learn",
                "blocking",
                "--premap",
                "30",
                "examples/complete.txt",
            ],
            "--premap has no effect with --learn blocking",
        ),
        (
            &[
                "complete",
                "--learn",
                "tree",
                "--tree-after",
                "5",
                "examples/complete.txt",
            ],
            "--tree-after applies with --learn positions only",
        ),
        (
            &["complete", "--lost-after", "500", "examples/complete.txt"],
            "--lost-after needs --lost-budget above 0",
        ),
        (
            &[
                "complete",
                "--premap",
                "10",
                "--deepen-to",
                "2",
                "examples/complete.txt",
            ],
            "--deepen-to 2 is not deeper than --premap 10",
        ),
        // typed at their default values, they are refused the same way (they passed)
        (
            &[
                "complete",
                "--premap",
                "8",
                "--deepen-to",
                "8",
                "examples/complete.txt",
            ],
            "--deepen-to 8 is not deeper than --premap 8",
        ),
        (
            &[
                "complete",
                "--learn",
                "blocking",
                "--premap",
                "6",
                "examples/complete.txt",
            ],
            "--premap has no effect with --learn blocking",
        ),
        (
            &[
                "bench",
                "complete",
                "--learn",
                "tree",
                "--tree-after",
                "150",
            ],
            "--tree-after applies with --learn positions only",
        ),
        (
            &["convert", "--to", "old", "examples/win.txt"],
            "examples/win.txt: cannot write the old language: row 4",
        ),
        (
            &["dsat", "--max-seconds", "-1", "examples/complete.txt"],
            "--max-seconds must be a positive number",
        ),
        (
            &[
                "dsat",
                "--oracle-nodes",
                "0",
                "--local-work",
                "100000",
                "examples/complete.txt",
            ],
            "needs the strong solver",
        ),
        (
            &["dsat", "--log-rounds", "-", "examples/complete.txt"],
            "name a file for the round log",
        ),
        (
            &["bench", "dsat", "--min-ply", "30", "--max-ply", "20"],
            "--min-ply 30 is above --max-ply 20",
        ),
        (
            &[
                "bench",
                "dsat",
                "--grids",
                "examples/complete.txt",
                "--local-work",
                "1,2,3",
            ],
            "--local-work has 3 values for 2 searches",
        ),
        (
            &["bench", "dsat", "--write-grids", "examples/win.txt"],
            "is a file, not a folder",
        ),
        (
            &["bench", "complete", "--cap", "-1"],
            "expected a positive number of seconds",
        ),
        // (a minus sign before a word was taken for a flag: "unexpected argument '-i'")
        (
            &["dsat", "--max-seconds", "-inf", "examples/complete.txt"],
            "--max-seconds must be a positive number",
        ),
        (
            &["bench", "dsat", "--cap", "-inf"],
            "expected a positive number of seconds",
        ),
        (&slots, "--slots"),
        (&opening, "--opening-min"),
        (&epsilon, "--epsilon"),
        (&shard, "--shard 1/2/3"),
        (&book, "'--depth <DEPTH>': 11 is not in 0..=10"),
        (
            &[
                "eval",
                "--model",
                "m.c4m",
                "--games",
                "18446744073709551615",
            ],
            "'--games <GAMES>': 18446744073709551615 is not in 0..=1000000",
        ),
        (&["verify", "--budget", "0", "examples/win.txt"], "--budget"),
        (&holdout, "at most 1000000000 games"),
        (&unread_book, "--book speeds up the exact teacher only"),
        (&all_slots, "no holdout game can be board-disjoint"),
        (&["bench", "verify", "--runs", "1001"], "--runs"),
        (
            &["dsat", "--max-states", "0", "examples/complete.txt"],
            "expected a whole number from 1 to",
        ),
        (
            &["dsat", "--widen-after", &widen_27, "examples/complete.txt"],
            "at most 26 searches",
        ),
        // a wrong corpus path is named as the corpus, not as its missing sidecar
        (
            &["corpus", "stats", "no-such-corpus.txt"],
            "cannot read corpus no-such-corpus.txt",
        ),
        (&["analyze", "--table-mb", "0", "44"], "--table-mb"),
        (&["analyze", "--threads", "100000", "44"], "--threads"),
        (
            &["dsat", "--cut", "4294967295", "examples/complete.txt"],
            "--cut",
        ),
        (
            &["complete", "--deepen-to", "43", "examples/complete.txt"],
            "--deepen-to",
        ),
        (
            &["complete", "--max-seconds", "1e20", "examples/complete.txt"],
            "no larger than about 1.8e19, got 1e20",
        ),
        (
            &[
                "bench",
                "verify",
                "--branches",
                &empty_s,
                "--steady-states",
                &empty_s,
            ],
            "no diagrams to verify",
        ),
    ];
    for (args, named) in cases {
        let out = c4lab(args, "");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        // refused before any table header or result
        assert!(out.stdout.is_empty(), "{args:?}: {}", stdout(&out));
        assert!(
            err.contains(named) && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
    // a benchmark's data folder that is not there: the flag to pass is named, and no
    // table header is printed first
    let out = c4lab(
        &[
            "bench",
            "solver",
            "--sets",
            "no-such-folder",
            "--only",
            "L3_R1",
        ],
        "",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("pass --sets FOLDER"), "{err}");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // a set name that is not in the folder names the sets that are
    let sets = std::env::temp_dir().join(format!("c4lab-sets-{}", std::process::id()));
    std::fs::create_dir_all(sets.join("train")).unwrap();
    std::fs::write(sets.join("L9_R9.txt"), "").unwrap();
    let sets_s = sets.display().to_string();
    let out = c4lab(
        &["bench", "solver", "--sets", &sets_s, "--only", "L0_R0"],
        "",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("no set \"L0_R0\"") && err.contains("L9_R9"),
        "{err}"
    );
    // a corpus folder given where a corpus file goes: the files inside are named
    std::fs::write(sets.join("train/corpus_4.txt"), "").unwrap();
    let out = c4lab(&["corpus", "stats", &sets_s], "");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("is a folder") && err.contains("corpus_4.txt"),
        "{err}"
    );
    std::fs::remove_dir_all(&sets).ok();
    std::fs::remove_file(&empty).ok();
    std::fs::remove_file(&odd).ok();
    std::fs::remove_file(&comment).ok();
    assert!(!never.exists(), "a refused command created {never_s}");
}

#[test]
fn a_reader_that_goes_away_ends_the_command_quietly() {
    let grid = std::fs::read_to_string(repo().join("examples/win.txt")).unwrap();
    let upstream = repo().join("../shared/data/upstream");
    let [branches, states] =
        ["branches.txt", "steady_states.txt"].map(|n| upstream.join(n).display().to_string());
    let mut cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["verify", "examples/win.txt"], ""),
        (vec!["verify", "--json", "examples/loss.txt"], ""),
        (vec!["convert", "--to", "link"], &grid),
        (vec!["simplify", "--dry-run"], &grid),
        (vec!["analyze", "4444"], ""),
        (vec!["--help"], ""),
    ];
    if upstream.join("branches.txt").exists() {
        let args = [
            "check-solution",
            "--branches",
            &branches,
            "--steady-states",
            &states,
        ];
        cases.push((args.to_vec(), ""));
    }
    for (args, input) in &cases {
        let out = c4lab_into_closed_pipe(args, input);
        let err = String::from_utf8_lossy(&out.stderr);
        // no panic on the failed write (exit 101) and no error message: the reader left;
        // and no success, which would let a failed check pass (`verify` of a loss)
        assert_eq!(out.status.code(), Some(141), "{args:?}: {err}");
        assert!(
            err.trim().is_empty() || args[0] == "convert",
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // a full disk under `> file` is named as a failed write of the output (it read as a
    // bare "No space left on device"), exit 2
    // (also where a command writes line by line: play, solve; and help, which exited 0)
    let commands: [&[&str]; 5] = [
        &["--help"],
        &["verify", "--help"],
        &["verify", "--json", "examples/loss.txt"],
        &["play", "examples/win.txt", "--moves", "1", "--no-input"],
        &["solve", "-"],
    ];
    for args in commands {
        let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
            break;
        };
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_c4lab"))
            .args(args)
            .current_dir(repo())
            .stdin(std::process::Stdio::piped())
            .stdout(full)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write as _;
        // (a command that reads no input may have ended already)
        let _ = child.stdin.take().unwrap().write_all(b"444444\n");
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.starts_with("error: cannot write standard output: No space left on device"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn the_round_log_may_not_overwrite_the_diagram_it_solves() {
    let dir = std::env::temp_dir().join(format!("c4lab-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let grid = dir.join("root.txt");
    let text = std::fs::read_to_string(repo().join("examples/complete.txt")).unwrap();
    std::fs::write(&grid, &text).unwrap();
    let g = grid.display().to_string();
    let out = c4lab(&["dsat", "--log-rounds", &g, &g], "");
    assert_exit(&out, 2);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("is the diagram being solved"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&grid).unwrap(), text);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_round_log_may_not_go_where_the_result_goes() {
    // standard output as a pipe (the helper's): /dev/stdout is that pipe
    let out = c4lab(
        &[
            "dsat",
            "--log-rounds",
            "/dev/stdout",
            "examples/complete.txt",
        ],
        "",
    );
    assert_exit(&out, 2);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("standard output goes there"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout(&out), "");
    // standard output redirected to a file, and the log named as that file
    let dir = std::env::temp_dir().join(format!("c4lab-log-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let result = dir.join("result.txt");
    let run = |log: &Path, out: std::fs::File| {
        std::process::Command::new(env!("CARGO_BIN_EXE_c4lab"))
            .args(["dsat", "--local-work", "0", "--log-rounds"])
            .arg(log)
            .arg("examples/complete.txt")
            .current_dir(repo())
            .stdout(out)
            .stderr(std::process::Stdio::piped())
            .output()
            .unwrap()
    };
    let out = run(&result, std::fs::File::create(&result).unwrap());
    assert_exit(&out, 2);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("standard output goes there"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).ok();
    // both thrown away: nothing mixes, so it runs
    let null = Path::new("/dev/null");
    if null.exists() {
        let out = run(null, std::fs::File::create(null).unwrap());
        assert_exit(&out, 0);
    }
}

#[test]
fn a_round_log_that_cannot_be_written_costs_no_verdict() {
    // a device that refuses every write (Linux)
    if !Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full here");
        return;
    }
    let out = c4lab(
        &[
            "dsat",
            "--local-work",
            "0",
            "--log-rounds",
            "/dev/full",
            "examples/complete.txt",
        ],
        "",
    );
    assert_exit(&out, 0);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("warning: cannot write the round log /dev/full") && err.contains("found"),
        "{err}"
    );
    assert_eq!(
        stdout(&out).lines().count(),
        6,
        "the grid: {}",
        stdout(&out)
    );
}

#[test]
fn a_percent_encoded_link_reads_as_the_link() {
    let grid = std::fs::read_to_string(repo().join("examples/complete.txt")).unwrap();
    let link = stdout(&c4lab(&["convert", "--to", "link"], &grid));
    assert!(link.contains('?'), "{link}");
    // as an address bar may copy it: `?` as %3F, `*` as %2A
    let encoded = link.trim().replace('?', "%3F").replace('*', "%2A");
    let back = c4lab(&["convert", "--to", "grid"], &encoded);
    assert_exit(&back, 0);
    assert_eq!(
        stdout(&back),
        stdout(&c4lab(&["convert", "--to", "grid"], &grid))
    );
}

#[test]
fn a_byte_order_mark_before_a_grid_or_a_link_is_read_past() {
    let grid = std::fs::read_to_string(repo().join("examples/win.txt")).unwrap();
    let out = c4lab(&["verify", "-"], format!("\u{feff}{grid}"));
    assert_exit(&out, 0);
    let link = stdout(&c4lab(&["convert", "--to", "link", "-"], &grid));
    let out = c4lab(&["verify", "-"], format!("\u{feff}{link}"));
    assert_exit(&out, 0);
}

#[test]
fn odd_input_is_named_where_it_is_odd() {
    // a byte that is not UTF-8 is named with its line and column (it said only "stream
    // did not contain valid UTF-8")
    let grid = std::fs::read_to_string(repo().join("examples/win.txt")).unwrap();
    let mut bytes = grid.clone().into_bytes();
    let third = bytes
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .nth(1)
        .unwrap()
        .0;
    bytes[third + 2] = 0xFF;
    let o = c4lab(&["verify", "-"], &bytes);
    assert_exit(&o, 2);
    let said = String::from_utf8_lossy(&o.stderr);
    assert!(
        said.contains("standard input: line 3, byte 2 (0xFF) is not UTF-8 text"),
        "{said}"
    );
    // input far past any diagram's size is refused once it passes a megabyte (a stream
    // without end was read until memory ran out)
    let o = c4lab(&["verify", "-"], vec![b'9'; 3 << 20]);
    assert_exit(&o, 2);
    assert!(String::from_utf8_lossy(&o.stderr).contains("too much for a diagram"));
    // in play, a typed line that is not UTF-8 is answered as any bad line and the game
    // goes on (it ended the session); a long one is named cut short
    let mut typed = b"7\n\xff\n".to_vec();
    typed.extend(vec![b'7'; 100_000]);
    typed.extend(b"\n1\n");
    let o = c4lab(&["play", "examples/win.txt"], &typed);
    assert_exit(&o, 0);
    let text = stdout(&o);
    assert!(text.contains("\"\u{fffd}\": type a column 1-7"), "{text}");
    assert!(
        text.contains(&format!("\"{}…\": type a column", "7".repeat(40))),
        "{text}"
    );
    assert!(text.contains("Yellow plays 1"), "{text}");
    assert!(text.len() < 10_000, "the long line is not echoed whole");
    // a column typed once the game is over is answered with what can still be done (it
    // was "Yellow's move N ...: the game stops here" with the same N each time)
    let o = c4lab(&["play", "examples/win.txt"], b"1\n1\n5\nu\n");
    assert_exit(&o, 0);
    let text = stdout(&o);
    let over = "the game stops here (Red wins): u takes back Yellow's last move, q quits";
    assert_eq!(text.matches(over).count(), 2, "{text}");
    assert!(!text.contains("Yellow's move"), "{text}");
    assert!(text.contains("undone"), "{text}");
    // stopped at the root (Red's first move turns on a ? cell): nothing to take back
    let o = c4lab(&["play", "examples/incomplete.txt"], b"3\n");
    let text = stdout(&o);
    assert!(
        text.contains(
            "give it a level to play on): nothing to take back (it stopped at the root), q quits"
        ),
        "{text}"
    );
}
