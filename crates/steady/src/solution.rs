//! Upstream's weak solution graph (the README's `check-solution`): `branches.txt`
//! (Red's committed move at each pre-steady-state node) and `steady_states.txt` (the
//! leaf diagrams), checked as upstream's validator does.

use c4lab_board::{format_moves, Position, WIDTH};
use rustc_hash::FxHashMap;

use crate::{verify_many, Diagram, Language, Verdict};

/// A Red-to-move node of the graph and the column committed there.
#[derive(Debug, Clone)]
pub struct Branch {
    /// 1-based line in `branches.txt`.
    pub line: usize,
    /// The node's moves from the empty board (0-based columns).
    pub moves: Vec<u8>,
    /// The node's position.
    pub position: Position,
    /// The committed column, 0-based.
    pub column: usize,
}

/// A steady-state leaf: a diagram whose stones are its root.
#[derive(Debug, Clone)]
pub struct Leaf {
    /// 1-based index among the file's diagrams.
    pub index: usize,
    /// 1-based line of its first row.
    pub line: usize,
    /// The diagram, translated to the level language.
    pub diagram: Diagram,
    /// The language it was written in (upstream's file is in the old one).
    pub language: Language,
    /// Its root position.
    pub position: Position,
    /// A legal order reaching the root (0-based columns).
    pub order: Vec<u8>,
}

/// One named check's outcome.
#[derive(Debug, Clone)]
pub struct Check {
    /// `structure`, `root`, `coverage`, `reachability` or `leaves`.
    pub name: &'static str,
    /// True when nothing failed.
    pub passed: bool,
    /// Counts, one line.
    pub summary: String,
    /// Every failure, each naming its line, leaf or position.
    pub failures: Vec<String>,
}

/// The outcome of every check, in the order they ran.
#[derive(Debug, Clone)]
pub struct Report {
    /// The checks.
    pub checks: Vec<Check>,
}

impl Report {
    /// True when every check passed.
    pub fn passed(&self) -> bool {
        self.checks.iter().all(|c| c.passed)
    }
}

/// Parses `branches.txt`: `<moves>-><column>` lines, `#` comments, blank lines.
pub fn parse_branches(text: &str) -> (Vec<Branch>, Vec<String>) {
    let (mut out, mut errors) = (Vec::new(), Vec::new());
    let text = c4lab_board::unified_lines(text);
    for (i, raw) in text.lines().enumerate() {
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let line = i + 1;
        let parsed = (|| {
            let (moves, col) = l.split_once("->").ok_or("expected `<moves>-><column>`")?;
            let moves = c4lab_board::parse_moves(moves).map_err(|e| e.to_string())?;
            let mut position = Position::new();
            moves.iter().for_each(|&c| position.play(c as usize));
            let column = match col.trim() {
                c @ ("1" | "2" | "3" | "4" | "5" | "6" | "7") => {
                    c.as_bytes()[0] as usize - b'1' as usize
                }
                c => return Err(format!("{c:?} is not a column 1-7")),
            };
            if moves.len() % 2 != 0 {
                return Err("Yellow is to move there; branches are Red-to-move nodes".into());
            }
            if position.winner().is_some() {
                return Err("the game is already over there".into());
            }
            if !position.can_play(column) {
                return Err(format!("column {} is full there", column + 1));
            }
            Ok(Branch {
                line,
                moves,
                position,
                column,
            })
        })();
        match parsed {
            Ok(b) => out.push(b),
            Err(e) => errors.push(format!("branches line {line}: {e}")),
        }
    }
    (out, errors)
}

/// The diagrams of `leaves` whose roots hold a number of stones in `plies`.
pub fn diagrams_with_plies(
    leaves: Vec<Leaf>,
    plies: std::ops::RangeInclusive<u32>,
) -> Vec<Diagram> {
    leaves
        .into_iter()
        .filter(|l| plies.contains(&l.position.moves_played()))
        .map(|l| l.diagram)
        .collect()
}

/// Parses `steady_states.txt`: six-row diagrams separated by blank lines, `#` comments.
pub fn parse_leaves(text: &str) -> (Vec<Leaf>, Vec<String>) {
    let (mut out, mut errors) = (Vec::new(), Vec::new());
    let mut block: Vec<&str> = Vec::new();
    let mut start = 0;
    let text = c4lab_board::unified_lines(text);
    let lines: Vec<&str> = text.lines().collect();
    for (i, l) in lines
        .iter()
        .enumerate()
        .chain(std::iter::once((lines.len(), &"")))
    {
        let is_row = !l.trim().is_empty() || l.chars().count() == WIDTH;
        // (indented too: `#` is no cell of either language, and an indented comment
        // inside a diagram was read as its seventh row)
        if l.trim_start().starts_with('#') {
            continue;
        }
        if is_row {
            if block.is_empty() {
                start = i + 1;
            }
            block.push(l);
            continue;
        }
        if block.is_empty() {
            continue;
        }
        let index = out.len() + errors.len() + 1;
        // a diagram cut by the end of the file is said to be so (a file cut short
        // read as a diagram missing rows)
        let cut_row = block.last().is_some_and(|r| r.chars().count() < WIDTH);
        let at_end = i == lines.len() && (block.len() < c4lab_board::HEIGHT || cut_row);
        // rows past six: diagrams written with no blank line between them (the level
        // language's "give one diagram at a time" misled here)
        let run_on =
            block.len() > c4lab_board::HEIGHT && block.iter().all(|r| !r.trim().is_empty());
        let leaf = Diagram::from_rows(&block)
            .map_err(|e| {
                if run_on {
                    format!(
                        "{} rows with no blank line between them: in this file each diagram is six rows, then a blank line",
                        block.len()
                    )
                } else if at_end {
                    format!("the file ends inside this diagram: is it cut short? ({e})")
                } else {
                    e.to_string()
                }
            })
            .and_then(|(diagram, language)| {
                let root = diagram.root().map_err(|e| e.to_string())?;
                if root.position.winner().is_some() {
                    return Err("its root already holds a four".into());
                }
                Ok(Leaf {
                    index,
                    line: start,
                    diagram,
                    language,
                    position: root.position,
                    order: root.order,
                })
            });
        match leaf {
            Ok(leaf) => out.push(leaf),
            Err(e) => errors.push(format!("diagram {index} (line {start}): {e}")),
        }
        block.clear();
    }
    (out, errors)
}

/// Runs every check of `check-solution` on the two files' texts.
pub fn check_solution(branches_text: &str, steady_text: &str) -> Report {
    let (branches, mut structure) = parse_branches(branches_text);
    let (leaves, leaf_errors) = parse_leaves(steady_text);
    structure.extend(leaf_errors);
    // an empty file (or the other file given twice) would otherwise pass as a solution
    // with nothing in it
    // (said first: with the files swapped, they explain the thousands of line errors)
    if leaves.is_empty() {
        structure.insert(
            0,
            "the steady-states file holds no diagram: is it upstream's steady_states.txt?".into(),
        );
    }
    if branches.is_empty() {
        structure.insert(0, "the branches file holds no branch line (`<moves>-><column>`, the root's `-><column>`): is it upstream's branches.txt?".into());
    }

    let mut branch_at: FxHashMap<u64, usize> = FxHashMap::default();
    for (i, b) in branches.iter().enumerate() {
        if let Some(&j) = branch_at.get(&b.position.canonical_key()) {
            structure.push(format!(
                "branches lines {} and {}: the same node{} ({})",
                branches[j].line,
                b.line,
                mirrored(&branches[j].position, &b.position),
                show(&b.moves)
            ));
        } else {
            branch_at.insert(b.position.canonical_key(), i);
        }
    }
    let mut leaf_at: FxHashMap<u64, usize> = FxHashMap::default();
    for (i, l) in leaves.iter().enumerate() {
        let key = l.position.canonical_key();
        if let Some(&j) = leaf_at.get(&key) {
            structure.push(format!(
                "diagrams {} (line {}) and {} (line {}): the same board{}",
                leaves[j].index,
                leaves[j].line,
                l.index,
                l.line,
                mirrored(&leaves[j].position, &l.position)
            ));
        } else {
            leaf_at.insert(key, i);
        }
        if let Some(&b) = branch_at.get(&key) {
            structure.push(format!(
                "diagram {} (line {}) is also a branch (branches line {})",
                l.index, l.line, branches[b].line
            ));
        }
    }
    let mut checks = vec![Check {
        name: "structure",
        passed: structure.is_empty(),
        summary: format!(
            "{} branches, {} diagrams parsed{}",
            branches.len(),
            leaves.len(),
            languages(&leaves)
        ),
        failures: structure,
    }];

    let root = branch_at.get(&Position::new().canonical_key()).copied();
    checks.push(Check {
        name: "root",
        passed: root.is_some(),
        summary: match root {
            Some(r) => format!(
                "the empty board commits to column {}",
                branches[r].column + 1
            ),
            None => "no branch line for the empty board (`-><column>`)".into(),
        },
        failures: if root.is_some() {
            vec![]
        } else {
            vec!["add the root line `-><column>`".into()]
        },
    });

    // coverage: walk from the root through committed moves and every Yellow reply
    let mut failures = Vec::new();
    let (mut by_branch, mut by_leaf, mut by_win) = (0u64, 0u64, 0u64);
    let mut branch_seen = vec![false; branches.len()];
    let mut leaf_seen = vec![false; leaves.len()];
    let mut stack: Vec<usize> = root.into_iter().collect();
    if let Some(r) = root {
        branch_seen[r] = true;
    }
    while let Some(bi) = stack.pop() {
        let b = &branches[bi];
        let after = b.position.after(b.column);
        if after.winner().is_some() {
            continue;
        }
        for y in (0..WIDTH).filter(|&y| after.can_play(y)) {
            let q = after.after(y);
            let mut line = b.moves.clone();
            line.extend([b.column as u8, y as u8]);
            // (named as an uncovered reply is: the branch line whose move allowed it)
            if q.winner().is_some() {
                failures.push(format!(
                    "{}: Yellow's reply (after branches line {}) wins: column {} there lets Yellow make four",
                    show(&line),
                    b.line,
                    b.column + 1
                ));
                continue;
            }
            if q.is_full() {
                failures.push(format!(
                    "{}: Yellow's reply (after branches line {}) fills the board (a draw)",
                    show(&line),
                    b.line
                ));
                continue;
            }
            let key = q.canonical_key();
            let branch = branch_at.get(&key).copied();
            let leaf = leaf_at.get(&key).copied();
            let win = q.winning_moves() != 0;
            let mut by = Vec::new();
            if let Some(nb) = branch {
                by.push(format!("a branch, branches line {}", branches[nb].line));
                if !branch_seen[nb] {
                    branch_seen[nb] = true;
                    stack.push(nb);
                }
            }
            if let Some(nl) = leaf {
                by.push(format!(
                    "a diagram, diagram {} (line {})",
                    leaves[nl].index, leaves[nl].line
                ));
                leaf_seen[nl] = true;
            }
            if win {
                by.push("a Red win next move".into());
            }
            match by.len() {
                0 => failures.push(format!(
                    "{}: Yellow's reply (after branches line {}) is covered by no branch, diagram or Red win next move",
                    show(&line),
                    b.line
                )),
                1 if branch.is_some() => by_branch += 1,
                1 if leaf.is_some() => by_leaf += 1,
                1 => by_win += 1,
                _ => failures.push(format!(
                    "{}: covered more than once ({})",
                    show(&line),
                    by.join("; ")
                )),
            }
        }
    }
    let replies = by_branch + by_leaf + by_win + failures.len() as u64;
    if root.is_none() {
        // (a failed check names why it failed)
        failures.push("nothing to walk: no branch line for the empty board (see root)".into());
    }
    checks.push(Check {
        name: "coverage",
        passed: failures.is_empty(),
        summary: format!(
            "{replies} Yellow replies: {by_branch} to branches, {by_leaf} to diagrams, {by_win} to a Red win next move"
        ),
        failures,
    });

    // a second copy of a node counts as reached with its first: the structure check
    // names it already
    let branch_seen: Vec<bool> = branches
        .iter()
        .map(|b| branch_seen[branch_at[&b.position.canonical_key()]])
        .collect();
    let leaf_seen: Vec<bool> = leaves
        .iter()
        .map(|l| leaf_seen[leaf_at[&l.position.canonical_key()]])
        .collect();
    let mut unreached: Vec<String> = branches
        .iter()
        .zip(&branch_seen)
        .filter(|(_, s)| !**s)
        .map(|(b, _)| {
            format!(
                "branches line {} ({}) is never reached",
                b.line,
                show(&b.moves)
            )
        })
        .collect();
    unreached.extend(
        leaves
            .iter()
            .zip(&leaf_seen)
            .filter(|(_, s)| !**s)
            .map(|(l, _)| format!("diagram {} (line {}) is never reached", l.index, l.line)),
    );
    checks.push(Check {
        name: "reachability",
        passed: unreached.is_empty(),
        summary: format!(
            "{} of {} branches and {} of {} diagrams reached",
            branch_seen.iter().filter(|s| **s).count(),
            branches.len(),
            leaf_seen.iter().filter(|s| **s).count(),
            leaves.len()
        ),
        failures: unreached,
    });

    let diagrams: Vec<Diagram> = leaves.iter().map(|l| l.diagram.clone()).collect();
    let verdicts = verify_many(&diagrams);
    let mut positions = 0u64;
    let mut failed = Vec::new();
    for (leaf, v) in leaves.iter().zip(&verdicts) {
        match v {
            Verdict::Win { positions: p } => positions += p,
            // (the line runs from the leaf's root, not from the empty board)
            Verdict::Loss { counterexample, .. } => failed.push(format!(
                "diagram {} (line {}, root {}): loss, {}",
                leaf.index,
                leaf.line,
                show(&leaf.order),
                counterexample.describe()
            )),
            other => failed.push(format!(
                "diagram {} (line {}, root {}): {}",
                leaf.index,
                leaf.line,
                show(&leaf.order),
                other.name()
            )),
        }
    }
    checks.push(Check {
        name: "leaves",
        passed: failed.is_empty(),
        summary: format!(
            "{} of {} diagrams verify as win ({positions} positions searched)",
            verdicts.iter().filter(|v| v.is_win()).count(),
            leaves.len()
        ),
        failures: failed,
    });
    Report { checks }
}

/// "" when `b` is the same position as `a`, else ", mirrored" (the keys match only
/// up to mirroring).
fn mirrored(a: &Position, b: &Position) -> &'static str {
    if a.key() == b.key() {
        ""
    } else {
        ", mirrored"
    }
}

/// The structure summary's note of the languages read: upstream's file is in the old
/// one, so a diagram in the level language is named (a file may mix the two).
fn languages(leaves: &[Leaf]) -> String {
    let levels = leaves
        .iter()
        .filter(|l| l.language == Language::Levels)
        .count();
    let (old, new) = (Language::Legacy.name(), Language::Levels.name());
    match (levels, leaves.len() - levels) {
        (0, 0) => String::new(),
        (0, _) => format!(" ({old} language)"),
        (_, 0) => format!(" ({new} language)"),
        (l, o) => format!(" ({o} in the {old} language, {l} in the {new} language)"),
    }
}

fn show(moves: &[u8]) -> String {
    if moves.is_empty() {
        "the empty board".into()
    } else {
        format_moves(moves)
    }
}
