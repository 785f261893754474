//! Errors: malformed opening-book bytes and malformed benchmark lines.

use thiserror::Error;

/// Why bytes could not be read as an opening book.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BookError {
    /// The bytes do not start with the book's magic number.
    #[error("not a c4lab opening book (bad magic number); build one with `c4lab book`")]
    BadMagic,
    /// A format version this code does not read.
    #[error("opening book format version {0} is not supported (expected 2); rebuild the book with `c4lab book`")]
    BadVersion(u8),
    /// A version 1 book, written before books carried a checksum.
    #[error("opening book format version 1 carries no checksum, so a damaged entry in it cannot be told from a good one; rebuild it with `c4lab book`")]
    Unchecked,
    /// The checksum at the end does not match the bytes before it.
    #[error("opening book's checksum does not match its contents, so the file is damaged; rebuild it with `c4lab book`")]
    BadChecksum,
    /// The byte length does not match the entry count in the header.
    #[error("opening book is {found} bytes but its header announces {expected}; the file is truncated or corrupt")]
    BadLength {
        /// Bytes the header implies.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// The header's deepest stone count is more than a board holds.
    #[error("opening book header says its positions hold up to {0} stones, more than the board's 42; the file is corrupt")]
    BadDepth(u8),
    /// An entry's key is not a valid position key or keys are out of order.
    #[error("opening book entry {index} has a bad or unsorted position key; the file is corrupt")]
    BadKey {
        /// The 0-based entry index.
        index: usize,
    },
    /// An entry's score is one no game from its position can end with.
    #[error("opening book entry {index} has score {score}, outside {low}..={high}, the scores a game from its position ({stones} stones) can end with; the file is corrupt")]
    BadScore {
        /// The 0-based entry index.
        index: usize,
        /// The score found.
        score: i8,
        /// The stones on the board.
        stones: u32,
        /// The lowest score possible there.
        low: i32,
        /// The highest.
        high: i32,
    },
}

/// Why a benchmark line could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BenchError {
    /// The line is not `<moves> <score>`.
    #[error("line {line}: expected `<moves> <score>` (`-` as the moves of the empty board)")]
    Shape {
        /// The 1-based line number.
        line: usize,
    },
    /// The move sequence is illegal.
    #[error("line {line}: {source}")]
    Moves {
        /// The 1-based line number.
        line: usize,
        /// Why the moves were refused.
        source: c4lab_board::MoveError,
    },
    /// The moves end a game: there is no position to score.
    #[error("line {line}: the game is already over: {} made four in a row at move {moves}; a benchmark position is one where play goes on", winner.name())]
    Over {
        /// The 1-based line number.
        line: usize,
        /// Who made the four.
        winner: c4lab_board::Player,
        /// The number of moves on the line.
        moves: usize,
    },
    /// The score is not an integer.
    #[error("line {line}: {text:?} is not an integer score")]
    Score {
        /// The 1-based line number.
        line: usize,
        /// The text found.
        text: String,
    },
    /// The score is one no game from the position can end with.
    #[error("line {line}: the score {score} is impossible after {moves} moves (scores there lie in {low}..={high})")]
    ScoreRange {
        /// The 1-based line number.
        line: usize,
        /// The score given.
        score: i32,
        /// The number of moves on the line.
        moves: usize,
        /// The lowest possible score.
        low: i32,
        /// The highest possible score.
        high: i32,
    },
}
