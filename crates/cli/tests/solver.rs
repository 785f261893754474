//! `c4lab solve` and `analyze` as a script would use them (`bench solver`:
//! bench_solver.rs; `book`: book.rs).

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
    // a bad line's moves come back whole up to a full board's 42, so a script can
    // match them (40 were shown, then "…")
    let full = "467542311242375735765675733135661624214421";
    let o = c4lab(
        &["solve", "--json", "--table-mb", "16"],
        format!("{full} x\n"),
    );
    assert_exit(&o, 2);
    let row: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(row["moves"], full, "{row}");
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
        lines[0].starts_with(&format!("{}… error", "4".repeat(64))),
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
        lines[6].starts_with(&format!("{}… error: line 7: ", &long[..64])),
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
