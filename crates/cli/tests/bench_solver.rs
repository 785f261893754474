//! `c4lab bench solver` as a script would use it: the benchmark sets, repeated runs,
//! a baseline build side by side.

mod common;
use common::*;

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
        // a baseline script refused with exit 2: its output, and its stderr as text
        let refused = |name: &str, body: &str| {
            let out = run(&script(&dir.join(name), body));
            assert_exit(&out, 2);
            let err = String::from_utf8_lossy(&out.stderr).into_owned();
            (out, err)
        };
        let (_, err) = refused("reversed.sh", &format!("tac | '{bin}' solve --table-mb 4"));
        assert!(
            err.contains("the answers must come in the input's order"),
            "{err}"
        );
        // a time or node count that is no count is refused: NaN, infinite and negative
        // figures were summed into the table and its speed-up, exit 0
        for (n, figure) in ["NaN", "inf", "-1"].into_iter().enumerate() {
            let (out, err) = refused(
                &format!("figure{n}.sh"),
                &format!("'{bin}' solve --table-mb 4 | sed 's/ [0-9]*$/ {figure}/'"),
            );
            assert!(
                err.contains("--baseline: output line 1 is \"") && err.contains(figure),
                "{figure}: {err}"
            );
            assert!(!stdout(&out).contains("| L2_R1 |"), "{figure}: no row");
        }
        // one that answers and then neither exits nor closes its output (or closes it
        // and stays) is stopped with a word, not waited on without end as it was
        for (n, (tail, said)) in [
            (
                "exec sleep 600",
                "answered all 30 positions but had not ended its output 5 s later",
            ),
            (
                "exec >&-; exec sleep 600",
                "closed its output but had not exited 5 s later",
            ),
        ]
        .into_iter()
        .enumerate()
        {
            let (_, err) = refused(
                &format!("lingers{n}.sh"),
                &format!("'{bin}' solve --table-mb 4; {tail}"),
            );
            assert!(err.contains(said), "{tail}: {err}");
            assert!(
                err.contains("a baseline must exit once its input ends"),
                "{err}"
            );
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
