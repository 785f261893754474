//! `c4lab corpus`, `bench corpus`, `train` and `eval` as a script would use them.

mod common;
use common::*;

#[test]
fn train_then_eval_a_model_on_a_generated_corpus() {
    let dir = std::env::temp_dir().join(format!("c4lab-train-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let out = c4lab(
        &[
            "corpus",
            "generate",
            "--games",
            "300",
            "--holdout",
            "60",
            "--seed",
            "3",
            "--out",
            d,
        ],
        "",
    );
    assert_exit(&out, 0);
    // standard error is no terminal here: the progress comes as plain lines (a log of
    // a long run stayed empty until it ended)
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("train: 300 of 300 games in") && said.contains("holdout: 60 of 60 games in"),
        "{said}"
    );
    let corpus = format!("{d}/train/corpus_300.txt");
    let targets = format!("{d}/train/perply_targets.npz");
    let (hold, hold_t) = (
        format!("{d}/holdout/corpus.txt"),
        format!("{d}/holdout/perply_targets.npz"),
    );
    // a folder where a file or a dataset is meant, and a holdout without its sidecar,
    // are named with the fix (they were "Is a directory (os error 21)", "No such file
    // or directory (os error 2)" and "teacher targets need the corpus's sidecar")
    let (train_dir, hold_dir) = (format!("{d}/train"), format!("{d}/holdout"));
    // (train makes sure it can write --out before it reads: into the scratch folder)
    let unused = format!("{d}/refused.c4m");
    let nowhere = format!("{d}/nowhere");
    let refusals: [(Vec<&str>, String); 6] = [
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
                &hold,
                "--out",
                &unused,
            ],
            format!(
                "--holdout-corpus {hold} is scored against its sidecar: give --holdout-targets"
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
    // a corpus without its sidecar is no pass (a stopped run leaves one so), unless the
    // transcript alone is asked for
    let lone = format!("{d}/lone.txt");
    std::fs::copy(&corpus, &lone).unwrap();
    let out = c4lab(&["corpus", "check", &lone], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--no-targets"));
    assert_exit(&c4lab(&["corpus", "check", "--no-targets", &lone], ""), 0);
    // commands that read the sidecar say where it was looked for and how to name it
    let stats = c4lab(&["corpus", "stats", &lone], "");
    assert_eq!(stats.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&stats.stderr).contains("has no sidecar beside it"),
        "{}",
        String::from_utf8_lossy(&stats.stderr)
    );
    // stats of a sidecar that does not fit its corpus (its rows in another order) are
    // refused, not reported as if they described it
    let text = std::fs::read(&corpus).unwrap();
    let mut rows: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
    rows.reverse();
    std::fs::write(&lone, rows.concat()).unwrap();
    let stats = c4lab(&["corpus", "stats", &lone, &targets], "");
    assert_eq!(stats.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&stats.stderr).contains("fails the integrity gate"),
        "{}",
        String::from_utf8_lossy(&stats.stderr)
    );
    assert_exit(&c4lab(&["corpus", "stats", &corpus, &targets], ""), 0);
    // a sidecar named with --no-targets is refused, not ignored
    let both = c4lab(&["corpus", "check", "--no-targets", &lone, &targets], "");
    assert_eq!(both.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&both.stderr).contains("cannot be used with"));
    // a folder named as the sidecar is said to be one (it read "Invalid argument")
    let folder = c4lab(&["corpus", "check", &corpus, &format!("{d}/train")], "");
    assert_ne!(folder.status.code(), Some(0));
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&folder.stdout),
        String::from_utf8_lossy(&folder.stderr)
    );
    assert!(said.contains("a folder, not an .npz file"), "{said}");
    std::fs::remove_file(&lone).unwrap();
    let model = format!("{d}/m.c4m");
    let diverging = format!("{d}/diverging.c4m");
    let card = format!("{d}/README.md");
    // the settings a checkpoint records, which a resume must repeat
    let settings = [
        "--soft-w",
        "1.0",
        "--batch",
        "16",
        "--lr",
        "0.5",
        "--seed",
        "32",
        "--hard-start",
        "0",
        "--hard-ramp",
        "500",
        "--hard-w",
        "0.5",
    ];
    let train_to = |out: &str, ctx: &str, extra: &[&str]| {
        let mut args = vec![
            "train",
            "--load-corpus",
            &corpus,
            "--perply-targets",
            &targets,
            "--holdout-corpus",
            &hold,
            "--holdout-targets",
            &hold_t,
            "--transcript",
            "v2",
            "--move-loss",
            "7way",
            "--steps",
            "2000",
            "--ctx",
            ctx,
            "--corpus-source",
            "teacher",
            "--out",
            out,
        ];
        args.extend(settings);
        // a flag given above takes the value given after it in `extra` (but a corpus
        // and its sidecar, which may be given again, are added)
        let mut i = 0;
        while i < extra.len() {
            let added = ["--load-corpus", "--perply-targets"].contains(&extra[i]);
            match args.iter().position(|a| *a == extra[i]) {
                Some(at) if !added && i + 1 < extra.len() && !extra[i + 1].starts_with("--") => {
                    args[at + 1] = extra[i + 1];
                    i += 2;
                }
                _ => {
                    args.push(extra[i]);
                    i += 1;
                }
            }
        }
        c4lab(&args, "")
    };
    let train = |ctx: &str, extra: &[&str]| train_to(&model, ctx, extra);
    let first_run = train("192", &[]);
    assert_exit(&first_run, 0);
    let text = stdout(&first_run);
    assert!(
        text.contains("trained 2000 steps") && text.contains("holdout agreement"),
        "{text}"
    );
    let first = std::fs::read(&model).unwrap();
    // the same seed gives the same model; resuming a finished run to more steps works
    assert_eq!(train("192", &[]).status.code(), Some(0));
    assert_eq!(std::fs::read(&model).unwrap(), first);
    let out = train("192", &["--resume"]);
    assert_exit(&out, 0);
    let said = stdout(&out);
    assert!(
        said.contains("trained 2000 steps (resumed at step 2000)")
            && said.contains("loss - (no step left to run)"),
        "{said}"
    );
    assert_eq!(
        std::fs::read(&model).unwrap(),
        first,
        "resuming a finished run adds nothing"
    );
    // a resume with other settings or other examples would be another run: refused,
    // naming what differs (it went on, and the run was one no settings make)
    let more = ["--steps", "2500", "--resume"];
    let out = train("192", &[&more[..], &["--lr", "0.25"]].concat());
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("used --lr 0.5, not 0.25"), "{err}");
    let other = [
        &more[..],
        &["--load-corpus", &hold, "--perply-targets", &hold_t],
    ]
    .concat();
    let out = train("192", &other);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("trained on other examples ("), "{err}");
    assert_eq!(std::fs::read(&model).unwrap(), first);
    // nor is a run rewound: fewer steps than the checkpoint holds are refused before
    // the corpus is read (the model used to be written again as it was)
    let out = c4lab(
        &[
            &[
                "train",
                "--load-corpus",
                "no-such-corpus.txt",
                "--perply-targets",
                "no-such-targets.npz",
                "--steps",
                "1000",
                "--resume",
                "--out",
                &model,
            ][..],
            &settings[..],
        ]
        .concat(),
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("is at step 2000, past --steps 1000") && !err.contains("no-such-corpus"),
        "{err}"
    );
    assert_eq!(std::fs::read(&model).unwrap(), first);
    // the threat windows are the default; the column windows alone make a smaller
    // model (8 tables a side against 13), which bench model names; a checkpoint of
    // one set does not resume as the other; an unknown set is refused
    let columns_model = format!("{d}/columns.c4m");
    let out = train_to(&columns_model, "192", &["--features", "columns"]);
    assert_exit(&out, 0);
    // the weights: the file less its 16-byte header and 32-byte checksum
    let size = |p: &str| std::fs::metadata(p).unwrap().len() - 16 - 32;
    assert_eq!(size(&columns_model) * 13, size(&model) * 8);
    let named = stdout(&c4lab(
        &[
            "bench",
            "model",
            "--corpus",
            d,
            "--model",
            &columns_model,
            "--positions",
            "1",
        ],
        "",
    ));
    assert!(
        named.contains("16-bit table indices, columns features"),
        "{named}"
    );
    let out = train("192", &["--features", "columns", "--resume"]);
    assert_exit(&out, 2);
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("resume it with --index-bits 16 --features threats"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // an output that cannot be written is said before the corpus is read, not after
    // the training
    let out = train_to(&format!("{d}/no/such/dir/m.c4m"), "192", &[]);
    assert_exit(&out, 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--out: cannot write") && !err.contains("training positions"),
        "{err}"
    );
    let out = train_to(d, "192", &[]);
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("is a directory"));
    let out = train("192", &["--features", "rows"]);
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("use threats or columns"));
    // the evaluation table, reproducible from its seed
    let eval_of = |model: &str, extra: &[&str]| {
        let args = ["eval", "--model", model, "--holdout-corpus", &hold];
        c4lab(
            &[&args[..], &["--holdout-targets", &hold_t], extra].concat(),
            "",
        )
    };
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
    let bench = stdout(&c4lab(
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
    ));
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
    // the model's hint: one line a position; a bad one is named and the rest answered
    let out = c4lab(
        &["hint", "--model", &model, "4453", "44444444", "112233"],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    let lines: Vec<String> = stdout(&out).lines().map(String::from).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("4453 ") && lines[1] == "112233 4",
        "{lines:?}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("\"44444444\": move 7"));
    // `-` is the empty board, printed as `-` so the first field is never blank
    let out = c4lab(&["hint", "--model", &model, "-"], "");
    assert_exit(&out, 0);
    let line = stdout(&out);
    assert!(
        line.starts_with("- ") && line.trim_end().len() == 3,
        "{line}"
    );
    // an argument with stray whitespace (a line pasted from a file) still gives JSON
    let json = stdout(&c4lab(&["hint", "--json", "--model", &model, "4453\n"], ""));
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(v["moves"], "4453");
    assert_eq!(v["scores"].as_array().unwrap().len(), 7);
    assert_eq!(lines[0], format!("4453 {}", v["column"]));
    // a full column's score is null, as in analyze --json (it was the string "full")
    let json = stdout(&c4lab(&["hint", "--json", "--model", &model, "444444"], ""));
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert!(v["scores"][3].is_null(), "{v}");
    assert!(v["scores"][0].is_i64(), "{v}");
    // the model as an opponent: it answers every move and the game is judged
    let red_args = [
        "play",
        "--opponent",
        "model",
        "--model",
        &model,
        "--you",
        "red",
    ];
    let play_red = |moves: &str| {
        c4lab(
            &[&red_args[..], &["--moves", moves, "--no-input"]].concat(),
            "",
        )
    };
    let out = play_red("1111");
    let text = stdout(&out);
    assert!(text.matches("the model plays").count() >= 3, "{text}");
    assert!(text.contains("you play 1\n"), "{text}");
    assert!(matches!(out.status.code(), Some(0 | 1)), "{text}");
    // a bad --moves entry is refused by its place, as in the diagram game
    let out = play_red("4x9");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("--moves, move 2: 'x' is not a column; write columns as digits 1-7"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // `u` takes back your last move and the model's answer, as in the diagram game
    let out = c4lab(&[&red_args[..], &["--moves", "4"]].concat(), "u\nu\nq\n");
    let text = stdout(&out);
    assert!(
        text.contains("took back your last move") && text.contains("nothing to undo"),
        "{text}"
    );
    // a script that goes on after the game is over is refused, as in the diagram game:
    // play the first column that is not full until the game ends, then one move more
    let mut script = String::new();
    'game: loop {
        for c in '1'..='7' {
            let out = play_red(&format!("{script}{c}"));
            if out.status.code() == Some(2) {
                continue; // that column is full
            }
            script.push(c);
            let text = stdout(&out);
            if text.contains(" wins\n") || text.contains("a draw") {
                break 'game;
            }
            continue 'game;
        }
        panic!("no column to play after {script}");
    }
    let out = play_red(&format!("{script}1"));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the game is over") && err.contains("no move can follow it"),
        "{err}"
    );
    let out = c4lab(&["play", "--opponent", "model"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--model FILE"));
    // bad input is named
    let out = train("5", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--ctx 5"));
    let out = eval_of(&corpus, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a c4lab model"));
    // teacher targets without the sidecar name the flag that gives it
    let out = c4lab(&["eval", "--model", &model, "--holdout-corpus", &hold], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("give --holdout-targets"));
    // a book that cannot be read leaves no half table behind
    let out = eval_of(&model, &["--book", "no-such-book.bin"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "{}", stdout(&out));
    // no position solved within the budget: no rate, rather than 0.0 %
    let out = eval_of(&model, &["--positions", "5", "--solver-nodes", "0"]);
    assert!(
        stdout(&out).contains("| optimal-move rate (strong solver, 14+ stones) | - (0 of 0;"),
        "{}",
        stdout(&out)
    );
    let out = eval_of(&model, &["--corpus-source", "moves"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("leave out --holdout-targets"));
    // several corpora: each with its sidecar, in order (one named twice counts twice)
    let count = |out: &std::process::Output| -> u64 {
        let err = String::from_utf8_lossy(&out.stderr);
        let line = err.lines().find(|l| l.contains("training positions"));
        line.and_then(|l| l.split_whitespace().next()?.parse().ok())
            .unwrap_or_else(|| panic!("no count of training positions in {err}"))
    };
    let once = count(&first_run);
    let twice = train(
        "192",
        &["--load-corpus", &corpus, "--perply-targets", &targets],
    );
    assert_exit(&twice, 0);
    assert_eq!(count(&twice), 2 * once);
    let out = train("192", &["--load-corpus", &corpus]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("2 --load-corpus but 1 --perply-targets"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // settings that would be ignored or train nothing are refused, and so is an output
    // that is an input or a checkpoint that is the model, before anything is written
    // (the last item of each row: what the message must also say, if anything)
    let before = std::fs::read(&corpus).unwrap();
    for (extra, said, also) in [
        (vec!["--lr", "inf", "--out", &model], "--lr inf", ""),
        (
            vec!["--corpus-source", "moves", "--out", &model],
            "reads no sidecar",
            "",
        ),
        (vec!["--out", corpus.as_str()], "--out", "is also an input"),
        (
            vec!["--out", &model, "--checkpoint", &targets],
            "the checkpoint",
            "is also an input",
        ),
        (
            vec!["--out", &model, "--checkpoint", &model],
            "are the same file",
            "",
        ),
        (
            vec!["--out", &model, "--checkpoint-every", "0"],
            "--checkpoint-every",
            "",
        ),
        // a file that is no model (here the dataset card) is not written over
        (
            vec!["--out", &card],
            "already holds a file that is no c4lab model",
            "",
        ),
        (
            vec!["--out", &model, "--checkpoint", &card],
            "already holds a file that is no c4lab checkpoint",
            "",
        ),
        // a step size that makes the weights blow up stops the run before a checkpoint
        // of NaN weights is written
        (
            vec!["--out", &diverging, "--lr", "1e38", "--steps", "1000"],
            "training diverged",
            "no checkpoint was written: train again with a lower --lr (now 1e38)",
        ),
        // a loss weight raised far from its default is named beside the step size (the
        // step size alone was blamed)
        (
            vec!["--out", &diverging, "--soft-w", "1e38", "--steps", "50"],
            "training diverged",
            "with a lower --lr (now 0.5) or a lower --soft-w (now 1e38)",
        ),
        // a device as --out leaves the checkpoint nowhere to go by default
        (
            vec!["--out", "/dev/null"],
            "--out /dev/null is no regular file",
            "name one with --checkpoint",
        ),
        // a batch no run could finish is refused (it ran silently, for weeks a step)
        (
            vec!["--out", &diverging, "--batch", "1000000000000"],
            "1..=1048576",
            "",
        ),
    ] {
        let mut args = vec![
            "train",
            "--load-corpus",
            &corpus,
            "--perply-targets",
            &targets,
        ];
        args.extend_from_slice(&extra);
        let out = c4lab(&args, "");
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(said) && err.contains(also), "{extra:?}: {err}");
    }
    assert_eq!(std::fs::read(&corpus).unwrap(), before);
    // a file larger than any model is refused without being read
    let huge = format!("{d}/huge.c4m");
    let f = std::fs::File::create(&huge).unwrap();
    f.set_len(1 << 40).unwrap();
    let out = c4lab(&["hint", "--model", &huge, "4"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("larger than any model"));
    // relabelling into the folder it reads from is refused before any solving, and the
    // corpus is left whole (it used to be emptied)
    let before = std::fs::read(&hold).unwrap();
    // and a training corpus is not relabelled over the holdout folder's corpus
    let into_holdout = format!("{d}/holdout");
    for (args, said) in [
        (
            vec![hold.as_str(), "--teacher", "exact"],
            "written over while it is read",
        ),
        (
            vec![corpus.as_str(), "--rows", "3"],
            "already holds a corpus",
        ),
        // the one teacher a relabel takes is the only one its help offers (alphabeta
        // was offered, then refused)
        (
            vec![corpus.as_str(), "--teacher", "alphabeta"],
            "[possible values: exact]",
        ),
    ] {
        let mut full = vec!["corpus", "label"];
        full.extend(&args);
        full.extend(["--out", into_holdout.as_str()]);
        let out = c4lab(&full, "");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(said), "{args:?}: {err}");
        assert_eq!(std::fs::read(&hold).unwrap(), before);
    }
    // a folder that cannot be made is named before the relabel (it used to be named
    // after it, the whole table printed and the labels lost)
    let under_file = format!("{hold}/relabelled");
    let out = c4lab(
        &[
            "corpus",
            "label",
            &corpus,
            "--rows",
            "3",
            "--out",
            &under_file,
        ],
        "",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("cannot create") && err.contains(&under_file),
        "{err}"
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "",
        "no table before the error"
    );
    // a corpus shorter than its sidecar is refused before any row is solved, and so is
    // a sidecar of another corpus with as many rows (it was relabelled, and measured
    // by overlap, as if it fitted): the gate runs on what they read
    let first_rows = |path: &str, n: usize| -> Vec<u8> {
        let all = std::fs::read(path).unwrap();
        let rows = all.split_inclusive(|&b| b == b'\n').take(n);
        rows.flatten().copied().collect()
    };
    let short = format!("{d}/short.txt");
    std::fs::write(&short, first_rows(&hold, 10)).unwrap();
    let foreign = format!("{d}/foreign.txt");
    let gated = format!("{d}/gated.c4m");
    std::fs::write(&foreign, first_rows(&corpus, 60)).unwrap();
    for (args, said) in [
        (
            vec!["corpus", "label", &short, &hold_t, "--teacher", "exact"],
            "the sidecar has 60 rows, the corpus 10",
        ),
        (
            vec!["corpus", "label", &foreign, &hold_t],
            "among them ply-of",
        ),
        (
            vec![
                "corpus",
                "overlap",
                &corpus,
                &foreign,
                "--b-targets",
                &hold_t,
            ],
            "among them ply-of",
        ),
        (
            vec![
                "train",
                "--load-corpus",
                &foreign,
                "--perply-targets",
                &hold_t,
                "--steps",
                "10",
                "--out",
                &gated,
            ],
            "among them ply-of",
        ),
        (
            vec![
                "eval",
                "--holdout-corpus",
                &foreign,
                "--holdout-targets",
                &hold_t,
                "--model",
                &model,
                "--games",
                "0",
            ],
            "among them ply-of",
        ),
    ] {
        let out = c4lab(&args, "");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        let named = args[2..]
            .iter()
            .find(|a| a.ends_with(".txt") && *a != &corpus);
        assert!(
            err.contains("fails the integrity gate") && err.contains(said),
            "{args:?}: {err}"
        );
        assert!(err.contains(named.unwrap()), "{args:?}: {err}");
    }
    assert!(
        !std::path::Path::new(&gated).exists(),
        "a model trained on a foreign sidecar"
    );
    // a sample no holdout position can fill is said, not a row left out
    let none = c4lab(
        &[
            "eval",
            "--holdout-corpus",
            &hold,
            "--holdout-targets",
            &hold_t,
            "--model",
            &model,
            "--games",
            "0",
            "--min-stones",
            "43",
        ],
        "",
    );
    assert_exit(&none, 0);
    assert!(
        stdout(&none).contains("no holdout position has 43 stones or more"),
        "{}",
        stdout(&none)
    );
    // a holdout that is the training corpus itself is warned about
    let memorised = format!("{d}/memorised.c4m");
    let same = c4lab(
        &[
            "train",
            "--load-corpus",
            &corpus,
            "--perply-targets",
            &targets,
            "--holdout-corpus",
            &corpus,
            "--holdout-targets",
            &targets,
            "--steps",
            "10",
            "--out",
            &memorised,
        ],
        "",
    );
    assert_exit(&same, 0);
    assert!(
        String::from_utf8_lossy(&same.stderr).contains("is also a training corpus"),
        "{}",
        String::from_utf8_lossy(&same.stderr)
    );
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
    // an option that belongs to the other opponent is refused, not ignored
    let out = c4lab(
        &[
            "play",
            "examples/win.txt",
            "--opponent",
            "model",
            "--model",
            &model,
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("leave out the diagram file"));
    let _ = std::fs::remove_dir_all(&dir);
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
    // settings no teacher can honour are refused by flag before the table (they were
    // refused after its header, by the library's setting names)
    for (flags, said) in [
        (&["--depth", "0"][..], "--depth 0 --nodes"),
        (
            &["--opening-min", "42", "--opening-max", "42"][..],
            "--opening-max 42 is past the board",
        ),
        (&["--games", "0"][..], "--games 0"),
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
