//! The old seven-marker language, translated exactly as the README's language section says.
//!
//! Claimeven is live on board rows 2, 4, 6 (grid rows `yt` even), claimodd on rows 1,
//! 3, 5 (`yt` odd); a claim marker on the other parity is inert and becomes level 9.

use c4lab_board::WIDTH;

use crate::{Cell, Diagram};

/// True for the characters that mark a grid as old-language.
pub(crate) fn is_marker(ch: char) -> bool {
    matches!(ch, '!' | '@' | '|' | '+' | '=' | '-' | '.' | ' ')
}

/// The level-language cell for an old character at grid row `yt` (0 = top).
pub(crate) fn translate(ch: char, yt: usize) -> Option<Cell> {
    let even = yt.is_multiple_of(2);
    Some(match ch {
        '1' => Cell::Red,
        '2' => Cell::Yellow,
        '!' => Cell::Level(0),
        '@' => Cell::Level(1),
        '.' | ' ' => Cell::Level(if even { 2 } else { 9 }),
        '|' => Cell::Level(if even { 9 } else { 2 }),
        '+' => Cell::Level(3),
        '=' => Cell::Level(4),
        '-' => Cell::Level(5),
        _ => return None,
    })
}

/// The old grid for a diagram whose levels are all in {0..5, 9}; `.` for claimeven.
pub(crate) fn to_legacy(d: &Diagram) -> Result<String, String> {
    if d.cells()
        .iter()
        .all(|c| matches!(c, Cell::Red | Cell::Yellow))
    {
        // with no marker the grid would read back as the level language (an empty board)
        return Err("every cell holds a stone, so the old-language grid would be only 1s and 2s, which reads back as a level grid; keep the level grid".into());
    }
    let mut s = String::with_capacity(48);
    for (i, cell) in d.cells().iter().enumerate() {
        let (yt, x) = (i / WIDTH, i % WIDTH);
        let even = yt % 2 == 0;
        s.push(match cell {
            Cell::Red => '1',
            Cell::Yellow => '2',
            Cell::Level(0) => '!',
            Cell::Level(1) => '@',
            Cell::Level(2) => if even { '.' } else { '|' },
            Cell::Level(9) => if even { '|' } else { '.' },
            Cell::Level(3) => '+',
            Cell::Level(4) => '=',
            Cell::Level(5) => '-',
            other => {
                return Err(format!(
                    "row {} (from the top), column {}: {:?} has no old-language marker; only levels 0-5 and 9 do",
                    yt + 1,
                    x + 1,
                    other.to_char()
                ))
            }
        });
        if x == WIDTH - 1 {
            s.push('\n');
        }
    }
    Ok(s)
}
