//! `c4lab solve`, `analyze` and `bench solver` as a script would use them (`book`:
//! book.rs).

mod common;
use common::*;

fn json(n: i64) -> serde_json::Value {
    serde_json::Value::from(n)
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
    // lines ended by a lone carriage return are lines too
    let cr = c4lab(&["solve", "--weak", "--table-mb", "16"], "4453\r12121\r");
    assert_exit(&cr, 0);
    let cr_text = stdout(&cr);
    assert_eq!(cr_text.lines().count(), 2, "{cr_text}");
    assert!(
        cr_text.starts_with("4453 ") && cr_text.contains("\n12121 "),
        "{cr_text}"
    );
    // also in a file that ends its last line with CRLF: no position is dropped
    let mixed = c4lab(
        &["solve", "--weak", "--table-mb", "16"],
        "445\r4455\r44556\r\n",
    );
    assert_exit(&mixed, 0);
    assert_eq!(stdout(&mixed).lines().count(), 3, "{}", stdout(&mixed));
    // a score given on the line is checked: one that differs is answered and named
    // (exit 1); it passed as exit 0 before
    let given = c4lab(
        &["solve", "--table-mb", "16", "--json"],
        "446364712637155336 -11\n446364712637155336 -10\n",
    );
    assert_exit(&given, 1);
    let said = String::from_utf8_lossy(&given.stderr);
    assert_eq!(
        said.trim(),
        "line 2: the solved score -11 differs from the expected score -10 given on the line"
    );
    let rows: Vec<serde_json::Value> = stdout(&given)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        (rows[0]["score"].clone(), rows[0]["expected"].clone()),
        (json(-11), json(-11))
    );
    assert_eq!(rows[1]["expected"], -10);
    // a line past 64 KiB is named cut short and skipped whole, kept out of memory (a
    // stream without line breaks grew until memory ran out); the next line is answered
    let mut long = vec![b'4'; 200_000];
    long.extend(b"\n4453\n");
    let o = c4lab(&["solve", "--weak", "--table-mb", "16"], &long);
    assert_exit(&o, 2);
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].ends_with("error: line 1: the line is longer than 65536 bytes, where a position takes at most 42 moves and a score"),
        "{text}"
    );
    assert!(lines[1].starts_with("4453 "), "{text}");
    // its moves are shown cut, marked so
    assert!(
        lines[0].starts_with(&format!("{}… error", "4".repeat(40))),
        "{text}"
    );
    // under --weak only the sign is checked, and the line's own score is quoted
    let weak = c4lab(
        &["solve", "--weak", "--table-mb", "16", "--json"],
        "446364712637155336 -10\n446364712637155336 5\n",
    );
    assert_exit(&weak, 1);
    let said = String::from_utf8_lossy(&weak.stderr);
    assert_eq!(
        said.trim(),
        "line 2: the solved sign -1 differs from the expected score 5 given on the line"
    );
    assert!(
        stdout(&weak).contains("\"expected\":5"),
        "{}",
        stdout(&weak)
    );
    // each line says it was solved weakly (a script compared score -1 to expected -10)
    for line in stdout(&weak).lines() {
        let j: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(j["weak"], true, "{line}");
        assert!(j["microseconds"].is_u64(), "{line}");
    }
    // a score out of range suggests joining only where the joined digits make a game
    let far = c4lab(&["solve", "--table-mb", "16"], "12 30\n");
    assert_eq!(far.status.code(), Some(2));
    // (a bad line's error stands in its row of the output)
    let far = stdout(&far);
    assert!(
        far.starts_with(
            "12 error: line 1: the score 30 after the moves is impossible after 2 moves"
        ) && !far.contains("without separators"),
        "{far}"
    );

    // scores agree with the independent solver's file, weakly and strongly
    let set = repo().join("../shared/data/bench/L3_R1.txt");
    let Ok(text) = std::fs::read_to_string(&set) else {
        eprintln!("skipped: {} is absent", set.display());
        return;
    };
    let sample: Vec<&str> = text.lines().step_by(50).collect();
    let input = sample.join("\n");
    let strong = c4lab(&["solve", "--table-mb", "16"], &input);
    let weak = c4lab(&["solve", "--weak", "--table-mb", "16"], &input);
    assert_exit(&strong, 0);
    assert_exit(&weak, 0);
    let (strong, weak) = (stdout(&strong), stdout(&weak));
    assert_eq!(strong.lines().count(), sample.len(), "{strong}");
    assert_eq!(weak.lines().count(), sample.len(), "{weak}");
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
        sample.join("\n"),
    ));
    assert_eq!(out.lines().count(), sample.len(), "{out}");
    for (want, got) in sample.iter().zip(out.lines()) {
        let want: Vec<&str> = want.split(' ').collect();
        let got: Vec<&str> = got.split(' ').collect();
        assert_eq!(got[..2], want[..2]);
    }
}

#[test]
fn solve_refuses_separated_moves_and_reads_each_line_as_it_comes() {
    // moves with separators were read as their first move, a wrong answer with exit 0;
    // a byte that is not UTF-8 cost the whole file; both are now one line's error
    // (and a long bad line is named by its start, not copied out whole)
    let long = "1".repeat(5000);
    let input = [
        &b"4 4 5 3\n4453 -2\n\xff44\n4453 -2 extra\n12121\n44 53\n"[..],
        long.as_bytes(),
        b"\n4453 99999999999999999999\n4453 12345671234567\n",
    ]
    .concat();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_c4lab"))
        .args(["solve", "--weak", "--table-mb", "16"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut feed = child.stdin.take().unwrap();
    std::io::Write::write_all(&mut feed, &input).unwrap();
    drop(feed);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 9, "{text}");
    // ... but a long run of columns is more moves
    assert!(
        lines[8].contains("follows the moves, where only a score may (`<moves> [score]`); write the moves without separators, as "),
        "{text}"
    );
    // a whole number too large for any score is out of range (it was told to give a
    // whole number)
    assert!(
        lines[7].starts_with("4453 error: line 8: the score 99999999999999999999 after the moves is impossible after 4 moves"),
        "{text}"
    );
    assert!(
        lines[6].starts_with(&format!("{}… error: line 7: ", &long[..40])),
        "{}",
        lines[6]
    );
    assert!(lines[6].len() < 200, "{}", lines[6]);
    // moves written with a space read as moves and a score: a score no game after
    // them can end with says so (it was solved as the first word, exit 0 for the line)
    assert!(
        lines[5].starts_with(
            "44 error: line 6: the score 53 after the moves is impossible after 2 moves"
        ),
        "{text}"
    );
    assert!(
        lines[0].starts_with("4 error: line 1: \"4 5 3\" follows the moves")
            && lines[0].ends_with("write the moves without separators, as 4453"),
        "{text}"
    );
    // words after the score are no moves to join (it said to write the moves without
    // separators, which they had none of)
    assert!(
        lines[3].ends_with("\"-2 extra\" follows the moves, where only a score may (`<moves> [score]`); leave out all but a score"),
        "{text}"
    );
    assert!(lines[1].starts_with("4453 -1 "), "{text}");
    assert!(
        lines[2].contains("line 3: the line is not UTF-8 text (byte 1, 0xFF)"),
        "{text}"
    );
    assert!(lines[3].contains("line 4: \"-2 extra\" follows"), "{text}");
    assert!(lines[4].starts_with("12121 "), "{text}");

    // a script may feed one position and wait for its score before the next
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_c4lab"))
        .args(["solve", "--table-mb", "16"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut feed = child.stdin.take().unwrap();
    let answers = std::io::BufReader::new(child.stdout.take().unwrap());
    let (send, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufRead::lines(answers) {
            let _ = send.send(line.unwrap());
        }
    });
    for moves in ["2252576253462244111563365343671351441", "12121"] {
        std::io::Write::write_all(&mut feed, format!("{moves}\n").as_bytes()).unwrap();
        // (an answer held back until the input ends would never come: fail, not hang)
        let line = lines.recv_timeout(std::time::Duration::from_secs(60));
        if line.is_err() {
            child.kill().unwrap();
        }
        let line = line.expect("the answer before the input ends");
        assert!(line.starts_with(&format!("{moves} ")), "{line}");
    }
    drop(feed);
    assert!(child.wait().unwrap().success());
}

#[test]
fn analyze_scores_every_column() {
    // Red to move with three in the bottom row: column 4 wins at once
    let out = c4lab(&["analyze", "--json", "--table-mb", "16", "112233"], "");
    let j: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(j["scores"][3], 18); // (43 - 6) / 2
    assert_eq!(j["best"], 18);
    assert_eq!(j["best_columns"], serde_json::json!([4]));
    let full = c4lab(&["analyze", "--table-mb", "16", "111111"], "");
    let text = stdout(&full);
    // each score sits under its column number
    let header = text.lines().find(|l| l.starts_with("column")).unwrap();
    let row = text.lines().find(|l| l.starts_with("score")).unwrap();
    assert_eq!(header.find('7').unwrap(), row.len() - 1, "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("score") && l.split_whitespace().nth(1) == Some("-")),
        "{text}"
    );
    let bad = c4lab(&["analyze", "9"], "");
    assert_eq!(bad.status.code(), Some(2));
    // a drawn, full board has no move to score: refused, as `hint` refuses it
    let draw = "257771314744647214154617633623313656555222";
    let over = c4lab(&["analyze", "--table-mb", "16", draw], "");
    assert_eq!(over.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&over.stderr).contains("the board is full, a draw"));
    // while `solve` scores it, as the benchmark convention does: 0
    let scored = c4lab(&["solve", "--table-mb", "16"], format!("{draw}\n"));
    assert_eq!(scored.status.code(), Some(0));
    assert!(
        stdout(&scored).starts_with(&format!("{draw} 0 ")),
        "{}",
        stdout(&scored)
    );
    // a table larger than the machine can give is refused with the flag to change,
    // not an abort when it is allocated
    // (only where the kernel refuses an allocation past memory and swap, and those are
    // well under the 64 GiB asked for)
    if table_refused_here() {
        let huge = c4lab(&["analyze", "--table-mb", "65536", "4"], "");
        assert_eq!(huge.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&huge.stderr).contains("pass a smaller --table-mb"));
    }
}

/// Whether this machine's kernel refuses a 64 GiB allocation outright: Linux with
/// heuristic or strict overcommit, and under 48 GiB of memory and swap together.
fn table_refused_here() -> bool {
    let refused = kernel_refuses_64_gib();
    if !refused {
        eprintln!("skipped: this kernel may grant a 64 GiB table, so its refusal is not tested");
    }
    refused
}

/// [`table_refused_here`]'s test of the kernel's settings.
fn kernel_refuses_64_gib() -> bool {
    let read = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
    if !matches!(read("/proc/sys/vm/overcommit_memory").trim(), "0" | "2") {
        return false;
    }
    let kib = |key: &str| -> Option<u64> {
        let info = read("/proc/meminfo");
        let line = info.lines().find(|l| l.starts_with(key))?;
        line.split_whitespace().nth(1)?.parse().ok()
    };
    match (kib("MemTotal:"), kib("SwapTotal:")) {
        (Some(m), Some(s)) => m + s < 48 << 20,
        _ => false,
    }
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
        stdout(&good).contains("| L3_R1 | 20 | 0 |")
            && stdout(&good).contains("| mean µs (1 thread, fastest of 3 runs) |"),
        "{}",
        stdout(&good)
    );
    // 20 of the published set's lines are not that set: no recorded classic figure
    // beside them (the published set's 7.3 µs was shown), and a note says why
    let row = stdout(&good)
        .lines()
        .find(|l| l.starts_with("| L3_R1 |"))
        .unwrap()
        .to_string();
    assert!(row.ends_with(" - |"), "{row}");
    assert!(
        stdout(&good).contains("L3_R1: not the published file of that name"),
        "{}",
        stdout(&good)
    );
    // the published file itself keeps its recorded figure
    let published = c4lab(
        &["bench", "solver", "--only", "L3_R1", "--table-mb", "4"],
        "",
    );
    assert_eq!(published.status.code(), Some(0));
    assert!(
        stdout(&published).contains(" | 7.3 |") && !stdout(&published).contains("not the"),
        "{}",
        stdout(&published)
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
    // (under the table, naming the set: between its rows it broke the table apart)
    let text = stdout(&failed);
    let note = text.find(&format!("L3_R1: first mismatch: {moves}"));
    assert!(
        note.is_some_and(|at| at > text.find("| L3_R1 |").unwrap()),
        "{text}"
    );
    // under two thread counts the one wrong line is still one mismatch (it was two)
    let both = c4lab(
        &[
            "bench",
            "solver",
            "--only",
            "L3_R1",
            "--table-mb",
            "4",
            "--sets",
            &sets,
            "--threads",
            "1,2",
        ],
        "",
    );
    assert_eq!(both.status.code(), Some(1));
    assert!(
        stdout(&both).contains("| L3_R1 | 20 | 1 |"),
        "{}",
        stdout(&both)
    );
    // a book is read before any set is solved, and only goes with the empty board
    let book = dir.join("missing-book.bin").display().to_string();
    for (extra, said) in [
        (&["--empty", "--book", &book][..], "cannot read the book"),
        (&["--book", &book][..], "add --empty, or leave out --book"),
    ] {
        let base = ["bench", "solver", "--only", "L3_R1", "--sets", &sets];
        let out = c4lab(&[&base[..], extra].concat(), "");
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(stdout(&out), "", "nothing solved before the error");
        assert!(String::from_utf8_lossy(&out.stderr).contains(said));
    }
    // a table the machine cannot give is refused before the table's header
    if table_refused_here() {
        let base = ["bench", "solver", "--only", "L3_R1", "--sets", &sets];
        let out = c4lab(&[&base[..], &["--table-mb", "65536"]].concat(), "");
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(stdout(&out), "", "no header before the error");
    }
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
    // (and fails the bench, exit 1: the speed-up compares nothing; it exited 0)
    let weak = run(&format!("{bin} solve --weak --table-mb 4"));
    assert_exit(&weak, 1);
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
    assert!(
        stdout(&weak).contains("the baseline's first mismatch: "),
        "{}",
        stdout(&weak)
    );
    // answers in another order than the positions were sent are refused, not matched
    // line by line to the wrong positions (`tac` is GNU's)
    #[cfg(target_os = "linux")]
    {
        let reversed = script(
            &dir.join("reversed.sh"),
            &format!("tac | '{bin}' solve --table-mb 4"),
        );
        let out = run(&reversed);
        assert_exit(&out, 2);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("the answers must come in the input's order"),
            "{err}"
        );
        // a time or node count that is no count is refused: NaN, infinite and negative
        // figures were summed into the table and its speed-up, exit 0
        for (n, figure) in ["NaN", "inf", "-1"].into_iter().enumerate() {
            let program = script(
                &dir.join(format!("figure{n}.sh")),
                &format!("'{bin}' solve --table-mb 4 | sed 's/ [0-9]*$/ {figure}/'"),
            );
            let out = run(&program);
            assert_exit(&out, 2);
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                err.contains("--baseline: output line 1 is \"") && err.contains(figure),
                "{figure}: {err}"
            );
            assert!(!stdout(&out).contains("| L2_R1 |"), "{figure}: no row");
        }
    }
    // a program that is not there is a clear error before the table (it came after the
    // header and the first set's run)
    for name in ["/nonexistent/solver", "no-such-solver-on-path"] {
        let missing = run(name);
        assert_exit(&missing, 2);
        let err = String::from_utf8_lossy(&missing.stderr);
        assert!(
            err.contains(&format!("--baseline: no program {name}")),
            "{err}"
        );
        assert_eq!(String::from_utf8_lossy(&missing.stdout), "", "no table");
    }
    // one that fails without reading its input, or answers nothing, is no baseline run
    // (its broken pipe once ended the bench with exit 0 and no row)
    // (`true` may exit before or after its input is written: either error will do)
    for (program, said) in [
        ("false", "false exited with"),
        ("true", "--baseline: true "),
        // one that writes without end is cut off (it filled the memory)
        ("yes 1 2 3", "--baseline: yes wrote more than"),
    ] {
        let out = run(program);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_exit(&out, 2);
        assert!(err.contains(said), "{program}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[cfg(target_os = "linux")]
#[test]
fn on_a_terminal_bench_solver_names_the_set_it_solves() {
    // a deep set or the empty board ran minutes without a word, even on a terminal;
    // thirty of L1_R3's positions take a few seconds, past the line's one-second delay
    let Some((dir, _)) = small_set("L1_R3", 30, "sets-tty") else {
        return;
    };
    let command = format!(
        "{} bench solver --only L1_R3 --sets {}",
        env!("CARGO_BIN_EXE_c4lab"),
        dir.display()
    );
    let shown = on_a_terminal(&command);
    std::fs::remove_dir_all(&dir).ok();
    let Some(shown) = shown else {
        return;
    };
    let line = shown
        .find("bench solver: solving L1_R3 (1 thread): ")
        .unwrap_or_else(|| panic!("{shown:?}"));
    // erased before the set's row is written
    let row = shown.find("| L1_R3 | 30 | 0 |").expect(&shown);
    assert!(line < row, "{shown:?}");
    assert!(shown[line..row].contains("\u{1b}[2K"), "{shown:?}");
    assert!(shown.contains("ended=0"), "{shown:?}");
}
