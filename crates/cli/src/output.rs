//! Standard output for the commands: a failed write named as one, and the exit status
//! when its reader goes away.

/// A failed write of a command's output (`out!`, `outln!`), named as one: a full disk
/// under `> file` otherwise read as a bare "No space left on device".
#[derive(Debug)]
pub struct StdoutError(pub std::io::Error);

impl std::fmt::Display for StdoutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot write standard output: {}", self.0)
    }
}

impl std::error::Error for StdoutError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

/// Standard output, locked, for commands that write line by line: a failed write
/// names standard output (as `out!` does) and keeps its kind, so a closed pipe still
/// ends the command quietly.
pub struct Stdout(std::io::StdoutLock<'static>);

/// Standard output, locked (see [`Stdout`]).
pub fn stdout() -> Stdout {
    Stdout(std::io::stdout().lock())
}

impl std::io::Write for Stdout {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.write(bytes).map_err(named_stdout)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush().map_err(named_stdout)
    }
}

fn named_stdout(e: std::io::Error) -> std::io::Error {
    std::io::Error::new(e.kind(), StdoutError(e))
}

/// The exit status when standard output's reader goes away: 128 + SIGPIPE (13), what a
/// shell reports for a program the signal stops.
pub const BROKEN_PIPE_EXIT: u8 = 141;
