//! The bitboard position.

use std::fmt;

use crate::bits::{
    cell_bit, column_mask, has_four, mirror_bits, winning_cells, BOARD_MASK, BOTTOM_MASK,
};
use crate::{parse_moves, MoveError, CELLS, HEIGHT, WIDTH};

/// One of the two players; Red moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Player {
    /// The first player.
    Red,
    /// The second player.
    Yellow,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::Red => Player::Yellow,
            Player::Yellow => Player::Red,
        }
    }

    /// "Red" or "Yellow".
    pub fn name(self) -> &'static str {
        match self {
            Player::Red => "Red",
            Player::Yellow => "Yellow",
        }
    }
}

/// A position: the stones of the side to move, all stones, and the move count.
///
/// Positions built through the public API are always legal game states, except that
/// [`Position::play`] does not stop at a four: callers check [`Position::winner`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    current: u64,
    mask: u64,
    moves: u32,
}

impl Default for Position {
    fn default() -> Self {
        Self::new()
    }
}

impl Position {
    /// The empty board, Red to move.
    pub const fn new() -> Position {
        Position {
            current: 0,
            mask: 0,
            moves: 0,
        }
    }

    /// Plays a move sequence such as `"4453"` from the empty board.
    pub fn from_moves(text: &str) -> Result<Position, MoveError> {
        let mut pos = Position::new();
        for c in parse_moves(text)? {
            pos.play(c as usize);
        }
        Ok(pos)
    }

    /// Builds a position from each side's stones; the caller guarantees the stones
    /// rest on each other and the counts fit (Red equal to or one more than Yellow).
    pub fn from_bitboards(red: u64, yellow: u64) -> Position {
        debug_assert_eq!(red & yellow, 0);
        let mask = red | yellow;
        let moves = mask.count_ones();
        let current = if moves.is_multiple_of(2) { red } else { yellow };
        Position {
            current,
            mask,
            moves,
        }
    }

    /// Number of stones on the board.
    #[inline]
    pub fn moves_played(&self) -> u32 {
        self.moves
    }

    /// The player to move.
    #[inline]
    pub fn to_move(&self) -> Player {
        if self.moves.is_multiple_of(2) {
            Player::Red
        } else {
            Player::Yellow
        }
    }

    /// Stones of the side to move.
    #[inline]
    pub fn current(&self) -> u64 {
        self.current
    }

    /// Stones of the side that just moved.
    #[inline]
    pub fn opponent(&self) -> u64 {
        self.current ^ self.mask
    }

    /// Every occupied cell.
    #[inline]
    pub fn mask(&self) -> u64 {
        self.mask
    }

    /// Red's stones.
    #[inline]
    pub fn red(&self) -> u64 {
        if self.moves.is_multiple_of(2) {
            self.current
        } else {
            self.opponent()
        }
    }

    /// Yellow's stones.
    #[inline]
    pub fn yellow(&self) -> u64 {
        self.mask ^ self.red()
    }

    /// The stone at column `x`, row `y` (0-based, row 0 at the bottom).
    pub fn stone(&self, x: usize, y: usize) -> Option<Player> {
        let b = cell_bit(x, y);
        if self.mask & b == 0 {
            None
        } else if self.red() & b != 0 {
            Some(Player::Red)
        } else {
            Some(Player::Yellow)
        }
    }

    /// Number of stones in column `x`.
    #[inline]
    pub fn height(&self, x: usize) -> usize {
        (self.mask & column_mask(x)).count_ones() as usize
    }

    /// The lowest empty cell of every non-full column.
    #[inline]
    pub fn playable(&self) -> u64 {
        (self.mask + BOTTOM_MASK) & BOARD_MASK
    }

    /// True when column `x` (0-based) is not full.
    #[inline]
    pub fn can_play(&self, x: usize) -> bool {
        x < WIDTH && self.mask & cell_bit(x, HEIGHT - 1) == 0
    }

    /// Drops a stone of the side to move into column `x`, which must not be full.
    #[inline]
    pub fn play(&mut self, x: usize) {
        debug_assert!(self.can_play(x));
        self.play_cell((self.mask + cell_bit(x, 0)) & column_mask(x));
    }

    /// Plays the side to move into `cell`, which must be a playable cell's bit.
    #[inline]
    pub fn play_cell(&mut self, cell: u64) {
        debug_assert_eq!(cell & self.playable(), cell);
        self.current ^= self.mask;
        self.mask |= cell;
        self.moves += 1;
    }

    /// The position after playing column `x`.
    #[inline]
    pub fn after(&self, x: usize) -> Position {
        let mut p = *self;
        p.play(x);
        p
    }

    /// Takes back the top stone of column `x`, which must be the last mover's stone.
    pub fn undo(&mut self, x: usize) {
        let col = self.mask & column_mask(x);
        debug_assert!(col != 0, "undo on an empty column");
        let top = 1u64 << (63 - col.leading_zeros());
        debug_assert!(
            self.opponent() & top != 0,
            "the top stone is not the last mover's"
        );
        self.mask ^= top;
        self.current ^= self.mask;
        self.moves -= 1;
    }

    /// Cells where the side to move would complete a four right now.
    #[inline]
    pub fn winning_moves(&self) -> u64 {
        winning_cells(self.current, self.mask) & self.playable()
    }

    /// Playable cells where the opponent would complete a four on their next move.
    #[inline]
    pub fn opponent_winning_moves(&self) -> u64 {
        winning_cells(self.opponent(), self.mask) & self.playable()
    }

    /// True when playing column `x` completes a four for the side to move.
    #[inline]
    pub fn is_winning_move(&self, x: usize) -> bool {
        self.winning_moves() & column_mask(x) != 0
    }

    /// The player holding a four, if any (only the last mover can hold one).
    pub fn winner(&self) -> Option<Player> {
        if has_four(self.opponent()) {
            Some(self.to_move().other())
        } else if has_four(self.current) {
            Some(self.to_move())
        } else {
            None
        }
    }

    /// True when all 42 cells are filled.
    #[inline]
    pub fn is_full(&self) -> bool {
        self.moves as usize == CELLS
    }

    /// A key unique to this position (Pons' `current + mask`; fits in 49 bits).
    #[inline]
    pub fn key(&self) -> u64 {
        self.current + self.mask
    }

    /// The left-right mirror image.
    pub fn mirror(&self) -> Position {
        Position {
            current: mirror_bits(self.current),
            mask: mirror_bits(self.mask),
            moves: self.moves,
        }
    }

    /// The smaller of this position's key and its mirror's: equal for mirror images.
    pub fn canonical_key(&self) -> u64 {
        self.key().min(self.mirror().key())
    }

    /// Six rows of `R`, `Y` and `.`, top row first, each ending in a newline.
    pub fn to_grid(&self) -> String {
        let mut s = String::with_capacity(48);
        for y in (0..HEIGHT).rev() {
            for x in 0..WIDTH {
                s.push(match self.stone(x, y) {
                    Some(Player::Red) => 'R',
                    Some(Player::Yellow) => 'Y',
                    None => '.',
                });
            }
            s.push('\n');
        }
        s
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} moves)\n{}", self.moves, self.to_grid())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_undo_and_colours() {
        let mut p = Position::from_moves("4453").unwrap();
        assert_eq!(p.stone(3, 0), Some(Player::Red));
        assert_eq!(p.stone(3, 1), Some(Player::Yellow));
        assert_eq!(p.stone(4, 0), Some(Player::Red));
        assert_eq!(p.stone(2, 0), Some(Player::Yellow));
        assert_eq!(p.to_move(), Player::Red);
        let before = p;
        p.play(0);
        p.undo(0);
        assert_eq!(p, before);
        assert_eq!(
            p.to_grid(),
            ".......\n.......\n.......\n.......\n...Y...\n..YRR..\n"
        );
    }

    #[test]
    fn wins_and_keys() {
        let p = Position::from_moves("112233").unwrap();
        assert!(p.is_winning_move(3));
        assert!(!p.is_winning_move(4));
        assert_eq!(p.after(3).winner(), Some(Player::Red));
        let q = Position::from_moves("776655").unwrap();
        assert_eq!(p.mirror(), q);
        assert_eq!(p.canonical_key(), q.canonical_key());
        assert_ne!(p.key(), q.key());
    }
}
