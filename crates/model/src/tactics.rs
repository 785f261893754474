//! The model's tactical checks, on bitboards: which columns the network may choose
//! among before its scores are read. Every test is a few shifts, ANDs and ORs of the
//! board's bit sets (no float, no search beyond the opponent's next reply).

use c4lab_board::{column_of, winning_cells, Position, BOARD_MASK, CELLS, WIDTH};

/// Columns in the order ties are broken: the centre first.
pub const CENTRE_ORDER: [usize; WIDTH] = [3, 2, 4, 1, 5, 0, 6];

/// The column of `allowed` (bit `x` = column `x`) with the highest score, ties to the
/// centre; None when `allowed` is empty.
pub fn argmax_among<T: PartialOrd + Copy>(allowed: u8, scores: &[T; WIDTH]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for &x in &CENTRE_ORDER {
        if allowed & (1 << x) != 0 && best.is_none_or(|b| scores[x] > scores[b]) {
            best = Some(x);
        }
    }
    best
}

/// The columns of `pos` that are not full (bit `x` = column `x`).
pub fn legal_columns(pos: &Position) -> u8 {
    (0..WIDTH)
        .filter(|&x| pos.can_play(x))
        .fold(0, |m, x| m | 1 << x)
}

/// The playable cells after `cell` (a playable cell) is filled: the other columns'
/// unchanged, and the cell above it in its own column.
#[inline(always)]
fn next_playable(playable: u64, cell: u64) -> u64 {
    (playable ^ cell) | ((cell << 1) & BOARD_MASK)
}

/// True when the defender, to move among `playable` cells with `stones` stones on the
/// board, cannot stop a four on the attacker's next move: the defender has no four of
/// its own to complete (`defender_wins`, its winning cells), neither side fills the
/// board first, and every reply leaves a cell of `attacker_wins` (the attacker's
/// winning cells) playable. A reply can fill only one cell, so the attacker's winning
/// cells are those of before the reply, less the cell the reply takes.
#[inline(always)]
fn forced(attacker_wins: u64, defender_wins: u64, playable: u64, stones: u32) -> bool {
    if attacker_wins == 0 || stones as usize + 1 >= CELLS || defender_wins & playable != 0 {
        return false;
    }
    let mut replies = playable;
    while replies != 0 {
        let cell = replies & replies.wrapping_neg();
        replies &= replies - 1;
        if attacker_wins & next_playable(playable, cell) == 0 {
            return false;
        }
    }
    true
}

/// The move after three tactical checks, in order: a column that wins at once (the
/// leftmost) is played. Else the safe columns are those that leave the opponent no four
/// to complete (all legal columns when none do); among them, the ones that force a four
/// next turn win fastest, and the best-scoring of them is played if any exist; else the
/// best-scoring safe column after which the opponent has no such forcing reply, if any
/// exists; else the best-scoring safe column. Ties go to the centre. `scores` (the
/// network's) is called only when the checks leave more than one column, and the
/// costliest check, the opponent's forcing replies, runs on the safe columns in score
/// order until one passes. None on a full board.
pub fn choose(pos: &Position, scores: impl FnOnce() -> [i32; WIDTH]) -> Option<usize> {
    let (cur, opp, mask) = (pos.current(), pos.opponent(), pos.mask());
    let playable = pos.playable();
    let ours = winning_cells(cur, mask);
    if ours & playable != 0 {
        return Some(column_of(ours & playable));
    }
    let theirs = winning_cells(opp, mask);
    let stones = pos.moves_played();
    let mut cells = [0u64; WIDTH];
    let (mut legal, mut safe) = (0u8, 0u8);
    let mut open = playable;
    while open != 0 {
        let c = open & open.wrapping_neg();
        open &= open - 1;
        let x = column_of(c);
        legal |= 1 << x;
        cells[x] = c;
        // a column is unsafe when it hands the opponent a four
        if theirs & next_playable(playable, c) == 0 {
            safe |= 1 << x;
        }
    }
    let among = |allowed: u8, scores: [i32; WIDTH]| argmax_among(allowed, &scores);
    if legal == 0 {
        return None;
    }
    if safe == 0 {
        return single(legal).or_else(|| among(legal, scores()));
    }
    if let Some(x) = single(safe) {
        return Some(x);
    }
    // our winning cells once each safe column is ours, and the columns forcing a four
    let mut after = [0u64; WIDTH];
    let mut forcing = 0u8;
    for x in 0..WIDTH {
        if safe & (1 << x) == 0 {
            continue;
        }
        let c = cells[x];
        after[x] = winning_cells(cur | c, mask | c);
        // the opponent's winning cells lose `c` only: our stone cannot make them more
        if forced(
            after[x],
            theirs & !c,
            next_playable(playable, c),
            stones + 1,
        ) {
            forcing |= 1 << x;
        }
    }
    if forcing != 0 {
        return single(forcing).or_else(|| among(forcing, scores()));
    }
    let s = scores();
    let mut order = [0usize; WIDTH];
    let mut n = 0;
    for x in CENTRE_ORDER {
        if safe & (1 << x) != 0 {
            order[n] = x;
            n += 1;
        }
    }
    let order = &mut order[..n];
    // best score first; the sort is stable, so equal scores keep the centre order
    order.sort_by_key(|&x| std::cmp::Reverse(s[x]));
    for &x in order.iter() {
        let (c, p) = (cells[x], next_playable(playable, cells[x]));
        // cheap filter: the opponent's stones on every playable cell at once complete no
        // four, so no single reply can threaten one
        if winning_cells(opp | p, mask | c) == 0 {
            return Some(x);
        }
        let mut replies = p;
        let mut beaten = false;
        while replies != 0 {
            let d = replies & replies.wrapping_neg();
            replies &= replies - 1;
            let theirs_after = winning_cells(opp | d, mask | c | d);
            if forced(theirs_after, after[x] & !d, next_playable(p, d), stones + 2) {
                beaten = true;
                break;
            }
        }
        if !beaten {
            return Some(x);
        }
    }
    order.first().copied()
}

/// The column of a one-column set.
#[inline(always)]
fn single(columns: u8) -> Option<usize> {
    columns
        .is_power_of_two()
        .then(|| columns.trailing_zeros() as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use c4lab_corpus::rng::Rng;

    /// The forcing test spelled out: play every reply and look for the attacker's four
    /// (`pos` has the defender to move).
    fn forced_by_playing(pos: &Position) -> bool {
        !pos.is_full()
            && pos.winning_moves() == 0
            && (0..WIDTH).filter(|&y| pos.can_play(y)).all(|y| {
                let q = pos.after(y);
                !q.is_full() && q.winning_moves() != 0
            })
    }

    /// The checks spelled out by playing moves on copies of the position, then the
    /// best score among the columns they leave.
    fn choose_by_playing(pos: &Position, scores: &[i32; WIDTH]) -> Option<usize> {
        if let Some(x) = (0..WIDTH).find(|&x| pos.can_play(x) && pos.is_winning_move(x)) {
            return Some(x);
        }
        let bits = |keep: &dyn Fn(usize) -> bool| {
            (0..WIDTH)
                .filter(|&x| pos.can_play(x) && keep(x))
                .fold(0u8, |m, x| m | 1 << x)
        };
        let legal = bits(&|_| true);
        let safe = bits(&|x| pos.after(x).winning_moves() == 0);
        if safe == 0 {
            return argmax_among(legal, scores);
        }
        let forcing = bits(&|x| safe & (1 << x) != 0 && forced_by_playing(&pos.after(x)));
        if forcing != 0 {
            return argmax_among(forcing, scores);
        }
        let unforced = bits(&|x| {
            let a = pos.after(x);
            safe & (1 << x) != 0
                && !(0..WIDTH).any(|y| a.can_play(y) && forced_by_playing(&a.after(y)))
        });
        argmax_among(if unforced != 0 { unforced } else { safe }, scores)
    }

    #[test]
    fn the_checks_agree_with_playing_the_moves_out() {
        let mut rng = Rng::new(7);
        let (mut checked, mut narrowed, mut forcing) = (0, 0, 0);
        for _ in 0..3000 {
            let mut pos = Position::new();
            while pos.winner().is_none() && !pos.is_full() {
                // random scores with frequent ties, so the order of the checks and the
                // tie-break both matter
                let scores: [i32; WIDTH] = std::array::from_fn(|_| rng.below(4) as i32);
                let got = choose(&pos, || scores);
                assert_eq!(got, choose_by_playing(&pos, &scores), "{}", pos.to_grid());
                checked += 1;
                narrowed += (got != argmax_among(legal_columns(&pos), &scores)) as u32;
                forcing += forced_by_playing(&pos) as u32;
                let legal: Vec<usize> = (0..WIDTH).filter(|&x| pos.can_play(x)).collect();
                pos.play(legal[rng.below(legal.len() as u64) as usize]);
            }
        }
        // random games pass through many positions where the checks overrule the scores
        // and many forced ones, so every branch is exercised
        assert!(
            checked > 50_000 && narrowed > 10_000 && forcing > 1_000,
            "{checked} {narrowed} {forcing}"
        );
    }
}
