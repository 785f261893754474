//! The exported functions. Each is a thin JSON wrapper over an engine crate.

use c4lab_board::{
    format_moves, parse_moves, parse_stones, MoveError, Player, Position, HEIGHT, WIDTH,
};
use c4lab_solver::{column_move, ColumnMove};
use c4lab_steady::play::{Game, Status};
use c4lab_steady::{link, simplify as simplify_diagram, Diagram, Read, ReadError, Rule, Verifier};
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

pub(crate) fn fail(e: impl std::fmt::Display) -> String {
    json!({ "ok": false, "error": e.to_string() }).to_string()
}

/// Reads a grid given as six rows, or as 42 characters without newlines.
fn diagram(grid: &str) -> Result<Diagram, String> {
    c4lab_steady::read_grid(grid).map_err(|e| e.to_string())
}

/// The 42 cells of a diagram in grid order as one string.
fn flat(d: &Diagram) -> String {
    d.cells().iter().map(|c| c.to_char()).collect()
}

/// The stones of a position in grid order: `R`, `Y` or `.`, on one line.
fn stones_of(p: &Position) -> String {
    p.to_grid().replace('\n', "")
}

/// The engine's version.
#[wasm_bindgen]
pub fn engine_version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Reads any diagram form (level grid, old grid, upstream JSON, share link) and says
/// which it was: `{ok, cells, root, line, dropped, form}` (`dropped`: moves of a link's
/// Yellow line left out where play stops at an undecided cell).
#[wasm_bindgen]
pub fn read_any(text: &str) -> String {
    // the inner error: the page says itself which form it was refusing
    let read = match c4lab_steady::read_any(text) {
        Ok(r) => r,
        Err(ReadError::Link(e)) => return fail(e),
        Err(ReadError::Diagram(e)) => return fail(e),
    };
    let form = read.form();
    // a link keeps the root's move order it carries; a grid's is derived from its stones
    let (diagram, root, line, dropped) = match read {
        Read::Link(s) => (s.diagram, s.root, s.line, s.dropped),
        Read::Grid(p) | Read::Line(p) => match p.diagram.root() {
            Ok(r) => (p.diagram, r.order, Vec::new(), 0),
            Err(e) => return fail(e),
        },
    };
    json!({"ok": true, "cells": flat(&diagram), "root": format_moves(&root),
        "line": format_moves(&line), "dropped": dropped, "form": form})
    .to_string()
}

/// A root from a move sequence: `{ok, stones, moves, to_move, over, winner}` (`winner`:
/// who holds a four, else null); refuses illegal input.
#[wasm_bindgen]
pub fn position(moves: &str) -> String {
    match Position::from_moves(moves) {
        Ok(p) => json!({"ok": true, "stones": stones_of(&p), "moves": format_moves(&parse_moves(moves).unwrap_or_default()),
            "to_move": p.to_move().name(), "over": p.winner().is_some(), "winner": p.winner().map(|w| w.name())})
        .to_string(),
        Err(e) => fail(e),
    }
}

/// A position from stones alone (six rows of R/Y with `?` or `.`): `{ok, stones, moves,
/// to_move}`. Yellow to move is read too, as the moves box reads it: the page says a
/// root needs one more stone.
#[wasm_bindgen]
pub fn position_from_stones(text: &str) -> String {
    match parse_stones(text) {
        Ok(g) => {
            json!({"ok": true, "stones": stones_of(&g.position), "moves": format_moves(&g.order),
            "to_move": g.position.to_move().name()})
            .to_string()
        }
        Err(e) => fail(e),
    }
}

/// Verifies a diagram within `budget` positions (0 or infinity: no limit): `{ok,
/// verdict, positions, reason, line, tied, ...}`.
#[wasm_bindgen]
pub fn verify(grid: &str, budget: f64) -> String {
    let d = match diagram(grid) {
        Ok(d) => d,
        Err(e) => return fail(e),
    };
    // positions, as the solver's node budget: 0 or infinity for no limit (a NaN or a
    // negative budget is refused rather than read as a default)
    let budget = match limit(budget, "position") {
        Ok(b) => b,
        Err(e) => return fail(e),
    };
    let mut j = Verifier::with_budget(budget).verify(&d).to_json();
    j["ok"] = json!(true);
    j.to_string()
}

/// Simplifies a winning diagram: `{ok, cleared, cells}`.
#[wasm_bindgen]
pub fn simplify(grid: &str) -> String {
    let d = match diagram(grid) {
        Ok(d) => d,
        Err(e) => return fail(e),
    };
    match simplify_diagram(&d, &mut Verifier::new()) {
        Ok(s) => {
            json!({"ok": true, "cleared": s.cleared.len(), "cells": flat(&s.diagram)}).to_string()
        }
        Err(e) => fail(e),
    }
}

fn rule_json(rule: &Rule) -> Value {
    let name = match rule {
        Rule::Win => "win",
        Rule::Block => "block",
        Rule::Level { .. } => "level",
        Rule::NoMove { .. } => "no-move",
    };
    json!({"name": name, "text": rule.describe()})
}

/// Plays the Yellow moves `yellow` (digits 1-7) against the diagram: `{ok, log, status,
/// status_text, waits_on, stones, four, yellow, error}`; `waits_on` lists the columns
/// (1-7) whose `?` cells Red's move waits on, `four` the winning cells, `yellow` the line
/// played, `error` why a move could not be played.
#[wasm_bindgen]
pub fn play(grid: &str, yellow: &str) -> String {
    let d = match diagram(grid) {
        Ok(d) => d,
        Err(e) => return fail(e),
    };
    let mut game = match Game::new(&d) {
        Ok(g) => g,
        Err(e) => return fail(e),
    };
    let mut error = Value::Null;
    // the moves before a bad entry are played, so the board shows how far the line got
    for (i, ch) in yellow.chars().enumerate() {
        let played = match ch {
            '1'..='7' => game
                .yellow(ch as usize - '1' as usize)
                .map_err(|e| e.to_string()),
            _ => Err(format!(
                "Yellow's {}",
                MoveError::BadChar { ply: i + 1, ch }
            )),
        };
        if let Err(e) = played {
            error = json!(e);
            break;
        }
    }
    let log: Vec<Value> = game
        .log()
        .iter()
        .map(|m| {
            json!({"player": m.player.name(), "column": m.column.map(|c| c + 1),
                "rule": m.rule.as_ref().map(rule_json)})
        })
        .collect();
    let status = match game.status() {
        Status::YellowToMove => "yellow-to-move",
        Status::RedWon => "red-won",
        Status::YellowWon => "yellow-won",
        Status::Draw => "draw",
        Status::NoMove => "no-move",
        Status::Undecided { .. } => "undecided",
    };
    // the columns whose ? cells Red's move waits on (1-7), for the page's own words
    let waits_on: Vec<u8> = match game.status() {
        Status::Undecided { columns } => columns.iter().map(|c| c + 1).collect(),
        _ => vec![],
    };
    json!({"ok": true, "log": log, "status": status, "status_text": game.status().describe(),
        "waits_on": waits_on,
        "stones": stones_of(game.position()), "four": winning_four(game.position()),
        "yellow": format_moves(&game.yellow_line()), "error": error})
    .to_string()
}

/// Grid indices (top row first) of the cells of a four on the board, if any.
fn winning_four(p: &Position) -> Vec<usize> {
    let mut cells = Vec::new();
    for who in [Player::Red, Player::Yellow] {
        let has = |x: i32, y: i32| {
            (0..WIDTH as i32).contains(&x)
                && (0..HEIGHT as i32).contains(&y)
                && p.stone(x as usize, y as usize) == Some(who)
        };
        for x in 0..WIDTH as i32 {
            for y in 0..HEIGHT as i32 {
                for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    if (0..4).all(|k| has(x + k * dx, y + k * dy)) {
                        for k in 0..4 {
                            let i = (HEIGHT as i32 - 1 - (y + k * dy)) as usize * WIDTH
                                + (x + k * dx) as usize;
                            if !cells.contains(&i) {
                                cells.push(i);
                            }
                        }
                    }
                }
            }
        }
    }
    cells
}

/// A share-link fragment for the diagram and Yellow line: `{ok, link}`.
#[wasm_bindgen]
pub fn link_encode(grid: &str, yellow: &str) -> String {
    let d = match diagram(grid) {
        Ok(d) => d,
        Err(e) => return fail(e),
    };
    // a link carries a root (Red to move) only, as the exports do
    if let Err(e) = d.root() {
        return fail(format!("{e}; share once the root has Red to move"));
    }
    let line = match parse_line(yellow) {
        Ok(l) => l,
        Err(e) => return fail(e),
    };
    match link::encode(&d, &line) {
        Ok(l) => json!({"ok": true, "link": l}).to_string(),
        Err(e) => fail(e),
    }
}

fn parse_line(text: &str) -> Result<Vec<u8>, String> {
    c4lab_board::parse_columns(text).map_err(|e| format!("Yellow's {e}"))
}

/// The diagram in another form (`grid`, `json`, `old`): `{ok, text}`.
#[wasm_bindgen]
pub fn export_diagram(grid: &str, form: &str) -> String {
    let d = match diagram(grid) {
        Ok(d) => d,
        Err(e) => return fail(e),
    };
    // Import reads back only stones that form a root (Red to move): an export of any
    // other would not open
    if let Err(e) = d.root() {
        return fail(format!("{e}; export once the root has Red to move"));
    }
    let text = match form {
        "grid" => Ok(d.to_grid()),
        "json" => Ok(d.to_json()),
        "old" => d.to_legacy(),
        other => Err(format!("unknown form {other:?}: use grid, json or old")),
    };
    match text {
        Ok(t) => json!({"ok": true, "text": t}).to_string(),
        Err(e) => fail(e),
    }
}

thread_local! {
    /// One solver per page, its table kept warm between questions.
    static SOLVER: std::cell::RefCell<c4lab_solver::Solver> =
        std::cell::RefCell::new(c4lab_solver::Solver::new(SOLVER_TABLE_BYTES));
}

/// The solver's table in the browser: 16 MiB.
const SOLVER_TABLE_BYTES: usize = 16 << 20;

/// A budget from the page, counted in `unit`s (nodes, positions): a positive number, or
/// 0 (or infinity) for no limit; NaN or a negative number is a page bug, said rather than
/// run without a limit or with some default.
fn limit(budget: f64, unit: &str) -> Result<u64, String> {
    if budget == 0.0 || budget == f64::INFINITY {
        Ok(u64::MAX)
    } else if budget >= 1.0 {
        Ok(budget as u64)
    } else {
        Err(format!(
            "a {unit} budget of {budget}: give a positive number of {unit}s, or 0 for no limit"
        ))
    }
}

/// The solver's node budget (see [`limit`]).
fn node_limit(budget: f64) -> Result<u64, String> {
    limit(budget, "node")
}

/// The position after `moves` (refused when the game is over) and its node budget
/// (see [`node_limit`]).
fn solver_question(moves: &str, node_budget: f64) -> Result<(Position, u64), String> {
    let p = Position::from_moves(moves).map_err(|e| e.to_string())?;
    if p.winner().is_some() {
        return Err("the game is already over".into());
    }
    Ok((p, node_limit(node_budget)?))
}

/// Scores every column of the position after `moves` from the side to move's view
/// (Pons' convention), each within `node_budget` nodes: `{ok, scores, to_move}` where a
/// score is a number, `"full"`, or `"unknown"` when its budget ran out.
#[wasm_bindgen]
pub fn analyze(moves: &str, node_budget: f64) -> String {
    let (p, budget) = match solver_question(moves, node_budget) {
        Ok(q) => q,
        Err(e) => return fail(e),
    };
    let scores: Vec<Value> = (0..WIDTH).map(|x| column_score(&p, x, budget)).collect();
    json!({"ok": true, "scores": scores, "to_move": p.to_move().name()}).to_string()
}

/// One column of [`analyze`] (`column` 0-6): `{ok, score, to_move}`, the score as
/// there. Asked column by column, a caller can stop between them: the page's solver
/// worker ends within one column's budget once it is no longer wanted, not after all
/// seven (Chromium ends a worker only between its tasks).
#[wasm_bindgen]
pub fn analyze_column(moves: &str, column: u32, node_budget: f64) -> String {
    let (p, budget) = match solver_question(moves, node_budget) {
        Ok(q) => q,
        Err(e) => return fail(e),
    };
    if column as usize >= WIDTH {
        return fail(format!("column {column}: columns are 0 to 6"));
    }
    let score = column_score(&p, column as usize, budget);
    json!({"ok": true, "score": score, "to_move": p.to_move().name()}).to_string()
}

/// The score of playing column `x` in `p`, as [`analyze`] gives it.
fn column_score(p: &Position, x: usize, budget: u64) -> Value {
    match column_move(p, x) {
        ColumnMove::Full => json!("full"),
        // (refused before: a question about a game a four has ended)
        ColumnMove::Over => json!("over"),
        ColumnMove::Wins(score) => json!(score),
        ColumnMove::Child(child) if child.is_full() => json!(0),
        ColumnMove::Child(child) => {
            SOLVER.with(
                |s| match s.borrow_mut().solve_with_budget(&child, budget).exact() {
                    Some(score) => json!(-score),
                    None => json!("unknown"),
                },
            )
        }
    }
}

/// The score of the position after `moves` from the side to move's view, within
/// `node_budget` nodes: `{ok, score}` with `score` a number or `"unknown"`.
#[wasm_bindgen]
pub fn score(moves: &str, node_budget: f64) -> String {
    let (p, budget) = match solver_question(moves, node_budget) {
        Ok(q) => q,
        Err(e) => return fail(e),
    };
    let score = if p.is_full() {
        Some(0)
    } else {
        SOLVER.with(|s| s.borrow_mut().solve_with_budget(&p, budget).exact())
    };
    json!({"ok": true, "score": score.map_or(json!("unknown"), |s| json!(s))}).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_budget_that_is_no_number_is_refused_not_unlimited() {
        assert_eq!(node_limit(3e6), Ok(3_000_000));
        assert_eq!(node_limit(0.0), Ok(u64::MAX));
        assert_eq!(node_limit(f64::INFINITY), Ok(u64::MAX));
        for bad in [f64::NAN, -1.0, 0.5, f64::NEG_INFINITY] {
            assert!(node_limit(bad).is_err(), "{bad}");
        }
        let r: Value = serde_json::from_str(&analyze("4", f64::NAN)).unwrap();
        assert_eq!(r["ok"], false, "{r}");
        // the verifier's budget alike: a NaN is refused (it meant the default), and
        // infinity is no limit (it also meant the default, while 1e300 meant none)
        let win = "9909999\n99R9999\n09Y9999\nYRY9R65\nYYYRR79\nRRRYYRY\n";
        let r: Value = serde_json::from_str(&verify(win, f64::NAN)).unwrap();
        assert_eq!(r["ok"], false, "{r}");
        assert!(
            r["error"].as_str().unwrap().contains("position budget"),
            "{r}"
        );
        let r: Value = serde_json::from_str(&verify(win, f64::INFINITY)).unwrap();
        assert_eq!(r["verdict"], "win", "{r}");
        let r: Value = serde_json::from_str(&verify(win, 1.0)).unwrap();
        assert_eq!(r["verdict"], "budget", "{r}");
    }

    #[test]
    fn analyze_column_by_column_is_analyze() {
        // a full column, immediate wins, solved and unknown columns (a budget of 1,000
        // nodes leaves the early ones unknown)
        for (moves, budget) in [("444444", 0.0), ("1212123", 0.0), ("4453", 1e3), ("", 1e3)] {
            let whole: Value = serde_json::from_str(&analyze(moves, budget)).unwrap();
            for x in 0..WIDTH {
                let one: Value =
                    serde_json::from_str(&analyze_column(moves, x as u32, budget)).unwrap();
                assert_eq!(one["score"], whole["scores"][x], "{moves} column {x}");
                assert_eq!(one["to_move"], whole["to_move"]);
            }
        }
        let r: Value = serde_json::from_str(&analyze_column("4", 7, 0.0)).unwrap();
        assert_eq!(r["ok"], false, "{r}");
        let r: Value = serde_json::from_str(&analyze_column("4444", 0, f64::NAN)).unwrap();
        assert_eq!(r["ok"], false, "{r}");
    }

    #[test]
    fn a_root_with_yellow_to_move_is_neither_shared_nor_exported_and_both_say_the_fix() {
        let yellow_to_move = "9999999\n9999999\n9999999\n9999999\n9999999\n999R999\n";
        for r in [
            link_encode(yellow_to_move, ""),
            export_diagram(yellow_to_move, "grid"),
        ] {
            let r: Value = serde_json::from_str(&r).unwrap();
            assert_eq!(r["ok"], false, "{r}");
            assert!(
                r["error"]
                    .as_str()
                    .unwrap()
                    .contains("once the root has Red to move"),
                "{r}"
            );
        }
    }
}
