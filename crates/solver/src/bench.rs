//! Benchmark files (`<moves> <score>` per line, `-` for the moves of the empty board)
//! and a clock-agnostic runner.

use c4lab_board::Position;

use crate::error::BenchError;
use crate::{immediate_win_score, Score, Solver};

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
        // the side to move wins at best with its next stone, loses at worst to the
        // opponent's next one (the solver's scale)
        let n = position.moves_played();
        let (low, high) = (-immediate_win_score(n + 1), immediate_win_score(n));
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
        assert!(parse_bench("- 21\n4 -20").is_ok());
        assert!(matches!(
            parse_bench("- -22"),
            Err(BenchError::ScoreRange { line: 1, .. })
        ));
        // a lone word is neither read as a score nor as moves
        for lone in [" 1", "4453", "23622314"] {
            assert!(matches!(
                parse_bench(lone),
                Err(BenchError::Shape { line: 1 })
            ));
        }
    }
}
