//! Loading a position from its stones alone, deriving a legal move order.

use std::collections::HashSet;

use crate::bits::{cell_bit, column_mask, has_four, BOTTOM_MASK};
use crate::{Player, Position, StonesError, HEIGHT, WIDTH};

/// A position loaded from stones, with one legal move order that reaches it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoneGrid {
    /// The position the stones describe.
    pub position: Position,
    /// A legal game (0-based columns) from the empty board to `position`.
    pub order: Vec<u8>,
}

impl StoneGrid {
    /// Checks Red's and Yellow's stones (bitboards) and derives a legal move order.
    ///
    /// Refuses floating stones, counts other than Red = Yellow or Red = Yellow + 1, and
    /// stones that every move order would pass through a four to build.
    pub fn from_bitboards(red: u64, yellow: u64) -> Result<StoneGrid, StonesError> {
        let mask = red | yellow;
        for x in 0..WIDTH {
            let col = (mask & column_mask(x)) >> (x * (HEIGHT + 1));
            // a column's stones must be a contiguous run from the bottom
            if col & (col + 1) != 0 {
                let row = (0..HEIGHT).find(|&y| col & (1 << y) == 0).unwrap_or(0);
                let floating = (row..HEIGHT).find(|&y| col & (1 << y) != 0).unwrap_or(row);
                return Err(StonesError::Floating {
                    column: x + 1,
                    row: floating + 1,
                });
            }
        }
        let (r, y) = (red.count_ones(), yellow.count_ones());
        if r != y && r != y + 1 {
            return Err(StonesError::Counts {
                red: r,
                yellow: y,
                need: "Red moves first, so Red has as many stones as Yellow or one more",
            });
        }
        let (red_four, yellow_four) = (has_four(red), has_four(yellow));
        let last_mover = if (r + y) % 2 == 1 {
            Player::Red
        } else {
            Player::Yellow
        };
        if red_four && yellow_four {
            return Err(StonesError::Unreachable(
                "both Red and Yellow have four in a row".into(),
            ));
        }
        if (red_four && last_mover == Player::Yellow) || (yellow_four && last_mover == Player::Red)
        {
            let (won, moved) = if red_four {
                ("Red", "Yellow")
            } else {
                ("Yellow", "Red")
            };
            return Err(StonesError::Unreachable(format!(
                "{won} has four in a row, yet {moved} moved after the game was over"
            )));
        }
        let mut order = Vec::with_capacity(mask.count_ones() as usize);
        let mut dead = HashSet::new();
        if !unplay(red, yellow, &mut order, &mut dead) {
            let why = if red_four || yellow_four {
                "every order of these stones completes a four before the last stone is placed"
            } else {
                "the stones cannot be stacked in alternating turns with Red first"
            };
            return Err(StonesError::Unreachable(why.into()));
        }
        order.reverse();
        Ok(StoneGrid {
            position: Position::from_bitboards(red, yellow),
            order,
        })
    }
}

/// Removes the last mover's top stones one at a time, never passing through a position
/// that already holds a four; pushes the removed columns (last move first).
fn unplay(red: u64, yellow: u64, order: &mut Vec<u8>, dead: &mut HashSet<u64>) -> bool {
    let mask = red | yellow;
    if mask == 0 {
        return true;
    }
    let red_moved_last = mask.count_ones() % 2 == 1;
    let last = if red_moved_last { red } else { yellow };
    // the cell above each column's top stone, shifted down, is that top stone
    let tops = ((mask + BOTTOM_MASK) >> 1) & mask;
    for x in 0..WIDTH {
        let top = tops & column_mask(x);
        if top == 0 || last & top == 0 {
            continue;
        }
        let (r, y) = if red_moved_last {
            (red ^ top, yellow)
        } else {
            (red, yellow ^ top)
        };
        if has_four(r) || has_four(y) || dead.contains(&(r | y)) {
            continue;
        }
        order.push(x as u8);
        if unplay(r, y, order, dead) {
            return true;
        }
        order.pop();
    }
    dead.insert(mask);
    false
}

/// Parses six rows of stones, top row first: `R`/`1` Red, `Y`/`2` Yellow, `?`/`.`
/// empty. Blank lines around the grid and trailing whitespace are ignored.
pub fn parse_stones(text: &str) -> Result<StoneGrid, StonesError> {
    let text = crate::unified_lines(text);
    let rows: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .collect();
    if rows.len() != HEIGHT {
        return Err(StonesError::Shape(format!(
            "found {} non-blank row{}",
            rows.len(),
            if rows.len() == 1 { "" } else { "s" }
        )));
    }
    let (mut red, mut yellow) = (0u64, 0u64);
    for (yt, row) in rows.iter().enumerate() {
        let n = row.chars().count();
        if n != WIDTH {
            return Err(StonesError::Shape(format!("row {} has {n} cells", yt + 1)));
        }
        for (x, ch) in row.chars().enumerate() {
            let bit = cell_bit(x, HEIGHT - 1 - yt);
            match ch {
                'R' | 'r' | '1' => red |= bit,
                'Y' | 'y' | '2' => yellow |= bit,
                '?' | '.' => {}
                _ => {
                    return Err(StonesError::BadChar {
                        row: yt + 1,
                        column: x + 1,
                        ch,
                    })
                }
            }
        }
    }
    StoneGrid::from_bitboards(red, yellow)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{format_moves, parse_moves};

    #[test]
    fn derives_a_legal_order() {
        let p = Position::from_moves("4453").unwrap();
        let g = parse_stones(&p.to_grid()).unwrap();
        assert_eq!(g.position, p);
        let replay = Position::from_moves(&format_moves(&g.order)).unwrap();
        assert_eq!(replay, p);
        assert_eq!(parse_moves(&format_moves(&g.order)).unwrap(), g.order);
        // any line ending, and a byte-order mark, read the same
        let grid = p.to_grid();
        for text in [
            grid.replace('\n', "\r"),
            grid.replace('\n', "\r\n"),
            format!("\u{feff}{grid}"),
        ] {
            assert_eq!(parse_stones(&text).unwrap().position, p, "{text:?}");
        }
    }

    #[test]
    fn refuses_bad_stones() {
        let floating = ".......\n.......\n.......\n.......\n...R...\n..Y....\n";
        assert_eq!(
            parse_stones(floating).unwrap_err(),
            StonesError::Floating { column: 4, row: 2 }
        );
        let text = parse_stones(floating).unwrap_err().to_string();
        assert!(
            text.contains("row 2 from the bottom (row 5 of the grid, from the top)"),
            "{text}"
        );
        let counts = ".......\n.......\n.......\n.......\n.......\nRR.....\n";
        assert!(matches!(
            parse_stones(counts),
            Err(StonesError::Counts {
                red: 2,
                yellow: 0,
                ..
            })
        ));
        // Red four and Yellow moved afterwards
        let over = ".......\n.......\n.......\n.......\nY......\nRRRRYYY\n";
        let e = parse_stones(over).unwrap_err().to_string();
        assert!(e.contains("moved after the game was over"), "{e}");
        assert!(matches!(parse_stones("RY?"), Err(StonesError::Shape(_))));
        let e = parse_stones("RY?").unwrap_err().to_string();
        assert!(
            e.contains("found 1 non-blank row") && !e.contains("found 1 non-blank rows"),
            "{e}"
        );
        let bad = ".......\n.......\n.......\n.......\n.......\n..X....\n";
        assert_eq!(
            parse_stones(bad).unwrap_err(),
            StonesError::BadChar {
                row: 6,
                column: 3,
                ch: 'X'
            }
        );
    }

    #[test]
    fn refuses_positions_only_reachable_through_a_four() {
        // Red holds two fours sharing no top stone: whichever is completed first,
        // the other needs another Red move after the game is over.
        let grid = ".......\n.......\n......R\n......R\nYYY.YYR\nRRRRYYR\n";
        let e = parse_stones(grid).unwrap_err().to_string();
        assert!(e.contains("completes a four before the last stone"), "{e}");
        // Yellow under Red in the only column: Red cannot have moved first.
        let grid = ".......\n.......\n.......\n.......\nR......\nY......\n";
        let e = parse_stones(grid).unwrap_err().to_string();
        assert!(e.contains("alternating turns"), "{e}");
    }
}
