//! A GF(2^8) lookup-table network for Connect Four.
//!
//! The trunk does no float arithmetic: a position becomes seven column bytes (the v2
//! transcript's column states, ownership relative to the mover), windows of adjacent
//! columns are combined with GF(2^8) multiplications (table lookups) and XOR into
//! 16- to 20-bit table indices, and each table slot holds integer scores for the seven
//! columns; the scores of the active windows (fifteen column windows, and by default
//! eight threat windows built from the cells where either side would complete a four)
//! are added, and the best legal column the tactical checks allow is played
//! ([`features`], [`tactics`], [`Model`]). This is the n-tuple network family (Thill,
//! Koch and Konen, PPSN 2012) with GF(2^8)-linear window hashing.
//!
//! Training ([`Trainer`]) runs on float shadow weights ([`Network`]) with a softmax over
//! the legal columns against the corpus's per-ply teacher targets (and, ramped in, the
//! played move); [`Network::quantize`] exports the integer model. [`eval`] measures
//! agreement with targets, the optimal-move rate and games against the perfect solver.

pub mod error;
pub mod eval;
pub mod features;
pub mod gf;
mod net;
pub mod tactics;
pub mod train;

pub use error::ModelError;
pub use features::FeatureSet;
pub use net::{weight_count, Hint, Model, Network, MODEL_MAGIC};
pub use train::{load_examples, Example, Source, TrainConfig, Trainer, CHECKPOINT_MAGIC};
