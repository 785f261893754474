//! JSON-lines logs a long search writes beside its result (`dsat --log-rounds`,
//! `complete --log-candidates`): refused where they would overwrite the input, the
//! result or a file that is no log, or open a named pipe; flushed line by line, and a
//! write that fails is said after the verdict.

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
    // a named pipe blocks the open until a reader comes, and neither a stop signal nor
    // --max-seconds could end that wait (only SIGKILL did)
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if std::fs::metadata(log).is_ok_and(|m| m.file_type().is_fifo()) {
            bail!(
                "{flag} {} is a named pipe: opening it waits for a reader, which no stop can end; name a regular file for the {what}",
                log.display()
            );
        }
    }
    // a file that holds something other than a log is not emptied for one (a model
    // named by mistake was)
    // (only a regular file is opened here: opening a device or a pipe to read could wait)
    let opened = if log.is_file() {
        File::open(log).ok()
    } else {
        None
    };
    if let Some(mut f) = opened {
        let mut head = [0u8; 256];
        let n = std::io::Read::read(&mut f, &mut head).unwrap_or(0);
        let first = head[..n].iter().find(|b| !b.is_ascii_whitespace());
        if first.is_some_and(|&b| b != b'{') {
            bail!(
                "{flag} {} already holds a file that is no JSON-lines log; remove it, or name another file for the {what}",
                log.display()
            );
        }
    }
    Ok(())
}

impl LineLog {
    /// Creates (or empties) the log at `path`.
    pub fn create(path: &Path, what: &'static str) -> Result<LineLog> {
        let file = File::create(path).with_context(|| {
            crate::files::cannot_write(&format!("the {what} {}", path.display()), path)
        })?;
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
