//! Training: examples from a corpus and its sidecar, a softmax over the legal columns,
//! stochastic gradient descent on the float shadow weights, checkpoints that resume.

use std::path::Path;

use c4lab_board::{Position, WIDTH};
use c4lab_corpus::reader::read_games;
use c4lab_corpus::rng::Rng;
use c4lab_corpus::sidecar::read_labels;

use crate::error::ModelError;
use crate::features::{FeatureSet, DEFAULT_INDEX_BITS, MAX_INDEX_BITS};
use crate::net::{is_layout, sealed, Network, CHECKSUM};

/// One labelled position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Example {
    /// The position (before the move).
    pub position: Position,
    /// Target columns (bit x = column x), their mass spread evenly.
    pub mask: u8,
    /// The move the game played there.
    pub played: u8,
    /// The teacher flag of the label (0 when the target is the played move).
    pub flag: u8,
}

/// Where training targets come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The sidecar's per-ply teacher targets (every labelled slot).
    Teacher,
    /// The moves the games played, every ply, one-hot.
    Moves,
}

/// Loads the examples of a corpus: with `Source::Teacher` one per labelled slot of
/// `targets` (which must then be given), with `Source::Moves` one per ply.
pub fn load_examples(
    corpus: &Path,
    targets: Option<&Path>,
    source: Source,
) -> Result<Vec<Example>, ModelError> {
    let games = read_games(corpus)?;
    let mut out = Vec::new();
    match source {
        Source::Moves => {
            for g in &games {
                for (pos, &mv) in g.positions.iter().zip(&g.moves) {
                    out.push(Example {
                        position: *pos,
                        mask: 1 << mv,
                        played: mv,
                        flag: 0,
                    });
                }
            }
        }
        Source::Teacher => {
            let Some(targets) = targets else {
                return Err(ModelError::Config(
                    "teacher targets need the corpus's sidecar (its perply_targets.npz)".into(),
                ));
            };
            let labels = read_labels(targets)?;
            if labels.len() != games.len() {
                return Err(ModelError::Mismatch {
                    what: format!(
                        "{} has {} rows but {} has {}: they are not one corpus",
                        corpus.display(),
                        games.len(),
                        targets.display(),
                        labels.len()
                    ),
                });
            }
            for (row, (g, slots)) in games.iter().zip(labels.rows()).enumerate() {
                for s in slots.iter().filter(|s| s.ply >= 0 && s.mask != 0) {
                    let ply = s.ply as usize;
                    if ply >= g.moves.len() {
                        return Err(ModelError::Mismatch {
                            what: format!(
                                // 0-based, as the corpus gate and the sidecar count rows
                                "row {row}: a target labels ply {ply} but the game has {} plies",
                                g.moves.len()
                            ),
                        });
                    }
                    out.push(Example {
                        position: g.positions[ply],
                        mask: s.mask,
                        played: g.moves[ply],
                        flag: s.flag,
                    });
                }
            }
        }
    }
    Ok(out)
}

/// Training options (see `c4lab train --help` for their meaning on the command line).
#[derive(Debug, Clone)]
pub struct TrainConfig {
    /// Steps to take.
    pub steps: u64,
    /// Examples per step.
    pub batch: usize,
    /// Step size of gradient descent on the logits' table weights.
    pub lr: f32,
    /// Seed of the example order.
    pub seed: u64,
    /// Weight of the loss against the soft (teacher) target.
    pub soft_w: f32,
    /// Final weight of the loss against the played move (one-hot).
    pub hard_w: f32,
    /// Step at which the played-move loss starts.
    pub hard_start: u64,
    /// Steps over which its weight rises linearly from 0 to `hard_w`.
    pub hard_ramp: u64,
    /// Bits of the table indices (16 to 20; each bit doubles the model).
    pub index_bits: u32,
    /// The windows the network reads.
    pub features: FeatureSet,
}

impl TrainConfig {
    /// The played-move loss weight at `step`.
    fn hard_weight(&self, step: u64) -> f32 {
        if step < self.hard_start {
            0.0
        } else if self.hard_ramp == 0 {
            self.hard_w
        } else {
            self.hard_w * ((step - self.hard_start) as f32 / self.hard_ramp as f32).min(1.0)
        }
    }
}

/// The softmax of `logits` over the legal columns of `pos` (0 elsewhere).
pub fn policy(pos: &Position, logits: &[f32; WIDTH]) -> [f32; WIDTH] {
    let mut p = [0f32; WIDTH];
    let max = (0..WIDTH)
        .filter(|&x| pos.can_play(x))
        .map(|x| logits[x])
        .fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for x in (0..WIDTH).filter(|&x| pos.can_play(x)) {
        p[x] = (logits[x] - max).exp();
        sum += p[x];
    }
    if sum > 0.0 {
        p.iter_mut().for_each(|v| *v /= sum);
    }
    p
}

/// The target distribution of a mask: `1 / k` on each of its `k` columns.
fn spread(mask: u8) -> [f32; WIDTH] {
    let k = mask.count_ones().max(1) as f32;
    std::array::from_fn(|x| if mask & (1 << x) != 0 { 1.0 / k } else { 0.0 })
}

/// `-ln p`, with `p` kept off 0; NaN stays NaN (`f32::max` would turn it into the
/// floor, and a diverged network's loss would read as a finite number).
fn neg_ln(p: f32) -> f32 {
    if p.is_nan() {
        p
    } else {
        -p.max(1e-12).ln()
    }
}

/// Cross-entropy of the network's policy against the example's target.
pub fn loss(net: &Network, e: &Example) -> f32 {
    let p = policy(&e.position, &net.logits(&e.position));
    let t = spread(e.mask);
    (0..WIDTH)
        .filter(|&x| t[x] > 0.0)
        .map(|x| t[x] * neg_ln(p[x]))
        .sum()
}

/// A training run: the network, the step reached and the example stream.
pub struct Trainer {
    /// The float network being trained.
    pub net: Network,
    /// Steps taken so far.
    pub step: u64,
    rng: Rng,
    config: TrainConfig,
    /// The examples the run trains on: their count and digest ([`Trainer::train_on`];
    /// None until known: a fresh run before it, a checkpoint written before they were
    /// recorded).
    data: Option<(u64, u64)>,
}

/// What a checkpoint file starts with.
pub const CHECKPOINT_MAGIC: &[u8; 8] = b"C4GFCKPT";

/// In the place a checkpoint written before its run's settings were recorded holds its
/// step (which never reaches this): the settings follow.
const SETTINGS_MARK: u64 = u64::MAX;
/// The bytes before the weights of a checkpoint with its settings: the magic, the mark,
/// then step, stream state, seed, batch, lr, soft-w, hard-w, hard-start, hard-ramp, the
/// examples' count and digest.
const SETTINGS_HEADER: usize = 16 + 11 * 8;

/// A digest of the examples a run trains on, in order (their positions, targets, moves
/// and flags): a run resumes only on the same.
fn digest(examples: &[Example]) -> u64 {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for e in examples {
        h.update(e.position.key().to_le_bytes());
        h.update([e.mask, e.played, e.flag]);
    }
    u64::from_le_bytes(h.finalize()[..8].try_into().expect("8 bytes"))
}

impl Trainer {
    /// A fresh run: zero weights (the uniform policy), step 0.
    pub fn new(config: TrainConfig) -> Result<Trainer, ModelError> {
        if config.batch == 0 || config.lr.is_nan() || config.lr <= 0.0 {
            return Err(ModelError::Config(
                "--batch must be at least 1 and --lr above 0".into(),
            ));
        }
        // a value below f32's normal range moves no weight: the run trained nothing, and
        // said "trained" (1e-45 was taken, 1e-50, which reads as 0, refused)
        let tiny = |x: f32| x > 0.0 && !x.is_normal();
        if tiny(config.lr) {
            return Err(ModelError::Config(format!(
                "--lr {:e} is below {:e}, the smallest step a 32-bit float holds in full, so no weight would move: give a larger step size (the default is 0.5)",
                config.lr,
                f32::MIN_POSITIVE
            )));
        }
        for (flag, w) in [("--soft-w", config.soft_w), ("--hard-w", config.hard_w)] {
            if !(w.is_finite() && w >= 0.0) {
                return Err(ModelError::Config(format!(
                    "{flag} {w} is not a loss weight: give a finite number of 0 or more"
                )));
            }
            if tiny(w) {
                return Err(ModelError::Config(format!(
                    "{flag} {w:e} is below {:e}, the smallest weight a 32-bit float holds in full, so its loss would move no weight: give 0 or a larger weight",
                    f32::MIN_POSITIVE
                )));
            }
        }
        if config.soft_w == 0.0 && config.hard_w == 0.0 {
            return Err(ModelError::Config(
                "--soft-w and --hard-w are both 0, so no step would learn anything: give one a positive weight".into(),
            ));
        }
        // (the played-move weight only rises, so the last step has the most)
        if config.soft_w == 0.0 && config.steps > 0 && config.hard_weight(config.steps - 1) == 0.0 {
            return Err(ModelError::Config(format!(
                "--soft-w is 0 and the played-move loss (--hard-start {}, --hard-ramp {}) has no weight yet at the last of --steps {}, so no step would learn anything: lower --hard-start or give --soft-w a positive weight",
                config.hard_start, config.hard_ramp, config.steps
            )));
        }
        let widths = DEFAULT_INDEX_BITS..=MAX_INDEX_BITS;
        if !widths.contains(&config.index_bits) {
            return Err(ModelError::Config(format!(
                "--index-bits {} is outside {DEFAULT_INDEX_BITS}..={MAX_INDEX_BITS}",
                config.index_bits
            )));
        }
        Ok(Trainer {
            net: Network::with_layout(config.index_bits, config.features),
            step: 0,
            rng: Rng::new(config.seed),
            config,
            data: None,
        })
    }

    /// Names the examples the run trains on; refuses others than those a resumed
    /// checkpoint was trained on (the run would no longer be the one its settings make).
    pub fn train_on(&mut self, examples: &[Example]) -> Result<(), ModelError> {
        let now = (examples.len() as u64, digest(examples));
        match self.data {
            Some(then) if then != now => Err(ModelError::Config(format!(
                "the checkpoint was trained on other examples ({} then, {} here, with another digest) (--load-corpus, --perply-targets and --corpus-source make the examples): resume with the files it was trained on, or train afresh without --resume",
                then.0, now.0
            ))),
            _ => {
                self.data = Some(now);
                Ok(())
            }
        }
    }

    /// Takes one step: `batch` examples drawn at random, each moving the weights of
    /// its active slots by `lr / batch` times the gradient of its loss. Returns the
    /// batch's mean loss (the objective: `soft_w` times the cross-entropy against the
    /// targets plus the hard weight of this step times that against the played move),
    /// each example's taken before its own update.
    pub fn step(&mut self, examples: &[Example]) -> f32 {
        let hard = self.config.hard_weight(self.step);
        let soft = self.config.soft_w;
        let rate = self.config.lr / self.config.batch as f32;
        let mut total = 0.0;
        for _ in 0..self.config.batch {
            let e = &examples[self.rng.below(examples.len() as u64) as usize];
            let p = policy(&e.position, &self.net.logits(&e.position));
            let t = spread(e.mask);
            let mut grad = [0f32; WIDTH];
            for x in 0..WIDTH {
                if !e.position.can_play(x) {
                    continue;
                }
                let played = if x == e.played as usize { 1.0 } else { 0.0 };
                // d/dz of soft * CE(t) + hard * CE(played) under a softmax
                grad[x] = soft * (p[x] - t[x]) + hard * (p[x] - played);
                if t[x] > 0.0 {
                    total += soft * t[x] * neg_ln(p[x]);
                }
            }
            total += hard * neg_ln(p[e.played as usize]);
            self.net.descend(&e.position, rate, &grad);
        }
        self.step += 1;
        total / self.config.batch as f32
    }

    /// The size of a checkpoint of a network with `bits` index bits and the feature
    /// set `set`: its header, four bytes a weight (the float shadow weights) and the
    /// checksum.
    pub fn checkpoint_bytes(bits: u32, set: FeatureSet) -> usize {
        SETTINGS_HEADER + 4 * crate::weight_count(bits, set) + CHECKSUM
    }

    /// The size of the largest checkpoint any settings write: a reader refuses a larger
    /// file unread.
    pub fn max_checkpoint_bytes() -> usize {
        FeatureSet::ALL
            .map(|set| Trainer::checkpoint_bytes(MAX_INDEX_BITS, set))
            .into_iter()
            .max()
            .unwrap_or(0)
    }

    /// The run as bytes: magic, the settings mark, step, the example stream's state, the
    /// seed, the settings a resume must repeat (batch, lr, the loss weights and the
    /// played-move loss's start and ramp), the examples' count and digest (0 and 0 when
    /// not named), the weights, then the SHA-256 of all that. (Checkpoints written
    /// before the settings were recorded hold the step where the mark is; those written
    /// before the checksum end with their weights; both are still read.)
    pub fn checkpoint(&self) -> Vec<u8> {
        let c = &self.config;
        let (count, sum) = self.data.unwrap_or((0, 0));
        let mut out = CHECKPOINT_MAGIC.to_vec();
        for w in [
            SETTINGS_MARK,
            self.step,
            self.rng.state(),
            c.seed,
            c.batch as u64,
            u64::from(c.lr.to_bits()),
            u64::from(c.soft_w.to_bits()),
            u64::from(c.hard_w.to_bits()),
            c.hard_start,
            c.hard_ramp,
            count,
            sum,
        ] {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.net.to_bytes());
        crate::net::seal(&mut out);
        out
    }

    /// The settings recorded in a checkpoint's header (`word(i)` reads the word `i`
    /// bytes past its magic: the mark at 0, batch at 32) that differ from `config`'s: the
    /// first, as a refusal.
    fn same_settings(config: &TrainConfig, word: &dyn Fn(usize) -> u64) -> Result<(), ModelError> {
        let f = |i: usize| f32::from_bits(word(i) as u32);
        let floats = [
            ("--lr", f(40), config.lr),
            ("--soft-w", f(48), config.soft_w),
            ("--hard-w", f(56), config.hard_w),
        ];
        let ints = [
            ("--batch", word(32), config.batch as u64),
            ("--hard-start", word(64), config.hard_start),
            ("--hard-ramp", word(72), config.hard_ramp),
        ];
        let differs = ints
            .iter()
            .find(|(_, then, now)| then != now)
            .map(|(flag, then, now)| (*flag, then.to_string(), now.to_string()))
            .or_else(|| {
                floats
                    .iter()
                    .find(|(_, then, now)| then.to_bits() != now.to_bits())
                    .map(|(flag, then, now)| (*flag, then.to_string(), now.to_string()))
            });
        match differs {
            None => Ok(()),
            Some((flag, then, now)) => Err(ModelError::Config(format!(
                "the checkpoint's run used {flag} {then}, not {now}: resume it with {flag} {then} (a resumed run is the run its settings make), or train afresh without --resume"
            ))),
        }
    }

    /// Resumes a run from [`Trainer::checkpoint`] bytes with `config` (whose seed must
    /// be the checkpoint's, so the example stream continues where it stopped).
    pub fn resume(config: TrainConfig, bytes: &[u8]) -> Result<Trainer, ModelError> {
        let bad = |reason: &str| ModelError::Format {
            kind: "checkpoint",
            reason: reason.to_string(),
        };
        if bytes.len() < 32 || &bytes[..8] != CHECKPOINT_MAGIC {
            return Err(crate::error::unstarted(
                bytes,
                CHECKPOINT_MAGIC,
                32,
                "checkpoint",
            ));
        }
        let word = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
        let damaged = "its checksum does not match its contents, so the file is damaged; resume from another checkpoint or train afresh";
        let (weights, data) = if word(8) == SETTINGS_MARK {
            // with its settings: the checksum is no option (a file cut before it would
            // otherwise read as an older checkpoint)
            if bytes.len() < SETTINGS_HEADER + CHECKSUM || !sealed(bytes) {
                return Err(bad(damaged));
            }
            let w = |i: usize| word(i + 8);
            Self::same_settings(&config, &w)?;
            let data = (w(88) != 0 || w(80) != 0).then(|| (w(80), w(88)));
            (&bytes[SETTINGS_HEADER..bytes.len() - CHECKSUM], Some(data))
        } else {
            // a checkpoint ends with its checksum, or (written before there was one)
            // with its last weight; the weight count tells the two apart, as every
            // layout's is a multiple of seven and the checksum takes the room of eight
            let sum = bytes.len().saturating_sub(CHECKSUM).max(32);
            // a checkpoint with its settings whose mark was damaged has the size of one
            let settings_size = bytes
                .len()
                .checked_sub(SETTINGS_HEADER + CHECKSUM)
                .is_some_and(|w| w.is_multiple_of(4) && is_layout(w / 4));
            let weights = if sum > 32 && sealed(bytes) {
                &bytes[32..sum]
            } else if settings_size || (sum - 32).is_multiple_of(4) && is_layout((sum - 32) / 4) {
                return Err(bad(damaged));
            } else {
                &bytes[32..]
            };
            (weights, None)
        };
        // (the settings' checkpoint holds its words one later, past the mark)
        let at = if data.is_some() { 8 } else { 0 };
        let (step, state, seed) = (word(8 + at), word(16 + at), word(24 + at));
        if seed != config.seed {
            return Err(ModelError::Config(format!(
                "the checkpoint was trained with --seed {seed}; resume it with the same seed"
            )));
        }
        let net = Network::from_bytes(weights).ok_or_else(|| {
            bad(&format!(
                "its {} bytes of weights fit no table layout (--index-bits 16-20 with --features threats or columns), so the file is damaged or not a checkpoint; resume from another checkpoint or train afresh",
                weights.len()
            ))
        })?;
        if let Some(i) = net.first_non_finite() {
            return Err(bad(&format!(
                "weight {i} is not a finite number, so the file is damaged; resume from another checkpoint or train afresh"
            )));
        }
        if net.index_bits() != config.index_bits || net.feature_set() != config.features {
            return Err(ModelError::Config(format!(
                "the checkpoint has {}-bit table indices and the {} features; resume it with --index-bits {} --features {}",
                net.index_bits(),
                net.feature_set().name(),
                net.index_bits(),
                net.feature_set().name()
            )));
        }
        let mut t = Trainer::new(config)?;
        t.net = net;
        t.step = step;
        t.rng = Rng::from_state(state);
        t.data = data.flatten();
        Ok(t)
    }
}
