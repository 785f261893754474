//! The model crate's errors.

use std::path::PathBuf;

/// What can go wrong loading, training or evaluating a model.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// A model or checkpoint file is not what it claims.
    #[error("not a c4lab {kind}: {reason}")]
    Format {
        /// "model" or "checkpoint".
        kind: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The corpus or its sidecar failed to load.
    #[error(transparent)]
    Corpus(#[from] c4lab_corpus::CorpusError),
    /// The sidecar failed to load.
    #[error(transparent)]
    Sidecar(#[from] c4lab_corpus::SidecarError),
    /// Corpus and sidecar disagree.
    #[error("{what}")]
    Mismatch {
        /// The disagreement, naming rows and plies.
        what: String,
    },
    /// A training option is out of range.
    #[error("{0}")]
    Config(String),
}
