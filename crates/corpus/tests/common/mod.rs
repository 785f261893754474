//! Shared helpers: scratch directories and a fast generator configuration.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use c4lab_corpus::dataset::{generate_dataset, DatasetConfig};
use c4lab_corpus::{GenConfig, NoProgress, TeacherConfig};

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("c4lab-corpus-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
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

/// Generates a dataset of `games` + `holdout` games into `dir`.
pub fn dataset(dir: &Path, games: u64, holdout: u64, seed: u64) -> DatasetConfig {
    let cfg = DatasetConfig {
        gen: fast_config(seed),
        games,
        holdout,
    };
    generate_dataset(&cfg, dir, &NoProgress).unwrap();
    cfg
}
