//! `c4lab bench`: benchmarks that print a table.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use c4lab_steady::solution::{check_solution, parse_leaves};
use c4lab_steady::{Verdict, Verifier};
use clap::Subcommand;

/// What to measure.
#[derive(Subcommand)]
pub enum Bench {
    /// Verify every upstream diagram, then time the whole check-solution.
    Verify {
        /// Upstream's branches.txt.
        #[arg(long, default_value = "../shared/data/upstream/branches.txt")]
        branches: PathBuf,
        /// Upstream's steady_states.txt.
        #[arg(long, default_value = "../shared/data/upstream/steady_states.txt")]
        steady_states: PathBuf,
        /// Timed runs of check-solution (the best and the median are printed).
        #[arg(long, default_value_t = 5)]
        runs: usize,
    },
}

/// Runs a benchmark.
pub fn run(what: Bench) -> Result<u8> {
    match what {
        Bench::Verify {
            branches,
            steady_states,
            runs,
        } => verify(&branches, &steady_states, runs),
    }
}

fn verify(branches: &PathBuf, steady: &PathBuf, runs: usize) -> Result<u8> {
    let read = |p: &PathBuf| {
        std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))
    };
    let (b, s) = (read(branches)?, read(steady)?);
    let (leaves, errors) = parse_leaves(&s);
    anyhow::ensure!(errors.is_empty(), "{}: {}", steady.display(), errors[0]);
    let mut verifier = Verifier::new();
    let mut times = Vec::with_capacity(leaves.len());
    let (mut positions, mut wins) = (0u64, 0usize);
    let all = Instant::now();
    for leaf in &leaves {
        let t = Instant::now();
        let v = verifier.verify(&leaf.diagram);
        times.push(t.elapsed().as_secs_f64());
        if let Verdict::Win { positions: p } = v {
            positions += p;
            wins += 1;
        }
    }
    let total = all.elapsed().as_secs_f64();
    times.sort_by(f64::total_cmp);
    let mut walls: Vec<f64> = (0..runs.max(1))
        .map(|_| {
            let t = Instant::now();
            let ok = check_solution(&b, &s).passed();
            (t.elapsed().as_secs_f64(), ok)
        })
        .map(|(t, ok)| if ok { t } else { f64::NAN })
        .collect();
    walls.sort_by(f64::total_cmp);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("| measure | value |");
    println!("| --- | ---: |");
    println!(
        "| diagrams verified (single thread) | {} ({} win) |",
        leaves.len(),
        wins
    );
    println!("| total verify time | {:.1} ms |", total * 1e3);
    println!(
        "| median per diagram | {:.1} µs |",
        times[times.len() / 2] * 1e6
    );
    println!(
        "| max per diagram | {:.1} µs |",
        times[times.len() - 1] * 1e6
    );
    println!("| positions searched | {positions} |");
    println!(
        "| positions per second | {:.1} M |",
        positions as f64 / total / 1e6
    );
    println!(
        "| check-solution wall, best of {} ({threads} threads) | {:.1} ms |",
        walls.len(),
        walls[0] * 1e3
    );
    println!(
        "| check-solution wall, median | {:.1} ms |",
        walls[walls.len() / 2] * 1e3
    );
    if walls.iter().any(|w| w.is_nan()) {
        println!("check-solution FAILED on these files");
        return Ok(1);
    }
    Ok(0)
}
