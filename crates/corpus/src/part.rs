//! Output files written as `NAME.part` beside their name and renamed into place once
//! whole, so a run stopped midway leaves no file that reads as a finished one (a
//! transcript cut at a row's end passes every transcript rule). The binary's
//! `files::Output` does the same for its single files (and follows links, and writes
//! devices in place); a library crate cannot use it, and a dataset's files are plain.

use std::fs::File;
use std::path::{Path, PathBuf};

use crate::error::{io_err, CorpusError};

/// The temporary name `path` is written under.
pub(crate) fn part_of(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(".part");
    PathBuf::from(name)
}

/// Creates (truncates) `path`'s `.part` file.
pub(crate) fn create(path: &Path) -> std::io::Result<File> {
    File::create(part_of(path))
}

/// Renames `path`'s whole `.part` file into place.
pub(crate) fn commit(path: &Path) -> std::io::Result<()> {
    std::fs::rename(part_of(path), path)
}

/// Writes `bytes` as `path`, through its `.part` file.
pub(crate) fn write(path: &Path, bytes: impl AsRef<[u8]>) -> Result<(), CorpusError> {
    std::fs::write(part_of(path), bytes)
        .and_then(|_| commit(path))
        .map_err(io_err(path))
}
