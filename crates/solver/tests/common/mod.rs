//! Shared helpers: locating and reading the benchmark files.

#![allow(dead_code)]

use std::path::PathBuf;

use c4lab_solver::{parse_bench, BenchCase};

/// The benchmark directory, `../../../shared/data/bench` from the crate, if present.
pub fn bench_dir() -> Option<PathBuf> {
    let manifest = std::env::var("CARGO_MANIFEST_DIR")
        .unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_string());
    let dir = PathBuf::from(manifest).join("../../../shared/data/bench");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipping: benchmark directory {} not found", dir.display());
        None
    }
}

/// Every `step`-th case of the named set (e.g. "L2_R1"), or None when absent.
pub fn sample(set: &str, step: usize) -> Option<Vec<BenchCase>> {
    let path = bench_dir()?.join(format!("{set}.txt"));
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("skipping: cannot read {}: {e}", path.display());
            return None;
        }
    };
    let cases = parse_bench(&text).expect("benchmark file parses");
    assert!(!cases.is_empty(), "{} is empty", path.display());
    Some(cases.into_iter().step_by(step).collect())
}

/// A table size that keeps tests light.
pub const TABLE: usize = 16 << 20;
