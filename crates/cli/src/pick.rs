//! `c4lab pick`: one diagram out of a file of many (upstream's `steady_states.txt`), by
//! its number or its root, as a level grid the diagram commands read; or the list.

use std::path::Path;

use anyhow::{bail, Result};
use c4lab_board::{format_moves, Position};
use c4lab_steady::solution::{parse_leaves, Leaf};

/// What to pick.
pub enum Which {
    /// The diagram numbered so in the file, from 1.
    Number(usize),
    /// The diagram whose root is the position these moves reach.
    Root(String),
    /// Every diagram, a line each.
    List,
}

/// A root's moves as the list and the notes write them (`-` the empty board).
fn moves_of(leaf: &Leaf) -> String {
    match leaf.order.is_empty() {
        true => "-".into(),
        false => format_moves(&leaf.order),
    }
}

/// `c4lab pick`: prints the chosen diagram as a level grid (what was picked on
/// standard error), or with `Which::List` a line per diagram.
pub fn pick(file: &Path, which: Which) -> Result<u8> {
    // (`-`: standard input, as check-solution reads it)
    let text = if file == Path::new("-") {
        crate::input::read_limited(None, crate::bench::DATA_MAX_BYTES, "a file of diagrams")?
    } else {
        crate::bench::read_data(file, "--steady-states FILE")?
    };
    let (leaves, errors) = parse_leaves(&text);
    let name = file.display();
    let total = leaves.len() + errors.len();
    if total == 0 {
        bail!("{name} holds no diagram: it is six-row diagrams with a blank line between them, as upstream's steady_states.txt");
    }
    let leaf = match which {
        Which::List => {
            outln!("number\tline\tstones\troot");
            for l in &leaves {
                outln!(
                    "{}\t{}\t{}\t{}",
                    l.index,
                    l.line,
                    l.order.len(),
                    moves_of(l)
                );
            }
            if let Some(first) = errors.first() {
                sayln!(
                    "note: {name}: {} of its {total} diagrams could not be read and are not listed; the first: {first}",
                    errors.len()
                );
            }
            return Ok(0);
        }
        Which::Number(n) => match leaves.iter().find(|l| l.index == n) {
            Some(l) => l,
            None if n == 0 || n > total => {
                bail!("{name} holds {total} diagrams: pick one of 1-{total} (--list names them with their roots)")
            }
            None => {
                let prefix = format!("diagram {n} ");
                let e = errors.iter().find(|e| e.starts_with(&prefix));
                bail!("{name}: {}", e.map_or("cannot be read", String::as_str))
            }
        },
        Which::Root(moves) => {
            let trimmed = moves.trim();
            let want = Position::from_moves(if trimmed == "-" { "" } else { trimmed })
                .map_err(|e| anyhow::anyhow!("--root {moves}: {e}"))?;
            let same = |p: &Position, q: &Position| p.key() == q.key();
            let mut found = leaves.iter().filter(|l| same(&l.position, &want));
            match found.next() {
                Some(l) => {
                    let others: Vec<String> = found.map(|o| o.index.to_string()).collect();
                    if !others.is_empty() {
                        sayln!(
                            "note: {name}: diagrams {} have that root too; the first is printed",
                            others.join(", ")
                        );
                    }
                    l
                }
                None => {
                    let mirror = want.mirror();
                    let hint = match leaves.iter().find(|l| same(&l.position, &mirror)) {
                        Some(m) => format!(
                            "; diagram {} has its mirror image, {}",
                            m.index,
                            moves_of(m)
                        ),
                        None => String::new(),
                    };
                    bail!("no diagram of {name} has the root {moves}{hint} (--list names every diagram's root)")
                }
            }
        }
    };
    sayln!(
        "diagram {} of {total} (line {}): root {} ({} stones), read in the {} language",
        leaf.index,
        leaf.line,
        moves_of(leaf),
        leaf.order.len(),
        leaf.language.name()
    );
    out!("{}", leaf.diagram.to_grid());
    Ok(0)
}
