//! Reading a diagram from a file or stdin in any of its forms.

use std::io::Read as _;
use std::path::Path;

use anyhow::{Context, Result};
use c4lab_steady::{read_any, Diagram, Read};

/// A diagram as read, with the form it came in.
pub struct Input {
    pub diagram: Diagram,
    /// "level grid", "42 cells on one line", "old seven-marker grid", "upstream JSON",
    /// "share link".
    pub form: &'static str,
    /// Yellow moves carried by a share link.
    pub line: Vec<u8>,
    /// Where it came from: the file, or "standard input" (to name it in messages).
    pub name: String,
}

/// Reads the whole of `path` (`-` or absent for stdin).
pub fn read_text(path: Option<&Path>) -> Result<String> {
    match path {
        Some(p) if p != Path::new("-") => {
            std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))
        }
        _ => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .context("cannot read standard input")?;
            Ok(s)
        }
    }
}

/// Reads a diagram: a level grid, an old grid, upstream JSON, or a share link (one line;
/// see [`c4lab_steady::read_any`]).
pub fn read_diagram(path: Option<&Path>) -> Result<Input> {
    let text = read_text(path)?;
    let name = match path {
        Some(p) if p != Path::new("-") => p.display().to_string(),
        _ => "standard input".to_string(),
    };
    let read = read_any(&text).with_context(|| name.clone())?;
    let form = read.form();
    Ok(match read {
        Read::Link(shared) => Input {
            diagram: shared.diagram,
            form,
            line: shared.line,
            name,
        },
        Read::Grid(parsed) | Read::Line(parsed) => Input {
            diagram: parsed.diagram,
            form,
            line: vec![],
            name,
        },
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

/// Writes `diagram` as a level grid to `dir/name` (creating `dir`) and says so, for the
/// benchmarks' `--write-grids`: each task becomes a file `c4lab` commands read back.
pub fn write_grid(dir: &Path, name: &str, diagram: &Diagram) -> Result<()> {
    check_grid_dir(dir)?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let path = dir.join(name);
    std::fs::write(&path, diagram.to_grid())
        .with_context(|| format!("cannot write {}", path.display()))?;
    outln!("wrote {}", path.display());
    Ok(())
}
