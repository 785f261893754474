//! `c4lab play`: you are Yellow against a diagram (Red), or either colour against a model.

use std::io::Write;
use std::path::Path;

use anyhow::{bail, Context, Result};
use c4lab_board::{Player, Position};
use c4lab_steady::play::{Game, Played, Status};

use crate::input::read_diagram;
use crate::solve::shown;

/// The board and the game's status.
fn show(game: &Game, out: &mut impl Write) -> std::io::Result<()> {
    show_position(game.position(), out)?;
    writeln!(out, "{}", game.status().describe())
}

fn describe(m: &Played) -> String {
    match (m.player, m.column, &m.rule) {
        (Player::Red, Some(c), Some(rule)) => format!("Red plays {} ({})", c + 1, rule.describe()),
        // "no move, every level tied: ..." / "no move (no levelled playable cell)"
        (Player::Red, None, Some(rule)) => format!("Red has {}", rule.describe()),
        (_, Some(c), _) => format!("Yellow plays {}", c + 1),
        _ => String::new(),
    }
}

/// `c4lab play`.
pub fn play(file: &Path, moves: &str, no_input: bool) -> Result<u8> {
    if (file == Path::new("-") || crate::files::is_stdin(file)) && !no_input {
        // the diagram takes the whole of standard input, leaving no moves to read
        bail!("with the diagram on standard input ({}) the moves cannot come from it too: give the diagram as a file, or the moves with --moves and --no-input", file.display());
    }
    // a script's bad entry is refused before any move is played or printed
    let script: Vec<usize> = c4lab_board::parse_columns(moves.trim())
        .map_err(|e| anyhow::anyhow!("--moves, {e}"))?
        .into_iter()
        .map(usize::from)
        .collect();
    let input = read_diagram(Some(file))?;
    let mut game = Game::replay(&input.diagram, &input.line).with_context(|| input.name.clone())?;
    let mut out = crate::stdout();
    for m in game.log() {
        writeln!(out, "{}", describe(m))?;
    }
    for (i, column) in script.into_iter().enumerate() {
        if let Err(e) = step(&mut game, column, &mut out) {
            // the board the line got to, then why it cannot go on; the entry of --moves
            // is named (Yellow's moves count a link's own line too)
            show(&game, &mut out)?;
            return Err(e.context(format!("--moves, move {}", i + 1)));
        }
    }
    show(&game, &mut out)?;
    if no_input {
        return Ok(code(game.status()));
    }
    // (a first game showed a board and a bare cursor: u and q came up only after a
    // word that was no move)
    writeln!(
        out,
        "You are Yellow; Red follows the diagram. Type a column 1-7 and Enter; u takes back Yellow's last move, q quits."
    )?;
    for line in typed_lines() {
        let Some(line) = line.context(
            "cannot read standard input (type Yellow's moves, or give them with --moves and --no-input)",
        )?
        else {
            writeln!(out, "{}", too_long())?;
            continue;
        };
        // (`Q`, `U` and `exit` were words that are no move)
        let word = line.trim();
        match word.to_ascii_lowercase().as_str() {
            "" => continue,
            "q" | "quit" | "exit" => break,
            "u" | "undo" => {
                if game.undo() {
                    writeln!(out, "undone")?;
                } else {
                    // Red's first move is the diagram's, not one to take back (and
                    // the board, unchanged, is not shown again)
                    writeln!(out, "nothing to undo: Yellow has made no move")?;
                    continue;
                }
            }
            _ => match typed_column(word) {
                Some(_) if *game.status() != Status::YellowToMove => {
                    // typed after the end: "Yellow's move N ... stops here" came back
                    // with the same N for every column typed
                    let then = if game.yellow_moves() > 0 {
                        "u takes back Yellow's last move, q quits"
                    } else {
                        "nothing to take back (it stopped at the root), q quits"
                    };
                    writeln!(
                        out,
                        "the game stops here ({}): {then}",
                        game.status().describe()
                    )?;
                    continue;
                }
                Some(c) => {
                    if let Err(e) = step(&mut game, c - 1, &mut out) {
                        writeln!(out, "{e}")?;
                        continue;
                    }
                }
                _ => {
                    writeln!(
                        out,
                        "\"{}\": type a column 1-7, u to undo, q to quit",
                        shown(word)
                    )?;
                    continue;
                }
            },
        }
        show(&game, &mut out)?;
    }
    Ok(code(game.status()))
}

/// The column 1-7 a typed word names: one digit, as `--moves` takes them (`+7` and `07`
/// were read as 7).
fn typed_column(word: &str) -> Option<usize> {
    match word.as_bytes() {
        [d @ b'1'..=b'7'] => Some(usize::from(d - b'0')),
        _ => None,
    }
}

/// What a game answers a typed line too long to read.
fn too_long() -> String {
    format!(
        "a line of more than {} bytes is no move: type a column 1-7, u to undo, q to quit",
        crate::solve::MAX_LINE
    )
}

/// The lines typed on standard input, `None` for one past [`crate::solve::MAX_LINE`]
/// bytes (such a line used to be cut there and answered by its first 64 KiB: a move, or
/// nothing when the move came after the cut). A line that is not UTF-8 comes through
/// with its bad bytes replaced, to be answered as any other line no move reads (it ended
/// the game with "stream did not contain valid UTF-8"). A byte-order mark before the
/// first line is dropped, as a diagram file's is (moves piped from a file an editor
/// saved with one lost their first move).
fn typed_lines() -> impl Iterator<Item = std::io::Result<Option<String>>> {
    crate::solve::capped_lines(std::io::stdin().lock(), crate::solve::MAX_LINE)
        .enumerate()
        .map(|(i, line)| {
            line.map(|(bytes, cut)| {
                let text = String::from_utf8_lossy(&bytes);
                (!cut).then(|| match text.strip_prefix('\u{feff}') {
                    Some(rest) if i == 0 => rest.to_string(),
                    _ => text.into_owned(),
                })
            })
        })
}

fn step(game: &mut Game, x: usize, out: &mut impl Write) -> Result<()> {
    let before = game.log().len();
    game.yellow(x)?;
    for m in &game.log()[before..] {
        writeln!(out, "{}", describe(m))?;
    }
    Ok(())
}

/// 1 when Yellow beat the diagram, 2 when an undecided cell stopped the game (as
/// `verify` calls such a diagram incomplete), 0 otherwise.
fn code(s: &Status) -> u8 {
    match s {
        Status::YellowWon | Status::Draw | Status::NoMove => 1,
        Status::Undecided { .. } => 2,
        _ => 0,
    }
}

/// Who plays against you.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Opponent {
    /// A steady-state diagram, as Red.
    Diagram,
    /// A model made by `c4lab train`.
    Model,
}

/// Your colour against a model.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Colour {
    /// You move first.
    Red,
    /// The model moves first.
    Yellow,
}

/// The board as spaced rows with the column numbers underneath, the stones in their
/// colours where standard output takes colour.
fn show_position(pos: &Position, out: &mut impl Write) -> std::io::Result<()> {
    let colour = takes_colour();
    for row in pos.to_grid().lines() {
        let spaced: Vec<String> = row
            .chars()
            .map(|c| match (colour, c) {
                (true, 'R') => stone(c, anstyle::AnsiColor::Red),
                (true, 'Y') => stone(c, anstyle::AnsiColor::Yellow),
                _ => c.to_string(),
            })
            .collect();
        writeln!(out, "  {}", spaced.join(" "))?;
    }
    writeln!(out, "  1 2 3 4 5 6 7")
}

/// A stone's letter in bold `colour`.
fn stone(letter: char, colour: anstyle::AnsiColor) -> String {
    let style = anstyle::Style::new().bold().fg_color(Some(colour.into()));
    format!("{style}{letter}{style:#}")
}

/// True when standard output takes colour: a terminal that supports it, unless
/// `NO_COLOR` is set (`CLICOLOR_FORCE` forces it), as clap decides for its help; never
/// on Windows, whose older consoles show the escape codes as text.
fn takes_colour() -> bool {
    static COLOUR: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *COLOUR.get_or_init(|| {
        !cfg!(windows)
            && anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never
    })
}

/// How a game against the model ended: what is said, and whether you won.
#[derive(Debug, PartialEq)]
struct GameEnd {
    /// The sentence shown ("you play 4 and win").
    said: String,
    /// Whether your move made four (else the model's did, or the board filled up).
    you_won: bool,
}

/// Plays column `x` for the side to move (`yours`: you, else the model); Some(the end)
/// when the game ends.
fn move_and_judge(pos: &mut Position, x: usize, yours: bool) -> Option<GameEnd> {
    // (it said "you plays")
    let (play, win) = if yours {
        ("you play", "win")
    } else {
        ("the model plays", "wins")
    };
    if pos.is_winning_move(x) {
        *pos = pos.after(x);
        return Some(GameEnd {
            said: format!("{play} {} and {win}", x + 1),
            you_won: yours,
        });
    }
    *pos = pos.after(x);
    if pos.is_full() {
        return Some(GameEnd {
            said: format!("{play} {}: the board is full, a draw", x + 1),
            you_won: false,
        });
    }
    None
}

/// `c4lab play --opponent model`: exit 1 when the game ends with your four (also after
/// `q` or the end of input), else 0; the game's end is not the program's, so `u` can take
/// your last move back.
pub fn play_model(path: &Path, you: Colour, moves: &str, no_input: bool) -> Result<u8> {
    let model = crate::model::load_model(path)?;
    let mut pos = Position::new();
    let mut out = crate::stdout();
    let yours = if you == Colour::Red { 0 } else { 1 };
    // --moves is a script: a bad entry in it is an error (exit 2), as in the diagram game,
    // where a bad line typed at the prompt only asks again
    c4lab_board::parse_columns(moves.trim()).map_err(|e| anyhow::anyhow!("--moves, {e}"))?;
    let script: Vec<char> = moves.trim().chars().collect();
    let mut typed = script.into_iter().enumerate();
    // moves of the script left once the game is over are an error, as in the diagram game
    let over = |typed: &mut dyn Iterator<Item = (usize, char)>, end: &str| match typed.next() {
        Some((i, c)) => Err(anyhow::anyhow!(
            "--moves, move {} ({c}): the game is over ({end}), so no move can follow it",
            i + 1
        )),
        None => Ok(()),
    };
    // the positions before each of your moves, for `u`
    let mut turns: Vec<Position> = Vec::new();
    // how the game ended; `u` still takes back your last move (and the model's answer),
    // as in the diagram game
    let mut ended: Option<GameEnd> = None;
    // the exit code where the game stands: 1 when you won
    let model_code = |ended: &Option<GameEnd>| ended.as_ref().map_or(0, |e| u8::from(e.you_won));
    let mut lines = typed_lines();
    if !no_input {
        // (a first game showed an empty board and nothing else: not whose move it was,
        // nor which side was yours)
        let side = if you == Colour::Red {
            "You are Red and move first; the model plays Yellow."
        } else {
            "You are Yellow; the model plays Red and moves first."
        };
        writeln!(
            out,
            "{side} Type a column 1-7 and Enter; u takes back your last move (and the model's answer), q quits."
        )?;
    }
    // the board last shown before a move was read: shown again only once it changed
    // (not after a word that is no move, or `u` with nothing to take back)
    let mut shown_last: Option<Position> = None;
    loop {
        if ended.is_none() && pos.moves_played() % 2 != yours {
            let x = model
                .best_move(&pos)
                .expect("a move on a board that is not full");
            if let Some(end) = move_and_judge(&mut pos, x, false) {
                show_position(&pos, &mut out)?;
                // (so that `u` shows the board it goes back to)
                shown_last = Some(pos);
                writeln!(out, "{}", end.said)?;
                over(&mut typed, &end.said)?;
                ended = Some(end);
            } else {
                writeln!(out, "the model plays {}", x + 1)?;
            }
            continue;
        }
        // your move: from --moves first, then from stdin (once the game is over, no
        // move of --moves is left: `over` refused it)
        let text = match typed.next() {
            Some((i, c)) => {
                let x = c as usize - '1' as usize;
                if !pos.can_play(x) {
                    // the board the line got to, then why it cannot go on
                    show_position(&pos, &mut out)?;
                    bail!("--moves, move {}: column {c} is full", i + 1);
                }
                c.to_string()
            }
            None => {
                if ended.is_none() && shown_last != Some(pos) {
                    show_position(&pos, &mut out)?;
                    shown_last = Some(pos);
                }
                if no_input {
                    return Ok(model_code(&ended));
                }
                match lines.next() {
                    Some(l) => match l.context("cannot read standard input (type your moves, or give them with --moves and --no-input)")? {
                        Some(l) => l.trim().to_string(),
                        None => {
                            writeln!(out, "{}", too_long())?;
                            continue;
                        }
                    },
                    None => return Ok(model_code(&ended)),
                }
            }
        };
        match text.to_ascii_lowercase().as_str() {
            "" => continue,
            "q" | "quit" | "exit" => return Ok(model_code(&ended)),
            "u" | "undo" => match turns.pop() {
                // your last move and the model's answer
                Some(before) => {
                    pos = before;
                    ended = None;
                    writeln!(out, "took back your last move")?;
                }
                None => writeln!(out, "nothing to undo")?,
            },
            _ => match typed_column(&text) {
                Some(_) if ended.is_some() => {
                    let said = ended.as_ref().map_or("", |end| end.said.as_str());
                    writeln!(
                        out,
                        "the game is over ({said}): u takes back your last move, q quits"
                    )?;
                }
                Some(c) if pos.can_play(c - 1) => {
                    turns.push(pos);
                    if let Some(end) = move_and_judge(&mut pos, c - 1, true) {
                        show_position(&pos, &mut out)?;
                        shown_last = Some(pos);
                        writeln!(out, "{}", end.said)?;
                        over(&mut typed, &end.said)?;
                        ended = Some(end);
                    } else {
                        // echoed, as the diagram game echoes Yellow's moves
                        writeln!(out, "you play {c}")?;
                    }
                }
                Some(c) => writeln!(out, "column {c} is full")?,
                _ => writeln!(
                    out,
                    "\"{}\": type a column 1-7, u to undo, q to quit",
                    shown(&text)
                )?,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_that_ends_is_told_in_the_mover_s_person() {
        // Red (first to move) has three in column 1 and wins there
        let threes = Position::from_moves("121212").unwrap();
        let mut pos = threes;
        let said = |end: Option<GameEnd>| end.map(|e| e.said);
        assert_eq!(
            said(move_and_judge(&mut pos, 0, true)).as_deref(),
            Some("you play 1 and win")
        );
        let mut pos = threes;
        assert_eq!(
            said(move_and_judge(&mut pos, 0, false)).as_deref(),
            Some("the model plays 1 and wins")
        );
        // a quiet move ends nothing
        let mut pos = Position::new();
        assert_eq!(move_and_judge(&mut pos, 3, true), None);
        assert_eq!(pos.moves_played(), 1);
    }
}
