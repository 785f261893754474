//! A position encoded unasked: every move stays open until it is encoded again, and then
//! the strong solver rules out exactly the moves an encoding that asked at once does.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use c4lab_board::{Position, WIDTH};
use c4lab_steady::{Cell, Diagram};
use c4lab_synth::sat::{self, Lit, SatOutcome};
use c4lab_synth::Encoding;
use rustc_hash::FxHashSet;

/// A Red-to-move position Red wins, with no four to complete or block, where some move
/// that loses nothing at once still throws the win away (the strong solver's to find).
fn root_with_a_quiet_losing_move() -> Position {
    let mut solver = c4lab_solver::Solver::new(1 << 22);
    let mut rng = fastrand::Rng::with_seed(11);
    loop {
        let mut p = Position::new();
        let plies = 2 * rng.u32(8..12);
        while p.moves_played() < plies {
            let legal: Vec<usize> = (0..WIDTH)
                .filter(|&x| p.can_play(x) && !p.is_winning_move(x))
                .collect();
            if legal.is_empty() {
                break;
            }
            p.play(legal[rng.usize(..legal.len())]);
        }
        let quiet =
            p.moves_played() == plies && p.winning_moves() == 0 && p.opponent_winning_moves() == 0;
        if !quiet || solver.solve(&p) <= 0 {
            continue;
        }
        // a move after which Yellow has no four to complete, yet does not lose
        let throws_away = (0..WIDTH).any(|x| {
            p.can_play(x) && {
                let after = p.after(x);
                after.winning_moves() == 0 && solver.solve(&after) >= 0
            }
        });
        if throws_away {
            return p;
        }
    }
}

fn encoding(p: &Position) -> Encoding {
    let stop = Arc::new(AtomicBool::new(false));
    let d = Diagram::from_root(p, |_, _| Cell::Undecided);
    let mut enc = Encoding::new(&d, p, sat::open("batsat", stop.clone()).unwrap()).unwrap();
    enc.use_oracle(1 << 20, u64::MAX, stop);
    enc
}

/// Whether some model gives the root's playable cells the distinct levels `levels` (by
/// column): with only the root encoded, whether the move those levels pick is allowed.
fn admits(enc: &mut Encoding, p: &Position, levels: &[u8; WIDTH]) -> bool {
    let assumptions: Vec<Lit> = (0..WIDTH)
        .filter(|&x| p.can_play(x))
        .map(|x| enc.level_lit(x, p.height(x), levels[x]).unwrap())
        .collect();
    match enc.backend().solve(&assumptions).unwrap() {
        SatOutcome::Sat => true,
        SatOutcome::Unsat => false,
        other => panic!("{other:?}"),
    }
}

fn children(enc: &mut Encoding, p: &Position) -> FxHashSet<(u64, u64)> {
    enc.encoded_children(p.current(), p.mask())
        .into_iter()
        .collect()
}

#[test]
fn a_position_encoded_unasked_rules_out_its_moves_once_encoded_again() {
    let p = root_with_a_quiet_losing_move();
    let (red, mask) = (p.current(), p.mask());
    let mut asked = encoding(&p);
    let mut unasked = encoding(&p);
    let asked_walk: FxHashSet<_> = asked.encode(red, mask).unwrap().into_iter().collect();
    let unasked_walk: FxHashSet<_> = unasked
        .encode_unasked(red, mask)
        .unwrap()
        .into_iter()
        .collect();
    // unasked, nothing is ruled out: the walk goes on below every move
    assert!(asked.stats().pruned > 0);
    assert_eq!(unasked.stats().pruned, 0);
    assert!(asked_walk.is_subset(&unasked_walk) && asked_walk != unasked_walk);
    assert_eq!(children(&mut unasked, &p), unasked_walk);
    assert_eq!(children(&mut asked, &p), asked_walk);

    // random distinct levels for the playable cells: one move each
    let mut rng = fastrand::Rng::with_seed(2);
    let draws: Vec<[u8; WIDTH]> = (0..60)
        .map(|_| {
            let mut order: Vec<u8> = (0..10).collect();
            rng.shuffle(&mut order);
            std::array::from_fn(|x| order[x])
        })
        .collect();
    let before: Vec<bool> = draws.iter().map(|l| admits(&mut unasked, &p, l)).collect();
    let eager: Vec<bool> = draws.iter().map(|l| admits(&mut asked, &p, l)).collect();
    // unasked, only the moves that lose at once are forbidden
    assert!(before.iter().zip(&eager).all(|(&b, &e)| b || !e));
    assert!(
        before.iter().zip(&eager).any(|(&b, &e)| b && !e),
        "{eager:?}"
    );
    assert!(eager.contains(&true), "{eager:?}");

    // encoded again, it is asked: the same moves ruled out, the same walk below it
    assert!(unasked.encode(red, mask).unwrap().is_empty());
    assert_eq!(unasked.stats().pruned, asked.stats().pruned);
    assert_eq!(unasked.stats().positions, 1);
    assert_eq!(children(&mut unasked, &p), asked_walk);
    let after: Vec<bool> = draws.iter().map(|l| admits(&mut unasked, &p, l)).collect();
    assert_eq!(after, eager);
}

#[test]
fn a_halt_that_reads_zero_leaves_the_strong_solvers_questions_unasked() {
    // (the page's Stop writes 0 into a slot the engine reads: a Fill step spent seconds
    // on the questions of the 512 positions it encoded, after Stop)
    let p = root_with_a_quiet_losing_move();
    let (red, mask) = (p.current(), p.mask());
    let mut free = encoding(&p);
    let thrown = c4lab_board::each_cell(p.playable())
        .find(|&cell| free.oracle_keeps_win(red, mask, cell) == Some(false))
        .expect("a move the strong solver rules out");
    let mut halted = encoding(&p);
    halted.halt_oracle_at(Arc::new(std::sync::atomic::AtomicU64::new(0)));
    assert_eq!(halted.oracle_keeps_win(red, mask, thrown), Some(true));
    assert_eq!(halted.oracle_nodes(), 0, "no question was asked");
    // a halt that does not read 0 changes nothing
    let mut open = encoding(&p);
    open.halt_oracle_at(Arc::new(std::sync::atomic::AtomicU64::new(u64::MAX)));
    assert_eq!(open.oracle_keeps_win(red, mask, thrown), Some(false));
}
