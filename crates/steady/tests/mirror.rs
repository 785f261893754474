//! A Yellow line mirrored with its diagram: the mirrored game is the mirror image of the
//! game up to where Red's leftmost-column choice parts them, and the line is cut there.

mod common;

use c4lab_board::{Player, WIDTH};
use c4lab_steady::play::{mirror_line, Game, Status};
use c4lab_steady::{Diagram, Rule};
use proptest::prelude::*;

/// Red's moves of a game, 0-based columns (`None`: no move named).
fn reds(g: &Game) -> Vec<Option<usize>> {
    g.log()
        .iter()
        .filter(|m| m.player == Player::Red)
        .map(|m| m.column)
        .collect()
}

/// The rules behind Red's moves of a game.
fn rules(g: &Game) -> Vec<Rule> {
    g.log().iter().filter_map(|m| m.rule.clone()).collect()
}

/// A Yellow line against `d` from `choices`: each picks among the playable columns, until
/// the game stops.
fn line_of(d: &Diagram, choices: &[u8]) -> Vec<u8> {
    let mut g = Game::new(d).unwrap();
    for &c in choices {
        if *g.status() != Status::YellowToMove {
            break;
        }
        let open: Vec<usize> = (0..WIDTH).filter(|&x| g.position().can_play(x)).collect();
        g.yellow(open[c as usize % open.len()]).unwrap();
    }
    g.yellow_line()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn the_mirrored_game_is_the_mirror_image_up_to_a_lower_column_choice(
        d in common::root_and_levels(0, 20, 9),
        choices in proptest::collection::vec(any::<u8>(), 0..21),
    ) {
        let line = line_of(&d, &choices);
        let m = mirror_line(&d, &line).unwrap();
        let mirror = |c: Option<usize>| c.map(|x| WIDTH - 1 - x);
        let game = Game::replay(&d, &line).unwrap();
        let kept = Game::replay(&d.mirror(), &m.line).unwrap();
        let (want, got) = (reds(&game), reds(&kept));
        // the kept moves are the mirror images of the line's first moves
        prop_assert!(m.line.len() <= line.len());
        for (a, b) in m.line.iter().zip(&line) {
            prop_assert_eq!(*a as usize, WIDTH - 1 - *b as usize);
        }
        match m.parted {
            None => {
                prop_assert_eq!(m.line.len(), line.len());
                // every answer but the last mirrors the game's
                for i in 0..got.len().min(line.len()) {
                    prop_assert_eq!(got[i], mirror(want[i]));
                }
            }
            Some(p) => {
                prop_assert_eq!(p.answer, m.line.len());
                prop_assert!(p.answer < line.len());
                for i in 0..p.answer {
                    prop_assert_eq!(got[i], mirror(want[i]));
                }
                prop_assert_eq!(p.mirrored, got[p.answer]);
                prop_assert_eq!(p.expected, mirror(want[p.answer]));
                prop_assert_ne!(p.mirrored, p.expected);
                // only a choice between two cells to win or block in parts the games:
                // the level rule is the same in the mirror image
                let rule = &rules(&game)[p.answer];
                prop_assert!(matches!(rule, Rule::Win | Rule::Block), "{:?}", rule);
            }
        }
    }
}

#[test]
fn a_double_threat_blocked_in_the_lower_column_parts_the_games() {
    // column 1 at level 0, everything else blank: Red stacks column 1 and, facing two
    // threats after Yellow's 4, 5, 1, 3, blocks the leftmost column
    let d =
        c4lab_steady::read_grid("0999999\n0999999\n0999999\n0999999\n0999999\n0999999\n").unwrap();
    let m = mirror_line(&d, &[3, 4, 0, 2, 5]).unwrap();
    assert_eq!(m.line, vec![3, 2, 6, 4]);
    let p = m.parted.unwrap();
    assert_eq!((p.answer, p.mirrored, p.expected), (4, Some(1), Some(5)));
    // a line the mirror image keeps whole
    let whole = mirror_line(&d, &[3, 4]).unwrap();
    assert_eq!((whole.line, whole.parted), (vec![3, 2], None));
}
