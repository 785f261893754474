//! Output files written as `NAME.part` beside their name and renamed into place once
//! whole, so a run stopped midway leaves no file that reads as a finished one (a
//! transcript cut at a row's end passes every transcript rule). The binary's
//! `files::Output` does the same for its single files (and follows links, and writes
//! devices in place); a library crate cannot use it, and a dataset's files are plain.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::error::{io_err, CorpusError};

/// The temporary name `path` is written under.
pub(crate) fn part_of(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(".part");
    PathBuf::from(name)
}

/// The `.part` files created and not yet renamed into place. Creating or renaming one
/// holds the lock, so a stop that takes it for good sees every file and races none.
static WRITING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn writing() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    // a poisoned lock still holds the list
    WRITING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Files already renamed into place that make a whole only with files still to come
/// (a dataset's training files before its holdout, card and checksums): a stop removes
/// them too, so that what it leaves does not read as a finished dataset.
static PROVISIONAL: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn provisional_list() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    PROVISIONAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// Marks `paths` (written or still to be written) as part of a whole not yet finished:
/// a stop before [`settled`] removes those that exist.
pub(crate) fn provisional(paths: &[PathBuf]) {
    provisional_list().extend(paths.iter().cloned());
}

/// The whole is finished: a stop no longer removes its files.
pub(crate) fn settled() {
    provisional_list().clear();
}

/// For a program about to end by a stop (the binary's Ctrl-C handler): removes the
/// `.part` files being written and the files of an unfinished whole (see
/// `provisional`), and keeps every writer in this process from creating or renaming
/// one from then on (each waits for the end).
pub fn remove_parts_being_written() {
    let list = writing();
    for p in list.iter() {
        let _ = std::fs::remove_file(p);
    }
    let whole = provisional_list();
    for p in whole.iter() {
        let _ = std::fs::remove_file(p);
    }
    // held until the process ends
    std::mem::forget(list);
    std::mem::forget(whole);
}

/// Creates (truncates) `path`'s `.part` file.
pub(crate) fn create(path: &Path) -> std::io::Result<File> {
    let part = part_of(path);
    // a FIFO left under the part file's name would block the create, and with it a
    // stop, which waits for the lock held here
    if std::fs::symlink_metadata(&part).is_ok_and(|m| !m.is_file()) {
        return Err(std::io::Error::other(format!(
            "{} exists and is no regular file; remove it",
            part.display()
        )));
    }
    let mut list = writing();
    let created = File::create(&part);
    if created.is_ok() && !list.contains(&part) {
        list.push(part);
    }
    created
}

/// Renames `path`'s whole `.part` file into place.
pub(crate) fn commit(path: &Path) -> std::io::Result<()> {
    let part = part_of(path);
    let mut list = writing();
    let renamed = std::fs::rename(&part, path);
    list.retain(|p| *p != part);
    renamed
}

/// Writes `bytes` as `path`, through its `.part` file.
pub(crate) fn write(path: &Path, bytes: impl AsRef<[u8]>) -> Result<(), CorpusError> {
    create(path)
        .and_then(|mut f| f.write_all(bytes.as_ref()))
        .and_then(|_| commit(path))
        .map_err(io_err(path))
}
