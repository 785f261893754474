//! The teacher corpus (the format: this crate's README): the v2 byte transcript, the
//! per-ply target sidecar `perply_targets.npz`, a deterministic self-play generator
//! with alpha-beta and exact teachers, the integrity gate, a board-disjoint holdout,
//! `SHA256SUMS`, the dataset card's statistics and exact relabelling.
//!
//! Module map: [`transcript`] (codec), [`sidecar`] and [`npz`] (targets), [`teacher`]
//! and [`generate`] (self-play), [`gate`] (`corpus check`), [`holdout`] (disjoint
//! holdout and overlap), [`sums`], [`stats`], [`label`], [`dataset`] (published
//! layout, and a run's shards and their merge), [`mod@bench`].

pub mod bench;
pub mod dataset;
pub mod error;
pub mod gate;
pub mod generate;
pub mod holdout;
pub mod label;
mod npy_header;
pub mod npz;
mod part;
pub mod reader;
pub mod rng;
mod shard;
pub mod sidecar;
pub mod stats;
pub mod sums;
pub mod teacher;
pub mod transcript;
mod violations;
mod zipcheck;

pub use c4lab_solver::Book;
pub use error::{CorpusError, DecodeError, SidecarError};
pub use generate::{GenConfig, NoProgress, Progress};
pub use part::remove_parts_being_written;
pub use sidecar::{Labels, SlotLabel};
pub use teacher::{TeacherConfig, TeacherMode};
