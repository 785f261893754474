//! Benchmark and corpus data named wrong: a folder that is not there, a set that is not
//! in it, a corpus folder where a corpus file goes, a flag a benchmark does not offer,
//! a grid given twice, settings of a model that is not trained.

mod common;
use common::*;

#[test]
fn a_benchmarks_data_named_wrong_is_refused_with_what_is_there() {
    let help = stdout(&c4lab(&["bench", "corpus", "--help"], ""));
    assert!(
        help.contains("--late-games") && !help.contains("--teacher"),
        "{help}"
    );
    // a benchmark's data folder that is not there: the flag to pass is named, and no
    // table header is printed first
    let out = c4lab(
        &[
            "bench",
            "solver",
            "--sets",
            "no-such-folder",
            "--only",
            "L3_R1",
        ],
        "",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("pass --sets FOLDER"), "{err}");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // a set name that is not in the folder names the sets that are, and a folder with
    // none is said to hold none (it ended on an empty list)
    let sets = std::env::temp_dir().join(format!("c4lab-sets-{}", std::process::id()));
    std::fs::create_dir_all(sets.join("train")).unwrap();
    let sets_s = sets.display().to_string();
    let out = c4lab(
        &["bench", "solver", "--sets", &sets_s, "--only", "L0_R0"],
        "",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("it holds no .txt file"), "{err}");
    std::fs::write(sets.join("L9_R9.txt"), "").unwrap();
    let out = c4lab(
        &["bench", "solver", "--sets", &sets_s, "--only", "L0_R0"],
        "",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("no set \"L0_R0\"") && err.contains("L9_R9"),
        "{err}"
    );
    // a corpus folder given where a corpus file goes: the files inside are named
    std::fs::write(sets.join("train/corpus_4.txt"), "").unwrap();
    let out = c4lab(&["corpus", "stats", &sets_s], "");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("is a folder") && err.contains("corpus_4.txt"),
        "{err}"
    );
    std::fs::remove_dir_all(&sets).ok();
}

#[test]
fn a_grid_given_twice_and_training_settings_beside_a_model_are_refused() {
    // the same grid twice ran twice and counted twice in the summary's median, under
    // one name or two
    let copy = std::env::temp_dir().join(format!("c4lab-twice-{}.txt", std::process::id()));
    std::fs::copy(repo().join("examples/complete.txt"), &copy).unwrap();
    let copy_s = copy.display().to_string();
    for (grids, said) in [
        (
            ["examples/complete.txt", "examples/complete.txt"],
            "--grids names examples/complete.txt twice: it would run twice and count twice in the median; give each grid once".to_string(),
        ),
        (
            ["examples/complete.txt", copy_s.as_str()],
            format!("--grids examples/complete.txt and {copy_s} hold the same grid"),
        ),
    ] {
        let out = c4lab(&[&["bench", "dsat", "--grids"][..], &grids].concat(), "");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{grids:?}: {err}");
        assert!(err.contains(&said), "{grids:?}: {err}");
        // refused before the first root runs
        assert_eq!(stdout(&out), "", "{grids:?}");
    }
    std::fs::remove_file(&copy).ok();
    // an exported model is timed as it is: what would shape one trained here was
    // accepted and ignored
    for flag in [
        ["--steps", "10"],
        ["--index-bits", "18"],
        ["--features", "columns"],
    ] {
        let out = c4lab(
            &[
                &["bench", "model", "--corpus", "examples", "--model", "m.c4m"][..],
                &flag,
            ]
            .concat(),
            "",
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag:?}: {err}");
        assert!(
            err.contains("'--model <MODEL>' cannot be used with")
                && err.contains(&format!("{} <", flag[0])),
            "{flag:?}: {err}"
        );
    }
}

#[test]
fn a_corpus_of_no_games_fails_the_gate_and_is_not_generated() {
    let d = std::env::temp_dir().join(format!("c4lab-no-games-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    // a corpus truncated to nothing passed the integrity gate as "clean"
    let empty = d.join("corpus.txt");
    std::fs::write(&empty, "").unwrap();
    let e = empty.to_str().unwrap();
    let out = c4lab(&["corpus", "check", e, "--no-targets"], "");
    assert_exit(&out, 1);
    let text = stdout(&out);
    assert!(
        text.contains("no-games") && text.contains("holds no rows"),
        "{text}"
    );
    let out = c4lab(&["corpus", "check", e, "--no-targets", "--json"], "");
    assert_exit(&out, 1);
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["clean"], false, "{j}");
    // nor is a dataset of no training games written (it was, gated "clean" and
    // checksummed)
    let out_dir = d.join("out");
    let o = out_dir.to_str().unwrap();
    // (the run's folder and no holdout: only the games and the shard vary)
    let generate = |extra: &[&str]| {
        let args = ["corpus", "generate", "--out", o, "--holdout", "0"];
        c4lab(&[&args[..], extra].concat(), "")
    };
    let out = generate(&["--games", "0"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("games is 0: a dataset needs at least one training game"),
        "{err}"
    );
    assert!(!out_dir.exists(), "made {o}");
    // a shard of an empty block of games (more shards than games) is still made: merge
    // takes it
    let out = generate(&["--games", "2", "--shard", "0/3"]);
    assert_exit(&out, 0);
    assert!(
        stdout(&out).contains("shard 0/3: 0 games"),
        "{}",
        stdout(&out)
    );
    std::fs::remove_dir_all(&d).ok();
}
