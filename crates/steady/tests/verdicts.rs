//! Each verdict of the verifier (the README's "Verification order"), the agent's rules, simplify and play, on small hand-made cases.

use c4lab_board::{Player, Position};
use c4lab_steady::play::{Game, Status};
use c4lab_steady::{
    decide, simplify, Cell, Diagram, LossReason, Rule, SimplifyError, Tie, Verdict, Verifier,
};

const WIN: &str = include_str!("../../../examples/win.txt");
const LOSS: &str = include_str!("../../../examples/loss.txt");

fn parse(text: &str) -> Diagram {
    Diagram::parse(text).unwrap().diagram
}

fn blank_on(moves: &str) -> Diagram {
    Diagram::from_root(&Position::from_moves(moves).unwrap(), |_, _| Cell::Level(9))
}

#[test]
fn win_and_loss_with_their_lines() {
    let mut v = Verifier::new();
    assert!(matches!(v.verify(&parse(WIN)), Verdict::Win { positions } if positions > 10));
    match v.verify(&parse(LOSS)) {
        Verdict::Loss { counterexample, .. } => {
            assert_eq!(counterexample.reason, LossReason::NoMove { tied: vec![9] });
            assert_eq!(c4lab_board::format_moves(&counterexample.line), "67711132");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn no_verdict_cases() {
    let mut v = Verifier::new();
    let mut d = parse(WIN);
    d.set(0, 3, Cell::Undecided);
    d.set(1, 5, Cell::Undecided);
    assert_eq!(v.verify(&d), Verdict::Incomplete { undecided: 2 });

    // Yellow holds a four and Red is to move
    let terminal = parse("9999999\n9999999\nY999999\nYR99999\nYR99999\nYRR9999\n");
    assert_eq!(
        v.verify(&terminal),
        Verdict::RootTerminal {
            winner: Player::Yellow
        }
    );

    // a four no game reaches is a bad root, with its reason, not a finished game
    let both = parse("9999999\n9999999\n9999999\n9999999\nYYYY999\nRRRR999\n");
    assert!(
        matches!(v.verify(&both), Verdict::BadRoot { reason } if reason.contains("no legal game reaches")),
        "{:?}",
        v.verify(&both)
    );
    let after = parse("9999999\n9999999\n9999999\n9999999\nY999999\nRRRRYYY\n");
    assert!(
        matches!(v.verify(&after), Verdict::BadRoot { reason } if reason.contains("moved after the game was over")),
        "{:?}",
        v.verify(&after)
    );

    let floating = parse("9999999\n9999999\n9999999\n9999999\n999R999\n99Y9999\n");
    assert!(
        matches!(v.verify(&floating), Verdict::BadRoot { reason } if reason.contains("column 4") && reason.contains("floats"))
    );
    let counts = parse("9999999\n9999999\n9999999\n9999999\n9999999\n99RRY99\n");
    assert!(
        matches!(v.verify(&counts), Verdict::BadRoot { reason } if reason.contains("counts must be equal"))
    );
    // the root is judged before the undecided cells: deciding them could not help
    let mut open_terminal = terminal.clone();
    open_terminal.set(6, 0, Cell::Undecided);
    assert_eq!(
        v.verify(&open_terminal),
        Verdict::RootTerminal {
            winner: Player::Yellow
        }
    );
    let mut open_floating = floating.clone();
    open_floating.set(6, 0, Cell::Undecided);
    assert!(
        matches!(v.verify(&open_floating), Verdict::BadRoot { reason } if reason.contains("floats")),
        "{:?}",
        v.verify(&open_floating)
    );

    let mut tiny = Verifier::with_budget(3);
    assert!(matches!(
        tiny.verify(&parse(WIN)),
        Verdict::Budget { positions: 4 }
    ));
}

#[test]
fn yellow_wins_and_draw_reasons() {
    let mut v = Verifier::new();
    // the empty board with every cell at one level: no level is unique at the root
    match v.verify(&blank_on("")) {
        Verdict::Loss {
            counterexample,
            positions,
        } => {
            assert_eq!(positions, 1);
            assert!(counterexample.line.is_empty());
            assert_eq!(counterexample.reason, LossReason::NoMove { tied: vec![9] });
        }
        other => panic!("{other:?}"),
    }
    // Yellow's open three in the bottom row: Red blocks column 1, Yellow wins in 5
    match v.verify(&blank_on("727364")) {
        Verdict::Loss { counterexample, .. } => {
            assert_eq!(counterexample.reason, LossReason::YellowWins);
            assert_eq!(c4lab_board::format_moves(&counterexample.line), "15");
        }
        other => panic!("{other:?}"),
    }
    // a board filled to 40 stones without a four, where the last two moves draw
    let mut rng = 7u64;
    let mut drawn = 0;
    for _ in 0..20_000 {
        let mut p = Position::new();
        while p.moves_played() < 40 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let legal: Vec<usize> = (0..7)
                .filter(|&x| p.can_play(x) && !p.is_winning_move(x))
                .collect();
            if legal.is_empty() {
                break;
            }
            p.play(legal[rng as usize % legal.len()]);
        }
        if p.moves_played() < 40 || p.winning_moves() != 0 {
            continue;
        }
        let d = Diagram::from_root(&p, |_, _| Cell::Level(0));
        if let Verdict::Loss { counterexample, .. } = v.verify(&d) {
            if counterexample.reason == LossReason::Draw {
                assert_eq!(counterexample.line.len(), 2);
                drawn += 1;
            }
        }
    }
    assert!(drawn > 0, "no drawn ending found");
}

#[test]
fn the_agent_names_its_rule() {
    let levels = |d: &Diagram| d.levels();
    // win beats block: Red has three in the bottom row, Yellow three in column 7
    let p = Position::from_moves("172737").unwrap();
    let d = blank_on("172737");
    assert_eq!(decide(&p, &levels(&d)).rule, Rule::Win);
    assert_eq!(decide(&p, &levels(&d)).column, Some(3));
    let p = Position::from_moves("172757").unwrap();
    let d = blank_on("172757");
    assert_eq!(
        decide(&p, &levels(&d)),
        c4lab_steady::Decision {
            column: Some(6),
            rule: Rule::Block
        }
    );
    // level rule: level 1 is tied in columns 1 and 2, level 4 unique in column 6
    let p = Position::new();
    let d = Diagram::from_root(&p, |x, y| match (x, y) {
        (0, 0) | (1, 0) => Cell::Level(1),
        (5, 0) => Cell::Level(4),
        _ => Cell::Level(9),
    });
    let got = decide(&p, &levels(&d));
    assert_eq!(got.column, Some(5));
    assert_eq!(
        got.rule,
        Rule::Level {
            level: 4,
            tied: vec![Tie {
                level: 1,
                columns: vec![0, 1]
            }]
        }
    );
    assert_eq!(
        got.rule.describe(),
        "level 4, lower levels tied: 1 in columns 1, 2"
    );
    // `?` never fires and never ties
    let d = Diagram::from_root(&p, |x, y| match (x, y) {
        (0, 0) => Cell::Undecided,
        (1, 0) => Cell::Level(5),
        _ => Cell::Level(9),
    });
    assert_eq!(decide(&p, &levels(&d)).column, Some(1));
}

#[test]
fn play_stops_where_an_undecided_cell_would_choose() {
    // the `?` in column 1 would be played at level 0, and tie nothing at level 5: Red's
    // move turns on it, so the game stops there (it used to play column 2, as if the
    // `?` could not fire)
    let p = Position::new();
    let with = |first: Cell| {
        Diagram::from_root(&p, |x, y| match (x, y) {
            (0, 0) => first,
            (1, 0) => Cell::Level(1),
            (0, 1) => Cell::Undecided,
            _ => Cell::Level(9),
        })
    };
    let game = Game::new(&with(Cell::Undecided)).unwrap();
    assert_eq!(game.status(), &Status::Undecided { columns: vec![0] });
    assert!(game.log().is_empty());
    let said = game.status().describe();
    assert!(
        said.contains("undecided (?) cell in column 1: give it a level"),
        "{said}"
    );
    let two = Status::Undecided {
        columns: vec![0, 3],
    }
    .describe();
    assert!(
        two.contains("undecided (?) cells in columns 1, 4: give them a level"),
        "{two}"
    );
    let mut stopped = game.clone();
    let e = stopped.yellow(3).unwrap_err().to_string();
    assert!(e.contains("undecided (?) cell in column 1"), "{e}");
    // given a level, Red plays it; the `?` above it then stops the game when Yellow's
    // move leaves it playable
    let game = Game::new(&with(Cell::Level(0))).unwrap();
    assert_eq!(game.log()[0].column, Some(0));
    let game = Game::replay(&with(Cell::Level(0)), &[3]).unwrap();
    assert_eq!(game.status(), &Status::Undecided { columns: vec![0] });
    // an immediate win reads no level: the `?` on the winning cell does not stop it
    let d = Diagram::from_root(&Position::from_moves("112233").unwrap(), |x, y| {
        if (x, y) == (3, 0) {
            Cell::Undecided
        } else {
            Cell::Level(9)
        }
    });
    let game = Game::new(&d).unwrap();
    assert_eq!(game.log()[0].rule, Some(Rule::Win));
    assert_eq!(game.status(), &Status::RedWon);
}

#[test]
fn a_move_into_a_full_column_is_called_full() {
    // column 1 filled by six alternating stones: Red to move, no four
    let root = Position::from_moves("111111").unwrap();
    let d = Diagram::from_root(&root, |x, _| Cell::Level(if x == 3 { 0 } else { 9 }));
    let mut game = Game::new(&d).unwrap();
    let e = game.yellow(0).unwrap_err().to_string();
    assert_eq!(e, "Yellow's move 1: column 1 is full");
    let e = game.yellow(7).unwrap_err().to_string();
    assert_eq!(e, "Yellow's move 1: there is no column 8 (columns are 1-7)");
}

#[test]
fn levels_survive_stones_played_on_top() {
    let d = parse(WIN);
    let mut game = Game::new(&d).unwrap();
    // the level under a covered cell is still read where it is the playable cell later
    assert_eq!(game.log()[0].column, Some(5));
    game.yellow(0).unwrap();
    assert_eq!(game.status(), &Status::RedWon);
    assert!(game.undo());
    assert_eq!(game.log().len(), 1);
    assert!(!game.undo());
    assert!(game.yellow(9).is_err());
    // Yellow on column 7 uncovers the level 5 above it, which Red then reads there
    // (below column 6's newly uncovered 6, the two 0s tied)
    game.yellow(6).unwrap();
    let red = game.log().last().unwrap();
    assert_eq!(red.column, Some(6));
    let rule = red.rule.as_ref().unwrap().describe();
    assert!(rule.starts_with("level 5"), "{rule}");
}

#[test]
fn simplify_reaches_a_fixpoint() {
    let mut v = Verifier::new();
    let d = parse(WIN);
    let s = simplify(&d, &mut v).unwrap();
    assert!(s.cleared.is_empty(), "the example is already minimal");
    // add clutter: every blank cell at level 8; simplify must clear exactly the clutter
    let mut cluttered = d.clone();
    let mut added = 0;
    for x in 0..7 {
        for y in 0..6 {
            if cluttered.cell(x, y) == Cell::Level(9) {
                cluttered.set(x, y, Cell::Level(8));
                if v.verify(&cluttered).is_win() {
                    added += 1;
                } else {
                    cluttered.set(x, y, Cell::Level(9));
                }
            }
        }
    }
    assert!(added > 5);
    let s = simplify(&cluttered, &mut v).unwrap();
    assert!(v.verify(&s.diagram).is_win());
    for (x, y) in &s.cleared {
        assert_eq!(s.diagram.cell(*x, *y), Cell::Level(9));
    }
    // no single remaining non-9 level cell can be blanked
    for x in 0..7 {
        for y in 0..6 {
            if let Cell::Level(l) = s.diagram.cell(x, y) {
                if l != 9 {
                    let mut t = s.diagram.clone();
                    t.set(x, y, Cell::Level(9));
                    assert!(
                        !v.verify(&t).is_win(),
                        "cell {x},{y} could still be blanked"
                    );
                }
            }
        }
    }
    assert_eq!(
        simplify(&parse(LOSS), &mut v).unwrap_err(),
        SimplifyError::NotAWin("loss")
    );
}

#[test]
fn a_full_board_root_is_a_draw_not_a_missing_move() {
    // 42 moves without a four (found by a random search of moves that make none)
    let full = "257771314744647214154617633623313656555222";
    match Verifier::new().verify(&blank_on(full)) {
        Verdict::Loss { counterexample, .. } => {
            assert_eq!(counterexample.reason, LossReason::Draw);
            assert!(counterexample.line.is_empty());
        }
        other => panic!("{other:?}"),
    }
    // playing from it says the same: a draw, with no Red move named, and that the
    // diagram failed (it said "draw", where a diagram naming no move "Red loses")
    let game = Game::new(&blank_on(full)).unwrap();
    assert_eq!(game.status(), &Status::Draw);
    assert_eq!(game.status().describe(), "a draw: the diagram did not win");
    assert!(game.log().is_empty(), "{:?}", game.log());
}
