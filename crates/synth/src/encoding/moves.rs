//! The move rules the encoding needs, on Pons bitboards (Red's stones, occupied cells):
//! which cells the rule lets Red play, and what a Red move and Yellow's replies lead to.

use c4lab_board::{each_cell, winning_cells, BOARD_MASK, BOTTOM_MASK};

/// What Red's move leads to, one ply of Yellow later.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveOutcome {
    /// Some Yellow reply wins, or the board fills: the move loses.
    Lost,
    /// The Red-to-move positions (Red's stones, occupied cells) the replies lead to,
    /// leaving out replies after which Red wins at once.
    Children(Vec<(u64, u64)>),
}

/// The Pons key of a Red-to-move position.
#[inline]
pub fn key(red: u64, mask: u64) -> u64 {
    red + mask
}

/// The playable cells: the lowest empty cell of each non-full column.
#[inline]
pub fn playable(mask: u64) -> u64 {
    (mask + BOTTOM_MASK) & BOARD_MASK
}

/// A Red move that does not lose at once, played: Red's stones, the occupied cells,
/// Yellow's replies, and the cells where Red could then complete a four.
struct Played {
    red: u64,
    mask: u64,
    replies: u64,
    red_wins: u64,
}

impl Played {
    /// Red playing `cell`; None when the move loses (the rule and the verifier): Yellow can complete
    /// a four, or the board is full or filled by Yellow's one reply (a draw).
    fn new(red: u64, mask: u64, cell: u64) -> Option<Played> {
        let (red, mask) = (red | cell, mask | cell);
        if (BOARD_MASK ^ mask).count_ones() <= 1 {
            return None;
        }
        let replies = playable(mask);
        if winning_cells(red ^ mask, mask) & replies != 0 {
            return None;
        }
        Some(Played {
            red,
            mask,
            replies,
            red_wins: winning_cells(red, mask),
        })
    }

    /// Whether Yellow's `reply` leaves Red no four to complete at once (a reply that
    /// does is won, and leads to no position that needs a decision).
    fn is_quiet(&self, reply: u64) -> bool {
        let next_open = (self.replies ^ reply) | ((reply << 1) & BOARD_MASK);
        self.red_wins & next_open == 0
    }
}

/// What Red playing `cell` leads to (the rule and the verifier: a Yellow four or a full board loses;
/// a reply after which Red can complete a four is won).
pub fn after_red_move(red: u64, mask: u64, cell: u64) -> MoveOutcome {
    match Played::new(red, mask, cell) {
        None => MoveOutcome::Lost,
        Some(m) => MoveOutcome::Children(
            each_cell(m.replies)
                .filter(|&reply| m.is_quiet(reply))
                .map(|reply| (m.red, m.mask | reply))
                .collect(),
        ),
    }
}

/// Whether Red playing `cell` and Yellow replying `reply` (a cell playable after it)
/// leads to a position [`after_red_move`] lists, without building the list: the test of
/// each candidate parent of a new position.
pub(super) fn leads_to(red: u64, mask: u64, cell: u64, reply: u64) -> bool {
    Played::new(red, mask, cell).is_some_and(|m| m.is_quiet(reply))
}

/// The cells the rule lets Red play at a Red-to-move position, and whether the move is
/// forced: none when Red wins at once (rule 1; the position needs no clauses), the lowest
/// column's block when Yellow threatens a four (rule 2), else every playable cell, for the
/// levels to choose from (rule 3).
pub(super) fn rule_cells(red: u64, mask: u64) -> (u64, bool) {
    let open = playable(mask);
    if winning_cells(red, mask) & open != 0 {
        return (0, true);
    }
    let threats = winning_cells(red ^ mask, mask) & open;
    if threats != 0 {
        (threats & threats.wrapping_neg(), true)
    } else {
        (open, false)
    }
}

/// The top stone of each non-empty column (the cell below each column's first empty
/// one; below an empty column lies the unused bit above the previous column).
pub(super) fn tops(mask: u64) -> u64 {
    ((mask + BOTTOM_MASK) >> 1) & mask
}

#[cfg(test)]
mod tests {
    use c4lab_board::{Position, WIDTH};

    use super::*;

    /// A random game of an even number of plies up to 40, cut short where no move is
    /// left that does not win: a position before anyone has won, most often Red's to
    /// move (odd when the game was cut short).
    fn random_game(rng: &mut fastrand::Rng) -> Position {
        let mut pos = Position::default();
        for _ in 0..2 * rng.usize(0..21) {
            let moves: Vec<usize> = (0..WIDTH)
                .filter(|&x| pos.can_play(x) && !pos.is_winning_move(x))
                .collect();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[rng.usize(0..moves.len())]);
        }
        pos
    }

    /// What Red playing column `x` at `pos` leads to, by the rules played out on the
    /// board's positions, each move played and the board then searched for a four
    /// (`winner`, apart from the winning-cell masks this module uses): a move after
    /// which Yellow can complete a four, or the board fills (Red's stone or Yellow's one
    /// reply the last), loses; a reply after which Red can complete a four is won.
    fn by_the_board(pos: &Position, x: usize) -> MoveOutcome {
        let four_at =
            |p: &Position| (0..WIDTH).any(|y| p.can_play(y) && p.after(y).winner().is_some());
        let after = pos.after(x);
        if four_at(&after) || after.moves_played() >= 41 {
            return MoveOutcome::Lost;
        }
        let children = (0..WIDTH)
            .filter(|&y| after.can_play(y))
            .map(|y| after.after(y))
            .filter(|p| !four_at(p))
            .map(|p| (p.current(), p.mask()))
            .collect();
        MoveOutcome::Children(children)
    }

    #[test]
    fn a_parent_test_agrees_with_the_children_of_every_move() {
        let mut rng = fastrand::Rng::with_seed(3);
        let (mut lost, mut children, mut won_replies) = (0, 0, 0);
        for _ in 0..400 {
            let pos = random_game(&mut rng);
            if pos.moves_played() % 2 == 1 {
                continue;
            }
            let (red, mask) = (pos.current(), pos.mask());
            for cell in each_cell(playable(mask)) {
                let outcome = after_red_move(red, mask, cell);
                // (both list the replies by column; a move that wins at once is rule 1's,
                // and never asked about)
                let x = c4lab_board::column_of(cell);
                if pos.after(x).winner().is_none() {
                    assert_eq!(
                        outcome,
                        by_the_board(&pos, x),
                        "{}, column {}",
                        pos.to_grid(),
                        x + 1
                    );
                }
                let listed = match &outcome {
                    MoveOutcome::Lost => Vec::new(),
                    MoveOutcome::Children(c) => c.clone(),
                };
                lost += usize::from(outcome == MoveOutcome::Lost);
                children += listed.len();
                for reply in each_cell(playable(mask | cell)) {
                    let child = (red | cell, mask | cell | reply);
                    let leads = leads_to(red, mask, cell, reply);
                    assert_eq!(leads, listed.contains(&child), "{red:x} {mask:x} {cell:x}");
                    won_replies += usize::from(!leads && outcome != MoveOutcome::Lost);
                }
            }
        }
        // every case came up: lost moves, listed children, replies Red wins at once
        assert!(
            lost > 0 && children > 0 && won_replies > 0,
            "{lost} {children} {won_replies}"
        );
    }

    /// Rules 1 and 2 are written here for the encoding and in the verifier's agent: the
    /// two must name the same win and the same block, or the SAT search would solve
    /// another game than the one the verifier judges.
    #[test]
    fn the_rule_cells_agree_with_the_verifiers_agent() {
        use c4lab_steady::agent::{choose, Choice};
        let mut rng = fastrand::Rng::with_seed(7);
        let (mut wins, mut blocks, mut free) = (0, 0, 0);
        for _ in 0..3000 {
            let pos = random_game(&mut rng);
            if pos.moves_played() % 2 == 1 || pos.is_full() {
                continue;
            }
            let (red, mask) = (pos.current(), pos.mask());
            // every empty cell at level 0: rule 3 then names no move, so the agent's
            // answer is a win, a block or nothing
            let levels = c4lab_steady::Levels::from_masks(std::array::from_fn(|l| {
                if l == 0 {
                    BOARD_MASK & !mask
                } else {
                    0
                }
            }));
            let cells = rule_cells(red, mask);
            match choose(red, mask, &levels) {
                Choice::Win => {
                    wins += 1;
                    assert_eq!(cells, (0, true), "{red:x} {mask:x}");
                }
                Choice::Block(cell) => {
                    blocks += 1;
                    assert_eq!(cells, (cell, true), "{red:x} {mask:x}");
                }
                _ => {
                    free += 1;
                    assert_eq!(cells, (playable(mask), false), "{red:x} {mask:x}");
                }
            }
        }
        assert!(wins > 0 && blocks > 0 && free > 0, "{wins} {blocks} {free}");
    }
}
