//! Bit layout and the bit tricks every search here relies on.
//!
//! Column `x` owns bits `7x .. 7x+6`; bit `7x + y` is row `y` (0 = bottom) and bit
//! `7x + 6` is a sentinel that is never set. This is the layout of Pascal Pons'
//! solver, chosen so that `mask + BOTTOM_MASK` yields the playable cells.

use crate::{HEIGHT, WIDTH};

/// Bits per column including the sentinel.
pub(crate) const STRIDE: u32 = HEIGHT as u32 + 1;

/// The lowest cell of every column.
pub const BOTTOM_MASK: u64 = {
    let mut m = 0u64;
    let mut x = 0;
    while x < WIDTH {
        m |= 1u64 << (x as u32 * STRIDE);
        x += 1;
    }
    m
};

/// Every cell of the board (no sentinels).
pub const BOARD_MASK: u64 = BOTTOM_MASK * ((1u64 << HEIGHT) - 1);

/// The bit of cell `(x, y)`, `x` the column 0..6 and `y` the row 0..5 from the bottom.
#[inline]
pub const fn cell_bit(x: usize, y: usize) -> u64 {
    1u64 << (x as u32 * STRIDE + y as u32)
}

/// Every cell of column `x`.
#[inline]
pub const fn column_mask(x: usize) -> u64 {
    ((1u64 << HEIGHT) - 1) << (x as u32 * STRIDE)
}

/// The one-cell masks of `cells`, lowest first.
pub fn each_cell(mut cells: u64) -> impl Iterator<Item = u64> {
    std::iter::from_fn(move || {
        let cell = cells & cells.wrapping_neg();
        cells ^= cell;
        (cell != 0).then_some(cell)
    })
}

/// The column (0..6) of a cell's bit (the lowest set bit of `cell`).
#[inline]
pub const fn column_of(cell: u64) -> usize {
    (cell.trailing_zeros() / STRIDE) as usize
}

/// True when the stones `b` hold a four in a row in any direction.
#[inline]
pub const fn has_four(b: u64) -> bool {
    // horizontal (shift by a column), the two diagonals, vertical.
    let shifts = [STRIDE, STRIDE - 1, STRIDE + 1, 1];
    let mut i = 0;
    while i < shifts.len() {
        let s = shifts[i];
        let m = b & (b >> s);
        if m & (m >> (2 * s)) != 0 {
            return true;
        }
        i += 1;
    }
    false
}

/// Empty cells (of the board, not only playable ones) that would complete a four for
/// the stones `own`, given the occupied cells `mask`.
#[inline]
pub const fn winning_cells(own: u64, mask: u64) -> u64 {
    // vertical: three stacked stones with the cell above them
    let mut r = (own << 1) & (own << 2) & (own << 3);
    let shifts = [STRIDE, STRIDE - 1, STRIDE + 1];
    let mut i = 0;
    while i < shifts.len() {
        let s = shifts[i];
        let mut p = (own << s) & (own << (2 * s));
        r |= p & (own << (3 * s));
        r |= p & (own >> s);
        p = (own >> s) & (own >> (2 * s));
        r |= p & (own << s);
        r |= p & (own >> (3 * s));
        i += 1;
    }
    r & (BOARD_MASK ^ mask)
}

/// The left-right mirror image of a set of cells (column `x` <-> `6 - x`).
#[inline]
pub const fn mirror_bits(b: u64) -> u64 {
    let mut out = 0u64;
    let mut x = 0;
    while x < WIDTH {
        let col = (b >> (x as u32 * STRIDE)) & ((1u64 << STRIDE) - 1);
        out |= col << ((WIDTH - 1 - x) as u32 * STRIDE);
        x += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_cover_the_board() {
        assert_eq!(BOARD_MASK.count_ones(), 42);
        assert_eq!(BOTTOM_MASK.count_ones(), 7);
        assert_eq!(BOARD_MASK & BOTTOM_MASK, BOTTOM_MASK);
    }

    #[test]
    fn fours_in_every_direction() {
        let row: u64 = (0..4).map(|x| cell_bit(x, 0)).sum();
        let col: u64 = (0..4).map(|y| cell_bit(2, y)).sum();
        let diag: u64 = (0..4).map(|i| cell_bit(i + 1, i)).sum();
        let anti: u64 = (0..4).map(|i| cell_bit(6 - i, i + 2)).sum();
        for four in [row, col, diag, anti] {
            assert!(has_four(four));
            let three = four & !(1u64 << (63 - four.leading_zeros()));
            assert!(!has_four(three));
            let missing = four & !three;
            assert_eq!(winning_cells(three, three) & missing, missing);
        }
        // a column wrapping into the next must not count as a four
        let wrap = cell_bit(0, 4) | cell_bit(0, 5) | cell_bit(1, 0) | cell_bit(1, 1);
        assert!(!has_four(wrap));
    }

    #[test]
    fn mirror_is_an_involution() {
        let b = cell_bit(0, 0) | cell_bit(3, 2) | cell_bit(5, 5);
        assert_eq!(
            mirror_bits(b),
            cell_bit(6, 0) | cell_bit(3, 2) | cell_bit(1, 5)
        );
        assert_eq!(mirror_bits(mirror_bits(b)), b);
    }
}
