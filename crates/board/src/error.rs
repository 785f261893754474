//! Errors for move sequences and stone grids; each names the input position and a fix.

use thiserror::Error;

/// Why a move sequence was refused. Plies count from 1.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    /// A character that is not a column digit.
    #[error("move {ply}: {} is not a column; write columns as digits 1-7{}", shown(.ch), separator(.ch))]
    BadChar {
        /// The 1-based ply of the bad character.
        ply: usize,
        /// The character found.
        ch: char,
    },
    /// A move into a full column.
    #[error("move {ply}: column {column} is already full{}", board_full(.ply))]
    ColumnFull {
        /// The 1-based ply of the move.
        ply: usize,
        /// The column, 1..7.
        column: usize,
    },
    /// A move after a four-in-a-row ended the game.
    #[error("move {ply}: the game is already over ({winner} made four in a row at move {}); remove the moves after it", ply - 1)]
    GameOver {
        /// The 1-based ply of the move.
        ply: usize,
        /// Who made the four: "Red" or "Yellow".
        winner: &'static str,
    },
}

/// A character as a message names it (see [`crate::char_shown`]).
fn shown(c: &char) -> String {
    crate::char_shown(*c)
}

/// What a separator between moves adds to "is not a column".
fn separator(c: &char) -> &'static str {
    if c.is_whitespace() || matches!(c, ',' | ';' | '-' | '.' | '/') {
        ", with nothing between them"
    } else {
        ""
    }
}

/// What a move past the 42nd adds to "column N is already full".
fn board_full(ply: &usize) -> &'static str {
    if *ply > 42 {
        " (the board is full: the game ended in a draw at move 42)"
    } else {
        ""
    }
}

/// Why a grid of stones was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StonesError {
    /// The grid is not six rows of seven cells.
    #[error("expected six rows of seven cells, top row first; {0}")]
    Shape(String),
    /// A character that is neither a stone nor an empty mark.
    #[error("row {row} (from the top), column {column}: {} is not a stone; use R/Y (or 1/2) for stones and ? or . for empty cells", shown(.ch))]
    BadChar {
        /// Grid row, 1 = top.
        row: usize,
        /// Column, 1..7.
        column: usize,
        /// The character found.
        ch: char,
    },
    /// A stone with an empty cell below it.
    // (rows of a grid file count from the top, so the message gives both)
    #[error("column {column}: the stone in row {row} from the bottom (row {} of the grid, from the top) floats above an empty cell; stones rest on the bottom or on another stone", 7 - .row)]
    Floating {
        /// Column, 1..7.
        column: usize,
        /// Board row, 1 = bottom.
        row: usize,
    },
    /// Stone counts that no game produces, or that do not leave Red to move when asked.
    #[error("{red} Red and {yellow} Yellow stones: {need}")]
    Counts {
        /// Red stones.
        red: u32,
        /// Yellow stones.
        yellow: u32,
        /// What the counts must be.
        need: &'static str,
    },
    /// Stones that no legal game reaches.
    #[error("no legal game reaches this position: {0}")]
    Unreachable(String),
}
