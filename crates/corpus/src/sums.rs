//! `SHA256SUMS`: one line `<hex>  <relative path>` per published file (the format
//! `sha256sum -c` accepts), sorted by path, and its verification without coreutils.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::error::{io_err, CorpusError};

/// The checksum file's name.
pub const SUMS_FILE: &str = "SHA256SUMS";

/// The SHA-256 of a file, as lowercase hex.
pub fn sha256_file(path: &Path) -> Result<String, CorpusError> {
    let mut f = File::open(path).map_err(io_err(path))?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f.read(&mut buf).map_err(io_err(path))?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(h.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// The most a checksum list is read: a line a file, and a dataset has tens of files.
const SUMS_MAX_BYTES: u64 = 16 << 20;

/// Reads a folder's `SHA256SUMS`, refusing one that is no regular file (a FIFO would
/// be waited on for ever, `/dev/zero` read until the memory ran out) or past
/// [`SUMS_MAX_BYTES`].
fn read_sums_file(dir: &Path, path: &Path) -> Result<String, CorpusError> {
    let meta = std::fs::metadata(path).map_err(io_err(path))?;
    if !meta.is_file() {
        return Err(CorpusError::Invalid(format!(
            "{} is no regular file (a folder, FIFO, socket or device), so it is not read: a checksum list is a text file; remove it and write one with `c4lab corpus sums {}`",
            path.display(),
            dir.display()
        )));
    }
    let mut bytes = Vec::new();
    (File::open(path).map_err(io_err(path))?)
        .take(SUMS_MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io_err(path))?;
    if bytes.len() as u64 > SUMS_MAX_BYTES {
        return Err(CorpusError::Invalid(format!(
            "{} is over {} MiB, more than any dataset's checksum list: check that it is one (a line `<sha256>  <file>` per file)",
            path.display(),
            SUMS_MAX_BYTES >> 20
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        CorpusError::Invalid(format!(
            "{} is not UTF-8 text (byte {}): a checksum list is a line `<sha256>  <file>` per file",
            path.display(),
            e.utf8_error().valid_up_to() + 1
        ))
    })
}

/// Every file (a symbolic link, FIFO or device too) under `dir` except `SHA256SUMS`
/// itself and `.part` files (outputs not yet whole, left by a stopped run), as sorted
/// `/`-separated paths.
pub fn published_files(dir: &Path) -> Result<Vec<String>, CorpusError> {
    files_under(dir, false)
}

/// The files under `dir` as [`published_files`] lists them, with the `.part` files too
/// when `parts`.
pub(crate) fn files_under(dir: &Path, parts: bool) -> Result<Vec<String>, CorpusError> {
    fn walk(
        root: &Path,
        dir: &Path,
        parts: bool,
        out: &mut Vec<String>,
    ) -> Result<(), CorpusError> {
        for e in std::fs::read_dir(dir).map_err(io_err(dir))? {
            let e = e.map_err(io_err(dir))?;
            let p = e.path();
            let ft = e.file_type().map_err(io_err(&p))?;
            if ft.is_dir() {
                walk(root, &p, parts, out)?;
            } else {
                // a link, a FIFO or a device is named too: `verify-sums` must not pass a
                // folder holding a file nobody checked (and `sums` refuses to list one)
                // a line per file: a name that is not UTF-8 or holds a line break
                // cannot be written so that `sha256sum -c` (or we) read it back
                let rel: Option<Vec<&str>> = p
                    .strip_prefix(root)
                    .expect("under the root")
                    .components()
                    .map(|c| c.as_os_str().to_str().filter(|s| !s.contains(['\n', '\r'])))
                    .collect();
                let Some(rel) = rel else {
                    return Err(CorpusError::Invalid(format!(
                        "{:?}: a file name that is not UTF-8 or holds a line break cannot be listed in {SUMS_FILE}; rename or remove it",
                        p
                    )));
                };
                let rel = rel.join("/");
                if rel != SUMS_FILE && (parts || !rel.ends_with(".part")) {
                    out.push(rel);
                }
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(dir, dir, parts, &mut out)?;
    out.sort();
    Ok(out)
}

/// Writes `dir/SHA256SUMS` over every published file; returns its lines.
pub fn write_sums(dir: &Path) -> Result<Vec<String>, CorpusError> {
    // a `.part` file is an output a stopped run left unfinished: listing the folder
    // without it would publish a dataset `verify-sums` then fails (its own stale
    // `SHA256SUMS.part` is written over below)
    let parts: Vec<String> = files_under(dir, true)?
        .into_iter()
        .filter(|f| f.ends_with(".part") && f != "SHA256SUMS.part")
        .collect();
    if let Some(first) = parts.first() {
        return Err(CorpusError::Invalid(format!(
            "{} is an output a stopped run left unfinished{}: rerun the command that writes it, or remove it, then run sums again",
            dir.join(first).display(),
            match parts.len() {
                1 => String::new(),
                n => format!(" ({} such files)", n),
            }
        )));
    }
    let files = published_files(dir)?;
    if files.is_empty() {
        // a checksum file that lists nothing would verify nothing
        return Err(CorpusError::Invalid(format!(
            "{} holds no files to list; run sums on the folder a corpus was written to",
            dir.display()
        )));
    }
    if let Some(link) = files
        .iter()
        .find(|rel| std::fs::symlink_metadata(dir.join(rel)).is_ok_and(|m| m.is_symlink()))
    {
        return Err(CorpusError::Invalid(format!(
            "{} is a symbolic link: a published folder holds its own files; copy the file in, or remove the link",
            dir.join(link).display()
        )));
    }
    // (reading a FIFO would wait for a writer for ever)
    if let Some(odd) = files
        .iter()
        .find(|rel| std::fs::metadata(dir.join(rel)).is_ok_and(|m| !m.is_file()))
    {
        return Err(CorpusError::Invalid(format!(
            "{} is no regular file (a FIFO, socket or device): a published folder holds files only; remove it",
            dir.join(odd).display()
        )));
    }
    let mut lines = Vec::new();
    for rel in files {
        lines.push(format!("{}  {rel}", sha256_file(&dir.join(&rel))?));
    }
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let path = dir.join(SUMS_FILE);
    crate::part::write(&path, text)?;
    Ok(lines)
}

/// The outcome of verifying `SHA256SUMS`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SumsReport {
    /// Files whose checksum matched.
    pub ok: Vec<String>,
    /// Files listed whose checksum differs, that cannot be read, or listed twice: (path,
    /// reason).
    pub failed: Vec<(String, String)>,
    /// Published files that the checksum file does not list.
    pub unlisted: Vec<String>,
    /// Lines that are not `<64 hex>  <path>`: (line number from 1, line).
    pub malformed: Vec<(usize, String)>,
}

impl SumsReport {
    /// True when every listed file matched and every file is listed.
    pub fn passed(&self) -> bool {
        self.failed.is_empty()
            && self.unlisted.is_empty()
            && self.malformed.is_empty()
            && !self.ok.is_empty()
    }
}

/// Verifies `dir/SHA256SUMS` (also accepts `sha256sum`'s binary marker `<hex> *<path>`).
pub fn verify_sums(dir: &Path) -> Result<SumsReport, CorpusError> {
    let path: PathBuf = dir.join(SUMS_FILE);
    if dir.is_file() {
        let name = dir.file_name().map(Path::new).unwrap_or(dir);
        let fix = if name == Path::new(SUMS_FILE) {
            "give the folder it is in".to_string()
        } else {
            format!("give the folder whose {SUMS_FILE} lists it")
        };
        return Err(CorpusError::Invalid(format!(
            "{} is a file, where a folder holding {SUMS_FILE} goes: {fix}",
            dir.display()
        )));
    }
    if dir.is_dir() && !path.exists() {
        // a dataset's train/ or holdout/ is checked from the dataset's folder (sums
        // written into the subfolder would fail the dataset's own check as unlisted)
        let above = (dir.ancestors().skip(1).take(3))
            .map(|a| {
                if a.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    a
                }
            })
            .find(|a| a.join(SUMS_FILE).is_file());
        let fix = match above {
            Some(a) => format!("{} holds one: give that folder", a.display()),
            None => format!(
                "give the folder a dataset was published in, or, for a folder you made yourself, write one with `c4lab corpus sums {}`",
                dir.display()
            ),
        };
        return Err(CorpusError::Invalid(format!(
            "{} has no {SUMS_FILE}: {fix}",
            dir.display()
        )));
    }
    let text = read_sums_file(dir, &path)?;
    let mut rep = SumsReport::default();
    let mut listed = Vec::new();
    let root = dir.canonicalize();
    // (`#` comment lines, as `sha256sum -c` skips them, and a byte-order mark an editor
    // saved)
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let parsed = line.split_once(' ').and_then(|(hex, rest)| {
            let rel = rest.strip_prefix(' ').or_else(|| rest.strip_prefix('*'))?;
            let ok = hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit());
            ok.then(|| (hex.to_ascii_lowercase(), rel.to_string()))
        });
        let Some((hex, rel)) = parsed else {
            rep.malformed.push((i + 1, line.to_string()));
            continue;
        };
        // `sha256sum` run on `find .` lists `./train/x`, and `train/../x` is `x`: the
        // name as the folder's walk spells it
        let mut parts: Vec<&str> = Vec::new();
        // a name that leaves the folder (absolute, or more `..` than folders) names no
        // file of it, whatever it leads to
        let mut leaves = rel.starts_with('/');
        for part in rel.split('/') {
            match part {
                "" | "." => {}
                ".." => leaves |= parts.pop().is_none(),
                p => parts.push(p),
            }
        }
        let name = parts.join("/");
        if name.is_empty() {
            // `<hex>  ` or `<hex>  ./`: no file named, the folder at most
            rep.malformed.push((i + 1, line.to_string()));
            continue;
        }
        // a checksum file from elsewhere may name files outside the dataset, by name or
        // through a link: they are no part of it, and reading them would pass a
        // dataset that lacks its own; a name that leaves the folder is outside whether
        // or not it resolves (it was said missing where nothing was there), and one
        // inside that does not resolve fails below
        let outside = leaves
            || match (&root, dir.join(&rel).canonicalize()) {
                (Ok(root), Ok(file)) => !file.starts_with(root),
                _ => false,
            };
        if outside {
            // a link in the folder is listed by its name: it fails here, and once
            if !leaves {
                listed.push((name, i + 1));
            }
            let why = format!("names a file outside {}", dir.display());
            rep.failed.push((rel, why));
            continue;
        }
        // a file listed twice is a list put together by hand or by appending: one of
        // its lines is stale even when both checksums match today
        if let Some(first) = listed.iter().position(|(n, _)| *n == name) {
            let why = format!("listed again (first on line {})", listed[first].1);
            rep.failed.push((rel, why));
            continue;
        }
        listed.push((name, i + 1));
        // a FIFO would be waited on for ever, a device read without end
        if let Some(m) = std::fs::metadata(dir.join(&rel))
            .ok()
            .filter(|m| !m.is_file())
        {
            let why = if m.is_dir() {
                "is a folder: a checksum names a file".to_string()
            } else {
                "is no regular file (a FIFO, socket or device), so it is not read".to_string()
            };
            rep.failed.push((rel, why));
            continue;
        }
        match sha256_file(&dir.join(&rel)) {
            Ok(h) if h == hex => rep.ok.push(rel),
            Ok(h) => rep
                .failed
                .push((rel, format!("checksum {h} differs from the listed {hex}"))),
            Err(e) => rep.failed.push((rel, e.to_string())),
        }
    }
    // a `.part` file is never listed: one left in a published folder is an output a
    // stopped run did not finish, and fails the folder as any file nobody listed does
    for f in files_under(dir, true)? {
        if !listed.iter().any(|(n, _)| *n == f) {
            rep.unlisted.push(f);
        }
    }
    Ok(rep)
}
