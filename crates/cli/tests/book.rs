//! `c4lab book` as a script would use it: where it refuses to write, and what a stop
//! leaves; a book as `analyze` reads it.

mod common;
use common::*;

#[test]
fn book_refuses_a_directory_before_solving() {
    let dir = std::env::temp_dir();
    let out = c4lab(
        &["book", "--depth", "1", "--out", dir.to_str().unwrap()],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("is a folder") && err.contains("book.bin"),
        "{err}"
    );
    assert!(!err.contains("positions solved"), "{err}");
    // nor is a file that is no book written over (a diagram was replaced without a word)
    let kept = std::env::temp_dir().join(format!("c4lab-not-a-book-{}.txt", std::process::id()));
    std::fs::write(&kept, "9909999\n").unwrap();
    let out = c4lab(
        &["book", "--depth", "1", "--out", kept.to_str().unwrap()],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("already holds a file that is no c4lab book"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "9909999\n");
    std::fs::remove_file(&kept).ok();
}

#[cfg(unix)]
#[test]
fn a_book_stopped_by_ctrl_c_leaves_no_part_file() {
    let dir = std::env::temp_dir().join(format!("c4lab-book-stop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("book.bin");
    let part = dir.join("book.bin.part");
    // depth 0 solves the empty board: a minute or more, so the stop lands mid-solve
    let args = ["book", "--depth", "0", "--table-mb", "16", "--out"];
    interrupt_once(
        &[&args[..], &[out.to_str().unwrap()]].concat(),
        || part.exists(),
        "the book to be written",
    );
    assert!(
        !part.exists(),
        "the .part file is removed (it was left behind)"
    );
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[cfg(unix)]
#[test]
fn a_fifo_under_the_part_files_name_is_refused_not_waited_on() {
    // opening a FIFO to write waits for a reader, and Ctrl-C would wait with it
    let dir = std::env::temp_dir().join(format!("c4lab-fifo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("d/train")).unwrap();
    for part in ["book.bin.part", "d/train/corpus_10.txt.part"] {
        let made = std::process::Command::new("mkfifo")
            .arg(dir.join(part))
            .status()
            .unwrap();
        assert!(made.success());
    }
    let d = dir.to_str().unwrap();
    for (args, named) in [
        (
            vec!["book", "--depth", "0", "--out", &format!("{d}/book.bin")],
            "book.bin.part",
        ),
        (
            vec![
                "corpus",
                "generate",
                "--games",
                "10",
                "--holdout",
                "2",
                "--out",
                &format!("{d}/d"),
            ],
            "corpus_10.txt.part",
        ),
    ] {
        // under `timeout`, so a run that waits on the FIFO fails (exit 124) rather than
        // hanging the tests
        let out = std::process::Command::new("timeout")
            .arg("30")
            .arg(env!("CARGO_BIN_EXE_c4lab"))
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(named) && err.contains("no regular file"),
            "{err}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_book_another_run_is_writing_is_refused_and_left_to_it() {
    let dir = std::env::temp_dir().join(format!("c4lab-book-held-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.bin");
    // another run's .part file, held as a running c4lab holds it
    let part = dir.join("book.bin.part");
    std::fs::write(&part, b"the other run's bytes").unwrap();
    let held = std::fs::File::open(&part).unwrap();
    held.lock().unwrap();
    let out = c4lab(
        &["book", "--depth", "1", "--out", book.to_str().unwrap()],
        "",
    );
    assert_exit(&out, 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("another run is writing it"), "{err}");
    // (the second run wrote into the first one's .part file, and its Ctrl-C removed it)
    assert_eq!(std::fs::read(&part).unwrap(), b"the other run's bytes");
    assert!(!book.exists());
    drop(held);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn analyze_json_names_the_empty_board_as_solve_does() {
    use c4lab_board::Position;
    // a book of the empty board and its seven children, at their true scores (the
    // empty board's column scores are -2 -1 0 1 0 -1 -2): analyze reads them at once
    let root = Position::new();
    let mut scores = vec![(root, 1)];
    for (column, score) in [-2, -1, 0, 1, 0, -1, -2].into_iter().enumerate() {
        let mut child = root;
        child.play(column);
        scores.push((child, -score));
    }
    let book = std::env::temp_dir().join(format!("c4lab-book-json-{}.bin", std::process::id()));
    std::fs::write(&book, c4lab_solver::Book::from_scores(scores).to_bytes()).unwrap();
    let book_arg = book.to_str().unwrap();
    let analyzed = c4lab(&["analyze", "--json", "--book", book_arg, "-"], "");
    let solved = c4lab(&["solve", "--json", "--book", book_arg], "-\n");
    std::fs::remove_file(&book).ok();
    assert_exit(&analyzed, 0);
    let analyzed: serde_json::Value = serde_json::from_slice(&analyzed.stdout).unwrap();
    let solved: serde_json::Value = serde_json::from_slice(&solved.stdout).unwrap();
    // (analyze wrote "" for it)
    assert_eq!(analyzed["moves"], "-");
    assert_eq!(analyzed["moves"], solved["moves"]);
    assert_eq!(
        analyzed["scores"],
        serde_json::json!([-2, -1, 0, 1, 0, -1, -2])
    );
}
