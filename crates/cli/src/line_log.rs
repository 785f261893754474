//! JSON-lines logs a long search writes beside its result (`dsat --log-rounds`,
//! `complete --log-candidates`): refused where they would overwrite the input or the
//! result, flushed line by line, and a write that fails is said after the verdict.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{bail, Context, Result};

/// A log file of one JSON value a line.
pub struct LineLog {
    path: PathBuf,
    /// What the log holds ("round log"), for messages.
    what: &'static str,
    /// The file, and the first write error (reported at the end, not mid-search).
    out: Mutex<(BufWriter<File>, Option<std::io::Error>)>,
}

/// Refuses `log` (given with `flag`, a log of `what`) where it would take the place of
/// standard output, which carries the result, or of the diagram `input` being read
/// (a file, or standard input when `input` is None or `-`): checked before the input is
/// read, so nothing is emptied.
pub fn refuse_clash(flag: &str, what: &str, log: &Path, input: Option<&Path>) -> Result<()> {
    if log == Path::new("-") {
        bail!("{flag} -: standard output carries the result; name a file for the {what}");
    }
    if crate::files::is_stdout(log) {
        bail!(
            "{flag} {}: standard output goes there, and it carries the result; name another file for the {what}",
            log.display()
        );
    }
    if let Some(file) = input.filter(|f| *f != Path::new("-")) {
        if crate::files::same_file(file, log) {
            bail!(
                "{flag} {} is the diagram being solved; name another file for the {what}",
                log.display()
            );
        }
    }
    // (`< root.txt` with `--log-rounds root.txt` emptied the diagram's file)
    let from_stdin = input.is_none_or(|f| f == Path::new("-"));
    if from_stdin && crate::files::is_stdin(log) {
        bail!(
            "{flag} {} is standard input, which holds the diagram being solved; name another file for the {what}",
            log.display()
        );
    }
    Ok(())
}

impl LineLog {
    /// Creates (or empties) the log at `path`.
    pub fn create(path: &Path, what: &'static str) -> Result<LineLog> {
        let file = File::create(path)
            .with_context(|| format!("cannot write the {what} {}", path.display()))?;
        Ok(LineLog {
            path: path.to_path_buf(),
            what,
            out: Mutex::new((BufWriter::new(file), None)),
        })
    }

    /// Writes `line` and flushes it, so a run killed mid-search leaves its lines so far.
    pub fn write(&self, line: &serde_json::Value) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        if out.1.is_none() {
            if let Err(e) = writeln!(out.0, "{line}").and_then(|()| out.0.flush()) {
                out.1 = Some(e);
            }
        }
    }

    /// Ends the log: the first write that failed, if any.
    pub fn finish(self) -> Result<()> {
        let (mut out, error) = self.out.into_inner().unwrap_or_else(|e| e.into_inner());
        match error {
            Some(e) => Err(e),
            None => out.flush(),
        }
        .with_context(|| format!("cannot write the {} {}", self.what, self.path.display()))
    }
}

/// Says, after the verdict, that a log could not be written (the verdict stands).
pub fn warn_after_verdict(error: Option<anyhow::Error>) {
    if let Some(e) = error {
        sayln!("warning: {e:#}; the verdict stands, the log is incomplete");
    }
}
