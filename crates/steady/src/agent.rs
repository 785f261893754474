//! Red's decision at a position (the README's language section): win, else block, else
//! the lowest unique level.

use c4lab_board::{column_of, winning_cells, Position, BOARD_MASK, BOTTOM_MASK};

use crate::{level_name, Levels};

/// The rule that chose Red's move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rule {
    /// Rule 1: an immediate win (lowest column).
    Win,
    /// Rule 2: block Yellow's immediate win (lowest column).
    Block,
    /// Rule 3: the lowest level held by exactly one playable cell.
    Level {
        /// The level that fired.
        level: u8,
        /// Lower levels skipped because two or more playable cells held them.
        tied: Vec<Tie>,
    },
    /// No level is held by exactly one playable cell: the diagram names no move.
    NoMove {
        /// The levels present among the playable cells (each held by two or more).
        tied: Vec<Tie>,
    },
}

/// A level held by two or more playable cells, and their columns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tie {
    /// The level.
    pub level: u8,
    /// The 0-based columns whose playable cell holds it.
    pub columns: Vec<u8>,
}

fn ties(levels: &Levels, playable: u64, below: u8) -> Vec<Tie> {
    levels
        .tied(playable, below)
        .into_iter()
        .map(|level| {
            let mut cells = playable & levels.mask(level);
            let mut columns = Vec::new();
            while cells != 0 {
                columns.push(column_of(cells & cells.wrapping_neg()) as u8);
                cells &= cells - 1;
            }
            Tie { level, columns }
        })
        .collect()
}

impl Rule {
    /// A short description for move logs, e.g. `level 3, lower levels tied: 1, 2`.
    pub fn describe(&self) -> String {
        let list = |t: &[Tie]| {
            t.iter()
                .map(|tie| {
                    let cols: Vec<String> =
                        tie.columns.iter().map(|c| (c + 1).to_string()).collect();
                    format!("{} in columns {}", level_name(tie.level), cols.join(", "))
                })
                .collect::<Vec<_>>()
                .join("; ")
        };
        match self {
            Rule::Win => "win".into(),
            Rule::Block => "block".into(),
            Rule::Level { level, tied } if tied.is_empty() => {
                format!("level {}", level_name(*level))
            }
            Rule::Level { level, tied } => {
                let name = level_name(*level);
                format!("level {name}, lower levels tied: {}", list(tied))
            }
            Rule::NoMove { tied } if tied.is_empty() => {
                "no move (no levelled playable cell)".into()
            }
            Rule::NoMove { tied } => format!("no move, every level tied: {}", list(tied)),
        }
    }
}

/// Red's move and the rule that chose it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The column (0-based) Red plays, `None` when the diagram names no move.
    pub column: Option<usize>,
    /// The rule that fired.
    pub rule: Rule,
}

/// The bare decision the verifier's hot path needs: which cell, and by which rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    /// Red wins at once.
    Win,
    /// Red blocks at this cell.
    Block(u64),
    /// Red plays this cell, chosen by this level.
    Level(u64, u8),
    /// The diagram names no move.
    NoMove,
}

/// Decides for the side holding `own` with `mask` occupied: rules 1, 2 and 3 in order.
#[inline(always)]
pub fn choose(own: u64, mask: u64, levels: &Levels) -> Choice {
    let playable = (mask + BOTTOM_MASK) & BOARD_MASK;
    if winning_cells(own, mask) & playable != 0 {
        return Choice::Win;
    }
    choose_without_win(own, mask, playable, levels)
}

/// Rules 2 and 3, for a position where the side to move has no immediate win.
#[inline(always)]
pub(crate) fn choose_without_win(own: u64, mask: u64, playable: u64, levels: &Levels) -> Choice {
    let threats = winning_cells(own ^ mask, mask) & playable;
    if threats != 0 {
        return Choice::Block(threats & threats.wrapping_neg());
    }
    match levels.pick(playable) {
        Some((cell, level)) => Choice::Level(cell, level),
        None => Choice::NoMove,
    }
}

/// Red's decision at `pos` (the side to move follows the diagram), with its rule.
///
/// `levels` holds no `?` cell ([`Levels`] leaves them out), so a playable `?` is
/// neither picked nor counted in a tie here: callers screen such diagrams out first
/// (`verify` says `incomplete`, Play stops where Red's move turns on a `?`).
pub fn decide(pos: &Position, levels: &Levels) -> Decision {
    let playable = pos.playable();
    match choose(pos.current(), pos.mask(), levels) {
        Choice::Win => {
            let w = pos.winning_moves();
            Decision {
                column: Some(column_of(w & w.wrapping_neg())),
                rule: Rule::Win,
            }
        }
        Choice::Block(cell) => Decision {
            column: Some(column_of(cell)),
            rule: Rule::Block,
        },
        Choice::Level(cell, level) => Decision {
            column: Some(column_of(cell)),
            rule: Rule::Level {
                level,
                tied: ties(levels, playable, level),
            },
        },
        Choice::NoMove => Decision {
            column: None,
            rule: Rule::NoMove {
                tied: ties(levels, playable, u8::MAX),
            },
        },
    }
}
