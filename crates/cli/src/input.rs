//! Reading a diagram from a file or stdin in any of its forms.

use std::io::Read;
use std::path::Path;

use anyhow::{Context, Result};
use c4lab_steady::{link, Diagram, Language};

/// A diagram as read, with the form it came in.
pub struct Input {
    pub diagram: Diagram,
    /// "level grid", "old seven-marker grid", "upstream JSON", "share link".
    pub form: &'static str,
    /// Yellow moves carried by a share link.
    pub line: Vec<u8>,
    /// Where it came from: the file, or "standard input" (to name it in messages).
    pub name: String,
}

/// Reads the whole of `path` (`-` or absent for stdin), without a leading byte-order
/// mark (editors on Windows write one; it is no part of any input form).
pub fn read_text(path: Option<&Path>) -> Result<String> {
    let text = match path {
        Some(p) if p != Path::new("-") => {
            std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?
        }
        _ => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .context("cannot read standard input")?;
            s
        }
    };
    Ok(without_bom(text))
}

/// `text` without a leading byte-order mark (editors on Windows write one).
pub fn without_bom(text: String) -> String {
    match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    }
}

/// Reads a diagram: a level grid, an old grid, upstream JSON, or a share link (one line).
pub fn read_diagram(path: Option<&Path>) -> Result<Input> {
    let text = read_text(path)?;
    let name = match path {
        Some(p) if p != Path::new("-") => p.display().to_string(),
        _ => "standard input".to_string(),
    };
    let trimmed = text.trim();
    // a link starts with its version number and a dot, or is an address with a `#`
    let version_dot = trimmed
        .find(|c: char| !c.is_ascii_digit())
        .is_some_and(|i| i > 0 && trimmed[i..].starts_with('.'));
    if !trimmed.contains('\n') && (version_dot || trimmed.contains('#')) {
        // copied from an address bar, a link may be percent-encoded (`%3F` for `?`)
        let decoded = percent_encoding::percent_decode_str(trimmed).decode_utf8_lossy();
        let shared = link::decode(&decoded).with_context(|| format!("{name}: not a share link"))?;
        return Ok(Input {
            diagram: shared.diagram,
            form: "share link",
            line: shared.line,
            name,
        });
    }
    let parsed = Diagram::parse(&text).with_context(|| format!("{name}: not a diagram"))?;
    let form = match (parsed.json, parsed.language) {
        (true, _) => "upstream JSON",
        (false, Language::Levels) => "level grid",
        (false, Language::Legacy) => "old seven-marker grid",
    };
    let form = if parsed.json && parsed.language == Language::Legacy {
        "upstream JSON (old seven-marker)"
    } else {
        form
    };
    Ok(Input {
        diagram: parsed.diagram,
        form,
        line: vec![],
        name,
    })
}

/// Writes `diagram` as a level grid to `dir/name` (creating `dir`) and says so, for the
/// benchmarks' `--write-grids`: each task becomes a file `c4lab` commands read back.
pub fn write_grid(dir: &Path, name: &str, diagram: &Diagram) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let path = dir.join(name);
    std::fs::write(&path, diagram.to_grid())
        .with_context(|| format!("cannot write {}", path.display()))?;
    outln!("wrote {}", path.display());
    Ok(())
}
