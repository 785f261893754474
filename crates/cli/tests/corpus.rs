//! `c4lab corpus` and `bench corpus` as a script would use them (their inputs:
//! corpus_inputs.rs; the model commands: model.rs).

mod common;
use common::*;

#[test]
fn a_generated_corpus_says_its_progress_and_its_misnamed_inputs_are_refused() {
    let g = Generated::new("gen-refused");
    let d = g.d.as_str();
    let (corpus, targets, hold, _) = g.paths();
    // standard error is no terminal here: the progress comes as plain lines (a log of
    // a long run stayed empty until it ended)
    let said = &g.said;
    assert!(
        said.contains("train: 300 of 300 games in") && said.contains("holdout: 60 of 60 games in"),
        "{said}"
    );
    // the holdout's last line counts the candidates it tried, as its lines before do
    let last = said
        .lines()
        .find(|l| l.starts_with("holdout: 60 of 60 games in"));
    assert!(
        last.is_some_and(|l| l.ends_with(" candidates tried")),
        "{said}"
    );
    // a folder where a file or a dataset is meant, and a holdout without its sidecar,
    // are named with the fix (they were "Is a directory (os error 21)", "No such file
    // or directory (os error 2)" and "teacher targets need the corpus's sidecar")
    let train_dir = format!("{d}/train");
    // (train makes sure it can write --out before it reads: into the scratch folder)
    let unused = format!("{d}/refused.c4m");
    let nowhere = format!("{d}/nowhere");
    // a holdout with no sidecar beside it (the holdout's own is read by default)
    let alone = format!("{d}/alone.txt");
    std::fs::copy(&hold, &alone).unwrap();
    // a shard folder whose shard.txt is a folder (it was said to have none)
    let odd_shard = format!("{d}-odd-shard");
    std::fs::create_dir_all(format!("{odd_shard}/shard.txt")).unwrap();
    let refusals: [(Vec<&str>, String); 7] = [
        (
            vec![
                "train",
                "--load-corpus",
                &train_dir,
                "--perply-targets",
                &targets,
                "--out",
                &unused,
            ],
            format!("{train_dir} is a folder; give a corpus file (it holds {corpus})"),
        ),
        (
            vec![
                "train",
                "--load-corpus",
                &corpus,
                "--perply-targets",
                &targets,
                "--holdout-corpus",
                &alone,
                "--out",
                &unused,
            ],
            format!(
                "--holdout-corpus {alone} is scored against its sidecar, and no perply_targets.npz is beside it: give --holdout-targets"
            ),
        ),
        (
            vec!["bench", "model", "--corpus", &nowhere],
            format!("--corpus {nowhere} does not exist: give the folder"),
        ),
        (
            vec!["bench", "model", "--corpus", &train_dir],
            format!("--corpus {train_dir} has no holdout/ folder"),
        ),
        (
            vec!["corpus", "merge", d, "--out", "unused"],
            format!("{d} has no shard.txt: merge takes the folders `corpus generate --shard"),
        ),
        (
            vec!["corpus", "merge", &odd_shard, "--out", "unused"],
            format!("{odd_shard} has a shard.txt that is no regular file: merge takes the folders"),
        ),
        (
            vec!["corpus", "verify-sums", &train_dir],
            format!("{train_dir} has no SHA256SUMS: {d} holds one: give that folder"),
        ),
    ];
    for (args, said) in refusals {
        let out = c4lab(&args, "");
        assert_exit(&out, 2);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&said), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&odd_shard).unwrap();
}

#[test]
fn bench_model_does_not_pick_one_of_two_training_corpora() {
    let g = Generated::new("two-corpora");
    let d = g.d.as_str();
    let corpus = g.corpus.clone();
    // bench model does not pick one of two training corpora by directory order
    let second = format!("{d}/train/corpus_301.txt");
    std::fs::copy(&corpus, &second).unwrap();
    let out = c4lab(&["bench", "model", "--corpus", d, "--steps", "10"], "");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("holds 2 corpus_*.txt files (corpus_300.txt, corpus_301.txt)"),
        "{err}"
    );
    std::fs::remove_file(&second).unwrap();
}

#[test]
fn a_checksum_file_that_lists_nothing_fails_by_name() {
    let dir = std::env::temp_dir().join(format!("c4lab-sums-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("SHA256SUMS"), "").unwrap();
    let out = c4lab(&["corpus", "verify-sums", dir.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("SHA256SUMS: lists no files"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_corpus_prints_a_row_per_teacher_and_the_time_for_the_full_corpus() {
    let out = c4lab(
        &[
            "bench",
            "corpus",
            "--games",
            "40",
            "--exact-games",
            "0",
            "--late-games",
            "0",
        ],
        "",
    );
    assert_exit(&out, 0);
    let text = stdout(&out);
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("| alphabeta |"))
        .collect();
    assert_eq!(rows.len(), 1, "{text}");
    assert!(rows[0].starts_with("| alphabeta | 40 | "), "{text}");
    assert!(!text.contains("| exact"), "{text}");
    assert!(
        text.contains("alphabeta: 324,000 games would take "),
        "{text}"
    );
    // the skipped late row is not described
    assert!(!text.contains("late random moves"), "{text}");
    // the games within a row are counted on standard error (a slow teacher's row was
    // minutes without a word): here no terminal, so a line as the row ends
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("alphabeta: 40 of 40 games in "), "{said}");
    // the threads at work are the pool's, which RAYON_NUM_THREADS sets (it said "2
    // threads busy" on two cores with RAYON_NUM_THREADS=1)
    let one = std::process::Command::new(env!("CARGO_BIN_EXE_c4lab"))
        .args([
            "bench",
            "corpus",
            "--games",
            "8",
            "--exact-games",
            "0",
            "--late-games",
            "0",
        ])
        .env("RAYON_NUM_THREADS", "1")
        .output()
        .unwrap();
    assert_exit(&one, 0);
    assert!(
        stdout(&one).contains("(1 thread busy; the machine has "),
        "{}",
        stdout(&one)
    );
    // settings no teacher can honour are refused by flag before the table (they were
    // refused after its header, by the library's setting names)
    for (flags, said) in [
        (&["--depth", "0"][..], "--depth 0 --nodes"),
        (
            &["--opening-min", "42", "--opening-max", "42"][..],
            "--opening-max 42 is past the board",
        ),
        (&["--games", "0"][..], "--games 0"),
        // as many games as `corpus generate` takes at most (it ran on, a row of years)
        (
            &["--games", "18446744073709551615"][..],
            "'--games <GAMES>': expected a whole number from 0 to 1000000000",
        ),
        // (past the last ply no move is random: it was accepted as if it were a setting)
        (
            &["--epsilon-from", "42"][..],
            "--epsilon-from 42 is past the board: a game has at most 42 plies (0-41), so no move would be random",
        ),
    ] {
        let out = c4lab(
            &[
                &["bench", "corpus", "--exact-games", "0", "--late-games", "0"][..],
                flags,
            ]
            .concat(),
            "",
        );
        assert_eq!(out.status.code(), Some(2), "{flags:?}");
        assert_eq!(stdout(&out), "", "{flags:?}: no header before the error");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(said),
            "{flags:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[cfg(unix)]
#[test]
fn a_corpus_run_stopped_by_ctrl_c_sigterm_or_sighup_leaves_no_part_file() {
    let dir = std::env::temp_dir().join(format!("c4lab-corpus-stop-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    fn parts(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        let mut found = Vec::new();
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = entry.path();
            if p.is_dir() {
                found.extend(parts(&p));
            } else if p.extension().is_some_and(|e| e == "part") {
                found.push(p);
            }
        }
        found
    }
    // far more games than the test waits for, so the stop lands while they are written;
    // SIGTERM is how `kill` and a job scheduler's time limit stop a run (it left the
    // files behind), SIGHUP a closed terminal
    for (name, number) in [("INT", 2), ("TERM", 15), ("HUP", 1)] {
        let _ = std::fs::remove_dir_all(&dir);
        let writing = std::cell::RefCell::new(Vec::new());
        stop_once(
            name,
            number,
            &[
                "corpus",
                "generate",
                "--games",
                "1000000",
                "--out",
                dir.to_str().unwrap(),
            ],
            || {
                *writing.borrow_mut() = parts(&dir);
                !writing.borrow().is_empty()
            },
            "the corpus to be written",
        );
        let writing = writing.into_inner();
        assert_eq!(
            parts(&dir),
            Vec::<std::path::PathBuf>::new(),
            "SIG{name}: the .part files are removed ({writing:?} were being written)"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A corpus write that fails (here a file-size limit, as a full disk would) ends with
/// one error naming the file, and leaves no `.part` file (they were left, and the npz
/// writer's own clean-up printed a second, raw error before it).
#[cfg(target_os = "linux")]
#[test]
fn a_corpus_write_that_fails_leaves_no_part_file_and_says_so_once() {
    use std::os::unix::process::CommandExt;
    let dir = std::env::temp_dir().join(format!("c4lab-corpus-full-{}", std::process::id()));
    let mut failed_in = Vec::new();
    // 64 KiB stops the transcript, 128 KiB the sidecar after it
    for kib in [64u64, 128] {
        let _ = std::fs::remove_dir_all(&dir);
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_c4lab"));
        command.args([
            "corpus",
            "generate",
            "--games",
            "300",
            "--holdout",
            "5",
            "--out",
        ]);
        command.arg(&dir);
        // SAFETY: between fork and exec only async-signal-safe calls: the file-size limit
        // of the child and SIGXFSZ ignored (so a write past it fails, not kills)
        unsafe {
            command.pre_exec(move || {
                let limit = libc::rlimit {
                    rlim_cur: kib * 1024,
                    rlim_max: kib * 1024,
                };
                libc::setrlimit(libc::RLIMIT_FSIZE, &limit);
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                Ok(())
            });
        }
        let out = command.output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{kib} KiB: {err}");
        let errors: Vec<&str> = err.lines().filter(|l| l.contains("rror")).collect();
        assert_eq!(errors.len(), 1, "{kib} KiB: {err}");
        assert!(
            errors[0].starts_with("error: ") && errors[0].contains("File too large"),
            "{err}"
        );
        failed_in.push(errors[0].to_string());
        let mut parts = Vec::new();
        for sub in ["", "train", "holdout"] {
            for e in std::fs::read_dir(dir.join(sub))
                .into_iter()
                .flatten()
                .flatten()
            {
                if e.path().extension().is_some_and(|x| x == "part") {
                    parts.push(e.path());
                }
            }
        }
        assert!(parts.is_empty(), "{kib} KiB: left {parts:?}");
    }
    assert!(failed_in[0].contains("corpus_300.txt"), "{failed_in:?}");
    assert!(failed_in[1].contains("perply_targets.npz"), "{failed_in:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_holdout_no_candidate_can_fill_fails_early_naming_why() {
    // with 41 of 42 slots labelled no holdout game is disjoint from training: the run
    // stops once its rate is known, not after the limit of 800,000 candidates (about
    // nine minutes with no line said)
    let dir = std::env::temp_dir().join(format!("c4lab-hopeless-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let args = ["corpus", "generate", "--games", "300", "--slots", "41"];
    let out = c4lab(&[&args[..], &["--out", dir.to_str().unwrap()]].concat(), "");
    assert_exit(&out, 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("only 0 of 4000 holdout games were disjoint from training after")
            && err.contains("(none so far, and the limit is 800000 candidates)"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_rerun_whose_holdout_fails_leaves_the_earlier_dataset_whole() {
    // the holdout is played before any file is renamed into place: the earlier run's
    // six files were removed once the new training files had replaced two of them
    let dir = std::env::temp_dir().join(format!("c4lab-kept-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let first = [
        "corpus",
        "generate",
        "--games",
        "30",
        "--holdout",
        "4",
        "--seed",
        "3",
    ];
    assert_exit(&c4lab(&[&first[..], &["--out", d]].concat(), ""), 0);
    let files = |dir: &std::path::Path| -> Vec<(String, Vec<u8>)> {
        let mut all = Vec::new();
        for sub in ["", "train", "holdout"] {
            for e in std::fs::read_dir(dir.join(sub)).unwrap().flatten() {
                if e.path().is_file() {
                    let name = e.path().strip_prefix(dir).unwrap().display().to_string();
                    all.push((name, std::fs::read(e.path()).unwrap()));
                }
            }
        }
        all.sort();
        all
    };
    let before = files(&dir);
    assert_eq!(
        before.len(),
        6,
        "{:?}",
        before.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    let hopeless = [
        "--seed", "9", "--slots", "41", "--depth", "1", "--nodes", "1",
    ];
    let rerun = c4lab(&[&first[..6], &hopeless[..], &["--out", d]].concat(), "");
    assert_exit(&rerun, 2);
    assert!(
        String::from_utf8_lossy(&rerun.stderr).contains("holdout games were disjoint"),
        "{}",
        String::from_utf8_lossy(&rerun.stderr)
    );
    assert!(files(&dir) == before, "the earlier dataset changed");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_output_folder_that_is_a_file_or_a_finished_dataset_is_refused() {
    let g = Generated::new("out-folder");
    let d = g.d.as_str();
    let (corpus, _, _, _) = g.paths();
    // a file where a folder is meant (it read "File exists (os error 17)", or
    // "afile/train: Not a directory (os error 20)")
    let file = format!("{d}/afile");
    std::fs::write(&file, "").unwrap();
    // (beside the dataset: a shard inside it is refused)
    let shard = format!("{d}-shard");
    // a small shard's run, given its `i/N`
    let small_shard = |of: &'static str| {
        vec![
            "corpus",
            "generate",
            "--games",
            "4",
            "--holdout",
            "0",
            "--shard",
            of,
        ]
    };
    let out = c4lab(&[&small_shard("0/1")[..], &["--out", &shard]].concat(), "");
    assert_exit(&out, 0);
    // a shard of more shards than games may hold none: written, and said so
    let empty = format!("{d}-empty-shard");
    let out = c4lab(&[&small_shard("0/8")[..], &["--out", &empty]].concat(), "");
    assert_exit(&out, 0);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("note: this shard holds no game: 4 games over 8 shards leave some empty"),
        "{err}"
    );
    std::fs::remove_dir_all(&empty).unwrap();
    for (args, what) in [
        (
            vec!["corpus", "generate", "--games", "5", "--holdout", "0"],
            "the dataset",
        ),
        (
            vec!["corpus", "label", &corpus, "--rows", "2"],
            "the relabelled corpus",
        ),
        (
            vec!["corpus", "split", &corpus, "--holdout", "5"],
            "the split dataset",
        ),
        (vec!["corpus", "merge", &shard], "the merged dataset"),
    ] {
        let out = c4lab(&[&args[..], &["--out", &file]].concat(), "");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        let said = format!("--out {file} is a file, not a folder: {what} is written into a folder");
        assert!(err.contains(&said), "{args:?}: {err}");
    }
    // a finished dataset (it has SHA256SUMS) is not relabelled into, nor given a shard:
    // its checksums would no longer match
    for (args, what) in [
        (vec!["corpus", "label", &corpus, "--rows", "2"], "relabel"),
        (small_shard("0/2"), "generate the shard"),
    ] {
        // the dataset's folder, or one inside it (verify-sums walks the subfolders)
        let inner = format!("{d}/more");
        for (out_dir, inside) in [(d, String::new()), (&inner, format!(" (inside {d})"))] {
            let out = c4lab(&[&args[..], &["--out", out_dir]].concat(), "");
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            let said = format!("{out_dir}{inside} holds a finished dataset ({d}/SHA256SUMS is there), whose checksums would no longer match: {what} into a new folder");
            assert!(err.contains(&said), "{args:?}: {err}");
        }
    }
    // a link to nowhere, or round a loop (it said "File exists")
    let dangling = format!("{d}-dangling");
    let looped = format!("{d}-looped");
    std::os::unix::fs::symlink(format!("{d}-nothing-here"), &dangling).unwrap();
    std::os::unix::fs::symlink(&looped, &looped).unwrap();
    for link in [&dangling, &looped] {
        let out = c4lab(&[&small_shard("0/1")[..], &["--out", link]].concat(), "");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{link}: {err}");
        let said = format!("--out {link} is a link that leads to no folder");
        assert!(err.contains(&said), "{link}: {err}");
        std::fs::remove_file(link).unwrap();
    }
    std::fs::remove_file(&file).unwrap();
    std::fs::remove_dir_all(&shard).unwrap();
    assert_exit(&c4lab(&["corpus", "verify-sums", d], ""), 0);
}

#[test]
fn a_negative_value_is_named_by_its_flag() {
    // `--lr -1` read `-1` as a flag ("unexpected argument '-1' found")
    for (args, said) in [
        (
            vec!["train", "--lr", "-1", "--load-corpus", "c.txt"],
            "--lr -1 is not a positive step size",
        ),
        (
            vec!["corpus", "generate", "--epsilon", "-0.1", "--out", "unused"],
            "invalid value '-0.1' for '--epsilon <EPSILON>': expected a probability from 0 to 1",
        ),
        // (the value as typed: it was printed back as a number, 309 digits long)
        (
            vec![
                "corpus",
                "generate",
                "--epsilon",
                "1e308",
                "--out",
                "unused",
            ],
            "invalid value '1e308' for '--epsilon <EPSILON>': expected a probability from 0 to 1",
        ),
    ] {
        let out = c4lab(&args, "");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(said), "{args:?}: {err}");
    }
}

#[test]
fn the_exact_teachers_note_gives_flags_the_tool_takes() {
    // the note on early random moves advised `--opening-max 0`, which the default
    // `--opening-min 2` then refused
    let not_a_folder = std::env::temp_dir().join(format!("c4lab-note-{}", std::process::id()));
    std::fs::write(&not_a_folder, "").unwrap();
    let out_flag = not_a_folder.display().to_string();
    let base = [
        "corpus",
        "generate",
        "--teacher",
        "exact",
        "--games",
        "1",
        "--holdout",
        "0",
    ];
    // (the output path is a file, so each run ends once its settings are read)
    let out = c4lab(&[&base[..], &["--out", &out_flag]].concat(), "");
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    let advice = err
        .lines()
        .find_map(|l| l.split_once("for a corpus in minutes use "));
    let Some((_, flags)) = advice else {
        panic!("no advice: {err}")
    };
    let mut args = base.to_vec();
    args.extend(flags.split_whitespace());
    args.extend(["--out", &out_flag]);
    let out = c4lab(&args, "");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_exit(&out, 2);
    assert!(
        !err.contains("note:") && err.contains("is a file"),
        "{args:?}: {err}"
    );
    // an opening that starts past ply 10 is random from ply 0 all the same: noted (it
    // was not, and cost 5.7 s a game)
    let long = [
        "--opening-min",
        "20",
        "--opening-max",
        "22",
        "--out",
        &out_flag,
    ];
    let out = c4lab(&[&base[..], &long].concat(), "");
    let err = String::from_utf8_lossy(&out.stderr);
    std::fs::remove_file(&not_a_folder).unwrap();
    assert!(err.contains("note: random moves before ply 10"), "{err}");
}

#[test]
fn a_dataset_folder_another_run_is_writing_is_refused() {
    let dir = std::env::temp_dir().join(format!("c4lab-held-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // held as a running generate, split, merge or label holds its --out folder
    let held = std::fs::File::open(&dir).unwrap();
    held.lock().unwrap();
    let d = dir.to_str().unwrap();
    let generate = [
        "corpus",
        "generate",
        "--games",
        "20",
        "--holdout",
        "2",
        "--out",
        d,
    ];
    let out = c4lab(&generate, "");
    assert_exit(&out, 2);
    let err = String::from_utf8_lossy(&out.stderr);
    // (the second run's failure removed the files the first had just finished)
    assert!(
        err.contains(&format!("{d} is being written by another run")),
        "{err}"
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    drop(held);
    assert_exit(&c4lab(&generate, ""), 0);
    // checksums of a folder being written are refused, the folder and one inside it
    // (they named its outputs in progress "left unfinished by a stopped run")
    let held = std::fs::File::open(&dir).unwrap();
    held.lock().unwrap();
    let train = format!("{d}/train");
    for (args, said) in [
        (
            ["corpus", "sums", d],
            format!("{d} is being written by another run"),
        ),
        (
            ["corpus", "verify-sums", &train],
            format!("{train} is being written by another run (into {d})"),
        ),
    ] {
        let out = c4lab(&args, "");
        assert_exit(&out, 2);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&said), "{args:?}: {err}");
    }
    drop(held);
    assert_exit(&c4lab(&["corpus", "verify-sums", d], ""), 0);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn one_game_one_row_and_one_candidate_are_said_in_the_singular() {
    // ("1 games", "1 rows from 1 candidates")
    let dir = std::env::temp_dir().join(format!("c4lab-singular-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (whole, shard) = (dir.join("whole"), dir.join("shard"));
    let run = |extra: &[&str], out: &std::path::Path| {
        let args = ["corpus", "generate", "--games", "1", "--seed", "159"];
        c4lab(
            &[&args[..], extra, &["--out", out.to_str().unwrap()]].concat(),
            "",
        )
    };
    let said = stdout(&run(&["--shard", "0/1"], &shard));
    assert!(
        said.starts_with("shard 0/1: 1 game (indices 0..1) in "),
        "{said}"
    );
    let said = stdout(&run(&["--holdout", "1"], &whole));
    std::fs::remove_dir_all(&dir).ok();
    assert!(said.contains("corpus_1.txt (1 row)\n"), "{said}");
    let holdout = said
        .lines()
        .find(|l| l.starts_with("holdout: "))
        .expect(&said);
    assert!(
        holdout.contains(" (1 row from ") && !holdout.contains(" 1 candidates"),
        "{said}"
    );
}
