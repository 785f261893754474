//! Benchmark and corpus data named wrong: a folder that is not there, a set that is not
//! in it, a corpus folder where a corpus file goes, a flag a benchmark does not offer.

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
