//! Errors for diagrams and their roots.

use c4lab_board::{Player, StonesError};
use thiserror::Error;

/// A character as a message names it (see [`c4lab_board::char_shown`]).
fn shown(c: &char) -> String {
    c4lab_board::char_shown(*c)
}

/// Why a diagram text was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DiagramError {
    /// The text is not six rows of seven cells.
    #[error("a diagram is six rows of seven cells, top row first: {0}")]
    Shape(String),
    /// A character the detected language does not have.
    #[error("row {row} (from the top), column {column}: {} is not a cell of the {language} language; {hint}", shown(.ch))]
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
    /// Cells of both languages in one grid: one old marker made the grid read as the old
    /// language, and a level-language cell then did not fit.
    #[error("row {row} (from the top), column {column}: {} is a level-language cell, but the {marker:?} at row {marker_row}, column {marker_column} is an old-language marker, so the grid was read as the old language; write the grid in one language (in the level language, 9 or ? in place of {marker:?})", shown(.ch))]
    Mixed {
        /// Grid row of the level-language cell, 1 = top.
        row: usize,
        /// Its column, 1..7.
        column: usize,
        /// The level-language character.
        ch: char,
        /// Grid row of the first old-language marker, 1 = top.
        marker_row: usize,
        /// Its column, 1..7.
        marker_column: usize,
        /// The marker.
        marker: char,
    },
    /// JSON that is not an array of six strings.
    #[error("upstream JSON is an array of six strings of seven cells: {0}")]
    Json(String),
    /// A cell built with a level the language does not have.
    #[error("row {row} (from the top), column {column}: level {level} is out of range; levels run from 0 to 13 (0-9, then a-d)")]
    Level {
        /// Grid row, 1 = top.
        row: usize,
        /// Column, 1..7.
        column: usize,
        /// The level given.
        level: u8,
    },
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
    /// The stones already hold a four, so the game is over at the root.
    #[error("bad root: {} already has four in a row, so the game is over there; a root is a position where play goes on", .winner.name())]
    Won {
        /// Who holds the four.
        winner: Player,
    },
}
