//! Published datasets: shards and merge, the holdout, overlap, checksums, numpy.

mod common;

use std::path::Path;
use std::process::Command;

use c4lab_corpus::dataset::{
    generate_dataset, generate_shard, layout, merge, split, DatasetConfig,
};
use c4lab_corpus::gate::check;
use c4lab_corpus::holdout::{file_row_keys, overlap, overlap_keys, KeySet};
use c4lab_corpus::sidecar::{read_labels, RawArrays};
use c4lab_corpus::sums::{sha256_file, verify_sums, write_sums};
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
fn holdout_is_board_disjoint_and_overlap_detects_a_plant() {
    let dir = common::scratch("holdout");
    let cfg: DatasetConfig = common::dataset(&dir, 200, 40, 5);
    let [train, train_npz, hold, hold_npz] = layout(&dir, cfg.games);
    assert!(check(&hold, Some(&hold_npz)).unwrap().is_clean());
    let o = overlap((&train, &train_npz), (&hold, &hold_npz)).unwrap();
    assert_eq!(o.rows_b, 40);
    assert_eq!((o.rows_b_shared, o.boards_b_in_a), (0, 0), "{o:?}");
    assert!(o.boards_b > 0);

    // plant: a training row copied into the holdout is found (a mirrored copy shares
    // its keys, checked below)
    let train_rows = file_row_keys(&train, &train_npz).unwrap();
    let mut hold_rows = file_row_keys(&hold, &hold_npz).unwrap();
    hold_rows.push(train_rows[17].clone());
    let a = KeySet::from_keys(train_rows.iter().flatten().copied().collect());
    let o = overlap_keys(&a, &hold_rows);
    assert_eq!(o.rows_b_shared, 1);
    assert!(o.boards_b_in_a >= 1 && o.board_share() > 0.0);

    // the overlap of a corpus with itself is total
    let o = overlap((&train, &train_npz), (&train, &train_npz)).unwrap();
    assert_eq!((o.rows_b_shared, o.boards_b_in_a), (200, o.boards_b));

    // mirror-aware: the keys overlap compares are the same for a board and its
    // mirror, so a mirrored game shares every board
    let games = c4lab_corpus::reader::read_games(&train).unwrap();
    let mirrored: Vec<u64> = games[3]
        .positions
        .iter()
        .map(|p| p.mirror().canonical_key())
        .collect();
    let own = KeySet::from_keys(
        games[3]
            .positions
            .iter()
            .map(|p| p.canonical_key())
            .collect(),
    );
    assert!(mirrored.iter().all(|&k| own.contains(k)));
}

#[test]
fn split_is_board_disjoint() {
    let dir = common::scratch("split");
    let cfg = common::dataset(&dir, 300, 0, 9);
    let [train, npz, ..] = layout(&dir, cfg.games);
    let out = dir.join("out");
    let (t, h) = split(&train, &npz, 30, 1, &out).unwrap();
    assert_eq!(t + h, 300);
    assert!(h > 0, "some rows qualify for the holdout");
    let [t2, t2n, h2, h2n] = layout(&out, t as u64);
    assert!(check(&t2, Some(&t2n)).unwrap().is_clean());
    assert!(check(&h2, Some(&h2n)).unwrap().is_clean());
    let o = overlap((&t2, &t2n), (&h2, &h2n)).unwrap();
    assert_eq!((o.rows_b, o.rows_b_shared), (h, 0));
    assert!(verify_sums(&out).unwrap().passed());
}

#[test]
fn split_refuses_its_own_folder_and_a_corpus_shorter_than_its_sidecar() {
    let dir = common::scratch("split-refused");
    let cfg = common::dataset(&dir, 60, 0, 5);
    let [train, npz, ..] = layout(&dir, cfg.games);
    let before = std::fs::read(&train).unwrap();
    // into the folder it reads from: refused, the input left whole
    let e = split(&train, &npz, 0, 1, &dir).unwrap_err().to_string();
    assert!(e.contains("written over while it is read"), "{e}");
    assert_eq!(std::fs::read(&train).unwrap(), before);
    // the first 40 rows against the 60-row sidecar
    let short = dir.join("short.txt");
    let rows: Vec<&[u8]> = before.split_inclusive(|&b| b == b'\n').take(40).collect();
    std::fs::write(&short, rows.concat()).unwrap();
    let e = split(&short, &npz, 5, 1, &dir.join("out"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("fails the integrity gate")
            && e.contains("the sidecar has 60 rows, the corpus 40"),
        "{e}"
    );
    // nor is a sidecar of another corpus with as many rows split (it was, and the gate
    // then failed the published files)
    let other = dir.join("other");
    common::dataset(&other, 60, 0, 6);
    let [_, other_npz, ..] = layout(&other, 60);
    let out = dir.join("out");
    let e = split(&train, &other_npz, 5, 1, &out)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("fails the integrity gate") && e.contains(&other_npz.display().to_string()),
        "{e}"
    );
    assert!(!out.exists(), "nothing is written");
}

#[test]
fn a_dataset_whose_holdout_fails_leaves_no_corpus_behind() {
    let dir = common::scratch("no-holdout");
    // 41 labelled slots: every holdout game shares a board with training
    let mut cfg = common::dataset_config(20, 3, 5);
    cfg.gen.slots = 41;
    let e = generate_dataset(&cfg, &dir, &NoProgress)
        .unwrap_err()
        .to_string();
    assert!(e.contains("holdout games were disjoint"), "{e}");
    for file in c4lab_corpus::dataset::layout(&dir, cfg.games) {
        assert!(!file.exists(), "{} was left", file.display());
    }
}

#[test]
fn a_folder_with_no_files_gets_no_checksum_file() {
    let dir = common::scratch("sums-empty");
    let e = write_sums(&dir).unwrap_err().to_string();
    assert!(e.contains("holds no files to list"), "{e}");
    assert!(
        !dir.join("SHA256SUMS").exists(),
        "an empty list verifies nothing"
    );
}

#[test]
fn sums_round_trip_and_detect_a_change() {
    let dir = common::scratch("sums");
    common::dataset(&dir, 50, 5, 3);
    let rep = verify_sums(&dir).unwrap();
    assert!(rep.passed(), "{rep:?}");
    assert_eq!(rep.ok.len(), 5, "{rep:?}"); // 4 data files and the card
    let text = std::fs::read_to_string(dir.join("SHA256SUMS")).unwrap();
    assert!(text.lines().all(|l| l.len() > 66 && &l[64..66] == "  "));
    // sha256sum -c accepts it, where coreutils exist
    if let Ok(out) = Command::new("sha256sum")
        .arg("-c")
        .arg("SHA256SUMS")
        .current_dir(&dir)
        .output()
    {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    // one flipped byte is caught
    let p = dir.join("holdout/corpus.txt");
    let mut b = std::fs::read(&p).unwrap();
    b[3] ^= 1;
    std::fs::write(&p, b).unwrap();
    let rep = verify_sums(&dir).unwrap();
    assert!(!rep.passed());
    assert_eq!(rep.failed.len(), 1);
    assert_eq!(rep.failed[0].0, "holdout/corpus.txt");
    // an unlisted file is caught; rewriting the sums passes again
    std::fs::write(dir.join("extra.txt"), b"x").unwrap();
    assert_eq!(
        verify_sums(&dir).unwrap().unlisted,
        vec!["extra.txt".to_string()]
    );
    write_sums(&dir).unwrap();
    assert!(verify_sums(&dir).unwrap().passed());
    // an unfinished output a stopped run left (`.part`) is never listed: `sums` refuses
    // the folder naming it (it listed the rest, and verify-sums then failed), and
    // verify-sums fails the folder as unlisted (it passed)
    let part = dir.join("train/corpus_9.txt.part");
    std::fs::write(&part, b"half a corpus").unwrap();
    let e = write_sums(&dir).unwrap_err().to_string();
    assert!(
        e.contains("train/corpus_9.txt.part is an output a stopped run left unfinished"),
        "{e}"
    );
    assert!(verify_sums(&dir).unwrap().unlisted.len() == 1);
    std::fs::write(dir.join("train/corpus_8.txt.part"), b"half").unwrap();
    let e = write_sums(&dir).unwrap_err().to_string();
    assert!(e.contains("(2 such files)"), "{e}");
    std::fs::remove_file(dir.join("train/corpus_8.txt.part")).unwrap();
    assert_eq!(
        verify_sums(&dir).unwrap().unlisted,
        vec!["train/corpus_9.txt.part".to_string()]
    );
    std::fs::remove_file(&part).unwrap();
    assert!(verify_sums(&dir).unwrap().passed());
    // as `find . -type f | xargs sha256sum` writes them: `./` before each name
    let sums = dir.join("SHA256SUMS");
    let dotted: String = std::fs::read_to_string(&sums)
        .unwrap()
        .lines()
        .map(|l| format!("{}./{}\n", &l[..66], &l[66..]))
        .collect();
    std::fs::write(&sums, dotted).unwrap();
    let rep = verify_sums(&dir).unwrap();
    assert!(rep.passed(), "{rep:?}");
    // a file listed twice fails, even with the same checksum each time (and spelt
    // another way the second time)
    let text = std::fs::read_to_string(&sums).unwrap();
    let first = text.lines().next().unwrap();
    let again = format!("{}{}", &first[..66], &first[68..]);
    std::fs::write(&sums, format!("{text}{again}\n")).unwrap();
    let rep = verify_sums(&dir).unwrap();
    assert!(!rep.passed(), "{rep:?}");
    assert_eq!(rep.failed.len(), 1, "{rep:?}");
    assert_eq!(rep.failed[0].1, "listed again (first on line 1)", "{rep:?}");
    std::fs::write(&sums, text).unwrap();
    // a listed name outside the folder fails, and is not read (it was followed)
    let outside = dir.parent().unwrap().join("outside.txt");
    std::fs::write(&outside, b"x").unwrap();
    let name = format!("../{}", outside.file_name().unwrap().to_str().unwrap());
    let hex = sha256_file(&outside).unwrap();
    for listed in [name.clone(), outside.display().to_string()] {
        let text = std::fs::read_to_string(&sums).unwrap();
        std::fs::write(&sums, format!("{text}{hex}  {listed}\n")).unwrap();
        let rep = verify_sums(&dir).unwrap();
        assert!(!rep.passed(), "{listed}: {rep:?}");
        assert_eq!(rep.failed.len(), 1, "{rep:?}");
        assert!(rep.failed[0].1.contains("outside"), "{rep:?}");
        write_sums(&dir).unwrap();
    }
    // and so is a listed file that is a link to one outside; a name through `..` that
    // stays inside passes
    let card = dir.join("README.md");
    let kept = std::fs::read(&card).unwrap();
    std::fs::remove_file(&card).unwrap();
    std::os::unix::fs::symlink(&outside, &card).unwrap();
    let text = std::fs::read_to_string(&sums).unwrap();
    let listed = format!("{hex}  README.md\n");
    let relisted: String = text
        .lines()
        .map(|l| {
            if l.ends_with("  README.md") {
                listed.clone()
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    std::fs::write(&sums, relisted).unwrap();
    let rep = verify_sums(&dir).unwrap();
    assert_eq!(rep.failed.len(), 1, "{rep:?}");
    assert!(rep.failed[0].1.contains("outside"), "{rep:?}");
    // (it is listed: it fails once, not also as a file nobody listed)
    assert!(rep.unlisted.is_empty(), "{rep:?}");
    std::fs::remove_file(&card).unwrap();
    std::fs::write(&card, kept).unwrap();
    write_sums(&dir).unwrap();
    let text = std::fs::read_to_string(&sums).unwrap();
    std::fs::write(&sums, text.replace("  README.md", "  train/../README.md")).unwrap();
    assert!(verify_sums(&dir).unwrap().passed());
    write_sums(&dir).unwrap();
    // a link nobody listed fails the check (it was passed over), and is not listed
    let link = dir.join("train/linked.txt");
    std::os::unix::fs::symlink(&outside, &link).unwrap();
    assert_eq!(
        verify_sums(&dir).unwrap().unlisted,
        vec!["train/linked.txt".to_string()]
    );
    let e = write_sums(&dir).unwrap_err().to_string();
    assert!(e.contains("linked.txt is a symbolic link"), "{e}");
    std::fs::remove_file(&link).unwrap();
    std::fs::remove_file(&outside).unwrap();
    // a FIFO is not read (it waited for a writer for ever): unlisted, it is named as
    // such, listed it fails, and `sums` refuses to list it
    let fifo = dir.join("train/pipe");
    if Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        assert_eq!(
            verify_sums(&dir).unwrap().unlisted,
            vec!["train/pipe".to_string()]
        );
        let e = write_sums(&dir).unwrap_err().to_string();
        assert!(e.contains("pipe is no regular file"), "{e}");
        let text = std::fs::read_to_string(&sums).unwrap();
        std::fs::write(&sums, format!("{text}{}  train/pipe\n", "0".repeat(64))).unwrap();
        let rep = verify_sums(&dir).unwrap();
        assert_eq!(rep.failed.len(), 1, "{rep:?}");
        assert!(rep.failed[0].1.contains("is no regular file"), "{rep:?}");
        std::fs::remove_file(&fifo).unwrap();
        write_sums(&dir).unwrap();
    }
    // a listed folder is named as one (it was "a FIFO, socket or device"), and a line
    // that names no file at all is malformed (it was read as the folder itself)
    let text = std::fs::read_to_string(&sums).unwrap();
    let zeros = "0".repeat(64);
    std::fs::write(&sums, format!("{text}{zeros}  train\n{zeros}  \n")).unwrap();
    let rep = verify_sums(&dir).unwrap();
    assert_eq!(rep.failed.len(), 1, "{rep:?}");
    assert_eq!(rep.failed[0].0, "train");
    assert!(rep.failed[0].1.contains("is a folder"), "{rep:?}");
    assert_eq!(rep.malformed.len(), 1, "{rep:?}");
    write_sums(&dir).unwrap();
    // a folder without a checksum file: a dataset's subfolder names the folder above
    // that holds one (sums written into it would fail the dataset's check as unlisted),
    // another says how to make one
    let e = verify_sums(&dir.join("train")).unwrap_err().to_string();
    let above = format!(
        "train has no SHA256SUMS: {} holds one: give that folder",
        dir.display()
    );
    assert!(e.contains(&above), "{e}");
    std::fs::rename(&sums, dir.join("kept")).unwrap();
    let e = verify_sums(&dir).unwrap_err().to_string();
    assert!(
        e.contains("has no SHA256SUMS: give the folder a dataset was published in, or, for a folder you made yourself, write one with `c4lab corpus sums"),
        "{e}"
    );
    std::fs::rename(dir.join("kept"), &sums).unwrap();
    // a file name with a line break cannot be listed: refused, naming it
    let odd = dir.join("two\nlines.txt");
    std::fs::write(&odd, b"x").unwrap();
    let e = write_sums(&dir).unwrap_err().to_string();
    assert!(
        e.contains("two\\nlines.txt") && e.contains("line break"),
        "{e}"
    );
    std::fs::remove_file(&odd).unwrap();
    // a second dataset into the same folder: the same size is rewritten in place, a
    // different size is refused (its checksums would list the old training file too)
    std::fs::remove_file(dir.join("extra.txt")).unwrap();
    common::dataset(&dir, 50, 5, 3);
    let cfg = common::dataset_config(20, 5, 3);
    let e = generate_dataset(&cfg, &dir, &NoProgress)
        .unwrap_err()
        .to_string();
    assert!(e.contains("train/corpus_50.txt"), "{e}");
    // nor is the earlier holdout kept beside a run that holds none out
    let cfg = common::dataset_config(50, 0, 3);
    let e = generate_dataset(&cfg, &dir, &NoProgress)
        .unwrap_err()
        .to_string();
    assert!(e.contains("holdout/corpus.txt"), "{e}");
}

#[test]
fn numpy_loads_the_sidecar() {
    if !common::has_numpy("test") {
        return;
    }
    let dir = common::scratch("numpy");
    common::dataset(&dir, 120, 10, 4);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/check_npz.py");
    for (npz, rows) in [
        ("train/perply_targets.npz", "120"),
        ("holdout/perply_targets.npz", "10"),
    ] {
        let out = Command::new("python3")
            .arg(&script)
            .arg(dir.join(npz))
            .arg(rows)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{npz}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains("check_npz: ok"), "{text}");
    }
    // numpy's own savez (stored) and savez_compressed (deflate) are read back
    let p = dir.join("train/perply_targets.npz");
    for (f, out) in [("savez", "np.npz"), ("savez_compressed", "npc.npz")] {
        let code = format!(
            "import numpy as np; z = np.load({:?}); np.{f}({:?}, **{{k: z[k] for k in z.files}})",
            p.display().to_string(),
            dir.join(out).display().to_string()
        );
        assert!(Command::new("python3")
            .args(["-c", &code])
            .status()
            .unwrap()
            .success());
        let a = c4lab_corpus::sidecar::RawArrays::read(&p).unwrap();
        let b = c4lab_corpus::sidecar::RawArrays::read(&dir.join(out)).unwrap();
        assert_eq!(a, b, "{f}");
    }
}

#[test]
fn a_stopped_run_leaves_only_part_files_and_a_rerun_writes_over_them() {
    let dir = common::scratch("part");
    let cfg = common::dataset_config(30, 0, 4);
    let [train, npz, ..] = layout(&dir, cfg.games);
    // a run stopped while writing: the transcript so far sits under `.part`, and nothing
    // under the name a finished corpus has (a cut transcript passes every row rule)
    let mut w = c4lab_corpus::generate::CorpusWriter::create(&train, cfg.gen.slots).unwrap();
    w.push_row(&[3, 3, 3], &[]).unwrap();
    drop(w);
    let part = |p: &Path| {
        let mut name = p.as_os_str().to_os_string();
        name.push(".part");
        std::path::PathBuf::from(name)
    };
    assert!(part(&train).exists() && !train.exists());
    // and one left while the checksums were written
    std::fs::write(dir.join("SHA256SUMS.part"), b"half").unwrap();
    // the next run into the folder is not refused for it, and leaves no `.part` file
    generate_dataset(&cfg, &dir, &NoProgress).unwrap();
    assert!(train.exists() && npz.exists());
    assert!(!part(&train).exists() && !part(&npz).exists());
    let sums = std::fs::read_to_string(dir.join("SHA256SUMS")).unwrap();
    assert!(!sums.contains(".part"), "{sums}");
    assert!(!dir.join("SHA256SUMS.part").exists());
    // `sums` on its own refuses a folder holding a `.part` file (but not its own stale
    // `SHA256SUMS.part`, which it writes over)
    std::fs::write(dir.join("SHA256SUMS.part"), b"half").unwrap();
    write_sums(&dir).unwrap();
    assert!(!dir.join("SHA256SUMS.part").exists());
    std::fs::write(part(&train), b"half").unwrap();
    let e = write_sums(&dir).unwrap_err().to_string();
    assert!(e.contains("corpus_30.txt.part"), "{e}");
    // and verify-sums fails the folder while it is there (an output a stopped run left)
    assert_eq!(
        verify_sums(&dir).unwrap().unlisted,
        vec!["train/corpus_30.txt.part".to_string()]
    );
    std::fs::remove_file(part(&train)).unwrap();
    assert!(verify_sums(&dir).unwrap().passed());
    assert!(check(&train, Some(&npz)).unwrap().is_clean());
}
