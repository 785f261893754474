//! Connect Four on the 7x6 board: a bitboard [`Position`], move-sequence parsing,
//! four-in-a-row detection, mirroring, position keys, and loading a position from its
//! stones alone (with a derived legal move order).
//!
//! Conventions (the README's "The language, as implemented"): columns are 1..7 in text
//! and `x = 0..6` in code, rows `y = 0..5` from the bottom, Red moves first.

mod bits;
mod error;
mod moves;
mod position;
mod stones;
mod text;

pub use bits::{
    cell_bit, column_mask, column_of, each_cell, has_four, mirror_bits, winning_cells, BOARD_MASK,
    BOTTOM_MASK,
};
pub use error::{MoveError, StonesError};
pub use moves::{format_moves, parse_columns, parse_moves};
pub use position::{Player, Position};
pub use stones::{parse_stones, StoneGrid};
pub use text::{char_shown, unified_lines};

/// Number of columns.
pub const WIDTH: usize = 7;
/// Number of rows.
pub const HEIGHT: usize = 6;
/// Number of cells on the board.
pub const CELLS: usize = WIDTH * HEIGHT;
