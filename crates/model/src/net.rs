//! The network's two forms: [`Network`], float shadow weights for training, and
//! [`Model`], the exported integer tables whose forward pass is byte work, GF(2^8)
//! table lookups and integer adds only.

use c4lab_board::{Position, WIDTH};
use sha2::{Digest, Sha256};

use crate::error::ModelError;
use crate::features::{features, FeatureSet, DEFAULT_INDEX_BITS, MAX_INDEX_BITS};
use crate::tactics::{argmax_among, choose, legal_columns};

/// Weights in all tables of `bits`-bit indices for `set`: two sides, its tables,
/// `1 << bits` slots, seven scores.
pub fn weight_count(bits: u32, set: FeatureSet) -> usize {
    (2 * set.tables() * WIDTH) << bits
}

/// The index width and feature set whose tables hold `n` weights, if any (a count
/// names one: the sets have 8 and 13 tables a side, and 13 is odd).
fn layout_of(n: usize) -> Option<(u32, FeatureSet)> {
    FeatureSet::ALL.into_iter().find_map(|set| {
        (DEFAULT_INDEX_BITS..=MAX_INDEX_BITS)
            .find(|&b| weight_count(b, set) == n)
            .map(|b| (b, set))
    })
}

/// True when some index width and feature set hold exactly `n` weights.
pub(crate) fn is_layout(n: usize) -> bool {
    layout_of(n).is_some()
}

/// The row of seven weights a feature selects.
#[inline(always)]
fn row_of(f: &crate::features::Feature, bits: u32) -> usize {
    ((f.table << bits) + f.slot) * WIDTH
}
/// `values` (`n` of them) in a vector advised to use huge pages before it is filled:
/// the tables are probed at random and span 15-470 MB, so most lookups would otherwise
/// also miss the address-translation cache.
fn table_vec<T>(n: usize, values: impl Iterator<Item = T>) -> Vec<T> {
    let mut v = Vec::with_capacity(n);
    c4lab_solver::advise_huge_pages(v.as_ptr() as usize, n * std::mem::size_of::<T>());
    v.extend(values);
    v
}

/// What an exported model file starts with, before its version.
pub const MODEL_MAGIC: &[u8; 8] = b"C4GF256M";
/// The file format's version: 2 ends with the SHA-256 of the bytes before it.
const VERSION: u32 = 2;
/// The version without the checksum, refused by name.
const VERSION_UNCHECKED: u32 = 1;
/// The bytes of the SHA-256 a model or checkpoint file ends with.
pub(crate) const CHECKSUM: usize = 32;

/// True when `bytes` ends with the SHA-256 of the bytes before it.
pub(crate) fn sealed(bytes: &[u8]) -> bool {
    bytes.len() >= CHECKSUM && {
        let (body, sum) = bytes.split_at(bytes.len() - CHECKSUM);
        Sha256::digest(body).as_slice() == sum
    }
}

/// Appends the SHA-256 of `bytes` to them.
pub(crate) fn seal(bytes: &mut Vec<u8>) {
    let sum = Sha256::digest(&*bytes);
    bytes.extend_from_slice(&sum);
}

/// The legal column with the highest score, ties to the centre; None on a full board.
fn argmax<T: PartialOrd + Copy>(pos: &Position, scores: &[T; WIDTH]) -> Option<usize> {
    argmax_among(legal_columns(pos), scores)
}

/// The model's advice for one position: its move and the network's column scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hint {
    /// The column the model plays (0-based; None on a full board).
    pub column: Option<usize>,
    /// The network's summed score of each column (None for a full column).
    pub scores: [Option<i32>; WIDTH],
}

impl Hint {
    /// `{"column": 1-7 or null, "scores": [number or null, ...]}`, columns 1-based, null
    /// for a full column (as `c4lab analyze --json` writes one), the form `c4lab hint
    /// --json` and the Lab's engine both print (each adds its own keys).
    pub fn to_json(&self) -> serde_json::Value {
        // (a full column was the string "full": a script reading numbers, as it reads
        // analyze's, met a string among them)
        let scores: Vec<serde_json::Value> = self
            .scores
            .iter()
            .map(|s| s.map_or(serde_json::Value::Null, serde_json::Value::from))
            .collect();
        serde_json::json!({ "column": self.column.map(|x| x + 1), "scores": scores })
    }
}

/// The integer model: 16-bit scores per table slot and column.
#[derive(Clone, PartialEq, Eq)]
pub struct Model {
    weights: Vec<i16>,
    bits: u32,
    set: FeatureSet,
}

impl Model {
    /// The summed scores of the seven columns for `pos` (full columns included).
    pub fn scores(&self, pos: &Position) -> [i32; WIDTH] {
        let mut s = [0i32; WIDTH];
        for f in features(pos, self.bits, self.set) {
            let row = &self.weights[row_of(&f, self.bits)..][..WIDTH];
            for (x, v) in s.iter_mut().enumerate() {
                *v += row[if f.mirrored { WIDTH - 1 - x } else { x }] as i32;
            }
        }
        s
    }

    /// The model's move: the network's best-scoring column among those the tactical
    /// checks of [`choose`] leave (the tables are not read when they leave one).
    pub fn best_move(&self, pos: &Position) -> Option<usize> {
        choose(pos, || self.scores(pos))
    }

    /// The network's own move: the best-scoring legal column, without the tactical
    /// checks of [`Model::best_move`].
    pub fn net_move(&self, pos: &Position) -> Option<usize> {
        argmax(pos, &self.scores(pos))
    }

    /// The move [`Model::best_move`] plays in `pos` and the scores behind it.
    pub fn hint(&self, pos: &Position) -> Hint {
        let raw = self.scores(pos);
        let mut scores = [None; WIDTH];
        for (x, s) in scores.iter_mut().enumerate() {
            if pos.can_play(x) {
                *s = Some(raw[x]);
            }
        }
        Hint {
            column: self.best_move(pos),
            scores,
        }
    }

    /// The model as bytes: magic, version, weight count, little-endian `i16`s, then the
    /// SHA-256 of all that (a damaged weight would otherwise only change the hints).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(16 + 2 * self.weights.len() + CHECKSUM);
        out.extend_from_slice(MODEL_MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.weights.len() as u32).to_le_bytes());
        for w in &self.weights {
            out.extend_from_slice(&w.to_le_bytes());
        }
        seal(&mut out);
        out
    }

    /// The size of the largest model file (the most index bits, the larger feature set),
    /// so a reader can refuse a bigger file before it loads it.
    pub fn max_file_bytes() -> usize {
        let most = FeatureSet::ALL.map(|set| weight_count(MAX_INDEX_BITS, set));
        16 + 2 * most.into_iter().max().unwrap_or(0) + CHECKSUM
    }

    /// Reads a model written by [`Model::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, ModelError> {
        let bad = |reason: String| ModelError::Format {
            kind: "model",
            reason,
        };
        if bytes.starts_with(crate::train::CHECKPOINT_MAGIC) {
            return Err(bad(
                "it is a training checkpoint, which train --resume takes; the model is written beside it (by default the same name without .ckpt)".into(),
            ));
        }
        if bytes.len() < 16 || &bytes[..8] != MODEL_MAGIC {
            return Err(crate::error::unstarted(bytes, MODEL_MAGIC, 16, "model"));
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        // a file laid out as this version's (header, weights, checksum) whose version
        // field reads otherwise and whose checksum fails is this version's file damaged
        // there, not one from another build (a flipped bit read "version 3")
        let n = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as usize;
        // (in u64: 2n overflows a 32-bit usize, as in the browser, before n is checked)
        let laid_out = bytes.len() as u64 == 16 + 2 * n as u64 + CHECKSUM as u64;
        if version != VERSION && laid_out && !sealed(bytes) {
            return Err(bad(format!(
                "its checksum does not match its contents, so the file is damaged (its version field reads {version}, where this program writes and reads {VERSION}); train it again or use another copy"
            )));
        }
        match version {
            VERSION => {}
            VERSION_UNCHECKED => {
                return Err(bad(format!(
                    "version {VERSION_UNCHECKED}, written before model files carried a checksum, so a damaged weight in it cannot be told from a good one; train it again with `c4lab train`"
                )))
            }
            _ => {
                return Err(bad(format!(
                    "version {version}; this program reads version {VERSION}"
                )))
            }
        }
        let checksum = CHECKSUM;
        let (bits, set) = layout_of(n).ok_or_else(|| {
            let range = |set| {
                format!(
                    "{} to {} ({})",
                    weight_count(DEFAULT_INDEX_BITS, set),
                    weight_count(MAX_INDEX_BITS, set),
                    FeatureSet::name(set)
                )
            };
            bad(format!(
                "{n} weights; a model has {} or {}, for {DEFAULT_INDEX_BITS}- to {MAX_INDEX_BITS}-bit indices",
                range(FeatureSet::Threats),
                range(FeatureSet::Columns)
            ))
        })?;
        if bytes.len() != 16 + 2 * n + checksum {
            let (expected, held) = (16 + 2 * n + checksum, bytes.len());
            let why = match held < expected {
                true => "the file was cut short, or its header is damaged",
                false => "the file runs on past its weights, or its header is damaged",
            };
            return Err(bad(format!(
                "{held} bytes for {n} weights; expected {expected}: {why}; train it again or use another copy"
            )));
        }
        if !sealed(bytes) {
            return Err(bad(
                "its checksum does not match its contents, so the file is damaged; train it again or use another copy".into(),
            ));
        }
        let weights = table_vec(
            n,
            bytes[16..16 + 2 * n]
                .chunks_exact(2)
                .map(|b| i16::from_le_bytes([b[0], b[1]])),
        );
        Ok(Model { weights, bits, set })
    }

    /// Size of the exported model in bytes.
    pub fn size_bytes(&self) -> usize {
        16 + 2 * self.weights.len() + CHECKSUM
    }

    /// Bits of its table indices.
    pub fn index_bits(&self) -> u32 {
        self.bits
    }

    /// The windows it reads.
    pub fn feature_set(&self) -> FeatureSet {
        self.set
    }
}

/// The float shadow of the model, which training updates.
#[derive(Clone, PartialEq)]
pub struct Network {
    pub(crate) weights: Vec<f32>,
    bits: u32,
    set: FeatureSet,
}

impl Default for Network {
    fn default() -> Network {
        Network::new()
    }
}

impl Network {
    /// All weights zero (a uniform policy over the legal columns), the default layout.
    pub fn new() -> Network {
        Network::with_layout(DEFAULT_INDEX_BITS, FeatureSet::Threats)
    }

    /// All weights zero, `set`'s tables of `bits`-bit indices (`DEFAULT_INDEX_BITS` to
    /// `MAX_INDEX_BITS`; [`crate::Trainer::new`] checks a user's choice first).
    pub fn with_layout(bits: u32, set: FeatureSet) -> Network {
        assert!(
            (DEFAULT_INDEX_BITS..=MAX_INDEX_BITS).contains(&bits),
            "{bits}-bit table indices are not supported"
        );
        let n = weight_count(bits, set);
        Network {
            weights: table_vec(n, std::iter::repeat_n(0.0, n)),
            bits,
            set,
        }
    }

    /// Bits of its table indices.
    pub fn index_bits(&self) -> u32 {
        self.bits
    }

    /// The windows it reads.
    pub fn feature_set(&self) -> FeatureSet {
        self.set
    }

    /// The summed float scores (logits) of the seven columns.
    pub fn logits(&self, pos: &Position) -> [f32; WIDTH] {
        let mut s = [0f32; WIDTH];
        for f in features(pos, self.bits, self.set) {
            let row = &self.weights[row_of(&f, self.bits)..][..WIDTH];
            for (x, v) in s.iter_mut().enumerate() {
                *v += row[if f.mirrored { WIDTH - 1 - x } else { x }];
            }
        }
        s
    }

    /// The float network's move (ties to the centre).
    pub fn best_move(&self, pos: &Position) -> Option<usize> {
        argmax(pos, &self.logits(pos))
    }

    /// Adds `-step * grad[x]` to every weight feeding column `x` of `pos`'s logits.
    pub(crate) fn descend(&mut self, pos: &Position, step: f32, grad: &[f32; WIDTH]) {
        for f in features(pos, self.bits, self.set) {
            let row = &mut self.weights[row_of(&f, self.bits)..][..WIDTH];
            for (x, g) in grad.iter().enumerate() {
                row[if f.mirrored { WIDTH - 1 - x } else { x }] -= step * g;
            }
        }
    }

    /// The integer model: weights scaled so the largest becomes 32,767 and rounded.
    /// Returns it with the scale used.
    pub fn quantize(&self) -> (Model, f32) {
        let max = self.weights.iter().fold(0f32, |m, w| m.max(w.abs()));
        let scale = if max > 0.0 { 32767.0 / max } else { 1.0 };
        let weights = table_vec(
            self.weights.len(),
            self.weights
                .iter()
                .map(|w| (w * scale).round().clamp(-32767.0, 32767.0) as i16),
        );
        (
            Model {
                weights,
                bits: self.bits,
                set: self.set,
            },
            scale,
        )
    }

    /// The raw weights as little-endian bytes (for checkpoints).
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        self.weights.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// Weights from [`Network::to_bytes`].
    pub(crate) fn from_bytes(bytes: &[u8]) -> Option<Network> {
        if !bytes.len().is_multiple_of(4) {
            return None;
        }
        let (bits, set) = layout_of(bytes.len() / 4)?;
        let weights = table_vec(
            bytes.len() / 4,
            bytes
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        );
        Some(Network { weights, bits, set })
    }

    /// The index of the first weight that is NaN or infinite (a damaged checkpoint, or
    /// a run that diverged).
    pub fn first_non_finite(&self) -> Option<usize> {
        self.weights.iter().position(|w| !w.is_finite())
    }
}
