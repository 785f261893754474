//! Playing Yellow against a diagram: Red's replies are derived from it move by move.

use c4lab_board::{cell_bit, column_mask, Player, Position, HEIGHT, WIDTH};
use thiserror::Error;

use crate::{decide, Cell, Diagram, Levels, RootError, Rule};

/// Why a game cannot start or a Yellow move was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlayError {
    /// The diagram's stones are not a root Red can move from.
    #[error(transparent)]
    Root(#[from] RootError),
    /// The root already holds a four.
    #[error("the root already holds a four: there is no game to play")]
    RootTerminal,
    /// The game has ended, or stopped at an undecided cell.
    #[error("Yellow's move {ply} (column {column}): the game stops here ({status}), so no move can follow")]
    Over {
        /// 1-based index of the refused Yellow move.
        ply: usize,
        /// Its column, 1-based as given.
        column: usize,
        /// How it ended.
        status: String,
    },
    /// A column outside 1..7.
    #[error("Yellow's move {ply}: there is no column {column} (columns are 1-7)")]
    Column {
        /// 1-based index of the refused Yellow move.
        ply: usize,
        /// The column, 1-based as given.
        column: usize,
    },
    /// A full column.
    #[error("Yellow's move {ply}: column {column} is full")]
    Full {
        /// 1-based index of the refused Yellow move.
        ply: usize,
        /// The column, 1-based.
        column: usize,
    },
}

/// Where a game stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// Yellow is to move.
    YellowToMove,
    /// Red made four.
    RedWon,
    /// Yellow made four.
    YellowWon,
    /// The board is full.
    Draw,
    /// The diagram names no move for Red: the line is lost.
    NoMove,
    /// Red's move turns on the level of an undecided (`?`) playable cell, in these
    /// columns (0-based): the game cannot go on until it has one.
    Undecided {
        /// The columns whose playable cell is undecided.
        columns: Vec<u8>,
    },
}

impl Status {
    /// A short description.
    pub fn describe(&self) -> String {
        match self {
            Status::YellowToMove => "Yellow to move".into(),
            Status::RedWon => "Red wins".into(),
            Status::YellowWon => "Yellow wins".into(),
            Status::Draw => "a draw: the diagram did not win".into(),
            Status::NoMove => "the diagram names no move: Red loses".into(),
            Status::Undecided { columns } => {
                let cols: Vec<String> = columns.iter().map(|c| (c + 1).to_string()).collect();
                format!(
                    "Red's move depends on the undecided (?) cell{} in column{} {}: give {} a level to play on",
                    if cols.len() == 1 { "" } else { "s" },
                    if cols.len() == 1 { "" } else { "s" },
                    cols.join(", "),
                    if cols.len() == 1 { "it" } else { "them" }
                )
            }
        }
    }
}

/// One move of a game; Red's moves carry the rule that chose them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    /// Who moved.
    pub player: Player,
    /// The column, 0-based (`None` for Red when the diagram named no move).
    pub column: Option<usize>,
    /// The rule that fired, for Red's moves.
    pub rule: Option<Rule>,
}

/// A game of Yellow (the user) against a diagram (Red).
#[derive(Debug, Clone)]
pub struct Game {
    root: Position,
    levels: Levels,
    /// The undecided (`?`) cells as a bitboard.
    undecided: u64,
    position: Position,
    log: Vec<Played>,
    status: Status,
}

impl Game {
    /// Starts at the diagram's root; Red moves first (a full board at the root is a
    /// draw, with no move).
    pub fn new(diagram: &Diagram) -> Result<Game, PlayError> {
        let root = diagram.root()?.position;
        if root.winner().is_some() {
            return Err(PlayError::RootTerminal);
        }
        let mut undecided = 0;
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                if diagram.cell(x, y) == Cell::Undecided {
                    undecided |= cell_bit(x, y);
                }
            }
        }
        let mut game = Game {
            root,
            levels: diagram.levels(),
            undecided,
            position: root,
            log: vec![],
            status: Status::YellowToMove,
        };
        // a full board at the root is a draw, as the verifier calls it; Red has no move
        // to name, so none is logged
        if root.is_full() {
            game.status = Status::Draw;
        } else {
            game.red_turn();
        }
        Ok(game)
    }

    /// Starts a game and plays the Yellow moves of `line` (0-based columns).
    pub fn replay(diagram: &Diagram, line: &[u8]) -> Result<Game, PlayError> {
        let mut game = Game::new(diagram)?;
        for &c in line {
            game.yellow(c as usize)?;
        }
        Ok(game)
    }

    /// Plays Yellow's move in column `x` (0-based), then Red's reply.
    pub fn yellow(&mut self, x: usize) -> Result<(), PlayError> {
        let ply = self.yellow_moves() + 1;
        if self.status != Status::YellowToMove {
            return Err(PlayError::Over {
                ply,
                column: x + 1,
                status: self.status.describe(),
            });
        }
        if x >= WIDTH {
            return Err(PlayError::Column { ply, column: x + 1 });
        }
        if !self.position.can_play(x) {
            return Err(PlayError::Full { ply, column: x + 1 });
        }
        self.position.play(x);
        self.log.push(Played {
            player: Player::Yellow,
            column: Some(x),
            rule: None,
        });
        if self.position.winner().is_some() {
            self.status = Status::YellowWon;
        } else if self.position.is_full() {
            self.status = Status::Draw;
        } else {
            self.red_turn();
        }
        Ok(())
    }

    /// Takes back the last Yellow move and Red's reply; false at the root.
    pub fn undo(&mut self) -> bool {
        let Some(last_yellow) = self.log.iter().rposition(|m| m.player == Player::Yellow) else {
            return false;
        };
        self.log.truncate(last_yellow);
        self.position = self.root;
        for m in &self.log {
            if let Some(c) = m.column {
                self.position.play(c);
            }
        }
        self.status = Status::YellowToMove;
        true
    }

    fn red_turn(&mut self) {
        let decision = decide(&self.position, &self.levels);
        // rules 1 and 2 read no level; rule 3 could pick any undecided playable cell,
        // or be tied by it, depending on the level it is given
        let open = self.position.playable() & self.undecided;
        if open != 0 && matches!(decision.rule, Rule::Level { .. } | Rule::NoMove { .. }) {
            let columns = (0..WIDTH as u8)
                .filter(|&x| open & column_mask(x as usize) != 0)
                .collect();
            self.status = Status::Undecided { columns };
            return;
        }
        self.log.push(Played {
            player: Player::Red,
            column: decision.column,
            rule: Some(decision.rule),
        });
        match decision.column {
            None => self.status = Status::NoMove,
            Some(c) => {
                self.position.play(c);
                if self.position.winner().is_some() {
                    self.status = Status::RedWon;
                } else if self.position.is_full() {
                    self.status = Status::Draw;
                }
            }
        }
    }

    /// The number of Yellow moves played.
    pub fn yellow_moves(&self) -> usize {
        self.log
            .iter()
            .filter(|m| m.player == Player::Yellow)
            .count()
    }

    /// The Yellow moves played, 0-based columns.
    pub fn yellow_line(&self) -> Vec<u8> {
        self.log
            .iter()
            .filter(|m| m.player == Player::Yellow)
            .filter_map(|m| m.column.map(|c| c as u8))
            .collect()
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The root position.
    pub fn root(&self) -> &Position {
        &self.root
    }

    /// Every move since the root, Red's with their rules.
    pub fn log(&self) -> &[Played] {
        &self.log
    }

    /// Where the game stands.
    pub fn status(&self) -> &Status {
        &self.status
    }
}

/// Yellow's `line` against `diagram`, mirrored for the mirror image of the diagram
/// ([`Diagram::mirror`]): where the mirrored game parts from the mirror image of the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MirroredLine {
    /// Each move's mirror image (0-based columns), up to the parting, when there is one.
    pub line: Vec<u8>,
    /// The first Red answer that is not the mirror image of the game's own, when one is
    /// (an answer to the line's last move cuts nothing: the game shows it).
    pub parted: Option<Parting>,
}

/// Where a mirrored game parts from the mirror image of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parting {
    /// Red's answer to this Yellow move (0: Red's first move); the moves up to it are kept.
    pub answer: usize,
    /// Red's move in the mirrored game (0-based column; `None`: Red makes none).
    pub mirrored: Option<usize>,
    /// The mirror image of Red's move in the game.
    pub expected: Option<usize>,
}

/// Mirrors Yellow's `line` against `diagram` (a line that replays against it). Red's
/// rules are not all mirror-symmetric (with two winning or blocking cells Red takes the
/// leftmost column), so the mirrored game can part from the mirror image: the line is cut
/// after the Yellow move whose answer parted, as an edit cuts Play's line.
pub fn mirror_line(diagram: &Diagram, line: &[u8]) -> Result<MirroredLine, PlayError> {
    let mirror = |x: usize| WIDTH - 1 - x;
    let reds = |g: &Game| -> Vec<Option<usize>> {
        g.log()
            .iter()
            .filter(|m| m.player == Player::Red)
            .map(|m| m.column)
            .collect()
    };
    let game = Game::replay(diagram, line)?;
    let expected: Vec<Option<usize>> = reds(&game).into_iter().map(|c| c.map(mirror)).collect();
    let mut mirrored = Game::new(&diagram.mirror())?;
    let mut out = Vec::with_capacity(line.len());
    for (k, &y) in line.iter().enumerate() {
        // Red's answer before Yellow's move k + 1 (the answers before it matched); a
        // parted answer to the line's last move cuts nothing: the game shows it
        let got = reds(&mirrored);
        if got.get(k) != expected.get(k) {
            let at = |v: &[Option<usize>]| v.get(k).copied().flatten();
            return Ok(MirroredLine {
                line: out,
                parted: Some(Parting {
                    answer: k,
                    mirrored: at(&got),
                    expected: at(&expected),
                }),
            });
        }
        let x = mirror(y as usize);
        mirrored.yellow(x)?;
        out.push(x as u8);
    }
    Ok(MirroredLine {
        line: out,
        parted: None,
    })
}
