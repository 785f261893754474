//! Shared helpers: scratch directories and a fast generator configuration.
#![allow(dead_code)]

use std::path::Path;

use c4lab_corpus::dataset::{generate_dataset, DatasetConfig};
use c4lab_corpus::rng::Rng;
use c4lab_corpus::sidecar::RawArrays;
use c4lab_corpus::{GenConfig, Labels, NoProgress, SidecarError, SlotLabel, TeacherConfig};

/// A fresh scratch directory for one test, removed when it goes out of scope.
pub struct Scratch(tempfile::TempDir);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}

/// A fresh scratch directory for one test (named after it, for a failing run's reader).
pub fn scratch(name: &str) -> Scratch {
    Scratch(
        tempfile::Builder::new()
            .prefix(&format!("c4lab-corpus-{name}-"))
            .tempdir()
            .unwrap(),
    )
}

/// Fast teacher settings for tests.
pub fn fast_config(seed: u64) -> GenConfig {
    GenConfig {
        seed,
        teacher: TeacherConfig {
            depth: 4,
            node_budget: 3_000,
            ..TeacherConfig::default()
        },
        ..GenConfig::default()
    }
}

/// The settings of a dataset of `games` + `holdout` games with the fast teacher.
pub fn dataset_config(games: u64, holdout: u64, seed: u64) -> DatasetConfig {
    DatasetConfig {
        gen: fast_config(seed),
        games,
        holdout,
    }
}

/// Generates a dataset of `games` + `holdout` games into `dir`.
pub fn dataset(dir: &Path, games: u64, holdout: u64, seed: u64) -> DatasetConfig {
    let cfg = dataset_config(games, holdout, seed);
    generate_dataset(&cfg, dir, &NoProgress).unwrap();
    cfg
}

/// True when `python3` with numpy is installed (CI installs it); says what is skipped
/// when not, so that a local run without numpy still passes but does not hide it.
pub fn has_numpy(skipped: &str) -> bool {
    let ok = std::process::Command::new("python3")
        .args(["-c", "import numpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("{skipped} skipped: python3 with numpy is not installed (CI installs it)");
    }
    ok
}

/// Runs `tests/check_npz.py` (numpy's own reading of a sidecar: names, shapes, dtypes,
/// the invariant with `==`) on `npz` with `rows` rows of `slots` slots, and fails the
/// test with its output unless it passes.
pub fn assert_numpy_reads(npz: &Path, rows: usize, slots: usize) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/check_npz.py");
    let out = std::process::Command::new("python3")
        .arg(&script)
        .arg(npz)
        .args([rows.to_string(), slots.to_string()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("check_npz: ok"),
        "{}: {text}{}",
        npz.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Random compact labels as the generator makes them: rows of 0..=slots labelled
/// slots, newest ply first, alpha-beta (flag 2) targets one-hot.
pub fn random_labels(rows: usize, slots: usize, seed: u64) -> Labels {
    let mut rng = Rng::new(seed);
    let mut labels = Labels::new(slots);
    for _ in 0..rows {
        let n = rng.below(slots as u64 + 1) as usize;
        let last = n as i16 + rng.below(20) as i16;
        let row: Vec<SlotLabel> = (0..n)
            .map(|s| {
                let flag = 1 + rng.below(3) as u8;
                let mask = match flag {
                    2 => 1 << rng.below(7),
                    _ => 1 + rng.below(127) as u8,
                };
                SlotLabel {
                    ply: last - s as i16,
                    flag,
                    mask,
                }
            })
            .collect();
        labels.push_row(&row);
    }
    labels
}

pub fn read_err(path: &Path) -> SidecarError {
    match RawArrays::read(path) {
        Ok(_) => panic!("{} read without error", path.display()),
        Err(e) => e,
    }
}

/// The error names the file and, where given, the member at fault.
pub fn names(e: &SidecarError, path: &Path, member: Option<&str>) {
    let text = e.to_string();
    assert!(text.contains(&path.display().to_string()), "{text}");
    if let Some(m) = member {
        assert!(text.contains(m), "{text}");
    }
}
