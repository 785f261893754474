//! `c4lab verify` and `c4lab simplify`.

use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Result};
use c4lab_board::format_moves;
use c4lab_steady::{simplify as simplify_diagram, Counterexample, Verdict, Verifier};
use serde_json::json;

use crate::input::read_diagram;

/// The exit code for a verdict: 0 win, 1 loss, 2 no verdict possible, 3 budget.
pub fn exit_code(v: &Verdict) -> u8 {
    match v {
        Verdict::Win { .. } => 0,
        Verdict::Loss { .. } => 1,
        Verdict::Budget { .. } => 3,
        _ => 2,
    }
}

/// A file name as a shell and a command's options read it: bare when it holds only
/// safe characters, else quoted, and after `./` when it starts with `-` (an option).
pub(crate) fn shell_word(name: &str) -> String {
    let name = if name.starts_with('-') {
        format!("./{name}")
    } else {
        name.to_string()
    };
    let safe = |ch: char| ch.is_ascii_alphanumeric() || "._/-+,:@%".contains(ch);
    if !name.is_empty() && name.chars().all(safe) {
        name
    } else {
        format!("'{}'", name.replace('\'', r"'\''"))
    }
}

pub use c4lab_synth::RootValue;

/// For an unsat answer, the root's value when the answer is about the root itself
/// ([`c4lab_synth::open_root`], [`c4lab_synth::root_value`]).
pub fn unsat_root_value(d: &c4lab_steady::Diagram, unsat: bool) -> Option<RootValue> {
    let root = c4lab_synth::open_root(d).filter(|_| unsat)?;
    c4lab_synth::root_value(&root)
}

/// `; ` and what the root's value says of an unsat about it, or nothing without one.
pub fn root_clause(value: Option<RootValue>) -> String {
    let Some(v) = value else {
        return String::new();
    };
    let said = match v.score {
        Some(s) if s > 0 => format!("the strong solver scores the root +{s} for Red: "),
        Some(s) => format!("the strong solver scores the root {s} for Red: "),
        None => "the strong solver finds the root ".to_string(),
    };
    match v.sign {
        ..0 => format!("; {said}lost with best play, so no strategy wins it, in any language"),
        0 => format!("; {said}a draw with best play, so no strategy wins it, in any language"),
        _ => format!("; {said}a win with best play, but by no diagram of this language"),
    }
}

/// For a diagram with no `?` cell that does not win, the line it loses on: why a search
/// that had nothing to decide says `unsat`.
pub fn loss_as_it_stands(d: &c4lab_steady::Diagram) -> Option<Counterexample> {
    if d.undecided() > 0 {
        return None;
    }
    match Verifier::new().verify(d) {
        Verdict::Loss { counterexample, .. } => Some(counterexample),
        _ => None,
    }
}

/// "1 position" or "N positions".
fn positions_text(n: u64) -> String {
    format!("{n} position{}", if n == 1 { "" } else { "s" })
}

/// One line describing a verdict.
pub fn verdict_text(v: &Verdict) -> String {
    match v {
        Verdict::Win { positions } => {
            format!(
                "win: Red makes four on every line ({} searched)",
                positions_text(*positions)
            )
        }
        Verdict::Loss {
            counterexample,
            positions,
        } => {
            format!(
                "loss: {} [{} searched]",
                counterexample.describe(),
                positions_text(*positions)
            )
        }
        Verdict::Incomplete { undecided } => {
            format!("incomplete: undecided cells (?): {undecided}; decide them to get a verdict")
        }
        Verdict::RootTerminal { winner } => format!(
            "root-terminal: {} already has four in a row at the root",
            winner.name()
        ),
        // in brackets: the reason is a sentence of its own, and the time follows it
        Verdict::BadRoot { reason } => format!("bad-root ({reason})"),
        Verdict::Budget { positions } => {
            format!("budget: gave up at {positions} positions, past --budget (raise it)")
        }
    }
}

/// `c4lab verify`.
pub fn verify(file: Option<&Path>, json_out: bool, budget: u64) -> Result<u8> {
    let input = read_diagram(file)?;
    let root = input.diagram.root().ok().map(|r| format_moves(&r.order));
    let start = Instant::now();
    let verdict = Verifier::with_budget(budget).verify(&input.diagram);
    let micros = start.elapsed().as_secs_f64() * 1e6;
    // where the `?` cells are (rows from the top, as the grid is written); only an
    // incomplete verdict names them
    let undecided_at: Vec<(usize, usize)> = (0..6)
        .take_while(|_| matches!(verdict, Verdict::Incomplete { .. }))
        .flat_map(|row| (0..7).map(move |col| (row, col)))
        .filter(|&(row, col)| {
            matches!(
                input.diagram.cell(col, 5 - row),
                c4lab_steady::Cell::Undecided
            )
        })
        .map(|(row, col)| (row + 1, col + 1))
        .collect();
    if json_out {
        let mut j = verdict.to_json();
        if matches!(verdict, Verdict::Incomplete { .. }) {
            j["undecided_at"] = json!(undecided_at
                .iter()
                .map(|&(row, column)| json!({ "row": row, "column": column }))
                .collect::<Vec<_>>());
        }
        j["input"] = json!(input.form);
        j["root"] = json!(root);
        // (whole microseconds, as `solve` and `analyze` give them)
        j["microseconds"] = json!(micros.round() as u64);
        outln!("{j}");
    } else {
        outln!(
            "read: {}; root: {}",
            input.form,
            root.as_deref()
                .map_or("none (the next line says why)", |r| {
                    if r.is_empty() {
                        "empty board"
                    } else {
                        r
                    }
                })
        );
        outln!(
            "{} (took {:.2} ms)",
            verdict_text(&verdict),
            micros / 1000.0
        );
        // the command that replays the line: play takes Yellow's moves, and plays a
        // link's own Yellow line before them, so an input with one, or one that cannot be
        // read again (standard input; a stream such as /dev/stdin, where a file that
        // standard input also comes from can), is named by the diagram's link alone
        if let Verdict::Loss { counterexample, .. } = &verdict {
            let yellow = format_moves(&counterexample.yellow_moves());
            let stream = |p: &Path| {
                crate::files::is_stdin(p) && !std::fs::metadata(p).is_ok_and(|m| m.is_file())
            };
            let again = matches!(file, Some(p) if p != Path::new("-") && !stream(p));
            let diagram = if again && input.line.is_empty() {
                Some(shell_word(&input.name))
            } else {
                c4lab_steady::link::encode(&input.diagram, &[])
                    .ok()
                    .map(|link| shell_word(&link))
            };
            if yellow.is_empty() {
                // lost at the root or after Red's first move: nothing for Yellow to play,
                // but play still shows the board and Red's failing move (it printed no
                // line, where the README promises one with every loss)
                let diagram = diagram.unwrap_or_else(|| "FILE".to_string());
                outln!("replay: c4lab play {diagram} --no-input (lost before Yellow's first move)");
            } else if let Some(diagram) = diagram {
                outln!(
                    "replay: c4lab play {diagram} --moves {yellow} (Yellow's moves of the line)"
                );
            } else {
                // (a link is refused only for a root already won or full, which has no
                // lost line; should one come, a courtesy line is no reason to fail)
                outln!("replay: c4lab play FILE --moves {yellow} (FILE: the diagram as a file; Yellow's moves of the line)");
            }
        }
        if matches!(verdict, Verdict::Incomplete { .. }) {
            let at: Vec<String> = undecided_at
                .iter()
                .map(|(row, col)| format!("row {row} column {col}"))
                .collect();
            outln!("undecided (rows from the top): {}", at.join(", "));
        }
    }
    Ok(exit_code(&verdict))
}

/// `c4lab simplify`.
pub fn simplify(file: Option<&Path>, dry_run: bool, json_out: bool) -> Result<u8> {
    let input = read_diagram(file)?;
    let mut verifier = Verifier::new();
    let s = match simplify_diagram(&input.diagram, &mut verifier) {
        Ok(s) => s,
        // the verifier's own words say what to fix: the losing line, the `?` cells
        Err(e) => {
            let verdict = Verifier::new().verify(&input.diagram);
            bail!("{}: {e} ({})", input.name, verdict_text(&verdict));
        }
    };
    let n = s.cleared.len();
    // rows from the top, as the grid is written and as `verify` names undecided cells
    let at: Vec<(usize, usize)> = s.cleared.iter().map(|&(x, y)| (6 - y, x + 1)).collect();
    let listed = at
        .iter()
        .map(|(row, col)| format!("row {row} column {col}"))
        .collect::<Vec<_>>()
        .join(", ");
    let what = if n == 1 {
        "1 cell".to_string()
    } else {
        format!("{n} cells")
    };
    if json_out {
        let cells: Vec<serde_json::Value> = at
            .iter()
            .map(|&(row, column)| json!({ "row": row, "column": column }))
            .collect();
        let mut j = json!({ "cleared": n, "cells": cells, "dry_run": dry_run });
        if !dry_run {
            j["diagram"] = serde_json::from_str(&s.diagram.to_json())?;
        }
        outln!("{j}");
    } else if n == 0 && dry_run {
        outln!("already minimal: no cell can be blanked without losing the win");
    } else if n == 0 {
        // the grid still goes to stdout, so `simplify | verify` works either way
        out!("{}", s.diagram.to_grid());
        sayln!("already minimal: no cell can be blanked without losing the win");
    } else if dry_run {
        let them = if n == 1 { "it" } else { "them" };
        outln!("simplify would clear {what} (set {them} to 9; rows from the top: {listed}); the diagram keeps its win");
    } else {
        out!("{}", s.diagram.to_grid());
        sayln!("cleared {what} (rows from the top: {listed}); the diagram still verifies as a win");
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::shell_word;

    #[test]
    fn a_file_name_is_written_as_a_shell_and_play_read_it() {
        assert_eq!(shell_word("examples/loss.txt"), "examples/loss.txt");
        assert_eq!(shell_word("my loss.txt"), "'my loss.txt'");
        assert_eq!(shell_word("it's.txt"), r"'it'\''s.txt'");
        // a name that starts with `-` would be read as an option
        assert_eq!(shell_word("-dash.txt"), "./-dash.txt");
        assert_eq!(shell_word("-a b.txt"), "'./-a b.txt'");
    }
}
