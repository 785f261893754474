//! What the network sees: each column as a byte from the mover's point of view, and
//! windows of adjacent columns combined with GF(2^8) arithmetic into table indices.
//!
//! A column's byte is `(1 << h) | mine`, `h` its height and bit `r` of `mine` set when
//! the player to move owns row `r`: 127 values, the v2 transcript's column bytes with
//! ownership taken relative to the mover. A window of `t` columns (t = 2, 3, 4; all
//! fifteen windows) maps to a 16-bit index through two GF(2^8)-linear forms (two
//! "lanes" of XORed products); for pairs the 2x2 matrix is invertible, so pairs never
//! collide, while triples and quads hash 127^t states into 65,536 slots. A window and
//! its mirror image share a table: the mirror reads its columns right to left and its
//! scores land on mirrored columns (the centre triple, its own mirror, reads in the
//! direction giving the smaller index), so mirrored positions get mirrored scores. Separate tables serve the first and second player
//! to move (Connect Four's parity matters).

use c4lab_board::{cell_bit, Position, WIDTH};

use crate::gf;

/// Window lengths, in the order their tables are laid out.
pub const LENGTHS: [usize; 3] = [2, 3, 4];
/// Slots per table and side (16-bit indices).
pub const SLOTS: usize = 1 << 16;
/// Windows over the board (6 pairs, 5 triples, 4 quads).
pub const WINDOWS: usize = 15;
/// Distinct tables per side: windows identified with their mirror images.
pub const TABLES: usize = 8;

/// The coefficients of the two lanes, per column of a window (any nonzero choice
/// with an invertible leading 2x2 block keeps pairs collision-free).
const LANE0: [u8; 4] = [0x01, 0x02, 0x8D, 0x1B];
const LANE1: [u8; 4] = [0x03, 0x01, 0x4F, 0xD4];

/// One active table entry: which table, which slot, and whether its scores apply to
/// mirrored columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Feature {
    /// Table number, `side * TABLES + table`.
    pub table: usize,
    /// Slot within the table.
    pub slot: usize,
    /// The window is the mirror image of its table's window.
    pub mirrored: bool,
}

/// The mover-relative column bytes of `pos`.
pub fn column_bytes(pos: &Position) -> [u8; WIDTH] {
    let mine = pos.current();
    let mut out = [0u8; WIDTH];
    for (x, b) in out.iter_mut().enumerate() {
        let h = pos.height(x);
        let mut bits = 0u8;
        for y in 0..h {
            if mine & cell_bit(x, y) != 0 {
                bits |= 1 << y;
            }
        }
        *b = (1u8 << h) | bits;
    }
    out
}

/// The 16-bit index of a window's bytes.
#[inline(always)]
fn index(bytes: &[u8]) -> usize {
    let (mut l0, mut l1) = (0u8, 0u8);
    for (i, &b) in bytes.iter().enumerate() {
        l0 ^= gf::mul(b, LANE0[i]);
        l1 ^= gf::mul(b, LANE1[i]);
    }
    (l0 as usize) << 8 | l1 as usize
}

/// The fifteen active features of `pos`.
pub fn features(pos: &Position) -> [Feature; WINDOWS] {
    let cols = column_bytes(pos);
    let side = (pos.moves_played() & 1) as usize;
    let mut out = [Feature {
        table: 0,
        slot: 0,
        mirrored: false,
    }; WINDOWS];
    let (mut k, mut base) = (0, 0);
    for t in LENGTHS {
        let starts = WIDTH + 1 - t;
        for c in 0..starts {
            let m = starts - 1 - c; // the mirror window's start
            let (mut fwd, mut rev) = ([0u8; 4], [0u8; 4]);
            for i in 0..t {
                fwd[i] = cols[c + i];
                rev[i] = cols[c + t - 1 - i];
            }
            let (f, r) = (index(&fwd[..t]), index(&rev[..t]));
            // the right-hand window of a mirror pair reads right to left; a window that
            // is its own mirror (the centre triple) reads the way with the smaller index
            let mirrored = m < c || (m == c && r < f);
            out[k] = Feature {
                table: side * TABLES + base + c.min(m),
                slot: if mirrored { r } else { f },
                mirrored,
            };
            k += 1;
        }
        base += starts.div_ceil(2);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_never_collide_and_mirrors_share_tables() {
        // every pair of column bytes gets its own slot
        let mut seen = std::collections::HashSet::new();
        for a in 1..128u8 {
            for b in 1..128u8 {
                assert!(seen.insert(index(&[a, b])));
            }
        }
        // a position and its mirror image use the same table slots, mirrored
        let p = Position::from_moves("4453215").unwrap();
        let q = Position::from_moves(
            &"4453215"
                .chars()
                .map(|c| char::from(b'8' - (c as u8 - b'0')))
                .collect::<String>(),
        )
        .unwrap();
        let (fp, fq) = (features(&p), features(&q));
        let mut a: Vec<(usize, usize)> = fp.iter().map(|f| (f.table, f.slot)).collect();
        let mut b: Vec<(usize, usize)> = fq.iter().map(|f| (f.table, f.slot)).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b);
        assert!(fp.iter().all(|f| f.table < 2 * TABLES && f.slot < SLOTS));
    }
}
