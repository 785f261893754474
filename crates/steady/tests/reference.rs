//! The verifier against a deliberately naive reference search written separately here:
//! a plain 7x6 array, fours found by scanning every line, no bit tricks, and
//! transpositions shared (when asked) through a plain `HashSet` of the boards proved
//! won, not the verifier's own key set. Both must give the same verdict and the same
//! losing line.

mod common;

use std::collections::HashSet;

use c4lab_board::{Player, HEIGHT, WIDTH};
use c4lab_steady::{Cell, Diagram, LossReason, Verdict, Verifier};
use proptest::prelude::*;

#[derive(Clone)]
struct Board {
    cells: [[u8; HEIGHT]; WIDTH], // 0 empty, 1 Red, 2 Yellow; [x][y], y from the bottom
    stones: usize,
}

impl Board {
    fn height(&self, x: usize) -> usize {
        (0..HEIGHT)
            .find(|&y| self.cells[x][y] == 0)
            .unwrap_or(HEIGHT)
    }
    fn four(&self, who: u8) -> bool {
        let at = |x: i32, y: i32| {
            (0..WIDTH as i32).contains(&x)
                && (0..HEIGHT as i32).contains(&y)
                && self.cells[x as usize][y as usize] == who
        };
        for x in 0..WIDTH as i32 {
            for y in 0..HEIGHT as i32 {
                for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    if (0..4).all(|k| at(x + k * dx, y + k * dy)) {
                        return true;
                    }
                }
            }
        }
        false
    }
    fn play(&self, x: usize, who: u8) -> Board {
        let mut b = self.clone();
        let y = self.height(x);
        b.cells[x][y] = who;
        b.stones += 1;
        b
    }
    fn wins_at(&self, x: usize, who: u8) -> bool {
        self.height(x) < HEIGHT && self.play(x, who).four(who)
    }
}

enum Naive {
    Win,
    Loss(Vec<u8>, &'static str),
    TooBig,
}

/// Red's move by the rules, read straight from the README's language section.
fn red_move(b: &Board, d: &Diagram) -> Result<usize, ()> {
    if let Some(x) = (0..WIDTH).find(|&x| b.wins_at(x, 1)) {
        return Ok(x);
    }
    if let Some(x) = (0..WIDTH).find(|&x| b.wins_at(x, 2)) {
        return Ok(x);
    }
    for level in 0..14u8 {
        let holders: Vec<usize> = (0..WIDTH)
            .filter(|&x| b.height(x) < HEIGHT && d.cell(x, b.height(x)) == Cell::Level(level))
            .collect();
        if holders.len() == 1 {
            return Ok(holders[0]);
        }
    }
    Err(())
}

/// The reference search's state: nodes visited, and the Red-to-move boards proved won
/// (kept only when `shared`; a cached win is a real win, so the first losing line in
/// search order is the same either way).
struct Search {
    nodes: u64,
    shared: bool,
    won: HashSet<[[u8; HEIGHT]; WIDTH]>,
}

fn naive(b: &Board, d: &Diagram, line: &mut Vec<u8>, s: &mut Search) -> Naive {
    s.nodes += 1;
    if s.nodes > 300_000 {
        return Naive::TooBig;
    }
    if s.shared && s.won.contains(&b.cells) {
        return Naive::Win;
    }
    let key = b.cells;
    let Ok(x) = red_move(b, d) else {
        return Naive::Loss(line.clone(), "no-move");
    };
    let won = b.wins_at(x, 1);
    let b = b.play(x, 1);
    line.push(x as u8);
    if won {
        line.pop();
        return Naive::Win;
    }
    if b.stones == 42 {
        return Naive::Loss(line.clone(), "draw");
    }
    if let Some(y) = (0..WIDTH).find(|&y| b.wins_at(y, 2)) {
        line.push(y as u8);
        return Naive::Loss(line.clone(), "yellow-wins");
    }
    for y in (0..WIDTH).filter(|&y| b.height(y) < HEIGHT) {
        let c = b.play(y, 2);
        line.push(y as u8);
        if c.stones == 42 {
            return Naive::Loss(line.clone(), "draw");
        }
        match naive(&c, d, line, s) {
            Naive::Win => {}
            other => return other,
        }
        line.pop();
    }
    line.pop();
    if s.shared {
        s.won.insert(key);
    }
    Naive::Win
}

fn board_of(d: &Diagram) -> Board {
    let mut b = Board {
        cells: [[0; HEIGHT]; WIDTH],
        stones: 0,
    };
    for x in 0..WIDTH {
        for y in 0..HEIGHT {
            b.cells[x][y] = match d.cell(x, y) {
                Cell::Red => 1,
                Cell::Yellow => 2,
                _ => 0,
            };
            b.stones += usize::from(b.cells[x][y] != 0);
        }
    }
    b
}

/// Compares the two; returns false when the naive search ran out of room.
fn agree(d: &Diagram) -> bool {
    agree_with(d, false, &mut Verifier::new())
}

/// [`agree`] with the given verifier, the reference sharing transpositions when `shared`.
fn agree_with(d: &Diagram, shared: bool, verifier: &mut Verifier) -> bool {
    let fast = verifier.verify(d);
    let mut line = vec![];
    let mut search = Search {
        nodes: 0,
        shared,
        won: HashSet::new(),
    };
    match (naive(&board_of(d), d, &mut line, &mut search), &fast) {
        (Naive::TooBig, _) => false,
        (Naive::Win, Verdict::Win { .. }) => true,
        (Naive::Loss(line, why), Verdict::Loss { counterexample, .. }) => {
            assert_eq!(
                counterexample.line,
                line,
                "losing line differs\n{}",
                d.to_grid()
            );
            assert_eq!(counterexample.reason.name(), why, "\n{}", d.to_grid());
            if let LossReason::NoMove { tied } = &counterexample.reason {
                assert!(tied.windows(2).all(|w| w[0] < w[1]));
            }
            true
        }
        (n, f) => panic!(
            "verifier says {} but the reference says {}\n{}",
            f.name(),
            match n {
                Naive::Win => "win",
                _ => "loss",
            },
            d.to_grid()
        ),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_diagrams_match_the_reference(d in common::root_and_levels(10, 34, 9)) {
        prop_assume!(agree(&d));
    }

    #[test]
    fn few_levels_match_the_reference(d in common::root_and_levels(16, 36, 3)) {
        // few distinct levels: many ties, many no-move lines
        prop_assume!(agree(&d));
    }

    #[test]
    fn weak_levels_match_the_reference(d in common::root_and_levels(10, 34, 13)) {
        // levels a-d (10-13) rank below 9: they fire only when 0-9 do not decide
        prop_assume!(agree(&d));
    }

    #[test]
    fn mirrored_diagrams_get_mirrored_verdicts(d in common::root_and_levels(8, 34, 9)) {
        let mut v = Verifier::new();
        let (a, b) = (v.verify(&d), v.verify(&d.mirror()));
        prop_assert_eq!(a.name(), b.name());
        if let (Verdict::Win { positions: p }, Verdict::Win { positions: q }) = (&a, &b) {
            prop_assert_eq!(p, q);
        }
    }
}

#[test]
fn mutated_upstream_diagrams_match_the_reference() {
    let Some((_, steady)) = common::upstream() else {
        return;
    };
    let diagrams = common::upstream_diagrams(&steady);
    let (mut compared, mut wins, mut large) = (0, 0, 0);
    // one verifier for all: its key set grows once and is then cleared between diagrams
    let mut verifier = Verifier::new();
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    for (i, d) in diagrams.iter().enumerate() {
        let mut m = d.clone();
        // change 0, 1 or 2 level cells to another level, a-d included (deterministic)
        for _ in 0..(i % 3) {
            let (x, y) = ((next() % 7) as usize, (next() % 6) as usize);
            if let Cell::Level(_) = m.cell(x, y) {
                m.set(x, y, Cell::Level((next() % 14) as u8));
            }
        }
        // the reference shares transpositions too, so every diagram is small enough
        assert!(
            agree_with(&m, true, &mut verifier),
            "too large for the reference\n{}",
            m.to_grid()
        );
        compared += 1;
        let searched = match verifier.verify(&m) {
            Verdict::Win { positions } => {
                wins += 1;
                positions
            }
            Verdict::Loss { positions, .. } => positions,
            other => panic!("{other:?}"),
        };
        // past the verifier's first key-set size, so its growth is on trial too
        large += usize::from(searched > 4_096);
    }
    assert!(
        wins >= 300 && compared - wins >= 300,
        "{wins} of {compared} won: the sample should hold both verdicts"
    );
    assert!(large >= 50, "only {large} searches passed 4,096 positions");
    let _ = Player::Red;
}
