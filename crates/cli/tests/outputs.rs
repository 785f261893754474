//! Where output goes: a reader that goes away before the end, the round and candidate
//! logs' files (never the diagram solved, never where the result goes, never worth a
//! verdict), and a training's model file, held from its start.

use std::path::Path;

mod common;
use common::*;

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
            eprintln!("skipped: no /dev/full to stand for a full disk");
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
fn a_log_is_no_named_pipe_nor_a_file_that_holds_something_else() {
    let dir = std::env::temp_dir().join(format!("c4lab-log-kinds-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // a file of another kind named by mistake: refused, left as it was (it was emptied)
    let model = dir.join("model.c4m");
    std::fs::write(&model, b"C4LM and twenty-four megabytes of weights").unwrap();
    let m = model.display().to_string();
    for args in [
        ["dsat", "--log-rounds", &m, "examples/win.txt"],
        ["complete", "--log-candidates", &m, "examples/win.txt"],
    ] {
        let out = c4lab(&args, "");
        assert_exit(&out, 2);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("already holds a file that is no JSON-lines log"),
            "{err}"
        );
        assert_eq!(
            std::fs::read(&model).unwrap(),
            b"C4LM and twenty-four megabytes of weights"
        );
    }
    // an earlier log is written over, and a folder that is not there is named
    let log = dir.join("rounds.jsonl");
    std::fs::write(&log, "{\"round\": 1}\n").unwrap();
    let l = log.display().to_string();
    assert_exit(
        &c4lab(&["dsat", "--log-rounds", &l, "examples/win.txt"], ""),
        0,
    );
    let absent = dir.join("no-such-folder/rounds.jsonl");
    let out = c4lab(
        &[
            "dsat",
            "--log-rounds",
            absent.to_str().unwrap(),
            "examples/win.txt",
        ],
        "",
    );
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("no-such-folder does not exist; create it first"));
    // a named pipe with no reader: refused at once (the open waited for a reader, and
    // neither a stop signal nor --max-seconds ended the wait)
    #[cfg(unix)]
    {
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let f = fifo.display().to_string();
        let out = c4lab(
            &[
                "dsat",
                "--max-seconds",
                "5",
                "--log-rounds",
                &f,
                "examples/complete.txt",
            ],
            "",
        );
        assert_exit(&out, 2);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("is a named pipe: opening it waits for a reader"),
            "{err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
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
    // nor when the diagram comes on standard input from that file (`< root.txt`, with
    // no file argument or `-`): it was emptied
    for extra in [&[][..], &["-"][..]] {
        let out = c4lab_reading(
            &[&["dsat", "--log-rounds", &g][..], extra].concat(),
            std::fs::File::open(&grid).unwrap(),
        );
        assert_exit(&out, 2);
        assert!(
            String::from_utf8_lossy(&out.stderr)
                .contains("is standard input, which holds the diagram being solved"),
            "{extra:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(std::fs::read_to_string(&grid).unwrap(), text, "{extra:?}");
    }
    // nor a hard link to it, for either log (it overwrote the diagram's file)
    let linked = dir.join("linked.txt");
    std::fs::hard_link(&grid, &linked).unwrap();
    let l = linked.display().to_string();
    for args in [
        ["dsat", "--log-rounds", &l, &g],
        ["complete", "--log-candidates", &l, &g],
    ] {
        let out = c4lab(&args, "");
        assert_exit(&out, 2);
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("is the diagram being solved"),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(std::fs::read_to_string(&grid).unwrap(), text, "{args:?}");
    }
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
fn a_training_into_an_output_another_run_is_writing_is_refused_before_it_trains() {
    let g = Generated::new("held");
    let model = format!("{}/m.c4m", g.d);
    // the other training's .part file, held as a running c4lab holds it from its start
    let part = format!("{model}.part");
    std::fs::write(&part, b"").unwrap();
    let held = std::fs::File::open(&part).unwrap();
    held.lock().unwrap();
    let out = g.train_to(&model, "192", &[]);
    assert_exit(&out, 2);
    let err = String::from_utf8_lossy(&out.stderr);
    // (it trained, overwrote the other run's checkpoint, and failed only at the end)
    assert!(
        err.contains("another run is writing it") && !err.contains("training positions"),
        "{err}"
    );
    assert!(!std::path::Path::new(&format!("{model}.ckpt")).exists());
    assert!(std::path::Path::new(&part).exists());
    drop(held);
    // a training that fails after taking its .part file (here reading its corpus)
    // removes it
    let missing = format!("{}/no-such-corpus.txt", g.d);
    let out = c4lab(
        &[
            "train",
            "--load-corpus",
            &missing,
            "--corpus-source",
            "moves",
            "--out",
            &model,
        ],
        "",
    );
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("no-such-corpus.txt"));
    assert!(!std::path::Path::new(&part).exists());
    // once that run ended, a training writes the model and leaves no .part file
    let out = g.train_to(&model, "192", &[]);
    assert_exit(&out, 0);
    assert!(std::path::Path::new(&model).exists());
    assert!(!std::path::Path::new(&part).exists());
    // a checkpoint named as the model's .part file is refused before training (it was
    // renamed into place as the model, which was lost)
    let clash = format!("{}/n.c4m", g.d);
    let out = g.train_to(&clash, "192", &["--checkpoint", &format!("{clash}.part")]);
    assert_exit(&out, 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("would share a file as it is written"), "{err}");
    assert!(!std::path::Path::new(&clash).exists());
}

#[test]
fn a_training_naming_a_checkpoint_another_run_writes_is_refused_before_it_trains() {
    let g = Generated::new("held-ckpt");
    let ckpt = format!("{}/shared.ckpt", g.d);
    // another training's checkpoint, held by its .part file from that run's start to its
    // end (a run with another --out was let in before the first checkpoint, and the two
    // wrote over each other's)
    let part = format!("{ckpt}.part");
    std::fs::write(&part, b"").unwrap();
    let held = std::fs::File::open(&part).unwrap();
    held.lock().unwrap();
    let model = format!("{}/b.c4m", g.d);
    let out = g.train_to(&model, "192", &["--checkpoint", &ckpt]);
    assert_exit(&out, 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("cannot write {ckpt}: another run is writing it"))
            && !err.contains("training positions"),
        "{err}"
    );
    assert!(!std::path::Path::new(&model).exists());
    assert!(!std::path::Path::new(&format!("{model}.part")).exists());
    drop(held);
    std::fs::remove_file(&part).unwrap();
    // a run writing checkpoints along the way leaves the model and the checkpoint, and
    // no .part file of either
    let out = g.train_to(
        &model,
        "192",
        &["--checkpoint", &ckpt, "--checkpoint-every", "500"],
    );
    assert_exit(&out, 0);
    assert!(std::path::Path::new(&ckpt).exists() && std::path::Path::new(&model).exists());
    assert!(!std::path::Path::new(&part).exists());
    assert!(!std::path::Path::new(&format!("{model}.part")).exists());
    // a running training holds its checkpoint between writes: once its first
    // checkpoint is there, a fresh run told to write over it is still refused
    std::fs::remove_file(&ckpt).unwrap();
    let first = format!("{}/a.c4m", g.d);
    let mut running = std::process::Command::new(env!("CARGO_BIN_EXE_c4lab"))
        .args([
            "train",
            "--load-corpus",
            &g.corpus,
            "--perply-targets",
            &g.targets,
        ])
        .args(["--steps", "100000000", "--checkpoint-every", "1000"])
        .args(["--checkpoint", &ckpt, "--out", &first])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let waited = std::time::Instant::now();
    while !std::path::Path::new(&ckpt).exists() {
        assert!(
            running.try_wait().unwrap().is_none(),
            "the first training ended"
        );
        assert!(waited.elapsed().as_secs() < 120, "no first checkpoint");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = g.train_to(&model, "192", &["--checkpoint", &ckpt, "--overwrite"]);
    running.kill().unwrap();
    running.wait().unwrap();
    assert_exit(&out, 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("cannot write {ckpt}: another run is writing it")),
        "{err}"
    );
}

#[test]
fn a_reader_of_standard_error_that_goes_away_costs_the_command_nothing() {
    // notes, progress and verdict lines go to standard error; with its reader gone
    // (`c4lab ... 2>&1 >file | head`) the command ends as it would have, its result on
    // standard output (each such write panicked, exit 101)
    let cases: [(&[&str], &str, i32); 3] = [
        (&["complete", "examples/complete.txt"], "", 0),
        (&["dsat", "examples/loss.txt"], "", 1),
        (
            &["convert", "--to", "grid"],
            "1.665575655443373721.*B90*K9056997.6",
            0,
        ),
    ];
    for (args, input, code) in cases {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_c4lab"))
            .args(args)
            .current_dir(repo())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(writer)
            .spawn()
            .unwrap();
        use std::io::Write as _;
        let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        if code == 0 {
            assert!(!out.stdout.is_empty(), "{args:?}: no result");
        }
    }
}
