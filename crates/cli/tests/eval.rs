//! `c4lab eval` and `bench model` as a script would use them, each test on a corpus
//! generated for it (training: model.rs).

mod common;
use common::*;

#[test]
fn eval_is_reproducible_and_bench_model_agrees_with_it() {
    let g = Generated::new("eval");
    let d = g.d.as_str();
    let (_, _, hold, hold_t) = g.paths();
    let model = g.model();
    let hold_dir = format!("{d}/holdout");
    let eval_of = |model: &str, extra: &[&str]| g.eval_of(model, extra);
    // the evaluation table, reproducible from its seed
    let eval = || {
        stdout(&eval_of(
            &model,
            &["--positions", "20", "--games", "2", "--seed", "5"],
        ))
    };
    let table = eval();
    assert!(
        table.contains("| holdout agreement |") && table.contains("optimal-move rate"),
        "{table}"
    );
    // the first row says what it counts (it read "holdout positions", and counted a
    // board reached in two games twice)
    assert!(
        table.contains("| holdout positions (labelled plies; a board met twice counts twice) | "),
        "{table}"
    );
    assert_eq!(eval(), table);
    let out = c4lab(
        &[
            "eval",
            "--model",
            &model,
            "--holdout-corpus",
            &hold_dir,
            "--holdout-targets",
            &hold_t,
        ],
        "",
    );
    assert_exit(&out, 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "{hold_dir} is a folder; give a corpus file (it holds {hold})"
        )),
        "{err}"
    );
    // bench model times the exported model itself when given one: no training row, and
    // the same holdout agreement as eval
    let bench_once = || {
        stdout(&c4lab(
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
        ))
    };
    let bench = bench_once();
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
    // the inference row's checksum is of the model's moves, the same on every run (it
    // was summed over however many passes a timed second made)
    let checksum = |t: &str| {
        let at = t.find("checksum ").expect(t) + "checksum ".len();
        t[at..].split(')').next().unwrap().to_string()
    };
    assert_eq!(checksum(&bench), checksum(&bench_once()), "{bench}");
}

#[test]
fn eval_judges_the_network_alone_on_the_same_solved_positions() {
    let g = Generated::new("same-positions");
    let model = g.model();
    // a budget some positions run past: the network alone was judged on a second solve,
    // whose table, warm from the first, settled a position the first had skipped
    // (`38 of 59` beside `52 of 58`)
    let flags = ["--positions", "60", "--min-stones", "10", "--games", "0"];
    let table = stdout(&g.eval_of(&model, &[&flags[..], &["--solver-nodes", "3000"]].concat()));
    let counts = |row: &str| -> (u64, u64) {
        let line = table.lines().find(|l| l.starts_with(row)).expect(&table);
        let inside = line.rsplit('(').next().unwrap();
        let mut words = inside.split([' ', ';', ')']).filter(|w| !w.is_empty());
        let optimal = words.next().unwrap().parse().expect(line);
        assert_eq!(words.next(), Some("of"), "{line}");
        (optimal, words.next().unwrap().parse().expect(line))
    };
    let over = table
        .lines()
        .find(|l| l.starts_with("| optimal-move rate"))
        .and_then(|l| l.split("; ").nth(1))
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse::<u64>().ok())
        .expect(&table);
    assert!(over > 0, "no position ran past the budget: {table}");
    let (_, solved) = counts("| optimal-move rate");
    let (raw_optimal, raw_solved) = counts("| the network alone");
    assert_eq!(raw_solved, solved, "{table}");
    assert!(raw_optimal <= raw_solved, "{table}");
}

#[test]
fn eval_says_when_no_holdout_position_fills_the_sample() {
    let g = Generated::new("sample");
    let model = g.model();
    // a sample no holdout position can fill is said, not a row left out
    let none = g.eval_of(&model, &["--games", "0", "--min-stones", "42"]);
    assert_exit(&none, 0);
    assert!(
        stdout(&none).contains("no holdout position has 42 stones or more"),
        "{}",
        stdout(&none)
    );
    // a sample the pool cannot fill is measured on the whole pool, and said so
    let all = g.eval_of(
        &model,
        &[
            "--games",
            "0",
            "--min-stones",
            "30",
            "--positions",
            "100000",
        ],
    );
    assert_exit(&all, 0);
    let table = stdout(&all);
    let row = table
        .lines()
        .find(|l| l.starts_with("| optimal-move rate"))
        .expect(&table);
    let pool: usize = row
        .split(" of ")
        .nth(1)
        .and_then(|t| t.split(';').next())
        .and_then(|n| n.parse().ok())
        .expect(row);
    assert!(pool > 0 && pool < 100000, "{row}");
    let notes = String::from_utf8_lossy(&all.stderr);
    assert!(
        notes.contains(&format!(
            "--positions 100000 asks for more than the holdout's {pool} distinct positions of 30+ stones"
        )),
        "{notes}"
    );
}

#[test]
fn bench_model_says_when_no_holdout_position_has_fourteen_stones() {
    // random play (seed 159) ends the one holdout game after seven plies: the rate's
    // sample is empty, and the table read "- of 0" as a rate over nothing
    let dir = std::env::temp_dir().join(format!("c4lab-short-holdout-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let args = ["corpus", "generate", "--games", "2", "--holdout", "1"];
    let random = [
        "--epsilon",
        "1",
        "--depth",
        "1",
        "--seed",
        "159",
        "--out",
        d,
    ];
    assert_exit(&c4lab(&[&args[..], &random[..]].concat(), ""), 0);
    let bench = [
        "bench",
        "model",
        "--corpus",
        d,
        "--steps",
        "1",
        "--positions",
        "5",
    ];
    let out = c4lab(&bench, "");
    let _ = std::fs::remove_dir_all(&dir);
    assert_exit(&out, 0);
    let table = stdout(&out);
    assert!(
        table.contains(
            "| optimal-move rate (14+ stones) | - (no holdout position has 14 stones or more) |"
        ),
        "{table}"
    );
    assert!(!table.contains("of 0"), "{table}");
    // the time per 1,000 steps in milliseconds (in seconds it read 0.01 for 0.007)
    let line = table
        .lines()
        .find(|l| l.contains("per 1,000 steps"))
        .unwrap();
    assert!(line.ends_with(" ms |"), "{line}");
}

#[test]
fn eval_names_its_long_work_every_ten_seconds_where_standard_error_is_no_terminal() {
    // a game from the empty board asks the solver questions of minutes each, and eval
    // said nothing between its table's rows
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let g = Generated::new("progress");
    let (_, _, hold, hold_t) = g.paths();
    let model = g.model();
    let mut child = Command::new(env!("CARGO_BIN_EXE_c4lab"))
        .args(["eval", "--model", &model, "--holdout-corpus", &hold])
        .args([
            "--holdout-targets",
            &hold_t,
            "--positions",
            "0",
            "--games",
            "0",
        ])
        .args(["--empty-games", "1", "--table-mb", "16"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let err = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(err).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let until = Instant::now() + Duration::from_secs(40);
    let mut seen = Vec::new();
    while let Ok(line) = rx.recv_timeout(until.saturating_duration_since(Instant::now())) {
        let done = line.starts_with("eval, ");
        seen.push(line);
        if done {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    let line = seen.last().map_or("", String::as_str);
    assert!(
        line.starts_with("eval, 1")
            && line.ends_with(" s: empty-board game 1 of 1, move 1: the solver scores the columns"),
        "{seen:?}"
    );
}
