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

/// Why `bytes`, which should open with `magic` and a header of `header` bytes, does
/// not: an empty file, one cut short inside its header (it said "does not start with
/// the magic" of a file that does), or another kind of file.
pub(crate) fn unstarted(
    bytes: &[u8],
    magic: &[u8; 8],
    header: usize,
    kind: &'static str,
) -> ModelError {
    let start = bytes.len().min(magic.len());
    let reason = if bytes.is_empty() {
        "the file is empty".to_string()
    } else if bytes[..start] == magic[..start] {
        format!(
            "it ends after {} bytes, inside the {header}-byte header a {kind} starts with: the file was cut short; write or copy it again",
            bytes.len()
        )
    } else {
        format!("it does not start with the c4lab {kind} magic")
    };
    ModelError::Format { kind, reason }
}
