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
            Status::Draw => "draw".into(),
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
