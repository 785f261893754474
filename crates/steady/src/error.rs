//! Errors for diagrams and their roots.

use c4lab_board::{Player, StonesError};
use thiserror::Error;

/// Why a diagram text was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DiagramError {
    /// The text is not six rows of seven cells.
    #[error("a diagram is six rows of seven cells, top row first: {0}")]
    Shape(String),
    /// A character the detected language does not have.
    #[error("row {row} (from the top), column {column}: {ch:?} is not a {language} cell; {hint}")]
    BadChar {
        /// Grid row, 1 = top.
        row: usize,
        /// Column, 1..7.
        column: usize,
        /// The character found.
        ch: char,
        /// The language the grid was read as.
        language: &'static str,
        /// What the language accepts.
        hint: &'static str,
    },
    /// JSON that is not an array of six strings.
    #[error("upstream JSON is an array of six strings of seven cells: {0}")]
    Json(String),
}

/// Why a diagram's stones are not a root Red can move from.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RootError {
    /// The stones do not form a legal position.
    #[error("bad root: {0}")]
    Stones(#[from] StonesError),
    /// Yellow would be to move.
    #[error("bad root: {red} Red and {yellow} Yellow stones; at a steady-state root Red is to move, so the counts must be equal")]
    NotRedToMove {
        /// Red stones.
        red: u32,
        /// Yellow stones.
        yellow: u32,
    },
    /// The stones already hold a four, so the game is over at the root (a share link
    /// carries only a root where play goes on).
    #[error("bad root: {} already has four in a row, so the game is over there; a share link needs a root where play goes on", .winner.name())]
    Won {
        /// Who holds the four.
        winner: Player,
    },
}
