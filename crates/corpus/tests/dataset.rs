//! Published datasets: the holdout, overlap, split, checksums, numpy, a stopped run (the
//! shards and their merge: shards.rs).

mod common;

use std::path::Path;
use std::process::Command;

use c4lab_corpus::dataset::{generate_dataset, layout, split, write_relabelled, DatasetConfig};
use c4lab_corpus::gate::check;
use c4lab_corpus::holdout::{self, file_row_keys, overlap, overlap_keys, KeySet};
use c4lab_corpus::sidecar::read_labels;
use c4lab_corpus::sums::{sha256_file, verify_sums, write_sums};
use c4lab_corpus::NoProgress;

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
    // the card names both corpora in its measured overlap (it spoke of an "A" it never
    // defined)
    let card = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(
        card.contains("Measured overlap with training: 0 of 40 rows of the holdout share a labelled board with the training corpus;"),
        "{card}"
    );
    assert!(!card.contains(" in A"), "{card}");
    // and the invariant as written, `==`, holds on every row of both corpora
    assert_eq!(
        card.matches("(ply_of >= 0).sum(axis=1)`: holds exactly on all")
            .count(),
        2,
        "{card}"
    );

    // plant: a training row copied into the holdout is found (a mirrored copy shares
    // its keys, checked below)
    let train_rows = file_row_keys(&train, &train_npz).unwrap();
    let mut hold_rows = file_row_keys(&hold, &hold_npz).unwrap();
    hold_rows.push(train_rows[17].clone());
    let a = KeySet::from_keys(train_rows.iter().flatten().copied().collect());
    let o = overlap_keys(&a, &hold_rows);
    assert_eq!(o.rows_b_shared, 1);
    assert!(o.boards_b_in_a >= 1 && o.board_share() > 0.0);
    // and named: the counts alone left it to be found by hand
    assert_eq!(o.first_row_b_shared, Some(hold_rows.len() - 1));
    assert!(
        holdout::describe(&o, "train", "holdout").contains(&format!(
            "share a labelled board with train (the first: row {}, counted from 0",
            hold_rows.len() - 1
        )),
        "{}",
        holdout::describe(&o, "train", "holdout")
    );

    // the overlap of a corpus with itself is total
    let o = overlap((&train, &train_npz), (&train, &train_npz)).unwrap();
    assert_eq!((o.rows_b_shared, o.boards_b_in_a), (200, o.boards_b));

    // mirror-aware: a training game played mirrored (its labels too), written as a
    // corpus of its own, shares every labelled board with the training corpus
    let games = c4lab_corpus::reader::read_games(&train).unwrap();
    let mirrored: Vec<u8> = games[3].moves.iter().map(|&x| 6 - x).collect();
    let mut row = c4lab_corpus::transcript::encode_game(&mirrored).unwrap();
    row.push(b'\n');
    let (mirror, mirror_npz) = (dir.join("mirror.txt"), dir.join("mirror.npz"));
    std::fs::write(&mirror, row).unwrap();
    let labels = read_labels(&train_npz).unwrap();
    let mut one = c4lab_corpus::sidecar::Labels::new(labels.slots());
    let flip = |m: u8| {
        (0..7)
            .filter(|x| m >> x & 1 == 1)
            .fold(0, |f, x| f | 1 << (6 - x))
    };
    let row: Vec<_> = (labels.row(3).iter())
        .map(|l| c4lab_corpus::sidecar::SlotLabel {
            mask: flip(l.mask),
            ..*l
        })
        .collect();
    one.push_row(&row);
    c4lab_corpus::sidecar::write_sidecar(&mirror_npz, &one).unwrap();
    assert!(check(&mirror, Some(&mirror_npz)).unwrap().is_clean());
    let o = overlap((&train, &train_npz), (&mirror, &mirror_npz)).unwrap();
    assert!(o.boards_b > 0);
    assert_eq!((o.rows_b_shared, o.boards_b_in_a), (1, o.boards_b), "{o:?}");
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
fn a_split_that_would_leave_either_side_empty_is_refused_unwritten() {
    // an empty side fails the integrity gate (no-games): it was written all the same
    let dir = common::scratch("split-empty");
    let cfg = common::dataset(&dir, 1, 0, 9);
    let [train, npz, ..] = layout(&dir, cfg.games);
    let out = dir.join("out");
    let none = split(&train, &npz, 0, 1, &out).unwrap_err().to_string();
    assert!(
        none.contains("no row qualifies for the holdout")
            && none.contains("--holdout 0 asks for none"),
        "{none}"
    );
    let all = split(&train, &npz, 1, 1, &out).unwrap_err().to_string();
    assert!(
        all.contains("the holdout would take every row (1) and leave none to train on"),
        "{all}"
    );
    assert!(!out.exists() || files_under(&out).is_empty());
}

#[test]
fn a_split_that_fails_once_a_file_is_in_place_leaves_none_of_its_files() {
    let dir = common::scratch("split-whole");
    let cfg = common::dataset(&dir, 120, 0, 9);
    let [train, npz, ..] = layout(&dir, cfg.games);
    let out = dir.join("out");
    // the checksums cannot be written (a folder where their part file goes), after
    // the training and holdout files are in place
    std::fs::create_dir_all(out.join("SHA256SUMS.part")).unwrap();
    split(&train, &npz, 12, 1, &out).unwrap_err();
    // (they stayed, without checksums: half a dataset, or beside an earlier split's)
    let left = files_under(&out);
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_split_or_relabelling_whose_sidecar_fails_leaves_no_part_file() {
    let dir = common::scratch("sidecar-fails");
    let cfg = common::dataset(&dir, 60, 0, 5);
    let [train, npz, ..] = layout(&dir, cfg.games);
    let labels = read_labels(&npz).unwrap();
    // a folder where the sidecar's part file goes: the sidecar cannot be written, after
    // the corpus rows are (as a part file)
    let out = dir.join("relabelled");
    std::fs::create_dir_all(out.join("perply_targets.npz.part")).unwrap();
    let e = write_relabelled(&train, &labels, &out)
        .unwrap_err()
        .to_string();
    assert!(e.contains("perply_targets.npz.part"), "{e}");
    std::fs::remove_dir(out.join("perply_targets.npz.part")).unwrap();
    // (the corpus's part file was left, for the caller to find)
    let left = files_under(&out);
    assert!(left.is_empty(), "{left:?}");
    let out = dir.join("split");
    let [_, split_npz, ..] = layout(&out, cfg.games);
    std::fs::create_dir_all(split_npz.with_extension("npz.part")).unwrap();
    split(&train, &npz, 6, 1, &out).unwrap_err();
    std::fs::remove_dir(split_npz.with_extension("npz.part")).unwrap();
    let left = files_under(&out);
    assert!(left.is_empty(), "{left:?}");
    // and nothing stands in the way of a rerun
    let (kept, held) = split(&train, &npz, 6, 1, &out).unwrap();
    assert_eq!(kept + held, 60);
}

/// The files under `dir`, however deep.
fn files_under(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        if e.path().is_dir() {
            found.extend(files_under(&e.path()));
        } else {
            found.push(e.path());
        }
    }
    found
}

#[test]
fn split_refuses_its_own_folder_and_a_corpus_shorter_than_its_sidecar() {
    let dir = common::scratch("split-refused");
    let cfg = common::dataset(&dir, 60, 0, 5);
    let [train, npz, ..] = layout(&dir, cfg.games);
    let before = std::fs::read(&train).unwrap();
    // into the folder it reads from: refused, the input left whole
    let e = split(&train, &npz, 5, 1, &dir).unwrap_err().to_string();
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
    } else {
        eprintln!("skipped: no sha256sum here to check the file with");
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
    // (named for this process: another run's test may be writing its own)
    let outside = (dir.parent().unwrap()).join(format!("c4lab-outside-{}.txt", std::process::id()));
    std::fs::write(&outside, b"x").unwrap();
    let name = format!("../{}", outside.file_name().unwrap().to_str().unwrap());
    let hex = sha256_file(&outside).unwrap();
    // (one that names nothing there too: it was said missing)
    let absent = format!("../c4lab-absent-{}.txt", std::process::id());
    for listed in [name.clone(), outside.display().to_string(), absent] {
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
        // the list itself a FIFO, or a link to a device: refused, not waited on for
        // ever, nor read until the memory ran out (`/dev/zero`)
        std::fs::remove_file(&sums).unwrap();
        assert!(Command::new("mkfifo")
            .arg(&sums)
            .status()
            .unwrap()
            .success());
        let e = verify_sums(&dir).unwrap_err().to_string();
        assert!(e.contains("SHA256SUMS is no regular file"), "{e}");
        std::fs::remove_file(&sums).unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/dev/zero", &sums).unwrap();
            let e = verify_sums(&dir).unwrap_err().to_string();
            assert!(e.contains("SHA256SUMS is no regular file"), "{e}");
            std::fs::remove_file(&sums).unwrap();
        }
        write_sums(&dir).unwrap();
    } else {
        eprintln!("skipped: no mkfifo here to make a FIFO with");
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
    // saved by an editor with a byte-order mark, and with a comment line (which
    // `sha256sum -c` skips), it still verifies (line 1 was malformed)
    let text = std::fs::read_to_string(&sums).unwrap();
    std::fs::write(&sums, format!("\u{feff}# the dataset's checksums\n{text}")).unwrap();
    let rep = verify_sums(&dir).unwrap();
    assert!(rep.passed(), "{rep:?}");
    std::fs::write(&sums, text).unwrap();
    // the checksum file itself given, where its folder goes (it said "Not a directory")
    let e = verify_sums(&sums).unwrap_err().to_string();
    assert!(e.contains("SHA256SUMS is a file, where a folder holding SHA256SUMS goes: give the folder it is in"), "{e}");
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
    for (npz, rows) in [
        ("train/perply_targets.npz", 120),
        ("holdout/perply_targets.npz", 10),
    ] {
        common::assert_numpy_reads(&dir.join(npz), rows, 19);
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

#[test]
fn a_relabelled_corpus_that_fails_once_its_sidecar_is_in_place_leaves_neither_file() {
    let dir = common::scratch("relabel-whole");
    let cfg = common::dataset(&dir, 40, 0, 3);
    let [train, npz, ..] = layout(&dir, cfg.games);
    let labels = read_labels(&npz).unwrap();
    let out = dir.join("out");
    // the corpus cannot be renamed into place (a folder holds its name), after the
    // sidecar is
    std::fs::create_dir_all(out.join("corpus.txt").join("in-the-way")).unwrap();
    write_relabelled(&train, &labels, &out).unwrap_err();
    // (the sidecar stayed, without its corpus)
    let left = files_under(&out);
    assert!(left.is_empty(), "{left:?}");
    // nor when their checksums cannot be written, once both are in place
    let late = dir.join("late");
    std::fs::create_dir_all(late.join("SHA256SUMS.part")).unwrap();
    write_relabelled(&train, &labels, &late).unwrap_err();
    std::fs::remove_dir(late.join("SHA256SUMS.part")).unwrap();
    let left = files_under(&late);
    assert!(left.is_empty(), "{left:?}");
    // and with nothing in the way, both are written
    let fresh = dir.join("fresh");
    std::fs::create_dir_all(&fresh).unwrap();
    write_relabelled(&train, &labels, &fresh).unwrap();
    assert_eq!(
        std::fs::read(fresh.join("corpus.txt")).unwrap(),
        std::fs::read(&train).unwrap()
    );
    assert_eq!(
        read_labels(&fresh.join("perply_targets.npz"))
            .unwrap()
            .len(),
        labels.len()
    );
    // with their checksums, which list the two (they were left to `sums`)
    let listed = verify_sums(&fresh).unwrap();
    assert!(listed.passed(), "{listed:?}");
    assert_eq!(listed.ok, ["corpus.txt", "perply_targets.npz"]);
}
