//! Output files written as `NAME.part` beside their name and renamed into place once
//! whole, so a run stopped midway leaves no file that reads as a finished one (a
//! transcript cut at a row's end passes every transcript rule). The binary's
//! `files::Output` does the same for its single files (and follows links, and writes
//! devices in place); a library crate cannot use it, and a dataset's files are plain.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::error::{io_err, CorpusError};

/// The temporary name `path` is written under.
pub(crate) fn part_of(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(".part");
    PathBuf::from(name)
}

/// The `.part` files created and not yet renamed into place.
static WRITING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The `.part` files this process is writing now, for a program that removes them when
/// it is stopped (the binary's Ctrl-C handler).
pub fn parts_being_written() -> Vec<PathBuf> {
    // a poisoned lock still holds the list
    WRITING.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

fn writing(part: &Path, yes: bool) {
    let mut list = WRITING.lock().unwrap_or_else(|e| e.into_inner());
    list.retain(|p| p != part);
    if yes {
        list.push(part.to_path_buf());
    }
}

/// Creates (truncates) `path`'s `.part` file.
pub(crate) fn create(path: &Path) -> std::io::Result<File> {
    let part = part_of(path);
    writing(&part, true);
    File::create(part)
}

/// Renames `path`'s whole `.part` file into place.
pub(crate) fn commit(path: &Path) -> std::io::Result<()> {
    let part = part_of(path);
    let renamed = std::fs::rename(&part, path);
    writing(&part, false);
    renamed
}

/// Writes `bytes` as `path`, through its `.part` file.
pub(crate) fn write(path: &Path, bytes: impl AsRef<[u8]>) -> Result<(), CorpusError> {
    let part = part_of(path);
    writing(&part, true);
    std::fs::write(&part, bytes)
        .and_then(|_| commit(path))
        .map_err(io_err(path))
}
