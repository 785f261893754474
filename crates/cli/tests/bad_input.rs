//! Bad input named by its first fault, with what to do about it.

mod common;
use common::*;

#[test]
fn solve_names_a_bad_lines_moves_before_what_follows_them() {
    let out = c4lab(
        &["solve", "--table-mb", "16"],
        "# a comment\n44a3 x\n4444 1 2\n",
    );
    assert_exit(&out, 2);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    // it blamed "a comment" following the moves, and then "x"
    assert!(lines[0].contains("no comment is read here"), "{text}");
    assert!(lines[1].contains("'a' is not a column"), "{text}");
    assert!(lines[2].contains("\"1 2\" follows the moves"), "{text}");
    let over = c4lab(&["solve", "--table-mb", "16"], "4455667\n");
    assert!(
        stdout(&over).contains("made four in a row at move 7; give a position where play goes on"),
        "{}",
        stdout(&over)
    );
}

#[test]
fn solve_json_gives_a_bad_lines_moves_as_typed() {
    // a byte-order mark inside the first word came out as the text `\u{feff}`
    let out = c4lab(&["solve", "--json", "--table-mb", "16"], "44\u{feff}53\n");
    assert_exit(&out, 2);
    let row: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(row["moves"], "44\u{feff}53");
    // a line past 64 KiB is named by its first word
    let long_line = format!("4453 {}\n", "x".repeat(70_000));
    let out = c4lab(&["solve", "--table-mb", "16"], long_line);
    assert!(
        stdout(&out).starts_with("4453 error: line 1: the line is longer than"),
        "{}",
        stdout(&out)
    );
    // analyze cuts a long argument in its error, as solve does
    let long = "4".repeat(5000);
    let out = c4lab(&["analyze", "--table-mb", "16", &long], "");
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).len() < 400);
}

#[test]
fn check_solution_says_first_that_a_file_holds_none_of_what_it_should() {
    let Some(states) = upstream_states() else {
        return;
    };
    let branches = states.with_file_name("branches.txt");
    let (states_s, branches_s) = (states.to_str().unwrap(), branches.to_str().unwrap());
    // `check-solution` on two files, `-` reading `input`
    let check = |b: &str, s: &str, input: &str| {
        c4lab(
            &["check-solution", "--branches", b, "--steady-states", s],
            input,
        )
    };
    // swapped: bad input, named (exit 1, a failed solution, with thousands of line
    // errors under a hint)
    let out = check(states_s, branches_s, "");
    assert_exit(&out, 2);
    assert_eq!(stdout(&out), "");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("look swapped"), "{said}");
    assert!(said.len() < 500, "{said}");
    // an empty file is no solution: bad input, named
    let out = check(branches_s, "-", "");
    assert_exit(&out, 2);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("--steady-states - holds no diagram (six rows each, blank lines between) (nothing in it but blank or comment lines): give upstream's steady_states.txt"),
        "{said}"
    );
    // diagrams with no blank line between them: said so (it said "give one diagram at
    // a time", as for a file of one diagram)
    let whole = std::fs::read_to_string(&states).unwrap();
    let packed: String = whole
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    let out = check(branches_s, "-", &packed);
    assert_exit(&out, 2);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("rows with no blank line between them: in this file each diagram is six rows, then a blank line"), "{said}");
    // a separator of seven spaces is named as what it is (a row of old-language cells),
    // not as diagrams run together
    let mut lines: Vec<&str> = whole.lines().collect();
    let gap = lines.iter().position(|l| l.trim().is_empty()).unwrap();
    lines[gap] = "       ";
    let out = check(branches_s, "-", &(lines.join("\n") + "\n"));
    assert_exit(&out, 1);
    let text = stdout(&out);
    assert!(
        text.contains("is seven spaces or tabs") && !text.contains("no blank line between"),
        "{text}"
    );
    // the same file given to both is named so (it was called swapped)
    let out = check(states_s, states_s, "");
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("hold the same text"));
    // cut short: said to end inside a diagram (it said an editor stripped a row)
    let out = check(branches_s, "-", &whole[..30_000]);
    assert_exit(&out, 1);
    assert!(
        stdout(&out).contains("the file ends inside this diagram: is it cut short?"),
        "{}",
        stdout(&out)
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
        assert!(err.starts_with("error: "), "{err}");
        assert_eq!(err.matches(args[args.len() - 1]).count(), 1, "{err}");
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
    // (each message names its file: any `.txt` passed "`.txt`: cannot solve")
    let odd_said = format!("{odd_s}: cannot solve this root");
    let comment_said = format!(
        "{comment_s}: not a diagram: a diagram is six rows of seven cells, top row first: found 0 rows\n"
    );
    let cases: [(&[&str], &str); 89] = [
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
        // (a position has at most 42 stones: 43 sampled nothing, as `corpus label` refuses)
        (
            &[
                "eval",
                "--model",
                "m.c4m",
                "--holdout-corpus",
                "h.txt",
                "--min-stones",
                "43",
            ],
            "--min-stones",
        ),
        (
            &["train", "--load-corpus", "c.txt", "--out", "m", "--steps", "0"],
            "--steps",
        ),
        (&["play", "examples/win.txt", "--you", "red"], "--you"),
        (&["play", "-", "--moves", "4"], "--no-input"),
        (&["dsat", odd_s.as_str()], odd_said.as_str()),
        (&["dsat", comment_s.as_str()], comment_said.as_str()),
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
        // benchmark settings that would run a row twice, count nothing, or be ignored
        (&["bench", "complete", "--k", "0"], "'--k <K>': expected a whole number of at least 1"),
        (&["bench", "complete", "--k", "4,4"], "--k names 4 twice: give each value once"),
        // a count of none would relabel nothing (it wrote "0 rows, 0 labels", exit 0)
        (
            &["corpus", "label", "corpus.txt", "--rows", "0"],
            "'--rows <ROWS>': expected a whole number of at least 1",
        ),
        (&["bench", "complete", "--seeds", "1,1"], "--seeds names 1 twice"),
        (
            &["bench", "complete", "--seeds", "1,2", "--seed", "7"],
            "'--seeds <SEEDS>' cannot be used with '--seed <SEED>'",
        ),
        (
            &["bench", "dsat", "--grids", "examples/complete.txt", "--roots", "1"],
            "'--grids <FILE>...' cannot be used with '--roots <ROOTS>'",
        ),
        // a value that is no number in range says the range (Rust's "invalid digit found
        // in string" named neither it nor the fix; --index-bits said 0..=4294967295)
        (
            &["complete", "--tree-cap", "-1", "examples/complete.txt"],
            "'--tree-cap <TREE_CAP>': expected a whole number from 0 to 18446744073709551615",
        ),
        (
            &["train", "--load-corpus", "c.txt", "--index-bits", "-1"],
            "'--index-bits <INDEX_BITS>': expected a whole number from 16 to 20",
        ),
        (
            &["corpus", "generate", "--out", "x", "--opening-max", "-1"],
            "'--opening-max <OPENING_MAX>': expected a ply from 0 to 41 (a game has at most 42 plies)",
        ),
        (&["pick", "2x"], "'[NUMBER]': expected a whole number from 0 to"),
        // a folder that is not there is named, with the fix
        (
            &["book", "--depth", "0", "--out", "no-such-folder/book.bin"],
            "cannot write no-such-folder/book.bin: its folder no-such-folder does not exist; create it first",
        ),
        (&["bench", "dsat", "--max-ply", "50"], "'--max-ply <MAX_PLY>': expected a whole number from 0 to 42"),
        (
            &["bench", "solver", "--only", "L3_R1,L3_R1"],
            "--only names L3_R1 twice: give each set once",
        ),
        (
            &["bench", "solver", "--threads", "1,1"],
            "--threads names 1 twice: give each count once",
        ),
        // a strong-solver budget where no position is mapped, a core budget (even 0)
        // where no core is learnt, a tree cap where no tree is (they passed, unused)
        (
            &["complete", "--learn", "blocking", "--oracle-nodes", "0", "examples/complete.txt"],
            "--oracle-nodes has no effect with --learn blocking",
        ),
        (
            &["complete", "--learn", "blocking", "--lost-budget", "0", "examples/complete.txt"],
            "--lost-budget has no effect with --learn blocking",
        ),
        (
            &["complete", "--learn", "tree", "--lost-budget", "0", "examples/complete.txt"],
            "--lost-budget learns losing cores with --learn positions only",
        ),
        (
            &["complete", "--tree-after", "0", "--tree-cap", "100", "examples/complete.txt"],
            "--tree-cap caps the trees --learn positions learns from --tree-after on, and --tree-after 0 learns none",
        ),
        (
            &["convert", "--to", "old", "examples/win.txt"],
            "examples/win.txt: cannot write the old language: row 4",
        ),
        (
            &["dsat", "--max-seconds", "-1", "examples/complete.txt"],
            "'--max-seconds <MAX_SECONDS>': expected a positive number of seconds",
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
        // (it said "positive" of a value too large)
        (
            &["bench", "complete", "--cap", "1e20"],
            "'--cap <CAP>': expected a number of seconds no larger than about 1.8e19",
        ),
        // (a minus sign before a word was taken for a flag: "unexpected argument '-i'")
        (
            &["dsat", "--max-seconds", "-inf", "examples/complete.txt"],
            "'--max-seconds <MAX_SECONDS>': expected a positive number of seconds",
        ),
        (
            &["bench", "dsat", "--cap", "-inf"],
            "expected a positive number of seconds",
        ),
        (&slots, "--slots"),
        (&opening, "--opening-min"),
        (&epsilon, "--epsilon"),
        (&shard, "--shard 1/2/3"),
        (&book, "'--depth <DEPTH>': expected a whole number from 0 to 10"),
        (
            &[
                "eval",
                "--model",
                "m.c4m",
                "--games",
                "18446744073709551615",
            ],
            "'--games <GAMES>': expected a whole number from 0 to 1000000",
        ),
        (&["verify", "--budget", "0", "examples/win.txt"], "--budget"),
        (&holdout, "at most 1000000000 games"),
        (&unread_book, "--book speeds up the exact teacher only"),
        (&all_slots, "no holdout game can be board-disjoint"),
        (&["bench", "verify", "--runs", "1001"], "--runs"),
        // every teacher has its row: the self-play flag that picks one is refused (and
        // no longer offered in its help)
        (
            &["bench", "corpus", "--teacher", "exact"],
            "bench corpus times every teacher itself (a row each); leave out --teacher",
        ),
        (
            // (the default, typed: refused too; a few games, should it run)
            &["bench", "corpus", "--teacher", "alphabeta", "--games", "1", "--exact-games", "0", "--late-games", "0"],
            "bench corpus times every teacher itself (a row each); leave out --teacher",
        ),
        // a rate over no position is none (the rows were left out without a word)
        (
            &["bench", "model", "--corpus", "examples", "--positions", "0"],
            "--positions",
        ),
        // a wrong file is bad input, as check-solution says (it was timed and reported
        // as a solution that fails its checks, exit 1)
        (
            &["bench", "verify", "--runs", "1", "--branches", &empty_s, "--steady-states", "examples/win.txt"],
            "holds no branch line (`<moves>-><column>`, the root's `-><column>`) (nothing in it but blank or comment lines): give upstream's branches.txt",
        ),
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
        // pick with nothing to pick names its three ways (it named <NUMBER> alone)
        (&["pick"], "not provided:\n  <NUMBER|--root <ROOT>|--list>"),
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
            "invalid value '1e20' for '--max-seconds <MAX_SECONDS>': expected a number of seconds no larger than about 1.8e19",
        ),
        // (a unit after the number said "invalid float literal")
        (
            &["dsat", "--max-seconds", "10s", "examples/complete.txt"],
            "'--max-seconds <MAX_SECONDS>': expected a positive number of seconds",
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
            "are both empty (nothing but blank or comment lines): give upstream's branches.txt",
        ),
        (
            &["check-solution", "--branches", &empty_s, "--steady-states", &empty_s],
            "are both empty (nothing but blank or comment lines): give upstream's branches.txt",
        ),
        // (said to have no root of 16-42 stones, as if it held other diagrams)
        (
            &["bench", "dsat", "--steady-states", &empty_s],
            "holds no diagram (six rows each, blank lines between): give upstream's",
        ),
        (
            &["bench", "complete", "--steady-states", &empty_s],
            "holds no diagram (six rows each, blank lines between): give upstream's",
        ),
        // a task is a winning diagram with k cells undecided: one with `?` cells ran
        // more than its row's k, and a losing one was counted as a failed task
        (
            &["bench", "complete", "--steady-states", "examples/complete.txt", "--k", "4"],
            "the diagram of root 655433534337221121 holds 8 ? cells already",
        ),
        (
            &["bench", "complete", "--steady-states", "examples/loss.txt", "--k", "4", "--min-ply", "0"],
            "the diagram of root 655433534337221121 does not win",
        ),
        // the grids alone are written: a run's settings beside them were ignored
        (
            &["bench", "dsat", "--write-grids", &empty_s, "--baseline", "c4lab"],
            "'--write-grids <DIR>' cannot be used with '--baseline <EXE>'",
        ),
        (
            &["bench", "complete", "--write-grids", &empty_s, "--tasks-detail"],
            "cannot be used with '--tasks-detail'",
        ),
        (
            &["bench", "dsat", "--write-grids", &empty_s, "--first-cut", "12"],
            "--first-cut is a search setting, and --write-grids only writes the tasks' grids: leave it out",
        ),
        // (--seed chooses complete's tasks, so it passes; the others are named, before
        // a check of how they go together, which would have named --tree-after alone)
        (
            &["bench", "complete", "--write-grids", &empty_s, "--seed", "3", "--learn", "tree", "--backend", "batsat", "--tree-after", "5"],
            "--learn, --backend and --tree-after are search settings, and --write-grids only writes",
        ),
        // settings no search of the run reads (each was accepted and ignored)
        (
            &["dsat", "--local-work", "1000,2000", "--first-levels", "10", "examples/win.txt"],
            "the first search runs alone: give --local-work one value",
        ),
        (
            &["dsat", "--widen-after", "0", "--widening-first-cut", "3", "examples/win.txt"],
            "--widening-first-cut sets the first cut of a search whose level budget widens unproved",
        ),
        (
            &["dsat", "--oracle-nodes", "0", "--local-work", "0", "--unasked-plies", "2", "examples/win.txt"],
            "--oracle-nodes 0 asks none: leave one of them out",
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
    std::fs::remove_file(&empty).ok();
    std::fs::remove_file(&odd).ok();
    std::fs::remove_file(&comment).ok();
    assert!(!never.exists(), "a refused command created {never_s}");
}
