//! `c4lab bench model`: the model's training and inference speed, size, holdout
//! agreement and optimal-move rate, as one table.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use c4lab_board::Position;
use c4lab_model::eval::{agreement, optimal_rate};
use c4lab_model::{FeatureSet, Model, TrainConfig, Trainer};
use c4lab_solver::Solver;

use crate::eval::sample_positions;
use crate::model::{examples, load_model, pct, solved_rate, CorpusSource};

/// `c4lab bench model`'s options.
#[derive(clap::Args)]
pub struct BenchModel {
    /// A corpus folder made by `c4lab corpus generate` (train/ and holdout/ inside).
    #[arg(long)]
    corpus: PathBuf,
    /// Training steps to time (at least 1).
    #[arg(long, default_value_t = 20_000, value_parser = crate::solve::count_u64_arg)]
    steps: u64,
    /// Holdout positions for the optimal-move rate (at least 1: a rate of none is none).
    #[arg(long, default_value_t = 200, value_parser = crate::solve::count_arg)]
    positions: usize,
    /// Bits of the table indices of the model trained and timed (16 to 20).
    #[arg(long, default_value_t = 16, value_parser = crate::whole::index_bits)]
    index_bits: u32,
    /// The windows of the model trained and timed (`threats` or `columns`).
    #[arg(long, default_value = "threats")]
    features: FeatureSet,
    /// Time this exported model instead of training one (no training row; --steps,
    /// --index-bits and --features, which shape a model trained here, are refused
    /// beside it).
    #[arg(long, conflicts_with_all = ["steps", "index_bits", "features"])]
    model: Option<PathBuf>,
}

/// `c4lab bench model`: training speed, inference speed, size, agreement, optimality.
pub fn bench(a: BenchModel) -> Result<u8> {
    let hold_dir = a.corpus.join("holdout");
    // (it read "DIR/holdout/corpus.txt: No such file or directory"); train/ is read only
    // to train a model, so not with --model
    let needed = if a.model.is_some() { 1 } else { 2 };
    for sub in &["holdout", "train"][..needed] {
        let what = if !a.corpus.exists() {
            "does not exist".to_string()
        } else if !a.corpus.is_dir() {
            "is no folder".to_string()
        } else if !a.corpus.join(sub).is_dir() {
            format!("has no {sub}/ folder")
        } else {
            continue;
        };
        bail!(
            "--corpus {} {what}: give the folder `c4lab corpus generate --out` wrote ({} inside)",
            a.corpus.display(),
            if needed == 1 {
                "holdout/"
            } else {
                "train/ and holdout/"
            }
        );
    }
    let hold = examples(
        &hold_dir.join("corpus.txt"),
        Some(&hold_dir.join("perply_targets.npz")),
        CorpusSource::Teacher,
    )?;
    let (model, training) = match &a.model {
        Some(path) => (load_model(path)?, None),
        None => {
            let (model, train_len, train_s) = bench_training(&a)?;
            (model, Some((train_len, train_s)))
        }
    };
    let positions: Vec<Position> = hold.iter().map(|e| e.position).collect();
    // the checksum is of one pass over the holdout, so that it is the same on every run
    // (it was the sum over however many passes a timed round made)
    let checksum = moves_checksum(&model, &positions);
    // five rounds of about a second each: the median, and the range to show the noise
    let mut rounds = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        let mut evaluated = 0u64;
        while start.elapsed().as_secs_f64() < 1.0 {
            for p in &positions {
                std::hint::black_box(model.best_move(std::hint::black_box(p)));
            }
            evaluated += positions.len() as u64;
        }
        rounds.push(evaluated as f64 / start.elapsed().as_secs_f64());
    }
    rounds.sort_by(f64::total_cmp);
    let ag = agreement(&hold, |p| model.best_move(p));
    let sample = sample_positions(&hold, a.positions, 14, 32);
    let mut solver = Solver::new(64 << 20);
    let o = optimal_rate(&sample, &mut solver, 2_000_000, |p| model.best_move(p));
    outln!("| measure | value |");
    outln!("| --- | ---: |");
    if let Some((train_len, train_s)) = training {
        outln!("| training positions | {train_len} |");
        outln!(
            "| training time per 1,000 steps (batch 16, one thread) | {:.1} ms |",
            train_s * 1e6 / a.steps as f64
        );
    }
    outln!(
        "| inference (scores and the tactical checks), one core | {:.0} positions/s (median of 5 rounds of a second; {:.0}-{:.0}; checksum {}) |",
        rounds[2],
        rounds[0],
        rounds[4],
        checksum
    );
    outln!(
        "| model size | {} bytes ({}-bit table indices, {} features) |",
        model.size_bytes(),
        model.index_bits(),
        model.feature_set().name()
    );
    let after = match training {
        Some(_) => format!(" after {}", crate::complete::counted(a.steps, "step")),
        None => String::new(),
    };
    outln!(
        "| holdout agreement{after} | {} of {} |",
        pct(&ag),
        ag.total
    );
    if sample.is_empty() {
        // said, as `eval` says it: "- of 0" read as a rate over nothing
        outln!(
            "| optimal-move rate (14+ stones) | - (no holdout position has 14 stones or more) |"
        );
    } else {
        outln!(
            "| optimal-move rate (14+ stones) | {} of {} |",
            solved_rate(o.solved, o.rate()),
            o.solved
        );
        outln!(
            "| value-keeping moves (14+ stones) | {} |",
            solved_rate(o.solved, o.value_rate())
        );
    }
    Ok(0)
}

/// A checksum of the model's moves over `positions` (the same on every run of a model):
/// each move (column 1-7, 0 for none) weighted by its place, modulo 1,000,003.
fn moves_checksum(model: &Model, positions: &[Position]) -> u64 {
    positions.iter().enumerate().fold(0u64, |sum, (i, p)| {
        let column = model.best_move(p).map_or(0, |x| x as u64 + 1);
        (sum + column * (i as u64 % 1_000 + 1)) % 1_000_003
    })
}

/// Trains `bench model`'s model on the corpus's training half: the model, the number of
/// training positions and the seconds the steps took.
fn bench_training(a: &BenchModel) -> Result<(Model, usize, f64)> {
    let train_dir = a.corpus.join("train");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&train_dir)
        .with_context(|| format!("cannot list {}", train_dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            // corpus_<N>.txt from generate, corpus.txt from label --out
            name == "corpus.txt" || name.starts_with("corpus_") && name.ends_with(".txt")
        })
        .collect();
    found.sort();
    let corpus = match found.as_slice() {
        [one] => one.clone(),
        [] => bail!("no corpus_*.txt (or corpus.txt) in {}", train_dir.display()),
        many => bail!(
            "{} holds {} corpus_*.txt files ({}); bench model needs the one `corpus generate` wrote",
            train_dir.display(),
            many.len(),
            many.iter()
                .filter_map(|p| p.file_name()?.to_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let train = examples(
        &corpus,
        Some(&train_dir.join("perply_targets.npz")),
        CorpusSource::Teacher,
    )?;
    let mut t = Trainer::new(TrainConfig {
        steps: a.steps,
        batch: 16,
        lr: 0.5,
        seed: 32,
        soft_w: 1.0,
        hard_w: 0.5,
        hard_start: 0,
        hard_ramp: 1000,
        index_bits: a.index_bits,
        features: a.features,
    })?;
    let start = Instant::now();
    for _ in 0..a.steps {
        t.step(&train);
    }
    let train_s = start.elapsed().as_secs_f64();
    Ok((t.net.quantize().0, train.len(), train_s))
}
