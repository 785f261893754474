//! Move sequences: the column-digit strings (`"4453"`) used everywhere in text.

use crate::{MoveError, Position, WIDTH};

/// Parses a move sequence into 0-based columns, checking legality ply by ply.
///
/// Surrounding whitespace is ignored; an empty string is the empty board.
pub fn parse_moves(text: &str) -> Result<Vec<u8>, MoveError> {
    let mut pos = Position::new();
    let mut out = Vec::with_capacity(text.len());
    for (i, ch) in text.trim().chars().enumerate() {
        let ply = i + 1;
        let column = match ch.to_digit(10) {
            Some(d @ 1..=7) => d as usize - 1,
            _ => return Err(MoveError::BadChar { ply, ch }),
        };
        if let Some(winner) = pos.winner() {
            return Err(MoveError::GameOver {
                ply,
                winner: winner.name(),
            });
        }
        if !pos.can_play(column) {
            return Err(MoveError::ColumnFull {
                ply,
                column: column + 1,
            });
        }
        pos.play(column);
        out.push(column as u8);
    }
    Ok(out)
}

/// Reads column digits 1-7 into 0-based columns without playing them (a caller that
/// plays them judges each move; [`parse_moves`] does both). Whitespace is not skipped.
pub fn parse_columns(text: &str) -> Result<Vec<u8>, MoveError> {
    text.chars()
        .enumerate()
        .map(|(i, ch)| match ch.to_digit(10) {
            Some(d @ 1..=7) => Ok(d as u8 - 1),
            _ => Err(MoveError::BadChar { ply: i + 1, ch }),
        })
        .collect()
}

/// Formats 0-based columns as a move sequence of digits 1-7.
pub fn format_moves(columns: &[u8]) -> String {
    columns
        .iter()
        .map(|&c| {
            debug_assert!((c as usize) < WIDTH);
            char::from(b'1' + c)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_formats() {
        assert_eq!(parse_moves(" 4453\n").unwrap(), vec![3, 3, 4, 2]);
        assert_eq!(format_moves(&[3, 3, 4, 2]), "4453");
        assert_eq!(parse_moves("").unwrap(), Vec::<u8>::new());
    }

    #[test]
    fn names_the_ply_and_reason() {
        assert_eq!(
            parse_moves("448").unwrap_err(),
            MoveError::BadChar { ply: 3, ch: '8' }
        );
        // a separator between moves is named as one, with the fix
        let err = parse_moves("4453 4451").unwrap_err().to_string();
        assert!(
            err.ends_with(
                "is not a column; write columns as digits 1-7, with nothing between them"
            ),
            "{err}"
        );
        assert!(!parse_moves("448")
            .unwrap_err()
            .to_string()
            .contains("between"));
        assert_eq!(
            parse_moves("1111111").unwrap_err(),
            MoveError::ColumnFull { ply: 7, column: 1 }
        );
        assert!(!MoveError::ColumnFull { ply: 7, column: 1 }
            .to_string()
            .contains("board is full"));
        // a move after a drawn full board says so
        let drawn = "257771314744647214154617633623313656555222";
        let err = parse_moves(&format!("{drawn}4")).unwrap_err();
        assert_eq!(err, MoveError::ColumnFull { ply: 43, column: 4 });
        assert!(err.to_string().contains("the board is full"), "{err}");
        let err = parse_moves("12121211").unwrap_err();
        assert_eq!(
            err,
            MoveError::GameOver {
                ply: 8,
                winner: "Red"
            }
        );
        assert!(err.to_string().contains("four in a row at move 7"));
    }
}
