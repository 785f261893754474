//! Output files: whether two paths name one file, and writing a result so that an
//! interrupted write never leaves a broken file where a good one was.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

use anyhow::{bail, Context, Result};

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
    let by_name = match (resolve(a), resolve(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    };
    by_name || hard_linked(a, b)
}

/// Whether `a` and `b` are one regular file under two names (a hard link).
#[cfg(unix)]
fn hard_linked(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.is_file() && (x.dev(), x.ino()) == (y.dev(), y.ino()),
        _ => false,
    }
}

/// Whether `a` and `b` are one file under two names (not told apart off Unix).
#[cfg(not(unix))]
fn hard_linked(_a: &Path, _b: &Path) -> bool {
    false
}

/// Whether `path` names the file standard output goes to (the terminal, a file it is
/// redirected to, `/dev/stdout`), so that writing there would mix with the result. The
/// null device does not count (nothing mixes there). Compares the files' identities
/// without opening `path`, which for a FIFO would wait for a writer.
#[cfg(unix)]
pub fn is_stdout(path: &Path) -> bool {
    use std::os::fd::AsFd;
    is_stream(path, std::io::stdout().as_fd())
}

/// Whether `path` names the file standard input comes from (`/dev/stdin`, the file it
/// is redirected from), so that reading it would take the input meant for later; the
/// null device does not count.
#[cfg(unix)]
pub fn is_stdin(path: &Path) -> bool {
    use std::os::fd::AsFd;
    is_stream(path, std::io::stdin().as_fd())
}

/// Whether `path` is the file behind `stream`, the null device aside (see
/// [`is_stdout`]).
#[cfg(unix)]
fn is_stream(path: &Path, stream: std::os::fd::BorrowedFd<'_>) -> bool {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    let Ok(fd) = stream.try_clone_to_owned() else {
        return false;
    };
    let (Ok(out), Ok(named)) = (File::from(fd).metadata(), std::fs::metadata(path)) else {
        return false;
    };
    let null = named.file_type().is_char_device()
        && std::fs::metadata("/dev/null").is_ok_and(|n| n.rdev() == named.rdev());
    (out.dev(), out.ino()) == (named.dev(), named.ino()) && !null
}

/// Whether `path` names the file standard output goes to (not checked off Unix).
#[cfg(not(unix))]
pub fn is_stdout(_path: &Path) -> bool {
    false
}

/// Whether `path` names the file standard input comes from (not checked off Unix).
#[cfg(not(unix))]
pub fn is_stdin(_path: &Path) -> bool {
    false
}

/// "cannot write SHOWN", and where `target`'s folder is not there, that it is not and
/// the fix (a bare "No such file or directory" named neither).
pub fn cannot_write(shown: &dyn std::fmt::Display, target: &Path) -> String {
    let folder = target.parent().filter(|p| !p.as_os_str().is_empty());
    match folder.filter(|p| !p.exists()) {
        Some(p) => format!(
            "cannot write {shown}: its folder {} does not exist; create it first",
            p.display()
        ),
        None => format!("cannot write {shown}"),
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
        let target = link_target(path);
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
    /// Until the write ends, Ctrl-C (or SIGTERM, SIGHUP) removes the `.part` file before
    /// the program ends.
    pub fn create(&self) -> Result<File> {
        let opened = match &self.part {
            Some(part) => {
                handle_interrupt();
                // a FIFO left under the part file's name would block the create, and with
                // it the signal handler, which waits for the lock held here
                if std::fs::symlink_metadata(part).is_ok_and(|m| !m.is_file()) {
                    anyhow::bail!(
                        "cannot write {}: {} exists and is no regular file; remove it",
                        self.shown.display(),
                        part.display()
                    );
                }
                let mut parts = parts();
                let created = open_part(part, &self.shown)?;
                if created.is_ok() && !parts.contains(part) {
                    parts.push(part.clone());
                }
                created
            }
            None => std::fs::OpenOptions::new().write(true).open(&self.target),
        };
        opened.with_context(|| cannot_write(&self.shown.display(), &self.target))
    }

    /// Ends a write begun with [`Output::create`]: flushes the file and renames it into
    /// place (a failed write removes the `.part` file and leaves the old file as it was).
    pub fn finish(&self, mut file: File, bytes: &[u8]) -> Result<()> {
        let written = file.write_all(bytes).and_then(|_| match &self.part {
            Some(_) => file.sync_all(),
            None => file.flush(),
        });
        let written = match &self.part {
            Some(part) => {
                // renamed under the lock, so a stopping signal removes the part file or
                // finds it renamed, never a rename on the way
                let mut parts = parts();
                let renamed = written.and_then(|_| std::fs::rename(part, &self.target));
                if renamed.is_err() {
                    let _ = std::fs::remove_file(part);
                }
                parts.retain(|p| p != part);
                renamed
            }
            None => written,
        };
        written.with_context(|| format!("cannot write {}", self.shown.display()))
    }

    /// Writes `bytes` as a whole ([`Output::create`], then [`Output::finish`]).
    pub fn write(&self, bytes: &[u8]) -> Result<()> {
        let file = self.create()?;
        self.finish(file, bytes)
    }

    /// Opens the file now ([`Output::create`]) and holds it for a long run that writes
    /// it at the end: a second run writing the same file is refused from the start, not
    /// only while the bytes go out. Dropped unfinished, the `.part` file is removed.
    pub fn hold(self) -> Result<HeldOutput> {
        let file = self.create()?;
        Ok(HeldOutput {
            output: self,
            file: Some(file),
        })
    }
}

/// An [`Output`] opened and held from the start of a run (see [`Output::hold`]).
pub struct HeldOutput {
    output: Output,
    /// The open file; None once finished.
    file: Option<File>,
}

impl HeldOutput {
    /// Writes `bytes` and renames the file into place (see [`Output::finish`]). Where
    /// the `.part` file is no longer the one held (removed or replaced during the run),
    /// the bytes go through a fresh one, and whatever took its name is not renamed.
    pub fn finish(mut self, bytes: &[u8]) -> Result<()> {
        self.write_held(bytes)
    }

    /// Writes `bytes` into place as [`HeldOutput::finish`] does, then holds a fresh
    /// `.part` file for the next write: a file written many times in one run (a
    /// checkpoint) stays held between its writes, so a second run naming it is refused
    /// from the start, not left to overwrite it.
    pub fn write_and_hold(&mut self, bytes: &[u8]) -> Result<()> {
        self.write_held(bytes)?;
        self.file = Some(self.output.create()?);
        Ok(())
    }

    /// [`HeldOutput::finish`]'s write, leaving nothing held.
    fn write_held(&mut self, bytes: &[u8]) -> Result<()> {
        let file = self.file.take().expect("held until finished");
        match &self.output.part {
            Some(part) if !same_inode(&file, part) => {
                drop(file);
                self.output.write(bytes)
            }
            _ => self.output.finish(file, bytes),
        }
    }
}

impl Drop for HeldOutput {
    /// A run that failed before its write removes the `.part` file, still holding it
    /// (closed first, another run could take it in between and lose it), unless its
    /// name now holds another file.
    fn drop(&mut self) {
        if let (Some(file), Some(part)) = (self.file.take(), &self.output.part) {
            let mut parts = parts();
            if same_inode(&file, part) {
                let _ = std::fs::remove_file(part);
            }
            parts.retain(|p| p != part);
            drop(file);
        }
    }
}

/// Opens `part` for writing, emptied, and holds a lock on it until it is closed (renamed
/// into place or removed): a second run writing the same file is refused rather than
/// writing into the first one's `.part` file (or removing it on Ctrl-C). The outer error
/// is that refusal; the inner one, the system's.
fn open_part(part: &Path, shown: &Path) -> Result<std::io::Result<File>> {
    loop {
        let file = match std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(part)
        {
            Ok(f) => f,
            Err(e) => return Ok(Err(e)),
        };
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => bail!(
                "cannot write {}: another run is writing it ({} is held): wait for that run to end, or name another file",
                shown.display(),
                part.display()
            ),
            // a file system without locks: written as before
            Err(std::fs::TryLockError::Error(_)) => {}
        }
        // the file held must still be the one under the part name (a run that ended
        // between the open and the lock renamed it into place): else open afresh
        if same_inode(&file, part) {
            return Ok(file.set_len(0).map(|_| file));
        }
    }
}

/// Whether `file` is the file at `path` now.
#[cfg(unix)]
fn same_inode(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    }
}

/// Whether `file` is the file at `path` now (not told apart off Unix).
#[cfg(not(unix))]
fn same_inode(_file: &File, _path: &Path) -> bool {
    true
}

/// The `.part` files being written, removed by a stopping signal. Creating or renaming
/// one holds the lock, which the signal handler takes for good, so it sees every file
/// and races no rename.
static PARTS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn parts() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    // a poisoned lock still holds the list
    PARTS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Libraries' own removers of the `.part` files they write (the corpus writers'), run
/// by a stopping signal too.
static REMOVERS: Mutex<Vec<fn()>> = Mutex::new(Vec::new());

/// Installs, once, the handler that, on Ctrl-C (SIGINT), SIGTERM (`kill`, a job
/// scheduler's time limit) or SIGHUP (a closed terminal), removes every `.part` file
/// being written and then ends the program by that signal, as it would have without the
/// handler (a shell loop stops on it). Commands that stop on Ctrl-C themselves
/// (`complete`, `dsat`) write no `.part` file and never install it.
fn handle_interrupt() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        #[cfg(unix)]
        {
            let Ok(mut signals) = signal_hook::iterator::Signals::new(stopping_signals()) else {
                return;
            };
            let _ = std::thread::Builder::new()
                .name("signals".into())
                .spawn(move || {
                    if let Some(signal) = signals.forever().next() {
                        remove_parts();
                        // the default action of these three ends the process by the signal
                        let _ = signal_hook::low_level::emulate_default_handler(signal);
                        std::process::exit(128 + signal);
                    }
                });
        }
        #[cfg(not(unix))]
        let _ = ctrlc::set_handler(|| {
            remove_parts();
            std::process::exit(130)
        });
    });
}

/// The stopping signals (SIGINT, SIGTERM, SIGHUP) this process was not started
/// ignoring: one started under `nohup` ignores SIGHUP, and a script's background job
/// SIGINT, and a handler must not undo that (a closed terminal ended a `nohup` run once
/// it wrote its first file).
#[cfg(unix)]
pub fn stopping_signals() -> Vec<i32> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let ignored = |signal: i32| {
        // SAFETY: with no new action given, sigaction only writes the current one into
        // `old`, a zeroed struct of the right type
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            libc::sigaction(signal, std::ptr::null(), &mut old) == 0
                && old.sa_sigaction == libc::SIG_IGN
        }
    };
    [SIGINT, SIGTERM, SIGHUP]
        .into_iter()
        .filter(|&s| !ignored(s))
        .collect()
}

/// Removes the `.part` files being written, and holds the lock for good: no writer
/// creates or renames a part file from here on.
fn remove_parts() {
    let list = parts();
    for p in list.iter() {
        let _ = std::fs::remove_file(p);
    }
    for remove in REMOVERS.lock().unwrap_or_else(|e| e.into_inner()).iter() {
        remove();
    }
    std::mem::forget(list);
}

/// Has a stopping signal (see `handle_interrupt`) run `remove` as well: a library's
/// remover of the `.part` files it is writing, or another cleanup before the program
/// ends (the ticker's line erased).
pub fn remove_on_interrupt(remove: fn()) {
    handle_interrupt();
    let mut removers = REMOVERS.lock().unwrap_or_else(|e| e.into_inner());
    // twice would take the library's lock twice, and the second would wait for ever
    if !removers.contains(&remove) {
        removers.push(remove);
    }
}

/// Checks that `path` (named `what`) can be written, leaving any file there untouched
/// and none behind where there was none; a file already there must be empty or start
/// with `kind`'s magic (a model is written over a model, never over a corpus or a card).
pub fn writable(path: &Path, what: &str, kind: (&[u8], &str)) -> Result<()> {
    if path.is_dir() {
        bail!(
            "{what} {} is a folder; name a file to write",
            path.display()
        );
    }
    if path.metadata().is_ok_and(|m| m.is_file() && m.len() > 0) {
        use std::io::Read as _;
        let mut head = vec![0u8; kind.0.len()];
        let read = std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head));
        if read.is_err() || head != kind.0 {
            bail!(
                "{what} {} already holds a file that is no c4lab {}; name a new file, or remove that one first",
                path.display(),
                kind.1
            );
        }
    }
    // the file its links lead to is the one opening creates: a dangling symbolic link
    // stays (removing it would lose the link), and the empty file made through it goes
    // (it was left, so a refused second run put an empty "book" where there was none)
    let target = link_target(path);
    let existed = target.symlink_metadata().is_ok();
    let file = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .with_context(|| format!("{what}: {}", cannot_write(&path.display(), path)))?;
    // (only the file made here: one renamed into place meanwhile stays)
    if !existed && same_inode(&file, &target) {
        let _ = std::fs::remove_file(&target);
    }
    Ok(())
}

/// The file a chain of symbolic links at `path` ends at (`path` itself when it is no
/// link), whether or not that file exists yet: a link's relative target is read from
/// the link's folder.
fn link_target(path: &Path) -> PathBuf {
    let mut at = path.to_path_buf();
    // the system gives up on a chain of more than 40 links (a loop): then the named
    // path is the one written, as a shell redirection would fail on it
    for _ in 0..=40 {
        let Ok(next) = std::fs::read_link(&at) else {
            return at;
        };
        at = match at.parent() {
            Some(dir) if next.is_relative() => dir.join(next),
            _ => next,
        };
    }
    path.to_path_buf()
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
        std::fs::remove_dir_all(&dir).ok();
    }

    #[cfg(unix)]
    #[test]
    fn a_link_keeps_pointing_at_its_target_which_gets_the_bytes() {
        let dir = scratch("link");
        std::fs::create_dir_all(dir.join("real")).unwrap();
        // an absolute link to a file there, a relative one, and one to no file yet
        // and a link to a link (relative to its own folder)
        std::os::unix::fs::symlink("d.bin", dir.join("real/to-d.bin")).unwrap();
        let cases = [
            (dir.join("real/a.bin"), dir.join("real/a.bin"), true),
            (dir.join("real/b.bin"), PathBuf::from("real/b.bin"), true),
            (dir.join("real/c.bin"), PathBuf::from("real/c.bin"), false),
            (dir.join("real/d.bin"), PathBuf::from("real/to-d.bin"), true),
        ];
        for (i, (target, points_to, exists)) in cases.iter().enumerate() {
            if *exists {
                std::fs::write(target, b"old").unwrap();
            }
            let link = dir.join(format!("link{i}.bin"));
            std::os::unix::fs::symlink(points_to, &link).unwrap();
            Output::new(&link).write(b"new").unwrap();
            let kind = link.symlink_metadata().unwrap().file_type();
            assert!(kind.is_symlink(), "{}", link.display());
            assert_eq!(
                std::fs::read(target).unwrap(),
                b"new",
                "{}",
                target.display()
            );
        }
        // a loop of links: the named one is written, no other link in the loop
        let (x, y) = (dir.join("x.bin"), dir.join("y.bin"));
        std::os::unix::fs::symlink("y.bin", &x).unwrap();
        std::os::unix::fs::symlink("x.bin", &y).unwrap();
        assert_eq!(Output::new(&x).target, x);
        Output::new(&x).write(b"new").unwrap();
        assert!(x.symlink_metadata().unwrap().file_type().is_file());
        assert_eq!(std::fs::read(&x).unwrap(), b"new");
        assert!(y.symlink_metadata().unwrap().file_type().is_symlink());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[cfg(unix)]
    #[test]
    fn the_check_leaves_no_file_behind_a_link_to_none() {
        let dir = scratch("check");
        // a dangling link stays dangling: the empty file the check opened through it
        // was left, an empty "book" where there was none
        let link = dir.join("link.bin");
        std::os::unix::fs::symlink("none.bin", &link).unwrap();
        writable(&link, "--out", (b"MAGIC", "book")).unwrap();
        assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
        assert!(!dir.join("none.bin").exists());
        // and a plain path, as before
        writable(&dir.join("plain.bin"), "--out", (b"MAGIC", "book")).unwrap();
        assert!(!dir.join("plain.bin").exists());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[cfg(unix)]
    #[test]
    fn a_pipe_is_written_in_place() {
        use std::os::unix::fs::FileTypeExt;
        let dir = scratch("pipe");
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            sayln!("skipped: no mkfifo here");
            return;
        }
        // (checked first: a write renamed over the pipe would leave the reader waiting)
        let output = Output::new(&fifo);
        assert!(output.part.is_none(), "a pipe would be replaced");
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(fifo).unwrap())
        };
        output.write(b"bytes").unwrap();
        assert_eq!(reader.join().unwrap(), b"bytes");
        let kind = fifo.metadata().unwrap().file_type();
        assert!(kind.is_fifo(), "the pipe was replaced by a file");
        assert!(!dir.join("fifo.part").exists());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_full_device_is_an_error_and_stays_a_device() {
        let full = Path::new("/dev/full");
        if !full.exists() {
            sayln!("skipped: no /dev/full here");
            return;
        }
        let output = Output::new(full);
        // (checked first: a regression must not rename a file over the device)
        assert!(output.part.is_none(), "/dev/full would be replaced");
        let e = output.write(b"bytes").unwrap_err();
        assert!(format!("{e:#}").contains("cannot write /dev/full"), "{e:#}");
    }
}
