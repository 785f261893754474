//! Share links: a compact, versioned URL fragment carrying a root, a diagram and,
//! optionally, the Yellow moves played against it.
//!
//! Version 1: `1.<root>.<cells>[.<line>]`
//! - `root`: the root's move sequence (digits 1-7), `-` for the empty board;
//! - `cells`: one character per cell empty at the root, grid order (top row first,
//!   left to right): `0`-`9`, `a`-`d` or `?`. A run of 3 to 28 equal characters may be
//!   written `*` + a count letter (`A` = 3 ... `Z` = 28) + the character;
//! - `line`: Yellow's moves in Play mode (digits 1-7), absent when none.
//!
//! Every character is one a URL fragment carries unescaped.

use c4lab_board::{format_moves, parse_moves, MoveError, Position, CELLS};
use thiserror::Error;

use crate::play::{Game, PlayError, Status};
use crate::{Cell, Diagram, RootError};

/// The version this module writes.
pub const VERSION: &str = "1";
const RUN_MIN: usize = 3;
const RUN_MAX: usize = RUN_MIN + 25;

/// Why a share link was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LinkError {
    /// Nothing after the `#`.
    #[error("the link carries no diagram (nothing after '#'): the Lab's address holds it after the '#' (`…/#1.<root>.<cells>`), and a bare link has no '#' of its own")]
    Empty,
    /// An address with no `#` part.
    #[error("the address carries no diagram (it has no '#' part): the Lab's address holds its diagram after the '#' (`…/#1.<root>.<cells>`); copy the address while the Lab shows the diagram")]
    NoFragment,
    /// A version this build does not read.
    #[error("share link version {0:?} is not known; this build reads version 1 links (`1.<root>.<cells>`)")]
    Version(String),
    /// The wrong number of dot-separated parts.
    #[error("a version 1 link has 3 or 4 parts separated by '.', found {0}")]
    Parts(usize),
    /// The root part is empty (the empty board is written `-`).
    #[error("the link's root part is empty (`1..`): the empty board is written `-` (`1.-.<cells>`), another root as its moves; copy the link again")]
    EmptyRoot,
    /// The root is not a legal move sequence.
    #[error("the link's root: {0}")]
    Root(#[from] MoveError),
    /// The root is not a Red-to-move position without a four, with an empty cell left.
    #[error("the link's root {root:?} is no root: {why}; a root has Red to move, no four and a cell left for Red's move")]
    RootNotPlayable {
        /// The root's moves as the link gives them (at most 42 characters).
        root: String,
        /// What rules it out.
        why: NotRoot,
    },
    /// A diagram whose stones fill the board: its root has no move to share.
    #[error("the stones fill the board, so Red has no move at the root and the Lab could not open the link; share a diagram with an empty cell left")]
    FullBoard,
    /// The cell part is malformed.
    #[error("the link's cells: {0}")]
    Cells(String),
    /// The Yellow line does not replay.
    #[error("the link's Yellow line: {0}")]
    Line(String),
    /// A percent escape that decodes to no text (a byte of no UTF-8 character).
    #[error("the link's {escape} (byte {byte}) decodes to no text character; a link is plain ASCII (`%3F` for `?`): copy it again")]
    Escape {
        /// The escape as written, `%FF`.
        escape: String,
        /// Its 1-based byte in the text read.
        byte: usize,
    },
    /// The diagram's root cannot be shared (stones that are no position, Yellow to move,
    /// or a four).
    #[error(transparent)]
    Diagram(#[from] RootError),
}

/// Why a share link's root is no root.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NotRoot {
    /// The last move made a four.
    #[error("{winner} made four in a row with move {ply}")]
    Four {
        /// Who made it: "Red" or "Yellow".
        winner: &'static str,
        /// The move that made it, from 1.
        ply: usize,
    },
    /// Every cell holds a stone.
    #[error("the board is full")]
    Full,
    /// An odd number of moves: Yellow is to move.
    #[error("after its {moves} move{} Yellow is to move (a root has an even number of moves)", plural(*.moves))]
    YellowToMove {
        /// The root's moves.
        moves: usize,
    },
}

/// "s" but for one.
pub(crate) fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// What a share link carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shared {
    /// The diagram, root stones included.
    pub diagram: Diagram,
    /// The root's move order (0-based columns).
    pub root: Vec<u8>,
    /// Yellow's moves played against the diagram (0-based columns).
    pub line: Vec<u8>,
    /// Moves of the link's Yellow line left out after `line`, where play stops at an
    /// undecided cell (0 for a link whose line replays whole).
    pub dropped: usize,
}

/// Encodes a diagram (its root order derived from its stones) and a Yellow line.
pub fn encode(diagram: &Diagram, line: &[u8]) -> Result<String, LinkError> {
    let root = diagram.root()?;
    if let Some(winner) = root.position.winner() {
        // `decode` refuses such a root, so the link could never be opened
        return Err(RootError::Won { winner }.into());
    }
    if root.position.is_full() {
        // nor a full board, where Red has no move (the Lab refuses it as a root too)
        return Err(LinkError::FullBoard);
    }
    // nor could it be opened if its Yellow line does not replay
    Game::replay(diagram, line).map_err(|e| LinkError::Line(e.to_string()))?;
    let mut cells = String::new();
    let chars: Vec<char> = (0..6)
        .rev()
        .flat_map(|y| (0..7).map(move |x| (x, y)))
        .filter(|&(x, y)| root.position.stone(x, y).is_none())
        .map(|(x, y)| diagram.cell(x, y).to_char())
        .collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let run = chars[i..]
            .iter()
            .take_while(|&&d| d == c)
            .count()
            .min(RUN_MAX);
        if run >= RUN_MIN {
            cells.push('*');
            cells.push(char::from(b'A' + (run - RUN_MIN) as u8));
            cells.push(c);
        } else {
            cells.extend(std::iter::repeat_n(c, run));
        }
        i += run;
    }
    let root_text = if root.order.is_empty() {
        "-".to_string()
    } else {
        format_moves(&root.order)
    };
    let mut out = format!("{VERSION}.{root_text}.{cells}");
    if !line.is_empty() {
        out.push('.');
        out.push_str(&format_moves(line));
    }
    Ok(out)
}

/// Decodes a link, a bare fragment, or a whole URL (everything up to `#` is skipped).
pub fn decode(link: &str) -> Result<Shared, LinkError> {
    let fragment = link.trim();
    if fragment.contains("://") && !fragment.contains('#') {
        return Err(LinkError::NoFragment);
    }
    let fragment = fragment.split_once('#').map_or(fragment, |(_, f)| f);
    if fragment.is_empty() {
        return Err(LinkError::Empty);
    }
    let parts: Vec<&str> = fragment.split('.').collect();
    if parts[0] != VERSION {
        let v: String = parts[0].chars().take(12).collect();
        return Err(LinkError::Version(v));
    }
    if !(3..=4).contains(&parts.len()) {
        return Err(LinkError::Parts(parts.len()));
    }
    let root_text = match parts[1] {
        "" => return Err(LinkError::EmptyRoot),
        "-" => "",
        moves => moves,
    };
    let order = parse_moves(root_text)?;
    let position = Position::from_moves(root_text)?;
    let moves = position.moves_played() as usize;
    let why = if let Some(winner) = position.winner() {
        // (a move after a four is refused by the move reader, so the last move made it)
        Some(NotRoot::Four {
            winner: winner.name(),
            ply: moves,
        })
    } else if position.is_full() {
        Some(NotRoot::Full)
    } else if !moves.is_multiple_of(2) {
        Some(NotRoot::YellowToMove { moves })
    } else {
        None
    };
    if let Some(why) = why {
        return Err(LinkError::RootNotPlayable {
            root: root_text.chars().take(42).collect(),
            why,
        });
    }
    let levels = expand_cells(parts[2], CELLS - position.moves_played() as usize)?;
    let mut next = levels.into_iter();
    let diagram = Diagram::from_root(&position, |_, _| next.next().unwrap_or(Cell::Undecided));
    let line = match parts.get(3) {
        None => vec![],
        Some(text) => parse_line(text)?,
    };
    let given = line.len();
    let line = replayed(&diagram, line)?;
    Ok(Shared {
        diagram,
        root: order,
        dropped: given - line.len(),
        line,
    })
}

/// The Yellow line as far as it replays: refused where a move cannot be played, but cut
/// where the game stops at an undecided cell (a link made before such stops, whose
/// diagram should still open).
fn replayed(diagram: &Diagram, mut line: Vec<u8>) -> Result<Vec<u8>, LinkError> {
    let refused = |e: PlayError| LinkError::Line(e.to_string());
    let mut game = Game::new(diagram).map_err(refused)?;
    for (i, &x) in line.iter().enumerate() {
        if matches!(game.status(), Status::Undecided { .. }) {
            line.truncate(i);
            break;
        }
        game.yellow(x as usize).map_err(|e| {
            // the fix: the part of the line that replays
            let keep = match i {
                0 => {
                    "no move of it replays: remove the line (the link's last '.' part)".to_string()
                }
                _ => format!(
                    "{}: end the link with .{}",
                    if i == 1 {
                        "its first move replays".to_string()
                    } else {
                        format!("its first {i} moves replay")
                    },
                    c4lab_board::format_moves(&line[..i])
                ),
            };
            LinkError::Line(format!("{e}; {keep}"))
        })?;
    }
    Ok(line)
}

fn parse_line(text: &str) -> Result<Vec<u8>, LinkError> {
    c4lab_board::parse_columns(text).map_err(|e| LinkError::Line(e.to_string()))
}

/// Expands the cell part into exactly `want` level cells.
fn expand_cells(text: &str, want: usize) -> Result<Vec<Cell>, LinkError> {
    // each fault is placed by its character's number in the cell part (from 1)
    let level = |(at, ch): (usize, char)| match Cell::from_char(ch) {
        Some(c @ (Cell::Level(_) | Cell::Undecided)) => Ok(c),
        _ => Err(LinkError::Cells(format!(
            "{} (character {} of them) is not a level (0-9, a-d) or ?",
            c4lab_board::char_shown(ch),
            at + 1
        ))),
    };
    let ends_early = |at: usize| {
        LinkError::Cells(format!(
            "the run at character {} ends early (a run is '*', a letter A-Z and a level)",
            at + 1
        ))
    };
    let mut out = Vec::with_capacity(want);
    let mut given = 0;
    let mut chars = text.chars().enumerate();
    while let Some((at, ch)) = chars.next() {
        if ch == '*' {
            let (_, count) = chars.next().ok_or_else(|| ends_early(at))?;
            if !count.is_ascii_uppercase() {
                return Err(LinkError::Cells(format!(
                    "the run at character {}: its length {count:?} is not a letter A-Z",
                    at + 1
                )));
            }
            let c = level(chars.next().ok_or_else(|| ends_early(at))?)?;
            let n = count as usize - 'A' as usize + RUN_MIN;
            // (past `want` the cells are only counted, for the message)
            out.extend(std::iter::repeat_n(c, n.min(want - out.len())));
            given += n;
        } else {
            let c = level((at, ch))?;
            if out.len() < want {
                out.push(c);
            }
            given += 1;
        }
    }
    if given != want {
        return Err(LinkError::Cells(format!(
            "the root leaves {want} empty cells but the link gives {given}"
        )));
    }
    Ok(out)
}
