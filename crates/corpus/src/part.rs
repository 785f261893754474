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

/// The files of the wholes being written (see [`Whole`]): each with its id, and whether
/// one of its files was renamed into place yet.
static WHOLES: Mutex<Vec<(u64, Vec<PathBuf>, bool)>> = Mutex::new(Vec::new());
static NEXT_WHOLE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn wholes() -> std::sync::MutexGuard<'static, Vec<(u64, Vec<PathBuf>, bool)>> {
    WHOLES.lock().unwrap_or_else(|e| e.into_inner())
}

/// Files that make a whole only together (a dataset's training files, holdout, card and
/// checksums): once the first of them is renamed into place the files of an earlier run
/// under those names no longer make one either, so from then on a stop (and
/// [`Whole::end`] after a failure) removes every one of them, until the whole ends well.
/// Before that nothing is removed: an earlier run's files stay as they were.
pub(crate) struct Whole(u64);

impl Whole {
    /// Registers `paths` (their `.part` files are tracked as any are).
    pub(crate) fn new(paths: Vec<PathBuf>) -> Whole {
        let id = NEXT_WHOLE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        wholes().push((id, paths, false));
        Whole(id)
    }

    /// Ends the whole: finished (`ok`), its files stay; failed, the `.part` files of
    /// its files still being written are removed, and those of its files that exist
    /// too once one was replaced.
    pub(crate) fn end(self, ok: bool) {
        let mut writing = writing();
        let mut list = wholes();
        if let Some(i) = list.iter().position(|w| w.0 == self.0) {
            let (_, paths, armed) = list.remove(i);
            if !ok {
                for p in paths {
                    // (this run's own: created here and not yet renamed into place)
                    let part = part_of(&p);
                    if writing.contains(&part) {
                        let _ = std::fs::remove_file(&part);
                        writing.retain(|w| *w != part);
                    }
                    if armed {
                        let _ = std::fs::remove_file(p);
                    }
                }
            }
        }
        drop((list, writing));
        std::mem::forget(self);
    }
}

impl Drop for Whole {
    /// A whole dropped without [`Whole::end`] (a panic) is forgotten, its files kept.
    fn drop(&mut self) {
        wholes().retain(|w| w.0 != self.0);
    }
}

/// For a program about to end by a stop (the binary's Ctrl-C handler): removes the
/// `.part` files being written and the files of a whole one of whose files was already
/// replaced (see `Whole`), and keeps every writer in this process from creating or
/// renaming one from then on (each waits for the end).
pub fn remove_parts_being_written() {
    let list = writing();
    for p in list.iter() {
        let _ = std::fs::remove_file(p);
    }
    let wholes = wholes();
    for (_, paths, armed) in wholes.iter() {
        if *armed {
            for p in paths {
                let _ = std::fs::remove_file(p);
            }
        }
    }
    // held until the process ends
    std::mem::forget(list);
    std::mem::forget(wholes);
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
    if renamed.is_err() {
        // (left behind, it would read to the next run as another run's stray)
        let _ = std::fs::remove_file(&part);
    } else {
        // (under the lock a stop takes first: it sees the file renamed and its whole
        // armed together, or neither)
        for w in wholes()
            .iter_mut()
            .filter(|w| w.1.iter().any(|p| p == path))
        {
            w.2 = true;
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_whole_removes_its_files_only_once_one_was_replaced() {
        let dir = std::env::temp_dir().join(format!("c4lab-whole-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b) = (dir.join("a.txt"), dir.join("b.txt"));
        std::fs::write(&a, "an earlier run's").unwrap();
        std::fs::write(&b, "an earlier run's").unwrap();
        // nothing replaced yet: the earlier files stay, whatever the outcome
        Whole::new(vec![a.clone(), b.clone()]).end(false);
        assert!(a.exists() && b.exists());
        // one replaced: the earlier run's other file no longer makes a whole with it
        let whole = Whole::new(vec![a.clone(), b.clone()]);
        write(&a, "this run's").unwrap();
        whole.end(false);
        assert!(!a.exists() && !b.exists());
        // a whole that ends well keeps them
        let whole = Whole::new(vec![a.clone(), b.clone()]);
        write(&a, "this run's").unwrap();
        write(&b, "this run's").unwrap();
        whole.end(true);
        assert!(a.exists() && b.exists());
        // a failed whole leaves none of the `.part` files it was writing
        let whole = Whole::new(vec![a.clone(), b.clone()]);
        drop(create(&b).unwrap());
        whole.end(false);
        assert!(a.exists() && b.exists() && !part_of(&b).exists());
        assert!(!writing().contains(&part_of(&b)));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
