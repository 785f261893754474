//! Where the corpus commands read and write: a corpus file (not a folder), the sidecar
//! beside it, and an output folder (not a file, not a finished dataset, not one another
//! run is writing).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

/// The sidecar of `corpus`: `given`, or perply_targets.npz beside it. The corpus is
/// checked first, so a wrong corpus path is named as such rather than as a missing
/// sidecar.
pub(crate) fn beside(corpus: &Path, given: Option<PathBuf>) -> Result<PathBuf> {
    corpus_file(corpus)?;
    Ok(given.unwrap_or_else(|| corpus.with_file_name("perply_targets.npz")))
}

/// The sidecar beside `corpus` (perply_targets.npz in its folder), if one is there: the
/// default of `train` and `eval` where none is named. The corpus is checked first, as
/// [`beside`] checks it.
pub(crate) fn sidecar_beside(corpus: &Path) -> Result<Option<PathBuf>> {
    corpus_file(corpus)?;
    let sidecar = corpus.with_file_name("perply_targets.npz");
    Ok(sidecar.is_file().then_some(sidecar))
}

/// Refuses a corpus path that is a folder (naming the corpus files in it) or cannot be
/// read, so it is not met as "Is a directory (os error 21)" further on.
pub(crate) fn corpus_file(corpus: &Path) -> Result<()> {
    match std::fs::metadata(corpus) {
        Ok(m) if m.is_dir() => {
            // name the corpus files that are there: `generate` writes train/corpus_<N>.txt
            // and holdout/corpus.txt, `label` and `split` corpus.txt
            let mut found: Vec<String> = ["", "train", "holdout"]
                .iter()
                .flat_map(|sub| std::fs::read_dir(corpus.join(sub)).into_iter().flatten())
                .filter_map(|e| {
                    let path = e.ok()?.path();
                    let name = path.file_name()?.to_str()?;
                    let is_corpus = name == "corpus.txt"
                        || name.starts_with("corpus_") && name.ends_with(".txt");
                    is_corpus.then(|| path.display().to_string())
                })
                .collect();
            found.sort();
            let hint = if found.is_empty() {
                "no corpus file is in it".to_string()
            } else {
                format!("it holds {}", found.join(", "))
            };
            bail!(
                "{} is a folder; give a corpus file ({hint})",
                corpus.display()
            )
        }
        Ok(_) => Ok(()),
        Err(e) => bail!("cannot read corpus {}: {e}", corpus.display()),
    }
}

/// The sidecar of `corpus` as [`beside`] finds it, refusing a default one that is not
/// there with how to name it (`how`: the argument or flag that does).
pub(crate) fn sidecar(corpus: &Path, given: Option<PathBuf>, how: &str) -> Result<PathBuf> {
    let named = given.is_some();
    let npz = beside(corpus, given)?;
    if !named && !npz.exists() {
        bail!(
            "{} has no sidecar beside it ({} is not there); name its sidecar {how}",
            corpus.display(),
            npz.display()
        );
    }
    Ok(npz)
}

/// Refuses an `--out` that is there but is no folder (it read "File exists (os error
/// 17)" or "Not a directory"): `what` goes into a folder.
pub(crate) fn out_folder(out: &Path, what: &str) -> Result<()> {
    match std::fs::metadata(out) {
        Ok(m) if !m.is_dir() => bail!(
            "--out {} is a file, not a folder: the {what} is written into a folder; give a folder's name",
            out.display()
        ),
        // (a link to nowhere or round a loop: making the folder said "File exists")
        Err(_) if out.symlink_metadata().is_ok_and(|m| m.is_symlink()) => bail!(
            "--out {} is a link that leads to no folder (its target is missing, or the links go round in a loop): give a folder's name",
            out.display()
        ),
        _ => Ok(()),
    }
}

/// Refuses to `what` into a folder that is or lies inside a finished dataset (one with
/// SHA256SUMS beside its train/ folder, or beside its corpus.txt as a relabelled corpus
/// has): its files would change or be added to, and its checksums no longer match
/// (`verify-sums` walks its subfolders too).
pub(crate) fn refuse_finished(dir: &Path, what: &str) -> Result<()> {
    let sums = c4lab_corpus::sums::SUMS_FILE;
    let finished = |a: &Path| {
        a.join(sums).is_file() && (a.join("train").is_dir() || a.join("corpus.txt").is_file())
    };
    // the path as given, then with its links resolved (a link to a dataset's folder led
    // inside it unseen)
    let given = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    let found = [given.clone(), resolved(&given)]
        .into_iter()
        .find_map(|whole| {
            let dataset = whole.ancestors().find(|a| finished(a))?.to_path_buf();
            Some((whole, dataset))
        });
    if let Some((whole, dataset)) = found {
        let inside = if dataset == whole {
            String::new()
        } else {
            format!(" (inside {})", dataset.display())
        };
        bail!(
            "{}{inside} holds a finished dataset ({} is there), whose checksums would no longer match: {what} into a new folder",
            dir.display(),
            dataset.join(sums).display()
        );
    }
    Ok(())
}

/// `whole` (an absolute path) with the links in the part of it that exists resolved.
fn resolved(whole: &Path) -> PathBuf {
    let mut rest = Vec::new();
    let mut at = whole;
    loop {
        if let Ok(real) = at.canonicalize() {
            return rest.iter().rev().fold(real, |p, name| p.join(name));
        }
        match (at.parent(), at.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                at = parent;
            }
            _ => return whole.to_path_buf(),
        }
    }
}

/// A run's hold on the folder it writes a dataset into: an advisory lock on the folder,
/// which the system releases when the run ends however it ends. A second run writing
/// the same folder at once is refused (its failure once removed the files the first had
/// just finished). A folder the hold made is removed again if it is left empty.
pub(crate) struct FolderHold {
    /// The open folder, locked (None where folders cannot be opened as files: Windows).
    _folder: Option<std::fs::File>,
    made: Option<PathBuf>,
}

/// Makes `out` (if needed) and holds it for this run, or names the run that does.
pub(crate) fn hold_folder(out: &Path) -> Result<FolderHold> {
    // made here only if this run's own create made it (of two runs that both found no
    // folder, the refused one removed the other's)
    let made = match std::fs::create_dir(out) {
        Ok(()) => Some(out.to_path_buf()),
        Err(_) => {
            std::fs::create_dir_all(out)
                .with_context(|| format!("cannot create {}", out.display()))?;
            None
        }
    };
    let mut hold = FolderHold {
        _folder: None,
        made,
    };
    let folder = match std::fs::File::open(out) {
        Ok(f) => f,
        Err(e) if cfg!(unix) => {
            return Err(e).with_context(|| format!("cannot open the folder {}", out.display()))
        }
        // (a folder opens as a file on Unix only): written as before, unheld
        Err(_) => return Ok(hold),
    };
    match folder.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            // (the folder is the other run's: it stays, empty or not)
            hold.made = None;
            bail!(
                "{} is being written by another run: wait for it to end, or write into another folder",
                out.display()
            );
        }
        // a file system without locks: written as before
        Err(std::fs::TryLockError::Error(_)) => {}
    }
    hold._folder = Some(folder);
    Ok(hold)
}

impl Drop for FolderHold {
    fn drop(&mut self) {
        if let Some(dir) = &self.made {
            // (fails, as it should, on a folder with anything in it)
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// Refuses `dir` while another run writes it, or the folder above it (a dataset's
/// `train/` while `generate` writes the dataset): its `.part` files are outputs in
/// progress, which `sums` named "left unfinished by a stopped run". The lock is only
/// tried (shared), never held.
pub(crate) fn refuse_written(dir: &Path) -> Result<()> {
    let whole = resolved(dir);
    for folder in [Some(whole.as_path()), whole.parent()]
        .into_iter()
        .flatten()
    {
        let Ok(f) = std::fs::File::open(folder) else {
            continue;
        };
        if let Err(std::fs::TryLockError::WouldBlock) = f.try_lock_shared() {
            bail!(
                "{} is being written by another run{}: wait for it to end, then run this again",
                dir.display(),
                if folder == whole {
                    String::new()
                } else {
                    format!(" (into {})", folder.display())
                }
            );
        }
    }
    Ok(())
}
