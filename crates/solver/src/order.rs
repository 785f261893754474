//! Move generation and ordering: losing-move anticipation and sorting the remaining
//! moves by the threats they create, then by closeness to the centre.

use c4lab_board::{column_mask, winning_cells, Position, BOARD_MASK, BOTTOM_MASK};

use crate::CENTRE_ORDER;

/// Playable cells that do not hand the opponent an immediate win: when the opponent
/// threatens one playable cell, only that cell; when it threatens two, none. Cells
/// directly below an opponent's winning cell are excluded too.
#[inline(always)]
pub fn non_losing_moves(pos: &Position) -> u64 {
    let possible = pos.playable();
    let opp_win = winning_cells(pos.opponent(), pos.mask());
    let forced = possible & opp_win;
    let mut p = possible;
    if forced != 0 {
        if forced & (forced - 1) != 0 {
            return 0;
        }
        p = forced;
    }
    p & !(opp_win >> 1)
}

/// The columns' cells in [`CENTRE_ORDER`].
const CENTRE_COLUMNS: [u64; 7] = {
    let mut out = [0u64; 7];
    let mut i = 0;
    while i < 7 {
        out[i] = column_mask(CENTRE_ORDER[i]);
        i += 1;
    }
    out
};

/// Up to seven moves (column and cell bit), best first.
pub(crate) struct MoveList {
    cells: [u64; 7],
    /// The opponent's moves that do not lose at once after each move.
    replies: [u64; 7],
    cols: [u8; 7],
    len: usize,
    /// Some move leaves the opponent without a non-losing reply: the mover wins with
    /// its next stone after that move.
    pub wins_next: bool,
}

impl MoveList {
    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// The `i`-th move: (column, cell bit).
    #[inline(always)]
    pub fn get(&self, i: usize) -> (usize, u64) {
        (self.cols[i] as usize, self.cells[i])
    }

    /// The opponent's moves that do not lose at once after the `i`-th move (see
    /// [`non_losing_moves`]; valid unless [`MoveList::wins_next`]).
    #[inline(always)]
    pub fn replies(&self, i: usize) -> u64 {
        self.replies[i]
    }

    /// Moves column `col`, if listed, to the front, keeping the others' order.
    #[inline(always)]
    pub fn promote(&mut self, col: u8) {
        let Some(i) = self.cols[..self.len].iter().position(|&c| c == col) else {
            return;
        };
        let cell = self.cells[i];
        let replies = self.replies[i];
        self.cells.copy_within(0..i, 1);
        self.replies.copy_within(0..i, 1);
        self.cols.copy_within(0..i, 1);
        self.cells[0] = cell;
        self.replies[0] = replies;
        self.cols[0] = col;
    }
}

/// Orders the moves `next` of `pos` by the number of the mover's winning cells after
/// the move (more first), then (with `keep_above`) moves not played under one of
/// those cells, then centre first; also detects a win with the next stone.
#[inline(always)]
pub(crate) fn order_moves(pos: &Position, next: u64, keep_above: bool) -> MoveList {
    let mut list = MoveList {
        cells: [0; 7],
        replies: [0; 7],
        cols: [0; 7],
        len: 0,
        wins_next: false,
    };
    let mut scores = [0u32; 7];
    let cur = pos.current();
    let mask = pos.mask();
    for (&c, &column) in CENTRE_ORDER.iter().zip(CENTRE_COLUMNS.iter()) {
        let cell = next & column;
        if cell == 0 {
            continue;
        }
        let m = mask | cell;
        let threats = winning_cells(cur | cell, m);
        // can the opponent answer without losing at once? (see `non_losing_moves`)
        let possible = (m + BOTTOM_MASK) & BOARD_MASK;
        let forced = possible & threats;
        let replies = if forced != 0 { forced } else { possible } & !(threats >> 1);
        if forced & forced.wrapping_sub(1) != 0 || replies == 0 {
            list.wins_next = true;
        }
        // more winning cells first; with `keep_above`, among equals keep a winning
        // cell directly above the move (playing under it lets the opponent block)
        let s = 2 * threats.count_ones() + (keep_above && (cell << 1) & threats == 0) as u32;
        // insertion keeping earlier (more central) moves first among equals
        let mut i = list.len;
        while i > 0 && scores[i - 1] < s {
            scores[i] = scores[i - 1];
            list.cells[i] = list.cells[i - 1];
            list.replies[i] = list.replies[i - 1];
            list.cols[i] = list.cols[i - 1];
            i -= 1;
        }
        scores[i] = s;
        list.cells[i] = cell;
        list.replies[i] = replies;
        list.cols[i] = c as u8;
        list.len += 1;
    }
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forced_and_losing_moves() {
        // Yellow to move; Red's bottom-row three forces column 4.
        let y = Position::from_moves("11223").unwrap();
        assert_eq!(non_losing_moves(&y), c4lab_board::cell_bit(3, 0));
        // two threats: no safe move
        let two = Position::from_moves("2233444").unwrap();
        assert_eq!(non_losing_moves(&two), 0);
    }

    #[test]
    fn hint_goes_first_then_centre() {
        let p = Position::new();
        let mut l = order_moves(&p, non_losing_moves(&p), true);
        assert_eq!(l.len(), 7);
        assert_eq!(l.get(0).0, 3);
        l.promote(6);
        let cols: Vec<usize> = (0..7).map(|i| l.get(i).0).collect();
        assert_eq!(cols, [6, 3, 2, 4, 1, 5, 0]);
        assert!(!l.wins_next);
    }

    #[test]
    fn detects_a_win_with_the_next_stone() {
        // Red to move: playing column 3 or 6 makes two open bottom-row threats
        let p = Position::from_moves("4455").unwrap();
        assert!(order_moves(&p, non_losing_moves(&p), true).wins_next);
    }
}
