//! `c4lab book`: every position near the empty board solved into a file, and the
//! reader of such a file (`--book` of solve, analyze, eval and corpus generate).

use std::io::IsTerminal;
use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use c4lab_board::Position;
use c4lab_solver::{build_book, Book};

/// The largest book file read: a depth-10 book (the deepest `c4lab book` builds) holds
/// about 1.3 million positions at 8 bytes each.
pub const BOOK_MAX_BYTES: u64 = 64 << 20;

/// Reads an opening book made by `c4lab book`, refusing a damaged one.
pub fn read_book(path: &Path) -> Result<Book> {
    let bytes =
        crate::input::read_bytes_limited(path, BOOK_MAX_BYTES, "book", c4lab_solver::BOOK_MAGIC)
            .with_context(|| format!("cannot read the book {}", path.display()))?;
    Book::from_bytes(&bytes).with_context(|| format!("{}", path.display()))
}

/// `c4lab book`: solves every position within `depth` moves of the empty board.
pub fn build(depth: u32, out: &Path, mb: usize, threads: usize) -> Result<u8> {
    // written beside --out first and renamed at the end: a path that cannot be written
    // is said before the minutes of solving, and a book already there survives a stop
    if out.is_dir() {
        bail!(
            "--out {} is a folder; name the book file to write (for example {})",
            out.display(),
            out.join("book.bin").display()
        );
    }
    // a file already there is written over only when it is a book (it replaced a
    // diagram, say, without a word)
    crate::files::writable(out, "--out", (c4lab_solver::BOOK_MAGIC, "book"))?;
    let output = crate::files::Output::new(out);
    // the table first: a size the machine cannot give leaves no empty part file behind
    let mut s = crate::solve::solver(mb, threads, None)?;
    let file = output.create()?;
    let t = Instant::now();
    let mut last = Instant::now();
    // on a terminal, one line from the first second on, its clock the whole book's:
    // the count so far (one position near the empty board takes minutes, and many
    // quick ones each too short to be drawn); elsewhere (a log) a line every 10 s
    let terminal = std::io::stderr().is_terminal();
    let ticker = crate::ticker::Ticker::on_terminal();
    ticker.start("book: listing the positions".to_string());
    let b = build_book(&mut s, &Position::new(), depth, &mut |done, total| {
        if done < total {
            ticker.retitle(format!(
                "book: {done}/{total} positions solved, solving the next"
            ));
        }
        if !terminal && (last.elapsed().as_secs() >= 10 || done == total) {
            sayln!(
                "book: {done}/{total} positions solved, {:.0} s",
                t.elapsed().as_secs_f64()
            );
            last = Instant::now();
        }
    });
    ticker.done();
    let bytes = b.to_bytes();
    output.finish(file, &bytes)?;
    outln!(
        "book of depth {depth}: {} position{}, {} bytes, written to {} in {:.1} s",
        b.len(),
        if b.len() == 1 { "" } else { "s" },
        bytes.len(),
        out.display(),
        t.elapsed().as_secs_f64()
    );
    Ok(0)
}
