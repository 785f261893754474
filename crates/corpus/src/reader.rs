//! Streaming corpus rows from a file, one `\n`-terminated row at a time.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use c4lab_board::Position;

use crate::error::{io_err, CorpusError};
use crate::transcript::{decode_row, Game, PLY_LEN};

/// The longest row [`RowReader`] reads (far past a legal row's 420 bytes, so that a
/// row a few plies too long still reaches the integrity gate's report).
pub const ROW_LIMIT: usize = 1 << 16;

/// Reads a corpus row by row without loading the file.
pub struct RowReader {
    path: PathBuf,
    inner: BufReader<Box<dyn Read>>,
    buf: Vec<u8>,
    index: usize,
}

/// One row as read: its bytes (without the newline) and whether a newline ended it.
pub struct RawRow<'a> {
    /// The row's index, from 0.
    pub index: usize,
    /// The bytes, without the `\n`.
    pub bytes: &'a [u8],
    /// False only for a last row missing its final newline.
    pub terminated: bool,
}

impl RowReader {
    /// Opens a corpus file.
    pub fn open(path: &Path) -> Result<RowReader, CorpusError> {
        let f = File::open(path).map_err(io_err(path))?;
        let mut rows = RowReader::from_reader(path, Box::new(f));
        // a sidecar given where its corpus goes read as a hundred transcript faults
        // and "mend or regenerate it"; it is named as what it is
        let head = rows.inner.fill_buf().map_err(io_err(path))?;
        if head.starts_with(b"PK\x03\x04") {
            return Err(CorpusError::Invalid(format!(
                "{}: a zip archive (an .npz sidecar?), not a corpus transcript: give the corpus first and its sidecar after it",
                path.display()
            )));
        }
        Ok(rows)
    }

    /// Reads rows from any reader; `path` only labels errors.
    pub fn from_reader(path: &Path, r: Box<dyn Read>) -> RowReader {
        RowReader {
            path: path.to_path_buf(),
            inner: BufReader::with_capacity(1 << 20, r),
            buf: Vec::with_capacity(512),
            index: 0,
        }
    }

    /// The file being read.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The next row, or `None` at the end of the file. A row longer than
    /// [`ROW_LIMIT`] is an error (a file that is no corpus, such as `/dev/zero`, would
    /// otherwise be read into memory whole).
    pub fn next_row(&mut self) -> Result<Option<RawRow<'_>>, CorpusError> {
        self.buf.clear();
        let n = Read::take(&mut self.inner, ROW_LIMIT as u64 + 1)
            .read_until(b'\n', &mut self.buf)
            .map_err(io_err(&self.path))?;
        if n == 0 {
            return Ok(None);
        }
        let terminated = self.buf.last() == Some(&b'\n');
        if !terminated && n > ROW_LIMIT {
            return Err(CorpusError::Invalid(format!(
                "{}: row {} runs past {ROW_LIMIT} bytes without a line end, where a v2 \
                 transcript's row holds at most 42 plies of {PLY_LEN} bytes: is it a corpus file?",
                self.path.display(),
                self.index
            )));
        }
        if terminated {
            self.buf.pop();
        }
        let index = self.index;
        self.index += 1;
        Ok(Some(RawRow {
            index,
            bytes: &self.buf,
            terminated,
        }))
    }

    /// The next row decoded strictly (see [`decode_row`]).
    pub fn next_game(&mut self) -> Result<Option<Game>, CorpusError> {
        let path = self.path.clone();
        match self.next_row()? {
            None => Ok(None),
            Some(r) => decode_row(r.index, r.bytes)
                .map(Some)
                .map_err(|source| CorpusError::Decode { path, source }),
        }
    }
}

/// Decodes every row of a corpus file (for modest files and tests).
pub fn read_games(path: &Path) -> Result<Vec<Game>, CorpusError> {
    let mut r = RowReader::open(path)?;
    let mut out = Vec::new();
    while let Some(g) = r.next_game()? {
        out.push(g);
    }
    Ok(out)
}

/// The positions of a game given by its moves: `out[k]` is the board before move `k`.
pub fn positions_of(moves: &[u8]) -> Vec<Position> {
    let mut pos = Position::new();
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        out.push(pos);
        pos.play(m as usize);
    }
    out
}
