//! Diagrams: the 42-cell level grid, its text forms, its root and its level layer.

use c4lab_board::{cell_bit, Player, Position, StoneGrid, HEIGHT, WIDTH};

use crate::legacy;
use crate::{DiagramError, RootError, LEVELS};

/// What one cell of a diagram holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cell {
    /// A priority level, 0 (strongest) ..= 13; `a`..`d` are 10..13.
    Level(u8),
    /// A Red stone at the root.
    Red,
    /// A Yellow stone at the root.
    Yellow,
    /// Undecided (`?`): never fires; a diagram holding one has no verdict.
    Undecided,
}

/// A level as the grid writes it (`0`..`9`, `a`..`d` for 10..13), so a text names a
/// weak level as the board shows it.
pub fn level_name(level: u8) -> char {
    Cell::Level(level).to_char()
}

impl Cell {
    /// The cell's character in the level language.
    pub fn to_char(self) -> char {
        match self {
            Cell::Level(l @ 0..=9) => char::from(b'0' + l),
            Cell::Level(l) => char::from(b'a' + (l - 10)),
            Cell::Red => 'R',
            Cell::Yellow => 'Y',
            Cell::Undecided => '?',
        }
    }

    /// Reads a level-language character.
    pub fn from_char(ch: char) -> Option<Cell> {
        Some(match ch {
            '0'..='9' => Cell::Level(ch as u8 - b'0'),
            'a'..='d' => Cell::Level(ch as u8 - b'a' + 10),
            'R' => Cell::Red,
            'Y' => Cell::Yellow,
            '?' => Cell::Undecided,
            _ => return None,
        })
    }
}

/// Which language a diagram text was written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// The level language: `0`-`9`, `a`-`d`, `R`, `Y`, `?`.
    Levels,
    /// The old seven-marker language (`1`/`2` stones, `! @ . | + = -`), translated.
    Legacy,
}

impl Language {
    /// A short name for messages.
    pub fn name(self) -> &'static str {
        match self {
            Language::Levels => "level",
            Language::Legacy => "old seven-marker",
        }
    }
}

/// A diagram read from text, with what was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedDiagram {
    /// The diagram, in the level language.
    pub diagram: Diagram,
    /// The language the text was written in.
    pub language: Language,
    /// True when the text was upstream's JSON form.
    pub json: bool,
}

/// A steady-state diagram: every cell's level or root stone, grid order (top row first).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Diagram {
    cells: [Cell; 42],
}

/// A diagram's root: the position its stones describe and a legal order reaching it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    /// The root position; Red is to move.
    pub position: Position,
    /// A legal move order (0-based columns) from the empty board.
    pub order: Vec<u8>,
}

fn index(x: usize, y: usize) -> usize {
    (HEIGHT - 1 - y) * WIDTH + x
}

impl Diagram {
    /// A diagram of the given cells in grid order (top row first, left to right);
    /// refused when a cell's level is over 13.
    pub fn from_cells(cells: [Cell; 42]) -> Result<Diagram, DiagramError> {
        match (0..cells.len()).find_map(|i| Some((i, out_of_range(cells[i])?))) {
            Some((i, level)) => Err(DiagramError::Level {
                row: i / WIDTH + 1,
                column: i % WIDTH + 1,
                level,
            }),
            None => Ok(Diagram { cells }),
        }
    }

    /// The root `position`'s stones with every empty cell set by `level(x, y)`, which is
    /// called in grid order (top row first, left to right).
    ///
    /// # Panics
    ///
    /// When `level` gives a level over 13 (a bug in the caller, which chose the levels).
    pub fn from_root(position: &Position, mut level: impl FnMut(usize, usize) -> Cell) -> Diagram {
        let mut cells = [Cell::Level(crate::BLANK); 42];
        for y in (0..HEIGHT).rev() {
            for x in 0..WIDTH {
                cells[index(x, y)] = match position.stone(x, y) {
                    Some(Player::Red) => Cell::Red,
                    Some(Player::Yellow) => Cell::Yellow,
                    None => level(x, y),
                };
            }
        }
        // (said here, where the caller can be named, not deep in the verifier)
        Diagram::from_cells(cells).unwrap_or_else(|e| panic!("Diagram::from_root: {e}"))
    }

    /// Parses a level grid, an old seven-marker grid or upstream's JSON form.
    ///
    /// Lines starting with `#` and blank lines are skipped. The language is the old one
    /// when the grid holds any of `! @ | + = - .` or a space (the README's language section).
    pub fn parse(text: &str) -> Result<ParsedDiagram, DiagramError> {
        // a byte-order mark is no part of any form, and any line ending reads as `\n`
        let text = c4lab_board::unified_lines(text);
        let text = text.as_ref();
        // comment lines around JSON, as around a grid, are no part of it (they made the
        // JSON read as a grid of one long row)
        // (blanked, not dropped: serde_json's line numbers stay the input's)
        let uncommented: Vec<&str> = (text.lines())
            .map(|l| {
                if l.trim_start().starts_with('#') {
                    ""
                } else {
                    l
                }
            })
            .collect();
        let uncommented = uncommented.join("\n");
        let trimmed = uncommented.trim();
        if trimmed.starts_with('{') {
            // (a command's --json output piped on as it is)
            return Err(DiagramError::Json(
                "this is a JSON object; c4lab's --json output holds its diagram (when it has one: a search that found it) as such an array under \"diagram\": pass that on (`jq .diagram`)".into(),
            ));
        }
        if trimmed.starts_with('[') {
            let rows: Vec<String> = serde_json::from_str(&uncommented).map_err(|e| {
                // (an array and more after it: most likely a second diagram)
                let more = if e.to_string().starts_with("trailing characters") {
                    " (text after the array: give one diagram at a time)"
                } else {
                    ""
                };
                DiagramError::Json(format!("{e}{more}"))
            })?;
            if rows.len() != HEIGHT {
                let (n, s) = (rows.len(), crate::link::plural(rows.len()));
                return Err(DiagramError::Json(format!("found {n} string{s}")));
            }
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let (diagram, language) = Self::from_rows(&rows)?;
            return Ok(ParsedDiagram {
                diagram,
                language,
                json: true,
            });
        }
        let rows: Vec<&str> = text
            .lines()
            .filter(|l| !l.trim().is_empty() || l.chars().count() == WIDTH)
            // a comment may be indented ('#' is no cell in either language)
            .filter(|l| !l.trim_start().starts_with('#'))
            .collect();
        let (diagram, language) = Self::from_rows(&rows)?;
        Ok(ParsedDiagram {
            diagram,
            language,
            json: false,
        })
    }

    /// Reads six rows, detecting the language.
    pub(crate) fn from_rows(rows: &[&str]) -> Result<(Diagram, Language), DiagramError> {
        if rows.len() != HEIGHT {
            // a line of seven blanks is a row (old-language claimeven cells): say which
            let blank: Vec<String> = (1..=rows.len())
                .filter(|&i| rows[i - 1].trim().is_empty())
                .map(|i| i.to_string())
                .collect();
            let note = match blank.len() {
                // one long line: perhaps the 42 cells on one line, miscounted
                0 if rows.len() == 1 && rows[0].chars().count() > WIDTH => {
                    let all = rows[0].chars().count();
                    let cells = rows[0].chars().filter(|c| !c.is_whitespace()).count();
                    if cells == 42 {
                        format!(
                            " (or the 42 cells on one line: this line has 42 cells and {} spaces or tabs between them: remove those)",
                            all - cells
                        )
                    } else if rows[0].contains(['\u{feff}', '\u{200b}']) {
                        // (as a grid row's are named below)
                        " (it holds an invisible character, a byte-order mark or a zero-width space: remove it)".to_string()
                    } else {
                        // (spaces at its ends are cells of an old-language line only)
                        let line = rows[0];
                        let old = line.contains(|c: char| c != ' ' && legacy::is_marker(c));
                        let n = if old { line } else { line.trim() }.chars().count();
                        format!(" (or the 42 cells on one line: this line has {n})")
                    }
                }
                // a share link wrapped over lines by a mail or a terminal (it was taken
                // for an old-language grid missing a row, or for one link a line)
                _ if rows.len() > 1 && starts_a_link(rows[0]) && crate::link::decode(&rows.iter().map(|r| r.trim()).collect::<String>()).is_ok() => {
                    " (its lines join into one share link, wrapped by a mail or a terminal: give the link on one line)".to_string()
                }
                // several share links, one a line (their dots are old-language markers)
                _ if rows.len() > 1 && rows.iter().all(|r| looks_like_link(r)) => {
                    " (each line is a share link: give one diagram at a time)".to_string()
                }
                // a link and other lines
                _ if rows.len() > 1 && starts_a_link(rows[0]) => {
                    " (its first line starts as a share link does, and a link is one line: join the lines if a mail or a terminal wrapped it, else give the link alone)".to_string()
                }
                // a row of seven spaces, stripped to nothing by an editor, is no row
                _ if rows.len() < HEIGHT && (rows.iter()).any(|r| r.contains(|c: char| c != ' ' && legacy::is_marker(c))) => {
                    " (in the old language a row of seven spaces is a row of claimeven cells: an editor may have stripped one; restore it)".to_string()
                }
                // two or more grids, one after another
                // (not 0 rows: "0 diagrams" was said of an empty input)
                0 if rows.len() >= 2 * HEIGHT && rows.len().is_multiple_of(HEIGHT) && rows.iter().all(|r| r.chars().count() == WIDTH) => format!(
                    " (that is {} diagrams of six rows: give one diagram at a time)",
                    rows.len() / HEIGHT
                ),
                // six rows of seven cells in a run and lines before or after them, a title
                // or an end mark: named (not a line among the six, which may be a row)
                0 if rows.len() > HEIGHT && six_in_a_run(rows) => {
                    let odd: Vec<String> = (rows.iter())
                        .filter(|r| r.chars().count() != WIDTH)
                        .map(|r| format!("{:?}", r.chars().take(30).collect::<String>()))
                        .collect();
                    let (them, is) = if odd.len() == 1 { ("it", "is no row") } else { ("them", "are no rows") };
                    format!(
                        " ({} {is} of seven cells: remove {them}, or begin {them} with `#` to make a comment)",
                        odd.join(", ")
                    )
                }
                0 => String::new(),
                _ if rows.len() < HEIGHT => String::new(),
                1 => format!(
                    " (row {} is seven spaces or tabs, which counts as a row of old-language claimeven cells)",
                    blank[0]
                ),
                _ => format!(
                    " (rows {} are seven spaces or tabs each, which count as rows of old-language claimeven cells)",
                    blank.join(", ")
                ),
            };
            return Err(DiagramError::Shape(format!(
                "found {} row{}{note}",
                rows.len(),
                if rows.len() == 1 { "" } else { "s" }
            )));
        }
        // an old-language grid (a marker besides the space): its spaces are cells
        let old = (rows.iter()).any(|r| r.contains(|c: char| c != ' ' && legacy::is_marker(c)));
        for (i, row) in rows.iter().enumerate() {
            let n = row.chars().count();
            if n != WIDTH {
                // whitespace is invisible in an editor, so say where it is
                let note = if row.contains(['\u{feff}', '\u{200b}']) {
                    // (a byte-order mark inside the text: files joined, each with its own)
                    " (it holds an invisible character, a byte-order mark or a zero-width space: remove it)"
                } else if old && n < WIDTH {
                    " (a space is a claimeven cell of the old language: an editor may have stripped those at the row's end; restore them)"
                } else if row.starts_with(char::is_whitespace) || row.ends_with(char::is_whitespace)
                {
                    " (it starts or ends with a space or tab: remove it)"
                } else if row.contains('\t') {
                    " (it holds a tab: use one character a cell)"
                } else if row.chars().filter(|c| !c.is_whitespace()).count() == WIDTH {
                    " (it holds spaces between its seven cells: write them without spaces)"
                } else {
                    ""
                };
                return Err(DiagramError::Shape(format!(
                    "row {} has {n} cells{note}",
                    i + 1
                )));
            }
        }
        // the first old-language marker, which decides the language
        let marker = rows.iter().enumerate().find_map(|(yt, r)| {
            r.chars()
                .enumerate()
                .find(|&(_, ch)| legacy::is_marker(ch))
                .map(|(x, ch)| (yt + 1, x + 1, ch))
        });
        // a level grid with a stray marker, rather than an old grid with a stray level
        // cell: more cells only the level language has than old markers
        let count = |f: &dyn Fn(usize, char) -> bool| -> usize {
            (rows.iter().enumerate())
                .map(|(yt, r)| r.chars().filter(|&ch| f(yt, ch)).count())
                .sum()
        };
        let markers = count(&|_, ch| legacy::is_marker(ch));
        let level_only =
            count(&|yt, ch| legacy::translate(ch, yt).is_none() && Cell::from_char(ch).is_some());
        let stray_marker = marker.filter(|_| level_only > markers);
        let language = if marker.is_some() {
            Language::Legacy
        } else {
            Language::Levels
        };
        let mut cells = [Cell::Undecided; 42];
        for (yt, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let cell = match language {
                    Language::Levels => Cell::from_char(ch),
                    Language::Legacy => legacy::translate(ch, yt),
                };
                if let (None, Some((marker_row, marker_column, marker))) = (cell, stray_marker) {
                    if Cell::from_char(ch).is_some() {
                        return Err(DiagramError::Mixed {
                            row: yt + 1,
                            column: x + 1,
                            ch,
                            marker_row,
                            marker_column,
                            marker,
                        });
                    }
                }
                cells[yt * WIDTH + x] = cell.ok_or(DiagramError::BadChar {
                    row: yt + 1,
                    column: x + 1,
                    ch,
                    language: language.name(),
                    hint: match language {
                        Language::Levels => {
                            "use levels 0-9 or a-d, R/Y for root stones, ? for undecided"
                        }
                        Language::Legacy => {
                            "the old language has stones 1/2 and markers ! @ . | + = - (or a space)"
                        }
                    },
                })?;
            }
        }
        Ok((Diagram { cells }, language))
    }

    /// The cells in grid order (top row first).
    pub fn cells(&self) -> &[Cell; 42] {
        &self.cells
    }

    /// The cell at column `x`, board row `y` (0 = bottom).
    pub fn cell(&self, x: usize, y: usize) -> Cell {
        self.cells[index(x, y)]
    }

    /// Sets the cell at column `x`, board row `y` (0 = bottom).
    ///
    /// # Panics
    ///
    /// When `cell` is a level over 13 (a bug in the caller, which chose the level).
    pub fn set(&mut self, x: usize, y: usize, cell: Cell) {
        assert!(
            out_of_range(cell).is_none(),
            "Diagram::set: {cell:?} at column {x}, row {y}: levels run from 0 to 13"
        );
        self.cells[index(x, y)] = cell;
    }

    /// Number of undecided (`?`) cells.
    pub fn undecided(&self) -> usize {
        self.cells.iter().filter(|c| **c == Cell::Undecided).count()
    }

    /// The left-right mirror image.
    pub fn mirror(&self) -> Diagram {
        let mut cells = self.cells;
        for row in cells.chunks_mut(WIDTH) {
            row.reverse();
        }
        Diagram { cells }
    }

    /// Six rows of level-language characters, top row first, each ending in a newline.
    pub fn to_grid(&self) -> String {
        let mut s = String::with_capacity(48);
        for row in self.cells.chunks(WIDTH) {
            s.extend(row.iter().map(|c| c.to_char()));
            s.push('\n');
        }
        s
    }

    /// Upstream's JSON form: an array of six row strings, top row first.
    pub fn to_json(&self) -> String {
        let rows: Vec<String> = self
            .cells
            .chunks(WIDTH)
            .map(|r| r.iter().map(|c| c.to_char()).collect())
            .collect();
        serde_json::to_string(&rows).expect("strings always serialise")
    }

    /// The old seven-marker grid, when every level has an old marker (0-5 and 9).
    pub fn to_legacy(&self) -> Result<String, String> {
        legacy::to_legacy(self)
    }

    /// Red's and Yellow's root stones as bitboards.
    pub fn stones(&self) -> (u64, u64) {
        let (mut red, mut yellow) = (0, 0);
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                match self.cell(x, y) {
                    Cell::Red => red |= cell_bit(x, y),
                    Cell::Yellow => yellow |= cell_bit(x, y),
                    _ => {}
                }
            }
        }
        (red, yellow)
    }

    /// The root position (Red to move) and a legal order reaching it.
    pub fn root(&self) -> Result<Root, RootError> {
        let (red, yellow) = self.stones();
        let StoneGrid { position, order } = StoneGrid::from_bitboards(red, yellow)?;
        if position.to_move() != Player::Red {
            // a four says more than the counts: Red made it last, and the game is over
            if let Some(winner) = position.winner() {
                return Err(RootError::Won { winner });
            }
            let (red, yellow) = (red.count_ones(), yellow.count_ones());
            return Err(RootError::NotRedToMove { red, yellow });
        }
        Ok(Root { position, order })
    }

    /// The level layer compiled for fast decisions (`?` cells never fire).
    pub fn levels(&self) -> Levels {
        let mut masks = [0u64; LEVELS];
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                if let Cell::Level(l) = self.cell(x, y) {
                    masks[l as usize] |= cell_bit(x, y);
                }
            }
        }
        Levels::from_masks(masks)
    }
}

/// The level of `cell` when it is one the language has no character for (over 13).
fn out_of_range(cell: Cell) -> Option<u8> {
    match cell {
        Cell::Level(l) if l as usize >= LEVELS => Some(l),
        _ => None,
    }
}

/// Whether exactly six of `rows` have seven characters, one after another.
fn six_in_a_run(rows: &[&str]) -> bool {
    let seven: Vec<usize> = (0..rows.len())
        .filter(|&i| rows[i].chars().count() == WIDTH)
        .collect();
    seven.len() == HEIGHT && seven[HEIGHT - 1] - seven[0] == HEIGHT - 1
}

/// Whether `line` starts as a share link does: a version number and a dot.
fn looks_like_link(line: &str) -> bool {
    line.trim()
        .trim_start_matches('#')
        .split_once('.')
        .is_some_and(|(v, _)| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether `line` begins as a share link does and is longer than a grid row (a version
/// number and a dot, then the root's moves): no row of a grid.
fn starts_a_link(line: &str) -> bool {
    line.trim().chars().count() > WIDTH && looks_like_link(line)
}

/// The level layer as one bitboard per level, for the agent's hot path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Levels {
    masks: [u64; LEVELS],
    /// The levels in use, lowest first, with their cells.
    used: [(u64, u8); LEVELS],
    n_used: usize,
}

impl Levels {
    /// Builds the layer from one bitboard of cells per level.
    pub fn from_masks(masks: [u64; LEVELS]) -> Levels {
        let mut used = [(0u64, 0u8); LEVELS];
        let mut n_used = 0;
        for (l, m) in masks.iter().enumerate() {
            if *m != 0 {
                used[n_used] = (*m, l as u8);
                n_used += 1;
            }
        }
        Levels {
            masks,
            used,
            n_used,
        }
    }

    /// The cells holding level `l`.
    pub fn mask(&self, l: u8) -> u64 {
        self.masks[l as usize]
    }

    /// The cell of the lowest level held by exactly one of the `playable` cells, with
    /// that level; `None` when no level is unique.
    #[inline]
    pub fn pick(&self, playable: u64) -> Option<(u64, u8)> {
        for &(m, l) in &self.used[..self.n_used] {
            let c = playable & m;
            if c != 0 && c & (c - 1) == 0 {
                return Some((c, l));
            }
        }
        None
    }

    /// The levels below `below` held by two or more of the `playable` cells.
    pub fn tied(&self, playable: u64, below: u8) -> Vec<u8> {
        self.used[..self.n_used]
            .iter()
            .filter(|&&(m, l)| l < below && (playable & m).count_ones() >= 2)
            .map(|&(_, l)| l)
            .collect()
    }
}
