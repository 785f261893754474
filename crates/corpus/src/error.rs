//! Typed errors: each names the row, the ply and the byte (all 0-based) where it can.

use std::path::PathBuf;

use thiserror::Error;

/// Why a transcript row did not decode. Rows, plies and bytes count from 0.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DecodeError {
    /// The row is not a whole number of 10-byte plies.
    #[error("row {row}: {len} bytes is not a multiple of 10 (one ply is 10 bytes)")]
    Length {
        /// The row.
        row: usize,
        /// Its length without the newline.
        len: usize,
    },
    /// A `\n` or `\r` inside a row.
    #[error("row {row}, ply {ply}, byte {byte}: line break 0x{value:02X} inside a row")]
    LineBreak {
        /// The row.
        row: usize,
        /// The ply.
        ply: usize,
        /// The byte within the ply.
        byte: usize,
        /// The byte found.
        value: u8,
    },
    /// A byte 0..6 that is not a column byte.
    #[error("row {row}, ply {ply}, byte {byte}: 0x{value:02X} is not a column byte")]
    ColumnByte {
        /// The row.
        row: usize,
        /// The ply.
        ply: usize,
        /// The byte within the ply.
        byte: usize,
        /// The byte found.
        value: u8,
    },
    /// Column bytes that disagree with the game replayed so far.
    #[error("row {row}, ply {ply}, byte {byte}: column byte 0x{value:02X} disagrees with the replayed board (0x{expected:02X})")]
    BoardMismatch {
        /// The row.
        row: usize,
        /// The ply.
        ply: usize,
        /// The byte within the ply.
        byte: usize,
        /// The byte found.
        value: u8,
        /// The byte the replay gives.
        expected: u8,
    },
    /// Byte 7 is not the previous ply's move (or `-` at the first ply).
    #[error(
        "row {row}, ply {ply}, byte {byte}: last move 0x{value:02X}, expected 0x{expected:02X}"
    )]
    LastMove {
        /// The row.
        row: usize,
        /// The ply.
        ply: usize,
        /// The byte within the ply.
        byte: usize,
        /// The byte found.
        value: u8,
        /// The byte expected.
        expected: u8,
    },
    /// Byte 8 does not name the side to move.
    #[error(
        "row {row}, ply {ply}, byte {byte}: side to move 0x{value:02X}, expected 0x{expected:02X}"
    )]
    Side {
        /// The row.
        row: usize,
        /// The ply.
        ply: usize,
        /// The byte within the ply.
        byte: usize,
        /// The byte found.
        value: u8,
        /// The byte expected.
        expected: u8,
    },
    /// Byte 9 is not a column letter `A`..`G`.
    #[error("row {row}, ply {ply}, byte {byte}: 0x{value:02X} is not a move (A..G)")]
    BadMove {
        /// The row.
        row: usize,
        /// The ply.
        ply: usize,
        /// The byte within the ply.
        byte: usize,
        /// The byte found.
        value: u8,
    },
    /// A move into a full column.
    #[error("row {row}, ply {ply}, byte {byte}: column {column} is already full")]
    FullColumn {
        /// The row.
        row: usize,
        /// The ply.
        ply: usize,
        /// The byte within the ply.
        byte: usize,
        /// The column, 1..7.
        column: usize,
    },
    /// A ply after a four-in-a-row ended the game.
    #[error("row {row}, ply {ply}, byte {byte}: the game already ended with a four")]
    AfterFour {
        /// The row.
        row: usize,
        /// The ply.
        ply: usize,
        /// The byte within the ply.
        byte: usize,
    },
}

/// Why a sidecar (`perply_targets.npz`) could not be read or written.
#[derive(Debug, Error)]
pub enum SidecarError {
    /// An I/O error on the file.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The zip container is damaged or uses a feature this reader lacks.
    #[error("{path}: not a readable .npz: {reason}")]
    Container {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// An array is missing.
    #[error("{path}: no member \"{name}.npy\" (the file holds {held}); a sidecar's members are target.npy, ply_of.npy, teacher.npy and n_plies.npy, so this is another file, or a damaged one")]
    Missing {
        /// The file.
        path: PathBuf,
        /// The array.
        name: &'static str,
        /// The members the file holds, named for the message.
        held: String,
    },
    /// An array has the wrong shape or dtype.
    #[error("{path}: array {name:?}: {reason}")]
    Array {
        /// The file.
        path: PathBuf,
        /// The array.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// A value that the compact in-memory labels cannot hold.
    #[error("{path}: row {row}, slot {slot}: {reason}")]
    Value {
        /// The file.
        path: PathBuf,
        /// The row.
        row: usize,
        /// The slot.
        slot: usize,
        /// What is wrong.
        reason: String,
    },
}

/// Any failure of a corpus operation.
#[derive(Debug, Error)]
pub enum CorpusError {
    /// An I/O error on a file.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A row that does not decode.
    #[error("{path}: {source}")]
    Decode {
        /// The corpus file.
        path: PathBuf,
        /// The cause.
        source: DecodeError,
    },
    /// A sidecar failure.
    #[error(transparent)]
    Sidecar(#[from] SidecarError),
    /// Inputs that do not fit together (shards, row counts, options).
    #[error("{0}")]
    Invalid(String),
    /// An input corpus and sidecar that fail the integrity gate.
    #[error("{corpus} with {sidecar} fails the integrity gate ({violations} violation{s}, among them {kind}: {first}); `c4lab corpus check` lists them all: check that the sidecar is this corpus's, or mend or regenerate them", s = if *.violations == 1 { "" } else { "s" })]
    Gate {
        /// The corpus file.
        corpus: PathBuf,
        /// Its sidecar.
        sidecar: PathBuf,
        /// How many violations the gate found.
        violations: u64,
        /// The name of the first kind found.
        kind: &'static str,
        /// Its first example.
        first: String,
    },
    /// An input corpus read without its sidecar that fails the gate's transcript rules.
    #[error("{corpus} fails the integrity gate's transcript rules ({violations} violation{s}, among them {kind}: {first}); `c4lab corpus check --no-targets` lists them all: mend or regenerate it", s = if *.violations == 1 { "" } else { "s" })]
    TranscriptGate {
        /// The corpus file.
        corpus: PathBuf,
        /// How many violations the gate found.
        violations: u64,
        /// The name of the first kind found.
        kind: &'static str,
        /// Its first example.
        first: String,
    },
}

/// Attaches a path to an I/O error.
pub(crate) fn io_err(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> CorpusError + '_ {
    move |source| CorpusError::Io {
        path: path.to_path_buf(),
        source,
    }
}
