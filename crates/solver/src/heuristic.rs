//! A depth-limited alpha-beta search with a static evaluation, returning one move:
//! a deterministic "alpha-beta teacher" much cheaper than an exact solve.
//!
//! Iterative deepening to the requested depth; the move of the deepest completed
//! iteration is returned when the node budget runs out. Proven wins and losses inside
//! the horizon are scored beyond any evaluation, sooner wins higher.

use c4lab_board::{column_mask, winning_cells, Position, BOTTOM_MASK};

use crate::order::{non_losing_moves, order_moves};
use crate::{immediate_win_score, CELLS, CENTRE_ORDER};

/// Scores at least this large are proven wins.
const WIN: i32 = 10_000;
/// Rows 1, 3 and 5 (counted from 1 at the bottom): where Red's threats count most.
const ODD_ROWS: u64 = BOTTOM_MASK * 0b010101;
/// Rows 2, 4 and 6: where Yellow's threats count most.
const EVEN_ROWS: u64 = BOTTOM_MASK * 0b101010;

struct Heuristic {
    nodes: u64,
    budget: u64,
    aborted: bool,
}

/// The move (0-based column) a depth-`depth` alpha-beta search prefers in `pos`,
/// searching at most about `node_budget` nodes. `pos` must be a game going on (a free
/// column, no four).
/// Equal inputs always give the same move.
pub fn search_move(pos: &Position, depth: u32, node_budget: u64) -> usize {
    let wins = pos.winning_moves();
    if let Some(&x) = CENTRE_ORDER.iter().find(|&&x| wins & column_mask(x) != 0) {
        return x;
    }
    let next = non_losing_moves(pos);
    let playable = pos.playable();
    let fallback = CENTRE_ORDER
        .iter()
        .copied()
        .find(|&x| playable & column_mask(x) != 0)
        .unwrap_or(0);
    if next == 0 {
        return fallback; // every move loses at once
    }
    let root = order_moves(pos, next, false);
    let mut best = root.get(0).0;
    if root.len() == 1 {
        return best;
    }
    let mut h = Heuristic {
        nodes: 0,
        budget: node_budget,
        aborted: false,
    };
    for d in 1..=depth.max(1) {
        let mut alpha = -i32::MAX;
        let mut iter_best = best;
        // search the previous best first
        let mut cols: Vec<(usize, u64)> = (0..root.len()).map(|i| root.get(i)).collect();
        if let Some(i) = cols.iter().position(|&(c, _)| c == best) {
            let m = cols.remove(i);
            cols.insert(0, m);
        }
        for (c, cell) in cols {
            let mut child = *pos;
            child.play_cell(cell);
            let v = -h.negamax(&child, d - 1, -i32::MAX, -alpha);
            if h.aborted {
                break;
            }
            if v > alpha {
                alpha = v;
                iter_best = c;
            }
        }
        if h.aborted {
            break;
        }
        best = iter_best;
        if alpha >= WIN {
            break; // a proven win: deeper search cannot improve it
        }
    }
    best
}

impl Heuristic {
    fn negamax(&mut self, pos: &Position, depth: u32, alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes > self.budget {
            self.aborted = true;
            return 0;
        }
        let n = pos.moves_played();
        if n as i32 >= CELLS {
            return 0;
        }
        if pos.winning_moves() != 0 {
            return WIN + immediate_win_score(n);
        }
        let next = non_losing_moves(pos);
        if next == 0 {
            return -(WIN + (CELLS - n as i32) / 2);
        }
        if depth == 0 {
            return evaluate(pos);
        }
        let moves = order_moves(pos, next, false);
        let mut best = -i32::MAX;
        for i in 0..moves.len() {
            let mut child = *pos;
            child.play_cell(moves.get(i).1);
            let v = -self.negamax(&child, depth - 1, -beta, -alpha.max(best));
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                if best >= beta {
                    break;
                }
            }
        }
        best
    }
}

/// A static score of `pos` for the side to move: threats weighted by whether their
/// row parity suits their owner, plus central stones.
fn evaluate(pos: &Position) -> i32 {
    let mask = pos.mask();
    let me = pos.current();
    let opp = pos.opponent();
    let red_to_move = pos.moves_played() & 1 == 0;
    let (my_rows, opp_rows) = if red_to_move {
        (ODD_ROWS, EVEN_ROWS)
    } else {
        (EVEN_ROWS, ODD_ROWS)
    };
    let threat_value = |own: u64, good: u64| -> i32 {
        let t = winning_cells(own, mask);
        (3 * (t & good).count_ones() + 2 * (t & !good).count_ones()) as i32
    };
    let centre = |own: u64| -> i32 {
        let c = (own & column_mask(3)).count_ones() * 2
            + (own & (column_mask(2) | column_mask(4))).count_ones();
        c as i32
    };
    threat_value(me, my_rows) - threat_value(opp, opp_rows) + centre(me) - centre(opp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_wins_and_blocks() {
        // Red to move with three on the bottom row: wins in column 4
        let p = Position::from_moves("112233").unwrap();
        assert_eq!(search_move(&p, 4, 100_000), 3);
        // Yellow to move must block column 4
        let y = Position::from_moves("11223").unwrap();
        assert_eq!(search_move(&y, 4, 100_000), 3);
    }

    #[test]
    fn deterministic_and_budgeted() {
        let p = Position::from_moves("4453").unwrap();
        let a = search_move(&p, 8, 50_000);
        assert_eq!(a, search_move(&p, 8, 50_000));
        assert!(p.can_play(a));
        // a zero budget still returns a legal move
        assert!(p.can_play(search_move(&p, 8, 0)));
    }
}
