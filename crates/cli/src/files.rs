//! Output files: whether two paths name one file, and writing a result so that an
//! interrupted write never leaves a broken file where a good one was.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// Whether two paths name the same file (the one to write may not exist yet: its folder
/// is resolved instead).
pub fn same_file(a: &Path, b: &Path) -> bool {
    let resolve = |p: &Path| {
        std::fs::canonicalize(p).ok().or_else(|| {
            let name = p.file_name()?;
            let dir = p
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            Some(std::fs::canonicalize(dir).ok()?.join(name))
        })
    };
    match (resolve(a), resolve(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// A file to write: a regular file (or a new one) is written to `NAME.part` beside it
/// and renamed into place at the end; a symbolic link's target is the file replaced (the
/// link stays); a device or pipe (`/dev/null`) is written in place, as a shell
/// redirection would.
pub struct Output {
    /// The path as the user gave it, for messages.
    shown: PathBuf,
    /// Where the bytes end up: the path, or the file its links lead to.
    target: PathBuf,
    /// The temporary file beside `target` (none for a device or pipe).
    part: Option<PathBuf>,
}

impl Output {
    /// Where `path` is written (nothing is touched yet).
    pub fn new(path: &Path) -> Output {
        let target = match path.symlink_metadata() {
            Ok(m) if m.file_type().is_symlink() => {
                std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
            }
            _ => path.to_path_buf(),
        };
        let special = std::fs::metadata(&target).is_ok_and(|m| !m.is_file() && !m.is_dir());
        let part = (!special).then(|| {
            let mut name = target.clone().into_os_string();
            name.push(".part");
            PathBuf::from(name)
        });
        Output {
            shown: path.to_path_buf(),
            target,
            part,
        }
    }

    /// Opens the file the bytes go to first (the `.part` file, or the device itself).
    pub fn create(&self) -> Result<File> {
        let opened = match &self.part {
            Some(part) => File::create(part),
            None => std::fs::OpenOptions::new().write(true).open(&self.target),
        };
        opened.with_context(|| format!("cannot write {}", self.shown.display()))
    }

    /// Ends a write begun with [`Output::create`]: flushes the file and renames it into
    /// place (a failed write removes the `.part` file and leaves the old file as it was).
    pub fn finish(&self, mut file: File, bytes: &[u8]) -> Result<()> {
        let written = file.write_all(bytes).and_then(|_| match &self.part {
            Some(part) => file
                .sync_all()
                .and_then(|_| std::fs::rename(part, &self.target)),
            None => file.flush(),
        });
        if written.is_err() {
            if let Some(part) = &self.part {
                let _ = std::fs::remove_file(part);
            }
        }
        written.with_context(|| format!("cannot write {}", self.shown.display()))
    }

    /// Writes `bytes` as a whole ([`Output::create`], then [`Output::finish`]).
    pub fn write(&self, bytes: &[u8]) -> Result<()> {
        let file = self.create()?;
        self.finish(file, bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("c4lab-files-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_file_is_replaced_whole_and_no_part_file_stays() {
        let dir = scratch("plain");
        let path = dir.join("model.bin");
        std::fs::write(&path, b"old").unwrap();
        Output::new(&path).write(b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert!(!dir.join("model.bin.part").exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_keeps_pointing_at_its_target_which_gets_the_bytes() {
        let dir = scratch("link");
        let (target, link) = (dir.join("real.bin"), dir.join("link.bin"));
        std::fs::write(&target, b"old").unwrap();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        Output::new(&link).write(b"new").unwrap();
        assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_device_is_written_in_place_and_a_full_one_is_an_error() {
        use std::os::unix::fs::FileTypeExt;
        Output::new(Path::new("/dev/null")).write(b"bytes").unwrap();
        let kind = Path::new("/dev/null").metadata().unwrap().file_type();
        assert!(kind.is_char_device());
        if Path::new("/dev/full").exists() {
            let full = Output::new(Path::new("/dev/full")).write(b"bytes");
            assert!(full.is_err(), "{full:?}");
        }
    }
}
