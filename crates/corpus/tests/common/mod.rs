//! Shared helpers: scratch directories and a fast generator configuration.
#![allow(dead_code)]

use std::path::Path;

use c4lab_corpus::dataset::{generate_dataset, DatasetConfig};
use c4lab_corpus::{GenConfig, NoProgress, TeacherConfig};

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
