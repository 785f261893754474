//! The v2 byte transcript (the format: crates/corpus/README.md): one game per
//! `\n`-terminated line, 10 bytes a ply.
//!
//! A ply is the state *before* its move: seven column bytes, the last move, the side
//! to move and the move played. Column byte: `0x80 | (1 << h) | bits`, `h` the column
//! height, bit `r` (r < h) set iff the first player owns row `r`; the map is a
//! bijection between the 127 bytes `0x81..=0xFF` and the 127 column states.

use c4lab_board::{cell_bit, Position, HEIGHT, WIDTH};

use crate::error::DecodeError;

/// Bytes per ply.
pub const PLY_LEN: usize = 10;
/// Byte 7 at a game's first ply: there is no last move (`-`).
pub const NO_LAST: u8 = 0x2D;
/// Byte 8 when the first player is to move (`1`).
pub const SIDE_FIRST: u8 = 0x31;
/// Byte 8 when the second player is to move (`2`).
pub const SIDE_SECOND: u8 = 0x32;
/// A move byte is `MOVE_BASE + column index` (`A`..`G`).
pub const MOVE_BASE: u8 = 0x41;

/// The column byte of a column of height `h` (0..=6) whose first-player rows are the
/// set bits of `bits` (only bits below `h` are used).
#[inline]
pub fn column_byte(h: usize, bits: u8) -> u8 {
    debug_assert!(h <= HEIGHT);
    0x80 | (1u8 << h) | (bits & ((1u8 << h) - 1))
}

/// Splits a column byte into `(height, first-player bits)`; `None` when it is not a
/// column byte (bit 7 clear, or no height marker).
#[inline]
pub fn decode_column_byte(b: u8) -> Option<(usize, u8)> {
    if b & 0x80 == 0 || b & 0x7F == 0 {
        return None;
    }
    let low = b & 0x7F;
    let h = 7 - low.leading_zeros() as usize; // index of the highest set bit of `low`
    Some((h, low & ((1u8 << h) - 1)))
}

/// The seven column bytes of a position.
pub fn column_bytes(pos: &Position) -> [u8; WIDTH] {
    let red = pos.red();
    let mut out = [0u8; WIDTH];
    for (x, slot) in out.iter_mut().enumerate() {
        let h = pos.height(x);
        let mut bits = 0u8;
        for y in 0..h {
            if red & cell_bit(x, y) != 0 {
                bits |= 1 << y;
            }
        }
        *slot = column_byte(h, bits);
    }
    out
}

/// Rebuilds a board from seven column bytes: `(first player's stones, second
/// player's stones)` as bitboards, or the index of the first invalid byte.
pub fn board_from_columns(cols: &[u8]) -> Result<(u64, u64), usize> {
    let (mut red, mut yellow) = (0u64, 0u64);
    for (x, &b) in cols.iter().take(WIDTH).enumerate() {
        let (h, bits) = decode_column_byte(b).ok_or(x)?;
        if h > HEIGHT {
            return Err(x);
        }
        for y in 0..h {
            if bits & (1 << y) != 0 {
                red |= cell_bit(x, y);
            } else {
                yellow |= cell_bit(x, y);
            }
        }
    }
    Ok((red, yellow))
}

/// The side-to-move byte of a position.
#[inline]
pub fn side_byte(pos: &Position) -> u8 {
    if pos.moves_played().is_multiple_of(2) {
        SIDE_FIRST
    } else {
        SIDE_SECOND
    }
}

/// The 10 bytes of one ply: `pos` before the move `mv` (0-based), after `last`.
pub fn encode_ply(pos: &Position, last: Option<u8>, mv: u8) -> [u8; PLY_LEN] {
    let mut out = [0u8; PLY_LEN];
    out[..WIDTH].copy_from_slice(&column_bytes(pos));
    out[7] = last.map_or(NO_LAST, |c| MOVE_BASE + c);
    out[8] = side_byte(pos);
    out[9] = MOVE_BASE + mv;
    out
}

/// Appends the transcript of a game (0-based columns, from the empty board) to `out`,
/// without the newline. Refuses moves into a full column or after a four.
pub fn encode_game_into(moves: &[u8], out: &mut Vec<u8>) -> Result<(), DecodeError> {
    let mut pos = Position::new();
    let mut last = None;
    out.reserve(moves.len() * PLY_LEN);
    for (ply, &mv) in moves.iter().enumerate() {
        let byte = 9;
        if mv as usize >= WIDTH {
            return Err(DecodeError::BadMove {
                row: 0,
                ply,
                byte,
                value: MOVE_BASE.wrapping_add(mv),
            });
        }
        if pos.winner().is_some() {
            return Err(DecodeError::AfterFour { row: 0, ply, byte });
        }
        if !pos.can_play(mv as usize) {
            return Err(DecodeError::FullColumn {
                row: 0,
                ply,
                byte,
                column: mv as usize + 1,
            });
        }
        out.extend_from_slice(&encode_ply(&pos, last, mv));
        pos.play(mv as usize);
        last = Some(mv);
    }
    Ok(())
}

/// The transcript of a game (0-based columns), without the newline.
pub fn encode_game(moves: &[u8]) -> Result<Vec<u8>, DecodeError> {
    let mut out = Vec::with_capacity(moves.len() * PLY_LEN);
    encode_game_into(moves, &mut out)?;
    Ok(out)
}

/// A decoded row: the moves and the board before each of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// The moves played, 0-based columns.
    pub moves: Vec<u8>,
    /// The position before each move (`positions[k]` is ply `k`).
    pub positions: Vec<Position>,
}

/// Decodes one row (without its newline) strictly: every byte must agree with the
/// game replayed from the empty board. `row` only labels errors.
pub fn decode_row(row: usize, bytes: &[u8]) -> Result<Game, DecodeError> {
    if let Some(i) = bytes.iter().position(|&b| b == b'\n' || b == b'\r') {
        return Err(DecodeError::LineBreak {
            row,
            ply: i / PLY_LEN,
            byte: i % PLY_LEN,
            value: bytes[i],
        });
    }
    if !bytes.len().is_multiple_of(PLY_LEN) {
        return Err(DecodeError::Length {
            row,
            len: bytes.len(),
        });
    }
    let n = bytes.len() / PLY_LEN;
    let mut pos = Position::new();
    let mut game = Game {
        moves: Vec::with_capacity(n),
        positions: Vec::with_capacity(n),
    };
    let mut last: Option<u8> = None;
    for ply in 0..n {
        let p = &bytes[ply * PLY_LEN..(ply + 1) * PLY_LEN];
        match board_from_columns(&p[..WIDTH]) {
            Err(x) => {
                return Err(DecodeError::ColumnByte {
                    row,
                    ply,
                    byte: x,
                    value: p[x],
                })
            }
            Ok((red, yellow)) => {
                if red != pos.red() || yellow != pos.yellow() {
                    let x = (0..WIDTH)
                        .find(|&x| p[x] != column_bytes(&pos)[x])
                        .unwrap_or(0);
                    return Err(DecodeError::BoardMismatch {
                        row,
                        ply,
                        byte: x,
                        value: p[x],
                        expected: column_bytes(&pos)[x],
                    });
                }
            }
        }
        let want_last = last.map_or(NO_LAST, |c| MOVE_BASE + c);
        if p[7] != want_last {
            return Err(DecodeError::LastMove {
                row,
                ply,
                byte: 7,
                value: p[7],
                expected: want_last,
            });
        }
        if p[8] != side_byte(&pos) {
            return Err(DecodeError::Side {
                row,
                ply,
                byte: 8,
                value: p[8],
                expected: side_byte(&pos),
            });
        }
        let mv = p[9].wrapping_sub(MOVE_BASE);
        if mv as usize >= WIDTH {
            return Err(DecodeError::BadMove {
                row,
                ply,
                byte: 9,
                value: p[9],
            });
        }
        if pos.winner().is_some() {
            return Err(DecodeError::AfterFour { row, ply, byte: 9 });
        }
        if !pos.can_play(mv as usize) {
            return Err(DecodeError::FullColumn {
                row,
                ply,
                byte: 9,
                column: mv as usize + 1,
            });
        }
        game.positions.push(pos);
        game.moves.push(mv);
        pos.play(mv as usize);
        last = Some(mv);
    }
    Ok(game)
}

/// Iterates over the rows of a corpus held in memory (each without its newline).
/// A final row without a newline is yielded too; [`crate::gate`] reports it.
pub fn rows(corpus: &[u8]) -> impl Iterator<Item = &[u8]> {
    let body = corpus.strip_suffix(b"\n").unwrap_or(corpus);
    let empty = corpus.is_empty();
    body.split(|&b| b == b'\n').filter(move |_| !empty)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_byte_examples() {
        assert_eq!(column_byte(0, 0), 0x81);
        assert_eq!(column_byte(6, 0b111111), 0xFF);
        assert_eq!(decode_column_byte(0x80), None);
        assert_eq!(decode_column_byte(0x41), None);
        assert_eq!(decode_column_byte(0x83), Some((1, 1)));
    }

    #[test]
    fn first_plies() {
        let t = encode_game(&[3, 3]).unwrap();
        assert_eq!(&t[..10], b"\x81\x81\x81\x81\x81\x81\x81-1D");
        assert_eq!(&t[10..], b"\x81\x81\x81\x83\x81\x81\x81D2D");
    }

    #[test]
    fn rows_split() {
        assert_eq!(rows(b"").count(), 0);
        assert_eq!(
            rows(b"ab\ncd\n").collect::<Vec<_>>(),
            vec![&b"ab"[..], b"cd"]
        );
        assert_eq!(rows(b"ab\ncd").count(), 2);
    }
}
