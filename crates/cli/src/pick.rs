//! `c4lab pick`: one diagram out of a file of many (upstream's `steady_states.txt`), by
//! its number or its root, as a level grid the diagram commands read; or the list.

use std::path::Path;

use anyhow::{bail, Result};
use c4lab_board::format_moves;
use c4lab_steady::solution::{parse_branches, parse_leaves, Leaf};

use crate::complete::counted;

/// Where `--steady-states` looks by default: upstream's file beside the repository.
pub const DEFAULT_STEADY_STATES: &str = "../shared/data/upstream/steady_states.txt";

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
    const WHAT: &str = "a file of diagrams";
    let stdin = file == Path::new("-");
    // (`-`: standard input, as check-solution reads it; a file that cannot be found is
    // said as a benchmark's default data file is, with the folder it was looked for in)
    let text = if stdin {
        crate::input::read_limited(None, crate::bench::DATA_MAX_BYTES, WHAT)?
    } else if std::fs::metadata(file).is_ok() {
        crate::input::read_limited(Some(file), crate::bench::DATA_MAX_BYTES, WHAT)?
    } else {
        crate::bench::read_data(file, "--steady-states FILE")?
    };
    let (leaves, errors) = parse_leaves(&text);
    let name = match stdin {
        true => "standard input".to_string(),
        false => file.display().to_string(),
    };
    let total = leaves.len() + errors.len();
    if total == 0 {
        bail!("{name} holds no diagram: it is six-row diagrams with a blank line between them, as upstream's steady_states.txt");
    }
    if leaves.is_empty() {
        // nothing to list or pick: the whole file is refused (a list of none passed as
        // exit 0, and a wrong file, upstream's branches.txt, was asked to be mended)
        let fix = match parse_branches(&text).0.is_empty() {
            true => "mend it, or give upstream's steady_states.txt",
            false => "it holds branch lines (`<moves>-><column>`), as upstream's branches.txt: give steady_states.txt",
        };
        bail!(
            "{name} holds no diagram that reads (the first thing read: {}); {fix}",
            errors[0]
        );
    }
    // where a root is not found, the diagrams that could not be read may hold it
    let unread = match errors.first() {
        Some(first) => format!(
            "; {} of its {} could not be read (the first: {first}), and it may be among them",
            errors.len(),
            counted(total as u64, "diagram")
        ),
        None => String::new(),
    };
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
                    "note: {name}: {} of its {} could not be read and {} not listed; the first: {first}",
                    errors.len(),
                    counted(total as u64, "diagram"),
                    if errors.len() == 1 { "is" } else { "are" }
                );
            }
            return Ok(0);
        }
        Which::Number(n) => match leaves.iter().find(|l| l.index == n) {
            Some(l) => l,
            None if n == 0 || n > total => bail!(
                "{name} holds {}: pick {} (--list names them with their roots)",
                counted(total as u64, "diagram"),
                match total {
                    1 => "1".to_string(),
                    _ => format!("one of 1-{total}"),
                }
            ),
            None => {
                let prefix = format!("diagram {n} ");
                let e = errors.iter().find(|e| e.starts_with(&prefix));
                bail!(
                    "{name}: {}; mend it in the file, or pick another (--list names the ones that read)",
                    e.map_or("cannot be read", String::as_str)
                )
            }
        },
        Which::Root(moves) => {
            let shown = match moves.trim() {
                "" | "-" => "-",
                t => t,
            };
            let want = crate::solve::position(shown)
                .map_err(|e| anyhow::anyhow!("--root {shown}: {e}"))?;
            let mut found = leaves.iter().filter(|l| l.position.key() == want.key());
            match found.next() {
                Some(l) => {
                    let others: Vec<String> = found.map(|o| o.index.to_string()).collect();
                    if !others.is_empty() {
                        let (word, verb) = match others.len() {
                            1 => ("diagram", "has"),
                            _ => ("diagrams", "have"),
                        };
                        sayln!(
                            "note: {name}: {word} {} {verb} that root too; the first is printed",
                            others.join(", ")
                        );
                    }
                    l
                }
                None => {
                    let mirror = want.mirror().key();
                    let hint = match leaves.iter().find(|l| l.position.key() == mirror) {
                        // (with the command that mirrors it: `convert --mirror` keeps
                        // what the diagram wins, so its mirror wins from this root)
                        Some(m) => format!(
                            "; diagram {} has its mirror image, {}, and `c4lab pick {}{} | c4lab convert --mirror` prints its mirror, a diagram for {shown}",
                            m.index,
                            moves_of(m),
                            m.index,
                            match file {
                                f if f == Path::new(DEFAULT_STEADY_STATES) => String::new(),
                                _ if stdin => " --steady-states -".to_string(),
                                f => format!(
                                    " --steady-states {}",
                                    crate::verify::shell_word(&f.display().to_string())
                                ),
                            }
                        ),
                        // a diagram's root has Red to move: an odd count of moves
                        // can be none, and the search would say no more than that
                        None if want.moves_played() % 2 == 1 => format!(
                            " (after {} moves Yellow is to move, and a diagram's root has Red to move: give an even count of moves)",
                            want.moves_played()
                        ),
                        None => String::new(),
                    };
                    bail!("no diagram of {name} has the root {shown}{hint}{unread} (--list names every diagram's root)")
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
