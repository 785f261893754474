//! Sharded generation: shards merge to the single run's files, and a merge refuses a
//! shard that was tampered with, stray, or refused by the gate or its teacher.

mod common;

use std::path::Path;

use c4lab_corpus::dataset::{generate_dataset, generate_shard, merge, DatasetConfig};
use c4lab_corpus::gate::check;
use c4lab_corpus::sidecar::{read_labels, RawArrays};
use c4lab_corpus::sums::verify_sums;
use c4lab_corpus::NoProgress;

fn same_files(a: &Path, b: &Path, rel: &str) {
    let (x, y) = (
        std::fs::read(a.join(rel)).unwrap(),
        std::fs::read(b.join(rel)).unwrap(),
    );
    assert!(
        x == y,
        "{rel} differs between {} and {}",
        a.display(),
        b.display()
    );
}

/// Rewrites the checksums a shard's shard.txt records to match its files as they are
/// now, as someone who changed the files on purpose would: what the checksums would
/// have caught must then be caught by the checks behind them.
fn reseal(shard: &Path) {
    let meta = shard.join("shard.txt");
    let text = std::fs::read_to_string(&meta).unwrap();
    let sum = |file: &str| c4lab_corpus::sums::sha256_file(&shard.join(file)).unwrap();
    let resealed: String = text
        .lines()
        .map(|l| match l.split_once('=').map(|(k, _)| k.trim()) {
            Some("corpus_sha256") => format!("corpus_sha256 = {}\n", sum("corpus.txt")),
            Some("targets_sha256") => format!("targets_sha256 = {}\n", sum("perply_targets.npz")),
            _ => format!("{l}\n"),
        })
        .collect();
    std::fs::write(&meta, resealed).unwrap();
}

/// The `n` shards of `cfg` under `root` (`shard0`, ...).
fn shards(root: &Path, cfg: &DatasetConfig, n: u64) -> Vec<std::path::PathBuf> {
    (0..n)
        .map(|i| {
            let d = root.join(format!("shard{i}"));
            std::fs::create_dir_all(&d).unwrap();
            generate_shard(cfg, i, n, &d, &NoProgress).unwrap();
            d
        })
        .collect()
}

#[test]
fn shards_merge_to_the_single_run() {
    let root = common::scratch("shards");
    let single = root.join("single");
    let cfg = common::dataset(&single, 150, 20, 11);
    let mut dirs = Vec::new();
    for i in [2u64, 0, 1] {
        let d = root.join(format!("shard{i}"));
        std::fs::create_dir_all(&d).unwrap();
        generate_shard(&cfg, i, 3, &d, &NoProgress).unwrap();
        dirs.push(d);
    }
    let merged = root.join("merged");
    let sum = merge(&dirs, &merged, &NoProgress).unwrap();
    assert!(sum.clean);
    for rel in [
        "train/corpus_150.txt",
        "train/perply_targets.npz",
        "holdout/corpus.txt",
        "holdout/perply_targets.npz",
        "README.md",
        "SHA256SUMS",
    ] {
        same_files(&single, &merged, rel);
    }
    // a missing shard is refused, named by its games, and so is one given twice (dirs
    // holds shards 2, 0 and 1)
    let e = merge(
        &[dirs[0].clone(), dirs[1].clone()],
        &root.join("bad"),
        &NoProgress,
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("the shards of games 50..100 are missing"),
        "{e}"
    );
    let e = merge(
        &[
            dirs[1].clone(),
            dirs[1].clone(),
            dirs[0].clone(),
            dirs[2].clone(),
        ],
        &root.join("bad"),
        &NoProgress,
    )
    .unwrap_err();
    assert!(e.to_string().contains("is given twice"), "{e}");
    let e = merge(&dirs[1..], &root.join("bad"), &NoProgress).unwrap_err();
    assert!(e.to_string().contains("games 100..150 are missing"), "{e}");
    // a shard of another run is refused naming the setting that differs
    let other = root.join("other");
    let mut changed = cfg.clone();
    changed.gen.epsilon = 0.25;
    std::fs::create_dir_all(&other).unwrap();
    generate_shard(&changed, 1, 3, &other, &NoProgress).unwrap();
    let e = merge(
        &[dirs[0].clone(), dirs[1].clone(), other],
        &root.join("bad"),
        &NoProgress,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("epsilon is 0.25 here"), "{e}");
    // a shard whose sidecar has another slot count than its settings is named, not merged
    // (its checksums rewritten, or they would catch the change first)
    let npz = dirs[1].join("perply_targets.npz");
    let rows = read_labels(&npz).unwrap().len();
    let slots = cfg.gen.slots + 1;
    RawArrays {
        rows,
        slots,
        target: vec![0.0; rows * slots * 7],
        ply_of: vec![-1; rows * slots],
        teacher: vec![0; rows * slots],
        n_plies: vec![0; rows],
    }
    .write(&npz)
    .unwrap();
    reseal(&dirs[1]);
    let e = merge(&dirs, &root.join("bad"), &NoProgress).unwrap_err();
    assert!(
        e.to_string().contains(&npz.display().to_string())
            && e.to_string().contains(&format!("{slots} slots a row")),
        "{e}"
    );
    // shards whose shard.txt all name a seed they were not made with are refused (they
    // were merged, and the card named the wrong seed)
    generate_shard(&cfg, 0, 3, &dirs[1], &NoProgress).unwrap();
    for d in &dirs {
        let meta = d.join("shard.txt");
        let text = std::fs::read_to_string(&meta).unwrap();
        std::fs::write(&meta, text.replace("seed = 11", "seed = 12")).unwrap();
    }
    let e = merge(&dirs, &root.join("bad"), &NoProgress).unwrap_err();
    let said = format!("{}: row 0 is not game 0", dirs[1].display());
    assert!(e.to_string().contains(&said), "{e}");
    // nothing is written before every shard is checked (an empty training file was)
    assert!(!root.join("bad/train").exists());
    // a shard's files changed after it was made fail the checksums its shard.txt
    // records; with the checksums rewritten to match, the gate still names the change
    // (two rows of unequal length)
    let meta = |d: &Path| std::fs::read_to_string(d.join("shard.txt")).unwrap();
    for d in &dirs {
        let text = meta(d).replace("seed = 12", "seed = 11");
        std::fs::write(d.join("shard.txt"), text).unwrap();
    }
    // a key given twice is refused, naming both lines (it was read as the last one)
    let kept = meta(&dirs[2]);
    std::fs::write(dirs[2].join("shard.txt"), format!("{kept}games = 151\n")).unwrap();
    let e = merge(&dirs, &root.join("bad"), &NoProgress)
        .unwrap_err()
        .to_string();
    assert!(e.contains("games is given twice (lines"), "{e}");
    // a value that is not a number is named as one, with its line (it was "no games");
    // a missing key and a teacher that is not one say so and how to mend it
    let line = kept.lines().position(|l| l.starts_with("games")).unwrap() + 1;
    let edits = [
        (
            "games = ",
            "games = many",
            format!("line {line}: games = \"many\" is not a whole number"),
        ),
        // a whole number past any count is not said to be no whole number
        (
            "games = ",
            "games = 99999999999999999999",
            format!("line {line}: games = 99999999999999999999 is larger than any count"),
        ),
        (
            "games = ",
            "gaems = 150",
            format!("line {line}: \"gaems\" is no key a shard.txt holds"),
        ),
        // a lost line: a default would stand in for the setting (it was merged, and
        // the card named settings the games were not made with)
        ("opening_max = ", "", "no opening_max line".to_string()),
        // without its checksums the shard's files could have changed unseen (it was
        // taken for a shard made before they were recorded)
        ("corpus_sha256 = ", "", "no corpus_sha256 line".to_string()),
        (
            "random_ties = ",
            "tar",
            "\"tar\" is no `key = value` line".to_string(),
        ),
        // the block of games is the one the shard's index names (an end past the run's
        // games was said as missing shards, and the index was not read at all)
        (
            "shard_index = ",
            "shard_index = banana",
            "shard_index = \"banana\" is not a whole number".to_string(),
        ),
        (
            "shard_index = ",
            "shard_index = 3",
            "shard_index 3 is not below shard_count 3".to_string(),
        ),
        (
            "end_game = ",
            "end_game = 151",
            "shard 1 of 3 holds games 50..100 of 150, where first_game and end_game say 50..151"
                .to_string(),
        ),
        (
            "shard_index = ",
            "shard_index = 0",
            "shard 0 of 3 holds games 0..50 of 150, where first_game and end_game say 50..100"
                .to_string(),
        ),
        (
            "teacher = ",
            "teacher = oracle",
            "teacher = \"oracle\" is not a teacher (alphabeta or exact)".to_string(),
        ),
    ];
    for (key, edit, said) in edits {
        let text: Vec<String> = kept
            .lines()
            .map(|l| {
                if l.starts_with(key) {
                    edit.to_string()
                } else {
                    l.to_string()
                }
            })
            .collect();
        std::fs::write(dirs[2].join("shard.txt"), text.join("\n") + "\n").unwrap();
        let e = merge(&dirs, &root.join("bad"), &NoProgress)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&said) && e.contains("generate the shard again"),
            "{e}"
        );
    }
    // bytes that are not UTF-8 are named by line and byte (the message named neither)
    let mut damaged = kept.clone().into_bytes();
    let at = kept.find("games = ").unwrap() + "games = ".len();
    damaged[at] = 0xFF;
    std::fs::write(dirs[2].join("shard.txt"), damaged).unwrap();
    let e = merge(&dirs, &root.join("bad"), &NoProgress)
        .unwrap_err()
        .to_string();
    let said = format!("line {line}, byte 9 (0xFF) is not UTF-8 text");
    assert!(
        e.contains(&said) && e.contains("generate the shard again"),
        "{e}"
    );
    std::fs::write(dirs[2].join("shard.txt"), kept).unwrap();
    let corpus = dirs[0].join("corpus.txt"); // shard 2, games 100..150
    let mut rows: Vec<Vec<u8>> = std::fs::read(&corpus)
        .unwrap()
        .split_inclusive(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect();
    let n = rows.len();
    rows.swap(n - 1, n - 2);
    std::fs::write(&corpus, rows.concat()).unwrap();
    let e = merge(&dirs, &root.join("bad"), &NoProgress).unwrap_err();
    let said = format!(
        "{}: its checksum differs from the corpus_sha256",
        corpus.display()
    );
    assert!(e.to_string().contains(&said), "{e}");
    reseal(&dirs[0]);
    let e = merge(&dirs, &root.join("bad"), &NoProgress).unwrap_err();
    let said = format!("{} with", corpus.display());
    assert!(
        e.to_string().contains(&said) && e.to_string().contains("fails the integrity gate"),
        "{e}"
    );
}

#[test]
fn a_shard_whose_last_row_was_relabelled_and_resealed_is_refused_by_playing_it_again() {
    let root = common::scratch("shards-relabel");
    let cfg = common::dataset_config(60, 0, 9);
    let dirs = shards(&root, &cfg, 2);
    // the last row of shard 1: a flag-2 slot with no immediate win and another column
    // that does not lose at once gets that column (one-hot): every gate rule passes it
    let (corpus, npz) = (
        dirs[1].join("corpus.txt"),
        dirs[1].join("perply_targets.npz"),
    );
    let mut reader = c4lab_corpus::reader::RowReader::open(&corpus).unwrap();
    let mut last = None;
    while let Some(g) = reader.next_game().unwrap() {
        last = Some(g.moves);
    }
    let moves = last.unwrap();
    let mut raw = RawArrays::read(&npz).unwrap();
    let r = raw.rows - 1;
    let relabelled = (0..raw.slots).find_map(|k| {
        let i = r * raw.slots + k;
        if raw.teacher[i] != 2 {
            return None;
        }
        let mut p = c4lab_board::Position::new();
        for &m in &moves[..raw.ply_of[i] as usize] {
            p.play(m as usize);
        }
        let t = &mut raw.target[i * 7..i * 7 + 7];
        let now = t.iter().position(|&v| v > 0.0)?;
        let safe = c4lab_solver::non_losing_moves(&p);
        let other = (0..7).find(|&x| x != now && safe & c4lab_board::column_mask(x) != 0)?;
        (p.winning_moves() == 0).then(|| {
            t.fill(0.0);
            t[other] = 1.0;
        })
    });
    assert!(relabelled.is_some(), "no slot to relabel in the last row");
    raw.write(&npz).unwrap();
    reseal(&dirs[1]);
    assert!(check(&corpus, Some(&npz)).unwrap().is_clean());
    let e = merge(&dirs, &root.join("bad"), &NoProgress).unwrap_err();
    assert!(
        e.to_string().contains(&format!("row {r} is not game 59")),
        "{e}"
    );
}

#[test]
fn an_empty_shard_merges_in_any_order_and_a_stray_part_file_is_refused() {
    // more shards than games: shard 0 holds none, and starts where shard 1 does
    let root = common::scratch("shards-empty");
    let cfg = common::dataset_config(2, 0, 5);
    let dirs: Vec<_> = [1u64, 0, 2]
        .iter()
        .map(|&i| {
            let d = root.join(format!("shard{i}"));
            std::fs::create_dir_all(&d).unwrap();
            generate_shard(&cfg, i, 3, &d, &NoProgress).unwrap();
            d
        })
        .collect();
    merge(&dirs, &root.join("merged"), &NoProgress).unwrap();
    // the empty shard given twice is refused as a shard given twice (it overlaps nothing)
    let twice = [
        dirs[1].clone(),
        dirs[1].clone(),
        dirs[0].clone(),
        dirs[2].clone(),
    ];
    let e = merge(&twice, &root.join("bad"), &NoProgress).unwrap_err();
    assert!(e.to_string().contains("shard0 is given twice"), "{e}");
    // a `.part` file of another run's output would stay beside the new dataset and
    // fail verify-sums: refused, named; one of this run's own is written over
    let dir = root.join("run");
    std::fs::create_dir_all(dir.join("train")).unwrap();
    std::fs::write(dir.join("train/corpus_2.txt.part"), b"ours, half").unwrap();
    std::fs::write(dir.join("train/corpus_99.txt.part"), b"another run's").unwrap();
    let e = generate_dataset(&cfg, &dir, &NoProgress)
        .unwrap_err()
        .to_string();
    assert!(e.contains("train/corpus_99.txt.part"), "{e}");
    std::fs::remove_file(dir.join("train/corpus_99.txt.part")).unwrap();
    generate_dataset(&cfg, &dir, &NoProgress).unwrap();
    assert!(verify_sums(&dir).unwrap().passed());
}

#[test]
fn a_merge_refuses_shards_the_gate_or_their_teacher_refuses_before_writing() {
    let root = common::scratch("shards-gate");
    let cfg = common::dataset_config(90, 10, 3);
    let dirs = shards(&root, &cfg, 3);
    let meta = |d: &Path| std::fs::read_to_string(d.join("shard.txt")).unwrap();
    let kept = meta(&dirs[0]);
    // every shard.txt naming the exact teacher, which labels no ply with flag 2: it was
    // merged, and the card named the exact teacher
    for d in &dirs {
        let text = meta(d).replace("teacher = alphabeta", "teacher = exact");
        std::fs::write(d.join("shard.txt"), text).unwrap();
    }
    let e = merge(&dirs, &root.join("bad"), &NoProgress)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("has teacher flag 2, but the teacher its shard.txt names (exact)"),
        "{e}"
    );
    for d in &dirs {
        let text = meta(d).replace("teacher = exact", "teacher = alphabeta");
        std::fs::write(d.join("shard.txt"), text).unwrap();
    }
    assert_eq!(meta(&dirs[0]), kept);
    // two rows of unequal length swapped inside a shard (not its first or last, which
    // are played again): the gate names them, and nothing is written (the whole
    // dataset was, with its checksums, before the final gate failed)
    let corpus = dirs[1].join("corpus.txt");
    let mut rows: Vec<Vec<u8>> = std::fs::read(&corpus)
        .unwrap()
        .split_inclusive(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect();
    let (a, b) = (1..rows.len() - 1)
        .flat_map(|a| (a + 1..rows.len() - 1).map(move |b| (a, b)))
        .find(|&(a, b)| rows[a].len() != rows[b].len())
        .unwrap();
    rows.swap(a, b);
    std::fs::write(&corpus, rows.concat()).unwrap();
    reseal(&dirs[1]);
    let e = merge(&dirs, &root.join("bad"), &NoProgress)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(&corpus.display().to_string()) && e.contains("fails the integrity gate"),
        "{e}"
    );
    assert!(!root.join("bad").join("train").exists());
    assert!(!root.join("bad").join("SHA256SUMS").exists());
}

#[test]
fn a_shard_whose_shard_txt_cannot_be_written_leaves_no_data_files() {
    let root = common::scratch("shard-whole");
    let cfg = common::dataset(&root, 40, 0, 3);
    let d = root.join("shard0");
    // shard.txt cannot be written (a folder holds its part file's name), after the
    // corpus and its sidecar are in place: they passed the gate clean with no shard.txt,
    // as a stop between the renames and shard.txt left them
    std::fs::create_dir_all(d.join("shard.txt.part")).unwrap();
    generate_shard(&cfg, 0, 2, &d, &NoProgress).unwrap_err();
    std::fs::remove_dir(d.join("shard.txt.part")).unwrap();
    let left: Vec<_> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "{left:?}");
    // with nothing in the way, the three are written
    generate_shard(&cfg, 0, 2, &d, &NoProgress).unwrap();
    for file in ["corpus.txt", "perply_targets.npz", "shard.txt"] {
        assert!(d.join(file).is_file(), "{file}");
    }
}
