//! `c4lab train`: the GF(2^8) lookup-table model (`eval.rs` measures and uses it, its
//! benchmark is in `model_bench.rs`).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use c4lab_model::eval::{agreement, Agreement};
use c4lab_model::{load_examples, Example, FeatureSet, Model, Source, TrainConfig, Trainer};
use indicatif::{ProgressBar, ProgressStyle};

use crate::files::{is_stdout, same_file, Output};

/// Where targets come from, on the command line.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CorpusSource {
    /// The sidecar's per-ply teacher targets.
    Teacher,
    /// The moves the games played (no sidecar needed).
    Moves,
}

impl From<CorpusSource> for Source {
    fn from(s: CorpusSource) -> Source {
        match s {
            CorpusSource::Teacher => Source::Teacher,
            CorpusSource::Moves => Source::Moves,
        }
    }
}

/// `c4lab train`'s options (the source document's command line, with this model's meaning).
#[derive(clap::Args)]
pub struct TrainArgs {
    /// Training corpus (v2 transcript, one game per line). Repeat it to train on
    /// several corpora at once (a corpus named twice is sampled twice as often).
    #[arg(long, required = true)]
    load_corpus: Vec<PathBuf>,
    /// The per-ply target sidecar (perply_targets.npz) of each --load-corpus, in the
    /// same order; needed with --corpus-source teacher (default: each corpus's own
    /// perply_targets.npz beside it).
    #[arg(long)]
    perply_targets: Vec<PathBuf>,
    /// Holdout corpus, scored during and after training.
    #[arg(long)]
    holdout_corpus: Option<PathBuf>,
    /// The holdout's sidecar (default: perply_targets.npz beside the holdout corpus).
    #[arg(long)]
    holdout_targets: Option<PathBuf>,
    /// Transcript format of the corpora; only `v2` (10 bytes a ply) exists.
    #[arg(long, default_value = "v2", value_parser = ["v2"])]
    transcript: String,
    /// The move loss: `7way` is a softmax over the seven columns (full ones masked).
    #[arg(long, default_value = "7way", value_parser = ["7way"])]
    move_loss: String,
    /// Weight of the cross-entropy against the soft target (the sidecar's mass spread evenly over its best columns).
    #[arg(long, default_value_t = 1.0, value_parser = float32)]
    soft_w: f32,
    /// Gradient steps (at least 1).
    #[arg(long, default_value_t = 100_000, value_parser = crate::solve::count_u64_arg)]
    steps: u64,
    /// Examples per step (each moves the weights by lr / batch times its gradient), at
    /// most 1,048,576 (a million take about a second a step).
    #[arg(long, default_value_t = 16, value_parser = crate::whole::range::<u64>(1, 1_048_576))]
    batch: u64,
    /// Context in transcript bytes. The source's sequence model read this many bytes;
    /// this model reads only the current position (one ply, 10 bytes), so --ctx must be
    /// at least 10 and changes nothing else.
    #[arg(long, default_value_t = 192, value_parser = crate::whole::any_usize)]
    ctx: usize,
    /// Step size of gradient descent on the table weights (the logits are sums of 23
    /// weights, 15 with --features columns).
    #[arg(long, default_value_t = 0.5, value_parser = float32)]
    lr: f32,
    /// Seed of the example order: a run is deterministic given it.
    #[arg(long, default_value_t = 32, value_parser = crate::whole::any_u64)]
    seed: u64,
    /// Targets: `teacher` (sidecar) or `moves` (the played moves, one-hot, at every ply:
    /// the holdout is board-disjoint on labelled plies only, so with `moves` some of its
    /// positions also occur in training).
    #[arg(long, value_enum, default_value = "teacher")]
    corpus_source: CorpusSource,
    /// Step at which the loss against the played move (one-hot) starts.
    #[arg(long, default_value_t = 0, value_parser = crate::whole::any_u64)]
    hard_start: u64,
    /// Steps over which that loss's weight rises linearly from 0 to --hard-w.
    #[arg(long, default_value_t = 1000, value_parser = crate::whole::any_u64)]
    hard_ramp: u64,
    /// Final weight of the loss against the played move.
    #[arg(long, default_value_t = 0.5, value_parser = float32)]
    hard_w: f32,
    /// Bits of the table indices, 16 to 20: each bit doubles the model (threats: 23.9
    /// MB at 16, 95.4 MB at 18; columns: 14.7 and 58.7 MB) and lets hashed windows
    /// collide half as often.
    #[arg(long, default_value_t = 16, value_parser = crate::whole::index_bits)]
    index_bits: u32,
    /// The windows the network reads: `threats` (the column windows, each column's
    /// threat cells, and the lowest threat of each side in every column at once) or
    /// `columns` (the fifteen windows of 2-4 adjacent columns only).
    #[arg(long, default_value = "threats")]
    features: FeatureSet,
    /// Where to write the exported integer model.
    #[arg(long, default_value = "model.c4m")]
    out: PathBuf,
    /// Checkpoint file (float weights, step, example stream); default: the model path + `.ckpt`.
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// Write the checkpoint every this many steps (and at the end). A checkpoint holds
    /// the float weights (48 MB at 16-bit indices, about 760 MB at 20; with --features
    /// columns 29 and 470 MB), so writing one every
    /// 10,000 steps can cost more than the training between them.
    #[arg(long, default_value_t = 500_000, value_parser = crate::solve::count_u64_arg)]
    checkpoint_every: u64,
    /// Continue from the checkpoint (same --seed) up to --steps.
    #[arg(long)]
    resume: bool,
    /// Start afresh over an existing checkpoint (without --resume a checkpoint that is
    /// there is refused: a forgotten --resume would write over a long run's).
    #[arg(long, conflicts_with = "resume")]
    overwrite: bool,
    /// Score the holdout every this many steps (shown on the progress bar).
    #[arg(long, default_value_t = 10_000, value_parser = crate::solve::count_u64_arg)]
    eval_every: u64,
}

pub(crate) fn examples(
    corpus: &Path,
    targets: Option<&Path>,
    source: CorpusSource,
) -> Result<Vec<Example>> {
    // a sidecar of another corpus with as many rows passes the reader, and would be
    // trained on or scored against as if it fitted (as `split` and `label` refuse it)
    crate::corpus_paths::corpus_file(corpus)?;
    match targets {
        Some(targets) => c4lab_corpus::gate::require_clean(corpus, targets)?,
        // the played moves alone: a transcript cut short or with a blank row was
        // trained on and scored as if whole
        None => c4lab_corpus::gate::require_clean_transcript(corpus)?,
    }
    let e = load_examples(corpus, targets, source.into())
        .with_context(|| format!("cannot load examples from {}", corpus.display()))?;
    if e.is_empty() {
        bail!("{} holds no labelled positions", corpus.display());
    }
    Ok(e)
}

pub(crate) fn pct(a: &Agreement) -> String {
    format!("{:.1} %", 100.0 * a.rate())
}

/// A rate over the `solved` positions as a percentage; `-` over none (no figure).
pub(crate) fn solved_rate(solved: u64, rate: f64) -> String {
    if solved == 0 {
        "-".to_string()
    } else {
        format!("{:.1} %", 100.0 * rate)
    }
}

/// Parses a 32-bit float option, refusing a number it cannot hold (`1e39` became
/// `inf` and `1e-50` became 0, and the refusal named those rather than the value given).
fn float32(text: &str) -> Result<f32, String> {
    let wide: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a number"))?;
    let narrow = wide as f32;
    if wide.is_finite() && narrow.is_infinite() {
        return Err(format!(
            "{text} is larger than a 32-bit float holds (about 3.4e38 at most)"
        ));
    }
    if wide != 0.0 && narrow == 0.0 {
        return Err(format!(
            "{text} is nearer 0 than a 32-bit float holds (about 1e-45 at least)"
        ));
    }
    Ok(narrow)
}

/// The export's scale (32,767 over the largest weight): to one decimal, or to three
/// figures when that would read 0.0 (weights blown up by a large step size).
fn shown_scale(scale: f32) -> String {
    if scale >= 0.05 {
        format!("{scale:.1}")
    } else {
        format!("{scale:.2e}")
    }
}

/// Fills in the sidecars not named (with `--corpus-source teacher`): each corpus's
/// perply_targets.npz beside it, as the corpus commands read it. Two corpora of one
/// folder share no sidecar (one corpus named twice is one corpus), nor does the holdout
/// share one with the training corpora.
fn default_sidecars(a: &mut TrainArgs) -> Result<()> {
    use crate::corpus_paths::sidecar_beside;
    if a.corpus_source != CorpusSource::Teacher {
        return Ok(());
    }
    let same = |x: &Path, y: &Path| {
        let (x, y) = (x.canonicalize(), y.canonicalize());
        x.is_ok() && x.ok() == y.ok()
    };
    // the corpus other than `corpus` whose sidecar (in `sidecars`) `sidecar` already is
    let owner = |sidecars: &[PathBuf], sidecar: &Path, corpus: &Path| {
        let mut pairs = a.load_corpus.iter().zip(sidecars);
        let clash = pairs.find(|(other, its)| same(its, sidecar) && !same(other, corpus));
        clash.map(|(other, _)| other.clone())
    };
    if a.perply_targets.is_empty() {
        let mut found: Vec<PathBuf> = Vec::new();
        for corpus in &a.load_corpus {
            let Some(sidecar) = sidecar_beside(corpus)? else {
                bail!(
                    "--load-corpus {} has no perply_targets.npz beside it: give each corpus its sidecar with --perply-targets, in the same order",
                    corpus.display()
                );
            };
            if let Some(other) = owner(&found, &sidecar, corpus) {
                bail!(
                    "--load-corpus {} and {} share their folder's perply_targets.npz: give each its own with --perply-targets, in the same order",
                    other.display(),
                    corpus.display()
                );
            }
            found.push(sidecar);
        }
        a.perply_targets = found;
    }
    if let (Some(hold), None) = (&a.holdout_corpus, &a.holdout_targets) {
        if let Some(sidecar) = sidecar_beside(hold)? {
            if let Some(corpus) = owner(&a.perply_targets, &sidecar, hold) {
                bail!(
                    "--holdout-corpus {} shares its folder's perply_targets.npz with --load-corpus {}: give --holdout-targets",
                    hold.display(),
                    corpus.display()
                );
            }
            a.holdout_targets = Some(sidecar);
        }
    }
    Ok(())
}

/// `c4lab train`.
pub fn train(mut a: TrainArgs) -> Result<u8> {
    if a.ctx < 10 {
        bail!("--ctx {} is shorter than one ply (10 bytes)", a.ctx);
    }
    if !(a.lr.is_finite() && a.lr > 0.0) {
        bail!(
            "--lr {} is not a positive step size (the default is 0.5)",
            a.lr
        );
    }
    if a.holdout_targets.is_some() && a.holdout_corpus.is_none() {
        bail!("--holdout-targets is the sidecar of --holdout-corpus: give the holdout corpus too");
    }
    // a sidecar not named is the one beside its corpus
    default_sidecars(&mut a)?;
    if let (CorpusSource::Teacher, Some(hold), None) =
        (a.corpus_source, &a.holdout_corpus, &a.holdout_targets)
    {
        // (it said "teacher targets need the corpus's sidecar", naming no flag)
        bail!(
            "--holdout-corpus {} is scored against its sidecar, and no perply_targets.npz is beside it: give --holdout-targets, or pass --corpus-source moves",
            hold.display()
        );
    }
    if a.corpus_source == CorpusSource::Moves
        && (!a.perply_targets.is_empty() || a.holdout_targets.is_some())
    {
        bail!("--corpus-source moves trains on the played moves and reads no sidecar: leave out --perply-targets and --holdout-targets");
    }
    if a.corpus_source == CorpusSource::Teacher && a.perply_targets.len() != a.load_corpus.len() {
        bail!(
            "{} --load-corpus but {} --perply-targets: give each corpus its sidecar, in the same order (or none, for each corpus's own beside it)",
            a.load_corpus.len(),
            a.perply_targets.len()
        );
    }
    if let Some(hold) = &a.holdout_corpus {
        if a.load_corpus.iter().any(|c| same_file(c, hold)) {
            sayln!(
                "warning: --holdout-corpus {} is also a training corpus: its agreement measures what the model memorised, not how it plays positions it never saw",
                hold.display()
            );
        }
    }
    // the default checkpoint goes beside --out: beside a device it would be a new file
    // in /dev (train --out /dev/null wrote /dev/null.ckpt; --out /dev/stdout, standard
    // output redirected to a file, wrote a 47 MB /dev/stdout.ckpt)
    if a.checkpoint.is_none() {
        if std::fs::metadata(&a.out).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
            bail!(
                "--out {} is no regular file (a device or FIFO), so the checkpoint cannot go beside it as {}.ckpt; name one with --checkpoint",
                a.out.display(),
                a.out.display()
            );
        }
        if is_stdout(&a.out) {
            bail!(
                "--out {} is standard output, so the checkpoint cannot go beside it as {}.ckpt; name one with --checkpoint",
                a.out.display(),
                a.out.display()
            );
        }
    }
    let ckpt = a
        .checkpoint
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{}.ckpt", a.out.display())));
    // an output that is an input (or the other output) would be overwritten unasked
    if same_file(&a.out, &ckpt) {
        bail!(
            "--out and the checkpoint are the same file, {}; name another --checkpoint",
            a.out.display()
        );
    }
    // nor may one be the other's `.part` file, written over while the other is made
    // (with --checkpoint OUT.part the checkpoint was renamed into place as the model)
    let part_of = |p: &Path| PathBuf::from(format!("{}.part", p.display()));
    if same_file(&ckpt, &part_of(&a.out)) || same_file(&a.out, &part_of(&ckpt)) {
        bail!(
            "--out {} and the checkpoint {} would share a file as it is written (one is the other's name with .part); name another --checkpoint",
            a.out.display(),
            ckpt.display()
        );
    }
    let inputs = a
        .load_corpus
        .iter()
        .map(|p| (p, "--load-corpus"))
        .chain(a.perply_targets.iter().map(|p| (p, "--perply-targets")))
        .chain(a.holdout_corpus.iter().map(|p| (p, "--holdout-corpus")))
        .chain(a.holdout_targets.iter().map(|p| (p, "--holdout-targets")));
    for (input, flag) in inputs {
        for (output, what) in [(&a.out, "--out"), (&ckpt, "the checkpoint")] {
            if same_file(output, input) {
                bail!(
                    "{what} {} is also an input ({flag}); name another file to write",
                    output.display()
                );
            }
        }
    }
    // said before the corpus is read and the model trained, not after
    crate::files::writable(&a.out, "--out", (c4lab_model::MODEL_MAGIC, "model"))?;
    let ckpt_flag = if a.checkpoint.is_some() {
        "--checkpoint"
    } else {
        "the checkpoint (--out with .ckpt; set it with --checkpoint)"
    };
    crate::files::writable(
        &ckpt,
        ckpt_flag,
        (c4lab_model::CHECKPOINT_MAGIC, "checkpoint"),
    )?;
    // held from here: a second training into the same --out (and so the same default
    // checkpoint) is refused at once, not left to overwrite this one's checkpoints
    let model_out = Output::new(&a.out).hold()?;
    // and the checkpoint, by its .part file, between its writes too: a run naming the
    // same --checkpoint with another --out was let in before this one's first
    // checkpoint, and the two wrote over each other's
    let mut ckpt_out = Output::new(&ckpt).hold()?;
    // (writable: a file there is a c4lab checkpoint)
    let ckpt_in_use = ckpt.metadata().is_ok_and(|m| m.is_file() && m.len() > 0);
    if ckpt_in_use && !a.resume && !a.overwrite {
        bail!(
            "the checkpoint {} holds a run, which this fresh run would write over: pass --resume to go on with it, or --overwrite to start afresh",
            ckpt.display()
        );
    }
    let config = TrainConfig {
        steps: a.steps,
        batch: a.batch as usize,
        lr: a.lr,
        seed: a.seed,
        soft_w: a.soft_w,
        hard_w: a.hard_w,
        hard_start: a.hard_start,
        hard_ramp: a.hard_ramp,
        index_bits: a.index_bits,
        features: a.features,
    };
    let mut t = if a.resume {
        let most = c4lab_model::Trainer::max_checkpoint_bytes() as u64;
        let bytes =
            crate::input::read_bytes_limited(&ckpt, most, "checkpoint", c4lab_model::CHECKPOINT_MAGIC).with_context(|| {
                format!(
                    "cannot read the checkpoint {} to resume (train without --resume to start a run; --checkpoint names another file)",
                    ckpt.display()
                )
            })?;
        let t = Trainer::resume(config, &bytes).with_context(|| ckpt.display().to_string())?;
        // said before the corpus is read: a run is not rewound
        if t.step > a.steps {
            bail!(
                "the checkpoint {} is at step {}, past --steps {}; ask for --steps {} or more to go on, or train afresh without --resume",
                ckpt.display(),
                t.step,
                a.steps,
                t.step
            );
        }
        t
    } else {
        Trainer::new(config)?
    };
    let mut train = Vec::new();
    for (i, corpus) in a.load_corpus.iter().enumerate() {
        let targets = a.perply_targets.get(i).map(PathBuf::as_path);
        train.extend(examples(corpus, targets, a.corpus_source)?);
    }
    // a resumed run goes on only on the examples it was trained on
    t.train_on(&train)
        .with_context(|| format!("--resume {}", ckpt.display()))?;
    let hold = match &a.holdout_corpus {
        Some(p) => examples(p, a.holdout_targets.as_deref(), a.corpus_source)?,
        None => Vec::new(),
    };
    sayln!(
        "{} training positions, {} holdout positions",
        train.len(),
        hold.len()
    );
    let bar = ProgressBar::new(a.steps);
    bar.set_style(
        ProgressStyle::with_template(
            "[{elapsed_precise}] {wide_bar} {human_pos}/{human_len} steps, {msg}, ETA {eta}",
        )
        .expect("template"),
    );
    bar.set_position(t.step);
    crate::plain::clear_bar_on_stop(&bar);
    let mut plain = crate::plain::PlainProgress::new("train", "steps", a.steps);
    let from = t.step;
    let start = Instant::now();
    // (the bar's agreement is the float network's alone, as the summary's first figure;
    // `eval` and the summary's last figure add the tactical checks)
    let (mut mean, mut held) = (None::<f32>, String::from("holdout (network alone) -"));
    // a run that diverged stops before its NaN weights replace the last good checkpoint:
    // the loss is checked every step, every weight once in 100,000 steps and before each
    // checkpoint: a scan of them all costs about as much as 500 steps (a scan every 1,000
    // steps made a run 1.55 times as long)
    let diverged = |t: &Trainer, loss: f32, good_checkpoint: bool| {
        let weight = t.net.first_non_finite();
        if loss.is_finite() && weight.is_none() {
            return Ok(());
        }
        let what = weight.map_or(format!("the loss is {loss}"), |i| {
            format!("weight {i} is no longer a finite number")
        });
        let kept = if good_checkpoint {
            format!(
                "{} keeps the last good checkpoint: resume from it",
                ckpt.display()
            )
        } else {
            "no checkpoint was written: train again".to_string()
        };
        bail!(
            "training diverged by step {}: {what}; {kept} with {}",
            t.step,
            step_fixes(&a)
        )
    };
    // the checkpoint file holds good weights once this run resumed from it or wrote it
    let mut good_checkpoint = from > 0;
    // the training examples' loss before the run, to tell a run that made it worse
    let (loss_before, _) = sample_loss(&t.net, &train);
    while t.step < a.steps {
        let l = t.step(&train);
        if !l.is_finite() || t.step % 100_000 == 0 {
            diverged(&t, l, good_checkpoint)?;
        }
        // (a running mean from the first step's loss on, whatever that loss is)
        let m = mean.map_or(l, |m| 0.99 * m + 0.01 * l);
        mean = Some(m);
        if !hold.is_empty() && t.step % a.eval_every.max(1) == 0 {
            let f = agreement(&hold, |p| t.net.best_move(p));
            held = format!("holdout (network alone) {}", pct(&f));
        }
        if t.step % a.checkpoint_every.max(1) == 0 {
            diverged(&t, l, good_checkpoint)?;
            ckpt_out.write_and_hold(&t.checkpoint())?;
            good_checkpoint = true;
        }
        if t.step % 100 == 0 {
            bar.set_position(t.step);
            bar.set_message(format!("loss {m:.3}, {held}"));
            plain.update(t.step, &format!(", loss {m:.3}, {held}"));
        }
    }
    // (the steps' time: writing the checkpoint and the model is not training)
    let trained_in = start.elapsed();
    bar.finish_and_clear();
    plain.finish(t.step, "");
    diverged(&t, mean.unwrap_or(0.0), good_checkpoint)?;
    // a loss that stayed finite but rose over the run: steps that overshoot leave a
    // model worse than the one they started from (--lr 1e30 trained one without a word);
    // judged after 1,000 steps or more, on the same training examples before and after
    let (loss_after, sampled) = sample_loss(&t.net, &train);
    // steps too small to move a weight (a tiny --lr or loss weight) leave the model as
    // it was, and "trained" said nothing of it
    if sampled > 0 && t.step > from && loss_after == loss_before {
        sayln!(
            "warning: the run left the model as it was: its loss on {} training positions stayed {loss_before:.6}, as steps too small to move a weight do; train again with a larger --lr (now {:?}) or loss weights (--soft-w {:?}, --hard-w {:?})",
            sampled,
            a.lr,
            a.soft_w,
            a.hard_w
        );
    }
    if sampled > 0 && t.step - from >= 1_000 && loss_after > loss_before {
        sayln!(
            "warning: the run left the model worse than it started: its loss on {} training positions rose from {loss_before:.3} to {loss_after:.3}, as steps that overshoot do; train again with {}",
            sampled,
            step_fixes(&a)
        );
    }
    ckpt_out.finish(&t.checkpoint())?;
    let (model, scale) = t.net.quantize();
    model_out.finish(&model.to_bytes())?;
    // a resumed run says where it started
    let resumed = if from > 0 {
        format!(" (resumed at step {from})")
    } else {
        String::new()
    };
    // the figure to compare runs by is the model's own loss on a fixed sample, the same
    // for a run resumed halfway as for one run through (the running mean starts afresh
    // when a run resumes, so it differs between the two for the same model)
    let since = if from > 0 {
        format!(" since step {from}")
    } else {
        String::new()
    };
    let loss = match mean {
        Some(m) => format!(
            "{loss_after:.3} on {} (the running mean of the steps{since}: {m:.3})",
            crate::complete::counted(sampled as u64, "training position")
        ),
        // (the model's loss all the same: "-" left a finished run's resume without it)
        None => format!(
            "{loss_after:.3} on {} (no step left to run, so no running mean)",
            crate::complete::counted(sampled as u64, "training position")
        ),
    };
    outln!(
        "trained {}{resumed} in {:.1} s; loss {loss}; model {} ({} bytes, scale {}), checkpoint {}",
        crate::complete::counted(t.step, "step"),
        trained_in.as_secs_f64(),
        a.out.display(),
        model.size_bytes(),
        shown_scale(scale),
        ckpt.display()
    );
    if !hold.is_empty() {
        let f = agreement(&hold, |p| t.net.best_move(p));
        let q = agreement(&hold, |p| model.net_move(p));
        let played = agreement(&hold, |p| model.best_move(p));
        outln!(
            "holdout agreement of the network: {} float, {} integer (quantization changes it by {:+.2} points); of the model's moves (with the tactical checks): {}",
            pct(&f),
            pct(&q),
            100.0 * (q.rate() - f.rate()),
            pct(&played)
        );
    }
    Ok(0)
}

/// The training positions [`sample_loss`] judges a run on.
const LOSS_SAMPLE: usize = 2_000;

/// The mean cross-entropy against the targets of at most [`LOSS_SAMPLE`] examples spread
/// evenly over the list, and how many.
fn sample_loss(net: &c4lab_model::Network, examples: &[c4lab_model::Example]) -> (f64, usize) {
    let every = examples.len().div_ceil(LOSS_SAMPLE).max(1);
    let sample: Vec<_> = examples.iter().step_by(every).collect();
    let sum: f64 = sample
        .iter()
        .map(|e| f64::from(c4lab_model::train::loss(net, e)))
        .sum();
    (sum / sample.len().max(1) as f64, sample.len())
}

/// What makes the training steps too large: the step size, and a loss weight raised
/// from its default.
fn step_fixes(a: &TrainArgs) -> String {
    let mut fixes = vec![format!("a lower --lr (now {:?})", a.lr)];
    for (flag, w, default) in [("--soft-w", a.soft_w, 1.0), ("--hard-w", a.hard_w, 0.5)] {
        if w > default {
            fixes.push(format!("a lower {flag} (now {w:?})"));
        }
    }
    fixes.join(" or ")
}

/// Reads an exported model (a huge file or a device that never ends is refused unread).
pub fn load_model(path: &Path) -> Result<Model> {
    let most = Model::max_file_bytes() as u64;
    let bytes = crate::input::read_bytes_limited(path, most, "model", c4lab_model::MODEL_MAGIC)
        .with_context(|| format!("cannot read {}", path.display()))?;
    Model::from_bytes(&bytes).with_context(|| path.display().to_string())
}
