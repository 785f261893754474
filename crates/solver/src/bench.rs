//! Benchmark files (`<moves> <score>` per line, `-` for the moves of the empty board)
//! and a clock-agnostic runner.

use c4lab_board::Position;

use crate::error::BenchError;
use crate::{immediate_win_score, Score, Solver, CELLS};

/// One benchmark position with its known exact score.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BenchCase {
    /// The move sequence as written in the file.
    pub moves: String,
    /// The position the moves reach.
    pub position: Position,
    /// The exact score from the side to move.
    pub score: Score,
}

/// Totals of a benchmark run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BenchReport {
    /// Positions solved.
    pub positions: usize,
    /// Positions whose result disagreed with the file.
    pub mismatches: usize,
    /// The first disagreement: moves, expected, found.
    pub first_mismatch: Option<(String, Score, Score)>,
    /// Nodes searched in total.
    pub nodes: u64,
    /// Search time in total, in the caller's clock units (table clearing excluded).
    pub time: u64,
}

/// Parses a benchmark file; blank lines are skipped, and `\n`, `\r\n` and a lone `\r`
/// all end a line.
pub fn parse_bench(text: &str) -> Result<Vec<BenchCase>, BenchError> {
    let mut out = Vec::new();
    let text = c4lab_board::unified_lines(text);
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() {
            continue;
        }
        let mut parts = l.split_whitespace();
        // a lone word is refused, not guessed: moves without a score, or a score
        // without moves, are both mistakes worth naming
        let (moves, score) = match (parts.next(), parts.next(), parts.next()) {
            (Some(m), Some(s), None) => (m, s),
            _ => return Err(BenchError::Shape { line }),
        };
        let played = if moves == "-" { "" } else { moves };
        let position =
            Position::from_moves(played).map_err(|source| BenchError::Moves { line, source })?;
        if let Some(winner) = position.winner() {
            let moves = position.moves_played() as usize;
            return Err(BenchError::Over {
                line,
                winner,
                moves,
            });
        }
        let score: Score = score.parse().map_err(|_| BenchError::Score {
            line,
            text: score.to_string(),
        })?;
        let n = position.moves_played();
        let (low, high) = score_bounds(n);
        if !(low..=high).contains(&score) {
            return Err(BenchError::ScoreRange {
                line,
                score,
                moves: n as usize,
                low,
                high,
            });
        }
        out.push(BenchCase {
            moves: moves.to_string(),
            position,
            score,
        });
    }
    Ok(out)
}

/// The scores games from a position of `stones` stones can end with (the solver's
/// scale): a four takes four stones of one side, so the side to move wins at best with
/// the stone that makes its fourth, and loses at worst to the opponent's fourth; a win
/// that would need a 43rd stone is no win (0 at best).
pub fn score_bounds(stones: u32) -> (Score, Score) {
    let own = stones / 2; // the side to move has played as many as the other, or one fewer
    let theirs = stones - own;
    // stones on the board before the move that makes a side's fourth, that side having
    // `has` stones and moving after `first` more stones
    let fourth_at =
        |has: u32, first: u32| stones + first + 2 * (4u32.saturating_sub(has).max(1) - 1);
    let score_at = |at: u32| {
        if at < CELLS as u32 {
            immediate_win_score(at)
        } else {
            0
        }
    };
    (-score_at(fourth_at(theirs, 1)), score_at(fourth_at(own, 0)))
}

/// Solves every case after clearing the table, timing each search with `clock` (any
/// monotonic counter, e.g. nanoseconds). A weak run compares only the score's sign.
pub fn run_bench(
    solver: &mut Solver,
    cases: &[BenchCase],
    weak: bool,
    clock: &mut dyn FnMut() -> u64,
) -> BenchReport {
    let mut r = BenchReport::default();
    for c in cases {
        solver.reset();
        let t0 = clock();
        let got = if weak {
            solver.solve_weak(&c.position)
        } else {
            solver.solve(&c.position)
        };
        r.time += clock() - t0;
        r.nodes += solver.nodes();
        r.positions += 1;
        let want = if weak { c.score.signum() } else { c.score };
        if got != want {
            r.mismatches += 1;
            if r.first_mismatch.is_none() {
                r.first_mismatch = Some((c.moves.clone(), want, got));
            }
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_lines_and_reports_errors() {
        let cases = parse_bench("4453 2\n\n112233 18\n - 1\n").unwrap();
        assert_eq!(cases.len(), 3);
        assert_eq!(cases[2].position, Position::new());
        assert_eq!(cases[1].score, 18);
        assert!(matches!(
            parse_bench("4453 x"),
            Err(BenchError::Score { line: 1, .. })
        ));
        assert!(matches!(
            parse_bench("1 2 3"),
            Err(BenchError::Shape { line: 1 })
        ));
        assert!(matches!(
            parse_bench("- x\n18 2"),
            Err(BenchError::Score { line: 1, .. })
        ));
        assert!(matches!(
            parse_bench("1 -1\n1111111 0"),
            Err(BenchError::Moves { line: 2, .. })
        ));
        // a finished game is no position to score, and a lone CR ends a line in a
        // file whose other lines end in CRLF
        assert!(matches!(
            parse_bench("4453 2\n1212121 18"),
            Err(BenchError::Over {
                line: 2,
                moves: 7,
                ..
            })
        ));
        assert_eq!(
            parse_bench("4453 2\r112233 18\r\n- 1\r\n").unwrap().len(),
            3
        );
        // a score no game from the position can end with (after 6 moves: -18..=18)
        assert!(matches!(
            parse_bench("4453 2\n112233 19"),
            Err(BenchError::ScoreRange {
                line: 2,
                low: -18,
                high: 18,
                ..
            })
        ));
        // a four takes four stones: from the empty board no game ends past 18 either way,
        // nor after 4453 (it used to take 21 and -19)
        assert!(parse_bench("- 18\n- -18\n4 -18\n4453 18\n4453 -18").is_ok());
        for (line, bounds) in [
            ("- 19", (-18, 18)),
            ("- -19", (-18, 18)),
            ("4453 19", (-18, 18)),
        ] {
            assert!(
                matches!(
                    parse_bench(line),
                    Err(BenchError::ScoreRange { low, high, .. }) if (low, high) == bounds
                ),
                "{line}"
            );
        }
        // late in the game the next stone bounds it, and a full board is a draw
        assert_eq!(score_bounds(41), (0, 1));
        assert_eq!(score_bounds(42), (0, 0));
        assert_eq!(score_bounds(40), (-1, 1));
        // a lone word is neither read as a score nor as moves
        for lone in [" 1", "4453", "23622314"] {
            assert!(matches!(
                parse_bench(lone),
                Err(BenchError::Shape { line: 1 })
            ));
        }
    }
}
