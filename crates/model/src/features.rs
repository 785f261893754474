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
//! direction giving the smaller index). A window that is its own mirror and reads the
//! same both ways (a symmetric centre triple, the centre column's threat window, a
//! symmetric board-wide one) adds its row unreversed for a position and for its mirror
//! alike, and nothing makes such a row symmetric, so mirrored positions get mirrored
//! scores only up to those rows (training sees both sides, but does not force it). Separate tables serve the first and second player
//! to move (Connect Four's parity matters).
//!
//! The `threats` feature set ([`FeatureSet::Threats`], the default) adds what Connect
//! Four's strategy turns on: the empty cells where either side would complete a four
//! (threats; whose row is odd or even decides most endgames). Each column gets a window
//! of three bytes (its column byte, the mover's threat cells in it, the opponent's), and
//! one window spans the whole board: per column a byte holding the row of the mover's
//! lowest threat and of the opponent's (7 for none), seven bytes hashed by three more
//! GF(2^8)-linear forms. The threat cells are bitboard shifts and ANDs of the position.

use c4lab_board::{Position, WIDTH};

use crate::gf;

/// Window lengths, in the order their tables are laid out.
pub const LENGTHS: [usize; 3] = [2, 3, 4];
/// Bits of a table index by default: 65,536 slots per table and side.
pub const DEFAULT_INDEX_BITS: u32 = 16;
/// The widest table index (a third GF(2^8) lane adds its high bits to the first two;
/// 20 bits make a 235 MB model).
pub const MAX_INDEX_BITS: u32 = 20;
/// Column windows over the board (6 pairs, 5 triples, 4 quads).
const COLUMN_WINDOWS: usize = 15;
/// Tables per side of the column windows (windows identified with their mirror images).
const COLUMN_TABLES: usize = 8;
/// The most features a position has (the threat set's).
pub const MAX_WINDOWS: usize = COLUMN_WINDOWS + WIDTH + 1;

/// Which windows a network reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FeatureSet {
    /// The fifteen column windows only.
    Columns,
    /// The column windows, a threat window per column and one over the whole board.
    Threats,
}

impl FeatureSet {
    /// Both sets, the default first.
    pub const ALL: [FeatureSet; 2] = [FeatureSet::Threats, FeatureSet::Columns];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            FeatureSet::Columns => "columns",
            FeatureSet::Threats => "threats",
        }
    }

    /// Active features a position has.
    pub fn windows(self) -> usize {
        match self {
            FeatureSet::Columns => COLUMN_WINDOWS,
            FeatureSet::Threats => MAX_WINDOWS,
        }
    }

    /// Distinct tables per side to move, mirror images sharing one: the threat windows
    /// of columns 1 and 7, 2 and 6, 3 and 5, and 4 add four, the board window one.
    pub fn tables(self) -> usize {
        match self {
            FeatureSet::Columns => COLUMN_TABLES,
            FeatureSet::Threats => COLUMN_TABLES + WIDTH.div_ceil(2) + 1,
        }
    }
}

impl std::str::FromStr for FeatureSet {
    type Err = String;
    fn from_str(s: &str) -> Result<FeatureSet, String> {
        FeatureSet::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| format!("unknown feature set {s:?}; use threats or columns"))
    }
}

/// The coefficients of the two lanes, per column of a window (any nonzero choice
/// with an invertible leading 2x2 block keeps pairs collision-free).
const LANE0: [u8; 4] = [0x01, 0x02, 0x8D, 0x1B];
const LANE1: [u8; 4] = [0x03, 0x01, 0x4F, 0xD4];
/// The third lane, read only for indices wider than 16 bits.
const LANE2: [u8; 4] = [0x07, 0x1D, 0x02, 0x35];
/// The three lanes of the board-wide threat window, per column.
const BOARD_LANES: [[u8; WIDTH]; 3] = [
    [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40],
    [0x03, 0x05, 0x11, 0x1B, 0x35, 0x4F, 0x8D],
    [0x07, 0x1D, 0x53, 0xCA, 0x2F, 0x9A, 0xE1],
];

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

/// `products(lanes)[lane][i][b]` = b times lane `lane`'s coefficient for window byte
/// `i`, in GF(2^8): the lane products as single table lookups, built at compile time.
const fn products<const N: usize>(lanes: [[u8; N]; 3]) -> [[[u8; 256]; N]; 3] {
    let mut t = [[[0u8; 256]; N]; 3];
    let mut lane = 0;
    while lane < 3 {
        let mut i = 0;
        while i < N {
            let mut b = 0;
            while b < 256 {
                t[lane][i][b] = gf::mul(b as u8, lanes[lane][i]);
                b += 1;
            }
            i += 1;
        }
        lane += 1;
    }
    t
}

/// The column windows' lane products.
static LANE_MUL: [[[u8; 256]; 4]; 3] = products([LANE0, LANE1, LANE2]);
/// The board window's lane products.
static BOARD_MUL: [[[u8; 256]; WIDTH]; 3] = products(BOARD_LANES);

/// The `bits`-bit index of a window's bytes under the lane products `mul`: lanes 0
/// and 1, then as many high bits of lane 2 as `bits` exceeds 16 (so a 16-bit index is
/// the same at every width's top).
#[inline(always)]
fn index_by<const N: usize>(mul: &[[[u8; 256]; N]; 3], bytes: &[u8], bits: u32) -> usize {
    let (mut l0, mut l1) = (0u8, 0u8);
    for (i, &b) in bytes.iter().enumerate() {
        l0 ^= mul[0][i][b as usize];
        l1 ^= mul[1][i][b as usize];
    }
    let top = (l0 as usize) << 8 | l1 as usize;
    if bits <= 16 {
        return top;
    }
    let mut l2 = 0u8;
    for (i, &b) in bytes.iter().enumerate() {
        l2 ^= mul[2][i][b as usize];
    }
    let extra = bits - 16;
    top << extra | (l2 as usize) >> (8 - extra)
}

/// The index of a column window's bytes (at most four).
#[inline(always)]
fn index(bytes: &[u8], bits: u32) -> usize {
    index_by(&LANE_MUL, bytes, bits)
}

/// The active features of a position: the first `len` of `items`.
#[derive(Debug, Clone, Copy)]
pub struct Active {
    items: [Feature; MAX_WINDOWS],
    len: usize,
}

impl std::ops::Deref for Active {
    type Target = [Feature];
    fn deref(&self) -> &[Feature] {
        &self.items[..self.len]
    }
}

impl IntoIterator for Active {
    type Item = Feature;
    type IntoIter = std::iter::Take<std::array::IntoIter<Feature, MAX_WINDOWS>>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter().take(self.len)
    }
}

/// The active features of `pos` in `set`, in tables of `1 << bits` slots (`bits` in
/// `DEFAULT_INDEX_BITS..=MAX_INDEX_BITS`).
pub fn features(pos: &Position, bits: u32, set: FeatureSet) -> Active {
    let cols = column_bytes(pos);
    let side = (pos.moves_played() & 1) as usize;
    let tables = set.tables();
    let mut out = Active {
        items: [Feature {
            table: 0,
            slot: 0,
            mirrored: false,
        }; MAX_WINDOWS],
        len: set.windows(),
    };
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
            out.items[k] = Feature {
                table: side * tables + base + c.min(m),
                slot,
                mirrored,
            };
            k += 1;
        }
        base += starts.div_ceil(2);
    }
    if set == FeatureSet::Threats {
        threat_features(pos, &cols, bits, side * tables + base, &mut out.items[k..]);
    }
    out
}

/// The threat windows of `pos` from table `first` on: one per column, then the board's.
fn threat_features(
    pos: &Position,
    cols: &[u8; WIDTH],
    bits: u32,
    first: usize,
    out: &mut [Feature],
) {
    let mask = pos.mask();
    let mine = c4lab_board::winning_cells(pos.current(), mask);
    let theirs = c4lab_board::winning_cells(pos.opponent(), mask);
    // the row of a column's lowest threat, 7 for none
    let lowest = |v: u8| if v == 0 { 7 } else { v.trailing_zeros() as u8 };
    let mut board = [0u8; WIDTH];
    for x in 0..WIDTH {
        let shift = 7 * x as u32;
        let (a, b) = (
            ((mine >> shift) & 0x3F) as u8,
            ((theirs >> shift) & 0x3F) as u8,
        );
        let m = WIDTH - 1 - x;
        // a column reads the same both ways: only its scores are mirrored
        out[x] = Feature {
            table: first + x.min(m),
            slot: index(&[cols[x], a, b], bits),
            mirrored: x > m,
        };
        board[x] = 0x40 | lowest(a) | lowest(b) << 3;
    }
    // the board is its own mirror: it reads the way with the smaller index
    let mut mirrored = board;
    mirrored.reverse();
    let (f, r) = (
        index_by(&BOARD_MUL, &board, bits),
        index_by(&BOARD_MUL, &mirrored, bits),
    );
    out[WIDTH] = Feature {
        table: first + WIDTH.div_ceil(2),
        slot: f.min(r),
        mirrored: r < f,
    };
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
        for set in FeatureSet::ALL {
            let (fp, fq) = (features(&p, 18, set), features(&q, 18, set));
            let mut a: Vec<(usize, usize)> = fp.iter().map(|f| (f.table, f.slot)).collect();
            let mut b: Vec<(usize, usize)> = fq.iter().map(|f| (f.table, f.slot)).collect();
            a.sort();
            b.sort();
            assert_eq!(a, b, "{set:?}");
            assert_eq!(fp.len(), set.windows());
            assert!(fp
                .iter()
                .all(|f| f.table < 2 * set.tables() && f.slot < 1 << 18));
            // a wider index keeps the 16-bit index as its top bits
            for (w, n) in fp.iter().zip(features(&p, 16, set)) {
                assert_eq!(w.slot >> 2, n.slot);
            }
        }
        // the threat set reads the column windows' slots first, then its own tables
        let (c, t) = (
            features(&p, 17, FeatureSet::Columns),
            features(&p, 17, FeatureSet::Threats),
        );
        for (a, b) in c.iter().zip(t.iter()) {
            assert_eq!((a.slot, a.mirrored), (b.slot, b.mirrored));
        }
        let own: std::collections::BTreeSet<usize> = t[c.len()..].iter().map(|f| f.table).collect();
        assert_eq!(own.len(), FeatureSet::Threats.tables() - COLUMN_TABLES);
    }

    #[test]
    fn threat_windows_see_the_threats() {
        // Red to move in both, Yellow's three in column 7 threatening its fourth row in
        // both; Red's stones in columns 1, 2, 3 threaten the bottom of the empty column
        // 4, Red's stones in columns 1, 2, 5 threaten nothing
        let threat = Position::from_moves("172737").unwrap();
        let quiet = Position::from_moves("172757").unwrap();
        let (a, b) = (
            features(&threat, 16, FeatureSet::Threats),
            features(&quiet, 16, FeatureSet::Threats),
        );
        let column = |f: &Active, x: usize| f[COLUMN_WINDOWS + x];
        // column 4 holds no stone in either, yet its threat window differs, and so
        // does the board's
        assert_eq!(column_bytes(&threat)[3], column_bytes(&quiet)[3]);
        assert_ne!(column(&a, 3).slot, column(&b, 3).slot);
        assert_ne!(a[MAX_WINDOWS - 1].slot, b[MAX_WINDOWS - 1].slot);
        // column 7 (its stones and Yellow's threat) and column 6 read the same
        assert_eq!(column(&a, 6), column(&b, 6));
        assert_eq!(column(&a, 5), column(&b, 5));
    }
}
