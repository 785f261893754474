//! The corpus commands' inputs as a script meets them: a sidecar missing or of another
//! corpus, and what `corpus label` reads, writes and says.

mod common;
use common::*;

#[test]
fn a_sidecar_that_is_missing_or_does_not_fit_is_named() {
    let g = Generated::new("sidecar");
    let d = g.d.as_str();
    let (corpus, targets, _, _) = g.paths();
    // a corpus without its sidecar is no pass (a stopped run leaves one so), unless the
    // transcript alone is asked for
    let lone = format!("{d}/lone.txt");
    std::fs::copy(&corpus, &lone).unwrap();
    let out = c4lab(&["corpus", "check", &lone], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--no-targets"));
    assert_exit(&c4lab(&["corpus", "check", "--no-targets", &lone], ""), 0);
    // its JSON is one line, as every command's (it was pretty-printed over many)
    let json = stdout(&c4lab(
        &["corpus", "check", "--json", &corpus, &targets],
        "",
    ));
    assert_eq!(json.lines().count(), 1, "{json}");
    let j: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(j["clean"], true, "{j}");
    // rows with no labelled slot are counted where a sidecar was read, null without one
    assert_eq!(j["unlabelled_rows"], 0, "{j}");
    let lone_json = stdout(&c4lab(
        &["corpus", "check", "--json", "--no-targets", &lone],
        "",
    ));
    let lone_json: serde_json::Value = serde_json::from_str(&lone_json).unwrap();
    assert!(lone_json["unlabelled_rows"].is_null(), "{lone_json}");
    // a sidecar named but not there is said to be missing, not a gate violation (it
    // read "fails the integrity gate (1 violation, among them sidecar-format: ...")
    let absent = format!("{d}/absent.npz");
    for args in [
        vec!["corpus", "stats", &corpus, &absent],
        vec![
            "corpus",
            "split",
            &corpus,
            &absent,
            "--holdout",
            "5",
            "--out",
            d,
        ],
        vec![
            "train",
            "--load-corpus",
            &corpus,
            "--perply-targets",
            &absent,
        ],
    ] {
        let out = c4lab(&args, "");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(&format!("no sidecar {absent}: the file is not there"))
                && !err.contains("integrity gate"),
            "{args:?}: {err}"
        );
    }
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
    // a folder named as the sidecar is said to be one (it read "Invalid argument"), an
    // input that cannot be read, exit 2 as for a corpus (it was a sidecar-format
    // violation, exit 1, with a report)
    let folder = c4lab(&["corpus", "check", &corpus, &format!("{d}/train")], "");
    assert_eq!(folder.status.code(), Some(2));
    assert_eq!(stdout(&folder), "", "no report");
    let said = String::from_utf8_lossy(&folder.stderr);
    assert!(said.contains("a folder, not an .npz file"), "{said}");
    // a corpus from a pipe is refused by the commands that read it twice (the second
    // read found it empty: "has 0 rows but its sidecar ... has 300"); check reads it once
    let piped = std::fs::read(&corpus).unwrap();
    let out = c4lab(&["corpus", "stats", "/dev/stdin", &targets], &piped);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("/dev/stdin is not a regular file (a pipe or a device): this command reads the corpus twice"),
        "{err}"
    );
    assert_exit(
        &c4lab(&["corpus", "check", "/dev/stdin", &targets], &piped),
        0,
    );
    // a sidecar from a pipe cannot be read (its zip directory is at its end) and says
    // so (it was a bare "Illegal seek (os error 29)")
    let sidecar = std::fs::read(&targets).unwrap();
    let out = c4lab(&["corpus", "check", &corpus, "/dev/stdin"], &sidecar);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("/dev/stdin: not a regular file (a pipe or a device): an .npz is read from its directory at the end"),
        "{err}"
    );
    // nor is a named pipe no program writes to opened (the open waited for a writer)
    #[cfg(unix)]
    {
        let fifo = format!("{}.fifo", lone);
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        let out = c4lab(&["corpus", "check", &corpus, &fifo], "");
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("fifo: not a regular file (a pipe or a device)"),
            "{err}"
        );
        std::fs::remove_file(&fifo).unwrap();
    }
    std::fs::remove_file(&lone).unwrap();
}

#[test]
fn a_sidecar_of_another_corpus_fails_the_integrity_gate_everywhere() {
    let g = Generated::new("gate");
    let d = g.d.as_str();
    let (corpus, _, hold, hold_t) = g.paths();
    let model = g.model();
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
}

#[test]
fn relabelling_never_writes_over_what_it_reads() {
    let g = Generated::new("relabel");
    let d = g.d.as_str();
    let (corpus, _, hold, _) = g.paths();
    // relabelling into the folder it reads from is refused before any solving, and the
    // corpus is left whole (it used to be emptied)
    let before = std::fs::read(&hold).unwrap();
    // and a training corpus is not relabelled over the holdout folder's corpus (a
    // folder of a finished dataset)
    let into_holdout = format!("{d}/holdout");
    for (args, said) in [
        (
            vec![hold.as_str(), "--teacher", "exact"],
            "written over while it is read",
        ),
        (
            vec![corpus.as_str(), "--rows", "3"],
            "holds a finished dataset",
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
    // (a file beside the dataset: inside it the relabel is refused as a dataset's)
    let file = format!("{d}-file");
    std::fs::write(&file, "").unwrap();
    let under_file = format!("{file}/relabelled");
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
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn a_relabelled_corpus_comes_with_its_checksums_in_a_folder_of_its_own() {
    let g = Generated::new("label-sums");
    let out_dir = format!("{}-relabelled", g.d);
    // refused with exit 2 and `said`, before the relabel (no table printed)
    let refused = |args: &[&str], said: &str| {
        let out = c4lab(args, "");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(said), "{args:?}: {err}");
        assert_eq!(stdout(&out), "", "no table before the error");
    };
    let label_into = |dir: &str, said: &str| {
        refused(
            &["corpus", "label", &g.corpus, "--rows", "2", "--out", dir],
            said,
        )
    };
    // a file of the user's in the folder would be listed by the checksums: refused,
    // naming it
    std::fs::create_dir_all(&out_dir).unwrap();
    let notes = format!("{out_dir}/notes.txt");
    std::fs::write(&notes, "mine").unwrap();
    label_into(
        &out_dir,
        "holds 1 file that a relabelled corpus would not write (notes.txt)",
    );
    std::fs::remove_file(&notes).unwrap();
    let args = [
        "corpus", "label", &g.corpus, "--rows", "2", "--out", &out_dir,
    ];
    assert_exit(&c4lab(&args, ""), 0);
    let sums = std::fs::read_to_string(format!("{out_dir}/SHA256SUMS")).unwrap();
    let named: Vec<&str> = sums.lines().filter_map(|l| l.split("  ").nth(1)).collect();
    assert_eq!(named, ["corpus.txt", "perply_targets.npz"], "{sums}");
    let out = c4lab(&["corpus", "verify-sums", &out_dir], "");
    assert_exit(&out, 0);
    assert_eq!(
        stdout(&out),
        "corpus.txt: OK\nperply_targets.npz: OK\n",
        "the relabelled files verify"
    );
    // and they are a finished dataset: a relabel into a folder inside would break them
    label_into(
        &format!("{out_dir}/again/deeper"),
        &format!("(inside {out_dir}) holds a finished dataset"),
    );
    // (and no folder is left in it)
    assert!(!std::path::Path::new(&format!("{out_dir}/again")).exists());
    // nor through a link to a folder in it (the path as given led inside unseen)
    #[cfg(unix)]
    {
        let link = format!("{out_dir}-link");
        std::fs::create_dir(format!("{out_dir}/sub")).unwrap();
        std::os::unix::fs::symlink(format!("{out_dir}/sub"), &link).unwrap();
        label_into(&format!("{link}/again"), "holds a finished dataset");
        std::fs::remove_file(&link).unwrap();
    }
    std::fs::remove_dir_all(&out_dir).unwrap();
    // refused before the relabel too: an input under the name of an output's part file
    // (it was cut short as it was read, and the run ended well), a folder where the
    // checksums go, and a folder another run holds (its files, in place, were taken for
    // a corpus there)
    std::fs::create_dir_all(&out_dir).unwrap();
    let part = format!("{out_dir}/corpus.txt.part");
    std::fs::copy(&g.corpus, &part).unwrap();
    let (_, targets, _, _) = g.paths();
    refused(
        &["corpus", "label", &part, &targets, "--out", &out_dir],
        "corpus.txt.part would be written over while it is read",
    );
    std::fs::remove_file(&part).unwrap();
    std::fs::create_dir(format!("{out_dir}/SHA256SUMS")).unwrap();
    label_into(&out_dir, "SHA256SUMS is no regular file");
    std::fs::remove_dir(format!("{out_dir}/SHA256SUMS")).unwrap();
    std::fs::write(format!("{out_dir}/corpus.txt"), "").unwrap();
    let folder = std::fs::File::open(&out_dir).unwrap();
    folder.try_lock().unwrap();
    label_into(&out_dir, "is being written by another run");
    drop(folder);
    label_into(&out_dir, "already holds a corpus");
    std::fs::remove_dir_all(&out_dir).unwrap();
}

#[test]
fn a_relabel_says_what_became_of_the_slots_it_did_not_solve() {
    // (with --keep-early they were said to be "skipped", though kept)
    let g = Generated::new("label-early");
    let d = g.d.as_str();
    for (flag, said) in [
        (
            Some("--keep-early"),
            "were not solved: they keep their original labels.",
        ),
        (None, "were not solved: they are left empty."),
    ] {
        // (beside the dataset: inside it the relabel is refused)
        let out_dir = format!("{d}-relabelled-{}", flag.is_some());
        let mut args = vec![
            "corpus",
            "label",
            &g.corpus,
            "--rows",
            "2",
            "--min-stones",
            "12",
        ];
        args.extend(flag);
        args.extend(["--out", &out_dir]);
        let out = c4lab(&args, "");
        assert_exit(&out, 0);
        let text = stdout(&out);
        assert!(
            text.contains("labelled slots with too few stones") && text.contains(said),
            "{text}"
        );
        std::fs::remove_dir_all(&out_dir).unwrap();
    }
}

#[test]
fn train_and_eval_read_the_sidecar_beside_each_corpus() {
    // with no sidecar named, each corpus's own beside it is read, as `corpus check`
    // reads it (it was "1 --load-corpus but 0 --perply-targets"); eval's holdout too
    let g = Generated::new("beside");
    let d = g.d.as_str();
    let (corpus, _, hold, _) = g.paths();
    let model = format!("{d}/bare.c4m");
    let train = |extra: &[&str]| {
        let args = ["train", "--steps", "10", "--out", &model, "--overwrite"];
        c4lab(&[&args[..], extra].concat(), "")
    };
    let out = train(&["--load-corpus", &corpus, "--holdout-corpus", &hold]);
    assert_exit(&out, 0);
    let args = [
        "eval",
        "--model",
        &model,
        "--holdout-corpus",
        &hold,
        "--positions",
        "5",
    ];
    assert_exit(&c4lab(&[&args[..], &["--games", "0"]].concat(), ""), 0);
    // one corpus named twice is one corpus: its sidecar serves both
    assert_exit(
        &train(&["--load-corpus", &corpus, "--load-corpus", &corpus]),
        0,
    );
    // two corpora of one folder, or a holdout beside the training corpus, share no
    // sidecar; a folder is named as one
    let other = format!("{d}/train/other.txt");
    std::fs::copy(&corpus, &other).unwrap();
    for (extra, said) in [
        (
            vec!["--load-corpus", &corpus, "--load-corpus", &other],
            "share their folder's perply_targets.npz: give each its own with --perply-targets",
        ),
        (
            vec!["--load-corpus", &corpus, "--holdout-corpus", &other],
            "shares its folder's perply_targets.npz with --load-corpus",
        ),
        (vec!["--load-corpus", d], "is a folder; give a corpus file"),
    ] {
        let out = train(&extra);
        assert_exit(&out, 2);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(said), "{extra:?}: {err}");
    }
}

#[test]
fn merge_takes_the_exact_teachers_book_and_table_which_shard_txt_leaves_out() {
    // an exact-teacher merge built its holdout with no book and the smallest table
    // (shard.txt does not hold them): it takes them as generate does, the same files
    let dir = std::env::temp_dir().join(format!("c4lab-merge-book-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let d = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let book = d("book.bin");
    let root = c4lab_board::Position::new();
    std::fs::write(
        &book,
        c4lab_solver::Book::from_scores([(root, 1)]).to_bytes(),
    )
    .unwrap();
    // (exact self-play from 24-26 random plies: cheap solves)
    let exact = [
        "--teacher",
        "exact",
        "--opening-min",
        "24",
        "--opening-max",
        "26",
    ];
    let run = |extra: &[&str], out: &str| {
        let args = [
            "corpus",
            "generate",
            "--games",
            "2",
            "--holdout",
            "1",
            "--seed",
            "3",
        ];
        let out = c4lab(
            &[&args[..], extra, &["--table-mb", "16", "--out", out]].concat(),
            "",
        );
        assert_exit(&out, 0);
    };
    run(&exact, &d("whole"));
    for i in 0..2 {
        run(
            &[&exact[..], &["--shard", &format!("{i}/2")]].concat(),
            &d(&format!("s{i}")),
        );
    }
    let merge = ["corpus", "merge", &d("s0"), &d("s1"), "--table-mb", "16"];
    assert_exit(
        &c4lab(
            &[&merge[..], &["--book", &book, "--out", &d("m")]].concat(),
            "",
        ),
        0,
    );
    for file in [
        "train/corpus_2.txt",
        "train/perply_targets.npz",
        "holdout/corpus.txt",
    ] {
        let read = |top: &str| std::fs::read(dir.join(top).join(file)).unwrap();
        assert!(
            read("m") == read("whole"),
            "{file} differs from the single run's"
        );
    }
    // the alpha-beta teacher's shards never read a book: refused, as generate refuses it
    for i in 0..2 {
        run(&["--shard", &format!("{i}/2")], &d(&format!("a{i}")));
    }
    let merge = ["corpus", "merge", &d("a0"), &d("a1"), "--book", &book];
    let out = c4lab(&[&merge[..], &["--out", &d("am")]].concat(), "");
    std::fs::remove_dir_all(&dir).ok();
    assert_exit(&out, 2);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("the alpha-beta teacher, which never reads a book"),
        "{said}"
    );
}
