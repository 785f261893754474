//! What the network sees: each column as a byte from the mover's point of view, and
//! windows of adjacent columns combined with GF(2^8) arithmetic into table indices.
//!
//! A column's byte is the v2 transcript's column byte `0x80 | (1 << h) | bits`, `h` its
//! height, with bit `r` of `bits` set when the player to move owns row `r` (the
//! transcript's bits with ownership flipped when the second player moves): 127 values. A window of `t` columns (t = 2, 3, 4; all
//! fifteen windows) maps to a 16-bit index through two GF(2^8)-linear forms (two
//! "lanes" of XORed products); for pairs the 2x2 matrix is invertible, so pairs never
//! collide, while triples and quads hash 127^t states into 65,536 slots. Wider tables
//! (`--index-bits`, up to 20) append the high bits of a third lane, so triples and
//! quads collide less; a model file's size tells its width. A window and
//! its mirror image share a table: the mirror reads its columns right to left and its
//! scores land on mirrored columns (the centre triple, its own mirror, reads in the
//! direction giving the smaller index), so mirrored positions get mirrored scores. Separate tables serve the first and second player
//! to move (Connect Four's parity matters).

use c4lab_board::{Position, WIDTH};

use crate::gf;

/// Window lengths, in the order their tables are laid out.
pub const LENGTHS: [usize; 3] = [2, 3, 4];
/// Bits of a table index by default: 65,536 slots per table and side.
pub const DEFAULT_INDEX_BITS: u32 = 16;
/// The widest table index (a third GF(2^8) lane adds its high bits to the first two;
/// 20 bits make a 235 MB model).
pub const MAX_INDEX_BITS: u32 = 20;
/// Windows over the board (6 pairs, 5 triples, 4 quads).
pub const WINDOWS: usize = 15;
/// Distinct tables per side: windows identified with their mirror images.
pub const TABLES: usize = 8;

/// The coefficients of the two lanes, per column of a window (any nonzero choice
/// with an invertible leading 2x2 block keeps pairs collision-free).
const LANE0: [u8; 4] = [0x01, 0x02, 0x8D, 0x1B];
const LANE1: [u8; 4] = [0x03, 0x01, 0x4F, 0xD4];
/// The third lane, read only for indices wider than 16 bits.
const LANE2: [u8; 4] = [0x07, 0x1D, 0x02, 0x35];

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

/// The mover-relative column bytes of `pos`: the v2 transcript's column bytes with
/// ownership taken from the player to move. Read straight off the bitboards (column
/// `x` is bits `7x..7x+6`) rather than cell by cell as the transcript's encoder does,
/// because this runs in every forward pass.
#[inline(always)]
pub fn column_bytes(pos: &Position) -> [u8; WIDTH] {
    let (mine, mask) = (pos.current(), pos.mask());
    std::array::from_fn(|x| {
        let shift = 7 * x as u32;
        let filled = ((mask >> shift) & 0x3F) as u8;
        let h = filled.count_ones();
        0x80 | (1u8 << h) | (((mine >> shift) & 0x3F) as u8 & filled)
    })
}

/// `LANE_MUL[lane][i][b]` = b times lane `lane`'s coefficient for window column `i`,
/// in GF(2^8): the lane products as single table lookups, built at compile time.
static LANE_MUL: [[[u8; 256]; 4]; 3] = {
    let mut t = [[[0u8; 256]; 4]; 3];
    let mut i = 0;
    while i < 4 {
        let mut b = 0;
        while b < 256 {
            t[0][i][b] = gf::mul(b as u8, LANE0[i]);
            t[1][i][b] = gf::mul(b as u8, LANE1[i]);
            t[2][i][b] = gf::mul(b as u8, LANE2[i]);
            b += 1;
        }
        i += 1;
    }
    t
};

/// The `bits`-bit index of a window's bytes: lanes 0 and 1, then as many high bits of
/// lane 2 as `bits` exceeds 16 (so a 16-bit index is the same at every width's top).
#[inline(always)]
fn index(bytes: &[u8], bits: u32) -> usize {
    let (mut l0, mut l1) = (0u8, 0u8);
    for (i, &b) in bytes.iter().enumerate() {
        l0 ^= LANE_MUL[0][i][b as usize];
        l1 ^= LANE_MUL[1][i][b as usize];
    }
    let top = (l0 as usize) << 8 | l1 as usize;
    if bits <= 16 {
        return top;
    }
    let mut l2 = 0u8;
    for (i, &b) in bytes.iter().enumerate() {
        l2 ^= LANE_MUL[2][i][b as usize];
    }
    let extra = bits - 16;
    top << extra | (l2 as usize) >> (8 - extra)
}

/// The fifteen active features of `pos` in tables of `1 << bits` slots (`bits` in
/// `DEFAULT_INDEX_BITS..=MAX_INDEX_BITS`).
pub fn features(pos: &Position, bits: u32) -> [Feature; WINDOWS] {
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
            // the right-hand window of a mirror pair reads right to left; a window that
            // is its own mirror (the centre triple) reads the way with the smaller index
            let (slot, mirrored) = if m > c {
                (index(&fwd[..t], bits), false)
            } else if m < c {
                (index(&rev[..t], bits), true)
            } else {
                let (f, r) = (index(&fwd[..t], bits), index(&rev[..t], bits));
                (f.min(r), r < f)
            };
            out[k] = Feature {
                table: side * TABLES + base + c.min(m),
                slot,
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
    fn column_bytes_mark_the_movers_stones() {
        // Yellow to move: Red's stone in column 4 is not the mover's
        assert_eq!(
            column_bytes(&Position::from_moves("4").unwrap())[3],
            0x80 | 0b10
        );
        // Red to move: Red owns row 0 of column 4, Yellow row 1
        assert_eq!(
            column_bytes(&Position::from_moves("44").unwrap())[3],
            0x80 | 0b100 | 0b01
        );
        assert_eq!(column_bytes(&Position::new()), [0x81; WIDTH]);
        // and they are the transcript's bytes, ownership flipped for the second player
        for moves in ["", "4", "44", "4453216", "12345671234", "444444"] {
            let p = Position::from_moves(moves).unwrap();
            let mut want = c4lab_corpus::transcript::column_bytes(&p);
            if p.moves_played() % 2 == 1 {
                for b in want.iter_mut() {
                    let (h, _) = c4lab_corpus::transcript::decode_column_byte(*b).unwrap();
                    *b ^= (1u8 << h) - 1;
                }
            }
            assert_eq!(column_bytes(&p), want, "{moves}");
        }
    }

    #[test]
    fn pairs_never_collide_and_mirrors_share_tables() {
        // every pair of column bytes gets its own slot
        let mut seen = std::collections::HashSet::new();
        for a in 0x81..=0xFFu8 {
            for b in 0x81..=0xFFu8 {
                assert!(seen.insert(index(&[a, b], DEFAULT_INDEX_BITS)));
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
        let (fp, fq) = (features(&p, 18), features(&q, 18));
        let mut a: Vec<(usize, usize)> = fp.iter().map(|f| (f.table, f.slot)).collect();
        let mut b: Vec<(usize, usize)> = fq.iter().map(|f| (f.table, f.slot)).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b);
        assert!(fp.iter().all(|f| f.table < 2 * TABLES && f.slot < 1 << 18));
        // a wider index keeps the 16-bit index as its top bits
        for (w, n) in features(&p, 18).iter().zip(features(&p, 16)) {
            assert_eq!(w.slot >> 2, n.slot);
        }
    }
}
