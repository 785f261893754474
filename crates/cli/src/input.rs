//! Reading a diagram from a file or stdin in any of its forms.

use std::io::Read as _;
use std::path::Path;

use anyhow::{bail, Context, Result};
use c4lab_board::Position;
use c4lab_steady::{read_any, Cell, Diagram, Read};

use crate::complete::counted;

/// A diagram as read, with the form it came in.
pub struct Input {
    pub diagram: Diagram,
    /// "level grid", "42 cells on one line", "old seven-marker grid", "upstream JSON",
    /// "share link", "root's moves".
    pub form: &'static str,
    /// Yellow moves carried by a share link.
    pub line: Vec<u8>,
    /// Where it came from: the file, or "standard input" (to name it in messages).
    pub name: String,
}

/// The most a diagram's file may hold: a diagram is under a kilobyte, with comments a
/// few (a stream without end, `/dev/zero`, was read until memory ran out).
const MAX_DIAGRAM_BYTES: u64 = 1 << 20;

/// Reads the whole of `path` (`-` or absent for stdin) as a diagram's text.
pub fn read_text(path: Option<&Path>) -> Result<String> {
    read_limited(path, MAX_DIAGRAM_BYTES, "a diagram")
}

/// Says `note` on standard error when standard input is a terminal (nothing piped in,
/// no file named): the command waits for typing, where it sat silent as if busy.
pub fn typing_note(note: &str) {
    use std::io::IsTerminal;
    if std::io::stdin().is_terminal() && std::io::stderr().is_terminal() {
        sayln!("{note}");
    }
}

/// Reads the whole of `path` (`-` or absent for stdin) as UTF-8 text of at most `limit`
/// bytes (`what` names what it should hold, for the message past the limit); a byte
/// that is not UTF-8 is named with its line and column.
pub fn read_limited(path: Option<&Path>, limit: u64, what: &str) -> Result<String> {
    let (name, source): (String, Box<dyn std::io::Read>) = match path {
        Some(p) if p != Path::new("-") => (
            p.display().to_string(),
            Box::new(
                std::fs::File::open(p).with_context(|| format!("cannot read {}", p.display()))?,
            ),
        ),
        _ => {
            typing_note(&format!(
                "reading {what} from the terminal: type it, then Ctrl-D (or name a file)"
            ));
            ("standard input".to_string(), Box::new(std::io::stdin()))
        }
    };
    let mut bytes = Vec::new();
    source
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {name}"))?;
    if bytes.len() as u64 > limit {
        let fix = if name == "standard input" {
            "give the right input"
        } else {
            "name the right file"
        };
        anyhow::bail!("{name} holds more than {limit} bytes, too much for {what}: {fix}");
    }
    if let Some(fix) = utf16_note(&bytes) {
        anyhow::bail!("cannot read {name}: {fix}");
    }
    // (a NUL read as one more cell: "row 4 has 8 cells")
    if let Some(at) = bytes.iter().position(|&b| b == 0) {
        let (line, byte) = line_and_byte(&bytes, at);
        anyhow::bail!("cannot read {name}: line {line}, byte {byte} is a NUL byte (0x00), which is no text; remove it, or name the right file");
    }
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let at = e.utf8_error().valid_up_to();
        let (line, byte) = line_and_byte(bytes, at);
        anyhow::anyhow!(
            "cannot read {name}: line {line}, byte {byte} (0x{:02X}) is not UTF-8 text; save it as UTF-8",
            bytes[at]
        )
    })
}

/// What to say of text that is UTF-16 (an editor's "Unicode" encoding): every line of it
/// would be named as not UTF-8 otherwise, or, without a byte-order mark, its NUL bytes
/// read as cells ("found 7 rows"). No c4lab text starts with a NUL byte, so an ASCII
/// character beside a NUL at the start is taken as UTF-16 without its mark.
pub fn utf16_note(head: &[u8]) -> Option<&'static str> {
    if head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]) {
        return Some(
            "it is UTF-16 text (it starts with UTF-16's byte-order mark); save it as UTF-8",
        );
    }
    // the first four characters (as many as there are), each an ASCII byte beside a
    // NUL on the same side: one NUL among digits (`9\09099`) is no such text
    let pairs: Vec<&[u8]> = head.chunks_exact(2).take(4).collect();
    let ascii = |b: u8| b != 0 && b.is_ascii();
    let little = pairs.iter().all(|p| ascii(p[0]) && p[1] == 0);
    let big = pairs.iter().all(|p| p[0] == 0 && ascii(p[1]));
    (!pairs.is_empty() && (little || big)).then_some(
        "it looks like UTF-16 text (a NUL byte beside each of its first characters); save it as UTF-8",
    )
}

/// Line and byte (each from 1) of byte `at` of `bytes`, lines ending at `\n`, `\r\n`
/// or a lone `\r`, as the readers take them.
fn line_and_byte(bytes: &[u8], at: usize) -> (usize, usize) {
    let ends =
        |i: usize| bytes[i] == b'\n' || (bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
    let line = (0..at).filter(|&i| ends(i)).count() + 1;
    let start = (0..at).rev().find(|&i| ends(i)).map_or(0, |i| i + 1);
    (line, at - start + 1)
}

/// Reads the whole of the file `path`, refusing one of more than `most` bytes unread
/// (`what` names the kind of c4lab file it should be, for the message): a device that
/// never ends, such as `/dev/zero`, was read until memory ran out. The caller names
/// the file (its context): an I/O error is returned as it is, a file past the size
/// says what it is not. A file that does not start with `magic` is read no further:
/// its first bytes are returned, for the caller's reader to refuse (`/dev/zero` was
/// read to the size limit, hundreds of megabytes, before it was).
pub fn read_bytes_limited(path: &Path, most: u64, what: &str, magic: &[u8]) -> Result<Vec<u8>> {
    use std::io::Read;
    let too_big = || {
        anyhow::anyhow!("not a c4lab {what}: larger than any {what} ({most} bytes at most); name the right file")
    };
    if std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() > most) {
        return Err(too_big());
    }
    let mut file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    (&mut file)
        .take(magic.len() as u64)
        .read_to_end(&mut bytes)?;
    if bytes != magic {
        return Ok(bytes);
    }
    file.take((most + 1).saturating_sub(bytes.len() as u64))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > most {
        return Err(too_big());
    }
    Ok(bytes)
}

/// The first characters of `text` with their percent escapes (`%2E`) decoded, enough to
/// tell a share link's version number and dot.
fn unescaped_head(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text.as_bytes();
    while out.len() < 8 {
        match rest {
            [b'%', hi, lo, tail @ ..] if hi.is_ascii_hexdigit() && lo.is_ascii_hexdigit() => {
                let hex = [*hi, *lo];
                let byte = u8::from_str_radix(std::str::from_utf8(&hex).unwrap_or("00"), 16);
                out.push(char::from(byte.unwrap_or(0)));
                rest = tail;
            }
            [b, tail @ ..] => {
                out.push(char::from(*b));
                rest = tail;
            }
            [] => break,
        }
    }
    out
}

/// Reads a diagram: a level grid, an old grid, upstream JSON, or a share link (one line;
/// see [`c4lab_steady::read_any`]). An argument that names no file may be the diagram
/// itself: a share link, or a root's moves (that root, every empty cell `?`).
pub fn read_diagram(path: Option<&Path>) -> Result<Input> {
    // (no file of the name, or a name too long for one: one that cannot be read is
    // named as that file)
    let missing = |p: &Path| {
        use std::io::ErrorKind::{InvalidFilename, NotFound};
        let error = p.symlink_metadata().err().map(|e| e.kind());
        matches!(error, Some(NotFound | InvalidFilename))
    };
    let argument = path.filter(|p| *p != Path::new("-") && missing(p));
    let argument = argument.and_then(Path::to_str).map(str::trim);
    if let Some(moves) = argument.filter(|a| !a.is_empty() && a.bytes().all(|b| b.is_ascii_digit()))
    {
        return root_of_moves(moves);
    }
    // moves written with something between them (`4 4 5 3`, `4,4,5,3`) or a slip
    // (`44a`): a name that starts with a digit and has no folder or extension, so it
    // is named as moves that do not read, and how to write them (it was "No such file
    // or directory"); `grid2` stays a missing file
    let moves_like = |a: &&str| {
        a.len() <= 100
            && a.starts_with(|c: char| c.is_ascii_digit())
            && !a.contains(['/', '\\', '.', '#', '%'])
    };
    if let Some(moves) = argument.filter(moves_like) {
        return root_of_moves(moves);
    }
    // a link's form: a fragment (`#1.`...), an address, or a version number and a dot
    // (percent-encoded too, as a browser may copy it: `%31%2E`...)
    let linkish = |a: &&str| {
        let head = unescaped_head(a);
        let after_digits = head.trim_start_matches(|c: char| c.is_ascii_digit());
        let version_dot = after_digits.len() < head.len() && after_digits.starts_with('.');
        head.starts_with('#') || a.contains("://") || version_dot
    };
    let (text, name, context) = match (argument.filter(linkish), path) {
        // (named by the link itself, which a replay command can pass on)
        (Some(link), _) => (
            link.to_string(),
            link.to_string(),
            format!("{link}: no file of that name, and as a share link"),
        ),
        (None, Some(p)) if p != Path::new("-") => {
            let name = p.display().to_string();
            (read_text(path)?, name.clone(), name)
        }
        (None, _) => (
            read_text(path)?,
            "standard input".into(),
            "standard input".into(),
        ),
    };
    let read = match read_any(&text) {
        Ok(read) => read,
        // a file of many diagrams (upstream's steady_states.txt): `pick` takes one out
        // (two that read at least: a text of paragraphs is no such file)
        Err(e) => match (argument.is_none(), many(&text)) {
            (true, (read, n)) if read > 1 => bail!(
                "{context}: {e}; `c4lab pick --steady-states {} N` prints its diagram N of {n} (`--list` names their roots)",
                path.map_or("-".into(), |p| p.display().to_string())
            ),
            _ => return Err(anyhow::Error::new(e).context(context)),
        },
    };
    let form = read.form();
    Ok(match read {
        Read::Link(shared) => {
            if shared.dropped > 0 {
                // (as the Lab says it when it opens such a link)
                let (kept, left) = (shared.line.len(), shared.dropped);
                if kept == 0 {
                    sayln!(
                        "note: {name}: the link's Yellow line ({}) was left out: Red's first move depends on a ? cell",
                        counted(left as u64, "move")
                    );
                } else {
                    let last = if left == 1 {
                        "move was".to_string()
                    } else {
                        format!("{left} moves were")
                    };
                    sayln!(
                        "note: {name}: the link's Yellow line stops after {}, where Red's move depends on a ? cell; its last {last} left out",
                        counted(kept as u64, "move")
                    );
                }
            }
            Input {
                diagram: shared.diagram,
                form,
                line: shared.line,
                name,
            }
        }
        Read::Grid(parsed) | Read::Line(parsed) => Input {
            diagram: parsed.diagram,
            form,
            line: vec![],
            name,
        },
    })
}

/// How many diagrams `text` holds read as a file of many (six rows each, blank lines
/// between): those that read, and all of them, as `pick` numbers them.
fn many(text: &str) -> (usize, usize) {
    let (read, not) = c4lab_steady::solution::parse_leaves(text);
    (read.len(), read.len() + not.len())
}

/// The root `moves` (named as a file argument, where no file has that name) with every
/// empty cell `?`: the question a search asks of the root itself, as the Lab's
/// Undecide all asks it.
fn root_of_moves(moves: &str) -> Result<Input> {
    let position = Position::from_moves(moves).with_context(|| {
        format!("{moves}: no file of that name, and not a root's moves (columns 1-7)")
    })?;
    sayln!("note: no file named {moves}: read as the root {moves} with every empty cell ?");
    Ok(Input {
        diagram: Diagram::from_root(&position, |_, _| Cell::Undecided),
        form: "root's moves",
        line: vec![],
        name: moves.to_string(),
    })
}

/// Refuses a `--write-grids` folder that is a file (before a benchmark reads its data).
pub fn check_grid_dir(dir: &Path) -> Result<()> {
    if dir.exists() && !dir.is_dir() {
        anyhow::bail!(
            "--write-grids {} is a file, not a folder: name a folder (it is created if missing)",
            dir.display()
        );
    }
    Ok(())
}

/// Refuses search settings typed beside `--write-grids`, which writes the tasks and
/// runs no search (the settings were ignored without a word).
pub fn refuse_search_settings(typed: &[String]) -> Result<()> {
    let (named, it) = match typed {
        [] => return Ok(()),
        [flag] => (format!("{flag} is a search setting"), "it"),
        [rest @ .., last] => (
            format!("{} and {last} are search settings", rest.join(", ")),
            "them",
        ),
    };
    anyhow::bail!(
        "{named}, and --write-grids only writes the tasks' grids: leave {it} out, and give {it} to the commands that solve the grids"
    )
}

/// Writes `diagram` as a level grid to `dir/name` (creating `dir`) and says so, for the
/// benchmarks' `--write-grids`: each task becomes a file `c4lab` commands read back.
pub fn write_grid(dir: &Path, name: &str, diagram: &Diagram) -> Result<()> {
    check_grid_dir(dir)?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let path = dir.join(name);
    // through a `.part` file: a full disk left an empty grid under the name
    crate::files::Output::new(&path).write(diagram.to_grid().as_bytes())?;
    outln!("wrote {}", path.display());
    Ok(())
}
