//! The opening book: exact scores of every position up to some depth below a root,
//! stored once per mirror pair, in a compact sorted binary format.
//!
//! Format (little-endian): `b"C4BK"`, version byte 2, the largest stone count of any
//! entry (byte), two zero bytes, the entry count (u32), then one u64 per entry in
//! increasing key order: the position's mirror-canonical key (`current + mask`, below
//! 2^49) in the low 56 bits and the score as a signed byte in the top 8 bits; last, the
//! SHA-256 of every byte before it, since a damaged score still reads as a score and
//! would give wrong answers. Version 1, the same without the checksum, is refused.

use std::collections::HashSet;

use c4lab_board::{Position, CELLS, WIDTH};
use sha2::{Digest, Sha256};

use crate::error::BookError;
use crate::search::canonical;
use crate::{Score, Solver};

/// What a book file starts with, before its version.
pub const BOOK_MAGIC: &[u8; 4] = b"C4BK";
const MAGIC: &[u8; 4] = BOOK_MAGIC;
const VERSION: u8 = 2;
/// The version without a checksum, refused: a damaged entry in it cannot be told.
const VERSION_UNCHECKED: u8 = 1;
const HEADER: usize = 12;
/// The SHA-256 at the end of a version 2 book.
const CHECKSUM: usize = 32;
const KEY_MASK: u64 = (1 << 49) - 1;

/// An opening book: exact scores of positions looked up by mirror-canonical key.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Book {
    keys: Vec<u64>,
    scores: Vec<i8>,
    max_moves: u32,
}

impl Book {
    /// An empty book.
    pub fn new() -> Book {
        Book::default()
    }

    /// Number of positions held (mirror images count once).
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// True when the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The largest stone count of any position held.
    pub fn max_moves(&self) -> u32 {
        self.max_moves
    }

    /// The exact score of `pos` (or of its mirror), if the book holds it.
    #[inline]
    pub fn get(&self, pos: &Position) -> Option<Score> {
        if pos.moves_played() > self.max_moves || self.keys.is_empty() {
            return None;
        }
        let key = canonical(pos).0;
        self.keys
            .binary_search(&key)
            .ok()
            .map(|i| self.scores[i] as Score)
    }

    /// Builds a book from (position, score) pairs; later duplicates are ignored.
    pub fn from_scores(items: impl IntoIterator<Item = (Position, Score)>) -> Book {
        let mut v: Vec<(u64, i8)> = Vec::new();
        let mut max_moves = 0;
        for (p, s) in items {
            max_moves = max_moves.max(p.moves_played());
            v.push((canonical(&p).0, s as i8));
        }
        v.sort_by_key(|e| e.0);
        v.dedup_by_key(|e| e.0);
        Book {
            keys: v.iter().map(|e| e.0).collect(),
            scores: v.iter().map(|e| e.1).collect(),
            max_moves,
        }
    }

    /// The book in its binary format.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + 8 * self.keys.len() + CHECKSUM);
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        out.push(self.max_moves as u8);
        out.extend_from_slice(&[0, 0]);
        out.extend_from_slice(&(self.keys.len() as u32).to_le_bytes());
        for (&k, &s) in self.keys.iter().zip(&self.scores) {
            out.extend_from_slice(&(k | ((s as u8 as u64) << 56)).to_le_bytes());
        }
        let sum = Sha256::digest(&out);
        out.extend_from_slice(&sum);
        out
    }

    /// Reads a book from its binary format, checking every entry.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < HEADER || &bytes[..4] != MAGIC {
            return Err(BookError::BadMagic);
        }
        // a version 1 book has no checksum: a damaged score in it could not be told
        // from a good one, and the solver would answer with it
        let checksum = match bytes[4] {
            VERSION => CHECKSUM,
            VERSION_UNCHECKED => return Err(BookError::Unchecked),
            v => return Err(BookError::BadVersion(v)),
        };
        let max_moves = bytes[5] as u32;
        let count = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize;
        let expected = count
            .checked_mul(8)
            .and_then(|b| b.checked_add(HEADER + checksum))
            .unwrap_or(usize::MAX);
        if bytes.len() != expected {
            return Err(BookError::BadLength {
                expected,
                found: bytes.len(),
            });
        }
        let entries = &bytes[..expected - checksum];
        if checksum > 0 && Sha256::digest(entries).as_slice() != &bytes[entries.len()..] {
            return Err(BookError::BadChecksum);
        }
        if max_moves as usize > CELLS {
            return Err(BookError::BadDepth(bytes[5]));
        }
        let mut keys = Vec::with_capacity(count);
        let mut scores = Vec::with_capacity(count);
        for (index, chunk) in entries[HEADER..].chunks_exact(8).enumerate() {
            let mut b = [0u8; 8];
            b.copy_from_slice(chunk);
            let e = u64::from_le_bytes(b);
            let key = e & ((1 << 56) - 1);
            let score = (e >> 56) as u8 as i8;
            let sorted = !matches!(keys.last(), Some(&last) if last >= key);
            if !sorted || !valid_key(key, max_moves) {
                return Err(BookError::BadKey { index });
            }
            // no game from the position can end with a score outside its bounds (a four
            // takes four stones of a side): a book with one was made wrong
            let stones = key_stones(key).map_or(0, |(stones, _)| stones);
            let (low, high) = crate::bench::score_bounds(stones);
            if !(low..=high).contains(&Score::from(score)) {
                return Err(BookError::BadScore {
                    index,
                    score,
                    stones,
                    low,
                    high,
                });
            }
            keys.push(key);
            scores.push(score);
        }
        Ok(Book {
            keys,
            scores,
            max_moves,
        })
    }
}

/// True when `key` encodes a position with at most `max_moves` stones in which the
/// side to move has the right number of stones.
fn valid_key(key: u64, max_moves: u32) -> bool {
    key_stones(key).is_some_and(|(stones, current)| stones <= max_moves && current == stones / 2)
}

/// The stones on the board of the position `key` encodes, and the side to move's;
/// None when no position has this key.
fn key_stones(key: u64) -> Option<(u32, u32)> {
    if key & !KEY_MASK != 0 {
        return None;
    }
    let (mut stones, mut current) = (0u32, 0u32);
    for x in 0..WIDTH {
        let col = (key >> (7 * x)) & 127;
        // a column of height h holds 2^h - 1 + (current's stones), below 2^(h+1) - 1
        if col == 127 {
            return None;
        }
        let h = 63 - (col + 1).leading_zeros();
        stones += h;
        current += (col + 1 - (1 << h)).count_ones();
    }
    Some((stones, current))
}

/// The deepest book `c4lab book` builds: the list of positions is made before the first
/// solve, and past this depth it runs to millions (depth 8 already holds 129,498).
pub const BOOK_MAX_DEPTH: u32 = 10;

/// Solves every position reachable from `root` in at most `depth` moves (stopping
/// at fours and full boards) and returns them as a book. `progress` receives the
/// number of positions solved so far and the total (0 once the list is made).
pub fn build_book(
    solver: &mut Solver,
    root: &Position,
    depth: u32,
    progress: &mut dyn FnMut(usize, usize),
) -> Book {
    let positions = book_positions(root, depth);
    let total = positions.len();
    progress(0, total);
    let mut items = Vec::with_capacity(total);
    for (i, p) in positions.into_iter().enumerate() {
        let s = solver.solve(&p);
        items.push((p, s));
        progress(i + 1, total);
    }
    Book::from_scores(items)
}

/// Every non-terminal position within `depth` moves of `root`, one per mirror pair,
/// deepest first (their table entries then help the shallower solves).
pub(crate) fn book_positions(root: &Position, depth: u32) -> Vec<Position> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut frontier = vec![*root];
    if root.winner().is_some() || root.is_full() {
        return out;
    }
    seen.insert(canonical(root).0);
    out.push(*root);
    for _ in 0..depth {
        let mut next = Vec::new();
        for p in &frontier {
            for x in 0..WIDTH {
                if !p.can_play(x) || p.is_winning_move(x) {
                    continue;
                }
                let c = p.after(x);
                if c.is_full() || !seen.insert(canonical(&c).0) {
                    continue;
                }
                next.push(c);
            }
        }
        out.extend_from_slice(&next);
        frontier = next;
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_finds_mirrors() {
        let p = Position::from_moves("4453").unwrap();
        let q = Position::from_moves("1").unwrap();
        let book = Book::from_scores([(p, 3), (q, -2)]);
        let back = Book::from_bytes(&book.to_bytes()).unwrap();
        assert_eq!(back, book);
        assert_eq!(back.get(&p), Some(3));
        assert_eq!(back.get(&p.mirror()), Some(3));
        assert_eq!(back.get(&Position::from_moves("7").unwrap()), Some(-2));
        assert_eq!(back.get(&Position::from_moves("2").unwrap()), None);
        assert_eq!(back.max_moves(), 4);
    }

    /// `v` with its checksum made to match again, so a damage reaches the later checks.
    fn resealed(mut v: Vec<u8>) -> Vec<u8> {
        let body = v.len() - CHECKSUM;
        let sum = Sha256::digest(&v[..body]);
        v[body..].copy_from_slice(&sum);
        v
    }

    #[test]
    fn refuses_bad_bytes() {
        let p = Position::from_moves("4453").unwrap();
        let good = Book::from_scores([(p, 3), (Position::new(), 1)]).to_bytes();
        assert_eq!(Book::from_bytes(b"nope"), Err(BookError::BadMagic));
        let mut v = good.clone();
        v[4] = 9;
        assert_eq!(Book::from_bytes(&v), Err(BookError::BadVersion(9)));
        assert!(matches!(
            Book::from_bytes(&good[..good.len() - 1]),
            Err(BookError::BadLength { .. })
        ));
        let mut v = good.clone();
        v[HEADER + 15] = 100; // second entry's score byte
        assert!(matches!(
            Book::from_bytes(&resealed(v)),
            Err(BookError::BadScore { index: 1, .. })
        ));
        // within -21..=21 but past what a game from the empty board can end with (a
        // crafted book passed with it)
        let mut v = Book::from_scores([(Position::new(), 1)]).to_bytes();
        v[HEADER + 7] = (-20i8) as u8;
        let e = Book::from_bytes(&resealed(v)).unwrap_err();
        assert!(
            matches!(
                e,
                BookError::BadScore {
                    index: 0,
                    score: -20,
                    stones: 0,
                    low: -18,
                    high: 18
                }
            ),
            "{e:?}"
        );
        assert!(e.to_string().contains("outside -18..=18"), "{e}");
        let mut v = good.clone();
        v[HEADER + 8..HEADER + 16].copy_from_slice(&[0; 8]); // duplicate of entry 0
        assert_eq!(
            Book::from_bytes(&resealed(v)),
            Err(BookError::BadKey { index: 1 })
        );
        let mut v = good.clone();
        v[5] = 43; // deeper than a board
        assert_eq!(Book::from_bytes(&resealed(v)), Err(BookError::BadDepth(43)));
        let mut v = good.clone();
        v[8] = 0xff; // huge count
        assert!(matches!(
            Book::from_bytes(&v),
            Err(BookError::BadLength { .. })
        ));
        // every truncation and every single-byte change is refused: a score changed to
        // another legal score (3 to 2 here) would otherwise be read as the truth
        for cut in 0..good.len() {
            assert!(Book::from_bytes(&good[..cut]).is_err());
        }
        let mut v = good.clone();
        v[HEADER + 15] = 2;
        assert_eq!(Book::from_bytes(&v), Err(BookError::BadChecksum));
        for i in 0..good.len() {
            for b in [0u8, 1, 2, 0x7f, 0x80, 0xfe, 0xff] {
                let mut v = good.clone();
                if v[i] != b {
                    v[i] = b;
                    assert!(Book::from_bytes(&v).is_err(), "byte {i} set to {b}");
                }
            }
        }
    }

    #[test]
    fn refuses_a_version_1_book_which_has_no_checksum() {
        let p = Position::from_moves("4453").unwrap();
        let book = Book::from_scores([(p, 3), (Position::new(), 1)]);
        let mut v = book.to_bytes();
        v.truncate(v.len() - CHECKSUM);
        v[4] = 1;
        // it used to be read, a damaged score and all
        assert_eq!(Book::from_bytes(&v), Err(BookError::Unchecked));
        assert!(BookError::Unchecked
            .to_string()
            .contains("rebuild it with `c4lab book`"));
    }

    #[test]
    fn enumerates_positions_once_per_mirror_pair() {
        let ps = book_positions(&Position::new(), 2);
        // empty board, 4 first moves up to mirroring, and their distinct replies
        assert_eq!(ps.last(), Some(&Position::new()));
        assert_eq!(ps.iter().filter(|p| p.moves_played() == 1).count(), 4);
        let keys: HashSet<u64> = ps.iter().map(|p| canonical(p).0).collect();
        assert_eq!(keys.len(), ps.len());
    }
}
