//! `c4lab train` as a script would use it, each test on a corpus generated for it (eval
//! and bench model: eval.rs; the model's moves: hint.rs).

mod common;
use common::*;

#[test]
fn training_is_reproducible_and_resumes_only_the_same_run() {
    let g = Generated::new("resume");
    let d = g.d.as_str();
    let (_, _, hold, hold_t) = g.paths();
    let model = format!("{d}/m.c4m");
    let train = |ctx: &str, extra: &[&str]| g.train_to(&model, ctx, extra);
    let first_run = train("192", &[]);
    assert_exit(&first_run, 0);
    let text = stdout(&first_run);
    assert!(
        text.contains("trained 2000 steps") && text.contains("holdout agreement"),
        "{text}"
    );
    let first = std::fs::read(&model).unwrap();
    // a run stopped halfway and resumed makes the same model, and says the same loss
    // of it (the running mean, which starts afresh on resuming, is named as such)
    let half = format!("{d}/half.c4m");
    assert_exit(&g.train_to(&half, "192", &["--steps", "1000"]), 0);
    let resumed = g.train_to(&half, "192", &["--resume"]);
    assert_exit(&resumed, 0);
    assert_eq!(std::fs::read(&half).unwrap(), first);
    let loss_of = |said: &str| {
        let at = said.find("; loss ").expect(said) + 7;
        said[at..].split(" (").next().unwrap().to_string()
    };
    let resumed = stdout(&resumed);
    assert!(
        resumed.contains(" training positions (the running mean of the steps since step 1000: "),
        "{resumed}"
    );
    assert_eq!(loss_of(&resumed), loss_of(&text), "{resumed}\n{text}");
    // a fresh run over the checkpoint is refused unless asked for (a forgotten --resume
    // wrote over a long run's); the same seed gives the same model; resuming a
    // finished run to more steps works
    let out = train("192", &[]);
    assert_exit(&out, 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(".ckpt holds a run, which this fresh run would write over: pass --resume to go on with it, or --overwrite"), "{err}");
    assert_eq!(train("192", &["--overwrite"]).status.code(), Some(0));
    assert_eq!(std::fs::read(&model).unwrap(), first);
    let out = train("192", &["--resume"]);
    assert_exit(&out, 0);
    let said = stdout(&out);
    assert!(
        said.contains("trained 2000 steps (resumed at step 2000)")
            && said.contains(" training positions (no step left to run, so no running mean)"),
        "{said}"
    );
    assert_eq!(loss_of(&said), loss_of(&text), "{said}\n{text}");
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
            &TRAIN_SETTINGS[..],
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
}

#[test]
fn the_column_windows_make_a_smaller_model_that_resumes_only_as_itself() {
    let g = Generated::new("columns");
    let d = g.d.as_str();
    let model = g.model();
    let train_to = |out: &str, ctx: &str, extra: &[&str]| g.train_to(out, ctx, extra);
    let train = |ctx: &str, extra: &[&str]| g.train_to(&model, ctx, extra);
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
}

#[test]
fn an_output_that_cannot_be_written_is_named_before_training() {
    let g = Generated::new("unwritable");
    let d = g.d.as_str();
    let model = format!("{d}/m.c4m");
    let train_to = |out: &str, ctx: &str, extra: &[&str]| g.train_to(out, ctx, extra);
    let train = |ctx: &str, extra: &[&str]| g.train_to(&model, ctx, extra);
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
    assert!(String::from_utf8_lossy(&out.stderr).contains("is a folder; name a file to write"));
    let out = train("192", &["--features", "rows"]);
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("use threats or columns"));
}

#[test]
fn eval_and_train_name_bad_input() {
    let g = Generated::new("bad-input");
    let (corpus, _, hold, _) = g.paths();
    let model = g.model();
    let train = |ctx: &str, extra: &[&str]| g.train_to(&model, ctx, extra);
    let eval_of = |model: &str, extra: &[&str]| g.eval_of(model, extra);
    // the played moves alone still pass the transcript's rules: a corpus cut inside
    // its last row, or with a blank row, was trained on and scored as if whole
    let text = std::fs::read(&corpus).unwrap();
    let cut = format!("{}/cut.txt", g.d);
    std::fs::write(&cut, &text[..text.len() - 21]).unwrap();
    let blank = format!("{}/blank.txt", g.d);
    let at = text.iter().position(|&b| b == b'\n').unwrap() + 1;
    std::fs::write(&blank, [&text[..at], b"\n", &text[at..]].concat()).unwrap();
    for (file, said) in [(&cut, "final-newline"), (&blank, "empty-row: row 1")] {
        let moves = ["--corpus-source", "moves"];
        let out = c4lab(
            &[
                &[
                    "train",
                    "--load-corpus",
                    file,
                    "--steps",
                    "10",
                    "--out",
                    &model,
                    "--overwrite",
                ],
                &moves[..],
            ]
            .concat(),
            "",
        );
        let refused = |out: &Output| {
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{file}: {err}");
            assert!(
                err.contains(&format!(
                    "{file} fails the integrity gate's transcript rules"
                )) && err.contains(said)
                    && err.contains("corpus check --no-targets"),
                "{file}: {err}"
            );
        };
        refused(&out);
        let args = [
            "eval",
            "--model",
            &model,
            "--holdout-corpus",
            file,
            "--games",
            "0",
        ];
        refused(&c4lab(&[&args[..], &moves[..]].concat(), ""));
    }
    // bad input is named
    let out = train("5", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--ctx 5"));
    let out = eval_of(&corpus, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a c4lab model"));
    // teacher targets with no sidecar (none beside the holdout) name the flag that
    // gives it
    let alone = format!("{}/alone.txt", g.d);
    std::fs::copy(&hold, &alone).unwrap();
    let out = c4lab(&["eval", "--model", &model, "--holdout-corpus", &alone], "");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no perply_targets.npz is beside --holdout-corpus: give --holdout-targets"),
        "{err}"
    );
    // a book that cannot be read leaves no half table behind
    let out = eval_of(&model, &["--book", "no-such-book.bin"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "{}", stdout(&out));
    // no position solved within the budget: no rate, rather than 0.0 %
    // (one node settles a few positions near the end of a game: this one is not such)
    let out = eval_of(&model, &["--positions", "1", "--solver-nodes", "1"]);
    assert!(
        stdout(&out).contains("| optimal-move rate (strong solver, 14+ stones) | - (0 of 0;"),
        "{}",
        stdout(&out)
    );
    // a rate that leaves out many positions is said to (it read 100 % on the few easy
    // ones solved)
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("note: 1 of 1 sampled positions ran past --solver-nodes 1 and are left out of the optimal-move rate"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // a budget of none would judge nothing, and said so only as rows of dashes
    let out = eval_of(&model, &["--positions", "5", "--solver-nodes", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--solver-nodes")
            && String::from_utf8_lossy(&out.stderr).contains("expected a whole number from 1"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = eval_of(&model, &["--corpus-source", "moves"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("leave out --holdout-targets"));
}

#[test]
fn several_corpora_train_in_order_each_with_its_sidecar() {
    let g = Generated::new("several");
    let d = g.d.as_str();
    let (corpus, targets, _, _) = g.paths();
    let model = format!("{d}/m.c4m");
    let first_run = g.train_to(&model, "192", &[]);
    assert_exit(&first_run, 0);
    // (each run afresh over the last one's checkpoint)
    let train =
        |ctx: &str, extra: &[&str]| g.train_to(&model, ctx, &[extra, &["--overwrite"]].concat());
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
}

#[test]
fn train_refuses_settings_that_would_be_ignored_before_writing() {
    let g = Generated::new("refused-settings");
    let d = g.d.as_str();
    let (corpus, targets, _, _) = g.paths();
    let model = format!("{d}/m.c4m");
    let diverging = format!("{d}/diverging.c4m");
    let card = format!("{d}/README.md");
    let card_before = std::fs::read(&card).unwrap();
    // settings that would be ignored or train nothing are refused, and so is an output
    // that is an input or a checkpoint that is the model, before anything is written
    // (the last item of each row: what the message must also say, if anything)
    let before = std::fs::read(&corpus).unwrap();
    for (extra, said, also) in [
        (vec!["--lr", "inf", "--out", &model], "--lr inf", ""),
        // a number a 32-bit float cannot hold is named as given (it said "--lr inf" for
        // 1e39 and "--lr 0 is not a positive step size" for 1e-50)
        (
            vec!["--lr", "1e39", "--out", &model],
            "1e39 is larger than a 32-bit float holds",
            "--lr",
        ),
        (
            vec!["--lr", "1e-50", "--out", &model],
            "1e-50 is nearer 0 than a 32-bit float holds",
            "--lr",
        ),
        (
            vec!["--soft-w", "1e308", "--out", &model],
            "1e308 is larger than a 32-bit float holds",
            "--soft-w",
        ),
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
        // no teacher loss and a played-move loss that starts after the last step: an
        // all-zero model was written, with a loss of 0.000
        (
            vec![
                "--out",
                &model,
                "--soft-w",
                "0",
                "--hard-start",
                "1000",
                "--steps",
                "500",
            ],
            "has no weight yet at the last of --steps 500, so no step would learn anything",
            "lower --hard-start or give --soft-w a positive weight",
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
            "expected a whole number from 1 to 1048576",
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
    // standard output redirected to a file (`--out /dev/stdout > m.c4m`) is no place to
    // put a checkpoint beside either: it went to /dev as /dev/stdout.ckpt
    let redirected = format!("{d}/stdout.c4m");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_c4lab"))
        .args([
            "train",
            "--load-corpus",
            &corpus,
            "--perply-targets",
            &targets,
        ])
        .args(["--out", "/dev/stdout", "--steps", "2"])
        .stdout(std::fs::File::create(&redirected).unwrap())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--out /dev/stdout is standard output") && err.contains("--checkpoint"),
        "{err}"
    );
    assert_eq!(std::fs::read(&redirected).unwrap(), b"");
    assert_eq!(std::fs::read(&corpus).unwrap(), before);
    // nothing was written: no model, no checkpoint, the card as generate wrote it
    for never in [&model, &diverging] {
        for file in [never.to_string(), format!("{never}.ckpt")] {
            assert!(!std::path::Path::new(&file).exists(), "{file} was written");
        }
    }
    assert_eq!(std::fs::read(&card).unwrap(), card_before);
}

#[test]
fn a_file_larger_than_any_model_is_refused_unread() {
    let g = Generated::new("huge");
    let d = g.d.as_str();
    // a file larger than any model is refused without being read
    let huge = format!("{d}/huge.c4m");
    let f = std::fs::File::create(&huge).unwrap();
    f.set_len(1 << 40).unwrap();
    let out = c4lab(&["hint", "--model", &huge, "4"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("larger than any model"));
    // a device that never ends is read no further than its first bytes (it was read to
    // the size limit, 379 MB, before the magic was looked at)
    #[cfg(unix)]
    for (args, said) in [
        (
            &["hint", "--model", "/dev/zero", "4"][..],
            "/dev/zero: not a c4lab model: it does not start with the c4lab model magic",
        ),
        (
            &["analyze", "--book", "/dev/zero", "4"][..],
            "/dev/zero: not a c4lab opening book",
        ),
    ] {
        let out = c4lab(args, "");
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(said), "{err}");
    }
}

#[test]
fn a_holdout_that_is_the_training_corpus_is_warned_about() {
    let g = Generated::new("memorised");
    let d = g.d.as_str();
    let (corpus, targets, _, _) = g.paths();
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
}

#[test]
fn a_run_that_leaves_the_model_worse_is_warned_about() {
    let g = Generated::new("overshoot");
    let d = g.d.as_str();
    let (corpus, targets, _, _) = g.paths();
    // a step size so large that the loss stays finite but the model ends worse than it
    // started (it trained to a useless model without a word); the default does not warn
    let run_with = |lr: &str, steps: &str, out: &str| {
        c4lab(
            &[
                "train",
                "--load-corpus",
                &corpus,
                "--perply-targets",
                &targets,
                "--steps",
                steps,
                "--lr",
                lr,
                "--out",
                out,
            ],
            "",
        )
    };
    // steps too small to move a weight leave the model as it was: warned of (it said
    // "trained" and no more), and a step below f32's normal range refused outright
    let still = run_with("1e-30", "200", &format!("{d}/still.c4m"));
    assert_exit(&still, 0);
    let err = String::from_utf8_lossy(&still.stderr);
    assert!(
        err.contains("warning: the run left the model as it was: its loss on ")
            && err.contains("train again with a larger --lr (now 1e-30)"),
        "{err}"
    );
    let tiny = run_with("1e-45", "200", &format!("{d}/tiny.c4m"));
    assert_eq!(tiny.status.code(), Some(2));
    let err = String::from_utf8_lossy(&tiny.stderr);
    assert!(err.contains("--lr 1e-45 is below 1.1754944e-38"), "{err}");
    for (lr, warned) in [("1e30", true), ("0.5", false)] {
        let run = run_with(lr, "1000", &format!("{d}/lr{lr}.c4m"));
        assert_exit(&run, 0);
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(!err.contains("as it was"), "--lr {lr}: {err}");
        assert_eq!(
            err.contains("warning: the run left the model worse than it started")
                && err.contains(&format!("a lower --lr (now {lr})")),
            warned,
            "--lr {lr}: {err}"
        );
    }
}
