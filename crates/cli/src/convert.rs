//! `c4lab convert`.

use std::path::Path;

use anyhow::{anyhow, Context, Result};
use c4lab_steady::{link, play};
use clap::ValueEnum;

use crate::input::read_diagram;

/// An output form for a diagram.
#[derive(Clone, Copy, ValueEnum)]
pub enum Form {
    /// Six rows of the level language.
    Grid,
    /// Upstream's JSON: an array of six strings.
    Json,
    /// The old seven-marker language (levels 0-5 and 9 only).
    Old,
    /// A share-link fragment (`1.<root>.<cells>`, then `.<Yellow line>` when it has one).
    Link,
}

/// `c4lab convert`: prints the diagram in another form (its mirror image with `mirror`);
/// says on stderr what was read.
pub fn convert(file: Option<&Path>, to: Form, mirror: bool) -> Result<u8> {
    let mut input = read_diagram(file)?;
    // (the note on a line not kept names the line as given)
    let given_line = input.line.clone();
    let mut parted = None;
    // what the input cannot be written as is said of the input's own cells: the mirror
    // image would name column 8 - c for a stone or level in column c
    let root = input.diagram.root().err();
    if mirror {
        match to {
            Form::Old => {
                input
                    .diagram
                    .to_legacy()
                    .map_err(|e| anyhow!("{}: cannot write the old language: {e}", input.name))?;
            }
            Form::Link => {
                link::encode(&input.diagram, &[]).with_context(|| input.name.clone())?;
            }
            Form::Grid | Form::Json => {}
        }
        // Red takes the leftmost of two columns to win or block in, so the mirrored
        // game may part from the mirror image of the game: the line is cut there (only a
        // link keeps a line)
        if !input.line.is_empty() && matches!(to, Form::Link) {
            let m = play::mirror_line(&input.diagram, &input.line)
                .with_context(|| format!("{}: the link's Yellow line", input.name))?;
            input.line = m.line;
            parted = m.parted;
        }
        input.diagram = input.diagram.mirror();
    }
    let d = &input.diagram;
    let out = match to {
        Form::Grid => d.to_grid(),
        Form::Json => d.to_json() + "\n",
        Form::Old => d
            .to_legacy()
            .map_err(|e| anyhow!("{}: cannot write the old language: {e}", input.name))?,
        Form::Link => link::encode(d, &input.line).with_context(|| input.name.clone())? + "\n",
    };
    sayln!("read: {}", input.form);
    if let (Some(p), Form::Link) = (parted, to) {
        let column =
            |c: Option<usize>| c.map_or("none".to_string(), |c| format!("column {}", c + 1));
        let which = match p.answer {
            0 => "Red's first move".to_string(),
            k => format!("Red's answer to Yellow's move {k}"),
        };
        sayln!(
            "note: the mirrored Yellow line keeps {} of its {} move{} ({}): in the mirror image {which} is {}, not {} (with two columns to win or block in, Red takes the leftmost)",
            p.answer,
            given_line.len(),
            if given_line.len() == 1 { "" } else { "s" },
            if input.line.is_empty() { "none".to_string() } else { c4lab_board::format_moves(&input.line) },
            column(p.mirrored),
            column(p.expected)
        );
    }
    // a link refuses such a grid (above); the text forms copy it faithfully, but say so
    if let (Some(e), false) = (root, matches!(to, Form::Link)) {
        let cells = if mirror {
            "columns as in the input; "
        } else {
            ""
        };
        sayln!(
            "note: written as given, but it is no diagram Red can play from: {e} ({cells}`c4lab verify` says bad-root)"
        );
    }
    if !given_line.is_empty() && !matches!(to, Form::Link) {
        sayln!(
            "note: the link's Yellow line ({}) is not kept: only a share link holds one (--to link)",
            c4lab_board::format_moves(&given_line)
        );
    }
    out!("{out}");
    Ok(0)
}
