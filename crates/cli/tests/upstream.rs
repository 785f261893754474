//! `check-solution`, `bench verify` and `pick` on upstream's solution files (skipped, with a
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

/// Upstream's diagram `n` (from 1) cut out of the file here, as its six rows.
fn block(text: &str, n: usize) -> String {
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let blocks: Vec<String> = rows
        .split(|l| l.trim().is_empty())
        .filter(|b| !b.is_empty())
        .map(|b| b.join("\n") + "\n")
        .collect();
    blocks[n - 1].clone()
}

#[test]
fn pick_takes_one_diagram_out_of_upstreams_file_by_number_or_root() {
    let Some(dir) = upstream_solution() else {
        return;
    };
    let states = dir.join("steady_states.txt");
    let text = std::fs::read_to_string(&states).unwrap();
    let file = states.to_str().unwrap();
    // the list: a header, then a line per diagram with its root's moves
    let list = c4lab(&["pick", "--list", "--steady-states", file], "");
    assert_exit(&list, 0);
    let list = stdout(&list);
    let lines: Vec<&str> = list.lines().collect();
    assert_eq!(lines[0], "number\tline\tstones\troot");
    assert_eq!(lines.len(), 1 + 1295, "{}", lines[1]);
    for n in [1, 2, 700, 1295] {
        let fields: Vec<&str> = lines[n].split('\t').collect();
        assert_eq!(fields[0], n.to_string());
        // by number: the file's own block, in the level language, and it wins
        let by_number = c4lab(&["pick", &n.to_string(), "--steady-states", file], "");
        assert_exit(&by_number, 0);
        let grid = stdout(&by_number);
        let converted = stdout(&c4lab(&["convert"], block(&text, n)));
        assert_eq!(grid, converted, "diagram {n}");
        assert_exit(&c4lab(&["verify"], &grid), 0);
        // by its root: the same diagram
        let by_root = c4lab(&["pick", "--root", fields[3], "--steady-states", file], "");
        assert_eq!(stdout(&by_root), grid, "diagram {n}'s root {}", fields[3]);
    }
    // the file on standard input (`-`) reads alike
    let piped = c4lab(&["pick", "700", "--steady-states", "-"], &text);
    assert_exit(&piped, 0);
    assert_eq!(
        stdout(&piped),
        stdout(&c4lab(&["pick", "700", "--steady-states", file], ""))
    );
    // a root is a position: another order of the same moves finds it
    assert_eq!(lines[1].split('\t').nth(3), Some("5141"));
    let moved = c4lab(&["pick", "--root", "4151", "--steady-states", file], "");
    assert_eq!(
        stdout(&moved),
        stdout(&c4lab(&["pick", "1", "--steady-states", file], ""))
    );
    // a root with no diagram names the one of its mirror image where there is one
    let mirrored = c4lab(&["pick", "--root", "3747", "--steady-states", file], "");
    assert_exit(&mirrored, 2);
    let said = String::from_utf8_lossy(&mirrored.stderr);
    assert!(
        said.contains("has the root 3747; diagram 1 has its mirror image, 5141, and `c4lab pick 1 --steady-states "),
        "{said}"
    );
    // and the command it names prints a diagram that wins from that root
    let picked = c4lab(&["pick", "1", "--steady-states", file], "");
    let mirror = c4lab(&["convert", "--mirror", "-"], stdout(&picked));
    let verified = stdout(&c4lab(&["verify", "-"], stdout(&mirror)));
    assert!(
        said.contains(" | c4lab convert --mirror` prints its mirror, a diagram for 3747"),
        "{said}"
    );
    assert!(verified.contains("root: 4737\nwin:"), "{verified}");
    // from the default file, the command needs no --steady-states
    let said = String::from_utf8_lossy(&c4lab(&["pick", "--root", "3747"], "").stderr).into_owned();
    assert!(
        said.contains("`c4lab pick 1 | c4lab convert --mirror`"),
        "{said}"
    );
    // with Yellow to move no diagram can have the root, and that is the reason said
    let odd = c4lab(&["pick", "--root", "514", "--steady-states", file], "");
    assert_exit(&odd, 2);
    let said = String::from_utf8_lossy(&odd.stderr);
    assert!(
        said.contains("after 3 moves Yellow is to move, and a diagram's root has Red to move"),
        "{said}"
    );
    for (args, words) in [
        (
            vec!["pick", "1296"],
            "holds 1295 diagrams: pick one of 1-1295",
        ),
        (vec!["pick", "0"], "holds 1295 diagrams: pick one of 1-1295"),
        (vec!["pick", "--root", "48"], "'8' is not a column"),
        (
            vec!["pick", "--root", " 1212121"],
            "--root 1212121: the game is already over",
        ),
    ] {
        let out = c4lab(&[&args[..], &["--steady-states", file]].concat(), "");
        assert_exit(&out, 2);
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.contains(words), "{args:?}: {said}");
    }
    // the diagram commands, given the whole file, say how to take one out of it (on
    // standard input too)
    let piped = c4lab(&["verify"], &text);
    assert_exit(&piped, 2);
    let said = String::from_utf8_lossy(&piped.stderr);
    assert!(
        said.contains("`c4lab pick --steady-states - N` prints its diagram N of 1295"),
        "{said}"
    );
    let whole = c4lab(&["verify", file], "");
    assert_exit(&whole, 2);
    let said = String::from_utf8_lossy(&whole.stderr);
    assert!(
        said.contains("give one diagram at a time); `c4lab pick --steady-states")
            && said.contains(" N` prints its diagram N of 1295"),
        "{said}"
    );
}

#[test]
fn pick_refuses_a_file_where_no_diagram_reads_and_names_the_unread_ones() {
    let Some(dir) = upstream_solution() else {
        return;
    };
    let branches = dir.join("branches.txt");
    let branches = branches.to_str().unwrap();
    // a file where nothing reads is refused whole, the list too (it printed a header
    // and ended 0), and branches.txt is named as the wrong file, not as one to mend
    for args in [vec!["--list"], vec!["1"], vec!["--root", "5141"]] {
        let out = c4lab(
            &[&["pick"][..], &args, &["--steady-states", branches]].concat(),
            "",
        );
        assert_exit(&out, 2);
        assert!(out.stdout.is_empty(), "{args:?}");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains("holds no diagram that reads")
                && said.contains("as upstream's branches.txt: give steady_states.txt"),
            "{args:?}: {said}"
        );
    }
    let lines = c4lab(
        &["pick", "--list", "--steady-states", "-"],
        "4455 -2\n3 1\n",
    );
    assert_exit(&lines, 2);
    let said = String::from_utf8_lossy(&lines.stderr);
    assert!(
        said.contains("mend it, or give upstream's steady_states.txt"),
        "{said}"
    );
    // a diagram cut short is not "no diagram has the root": it may be the one asked for
    let text = std::fs::read_to_string(dir.join("steady_states.txt")).unwrap();
    let mut rows: Vec<&str> = text.lines().collect();
    let first_row = rows.iter().position(|l| l.len() == 7).unwrap();
    rows.remove(first_row);
    let cut = rows.join("\n");
    let out = c4lab(&["pick", "--root", "5141", "--steady-states", "-"], &cut);
    assert_exit(&out, 2);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("1 of its 1295 diagrams could not be read (the first: diagram 1 ")
            && said.contains("and it may be among them"),
        "{said}"
    );
    // the others still list, with a note on the one left out
    let list = c4lab(&["pick", "--list", "--steady-states", "-"], &cut);
    assert_exit(&list, 0);
    assert_eq!(stdout(&list).lines().count(), 1 + 1294);
}
