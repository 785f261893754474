//! `c4lab play`: you are Yellow, the diagram is Red.

use std::io::{BufRead, Write};
use std::path::Path;

use anyhow::{bail, Result};
use c4lab_board::Player;
use c4lab_steady::play::{Game, Played, Status};

use crate::input::read_diagram;

/// The board as spaced rows with the column numbers underneath.
fn show(game: &Game, out: &mut impl Write) -> std::io::Result<()> {
    for row in game.position().to_grid().lines() {
        let spaced: Vec<String> = row.chars().map(String::from).collect();
        writeln!(out, "  {}", spaced.join(" "))?;
    }
    writeln!(out, "  1 2 3 4 5 6 7\n{}", game.status().describe())
}

fn describe(m: &Played) -> String {
    match (m.player, m.column, &m.rule) {
        (Player::Red, Some(c), Some(rule)) => format!("Red plays {} ({})", c + 1, rule.describe()),
        (Player::Red, None, Some(rule)) => format!("Red has no move: {}", rule.describe()),
        (_, Some(c), _) => format!("Yellow plays {}", c + 1),
        _ => String::new(),
    }
}

/// `c4lab play`.
pub fn play(file: &Path, moves: &str, no_input: bool) -> Result<u8> {
    let input = read_diagram(Some(file))?;
    let mut game = Game::replay(&input.diagram, &input.line)?;
    let mut out = std::io::stdout().lock();
    for m in game.log() {
        writeln!(out, "{}", describe(m))?;
    }
    for (i, ch) in moves.trim().chars().enumerate() {
        let Some(d @ 1..=7) = ch.to_digit(10) else {
            bail!("--moves, move {}: {ch:?} is not a column 1-7", i + 1);
        };
        step(&mut game, d as usize - 1, &mut out)?;
    }
    show(&game, &mut out)?;
    if no_input {
        return Ok(code(game.status()));
    }
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let line = line?;
        match line.trim() {
            "" => continue,
            "q" | "quit" => break,
            "u" | "undo" => {
                if game.undo() {
                    writeln!(out, "undone")?;
                } else {
                    writeln!(out, "nothing to undo: this is the root")?;
                }
            }
            t => match t.parse::<usize>() {
                Ok(c @ 1..=7) => {
                    if let Err(e) = step(&mut game, c - 1, &mut out) {
                        writeln!(out, "{e}")?;
                        continue;
                    }
                }
                _ => {
                    writeln!(out, "{t:?}: type a column 1-7, u to undo, q to quit")?;
                    continue;
                }
            },
        }
        show(&game, &mut out)?;
    }
    Ok(code(game.status()))
}

fn step(game: &mut Game, x: usize, out: &mut impl Write) -> Result<()> {
    let before = game.log().len();
    game.yellow(x)?;
    for m in &game.log()[before..] {
        writeln!(out, "{}", describe(m))?;
    }
    Ok(())
}

/// 1 when Yellow beat the diagram, 0 otherwise.
fn code(s: &Status) -> u8 {
    match s {
        Status::YellowWon | Status::Draw | Status::NoMove => 1,
        _ => 0,
    }
}
